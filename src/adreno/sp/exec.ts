/**
 * ir3 instruction semantics over SP wave state (wave.ts), bound once per decoded instruction.
 * Handlers are picked by the isaspec leaf name; each loops over the active lanes and the (rpt)
 * repetitions. Float results round to f32 (Math.fround) or f16 (round to nearest even).
 */
import { f32, f32bits } from '../../core/float.js';
import type { Diagnostics } from '../../core/diagnostics.js';
import type { Memory } from '../../core/memory.js';
import { InputError } from '../../core/errors.js';
import { K, T, f16ToF32, f32ToF16, type Instr, type Operand } from './decode.js';
import { A0, P0, SHARED_HI, SHARED_LO, type Wave } from './wave.js';
import { TEX_HANDLERS, type TexState } from './tex.js';

/** Everything outside the wave an instruction may touch (one dispatch). */
export interface SpContext {
  /** Const file (dwords), constlen*4 long. */
  readonly consts: Uint32Array;
  /**
   * IBO slots (SSBOs then images): bytes, an image's row pitch in bytes (0 for buffers) and the
   * descriptor's dimensions (a buffer's element count in `width`) for resinfo.
   */
  readonly ibo: ({ data: DataView; pitch: number; width?: number; height?: number; depth?: number } | undefined)[];
  /** Fibers are 2x2 quads of fragments (an FS): implicit-LOD sampling differences the quad. */
  readonly quads?: boolean;
  /** Texture state (descriptors, bindless bases, border colours) for cat5 (tex.ts). */
  readonly textures?: TexState | undefined;
  /** GPU memory for ldg/stg (global addresses); absent when the dispatch has none. */
  readonly mem?: Memory | undefined;
  /** UBOs by ir3 UBO index (GL binding + 1), for ldc (UBO ranges not pushed to consts). */
  readonly ubo: (DataView | undefined)[];
  /** a7xx HLSQ_SHARED_CONSTS_IMM[0..63] (dwords) for stsc; absent: zeros. */
  readonly sharedConsts?: Uint32Array | undefined;
  /** Shared (local) memory of the work-group being run. */
  shared: DataView;
  readonly diag: Diagnostics | undefined;
  /** Declared register footprint (full regs, half regs), for diagnostics. */
  readonly maxReg: number;
  readonly maxHalf: number;
  /** Barrier bookkeeping, owned by the scheduler. */
  barGen: number;
}

type Handler = (w: Wave, i: Instr, c: SpContext) => void;

const bitsToF = f32;
const fToBits = f32bits;

/** Raw source bits (u32, or u16 for a half operand) for `lane`, repetition `k`. */
function rd(w: Wave, o: Operand, lane: number, k: number, c: SpContext): number {
  const L = w.lanes;
  switch (o.kind) {
    case K.GPR: {
      const n = o.n + (o.r ? k : 0);
      if (n >= A0) return w.regs[n * L + lane]!;
      if (n >= SHARED_LO && !o.half) return w.regs[n * L]!;
      if (o.half) return w.regs16[((n >> 1) * L + lane) * 2 + (n & 1)]!;
      return w.regs[n * L + lane]!;
    }
    case K.CONST: {
      const n = o.n + (o.r ? k : 0);
      const v = o.half ? c.consts[n >> 1] : c.consts[n];
      if (v === undefined) return 0; // beyond constlen reads 0 (check.ts reports it)
      return o.half ? (n & 1 ? v >>> 16 : v & 0xffff) : v;
    }
    case K.IMM:
      return o.imm >>> 0;
    case K.RELGPR: {
      const n = (w.regs[A0 * L + lane]! | 0) + o.n + k;
      if (n < 0 || n >= A0) return 0;
      if (o.half) return w.regs16[((n >> 1) * L + lane) * 2 + (n & 1)]!;
      return w.regs[n * L + lane]!;
    }
    case K.RELCONST: {
      const n = (w.regs[A0 * L + lane]! | 0) + o.n + k;
      const v = c.consts[o.half ? n >> 1 : n];
      if (v === undefined) return 0;
      return o.half ? (n & 1 ? v >>> 16 : v & 0xffff) : v;
    }
  }
  return 0;
}

/** Raw bits of GPR component `n` (full, or half when `half`), for vector operands (cat6 data). */
function rdReg(w: Wave, n: number, half: boolean, lane: number): number {
  const L = w.lanes;
  if (n >= A0) return w.regs[n * L + lane]!;
  if (half) return w.regs16[((n >> 1) * L + lane) * 2 + (n & 1)]!;
  if (n >= SHARED_LO) return w.regs[n * L]!;
  return w.regs[n * L + lane]!;
}

/** Write `v` (u32 bits, or u16 for a half destination) to the destination, repetition k. */
function wr(w: Wave, o: Operand, lane: number, k: number, v: number): void {
  const L = w.lanes;
  let n = o.n + k;
  if (o.kind === K.RELGPR) n = (w.regs[A0 * L + lane]! | 0) + o.n + k;
  else if (o.kind !== K.GPR) return;
  if (n >= A0) {
    // a0.x/a1.x are signed 16-bit (mova); p0 holds a boolean.
    w.regs[n * L + lane] = o.half && n < P0 ? (v << 16) >> 16 : v;
    return;
  }
  if (n < 0) return;
  if (n >= SHARED_LO && n < SHARED_HI && !o.half) {
    w.regs[n * L] = v;
    return;
  }
  if (o.half) w.regs16[((n >> 1) * L + lane) * 2 + (n & 1)] = v;
  else w.regs[n * L + lane] = v;
}

/** Float value of a source (f32 or f16 by the operand's width) with (abs)/(neg). */
function rdF(w: Wave, o: Operand, lane: number, k: number, c: SpContext): number {
  const b = rd(w, o, lane, k, c);
  let x = o.half ? f16ToF32(b) : bitsToF(b);
  if (o.abs) x = Math.abs(x);
  if (o.neg) x = -x;
  return x;
}

/** Integer value of a source, signed or not, with (abs)/(neg) as integer ops. */
function rdI(w: Wave, o: Operand, lane: number, k: number, c: SpContext, signed: boolean): number {
  let b = rd(w, o, lane, k, c);
  if (o.half) b = signed ? (b << 16) >> 16 : b & 0xffff;
  else b = signed ? b | 0 : b >>> 0;
  if (o.abs) b = Math.abs(b);
  if (o.neg) b = -b;
  return b;
}

function wrF(w: Wave, i: Instr, lane: number, k: number, x: number): void {
  if (i.sat) x = x > 1 ? 1 : x > 0 ? x : 0; // NaN -> 0
  wr(w, i.dst, lane, k, i.dst.half ? f32ToF16(x) : fToBits(x));
}

const reps = (i: Instr): number => i.rpt + 1;

function fop2(fn: (a: number, b: number) => number): Handler {
  return (w, i, c) => {
    const [s1, s2] = i.src as [Operand, Operand | undefined];
    const half = s1.half;
    for (let k = 0; k < reps(i); k++)
      for (let l = 0; l < w.lanes; l++) {
        if (!w.active[l]) continue;
        const a = rdF(w, s1, l, k, c);
        const b = s2 ? rdF(w, s2, l, k, c) : 0;
        const r = fn(a, b);
        wrF(w, i, l, k, half ? f16ToF32(f32ToF16(r)) : Math.fround(r));
      }
  };
}

function iop(signed: boolean, fn: (a: number, b: number, cc: number) => number): Handler {
  return (w, i, c) => {
    const s = i.src;
    const n = s.length;
    for (let k = 0; k < reps(i); k++)
      for (let l = 0; l < w.lanes; l++) {
        if (!w.active[l]) continue;
        const a = rdI(w, s[0]!, l, k, c, signed);
        const b = n > 1 ? rdI(w, s[1]!, l, k, c, signed) : 0;
        const d = n > 2 ? rdI(w, s[2]!, l, k, c, signed) : 0;
        let r = fn(a, b, d) >>> 0;
        if (i.dst.half) r &= 0xffff;
        wr(w, i.dst, l, k, r);
      }
  };
}

const COND = [(a: number, b: number) => a < b, (a: number, b: number) => a <= b, (a: number, b: number) => a > b, (a: number, b: number) => a >= b, (a: number, b: number) => a === b, (a: number, b: number) => a !== b];

function cmps(kind: 'f' | 'u' | 's'): Handler {
  return (w, i, c) => {
    const cond = COND[Number(i.f['COND'] ?? 0)]!;
    const [s1, s2] = i.src as [Operand, Operand];
    for (let k = 0; k < reps(i); k++)
      for (let l = 0; l < w.lanes; l++) {
        if (!w.active[l]) continue;
        const a = kind === 'f' ? rdF(w, s1, l, k, c) : rdI(w, s1, l, k, c, kind === 's');
        const b = kind === 'f' ? rdF(w, s2, l, k, c) : rdI(w, s2, l, k, c, kind === 's');
        const r = cond(a, b) ? 1 : 0;
        wr(w, i.dst, l, k, r);
      }
  };
}

const clz32 = Math.clz32;
function bfrev(x: number): number {
  x = ((x >>> 1) & 0x55555555) | ((x & 0x55555555) << 1);
  x = ((x >>> 2) & 0x33333333) | ((x & 0x33333333) << 2);
  x = ((x >>> 4) & 0x0f0f0f0f) | ((x & 0x0f0f0f0f) << 4);
  x = ((x >>> 8) & 0x00ff00ff) | ((x & 0x00ff00ff) << 8);
  return ((x >>> 16) | (x << 16)) >>> 0;
}
function popcnt(x: number): number {
  x = x - ((x >>> 1) & 0x55555555);
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (((x + (x >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

/** Integer op whose width follows the (half) destination: shifts and bit ops. */
function shiftOp(fn: (a: number, b: number, bits: number) => number): Handler {
  return (w, i, c) => {
    const [s1, s2] = i.src as [Operand, Operand];
    // The sources' width decides the operation; a half destination (DST_CONV) truncates.
    const bits = s1.half ? 16 : 32;
    for (let k = 0; k < reps(i); k++)
      for (let l = 0; l < w.lanes; l++) {
        if (!w.active[l]) continue;
        const a = rdI(w, s1, l, k, c, false);
        const b = rdI(w, s2, l, k, c, false);
        let r = fn(a, b, bits) >>> 0;
        if (i.dst.half) r &= 0xffff;
        wr(w, i.dst, l, k, r);
      }
  };
}

function sel(w: Wave, i: Instr, c: SpContext): void {
  const [s1, s2, s3] = i.src as [Operand, Operand, Operand];
  for (let k = 0; k < reps(i); k++)
    for (let l = 0; l < w.lanes; l++) {
      if (!w.active[l]) continue;
      const cond = rd(w, s2, l, k, c);
      const v = cond !== 0 ? rd(w, s1, l, k, c) : rd(w, s3, l, k, c);
      wr(w, i.dst, l, k, v);
    }
}

function fop3(fn: (a: number, b: number, d: number) => number): Handler {
  return (w, i, c) => {
    const [s1, s2, s3] = i.src as [Operand, Operand, Operand];
    const half = s1.half;
    for (let k = 0; k < reps(i); k++)
      for (let l = 0; l < w.lanes; l++) {
        if (!w.active[l]) continue;
        const r = fn(rdF(w, s1, l, k, c), rdF(w, s2, l, k, c), rdF(w, s3, l, k, c));
        wrF(w, i, l, k, half ? f16ToF32(f32ToF16(r)) : Math.fround(r));
      }
  };
}

/**
 * mad.f32 rounds the product before the add (ir3 lowers GLSL fma() to mul+add and fuses a*b+c
 * into mad, so mad is the unfused form): f32 results here, f16 rounding is done by the caller.
 */
function mad32(a: number, b: number, d: number): number {
  return Math.fround(Math.fround(a * b) + d);
}
function mad16(a: number, b: number, d: number): number {
  return f16ToF32(f32ToF16(f16ToF32(f32ToF16(a * b)) + d));
}

function cat4(fn: (x: number) => number): Handler {
  return (w, i, c) => {
    const s = i.src[0]!;
    for (let k = 0; k < reps(i); k++)
      for (let l = 0; l < w.lanes; l++) {
        if (!w.active[l]) continue;
        const r = fn(rdF(w, s, l, k, c));
        wrF(w, i, l, k, s.half ? f16ToF32(f32ToF16(r)) : Math.fround(r));
      }
  };
}

/** cov/mov: read as SRC_TYPE, convert with ROUND, write as DST_TYPE. */
function mov(w: Wave, i: Instr, c: SpContext): void {
  const st = Number(i.f['SRC_TYPE'] ?? T.U32);
  const dt = Number(i.f['DST_TYPE'] ?? T.U32);
  const round = Number(i.f['ROUND'] ?? 0);
  const s = i.src[0]!;
  for (let k = 0; k < reps(i); k++)
    for (let l = 0; l < w.lanes; l++) {
      if (!w.active[l]) continue;
      const b = rd(w, s, l, k, c);
      wr(w, i.dst, l, k, convert(b, st, dt, round));
    }
}

function toValue(b: number, t: number): number {
  switch (t) {
    case T.F16:
      return f16ToF32(b & 0xffff);
    case T.F32:
      return bitsToF(b);
    case T.U16:
      return b & 0xffff;
    case T.S16:
      return (b << 16) >> 16;
    case T.U32:
      return b >>> 0;
    case T.S32:
      return b | 0;
    case T.U8:
      return b & 0xff;
    default:
      return (b << 24) >> 24;
  }
}

function roundInt(x: number, round: number): number {
  switch (round) {
    case 1: {
      const r = Math.round(x);
      return r - x === 0.5 && r % 2 !== 0 ? r - 1 : r;
    }
    case 2:
      return Math.ceil(x);
    case 3:
      return Math.floor(x);
    default:
      return Math.trunc(x);
  }
}

const RANGE: Record<number, [number, number]> = { [T.U16]: [0, 0xffff], [T.S16]: [-0x8000, 0x7fff], [T.U32]: [0, 0xffffffff], [T.S32]: [-0x80000000, 0x7fffffff], [T.U8]: [0, 0xff], [T.S8]: [-0x80, 0x7f] };

/** Mesa type conversion as cov does it. */
export function convert(b: number, st: number, dt: number, round: number): number {
  if (st === dt) return dt === T.F16 || dt === T.U16 || dt === T.S16 ? b & 0xffff : b >>> 0;
  const sf = st === T.F16 || st === T.F32;
  const df = dt === T.F16 || dt === T.F32;
  const x = toValue(b, st);
  if (df) return dt === T.F32 ? fToBits(Math.fround(x)) : f32ToF16(sf ? x : Math.fround(x));
  let v: number;
  if (sf) {
    if (Number.isNaN(x)) v = 0;
    else {
      const [lo, hi] = RANGE[dt]!;
      v = Math.min(hi, Math.max(lo, roundInt(x, round)));
    }
  } else v = x;
  return dt === T.U32 || dt === T.S32 ? v >>> 0 : dt === T.U8 || dt === T.S8 ? v & 0xff : v & 0xffff;
}

function movmsk(w: Wave, i: Instr): void {
  const n = Number(i.f['W'] ?? 32) / 32;
  for (let l = 0; l < w.lanes; l++) {
    if (!w.active[l]) continue;
    for (let k = 0; k < n; k++) {
      let m = 0;
      for (let b = 0; b < 32; b++) if (w.active[k * 32 + b]) m |= 1 << b;
      wr(w, i.dst, l, k, m >>> 0);
    }
  }
}

// cat0 --------------------------------------------------------------------------------------

function next(w: Wave): void {
  for (let l = 0; l < w.lanes; l++) if (w.active[l]) w.pc[l]!++;
}

function p0(w: Wave, i: Instr, lane: number, which: 1 | 2): boolean {
  const comp = Number(i.f[`COMP${which}`] ?? 0);
  const v = w.regs[(P0 + comp) * w.lanes + lane]! !== 0;
  return Number(i.f[`INV${which}`] ?? 0) ? !v : v;
}

function pred(w: Wave, i: Instr, want: boolean): void {
  // predt: lanes with p0 == want run on; the others skip past the matching predf (or to prede).
  // predf reached by lanes that ran the then half: they go to prede.
  const skip = i.target;
  const end = Number(i.f['PRED_END'] ?? skip);
  for (let l = 0; l < w.lanes; l++) {
    if (!w.active[l]) continue;
    if (i.name === 'predf' && i.f['PRED_ELSE']) w.pc[l] = end;
    else w.pc[l] = p0(w, i, l, 1) === want ? w.pc[l]! + 1 : skip;
  }
}

const CAT0: Record<string, Handler> = {
  nop: (w) => next(w),
  end: (w) => {
    for (let l = 0; l < w.lanes; l++) if (w.active[l]) w.pc[l] = -1;
  },
  jump: (w, i) => {
    for (let l = 0; l < w.lanes; l++) if (w.active[l]) w.pc[l] = i.target;
  },
  br: (w, i) => {
    for (let l = 0; l < w.lanes; l++) if (w.active[l]) w.pc[l] = p0(w, i, l, 1) ? i.target : w.pc[l]! + 1;
  },
  brac: (w, i) => {
    for (let l = 0; l < w.lanes; l++) if (w.active[l]) w.pc[l] = i.target;
  },
  bany: (w, i) => {
    let any = false;
    for (let l = 0; l < w.lanes; l++) if (w.active[l] && p0(w, i, l, 1)) any = true;
    for (let l = 0; l < w.lanes; l++) if (w.active[l]) w.pc[l] = any ? i.target : w.pc[l]! + 1;
  },
  ball: (w, i) => {
    let all = true;
    for (let l = 0; l < w.lanes; l++) if (w.active[l] && !p0(w, i, l, 1)) all = false;
    for (let l = 0; l < w.lanes; l++) if (w.active[l]) w.pc[l] = all ? i.target : w.pc[l]! + 1;
  },
  braa: (w, i) => {
    for (let l = 0; l < w.lanes; l++) if (w.active[l]) w.pc[l] = p0(w, i, l, 1) && p0(w, i, l, 2) ? i.target : w.pc[l]! + 1;
  },
  brao: (w, i) => {
    for (let l = 0; l < w.lanes; l++) if (w.active[l]) w.pc[l] = p0(w, i, l, 1) || p0(w, i, l, 2) ? i.target : w.pc[l]! + 1;
  },
  // a7xx predication: predt/predf open the then/else halves, prede closes. Lanes that do not
  // take a half skip it (to the instruction after predf, or to prede), so the smallest-PC
  // issue runs the then half, then the else half, and the lanes meet at prede.
  predt: (w, i) => pred(w, i, true),
  predf: (w, i) => pred(w, i, false),
  prede: (w) => next(w),
  getlast: (w, i) => {
    // The last active fiber falls through; the others branch to the target.
    let last = -1;
    for (let l = 0; l < w.lanes; l++) if (w.active[l]) last = l;
    for (let l = 0; l < w.lanes; l++) if (w.active[l]) w.pc[l] = l === last ? w.pc[l]! + 1 : i.target;
  },
  getone: (w, i) => {
    // One active fiber falls through; the others branch to the target.
    let first = true;
    for (let l = 0; l < w.lanes; l++) {
      if (!w.active[l]) continue;
      w.pc[l] = first ? w.pc[l]! + 1 : i.target;
      first = false;
    }
  },
  kill: (w, i) => {
    for (let l = 0; l < w.lanes; l++) if (w.active[l]) w.pc[l] = p0(w, i, l, 1) ? -1 : w.pc[l]! + 1;
  },
  // The preamble runs once per dispatch before the waves (runPreamble); in a wave shps skips it.
  shps: (w, i) => {
    for (let l = 0; l < w.lanes; l++) if (w.active[l]) w.pc[l] = i.target;
  },
  shpe: (w) => next(w),
  // a7xx: lock/unlock bracket the end of a shader; nothing to model for one SP.
  lock: (w) => next(w),
  unlock: (w) => next(w),
  // call pushes the return PC on the fiber's call stack and branches; ret pops it.
  call: (w, i) => {
    const st = callStack(w);
    for (let l = 0; l < w.lanes; l++) {
      if (!w.active[l]) continue;
      (st[l] ??= []).push(w.pc[l]! + 1);
      w.pc[l] = i.target;
    }
  },
  ret: (w, i) => {
    const st = callStack(w);
    for (let l = 0; l < w.lanes; l++) {
      if (!w.active[l]) continue;
      const r = st[l]?.pop();
      if (r === undefined) throw new InputError(`ir3: ret at pc ${i.pc} with an empty call stack (lane ${l})`);
      w.pc[l] = r;
    }
  },
};

/** Per-fiber return addresses of call/ret, kept beside the wave. */
const CALLS = new WeakMap<Wave, number[][]>();
function callStack(w: Wave): number[][] {
  let s = CALLS.get(w);
  if (!s) CALLS.set(w, (s = []));
  return s;
}

// cat6 --------------------------------------------------------------------------------------

function iboAddr(w: Wave, i: Instr, c: SpContext, lane: number, b: { pitch: number }, coord: Operand): number {
  const x = rd(w, coord, lane, 0, c);
  const ts = i.dst.half ? 2 : 4;
  if (b.pitch && Number(i.f['D'] ?? 1) >= 2) {
    const y = coord.kind === K.GPR ? rdReg(w, coord.n + 1, false, lane) : 0;
    return y * b.pitch + x * 4;
  }
  return x * ts;
}

function iboOf(w: Wave, i: Instr, c: SpContext, lane: number): NonNullable<SpContext['ibo'][number]> {
  const slot = rd(w, i.ibo!, lane, 0, c);
  const b = c.ibo[slot];
  if (!b) throw new InputError(`ir3: ${i.name} at pc ${i.pc} uses IBO slot ${slot}, which the dispatch does not bind`);
  return b;
}

function inRange(b: { data: DataView }, a: number, n: number): boolean {
  return a >= 0 && a + n <= b.data.byteLength;
}

function ldib(w: Wave, i: Instr, c: SpContext): void {
  const [val, coord] = i.src as [Operand, Operand];
  const n = Number(i.f['TYPE_SIZE'] ?? 1);
  for (let l = 0; l < w.lanes; l++) {
    if (!w.active[l]) continue;
    const b = iboOf(w, i, c, l);
    const a = iboAddr(w, i, c, l, b, coord);
    for (let k = 0; k < n; k++) wr(w, val, l, k, inRange(b, a + 4 * k, 4) ? b.data.getUint32(a + 4 * k, true) : 0);
  }
}

function stib(w: Wave, i: Instr, c: SpContext): void {
  const [val, coord] = i.src as [Operand, Operand];
  const n = Number(i.f['TYPE_SIZE'] ?? 1);
  for (let l = 0; l < w.lanes; l++) {
    if (!w.active[l]) continue;
    const b = iboOf(w, i, c, l);
    const a = iboAddr(w, i, c, l, b, coord);
    for (let k = 0; k < n; k++) if (inRange(b, a + 4 * k, 4)) b.data.setUint32(a + 4 * k, rdReg(w, val.n + k, false, l), true);
  }
}

const ATOMIC: Record<string, (m: number, d: number, cmp: number, signed: boolean) => number> = {
  add: (m, d) => m + d,
  sub: (m, d) => m - d,
  xchg: (_m, d) => d,
  cmpxchg: (m, d, cmp) => (m >>> 0 === cmp >>> 0 ? d : m),
  min: (m, d, _c, s) => (s ? Math.min(m | 0, d | 0) : Math.min(m >>> 0, d >>> 0)),
  max: (m, d, _c, s) => (s ? Math.max(m | 0, d | 0) : Math.max(m >>> 0, d >>> 0)),
  and: (m, d) => m & d,
  or: (m, d) => m | d,
  xor: (m, d) => m ^ d,
  inc: (m) => m + 1,
  dec: (m) => m - 1,
};

function atomicB(op: string): Handler {
  const fn = ATOMIC[op]!;
  return (w, i, c) => {
    // a6xx: SRC1 is the destination (old value) with the data in SRC1+1 (cmpxchg: new value in
    // SRC1+1, the comparand in SRC1+2); SRC2 is the coordinate.
    const [reg, coord] = i.src as [Operand, Operand];
    const signed = Number(i.f['TYPE'] ?? T.U32) === T.S32;
    for (let l = 0; l < w.lanes; l++) {
      if (!w.active[l]) continue;
      const b = iboOf(w, i, c, l);
      const a = iboAddr(w, i, c, l, b, coord);
      const d = rdReg(w, reg.n + 1, false, l);
      const cmp = rdReg(w, reg.n + 2, false, l);
      if (!inRange(b, a, 4)) continue;
      const m = b.data.getUint32(a, true);
      b.data.setUint32(a, fn(m, d, cmp, signed) >>> 0, true);
      wr(w, reg, l, 0, m);
    }
  };
}

function ldc(w: Wave, i: Instr, c: SpContext): void {
  // ldc.offsetN.S dst, SRC1 (vec4 offset), SRC2 (UBO index): S dwords from byte SRC1*16 + N*4.
  const [off, idx] = i.src as [Operand, Operand];
  const comp = Number(i.f['OFFSET'] ?? 0);
  const n = Number(i.f['TYPE_SIZE'] ?? 1);
  for (let l = 0; l < w.lanes; l++) {
    if (!w.active[l]) continue;
    const u = c.ubo[rd(w, idx, l, 0, c)];
    const a = rd(w, off, l, 0, c) * 16 + comp * 4;
    for (let k = 0; k < n; k++) {
      const p = a + 4 * k;
      wr(w, i.dst, l, k, u && p >= 0 && p + 4 <= u.byteLength ? u.getUint32(p, true) : 0);
    }
  }
}

// global memory ------------------------------------------------------------------------------

const fnum = (i: Instr, k: string): number => Number(i.f[k] ?? 0);

/** The 64-bit base address in SRC1 (a GPR pair, or two consts with SRC1_CONST). */
function gBase(w: Wave, i: Instr, c: SpContext, l: number): number {
  const n = fnum(i, 'SRC1.GPR') * 4 + fnum(i, 'SRC1.SWIZ');
  if (fnum(i, 'SRC1_CONST')) return (c.consts[n + 1] ?? 0) * 2 ** 32 + (c.consts[n] ?? 0);
  return rdReg(w, n + 1, false, l) * 2 ** 32 + rdReg(w, n, false, l);
}

/**
 * The address of ldg/stg (SRC1 + OFF bytes) and of the register-offset forms: a6xx ldg.a/stg.a
 * SRC1 + (SRC2 << (SRC2_ADD_DWORD_SHIFT + 2)) + (OFF << 2); a7xx SRC1 + SRC2 + OFF (bytes).
 */
function gAddr(w: Wave, i: Instr, c: SpContext, l: number): number {
  const base = gBase(w, i, c, l);
  if (!i.name.endsWith('.a')) return base + fnum(i, 'OFF');
  const r2 = rdReg(w, fnum(i, 'SRC2.GPR') * 4 + fnum(i, 'SRC2.SWIZ'), false, l);
  if (i.f['SRC2_ADD_DWORD_SHIFT'] !== undefined) return base + r2 * 2 ** (fnum(i, 'SRC2_ADD_DWORD_SHIFT') + 2) + fnum(i, 'OFF') * 4;
  return base + r2 + fnum(i, 'OFF');
}

function memOf(i: Instr, c: SpContext): Memory {
  if (!c.mem) throw new InputError(`ir3: ${i.name} at pc ${i.pc} accesses global memory, which this dispatch does not have`);
  return c.mem;
}

/** ldg / ldg.a DST, g[addr], SIZE: SIZE consecutive components (16-bit with a half type). */
function ldg(w: Wave, i: Instr, c: SpContext): void {
  const mem = memOf(i, c);
  const n = fnum(i, 'SIZE') || 1;
  const half = i.dst.half;
  for (let l = 0; l < w.lanes; l++) {
    if (!w.active[l]) continue;
    const a = gAddr(w, i, c, l);
    for (let k = 0; k < n; k++) wr(w, i.dst, l, k, half ? mem.read16(a + 2 * k) : mem.read32(a + 4 * k));
  }
}

/** stg / stg.a g[addr], SRC3, SIZE. */
function stg(w: Wave, i: Instr, c: SpContext): void {
  const mem = memOf(i, c);
  const n = fnum(i, 'SIZE') || 1;
  const half = fnum(i, 'TYPE_HALF') !== 0;
  const v = fnum(i, 'SRC3.GPR') * 4 + fnum(i, 'SRC3.SWIZ');
  for (let l = 0; l < w.lanes; l++) {
    if (!w.active[l]) continue;
    const a = gAddr(w, i, c, l);
    for (let k = 0; k < n; k++) {
      const x = rdReg(w, v + k, half, l);
      if (half) mem.write16(a + 2 * k, x);
      else mem.write32(a + 4 * k, x);
    }
  }
}

/**
 * atomic.g.<op> DST, SRC1, SRC2 (a6xx+ global atomics): the 64-bit address in the SRC1 pair, the
 * operand in SRC2; DST gets the old value. cmpxchg: the new value in SRC2 and the comparand in
 * SRC2 + 1 (Mesa's ir3_a6xx.c collects (new, compare) for global_atomic_swap). Lanes apply in
 * lane order.
 */
function atomicG(op: string): Handler {
  const fn = ATOMIC[op]!;
  return (w, i, c) => {
    const mem = memOf(i, c);
    const signed = Number(i.f['TYPE'] ?? T.U32) === T.S32;
    const v = fnum(i, 'SRC2.GPR') * 4 + fnum(i, 'SRC2.SWIZ');
    for (let l = 0; l < w.lanes; l++) {
      if (!w.active[l]) continue;
      const a = gBase(w, i, c, l);
      const m = mem.read32(a);
      mem.write32(a, fn(m, rdReg(w, v, false, l), rdReg(w, v + 1, false, l), signed) >>> 0);
      wr(w, i.dst, l, 0, m);
    }
  };
}

/** resinfo.b DST, IBO: the bound image's width, height, depth (a buffer: its element count). */
function resinfo(w: Wave, i: Instr, c: SpContext): void {
  const n = Math.max(1, Number(i.f['D'] ?? 1));
  for (let l = 0; l < w.lanes; l++) {
    if (!w.active[l]) continue;
    const b = iboOf(w, i, c, l);
    const dims = [b.width ?? b.data.byteLength / 4, b.height ?? 1, b.depth ?? 1];
    for (let k = 0; k < n; k++) wr(w, i.dst, l, k, dims[k]!);
  }
}

/**
 * resinfo (the a3xx-style cat6 encoding, still decoded on a6xx/a7xx): DST.. = the first D
 * dimensions of IBO g[SSBO] (an immediate slot or a register), as resinfo.b reports them.
 */
function resinfoA3(w: Wave, i: Instr, c: SpContext): void {
  const n = Math.max(1, fnum(i, 'D'));
  for (let l = 0; l < w.lanes; l++) {
    if (!w.active[l]) continue;
    const slot = fnum(i, 'SSBO_IM') ? fnum(i, 'SSBO.IMMED') : rdReg(w, fnum(i, 'SSBO.GPR') * 4 + fnum(i, 'SSBO.SWIZ'), false, l);
    const b = c.ibo[slot];
    if (!b) throw new InputError(`ir3: ${i.name} at pc ${i.pc} uses IBO slot ${slot}, which the dispatch does not bind`);
    const dims = [b.width ?? b.data.byteLength / 4, b.height ?? 1, b.depth ?? 1];
    for (let k = 0; k < n; k++) wr(w, i.dst, l, k, dims[k]!);
  }
}

/**
 * wmm / wmm.accu (the isaspec doc): SRC1 = x1..x4 and SRC2 = y1..y4 (four consecutive registers
 * each, half unless FULL, (neg) each); result = x_j * (y1 + y2 + y3 + y4), written from DST
 * repeated 1 << (SRC3 / 32) times. wmm.accu adds the result to DST, except that DST's first
 * register is overwritten. Float arithmetic in the source precision (f16 rounded per step when
 * half; the hardware's internal precision is not documented), stored by DST's width.
 */
function wmm(accu: boolean): Handler {
  return (w, i) => {
    const [s1, s2, s3] = i.src as [Operand, Operand, Operand];
    const half = s1.half;
    const rnd = (x: number): number => (half ? f16ToF32(f32ToF16(x)) : Math.fround(x));
    const get = (o: Operand, k: number, l: number, neg: boolean): number => {
      const b = rdReg(w, o.n + k, o.half, l);
      const x = o.half ? f16ToF32(b) : bitsToF(b);
      return neg ? -x : x;
    };
    const reps = 1 << Math.floor(s3.imm / 32);
    const n1 = fnum(i, 'SRC1_NEG') !== 0;
    const n2 = fnum(i, 'SRC2_NEG') !== 0;
    const d = i.dst;
    for (let l = 0; l < w.lanes; l++) {
      if (!w.active[l]) continue;
      let ys = 0;
      for (let k = 0; k < 4; k++) ys = rnd(ys + get(s2, k, l, n2));
      const res = [0, 1, 2, 3].map((k) => rnd(get(s1, k, l, n1) * ys));
      for (let r = 0; r < reps * 4; r++) {
        let v = res[r & 3]!;
        if (accu && r > 0) {
          const b = rdReg(w, d.n + r, d.half, l);
          v = (d.half ? (x: number) => f16ToF32(f32ToF16(x)) : Math.fround)(v + (d.half ? f16ToF32(b) : bitsToF(b)));
        }
        wr(w, d, l, r, d.half ? f32ToF16(v) : fToBits(v));
      }
    }
  };
}

/** getfiberid: the fiber's index in its wave; getwid: the wave's id; getspid: the SP (one here). */
function getId(which: 'fiber' | 'wave' | 'sp'): Handler {
  return (w, i) => {
    for (let l = 0; l < w.lanes; l++) if (w.active[l]) wr(w, i.dst, l, 0, which === 'fiber' ? l : which === 'wave' ? w.id : 0);
  };
}

/** Private memory per fiber (ldp/stp: local arrays spilled out of registers), bytes. */
export const PRIVATE_BYTES = 4096;

function privOf(w: Wave): DataView {
  if (!w.priv) w.priv = new DataView(new ArrayBuffer(PRIVATE_BYTES * w.lanes));
  return w.priv;
}

/** ldl/ldp DST, l|p[SRC+OFF], SIZE. */
function ldMem(priv: boolean): Handler {
  return (w, i, c) => {
    const addr = i.src[0]!;
    const off = Number(i.f['OFF'] ?? 0);
    const n = Number(i.f['SIZE'] ?? 1);
    const half = i.dst.half;
    const sz = half ? 2 : 4;
    const dv = priv ? privOf(w) : c.shared;
    const lim = priv ? PRIVATE_BYTES : c.shared.byteLength;
    for (let l = 0; l < w.lanes; l++) {
      if (!w.active[l]) continue;
      const base = priv ? l * PRIVATE_BYTES : 0;
      const a = rd(w, addr, l, 0, c) + off;
      for (let k = 0; k < n; k++) {
        const p = a + k * sz;
        const ok = p >= 0 && p + sz <= lim;
        wr(w, i.dst, l, k, ok ? (half ? dv.getUint16(base + p, true) : dv.getUint32(base + p, true)) : 0);
      }
    }
  };
}

/** stl/stp l|p[DST+OFF], SRC, SIZE: DST is the address register, SRC the value. */
function stMem(priv: boolean): Handler {
  return (w, i, c) => {
    const f = i.f;
    const addrN = Number(f['DST.GPR'] ?? 0) * 4 + Number(f['DST.SWIZ'] ?? 0);
    const valN = Number(f['SRC.GPR'] ?? 0) * 4 + Number(f['SRC.SWIZ'] ?? 0);
    const half = Number(f['TYPE_HALF'] ?? 0) !== 0;
    const off = Number(f['OFF'] ?? 0);
    const n = Number(f['SIZE'] ?? 1);
    const sz = half ? 2 : 4;
    const dv = priv ? privOf(w) : c.shared;
    const lim = priv ? PRIVATE_BYTES : c.shared.byteLength;
    for (let l = 0; l < w.lanes; l++) {
      if (!w.active[l]) continue;
      const base = priv ? l * PRIVATE_BYTES : 0;
      const a = rdReg(w, addrN, false, l) + off;
      for (let k = 0; k < n; k++) {
        const p = a + k * sz;
        if (p < 0 || p + sz > lim) continue;
        const v = rdReg(w, valN + k, half, l);
        if (sz === 2) dv.setUint16(base + p, v, true);
        else dv.setUint32(base + p, v, true);
      }
    }
  };
}

/**
 * ldc.k c[a1.x], SRC1, SRC2: LOAD_SIZE vec4s of UBO SRC2 from vec4 SRC1 into the const file at
 * a1.x (dwords): a series of ldc + stc (the isaspec doc). Read from the first active fiber.
 */
function ldck(w: Wave, i: Instr, c: SpContext): void {
  const [off, idx] = i.src as [Operand, Operand];
  const l = w.active.indexOf(1);
  if (l < 0) return;
  const u = c.ubo[rd(w, idx, l, 0, c)];
  const src = rd(w, off, l, 0, c) * 16;
  const dst = w.regs[(A0 + 1) * w.lanes + l]! | 0;
  const n = Number(i.f['LOAD_SIZE'] ?? 1) * 4;
  for (let k = 0; k < n; k++) {
    const p = src + 4 * k;
    if (dst + k >= 0 && dst + k < c.consts.length) c.consts[dst + k] = u && p + 4 <= u.byteLength ? u.getUint32(p, true) : 0;
  }
}

/**
 * ldg.k c[DST], g[SRC1 + OFF], SIZE: SIZE vec4s of global memory from the 64-bit address SRC1
 * plus OFF bytes into the const file from component DST (plus a1.x in the relative form), as
 * Mesa's ir3 uses it to copy a UBO range into consts (one vec4 per 16 bytes, the const offset
 * in dwords). A scalar load: the first active fiber's address.
 */
function ldgk(w: Wave, i: Instr, c: SpContext): void {
  const l = w.active.indexOf(1);
  if (l < 0) return;
  const mem = memOf(i, c);
  const a = gBase(w, i, c, l) + fnum(i, 'OFF');
  const rel = i.f['DST'] === '#const-dst-a1';
  const dst = fnum(i, 'DST.OFFSET') + (rel ? w.regs[(A0 + 1) * w.lanes + l]! | 0 : 0);
  const n = fnum(i, 'SIZE') * 4;
  for (let k = 0; k < n; k++) if (dst + k >= 0 && dst + k < c.consts.length) c.consts[dst + k] = mem.read32(a + 4 * k);
}

/**
 * stsc c[DST], SRC, SIZE (a7xx): SIZE dwords of HLSQ_SHARED_CONSTS_IMM from entry SRC (an
 * immediate, or a register's value in the first active fiber) into the const file from
 * component DST (the isaspec doc). Entries past the 64 of the array read 0.
 */
function stsc(w: Wave, i: Instr, c: SpContext): void {
  const l = w.active.indexOf(1);
  if (l < 0) return;
  const src = fnum(i, 'SRC_IM') ? fnum(i, 'SRC.IMMED') : rdReg(w, fnum(i, 'SRC.GPR') * 4 + fnum(i, 'SRC.SWIZ'), false, l);
  const dst = fnum(i, 'DST');
  const n = fnum(i, 'SIZE');
  for (let k = 0; k < n; k++) if (dst + k < c.consts.length) c.consts[dst + k] = c.sharedConsts?.[src + k] ?? 0;
}

function stc(w: Wave, i: Instr, c: SpContext): void {
  // c[OFFSET] counts dwords (c[1] is c0.y); #const-dst-a1 adds a1.x.
  const rel = i.f['DST'] === '#const-dst-a1';
  const n = Number(i.f['SIZE'] ?? 1);
  const s = i.src[0]!;
  for (let l = 0; l < w.lanes; l++) {
    if (!w.active[l]) continue;
    const dst = Number(i.f['DST.OFFSET'] ?? 0) + (rel ? w.regs[(A0 + 1) * w.lanes + l]! | 0 : 0);
    for (let k = 0; k < n; k++) if (dst + k < c.consts.length) c.consts[dst + k] = s.kind === K.GPR ? rdReg(w, s.n + k, s.half, l) : rd(w, s, l, k, c);
  }
}

// table -------------------------------------------------------------------------------------

const u = (fn: (a: number, b: number, d: number) => number): Handler => iop(false, fn);
const s = (fn: (a: number, b: number, d: number) => number): Handler => iop(true, fn);

// cat1 swz / gat / sct: moves (with mov's conversions) that read every source before writing
// any destination (the isaspec: "as-if the moves are executed in parallel").

function gprOp(i: Instr, key: string, half: boolean): Operand {
  return { kind: K.GPR, n: Number(i.f[key + '.REG.GPR'] ?? 0) * 4 + Number(i.f[key + '.REG.SWIZ'] ?? 0), half, neg: false, abs: false, r: false, imm: 0 };
}

function multiMov(pairs: (i: Instr) => [Operand, Operand][]): Handler {
  return (w, i) => {
    const st = Number(i.f['SRC_TYPE'] ?? T.U32);
    const dt = Number(i.f['DST_TYPE'] ?? T.U32);
    const round = Number(i.f['ROUND'] ?? 0);
    const ps = pairs(i);
    const vals = new Array<number>(ps.length);
    for (let l = 0; l < w.lanes; l++) {
      if (!w.active[l]) continue;
      for (let k = 0; k < ps.length; k++) vals[k] = convert(rdReg(w, ps[k]![0].n, ps[k]![0].half, l), st, dt, round);
      for (let k = 0; k < ps.length; k++) wr(w, ps[k]![1], l, 0, vals[k]!);
    }
  };
}

const halves = (i: Instr): [boolean, boolean] => [Number(i.f['HALF'] ?? 0) !== 0, Number(i.f['DST_HALF'] ?? 0) !== 0];
const step1 = (o: Operand, k: number): Operand => ({ ...o, n: o.n + k });

const swz = multiMov((i) => {
  const [sh, dh] = halves(i);
  return [0, 1].map((k) => [gprOp(i, `SRC${k}`, sh), gprOp(i, `DST${k}`, dh)] as [Operand, Operand]);
});
const gat = multiMov((i) => {
  const [sh, dh] = halves(i);
  const d = gprOp(i, 'DST0', dh);
  return [0, 1, 2, 3].map((k) => [gprOp(i, `SRC${k}`, sh), step1(d, k)] as [Operand, Operand]);
});
const sct = multiMov((i) => {
  const [sh, dh] = halves(i);
  const s0 = gprOp(i, 'SRC0', sh);
  return [0, 1, 2, 3].map((k) => [step1(s0, k), gprOp(i, `DST${k}`, dh)] as [Operand, Operand]);
});

// cat5 subgroup shuffles (the isaspec's brcst.active / quad_shuffle docs; quads are fibers 4k..4k+3).

/** quad_shuffle.*: DST = SRC1 of another fiber of the quad (brcst: SRC2's index; horiz/vert/diag: fiber ^ 1/2/3). */
function quadShuffle(x: number): Handler {
  return (w, i, c) => {
    const s = i.src[0]!;
    const vals = new Array<number>(w.lanes);
    for (let l = 0; l < w.lanes; l++) vals[l] = rdReg(w, s.n, s.half, l);
    for (let l = 0; l < w.lanes; l++) {
      if (!w.active[l]) continue;
      const from = x < 0 ? (l & ~3) | (rd(w, i.src[1]!, l, 0, c) & 3) : l ^ x;
      wr(w, i.dst, l, 0, vals[from]!);
    }
  };
}

/**
 * brcst.active.wN: in each cluster of N fibers, the last active fiber of the lower half
 * broadcasts SRC1 to the active fibers of the upper half; other DSTs are unchanged.
 */
function brcstActive(w: Wave, i: Instr): void {
  const n = Number(i.f['CLUSTER_SIZE'] ?? 2);
  const s = i.src[0]!;
  for (let base = 0; base < w.lanes; base += n) {
    let from = -1;
    for (let l = base + n / 2 - 1; l >= base; l--) if (w.active[l]) { from = l; break; }
    if (from < 0) continue;
    const v = rdReg(w, s.n, s.half, from);
    for (let l = base + n / 2; l < base + n; l++) if (w.active[l]) wr(w, i.dst, l, 0, v);
  }
}

/**
 * Local-memory atomics (a3xx-style, still used on a6xx for shared memory): DST = old value of
 * l[SRC1] (bytes), the operand in SRC2 (cmpxchg: the new value in SRC2, the comparand in
 * SRC2 + 1, as Mesa's shared atomic swap collects them). Lanes apply in lane order.
 */
function atomicL(op: string): Handler {
  const fn = ATOMIC[op]!;
  return (w, i, c) => {
    const [addr, val] = i.src as [Operand, Operand];
    const signed = Number(i.f['TYPE'] ?? T.U32) === T.S32;
    for (let l = 0; l < w.lanes; l++) {
      if (!w.active[l]) continue;
      const a = rd(w, addr, l, 0, c);
      if (a < 0 || a + 4 > c.shared.byteLength) continue;
      const m = c.shared.getUint32(a, true);
      const d = rd(w, val, l, 0, c);
      const cmp = val.kind === K.GPR ? rdReg(w, val.n + 1, false, l) : 0;
      c.shared.setUint32(a, fn(m, d, cmp, signed) >>> 0, true);
      wr(w, i.dst, l, 0, m);
    }
  };
}

/**
 * dp2acc / dp4acc (the isaspec doc): DST = dot(SRC1, SRC2) + SRC3 over 8-bit lanes of the
 * registers: all four bytes (dp4acc) or the low/high two (dp2acc, SRC_PACK). SRC_SIGN .mixed:
 * SRC1 signed (i8) and SRC3 int32; .unsigned: u8 and uint32. SRC2 is u8. (sat) clamps to the
 * 32-bit range of that signedness, else the sum wraps.
 */
function dpacc(n: 2 | 4): Handler {
  return (w, i, c) => {
    const mixed = Number(i.f['SRC_SIGN'] ?? 0) === 1;
    const first = n === 2 && Number(i.f['SRC_PACK'] ?? 0) === 1 ? 2 : 0;
    const [s1, s2, s3] = i.src as [Operand, Operand, Operand];
    for (let k = 0; k < reps(i); k++)
      for (let l = 0; l < w.lanes; l++) {
        if (!w.active[l]) continue;
        const a = rd(w, s1, l, k, c);
        const b = rd(w, s2, l, k, c);
        const acc3 = rd(w, s3, l, k, c);
        let r = mixed ? acc3 | 0 : acc3 >>> 0;
        if (s3.neg) r = -r;
        for (let j = first; j < first + n; j++) {
          let x = (a >>> (8 * j)) & 0xff;
          if (mixed) x = (x << 24) >> 24;
          r += x * ((b >>> (8 * j)) & 0xff);
        }
        if (i.sat) r = mixed ? Math.min(0x7fffffff, Math.max(-0x80000000, r)) : Math.min(0xffffffff, Math.max(0, r));
        wr(w, i.dst, l, k, r >>> 0);
      }
  };
}

const HANDLERS: Record<string, Handler> = {
  ...CAT0,
  'add.f': fop2((a, b) => a + b),
  'mul.f': fop2((a, b) => a * b),
  'min.f': fop2((a, b) => (Number.isNaN(a) ? b : Number.isNaN(b) ? a : Math.min(a, b))),
  'max.f': fop2((a, b) => (Number.isNaN(a) ? b : Number.isNaN(b) ? a : Math.max(a, b))),
  'absneg.f': fop2((a) => a),
  'floor.f': fop2((a) => Math.floor(a)),
  'ceil.f': fop2((a) => Math.ceil(a)),
  'trunc.f': fop2((a) => Math.trunc(a)),
  'rndne.f': fop2((a) => roundInt(a, 1)),
  'rndaz.f': fop2((a) => (a < 0 ? -Math.round(-a) : Math.round(a))),
  'sign.f': fop2((a) => (a > 0 ? 1 : a < 0 ? -1 : a)),
  'cmps.f': cmps('f'),
  'cmps.u': cmps('u'),
  'cmps.s': cmps('s'),
  'add.u': u((a, b) => a + b),
  'add.s': s((a, b) => a + b),
  'sub.u': u((a, b) => a - b),
  'sub.s': s((a, b) => a - b),
  'min.u': u((a, b) => Math.min(a, b)),
  'max.u': u((a, b) => Math.max(a, b)),
  'min.s': s((a, b) => Math.min(a, b)),
  'max.s': s((a, b) => Math.max(a, b)),
  'absneg.s': s((a) => a),
  'and.b': u((a, b) => a & b),
  'or.b': u((a, b) => a | b),
  'xor.b': u((a, b) => a ^ b),
  'not.b': u((a) => ~a),
  'shl.b': shiftOp((a, b, bits) => (bits === 16 ? (a << (b & 15)) & 0xffff : a << (b & 31))),
  'shr.b': shiftOp((a, b, bits) => (bits === 16 ? (a & 0xffff) >>> (b & 15) : a >>> (b & 31))),
  'ashr.b': shiftOp((a, b, bits) => (bits === 16 ? ((a << 16) >> 16) >> (b & 15) : (a | 0) >> (b & 31))),
  'bfrev.b': u((a) => bfrev(a)),
  'cbits.b': u((a) => popcnt(a)),
  // 0 (clz.s: 0 and -1) has no set (sign-differing) bit: the result is -1, as findLSB/findMSB need.
  'clz.b': u((a) => (a === 0 ? -1 : clz32(a))),
  'clz.s': s((a) => (a === 0 || a === -1 ? -1 : clz32(a < 0 ? ~a : a))),
  'mull.u': u((a, b) => Math.imul(a & 0xffff, b & 0xffff)),
  'mul.u24': u((a, b) => Math.imul(a & 0xffffff, b & 0xffffff)),
  'mul.s24': u((a, b) => Math.imul((a << 8) >> 8, (b << 8) >> 8)),
  'madsh.m16': u((a, b, d) => d + Math.imul(a & 0xffff, b >>> 16) * 65536),
  'mad.u24': u((a, b, d) => Math.imul(a & 0xffffff, b & 0xffffff) + d),
  'mad.s24': u((a, b, d) => Math.imul((a << 8) >> 8, (b << 8) >> 8) + d),
  'mad.u16': u((a, b, d) => Math.imul(a & 0xffff, b & 0xffff) + d),
  'mad.s16': u((a, b, d) => Math.imul((a << 16) >> 16, (b << 16) >> 16) + d),
  'madsh.u16': u((a, b, d) => (Math.imul(a & 0xffff, b & 0xffff) >>> 16) + d),
  'getbit.b': u((a, b) => (a >>> (b & 31)) & 1),
  'sad.s32': s((a, b, d) => Math.abs(a - b) + d),
  'sad.s16': s((a, b, d) => Math.abs(a - b) + d),
  shrm: u((a, b, d) => (a >>> (b & 31)) & d),
  shlm: u((a, b, d) => (a << (b & 31)) & d),
  shrg: u((a, b, d) => (a >>> (b & 31)) | d),
  shlg: u((a, b, d) => (a << (b & 31)) | d),
  andg: u((a, b, d) => (a & b) | d),
  'sel.b32': sel,
  'sel.b16': sel,
  'sel.s32': sel,
  'sel.s16': sel,
  'sel.f32': sel,
  'sel.f16': sel,
  'mad.f32': fop3(mad32),
  'mad.f16': fop3(mad16),
  rcp: cat4((x) => 1 / x),
  rsq: cat4((x) => 1 / Math.sqrt(x)),
  sqrt: cat4((x) => Math.sqrt(x)),
  log2: cat4((x) => Math.log2(x)),
  exp2: cat4((x) => 2 ** x),
  sin: cat4((x) => Math.sin(x)),
  cos: cat4((x) => Math.cos(x)),
  hrsq: cat4((x) => 1 / Math.sqrt(x)),
  hlog2: cat4((x) => Math.log2(x)),
  hexp2: cat4((x) => 2 ** x),
  'mov-gpr': mov,
  'mov-const': mov,
  'mov-immed': mov,
  'mov-relgpr': mov,
  'mov-relconst': mov,
  movmsk: (w, i) => movmsk(w, i),
  'ldib.b': ldib,
  'stib.b': stib,
  ldc,
  ldl: ldMem(false),
  stl: stMem(false),
  ldp: ldMem(true),
  stp: stMem(true),
  stc,
  bar: () => {},
  fence: () => {},
  ldg,
  'ldg.a': ldg,
  stg,
  'stg.a': stg,
  'resinfo.b': resinfo,
  resinfo: resinfoA3,
  wmm: wmm(false),
  'wmm.accu': wmm(true),
  ...TEX_HANDLERS,
  getfiberid: getId('fiber'),
  getwid: getId('wave'),
  getspid: getId('sp'),
  ldlw: ldMem(false),
  stlw: stMem(false),
  'ldc.k': ldck,
  'ldg.k': ldgk,
  stsc,
  // Cache maintenance and sleep: the model's memory is coherent and untimed, so they change nothing.
  dccln: () => {},
  dcinv: () => {},
  dcflu: () => {},
  icinv: () => {},
  ccinv: () => {},
  tcinv: () => {},
  sleep: () => {},
  dp2acc: dpacc(2),
  dp4acc: dpacc(4),
  swz,
  gat,
  sct,
  'brcst.active': brcstActive,
  'quad_shuffle.brcst': quadShuffle(-1),
  'quad_shuffle.horiz': quadShuffle(1),
  'quad_shuffle.vert': quadShuffle(2),
  'quad_shuffle.diag': quadShuffle(3),
};
for (const op of Object.keys(ATOMIC)) HANDLERS[`atomic.b.${op}`] = atomicB(op);
for (const op of Object.keys(ATOMIC)) HANDLERS[`atomic.g.${op}`] = atomicG(op);
for (const op of Object.keys(ATOMIC)) HANDLERS[`atomic.${op}`] = atomicL(op);

/** Leaf names the executor runs. */
export const IMPLEMENTED: ReadonlySet<string> = new Set(Object.keys(HANDLERS));

/**
 * predt/predf have no branch field: their skip targets come from the code. predt skips to the
 * instruction after the next predf (or to the next prede); predf (lanes that ran the then half)
 * goes to prede. Stored in the records' field maps once, at bind time.
 */
function bindPredication(code: Instr[]): void {
  for (const i of code) {
    if (i.name !== 'predt' && i.name !== 'predf') continue;
    let f = -1;
    let e = code.length;
    for (let k = i.pc + 1; k < code.length; k++) {
      const n = code[k]!.name;
      if (n === 'predf' && f < 0 && i.name === 'predt') f = k;
      if (n === 'prede') {
        e = k;
        break;
      }
    }
    const rec = i as { target: number; f: Record<string, number | string> };
    rec.target = i.name === 'predt' ? (f >= 0 ? f + 1 : e) : e;
    (rec.f as Record<string, number>)['PRED_END'] = e;
    // A predf closing a predt's then half (rather than a standalone predf).
    if (f >= 0) (code[f]!.f as Record<string, number>)['PRED_ELSE'] = 1;
  }
}

/** Bind handlers to decoded instructions; returns the names with no handler (not executable). */
export function bind(code: Instr[]): string[] {
  const missing: string[] = [];
  bindPredication(code);
  for (const i of code) {
    if (i.name === 'raw') continue;
    const h = HANDLERS[i.name];
    if (!h) {
      if (!missing.includes(i.name)) missing.push(i.name);
      continue;
    }
    i.exec = h as Instr['exec'];
  }
  return missing;
}

/** Run one instruction for the wave's active lanes; cat0 handlers move the PCs themselves. */
export function step(w: Wave, i: Instr, c: SpContext): void {
  const h = i.exec as unknown as Handler | undefined;
  if (!h) {
    const hex = (v: number): string => v.toString(16).padStart(8, '0');
    if (i.name === 'raw') throw new InputError(`ir3: no instruction matches at pc ${i.pc}: ${hex(i.hi)}_${hex(i.lo)}`);
    throw new InputError(`ir3: ${i.name} at pc ${i.pc} is not implemented`);
  }
  h(w, i, c);
  if (i.cat !== 0) next(w);
  w.issued++;
}

