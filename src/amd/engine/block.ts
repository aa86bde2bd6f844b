/**
 * Basic blocks for the fast engine: a block is the maximal straight-line run of ops from a PC up
 * to and including the first op that ends it (a branch, s_endpgm, a message, s_barrier, s_sleep,
 * s_setreg, a trap...; at most MAX_OPS ops). Each block is compiled once into one JavaScript
 * function (`new Function`): the ops with generated handlers (Bound.inline: fast-valu.ts,
 * fast-salu.ts, fast-mem.ts) are inlined with their operand offsets as constants, composed from
 * their structured code (code.ts: hand-back points, declared free names), every other op is called
 * through its bound `run`. The scheduler (src/amd/sq/scheduler.ts) runs a block in one step, cut
 * at the end of the wave's quantum or the instruction budget (the `lim` argument), so which
 * instructions run in which turn, and where a budget stops, is exactly what per-op stepping gives.
 *
 * What the per-op loop does around each op, the block function does too, in the same order:
 * the wait-counter sanitizer's step (with w.pc at the op), w.pc at the next op while the handler
 * runs, the model clock (one tick per op, set before every op that may read it). An op that stops
 * the wave or moves its PC elsewhere (a MEMVIOL trap, a halt) ends the block early: the function
 * returns how many ops ran. Ops whose bind-time findings were not yet reported end a block before
 * them (Program.opAt reports findings when a wave first reaches the op, as per-op stepping does).
 */
import type { Wave } from '../wave/wave.js';
import { DecodeError } from '../isa/types.js';
import type { Op } from './types.js';
import type { Program } from './program.js';
import type { Block, BlockFn, BlockRun, Clock } from './block-types.js';
import { engineTime } from './timing.js';
import { MEM_CLASS, NEVER, checkRefs, quietPrefix, quietProbe, stepRefsOf, type StepRefs, type WaitcntSanitizer } from './waitcnt.js';
import type { OperandSpace } from '../isa/operands.js';
import { baseMnemonic } from './registry.js';
import { compile } from './fast-registry.js';
import { fuseLanes, fusedHelper } from './fast-valu.js';
import { render } from './code.js';
import type { ExecEnv } from './env.js';
import { isRunValue, runArg, wasmRun, wasmTakes, wasmTier, type RunDesc } from './wasm/tier.js';
export type { Clock, BlockRun, BlockFn, Block } from './block-types.js';

/** Longest run of VALU ops fused into one lane loop. */
const MAX_FUSED = 8;

/** Longest block: a block longer than the round-robin quantum (64) could never run whole. */
export const MAX_OPS = 48;

/** Ops after which a block ends besides branches and messages: they change the wave's state or trap setup. */
const ENDS = new Set(['s_barrier', 's_sleep', 's_wait_event', 's_sethalt', 's_code_end', 's_wakeup', 's_setreg_b32', 's_setreg_imm32_b32',
  's_trap', 's_rfe_b64', 's_endpgm', 's_endpgm_saved', 's_icache_inv']);

function ends(op: Op): boolean {
  return op.cls === 'branch' || op.cls === 'msg' || ENDS.has(baseMnemonic(op.inst.mnemonic));
}

/**
 * The block starting at `pc`, built and compiled on first use; null when the op at `pc` cannot
 * start one (not decodable, outside the program, or an op with bind-time findings, which each
 * dispatch reports when a wave first steps it): step it instead.
 */
export function blockAt(program: Program, pc: number): Block | null {
  const b = blockShellAt(program, pc);
  if (b !== null) makePlan(b);
  return b;
}

/**
 * A lower bound of a block's source length per op: tier.ts tells from it that a block will wait
 * whatever its source, before making the source (the 598 blocks of the bench kernels and
 * kernels/manifests: 177 characters an op at least, 550 the median). An op the wasm tier takes
 * costs its block a `case` line at least (a run's glue is shared by its ops: conv2d's 23-48-op
 * blocks of translated runs are 30-60 characters an op).
 */
export const MIN_SRC_PER_OP = 100;
const MIN_SRC_PER_WASM_OP = 8;

/** The lower bound of the source length of a block of `ops` (see MIN_SRC_PER_OP), and how many of them the translator takes. */
function minSrcLen(ops: readonly Op[], env: ExecEnv): { readonly len: number; readonly taken: number } {
  let len = 0, taken = 0;
  for (const op of ops) {
    const t = wasmTier.on && op.inline !== undefined && wasmTakes(op, env.waveSize, env.vgprs, env.heapMemory === true);
    len += t ? MIN_SRC_PER_WASM_OP : MIN_SRC_PER_OP;
    if (t) taken++;
  }
  return { len, taken };
}

/**
 * blockAt's block, possibly `pending`: its ops decoded and bound, its source made only by
 * makePlan (unless the same code's plan is cached). A straight block in a short dispatch waits
 * whatever its source (tier.ts) and is often never compiled: making its source cost conv2d
 * 256x256's fresh dispatch about as much again as binding its ops.
 */
export function blockShellAt(program: Program, pc: number): Block | null {
  const i = (pc - program.base) / 4;
  const cached = program.blocks[i];
  if (cached !== undefined) return cached;
  if (!Number.isInteger(i) || i < 0 || i >= program.words.length) return null;
  const t0 = performance.now();
  try {
    return buildBlock(program, pc, i);
  } finally {
    engineTime.compileMs += performance.now() - t0;
  }
}

/** Makers of pending blocks' plans. */
const makers = new WeakMap<Block, () => Plan>();

/** Make a pending block's source (no-op for others): its plan-derived fields are filled in. */
export function makePlan(b: Block): void {
  if (!b.pending) return;
  const t0 = performance.now();
  try {
    fill(b, makers.get(b)!());
    makers.delete(b);
  } finally {
    engineTime.compileMs += performance.now() - t0;
  }
}

function buildBlock(program: Program, pc: number, i: number): Block | null {
  const ops: Op[] = [];
  let p = pc;
  for (;;) {
    let op: Op;
    try {
      op = program.peekHot(p);
    } catch (e) {
      if (e instanceof DecodeError) break;
      throw e;
    }
    if (program.hasFindings(p)) break;
    ops.push(op);
    p += op.size;
    if (ends(op) || ops.length >= MAX_OPS) break;
  }
  if (ops.length === 0) return null;
  // A block cut at MAX_OPS ends where the wait-counter track would be empty (the last such op, if
  // it is not too early): the next block then starts quiet too, and a wave with nothing
  // outstanding runs both without sanitizer steps (a long straight run of loads and waits, e.g. a
  // reduction's tail, otherwise stepped every op after the first cut).
  if (ops.length === MAX_OPS && !ends(ops[ops.length - 1]!)) {
    const q = quietPrefix(ops, opPcs(ops, pc), program.target.space);
    if (q >= MAX_OPS / 4 && q < ops.length) ops.length = q;
  }
  // The raw words (not the decoded ops: GFX9/GFX10.3 ops are GFX11 equivalents) at this address on
  // this target; the plan is reused only if this Program bound the same handler sources.
  let dwords = 0;
  for (const op of ops) dwords += op.size >>> 2;
  const key = `${wasmTier.on ? (program.env.heapMemory === true ? 'wasm+heap|' : 'wasm|') : ''}${program.target.mcpu}|${pc}|${program.words.subarray(i, i + dwords).join(',')}`;
  const env = program.env;
  // The block cache's key: its plans' runs are translated for this wave size and VGPR count.
  const storeKey = store === null ? '' : `${key}|w${env.waveSize}|v${env.vgprs}`;
  let plan = plans.get(key);
  if (plan !== undefined && !fits(plan, ops)) plan = undefined;
  if (plan === undefined && store !== null) {
    plan = planFromRecord(store.get(storeKey), ops, env);
    if (plan !== undefined) {
      plans.set(key, plan);
      engineTime.cachedBlocks++;
    }
  }
  const b = blockOf(ops, pc, plan !== undefined ? { len: plan.src.length, taken: plan.translated } : minSrcLen(ops, env));
  if (plan !== undefined) fill(b, plan);
  else {
    makers.set(b, () => {
      const p = compileBlock(ops, pc, program.target.space, env);
      plans.set(key, p);
      if (store !== null) store.made(storeKey, () => recordOf(p));
      return p;
    });
  }
  program.blocks[i] = b;
  engineTime.blocks++;
  return b;
}

/** Plans by target, address and raw code (see Plan). */
const plans = new Map<string, Plan>();

/**
 * Ops a block does not inline are called through this one function: its call site sees every
 * handler of every program, so V8 never specialises a block's optimised code to one handler
 * closure. A block function's source (and so its optimised code) is shared by every Program of
 * the same code at the same address; with the handler called directly, the second dispatch of a
 * kernel in a process ran that code against its own handlers and deoptimised on every call
 * ("wrong call target", ~900 times for one vaddmul run).
 */
function callOp(op: Op, w: Wave): void {
  op.run(w);
}

/**
 * A limit inside a fused run (see compileBlock): ops [k, lim) of the run one by one through their
 * handlers, as the block's own op-by-op code would run them (sanitizer step with w.pc at the op
 * unless skipped in the quiet prefix, w.pc at the next op and the clock at the op while the
 * handler runs), then the exit at `lim` (replaying the skipped steps from the entry op `e`). A
 * fused run's ops are integer VALU ops: they neither trap nor move the PC. Shared by every block
 * so this rare path adds no code, and no deoptimisation when first taken, to each block function.
 */
function cutRun(w: Wave, clk: Clock, wc: WaitcntSanitizer | null, sk: boolean, quiet: number, t0: number, ops: readonly Op[], pcs: readonly number[], k: number, lim: number, e: number): number {
  for (let i = k; i < lim; i++) {
    const op = ops[i]!;
    if (wc !== null && !(sk && i < quiet) && w.waitTrack !== null) {
      w.pc = pcs[i]!;
      wc.step(w, op);
    }
    w.pc = pcs[i]! + op.size;
    clk.t = t0 + i;
    op.run(w);
  }
  if (sk && lim < quiet) wc!.replay(w, ops, pcs, lim, e);
  w.pc = pcs[lim]!;
  clk.t = t0 + lim;
  return lim;
}

/**
 * The sanitizer's steps of ops [from, to) that a translated run completed, as the block's own
 * step lines (stepLines) take them: the ops before `quiet` skipped when `sk`; w.pc at each op.
 */
function stepDone(w: Wave, wc: WaitcntSanitizer, sk: boolean, quiet: number, ops: readonly Op[], pcs: readonly number[], sr: StepRefs, from: number, to: number): void {
  wc.stepRun(w, ops, pcs, sr, sk && from < quiet ? quiet : from, to);
}

/** The PC of each op of a straight-line run starting at `pc0`. */
function opPcs(ops: readonly Op[], pc0: number): number[] {
  const pcs: number[] = [];
  for (let k = 0, p = pc0; k < ops.length; p += ops[k]!.size, k++) pcs.push(p);
  return pcs;
}

/** Block functions by source text (see BlockFn). */
const blockFns = new Map<string, BlockFn>();

/** Generate the block's function: see the file comment for what it must do per op. */
function compileBlock(ops: readonly Op[], pc0: number, space?: OperandSpace, env?: ExecEnv): Plan {
  const n = ops.length;
  const pcs = opPcs(ops, pc0);
  // A translated run's sanitizer steps and counters as a line per op (as other ops have) in a loop
  // body (TurboFan compiles it anyway and specialises each test); else one shared call each
  // (stepDone, bumpDone), so a straight block of translated runs is a case line an op and a few
  // hundred characters, which tier.ts compiles at once. Short blocks too: with a line per op,
  // transpose 256x256's 5-18-op blocks (100-400 characters an op) were stepped through its 2048-wave
  // fresh dispatch (141-192 ms against 88-112; reduce_tree warm ~3-5% slower, within the noise).
  const inlineSteps = isLoop(ops, pc0);
  // A wave entering with no wait-counter track runs the first `quiet` ops without sanitizer steps
  // (`sk`): stepped, they would report nothing and leave no track (waitcnt.ts, quietPrefix). Leaving
  // the block inside that prefix replays the skipped steps.
  const probe = quietProbe(space);
  const quiet = quietPrefix(ops, pcs, space, 0, n, probe);
  // A wave resuming inside the block (its last turn was cut there) enters at op `e` (a case of
  // the switch below): t0 is the clock of op 0 as if it had started there, the limit and the
  // return value count ops from the block's start, and it skips the sanitizer steps of the quiet
  // prefix only if ops [e, quiet) are quiet from no track too (replays then start at e).
  // PCs are written from the block's start $P ($A[0][0]), so blocks that differ only in where they
  // are (reduce_lds's seven tree steps: translated runs and calls) share one function: V8 warms
  // and optimises it once, on all their visits together.
  const at = (pc: number): string => (pc === pc0 ? '$P' : `($P + ${pc - pc0})`);
  const lines: string[] = ['const $P = $A[0][0], t0 = clk.t - e;'];
  let fusedRuns = 0;
  // Entries k (0 < k < quiet) from which ops [k, quiet) are not quiet from no track: a wave
  // entering there steps them all (its case clears sk; falling through from an earlier op runs
  // that test too, so V8 has its feedback before it first enters there).
  const loud = new Set<number>();
  if (quiet > 0) {
    for (let k = 1; k < quiet; k++) if (quietPrefix(ops, pcs, space, k, quiet, probe) !== quiet) loud.add(k);
    lines.push('let sk = wc !== null && w.waitTrack === null;');
  }
  lines.push('switch (e) {');
  const replay = (ran: number) => (ran > 0 && ran < quiet ? `if (sk) wc.replay(w, $O, $A[0], ${ran}, e); ` : '');
  // The block's own values ($A, gathered by blockOf): $A[0] the op PCs (for replays), then the
  // inlined code's bound values, the pairs of `take`: (op index, param index) for an op's Inline
  // (they belong to the Program), (-1, index in `consts`) for a fused run's helpers (module values).
  const take: number[] = [];
  const consts: unknown[] = [];
  // What each of `consts` is, for the block cache (planFromRecord makes them again).
  const descs: ConstDesc[] = [];
  const konst = (value: unknown, d: ConstDesc): number => {
    descs.push(d);
    return consts.push(value) - 1;
  };
  let inlined = 0, translated = 0;
  // The sanitizer's step before op k, as dispatch calls it (w.pc at the op). An op whose step can
  // only check its registers is skipped unless one of them has an outstanding load (exact: see checkRefs).
  const stepLines = (k: number): string[] => {
    const op = ops[k]!;
    const pc = pcs[k]!;
    const refs = MEM_CLASS[op.ci] === 1 ? null : checkRefs(op);
    const wcOn = k < quiet ? 'wc !== null && !sk' : 'wc !== null';
    if (refs === null) {
      return [MEM_CLASS[op.ci] === 1
        ? `if (${wcOn}) { w.pc = ${at(pc)}; wc.step(w, $O[${k}]); }`
        : `if (${wcOn} && w.waitTrack !== null) { w.pc = ${at(pc)}; wc.step(w, $O[${k}]); }`];
    }
    if (refs.length === 0) return [];
    const any = [...new Set(refs)].map((r) => `K[${r}]`).join(' | ');
    return [`if (${wcOn} && w.waitTrack !== null) { const K = w.waitTrack.kind; if ((${any}) !== 0) { w.pc = ${at(pc)}; wc.step(w, $O[${k}]); } }`];
  };
  // The caller's limit (the rest of the wave's quantum, the instruction budget) stops before op k.
  const limLine = (k: number) => `if (lim === ${k}) { ${replay(k)}w.pc = ${at(pcs[k]!)}; clk.t = t0 + ${k}; return ${k}; }`;
  // `body` (an Inline's or a fused run's statements) as block b<label>, with its free names bound:
  // `params` (declared by the generator, code.ts) to $A slots.
  const bindLines = (label: string, body: string, params: readonly string[], slot: (j: number) => readonly [number, number]): string[] => {
    const binds = params.map((x, j) => {
      const line = `const ${x} = $A[${1 + take.length / 2}];`;
      take.push(...slot(j));
      return line;
    });
    return [`b${label}: {`, ...binds, body, '}'];
  };
  // Op k itself: its Inline's code when it has one (a handler that moves the PC only as the last
  // op), else called.
  const opLines = (k: number): string[] => {
    const op = ops[k]!;
    const next = at(pcs[k]! + op.size);
    const last = k === n - 1;
    // Leaving early: the wave stopped, trapped or branched away after op k.
    const leave = `{ ${replay(k + 1)}clk.t = t0 + ${k + 1}; return ${k + 1}; }`;
    const check = last ? '' : ` if (w.state !== 'ready' || w.pc !== ${next}) ${leave}`;
    const src = op.inline;
    if (src === undefined || (src.movesPc === true && !last)) return [`w.pc = ${next}; clk.t = t0 + ${k}; call($O[${k}], w);${check}`];
    // A hand-back to the reference handler runs it as a call, like any op that is not inlined.
    const body = render(src.code, `{ w.pc = ${next}; clk.t = t0 + ${k}; ref(w);${check} break b${k}; }`);
    inlined++;
    return [...(last ? [`w.pc = ${next};`] : []), ...bindLines(String(k), body, src.params, (j) => [k, j])];
  };
  // Ops a wave may enter at (not inside a fused run: the scheduler steps those, tier.ts).
  const enter = new Uint8Array(n);
  for (let k = 0; k < n;) {
    lines.push(`case ${k}:`);
    enter[k] = 1;
    if (loud.has(k)) lines.push(`if (e === ${k}) sk = false;`);
    if (k > 0) lines.push(limLine(k));
    // A straight run of integer VALU ops in one lane loop (fast-valu.ts fuseLanes). A limit that
    // stops inside the run runs its first ops one by one (cutRun); the fused path steps the
    // sanitizer for every op of the run first (VALU ops change nothing a step reads) and cannot
    // leave early.
    // The wasm tier (wasm/tier.ts), when on, takes straight runs of VALU ops, GLOBAL and DS accesses
    // and waits as one call.
    const wr = wasmTier.on && env !== undefined && ops[k]!.inline !== undefined ? wasmRun(ops, k, env.waveSize, env.vgprs, env.heapMemory === true, inlineSteps) : undefined;
    if (wr !== undefined && wr.loop) {
      // The whole loop body, its back branch included, is one translated run (wasm/branch.ts),
      // entered at any op. With no sanitizer steps to take (none on, or a wave with no track in a
      // body that is quiet throughout: each trip leaves no track either) its limit is the caller's
      // (the rest of the turn or the budget) and it may run further trips: T back branches taken,
      // then ops [0, d) of the last trip (t0 + T n its clock's start). Else one trip at most, with
      // the steps of the ops it completed as for any run. The counters: the first and last trips'
      // as lines, the whole trips between in one call (WT). The result counts ops across the trips
      // (Block.loop).
      for (let i = 1; i < n; i++) {
        lines.push(`case ${i}:`);
        enter[i] = 1;
      }
      for (let i = 1; i < n; i++) if (loud.has(i)) lines.push(`if (e === ${i}) sk = false;`);
      const free = quiet === n ? 'wc === null || sk' : 'wc === null';
      const steps: string[] = [];
      for (let i = 0; i < n; i++) {
        const st = stepLines(i);
        if (st.length > 0) steps.push(`if (a <= ${i} && ${i} < dd) { ${st.join(' ')} }`);
      }
      const rp = (x: string) => (quiet > 0 ? `if (sk && ${x} < ${quiet}) wc.replay(w, $O, $A[0], ${x}, T > 0 ? 0 : e); ` : '');
      const stepFrom = quiet > 0 ? `sk ? ${quiet} : 0` : '0';
      const after = `if (T > 0 && d === 0) { w.pc = $P; clk.t = t0 + T * ${n}; return T * ${n}; } `
        + `const t1 = t0 + T * ${n}, zl = lim - T * ${n} < ${n} ? lim - T * ${n} : ${n}; `
        + `const r = d === zl ? zl : WREST(w, clk, t1, $O, $A[0], d, zl, wc, ${stepFrom}); `
        + `if (r < 0) { ${rp('-r')}clk.t = t1 - r; return T * ${n} - r; } `
        + `if (r === ${n}) { w.pc = ${at(pcs[n - 1]! + ops[n - 1]!.size)}; clk.t = t1 + ${n}; return T * ${n} + ${n}; } `
        + `${rp('r')}w.pc = $A[0][r]; clk.t = t1 + r; return T * ${n} + r;`;
      lines.push(`{ const a = e, z = ${free} ? lim : lim < ${n} ? lim : ${n};`);
      lines.push(...bindLines(`0_${n}`, `${wr.code} ${steps.join(' ')} ${after}`, wr.params, (j) => [-1, konst(wr.args[j], wr.descs[j]!)]), '}');
      inlined += n;
      translated += n;
      fusedRuns++;
      break;
    }
    if (wr !== undefined) {
      // A translated run is entered at any of its ops (a wave whose last turn was cut inside it
      // resumes there) and cut anywhere: it runs ops [a, z).
      const end = k + wr.n;
      for (let i = k + 1; i < end; i++) {
        lines.push(`case ${i}:`);
        enter[i] = 1;
      }
      for (let i = k + 1; i < end; i++) if (loud.has(i)) lines.push(`if (e === ${i}) sk = false;`);
      lines.push(`{ const a = e > ${k} ? e : ${k}, z = lim < ${end} ? lim : ${end};`);
      // After the translated code: the sanitizer's steps of the ops it completed (they report
      // nothing and change nothing a step reads: stepDone takes them as stepLines would), then the
      // ops it handed back, each stepped and run (so reports come in the interpreter's order).
      const steps: string[] = [];
      // Per op, what stepDone needs of stepLines' rule (waitcnt.ts, made once per op list).
      const shared = !inlineSteps && stepRefsOf(ops).how.subarray(k, end).some((x) => x !== NEVER);
      if (shared) steps.push(`if (wc !== null && d > a - ${k}) SD(w, wc, ${quiet > 0 ? 'sk' : 'false'}, ${quiet}, $O, $A[0], SR, a, ${k} + d);`);
      else if (inlineSteps) {
        for (let i = k; i < end; i++) {
          const st = stepLines(i);
          if (st.length > 0) steps.push(`if (a <= ${i} && ${i} < ${k} + d) { ${st.join(' ')} }`);
        }
      }
      const stepFrom = quiet > 0 ? `sk ? ${quiet} : 0` : '0';
      // r: the op reached; cut before it (the quantum or budget ends inside the run), or -r when the
      // handler of op -r - 1 stopped the wave or moved its PC.
      const rp = (x: string) => (quiet > 0 ? `if (sk && ${x} < ${quiet}) wc.replay(w, $O, $A[0], ${x}, e); ` : '');
      const after = `${steps.join(' ')} const r = d === z - ${k} ? z : WREST(w, clk, t0, $O, $A[0], ${k} + d, z, wc, ${stepFrom}); `
        + `if (r !== ${end}) { if (r < 0) { ${rp('-r')}clk.t = t0 - r; return -r; } ${rp('r')}w.pc = $A[0][r]; clk.t = t0 + r; return r; }`;
      const params = [...wr.params, ...(shared ? ['SD', 'SR'] : [])];
      const args = [...wr.args, ...(shared ? [stepDone, stepRefsOf(ops)] : [])];
      const argDescs: ConstDesc[] = [...wr.descs, ...(shared ? [{ k: 'stepDone' } as const, { k: 'stepRefs' } as const] : [])];
      lines.push(...bindLines(`${k}_${end}`, `${wr.code} ${after}`, params, (j) => [-1, konst(args[j], argDescs[j]!)]), '}');
      if (end === n) lines.push(`w.pc = ${at(pcs[n - 1]! + ops[n - 1]!.size)};`);
      inlined += wr.n;
      translated += wr.n;
      fusedRuns++;
      k = end;
      continue;
    }
    const fused = ops[k]!.inline?.lane !== undefined && k + 1 < n ? fuseLanes(ops.slice(k, Math.min(n, k + MAX_FUSED)).map((o) => o.inline?.lane)) : undefined;
    if (fused === undefined) {
      lines.push(...stepLines(k), ...opLines(k));
      k++;
      continue;
    }
    const end = k + fused.n;
    lines.push(`if (lim < ${end}) return cut(w, clk, wc, ${quiet > 0 ? 'sk' : 'false'}, ${quiet}, t0, $O, $A[0], ${k}, lim, e);`);
    for (let i = k; i < end; i++) lines.push(...stepLines(i));
    lines.push(...bindLines(`${k}_${end}`, fused.code, fused.params, (j) => [-1, konst(fused.args[j], { k: 'helper', name: fused.params[j]! })]));
    if (end === n) lines.push(`w.pc = ${at(pcs[n - 1]! + ops[n - 1]!.size)};`);
    inlined += fused.n;
    fusedRuns++;
    k = end;
  }
  lines.push('}', `clk.t = t0 + ${n};`, `return ${n};`);
  // Parenthesised so V8 compiles it to bytecode at once (eagerly) when it is made (blockFn).
  const src = `return (function block(w, clk, wc, lim, $O, $A, e) {\n${lines.join('\n')}\n});`;
  // Only the sources' identities are kept: an Inline's bound values belong to this Program.
  return { fn: blockFns.get(src) ?? null, src, enter, inlined, fused: fusedRuns, translated, take, consts, descs, keys: ops.map((o) => o.inline?.key ?? null), cis: ops.map((o) => o.ci) };
}

/** A loop body: its last op branches back to its start (the scheduler enters it again at once). */
function isLoop(ops: readonly Op[], pc0: number): boolean {
  let end = pc0;
  for (const op of ops) end += op.size;
  const last = ops[ops.length - 1]!;
  const off = last.cls === 'branch' ? last.inst.fields['simm16'] : undefined;
  return off !== undefined && end + ((off << 16) >> 16) * 4 === pc0;
}

/**
 * The plan's function, made on its first run: a block that waits (tier.ts) and never gets hot in
 * a short dispatch (conv2d's straight blocks, once per wave) costs its source only, not V8's
 * parse and bytecode of 10-40 KB of it. Counted in the compile time as before.
 */
function blockFn(plan: Plan): BlockFn {
  if (plan.fn !== null) return plan.fn;
  const t0 = performance.now();
  let fn = blockFns.get(plan.src);
  if (fn === undefined) {
    fn = compile(['call', 'cut'], plan.src)(callOp, cutRun) as unknown as BlockFn;
    engineTime.blockFns++;
    blockFns.set(plan.src, fn);
  }
  plan.fn = fn;
  engineTime.compileMs += performance.now() - t0;
  return fn;
}

/**
 * What compiling a block produced, kept per raw code (blockAt's `plans`) so another Program of the
 * same code at the same address (another binding of it: other VGPRs, or a kept Program dropped
 * for an enclosing dispatch's) builds its Block without generating source, testing parameters or
 * stepping a probe sanitizer again.
 */
interface Plan extends PlanRecord {
  /** The function (blockFn makes it on the block's first run; null until then). */
  fn: BlockFn | null;
  /** The values `take` names with -1: fused runs' helpers and translated runs' values, the same for every Program. */
  readonly consts: readonly unknown[];
}

/** Whether `ops` (bound by another Program) generate the source `plan` was compiled from. */
function fits(plan: Plan, ops: readonly Op[]): boolean {
  if (plan.keys.length !== ops.length) return false;
  for (let k = 0; k < ops.length; k++) {
    const op = ops[k]!;
    if (op.ci !== plan.cis[k] || (op.inline?.key ?? null) !== plan.keys[k]) return false;
  }
  return true;
}

const planOf = new WeakMap<Block, Plan>();

/** The block's generated function, made now if it has not run yet (tests compare them). */
export function blockFunction(b: Block): BlockFn {
  makePlan(b);
  const plan = planOf.get(b);
  return plan === undefined ? b.fn : (b.fn = blockFn(plan));
}

const NO_ENTRY = new Uint8Array(0);

/** The Block of this Program's ops at `pc0`, pending until `fill` gives it a plan. */
function blockOf(ops: readonly Op[], pc0: number, minSrc: { readonly len: number; readonly taken: number }): Block {
  // Until its first run the block's fn makes the function and puts it in its place.
  const b: Block = {
    n: ops.length, ops, pc: pc0, loop: isLoop(ops, pc0), enter: NO_ENTRY, runs: new Int32Array(ops.length + 1), counter: null, srcLen: minSrc.len, args: [], inlined: 0, fused: 0, translated: minSrc.taken, pending: true, ready: false,
    fn: (w, clk, wc, lim, $O, _A, e) => {
      makePlan(b);
      return (b.fn = blockFn(planOf.get(b)!))(w, clk, wc, lim, $O, b.args, e);
    },
    run: (w, clk, wc, lim) => b.fn(w, clk, wc, lim, ops, b.args, 0),
  };
  return b;
}

/** Give `b` its plan: the plan's fields, and this Program's bound values gathered as compiling did. */
function fill(b: Block, plan: Plan): void {
  const ops = b.ops;
  const values: unknown[] = [opPcs(ops, b.pc)];
  const t = plan.take;
  for (let i = 0; i < t.length; i += 2) values.push(t[i]! < 0 ? plan.consts[t[i + 1]!] : ops[t[i]!]!.inline!.args[t[i + 1]!]);
  b.enter = plan.enter;
  b.srcLen = plan.src.length;
  b.args = values;
  b.inlined = plan.inlined;
  b.translated = plan.translated;
  b.fused = plan.fused;
  b.pending = false;
  if (plan.fn !== null) b.fn = plan.fn;
  planOf.set(b, plan);
}

/**
 * One of a plan's `consts` as the block cache records it: a translated run's value (wasm/tier.ts
 * RunDesc), block.ts's stepDone, the block's StepRefs (made again from its ops), or a fused run's
 * helper (fast-valu.ts).
 */
export type ConstDesc = RunDesc | { readonly k: 'stepDone' } | { readonly k: 'stepRefs' } | { readonly k: 'helper'; readonly name: string };

/**
 * A plan as the block cache keeps it between processes: everything but the function and the bound
 * values, which are made again (the values from `descs`, against the ops of the Program that
 * reads it, after `fits` holds: the same handler sources and classes).
 */
export interface PlanRecord {
  readonly src: string;
  /** By op: whether a wave may enter the block there. */
  readonly enter: Uint8Array;
  readonly inlined: number;
  readonly translated: number;
  readonly fused: number;
  /**
   * The values passed after $A[0] (the PCs), as pairs: (op index, param index) of an op's Inline
   * args, or (-1, index) of the plan's consts.
   */
  readonly take: readonly number[];
  /** What each of the plan's consts is. */
  readonly descs: readonly ConstDesc[];
  /** What the plan was generated from: each op's Inline identity (Inline.key) and class. */
  readonly keys: readonly (string | null)[];
  readonly cis: readonly number[];
}

/**
 * Where plans outlive the process (runtime/block-cache-node.ts: a directory per build): `get` the
 * record an earlier process saved under a key, `made` tells of a plan made now (`record` gives it
 * when the store saves, with its runs' translations made by then).
 */
export interface BlockStore {
  get(key: string): PlanRecord | undefined;
  made(key: string, record: () => PlanRecord): void;
}

let store: BlockStore | null = null;

/** Use `s` for the blocks this thread builds from now on (null: none, the default). */
export function setBlockStore(s: BlockStore | null): void {
  store = s;
}

/** The record of `p` (its runs' byte holders shared: translations made later are in it). */
function recordOf(p: Plan): PlanRecord {
  const { fn: _fn, consts: _consts, ...r } = p;
  return r;
}

/**
 * The plan of record `r` for `ops` (bound by a Program of `env`), or undefined when there is none,
 * it does not fit them, or a value cannot be made (a record of another build's shape): the block
 * is then generated as if nothing were cached.
 */
function planFromRecord(r: PlanRecord | undefined, ops: readonly Op[], env: ExecEnv): Plan | undefined {
  if (r === undefined) return undefined;
  const plan: Plan = { ...r, fn: null, consts: [] };
  if (!fits(plan, ops) || r.enter.length !== ops.length) return undefined;
  const ws = env.waveSize;
  const consts: unknown[] = [];
  for (const d of r.descs) {
    if (d.k === 'stepDone') consts.push(stepDone);
    else if (d.k === 'stepRefs') consts.push(stepRefsOf(ops));
    else if (d.k === 'helper') {
      const v = fusedHelper(d.name);
      if (v === undefined) return undefined;
      consts.push(v);
    } else {
      if (d.k === 'value' ? !isRunValue(d.name) : d.k === 'runner' && (!wasmTier.on || d.at < 0 || d.n < 1 || d.at + d.n > ops.length)) return undefined;
      consts.push(runArg(d, ops, ws, env.vgprs, env.heapMemory === true));
    }
  }
  for (let i = 0; i < r.take.length; i += 2) {
    const a = r.take[i]!, j = r.take[i + 1]!;
    if (a < 0 ? j >= consts.length : ops[a]?.inline === undefined || j >= ops[a]!.inline!.args.length) return undefined;
  }
  return { ...plan, consts };
}

/** Drops the plans kept in this thread (tests of the block cache: what a fresh process sees). */
export function forgetPlans(): void {
  plans.clear();
}
