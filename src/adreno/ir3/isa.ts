/**
 * The ir3 ISA tables (isa.gen.ts) made ready to use: bitsets linked to their parents with the
 * patterns merged along the chain, fields classified (builtin / enum / bitset / assert),
 * expressions parsed once, and each root's leaves filtered per gpu_id.
 *
 * Generations are Mesa's gpu_id numbers: the XML's <gen min="600"/> means a6xx and later.
 * `gpuIdOf` maps the names users type (a630, 630, 6, a6xx) to one.
 */
import { IR3_BITSETS, IR3_ENUMS, IR3_EXPRS, IR3_ROOTS, type Ir3FieldDef } from './isa.gen.js';
import { parseExpr, type ParsedExpr } from './expr.js';

const BUILTIN = new Set(['branch', 'absbranch', 'int', 'uint', 'hex', 'offset', 'uoffset', 'float', 'bool', 'bool_inv', 'custom']);

export type FieldKind = 'builtin' | 'enum' | 'bitset' | 'assert';

export interface Field extends Ir3FieldDef {
  readonly kind: FieldKind;
  /** Bit width (derived fields: the `width` attribute, else 1, as isaspec has it). */
  readonly width: number;
  /** `low` and the field's mask as BigInts, made once (the disassembler extracts fields from a BigInt word). */
  readonly lowB: bigint;
  readonly maskB: bigint;
}

export interface Case {
  readonly expr?: string;
  readonly display?: string;
  readonly fields: readonly Field[];
}

export interface Bitset {
  readonly index: number;
  readonly name: string;
  readonly parent?: Bitset;
  readonly root: string;
  readonly size: number;
  /** Generation range through the whole chain (gpu_id). */
  readonly genMin: number;
  readonly genMax: number;
  /** Patterns merged through the chain. */
  readonly match: bigint;
  readonly dontcare: bigint;
  readonly mask: bigint;
  readonly cases: readonly Case[];
}

export const ENUMS: ReadonlyMap<string, ReadonlyMap<bigint, string>> = new Map(
  Object.entries(IR3_ENUMS).map(([k, v]) => [k, new Map(v.map(([n, d]) => [BigInt(n), d]))]),
);

export const EXPRS: ReadonlyMap<string, ParsedExpr> = new Map(Object.entries(IR3_EXPRS).map(([k, v]) => [k, parseExpr(v)]));

function buildBitsets(): Bitset[] {
  const firstByName = new Map<string, number>();
  IR3_BITSETS.forEach((b, i) => {
    if (!firstByName.has(b.name)) firstByName.set(b.name, i);
  });
  const out: Bitset[] = [];
  const build = (i: number): Bitset => {
    if (out[i]) return out[i]!;
    const d = IR3_BITSETS[i]!;
    const parent = d.extends !== undefined ? build(firstByName.get(d.extends)!) : undefined;
    const cases: Case[] = d.cases.map((c) => ({
      ...(c.expr !== undefined ? { expr: c.expr } : {}),
      ...(c.display !== undefined ? { display: c.display } : {}),
      fields: c.fields.map((f) => {
        const kind: FieldKind = f.type === 'assert' ? 'assert' : BUILTIN.has(f.type) ? 'builtin' : ENUMS.has(f.type) ? 'enum' : 'bitset';
        const width = f.high - f.low + 1;
        return { ...f, kind, width, lowB: BigInt(f.low), maskB: (1n << BigInt(width)) - 1n };
      }),
    }));
    const bs: Bitset = {
      index: i,
      name: d.name,
      ...(parent ? { parent } : {}),
      root: parent ? parent.root : d.name,
      size: parent ? parent.size : d.size!,
      genMin: parent ? Math.max(d.genMin, parent.genMin) : d.genMin,
      genMax: parent ? Math.min(d.genMax, parent.genMax) : d.genMax,
      match: BigInt(d.match) | (parent?.match ?? 0n),
      dontcare: BigInt(d.dontcare) | (parent?.dontcare ?? 0n),
      mask: BigInt(d.mask) | (parent?.mask ?? 0n),
      cases,
    };
    out[i] = bs;
    return bs;
  };
  IR3_BITSETS.forEach((_b, i) => build(i));
  return out;
}

export const BITSETS: readonly Bitset[] = buildBitsets();

const leafCache = new Map<string, Bitset[]>();

/** The leaves of a root bitset that exist on `gpuId`, in isaspec's decode order. */
export function leavesOf(root: string, gpuId: number): readonly Bitset[] {
  const key = `${root}@${gpuId}`;
  let l = leafCache.get(key);
  if (!l) {
    l = (IR3_ROOTS[root] ?? []).map((i) => BITSETS[i]!).filter((b) => gpuId >= b.genMin && gpuId <= b.genMax);
    leafCache.set(key, l);
  }
  return l;
}

/**
 * A root's leaves on `gpuId` as 32-bit halves of their patterns: the bits a leaf tests (its mask
 * without its don't-care bits) and the values they must have. The disassembler tests every leaf
 * against every instruction word; BigInt masks allocated at each test took a fifth of a cffdump
 * run. ir3 instructions are 64 bits: a pattern past bit 63 is an error in the tables.
 */
export interface LeafTable {
  readonly leaves: readonly Bitset[];
  readonly careLo: Uint32Array;
  readonly careHi: Uint32Array;
  readonly matchLo: Uint32Array;
  readonly matchHi: Uint32Array;
}

const leafTables = new Map<string, LeafTable>();

export function leafTableOf(root: string, gpuId: number): LeafTable {
  const key = `${root}@${gpuId}`;
  let t = leafTables.get(key);
  if (!t) {
    const leaves = leavesOf(root, gpuId);
    const n = leaves.length;
    const careLo = new Uint32Array(n), careHi = new Uint32Array(n), matchLo = new Uint32Array(n), matchHi = new Uint32Array(n);
    leaves.forEach((b, k) => {
      const care = b.mask & ~b.dontcare;
      if (care >> 64n !== 0n || b.match >> 64n !== 0n || b.match < 0n) throw new Error(`ir3 isa: bitset ${b.name} has a pattern past bit 63`);
      careLo[k] = Number(care & 0xffffffffn);
      careHi[k] = Number((care >> 32n) & 0xffffffffn);
      matchLo[k] = Number(b.match & 0xffffffffn);
      matchHi[k] = Number((b.match >> 32n) & 0xffffffffn);
    });
    leafTables.set(key, (t = { leaves, careLo, careHi, matchLo, matchHi }));
  }
  return t;
}

/** Every instruction (leaf of #instruction) name that exists on `gpuId`. */
export function instructionNames(gpuId: number): string[] {
  return [...new Set(leavesOf('#instruction', gpuId).map((b) => b.name))];
}

/**
 * gpu_id from what a user writes: `a630`, `630`, `a6xx`, `6` (generation number), `gen7`.
 * Undefined when it is none of these.
 */
export function gpuIdOf(s: string | number): number | undefined {
  const t = String(s).trim().toLowerCase();
  let m = /^a?([3-7])xx$/.exec(t) ?? /^(?:gen)?([3-7])$/.exec(t);
  if (m) return parseInt(m[1]!, 10) * 100;
  m = /^a?([3-7]\d\d)$/.exec(t);
  if (m) return parseInt(m[1]!, 10);
  return undefined;
}
