/**
 * The benchmark driver shared by `npm run bench` (bench/run.ts) and `gpusim bench`.
 * Figures, not assertions: each suite prints its own rates.
 */
import { writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../tools/gen/run.js';

export interface BenchResult {
  readonly name: string;
  readonly figures: Record<string, number | string>;
}

const suites: { name: string; run: (filter?: string, o?: BenchOptions) => BenchResult[] | Promise<BenchResult[]> }[] = [
  // Each suite is imported when it runs, so one suite's module cannot stop the others.
  { name: 'decode', run: async () => (await import('./decode.js')).benchDecode() },
  { name: 'adreno', run: async () => (await import('./adreno.js')).benchAdreno() },
  { name: 'r600', run: async () => (await import('./r600.js')).benchR600() },
  { name: 'rdna3', run: async (f, o) => (await import('./rdna3.js')).benchRdna3(f, o?.repeats, o?.warmup) },
  // Fresh processes per case, engine fast and interp alternating: cold and warm side by side (bench/cold.ts).
  { name: 'cold', run: async (f) => (await import('./cold.js')).benchCold(f) },
  { name: 'draw', run: async () => (await import('./draw.js')).benchDraw() },
];

export interface BenchOptions {
  readonly json?: boolean;
  readonly save?: boolean;
  /** A suite name, or a kernel name of the rdna3 suite. */
  readonly filter?: string;
  /** Timed repeats of each rdna3 case after its cold run (default rdna3.ts REPEATS). */
  readonly repeats?: number;
  /** Untimed runs of each rdna3 case between its cold run and the repeats (default rdna3.ts WARMUP). */
  readonly warmup?: number;
  readonly out?: (s: string) => void;
}

export async function runBench(o: BenchOptions = {}): Promise<BenchResult[]> {
  const out = o.out ?? ((s: string) => void process.stdout.write(s));
  const filter = o.filter;
  const results: BenchResult[] = [];
  for (const s of suites) {
    // The rdna3 and cold suites take a kernel name as their filter.
    if (filter && !s.name.includes(filter) && s.name !== 'rdna3' && s.name !== 'cold') continue;
    let rs: BenchResult[];
    try {
      rs = await s.run(filter && !s.name.includes(filter) ? filter : undefined, o);
    } catch (e) {
      rs = [{ name: s.name, figures: { error: (e as Error).message.split('\n')[0]! } }];
    }
    for (const r of rs) {
      results.push(r);
      if (!o.json) out(`${r.name}: ${Object.entries(r.figures).map(([k, v]) => `${k}=${typeof v === 'number' ? fmt(v) : v}`).join('  ')}\n`);
    }
  }
  const doc = { node: process.version, date: new Date().toISOString(), results };
  if (o.json) out(JSON.stringify(doc, null, 1) + '\n');
  if (o.save) {
    const dir = join(ROOT, 'bench/results');
    mkdirSync(dir, { recursive: true });
    const file = join(dir, `${new Date().toISOString().slice(0, 10)}.json`);
    writeFileSync(file, JSON.stringify(doc, null, 1) + '\n');
    if (!o.json) out(`saved ${file}\n`);
  }
  return results;
}

function fmt(v: number): string {
  if (Math.abs(v) >= 1e6) return (v / 1e6).toFixed(2) + 'M';
  if (Math.abs(v) >= 1e3) return (v / 1e3).toFixed(1) + 'k';
  return Number.isInteger(v) ? String(v) : v.toFixed(3);
}
