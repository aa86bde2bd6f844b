/**
 * GRAS_SC_CNTL SINGLE_PRIM_MODE: what a fragment shader sees when it samples (TP / L1 / UCHE)
 * memory its own draw's RB is writing — a feedback loop (seed 004, "Caches"; the field's enum
 * a6xx_single_prim_mode in the register XML).
 *
 * - NO_FLUSH (0): nothing happens between overlapping primitives. The RB's writes sit in the CCU
 *   (sysmem) or the GMEM tile, not in UCHE: a fragment reads the bytes from before the draw, also
 *   where an earlier primitive of the draw has written its pixel since.
 * - FLUSH_PER_OVERLAP (3): when a primitive possibly overlaps an earlier one, GRAS stalls until the
 *   earlier one is written and UCHE is invalidated. The newest value is visible where the RB's
 *   writes land where UCHE reads (the GMEM-mode case the XML names); in sysmem the CCU still holds
 *   them, so the fragment still sees the bytes from before the draw.
 * - FLUSH_PER_OVERLAP_AND_OVERWRITE (1): additionally keeps the CCU and UCHE in sync: the newest
 *   value in sysmem too (what the blob and turnip use for feedback loops in bypass mode).
 * - 2 is not in the enum: `adreno.gras.single-prim-mode-reserved`, read as NO_FLUSH.
 *
 * The model: a stalling mode runs the FS and RB of the pending fragments before a primitive that
 * covers a pixel an earlier primitive of the draw covered (so its FS sees those writes); a mode
 * that does not make the writes visible gives the FS a view of the loop's ranges as they were when
 * the draw started. Either way the result does not depend on how fragments are batched.
 */
import type { Memory, Segment } from '../../core/memory.js';

export type SinglePrimMode = 'NO_FLUSH' | 'FLUSH_PER_OVERLAP' | 'FLUSH_PER_OVERLAP_AND_OVERWRITE';

/** The field's value as the mode it selects (2 is reserved: undefined). */
export function singlePrimMode(v: number): SinglePrimMode | undefined {
  return v === 0 ? 'NO_FLUSH' : v === 1 ? 'FLUSH_PER_OVERLAP_AND_OVERWRITE' : v === 3 ? 'FLUSH_PER_OVERLAP' : undefined;
}

/** The mode a feedback loop needs: sysmem keeps CCU and UCHE in sync, GMEM only stalls. */
export function neededMode(sysmem: boolean): SinglePrimMode {
  return sysmem ? 'FLUSH_PER_OVERLAP_AND_OVERWRITE' : 'FLUSH_PER_OVERLAP';
}

/** Does `mode` stall overlapping primitives, and does the FS then see the earlier writes? */
export function overlapBehaviour(mode: SinglePrimMode, sysmem: boolean): { stall: boolean; coherent: boolean } {
  if (mode === 'NO_FLUSH') return { stall: false, coherent: false };
  if (mode === 'FLUSH_PER_OVERLAP') return { stall: true, coherent: !sysmem };
  return { stall: true, coherent: true };
}

/** A range both sampled by the FS and written by the draw's RB. */
export interface LoopRange {
  readonly base: number;
  readonly len: number;
  /** "t#1 samples MRT0" (for messages). */
  readonly what: string;
  /** A UBWC target's pixels or flags: without FLUSH_PER_OVERLAP_AND_OVERWRITE they can reach UCHE out of step. */
  readonly ubwc?: boolean;
}

/** The ranges where [tb, tb + tl) (a texture) meets a written range [wb, wb + wl). */
export function meet(tb: number, tl: number, wb: number, wl: number): { base: number; len: number } | undefined {
  const lo = Math.max(tb, wb), hi = Math.min(tb + tl, wb + wl);
  return lo < hi ? { base: lo, len: hi - lo } : undefined;
}

/**
 * The memory the FS's texture unit reads when the loop's writes are not visible to it: the loop's
 * ranges as they were at the draw's start (copied now, by `read`: what UCHE holds), every other
 * address the live memory.
 */
export function staleView(mem: Memory, ranges: readonly LoopRange[], read: (r: LoopRange) => Uint8Array = (r) => mem.readBytes(r.base, r.len)): Memory {
  const segs: Segment[] = ranges.map((r) => {
    const u8 = read(r);
    return { base: r.base, size: r.len, end: r.base + r.len, u8, dv: new DataView(u8.buffer, u8.byteOffset, u8.byteLength), u32: null, shared: false, label: `before the draw: ${r.what}` };
  });
  const view = Object.create(mem) as Memory;
  Object.defineProperty(view, 'find', {
    configurable: true, enumerable: false, writable: true,
    value: (va: number, size = 1): Segment | null => {
      for (const s of segs) if (va >= s.base && va + size <= s.end) return s;
      return mem.find(va, size);
    },
  });
  return view;
}

/**
 * Pixels covered by the draw's earlier primitives (GRAS's overlap test): `next` starts a
 * primitive (the previous one's pixels join the earlier ones), `covers` says whether fragments
 * meet an earlier primitive's pixels, `mark` records the current primitive's.
 */
export class OverlapTracker {
  private readonly seen = new Set<number>();
  private current: number[] = [];
  next(): void {
    for (const k of this.current) this.seen.add(k);
    this.current = [];
  }
  covers(pixels: Iterable<{ x: number; y: number }>): boolean {
    for (const p of pixels) if (this.seen.has(p.y * 65536 + p.x)) return true;
    return false;
  }
  mark(pixels: Iterable<{ x: number; y: number }>): void {
    for (const p of pixels) this.current.push(p.y * 65536 + p.x);
  }
}
