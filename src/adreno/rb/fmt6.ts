/**
 * FMT6 colour formats the 2D engine converts between (seed 004, "Formats"): how a pixel of each
 * is packed, to and from RGBA floats. Format numbers come from the register database's
 * a6xx_format enum by name; the component order is the one COLOR_SWAP WZYX (0) gives: the first
 * component (R) in the lowest bits. WXYZ (1) swaps R and B of 3/4-component formats.
 */
import { enumValue } from '../regs/db.js';

export interface Fmt6 {
  readonly name: string;
  readonly value: number;
  /** Bytes per pixel (one sample). */
  readonly cpp: number;
  readonly comps: number;
  unpack(b: Uint8Array, o: number): [number, number, number, number];
  pack(c: readonly number[], b: Uint8Array, o: number): void;
}

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);

export function halfToFloat(h: number): number {
  const s = h & 0x8000 ? -1 : 1;
  const e = (h >> 10) & 0x1f;
  const m = h & 0x3ff;
  if (e === 0) return s * m * 2 ** -24;
  if (e === 31) return m ? NaN : s * Infinity;
  return s * (1 + m / 1024) * 2 ** (e - 15);
}

/** Round-to-nearest-even float -> half. */
export function floatToHalf(v: number): number {
  f32[0] = v;
  const x = u32[0]!;
  const sign = (x >>> 16) & 0x8000;
  const e = (x >>> 23) & 0xff;
  let m = x & 0x7fffff;
  if (e === 0xff) return sign | 0x7c00 | (m ? 0x200 : 0);
  let ne = e - 127 + 15;
  if (ne >= 31) return sign | 0x7c00;
  if (ne <= 0) {
    if (ne < -10) return sign;
    m |= 0x800000;
    const shift = 14 - ne;
    let r = m >>> shift;
    const rem = m & ((1 << shift) - 1);
    const half = 1 << (shift - 1);
    if (rem > half || (rem === half && r & 1)) r++;
    return sign | r;
  }
  let r = m >>> 13;
  const rem = m & 0x1fff;
  if (rem > 0x1000 || (rem === 0x1000 && r & 1)) r++;
  if (r === 0x400) { r = 0; ne++; if (ne >= 31) return sign | 0x7c00; }
  return sign | (ne << 10) | r;
}

export function bitsToFloat(x: number): number {
  u32[0] = x >>> 0;
  return f32[0]!;
}

export function floatToBits(v: number): number {
  f32[0] = v;
  return u32[0]!;
}

const clamp01 = (v: number): number => (Number.isNaN(v) ? 0 : Math.min(1, Math.max(0, v)));
const toUnorm = (v: number, bits: number): number => Math.round(clamp01(v) * (2 ** bits - 1));

function rd(b: Uint8Array, o: number, n: number): number {
  let v = 0;
  for (let i = n - 1; i >= 0; i--) v = v * 256 + b[o + i]!;
  return v;
}
function wr(b: Uint8Array, o: number, n: number, v: number): void {
  for (let i = 0; i < n; i++) { b[o + i] = v % 256; v = Math.floor(v / 256); }
}

/** Packed unorm fields: widths low to high. */
function packedUnorm(widths: readonly number[]): Pick<Fmt6, 'unpack' | 'pack' | 'cpp' | 'comps'> {
  const cpp = widths.reduce((a, b) => a + b, 0) / 8;
  return {
    cpp,
    comps: widths.length,
    unpack(b, o) {
      let v = rd(b, o, cpp);
      const c: [number, number, number, number] = [0, 0, 0, 1];
      for (let i = 0; i < widths.length; i++) { const w = widths[i]!; c[i] = (v % 2 ** w) / (2 ** w - 1); v = Math.floor(v / 2 ** w); }
      return c;
    },
    pack(c, b, o) {
      let v = 0;
      for (let i = widths.length - 1; i >= 0; i--) v = v * 2 ** widths[i]! + toUnorm(c[i]!, widths[i]!);
      wr(b, o, cpp, v);
    },
  };
}

function floats(n: number, bits: 16 | 32): Pick<Fmt6, 'unpack' | 'pack' | 'cpp' | 'comps'> {
  const sz = bits / 8;
  return {
    cpp: n * sz,
    comps: n,
    unpack(b, o) {
      const c: [number, number, number, number] = [0, 0, 0, 1];
      for (let i = 0; i < n; i++) { const x = rd(b, o + i * sz, sz); c[i] = bits === 16 ? halfToFloat(x) : bitsToFloat(x); }
      return c;
    },
    pack(c, b, o) {
      for (let i = 0; i < n; i++) wr(b, o + i * sz, sz, bits === 16 ? floatToHalf(c[i]!) : floatToBits(c[i]!));
    },
  };
}

const DEFS: ReadonlyArray<[string, Pick<Fmt6, 'unpack' | 'pack' | 'cpp' | 'comps'>]> = [
  ['FMT6_8_UNORM', packedUnorm([8])],
  ['FMT6_8_8_UNORM', packedUnorm([8, 8])],
  ['FMT6_8_8_8_8_UNORM', packedUnorm([8, 8, 8, 8])],
  ['FMT6_5_6_5_UNORM', packedUnorm([5, 6, 5])],
  ['FMT6_10_10_10_2_UNORM', packedUnorm([10, 10, 10, 2])],
  ['FMT6_10_10_10_2_UNORM_DEST', packedUnorm([10, 10, 10, 2])],
  ['FMT6_16_FLOAT', floats(1, 16)],
  ['FMT6_16_16_FLOAT', floats(2, 16)],
  ['FMT6_16_16_16_16_FLOAT', floats(4, 16)],
  ['FMT6_32_FLOAT', floats(1, 32)],
  ['FMT6_32_32_FLOAT', floats(2, 32)],
  ['FMT6_32_32_32_32_FLOAT', floats(4, 32)],
];

const BY_VALUE = new Map<number, Fmt6>();
for (const [name, d] of DEFS) {
  const value = enumValue('a6xx_format', name, 'a6xx');
  if (value === undefined) throw new Error(`a6xx_format has no ${name}`);
  BY_VALUE.set(value, { name, value, ...d });
}

/** The modelled FMT6 colour format with this enum value, if any. */
export function fmt6(value: number): Fmt6 | undefined {
  return BY_VALUE.get(value);
}

export function fmt6ByName(name: string): Fmt6 {
  for (const f of BY_VALUE.values()) if (f.name === name) return f;
  throw new Error(`FMT6 format ${name} is not modelled`);
}

export const FMT6_MODELLED: readonly string[] = DEFS.map(([n]) => n);

/** Apply a COLOR_SWAP (0 WZYX identity, 1 WXYZ: R<->B); undefined for swaps not modelled. */
export function applySwap(c: [number, number, number, number], swap: number): [number, number, number, number] | undefined {
  if (swap === 0) return c;
  if (swap === 1) return [c[2], c[1], c[0], c[3]];
  return undefined;
}
