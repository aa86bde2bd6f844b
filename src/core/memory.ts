/**
 * GPU memory: a 48-bit virtual address space (addresses are JS numbers, exact below 2^53) made of
 * mapped segments, each one contiguous ArrayBuffer with typed views. A segment is what a buffer,
 * a kernarg block, a command buffer or a trace's BO is; lookups cache the last segment hit so a
 * stream of accesses to one buffer costs one range check. Accesses outside every segment are
 * faults: reads return 0 and writes are dropped (as a GPU with a dummy page would), and the fault
 * goes to the `onFault` hook (diagnostics) — never an exception, unless `strictFaults` is set.
 */

/** A contiguous mapped range. `u8`/`dv` view the same bytes. */
export interface Segment {
  readonly base: number;
  readonly size: number;
  readonly end: number;
  readonly u8: Uint8Array;
  readonly dv: DataView;
  /**
   * Dword view of the same bytes (index = byte offset / 4), or null when the backing array does
   * not start on a 4-byte boundary: memory fast paths use it for aligned accesses.
   */
  readonly u32: Uint32Array | null;
  /** Backed by a SharedArrayBuffer (threads of a parallel run share it; atomics use `Atomics`). */
  readonly shared: boolean;
  /** Free-form label (buffer name, "kernarg", "ib1"...), shown in fault reports. */
  readonly label: string;
  /** Byte offset of the bytes in the Memory's backing heap (SegmentBacking), when they live there. */
  readonly heap?: number;
}

/**
 * Where a Memory's segments may live instead of arrays of their own: the wasm tier's heap
 * (amd/engine/wasm/heap.ts), so translated code reaches them. `alloc` gives zeroed bytes for a
 * segment of `size` (`data`'s first `size` bytes when given; null: an ordinary array then);
 * `update` is told the segments after every
 * change (null while the memory is watched) and returns the byte offset of the table it keeps of
 * them (0: none). A backed Memory copies data handed to `map` into the backing.
 */
export interface SegmentBacking {
  alloc(mem: Memory, size: number, data?: Uint8Array): { u8: Uint8Array; at: number } | null;
  update(mem: Memory, segs: readonly Segment[] | null): number;
  /** The Memory is done with: its blocks may be reused at once. */
  release(mem: Memory): void;
}

export interface MemoryFault {
  readonly va: number;
  readonly size: number;
  readonly write: boolean;
}

export class MemoryFaultError extends Error {
  override readonly name = 'MemoryFaultError';
  readonly fault: MemoryFault;
  constructor(f: MemoryFault) {
    super(`GPU memory fault: ${f.write ? 'write' : 'read'} of ${f.size} bytes at 0x${f.va.toString(16)} (unmapped)`);
    this.fault = f;
  }
}

export const VA_LIMIT = 2 ** 48;

export class Memory {
  /** Segments sorted by base. */
  private segs: Segment[] = [];
  private last: Segment | null = null;
  /** Next address the bump allocator hands out. */
  private next: number;
  /** Called on every access outside the mapped segments. */
  onFault: ((f: MemoryFault) => void) | null = null;
  /** Throw MemoryFaultError instead of reporting and continuing. */
  strictFaults = false;
  /** Count of faults seen. */
  faults = 0;

  /** Segments are backed by SharedArrayBuffers (threads of a parallel run share them). */
  readonly shared: boolean;

  /** Highest mappable address + 1 (48-bit by default; a crash dump's Adreno iovas go above). */
  readonly vaLimit: number;

  /**
   * Where segments live when not in arrays of their own, or null. A `shared` Memory's backing must
   * give bytes on a SharedArrayBuffer (the wasm heap's shared memory: parallel.ts hands those
   * segments to its workers as they are).
   */
  readonly backing: SegmentBacking | null;
  /** The backing's table of the segments (byte offset in its heap; 0: none). */
  table = 0;

  constructor(opts: { allocBase?: number; shared?: boolean; vaLimit?: number; backing?: SegmentBacking | null } = {}) {
    this.next = opts.allocBase ?? 0x1_0000_0000;
    this.vaLimit = opts.vaLimit ?? VA_LIMIT;
    this.shared = opts.shared ?? false;
    this.backing = opts.backing ?? null;
  }

  /**
   * Map `size` bytes at `base` (zero-filled, or backed by `data` which is used in place, unless a
   * `backing` takes the segment: `data` is then copied into it). In a
   * `shared` memory every segment lives in a SharedArrayBuffer: `data` on an ordinary
   * ArrayBuffer is copied into one (so the caller's array is then not the segment).
   */
  map(base: number, size: number, label = '', data?: Uint8Array): Segment {
    if (!Number.isInteger(base) || base < 0 || base + size > this.vaLimit) throw new RangeError(`mapping 0x${base.toString(16)}+${size} is outside the ${Math.log2(this.vaLimit)}-bit VA space`);
    for (const s of this.segs) {
      if (base < s.end && s.base < base + size) throw new RangeError(`mapping 0x${base.toString(16)}+0x${size.toString(16)} overlaps '${s.label}' at 0x${s.base.toString(16)}`);
    }
    if (data !== undefined && data.length < size) throw new RangeError('backing data smaller than the mapping');
    const backed = this.backing?.alloc(this, size, data) ?? null;
    if (backed !== null && this.shared && !isShared(backed.u8.buffer)) throw new Error('a shared Memory\'s backing gave bytes outside a SharedArrayBuffer');
    let u8: Uint8Array;
    if (backed !== null) u8 = backed.u8;
    else {
      u8 = data ?? (this.shared ? new Uint8Array(new SharedArrayBuffer(size)) : new Uint8Array(size));
      if (this.shared && !(u8.buffer instanceof SharedArrayBuffer)) {
        const copy = new Uint8Array(new SharedArrayBuffer(Math.max(size, u8.length)));
        copy.set(u8);
        u8 = copy;
      }
    }
    const u32 = u8.byteOffset % 4 === 0 ? new Uint32Array(u8.buffer, u8.byteOffset, size >>> 2) : null;
    const seg: Segment = {
      base, size, end: base + size, u8: u8.subarray(0, size), dv: new DataView(u8.buffer, u8.byteOffset, size), u32,
      // A backing heap is this thread's alone unless the Memory is shared (its threads then use Atomics).
      shared: backed === null ? isShared(u8.buffer) : this.shared, label, ...(backed !== null ? { heap: backed.at } : {}),
    };
    this.segs.push(seg);
    this.segs.sort((a, b) => a.base - b.base);
    this.next = Math.max(this.next, alignUp(seg.end, 0x1000));
    this.changed();
    return seg;
  }

  /** Tell the backing the segments changed (its table follows them; none while watched). */
  private changed(): void {
    if (this.backing !== null) this.table = this.backing.update(this, Object.prototype.hasOwnProperty.call(this, 'find') ? null : this.segs);
  }

  /** Allocate and map a fresh zeroed range (aligned to `align`, default 256 bytes), returning its segment. */
  alloc(size: number, label = '', align = 256, data?: Uint8Array): Segment {
    const base = alignUp(this.next, Math.max(align, 256));
    // A guard gap between allocations makes small overruns fault instead of hitting a neighbour.
    const seg = this.map(base, Math.max(size, 0), label, data);
    this.next = alignUp(base + size + 0x1000, 0x1000);
    return seg;
  }

  /**
   * Done with this memory (its owner copied out what it keeps): a backing reuses its blocks at
   * once instead of when the Memory is collected. Every segment is unmapped.
   */
  release(): void {
    // Emptied in place: a fresh [] (another elements kind) in the field would deoptimise every
    // function V8 compiled with this field's array map (the block functions inlining `find`).
    this.segs.length = 0;
    this.last = null;
    this.table = 0;
    this.backing?.release(this);
  }

  unmap(base: number): void {
    this.segs = this.segs.filter((s) => s.base !== base);
    this.last = null;
    this.changed();
  }

  get segments(): readonly Segment[] {
    return this.segs;
  }

  /** The segment holding [va, va+size), or null. */
  find(va: number, size = 1): Segment | null {
    const l = this.last;
    if (l !== null && va >= l.base && va + size <= l.end) return l;
    let lo = 0;
    let hi = this.segs.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const s = this.segs[mid]!;
      if (va < s.base) hi = mid - 1;
      else if (va >= s.end) lo = mid + 1;
      else {
        if (va + size > s.end) return null;
        this.last = s;
        return s;
      }
    }
    return null;
  }

  /**
   * Watch this memory's accesses (a trace): `fn(va, size)` is called for every range looked up —
   * each read, write and atomic, mapped or not — until `watch(null)`. It shadows `find` on this
   * object only, so a memory nobody watches runs the class's method as before (no cost when off).
   */
  watch(fn: ((va: number, size: number) => void) | null): void {
    const self = this as unknown as { find?: Memory['find'] };
    if (fn === null) {
      delete self.find;
      this.changed();
      return;
    }
    const find = Memory.prototype.find;
    Object.defineProperty(this, 'find', {
      configurable: true, writable: true, enumerable: false,
      value: (va: number, size = 1): Segment | null => {
        fn(va, size);
        return find.call(this, va, size);
      },
    });
    // Translated code reads the backing's table, not `find`: emptied, it hands every access back.
    this.changed();
  }

  private fault(va: number, size: number, write: boolean): void {
    this.faults++;
    const f = { va, size, write };
    if (this.strictFaults) throw new MemoryFaultError(f);
    this.onFault?.(f);
  }

  read8(va: number): number {
    const s = this.find(va, 1);
    if (s === null) return this.fault(va, 1, false), 0;
    return s.u8[va - s.base]!;
  }
  read16(va: number): number {
    const s = this.find(va, 2);
    if (s === null) return this.fault(va, 2, false), 0;
    return s.dv.getUint16(va - s.base, true);
  }
  read32(va: number): number {
    const s = this.find(va, 4);
    if (s === null) return this.fault(va, 4, false), 0;
    return s.dv.getUint32(va - s.base, true);
  }
  /** 64-bit read as a JS number (exact below 2^53; addresses and sizes fit). */
  read64(va: number): number {
    return this.read32(va) + this.read32(va + 4) * 0x1_0000_0000;
  }
  readF32(va: number): number {
    const s = this.find(va, 4);
    if (s === null) return this.fault(va, 4, false), 0;
    return s.dv.getFloat32(va - s.base, true);
  }
  readF64(va: number): number {
    const s = this.find(va, 8);
    if (s === null) return this.fault(va, 8, false), 0;
    return s.dv.getFloat64(va - s.base, true);
  }
  write8(va: number, v: number): void {
    const s = this.find(va, 1);
    if (s === null) return this.fault(va, 1, true);
    s.u8[va - s.base] = v;
  }
  write16(va: number, v: number): void {
    const s = this.find(va, 2);
    if (s === null) return this.fault(va, 2, true);
    s.dv.setUint16(va - s.base, v, true);
  }
  write32(va: number, v: number): void {
    const s = this.find(va, 4);
    if (s === null) return this.fault(va, 4, true);
    s.dv.setUint32(va - s.base, v >>> 0, true);
  }
  write64(va: number, v: number): void {
    this.write32(va, v % 0x1_0000_0000);
    this.write32(va + 4, Math.floor(v / 0x1_0000_0000));
  }
  writeF32(va: number, v: number): void {
    const s = this.find(va, 4);
    if (s === null) return this.fault(va, 4, true);
    s.dv.setFloat32(va - s.base, v, true);
  }
  writeF64(va: number, v: number): void {
    const s = this.find(va, 8);
    if (s === null) return this.fault(va, 8, true);
    s.dv.setFloat64(va - s.base, v, true);
  }

  /** Copy bytes out (unmapped bytes read as 0 and count as faults). */
  readBytes(va: number, size: number): Uint8Array {
    const s = this.find(va, size);
    if (s !== null) return s.u8.slice(va - s.base, va - s.base + size);
    const out = new Uint8Array(size);
    for (let i = 0; i < size; i++) out[i] = this.read8(va + i);
    return out;
  }

  /** Copy bytes in (unmapped bytes are dropped and count as faults). */
  writeBytes(va: number, data: Uint8Array): void {
    const s = this.find(va, data.length);
    if (s !== null) {
      s.u8.set(data, va - s.base);
      return;
    }
    for (let i = 0; i < data.length; i++) this.write8(va + i, data[i]!);
  }
}

function isShared(b: ArrayBufferLike): boolean {
  // SharedArrayBuffer is absent from pages that are not cross-origin isolated.
  return typeof SharedArrayBuffer !== 'undefined' && b instanceof SharedArrayBuffer;
}

export function alignUp(v: number, a: number): number {
  return Math.ceil(v / a) * a;
}
