/** Scan conversion: the top-left rule on shared edges, MSAA coverage against analytic areas, scissors. */
import { mulberry32 } from '../../src/core/prng.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DI_PT } from '../../src/amd/gfx/pa-regs.gen.js';
import { STANDARD_SAMPLE_LOCATIONS, makeReg } from '../../src/amd/gfx/state.js';
import { runFrontEnd } from '../../src/amd/gfx/frontend.js';
import { GENS, clipPos, hitCounts, target } from './gfx-harness.js';

const rng = mulberry32;

const SAMPLE_COUNTS = [1, 2, 4, 8, 16] as const;

test('a grid of triangle pairs whose corners sit on pixel centres and sample positions: every sample hit exactly once', () => {
  // Corners at x = 2.5 + 3k (pixel centres) make many samples lie exactly on shared edges.
  const W = 24, H = 24;
  for (const samples of SAMPLE_COUNTS) {
    for (const gen of GENS) {
      const st = target({ gen, w: W, h: H, samples });
      const pts: [number, number][] = [];
      const xs = [2.5, 5.5, 8.5, 11.5, 14.5, 17.5, 20.5];
      for (const y of xs) for (const x of xs) pts.push([x, y]);
      const idx: number[] = [];
      const n = xs.length;
      for (let j = 0; j + 1 < n; j++) {
        for (let i = 0; i + 1 < n; i++) {
          const a = j * n + i, b = a + 1, c = a + n, d = c + 1;
          // alternate diagonals and windings
          if ((i + j) & 1) idx.push(a, b, d, a, d, c);
          else idx.push(a, c, b, b, c, d);
        }
      }
      const hits = hitCounts(st, { indices: idx, positions: clipPos(st, pts), primType: DI_PT.DI_PT_TRILIST }, W, H);
      const locs = STANDARD_SAMPLE_LOCATIONS[samples]!;
      for (let y = 0; y < H; y++) {
        for (let x = 0; x < W; x++) {
          for (let s = 0; s < samples; s++) {
            const sx = x + 0.5 + (samples === 1 ? 0 : locs[s]![0] / 16);
            const sy = y + 0.5 + (samples === 1 ? 0 : locs[s]![1] / 16);
            // top-left: the left and top borders are in, right and bottom out
            const want = sx >= 2.5 && sx < 20.5 && sy >= 2.5 && sy < 20.5 ? 1 : 0;
            assert.equal(hits[y * W + x]![s], want, `${gen} ${samples}x pixel ${x},${y} sample ${s}`);
          }
        }
      }
    }
  }
});

test('random fans: shared edges are never hit twice, and samples strictly inside the polygon are hit once', () => {
  const W = 32, H = 32;
  const r = rng(7);
  for (let iter = 0; iter < 40; iter++) {
    const samples = SAMPLE_COUNTS[iter % 5]!;
    const st = target({ w: W, h: H, samples });
    const cx = 16 + (r() - 0.5) * 4, cy = 16 + (r() - 0.5) * 4;
    const n = 5 + Math.floor(r() * 12);
    const ring: [number, number][] = [];
    for (let k = 0; k < n; k++) {
      const a = (k / n) * 2 * Math.PI;
      const rad = 10 + r() * 4;
      // snap ring vertices to 1/16 pixel so edges pass through sample positions often
      ring.push([Math.round((cx + rad * Math.cos(a)) * 16) / 16, Math.round((cy + rad * Math.sin(a)) * 16) / 16]);
    }
    const pts: [number, number][] = [[cx, cy], ...ring];
    const idx = [0, ...ring.map((_, k) => k + 1), 1];
    const hits = hitCounts(st, { indices: idx, positions: clipPos(st, pts), primType: DI_PT.DI_PT_TRIFAN }, W, H);
    const locs = STANDARD_SAMPLE_LOCATIONS[samples]!;
    for (let y = 0; y < H; y++) {
      for (let x = 0; x < W; x++) {
        for (let s = 0; s < samples; s++) {
          const h = hits[y * W + x]![s]!;
          assert.ok(h <= 1, `double hit at ${x},${y} s${s}`);
          const sx = x + 0.5 + (samples === 1 ? 0 : locs[s]![0] / 16);
          const sy = y + 0.5 + (samples === 1 ? 0 : locs[s]![1] / 16);
          // strictly inside the ring polygon (star-shaped around the centre; convexity not needed
          // for the fan triangles: test inside any fan triangle strictly)
          let strictly = false;
          for (let k = 0; k < n && !strictly; k++) {
            const a = pts[0]!, b = ring[k]!, c = ring[(k + 1) % n]!;
            const e = (p: [number, number], q: [number, number]): number => (q[0] - p[0]) * (sy - p[1]) - (q[1] - p[1]) * (sx - p[0]);
            const e0 = e(a, b), e1 = e(b, c), e2 = e(c, a);
            const eps = 1e-3;
            strictly = (e0 > eps && e1 > eps && e2 > eps) || (e0 < -eps && e1 < -eps && e2 < -eps);
          }
          if (strictly) assert.equal(h, 1, `gap at ${x},${y} s${s} (fan ${iter})`);
        }
      }
    }
  }
});

test('MSAA coverage counts match analytic areas', () => {
  const W = 64, H = 64;
  for (const samples of SAMPLE_COUNTS) {
    const st = target({ w: W, h: H, samples });
    // Axis-aligned rectangle on pixel boundaries: exactly area * samples.
    const rect = hitCounts(st, { indices: [0, 1, 2, 1, 3, 2], positions: clipPos(st, [[4, 6], [40, 6], [4, 30], [40, 30]]) }, W, H);
    const total = rect.reduce((a, h) => a + h.reduce((x, y) => x + y, 0), 0);
    assert.equal(total, 36 * 24 * samples, `${samples}x rectangle`);
    // Triangles: |count/samples - area| bounded by the boundary length (each boundary pixel errs < 1).
    const r = rng(samples);
    for (let k = 0; k < 10; k++) {
      const p: [number, number][] = [[r() * W, r() * H], [r() * W, r() * H], [r() * W, r() * H]];
      const area = Math.abs((p[1]![0] - p[0]![0]) * (p[2]![1] - p[0]![1]) - (p[2]![0] - p[0]![0]) * (p[1]![1] - p[0]![1])) / 2;
      const hits = hitCounts(st, { indices: [0, 1, 2], positions: clipPos(st, p) }, W, H);
      const cov = hits.reduce((a, h) => a + h.reduce((x, y) => x + y, 0), 0) / samples;
      const perim = [0, 1, 2].reduce((a, i) => a + Math.hypot(p[(i + 1) % 3]![0] - p[i]![0], p[(i + 1) % 3]![1] - p[i]![1]), 0);
      const tol = samples === 1 ? perim + 4 : (perim + 4) * (samples >= 8 ? 0.5 : 0.8);
      assert.ok(Math.abs(cov - area) <= tol, `${samples}x triangle ${k}: covered ${cov} vs area ${area} (tol ${tol})`);
    }
    // A large triangle: the estimate converges with more samples (error well under 1% of the area).
    const big: [number, number][] = [[1.3, 2.7], [62.1, 9.9], [20.4, 61.2]];
    const area = Math.abs((big[1]![0] - big[0]![0]) * (big[2]![1] - big[0]![1]) - (big[2]![0] - big[0]![0]) * (big[1]![1] - big[0]![1])) / 2;
    const cov = hitCounts(st, { indices: [0, 1, 2], positions: clipPos(st, big) }, W, H).reduce((a, h) => a + h.reduce((x, y) => x + y, 0), 0) / samples;
    assert.ok(Math.abs(cov - area) / area < 0.02, `${samples}x big triangle: ${cov} vs ${area}`);
  }
});

test('sample positions come from PA_SC_AA_SAMPLE_LOCS: moving sample 0 of pixel X1Y0 moves its coverage', () => {
  const W = 8, H = 8;
  // A vertical edge at x = 4.25: pixel 4's centre (4.5) is outside of [0,4.25).
  const base = target({ w: W, h: H, samples: 1 });
  const pts = clipPos(base, [[0, 0], [4.25, 0], [0, 8], [4.25, 8]]);
  const h1 = hitCounts(base, { indices: [0, 1, 2, 1, 3, 2], positions: pts }, W, H);
  assert.equal(h1[4]![0], 0);
  // 4 samples; move sample 0 of X0Y0 (pixel 4 has x&1=0, y=0) to (-6,-6)/16: x = 4.125 < 4.25 -> covered
  const st = target({ w: W, h: H, samples: 4, extra: { PA_SC_AA_SAMPLE_LOCS_PIXEL_X0Y0_0: 0x00000000 | (10 << 0) | (10 << 4) } });
  const h4 = hitCounts(st, { indices: [0, 1, 2, 1, 3, 2], positions: pts }, W, H);
  assert.equal(h4[4]![0], 1, 'moved sample covered');
  assert.equal(h4[5]![0], 0, 'pixel 5 (X1Y0 pattern) keeps the standard position');
});

test('PA_SC_AA_MASK masks samples per pixel of the 2x2 pattern', () => {
  const st = target({ w: 4, h: 4, samples: 4, extra: { PA_SC_AA_MASK_X0Y0_X1Y0: 0x000f0005, PA_SC_AA_MASK_X0Y1_X1Y1: 0x00000000 } });
  const h = hitCounts(st, { indices: [0, 1, 2, 1, 3, 2], positions: clipPos(st, [[0, 0], [4, 0], [0, 4], [4, 4]]) }, 4, 4);
  assert.deepEqual([...h[0]!], [1, 0, 1, 0]);
  assert.deepEqual([...h[1]!], [1, 1, 1, 1]);
  assert.deepEqual([...h[4]!], [0, 0, 0, 0]);
});

test('scissors: screen, window (with window offset), generic and viewport scissors intersect', () => {
  const W = 16, H = 16;
  const full: [number, number][] = [[0, 0], [16, 0], [0, 16], [16, 16]];
  const count = (extra: Record<string, number>): Set<string> => {
    const st = target({ w: W, h: H, extra });
    const hits = hitCounts(st, { indices: [0, 1, 2, 1, 3, 2], positions: clipPos(st, full) }, W, H);
    const s = new Set<string>();
    hits.forEach((h, i) => { if (h[0]) s.add(`${i % W},${Math.floor(i / W)}`); });
    return s;
  };
  assert.equal(count({}).size, 256);
  const g = 'gfx11';
  const generic = count({
    PA_SC_GENERIC_SCISSOR_TL: makeReg(g, 'PA_SC_GENERIC_SCISSOR_TL', { TL_X: 3, TL_Y: 2 }),
    PA_SC_GENERIC_SCISSOR_BR: makeReg(g, 'PA_SC_GENERIC_SCISSOR_BR', { BR_X: 7, BR_Y: 12 }),
  });
  assert.equal(generic.size, 4 * 10);
  assert.ok(generic.has('3,2') && generic.has('6,11') && !generic.has('7,11') && !generic.has('6,12'));
  // Window offset moves the generic scissor unless WINDOW_OFFSET_DISABLE.
  const moved = count({
    PA_SC_WINDOW_OFFSET: makeReg(g, 'PA_SC_WINDOW_OFFSET', { WINDOW_X_OFFSET: 2, WINDOW_Y_OFFSET: 1 }),
    PA_SC_WINDOW_SCISSOR_TL: makeReg(g, 'PA_SC_WINDOW_SCISSOR_TL', { WINDOW_OFFSET_DISABLE: 1 }),
    PA_SC_GENERIC_SCISSOR_TL: makeReg(g, 'PA_SC_GENERIC_SCISSOR_TL', { TL_X: 3, TL_Y: 2 }),
    PA_SC_GENERIC_SCISSOR_BR: makeReg(g, 'PA_SC_GENERIC_SCISSOR_BR', { BR_X: 7, BR_Y: 12 }),
  });
  assert.ok(moved.has('5,3') && !moved.has('3,2') && moved.size === 40);
  // Viewport scissor only when PA_SC_MODE_CNTL_0.VPORT_SCISSOR_ENABLE.
  const vs = {
    PA_SC_VPORT_SCISSOR_0_TL: makeReg(g, 'PA_SC_VPORT_SCISSOR_0_TL', { TL_X: 8, TL_Y: 8 }),
    PA_SC_VPORT_SCISSOR_0_BR: makeReg(g, 'PA_SC_VPORT_SCISSOR_0_BR', { BR_X: 16, BR_Y: 16 }),
  };
  assert.equal(count(vs).size, 256);
  assert.equal(count({ ...vs, PA_SC_MODE_CNTL_0: makeReg(g, 'PA_SC_MODE_CNTL_0', { VPORT_SCISSOR_ENABLE: 1 }) }).size, 64);
  // Screen scissor.
  assert.equal(count({ PA_SC_SCREEN_SCISSOR_BR: makeReg(g, 'PA_SC_SCREEN_SCISSOR_BR', { BR_X: 5, BR_Y: 16 }) }).size, 80);
});

test('PA_SU_VTX_CNTL: PIX_CENTER=0 puts pixel centres at integers; QUANT_MODE snaps vertices', () => {
  const W = 8, H = 8;
  const g = 'gfx11';
  // Rectangle from x=0 to x=2.5 (window): with centres at .5 pixels 0,1 are in (2.5 excluded by the right-edge rule).
  const run = (vtx: number): number => {
    const st = target({ w: W, h: H, extra: { PA_SU_VTX_CNTL: vtx } });
    const hits = hitCounts(st, { indices: [0, 1, 2, 1, 3, 2], positions: clipPos(st, [[0, 0], [2.5, 0], [0, 8], [2.5, 8]]) }, W, H);
    return hits.slice(0, W).filter((h) => h[0]).length;
  };
  assert.equal(run(makeReg(g, 'PA_SU_VTX_CNTL', { PIX_CENTER: 1, QUANT_MODE: 5, ROUND_MODE: 2 })), 2);
  // D3D9 centres (0.0): the rectangle [0, 2.5) contains centres 0, 1, 2.
  assert.equal(run(makeReg(g, 'PA_SU_VTX_CNTL', { PIX_CENTER: 0, QUANT_MODE: 5, ROUND_MODE: 2 })), 3);
  // Whole-pixel quantization with truncation: 2.5 -> 2.
  assert.equal(run(makeReg(g, 'PA_SU_VTX_CNTL', { PIX_CENTER: 1, QUANT_MODE: 4, ROUND_MODE: 0 })), 2);
  // Whole-pixel, round half up: 2.5 -> 3.
  assert.equal(run(makeReg(g, 'PA_SU_VTX_CNTL', { PIX_CENTER: 1, QUANT_MODE: 4, ROUND_MODE: 1 })), 3);
});

test('rect lists rasterize the implied fourth corner; points are squares', () => {
  const W = 16, H = 16;
  const st = target({ w: W, h: H });
  const r = runFrontEnd(st, { indices: [0, 1, 2], primType: DI_PT.DI_PT_RECTLIST, positions: clipPos(st, [[2, 3], [10, 3], [2, 7]]) });
  const n = r.quads.reduce((a, q) => a + [...q.coverage].filter((c) => c).length, 0);
  assert.equal(n, 8 * 4);
  const p = runFrontEnd(st, { indices: [0], primType: DI_PT.DI_PT_POINTLIST, positions: clipPos(st, [[5, 5]]), setup: { pointHalfSize: 1 } });
  assert.equal(p.quads.reduce((a, q) => a + [...q.coverage].filter((c) => c).length, 0), 4);
  // PA_SU_POINT_SIZE: half-size 12.4 fixed; 1.5 x 0.5 half-extents -> 3 x 1 pixels.
  const ps = target({ w: W, h: H, extra: { PA_SU_POINT_SIZE: makeReg('gfx11', 'PA_SU_POINT_SIZE', { WIDTH: 24, HEIGHT: 8 }) } });
  const pr = runFrontEnd(ps, { indices: [0], primType: DI_PT.DI_PT_POINTLIST, positions: clipPos(ps, [[5.5, 5.5]]) });
  assert.equal(pr.quads.reduce((a, q) => a + [...q.coverage].filter((c) => c).length, 0), 3);
  // Lines: an x-major line of half-width 0.5 (PA_SU_LINE_CNTL.WIDTH = 8) covers one pixel per column.
  const ls = target({ w: W, h: H, extra: { PA_SU_LINE_CNTL: makeReg('gfx11', 'PA_SU_LINE_CNTL', { WIDTH: 8 }) } });
  const lr = runFrontEnd(ls, { indices: [0, 1], primType: DI_PT.DI_PT_LINELIST, positions: clipPos(ls, [[2, 4.5], [12, 4.5]]) });
  const hitsLine = lr.quads.flatMap((q) => [0, 1, 2, 3].filter((p) => q.coverage[p]).map((p) => [q.x + (p & 1), q.y + (p >> 1)]));
  assert.equal(hitsLine.length, 10);
  assert.ok(hitsLine.every(([, y]) => y === 4));
});
