/**
 * The fixed-function front of the draw pipeline in one call: assembly -> clip/setup/cull ->
 * scan conversion -> quads -> PS waves. No PM4 and no shaders: positions are given per vertex.
 */
import type { Diagnostics } from '../../core/diagnostics.js';
import { assemble, type IndexType } from './primitive-assembly.js';
import { rasterize, type Quad } from './raster.js';
import { Setup, type Positions, type SetupOptions, type SetupPrim } from './setup.js';
import type { PaState } from './state.js';
import { packWaves, type PackOptions, type PsWave } from './waves.js';

export interface FrontEndDraw {
  /** Vertex indices in draw order (auto draws: 0..n-1). */
  indices: ArrayLike<number>;
  indexType?: IndexType;
  /** Clip-space positions, 4 floats per vertex (indexed by the vertex index). */
  positions: Positions;
  /** Overrides VGT_PRIMITIVE_TYPE from the state. */
  primType?: number;
  waveSize?: 32 | 64;
  setup?: SetupOptions;
  pack?: PackOptions;
}

export interface FrontEndResult {
  readonly prims: SetupPrim[];
  readonly quads: Quad[];
  readonly waves: PsWave[];
}

export function runFrontEnd(st: PaState, d: FrontEndDraw, diags?: Diagnostics): FrontEndResult {
  const prims = assemble(d.primType ?? st.primType, d.indices, {
    restartEnable: st.restartEnable, restartIndex: st.restartIndex, indexType: d.indexType ?? 32, provokingLast: st.provokingLast,
  }, diags);
  const setup = new Setup(st);
  const sps: SetupPrim[] = [];
  const quads: Quad[] = [];
  for (const p of prims) {
    const sp = setup.run(p, d.positions, d.setup);
    if (!sp) continue;
    sps.push(sp);
    rasterize(sp, st, (q) => quads.push(q));
  }
  return { prims: sps, quads, waves: packWaves(quads, d.waveSize ?? 64, d.pack) };
}
