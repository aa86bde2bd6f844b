/**
 * The GPU buffers a crash dump carries (ring buffers, bos), looked up by 64-bit iova. Addresses
 * are plain numbers: exact below 2^53, which covers every Adreno iova (the kernel's ring buffers
 * sit above 2^48, so no 48-bit VA limit here). A host pointer is a dword array and an index into it.
 */

export interface HostPtr {
  readonly arr: Uint32Array;
  readonly off: number;
}

interface Buf {
  readonly iova: number;
  readonly size: number;
  readonly data: Uint32Array;
}

export class DumpBuffers {
  private readonly bufs: Buf[] = [];

  /**
   * Add a buffer of `size` bytes holding `data` (the kernel drops trailing zero dwords: reads
   * past `data` are zero, so the array is not extended).
   */
  add(iova: number, size: number, data: Uint32Array): Uint32Array {
    this.bufs.push({ iova, size: Math.max(size, 0), data });
    return data;
  }

  private find(addr: number): Buf | undefined {
    for (const b of this.bufs) if (b.iova <= addr && addr < b.iova + b.size) return b;
    return undefined;
  }

  /** The host dwords at a GPU address, or undefined when no buffer holds it. */
  hostptr(addr: number): HostPtr | undefined {
    const b = this.find(addr);
    if (!b) return undefined;
    return { arr: b.data, off: Math.floor((addr - b.iova) / 4) };
  }
}
