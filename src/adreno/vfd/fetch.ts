/**
 * VFD (seed 004 "VFD, vertex fetch and decode"): VFD_FETCH[i] (BASE, SIZE, STRIDE) are the
 * vertex buffers, VFD_DECODE[i].INSTR picks a buffer (IDX), a byte OFFSET, the FORMAT (FMT6), the
 * component SWAP, INSTANCED with STEP_RATE (the instance divisor), FLOAT (convert to float);
 * VFD_DEST_CNTL[i].INSTR writes the decoded components (WRITEMASK) to VS input registers from
 * REGID. VFD_CONTROL_0 counts fetches and decodes; VFD_CONTROL_1 names the registers that get
 * the vertex id (REGID4VTX) and instance id (REGID4INST); VFD_INDEX_OFFSET (base vertex) and
 * VFD_INSTANCE_START_OFFSET (first instance) offset the fetch, VFD_ADD_OFFSET adds them to the
 * ids too.
 *
 * Formats are read from the a6xx_format name itself (FMT6_<widths>_<FLOAT|UNORM|SNORM|UINT|SINT>,
 * equal-width 8/16/32-bit components): no second format table.
 */

/** a3xx_regid "no register" (r63.x). */
export const REGID_NONE = 0xfc;

export interface VfdFetch {
  readonly base: number;
  readonly size: number;
  readonly stride: number;
}

export interface VfdDecode {
  readonly idx: number;
  readonly offset: number;
  readonly instanced: boolean;
  readonly format: string;
  readonly swap: number;
  readonly float: boolean;
  readonly stepRate: number;
}

export interface VfdDest {
  readonly writemask: number;
  readonly regid: number;
}

export interface VfdState {
  readonly fetch: readonly VfdFetch[];
  readonly decode: readonly VfdDecode[];
  readonly dest: readonly VfdDest[];
  readonly regVertexId: number;
  readonly regInstanceId: number;
  readonly indexOffset: number;
  readonly instanceStart: number;
  /** VFD_ADD_OFFSET: VERTEX / INSTANCE add the offsets to the sysvals. */
  readonly addVertex: boolean;
  readonly addInstance: boolean;
}

export interface VertexFormat {
  readonly comps: number;
  readonly bits: 8 | 16 | 32;
  readonly kind: 'FLOAT' | 'UNORM' | 'SNORM' | 'UINT' | 'SINT';
}

/** Parse FMT6_32_32_32_32_FLOAT-style names; undefined for packed / compressed formats. */
export function vertexFormat(name: string): VertexFormat | undefined {
  const m = /^FMT6_((?:8|16|32)(?:_(?:8|16|32))*)_(FLOAT|UNORM|SNORM|UINT|SINT)$/.exec(name);
  if (!m) return undefined;
  const widths = m[1]!.split('_').map(Number);
  if (!widths.every((w) => w === widths[0])) return undefined;
  const bits = widths[0] as 8 | 16 | 32;
  if (m[2] === 'FLOAT' && bits === 8) return undefined;
  return { comps: widths.length, bits, kind: m[2] as VertexFormat['kind'] };
}

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);
const fbits = (x: number): number => {
  f32[0] = x;
  return u32[0]!;
};
function half(h: number): number {
  const s = h & 0x8000 ? -1 : 1;
  const e = (h >> 10) & 0x1f;
  const m = h & 0x3ff;
  if (e === 0) return s * m * 2 ** -24;
  if (e === 31) return m ? NaN : s * Infinity;
  return s * (1 + m / 1024) * 2 ** (e - 15);
}

/**
 * Decode one attribute's element at `o` in `bytes` into four register dwords (missing components
 * 0, 0, 0, 1 — 1.0 for float results, 1 for integers). Reads beyond `bytes` return zeros.
 */
export function decodeElement(fmt: VertexFormat, toFloat: boolean, swap: number, bytes: Uint8Array, o: number): number[] {
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const sz = fmt.bits / 8;
  const vals: number[] = [];
  const integer = fmt.kind === 'UINT' || fmt.kind === 'SINT';
  const asFloat = !integer || toFloat;
  for (let c = 0; c < 4; c++) {
    if (c >= fmt.comps) {
      vals.push(c === 3 ? (asFloat ? fbits(1) : 1) : 0);
      continue;
    }
    const a = o + c * sz;
    if (a < 0 || a + sz > bytes.length) {
      vals.push(0);
      continue;
    }
    let x: number;
    if (fmt.kind === 'FLOAT') x = sz === 4 ? dv.getFloat32(a, true) : half(dv.getUint16(a, true));
    else {
      const signed = fmt.kind === 'SNORM' || fmt.kind === 'SINT';
      const raw = sz === 4 ? (signed ? dv.getInt32(a, true) : dv.getUint32(a, true)) : sz === 2 ? (signed ? dv.getInt16(a, true) : dv.getUint16(a, true)) : signed ? dv.getInt8(a) : dv.getUint8(a);
      if (fmt.kind === 'UNORM') x = raw / (2 ** fmt.bits - 1);
      else if (fmt.kind === 'SNORM') x = Math.max(-1, raw / (2 ** (fmt.bits - 1) - 1));
      else x = raw;
    }
    vals.push(asFloat ? fbits(x) : x >>> 0);
  }
  // COLOR_SWAP on vertex data: WXYZ exchanges the first and third components.
  if (swap === 1) [vals[0], vals[2]] = [vals[2]!, vals[0]!];
  else if (swap === 3) vals.reverse();
  else if (swap === 2) [vals[0], vals[1], vals[2], vals[3]] = [vals[2]!, vals[1]!, vals[0]!, vals[3]!];
  return vals;
}

/** A register write a vertex gets: component index (reg*4 + comp) and the dword. */
export type InputWrite = readonly [number, number];

/**
 * The VS input registers of one vertex: every decode/dest pair's components, then the vertex and
 * instance ids. `read(addr, len)` returns the bytes of a vertex buffer (possibly shorter when the
 * buffer ends: VFD_FETCH SIZE bounds the fetch and reads past it return 0).
 */
export function fetchVertex(s: VfdState, vertexIndex: number, instance: number, read: (addr: number, len: number) => Uint8Array): { writes: InputWrite[]; outOfBounds: number } {
  const writes: [number, number][] = [];
  let oob = 0;
  s.decode.forEach((d, k) => {
    const dest = s.dest[k];
    const f = s.fetch[d.idx];
    const fmt = vertexFormat(d.format);
    if (!dest || !f || !fmt) return;
    const elem = d.instanced ? Math.floor(instance / Math.max(1, d.stepRate)) + s.instanceStart : vertexIndex + s.indexOffset;
    const off = elem * f.stride + d.offset;
    const len = (fmt.bits / 8) * fmt.comps;
    let bytes: Uint8Array;
    if (off < 0 || off + len > f.size) {
      oob++;
      bytes = new Uint8Array(len);
    } else bytes = read(f.base + off, len);
    const v = decodeElement(fmt, d.float, d.swap, bytes, 0);
    // Component c of the attribute lands in REGID + c.
    for (let c = 0; c < 4; c++) if (dest.writemask & (1 << c)) writes.push([dest.regid + c, v[c]!]);
  });
  if (s.regVertexId !== REGID_NONE) writes.push([s.regVertexId, (vertexIndex + (s.addVertex ? s.indexOffset : 0)) >>> 0]);
  if (s.regInstanceId !== REGID_NONE) writes.push([s.regInstanceId, (instance + (s.addInstance ? s.instanceStart : 0)) >>> 0]);
  return { writes, outOfBounds: oob };
}
