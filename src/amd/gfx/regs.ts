/**
 * Register access for the back end of the draw pipeline (SPI, DB, CB): fields and enum names come
 * from the generated PM4 register database (Mesa's JSON), so the blocks read `ZFUNC` as
 * 'FRAG_LESS' rather than a hand-typed number.
 */
import { regDb, type Pm4Gen, type RegDb } from '../cp/regdb.js';

/** A register file view: raw dword by Mesa register name (0 when never written). */
export type RegRead = (name: string) => number;

export class GfxRegs {
  readonly gen: Pm4Gen;
  readonly db: RegDb;
  readonly read: RegRead;
  constructor(gen: Pm4Gen, read: RegRead) {
    this.gen = gen;
    this.db = regDb(gen);
    this.read = read;
  }
  raw(reg: string): number {
    return this.read(reg) >>> 0;
  }
  /** Field value of a register (throws if the generation has no such field: a model bug). */
  field(reg: string, field: string, value = this.raw(reg)): number {
    const f = this.db.get(reg)?.fields.find((x) => x.name === field);
    if (!f) throw new Error(`${this.gen}: ${reg}.${field} has no layout`);
    const w = f.hi - f.lo + 1;
    return w === 32 ? value >>> 0 : Math.floor(value / 2 ** f.lo) % 2 ** w;
  }
  /** Field value as its enum name ('' when the value has no name). */
  enumOf(reg: string, field: string, value = this.raw(reg)): string {
    const f = this.db.get(reg)?.fields.find((x) => x.name === field);
    return f?.values?.get(this.field(reg, field, value)) ?? '';
  }
  /** 64-bit address from a 256-byte-aligned base register and an optional high register field. */
  addr256(lo: string, hi?: string, hiField?: string): number {
    const h = hi ? (hiField ? this.field(hi, hiField) : this.raw(hi) & 0xff) : 0;
    return this.raw(lo) * 256 + h * 2 ** 40;
  }
}

/** Encode a register from named fields (enum values by name), for builders and tests. */
export function encodeFields(db: RegDb, reg: string, fields: Readonly<Record<string, number | string>>): number {
  const r = db.get(reg);
  if (!r) throw new RangeError(`${db.gen} has no register ${reg}`);
  let v = 0;
  for (const [name, val] of Object.entries(fields)) {
    const f = r.fields.find((x) => x.name === name);
    if (!f) throw new RangeError(`${reg} has no field ${name}`);
    let n: number;
    if (typeof val === 'string') {
      const e = [...(f.values ?? new Map<number, string>()).entries()].find(([, s]) => s === val);
      if (!e) throw new RangeError(`${reg}.${name} has no value ${val}`);
      n = e[0];
    } else n = val;
    const width = f.hi - f.lo + 1;
    if (n < 0 || n >= 2 ** width || !Number.isInteger(n)) throw new RangeError(`${reg}.${name} = ${n} does not fit in ${width} bits`);
    v += n * 2 ** f.lo;
  }
  return v >>> 0;
}
