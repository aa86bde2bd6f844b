/**
 * Scan conversion: a set-up primitive becomes 2x2 quads with a sample coverage mask per pixel,
 * in rasterization order (primitive order; inside a primitive, quads row by row, top to bottom,
 * left to right — the model's order; the hardware's tile walk is not modelled).
 *
 * Coverage: a sample is covered when it is inside every edge, or exactly on an edge that is a top
 * or left edge (the top-left fill rule), evaluated exactly on the fixed-point grid. Sample positions
 * come from PA_SC_AA_SAMPLE_LOCS_PIXEL_* (per pixel of the 2x2 pattern) for PA_SC_AA_CONFIG.
 * MSAA_NUM_SAMPLES samples; with one sample the pixel centre is used. PA_SC_AA_MASK_* masks
 * samples per pixel of the 2x2 pattern. Pixels outside the
 * intersection of the screen, window, generic and (if enabled) viewport scissors are not covered.
 */
import type { SetupPrim } from './setup.js';
import type { PaState, Rect } from './state.js';

export interface Quad {
  /** Top-left pixel of the quad (both even). */
  readonly x: number;
  readonly y: number;
  readonly sp: SetupPrim;
  /** Sample coverage per pixel, index (y&1)*2 + (x&1). A zero mask is a helper pixel. */
  readonly coverage: Uint16Array;
}

/** Intersection of the scissors that apply to viewport `vp`, [x0,x1) x [y0,y1). */
export function effectiveScissor(st: PaState, vp: number): Rect {
  const rs = [st.screenScissor, st.windowScissor, st.genericScissor];
  if (st.vportScissorEnable) rs.push(st.vportScissors[vp] ?? st.vportScissors[0]!);
  const r = { x0: -Infinity, y0: -Infinity, x1: Infinity, y1: Infinity };
  for (const s of rs) {
    r.x0 = Math.max(r.x0, s.x0); r.y0 = Math.max(r.y0, s.y0);
    r.x1 = Math.min(r.x1, s.x1); r.y1 = Math.min(r.y1, s.y1);
  }
  return r;
}

interface Edge { ax: number; ay: number; dx: number; dy: number; topLeft: boolean }

function edgesOf(t: readonly number[]): Edge[] {
  const out: Edge[] = [];
  for (let k = 0; k < 3; k++) {
    const ax = t[2 * k]!, ay = t[2 * k + 1]!;
    const bx = t[(2 * k + 2) % 6]!, by = t[(2 * k + 3) % 6]!;
    const dx = bx - ax, dy = by - ay;
    // Positive-area triangles (y down) have the interior on the right-hand side of each edge as
    // seen on screen: an edge going up is a left edge, a horizontal edge going right a top edge.
    out.push({ ax, ay, dx, dy, topLeft: dy < 0 || (dy === 0 && dx > 0) });
  }
  return out;
}

/** Is the grid point (px, py) inside the positive-area triangle with these edges (top-left rule)? */
function inside(es: readonly Edge[], px: number, py: number): boolean {
  for (let k = 0; k < 3; k++) {
    const e = es[k]!;
    const v = e.dx * (py - e.ay) - e.dy * (px - e.ax);
    if (v < 0 || (v === 0 && !e.topLeft)) return false;
  }
  return true;
}

/** Rasterize one primitive; `emit` receives its quads in rasterization order. */
export function rasterize(sp: SetupPrim, st: PaState, emit: (q: Quad) => void): void {
  const sub = 2 ** sp.subBits;
  const half = sub / 2;
  const step = sub / 16;
  const ns = st.numSamples;
  const sc = effectiveScissor(st, sp.viewport);
  let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
  for (const t of sp.tris) {
    for (let k = 0; k < 3; k++) {
      minX = Math.min(minX, t[2 * k]!); maxX = Math.max(maxX, t[2 * k]!);
      minY = Math.min(minY, t[2 * k + 1]!); maxY = Math.max(maxY, t[2 * k + 1]!);
    }
  }
  const px0 = Math.max(Math.floor(minX / sub), sc.x0);
  const px1 = Math.min(Math.floor(maxX / sub), sc.x1 - 1);
  const py0 = Math.max(Math.floor(minY / sub), sc.y0);
  const py1 = Math.min(Math.floor(maxY / sub), sc.y1 - 1);
  if (px0 > px1 || py0 > py1) return;
  const edges = sp.tris.map(edgesOf);
  const qx0 = px0 & ~1, qy0 = py0 & ~1;
  for (let qy = qy0; qy <= py1; qy += 2) {
    for (let qx = qx0; qx <= px1; qx += 2) {
      let any = 0;
      const cov = new Uint16Array(4);
      for (let p = 0; p < 4; p++) {
        const x = qx + (p & 1), y = qy + (p >> 1);
        if (x < px0 || x > px1 || y < py0 || y > py1) continue;
        const locs = st.sampleLocs[p]!;
        let m = 0;
        for (let s = 0; s < ns; s++) {
          const sx = x * sub + half + (ns === 1 ? 0 : locs[2 * s]! * step);
          const sy = y * sub + half + (ns === 1 ? 0 : locs[2 * s + 1]! * step);
          for (const es of edges) {
            if (inside(es, sx, sy)) {
              m |= 1 << s;
              break;
            }
          }
        }
        m &= st.aaMask[p]!;
        cov[p] = m;
        any |= m;
      }
      if (any) emit({ x: qx, y: qy, sp, coverage: cov });
    }
  }
}
