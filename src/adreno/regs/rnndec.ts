/**
 * rules-ng value decoding with freedreno's exact text (what `cffdump`/`crashdec` print through
 * librnn): the register's own low/high/shr applied first, bitsets as `{ A | B = 3 | 0x80000000 }`
 * (unknown `UNKn` fields only when non-zero, leftover bits in hex), enums, booleans
 * (`TRUE`/`FALSE`), `%f` floats (16-bit fields as half floats), fixed point, `r0.x` register ids,
 * and C's `%#x` (`0` for zero). Also the lookup of an offset in a domain the way librnn does it:
 * the first element in document order that covers the offset.
 *
 * Values are bigints: 64-bit registers are decoded whole. This is a printing path, not a hot one.
 */
import { BITSETS, DOMAINS, ENUMS, type RegDef } from './db.gen.js';
import { genBit, type Gen } from './db.js';

/** C's `%#x`: no prefix for zero. */
export function cHex(v: bigint | number): string {
  const b = typeof v === 'bigint' ? v : BigInt(v);
  return b === 0n ? '0' : '0x' + b.toString(16);
}

/** C's `%f` (6 decimals, `-0.000000`, `inf`, `nan`). */
export function cFloat(x: number, signBit = false): string {
  if (Number.isNaN(x)) return signBit ? '-nan' : 'nan';
  if (!Number.isFinite(x)) return x < 0 ? '-inf' : 'inf';
  if (Object.is(x, -0)) return '-0.000000';
  if (Math.abs(x) < 1e21) return x.toFixed(6);
  // toFixed switches to exponent notation from 1e21; C prints every integer digit.
  const neg = x < 0;
  return (neg ? '-' : '') + BigInt(Math.abs(x)).toString() + '.000000';
}

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);
const f64 = new Float64Array(1);
const u32x2 = new Uint32Array(f64.buffer);

function half(v: number): number {
  const sign = v & 0x8000 ? -1 : 1;
  const e = (v >>> 10) & 0x1f;
  const f = v & 0x3ff;
  if (e === 0) return sign * f * 2 ** -24;
  if (e === 0x1f) return f ? NaN : sign * Infinity;
  return sign * (1 + f / 1024) * 2 ** (e - 15);
}

/** A type with the bit range it reads (rules-ng typeinfo). */
export interface TypeInfo {
  readonly type: string;
  readonly low: number;
  readonly high: number;
  readonly shr: number;
}

const mask = (low: number, high: number): bigint => ((1n << BigInt(high + 1)) - 1n) ^ ((1n << BigInt(low)) - 1n);

const isUnknown = (name: string): boolean => /^UNK\d/.test(name);

/** Resolves a non-chip variant condition ("varset=V1,V2") to true/false. */
export type Cond = (c: string) => boolean;

function enumLookup(type: string, v: bigint, gen: Gen): string | undefined {
  const e = ENUMS[type];
  if (!e) return undefined;
  const bit = genBit(gen);
  const n = Number(v);
  for (const x of e) if (x[0] === n && x[2] & bit) return x[1];
  return undefined;
}

/** Decode `value` through a typeinfo, exactly as librnn's rnndec_decodeval prints it. */
export function decodeVal(ti: TypeInfo, value: bigint, gen: Gen, cond?: Cond): string {
  const width = ti.high - ti.low + 1;
  const m = mask(ti.low, ti.high);
  let v = (value & m) >> BigInt(ti.low);
  v <<= BigInt(ti.shr);
  let type = ti.type;
  if (type === '') type = BITSETS[type] ? type : width === 1 ? 'boolean' : 'hex';
  let res: string;
  const bits = BITSETS[type];
  if (bits) return decodeBitset(bits, v, gen, cond);
  if (ENUMS[type]) {
    res = enumLookup(type, v, gen) ?? cHex(v);
  } else if (type === 'hex' || type === 'address' || type === 'waddress') res = cHex(v);
  else if (type.startsWith('fixed:') || type.startsWith('ufixed:')) {
    const radix = parseInt(type.slice(type.indexOf(':') + 1), 10);
    if (type[0] === 'f' && (v >> BigInt(width - 1)) & 1n) res = '-' + cFloat(Number((1n << BigInt(width)) - v) / 2 ** radix);
    else res = cFloat(Number(v) / 2 ** radix);
  } else if (type === 'a3xx_regid') res = `r${v >> 2n}.${'xyzw'[Number(v & 3n)]}`;
  else if (type === 'uint') res = v.toString();
  else if (type === 'int') res = (v >> BigInt(width - 1)) & 1n ? '-' + ((1n << BigInt(width)) - v).toString() : v.toString();
  else if (type === 'boolean') res = v === 0n ? 'FALSE' : v === 1n ? 'TRUE' : '(null)';
  else if (type === 'float') {
    if (width === 32) {
      u32[0] = Number(v & 0xffffffffn);
      res = cFloat(f32[0]!, u32[0] >>> 31 === 1);
    } else if (width === 16) res = cFloat(half(Number(v & 0xffffn)), (v & 0x8000n) !== 0n);
    else if (width === 64) {
      u32x2[0] = Number(v & 0xffffffffn);
      u32x2[1] = Number((v >> 32n) & 0xffffffffn);
      res = cFloat(f64[0]!, u32x2[1]! >>> 31 === 1);
    } else res = cHex(v);
  } else res = cHex(v);
  const extra = value & ~m;
  if (extra) res += ` | ${cHex(extra)}`;
  return res;
}

function decodeBitset(fields: (typeof BITSETS)[string], v: bigint, gen: Gen, cond?: Cond): string {
  const bit = genBit(gen);
  const parts: string[] = [];
  let used = 0n;
  for (const f of fields) {
    if (!(f[5] & bit)) continue;
    if (f[6] && cond && !cond(f[6])) continue;
    const [name, low, high, ftype, shr] = f;
    const fm = mask(low, high);
    if ((v & fm) === 0n && isUnknown(name)) continue;
    used |= fm;
    const w = high - low + 1;
    const t = ftype === '' ? (w === 1 ? 'boolean' : 'hex') : ftype;
    if (t === 'boolean') {
      if (v & fm) parts.push(name);
      continue;
    }
    let sub: string;
    if (isUnknown(name) && t !== 'a3xx_regid') sub = cHex(((v & fm) >> BigInt(low)) << BigInt(shr));
    else sub = decodeVal({ type: t, low, high, shr }, v & fm, gen, cond);
    parts.push(`${name} = ${sub}`);
  }
  if (v & ~used) parts.push(cHex(v & ~used));
  return `{ ${parts.length ? parts.join(' | ') : '0'} }`;
}

/** What an offset names in a domain: librnn's decodeaddr result. */
export interface AddrInfo {
  readonly name: string;
  /** Undefined when the offset is not in the domain (the name is then its hex offset). */
  readonly ti: TypeInfo | undefined;
  /** 32 or 64. */
  readonly width: number;
  /** Dword of the element the offset falls in (1 = high half of a reg64). */
  readonly part: number;
  readonly def: RegDef | undefined;
}

function regTi(r: RegDef): TypeInfo {
  const w = r[2];
  return { type: r[3], low: r[8] ?? 0, high: r[9] ?? w - 1, shr: r[10] ?? 0 };
}

function elemName(r: RegDef, idx: number): string {
  // "ARR[].CHILD": the index printed with %#x, none for a one-element array.
  if (!r[7]) return r[1];
  return r[1].replace('[]', r[7] === 1 ? '' : `[${cHex(idx)}]`);
}

/**
 * A domain's offsets for one generation, as librnn resolves them: the first element in
 * document order that covers the offset wins (a reg64's second dword included).
 */
export class RnnDomain {
  readonly name: string;
  private readonly map = new Map<number, AddrInfo>();
  private readonly conditional: RegDef[] = [];
  private readonly bit: number;

  constructor(names: readonly string[], gen: Gen) {
    this.name = names[0]!;
    this.bit = genBit(gen);
    for (const dn of names) {
      const d = DOMAINS[dn];
      if (!d) continue;
      for (const r of d.regs) {
        if (!(r[4] & this.bit)) continue;
        if (r[5]) {
          this.conditional.push(r);
          continue;
        }
        this.addDef(this.map, r);
      }
    }
  }

  private addDef(map: Map<number, AddrInfo>, r: RegDef): void {
    const n = r[7] || 1;
    const stride = r[6] || 1;
    if (r[1].endsWith('[]')) {
      // An array without registers inside: librnn names each dword `ARR[idx]+off` and has no type for it.
      for (let i = 0; i < n; i++) {
        for (let p = 0; p < stride; p++) {
          const off = r[0] + i * stride + p;
          if (!map.has(off)) map.set(off, { name: `${elemName(r, i)}+${cHex(p)}`, ti: undefined, width: 0, part: p, def: r });
        }
      }
      return;
    }
    const dw = r[2] === 64 ? 2 : 1;
    const ti = regTi(r);
    for (let i = 0; i < n; i++) {
      const base = r[0] + i * stride;
      const name = elemName(r, i);
      for (let p = 0; p < dw; p++) {
        if (map.has(base + p)) continue;
        const suffix = p === 0 ? '' : r[3] === 'address' || r[3] === 'waddress' ? '_HI' : `+${cHex(p)}`;
        map.set(base + p, { name: name + suffix, ti, width: r[2], part: p, def: r });
      }
    }
  }

  /** Look an offset up; `cond` selects among non-chip variants (packet payload layouts). */
  lookup(offset: number, cond?: Cond): AddrInfo {
    if (this.conditional.length && cond) {
      // Conditional entries keep their document position relative to the others only
      // approximately: a matching conditional entry is taken before an unconditional one.
      for (const r of this.conditional) {
        if (!cond(r[5])) continue;
        const tmp = new Map<number, AddrInfo>();
        this.addDef(tmp, r);
        const hit = tmp.get(offset);
        if (hit) return hit;
      }
    }
    return this.map.get(offset) ?? { name: cHex(offset), ti: undefined, width: 32, part: 0, def: undefined };
  }

  has(offset: number): boolean {
    return this.map.has(offset);
  }

  /** Offset of a register by its printed name, if any. */
  offsetOf(name: string): number | undefined {
    for (const [off, info] of this.map) if (info.name === name) return off;
    return undefined;
  }
}

const domCache = new Map<string, RnnDomain>();

/** Cached librnn-style lookup for a domain (with fallbacks) on a generation. */
export function rnnDomain(names: readonly string[], gen: Gen): RnnDomain {
  const key = names.join('+') + '/' + gen;
  let d = domCache.get(key);
  if (!d) domCache.set(key, (d = new RnnDomain(names, gen)));
  return d;
}

/**
 * Resolver of non-chip variants ("varset=V") for a packet payload: the value of the field whose
 * type is that enum (the addvariant selector, e.g. CP_DRAW_INDIRECT_MULTI's OPCODE) decides.
 */
export function payloadCond(domain: string, dw: ArrayLike<number>, gen: Gen): Cond {
  const d = rnnDomain([domain], gen);
  const bit = genBit(gen);
  return (c: string) => {
    const eq = c.indexOf('=');
    const varset = c.slice(0, eq);
    const wanted = c.slice(eq + 1).split(',');
    for (let i = 0; i < dw.length && i < 8; i++) {
      const info = d.lookup(i);
      for (const f of (info.ti && BITSETS[info.ti.type]) || []) {
        if (f[3] !== varset || !(f[5] & bit)) continue;
        const v = Math.floor((dw[i]! >>> 0) / 2 ** f[1]) % 2 ** (f[2] - f[1] + 1);
        const name = ENUMS[varset]?.find((e) => e[0] === v && e[2] & bit)?.[1];
        return name !== undefined && wanted.some((w) => w.toUpperCase() === name.toUpperCase());
      }
    }
    return true;
  };
}

/** One decoded payload dword (or dword pair) of a packet, as cffdump's dump_domain prints it. */
export interface DomainField {
  readonly dword: number;
  readonly name: string;
  /** Bitset values print bare (`{ A | B = 1 }`), others as `{ NAME = value }`. */
  readonly bitset: boolean;
  readonly text: string;
}

/** Decode a payload through its rules-ng domain, stopping at the first dword the domain lacks. */
export function decodeDomain(dw: ArrayLike<number>, domain: string, gen: Gen): DomainField[] {
  if (!DOMAINS[domain]) return [];
  const d = rnnDomain([domain], gen);
  const cond = payloadCond(domain, dw, gen);
  const out: DomainField[] = [];
  for (let i = 0; i < dw.length; i++) {
    const info = d.lookup(i, cond);
    if (!info.ti) break;
    const at = i;
    let value = BigInt(dw[i]! >>> 0);
    if (info.ti.high >= 32 && i < dw.length - 1) {
      value |= BigInt(dw[i + 1]! >>> 0) << 32n;
      i++;
    }
    out.push({ dword: at, name: info.name, bitset: BITSETS[info.ti.type] !== undefined, text: decodeVal(info.ti, value, gen, cond) });
  }
  return out;
}

/** cffdec's regacc: accumulates the two dwords of a 64-bit register. */
export class RegAcc {
  off = -1;
  value = 0n;
  info: AddrInfo | undefined;
  private hasLo = false;
  private readonly dom: RnnDomain;
  private readonly out: (l: string) => void;
  constructor(dom: RnnDomain, out: (l: string) => void) {
    this.dom = dom;
    this.out = out;
  }

  /** True when a whole register value is ready in off/info/value. */
  push(off: number, v: number): boolean {
    if (this.hasLo) {
      this.hasLo = false;
      if (off !== this.off + 1) {
        this.out(`WARNING: 64b discontinuity (${off.toString(16)}, expected ${(this.off + 1).toString(16)})`);
        return true;
      }
      this.value |= BigInt(v >>> 0) << 32n;
      return true;
    }
    this.off = off;
    this.value = BigInt(v >>> 0);
    this.info = this.dom.lookup(off);
    this.hasLo = this.info.width === 64;
    if (this.hasLo && this.info.name.endsWith('_HI')) {
      this.out(`WARNING: 64b discontinuity (no _LO dword for ${off.toString(16)})`);
      this.hasLo = false;
    }
    return !this.hasLo;
  }
}
