/**
 * The R600/Evergreen conditional-execution model (seed 003_ea00a3a93da820dc.txt), on one
 * workgroup's wavefronts:
 *
 * - Per work-item (the seed's "pixel") state: the VALID bit (cleared by KILL, never set again) and
 *   the 2-bit active state: Active, Inactive-Branch, Inactive-Continue, Inactive-Break.
 * - PRED_SET* with UPDATE_EXEC_MASK change the active state only at the beginning of the next CF
 *   instruction (the executor applies them when the ALU clause's CF instruction finishes).
 * - CF instructions evaluate a condition test per work-item (COND, WHOLE_QUAD_MODE,
 *   VALID_PIXEL_MODE) and then execute for passing items, modify the state, push/pop the CF stack,
 *   or jump when every item fails.
 * - The CF stack holds full entries (loops, calls) and subentries (branch pushes, 4 per entry on
 *   64-wide chips, 8 on narrower ones: R600_CHIPS stackSubentries);
 *   its size is STACK_SIZE from SQ_PGM_RESOURCES unless overridden. Exceeding it is reported
 *   (`r600.cf.stack-overflow`) and execution continues with an unbounded model stack.
 *
 * Where the document leaves a choice open, the choice is written next to the code.
 */
import type { Diagnostics } from '../../core/diagnostics.js';
import { SRC, type AluGroup, type AluInst, type CfInst, type FetchInst, type GdsInst, type R600Gen, type R600Program, type TexInst } from '../isa/decode.js';
import { TEX_DIM, decodeTexResource, decodeTexSampler, gatherLevel, readTexel, sampleLevel, texLevel, type TexFault, type TexResource, type TexSampler } from '../exec/tex.js';
import { decodeRat, storeTyped } from '../exec/rat.js';
import { printCf } from '../isa/print.js';
import { ALU_FN, B, F, compareOf, predCounterOp } from '../exec/alu.js';

export const SEED = '003_ea00a3a93da820dc.txt';

const K_PLAIN = 0;
const K_LDS = 1;
const K_PRED = 2;
const K_KILL = 3;
const K_MOVA = 4;
const K_NONE = 5;
const K_CFIDX = 6;
const K_VEC4 = 7;
const K_PREV = 8;
const K_F64 = 9;
const K_F64T = 10;
const K_INTERP = 11;
const kinds = new WeakMap<AluInst, number>();
/** How the executor handles an instruction (decided once per decoded instruction). */
function kindOf(inst: AluInst): number {
  let k = kinds.get(inst);
  if (k !== undefined) return k;
  const name = inst.op?.name ?? '';
  if (inst.enc === 'lds') k = K_LDS;
  else if (name.startsWith('PRED_SET')) k = K_PRED;
  else if (name.startsWith('KILL')) k = K_KILL;
  else if (name === 'MOVA_INT' || name === 'MOVA' || name === 'MOVA_FLOOR') k = K_MOVA;
  else if (name === 'GROUP_BARRIER' || name === 'NOP' || name === 'GROUP_SEQ_BEGIN' || name === 'GROUP_SEQ_END') k = K_NONE;
  else if (name === 'SET_CF_IDX0' || name === 'SET_CF_IDX1') k = K_CFIDX;
  else if (name === 'DOT4' || name === 'DOT4_IEEE' || name === 'MAX4') k = K_VEC4;
  else if (PREV_OPS.has(name)) k = K_PREV;
  else if (F64_OPS.has(name)) k = K_F64;
  else if (F64_TRANS_OPS.has(name)) k = K_F64T;
  else if (name.startsWith('INTERP_')) k = K_INTERP;
  else k = K_PLAIN;
  kinds.set(inst, k);
  return k;
}
/**
 * The new memory value of a read-modify-write data-share op (LDS_* and GDS_* share names and
 * meanings), from the old value o and the data operands b, c; undefined when `base` is none.
 */
export function dsRmw(base: string, o: number, b: number, c: number): number | undefined {
  switch (base) {
    case 'WRITE': case 'XCHG': return b;
    case 'ADD': return o + b;
    case 'SUB': return o - b;
    case 'RSUB': return b - o;
    case 'INC': return o >= b ? 0 : o + 1;
    case 'DEC': return o === 0 || o > b ? b : o - 1;
    case 'MIN_INT': return (o | 0) < (b | 0) ? o : b;
    case 'MAX_INT': return (o | 0) > (b | 0) ? o : b;
    case 'MIN_UINT': return o < b ? o : b;
    case 'MAX_UINT': return o > b ? o : b;
    case 'AND': return o & b;
    case 'OR': return o | b;
    case 'XOR': return o ^ b;
    case 'MSKOR': return (o & ~b) | c;
    case 'CMP_XCHG': case 'CMP_STORE': return o === b ? c : o;
    // SPF: the compare is a single-precision float compare (so -0 equals +0; NaN never matches).
    case 'CMP_XCHG_SPF': case 'CMP_STORE_SPF': return F(o) === F(b) ? c : o;
    default: return undefined;
  }
}

export const WAVE_SIZE = 64;

const PREV_OPS = new Set(['MUL_PREV', 'MUL_IEEE_PREV', 'ADD_PREV', 'MULADD_PREV', 'MULADD_IEEE_PREV', 'BCNT_ACCUM_PREV_INT', 'MBCNT_32LO_ACCUM_PREV_INT', 'SAD_ACCUM_PREV_UINT']);
/** *_PREV ops: p is the previous slot's result (Evergreen/Cayman ISA definitions). */
function prevOp(name: string, a: number, b: number, p: number, lane: number): number {
  switch (name) {
    case 'MUL_PREV': return F(a) === 0 || F(p) === 0 ? 0 : B(F(a) * F(p));
    case 'MUL_IEEE_PREV': return B(F(a) * F(p));
    case 'ADD_PREV': return B(F(a) + F(p));
    case 'MULADD_PREV': return B((F(a) === 0 || F(p) === 0 ? 0 : Math.fround(F(a) * F(p))) + F(b));
    case 'MULADD_IEEE_PREV': return B(Math.fround(F(a) * F(p)) + F(b));
    case 'BCNT_ACCUM_PREV_INT': return (ALU_FN['BCNT_INT']!(a, 0, 0) + p) >>> 0;
    // Bits of src0 below this work-item's position in the low 32 lanes, plus the previous result.
    case 'MBCNT_32LO_ACCUM_PREV_INT': return (ALU_FN['BCNT_INT']!(lane >= 32 ? a : lane === 0 ? 0 : (a & (0xffffffff >>> (32 - lane))) >>> 0, 0, 0) + p) >>> 0;
    default: { // SAD_ACCUM_PREV_UINT
      let r = p;
      for (let i = 0; i < 32; i += 8) r += Math.abs(((a >>> i) & 255) - ((b >>> i) & 255));
      return r >>> 0;
    }
  }
}

const F64_OPS = new Set(['ADD_64', 'MUL_64', 'FMA_64', 'MULADD_64', 'MIN_64', 'MAX_64', 'SETE_64', 'SETNE_64', 'SETGT_64', 'SETGE_64', 'FLT32_TO_FLT64', 'FLT64_TO_FLT32', 'FRACT_64', 'FREXP_64', 'LDEXP_64', 'CNDNE_64']);
const f64 = new Float64Array(1);
const f64w = new Uint32Array(f64.buffer);
const D = (hi: number, lo: number): number => {
  f64w[0] = lo;
  f64w[1] = hi;
  return f64[0]!;
};
const DW = (v: number): [number, number] => {
  f64[0] = v;
  return [f64w[0]!, f64w[1]!];
};
/** The instruction in the other slot of a 64-bit pair (x/y, z/w), if it is the same op. */
function f64Mate(grp: AluGroup, inst: AluInst): AluInst | undefined {
  if (inst.slot > 3) return undefined;
  const want = inst.slot ^ 1;
  return grp.insts.find((x) => x.slot === want && x.op === inst.op);
}
/** Cayman: the 64-bit trans op sits in slots x, y and z of its group with the same sources. */
function f64TransCayman(grp: AluGroup, inst: AluInst): boolean {
  const same = (x: AluInst): boolean => x.op === inst.op && x.src.every((s, k) => k >= (inst.op?.srcs ?? 0) || s.sel === inst.src[k]!.sel && s.chan === inst.src[k]!.chan && s.neg === inst.src[k]!.neg && s.abs === inst.src[k]!.abs);
  return [0, 1, 2].every((slot) => grp.insts.some((x) => x.slot === slot && same(x)));
}
/** 64-bit ops Mesa issues in all four vector slots (Cayman: AF_4V). */
const FOUR_SLOT_F64 = new Set(['MUL_64', 'FMA_64']);
/** The z and w instructions of a group holding `inst`'s op in all four vector slots. */
function f64Quad(grp: AluGroup, inst: AluInst): [AluInst, AluInst] | undefined {
  const at = [0, 1, 2, 3].map((s) => grp.insts.find((x) => x.slot === s && x.op === inst.op));
  return at.every((x) => x) ? [at[2]!, at[3]!] : undefined;
}
/** A 64-bit op on (hi, lo) source dwords; returns [low, high] result dwords. */
function f64Op(name: string, hi: number[], lo: number[]): [number, number] {
  const a = D(hi[0]!, lo[0]!);
  const b = D(hi[1]!, lo[1]!);
  const c = D(hi[2]!, lo[2]!);
  const bool = (x: boolean): [number, number] => DW(x ? 1 : 0);
  switch (name) {
    case 'ADD_64': return DW(a + b);
    case 'MUL_64': return DW(a * b);
    case 'FMA_64': case 'MULADD_64': return DW(fma64(a, b, c));
    case 'MIN_64': return DW(Number.isNaN(a) ? b : Number.isNaN(b) ? a : Math.min(a, b));
    case 'MAX_64': return DW(Number.isNaN(a) ? b : Number.isNaN(b) ? a : Math.max(a, b));
    case 'SETE_64': return bool(a === b);
    case 'SETNE_64': return bool(a !== b);
    case 'SETGT_64': return bool(a > b);
    case 'SETGE_64': return bool(a >= b);
    case 'CNDNE_64': return a !== 0 ? DW(b) : DW(c);
    case 'FRACT_64': return DW(a - Math.floor(a));
    case 'LDEXP_64': return DW(a * 2 ** (lo[1]! | 0));
    case 'FREXP_64': {
      if (a === 0 || !Number.isFinite(a)) return DW(a);
      const e = Math.floor(Math.log2(Math.abs(a))) + 1;
      return DW(a / 2 ** e);
    }
    // The single-precision value sits in the even slot's source (the "high" operand).
    case 'FLT32_TO_FLT64': return DW(F(hi[0]!));
    default: { // FLT64_TO_FLT32: the float in the even slot, zero in the odd one
      return [B(a), 0];
    }
  }
}
/**
 * The 64-bit transcendental ops (trans slot on Evergreen; slots x, y, z on Cayman): each
 * instruction reads one double, src0 its high dword and src1 its low dword (Mesa's order), and
 * writes the low dword of the result through an even destination channel, the high dword through
 * an odd one. Modelled correctly rounded in binary64; the _CLAMPED forms turn an infinite result
 * into the largest finite double of its sign, like the 32-bit RECIP_CLAMPED / RECIPSQRT_CLAMPED.
 */
const F64_TRANS_OPS = new Set(['RECIP_64', 'RECIP_CLAMPED_64', 'RECIPSQRT_64', 'RECIPSQRT_CLAMPED_64', 'SQRT_64']);
export function f64TransOp(name: string, hi: number, lo: number): [number, number] {
  const a = D(hi, lo);
  const clamp = (r: number): number => (r === Infinity ? Number.MAX_VALUE : r === -Infinity ? -Number.MAX_VALUE : r);
  switch (name) {
    case 'RECIP_64': return DW(1 / a);
    case 'RECIP_CLAMPED_64': return DW(clamp(1 / a));
    case 'RECIPSQRT_64': return DW(1 / Math.sqrt(a));
    case 'RECIPSQRT_CLAMPED_64': return DW(clamp(1 / Math.sqrt(a)));
    default: return DW(Math.sqrt(a)); // SQRT_64
  }
}
/** Fused a*b+c in binary64 (one rounding), via exact products split with Veltkamp/Dekker. */
function fma64(a: number, b: number, c: number): number {
  if (!Number.isFinite(a) || !Number.isFinite(b) || !Number.isFinite(c) || a === 0 || b === 0) return a * b + c;
  const p = a * b;
  const split = (x: number): [number, number] => {
    const t = 134217729 * x;
    const h = t - (t - x);
    return [h, x - h];
  };
  const [ah, al] = split(a);
  const [bh, bl] = split(b);
  const e = ((ah * bh - p) + ah * bl + al * bh) + al * bl;
  const s = p + c;
  const bb = s - p;
  const err = (p - (s - bb)) + (c - bb);
  return s + (err + e);
}
/** Per-work-item active states. */
export const STATE = { ACTIVE: 0, INACTIVE_BRANCH: 1, INACTIVE_CONTINUE: 2, INACTIVE_BREAK: 3 } as const;
export type ActiveState = (typeof STATE)[keyof typeof STATE];

const NGPR = 128;
const QUEUE = 16;

interface StackEntry {
  readonly kind: 'branch' | 'loop' | 'call';
  /** Subentries this entry uses (branch pushes: 1, or 2 for the first non-WQM push on Evergreen); full entries count 4. */
  readonly cost: number;
  readonly state: Uint8Array;
  /** loop: index of LOOP_START; call: return CF index. */
  readonly pc: number;
  counter: number;
  aL: number;
  readonly inc: number;
  readonly dx10: boolean;
}

/** Global memory and other resources shared by all waves of a dispatch. */
export interface R600Resources {
  /** UAV / global memory: RAT 0 and vertex buffer 1 address it with byte addresses. */
  readonly global: Uint8Array;
  /** Read-only data of the code object (.text): vertex buffer 2 (the __constant address space). */
  readonly constData: Uint8Array;
  /** Constant buffers by bank (CB0 holds the dispatch sizes and kernel arguments). */
  readonly constBuffers: ReadonlyMap<number, Uint32Array>;
  /** Boolean constants for COND BOOL/NOT_BOOL, by CF_CONST. */
  readonly bools: number;
  /** Integer loop constants (count, init, inc) by CF_CONST, for LOOP_START / LOOP_START_NO_AL. */
  readonly loopConsts: readonly { count: number; init: number; inc: number }[];
  /** 64 KiB global data share. */
  readonly gds: Uint8Array;
  /**
   * EXPORT / EXPORT_DONE results: target ("PIXEL0", "POS1", "PARAM3"...) -> work-item (wave id * 64
   * + lane) -> the four exported dwords (channels a SEL_* of 7 masks keep their previous value, 0).
   */
  readonly exports: Map<string, Map<number, Uint32Array>>;
  /** Buffers MEM_RING* / MEM_STREAM* / MEM_EXPORT* write, by CF instruction name (created on first use). */
  readonly memBuffers: Map<string, Uint8Array>;
  /** Per-work-item scratch (MEM_WRITE_SCRATCH) size in dwords. */
  readonly scratchDwords: number;
  /** Texture resources (eight SQ_TEX_RESOURCE_WORD dwords each) by RESOURCE_ID; texels live in `global`. */
  readonly textures?: ReadonlyMap<number, Uint32Array>;
  /** Samplers (three SQ_TEX_SAMPLER_WORD dwords each) by SAMPLER_ID. */
  readonly samplers?: ReadonlyMap<number, Uint32Array>;
  /** Border colors (RGBA) by SAMPLER_ID for BORDER_COLOR_TYPE 3 (register). */
  readonly borderColors?: ReadonlyMap<number, ArrayLike<number>>;
  /**
   * RAT bindings by RAT id (0..11): the seven CB_COLORn_BASE, PITCH, SLICE, VIEW, INFO, ATTRIB, DIM
   * dwords (exec/rat.ts). A bound RAT addresses global memory from BASE * 256 and STORE_TYPED converts
   * to its format; RAT 0 unbound is global memory with raw dwords (STORE_TYPED included).
   */
  readonly rats?: ReadonlyMap<number, Uint32Array>;
}

export interface WaveOptions {
  readonly gen: R600Gen;
  readonly program: R600Program;
  readonly resources: R600Resources;
  readonly diag: Diagnostics;
  /** CF stack size in entries (SQ_PGM_RESOURCES.STACK_SIZE). */
  readonly stackSize: number;
  /** CF index CALL_FS jumps to (the fetch shader), if any. */
  readonly fetchShader?: number;
  /** The chip has FMA and the 64-bit float ops (R600_CHIPS); undefined: assume it does. */
  readonly fp64?: boolean;
  /** Treat the index of RAT atomics (not stores, not MSKOR) as a byte address, as clang-19 emits it. */
  readonly atomicByteAddress?: boolean;
  /** Called before each CF instruction with `wave W cf N <text> | active=<lane mask hex> valid=<hex> stack=<depth>`. */
  readonly trace?: (line: string) => void;
  /** Work-items per wavefront (the chip's R600_CHIPS waveSize; default 64). */
  readonly waveSize?: number;
  /** CF stack subentries per full entry (the chip's R600_CHIPS stackSubentries; default 4). */
  readonly stackSubentries?: number;
}

/** A lane mask as hex, one bit per lane of the wave (lane 0 = bit 0): 16 digits for 64 lanes, 8 for 32. */
export function maskHex(bits: Uint8Array, test: (v: number) => boolean): string {
  let out = '';
  for (let base = 0; base < bits.length; base += 32) {
    let w = 0;
    for (let l = 0; l < 32 && base + l < bits.length; l++) if (test(bits[base + l]!)) w |= 1 << l;
    out = (w >>> 0).toString(16).padStart(Math.min(8, Math.ceil((bits.length - base) / 4)), '0') + out;
  }
  return out;
}

export type StepResult = 'ok' | 'barrier' | 'end';

/** Counts for run.json. */
export interface R600Stats {
  cfInstructions: number;
  aluGroups: number;
  aluInstructions: number;
  laneOps: number;
  fetches: number;
  ratOps: number;
  ldsOps: number;
  gdsOps: number;
  exports: number;
}

export class Wave {
  /** Work-items per wavefront (R600_CHIPS waveSize: 64, 32 on cedar/palm/rv710/rv730, 16 on rs880...). */
  readonly W: number;
  readonly id: number;
  readonly group: number;
  /** GPR file: gpr[(reg * 4 + chan) * 64 + lane], raw 32-bit patterns. */
  readonly gpr: Uint32Array;
  /** GPRs allocated: the highest the program names + 1, or all 128 when it addresses relatively. */
  readonly ngpr: number;
  /** VALID mask bit per work-item: 1 until KILL clears it (or the item is past the group's end). */
  readonly valid: Uint8Array;
  /** Active state per work-item (STATE). */
  readonly state: Uint8Array;
  /** Predicate bit per work-item (PRED_SET* with UPDATE_PRED). */
  readonly pred: Uint8Array;
  /** Pending exec result from PRED_SET* with UPDATE_EXEC_MASK: -1 none, 0 fail, 1 pass. */
  readonly pendingExec: Int8Array;
  /** AR.x per work-item (MOVA_INT). */
  /** AR.x/y/z/w per work-item: ar[chan * 64 + lane] (MOVA* writes the channel of its destination). */
  readonly ar: Int32Array;
  /** PV (slots x,y,z,w) and PS (slot 4) of the previous instruction group: pv[slot * 64 + lane]. */
  readonly pv: Uint32Array;
  pvValid = false;
  /** LDS output queue A per work-item. */
  readonly oq: Uint32Array;
  readonly oqHead: Uint8Array;
  readonly oqCount: Uint8Array;
  readonly stack: StackEntry[] = [];
  /** CF_IDX0/1 (SET_CF_IDX0/1) for JUMPTABLE. */
  readonly cfIdx = [0, 0];
  pc = 0;
  /** Resume point inside an ALU clause (group index) after a GROUP_BARRIER. */
  resumeGroup = -1;
  /** Set by the scheduler when every wave of the group has reached the barrier. */
  barrierReleased = false;
  done = false;
  private firstPushDone = false;
  /** RAT writes issued with TYPE 2/3 (write with ACK) not yet covered by a WAIT_ACK. */
  private pendingAcks = 0;
  /** Export types opened with EXPORT and closed with EXPORT_DONE. */
  private readonly exportOpen = new Set<string>();
  private readonly exportDone = new Set<string>();
  /** MEM_WRITE_SCRATCH storage, allocated on first use. */
  private scratch: Uint32Array | undefined;
  private readonly ldsView: DataView;
  private readonly globalView: DataView;
  private readonly constView: DataView;
  private readonly gdsView: DataView;
  /** Per-group scratch (no allocation per instruction group). */
  private readonly res: Uint32Array;
  private readonly doWrite: Uint8Array;
  private readonly newPv: Uint32Array;
  private readonly arNew: Int32Array;
  /** KC2/KC3 sets and the KCACHE_BANK_INDEX_MODEs of the ALU_EXTENDED before the current clause. */
  private ext: { readonly sets: CfInst['kcache']; readonly modes: readonly number[] } | undefined;
  private extPending: CfInst | undefined;
  private readonly srcv = [0, 0, 0];
  private readonly reportedGroups = new Set<AluGroup>();
  private readonly constReported = new Set<AluGroup>();
  private readonly noFp64Reported = new Set<AluInst>();
  private overflowReported = false;
  readonly stats: R600Stats = { cfInstructions: 0, aluGroups: 0, aluInstructions: 0, laneOps: 0, fetches: 0, ratOps: 0, ldsOps: 0, gdsOps: 0, exports: 0 };

  readonly opts: WaveOptions;
  /** The workgroup's LDS, shared by its waves. */
  readonly lds: Uint8Array;

  constructor(opts: WaveOptions, id: number, group: number, lds: Uint8Array, lanes: number) {
    this.opts = opts;
    this.lds = lds;
    const W = (this.W = opts.waveSize ?? WAVE_SIZE);
    this.valid = new Uint8Array(W);
    this.state = new Uint8Array(W);
    this.pred = new Uint8Array(W);
    this.pendingExec = new Int8Array(W).fill(-1);
    this.ar = new Int32Array(4 * W);
    this.pv = new Uint32Array(5 * W);
    this.oq = new Uint32Array(W * QUEUE);
    this.oqHead = new Uint8Array(W);
    this.oqCount = new Uint8Array(W);
    this.res = new Uint32Array(5 * W);
    this.doWrite = new Uint8Array(5 * W);
    this.newPv = new Uint32Array(5 * W);
    this.arNew = new Int32Array(4 * W);
    this.texSrc = new Float64Array(4 * W);
    this.texSrcBits = new Uint32Array(4 * W);
    this.texOut = new Uint32Array(4 * W);
    this.grad = new Float64Array(8 * W);
    this.texOffsets = new Int32Array(3 * W);
    this.ngpr = Math.max(2, opts.program.gprCount);
    this.gpr = new Uint32Array(this.ngpr * 4 * this.W);
    this.ldsView = new DataView(lds.buffer, lds.byteOffset, lds.byteLength);
    const g = opts.resources.global;
    const k = opts.resources.constData;
    this.globalView = new DataView(g.buffer, g.byteOffset, g.byteLength);
    this.constView = new DataView(k.buffer, k.byteOffset, k.byteLength);
    const gd = opts.resources.gds;
    this.gdsView = new DataView(gd.buffer, gd.byteOffset, gd.byteLength);
    this.id = id;
    this.group = group;
    for (let l = 0; l < this.W; l++) {
      this.valid[l] = l < lanes ? 1 : 0;
      // Work-items past the group's end behave like items disabled by an enclosing branch.
      this.state[l] = l < lanes ? STATE.ACTIVE : STATE.INACTIVE_BRANCH;
    }
  }

  private diag(id: string, message: string, severity: 'error' | 'warning' | 'info' = 'error', extra: Record<string, number | string> = {}): void {
    this.opts.diag.report({ id, severity, where: { cf: this.pc, wave: this.id, group: this.group, ...extra }, message, seed: SEED });
  }

  // --- condition tests ---------------------------------------------------------------------------

  /** Is work-item `l` active for the purposes of an instruction with these mode bits? */
  activeTest(l: number, wqm: boolean, vpm: boolean): boolean {
    if (wqm) {
      // WHOLE_QUAD_MODE: true iff the quad contains an active pixel.
      const q = l & ~3;
      return this.state[q] === STATE.ACTIVE || this.state[q + 1] === STATE.ACTIVE || this.state[q + 2] === STATE.ACTIVE || this.state[q + 3] === STATE.ACTIVE;
    }
    if (vpm) return this.state[l] === STATE.ACTIVE && this.valid[l] === 1;
    return this.state[l] === STATE.ACTIVE;
  }

  /**
   * The CF condition test. COND_ACTIVE is the active test; COND_BOOL / COND_NOT_BOOL test the
   * CF_CONST boolean. Choice: BOOL/NOT_BOOL are combined with the active test, so a CF
   * instruction never makes an item active that the program had disabled.
   */
  condTest(l: number, c: CfInst): boolean {
    const act = this.activeTest(l, c.wholeQuadMode, c.validPixelMode);
    switch (c.cond) {
      case 0: return act;
      case 1: return false;
      case 2: return act && ((this.opts.resources.bools >>> c.cfConst) & 1) === 1;
      default: return act && ((this.opts.resources.bools >>> c.cfConst) & 1) === 0;
    }
  }

  private anyPass(c: CfInst): boolean {
    for (let l = 0; l < this.W; l++) if (this.condTest(l, c)) return true;
    return false;
  }

  private anyActive(): boolean {
    for (let l = 0; l < this.W; l++) if (this.state[l] === STATE.ACTIVE) return true;
    return false;
  }

  // --- the CF stack --------------------------------------------------------------------------------

  private stackUse(): { full: number; sub: number } {
    let full = 0;
    let sub = 0;
    for (const e of this.stack) if (e.kind === 'branch') sub += e.cost; else full++;
    return { full, sub };
  }

  private push(kind: StackEntry['kind'], pc = 0, loop?: { counter: number; aL: number; inc: number; dx10: boolean }): void {
    let cost = 1;
    if (kind === 'branch' && !this.firstPushDone && this.opts.gen !== 'cayman') {
      // The first non-WQM push needs an extra subentry on Evergreen (LLVM's stack sizing, from experiment).
      cost = 2;
    }
    if (kind === 'branch') this.firstPushDone = true;
    this.stack.push({ kind, cost: kind === 'branch' ? cost : 4, state: this.state.slice(), pc, counter: loop?.counter ?? 0, aL: loop?.aL ?? 0, inc: loop?.inc ?? 0, dx10: loop?.dx10 ?? false });
    const u = this.stackUse();
    const needed = u.full + Math.ceil(u.sub / (this.opts.stackSubentries ?? 4));
    if (needed > this.opts.stackSize && !this.overflowReported) {
      this.overflowReported = true;
      this.diag('r600.cf.stack-overflow', `CF stack needs ${needed} entries (${u.full} full + ${u.sub} subentries) but STACK_SIZE is ${this.opts.stackSize}`, 'error', { needed, stackSize: this.opts.stackSize });
    }
  }

  /**
   * Pop: restore the per-item state saved by the entry. Items that are in Inactive-Break or
   * Inactive-Continue keep that state: only the end of their loop re-activates them.
   */
  private pop(n: number): void {
    for (let k = 0; k < n; k++) {
      const e = this.stack.pop();
      if (!e) {
        this.diag('r600.cf.stack-underflow', `pop of an empty CF stack`);
        return;
      }
      for (let l = 0; l < this.W; l++) {
        const s = this.state[l];
        if (s === STATE.INACTIVE_BREAK || s === STATE.INACTIVE_CONTINUE) continue;
        this.state[l] = e.state[l]!;
      }
    }
  }

  private innermostLoop(): number {
    for (let i = this.stack.length - 1; i >= 0; i--) if (this.stack[i]!.kind === 'loop') return i;
    return -1;
  }

  // --- execution -------------------------------------------------------------------------------------

  /** Execute one CF instruction (or resume a clause stopped at a barrier). */
  step(): StepResult {
    const p = this.opts.program;
    if (this.pc < 0 || this.pc >= p.cfEnd) {
      this.diag('r600.cf.pc-out-of-program', `CF program counter ${this.pc} is outside the program (0..${p.cfEnd - 1})`);
      this.done = true;
      return 'end';
    }
    const c = p.cf[this.pc]!;
    this.stats.cfInstructions++;
    if (this.opts.trace && this.resumeGroup < 0) {
      this.opts.trace(`wave ${this.id} cf ${this.pc} ${printCf(c, this.pc === p.cfEnd - 1, p.gen)} | active=${maskHex(this.state, (v) => v === STATE.ACTIVE)} valid=${maskHex(this.valid, (v) => v === 1)} stack=${this.stack.length}`);
    }
    const name = c.op?.name ?? '';
    if (!c.op) {
      this.diag('r600.cf.unknown', `unknown CF instruction ${c.code} (${printCf(c, false, this.opts.program.gen)})`);
      this.pc++;
      return this.finish(c);
    }
    if (c.jumptableSel && name !== 'JUMPTABLE') this.diag('r600.cf.jts-unused', `JUMPTABLE_SEL=${c.jumptableSel} on ${name}: only CF_INST_JUMPTABLE uses it`, 'warning');
    if (c.kind === 'cf' && c.cfConst && c.cond < 2 && name !== 'LOOP_START' && name !== 'LOOP_START_NO_AL')
      this.diag('r600.cf.cfconst-unused', `CF_CONST=${c.cfConst} on ${name} with COND=${['ACTIVE', 'FALSE'][c.cond]}: only BOOL/NOT_BOOL tests and LOOP_START read it`, 'warning');
    if (this.extPending && c.kind !== 'alu') {
      this.diag('r600.cf.alu-extended-unpaired', `ALU_EXTENDED is followed by ${name}, not an ALU clause`, 'error');
      this.extPending = undefined;
    }
    if (c.kind === 'alu') return this.cfAlu(c);
    if (c.kind === 'export') {
      this.cfExport(c);
      this.pc++;
      return this.finish(c);
    }
    const usesPop = ['JUMP', 'ELSE', 'POP', 'CALL', 'CALL_FS', 'LOOP_BREAK', 'LOOP_CONTINUE', 'RETURN', 'JUMPTABLE', 'PUSH'];
    if (c.popCount && !usesPop.includes(name)) this.diag('r600.cf.popcount-unused', `POP_COUNT=${c.popCount} on ${name}, which does not pop`, 'warning');
    switch (name) {
      case 'WAIT_ACK':
        this.pendingAcks = 0;
        this.pc++;
        break;
      case 'NOP':
      case 'GLOBAL_WAVE_SYNC':
        this.pc++;
        break;
      case 'TC':
      case 'VC':
      case 'VC_TC':
        this.fetchClause(c);
        this.pc++;
        break;
      case 'GDS':
        if (c.cond !== 0) this.diag('r600.cf.gds-cond', 'GDS clauses must use COND=ACTIVE', 'error');
        this.gdsClause(c);
        this.pc++;
        break;
      case 'JUMP':
        if (!this.anyPass(c)) {
          this.pop(c.popCount);
          this.pc = c.addr;
        } else this.pc++;
        break;
      case 'PUSH':
      case 'PUSH_WQM': {
        if (!this.anyPass(c)) {
          this.pop(c.popCount);
          this.pc = c.addr;
          break;
        }
        const pass = new Uint8Array(this.W);
        for (let l = 0; l < this.W; l++) pass[l] = this.condTest(l, c) ? 1 : 0;
        this.push('branch');
        for (let l = 0; l < this.W; l++) if (this.state[l] === STATE.ACTIVE && !pass[l]) this.state[l] = STATE.INACTIVE_BRANCH;
        this.pc++;
        break;
      }
      case 'ELSE':
      case 'ELSE_WQM':
        this.pop(c.popCount);
        this.elseOp();
        if (!this.anyActive()) this.pc = c.addr;
        else this.pc++;
        break;
      case 'POP':
      case 'POP_WQM':
        // Unconditional pop: pop, then evaluate the condition test on the new state and disable
        // the items that fail it (so POP with VALID_PIXEL_MODE drops killed pixels).
        this.pop(c.popCount);
        for (let l = 0; l < this.W; l++) if (this.state[l] === STATE.ACTIVE && !this.condTest(l, c)) this.state[l] = STATE.INACTIVE_BRANCH;
        this.pc++;
        break;
      case 'LOOP_START':
      case 'LOOP_START_NO_AL':
      case 'LOOP_START_DX10': {
        const dx10 = name === 'LOOP_START_DX10';
        const k = this.opts.resources.loopConsts[c.cfConst] ?? { count: 0, init: 0, inc: 0 };
        if (!this.anyPass(c) || (!dx10 && k.count === 0)) {
          this.pc = c.addr;
          break;
        }
        const prevAL = this.stack[this.innermostLoop()]?.aL ?? 0;
        this.push('loop', this.pc, { counter: k.count, aL: name === 'LOOP_START' ? k.init : prevAL, inc: name === 'LOOP_START' ? k.inc : 0, dx10 });
        // Items failing the test do not take part in the loop.
        for (let l = 0; l < this.W; l++) if (this.state[l] === STATE.ACTIVE && !this.condTest(l, c)) this.state[l] = STATE.INACTIVE_BRANCH;
        this.pc++;
        break;
      }
      case 'LOOP_END': {
        const li = this.innermostLoop();
        if (li < 0) {
          this.diag('r600.cf.loop-end-without-loop', 'LOOP_END with no loop on the CF stack');
          this.pc++;
          break;
        }
        // Branch pushes a break/continue jumped over are discarded with the iteration.
        this.stack.length = li + 1;
        const e = this.stack[li]!;
        for (let l = 0; l < this.W; l++) if (this.state[l] === STATE.INACTIVE_CONTINUE) this.state[l] = STATE.ACTIVE;
        if (!e.dx10) e.counter--;
        if (this.anyPass(c) && (e.dx10 || e.counter > 0)) {
          e.aL += e.inc;
          this.pc = c.addr;
        } else {
          this.stack.length = li;
          // Leaving the loop: every item that entered it is active again (broken or finished).
          for (let l = 0; l < this.W; l++) this.state[l] = e.state[l]!;
          this.pc++;
        }
        break;
      }
      case 'LOOP_BREAK':
      case 'LOOP_CONTINUE': {
        if (this.innermostLoop() < 0) this.diag('r600.cf.break-outside-loop', `${name} outside any loop`);
        const to = name === 'LOOP_BREAK' ? STATE.INACTIVE_BREAK : STATE.INACTIVE_CONTINUE;
        for (let l = 0; l < this.W; l++) if (this.condTest(l, c)) this.state[l] = to;
        // Jump to ADDR (the LOOP_END) only when every item that entered the loop has broken out or
        // continued; items merely disabled by an inner branch must fall through to its POP.
        const entry = this.stack[this.innermostLoop()];
        let allGone = true;
        for (let l = 0; l < this.W; l++) {
          const inLoop = entry ? entry.state[l] === STATE.ACTIVE : this.valid[l] === 1;
          const s = this.state[l];
          if (inLoop && s !== STATE.INACTIVE_BREAK && s !== STATE.INACTIVE_CONTINUE) allGone = false;
        }
        if (allGone) {
          this.pop(c.popCount);
          this.pc = c.addr;
        } else this.pc++;
        break;
      }
      case 'CALL':
      case 'CALL_FS': {
        const target = name === 'CALL_FS' ? this.opts.fetchShader : c.addr;
        if (target === undefined) {
          this.diag('r600.cf.call-fs-without-fetch-shader', 'CALL_FS with no fetch shader bound', 'error');
          this.pc++;
          break;
        }
        if (name === 'CALL' && !this.anyPass(c)) {
          this.pc++;
          break;
        }
        this.pop(c.popCount);
        if (this.stack.filter((e) => e.kind === 'call').length >= 32) this.diag('r600.cf.call-depth', 'call nesting deeper than 32', 'error');
        this.push('call', this.pc + 1);
        this.pc = target;
        break;
      }
      case 'RETURN': {
        let i = this.stack.length - 1;
        while (i >= 0 && this.stack[i]!.kind !== 'call') i--;
        if (i < 0) {
          this.diag('r600.cf.return-without-call', 'RETURN with no CALL on the stack: ending the program');
          this.done = true;
          return 'end';
        }
        const e = this.stack[i]!;
        this.stack.length = i;
        this.pc = e.pc;
        break;
      }
      case 'JUMPTABLE': {
        // Evergreen: jump to ADDR + the index JUMPTABLE_SEL names (CF_IDX0 / CF_IDX1 from SET_CF_IDX*).
        if (c.jumptableSel > 1) this.diag('r600.cf.jumptable-sel', `JUMPTABLE_SEL=${c.jumptableSel} selects no index gpusim models (0: CF_IDX0, 1: CF_IDX1)`, 'warning');
        this.pop(c.popCount);
        this.pc = c.addr + (this.cfIdx[c.jumptableSel & 1] ?? 0);
        break;
      }
      case 'KILL':
        for (let l = 0; l < this.W; l++) if (this.condTest(l, c)) this.valid[l] = 0;
        this.pc++;
        break;
      case 'EMIT_VERTEX':
      case 'EMIT_CUT_VERTEX':
      case 'CUT_VERTEX':
        this.diag('r600.cf.not-in-compute', `${name} has no effect in a compute shader`, 'info');
        this.pc++;
        break;
      case 'CF_END':
        this.done = true;
        this.checkAcks();
        return 'end';
      default:
        this.diag('r600.unsupported', `${name} is not modelled`, 'warning');
        this.pc++;
    }
    return this.finish(c);
  }

  private finish(c: CfInst): StepResult {
    if (c.endOfProgram) {
      this.done = true;
      this.checkAcks();
      return 'end';
    }
    return 'ok';
  }

  /** RAT writes with TYPE 2 ask for an acknowledgement; only WAIT_ACK consumes it. */
  private checkAcks(): void {
    for (const t of this.exportOpen) if (!this.exportDone.has(t)) this.diag('r600.export.no-done', `the program ended without an EXPORT_DONE for its ${t} exports`, 'warning');
    if (this.pendingAcks > 0) this.diag('r600.rat.ack-without-wait', `${this.pendingAcks} RAT write(s) with ACK were never waited for (no WAIT_ACK before the end)`, 'warning');
    this.pendingAcks = 0;
  }

  /** ELSE: Active items go Inactive-Branch; Inactive-Branch items that were active when the branch was pushed go Active. */
  private elseOp(): void {
    const top = this.stack[this.stack.length - 1];
    for (let l = 0; l < this.W; l++) {
      const s = this.state[l];
      if (s === STATE.ACTIVE) this.state[l] = STATE.INACTIVE_BRANCH;
      else if (s === STATE.INACTIVE_BRANCH && (top ? top.state[l] === STATE.ACTIVE : this.valid[l] === 1)) this.state[l] = STATE.ACTIVE;
    }
  }

  private cfAlu(c: CfInst): StepResult {
    const name = c.op!.name;
    if (name === 'ALU_EXTENDED') {
      // A prefix: its KC0/KC1 fields are the next clause's KC2/KC3, its ADDR bits 11:4 the four
      // KCACHE_BANK_INDEX_MODEs.
      this.extPending = c;
      this.pc++;
      return this.finish(c);
    }
    const groups = c.aluClause!;
    if (this.resumeGroup < 0) {
      const e = this.extPending;
      this.ext = e ? { sets: e.kcache, modes: [(e.addr >>> 4) & 3, (e.addr >>> 6) & 3, (e.addr >>> 8) & 3, (e.addr >>> 10) & 3] } : undefined;
      this.extPending = undefined;
      if (name === 'ALU_PUSH_BEFORE') this.push('branch');
      this.pvValid = false;
    }
    const vpm = name === 'ALU_VALID_PIXEL_MODE';
    const exec = new Uint8Array(this.W);
    for (let l = 0; l < this.W; l++) exec[l] = this.activeTest(l, c.wholeQuadMode, vpm) ? 1 : 0;
    for (let g = this.resumeGroup < 0 ? 0 : this.resumeGroup; g < groups.length; g++) {
      const grp = groups[g]!;
      if (grp.barrier) {
        if (!this.barrierReleased) {
          this.resumeGroup = g;
          this.stats.cfInstructions--; // counted again when resumed
          return 'barrier';
        }
        this.barrierReleased = false;
      }
      this.execGroup(grp, exec, c);
    }
    this.resumeGroup = -1;
    // PRED_SET* exec-mask updates take effect now, at the start of the next CF instruction.
    const to = name === 'ALU_CONTINUE' ? STATE.INACTIVE_CONTINUE : name === 'ALU_BREAK' ? STATE.INACTIVE_BREAK : STATE.INACTIVE_BRANCH;
    for (let l = 0; l < this.W; l++) {
      const p = this.pendingExec[l]!;
      if (p === 0 && this.state[l] === STATE.ACTIVE) this.state[l] = to;
      this.pendingExec[l] = -1;
    }
    if (name === 'ALU_POP_AFTER') this.pop(1);
    else if (name === 'ALU_POP2_AFTER') this.pop(2);
    else if (name === 'ALU_ELSE_AFTER') this.elseOp();
    this.pc++;
    return this.finish(c);
  }

  private kcacheRead(c: CfInst, set: number, index: number, chan: number): number {
    const k = set < 2 ? c.kcache[set]! : this.ext?.sets[set - 2];
    if (!k || k.mode === 0) {
      this.diag('r600.alu.kcache-unlocked', `KC${set} read but the clause locks no constant lines for it${set >= 2 ? ' (KC2/KC3 need an ALU_EXTENDED before the clause)' : ''}`, 'error');
      return 0;
    }
    // ALU_EXTENDED's KCACHE_BANK_INDEX_MODEn: 1 adds CF_IDX0, 2 CF_IDX1 to the bank.
    const im = this.ext?.modes[set] ?? 0;
    const cb = this.opts.resources.constBuffers.get(k.bank + (im === 1 ? this.cfIdx[0]! : im === 2 ? this.cfIdx[1]! : 0));
    const idx = (k.addr * 16 + index) * 4 + chan;
    return cb && idx < cb.length ? cb[idx]! : 0;
  }

  private readSrc(inst: AluInst, k: number, l: number, lits: readonly number[], c: CfInst): number {
    const s = inst.src[k]!;
    let v: number;
    const sel = s.sel;
    if (sel < 128) {
      let r = sel;
      if (s.rel) r += this.relIndex(inst, l);
      if (r < 0 || r >= this.ngpr) {
        this.diag('r600.alu.gpr-out-of-range', `relative GPR T${r} out of range`, 'error', { lane: l });
        v = 0;
      } else v = this.gpr[(r * 4 + s.chan) * this.W + l]!;
    } else if (sel < 160) v = this.kcacheRead(c, 0, sel - 128, s.chan);
    else if (sel < 192) v = this.kcacheRead(c, 1, sel - 160, s.chan);
    else if (sel >= 256 && sel < 288) v = this.kcacheRead(c, 2, sel - 256, s.chan);
    else if (sel >= 288 && sel < 320) v = this.kcacheRead(c, 3, sel - 288, s.chan);
    else if (sel >= SRC.PARAM && sel < SRC.PARAM + 32) {
      // Parameters are read by the interpolation ops themselves (interpOp).
      if (!inst.op?.name.startsWith('INTERP_')) this.diag('r600.alu.unsupported-source', `Param${sel - SRC.PARAM} read by ${inst.op?.name}: only the INTERP_* ops read the parameter cache`, 'warning');
      v = 0;
    } else {
      switch (sel) {
        case SRC.ZERO: v = 0; break;
        case SRC.ONE: v = 0x3f800000; break;
        case SRC.ONE_INT: v = 1; break;
        case SRC.M_ONE_INT: v = 0xffffffff; break;
        case SRC.HALF: v = 0x3f000000; break;
        case SRC.LITERAL: v = lits[s.chan] ?? 0; break;
        case SRC.LOOP_IDX: v = (this.stack[this.innermostLoop()]?.aL ?? 0) >>> 0; break;
        case SRC.PV:
        case SRC.PS:
          if (!this.pvValid) this.diag('r600.alu.pv-undefined', 'PV/PS read in the first instruction group of a clause', 'warning');
          v = this.pv[(sel === SRC.PS ? 4 : s.chan) * this.W + l]!;
          break;
        case SRC.LDS_OQ_A_POP:
        case SRC.LDS_OQ_A: {
          if (this.oqCount[l] === 0) {
            this.diag('r600.lds.queue-underflow', 'read of the LDS output queue while it is empty', 'error', { lane: l });
            v = 0;
          } else {
            v = this.oq[l * QUEUE + this.oqHead[l]!]!;
            if (sel === SRC.LDS_OQ_A_POP) {
              this.oqHead[l] = (this.oqHead[l]! + 1) % QUEUE;
              this.oqCount[l]!--;
            }
          }
          break;
        }
        default:
          this.diag('r600.alu.unsupported-source', `ALU source select ${sel} is not modelled`, 'warning');
          v = 0;
      }
    }
    if (s.abs) v &= 0x7fffffff;
    if (s.neg) v ^= 0x80000000;
    return v >>> 0;
  }

  /**
   * Interpolation from the LDS parameter cache (Evergreen/Cayman). Parameter n (source PARAMn) is
   * 12 floats at LDS byte 48n: P0, P10 = P1 - P0, P20 = P2 - P0, four channels each (gpusim's
   * layout, in the order of INTERP_LOAD_P0/P10/P20; `interpParams` fills it as the SPI would).
   * - INTERP_LOAD_P0/P10/P20: that vector's channel the source names.
   * - INTERP_XY (x,y,z,w) / INTERP_ZW (x,y,z,w) / INTERP_X (x,y) / INTERP_Z (z,w): slot pairs x/y and
   *   z/w; the even slot's src0 is the barycentric I, the odd slot's J (Mesa's operand order). The
   *   result slots are x and y (XY), z and w (ZW), x (X), z (Z): channel c = P0.c + I*P10.c +
   *   J*P20.c, each step rounded to single precision (P0 + I*P10, then + J*P20). The other slots
   *   have no defined result: a write from one is reported and nothing is written. All slots of the
   *   op must be issued (`r600.alu.interp`). Returns undefined when the slot writes nothing.
   */
  private interpOp(grp: AluGroup, inst: AluInst, l: number, lits: readonly number[], c: CfInst, report: boolean): number | undefined {
    const name = inst.op!.name;
    const pSrc = name.startsWith('INTERP_LOAD_') ? inst.src[0]! : inst.src[1]!;
    const param = pSrc.sel - SRC.PARAM;
    if (param < 0 || param >= 32) {
      if (report) this.diag('r600.alu.interp', `${name} reads ${pSrc.sel < 128 ? `T${pSrc.sel}` : `source ${pSrc.sel}`}, not a parameter (Param0..Param31)`, 'error', { offset: inst.offset });
      return 0;
    }
    const read = (vec: number, ch: number): number => {
      const addr = param * 48 + vec * 16 + ch * 4;
      if (addr + 4 > this.lds.length) {
        this.diag('r600.lds.out-of-range', `parameter ${param} at LDS byte ${addr} outside the ${this.lds.length}-byte LDS`, 'error', { lane: l, addr });
        return 0;
      }
      return this.ldsView.getUint32(addr, true);
    };
    if (name.startsWith('INTERP_LOAD_')) return read(name === 'INTERP_LOAD_P0' ? 0 : name === 'INTERP_LOAD_P10' ? 1 : 2, pSrc.chan);
    const slots = name === 'INTERP_X' ? [0, 1] : name === 'INTERP_Z' ? [2, 3] : [0, 1, 2, 3];
    const results = name === 'INTERP_XY' ? [0, 1] : name === 'INTERP_ZW' ? [2, 3] : name === 'INTERP_X' ? [0] : [2];
    const mates = slots.map((s) => grp.insts.find((x) => x.slot === s && x.op === inst.op));
    if (mates.some((x) => !x)) {
      if (report) this.diag('r600.alu.interp', `${name} issues in slots ${slots.map((s) => 'xyzw'[s]).join(', ')} together; slot ${slots.filter((_, k) => !mates[k]).map((s) => 'xyzw'[s]).join(', ')} missing`, 'error', { offset: inst.offset });
      return undefined;
    }
    if (!results.includes(inst.slot)) {
      if (inst.writeMask && report) this.diag('r600.alu.interp', `${name} slot ${'xyzw'[inst.slot]} has no defined result (the result slots are ${results.map((s) => 'xyzw'[s]).join(', ')}); write dropped`, 'warning', { offset: inst.offset });
      return undefined;
    }
    const even = mates[slots.indexOf(inst.slot & 2)]!;
    const odd = mates[slots.indexOf((inst.slot & 2) + 1)]!;
    const i = F(this.pairSrc(even, inst, 0, l, lits, c));
    const j = F(this.pairSrc(odd, inst, 0, l, lits, c));
    const ch = inst.slot;
    return B(Math.fround(Math.fround(F(read(0, ch)) + Math.fround(i * F(read(1, ch)))) + Math.fround(j * F(read(2, ch)))));
  }

  /**
   * Source k of `x`, one instruction of a multi-slot op (64-bit pair, interpolation), for lane l:
   * the executing instruction's own sources are already in srcv, the others are read here.
   */
  private pairSrc(x: AluInst, inst: AluInst, k: number, l: number, lits: readonly number[], c: CfInst): number {
    return x === inst ? this.srcv[k]! : this.readSrc(x, k, l, lits, c);
  }

  /** The relative-addressing index INDEX_MODE selects: 0..3 AR.x/y/z/w (MOVA*), 4 the loop index aL. */
  private relIndex(inst: AluInst, l: number): number {
    const m = inst.indexMode;
    if (m === 4) return this.stack[this.innermostLoop()]?.aL ?? 0;
    if (m > 4) {
      this.diag('r600.alu.index-mode', `INDEX_MODE ${m} (global) is not modelled; using AR.x`, 'warning');
      return this.ar[l]!;
    }
    if (m > 0 && this.opts.gen === 'cayman') this.diag('r600.alu.index-mode', `INDEX_MODE ${m} (AR.${'xyzw'[m]}): Cayman has only AR.x`, 'error');
    return this.ar[m * this.W + l]!;
  }

  private oqPush(l: number, v: number): void {
    if (this.oqCount[l]! >= QUEUE) {
      this.diag('r600.lds.queue-overflow', 'LDS output queue overflow (more than 16 returns not read)', 'error', { lane: l });
      return;
    }
    this.oq[l * QUEUE + ((this.oqHead[l]! + this.oqCount[l]!) % QUEUE)] = v >>> 0;
    this.oqCount[l]!++;
  }

  private execGroup(grp: AluGroup, exec: Uint8Array, c: CfInst): void {
    this.stats.aluGroups++;
    if (grp.slotError && !this.reportedGroups.has(grp)) {
      this.reportedGroups.add(grp);
      this.diag('r600.alu.slot-conflict', `illegal instruction group at byte ${grp.offset}: ${grp.slotError}`, 'error', { offset: grp.offset });
    }
    if (grp.bankError && !this.reportedGroups.has(grp)) {
      this.reportedGroups.add(grp);
      this.diag('r600.alu.bank-swizzle', `read-port conflict in the instruction group at byte ${grp.offset}: ${grp.bankError}`, 'error', { offset: grp.offset });
    }
    if (grp.constError && !this.constReported.has(grp)) {
      this.constReported.add(grp);
      this.diag('r600.alu.const-read', `constant-read rule broken in the instruction group at byte ${grp.offset}: ${grp.constError}`, 'error', { offset: grp.offset });
    }
    const n = grp.insts.length;
    this.stats.aluInstructions += n;
    const res = this.res;
    const doWrite = this.doWrite;
    doWrite.fill(0, 0, n * this.W);
    const newPv = this.newPv;
    newPv.set(this.pv);
    const srcv = this.srcv;
    const lits = grp.literals;
    const arNew = this.arNew;
    arNew.set(this.ar);
    // Instruction by instruction, lane by lane: each lane still sees its own predicate, queue and
    // KILL updates in slot order, and nothing is written to GPRs before the whole group has read.
    for (let i = 0; i < n; i++) {
      const inst = grp.insts[i]!;
      const op = inst.op;
      if (!op) {
        this.diag('r600.alu.unknown', `unknown ALU ${inst.enc} opcode ${inst.code}`, 'error');
        continue;
      }
      const kind = kindOf(inst);
      const name = op.name;
      const nsrc = op.srcs;
      const fn = kind === K_PLAIN ? ALU_FN[name] : undefined;
      if (kind === K_PLAIN && !fn) {
        this.diag('r600.alu.unsupported', `${name} is not modelled`, 'warning');
        continue;
      }
      if ((kind === K_F64 || kind === K_F64T || name === 'FMA' || (kind === K_PRED && name.endsWith('_64'))) && this.opts.fp64 === false && !this.noFp64Reported.has(inst)) {
        this.noFp64Reported.add(inst);
        this.diag('r600.alu.no-fp64', `${name} needs FMA / double-precision hardware, which this chip does not have`, 'error', { offset: inst.offset });
      }
      const cmp = kind === K_PRED || kind === K_KILL ? compareOf(name) : undefined;
      const post = inst.omod !== 0 || inst.clamp;
      const baseWrite = inst.enc === 'op3' || inst.writeMask;
      let reported = false;
      for (let l = 0; l < this.W; l++) {
        if (!exec[l]) continue;
        // A predicated-off instruction reads nothing (no LDS queue pop) and writes nothing.
        if (inst.predSel === 2 ? this.pred[l] !== 0 : inst.predSel === 3 ? this.pred[l] !== 1 : false) continue;
        for (let k = 0; k < nsrc; k++) srcv[k] = this.readSrc(inst, k, l, lits, c);
        let r = 0;
        let write = baseWrite;
        this.stats.laneOps++;
        switch (kind) {
          case K_PLAIN:
            r = fn!(srcv[0]!, srcv[1]!, srcv[2]!);
            break;
          case K_LDS:
            r = this.ldsOp(name, l, srcv[0]!, srcv[1]!, srcv[2]!, inst.ldsOffset);
            write = false;
            break;
          case K_PRED:
          case K_KILL: {
            let pass = false;
            // The predicate-counter ops (*_PUSH, POP, RESTORE, INV, CLR) compute a new counter; the
            // plain compares write 1.0 / 0.0.
            const ctr = kind === K_PRED ? predCounterOp(name, srcv[0]!, srcv[1]!) : undefined;
            if (ctr) {
              pass = ctr[0];
              r = ctr[1];
            } else if (kind === K_PRED && name.endsWith('_64')) {
              // PRED_SETE/GT/GE_64: a double compare on a slot pair like SETE_64 (even slot: high
              // dwords, odd slot: low); both slots set the predicate, and write 1.0 / 0.0 as a double.
              const mate = f64Mate(grp, inst);
              if (!mate) {
                if (!reported && (reported = true)) this.diag('r600.alu.f64-pair', `${name} in slot ${'xyzwt'[inst.slot]} needs its pair slot (x/y or z/w) to hold ${name} too`, 'error', { offset: inst.offset });
              } else {
                const even = inst.slot % 2 === 0 ? inst : mate;
                const odd = even === inst ? mate : inst;
                const a = D(this.pairSrc(even, inst, 0, l, lits, c), this.pairSrc(odd, inst, 0, l, lits, c));
                const b = D(this.pairSrc(even, inst, 1, l, lits, c), this.pairSrc(odd, inst, 1, l, lits, c));
                pass = name === 'PRED_SETE_64' ? a === b : name === 'PRED_SETGT_64' ? a > b : a >= b;
              }
              r = pass && inst.slot % 2 === 1 ? 0x3ff00000 : 0;
            } else {
              if (cmp) pass = cmp(srcv[0]!, srcv[1]!);
              r = pass ? 0x3f800000 : 0;
            }
            if (kind === K_KILL) {
              if (pass) this.valid[l] = 0;
            } else {
              if (inst.updatePred) this.pred[l] = pass ? 1 : 0;
              if (inst.updateExecMask) this.pendingExec[l] = pass ? 1 : 0;
            }
            break;
          }
          case K_MOVA: {
            const v = name === 'MOVA_INT' ? srcv[0]! | 0 : name === 'MOVA' ? Math.round(F(srcv[0]!)) : Math.floor(F(srcv[0]!));
            // Cayman's MOVA_INT picks its target with DST_GPR: 0 AR.x, 2 CF_IDX0, 3 CF_IDX1.
            if (this.opts.gen === 'cayman' && inst.dstGpr >= 2) this.cfIdx[inst.dstGpr - 2] = v;
            else arNew[(this.opts.gen === 'cayman' ? 0 : inst.dstChan) * this.W + l] = v;
            r = srcv[0]!;
            write = false;
            break;
          }
          case K_PREV: {
            // *_PREV: the other operand is the result of the previous slot of this group.
            let p = -1;
            for (let j = 0; j < i; j++) if (grp.insts[j]!.slot === inst.slot - 1) p = j;
            if (p < 0) {
              if (!reported && (reported = true)) this.diag('r600.alu.prev-slot', `${name} in slot ${'xyzwt'[inst.slot]} has no previous slot in its group`, 'error', { offset: inst.offset });
              r = 0;
            } else r = prevOp(name, srcv[0]!, srcv[1]!, res[p * this.W + l]!, l);
            break;
          }
          case K_F64: {
            // 64-bit float ops run on a slot pair (x,y or z,w): the even slot's sources hold the
            // high dwords, the odd slot's the low dwords (Mesa's fp64 channel order); the even slot
            // gets the low dword of the result, the odd slot the high one.
            // MUL_64 and FMA_64 are four-slot ops on Cayman (r600_isa.h AF_4V) and Mesa issues them
            // four-wide on every chip: x, y, z carry the high dwords, w the low ones, x and y take
            // the result. In such a group the z/w pair computes and every slot gets its half.
            const wide = FOUR_SLOT_F64.has(name) ? f64Quad(grp, inst) : undefined;
            if (!wide && FOUR_SLOT_F64.has(name) && this.opts.gen === 'cayman' && !reported && (reported = true)) {
              this.diag('r600.alu.f64-pair', `${name} on Cayman uses all four slots (x, y, z with the high dwords, w with the low); slot ${'xyzw'[inst.slot]} is not in such a group`, 'error', { offset: inst.offset });
            }
            const mate = wide ? undefined : f64Mate(grp, inst);
            if (!wide && !mate) {
              if (!reported && (reported = true)) this.diag('r600.alu.f64-pair', `${name} in slot ${'xyzwt'[inst.slot]} needs its pair slot (x/y or z/w) to hold ${name} too`, 'error', { offset: inst.offset });
              r = 0;
              break;
            }
            const even = wide ? wide[0] : inst.slot % 2 === 0 ? inst : mate!;
            const odd = wide ? wide[1] : even === inst ? mate! : inst;
            const hi = [0, 1, 2].map((k) => (k < nsrc ? this.pairSrc(even, inst, k, l, lits, c) : 0));
            const lo = [0, 1, 2].map((k) => (k < nsrc ? this.pairSrc(odd, inst, k, l, lits, c) : 0));
            const out = f64Op(name, hi, lo);
            r = inst.slot % 2 === 0 ? out[0] : out[1];
            break;
          }
          case K_F64T: {
            // Cayman issues the former trans ops in slots x, y and z (r600_isa.h AF_S); x and y carry
            // the low and high dwords of the double.
            if (this.opts.gen === 'cayman' && !reported && !f64TransCayman(grp, inst)) {
              reported = true;
              this.diag('r600.alu.f64-pair', `${name} on Cayman issues in slots x, y and z together (x writes the low dword, y the high); slot ${'xyzw'[inst.slot]} is alone`, 'error', { offset: inst.offset });
            }
            const out = f64TransOp(name, srcv[0]!, srcv[1]!);
            r = inst.dstChan % 2 === 0 ? out[0] : out[1];
            break;
          }
          case K_INTERP: {
            const v = this.interpOp(grp, inst, l, lits, c, !reported);
            reported = true;
            if (v === undefined) write = false;
            else r = v;
            break;
          }
          case K_NONE:
            write = false;
            break;
          case K_CFIDX:
            this.cfIdx[name === 'SET_CF_IDX0' ? 0 : 1] = this.ar[l]!;
            write = false;
            break;
          default:
            r = this.vec4Op(grp, name, l, lits, c);
        }
        if (post) {
          if (inst.omod) r = B(F(r) * [1, 2, 4, 0.5][inst.omod]!);
          if (inst.clamp) {
            const f = F(r);
            r = Number.isNaN(f) ? 0 : f < 0 ? 0 : f > 1 ? 0x3f800000 : r;
          }
        }
        res[i * this.W + l] = r >>> 0;
        doWrite[i * this.W + l] = write ? 1 : 0;
        newPv[inst.slot * this.W + l] = r >>> 0;
      }
    }
    // All slots read before any writes: commit the group.
    for (let i = 0; i < n; i++) {
      const inst = grp.insts[i]!;
      for (let l = 0; l < this.W; l++) {
        if (!doWrite[i * this.W + l]) continue;
        let reg = inst.dstGpr;
        if (inst.dstRel) reg += this.relIndex(inst, l);
        if (reg < 0 || reg >= this.ngpr) {
          this.diag('r600.alu.gpr-out-of-range', `relative destination T${reg} out of range: write dropped`, 'error', { lane: l });
          continue;
        }
        this.gpr[(reg * 4 + inst.dstChan) * this.W + l] = res[i * this.W + l]!;
      }
    }
    this.pv.set(newPv);
    this.pvValid = true;
    this.ar.set(arNew);
  }

  /** DOT4-style ops read src0/src1 of all four vector slots of the group. */
  private vec4Op(grp: AluGroup, name: string, l: number, lits: readonly number[], c: CfInst): number {
    let acc = name === 'MAX4' ? -Infinity : 0;
    for (const inst of grp.insts) {
      if (inst.slot > 3 || inst.op?.name !== name) continue;
      const a = F(this.readSrc(inst, 0, l, lits, c));
      if (name === 'MAX4') acc = Math.max(acc, a);
      else {
        const b = F(this.readSrc(inst, 1, l, lits, c));
        acc = Math.fround(acc + (name === 'DOT4' && (a === 0 || b === 0) ? 0 : Math.fround(a * b)));
      }
    }
    return B(acc);
  }

  private ldsCheck(addr: number, size: number, l: number): boolean {
    if (addr < 0 || addr + size > this.lds.length) {
      this.diag('r600.lds.out-of-range', `LDS access of ${size} bytes at ${addr} outside the ${this.lds.length}-byte LDS`, 'error', { lane: l, addr });
      return false;
    }
    return true;
  }

  private ldsOp(name: string, l: number, a: number, b: number, c: number, idxOffset = 0): number {
    this.stats.ldsOps++;
    const dv = this.ldsView;
    const rd = (): number => (this.ldsCheck(a, 4, l) ? dv.getUint32(a, true) : 0);
    const wr = (v: number): void => {
      if (this.ldsCheck(a, 4, l)) dv.setUint32(a, v >>> 0, true);
    };
    const atomic = (f: (old: number) => number, ret: boolean): number => {
      const old = rd();
      wr(f(old));
      if (ret) this.oqPush(l, old);
      return old;
    };
    const base = name.replace(/_RET$/, '');
    const ret = name.endsWith('_RET');
    switch (base) {
      case 'LDS_WRITE': wr(b); return 0;
      // Two dwords: B at A and C at A + 4 * IDX_OFFSET (Mesa writes a vec2 with IDX_OFFSET 1).
      case 'LDS_WRITE_REL': {
        wr(b);
        const a2 = (a + 4 * idxOffset) >>> 0;
        if (this.ldsCheck(a2, 4, l)) dv.setUint32(a2, c >>> 0, true);
        return 0;
      }
      case 'LDS_BYTE_WRITE': if (this.ldsCheck(a, 1, l)) dv.setUint8(a, b & 255); return 0;
      case 'LDS_SHORT_WRITE': if (this.ldsCheck(a, 2, l)) dv.setUint16(a, b & 0xffff, true); return 0;
      case 'LDS_READ': this.oqPush(l, rd()); return 0;
      case 'LDS_BYTE_READ': this.oqPush(l, this.ldsCheck(a, 1, l) ? dv.getInt8(a) >>> 0 : 0); return 0;
      case 'LDS_UBYTE_READ': this.oqPush(l, this.ldsCheck(a, 1, l) ? dv.getUint8(a) : 0); return 0;
      case 'LDS_SHORT_READ': this.oqPush(l, this.ldsCheck(a, 2, l) ? dv.getInt16(a, true) >>> 0 : 0); return 0;
      case 'LDS_USHORT_READ': this.oqPush(l, this.ldsCheck(a, 2, l) ? dv.getUint16(a, true) : 0); return 0;
      case 'LDS_ADD': return atomic((o) => o + b, ret);
      case 'LDS_SUB': return atomic((o) => o - b, ret);
      case 'LDS_RSUB': return atomic((o) => b - o, ret);
      case 'LDS_INC': return atomic((o) => (o >= b ? 0 : o + 1), ret);
      case 'LDS_DEC': return atomic((o) => (o === 0 || o > b ? b : o - 1), ret);
      case 'LDS_MIN_INT': return atomic((o) => ((o | 0) < (b | 0) ? o : b), ret);
      case 'LDS_MAX_INT': return atomic((o) => ((o | 0) > (b | 0) ? o : b), ret);
      case 'LDS_MIN_UINT': return atomic((o) => (o < b ? o : b), ret);
      case 'LDS_MAX_UINT': return atomic((o) => (o > b ? o : b), ret);
      case 'LDS_AND': return atomic((o) => o & b, ret);
      case 'LDS_OR': return atomic((o) => o | b, ret);
      case 'LDS_XOR': return atomic((o) => o ^ b, ret);
      case 'LDS_MSKOR': return atomic((o) => (o & ~b) | c, ret);
      case 'LDS_XCHG': return atomic(() => b, ret);
      case 'LDS_CMP_XCHG': case 'LDS_CMP_STORE': return atomic((o) => (o === b ? c : o), ret);
      default:
        this.diag('r600.lds.unsupported', `${name} is not modelled`, 'warning');
        return 0;
    }
  }

  /**
   * A GDS clause: each MEM_GDS instruction runs for the passing work-items in lane order on the
   * dispatch's 64 KiB GDS. Sources come from SRC_GPR with SRC_SEL_X/Y/Z = address (bytes), data0,
   * data1; the returned (pre-op) value goes to DST_GPR through DST_SEL (0 the value, 1 the second
   * dword of the *2 forms, 4 zero, 5 1.0, 7 unchanged). Choices: the *2 forms address the two
   * consecutive dwords at the address; ALLOC_CONSUME gives each item old + its prefix, which equals
   * running the op lane by lane; BCAST_FIRST_REQ runs the op once, for the first passing item, and
   * hands every passing item its result.
   */
  private gdsClause(c: CfInst): void {
    for (const g of c.gdsClause!) {
      if (g.memInst !== 2 || (g.memOp !== 4 && g.memOp !== 5)) {
        this.diag('r600.gds.unknown', `MEM_INST ${g.memInst} / MEM_OP ${g.memOp} is not a GDS instruction (MEM_INST 2, MEM_OP 4 or 5)`, 'error', { offset: g.offset });
        continue;
      }
      if (g.memOp === 5) {
        this.diag('r600.cf.not-in-compute', 'TF_WRITE (tessellation factors) has no effect in a compute shader', 'info');
        continue;
      }
      const name = g.op?.name ?? '';
      if (!g.op || /_REL|READWRITE|ORDERED_ALLOC/.test(name)) {
        // No semantics in the documents gpusim follows: the GDS word has no IDX_OFFSET for the
        // second address of a _REL pair (LDS_WRITE_REL's is modelled), READWRITE_RET has no operand
        // roles, and ORDERED_ALLOC's wave-ordering protocol is not described.
        const why = !g.op ? 'unknown GDS_OP' : /ORDERED_ALLOC/.test(name) ? 'its wave-ordering protocol is not documented' : /_REL/.test(name) ? 'the GDS word has no IDX_OFFSET for the second address of a _REL pair' : 'its operand roles are not documented';
        this.diag('r600.gds.unsupported', `${name || 'GDS_OP ' + g.gdsOp} is not modelled: ${why}`, 'warning', { offset: g.offset });
        continue;
      }
      if ((g.srcRel > 1 || g.dstRel > 1) || g.uavIndexMode) this.diag('r600.gds.unsupported', `SRC_REL/DST_REL ${g.srcRel}/${g.dstRel} or UAV_INDEX_MODE ${g.uavIndexMode} is not modelled (only 1, relative to aL)`, 'warning', { offset: g.offset });
      const aL = this.stack[this.innermostLoop()]?.aL ?? 0;
      const srcReg = g.srcGpr + (g.srcRel === 1 ? aL : 0);
      const dstReg = g.dstGpr + (g.dstRel === 1 ? aL : 0);
      if (srcReg < 0 || srcReg >= this.ngpr || dstReg < 0 || dstReg >= this.ngpr) {
        this.diag('r600.alu.gpr-out-of-range', `GDS register T${srcReg} / T${dstReg} out of range`, 'error', { offset: g.offset });
        continue;
      }
      let first: readonly [number, number] | undefined;
      for (let l = 0; l < this.W; l++) {
        if (!this.activeTest(l, c.wholeQuadMode, c.validPixelMode)) continue;
        const sv = (k: number): number => {
          const sel = g.srcSel[k]!;
          return sel < 4 ? this.gpr[(srcReg * 4 + sel) * this.W + l]! : sel === 5 ? 0x3f800000 : 0;
        };
        let ret: readonly [number, number];
        if (g.bcastFirstReq && first) ret = first;
        else {
          this.stats.gdsOps++;
          ret = this.gdsOp(name, sv(0), sv(1), sv(2), l);
          first = ret;
        }
        if (!g.op.ret) continue;
        for (let ch = 0; ch < 4; ch++) {
          const sel = g.dstSel[ch]!;
          if (sel === 7) continue;
          const v = sel === 0 ? ret[0] : sel === 1 ? ret[1] : sel === 5 ? 0x3f800000 : 0;
          this.gpr[(dstReg * 4 + ch) * this.W + l] = v >>> 0;
        }
      }
    }
  }

  private gdsCheck(addr: number, size: number, l: number): boolean {
    if (addr + size > this.opts.resources.gds.length) {
      this.diag('r600.gds.out-of-range', `GDS access of ${size} bytes at ${addr} outside the ${this.opts.resources.gds.length}-byte GDS`, 'error', { lane: l, addr });
      return false;
    }
    return true;
  }

  /** One GDS op for one work-item; returns the value(s) it hands back. */
  private gdsOp(name: string, a: number, b: number, c: number, l: number): [number, number] {
    const dv = this.gdsView;
    const base = name.slice(4).replace(/_RET$/, '');
    const rd = (at: number): number => (this.gdsCheck(at, 4, l) ? dv.getUint32(at, true) : 0);
    const wr = (at: number, v: number): void => {
      if (this.gdsCheck(at, 4, l)) dv.setUint32(at, v >>> 0, true);
    };
    switch (base) {
      case 'READ': return [rd(a), 0];
      case 'READ2': return [rd(a), rd(a + 4)];
      case 'BYTE_READ': return [this.gdsCheck(a, 1, l) ? dv.getInt8(a) >>> 0 : 0, 0];
      case 'UBYTE_READ': return [this.gdsCheck(a, 1, l) ? dv.getUint8(a) : 0, 0];
      case 'SHORT_READ': return [this.gdsCheck(a, 2, l) ? dv.getInt16(a, true) >>> 0 : 0, 0];
      case 'USHORT_READ': return [this.gdsCheck(a, 2, l) ? dv.getUint16(a, true) : 0, 0];
      case 'BYTE_WRITE': if (this.gdsCheck(a, 1, l)) dv.setUint8(a, b & 255); return [0, 0];
      case 'SHORT_WRITE': if (this.gdsCheck(a, 2, l)) dv.setUint16(a, b & 0xffff, true); return [0, 0];
      case 'WRITE2': wr(a, b); wr(a + 4, c); return [0, 0];
      case 'XCHG2': {
        const o = [rd(a), rd(a + 4)] as [number, number];
        wr(a, b);
        wr(a + 4, c);
        return o;
      }
      default: {
        const o = rd(a);
        const v = dsRmw(base, o, b, c);
        if (v === undefined) {
          this.diag('r600.gds.unsupported', `${name} is not modelled`, 'warning', { lane: l });
          return [0, 0];
        }
        wr(a, v);
        return [o, 0];
      }
    }
  }

  private fetchClause(c: CfInst): void {
    const res = this.opts.resources;
    for (const f of c.fetchClause!) {
      this.stats.fetches++;
      if (f.tex) {
        this.texFetch(c, f.tex);
        continue;
      }
      for (let l = 0; l < this.W; l++) {
        if (!this.activeTest(l, c.wholeQuadMode, c.validPixelMode)) continue;
        this.vtx(f, l, res);
      }
    }
  }

  private vtx(f: FetchInst, l: number, res: R600Resources): void {
    const addr = (this.gpr[(f.srcGpr * 4 + f.srcSelX) * this.W + l]! + f.offsetBytes) >>> 0;
    const mem = f.bufferId === 2 ? res.constData : f.bufferId === 1 ? res.global : undefined;
    const n = f.bytes || 4;
    const vals = [0, 0, 0, 0];
    if (!mem) this.diag('r600.fetch.buffer', `vertex buffer ${f.bufferId} is not bound (1: global, 2: constants)`, 'error', { lane: l });
    else if (addr + n > mem.length) this.diag('r600.mem.out-of-range', `fetch of ${n} bytes at ${addr} outside buffer ${f.bufferId} (${mem.length} bytes)`, 'error', { lane: l, addr });
    else {
      const dv = mem === res.global ? this.globalView : this.constView;
      if (n === 1) vals[0] = dv.getUint8(addr);
      else if (n === 2) vals[0] = dv.getUint16(addr, true);
      else for (let k = 0; k < n / 4; k++) vals[k] = dv.getUint32(addr + 4 * k, true);
    }
    for (let ch = 0; ch < 4; ch++) {
      const s = f.dstSel[ch]!;
      if (s === 7) continue;
      const v = s < 4 ? vals[s]! : s === 4 ? 0 : s === 5 ? 0x3f800000 : 0;
      this.gpr[(f.dstGpr * 4 + ch) * this.W + l] = v >>> 0;
    }
  }

  /** Texture sources of every lane (helper lanes included: derivatives read whole quads). */
  private readonly texSrc: Float64Array;
  private readonly texSrcBits: Uint32Array;
  private readonly texOut: Uint32Array;
  /** SET_GRADIENTS_H / _V (and KEEP_GRADIENTS) state: grad[(h ? 0 : 4) + chan) * 64 + lane]. */
  private readonly grad: Float64Array;
  /** SET_TEXTURE_OFFSETS state for GATHER4_O / GATHER4_C_O: integer texel offsets, texOffsets[chan * W + lane]. */
  private readonly texOffsets: Int32Array;
  private readonly texAcc = new Float64Array(4);

  private texDiag(t: TexInst, id: string, message: string, lane?: number): void {
    this.diag(id, `${t.op?.llvm ?? `TEX_INST ${t.code}`}: ${message}`, id === 'r600.tex.unsupported' ? 'warning' : 'error', lane === undefined ? {} : { lane });
  }

  /**
   * One texture instruction for every passing work-item. Sources are read for all 64 lanes first
   * (the destination may be the source; derivatives need the whole quad), then results are written.
   */
  private texFetch(c: CfInst, t: TexInst): void {
    const res = this.opts.resources;
    const name = t.op?.name ?? '';
    const rel = (reg: number, isRel: boolean): number => reg + (isRel ? (this.stack[this.innermostLoop()]?.aL ?? 0) : 0);
    const sreg = rel(t.srcGpr, t.srcRel);
    const dreg = rel(t.dstGpr, t.dstRel);
    if (sreg < 0 || sreg >= this.ngpr || dreg < 0 || dreg >= this.ngpr) {
      this.texDiag(t, 'r600.alu.gpr-out-of-range', `texture register T${sreg < 0 || sreg >= this.ngpr ? sreg : dreg} out of range`);
      return;
    }
    const src = this.texSrc, srcBits = this.texSrcBits;
    for (let l = 0; l < this.W; l++) {
      for (let ch = 0; ch < 4; ch++) {
        const sel = t.srcSel[ch]!;
        const b = sel < 4 ? this.gpr[(sreg * 4 + sel) * this.W + l]! : sel === 5 ? 0x3f800000 : 0;
        srcBits[ch * this.W + l] = b;
        src[ch * this.W + l] = F(b);
      }
    }
    const fine = t.instMod === 1 && (this.opts.gen === 'evergreen' || this.opts.gen === 'cayman');
    const quadDelta = (arr: Float64Array, ch: number, l: number, h: boolean): number => {
      const q = l & ~3;
      const row = fine && h ? l & 2 : 0;
      const col = fine && !h ? l & 1 : 0;
      return h ? arr[ch * this.W + q + row + 1]! - arr[ch * this.W + q + row]! : arr[ch * this.W + q + col + 2]! - arr[ch * this.W + q + col]!;
    };
    const out = this.texOut;
    const pass = (l: number): boolean => this.activeTest(l, c.wholeQuadMode || t.fetchWholeQuad, c.validPixelMode);
    switch (name) {
      case 'GET_GRADIENTS_H':
      case 'GET_GRADIENTS_V':
        for (let l = 0; l < this.W; l++) for (let ch = 0; ch < 4; ch++) out[ch * this.W + l] = B(quadDelta(src, ch, l, name === 'GET_GRADIENTS_H'));
        break;
      case 'SET_GRADIENTS_H':
      case 'SET_GRADIENTS_V':
      case 'KEEP_GRADIENTS':
        for (let l = 0; l < this.W; l++) {
          if (!pass(l)) continue;
          for (let ch = 0; ch < 4; ch++) {
            if (name === 'KEEP_GRADIENTS') {
              this.grad[ch * this.W + l] = quadDelta(src, ch, l, true);
              this.grad[(4 + ch) * this.W + l] = quadDelta(src, ch, l, false);
            } else this.grad[((name === 'SET_GRADIENTS_H' ? 0 : 4) + ch) * this.W + l] = src[ch * this.W + l]!;
          }
        }
        return;
      case 'SET_TEXTURE_OFFSETS':
        // Per-pixel integer texel offsets (x, y, z) for the next GATHER4_O / GATHER4_C_O (Mesa
        // emits it with the offset vector of a non-constant textureGatherOffset).
        for (let l = 0; l < this.W; l++) {
          if (!pass(l)) continue;
          for (let ch = 0; ch < 3; ch++) this.texOffsets[ch * this.W + l] = srcBits[ch * this.W + l]! | 0;
        }
        return;
      case 'LD': case 'GET_TEXTURE_RESINFO': case 'GET_LOD':
      case 'SAMPLE': case 'SAMPLE_L': case 'SAMPLE_LB': case 'SAMPLE_LZ': case 'SAMPLE_G': case 'SAMPLE_G_LB':
      case 'SAMPLE_C': case 'SAMPLE_C_L': case 'SAMPLE_C_LB': case 'SAMPLE_C_LZ': case 'SAMPLE_C_G':
      case 'GATHER4': case 'GATHER4_O': case 'GATHER4_C': case 'GATHER4_C_O': {
        const words = res.textures?.get(t.resourceId);
        const r = words ? decodeTexResource(words) : undefined;
        if (!r || r.type !== 2) {
          this.texDiag(t, 'r600.tex.resource', words ? `resource ${t.resourceId} is not a valid texture (TYPE ${r!.type})` : `texture resource ${t.resourceId} is not bound`);
          return;
        }
        if (r.dim === TEX_DIM.CUBEMAP || r.dim >= TEX_DIM.D2_MSAA || r.arrayMode > 1) {
          this.texDiag(t, 'r600.tex.unsupported', r.arrayMode > 1 ? `ARRAY_MODE ${r.arrayMode} (tiled) textures are not modelled` : `texture DIM ${r.dim} is not modelled`);
          return;
        }
        let smp: TexSampler | undefined;
        if (name !== 'LD' && name !== 'GET_TEXTURE_RESINFO') {
          const sw = res.samplers?.get(t.samplerId);
          if (!sw) {
            this.texDiag(t, 'r600.tex.sampler', `sampler ${t.samplerId} is not bound`);
            return;
          }
          smp = decodeTexSampler(sw);
        }
        for (let l = 0; l < this.W; l++) {
          if (!pass(l)) continue;
          const fault = this.texLane(t, name, r, smp, l, quadDelta);
          if (fault) {
            this.texDiag(t, fault.id, fault.message, l);
            for (let ch = 0; ch < 4; ch++) out[ch * this.W + l] = 0;
          }
        }
        break;
      }
      default:
        this.texDiag(t, 'r600.tex.unsupported', 'this texture instruction is not modelled');
        return;
    }
    for (let l = 0; l < this.W; l++) {
      if (!pass(l)) continue;
      for (let ch = 0; ch < 4; ch++) {
        const s = t.dstSel[ch]!;
        if (s === 7) continue;
        this.gpr[(dreg * 4 + ch) * this.W + l] = s < 4 ? out[s * this.W + l]! : s === 5 ? 0x3f800000 : 0;
      }
    }
  }

  /** One lane of a resource-reading texture instruction into texOut. */
  private texLane(t: TexInst, name: string, r: TexResource, s: TexSampler | undefined, l: number, quadDelta: (a: Float64Array, ch: number, l: number, h: boolean) => number): TexFault | undefined {
    const src = this.texSrc, srcBits = this.texSrcBits, out = this.texOut;
    const mem = this.globalView;
    const dims = r.dim === TEX_DIM.D1 || r.dim === TEX_DIM.D1_ARRAY ? 1 : r.dim === TEX_DIM.D3 ? 3 : 2;
    const layerCh = r.dim === TEX_DIM.D1_ARRAY ? 1 : r.dim === TEX_DIM.D2_ARRAY ? 2 : -1;
    const levels = Math.max(1, r.lastLevel - r.baseLevel + 1);
    const put = (k: number, v: number, isInt: boolean): void => { out[k * this.W + l] = isInt ? v >>> 0 : B(v); };
    const isInt = r.numFormat === 1;
    if (name === 'GET_TEXTURE_RESINFO') {
      const lv = texLevel(r, r.baseLevel + (srcBits[l]! | 0));
      put(0, lv.width, true);
      put(1, layerCh === 1 ? r.depth : lv.height, true);
      put(2, dims === 3 || layerCh === 2 ? lv.depth : 1, true);
      put(3, levels, true);
      return undefined;
    }
    const acc = this.texAcc;
    acc.fill(0);
    if (name === 'LD') {
      const iv = (ch: number): number => srcBits[ch * this.W + l]! | 0;
      const level = r.baseLevel + iv(3);
      let inRange = level >= r.baseLevel && level <= Math.max(r.baseLevel, r.lastLevel);
      if (inRange) {
        const lv = texLevel(r, level);
        const x = iv(0) + Math.trunc(t.offset[0]! / 2);
        const y = dims >= 2 ? iv(1) + Math.trunc(t.offset[1]! / 2) : 0;
        const z = dims === 3 ? iv(2) + Math.trunc(t.offset[2]! / 2) : layerCh >= 0 ? iv(layerCh) : 0;
        inRange = x >= 0 && x < lv.width && y >= 0 && y < lv.height && z >= 0 && z < lv.depth;
        if (inRange) {
          const fault = readTexel(r, lv, mem, x, y, z, acc);
          if (fault) return fault;
        }
      }
      if (!inRange) acc.fill(0);
    } else {
      const smp = s!;
      const sz = [r.width, r.height, r.depth];
      const toTexel = (ch: number, v: number, size: number): number => (t.coordNormalized[ch] ? v * size : v);
      // LOD from quad derivatives (implicit) or the SET_GRADIENTS state (SAMPLE_G*), in level-0 texels.
      const lodFrom = (h: (ch: number) => number, v: (ch: number) => number): number => {
        let dx = 0, dy = 0;
        for (let ch = 0; ch < dims; ch++) {
          const scale = t.coordNormalized[ch] ? sz[ch]! : 1;
          dx += (h(ch) * scale) ** 2;
          dy += (v(ch) * scale) ** 2;
        }
        const rho = Math.sqrt(Math.max(dx, dy));
        return rho > 0 ? Math.log2(rho) : -Infinity;
      };
      const implicit = (): number => lodFrom((ch) => quadDelta(src, ch, l, true), (ch) => quadDelta(src, ch, l, false));
      const bias = t.lodBias / 16 + smp.lodBias;
      const w = src[3 * this.W + l]!;
      // SAMPLE_C_L / SAMPLE_C_LB carry the LOD (bias) in W and the compare reference in Z; the other
      // compares take the reference in W (LLVM's old R600 emitter and Mesa's sfn agree).
      const lodInW = name === 'SAMPLE_C_L' || name === 'SAMPLE_C_LB';
      if (lodInW && (r.dim === TEX_DIM.D2_ARRAY || r.dim === TEX_DIM.D3)) return { id: 'r600.tex.unsupported', message: `${name} on a ${r.dim === TEX_DIM.D3 ? '3D' : '2D array'} texture: Z is both a coordinate and the reference` };
      const gather = name.startsWith('GATHER4');
      let lod: number;
      switch (name) {
        case 'SAMPLE_L': case 'SAMPLE_C_L': lod = w + bias; break;
        case 'SAMPLE_LB': case 'SAMPLE_C_LB': lod = implicit() + w + bias; break;
        case 'SAMPLE_LZ': case 'SAMPLE_C_LZ': case 'GATHER4': case 'GATHER4_O': case 'GATHER4_C': case 'GATHER4_C_O': lod = 0; break;
        case 'SAMPLE_G': case 'SAMPLE_G_LB': case 'SAMPLE_C_G':
          lod = lodFrom((ch) => this.grad[ch * this.W + l]!, (ch) => this.grad[(4 + ch) * this.W + l]!) + bias + (name === 'SAMPLE_G_LB' ? w : 0);
          break;
        default: lod = implicit() + bias;
      }
      if (name === 'GET_LOD') {
        // X the computed LOD (biases applied), Y the LOD clamped to the sampler's MIN/MAX_LOD; Mesa
        // swaps them into textureQueryLod's (clamped, computed) order with DST_SEL 1,0.
        put(0, lod, false);
        put(1, Math.min(Math.max(lod, smp.minLod), smp.maxLod), false);
        put(2, 0, false);
        put(3, 0, false);
        return undefined;
      }
      lod = Math.min(Math.max(lod, smp.minLod), smp.maxLod);
      const mag = !(lod > 0);
      const filt = mag ? smp.magFilter : smp.minFilter;
      const last = Math.max(r.baseLevel, r.lastLevel);
      const pick: [number, number][] = [];
      if (smp.mipFilter === 0 || mag) pick.push([r.baseLevel, 1]);
      else if (smp.mipFilter === 1) pick.push([Math.min(last, r.baseLevel + Math.floor(lod + 0.5)), 1]);
      else {
        const lo = Math.floor(lod);
        const a = lod - lo;
        pick.push([Math.min(last, r.baseLevel + lo), 1 - a], [Math.min(last, r.baseLevel + lo + 1), a]);
      }
      const border = [0, 0, 0, 0];
      if (smp.borderType === 1) border[3] = 1;
      else if (smp.borderType === 2) border.fill(1);
      else if (smp.borderType === 3) {
        const bc = this.opts.resources.borderColors?.get(t.samplerId);
        if (bc) for (let k = 0; k < 4; k++) border[k] = bc[k]!;
      }
      const compare = name.startsWith('SAMPLE_C') || name.startsWith('GATHER4_C') ? smp.compare : -1;
      const texOfs = name.endsWith('_O') ? this.texOffsets : undefined;
      const layer = layerCh >= 0 ? Math.min(Math.max(Math.round(src[layerCh * this.W + l]!), r.baseArray), Math.max(r.baseArray, r.lastArray, 0)) : 0;
      for (const [level, weight] of pick) {
        if (weight === 0) continue;
        const lv = texLevel(r, level);
        const lsz = [lv.width, lv.height, lv.depth];
        const coord = (ch: number): number => {
          const v = src[ch * this.W + l]!;
          // Unnormalized coordinates address level-0 texels.
          const tv = t.coordNormalized[ch] ? toTexel(ch, v, lsz[ch]!) : v / 2 ** level;
          return tv + t.offset[ch]! / 2 + (texOfs ? texOfs[ch * this.W + l]! : 0);
        };
        const p = {
          u: coord(0), v: dims >= 2 ? coord(1) : 0, w: dims === 3 ? coord(2) : 0, layer,
          linearXY: filt !== 0, linearZ: smp.zFilter === 2 || (smp.zFilter === 0 && filt !== 0), border, compare, ref: lodInW ? src[2 * this.W + l]! : w,
        };
        const fault = gather ? gatherLevel(r, lv, smp, mem, p, acc) : sampleLevel(r, lv, smp, mem, p, weight, acc);
        if (fault) return fault;
        if (gather) break;
      }
    }
    // The resource's DST_SEL, then the 32-bit patterns.
    const v = [acc[0]!, acc[1]!, acc[2]!, acc[3]!];
    for (let k = 0; k < 4; k++) {
      const sel = r.dstSel[k]!;
      put(k, sel < 4 ? v[sel]! : sel === 5 ? 1 : 0, isInt);
    }
    return undefined;
  }

  /** The data GPR of burst k for lane l, channel ch (RW_REL: relative to the loop index aL). */
  private rwValue(c: CfInst, k: number, l: number, ch: number): number {
    const reg = c.rwGpr + k + (c.rwRel ? (this.stack[this.innermostLoop()]?.aL ?? 0) : 0);
    if (reg < 0 || reg >= this.ngpr) {
      this.diag('r600.alu.gpr-out-of-range', `export data register T${reg} out of range`, 'error', { lane: l });
      return 0;
    }
    return this.gpr[(reg * 4 + ch) * this.W + l]!;
  }

  /**
   * EXPORT / EXPORT_DONE: BURST_COUNT+1 consecutive GPRs go to targets ARRAY_BASE.. of the TYPE
   * (pixel, position, parameter), per passing work-item, through SEL_X..W. The last export of a
   * type must be EXPORT_DONE: an export after it, or a type never closed, is reported.
   */
  private exportOp(c: CfInst): void {
    const type = ['PIXEL', 'POS', 'PARAM', 'TYPE3'][c.exportType]!;
    if (c.exportType === 3) this.diag('r600.export.type', 'export TYPE 3 is reserved (0 pixel, 1 position, 2 parameter)', 'error');
    if (this.exportDone.has(type)) this.diag('r600.export.after-done', `${type} export after that type's EXPORT_DONE`, 'error');
    if (c.op!.name === 'EXPORT_DONE') this.exportDone.add(type);
    else this.exportOpen.add(type);
    const sink = this.opts.resources.exports;
    for (let k = 0; k <= c.burstCount; k++) {
      const key = `${type}${c.arrayBase + k}`;
      let m = sink.get(key);
      if (!m) sink.set(key, (m = new Map()));
      for (let l = 0; l < this.W; l++) {
        if (!this.activeTest(l, c.wholeQuadMode, c.validPixelMode)) continue;
        this.stats.exports++;
        const item = this.id * this.W + l;
        let v = m.get(item);
        if (!v) m.set(item, (v = new Uint32Array(4)));
        for (let ch = 0; ch < 4; ch++) {
          const sel = c.swizzle[ch]!;
          if (sel === 7) continue;
          if (sel === 6) {
            this.diag('r600.export.swizzle', 'SEL 6 is reserved (0..3 channel, 4 zero, 5 one, 7 masked)', 'error');
            continue;
          }
          v[ch] = sel < 4 ? this.rwValue(c, k, l, sel) : sel === 5 ? 0x3f800000 : 0;
        }
      }
    }
  }

  /**
   * MEM_WRITE_SCRATCH / MEM_RING* / MEM_STREAM* / MEM_EXPORT*: element address ARRAY_BASE (+
   * INDEX_GPR.x for the _IND types) + burst k, ELEM_SIZE+1 dwords per element, COMP_MASK channels.
   * Scratch is private to each work-item and TYPE 2/3 read it back into RW_GPR; the other buffers
   * are shared by the dispatch. ACK types count toward WAIT_ACK like RAT writes.
   */
  private memOp(c: CfInst): void {
    const name = c.op!.name;
    const scratch = name === 'MEM_WRITE_SCRATCH';
    const read = scratch && c.exportType >= 2;
    if (!scratch && c.exportType >= 2) this.pendingAcks++;
    const indexed = (c.exportType & 1) === 1;
    const elem = c.elemSize + 1;
    const res = this.opts.resources;
    let buf: Uint32Array;
    if (scratch) buf = this.scratch ??= new Uint32Array(this.W * res.scratchDwords);
    else {
      const key = name.replace(/_COMBINED$/, '');
      let b = res.memBuffers.get(key);
      if (!b) res.memBuffers.set(key, (b = new Uint8Array(64 * 1024)));
      buf = new Uint32Array(b.buffer, b.byteOffset, b.byteLength >>> 2);
    }
    const limit = scratch ? res.scratchDwords : buf.length;
    for (let l = 0; l < this.W; l++) {
      if (!this.activeTest(l, c.wholeQuadMode, c.validPixelMode)) continue;
      const index = indexed ? this.gpr[c.indexGpr * 4 * this.W + l]! | 0 : 0;
      for (let k = 0; k <= c.burstCount; k++) {
        const el = c.arrayBase + index + k;
        if (c.arraySize && (index + k) > c.arraySize) this.diag('r600.mem.array-size', `${name} element ${index + k} past ARRAY_SIZE ${c.arraySize}`, 'warning', { lane: l });
        for (let ch = 0; ch < 4; ch++) {
          if (!((c.compMask >> ch) & 1)) continue;
          const at = el * elem + ch;
          if (ch >= elem || at < 0 || at >= limit) {
            if (ch < elem) this.diag(scratch ? 'r600.scratch.out-of-range' : 'r600.mem.out-of-range', `${name} dword ${at} outside its ${limit}-dword buffer`, 'error', { lane: l, addr: at });
            continue;
          }
          const o = scratch ? l * res.scratchDwords + at : at;
          if (read) {
            const reg = c.rwGpr + k + (c.rwRel ? (this.stack[this.innermostLoop()]?.aL ?? 0) : 0);
            if (reg >= 0 && reg < this.ngpr) this.gpr[(reg * 4 + ch) * this.W + l] = buf[o]!;
          } else buf[o] = this.rwValue(c, k, l, ch);
        }
      }
    }
  }

  private cfExport(c: CfInst): void {
    const name = c.op?.name ?? '';
    if (name === 'EXPORT' || name === 'EXPORT_DONE') return this.exportOp(c);
    if (!name.startsWith('MEM_RAT')) {
      if (/^MEM_(WRITE_SCRATCH|RING|STREAM|EXPORT)/.test(name)) return this.memOp(c);
      this.diag('r600.unsupported', `${name} is not modelled in compute`, 'warning');
      return;
    }
    const rat = c.rat?.name ?? '';
    if (name === 'MEM_RAT_CACHELESS' && !/^(STORE_RAW|STORE_TYPED|STORE_DWORD|STORE_SHORT|STORE_BYTE|NOP_RTN)$/.test(rat))
      this.diag('r600.rat.cacheless-inst', `MEM_RAT_CACHELESS with RAT_INST ${rat || c.ratInst}: only stores and reads are allowed`, 'error');
    if (c.ratIndexMode !== 0) this.diag('r600.rat.index-mode', `RAT_INDEX_MODE=${c.ratIndexMode}: only 0 is supported`, 'warning');
    if (!c.barrier) this.diag('r600.rat.no-barrier', 'RAT write without BARRIER: later CF instructions may run before it completes', 'warning');
    const words = this.opts.resources.rats?.get(c.ratId);
    if (c.ratId !== 0 && !words) this.diag('r600.rat.id', `RAT ${c.ratId} is not bound (RAT 0 is global memory)`, 'error');
    if (c.exportType === 2 || c.exportType === 3) this.pendingAcks++;
    const mem = this.opts.resources.global;
    const dv = this.globalView;
    const surface = words ? decodeRat(words) : undefined;
    const base = surface ? surface.base : 0;
    for (let l = 0; l < this.W; l++) {
      if (!this.activeTest(l, c.wholeQuadMode, c.validPixelMode)) continue;
      this.stats.ratOps++;
      const rd = (ch: number): number => this.rwValue(c, 0, l, ch);
      if (surface && rat === 'STORE_TYPED') {
        // The index GPR's x / y / z are the texel coordinate (TYPE 0/2: texel 0).
        const coord = (ch: number): number => (c.exportType & 1 ? this.gpr[(c.indexGpr * 4 + ch) * this.W + l]! | 0 : 0);
        const f = storeTyped(surface, dv, coord(0), coord(1), coord(2), rd, c.compMask);
        if (f) this.diag(f.id, `RAT ${c.ratId}: ${f.message}`, f.id === 'r600.rat.out-of-range' ? 'warning' : 'error', { lane: l });
        continue;
      }
      // TYPE 1/3 (indexed): element INDEX_GPR.x, ELEM_SIZE+1 dwords per element (LLVM: ELEM_SIZE 0,
      // so a dword index); TYPE 0/2 write element 0.
      const index = (c.exportType & 1 ? this.gpr[(c.indexGpr * 4) * this.W + l]! : 0) * (c.elemSize + 1);
      const at = (k: number): number | undefined => {
        const a = base + (index + k) * 4;
        if (a + 4 > mem.length || a < 0) {
          this.diag('r600.mem.out-of-range', `RAT ${rat} at dword ${index + k} outside global memory`, 'error', { lane: l, addr: a });
          return undefined;
        }
        return a;
      };
      if (/^STORE/.test(rat)) {
        for (let ch = 0; ch < 4; ch++) {
          if (!((c.compMask >> ch) & 1)) continue;
          const a = at(ch);
          if (a !== undefined) dv.setUint32(a, rd(ch), true);
        }
        continue;
      }
      // LLVM 19 passes atomics a byte address where stores get a dword index (Mesa shifts SSBO
      // atomic addresses by 2): with atomicByteAddress the index is taken as a byte address.
      const a = rat === 'MSKOR' || !this.opts.atomicByteAddress ? at(0) : at(0 - index + (index >>> 2));
      if (a === undefined) continue;
      const old = dv.getUint32(a, true);
      const x = rd(0);
      const op = rat.replace(/_RTN$/, '');
      let v: number;
      switch (op) {
        case 'MSKOR': v = (old & ~rd(3)) | x; break;
        case 'ADD': v = old + x; break;
        case 'SUB': v = old - x; break;
        case 'RSUB': v = x - old; break;
        case 'MIN_INT': v = (old | 0) < (x | 0) ? old : x; break;
        case 'MAX_INT': v = (old | 0) > (x | 0) ? old : x; break;
        case 'MIN_UINT': v = old < x ? old : x; break;
        case 'MAX_UINT': v = old > x ? old : x; break;
        case 'AND': v = old & x; break;
        case 'OR': v = old | x; break;
        case 'XOR': v = old ^ x; break;
        case 'XCHG': v = x; break;
        case 'INC_UINT': v = old >= x ? 0 : old + 1; break;
        case 'DEC_UINT': v = old === 0 || old > x ? x : old - 1; break;
        // The compare value is in W (clang-19 on cypress and cayman; Mesa's sfn on Evergreen, which
        // uses Z on Cayman and keeps Y for its return address).
        case 'CMPXCHG_INT': v = old === rd(3) ? x : old; break;
        default:
          this.diag('r600.rat.unsupported', `RAT_INST ${rat || c.ratInst} is not modelled`, 'warning');
          v = old;
      }
      dv.setUint32(a, v >>> 0, true);
    }
  }
}
