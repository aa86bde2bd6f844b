/**
 * The RDNA3 suite over several whole runs (bench/README, "Sixth session"): one run of the suite
 * on this machine decides nothing (its speed drifts by 1.5x in phases, machine-probe.ts), so this
 * runs `node dist/bench/run.js rdna3 --json` N times, each in a fresh process, and prints per
 * case the median and range over the runs of the one-thread rate and of the two-thread figures.
 *   node dist/bench/steady.js [--runs N] [kernel]
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { median } from './machine-probe.js';
import type { BenchResult } from './main.js';
import { intArg } from './args.js';

const args = process.argv.slice(2);
const r = args.indexOf('--runs');
const runs = intArg(args, '--runs', 5);
const filter = args.find((a, i) => !a.startsWith('--') && (r < 0 || i !== r + 1)) ?? 'rdna3';
const runJs = join(import.meta.dirname, 'run.js');

const byRow = new Map<string, Record<string, number | string>[]>();
for (let i = 0; i < runs; i++) {
  const out = execFileSync(process.execPath, [runJs, filter, '--json'], { encoding: 'utf8', maxBuffer: 1 << 26 });
  const doc = JSON.parse(out.slice(out.indexOf('{'))) as { results: BenchResult[] };
  for (const res of doc.results) {
    if (!byRow.has(res.name)) byRow.set(res.name, []);
    byRow.get(res.name)!.push(res.figures);
  }
  process.stderr.write(`run ${i + 1}/${runs} done\n`);
}

const num = (rows: Record<string, number | string>[], k: string) => rows.map((f) => f[k]).filter((x): x is number => typeof x === 'number');
const span = (xs: number[], scale = 1, digits = 2) =>
  xs.length === 0 ? '-' : `${(median(xs) / scale).toFixed(digits)} (${(Math.min(...xs) / scale).toFixed(digits)}-${(Math.max(...xs) / scale).toFixed(digits)})`;

console.log(`${runs} runs of the ${filter} suite; median (min-max) over the runs`);
console.log('| case | 1 thread M waveInst/s | 2 threads M waveInst/s | x1thread | x1thread2core (pairs) | probe ms | probe 2x |');
console.log('|---|---|---|---|---|---|---|');
for (const [name, rows] of byRow) {
  const m = /^(.*) \[1 thread\]$/.exec(name);
  if (!m) continue;
  const two = [...byRow].find(([n]) => n.startsWith(`${m[1]} [`) && n !== name)?.[1] ?? [];
  const pairs = num(two, 'twoCorePairs').reduce((a, b) => a + b, 0);
  console.log(`| ${m[1]} | ${span(num(rows, 'waveInst/s'), 1e6)} | ${span(num(two, 'waveInst/s'), 1e6)} | ${span(num(two, 'x1thread'))} | `
    + `${span(num(two, 'x1thread2core'))} (${pairs}) | ${span(num(two, 'probeMs'), 1, 1)} | ${span(num(two, 'probe2x'))} |`);
}
