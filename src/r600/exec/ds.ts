/**
 * Read-modify-write ops of the data shares (LDS_* and GDS_* share names and meanings): the new
 * memory value from the old value o and the data operands b, c. Pure functions; the LDS (ALU
 * clause) and GDS (GDS clause) executors bind them once per decoded instruction.
 */
import { F } from './alu.js';

export type DsRmwFn = (o: number, b: number, c: number) => number;

/** By the op's name without its LDS_ / GDS_ prefix and _RET suffix. */
export const DS_RMW: Readonly<Record<string, DsRmwFn>> = {
  WRITE: (_o, b) => b,
  XCHG: (_o, b) => b,
  ADD: (o, b) => o + b,
  SUB: (o, b) => o - b,
  RSUB: (o, b) => b - o,
  INC: (o, b) => (o >= b ? 0 : o + 1),
  DEC: (o, b) => (o === 0 || o > b ? b : o - 1),
  MIN_INT: (o, b) => ((o | 0) < (b | 0) ? o : b),
  MAX_INT: (o, b) => ((o | 0) > (b | 0) ? o : b),
  MIN_UINT: (o, b) => (o < b ? o : b),
  MAX_UINT: (o, b) => (o > b ? o : b),
  AND: (o, b) => o & b,
  OR: (o, b) => o | b,
  XOR: (o, b) => o ^ b,
  MSKOR: (o, b, c) => (o & ~b) | c,
  CMP_XCHG: (o, b, c) => (o === b ? c : o),
  CMP_STORE: (o, b, c) => (o === b ? c : o),
  // SPF: the compare is a single-precision float compare (so -0 equals +0; NaN never matches).
  CMP_XCHG_SPF: (o, b, c) => (F(o) === F(b) ? c : o),
  CMP_STORE_SPF: (o, b, c) => (F(o) === F(b) ? c : o),
};

/** The new memory value of `base` (undefined when there is no such op). */
export function dsRmw(base: string, o: number, b: number, c: number): number | undefined {
  const f = Object.hasOwn(DS_RMW, base) ? DS_RMW[base] : undefined;
  return f ? f(o, b, c) : undefined;
}
