/** librnn-exact value text and offset lookup (regs/rnndec.ts), on registers the cffdump logs show. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cFloat, cHex, decodeDomain, decodeVal, rnnDomain } from '../../src/adreno/regs/rnndec.js';

const a6 = rnnDomain(['A6XX'], 'a6xx');
const val = (name: string, v: bigint): string => {
  const off = a6.offsetOf(name);
  assert.ok(off !== undefined, name);
  const info = a6.lookup(off);
  assert.ok(info.ti, name);
  return decodeVal(info.ti, v, 'a6xx');
};

test('C number formats: %#x and %f', () => {
  assert.equal(cHex(0), '0');
  assert.equal(cHex(0x1f), '0x1f');
  assert.equal(cFloat(0.5), '0.500000');
  assert.equal(cFloat(-0), '-0.000000');
  assert.equal(cFloat(NaN, true), '-nan');
  assert.equal(cFloat(1e22), '10000000000000000000000.000000');
});

test('register values as the cffdump logs print them', () => {
  // The register's own shr: RB_MRT[0].PITCH = 0x88 << 6.
  assert.equal(val('RB_MRT[0].PITCH', 0x88n), '8704');
  // Own fields first, bits no field covers in hex.
  assert.equal(val('SP_VS_CTRL_REG0', 0x80100080n), '{ MERGEDREGS | THREADMODE = MULTI | HALFREGFOOTPRINT = 0 | FULLREGFOOTPRINT = 1 | BRANCHSTACK = 0 | 0x80000000 }');
  // UNKn fields only when set, hex fields with %#x, an empty bitset as { 0 }.
  assert.equal(val('SP_TP_MODE_CNTL', 0xa2n), '{ ISAMMODE = ISAMMODE_GL | UNK3 = 0x28 }');
  assert.equal(val('RB_SRGB_CNTL', 0n), '{ 0 }');
  assert.equal(val('GRAS_UNKNOWN_80AF', 0n), 'FALSE');
  assert.equal(val('GRAS_CL_VPORT[0].XOFFSET', 0x44870000n), '1080.000000');
  assert.equal(val('PC_RESTART_INDEX', 0xffffffffn), '4294967295');
  assert.equal(val('VPC_SO_DISABLE', 1n), '{ DISABLE }');
});

test('offsets resolve to the first element in document order; GMU registers are apart', () => {
  assert.equal(a6.lookup(0x9306).name, 'VPC_SO_DISABLE');
  assert.equal(a6.lookup(0x0c10).name, 'VSC_PIPE_CONFIG[0].REG');
  assert.equal(a6.lookup(0x0c11).name, 'VSC_PIPE_CONFIG[0x1].REG');
  assert.equal(a6.lookup(0x9990).name, '0x9990');
  assert.equal(a6.lookup(0x9990).ti, undefined);
  // A 64-bit address register's second dword, and an array with no registers inside.
  assert.equal(a6.lookup(0xa81d).name, 'SP_VS_OBJ_START_HI');
  assert.equal(a6.lookup(0x08d1).name, 'CP_PERFCTR_CP_SEL[0x1]+0');
});

test('half-float fields (a4xx RB_BLEND_*.FLOAT) decode as halves', () => {
  const a4 = rnnDomain(['A4XX'], 'a4xx');
  const info = a4.lookup(a4.offsetOf('RB_BLEND_GREEN')!);
  assert.equal(decodeVal(info.ti!, 0x3c0000ffn, 'a4xx'), '{ UINT = 0xff | SINT = 0 | FLOAT = 1.000000 }');
});

test('packet payloads through their domain, variants chosen by the payload', () => {
  const f = decodeDomain([0x24, 0x504, 2, 0, 1, 64, 0x40, 1, 20], 'CP_DRAW_INDIRECT_MULTI', 'a6xx');
  assert.deepEqual(f.map((x) => x.name), ['0', '1', 'DRAW_COUNT', 'INDEX', 'MAX_INDICES', 'INDIRECT', 'STRIDE']);
  assert.equal(f[1]!.text, '{ OPCODE = INDIRECT_OP_INDEXED | DST_OFF = 0x5 }');
  assert.equal(f[3]!.text, '0x100000000');
  const r = decodeDomain([0x00000c10 | (1 << 25)], 'CP_REG_TEST', 'a6xx');
  assert.equal(r[0]!.text, '{ SOURCE = SOURCE_REG | REG = 0xc10 | BIT = 0 | SKIP_WAIT_FOR_ME | PRED_BIT = 0 }');
});
