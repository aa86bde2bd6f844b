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
  readonly outputs: string[];
  readonly expect: Record<string, { file: string; ulp: number; abs?: number }>;
}
