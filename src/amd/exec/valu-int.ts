/**
 * Integer VALU ops, one description each, read by both execution tiers: the reference interpreter
 * (valu.ts compiles each into its per-lane loop, with VOP3 clamp, DPP and the rest of the operand
 * machinery around it) and the fast tier (engine/fast-valu.ts inlines the same statements into its
 * specialised handlers and fused lane loops). A leaf module: it imports nothing.
 *
 * `body(s)` is the JavaScript statement text that computes one lane: `s[k].u` is source k's low
 * dword (a uint32), `s[k].h` its high dword (64-bit sources). The statements assign `r` (the result,
 * or its low dword; any integer, stored modulo 2^32), `rh` (the high dword of a 64-bit result) and
 * `c` (the carry-out bit, ops with `cout`); `ci` is the lane's carry-in bit (ops with `cin`). The
 * helpers `h.mulhiU32`, `h.popcnt` name the functions of salu.ts (each tier binds them); `Math`. Semantics are the RDNA3 ISA guide's
 * (the same formulas as the SALU ones where they share a name).
 */

export type IntSrc = 'b32' | 'b64';

/** Source k of a lane, as expressions. */
export interface IntSrcExpr {
  readonly u: string;
  readonly h: string;
}

/** The helpers a body may call, as names (a tier records which ones an op uses). */
export interface IntHelpers {
  readonly mulhiU32: string;
  readonly popcnt: string;
}

export interface IntOp {
  readonly srcs: readonly IntSrc[];
  /** 'i32': result `r`; 'i64': `r` (low) and `rh` (high). */
  readonly kind: 'i32' | 'i64';
  /** Reads a lane mask as carry-in (VCC in VOP2, SRC2 in VOP3). */
  readonly cin?: boolean;
  /** Writes a lane mask as carry-out (VCC in VOP2, SDST in VOP3). */
  readonly cout?: boolean;
  /** VOP3 clamp saturates the 32-bit unsigned result (the add/sub family); other ops ignore clamp. */
  readonly clampU32?: boolean;
  readonly body: (s: readonly IntSrcExpr[], h: IntHelpers) => string;
}

const ops: [string, IntOp][] = [];
const def = (name: string, op: IntOp): void => void ops.push([name, op]);
const i1 = (name: string, f: (a: string) => string, o: Partial<IntOp> = {}) => def(name, { srcs: ['b32'], kind: 'i32', body: ([a]) => `r = ${f(a!.u)};`, ...o });
const i2 = (name: string, f: (a: string, b: string, h: IntHelpers) => string, o: Partial<IntOp> = {}) => def(name, { srcs: ['b32', 'b32'], kind: 'i32', body: ([a, b], h) => `r = ${f(a!.u, b!.u, h)};`, ...o });
const i3 = (name: string, f: (a: string, b: string, c: string) => string) => def(name, { srcs: ['b32', 'b32', 'b32'], kind: 'i32', body: ([a, b, c]) => `r = ${f(a!.u, b!.u, c!.u)};` });

// ---- moves and bit ops
i1('v_mov_b32', (a) => a);
i1('v_not_b32', (a) => `~${a}`);
i2('v_and_b32', (a, b) => `${a} & ${b}`);
i2('v_or_b32', (a, b) => `${a} | ${b}`);
i2('v_xor_b32', (a, b) => `${a} ^ ${b}`);
i2('v_xnor_b32', (a, b) => `~(${a} ^ ${b})`);
// ---- 32-bit integer arithmetic
i2('v_add_nc_u32', (a, b) => `${a} + ${b}`, { clampU32: true });
i2('v_sub_nc_u32', (a, b) => `${a} - ${b}`, { clampU32: true });
i2('v_subrev_nc_u32', (a, b) => `${b} - ${a}`, { clampU32: true });
i2('v_lshlrev_b32', (a, b) => `${b} << (${a} & 31)`);
i2('v_lshrrev_b32', (a, b) => `${b} >>> (${a} & 31)`);
i2('v_ashrrev_i32', (a, b) => `(${b} | 0) >> (${a} & 31)`);
i2('v_mul_lo_u32', (a, b) => `Math.imul(${a}, ${b})`);
i2('v_mul_hi_u32', (a, b, h) => `${h.mulhiU32}(${a}, ${b})`);
i2('v_mul_u32_u24', (a, b) => `Math.imul(${a} & 0xffffff, ${b} & 0xffffff)`);
i2('v_mul_i32_i24', (a, b) => `Math.imul((${a} << 8) >> 8, (${b} << 8) >> 8)`);
i2('v_min_u32', (a, b) => `Math.min(${a}, ${b})`);
i2('v_max_u32', (a, b) => `Math.max(${a}, ${b})`);
i2('v_min_i32', (a, b) => `Math.min(${a} | 0, ${b} | 0)`);
i2('v_max_i32', (a, b) => `Math.max(${a} | 0, ${b} | 0)`);
i2('v_bcnt_u32_b32', (a, b, h) => `${h.popcnt}(${a}) + ${b}`);
i3('v_add3_u32', (a, b, c) => `${a} + ${b} + ${c}`);
i3('v_or3_b32', (a, b, c) => `${a} | ${b} | ${c}`);
i3('v_xor3_b32', (a, b, c) => `${a} ^ ${b} ^ ${c}`);
i3('v_and_or_b32', (a, b, c) => `(${a} & ${b}) | ${c}`);
i3('v_lshl_add_u32', (a, b, c) => `(${a} << (${b} & 31)) + ${c}`);
i3('v_add_lshl_u32', (a, b, c) => `(${a} + ${b}) << (${c} & 31)`);
i3('v_lshl_or_b32', (a, b, c) => `(${a} << (${b} & 31)) | ${c}`);
i3('v_xad_u32', (a, b, c) => `(${a} ^ ${b}) + ${c}`);
i3('v_bfi_b32', (a, b, c) => `(${a} & ${b}) | (~${a} & ${c})`);
i3('v_mad_u32_u24', (a, b, c) => `Math.imul(${a} & 0xffffff, ${b} & 0xffffff) + ${c}`);
i3('v_mad_i32_i24', (a, b, c) => `Math.imul((${a} << 8) >> 8, (${b} << 8) >> 8) + ${c}`);
def('v_bfe_u32', { srcs: ['b32', 'b32', 'b32'], kind: 'i32', body: ([a, b, c]) => `{ const o = ${b!.u} & 31, d = ${c!.u} & 31; r = d === 0 ? 0 : (${a!.u} >>> o) & ((1 << d) - 1); }` });
def('v_bfe_i32', { srcs: ['b32', 'b32', 'b32'], kind: 'i32', body: ([a, b, c]) => `{ const o = ${b!.u} & 31, d = ${c!.u} & 31; r = d === 0 ? 0 : ((${a!.u} >>> o) << (32 - d)) >> (32 - d); }` });
def('v_alignbit_b32', { srcs: ['b32', 'b32', 'b32'], kind: 'i32', body: ([a, b, c]) => `{ const t = ${c!.u} & 31; r = t === 0 ? ${b!.u} : (${b!.u} >>> t) | (${a!.u} << (32 - t)); }` });
// ---- carry in / carry out
def('v_cndmask_b32', { srcs: ['b32', 'b32'], kind: 'i32', cin: true, body: ([a, b]) => `r = ci ? ${b!.u} : ${a!.u};` });
def('v_add_co_u32', { srcs: ['b32', 'b32'], kind: 'i32', cout: true, clampU32: true, body: ([a, b]) => `r = ${a!.u} + ${b!.u}; c = r > 0xffffffff;` });
def('v_sub_co_u32', { srcs: ['b32', 'b32'], kind: 'i32', cout: true, clampU32: true, body: ([a, b]) => `{ const p = ${a!.u}, q = ${b!.u}; r = p - q; c = q > p; }` });
def('v_subrev_co_u32', { srcs: ['b32', 'b32'], kind: 'i32', cout: true, clampU32: true, body: ([a, b]) => `{ const p = ${a!.u}, q = ${b!.u}; r = q - p; c = p > q; }` });
def('v_add_co_ci_u32', { srcs: ['b32', 'b32'], kind: 'i32', cin: true, cout: true, clampU32: true, body: ([a, b]) => `r = ${a!.u} + ${b!.u} + ci; c = r > 0xffffffff;` });
def('v_sub_co_ci_u32', { srcs: ['b32', 'b32'], kind: 'i32', cin: true, cout: true, clampU32: true, body: ([a, b]) => `{ const p = ${a!.u}, q = ${b!.u}; r = p - q - ci; c = q + ci > p; }` });
def('v_subrev_co_ci_u32', { srcs: ['b32', 'b32'], kind: 'i32', cin: true, cout: true, clampU32: true, body: ([a, b]) => `{ const p = ${a!.u}, q = ${b!.u}; r = q - p - ci; c = p + ci > q; }` });
// ---- 64-bit integer
def('v_lshlrev_b64', {
  srcs: ['b32', 'b64'], kind: 'i64',
  body: ([a, b]) => `{ const t = ${a!.u} & 63, lo = ${b!.u}, hi = ${b!.h};
    if (t === 0) { r = lo; rh = hi; } else if (t < 32) { r = lo << t; rh = (hi << t) | (lo >>> (32 - t)); } else { r = 0; rh = lo << (t - 32); } }`,
});
def('v_lshrrev_b64', {
  srcs: ['b32', 'b64'], kind: 'i64',
  body: ([a, b]) => `{ const t = ${a!.u} & 63, lo = ${b!.u}, hi = ${b!.h};
    if (t === 0) { r = lo; rh = hi; } else if (t < 32) { r = (lo >>> t) | (hi << (32 - t)); rh = hi >>> t; } else { r = hi >>> (t - 32); rh = 0; } }`,
});
def('v_ashrrev_i64', {
  srcs: ['b32', 'b64'], kind: 'i64',
  body: ([a, b]) => `{ const t = ${a!.u} & 63, lo = ${b!.u}, hi = ${b!.h};
    if (t === 0) { r = lo; rh = hi; } else if (t < 32) { r = (lo >>> t) | (hi << (32 - t)); rh = hi >> t; } else { r = hi >> (t - 32); rh = hi >> 31; } }`,
});
/** {carry, D.u64} = S0.u32 * S1.u32 + S2.u64 (65-bit). */
def('v_mad_u64_u32', {
  srcs: ['b32', 'b32', 'b64'], kind: 'i64', cout: true,
  body: ([a, b, c], h) => `{ const p = ${a!.u}, q = ${b!.u};
    const lo = (Math.imul(p, q) >>> 0) + ${c!.u};
    const hi = ${h.mulhiU32}(p, q) + ${c!.h} + (lo > 0xffffffff ? 1 : 0);
    r = lo; rh = hi; c = hi > 0xffffffff; }`,
});

/** Every integer op, in definition order. */
export const INT_OPS: ReadonlyMap<string, IntOp> = new Map(ops);
