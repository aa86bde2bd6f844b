/**
 * The wasm tier's heap: one WebAssembly.Memory per thread that holds the register blocks of waves
 * (wave.ts: SGPRs, the 64-bit constant rows, hardware registers, VGPRs), workgroups' LDS
 * (dispatch.ts, freed when the dispatch ends) and, for a Memory made with
 * `heapBacking` (core/memory.ts SegmentBacking), the bytes of its segments, so translated code
 * reads and writes registers and global memory in place (typed-array views of the same bytes are
 * what the JavaScript handlers see). Node 20's WebAssembly has one memory per module, so registers
 * and segments must share it.
 *
 * The memory is shared (its buffer a SharedArrayBuffer): growing a shared memory leaves every view
 * of it valid, where growing an ordinary one detaches them all (without SharedArrayBuffer, e.g. a
 * browser page that is not cross-origin isolated, the heap is an ordinary memory of 64 MiB that
 * never grows). Views are made over the buffer of the moment. A register block is freed when its
 * wave is collected and reused by a block of the same size; a Memory's segments and its segment
 * table when it is released (run.ts, after copying out the outputs it returns) or collected. Each
 * thread using the heap has a scratch row of SCRATCH_BYTES for its translated code. A full heap
 * gives no block: the wave or segment then gets an array of its own.
 *
 * A parallel run's workers adopt the calling thread's heap (adoptHeap; parallel.ts posts it with
 * each slice): the segments the caller laid out there are then in every thread's heap, and
 * the workers' translated accesses reach them as the caller's do. Threads allocate from the
 * head's bump pointer (Atomics) and keep free lists of their own.
 *
 * The segment table a Memory's translated global accesses search (global.ts): at `table`, the count
 * of entries (i32, then 4 bytes of padding) then, per segment, 24 bytes: base (i64), size (i64),
 * the byte offset of its bytes in the heap (i32, -1 when they are elsewhere) and 4 bytes of padding. A watched Memory
 * (a trace, core/memory.ts `watch`) has count 0 (every access then goes through `find`).
 */
import { waveLds, waveRegs } from '../../wave/wave.js';
import type { Memory, Segment, SegmentBacking } from '../../../core/memory.js';
import { Wasm, type WasmMemory } from './api.js';

const PAGE = 65536;
/** The heap's size limit (the memory's declared maximum): 1 GiB. */
export const HEAP_MAX_PAGES = 16384;
const INITIAL_PAGES = 256;
/** The scratch rows (two of 64 lanes x 4 bytes: a VOPD pair's halves), rounded to the block alignment. */
export const SCRATCH_BYTES = 512;
const ALIGN = 64;
/**
 * The heap's head, before any block: the next free byte (i32 at 0, the bump pointer every thread
 * sharing the memory allocates from with Atomics) and the heap's id (i32 at 4: a thread told to
 * adopt a memory it already uses knows it by that).
 */
const HEAD = ALIGN;
/** Segments larger than this stay in their own arrays (a 2^24-element buffer would double its run's peak memory). */
export const HEAP_SEGMENT_MAX = 32 << 20;
/** Bytes of a segment table's head (the count and padding) and of each entry. */
export const TABLE_HEAD = 8;
export const TABLE_ENTRY = 24;

export interface Heap {
  readonly mem: WasmMemory & { grow(pages: number): number };
  /** A shared memory (it grows up to HEAP_MAX_PAGES); else a fixed one of FIXED_PAGES. */
  readonly shared: boolean;
  /** The head's bump pointer and id (an Int32Array over the head). */
  readonly head: Int32Array;
  /** This thread's scratch row (translated code's per-lane results: valu.ts), then its SCC slot. */
  readonly scratch: number;
  /** Freed blocks by size (this thread's: a block is reused by the thread that freed it). */
  readonly free: Map<number, number[]>;
  /** Whether this thread allocated anything (a heap not used yet may be swapped for another: adoptHeap). */
  used: boolean;
}

/** Without SharedArrayBuffer: a fixed heap of 64 MiB (an ordinary memory must never grow). */
const FIXED_PAGES = 1024;

let theHeap: Heap | null = null;
let tried = false;

/** A heap over `mem`; `fresh`: a new memory whose head this thread writes. */
function heapOver(mem: Heap['mem'], shared: boolean, fresh: boolean): Heap {
  const head = new Int32Array(mem.buffer, 0, 2);
  if (fresh) {
    head[0] = HEAD;
    head[1] = (Math.random() * 0x7fffffff) | 1;
  }
  const scratch = bump(mem, head, shared, SCRATCH_BYTES + ALIGN);
  if (scratch < 0) throw new RangeError('no room for a scratch row');
  return { mem, shared, head, scratch, free: new Map(), used: false };
}

/** This thread's heap (made on first use), or null where WebAssembly is not available. */
export function heap(): Heap | null {
  if (theHeap === null && !tried && Wasm !== undefined) {
    tried = true;
    const shared = typeof SharedArrayBuffer === 'function';
    try {
      const mem = (shared
        ? new Wasm.Memory({ initial: INITIAL_PAGES, maximum: HEAP_MAX_PAGES, shared: true })
        : new Wasm.Memory({ initial: FIXED_PAGES, maximum: FIXED_PAGES })) as Heap['mem'];
      theHeap = heapOver(mem, shared, true);
    } catch {
      return null;
    }
  }
  return theHeap;
}

/** This thread's SCC slot (an i32 after its scratch row): a translated run's SALU ops keep SCC there (salu.ts). */
export function sccSlot(): number {
  return (heap()?.scratch ?? 0) + SCRATCH_BYTES;
}

/** Whether this thread's heap is a shared memory (its bytes on a SharedArrayBuffer other threads can map). */
export function heapShared(): boolean {
  return heap()?.shared === true;
}

/**
 * Make `mem` (another thread's shared heap, posted here: parallel-slice.ts) this thread's heap, if
 * this thread has not allocated from its own yet; threads then allocate from it side by side (the
 * head's bump pointer), each with its own scratch row and free lists. Returns whether `mem` is
 * this thread's heap now (also when it already was).
 */
export function adoptHeap(mem: WasmMemory): boolean {
  const h = heap();
  if (h === null || !h.shared || !(mem.buffer instanceof SharedArrayBuffer)) return false;
  const id = new Int32Array(mem.buffer, 0, 2)[1];
  if (Atomics.load(h.head, 1) === id) return true;
  if (h.used) return false;
  theHeap = heapOver(mem as Heap['mem'], true, false);
  return true;
}

/** Whether this thread can have a heap (the wasm tier needs one). */
export function heapAvailable(): boolean {
  return heap() !== null;
}

/** `size` bytes off the bump pointer in `head` (`mem` grown to hold them); -1 when full. */
function bump(mem: Heap['mem'], head: Int32Array, shared: boolean, size: number): number {
  const max = (shared ? HEAP_MAX_PAGES : FIXED_PAGES) * PAGE;
  let off: number;
  for (;;) {
    off = Atomics.load(head, 0);
    if (off + size > max) return -1;
    if (Atomics.compareExchange(head, 0, off, off + size) === off) break;
  }
  const end = off + size;
  // Another thread may have grown the shared memory already (its buffer here then says so).
  while (mem.buffer.byteLength < end) {
    const have = mem.buffer.byteLength;
    const pages = Math.ceil((end - have) / PAGE);
    try {
      mem.grow(Math.max(pages, Math.min(have / PAGE, HEAP_MAX_PAGES - have / PAGE)));
    } catch {
      // Grown meanwhile by another thread past what this one asked for, or at the limit.
      if (mem.buffer.byteLength >= end) break;
      return -1;
    }
  }
  return off;
}

/**
 * Allocate `bytes` (rounded up to 64) in the heap, growing it; -1 when the heap is full or missing.
 * The block is zeroed unless `zero` is false (the caller writes every byte).
 */
export function heapAlloc(bytes: number, zero = true): number {
  const h = heap();
  if (h === null) return -1;
  h.used = true;
  const size = Math.ceil(Math.max(bytes, 1) / ALIGN) * ALIGN;
  const list = h.free.get(size);
  if (list !== undefined && list.length > 0) {
    const off = list.pop()!;
    // A reused block may hold old bytes: callers expect zeroes.
    if (zero) new Uint8Array(h.mem.buffer, off, size).fill(0);
    return off;
  }
  // Fresh bytes of a memory are zero (a block is never handed out twice).
  return bump(h.mem, h.head, h.shared, size);
}

/** Return a block `heapAlloc(bytes)` gave. */
export function heapFree(off: number, bytes: number): void {
  const h = theHeap;
  if (h === null || off < HEAD) return;
  const size = Math.ceil(Math.max(bytes, 1) / ALIGN) * ALIGN;
  let list = h.free.get(size);
  if (list === undefined) h.free.set(size, (list = []));
  list.push(off);
}

/** The heap's buffer as it is now (after any growth). */
export function heapBuffer(): ArrayBuffer {
  return heap()!.mem.buffer;
}

/** Heap blocks freed when their owner (a wave, an LDS array) is collected. */
const blockFreed = new FinalizationRegistry<readonly [number, number]>(([off, size]) => heapFree(off, size));

/** A register block of `bytes` for `owner` (freed when owner is collected); null when the heap is full. */
export function allocRegs(bytes: number, owner: object): { buffer: ArrayBuffer; offset: number } | null {
  const off = heapAlloc(bytes);
  if (off < 0) return null;
  blockFreed.register(owner, [off, bytes]);
  return { buffer: heapBuffer(), offset: off };
}

/** LDS arrays in the heap by their offsets. */
const ldsAt = new WeakMap<Uint8Array, number>();

/** A workgroup's LDS of `bytes` in the heap (zeroed), or an array of its own when the heap is full. */
export function allocLds(bytes: number): Uint8Array {
  const off = heapAlloc(bytes);
  if (off < 0) return new Uint8Array(bytes);
  const u8 = new Uint8Array(heapBuffer(), off, bytes);
  ldsAt.set(u8, off);
  blockFreed.register(u8, [off, bytes], u8);
  return u8;
}

/** Return an LDS allocLds gave (its owner is done with it: dispatch.ts, at the dispatch's end). */
export function freeLds(u8: Uint8Array): void {
  const off = ldsAt.get(u8);
  if (off === undefined) return;
  ldsAt.delete(u8);
  blockFreed.unregister(u8);
  heapFree(off, u8.byteLength);
}

/**
 * Allocate the register blocks of waves created from now on, and workgroups' LDS, in the heap (on)
 * or plain buffers (off).
 */
export function useHeap(on: boolean): void {
  const h = on && heapAvailable();
  waveRegs.alloc = h ? allocRegs : null;
  waveLds.alloc = h ? allocLds : null;
  waveLds.free = h ? freeLds : null;
  waveLds.at = (u8) => ldsAt.get(u8) ?? -1;
}

/** A Memory's heap blocks: its segments' and its table's (freed together when the Memory is collected). */
interface Owned {
  readonly blocks: [number, number][];
  table: number;
  tableCap: number;
}
const owned = new WeakMap<Memory, Owned>();
const memFreed = new FinalizationRegistry<Owned>(freeOwned);

function ownedBy(mem: Memory): Owned {
  let o = owned.get(mem);
  if (o === undefined) {
    o = { blocks: [], table: 0, tableCap: 0 };
    owned.set(mem, o);
    memFreed.register(mem, o, o);
  }
  return o;
}

function freeOwned(o: Owned): void {
  for (const [off, size] of o.blocks) heapFree(off, size);
  if (o.table > 0) heapFree(o.table, TABLE_HEAD + o.tableCap * TABLE_ENTRY);
  o.blocks.length = 0;
  o.table = 0;
}

/**
 * The backing of a Memory whose segments live in the heap (those up to HEAP_SEGMENT_MAX bytes,
 * while the heap has room; others get their own arrays) and whose segment table translated code
 * searches. With `views` (a worker's Memory of another thread's segments: parallel-slice.ts), it
 * takes only the views of the heap in it, where they are (at the byte offsets it gives; that
 * thread frees them); any other bytes stay where they are. Null where there is no heap.
 */
export function heapBacking(views?: WeakMap<Uint8Array, number>): SegmentBacking | null {
  if (!heapAvailable()) return null;
  return {
    alloc(mem: Memory, size: number, data?: Uint8Array) {
      if (views !== undefined) {
        const at = data !== undefined ? views.get(data) : undefined;
        return at !== undefined ? { u8: data!, at } : null;
      }
      if (size > HEAP_SEGMENT_MAX) return null;
      const off = heapAlloc(size, data === undefined);
      if (off < 0) return null;
      ownedBy(mem).blocks.push([off, size]);
      const u8 = new Uint8Array(heapBuffer(), off, size);
      if (data !== undefined) u8.set(data.subarray(0, size));
      return { u8, at: off };
    },
    update(mem: Memory, segs: readonly Segment[] | null): number {
      const o = ownedBy(mem);
      const n = segs === null ? 0 : segs.length;
      if (o.table === 0 || n > o.tableCap) {
        const cap = Math.max(8, n * 2);
        const t = heapAlloc(TABLE_HEAD + cap * TABLE_ENTRY);
        if (t < 0) return 0;
        if (o.table > 0) heapFree(o.table, TABLE_HEAD + o.tableCap * TABLE_ENTRY);
        o.table = t;
        o.tableCap = cap;
      }
      const buf = heapBuffer();
      const f = new DataView(buf, o.table, TABLE_HEAD + o.tableCap * TABLE_ENTRY);
      f.setInt32(0, n, true);
      for (let k = 0; k < n; k++) {
        const s = segs![k]!;
        const e = TABLE_HEAD + k * TABLE_ENTRY;
        f.setBigUint64(e, BigInt(s.base), true);
        f.setBigUint64(e + 8, BigInt(s.size), true);
        f.setInt32(e + 16, s.heap ?? -1, true);
      }
      return o.table;
    },
    release(mem: Memory): void {
      const o = owned.get(mem);
      if (o === undefined) return;
      memFreed.unregister(o);
      owned.delete(mem);
      freeOwned(o);
    },
  };
}
