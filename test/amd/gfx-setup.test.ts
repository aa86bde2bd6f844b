/** Clipping, culling and barycentrics. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DI_PT } from '../../src/amd/gfx/pa-regs.gen.js';
import { makeReg } from '../../src/amd/gfx/state.js';
import { runFrontEnd } from '../../src/amd/gfx/frontend.js';
import { barycentrics } from '../../src/amd/gfx/setup.js';
import { clipPos, hitCounts, target } from './gfx-harness.js';

const g = 'gfx11';
const pixels = (h: Uint8Array[]): number => h.filter((x) => x[0]).length;

test('culling: FACE selects the front winding, CULL_FRONT/CULL_BACK drop it', () => {
  const W = 16, H = 16;
  // In window coordinates (y down) 0 -> 1 -> 2 turns clockwise on screen.
  const cwTri: [number, number][] = [[1, 1], [14, 1], [1, 14]];
  const ccwTri: [number, number][] = [[1, 1], [1, 14], [14, 1]];
  for (const face of [0, 1]) {
    for (const [cf, cb] of [[0, 0], [1, 0], [0, 1], [1, 1]] as const) {
      const st = target({ w: W, h: H, extra: { PA_SU_SC_MODE_CNTL: makeReg(g, 'PA_SU_SC_MODE_CNTL', { FACE: face, CULL_FRONT: cf, CULL_BACK: cb }) } });
      for (const [tri, isCw] of [[cwTri, true], [ccwTri, false]] as const) {
        const r = runFrontEnd(st, { indices: [0, 1, 2], positions: clipPos(st, tri) });
        const front = face === 1 ? isCw : !isCw;
        const culled = front ? cf === 1 : cb === 1;
        assert.equal(r.prims.length, culled ? 0 : 1, `FACE=${face} CULL_FRONT=${cf} CULL_BACK=${cb} ${isCw ? 'cw' : 'ccw'}`);
        if (!culled) assert.equal(r.prims[0]!.front, front);
      }
    }
  }
  // Degenerate triangles never produce fragments.
  const st = target({ w: W, h: H });
  assert.equal(runFrontEnd(st, { indices: [0, 1, 2], positions: clipPos(st, [[1, 1], [5, 5], [9, 9]]) }).prims.length, 0);
});

test('a strip alternates winding per triangle but culls consistently (odd triangles are swapped)', () => {
  const W = 16, H = 16;
  const st = target({ w: W, h: H, extra: { PA_SU_SC_MODE_CNTL: makeReg(g, 'PA_SU_SC_MODE_CNTL', { CULL_BACK: 1 }) } });
  // A zig-zag strip; all triangles of a strip have the same facing.
  const pts: [number, number][] = [[1, 1], [1, 8], [5, 1], [5, 8], [9, 1], [9, 8]];
  const r = runFrontEnd(st, { indices: [0, 1, 2, 3, 4, 5], positions: clipPos(st, pts), primType: DI_PT.DI_PT_TRISTRIP });
  const r2 = runFrontEnd(st, { indices: [1, 0, 3, 2, 5, 4], positions: clipPos(st, pts), primType: DI_PT.DI_PT_TRISTRIP });
  assert.deepEqual([r.prims.length, r2.prims.length].sort(), [0, 4]);
});

test('clipping against the near plane (DX z in [0,w]) and ZCLIP_NEAR_DISABLE', () => {
  const W = 32, H = 32;
  // z goes from -1 (x=0) to +1 (x=32): only x >= 16 survives the near plane.
  const pts: [number, number, number][] = [[0, 0, -1], [32, 0, 1], [0, 32, -1], [32, 32, 1]];
  const st = target({ w: W, h: H });
  const h = hitCounts(st, { indices: [0, 1, 2, 1, 3, 2], positions: clipPos(st, pts) }, W, H);
  for (let i = 0; i < W * H; i++) assert.equal(h[i]![0], i % W >= 16 ? 1 : 0, `pixel ${i % W},${Math.floor(i / W)}`);
  const off = target({ w: W, h: H, extra: { PA_CL_CLIP_CNTL: makeReg(g, 'PA_CL_CLIP_CNTL', { DX_CLIP_SPACE_DEF: 1, ZCLIP_NEAR_DISABLE: 1 }) } });
  assert.equal(pixels(hitCounts(off, { indices: [0, 1, 2, 1, 3, 2], positions: clipPos(off, pts) }, W, H)), W * H);
  // OpenGL clip space (z in [-w,w]): nothing is clipped.
  const gl = target({ w: W, h: H, extra: { PA_CL_CLIP_CNTL: 0 } });
  assert.equal(pixels(hitCounts(gl, { indices: [0, 1, 2, 1, 3, 2], positions: clipPos(gl, pts) }, W, H)), W * H);
});

test('guard-band clipping gives the same pixels as no clipping, and the discard band drops outside primitives', () => {
  const W = 32, H = 32;
  const tri: [number, number][] = [[-40.3, 3.1], [70.7, 9.2], [13.4, 45.9]];
  const big = target({ w: W, h: H, gb: 1000 });
  const tight = target({ w: W, h: H, gb: 1 });
  const a = hitCounts(big, { indices: [0, 1, 2], positions: clipPos(big, tri) }, W, H).map((x) => x[0]);
  const b = hitCounts(tight, { indices: [0, 1, 2], positions: clipPos(tight, tri) }, W, H).map((x) => x[0]);
  assert.deepEqual(b, a);
  assert.ok(pixels(hitCounts(big, { indices: [0, 1, 2], positions: clipPos(big, tri) }, W, H)) > 300);
  // Entirely right of the view volume: discarded before setup.
  const r = runFrontEnd(big, { indices: [0, 1, 2], positions: clipPos(big, [[40, 1], [60, 1], [40, 20]]) });
  assert.equal(r.prims.length, 0);
});

test('a triangle with a vertex behind the eye is clipped and its barycentrics stay those of the original triangle', () => {
  const W = 32, H = 32;
  const st = target({ w: W, h: H, extra: { PA_CL_CLIP_CNTL: 0 } });
  // Clip-space positions; vertex 2 has w < 0.
  const pos = [-0.5, -0.5, 0.5, 1, 0.5, -0.5, 0.5, 1, 0.2, 0.9, -0.5, -0.8];
  const r = runFrontEnd(st, { indices: [0, 1, 2], positions: pos });
  assert.equal(r.prims.length, 1);
  assert.ok(r.quads.length > 0);
  const b = new Float64Array(5);
  for (const q of r.quads) {
    for (let p = 0; p < 4; p++) {
      if (!q.coverage[p]) continue;
      const x = q.x + (p & 1) + 0.5, y = q.y + (p >> 1) + 0.5;
      barycentrics(q.sp, x, y, b);
      const l = [1 - b[0]! - b[1]!, b[0]!, b[1]!];
      // Perspective-correct interpolation of clip x and w reproduces the pixel's NDC x.
      const cx = l[0]! * pos[0]! + l[1]! * pos[4]! + l[2]! * pos[8]!;
      const cw = l[0]! * pos[3]! + l[1]! * pos[7]! + l[2]! * pos[11]!;
      assert.ok(Math.abs(cx / cw - (x / 16 - 1)) < 1e-9, `pixel ${x},${y}`);
      assert.ok(cw > 0, 'the visible part is in front of the eye');
    }
  }
});

test('perspective and linear barycentrics: linear are screen-affine, perspective interpolate 1/w-weighted', () => {
  const W = 16, H = 16;
  const st = target({ w: W, h: H });
  const pos = clipPos(st, [[0, 0, 0.5, 1], [16, 0, 0.5, 4], [0, 16, 0.5, 2]]);
  const r = runFrontEnd(st, { indices: [0, 1, 2], positions: pos });
  const b = new Float64Array(5);
  barycentrics(r.prims[0]!, 4, 6, b);
  // linear: x = 16*I, y = 16*J
  assert.ok(Math.abs(b[2]! - 4 / 16) < 1e-12 && Math.abs(b[3]! - 6 / 16) < 1e-12);
  // perspective: weights proportional to linear / w
  const l = [1 - b[2]! - b[3]!, b[2]!, b[3]!];
  const q = [l[0]! / 1, l[1]! / 4, l[2]! / 2];
  const s = q[0]! + q[1]! + q[2]!;
  assert.ok(Math.abs(b[0]! - q[1]! / s) < 1e-12 && Math.abs(b[1]! - q[2]! / s) < 1e-12);
  // PERSP_CORR_DIS makes the perspective weights linear.
  barycentrics(r.prims[0]!, 4, 6, b, true);
  assert.ok(Math.abs(b[0]! - 4 / 16) < 1e-12);
});

test('DX_RASTERIZATION_KILL rasterizes nothing; VTE disables pass coordinates through', () => {
  const st = target({ extra: { PA_CL_CLIP_CNTL: makeReg(g, 'PA_CL_CLIP_CNTL', { DX_RASTERIZATION_KILL: 1 }) } });
  assert.equal(runFrontEnd(st, { indices: [0, 1, 2], positions: clipPos(st, [[1, 1], [9, 1], [1, 9]]) }).quads.length, 0);
  // VTE off, XY pre-divided (window coordinates straight from the shader), clipping disabled.
  const raw = target({
    w: 16, h: 16, extra: {
      PA_CL_VTE_CNTL: makeReg(g, 'PA_CL_VTE_CNTL', { VTX_XY_FMT: 1, VTX_Z_FMT: 1, VTX_W0_FMT: 1 }),
      PA_CL_CLIP_CNTL: makeReg(g, 'PA_CL_CLIP_CNTL', { CLIP_DISABLE: 1 }),
    },
  });
  const h = hitCounts(raw, { indices: [0, 1, 2, 1, 3, 2], positions: [2, 2, 0, 1, 6, 2, 0, 1, 2, 4, 0, 1, 6, 4, 0, 1] }, 16, 16);
  assert.equal(pixels(h), 8);
  assert.equal(h[2 * 16 + 2]![0], 1);
});
