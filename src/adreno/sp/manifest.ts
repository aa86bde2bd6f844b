/**
 * The ir3-corpus manifest of one compute dispatch, as dispatch.ts reads it and driver.ts lays it
 * out in GPU memory (a leaf module: both import it).
 */
import type { ElemType } from '../../core/elements.js';

export interface Ir3Buffer {
  readonly name: string;
  readonly kind: 'ssbo' | 'ubo' | 'image';
  readonly type: ElemType;
  readonly count: number;
  readonly ibo?: number;
  /** Texture slot (t#) the buffer is also bound to (a texel buffer, or a 2D linear image with width). */
  readonly tex?: number;
  readonly uboIndex?: number;
  readonly width?: number;
  readonly file?: string;
  readonly fill?: number;
}

/** A texture the driver lays out (level 0) and binds at t#slot (`textures` in the manifest). */
export interface Ir3Texture {
  readonly slot: number;
  /** a6xx_format name (FMT6_8_8_8_8_UNORM, ...). */
  readonly format: string;
  readonly type: '1d' | '2d' | '2d_array' | '3d' | 'cube';
  readonly width: number;
  readonly height: number;
  /** Layers (2d_array), slices (3d) or cubes (cube); 1 otherwise. */
  readonly depth: number;
  readonly layout: 'linear' | 'tile6_3';
  /** Tightly packed texels, layer after layer (six faces per cube); absent: zeros. */
  readonly file?: string;
}

/** A sampler at s#slot (`samplers` in the manifest). */
export interface Ir3Sampler {
  readonly slot: number;
  readonly filter: 'nearest' | 'linear';
  readonly wrap: 'repeat' | 'clamp_to_edge' | 'mirror_repeat' | 'clamp_to_border' | 'mirror_clamp';
  readonly unnorm: boolean;
  /** Border colour (fp32 r, g, b, a) for clamp_to_border. */
  readonly border: readonly [number, number, number, number];
}

export interface Ir3Manifest {
  readonly dir: string;
  readonly shader: string;
  /** The variant's meta.json (instrlen, branchstack), when the manifest names one. */
  readonly meta?: string;
  readonly gpuId: number;
  readonly block: [number, number, number];
  readonly groups: [number, number, number];
  readonly waveSize: number;
  readonly localIdReg: number;
  readonly wgIdReg: number;
  readonly fullRegs: number;
  readonly halfRegs: number;
  readonly sharedSize: number;
  readonly constlen: number;
  readonly consts: Uint32Array;
  readonly buffers: Ir3Buffer[];
  readonly textures?: readonly Ir3Texture[];
  readonly samplers?: readonly Ir3Sampler[];
  readonly outputs: string[];
  readonly expect: Record<string, { file: string; ulp: number; abs?: number }>;
}
