/**
 * Fast SALU and branch handlers (ExecEnv.engine 'fast'): each instruction compiled at bind time
 * into one small function with its register numbers and literal as constants (no operand
 * closures, no SCC side channel). Plain operands only: SGPRs, VCC, M0, EXEC, NULL, inline
 * constants and literals as sources; TTMP/SCC/VCCZ/EXECZ sources and TTMP destinations stay with
 * the reference (salu.ts, flow.ts). Every op's formula is its description in exec/salu-ops.ts,
 * which the reference compiles too; nothing here states an op's result.
 */
import type { Instruction } from '../isa/types.js';
import type { ExecEnv } from './env.js';
import type { Bound } from './registry.js';
import { mulhiU32 } from '../exec/salu.js';
import { BRANCH_OPS, SALU_OPS, SAVEEXEC_OPS, type SaluOp } from '../exec/salu-ops.js';
import { fastDefine, generated } from './fast-registry.js';
import { Names } from './code.js';

/**
 * A scalar source where the register block holds it (wave.ts: byte offsets of its low and high
 * dwords, -1: a high dword of 0) or a literal.
 */
export type SaluSrc = { readonly at: number; readonly hiAt: number } | { readonly lit: number };

/**
 * A scalar source as an expression pair (low, high) and where it is (for the wasm tier), or
 * undefined when the reference must read it.
 */
function src(enc: number | undefined, wide: boolean, literal: number | undefined): { readonly js: readonly [string, string]; readonly at: SaluSrc } | undefined {
  if (enc === undefined) return undefined;
  if (enc === 255) {
    const lit = (literal ?? 0) >>> 0;
    return { js: [String(lit), '0'], at: { lit } };
  }
  // 239 (src_pops_exiting_wave_id) is volatile: the reference path reads it through the POPS hook.
  if (!(enc <= 107 || (enc >= 124 && enc <= 248 && enc !== 239))) return undefined;
  if (!wide) return { js: [`s[${enc}]`, '0'], at: { at: enc * 4, hiAt: -1 } };
  if (enc >= 128) return { js: [`w.s64lo[${enc}]`, `w.s64hi[${enc}]`], at: { at: 1024 + enc * 4, hiAt: 2048 + enc * 4 } };
  if ((enc & 1) === 1) return undefined;
  if (enc === 124) return { js: ['0', '0'], at: { lit: 0 } };
  return { js: [`s[${enc}]`, `s[${enc + 1}]`], at: { at: enc * 4, hiAt: (enc + 1) * 4 } };
}

/** Destination stores as swrite32/swrite64 do them (NULL drops the value), or undefined. */
function dst(enc: number | undefined, wide: boolean): string | undefined {
  if (enc === undefined || enc > 127 || (enc >= 108 && enc <= 123)) return undefined;
  if (enc === 124) return '';
  if (!wide) return `s[${enc}] = r;`;
  if ((enc & 1) === 1) return undefined;
  return `s[${enc}] = r; s[${enc + 1}] = rh;`;
}

type Helper = 'mulhiU32';
const HELPERS: readonly Helper[] = ['mulhiU32'];
const HELPER_VALUES: Readonly<Record<Helper, unknown>> = { mulhiU32 };

/** The handler of `lines`; `names` recorded the helpers they use (their only free names: no hand-back). */
function build(name: string, lines: readonly string[], ref: Bound, names: Names<Helper> = new Names(), movesPc = false, salu?: SaluSpec): Bound {
  const params = names.pick(HELPERS);
  const g = generated(name, [lines.join('\n')], params, params.map((n) => HELPER_VALUES[n]), { ...(movesPc ? { movesPc } : {}), ...(salu !== undefined ? { salu } : {}) });
  return { cls: ref.cls, run: g.run, inline: g.inline };
}

/**
 * An SALU op's operands for the wasm tier (wasm/salu.ts), which runs the same description inside a
 * translated run: its sources, its destination SGPR (-1: none; NULL drops the value) and SCC's use.
 */
export interface SaluSpec {
  readonly body: string;
  readonly a: SaluSrc;
  readonly b: SaluSrc;
  readonly dst: number;
  readonly d64: boolean;
  readonly writesScc: boolean;
  /** s_*_saveexec: the SGPR(s) that receive source b (EXEC) before the destination is written; -1: none (NULL). */
  readonly save?: number;
}

function bindSalu(d: SaluOp, inst: Instruction, ref: Bound): Bound | undefined {
  const f = inst.fields;
  const A = src(f.ssrc0, d.a64 === true, inst.literal);
  if (!A) return undefined;
  const B = d.form === 'sop1' ? { js: ['0', '0'] as const, at: { lit: 0 } } : src(f.ssrc1, d.b64 === true, inst.literal);
  if (!B) return undefined;
  const names = new Names<Helper>();
  const body = d.body(names.helpers(HELPERS));
  const lines = ['const s = w.s;', `const a = ${A.js[0]}, ah = ${A.js[1]}, b = ${B.js[0]}, bh = ${B.js[1]};`, 'let r = 0, rh = 0, c = false;', body];
  if (d.form !== 'sopc') {
    const st = dst(f.sdst, d.d64 === true);
    if (st === undefined) return undefined;
    lines.push(st);
  }
  if (d.scc) lines.push('w.scc = c ? 1 : 0;');
  lines.push('void ah; void bh; void rh;');
  // The wasm tier's view of the op (wasm/salu.ts); one calling a helper stays in JavaScript.
  const spec: SaluSpec | undefined = names.pick(HELPERS).length > 0 ? undefined
    : { body, a: A.at, b: B.at, dst: d.form === 'sopc' || f.sdst === 124 ? -1 : f.sdst!, d64: d.d64 === true, writesScc: d.scc };
  return build('fastSalu', lines, ref, names, false, spec);
}

for (const [name, d] of SALU_OPS) fastDefine(name, (inst, _env, ref) => bindSalu(d, inst, ref));

/**
 * s_<op>_saveexec_b32/b64 (salu-ops.ts): SDST = EXEC, EXEC = op(src, EXEC), SCC = EXEC != 0; the
 * same statements over (a, b = EXEC) for the wasm tier (SaluSpec.save).
 */
for (const [n, expr] of SAVEEXEC_OPS) {
  for (const wide of [false, true]) {
    fastDefine(`s_${n}_saveexec_b${wide ? 64 : 32}`, (inst, _env, ref) => {
      const A = src(inst.fields.ssrc0, wide, inst.literal);
      const d = inst.fields.sdst;
      if (!A || d === undefined || d > 127 || (d >= 108 && d <= 123) || (wide && (d & 1) === 1)) return undefined;
      const body = wide ? `r = (${expr('a', 'b')}) >>> 0; rh = (${expr('ah', 'bh')}) >>> 0; c = r !== 0 || rh !== 0;` : `r = (${expr('a', 'b')}) >>> 0; c = r !== 0;`;
      const save = d === 124 ? '' : wide ? `s[${d}] = b; s[${d + 1}] = bh;` : `s[${d}] = b;`;
      const lines = ['const s = w.s;', `const a = ${A.js[0]}, ah = ${A.js[1]}, b = s[126], bh = ${wide ? 's[127]' : '0'};`, 'let r = 0, rh = 0, c = false;', body, save,
        wide ? 's[126] = r; s[127] = rh;' : 's[126] = r;', 'w.scc = c ? 1 : 0;', 'void ah; void bh; void rh;'];
      const spec: SaluSpec = { body, a: A.at, b: { at: 126 * 4, hiAt: wide ? 127 * 4 : -1 }, dst: 126, d64: wide, writesScc: true, save: d === 124 ? -1 : d };
      return build('fastSaveexec', lines, ref, undefined, false, spec);
    });
  }
}

/** Branches (salu-ops.ts conditions, flow.ts): PC of the next instruction + simm16 * 4 when taken. */
for (const [name, cond] of BRANCH_OPS) {
  fastDefine(name, (inst: Instruction, env: ExecEnv, ref: Bound) => {
    const off = (((inst.fields.simm16 ?? 0) << 16) >> 16) * 4;
    return build('fastBranch', [`if (${cond(env.waveSize)}) w.pc += ${off};`], ref, undefined, true);
  });
}
