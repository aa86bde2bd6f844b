/**
 * Two fresh `gpusim run`s side by side (bench/README, "Comparing two builds"): what a user's run
 * costs, which bench/ab.ts (one process, warm) does not show. Each round runs `gpusim run MANIFEST
 * --json` as two new processes, A then B or B then A (the order flips every round: on a shared VM
 * the first of two back-to-back processes often runs faster), and reads their `timing`. Prints the
 * medians of both and the geometric mean of the per-round ratios B / A of the dispatch's wall time,
 * the main thread's CPU time and the whole process's wall time (below 1: B is faster).
 *
 *   node dist/bench/fresh-ab.js MANIFEST [--a ROOT] [--b ROOT] [--a-args "..."] [--b-args "..."] [--rounds N]
 *
 * A and B are built trees (this one by default; another checkout, e.g. a `git worktree` of the
 * baseline commit, built) with extra `run` arguments each (e.g. --a-args "--engine interp" to
 * measure the default engine against the interpreter, or --b-args "--threads 2"). Each tree keeps
 * its own V8 code cache (runtime/code-cache-node.ts) in a directory of its own under the system's
 * temporary directory, primed by one untimed run: a cache shared by two builds would be rewritten by
 * every run (each build removes the other's).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { alternating, median } from './machine-probe.js';
import { intArg } from './args.js';

const args = process.argv.slice(2);
const valueOf = (key: string): string | undefined => {
  const i = args.indexOf(key);
  return i >= 0 ? args[i + 1] : undefined;
};
const keyed = new Set(['--a', '--b', '--a-args', '--b-args', '--rounds']);
const positional = args.filter((a, i) => !keyed.has(a) && !keyed.has(args[i - 1] ?? ''));
if (positional.length !== 1) {
  console.error('usage: node dist/bench/fresh-ab.js MANIFEST [--a ROOT] [--b ROOT] [--a-args "..."] [--b-args "..."] [--rounds N]');
  process.exit(2);
}
const manifest = resolve(positional[0]!);
const here = resolve(fileURLToPath(import.meta.url), '..', '..', '..');
const rounds = intArg(args, '--rounds', 8);

interface Side {
  readonly name: string;
  readonly root: string;
  readonly extra: readonly string[];
  readonly cache: string;
}
const side = (k: 'a' | 'b'): Side => {
  const root = resolve(valueOf(`--${k}`) ?? here);
  const extra = (valueOf(`--${k}-args`) ?? '').split(' ').filter(Boolean);
  return { name: k.toUpperCase(), root, extra, cache: mkdtempSync(join(tmpdir(), `gpusim-fresh-ab-${k}-`)) };
};
const a = side('a');
const b = side('b');

interface Timing {
  readonly dispatchMs: number;
  readonly processMs: number;
  readonly cpuMs: { readonly mainThread: number };
}
function run(s: Side): Timing {
  const out = execFileSync(process.execPath, [join(s.root, 'bin', 'gpusim.cjs'), 'run', manifest, '--json', ...s.extra], {
    maxBuffer: 1 << 28, env: { ...process.env, XDG_CACHE_HOME: s.cache }, stdio: ['ignore', 'pipe', 'inherit'],
  });
  return (JSON.parse(out.toString()) as { timing: Timing }).timing;
}

const gmean = (xs: readonly number[]) => Math.exp(xs.reduce((t, x) => t + Math.log(x), 0) / xs.length);
try {
  // Each build's code cache written (and its bundle read once) before anything is timed.
  run(a);
  run(b);
  const { a: ta, b: tb } = alternating(rounds, () => run(a), () => run(b));
  const show = (s: Side, t: readonly Timing[]) =>
    `${s.name} ${s.root}${s.extra.length ? ` [${s.extra.join(' ')}]` : ''}: dispatch median ${median(t.map((x) => x.dispatchMs)).toFixed(1)} ms, process ${median(t.map((x) => x.processMs)).toFixed(1)} ms`;
  console.log(show(a, ta));
  console.log(show(b, tb));
  const ratio = (f: (t: Timing) => number) => gmean(ta.map((x, i) => f(tb[i]!) / f(x))).toFixed(3);
  console.log(`B / A over ${rounds} rounds (geometric mean): dispatch ${ratio((t) => t.dispatchMs)}, main-thread CPU ${ratio((t) => t.cpuMs.mainThread)}, process ${ratio((t) => t.processMs)}`);
} finally {
  rmSync(a.cache, { recursive: true, force: true });
  rmSync(b.cache, { recursive: true, force: true });
}
