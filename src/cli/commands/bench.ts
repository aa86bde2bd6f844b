/**
 * `gpusim bench [--json] [--save] [--repeats N] [--warmup N] [SUITE|KERNEL]`: the benchmark suites of bench/ (decode speed,
 * Adreno CP, RDNA3 execution one thread and all cores). Available in a checkout (the suites and
 * their kernels live in bench/, outside the published package).
 */
import type { Command } from '../command.js';
import { EXIT_ERROR, EXIT_OK } from '../command.js';
import { intOption } from '../../core/numbers.js';

/** A whole-number option's value (decimal digits, core/numbers.ts), or undefined when it is absent. */
function count(name: string, v: unknown): number | undefined {
  return intOption(v, `bench: --${name}`, { radix: 10, max: 1_000_000 });
}

export const benchCommand: Command = {
  name: 'bench',
  summary: 'run the benchmark suites (RDNA3 execution speed, decode speed) and print the rates',
  help: `usage: gpusim bench [--json] [--save] [--repeats N] [--warmup N] [SUITE|KERNEL]

Runs the benchmark suites (bench/README.md): decode, adreno, and rdna3, which runs real clang-19
kernels (vector add-multiply, matrix multiply naive and LDS-tiled, LDS reductions, histogram,
wave64 variants) through the runtime on one thread and on all cores, checks every output against
its CPU reference and prints wave-instructions, lane-operations, time, rates and peak memory.
  --json   print the results as JSON
  --save   also write bench/results/<date>.json
  --repeats N  timed repeats of each rdna3 case after its cold run (default 7)
  --warmup N   untimed runs between the cold run and the repeats (default 3)
A name runs one suite, or the rdna3 kernels whose name contains it (e.g. matmul).`,
  options: {
    json: { type: 'boolean', default: false },
    save: { type: 'boolean', default: false },
    repeats: { type: 'string' },
    warmup: { type: 'string' },
  },
  positionals: true,
  async run(values, positionals, io) {
    let mod: typeof import('../../../bench/main.js');
    try {
      mod = await import('../../../bench/main.js');
    } catch (e) {
      io.stderr(`bench: the benchmark suites are not available (${(e as Error).message}); run it from a gpusim checkout\n`);
      return EXIT_ERROR;
    }
    const filter = positionals[0];
    const repeats = count('repeats', values.repeats);
    const warmup = count('warmup', values.warmup);
    await mod.runBench({
      json: values.json === true, save: values.save === true, out: io.stdout, ...(filter ? { filter } : {}),
      ...(repeats !== undefined ? { repeats } : {}), ...(warmup !== undefined ? { warmup } : {}),
    });
    return EXIT_OK;
  },
};
