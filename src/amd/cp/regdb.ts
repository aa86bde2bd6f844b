/**
 * The PM4 register database of one generation, expanded from the generated compact tables
 * (regs-<gen>.gen.ts, from Mesa's register JSON): name <-> dword offset, bit fields, enums.
 * Offsets are dword offsets in the MMIO space; SET_*_REG packets address them relative to
 * the base of their space (REG_SPACES).
 */
import * as gfx9 from './regs-gfx9.gen.js';
import * as gfx103 from './regs-gfx103.gen.js';
import * as gfx11 from './regs-gfx11.gen.js';
import { UsageError } from '../../core/errors.js';

/** The generations the command processor models. */
export type Pm4Gen = 'gfx9' | 'gfx103' | 'gfx11';
export const PM4_GENS: readonly Pm4Gen[] = ['gfx9', 'gfx103', 'gfx11'];

/** Parse a user's generation name: gfx9/gfx900, gfx10.3/gfx103/gfx1030, gfx11/gfx1100. */
export function parsePm4Gen(s: string): Pm4Gen {
  const g = s.toLowerCase();
  if (g === 'gfx9' || /^gfx90[0-9a-c]$/.test(g)) return 'gfx9';
  if (g === 'gfx10.3' || g === 'gfx103' || /^gfx103[0-6]$/.test(g)) return 'gfx103';
  if (g === 'gfx11' || /^gfx110[0-3]$/.test(g)) return 'gfx11';
  throw new UsageError(`unknown AMD generation '${s}' (gfx9, gfx10.3 or gfx11)`);
}

/** CP register spaces (dword offsets): the SET_*_REG packet of each adds its base. */
export const REG_SPACES = {
  config: { base: 0x2000, end: 0x2c00 },
  sh: { base: 0x2c00, end: 0x3000 },
  context: { base: 0xa000, end: 0xb000 },
  uconfig: { base: 0xc000, end: 0x10000 },
} as const;
export type RegSpace = keyof typeof REG_SPACES;
/** Size of the modelled register file in dwords (covers every space). */
export const REG_FILE_DWORDS = 0x10000;

export function spaceOf(dw: number): RegSpace | undefined {
  for (const k of ['config', 'sh', 'context', 'uconfig'] as const) {
    const s = REG_SPACES[k];
    if (dw >= s.base && dw < s.end) return k;
  }
  return undefined;
}

export interface RegField {
  readonly name: string;
  readonly lo: number;
  readonly hi: number;
  /** Value names, when the field has an enum. */
  readonly enumName?: string;
  readonly values?: ReadonlyMap<number, string>;
}

export interface RegInfo {
  readonly name: string;
  /** Dword offset in the MMIO space. */
  readonly offset: number;
  readonly space: RegSpace;
  readonly fields: readonly RegField[];
  /** Other names at the same offset (Mesa lists merged-stage aliases). */
  readonly aliases: readonly string[];
}

export interface DecodedField {
  readonly name: string;
  readonly value: number;
  /** Enum value name, if the field has one and the value is named. */
  readonly text?: string;
}

type Tables = { REGS: readonly (readonly [number, string, number])[]; TYPES: readonly string[]; ENUMS: readonly (readonly [string, string])[] };

/** Extract bits lo..hi (inclusive) of a 32-bit value. */
export function bits(v: number, lo: number, hi: number): number {
  const w = hi - lo + 1;
  return w >= 32 ? v >>> 0 : ((v >>> lo) & (2 ** w - 1)) >>> 0;
}

/** Expand packed field strings 'NAME:lo:hi[:enum]|...' against an enum table. */
export function expandFields(s: string, enums: readonly (readonly [string, string])[], cache: Map<number, ReadonlyMap<number, string>>): RegField[] {
  if (s === '') return [];
  return s.split('|').map((f) => {
    const [name, lo, hi, e] = f.split(':');
    const field: RegField = { name: name!, lo: Number(lo), hi: Number(hi) };
    if (e === undefined) return field;
    const ei = Number(e);
    let m = cache.get(ei);
    if (!m) {
      const ent = enums[ei]![1];
      m = new Map(ent === '' ? [] : ent.split('|').map((x) => {
        const k = x.lastIndexOf('=');
        return [Number(x.slice(k + 1)), x.slice(0, k)] as const;
      }));
      cache.set(ei, m);
    }
    return { ...field, enumName: enums[ei]![0], values: m };
  });
}

export class RegDb {
  readonly gen: Pm4Gen;
  readonly regs: readonly RegInfo[];
  private readonly byOffset = new Map<number, RegInfo>();
  private readonly byName = new Map<string, RegInfo>();

  constructor(gen: Pm4Gen, t: Tables) {
    this.gen = gen;
    const typeCache = new Map<number, RegField[]>();
    const enumCache = new Map<number, ReadonlyMap<number, string>>();
    const list: RegInfo[] = [];
    const aliasLists = new Map<number, string[]>();
    for (const [off, name, ti] of t.REGS) {
      let fields = ti >= 0 ? typeCache.get(ti) : [];
      if (fields === undefined) {
        fields = expandFields(t.TYPES[ti]!, t.ENUMS, enumCache);
        typeCache.set(ti, fields);
      }
      const prev = this.byOffset.get(off);
      if (prev) {
        aliasLists.get(off)!.push(name);
        this.byName.set(name, { ...prev, name, fields });
        continue;
      }
      const aliases: string[] = [];
      aliasLists.set(off, aliases);
      const r: RegInfo = { name, offset: off, space: spaceOf(off)!, fields, aliases };
      list.push(r);
      this.byOffset.set(off, r);
      this.byName.set(name, r);
    }
    this.regs = list;
  }

  /** The register at a dword offset (the first name Mesa lists there). */
  at(offset: number): RegInfo | undefined {
    return this.byOffset.get(offset);
  }

  get(name: string): RegInfo | undefined {
    return this.byName.get(name);
  }

  /** Dword offset of a register by name; throws when this generation has no such register. */
  offset(name: string): number {
    const r = this.byName.get(name);
    if (!r) throw new RangeError(`${this.gen} has no register ${name}`);
    return r.offset;
  }

  /** Name of the register at `offset`, or `<space>+0x...` for an offset Mesa does not name. */
  nameAt(offset: number): string {
    const r = this.byOffset.get(offset);
    if (r) return r.name;
    const sp = spaceOf(offset);
    return sp ? `${sp.toUpperCase()}_REG_0x${offset.toString(16)}` : `REG_0x${offset.toString(16)}`;
  }

  /** Decode a register value field by field (no fields: one pseudo-field holding the value). */
  decode(offset: number, value: number): DecodedField[] {
    const r = this.byOffset.get(offset);
    if (!r || r.fields.length === 0) return [];
    return decodeWith(r.fields, value);
  }

  /** Field value of a register value by field name (undefined when the field is absent). */
  field(regName: string, fieldName: string, value: number): number | undefined {
    const f = this.byName.get(regName)?.fields.find((x) => x.name === fieldName);
    return f ? bits(value, f.lo, f.hi) : undefined;
  }
}

export function decodeWith(fields: readonly RegField[], value: number): DecodedField[] {
  return fields.map((f) => {
    const v = bits(value, f.lo, f.hi);
    const text = f.values?.get(v);
    return text !== undefined ? { name: f.name, value: v, text } : { name: f.name, value: v };
  });
}

const cache = new Map<Pm4Gen, RegDb>();

/** The register database of a generation (built once, on first use). */
export function regDb(gen: Pm4Gen): RegDb {
  let db = cache.get(gen);
  if (!db) {
    db = new RegDb(gen, gen === 'gfx9' ? gfx9 : gen === 'gfx103' ? gfx103 : gfx11);
    cache.set(gen, db);
  }
  return db;
}
