/**
 * Shared machinery of the vector memory families (DS in ds.ts, FLAT/GLOBAL/SCRATCH in flat.ts,
 * MUBUF/MTBUF in buffer.ts). Functional model: every access completes at issue; VM_CNT (loads,
 * atomics with return), VS_CNT (stores, atomics without return) and LGKM_CNT (LDS, SMEM) count the
 * operations until an s_waitcnt retires them (waitcnt.ts checks that the program waited).
 *
 * Rules from the wave-state seed ("memory alignment and out-of-range behaviour"):
 * - a destination VGPR range past the allocation makes the instruction issue with EXEC=0
 *   (counters still move, no lane does anything); a source VGPR past it reads VGPR0, register
 *   by register;
 * - SH_MEM_CONFIG.alignment_mode: UNALIGNED (compute default) has no requirement; DWORD aligns
 *   the address down to min(element size, 4); STRICT / DWORD_STRICT also raise MEMVIOL;
 * - atomics must be aligned to their data size, else MEMVIOL (in every mode);
 * - LDS: out-of-range writes are dropped, reads return 0, a multi-dword read with any part out
 *   of range returns all zeros; outside UNALIGNED the LDS clears address LSBs (B32 4, B64 8,
 *   B96/B128 16 bytes).
 */
import type { Instruction } from '../isa/types.js';
import type { Segment } from '../../core/memory.js';
import type { Wave } from '../wave/wave.js';
import { SREG } from '../wave/wave.js';
import { OncePerDispatch, WAVE_STATE_SEED, type AlignMode, type ExecEnv } from '../engine/env.js';
import type { Finding } from '../engine/registry.js';
import { f32, f32bits, f64, f64bits, f64hi } from '../../core/float.js';
import { raiseException, TRAPSTS } from './trap.js';
import { isFast, markFast } from '../engine/fast-registry.js';

export const CNT_MAX = 63;

/** Apertures (upper 32 bits of a flat address select them). */
export const APERTURE = { SHARED: 0x7fff_0000_0000, PRIVATE: 0x7ffe_0000_0000, SIZE: 0x1_0000_0000 } as const;

export function laneOn(w: Wave, l: number): boolean {
  return l < 32 ? ((w.s[SREG.EXEC_LO]! >>> l) & 1) === 1 : ((w.s[SREG.EXEC_HI]! >>> (l - 32)) & 1) === 1;
}

export function popcount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (((x + (x >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

/**
 * Whether global-memory fast paths (direct segment access) may be bound: the fast engine, and no
 * cache model (a cache hook sees memory through `Memory.read32`/`write32`, which they bypass).
 */
export function memFastPaths(env: ExecEnv): boolean {
  return env.engine !== 'interp' && env.cacheHook === undefined;
}

export function alignModeOf(env: ExecEnv): AlignMode {
  return env.alignMode ?? 'unaligned';
}

/**
 * Row offsets (reg * waveSize) of `n` consecutive source VGPRs starting at `reg`; each register
 * past the allocation is replaced by VGPR0 (with one finding for the operand).
 */
export function srcRows(env: ExecEnv, inst: Instruction, reg: number, n: number, what: string, findings: Finding[]): Int32Array {
  const rows = new Int32Array(Math.max(1, n));
  let bad = false;
  for (let k = 0; k < n; k++) {
    const r = reg + k;
    if (r >= env.vgprs) bad = true;
    rows[k] = (r >= env.vgprs ? 0 : r) * env.waveSize;
  }
  if (bad) findings.push({ id: 'gfx11.vgpr.src-out-of-range', message: `${inst.mnemonic}: ${what} v${reg}..v${reg + n - 1} is past the ${env.vgprs} allocated VGPRs; the hardware reads VGPR0 for each register out of range` });
  return rows;
}

/** Destination check: false when any returned VGPR is out of range (the op issues with EXEC=0). */
export function dstInRange(env: ExecEnv, inst: Instruction, reg: number, n: number, findings: Finding[]): boolean {
  if (reg + n > env.vgprs) {
    findings.push({ id: 'gfx11.vgpr.dst-out-of-range', message: `${inst.mnemonic}: destination v${reg}..v${reg + n - 1} is past the ${env.vgprs} allocated VGPRs; the instruction is issued with EXEC=0` });
    return false;
  }
  return true;
}

/** Set while an instruction raised MEMVIOL; `endViolation` turns it into the exception once. */
export const VIOL = { pending: false };

/**
 * After a memory instruction's lanes ran: a MEMVIOL (misaligned atomic, a strict alignment
 * mode's misaligned access) sets TRAPSTS.EXCP_MEM_VIOL and, with a trap handler installed, enters
 * it (MEMVIOL cannot be masked); the saved PC is the next instruction's.
 */
export function endViolation(w: Wave): void {
  VIOL.pending = false;
  raiseException(w, TRAPSTS.EXCP_MEM_VIOL, w.pc);
}

/** Wrap a bound handler so a MEMVIOL flagged during its execution raises the exception. */
export function withViolation<T extends { readonly run: (w: Wave) => void }>(b: T): T {
  const inner = b.run;
  const run = (w: Wave) => {
    inner(w);
    if (VIOL.pending) endViolation(w);
  };
  return { ...b, run: isFast(inner) ? markFast(run) : run };
}

/**
 * A reporter for a run-time rule that fires at most once per instruction (first offending lane).
 * With `memviol`, every call also flags a MEMVIOL exception for the current execution.
 */
export function onceReporter(env: ExecEnv, inst: Instruction, id: string, severity: 'error' | 'warning' = 'warning', memviol = false): (w: Wave, lane: number, address: number, message: string) => void {
  const once = new OncePerDispatch(env);
  return (w, lane, address, message) => {
    if (memviol) VIOL.pending = true;
    if (!once.due) return;
    once.fire();
    env.diag.report({ id, severity, where: { pc: w.pc - inst.size, wave: w.id, lane, address }, message: `${inst.mnemonic}: ${message}`, seed: WAVE_STATE_SEED });
  };
}

// ---- LDS access (byte address inside the workgroup's allocation) -------------------------------

export function ldsRead(w: Wave, a: number, bytes: number): number {
  if (a < 0 || a + bytes > w.lds.length) return 0;
  const dv = w.ldsView;
  return bytes === 4 ? dv.getUint32(a, true) : bytes === 2 ? dv.getUint16(a, true) : dv.getUint8(a);
}
export function ldsWrite(w: Wave, a: number, bytes: number, v: number): void {
  if (a < 0 || a + bytes > w.lds.length) return;
  const dv = w.ldsView;
  if (bytes === 4) dv.setUint32(a, v >>> 0, true);
  else if (bytes === 2) dv.setUint16(a, v & 0xffff, true);
  else dv.setUint8(a, v & 0xff);
}
export function ldsInRange(w: Wave, a: number, bytes: number): boolean {
  return a >= 0 && a + bytes <= w.lds.length;
}

// ---- global memory and scratch ------------------------------------------------------------------

export function memRead(w: Wave, a: number, bytes: number): number {
  return bytes === 4 ? w.mem.read32(a) : bytes === 2 ? w.mem.read16(a) : w.mem.read8(a);
}
export function memWrite(w: Wave, a: number, bytes: number, v: number): void {
  if (bytes === 4) w.mem.write32(a, v >>> 0);
  else if (bytes === 2) w.mem.write16(a, v & 0xffff);
  else w.mem.write8(a, v & 0xff);
}

// ---- global atomics: atomic across the threads of a parallel run ---------------------------------

/**
 * A 32-bit read-modify-write of global memory at `a` (4-byte aligned): new = fn(old, s, c);
 * returns old. On a SharedArrayBuffer segment (a parallel run, src/runtime/parallel.ts) it is a
 * compare-exchange loop, so concurrent workgroups on other threads lose no update; with no
 * contention that is the plain read and write, the same bytes.
 */
export function memAtomic32(w: Wave, a: number, fn: Atomic32, s: number, c: number): number {
  const seg = w.mem.find(a, 4);
  if (seg !== null && seg.shared && seg.u32 !== null && ((a - seg.base) & 3) === 0) {
    const u = seg.u32;
    const i = (a - seg.base) / 4;
    for (;;) {
      const old = Atomics.load(u, i);
      if (Atomics.compareExchange(u, i, old, fn(old, s, c)) === old) return old;
    }
  }
  const old = memRead(w, a, 4);
  memWrite(w, a, 4, fn(old, s, c));
  return old;
}

const B64 = new WeakMap<Segment, BigUint64Array>();

/**
 * The 64-bit form (8-byte aligned `a`): returns the old low dword, the old high dword in R64[0].
 * Shared segments go through a BigUint64Array compare-exchange (64-bit atomics are rare).
 */
export function memAtomic64(w: Wave, a: number, fn: Atomic64, sLo: number, sHi: number, cLo: number, cHi: number): number {
  const seg = w.mem.find(a, 8);
  if (seg !== null && seg.shared && ((a - seg.base) & 7) === 0 && seg.u8.byteOffset % 8 === 0) {
    let u = B64.get(seg);
    if (u === undefined) B64.set(seg, (u = new BigUint64Array(seg.u8.buffer, seg.u8.byteOffset, seg.size >>> 3)));
    const i = (a - seg.base) / 8;
    for (;;) {
      const old = Atomics.load(u, i);
      const oLo = Number(old & 0xffffffffn);
      const oHi = Number(old >> 32n);
      const lo = fn(oLo, oHi, sLo, sHi, cLo, cHi);
      const nv = BigInt(lo >>> 0) | (BigInt(R64[0]! >>> 0) << 32n);
      if (Atomics.compareExchange(u, i, old, nv) === old) {
        R64[0] = oHi;
        return oLo;
      }
    }
  }
  const oLo = memRead(w, a, 4);
  const oHi = memRead(w, a + 4, 4);
  const lo = fn(oLo, oHi, sLo, sHi, cLo, cHi);
  memWrite(w, a, 4, lo);
  memWrite(w, a + 4, 4, R64[0]!);
  R64[0] = oHi;
  return oLo;
}

/** Address of a private-segment byte offset for lane l (lane-major inside the wave's segment). */
export function scratchAddr(w: Wave, off: number, l: number): number {
  return w.scratchBase + l * w.scratchPerLane + off;
}

// ---- atomic operations --------------------------------------------------------------------------

/** Result of a 64-bit operation: low dword returned, high dword in R64[0] (no allocation). */
export const R64 = new Uint32Array(1);

/** 32-bit atomic: (old, src, cmp) -> new. */
export type Atomic32 = (o: number, s: number, c: number) => number;

function fmin(a: number, b: number): number {
  if (Number.isNaN(a)) return b;
  if (Number.isNaN(b)) return a;
  if (a === b) return Object.is(a, -0) || Object.is(b, -0) ? -0 : a;
  return a < b ? a : b;
}
function fmax(a: number, b: number): number {
  if (Number.isNaN(a)) return b;
  if (Number.isNaN(b)) return a;
  if (a === b) return Object.is(a, 0) || Object.is(b, 0) ? 0 : a;
  return a > b ? a : b;
}

/** 32-bit atomics by operation name (the part after `atomic_` / `ds_` without `_rtn`). */
export const ATOMIC32: Readonly<Record<string, Atomic32>> = {
  swap: (_o, s) => s,
  cmpswap: (o, s, c) => (o === c ? s : o),
  cmpswap_f: (o, s, c) => (f32(o) === f32(c) ? s : o),
  add: (o, s) => (o + s) >>> 0,
  sub: (o, s) => (o - s) >>> 0,
  rsub: (o, s) => (s - o) >>> 0,
  csub: (o, s) => (o >= s ? o - s : 0),
  min_i: (o, s) => ((s | 0) < (o | 0) ? s : o),
  max_i: (o, s) => ((s | 0) > (o | 0) ? s : o),
  min_u: (o, s) => (s < o ? s : o),
  max_u: (o, s) => (s > o ? s : o),
  and: (o, s) => (o & s) >>> 0,
  or: (o, s) => (o | s) >>> 0,
  xor: (o, s) => (o ^ s) >>> 0,
  // mskor: src = mask, cmp = data: (old & ~mask) | data
  mskor: (o, s, c) => ((o & ~s) | c) >>> 0,
  inc: (o, s) => (o >= s ? 0 : o + 1),
  dec: (o, s) => (o === 0 || o > s ? s : o - 1),
  add_f: (o, s) => f32bits(f32(o) + f32(s)),
  min_f: (o, s) => f32bits(fmin(f32(o), f32(s))),
  max_f: (o, s) => f32bits(fmax(f32(o), f32(s))),
  // ds_wrap: old >= data ? old - data : old + data2
  wrap: (o, s, c) => (o >= s ? o - s : (o + c) >>> 0),
};

/** 64-bit atomic over dword pairs: returns the new low dword, the new high dword in R64[0]. */
export type Atomic64 = (oLo: number, oHi: number, sLo: number, sHi: number, cLo: number, cHi: number) => number;

function ltU64(aLo: number, aHi: number, bLo: number, bHi: number): boolean {
  return aHi < bHi || (aHi === bHi && aLo < bLo);
}
function ltI64(aLo: number, aHi: number, bLo: number, bHi: number): boolean {
  return (aHi | 0) < (bHi | 0) || (aHi === bHi && aLo < bLo);
}
function ret(lo: number, hi: number): number {
  R64[0] = hi;
  return lo >>> 0;
}
function add64(aLo: number, aHi: number, bLo: number, bHi: number): number {
  const lo = aLo + bLo;
  return ret(lo, aHi + bHi + (lo > 0xffffffff ? 1 : 0));
}
function sub64(aLo: number, aHi: number, bLo: number, bHi: number): number {
  const lo = aLo - bLo;
  return ret(lo, aHi - bHi - (lo < 0 ? 1 : 0));
}
function f64ret(x: number): number {
  const lo = f64bits(x);
  R64[0] = f64hi();
  return lo;
}

export const ATOMIC64: Readonly<Record<string, Atomic64>> = {
  swap: (_ol, _oh, sl, sh) => ret(sl, sh),
  cmpswap: (ol, oh, sl, sh, cl, ch) => (ol === cl && oh === ch ? ret(sl, sh) : ret(ol, oh)),
  cmpswap_f: (ol, oh, sl, sh, cl, ch) => (f64(ol, oh) === f64(cl, ch) ? ret(sl, sh) : ret(ol, oh)),
  add: (ol, oh, sl, sh) => add64(ol, oh, sl, sh),
  sub: (ol, oh, sl, sh) => sub64(ol, oh, sl, sh),
  rsub: (ol, oh, sl, sh) => sub64(sl, sh, ol, oh),
  min_i: (ol, oh, sl, sh) => (ltI64(sl, sh, ol, oh) ? ret(sl, sh) : ret(ol, oh)),
  max_i: (ol, oh, sl, sh) => (ltI64(ol, oh, sl, sh) ? ret(sl, sh) : ret(ol, oh)),
  min_u: (ol, oh, sl, sh) => (ltU64(sl, sh, ol, oh) ? ret(sl, sh) : ret(ol, oh)),
  max_u: (ol, oh, sl, sh) => (ltU64(ol, oh, sl, sh) ? ret(sl, sh) : ret(ol, oh)),
  and: (ol, oh, sl, sh) => ret(ol & sl, oh & sh),
  or: (ol, oh, sl, sh) => ret(ol | sl, oh | sh),
  xor: (ol, oh, sl, sh) => ret(ol ^ sl, oh ^ sh),
  mskor: (ol, oh, sl, sh, cl, ch) => ret((ol & ~sl) | cl, (oh & ~sh) | ch),
  // inc: old >= src ? 0 : old + 1;  dec: old == 0 || old > src ? src : old - 1
  inc: (ol, oh, sl, sh) => (!ltU64(ol, oh, sl, sh) ? ret(0, 0) : add64(ol, oh, 1, 0)),
  dec: (ol, oh, sl, sh) => ((ol === 0 && oh === 0) || ltU64(sl, sh, ol, oh) ? ret(sl, sh) : sub64(ol, oh, 1, 0)),
  add_f: (ol, oh, sl, sh) => f64ret(f64(ol, oh) + f64(sl, sh)),
  min_f: (ol, oh, sl, sh) => f64ret(fmin(f64(ol, oh), f64(sl, sh))),
  max_f: (ol, oh, sl, sh) => f64ret(fmax(f64(ol, oh), f64(sl, sh))),
};

/** Operation key of an atomic mnemonic part: `min_i32` -> `min_i`, `cmpswap_f32` -> `cmpswap_f`, `add_u64` -> `add`. */
export function atomicKey(op: string): { key: string; wide: boolean } | null {
  const m = /^([a-z]+)_([biuf])(32|64)$/.exec(op);
  if (!m) return null;
  const [, name, t, bits] = m;
  let key = name!;
  if (key === 'cmpstore' || key === 'storexchg') key = key === 'cmpstore' ? 'cmpswap' : 'swap';
  if (t === 'f') key += '_f';
  else if ((key === 'min' || key === 'max') && (t === 'i' || t === 'u')) key += '_' + t;
  return { key, wide: bits === '64' };
}

/** Alignment unit an access must respect in the given mode (0 = none), and whether a miss is MEMVIOL. */
export function vmemAlign(mode: AlignMode, elemBytes: number): { unit: number; strict: boolean } {
  if (mode === 'unaligned') return { unit: 1, strict: false };
  if (mode === 'strict') return { unit: elemBytes, strict: true };
  return { unit: Math.min(elemBytes, 4), strict: mode === 'dword-strict' };
}
