/**
 * PM4 packet headers: AMD-style type 0/2/3 (a2xx..a5xx) and Adreno type 4/7 (a5xx+), with the
 * odd-parity bits of type 4 and 7 headers. Opcode names come from the generated database
 * (enum adreno_pm4_type3_packets), per generation.
 */
import { ENUMS, genBit, type Gen } from '../regs/db.js';

/** Odd parity bit over the low 32 bits (the value that makes the total number of ones odd). */
export function oddParity(v: number): number {
  v ^= v >>> 16;
  v ^= v >>> 8;
  v ^= v >>> 4;
  v &= 0xf;
  return (~0x6996 >> v) & 1;
}

export const PKT = { T0: 0, T2: 2, T3: 3, T4: 4, T7: 7 } as const;

/** Type-4 header: write `count` consecutive registers starting at `reg`. */
export function pkt4(reg: number, count: number): number {
  if (count < 0 || count > 0x7f) throw new RangeError(`type-4 count ${count} out of range 0..127`);
  if (reg < 0 || reg > 0x7ffff) throw new RangeError(`type-4 register 0x${reg.toString(16)} out of range`);
  return ((0x4 << 28) | count | (oddParity(count) << 7) | ((reg & 0x7ffff) << 8) | (oddParity(reg) << 27)) >>> 0;
}

/** Type-7 header: opcode with `count` payload dwords. */
export function pkt7(opcode: number, count: number): number {
  if (count < 0 || count > 0x3fff) throw new RangeError(`type-7 count ${count} out of range 0..16383`);
  if (opcode < 0 || opcode > 0x7f) throw new RangeError(`type-7 opcode 0x${opcode.toString(16)} out of range`);
  return ((0x7 << 28) | count | (oddParity(count) << 15) | ((opcode & 0x7f) << 16) | (oddParity(opcode) << 23)) >>> 0;
}

/** Type-3 header (a2xx..a5xx): opcode with `count` >= 1 payload dwords. */
export function pkt3(opcode: number, count: number, predicate = false): number {
  if (count < 1 || count > 0x4000) throw new RangeError(`type-3 count ${count} out of range 1..16384`);
  return ((3 << 30) | (((count - 1) & 0x3fff) << 16) | ((opcode & 0xff) << 8) | (predicate ? 1 : 0)) >>> 0;
}

/** Type-0 header (a2xx..a4xx): write `count` >= 1 registers from `reg`. */
export function pkt0(reg: number, count: number): number {
  if (count < 1 || count > 0x4000) throw new RangeError(`type-0 count ${count} out of range 1..16384`);
  return ((((count - 1) & 0x3fff) << 16) | (reg & 0xffff)) >>> 0;
}

export const PKT2_NOP = 0x80000000;

export interface Header {
  /** 0, 2, 3, 4 or 7; -1 when the dword is not a valid header for the generation. */
  readonly type: number;
  /** Payload dwords. */
  readonly count: number;
  /** Type 3/7 opcode, or -1. */
  readonly opcode: number;
  /** Type 0/4 first register, or -1. */
  readonly reg: number;
  /** False when a type-4/7 parity bit or fixed bit is wrong. */
  readonly parityOk: boolean;
  readonly predicate: boolean;
}

const BAD: Header = { type: -1, count: 0, opcode: -1, reg: -1, parityOk: false, predicate: false };

/** A header decoded in place (the walker's per-packet scratch: no allocation per packet). */
export type MutableHeader = { -readonly [K in keyof Header]: Header[K] };

function set(h: MutableHeader, type: number, count: number, opcode: number, reg: number, parityOk: boolean, predicate: boolean): MutableHeader {
  h.type = type;
  h.count = count;
  h.opcode = opcode;
  h.reg = reg;
  h.parityOk = parityOk;
  h.predicate = predicate;
  return h;
}

/** Decode a header dword. a5xx+ streams use type 4/7 (type 2 NOP is still accepted on a5xx). */
export function decodeHeader(dw: number, gen: Gen): Header {
  return decodeHeaderInto(dw, gen, { ...BAD });
}

/** decodeHeader into `h` (returned). */
export function decodeHeaderInto(dw: number, gen: Gen, h: MutableHeader): MutableHeader {
  dw >>>= 0;
  const newStyle = gen === 'a5xx' || gen === 'a6xx' || gen === 'a7xx';
  const top4 = dw >>> 28;
  if (newStyle && top4 === 4) {
    const count = dw & 0x7f;
    const reg = (dw >>> 8) & 0x7ffff;
    const ok = ((dw >>> 7) & 1) === oddParity(count) && ((dw >>> 27) & 1) === oddParity(reg);
    return set(h, 4, count, -1, reg, ok, false);
  }
  if (newStyle && top4 === 7) {
    const count = dw & 0x3fff;
    const opcode = (dw >>> 16) & 0x7f;
    const ok = ((dw >>> 15) & 1) === oddParity(count) && ((dw >>> 23) & 1) === oddParity(opcode) && ((dw >>> 14) & 1) === 0 && ((dw >>> 24) & 0xf) === 0;
    return set(h, 7, count, opcode, -1, ok, false);
  }
  const top2 = dw >>> 30;
  if (top2 === 2 && (dw === PKT2_NOP || !newStyle)) return set(h, 2, 0, -1, -1, true, false);
  if (!newStyle || gen === 'a5xx') {
    if (top2 === 3) return set(h, 3, ((dw >>> 16) & 0x3fff) + 1, (dw >>> 8) & 0xff, -1, true, (dw & 1) === 1);
    if (top2 === 0 && !newStyle) return set(h, 0, ((dw >>> 16) & 0x3fff) + 1, -1, dw & 0x7fff, true, false);
  }
  return set(h, -1, 0, -1, -1, false, false);
}

/**
 * Header decoding as freedreno's decoders do it, whatever the generation: type 0 (top bits 00),
 * type 2 (exactly 0x80000000), type 3 (top bits 11, bits 1..7 and 15 clear), type 4 and type 7
 * only with both parity bits right (type 7 also with bits 24..27 clear); anything else is bad.
 */
export function decodeHeaderAnyGen(dw: number): Header {
  dw >>>= 0;
  const top2 = dw >>> 30;
  if (top2 === 0) return { type: 0, count: ((dw >>> 16) & 0x3fff) + 1, opcode: -1, reg: dw & 0x7fff, parityOk: true, predicate: false };
  const top4 = dw >>> 28;
  if (top4 === 4) {
    const count = dw & 0x7f;
    const reg = (dw >>> 8) & 0x7ffff;
    if (((dw >>> 7) & 1) === oddParity(count) && ((dw >>> 27) & 1) === oddParity(reg)) return { type: 4, count, opcode: -1, reg, parityOk: true, predicate: false };
    return BAD;
  }
  if (dw === PKT2_NOP) return { type: 2, count: 0, opcode: -1, reg: -1, parityOk: true, predicate: false };
  if (top2 === 3 && (dw & 0x80fe) === 0) return { type: 3, count: ((dw >>> 16) & 0x3fff) + 1, opcode: (dw >>> 8) & 0xff, reg: -1, parityOk: true, predicate: (dw & 1) === 1 };
  if (top4 === 7 && ((dw >>> 24) & 0xf) === 0) {
    const count = dw & 0x3fff;
    const opcode = (dw >>> 16) & 0x7f;
    if (((dw >>> 15) & 1) === oddParity(count) && ((dw >>> 23) & 1) === oddParity(opcode)) return { type: 7, count, opcode, reg: -1, parityOk: true, predicate: false };
  }
  return BAD;
}

interface OpcodeTable {
  byValue: Map<number, string>;
  byName: Map<string, number>;
  /** byValue as an array over 0..255 (the walkers' per-packet lookup). */
  names: (string | undefined)[];
}

const opcodeTables = new Map<Gen, OpcodeTable>();

function opcodeTable(gen: Gen): OpcodeTable {
  let t = opcodeTables.get(gen);
  if (!t) {
    const bit = genBit(gen);
    t = { byValue: new Map(), byName: new Map(), names: [] };
    for (const [v, name, mask] of ENUMS['adreno_pm4_type3_packets'] ?? []) {
      if (!(mask & bit)) continue;
      if (!t.byValue.has(v)) t.byValue.set(v, name);
      if (!t.byName.has(name)) t.byName.set(name, v);
    }
    for (let op = 0; op < 256; op++) t.names.push(t.byValue.get(op));
    opcodeTables.set(gen, t);
  }
  return t;
}

/** Name of a PM4 opcode for a generation, or undefined. */
export function opcodeName(op: number, gen: Gen): string | undefined {
  return opcodeTable(gen).byValue.get(op);
}

/** Names of the type-3/7 opcodes 0..255 of a generation (undefined where none), indexed by opcode. */
export function opcodeNames(gen: Gen): readonly (string | undefined)[] {
  return opcodeTable(gen).names;
}

/** Value of a PM4 opcode by name for a generation. Throws when the generation has no such packet. */
export function opcode(name: string, gen: Gen = 'a6xx'): number {
  const v = opcodeTable(gen).byName.get(name);
  if (v === undefined) throw new Error(`no PM4 packet ${name} on ${gen}`);
  return v;
}

/** All opcodes known for a generation (for coverage). */
export function opcodes(gen: Gen): ReadonlyMap<string, number> {
  return opcodeTable(gen).byName;
}
