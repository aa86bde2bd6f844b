/**
 * ALU features clang-19 does not emit for r600 (assembly tests): ALU_EXTENDED (KC2/KC3), AR.y/z/w
 * relative addressing, the *_PREV ops, 64-bit float ops on slot pairs (LLVM lowers double to
 * library calls it cannot emit: "unsupported call to function"), bank-swizzle read-port legality,
 * and the first-generation R600 ALU word layout. T0.X holds each work-item's local id.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { InputError } from '../../src/core/errors.js';
import { assembleAlu } from '../../src/r600/isa/asm.js';
import { decodeAlu } from '../../src/r600/isa/decode.js';
import { ALU_OPS } from '../../src/r600/isa/opcodes.gen.js';
import { printAlu } from '../../src/r600/isa/print.js';
import { ids, lit, runAsm } from './helpers.js';

const err = (m: string): never => {
  throw new InputError(m);
};
const all = (v: number): number[] => Array(64).fill(v >>> 0);
const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);
const fb = (x: number): number => {
  f32[0] = x;
  return u32[0]!;
};
const f64 = new Float64Array(1);
const w64 = new Uint32Array(f64.buffer);
const dw = (x: number): [number, number] => {
  f64[0] = x;
  return [w64[0]!, w64[1]!];
};

/** One ALU clause of `n` slots at 2 after a lone CF. */
const clause = (n: number, body: string[]): string => [`ALU ${n - 1}, @2, KC0[], KC1[]`, 'CF_END', 'ALU clause starting at 2:', ...body].join('\n');

test('ALU_EXTENDED locks KC2/KC3 for the next clause; KC2 without it is reported', () => {
  const args = new Uint8Array(1024);
  const a32 = new Uint32Array(args.buffer);
  for (let i = 0; i < a32.length; i++) a32[i] = 1000 + i;
  // CB0 dword d holds args dword d - 9 (arguments start at byte 36).
  const src = ['ALU_EXTENDED 0, @0, KC2[CB0:16-32], KC3[CB0:32-48]', 'ALU 1, @4, KC0[CB0:0-16], KC1[]', 'CF_END', 'PAD', 'ALU clause starting at 4:',
    '  MOV T2.X, KC2[1].Y,', '  MOV * T2.Y, KC3[0].Z,'].join('\n');
  const r = runAsm(src, { args });
  assert.deepEqual(ids(r.diag), []);
  assert.deepEqual(r.reg(2, 0), all(1000 + (17 * 4 + 1) - 9));
  assert.deepEqual(r.reg(2, 1), all(1000 + (32 * 4 + 2) - 9));
  const bare = runAsm(['ALU 0, @2, KC0[CB0:0-16], KC1[]', 'CF_END', 'ALU clause starting at 2:', '  MOV * T2.X, KC2[1].Y,'].join('\n'), { args });
  assert.deepEqual(ids(bare.diag), ['r600.alu.kcache-unlocked']);
  const unpaired = runAsm(['ALU_EXTENDED 0, @0, KC2[CB0:16-32], KC3[]', 'NOP', 'CF_END'].join('\n'));
  assert.deepEqual(ids(unpaired.diag), ['r600.cf.alu-extended-unpaired']);
});

test('INDEX_MODE 1..3 address through AR.y/z/w (MOVA writes its destination channel); Cayman has AR.x only', () => {
  const src = clause(9, [
    '  MOV * T5.X, literal.x,', lit(77), '  MOV * T6.X, literal.x,', lit(88),
    '  MOVA_INT * AR.y (MASKED), 1,',
    '  MOVA_INT * AR.w (MASKED), literal.x,', lit(-1),
    '  MOV * T2.X, T(5 + AR.x).X+, IDX:1',
    '  MOV * T2.Y, T(6 + AR.x).X+, IDX:3',
  ]);
  const r = runAsm(src);
  assert.deepEqual(ids(r.diag), []);
  assert.deepEqual(r.reg(2, 0), all(88));
  assert.deepEqual(r.reg(2, 1), all(77));
  assert.deepEqual(ids(runAsm(src, { gen: 'cayman' }).diag), ['r600.alu.index-mode']);
});

test('*_PREV ops take the previous slot of their group as an operand', () => {
  const src = clause(7, [
    '  MOV * T3.X, literal.x,', lit(fb(1.5)), '  MOV * T3.Y, literal.x,', lit(fb(-2.25)),
    '  MUL_IEEE T2.X, T3.X, T3.X,',
    '  MUL_PREV T2.Y, T3.Y,',
    '  ADD_PREV * T2.Z, T3.X,',
  ]);
  const r = runAsm(src);
  assert.deepEqual(ids(r.diag), []);
  const x = Math.fround(1.5 * 1.5);
  const y = Math.fround(x * -2.25);
  assert.deepEqual(r.reg(2, 0), all(fb(x)));
  assert.deepEqual(r.reg(2, 1), all(fb(y)));
  assert.deepEqual(r.reg(2, 2), all(fb(Math.fround(y + 1.5))));
  const alone = runAsm(clause(1, ['  MUL_PREV * T2.X, T0.X,']));
  assert.deepEqual(ids(alone.diag), ['r600.alu.prev-slot']);
});

test('64-bit float ops on slot pairs match IEEE binary64 (the even slot reads the high dwords)', () => {
  const cases: [string, number, number, number, (a: number, b: number, c: number) => number][] = [
    ['ADD_64', 1.25e10, -3.0000001, 0, (a, b) => a + b],
    ['MUL_64', 1 / 3, 7.5e-3, 0, (a, b) => a * b],
    ['FMA_64', 3, 5, 0.1, (a, b, c) => a * b + c],
    ['MAX_64', -0.5, 2.75, 0, (a, b) => Math.max(a, b)],
    ['MIN_64', -0.5, 2.75, 0, (a, b) => Math.min(a, b)],
    ['SETGT_64', 2, 1, 0, (a, b) => (a > b ? 1 : 0)],
    ['SETE_64', 2, 1, 0, (a, b) => (a === b ? 1 : 0)],
  ];
  for (const gen of ['evergreen', 'cayman'] as const) {
    for (const [op, a, b, c, f] of cases) {
      const [al, ah] = dw(a);
      const [bl, bh] = dw(b);
      const [cl, ch] = dw(c);
      const three = op === 'FMA_64';
      // Cayman's MUL_64 / FMA_64 take all four slots (Mesa's layout: x, y, z high, w low).
      const quad = gen === 'cayman' && (op === 'MUL_64' || op === 'FMA_64');
      const hi = `T2.Y, T3.Y,${three ? ' T5.Y,' : ''}`, lo = `T2.X, T3.X,${three ? ' T5.X,' : ''}`;
      const src = clause((three ? 14 : 10) + (quad ? 2 : 0), [
        '  MOV * T2.X, literal.x,', lit(al), '  MOV * T2.Y, literal.x,', lit(ah),
        '  MOV * T3.X, literal.x,', lit(bl), '  MOV * T3.Y, literal.x,', lit(bh),
        ...(three ? ['  MOV * T5.X, literal.x,', lit(cl), '  MOV * T5.Y, literal.x,', lit(ch)] : []),
        ...(quad
          ? [`  ${op} T4.X, ${hi}`, `  ${op} T4.Y, ${hi}`, `  ${op} T4.Z (MASKED), ${hi}`, `  ${op} * T4.W (MASKED), ${lo}`]
          : [`  ${op} T4.X, ${hi}`, `  ${op} * T4.Y, ${lo}`]),
      ]);
      const r = runAsm(src, { gen });
      assert.deepEqual(ids(r.diag), [], `${gen} ${op}`);
      const [rl, rh] = dw(f(a, b, c));
      assert.deepEqual([r.reg(4, 0)[9], r.reg(4, 1)[9]], [rl, rh], `${gen} ${op}(${a}, ${b}, ${c})`);
    }
  }
  // Conversions: FLT32_TO_FLT64 reads the float from the even slot; FLT64_TO_FLT32 writes it there.
  const conv = runAsm(clause(6, [
    '  MOV * T2.X, literal.x,', lit(fb(0.1)),
    '  FLT32_TO_FLT64 T3.X, T2.X,', '  FLT32_TO_FLT64 * T3.Y, 0.0,',
    '  FLT64_TO_FLT32 T4.X, T3.Y,', '  FLT64_TO_FLT32 * T4.Y, T3.X,',
  ]));
  assert.deepEqual(ids(conv.diag), []);
  assert.deepEqual([conv.reg(3, 0)[0], conv.reg(3, 1)[0]], dw(Math.fround(0.1)));
  assert.deepEqual(conv.reg(4, 0), all(fb(0.1)));
  assert.deepEqual(ids(runAsm(clause(1, ['  ADD_64 * T4.X, T2.Y, T3.Y,'])).diag), ['r600.alu.f64-pair']);
});

test('MUL_64 / FMA_64 in four slots (Mesa: x, y, z high dwords, w low): the z/w pair computes, x/z get the low dword, y/w the high; Cayman requires the four slots', () => {
  const [al, ah] = dw(1 / 3);
  const [bl, bh] = dw(-7.25e5);
  const setup = ['  MOV * T2.X, literal.x,', lit(al), '  MOV * T2.Y, literal.x,', lit(ah), '  MOV * T3.X, literal.x,', lit(bl), '  MOV * T3.Y, literal.x,', lit(bh)];
  const quad = ['  MUL_64 T4.X, T2.Y, T3.Y,', '  MUL_64 T4.Y, T2.Y, T3.Y,', '  MUL_64 T4.Z, T2.Y, T3.Y,', '  MUL_64 * T4.W, T2.X, T3.X,'];
  const [pl, ph] = dw((1 / 3) * -7.25e5);
  for (const gen of ['evergreen', 'cayman'] as const) {
    const r = runAsm(clause(12, [...setup, ...quad]), { gen, mcpu: gen === 'cayman' ? 'cayman' : 'cypress' });
    assert.deepEqual(ids(r.diag), [], gen);
    assert.deepEqual([0, 1, 2, 3].map((c) => r.reg(4, c)[3]), [pl, ph, pl, ph], gen);
  }
  // A two-slot MUL_64 is a pair on Evergreen (quiet) but not enough on Cayman.
  const pair = clause(10, [...setup, '  MUL_64 T4.X, T2.Y, T3.Y,', '  MUL_64 * T4.Y, T2.X, T3.X,']);
  assert.deepEqual(ids(runAsm(pair).diag), []);
  assert.deepEqual(ids(runAsm(pair, { gen: 'cayman', mcpu: 'cayman' }).diag), ['r600.alu.f64-pair']);
});

test('bank swizzles: two GPRs of one channel read in one cycle are reported; clang fixtures never are', () => {
  const conflict = runAsm(clause(2, ['  ADD T4.X, T2.X, T3.X,', '  ADD * T4.Y, T5.X, T6.X,']));
  assert.deepEqual(ids(conflict.diag), ['r600.alu.bank-swizzle']);
  // Same group with the second instruction reading channel Y: no shared port.
  assert.deepEqual(ids(runAsm(clause(2, ['  ADD T4.X, T2.X, T3.X,', '  ADD * T4.Y, T5.Y, T6.Y,'])).diag), []);
  // The same register twice through one port is fine; VEC_021 moves src1 to cycle 2.
  assert.deepEqual(ids(runAsm(clause(2, ['  ADD T4.X, T2.X, T3.X,', '  ADD * T4.Y, T2.X, T3.X,'])).diag), []);
  assert.deepEqual(ids(runAsm(clause(2, ['  ADD T4.X, T2.X, T3.X,', '  ADD * T4.Y, T2.X, T5.X, BS:VEC_021/SCL_122'])).diag), []);
  // Trans slot: SCL_210 reads src0 in cycle 2 — clashes with a vector src2-cycle read of another X.
  assert.deepEqual(ids(runAsm(clause(2, ['  MULADD_IEEE T4.X, T2.X, T3.X, T5.X,', '  RECIP_IEEE * T4.Y, T6.X,'])).diag), ['r600.alu.bank-swizzle']);
  // Undefined swizzle for the trans slot.
  assert.deepEqual(ids(runAsm(clause(1, ['  RECIP_IEEE * T4.Y, T6.X, BS:VEC_201'])).diag), ['r600.alu.bank-swizzle']);
});

test('first-generation R600 op2 words: FOG_MERGE at bit 5, OMOD 7:6, ALU_INST 17:8', () => {
  for (const op of ALU_OPS.filter((o) => o.enc === 'op2' && o.r600 >= 0 && o.slots[0] !== '' && o.srcs === 2)) {
    const line = `${op.llvm} * T2.X, T0.X, T1.Y, FOG_MERGE`;
    const [w0, w1] = assembleAlu('r600', line, err);
    assert.equal((w1 >>> 8) & 0x3ff, op.r600, op.name);
    assert.equal((w1 >>> 5) & 1, 1);
    const d = decodeAlu('r600', 0, w0, w1);
    assert.equal(d.op?.name, op.name);
    assert.equal(printAlu(d).replace(/\s+/g, ' '), printAlu(decodeAlu('r600', 0, ...assembleAlu('r600', printAlu(d), err))).replace(/\s+/g, ' '));
    // The same bits read with R700's layout name a different field value.
    if (op.r600 !== 0) assert.notEqual((w1 >>> 7) & 0x7ff, op.r600);
  }
  // A program assembled for r600 computes what the Evergreen one computes.
  const src = clause(3, ['  ADD_INT * T2.X, T0.X, literal.x,', lit(1000), '  MULLO_INT * T2.Y, T0.X, T0.X,']);
  const a = runAsm(src, { gen: 'r600' });
  const b = runAsm(src, { gen: 'evergreen' });
  assert.deepEqual(ids(a.diag), []);
  assert.deepEqual(a.reg(2, 0), b.reg(2, 0));
  assert.deepEqual(a.reg(2, 1), Array.from({ length: 64 }, (_, l) => l * l));
});

test('r600.alu.no-fp64: FMA and the 64-bit float ops on a chip without them (juniper) are reported; cypress and cayman are quiet', () => {
  const f64 = clause(2, ['  ADD_64 T4.X, T2.Y, T3.Y,', '  ADD_64 * T4.Y, T2.X, T3.X,']);
  const fma = clause(1, ['  FMA * T4.X, T2.X, T3.X, T5.X,']);
  for (const src of [f64, fma]) {
    assert.deepEqual(ids(runAsm(src, { mcpu: 'juniper' }).diag), ['r600.alu.no-fp64']);
    assert.deepEqual(ids(runAsm(src, { mcpu: 'cypress' }).diag), []);
  }
  assert.deepEqual(ids(runAsm(f64, { gen: 'cayman', mcpu: 'cayman' }).diag), []);
});

test('64-bit transcendental ops (RECIP/RECIPSQRT[_CLAMPED]_64, SQRT_64) match binary64: Evergreen trans slot, Cayman slots x/y/z', () => {
  // src0 = high dword, src1 = low dword of one double; an even destination channel gets the low
  // dword of the result, an odd one the high dword. Expected values from JS binary64 arithmetic.
  const cases: [string, number, (a: number) => number][] = [
    ['RECIP_64', 3, (a) => 1 / a],
    ['RECIP_64', -0.1, (a) => 1 / a],
    ['RECIP_CLAMPED_64', 0, () => Number.MAX_VALUE],
    ['RECIP_CLAMPED_64', -0, () => -Number.MAX_VALUE],
    ['RECIP_CLAMPED_64', 2.5e-3, (a) => 1 / a],
    ['RECIPSQRT_64', 2, (a) => 1 / Math.sqrt(a)],
    ['RECIPSQRT_CLAMPED_64', 0, () => Number.MAX_VALUE],
    ['SQRT_64', 2, (a) => Math.sqrt(a)],
    ['SQRT_64', 1e300, (a) => Math.sqrt(a)],
    ['SQRT_64', -4, () => NaN],
  ];
  for (const [op, a, f] of cases) {
    const [al, ah] = dw(a);
    const setup = ['  MOV * T2.X, literal.x,', lit(al), '  MOV * T2.Y, literal.x,', lit(ah)];
    const eg = runAsm(clause(6, [...setup, `  ${op} * T4.X, T2.Y, T2.X,`, `  ${op} * T4.Y, T2.Y, T2.X,`]));
    const cm = runAsm(clause(7, [...setup, `  ${op} T4.X, T2.Y, T2.X,`, `  ${op} T4.Y, T2.Y, T2.X,`, `  ${op} * T4.Z (MASKED), T2.Y, T2.X,`]), { gen: 'cayman', mcpu: 'cayman' });
    const want = dw(f(a));
    for (const [gen, r] of [['evergreen', eg], ['cayman', cm]] as const) {
      assert.deepEqual(ids(r.diag), [], `${gen} ${op}`);
      const got = [r.reg(4, 0)[5]!, r.reg(4, 1)[5]!];
      if (Number.isNaN(f(a))) assert.ok(Number.isNaN(new Float64Array(new Uint32Array(got).buffer)[0]), `${gen} ${op}(${a}) is NaN`);
      else assert.deepEqual(got, want, `${gen} ${op}(${a})`);
    }
  }
  // Evergreen: trans-only, so two in one group collide in the trans slot.
  assert.deepEqual(ids(runAsm(clause(2, ['  RECIP_64 T4.X, T2.Y, T2.X,', '  RECIP_64 * T4.Y, T2.Y, T2.X,'])).diag), ['r600.alu.slot-conflict']);
  // Cayman: a lone slot (or x/y without z) is reported; juniper has no fp64.
  assert.deepEqual(ids(runAsm(clause(1, ['  SQRT_64 * T4.X, T2.Y, T2.X,']), { gen: 'cayman', mcpu: 'cayman' }).diag), ['r600.alu.f64-pair']);
  assert.deepEqual(ids(runAsm(clause(2, ['  SQRT_64 T4.X, T2.Y, T2.X,', '  SQRT_64 * T4.Y, T2.Y, T2.X,']), { gen: 'cayman', mcpu: 'cayman' }).diag), ['r600.alu.f64-pair']);
  assert.deepEqual(ids(runAsm(clause(1, ['  SQRT_64 * T4.X, T2.Y, T2.X,']), { mcpu: 'juniper' }).diag), ['r600.alu.no-fp64']);
});

test('PRED_SETE_64 / GT_64 / GE_64 compare doubles on a slot pair (the low dwords count) and set the predicate', () => {
  const run = (op: string, a: number, b: number) => {
    const [al, ah] = dw(a);
    const [bl, bh] = dw(b);
    return runAsm(clause(12, [
      '  MOV * T2.X, literal.x,', lit(al), '  MOV * T2.Y, literal.x,', lit(ah),
      '  MOV * T3.X, literal.x,', lit(bl), '  MOV * T3.Y, literal.x,', lit(bh),
      `  ${op} Pred,T4.X, T2.Y, T3.Y,`, `  ${op} * Pred,T4.Y, T2.X, T3.X,`,
      '  MOV * T5.X, literal.x, Pred_sel_one', lit(7),
    ]));
  };
  const next = 1 + 2 ** -52; // same high dword as 1.0
  for (const [op, a, b, want] of [['PRED_SETGT_64', next, 1, true], ['PRED_SETE_64', next, 1, false], ['PRED_SETGE_64', 1, 1, true], ['PRED_SETGT_64', -2, 1, false]] as const) {
    const r = run(op, a, b);
    assert.deepEqual(ids(r.diag), [], op);
    assert.deepEqual(r.reg(5, 0), all(want ? 7 : 0), `${op}(${a}, ${b})`);
    assert.deepEqual([r.reg(4, 0)[0], r.reg(4, 1)[0]], want ? [0, 0x3ff00000] : [0, 0], `${op} result`);
  }
  assert.deepEqual(ids(runAsm(clause(1, ['  PRED_SETE_64 * Pred,T4.X, T2.Y, T3.Y,'])).diag), ['r600.alu.f64-pair']);
  assert.deepEqual(ids(runAsm(clause(2, ['  PRED_SETE_64 Pred,T4.X, T2.Y, T3.Y,', '  PRED_SETE_64 * Pred,T4.Y, T2.X, T3.X,']), { mcpu: 'juniper' }).diag), ['r600.alu.no-fp64']);
});
