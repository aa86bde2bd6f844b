/**
 * The static packet walker: reads a command stream from GPU memory and hands every packet to a
 * visitor, following indirect buffers (ring -> IB1 -> IB2 -> draw-state groups) with the IB level
 * tracked. By itself it executes nothing (no predicates): it is what `decode`, cffdump and the
 * analysis tools use. The executing CP (cp.ts) is a visitor too: it walks with `follow: false`,
 * its handlers call `walk` for the IBs and draw-state groups they decide to run, and its
 * `packet` returns the dwords a conditional packet skips (or END for a chain).
 *
 * Malformed input is never fatal here: bad headers and truncated packets go to `visitor.problem`
 * and the walker resynchronises (bad header: next dword; truncated packet: end of that IB). A
 * visitor may stop the walk by throwing from `problem` (the CP does).
 */
import type { Memory } from '../../core/memory.js';
import type { Gen } from '../regs/db.js';
import { decodeHeaderAnyGen, decodeHeaderInto, opcodeNames, type MutableHeader } from './pm4.js';

/** How a buffer was reached. */
export type IbKind = 'RB' | 'IB1' | 'IB2' | 'IB' | 'CHAIN' | 'SDS' | 'RAW' | 'EMBED';

export interface PacketRecord {
  /** 0 ring buffer, 1 IB1, 2 IB2, 3 state object called from IB2 ... */
  readonly level: number;
  readonly kind: IbKind;
  /** IOVA of the buffer holding the packet, and of the header itself. */
  readonly ibBase: number;
  readonly iova: number;
  /** Dword offset of the header inside its buffer. */
  readonly offset: number;
  readonly header: number;
  /** 0/2/3/4/7; -1 for a dword that is not a valid header. */
  readonly type: number;
  readonly opcode: number;
  /** Opcode name (type 3/7), 'REG_WRITE' for type 0/4, 'NOP' for type 2, 'BAD' otherwise. */
  readonly name: string;
  readonly count: number;
  /** First register (type 0/4). */
  readonly reg: number;
  readonly payload: Uint32Array;
  readonly parityOk: boolean;
  /** Draw-state group id when kind === 'SDS', else undefined. */
  readonly group: number | undefined;
}

export interface Problem {
  readonly id: string;
  readonly message: string;
  readonly level: number;
  readonly iova: number;
}

export interface IbInfo {
  readonly level: number;
  readonly kind: IbKind;
  readonly iova: number;
  readonly sizeDwords: number;
  readonly group?: number;
}

/** A draw-state group as CP_SET_DRAW_STATE left it (replayed at draws in `drawStates: 'at-draw'`). */
export interface DrawStateGroup {
  readonly group: number;
  readonly count: number;
  readonly addr: number;
  /** DIRTY/DISABLE/DISABLE_ALL_GROUPS/LOAD_IMMED bits (d0 bits 16..19). */
  readonly flags: number;
  /** BINNING 1 / GMEM 2 / SYSMEM 4 (d0 bits 20..23). */
  readonly enableMask: number;
}

/** What `Visitor.packet` may return: abandon the rest of the buffer (CP_INDIRECT_BUFFER_CHAIN). */
export const END = -1;

export interface Visitor {
  /** Before a packet's header is read, at dword `offset` of the current buffer. */
  position?(offset: number): void;
  /**
   * A packet. A positive number skips that many dwords after it (conditional execution; a skip
   * past the end of the buffer is reported as adreno.cp.cond-exec-overrun and stops there); END
   * abandons the rest of the buffer.
   */
  packet?(p: PacketRecord): number | void;
  /** After the packet and everything it called (IBs, loaded groups) was visited. */
  packetEnd?(p: PacketRecord): void;
  /** Before each pass of a looping packet (CP_START_BIN bins, CP_FIXED_STRIDE_DRAW_TABLE draws). */
  loopIteration?(p: PacketRecord, index: number): void;
  /** A group about to be replayed (`skipped` when its enable mask excludes the current mode). */
  drawStateGroup?(g: DrawStateGroup, level: number, skipped: boolean): void;
  enterIb?(ib: IbInfo): void;
  leaveIb?(ib: IbInfo): void;
  problem?(p: Problem): void;
}

export interface WalkOptions {
  /** Deepest IB level followed (default 4). */
  readonly maxLevel?: number;
  /** Stop after this many packets in total (default 5,000,000): bounds loops through IB chains. */
  readonly maxPackets?: number;
  /** Follow IBs and draw-state groups (default true). */
  readonly follow?: boolean;
  /**
   * 'immediate' (default): a group is walked where CP_SET_DRAW_STATE names it.
   * 'at-draw': groups are recorded and replayed before each draw/dispatch packet, filtered by
   * the render mode CP_SET_MARKER selects (what the CP does, and freedreno's cffdump shows).
   */
  readonly drawStates?: 'immediate' | 'at-draw';
  /** Walk each IB once per render mode (cffdump --once). The set lives in `dumped`. */
  readonly once?: boolean;
  /** Follow CP_INDIRECT_BUFFER_CHAIN (default true). */
  readonly followChain?: boolean;
  /** Stop a buffer at its first bad header instead of resynchronising (cffdump on a2xx..a4xx). */
  readonly stopOnBadHeader?: boolean;
  /**
   * Also follow the command streams other packets carry or point to (default false): CP_START_BIN
   * and CP_FIXED_STRIDE_DRAW_TABLE bodies per pass, CP_SET_AMBLE, a5xx CP_SET_RENDER_MODE and
   * CP_COMPUTE_CHECKPOINT, packets written by CP_MEM_WRITE.
   */
  readonly followEmbedded?: boolean;
  /**
   * 'gen' (default): the generation's packet types, bad parity reported but decoded.
   * 'any': freedreno's decoders' rules (every type on every generation, strict parity); after a
   * bad header on a5xx+ the walk resumes at the next valid type-4/7 header.
   */
  readonly headers?: 'gen' | 'any';
  /**
   * Copy each buffer when it is fetched (default false: a view of memory). The executing CP
   * does: a packet that writes into its own IB does not change the dwords already fetched.
   */
  readonly snapshot?: boolean;
  /**
   * The visitor keeps no PacketRecord past the call it gets it in (default false): each buffer's
   * walk refills one record per packet instead of allocating one. The executing CP does.
   */
  readonly reuseRecords?: boolean;
}

type MutableRecord = { -readonly [K in keyof PacketRecord]: PacketRecord[K] };

/** Packets before which draw states are replayed (in 'at-draw' mode). */
export const DRAW_PACKETS: ReadonlySet<string> = new Set([
  'CP_DRAW_INDX', 'CP_DRAW_INDX_2', 'CP_DRAW_INDX_OFFSET', 'CP_EXEC_CS', 'CP_EXEC_CS_INDIRECT',
  'CP_DRAW_INDIRECT', 'CP_DRAW_INDX_INDIRECT', 'CP_DRAW_INDIRECT_MULTI', 'CP_DRAW_AUTO',
]);

/** Render-mode bits of a draw-state group's enable mask. */
export const MODE = { BINNING: 1, GMEM: 2, BYPASS: 4, ALL: 7 } as const;

export const OP = {
  CP_NOP: 0x10,
  CP_INDIRECT_BUFFER: 0x3f,
  CP_INDIRECT_BUFFER_PFD: 0x37,
  CP_INDIRECT_BUFFER_CHAIN: 0x57,
  CP_SET_DRAW_STATE: 0x43,
} as const;

export class Walker {
  mem: Memory;
  readonly gen: Gen;
  private readonly v: Visitor;
  private readonly maxLevel: number;
  private readonly maxPackets: number;
  private readonly follow: boolean;
  private readonly drawStates: 'immediate' | 'at-draw';
  private readonly once: boolean;
  private readonly followChain: boolean;
  private readonly stopOnBadHeader: boolean;
  private readonly followEmbedded: boolean;
  private readonly anyHeaders: boolean;
  private readonly snapshot: boolean;
  private readonly reuseRecords: boolean;
  private readonly names: readonly (string | undefined)[];
  /** Scratch for the header being decoded (read before the next one is). */
  private readonly hdr: MutableHeader = { type: -1, count: 0, opcode: -1, reg: -1, parityOk: false, predicate: false };
  packets = 0;
  stopped = false;
  /** Current render mode bits (CP_SET_MARKER), for group filtering and `once`. */
  enableMask: number = MODE.ALL;
  /** Draw-state groups in effect ('at-draw' mode). */
  readonly groups: (DrawStateGroup | undefined)[] = new Array(32).fill(undefined);
  /** IB address -> modes it was walked in (`once`); clear it when the buffers change. */
  readonly dumped = new Map<number, number>();
  private loadingGroups = false;

  constructor(mem: Memory, gen: Gen, visitor: Visitor, opts: WalkOptions = {}) {
    this.mem = mem;
    this.gen = gen;
    this.v = visitor;
    this.maxLevel = opts.maxLevel ?? 4;
    this.maxPackets = opts.maxPackets ?? 5_000_000;
    this.follow = opts.follow ?? true;
    this.drawStates = opts.drawStates ?? 'immediate';
    this.once = opts.once ?? false;
    this.followChain = opts.followChain ?? true;
    this.stopOnBadHeader = opts.stopOnBadHeader ?? false;
    this.followEmbedded = opts.followEmbedded ?? false;
    this.anyHeaders = opts.headers === 'any';
    this.snapshot = opts.snapshot ?? false;
    this.reuseRecords = opts.reuseRecords ?? false;
    this.names = opcodeNames(gen);
  }

  /** has_dumped: true when `iova` was already walked in every mode of `mask` (and marks it). */
  private hasDumped(iova: number, mask: number): boolean {
    if (!iova) return false;
    const m = this.dumped.get(iova) ?? 0;
    if ((m & mask) === mask) return true;
    this.dumped.set(iova, m | mask);
    return false;
  }

  /** Replay every recorded group for the current mode, then forget them all (as the CP does per draw). */
  private loadAllGroups(level: number): void {
    if (this.loadingGroups) return;
    this.loadingGroups = true;
    for (let g = 0; g < 32; g++) this.loadGroup(g, level);
    this.loadingGroups = false;
    this.groups.fill(undefined);
  }

  private loadGroup(g: number, level: number): void {
    const ds = this.groups[g];
    if (!ds || !ds.count) return;
    const newStyle = this.gen === 'a6xx' || this.gen === 'a7xx';
    const skipped = newStyle && !(ds.enableMask & this.enableMask);
    this.v.drawStateGroup?.(ds, level, skipped);
    if (skipped || !this.follow) return;
    if (level + 1 > this.maxLevel + 4) return this.problem('adreno.cp.ib-too-deep', `draw state nesting deeper than level ${this.maxLevel}`, level, ds.addr);
    if (!this.mem.find(ds.addr, 4)) return;
    this.walk(ds.addr, ds.count, level + 1, 'SDS', g);
  }

  private problem(id: string, message: string, level: number, iova: number): void {
    this.v.problem?.({ id, message, level, iova });
  }

  /** Read a buffer's dwords, or undefined (reported) when it is not in mapped memory. */
  private fetch(iova: number, sizeDwords: number, level: number): Uint32Array | undefined {
    if (sizeDwords === 0) return new Uint32Array(0);
    const seg = this.mem.find(iova, sizeDwords * 4);
    if (!seg) {
      this.problem('adreno.cp.ib-unmapped', `IB at 0x${iova.toString(16)} (${sizeDwords} dwords) is not in captured/mapped memory`, level, iova);
      return undefined;
    }
    const off = iova - seg.base;
    if (this.snapshot) return new Uint32Array(seg.u8.slice(off, off + sizeDwords * 4).buffer);
    if ((seg.u8.byteOffset + off) % 4 === 0) return new Uint32Array(seg.u8.buffer, seg.u8.byteOffset + off, sizeDwords);
    return new Uint32Array(seg.u8.slice(off, off + sizeDwords * 4).buffer);
  }

  /** Walk a buffer of `sizeDwords` dwords at `iova`. */
  walk(iova: number, sizeDwords: number, level = 1, kind: IbKind = level === 0 ? 'RB' : level === 1 ? 'IB1' : 'IB2', group?: number): void {
    const dw = this.fetch(iova, sizeDwords, level);
    if (!dw) return;
    this.walkDwords(dw, iova, level, kind, group);
  }

  /** Walk dwords already in hand (e.g. a raw stream file) as if they sat at `iova`. */
  walkDwords(dw: Uint32Array, iova: number, level: number, kind: IbKind, group?: number): void {
    const info: IbInfo = group === undefined ? { level, kind, iova, sizeDwords: dw.length } : { level, kind, iova, sizeDwords: dw.length, group };
    this.v.enterIb?.(info);
    const gen = this.gen;
    const n = dw.length;
    let i = 0;
    const v = this.v;
    let reused: MutableRecord | undefined;
    while (i < n) {
      v.position?.(i);
      if (this.packets >= this.maxPackets) {
        if (!this.stopped) this.problem('adreno.cp.packet-budget', `stopped after ${this.maxPackets} packets (IB loop?)`, level, iova + i * 4);
        this.stopped = true;
        break;
      }
      const hdr = dw[i]!;
      const h = this.anyHeaders ? decodeHeaderAnyGen(hdr) : decodeHeaderInto(hdr, gen, this.hdr);
      this.packets++;
      if (h.type < 0) {
        this.problem('adreno.cp.bad-header', `invalid packet header 0x${hdr.toString(16).padStart(8, '0')}`, level, iova + i * 4);
        this.v.packet?.({ level, kind, ibBase: iova, iova: iova + i * 4, offset: i, header: hdr, type: -1, opcode: -1, name: 'BAD', count: 0, reg: -1, payload: dw.subarray(i, i), parityOk: false, group });
        if (this.stopOnBadHeader) break;
        i++;
        if (this.anyHeaders) {
          // Resynchronise at the next valid type-4/7 header.
          while (i < n) {
            const t = decodeHeaderAnyGen(dw[i]!).type;
            if (t === 4 || t === 7) break;
            i++;
          }
        }
        continue;
      }
      if (!h.parityOk) this.problem('adreno.cp.bad-parity', `type-${h.type} header 0x${hdr.toString(16).padStart(8, '0')} has a wrong parity bit`, level, iova + i * 4);
      let count = h.count;
      let truncated = false;
      if (i + 1 + count > n) {
        this.problem('adreno.cp.truncated-packet', `packet needs ${count} payload dwords, only ${n - i - 1} left in the buffer`, level, iova + i * 4);
        count = n - i - 1;
        truncated = true;
      }
      const payload = dw.subarray(i + 1, i + 1 + count);
      const name = h.type === 4 || h.type === 0 ? 'REG_WRITE' : h.type === 2 ? 'NOP' : (this.names[h.opcode] ?? `UNKNOWN_0x${h.opcode.toString(16)}`);
      let rec: PacketRecord;
      if (reused) {
        reused.iova = iova + i * 4;
        reused.offset = i;
        reused.header = hdr;
        reused.type = h.type;
        reused.opcode = h.opcode;
        reused.name = name;
        reused.count = h.count;
        reused.reg = h.reg;
        reused.payload = payload;
        reused.parityOk = h.parityOk;
        rec = reused;
      } else {
        rec = { level, kind, ibBase: iova, iova: iova + i * 4, offset: i, header: hdr, type: h.type, opcode: h.opcode, name, count: h.count, reg: h.reg, payload, parityOk: h.parityOk, group };
        if (this.reuseRecords) reused = rec;
      }
      // From here on `h` may be overwritten: visitors and groups walk nested buffers.
      const atDraw = this.drawStates === 'at-draw';
      if (atDraw && (rec.type === 7 || rec.type === 3) && DRAW_PACKETS.has(name)) this.loadAllGroups(level);
      const act = v.packet?.(rec);
      if (truncated) {
        v.packetEnd?.(rec);
        break;
      }
      if (atDraw && rec.type === 7 && name === 'CP_SET_MARKER' && payload.length) {
        // RM6_BINNING / RM6_GMEM / RM6_BYPASS select which groups a draw replays.
        const m = payload[0]! & 0xf;
        if (m === 2) this.enableMask = MODE.BINNING;
        else if (m === 4) this.enableMask = MODE.GMEM;
        else if (m === 1) this.enableMask = MODE.BYPASS;
      }
      if (this.follow && (rec.type === 7 || rec.type === 3)) {
        if (atDraw && name === 'CP_SET_DRAW_STATE') this.recordDrawState(payload, level);
        else if (this.followEmbedded && this.embedded(rec, level)) {
          /* followed */
        } else this.followPacket(rec.opcode, payload, level, iova + i * 4);
      }
      v.packetEnd?.(rec);
      i += 1 + count;
      if (act) {
        if (act < 0) break;
        let skip = act;
        if (i + skip > n) {
          this.problem('adreno.cp.cond-exec-overrun', `conditional skip of ${skip} dwords runs ${i + skip - n} past the end of the IB`, level, rec.iova);
          skip = n - i;
        }
        i += skip;
      }
    }
    v.leaveIb?.(info);
  }

  /** Command streams inside or behind other packets; true when the packet was one of them. */
  private embedded(p: PacketRecord, level: number): boolean {
    const d = p.payload;
    const at = (i: number): number => (d[i] ?? 0) >>> 0;
    const deep = level + 1 > this.maxLevel + 2;
    switch (p.name) {
      case 'CP_START_BIN':
      case 'CP_FIXED_STRIDE_DRAW_TABLE': {
        const bin = p.name === 'CP_START_BIN';
        if (d.length < 4) return true;
        const loops = bin ? at(0) : at(3);
        let addr = bin ? at(2) * 2 ** 32 + at(1) : at(1) * 2 ** 32 + at(0);
        const size = bin ? at(3) : at(2) >>> 20;
        if (deep || !this.mem.find(addr, 4)) return true;
        for (let k = 0; k < loops && k < 4096 && !this.stopped; k++, addr += size * 4) {
          this.v.loopIteration?.(p, k);
          this.walk(addr, size, level + 1, 'IB');
        }
        return true;
      }
      case 'CP_SET_AMBLE': {
        const addr = at(1) * 2 ** 32 + at(0);
        if (!deep && d.length >= 3 && this.mem.find(addr, 4)) this.walk(addr, at(2) & 0xffff, level + 1, 'EMBED');
        return true;
      }
      case 'CP_SET_RENDER_MODE':
      case 'CP_COMPUTE_CHECKPOINT': {
        if (this.gen !== 'a5xx') return false;
        let addr: number, len: number;
        if (p.name === 'CP_SET_RENDER_MODE') {
          if (d.length !== 8) return true;
          len = at(5);
          addr = at(7) * 2 ** 32 + at(6);
        } else {
          if (d.length < 7) return true;
          addr = at(6) * 2 ** 32 + at(5);
          len = d.length === 8 ? at(7) : at(4);
        }
        if (!deep && this.mem.find(addr, 4)) this.walk(addr, len, level + 1, 'EMBED');
        return true;
      }
      case 'CP_MEM_WRITE': {
        const newStyle = this.gen === 'a5xx' || this.gen === 'a6xx' || this.gen === 'a7xx';
        const top = at(2) >>> 28;
        if (newStyle && d.length > 2 && (top === 4 || top === 7) && !deep) this.walkDwords(d.subarray(2), p.iova + 12, level + 1, 'EMBED');
        return true;
      }
      default:
        return false;
    }
  }

  /** CP_SET_DRAW_STATE in 'at-draw' mode: remember (or drop) groups; LOAD_IMMED groups run now. */
  private recordDrawState(p: Uint32Array, level: number): void {
    const stride = this.gen === 'a5xx' || this.gen === 'a6xx' || this.gen === 'a7xx' ? 3 : 2;
    for (let i = 0; i + stride - 1 < p.length; i += stride) {
      const d0 = p[i]!;
      const group = (d0 >>> 24) & 0x1f;
      const flags = (d0 >>> 16) & 0xf;
      const addr = (stride === 3 ? p[i + 2]! * 2 ** 32 : 0) + p[i + 1]!;
      if (flags & 4) {
        this.groups.fill(undefined);
        continue;
      }
      this.groups[group] = undefined;
      if (flags & 2) continue;
      this.groups[group] = { group, count: d0 & 0xffff, addr, flags, enableMask: (d0 >>> 20) & 0xf };
      if (flags & 8) {
        this.loadGroup(group, level + 1);
        this.groups[group] = undefined;
      }
    }
  }

  private followPacket(op: number, p: Uint32Array, level: number, at: number): void {
    const newStyle = this.gen === 'a5xx' || this.gen === 'a6xx' || this.gen === 'a7xx';
    if (op === OP.CP_INDIRECT_BUFFER || op === OP.CP_INDIRECT_BUFFER_PFD || (newStyle && op === OP.CP_INDIRECT_BUFFER_CHAIN)) {
      let addr: number, size: number;
      if (newStyle) {
        if (p.length < 3) return this.problem('adreno.cp.short-payload', `indirect buffer packet with ${p.length} payload dwords (needs 3)`, level, at);
        addr = p[1]! * 2 ** 32 + p[0]!;
        size = p[2]! & 0xfffff;
      } else {
        if (p.length < 2) return this.problem('adreno.cp.short-payload', `indirect buffer packet with ${p.length} payload dwords (needs 2)`, level, at);
        addr = p[0]!;
        size = p[1]! & 0xfffff;
      }
      if (level + 1 > this.maxLevel) return this.problem('adreno.cp.ib-too-deep', `IB nesting deeper than level ${this.maxLevel}`, level, at);
      const chain = newStyle && op === OP.CP_INDIRECT_BUFFER_CHAIN;
      if (chain && !this.followChain) return;
      if (this.once && this.hasDumped(addr, this.enableMask)) return;
      // A chain replaces the current IB at the same level.
      const lvl = chain ? level : level + 1;
      this.walk(addr, size, lvl, chain ? 'CHAIN' : lvl === 1 ? 'IB1' : lvl === 2 ? 'IB2' : 'IB');
      return;
    }
    if (op === OP.CP_SET_DRAW_STATE && this.gen !== 'a2xx' && this.gen !== 'a3xx') {
      // a5xx+: { d0, addr lo, addr hi } per group; a4xx: { d0, addr }.
      const stride = this.gen === 'a4xx' ? 2 : 3;
      if (p.length % stride !== 0) this.problem('adreno.cp.short-payload', `CP_SET_DRAW_STATE payload of ${p.length} dwords is not a multiple of ${stride}`, level, at);
      for (let g = 0; g + stride - 1 < p.length; g += stride) {
        const d0 = p[g]!;
        const count = d0 & 0xffff;
        const disable = (d0 >>> 17) & 1;
        const disableAll = (d0 >>> 18) & 1;
        if (disable || disableAll || count === 0) continue;
        const addr = (stride === 3 ? p[g + 2]! * 2 ** 32 : 0) + p[g + 1]!;
        if (level + 1 > this.maxLevel) return this.problem('adreno.cp.ib-too-deep', `draw state nesting deeper than level ${this.maxLevel}`, level, at);
        this.walk(addr, count, level + 1, 'SDS', (d0 >>> 24) & 0x1f);
      }
    }
  }
}
