import { test } from 'node:test';
import assert from 'node:assert/strict';
import { gpuRegs, formatValue, registerSpace, encodeFields, decodeFields, enumValue, ALL_GENS, dbStats } from '../../src/adreno/regs/db.js';
import { opcode, opcodeName, pkt4, pkt7, decodeHeader, oddParity } from '../../src/adreno/cp/pm4.js';

test('a6xx register names and offsets come from rules-ng', () => {
  const r = gpuRegs('a6xx');
  assert.equal(r.reg('CP_RB_BASE'), 0x800);
  assert.equal(r.reg('CP_SCRATCH[2]'), 0x885);
  assert.equal(r.nameOf(0x885), 'CP_SCRATCH[0x2].REG');
  assert.equal(r.nameOf(0x801), 'CP_RB_BASE+1');
  assert.equal(r.nameOf(0x7fff0), '0x7fff0');
  assert.equal(r.reg('RBBM_STATUS'), 0x210);
});

test('a7xx-only registers exist only on a7xx', () => {
  const a7 = gpuRegs('a7xx');
  const a6 = gpuRegs('a6xx');
  assert.ok(a7.offsetOf('CP_BV_PERFCTR_CP_SEL[0]') !== undefined);
  assert.equal(a6.offsetOf('CP_BV_PERFCTR_CP_SEL[0]'), undefined);
});

test('older generations have their own spaces', () => {
  for (const g of ALL_GENS) assert.ok(gpuRegs(g).count > 100, g);
  assert.equal(gpuRegs('a5xx').reg('CP_RB_BASE'), 0x800);
  assert.ok(registerSpace('A6XX_PIPE_REG', 'a6xx').reg('NRT_ADDR') === 0xa0);
});

test('bitfields format and round-trip', () => {
  const s = formatValue('A6XX_CP_INT', 0x11, 0, 32, 'a6xx');
  assert.equal(s, '{ CP_OPCODE_ERROR | CP_REGISTER_PROTECTION_ERROR }');
  const v = encodeFields('CP_SET_DRAW_STATE.[].0', { COUNT: 5, GROUP_ID: 3, GMEM: true }, 'a6xx');
  assert.deepEqual(decodeFields('CP_SET_DRAW_STATE.[].0', v, 0, 'a6xx').GROUP_ID, 3);
  assert.equal(enumValue('vgt_event_type', 'CACHE_FLUSH_TS', 'a6xx'), 4);
  assert.ok(dbStats().domains > 80);
});

test('PM4 opcodes per generation and header parity', () => {
  assert.equal(opcode('CP_SET_DRAW_STATE'), 0x43);
  assert.equal(opcode('CP_DRAW_INDX_OFFSET'), 0x38);
  assert.equal(opcodeName(0x46, 'a6xx'), 'CP_EVENT_WRITE');
  assert.equal(opcodeName(0x46, 'a7xx'), 'CP_EVENT_WRITE7');
  assert.equal(oddParity(0), 1);
  assert.equal(oddParity(1), 0);
  const h = decodeHeader(pkt4(0x885, 3), 'a6xx');
  assert.deepEqual([h.type, h.reg, h.count, h.parityOk], [4, 0x885, 3, true]);
  const h7 = decodeHeader(pkt7(0x10, 2), 'a6xx');
  assert.deepEqual([h7.type, h7.opcode, h7.count, h7.parityOk], [7, 0x10, 2, true]);
  assert.equal(decodeHeader(pkt7(0x10, 2) ^ 0x8000, 'a6xx').parityOk, false);
  assert.equal(decodeHeader(pkt4(0x885, 3) ^ (1 << 27), 'a6xx').parityOk, false);
  // a known-good header from a real a6xx stream: CP_NOP with 0 payload is 0x70108000
  assert.equal(pkt7(0x10, 0), 0x70108000);
});

test('src/adreno/README.md carries the measured coverage table (gpusim adreno coverage)', async () => {
  const { coverageLines } = await import('../../src/adreno/coverage.js');
  const { readFileSync } = await import('node:fs');
  const { fileURLToPath } = await import('node:url');
  const readme = readFileSync(fileURLToPath(new URL('../../../src/adreno/README.md', import.meta.url)), 'utf8');
  const lines = coverageLines();
  assert.ok(readme.includes(lines.join('\n')), 'README coverage table is stale: paste `gpusim adreno coverage` into src/adreno/README.md');
  // Every packet the issue lists under Execution is executed.
  const { packetCoverage } = await import('../../src/adreno/coverage.js');
  const ex = packetCoverage('a6xx').executed;
  for (const n of ['CP_INDIRECT_BUFFER', 'CP_INDIRECT_BUFFER_CHAIN', 'CP_SET_DRAW_STATE', 'CP_SET_MARKER', 'CP_SET_MODE', 'CP_SKIP_IB2_ENABLE_GLOBAL', 'CP_SKIP_IB2_ENABLE_LOCAL', 'CP_COND_EXEC', 'CP_COND_REG_EXEC', 'CP_REG_TEST', 'CP_DRAW_PRED_ENABLE_GLOBAL', 'CP_DRAW_PRED_ENABLE_LOCAL', 'CP_DRAW_PRED_SET', 'CP_MEM_WRITE', 'CP_MEM_TO_MEM', 'CP_MEMCPY', 'CP_COND_WRITE5', 'CP_REG_TO_MEM', 'CP_MEM_TO_REG', 'CP_REG_RMW', 'CP_WAIT_REG_MEM', 'CP_WAIT_MEM_WRITES', 'CP_WAIT_FOR_IDLE', 'CP_WAIT_FOR_ME', 'CP_EVENT_WRITE', 'CP_REG_TO_SCRATCH', 'CP_SCRATCH_TO_REG', 'CP_NOP', 'CP_DRAW_INDX_OFFSET', 'CP_DRAW_INDIRECT', 'CP_DRAW_INDX_INDIRECT', 'CP_DRAW_INDIRECT_MULTI', 'CP_DRAW_AUTO', 'CP_EXEC_CS', 'CP_EXEC_CS_INDIRECT']) {
    assert.ok(ex.includes(n), n);
  }
  const a7 = packetCoverage('a7xx').executed;
  for (const n of ['CP_THREAD_CONTROL', 'CP_EVENT_WRITE7', 'CP_WAIT_TIMESTAMP', 'CP_MODIFY_TIMESTAMP', 'CP_BV_BR_COUNT_OPS', 'CP_MEM_TO_SCRATCH_MEM', 'CP_RESET_CONTEXT_STATE', 'CP_FIXED_STRIDE_DRAW_TABLE', 'CP_CONTEXT_REG_BUNCH2', 'CP_START_BIN']) assert.ok(a7.includes(n), n);
});
