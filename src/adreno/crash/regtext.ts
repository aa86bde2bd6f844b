/**
 * Register names and values as crashdec prints them (rnndec's text). Everything that turns a
 * register or packet-payload value into text goes through the few functions here, so that the
 * shared formatter (regs/db.ts `formatValue`, being reworked for rnndec fidelity) is one call to
 * switch: `valueText` and `fieldsText`.
 */
import { DOMAINS, formatValue, genBit, type Gen, type RegInfo, type RegisterSpace } from '../regs/db.js';

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

/** rnndec prints numbers as `%#x`: `0` for zero, `0x..` otherwise. */
const sharpx = (v: number): string => (v ? `0x${v.toString(16)}` : '0');

/** rnndec prints array indices as `%#x` (so index 0 is `[0]`). */
function rnnIndex(name: string): string {
  return name.replace(/\[0x0\]/g, '[0]');
}

/** An array declared without registers inside (rnndec names its elements `NAME[i]+off`). */
function isBareArray(r: RegInfo): boolean {
  return r.index >= 0 && r.base.endsWith('[]');
}

interface BareArray {
  readonly start: number;
  readonly stride: number;
  readonly length: number;
  readonly name: string;
}

const bareCache = new Map<string, BareArray[]>();

/** Arrays without registers inside, for a register space's domain and generation. */
function bareArrays(space: RegisterSpace): BareArray[] {
  const key = `${space.domain}/${space.gen}`;
  let a = bareCache.get(key);
  if (a) return a;
  a = [];
  const bit = genBit(space.gen);
  for (const r of DOMAINS[space.domain]?.regs ?? []) {
    if (r[4] & bit && r[7] > 0 && r[1].endsWith('[]')) a.push({ start: r[0], stride: r[6] || 1, length: r[7], name: r[1].slice(0, -2) });
  }
  bareCache.set(key, a);
  return a;
}

function bareElement(space: RegisterSpace, offset: number): string | undefined {
  for (const b of bareArrays(space)) {
    if (offset < b.start || offset >= b.start + b.stride * b.length) continue;
    const rel = offset - b.start;
    return `${b.name}[${sharpx(Math.floor(rel / b.stride))}]+${sharpx(rel % b.stride)}`;
  }
  return undefined;
}

/** The register's name as rnndec gives it, or `0x%x` for an offset the database does not know. */
export function regName(space: RegisterSpace, offset: number): string {
  const r = space.at(offset);
  if (r) return isBareArray(r) ? (bareElement(space, offset) ?? `${rnnIndex(r.name)}+0`) : rnnIndex(r.name);
  const h = space.highHalfAt(offset);
  if (h) return `${rnnIndex(h.name)}_HI`;
  return bareElement(space, offset) ?? sharpx(offset);
}

/** Whether rnndec has type information for the register (else it prints the raw `%08x`). */
export function hasTypeInfo(space: RegisterSpace, offset: number): boolean {
  const r = space.at(offset);
  return r ? !isBareArray(r) : !!space.highHalfAt(offset);
}

/** Register width (32 or 64) at an offset (a reg64's high dword counts as 64); unknown: 32. */
export function regWidth(space: RegisterSpace, offset: number): number {
  return space.at(offset)?.width ?? space.highHalfAt(offset)?.width ?? 32;
}

/**
 * The decoded value of a register (`{ FIELD = V | FLAG }`, `0x...`, an enum name ...).
 * SWITCH POINT: the shared formatter's current API.
 */
export function valueText(type: string, lo: number, hi: number, width: number, gen: Gen): string {
  return formatValue(type, lo >>> 0, hi >>> 0, width, gen);
}

/** `NAME: decoded` or `NAME: %08x` (dump_register_val's text after the level tabs). */
export function registerText(space: RegisterSpace, offset: number, lo: number, hi: number, gen: Gen): string {
  const r = space.at(offset) ?? space.highHalfAt(offset);
  if (r && hasTypeInfo(space, offset)) return `${regName(space, offset)}: ${valueText(r.type, lo, hi, space.at(offset) ? r.width : 32, gen)}`;
  return `${regName(space, offset)}: ${hex64(lo, hi)}`;
}

/**
 * dump_domain: one line per payload dword described by the packet's domain, stopping at the
 * first dword the domain does not describe. Bitsets print as `{ A = 1 | B }`, other types as
 * `{ NAME = value }`. SWITCH POINT: `fieldsText`.
 */
export function domainLines(name: string, dw: ArrayLike<number>, level: number, gen: Gen): string[] {
  const d = DOMAINS[name];
  if (!d) return [];
  const bit = genBit(gen);
  const out: string[] = [];
  const n = dw.length;
  for (let i = 0; i < n; i++) {
    const r = d.regs.find((x) => (x[4] & bit) !== 0 && (x[7] ? i >= x[0] && (i - x[0]) % (x[6] || 1) === 0 && (i - x[0]) / (x[6] || 1) < x[7] : x[0] === i));
    if (!r) break;
    const lo = dw[i]! >>> 0;
    let hi = 0;
    const wide = r[2] === 64 && i < n - 1;
    if (wide) hi = dw[++i]! >>> 0;
    out.push(tabs(level) + fieldsText(r[1], r[3], lo, hi, wide ? 64 : 32, gen));
  }
  return out;
}

/** One payload dword's text: a bitset's own braces, or `{ NAME = value }`. SWITCH POINT. */
export function fieldsText(name: string, type: string, lo: number, hi: number, width: number, gen: Gen): string {
  const v = valueText(type, lo, hi, width, gen);
  if (v.startsWith('{')) return v;
  return `{ ${name} = ${v} }`;
}

/**
 * 64-bit registers arrive as two dwords (lo, hi): regacc accumulates them, warning as crashdec
 * does when a dump misses a half.
 */
export class RegAcc {
  private lo: { reg: number; v: number } | undefined;
  private readonly space: RegisterSpace;
  private readonly out: (l: string) => void;
  constructor(space: RegisterSpace, out: (l: string) => void) {
    this.space = space;
    this.out = out;
  }
  /** Returns [reg, lo, hi] when a whole register value is complete. */
  push(reg: number, v: number): [number, number, number] | undefined {
    if (this.lo) {
      const lo = this.lo;
      this.lo = undefined;
      if (reg !== lo.reg + 1) {
        this.out(`WARNING: 64b discontinuity (${reg.toString(16)}, expected ${(lo.reg + 1).toString(16)})`);
        return [lo.reg, lo.v, 0];
      }
      return [lo.reg, lo.v, v];
    }
    if (regWidth(this.space, reg) === 64) {
      if (regName(this.space, reg).endsWith('_HI')) {
        this.out(`WARNING: 64b discontinuity (no _LO dword for ${reg.toString(16)})`);
        return [reg, v, 0];
      }
      this.lo = { reg, v };
      return undefined;
    }
    return [reg, v, 0];
  }
}

