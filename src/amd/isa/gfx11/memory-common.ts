/**
 * Helpers shared by the GFX11 memory/export codecs (DS, MUBUF, MTBUF, MIMG, FLAT, EXP):
 * operand-text parsing for the assembler and small decode utilities.
 */
import { AsmError, DecodeError, type AsmLine } from '../types.js';
import { parseIntText, parseReg, splitOperands, splitWords, GFX11_SPACE, type RegRef } from '../operands.js';

/** Read the dword at `index + k`, or throw DecodeError when the code ends first. */
export function word(words: ArrayLike<number>, index: number, k: number, pc: number): number {
  if (index + k >= words.length) {
    const got: number[] = [];
    for (let i = index; i < words.length; i++) got.push(words[i]! >>> 0);
    throw new DecodeError(pc, got, 'instruction runs past end of code');
  }
  return words[index + k]! >>> 0;
}

/** Operands and trailing modifiers of an assembly line: `a, b, c mod mod:1` -> [a,b,c], [mod, mod:1]. */
export function splitLine(rest: string): { ops: string[]; mods: string[] } {
  const parts = splitOperands(rest);
  if (parts.length === 0) return { ops: [], mods: [] };
  const last = splitWords(parts.pop()!);
  const ops = [...parts];
  if (last.length) ops.push(last.shift()!);
  return { ops, mods: last };
}

/** Everything after the mnemonic is modifiers (for instructions without operands). */
export function allMods(rest: string): string[] {
  return splitWords(rest.replace(/,/g, ' '));
}

/** Parse a VGPR operand of exactly `count` dwords; returns its index (0..255). */
export function parseVgpr(l: AsmLine, text: string, count: number): number {
  const r = parseReg(GFX11_SPACE, text);
  if (!r || r.file !== 'v') throw new AsmError(l.line, `expected a VGPR operand, got '${text}'`);
  if (r.count !== count) throw new AsmError(l.line, `'${text}' must be ${count} register${count > 1 ? 's' : ''} wide`);
  return r.value - 256;
}

/** Parse a scalar register (range) operand of `count` dwords, returning its encoding value (< 128). */
export function parseSreg(l: AsmLine, text: string, count: number): RegRef {
  const r = parseReg(GFX11_SPACE, text);
  if (!r || r.file === 'v' || r.value >= 128) throw new AsmError(l.line, `expected a scalar register, got '${text}'`);
  // `null` stands for a scalar operand of any width (LLVM: scratch's saddr, a 64-bit base...).
  if (text.trim().toLowerCase() === 'null') return { ...r, count };
  if (r.count !== count) throw new AsmError(l.line, `'${text}' must be ${count} register${count > 1 ? 's' : ''} wide`);
  return r;
}

/** Parse an integer modifier value within [lo, hi]. */
export function parseIntIn(l: AsmLine, text: string, lo: number, hi: number, what: string): number {
  const v = parseIntText(text);
  if (v === null || v < lo || v > hi) throw new AsmError(l.line, `invalid ${what} '${text}'`);
  return v;
}

/** Modifier list helper: `name:value` pairs and bare flags. */
export interface Mods {
  readonly flags: Set<string>;
  readonly vals: Map<string, string>;
}

export function parseMods(l: AsmLine, mods: readonly string[], allowedFlags: readonly string[], allowedVals: readonly string[]): Mods {
  const flags = new Set<string>();
  const vals = new Map<string, string>();
  for (const m0 of mods) {
    const m = m0.toLowerCase();
    const k = m.indexOf(':');
    if (k < 0) {
      if (!allowedFlags.includes(m)) throw new AsmError(l.line, `unexpected modifier '${m0}'`);
      if (flags.has(m)) throw new AsmError(l.line, `duplicate modifier '${m0}'`);
      flags.add(m);
    } else {
      const name = m.slice(0, k);
      if (!allowedVals.includes(name)) throw new AsmError(l.line, `unexpected modifier '${m0}'`);
      if (vals.has(name)) throw new AsmError(l.line, `duplicate modifier '${m0}'`);
      vals.set(name, m0.slice(k + 1));
    }
  }
  return { flags, vals };
}

/** Build a bit-field value into a dword. */
export function bf(v: number, lo: number, n: number): number {
  return ((v & ((1 << n) - 1)) << lo) >>> 0;
}

/** The current mnemonic a legacy one (ds_write_b32, buffer_load_dword...) stands for, or ''. */
export function aliasOf(aliases: Readonly<Record<string, string>>, mnemonic: string): string {
  return Object.hasOwn(aliases, mnemonic) ? aliases[mnemonic]! : '';
}
