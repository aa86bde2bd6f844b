/**
 * A simulated a6xx (and a7xx-compatible) command processor executing PM4 streams over GPU
 * memory: IB levels, draw-state groups, predication, conditional execution, memory and register
 * packets, events, context banks, protected registers, faults and CP performance counters.
 *
 * Execution is functional: every packet completes before the next (so the WFI / WAIT_MEM_WRITES
 * family only counts), draws and dispatches are recorded with the register state they would see.
 * Rules the seed (004, Adreno) documents as errors or hangs become diagnostics with stable ids;
 * the fatal ones stop the CP with the status registers a crash dump would show.
 */
import { Diagnostics } from '../../core/diagnostics.js';
import type { Memory } from '../../core/memory.js';
import { enumName, enumValue, gpuRegs, type Gen, type RegisterSpace } from '../regs/db.js';
import { decodeHeader, opcodeName, opcodes } from './pm4.js';

const SEED = '004_0583f9f0ffcacefd.txt';

/** The a6xx context register range (banked per pipeline cluster). */
export const CTX_LO = 0x8000;
export const CTX_HI = 0xc000;
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

export type DrawMode = 'GMEM' | 'SYSMEM' | 'BINNING';
const MODE_INDEX: Record<DrawMode, number> = { BINNING: 0, GMEM: 1, SYSMEM: 2 };

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

/** Why execution stopped. */
export type StopReason = 'done' | 'opcode-error' | 'protect-fault' | 'hang' | 'iova-fault' | 'budget';

class Stop extends Error {
  readonly reason: StopReason;
  constructor(reason: StopReason) {
    super(reason);
    this.reason = reason;
  }
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

export class CommandProcessor {
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
  /** Offsets of non-context registers ever written (for snapshots). */
  private readonly written = new Set<number>();
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
  readonly events: EventRecord[] = [];
  readonly loadStates: LoadStateRecord[] = [];
  interrupts = 0;
  /** GPU cycles (CP_ALWAYS_ON_COUNTER); one per packet dword plus fixed costs. */
  cycles = 0;
  /** Raw countable totals by a6xx_cp_perfcounter_select value. */
  readonly countables = new Float64Array(64);
  stopped: StopReason = 'done';
  packets = 0;
  private readonly maxPackets: number;
  private readonly maxPolls: number;
  private readonly snapshots: boolean;
  private readonly onPacket: ((p: ExecutedPacket) => void) | undefined;
  private readonly stack: Frame[] = [];
  private readonly R: Record<string, number>;
  private readonly threadControlOp: number;

  constructor(mem: Memory, opts: CpOptions = {}) {
    this.mem = mem;
    this.gen = opts.gen ?? 'a6xx';
    if (this.gen !== 'a6xx' && this.gen !== 'a7xx') throw new Error(`the executing CP models a6xx/a7xx, not ${this.gen}`);
    this.regsDb = gpuRegs(this.gen);
    this.diag = opts.diag ?? new Diagnostics();
    this.maxPackets = opts.maxPackets ?? 10_000_000;
    this.maxPolls = opts.maxPolls ?? 1000;
    this.snapshots = opts.snapshots ?? true;
    this.onPacket = opts.onPacket;
    this.thread = opts.thread ?? 'BR';
    this.threadControlOp = opcodes(this.gen).get('CP_THREAD_CONTROL') ?? -1;
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

  private report(id: string, severity: 'error' | 'warning' | 'info', message: string): void {
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

  private setCpInt(bit: number): void {
    const o = this.R['CP_INTERRUPT_STATUS']!;
    this.regs[o] = (this.regs[o]! | (1 << bit)) >>> 0;
    const i = this.R['RBBM_INT_0_STATUS']!;
    this.regs[i] = (this.regs[i]! | (1 << 9)) >>> 0; // CP_HW_ERROR
  }

  /** CP_EVENT_END: wait for the other context's done bit, copy dirty registers, switch. */
  private switchContext(): void {
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

  private count(countable: number, n = 1): void {
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
    const ao = this.R['CP_ALWAYS_ON_COUNTER']!;
    this.regs[ao] = this.cycles >>> 0;
    this.regs[ao + 1] = Math.floor(this.cycles / 2 ** 32) >>> 0;
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

  private fetch(iova: number, sizeDwords: number): Uint32Array {
    if (sizeDwords === 0) return new Uint32Array(0);
    const seg = this.mem.find(iova, sizeDwords * 4);
    if (!seg) {
      this.report('adreno.cp.ib-unmapped', 'error', `IB fetch of ${sizeDwords} dwords at unmapped iova 0x${iova.toString(16)}`);
      this.regs[this.R['RBBM_INT_0_STATUS']!] = (this.regs[this.R['RBBM_INT_0_STATUS']!]! | (1 << 24)) >>> 0;
      throw new Stop('iova-fault');
    }
    const off = iova - seg.base;
    return new Uint32Array(seg.u8.slice(off, off + sizeDwords * 4).buffer);
  }

  private setIbRegs(level: number, base: number, rem: number, sds = false): void {
    const b = sds ? this.R['CP_SDS_BASE']! : level === 1 ? this.R['CP_IB1_BASE']! : level === 2 ? this.R['CP_IB2_BASE']! : level >= 3 ? this.R['CP_SDS_BASE']! : -1;
    if (b < 0) return;
    this.regs[b] = base >>> 0;
    this.regs[b + 1] = Math.floor(base / 2 ** 32) >>> 0;
    this.regs[b + 2] = rem;
  }

  private execIb(iova: number, sizeDwords: number, level: number, sds = false): void {
    const dw = this.fetch(iova, sizeDwords);
    const frame: Frame = { level, sds, base: iova, size: sizeDwords, pos: 0 };
    this.stack.push(frame);
    const privileged = level === 0;
    const n = dw.length;
    let i = 0;
    try {
      while (i < n) {
        frame.pos = i;
        if (level === 0) this.regs[this.R['CP_RB_RPTR']!] = i;
        else this.setIbRegs(level, iova, n - i, sds);
        if (++this.packets > this.maxPackets) {
          this.report('adreno.cp.packet-budget', 'error', `more than ${this.maxPackets} packets executed: runaway stream (IB chain loop?)`);
          throw new Stop('budget');
        }
        const hdr = dw[i]!;
        const h = decodeHeader(hdr, this.gen);
        if (h.type !== 4 && h.type !== 7 && h.type !== 2) {
          this.setCpInt(0); // CP_OPCODE_ERROR
          this.report('adreno.cp.bad-header', 'error', `invalid packet header 0x${hdr.toString(16).padStart(8, '0')}`);
          throw new Stop('opcode-error');
        }
        if (!h.parityOk) {
          this.setCpInt(0);
          this.report('adreno.cp.bad-parity', 'error', `type-${h.type} header 0x${hdr.toString(16).padStart(8, '0')} fails its parity check`);
          throw new Stop('opcode-error');
        }
        if (i + 1 + h.count > n) {
          this.setCpInt(0);
          this.report('adreno.cp.truncated-packet', 'error', `packet needs ${h.count} payload dwords, the IB has ${n - i - 1} left`);
          throw new Stop('opcode-error');
        }
        const p = dw.subarray(i + 1, i + 1 + h.count);
        this.tick(1 + h.count);
        if (this.onPacket) this.onPacket({ level, iova: iova + i * 4, type: h.type, name: h.type === 4 ? 'REG_WRITE' : (opcodeName(h.opcode, this.gen) ?? `0x${h.opcode.toString(16)}`), count: h.count, reg: h.type === 4 ? h.reg : -1, payload: p });
        let skip = 0;
        if (this.threadMask !== 3 && this.concurrentBinning && !(this.threadMask & (this.thread === 'BR' ? 1 : 2)) && !(h.type === 7 && h.opcode === this.threadControlOp)) {
          // A section CP_THREAD_CONTROL gave to the other thread: parsed, not executed here.
          this.otherThreadPackets++;
        } else if (h.type === 4) {
          for (let k = 0; k < h.count; k++) this.writeReg(h.reg + k, p[k]!, privileged);
        } else if (h.type === 7) {
          skip = this.exec7(h.opcode, p, level, iova + i * 4);
        }
        i += 1 + h.count;
        if (skip < 0) break;
        if (skip) {
          if (i + skip > n) {
            this.report('adreno.cp.cond-exec-overrun', 'warning', `conditional skip of ${skip} dwords runs ${i + skip - n} past the end of the IB`);
            skip = n - i;
          }
          i += skip;
        }
      }
      if (level >= 1) this.setIbRegs(level, iova, 0, sds);
    } finally {
      this.stack.pop();
      if (level === 1) this.skipIb2Local = false;
    }
  }

  /** Execute a type-7 packet; returns dwords to skip after it (conditional execution), -1 to end the IB (chain). */
  private exec7(op: number, p: Uint32Array, level: number, at: number): number {
    const name = opcodeName(op, this.gen);
    const a64 = (k: number): number => (p[k + 1] ?? 0) * 2 ** 32 + (p[k] ?? 0);
    const need = (k: number): void => {
      if (p.length < k) {
        this.setCpInt(0);
        this.report('adreno.cp.short-payload', 'error', `${name} needs ${k} payload dwords, has ${p.length}`);
        throw new Stop('opcode-error');
      }
    };
    switch (name) {
      case 'CP_NOP':
        return 0;
      case 'CP_INDIRECT_BUFFER':
      case 'CP_INDIRECT_BUFFER_CHAIN': {
        need(3);
        const addr = a64(0);
        const size = p[2]! & 0xfffff;
        if (name === 'CP_INDIRECT_BUFFER' && level >= 1 && (this.skipIb2Global || this.skipIb2Local)) return 0;
        if (name === 'CP_INDIRECT_BUFFER' && level >= 2) {
          this.setCpInt(0);
          this.report('adreno.cp.ib-too-deep', 'error', `CP_INDIRECT_BUFFER from IB level ${level}: the CP has no IB3`);
          throw new Stop('opcode-error');
        }
        if (name === 'CP_INDIRECT_BUFFER_CHAIN') {
          // The chained buffer replaces the rest of this one.
          this.execIb(addr, size, level);
          return -1; // the rest of this buffer is abandoned
        }
        this.execIb(addr, size, level + 1);
        return 0;
      }
      case 'CP_SET_DRAW_STATE':
        this.setDrawState(p, level);
        return 0;
      case 'CP_SET_MODE':
        need(1);
        if (p[0]! & 1) this.runDrawStates(level);
        return 0;
      case 'CP_SET_MARKER': {
        need(1);
        const m = p[0]! & 0xf;
        if (p[0]! & 0x100) return 0; // IFPC / kernel-only modes
        this.marker = m;
        const prev = this.mode;
        if (m === 1) this.mode = 'SYSMEM';
        else if (m === 2) this.mode = 'BINNING';
        else if (m === 4) this.mode = 'GMEM';
        if (prev !== this.mode) this.count(9); // PERF_CP_MODE_SWITCH
        return 0;
      }
      case 'CP_SKIP_IB2_ENABLE_GLOBAL':
        need(1);
        this.skipIb2Global = (p[0]! & 1) === 1;
        return 0;
      case 'CP_SKIP_IB2_ENABLE_LOCAL':
        need(1);
        this.skipIb2Local = (p[0]! & 1) === 1;
        return 0;
      case 'CP_COND_EXEC': {
        need(6);
        const v0 = this.mem.read32(a64(0));
        const v1 = this.mem.read32(a64(2)) | 0;
        const ok = v0 !== 0 && v1 < (p[4]! | 0);
        return ok ? 0 : p[5]!;
      }
      case 'CP_REG_TEST': {
        need(1);
        const d0 = p[0]!;
        if (d0 >>> 31) {
          // PRED_UPDATE: PRED_REG = (PRED_REG & ~PRED_MASK) | (PRED_VAL & PRED_MASK)
          need(3);
          this.predReg = ((this.predReg & ~p[1]!) | (p[2]! & p[1]!)) >>> 0;
          return 0;
        }
        const bit = (d0 >>> 20) & 31;
        const predBit = (d0 >>> 26) & 31;
        if (!((d0 >>> 25) & 1)) this.wfmCount++;
        let v: number;
        if (this.gen === 'a7xx' && (d0 >>> 18) & 1) {
          // SOURCE_SCRATCH_MEM: a dword of the scratch memory CP_MEM_TO_SCRATCH_MEM filled.
          const o = d0 & 0x3ffff;
          v = o < this.scratchMem.length ? this.scratchMem[o]! : 0;
        } else {
          this.syncCounters();
          v = this.readReg(d0 & 0x3ffff);
        }
        const on = (v >>> bit) & 1;
        this.predReg = on ? (this.predReg | (1 << predBit)) >>> 0 : (this.predReg & ~(1 << predBit)) >>> 0;
        return 0;
      }
      case 'CP_COND_REG_EXEC': {
        need(2);
        const d0 = p[0]!;
        const mode = d0 >>> 28;
        const onchip = this.gen === 'a7xx' && ((d0 >>> 24) & 1) === 1;
        const rd = (r: number, chip: boolean): number => (chip ? (this.onchip.get(r) ?? 0) : this.readReg(r));
        if (mode === 1) return (this.predReg >>> ((d0 >>> 18) & 31)) & 1 ? 0 : p[1]! & 0xffffff; // PRED_TEST
        if (mode === 2) {
          // REG_COMPARE: REG0 == REG1 (each may come from on-chip memory on a7xx)
          need(3);
          this.syncCounters();
          const b = rd(p[1]! & 0x3ffff, this.gen === 'a7xx' && ((p[1]! >>> 24) & 1) === 1);
          return rd(d0 & 0x3ffff, onchip) === b ? 0 : p[2]! & 0xffffff;
        }
        if (mode === 3) {
          // RENDER_MODE: BINNING / GMEM / SYSMEM bits select the modes that pass
          const mask = (d0 >>> 25) & 7;
          const bit = this.mode === 'BINNING' ? 1 : this.mode === 'GMEM' ? 2 : 4;
          return mask & bit ? 0 : p[1]! & 0xffffff;
        }
        if (this.gen === 'a7xx' && mode === 4) {
          // REG_COMPARE_IMM: REG0 == IMM
          need(3);
          this.syncCounters();
          return rd(d0 & 0x3ffff, onchip) === p[1]! ? 0 : p[2]! & 0xffffff;
        }
        if (this.gen === 'a7xx' && mode === 5) {
          // THREAD_MODE: BV (bit 25), BR (bit 26), LPAC (bit 27) name the threads that run the block.
          const mine = this.thread === 'BV' ? 1 << 25 : 1 << 26;
          return d0 & mine ? 0 : p[1]! & 0xffffff;
        }
        this.report('adreno.cp.unsupported', 'warning', `CP_COND_REG_EXEC mode ${mode} is not defined for ${this.gen}; executing the block`);
        return 0;
      }
      case 'CP_DRAW_PRED_ENABLE_GLOBAL':
        need(1);
        this.predGlobal = (p[0]! & 1) === 1;
        this.predLocal = true;
        return 0;
      case 'CP_DRAW_PRED_ENABLE_LOCAL':
        need(1);
        this.predLocal = (p[0]! & 1) === 1;
        return 0;
      case 'CP_DRAW_PRED_SET': {
        need(1);
        const src = (p[0]! >>> 4) & 0xf;
        const eq0 = (p[0]! >>> 8) & 1;
        if (src === 5) {
          need(3);
          const v = this.mem.read64(a64(1));
          this.predPass = eq0 ? v === 0 : v !== 0;
        } else this.report('adreno.cp.unsupported', 'warning', `CP_DRAW_PRED_SET source ${src} is not modelled`);
        return 0;
      }
      case 'CP_MEM_WRITE': {
        need(2);
        const addr = a64(0);
        for (let k = 2; k < p.length; k++) this.mem.write32(addr + (k - 2) * 4, p[k]!);
        return 0;
      }
      case 'CP_MEM_TO_MEM': {
        need(5);
        const d0 = p[0]!;
        const dbl = (d0 >>> 29) & 1;
        const dst = a64(1);
        let sum = 0;
        const nsrc = (p.length - 3) >> 1;
        for (let s = 0; s < nsrc; s++) {
          const sa = a64(3 + 2 * s);
          let v = dbl ? this.mem.read64(sa) : this.mem.read32(sa);
          if (s < 3 && (d0 >>> s) & 1) v = -v;
          sum += v;
        }
        if (dbl) {
          // Wrap to 64 bits: exact for |values| < 2^53, which memory addresses and counters are.
          const lo = ((sum % 2 ** 32) + 2 ** 32) % 2 ** 32;
          const hi = Math.floor(sum / 2 ** 32);
          this.mem.write32(dst, lo >>> 0);
          this.mem.write32(dst + 4, hi >>> 0);
        } else this.mem.write32(dst, sum >>> 0);
        return 0;
      }
      case 'CP_MEMCPY': {
        need(5);
        const n = p[0]!;
        const src = a64(1);
        const dst = a64(3);
        for (let k = 0; k < n; k++) this.mem.write32(dst + 4 * k, this.mem.read32(src + 4 * k));
        return 0;
      }
      case 'CP_COND_WRITE5':
      case 'CP_WAIT_REG_MEM': {
        need(name === 'CP_COND_WRITE5' ? 8 : 6);
        const fn = p[0]! & 7;
        const signed = (p[0]! >>> 3) & 1;
        const poll = (p[0]! >>> 4) & 3;
        const ref = p[3]!;
        const mask = p[4]!;
        const read = (): number => {
          if (poll === 0) {
            this.syncCounters();
            return this.readReg(p[1]! & 0x3ffff);
          }
          return this.mem.read32(a64(1));
        };
        const test = (): boolean => {
          let v = read() & mask;
          let r = ref;
          if (signed) {
            v |= 0;
            r |= 0;
          } else {
            v >>>= 0;
            r >>>= 0;
          }
          switch (fn) {
            case 0: return true;
            case 1: return v < r;
            case 2: return v <= r;
            case 3: return v === r;
            case 4: return v !== r;
            case 5: return v >= r;
            case 6: return v > r;
            default: return false;
          }
        };
        if (name === 'CP_COND_WRITE5') {
          if (test() && (p[0]! >>> 8) & 1) this.mem.write32(a64(5), p[7]!);
          return 0;
        }
        for (let k = 0; k < this.maxPolls; k++) {
          if (test()) return 0;
          this.cycles += p[5]! || 1;
          this.count(0, p[5]! || 1);
          this.count(15, p[5]! || 1); // PERF_CP_SQE_IDLE: polling, not working
        }
        this.report('adreno.cp.wait-hang', 'error', `CP_WAIT_REG_MEM condition never became true (${this.maxPolls} polls): the CP hangs here`);
        throw new Stop('hang');
      }
      case 'CP_REG_TO_MEM': {
        need(3);
        const reg = p[0]! & 0x3ffff;
        const cnt = Math.max((p[0]! >>> 18) & 0xfff, 1);
        const b64 = (p[0]! >>> 30) & 1;
        const acc = (p[0]! >>> 31) & 1;
        const dst = a64(1);
        this.wfmCount++;
        this.syncCounters();
        for (let k = 0; k < cnt; k++) {
          let v = this.readReg(reg + k);
          if (acc) v = (v + this.mem.read32(dst + 4 * k)) >>> 0;
          this.mem.write32(dst + 4 * k, v);
        }
        void b64;
        return 0;
      }
      case 'CP_MEM_TO_REG': {
        need(3);
        const reg = p[0]! & 0x3ffff;
        const cnt = Math.max((p[0]! >>> 19) & 0x7ff, 1);
        const shl = (p[0]! >>> 30) & 1;
        const src = a64(1);
        for (let k = 0; k < cnt; k++) {
          const v = this.mem.read32(src + 4 * k);
          this.writeReg(reg + k, shl ? v << 2 : v, level === 0);
        }
        return 0;
      }
      case 'CP_REG_RMW': {
        need(3);
        const d0 = p[0]!;
        const reg = d0 & 0x3ffff;
        const rot = (d0 >>> 24) & 31;
        this.syncCounters();
        const s0 = (d0 >>> 31) & 1 ? this.readReg(p[1]! & 0x3ffff) : p[1]!;
        const s1 = (d0 >>> 30) & 1 ? this.readReg(p[2]! & 0x3ffff) : p[2]!;
        let v = (this.readReg(reg) & s0) >>> 0;
        v = rot ? ((v << rot) | (v >>> (32 - rot))) >>> 0 : v;
        v = (d0 >>> 29) & 1 ? (v + s1) >>> 0 : (v | s1) >>> 0;
        this.writeReg(reg, v, level === 0);
        return 0;
      }
      case 'CP_REG_TO_SCRATCH': {
        need(1);
        const reg = p[0]! & 0x3ffff;
        const s = (p[0]! >>> 20) & 7;
        const cnt = ((p[0]! >>> 24) & 7) + 1;
        this.wfmCount++;
        this.syncCounters();
        for (let k = 0; k < cnt; k++) this.sqeScratch[(s + k) & 7] = this.readReg(reg + k);
        return 0;
      }
      case 'CP_SCRATCH_TO_REG': {
        need(1);
        const reg = p[0]! & 0x3ffff;
        const s = (p[0]! >>> 20) & 7;
        const cnt = ((p[0]! >>> 24) & 7) + 1;
        for (let k = 0; k < cnt; k++) this.writeReg(reg + k, this.sqeScratch[(s + k) & 7]!, level === 0);
        return 0;
      }
      case 'CP_CONTEXT_REG_BUNCH':
        for (let k = 0; k + 1 < p.length; k += 2) this.writeReg(p[k]! & 0x3ffff, p[k + 1]!, level === 0);
        return 0;
      case 'CP_REG_WRITE':
        need(3);
        this.writeReg(p[1]! & 0x3ffff, p[2]!, level === 0);
        return 0;
      case 'CP_WAIT_FOR_IDLE':
        this.wfiCount++;
        return 0;
      case 'CP_WAIT_FOR_ME':
      case 'CP_WAIT_MEM_WRITES':
        this.wfmCount++;
        return 0;
      case 'CP_EVENT_WRITE':
      case 'CP_EVENT_WRITE7':
        need(1);
        if (name === 'CP_EVENT_WRITE7') this.event7(p, at);
        else this.event(p, at);
        return 0;
      case 'CP_DRAW_INDX_OFFSET':
      case 'CP_DRAW_INDIRECT':
      case 'CP_DRAW_INDX_INDIRECT':
      case 'CP_DRAW_INDIRECT_MULTI':
      case 'CP_DRAW_AUTO':
        this.record('draw', name, p, at, level);
        return 0;
      case 'CP_EXEC_CS':
      case 'CP_EXEC_CS_INDIRECT':
        this.record('dispatch', name, p, at, level);
        return 0;
      case 'CP_BLIT':
        this.record('blit', name, p, at, level);
        return 0;
      case 'CP_LOAD_STATE6':
      case 'CP_LOAD_STATE6_GEOM':
      case 'CP_LOAD_STATE6_FRAG': {
        need(1);
        const d0 = p[0]!;
        const src = (d0 >>> 16) & 3;
        const sb = (d0 >>> 18) & 0xf;
        this.loadStates.push({
          packet: name,
          dstOff: d0 & 0x3fff,
          stateType: (d0 >>> 14) & 3,
          stateSrc: src,
          stateBlock: enumName('a6xx_state_block', sb, this.gen) ?? String(sb),
          numUnit: (d0 >>> 22) & 0x3ff,
          ...(src !== 0 && p.length >= 3 ? { addr: a64(1) } : {}),
        });
        return 0;
      }
      case 'CP_WAIT_MEM_GTE': {
        need(4);
        for (let k = 0; k < this.maxPolls; k++) {
          if ((this.mem.read32(a64(1)) | 0) >= (p[3]! | 0)) return 0;
          this.cycles += 16;
          this.count(0, 16);
          this.count(15, 16);
        }
        this.report('adreno.cp.wait-hang', 'error', `CP_WAIT_MEM_GTE: the value at 0x${a64(1).toString(16)} never reached ${p[3]! | 0} (${this.maxPolls} polls): the CP hangs here`);
        throw new Stop('hang');
      }
      case 'CP_WAIT_TWO_REGS': {
        need(3);
        this.syncCounters();
        if (this.readReg(p[0]! & 0x3ffff) !== 0 || this.readReg(p[1]! & 0x3ffff) !== p[2]) return 0;
        this.report('adreno.cp.wait-hang', 'error', `CP_WAIT_TWO_REGS: ${this.regsDb.nameOf(p[0]! & 0x3ffff)} stays 0 and ${this.regsDb.nameOf(p[1]! & 0x3ffff)} stays ${p[2]}: the CP hangs here`);
        throw new Stop('hang');
      }
      case 'CP_SCRATCH_WRITE': {
        need(1);
        const s0 = (p[0]! >>> 20) & 7;
        for (let k = 1; k < p.length; k++) this.sqeScratch[(s0 + k - 1) & 7] = p[k]!;
        return 0;
      }
      case 'CP_INTERRUPT': {
        this.interrupts++;
        const o = this.R['RBBM_INT_0_STATUS']!;
        this.regs[o] = (this.regs[o]! | (1 << 8)) >>> 0; // CP_SW
        return 0;
      }
      case 'CP_THREAD_CONTROL': {
        need(1);
        const t = p[0]! & 3;
        this.threadMask = t || 3;
        this.concurrentBinning = ((p[0]! >>> 27) & 1) === 0;
        if (p[0]! >>> 31) this.count(24, 1); // SYNC_THREADS: both threads meet here (serialised in this model)
        return 0;
      }
      case 'CP_BV_BR_COUNT_OPS': {
        need(1);
        const op = p[0]! & 0xf;
        if (op === 1) {
          this.bvCount = 0;
          this.brCount = 0;
        } else if (op === 2) {
          need(2);
          this.brOffset = p[1]! & 0xffff;
        } else if (op === 3 || op === 4) {
          // The wait is on the other thread; one thread at a time runs here, so the other is
          // taken to have run ahead (with concurrent binning disabled there is no other thread).
          const ok = op === 3 ? this.bvCount > this.brCount : this.brCount + this.brOffset > this.bvCount;
          if (!ok) this.count(24, 1); // SYNC_STALL
        }
        return 0;
      }
      case 'CP_MODIFY_TIMESTAMP': {
        need(1);
        const op = p[0]! >>> 28;
        const add = p[0]! & 0xff;
        if (op === 0) this.globalTs = this.localTs = 0;
        else if (op === 1) this.globalTs = (this.globalTs + add) >>> 0;
        else if (op === 2) this.localTs = (this.localTs + add) >>> 0;
        return 0;
      }
      case 'CP_RESET_CONTEXT_STATE': {
        need(1);
        if (p[0]! & 1) this.onchip.clear();
        if (p[0]! & 4) this.globalTs = this.localTs = 0;
        return 0;
      }
      case 'CP_MEM_TO_SCRATCH_MEM': {
        need(4);
        const cnt = p[0]! & 0x3f;
        const off = p[1]! & 0x3f;
        const src = a64(2);
        for (let k = 0; k < cnt; k++) if (off + k < this.scratchMem.length) this.scratchMem[off + k] = this.mem.read32(src + 4 * k);
        return 0;
      }
      case 'CP_WAIT_TIMESTAMP': {
        need(4);
        const src = p[0]! & 3;
        const onchipDst = (p[0]! >>> 4) & 1;
        const read = (): number => (onchipDst ? (this.onchip.get(p[1]!) ?? 0) : src === 1 ? this.mem.read64(a64(1)) : this.mem.read32(a64(1)));
        const want = (): number => (src === 2 ? this.globalTs + this.localTs : src === 1 ? (p[4] ?? 0) * 2 ** 32 + p[3]! : p[3]! | 0);
        for (let k = 0; k < this.maxPolls; k++) {
          const v = read();
          if ((src === 0 ? v | 0 : v) >= want()) return 0;
          this.cycles += 16;
          this.count(0, 16);
          this.count(15, 16);
        }
        this.report('adreno.cp.wait-hang', 'error', `CP_WAIT_TIMESTAMP: the ${onchipDst ? 'on-chip' : 'memory'} value never reached ${want()} (${this.maxPolls} polls): the CP hangs here`);
        throw new Stop('hang');
      }
      case 'CP_CONTEXT_REG_BUNCH2':
        // As CP_CONTEXT_REG_BUNCH after two leading dwords.
        for (let k = 2; k + 1 < p.length; k += 2) this.writeReg(p[k]! & 0x3ffff, p[k + 1]!, level === 0);
        return 0;
      case 'CP_FIXED_STRIDE_DRAW_TABLE': {
        // COUNT command buffers of STRIDE dwords each, one draw per buffer. No visibility
        // stream is modelled, so every buffer runs (as with CP_SET_VISIBILITY_OVERRIDE).
        need(4);
        const base = a64(0);
        const stride = p[2]! >>> 20;
        const count = p[3]!;
        for (let k = 0; k < count; k++) this.execIb(base + 4 * stride * k, stride, level + 1);
        return 0;
      }
      case 'CP_START_BIN': {
        // For each bin: the bin's prefix (as an IB2), then the BODY_DWORDS after this packet,
        // up to CP_END_BIN; afterwards execution continues past the body.
        need(5);
        const bins = p[0]!;
        const prefix = a64(1);
        const prefixDw = p[3]!;
        const body = p[4]!;
        const after = at + 4 * (1 + p.length);
        for (let b = 0; b < bins; b++) {
          this.binIndex = b;
          if (prefixDw) this.execIb(prefix + 4 * prefixDw * b, prefixDw, level + 1);
          if (body) this.execIb(after, body, level);
        }
        this.binIndex = -1;
        return body;
      }
      case 'CP_END_BIN':
        return 0;
      case 'CP_CCHE_INVALIDATE':
        this.count(12);
        return 0;
      case 'CP_SET_VISIBILITY_OVERRIDE':
      case 'CP_SET_SUBDRAW_SIZE':
      case 'CP_SET_BIN_DATA5':
      case 'CP_SET_BIN_DATA5_OFFSET':
      case 'CP_SET_PSEUDO_REG':
        // Binning state: kept and handed to draws (the rendering issue interprets it).
        this.cpState.set(name === 'CP_SET_PSEUDO_REG' ? `${name}:${p[0] ?? 0}` : name, Array.from(p));
        return 0;
      case undefined:
        this.setCpInt(0);
        this.report('adreno.cp.unknown-opcode', 'error', `type-7 opcode 0x${op.toString(16)} is not a ${this.gen} packet`);
        throw new Stop('opcode-error');
      default:
        // Known to the database, no semantics here: recorded as executed, no effect.
        this.report('adreno.cp.unmodelled-packet', 'info', `${name} has no execution model; treated as a no-op`);
        return 0;
    }
  }

  private setDrawState(p: Uint32Array, level: number): void {
    for (let g = 0; g + 2 < p.length; g += 3) {
      const d0 = p[g]!;
      const count = d0 & 0xffff;
      const dirty = (d0 >>> 16) & 1;
      const disable = (d0 >>> 17) & 1;
      const disableAll = (d0 >>> 18) & 1;
      const loadImmed = (d0 >>> 19) & 1;
      const modes = [(d0 >>> 20) & 1, (d0 >>> 21) & 1, (d0 >>> 22) & 1]; // BINNING, GMEM, SYSMEM
      const id = (d0 >>> 24) & 0x1f;
      const addr = (p[g + 2]! * 2 ** 32) + p[g + 1]!;
      if (disableAll) {
        for (const m of this.drawState) for (const s of m) Object.assign(s, { addr: 0, count: 0, dirty: false });
        continue;
      }
      if (loadImmed) {
        if (count) this.execIb(addr, count, level + 1, true);
        continue;
      }
      for (let m = 0; m < 3; m++) {
        if (!modes[m]) continue;
        const s = this.drawState[m]![id]!;
        if (disable) Object.assign(s, { addr: 0, count: 0, dirty: false });
        else {
          if (s.addr !== addr || s.count !== count || dirty) s.dirty = true;
          s.addr = addr;
          s.count = count;
        }
      }
    }
  }

  /** Execute the dirty draw-state groups of the current mode (at draws and CP_SET_MODE). */
  private runDrawStates(level: number): void {
    const slots = this.drawState[MODE_INDEX[this.mode]]!;
    for (const s of slots) {
      if (!s.dirty || s.count === 0) continue;
      s.dirty = false;
      this.execIb(s.addr, s.count, level + 1, true);
    }
  }

  private event(p: Uint32Array, at: number): void {
    const d0 = p[0]!;
    const ev = d0 & 0xff;
    const name = enumName('vgt_event_type', ev, this.gen) ?? `EVENT_0x${ev.toString(16)}`;
    const ts = (d0 >>> 30) & 1;
    const irq = (d0 >>> 31) & 1;
    const addr = p.length >= 3 ? p[2]! * 2 ** 32 + p[1]! : undefined;
    const value = ts ? this.cycles : (p[3] ?? 0);
    if (addr !== undefined && (p.length >= 4 || ts)) {
      if (ts) this.mem.write64(addr, value);
      else this.mem.write32(addr, value);
    }
    if (name === 'CACHE_FLUSH_TS' || name === 'CACHE_FLUSH' || name === 'CACHE_INVALIDATE' || name.startsWith('PC_CCU_')) this.count(12); // PERF_CP_CACHE_FLUSH
    if (name === 'CONTEXT_DONE') {
      this.ctxDone[this.ctx] = true;
      this.count(11); // PERF_CP_CONTEXT_DONE
    }
    if (name === 'ZPASS_DONE') this.count(10);
    if (irq) {
      this.interrupts++;
      const o = this.R['RBBM_INT_0_STATUS']!;
      const bit = name === 'CACHE_FLUSH_TS' ? 20 : name === 'RB_DONE_TS' ? 17 : 8;
      this.regs[o] = (this.regs[o]! | (1 << bit)) >>> 0;
    }
    this.events.push({ name, value, iova: at, irq: !!irq, ...(addr !== undefined ? { addr } : {}) });
  }

  /** a7xx CP_EVENT_WRITE7: WRITE_SRC selects user 32/64-bit data, the timestamp or register contents. */
  private event7(p: Uint32Array, at: number): void {
    const d0 = p[0]!;
    const src = (d0 >>> 20) & 7;
    const onchip = (d0 >>> 24) & 1;
    const enabled = (d0 >>> 27) & 1;
    if ((d0 >>> 16) & 1) this.bvCount = (this.bvCount + 1) & 0xffff; // INC_BV_COUNT
    if ((d0 >>> 17) & 1) this.brCount = (this.brCount + 1) & 0xffff; // INC_BR_COUNT
    if (enabled && p.length >= 2) {
      const vals: number[] = [];
      if (src === 0) vals.push(p[3] ?? 0);
      else if (src === 1) vals.push(p[3] ?? 0, p[4] ?? 0);
      else if (src === 2 || src === 3) {
        const t = src === 2 ? this.globalTs + this.localTs : this.cycles; // TIMESTAMP_SUM / ALWAYSON
        vals.push(t >>> 0, Math.floor(t / 2 ** 32) >>> 0);
      } else if (src === 4) {
        this.syncCounters();
        const n = p[4] ?? 0;
        for (let k = 0; k < n; k++) vals.push(this.readReg(((p[3] ?? 0) + k) & 0x3ffff));
      }
      if (onchip) vals.forEach((v, k) => this.onchip.set(p[1]! + k, v));
      else if (p.length >= 3) {
        const addr = p[2]! * 2 ** 32 + p[1]!;
        vals.forEach((v, k) => this.mem.write32(addr + 4 * k, v));
      }
    }
    // Event side effects (flush counting, CONTEXT_DONE) are the same as on a6xx; no data write there.
    this.event(Uint32Array.of(d0 & 0xff), at);
  }

  private record(kind: WorkRecord['kind'], name: string, p: Uint32Array, at: number, level: number): void {
    if (kind === 'draw') this.runDrawStates(level);
    const killed = kind === 'draw' && this.predGlobal && this.predLocal && !this.predPass;
    if (killed) this.count(8); // PERF_CP_PREDICATED_DRAWS_KILLED
    // A draw: CP_EVENT_START, the work, CONTEXT_DONE, CP_EVENT_END (switch banks).
    const bank = this.ctx;
    let state: Map<number, number> = new Map();
    if (this.snapshots) {
      const b = this.banks[bank]!;
      for (let k = 0; k < b.length; k++) if (b[k]) state.set(CTX_LO + k, b[k]!);
      for (const o of this.written) state.set(o, this.regs[o]!);
    }
    this.work.push({ kind, packet: name, payload: Array.from(p), iova: at, level, mode: this.mode, marker: this.marker, bank, killed, state, cpState: new Map(this.cpState), bin: this.binIndex, thread: this.thread });
    if (!killed) {
      this.ctxDone[this.ctx] = true;
      this.count(11);
      this.switchContext();
    }
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
