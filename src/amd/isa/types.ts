/**
 * The decoded-instruction record shared by every AMD target (GFX9, GFX10.3, GFX11) and the
 * contract between the target-neutral decoder/assembler front ends and the per-encoding codecs.
 */
import { hex } from '../../core/errors.js';

/** Encoding classes, by the ISA documents' names. FLAT/GLOBAL/SCRATCH share one codec family. */
export type EncodingName =
  | 'SOP1' | 'SOP2' | 'SOPK' | 'SOPC' | 'SOPP' | 'SMEM'
  | 'VOP1' | 'VOP2' | 'VOPC' | 'VOP3' | 'VOP3SD' | 'VOP3P' | 'VOPD' | 'VINTERP' | 'VINTRP' | 'LDSDIR'
  | 'DS' | 'MUBUF' | 'MTBUF' | 'MIMG' | 'FLAT' | 'GLOBAL' | 'SCRATCH' | 'EXP' | 'SMRD' | 'SDWA';

/**
 * One decoded instruction. Immutable and plain so an executor can bind a handler to it once per PC.
 * `fields` holds the encoding's fields by the ISA's names (e.g. `sdst`, `ssrc0`, `vdst`, `src0`,
 * `offset`, `glc`), already extracted: nothing downstream re-extracts bits.
 */
export interface Instruction {
  readonly encoding: EncodingName;
  readonly opcode: number;
  /** LLVM's mnemonic as printed, including `_e32`/`_e64`/`_dpp`/`_sdwa` suffixes. */
  readonly mnemonic: string;
  /** Total size in bytes (including any literal). */
  readonly size: number;
  /** The raw dwords (including any literal). */
  readonly words: readonly number[];
  readonly fields: Readonly<Record<string, number>>;
  /** The 32-bit literal constant, when the instruction carries one. */
  readonly literal: number | undefined;
  /** Encoding variant: 'e32' | 'e64' | 'dpp16' | 'dpp8' | 'sdwa' | '' (for the non-VALU classes). */
  readonly variant: string;
  /** The generated opcode-table entry this instruction was decoded through (codec-specific). */
  readonly info: unknown;
}

/** Thrown for an encoding no instruction has on this target (or that is reserved). */
export class DecodeError extends Error {
  declare readonly pc: number;
  declare readonly words: readonly number[];
  constructor(pc: number, words: readonly number[], why: string) {
    // Disassemblers and fuzzers meet this error at every invalid word: skip the stack capture,
    // which costs far more than the decode itself. The message names everything needed.
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(`invalid instruction encoding at pc ${hex(pc)}: ${words.map((w) => hex(w >>> 0, 8)).join(' ')} (${why})`);
    Error.stackTraceLimit = limit;
    // Plain stores (two defineProperty calls took about a third of the error's cost).
    this.pc = pc;
    this.words = words;
  }
}
Object.defineProperty(DecodeError.prototype, 'name', { value: 'DecodeError' });

/** Thrown when the assembler cannot encode a line; the message names the line and column-ish position. */
export class AsmError extends Error {
  override readonly name = 'AsmError';
  readonly line: number;
  constructor(line: number, message: string) {
    super(line > 0 ? `line ${line}: ${message}` : message);
    this.line = line;
  }
}

/** An assembly line split into its mnemonic and the text after it (operands and modifiers). */
export interface AsmLine {
  readonly mnemonic: string;
  readonly rest: string;
  /** 1-based source line number (0 when assembling a lone string). */
  readonly line: number;
}

/**
 * A codec for one family of encodings on one target. `decode` returns null when the words are not
 * this family's; it throws DecodeError when they are but name no valid instruction.
 * `assemble` returns null when the mnemonic is not this family's; throws AsmError on bad operands.
 */
export interface Codec {
  readonly name: string;
  /** Cheap test on the first dword (and the second when present) whether this codec owns it. */
  matches(w0: number): boolean;
  decode(words: ArrayLike<number>, index: number, pc: number): Instruction;
  print(inst: Instruction): string;
  assemble(line: AsmLine): number[] | null;
}
