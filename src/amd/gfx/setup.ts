/**
 * Clipping, perspective divide, viewport transform, vertex quantization and face culling: a
 * primitive with clip-space positions becomes a `SetupPrim` the scan converter walks.
 *
 * - Clipping (unless PA_CL_CLIP_CNTL.CLIP_DISABLE): primitives entirely outside one plane of the
 *   discard band (PA_CL_GB_*_DISC_ADJ times the view volume in x/y, the z planes) are dropped;
 *   triangles crossing the guard band (PA_CL_GB_*_CLIP_ADJ) or the z planes (z in [0,w] with
 *   DX_CLIP_SPACE_DEF, else [-w,w]; ZCLIP_NEAR/FAR_DISABLE) are clipped in homogeneous space into a
 *   fan of triangles that rasterize as one primitive. Points, lines and rects are only discarded.
 * - Viewport: PA_CL_VTE_CNTL enables each scale/offset and says whether x/y/z arrive pre-divided.
 * - Quantization: PA_SU_VTX_CNTL.QUANT_MODE/ROUND_MODE/PIX_CENTER; edges are evaluated on a
 *   2^-subBits grid (8 bits, or 10/12 for the 1/1024 and 1/4096 modes).
 * - Culling: PA_SU_SC_MODE_CNTL.CULL_FRONT/CULL_BACK with FACE; zero-area triangles are dropped.
 *   Orientation is taken in window coordinates (y down) the Vulkan way: counter-clockwise means the
 *   signed area sum(x_i*y_{i+1} - x_{i+1}*y_i) is negative.
 * - Barycentrics use the original (unclipped) triangle: the PS interpolates the original vertices'
 *   parameters, so clipping must not change I/J.
 */
import type { Primitive } from './primitive-assembly.js';
import type { PaState } from './state.js';

/** Clip-space (or pre-divided, per PA_CL_VTE_CNTL) vertex positions, 4 floats per vertex. */
export type Positions = ArrayLike<number>;

export interface SetupPrim {
  readonly prim: Primitive;
  /** Front facing (points, lines and rects are front facing). */
  readonly front: boolean;
  readonly viewport: number;
  /** Sub-triangles in fixed point (2^-subBits pixel units), each [x0,y0,x1,y1,x2,y2], positive area (y down). */
  readonly tris: readonly (readonly number[])[];
  readonly subBits: number;
  /**
   * Adjugate of M = [[X_i], [Y_i], [W_i]] (row-major 3x3) of the original vertices in homogeneous
   * window space: λ ∝ adj·(x, y, 1) are the perspective-correct barycentrics at window point (x, y).
   * Null for points and lines (their barycentrics are 0).
   */
  readonly adj: Float64Array | null;
  /** Per original vertex: W (1 when positions arrive pre-divided) and window z. */
  readonly w: readonly number[];
  readonly z: readonly number[];
}

export interface SetupOptions {
  /** Viewport index per primitive (the VS/GS viewport-index output); default 0. */
  viewportIndex?: (prim: Primitive) => number;
  /** Point half-size in pixels (the shader's point size output); default PA_SU_POINT_SIZE. */
  pointHalfSize?: number;
  /** Line half-width in pixels; default PA_SU_LINE_CNTL.WIDTH. */
  lineHalfWidth?: number;
}

/** QUANT_MODE -> bits of vertex precision (1/16, 1/8, 1/4, 1/2, 1, 1/256, 1/1024, 1/4096). */
const QUANT_BITS = [4, 3, 2, 1, 0, 8, 10, 12] as const;

export function subBitsOf(quantMode: number): number {
  return Math.max(8, QUANT_BITS[quantMode & 7]!);
}

function roundBy(v: number, mode: number): number {
  switch (mode & 3) {
    case 0: return Math.trunc(v);
    case 1: return Math.floor(v + 0.5);
    case 2: { // round to even
      const f = Math.floor(v);
      const d = v - f;
      return d > 0.5 ? f + 1 : d < 0.5 ? f : f % 2 === 0 ? f : f + 1;
    }
    default: { // round to odd
      const f = Math.floor(v);
      const d = v - f;
      return d > 0.5 ? f + 1 : d < 0.5 ? f : Math.abs(f % 2) === 1 ? f : f + 1;
    }
  }
}

/** A homogeneous vertex in window space before the divide: X = x_window * W. */
interface HVert { X: number; Y: number; Z: number; W: number; cx: number; cy: number; cz: number; cw: number }

export class Setup {
  readonly st: PaState;
  readonly subBits: number;
  private readonly qScale: number;
  private readonly gridMul: number;
  constructor(st: PaState) {
    this.st = st;
    const q = QUANT_BITS[st.quantMode & 7]!;
    this.subBits = subBitsOf(st.quantMode);
    this.qScale = 2 ** q;
    this.gridMul = 2 ** (this.subBits - q);
  }

  /** Snap a window coordinate to the fixed-point grid. */
  snap(v: number): number {
    return roundBy(v * this.qScale, this.st.roundMode) * this.gridMul;
  }

  /** Clip-space vertex -> homogeneous window vertex (viewport scale/offset folded in; no divide). */
  private toWindow(pos: Positions, i: number, vp: number): HVert {
    const st = this.st;
    const v = st.viewports[vp] ?? st.viewports[0]!;
    const cx = pos[4 * i]!, cy = pos[4 * i + 1]!, cz = pos[4 * i + 2]!;
    let cw = pos[4 * i + 3]!;
    if (st.vte.wIsReciprocal) cw = 1 / cw;
    const W = st.vte.xyPreDivided ? 1 : cw;
    const shift = st.pixCenterHalf ? 0 : 0.5;
    const offX = (st.vte.xOffset ? v.xOffset : 0) + shift + (st.vtxWindowOffset ? st.windowOffset.x : 0);
    const offY = (st.vte.yOffset ? v.yOffset : 0) + shift + (st.vtxWindowOffset ? st.windowOffset.y : 0);
    const X = (st.vte.xScale ? v.xScale : 1) * cx + offX * W;
    const Y = (st.vte.yScale ? v.yScale : 1) * cy + offY * W;
    const Zw = st.vte.zPreDivided ? 1 : cw;
    const Z = (st.vte.zScale ? v.zScale : 1) * cz + (st.vte.zOffset ? v.zOffset : 0) * Zw;
    return { X, Y, Z: Z / Zw * W, W, cx, cy, cz, cw: st.vte.xyPreDivided ? 1 : cw };
  }

  /** Clip planes as [a,b,c,d] on (x,y,z,w) clip coordinates, inside when a*x+b*y+c*z+d*w >= 0. */
  private planes(clipAdj: boolean): number[][] {
    const st = this.st;
    const h = clipAdj ? st.gb.horzClip : st.gb.horzDisc;
    const vv = clipAdj ? st.gb.vertClip : st.gb.vertDisc;
    const p: number[][] = [[-1, 0, 0, h], [1, 0, 0, h], [0, -1, 0, vv], [0, 1, 0, vv]];
    if (!st.zclipNearDisable) p.push(st.dxClipSpace ? [0, 0, 1, 0] : [0, 0, 1, 1]);
    if (!st.zclipFarDisable) p.push([0, 0, -1, 1]);
    return p;
  }

  /** Run one primitive through clip, transform, quantize and cull; null if it produces no fragments. */
  run(prim: Primitive, pos: Positions, opts: SetupOptions = {}): SetupPrim | null {
    const st = this.st;
    if (st.rasterizationKill) return null;
    const vp = opts.viewportIndex?.(prim) ?? 0;
    const n = prim.v.length;
    const hv = prim.v.map((i) => this.toWindow(pos, i, vp));
    const clipping = !st.clipDisable && !st.vte.xyPreDivided;
    if (clipping) {
      for (const pl of this.planes(false)) {
        if (hv.every((v) => pl[0]! * v.cx + pl[1]! * v.cy + pl[2]! * v.cz + pl[3]! * v.cw < 0)) return null;
      }
    }
    const w = hv.map((v) => v.W);
    const z = hv.map((v) => v.Z / v.W);
    const win = (v: HVert): [number, number] => [this.snap(v.X / v.W), this.snap(v.Y / v.W)];
    const sub = 2 ** this.subBits;

    if (prim.kind === 'point' || prim.kind === 'line') {
      let quad: [number, number][];
      if (prim.kind === 'point') {
        const [x, y] = win(hv[0]!);
        const hw = Math.round((opts.pointHalfSize ?? st.pointHalfWidth) * sub);
        const hh = Math.round((opts.pointHalfSize ?? st.pointHalfHeight) * sub);
        quad = [[x - hw, y - hh], [x + hw, y - hh], [x - hw, y + hh], [x + hw, y + hh]];
      } else {
        const a = win(hv[0]!), b = win(hv[1]!);
        const hw = Math.round((opts.lineHalfWidth ?? st.lineHalfWidth) * sub);
        // Lines extrude along the minor axis (x-major lines get height, y-major lines width).
        const xMajor = Math.abs(b[0] - a[0]) >= Math.abs(b[1] - a[1]);
        const d: [number, number] = xMajor ? [0, hw] : [hw, 0];
        quad = [[a[0] - d[0], a[1] - d[1]], [b[0] - d[0], b[1] - d[1]], [a[0] + d[0], a[1] + d[1]], [b[0] + d[0], b[1] + d[1]]];
      }
      const tris = [orient([...quad[0]!, ...quad[1]!, ...quad[2]!]), orient([...quad[1]!, ...quad[3]!, ...quad[2]!])].filter((t) => t !== null);
      return tris.length ? { prim, front: true, viewport: vp, tris, subBits: this.subBits, adj: null, w, z } : null;
    }

    const adj = adjugate(hv.map((v) => v.X), hv.map((v) => v.Y), w);
    if (prim.kind === 'rect') {
      const p0 = win(hv[0]!), p1 = win(hv[1]!), p2 = win(hv[2]!);
      const p3: [number, number] = [p1[0] + p2[0] - p0[0], p1[1] + p2[1] - p0[1]];
      const tris = [orient([...p0, ...p1, ...p2]), orient([...p1, ...p3, ...p2])].filter((t) => t !== null);
      return tris.length ? { prim, front: true, viewport: vp, tris, subBits: this.subBits, adj, w, z } : null;
    }
    void n;

    // Triangle: clip in homogeneous space if any vertex lies outside the guard band / z planes.
    let poly: HVert[] = hv;
    if (clipping) {
      for (const pl of this.planes(true)) {
        poly = clipPoly(poly, pl);
        if (poly.length < 3) return null;
      }
      // A W > 0 plane: with near clipping disabled a vertex may still sit behind the eye.
      poly = clipPoly(poly, [0, 0, 0, 1], 1e-30);
      if (poly.length < 3) return null;
    }
    const pts = poly.map(win);
    let area2 = 0;
    for (let i = 0; i < pts.length; i++) {
      const a = pts[i]!, b = pts[(i + 1) % pts.length]!;
      area2 += a[0] * b[1] - b[0] * a[1];
    }
    if (area2 === 0) return null;
    // y down: negative shoelace sum = counter-clockwise (Vulkan's a > 0).
    const ccw = area2 < 0;
    const front = st.faceCw ? !ccw : ccw;
    if ((front && st.cullFront) || (!front && st.cullBack)) return null;
    const tris: number[][] = [];
    for (let i = 1; i + 1 < pts.length; i++) {
      const t = orient([...pts[0]!, ...pts[i]!, ...pts[i + 1]!]);
      if (t) tris.push(t);
    }
    if (!tris.length) return null;
    return { prim, front, viewport: vp, tris, subBits: this.subBits, adj, w, z };
  }
}

/** Reorder a fixed-point triangle to positive area (y down); null if degenerate. */
function orient(t: number[]): number[] | null {
  const [x0, y0, x1, y1, x2, y2] = t as [number, number, number, number, number, number];
  const a = (x1 - x0) * (y2 - y0) - (x2 - x0) * (y1 - y0);
  if (a === 0) return null;
  return a > 0 ? t : [x0, y0, x2, y2, x1, y1];
}

function clipPoly(poly: HVert[], pl: readonly number[], eps = 0): HVert[] {
  const d = (v: HVert): number => pl[0]! * v.cx + pl[1]! * v.cy + pl[2]! * v.cz + pl[3]! * v.cw - eps;
  if (poly.every((v) => d(v) >= 0)) return poly;
  const out: HVert[] = [];
  for (let i = 0; i < poly.length; i++) {
    const a = poly[i]!, b = poly[(i + 1) % poly.length]!;
    const da = d(a), db = d(b);
    if (da >= 0) out.push(a);
    if ((da >= 0) !== (db >= 0)) {
      const t = da / (da - db);
      const L = (p: number, q: number): number => p + t * (q - p);
      out.push({ X: L(a.X, b.X), Y: L(a.Y, b.Y), Z: L(a.Z, b.Z), W: L(a.W, b.W), cx: L(a.cx, b.cx), cy: L(a.cy, b.cy), cz: L(a.cz, b.cz), cw: L(a.cw, b.cw) });
    }
  }
  return out;
}

/** Adjugate of [[X0,X1,X2],[Y0,Y1,Y2],[W0,W1,W2]], row-major. */
function adjugate(X: number[], Y: number[], W: number[]): Float64Array {
  const [a, b, c] = X as [number, number, number];
  const [d, e, f] = Y as [number, number, number];
  const [g, h, i] = W as [number, number, number];
  return new Float64Array([
    e * i - f * h, c * h - b * i, b * f - c * e,
    f * g - d * i, a * i - c * g, c * d - a * f,
    d * h - e * g, b * g - a * h, a * e - b * d,
  ]);
}

/**
 * Barycentrics of window point (x, y) (pixel units, pixel centres at +0.5): perspective-correct
 * weights of vertices 1 and 2 (the PS's I and J), and the screen-linear ones. `out` gets
 * [perspI, perspJ, linearI, linearJ, z].
 */
export function barycentrics(sp: SetupPrim, x: number, y: number, out: Float64Array, perspCorrDis = false): void {
  const m = sp.adj;
  if (!m) {
    out[0] = out[1] = out[2] = out[3] = 0;
    out[4] = sp.z[0]!;
    return;
  }
  const l0 = m[0]! * x + m[1]! * y + m[2]!;
  const l1 = m[3]! * x + m[4]! * y + m[5]!;
  const l2 = m[6]! * x + m[7]! * y + m[8]!;
  const s = l0 + l1 + l2;
  const w0 = sp.w[0]!, w1 = sp.w[1]!, w2 = sp.w[2]!;
  const m0 = l0 * w0, m1 = l1 * w1, m2 = l2 * w2;
  const ms = m0 + m1 + m2;
  out[2] = m1 / ms;
  out[3] = m2 / ms;
  if (perspCorrDis) {
    out[0] = out[2];
    out[1] = out[3];
  } else {
    out[0] = l1 / s;
    out[1] = l2 / s;
  }
  out[4] = (m0 * sp.z[0]! + m1 * sp.z[1]! + m2 * sp.z[2]!) / ms;
}
