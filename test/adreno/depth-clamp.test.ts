/**
 * a6xx depth clamp and depth clip control (gras/zclamp.ts, GRAS_CL_CNTL Z_CLAMP_ENABLE / ZNEAR /
 * ZFAR_CLIP_DISABLE, GRAS_CL_Z_CLAMP, RB_DEPTH_CNTL Z_CLAMP_ENABLE, RB_Z_CLAMP): the scene keys
 * `state.depthClamp` / `state.depthClip` render on a630 and a660 with the pixels and depths the
 * gfx1100 pipeline gives for the same scene (the AMD pipeline is the oracle: PA_CL_CLIP_CNTL
 * ZCLIP_*_DISABLE and the DB's viewport clamp), and the clamp diagnostics fire on their states and
 * stay quiet on the clean scenes.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { resolveTarget, runScene } from '../../src/runtime/draw-scene.js';
import { a6xxSceneDescription, type A6xxGpu } from '../../src/runtime/draw-a6xx.js';
import { CmdStream } from '../../src/adreno/cp/builder.js';
import { Diagnostics } from '../../src/core/diagnostics.js';
import { buildDraw } from '../../src/adreno/driver/sysmem.js';
import { gmemDraw } from '../../src/adreno/driver/gmem.js';
import { CommandProcessor } from '../../src/adreno/cp/cp.js';
import { tile6ConfigFor } from '../../src/adreno/ubwc/tile6.js';
import { runSceneStream } from './scene-run.js';

const DIR = join(import.meta.dirname, '..', '..', '..', 'examples', 'triangle');
const W = 32;
const ids = (d: Diagnostics): string[] => [...new Set(d.list.filter((x) => x.severity !== 'info').map((x) => x.id))];

/** The triangle example at 32x32 with a D32F buffer: one triangle from z = -0.5 (left) to 1.5 (right) at w = 1, so it crosses both depth planes. */
function scene(state: Record<string, unknown>): Record<string, unknown> {
  const s = JSON.parse(readFileSync(join(DIR, 'scene.json'), 'utf8')) as Record<string, unknown>;
  return {
    ...s, width: W, height: W,
    depth: { format: 'Z_32_FLOAT', clear: 1 },
    buffers: { vertices: { type: 'f32', values: [-0.9, -0.9, -0.5, 1, 1, 0, 0, 1, 0.9, -0.9, 1.5, 1, 0, 1, 0, 1, 0, 0.9, 0.5, 1, 0, 0, 1, 1] } },
    state: { depthFunc: 'FRAG_ALWAYS', ...state },
  };
}

/** Coverage (the colour differs from the clear, 0.1 grey) and depth per pixel on gfx1100 (linear Z_32_FLOAT) and on an a6xx GPU (the sysmem stream; linear D32F). */
interface Render { readonly covered: boolean[]; readonly z: Float32Array }
function amdRender(s: Record<string, unknown>): Render {
  const r = runScene(s, DIR, { gfx: 'gfx1100' });
  const img = resolveTarget(r, r.targets[0]!);
  const covered = Array.from({ length: W * W }, (_, p) => Math.abs(img[p * 4]! - 26 / 255) > 1e-3 || Math.abs(img[p * 4 + 2]! - 26 / 255) > 1e-3);
  return { covered, z: new Float32Array(r.mem.readBytes(r.depth!.va, W * W * 4).slice().buffer) };
}
function a6xxRender(s: Record<string, unknown>, gpu: A6xxGpu): Render & { diag: Diagnostics } {
  const { b, diag } = runSceneStream(a6xxSceneDescription(s, DIR, gpu));
  const z = new Float32Array(W * W);
  const covered: boolean[] = [];
  const t = b.targets[0]!;
  for (let y = 0; y < W; y++) {
    z.set(new Float32Array(b.mem.readBytes(b.depth!.base + y * b.depth!.pitch, W * 4).slice().buffer), y * W);
    for (let x = 0; x < W; x++) {
      const c = b.mem.readBytes(t.base + y * t.pitch + x * 4, 4);
      covered.push(c[0] !== 26 || c[2] !== 26);
    }
  }
  return { covered, z, diag };
}

for (const [name, state, covered] of [
  ['clipped (default)', {}, [150, 300]],
  ['depthClamp: not clipped, clamped to [0, 1]', { depthClamp: true }, [350, 450]],
  ['depthClamp + depthClip: clipped and clamped', { depthClamp: true, depthClip: true }, [150, 300]],
] as const) {
  test(`depth ${name}: a630 and a660 give gfx1100's covered pixels and depths`, () => {
    const s = scene(state);
    const ref = amdRender(s);
    const n = ref.covered.filter(Boolean).length;
    assert.ok(n >= covered[0] && n <= covered[1], `${name}: ${n} pixels covered on gfx1100`);
    if ('depthClamp' in state && !('depthClip' in state)) {
      // Not vacuous: the unclipped triangle has depths clamped at both ends of the range.
      assert.ok(ref.z.filter((z, p) => ref.covered[p] && z === 0).length > 20, 'depths clamped to 0');
      assert.ok(ref.z.filter((z, p) => ref.covered[p] && z === 1).length > 20, 'depths clamped to 1');
    }
    for (const gpu of ['a630', 'a660'] as const) {
      const r = a6xxRender(s, gpu);
      assert.deepEqual(ids(r.diag), [], `${gpu}: diagnostics`);
      let maxDiff = 0;
      for (let p = 0; p < W * W; p++) {
        assert.equal(r.covered[p], ref.covered[p], `${gpu} ${name}: pixel (${p % W}, ${Math.floor(p / W)}) covered`);
        if (ref.covered[p]) maxDiff = Math.max(maxDiff, Math.abs(r.z[p]! - ref.z[p]!));
      }
      // z changes by 2 / 28.8 per pixel across the triangle: the two pipelines snap (clipped)
      // vertices to 1/256 pixel in their own ways, so the planes may differ by one snap step.
      assert.ok(maxDiff <= 2 / 28.8 / 256, `${gpu} ${name}: max depth difference ${maxDiff}`);
    }
  });
}

test('depth clamp diagnostics: range MIN > MAX (GRAS, RB) and the two enables disagreeing; quiet when clean', () => {
  const d = a6xxSceneDescription(scene({ depthClamp: true }), DIR, 'a630');
  assert.deepEqual(ids(runSceneStream(d).diag), []);
  const draw = (cs: CmdStream): CmdStream => cs.drawAuto('DI_PT_TRILIST', 3);
  const f = (v: number): number => new Uint32Array(new Float32Array([v]).buffer)[0]!;
  assert.deepEqual(ids(runSceneStream(d, draw(new CmdStream().regs32('GRAS_CL_Z_CLAMP[0].MIN', [f(0.75), f(0.25)]))).diag), ['adreno.gras.z-clamp-range']);
  assert.deepEqual(ids(runSceneStream(d, draw(new CmdStream().regs32('RB_Z_CLAMP_MIN', [f(1), f(0)]))).diag), ['adreno.rb.z-clamp-range']);
  assert.deepEqual(ids(runSceneStream(d, draw(new CmdStream().reg('RB_DEPTH_CNTL', { Z_TEST_ENABLE: true, Z_WRITE_ENABLE: true, ZFUNC: 'FUNC_ALWAYS' }))).diag), ['adreno.rb.z-clamp-mismatch']);
  // A narrower clamp range moves every written depth into it (the GRAS clamp; the RB's is [0, 1]).
  const { b } = runSceneStream(d, draw(new CmdStream().regs32('GRAS_CL_Z_CLAMP[0].MIN', [f(0.25), f(0.75)])));
  const z = new Float32Array(W * W);
  for (let y = 0; y < W; y++) z.set(new Float32Array(b.mem.readBytes(b.depth!.base + y * b.depth!.pitch, W * 4).slice().buffer), y * W);
  const written = [...z].filter((v) => v !== 1);
  assert.ok(written.length > 350 && written.every((v) => v >= 0.25 && v <= 0.75) && written.includes(0.25) && written.includes(0.75), `GRAS clamp range: ${Math.min(...written)}..${Math.max(...written)}`);
});

test('depth clamp order: the polygon offset before the GRAS clamp; the RB clamp on its own range; GMEM as sysmem', () => {
  const f = (v: number): number => new Uint32Array(new Float32Array([v]).buffer)[0]!;
  const depthOf = (b: { mem: { readBytes(a: number, n: number): Uint8Array }; depth?: { base: number; pitch: number } }): Float32Array => {
    const z = new Float32Array(W * W);
    for (let y = 0; y < W; y++) z.set(new Float32Array(b.mem.readBytes(b.depth!.base + y * b.depth!.pitch, W * 4).slice().buffer), y * W);
    return z;
  };
  // A flat rectangle at z = 0.7 with a constant bias of 2^20 units (D32F at z in [0.5, 1): r = 2^-24, so +1/16),
  // GRAS range [0, 0.75]: bias then clamp gives 0.75 (clamp then bias would give 0.7625).
  const s = scene({ depthClamp: true });
  const rect = [-1, -1, 0.7, 1, 1, 1, 1, 1, 1, -1, 0.7, 1, 1, 1, 1, 1, -1, 1, 0.7, 1, 1, 1, 1, 1];
  const flat = { ...s, buffers: { vertices: { type: 'f32', values: rect } } };
  const d0 = a6xxSceneDescription(flat, DIR, 'a630');
  const d = { ...d0, state: { ...d0.state, depthBias: { constant: 2 ** 20, slope: 0 } } };
  const biased = runSceneStream(d, new CmdStream().regs32('GRAS_CL_Z_CLAMP[0].MIN', [f(0), f(0.75)]).drawAuto('DI_PT_TRILIST', 3));
  assert.deepEqual(ids(biased.diag), []);
  const zb = [...depthOf(biased.b)].filter((v) => v !== 1);
  assert.ok(zb.length > 300 && zb.every((v) => v === 0.75), `bias then clamp: ${Math.min(...zb)}..${Math.max(...zb)}`);
  // Without the narrower range the bias shows: 0.7 + 1/16.
  const plain = runSceneStream(d);
  const zp = [...depthOf(plain.b)].filter((v) => v !== 1);
  assert.ok(zp.length > 300 && zp.every((v) => Math.abs(v - (0.7 + 1 / 16)) < 1e-6), `biased depth ${zp[0]}`);
  // The RB range alone (RB_Z_CLAMP [0.25, 0.5]) clamps the interpolated z of the slanted triangle.
  const rb = runSceneStream(a6xxSceneDescription(s, DIR, 'a630'), new CmdStream().regs32('RB_Z_CLAMP_MIN', [f(0.25), f(0.5)]).drawAuto('DI_PT_TRILIST', 3));
  const zr = [...depthOf(rb.b)].filter((v) => v !== 1);
  assert.ok(zr.length > 300 && zr.every((v) => v >= 0.25 && v <= 0.5) && zr.includes(0.25) && zr.includes(0.5), `RB range: ${Math.min(...zr)}..${Math.max(...zr)}`);
  // GMEM (32x16 bins, binning) leaves the sysmem depths.
  for (const gpu of ['a630', 'a660'] as const) {
    const dd = a6xxSceneDescription(s, DIR, gpu);
    const sys = runSceneStream(dd);
    const b = buildDraw(dd);
    const g = gmemDraw(b, dd, { bin: { w: 32, h: 16 } });
    const diag = new Diagnostics();
    new CommandProcessor(b.mem, { diag, gpuId: gpu === 'a630' ? 630 : 660, tile6: tile6ConfigFor(gpu) }).run(g.streamIova, g.streamDwords);
    assert.deepEqual(ids(diag), [], `${gpu} GMEM`);
    assert.deepEqual(depthOf(b), depthOf(sys.b), `${gpu}: GMEM depths`);
  }
});
