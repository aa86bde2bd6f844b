/**
 * The source formats an SSPP fetches (DRM fourcc names, little-endian bit positions as the
 * kernel's DPU format table lists them): packed RGB with and without alpha at 16, 24 and 32 bits
 * per pixel, 10-bit RGB, and YUV (semi-planar NV12/NV21/NV16/NV61, packed 4:2:2
 * YUYV/YVYU/UYVY/VYUY, three-plane YUV420/YVU420).
 */

/** A packed RGB format: component bit fields inside a little-endian word of `cpp` bytes. */
export interface RgbFormat {
  readonly kind: 'rgb';
  readonly name: string;
  readonly cpp: number;
  /** [shift, bits] of R, G, B and A (A bits 0: no alpha, read as opaque). */
  readonly r: readonly [number, number];
  readonly g: readonly [number, number];
  readonly b: readonly [number, number];
  readonly a: readonly [number, number];
}

export type Chroma = '420' | '422';

/** A YUV format: plane arrangement, chroma subsampling and order. */
export interface YuvFormat {
  readonly kind: 'yuv';
  readonly name: string;
  readonly layout: 'semiplanar' | 'packed' | 'planar';
  readonly chroma: Chroma;
  /** Semi-planar: Cb first in the interleaved plane. Planar: Cb plane second. */
  readonly cbFirst: boolean;
  /** Packed 4:2:2: byte positions of Y0, Cb, Y1, Cr in each 4-byte pair of pixels. */
  readonly packed?: readonly [number, number, number, number];
}

export type Format = RgbFormat | YuvFormat;

const rgb = (name: string, cpp: number, r: [number, number], g: [number, number], b: [number, number], a: [number, number] = [0, 0]): RgbFormat => ({ kind: 'rgb', name, cpp, r, g, b, a });

const LIST: Format[] = [
  rgb('ARGB8888', 4, [16, 8], [8, 8], [0, 8], [24, 8]),
  rgb('XRGB8888', 4, [16, 8], [8, 8], [0, 8]),
  rgb('ABGR8888', 4, [0, 8], [8, 8], [16, 8], [24, 8]),
  rgb('XBGR8888', 4, [0, 8], [8, 8], [16, 8]),
  rgb('RGBA8888', 4, [24, 8], [16, 8], [8, 8], [0, 8]),
  rgb('RGBX8888', 4, [24, 8], [16, 8], [8, 8]),
  rgb('BGRA8888', 4, [8, 8], [16, 8], [24, 8], [0, 8]),
  rgb('BGRX8888', 4, [8, 8], [16, 8], [24, 8]),
  rgb('ARGB2101010', 4, [20, 10], [10, 10], [0, 10], [30, 2]),
  rgb('XRGB2101010', 4, [20, 10], [10, 10], [0, 10]),
  rgb('ABGR2101010', 4, [0, 10], [10, 10], [20, 10], [30, 2]),
  rgb('XBGR2101010', 4, [0, 10], [10, 10], [20, 10]),
  rgb('RGB888', 3, [16, 8], [8, 8], [0, 8]),
  rgb('BGR888', 3, [0, 8], [8, 8], [16, 8]),
  rgb('RGB565', 2, [11, 5], [5, 6], [0, 5]),
  rgb('BGR565', 2, [0, 5], [5, 6], [11, 5]),
  rgb('ARGB1555', 2, [10, 5], [5, 5], [0, 5], [15, 1]),
  rgb('XRGB1555', 2, [10, 5], [5, 5], [0, 5]),
  rgb('RGBA5551', 2, [11, 5], [6, 5], [1, 5], [0, 1]),
  rgb('ARGB4444', 2, [8, 4], [4, 4], [0, 4], [12, 4]),
  rgb('RGBA4444', 2, [12, 4], [8, 4], [4, 4], [0, 4]),
  { kind: 'yuv', name: 'NV12', layout: 'semiplanar', chroma: '420', cbFirst: true },
  { kind: 'yuv', name: 'NV21', layout: 'semiplanar', chroma: '420', cbFirst: false },
  { kind: 'yuv', name: 'NV16', layout: 'semiplanar', chroma: '422', cbFirst: true },
  { kind: 'yuv', name: 'NV61', layout: 'semiplanar', chroma: '422', cbFirst: false },
  { kind: 'yuv', name: 'YUYV', layout: 'packed', chroma: '422', cbFirst: true, packed: [0, 1, 2, 3] },
  { kind: 'yuv', name: 'YVYU', layout: 'packed', chroma: '422', cbFirst: false, packed: [0, 3, 2, 1] },
  { kind: 'yuv', name: 'UYVY', layout: 'packed', chroma: '422', cbFirst: true, packed: [1, 0, 3, 2] },
  { kind: 'yuv', name: 'VYUY', layout: 'packed', chroma: '422', cbFirst: false, packed: [1, 2, 3, 0] },
  { kind: 'yuv', name: 'YUV420', layout: 'planar', chroma: '420', cbFirst: true },
  { kind: 'yuv', name: 'YVU420', layout: 'planar', chroma: '420', cbFirst: false },
];

export const FORMATS: ReadonlyMap<string, Format> = new Map(LIST.map((f) => [f.name, f]));

/** Expand an n-bit value to m bits by repeating its bits (how the DPU unpacks narrow components). */
export function expandBits(v: number, n: number, m: number): number {
  if (n === 0) return 0;
  if (n >= m) return v >> (n - m);
  let r = 0;
  let bits = 0;
  while (bits < m) {
    r = (r << n) | v;
    bits += n;
  }
  return r >> (bits - m);
}

/** Read the little-endian word of one pixel. */
export function readWord(buf: Uint8Array, off: number, cpp: number): number {
  let w = 0;
  for (let i = cpp - 1; i >= 0; i--) w = w * 256 + buf[off + i]!;
  return w;
}

export function writeWord(buf: Uint8Array, off: number, cpp: number, w: number): void {
  for (let i = 0; i < cpp; i++) {
    buf[off + i] = w % 256;
    w = Math.floor(w / 256);
  }
}

const field = (w: number, f: readonly [number, number]): number => Math.floor(w / 2 ** f[0]) % 2 ** f[1];

/** Unpack one RGB pixel to the pipe's domain: 10-bit R, G, B and 8-bit alpha. */
export function unpackRgb(fmt: RgbFormat, w: number, out: Uint16Array, o: number): void {
  out[o] = expandBits(field(w, fmt.r), fmt.r[1], 10);
  out[o + 1] = expandBits(field(w, fmt.g), fmt.g[1], 10);
  out[o + 2] = expandBits(field(w, fmt.b), fmt.b[1], 10);
  out[o + 3] = fmt.a[1] ? expandBits(field(w, fmt.a), fmt.a[1], 8) : 255;
}

/** Pack component values (each at its own field width) into the format's word. */
export function packRgb(fmt: RgbFormat, r: number, g: number, b: number, a: number): number {
  const put = (v: number, f: readonly [number, number]): number => (f[1] ? (v % 2 ** f[1]) * 2 ** f[0] : 0);
  return put(r, fmt.r) + put(g, fmt.g) + put(b, fmt.b) + put(a, fmt.a);
}

/** The byte holding alpha in a 32-bit 8888 format (for UBWC fast clears), -1 without alpha. */
export function alphaByte(fmt: RgbFormat): number {
  if (fmt.cpp !== 4 || fmt.r[1] !== 8 || fmt.g[1] !== 8 || fmt.b[1] !== 8) return -1;
  // The A (or X) byte is the one the colour fields do not use.
  return 6 - (fmt.r[0] + fmt.g[0] + fmt.b[0]) / 8;
}
