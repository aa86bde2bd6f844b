/**
 * Command-line numbers of the bench scripts, parsed strictly (src/core/numbers.ts: decimal digits,
 * the range named); a bad value ends the script with one line and exit 2, as the CLI does.
 */
import { UsageError } from '../src/core/errors.js';
import { intText, type NumberRange } from '../src/core/numbers.js';

/** The value after `key` in `args` as an integer in `range`, or `def` when `key` is absent. */
export function intArg(args: readonly string[], key: string, def: number, range: NumberRange = { min: 1 }): number {
  const i = args.indexOf(key);
  if (i < 0) return def;
  try {
    return intText(args[i + 1] ?? '', key, { radix: 10, ...range });
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    process.stderr.write(`${e.message}\n`);
    process.exit(2);
  }
}
