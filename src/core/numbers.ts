/**
 * Strict parsing of numbers given as text (command-line options, interactive commands): decimal
 * or 0x-hex digits only, checked against a range before anything is done with them. Shared by
 * src/cli and the family folders' command runners (which may not import src/cli).
 */
import { UsageError } from './errors.js';

/** Decimal or 0x-hex digits as a bigint, or null when `s` is not one. */
export function parseBigText(s: string, radix: 10 | 16 | 'auto' = 'auto'): bigint | null {
  const t = s.trim();
  if (radix === 16) return /^(0x)?[0-9a-f]+$/i.test(t) ? BigInt(t.toLowerCase().startsWith('0x') ? t : '0x' + t) : null;
  if (/^0x[0-9a-f]+$/i.test(t) && radix === 'auto') return BigInt(t);
  if (/^[0-9]+$/.test(t)) return BigInt(t);
  return null;
}

const show = (s: string): string => (s.length > 40 ? `${s.slice(0, 40)}…` : s);
const bound = (n: bigint): string => {
  if (n >= 1n << 20n && (n & (n + 1n)) === 0n) return `2^${(n + 1n).toString(2).length - 1}-1`;
  if (n >= 1n << 20n && (n & (n - 1n)) === 0n) return `2^${n.toString(2).length - 1}`;
  return n.toString();
};

/** Options of intText / bigText: the inclusive range, and the digits accepted. */
export interface NumberRange {
  readonly min?: number | bigint;
  readonly max?: number | bigint;
  /** 'auto' (default): decimal or 0x-hex; 16: hex with or without 0x; 10: decimal only. */
  readonly radix?: 10 | 16 | 'auto';
}

/** `s` as a bigint in [min, max] (default [0, 2^64-1]); a UsageError naming `what` otherwise. */
export function bigText(s: string, what: string, r: NumberRange = {}): bigint {
  const min = BigInt(r.min ?? 0);
  const max = BigInt(r.max ?? (1n << 64n) - 1n);
  const radix = r.radix ?? 'auto';
  const v = parseBigText(s, radix);
  const kind = radix === 16 ? 'a hex number' : radix === 10 ? 'a decimal integer' : 'an integer (decimal or 0x hex)';
  if (v === null) throw new UsageError(`${what}: '${show(s)}' is not ${kind}`);
  if (v < min || v > max) throw new UsageError(`${what}: ${show(s)} is out of range [${bound(min)}, ${bound(max)}]`);
  return v;
}

/** `s` as a number in [min, max] (default [0, 2^53-1]); a UsageError naming `what` otherwise. */
export function intText(s: string, what: string, r: NumberRange = {}): number {
  const max = r.max ?? Number.MAX_SAFE_INTEGER;
  return Number(bigText(s, what, { ...r, max: BigInt(max) > BigInt(Number.MAX_SAFE_INTEGER) ? Number.MAX_SAFE_INTEGER : max }));
}

/** An optional option value (`values[key]` of parseArgs): undefined stays undefined, else intText. */
export function intOption(v: unknown, what: string, r: NumberRange = {}): number | undefined {
  return v === undefined ? undefined : intText(String(v), what, r);
}
