/**
 * The semantics table: base mnemonic -> binder. A binder runs once per decoded instruction (at
 * its first execution) and returns the handler that runs every time; operand decoding happens
 * in the binder, never in the handler. Families (salu.ts, valu.ts, ...) fill the table by calling
 * `define` at import time; semantics.ts imports them all.
 */
import type { Instruction } from '../isa/types.js';
import type { ExecEnv } from './env.js';
import type { InstClass, Run } from './program.js';

/** A rule broken by the instruction itself (known at bind time), reported at its first execution. */
export interface Finding {
  readonly id: string;
  readonly message: string;
  readonly severity?: 'error' | 'warning';
}

export interface Bound {
  readonly run: Run;
  readonly cls: InstClass;
  readonly findings?: readonly Finding[];
  /** The handler's source, for a basic block to inline (block.ts); absent: the block calls `run`. */
  readonly inline?: Inline;
}

/**
 * A generated handler's source: `body` is the statement list of `function (w) { body }` with
 * `params` free (bound to `args`). Its only returns are `return ref(w);`, which hand the
 * instruction to the reference handler before anything was written; `ref` is one of `params`.
 */
export interface Inline {
  /** The handler this is the source of (a wrapper that replaces `run` invalidates the source). */
  readonly run: Run;
  readonly body: string;
  readonly params: readonly string[];
  readonly args: readonly unknown[];
  /**
   * An integer VALU op's structured form (fast-valu.ts `LaneOp`): a basic block runs a straight run
   * of such ops in one lane loop (fast-valu.ts `fuseLanes`).
   */
  readonly lane?: object;
}

export type Binder = (inst: Instruction, env: ExecEnv) => Bound;

const table = new Map<string, Binder>();

/** Register semantics for one or more base mnemonics (without _e32/_e64/_dpp suffixes). */
export function define(names: string | readonly string[], binder: Binder): void {
  for (const n of typeof names === 'string' ? [names] : names) {
    if (table.has(n)) throw new Error(`semantics for ${n} defined twice`);
    table.set(n, binder);
  }
}

/** The mnemonic without its encoding suffix: v_add_f32_e64_dpp -> v_add_f32. */
export function baseMnemonic(m: string): string {
  return m.replace(/_(e32|e64|dpp|sdwa|e64_dpp)$/, '').replace(/_e64$/, '');
}

export function lookup(mnemonic: string): Binder | undefined {
  return table.get(baseMnemonic(mnemonic));
}

/** Every mnemonic with semantics (for coverage reports). */
export function implemented(): string[] {
  return [...table.keys()].sort();
}
