/**
 * VPC stream-out (transform feedback; seed 004 "VPC", CP_DRAW_AUTO "draws using transform
 * feedback data"). Facts from freedreno's a6xx.xml and from how fd6 / turnip program it:
 *
 * - The SO program is a RAM of 4 x 64 dwords (one block of 64 per stream), loaded through
 *   VPC_SO_CNTL (ADDR: the dword written next; RESET clears every A_EN / B_EN) and repeated writes
 *   of VPC_SO_PROG (the address auto-increments). Dword `64 * stream + loc / 2` describes VPC
 *   locations loc (A half, even) and loc + 1 (B half, odd): enable, buffer (0..3) and the byte
 *   offset of that dword inside the vertex's record (A_OFF / B_OFF, multiples of 4).
 * - VPC_SO_STREAM_CNTL: STREAM_ENABLE (a bit per stream) and BUFn_STREAM = stream + 1 (0: the
 *   buffer is not used); VPC_SO[n]: BUFFER_BASE (32-byte aligned), BUFFER_SIZE (bytes from BASE:
 *   the end of the buffer), BUFFER_STRIDE (dwords in the register: bytes = raw x 4), BUFFER_OFFSET
 *   (bytes from BASE: where the next vertex goes), FLUSH_BASE (where FLUSH_SO_n writes the
 *   offset, in dwords — turnip reads it back with CP_MEM_TO_REG SHIFT_BY_2 to get bytes).
 *
 * A primitive's vertices are written one record (STRIDE bytes) each to every buffer of the stream;
 * a primitive that would not fit below BUFFER_SIZE in one of them is written to none and the
 * offsets stay (Vulkan's overflow rule: no partial primitives; the byte counter excludes it).
 * The VS is the last geometry stage here (no GS / tessellation), so only stream 0 produces vertices.
 */

/** SO program dwords per stream, and streams. */
export const SO_PROG_DWORDS = 64;
export const SO_STREAMS = 4;

/** One enabled SO program entry: VPC location `loc` goes to buffer `buf` at byte `off` of the vertex record. */
export interface SoEntry {
  readonly loc: number;
  readonly buf: number;
  readonly off: number;
}

/** The SO program RAM with its VPC_SO_CNTL address pointer. */
export class SoProgram {
  readonly ram = new Uint32Array(SO_PROG_DWORDS * SO_STREAMS);
  ptr = 0;
  /** VPC_SO_CNTL: ADDR (bits 0..7) selects the next dword; RESET (bit 16) clears every entry's enables. */
  cntl(v: number): void {
    if ((v >>> 16) & 1) for (let k = 0; k < this.ram.length; k++) this.ram[k] = this.ram[k]! & ~((1 << 11) | (1 << 23));
    this.ptr = v & 0xff;
  }
  /** VPC_SO_PROG: the dword at the pointer, then the pointer moves on. */
  prog(v: number): void {
    this.ram[this.ptr] = v >>> 0;
    this.ptr = (this.ptr + 1) & 0xff;
  }
  /** The enabled entries of a stream in location order. */
  entries(stream: number): SoEntry[] {
    const out: SoEntry[] = [];
    for (let d = 0; d < SO_PROG_DWORDS; d++) {
      const w = this.ram[stream * SO_PROG_DWORDS + d]!;
      if ((w >>> 11) & 1) out.push({ loc: 2 * d, buf: w & 3, off: ((w >>> 2) & 0x1ff) * 4 });
      if ((w >>> 23) & 1) out.push({ loc: 2 * d + 1, buf: (w >>> 12) & 3, off: ((w >>> 14) & 0x1ff) * 4 });
    }
    return out;
  }
}

/** One buffer of the stream as the VPC_SO[n] registers give it (bytes). */
export interface SoBuffer {
  readonly index: number;
  readonly base: number;
  readonly size: number;
  readonly stride: number;
  /** The write offset: starts at BUFFER_OFFSET, advanced by each written vertex. */
  offset: number;
}

export interface SoCounts {
  /** Primitives the stream produced (generated) and the ones written to its buffers. */
  generated: number;
  written: number;
  /** Dwords stored. */
  dwords: number;
}

/**
 * The stream-out of one draw: `primitive(vertices)` per assembled primitive (each vertex's VPC
 * locations as 32-bit words), in primitive order; the buffers' offsets move as records are written.
 */
export class StreamOut {
  readonly counts: SoCounts = { generated: 0, written: 0, dwords: 0 };
  readonly buffers: readonly SoBuffer[];
  readonly entries: readonly SoEntry[];
  private readonly write32: (addr: number, v: number) => void;
  constructor(buffers: readonly SoBuffer[], entries: readonly SoEntry[], write32: (addr: number, v: number) => void) {
    this.buffers = buffers;
    this.entries = entries;
    this.write32 = write32;
  }

  primitive(vertices: readonly Uint32Array[]): void {
    this.counts.generated++;
    // No buffer left to write (every one unmapped): generated, not written.
    if (!this.buffers.length) return;
    const n = vertices.length;
    // No partial primitives: every buffer of the stream must hold all of its vertices.
    for (const b of this.buffers) if (b.offset + n * b.stride > b.size) return;
    for (const v of vertices) {
      for (const e of this.entries) {
        const b = this.buffers.find((x) => x.index === e.buf);
        if (!b) continue;
        this.write32(b.base + b.offset + e.off, v[e.loc] ?? 0);
        this.counts.dwords++;
      }
      for (const b of this.buffers) b.offset += b.stride;
    }
    this.counts.written++;
  }
}
