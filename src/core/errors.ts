/**
 * Error types shared by every layer. The CLI maps them to exit codes:
 * InputError and UsageError -> 2 (bad input or usage), anything else -> 3 "internal error" (a bug in
 * gpusim, never the input's fault; GPUSIM_DEBUG=1 prints the stack).
 * Findings (diagnostics, mismatches) are not errors: commands return exit code 1 for them.
 */

/**
 * Exit codes of every command, here so that family folders (e.g. src/adreno's command runners)
 * need not import from src/cli: 0 ok, 1 a finding (diagnostic, mismatch), 2 usage or input error,
 * 3 an internal error (an exception gpusim did not expect: a bug to report).
 */
export const EXIT_OK = 0;
export const EXIT_FINDING = 1;
export const EXIT_ERROR = 2;
export const EXIT_INTERNAL = 3;

/** Malformed or unsupported input (file, stream, manifest). The message is one readable line. */
export class InputError extends Error {
  override readonly name = 'InputError';
  /** Where the problem is (file path, byte offset, dword offset...), prefixed to the message when printed. */
  readonly where: string | undefined;
  constructor(message: string, where?: string) {
    super(where ? `${where}: ${message}` : message);
    this.where = where;
  }
}

/** Bad command-line usage. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** Format a byte offset as LLVM and readelf do. */
export function hex(n: number, width = 0): string {
  const s = (n >>> 0 === n ? n >>> 0 : n).toString(16);
  return '0x' + s.padStart(width, '0');
}
