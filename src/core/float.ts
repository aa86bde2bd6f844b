/**
 * Float bit helpers without allocation: f32/f64 <-> bits through shared typed arrays, and IEEE
 * binary16 conversions with round-to-nearest-even (Node 20 has no Math.f16round).
 */
const F32 = new Float32Array(1);
const U32 = new Uint32Array(F32.buffer);
const F64 = new Float64Array(1);
const U64 = new Uint32Array(F64.buffer);

export function f32(bits: number): number {
  U32[0] = bits;
  return F32[0]!;
}
export function f32bits(v: number): number {
  F32[0] = v;
  return U32[0]!;
}
export function f64(lo: number, hi: number): number {
  U64[0] = lo;
  U64[1] = hi;
  return F64[0]!;
}
/** Store v as f64; returns the low dword, the high dword is in `f64hi()` right after. */
export function f64bits(v: number): number {
  F64[0] = v;
  return U64[0]!;
}
export function f64hi(): number {
  return U64[1]!;
}

/** binary16 bits -> JS number (exact), by formula (used to fill the table). */
function f16slow(bits: number): number {
  const s = bits & 0x8000 ? -1 : 1;
  const e = (bits >>> 10) & 0x1f;
  const m = bits & 0x3ff;
  if (e === 0) return s * m * 2 ** -24;
  if (e === 31) return m === 0 ? s * Infinity : NaN;
  return s * (1 + m / 1024) * 2 ** (e - 15);
}
/**
 * Every binary16 value, by bit pattern (512 KiB, filled on the first decode: decoding is then one
 * load; filling it at start-up cost ~10 ms of every process, f16-free runs included).
 */
let F16_VALUES: Float64Array | null = null;
function f16Table(): Float64Array {
  const t = new Float64Array(65536);
  for (let i = 0; i < 65536; i++) t[i] = f16slow(i);
  return (F16_VALUES = t);
}

/** binary16 bits -> JS number (exact). */
export function f16(bits: number): number {
  return (F16_VALUES ?? f16Table())[bits & 0xffff]!;
}

/** binary32 bits -> binary16 bits, round to nearest even. */
function f16FromF32Bits(b: number): number {
  const sign = (b >>> 16) & 0x8000;
  const e = (b >>> 23) & 0xff;
  const m = b & 0x7fffff;
  if (e === 255) return sign | 0x7c00 | (m !== 0 ? 0x200 | (m >>> 13) : 0);
  const e16 = e - 112; // e - 127 + 15
  if (e16 >= 31) return sign | 0x7c00;
  if (e16 <= 0) {
    // subnormal (or zero): the significand with its implicit bit, shifted into units of 2^-24
    if (e16 < -10) return sign;
    const mant = m | 0x800000;
    const shift = 14 - e16;
    let r = mant >>> shift;
    const rem = mant & ((1 << shift) - 1);
    const half = 1 << (shift - 1);
    if (rem > half || (rem === half && (r & 1) === 1)) r++;
    return sign | r;
  }
  let r = (e16 << 10) | (m >>> 13);
  const rem = m & 0x1fff;
  if (rem > 0x1000 || (rem === 0x1000 && (r & 1) === 1)) r++; // a carry into the exponent is right (up to inf)
  return sign | r;
}

/** JS number -> binary16 bits, round to nearest even (from the exact double). */
export function f16bits(v: number): number {
  if (Number.isNaN(v)) return 0x7e00;
  const b = f32bits(v);
  if (f32(b) === v) return f16FromF32Bits(b); // exact in binary32: round from its bits
  return f16bitsSlow(v);
}
function f16bitsSlow(v: number): number {
  const sign = v < 0 || Object.is(v, -0) ? 0x8000 : 0;
  let a = Math.abs(v);
  if (a === Infinity) return sign | 0x7c00;
  if (a >= 65520) return sign | 0x7c00; // rounds to infinity
  if (a < 2 ** -14) {
    // subnormal: units of 2^-24
    const q = a / 2 ** -24;
    let r = Math.floor(q);
    const frac = q - r;
    if (frac > 0.5 || (frac === 0.5 && (r & 1) === 1)) r++;
    return sign | r; // r may reach 0x400 = smallest normal, which is the right encoding
  }
  let e = Math.floor(Math.log2(a));
  if (2 ** e > a) e--;
  if (2 ** (e + 1) <= a) e++;
  const q = (a / 2 ** e - 1) * 1024;
  let m = Math.floor(q);
  const frac = q - m;
  if (frac > 0.5 || (frac === 0.5 && (m & 1) === 1)) m++;
  if (m === 1024) {
    m = 0;
    e++;
  }
  if (e + 15 >= 31) return sign | 0x7c00;
  a = 0;
  return sign | ((e + 15) << 10) | m;
}

/** Is a binary32 bit pattern a denormal (nonzero exponent-zero)? */
export function isDenormF32(bits: number): boolean {
  return (bits & 0x7f800000) === 0 && (bits & 0x007fffff) !== 0;
}

// ---------------------------------------------------------------------------------------------
// Rounding modes, denormal flushing and exact arithmetic (no FPU control in JS: emulated).
//
// A result is carried as an unevaluated sum `x + e` of two doubles where `x` is the double
// nearest the exact value and `e` the exact remainder (0 when `x` is exact). The rounders below
// turn such a pair into the target format under a rounding mode, so a directed mode sees which
// side of `x` the exact value lies on, and round-to-nearest-even is not fooled by the double
// rounding of a tie. Modes use the hardware's FP_ROUND encoding.

/** FP_ROUND values: 0 nearest even, 1 toward +inf, 2 toward -inf, 3 toward zero. */
export const ROUND = { NEAREST_EVEN: 0, PLUS_INF: 1, MINUS_INF: 2, ZERO: 3 } as const;

/**
 * Side channel for the exact helpers (no allocation): `EXACT[0]` the remainder of the last
 * twoSum/twoProd/fma64, `EXACT[1]` 1 when that result overflowed from finite operands.
 */
export const EXACT = new Float64Array(2);

/** s = RN(a + b); EXACT[0] = the exact a + b - s (Knuth's branch-free TwoSum). */
export function twoSum(a: number, b: number): number {
  const s = a + b;
  if (!Number.isFinite(s)) {
    EXACT[0] = 0;
    EXACT[1] = Number.isFinite(a) && Number.isFinite(b) ? 1 : 0;
    return s;
  }
  const bb = s - a;
  EXACT[0] = (a - (s - bb)) + (b - bb);
  EXACT[1] = 0;
  return s;
}

const SPLIT = 134217729; // 2^27 + 1 (Veltkamp)
/** p = RN(a * b); EXACT[0] = the exact a * b - p (Dekker's product; exact unless it underflows). */
export function twoProd(a: number, b: number): number {
  const p = a * b;
  if (!Number.isFinite(p) || p === 0) {
    EXACT[0] = 0;
    EXACT[1] = !Number.isFinite(p) && Number.isFinite(a) && Number.isFinite(b) ? 1 : 0;
    return p;
  }
  let sa = 1;
  let sb = 1;
  // Keep the split in range for huge operands (the scale is a power of two: exact).
  if (Math.abs(a) > 2 ** 995) (a *= 2 ** -28), (sa = 2 ** 28);
  if (Math.abs(b) > 2 ** 995) (b *= 2 ** -28), (sb = 2 ** 28);
  const ca = SPLIT * a;
  const ah = ca - (ca - a);
  const al = a - ah;
  const cb = SPLIT * b;
  const bh = cb - (cb - b);
  const bl = b - bh;
  const q = a * b;
  EXACT[0] = (((ah * bh - q) + ah * bl) + al * bh + al * bl) * sa * sb;
  EXACT[1] = 0;
  return p;
}

const B64 = new Float64Array(1);
const W64 = new Uint32Array(B64.buffer);
/** The next double toward +inf (dir > 0) or -inf (dir < 0). */
export function nextAfter64(x: number, dir: number): number {
  if (x !== x) return x;
  if (x === 0) return dir > 0 ? 5e-324 : -5e-324;
  B64[0] = x;
  let lo = W64[0]!;
  let hi = W64[1]!;
  const up = (x > 0) === (dir > 0);
  if (up) {
    lo = (lo + 1) >>> 0;
    if (lo === 0) hi = (hi + 1) >>> 0;
  } else {
    if (lo === 0) hi = (hi - 1) >>> 0;
    lo = (lo - 1) >>> 0;
  }
  W64[0] = lo;
  W64[1] = hi;
  return B64[0]!;
}

/** Step a binary32/binary16 bit pattern one unit toward +inf (dir > 0) or -inf. */
function stepBits(bits: number, dir: number, signBit: number): number {
  const neg = (bits & signBit) !== 0;
  const mag = bits & (signBit - 1);
  if (mag === 0) return dir > 0 ? 1 : (signBit | 1) >>> 0;
  return (neg === dir > 0 ? bits - 1 : bits + 1) >>> 0;
}

/** Largest finite magnitudes (bit patterns without sign). */
const MAX32 = 0x7f7fffff;
const MAX16 = 0x7bff;

function directed(bits: number, toBits: (v: number) => number, fromBits: (b: number) => number, x: number, e: number, mode: number, signBit: number, maxBits: number, infBits: number): number {
  const f = fromBits(bits);
  const neg = x < 0 || (x === 0 && e < 0);
  if (!Number.isFinite(f)) {
    // Overflowed: directed modes stop at the largest finite value on the side they round away from.
    const toInf = mode === ROUND.PLUS_INF ? !neg : mode === ROUND.MINUS_INF ? neg : false;
    return ((neg ? signBit : 0) | (toInf ? infBits : maxBits)) >>> 0;
  }
  const r = (x - f) + e;
  if (r === 0) return bits;
  if (mode === ROUND.PLUS_INF) return r > 0 ? stepBits(bits, 1, signBit) : bits;
  if (mode === ROUND.MINUS_INF) return r < 0 ? stepBits(bits, -1, signBit) : bits;
  // toward zero: step back when the nearest value is farther from zero than the exact one
  if (f > 0 && r < 0) return stepBits(bits, -1, signBit);
  if (f < 0 && r > 0) return stepBits(bits, 1, signBit);
  void toBits;
  return bits;
}

/** Fix a round-to-nearest-even tie that the double `x` hid (the exact value is x + e). */
function nearestTie(bits: number, fromBits: (b: number) => number, x: number, e: number, signBit: number): number {
  if (e === 0) return bits;
  const f = fromBits(bits);
  if (!Number.isFinite(f)) return bits;
  const d = x - f;
  if (d === 0) return bits;
  const n = fromBits(stepBits(bits, d > 0 ? 1 : -1, signBit));
  // x exactly halfway between f and its neighbour n, and the remainder pushes past the midpoint
  if (n - f === 2 * d && (e > 0) === (d > 0)) return stepBits(bits, d > 0 ? 1 : -1, signBit);
  return bits;
}

/** Round the exact value x + e to binary32 bits under FP_ROUND mode `mode` (x not NaN). */
export function roundF32(x: number, e: number, mode: number): number {
  const bits = f32bits(x);
  if (mode === ROUND.NEAREST_EVEN) return nearestTie(bits, f32, x, e, 0x80000000);
  if (e === 0 && f32(bits) === x) return bits;
  return directed(bits, f32bits, f32, x, e, mode, 0x80000000, MAX32, 0x7f800000);
}

/** Round the exact value x + e to binary16 bits under FP_ROUND mode `mode` (x not NaN). */
export function roundF16(x: number, e: number, mode: number): number {
  const bits = f16bits(x);
  if (mode === ROUND.NEAREST_EVEN) return nearestTie(bits, f16, x, e, 0x8000);
  if (e === 0 && f16(bits) === x) return bits;
  return directed(bits, f16bits, f16, x, e, mode, 0x8000, MAX16, 0x7c00);
}

/**
 * Round x + e to binary64 (x = RN(x + e) already). `ovf` marks an x that overflowed to infinity
 * from finite operands (directed modes then give the largest finite value where they must).
 */
export function roundF64(x: number, e: number, mode: number, ovf = 0): number {
  if (mode === ROUND.NEAREST_EVEN) return x;
  if (ovf) {
    const neg = x < 0;
    const toInf = mode === ROUND.PLUS_INF ? !neg : mode === ROUND.MINUS_INF ? neg : false;
    return toInf ? x : neg ? -Number.MAX_VALUE : Number.MAX_VALUE;
  }
  if (e === 0 || !Number.isFinite(x)) return x;
  if (mode === ROUND.PLUS_INF) return e > 0 ? nextAfter64(x, 1) : x;
  if (mode === ROUND.MINUS_INF) return e < 0 ? nextAfter64(x, -1) : x;
  if (x > 0 && e < 0) return nextAfter64(x, -1);
  if (x < 0 && e > 0) return nextAfter64(x, 1);
  return x;
}

/**
 * binary64 fused multiply-add rounded once under `mode`: the product is split exactly
 * (twoProd), the three-term sum is formed with TwoSum and the low part rounded to odd, so the
 * final addition rounds like a single rounding of the exact a*b+c (Boldo-Melquiond).
 */
function fmaCore(a: number, b: number, c: number, mode: number): number {
  if (!Number.isFinite(a) || !Number.isFinite(b) || !Number.isFinite(c) || a === 0 || b === 0) return a * b + c;
  const p = twoProd(a, b);
  if (EXACT[1]) return p + c;
  if ((p === 0 || Math.abs(p) < 2 ** -960) && Math.abs(c) >= 2 ** -900 && Number.isFinite(c)) {
    // the product is below half an ulp of c: it only decides directed roundings by its sign
    const neg = (a < 0) !== (b < 0);
    return roundF64(c, neg ? -5e-324 : 5e-324, mode);
  }
  const pe = EXACT[0]!;
  const s = twoSum(p, c);
  if (EXACT[1]) return roundF64(s, 0, mode, 1);
  const e1 = EXACT[0]!;
  let u = twoSum(e1, pe);
  const e2 = EXACT[0]!;
  if (mode === ROUND.NEAREST_EVEN) {
    if (e2 !== 0) {
      B64[0] = u;
      if ((W64[0]! & 1) === 0) u = nextAfter64(u, e2);
    }
    const r = s + u;
    return r;
  }
  const h = twoSum(s, u);
  if (EXACT[1]) return roundF64(h, 0, mode, 1);
  const res = EXACT[0]! + e2;
  if (h === 0 && res === 0) return mode === ROUND.MINUS_INF ? -0 : 0;
  return roundF64(h, res, mode);
}

export function fma64(a: number, b: number, c: number, mode = 0): number {
  const r = fmaCore(a, b, c, mode);
  if ((r !== 0 && Math.abs(r) >= 2 ** -960) || !Number.isFinite(r) || !Number.isFinite(a) || !Number.isFinite(b) || !Number.isFinite(c) || a === 0 || b === 0) return r;
  return fmaTiny(a, b, c, mode, r);
}

/**
 * fma with a result in (or near) the denormal range, where Dekker's split is not exact: a result
 * that small needs |c| < 2^-800 and a*b of the same order, so everything is scaled by 2^600 (no
 * overflow), the exact sum formed, and rounded once on the way back down.
 */
function fmaTiny(a: number, b: number, c: number, mode: number, r: number): number {
  const sa = Math.abs(a) <= Math.abs(b) ? a * 2 ** 600 : a;
  const sb = sa === a ? b * 2 ** 600 : b;
  const p = twoProd(sa, sb);
  const pe = EXACT[0]!;
  const s = twoSum(p, c * 2 ** 600);
  const e1 = EXACT[0]!;
  const u = twoSum(e1, pe);
  const e2 = EXACT[0]!;
  const hh = twoSum(s, u);
  const rest = EXACT[0]! + e2; // below half an ulp of hh: only its sign matters from here
  if (hh === 0 && rest === 0) return r;
  let x = hh * 2 ** -600;
  const d = hh - x * 2 ** 600;
  if (mode === ROUND.NEAREST_EVEN) {
    if (d !== 0 && rest !== 0 && (rest > 0) === (d > 0)) {
      const n = nextAfter64(x, d);
      if ((n - x) * 2 ** 600 === 2 * d) x = n; // an exact tie broken by the remainder
    }
    return x;
  }
  const all = d !== 0 ? d : rest;
  return roundF64(x, all > 0 ? 5e-324 : all < 0 ? -5e-324 : 0, mode);
}

/**
 * RN_mode((a*b + c) * 2^k) for k < 0 with one rounding (V_DIV_FMAS_F64's post-scale into the
 * denormal range): the exact sum is formed unscaled, then rounded once on the way down.
 */
export function fmaScaled(a: number, b: number, c: number, k: number, mode = 0): number {
  const r = fma64(a, b, c, mode);
  const y = r * 2 ** k;
  if (!Number.isFinite(r) || r === 0 || Math.abs(y) >= 2 ** -1022 || !Number.isFinite(a) || !Number.isFinite(b) || !Number.isFinite(c)) return y;
  const p = twoProd(a, b);
  if (EXACT[1]) return y;
  const pe = EXACT[0]!;
  const s = twoSum(p, c);
  const e1 = EXACT[0]!;
  const u = twoSum(e1, pe);
  const e2 = EXACT[0]!;
  const hh = twoSum(s, u);
  const rest = EXACT[0]! + e2;
  let x = hh * 2 ** k;
  const d = hh - x * 2 ** -k;
  if (mode === ROUND.NEAREST_EVEN) {
    if (d !== 0 && rest !== 0 && (rest > 0) === (d > 0)) {
      const n = nextAfter64(x, d);
      if ((n - x) * 2 ** -k === 2 * d) x = n;
    }
    return x;
  }
  const all = d !== 0 ? d : rest;
  return roundF64(x, all > 0 ? 5e-324 : all < 0 ? -5e-324 : 0, mode);
}

/** Flush a binary32 denormal to a zero of the same sign. */
export function flushF32(bits: number): number {
  return (bits & 0x7f800000) === 0 ? (bits & 0x80000000) >>> 0 : bits;
}
/** Flush a binary16 denormal to a zero of the same sign. */
export function flushF16(bits: number): number {
  return (bits & 0x7c00) === 0 ? bits & 0x8000 : bits;
}
/** Flush a binary64 denormal (given its high dword) — returns the new high dword; low becomes 0 when flushed. */
export function isDenormF64(lo: number, hi: number): boolean {
  return (hi & 0x7ff00000) === 0 && ((hi & 0xfffff) !== 0 || lo !== 0);
}

/** bfloat16 bits -> number (exact). */
export function bf16(bits: number): number {
  return f32((bits & 0xffff) << 16);
}
/**
 * number -> bfloat16 bits, round to nearest even (NaN -> quiet NaN). The binary32 step rounds
 * too, so a tie at 16 bits is settled by what that step dropped (no double rounding).
 */
export function bf16bits(v: number): number {
  if (v !== v) return 0x7fc0;
  const b = f32bits(v);
  const lower = b & 0xffff;
  let hi = b >>> 16;
  if ((b & 0x7f800000) === 0x7f800000) return hi; // infinities (the f32 step may have overflowed: RNE keeps inf)
  const dropped = Math.abs(v) - Math.abs(f32(b)); // > 0: the exact value is beyond the f32 one
  if (lower > 0x8000 || (lower === 0x8000 && (dropped > 0 || (dropped === 0 && (hi & 1) === 1)))) hi++;
  return hi & 0xffff;
}
