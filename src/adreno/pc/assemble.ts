/**
 * PC (seed 004 "PC"): the index stream of a draw and primitive assembly. Indices come from the
 * draw packet (CP_DRAW_INDX_OFFSET / _INDX_INDIRECT: INDX_BASE, INDEX_SIZE 8/16/32-bit,
 * FIRST_INDX, MAX_INDICES) or are generated (DI_SRC_SEL_AUTO_INDEX); PC_PRIMITIVE_CNTL_0
 * PRIMITIVE_RESTART with PC_RESTART_INDEX cuts strips and fans (and lists: the partial primitive
 * before a cut is dropped). Primitives keep the provoking vertex (first, or last with
 * PROVOKING_VTX_LAST) for flat varyings.
 */

/** One assembled primitive: positions in the index stream of its vertices, and which one provokes. */
export interface Primitive {
  readonly verts: readonly number[];
  readonly provoking: number;
}

export const RESTART = -1;

/** A pc_di_primtype name's assembly; undefined for types PC does not assemble here (patches, adjacency, rect lists). */
export function assemble(prim: string, stream: readonly number[], provokingLast: boolean): Primitive[] | undefined {
  const out: Primitive[] = [];
  // Split at restart markers; each run assembles on its own.
  const runs: number[][] = [[]];
  stream.forEach((v, k) => (v === RESTART ? runs.push([]) : runs[runs.length - 1]!.push(k)));
  const pv = (vs: number[]): Primitive => ({ verts: vs, provoking: provokingLast ? vs[vs.length - 1]! : vs[0]! });
  for (const r of runs) {
    const n = r.length;
    switch (prim) {
      case 'DI_PT_POINTLIST':
      case 'DI_PT_POINTLIST_PSIZE':
        for (let i = 0; i < n; i++) out.push(pv([r[i]!]));
        break;
      case 'DI_PT_LINELIST':
        for (let i = 0; i + 1 < n; i += 2) out.push(pv([r[i]!, r[i + 1]!]));
        break;
      case 'DI_PT_LINESTRIP':
        for (let i = 0; i + 1 < n; i++) out.push(pv([r[i]!, r[i + 1]!]));
        break;
      case 'DI_PT_LINELOOP':
        for (let i = 0; i + 1 < n; i++) out.push(pv([r[i]!, r[i + 1]!]));
        if (n > 2) out.push(pv([r[n - 1]!, r[0]!]));
        break;
      case 'DI_PT_TRILIST':
        for (let i = 0; i + 2 < n; i += 3) out.push(pv([r[i]!, r[i + 1]!, r[i + 2]!]));
        break;
      case 'DI_PT_TRISTRIP':
        // Odd triangles swap their first two vertices so every triangle keeps the strip's winding.
        for (let i = 0; i + 2 < n; i++) {
          const vs = i % 2 === 0 ? [r[i]!, r[i + 1]!, r[i + 2]!] : [r[i + 1]!, r[i]!, r[i + 2]!];
          out.push({ verts: vs, provoking: provokingLast ? r[i + 2]! : r[i]! });
        }
        break;
      case 'DI_PT_TRIFAN':
        for (let i = 1; i + 1 < n; i++) out.push({ verts: [r[0]!, r[i]!, r[i + 1]!], provoking: provokingLast ? r[i + 1]! : r[i]! });
        break;
      default:
        return undefined;
    }
  }
  return out;
}

/** Where the draw's indices come from. */
export type IndexSource =
  | { readonly kind: 'auto'; readonly first: number; readonly count: number }
  | { readonly kind: 'dma'; readonly bytes: Uint8Array; readonly size: 1 | 2 | 4; readonly count: number };

/**
 * The index stream: auto indices first .. first+count-1, or `count` indices read from the index
 * buffer view (reads past MAX_INDICES are out of bounds: the caller sizes `bytes` to it and they
 * read 0, as the hardware's bounded fetch does). With restart enabled, an index equal to
 * PC_RESTART_INDEX (masked to the index size) becomes RESTART.
 */
export function indexStream(src: IndexSource, restart: boolean, restartIndex: number): { indices: number[]; outOfBounds: number } {
  const out: number[] = [];
  let oob = 0;
  if (src.kind === 'auto') {
    for (let k = 0; k < src.count; k++) out.push(src.first + k);
    return { indices: out, outOfBounds: 0 };
  }
  const dv = new DataView(src.bytes.buffer, src.bytes.byteOffset, src.bytes.byteLength);
  const mask = src.size === 4 ? 0xffffffff : src.size === 2 ? 0xffff : 0xff;
  for (let k = 0; k < src.count; k++) {
    const o = k * src.size;
    let v = 0;
    if (o + src.size > src.bytes.length) oob++;
    else v = src.size === 4 ? dv.getUint32(o, true) : src.size === 2 ? dv.getUint16(o, true) : dv.getUint8(o);
    out.push(restart && v === (restartIndex & mask) >>> 0 ? RESTART : v);
  }
  return { indices: out, outOfBounds: oob };
}
