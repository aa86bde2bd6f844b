/**
 * gpusim benchmarks (`npm run bench`), the same as `gpusim bench`:
 *   node dist/bench/run.js [--json] [--save] [--repeats N] [suite-or-kernel]
 * --save writes bench/results/<date>.json; --repeats sets the timed repeats of each rdna3 case.
 */
import { runBench } from './main.js';

export type { BenchResult } from './main.js';

const args = process.argv.slice(2);
const r = args.indexOf('--repeats');
const repeats = r >= 0 ? Number(args[r + 1]) : undefined;
if (repeats !== undefined && !(Number.isInteger(repeats) && repeats >= 0)) {
  process.stderr.write(`--repeats needs a whole number, got '${args[r + 1] ?? ''}'\n`);
  process.exit(2);
}
const filter = args.find((a, i) => !a.startsWith('--') && (r < 0 || i !== r + 1));
await runBench({ json: args.includes('--json'), save: args.includes('--save'), ...(filter ? { filter } : {}), ...(repeats !== undefined ? { repeats } : {}) });
