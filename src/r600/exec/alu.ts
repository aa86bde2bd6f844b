/**
 * ALU op semantics: pure functions of 32-bit source patterns returning the 32-bit result, per the
 * Evergreen/Cayman ISA documents' definitions. Float ops compute in IEEE single precision
 * (Math.fround after each operation). Ops that touch more than one lane-local value (PRED_SET*,
 * KILL*, MOVA*, LDS, GROUP_BARRIER, DOT4...) are handled by the clause executor; `ALU_KIND` says
 * which.
 */

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);
/** Bits -> float. */
export const F = (x: number): number => {
  u32[0] = x;
  return f32[0]!;
};
/** Float -> bits (rounded to single). */
export const B = (x: number): number => {
  f32[0] = x;
  return u32[0]!;
};
const ONE = 0x3f800000;
const bool = (c: boolean): number => (c ? ONE : 0);
const mask = (c: boolean): number => (c ? 0xffffffff : 0);
const s = (x: number): number => x | 0;

function rndne(x: number): number {
  const r = Math.round(x);
  return Math.abs(x % 1) === 0.5 ? 2 * Math.round(x / 2) : r;
}
function fltToInt(x: number): number {
  if (Number.isNaN(x)) return 0;
  const t = Math.trunc(x);
  return t >= 2147483647 ? 0x7fffffff : t <= -2147483648 ? 0x80000000 : t >>> 0;
}
function fltToUint(x: number): number {
  if (Number.isNaN(x) || x <= 0) return 0;
  const t = Math.trunc(x);
  return t >= 4294967295 ? 0xffffffff : t >>> 0;
}
function mulhiU(a: number, b: number): number {
  const al = a & 0xffff, ah = a >>> 16, bl = b & 0xffff, bh = b >>> 16;
  const lo = al * bl;
  const mid1 = ah * bl;
  const mid2 = al * bh;
  const carry = ((lo >>> 16) + (mid1 & 0xffff) + (mid2 & 0xffff)) >>> 16;
  return (ah * bh + (mid1 >>> 16) + (mid2 >>> 16) + carry) >>> 0;
}
function mulhiI(a: number, b: number): number {
  let h = mulhiU(a, b);
  if (a & 0x80000000) h = (h - b) >>> 0;
  if (b & 0x80000000) h = (h - a) >>> 0;
  return h;
}
/** DX9-style MUL: 0 * anything (including inf/nan) is 0. */
function mulLegacy(a: number, b: number): number {
  const x = F(a), y = F(b);
  if (x === 0 || y === 0) return 0;
  return B(x * y);
}
function maxDx9(a: number, b: number): number {
  const x = F(a), y = F(b);
  return x >= y ? a : b;
}
function minDx9(a: number, b: number): number {
  const x = F(a), y = F(b);
  return x < y ? a : b;
}
function maxDx10(a: number, b: number): number {
  const x = F(a), y = F(b);
  if (Number.isNaN(x)) return b;
  if (Number.isNaN(y)) return a;
  return x >= y ? a : b;
}
function minDx10(a: number, b: number): number {
  const x = F(a), y = F(b);
  if (Number.isNaN(x)) return b;
  if (Number.isNaN(y)) return a;
  return x < y ? a : b;
}
function bfe(src: number, off: number, width: number, signed: boolean): number {
  const o = off & 31, w = width & 31;
  if (w === 0) return 0;
  if (o + w < 32) {
    const v = (src >>> o) & ((1 << w) - 1);
    return signed && w < 32 ? ((v << (32 - w)) >> (32 - w)) >>> 0 : v >>> 0;
  }
  return signed ? (src >> o) >>> 0 : src >>> o;
}
function ffbh(x: number): number {
  return x === 0 ? 0xffffffff : Math.clz32(x);
}
function ffbl(x: number): number {
  return x === 0 ? 0xffffffff : 31 - Math.clz32(x & -x);
}
function popcnt(x: number): number {
  x = x - ((x >>> 1) & 0x55555555);
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (((x + (x >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}
function bfrev(x: number): number {
  let r = 0;
  for (let i = 0; i < 32; i++) r = (r << 1) | ((x >>> i) & 1);
  return r >>> 0;
}
function f32ToF16(x: number): number {
  const v = F(x);
  if (Number.isNaN(v)) return 0x7e00;
  const sign = v < 0 || Object.is(v, -0) ? 0x8000 : 0;
  const a = Math.abs(v);
  if (a >= 65520) return sign | 0x7c00;
  if (a < 2 ** -24 / 2) return sign;
  if (a < 2 ** -14) return sign | rndne(a / 2 ** -24);
  let e = Math.floor(Math.log2(a));
  if (2 ** e > a) e--;
  if (2 ** (e + 1) <= a) e++;
  let m = rndne((a / 2 ** e - 1) * 1024);
  if (m === 1024) { m = 0; e++; }
  if (e > 15) return sign | 0x7c00;
  return sign | ((e + 15) << 10) | m;
}
function f16ToF32(h: number): number {
  const sign = h & 0x8000 ? -1 : 1;
  const e = (h >>> 10) & 31, m = h & 1023;
  if (e === 0) return B(sign * m * 2 ** -24);
  if (e === 31) return m ? 0x7fc00000 : B(sign * Infinity);
  return B(sign * (1 + m / 1024) * 2 ** (e - 15));
}

export type AluFn = (a: number, b: number, c: number) => number;

/** Plain per-lane ops by ISA-document name. */
export const ALU_FN: Readonly<Record<string, AluFn>> = {
  ADD: (a, b) => B(F(a) + F(b)),
  MUL: mulLegacy,
  MUL_IEEE: (a, b) => B(F(a) * F(b)),
  MAX: maxDx9,
  MIN: minDx9,
  MAX_DX10: maxDx10,
  MIN_DX10: minDx10,
  SETE: (a, b) => bool(F(a) === F(b)),
  SETGT: (a, b) => bool(F(a) > F(b)),
  SETGE: (a, b) => bool(F(a) >= F(b)),
  SETNE: (a, b) => bool(F(a) !== F(b)),
  SETE_DX10: (a, b) => mask(F(a) === F(b)),
  SETGT_DX10: (a, b) => mask(F(a) > F(b)),
  SETGE_DX10: (a, b) => mask(F(a) >= F(b)),
  SETNE_DX10: (a, b) => mask(F(a) !== F(b)),
  FRACT: (a) => B(F(a) - Math.floor(F(a))),
  TRUNC: (a) => B(Math.trunc(F(a))),
  CEIL: (a) => B(Math.ceil(F(a))),
  RNDNE: (a) => B(rndne(F(a))),
  FLOOR: (a) => B(Math.floor(F(a))),
  ASHR_INT: (a, b) => (a >> (b & 31)) >>> 0,
  LSHR_INT: (a, b) => a >>> (b & 31),
  LSHL_INT: (a, b) => (a << (b & 31)) >>> 0,
  MOV: (a) => a,
  NOP: () => 0,
  AND_INT: (a, b) => (a & b) >>> 0,
  OR_INT: (a, b) => (a | b) >>> 0,
  XOR_INT: (a, b) => (a ^ b) >>> 0,
  NOT_INT: (a) => ~a >>> 0,
  ADD_INT: (a, b) => (a + b) >>> 0,
  SUB_INT: (a, b) => (a - b) >>> 0,
  MAX_INT: (a, b) => (s(a) > s(b) ? a : b),
  MIN_INT: (a, b) => (s(a) < s(b) ? a : b),
  MAX_UINT: (a, b) => (a > b ? a : b),
  MIN_UINT: (a, b) => (a < b ? a : b),
  SETE_INT: (a, b) => mask(a === b),
  SETGT_INT: (a, b) => mask(s(a) > s(b)),
  SETGE_INT: (a, b) => mask(s(a) >= s(b)),
  SETNE_INT: (a, b) => mask(a !== b),
  SETGT_UINT: (a, b) => mask(a > b),
  SETGE_UINT: (a, b) => mask(a >= b),
  FLT_TO_INT: (a) => fltToInt(F(a)),
  FLT_TO_INT_TRUNC: (a) => fltToInt(F(a)),
  FLT_TO_INT_FLOOR: (a) => fltToInt(Math.floor(F(a))),
  FLT_TO_INT_RPI: (a) => fltToInt(Math.floor(F(a) + 0.5)),
  BFREV_INT: bfrev,
  ADDC_UINT: (a, b) => (a + b > 0xffffffff ? 1 : 0),
  SUBB_UINT: (a, b) => (a < b ? 1 : 0),
  EXP_IEEE: (a) => B(2 ** F(a)),
  LOG_IEEE: (a) => B(Math.log2(F(a))),
  LOG_CLAMPED: (a) => { const r = Math.log2(F(a)); return B(r === -Infinity ? -3.4028234663852886e38 : r); },
  RECIP_IEEE: (a) => B(1 / F(a)),
  RECIP_FF: (a) => { const r = 1 / F(a); return B(Number.isFinite(r) ? r : 0); },
  RECIP_CLAMPED: (a) => { const r = 1 / F(a); return B(Number.isFinite(r) ? r : Math.sign(r) * 3.4028234663852886e38); },
  RECIPSQRT_IEEE: (a) => B(1 / Math.sqrt(F(a))),
  RECIPSQRT_FF: (a) => { const r = 1 / Math.sqrt(F(a)); return B(Number.isFinite(r) ? r : 0); },
  RECIPSQRT_CLAMPED: (a) => { const r = 1 / Math.sqrt(F(a)); return B(Number.isFinite(r) ? r : 3.4028234663852886e38); },
  SQRT_IEEE: (a) => B(Math.sqrt(F(a))),
  // R700 and later: the input is in revolutions (LLVM pre-scales by 1/2pi and wraps to [-0.5, 0.5]).
  SIN: (a) => B(Math.sin(F(a) * 2 * Math.PI)),
  COS: (a) => B(Math.cos(F(a) * 2 * Math.PI)),
  MULLO_INT: (a, b) => Math.imul(a, b) >>> 0,
  MULHI_INT: mulhiI,
  MULLO_UINT: (a, b) => Math.imul(a, b) >>> 0,
  MULHI_UINT: mulhiU,
  RECIP_INT: (a) => (s(a) === 0 ? 0xffffffff : Math.trunc(2 ** 32 / s(a)) >>> 0),
  RECIP_UINT: (a) => (a === 0 ? 0xffffffff : Math.min(0xffffffff, Math.floor(2 ** 32 / a)) >>> 0),
  FLT_TO_UINT: (a) => fltToUint(F(a)),
  INT_TO_FLT: (a) => B(s(a)),
  UINT_TO_FLT: (a) => B(a),
  BFM_INT: (a, b) => ((((1 << (a & 31)) - 1) << (b & 31)) >>> 0),
  FLT32_TO_FLT16: (a) => f32ToF16(a),
  FLT16_TO_FLT32: (a) => f16ToF32(a & 0xffff),
  UBYTE0_FLT: (a) => B(a & 255),
  UBYTE1_FLT: (a) => B((a >>> 8) & 255),
  UBYTE2_FLT: (a) => B((a >>> 16) & 255),
  UBYTE3_FLT: (a) => B(a >>> 24),
  BCNT_INT: popcnt,
  FFBH_UINT: ffbh,
  FFBL_INT: ffbl,
  FFBH_INT: (a) => (a === 0 || a === 0xffffffff ? 0xffffffff : Math.clz32(s(a) < 0 ? ~a : a)),
  MULHI_UINT24: (a, b) => mulhiU(a & 0xffffff, b & 0xffffff),
  MUL_UINT24: (a, b) => Math.imul(a & 0xffffff, b & 0xffffff) >>> 0,
  MUL_INT24: (a, b) => Math.imul((a << 8) >> 8, (b << 8) >> 8) >>> 0,
  MULHI_INT24: (a, b) => mulhiI(((a << 8) >> 8) >>> 0, ((b << 8) >> 8) >>> 0),
  BFE_UINT: (a, b, c) => bfe(a, b, c, false),
  BFE_INT: (a, b, c) => bfe(a, b, c, true),
  BFI_INT: (a, b, c) => ((a & b) | (~a & c)) >>> 0,
  FMA: (a, b, c) => B(F(a) * F(b) + F(c)),
  MULADD_INT24: (a, b, c) => (Math.imul((a << 8) >> 8, (b << 8) >> 8) + c) >>> 0,
  MULADD_UINT24: (a, b, c) => (Math.imul(a & 0xffffff, b & 0xffffff) + c) >>> 0,
  BIT_ALIGN_INT: (a, b, c) => { const n = c & 31; return n === 0 ? b : ((b >>> n) | (a << (32 - n))) >>> 0; },
  BYTE_ALIGN_INT: (a, b, c) => { const n = (c & 3) * 8; return n === 0 ? b : ((b >>> n) | (a << (32 - n))) >>> 0; },
  MULADD: (a, b, c) => { const m = mulLegacy(a, b); return B(F(m) + F(c)); },
  MULADD_M2: (a, b, c) => { const m = mulLegacy(a, b); return B((F(m) + F(c)) * 2); },
  MULADD_M4: (a, b, c) => { const m = mulLegacy(a, b); return B((F(m) + F(c)) * 4); },
  MULADD_D2: (a, b, c) => { const m = mulLegacy(a, b); return B((F(m) + F(c)) / 2); },
  MULADD_IEEE: (a, b, c) => B(F(B(F(a) * F(b))) + F(c)),
  CNDE: (a, b, c) => (F(a) === 0 ? b : c),
  CNDGT: (a, b, c) => (F(a) > 0 ? b : c),
  CNDGE: (a, b, c) => (F(a) >= 0 ? b : c),
  CNDE_INT: (a, b, c) => (a === 0 ? b : c),
  CNDGT_INT: (a, b, c) => (s(a) > 0 ? b : c),
  CNDGE_INT: (a, b, c) => (s(a) >= 0 ? b : c),
  LERP_UINT: (a, b, c) => {
    let r = 0;
    for (let i = 0; i < 32; i += 8) r |= (((((a >>> i) & 255) + ((b >>> i) & 255) + ((c >>> i) & 1)) >>> 1) & 255) << i;
    return r >>> 0;
  },
  SAD_ACCUM_UINT: (a, b, c) => {
    let r = c;
    for (let i = 0; i < 32; i += 8) r += Math.abs(((a >>> i) & 255) - ((b >>> i) & 255));
    return r >>> 0;
  },
};

/** Compare kinds of PRED_SET*, KILL* and the *_PUSH forms: [test, integer kind]. */
export const COMPARE: Readonly<Record<string, (a: number, b: number) => boolean>> = {
  E: (a, b) => F(a) === F(b),
  GT: (a, b) => F(a) > F(b),
  GE: (a, b) => F(a) >= F(b),
  NE: (a, b) => F(a) !== F(b),
  E_INT: (a, b) => a === b,
  GT_INT: (a, b) => s(a) > s(b),
  GE_INT: (a, b) => s(a) >= s(b),
  NE_INT: (a, b) => a !== b,
  LT_INT: (a, b) => s(a) < s(b),
  LE_INT: (a, b) => s(a) <= s(b),
  GT_UINT: (a, b) => a > b,
  GE_UINT: (a, b) => a >= b,
};

/** Parse PRED_SETxx[_PUSH][_INT|_UINT] / KILLxx[_INT|_UINT] into its compare. */
const compareCache = new Map<string, ((a: number, b: number) => boolean) | undefined>();
export function compareOf(name: string): ((a: number, b: number) => boolean) | undefined {
  if (compareCache.has(name)) return compareCache.get(name);
  const f = compareOfUncached(name);
  compareCache.set(name, f);
  return f;
}
function compareOfUncached(name: string): ((a: number, b: number) => boolean) | undefined {
  const m = /^(?:PRED_SET|KILL)(E|GT|GE|NE|LT|LE)(?:_PUSH)?(_INT|_UINT)?$/.exec(name);
  if (!m) return undefined;
  return COMPARE[m[1]! + (m[2] ?? '')];
}

/**
 * The predicate-counter ops (R600/R700/Evergreen/Cayman ISA documents): a per-item nesting counter
 * kept in a GPR, 0 meaning "executing". Returns [predicate, result] or undefined for other ops.
 *
 * - PRED_SET{E,GT,GE,NE}_PUSH[_INT]: the predicate is set when the counter src0 is 0 and src1
 *   compares to 0 (src1 == 0, > 0, >= 0, != 0, and for the _INT forms also < 0 and <= 0, signed);
 *   the result is 0 then, else the counter plus one (float, or integer for _INT).
 * - PRED_SET_POP: set when src0 <= src1 (popping src1 levels reaches 0): result 0, else src0 - src1.
 * - PRED_SET_RESTORE: set when src0 == 0; the result is src0.
 * - PRED_SET_INV: set when src0 == 1 (result 0); else the result is 1 for src0 == 0, src0 otherwise.
 * - PRED_SET_CLR: never set; the result is the largest float (every level off).
 * The same shape in AMD's Xenos ISA (Xbox 360), where PRED_SET*_PUSHv compare one source with 0
 * and increment the other, corroborates the operand roles.
 */
export function predCounterOp(name: string, a: number, b: number): [boolean, number] | undefined {
  return predCounterFn(name)?.(a, b);
}

/** predCounterOp bound to one op (undefined for ops that are not predicate-counter ops). */
export function predCounterFn(name: string): ((a: number, b: number) => [boolean, number]) | undefined {
  const push = /^PRED_SET(E|GT|GE|NE|LT|LE)_PUSH(_INT)?$/.exec(name);
  if (push) {
    const int = push[2] !== undefined;
    const rel = push[1]!;
    return (a, b) => {
      const zero = int ? a === 0 : F(a) === 0;
      const v = int ? s(b) : F(b);
      const cmp = rel === 'E' ? v === 0 : rel === 'GT' ? v > 0 : rel === 'GE' ? v >= 0 : rel === 'NE' ? v !== 0 : rel === 'LT' ? v < 0 : v <= 0;
      if (zero && cmp) return [true, 0];
      return [false, int ? (a + 1) >>> 0 : B(F(a) + 1)];
    };
  }
  switch (name) {
    case 'PRED_SET_POP': return (a, b) => (F(a) <= F(b) ? [true, 0] : [false, B(F(a) - F(b))]);
    case 'PRED_SET_RESTORE': return (a) => [F(a) === 0, a];
    case 'PRED_SET_INV': return (a) => (F(a) === 1 ? [true, 0] : [false, F(a) === 0 ? 0x3f800000 : a]);
    case 'PRED_SET_CLR': return () => [false, 0x7f7fffff];
    default: return undefined;
  }
}

/** *_PREV ops (Evergreen/Cayman ISA definitions): p is the previous slot's result, lane the work-item's. */
export const PREV_FN: Readonly<Record<string, (a: number, b: number, p: number, lane: number) => number>> = {
  MUL_PREV: (a, _b, p) => (F(a) === 0 || F(p) === 0 ? 0 : B(F(a) * F(p))),
  MUL_IEEE_PREV: (a, _b, p) => B(F(a) * F(p)),
  ADD_PREV: (a, _b, p) => B(F(a) + F(p)),
  MULADD_PREV: (a, b, p) => B((F(a) === 0 || F(p) === 0 ? 0 : Math.fround(F(a) * F(p))) + F(b)),
  MULADD_IEEE_PREV: (a, b, p) => B(Math.fround(F(a) * F(p)) + F(b)),
  BCNT_ACCUM_PREV_INT: (a, _b, p) => (popcnt(a) + p) >>> 0,
  // Bits of src0 below this work-item's position in the low 32 lanes, plus the previous result.
  MBCNT_32LO_ACCUM_PREV_INT: (a, _b, p, lane) => (popcnt(lane >= 32 ? a : lane === 0 ? 0 : (a & (0xffffffff >>> (32 - lane))) >>> 0) + p) >>> 0,
  SAD_ACCUM_PREV_UINT: (a, b, p) => {
    let r = p;
    for (let i = 0; i < 32; i += 8) r += Math.abs(((a >>> i) & 255) - ((b >>> i) & 255));
    return r >>> 0;
  },
};
