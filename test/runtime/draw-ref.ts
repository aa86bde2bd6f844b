/**
 * An independent reference rasterizer for the draw tests: written from the D3D/Vulkan rules, not
 * from src/amd/gfx. Viewport transform, snapping to the 1/256-pixel grid with round-half-to-even
 * (PA_SU_VTX_CNTL QUANT_MODE 5 / ROUND_MODE 2 as the scene builder programs them), per-sample
 * coverage with exact integer edge functions and the top-left rule, the standard sample positions
 * (D3D 1/2/4/8/16, written out again here), perspective-correct interpolation in doubles.
 */

/** Standard sample positions in 1/16 pixel from the centre (D3D11 specification tables). */
export const REF_SAMPLES: Readonly<Record<number, readonly (readonly [number, number])[]>> = {
  1: [[0, 0]],
  2: [[4, 4], [-4, -4]],
  4: [[-2, -6], [6, -2], [-6, 2], [2, 6]],
  8: [[1, -3], [-1, 3], [5, 1], [-3, -5], [-5, 5], [-7, -1], [3, 7], [7, -7]],
  16: [[1, 1], [-1, -3], [-3, 2], [4, -1], [-5, -2], [2, 5], [5, 3], [3, -5], [-2, 6], [0, -7], [-4, -6], [-6, 4], [-8, 0], [7, -4], [6, 7], [-7, -8]],
};

export interface RefVertex { x: number; y: number; z: number; w: number; attr: readonly number[] }

function roundHalfEven(v: number): number {
  const f = Math.floor(v);
  const d = v - f;
  if (d > 0.5) return f + 1;
  if (d < 0.5) return f;
  return f % 2 === 0 ? f : f + 1;
}

export interface RefTri {
  /** Fixed-point window coordinates (1/256 pixel), oriented to positive area. */
  fx: number[]; fy: number[];
  /** Original vertex order -> oriented order. */
  order: number[];
  verts: RefVertex[];
  win: { x: number; y: number; z: number; w: number }[];
}

export function refSetup(v: readonly RefVertex[], width: number, height: number): RefTri | null {
  const win = v.map((p) => ({ x: (p.x / p.w) * (width / 2) + width / 2, y: (p.y / p.w) * (height / 2) + height / 2, z: p.z / p.w, w: p.w }));
  const fx = win.map((p) => roundHalfEven(p.x * 256));
  const fy = win.map((p) => roundHalfEven(p.y * 256));
  const area = (fx[1]! - fx[0]!) * (fy[2]! - fy[0]!) - (fx[2]! - fx[0]!) * (fy[1]! - fy[0]!);
  if (area === 0) return null;
  const order = area > 0 ? [0, 1, 2] : [0, 2, 1];
  return { fx: order.map((i) => fx[i]!), fy: order.map((i) => fy[i]!), order, verts: [...v], win };
}

/** Is the fixed-point sample (sx, sy) covered (top-left rule)? */
export function refCovers(t: RefTri, sx: number, sy: number): boolean {
  for (let k = 0; k < 3; k++) {
    const ax = t.fx[k]!, ay = t.fy[k]!, bx = t.fx[(k + 1) % 3]!, by = t.fy[(k + 1) % 3]!;
    const dx = bx - ax, dy = by - ay;
    const e = dx * (sy - ay) - dy * (sx - ax);
    if (e > 0) continue;
    if (e < 0) return false;
    const topLeft = dy < 0 || (dy === 0 && dx > 0);
    if (!topLeft) return false;
  }
  return true;
}

/** Sample s of pixel (x, y) in fixed point. */
export function refSample(x: number, y: number, samples: number, s: number): [number, number] {
  const p = samples === 1 ? [0, 0] : REF_SAMPLES[samples]![s]!;
  return [x * 256 + 128 + p[0]! * 16, y * 256 + 128 + p[1]! * 16];
}

/** Perspective-correct attribute `c` at window point (px, py), from the unsnapped vertices. */
export function refInterp(t: RefTri, px: number, py: number, c: number): number {
  const [a, b, d] = t.win;
  // Screen-space barycentrics.
  const den = (b!.x - a!.x) * (d!.y - a!.y) - (d!.x - a!.x) * (b!.y - a!.y);
  const l1 = ((px - a!.x) * (d!.y - a!.y) - (d!.x - a!.x) * (py - a!.y)) / den;
  const l2 = ((b!.x - a!.x) * (py - a!.y) - (px - a!.x) * (b!.y - a!.y)) / den;
  const l0 = 1 - l1 - l2;
  const q0 = l0 / a!.w, q1 = l1 / b!.w, q2 = l2 / d!.w;
  const s = q0 + q1 + q2;
  const v = t.verts;
  return (q0 * v[0]!.attr[c]! + q1 * v[1]!.attr[c]! + q2 * v[2]!.attr[c]!) / s;
}
