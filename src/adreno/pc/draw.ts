/**
 * One draw through the a6xx pipeline, block by block: PC builds the index stream and assembles
 * primitives (pc/assemble.ts), VFD fetches and decodes the attributes of every vertex an
 * instance uses (vfd/fetch.ts), the VS runs on the SP (sp/graphics.ts), VPC packs its outputs
 * (vpc/varyings.ts), GRAS clips, divides, transforms, culls, scissors and rasterizes
 * (gras/raster.ts), the FS runs on the fragments and RB tests and writes them (rb/output.ts).
 *
 * `DrawJob` is everything the registers and packets said (cp/handlers-gfx.ts gathers it);
 * `RbTargets` are the surfaces: sysmem here, GMEM for the tiled path. Functional model: each
 * instance's vertices are shaded, then its primitives are set up and rasterized in bands of rows
 * and their fragments shaded and written in batches; primitives reach RB in order.
 *
 * `DrawBudget` bounds the work and memory of the draws of one run (vertices, primitives, pixels
 * the rasterizer visits, shader instructions, one draw's working memory): going over a limit
 * throws `DrawBudgetError` (an InputError, exit 2) naming the limit and its option.
 */
import type { Diagnostics } from '../../core/diagnostics.js';
import { InputError } from '../../core/errors.js';
import { clampZ, type ZRange } from '../gras/zclamp.js';
import { clipPolygon, culled, intersect, rasterTriangle, signedArea2, toScreen, trianglePlanes, type ClipControl, type PlaneValues, type ClipVertex, type Fragment, type Rect, type ScreenVertex, type Viewport } from '../gras/raster.js';
import { rbFragment, type RbState, type RbStats, type RbTargets } from '../rb/output.js';
import { runFragmentShader, runVertexShader, type FsLane, type FsOutputs, type FsPreload, type LaneVaryings, type StageProgram, type StageStats } from '../sp/graphics.js';
import { fetchVertex, type VfdState } from '../vfd/fetch.js';
import { outputComponents, packVertex, type VsOutput } from '../vpc/varyings.js';
import { assemble, indexStream, RESTART, type IndexSource } from './assemble.js';
import { OverlapTracker } from '../gras/overlap.js';

export interface DrawJob {
  readonly prim: string;
  readonly indices: IndexSource;
  readonly instances: number;
  readonly restart: boolean;
  readonly restartIndex: number;
  readonly provokingLast: boolean;
  readonly vfd: VfdState;
  /** Vertex buffer bytes (bounded by VFD_FETCH SIZE before this is called). */
  readonly read: (addr: number, len: number) => Uint8Array;
  readonly vs: StageProgram;
  readonly vsOutputs: readonly VsOutput[];
  /** VPC_VS_PACK POSITIONLOC. */
  readonly posLoc: number;
  /** PC_RASTER_CNTL DISCARD: no rasterization. */
  readonly rasterDiscard: boolean;
  readonly clip: ClipControl;
  readonly viewport: Viewport;
  readonly cullFront: boolean;
  readonly cullBack: boolean;
  readonly frontCw: boolean;
  /** GRAS_SU_POINT_SIZE (pixels) and GRAS_SU_CNTL LINEHALFWIDTH (pixels). */
  readonly pointSize: number;
  readonly lineHalfWidth: number;
  /**
   * GRAS_SU_CNTL POLY_OFFSET on: GRAS_SU_POLY_OFFSET_SCALE / _OFFSET / _OFFSET_CLAMP and the
   * depth format GRAS_SU_DEPTH_BUFFER_INFO names (its minimum resolvable difference).
   */
  readonly polyOffset?: { readonly scale: number; readonly units: number; readonly clamp: number; readonly format: string };
  /** GRAS_CL_CNTL Z_CLAMP_ENABLE: the rasterized z clamped to GRAS_CL_Z_CLAMP[0] (after the polygon offset; gras/zclamp.ts). */
  readonly zClamp?: ZRange;
  /** The scissors, intersected: screen, viewport and window scissor, and the surface. */
  readonly scissor: Rect;
  /** Sample offsets from the pixel centre (GRAS_RAS_MSAA_CNTL SAMPLES; standard or programmed). */
  readonly samplePos: readonly (readonly [number, number])[];
  readonly fs: StageProgram | undefined;
  readonly fsWave: number;
  readonly fsPreload: FsPreload;
  /** GRAS_SAMPLE_CNTL / RB_SAMPLE_CNTL PER_SAMP_MODE: the FS runs once per covered sample. */
  readonly perSample?: boolean;
  /** RB_RENDER_CONTROL1 FRAGCOORDSAMPLEMODE FRAGCOORD_SAMPLE: frag coord at the lane's sample, not the pixel centre. */
  readonly fragCoordSample?: boolean;
  readonly fsOutputs: FsOutputs;
  /** VPC_VAR[0..3].DISABLE. */
  readonly varDisable: Uint32Array;
  readonly rb: RbState;
  /** LRZ (gras/lrz.ts through cp/handlers-lrz.ts): fragments tested before the FS, the buffer updated after the draw. */
  readonly lrz?: { test(x: number, y: number, zmin: number, zmax: number): boolean; after(frags: readonly Fragment[]): void };
  /** Binning pass (GMEM helper's hook): triangles are handed here after setup, nothing is rasterized. */
  readonly onTriangle?: (v: readonly [ScreenVertex, ScreenVertex, ScreenVertex], prim: number) => void;
  /**
   * VPC stream-out (cp/handlers-so.ts): each assembled primitive's vertices as their VPC location
   * words, in primitive order, before rasterizer discard and bin visibility.
   */
  readonly streamOut?: (vertices: readonly Uint32Array[]) => void;
  /** GMEM render pass: is primitive `prim` (instance x primitives + k) in this bin (the VSC primitive stream)? */
  readonly visible?: (prim: number) => boolean;
  /**
   * The FS samples what the draw writes (gras/overlap.ts): `onOverlap` hears of every primitive
   * covering a pixel an earlier one covered; with `stall` (SINGLE_PRIM_MODE flushing) the pending
   * fragments are shaded and written before it.
   */
  readonly overlap?: { readonly stall: boolean; onOverlap(prim: number): void };
  /** The run's work and memory limits (none: unbounded) and the draw's name in their messages. */
  readonly budget?: DrawBudget;
  readonly label?: string;
}

/** Limits of the draws of one run (`gpusim adreno run --max-*`). */
export interface DrawLimits {
  /** Vertices the PC processes: indices x instances, over all draws. */
  readonly vertices: number;
  /** Primitives assembled, over all draws. */
  readonly primitives: number;
  /** Pixels the rasterizer visits (each triangle's bounding box inside the scissor), over all draws. */
  readonly pixels: number;
  /** VS and FS wave-instructions, over all draws. */
  readonly instructions: number;
  /** One draw's working memory in bytes (indices, primitives, the shaded vertices of an instance). */
  readonly drawBytes: number;
}
export const DEFAULT_DRAW_LIMITS: DrawLimits = { vertices: 1 << 24, primitives: 1 << 24, pixels: 1 << 24, instructions: 50_000_000, drawBytes: 1 << 30 };
/** The command-line option setting each limit. */
export const DRAW_LIMIT_OPTIONS: Readonly<Record<keyof DrawLimits, string>> = { vertices: '--max-vertices', primitives: '--max-primitives', pixels: '--max-pixels', instructions: '--max-instructions', drawBytes: '--max-draw-mib' };

/** A draw went over a limit of its run's `DrawBudget`. */
export class DrawBudgetError extends InputError {}

/** Work used against the limits, over the draws of one run. */
export class DrawBudget {
  readonly limits: DrawLimits;
  readonly used = { vertices: 0, primitives: 0, pixels: 0, instructions: 0 };
  constructor(limits: Partial<DrawLimits> = {}) {
    this.limits = { ...DEFAULT_DRAW_LIMITS, ...limits };
  }
  /** Add `n` to a counter; over its limit, throw naming the limit (`how` says where `n` came from). */
  charge(kind: keyof DrawBudget['used'], n: number, label: string, how = ''): void {
    const u = this.used[kind] + n;
    const lim = this.limits[kind];
    if (u > lim) throw new DrawBudgetError(`${label}: ${how ? `${how}: ` : ''}${u > 2 ** 53 ? u.toExponential(3) : u} ${kind} in the run, over the draw budget of ${lim} (adreno run ${DRAW_LIMIT_OPTIONS[kind]})`);
    this.used[kind] = u;
  }
  /** One draw's working memory (an estimate in bytes) against its limit. */
  memory(bytes: number, label: string, how: string): void {
    const lim = this.limits.drawBytes;
    if (bytes > lim) throw new DrawBudgetError(`${label}: ${how} need about ${Math.ceil(bytes / 2 ** 20)} MiB of working memory, over the draw limit of ${Math.floor(lim / 2 ** 20)} MiB (adreno run ${DRAW_LIMIT_OPTIONS.drawBytes})`);
  }
}

/** Vertices per VS call, fragments per FS batch, pixels per raster band: what one step holds in memory. */
const VS_CHUNK = 4096;
const FS_BATCH = 4096;
const BAND_PIXELS = 1 << 16;

export interface DrawResult {
  vertices: number;
  primitives: number;
  culled: number;
  fragments: number;
  killed: number;
  vs: StageStats;
  fs: StageStats;
  rb: RbStats;
  indexOutOfBounds: number;
  fetchOutOfBounds: number;
  /** Fragments LRZ rejected before the FS. */
  lrzKilled?: number;
  /** Triangles with a vertex outside the guardband (clipped at its x / y planes). */
  guardbandClipped: number;
  /** GMEM: primitives the bin's visibility stream marked invisible, not set up (`DrawJob.visible`). */
  binSkipped: number;
  /** Primitives assembled: instances x the primitives of one (the binning pass's stream entries). */
  assembled: number;
}

interface Tri {
  readonly v: [ScreenVertex, ScreenVertex, ScreenVertex];
  readonly vary: LaneVaryings;
  readonly front: boolean;
  /** A point's or line's quad: no polygon offset. */
  readonly notPolygon?: boolean;
}

/**
 * The polygon offset of a triangle (Vulkan's depth bias): m * SCALE + r * OFFSET, m the larger
 * window-z slope, r the format's minimum resolvable difference (2^-16 for D16, 2^-24 for D24,
 * 2^(e - 23) for D32F with e the largest exponent of the triangle's z), clamped by OFFSET_CLAMP
 * (a positive clamp bounds it above, a negative one below, 0 none).
 */
export function polygonOffset(v: readonly [ScreenVertex, ScreenVertex, ScreenVertex], po: NonNullable<DrawJob['polyOffset']>): number {
  const [a, b, c] = v;
  const det = (b.x - a.x) * (c.y - a.y) - (c.x - a.x) * (b.y - a.y);
  if (det === 0) return 0;
  const dzdx = ((b.z - a.z) * (c.y - a.y) - (c.z - a.z) * (b.y - a.y)) / det;
  const dzdy = ((c.z - a.z) * (b.x - a.x) - (b.z - a.z) * (c.x - a.x)) / det;
  const m = Math.max(Math.abs(dzdx), Math.abs(dzdy));
  let r = 0;
  if (po.format === 'DEPTH6_16') r = 2 ** -16;
  else if (po.format === 'DEPTH6_24_8') r = 2 ** -24;
  else if (po.format === 'DEPTH6_32') {
    const zmax = Math.max(Math.abs(a.z), Math.abs(b.z), Math.abs(c.z));
    r = zmax > 0 ? 2 ** (Math.floor(Math.log2(zmax)) - 23) : 2 ** -149;
  }
  let o = m * po.scale + r * po.units;
  if (po.clamp > 0) o = Math.min(o, po.clamp);
  else if (po.clamp < 0) o = Math.max(o, po.clamp);
  return o;
}

/** Run a draw into the targets. */
export function runDrawJob(job: DrawJob, targets: RbTargets, diag: Diagnostics): DrawResult {
  const res: DrawResult = {
    vertices: 0, primitives: 0, culled: 0, fragments: 0, killed: 0,
    vs: { waves: 0, instructions: 0, fiberInstructions: 0 }, fs: { waves: 0, instructions: 0, fiberInstructions: 0 },
    rb: { samplesPassed: 0, samplesWritten: 0 }, indexOutOfBounds: 0, fetchOutOfBounds: 0, guardbandClipped: 0, binSkipped: 0, assembled: 0,
  };
  if (job.instances === 0) return res;
  const budget = job.budget;
  const label = job.label ?? 'draw';
  const comps = outputComponents(job.vsOutputs);
  // Up front: the draw's indices, primitives and one instance's shaded vertices must fit.
  const nIdx = job.indices.count;
  budget?.memory(nIdx * (72 + 4 * comps.length), label, `${nIdx} indices`);
  budget?.charge('vertices', nIdx * job.instances, label, `${job.instances} instance(s) x ${nIdx} indices`);
  const { indices, outOfBounds } = indexStream(job.indices, job.restart, job.restartIndex);
  res.indexOutOfBounds = outOfBounds;
  const prims = assemble(job.prim, indices, job.provokingLast) ?? [];
  budget?.charge('primitives', prims.length * job.instances, label, `${job.instances} instance(s) x ${prims.length} primitives`);
  res.assembled = prims.length * job.instances;
  const charge = (st: StageStats, before: number): void => budget?.charge('instructions', st.instructions - before, label, 'shader wave-instructions');

  // GRAS -> FS -> RB, fed triangle by triangle in primitive order; fragments wait in `pending`
  // (whole quads) and are shaded and written in batches.
  const quads = !!job.fs; // 2x2 quads (helpers, mask 0, fill uncovered pixels) so FS derivatives see neighbours
  let pending: { f: Fragment; t: Tri }[] = [];
  let lrzKilled = 0;
  const lrzBlocks = new Map<number, Fragment>();
  const dis = job.varDisable;
  const flush = (): void => {
    let frags = pending;
    pending = [];
    if (job.lrz) {
      const lrz = job.lrz;
      const pass = ({ f }: { f: Fragment }): boolean => {
        let lo = Infinity, hi = -Infinity;
        for (let s = 0; s < f.z.length; s++) if ((f.mask >> s) & 1) { lo = Math.min(lo, f.z[s]!); hi = Math.max(hi, f.z[s]!); }
        return lo > hi || lrz.test(f.x, f.y, lo, hi);
      };
      if (!quads) {
        const n = frags.length;
        frags = frags.filter(pass);
        lrzKilled += n - frags.length;
      } else {
        // A rejected pixel stays in its quad as a helper (mask 0); a quad left with only helpers goes.
        const kept: { f: Fragment; t: Tri }[] = [];
        for (let q = 0; q < frags.length; q += 4) {
          const quad = frags.slice(q, q + 4).map((e) => {
            if (e.f.mask === 0 || pass(e)) return e;
            lrzKilled++;
            return { f: { ...e.f, mask: 0 }, t: e.t };
          });
          if (quad.some((e) => e.f.mask !== 0)) kept.push(...quad);
        }
        frags = kept;
      }
      // LRZ is written after the draw, from the blocks its surviving fragments touched.
      for (const { f } of frags) if (f.mask !== 0) lrzBlocks.set((f.y >> 3) * 65536 + (f.x >> 3), f);
    }
    if (!job.fs || frags.length === 0) return;
    // Per-sample shading: every quad once per sample index, each lane covering that one sample.
    let sampleOf: number[] | undefined;
    const nS = job.samplePos.length;
    if (job.perSample && nS > 1) {
      const per: { f: Fragment; t: Tri }[] = [];
      sampleOf = [];
      for (let q = 0; q < frags.length; q += 4) {
        const quad = frags.slice(q, q + 4);
        for (let s = 0; s < nS; s++) {
          if (!quad.some(({ f }) => (f.mask >> s) & 1)) continue;
          for (const e of quad) {
            per.push({ f: { ...e.f, mask: e.f.mask & (1 << s) }, t: e.t });
            sampleOf.push(s);
          }
        }
      }
      frags = per;
    }
    const planes = new Map<Tri, (x: number, y: number) => PlaneValues>();
    const pre = job.fsPreload;
    // The planes are evaluated again only for what HLSQ loads beyond the centre's i/j.
    const needPlanes = [pre.ijPerspCentroid, pre.ijLinearCentroid, pre.ijPerspSample, pre.ijLinearSample, pre.xyCoord, pre.zwCoord].some((r) => r !== undefined && r < 0xfc);
    const lanes: FsLane[] = frags.map(({ f, t }, k) => {
      if (!needPlanes) return { ijPersp: [f.persp[1], f.persp[2]], ijLinear: [f.linear[1], f.linear[2]], front: f.front, sampleId: sampleOf ? sampleOf[k]! : 0, sampleMask: f.mask, vary: t.vary };
      let pl = planes.get(t);
      if (!pl) planes.set(t, (pl = trianglePlanes(t.v[0], t.v[1], t.v[2])));
      const at = (s: number): PlaneValues => pl!(f.x + 0.5 + job.samplePos[s]![0], f.y + 0.5 + job.samplePos[s]![1]);
      const centre = pl(f.x + 0.5, f.y + 0.5);
      const full = (1 << nS) - 1;
      // The lane's sample: its own in per-sample mode, else the first covered one.
      const first = f.mask ? 31 - Math.clz32(f.mask & -f.mask) : 0;
      const sample = sampleOf ? sampleOf[k]! : first;
      // Centroid: the pixel centre when every sample is covered (or one sample), else the first covered sample.
      const cen = nS === 1 || (f.mask & full) === full || f.mask === 0 ? centre : at(first);
      const smp = sampleOf ? at(sample) : centre;
      const fc = job.fragCoordSample && f.mask ? at(sample) : centre;
      const sx = job.fragCoordSample && f.mask ? job.samplePos[sample]! : [0, 0];
      return {
        ijPersp: [f.persp[1], f.persp[2]], ijLinear: [f.linear[1], f.linear[2]],
        ijPerspCentroid: [cen.persp[1], cen.persp[2]], ijLinearCentroid: [cen.linear[1], cen.linear[2]],
        ijPerspSample: [smp.persp[1], smp.persp[2]], ijLinearSample: [smp.linear[1], smp.linear[2]],
        xy: [Math.round((f.x + 0.5 + sx[0]!) * 16), Math.round((f.y + 0.5 + sx[1]!) * 16)],
        zw: [fc.z, fc.rhw],
        front: f.front,
        sampleId: sampleOf ? sample : 0,
        sampleMask: f.mask,
        vary: t.vary,
      };
    });
    const before = res.fs.instructions;
    const out = runFragmentShader(job.fs, job.fsPreload, lanes, job.fsOutputs, (loc) => ((dis[loc >> 5]! >>> (loc & 31)) & 1) === 1, diag, res.fs, { waveSize: job.fsWave });
    charge(res.fs, before);
    frags.forEach(({ f }, k) => {
      const o = out[k]!;
      if (!f.mask) return; // a helper: runs for its quad's derivatives, writes nothing
      if (o.killed) {
        res.killed++;
        return;
      }
      const z = o.depth !== undefined ? new Float32Array(f.z.length).fill(o.depth) : f.z;
      rbFragment(job.rb, targets, f.x, f.y, o.sampleMask !== undefined ? f.mask & o.sampleMask : f.mask, z, f.front, o.colors, res.rb);
    });
  };
  const sc = job.scissor;
  let primIndex = 0;
  // Feedback loops: the pixels of the draw's earlier primitives, and of the current one.
  const tracker = job.overlap ? new OverlapTracker() : undefined;
  let curPrim = -1;
  let curOverlap = false;
  const overlapCheck = (frags: Fragment[]): void => {
    if (primIndex !== curPrim) {
      tracker!.next();
      curPrim = primIndex;
      curOverlap = false;
    }
    const covered = frags.filter((f) => f.mask);
    if (!curOverlap && tracker!.covers(covered)) {
      curOverlap = true;
      job.overlap!.onOverlap(primIndex);
      if (job.overlap!.stall) flush();
    }
    tracker!.mark(covered);
  };
  const raster = (t: Tri): void => {
    if (job.onTriangle) {
      job.onTriangle(t.v, primIndex);
      return;
    }
    // The rasterizer's bounding box (as rasterTriangle computes it) inside the scissor, in bands of rows.
    const xs = t.v.map((p) => p.x), ys = t.v.map((p) => p.y);
    const x0 = Math.max(sc.x0, Math.floor(Math.min(...xs)) - 1), x1 = Math.min(sc.x1, Math.ceil(Math.max(...xs)) + 1);
    const y0 = Math.max(sc.y0, Math.floor(Math.min(...ys)) - 1), y1 = Math.min(sc.y1, Math.ceil(Math.max(...ys)) + 1);
    if (!(x1 >= x0 && y1 >= y0)) return;
    budget?.charge('pixels', (x1 - x0 + 1) * (y1 - y0 + 1), label, 'rasterized bounding boxes');
    // Band boundaries on even rows keep 2x2 quads whole: the fragments come out as unbanded.
    const band = Math.max(2, Math.floor(BAND_PIXELS / (x1 - x0 + 1)) & ~1);
    const o = job.polyOffset && !t.notPolygon ? polygonOffset(t.v, job.polyOffset) : 0;
    const zc = job.zClamp;
    for (let by = y0; by <= y1; by = (Math.floor(by / band) + 1) * band) {
      const rect = { x0, x1, y0: by, y1: Math.min(y1, (Math.floor(by / band) + 1) * band - 1) };
      // A feedback loop: the band's fragments pass the overlap test before they join the pending
      // ones (a stall then shades what is pending, this primitive's earlier bands included).
      const mine: Fragment[] | undefined = tracker ? [] : undefined;
      for (const f of rasterTriangle(t.v[0], t.v[1], t.v[2], rect, job.samplePos, t.front, quads)) {
        if (o) for (let s = 0; s < f.z.length; s++) f.z[s] = Math.fround(f.z[s]! + o);
        if (zc) for (let s = 0; s < f.z.length; s++) f.z[s] = clampZ(f.z[s]!, zc);
        if (mine) mine.push(f);
        else pending.push({ f, t });
        if (f.mask) res.fragments++;
      }
      if (mine) {
        overlapCheck(mine);
        for (const f of mine) pending.push({ f, t });
      }
      if (pending.length >= FS_BATCH) flush();
    }
  };

  // VFD + VS: every distinct vertex index of an instance once; instances are shaded together
  // up to VS_CHUNK vertices a call.
  const uniq = new Map<number, number>();
  for (const v of indices) if (v !== RESTART && !uniq.has(v)) uniq.set(v, uniq.size);
  const perInst = uniq.size;
  // No vertex to shade (no index, or only restart indices): no instance has work, however many the
  // packet asks for (the budget charged 0 vertices for them; 2^32 empty turns would take minutes).
  const instances = perInst === 0 ? 0 : job.instances;
  const group = Math.max(1, Math.floor(VS_CHUNK / Math.max(1, perInst)));
  let vpcGroup: Float32Array[] = [];
  for (let inst = 0; inst < instances; inst++) {
    const g = inst % group;
    if (g === 0) {
      const inputs: (readonly (readonly [number, number])[])[] = [];
      for (let i = inst; i < Math.min(instances, inst + group); i++) {
        for (const v of uniq.keys()) {
          const f = fetchVertex(job.vfd, v, i, job.read);
          res.fetchOutOfBounds += f.outOfBounds;
          inputs.push(f.writes);
        }
      }
      res.vertices += inputs.length;
      const outs: Uint32Array[] = [];
      for (let k = 0; k < inputs.length; k += VS_CHUNK) {
        const before = res.vs.instructions;
        outs.push(...runVertexShader(job.vs, inputs.slice(k, k + VS_CHUNK), comps, diag, res.vs));
        charge(res.vs, before);
      }
      vpcGroup = outs.map((o) => packVertex(job.vsOutputs, o));
    }
    const clipV = (k: number): ClipVertex => {
      const a = vpcGroup[g * perInst + uniq.get(indices[k]!)!]!;
      const p = job.posLoc;
      return { pos: [a[p]!, a[p + 1]!, a[p + 2]!, a[p + 3]!], vary: a };
    };
    if (job.streamOut) {
      for (const pr of prims) job.streamOut(pr.verts.map((k) => {
        const a = vpcGroup[g * perInst + uniq.get(indices[k]!)!]!;
        return new Uint32Array(a.buffer, a.byteOffset, a.length);
      }));
    }
    if (job.rasterDiscard) continue;
    for (const [k, pr] of prims.entries()) {
      primIndex = inst * prims.length + k;
      if (job.visible && !job.visible(primIndex)) {
        res.binSkipped++;
        continue;
      }
      res.primitives++;
      const provoking = clipV(pr.provoking).vary;
      if (pr.verts.length === 3) {
        const cv = pr.verts.map(clipV);
        const gb = job.clip.guardband;
        if (gb && !job.clip.clipDisable && cv.some(({ pos: [x, y, , w] }) => Math.abs(x) > gb.x * w || Math.abs(y) > gb.y * w)) res.guardbandClipped++;
        const poly = clipPolygon(cv, job.clip);
        for (let k = 1; k + 1 < poly.length; k++) {
          const v: [ScreenVertex, ScreenVertex, ScreenVertex] = [toScreen(poly[0]!, job.viewport), toScreen(poly[k]!, job.viewport), toScreen(poly[k + 1]!, job.viewport)];
          const a2 = signedArea2(v[0], v[1], v[2]);
          if (culled(a2, job.cullFront, job.cullBack, job.frontCw)) {
            res.culled++;
            continue;
          }
          raster({ v, vary: { v: [v[0].vary, v[1].vary, v[2].vary], provoking }, front: a2 > 0 === job.frontCw });
        }
      } else {
        // Points and lines: screen-space quads (points of GRAS_SU_POINT_SIZE, lines LINEHALFWIDTH
        // either side), w > 0 required of every vertex.
        const cv = pr.verts.map(clipV);
        if (cv.some((c) => !(c.pos[3] > 0))) continue;
        const sv = cv.map((c) => toScreen(c, job.viewport));
        const quad = (a: ScreenVertex, b: ScreenVertex, c: ScreenVertex, d: ScreenVertex): void => {
          for (const t of [[a, b, c], [b, d, c]] as [ScreenVertex, ScreenVertex, ScreenVertex][]) raster({ v: t, vary: { v: [t[0].vary, t[1].vary, t[2].vary], provoking }, front: true, notPolygon: true });
        };
        const at = (s: ScreenVertex, dx: number, dy: number): ScreenVertex => ({ ...s, x: s.x + dx, y: s.y + dy });
        if (sv.length === 1) {
          const h = job.pointSize / 2;
          const p = sv[0]!;
          quad(at(p, -h, -h), at(p, h, -h), at(p, -h, h), at(p, h, h));
        } else {
          const [p, q] = sv as [ScreenVertex, ScreenVertex];
          const dx = q.x - p.x;
          const dy = q.y - p.y;
          const len = Math.hypot(dx, dy);
          if (len === 0) continue;
          const nx = (-dy / len) * job.lineHalfWidth;
          const ny = (dx / len) * job.lineHalfWidth;
          quad(at(p, nx, ny), at(p, -nx, -ny), at(q, nx, ny), at(q, -nx, -ny));
        }
      }
    }
  }
  if (job.onTriangle) return res;
  flush();
  if (job.lrz) {
    res.lrzKilled = lrzKilled;
    job.lrz.after([...lrzBlocks.values()]);
  }
  return res;
}

/** The surface rectangle as an inclusive Rect. */
export function surfaceRect(width: number, height: number): Rect {
  return { x0: 0, y0: 0, x1: width - 1, y1: height - 1 };
}
export { intersect };
