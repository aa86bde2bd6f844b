/**
 * Float VALU ops (f16, f32, f64): arithmetic with exact remainders so MODE's rounding applies,
 * IEEE_MODE min/max, transcendental ops with the ISA's special cases, frexp/ldexp, the division
 * helpers (div_scale/div_fmas/div_fixup) and v_trig_preop, cube map ops, dot2 and packed fmac.
 * Per-op definitions follow the RDNA3 ISA pseudocode; the wrapper (valu.ts) does rounding,
 * denormal flushing, omod/clamp and NaN propagation.
 */
import { F32_OPS } from './valu-f32.js';
import { R, RH, fop, vop, fin, f32LaneFn, T0, T1, T2, TH0, TH1, TH2, TF0, TF1, TF2, ERR, MODE, h, d64, rawF32, rawF64, cinBit, setCout, type Shape } from './valu.js';
import { EXACT, f16, f16bits, f32, f32bits, f64bits, f64hi, fma64, twoProd, twoSum, bf16, bf16bits, roundF16, roundF32, nextAfter64, fmaScaled } from '../../core/float.js';
import type { ValuOperands } from './valu-core.js';

const F32x1: Shape = { srcs: ['f32'], dst: 'f32' };
const F32x2: Shape = { srcs: ['f32', 'f32'], dst: 'f32' };
const F32x3: Shape = { srcs: ['f32', 'f32', 'f32'], dst: 'f32' };
const F64x1: Shape = { srcs: ['f64'], dst: 'f64' };
const F64x2: Shape = { srcs: ['f64', 'f64'], dst: 'f64' };
const F64x3: Shape = { srcs: ['f64', 'f64', 'f64'], dst: 'f64' };
const F16x1: Shape = { srcs: ['f16'], dst: 'f16' };
const F16x2: Shape = { srcs: ['f16', 'f16'], dst: 'f16' };
const F16x3: Shape = { srcs: ['f16', 'f16', 'f16'], dst: 'f16' };

// ---- exact add / mul / fma helpers: value returned, remainder in ERR[0]
function add(a: number, b: number): number {
  const s = twoSum(a, b);
  ERR[0] = EXACT[0]!;
  ERR[1] = EXACT[1]!;
  return s;
}
/** Product of f16/f32 values: exact in a double. */
const mulSmall = (a: number, b: number) => a * b;
function mul64(a: number, b: number): number {
  const p = twoProd(a, b);
  if ((p !== 0 && Math.abs(p) >= 2 ** -960) || !Number.isFinite(p) || a === 0 || b === 0 || !Number.isFinite(a) || !Number.isFinite(b)) {
    ERR[0] = EXACT[0]!;
    ERR[1] = EXACT[1]!;
    return p;
  }
  return mulTiny(a, b);
}
/**
 * A product in (or near) the denormal range: Dekker's split is not exact there, so the smaller
 * operand is scaled by 2^600, the exact product formed, and the result rounded once on the way
 * back down (ties resolved by the exact remainder; directed modes get the remainder's sign).
 */
function mulTiny(a: number, b: number): number {
  const sa = Math.abs(a) < Math.abs(b) ? a * 2 ** 600 : a;
  const sb = sa === a ? b * 2 ** 600 : b;
  const P = twoProd(sa, sb);
  const E = EXACT[0]!;
  const neg = (a < 0) !== (b < 0);
  if (P === 0) {
    ERR[0] = neg ? -5e-324 : 5e-324;
    return neg ? -0 : 0;
  }
  let x = P * 2 ** -600;
  const d = P - x * 2 ** 600;
  if (MODE.rm64 === 0) {
    if (d !== 0 && E !== 0 && (E > 0) === (d > 0)) {
      const n = nextAfter64(x, d);
      if ((n - x) * 2 ** 600 === 2 * d) x = n;
    }
    ERR[0] = 0;
    return x;
  }
  const r = d + E;
  ERR[0] = r > 0 ? 5e-324 : r < 0 ? -5e-324 : 0;
  return x;
}
/** fma for f16/f32 operands: the product is exact, the sum carries its remainder. */
function fmaSmall(a: number, b: number, c: number): number {
  return add(a * b, c);
}
/** f64 fma, already rounded under MODE (fma64 rounds once itself). */
function fmaD(a: number, b: number, c: number): number {
  return fma64(a, b, c, MODE.rm64);
}

// ---- f32 arithmetic
// v_add/sub/subrev/mul/fma/fmac/fmamk/fmaak_f32: valu-f32.ts (the description both tiers read).
/** D = S0 * K + S1 (K the literal). */
const remapMK = (o: ValuOperands): ValuOperands => ({ ...o, src: [o.src[0]!, 255, o.src[1]!] });
/** D = S0 * S1 + K. */
const remapAK = (o: ValuOperands): ValuOperands => ({ ...o, src: [o.src[0]!, o.src[1]!, 255] });
// DX9 rules: 0 * anything (inf, NaN) = 0.
fop('v_mul_dx9_zero_f32', F32x2, (n) => {
  for (let l = 0; l < n; l++) fin(l, (TF0[l] === 0 || TF1[l] === 0 ? 0 : TF0[l]! * TF1[l]!));
});
fop('v_fma_dx9_zero_f32', F32x3, (n) => {
  for (let l = 0; l < n; l++) fin(l, (TF0[l] === 0 || TF1[l] === 0 ? TF2[l]! : fmaSmall(TF0[l]!, TF1[l]!, TF2[l]!)));
});
fop('v_fmac_dx9_zero_f32', F32x2, (n) => {
  for (let l = 0; l < n; l++) fin(l, (TF0[l] === 0 || TF1[l] === 0 ? TF2[l]! : fmaSmall(TF0[l]!, TF1[l]!, TF2[l]!)));
}, { accum: true });
fop('v_mullit_f32', F32x3, (n) => {
  for (let l = 0; l < n; l++) {
  const b = TF1[l]!, c = TF2[l]!;
  if (b === -3.4028234663852886e38 || b === -Infinity || b !== b || c <= 0 || c !== c) { fin(l, -3.4028234663852886e38); continue; }
  { fin(l, TF0[l]! * b); continue; }
}
});
fop('v_ldexp_f32', { srcs: ['f32', 'b32'], dst: 'f32' }, (n) => {
  for (let l = 0; l < n; l++) fin(l, ldexp(TF0[l]!, T1[l]! | 0));
});
fop('v_ldexp_f64', { srcs: ['f64', 'b32'], dst: 'f64' }, (n) => {
  for (let l = 0; l < n; l++) fin(l, ldexp(d64(0, l), T1[l]! | 0));
});
fop('v_ldexp_f16', { srcs: ['f16', 'b16'], dst: 'f16' }, (n) => {
  for (let l = 0; l < n; l++) fin(l, ldexp(h(0, l), (T1[l]! << 16) >> 16));
});
/** x * 2^n exactly (the result's rounding is the wrapper's): scaled in steps that stay exact. */
function ldexp(x: number, n: number): number {
  if (x === 0 || !Number.isFinite(x)) return x;
  if (n > 2200) n = 2200;
  if (n < -2200) n = -2200;
  while (n > 1000) (x *= 2 ** 1000), (n -= 1000);
  // going down, stop above the double's denormal range and let the last step round once
  while (n < -1000) {
    const y = x * 2 ** -1000;
    if (Math.abs(y) < 2 ** -1000) break;
    x = y;
    n += 1000;
  }
  if (n < -1074 - 60) return x > 0 ? 0 : -0;
  return n < -1000 ? x * 2 ** -1000 * 2 ** (n + 1000) : x * 2 ** n;
}

// ---- min / max with IEEE_MODE (sNaN quieted; a quiet NaN loses to a number) and -0 < +0
const isSnan32 = (b: number) => (b & 0x7fc00000) === 0x7f800000 && (b & 0x3fffff) !== 0;
const isSnan16 = (b: number) => (b & 0x7e00) === 0x7c00 && (b & 0x1ff) !== 0;
const isSnan64 = (lo: number, hi: number) => (hi & 0x7ff80000) === 0x7ff00000 && ((hi & 0x7ffff) !== 0 || lo !== 0);
/** v_max/v_min on values with signalling flags; returns the chosen value (NaN -> wrapper quiets S0/S1). */
function minmax(a: number, b: number, sa: boolean, sb: boolean, max: boolean): number {
  if (MODE.ieee) {
    if (sa || sb) return NaN; // the first sNaN source, quieted (nanOut takes the first NaN: S0 before S1)
  }
  if (b !== b) return a;
  if (a !== a) return b;
  if (a === b) {
    if (a === 0) return max ? (Object.is(a, -0) ? b : a) : Object.is(a, -0) ? a : b;
    return a;
  }
  return max ? (a > b ? a : b) : a < b ? a : b;
}
/** Two-input f32 min/max: an sNaN under IEEE_MODE returns that operand quieted (S0's first). */
function min32(l: number, a: number, b: number, ab: number, bb: number): number {
  if (MODE.ieee && (isSnan32(ab) || isSnan32(bb))) return rawF32(l, (isSnan32(ab) ? ab : bb) | 0x400000);
  return minmax(a, b, false, false, false);
}
function max32(l: number, a: number, b: number, ab: number, bb: number): number {
  if (MODE.ieee && (isSnan32(ab) || isSnan32(bb))) return rawF32(l, (isSnan32(ab) ? ab : bb) | 0x400000);
  return minmax(a, b, false, false, true);
}
const NOOUT = { noFlushOut: true } as const;
// v_max/min_f32: ordered sources by their description (valu-f32.ts, which the fast tier inlines
// too); a lane with a NaN source by the IEEE_MODE rule here. The result is a source's value: no
// output flush.
for (const [name, max] of [['v_max_f32', true], ['v_min_f32', false]] as const) {
  const op = F32_OPS.get(name)!;
  const nanRule = max ? (l: number) => fin(l, max32(l, TF0[l]!, TF1[l]!, T0[l]!, T1[l]!)) : (l: number) => fin(l, min32(l, TF0[l]!, TF1[l]!, T0[l]!, T1[l]!));
  fop(name, { srcs: op.srcs, dst: 'f32' }, f32LaneFn(name, op, nanRule), NOOUT);
}
fop('v_max_f64', F64x2, (n) => {
  for (let l = 0; l < n; l++) fin(l, minmax(d64(0, l), d64(1, l), isSnan64(T0[l]!, TH0[l]!), isSnan64(T1[l]!, TH1[l]!), true));
}, NOOUT);
fop('v_min_f64', F64x2, (n) => {
  for (let l = 0; l < n; l++) fin(l, minmax(d64(0, l), d64(1, l), isSnan64(T0[l]!, TH0[l]!), isSnan64(T1[l]!, TH1[l]!), false));
}, NOOUT);
fop('v_max_f16', F16x2, (n) => {
  for (let l = 0; l < n; l++) fin(l, minmax(h(0, l), h(1, l), isSnan16(T0[l]!), isSnan16(T1[l]!), true));
}, NOOUT);
fop('v_min_f16', F16x2, (n) => {
  for (let l = 0; l < n; l++) fin(l, minmax(h(0, l), h(1, l), isSnan16(T0[l]!), isSnan16(T1[l]!), false));
}, NOOUT);
// Three-input forms compose the two-input ones; an intermediate quieted sNaN is a quiet NaN.
function mm3(a: number, b: number, c: number, sa: boolean, sb: boolean, sc: boolean, first: boolean, second: boolean): number {
  const t = minmax(a, b, sa, sb, first);
  return minmax(t, c, false, sc, second);
}
function med3f(a: number, b: number, c: number, sa: boolean, sb: boolean, sc: boolean): number {
  if (a !== a || b !== b || c !== c) return mm3(a, b, c, sa, sb, sc, false, false);
  const mx = mm3(a, b, c, false, false, false, true, true);
  if (Object.is(mx, a)) return minmax(b, c, false, false, true);
  if (Object.is(mx, b)) return minmax(a, c, false, false, true);
  return minmax(a, b, false, false, true);
}
fop('v_min3_f32', F32x3, (n) => {
  for (let l = 0; l < n; l++) fin(l, mm3(TF0[l]!, TF1[l]!, TF2[l]!, isSnan32(T0[l]!), isSnan32(T1[l]!), isSnan32(T2[l]!), false, false));
}, NOOUT);
fop('v_max3_f32', F32x3, (n) => {
  for (let l = 0; l < n; l++) fin(l, mm3(TF0[l]!, TF1[l]!, TF2[l]!, isSnan32(T0[l]!), isSnan32(T1[l]!), isSnan32(T2[l]!), true, true));
}, NOOUT);
fop('v_maxmin_f32', F32x3, (n) => {
  for (let l = 0; l < n; l++) fin(l, mm3(TF0[l]!, TF1[l]!, TF2[l]!, isSnan32(T0[l]!), isSnan32(T1[l]!), isSnan32(T2[l]!), true, false));
}, NOOUT);
fop('v_minmax_f32', F32x3, (n) => {
  for (let l = 0; l < n; l++) fin(l, mm3(TF0[l]!, TF1[l]!, TF2[l]!, isSnan32(T0[l]!), isSnan32(T1[l]!), isSnan32(T2[l]!), false, true));
}, NOOUT);
fop('v_med3_f32', F32x3, (n) => {
  for (let l = 0; l < n; l++) fin(l, med3f(TF0[l]!, TF1[l]!, TF2[l]!, isSnan32(T0[l]!), isSnan32(T1[l]!), isSnan32(T2[l]!)));
}, NOOUT);
fop('v_min3_f16', F16x3, (n) => {
  for (let l = 0; l < n; l++) fin(l, mm3(h(0, l), h(1, l), h(2, l), isSnan16(T0[l]!), isSnan16(T1[l]!), isSnan16(T2[l]!), false, false));
}, NOOUT);
fop('v_max3_f16', F16x3, (n) => {
  for (let l = 0; l < n; l++) fin(l, mm3(h(0, l), h(1, l), h(2, l), isSnan16(T0[l]!), isSnan16(T1[l]!), isSnan16(T2[l]!), true, true));
}, NOOUT);
fop('v_maxmin_f16', F16x3, (n) => {
  for (let l = 0; l < n; l++) fin(l, mm3(h(0, l), h(1, l), h(2, l), isSnan16(T0[l]!), isSnan16(T1[l]!), isSnan16(T2[l]!), true, false));
}, NOOUT);
fop('v_minmax_f16', F16x3, (n) => {
  for (let l = 0; l < n; l++) fin(l, mm3(h(0, l), h(1, l), h(2, l), isSnan16(T0[l]!), isSnan16(T1[l]!), isSnan16(T2[l]!), false, true));
}, NOOUT);
fop('v_med3_f16', F16x3, (n) => {
  for (let l = 0; l < n; l++) fin(l, med3f(h(0, l), h(1, l), h(2, l), isSnan16(T0[l]!), isSnan16(T1[l]!), isSnan16(T2[l]!)));
}, NOOUT);

// ---- rounding to integral values (exact results)
function rndne(x: number): number {
  if (!Number.isFinite(x)) return x;
  const f = Math.floor(x);
  const d = x - f;
  const r = d > 0.5 || (d === 0.5 && f % 2 !== 0) ? f + 1 : f;
  return r === 0 ? (x < 0 || Object.is(x, -0) ? -0 : 0) : r;
}
const trunc = (x: number) => Math.trunc(x);
const floor = (x: number) => Math.floor(x);
const ceil = (x: number) => Math.ceil(x);
fop('v_trunc_f32', F32x1, (n) => {
  for (let l = 0; l < n; l++) fin(l, trunc(TF0[l]!));
});
fop('v_floor_f32', F32x1, (n) => {
  for (let l = 0; l < n; l++) fin(l, floor(TF0[l]!));
});
fop('v_ceil_f32', F32x1, (n) => {
  for (let l = 0; l < n; l++) fin(l, ceil(TF0[l]!));
});
fop('v_rndne_f32', F32x1, (n) => {
  for (let l = 0; l < n; l++) fin(l, rndne(TF0[l]!));
});
fop('v_trunc_f64', F64x1, (n) => {
  for (let l = 0; l < n; l++) fin(l, trunc(d64(0, l)));
});
fop('v_floor_f64', F64x1, (n) => {
  for (let l = 0; l < n; l++) fin(l, floor(d64(0, l)));
});
fop('v_ceil_f64', F64x1, (n) => {
  for (let l = 0; l < n; l++) fin(l, ceil(d64(0, l)));
});
fop('v_rndne_f64', F64x1, (n) => {
  for (let l = 0; l < n; l++) fin(l, rndne(d64(0, l)));
});
fop('v_trunc_f16', F16x1, (n) => {
  for (let l = 0; l < n; l++) fin(l, trunc(h(0, l)));
});
fop('v_floor_f16', F16x1, (n) => {
  for (let l = 0; l < n; l++) fin(l, floor(h(0, l)));
});
fop('v_ceil_f16', F16x1, (n) => {
  for (let l = 0; l < n; l++) fin(l, ceil(h(0, l)));
});
fop('v_rndne_f16', F16x1, (n) => {
  for (let l = 0; l < n; l++) fin(l, rndne(h(0, l)));
});
/** fract = x - floor(x), clamped below 1.0 (largest value under 1 in the format); inf -> NaN. */
function fract(x: number, below1: number): number {
  if (!Number.isFinite(x)) return NaN;
  const f = x - Math.floor(x);
  ERR[0] = 0;
  return f >= below1 ? below1 : f;
}
fop('v_fract_f32', F32x1, (n) => {
  for (let l = 0; l < n; l++) {
  const x = TF0[l]!;
  if (!Number.isFinite(x)) { fin(l, x === x ? NaN : x); continue; }
  // x - floor(x) is exact in a double; round it like the f32 subtraction, then clamp below 1
  const r = f32(roundF32(x - Math.floor(x), 0, MODE.rm32));
  { fin(l, r >= 0.99999994 ? 0.99999994 : r); continue; }
}
});
fop('v_fract_f64', F64x1, (n) => {
  for (let l = 0; l < n; l++) {
  const x = d64(0, l);
  if (!Number.isFinite(x)) { fin(l, x === x ? NaN : x); continue; }
  { fin(l, fract(x, 0.9999999999999999)); continue; }
}
});
fop('v_fract_f16', F16x1, (n) => {
  for (let l = 0; l < n; l++) {
  const x = h(0, l);
  if (!Number.isFinite(x)) { fin(l, x === x ? NaN : x); continue; }
  const r = f16(roundF16(x - Math.floor(x), 0, MODE.rm64));
  { fin(l, r >= 0.99951171875 ? 0.99951171875 : r); continue; }
}
});

// ---- transcendental (the TRANS unit). f32 forms flush denormals regardless of MODE.
const TR = { trans: true, cls: 'trans' } as const;
const TR16 = { cls: 'trans' } as const;
fop('v_exp_f32', F32x1, (n) => {
  for (let l = 0; l < n; l++) fin(l, 2 ** TF0[l]!);
}, TR);
fop('v_log_f32', F32x1, (n) => {
  for (let l = 0; l < n; l++) fin(l, Math.log2(TF0[l]!));
}, TR);
fop('v_rcp_f32', F32x1, (n) => {
  for (let l = 0; l < n; l++) fin(l, 1 / TF0[l]!);
}, TR);
fop('v_rcp_iflag_f32', F32x1, (n) => {
  for (let l = 0; l < n; l++) fin(l, 1 / TF0[l]!);
}, TR);
fop('v_rsq_f32', F32x1, (n) => {
  for (let l = 0; l < n; l++) fin(l, 1 / Math.sqrt(TF0[l]!));
}, TR);
fop('v_sqrt_f32', F32x1, (n) => {
  for (let l = 0; l < n; l++) fin(l, Math.sqrt(TF0[l]!));
}, TR);
fop('v_sin_f32', F32x1, (n) => {
  for (let l = 0; l < n; l++) fin(l, sin2pi(TF0[l]!));
}, { cls: 'trans' });
fop('v_cos_f32', F32x1, (n) => {
  for (let l = 0; l < n; l++) fin(l, cos2pi(TF0[l]!));
}, { cls: 'trans' });
fop('v_rcp_f64', F64x1, (n) => {
  for (let l = 0; l < n; l++) fin(l, 1 / d64(0, l));
}, TR16);
fop('v_rsq_f64', F64x1, (n) => {
  for (let l = 0; l < n; l++) fin(l, 1 / Math.sqrt(d64(0, l)));
}, TR16);
fop('v_sqrt_f64', F64x1, (n) => {
  for (let l = 0; l < n; l++) fin(l, Math.sqrt(d64(0, l)));
}, TR16);
fop('v_exp_f16', F16x1, (n) => {
  for (let l = 0; l < n; l++) fin(l, 2 ** h(0, l));
}, TR16);
fop('v_log_f16', F16x1, (n) => {
  for (let l = 0; l < n; l++) fin(l, Math.log2(h(0, l)));
}, TR16);
fop('v_rcp_f16', F16x1, (n) => {
  for (let l = 0; l < n; l++) fin(l, 1 / h(0, l));
}, TR16);
fop('v_rsq_f16', F16x1, (n) => {
  for (let l = 0; l < n; l++) fin(l, 1 / Math.sqrt(h(0, l)));
}, TR16);
fop('v_sqrt_f16', F16x1, (n) => {
  for (let l = 0; l < n; l++) fin(l, Math.sqrt(h(0, l)));
}, TR16);
fop('v_sin_f16', F16x1, (n) => {
  for (let l = 0; l < n; l++) fin(l, sin2pi(h(0, l)));
}, TR16);
fop('v_cos_f16', F16x1, (n) => {
  for (let l = 0; l < n; l++) fin(l, cos2pi(h(0, l)));
}, TR16);
/** sin(2*pi*t) for t in [0, 1), with exact zeros and ones at the quarter points. */
function sinTurn(t: number): number {
  if (t < 0.25) return Math.sin(2 * Math.PI * t);
  if (t < 0.5) return Math.sin(2 * Math.PI * (0.5 - t));
  if (t < 0.75) return -Math.sin(2 * Math.PI * (t - 0.5));
  return -Math.sin(2 * Math.PI * (1 - t));
}
/** sin(x * 2pi) with full-range reduction: x - floor(x) is exact for binary16/32 inputs. */
function sin2pi(x: number): number {
  if (!Number.isFinite(x)) return NaN;
  if (x === 0) return x;
  const r = sinTurn(x - Math.floor(x));
  return r === 0 ? 0 : r; // an exact zero of a nonzero input is +0 (ISA: sin(-MaxFloat) = +0)
}
function cos2pi(x: number): number {
  if (!Number.isFinite(x)) return NaN;
  let t = x - Math.floor(x) + 0.25;
  if (t >= 1) t -= 1;
  const r = sinTurn(t);
  return r === 0 ? 0 : r;
}

// ---- frexp (C semantics: denormals normalised; inf/NaN give 0 and pass through)
function frexpExp(x: number): number {
  if (x === 0 || !Number.isFinite(x)) return 0;
  let e = Math.floor(Math.log2(Math.abs(x))) + 1;
  const m = Math.abs(x) / 2 ** e;
  if (m >= 1) e++;
  else if (m < 0.5) e--;
  return e;
}
function frexpMant(x: number): number {
  if (x === 0 || !Number.isFinite(x)) return x;
  const e = frexpExp(x);
  return e > 1000 ? x / 2 ** 1000 / 2 ** (e - 1000) : e < -1000 ? x * 2 ** 1000 * 2 ** (-e - 1000) : x / 2 ** e;
}
vop('v_frexp_exp_i32_f32', { srcs: ['f32'], dst: 'b32' }, (n) => {
  for (let l = 0; l < n; l++) void (R[l] = frexpExp(TF0[l]!));
});
vop('v_frexp_exp_i32_f64', { srcs: ['f64'], dst: 'b32' }, (n) => {
  for (let l = 0; l < n; l++) void (R[l] = frexpExp(d64(0, l)));
});
vop('v_frexp_exp_i16_f16', { srcs: ['f16'], dst: 'b16' }, (n) => {
  for (let l = 0; l < n; l++) void (R[l] = frexpExp(h(0, l)) & 0xffff);
});
fop('v_frexp_mant_f32', F32x1, (n) => {
  for (let l = 0; l < n; l++) fin(l, frexpMant(TF0[l]!));
});
fop('v_frexp_mant_f64', F64x1, (n) => {
  for (let l = 0; l < n; l++) fin(l, frexpMant(d64(0, l)));
});
fop('v_frexp_mant_f16', F16x1, (n) => {
  for (let l = 0; l < n; l++) fin(l, frexpMant(h(0, l)));
});

// ---- f64 arithmetic
fop('v_add_f64', F64x2, (n) => {
  for (let l = 0; l < n; l++) fin(l, add(d64(0, l), d64(1, l)));
});
fop('v_mul_f64', F64x2, (n) => {
  for (let l = 0; l < n; l++) fin(l, mul64(d64(0, l), d64(1, l)));
});
fop('v_fma_f64', F64x3, (n) => {
  for (let l = 0; l < n; l++) fin(l, fmaD(d64(0, l), d64(1, l), d64(2, l)));
});

// ---- f16 arithmetic
fop('v_add_f16', F16x2, (n) => {
  for (let l = 0; l < n; l++) fin(l, add(h(0, l), h(1, l)));
});
fop('v_sub_f16', F16x2, (n) => {
  for (let l = 0; l < n; l++) fin(l, add(h(0, l), -h(1, l)));
});
fop('v_subrev_f16', F16x2, (n) => {
  for (let l = 0; l < n; l++) fin(l, add(h(1, l), -h(0, l)));
});
fop('v_mul_f16', F16x2, (n) => {
  for (let l = 0; l < n; l++) fin(l, h(0, l) * h(1, l));
});
fop('v_fma_f16', F16x3, (n) => {
  for (let l = 0; l < n; l++) fin(l, fmaSmall(h(0, l), h(1, l), h(2, l)));
});
fop('v_fmac_f16', F16x2, (n) => {
  for (let l = 0; l < n; l++) fin(l, fmaSmall(h(0, l), h(1, l), h(2, l)));
}, { accum: true });
fop('v_fmamk_f16', F16x3, (n) => {
  for (let l = 0; l < n; l++) fin(l, fmaSmall(h(0, l), h(1, l), h(2, l)));
}, { remap: remapMK });
fop('v_fmaak_f16', F16x3, (n) => {
  for (let l = 0; l < n; l++) fin(l, fmaSmall(h(0, l), h(1, l), h(2, l)));
}, { remap: remapAK });

// ---- division helpers
const expF32 = (b: number) => (b >>> 23) & 0xff;
const expF64 = (hi: number) => (hi >>> 20) & 0x7ff;
const isDenorm32 = (x: number) => x !== 0 && Math.abs(x) < 2 ** -126;
const isDenorm64 = (x: number) => x !== 0 && Math.abs(x) < 2 ** -1022;
/** V_DIV_SCALE_F32: D = S0 scaled by 2^+-64 when the division needs it; VCC = post-scale flag. */
fop('v_div_scale_f32', F32x3, (n) => {
  for (let l = 0; l < n; l++) {
  const s0 = TF0[l]!, s1 = TF1[l]!, s2 = TF2[l]!;
  if (s2 === 0 || s1 === 0) { fin(l, NaN); continue; }
  const e1 = expF32(T1[l]!), e2 = expF32(T2[l]!);
  const q = f32(f32bits(s2 / s1));
  if (e2 - e1 >= 96) {
    setCout(l, 1);
    { fin(l, s0 === s1 ? s0 * 2 ** 64 : s0); continue; }
  }
  if (isDenorm32(s1)) { fin(l, s0 * 2 ** 64); continue; }
  if (isDenorm64(1 / s1) && isDenorm32(q)) {
    setCout(l, 1);
    { fin(l, s0 === s1 ? s0 * 2 ** 64 : s0); continue; }
  }
  if (isDenorm64(1 / s1)) { fin(l, s0 * 2 ** -64); continue; }
  if (isDenorm32(q)) {
    setCout(l, 1);
    { fin(l, s0 === s2 ? s0 * 2 ** 64 : s0); continue; }
  }
  if (e2 <= 23) { fin(l, s0 * 2 ** 64); continue; }
  { fin(l, s0); continue; }
}
}, { out: true, noFlushIn: true });
fop('v_div_scale_f64', F64x3, (n) => {
  for (let l = 0; l < n; l++) {
  const s0 = d64(0, l), s1 = d64(1, l), s2 = d64(2, l);
  if (s2 === 0 || s1 === 0) { fin(l, NaN); continue; }
  const e1 = expF64(TH1[l]!), e2 = expF64(TH2[l]!);
  const q = s2 / s1;
  if (e2 - e1 >= 768) {
    setCout(l, 1);
    { fin(l, s0 === s1 ? s0 * 2 ** 128 : s0); continue; }
  }
  if (isDenorm64(s1)) { fin(l, s0 * 2 ** 128); continue; }
  if (isDenorm64(1 / s1) && isDenorm64(q)) {
    setCout(l, 1);
    { fin(l, s0 === s1 ? s0 * 2 ** 128 : s0); continue; }
  }
  if (isDenorm64(1 / s1)) { fin(l, s0 * 2 ** -128); continue; }
  if (isDenorm64(q)) {
    setCout(l, 1);
    { fin(l, s0 === s2 ? s0 * 2 ** 128 : s0); continue; }
  }
  if (e2 <= 53) { fin(l, s0 * 2 ** 128); continue; }
  { fin(l, s0); continue; }
}
}, { out: true, noFlushIn: true });
/**
 * V_DIV_FMAS: fma, then post-scaled where VCC is set (VCC read in every encoding). The ISA writes
 * the post-scale as a fixed power of two; what the division macro needs (and the hardware does)
 * is to undo V_DIV_SCALE's 2^64 (f32) / 2^128 (f64): a quotient whose numerator was scaled up is
 * small and scales down, one whose denominator was scaled up is large and scales up.
 */
fop('v_div_fmas_f32', F32x3, (n) => {
  for (let l = 0; l < n; l++) {
  const r = fmaSmall(TF0[l]!, TF1[l]!, TF2[l]!);
  if (cinBit(l) && r === r) {
    const k = Math.abs(r) >= 1 ? 2 ** 64 : 2 ** -64;
    ERR[0] = ERR[0]! * k;
    { fin(l, r * k); continue; }
  }
  { fin(l, r); continue; }
}
}, { in: 'vcc', noFlushIn: true });
fop('v_div_fmas_f64', F64x3, (n) => {
  for (let l = 0; l < n; l++) {
  const a = d64(0, l), b = d64(1, l), c = d64(2, l);
  const r = fmaD(a, b, c);
  // the post-scale into the denormal range rounds once (fmaScaled), not after fma's rounding
  fin(l, !cinBit(l) || r !== r ? r : Math.abs(r) >= 1 ? r * 2 ** 128 : fmaScaled(a, b, c, -128, MODE.rm64));
}
}, { in: 'vcc', noFlushIn: true });
/** V_DIV_FIXUP: special cases of S2 / S1 applied to the quotient S0. */
fop('v_div_fixup_f32', F32x3, (n) => {
  for (let l = 0; l < n; l++) {
  const b0 = T0[l]!, b1 = T1[l]!, b2 = T2[l]!;
  const s1 = TF1[l]!, s2 = TF2[l]!;
  const neg = ((b1 ^ b2) >>> 31) === 1;
  if (s2 !== s2) { fin(l, rawF32(l, b2 | 0x400000)); continue; }
  if (s1 !== s1) { fin(l, rawF32(l, b1 | 0x400000)); continue; }
  if (s1 === 0 && s2 === 0) { fin(l, rawF32(l, 0xffc00000)); continue; }
  const i1 = Math.abs(s1) === Infinity, i2 = Math.abs(s2) === Infinity;
  if (i1 && i2) { fin(l, rawF32(l, 0xffc00000)); continue; }
  if (s1 === 0 || i2) { fin(l, neg ? -Infinity : Infinity); continue; }
  if (i1 || s2 === 0) { fin(l, neg ? -0 : 0); continue; }
  if (expF32(b2) - expF32(b1) < -150) { fin(l, rawF32(l, (neg ? 0x80000000 : 0) | 0)); continue; } // UNDERFLOW: +-0
  if (expF32(b1) === 255) { fin(l, neg ? -Infinity : Infinity); continue; }
  { fin(l, rawF32(l, (b0 & 0x7fffffff) | (neg ? 0x80000000 : 0))); continue; }
}
});
fop('v_div_fixup_f64', F64x3, (n) => {
  for (let l = 0; l < n; l++) {
  const s1 = d64(1, l), s2 = d64(2, l);
  const neg = ((TH1[l]! ^ TH2[l]!) >>> 31) === 1;
  if (s2 !== s2) { fin(l, rawF64(l, T2[l]!, TH2[l]! | 0x80000)); continue; }
  if (s1 !== s1) { fin(l, rawF64(l, T1[l]!, TH1[l]! | 0x80000)); continue; }
  if (s1 === 0 && s2 === 0) { fin(l, rawF64(l, 0, 0xfff80000)); continue; }
  const i1 = Math.abs(s1) === Infinity, i2 = Math.abs(s2) === Infinity;
  if (i1 && i2) { fin(l, rawF64(l, 0, 0xfff80000)); continue; }
  if (s1 === 0 || i2) { fin(l, neg ? -Infinity : Infinity); continue; }
  if (i1 || s2 === 0) { fin(l, neg ? -0 : 0); continue; }
  if (expF64(TH2[l]!) - expF64(TH1[l]!) < -1075) { fin(l, neg ? -0 : 0); continue; }
  if (expF64(TH1[l]!) === 2047) { fin(l, neg ? -Infinity : Infinity); continue; }
  { fin(l, rawF64(l, T0[l]!, (TH0[l]! & 0x7fffffff) | (neg ? 0x80000000 : 0))); continue; }
}
});
fop('v_div_fixup_f16', F16x3, (n) => {
  for (let l = 0; l < n; l++) {
  const b0 = T0[l]!, b1 = T1[l]!, b2 = T2[l]!;
  const s1 = f16(b1), s2 = f16(b2);
  const neg = ((b1 ^ b2) & 0x8000) !== 0;
  if (s2 !== s2) { fin(l, rawF32(l, b2 | 0x200)); continue; }
  if (s1 !== s1) { fin(l, rawF32(l, b1 | 0x200)); continue; }
  if (s1 === 0 && s2 === 0) { fin(l, rawF32(l, 0xfe00)); continue; }
  const i1 = Math.abs(s1) === Infinity, i2 = Math.abs(s2) === Infinity;
  if (i1 && i2) { fin(l, rawF32(l, 0xfe00)); continue; }
  if (s1 === 0 || i2) { fin(l, neg ? -Infinity : Infinity); continue; }
  if (i1 || s2 === 0) { fin(l, neg ? -0 : 0); continue; }
  { fin(l, rawF32(l, (b0 & 0x7fff) | (neg ? 0x8000 : 0))); continue; }
}
});

/** 2/pi as 1201 fraction bits, 32 per word (generated at load time from a decimal-free series). */
const TWO_OVER_PI = twoOverPiBits();
function twoOverPiBits(): Uint32Array {
  // 2/pi in hex (first 1216 fraction bits): well-known constant table (Payne-Hanek).
  const hex =
    'A2F9836E4E441529FC2757D1F534DDC0DB6295993C439041FE5163ABDEBBC561B7246E3A424DD2E006492EEA09D1921CFE1DEB1CB129A73EE88235F52EBB4484E99C7026B45F7E413991D639835339F49C845F8BBDF9283B1FF897FFDE05980FEF2F118B5A0A6D1F6D367ECF27CB09B74F463F669E5FEA2D7527BAC7EBE5F17B3D0739F78A5292EA6BFB5FB11F8D5D0856033046FC7B6BABF0CFBC209AF4361DA9E391615EE61B086599855F14A068408DFFD8804D73273106061556CA73A8C960E27BC08C6B';
  const words = new Uint32Array(Math.ceil(hex.length / 8));
  for (let i = 0; i < words.length; i++) words[i] = parseInt(hex.slice(i * 8, i * 8 + 8).padEnd(8, '0'), 16) >>> 0;
  return words;
}
/** Bits [start, start+n) of the 2/pi fraction (bit 0 = the first after the point), n <= 53. */
function twoOverPiSlice(start: number, n: number): number {
  let r = 0;
  for (let i = 0; i < n; i++) {
    const b = start + i;
    const wd = b >>> 5;
    const bit = wd < TWO_OVER_PI.length ? (TWO_OVER_PI[wd]! >>> (31 - (b & 31))) & 1 : 0;
    r = r * 2 + bit;
  }
  return r;
}
/** V_TRIG_PREOP_F64: the 53-bit segment of 2/pi selected by S1[4:0] and S0's exponent, scaled. */
fop('v_trig_preop_f64', { srcs: ['f64', 'b32'], dst: 'f64' }, (n) => {
  for (let l = 0; l < n; l++) {
  const e = expF64(TH0[l]!);
  let shift = (T1[l]! & 31) * 53;
  if (e > 1077) shift += e - 1077;
  const seg = twoOverPiSlice(shift, 53);
  let scale = -53 - shift;
  if (e >= 1968) scale += 128;
  { fin(l, ldexp(seg, scale)); continue; }
}
});

// ---- cube map coordinates
function cubeSel(x: number, y: number, z: number): number {
  const ax = Math.abs(x), ay = Math.abs(y), az = Math.abs(z);
  if (az >= ax && az >= ay) return 2;
  if (ay >= ax) return 1;
  return 0;
}
fop('v_cubeid_f32', F32x3, (n) => {
  for (let l = 0; l < n; l++) {
  const x = TF0[l]!, y = TF1[l]!, z = TF2[l]!;
  const s = cubeSel(x, y, z);
  { fin(l, s === 2 ? (z < 0 ? 5 : 4) : s === 1 ? (y < 0 ? 3 : 2) : x < 0 ? 1 : 0); continue; }
}
});
fop('v_cubesc_f32', F32x3, (n) => {
  for (let l = 0; l < n; l++) {
  const x = TF0[l]!, y = TF1[l]!, z = TF2[l]!;
  const s = cubeSel(x, y, z);
  { fin(l, s === 2 ? (z < 0 ? -x : x) : s === 1 ? x : x < 0 ? z : -z); continue; }
}
});
fop('v_cubetc_f32', F32x3, (n) => {
  for (let l = 0; l < n; l++) {
  const x = TF0[l]!, y = TF1[l]!, z = TF2[l]!;
  const s = cubeSel(x, y, z);
  { fin(l, s === 2 ? -y : s === 1 ? (y < 0 ? -z : z) : -y); continue; }
}
});
fop('v_cubema_f32', F32x3, (n) => {
  for (let l = 0; l < n; l++) {
  const x = TF0[l]!, y = TF1[l]!, z = TF2[l]!;
  const s = cubeSel(x, y, z);
  { fin(l, (s === 2 ? z : s === 1 ? y : x) * 2); continue; }
}
});

// ---- dot products and packed fmac (packed 16-bit halves in 32-bit sources)
/** v_dot2acc_f32_f16: D.f32 = S0.lo*S1.lo + S0.hi*S1.hi + D.f32 (products and sum exact in a double). */
fop('v_dot2acc_f32_f16', { srcs: ['b32', 'b32'], dst: 'f32' }, (n) => {
  for (let l = 0; l < n; l++) {
  const a = T0[l]!, b = T1[l]!;
  const p = f16(a & 0xffff) * f16(b & 0xffff) + f16(a >>> 16) * f16(b >>> 16);
  { fin(l, add(p, TF2[l]!)); continue; }
}
}, { accum: true });
/** v_dot2_f16_f16: D.f16 = S0.lo*S1.lo + S0.hi*S1.hi + S2.f16 (op_sel[2] picks S2's half). */
fop('v_dot2_f16_f16', { srcs: ['b32', 'b32', 'f16'], dst: 'f16' }, (n) => {
  for (let l = 0; l < n; l++) {
  const a = T0[l]!, b = T1[l]!;
  const p = f16(a & 0xffff) * f16(b & 0xffff) + f16(a >>> 16) * f16(b >>> 16);
  { fin(l, add(p, h(2, l))); continue; }
}
});
/** v_dot2_bf16_bf16: D.bf16 = S0.lo*S1.lo + S0.hi*S1.hi + S2.bf16 (rounded to bfloat16, nearest even). */
vop('v_dot2_bf16_bf16', { srcs: ['b32', 'b32', 'b16'], dst: 'b16' }, (n) => {
  for (let l = 0; l < n; l++) {
  const a = T0[l]!, b = T1[l]!;
  const p = bf16(a & 0xffff) * bf16(b & 0xffff) + bf16(a >>> 16) * bf16(b >>> 16) + bf16(T2[l]!);
  R[l] = bf16bits(p);
}
});
/** v_pk_fmac_f16: per half D.h = fma(S0.h, S1.h, D.h). */
vop('v_pk_fmac_f16', { srcs: ['b32', 'b32'], dst: 'b32' }, (n) => {
  for (let l = 0; l < n; l++) {
  const a = T0[l]!, b = T1[l]!, c = T2[l]!;
  let lo = fmaSmall(f16(a & 0xffff), f16(b & 0xffff), f16(c & 0xffff));
  const lo16 = lo !== lo ? 0x7e00 : roundF16(lo, ERR[0]!, MODE.rm64);
  lo = fmaSmall(f16(a >>> 16), f16(b >>> 16), f16(c >>> 16));
  const hi16 = lo !== lo ? 0x7e00 : roundF16(lo, ERR[0]!, MODE.rm64);
  R[l] = (lo16 | (hi16 << 16)) >>> 0;
}
}, { accum: true });
void T2;
void TH2;
void RH;
void f16bits;
void f64bits;
void f64hi;
