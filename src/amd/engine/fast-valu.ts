/**
 * Fast VALU handlers (ExecEnv.engine 'fast'): each instruction is compiled, at bind time, into a
 * JavaScript function with its operand offsets as constants (`new Function`, cached by source
 * text), one monomorphic loop over the lanes of the VGPR file, and an EXEC-all-ones variant
 * without the per-lane EXEC test. Only the plain operand forms are taken: VGPRs in range, SGPRs,
 * inline constants and literals as sources; no DPP, abs/neg, op_sel, clamp or omod. Everything
 * else binds to the reference interpreter (valu.ts), which stays the definition.
 *
 * Every op's formula is its description in exec/ (valu-int.ts, valu-f32.ts, valu-cmp-ops.ts),
 * which the reference interpreter compiles too: nothing here states an op's result.
 *
 * Float ops (f32 add/sub/mul/fma/fmac/fmaak/fmamk/min/max, conversions) run only under MODE
 * round-to-nearest-even with f32 denormals kept (the kernels' default): otherwise the reference handler runs. The
 * result is formed exactly as the reference forms it (an exact double plus the two-sum remainder,
 * rounded once: Math.fround, or roundF32 on an f32 midpoint), and a NaN anywhere sends the whole
 * instruction back to the reference handler as if nothing was written (lanes already stored are
 * rewritten alike by the reference, or put back when the destination is a source), so NaN
 * payloads and the default NaN come from the one definition.
 */
import type { Instruction } from '../isa/types.js';
import type { VopdInfo } from '../isa/gfx11/vopd.js';
import type { ExecEnv } from './env.js';
import type { Bound } from './registry.js';
import type { Wave } from '../wave/wave.js';
import { valuOperands } from '../exec/valu-core.js';
import { roundF32 } from '../../core/float.js';
import { mulhiU32, popcnt } from '../exec/salu.js';
import { INT_OPS } from '../exec/valu-int.js';
import { CMP_OPS } from '../exec/valu-cmp-ops.js';
import { F32_OPS, nearestF32Store } from '../exec/valu-f32.js';
import { fastDefine, generated } from './fast-registry.js';
import { Names, handBackIf, handsBack, stmts, type Code } from './code.js';

type SrcType = 'b32' | 'f32' | 'b64';
type Kind = 'i32' | 'i64' | 'f32' | 'cmp';

/** A lane body's view of one source: its low dword, its f32 value, its high dword (64-bit). */
export interface Ex {
  readonly u: string;
  readonly f: string;
  readonly h: string;
}

/**
 * An op: `body` assigns the lane's result. 'i32': `r` (and `c`, the carry-out bit); 'i64': `r`,
 * `rh` (and `c`); 'f32': the exact double `x` and its remainder `e` (an 'ordered' op's lanes with
 * a NaN source hand the instruction back first); 'cmp': the boolean `c`.
 * `ci` is the lane's carry-in bit when `cin` is set.
 */
interface Def {
  readonly srcs: readonly SrcType[];
  readonly kind: Kind;
  readonly cin?: boolean;
  readonly cout?: boolean;
  /** The destination is also the last (f32) source (v_fmac_f32). */
  readonly accum?: boolean;
  /** The literal is a source: 'mk' D = S0 * K + S1, 'ak' D = S0 * S1 + K. */
  readonly remap?: 'mk' | 'ak';
  /** Defined for ordered sources only (valu-f32.ts F32Op.ordered): a NaN source hands back. */
  readonly ordered?: boolean;
  /** MODE bits the op reads: compares only the f32 input denormal flush. */
  readonly fcmp?: boolean;
  /** An integer result from f32 sources: the f32 MODE check of 'f32' ops (input flush). */
  readonly fcvt?: boolean;
  /** The lane statements; helpers (mulhiU32, popcnt...) are named through `nm`, which records them. */
  readonly body: (s: readonly Ex[], nm: Names<Helper>) => string;
}

/** The free names a generated VALU handler may use besides `ref` (bound to HELPER_VALUES). */
type Helper = 'roundF32' | 'mulhiU32' | 'popcnt' | 'CV' | 'CF' | 'OU0' | 'OF0' | 'OU1' | 'OF1' | 'OW0_32' | 'OW0_64' | 'OW1_32' | 'OW1_64';
const INT_HELPERS = ['mulhiU32', 'popcnt'] as const;

const defs = new Map<string, Def>();
const def = (name: string, d: Def): void => void defs.set(name, d);

/**
 * A VALU op's lane description as this tier binds it, for the wasm tier (wasm/valu.ts), which
 * translates the same statements: `text(s)` is the lane's statement text over the source
 * expressions `s`, helpers called by their own names (mulhiU32, popcnt).
 */
export type ValuLane = Omit<Def, 'body'> & { readonly text: (s: readonly Ex[]) => string };
const lanes = new Map<string, ValuLane>();
export function valuLane(name: string): ValuLane | undefined {
  let x = lanes.get(name);
  if (x === undefined) {
    const d = defs.get(name);
    if (d === undefined) return undefined;
    const { body, ...rest } = d;
    lanes.set(name, (x = { ...rest, text: (s) => body(s, new Names<Helper>()) }));
  }
  return x;
}

// ---- integer ops: the one description both tiers read (exec/valu-int.ts); the reference adds
// VOP3 clamp, which the fast forms never take.
for (const [name, op] of INT_OPS) def(name, { srcs: op.srcs, kind: op.kind, ...(op.cin ? { cin: true } : {}), ...(op.cout ? { cout: true } : {}), body: (s, nm) => op.body(s, nm.helpers(INT_HELPERS)) });

// ---- f32 arithmetic and conversions: the one description both tiers read (exec/valu-f32.ts); an
// integer result from f32 sources keeps the f32 MODE check (input flush).
for (const [name, op] of F32_OPS) {
  def(name, { srcs: op.srcs, kind: op.kind, ...(op.kind === 'i32' ? { fcvt: true } : {}), ...(op.accum ? { accum: true } : {}), ...(op.remap ? { remap: op.remap } : {}), ...(op.ordered ? { ordered: true } : {}), body: (s) => op.body(s) });
}

// ---- compares: the one description both tiers read (exec/valu-cmp-ops.ts), for the source types
// the fast forms bind (32/64-bit integers, f32); f32 compares read MODE's input denormal flush.
const relTest = (rel: number, o: string) => (rel === 0 ? 'false' : rel === 15 ? 'true' : `((${o}) & ${rel}) !== 0`);
for (const x of ['v_cmp_', 'v_cmpx_']) {
  for (const [name, { type, rel }] of CMP_OPS) {
    const [s0, s1] = type.srcs;
    if ((s0 !== 'b32' && s0 !== 'b64' && s0 !== 'f32') || s1 !== s0) continue;
    // An integer 't' accepts every outcome an integer compare has (1, 2, 4).
    const r = !type.float && rel === 7 ? 15 : rel;
    def(name.replace(/^v_cmp_/, x), { srcs: [s0, s1], kind: 'cmp', ...(type.float ? { fcmp: true } : {}), body: (ex) => `let o = 0; ${type.outcome(ex)} c = ${relTest(r, 'o')};` });
  }
}

/** A bound source: a VGPR row offset, or a uniform value read once per execution. */
type Src = { readonly vgpr: true; readonly base: number } | { readonly vgpr: false; readonly lo: string; readonly hi: string; readonly sgprs?: readonly number[] };

// 239 (src_pops_exiting_wave_id) is volatile: the reference path reads it through the POPS hook.
const SGPR_OK = (enc: number) => enc <= 107 || (enc >= 124 && enc <= 248 && enc !== 239);

/** Bind a source encoding (9-bit) of `type`; undefined for forms the fast path leaves alone. */
function bindSrc(enc: number, type: SrcType, literal: number | undefined, env: ExecEnv): Src | undefined {
  const wide = type === 'b64';
  if (enc >= 256) {
    const r = enc - 256;
    if (r + (wide ? 1 : 0) >= env.vgprs) return undefined;
    return { vgpr: true, base: r * env.waveSize };
  }
  if (enc === 255) return { vgpr: false, lo: String((literal ?? 0) >>> 0), hi: '0' };
  if (!SGPR_OK(enc)) return undefined;
  if (!wide) return { vgpr: false, lo: `s[${enc}]`, hi: '0', sgprs: [enc] };
  if (enc >= 128) return { vgpr: false, lo: `w.s64lo[${enc}]`, hi: `w.s64hi[${enc}]` };
  if ((enc & 1) === 1 || enc === 106 + 1) return undefined;
  if (enc === 124) return { vgpr: false, lo: '0', hi: '0' };
  if (enc === 124 + 1) return undefined;
  return { vgpr: false, lo: `s[${enc}]`, hi: `s[${enc + 1}]`, sgprs: [enc, enc + 1] };
}

/** Source expressions; uniform sources become locals `u<k>`/`uh<k>`/`g<k>` read in the preamble. */
function exprs(srcs: readonly Src[], types: readonly SrcType[], ws: number, tag: string, pre: (string | Code)[], nm: Names<Helper>): Ex[] {
  return srcs.map((s, k) => {
    if (s.vgpr) return { u: `v[${s.base} + l]`, f: `vf[${s.base} + l]`, h: `v[${s.base + ws} + l]` };
    const u = `u${tag}${k}`;
    pre.push(`const ${u} = ${s.lo};`);
    if (types[k] === 'b64') pre.push(`const uh${tag}${k} = ${s.hi};`);
    if (types[k] === 'f32') pre.push(`${nm.name('CV')}[0] = ${u}; const g${tag}${k} = ${nm.name('CF')}[0];`);
    return { u, f: `g${tag}${k}`, h: `uh${tag}${k}` };
  });
}

/** The lane loop(s) over every lane (`masked` false: EXEC all ones) or over EXEC's lanes; `half(lo)` is the body. */
function laneLoops(ws: number, half: (lo: boolean) => string, masked: boolean): string {
  const h = (lo: boolean) =>
    `for (let l = ${lo ? 0 : 32}; l < ${lo ? 32 : 64}; l++) {${masked ? ` if (((${lo ? 'el' : 'eh'} >>> (l & 31)) & 1) === 0) continue;` : ''}\n${half(lo)}\n}`;
  if (ws === 32) return h(true);
  // Wave64 without a carry (the halves' bodies are the same text): one loop over the 64 lanes.
  const body = half(true);
  if (body === half(false)) {
    return masked ? `for (let l = 0; l < 64; l++) { if ((((l < 32 ? el : eh) >>> (l & 31)) & 1) === 0) continue;\n${body}\n}` : `for (let l = 0; l < 64; l++) {\n${body}\n}`;
  }
  return `${h(true)}\n${h(false)}`;
}
const maskedLoops = (ws: number, half: (lo: boolean) => string): string => laneLoops(ws, half, true);

/** The lane loops: EXEC all ones without a test, else with one; `half(lo)` is the body. */
function loops(ws: number, half: (lo: boolean) => string): string {
  return `if (full) {\n${laneLoops(ws, half, false)}\n} else {\n${laneLoops(ws, half, true)}\n}`;
}

/** Lane body of one op: computes the result and stores it (or its carry/compare bit). */
function laneBody(d: Def, ex: readonly Ex[], store: { D: number; ws: number; row: 0 | 1 | -1; keep?: boolean }, lo: boolean, nm: Names<Helper>, co = 'co', ci_ = 'ci'): string {
  const CO = lo ? `${co}_lo` : `${co}_hi`;
  const ci = d.cin ? `const ci = (${lo ? `${ci_}_lo` : `${ci_}_hi`} >>> (l & 31)) & 1; ` : '';
  const setC = `if (c) ${CO} |= 1 << (l & 31);`;
  const { D, ws, row } = store;
  switch (d.kind) {
    case 'i32': {
      const put = row < 0 ? `v[${D} + l] = r;` : `${nm.name(row === 0 ? 'OU0' : 'OU1')}[l] = r;`;
      return `{ ${ci}let r = 0, c = false; ${d.body(ex, nm)} ${put}${d.cout ? ' ' + setC : ''} }`;
    }
    case 'i64':
      return `{ ${ci}let r = 0, rh = 0, c = false; ${d.body(ex, nm)} v[${D} + l] = r; v[${D + ws} + l] = rh;${d.cout ? ' ' + setC : ''} }`;
    case 'f32': {
      // As the reference rounds (roundF32): Math.fround unless x is an f32 midpoint
      // (valu-f32.ts nearestF32Store); a NaN stops the loop and the reference redoes the
      // instruction. An ordered op (min/max) leaves a lane with a NaN source to the reference's NaN
      // rule; its x is a source's value (exact, not NaN): stored as is.
      const nanSrc = ex.slice(0, d.srcs.length).map((x) => `${x.f} !== ${x.f}`).join(' || ');
      if (row < 0) {
        // Straight to the destination row: the reference redo rewrites every active lane with the
        // same bits, from the same sources unless the destination is one of them (`keep`): then
        // each lane's old dword is kept and put back for the lanes before the NaN.
        const on = ws === 64 ? '(j < 32 ? el : eh)' : 'el';
        const keep = store.keep === true ? nm.name('OU0') : null;
        const save = keep !== null ? `${keep}[l] = v[${D} + l]; ` : '';
        const stop = `{ ${keep !== null ? `for (let j = 0; j < l; j++) if (full || ((${on} >>> (j & 31)) & 1) !== 0) v[${D} + j] = ${keep}[j]; ` : ''}nan = 1; break; }`;
        if (d.ordered) return `{ if (${nanSrc}) ${stop} let x = 0; ${d.body(ex, nm)} ${save}vf[${D} + l] = x; }`;
        return `{ let x = 0, e = 0; ${d.body(ex, nm)} if (x !== x) ${stop} ${save}${nearestF32Store('x', 'e', `vf[${D} + l]`, `v[${D} + l]`, nm.name('roundF32'))} }`;
      }
      // A scratch row (VOPD: both halves read every source before either writes).
      const OF = nm.name(row === 0 ? 'OF0' : 'OF1');
      const OU = nm.name(row === 0 ? 'OU0' : 'OU1');
      if (d.ordered) return `{ if (${nanSrc}) { nan = 1; break; } let x = 0; ${d.body(ex, nm)} ${OF}[l] = x; }`;
      return `{ let x = 0, e = 0; ${d.body(ex, nm)} if (x !== x) { nan = 1; break; } ${nearestF32Store('x', 'e', `${OF}[l]`, `${OU}[l]`, nm.name('roundF32'))} }`;
    }
    case 'cmp':
      return `{ let c = false; ${d.body(ex, nm)} ${setC} }`;
  }
}

/** Copy scratch rows to their destinations: one typed-array copy per row when EXEC is all ones. */
function writeBack(ws: number, rows: readonly (readonly [number, 0 | 1])[], nm: Names<Helper>): string {
  const set = rows.map(([D, k]) => `v.set(${nm.name(`OW${k}_${ws === 64 ? 64 : 32}`)}, ${D});`).join(' ');
  const copy = rows.map(([D, k]) => `v[${D} + l] = ${nm.name(k === 0 ? 'OU0' : 'OU1')}[l];`).join(' ');
  return `if (full) { ${set} } else {\n${maskedLoops(ws, () => copy)}\n}`;
}

const HELPERS: readonly Helper[] = ['roundF32', 'mulhiU32', 'popcnt', 'CV', 'CF', 'OU0', 'OF0', 'OU1', 'OF1', 'OW0_32', 'OW0_64', 'OW1_32', 'OW1_64'];
const CV = new Uint32Array(1);
const CF = new Float32Array(CV.buffer);
const OU0 = new Uint32Array(64);
const OF0 = new Float32Array(OU0.buffer);
const OU1 = new Uint32Array(64);
const OF1 = new Float32Array(OU1.buffer);
const OW0_32 = OU0.subarray(0, 32);
const OW0_64 = OU0.subarray(0, 64);
const OW1_32 = OU1.subarray(0, 32);
const OW1_64 = OU1.subarray(0, 64);

const HELPER_VALUES: Readonly<Record<Helper, unknown>> = { roundF32, mulhiU32, popcnt, CV, CF, OU0, OF0, OU1, OF1, OW0_32, OW0_64, OW1_32, OW1_64 };

/** The value a fused run's helper parameter `name` is bound to (FusedRun params), undefined for another name (the block cache). */
export function fusedHelper(name: string): unknown {
  return (HELPERS as readonly string[]).includes(name) ? HELPER_VALUES[name as Helper] : undefined;
}

/** The handler of `code`: its free names are `ref` when it hands back, and the helpers `nm` recorded. */
function build(name: string, code: Code, ref: Bound, nm: Names<Helper>, lane?: LaneOp): Bound {
  const helpers = nm.pick(HELPERS);
  const params = [...(handsBack(code) ? ['ref'] : []), ...helpers];
  const args = [...(handsBack(code) ? [ref.run] : []), ...helpers.map((n) => HELPER_VALUES[n])];
  if (lane !== undefined) laneOps.add(lane);
  // The handler's code, for a basic block to inline (block.ts).
  const g = generated(name, code, params, args, lane !== undefined ? { lane } : {});
  return { cls: ref.cls, run: g.run, inline: g.inline };
}

function head(ws: number, float: boolean, fcmp: boolean): (string | Code)[] {
  const pre: (string | Code)[] = ['const s = w.s, v = w.v, vf = w.vf;'];
  // MODE: f32 round-to-nearest-even (bits 1:0 = 0), f32 denormals neither flushed in nor out (bits 5:4 = 3).
  if (float) pre.push(MODE_F32);
  else if (fcmp) pre.push(handBackIf('(w.hw[1] & 0x10) === 0'));
  pre.push('const el = s[126];');
  pre.push(ws === 64 ? 'const eh = s[127]; const full = el === 4294967295 && eh === 4294967295;' : 'const eh = 0; const full = el === 4294967295;');
  pre.push('let co_lo = 0, co_hi = 0, nan = 0;');
  return pre;
}

const laneCount = (ws: number, times: number, nm: Names<Helper>) => {
  const p = nm.name('popcnt');
  return `w.laneOps += ${times === 1 ? '' : `${times} * `}(full ? ${ws} : ${p}(el)${ws === 64 ? ` + ${p}(eh)` : ''});`;
};
/** MODE: f32 round-to-nearest-even (bits 1:0 = 0), f32 denormals neither flushed in nor out (bits 5:4 = 3); else hand back. */
const MODE_F32 = handBackIf('(w.hw[1] & 0x33) !== 0x30');
/** A NaN result stopped the lane loop (`nan`): hand back before anything was written. */
const NAN_BACK = handBackIf('nan !== 0');

/** Write a lane mask (carry-out, compare) to scalar encoding m as swrite32/swrite64 would. */
function maskWrite(m: number, ws: number, co = 'co'): string | undefined {
  if (m === 124) return '';
  if (m >= 108 && m <= 123) return undefined; // TTMPs: privilege rules stay with the reference
  if (m > 127 || m < 0) return undefined;
  if (ws === 32) return `s[${m}] = ${co}_lo >>> 0;`;
  if ((m & 1) === 1) return undefined;
  return `s[${m}] = ${co}_lo >>> 0; s[${m + 1}] = ${co}_hi >>> 0;`;
}

function plain(inst: Instruction): boolean {
  return inst.variant !== 'dpp16' && inst.variant !== 'dpp8' && inst.variant !== 'sdwa' && !/_(dpp|sdwa)$/.test(inst.mnemonic);
}

function bindVop(d: Def, inst: Instruction, env: ExecEnv, ref: Bound): Bound | undefined {
  const enc = inst.encoding;
  if (enc !== 'VOP1' && enc !== 'VOP2' && enc !== 'VOPC' && enc !== 'VOP3' && enc !== 'VOP3SD') return undefined;
  if (!plain(inst)) return undefined;
  const ops = valuOperands(inst);
  if (ops.dpp || ops.abs !== 0 || ops.neg !== 0 || ops.opsel !== 0 || ops.clamp || ops.omod !== 0) return undefined;
  const ws = env.waveSize;
  const types = [...d.srcs];
  let encs = d.srcs.map((_, k) => ops.src[k]!);
  if (d.remap === 'mk') encs = [ops.src[0]!, 255, ops.src[1]!];
  else if (d.remap === 'ak') encs = [ops.src[0]!, ops.src[1]!, 255];
  if (d.accum) {
    types.push('f32');
    encs.push(256 + ops.vdst);
  }
  if (encs.some((e) => e < 0)) return undefined;
  const srcs: Src[] = [];
  for (let k = 0; k < encs.length; k++) {
    const s = bindSrc(encs[k]!, types[k]!, ops.literal, env);
    if (!s) return undefined;
    srcs.push(s);
  }
  // 'f32' lanes stop at a NaN result, putting back what they overwrote of their sources.
  const float = d.kind === 'f32';
  const nm = new Names<Helper>();
  const pre = head(ws, float || d.fcvt === true, d.fcmp === true);
  const ex = exprs(srcs, types, ws, '', pre, nm);
  let D = 0;
  if (d.kind !== 'cmp') {
    const dw = d.kind === 'i64' ? 2 : 1;
    if (ops.vdst < 0 || ops.vdst + dw > env.vgprs) return undefined;
    D = ops.vdst * ws;
  }
  let cin: number | null = null;
  if (d.cin) {
    const c = enc === 'VOP2' ? 106 : ops.src[2]!;
    if (!(c <= 107 || c === 124 || c === 126 || c === 127) || (ws === 64 && (c & 1) === 1)) return undefined;
    cin = c;
    if (c === 124) pre.push('const ci_lo = 0, ci_hi = 0;');
    else pre.push(`const ci_lo = s[${c}], ci_hi = ${ws === 64 ? `s[${c + 1}]` : '0'};`);
  }
  const post: string[] = [];
  let cout: number | null = null;
  let cmpx = false;
  if (d.kind === 'cmp') {
    cmpx = /^v_cmpx_/.test(inst.mnemonic);
    const m = cmpx ? 126 : enc === 'VOPC' ? 106 : ops.vdst;
    const wr = cmpx ? (ws === 64 ? 's[126] = co_lo >>> 0; s[127] = co_hi >>> 0;' : 's[126] = co_lo >>> 0;') : maskWrite(m, ws);
    if (wr === undefined) return undefined;
    post.push(wr);
    cout = m;
  } else if (d.cout) {
    const m = enc === 'VOP2' ? 106 : ops.sdst;
    const wr = maskWrite(m, ws);
    if (wr === undefined) return undefined;
    post.push(wr);
    cout = m;
  }
  const store = { D, ws, row: -1 as const, keep: float && srcs.some((x) => x.vgpr && x.base === D) };
  const code = [...pre, loops(ws, (lo) => laneBody(d, ex, store, lo, nm))];
  if (float) code.push(NAN_BACK);
  code.push(laneCount(ws, 1, nm), ...post);
  // Integer ops without MODE checks (nothing hands them back to the reference) and without an
  // EXEC write can share a lane loop with their neighbours (fuseLanes).
  const lane: LaneOp | undefined = float || d.fcvt === true || d.fcmp === true || cmpx ? undefined : {
    d, srcs, types, ws, D, cin, cout: cout === 124 ? null : cout,
    reads: srcs.flatMap((x) => (x.vgpr ? [] : x.sgprs ?? [])),
  };
  return build('fast', stmts(code), ref, nm, lane);
}

/**
 * An integer VALU op as fuseLanes needs it: its definition and bound sources, its destination row,
 * the SGPR its carry-in is read from and the one its lane mask (carry-out, compare) goes to (null:
 * none, or null/124), and the SGPRs it reads as uniform values.
 */
interface LaneOp {
  readonly d: Def;
  readonly srcs: readonly Src[];
  readonly types: readonly SrcType[];
  readonly ws: number;
  readonly D: number;
  readonly cin: number | null;
  readonly cout: number | null;
  readonly reads: readonly number[];
}

const laneOps = new WeakSet<object>();

/** A fused run's code: `n` ops in one lane loop; `params` its free names, bound to `args`. */
export interface FusedRun {
  readonly n: number;
  readonly code: string;
  readonly params: readonly string[];
  readonly args: readonly unknown[];
}

/**
 * One lane loop for the longest prefix (at least two ops) of a straight run of integer VALU ops:
 * each lane runs every op in order, so an op reading a VGPR an earlier op wrote sees that lane's
 * new value, as op-by-op execution gives (no op reads another lane). What sequential execution
 * makes visible between ops through SGPRs is kept exact: a carry-in from the mask an earlier op
 * of the run writes is that op's bit for the lane (its mask accumulator so far); any other uniform
 * read of an SGPR an earlier op writes ends the run before the reader. Masks are written after the
 * loop in op order, so the last writer of an SGPR wins. Every op reads EXEC before the loop: none
 * but the last writes it (v_cmpx_* is never a LaneOp; a mask to EXEC ends the run). `undefined`
 * when fewer than two ops fuse.
 */
export function fuseLanes(lanes: readonly (object | undefined)[]): FusedRun | undefined {
  const run: LaneOp[] = [];
  // Per SGPR: the run index of the last op writing it as a mask (and the mask's width).
  const writer = new Map<number, number>();
  for (const x of lanes) {
    if (x === undefined || !laneOps.has(x)) break;
    const op = x as LaneOp;
    if (run.length > 0 && op.ws !== run[0]!.ws) break;
    if (op.reads.some((r) => writer.has(r))) break;
    if (op.cin !== null && op.cin !== 124) {
      const j = writer.get(op.cin);
      // A carry-in from part of an earlier op's mask (or its high half alone) stays unfused.
      if (j === undefined ? op.ws === 64 && writer.has(op.cin + 1) : run[j]!.cout !== op.cin) break;
    }
    run.push(op);
    if (op.cout !== null) {
      writer.set(op.cout, run.length - 1);
      if (op.ws === 64) writer.set(op.cout + 1, run.length - 1);
      // A mask written to EXEC (a VOP3 compare or carry with sdst exec) ends the run after it.
      if (op.cout === 126 || op.cout === 127) break;
    }
  }
  if (run.length < 2) return undefined;
  const ws = run[0]!.ws;
  const nm = new Names<Helper>();
  const pre: string[] = ['const s = w.s, v = w.v, vf = w.vf;', 'const el = s[126];',
    ws === 64 ? 'const eh = s[127]; const full = el === 4294967295 && eh === 4294967295;' : 'const eh = 0; const full = el === 4294967295;'];
  const post: string[] = [];
  const exs: Ex[][] = [];
  const ciName: string[] = [];
  const lastWriter = new Map<number, number>();
  // Per op with a mask: the later op of the run that writes the same SGPR(s), or -1. An overwritten
  // mask is not written to the SGPR; if also no carry-in up to the overwrite reads it, it is never
  // seen and not even accumulated (the 64-bit add pairs' first halves into VCC).
  const overwrite = run.map((op, i) => (op.cout === null ? -1 : run.findIndex((o, j) => j > i && o.cout === op.cout)));
  const seen = run.map((op, i) => {
    const next = overwrite[i]!;
    if (op.cout === null || next < 0) return op.cout !== null;
    return run.some((o, j) => j > i && j <= next && o.d.cin && o.cin === op.cout);
  });
  run.forEach((op, i) => {
    pre.push(`let co${i}_lo = 0, co${i}_hi = 0;`);
    exs.push(exprs(op.srcs, op.types, ws, `_${i}_`, pre, nm));
    let ci = `ci${i}`;
    if (op.d.cin) {
      const j = op.cin === null || op.cin === 124 ? undefined : lastWriter.get(op.cin);
      if (j !== undefined) ci = `co${j}`;
      else if (op.cin === null || op.cin === 124) pre.push(`const ci${i}_lo = 0, ci${i}_hi = 0;`);
      else pre.push(`const ci${i}_lo = s[${op.cin}], ci${i}_hi = ${ws === 64 ? `s[${op.cin + 1}]` : '0'};`);
    }
    ciName.push(ci);
    if (op.cout !== null) {
      lastWriter.set(op.cout, i);
      if (overwrite[i]! < 0) post.push(maskWrite(op.cout, ws, `co${i}`)!);
    }
  });
  // Ops whose mask is never seen drop the carry-out (compares keep theirs: it is their result).
  const defOf = (op: LaneOp, i: number): Def => (op.d.cout && !seen[i] ? { ...op.d, cout: false } : op.d);
  const body = loops(ws, (lo) => run.map((op, i) => laneBody(defOf(op, i), exs[i]!, { D: op.D, ws, row: -1 }, lo, nm, `co${i}`, ciName[i]!)).join('\n'));
  const code = [...pre, body, laneCount(ws, run.length, nm), ...post].join('\n');
  const params = nm.pick(HELPERS);
  return { n: run.length, code, params, args: params.map((n) => HELPER_VALUES[n]) };
}

for (const [name, d] of defs) fastDefine(name, (inst, env, ref) => bindVop(d, inst, env, ref));

/**
 * VOPD: both halves read every source before either writes (vopd.ts), so each half's results go
 * to a scratch row and are written after the lane loop; the reference counts the lanes twice.
 */
function bindVopd(inst: Instruction, env: ExecEnv, ref: Bound): Bound | undefined {
  const info = inst.info as VopdInfo | undefined;
  if (!info) return undefined;
  const f = inst.fields;
  const ws = env.waveSize;
  const nm = new Names<Helper>();
  const pre = head(ws, false, false);
  let float = false;
  let cin = false;
  const halves: { d: Def; ex: Ex[]; D: number }[] = [];
  for (const [tag, op, src0, vsrc1, vdst] of [['x', info.x, f.srcX0, f.vsrcX1, f.vdstX], ['y', info.y, f.srcY0, f.vsrcY1, f.vdstY]] as const) {
    const d = defs.get(op.mnemonic.replace(/^v_dual_/, 'v_'));
    if (!d || d.kind !== (d.kind === 'f32' ? 'f32' : 'i32') || d.cout || src0 === undefined || vdst === undefined) return undefined;
    if (vdst >= env.vgprs) return undefined;
    const hasV1 = op.shape.includes('vsrc1');
    if (hasV1 && (vsrc1 === undefined || vsrc1 >= env.vgprs)) return undefined;
    let encs: number[] = hasV1 ? [src0, 256 + vsrc1!] : [src0];
    if (d.remap === 'mk') encs = [src0, 255, 256 + vsrc1!];
    else if (d.remap === 'ak') encs = [src0, 256 + vsrc1!, 255];
    const types = [...d.srcs];
    if (d.accum) {
      types.push('f32');
      encs.push(256 + vdst);
    }
    if (encs.length !== types.length) return undefined;
    const srcs: Src[] = [];
    for (let k = 0; k < encs.length; k++) {
      const s = bindSrc(encs[k]!, types[k]!, inst.literal, env);
      if (!s) return undefined;
      srcs.push(s);
    }
    if (d.kind === 'f32') float = true;
    if (d.cin) cin = true;
    halves.push({ d, ex: exprs(srcs, types, ws, tag, pre, nm), D: vdst * ws });
  }
  if (float) pre.splice(1, 0, MODE_F32);
  if (cin) pre.push(`const ci_lo = s[106], ci_hi = ${ws === 64 ? 's[107]' : '0'};`);
  const [X, Y] = halves as [typeof halves[0], typeof halves[0]];
  const code = [...pre, loops(ws, (lo) => laneBody(X.d, X.ex, { D: X.D, ws, row: 0 }, lo, nm) + '\n' + laneBody(Y.d, Y.ex, { D: Y.D, ws, row: 1 }, lo, nm))];
  if (float) code.push(NAN_BACK);
  code.push(writeBack(ws, [[X.D, 0], [Y.D, 1]], nm), laneCount(ws, 2, nm));
  return build('fastVopd', stmts(code), ref, nm);
}

// The VOPD mnemonic is its X op's (v_dual_*): the VOPD ops whose X half is described bind through
// bindVopd (which also needs the Y half described).
const dualNames = ['v_dual_fmac_f32', 'v_dual_fmaak_f32', 'v_dual_fmamk_f32', 'v_dual_mul_f32', 'v_dual_add_f32', 'v_dual_sub_f32', 'v_dual_subrev_f32',
  'v_dual_mov_b32', 'v_dual_cndmask_b32', 'v_dual_add_nc_u32', 'v_dual_lshlrev_b32', 'v_dual_and_b32', 'v_dual_mul_dx9_zero_f32', 'v_dual_max_f32', 'v_dual_min_f32', 'v_dual_dot2acc_f32_f16']
  .filter((n) => defs.has(n.replace(/^v_dual_/, 'v_')));
fastDefine(dualNames, (inst, env, ref) => (inst.encoding === 'VOPD' ? bindVopd(inst, env, ref) : undefined));
