/**
 * GRAS_CL_GUARDBAND_CLIP_ADJ (a6xx.xml: HORZ bits 0-8, VERT bits 10-18): the guardband as a
 * multiple of the viewport's half size, in a 3.6 floating point — exponent in the top 3 bits,
 * mantissa with an implied leading one in the low 6, value = 2^e x (1 + m / 64) (1.0 .. 254.0).
 * Primitives are clipped in clip space against |x| <= gb_x w and |y| <= gb_y w (besides w > 0
 * and the depth planes); the scissors do the rest, so a guardband never removes a visible pixel
 * (it is at least the viewport).
 *
 * `guardbandAdj` is what freedreno's fd_calc_guardband programs: the largest representable value
 * (rounded down) whose band stays inside the rasterizer's [-32768, 32767] pixel range for that
 * viewport offset and scale (Vulkan's viewportBoundsRange), 0x1ff when the range is smaller than
 * the viewport or unbounded. Older freedreno programmed 511 - 65 (log2(size) - 8) (the
 * fd-clouds capture: HORZ 311 / VERT 349 for 2160x1440, i.e. 29.75 and 46.5), slightly past
 * that range; so a band past it is not called an error here.
 */

/** The rasterizer's pixel range on a4xx and later (fd_calc_guardband's gb_min / gb_max). */
export const GB_PIXEL_MIN = -32768;
export const GB_PIXEL_MAX = 32767;
/** All ones without overflowing the 9-bit fields. */
export const MAX_GB = 0x1ff;

/** The guardband multiple a 9-bit field encodes. */
export function guardbandValue(field: number): number {
  return 2 ** ((field >> 6) & 7) * (1 + (field & 63) / 64);
}

/** The field for a viewport axis (offset = centre, scale = half size in pixels), rounded down. */
export function guardbandAdj(offset: number, scale: number): number {
  const s = Math.abs(Math.fround(scale));
  const adj = Math.fround(Math.min(-(GB_PIXEL_MIN - offset) / s, (GB_PIXEL_MAX - offset) / s));
  if (!(adj >= 1) || !Number.isFinite(adj)) return MAX_GB;
  // frexp: adj = mant x 2^exp with mant in [0.5, 1).
  const exp = Math.floor(Math.log2(adj)) + 1;
  const mant = adj / 2 ** exp;
  if (exp <= 0 || exp > 8) return MAX_GB;
  return ((exp - 1) << 6) | (Math.trunc(mant * 128) - 64);
}
