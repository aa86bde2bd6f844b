/**
 * The Adreno register database at run time, built from the generated rules-ng tables
 * (db.gen.ts). One database serves three jobs: name <-> offset constants, value -> fields
 * pretty-printing, and the layout of the simulated register file (cp/ uses it).
 */
import { f16 } from '../../core/float.js';
import { BITSETS, DOMAINS, ENUMS, GENS, type FieldDef, type RegDef } from './db.gen.js';

export type Gen = 'a2xx' | 'a3xx' | 'a4xx' | 'a5xx' | 'a6xx' | 'a7xx';
export const ALL_GENS: readonly Gen[] = ['a2xx', 'a3xx', 'a4xx', 'a5xx', 'a6xx', 'a7xx'];

/** Bit of a generation in the generated variants masks. */
const GEN_BITS: Record<Gen, number> = { a2xx: 1, a3xx: 2, a4xx: 4, a5xx: 8, a6xx: 16, a7xx: 32 };
export function genBit(gen: Gen): number {
  return GEN_BITS[gen];
}
void GENS;

/** Map a GPU id (e.g. 630, 740) or chip id to a generation. */
export function genFromGpuId(gpuId: number): Gen | undefined {
  const major = gpuId >= 1000 ? Math.floor(gpuId / 100) % 10 : Math.floor(gpuId / 100);
  switch (major) {
    case 2: return 'a2xx';
    case 3: return 'a3xx';
    case 4: return 'a4xx';
    case 5: return 'a5xx';
    case 6: return 'a6xx';
    case 7: return 'a7xx';
    default: return undefined;
  }
}

/** Map a 64-bit chip id (core.major.minor.patch in bytes 3..0 of the low word, as msm reports it) to a generation. */
export function genFromChipId(chipLo: number, chipHi: number): Gen | undefined {
  // Old-style chip ids: 0xCCMMmmpp with CC = core (6 for a6xx); newer ids put a generation in the high word.
  const core = (chipLo >>> 24) & 0xff;
  if (core >= 2 && core <= 7) return ALL_GENS[core - 2];
  // KGSL-style a7xx ids carry 0x43 in the top byte (FD740 0x43050a01, FD750 0x43051401,
  // X1-85 0x43050c01 in freedreno's device table); a 0xffff high word is the any-speedbin form.
  if (core === 0x43) return 'a7xx';
  const hiCore = (chipHi >>> 24) & 0xff;
  if (hiCore >= 2 && hiCore <= 7) return ALL_GENS[hiCore - 2];
  return undefined;
}

/** The main register domain of a generation (a7xx shares A6XX with variant masks). */
export function mainDomain(gen: Gen): string {
  return gen === 'a7xx' ? 'A6XX' : gen.toUpperCase();
}

export interface RegInfo {
  /** Display name, with the array index filled in: `CP_SCRATCH[0x2]`, `CP_PROTECT[0x3].REG`. */
  readonly name: string;
  readonly offset: number;
  readonly width: 32 | 64;
  /** Bitset, enum or builtin type name ('' = plain hex). */
  readonly type: string;
  /** Array index, or -1 when not in an array. */
  readonly index: number;
  /** Name without the index (`CP_SCRATCH[].` form) for grouping. */
  readonly base: string;
  /** The register's own bit range and shift (rules-ng low/high/shr on the reg; 0, width-1, 0 when absent). */
  readonly low: number;
  readonly high: number;
  readonly shr: number;
}

/** Array index as freedreno prints it (C's `%#x`: `[0]`, `[0x1]`); a one-element array has none. */
function withIndex(name: string, i: number, length = 0): string {
  return name.replace('[]', length === 1 ? '' : i === 0 ? '[0]' : `[0x${i.toString(16)}]`);
}

/** A register space (domain) for one generation: offset -> register, name -> register. */
export class RegisterSpace {
  readonly domain: string;
  readonly gen: Gen;
  /** offset -> [register, dword half (0 low / 1 high of a reg64)] */
  private readonly byOffset = new Map<number, RegInfo>();
  private readonly hiHalf = new Map<number, RegInfo>();
  private readonly byName = new Map<string, RegInfo>();
  /** offsetOf's answers for names not spelled as stored. */
  private readonly spelled = new Map<string, number | undefined>();
  readonly count: number;

  /** `extra` domains are merged in after the main one (a2xx/a3xx share AXXX). */
  constructor(domain: string, gen: Gen, extra: readonly string[] = []) {
    this.domain = domain;
    this.gen = gen;
    const bit = genBit(gen);
    let count = 0;
    for (const dn of [domain, ...extra]) {
      const d = DOMAINS[dn];
      if (!d) throw new Error(`unknown register domain ${dn}`);
      for (const r of d.regs) {
        if (!(r[4] & bit)) continue;
        count += this.add(r);
      }
    }
    this.count = count;
  }

  private add(r: RegDef): number {
    const [off, name, width, type, , , stride, length, low, high, shr] = r;
    const n = length || 1;
    let added = 0;
    for (let i = 0; i < n; i++) {
      const info: RegInfo = {
        name: length ? withIndex(name, i, length) : name,
        offset: off + i * stride,
        width: width === 64 ? 64 : 32,
        type,
        index: length ? i : -1,
        base: name,
        low: low ?? 0,
        high: high ?? width - 1,
        shr: shr ?? 0,
      };
      if (!this.byOffset.has(info.offset)) this.byOffset.set(info.offset, info);
      if (info.width === 64 && !this.hiHalf.has(info.offset + 1)) this.hiHalf.set(info.offset + 1, info);
      if (!this.byName.has(info.name)) this.byName.set(info.name, info);
      added++;
    }
    return added;
  }

  /** Register starting at `offset`, if any. */
  at(offset: number): RegInfo | undefined {
    return this.byOffset.get(offset);
  }

  /** The 64-bit register whose high dword is at `offset`, if any (and no register starts there). */
  highHalfAt(offset: number): RegInfo | undefined {
    return this.byOffset.has(offset) ? undefined : this.hiHalf.get(offset);
  }

  /** Name for an offset: the register, `NAME+1` for a reg64 high dword, or a raw `0x1234`. */
  nameOf(offset: number): string {
    const r = this.byOffset.get(offset);
    if (r) return r.name;
    const h = this.hiHalf.get(offset);
    if (h) return `${h.name}+1`;
    return `0x${offset.toString(16)}`;
  }

  /** Offset of a register by name: `CP_SCRATCH[0x2]`, `CP_SCRATCH[2]`, `CP_PROTECT[3].REG`. */
  offsetOf(name: string): number | undefined {
    const direct = this.byName.get(name);
    if (direct) return direct.offset;
    // Other spellings, normalised once each: the CP and the pipeline blocks look registers up by
    // name at every draw (`RB_MRT[1].BASE` is stored as `RB_MRT[0x1].BASE`).
    if (this.spelled.has(name)) return this.spelled.get(name);
    const norm = name.replace(/\[(\d+)\]/g, (_m, d: string) => (d === '0' ? '[0]' : `[0x${parseInt(d, 10).toString(16)}]`)).replace('[0x0]', '[0]');
    const off = (this.byName.get(norm) ?? this.byName.get(norm + '.REG'))?.offset;
    this.spelled.set(name, off);
    return off;
  }

  /** Offset by name, throwing a readable error when unknown. */
  reg(name: string): number {
    const o = this.offsetOf(name);
    if (o === undefined) throw new Error(`no register ${name} in ${this.domain} (${this.gen})`);
    return o;
  }

  *entries(): IterableIterator<RegInfo> {
    yield* this.byOffset.values();
  }
}

const spaceCache = new Map<string, RegisterSpace>();

/** Cached register space of a domain for a generation. */
export function registerSpace(domain: string, gen: Gen, extra: readonly string[] = []): RegisterSpace {
  const key = `${domain}+${extra.join('+')}/${gen}`;
  let s = spaceCache.get(key);
  if (!s) spaceCache.set(key, (s = new RegisterSpace(domain, gen, extra)));
  return s;
}

/** The GPU register space of a generation. */
export function gpuRegs(gen: Gen): RegisterSpace {
  return registerSpace(mainDomain(gen), gen, gen === 'a2xx' || gen === 'a3xx' ? ['AXXX'] : []);
}

/** Value of an enum by name for a generation, or undefined. */
export function enumValue(enumName: string, valueName: string, gen: Gen): number | undefined {
  const e = ENUMS[enumName];
  if (!e) return undefined;
  const bit = genBit(gen);
  for (const v of e) if (v[1] === valueName && v[2] & bit) return v[0];
  return undefined;
}

/** Name of an enum value for a generation, or undefined. */
export function enumName(enumName: string, value: number, gen: Gen): string | undefined {
  const e = ENUMS[enumName];
  if (!e) return undefined;
  const bit = genBit(gen);
  for (const v of e) if (v[0] === value && v[2] & bit) return v[1];
  return undefined;
}

export function hasEnum(name: string): boolean {
  return ENUMS[name] !== undefined;
}

/** Fields of a bitset for a generation (non-chip conditions resolved by `cond`). */
const fieldCache = new Map<string, FieldDef[] | undefined>();
export function bitsetFields(type: string, gen: Gen, cond?: (c: string) => boolean): FieldDef[] | undefined {
  const key = gen + ':' + type;
  let fs = fieldCache.get(key);
  if (fs === undefined && !fieldCache.has(key)) {
    const b = BITSETS[type];
    const bit = genBit(gen);
    fs = b ? b.filter((f) => f[5] & bit) : undefined;
    fieldCache.set(key, fs);
  }
  if (!fs || !cond) return fs;
  return fs.filter((f) => f[6] === '' || cond(f[6]));
}

function bits(lo: number, hi: number, low: number, high: number): number {
  // Extract bits low..high (inclusive, may straddle the 32-bit halves) as an unsigned number: shifts
  // and masks within a half (every register read of the CP and the pipeline blocks comes here), a
  // straddling field of up to 53 bits from its two parts, exactly; wider ones bit by bit as before.
  const width = high - low + 1;
  if (high < 32) return width === 32 ? lo >>> 0 : (lo >>> low) & ((1 << width) - 1);
  if (low >= 32) return width === 32 ? hi >>> 0 : (hi >>> (low - 32)) & ((1 << width) - 1);
  if (width <= 53) {
    const hw = high - 31;
    const top = hw === 32 ? hi >>> 0 : hi & ((1 << hw) - 1);
    return top * 2 ** (32 - low) + (lo >>> low);
  }
  return bitByBit(lo, hi, low, high);
}

function bitByBit(lo: number, hi: number, low: number, high: number): number {
  let v = 0;
  for (let b = high; b >= low; b--) {
    const bitv = b < 32 ? (lo >>> b) & 1 : (hi >>> (b - 32)) & 1;
    v = v * 2 + bitv;
  }
  return v;
}

function hexs(v: number): string {
  return '0x' + v.toString(16);
}

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);

/** Format a scalar of a builtin/enum type. */
export function formatScalar(type: string, v: number, width: number, gen: Gen): string {
  if (type === '' || type === 'hex' || type === 'address' || type === 'waddress') return hexs(v);
  if (type === 'boolean') return v ? 'true' : 'false';
  if (type === 'uint' || type === 'offset') return String(v);
  if (type === 'int') return String(width < 53 && v >= 2 ** (width - 1) ? v - 2 ** width : v);
  if (type === 'float') {
    if (width === 16) return String(f16(v & 0xffff));
    u32[0] = v >>> 0;
    return String(f32[0]);
  }
  if (type.startsWith('fixed:') || type.startsWith('ufixed:')) {
    const radix = parseInt(type.slice(type.indexOf(':') + 1), 10);
    const signed = type.startsWith('fixed') && width < 53 && v >= 2 ** (width - 1);
    return String((signed ? v - 2 ** width : v) / 2 ** radix);
  }
  if (type === 'a3xx_regid') return `r${v >> 2}.${'xyzw'[v & 3]}`;
  const en = ENUMS[type];
  if (en) return enumName(type, v, gen) ?? hexs(v);
  return hexs(v);
}

/**
 * Format a register (or payload dword) value with its fields, freedreno style:
 * `{ FIELD = VALUE | FLAG }`, or the plain value when the type has no fields.
 */
export function formatValue(type: string, lo: number, hi: number, width: number, gen: Gen, cond?: (c: string) => boolean, range?: { low: number; high: number; shr: number }): string {
  if (range && (range.low !== 0 || range.high !== width - 1 || range.shr !== 0)) {
    // The register's own range: only bits low..high hold the value (shifted left by shr);
    // anything outside is shown apart, as freedreno does.
    const v = bits(lo >>> 0, hi >>> 0, range.low, range.high) * 2 ** range.shr;
    const w = range.high - range.low + 1 + range.shr;
    const inner = formatValue(type, v % 2 ** 32, Math.floor(v / 2 ** 32), w > 32 ? 64 : 32, gen, cond);
    const outside = (width === 64 ? hi * 2 ** 32 + (lo >>> 0) : lo >>> 0) - bits(lo >>> 0, hi >>> 0, range.low, range.high) * 2 ** range.low;
    return outside ? `${inner} | 0x${outside.toString(16)}` : inner;
  }
  const fields = bitsetFields(type, gen, cond);
  if (!fields || fields.length === 0) {
    if (width === 64) return formatScalar(type === '' ? 'hex' : type, hi * 2 ** 32 + (lo >>> 0), 64, gen);
    return formatScalar(type, lo >>> 0, 32, gen);
  }
  const parts: string[] = [];
  let covered = 0;
  let coveredHi = 0;
  for (const f of fields) {
    const [name, low, high, ftype, shr] = f;
    for (let b = low; b <= high && b < 64; b++) {
      if (b < 32) covered |= 1 << b;
      else coveredHi |= 1 << (b - 32);
    }
    const raw = bits(lo >>> 0, hi >>> 0, low, high);
    const w = high - low + 1;
    if (ftype === 'boolean' || (w === 1 && ftype === '')) {
      if (raw) parts.push(name);
      continue;
    }
    const val = shr ? raw * 2 ** shr : raw;
    parts.push(`${name} = ${formatScalar(ftype, val, w, gen)}`);
  }
  // Bits no field describes are shown, not dropped.
  const restLo = (lo & ~covered) >>> 0;
  const restHi = width === 64 ? (hi & ~coveredHi) >>> 0 : 0;
  if (restLo || restHi) parts.push('0x' + (restHi * 2 ** 32 + restLo).toString(16));
  return `{ ${parts.join(' | ')} }`;
}

/** Decode a register value into field name -> number (for tools and tests). */
export function decodeFields(type: string, lo: number, hi: number, gen: Gen): Record<string, number> {
  const out: Record<string, number> = {};
  for (const f of bitsetFields(type, gen) ?? []) out[f[0]] = bits(lo >>> 0, hi >>> 0, f[1], f[2]) * 2 ** f[4];
  return out;
}

/** Encode field values into a register value (32-bit). Unknown field names throw. */
export function encodeFields(type: string, fields: Record<string, number | boolean | string>, gen: Gen): number {
  const defs = bitsetFields(type, gen) ?? [];
  let v = 0;
  for (const [k, raw] of Object.entries(fields)) {
    const f = defs.find((d) => d[0] === k);
    if (!f) throw new Error(`no field ${k} in ${type}`);
    let x: number;
    if (typeof raw === 'boolean') x = raw ? 1 : 0;
    else if (typeof raw === 'string') {
      const e = enumValue(f[3], raw, gen);
      if (e === undefined) throw new Error(`no value ${raw} in ${f[3]}`);
      x = e;
    } else x = raw;
    if (f[4]) x = Math.floor(x / 2 ** f[4]);
    const w = f[2] - f[1] + 1;
    const mask = w >= 32 ? 0xffffffff : (1 << w) - 1;
    v = (v | ((x & mask) << f[1])) >>> 0;
  }
  return v >>> 0;
}

/** Counts for the coverage note: domains, registers, bitsets, enums. */
export function dbStats(): { domains: number; regDefs: number; bitsets: number; enums: number } {
  let regDefs = 0;
  for (const d of Object.values(DOMAINS)) regDefs += d.regs.length;
  return { domains: Object.keys(DOMAINS).length, regDefs, bitsets: Object.keys(BITSETS).length, enums: Object.keys(ENUMS).length };
}

export { DOMAINS, ENUMS, BITSETS };
