/**
 * Quads to PS waves, and the PS input VGPRs of each wave.
 *
 * Packing: quads fill waves of 32 or 64 lanes (8 or 16 quads) in rasterization order, quads of
 * consecutive primitives sharing a wave; lane = 4*quad + (y&1)*2 + (x&1). A lane of a packed quad
 * whose pixel has no coverage is a helper lane (it runs so derivatives work, and writes nothing).
 * Lanes past the last quad are inactive. `maxPrimsPerWave` caps distinct primitives per wave.
 *
 * PS input VGPRs (wave-state seed, "PS VGPR initialization"): the items of SPI_PS_INPUT_ADDR are
 * given VGPRs in the fixed order below; an item in ADDR but not in ENA keeps its slot but is not
 * written; ENA bits outside ADDR have no slot (diagnosed by checkPsInputs).
 */
import type { Quad } from './raster.js';
import { barycentrics } from './setup.js';
import type { PaState } from './state.js';

export interface PsWave {
  readonly waveSize: 32 | 64;
  readonly quads: readonly Quad[];
  /** Covered lanes, helper lanes: wave32 in lo; wave64 lanes 32..63 in hi. */
  readonly liveLo: number;
  readonly liveHi: number;
  readonly helperLo: number;
  readonly helperHi: number;
  /** Bit q set when quad q belongs to a different primitive than quad q-1 (bit 0 always set). */
  readonly newPrimMask: number;
  /** Distinct primitives in the wave, in order. */
  readonly prims: number;
  /**
   * INTRAWAVE_COLLISION quad mask (POPS on GFX9-10.3, seed 002): bit q set when quad q overlaps a
   * quad of the current layer (quads since the last set bit), i.e. starts a new layer of
   * overlapping invocations. Zero unless packed with `overlap: 'intrawave'`.
   */
  readonly intrawaveCollision: number;
}

export interface PackOptions {
  maxPrimsPerWave?: number;
  /**
   * How overlapping invocations are treated (POPS, seed 002): 'allow' packs them together (no
   * ordering); 'intrawave' packs them together and reports INTRAWAVE_COLLISION (GFX9-10.3);
   * 'split' starts a new wave at an overlapping quad (GFX11, or no intrawave collisions).
   */
  overlap?: 'allow' | 'intrawave' | 'split';
  /** Overlap means common covered samples (sample interlock) rather than a common covered pixel (pixel interlock). */
  sampleInterlock?: boolean;
}

export function packWaves(quads: Iterable<Quad>, waveSize: 32 | 64, opts: PackOptions = {}): PsWave[] {
  const perWave = waveSize / 4;
  const maxPrims = opts.maxPrimsPerWave ?? Infinity;
  const waves: PsWave[] = [];
  const overlapMode = opts.overlap ?? 'allow';
  const sampleInterlock = opts.sampleInterlock ?? false;
  let cur: Quad[] = [];
  let prims = 0;
  let collision = 0;
  /** Covered pixels of the current layer (intrawave) or wave (split): key -> sample mask. */
  let layer = new Map<number, number>();
  const overlaps = (q: Quad): boolean => {
    for (let p = 0; p < 4; p++) {
      const m = q.coverage[p]!;
      if (!m) continue;
      const prev = layer.get((q.y + (p >> 1)) * 65536 + q.x + (p & 1));
      if (prev !== undefined && (!sampleInterlock || (prev & m) !== 0)) return true;
    }
    return false;
  };
  const addToLayer = (q: Quad): void => {
    for (let p = 0; p < 4; p++) {
      const m = q.coverage[p]!;
      if (!m) continue;
      const k = (q.y + (p >> 1)) * 65536 + q.x + (p & 1);
      layer.set(k, (layer.get(k) ?? 0) | m);
    }
  };
  const flush = (): void => {
    layer = new Map();
    if (!cur.length) return;
    let liveLo = 0, liveHi = 0, helperLo = 0, helperHi = 0, newPrimMask = 0;
    for (let q = 0; q < cur.length; q++) {
      const quad = cur[q]!;
      if (q === 0 || quad.sp !== cur[q - 1]!.sp) newPrimMask |= 1 << q;
      for (let p = 0; p < 4; p++) {
        const lane = 4 * q + p;
        const bit = 2 ** (lane & 31);
        if (quad.coverage[p]) {
          if (lane < 32) liveLo += bit; else liveHi += bit;
        } else if (lane < 32) helperLo += bit;
        else helperHi += bit;
      }
    }
    waves.push({ waveSize, quads: cur, liveLo: liveLo >>> 0, liveHi: liveHi >>> 0, helperLo: helperLo >>> 0, helperHi: helperHi >>> 0, newPrimMask: newPrimMask >>> 0, prims, intrawaveCollision: collision >>> 0 });
    cur = [];
    prims = 0;
    collision = 0;
  };
  for (const q of quads) {
    const isNew = !cur.length || cur[cur.length - 1]!.sp !== q.sp;
    if (cur.length === perWave || (isNew && prims === maxPrims)) flush();
    if (overlapMode !== 'allow' && cur.length && overlaps(q)) {
      if (overlapMode === 'split') flush();
      else {
        collision |= 1 << cur.length;
        layer = new Map();
      }
    }
    if (!cur.length || cur[cur.length - 1]!.sp !== q.sp) prims++;
    cur.push(q);
    if (overlapMode !== 'allow') addToLayer(q);
  }
  flush();
  return waves;
}

/** SPI_PS_INPUT_ENA/ADDR items in VGPR order: bit, name, VGPR count. */
export const PS_INPUTS = [
  [0, 'PERSP_SAMPLE', 2], [1, 'PERSP_CENTER', 2], [2, 'PERSP_CENTROID', 2], [3, 'PERSP_PULL_MODEL', 3],
  [4, 'LINEAR_SAMPLE', 2], [5, 'LINEAR_CENTER', 2], [6, 'LINEAR_CENTROID', 2], [7, 'LINE_STIPPLE_TEX', 1],
  [8, 'POS_X_FLOAT', 1], [9, 'POS_Y_FLOAT', 1], [10, 'POS_Z_FLOAT', 1], [11, 'POS_W_FLOAT', 1],
  [12, 'FRONT_FACE', 1], [13, 'ANCILLARY', 1], [14, 'SAMPLE_COVERAGE', 1], [15, 'POS_FIXED_PT', 1],
] as const;
export type PsInputName = (typeof PS_INPUTS)[number][1];

export interface PsInputSlot { readonly name: PsInputName; readonly vgpr: number; readonly count: number; readonly loaded: boolean }

/** VGPR slots of the PS inputs for these ENA/ADDR values, and the number of VGPRs initialised. */
export function psInputLayout(ena: number, addr: number): { slots: PsInputSlot[]; numVgprs: number } {
  const slots: PsInputSlot[] = [];
  let v = 0;
  for (const [bit, name, count] of PS_INPUTS) {
    if (!((addr >>> bit) & 1)) continue;
    slots.push({ name, vgpr: v, count, loaded: ((ena >>> bit) & 1) === 1 });
    v += count;
  }
  return { slots, numVgprs: v };
}

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);
const bits = (x: number): number => {
  f32[0] = x;
  return u32[0]!;
};

export interface PsInputOptions {
  /** Sample whose position PERSP_SAMPLE/LINEAR_SAMPLE use per lane; default the lowest covered sample (0 for helpers). */
  sampleIndex?: (wave: PsWave, lane: number) => number;
}

/**
 * The PS input VGPRs of a wave, `vgpr * waveSize + lane` (raw dwords), for the state's ENA/ADDR.
 * Centroid: the pixel centre when every sample is covered (and for helper lanes), else the first
 * covered sample in PA_SC_CENTROID_PRIORITY order. POS_*_FLOAT are at the pixel centre.
 */
export function psInputVgprs(wave: PsWave, st: PaState, opts: PsInputOptions = {}): { vgprs: Uint32Array; slots: PsInputSlot[] } {
  const { slots, numVgprs } = psInputLayout(st.psInputEna, st.psInputAddr);
  const ws = wave.waveSize;
  const out = new Uint32Array(numVgprs * ws);
  const ns = st.numSamples;
  const full = ns === 16 ? 0xffff : (1 << ns) - 1;
  const b = new Float64Array(5);
  const at = (name: PsInputName): PsInputSlot | undefined => slots.find((s) => s.name === name && s.loaded);
  const put = (slot: PsInputSlot | undefined, k: number, lane: number, v: number): void => {
    if (slot) out[(slot.vgpr + k) * ws + lane] = v >>> 0;
  };
  const sampleXY = (pixel: number, s: number): [number, number] => {
    if (ns === 1) return [0.5, 0.5];
    const l = st.sampleLocs[pixel]!;
    return [0.5 + l[2 * s]! / 16, 0.5 + l[2 * s + 1]! / 16];
  };
  const ps = at('PERSP_SAMPLE'), pc = at('PERSP_CENTER'), pcd = at('PERSP_CENTROID'), pull = at('PERSP_PULL_MODEL');
  const ls = at('LINEAR_SAMPLE'), lc = at('LINEAR_CENTER'), lcd = at('LINEAR_CENTROID');
  const px = at('POS_X_FLOAT'), py = at('POS_Y_FLOAT'), pz = at('POS_Z_FLOAT'), pw = at('POS_W_FLOAT');
  const ff = at('FRONT_FACE'), anc = at('ANCILLARY'), cov = at('SAMPLE_COVERAGE'), fixed = at('POS_FIXED_PT');
  for (let q = 0; q < wave.quads.length; q++) {
    const quad = wave.quads[q]!;
    const sp = quad.sp;
    for (let p = 0; p < 4; p++) {
      const lane = 4 * q + p;
      const x = quad.x + (p & 1), y = quad.y + (p >> 1);
      const m = quad.coverage[p]!;
      const lowest = m ? 31 - Math.clz32(m & -m) : 0;
      const sIdx = opts.sampleIndex?.(wave, lane) ?? lowest;
      // centre
      barycentrics(sp, x + 0.5, y + 0.5, b, st.perspCorrDis);
      put(pc, 0, lane, bits(b[0]!)); put(pc, 1, lane, bits(b[1]!));
      put(lc, 0, lane, bits(b[2]!)); put(lc, 1, lane, bits(b[3]!));
      put(pz, 0, lane, bits(b[4]!));
      if (pw || pull) {
        // 1/W is linear in screen space: sum of linear weights / W_i.
        const l0 = 1 - b[2]! - b[3]!;
        const rw = sp.adj ? l0 / sp.w[0]! + b[2]! / sp.w[1]! + b[3]! / sp.w[2]! : 1 / sp.w[0]!;
        put(pw, 0, lane, bits(rw));
        put(pull, 0, lane, bits(b[2]! / (sp.w[1] ?? 1)));
        put(pull, 1, lane, bits(b[3]! / (sp.w[2] ?? 1)));
        put(pull, 2, lane, bits(rw));
      }
      put(px, 0, lane, bits(x + 0.5));
      put(py, 0, lane, bits(y + 0.5));
      // centroid
      let cs = -1;
      if (m && m !== full) {
        for (const s of st.centroidOrder) if (s < ns && (m >>> s) & 1) { cs = s; break; }
      }
      if (pcd || lcd) {
        const [cx, cy] = cs < 0 ? [0.5, 0.5] : sampleXY(p, cs);
        barycentrics(sp, x + cx, y + cy, b, st.perspCorrDis);
        put(pcd, 0, lane, bits(b[0]!)); put(pcd, 1, lane, bits(b[1]!));
        put(lcd, 0, lane, bits(b[2]!)); put(lcd, 1, lane, bits(b[3]!));
      }
      if (ps || ls) {
        const [sx, sy] = sampleXY(p, sIdx);
        barycentrics(sp, x + sx, y + sy, b, st.perspCorrDis);
        put(ps, 0, lane, bits(b[0]!)); put(ps, 1, lane, bits(b[1]!));
        put(ls, 0, lane, bits(b[2]!)); put(ls, 1, lane, bits(b[3]!));
      }
      put(ff, 0, lane, bits(sp.front ? 1 : -1));
      put(anc, 0, lane, (sIdx & 15) << 8);
      put(cov, 0, lane, m);
      put(fixed, 0, lane, (x & 0xffff) | ((y & 0xffff) << 16));
    }
  }
  return { vgprs: out, slots };
}
