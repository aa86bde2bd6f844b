/** `gpusim amd coverage`: which opcodes of the AMD targets' generated tables execute (measured). */
import type { Command } from '../command.js';
import { EXIT_OK } from '../command.js';
import { UsageError } from '../../core/errors.js';

const HELP = `usage: gpusim amd coverage [--detail]

Measure, for gfx900, gfx1030 and gfx1100, every opcode of the generated instruction tables per
encoding and whether it executes (binds to semantics, after the GFX9/GFX10.3 normalisation the run
path applies; the reference interpreter and the fast tier bind through the same table). Prints the
table kept in README.md; --detail prints the opcodes left out with their reasons (docs/amd.md).
`;

export const amdCommand: Command = {
  name: 'amd',
  summary: 'AMD targets: opcode execution coverage per encoding (measured)',
  help: HELP,
  positionals: true,
  options: { detail: { type: 'boolean' } },
  async run(values, positionals, io) {
    const [sub] = positionals;
    if (sub !== 'coverage') throw new UsageError(`amd: unknown subcommand '${sub ?? ''}' (coverage)`);
    const { coverageLines, leftOutLines } = await import('../../amd/target/coverage.js');
    io.stdout((values.detail ? leftOutLines() : coverageLines()).join('\n') + '\n');
    return EXIT_OK;
  },
};
