/**
 * Two builds side by side in one process (bench/README, "Comparing two builds"): this tree and
 * another checkout's built tree (its `dist/`), each running a manifest's dispatch, alternating,
 * after warm-up, so that a machine whose load drifts (shared 2-vCPU VMs: fresh figures swing by
 * 20% from one minute to the next) slows both alike. Prints both medians and the median of the
 * per-pair ratios (this build's time over the other's; below 1: this one is faster). Run it with
 * the two roles swapped too: a ratio that does not invert is the order, not the change.
 *   node dist/bench/ab.js OTHER_ROOT MANIFEST [--pairs N] [--warmup N]
 * Each tree keeps its own modules, heap and caches (different paths: different module records).
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { median } from './machine-probe.js';
import { intArg } from './args.js';
import { loadManifest } from '../src/runtime/manifest.js';
import { runManifest } from '../src/runtime/run.js';

const args = process.argv.slice(2);
const positional = args.filter((a, i) => !a.startsWith('--') && !args[i - 1]?.startsWith('--'));
if (positional.length !== 2) {
  console.error('usage: node dist/bench/ab.js OTHER_ROOT MANIFEST [--pairs N] [--warmup N]');
  process.exit(2);
}
const [otherRoot, manifest] = positional as [string, string];
const pairs = intArg(args, '--pairs', 12);
const warmup = intArg(args, '--warmup', 3);

type Run = () => number;
const timed = (f: () => unknown): Run => () => {
  const t0 = performance.now();
  f();
  return performance.now() - t0;
};
const m = loadManifest(manifest);
const mine = timed(() => runManifest(m, {}));
const url = (p: string) => pathToFileURL(resolve(otherRoot, 'dist/src/runtime', p)).href;
const other = (await import(url('manifest.js'))) as { loadManifest: typeof loadManifest };
const otherRun = (await import(url('run.js'))) as { runManifest: typeof runManifest };
const om = other.loadManifest(manifest);
const theirs = timed(() => otherRun.runManifest(om, {}));

for (let i = 0; i < warmup; i++) {
  mine();
  theirs();
}
const a: number[] = [], b: number[] = [], q: number[] = [];
for (let i = 0; i < pairs; i++) {
  const x = theirs(), y = mine();
  a.push(x);
  b.push(y);
  q.push(y / x);
}
const ms = (xs: number[]) => `median ${median(xs).toFixed(1)} ms (min ${Math.min(...xs).toFixed(1)})`;
console.log(`other (${otherRoot}): ${ms(a)}`);
console.log(`this build: ${ms(b)}`);
console.log(`this / other, median of ${pairs} pairs: ${median(q).toFixed(3)}`);
