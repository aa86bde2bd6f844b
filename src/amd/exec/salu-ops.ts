/**
 * Scalar ops, one description each, read by both execution tiers: the reference interpreter
 * (salu.ts compiles each into the function its SOP1/SOP2/SOPC binder calls, with the register-file
 * rules of swrite32/swrite64 around it; flow.ts the branch conditions) and the fast tier
 * (engine/fast-salu.ts inlines the same statements into its specialised handlers). A leaf module:
 * it imports nothing.
 *
 * `body(h)` is the JavaScript statement text of one op: it reads `a`, `ah` (the first source's low
 * and high dwords, uint32; `ah` 0 for a 32-bit source), `b`, `bh` (the second source's; 0 for SOP1
 * and 32-bit sources) and `w.scc`, and assigns `r` (the result or its low dword; any integer,
 * stored modulo 2^32), `rh` (a 64-bit result's high dword) and `c` (the new SCC, ops with `scc`;
 * SOPC compares assign only `c`). `h.mulhiU32` names the helper of that name (salu.ts).
 */

export interface SaluHelpers {
  readonly mulhiU32: string;
}

export interface SaluOp {
  /** sop2 (ssrc0, ssrc1 -> sdst), sop1 (ssrc0 -> sdst), sopc (ssrc0, ssrc1 -> SCC). */
  readonly form: 'sop2' | 'sop1' | 'sopc';
  /** 64-bit first source / second source / destination. */
  readonly a64?: boolean;
  readonly b64?: boolean;
  readonly d64?: boolean;
  /** The op writes SCC (`c`); SOPC compares always do. */
  readonly scc: boolean;
  readonly body: (h: SaluHelpers) => string;
}

const ops: [string, SaluOp][] = [];
const op2 = (name: string, body: string | ((h: SaluHelpers) => string), scc = true) =>
  void ops.push([name, { form: 'sop2', body: typeof body === 'string' ? () => body : body, scc }]);
const op2x64 = (name: string, body: string, b32 = false, scc = true) => void ops.push([name, { form: 'sop2', a64: true, b64: !b32, d64: true, body: () => body, scc }]);
const op1 = (name: string, body: string, scc: boolean, wide = false) => void ops.push([name, { form: 'sop1', ...(wide ? { a64: true, d64: true } : {}), body: () => body, scc }]);
const nz = (x: string) => `((${x}) >>> 0) !== 0`;
const nz64 = `${nz('r')} || ${nz('rh')}`;

// ---- SOP2 32-bit
op2('s_add_u32', 'r = a + b; c = r > 0xffffffff;');
op2('s_sub_u32', 'c = b > a; r = a - b;');
op2('s_addc_u32', 'r = a + b + w.scc; c = r > 0xffffffff;');
op2('s_subb_u32', 'c = b + w.scc > a; r = a - b - w.scc;');
op2('s_add_i32', 'r = (a | 0) + (b | 0); c = r > 0x7fffffff || r < -0x80000000;');
op2('s_sub_i32', 'r = (a | 0) - (b | 0); c = r > 0x7fffffff || r < -0x80000000;');
op2('s_min_i32', 'c = (a | 0) < (b | 0); r = c ? a : b;');
op2('s_min_u32', 'c = a < b; r = c ? a : b;');
op2('s_max_i32', 'c = (a | 0) > (b | 0); r = c ? a : b;');
op2('s_max_u32', 'c = a > b; r = c ? a : b;');
op2('s_and_b32', `r = a & b; c = ${nz('r')};`);
op2('s_or_b32', `r = a | b; c = ${nz('r')};`);
op2('s_xor_b32', `r = a ^ b; c = ${nz('r')};`);
op2('s_nand_b32', `r = ~(a & b); c = ${nz('r')};`);
op2('s_nor_b32', `r = ~(a | b); c = ${nz('r')};`);
op2('s_xnor_b32', `r = ~(a ^ b); c = ${nz('r')};`);
op2('s_and_not1_b32', `r = a & ~b; c = ${nz('r')};`);
op2('s_or_not1_b32', `r = a | ~b; c = ${nz('r')};`);
op2('s_lshl_b32', `r = a << (b & 31); c = ${nz('r')};`);
op2('s_lshr_b32', `r = a >>> (b & 31); c = ${nz('r')};`);
op2('s_ashr_i32', `r = a >> (b & 31); c = ${nz('r')};`);
for (const n of [1, 2, 3, 4]) op2(`s_lshl${n}_add_u32`, `r = (a << ${n} >>> 0) + b; c = r > 0xffffffff || a >>> ${32 - n} !== 0;`);
op2('s_mul_i32', 'r = Math.imul(a, b);', false);
op2('s_mul_hi_u32', (h) => `r = ${h.mulhiU32}(a, b);`, false);
op2('s_cselect_b32', 'r = w.scc ? a : b;', false);
op2('s_bfe_u32', `{ const o = b & 31, wd = (b >>> 16) & 0x7f; r = wd === 0 ? 0 : wd >= 32 ? a >>> o : (a >>> o) & ((1 << wd) - 1) >>> 0; c = ${nz('r')}; }`);
// ---- SOP2 64-bit (shift counts: a 32-bit second source)
op2x64('s_and_b64', `rh = ah & bh; r = a & b; c = ${nz64};`);
op2x64('s_or_b64', `rh = ah | bh; r = a | b; c = ${nz64};`);
op2x64('s_xor_b64', `rh = ah ^ bh; r = a ^ b; c = ${nz64};`);
op2x64('s_nand_b64', `rh = ~(ah & bh); r = ~(a & b); c = ${nz64};`);
op2x64('s_nor_b64', `rh = ~(ah | bh); r = ~(a | b); c = ${nz64};`);
op2x64('s_xnor_b64', `rh = ~(ah ^ bh); r = ~(a ^ b); c = ${nz64};`);
op2x64('s_and_not1_b64', `rh = ah & ~bh; r = a & ~b; c = ${nz64};`);
op2x64('s_or_not1_b64', `rh = ah | ~bh; r = a | ~b; c = ${nz64};`);
op2x64('s_cselect_b64', 'rh = w.scc ? ah : bh; r = w.scc ? a : b;', false, false);
op2x64('s_lshl_b64', `{ const t = b & 63; if (t === 0) { r = a; rh = ah; } else if (t < 32) { r = a << t; rh = (ah << t) | (a >>> (32 - t)); } else { r = 0; rh = a << (t - 32); } c = ${nz64}; }`, true);
op2x64('s_lshr_b64', `{ const t = b & 63; if (t === 0) { r = a; rh = ah; } else if (t < 32) { r = (a >>> t) | (ah << (32 - t)); rh = ah >>> t; } else { r = ah >>> (t - 32); rh = 0; } c = ${nz64}; }`, true);
op2x64('s_ashr_i64', `{ const t = b & 63; if (t === 0) { r = a; rh = ah; } else if (t < 32) { r = (a >>> t) | (ah << (32 - t)); rh = ah >> t; } else { r = ah >> (t - 32); rh = ah >> 31; } c = ${nz64}; }`, true);
// ---- SOP1
op1('s_mov_b32', 'r = a;', false);
op1('s_not_b32', `r = ~a; c = ${nz('r')};`, true);
op1('s_mov_b64', 'r = a; rh = ah;', false, true);
op1('s_not_b64', `r = ~a; rh = ~ah; c = ${nz64};`, true, true);
// ---- SOPC (32-bit)
for (const [n, x] of [['eq', '==='], ['lg', '!=='], ['gt', '>'], ['ge', '>='], ['lt', '<'], ['le', '<=']] as const) {
  ops.push([`s_cmp_${n}_u32`, { form: 'sopc', body: () => `c = a ${x} b;`, scc: true }]);
  ops.push([`s_cmp_${n}_i32`, { form: 'sopc', body: () => (n === 'eq' || n === 'lg' ? `c = a ${x} b;` : `c = (a | 0) ${x} (b | 0);`), scc: true }]);
}
ops.push(['s_bitcmp0_b32', { form: 'sopc', body: () => 'c = ((a >>> (b & 31)) & 1) === 0;', scc: true }]);
ops.push(['s_bitcmp1_b32', { form: 'sopc', body: () => 'c = ((a >>> (b & 31)) & 1) === 1;', scc: true }]);

/** Every described SOP1/SOP2/SOPC op, in definition order. */
export const SALU_OPS: ReadonlyMap<string, SaluOp> = new Map(ops);

/**
 * s_<op>_saveexec_b32/b64: SDST = EXEC, then EXEC = op(S0, EXEC) per dword, SCC = EXEC != 0.
 * `expr(x, e)` is the expression of one dword (any integer, stored modulo 2^32).
 */
export const SAVEEXEC_OPS: ReadonlyMap<string, (x: string, e: string) => string> = new Map<string, (x: string, e: string) => string>([
  ['and', (x, e) => `${x} & ${e}`], ['or', (x, e) => `${x} | ${e}`], ['xor', (x, e) => `${x} ^ ${e}`],
  ['nand', (x, e) => `~(${x} & ${e})`], ['nor', (x, e) => `~(${x} | ${e})`], ['xnor', (x, e) => `~(${x} ^ ${e})`],
  ['and_not0', (x, e) => `~${x} & ${e}`], ['or_not0', (x, e) => `~${x} | ${e}`], ['and_not1', (x, e) => `${x} & ~${e}`], ['or_not1', (x, e) => `${x} | ~${e}`],
]);

/**
 * Branches taken on a wave-state condition: `cond(ws)` is the JavaScript expression (of the wave
 * `w`, in a wave of `ws` lanes) that is true when the branch is taken; a taken branch goes to the
 * next instruction's PC + simm16 * 4 (flow.ts).
 */
export const BRANCH_OPS: ReadonlyMap<string, (ws: number) => string> = new Map<string, (ws: number) => string>([
  ['s_branch', () => 'true'],
  ['s_cbranch_scc0', () => 'w.scc === 0'],
  ['s_cbranch_scc1', () => 'w.scc === 1'],
  ['s_cbranch_vccz', (ws) => (ws === 32 ? 'w.s[106] === 0' : 'w.s[106] === 0 && w.s[107] === 0')],
  ['s_cbranch_vccnz', (ws) => (ws === 32 ? 'w.s[106] !== 0' : 'w.s[106] !== 0 || w.s[107] !== 0')],
  ['s_cbranch_execz', (ws) => (ws === 32 ? 'w.s[126] === 0' : 'w.s[126] === 0 && w.s[127] === 0')],
  ['s_cbranch_execnz', (ws) => (ws === 32 ? 'w.s[126] !== 0' : 'w.s[126] !== 0 || w.s[127] !== 0')],
]);
