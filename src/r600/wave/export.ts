/**
 * CF_ALLOC_EXPORT instructions: EXPORT / EXPORT_DONE, the memory exports (MEM_WRITE_SCRATCH,
 * MEM_RING*, MEM_STREAM*, MEM_EXPORT*) and the RAT (UAV) writes of seed 003 (MEM_RAT,
 * MEM_RAT_CACHELESS, MEM_RAT_COMBINED_CACHELESS: stores, typed stores through exec/rat.ts, atomics).
 * `bindExport` decides once per program which of them an instruction is and binds its RAT_INST.
 */
import type { CfInst } from '../isa/decode.js';
import { decodeRat, storeTyped } from '../exec/rat.js';
import type { StepResult, Wave } from './machine.js';
import type { CfHandler, CfOp } from './cf.js';

/** A RAT atomic: the new memory value from the old one, the data X and (MSKOR, CMPXCHG_INT) the data W. */
type RatRmw = (old: number, x: number, dw: number) => number;

/** RAT atomics by RAT_INST name without _RTN. */
const RAT_RMW: Readonly<Record<string, RatRmw>> = {
  MSKOR: (old, x, dw) => (old & ~dw) | x,
  ADD: (old, x) => old + x,
  SUB: (old, x) => old - x,
  RSUB: (old, x) => x - old,
  MIN_INT: (old, x) => ((old | 0) < (x | 0) ? old : x),
  MAX_INT: (old, x) => ((old | 0) > (x | 0) ? old : x),
  MIN_UINT: (old, x) => (old < x ? old : x),
  MAX_UINT: (old, x) => (old > x ? old : x),
  AND: (old, x) => old & x,
  OR: (old, x) => old | x,
  XOR: (old, x) => old ^ x,
  XCHG: (_old, x) => x,
  INC_UINT: (old, x) => (old >= x ? 0 : old + 1),
  DEC_UINT: (old, x) => (old === 0 || old > x ? x : old - 1),
  // The compare value is in W (clang-19 on cypress and cayman; Mesa's sfn on Evergreen, which
  // uses Z on Cayman and keeps Y for its return address).
  CMPXCHG_INT: (old, x, dw) => (old === dw ? x : old),
};
/** The atomics that read the data GPR's W too. */
const RAT_READS_W = new Set(['MSKOR', 'CMPXCHG_INT']);

/** A CF_ALLOC_EXPORT instruction bound once per program. */
export interface ExportOp {
  /** The CF_INST's name (messages and MEM_* buffer keys). */
  readonly name: string;
  /** EXPORT / EXPORT_DONE: the type's name; whether this closes it. */
  readonly type: string;
  readonly done: boolean;
  /** MEM_*: MEM_WRITE_SCRATCH (private, TYPE 2/3 read back); the dispatch-wide buffer's name otherwise. */
  readonly scratch: boolean;
  readonly memKey: string;
  /** MEM_RAT*: the RAT_INST name ('' unknown); a RAT_INST MEM_RAT_CACHELESS does not allow; a store; STORE_TYPED. */
  readonly rat: string;
  readonly cachelessBad: boolean;
  readonly store: boolean;
  readonly typed: boolean;
  /** MSKOR takes its index as given even with atomicByteAddress. */
  readonly mskor: boolean;
  /** An atomic's semantics (undefined: `r600.rat.unsupported`); it reads W too. */
  readonly rmw: RatRmw | undefined;
  readonly readsW: boolean;
}

/** Bind a CF_ALLOC_EXPORT instruction, once per program. */
export function bindExport(c: CfInst, name: string): ExportOp {
  const rat = c.rat?.name ?? '';
  const op = rat.replace(/_RTN$/, '');
  return {
    name,
    type: ['PIXEL', 'POS', 'PARAM', 'TYPE3'][c.exportType]!,
    done: name === 'EXPORT_DONE',
    scratch: name === 'MEM_WRITE_SCRATCH',
    memKey: name.replace(/_COMBINED$/, ''),
    rat,
    cachelessBad: name === 'MEM_RAT_CACHELESS' && !/^(STORE_RAW|STORE_TYPED|STORE_DWORD|STORE_SHORT|STORE_BYTE|NOP_RTN)$/.test(rat),
    store: /^STORE/.test(rat),
    typed: rat === 'STORE_TYPED',
    mskor: rat === 'MSKOR',
    rmw: Object.hasOwn(RAT_RMW, op) ? RAT_RMW[op] : undefined,
    readsW: RAT_READS_W.has(op),
  };
}

/** A CF_ALLOC_EXPORT handler: the export, then the next CF instruction. */
function exportCf(run: (w: Wave, c: CfInst, x: ExportOp) => void): CfHandler {
  return (w: Wave, op: CfOp): StepResult => {
    run(w, op.c, op.exp!);
    w.pc++;
    return w.finish(op.c);
  };
}

function notModelled(w: Wave, _c: CfInst, x: ExportOp): void {
  w.diag('r600.unsupported', `${x.name} is not modelled in compute`, 'warning');
}

const EXPORT_CF = exportCf((w, c, x) => exportOp(w, c, x));
const MEM_CF = exportCf((w, c, x) => memOp(w, c, x));
const RAT_CF = exportCf((w, c, x) => ratOp(w, c, x));
const UNSUPPORTED_CF = exportCf(notModelled);

/** The handler of a CF_ALLOC_EXPORT instruction by name (cf.ts indexes them by CF_INST per generation). */
export function EXPORT_HANDLERS(name: string): CfHandler {
  if (name === 'EXPORT' || name === 'EXPORT_DONE') return EXPORT_CF;
  if (name.startsWith('MEM_RAT')) return RAT_CF;
  if (/^MEM_(WRITE_SCRATCH|RING|STREAM|EXPORT)/.test(name)) return MEM_CF;
  return UNSUPPORTED_CF;
}

/** The data GPR of burst k for lane l, channel ch (RW_REL: relative to the loop index aL). */
function rwValue(w: Wave, c: CfInst, k: number, l: number, ch: number): number {
  const reg = c.rwGpr + k + (c.rwRel ? w.loopIndex() : 0);
  if (reg < 0 || reg >= w.ngpr) {
    w.diag('r600.alu.gpr-out-of-range', `export data register T${reg} out of range`, 'error', { lane: l });
    return 0;
  }
  return w.gpr[(reg * 4 + ch) * w.W + l]!;
}

/**
 * EXPORT / EXPORT_DONE: BURST_COUNT+1 consecutive GPRs go to targets ARRAY_BASE.. of the TYPE
 * (pixel, position, parameter), per passing work-item, through SEL_X..W. The last export of a
 * type must be EXPORT_DONE: an export after it, or a type never closed, is reported.
 */
function exportOp(w: Wave, c: CfInst, x: ExportOp): void {
  const type = x.type;
  if (c.exportType === 3) w.diag('r600.export.type', 'export TYPE 3 is reserved (0 pixel, 1 position, 2 parameter)', 'error');
  if (w.exportDone.has(type)) w.diag('r600.export.after-done', `${type} export after that type's EXPORT_DONE`, 'error');
  if (x.done) w.exportDone.add(type);
  else w.exportOpen.add(type);
  const sink = w.opts.resources.exports;
  for (let k = 0; k <= c.burstCount; k++) {
    const key = `${type}${c.arrayBase + k}`;
    let m = sink.get(key);
    if (!m) sink.set(key, (m = new Map()));
    for (let l = 0; l < w.W; l++) {
      if (!w.activeTest(l, c.wholeQuadMode, c.validPixelMode)) continue;
      w.stats.exports++;
      const item = w.id * w.W + l;
      let v = m.get(item);
      if (!v) m.set(item, (v = new Uint32Array(4)));
      for (let ch = 0; ch < 4; ch++) {
        const sel = c.swizzle[ch]!;
        if (sel === 7) continue;
        if (sel === 6) {
          w.diag('r600.export.swizzle', 'SEL 6 is reserved (0..3 channel, 4 zero, 5 one, 7 masked)', 'error');
          continue;
        }
        v[ch] = sel < 4 ? rwValue(w, c, k, l, sel) : sel === 5 ? 0x3f800000 : 0;
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
function memOp(w: Wave, c: CfInst, x: ExportOp): void {
  const name = x.name;
  const scratch = x.scratch;
  const read = scratch && c.exportType >= 2;
  if (!scratch && c.exportType >= 2) w.pendingAcks++;
  const indexed = (c.exportType & 1) === 1;
  const elem = c.elemSize + 1;
  const res = w.opts.resources;
  let buf: Uint32Array;
  if (scratch) buf = w.scratch ??= new Uint32Array(w.W * res.scratchDwords);
  else {
    const key = x.memKey;
    let b = res.memBuffers.get(key);
    if (!b) res.memBuffers.set(key, (b = new Uint8Array(64 * 1024)));
    buf = new Uint32Array(b.buffer, b.byteOffset, b.byteLength >>> 2);
  }
  const limit = scratch ? res.scratchDwords : buf.length;
  for (let l = 0; l < w.W; l++) {
    if (!w.activeTest(l, c.wholeQuadMode, c.validPixelMode)) continue;
    const index = indexed ? w.gpr[c.indexGpr * 4 * w.W + l]! | 0 : 0;
    for (let k = 0; k <= c.burstCount; k++) {
      const el = c.arrayBase + index + k;
      if (c.arraySize && (index + k) > c.arraySize) w.diag('r600.mem.array-size', `${name} element ${index + k} past ARRAY_SIZE ${c.arraySize}`, 'warning', { lane: l });
      for (let ch = 0; ch < 4; ch++) {
        if (!((c.compMask >> ch) & 1)) continue;
        const at = el * elem + ch;
        if (ch >= elem || at < 0 || at >= limit) {
          if (ch < elem) w.diag(scratch ? 'r600.scratch.out-of-range' : 'r600.mem.out-of-range', `${name} dword ${at} outside its ${limit}-dword buffer`, 'error', { lane: l, addr: at });
          continue;
        }
        const o = scratch ? l * res.scratchDwords + at : at;
        if (read) {
          const reg = c.rwGpr + k + (c.rwRel ? w.loopIndex() : 0);
          if (reg >= 0 && reg < w.ngpr) w.gpr[(reg * 4 + ch) * w.W + l] = buf[o]!;
        } else buf[o] = rwValue(w, c, k, l, ch);
      }
    }
  }
}

/**
 * MEM_RAT / MEM_RAT_CACHELESS / MEM_RAT_COMBINED_CACHELESS: RAT_INST applied for each passing
 * work-item. An unbound RAT 0 is global memory with raw dwords; a bound RAT addresses its surface
 * (exec/rat.ts) and STORE_TYPED converts to its format.
 */
function ratOp(w: Wave, c: CfInst, x: ExportOp): void {
  const rat = x.rat;
  if (x.cachelessBad) w.diag('r600.rat.cacheless-inst', `MEM_RAT_CACHELESS with RAT_INST ${rat || c.ratInst}: only stores and reads are allowed`, 'error');
  if (c.ratIndexMode !== 0) w.diag('r600.rat.index-mode', `RAT_INDEX_MODE=${c.ratIndexMode}: only 0 is supported`, 'warning');
  if (!c.barrier) w.diag('r600.rat.no-barrier', 'RAT write without BARRIER: later CF instructions may run before it completes', 'warning');
  const words = w.opts.resources.rats?.get(c.ratId);
  if (c.ratId !== 0 && !words) w.diag('r600.rat.id', `RAT ${c.ratId} is not bound (RAT 0 is global memory)`, 'error');
  if (c.exportType === 2 || c.exportType === 3) w.pendingAcks++;
  const mem = w.opts.resources.global;
  const dv = w.globalView;
  const surface = words ? decodeRat(words) : undefined;
  const base = surface ? surface.base : 0;
  for (let l = 0; l < w.W; l++) {
    if (!w.activeTest(l, c.wholeQuadMode, c.validPixelMode)) continue;
    w.stats.ratOps++;
    const rd = (ch: number): number => rwValue(w, c, 0, l, ch);
    if (surface && x.typed) {
      // The index GPR's x / y / z are the texel coordinate (TYPE 0/2: texel 0).
      const coord = (ch: number): number => (c.exportType & 1 ? w.gpr[(c.indexGpr * 4 + ch) * w.W + l]! | 0 : 0);
      const f = storeTyped(surface, dv, coord(0), coord(1), coord(2), rd, c.compMask);
      if (f) w.diag(f.id, `RAT ${c.ratId}: ${f.message}`, f.id === 'r600.rat.out-of-range' ? 'warning' : 'error', { lane: l });
      continue;
    }
    // TYPE 1/3 (indexed): element INDEX_GPR.x, ELEM_SIZE+1 dwords per element (LLVM: ELEM_SIZE 0,
    // so a dword index); TYPE 0/2 write element 0.
    const index = (c.exportType & 1 ? w.gpr[(c.indexGpr * 4) * w.W + l]! : 0) * (c.elemSize + 1);
    const at = (k: number): number | undefined => {
      const a = base + (index + k) * 4;
      if (a + 4 > mem.length || a < 0) {
        w.diag('r600.mem.out-of-range', `RAT ${rat} at dword ${index + k} outside global memory`, 'error', { lane: l, addr: a });
        return undefined;
      }
      return a;
    };
    if (x.store) {
      for (let ch = 0; ch < 4; ch++) {
        if (!((c.compMask >> ch) & 1)) continue;
        const a = at(ch);
        if (a !== undefined) dv.setUint32(a, rd(ch), true);
      }
      continue;
    }
    // LLVM 19 passes atomics on global memory (RAT 0, clover's pool) a byte address where stores
    // get a dword index (Mesa's own compiler shifts atomic addresses by 2): by default the index
    // of an atomic on unbound RAT 0 is taken as a byte address. A bound RAT is a surface and its
    // index counts elements (docs/r600.md, RAT atomics).
    const a = x.mskor || surface || w.opts.atomicByteAddress === false ? at(0) : at(0 - index + (index >>> 2));
    if (a === undefined) continue;
    const old = dv.getUint32(a, true);
    const d = rd(0);
    let v: number;
    if (x.rmw) v = x.rmw(old, d, x.readsW ? rd(3) : 0);
    else {
      w.diag('r600.rat.unsupported', `RAT_INST ${rat || c.ratInst} is not modelled`, 'warning');
      v = old;
    }
    dv.setUint32(a, v >>> 0, true);
  }
}
