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

/** binary16 bits -> JS number (exact). */
export function f16(bits: number): number {
  const s = bits & 0x8000 ? -1 : 1;
  const e = (bits >>> 10) & 0x1f;
  const m = bits & 0x3ff;
  if (e === 0) return s * m * 2 ** -24;
  if (e === 31) return m === 0 ? s * Infinity : NaN;
  return s * (1 + m / 1024) * 2 ** (e - 15);
}

/** JS number -> binary16 bits, round to nearest even (from the exact double). */
export function f16bits(v: number): number {
  if (Number.isNaN(v)) return 0x7e00;
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
