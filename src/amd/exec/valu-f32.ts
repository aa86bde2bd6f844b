/**
 * f32 VALU arithmetic and the int <-> f32 conversions, one description each, read by both
 * execution tiers: the reference interpreter (valu.ts compiles each into its per-lane loop inside
 * the float wrapper: input flush, NaN results, omod, rounding under MODE, clamp) and the fast tier
 * (engine/fast-valu.ts inlines the same statements, under round-to-nearest-even with denormals
 * kept). A leaf module: it imports nothing.
 *
 * `body(s)` is the JavaScript statement text for one lane; `s[k].u` is source k's bits (a uint32),
 * `s[k].f` its f32 value (after the input denormal flush). Kind 'f32' assigns the exact double
 * `x` and, when x is finite and not exact in f32 arithmetic, its remainder `e` (0 otherwise): the
 * result is x + e rounded once. Kind 'i32' assigns the integer result `r` from float sources.
 */

export type F32Src = 'b32' | 'f32';

export interface F32SrcExpr {
  readonly u: string;
  readonly f: string;
}

export interface F32Op {
  readonly srcs: readonly F32Src[];
  readonly kind: 'f32' | 'i32';
  /** The destination is also the last (f32) source (v_fmac_f32). */
  readonly accum?: boolean;
  /** The literal is a source: 'mk' D = S0 * K + S1, 'ak' D = S0 * S1 + K. */
  readonly remap?: 'mk' | 'ak';
  /**
   * The body is defined for ordered sources only and selects one of them (x is a source's value,
   * e 0; no output flush): a lane with a NaN source takes its tier's NaN rule instead (the
   * reference: IEEE_MODE min/max in valu-float.ts; the fast tier hands the instruction back).
   */
  readonly ordered?: boolean;
  readonly body: (s: readonly F32SrcExpr[]) => string;
}

const ops: [string, F32Op][] = [];
const def = (name: string, op: F32Op): void => void ops.push([name, op]);

/** x = p + q exactly as a double, e the two-sum remainder (0 when x is not finite). */
const twoSum = (p: string, q: string) => `{ const p_ = ${p}, q_ = ${q}; x = p_ + q_; if (x - x === 0) { const bb = x - p_; e = (p_ - (x - bb)) + (q_ - bb); } }`;
const fma = ([a, b, c]: readonly F32SrcExpr[]) => twoSum(`${a!.f} * ${b!.f}`, c!.f);

// ---- f32 arithmetic (a product of two f32 values is exact in a double)
def('v_add_f32', { srcs: ['f32', 'f32'], kind: 'f32', body: ([a, b]) => twoSum(a!.f, b!.f) });
def('v_sub_f32', { srcs: ['f32', 'f32'], kind: 'f32', body: ([a, b]) => twoSum(a!.f, `-${b!.f}`) });
def('v_subrev_f32', { srcs: ['f32', 'f32'], kind: 'f32', body: ([a, b]) => twoSum(b!.f, `-${a!.f}`) });
def('v_mul_f32', { srcs: ['f32', 'f32'], kind: 'f32', body: ([a, b]) => `x = ${a!.f} * ${b!.f};` });
def('v_fma_f32', { srcs: ['f32', 'f32', 'f32'], kind: 'f32', body: fma });
def('v_fmac_f32', { srcs: ['f32', 'f32'], kind: 'f32', accum: true, body: fma });
def('v_fmamk_f32', { srcs: ['f32', 'f32', 'f32'], kind: 'f32', remap: 'mk', body: fma });
def('v_fmaak_f32', { srcs: ['f32', 'f32', 'f32'], kind: 'f32', remap: 'ak', body: fma });
// ---- min/max of ordered sources: -0 < +0, equal values give S0 (the ISA's IEEE min/max)
def('v_max_f32', { srcs: ['f32', 'f32'], kind: 'f32', ordered: true, body: ([a, b]) => `{ const p = ${a!.f}, q = ${b!.f}; x = p > q ? p : p < q ? q : p === 0 && 1 / p < 0 ? q : p; }` });
def('v_min_f32', { srcs: ['f32', 'f32'], kind: 'f32', ordered: true, body: ([a, b]) => `{ const p = ${a!.f}, q = ${b!.f}; x = p < q ? p : p > q ? q : p === 0 && 1 / p > 0 ? q : p; }` });
// ---- conversions: integer -> f32 rounds once; f32 -> integer truncates and saturates, NaN -> 0
def('v_cvt_f32_u32', { srcs: ['b32'], kind: 'f32', body: ([a]) => `x = ${a!.u};` });
def('v_cvt_f32_i32', { srcs: ['b32'], kind: 'f32', body: ([a]) => `x = ${a!.u} | 0;` });
def('v_cvt_u32_f32', { srcs: ['f32'], kind: 'i32', body: ([a]) => `{ const p = ${a!.f}; r = p !== p ? 0 : p <= 0 ? 0 : p >= 4294967295 ? 4294967295 : Math.trunc(p); }` });
def('v_cvt_i32_f32', { srcs: ['f32'], kind: 'i32', body: ([a]) => `{ const p = ${a!.f}; r = p !== p ? 0 : p <= -2147483648 ? -2147483648 : p >= 2147483647 ? 2147483647 : Math.trunc(p); }` });

/**
 * Statement text storing x + e rounded once to binary32 under round-to-nearest-even (x finite or
 * infinite, not NaN; e its two-sum remainder, 0 when x is exact or infinite): the f32 value goes
 * to `storeF` (a Float32Array element), or, on the rare path, roundF32's bits to `storeU` through
 * the helper `round` (core/float.ts roundF32, the reference rounding, which gives the same bits on
 * every input).
 *
 * Math.fround(x) is RN32(RN64(x + e)); it equals RN32(x + e) unless x itself is a midpoint between
 * two adjacent f32 values f and n (then the remainder's sign decides, and only roundF32 knows
 * which way). d = x - f is exact (f = RN32(x) is within an f32 half-unit of x), so x is a midpoint
 * exactly when d is nonzero and m = x + d = 2x - f is n, an f32 value. m is computed exactly when
 * it is n (an exact sum rounds to itself), so a midpoint always takes the rare path; a non-midpoint
 * whose m rounds onto an f32 value takes it too, which costs time, never bits. e === 0 (x exact)
 * and d === 0 (x an f32 value, |e| below a double half-unit of it) need no test. An infinite x
 * gives d, m NaN: stored as f (infinity). A finite x that overflows gives f infinite and m -Inf
 * or Inf: the rare path (roundF32 agrees). Tested against roundF32 on ties, denormals, overflow
 * (test/amd/engine-round.test.ts).
 */
export function nearestF32Store(x: string, e: string, storeF: string, storeU: string, round: string): string {
  return `{ const f_ = Math.fround(${x}), d_ = ${x} - f_, m_ = ${x} + d_; if (${e} === 0 || d_ === 0 || Math.fround(m_) !== m_) ${storeF} = f_; else ${storeU} = ${round}(${x}, ${e}, 0); }`;
}

/** Every described f32 op, in definition order. */
export const F32_OPS: ReadonlyMap<string, F32Op> = new Map(ops);
