/**
 * A basic block's shape (block.ts builds and compiles it; Program keeps it by start index). A leaf
 * module besides the wait-counter sanitizer's type, so program.ts needs no import of block.ts.
 */
import type { Wave } from '../wave/wave.js';
import type { Op } from './types.js';
import type { WaitcntSanitizer } from './waitcnt.js';

/** The model clock the dispatch owns (ExecEnv.now() reads `t`). */
export interface Clock {
  t: number;
}

/**
 * Runs at most `lim` (>= 1) ops of the block on `w`; returns how many ran: `min(n, lim)` unless the
 * wave stopped or left the block earlier. A loop body (`Block.loop`) translated whole may run on
 * after its back branch while `lim` allows (lim > n then counts ops across trips): it returns
 * T n + d for T back branches taken and d ops of the trip after them (d = 0: the wave is at the
 * block's start again).
 */
export type BlockRun = (w: Wave, clk: Clock, wc: WaitcntSanitizer | null, lim: number) => number;

/**
 * The generated function of a block: BlockRun plus the block's ops and its bound values (`Block.ops`,
 * `Block.args`) and the op to enter at, `e` (0; a wave resuming mid-block enters there: then `lim`
 * and the result count from op 0, i.e. it runs ops [e, min(n, lim)) and returns where it stopped).
 * One function per distinct source text, shared by every Program whose block has that
 * text and kept for the life of the process: nothing of a Program lives in it, so its optimised code
 * outlives the Program. (Closures over a Program's values died with it and V8, which holds optimised
 * code weakly, dropped their code at the next full GC: every later dispatch of the same kernel ran
 * cold again; measured 3x on matmul and 8x on reduce_1bar with a GC between runs.)
 */
export type BlockFn = (w: Wave, clk: Clock, wc: WaitcntSanitizer | null, lim: number, ops: readonly Op[], args: readonly unknown[], e: number) => number;

export interface Block {
  /** Number of ops. */
  readonly n: number;
  /** The PC of its first op, and whether its last op branches back there (a loop body). */
  readonly pc: number;
  readonly loop: boolean;
  /** By op index: 1 where a wave may enter the block (not inside a fused lane loop). */
  enter: Uint8Array;
  readonly ops: readonly Op[];
  /**
   * Runs of ops [e, end) not yet added to the run statistics, as differences (runs[e]++,
   * runs[end]--: n + 1 entries), and the scheduler they belong to (sq/scheduler.ts adds them when
   * its counts are read).
   */
  readonly runs: Int32Array;
  counter: object | null;
  /**
   * Hot callers use `fn(w, clk, wc, lim, ops, args, e)`; `run` binds them with e = 0 (a closure of
   * this Program's). Until the block first runs, a stand-in that makes the function (block.ts).
   */
  fn: BlockFn;
  /**
   * Length of the function's source text (tier.ts weighs compiling by it); while `pending`, a
   * lower bound (block.ts MIN_SRC_PER_OP).
   */
  srcLen: number;
  args: readonly unknown[];
  /**
   * Its source is not made yet (tier.ts: a block that waits whatever its source is made when its
   * wait is over; block.ts makePlan); `enter`, `srcLen`, `args`, `inlined` and `fused` are then
   * placeholders. Blocks from blockAt are never pending.
   */
  pending: boolean;
  /** It runs compiled whenever a wave reaches its start (tier.ts hotBlockAt: its wait is over). */
  ready: boolean;
  readonly run: BlockRun;
  /** Ops inlined into the generated function (the rest are called). */
  inlined: number;
  /** Runs of VALU ops the generated function runs in one lane loop each (fast-valu.ts fuseLanes). */
  fused: number;
  /** Ops in translated runs (wasm/tier.ts); while `pending`, the ops the translator takes. */
  translated: number;
}
