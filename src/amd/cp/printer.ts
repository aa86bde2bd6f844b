/**
 * The print visitor: every packet with its header fields, its body dword by dword and its
 * register writes decoded field by field from the generation's register database. Text (one
 * packet per block) or JSON records (one per packet).
 */
import { decodeBody, type DecodedDword } from './packets.js';
import { regDb, spaceOf, type DecodedField, type Pm4Gen, type RegDb } from './regdb.js';
import type { Pm4Packet, Pm4Visitor } from './walker.js';
import { packetWrites } from './cp.js';

export interface PrintedWrite {
  readonly offset: number;
  readonly reg: string;
  readonly space: string;
  readonly value: number;
  readonly fields: readonly DecodedField[];
}

export interface PrintedPacket {
  readonly offset: number;
  readonly level: number;
  readonly ib?: string;
  readonly type: number;
  readonly opcode?: number;
  readonly name: string;
  readonly header: number;
  readonly count: number;
  readonly predicate?: boolean;
  readonly shaderType?: 'compute' | 'graphics';
  readonly body: readonly DecodedDword[];
  readonly writes: readonly PrintedWrite[];
}

const hex = (n: number, w = 8): string => '0x' + (n >>> 0).toString(16).padStart(w, '0');

export function fieldsText(fields: readonly DecodedField[]): string {
  return fields.map((f) => `${f.name}=${f.text ?? (f.value > 9 ? hex(f.value, 0) : f.value)}`).join(' ');
}

/** Decode one packet into a plain record (what --json prints). */
export function describePacket(p: Pm4Packet, gen: Pm4Gen, db: RegDb = regDb(gen)): PrintedPacket {
  const body = p.type === 3 ? decodeBody(p.spec, p.opcode, p.body, gen, db) : [];
  const writes = packetWrites(p, gen).map((w) => ({
    offset: w.offset, reg: db.nameAt(w.offset), space: spaceOf(w.offset) ?? 'mmio', value: w.value >>> 0, fields: db.decode(w.offset, w.value),
  }));
  return {
    offset: p.offset, level: p.level, ...(p.bufferVa !== undefined && p.level > 0 ? { ib: '0x' + p.bufferVa.toString(16) } : {}),
    type: p.type, ...(p.type === 3 ? { opcode: p.opcode, predicate: p.predicate, shaderType: p.compute ? 'compute' as const : 'graphics' as const } : {}),
    name: p.name, header: p.header, count: p.body.length, body, writes,
  };
}

export class PrintVisitor implements Pm4Visitor {
  readonly gen: Pm4Gen;
  readonly db: RegDb;
  readonly json: boolean;
  readonly out: (line: string) => void;
  constructor(gen: Pm4Gen, out: (line: string) => void, opts: { json?: boolean } = {}) {
    this.gen = gen;
    this.db = regDb(gen);
    this.out = out;
    this.json = opts.json ?? false;
  }
  packet(p: Pm4Packet): void {
    const d = describePacket(p, this.gen, this.db);
    if (this.json) {
      this.out(JSON.stringify(d));
      return;
    }
    const ind = '  '.repeat(p.level);
    const flags = p.type === 3 ? `${p.predicate ? ' predicate' : ''}${p.compute ? ' compute' : ''}` : '';
    const head = p.type === 3 ? `PKT3 IT_${p.name} (0x${p.opcode.toString(16)})` : p.type === 0 ? `PKT0 base=${hex(p.baseIndex, 4)}` : 'PKT2';
    this.out(`${ind}[${String(p.offset).padStart(5)}] ${hex(p.header)} ${head} ${p.body.length} dwords${flags}`);
    const isSet = d.writes.length > 0 && (p.type === 0 || p.name.startsWith('SET_'));
    if (!isSet) {
      for (const b of d.body) this.out(`${ind}        ${b.name.padEnd(18)} ${hex(b.value)}${b.fields.length ? '  ' + fieldsText(b.fields) : ''}`);
    }
    for (const w of d.writes) this.out(`${ind}        ${w.reg} (${hex(w.offset, 4)}) <- ${hex(w.value)}${w.fields.length ? '  ' + fieldsText(w.fields) : ''}`);
  }
  enterIb(va: number, dwords: number, level: number, chained: boolean): void {
    if (!this.json) this.out(`${'  '.repeat(level)}-- ${chained ? 'chain to' : 'IB' + level} 0x${va.toString(16)} (${dwords} dwords)`);
    else this.out(JSON.stringify({ event: chained ? 'chain' : 'ib', va: '0x' + va.toString(16), dwords, level }));
  }
  leaveIb(va: number, level: number): void {
    if (!this.json) this.out(`${'  '.repeat(level)}-- end of IB${level} 0x${va.toString(16)}`);
    else this.out(JSON.stringify({ event: 'ib-end', va: '0x' + va.toString(16), level }));
  }
  skipIb(va: number, dwords: number, level: number, unmapped = false): void {
    const why = unmapped ? 'not in the given memory' : 'no GPU memory';
    if (!this.json) this.out(`${'  '.repeat(level)}-- IB${level} 0x${va.toString(16)} (${dwords} dwords) not followed: ${why}`);
    else this.out(JSON.stringify({ event: 'ib-not-followed', va: '0x' + va.toString(16), dwords, level, reason: why }));
  }
}
