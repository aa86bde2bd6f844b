/**
 * 64-bit float ALU semantics (Evergreen/Cayman ADD_64, MUL_64, FMA_64, the SET*_64 compares, the
 * conversions and the 64-bit transcendentals): pure functions of the source dwords. Which slots
 * carry which halves is the ALU clause's business (wave/alu-clause.ts); these see (high, low) pairs.
 */
import { B, F } from './alu.js';

const f64 = new Float64Array(1);
const f64w = new Uint32Array(f64.buffer);
/** A double from its high and low dwords. */
export const D = (hi: number, lo: number): number => {
  f64w[0] = lo;
  f64w[1] = hi;
  return f64[0]!;
};
/** A double's [low, high] dwords. */
export const DW = (v: number): [number, number] => {
  f64[0] = v;
  return [f64w[0]!, f64w[1]!];
};

/** A 64-bit op on (hi, lo) source dwords (sources 0..2); returns [low, high] result dwords. */
export type F64Fn = (hi: readonly number[], lo: readonly number[]) => [number, number];

const bool = (x: boolean): [number, number] => DW(x ? 1 : 0);
const a0 = (hi: readonly number[], lo: readonly number[]): number => D(hi[0]!, lo[0]!);
const a1 = (hi: readonly number[], lo: readonly number[]): number => D(hi[1]!, lo[1]!);
const a2 = (hi: readonly number[], lo: readonly number[]): number => D(hi[2]!, lo[2]!);

/** The 64-bit ops run on a slot pair (or Cayman's four slots), by ISA-document name. */
export const F64_FN: Readonly<Record<string, F64Fn>> = {
  ADD_64: (h, l) => DW(a0(h, l) + a1(h, l)),
  MUL_64: (h, l) => DW(a0(h, l) * a1(h, l)),
  FMA_64: (h, l) => DW(fma64(a0(h, l), a1(h, l), a2(h, l))),
  MULADD_64: (h, l) => DW(fma64(a0(h, l), a1(h, l), a2(h, l))),
  MIN_64: (h, l) => {
    const a = a0(h, l), b = a1(h, l);
    return DW(Number.isNaN(a) ? b : Number.isNaN(b) ? a : Math.min(a, b));
  },
  MAX_64: (h, l) => {
    const a = a0(h, l), b = a1(h, l);
    return DW(Number.isNaN(a) ? b : Number.isNaN(b) ? a : Math.max(a, b));
  },
  SETE_64: (h, l) => bool(a0(h, l) === a1(h, l)),
  SETNE_64: (h, l) => bool(a0(h, l) !== a1(h, l)),
  SETGT_64: (h, l) => bool(a0(h, l) > a1(h, l)),
  SETGE_64: (h, l) => bool(a0(h, l) >= a1(h, l)),
  CNDNE_64: (h, l) => (a0(h, l) !== 0 ? DW(a1(h, l)) : DW(a2(h, l))),
  FRACT_64: (h, l) => {
    const a = a0(h, l);
    return DW(a - Math.floor(a));
  },
  LDEXP_64: (h, l) => DW(a0(h, l) * 2 ** (l[1]! | 0)),
  FREXP_64: (h, l) => {
    const a = a0(h, l);
    if (a === 0 || !Number.isFinite(a)) return DW(a);
    const e = Math.floor(Math.log2(Math.abs(a))) + 1;
    return DW(a / 2 ** e);
  },
  // The single-precision value sits in the even slot's source (the "high" operand).
  FLT32_TO_FLT64: (h) => DW(F(h[0]!)),
  // The float in the even slot, zero in the odd one.
  FLT64_TO_FLT32: (h, l) => [B(a0(h, l)), 0],
};

/** 64-bit ops Mesa issues in all four vector slots (Cayman: AF_4V). */
export const FOUR_SLOT_F64: ReadonlySet<string> = new Set(['MUL_64', 'FMA_64']);

/**
 * The 64-bit transcendental ops (trans slot on Evergreen; slots x, y, z on Cayman): each
 * instruction reads one double, src0 its high dword and src1 its low dword (Mesa's order), and
 * writes the low dword of the result through an even destination channel, the high dword through
 * an odd one. Modelled correctly rounded in binary64; the _CLAMPED forms turn an infinite result
 * into the largest finite double of its sign, like the 32-bit RECIP_CLAMPED / RECIPSQRT_CLAMPED.
 */
export const F64_TRANS_FN: Readonly<Record<string, (hi: number, lo: number) => [number, number]>> = {
  RECIP_64: (hi, lo) => DW(1 / D(hi, lo)),
  RECIP_CLAMPED_64: (hi, lo) => DW(clamp(1 / D(hi, lo))),
  RECIPSQRT_64: (hi, lo) => DW(1 / Math.sqrt(D(hi, lo))),
  RECIPSQRT_CLAMPED_64: (hi, lo) => DW(clamp(1 / Math.sqrt(D(hi, lo)))),
  SQRT_64: (hi, lo) => DW(Math.sqrt(D(hi, lo))),
};
const clamp = (r: number): number => (r === Infinity ? Number.MAX_VALUE : r === -Infinity ? -Number.MAX_VALUE : r);

/** One 64-bit transcendental by name (SQRT_64 for any name not in F64_TRANS_FN, as before). */
export function f64TransOp(name: string, hi: number, lo: number): [number, number] {
  return (F64_TRANS_FN[name] ?? F64_TRANS_FN['SQRT_64']!)(hi, lo);
}

/** Fused a*b+c in binary64 (one rounding), via exact products split with Veltkamp/Dekker. */
export function fma64(a: number, b: number, c: number): number {
  if (!Number.isFinite(a) || !Number.isFinite(b) || !Number.isFinite(c) || a === 0 || b === 0) return a * b + c;
  const p = a * b;
  const split = (x: number): [number, number] => {
    const t = 134217729 * x;
    const h = t - (t - x);
    return [h, x - h];
  };
  const [ah, al] = split(a);
  const [bh, bl] = split(b);
  const e = ((ah * bh - p) + ah * bl + al * bh) + al * bl;
  const s = p + c;
  const bb = s - p;
  const err = (p - (s - bb)) + (c - bb);
  return s + (err + e);
}
