#!/usr/bin/env node
/** The `gpusim` command: dispatch to a subcommand, map errors to exit codes and one-line messages. */
import { parseArgs } from 'node:util';
import { realpathSync, statSync, writeSync } from 'node:fs';
import { isatty } from 'node:tty';
import { fileURLToPath } from 'node:url';
import { loadCommand, loadCommands } from './commands/index.js';
import { EXIT_ERROR, type CliIO } from './command.js';
import { EXIT_INTERNAL, InputError, UsageError } from '../core/errors.js';

/** The longest error line printed: inputs quoted in messages (a line of assembly, a JSON value) are cut. */
const MAX_MESSAGE = 300;

/** A message as one line of at most MAX_MESSAGE characters (control characters shown as spaces). */
export function oneLine(msg: string): string {
  const s = msg.replace(/[\u0000-\u001f\u007f\u2028\u2029]+/g, ' ').trim();
  return s.length > MAX_MESSAGE ? `${s.slice(0, MAX_MESSAGE)}… (${s.length - MAX_MESSAGE} more characters)` : s;
}

/** The argument naming a directory, for an EISDIR error that does not carry the path (readFileSync). */
function directoryArg(argv: readonly string[]): string | undefined {
  return argv.find((a) => {
    try {
      return a !== '.' && !a.startsWith('-') && statSync(a).isDirectory();
    } catch {
      return false;
    }
  });
}

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
    'Exit codes: 0 ok, 1 a finding (diagnostic or mismatch), 2 usage or input error,',
    '3 internal error (a gpusim bug; GPUSIM_DEBUG=1 prints the stack).',
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
      io.stderr(`gpusim: ${oneLine(e.message)}\n`);
      return EXIT_ERROR;
    }
    const err = e as NodeJS.ErrnoException;
    if (err && err.code === 'ENOENT' && err.path) {
      io.stderr(`gpusim: no such file: ${oneLine(err.path)}\n`);
      return EXIT_ERROR;
    }
    if (err && err.code === 'EISDIR') {
      io.stderr(`gpusim: ${oneLine(err.path ?? directoryArg(rest) ?? '')}: is a directory, not a file\n`);
      return EXIT_ERROR;
    }
    if (err && (err.code === 'EACCES' || err.code === 'ENOTDIR' || err.code === 'EROFS' || err.code === 'ENOSPC') ) {
      io.stderr(`gpusim: ${oneLine(err.message)}\n`);
      return EXIT_ERROR;
    }
    if (e instanceof RangeError && /allocation failed|Invalid (typed )?array length|Array buffer/i.test(e.message)) {
      io.stderr(`gpusim: out of memory: ${oneLine(e.message)} (the input asks for more memory than one process can allocate)\n`);
      return EXIT_ERROR;
    }
    io.stderr(`gpusim: internal error: ${oneLine(err?.message ?? String(e))} (a gpusim bug; GPUSIM_DEBUG=1 prints the stack)\n`);
    if (process.env.GPUSIM_DEBUG) io.stderr(String(err?.stack) + '\n');
    return EXIT_INTERNAL;
  }
}

/**
 * A writer to file descriptor `fd` that does not make Node's stream for it: `stream` (process.stdout
 * or .stderr) costs ~6 ms of every process the first time either is touched (Node loads its
 * stream and socket modules), while `gpusim run --json` writes one string. Each string goes out
 * with writeSync; a pipe the reader left non-blocking and full (EAGAIN) hands the rest, and
 * everything after it, to the stream, in order. `gpusim ... | head` closing the pipe early
 * (EPIPE) is not an error: the process ends with the exit code it has. Windows keeps the stream
 * (its console takes text through it). `write` is writeSync but in tests.
 */
export function fdWriter(fd: number, stream: () => NodeJS.WriteStream, write: (fd: number, b: Uint8Array, off: number) => number = writeSync): (s: string) => void {
  let via: NodeJS.WriteStream | null = null;
  const viaStream = (): NodeJS.WriteStream => {
    if (via === null) {
      via = stream();
      via.on('error', (e: NodeJS.ErrnoException) => {
        if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0);
        throw e;
      });
    }
    return via;
  };
  if (process.platform === 'win32' && write === writeSync) return (s) => void viaStream().write(s);
  return (s) => {
    if (via !== null) {
      via.write(s);
      return;
    }
    const b = Buffer.from(s, 'utf8');
    for (let off = 0; off < b.length;) {
      try {
        off += write(fd, b, off);
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code;
        if (code === 'EAGAIN') {
          viaStream().write(b.subarray(off));
          return;
        }
        if (code === 'EPIPE') process.exit(process.exitCode ?? 0);
        throw e;
      }
    }
  };
}

/**
 * Runs the command line of this process (process.argv) and sets the exit code. `gpusim` (this
 * file run as a program) calls it through launch.ts, which runs the one-file build of the CLI
 * (scripts/bundle.mjs) when there is a fresh one, and this module's own otherwise.
 */
export async function runCli(): Promise<void> {
  const io: CliIO = {
    stdout: fdWriter(1, () => process.stdout),
    stderr: fdWriter(2, () => process.stderr),
    isTTY: isatty(2),
  };
  process.exitCode = await main(process.argv.slice(2), io);
}

const isMain = (() => {
  try {
    // Inside the one-file build, this module is not the program: launch.ts is running it.
    if ((globalThis as { gpusimBundle?: string }).gpusimBundle) return false;
    return process.argv[1] !== undefined && realpathSync(process.argv[1]) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
})();

if (isMain) void import('./launch.js').then((l) => l.launch(runCli));
