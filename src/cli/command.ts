/**
 * The shape of one `gpusim` subcommand. Each lives in src/cli/commands/<name>.ts and is listed in
 * src/cli/commands/index.ts. Options are parsed with node:util parseArgs (no dependency needed).
 */
import type { ParseArgsConfig } from 'node:util';

export interface CliIO {
  readonly stdout: (s: string) => void;
  readonly stderr: (s: string) => void;
  /** True when stderr is a terminal (progress bars only then). */
  readonly isTTY: boolean;
}

/** Exit codes: 0 ok, 1 a finding (diagnostic, mismatch), 2 usage or input error (defined in src/core/errors.ts). */
export { EXIT_ERROR, EXIT_FINDING, EXIT_INTERNAL, EXIT_OK } from '../core/errors.js';

export interface Command {
  readonly name: string;
  /** One line for `gpusim --help`. */
  readonly summary: string;
  /** Full help text for `gpusim <name> --help` (usage line first). */
  readonly help: string;
  readonly options: NonNullable<ParseArgsConfig['options']>;
  /** Whether positional arguments are accepted. */
  readonly positionals?: boolean;
  run(values: Record<string, unknown>, positionals: string[], io: CliIO): Promise<number> | number;
}
