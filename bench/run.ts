/**
 * gpusim benchmarks (`npm run bench`), the same as `gpusim bench`:
 *   node dist/bench/run.js [--json] [--save] [--repeats N] [--warmup N] [suite-or-kernel]
 * --save writes bench/results/<date>.json; --repeats sets the timed repeats of each rdna3 case,
 * --warmup the untimed runs before them.
 */
import { runBench } from './main.js';

export type { BenchResult } from './main.js';

const args = process.argv.slice(2);
/** The whole-number value after `flag`, undefined without the flag; exits on a bad value. */
function count(flag: string): number | undefined {
  const i = args.indexOf(flag);
  if (i < 0) return undefined;
  const n = Number(args[i + 1]);
  if (!(Number.isInteger(n) && n >= 0)) {
    process.stderr.write(`${flag} needs a whole number, got '${args[i + 1] ?? ''}'\n`);
    process.exit(2);
  }
  return n;
}
const repeats = count('--repeats');
const warmup = count('--warmup');
const values = new Set(['--repeats', '--warmup'].map((f) => args.indexOf(f) + 1).filter((i) => i > 0));
const filter = args.find((a, i) => !a.startsWith('--') && !values.has(i));
await runBench({
  json: args.includes('--json'), save: args.includes('--save'), ...(filter ? { filter } : {}),
  ...(repeats !== undefined ? { repeats } : {}), ...(warmup !== undefined ? { warmup } : {}),
});
