/**
 * Register names and values as crashdec prints them: everything goes through the one formatter,
 * regs/rnndec.ts (librnn's names and decodeval text). What is left here is crashdec's glue:
 * the register space of a dump section as an rnndec domain, `NAME: value` lines, and the 64-bit
 * accumulation as `[offset, lo, hi]`.
 */
import { mainDomain, type Gen, type RegisterSpace } from '../regs/db.js';
import { decodeVal, RegAcc as RnnRegAcc, rnnDomain, type RnnDomain } from '../regs/rnndec.js';

/** rnndec's tab levels ("\t" x (level + 1)). */
export function tabs(level: number): string {
  return level >= 0 && level <= 10 ? '\t'.repeat(level + 1) : 'x';
}

export const hex8 = (v: number): string => (v >>> 0).toString(16).padStart(8, '0');

/** A 64-bit value (lo/hi halves) as `%0Nx` (N digits at least). */
export function hex64(lo: number, hi: number, width = 8): string {
  if (!hi) return (lo >>> 0).toString(16).padStart(width, '0');
  return ((hi >>> 0).toString(16) + (lo >>> 0).toString(16).padStart(8, '0')).padStart(width, '0');
}

/** A number that may exceed 32 bits as lo/hi. */
export function split64(v: number): [number, number] {
  return [v % 2 ** 32 >>> 0, Math.floor(v / 2 ** 32) >>> 0];
}

/** The rnndec domain of a register space (a2xx/a3xx GPU registers fall back to AXXX). */
export function rnnOf(space: RegisterSpace): RnnDomain {
  const g = space.gen;
  const extra = (g === 'a2xx' || g === 'a3xx') && space.domain === mainDomain(g) ? ['AXXX'] : [];
  return rnnDomain([space.domain, ...extra], g);
}

/** `NAME: decoded` or `NAME: %08x` (dump_register_val's text after the level tabs). */
export function registerText(space: RegisterSpace, offset: number, lo: number, hi: number, gen: Gen): string {
  const info = rnnOf(space).lookup(offset);
  if (!info.ti) return `${info.name}: ${hex64(lo, hi)}`;
  return `${info.name}: ${decodeVal(info.ti, BigInt(lo >>> 0) | (BigInt(hi >>> 0) << 32n), gen)}`;
}

/** rnndec's RegAcc with the whole value as `[offset, lo, hi]`. */
export class RegAcc {
  private readonly acc: RnnRegAcc;
  constructor(space: RegisterSpace, out: (l: string) => void) {
    this.acc = new RnnRegAcc(rnnOf(space), out);
  }
  /** Returns [reg, lo, hi] when a whole register value is complete. */
  push(reg: number, v: number): [number, number, number] | undefined {
    if (!this.acc.push(reg, v)) return undefined;
    const x = this.acc.value;
    return [this.acc.off, Number(x & 0xffffffffn), Number(x >> 32n)];
  }
}
