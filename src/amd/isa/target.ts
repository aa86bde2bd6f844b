/**
 * A target's instruction set front end: walk dwords through its codecs to decode, print or
 * assemble. Target-neutral; each target (gfx11/index.ts, later gfx10/gfx9) lists its codecs.
 */
import { AsmError, DecodeError, type AsmLine, type Codec, type Instruction } from './types.js';
import { splitOperands, type OperandSpace } from './operands.js';

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
  // A carriage return (or another line break) inside a line is not whitespace the operand syntax knows.
  const brk = /[\r\n\u2028\u2029]/.exec(s);
  if (brk) throw new AsmError(line, `unexpected ${brk[0] === '\r' ? 'carriage return' : `line break U+${brk[0].charCodeAt(0).toString(16).padStart(4, '0')}`} inside the line`);
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

/** Source lines: `\r\n` and `\n` end a line; a lone `\r` stays inside its line (and is an error there). */
export function sourceLines(source: string): string[] {
  return source.split(/\r?\n/);
}

/**
 * A label definition at the start of a line: `name:` (letters, digits, `_`, `.`, `$`; not starting
 * with a digit), or a numeric local label `N:` that branches name as `Nb` (the last one defined so
 * far) or `Nf` (the next one), as in GNU as and llvm-mc.
 */
const LABEL = /^\s*([A-Za-z_.$][\w.$]*|[0-9]+)\s*:(?!:)/;
const LOCAL_REF = /^([0-9]+)([bf])$/;

/** One assembled instruction of a source text. */
export interface AsmInstruction {
  /** 1-based source line. */
  readonly line: number;
  /** The instruction text as written (mnemonic lower-cased, comments and labels removed). */
  readonly text: string;
  readonly words: readonly number[];
  /** Byte offset from the start of the code. */
  readonly offset: number;
}

/** The code of a source text: its dwords (instructions, `.p2align` padding, `.long` data) and labels. */
export interface AsmCode {
  readonly words: readonly number[];
  readonly instructions: readonly AsmInstruction[];
  /** Label -> byte offset from the start of the code, with the line that defines it (numeric local label N: as `N#k`, its k-th definition). */
  readonly labels: ReadonlyMap<string, { readonly offset: number; readonly line: number }>;
}

/**
 * Options of assembleCode. `onLine` sees every line first, in order, and returns true when it
 * consumed it (a directive block, another section's content); directives it leaves
 * are skipped, except `.p2align`/`.align` and `.long` in the code, which llvm-mc also honours.
 */
export interface AssembleCodeOptions {
  readonly onLine?: (text: string, line: number) => boolean;
}

const BRANCH_RANGE = 0x8000;

/**
 * Assemble a source text as llvm-mc assembles a code section: one instruction per line, labels
 * (`name:`, alone or before an instruction) and branches to them (the SOPP/SOPK 16-bit signed
 * dword offset from the next instruction, forward or backward), `.p2align N` (padding with
 * `s_nop 0`), `.long` words. Errors are AsmErrors naming the line.
 */
export function assembleCode(t: IsaTarget, source: string, opts: AssembleCodeOptions = {}): AsmCode {
  const lines = sourceLines(source);
  // Pass 1: the lines `onLine` takes, and every label's name so forward references are known as labels.
  const consumed = lines.map((raw, i) => opts.onLine?.(raw, i + 1) === true);
  const names = new Set<string>();
  lines.forEach((raw, i) => {
    const m = consumed[i] ? null : LABEL.exec(stripComment(raw));
    if (m) names.add(m[1]!);
  });
  const labels = new Map<string, { offset: number; line: number }>();
  /** Numeric local labels: every definition of N in source order. */
  const locals = new Map<string, { offset: number; line: number }[]>();
  /** The label an operand names: itself, or for `Nb`/`Nf` a key `N#k` for the k-th definition of N. */
  const labelKey = (o: string): string | null => {
    if (names.has(o) && !/^[0-9]+$/.test(o)) return o;
    const m = LOCAL_REF.exec(o);
    if (!m || !names.has(m[1]!)) return null;
    const seen = locals.get(m[1]!)?.length ?? 0;
    return `${m[1]}#${m[2] === 'b' ? seen - 1 : seen}`;
  };
  const instructions: { line: number; text: string; words: number[]; offset: number; fixup?: { label: string; key: string } }[] = [];
  const words: number[] = [];
  let nop: number[] | undefined;
  lines.forEach((raw0, i) => {
    const line = i + 1;
    let raw = raw0;
    if (consumed[i]) return;
    // Labels before the instruction.
    for (;;) {
      const m = LABEL.exec(stripComment(raw));
      if (!m) break;
      const name = m[1]!;
      const at = { offset: words.length * 4, line };
      if (/^[0-9]+$/.test(name)) {
        const defs = locals.get(name) ?? [];
        labels.set(`${name}#${defs.length}`, at);
        defs.push(at);
        locals.set(name, defs);
      } else {
        const prev = labels.get(name);
        if (prev) throw new AsmError(line, `label '${name}' is already defined on line ${prev.line}`);
        labels.set(name, at);
      }
      raw = stripComment(raw).slice(m[0].length);
    }
    const l = splitAsmLine(raw, line);
    if (!l) return;
    if (l.mnemonic.startsWith('.')) {
      if (l.mnemonic === '.p2align' || l.mnemonic === '.align') {
        const n = intArg(l.rest.split(',')[0]!.trim(), line, l.mnemonic);
        const bytes = l.mnemonic === '.p2align' ? 2 ** n : n;
        if (l.mnemonic === '.p2align' ? n < 0 || n > 16 : bytes <= 0 || (bytes & (bytes - 1)) !== 0 || bytes > 65536) throw new AsmError(line, `${l.mnemonic}: bad alignment '${l.rest}'`);
        nop ??= assembleLine(t, 's_nop 0');
        while ((words.length * 4) % bytes !== 0) words.push(nop[0]!);
      } else if (l.mnemonic === '.long' || l.mnemonic === '.4byte') {
        for (const a of l.rest.split(',')) {
          const v = intArg(a.trim(), line, l.mnemonic);
          if (v < -0x80000000 || v > 0xffffffff) throw new AsmError(line, `${l.mnemonic}: ${a.trim()} does not fit in 32 bits`);
          words.push(v >>> 0);
        }
      }
      return;
    }
    // A branch to a label: assemble with offset 0, then fill the offset in pass 2.
    const ops = splitOperands(l.rest);
    const labelOps = ops.filter((o) => labelKey(o) !== null);
    let w: number[];
    let fixup: { label: string; key: string } | undefined;
    try {
      w = assembleLine(t, raw, line);
    } catch (e) {
      if (!(e instanceof AsmError) || labelOps.length === 0) throw e;
      const label = labelOps[labelOps.length - 1]!;
      const key = labelKey(label)!;
      if (key.endsWith('#-1')) throw new AsmError(line, `${l.mnemonic}: '${label}' names no earlier local label ${label.slice(0, -1)}:`);
      const subst = `${l.mnemonic} ${ops.map((o) => (o === label ? '0' : o)).join(', ')}`;
      try {
        w = assembleLine(t, subst, line);
      } catch {
        throw e;
      }
      const inst = decodeAt(t, w, 0);
      if (!(inst.info as { objdumpTarget?: boolean } | null)?.objdumpTarget || inst.fields.simm16 === undefined) {
        throw new AsmError(line, `${l.mnemonic}: label '${label}' can only be the target of a branch (s_branch, s_cbranch_*...)`);
      }
      fixup = { label, key };
    }
    instructions.push({ line, text: `${l.mnemonic} ${l.rest}`.trim(), words: w, offset: words.length * 4, ...(fixup ? { fixup } : {}) });
    words.push(...w);
  });
  // Pass 2: branch offsets.
  for (const ins of instructions) {
    if (!ins.fixup) continue;
    const target = labels.get(ins.fixup.key);
    if (!target) throw new AsmError(ins.line, `${ins.text.split(' ')[0]}: '${ins.fixup.label}' names no later local label ${ins.fixup.label.slice(0, -1)}:`);
    const delta = (target.offset - ins.offset - 4) / 4;
    if (delta < -BRANCH_RANGE || delta >= BRANCH_RANGE) {
      throw new AsmError(ins.line, `branch to '${ins.fixup.label}' (line ${target.line}) is ${delta} dwords away, beyond the 16-bit signed offset (${-BRANCH_RANGE}..${BRANCH_RANGE - 1})`);
    }
    ins.words[0] = ((ins.words[0]! & 0xffff0000) | (delta & 0xffff)) >>> 0;
    words[ins.offset / 4] = ins.words[0]!;
  }
  return { words, instructions: instructions.map(({ fixup: _f, ...r }) => r), labels };
}

function stripComment(s: string): string {
  let out = s;
  for (const c of ['//', ';']) {
    const k = out.indexOf(c);
    if (k >= 0) out = out.slice(0, k);
  }
  return out;
}

function intArg(text: string, line: number, what: string): number {
  const t = text.trim();
  const v = /^-?0x[0-9a-f]+$/i.test(t) ? (t.startsWith('-') ? -Number(t.slice(1)) : Number(t)) : /^-?[0-9]+$/.test(t) ? Number(t) : NaN;
  if (!Number.isSafeInteger(v)) throw new AsmError(line, `${what}: expected an integer, got '${t}'`);
  return v;
}

/**
 * Assemble a source text to its dwords: one instruction per line, labels and branches to them,
 * `.p2align`/`.long` (see assembleCode); other directives are skipped.
 */
export function assemble(t: IsaTarget, source: string): number[] {
  return assembleCode(t, source).words as number[];
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
