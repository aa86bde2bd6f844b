#!/usr/bin/env node
/** The `gpusim` command: dispatch to a subcommand, map errors to exit codes and one-line messages. */
import { parseArgs } from 'node:util';
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { loadCommand, loadCommands } from './commands/index.js';
import { EXIT_ERROR, type CliIO } from './command.js';
import { InputError, UsageError } from '../core/errors.js';

async function topHelp(): Promise<string> {
  const commands = await loadCommands();
  const w = Math.max(...commands.map((c) => c.name.length));
  return [
    'usage: gpusim <command> [options]',
    '',
    'An executable model of AMD RDNA, R600/Evergreen and Qualcomm Adreno GPUs.',
    '',
    'commands:',
    ...commands.map((c) => `  ${c.name.padEnd(w)}  ${c.summary}`),
    '',
    'Run `gpusim <command> --help` for a command\'s options.',
    'Exit codes: 0 ok, 1 a finding (diagnostic or mismatch), 2 usage or input error.',
  ].join('\n') + '\n';
}

export async function main(argv: string[], io: CliIO): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    io.stdout(await topHelp());
    return name === undefined ? EXIT_ERROR : 0;
  }
  if (name === '--version') {
    io.stdout('gpusim 0.1.0\n');
    return 0;
  }
  try {
    const cmd = await loadCommand(name);
    if (!cmd) throw new UsageError(`unknown command '${name}' (see gpusim --help)`);
    if (rest.includes('--help') || rest.includes('-h')) {
      io.stdout(cmd.help.endsWith('\n') ? cmd.help : cmd.help + '\n');
      return 0;
    }
    let parsed;
    try {
      parsed = parseArgs({ args: rest, options: cmd.options, allowPositionals: cmd.positionals ?? false, strict: true });
    } catch (e) {
      throw new UsageError(`${name}: ${(e as Error).message}`);
    }
    return await cmd.run(parsed.values as Record<string, unknown>, parsed.positionals, io);
  } catch (e) {
    if (e instanceof UsageError || e instanceof InputError) {
      io.stderr(`gpusim: ${e.message}\n`);
      return EXIT_ERROR;
    }
    const err = e as NodeJS.ErrnoException;
    if (err && err.code === 'ENOENT' && err.path) {
      io.stderr(`gpusim: no such file: ${err.path}\n`);
      return EXIT_ERROR;
    }
    if (err && err.code === 'EISDIR') {
      io.stderr(`gpusim: is a directory: ${err.path ?? ''}\n`);
      return EXIT_ERROR;
    }
    io.stderr(`gpusim: internal error: ${err?.message ?? String(e)}\n`);
    if (process.env.GPUSIM_DEBUG) io.stderr(String(err?.stack) + '\n');
    return EXIT_ERROR;
  }
}

const isMain = (() => {
  try {
    return process.argv[1] !== undefined && realpathSync(process.argv[1]) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
})();

if (isMain) {
  // `gpusim ... | head` closes the pipe early: that is not an error.
  process.stdout.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw e;
  });
  const io: CliIO = {
    stdout: (s) => void process.stdout.write(s),
    stderr: (s) => void process.stderr.write(s),
    isTTY: !!process.stderr.isTTY,
  };
  main(process.argv.slice(2), io).then((code) => {
    process.exitCode = code;
  });
}
