/**
 * PM4 register-load, register-pair, predication and conditional-execution packets on the command
 * processor: LOAD_*_REG(_INDEX), SET_*_REG_PAIRS(_PACKED(_N)), SET_PREDICATION with the PREDICATE
 * header bit, COND_EXEC. Layouts as Mesa's ac_pm4/ac_parse_ib and radv emit them; each malformed
 * form gives a Pm4Error at its dword offset, each hazard a diagnostic (and none on clean streams).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Pm4Builder } from '../../src/amd/cp/builder.js';
import { IT, Pm4Error, pkt3Header } from '../../src/amd/cp/pm4.js';
import { PM4_GENS, REG_SPACES, type Pm4Gen } from '../../src/amd/cp/regdb.js';
import { CommandProcessor } from '../../src/amd/cp/cp.js';
import { walkPm4 } from '../../src/amd/cp/walker.js';
import { Memory } from '../../src/core/memory.js';
import { Diagnostics } from '../../src/core/diagnostics.js';

const LOADS_ON = 0x80000000 | 1 | 2 | 1 << 15 | 1 << 16 | 1 << 24;

function machine(gen: Pm4Gen): { mem: Memory; cp: CommandProcessor; diag: Diagnostics; put: (va: number, w: ArrayLike<number>) => void } {
  const mem = new Memory();
  mem.map(0x100000, 0x100000, 'data');
  const diag = new Diagnostics();
  const cp = new CommandProcessor({ gen, mem, diag });
  const put = (va: number, w: ArrayLike<number>): void => {
    const u = Uint32Array.from(w);
    mem.writeBytes(va, new Uint8Array(u.buffer));
  };
  return { mem, cp, diag, put };
}

function expectPm4Error(fn: () => unknown, offset: number, msg: RegExp): void {
  assert.throws(fn, (e: unknown) => {
    assert.ok(e instanceof Pm4Error, String(e));
    assert.equal(e.offset, offset, e.message);
    assert.match(e.message, msg);
    return true;
  });
}

const ids = (d: Diagnostics): string[] => d.list.map((x) => x.id);

test('SET_*_REG_PAIRS and the packed forms write their registers (GFX11) with the Mesa layout', () => {
  const m = machine('gfx11');
  const b = new Pm4Builder('gfx11');
  b.setRegPairs('context', [['PA_SC_AA_CONFIG', 0x12], ['DB_SHADER_CONTROL', 0x10]])
    .setRegPairs('sh', [['COMPUTE_USER_DATA_3', 3], ['COMPUTE_USER_DATA_9', 9], ['COMPUTE_USER_DATA_1', 1]], { packed: true })
    .setRegPairs('sh', [['COMPUTE_USER_DATA_4', 4], ['COMPUTE_USER_DATA_6', 6]], { packed: true, n: true });
  const w = b.finish();
  // Packed: REG_COUNT (padded to even), then (off0 | off1 << 16, v0, v1) groups; the pad repeats the first register.
  const packedAt = 5;
  assert.equal(w[packedAt]! >>> 8 & 0xff, IT.SET_SH_REG_PAIRS_PACKED);
  assert.equal(w[packedAt]! & 4, 4, 'RESET_FILTER_CAM on the graphics queue');
  assert.deepEqual(Array.from(w.subarray(packedAt + 1, packedAt + 8)), [4, 0x243 | 0x249 << 16, 3, 9, 0x241 | 0x243 << 16, 1, 3]);
  m.cp.run(w);
  assert.deepEqual(m.diag.list, []);
  assert.equal(m.cp.reg('PA_SC_AA_CONFIG'), 0x12);
  assert.equal(m.cp.reg('DB_SHADER_CONTROL'), 0x10);
  assert.deepEqual([1, 3, 4, 6, 9].map((k) => m.cp.reg(`COMPUTE_USER_DATA_${k}`)), [1, 3, 4, 6, 9]);
});

test('SET_*_REG_PAIRS: malformed forms give the dword offset; pre-GFX11 streams reject the opcodes', () => {
  const walk = (w: number[], gen: Pm4Gen = 'gfx11'): unknown => walkPm4(Uint32Array.from(w), { packet: () => {} }, { gen });
  const nop = [pkt3Header(IT.NOP!, 1), 0];
  expectPm4Error(() => walk([...nop, pkt3Header(IT.SET_CONTEXT_REG_PAIRS!, 3), 0x2f8, 1, 0x203]), 2, /odd 3 dwords/);
  expectPm4Error(() => walk([...nop, pkt3Header(IT.SET_SH_REG_PAIRS_PACKED!, 5), 2, 0x243, 3, 4, 9]), 2, /groups of 3 dwords, but its body has 5/);
  expectPm4Error(() => walk([pkt3Header(IT.SET_SH_REG_PAIRS_PACKED!, 4), 3, 0x243 | 0x244 << 16, 3, 4]), 0, /REG_COUNT is 3 but the body carries 2/);
  const sixteen = [16];
  for (let k = 0; k < 8; k++) sixteen.push((0x240 + 2 * k) | (0x241 + 2 * k) << 16, k, k);
  expectPm4Error(() => walk([pkt3Header(IT.SET_SH_REG_PAIRS_PACKED_N!, sixteen.length), ...sixteen]), 0, /takes 4\.\.22 body dwords/);
  expectPm4Error(() => walk([pkt3Header(IT.SET_SH_REG_PAIRS!, 2), 0x243, 1], 'gfx103'), 0, /IT_SET_SH_REG_PAIRS does not exist on gfx103/);
  expectPm4Error(() => walk([pkt3Header(IT.SET_CONTEXT_REG_PAIRS_PACKED!, 4), 2, 0, 0, 0], 'gfx9'), 0, /does not exist on gfx9/);
});

test('SET_*_REG_PAIRS analysis: missing RESET_FILTER_CAM and a packed pair naming one register twice', () => {
  const m = machine('gfx11');
  const w = Uint32Array.from([
    pkt3Header(IT.SET_SH_REG_PAIRS!, 2), 0x243, 1,
    pkt3Header(IT.SET_SH_REG_PAIRS_PACKED!, 4, { resetFilterCam: true }), 2, 0x243 | 0x243 << 16, 5, 5,
  ]);
  m.cp.run(w);
  assert.deepEqual(ids(m.diag), ['pm4.set-pairs.no-reset-filter-cam', 'pm4.set-pairs-packed.duplicate-pair']);
  assert.deepEqual(m.diag.list.map((d) => d.where['offset']), [0, 3]);
});

test('LOAD_*_REG load an image of the space, only when CONTEXT_CONTROL enables the group', () => {
  for (const gen of PM4_GENS) {
    const m = machine(gen);
    const img = 0x110000;
    const db = new Pm4Builder(gen).db;
    // One image per space (the spaces' offsets overlap): context at img, sh at img + 0x10000, uconfig at img + 0x20000.
    const imgOf = { context: img, sh: img + 0x10000, uconfig: img + 0x20000, config: img + 0x30000 } as const;
    const at = (reg: string, sp: keyof typeof REG_SPACES): number => imgOf[sp] + (db.offset(reg) - REG_SPACES[sp].base) * 4;
    m.put(at('PA_SC_AA_CONFIG', 'context'), [0x44]);
    m.put(at('COMPUTE_USER_DATA_2', 'sh'), [0x22, 0x33]);
    m.put(at('VGT_PRIMITIVE_TYPE', 'uconfig'), [4]);
    const b = new Pm4Builder(gen).contextControl(LOADS_ON)
      .loadReg('context', img, [['PA_SC_AA_CONFIG', 1]])
      .loadReg('sh', imgOf.sh, [['COMPUTE_USER_DATA_2', 2]], { compute: true })
      .loadReg('uconfig', imgOf.uconfig, [['VGT_PRIMITIVE_TYPE', 1]]);
    m.cp.run(b.finish());
    assert.deepEqual(m.diag.list, [], gen);
    assert.equal(m.cp.reg('PA_SC_AA_CONFIG'), 0x44);
    assert.deepEqual([m.cp.reg('COMPUTE_USER_DATA_2'), m.cp.reg('COMPUTE_USER_DATA_3')], [0x22, 0x33]);
    assert.equal(m.cp.reg('VGT_PRIMITIVE_TYPE'), 4);
    // Load enables off (what drivers send when not shadowing): ignored, with a diagnostic.
    const off = machine(gen);
    off.put(at('PA_SC_AA_CONFIG', 'context'), [0x44]);
    off.cp.run(new Pm4Builder(gen).contextControl().loadReg('context', img, [['PA_SC_AA_CONFIG', 1]]).finish());
    assert.equal(off.cp.reg('PA_SC_AA_CONFIG'), 0);
    assert.deepEqual(ids(off.diag), ['pm4.load-reg.disabled']);
    // Past the end of the space.
    const far = machine(gen);
    far.cp.run(Uint32Array.from([pkt3Header(IT.LOAD_CONTEXT_REG!, 4), img, 0, 0xfff, 4]));
    assert.deepEqual(ids(far.diag), ['pm4.load-reg.out-of-space']);
    // An odd group list is malformed.
    expectPm4Error(() => far.cp.run(Uint32Array.from([pkt3Header(IT.NOP!, 1), 0, pkt3Header(IT.LOAD_SH_REG!, 5), img, 0, 0x240, 1, 7])), 2, /odd 5 dwords/);
  }
});

test('LOAD_*_REG_INDEX: offset-and-size and offset-and-data from the address itself', () => {
  for (const gen of PM4_GENS) {
    const m = machine(gen);
    m.put(0x120000, [0x11, 0x12, 0x13]);
    m.put(0x130000, [0x2f8, 0x77, 0x203, 0x10]);
    const b = new Pm4Builder(gen)
      .loadRegIndex('sh', 0x120000, 'COMPUTE_USER_DATA_4', 3)
      .loadRegIndex('context', 0x130000, 0xa000, 2, { offsetAndData: true });
    m.cp.run(b.finish());
    assert.deepEqual(m.diag.list, [], gen);
    assert.deepEqual([4, 5, 6].map((k) => m.cp.reg(`COMPUTE_USER_DATA_${k}`)), [0x11, 0x12, 0x13]);
    assert.equal(m.cp.reg('PA_SC_AA_CONFIG'), 0x77);
    assert.equal(m.cp.reg('DB_SHADER_CONTROL'), 0x10);
    const o = machine(gen);
    o.cp.run(Uint32Array.from([pkt3Header(IT.LOAD_SH_REG_INDEX!, 4), 0x120000 | 1, 0, 0x244, 1]));
    assert.deepEqual(ids(o.diag), ['pm4.load-reg-index.unsupported-index']);
  }
});

test('SET_PREDICATION and the PREDICATE header bit: predicated draws run only while the condition holds', () => {
  for (const gen of PM4_GENS) {
    const m = machine(gen);
    m.put(0x140000, [0, 0, 1, 0]);
    const b = new Pm4Builder(gen);
    const draw = (): void => { b.pkt3(IT.DRAW_INDEX_AUTO!, [3, b.drawInitiator('DI_SRC_SEL_AUTO_INDEX')], { predicate: true }); };
    b.setPredication(3, 0x140000); draw(); // value 0, draw-if-non-zero: skipped
    b.setPredication(3, 0x140000, { drawVisible: false }); draw(); // value 0, inverted: runs
    b.setPredication(4, 0x140008); draw(); // BOOL32 value 1: runs
    b.setPredication(3, 0x140000, { continue: true }); draw(); // false OR true (continued): runs
    b.setPredication(3, 0x140000); b.drawIndexAuto(6); // unpredicated packets always run
    b.setPredication(0); draw(); // cleared: runs
    b.setPredication(3, 0x140000).pkt3(IT.SET_SH_REG!, [0x240, 0x99], { predicate: true }); // discarded writes
    m.cp.run(b.finish());
    assert.deepEqual(m.diag.list, [], gen);
    assert.deepEqual(m.cp.draws.map((d) => d.count), [3, 3, 3, 6, 3]);
    assert.equal(m.cp.predicatedOff, 2);
    assert.equal(m.cp.reg('COMPUTE_USER_DATA_0'), 0);
    // A predicated-off INDIRECT_BUFFER is not followed.
    const ib = machine(gen);
    ib.put(0x150000, new Pm4Builder(gen).drawIndexAuto(9).finish());
    ib.cp.run(new Pm4Builder(gen).setPredication(3, 0x140000).pkt3(IT.INDIRECT_BUFFER!, [0x150000, 0, 2 | 1 << 23], { predicate: true }).finish());
    assert.equal(ib.cp.draws.length, 0);
  }
});

/** A 64-bit query value with the written bit (63): [lo, hi]. */
const qv = (n: number): number[] => [n >>> 0, 0x8000_0000];

test('SET_PREDICATION ZPASS sums the RB slots of an occlusion block; PRIMCOUNT reads streamout overflow; CONTINUE ORs blocks', () => {
  for (const gen of PM4_GENS) {
    const m = machine(gen);
    // Two occlusion blocks of 4 RB slots {begin, end}: 0x140000 saw 5 samples on RB 2, 0x140100 none.
    m.put(0x140000, [...qv(10), ...qv(10), ...qv(0), ...qv(0), ...qv(7), ...qv(12), ...qv(3), ...qv(3)]);
    m.put(0x140100, [...qv(1), ...qv(1), ...qv(2), ...qv(2), ...qv(3), ...qv(3), ...qv(4), ...qv(4)]);
    // Streamout blocks {written, needed} begin then end: 0x140200 fits (4 written, 4 needed), 0x140300 overflowed (4 of 6).
    m.put(0x140200, [...qv(0), ...qv(0), ...qv(4), ...qv(4)]);
    m.put(0x140300, [...qv(0), ...qv(0), ...qv(4), ...qv(6)]);
    const b = new Pm4Builder(gen);
    const draw = (n: number): void => { b.pkt3(IT.DRAW_INDEX_AUTO!, [n, b.drawInitiator('DI_SRC_SEL_AUTO_INDEX')], { predicate: true }); };
    b.setPredication(1, 0x140000); draw(1); // visible, draw if visible: runs
    b.setPredication(1, 0x140100); draw(2); // nothing visible: skipped
    b.setPredication(1, 0x140100, { drawVisible: false }); draw(3); // not visible, draw if not visible: runs
    b.setPredication(1, 0x140100).setPredication(1, 0x140000, { continue: true }); draw(4); // either block visible: runs
    b.setPredication(1, 0x140000, { drawVisible: false }).setPredication(1, 0x140100, { drawVisible: false, continue: true }); draw(5); // one visible: skipped
    b.setPredication(2, 0x140200); draw(6); // no overflow, draw if no overflow: runs
    b.setPredication(2, 0x140300); draw(7); // overflow: skipped
    b.setPredication(2, 0x140200, { drawVisible: false }).setPredication(2, 0x140300, { drawVisible: false, continue: true }); draw(8); // draw if any stream overflowed: runs
    b.setPredication(0);
    m.cp.run(b.finish());
    assert.deepEqual(ids(m.diag), [], gen);
    assert.deepEqual(m.cp.draws.map((d) => d.count), [1, 3, 4, 6, 8], gen);

    // A block some RB has not written: HINT = WAIT would wait forever (reported), NOWAIT_DRAW just draws.
    const w = machine(gen);
    w.put(0x140000, [...qv(1), ...qv(1), 0, 0, 0, 0]);
    w.cp.run(new Pm4Builder(gen).setPredication(1, 0x140000).pkt3(IT.DRAW_INDEX_AUTO!, [9, 2], { predicate: true })
      .setPredication(1, 0x140000, { noWait: true }).pkt3(IT.DRAW_INDEX_AUTO!, [10, 2], { predicate: true }).finish());
    assert.deepEqual(ids(w.diag), ['pm4.set-predication.query-not-ready']);
    assert.match(w.diag.list[0]!.message, /4 RB slots/);
    assert.deepEqual(w.cp.draws.map((d) => d.count), [9, 10]);
    // A reserved PRED_OP is reported.
    const r = machine(gen);
    r.cp.run(new Pm4Builder(gen).pkt3(IT.SET_PREDICATION!, [5 << 16, 0x140000, 0]).finish());
    assert.deepEqual(ids(r.diag), ['pm4.set-predication.reserved-op']);
  }
});

test('ZPASS events: every RB writes its counter (bit 63 set) at va + 16*rb; without a pipeline they are reported and write nothing', () => {
  for (const gen of PM4_GENS) {
    const mem = new Memory();
    mem.map(0x100000, 0x100000, 'data');
    const diag = new Diagnostics();
    let counts = [0, 0, 0];
    const cp = new CommandProcessor({ gen, mem, diag, renderBackends: 3, zpassCounts: () => counts });
    const b = new Pm4Builder(gen).zpassDump(0x140000);
    cp.run(b.finish());
    counts = [5, 0, 2 ** 33 + 1];
    const end = new Pm4Builder(gen).zpassDump(0x140008, { packet: gen === 'gfx11' })
      .setPredication(1, 0x140000).pkt3(IT.DRAW_INDEX_AUTO!, [3, 2], { predicate: true }).finish();
    cp.run(end);
    assert.deepEqual(ids(diag), [], gen);
    const words = Array.from({ length: 12 }, (_, i) => mem.read32(0x140000 + 4 * i) >>> 0);
    assert.deepEqual(words, [0, 0x80000000, 5, 0x80000000, 0, 0x80000000, 0, 0x80000000, 0, 0x80000000, 1, 0x80000002], gen);
    assert.equal(cp.draws.length, 1, 'samples passed between the dumps: the predicated draw runs');
    // No pipeline: the counts are unknown.
    const bare = machine(gen);
    bare.cp.run(new Pm4Builder(gen).zpassDump(0x140000).eventWrite('SAMPLE_STREAMOUTSTATS', 3, 0x140100).finish());
    assert.deepEqual(ids(bare.diag), ['pm4.event.zpass-no-pipeline', 'pm4.event.streamout-stats-not-modelled']);
    assert.equal(bare.mem.read32(0x140004), 0);
  }
  assert.throws(() => new Pm4Builder('gfx103').zpassDump(0, { packet: true }), /GFX11 packet/);
});

test('COND_EXEC skips EXEC_COUNT dwords when the value is zero; a skip into a packet or past the end is caught', () => {
  for (const gen of PM4_GENS) {
    const m = machine(gen);
    m.put(0x160000, [0, 5]);
    const b = new Pm4Builder(gen);
    b.condExec(0x160000, 3).drawIndexAuto(1); // zero: the 3-dword draw is skipped
    b.condExec(0x160004, 3).drawIndexAuto(2); // non-zero: runs
    b.drawIndexAuto(4);
    m.cp.run(b.finish());
    assert.deepEqual(m.diag.list, [], gen);
    assert.deepEqual(m.cp.draws.map((d) => d.count), [2, 4]);
    assert.equal(m.cp.condSkippedDwords, 3);
    // Skipping 2 dwords of a 3-dword packet leaves the CP parsing its last dword as a header.
    const mid = machine(gen);
    mid.cp.run(Uint32Array.from([...new Pm4Builder(gen).condExec(0x160000, 2).finish(), pkt3Header(IT.NOP!, 2), 0, 0x80000000]));
    assert.deepEqual(ids(mid.diag), ['pm4.cond-exec.mid-packet']);
    assert.equal(mid.diag.list[0]!.where['offset'], 0);
    const end = machine(gen);
    expectPm4Error(() => end.cp.run(new Pm4Builder(gen).nop(1).condExec(0x160000, 9).nop(1).finish()), 2, /skips 9 dwords but only 2 remain/);
  }
});
