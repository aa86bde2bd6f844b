import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Memory } from '../../src/core/memory.js';
import { Diagnostics } from '../../src/core/diagnostics.js';
import { CmdStream, Layout } from '../../src/adreno/cp/builder.js';
import { CommandProcessor } from '../../src/adreno/cp/cp.js';
import { decodeFields, enumValue, gpuRegs, type Gen } from '../../src/adreno/regs/db.js';
import { decodeRaw } from '../../src/adreno/decode.js';

const R7 = gpuRegs('a7xx');

function machine(L: Layout, gen: Gen = 'a7xx', opts: { thread?: 'BR' | 'BV'; maxPolls?: number } = {}): { cp: CommandProcessor; mem: Memory; diag: Diagnostics } {
  const mem = new Memory();
  for (const b of L.buffers) mem.map(b.iova, Math.max(b.data.length, 4), b.label, b.data.slice());
  const diag = new Diagnostics();
  return { cp: new CommandProcessor(mem, { gen, diag, ...opts }), mem, diag };
}
const ids = (d: Diagnostics): string[] => d.list.filter((x) => x.severity !== 'info').map((x) => x.id);

/** A block of `n` marker writes: CP_MEM_WRITE of `v` to `addr`. */
const mark = (gen: Gen, addr: number, v: number): CmdStream => new CmdStream(gen).memWrite(addr, [v]);

test('builder payloads decode field by field through the rules-ng layouts (a7xx variants)', () => {
  const cs = new CmdStream('a7xx')
    .condRegExecCompareImm('CP_SCRATCH[1]', 0x1234, 4)
    .condRegExecThread(['BV'], 4)
    .threadControl('BR', { syncThreads: true })
    .regTestEx('CP_SCRATCH[0]', 5, { predBit: 3, skipWaitForMe: true })
    .event7('CACHE_FLUSH_TS', { src: 'EV_WRITE_TIMESTAMP_SUM', addr: 0x1000 })
    .waitTimestamp('TS_WAIT_GE_32B', 0x2000, 7)
    .modifyTimestamp('MODIFY_TIMESTAMP_ADD_LOCAL', 3);
  const d = cs.dwords();
  // Field values read back through the generated bitsets.
  assert.deepEqual(decodeFields('CP_COND_REG_EXEC.0', d[1]!, 0, 'a7xx')['MODE'], 4);
  assert.equal(d[1]! & 0x3ffff, R7.reg('CP_SCRATCH[1]'));
  assert.equal(decodeFields('CP_COND_REG_EXEC.0', d[5]!, 0, 'a7xx')['BV'], 1);
  assert.equal(decodeFields('CP_COND_REG_EXEC.0', d[5]!, 0, 'a7xx')['MODE'], 5);
  const tc = decodeFields('CP_THREAD_CONTROL.0', d[8]!, 0, 'a7xx');
  assert.deepEqual([tc['THREAD'], tc['SYNC_THREADS'], tc['CONCURRENT_BIN_DISABLE']], [1, 1, 0]);
  const rt = decodeFields('CP_REG_TEST.0', d[10]!, 0, 'a7xx');
  assert.deepEqual([rt['BIT'], rt['PRED_BIT'], rt['SKIP_WAIT_FOR_ME']], [5, 3, 1]);
  // The printer names the variant fields of each mode.
  const text: string[] = [];
  const sum = decodeRaw(cs.bytes(), 'a7xx', { out: (l) => text.push(l) }, 0x1000);
  assert.equal(sum.problems.length, 0);
  const all = text.join('\n');
  assert.match(all, /MODE = REG_COMPARE_IMM/);
  assert.match(all, /IMM = 0x1234/);
  assert.match(all, /MODE = THREAD_MODE/);
  assert.match(all, /\bBV\b/);
  assert.match(all, /THREAD = CP_SET_THREAD_BR/);
  assert.match(all, /WRITE_SRC = EV_WRITE_TIMESTAMP_SUM/);
  assert.match(all, /WAIT_VALUE_SRC = TS_WAIT_GE_32B/);
  assert.match(all, /OP = MODIFY_TIMESTAMP_ADD_LOCAL/);
});

test('CP_COND_REG_EXEC on a7xx: REG_COMPARE_IMM, THREAD_MODE, PRED_TEST on a chosen predicate bit, on-chip operands', () => {
  const L = new Layout();
  const buf = L.reserve(256);
  const a = mark('a7xx', buf, 0xa1);
  const b = mark('a7xx', buf + 4, 0xb2);
  const c = mark('a7xx', buf + 8, 0xc3);
  const d = mark('a7xx', buf + 12, 0xd4);
  const e = mark('a7xx', buf + 16, 0xe5);
  const f = mark('a7xx', buf + 20, 0xf6);
  const g = mark('a7xx', buf + 28, 1);
  const cs = new CmdStream('a7xx')
    .reg('CP_SCRATCH[1]', 0x1234)
    .condRegExecCompareImm('CP_SCRATCH[1]', 0x1234, a.length).raw(...a.dwords()) // equal: runs
    .condRegExecCompareImm('CP_SCRATCH[1]', 0x1235, b.length).raw(...b.dwords()) // differs: skipped
    .condRegExecThread(['BR'], c.length).raw(...c.dwords()) // BR thread: runs
    .condRegExecThread(['BV', 'LPAC'], d.length).raw(...d.dwords()) // not for BR: skipped
    .reg('CP_SCRATCH[0]', 1 << 5)
    .regTestEx('CP_SCRATCH[0]', 5, { predBit: 7 })
    .condRegExecPredBit(7, e.length).raw(...e.dwords()) // bit 7 set: runs
    .condRegExecPredBit(0, f.length).raw(...f.dwords()) // bit 0 clear: skipped
    .event7('CACHE_FLUSH_TS', { src: 'EV_WRITE_USER_32B', onchip: 0x40, payload: [0x77] })
    .condRegExecCompareImm(0x40, 0x77, g.length, true).raw(...g.dwords());
  const ib = L.place(cs);
  const { cp, mem, diag } = machine(L);
  assert.equal(cp.run(ib.iova, ib.sizeDwords), 'done');
  assert.deepEqual(ids(diag), []);
  assert.deepEqual([0, 4, 8, 12, 16, 20].map((o) => mem.read32(buf + o)), [0xa1, 0, 0xc3, 0, 0xe5, 0]);
  assert.equal(cp.predReg, 1 << 7);
  assert.equal(cp.onchip.get(0x40), 0x77);
  assert.equal(mem.read32(buf + 28), 1);

  // The same stream run as the BV thread takes the other THREAD_MODE block.
  const m2 = machine(L, 'a7xx', { thread: 'BV' });
  m2.cp.run(ib.iova, ib.sizeDwords);
  assert.deepEqual([8, 12].map((o) => m2.mem.read32(buf + o)), [0, 0xd4]);

  // On a6xx the a7xx modes are not defined: a warning, the block runs.
  const L6 = new Layout();
  const buf6 = L6.reserve(64);
  const m6 = mark('a6xx', buf6, 5);
  const ib6 = L6.place(new CmdStream('a6xx').pkt('CP_COND_REG_EXEC', [(4 << 28) >>> 0, 0, m6.length]).raw(...m6.dwords()));
  const x6 = machine(L6, 'a6xx');
  assert.equal(x6.cp.run(ib6.iova, ib6.sizeDwords), 'done');
  assert.deepEqual(ids(x6.diag), ['adreno.cp.unsupported']);
  assert.equal(x6.mem.read32(buf6), 5);
});

test('CP_REG_TEST PRED_UPDATE and SOURCE_SCRATCH_MEM (after CP_MEM_TO_SCRATCH_MEM)', () => {
  const L = new Layout();
  const src = L.place(new Uint32Array([0, 0, 0x10, 0]), 'vsc').iova;
  const buf = L.reserve(64);
  const a = mark('a7xx', buf, 1);
  const cs = new CmdStream('a7xx')
    .regTestPredUpdate(0xff, 0x5a)
    .memToScratchMem(src, 4, 4)
    .regTestEx(6, 4, { scratchMem: true, predBit: 9 }) // scratch[6] = 0x10: bit 4 set
    .condRegExecPredBit(9, a.length).raw(...a.dwords());
  const ib = L.place(cs);
  const { cp, mem, diag } = machine(L);
  assert.equal(cp.run(ib.iova, ib.sizeDwords), 'done');
  assert.deepEqual(ids(diag), []);
  assert.deepEqual(Array.from(cp.scratchMem.subarray(4, 8)), [0, 0, 0x10, 0]);
  assert.equal(cp.predReg, (0x5a | (1 << 9)) >>> 0);
  assert.equal(mem.read32(buf), 1);
});

test('concurrent binning: CP_THREAD_CONTROL sections run on their thread only, unless concurrent binning is disabled', () => {
  const L = new Layout();
  const buf = L.reserve(64);
  const mk = (disable: boolean): CmdStream =>
    new CmdStream('a7xx')
      .threadControl('BV', { concurrentBinDisable: disable })
      .memWrite(buf, [0xb5]) // visibility pass work
      .threadControl('BR', { concurrentBinDisable: disable })
      .memWrite(buf + 4, [0xb4]) // render pass work
      .threadControl('BOTH', { concurrentBinDisable: disable, syncThreads: true })
      .memWrite(buf + 8, [0xbb]);
  const ibOn = L.place(mk(false));
  const ibOff = L.place(mk(true));
  for (const [ib, thread, want] of [
    [ibOn, 'BR', [0, 0xb4, 0xbb]],
    [ibOn, 'BV', [0xb5, 0, 0xbb]],
    [ibOff, 'BR', [0xb5, 0xb4, 0xbb]], // BR does the binning itself
  ] as const) {
    const { cp, mem, diag } = machine(L, 'a7xx', { thread });
    assert.equal(cp.run(ib.iova, ib.sizeDwords), 'done');
    assert.deepEqual(ids(diag), []);
    assert.deepEqual([0, 4, 8].map((o) => mem.read32(buf + o)), want, `${thread} concurrent=${ib === ibOn}`);
    if (ib === ibOn) assert.equal(cp.otherThreadPackets, 1);
  }
});

test('a7xx timestamps, BV/BR counters, CP_WAIT_TIMESTAMP waits or hangs, CP_RESET_CONTEXT_STATE', () => {
  const L = new Layout();
  const buf = L.reserve(256);
  const cs = new CmdStream('a7xx')
    .modifyTimestamp('MODIFY_TIMESTAMP_ADD_GLOBAL', 5)
    .modifyTimestamp('MODIFY_TIMESTAMP_ADD_LOCAL', 3)
    .event7('CACHE_FLUSH_TS', { src: 'EV_WRITE_TIMESTAMP_SUM', addr: buf })
    .event7('RB_DONE_TS', { incBr: true })
    .event7('RB_DONE_TS', { incBr: true })
    .waitTimestamp('TS_WAIT_GE_32B', buf, 8)
    .waitTimestamp('TS_WAIT_GE_TIMESTAMP_SUM', buf, 0)
    .bvBrCountOps('PIPE_SET_BR_OFFSET', 4)
    .resetContextState({ globalLocalTs: true })
    .event7('CACHE_FLUSH_TS', { src: 'EV_WRITE_TIMESTAMP_SUM', addr: buf + 8 });
  const ib = L.place(cs);
  const { cp, mem, diag } = machine(L);
  assert.equal(cp.run(ib.iova, ib.sizeDwords), 'done');
  assert.deepEqual(ids(diag), []);
  assert.equal(mem.read64(buf), 8);
  assert.equal(mem.read64(buf + 8), 0);
  assert.deepEqual([cp.brCount, cp.bvCount, cp.brOffset], [2, 0, 4]);

  const hang = L.place(new CmdStream('a7xx').waitTimestamp('TS_WAIT_GE_32B', buf, 100));
  const h = machine(L, 'a7xx', { maxPolls: 10 });
  assert.equal(h.cp.run(hang.iova, hang.sizeDwords), 'hang');
  assert.deepEqual(ids(h.diag), ['adreno.cp.wait-hang']);
});

test('CP_START_BIN replays its body per bin after the bin prefix; CP_FIXED_STRIDE_DRAW_TABLE runs each fixed-size buffer; CP_CONTEXT_REG_BUNCH2', () => {
  const L = new Layout();
  const buf = L.reserve(256);
  // Per-bin prefixes: bin i writes i+1 to CP_SCRATCH[3].
  const prefixes = new CmdStream('a7xx');
  for (let i = 0; i < 3; i++) prefixes.reg('CP_SCRATCH[3]', i + 1);
  const per = new CmdStream('a7xx').reg('CP_SCRATCH[3]', 0).length;
  const pre = L.place(prefixes);
  const body = new CmdStream('a7xx').regToMem('CP_SCRATCH[3]', buf, 1, { accumulate: true }).drawAuto('DI_PT_TRILIST', 3);
  // Draw table: 2 buffers of 8 dwords, each a draw padded with a NOP.
  const one = new CmdStream('a7xx').drawAuto('DI_PT_POINTLIST', 1);
  const cell = new CmdStream('a7xx').raw(...one.dwords()).nop(new Array(8 - one.length - 1).fill(0));
  const table = L.place(new Uint32Array([...cell.dwords(), ...cell.dwords()]));
  const cs = new CmdStream('a7xx')
    .startBin(3, pre.iova, per, body)
    .fixedStrideDrawTable(table.iova, 8, 2)
    .contextRegBunch([['CP_SCRATCH[4]', 0x44]], [0, 0])
    .memWrite(buf + 16, [7]);
  const ib = L.place(cs);
  const { cp, mem, diag } = machine(L);
  assert.equal(cp.run(ib.iova, ib.sizeDwords), 'done');
  assert.deepEqual(ids(diag), []);
  assert.equal(mem.read32(buf), 1 + 2 + 3);
  const tri = enumValue('pc_di_primtype', 'DI_PT_TRILIST', 'a7xx');
  const pt = enumValue('pc_di_primtype', 'DI_PT_POINTLIST', 'a7xx');
  assert.deepEqual(cp.work.map((w) => `${w.payload[0]! & 0x3f}@${w.bin}`), [`${tri}@0`, `${tri}@1`, `${tri}@2`, `${pt}@-1`, `${pt}@-1`]);
  assert.equal(cp.readReg(R7.reg('CP_SCRATCH[4]')), 0x44);
  assert.equal(mem.read32(buf + 16), 7);
});

test('draw-state groups execute as SDS: CP_SDS_BASE / CP_SDS_REM_SIZE track them, IB registers stay', () => {
  const L = new Layout();
  const buf = L.reserve(64);
  const R6 = gpuRegs('a6xx');
  const so = L.place(new CmdStream('a6xx').regToMem('CP_SDS_REM_SIZE', buf, 1).regToMem('CP_IB1_REM_SIZE', buf + 4, 1));
  const cs = new CmdStream('a6xx').setDrawState([{ groupId: 3, addr: so.iova, count: so.sizeDwords }]).setMode(1).nop();
  const ib = L.place(cs);
  const { cp, mem, diag } = machine(L, 'a6xx');
  assert.equal(cp.run(ib.iova, ib.sizeDwords), 'done');
  assert.deepEqual(ids(diag), []);
  // Remaining sizes count from the packet being executed: the whole state object, and in IB1
  // the CP_SET_MODE that ran it plus the CP_NOP after it.
  assert.equal(mem.read32(buf), so.sizeDwords);
  assert.equal(mem.read32(buf + 4), 3);
  assert.equal(cp.regs[R6.reg('CP_SDS_BASE')], so.iova >>> 0);
});

test('gpusim adreno run --thread BR|BV on an a7xx capture (KGSL chip id) runs each thread\'s sections', async () => {
  const { main } = await import('../../src/cli/main.js');
  const { RdWriter } = await import('../../src/formats/rd.js');
  const { mkdtempSync, writeFileSync } = await import('node:fs');
  const { join } = await import('node:path');
  const { tmpdir } = await import('node:os');
  const L = new Layout();
  const buf = L.reserve(64);
  const ib = L.place(new CmdStream('a7xx').threadControl('BV').memWrite(buf, [1]).threadControl('BR').drawAuto('DI_PT_TRILIST', 3).threadControl('BOTH'));
  const w = new RdWriter().chipId(0x43050a01, 0xffff);
  for (const b of L.buffers) w.buffer(b.iova, b.data);
  const f = join(mkdtempSync(join(tmpdir(), 'gpusim-a7-')), 't.rd');
  writeFileSync(f, w.cmdstream(ib.iova, ib.sizeDwords).bytes());
  let so = '';
  const io = { stdout: (s: string) => void (so += s), stderr: (s: string) => void (so += s), isTTY: false };
  assert.equal(await main(['adreno', 'run', f], io), 0);
  assert.match(so, /^a7xx: 1 submit/m);
  assert.match(so, /draw CP_DRAW_INDX_OFFSET/);
  assert.match(so, /1 packet\(s\) left to the other CP thread/);
  so = '';
  assert.equal(await main(['adreno', 'run', f, '--thread', 'bv'], io), 0);
  assert.doesNotMatch(so, /draw CP_DRAW_INDX_OFFSET/);
  assert.equal(await main(['adreno', 'run', f, '--thread', 'XX'], io), 2);
});
