/**
 * Fast SALU and branch handlers (ExecEnv.engine 'fast'): each instruction compiled at bind time
 * into one small function with its register numbers and literal as constants (no operand
 * closures, no SCC side channel). Plain operands only: SGPRs, VCC, M0, EXEC, NULL, inline
 * constants and literals as sources; TTMP/SCC/VCCZ/EXECZ sources and TTMP destinations stay with
 * the reference (salu.ts, flow.ts), which defines the results.
 */
import type { Instruction } from '../isa/types.js';
import type { ExecEnv } from './env.js';
import type { Bound } from './registry.js';
import type { Wave } from '../wave/wave.js';
import { mulhiU32 } from '../exec/salu.js';
import { compile, fastDefine } from './fast-registry.js';

interface SDef {
  /** 64-bit first source / second source / destination. */
  readonly a64?: boolean;
  readonly b64?: boolean;
  readonly d64?: boolean;
  /** Form: sop2 (ssrc0, ssrc1 -> sdst), sop1 (ssrc0 -> sdst), sopc (ssrc0, ssrc1 -> SCC). */
  readonly form: 'sop2' | 'sop1' | 'sopc';
  /** Assigns `r` (and `rh`), and `c` (the new SCC) when `scc`; reads `a`, `ah`, `b`, `bh`, `w.scc`. */
  readonly body: string;
  readonly scc: boolean;
}

const defs = new Map<string, SDef>();
const op2 = (name: string, body: string, scc = true) => void defs.set(name, { form: 'sop2', body, scc });
const op2x64 = (name: string, body: string, b32 = false, scc = true) => void defs.set(name, { form: 'sop2', a64: true, b64: !b32, d64: true, body, scc });
const nz = (x: string) => `((${x}) >>> 0) !== 0`;

// The reference formulas (salu.ts), written out per op.
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
op2('s_mul_hi_u32', 'r = mulhiU32(a, b);', false);
op2('s_cselect_b32', 'r = w.scc ? a : b;', false);
op2('s_bfe_u32', `{ const o = b & 31, wd = (b >>> 16) & 0x7f; r = wd === 0 ? 0 : wd >= 32 ? a >>> o : (a >>> o) & ((1 << wd) - 1) >>> 0; c = ${nz('r')}; }`);
op2x64('s_and_b64', `rh = ah & bh; r = a & b; c = ${nz('r')} || ${nz('rh')};`);
op2x64('s_or_b64', `rh = ah | bh; r = a | b; c = ${nz('r')} || ${nz('rh')};`);
op2x64('s_xor_b64', `rh = ah ^ bh; r = a ^ b; c = ${nz('r')} || ${nz('rh')};`);
op2x64('s_and_not1_b64', `rh = ah & ~bh; r = a & ~b; c = ${nz('r')} || ${nz('rh')};`);
op2x64('s_or_not1_b64', `rh = ah | ~bh; r = a | ~b; c = ${nz('r')} || ${nz('rh')};`);
op2x64('s_cselect_b64', 'rh = w.scc ? ah : bh; r = w.scc ? a : b;', false, false);
op2x64('s_lshl_b64', `{ const t = b & 63; if (t === 0) { r = a; rh = ah; } else if (t < 32) { r = a << t; rh = (ah << t) | (a >>> (32 - t)); } else { r = 0; rh = a << (t - 32); } c = ${nz('r')} || ${nz('rh')}; }`, true);
op2x64('s_lshr_b64', `{ const t = b & 63; if (t === 0) { r = a; rh = ah; } else if (t < 32) { r = (a >>> t) | (ah << (32 - t)); rh = ah >>> t; } else { r = ah >>> (t - 32); rh = 0; } c = ${nz('r')} || ${nz('rh')}; }`, true);
defs.set('s_mov_b32', { form: 'sop1', body: 'r = a;', scc: false });
defs.set('s_not_b32', { form: 'sop1', body: `r = ~a; c = ${nz('r')};`, scc: true });
defs.set('s_mov_b64', { form: 'sop1', a64: true, d64: true, body: 'r = a; rh = ah;', scc: false });
defs.set('s_not_b64', { form: 'sop1', a64: true, d64: true, body: `r = ~a; rh = ~ah; c = ${nz('r')} || ${nz('rh')};`, scc: true });
for (const [n, x] of [['eq', '==='], ['lg', '!=='], ['gt', '>'], ['ge', '>='], ['lt', '<'], ['le', '<=']] as const) {
  defs.set(`s_cmp_${n}_u32`, { form: 'sopc', body: `c = a ${x} b;`, scc: true });
  defs.set(`s_cmp_${n}_i32`, { form: 'sopc', body: n === 'eq' || n === 'lg' ? `c = a ${x} b;` : `c = (a | 0) ${x} (b | 0);`, scc: true });
}

/** A scalar source as an expression pair (low, high), or undefined when the reference must read it. */
function src(enc: number | undefined, wide: boolean, literal: number | undefined): [string, string] | undefined {
  if (enc === undefined) return undefined;
  if (enc === 255) return [String((literal ?? 0) >>> 0), '0'];
  // 239 (src_pops_exiting_wave_id) is volatile: the reference path reads it through the POPS hook.
  if (!(enc <= 107 || (enc >= 124 && enc <= 248 && enc !== 239))) return undefined;
  if (!wide) return [`s[${enc}]`, '0'];
  if (enc >= 128) return [`w.s64lo[${enc}]`, `w.s64hi[${enc}]`];
  if ((enc & 1) === 1) return undefined;
  if (enc === 124) return ['0', '0'];
  return [`s[${enc}]`, `s[${enc + 1}]`];
}

/** Destination stores as swrite32/swrite64 do them (NULL drops the value), or undefined. */
function dst(enc: number | undefined, wide: boolean): string | undefined {
  if (enc === undefined || enc > 127 || (enc >= 108 && enc <= 123)) return undefined;
  if (enc === 124) return '';
  if (!wide) return `s[${enc}] = r;`;
  if ((enc & 1) === 1) return undefined;
  return `s[${enc}] = r; s[${enc + 1}] = rh;`;
}

const PARAMS = ['mulhiU32'];

function build(name: string, lines: readonly string[], ref: Bound): Bound {
  const body = lines.join('\n');
  const f = compile(PARAMS, `return function ${name}(w) {\n${body}\n};`);
  const args = [mulhiU32];
  // The handler's statements, for a basic block to inline (block.ts); no fallback to `ref`.
  const run = f(...args) as (w: Wave) => void;
  return { cls: ref.cls, run, inline: { run, body, params: PARAMS, args } };
}

function bindSalu(d: SDef, inst: Instruction, ref: Bound): Bound | undefined {
  const f = inst.fields;
  const A = src(f.ssrc0, d.a64 === true, inst.literal);
  if (!A) return undefined;
  const B = d.form === 'sop1' ? (['0', '0'] as [string, string]) : src(f.ssrc1, d.b64 === true, inst.literal);
  if (!B) return undefined;
  const lines = ['const s = w.s;', `const a = ${A[0]}, ah = ${A[1]}, b = ${B[0]}, bh = ${B[1]};`, 'let r = 0, rh = 0, c = false;', d.body];
  if (d.form !== 'sopc') {
    const st = dst(f.sdst, d.d64 === true);
    if (st === undefined) return undefined;
    lines.push(st);
  }
  if (d.scc) lines.push('w.scc = c ? 1 : 0;');
  lines.push('void ah; void bh; void rh;');
  return build('fastSalu', lines, ref);
}

for (const [name, d] of defs) fastDefine(name, (inst, env, ref) => bindSalu(d, inst, ref));

/** s_<op>_saveexec_b32/b64: SDST = EXEC, EXEC = op(src, EXEC), SCC = EXEC != 0 (salu.ts). */
const SAVEEXEC: [string, (x: string, e: string) => string][] = [
  ['and', (x, e) => `${x} & ${e}`], ['or', (x, e) => `${x} | ${e}`], ['xor', (x, e) => `${x} ^ ${e}`], ['and_not0', (x, e) => `~${x} & ${e}`],
  ['or_not0', (x, e) => `~${x} | ${e}`], ['and_not1', (x, e) => `${x} & ~${e}`], ['or_not1', (x, e) => `${x} | ~${e}`],
];
for (const [n, expr] of SAVEEXEC) {
  for (const wide of [false, true]) {
    fastDefine(`s_${n}_saveexec_b${wide ? 64 : 32}`, (inst, _env, ref) => {
      const A = src(inst.fields.ssrc0, wide, inst.literal);
      const d = inst.fields.sdst;
      if (!A || d === undefined || d > 127 || (d >= 108 && d <= 123) || (wide && (d & 1) === 1)) return undefined;
      const save = d === 124 ? '' : wide ? `s[${d}] = el; s[${d + 1}] = eh;` : `s[${d}] = el;`;
      const op = (x: string, e: string) => `(${expr(x, e)}) >>> 0`;
      const lines = ['const s = w.s;', `const al = ${A[0]}, ah = ${A[1]};`, 'const el = s[126], eh = s[127];', save, `const rl = ${op('al', 'el')};`, 's[126] = rl;'];
      if (wide) lines.push(`const rh = ${op('ah', 'eh')};`, 's[127] = rh;', 'w.scc = rl !== 0 || rh !== 0 ? 1 : 0;');
      else lines.push('w.scc = rl !== 0 ? 1 : 0;', 'void ah; void eh;');
      return build('fastSaveexec', lines, ref);
    });
  }
}

/** Branches (flow.ts): PC of the next instruction + simm16 * 4 when taken. */
const BRANCH: [string, (ws: number) => string][] = [
  ['s_branch', () => 'true'],
  ['s_cbranch_scc0', () => 'w.scc === 0'],
  ['s_cbranch_scc1', () => 'w.scc === 1'],
  ['s_cbranch_vccz', (ws) => (ws === 32 ? 'w.s[106] === 0' : 'w.s[106] === 0 && w.s[107] === 0')],
  ['s_cbranch_vccnz', (ws) => (ws === 32 ? 'w.s[106] !== 0' : 'w.s[106] !== 0 || w.s[107] !== 0')],
  ['s_cbranch_execz', (ws) => (ws === 32 ? 'w.s[126] === 0' : 'w.s[126] === 0 && w.s[127] === 0')],
  ['s_cbranch_execnz', (ws) => (ws === 32 ? 'w.s[126] !== 0' : 'w.s[126] !== 0 || w.s[127] !== 0')],
];
for (const [name, cond] of BRANCH) {
  fastDefine(name, (inst: Instruction, env: ExecEnv, ref: Bound) => {
    const off = (((inst.fields.simm16 ?? 0) << 16) >> 16) * 4;
    return build('fastBranch', [`if (${cond(env.waveSize)}) w.pc += ${off};`], ref);
  });
}
