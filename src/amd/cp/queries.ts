/**
 * Query result blocks the CP and the DB write and SET_PREDICATION reads, in the layout Mesa's
 * radeonsi/radv read back (si_query.c, radv_query.c):
 *
 * - Occlusion (ZPASS): one 16-byte slot per render backend (RB). The "begin" event
 *   (EVENT_WRITE ZPASS_DONE on GFX9/GFX10.3, PIXEL_PIPE_STAT_DUMP or EVENT_WRITE_ZPASS on GFX11,
 *   each with an address) makes every RB i write its 64-bit samples-passed counter at
 *   va + 16*i; the driver points the "end" event at va + 8. Bit 63 of each value says the RB
 *   wrote it. The result is the sum over RBs of end - begin, counted only when both have bit 63.
 * - Streamout statistics (SAMPLE_STREAMOUTSTATS*, PRIMCOUNT predication): 32 bytes,
 *   {NumPrimitivesWritten, PrimitiveStorageNeeded} at begin (+0, +8) and end (+16, +24), bit 63
 *   set on each; the stream overflowed when storage needed grew more than primitives written.
 *
 * Values are kept as two 32-bit halves: a JavaScript number cannot hold bit 63 with a small count.
 */
import type { Memory } from '../../core/memory.js';

export const ZPASS_SLOT_BYTES = 16;
/** Render backends of the modelled GPU (query slots per occlusion block) unless a caller says otherwise. */
export const DEFAULT_RENDER_BACKENDS = 4;

/** Write a 64-bit counter with the valid bit (63) set. */
export function writeQueryValue(mem: Memory, va: number, count: number): void {
  mem.write32(va, count % 0x1_0000_0000);
  mem.write32(va + 4, ((Math.floor(count / 0x1_0000_0000) & 0x7fffffff) | 0x8000_0000) >>> 0);
}

/** A 64-bit query value: its count (bits 62:0) and whether bit 63 (written) is set. */
export function readQueryValue(mem: Memory, va: number): { valid: boolean; count: number } {
  const lo = mem.read32(va) >>> 0;
  const hi = mem.read32(va + 4) >>> 0;
  return { valid: hi >>> 31 === 1, count: (hi & 0x7fffffff) * 0x1_0000_0000 + lo };
}

/** What the RBs write for one ZPASS event: counter i at va + 16*i. */
export function writeZpassCounts(mem: Memory, va: number, counts: readonly number[]): void {
  counts.forEach((c, i) => writeQueryValue(mem, va + ZPASS_SLOT_BYTES * i, c));
}

/** An occlusion query block of `rbs` slots: ready when every slot has both values; samples passed. */
export function readZpassBlock(mem: Memory, va: number, rbs: number): { ready: boolean; samples: number } {
  let ready = true;
  let samples = 0;
  for (let i = 0; i < rbs; i++) {
    const b = readQueryValue(mem, va + ZPASS_SLOT_BYTES * i);
    const e = readQueryValue(mem, va + ZPASS_SLOT_BYTES * i + 8);
    if (b.valid && e.valid) samples += e.count - b.count;
    else ready = false;
  }
  return { ready, samples };
}

/** A streamout statistics block: ready when all four values are written; overflow per D3D/GL. */
export function readStreamoutBlock(mem: Memory, va: number): { ready: boolean; overflow: boolean } {
  const v = [0, 8, 16, 24].map((o) => readQueryValue(mem, va + o));
  const ready = v.every((x) => x.valid);
  const written = v[2]!.count - v[0]!.count;
  const needed = v[3]!.count - v[1]!.count;
  return { ready, overflow: needed !== written };
}
