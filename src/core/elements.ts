/**
 * Typed element buffers shared by every family and the runtime: the element types of a run
 * manifest (u8..f64), reading an element, and comparing result buffers within a ULP bound. In
 * core/ so a family folder (adreno/sp) compares buffers without importing runtime/.
 */

export const ELEM_TYPES = ['u8', 'i8', 'u16', 'i16', 'u32', 'i32', 'u64', 'i64', 'f16', 'f32', 'f64'] as const;

export type ElemType = (typeof ELEM_TYPES)[number];

export interface ElemInfo {
  readonly bytes: 1 | 2 | 4 | 8;
  readonly kind: 'uint' | 'int' | 'float';
}

export const ELEM: Readonly<Record<ElemType, ElemInfo>> = {
  u8: { bytes: 1, kind: 'uint' }, i8: { bytes: 1, kind: 'int' },
  u16: { bytes: 2, kind: 'uint' }, i16: { bytes: 2, kind: 'int' },
  u32: { bytes: 4, kind: 'uint' }, i32: { bytes: 4, kind: 'int' },
  u64: { bytes: 8, kind: 'uint' }, i64: { bytes: 8, kind: 'int' },
  f16: { bytes: 2, kind: 'float' }, f32: { bytes: 4, kind: 'float' }, f64: { bytes: 8, kind: 'float' },
};

/** Read element i of a buffer as a JS number (64-bit integers exact below 2^53). */
export function readElem(dv: DataView, at: number, t: ElemType): number {
  switch (t) {
    case 'u8': return dv.getUint8(at);
    case 'i8': return dv.getInt8(at);
    case 'u16': return dv.getUint16(at, true);
    case 'i16': return dv.getInt16(at, true);
    case 'u32': return dv.getUint32(at, true);
    case 'i32': return dv.getInt32(at, true);
    case 'u64': return dv.getUint32(at, true) + dv.getUint32(at + 4, true) * 0x1_0000_0000;
    case 'i64': return dv.getUint32(at, true) + dv.getInt32(at + 4, true) * 0x1_0000_0000;
    case 'f16': {
      const h = dv.getUint16(at, true);
      const s = h & 0x8000 ? -1 : 1;
      const e = (h >>> 10) & 0x1f;
      const m = h & 0x3ff;
      if (e === 0) return s * m * 2 ** -24;
      if (e === 31) return m === 0 ? s * Infinity : NaN;
      return s * (1 + m / 1024) * 2 ** (e - 15);
    }
    case 'f32': return dv.getFloat32(at, true);
    case 'f64': return dv.getFloat64(at, true);
  }
}

export interface Mismatch {
  readonly index: number;
  readonly got: string;
  readonly want: string;
  /** ULP distance for floats (Infinity when one side is NaN and the other not). */
  readonly ulp?: number;
}

/**
 * Compare a buffer's bytes to the expected bytes: integers exactly, floats within `ulp` units in
 * the last place (NaN matches any NaN, +0 matches -0). Returns the count and the first mismatches.
 */
export function compareBuffers(t: ElemType, got: Uint8Array, want: Uint8Array, ulp: number, max = 10): { count: number; first: Mismatch[] } {
  const size = ELEM[t].bytes;
  const n = Math.min(got.length, want.length) / size;
  const dg = new DataView(got.buffer, got.byteOffset, got.length);
  const dw = new DataView(want.buffer, want.byteOffset, want.length);
  const first: Mismatch[] = [];
  let count = 0;
  const isFloat = ELEM[t].kind === 'float';
  for (let i = 0; i < n; i++) {
    const at = i * size;
    if (isFloat) {
      const d = ulpDistance(t, dg, dw, at);
      if (d > ulp) {
        count++;
        if (first.length < max) first.push({ index: i, got: fmt(readElem(dg, at, t)), want: fmt(readElem(dw, at, t)), ulp: d });
      }
    } else {
      let same = true;
      for (let k = 0; k < size; k++) if (got[at + k] !== want[at + k]) same = false;
      if (!same) {
        count++;
        if (first.length < max) first.push({ index: i, got: String(readElem(dg, at, t)), want: String(readElem(dw, at, t)) });
      }
    }
  }
  if (got.length !== want.length) {
    count++;
    first.push({ index: n, got: `${got.length} bytes`, want: `${want.length} bytes` });
  }
  return { count, first };
}

function fmt(x: number): string {
  return Object.is(x, -0) ? '-0' : String(x);
}

/** Distance in representable values between two floats at `at` (NaN vs NaN is 0, NaN vs number Infinity). */
export function ulpDistance(t: ElemType, a: DataView, b: DataView, at: number): number {
  const ord = (dv: DataView): number => {
    if (t === 'f16') {
      const h = dv.getUint16(at, true);
      if ((h & 0x7c00) === 0x7c00 && (h & 0x3ff) !== 0) return NaN;
      return h & 0x8000 ? -(h & 0x7fff) : h;
    }
    if (t === 'f32') {
      const u = dv.getUint32(at, true);
      if ((u & 0x7f800000) === 0x7f800000 && (u & 0x7fffff) !== 0) return NaN;
      return u & 0x80000000 ? -(u & 0x7fffffff) : u;
    }
    const lo = dv.getUint32(at, true);
    const hi = dv.getUint32(at + 4, true);
    if ((hi & 0x7ff00000) === 0x7ff00000 && ((hi & 0xfffff) !== 0 || lo !== 0)) return NaN;
    const mag = (hi & 0x7fffffff) * 0x1_0000_0000 + lo; // exact up to 2^63 only approximately; fine for distances
    return hi & 0x80000000 ? -mag : mag;
  };
  const x = ord(a);
  const y = ord(b);
  if (Number.isNaN(x) || Number.isNaN(y)) return Number.isNaN(x) && Number.isNaN(y) ? 0 : Infinity;
  return Math.abs(x - y);
}
