/**
 * Primitive assembly: an index stream (or auto-generated indices) and a VGT primitive type become
 * primitives in draw order, with primitive restart and the provoking vertex.
 *
 * Vertex order inside a primitive follows the Vulkan/D3D rules the hardware implements so that
 * winding is preserved along strips: with the first vertex provoking, strip triangle i is
 * (i, i+1+i%2, i+2-i%2) and fan triangle i is (i+1, i+2, 0); with PROVOKING_VTX_LAST, strip
 * triangle i is (i+i%2, i+1-i%2, i+2) and fan triangle i is (0, i+1, i+2). A rect-list primitive
 * is three vertices (the fourth is implied: v1 + v2 - v0).
 */
import type { Diagnostics } from '../../core/diagnostics.js';
import { DI_PT } from './pa-regs.gen.js';

export type IndexType = 8 | 16 | 32;

export interface Primitive {
  /** Vertex indices (after the index buffer): 1, 2 or 3 of them. */
  readonly v: readonly number[];
  /** Position in `v` of the provoking vertex. */
  readonly provoking: number;
  /** Primitive ID within the draw (restart does not reset it). */
  readonly primId: number;
  /** 'point' | 'line' | 'tri' | 'rect'. */
  readonly kind: PrimKind;
}
export type PrimKind = 'point' | 'line' | 'tri' | 'rect';

export interface AssemblyOptions {
  /** Primitive restart enabled (VGT_MULTI_PRIM_IB_RESET_EN / MULTI_PRIM_IB_ENA). */
  restartEnable?: boolean;
  /** VGT_MULTI_PRIM_IB_RESET_INDX; compared with the index masked to the index type's width. Default all ones. */
  restartIndex?: number;
  indexType?: IndexType;
  provokingLast?: boolean;
}

/** The primitive kind a DI_PT_* type assembles to, or undefined if the model does not assemble it. */
export function primKind(primType: number): PrimKind | undefined {
  switch (primType) {
    case DI_PT.DI_PT_POINTLIST: return 'point';
    case DI_PT.DI_PT_LINELIST: case DI_PT.DI_PT_LINESTRIP: return 'line';
    case DI_PT.DI_PT_TRILIST: case DI_PT.DI_PT_TRISTRIP: case DI_PT.DI_PT_TRIFAN: return 'tri';
    case DI_PT.DI_PT_RECTLIST: return 'rect';
    default: return undefined;
  }
}

/** The all-ones restart value of an index type. */
export function defaultRestartIndex(t: IndexType): number {
  return t === 8 ? 0xff : t === 16 ? 0xffff : 0xffffffff;
}

/**
 * Assemble `indices` (vertex indices in draw order; for auto draws pass 0..n-1) as `primType`.
 * Incomplete trailing primitives (and those cut by a restart) are dropped, as the hardware does.
 */
export function assemble(primType: number, indices: ArrayLike<number>, opts: AssemblyOptions = {}, diags?: Diagnostics): Primitive[] {
  const kind = primKind(primType);
  if (!kind) {
    diags?.report({
      id: 'amd.pa.prim-type-unsupported', severity: 'error', where: { VGT_PRIMITIVE_TYPE: primType },
      message: `primitive type ${primType} is not assembled by the model (adjacency, patch, quad and polygon types); nothing drawn`,
    });
    return [];
  }
  const itype = opts.indexType ?? 32;
  const mask = defaultRestartIndex(itype);
  const restart = opts.restartEnable ? ((opts.restartIndex ?? mask) & mask) >>> 0 : -1;
  const last = opts.provokingLast ?? false;
  const out: Primitive[] = [];
  let primId = 0;
  let run: number[] = [];
  const flush = (): void => {
    const n = run.length;
    const emit = (v: number[], provoking: number): void => {
      out.push({ v, provoking, primId: primId++, kind });
    };
    switch (primType) {
      case DI_PT.DI_PT_POINTLIST:
        for (let i = 0; i < n; i++) emit([run[i]!], 0);
        break;
      case DI_PT.DI_PT_LINELIST:
        for (let i = 0; i + 1 < n; i += 2) emit([run[i]!, run[i + 1]!], last ? 1 : 0);
        break;
      case DI_PT.DI_PT_LINESTRIP:
        for (let i = 0; i + 1 < n; i++) emit([run[i]!, run[i + 1]!], last ? 1 : 0);
        break;
      case DI_PT.DI_PT_TRILIST:
        for (let i = 0; i + 2 < n; i += 3) emit([run[i]!, run[i + 1]!, run[i + 2]!], last ? 2 : 0);
        break;
      case DI_PT.DI_PT_RECTLIST:
        for (let i = 0; i + 2 < n; i += 3) emit([run[i]!, run[i + 1]!, run[i + 2]!], last ? 2 : 0);
        break;
      case DI_PT.DI_PT_TRISTRIP:
        for (let i = 0; i + 2 < n; i++) {
          const odd = i & 1;
          if (last) emit([run[i + odd]!, run[i + 1 - odd]!, run[i + 2]!], 2);
          else emit([run[i]!, run[i + 1 + odd]!, run[i + 2 - odd]!], 0);
        }
        break;
      case DI_PT.DI_PT_TRIFAN:
        for (let i = 0; i + 2 < n; i++) {
          if (last) emit([run[0]!, run[i + 1]!, run[i + 2]!], 2);
          else emit([run[i + 1]!, run[i + 2]!, run[0]!], 0);
        }
        break;
    }
    run = [];
  };
  for (let i = 0; i < indices.length; i++) {
    const idx = (indices[i]! & mask) >>> 0;
    if (idx === restart) {
      flush();
      continue;
    }
    run.push(idx);
  }
  flush();
  return out;
}
