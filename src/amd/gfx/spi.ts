/**
 * SPI: the initial wave state of the graphics stages (wave-state seed 001, "初始波状态"), as data
 * and small pure functions the pipeline (src/amd/gfx/pipeline.ts) applies to a Wave.
 *
 * GFX11 NGG primitive shader (GS hardware stage, ES+GS merged; PC = SPI_SHADER_PGM_LO/HI_ES):
 * the first 8 SGPRs are always written (unused ones 0), user SGPRs follow at s8:
 *   s0/s1 SPI_SHADER_PGM_LO_GS / HI_GS (the pointer to more GS user data, as the seed says)
 *   s2 gs_tg_info: [11:0] ordered subgroup id, [20:12] vertices, [30:22] primitives in the subgroup
 *   s3 merged_wave_info: [7:0] ES vertices in this wave, [15:8] GS primitives in this wave,
 *      [27:24] wave index in the subgroup, [31:28] waves in the subgroup
 *   s4 tess offchip offset (0: no tessellation), s5 gs_attr_offset: attribute ring byte offset >> 9
 *   s8.. SPI_SHADER_USER_DATA_GS_0.. (RSRC2_GS.USER_SGPR | USER_SGPR_MSB << 5 of them)
 * VGPRs (GS part by RSRC1_GS.GS_VGPR_COMP_CNT, ES part from v5 by RSRC2_GS.ES_VGPR_COMP_CNT):
 *   v0 the primitive's vertex indices in the subgroup, packed like a primitive export
 *      ([8:0] v0, [18:10] v1, [28:20] v2), v1 0, v2 primitive id, v3 GS invocation id (0), v4 0;
 *   v5 VertexID, v6 0, v7 0, v8 InstanceID.
 * The layout follows Mesa's merged-shader argument declarations for GFX11 (the seed's tables were
 * images); `GS_ALLOC_REQ` (s_sendmsg 9) carries M0 = vertices | primitives << 12.
 *
 * PS: user SGPRs s0.. (RSRC2_PS.USER_SGPR), then PRIM_MASK = [15:0] lds_param_offset (0 here),
 * bit 16+q set when quad q >= 1 starts a new primitive (the M0 layout lds_param_load reads); then,
 * with RSRC2_PS.WAVE_CNT_EN, {PS_wave_id, PS_wave_index} = PS_wave_id << 6 | PS_wave_index, where
 * PS_wave_index = se_id * packers_per_SE + packer_id and PS_wave_id counts the waves of each packer,
 * wrapping at SPI_PS_MAX_WAVE_ID (field MAX_WAVE_ID[11:0] per Mesa's manually defined registers).
 * VGPRs come from SPI_PS_INPUT_ENA/ADDR (waves.ts psInputVgprs). LDS is preloaded with the
 * vertex parameters of each primitive of the wave in ldsdir-vinterp.ts's PARAM_LAYOUT: for PS input i
 * (SPI_PS_INPUT_CNTL_i), P0, P1 - P0, P2 - P0 (f32), or with FLAT_SHADE the provoking vertex's
 * value as P0 and zeros; OFFSET >= 32 gives DEFAULT_VAL's constant.
 */
import { PARAM_LAYOUT } from '../exec/ldsdir-vinterp.js';
import { LDS_ALLOC } from '../exec/lds-alloc.gen.js';
import type { PsWave } from './waves.js';

/** Bytes of LDS a PS wave needs for `prims` primitives' parameters. */
export function psLdsBytes(prims: number): number {
  return Math.max(1, prims) * PARAM_LAYOUT.primStride;
}

/** The PRIM_MASK SGPR of a PS wave (lds_param_offset 0). */
export function psPrimMask(w: PsWave): number {
  let m = 0;
  for (let q = 1; q < w.quads.length && q < 16; q++) if ((w.newPrimMask >>> q) & 1) m |= 1 << (16 + q);
  return m >>> 0;
}

/** PS_wave_id counters, one per packer, wrapping at SPI_PS_MAX_WAVE_ID. */
export class PsWaveIds {
  private readonly next: number[];
  readonly maxWaveId: number;
  readonly packersPerSe: number;
  constructor(shaderEngines: number, packersPerSe: number, maxWaveId: number) {
    this.next = new Array<number>(shaderEngines * packersPerSe).fill(0);
    this.maxWaveId = maxWaveId & 0xfff;
    this.packersPerSe = packersPerSe;
  }
  get packers(): number {
    return this.next.length;
  }
  /** The packer of screen position (x, y): 16x16-pixel tiles spread over every packer. */
  packerOf(x: number, y: number): [number, number] {
    const n = this.next.length;
    const t = ((((x >> 4) * 7) + ((y >> 4) * 13)) % n + n) % n;
    return [Math.floor(t / this.packersPerSe), t % this.packersPerSe];
  }
  /** Take the next wave id of a packer: returns [PS_wave_id, PS_wave_index]. */
  take(se: number, packer: number): [number, number] {
    const index = se * this.packersPerSe + packer;
    const id = this.next[index]!;
    this.next[index] = id >= this.maxWaveId ? 0 : id + 1;
    return [id, index];
  }
}

export function psWaveCountSgpr(waveId: number, waveIndex: number): number {
  return (((waveId & 0x3ff) << 6) | (waveIndex & 0x3f)) >>> 0;
}

/** GFX11 NGG: the packed vertex indices of a primitive (also the primitive export layout). */
export function packPrimVertices(v: readonly number[], nullPrim = false): number {
  return (((v[0] ?? 0) & 0x1ff) | (((v[1] ?? 0) & 0x1ff) << 10) | (((v[2] ?? 0) & 0x1ff) << 20) | (nullPrim ? 0x8000_0000 : 0)) >>> 0;
}
export function unpackPrimExport(d: number): { v: [number, number, number]; nullPrim: boolean } {
  return { v: [d & 0x1ff, (d >>> 10) & 0x1ff, (d >>> 20) & 0x1ff], nullPrim: (d >>> 31) === 1 };
}

export function gsTgInfo(orderedId: number, verts: number, prims: number): number {
  return ((orderedId & 0xfff) | ((verts & 0x1ff) << 12) | ((prims & 0x1ff) << 22)) >>> 0;
}
export function mergedWaveInfo(verts: number, prims: number, waveInTg: number, wavesInTg: number): number {
  return ((verts & 0xff) | ((prims & 0xff) << 8) | ((waveInTg & 15) << 24) | ((wavesInTg & 15) << 28)) >>> 0;
}

/** The attribute ring as the driver's V# and the SPI address it (16-byte elements, swizzled). */
export const ATTR_RING = { elementBytes: 16, indexStride: 32, indexStrideField: 2, swizzleField: 3, subgroupAlign: 512 } as const;

/** Byte offset of parameter `param` of subgroup vertex `index` from the subgroup's ring offset. */
export function attrRingOffset(index: number, param: number, params: number): number {
  const is = ATTR_RING.indexStride;
  const e = ATTR_RING.elementBytes;
  const stride = e * params;
  return (Math.floor(index / is) * stride + param * e) * is + (index % is) * e;
}

/** Bytes of the ring one subgroup of `verts` vertices uses, rounded to the gs_attr_offset unit. */
export function attrRingBytes(verts: number, params: number): number {
  const is = ATTR_RING.indexStride;
  const bytes = Math.ceil(verts / is) * is * ATTR_RING.elementBytes * params;
  return Math.ceil(bytes / ATTR_RING.subgroupAlign) * ATTR_RING.subgroupAlign;
}

/** DEFAULT_VAL constants of SPI_PS_INPUT_CNTL (0: 0,0,0,0; 1: 0,0,0,1; 2: 1,1,1,0; 3: 1,1,1,1). */
export const PS_DEFAULT_VALS: readonly (readonly number[])[] = [[0, 0, 0, 0], [0, 0, 0, 1], [1, 1, 1, 0], [1, 1, 1, 1]];

/** The LDS a request of `bytes` is given on a generation: rounded up to its allocation block (lds-alloc.gen.ts). */
export function ldsAllocBytes(gfx: 9 | 10 | 11, bytes: number): number {
  const b = LDS_ALLOC[gfx].allocBlock;
  return Math.ceil(bytes / b) * b;
}
