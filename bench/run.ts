/**
 * gpusim benchmarks (`npm run bench`): `gpusim bench` itself, so both take the same options
 * (src/cli/commands/bench.ts: --json, --save, --repeats N, --warmup N, a suite or kernel name).
 */
import { main } from '../src/cli/main.js';

export type { BenchResult } from './main.js';

process.exitCode = await main(['bench', ...process.argv.slice(2)], {
  stdout: (s) => void process.stdout.write(s),
  stderr: (s) => void process.stderr.write(s),
  isTTY: !!process.stderr.isTTY,
});
