/**
 * The SPI's parameter cache and LDS parameter preload: what a vertex stage (NGG or the hardware
 * VS, vs.ts) hands setup and the PS launch (VertexOutput), the per-wave cache its `exp paramN`
 * fill (GFX9/GFX10.3), and the preload of each PS wave's LDS from it.
 */
import { f16, f32 } from '../../core/float.js';
import type { ExportEvent } from '../exec/exp.js';
import { paramAddr } from '../exec/vintrp.js';
import type { Primitive } from './primitive-assembly.js';
import type { SetupPrim } from './setup.js';
import { PS_DEFAULT_VALS } from './spi.js';

/** What a vertex stage (NGG or hardware VS) hands setup and the PS launch. */
export interface VertexOutput {
  /** Clip-space positions, 4 per vertex; the primitives index them. */
  readonly positions: Float64Array;
  readonly prims: readonly Primitive[];
  /** SPI_VS_OUT_CONFIG.VS_EXPORT_COUNT + 1. */
  readonly params: number;
  /** Parameter `param` of vertex `v` (an index into positions / 4) into dst[0..3]. */
  param(v: number, param: number, dst: number[]): void;
}

/** The SPI's parameter cache of one wave/subgroup: `params` vec4s per vertex (unwritten: 0). */
export class ParamCache {
  readonly data: Float32Array;
  readonly params: number;
  constructor(verts: number, params: number) {
    this.params = params;
    this.data = new Float32Array(verts * params * 4);
  }
  read(v: number, p: number, dst: number[]): void {
    const a = (v * this.params + p) * 4;
    for (let c = 0; c < 4; c++) dst[c] = this.data[a + c]!;
  }
  /** Store an `exp paramN` for every export lane below `verts`. */
  store(e: ExportEvent, ws: number, verts: number): void {
    for (let l = 0; l < verts && l < ws; l++) {
      if (!laneOn(e, l)) continue;
      const a = (l * this.params + e.index) * 4;
      for (let c = 0; c < 4; c++) if ((e.en >> c) & 1) this.data[a + c] = expChannel(e, c, l, ws);
    }
  }
}

export function laneOn(e: ExportEvent, l: number): boolean {
  return l < 32 ? ((e.execLo >>> l) & 1) === 1 : ((e.execHi >>> (l - 32)) & 1) === 1;
}

/** Channel c of lane l of an export as a float (compressed exports: f16 half c & 1 of the dword). */
export function expChannel(e: ExportEvent, c: number, l: number, ws: number): number {
  const d = e.data[c * ws + l]!;
  return e.compr ? f16((c & 1 ? d >>> 16 : d) & 0xffff) : f32(d);
}

/**
 * LDS parameter preload of primitive `p` of a PS wave (GFX9, GFX10.3 and GFX11 share one layout:
 * vintrp.ts's `paramAddr` over ldsdir-vinterp.ts's PARAM_LAYOUT, which lds_param_load and v_interp_* read):
 * for PS input i (SPI_PS_INPUT_CNTL_i), channel c: P0, P10 = P1 - P0, P20 = P2 - P0, all f32; FLAT_SHADE puts the provoking vertex's value in P0 and zeros in P10/P20; points
 * and lines load vertex 0 as P0. OFFSET >= 32 or past the exported parameters gives DEFAULT_VAL.
 */
export function preloadParams(ldv: DataView, p: number, sp: SetupPrim, vo: VertexOutput, cntl: readonly number[]): void {
  const verts = sp.prim.v;
  const n = verts.length;
  const prov = sp.prim.provoking;
  const vals = [[0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]];
  for (let i = 0; i < cntl.length; i++) {
    const c = cntl[i]!;
    const offset = c & 0x3f;
    const flat = ((c >>> 10) & 1) === 1;
    for (let k = 0; k < 3; k++) {
      const dst = vals[k]!;
      if (offset >= 32 || offset >= vo.params) {
        const d = PS_DEFAULT_VALS[(c >>> 8) & 3]!;
        for (let ch = 0; ch < 4; ch++) dst[ch] = d[ch]!;
      } else vo.param(verts[Math.min(k, n - 1)]!, offset, dst);
    }
    for (let ch = 0; ch < 4; ch++) {
      const a = paramAddr(0, p, i, 0, ch);
      if (flat || n < 3) {
        ldv.setFloat32(a, vals[flat ? Math.min(prov, n - 1) : 0]![ch]!, true);
        ldv.setFloat32(paramAddr(0, p, i, 1, ch), 0, true);
        ldv.setFloat32(paramAddr(0, p, i, 2, ch), 0, true);
      } else {
        const p0 = vals[0]![ch]!;
        ldv.setFloat32(a, p0, true);
        ldv.setFloat32(paramAddr(0, p, i, 1, ch), Math.fround(vals[1]![ch]! - p0), true);
        ldv.setFloat32(paramAddr(0, p, i, 2, ch), Math.fround(vals[2]![ch]! - p0), true);
      }
    }
  }
}
