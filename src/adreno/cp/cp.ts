/**
 * A simulated a6xx (and a7xx-compatible) command processor executing PM4 streams over GPU
 * memory: IB levels, draw-state groups, predication, conditional execution, memory and register
 * packets, events, context banks, protected registers, faults and CP performance counters.
 *
 * Execution is functional: every packet completes before the next (so the WFI / WAIT_MEM_WRITES
 * family only counts), draws and dispatches are recorded with the register state they would see.
 * Rules the seed (004, Adreno) documents as errors or hangs become diagnostics with stable ids;
 * the fatal ones stop the CP with the status registers a crash dump would show.
 *
 * Structure: the CP is a visitor of the one packet walker (walker.ts), which fetches and steps
 * every buffer; type-7 packets run through the per-generation handler table (handlers.ts,
 * handlers-*.ts), whose handlers call `execIb` to run the IBs, groups and bin bodies they choose.
 */
import { Diagnostics } from '../../core/diagnostics.js';
import type { Memory } from '../../core/memory.js';
import { enumValue, gpuRegs, type Gen, type RegisterSpace } from '../regs/db.js';
import { CTX_HI, CTX_LO, Stop, type DrawMode, type Handler, type StopReason } from './exec.js';
import { handlerTable } from './handlers.js';
import { CsState, type ComputeRun } from './handlers-compute.js';
import type { ComputeOptions } from '../sp/compute.js';
import { opcodeName, opcodes } from './pm4.js';
import { TILE6_A630, type Tile6Config } from '../ubwc/tile6.js';
import { Walker, type IbInfo, type PacketRecord, type Problem, type Visitor } from './walker.js';
import { Gmem, gmemModelled } from '../rb/gmem.js';
import { VscWriter, type PrimBox, type VscHost, type VscReader } from '../vsc/vsc.js';
import { Lrz, type LrzDrawState } from '../gras/lrz.js';
import { Caches } from '../cache/caches.js';
import { alwaysOnTicks, BlockCounters } from '../rbbm/perfcounters.js';
import { installStreamOut } from './handlers-so.js';

export { CTX_HI, CTX_LO, type DrawMode, type StopReason };

const SEED = '004_0583f9f0ffcacefd.txt';

const REGFILE_SIZE = 0x40000;

export const CLUSTERS = ['FE', 'SP_VS', 'PC_VS', 'GRAS', 'SP_FS', 'PS'] as const;
export type Cluster = (typeof CLUSTERS)[number];

/** Pipeline cluster of a context register, by its block name (see DESIGN notes in the report). */
export function clusterOf(name: string): Cluster | undefined {
  if (name.startsWith('GRAS_')) return 'GRAS';
  if (name.startsWith('RB_')) return 'PS';
  if (name.startsWith('PC_') || name.startsWith('VFD_')) return 'FE';
  if (name.startsWith('VPC_')) return 'PC_VS';
  if (/^(SP|HLSQ)_(VS|HS|DS|GS)_/.test(name)) return 'SP_VS';
  if (name.startsWith('SP_') || name.startsWith('HLSQ_') || name.startsWith('TPL1_')) return 'SP_FS';
  return undefined;
}


export interface DrawStateSlot {
  addr: number;
  count: number;
  /** Needs to run at the next draw / CP_SET_MODE. */
  dirty: boolean;
}

export interface WorkRecord {
  readonly kind: 'draw' | 'dispatch' | 'blit';
  readonly packet: string;
  readonly payload: readonly number[];
  readonly iova: number;
  readonly level: number;
  /** Render mode from CP_SET_MARKER when recorded. */
  readonly mode: DrawMode;
  readonly marker: number;
  /** Context bank (0/1) the draw was recorded with. */
  readonly bank: number;
  /** Killed by draw predication (recorded, not executed). */
  readonly killed: boolean;
  /** Non-zero context registers of the bank, and the non-context registers written so far. */
  readonly state: ReadonlyMap<number, number>;
  /** CP packet state in force (CP_SET_BIN_DATA5, CP_SET_VISIBILITY_OVERRIDE, CP_SET_SUBDRAW_SIZE ...). */
  readonly cpState: ReadonlyMap<string, readonly number[]>;
  /** Bin index while CP_START_BIN replays its body, else -1. */
  readonly bin: number;
  /** Skipped in this bin: the visibility stream (CP_SET_BIN_DATA5) has no primitive of it there. */
  readonly invisible?: boolean;
  /** a7xx CP thread that recorded it. */
  readonly thread: 'BR' | 'BV';
}

export interface EventRecord {
  readonly name: string;
  readonly value: number;
  readonly iova: number;
  readonly addr?: number;
  readonly irq: boolean;
}

export interface LoadStateRecord {
  readonly packet: string;
  readonly dstOff: number;
  readonly stateSrc: number;
  readonly stateBlock: string;
  readonly numUnit: number;
  readonly stateType: number;
  readonly addr?: number;
}

export interface CpOptions {
  readonly gen?: Gen;
  readonly diag?: Diagnostics;
  /** Packet budget for one run (default 10,000,000): a runaway stream becomes a diagnostic. */
  readonly maxPackets?: number;
  /** CP_WAIT_REG_MEM polls before declaring a hang (default 1000). */
  readonly maxPolls?: number;
  /** Keep register snapshots in draw records (default true). */
  readonly snapshots?: boolean;
  /** Called for every executed packet (skipped packets are not seen): an execution trace. */
  readonly onPacket?: (p: ExecutedPacket) => void;
  /**
   * a7xx: which CP thread this run models (default BR, the render thread). With concurrent
   * binning both threads parse the same stream and CP_THREAD_CONTROL sections run only on the
   * thread(s) they name; this functional model runs one thread at a time.
   */
  readonly thread?: 'BR' | 'BV';
  /** GPU id for the SP's ISA (default 630 on a6xx, 730 on a7xx). */
  readonly gpuId?: number;
  /** Scheduling and checks of the SP runs CP_EXEC_CS starts. */
  readonly compute?: ComputeOptions;
  /** An SP failure (unimplemented opcode, runaway wave): a diagnostic (default) or thrown. */
  readonly computeErrors?: 'report' | 'throw';
  /** TILE6_3 macrotile mode and bank swizzle the kernel programmed (default a630's). */
  readonly tile6?: Tile6Config;
  /**
   * The binning pass's geometry: for a draw recorded in RM6_BINNING mode, the screen-space boxes
   * of its primitives (the binning VS + PC). Undefined (or no hook): the draw is binned as visible
   * everywhere (info `adreno.vsc.no-geometry`).
   */
  readonly binning?: (cp: CommandProcessor, draw: WorkRecord) => readonly PrimBox[] | undefined;
}

export interface ExecutedPacket {
  readonly level: number;
  readonly iova: number;
  readonly type: number;
  /** Opcode name, or REG_WRITE for type 4. */
  readonly name: string;
  readonly count: number;
  /** First register of a type-4 write, else -1. */
  readonly reg: number;
  readonly payload: Uint32Array;
}

interface Frame {
  level: number;
  /** Draw-state (SDS) buffers report through CP_SDS_BASE / CP_SDS_REM_SIZE, IBs through CP_IBn_*. */
  sds: boolean;
  base: number;
  size: number;
  /** Dword index of the packet being executed. */
  pos: number;
}

export class CommandProcessor implements Visitor {
  readonly mem: Memory;
  readonly gen: Gen;
  readonly regsDb: RegisterSpace;
  readonly diag: Diagnostics;
  /** Register file (immediate view). Context registers live in `banks`. */
  readonly regs = new Uint32Array(REGFILE_SIZE);
  readonly banks = [new Uint32Array(CTX_HI - CTX_LO), new Uint32Array(CTX_HI - CTX_LO)] as const;
  /** Context bank the CP is filling. */
  ctx = 0;
  /** Done bit of each context (CONTEXT_DONE sets, CP_EVENT_START clears). */
  readonly ctxDone = [true, true];
  private readonly ctxDirty = new Set<number>();
  /** @internal Offsets of non-context registers ever written (for snapshots). */
  readonly written = new Set<number>();
  /** Binning-related CP state set by packets (CP_SET_BIN_DATA5, CP_SET_VISIBILITY_OVERRIDE ...), by packet name. */
  readonly cpState = new Map<string, number[]>();
  /** SQE scratch (CP_REG_TO_SCRATCH / CP_SCRATCH_TO_REG), 8 dwords. */
  readonly sqeScratch = new Uint32Array(8);
  /** Draw state: [mode][group]. */
  readonly drawState: DrawStateSlot[][] = [0, 1, 2].map(() => Array.from({ length: 32 }, () => ({ addr: 0, count: 0, dirty: false })));
  mode: DrawMode = 'SYSMEM';
  marker = 0;
  /** CP_DRAW_PRED_*: enables and the predicate. */
  predGlobal = false;
  predLocal = true;
  predPass = true;
  /**
   * The SQE predicate register (PRED_REG): CP_REG_TEST sets bit PRED_BIT (bit 0 unless given) or,
   * with PRED_UPDATE, merges PRED_VAL under PRED_MASK; CP_COND_REG_EXEC PRED_TEST tests PRED_BIT.
   */
  predReg = 0;
  /** a7xx scratch memory (48 dwords): CP_MEM_TO_SCRATCH_MEM writes it, CP_REG_TEST SOURCE_SCRATCH_MEM reads it. */
  readonly scratchMem = new Uint32Array(48);
  /** a7xx on-chip memory (EV_DST_ONCHIP, TS_WAIT_ONCHIP, COND_REG_EXEC ONCHIP_MEM), by dword address. */
  readonly onchip = new Map<number, number>();
  /** a7xx timestamps (CP_MODIFY_TIMESTAMP; EV_WRITE_TIMESTAMP_SUM writes their sum). */
  globalTs = 0;
  localTs = 0;
  /** a7xx CP_THREAD_CONTROL: threads the following packets are for (BR 1, BV 2), concurrent binning. */
  threadMask = 3;
  concurrentBinning = true;
  readonly thread: 'BR' | 'BV';
  /** a7xx BV/BR counters (CP_EVENT_WRITE7 INC_BV_COUNT / INC_BR_COUNT, CP_BV_BR_COUNT_OPS). */
  bvCount = 0;
  brCount = 0;
  brOffset = 0;
  /** Bin being replayed by CP_START_BIN (-1 outside), handed to draw records. */
  binIndex = -1;
  /** Packets skipped because CP_THREAD_CONTROL gave them to the other thread. */
  otherThreadPackets = 0;
  skipIb2Global = false;
  skipIb2Local = false;
  /** Outstanding WFI/WFM requests (always drained immediately here, counted). */
  wfiCount = 0;
  wfmCount = 0;
  readonly work: WorkRecord[] = [];
  /** GMEM of the GPU (rb/gmem.ts), when its size is known for gpuId. */
  readonly gmem: Gmem | undefined;
  /** The binning pass's stream writer and the render pass's reader (vsc/vsc.ts). */
  readonly vsc: VscWriter;
  vscReader: VscReader | undefined;
  /** LRZ caches and checks (gras/lrz.ts). */
  readonly lrz: Lrz;
  /** The LRZ state of the draw being executed (set by the draw handler). */
  lrzDraw: LrzDrawState | undefined;
  /** CCU / UCHE / L1 write shadows and stale-read checks (cache/caches.ts). */
  readonly caches: Caches;
  /** Graphics blocks' perf countables (rbbm/perfcounters.ts). */
  readonly perf = new BlockCounters();
  /** a650 (a6xx gen3): LRZ registers must be written with CP_REG_WRITE TRACK_LRZ. */
  readonly lrzTrackQuirk: boolean;
  /** @internal */
  readonly binningHook: CpOptions['binning'];
  /** Side effects of writing particular registers, by offset (VPC_SO_CNTL / VPC_SO_PROG: cp/handlers-so.ts). */
  readonly writeHooks = new Map<number, (v: number) => void>();
  /** Draws skipped by the visibility stream, and IB2s skipped with them. */
  vscSkippedDraws = 0;
  /** Primitives of visible draws the render pass skipped (VSC primitive stream: not in the bin). */
  vscSkippedPrims = 0;
  vscSkippedIbs = 0;
  readonly events: EventRecord[] = [];
  readonly loadStates: LoadStateRecord[] = [];
  /** The CS state blocks CP_LOAD_STATE6 filled (handlers-compute.ts). */
  readonly cs = new CsState();
  /** Every CP_EXEC_CS / CP_EXEC_CS_INDIRECT and what the SP did with it. */
  readonly computeRuns: ComputeRun[] = [];
  readonly gpuId: number;
  readonly computeOptions: ComputeOptions;
  readonly computeErrors: 'report' | 'throw';
  interrupts = 0;
  /** GPU cycles (PERF_CP_ALWAYS_COUNT; CP_ALWAYS_ON_COUNTER is the 19.2 MHz timer over them); one per packet dword plus fixed costs. */
  cycles = 0;
  /** Raw countable totals by a6xx_cp_perfcounter_select value. */
  readonly countables = new Float64Array(64);
  stopped: StopReason = 'done';
  packets = 0;
  private readonly maxPackets: number;
  /** @internal CP_WAIT_* polls before a hang. */
  readonly maxPolls: number;
  /** Tiling parameters the 2D engine addresses TILE6_3 surfaces with. */
  readonly tile6: Tile6Config;
  /** @internal Keep register snapshots in draw records. */
  readonly snapshots: boolean;
  private readonly onPacket: ((p: ExecutedPacket) => void) | undefined;
  private readonly stack: Frame[] = [];
  /** @internal Offsets of the registers the CP itself reads and writes. */
  readonly R: Record<string, number>;
  private readonly rbRptr: number;
  private readonly threadControlOp: number;
  /** Type-7 handlers by opcode (handlers.ts). */
  private readonly handlers: readonly Handler[];
  /** The one Adreno packet walker, with this CP as its visitor. */
  private readonly walker: Walker;

  constructor(mem: Memory, opts: CpOptions = {}) {
    this.mem = mem;
    this.tile6 = opts.tile6 ?? TILE6_A630;
    this.gen = opts.gen ?? 'a6xx';
    if (this.gen !== 'a6xx' && this.gen !== 'a7xx') throw new Error(`the executing CP models a6xx/a7xx, not ${this.gen}`);
    this.regsDb = gpuRegs(this.gen);
    this.diag = opts.diag ?? new Diagnostics();
    this.maxPackets = opts.maxPackets ?? 10_000_000;
    this.maxPolls = opts.maxPolls ?? 1000;
    this.snapshots = opts.snapshots ?? true;
    this.onPacket = opts.onPacket;
    this.thread = opts.thread ?? 'BR';
    this.gpuId = opts.gpuId ?? (this.gen === 'a7xx' ? 730 : 630);
    this.computeOptions = opts.compute ?? {};
    this.computeErrors = opts.computeErrors ?? 'report';
    this.threadControlOp = opcodes(this.gen).get('CP_THREAD_CONTROL') ?? -1;
    this.gmem = this.gen === 'a6xx' && gmemModelled(this.gpuId) ? new Gmem(this.gpuId) : undefined;
    const vhost: VscHost = {
      readReg: (o) => this.readReg(o),
      writeReg: (o, v) => this.writeReg(o, v, true),
      regOf: (n) => this.regsDb.reg(n),
      read32: (a) => this.mem.read32(a),
      write32: (a, v) => this.mem.write32(a, v),
      report: (id, sev, msg) => this.report(id, sev, msg),
    };
    this.vsc = new VscWriter(vhost);
    this.lrz = new Lrz({ readBytes: (a, n) => this.mem.readBytes(a, n), writeBytes: (a, b) => this.mem.writeBytes(a, b), report: (id, sev, msg) => this.report(id, sev, msg) });
    this.lrzTrackQuirk = this.gen === 'a6xx' && this.gpuId === 650;
    this.caches = new Caches({ readBytes: (a, n) => this.mem.readBytes(a, n), report: (id, sev, msg) => this.report(id, sev, msg) });
    this.binningHook = opts.binning;
    installStreamOut(this);
    const r = (n: string): number => this.regsDb.reg(n);
    this.R = {
      RBBM_STATUS: r('RBBM_STATUS'),
      RBBM_INT_0_STATUS: r('RBBM_INT_0_STATUS'),
      CP_INTERRUPT_STATUS: r('CP_INTERRUPT_STATUS'),
      CP_PROTECT_STATUS: r('CP_PROTECT_STATUS'),
      CP_PROTECT_CNTL: r('CP_PROTECT_CNTL'),
      CP_PROTECT0: r('CP_PROTECT[0]'),
      CP_IB1_BASE: r('CP_IB1_BASE'),
      CP_IB1_REM_SIZE: r('CP_IB1_REM_SIZE'),
      CP_IB2_BASE: r('CP_IB2_BASE'),
      CP_IB2_REM_SIZE: r('CP_IB2_REM_SIZE'),
      CP_SDS_BASE: r('CP_SDS_BASE'),
      CP_SDS_REM_SIZE: r('CP_SDS_REM_SIZE'),
      CP_RB_RPTR: r('CP_RB_RPTR'),
      CP_RB_WPTR: r('CP_RB_WPTR'),
      CP_RB_BASE: r('CP_RB_BASE'),
      CP_ALWAYS_ON_COUNTER: r('CP_ALWAYS_ON_COUNTER'),
      CP_PERFCTR_CP_SEL0: r('CP_PERFCTR_CP_SEL[0]'),
      RBBM_PERFCTR_CP0: this.gen === 'a6xx' ? r('RBBM_PERFCTR_CP[0]') : r('RBBM_PERFCTR_CP[0]'),
      CP_EVENT_START: r('CP_EVENT_START'),
      CP_EVENT_END: r('CP_EVENT_END'),
      CP_SCRATCH0: r('CP_SCRATCH[0]'),
    };
    this.rbRptr = this.R['CP_RB_RPTR']!;
    this.handlers = handlerTable(this.gen);
    this.walker = new Walker(mem, this.gen, this, { follow: false, maxPackets: Infinity, snapshot: true, reuseRecords: true });
    // Memory faults from any path are reported as iova faults.
    this.mem.onFault = (f) => {
      this.report('adreno.cp.iova-fault', 'error', `${f.write ? 'write' : 'read'} of ${f.size} bytes at unmapped iova 0x${f.va.toString(16)}`);
      this.regs[this.R['RBBM_INT_0_STATUS']!] = (this.regs[this.R['RBBM_INT_0_STATUS']!]! | (1 << 24)) >>> 0;
    };
  }

  // ---- diagnostics -------------------------------------------------------------------------

  private where(): Record<string, number | string> {
    const f = this.stack[this.stack.length - 1];
    if (!f) return {};
    return { level: f.level, iova: '0x' + (f.base + f.pos * 4).toString(16), ib: '0x' + f.base.toString(16) };
  }

  /** @internal */
  report(id: string, severity: 'error' | 'warning' | 'info', message: string): void {
    this.diag.report({ id, severity, where: this.where(), message, seed: SEED });
  }

  // ---- registers ---------------------------------------------------------------------------

  /** Read a register as the CP sees it now (context registers from the bank being filled). */
  readReg(off: number): number {
    if (off >= CTX_LO && off < CTX_HI) return this.banks[this.ctx]![off - CTX_LO]!;
    if (off >= 0 && off < REGFILE_SIZE) return this.regs[off]!;
    return 0;
  }

  /** Register write with side effects; `privileged` writes (ring buffer) bypass CP_PROTECT. */
  writeReg(off: number, v: number, privileged = false): void {
    v >>>= 0;
    if (!privileged && this.isProtected(off, true)) {
      this.regs[this.R['CP_PROTECT_STATUS']!] = (off | (1 << 20)) >>> 0;
      this.setCpInt(4); // CP_REGISTER_PROTECTION_ERROR
      this.report('adreno.cp.protect-violation', 'error', `write of 0x${v.toString(16)} to protected register ${this.regsDb.nameOf(off)} (0x${off.toString(16)}) from IB level ${this.stack[this.stack.length - 1]?.level ?? 0}`);
      throw new Stop('protect-fault');
    }
    if (off >= CTX_LO && off < CTX_HI) {
      this.banks[this.ctx]![off - CTX_LO] = v;
      this.ctxDirty.add(off);
      this.writeHooks.get(off)?.(v);
      return;
    }
    if (off < 0 || off >= REGFILE_SIZE) return;
    this.regs[off] = v;
    this.written.add(off);
    if (off === this.R['CP_EVENT_START']) this.ctxDone[this.ctx] = false;
    else if (off === this.R['CP_EVENT_END']) this.switchContext();
  }

  /** Is a register covered by an enabled CP_PROTECT entry (write, or read when `write` is false)? */
  isProtected(off: number, write: boolean): boolean {
    const cntl = this.regs[this.R['CP_PROTECT_CNTL']!]!;
    if (!(cntl & 1)) return false;
    const base0 = this.R['CP_PROTECT0']!;
    for (let i = 0; i < 32; i++) {
      const e = this.regs[base0 + i]!;
      if (e === 0) continue;
      const base = e & 0x3ffff;
      const len = (e >>> 18) & 0x1fff;
      const protRead = (e >>> 31) & 1;
      const last = i === 31 && cntl & 8;
      if (off >= base && (last || off <= base + len) && (write || protRead)) return true;
    }
    return false;
  }

  /** @internal Set a CP_INTERRUPT_STATUS bit (and CP_HW_ERROR in RBBM_INT_0_STATUS). */
  setCpInt(bit: number): void {
    const o = this.R['CP_INTERRUPT_STATUS']!;
    this.regs[o] = (this.regs[o]! | (1 << bit)) >>> 0;
    const i = this.R['RBBM_INT_0_STATUS']!;
    this.regs[i] = (this.regs[i]! | (1 << 9)) >>> 0; // CP_HW_ERROR
  }

  /** CP_EVENT_END: wait for the other context's done bit, copy dirty registers, switch. */
  /** @internal */
  switchContext(): void {
    const other = this.ctx ^ 1;
    if (!this.ctxDone[other]) {
      this.report('adreno.cp.context-hang', 'error', `CP_EVENT_END waits for context ${other}, which was started (CP_EVENT_START) but never got CONTEXT_DONE`);
      throw new Stop('hang');
    }
    const from = this.banks[this.ctx]!;
    const to = this.banks[other]!;
    for (const o of this.ctxDirty) to[o - CTX_LO] = from[o - CTX_LO]!;
    this.ctxDirty.clear();
    this.ctx = other;
  }

  // ---- performance counters ----------------------------------------------------------------

  /** @internal Add to a countable. */
  count(countable: number, n = 1): void {
    this.countables[countable] = this.countables[countable]! + n;
  }

  /** Advance time by `n` busy cycles. */
  private tick(n: number): void {
    this.cycles += n;
    this.count(0, n); // PERF_CP_ALWAYS_COUNT
    this.count(2, n); // PERF_CP_BUSY_CYCLES
    this.count(1, n); // PERF_CP_BUSY_GFX_CORE_IDLE: the core never runs in this model
  }

  /** Refresh CP_ALWAYS_ON_COUNTER and RBBM_PERFCTR_CP[i] from the selectors (done before any register read). */
  syncCounters(): void {
    this.perf.sync({ gen: this.gen, regsDb: this.regsDb, readReg: (o) => this.readReg(o), setReg: (o, v) => { this.regs[o] = v >>> 0; } }, this.cycles);
    const ao = this.R['CP_ALWAYS_ON_COUNTER']!;
    // The always-on timer runs at 19.2 MHz over the model time (rbbm/perfcounters.ts).
    const t = alwaysOnTicks(this.cycles);
    this.regs[ao] = t >>> 0;
    this.regs[ao + 1] = Math.floor(t / 2 ** 32) >>> 0;
    const sel0 = this.R['CP_PERFCTR_CP_SEL0']!;
    const ctr0 = this.R['RBBM_PERFCTR_CP0']!;
    for (let i = 0; i < 14; i++) {
      const v = this.countables[this.regs[sel0 + i]! & 63] ?? 0;
      this.regs[ctr0 + 2 * i] = v >>> 0;
      this.regs[ctr0 + 2 * i + 1] = Math.floor(v / 2 ** 32) >>> 0;
    }
  }

  // ---- execution ---------------------------------------------------------------------------

  /**
   * Run a ring buffer of `sizeDwords` at `iova` (level 0, privileged), as the kernel submits:
   * it typically calls IB1s with CP_INDIRECT_BUFFER. Returns why execution stopped.
   */
  runRing(iova: number, sizeDwords: number): StopReason {
    this.regs[this.R['CP_RB_BASE']!] = iova >>> 0;
    this.regs[this.R['CP_RB_BASE']! + 1] = Math.floor(iova / 2 ** 32) >>> 0;
    this.regs[this.R['CP_RB_WPTR']!] = sizeDwords;
    return this.run(iova, sizeDwords, 0);
  }

  /** Run a buffer at the given IB level (1 = a userspace submit). */
  run(iova: number, sizeDwords: number, level = 1): StopReason {
    this.stopped = 'done';
    try {
      this.execIb(iova, sizeDwords, level);
      this.busy(false);
    } catch (e) {
      if (!(e instanceof Stop)) throw e;
      this.stopped = e.reason;
      this.busy(true);
    }
    this.syncCounters();
    return this.stopped;
  }

  /** RBBM_STATUS: busy bits stay set when the CP stopped on an error or hang, as a dump shows. */
  private busy(on: boolean): void {
    const o = this.R['RBBM_STATUS']!;
    this.regs[o] = on ? (1 << 23) | (1 << 2) | 1 : 0; // GPU_BUSY_IGN_AHB | CP_BUSY | CP_AHB_BUSY_CX_MASTER
  }

  private setIbRegs(level: number, base: number, rem: number, sds = false): void {
    const b = sds ? this.R['CP_SDS_BASE']! : level === 1 ? this.R['CP_IB1_BASE']! : level === 2 ? this.R['CP_IB2_BASE']! : level >= 3 ? this.R['CP_SDS_BASE']! : -1;
    if (b < 0) return;
    this.regs[b] = base >>> 0;
    this.regs[b + 1] = Math.floor(base / 2 ** 32) >>> 0;
    this.regs[b + 2] = rem;
  }

  /**
   * Execute a buffer (an IB, a chained IB, a bin body, or a draw-state group when `sds`): the
   * walker fetches it (a snapshot: an unmapped one is an iova fault) and steps its packets; the
   * visitor methods below execute them. A Stop thrown anywhere below unwinds the frames.
   */
  execIb(iova: number, sizeDwords: number, level: number, sds = false): void {
    const depth = this.stack.length;
    try {
      this.walker.walk(iova, sizeDwords, level, sds ? 'SDS' : level === 0 ? 'RB' : level === 1 ? 'IB1' : level === 2 ? 'IB2' : 'IB');
    } finally {
      if (this.stack.length > depth) {
        this.stack.length = depth;
        if (level === 1) this.skipIb2Local = false;
      }
    }
  }

  // ---- the walker's visitor ------------------------------------------------------------------

  /** @internal A buffer starts: its frame reports through CP_IBn_* (or CP_SDS_*). */
  enterIb(ib: IbInfo): void {
    this.stack.push({ level: ib.level, sds: ib.kind === 'SDS', base: ib.iova, size: ib.sizeDwords, pos: 0 });
  }

  /** @internal A buffer ended: its REM_SIZE reads 0; the end of an IB1 clears CP_SKIP_IB2_ENABLE_LOCAL. */
  leaveIb(): void {
    const f = this.stack.pop()!;
    if (f.level >= 1) this.setIbRegs(f.level, f.base, 0, f.sds);
    if (f.level === 1) this.skipIb2Local = false;
  }

  /** @internal Before each header: RPTR / IB registers point at the packet; the packet budget. */
  position(offset: number): void {
    const f = this.stack[this.stack.length - 1]!;
    f.pos = offset;
    if (f.level === 0) this.regs[this.rbRptr] = offset;
    else this.setIbRegs(f.level, f.base, f.size - offset, f.sds);
    if (++this.packets > this.maxPackets) {
      this.report('adreno.cp.packet-budget', 'error', `more than ${this.maxPackets} packets executed: runaway stream (IB chain loop?)`);
      throw new Stop('budget');
    }
  }

  /** @internal What the walker finds wrong: fatal here, except a conditional skip past the end. */
  problem(pr: Problem): void {
    if (pr.id === 'adreno.cp.cond-exec-overrun') {
      this.report(pr.id, 'warning', pr.message);
      return;
    }
    if (pr.id === 'adreno.cp.ib-unmapped') {
      this.report(pr.id, 'error', pr.message);
      this.regs[this.R['RBBM_INT_0_STATUS']!] = (this.regs[this.R['RBBM_INT_0_STATUS']!]! | (1 << 24)) >>> 0;
      throw new Stop('iova-fault');
    }
    // bad header, bad parity, truncated packet
    this.setCpInt(0); // CP_OPCODE_ERROR
    this.report(pr.id, 'error', pr.message);
    throw new Stop('opcode-error');
  }

  /** @internal Execute one packet: type 4 writes registers, type 7 goes through the handler table. */
  packet(r: PacketRecord): number {
    const p = r.payload;
    this.tick(1 + r.count);
    if (this.onPacket) this.onPacket({ level: r.level, iova: r.iova, type: r.type, name: r.type === 4 ? 'REG_WRITE' : (opcodeName(r.opcode, this.gen) ?? `0x${r.opcode.toString(16)}`), count: r.count, reg: r.type === 4 ? r.reg : -1, payload: p });
    if (this.threadMask !== 3 && this.concurrentBinning && !(this.threadMask & (this.thread === 'BR' ? 1 : 2)) && !(r.type === 7 && r.opcode === this.threadControlOp)) {
      // A section CP_THREAD_CONTROL gave to the other thread: parsed, not executed here.
      this.otherThreadPackets++;
      return 0;
    }
    if (r.type === 7) return this.handlers[r.opcode]!(this, r);
    if (r.type === 4) {
      if (this.lrzTrackQuirk) this.checkLrzWrite(r.reg, r.count);
      const privileged = r.level === 0;
      for (let k = 0; k < r.count; k++) this.writeReg(r.reg + k, p[k]!, privileged);
    }
    return 0;
  }

  private checkLrzWrite(reg: number, count: number): void {
    for (const n of ['GRAS_LRZ_CNTL', 'GRAS_LRZ_DEPTH_VIEW']) {
      const o = this.regsDb.reg(n);
      if (o >= reg && o < reg + count) this.report('adreno.lrz.track-quirk', 'error', `${n} written with a type-4 packet on a${this.gpuId} (a6xx gen3): this generation needs CP_REG_WRITE TRACK_LRZ, which flushes LRZ when the direction or the depth view changes (freedreno lrz_track_quirk)`);
    }
  }

  /** A CP memory read (uncached: it does not see what the CCU / UCHE still hold). */
  cpRead32(addr: number): number {
    if (!this.caches.any) return this.mem.read32(addr);
    const b = this.caches.read(addr, 4, 'the CP (uncached)');
    return (b[0]! | (b[1]! << 8) | (b[2]! << 16) | (b[3]! << 24)) >>> 0;
  }

  /** A CP memory write (uncached). */
  cpWrite32(addr: number, v: number): void {
    this.mem.write32(addr, v);
    if (this.caches.any) this.caches.uncachedWrite(addr, Uint8Array.of(v & 0xff, (v >>> 8) & 0xff, (v >>> 16) & 0xff, (v >>> 24) & 0xff));
  }

  cpRead64(addr: number): number {
    if (!this.caches.any) return this.mem.read64(addr);
    return this.cpRead32(addr + 4) * 2 ** 32 + this.cpRead32(addr);
  }

  /** GMEM rendering: the binning or GMEM pass (CP_SET_MARKER RM6_BINNING / RM6_GMEM) until RM6_BYPASS. */
  get gmemRendering(): boolean {
    return this.mode !== 'SYSMEM';
  }

  /** A register's value in a recorded draw, by name. */
  static drawReg(w: WorkRecord, regs: RegisterSpace, name: string): number | undefined {
    return w.state.get(regs.reg(name));
  }

  /** The kernel's one-line fault message for the current state (see crash.ts for the parser). */
  faultLine(fence: number, ring = 0): string {
    const h = (v: number, w: number): string => v.toString(16).padStart(w, '0');
    const r = this.regs;
    const ib1 = r[this.R['CP_IB1_BASE']! + 1]! * 2 ** 32 + r[this.R['CP_IB1_BASE']!]!;
    const ib2 = r[this.R['CP_IB2_BASE']! + 1]! * 2 ** 32 + r[this.R['CP_IB2_BASE']!]!;
    return `gpu fault ring ${ring} fence ${fence.toString(16)} status ${h(r[this.R['RBBM_STATUS']!]!, 8)} rb ${h(r[this.R['CP_RB_RPTR']!]!, 4)}/${h(r[this.R['CP_RB_WPTR']!]!, 4)} ib1 ${h(ib1, 16)}/${h(r[this.R['CP_IB1_REM_SIZE']!]!, 4)} ib2 ${h(ib2, 16)}/${h(r[this.R['CP_IB2_REM_SIZE']!]!, 4)}`;
  }
}

export { enumValue };
