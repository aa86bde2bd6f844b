/**
 * PM4 command processor: generated register databases, the builder, the walker's decode of every
 * handled packet on GFX9 / GFX10.3 / GFX11, malformed streams (typed error with the dword
 * offset), fuzzing (only the typed error, never a hang) and the CLI decoder.
 */
import { mulberry32U32 } from '../../src/core/prng.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Pm4Builder } from '../../src/amd/cp/builder.js';
import { everyPacket } from '../../src/amd/cp/examples.js';
import { HANDLERS } from '../../src/amd/cp/packets.js';
import { IT, Pm4Error, opcodeOnGen, pkt3Header } from '../../src/amd/cp/pm4.js';
import { PM4_GENS, regDb, parsePm4Gen, type Pm4Gen } from '../../src/amd/cp/regdb.js';
import { describePacket, type PrintedPacket } from '../../src/amd/cp/printer.js';
import { walkPm4, dwordsFromBytes } from '../../src/amd/cp/walker.js';
import { CommandProcessor } from '../../src/amd/cp/cp.js';
import { Memory } from '../../src/core/memory.js';
import { Diagnostics } from '../../src/core/diagnostics.js';
import { main } from '../../src/cli/main.js';

export { everyPacket };

function decodeAll(words: Uint32Array, gen: Pm4Gen): PrintedPacket[] {
  const out: PrintedPacket[] = [];
  walkPm4(words, { packet: (p) => { out.push(describePacket(p, gen)); } }, { gen });
  return out;
}

function expectPm4Error(fn: () => unknown, offset: number, msg: RegExp): Pm4Error {
  try {
    fn();
  } catch (e) {
    assert.ok(e instanceof Pm4Error, `expected Pm4Error, got ${String(e)}`);
    assert.equal(e.offset, offset, e.message);
    assert.match(e.message, msg);
    assert.match(e.message, new RegExp(`^dword ${offset}`));
    return e;
  }
  assert.fail('no error thrown');
}

test('register databases: counts, spaces and known registers per generation', () => {
  for (const gen of PM4_GENS) {
    const db = regDb(gen);
    assert.ok(db.regs.length > 1400, `${gen}: ${db.regs.length} registers`);
    // Offsets from Mesa's JSON (byte offset / 4).
    assert.equal(db.offset('COMPUTE_PGM_LO'), 0x2e0c);
    assert.equal(db.offset('COMPUTE_USER_DATA_0'), 0x2e40);
    assert.equal(db.offset('VGT_INDEX_TYPE'), 0xc243);
    assert.equal(db.offset('DB_SHADER_CONTROL'), 0xa203);
    const z = db.get('DB_SHADER_CONTROL')!.fields.find((f) => f.name === 'Z_ORDER')!;
    assert.deepEqual([z.lo, z.hi, z.values?.get(1)], [4, 5, 'EARLY_Z_THEN_LATE_Z']);
    assert.equal(db.field('COMPUTE_PGM_RSRC2', 'USER_SGPR', 6 << 1), 6);
  }
  assert.equal(regDb('gfx9').get('COMPUTE_PGM_RSRC3'), undefined);
  assert.ok(regDb('gfx11').get('COMPUTE_PGM_RSRC3'));
  assert.ok(regDb('gfx103').get('GE_VRS_RATE'), 'registers-manually-defined.json is merged');
  assert.equal(parsePm4Gen('gfx10.3'), 'gfx103');
  assert.equal(parsePm4Gen('gfx1100'), 'gfx11');
  assert.equal(parsePm4Gen('gfx900'), 'gfx9');
});

test('builder round trip: headers, counts and register writes decode back', () => {
  for (const gen of PM4_GENS) {
    const b = new Pm4Builder(gen);
    b.setShReg('COMPUTE_NUM_THREAD_X', 64, 2, 3).setContextReg('PA_SC_AA_CONFIG', 0x12).dispatchDirect(4, 5, 6, b.dispatchInitiator({ useThreadDimensions: true }));
    const w = b.finish();
    assert.equal(w[0], pkt3Header(IT.SET_SH_REG!, 4));
    assert.equal(w[0]! >>> 30, 3);
    assert.equal((w[0]! >>> 16) & 0x3fff, 3);
    assert.equal(w[1], 0x2e07 - 0x2c00);
    const d = decodeAll(w, gen);
    assert.deepEqual(d.map((p) => p.name), ['SET_SH_REG', 'SET_CONTEXT_REG', 'DISPATCH_DIRECT']);
    assert.deepEqual(d[0]!.writes.map((x) => [x.reg, x.value]), [['COMPUTE_NUM_THREAD_X', 64], ['COMPUTE_NUM_THREAD_Y', 2], ['COMPUTE_NUM_THREAD_Z', 3]]);
    assert.equal(d[1]!.writes[0]!.reg, 'PA_SC_AA_CONFIG');
    assert.equal(d[2]!.shaderType, 'compute');
    const init = d[2]!.body[3]!;
    assert.equal(init.fields.find((f) => f.name === 'USE_THREAD_DIMENSIONS')!.value, 1);
    assert.deepEqual(d[2]!.body.slice(0, 3).map((x) => x.value), [4, 5, 6]);
    // Bytes and back.
    assert.deepEqual(dwordsFromBytes(b.bytes()), w);
  }
});

test('decode: every handled packet on every generation', () => {
  for (const gen of PM4_GENS) {
    const d = decodeAll(everyPacket(gen).finish(), gen);
    const seen = new Set(d.map((p) => p.opcode));
    for (const [op, spec] of HANDLERS) if (opcodeOnGen(op, gen)) assert.ok(seen.has(op), `${gen}: IT_${spec.name} not covered`);
    const set = d.find((p) => p.name === 'SET_CONTEXT_REG')!;
    assert.deepEqual(set.writes[0]!.fields.find((f) => f.name === 'Z_ORDER'), { name: 'Z_ORDER', value: 1, text: 'EARLY_Z_THEN_LATE_Z' });
    const prim = d.find((p) => p.writes[0]?.reg === 'VGT_PRIMITIVE_TYPE')!;
    assert.equal(prim.writes[0]!.fields[0]!.text, 'DI_PT_TRILIST');
    const draw = d.find((p) => p.name === 'DRAW_INDEX_AUTO')!;
    assert.equal(draw.body[1]!.fields.find((f) => f.name === 'SOURCE_SELECT')!.text, 'DI_SRC_SEL_AUTO_INDEX');
    const wd = d.find((p) => p.name === 'WRITE_DATA')!;
    assert.equal(wd.body[0]!.fields.find((f) => f.name === 'DST_SEL')!.text, 'MEM');
    const ib = d.find((p) => p.name === 'INDIRECT_BUFFER')!;
    assert.deepEqual(ib.body[2]!.fields.filter((f) => f.name === 'IB_SIZE' || f.name === 'VALID').map((f) => f.value), [2, 1]);
    const acq = d.find((p) => p.name === 'ACQUIRE_MEM')!;
    assert.equal(acq.body.length, gen === 'gfx9' ? 6 : 7);
    if (gen !== 'gfx9') assert.ok(acq.body[6]!.fields.some((f) => f.name === 'GL2_WB'), 'GCR_CNTL from pkt3.json');
    const ew = d.find((p) => p.name === 'EVENT_WRITE')!;
    assert.equal(ew.body[0]!.fields.find((f) => f.name === 'EVENT_TYPE')!.text, 'CS_PARTIAL_FLUSH');
    const eop = d.find((p) => p.name === 'EVENT_WRITE_EOP')!;
    assert.equal(eop.body[0]!.fields.find((f) => f.name === 'EVENT_TYPE')!.text, 'BOTTOM_OF_PIPE_TS');
    const rel = d.find((p) => p.name === 'RELEASE_MEM')!;
    if (gen === 'gfx11') assert.equal(rel.body[0]!.fields.find((f) => f.name === 'EVENT_TYPE')!.text, 'BOTTOM_OF_PIPE_TS');
    const pad = d[d.length - 1]!;
    assert.deepEqual([pad.name, pad.count], ['NOP', 0]);
  }
});

test('decode: type-0 and type-2 packets', () => {
  const b = new Pm4Builder('gfx11').type0(0x2e07, 1, 2).type2();
  const d = decodeAll(b.finish(), 'gfx11');
  assert.deepEqual(d.map((p) => [p.name, p.type]), [['TYPE0', 0], ['TYPE2', 2]]);
  assert.deepEqual(d[0]!.writes.map((w) => w.reg), ['COMPUTE_NUM_THREAD_X', 'COMPUTE_NUM_THREAD_Y']);
});

test('malformed: bad header, count past the end, unknown opcode, wrong body size', () => {
  const ok = new Pm4Builder('gfx11').nop(1).finish();
  expectPm4Error(() => walkPm4(Uint32Array.from([...ok, 0x40000000]), { packet: () => {} }, { gen: 'gfx11' }), 2, /type 1 is reserved/);
  expectPm4Error(() => walkPm4(Uint32Array.from([...ok, pkt3Header(IT.SET_SH_REG!, 5), 7, 1]), { packet: () => {} }, { gen: 'gfx11' }), 2, /IT_SET_SH_REG .* 5 body dwords but only 2 remain/);
  expectPm4Error(() => walkPm4(Uint32Array.from([0xc000ff00, 0]), { packet: () => {} }, { gen: 'gfx103' }), 0, /unknown type-3 opcode 0xff/);
  expectPm4Error(() => walkPm4(Uint32Array.from([pkt3Header(0xb8, 2), 0, 0]), { packet: () => {} }, { gen: 'gfx9' }), 0, /IT_SET_CONTEXT_REG_PAIRS does not exist on gfx9/);
  expectPm4Error(() => walkPm4(Uint32Array.from([...ok, ...ok, pkt3Header(IT.DRAW_INDEX_AUTO!, 1), 3]), { packet: () => {} }, { gen: 'gfx9' }), 4, /IT_DRAW_INDEX_AUTO takes 2 body dwords on gfx9, this one has 1/);
  expectPm4Error(() => walkPm4(Uint32Array.from([0x00030000 | 0x2e07, 1]), { packet: () => {} }, { gen: 'gfx11' }), 0, /type-0 packet .* writes 4 registers/);
  expectPm4Error(() => dwordsFromBytes(new Uint8Array(6)), 1, /not a whole number of dwords/);
});

function ibMachine(gen: Pm4Gen): { mem: Memory; cp: CommandProcessor; diag: Diagnostics; put: (va: number, w: Uint32Array) => void } {
  const mem = new Memory();
  mem.map(0x100000, 0x100000, 'ibs');
  const diag = new Diagnostics();
  const cp = new CommandProcessor({ gen, mem, diag });
  const put = (va: number, w: Uint32Array): void => mem.writeBytes(va, new Uint8Array(w.buffer, w.byteOffset, w.byteLength));
  return { mem, cp, diag, put };
}

test('malformed: IB loops (called and chained), unmapped IBs and nesting too deep', () => {
  for (const gen of PM4_GENS) {
    // IB at A calls itself.
    {
      const m = ibMachine(gen);
      const a = new Pm4Builder(gen).nop(1).indirectBuffer(0x110000, 6).finish();
      m.put(0x110000, a);
      const e = expectPm4Error(() => m.cp.run(new Pm4Builder(gen).indirectBuffer(0x110000, 6).finish()), 2, /INDIRECT_BUFFER loop: the IB at 0x110000 is already being executed/);
      assert.equal(e.level, 1);
      assert.match(e.message, /^dword 2 of IB1 at 0x110000/);
    }
    // A chains to B, B chains back to A.
    {
      const m = ibMachine(gen);
      m.put(0x120000, new Pm4Builder(gen).indirectBuffer(0x130000, 4, { chain: true }).finish());
      m.put(0x130000, new Pm4Builder(gen).indirectBuffer(0x120000, 4, { chain: true }).finish());
      expectPm4Error(() => m.cp.run(new Pm4Builder(gen).indirectBuffer(0x120000, 4).finish()), 0, /INDIRECT_BUFFER loop: .*0x120000.*chained back/);
    }
    // Unmapped IB.
    {
      const m = ibMachine(gen);
      expectPm4Error(() => m.cp.run(new Pm4Builder(gen).nop(1).indirectBuffer(0x900000, 4).finish()), 2, /INDIRECT_BUFFER at 0x900000 \(4 dwords\) is not mapped/);
    }
    // Five nested levels with at most four allowed.
    {
      const m = ibMachine(gen);
      for (let k = 0; k < 5; k++) m.put(0x140000 + k * 0x100, new Pm4Builder(gen).indirectBuffer(0x140000 + (k + 1) * 0x100, 4).finish());
      m.put(0x140500, new Pm4Builder(gen).nop(1).finish());
      expectPm4Error(() => m.cp.run(new Pm4Builder(gen).indirectBuffer(0x140000, 4).finish()), 0, /would be IB level 5; at most 4/);
    }
  }
});

const rng = mulberry32U32;

test('fuzz: seeded random and mutated streams give the typed error or run, never anything else', () => {
  for (const gen of PM4_GENS) {
    const r = rng(0x5eed + gen.length);
    const valid = everyPacket(gen).finish();
    let errors = 0;
    let clean = 0;
    // One memory for all iterations: what earlier streams wrote is just more noise.
    const mem = new Memory();
    mem.map(0x100000, 0x400000, 'ram');
    for (let iter = 0; iter < 400; iter++) {
      let w: Uint32Array;
      if (iter % 2 === 0) {
        w = new Uint32Array(1 + (r() % 64));
        for (let i = 0; i < w.length; i++) {
          const k = r() % 4;
          // Bias towards plausible type-3 headers so handlers run on random bodies.
          w[i] = k === 0 ? (0xc0000000 | ((r() % 8) << 16) | ((r() & 0xff) << 8)) >>> 0 : r();
        }
      } else {
        w = valid.slice();
        for (let k = 0; k < 1 + (r() % 4); k++) w[r() % w.length] = r() % 2 ? r() : w[r() % w.length]! ^ (1 << (r() % 32));
      }
      mem.writeBytes(0x300000, new Uint8Array(w.buffer.slice(0)));
      const cp = new CommandProcessor({ gen, mem, diag: new Diagnostics({ limit: 100 }) });
      try {
        cp.run(w, { maxPackets: 10000 });
        clean++;
      } catch (e) {
        if (!(e instanceof Pm4Error)) throw new Error(`${gen} iteration ${iter}: ${String(e)}`);
        assert.match(e.message, /^dword \d+/);
        errors++;
      }
    }
    assert.ok(errors > 0 && clean > 0, `${gen}: ${errors} errors, ${clean} clean`);
  }
});

test('a clean stream reports no diagnostics', () => {
  for (const gen of PM4_GENS) {
    const m = ibMachine(gen);
    m.mem.map(0x200000, 0x300000, 'args-ib-results');
    m.put(0x300000, new Pm4Builder(gen).nop(1).finish());
    m.put(0x400000, Uint32Array.of(1));
    // The stream's occlusion query needs a DB: one that has counted nothing.
    const cp = new CommandProcessor({ gen, mem: m.mem, diag: m.diag, zpassCounts: () => [0, 0, 0, 0] });
    cp.run(everyPacket(gen).finish());
    assert.deepEqual(m.diag.list, [], m.diag.list.map((d) => d.message).join('\n'));
    assert.equal(cp.predicatedOff, 0, 'nothing visible, DRAW_NOT_VISIBLE: the predicated NOP runs');
  }
});

test('gpusim pm4 decode: text, JSON, exit 2 with the dword offset on a malformed stream', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'gpusim-pm4-'));
  const good = join(dir, 'ib.bin');
  writeFileSync(good, everyPacket('gfx11').bytes());
  const run = async (args: string[]): Promise<{ code: number; out: string; err: string }> => {
    let out = '';
    let err = '';
    const code = await main(args, { stdout: (s) => { out += s; }, stderr: (s) => { err += s; }, isTTY: false });
    return { code, out, err };
  };
  const t = await run(['pm4', 'decode', good, '--gfx', 'gfx11']);
  assert.equal(t.code, 0, t.err);
  assert.match(t.out, /IT_SET_CONTEXT_REG \(0x69\)/);
  assert.match(t.out, /DB_SHADER_CONTROL \(0xa203\) <- 0x00000010 .*Z_ORDER=EARLY_Z_THEN_LATE_Z/);
  assert.match(t.out, /IB1 0x300000 \(2 dwords\) not followed/);
  const good103 = join(dir, 'ib103.bin');
  writeFileSync(good103, everyPacket('gfx103').bytes());
  const j = await run(['pm4', 'decode', good103, '--gfx', 'gfx10.3', '--json']);
  assert.equal(j.code, 0, j.err);
  const recs = j.out.trim().split('\n').map((l) => JSON.parse(l) as { name?: string });
  assert.ok(recs.some((x) => x.name === 'DISPATCH_DIRECT'));
  const bad = join(dir, 'bad.bin');
  writeFileSync(bad, new Uint8Array(Uint32Array.from([pkt3Header(IT.NOP!, 1), 0, pkt3Header(IT.SET_SH_REG!, 9), 0]).buffer));
  const b = await run(['pm4', 'decode', bad, '--gfx', 'gfx9']);
  assert.equal(b.code, 2);
  assert.match(b.err, /dword 2: IT_SET_SH_REG .* 9 body dwords but only 1 remain/);
  const u = await run(['pm4', 'decode', good, '--gfx', 'gfx8']);
  assert.equal(u.code, 2);
});

/**
 * Golden decodes: test/golden/pm4/<gen>.bin (the every-packet stream) and <gen>.txt (what
 * `gpusim pm4 decode` prints). Accept a reviewed change with GPUSIM_ACCEPT_GOLDEN=1, then `git diff`.
 */
test('golden: pm4 decode of the every-packet stream per generation', async () => {
  const root = join(dirname(fileURLToPath(import.meta.url)), '../../..');
  const dir = join(root, 'test/golden/pm4');
  const accept = process.env['GPUSIM_ACCEPT_GOLDEN'] === '1';
  for (const gen of PM4_GENS) {
    const bin = join(dir, `${gen}.bin`);
    const bytes = everyPacket(gen).bytes();
    if (accept) {
      mkdirSync(dir, { recursive: true });
      writeFileSync(bin, bytes);
    }
    assert.deepEqual(new Uint8Array(readFileSync(bin)), bytes, `${gen}.bin differs from the builder's stream`);
    let out = '';
    const code = await main(['pm4', 'decode', bin, '--gfx', gen], { stdout: (s) => { out += s; }, stderr: () => {}, isTTY: false });
    assert.equal(code, 0);
    const txt = join(dir, `${gen}.txt`);
    if (accept) writeFileSync(txt, out);
    assert.equal(out, readFileSync(txt, 'utf8'), `${gen}: decode differs from ${txt}`);
  }
});

/**
 * The IB-following decode: a top-level stream calling IB1 (which calls IB2 and chains to a
 * second buffer) and an IB outside the given memory, decoded with `--mem FILE@ADDR` per buffer.
 * Streams under test/golden/pm4/ibs/, the text in ib-follow.txt (GPUSIM_ACCEPT_GOLDEN=1 rewrites).
 */
export function ibStreams(gen: Pm4Gen): { name: string; va: number; words: Uint32Array }[] {
  const ib2 = new Pm4Builder(gen).setShReg('COMPUTE_USER_DATA_2', 2).dispatchDirect(1, 1, 1).finish();
  const tail = new Pm4Builder(gen).setContextReg('PA_SC_AA_CONFIG', 0).nop(1).finish();
  const ib1 = new Pm4Builder(gen).setShReg('COMPUTE_USER_DATA_1', 1).indirectBuffer(0x30000, ib2.length)
    .indirectBuffer(0x20000, tail.length, { chain: true }).finish();
  const top = new Pm4Builder(gen).contextControl().indirectBuffer(0x10000, ib1.length).indirectBuffer(0x900000, 8).nop(1).finish();
  return [{ name: 'top', va: 0x1000, words: top }, { name: 'ib1', va: 0x10000, words: ib1 }, { name: 'tail', va: 0x20000, words: tail }, { name: 'ib2', va: 0x30000, words: ib2 }];
}

test('golden: pm4 decode follows INDIRECT_BUFFER calls and chains given --mem, notes the rest', async () => {
  const root = join(dirname(fileURLToPath(import.meta.url)), '../../..');
  const dir = join(root, 'test/golden/pm4/ibs');
  const accept = process.env['GPUSIM_ACCEPT_GOLDEN'] === '1';
  if (accept) mkdirSync(dir, { recursive: true });
  const streams = ibStreams('gfx11');
  for (const s of streams) {
    const f = join(dir, `${s.name}.bin`);
    const bytes = new Uint8Array(s.words.buffer);
    if (accept) writeFileSync(f, bytes);
    assert.deepEqual(new Uint8Array(readFileSync(f)), bytes, `${s.name}.bin differs from the builder's stream`);
  }
  const run = async (args: string[]): Promise<{ code: number; out: string; err: string }> => {
    let out = '';
    let err = '';
    const code = await main(args, { stdout: (s) => { out += s; }, stderr: (s) => { err += s; }, isTTY: false });
    return { code, out, err };
  };
  const mems = streams.slice(1).flatMap((s) => ['--mem', `${join(dir, s.name + '.bin')}@0x${s.va.toString(16)}`]);
  const t = await run(['pm4', 'decode', join(dir, 'top.bin'), '--gfx', 'gfx11', '--va', '0x1000', ...mems]);
  assert.equal(t.code, 0, t.err);
  const txt = join(root, 'test/golden/pm4/ib-follow.txt');
  if (accept) writeFileSync(txt, t.out);
  assert.equal(t.out, readFileSync(txt, 'utf8'));
  assert.match(t.out, /^  -- IB1 0x10000 \(\d+ dwords\)$/m);
  assert.match(t.out, /^    -- IB2 0x30000/m);
  assert.match(t.out, /^  -- chain to 0x20000/m);
  assert.match(t.out, /^  -- IB1 0x900000 \(8 dwords\) not followed: not in the given memory$/m);
  assert.match(t.out, /COMPUTE_USER_DATA_2 \(0x2e42\) <- 0x00000002/);
  // JSON: IB start, end and skip events between the packets, packets carry their level.
  const j = await run(['pm4', 'decode', join(dir, 'top.bin'), '--gfx', 'gfx11', '--json', ...mems]);
  const recs = j.out.trim().split('\n').map((l) => JSON.parse(l) as { event?: string; name?: string; level?: number });
  assert.deepEqual(recs.filter((r) => r.event).map((r) => `${r.event}:${r.level}`), ['ib:1', 'ib:2', 'ib-end:2', 'chain:1', 'ib-end:1', 'ib-not-followed:1']);
  assert.equal(recs.find((r) => r.name === 'DISPATCH_DIRECT')!.level, 2);
  // Without memory: the IB is noted, not followed.
  const n = await run(['pm4', 'decode', join(dir, 'top.bin'), '--gfx', 'gfx11']);
  assert.match(n.out, /-- IB1 0x10000 \(\d+ dwords\) not followed: no GPU memory/);
  // A loop through the given memory is an error with the dword offset and the IB.
  const loopDir = mkdtempSync(join(tmpdir(), 'gpusim-pm4-loop-'));
  const loop = join(loopDir, 'loop.bin');
  writeFileSync(loop, new Pm4Builder('gfx11').nop(1).indirectBuffer(0x40000, 6).finish());
  const l = await run(['pm4', 'decode', loop, '--gfx', 'gfx11', '--mem', `${loop}@0x40000`]);
  assert.equal(l.code, 2);
  assert.match(l.err, /dword 2 of IB1 at 0x40000: INDIRECT_BUFFER loop/);
  const bad = await run(['pm4', 'decode', loop, '--gfx', 'gfx11', '--mem', `${loop}@0x40002`]);
  assert.equal(bad.code, 2);
  assert.match(bad.err, /not dword aligned/);
});

test('src/amd/cp/README.md carries the measured coverage table (gpusim pm4 coverage)', async () => {
  let out = '';
  const code = await main(['pm4', 'coverage'], { stdout: (s) => { out += s; }, stderr: () => {}, isTTY: false });
  assert.equal(code, 0);
  const lines = out.trim().split('\n');
  assert.equal(lines.length, 5);
  const readme = readFileSync(fileURLToPath(new URL('../../../src/amd/cp/README.md', import.meta.url)), 'utf8');
  assert.ok(readme.includes(lines.join('\n')), 'README coverage table is stale: paste `gpusim pm4 coverage` into src/amd/cp/README.md');
  // Every handled packet is in the every-packet stream and executes; the JSON form agrees.
  let json = '';
  await main(['pm4', 'coverage', '--json'], { stdout: (s) => { json += s; }, stderr: () => {}, isTTY: false });
  const rows = JSON.parse(json) as { gen: string; golden: number; executed: number; decoded: number; registers: number; kernelsRun: number }[];
  for (const r of rows) {
    assert.equal(r.kernelsRun, 2, `${r.gen}: the compute example's DISPATCH_DIRECT and DISPATCH_INDIRECT both ran`);
    const handled = [...HANDLERS.keys()].filter((op) => opcodeOnGen(op, r.gen as Pm4Gen)).length;
    assert.equal(r.golden, handled, r.gen);
    assert.equal(r.executed, handled, r.gen);
    assert.equal(r.registers, regDb(r.gen as Pm4Gen).regs.length);
  }
});
