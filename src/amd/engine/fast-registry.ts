/**
 * The fast engine's binding table (ExecEnv.engine 'fast'). A fast binder sees the decoded
 * instruction and the reference interpreter's Bound for it, and returns a specialised Bound for
 * the operand forms it handles exactly, or undefined (the interpreter's handler is used). Fast
 * handlers hand the instruction back to `ref.run` whenever a run-time condition they do not model
 * holds (a MODE setting, a NaN result), before writing anything, so results, masks, counters and
 * diagnostics are the interpreter's bit for bit (test/amd/engine-diff.test.ts compares them).
 *
 * Instructions whose reference binding made findings (out-of-range VGPRs, misaligned SGPR pairs,
 * bank conflicts...) always stay with the interpreter.
 */
import type { Instruction } from '../isa/types.js';
import { GFX10_SPACE, GFX11_SPACE } from '../isa/operands.js';
import type { ExecEnv } from './env.js';
import { baseMnemonic, type Bound, type Inline } from './registry.js';
import type { Wave } from '../wave/wave.js';
import { renderHandler, type Code } from './code.js';

export type FastBinder = (inst: Instruction, env: ExecEnv, ref: Bound) => Bound | undefined;

const table = new Map<string, FastBinder>();

/** Register a fast binder for base mnemonics (without encoding suffixes). */
export function fastDefine(names: string | readonly string[], binder: FastBinder): void {
  for (const n of typeof names === 'string' ? [names] : names) {
    if (table.has(n)) throw new Error(`fast semantics for ${n} defined twice`);
    table.set(n, binder);
  }
}

/**
 * The fast Bound for `inst`, or undefined. Only the GFX10.3/GFX11 operand space: the fast
 * handlers index the scalar file by those encodings (GFX9 places M0 and the TTMPs elsewhere).
 */
export function bindFast(inst: Instruction, env: ExecEnv, ref: Bound): Bound | undefined {
  if (env.engine === 'interp') return undefined;
  if (ref.findings !== undefined && ref.findings.length > 0) return undefined;
  if (env.space !== GFX11_SPACE && env.space !== GFX10_SPACE) return undefined;
  const b = table.get(baseMnemonic(inst.mnemonic))?.(inst, env, ref);
  if (b) markFast(b.run);
  return b;
}

/**
 * Handlers of the fast engine (ALU binders above and the memory fast paths, which live inside their
 * families' binders): the coverage report (bench/fast-coverage.ts) tells them from reference ones.
 */
const fastRuns = new WeakSet<object>();
export function markFast<F extends object>(run: F): F {
  fastRuns.add(run);
  return run;
}
export function isFast(run: object): boolean {
  return fastRuns.has(run);
}

/** Base mnemonics with a fast binder (for coverage reports and the fuzz test). */
export function fastImplemented(): string[] {
  return [...table.keys()].sort();
}

/**
 * Compile a generated handler body once per distinct source text. The factory receives `ref`
 * (the reference handler) and the shared helpers, and returns the handler; closures made by one
 * factory share their optimised code.
 */
const factories = new Map<string, (...args: unknown[]) => (w: unknown) => void>();
export function compile(params: readonly string[], body: string): (...args: unknown[]) => (w: unknown) => void {
  const key = params.join(',') + '\n' + body;
  let f = factories.get(key);
  if (!f) {
    f = new Function(...params, body) as (...args: unknown[]) => (w: unknown) => void;
    factories.set(key, f);
  }
  return f;
}

/**
 * A generated handler from its code (code.ts): `params` are the free names the code uses (the
 * generator declares them), bound to `args`. The Inline carries the same code for a basic block.
 */
export function generated(name: string, code: Code, params: readonly string[], args: readonly unknown[], more: { readonly movesPc?: boolean; readonly lane?: object } = {}): { run: (w: Wave) => void; inline: Inline } {
  const body = renderHandler(code);
  const factory = compile(params, `return function ${name}(w) {\n${body}\n};`);
  const run = factory(...args) as (w: Wave) => void;
  return { run, inline: { run, code, params, args, key: `${params.join(',')}\n${body}`, ...more } };
}
