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
 * The numbers of a handler's statements lifted out: each number the generators write as a register
 * index or row offset (`[N]`, `[N + name]`), as a call's last argument (`, N)`: a destination row),
 * as a value assigned or added (` = N`, ` += N`, ` + N` before `,`, `;` or `)`: literal sources,
 * immediate offsets, branch offsets) becomes the parameter `$k<i>`, its value `values[i]`.
 * Replacing a number in expression position by a variable holding it changes nothing the
 * statements compute. Handlers of ops that differ only in their registers, literals or offsets
 * then have one source: V8 compiles and optimises it once for all of them. A fresh conv2d 256x256
 * bound 105 distinct handler sources of 40 shapes; each was a function of its own to warm up
 * (run in V8's interpreter until its optimising compile came through a queue shared with the
 * rest), and the dispatch's first 20 K wave-instructions took longer than the interpreter
 * engine's (docs/speed.md).
 */
const LIFTED = /\[(\d+)( \+ [A-Za-z_]\w*)?\]|(, )(\d+)\)|( = | \+= | \+ )(-?\d+)([,;)])/g;
export function liftNumbers(body: string): { shape: string; values: number[] } {
  const values: number[] = [];
  const shape = body.replace(LIFTED, (_m, ix?: string, lane?: string, comma?: string, row?: string, op?: string, n?: string, end?: string) => {
    const k = `$k${values.length}`;
    if (ix !== undefined) {
      values.push(Number(ix));
      return `[${k}${lane ?? ''}]`;
    }
    if (row !== undefined) {
      values.push(Number(row));
      return `${comma!}${k})`;
    }
    values.push(Number(n));
    return `${op!}${k}${end!}`;
  });
  return { shape, values };
}

/**
 * A generated handler from its code (code.ts): `params` are the free names the code uses (the
 * generator declares them), bound to `args`. The handler runs its statements' shape (liftNumbers),
 * shared with every op of that shape; the Inline carries the code itself, numbers in place, for a
 * basic block.
 *
 * The handler function is made when it first runs (`run` makes it; Program.peek then puts it in
 * the op's place: see `handlerMaker`): in a fast dispatch most ops only ever run inside translated
 * or compiled blocks, and lifting the numbers and compiling the shape for each (~10 ms of a fresh
 * conv2d 256x256's ~200 ms dispatch) went for handlers that never ran.
 */
export function generated(name: string, code: Code, params: readonly string[], args: readonly unknown[], more: { readonly movesPc?: boolean; readonly lane?: object } = {}): { run: (w: Wave) => void; inline: Inline } {
  const body = renderHandler(code);
  let real: ((w: Wave) => void) | null = null;
  const make = (): ((w: Wave) => void) => {
    if (real === null) {
      const { shape, values } = liftNumbers(body);
      const factory = compile([...params, ...values.map((_, i) => `$k${i}`)], `return function ${name}(w) {\n${shape}\n};`);
      real = markFast(factory(...args, ...values) as (w: Wave) => void);
    }
    return real;
  };
  const run = (w: Wave): void => make()(w);
  makers.set(run, make);
  return { run, inline: { run, code, params, args, key: `${params.join(',')}\n${body}`, ...more } };
}

/** The makers of `generated`'s handlers, by the `run` that stands for each until it is made. */
const makers = new WeakMap<object, () => (w: Wave) => void>();

/** For a `run` of `generated`: what makes (once) the handler it stands for; else undefined. */
export function handlerMaker(run: object): (() => (w: Wave) => void) | undefined {
  return makers.get(run);
}

/** The handler `run` runs: the generated function itself for a `run` of `generated` (made now if not yet). */
export function handlerOf(run: (w: Wave) => void): (w: Wave) => void {
  return makers.get(run)?.() ?? run;
}
