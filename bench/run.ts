/**
 * gpusim benchmarks (`npm run bench`). Figures, not assertions: each suite prints its own rates.
 *   node dist/bench/run.js [--json] [--save] [filter]
 */
import { writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../tools/gen/run.js';

export interface BenchResult {
  readonly name: string;
  readonly figures: Record<string, number | string>;
}

const suites: { name: string; run: (filter?: string) => BenchResult[] | Promise<BenchResult[]> }[] = [
  // Each suite is imported when it runs, so one suite's module cannot stop the others.
  { name: 'decode', run: async () => (await import('./decode.js')).benchDecode() },
  { name: 'adreno', run: async () => (await import('./adreno.js')).benchAdreno() },
  { name: 'rdna3', run: async (f) => (await import('./rdna3.js')).benchRdna3(f) },
];

const args = process.argv.slice(2);
const json = args.includes('--json');
const save = args.includes('--save');
const filter = args.find((a) => !a.startsWith('--'));
const results: BenchResult[] = [];
for (const s of suites) {
  // A filter names a suite, or (rdna3) a kernel of it.
  if (filter && !s.name.includes(filter) && s.name !== 'rdna3') continue;
  for (const r of await s.run(filter && !s.name.includes(filter) ? filter : undefined)) {
    results.push(r);
    if (!json) console.log(`${r.name}: ${Object.entries(r.figures).map(([k, v]) => `${k}=${typeof v === 'number' ? fmt(v) : v}`).join('  ')}`);
  }
}
if (json) console.log(JSON.stringify({ node: process.version, results }, null, 1));
if (save) {
  const dir = join(ROOT, 'bench/results');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${new Date().toISOString().slice(0, 10)}.json`);
  writeFileSync(file, JSON.stringify({ node: process.version, results }, null, 1) + '\n');
  console.log(`saved ${file}`);
}

function fmt(v: number): string {
  if (Math.abs(v) >= 1e6) return (v / 1e6).toFixed(2) + 'M';
  if (Math.abs(v) >= 1e3) return (v / 1e3).toFixed(1) + 'k';
  return Number.isInteger(v) ? String(v) : v.toFixed(3);
}
