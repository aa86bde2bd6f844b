/**
 * gpusim benchmarks (`npm run bench`), the same as `gpusim bench`:
 *   node dist/bench/run.js [--json] [--save] [suite-or-kernel]
 * --save writes bench/results/<date>.json.
 */
import { runBench } from './main.js';

export type { BenchResult } from './main.js';

const args = process.argv.slice(2);
const filter = args.find((a) => !a.startsWith('--'));
await runBench({ json: args.includes('--json'), save: args.includes('--save'), ...(filter ? { filter } : {}) });
