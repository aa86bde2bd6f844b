/**
 * Tiering of the fast engine (issue 24): a large basic block's generated function runs only once
 * waves have reached its start often enough to pay for V8 compiling it; until then the scheduler
 * steps its ops one by one through the same bound handlers (the fast engine's specialised ones,
 * shared by every op of the same handler source, so V8 optimises each of them once per process).
 *
 * Most of a cold run's cost was V8 optimising the block functions (TurboFan, on its own threads,
 * while the main thread runs the unoptimised function), and that cost grows with the function's
 * source: a straight block of 48 inlined LDS ops (50 KB of source) took 0.5-1.2 s of TurboFan
 * CPU, for a block each wave runs once. The rule is ski rental: a block whose source is at least
 * `minBytes` waits srcLen * visitsPerByteOp / ops visits, i.e. until the time its ops spent being
 * stepped one by one (about 0.1 us more per op than inside a compiled block; an op of a translated
 * run counts 2.5 ops: `gain`) reaches what compiling it costs (about 2.5 us of TurboFan CPU per
 * byte of source, the middle of what was measured on a loaded machine). Smaller blocks run
 * compiled from their first visit, as before. A straight block whose source, however short (block.ts MIN_SRC_PER_OP), would make it
 * wait longer than the dispatch has waves waits that least wait with no source made (`pending`);
 * when it is over, the source is made and the wait from its real length takes over (settle).
 * One of probeBytes or more whose wait the dispatch's waves would cover is compiled after PROBE
 * visits only if the waves launched meanwhile say it will be reached that often.
 * Other blocks get their source at the first visit; a block's function (V8's parse and bytecode)
 * is made at its first run (block.ts blockFn), so a block that never gets hot costs its source
 * at most. A visit to a waiting block steps its ops to the block's end without counting or
 * building anything at them.
 *
 * A loop body or head (a block branching back to its own start, or any branch target) runs
 * compiled at once whatever its size: matmul_tiled's tile loop (16-44 KB blocks) lost more
 * stepped than its compile cost.
 *
 * A wave resuming inside a block (a suffix: its quantum or the budget cut the block there) enters
 * the block's own function at that op (block.ts: a switch over the entry op), so a suffix is
 * neither built nor compiled apart: matmul's loop body had a dozen suffixes, each its own function
 * waiting by the rule above (ski rental), so 11% of the run's ops were stepped op by op, warm
 * or cold. A branch target is never a suffix (a loop head after its preheader in one block): it
 * starts a block of its own.
 *
 * A small grid, its engine left to runKernel (fewer waves than tiering.firstCalls): each op runs
 * its reference handler (the interpreter's) until it has run firstCalls times (Program `cold`), and
 * no block starts at a PC visited fewer times unless visited more often than waves were launched
 * (a loop). Straight code of a few waves then binds and compiles nothing of the fast engine's.
 *
 * Per-op stepping and blocks give the same results bit for bit (they run the same handlers, with
 * the same sanitizer steps, clock and budget; the differential tests run both), so the rule moves
 * only time.
 */
import type { Program } from './program.js';
import type { Engine } from './types.js';
import type { Block } from './block-types.js';
import { blockShellAt, makePlan } from './block.js';

/**
 * The tiering settings of this thread. Blocks whose generated source has fewer than `minBytes`
 * characters run compiled at once; larger ones wait `srcLen * visitsPerByteOp / ops` visits
 * (`minBytes: Infinity` turns tiering off, suffixes included; tests set both to exercise both paths).
 */
// 45 KB: from the bench kernels (reduce_1bar's 47-50 KB straight blocks wait). A waiting block
// reached more often in a dispatch than it launched waves is in a loop and is compiled then
// (matmul_tiled's tile loop, over 45 KB since the f32 midpoint test). docs/speed.md.
// probeBytes: only blocks of this much source are probed (PROBE): TurboFan's cost and the time a
// block runs unoptimised meanwhile grow with it; smaller ones (reduce_tree's, up to 11 KB, reached
// by fewer waves at each step of its tree) ran faster compiled at once, warm and cold.
// firstCalls: what runKernel gives a dispatch whose engine the caller did not choose (Program
// firstCalls): with fewer waves than this, each op runs its reference handler for its first
// firstCalls calls and no block starts at a PC visited fewer times. A kernel of a few waves, each op
// run a few times, took twice as long fresh on the fast engine as on the interpreter (binding and
// compiling specialised handlers and blocks it then barely ran); with more waves, the first ones
// on the (cold) reference handlers cost more than they saved (conv2d, transpose 1.1-1.3x).
export const tiering = { minBytes: 45000, visitsPerByteOp: 25, probeBytes: 20000, firstCalls: 64 };

/** DispatchConfig.firstCalls for a run whose caller chose `engine` (runKernel, split runs): tiering.firstCalls when it chose none. */
export function firstCallsFor(engine: Engine | undefined): number {
  return engine === undefined ? tiering.firstCalls : 0;
}

/**
 * The dispatch this thread is running (dispatch.ts sets both): its waves (Infinity when unknown)
 * and how many it has launched so far. A straight block (no loop, no branch target) is reached
 * about once per wave, so one whose wait is longer than the dispatch never pays for compiling in
 * it: it waits too, whatever its size (a 0.3 M wave-instruction conv2d of 2048 waves ran its four
 * 12-41 KB blocks as unoptimised functions for most of the run: 25% more CPU than stepping them).
 * Such a block that is reached more often than waves were launched is inside a loop after all
 * (a loop body of several blocks, not all branch targets: matmul_tiled's tile loop), or in a
 * later dispatch (unless its source is large: Waiting.costly): it is compiled then.
 */
export const tierDispatch = { waves: Infinity, launched: 0, epoch: 0 };

/**
 * Waiting straight blocks (short dispatch, or at least minBytes of source): the wait they were
 * given. One reached more often than waves were launched is inside a loop and is compiled then,
 * whatever its size: matmul_tiled's unrolled tile loop (a 48-op block after the s_barrier, over
 * minBytes since the f32 midpoint test) was stepped for 1.25 M of the run's 2.37 M
 * wave-instructions, while reduce_1bar's large straight blocks (one wave of each group reaches
 * them) still wait.
 */
interface Waiting {
  readonly wait: number;
  /**
   * At least probeBytes of source: only its visits in this dispatch tell a loop. A smaller block
   * visited more often over the dispatches so far than this one has launched waves is compiled
   * (cheap to compile, and likely as hot again); a large one compiled at the start of reduce_1bar's
   * second dispatch ran unoptimised through it (warm dispatch 0.15 -> 0.5 s).
   */
  readonly costly: boolean;
  /** The dispatch (tierDispatch.epoch) its visits are counted from, and its heat then. */
  epoch: number;
  h0: number;
  /**
   * A probe (see PROBE): the rule's own wait, which the dispatch's waves were taken to cover, and
   * the waves launched and the dispatch at the block's first visit.
   */
  readonly probe?: { readonly wait: number; readonly launched0: number; readonly epoch0: number };
}

/**
 * A block whose wait the dispatch's waves cover (one visit a wave) is not compiled at its first
 * visit but after PROBE visits, when the waves launched meanwhile say how often it is reached: a
 * block only some waves reach (reduce_1bar's 22-33 KB blocks after its barrier, one wave of each
 * group of eight) would not be visited its wait's worth, and compiled at once it ran as an
 * unoptimised function while V8 spent 0.74 s of TurboFan on it, where stepping through the shared
 * handlers (fast-registry.ts liftNumbers) costs about what the compiled block does. The projection
 * is the visits so far over the waves launched since the first, times the waves left.
 */
export const PROBE = 32;
const waiting = new WeakMap<Block, Waiting>();

/** Heat is an Int32Array: a longer wait (a test's visitsPerByteOp of 1e9) waits this long. */
const HEAT_MAX = 0x7fffffff;

/**
 * What compiling `b` saves a visit, in ops stepped: a translated op stepped through its handler
 * costs WASM_GAIN times what stepping an inlined JavaScript op does over its compiled form (conv2d
 * 256x256 warm: 0.26 us an op stepped against translated, where the rule's 0.1 us an op was
 * measured for JavaScript blocks).
 */
const WASM_GAIN = 2.5;
function gain(b: Block): number {
  return b.n + (WASM_GAIN - 1) * b.translated;
}

/** The rule's wait for `b` from its source length (0: none: a small block in a long enough dispatch). */
function ruleWait(b: Block): { readonly wait: number; readonly own: number; readonly costly: boolean } {
  const n = b.srcLen;
  const wait = Math.round(n * tiering.visitsPerByteOp / gain(b));
  const big = n >= tiering.minBytes;
  return { wait: !big && wait <= tierDispatch.waves ? 0 : wait, own: wait, costly: n >= tiering.probeBytes };
}

function visitsBefore(b: Block, loop: boolean): number {
  if (loop) return 0;
  const { wait, own, costly } = ruleWait(b);
  if (wait === 0 && own > PROBE && costly && tierDispatch.waves !== Infinity) {
    waiting.set(b, { wait: PROBE, costly, epoch: tierDispatch.epoch, h0: PROBE, probe: { wait: own, launched0: tierDispatch.launched, epoch0: tierDispatch.epoch } });
    return PROBE;
  }
  if (wait > 0) waiting.set(b, { wait, costly, epoch: tierDispatch.epoch, h0: wait });
  return wait;
}

/**
 * A probed block at its PROBE-th visit (program.heat 0): whether it runs compiled now (its visits
 * projected over the dispatch cover its own wait), else it waits the rest of that wait as any block.
 */
function probed(program: Program, i: number, b: Block, sw: Waiting): boolean {
  const p = sw.probe!;
  waiting.delete(b);
  // Probed over two dispatches (a kept Program): fewer visits in the first than PROBE, it waits.
  if (p.epoch0 === tierDispatch.epoch) {
    const seen = Math.max(1, tierDispatch.launched - p.launched0);
    const projected = PROBE + (PROBE / seen) * (tierDispatch.waves - tierDispatch.launched);
    if (projected >= p.wait) return true;
  }
  const left = p.wait - PROBE;
  waiting.set(b, { wait: p.wait, costly: sw.costly, epoch: sw.epoch, h0: sw.h0 + left });
  program.heat[i] = Math.min(left, HEAT_MAX);
  return false;
}

/** Whether a waiting block with `h` visits still to wait was reached more often than waves were launched. */
function inLoop(sw: Waiting, h: number): boolean {
  if (sw.epoch !== tierDispatch.epoch) {
    sw.epoch = tierDispatch.epoch;
    sw.h0 = h;
  }
  // A pending block learns whether it is costly only when settled.
  return (sw.costly ? sw.h0 - h : sw.wait - h) > tierDispatch.launched;
}

/**
 * A pending block (its source not made: it waited a provisional wait, the least any source of its
 * size would give it) whose wait is over, `h` visits still to wait on it (0: none): its source is
 * made now, and the wait the rule gives it from its real length takes over, less the visits it
 * already had (its heat is set to what is left). Returns whether it runs compiled now.
 */
function settle(program: Program, i: number, b: Block, sw: Waiting, h: number): boolean {
  makePlan(b);
  const { wait, costly } = ruleWait(b);
  if (wait === 0) return true;
  const shift = wait - sw.wait;
  const real: Waiting = { wait, costly, epoch: sw.epoch, h0: sw.h0 + shift };
  waiting.set(b, real);
  const left = h + shift;
  if (left <= 0 || inLoop(real, left)) return true;
  program.heat[i] = Math.min(left, HEAT_MAX);
  return false;
}

/**
 * The ops of a waiting block stepped after its start: their visits are not counted (each cut
 * turn would otherwise count every PC to the block's end) and build nothing. `pc` is the next op
 * expected, `k` its index in `block`; -1: none.
 */
class Skip {
  program: Program | null = null;
  block: Block | null = null;
  pc = -1;
  k = 0;
}
const skip = new Skip();

function stepThrough(program: Program, b: Block, pc: number): null {
  if (b.n > 1) {
    skip.program = program;
    skip.block = b;
    skip.k = 1;
    skip.pc = pc + b.ops[0]!.size;
  }
  return null;
}

/**
 * The op at which the block hotBlockAt returned is entered (0 but for a suffix). An instance of a
 * class of its own, as `skip` is: an object literal shares its hidden class with every literal of
 * the same keys, and the first string `k` of simd-int.ts's `{ k }` values (the hot re-translation,
 * mid-dispatch) generalised the field and threw away the scheduler's optimised `pass` and
 * `hotBlockAt` (V8's "code dependencies" deopt) in every fresh matmul_tiled run.
 */
class HotEntry {
  k = 0;
}
export const hotEntry = new HotEntry();

/** Counts of this thread: waves that entered a compiled block mid-way (tests). */
export const tierStats = { entered: 0 };

/**
 * The compiled block to run at `pc` (entered at op `hotEntry.k`), or null when the op there is to
 * be stepped one by one: no block can start there (block.ts blockAt), or it is not hot yet (this
 * counts the visit).
 */
export function hotBlockAt(program: Program, pc: number): Block | null {
  if (pc === skip.pc && program === skip.program) {
    const b = skip.block!;
    const k = skip.k;
    if (k + 1 < b.n) {
      skip.pc = pc + b.ops[k]!.size;
      skip.k = k + 1;
    } else skip.pc = -1;
    return null;
  }
  const i = (pc - program.base) / 4;
  const heat = program.heat;
  if (program.interior[i] === 1) {
    // A suffix: the block it is inside, entered there once that block runs compiled.
    const o = program.owner[i]! - 1;
    const ob = program.blocks[o]!;
    const k = program.entry[i]!;
    if (heat[o] === 0 && !ob.pending) {
      // Inside a fused lane loop: stepped up to the run's end, where the wave enters.
      if (ob.enter[k] === 0) return null;
      hotEntry.k = k;
      tierStats.entered++;
      return ob;
    }
    if (k + 1 < ob.n) {
      skip.program = program;
      skip.block = ob;
      skip.k = k + 1;
      skip.pc = pc + ob.ops[k]!.size;
    }
    return null;
  }
  hotEntry.k = 0;
  const b = program.blocks[i];
  // A block that ran compiled runs compiled from then on: no lookup of its wait.
  if (b !== undefined && b.ready) return b;
  const h = heat[i];
  if (h !== undefined && h > 0 && b !== undefined) {
    const sw = waiting.get(b);
    if (sw !== undefined && inLoop(sw, h) && (!b.pending || settle(program, i, b, sw, h))) {
      heat[i] = 0;
      return b;
    }
    heat[i] = heat[i]! - 1;
    return stepThrough(program, b, pc);
  }
  if (b !== undefined) {
    const sw = waiting.get(b);
    if (sw?.probe !== undefined ? probed(program, i, b, sw) : !b.pending || settle(program, i, b, sw!, 0)) {
      b.ready = true;
      return b;
    }
    heat[i] = heat[i]! - 1;
    return stepThrough(program, b, pc);
  }
  // No block starts at a PC visited fewer than Program.firstCalls times (its ops run their
  // reference handlers meanwhile: Program `cold`), unless visited more often than waves were
  // launched: in a loop.
  const seen = program.seen;
  const v = seen[i]!;
  if (v + 1 < program.firstCalls && v < tierDispatch.launched) {
    seen[i] = v + 1;
    return null;
  }
  const nb = blockShellAt(program, pc);
  if (nb === null) return null;
  markInterior(program, i, nb);
  const loop = nb.loop || program.interior[i] === 2;
  if (nb.pending) {
    // A straight block whose source, however short, would make it wait longer than this dispatch
    // has waves (its srcLen is a lower bound while pending) waits that least wait with no source made yet.
    const least = Math.round((nb.srcLen * tiering.visitsPerByteOp) / gain(nb));
    if (tiering.minBytes !== Infinity && !loop && least > tierDispatch.waves) {
      waiting.set(nb, { wait: least, costly: false, epoch: tierDispatch.epoch, h0: least });
      heat[i] = Math.min(least - 1, HEAT_MAX);
      return stepThrough(program, nb, pc);
    }
    makePlan(nb);
  }
  const wait = tiering.minBytes === Infinity ? 0 : visitsBefore(nb, loop);
  if (wait === 0) return nb;
  heat[i] = Math.min(wait - 1, HEAT_MAX);
  return stepThrough(program, nb, pc);
}

/**
 * The PCs inside `b` (built at index `i`) are suffix starts, entered in `b`, unless some branch
 * targets them or a block starts there. A PC inside two blocks is entered in the one starting
 * later (a loop body built at its head after the preheader's block ran into it: the loop body runs
 * compiled, the straight preheader may wait). Branch targets are marked 2.
 */
function markInterior(program: Program, i: number, b: Block): void {
  const interior = program.interior;
  for (let k = 0, p = i; k < b.n; k++) {
    const op = b.ops[k]!;
    if (k > 0 && program.blocks[p] === undefined && (interior[p] === 0 || (interior[p] === 1 && program.owner[p]! - 1 < i))) {
      interior[p] = 1;
      program.owner[p] = i + 1;
      program.entry[p] = k;
    }
    p += op.size >>> 2;
    const off = op.cls === 'branch' ? op.inst.fields['simm16'] : undefined;
    if (off !== undefined) {
      const t = p + ((off << 16) >> 16);
      if (t >= 0 && t < interior.length) interior[t] = 2;
    }
  }
}
