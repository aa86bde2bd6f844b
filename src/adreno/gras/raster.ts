/**
 * GRAS (seed 004 "GRAS", "3D Viewports and Scissors"): clipping in clip space (w > 0 and the
 * depth planes; x/y are left to the guardband and the 2D scissor), perspective division, the
 * viewport transform (GRAS_CL_VPORT_*: offset = centre, scale = half size, Vulkan rules),
 * face culling (GRAS_SU_CNTL), the scissors (GRAS_SC_SCREEN_SCISSOR, GRAS_SC_VIEWPORT_SCISSOR,
 * GRAS_SC_WINDOW_SCISSOR, all inclusive), and rasterization: vertex positions snapped to 1/256
 * pixel, samples at the standard positions (or RB_SAMPLE_LOCATION_* when enabled), edges by the
 * top-left rule, barycentrics at the pixel centre (IJ_PERSP_PIXEL: perspective-correct; LINEAR:
 * screen-space) and depth per sample.
 */

/** A vertex after the VS: clip-space position and its VPC varyings (one float per VPC location). */
export interface ClipVertex {
  readonly pos: readonly [number, number, number, number];
  readonly vary: Float32Array;
}

/** A vertex in window space. */
export interface ScreenVertex {
  /** Window x, y snapped to 1/256 pixel, z after the viewport, 1/w. */
  readonly x: number;
  readonly y: number;
  readonly z: number;
  readonly invW: number;
  readonly vary: Float32Array;
}

export interface Viewport {
  readonly xoffset: number;
  readonly xscale: number;
  readonly yoffset: number;
  readonly yscale: number;
  readonly zoffset: number;
  readonly zscale: number;
}

export interface ClipControl {
  /** GRAS_CL_CNTL: CLIP_DISABLE, ZNEAR_CLIP_DISABLE, ZFAR_CLIP_DISABLE, ZERO_GB_SCALE_Z (z in [0, w] rather than [-w, w]). */
  readonly clipDisable: boolean;
  readonly znearDisable: boolean;
  readonly zfarDisable: boolean;
  readonly zeroOneZ: boolean;
  /** GRAS_CL_GUARDBAND_CLIP_ADJ HORZ / VERT as multiples of w (gras/guardband.ts); absent: x and y are not clipped. */
  readonly guardband?: { readonly x: number; readonly y: number };
}

/** Inclusive rectangle; empty when x1 < x0 or y1 < y0. */
export interface Rect {
  readonly x0: number;
  readonly y0: number;
  readonly x1: number;
  readonly y1: number;
}

export const SUBPIXEL = 256;

/** The smallest w a vertex may have after clipping (the w > 0 plane). */
const W_EPSILON = 1e-6;

type Plane = (p: readonly number[]) => number;

/**
 * Clip a triangle against w > 0, the enabled depth planes and the guardband's x / y planes (Sutherland-Hodgman in clip space,
 * varyings interpolated linearly there, which is perspective-correct). Returns a convex polygon
 * (0 or >= 3 vertices).
 */
export function clipPolygon(tri: readonly ClipVertex[], cc: ClipControl): ClipVertex[] {
  const planes: Plane[] = [(p) => p[3]! - W_EPSILON];
  if (!cc.clipDisable) {
    if (!cc.znearDisable) planes.push(cc.zeroOneZ ? (p) => p[2]! : (p) => p[2]! + p[3]!);
    if (!cc.zfarDisable) planes.push((p) => p[3]! - p[2]!);
    const gb = cc.guardband;
    if (gb) planes.push((p) => gb.x * p[3]! - p[0]!, (p) => gb.x * p[3]! + p[0]!, (p) => gb.y * p[3]! - p[1]!, (p) => gb.y * p[3]! + p[1]!);
  }
  let poly = tri.slice();
  for (const d of planes) {
    if (poly.every((v) => d(v.pos) >= 0)) continue;
    const out: ClipVertex[] = [];
    for (let k = 0; k < poly.length; k++) {
      const a = poly[k]!;
      const b = poly[(k + 1) % poly.length]!;
      const da = d(a.pos);
      const db = d(b.pos);
      if (da >= 0) out.push(a);
      if ((da >= 0) !== (db >= 0)) {
        const t = da / (da - db);
        const pos = [0, 1, 2, 3].map((c) => a.pos[c]! + t * (b.pos[c]! - a.pos[c]!)) as unknown as [number, number, number, number];
        const vary = new Float32Array(a.vary.length);
        for (let c = 0; c < vary.length; c++) vary[c] = a.vary[c]! + t * (b.vary[c]! - a.vary[c]!);
        out.push({ pos, vary });
      }
    }
    poly = out;
    if (poly.length < 3) return [];
  }
  return poly;
}

/** Perspective division and the viewport transform; x/y snapped to the 1/256 subpixel grid. */
export function toScreen(v: ClipVertex, vp: Viewport): ScreenVertex {
  const [x, y, z, w] = v.pos;
  const iw = 1 / w;
  const sx = Math.round((x * iw * vp.xscale + vp.xoffset) * SUBPIXEL) / SUBPIXEL;
  const sy = Math.round((y * iw * vp.yscale + vp.yoffset) * SUBPIXEL) / SUBPIXEL;
  return { x: sx, y: sy, z: Math.fround(z * iw * vp.zscale + vp.zoffset), invW: iw, vary: v.vary };
}

/**
 * Twice the signed area in window space (y down): positive when v0 -> v1 -> v2 turn clockwise
 * on screen (Vulkan's "clockwise" in framebuffer coordinates).
 */
export function signedArea2(a: ScreenVertex, b: ScreenVertex, c: ScreenVertex): number {
  return (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x);
}

/** GRAS_SU_CNTL culling: is the triangle dropped? (FRONT_CW: clockwise triangles face front.) */
export function culled(area2: number, cullFront: boolean, cullBack: boolean, frontCw: boolean): boolean {
  if (area2 === 0) return true;
  const cw = area2 > 0;
  const front = cw === frontCw;
  return front ? cullFront : cullBack;
}

/** Standard sample positions (offsets from the pixel centre, in pixels) for 1, 2 and 4 samples. */
export const STANDARD_SAMPLES: Readonly<Record<number, readonly (readonly [number, number])[]>> = {
  1: [[0, 0]],
  2: [[4 / 16, 4 / 16], [-4 / 16, -4 / 16]],
  4: [[-2 / 16, -6 / 16], [6 / 16, -2 / 16], [-6 / 16, 2 / 16], [2 / 16, 6 / 16]],
};

/** One fragment: a pixel with its coverage, the barycentrics at the pixel centre and depth per sample. */
export interface Fragment {
  readonly x: number;
  readonly y: number;
  /** Covered samples, bit per sample. */
  readonly mask: number;
  /** Perspective-correct barycentrics (weights of v0, v1, v2) at the pixel centre. */
  readonly persp: readonly [number, number, number];
  /** Screen-space (linear) barycentrics at the pixel centre. */
  readonly linear: readonly [number, number, number];
  /** Window z per sample (only covered samples meaningful). */
  readonly z: Float32Array;
  /** Window z at the pixel centre (gl_FragCoord.z). */
  readonly zCenter: number;
  /** gl_FrontFacing. */
  readonly front: boolean;
}

/** The top-left rule for an edge a -> b of a triangle whose interior is on the positive side. */
function topLeft(a: ScreenVertex, b: ScreenVertex): boolean {
  const dy = b.y - a.y;
  const dx = b.x - a.x;
  return dy < 0 || (dy === 0 && dx > 0);
}

/**
 * Rasterize a window-space triangle into fragments (row-major order) inside `clip`, testing
 * `samples` sample positions per pixel. The triangle may be in either orientation; the
 * barycentrics always refer to the vertices in the order given. With `quads`, the fragments come
 * as 2x2 quads (quad-row-major; in each quad top-left, top-right, bottom-left, bottom-right, the
 * fiber order of the SP's quads): a pixel of a touched quad the triangle does not cover is a
 * helper (mask 0) with its barycentrics extrapolated at its centre, for derivatives only.
 */
export function rasterTriangle(v0: ScreenVertex, v1: ScreenVertex, v2: ScreenVertex, clip: Rect, samples: readonly (readonly [number, number])[], front: boolean, quads = false): Fragment[] {
  const area2 = signedArea2(v0, v1, v2);
  if (area2 === 0) return [];
  // Orient so that the interior is positive; keep the original vertex numbering for weights.
  const flip = area2 < 0;
  const P = flip ? [v0, v2, v1] : [v0, v1, v2];
  const [a, b, c] = P as [ScreenVertex, ScreenVertex, ScreenVertex];
  const area = Math.abs(area2);
  const tlBC = topLeft(b, c);
  const tlCA = topLeft(c, a);
  const tlAB = topLeft(a, b);
  // Edge function of a -> b at p, in the 1/256 grid (exact integers).
  const S = SUBPIXEL;
  const ax = a.x * S, ay = a.y * S, bx = b.x * S, by = b.y * S, cx = c.x * S, cy = c.y * S;
  const edge = (x0: number, y0: number, x1: number, y1: number, px: number, py: number): number => (x1 - x0) * (py - y0) - (y1 - y0) * (px - x0);
  const inside = (px: number, py: number): boolean => {
    const e0 = edge(bx, by, cx, cy, px, py);
    const e1 = edge(cx, cy, ax, ay, px, py);
    const e2 = edge(ax, ay, bx, by, px, py);
    return (e0 > 0 || (e0 === 0 && tlBC)) && (e1 > 0 || (e1 === 0 && tlCA)) && (e2 > 0 || (e2 === 0 && tlAB));
  };
  const minX = Math.max(clip.x0, Math.floor(Math.min(a.x, b.x, c.x)) - 1);
  const maxX = Math.min(clip.x1, Math.ceil(Math.max(a.x, b.x, c.x)) + 1);
  const minY = Math.max(clip.y0, Math.floor(Math.min(a.y, b.y, c.y)) - 1);
  const maxY = Math.min(clip.y1, Math.ceil(Math.max(a.y, b.y, c.y)) + 1);
  const out: Fragment[] = [];
  const areaS = area * S * S;
  // Weights of the oriented vertices (a, b, c) at a point, mapped back to v0, v1, v2.
  const weights = (px: number, py: number): [number, number, number] => {
    const wa = edge(bx, by, cx, cy, px, py) / areaS;
    const wb = edge(cx, cy, ax, ay, px, py) / areaS;
    const wc = 1 - wa - wb;
    return flip ? [wa, wc, wb] : [wa, wb, wc];
  };
  for (let y = minY; y <= maxY; y++) {
    for (let x = minX; x <= maxX; x++) {
      let mask = 0;
      for (let s = 0; s < samples.length; s++) {
        const px = Math.round((x + 0.5 + samples[s]![0]) * S);
        const py = Math.round((y + 0.5 + samples[s]![1]) * S);
        if (inside(px, py)) mask |= 1 << s;
      }
      if (!mask) continue;
      const z = new Float32Array(samples.length);
      for (let s = 0; s < samples.length; s++) {
        if (!(mask & (1 << s))) continue;
        const l = weights((x + 0.5 + samples[s]![0]) * S, (y + 0.5 + samples[s]![1]) * S);
        z[s] = l[0] * v0.z + l[1] * v1.z + l[2] * v2.z;
      }
      out.push(centre(x, y, mask, z));
    }
  }
  if (!quads) return out;
  const byQuad = new Map<number, Fragment[]>();
  const key = (qx: number, qy: number): number => (qy + 0x8000) * 0x10000 + (qx + 0x8000);
  for (const f of out) {
    const k = key(f.x >> 1, f.y >> 1);
    let q = byQuad.get(k);
    if (!q) byQuad.set(k, (q = []));
    q.push(f);
  }
  const res: Fragment[] = [];
  for (const q of [...byQuad.values()].sort((p, r) => (p[0]!.y >> 1) - (r[0]!.y >> 1) || (p[0]!.x >> 1) - (r[0]!.x >> 1))) {
    const qx = q[0]!.x & ~1, qy = q[0]!.y & ~1;
    for (let k = 0; k < 4; k++) {
      const x = qx + (k & 1), y = qy + (k >> 1);
      res.push(q.find((f) => f.x === x && f.y === y) ?? centre(x, y, 0, new Float32Array(samples.length)));
    }
  }
  return res;

  function centre(x: number, y: number, mask: number, z: Float32Array): Fragment {
    const lin = weights((x + 0.5) * S, (y + 0.5) * S);
    const p0 = lin[0] * v0.invW, p1 = lin[1] * v1.invW, p2 = lin[2] * v2.invW;
    const ps = p0 + p1 + p2;
    return { x, y, mask, linear: lin, persp: [p0 / ps, p1 / ps, p2 / ps], z, zCenter: Math.fround(lin[0] * v0.z + lin[1] * v1.z + lin[2] * v2.z), front };
  }
}

/** Values of a triangle's planes at a window point (pixels, not snapped). */
export interface PlaneValues {
  /** Screen-space weights of v0, v1, v2. */
  readonly linear: readonly [number, number, number];
  /** Perspective-correct weights. */
  readonly persp: readonly [number, number, number];
  /** Window z. */
  readonly z: number;
  /** 1/w (linear in screen space): gl_FragCoord.w. */
  readonly rhw: number;
}

/**
 * The planes of a window-space triangle evaluated anywhere (sample positions, centroids, frag
 * coord), the same edge functions rasterTriangle uses for its pixel centres.
 */
export function trianglePlanes(v0: ScreenVertex, v1: ScreenVertex, v2: ScreenVertex): (x: number, y: number) => PlaneValues {
  const S = SUBPIXEL;
  const area2 = signedArea2(v0, v1, v2);
  const flip = area2 < 0;
  const [a, b, c] = (flip ? [v0, v2, v1] : [v0, v1, v2]) as [ScreenVertex, ScreenVertex, ScreenVertex];
  const ax = a.x * S, ay = a.y * S, bx = b.x * S, by = b.y * S, cx = c.x * S, cy = c.y * S;
  const areaS = Math.abs(area2) * S * S;
  const edge = (x0: number, y0: number, x1: number, y1: number, px: number, py: number): number => (x1 - x0) * (py - y0) - (y1 - y0) * (px - x0);
  return (x, y) => {
    const px = x * S, py = y * S;
    const wa = edge(bx, by, cx, cy, px, py) / areaS;
    const wb = edge(cx, cy, ax, ay, px, py) / areaS;
    const wc = 1 - wa - wb;
    const lin: [number, number, number] = flip ? [wa, wc, wb] : [wa, wb, wc];
    const p0 = lin[0] * v0.invW, p1 = lin[1] * v1.invW, p2 = lin[2] * v2.invW;
    const ps = p0 + p1 + p2;
    return { linear: lin, persp: [p0 / ps, p1 / ps, p2 / ps], z: Math.fround(lin[0] * v0.z + lin[1] * v1.z + lin[2] * v2.z), rhw: ps };
  };
}

/** The intersection of inclusive rectangles. */
export function intersect(...rs: readonly Rect[]): Rect {
  return rs.reduce((p, r) => ({ x0: Math.max(p.x0, r.x0), y0: Math.max(p.y0, r.y0), x1: Math.min(p.x1, r.x1), y1: Math.min(p.y1, r.y1) }));
}
