/**
 * PM4 execution: register file, memory writes of WRITE_DATA / COPY_DATA / EVENT_WRITE_EOP /
 * RELEASE_MEM, WAIT_REG_MEM (a wait that can never end is a diagnostic), draws and dispatches
 * recorded with their register state, nested and chained IBs, and a compute dispatch of
 * kernels/bin/gfx1100/vadd.co through PM4 matching `runKernel` on the same inputs.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Pm4Builder, DATA_SEL, DST_SEL, SRC_SEL, WAIT_FN } from '../../src/amd/cp/builder.js';
import { CommandProcessor } from '../../src/amd/cp/cp.js';
import { PM4_GENS, type Pm4Gen } from '../../src/amd/cp/regdb.js';
import { Memory } from '../../src/core/memory.js';
import { Diagnostics } from '../../src/core/diagnostics.js';
import { loadCodeObject } from '../../src/formats/amdgpu/codeobject.js';
import { loadCode } from '../../src/runtime/dispatch.js';
import { setupLaunch } from '../../src/runtime/hsa.js';
import { emitKernelDispatch, pm4Machine } from '../../src/runtime/pm4.js';
import { runKernel } from '../../src/runtime/run.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

function machine(gen: Pm4Gen): { mem: Memory; cp: CommandProcessor; diag: Diagnostics; put: (va: number, w: Uint32Array) => void } {
  const mem = new Memory();
  mem.map(0x100000, 0x400000, 'ram');
  const diag = new Diagnostics();
  const cp = new CommandProcessor({ gen, mem, diag });
  return { mem, cp, diag, put: (va, w) => mem.writeBytes(va, new Uint8Array(w.buffer, w.byteOffset, w.byteLength)) };
}

test('execute: register file, memory writes, copies, end-of-pipe writes', () => {
  for (const gen of PM4_GENS) {
    const m = machine(gen);
    const b = new Pm4Builder(gen);
    b.setShReg('COMPUTE_USER_DATA_0', 0x11, 0x22)
      .writeMem(0x200000, 1, 2, 3)
      .writeData(DST_SEL.MEM, 0x200100, [7, 8, 9], { oneAddr: true })
      .writeData(DST_SEL.REG, b.db.offset('COMPUTE_USER_DATA_2'), [0x33])
      .copyData(SRC_SEL.IMM, 0xabcd, DST_SEL.MEM, 0x200010)
      .copyData(SRC_SEL.REG, b.db.offset('COMPUTE_USER_DATA_1'), DST_SEL.MEM, 0x200014)
      .copyData(SRC_SEL.TC_L2, 0x200000, DST_SEL.REG, b.db.offset('COMPUTE_USER_DATA_3'), { wide: true })
      .eventWriteEop('BOTTOM_OF_PIPE_TS', 0x200020, DATA_SEL.VALUE_32, 0xfeed)
      .releaseMem('BOTTOM_OF_PIPE_TS', 0x200028, DATA_SEL.VALUE_64, 0x1111, 0x2222)
      .releaseMem('BOTTOM_OF_PIPE_TS', 0x200030, DATA_SEL.TIMESTAMP);
    m.cp.run(b.finish());
    assert.deepEqual([m.cp.reg('COMPUTE_USER_DATA_0'), m.cp.reg('COMPUTE_USER_DATA_1'), m.cp.reg('COMPUTE_USER_DATA_2')], [0x11, 0x22, 0x33]);
    assert.deepEqual([m.cp.reg('COMPUTE_USER_DATA_3'), m.cp.reg('COMPUTE_USER_DATA_4')], [1, 2]);
    assert.deepEqual([0, 4, 8].map((o) => m.mem.read32(0x200000 + o)), [1, 2, 3]);
    assert.equal(m.mem.read32(0x200100), 9);
    assert.equal(m.mem.read32(0x200010), 0xabcd);
    assert.equal(m.mem.read32(0x200014), 0x22);
    assert.equal(m.mem.read32(0x200020), 0xfeed);
    assert.deepEqual([m.mem.read32(0x200028), m.mem.read32(0x20002c)], [0x1111, 0x2222]);
    assert.ok(m.mem.read64(0x200030) > 0, 'timestamp');
    assert.deepEqual(m.cp.events.map((e) => e.name), ['BOTTOM_OF_PIPE_TS', 'BOTTOM_OF_PIPE_TS', 'BOTTOM_OF_PIPE_TS']);
    assert.deepEqual(m.diag.list, []);
  }
});

test('execute: WAIT_REG_MEM passes when satisfied and reports a wait that can never end', () => {
  for (const gen of PM4_GENS) {
    const m = machine(gen);
    const b = new Pm4Builder(gen);
    b.writeMem(0x200000, 5)
      .waitRegMem(1, WAIT_FN.EQ, 0x200000, 5)
      .waitRegMem(1, WAIT_FN.GE, 0x200000, 4)
      .setShReg('COMPUTE_USER_DATA_0', 0x10)
      .waitRegMem(0, WAIT_FN.EQ, b.db.offset('COMPUTE_USER_DATA_0'), 0x10, 0xff)
      .nop(1);
    const at = b.length;
    b.waitRegMem(1, WAIT_FN.EQ, 0x200000, 6).writeMem(0x200004, 1);
    m.cp.run(b.finish());
    assert.equal(m.diag.list.length, 1, m.diag.list.map((d) => d.message).join('\n'));
    const d = m.diag.list[0]!;
    assert.equal(d.id, 'pm4.wait-reg-mem.never-satisfied');
    assert.equal(d.where['offset'], at);
    assert.match(d.message, /memory at 0x200000 & 0xffffffff\) == 0x6 but it is 0x5/);
    // The CP reports and continues past it.
    assert.equal(m.mem.read32(0x200004), 1);
  }
});

test('execute: draws recorded with their register state, direct, indexed and indirect', () => {
  for (const gen of PM4_GENS) {
    const m = machine(gen);
    // Indirect arguments at 0x210000: a draw (4 dwords) then an indexed draw (5 dwords), and a count.
    m.put(0x210000, Uint32Array.of(30, 2, 5, 1, /* indexed: */ 12, 3, 4, 0xfffffffe, 7));
    m.put(0x210100, Uint32Array.of(2));
    const b = new Pm4Builder(gen);
    b.setUconfigReg('VGT_PRIMITIVE_TYPE', b.encode('VGT_PRIMITIVE_TYPE', { PRIM_TYPE: 'DI_PT_TRISTRIP' }))
      .setContextReg('DB_SHADER_CONTROL', 0x10)
      .numInstances(4).drawIndexAuto(6)
      .indexType(1).drawIndex2(100, 0x220000, 9)
      .setBase(1, 0x210000)
      .drawIndirect(0, 0x10, 0x11)
      .indexBase(0x230000).indexBufferSize(64).indexType(0)
      .drawIndexIndirect(16)
      .drawIndirectMulti(false, { dataOffset: 0, count: 5, stride: 0, countVa: 0x210100, drawIndexLoc: 0x12 });
    m.cp.run(b.finish());
    const d = m.cp.draws;
    assert.deepEqual(d.map((x) => x.kind), ['auto', 'indexed', 'indirect', 'indexed-indirect', 'indirect', 'indirect']);
    assert.deepEqual([d[0]!.count, d[0]!.instanceCount, d[0]!.primType], [6, 4, 6]); // DI_PT_TRISTRIP
    assert.equal(d[0]!.state.get('DB_SHADER_CONTROL'), 0x10);
    assert.deepEqual([d[1]!.count, d[1]!.indexBase, d[1]!.indexSize], [9, 0x220000, 4]);
    assert.deepEqual([d[2]!.count, d[2]!.instanceCount, d[2]!.firstVertex, d[2]!.firstInstance], [30, 2, 5, 1]);
    // DRAW_INDIRECT writes the base vertex and start instance to the user-data SGPRs it names.
    assert.deepEqual([d[2]!.state.at(0x2c10), d[2]!.state.at(0x2c11)], [5, 1]);
    assert.deepEqual([d[3]!.count, d[3]!.instanceCount, d[3]!.firstIndex, d[3]!.firstVertex, d[3]!.firstInstance, d[3]!.indexBase, d[3]!.indexSize], [12, 3, 4, -2, 7, 0x230000, 2]);
    // COUNT 5 limited to the 2 in memory; the draw index goes to SH offset 0x12.
    assert.deepEqual(d.slice(4).map((x) => x.state.at(0x2c12)), [0, 1]);
    assert.deepEqual(m.diag.list, []);
  }
});

test('execute: nested and chained IBs run in order', () => {
  for (const gen of PM4_GENS) {
    const m = machine(gen);
    const ib2 = new Pm4Builder(gen).writeMem(0x200008, 3).finish();
    m.put(0x240000, ib2);
    const chained = new Pm4Builder(gen).writeMem(0x20000c, 4).finish();
    m.put(0x250000, chained);
    const ib1 = new Pm4Builder(gen).writeMem(0x200004, 2).indirectBuffer(0x240000, ib2.length).indirectBuffer(0x250000, chained.length, { chain: true }).writeMem(0x200010, 99).finish();
    m.put(0x230000, ib1);
    const top = new Pm4Builder(gen).writeMem(0x200000, 1).indirectBuffer(0x230000, ib1.length).writeMem(0x200014, 5).finish();
    const st = m.cp.run(top);
    assert.deepEqual([0, 4, 8, 12, 16, 20].map((o) => m.mem.read32(0x200000 + o)), [1, 2, 3, 4, 0, 5]);
    assert.deepEqual([st.ibs, st.maxLevel], [3, 2]);
  }
});

test('PM4 DISPATCH_DIRECT of vadd.co gives the same output as running it directly', () => {
  const bytes = new Uint8Array(readFileSync(join(ROOT, 'kernels/bin/gfx1100/vadd.co')));
  const n = 1000;
  const block: [number, number, number] = [64, 1, 1];
  const a = new Float32Array(n).map((_, i) => Math.sin(i) * 3);
  const bv = new Float32Array(n).map((_, i) => i * 0.25);
  const direct = runKernel({
    codeObject: bytes, grid: [n, 1, 1], block,
    buffers: [
      { name: 'a', type: 'f32', data: new Uint8Array(a.buffer.slice(0)) },
      { name: 'b', type: 'f32', data: new Uint8Array(bv.buffer.slice(0)) },
      { name: 'c', type: 'f32', data: new Uint8Array(4 * n) },
    ],
    args: [{ kind: 'buffer', name: 'a' }, { kind: 'buffer', name: 'b' }, { kind: 'buffer', name: 'c' }, { kind: 'scalar', type: 'u32', value: n }],
  });

  const co = loadCodeObject(bytes, 'vadd.co');
  const mem = new Memory();
  const diag = new Diagnostics();
  const code = loadCode(mem, co);
  const kernel = co.kernels[0]!;
  const sa = mem.alloc(4 * n, 'a', 256, new Uint8Array(a.buffer.slice(0)));
  const sb = mem.alloc(4 * n, 'b', 256, new Uint8Array(bv.buffer.slice(0)));
  const sc = mem.alloc(4 * n, 'c');
  const u32 = new Uint8Array(4);
  new DataView(u32.buffer).setUint32(0, n, true);
  const setup = setupLaunch(mem, kernel, [{ kind: 'pointer', va: sa.base }, { kind: 'pointer', va: sb.base }, { kind: 'pointer', va: sc.base }, { kind: 'bytes', bytes: u32 }], [n, 1, 1], block, code.loadBase + kernel.kdAddress);

  const b = new Pm4Builder('gfx11');
  emitKernelDispatch(b, code, kernel, setup, [n, 1, 1], block)
    .releaseMem('BOTTOM_OF_PIPE_TS', sc.base + 4 * n - 4 + 0, DATA_SEL.DISCARD);
  // The command buffer lives in GPU memory and is executed as an IB.
  const words = b.finish();
  const ib = mem.alloc(words.length * 4, 'ib');
  mem.writeBytes(ib.base, new Uint8Array(words.buffer));
  const { cp, results } = pm4Machine('gfx11', mem, diag, [code]);
  cp.run(new Pm4Builder('gfx11').indirectBuffer(ib.base, words.length).finish());

  assert.deepEqual(diag.list.filter((d) => d.severity !== 'info'), []);
  assert.equal(results.length, 1);
  assert.deepEqual(results[0]!.grid, [n, 1, 1]);
  assert.equal(cp.dispatches[0]!.executed, true);
  assert.equal(cp.dispatches[0]!.level, 1);
  const c = sc.u8.slice(0, 4 * n);
  assert.deepEqual(c, direct.buffers['c']);
  const f = new Float32Array(c.buffer);
  assert.equal(f[10], Math.fround(Math.fround(a[10]!) + Math.fround(bv[10]!)));
});

test('PM4 dispatch of an address that is no loaded kernel is a diagnostic', () => {
  const mem = new Memory();
  const diag = new Diagnostics();
  const { cp } = pm4Machine('gfx11', mem, diag, []);
  const b = new Pm4Builder('gfx11');
  cp.run(b.setShReg('COMPUTE_PGM_LO', 0x1234, 0).setShReg('COMPUTE_NUM_THREAD_X', 64, 1, 1).dispatchDirect(1, 1, 1).finish());
  assert.deepEqual(diag.list.map((d) => d.id), ['pm4.dispatch.no-code']);
  assert.equal(cp.dispatches[0]!.pgmVa, 0x123400);
});

test('execute: DISPATCH_INDIRECT reads its dimensions from memory (both forms) and records the compute state', () => {
  for (const gen of PM4_GENS) {
    const m = machine(gen);
    m.put(0x260000, Uint32Array.of(0, 0, 0, 4, 5, 6, 7, 8, 9));
    const b = new Pm4Builder(gen);
    b.setShReg('COMPUTE_NUM_THREAD_X', 32, 2, 1).setShReg('COMPUTE_PGM_LO', 0x1000, 0)
      .setBase(1, 0x260000).dispatchIndirect({ dataOffset: 12 }).dispatchIndirect({ va: 0x260018 });
    m.cp.run(b.finish());
    assert.deepEqual(m.cp.dispatches.map((d) => d.dims), [[4, 5, 6], [7, 8, 9]]);
    assert.deepEqual(m.cp.dispatches[0]!.block, [32, 2, 1]);
    assert.equal(m.cp.dispatches[0]!.pgmVa, 0x100000);
    assert.equal(m.cp.dispatches[1]!.state.get('COMPUTE_NUM_THREAD_Y'), 2);
    assert.equal(m.cp.dispatches[0]!.executed, false);
    assert.deepEqual(m.diag.list, []);
  }
});
