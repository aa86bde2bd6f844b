/**
 * Golden files: LLVM's own answers, committed so tests need no LLVM.
 * One line per case, tab-separated:  <input dwords hex>  <llvm text or <unknown>>  <dwords llvm-mc assembles the text to, or ->
 * The input may be a non-canonical encoding (e.g. random unused bits); the third column is what
 * llvm-mc produces from the text, so assembly is checked against it and the decoder against column 2.
 */
import { mulberry32 } from '../../src/core/prng.js';
import { assembleLines, disassembleProbes } from './llvm.js';

export interface GoldenCase {
  readonly words: readonly number[];
  readonly text: string | null;
  readonly asm: readonly number[] | null;
}

export function hexWords(ws: readonly number[]): string {
  return ws.map((w) => (w >>> 0).toString(16).padStart(8, '0')).join(' ');
}

export function parseHexWords(s: string): number[] {
  return s.trim() === '' || s === '-' ? [] : s.trim().split(/\s+/).map((x) => parseInt(x, 16) >>> 0);
}

/**
 * Ask LLVM about each probe: its disassembly, the dwords it consumed, and the bytes llvm-mc
 * assembles that text back to. Duplicate texts are kept once (the first probe wins).
 */
export function buildGolden(mcpu: string, probes: readonly (readonly number[])[], keepUnknown = 0): GoldenCase[] {
  const dis = disassembleProbes(mcpu, probes);
  const seen = new Set<string>();
  const cases: { words: number[]; text: string | null }[] = [];
  let unknown = 0;
  dis.forEach((d, i) => {
    if (d.text === null) {
      if (unknown++ < keepUnknown) cases.push({ words: [probes[i]![0]!], text: null });
      return;
    }
    if (seen.has(d.text)) return;
    seen.add(d.text);
    cases.push({ words: probes[i]!.slice(0, d.size / 4), text: d.text });
  });
  const asm = assembleLines(mcpu, cases.map((c) => c.text ?? ''));
  return cases.map((c, i) => ({ words: c.words, text: c.text, asm: c.text === null ? null : asm[i]!.words }));
}

export function formatGolden(cases: readonly GoldenCase[]): string {
  return cases.map((c) => `${hexWords(c.words)}\t${c.text ?? '<unknown>'}\t${c.asm ? hexWords(c.asm) : '-'}`).join('\n') + '\n';
}

export function parseGolden(text: string): GoldenCase[] {
  return text.split('\n').filter((l) => l.trim() !== '' && !l.startsWith('#')).map((l) => {
    const [w, t, a] = l.split('\t');
    return { words: parseHexWords(w!), text: t === '<unknown>' ? null : t!, asm: a === '-' || a === undefined ? null : parseHexWords(a) };
  });
}

/** A small deterministic PRNG (mulberry32, src/core/prng.ts) so probe sets are reproducible. */
export const rng: (seed: number) => () => number = mulberry32;
