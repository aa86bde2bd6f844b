/**
 * A target's instruction set front end: walk dwords through its codecs to decode, print or
 * assemble. Target-neutral; each target (gfx11/index.ts, later gfx10/gfx9) lists its codecs.
 */
import { AsmError, DecodeError, type AsmLine, type Codec, type Instruction } from './types.js';
import type { OperandSpace } from './operands.js';

export interface IsaTarget {
  /** LLVM's -mcpu name, e.g. 'gfx1100'. */
  readonly mcpu: string;
  readonly space: OperandSpace;
  /** Codecs in the order their `matches` are tried (most specific prefix first). */
  readonly codecs: readonly Codec[];
  /**
   * The wave size the text is read and written in: lane masks (VCC, carry-outs, v_cmp results) are
   * one SGPR in wave32 and a pair in wave64. The encodings do not change. See `waveTarget`.
   */
  readonly wave?: 32 | 64;
}

/** Find the codec owning a first dword, or null. */
export function codecFor(t: IsaTarget, w0: number): Codec | null {
  for (const c of t.codecs) if (c.matches(w0 >>> 0)) return c;
  return null;
}

/** Decode the instruction at dword index `index` of `words`; `pc` is its byte address (for errors). */
export function decodeAt(t: IsaTarget, words: ArrayLike<number>, index: number, pc = index * 4): Instruction {
  if (index >= words.length) throw new DecodeError(pc, [], 'past end of code');
  const w0 = words[index]! >>> 0;
  const c = codecFor(t, w0);
  if (!c) throw new DecodeError(pc, [w0], 'no encoding class matches');
  return c.decode(words, index, pc);
}

/** LLVM's text for a decoded instruction. */
export function printInst(t: IsaTarget, inst: Instruction): string {
  const c = codecFor(t, inst.words[0]!);
  if (!c) throw new Error(`no codec for ${inst.encoding}`);
  return c.print(inst);
}

/** One line of a disassembly listing. */
export interface DisasmLine {
  readonly pc: number;
  readonly words: readonly number[];
  /** LLVM's instruction text, or `<unknown>` for an invalid encoding (as llvm-objdump prints). */
  readonly text: string;
  readonly inst: Instruction | null;
  readonly error: DecodeError | null;
}

/**
 * Disassemble a run of code the way llvm-objdump does: decode, print, and on an invalid encoding
 * print `<unknown>` and go on at the next dword.
 */
export function disassemble(t: IsaTarget, words: ArrayLike<number>, basePc = 0, start = 0, end = words.length): DisasmLine[] {
  const out: DisasmLine[] = [];
  let i = start;
  while (i < end) {
    const pc = basePc + (i - start) * 4;
    try {
      const inst = decodeAt(t, words, i, pc);
      if (i + inst.size / 4 > end) throw new DecodeError(pc, Array.from({ length: end - i }, (_, k) => words[i + k]!), 'instruction runs past end of code');
      out.push({ pc, words: inst.words, text: printInst(t, inst), inst, error: null });
      i += inst.size / 4;
    } catch (e) {
      if (!(e instanceof DecodeError)) throw e;
      out.push({ pc, words: [words[i]! >>> 0], text: '<unknown>', inst: null, error: e });
      i += 1;
    }
  }
  return out;
}

/** Split one source line into mnemonic and rest; strips `;` and `//` comments. Null for blank/label/directive. */
export function splitAsmLine(text: string, line: number): AsmLine | null {
  let s = text;
  for (const c of ['//', ';']) {
    const k = s.indexOf(c);
    if (k >= 0) s = s.slice(0, k);
  }
  s = s.trim();
  if (s === '') return null;
  const m = /^(\S+)\s*(.*)$/.exec(s)!;
  return { mnemonic: m[1]!.toLowerCase(), rest: m[2]!.trim(), line };
}

/** Assemble one instruction line to dwords. */
export function assembleLine(t: IsaTarget, text: string, line = 0): number[] {
  const l = splitAsmLine(text, line);
  if (!l) throw new AsmError(line, 'empty line');
  for (const c of t.codecs) {
    const r = c.assemble(l);
    if (r) return r;
  }
  throw new AsmError(line, `unknown instruction '${l.mnemonic}' for ${t.mcpu}`);
}

/**
 * Assemble a source text: one instruction per line; labels (`name:`) and directives (`.text`,
 * `.p2align`...) are skipped. Returns the concatenated dwords. Branch targets must be numeric.
 */
export function assemble(t: IsaTarget, source: string): number[] {
  const out: number[] = [];
  source.split('\n').forEach((raw, i) => {
    const l = splitAsmLine(raw, i + 1);
    if (!l) return;
    if (l.mnemonic.endsWith(':') || l.mnemonic.startsWith('.')) return;
    out.push(...assembleLine(t, raw, i + 1));
  });
  return out;
}

/**
 * Whether a decoded line round-trips: its text assembles back to its dwords, or (when the
 * original sets bits the assembler never sets, e.g. clang's `s_waitcnt` with an unused bit on)
 * to dwords that print the same text.
 */
export function roundTrips(t: IsaTarget, line: DisasmLine): boolean {
  if (!line.inst) return false;
  let words: number[];
  try {
    words = assembleLine(t, line.text);
  } catch {
    return false;
  }
  if (words.length === line.words.length && words.every((w, i) => w >>> 0 === line.words[i]! >>> 0)) return true;
  try {
    return printInst(t, decodeAt(t, words, 0)) === line.text;
  } catch {
    return false;
  }
}

/**
 * The encoding family of a decoded instruction's encoding class: the scalar ALU formats (SOP1,
 * SOP2, SOPK, SOPC, SOPP) are 'SALU', the vector ALU formats (VOP1, VOP2, VOPC, VOP3, VOP3SD,
 * VOP3P) 'VALU'; every memory and export class is its own (SMEM, DS, MUBUF, MTBUF, FLAT, GLOBAL,
 * SCRATCH, MIMG, EXP...). An instruction renamed across generations stays in its family.
 */
export function encodingFamily(encoding: string): string {
  if (/^SOP[12KCP]$/.test(encoding)) return 'SALU';
  if (/^VOP(1|2|C|3|3SD|3P)$/.test(encoding)) return 'VALU';
  return encoding;
}

/**
 * The register file of each operand of LLVM's instruction text (the part before the modifiers):
 * 'v' VGPRs, 's' SGPRs and the scalar specials (vcc, exec, m0, ttmp, null...), 'i' constants and
 * `off`, 'o' anything else. Renamed instructions keep their operands' register files.
 */
export function operandFiles(text: string): string[] {
  const rest = text.trim().replace(/^\S+\s*/, '');
  if (rest === '') return [];
  return rest.split(',').map((o) => {
    const t = o.trim().split(/\s+/)[0]!.replace(/^[-|]+|\|$/g, '').replace(/^(neg|abs|sext)\(/, '');
    if (/^v(\d|\[)/.test(t)) return 'v';
    if (/^(s(\d|\[)|ttmp|vcc|exec|m0|null|flat_scratch|tba|tma|xnack_mask|src_)/.test(t)) return 's';
    if (/^(-?\d|0x|off$)/.test(t)) return 'i';
    return 'o';
  });
}

/** Whether two texts' first operands are in the same register file (constants and symbols may be spelt differently). */
export function sameFirstFile(a: string, b: string): boolean {
  const fa = operandFiles(a)[0] ?? 'i';
  const fb = operandFiles(b)[0] ?? 'i';
  const reg = (f: string) => f === 'v' || f === 's';
  return reg(fa) || reg(fb) ? fa === fb : true;
}
