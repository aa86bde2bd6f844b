/**
 * AMD PM4 packet headers (GFX9, GFX10.3, GFX11): the type field [31:30] picks the format.
 *
 * - Type 0: `count` [29:16] + 1 values written to consecutive registers from the dword
 *   offset BASE_INDEX [15:0].
 * - Type 2: a one-dword filler.
 * - Type 3: IT_OPCODE [15:8], `count` [29:16] = body dwords - 1, RESET_FILTER_CAM [2],
 *   SHADER_TYPE [1] (1 = compute), PREDICATE [0]. IT_NOP with count 0x3fff is header-only.
 * - Type 1 is reserved: a malformed stream.
 *
 * Opcode numbers come from the generated table (pkt3.gen.ts).
 */
import { InputError } from '../../core/errors.js';
import { OPCODES, PKT3_DWORDS, PKT3_ENUMS, PKT3_TYPES } from './pkt3.gen.js';
import { expandFields, type Pm4Gen, type RegField } from './regdb.js';

export const PKT_TYPE = { TYPE0: 0, TYPE1: 1, TYPE2: 2, TYPE3: 3 } as const;
export type PktType = 0 | 2 | 3;

/** IT_* opcode numbers by name (without the IT_ prefix). */
export const IT: Readonly<Record<string, number>> = Object.fromEntries(OPCODES.map(([n, op]) => [n, op]));
/** The opcodes named in the generated table, by number. */
const NAMES = new Map<number, { name: string; gens: readonly string[] }>(OPCODES.map(([n, op, g]) => [op, { name: n, gens: g.split(' ') }]));

/** Name of a type-3 opcode, or undefined. */
export function opcodeName(op: number): string | undefined {
  return NAMES.get(op)?.name;
}

/** Whether the opcode exists on a generation. */
export function opcodeOnGen(op: number, gen: Pm4Gen): boolean {
  return NAMES.get(op)?.gens.includes(gen) ?? false;
}

/** IT_NOP with this count is a header-only packet (PKT3_NOP_PAD). */
export const NOP_PAD_COUNT = 0x3fff;

export function pkt3Header(opcode: number, bodyDwords: number, opts: { predicate?: boolean; compute?: boolean; resetFilterCam?: boolean } = {}): number {
  if (bodyDwords < 1 || bodyDwords > 0x4000) throw new RangeError(`a type-3 packet carries 1..16384 body dwords, not ${bodyDwords}`);
  return ((3 << 30) | (((bodyDwords - 1) & 0x3fff) << 16) | ((opcode & 0xff) << 8)
    | (opts.resetFilterCam ? 4 : 0) | (opts.compute ? 2 : 0) | (opts.predicate ? 1 : 0)) >>> 0;
}

export function pkt0Header(baseIndex: number, values: number): number {
  return ((((values - 1) & 0x3fff) << 16) | (baseIndex & 0xffff)) >>> 0;
}

export const PKT2 = 0x80000000;

/** A malformed PM4 stream: where (dword offset in its buffer, and the buffer's VA for an IB). */
export class Pm4Error extends InputError {
  /** Dword offset of the offending packet header in its buffer. */
  readonly offset: number;
  /** VA of the buffer (an indirect buffer), undefined for the top-level stream without one. */
  readonly bufferVa: number | undefined;
  /** IB nesting level: 0 = the top-level stream. */
  readonly level: number;
  constructor(message: string, offset: number, bufferVa?: number, level = 0) {
    super(message, `dword ${offset}${bufferVa !== undefined && level > 0 ? ` of IB${level} at 0x${bufferVa.toString(16)}` : ''}`);
    this.offset = offset;
    this.bufferVa = bufferVa;
    this.level = level;
  }
}

/** Body-dword layouts from pkt3.json for one generation: opcode -> dword index -> [name, fields]. */
const pkt3Cache = new Map<Pm4Gen, Map<number, Map<number, { name: string; fields: readonly RegField[] }>>>();
export function pkt3Layouts(gen: Pm4Gen): Map<number, Map<number, { name: string; fields: readonly RegField[] }>> {
  let m = pkt3Cache.get(gen);
  if (m) return m;
  m = new Map();
  const enumCache = new Map<number, ReadonlyMap<number, string>>();
  for (const [name, g, op, idx, ti] of PKT3_DWORDS) {
    if (g !== gen) continue;
    let byIdx = m.get(op);
    if (!byIdx) m.set(op, (byIdx = new Map()));
    byIdx.set(idx, { name, fields: ti >= 0 ? expandFields(PKT3_TYPES[ti]!, PKT3_ENUMS, enumCache) : [] });
  }
  pkt3Cache.set(gen, m);
  return m;
}
