/**
 * The model's GMEM pixel layout, shared by every agent that addresses a bin buffer: the RB (draws,
 * BLIT event), the TP (TILE6_2 textures, sp/tex.ts) and the 2D engine (a TILE6_2 CP_BLIT source,
 * blit2d.ts). Row-major from the buffer's GMEM offset, `pitch` bytes a row, the samples of a pixel
 * together; (winX, winY) is the bin's origin. Why one mapping is enough: rb/gmem.ts and
 * docs/adreno.md ("The layout argument").
 */

/** The GMEM byte offset of pixel (x, y) of a bin buffer at `base` with a row pitch in bytes. */
export function gmemPitchOffset(base: number, x: number, y: number, winX: number, winY: number, pitch: number, ecpp: number): number {
  return base + (y - winY) * pitch + (x - winX) * ecpp;
}

/** The same with the pitch of a whole bin row (bin width x ecpp), as the RB lays a buffer out. */
export function gmemOffset(base: number, x: number, y: number, winX: number, winY: number, binW: number, ecpp: number): number {
  return gmemPitchOffset(base, x, y, winX, winY, binW * ecpp, ecpp);
}
