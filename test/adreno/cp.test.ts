import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Memory } from '../../src/core/memory.js';
import { Diagnostics } from '../../src/core/diagnostics.js';
import { CmdStream, Layout } from '../../src/adreno/cp/builder.js';
import { CommandProcessor } from '../../src/adreno/cp/cp.js';
import { enumValue, gpuRegs } from '../../src/adreno/regs/db.js';
import { alwaysOnTicks } from '../../src/adreno/rbbm/perfcounters.js';

const R = gpuRegs('a6xx');

/** Map a layout's buffers into a fresh memory and return a CP over it. */
function machine(L: Layout, opts: { maxPolls?: number; maxPackets?: number } = {}): { cp: CommandProcessor; mem: Memory; diag: Diagnostics } {
  const mem = new Memory();
  for (const b of L.buffers) mem.map(b.iova, Math.max(b.data.length, 4), b.label, b.data.slice());
  const diag = new Diagnostics();
  return { cp: new CommandProcessor(mem, { diag, ...opts }), mem, diag };
}

function ids(d: Diagnostics): string[] {
  return d.list.filter((x) => x.severity !== 'info').map((x) => x.id);
}

test('register and memory packets: MEM_WRITE, REG_TO_MEM, MEM_TO_REG, REG_RMW, MEM_TO_MEM, MEMCPY, COND_WRITE5, scratch', () => {
  const L = new Layout();
  const buf = L.reserve(4096, 'data');
  const src = L.place(new Uint32Array([10, 20, 30, 0, 5, 0, 3, 0]), 'src').iova;
  const cs = new CmdStream()
    .reg('CP_SCRATCH[0]', 0xf0f0)
    .memWrite(buf, [0x11, 0x22])
    .regToMem('CP_SCRATCH[0]', buf + 0x10)
    .memToReg('CP_SCRATCH[1]', src, 3)
    .regRmw('CP_SCRATCH[0]', 0xff, 0x1, { add: true })
    .regRmw('CP_SCRATCH[1]', 0xffffffff, 0x100)
    .regToMem('CP_SCRATCH[0]', buf + 0x20, 3)
    .memToMem(buf + 0x40, [src, src + 4, src + 8], { negC: true })
    .memToMem(buf + 0x48, [src + 16, src + 24], { double: true, negB: true })
    .memcpy(buf + 0x80, src, 3)
    .condWrite5('WRITE_EQ', src, 20, 0xffffffff, buf + 0x90, 0xaaaa)
    .condWrite5('WRITE_EQ', src + 4, 20, 0xffffffff, buf + 0x94, 0xbbbb)
    .regToScratch('CP_SCRATCH[0]', 2, 2)
    .scratchToReg('CP_SCRATCH[5]', 2, 2);
  const ib = L.place(cs);
  const { cp, mem, diag } = machine(L);
  assert.equal(cp.run(ib.iova, ib.sizeDwords), 'done');
  assert.deepEqual(ids(diag), []);
  assert.equal(mem.read32(buf), 0x11);
  assert.equal(mem.read32(buf + 4), 0x22);
  assert.equal(mem.read32(buf + 0x10), 0xf0f0);
  assert.equal(mem.read32(buf + 0x20), 0xf1); // (0xf0f0 & 0xff) + 1
  assert.equal(mem.read32(buf + 0x24), 10 | 0x100);
  assert.equal(mem.read32(buf + 0x28), 20);
  assert.equal(mem.read32(buf + 0x40), 10 + 20 - 30 >>> 0);
  assert.equal(mem.read64(buf + 0x48), 2);
  assert.deepEqual([mem.read32(buf + 0x80), mem.read32(buf + 0x84), mem.read32(buf + 0x88)], [10, 20, 30]);
  assert.equal(mem.read32(buf + 0x90), 0);
  assert.equal(mem.read32(buf + 0x94), 0xbbbb);
  assert.equal(cp.readReg(R.reg('CP_SCRATCH[5]')), 0xf1);
  assert.equal(cp.readReg(R.reg('CP_SCRATCH[6]')), 10 | 0x100);
});

test('IB levels: IB1 -> IB2, skip-IB2, IB3 is an error, chains replace the rest of the buffer', () => {
  const L = new Layout();
  const buf = L.reserve(4096);
  const ib2 = L.place(new CmdStream().memWrite(buf, [2]));
  const tail = L.place(new CmdStream().memWrite(buf + 8, [8]));
  const ib1 = L.place(
    new CmdStream()
      .indirectBuffer(ib2.iova, ib2.sizeDwords)
      .skipIb2EnableGlobal(true)
      .memWrite(buf + 4, [0])
      .indirectBuffer(ib2.iova, ib2.sizeDwords) // runs: without a visibility stream the skip enables change nothing
      .skipIb2EnableGlobal(false)
      .indirectBuffer(tail.iova, tail.sizeDwords, true)
      .memWrite(buf + 12, [12]), // abandoned by the chain
  );
  const { cp, mem, diag } = machine(L);
  assert.equal(cp.run(ib1.iova, ib1.sizeDwords), 'done');
  assert.deepEqual(ids(diag), []);
  assert.equal(mem.read32(buf), 2);
  assert.equal(mem.read32(buf + 8), 8);
  assert.equal(mem.read32(buf + 12), 0);

  const L2 = new Layout();
  const inner = L2.place(new CmdStream().nop());
  const mid = L2.place(new CmdStream().indirectBuffer(inner.iova, inner.sizeDwords));
  const top = L2.place(new CmdStream().indirectBuffer(mid.iova, mid.sizeDwords));
  const m2 = machine(L2);
  assert.equal(m2.cp.run(top.iova, top.sizeDwords), 'opcode-error');
  assert.deepEqual(ids(m2.diag), ['adreno.cp.ib-too-deep']);
});

test('draw-state groups run at draws and CP_SET_MODE, per mode, only when dirty', () => {
  const L = new Layout();
  const buf = L.reserve(4096);
  // The state object increments a counter in memory each time it runs.
  const so = L.place(new CmdStream().memToMem(buf, [buf, buf + 8]));
  L.buffers.find((b) => b.iova === buf)!.data.set(new Uint8Array(new Uint32Array([0, 0, 1, 0]).buffer));
  const ib = L.place(
    new CmdStream()
      .setMarker('RM6_BYPASS')
      .setDrawState([{ groupId: 1, addr: so.iova, count: so.sizeDwords, modes: ['SYSMEM'] }])
      .drawAuto('DI_PT_TRILIST', 3) // runs the group: 1
      .drawAuto('DI_PT_TRILIST', 3) // clean: not again
      .setDrawState([{ groupId: 1, addr: so.iova, count: so.sizeDwords, modes: ['SYSMEM'], dirty: true }])
      .setMode(1) // runs it: 2
      .drawAuto('DI_PT_TRILIST', 3) // clean
      .setMarker('RM6_GMEM')
      .drawAuto('DI_PT_TRILIST', 3), // GMEM has no group 1
  );
  const { cp, mem, diag } = machine(L);
  assert.equal(cp.run(ib.iova, ib.sizeDwords), 'done');
  assert.deepEqual(ids(diag), []);
  assert.equal(mem.read32(buf), 2);
  assert.equal(cp.work.length, 4);
  assert.deepEqual(cp.work.map((w) => w.mode), ['SYSMEM', 'SYSMEM', 'SYSMEM', 'GMEM']);
});

test('conditional execution: COND_EXEC, REG_TEST + COND_REG_EXEC, REG_COMPARE, RENDER_MODE', () => {
  const L = new Layout();
  const buf = L.reserve(4096);
  L.buffers[0]!.data.set(new Uint8Array(new Uint32Array([1, 5]).buffer));
  const w = (k: number): CmdStream => new CmdStream().memWrite(buf + 0x100 + 4 * k, [k + 1]);
  const len = w(0).length;
  const cs = new CmdStream()
    .condExec(buf, buf + 4, 6, len) // 1 != 0 && 5 < 6: run
    .raw(...w(0).dwords())
    .condExec(buf, buf + 4, 5, len) // 5 < 5 false: skip
    .raw(...w(1).dwords())
    .reg('CP_SCRATCH[0]', 0b100)
    .regTest('CP_SCRATCH[0]', 2)
    .condRegExecPred(len)
    .raw(...w(2).dwords())
    .regTest('CP_SCRATCH[0]', 1)
    .condRegExecPred(len)
    .raw(...w(3).dwords())
    .reg('CP_SCRATCH[1]', 0b100)
    .condRegExecCompare('CP_SCRATCH[0]', 'CP_SCRATCH[1]', len)
    .raw(...w(4).dwords())
    .setMarker('RM6_GMEM')
    .condRegExecRenderMode(['SYSMEM'], len)
    .raw(...w(5).dwords())
    .condRegExecRenderMode(['GMEM', 'BINNING'], len)
    .raw(...w(6).dwords());
  const ib = L.place(cs);
  const { cp, mem, diag } = machine(L);
  assert.equal(cp.run(ib.iova, ib.sizeDwords), 'done');
  assert.deepEqual(ids(diag), []);
  assert.deepEqual([0, 1, 2, 3, 4, 5, 6].map((k) => mem.read32(buf + 0x100 + 4 * k)), [1, 0, 3, 0, 5, 0, 7]);
});

test('draw predication kills draws and counts them; CP_DRAW_PRED_ENABLE_LOCAL(0) lets internal draws through', () => {
  const L = new Layout();
  const buf = L.reserve(4096); // 64-bit zero at buf
  const cs = new CmdStream()
    .reg('CP_PERFCTR_CP_SEL[0]', enumValue('a6xx_cp_perfcounter_select', 'PERF_CP_PREDICATED_DRAWS_KILLED', 'a6xx')!)
    .drawPredSet(buf, 'NE_0_PASS') // value 0: predicate fails
    .drawPredEnableGlobal(true)
    .drawAuto('DI_PT_POINTLIST', 1) // killed
    .drawPredEnableLocal(false)
    .drawAuto('DI_PT_POINTLIST', 1) // internal: runs
    .drawPredEnableLocal(true)
    .drawPredSet(buf, 'EQ_0_PASS')
    .drawAuto('DI_PT_POINTLIST', 1) // passes
    .regToMem('RBBM_PERFCTR_CP[0]', buf + 0x10, 2);
  const ib = L.place(cs);
  const { cp, mem } = machine(L);
  cp.run(ib.iova, ib.sizeDwords);
  assert.deepEqual(cp.work.map((w) => w.killed), [true, false, false]);
  assert.equal(mem.read32(buf + 0x10), 1);
});

test('events: timestamps, data writes, interrupts, cache flushes counted by the CP perf counters', () => {
  const L = new Layout();
  const buf = L.reserve(4096);
  const flushSel = enumValue('a6xx_cp_perfcounter_select', 'PERF_CP_CACHE_FLUSH', 'a6xx')!;
  const cs = new CmdStream()
    .reg('CP_PERFCTR_CP_SEL[0]', 0) // PERF_CP_ALWAYS_COUNT
    .reg('CP_PERFCTR_CP_SEL[1]', flushSel)
    .event('CACHE_FLUSH_TS', buf, 0x1234, { irq: true })
    .event('PC_CCU_FLUSH_COLOR_TS', buf + 8, 0, { timestamp: true })
    .event('CACHE_INVALIDATE')
    .regToMem('RBBM_PERFCTR_CP[0]', buf + 0x20, 4)
    .regToMem('CP_ALWAYS_ON_COUNTER', buf + 0x40, 2);
  const ib = L.place(cs);
  const { cp, mem, diag } = machine(L);
  assert.equal(cp.run(ib.iova, ib.sizeDwords), 'done');
  assert.deepEqual(ids(diag), []);
  assert.equal(mem.read32(buf), 0x1234);
  assert.ok(mem.read64(buf + 8) > 0);
  assert.equal(cp.interrupts, 1);
  assert.deepEqual(cp.events.map((e) => e.name), ['CACHE_FLUSH_TS', 'PC_CCU_FLUSH_COLOR_TS', 'CACHE_INVALIDATE']);
  const always = mem.read64(buf + 0x20);
  assert.ok(always > 10 && always <= cp.cycles, `${always}`);
  // CP_ALWAYS_ON_COUNTER: the 19.2 MHz timer over the CP cycles at 710 MHz, read after ALWAYS_COUNT.
  const ao = mem.read64(buf + 0x40);
  assert.ok(ao >= alwaysOnTicks(always) && ao <= alwaysOnTicks(cp.cycles) && ao === Math.floor(ao), `${ao}`);
  assert.equal(mem.read64(buf + 0x28), 3);
  assert.ok(R.at(R.reg('RBBM_INT_0_STATUS')));
  assert.equal((cp.regs[R.reg('RBBM_INT_0_STATUS')]! >>> 20) & 1, 1);
});

test('context banks: each draw sees the bank it was recorded with; CP_EVENT_END without CONTEXT_DONE hangs', () => {
  const L = new Layout();
  const ib = L.place(
    new CmdStream()
      .reg('GRAS_SU_POINT_SIZE', 0x10)
      .drawAuto('DI_PT_POINTLIST', 1)
      .reg('GRAS_SU_POINT_SIZE', 0x20)
      .drawAuto('DI_PT_POINTLIST', 1)
      .drawAuto('DI_PT_POINTLIST', 1),
  );
  const { cp, diag } = machine(L);
  cp.run(ib.iova, ib.sizeDwords);
  assert.deepEqual(ids(diag), []);
  const v = cp.work.map((w) => CommandProcessor.drawReg(w, R, 'GRAS_SU_POINT_SIZE'));
  assert.deepEqual(v, [0x10, 0x20, 0x20]);
  assert.deepEqual(cp.work.map((w) => w.bank), [0, 1, 0]);

  const L2 = new Layout();
  const bad = L2.place(new CmdStream().reg('CP_EVENT_START', 0).reg('CP_EVENT_END', 0).reg('CP_EVENT_END', 0));
  const m = machine(L2);
  assert.equal(m.cp.run(bad.iova, bad.sizeDwords), 'hang');
  assert.deepEqual(ids(m.diag), ['adreno.cp.context-hang']);
});

test('CP_PROTECT: IB writes to protected registers fault, ring-buffer writes do not', () => {
  const L = new Layout();
  const target = R.reg('CP_SCRATCH[7]');
  const ib1 = L.place(new CmdStream().reg('CP_SCRATCH[0]', 1).reg('CP_SCRATCH[7]', 2).reg('CP_SCRATCH[1]', 3));
  const ring = L.place(
    new CmdStream()
      .reg('CP_PROTECT_CNTL', 0b11)
      .reg('CP_PROTECT[0]', target) // write-protect one register
      .reg('CP_SCRATCH[7]', 9) // privileged: allowed
      .indirectBuffer(ib1.iova, ib1.sizeDwords),
  );
  const { cp, diag } = machine(L);
  assert.equal(cp.runRing(ring.iova, ring.sizeDwords), 'protect-fault');
  assert.deepEqual(ids(diag), ['adreno.cp.protect-violation']);
  assert.equal(cp.readReg(target), 9);
  assert.equal(cp.readReg(R.reg('CP_SCRATCH[1]')), 0);
  assert.equal((cp.regs[R.reg('CP_INTERRUPT_STATUS')]! >>> 4) & 1, 1);
  assert.equal(cp.regs[R.reg('CP_PROTECT_STATUS')]! & 0x3ffff, target);
  assert.equal(cp.regs[R.reg('RBBM_STATUS')], 0x00800005);
  // IB1 registers point at the faulting packet: 2 dwords executed, 4 remain.
  assert.equal(cp.regs[R.reg('CP_IB1_REM_SIZE')], 4);
  assert.match(cp.faultLine(0x36b0), /^gpu fault ring 0 fence 36b0 status 00800005 rb 0006\/000a ib1 0000000100000000\/0004 ib2 0000000000000000\/0000$/);
});

test('faults and malformed streams: opcode errors, unknown opcodes, iova faults, waits that never end, overruns, runaway chains', () => {
  const cases: [string, (L: Layout) => CmdStream, string, string[]][] = [
    ['bad header', () => new CmdStream().raw(0xdeadbeef), 'opcode-error', ['adreno.cp.bad-header']],
    ['bad parity', () => new CmdStream().raw(0x70108000 ^ 0x8000), 'opcode-error', ['adreno.cp.bad-parity']],
    ['unknown opcode', () => new CmdStream().pkt(0x7e, []), 'opcode-error', ['adreno.cp.unknown-opcode']],
    ['truncated', () => new CmdStream().raw(0x703d8005, 0), 'opcode-error', ['adreno.cp.truncated-packet']],
    ['iova fault', () => new CmdStream().memWrite(0x7000_0000_0000, [1]), 'done', ['adreno.cp.iova-fault']],
    ['wait hang', (L) => new CmdStream().waitRegMem('WRITE_EQ', L.reserve(64), 1, 0xffffffff), 'hang', ['adreno.cp.wait-hang']],
    ['overrun', (L) => new CmdStream().condExec(L.reserve(64), L.reserve(64), 0, 50).nop(), 'done', ['adreno.cp.cond-exec-overrun']],
    ['unmapped IB', () => new CmdStream().indirectBuffer(0x6000_0000_0000, 8), 'iova-fault', ['adreno.cp.ib-unmapped']],
  ];
  for (const [what, make, stop, want] of cases) {
    const L = new Layout();
    const ib = L.place(make(L));
    const { cp, diag } = machine(L, { maxPolls: 10 });
    assert.equal(cp.run(ib.iova, ib.sizeDwords), stop, what);
    assert.deepEqual(ids(diag), want, what);
  }
  // An IB chaining to itself forever.
  const L = new Layout();
  const self = L.reserve(64);
  const loop = new CmdStream().nop().indirectBuffer(self, 5, true);
  L.buffers[0]!.data.set(loop.bytes());
  const { cp, diag } = machine(L, { maxPackets: 1000 });
  assert.equal(cp.run(self, loop.length), 'budget');
  assert.deepEqual(ids(diag), ['adreno.cp.packet-budget']);
});

test('fuzz: random streams stop cleanly with a reason, never throw', () => {
  let seed = 99;
  const rnd = (): number => ((seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0), seed);
  const ops = [0x10, 0x3d, 0x3e, 0x42, 0x21, 0x46, 0x43, 0x3f, 0x44, 0x47, 0x39, 0x63, 0x65, 0x73, 0x75, 0x38];
  for (let k = 0; k < 300; k++) {
    const L = new Layout();
    const buf = L.reserve(4096);
    const cs = new CmdStream();
    for (let j = 0; j < 12; j++) {
      const r = rnd() % 4;
      if (r === 0) cs.raw(rnd());
      else if (r === 1) cs.reg(0x883 + (rnd() % 8), rnd());
      else {
        const n = rnd() % 8;
        const p = Array.from({ length: n }, (_, i) => (i % 2 === 0 ? buf + (rnd() % 1024) * 4 : 1));
        cs.pkt(ops[rnd() % ops.length]!, p);
      }
    }
    const ib = L.place(cs);
    const { cp } = machine(L, { maxPolls: 4, maxPackets: 10000 });
    const why = cp.run(ib.iova, ib.sizeDwords);
    assert.ok(['done', 'opcode-error', 'protect-fault', 'hang', 'iova-fault', 'budget'].includes(why));
  }
});

test('gpusim adreno run executes an .rd capture: exit 0 when clean, 1 on a fault', async () => {
  const { RdWriter } = await import('../../src/formats/rd.js');
  const { runRd } = await import('../../src/adreno/run.js');
  const make = (cs: CmdStream): Uint8Array => {
    const L = new Layout();
    const buf = L.reserve(256);
    const ib = L.place(cs.memWrite(buf, [7]));
    const w = new RdWriter().gpuId(630);
    for (const b of L.buffers) w.buffer(b.iova, b.data);
    return w.cmdstream(ib.iova, ib.sizeDwords).bytes(true);
  };
  const ok = runRd(make(new CmdStream().drawAuto('DI_PT_TRILIST', 3)));
  assert.deepEqual(ok.stops, ['done']);
  assert.equal(ok.cp.work.length, 1);
  const bad = runRd(make(new CmdStream().raw(0xdeadbeef)));
  assert.deepEqual(bad.stops, ['opcode-error']);
});

test('short payloads are opcode errors; clean streams raise nothing', () => {
  const L = new Layout();
  const ib = L.place(new CmdStream().pkt('CP_MEM_WRITE', [0]));
  const { cp, diag } = machine(L);
  assert.equal(cp.run(ib.iova, ib.sizeDwords), 'opcode-error');
  assert.deepEqual(ids(diag), ['adreno.cp.short-payload']);
  const L2 = new Layout();
  const ok = L2.place(new CmdStream().nop().waitForIdle().waitForMe().pkt('CP_WAIT_MEM_WRITES').setMarker('RM6_BINNING'));
  const m2 = machine(L2);
  assert.equal(m2.cp.run(ok.iova, ok.sizeDwords), 'done');
  assert.equal(m2.diag.size, 0);
});

test('a7xx CP_EVENT_WRITE7 writes user data, timestamps and register contents', () => {
  const L = new Layout();
  const buf = L.reserve(256);
  const ev = enumValue('vgt_event_type', 'CACHE_FLUSH_TS', 'a7xx')!;
  const R7 = gpuRegs('a7xx');
  const w7 = (src: number, addr: number, ...pl: number[]): number[] => [(ev | (src << 20) | (1 << 27)) >>> 0, addr >>> 0, Math.floor(addr / 2 ** 32), ...pl];
  const cs = new CmdStream('a7xx')
    .reg('CP_SCRATCH[0]', 0xabc)
    .pkt('CP_EVENT_WRITE7', w7(0, buf, 0x11))
    .pkt('CP_EVENT_WRITE7', w7(1, buf + 8, 0x22, 0x33))
    .nop(new Array(400).fill(0)) // 400 cycles: the 19.2 MHz timer has ticked
    .pkt('CP_EVENT_WRITE7', w7(3, buf + 16))
    .pkt('CP_EVENT_WRITE7', w7(4, buf + 32, R7.reg('CP_SCRATCH[0]'), 1));
  const ib = L.place(cs);
  const mem = new Memory();
  for (const b of L.buffers) mem.map(b.iova, b.data.length, b.label, b.data.slice());
  const diag = new Diagnostics();
  const cp = new CommandProcessor(mem, { gen: 'a7xx', diag });
  assert.equal(cp.run(ib.iova, ib.sizeDwords), 'done');
  assert.deepEqual([mem.read32(buf), mem.read32(buf + 8), mem.read32(buf + 12), mem.read32(buf + 32)], [0x11, 0x22, 0x33, 0xabc]);
  // EV_WRITE_ALWAYSON: the 19.2 MHz timer over the CP cycles at 710 MHz (over 400 cycles: at least 10 ticks).
  assert.ok(mem.read64(buf + 16) >= alwaysOnTicks(400) && mem.read64(buf + 16) <= alwaysOnTicks(cp.cycles), `${mem.read64(buf + 16)}`);
  assert.deepEqual(cp.events.map((e) => e.name), ['CACHE_FLUSH_TS', 'CACHE_FLUSH_TS', 'CACHE_FLUSH_TS', 'CACHE_FLUSH_TS']);
});

test('execution trace hook sees executed packets only; clusters come from register block names', async () => {
  const { clusterOf } = await import('../../src/adreno/cp/cp.js');
  assert.deepEqual(['GRAS_SU_POINT_SIZE', 'RB_BLEND_CNTL', 'PC_PRIMITIVE_CNTL_0', 'VFD_CONTROL_0', 'VPC_SO_CNTL', 'SP_VS_CONFIG', 'HLSQ_FS_CNTL', 'CP_SCRATCH'].map(clusterOf), ['GRAS', 'PS', 'FE', 'FE', 'PC_VS', 'SP_VS', 'SP_FS', undefined]);
  const L = new Layout();
  const buf = L.reserve(64);
  const w = new CmdStream().memWrite(buf, [1]);
  const ib = L.place(new CmdStream().condExec(buf + 8, buf, 1, w.length).raw(...w.dwords()).nop());
  const mem = new Memory();
  for (const b of L.buffers) mem.map(b.iova, b.data.length, b.label, b.data.slice());
  const seen: string[] = [];
  const cp = new CommandProcessor(mem, { diag: new Diagnostics(), onPacket: (p) => seen.push(p.name) });
  cp.run(ib.iova, ib.sizeDwords);
  assert.deepEqual(seen, ['CP_COND_EXEC', 'CP_NOP']);
});

test('CP_WAIT_MEM_GTE / CP_WAIT_TWO_REGS wait or hang; scratch writes, software interrupts, binning state reach draws', () => {
  const L = new Layout();
  const buf = L.reserve(64);
  L.buffers[0]!.data.set(new Uint8Array(new Uint32Array([5]).buffer));
  const cs = new CmdStream()
    .pkt('CP_WAIT_MEM_GTE', [0, buf >>> 0, Math.floor(buf / 2 ** 32), 5])
    .reg('CP_SCRATCH[0]', 1)
    .pkt('CP_WAIT_TWO_REGS', [R.reg('CP_SCRATCH[0]'), R.reg('CP_SCRATCH[1]'), 0])
    .pkt('CP_SCRATCH_WRITE', [2 << 20, 0xaa, 0xbb])
    .scratchToReg('CP_SCRATCH[4]', 2, 2)
    .pkt('CP_INTERRUPT', [0])
    .pkt('CP_SET_VISIBILITY_OVERRIDE', [1])
    .drawAuto('DI_PT_POINTLIST', 1);
  const ib = L.place(cs);
  const mem = new Memory();
  for (const b of L.buffers) mem.map(b.iova, b.data.length, b.label, b.data.slice());
  const diag = new Diagnostics();
  const cp = new CommandProcessor(mem, { diag });
  assert.equal(cp.run(ib.iova, ib.sizeDwords), 'done');
  assert.equal(diag.list.filter((d) => d.severity !== 'info').length, 0);
  assert.deepEqual([cp.readReg(R.reg('CP_SCRATCH[4]')), cp.readReg(R.reg('CP_SCRATCH[5]'))], [0xaa, 0xbb]);
  assert.equal(cp.interrupts, 1);
  assert.deepEqual(cp.work[0]!.cpState.get('CP_SET_VISIBILITY_OVERRIDE'), [1]);

  const L2 = new Layout();
  const b2 = L2.reserve(64);
  const hang = L2.place(new CmdStream().pkt('CP_WAIT_MEM_GTE', [0, b2 >>> 0, Math.floor(b2 / 2 ** 32), 1]));
  const m2 = new Memory();
  for (const b of L2.buffers) m2.map(b.iova, b.data.length, b.label, b.data.slice());
  const d2 = new Diagnostics();
  assert.equal(new CommandProcessor(m2, { diag: d2, maxPolls: 5 }).run(hang.iova, hang.sizeDwords), 'hang');
  assert.deepEqual(d2.list.map((d) => d.id), ['adreno.cp.wait-hang']);
});

test('strict mode stops a run at the first diagnostic; polling counts as SQE idle', async () => {
  const { RdWriter } = await import('../../src/formats/rd.js');
  const { runRd } = await import('../../src/adreno/run.js');
  const L = new Layout();
  const ib = L.place(new CmdStream().memWrite(0x7000_0000_0000, [1]).memWrite(0x7000_0000_0000, [2]));
  const w = new RdWriter().gpuId(630);
  for (const b of L.buffers) w.buffer(b.iova, b.data);
  const bytes = w.cmdstream(ib.iova, ib.sizeDwords).bytes();
  assert.equal(runRd(bytes).diag.list.length, 2);
  const strict = runRd(bytes, { strict: true });
  assert.equal(strict.diag.list.length, 1);
  assert.deepEqual(strict.stops, ['opcode-error']);

  const L2 = new Layout();
  const buf = L2.reserve(64);
  const cs = new CmdStream()
    .reg('CP_PERFCTR_CP_SEL[0]', enumValue('a6xx_cp_perfcounter_select', 'PERF_CP_SQE_IDLE', 'a6xx')!)
    .waitRegMem('WRITE_EQ', buf, 1, 0xffffffff, false, 4);
  const ib2 = L2.place(cs);
  const { cp } = machine(L2, { maxPolls: 3 });
  assert.equal(cp.run(ib2.iova, ib2.sizeDwords), 'hang');
  assert.equal(cp.regs[R.reg('RBBM_PERFCTR_CP[0]')], 12);
});
