/**
 * MUBUF / MTBUF: buffer_* and tbuffer_* through a buffer resource descriptor (V#, four SGPRs at
 * srsrc*4), read in the wave's generation's layout (buffer-formats.gen.ts, generated from Mesa's
 * register database: GFX11 gfx11-rsrc.json, GFX10.3 gfx10-rsrc.json, GFX9 gfx9.json).
 *
 * Addressing (per lane): index = (idxen ? VGPR[vaddr] : 0) + (ADD_TID_ENABLE ? lane : 0);
 * offset = (offen ? VGPR[vaddr + idxen] : 0) + inst_offset; soffset is added to the address but
 * takes no part in range checking or swizzling.
 *   unswizzled: base + soffset + index * stride + offset
 *   swizzled (element 4/8/16 bytes: GFX11 SWIZZLE_ENABLE = 1/2/3; GFX9/GFX10 have a 1-bit
 *   SWIZZLE_ENABLE and no ELEMENT_SIZE, so 4 bytes; INDEX_STRIDE 8/16/32/64):
 *     base + soffset + (index / istride * stride + offset / elem * elem) * istride
 *          + (index % istride) * elem + offset % elem
 * Range checking, GFX10+: by the V#'s OOB_SELECT: STRUCTURED_WITH_OFFSET: index >= num_records or
 * (stride != 0 and offset + size > stride); STRUCTURED: index >= num_records; DISABLED:
 * num_records == 0; RAW: index * stride + offset + size > num_records.
 * GFX9 (no OOB_SELECT; Vega ISA "range checking"): ADD_TID_ENABLE without idxen is a private
 * (scratch) buffer, not checked; idxen with STRIDE != 0 is structured (index >= num_records);
 * otherwise raw, in bytes (offset + size > num_records). With ADD_TID_ENABLE, GFX9's DATA_FORMAT
 * holds STRIDE bits 17:14 (LLVM clears it in its scratch V# for that reason).
 * Out-of-range reads return 0 and writes are dropped, dword by dword (element by element for
 * formatted accesses).
 * *_format_* convert through the V# format (MUBUF: GFX11/GFX10 FORMAT, GFX9 DATA_FORMAT and
 * NUM_FORMAT) or the instruction's format (MTBUF: GFX9 dfmt | nfmt << 4), each generation's
 * numbering; missing components read as 0 (W as 1). DST_SEL is not applied (gpusim limitation).
 */
import type { Instruction } from '../isa/types.js';
import type { Segment } from '../../core/memory.js';
import type { Wave } from '../wave/wave.js';
import { SREG } from '../wave/wave.js';
import type { ExecEnv } from '../engine/env.js';
import { storeCounter } from '../target/space.js';
import { define, type Finding } from '../engine/registry.js';
import { sread32 } from './operands.js';
import {
  ATOMIC32, ATOMIC64, CNT_MAX, R64, alignModeOf, atomicKey, dstInRange, laneOn, ldsWrite, memAtomic32, memAtomic64, memFastPaths, memRead, memWrite, onceReporter,
  srcRows, vmemAlign,
  withViolation,
} from './vmem.js';
import { BUF_FORMATS, BUF_FORMATS_GFX9, OOB_SELECT, SQ_BUF_RSRC, SQ_BUF_RSRC_GFX10, SQ_BUF_RSRC_GFX9, type BufFormat } from './buffer-formats.gen.js';
import { IMG_FORMATS_GFX10 } from './mimg-gfx10.gen.js';
import { cacheInvalidate, withAtomicCaches, withCachePolicy } from '../engine/cache-hook.js';
import { markFast } from '../engine/fast-registry.js';
import { f16, f16bits, f32, f32bits } from '../../core/float.js';

/** A V# field: dword, low bit, width. */
interface Bits { readonly word: number; readonly lo: number; readonly width: number }

/** One generation's V#: its field layout, format numbering and range-check rule. */
export interface BufGen {
  readonly gfx: 9 | 10 | 11;
  readonly STRIDE: Bits;
  readonly SWIZZLE_ENABLE: Bits;
  readonly INDEX_STRIDE: Bits;
  readonly ADD_TID_ENABLE: Bits;
  /** GFX10+: the V#'s OOB_SELECT; GFX9 has none. */
  readonly OOB_SELECT: Bits | null;
  /** GFX10+: FORMAT; GFX9: DATA_FORMAT, with NUM_FORMAT in nfmt. */
  readonly FORMAT: Bits;
  readonly NUM_FORMAT: Bits | null;
  /** Formats by V# format value (GFX9: DATA_FORMAT | NUM_FORMAT << 4) and by MTBUF format field. */
  readonly formats: Readonly<Record<number, BufFormat>>;
}

const GEN11: BufGen = {
  gfx: 11, STRIDE: SQ_BUF_RSRC.STRIDE, SWIZZLE_ENABLE: SQ_BUF_RSRC.SWIZZLE_ENABLE, INDEX_STRIDE: SQ_BUF_RSRC.INDEX_STRIDE,
  ADD_TID_ENABLE: SQ_BUF_RSRC.ADD_TID_ENABLE, OOB_SELECT: SQ_BUF_RSRC.OOB_SELECT, FORMAT: SQ_BUF_RSRC.FORMAT, NUM_FORMAT: null, formats: BUF_FORMATS,
};
const GEN10: BufGen = {
  gfx: 10, STRIDE: SQ_BUF_RSRC_GFX10.STRIDE, SWIZZLE_ENABLE: SQ_BUF_RSRC_GFX10.SWIZZLE_ENABLE, INDEX_STRIDE: SQ_BUF_RSRC_GFX10.INDEX_STRIDE,
  ADD_TID_ENABLE: SQ_BUF_RSRC_GFX10.ADD_TID_ENABLE, OOB_SELECT: SQ_BUF_RSRC_GFX10.OOB_SELECT, FORMAT: SQ_BUF_RSRC_GFX10.FORMAT, NUM_FORMAT: null,
  // GFX10's unified FORMAT numbering is the one its images use (gfx10-rsrc.json GFX10_FORMAT).
  formats: IMG_FORMATS_GFX10,
};
const GEN9: BufGen = {
  gfx: 9, STRIDE: SQ_BUF_RSRC_GFX9.STRIDE, SWIZZLE_ENABLE: SQ_BUF_RSRC_GFX9.SWIZZLE_ENABLE, INDEX_STRIDE: SQ_BUF_RSRC_GFX9.INDEX_STRIDE,
  ADD_TID_ENABLE: SQ_BUF_RSRC_GFX9.ADD_TID_ENABLE, OOB_SELECT: null, FORMAT: SQ_BUF_RSRC_GFX9.DATA_FORMAT, NUM_FORMAT: SQ_BUF_RSRC_GFX9.NUM_FORMAT,
  formats: BUF_FORMATS_GFX9,
};

/** The V# layout of the wave's generation. */
export function bufGen(env: ExecEnv): BufGen {
  return bufGenOf(env.space.gfx);
}

/** The V# layout of a generation by number. */
export function bufGenOf(gfx: 9 | 10 | 11): BufGen {
  return gfx === 9 ? GEN9 : gfx === 10 ? GEN10 : GEN11;
}

/** A generation's buffer format value by name (`32_32_32_32_FLOAT`; GFX9: DATA_FORMAT | NUM_FORMAT << 4), or undefined. */
export function bufFormatByName(G: BufGen, name: string): number | undefined {
  for (const [k, v] of Object.entries(G.formats)) if (v.name === name && (G.gfx !== 10 || Number(k) < 128)) return Number(k);
  return undefined;
}

/** V# fields by meaning; `format` in the generation's numbering, `oob` ignored on GFX9 (it has no OOB_SELECT). */
export interface VsharpFields {
  readonly base: number;
  readonly stride?: number;
  readonly records: number;
  readonly format?: number;
  readonly swizzle?: number;
  readonly indexStride?: number;
  readonly addTid?: boolean;
  readonly oob?: number;
  readonly dst?: readonly [number, number, number, number];
}

/** Pack a V# (four dwords) in a generation's layout. */
export function packVsharp(G: BufGen, v: VsharpFields): number[] {
  const w = [v.base >>> 0, 0, v.records >>> 0, 0];
  const put = (d: Bits | null, x: number): void => {
    if (d === null) return;
    w[d.word] = (w[d.word]! + (x % 2 ** d.width) * 2 ** d.lo) >>> 0;
  };
  put({ word: 1, lo: 0, width: 16 }, Math.floor(v.base / 0x1_0000_0000));
  put(G.STRIDE, (v.stride ?? 0) & ((1 << G.STRIDE.width) - 1));
  put(G.SWIZZLE_ENABLE, v.swizzle ?? 0);
  const dst = v.dst ?? [4, 5, 6, 7];
  for (let i = 0; i < 4; i++) put({ word: 3, lo: 3 * i, width: 3 }, dst[i]!);
  const f = v.format ?? 0;
  put(G.FORMAT, G.NUM_FORMAT === null ? f : f & 15);
  put(G.NUM_FORMAT, f >> 4);
  put(G.INDEX_STRIDE, v.indexStride ?? 0);
  put(G.ADD_TID_ENABLE, v.addTid ? 1 : 0);
  put(G.OOB_SELECT, v.oob ?? OOB_SELECT.RAW);
  return w;
}

/** Range checking that none of OOB_SELECT's values names: GFX9's private (scratch) buffers are not checked. */
const NO_CHECK = 4;

/** The decoded V# of the current instruction (module scratch, filled per execution). */
const V = { base: 0, stride: 0, swz: 0, records: 0, format: 0, istride: 8, addTid: 0, oob: 3 };

const field = (s: Uint32Array | readonly number[], r: number, b: Bits): number => (s[r + b.word]! >>> b.lo) & ((1 << b.width) - 1);

/** Read the V# at SGPR r in generation G's layout; `idxen` picks GFX9's range-check rule. */
function readVsharp(w: Wave, r: number, G: BufGen, idxen: boolean): void {
  const s = w.s;
  V.base = s[r]! + (s[r + 1]! & 0xffff) * 0x1_0000_0000;
  V.stride = field(s, r, G.STRIDE);
  V.swz = field(s, r, G.SWIZZLE_ENABLE);
  V.records = s[r + 2]!;
  V.format = field(s, r, G.FORMAT);
  V.istride = 8 << field(s, r, G.INDEX_STRIDE);
  V.addTid = field(s, r, G.ADD_TID_ENABLE);
  if (G.OOB_SELECT !== null) V.oob = field(s, r, G.OOB_SELECT);
  else {
    V.oob = V.addTid && !idxen ? NO_CHECK : idxen && V.stride !== 0 ? OOB_SELECT.STRUCTURED : OOB_SELECT.RAW;
    // With ADD_TID_ENABLE, DATA_FORMAT is STRIDE[17:14].
    if (V.addTid) V.stride |= V.format << 14;
  }
  if (G.NUM_FORMAT !== null) V.format |= field(s, r, G.NUM_FORMAT) << 4;
}

/** Whether [offset, offset+size) of record `index` is out of range. */
function outOfRange(index: number, offset: number, size: number): boolean {
  switch (V.oob) {
    case OOB_SELECT.STRUCTURED_WITH_OFFSET: return index >= V.records || (V.stride !== 0 && offset + size > V.stride);
    case OOB_SELECT.STRUCTURED: return index >= V.records;
    case OOB_SELECT.DISABLED: return V.records === 0;
    case NO_CHECK: return false;
    default: return index * V.stride + offset + size > V.records;
  }
}

function address(index: number, offset: number, soff: number): number {
  if (V.swz === 0) return V.base + soff + index * V.stride + offset;
  const elem = 2 << V.swz;
  const is = V.istride;
  return V.base + soff + (Math.floor(index / is) * V.stride + (offset - (offset % elem))) * is + (index % is) * elem + (offset % elem);
}

interface Addr {
  readonly G: BufGen;
  readonly rsrc: number;
  readonly idx: number; // row of the index VGPR or -1
  readonly off: number; // row of the offset VGPR or -1
  readonly instOff: number;
  readonly soff: (w: Wave) => number;
}

function bindAddr(inst: Instruction, env: ExecEnv, findings: Finding[]): Addr {
  const f = inst.fields;
  const idxen = (f.idxen ?? 0) === 1;
  const offen = (f.offen ?? 0) === 1;
  const rows = srcRows(env, inst, f.vaddr ?? 0, (idxen ? 1 : 0) + (offen ? 1 : 0), 'address', findings);
  const so = f.soffset ?? SREG.NULL;
  return {
    G: bufGen(env),
    rsrc: ((f.srsrc ?? 0) * 4) & ~3,
    idx: idxen ? rows[0]! : -1,
    off: offen ? rows[idxen ? 1 : 0]! : -1,
    instOff: f.offset ?? 0,
    soff: so === SREG.NULL ? () => 0 : sread32(so, inst.literal),
  };
}

const laneIndex = (w: Wave, a: Addr, l: number) => (a.idx >= 0 ? w.v[a.idx + l]! : 0) + (V.addTid ? l : 0);
const laneOffset = (w: Wave, a: Addr, l: number) => ((a.off >= 0 ? w.v[a.off + l]! : 0) + a.instOff) >>> 0;

function counter(env: ExecEnv, store: boolean): (w: Wave) => void {
  const k = store ? storeCounter(env.space) : 'vmcnt';
  return (w) => void (w[k] < CNT_MAX && w[k]++);
}

// ---- untyped loads and stores -----------------------------------------------------------------

interface Access { store: boolean; bytes: number; count: number; signed: boolean; d16: 'lo' | 'hi' | null; lds: boolean }

function accessOf(mn: string): Access | null {
  const m = /^buffer_(load|store)_(lds_)?(b|u|i|d16_b|d16_u|d16_i|d16_hi_b|d16_hi_u|d16_hi_i)(8|16|32|64|96|128)$/.exec(mn);
  if (!m) return null;
  const store = m[1] === 'store';
  const kind = m[3]!;
  const bits = Number(m[4]);
  const d16 = kind.startsWith('d16_hi') ? 'hi' : kind.startsWith('d16') ? 'lo' : null;
  const lds = m[2] !== undefined;
  if (bits >= 32) return { bytes: 4, count: bits / 32, signed: false, store, d16, lds };
  return { bytes: bits / 8, count: 1, signed: kind.endsWith('i'), store, d16, lds };
}

function bindAccess(inst: Instruction, env: ExecEnv) {
  const acc = accessOf(inst.mnemonic)!;
  const f = inst.fields;
  const ws = env.waveSize;
  const findings: Finding[] = [];
  const A = bindAddr(inst, env, findings);
  const tfe = (f.tfe ?? 0) === 1;
  const data = acc.store ? srcRows(env, inst, f.vdata ?? 0, acc.count, 'data', findings) : null;
  const ok = acc.store || acc.lds || dstInRange(env, inst, f.vdata ?? 0, acc.count + (tfe ? 1 : 0), findings);
  const d = (f.vdata ?? 0) * ws;
  const cnt = counter(env, acc.store);
  const { unit, strict } = vmemAlign(alignModeOf(env), acc.bytes);
  const misaligned = onceReporter(env, inst, 'gfx11.mem.misaligned', 'error', true);
  const ref = (w: Wave) => {
      cnt(w);
      if (!ok) return;
      readVsharp(w, A.rsrc, A.G, A.idx >= 0);
      const soff = A.soff(w);
      const v = w.v;
      let n = 0;
      for (let l = 0; l < ws; l++) {
        if (!laneOn(w, l)) continue;
        n++;
        const index = laneIndex(w, A, l);
        let off = laneOffset(w, A, l);
        if (unit > 1 && off % unit !== 0) {
          if (strict) misaligned(w, l, off, `buffer offset ${off} is not ${unit}-byte aligned under alignment mode ${alignModeOf(env)}: MEMVIOL`);
          off -= off % unit;
        }
        if (acc.lds) {
          // buffer_load_lds_*: the loaded dword goes to LDS[M0[15:0] + inst_offset + lane * 4].
          const x = outOfRange(index, off, acc.bytes) ? 0 : memRead(w, address(index, off, soff), acc.bytes);
          const sx = acc.signed ? (acc.bytes === 1 ? (x << 24) >> 24 : (x << 16) >> 16) : x;
          ldsWrite(w, (w.s[SREG.M0]! & 0xffff) + A.instOff + 4 * l, 4, sx >>> 0);
          continue;
        }
        if (data !== null) {
          if (acc.bytes < 4) {
            if (!outOfRange(index, off, acc.bytes)) memWrite(w, address(index, off, soff), acc.bytes, acc.d16 === 'hi' ? v[data[0]! + l]! >>> 16 : v[data[0]! + l]!);
          } else {
            for (let k = 0; k < acc.count; k++) if (!outOfRange(index, off + 4 * k, 4)) memWrite(w, address(index, off + 4 * k, soff), 4, v[data[k]! + l]!);
          }
        } else if (acc.bytes < 4) {
          let x = outOfRange(index, off, acc.bytes) ? 0 : memRead(w, address(index, off, soff), acc.bytes);
          if (acc.signed) x = acc.bytes === 1 ? (x << 24) >> 24 : (x << 16) >> 16;
          if (acc.d16 === 'lo') v[d + l] = (v[d + l]! & 0xffff0000) | (x & 0xffff);
          else if (acc.d16 === 'hi') v[d + l] = ((v[d + l]! & 0xffff) | (x << 16)) >>> 0;
          else v[d + l] = x >>> 0;
        } else {
          for (let k = 0; k < acc.count; k++) v[d + k * ws + l] = outOfRange(index, off + 4 * k, 4) ? 0 : memRead(w, address(index, off + 4 * k, soff), 4);
        }
        if (tfe) v[d + acc.count * ws + l] = 0;
      }
      w.laneOps += n;
  };
  if (!memFastPaths(env) || acc.bytes !== 4 || acc.lds || unit !== 1 || !ok) return { cls: 'vmem' as const, findings, run: ref };
  // Fast engine, dword loads/stores: an unswizzled V#, every active lane's dwords in range and in
  // one segment at dword-aligned offsets -> the segment's Uint32Array; else the reference path.
  const count = acc.count;
  const fast = (w: Wave): boolean => {
    readVsharp(w, A.rsrc, A.G, A.idx >= 0);
    if (V.swz !== 0) return false;
    const soff = A.soff(w);
    const v = w.v;
    const eLo = w.s[SREG.EXEC_LO]!;
    const eHi = ws === 64 ? w.s[SREG.EXEC_HI]! : 0;
    let seg: Segment | null = null;
    let n = 0;
    for (let l = 0; l < ws; l++) {
      if ((((l < 32 ? eLo >>> l : eHi >>> (l - 32)) & 1)) === 0) continue;
      const index = laneIndex(w, A, l);
      const off = laneOffset(w, A, l);
      // Out-of-range checks are monotonic in the dword: the last one in range means all are.
      if (outOfRange(index, off + 4 * (count - 1), 4)) return false;
      const a = address(index, off, soff);
      if (seg === null) {
        seg = w.mem.find(a, 4 * count);
        if (seg === null || seg.u32 === null) return false;
      }
      if (a < seg.base || a + 4 * count > seg.end || ((a - seg.base) & 3) !== 0) return false;
      IDX[l] = (a - seg.base) / 4;
      n++;
    }
    if (seg === null || seg.u32 === null) return false;
    cnt(w);
    const u32 = seg.u32;
    for (let l = 0; l < ws; l++) {
      if ((((l < 32 ? eLo >>> l : eHi >>> (l - 32)) & 1)) === 0) continue;
      const i = IDX[l]!;
      if (data !== null) for (let k = 0; k < count; k++) u32[i + k] = v[data[k]! + l]!;
      else for (let k = 0; k < count; k++) v[d + k * ws + l] = u32[i + k]!;
      if (tfe) v[d + count * ws + l] = 0;
    }
    w.laneOps += n;
    return true;
  };
  return { cls: 'vmem' as const, findings, run: markFast((w: Wave) => void (fast(w) || ref(w))) };
}

/** Per-lane dword index into the segment (fast path). */
const IDX = new Float64Array(64);

for (const t of ['u8', 'i8', 'u16', 'i16', 'b32', 'b64', 'b96', 'b128', 'd16_u8', 'd16_i8', 'd16_b16', 'd16_hi_u8', 'd16_hi_i8', 'd16_hi_b16']) define(`buffer_load_${t}`, (i, e) => withCachePolicy(i, e, withViolation(bindAccess(i, e)), false));
for (const t of ['b8', 'b16', 'b32', 'b64', 'b96', 'b128', 'd16_hi_b8', 'd16_hi_b16']) define(`buffer_store_${t}`, (i, e) => withCachePolicy(i, e, withViolation(bindAccess(i, e)), true));
for (const t of ['u8', 'i8', 'u16', 'i16', 'b32']) define(`buffer_load_lds_${t}`, (i, e) => withViolation(bindAccess(i, e)));

// ---- format conversion -----------------------------------------------------------------------

/** Unsigned small float (11- or 10-bit: 5-bit exponent, 6/5-bit mantissa) to a number. */
function smallFloat(x: number, mbits: number): number {
  const e = x >>> mbits;
  const m = x & ((1 << mbits) - 1);
  if (e === 31) return m === 0 ? Infinity : NaN;
  if (e === 0) return m * 2 ** (-14 - mbits);
  return (1 + m / (1 << mbits)) * 2 ** (e - 15);
}
function toSmallFloat(v: number, mbits: number): number {
  if (Number.isNaN(v)) return (31 << mbits) | 1;
  if (v <= 0) return 0; // unsigned: negatives clamp to 0
  const h = f16bits(v); // round through binary16, then drop mantissa bits (round to nearest even)
  if ((h & 0x7c00) === 0x7c00) return 31 << mbits;
  const drop = 10 - mbits;
  let r = h >>> drop;
  const rem = h & ((1 << drop) - 1);
  const half = 1 << (drop - 1);
  if (rem > half || (rem === half && (r & 1) === 1)) r++;
  return r & 0x7fff;
}

/** Decode component value x (b bits) of numeric format nfmt to a 32-bit register value. */
export function decodeComponent(x: number, b: number, nfmt: BufFormat['nfmt']): number {
  const max = b === 32 ? 0xffffffff : (1 << b) - 1;
  const sx = b === 32 ? x | 0 : (x << (32 - b)) >> (32 - b);
  switch (nfmt) {
    case 'unorm': case 'srgb': return f32bits(x / max);
    case 'snorm': return f32bits(Math.max(-1, sx / (max >>> 1)));
    case 'uscaled': return f32bits(x >>> 0);
    case 'sscaled': return f32bits(sx);
    case 'uint': return x >>> 0;
    case 'sint': return sx >>> 0;
    case 'float': return b === 32 ? x >>> 0 : b === 16 ? f32bits(f16(x)) : f32bits(smallFloat(x, b - 5));
  }
}

/** Encode a 32-bit register value into a b-bit component of numeric format nfmt. */
export function encodeComponent(r: number, b: number, nfmt: BufFormat['nfmt']): number {
  const max = b === 32 ? 0xffffffff : (1 << b) - 1;
  const mask = max;
  const fl = f32(r);
  switch (nfmt) {
    case 'unorm': case 'srgb': return Number.isNaN(fl) ? 0 : Math.round(Math.min(1, Math.max(0, fl)) * max) >>> 0;
    case 'snorm': return Number.isNaN(fl) ? 0 : (Math.round(Math.min(1, Math.max(-1, fl)) * (max >>> 1)) & mask) >>> 0;
    case 'uscaled': return Number.isNaN(fl) ? 0 : Math.min(max, Math.max(0, Math.trunc(fl))) >>> 0;
    case 'sscaled': return Number.isNaN(fl) ? 0 : (Math.min(max >>> 1, Math.max(-(max >>> 1) - 1, Math.trunc(fl))) & mask) >>> 0;
    case 'uint': case 'sint': return (r & mask) >>> 0;
    case 'float': return b === 32 ? r >>> 0 : b === 16 ? f16bits(fl) : toSmallFloat(fl, b - 5);
  }
}

const ONE_F32 = 0x3f800000;
const COMP = new Uint32Array(4);

/** Read the components of one element at byte address a into COMP (missing ones 0, W 1). */
function readElement(w: Wave, fmt: BufFormat, index: number, off: number, soff: number): void {
  const n = fmt.bits.length;
  const intFmt = fmt.nfmt === 'uint' || fmt.nfmt === 'sint';
  COMP[0] = 0;
  COMP[1] = 0;
  COMP[2] = 0;
  COMP[3] = intFmt ? 1 : ONE_F32;
  if (outOfRange(index, off, fmt.bytes)) {
    COMP[3] = 0; // an out-of-range element reads as all zeros
    return;
  }
  const a = address(index, off, soff);
  if (!fmt.packed) {
    const cb = fmt.bits[0]! / 8;
    for (let k = 0; k < n; k++) COMP[k] = decodeComponent(memRead(w, a + k * cb, cb), fmt.bits[0]!, fmt.nfmt);
    return;
  }
  const word = memRead(w, a, 4);
  let sh = 0;
  for (let k = 0; k < n; k++) {
    const b = fmt.bits[k]!;
    COMP[k] = decodeComponent((word >>> sh) & ((1 << b) - 1), b, fmt.nfmt);
    sh += b;
  }
}

/** Write components 0..count-1 of COMP (register values) as one element. */
function writeElement(w: Wave, fmt: BufFormat, count: number, index: number, off: number, soff: number): void {
  if (outOfRange(index, off, fmt.bytes)) return;
  const a = address(index, off, soff);
  const n = fmt.bits.length;
  if (!fmt.packed) {
    const cb = fmt.bits[0]! / 8;
    for (let k = 0; k < Math.min(n, count); k++) memWrite(w, a + k * cb, cb, encodeComponent(COMP[k]!, fmt.bits[0]!, fmt.nfmt));
    return;
  }
  let word = 0;
  let sh = 0;
  for (let k = 0; k < n; k++) {
    const b = fmt.bits[k]!;
    if (k < count) word |= encodeComponent(COMP[k]!, b, fmt.nfmt) << sh;
    sh += b;
  }
  memWrite(w, a, 4, word >>> 0);
}

/** 16-bit form of a 32-bit component for d16 formats (float-valued formats via binary16). */
function toD16(r: number, nfmt: BufFormat['nfmt']): number {
  return nfmt === 'uint' || nfmt === 'sint' ? r & 0xffff : f16bits(f32(r));
}
function fromD16(h: number, nfmt: BufFormat['nfmt']): number {
  if (nfmt === 'uint') return h & 0xffff;
  if (nfmt === 'sint') return ((h << 16) >> 16) >>> 0;
  return f32bits(f16(h & 0xffff));
}

function bindFormat(inst: Instruction, env: ExecEnv) {
  const m = /^t?buffer_(load|store)_(d16_(?:hi_)?)?format_(x|xy|xyz|xyzw)$/.exec(inst.mnemonic)!;
  const store = m[1] === 'store';
  const d16 = m[2] === undefined ? null : m[2].includes('hi') ? 'hi' : 'lo';
  const comps = m[3]!.length;
  const f = inst.fields;
  const ws = env.waveSize;
  const findings: Finding[] = [];
  const A = bindAddr(inst, env, findings);
  const tfe = (f.tfe ?? 0) === 1;
  const regs = d16 === 'lo' ? Math.ceil(comps / 2) : d16 === 'hi' ? 1 : comps;
  const data = store ? srcRows(env, inst, f.vdata ?? 0, regs, 'data', findings) : null;
  const ok = store || dstInRange(env, inst, f.vdata ?? 0, regs + (tfe ? 1 : 0), findings);
  const d = (f.vdata ?? 0) * ws;
  const cnt = counter(env, store);
  const typed = inst.encoding === 'MTBUF';
  const instFmt = typed ? A.G.formats[f.format ?? 0] : undefined;
  const badFormat = onceReporter(env, inst, 'gfx11.buffer.invalid-format', 'error');
  const misaligned = onceReporter(env, inst, 'gfx11.mem.misaligned', 'error', true);
  const mode = alignModeOf(env);
  return {
    cls: 'vmem' as const,
    findings,
    run: (w: Wave) => {
      cnt(w);
      if (!ok) return;
      readVsharp(w, A.rsrc, A.G, A.idx >= 0);
      const fmt = typed ? instFmt : A.G.formats[V.format];
      if (fmt === undefined) {
        badFormat(w, -1, typed ? f.format ?? 0 : V.format, `data format ${typed ? f.format : V.format} is invalid for buffer instructions; loads return 0, stores are dropped`);
      }
      const soff = A.soff(w);
      const v = w.v;
      const align = fmt === undefined ? 1 : fmt.packed ? 4 : Math.min(4, fmt.bits[0]! / 8);
      for (let l = 0; l < ws; l++) {
        if (!laneOn(w, l)) continue;
        const index = laneIndex(w, A, l);
        const off = laneOffset(w, A, l);
        // Formatted accesses must be aligned to the component size (1, 2, or 4 bytes) in every mode but UNALIGNED.
        if (mode !== 'unaligned' && off % align !== 0) misaligned(w, l, off, `formatted access at offset ${off} is not ${align}-byte aligned: MEMVIOL`);
        if (store) {
          if (fmt === undefined) continue;
          for (let k = 0; k < comps; k++) {
            if (d16 === null) COMP[k] = v[data![k]! + l]!;
            else if (d16 === 'hi') COMP[k] = fromD16(v[data![0]! + l]! >>> 16, fmt.nfmt);
            else COMP[k] = fromD16(v[data![k >> 1]! + l]! >>> (16 * (k & 1)), fmt.nfmt);
          }
          writeElement(w, fmt, comps, index, off, soff);
        } else {
          if (fmt === undefined) COMP.fill(0);
          else readElement(w, fmt, index, off, soff);
          for (let k = 0; k < comps; k++) {
            if (d16 === null) v[d + k * ws + l] = COMP[k]!;
            else {
              const h = toD16(COMP[k]!, fmt?.nfmt ?? 'uint');
              const r = d16 === 'hi' ? 0 : k >> 1;
              const hiHalf = d16 === 'hi' || (k & 1) === 1;
              const cur = v[d + r * ws + l]!;
              v[d + r * ws + l] = (hiHalf ? (cur & 0xffff) | (h << 16) : (cur & 0xffff0000) | h) >>> 0;
            }
          }
          if (tfe) v[d + regs * ws + l] = 0;
        }
      }
    },
  };
}

for (const p of ['buffer', 'tbuffer']) {
  for (const op of ['load', 'store']) {
    for (const c of ['x', 'xy', 'xyz', 'xyzw']) {
      define(`${p}_${op}_format_${c}`, (i, e) => withViolation(bindFormat(i, e)));
      define(`${p}_${op}_d16_format_${c}`, (i, e) => withViolation(bindFormat(i, e)));
    }
  }
}
define('buffer_load_d16_hi_format_x', (i, e) => withViolation(bindFormat(i, e)));
define('buffer_store_d16_hi_format_x', (i, e) => withViolation(bindFormat(i, e)));
define('buffer_load_lds_format_x', (inst, env) => {
  const ws = env.waveSize;
  const findings: Finding[] = [];
  const A = bindAddr(inst, env, findings);
  return {
    cls: 'vmem',
    findings,
    run: (w) => {
      if (w.vmcnt < CNT_MAX) w.vmcnt++;
      readVsharp(w, A.rsrc, A.G, A.idx >= 0);
      const fmt = A.G.formats[V.format];
      const soff = A.soff(w);
      for (let l = 0; l < ws; l++) {
        if (!laneOn(w, l)) continue;
        if (fmt === undefined) COMP[0] = 0;
        else readElement(w, fmt, laneIndex(w, A, l), laneOffset(w, A, l), soff);
        ldsWrite(w, (w.s[SREG.M0]! & 0xffff) + A.instOff + 4 * l, 4, COMP[0]!);
      }
    },
  };
});

// ---- atomics ---------------------------------------------------------------------------------

function bindAtomic(inst: Instruction, env: ExecEnv, key: string, wide: boolean) {
  const f = inst.fields;
  const ws = env.waveSize;
  const findings: Finding[] = [];
  const A = bindAddr(inst, env, findings);
  const dw = wide ? 2 : 1;
  const bytes = 4 * dw;
  const cmp = key === 'cmpswap' || key === 'cmpswap_f';
  const data = srcRows(env, inst, f.vdata ?? 0, cmp ? 2 * dw : dw, 'data', findings);
  const ret = (f.glc ?? 0) === 1;
  const ok = !ret || dstInRange(env, inst, f.vdata ?? 0, dw, findings);
  const d = (f.vdata ?? 0) * ws;
  const cnt = counter(env, !ret);
  const fn32 = ATOMIC32[key]!;
  const fn64 = ATOMIC64[key]!;
  const misaligned = onceReporter(env, inst, 'gfx11.mem.misaligned-atomic', 'error', true);
  return {
    cls: 'vmem' as const,
    findings,
    run: (w: Wave) => {
      cnt(w);
      if (!ok) return;
      readVsharp(w, A.rsrc, A.G, A.idx >= 0);
      const soff = A.soff(w);
      const v = w.v;
      for (let l = 0; l < ws; l++) {
        if (!laneOn(w, l)) continue;
        const index = laneIndex(w, A, l);
        const off = laneOffset(w, A, l);
        const a = address(index, off, soff);
        if (a % bytes !== 0) {
          misaligned(w, l, a, `${bytes * 8}-bit atomic at 0x${a.toString(16)} is not ${bytes}-byte aligned: MEMVIOL`);
          continue;
        }
        if (outOfRange(index, off, bytes)) {
          if (ret) for (let k = 0; k < dw; k++) v[d + k * ws + l] = 0;
          continue;
        }
        // Read the sources before the return value can overwrite them (vdata is both).
        const s0 = v[data[0]! + l]!;
        const s1 = dw === 2 || cmp ? v[data[1]! + l]! : 0;
        // Atomic across threads when memory is shared (vmem.ts memAtomic32/64).
        if (!wide) {
          const old = memAtomic32(w, a, fn32, s0, s1);
          if (ret) v[d + l] = old;
        } else {
          const oLo = cmp ? memAtomic64(w, a, fn64, s0, s1, v[data[2]! + l]!, v[data[3]! + l]!) : memAtomic64(w, a, fn64, s0, s1, 0, 0);
          const oHi = R64[0]!;
          if (ret) {
            v[d + l] = oLo;
            v[d + ws + l] = oHi;
          }
        }
      }
    },
  };
}

for (const op of [
  'swap_b32', 'cmpswap_b32', 'add_u32', 'sub_u32', 'csub_u32', 'min_i32', 'min_u32', 'max_i32', 'max_u32', 'and_b32', 'or_b32', 'xor_b32', 'inc_u32', 'dec_u32',
  'swap_b64', 'cmpswap_b64', 'add_u64', 'sub_u64', 'min_i64', 'min_u64', 'max_i64', 'max_u64', 'and_b64', 'or_b64', 'xor_b64', 'inc_u64', 'dec_u64',
  'cmpswap_f32', 'min_f32', 'max_f32', 'add_f32',
]) {
  const k = atomicKey(op)!;
  define(`buffer_atomic_${op}`, (inst, env) => withAtomicCaches(inst, env, withViolation(bindAtomic(inst, env, k.key, k.wide))));
}
// GFX10.3's f64 atomics (GFX11 dropped them): the f32 forms' operations on 64-bit data.
for (const [op, key] of [['fcmpswap_x2', 'cmpswap_f'], ['fmin_x2', 'min_f'], ['fmax_x2', 'max_f']] as const) {
  define(`buffer_atomic_${op}`, (inst, env) => withAtomicCaches(inst, env, withViolation(bindAtomic(inst, env, key, true))));
}

// Cache invalidations: no data effect in the functional model.
define('buffer_gl0_inv', (_i, e) => ({ cls: 'vmem', run: cacheInvalidate(e, 0) }));
define('buffer_gl1_inv', (_i, e) => ({ cls: 'vmem', run: cacheInvalidate(e, 1) }));
