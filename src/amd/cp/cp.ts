/**
 * The PM4 command processor of GFX9 / GFX10.3 / GFX11: the execute visitor (register file,
 * GPU memory writes, waits, draws and dispatches recorded with their register state) and the
 * analyse visitor (diagnostics for packets that are legal to parse but wrong to send).
 *
 * The register file is one Uint32Array indexed by MMIO dword offset (REG_FILE_DWORDS covers the
 * config, SH, context and uconfig spaces). Compute dispatches go to a `launch` hook the runtime
 * provides (src/runtime/pm4.ts runs them on the shader model), so this layer does not import
 * the runtime. Nothing here can hang: the simulated CP is the only agent changing memory while
 * it runs, so a WAIT_REG_MEM whose condition is false is reported as a wait that never ends.
 */
import type { Memory } from '../../core/memory.js';
import type { Diagnostics } from '../../core/diagnostics.js';
import { HANDLERS, type RegWrite } from './packets.js';
import { IT } from './pm4.js';
import { REG_FILE_DWORDS, REG_SPACES, regDb, spaceOf, type Pm4Gen, type RegDb } from './regdb.js';
import { DEFAULT_RENDER_BACKENDS, readStreamoutBlock, readZpassBlock, writeZpassCounts } from './queries.js';
import { walkPm4, type PacketAction, type Pm4Packet, type Pm4Visitor, type WalkOptions, type WalkStats } from './walker.js';

/** Register writes a packet makes by itself (SET_*_REG, type 0, WRITE_DATA to a register). */
export function packetWrites(p: Pm4Packet, gen: Pm4Gen): RegWrite[] {
  if (p.type === 0) return Array.from(p.body, (v, i) => ({ offset: p.baseIndex + i, value: v }));
  if (p.type !== 3) return [];
  if (p.opcode === IT.WRITE_DATA && ((p.body[0]! >>> 8) & 0xf) === 0) {
    const one = ((p.body[0]! >>> 16) & 1) === 1;
    const base = p.body[1]! >>> 0;
    return Array.from(p.body.subarray(3), (v, i) => ({ offset: one ? base : base + i, value: v }));
  }
  return p.spec?.writes?.(p.body, gen) ?? [];
}

/** The registers a draw or dispatch saw (SH, context and the first 4K dwords of uconfig). */
export class RegSnapshot {
  readonly sh: Uint32Array;
  readonly context: Uint32Array;
  readonly uconfig: Uint32Array;
  private readonly db: RegDb;
  constructor(regs: Uint32Array, db: RegDb) {
    this.db = db;
    this.sh = regs.slice(REG_SPACES.sh.base, REG_SPACES.sh.end);
    this.context = regs.slice(REG_SPACES.context.base, REG_SPACES.context.end);
    this.uconfig = regs.slice(REG_SPACES.uconfig.base, REG_SPACES.uconfig.base + 0x1000);
  }
  /** Value of a register by dword offset (0 for config and high uconfig, not snapshotted). */
  at(offset: number): number {
    const sp = spaceOf(offset);
    if (sp === 'sh') return this.sh[offset - REG_SPACES.sh.base]!;
    if (sp === 'context') return this.context[offset - REG_SPACES.context.base]!;
    if (sp === 'uconfig' && offset - REG_SPACES.uconfig.base < 0x1000) return this.uconfig[offset - REG_SPACES.uconfig.base]!;
    return 0;
  }
  get(name: string): number {
    return this.at(this.db.offset(name));
  }
}

export type DrawKind = 'auto' | 'indexed' | 'indirect' | 'indexed-indirect';

export interface DrawRecord {
  readonly packet: string;
  /** Dword offset of the draw packet and its IB level. */
  readonly offset: number;
  readonly level: number;
  readonly kind: DrawKind;
  /** Vertices (non-indexed) or indices (indexed) per instance. */
  readonly count: number;
  readonly instanceCount: number;
  readonly firstVertex: number;
  readonly firstInstance: number;
  /** Indexed draws: the index buffer VA, the first index and the index size in bytes (1, 2, 4). */
  readonly indexBase?: number;
  readonly firstIndex?: number;
  readonly indexSize?: number;
  /** VGT_PRIMITIVE_TYPE.PRIM_TYPE at the draw. */
  readonly primType: number;
  readonly initiator: number;
  readonly state: RegSnapshot;
}

export interface DispatchRecord {
  readonly packet: string;
  readonly offset: number;
  readonly level: number;
  /** DIM_X/Y/Z: workgroups, or threads when DISPATCH_INITIATOR.USE_THREAD_DIMENSIONS. */
  readonly dims: readonly [number, number, number];
  readonly initiator: number;
  /** Shader entry VA from COMPUTE_PGM_LO/HI. */
  readonly pgmVa: number;
  readonly block: readonly [number, number, number];
  readonly state: RegSnapshot;
  /** Whether the launch hook ran the kernel. */
  executed: boolean;
}

export interface EventRecord {
  readonly packet: string;
  readonly offset: number;
  readonly eventType: number;
  readonly name: string;
}

/** What the launch hook gets: the dispatch and the compute registers it was issued with. */
export interface ComputeLaunch {
  readonly gen: Pm4Gen;
  readonly record: DispatchRecord;
  /** COMPUTE_USER_DATA_0..15. */
  readonly userData: Uint32Array;
  readonly rsrc1: number;
  readonly rsrc2: number;
  readonly rsrc3: number;
  readonly useThreadDimensions: boolean;
  readonly mem: Memory;
  readonly diag: Diagnostics;
}

export interface CpOptions {
  readonly gen: Pm4Gen;
  readonly mem: Memory;
  readonly diag: Diagnostics;
  /** Run a compute dispatch (returns whether it ran). Absent: dispatches are only recorded. */
  readonly launch?: (l: ComputeLaunch) => boolean;
  /** Execute a draw (the graphics pipeline, src/amd/gfx/pipeline.ts). Absent: draws are only recorded. */
  readonly onDraw?: (rec: DrawRecord) => void;
  /** Stop recording draws after this many (default 100,000). */
  readonly maxDraws?: number;
  /**
   * The DB's samples-passed counters, one per render backend (GfxPipeline.zpassCounts), written by
   * ZPASS events. Absent (draws only recorded): the events are reported and write nothing.
   */
  readonly zpassCounts?: () => readonly number[];
  /** Render backends: the slots SET_PREDICATION ZPASS sums (default DEFAULT_RENDER_BACKENDS, as GfxPipeline). */
  readonly renderBackends?: number;
  /** Also run the analyse checks while executing (default true). */
  readonly analyse?: boolean;
}

const DRAWS = new Set([IT.DRAW_INDEX_AUTO, IT.DRAW_INDEX_2, IT.DRAW_INDIRECT, IT.DRAW_INDEX_INDIRECT, IT.DRAW_INDIRECT_MULTI, IT.DRAW_INDEX_INDIRECT_MULTI]);

const lohi = (lo: number, hi: number): number => (lo >>> 0) + (hi >>> 0) * 0x1_0000_0000;

export class CommandProcessor implements Pm4Visitor {
  readonly gen: Pm4Gen;
  readonly db: RegDb;
  /** The register file, by MMIO dword offset. */
  readonly regs = new Uint32Array(REG_FILE_DWORDS);
  readonly mem: Memory;
  readonly diag: Diagnostics;
  readonly draws: DrawRecord[] = [];
  readonly dispatches: DispatchRecord[] = [];
  readonly events: EventRecord[] = [];
  /** SET_BASE bases by BASE_INDEX (1 = the indirect draw/dispatch argument base). */
  readonly bases = new Map<number, number>();
  indexBase = 0;
  indexBufferSize = 0;
  loadControl = 0;
  shadowControl = 0;
  /**
   * CONTEXT_CONTROL load enables the LOAD_*_REG packets obey (LOAD_GLOBAL_CONFIG [0],
   * LOAD_PER_CONTEXT_STATE [1], LOAD_GLOBAL_UCONFIG [15], LOAD_GFX_SH_REGS [16], LOAD_CS_SH_REGS [24]).
   * All on until a CONTEXT_CONTROL with UPDATE_LOAD_ENABLES says otherwise.
   */
  loadEnables = 0x7fffffff;
  /**
   * SET_PREDICATION state: null = predication off (PRED_OP CLEAR); else whether predicated packets
   * run, and the condition CONTINUE accumulates (non-zero / samples passed / overflow, OR-ed).
   */
  predication: { readonly op: number; readonly pass: boolean; readonly cond: boolean } | null = null;
  /** Predicated packets the CP discarded, and dwords COND_EXEC skipped. */
  predicatedOff = 0;
  condSkippedDwords = 0;
  /** Type-3 opcodes this processor gave an effect to (the coverage report counts them). */
  readonly executedOpcodes = new Set<number>();
  /** A deterministic GPU clock for timestamps: advances once per packet. */
  clock = 0;
  packets = 0;
  readonly maxDraws: number;
  private readonly launch: ((l: ComputeLaunch) => boolean) | undefined;
  private readonly onDraw: ((rec: DrawRecord) => void) | undefined;
  private readonly zpassCounts: (() => readonly number[]) | undefined;
  readonly renderBackends: number;
  /** Bumped on every register change, so unchanged state is snapshotted once. */
  private version = 0;
  private snap: RegSnapshot | null = null;
  private snapVersion = -1;
  private readonly analyser: AnalyseVisitor | null;

  constructor(opts: CpOptions) {
    this.gen = opts.gen;
    this.db = regDb(opts.gen);
    this.mem = opts.mem;
    this.diag = opts.diag;
    this.launch = opts.launch;
    this.onDraw = opts.onDraw;
    this.zpassCounts = opts.zpassCounts;
    this.renderBackends = opts.renderBackends ?? DEFAULT_RENDER_BACKENDS;
    this.maxDraws = opts.maxDraws ?? 100_000;
    this.analyser = opts.analyse === false ? null : new AnalyseVisitor(opts.gen, opts.diag);
  }

  /** Execute a stream (top level; IBs are fetched from GPU memory). Throws Pm4Error if malformed. */
  run(words: Uint32Array, opts: Omit<WalkOptions, 'gen' | 'fetch'> = {}): WalkStats {
    return walkPm4(words, this, { ...opts, gen: this.gen, fetch: (va, n) => this.fetch(va, n) });
  }

  /** Execute an IB already in GPU memory. */
  runAt(va: number, dwords: number): WalkStats {
    const w = this.fetch(va, dwords);
    if (w === null) throw new RangeError(`no GPU memory at 0x${va.toString(16)} for ${dwords} dwords`);
    return this.run(w, { bufferVa: va });
  }

  private fetch(va: number, n: number): Uint32Array | null {
    if (va % 4 !== 0) return null;
    const s = this.mem.find(va, n * 4);
    if (s === null) return null;
    const out = new Uint32Array(n);
    for (let i = 0; i < n; i++) out[i] = s.dv.getUint32(va - s.base + i * 4, true);
    return out;
  }

  reg(name: string): number {
    return this.regs[this.db.offset(name)]!;
  }

  private where(p: Pm4Packet): Record<string, number | string> {
    return p.bufferVa !== undefined && p.level > 0 ? { offset: p.offset, ib: '0x' + p.bufferVa.toString(16), level: p.level } : { offset: p.offset };
  }

  private writeReg(p: Pm4Packet, offset: number, value: number): void {
    if (offset < 0 || offset >= REG_FILE_DWORDS) {
      this.diag.report({ id: 'pm4.reg.out-of-range', severity: 'error', where: this.where(p), message: `IT_${p.name} writes register dword offset 0x${offset.toString(16)}, outside the modelled register file` });
      return;
    }
    if (this.regs[offset] !== value >>> 0) {
      this.regs[offset] = value >>> 0;
      this.version++;
    }
  }

  /** A snapshot of the register state, shared between draws while no register changes. */
  private snapshot(): RegSnapshot {
    if (this.snap === null || this.snapVersion !== this.version) {
      this.snap = new RegSnapshot(this.regs, this.db);
      this.snapVersion = this.version;
    }
    return this.snap;
  }

  packet(p: Pm4Packet): PacketAction | void {
    this.packets++;
    this.clock += 16;
    this.analyser?.packet(p);
    // PREDICATE [0] of a type-3 header: the packet runs only while the SET_PREDICATION condition holds.
    if (p.type === 3 && p.predicate && this.predication && !this.predication.pass && p.opcode !== IT.SET_PREDICATION) {
      this.predicatedOff++;
      return { discard: true };
    }
    for (const w of packetWrites(p, this.gen)) this.writeReg(p, w.offset, w.value);
    if (this.draws.length >= this.maxDraws && p.type === 3 && DRAWS.has(p.opcode)) {
      this.diag.report({ id: 'pm4.draw.limit', severity: 'error', where: this.where(p), message: `more than ${this.maxDraws} draws recorded; further draws are ignored` });
      return;
    }
    if (p.type !== 3) return;
    const b = p.body;
    // Opcodes reaching a case below (or writing registers by themselves) count as executed.
    if (p.spec?.writes) this.executedOpcodes.add(p.opcode);
    switch (p.opcode) {
      case IT.SET_BASE: this.bases.set(b[0]! & 0xf, lohi(b[1]!, b[2]! & 0xffff)); break;
      case IT.CONTEXT_CONTROL:
        this.loadControl = b[0]!;
        this.shadowControl = b[1]!;
        if (b[0]! >>> 31) this.loadEnables = b[0]! & 0x7fffffff;
        break;
      case IT.LOAD_CONFIG_REG: this.loadReg(p, 'config', 1 << 0); break;
      case IT.LOAD_CONTEXT_REG: this.loadReg(p, 'context', 1 << 1); break;
      case IT.LOAD_UCONFIG_REG: this.loadReg(p, 'uconfig', 1 << 15); break;
      case IT.LOAD_SH_REG: this.loadReg(p, 'sh', p.compute ? 1 << 24 : 1 << 16); break;
      case IT.LOAD_SH_REG_INDEX: this.loadRegIndex(p, 'sh'); break;
      case IT.LOAD_CONTEXT_REG_INDEX: this.loadRegIndex(p, 'context'); break;
      case IT.SET_PREDICATION: this.setPredication(p); break;
      case IT.COND_EXEC: {
        this.executedOpcodes.add(p.opcode);
        const va = lohi(b[0]! & ~3, b[1]! & 0xffff);
        const n = b[3]! & 0x3fff;
        if (this.mem.read32(va) !== 0 || n === 0) break;
        this.condSkippedDwords += n;
        return { skipDwords: n };
      }
      case IT.CLEAR_STATE:
        // The CP reloads the clear-state defaults; the database has no reset values, so context state goes to 0.
        this.regs.fill(0, REG_SPACES.context.base, REG_SPACES.context.end);
        this.version++;
        break;
      case IT.INDEX_TYPE: this.writeReg(p, this.db.offset('VGT_INDEX_TYPE'), b[0]!); break;
      case IT.NUM_INSTANCES: this.writeReg(p, this.db.offset('VGT_NUM_INSTANCES'), b[0]!); break;
      case IT.INDEX_BASE: this.indexBase = lohi(b[0]! & ~1, b[1]! & 0xffff); break;
      case IT.INDEX_BUFFER_SIZE: this.indexBufferSize = b[0]!; break;
      case IT.DRAW_INDEX_AUTO: this.draw(p, 'auto', b[0]!, 0, b[1]!); break;
      case IT.DRAW_INDEX_2: {
        if (b[3]! > b[0]!) this.diag.report({ id: 'pm4.draw.index-count-exceeds-max-size', severity: 'warning', where: this.where(p), message: `DRAW_INDEX_2 reads ${b[3]} indices but MAX_SIZE is ${b[0]}: the excess indices read as 0` });
        this.draw(p, 'indexed', b[3]!, 0, b[4]!, lohi(b[1]!, b[2]! & 0xffff), 0);
        break;
      }
      case IT.DRAW_INDIRECT:
      case IT.DRAW_INDEX_INDIRECT:
        this.drawIndirect(p, b[0]!, b[1]!, b[2]!, b[3]!, p.opcode === IT.DRAW_INDEX_INDIRECT);
        break;
      case IT.DRAW_INDIRECT_MULTI:
      case IT.DRAW_INDEX_INDIRECT_MULTI: {
        let count = b[4]!;
        if ((b[3]! >>> 30) & 1) count = Math.min(count, this.mem.read32(lohi(b[5]!, b[6]!)));
        const stride = b[7]! || (p.opcode === IT.DRAW_INDEX_INDIRECT_MULTI ? 20 : 16);
        const drawIndexLoc = ((b[3]! >>> 31) & 1) ? REG_SPACES.sh.base + (b[3]! & 0xffff) : -1;
        for (let k = 0; k < count && k < 65536 && this.draws.length < this.maxDraws; k++) {
          if (drawIndexLoc >= 0) this.writeReg(p, drawIndexLoc, k);
          this.drawIndirect(p, b[0]! + k * stride, b[1]!, b[2]!, b[8]!, p.opcode === IT.DRAW_INDEX_INDIRECT_MULTI);
        }
        break;
      }
      case IT.DISPATCH_DIRECT: this.dispatch(p, [b[0]!, b[1]!, b[2]!], b[3]!); break;
      case IT.DISPATCH_INDIRECT: {
        const va = b.length === 2 ? (this.bases.get(1) ?? 0) + b[0]! : lohi(b[0]!, b[1]!);
        this.dispatch(p, [this.mem.read32(va), this.mem.read32(va + 4), this.mem.read32(va + 8)], b[b.length - 1]!);
        break;
      }
      case IT.WRITE_DATA: this.writeData(p); break;
      case IT.COPY_DATA: this.copyData(p); break;
      case IT.EVENT_WRITE:
        this.event(p, b[0]! & 0x3f);
        if (b.length === 3) this.eventWithAddress(p, b[0]! & 0x3f, lohi(b[1]!, b[2]! & 0xffff));
        break;
      case IT.EVENT_WRITE_ZPASS: this.zpassDump(p, lohi(b[0]!, b[1]! & 0xffff)); break;
      case IT.EVENT_WRITE_EOP:
        this.event(p, b[0]! & 0x3f);
        this.releaseWrite(p, lohi(b[1]!, b[2]! & 0xffff), (b[2]! >>> 29) & 7, b[3]!, b[4]!);
        break;
      case IT.RELEASE_MEM:
        this.event(p, b[0]! & 0x3f);
        this.releaseWrite(p, lohi(b[2]!, b[3]!), (b[1]! >>> 29) & 7, b[4]!, b[5]!);
        break;
      case IT.WAIT_REG_MEM: this.waitRegMem(p); break;
      case IT.INDIRECT_BUFFER: break; // the walker fetches and runs it
      case IT.ACQUIRE_MEM: case IT.PFP_SYNC_ME: case IT.NOP:
        // Caches and the PFP/ME split are not modelled: every write is visible at once.
        break;
      default: return;
    }
    this.executedOpcodes.add(p.opcode);
  }

  /** LOAD_*_REG: each (REG_OFFSET, NUM_DWORDS) group loads from BASE + REG_OFFSET*4, when CONTEXT_CONTROL enables the group. */
  private loadReg(p: Pm4Packet, space: keyof typeof REG_SPACES, enable: number): void {
    const b = p.body;
    if ((this.loadEnables & enable) === 0) {
      this.diag.report({ id: 'pm4.load-reg.disabled', severity: 'warning', where: this.where(p), message: `IT_${p.name} is ignored: CONTEXT_CONTROL's load enables (0x${this.loadEnables.toString(16)}) do not include this register group` });
      return;
    }
    const base = lohi(b[0]! & ~3, b[1]! & 0xffff);
    const { base: sb, end } = REG_SPACES[space];
    for (let g = 2; g + 1 < b.length; g += 2) {
      const off = b[g]! & 0xffff;
      const n = b[g + 1]! & 0x3fff;
      if (sb + off + n > end) {
        this.diag.report({ id: 'pm4.load-reg.out-of-space', severity: 'error', where: this.where(p), message: `IT_${p.name} loads ${n} registers from offset 0x${off.toString(16)}, past the end of the ${space} space` });
        continue;
      }
      for (let k = 0; k < n; k++) this.writeReg(p, sb + off + k, this.mem.read32(base + (off + k) * 4));
    }
  }

  /** LOAD_*_REG_INDEX: the data is at the address itself; DATA_FORMAT 1 = NUM_DWORDS (offset, value) pairs. */
  private loadRegIndex(p: Pm4Packet, space: keyof typeof REG_SPACES): void {
    const b = p.body;
    const index = b[0]! & 3;
    if (index !== 0) {
      this.diag.report({ id: 'pm4.load-reg-index.unsupported-index', severity: 'warning', where: this.where(p), message: `IT_${p.name} INDEX ${index} (${index === 1 ? 'OFFSET' : index === 2 ? 'INDIRECT_ADDR' : 'reserved'}) is not modelled; no register is loaded` });
      return;
    }
    const va = lohi(b[0]! & ~3, b[1]!);
    const { base: sb, end } = REG_SPACES[space];
    const n = b[3]! & 0x3fff;
    if ((b[2]! >>> 31) === 1) {
      for (let k = 0; k < n; k++) {
        const off = this.mem.read32(va + k * 8) & 0xffff;
        if (sb + off >= end) {
          this.diag.report({ id: 'pm4.load-reg.out-of-space', severity: 'error', where: this.where(p), message: `IT_${p.name} pair ${k} names offset 0x${off.toString(16)}, past the end of the ${space} space` });
          continue;
        }
        this.writeReg(p, sb + off, this.mem.read32(va + k * 8 + 4));
      }
      return;
    }
    const off = b[2]! & 0xffff;
    if (sb + off + n > end) {
      this.diag.report({ id: 'pm4.load-reg.out-of-space', severity: 'error', where: this.where(p), message: `IT_${p.name} loads ${n} registers from offset 0x${off.toString(16)}, past the end of the ${space} space` });
      return;
    }
    for (let k = 0; k < n; k++) this.writeReg(p, sb + off + k, this.mem.read32(va + k * 4));
  }

  /**
   * SET_PREDICATION: PRED_OP 0 clears predication. The condition: BOOL64/BOOL32 the value at the
   * address is non-zero; ZPASS the occlusion block there (queries.ts: renderBackends slots)
   * counted samples; PRIMCOUNT the streamout block there overflowed. CONTINUE ORs the condition
   * with the previous packet's (several query blocks decide together). PRED_BOOL/DRAW_VISIBLE = 1
   * runs predicated packets when the condition holds (PRIMCOUNT: when it does not, "draw if no
   * overflow"), 0 the opposite. A query block not written yet: with HINT = NOWAIT_DRAW the packets
   * run; with HINT = WAIT the CP would wait for results nothing will write (a hang): reported, run.
   */
  private setPredication(p: Pm4Packet): void {
    const b = p.body;
    const op = (b[0]! >>> 16) & 7;
    const visible = ((b[0]! >>> 8) & 1) === 1;
    const noWait = ((b[0]! >>> 12) & 1) === 1;
    const cont = (b[0]! >>> 31) === 1;
    if (op === 0) {
      this.predication = null;
      return;
    }
    const va = lohi(b[1]! & ~3, b[2]! & 0xffff);
    const prev = cont && this.predication ? this.predication.cond : false;
    const keep = (pass: boolean, cond: boolean): void => { this.predication = { op, pass, cond }; };
    if (op === 3 || op === 4) {
      if (!this.memAddr(p, va, op === 3 ? 8 : 4)) return;
      const cond = prev || (op === 3 ? (this.mem.read32(va) | this.mem.read32(va + 4)) !== 0 : this.mem.read32(va) !== 0);
      keep(visible ? cond : !cond, cond);
      return;
    }
    if (op !== 1 && op !== 2) {
      this.diag.report({ id: 'pm4.set-predication.reserved-op', severity: 'error', where: this.where(p), message: `SET_PREDICATION PRED_OP ${op} is reserved (0 clear, 1 ZPASS, 2 PRIMCOUNT, 3 BOOL64, 4 BOOL32); predicated packets run` });
      keep(true, prev);
      return;
    }
    if (!this.memAddr(p, va, 8)) return;
    const q = op === 1 ? readZpassBlock(this.mem, va, this.renderBackends) : readStreamoutBlock(this.mem, va);
    if (!q.ready) {
      if (!noWait) {
        this.diag.report({
          id: 'pm4.set-predication.query-not-ready', severity: 'error', where: this.where(p),
          message: `SET_PREDICATION ${op === 1 ? 'ZPASS' : 'PRIMCOUNT'} with HINT = WAIT: the ${op === 1 ? `occlusion results at 0x${va.toString(16)} (${this.renderBackends} RB slots)` : `streamout statistics at 0x${va.toString(16)}`} are not all written (bit 63 clear) and nothing will write them: the CP would wait forever; predicated packets run`,
        });
      }
      keep(true, prev);
      return;
    }
    const cond = prev || ('samples' in q ? q.samples > 0 : q.overflow);
    keep(op === 2 ? (visible ? !cond : cond) : (visible ? cond : !cond), cond);
  }

  /** EVENT_WRITE with an address: the events that write query results. */
  private eventWithAddress(p: Pm4Packet, t: number, va: number): void {
    const name = this.eventName(t);
    if (name === 'ZPASS_DONE' || (name === 'PIXEL_PIPE_STAT_DUMP' && this.gen === 'gfx11')) {
      this.zpassDump(p, va);
    } else if (name.startsWith('SAMPLE_STREAMOUTSTATS')) {
      this.diag.report({ id: 'pm4.event.streamout-stats-not-modelled', severity: 'warning', where: this.where(p), message: `EVENT_WRITE ${name}: streamout is not modelled, so there are no primitive counts; nothing is written at 0x${va.toString(16)}` });
    }
  }

  /** A ZPASS dump: every RB writes its samples-passed counter (bit 63 set) at va + 16*rb. */
  private zpassDump(p: Pm4Packet, va: number): void {
    if (!this.memAddr(p, va, 8)) return;
    if (!this.zpassCounts) {
      this.diag.report({ id: 'pm4.event.zpass-no-pipeline', severity: 'warning', where: this.where(p), message: `IT_${p.name} asks the DB for its samples-passed counts, but draws are only recorded here (no graphics pipeline): nothing is written at 0x${va.toString(16)}` });
      return;
    }
    writeZpassCounts(this.mem, va, this.zpassCounts());
  }

  skipped(offset: number, dwords: number, midPacket: boolean, level: number, bufferVa: number | undefined): void {
    if (!midPacket) return;
    const where: Record<string, number | string> = bufferVa !== undefined && level > 0 ? { offset, ib: '0x' + bufferVa.toString(16), level } : { offset };
    this.diag.report({ id: 'pm4.cond-exec.mid-packet', severity: 'error', where, message: `COND_EXEC skips ${dwords} dwords and lands inside a packet: the CP resumes parsing packet data as headers` });
  }

  private indexSize(): number {
    const t = this.reg('VGT_INDEX_TYPE') & 3;
    return t === 0 ? 2 : t === 1 ? 4 : 1;
  }

  private draw(p: Pm4Packet, kind: DrawKind, count: number, firstVertex: number, initiator: number, indexBase?: number, firstIndex?: number, instances?: number, firstInstance = 0): void {
    const rec: DrawRecord = {
      packet: p.name, offset: p.offset, level: p.level, kind, count: count >>> 0,
      instanceCount: instances ?? Math.max(1, this.reg('VGT_NUM_INSTANCES')), firstVertex, firstInstance,
      ...(indexBase !== undefined ? { indexBase, firstIndex: firstIndex ?? 0, indexSize: this.indexSize() } : {}),
      primType: this.reg('VGT_PRIMITIVE_TYPE') & 0x3f, initiator: initiator >>> 0, state: this.snapshot(),
    };
    this.draws.push(rec);
    this.onDraw?.(rec);
  }

  private drawIndirect(p: Pm4Packet, dataOffset: number, baseVtxLoc: number, startInstLoc: number, initiator: number, indexed: boolean): void {
    const va = (this.bases.get(1) ?? 0) + dataOffset;
    const m = this.mem;
    // VkDrawIndirectCommand / VkDrawIndexedIndirectCommand layouts.
    const count = m.read32(va);
    const instances = m.read32(va + 4);
    const first = m.read32(va + 8);
    const vtxOffset = indexed ? m.read32(va + 12) | 0 : first;
    const firstInstance = m.read32(va + (indexed ? 16 : 12));
    // The CP writes the base vertex and start instance into the user-data SGPRs the packet names.
    if (baseVtxLoc) this.writeReg(p, REG_SPACES.sh.base + (baseVtxLoc & 0xffff), vtxOffset >>> 0);
    if (startInstLoc) this.writeReg(p, REG_SPACES.sh.base + (startInstLoc & 0xffff), firstInstance);
    if (indexed) this.draw(p, 'indexed-indirect', count, vtxOffset, initiator, this.indexBase, first, instances, firstInstance);
    else this.draw(p, 'indirect', count, first, initiator, undefined, undefined, instances, firstInstance);
  }

  private dispatch(p: Pm4Packet, dims: [number, number, number], initiator: number): void {
    const r = (n: string): number => this.reg(n);
    const block: [number, number, number] = [r('COMPUTE_NUM_THREAD_X') & 0xffff, r('COMPUTE_NUM_THREAD_Y') & 0xffff, r('COMPUTE_NUM_THREAD_Z') & 0xffff];
    const pgmVa = r('COMPUTE_PGM_LO') * 256 + (r('COMPUTE_PGM_HI') & 0xff) * 2 ** 40;
    const rec: DispatchRecord = { packet: p.name, offset: p.offset, level: p.level, dims, initiator: initiator >>> 0, pgmVa, block, state: this.snapshot(), executed: false };
    this.dispatches.push(rec);
    if ((initiator & 1) === 0) {
      this.diag.report({ id: 'pm4.dispatch.compute-shader-disabled', severity: 'warning', where: this.where(p), message: `${p.name} with DISPATCH_INITIATOR.COMPUTE_SHADER_EN = 0: no waves launch` });
      return;
    }
    if (dims.some((v) => v === 0)) return;
    if (!this.launch) return;
    const u0 = this.db.offset('COMPUTE_USER_DATA_0');
    const rs3 = this.db.get('COMPUTE_PGM_RSRC3');
    rec.executed = this.launch({
      gen: this.gen, record: rec, userData: this.regs.slice(u0, u0 + 16), rsrc1: r('COMPUTE_PGM_RSRC1'), rsrc2: r('COMPUTE_PGM_RSRC2'),
      rsrc3: rs3 ? this.regs[rs3.offset]! : 0, useThreadDimensions: ((initiator >>> 5) & 1) === 1, mem: this.mem, diag: this.diag,
    });
  }

  private memAddr(p: Pm4Packet, va: number, align: number): boolean {
    if (va % align === 0) return true;
    this.diag.report({ id: 'pm4.mem.misaligned', severity: 'error', where: this.where(p), message: `IT_${p.name} address 0x${va.toString(16)} is not ${align}-byte aligned` });
    return false;
  }

  private writeData(p: Pm4Packet): void {
    const b = p.body;
    const dst = (b[0]! >>> 8) & 0xf;
    const one = ((b[0]! >>> 16) & 1) === 1;
    if (dst === 0) return; // registers: packetWrites did it
    if (dst === 1 || dst === 2 || dst === 5) {
      const va = lohi(b[1]!, b[2]!);
      if (!this.memAddr(p, va, 4)) return;
      for (let i = 3; i < b.length; i++) this.mem.write32(one ? va : va + (i - 3) * 4, b[i]!);
      return;
    }
    this.diag.report({ id: 'pm4.write-data.unsupported-dst', severity: 'warning', where: this.where(p), message: `WRITE_DATA DST_SEL ${dst} (${dst === 3 ? 'GDS' : 'reserved'}) is not modelled; the write is dropped` });
  }

  private copyData(p: Pm4Packet): void {
    const b = p.body;
    const src = b[0]! & 0xf;
    const dst = (b[0]! >>> 8) & 0xf;
    const wide = ((b[0]! >>> 16) & 1) === 1;
    let lo: number;
    let hi = 0;
    switch (src) {
      case 0: case 4: {
        const r = b[1]! >>> 0;
        lo = r < REG_FILE_DWORDS ? this.regs[r]! : 0;
        hi = wide && r + 1 < REG_FILE_DWORDS ? this.regs[r + 1]! : 0;
        break;
      }
      case 1: case 2: {
        const va = lohi(b[1]!, b[2]!);
        if (!this.memAddr(p, va, wide ? 8 : 4)) return;
        lo = this.mem.read32(va);
        hi = wide ? this.mem.read32(va + 4) : 0;
        break;
      }
      case 5: lo = b[1]!; hi = b[2]!; break;
      case 9: lo = this.clock % 0x1_0000_0000; hi = Math.floor(this.clock / 0x1_0000_0000); break;
      default:
        this.diag.report({ id: 'pm4.copy-data.unsupported-src', severity: 'warning', where: this.where(p), message: `COPY_DATA SRC_SEL ${src} is not modelled; nothing is copied` });
        return;
    }
    switch (dst) {
      case 0: case 4: {
        const r = b[3]! >>> 0;
        this.writeReg(p, r, lo);
        if (wide) this.writeReg(p, r + 1, hi);
        break;
      }
      case 1: case 2: case 5: {
        const va = lohi(b[3]!, b[4]!);
        if (!this.memAddr(p, va, wide ? 8 : 4)) return;
        this.mem.write32(va, lo);
        if (wide) this.mem.write32(va + 4, hi);
        break;
      }
      default:
        this.diag.report({ id: 'pm4.copy-data.unsupported-dst', severity: 'warning', where: this.where(p), message: `COPY_DATA DST_SEL ${dst} is not modelled; nothing is copied` });
    }
  }

  private eventName(t: number): string {
    const f = this.db.get('VGT_EVENT_INITIATOR')?.fields.find((x) => x.name === 'EVENT_TYPE');
    return f?.values?.get(t) ?? `EVENT_${t}`;
  }

  private event(p: Pm4Packet, t: number): void {
    this.events.push({ packet: p.name, offset: p.offset, eventType: t, name: this.eventName(t) });
  }

  /** The end-of-pipe write of EVENT_WRITE_EOP / RELEASE_MEM: DATA_SEL 1 = 32 bits, 2 = 64 bits, 3 = timestamp. */
  private releaseWrite(p: Pm4Packet, va: number, dataSel: number, lo: number, hi: number): void {
    switch (dataSel) {
      case 0: return;
      case 1: if (this.memAddr(p, va, 4)) this.mem.write32(va, lo); return;
      case 2: if (this.memAddr(p, va, 8)) { this.mem.write32(va, lo); this.mem.write32(va + 4, hi); } return;
      case 3: if (this.memAddr(p, va, 8)) this.mem.write64(va, this.clock); return;
      default:
        this.diag.report({ id: 'pm4.release.unsupported-data-sel', severity: 'warning', where: this.where(p), message: `IT_${p.name} DATA_SEL ${dataSel} (${dataSel === 5 ? 'GDS' : 'reserved'}) is not modelled; nothing is written` });
    }
  }

  private waitRegMem(p: Pm4Packet): void {
    const b = p.body;
    const fn = b[0]! & 7;
    const memSpace = (b[0]! >>> 4) & 3;
    let value: number;
    let what: string;
    if (memSpace === 1) {
      const va = lohi(b[1]! & ~3, b[2]!);
      value = this.mem.read32(va);
      what = `memory at 0x${va.toString(16)}`;
    } else {
      const r = b[1]! >>> 0;
      value = r < REG_FILE_DWORDS ? this.regs[r]! : 0;
      what = `register ${this.db.nameAt(r)}`;
    }
    const ref = b[3]! >>> 0;
    const mask = b[4]! >>> 0;
    const v = (value & mask) >>> 0;
    const ops = ['always', '<', '<=', '==', '!=', '>=', '>', 'reserved'] as const;
    const ok = [true, v < ref, v <= ref, v === ref, v !== ref, v >= ref, v > ref, false][fn]!;
    if (ok) return;
    this.diag.report({
      id: 'pm4.wait-reg-mem.never-satisfied', severity: 'error', where: this.where(p),
      message: fn === 7 ? 'WAIT_REG_MEM with the reserved FUNCTION 7 never completes: the CP would hang here'
        : `WAIT_REG_MEM waits for (${what} & 0x${mask.toString(16)}) ${ops[fn]} 0x${ref.toString(16)} but it is 0x${v.toString(16)} and nothing else can change it: the CP would hang here`,
    });
  }
}

/** The space each SET_*_REG packet addresses. */
const SET_SPACE = new Map<number, keyof typeof REG_SPACES>([
  [IT.SET_CONTEXT_REG!, 'context'], [IT.SET_SH_REG!, 'sh'], [IT.SET_SH_REG_INDEX!, 'sh'],
  [IT.SET_UCONFIG_REG!, 'uconfig'], [IT.SET_UCONFIG_REG_INDEX!, 'uconfig'], [IT.SET_CONFIG_REG!, 'config'],
]);

const PAIRS = new Set([IT.SET_CONTEXT_REG_PAIRS!, IT.SET_SH_REG_PAIRS!, IT.SET_CONTEXT_REG_PAIRS_PACKED!, IT.SET_SH_REG_PAIRS_PACKED!, IT.SET_SH_REG_PAIRS_PACKED_N!]);

/**
 * The analyse visitor: packets that parse but break a rule. A clean stream reports nothing.
 */
export class AnalyseVisitor implements Pm4Visitor {
  readonly gen: Pm4Gen;
  readonly db: RegDb;
  readonly diag: Diagnostics;
  constructor(gen: Pm4Gen, diag: Diagnostics) {
    this.gen = gen;
    this.db = regDb(gen);
    this.diag = diag;
  }
  packet(p: Pm4Packet): void {
    const where: Record<string, number | string> = p.bufferVa !== undefined && p.level > 0 ? { offset: p.offset, ib: '0x' + p.bufferVa.toString(16), level: p.level } : { offset: p.offset };
    if (p.type === 0) {
      this.diag.report({ id: 'pm4.type0', severity: 'warning', where, message: `type-0 packet writing ${p.body.length} registers from 0x${p.baseIndex.toString(16)}: the GFX9+ graphics CP expects SET_*_REG type-3 packets` });
      return;
    }
    if (p.type !== 3) return;
    if (!HANDLERS.has(p.opcode)) {
      this.diag.report({ id: 'pm4.unhandled-packet', severity: 'info', where, message: `IT_${p.name} is parsed but not modelled: it has no effect here` });
      return;
    }
    if (PAIRS.has(p.opcode)) {
      // Mesa: every SET_*_PAIRS* packet on the graphics queue must set RESET_FILTER_CAM.
      if (!p.compute && !p.resetFilterCam) this.diag.report({ id: 'pm4.set-pairs.no-reset-filter-cam', severity: 'warning', where, message: `IT_${p.name} on the graphics queue without RESET_FILTER_CAM [2] in its header` });
      const ws = p.spec?.writes?.(p.body, this.gen) ?? [];
      if (ws.length === 2 && ws[0]!.offset === ws[1]!.offset && p.name.includes('PACKED')) {
        this.diag.report({ id: 'pm4.set-pairs-packed.duplicate-pair', severity: 'error', where, message: `IT_${p.name} sets two registers at the same offset 0x${ws[0]!.offset.toString(16)} (a padded single register): the packed form needs two distinct registers` });
      }
      const unknown = ws.find((w) => !this.db.at(w.offset));
      if (unknown) this.diag.report({ id: 'pm4.set-reg.unknown-register', severity: 'warning', where, message: `IT_${p.name} writes dword offset 0x${unknown.offset.toString(16)}, which is no ${this.gen} register` });
      return;
    }
    const sp = SET_SPACE.get(p.opcode);
    if (sp) {
      const { base, end } = REG_SPACES[sp];
      const first = base + (p.body[0]! & 0xffff);
      const last = first + p.body.length - 2;
      if (last >= end) {
        this.diag.report({ id: 'pm4.set-reg.out-of-space', severity: 'error', where, message: `IT_${p.name} writes 0x${first.toString(16)}..0x${last.toString(16)}, past the end of the ${sp} space (0x${end.toString(16)})` });
        return;
      }
      for (let r = first; r <= last; r++) {
        if (!this.db.at(r)) {
          this.diag.report({ id: 'pm4.set-reg.unknown-register', severity: 'warning', where, message: `IT_${p.name} writes dword offset 0x${r.toString(16)}, which is no ${this.gen} register` });
          break;
        }
      }
    }
  }
}
