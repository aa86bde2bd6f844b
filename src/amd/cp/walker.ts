/**
 * The PM4 packet walker: splits a dword stream into packets, validates each header against the
 * generation's opcode table and the handler table (body sizes), follows INDIRECT_BUFFER packets
 * (calls and chains, nested levels, loop detection) when it can fetch GPU memory, and hands
 * every packet to a visitor (execute, print, analyse). Anything malformed throws Pm4Error with
 * the dword offset; a packet budget bounds the work so no stream can hang the walker.
 */
import { HANDLERS, type PacketSpec } from './packets.js';
import { NOP_PAD_COUNT, Pm4Error, IT, opcodeName, opcodeOnGen } from './pm4.js';
import type { Pm4Gen } from './regdb.js';

export interface Pm4Packet {
  /** Dword offset of the header in its buffer. */
  readonly offset: number;
  /** VA of the buffer (undefined for a top-level stream given without one). */
  readonly bufferVa: number | undefined;
  /** IB level: 0 = the top-level stream, 1 = an IB it calls, ... */
  readonly level: number;
  readonly header: number;
  readonly type: 0 | 2 | 3;
  /** IT opcode (type 3), -1 otherwise. */
  readonly opcode: number;
  /** IT name without the prefix ('SET_SH_REG'), or 'TYPE0' / 'TYPE2'. */
  readonly name: string;
  readonly predicate: boolean;
  /** SHADER_TYPE: true = compute. */
  readonly compute: boolean;
  readonly resetFilterCam: boolean;
  /** Body dwords (type 0: the register values; type 2 and NOP pads: empty). */
  readonly body: Uint32Array;
  /** Type 0: first register's dword offset. */
  readonly baseIndex: number;
  /** The handler table entry, when the opcode is handled. */
  readonly spec: PacketSpec | undefined;
}

/**
 * What a visitor may tell the walker after a packet: skip the next dwords (COND_EXEC whose
 * condition is false), or do not follow this INDIRECT_BUFFER (a predicated-off packet).
 */
export interface PacketAction {
  readonly skipDwords?: number;
  readonly discard?: boolean;
}

export interface Pm4Visitor {
  packet(p: Pm4Packet): PacketAction | void;
  /** The walker skipped `dwords` dwords after the packet at `offset`; `midPacket` when the skip ends inside a packet. */
  skipped?(offset: number, dwords: number, midPacket: boolean, level: number, bufferVa: number | undefined): void;
  /** An indirect buffer starts (after the INDIRECT_BUFFER packet that calls or chains to it). */
  enterIb?(va: number, dwords: number, level: number, chained: boolean): void;
  /** An indirect buffer ended (the caller resumes). */
  leaveIb?(va: number, level: number): void;
  /** An INDIRECT_BUFFER that is not followed: no memory to fetch it from, or (`unmapped`) not in that memory. */
  skipIb?(va: number, dwords: number, level: number, unmapped?: boolean): void;
}

export interface WalkOptions {
  readonly gen: Pm4Gen;
  /** VA of the top-level stream, if it lives in GPU memory. */
  readonly bufferVa?: number;
  /** Fetch `dwords` dwords at `va` (null when unmapped). Absent: IBs are reported, not followed. */
  readonly fetch?: (va: number, dwords: number) => Uint32Array | null;
  /** Deepest IB level allowed (default 4: the ring/top stream calls IB1, IB1 calls IB2, ...). */
  readonly maxLevel?: number;
  /** Stop with an error after this many packets (default 1,000,000). */
  readonly maxPackets?: number;
  /** An IB outside the fetchable memory: 'error' (default, the CP would fault) or 'note' (report it via skipIb and go on; decoders). */
  readonly unmapped?: 'error' | 'note';
}

export interface WalkStats {
  packets: number;
  ibs: number;
  maxLevel: number;
}

const hex = (n: number, w = 8): string => '0x' + (n >>> 0).toString(16).padStart(w, '0');

export function walkPm4(words: Uint32Array, visitor: Pm4Visitor, opts: WalkOptions): WalkStats {
  const gen = opts.gen;
  const maxLevel = opts.maxLevel ?? 4;
  const maxPackets = opts.maxPackets ?? 1_000_000;
  const stats: WalkStats = { packets: 0, ibs: 0, maxLevel: 0 };
  /** VAs of the buffers being executed: the call stack, each with the buffers chained into it. */
  const active: Set<number>[] = [];

  const walkBuffer = (start: Uint32Array, startVa: number | undefined, level: number): void => {
    let buf = start;
    let bufVa = startVa;
    const chain = new Set<number>();
    if (bufVa !== undefined) chain.add(bufVa);
    active.push(chain);
    try {
      let i = 0;
      while (i < buf.length) {
        if (++stats.packets > maxPackets) throw new Pm4Error(`packet budget of ${maxPackets} exhausted (a runaway chain?)`, i, bufVa, level);
        const h = buf[i]! >>> 0;
        const type = h >>> 30;
        const at = i;
        let p: Pm4Packet;
        if (type === 1) throw new Pm4Error(`bad packet header ${hex(h)}: type 1 is reserved`, at, bufVa, level);
        if (type === 2) {
          p = { offset: at, bufferVa: bufVa, level, header: h, type: 2, opcode: -1, name: 'TYPE2', predicate: false, compute: false, resetFilterCam: false, body: buf.subarray(at + 1, at + 1), baseIndex: 0, spec: undefined };
          i += 1;
        } else if (type === 0) {
          const n = ((h >>> 16) & 0x3fff) + 1;
          if (at + 1 + n > buf.length) throw new Pm4Error(`type-0 packet ${hex(h)} writes ${n} registers but only ${buf.length - at - 1} dwords remain`, at, bufVa, level);
          p = { offset: at, bufferVa: bufVa, level, header: h, type: 0, opcode: -1, name: 'TYPE0', predicate: false, compute: false, resetFilterCam: false, body: buf.subarray(at + 1, at + 1 + n), baseIndex: h & 0xffff, spec: undefined };
          i += 1 + n;
        } else {
          const op = (h >>> 8) & 0xff;
          const count = (h >>> 16) & 0x3fff;
          const name = opcodeName(op);
          if (name === undefined || !opcodeOnGen(op, gen)) {
            throw new Pm4Error(`unknown type-3 opcode 0x${op.toString(16)}${name ? ` (IT_${name} does not exist on ${gen})` : ''} in header ${hex(h)}`, at, bufVa, level);
          }
          const pad = op === IT.NOP && count === NOP_PAD_COUNT;
          const n = pad ? 0 : count + 1;
          if (at + 1 + n > buf.length) {
            throw new Pm4Error(`IT_${name} header ${hex(h)} has ${n} body dwords but only ${buf.length - at - 1} remain in the ${level === 0 ? 'stream' : 'IB'}`, at, bufVa, level);
          }
          const spec = HANDLERS.get(op);
          const body = buf.subarray(at + 1, at + 1 + n);
          if (spec && !pad) {
            const [lo, hi] = spec.bodySize(gen);
            if (n < lo || n > hi) throw new Pm4Error(`IT_${name} takes ${lo === hi ? lo : `${lo}..${hi}`} body dwords on ${gen}, this one has ${n}`, at, bufVa, level);
            const bad = spec.validate?.(body, gen);
            if (bad) throw new Pm4Error(bad, at, bufVa, level);
          }
          p = { offset: at, bufferVa: bufVa, level, header: h, type: 3, opcode: op, name, predicate: (h & 1) !== 0, compute: (h & 2) !== 0, resetFilterCam: (h & 4) !== 0, body, baseIndex: 0, spec };
          i += 1 + n;
        }
        const act = visitor.packet(p);
        if (act) {
          if (act.skipDwords !== undefined && act.skipDwords > 0) {
            const n = act.skipDwords;
            if (i + n > buf.length) throw new Pm4Error(`IT_${p.name} skips ${n} dwords but only ${buf.length - i} remain in the ${level === 0 ? 'stream' : 'IB'}`, at, bufVa, level);
            visitor.skipped?.(at, n, !onBoundary(buf, i, i + n), level, bufVa);
            i += n;
          }
          if (act.discard) continue;
        }
        if (p.opcode !== IT.INDIRECT_BUFFER) continue;
        // INDIRECT_BUFFER: IB_BASE_LO [31:2], IB_BASE_HI [15:0], IB_CONTROL: IB_SIZE [19:0], CHAIN [20].
        const target = ((p.body[0]! >>> 0) & 0xfffffffc) + (p.body[1]! & 0xffff) * 0x1_0000_0000;
        const size = p.body[2]! & 0xfffff;
        const chained = ((p.body[2]! >>> 20) & 1) === 1;
        const nextLevel = chained ? level : level + 1;
        if (!opts.fetch) {
          visitor.skipIb?.(target, size, nextLevel);
          continue;
        }
        if (nextLevel > maxLevel) throw new Pm4Error(`INDIRECT_BUFFER to 0x${target.toString(16)} would be IB level ${nextLevel}; at most ${maxLevel} levels are allowed`, at, bufVa, level);
        if (active.some((s) => s.has(target))) {
          throw new Pm4Error(`INDIRECT_BUFFER loop: the IB at 0x${target.toString(16)} is already being executed${chained ? ' (chained back into)' : ''}`, at, bufVa, level);
        }
        const ib = size === 0 ? new Uint32Array(0) : opts.fetch(target, size);
        if (ib === null && opts.unmapped === 'note') {
          visitor.skipIb?.(target, size, nextLevel, true);
          continue;
        }
        if (ib === null) throw new Pm4Error(`INDIRECT_BUFFER at 0x${target.toString(16)} (${size} dwords) is not mapped`, at, bufVa, level);
        stats.ibs++;
        if (nextLevel > stats.maxLevel) stats.maxLevel = nextLevel;
        visitor.enterIb?.(target, size, nextLevel, chained);
        if (chained) {
          // A chain replaces the rest of the current buffer.
          chain.add(target);
          buf = ib;
          bufVa = target;
          i = 0;
          continue;
        }
        walkBuffer(ib, target, nextLevel);
        visitor.leaveIb?.(target, nextLevel);
      }
    } finally {
      active.pop();
    }
  };
  walkBuffer(words, opts.bufferVa, 0);
  return stats;
}

/** Whether walking whole packets from `from` lands exactly on `to` (a skip that ends between packets). */
function onBoundary(buf: Uint32Array, from: number, to: number): boolean {
  let i = from;
  while (i < to) {
    const h = buf[i]! >>> 0;
    const type = h >>> 30;
    if (type === 2) i += 1;
    else if (type === 0) i += 2 + ((h >>> 16) & 0x3fff);
    else if (type === 3) i += ((h >>> 8) & 0xff) === IT.NOP && ((h >>> 16) & 0x3fff) === NOP_PAD_COUNT ? 1 : 2 + ((h >>> 16) & 0x3fff);
    else return false;
  }
  return i === to;
}

/** Read a little-endian dword stream from bytes (a trailing partial dword is an error). */
export function dwordsFromBytes(bytes: Uint8Array): Uint32Array {
  if (bytes.length % 4 !== 0) throw new Pm4Error(`the stream is ${bytes.length} bytes, not a whole number of dwords`, Math.floor(bytes.length / 4));
  const out = new Uint32Array(bytes.length / 4);
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
  for (let i = 0; i < out.length; i++) out[i] = dv.getUint32(i * 4, true);
  return out;
}
