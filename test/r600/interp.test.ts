/**
 * Interpolation ops (Evergreen/Cayman) reading the LDS parameter cache: INTERP_XY / INTERP_ZW (four
 * slots), INTERP_X / INTERP_Z (slot pairs), INTERP_LOAD_P0 / P10 / P20. The parameters are set up
 * as a pixel shader's would be (`interpParams`, written into LDS by the dispatch like the SPI), the
 * barycentrics I/J per work-item from its local id; expected values are computed here in single
 * precision. clang-19 has no pixel shaders for r600, so these are assembly tests.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { InputError } from '../../src/core/errors.js';
import { assembleAlu } from '../../src/r600/isa/asm.js';
import { decodeAlu } from '../../src/r600/isa/decode.js';
import { printAlu } from '../../src/r600/isa/print.js';
import { ids, lit, runAsm } from './helpers.js';

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);
const fb = (x: number): number => {
  f32[0] = x;
  return u32[0]!;
};
const bf = (x: number): number => {
  u32[0] = x;
  return f32[0]!;
};
const fr = Math.fround;
const clause = (n: number, body: string[]): string => [`ALU ${n - 1}, @2, KC0[], KC1[]`, 'CF_END', 'ALU clause starting at 2:', ...body].join('\n');

// Two parameters: P0, P10, P20 (xyzw each).
const PARAMS = [
  [0.5, -1, 2, 0.25, 0.75, 3, -0.5, 1.5, 0.125, -2, 4, 0.0625],
  [10, 20, 30, 40, 1, -2, 3, -4, 0.5, 0.25, -0.125, 8],
].map((p) => p.map(fr));
const I = (lid: number): number => fr(lid * 0.125);
const J = (lid: number): number => fr(fr(lid * 0.0625) * -1 + 1);
const interp = (p: number[], c: number, i: number, j: number): number => fr(fr(p[c]! + fr(i * p[4 + c]!)) + fr(j * p[8 + c]!));

// T2.X = I, T2.Y = J from the local id in T0.X.
const SETUP = [
  '  INT_TO_FLT * T2.W, T0.X,',
  '  MUL_IEEE T2.X, T2.W, literal.x,', '  MULADD_IEEE * T2.Y, T2.W, literal.y, 1.0,', `${fb(0.125)}(0), ${fb(-0.0625)}(0)`,
];

test('INTERP_XY / ZW / X / Z interpolate P0 + I*P10 + J*P20, INTERP_LOAD_P* read the parameter vectors (evergreen and cayman)', () => {
  const body = [
    ...SETUP,
    '  INTERP_ZW T3.X (MASKED), T2.X, Param1.X,', '  INTERP_ZW T3.Y (MASKED), T2.Y, Param1.X,',
    '  INTERP_ZW T3.Z, T2.X, Param1.X,', '  INTERP_ZW * T3.W, T2.Y, Param1.X,',
    '  INTERP_XY T3.X, T2.X, Param1.X,', '  INTERP_XY T3.Y, T2.Y, Param1.X,',
    '  INTERP_XY T3.Z (MASKED), T2.X, Param1.X,', '  INTERP_XY * T3.W (MASKED), T2.Y, Param1.X,',
    '  INTERP_X T4.X, T2.X, Param0.X,', '  INTERP_X T4.Y (MASKED), T2.Y, Param0.X,',
    '  INTERP_Z T4.Z, T2.X, Param0.X,', '  INTERP_Z * T4.W (MASKED), T2.Y, Param0.X,',
    '  INTERP_LOAD_P0 T5.X, Param0.Y,', '  INTERP_LOAD_P10 T5.Y, Param1.Z,', '  INTERP_LOAD_P20 * T5.Z, Param0.W,',
  ];
  for (const gen of ['evergreen', 'cayman'] as const) {
    const r = runAsm(clause(19, body), { gen, mcpu: gen === 'cayman' ? 'cayman' : 'cypress', interpParams: PARAMS.flat() });
    assert.deepEqual(ids(r.diag), [], gen);
    const lanes = [...Array(64).keys()];
    for (let c = 0; c < 4; c++) assert.deepEqual(r.reg(3, c).map(bf), lanes.map((l) => interp(PARAMS[1]!, c, I(l), J(l))), `${gen} Param1 channel ${c}`);
    assert.deepEqual(r.reg(4, 0).map(bf), lanes.map((l) => interp(PARAMS[0]!, 0, I(l), J(l))), `${gen} INTERP_X`);
    assert.deepEqual(r.reg(4, 2).map(bf), lanes.map((l) => interp(PARAMS[0]!, 2, I(l), J(l))), `${gen} INTERP_Z`);
    assert.deepEqual(r.reg(4, 1), Array(64).fill(0), 'INTERP_X y slot writes nothing');
    assert.deepEqual([r.reg(5, 0)[7], r.reg(5, 1)[7], r.reg(5, 2)[7]].map((x) => bf(x!)), [PARAMS[0]![1], PARAMS[1]![4 + 2], PARAMS[0]![8 + 3]]);
  }
});

test('r600.alu.interp: a missing slot, a write from a slot without a result, a non-parameter operand; quiet above', () => {
  const run = (body: string[]) => ids(runAsm(clause(4 + body.length, [...SETUP, ...body]), { interpParams: PARAMS.flat() }).diag);
  assert.deepEqual(run(['  INTERP_XY T3.X, T2.X, Param1.X,', '  INTERP_XY * T3.Y, T2.Y, Param1.X,']), ['r600.alu.interp']);
  assert.deepEqual(run(['  INTERP_X T4.X, T2.X, Param0.X,', '  INTERP_X * T4.Y, T2.Y, Param0.X,']), ['r600.alu.interp']);
  assert.deepEqual(run(['  INTERP_LOAD_P0 * T5.X, T2.Y,']), ['r600.alu.interp']);
  assert.deepEqual(run(['  MOV * T5.X, Param0.Y,']), ['r600.alu.unsupported-source']);
  assert.doesNotThrow(() => runAsm(clause(1, ['  NOP *'])));
  assert.throws(() => runAsm(clause(1, ['  NOP *']), { interpParams: [1, 2, 3] }), /12 per parameter/);
  // Param31 (LDS bytes 1488..1535) is in range even when only two parameters were set up: zero.
  const r = runAsm(clause(1, ['  INTERP_LOAD_P20 * T5.X, Param31.W,']), { interpParams: PARAMS.flat() });
  assert.deepEqual(ids(r.diag), []);
  assert.equal(r.reg(5, 0)[0], 0);
});

test('Param sources print as ParamN.C and assemble back to sel 448 + N', () => {
  const err = (m: string): never => {
    throw new InputError(m);
  };
  const [w0, w1] = assembleAlu('evergreen', 'INTERP_ZW * T3.W, T2.Y, Param7.Z,', err);
  const d = decodeAlu('evergreen', 0, w0, w1);
  assert.equal(d.src[1]!.sel, 448 + 7);
  assert.match(printAlu(d), /INTERP_ZW \* T3\.W, T2\.Y, Param7\.Z,/);
  assert.throws(() => assembleAlu('evergreen', 'INTERP_ZW * T3.W, T2.Y, Param32.Z,', err), InputError);
});
