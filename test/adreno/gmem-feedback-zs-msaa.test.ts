/**
 * Feedback loops beyond single-sample colour (issue 19). A depth input attachment: the FS samples the depth buffer the draw
 * writes (GfxScene fs.feedbackDepth). Sysmem reads the D24S8 image (FMT6_Z24_UNORM_S8_UINT); GMEM
 * reads the bin's depth buffer through turnip's patched descriptor (TILE6_2 at gmem_base + the
 * depth buffer's GMEM offset, PITCH bin width x 4). Two identical layers with a depth that varies
 * across the screen: the second reads what the first wrote, so the image is depth + 0.25 per
 * column — GMEM must equal sysmem at every bin size; NO_FLUSH in GMEM reads the cleared depth and
 * is adreno.gras.feedback-no-flush. A 4x MSAA colour target read per sample (isamm at the pixel
 * with the sample id, per-sample shading): GMEM (PITCH bin width x cpp x 4) must equal sysmem.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { a6xxSceneDescription, type A6xxGpu } from '../../src/runtime/draw-a6xx.js';
import { buildDraw, type GfxScene } from '../../src/adreno/driver/sysmem.js';
import { gmemDraw } from '../../src/adreno/driver/gmem.js';
import { gmemInfo } from '../../src/adreno/rb/gmem.js';
import { decodeFields, enumName } from '../../src/adreno/regs/db.js';
import { CommandProcessor } from '../../src/adreno/cp/cp.js';
import { Diagnostics } from '../../src/core/diagnostics.js';
import { consts, f32, FEEDBACK_FS, quad } from './feedback-fixtures.js';

const EXAMPLES = join(import.meta.dirname, '..', '..', '..', 'examples');
const ids = (d: Diagnostics): string[] => [...new Set(d.list.filter((x) => x.severity !== 'info').map((x) => x.id))];
const W = 48;

/** Quads whose z runs 0.2 (left) .. 0.8 (right); the FS samples the depth buffer (t#0) and adds c0.y to red. */
function scene(gpu: A6xxGpu, layers: number, mode?: string): GfxScene {
  const json = JSON.parse(readFileSync(join(EXAMPLES, 'feedback', 'scene.json'), 'utf8')) as Record<string, unknown>;
  const b = a6xxSceneDescription(json, join(EXAMPLES, 'feedback'), gpu);
  const verts = Array.from({ length: layers }, () => quad((x) => 0.5 + 0.3 * x)).flat();
  return {
    ...b, width: W, height: W,
    buffers: new Map([['vertices', f32(verts)]]),
    draws: [{ prim: 'DI_PT_TRILIST', count: verts.length / 8 }],
    depth: { format: 'DEPTH6_24_8', clear: 0.1 },
    state: { ...b.state, viewport: [0, 0, W, W], scissor: [0, 0, W, W], blend: [], depthFunc: 'FUNC_ALWAYS', depthWrite: true, ...(mode !== undefined ? { singlePrimMode: mode } : {}) },
    fs: { asm: FEEDBACK_FS, fullRegs: 3, outputs: [0], fragCoord: 8, consts: consts([1 / (16 * W), 0.25, 0, 0]), feedbackDepth: true, samplers: [{ linear: false, wrap: 'A6XX_TEX_CLAMP_TO_EDGE' }] },
  };
}

function run(d: GfxScene, bin?: { w: number; h: number }): { img: Uint8Array; diag: Diagnostics; base: number } {
  const b = buildDraw(d);
  const diag = new Diagnostics();
  const cp = new CommandProcessor(b.mem, { diag, gpuId: d.gpuId });
  let base = 0;
  if (bin) {
    const g = gmemDraw(b, d, { bin });
    base = g.layout.bases[b.targets.length]!;
    cp.run(g.streamIova, g.streamDwords);
  } else cp.run(b.streamIova, b.stream.length);
  const t = b.targets[0]!;
  const img = new Uint8Array(W * W * 4);
  for (let y = 0; y < W; y++) img.set(b.mem.readBytes(t.base + y * t.pitch, W * 4), y * W * 4);
  // The descriptor the FS read (GMEM: rewritten in place).
  const at = b.feedback!.descs[0]!.iova;
  if (bin) {
    const f = (k: number): Record<string, number> => decodeFields(`A6XX_TEX_CONST.${k}`, b.mem.read32(at + 4 * k), 0, 'a6xx');
    assert.equal(enumName('a6xx_tile_mode', f(0)['TILE_MODE']!, 'a6xx'), 'TILE6_2');
    assert.equal(enumName('a6xx_format', f(0)['FMT']!, 'a6xx'), 'FMT6_Z24_UNORM_S8_UINT');
    assert.equal(f(2)['PITCH'], bin.w * 4);
    assert.equal(f(5)['BASE_HI']! * 2 ** 32 + f(4)['BASE_LO']!, gmemInfo(d.gpuId).gmemVa + base);
  }
  return { img, diag, base };
}

const reds = (img: Uint8Array): number[] => [...new Set(Array.from({ length: W * W }, (_, p) => img[p * 4]!))].sort((a, c) => a - c);

test('depth feedback: GMEM (TILE6_2 depth buffer) = sysmem on a630 / a660 at several bin sizes; the second layer sees the first one\'s depth', () => {
  for (const gpu of ['a630', 'a660'] as A6xxGpu[]) {
    const sys = run(scene(gpu, 2));
    assert.deepEqual(ids(sys.diag), [], `${gpu} sysmem`);
    // Depth varies across the columns: many reds, all above the cleared depth's 0.35.
    const r = reds(sys.img);
    assert.ok(r.length > 10 && r[0]! > Math.round(0.35 * 255), `${gpu}: reds ${r.slice(0, 4)}..`);
    for (const bin of gpu === 'a630' ? [{ w: 32, h: 16 }, { w: 96, h: 48 }, { w: 32, h: 48 }] : [{ w: 96, h: 16 }, { w: 96, h: 48 }]) {
      const g = run(scene(gpu, 2), bin);
      assert.deepEqual(ids(g.diag), [], `${gpu} ${bin.w}x${bin.h}`);
      assert.deepEqual(g.img, sys.img, `${gpu} ${bin.w}x${bin.h}`);
    }
  }
});

test('depth feedback in GMEM with NO_FLUSH: the second layer reads the cleared depth (adreno.gras.feedback-no-flush)', () => {
  const g = run(scene('a630', 2, 'NO_FLUSH'), { w: 32, h: 16 });
  assert.deepEqual(ids(g.diag), ['adreno.gras.feedback-no-flush']);
  assert.deepEqual(reds(g.img), [Math.round((0.1 + 0.25) * 255)]);
});

// Per-sample shading at 4x: the FS reads its own sample of target 0 (isamm at the pixel, sample id)
// and adds 0.25 to red. Frag coord in r2.xy (1/16 pixel), sample id in hr6.x (r3.x, merged).
const FS_MS = `shr.b r1.x, r2.x, 4
shr.b r1.y, r2.y, 4
cov.u16u32 r1.z, hr6.x
isamm (f32)(xyzw)r0.x, r1.x, s#0, t#0
(sy)add.f r0.x, r0.x, c0.y
end
`;

function msScene(gpu: A6xxGpu, layers: number, mode?: string): GfxScene {
  const b = scene(gpu, layers, mode);
  const v = (x: number, y: number): number[] => [x, y, 0.5, 1, 0, 0, 0, 1];
  // A triangle and a full quad: partly covered pixels along the triangle's edges.
  const verts = [...v(-1, -1), ...v(0.9, -0.7), ...v(-0.6, 0.95), ...Array.from({ length: layers - 1 }, () => [...v(-1, -1), ...v(1, -1), ...v(-1, 1), ...v(-1, 1), ...v(1, -1), ...v(1, 1)]).flat()];
  const { depth: _d, ...rest } = b;
  return {
    ...rest, samples: 4,
    buffers: new Map([['vertices', f32(verts)]]),
    draws: [{ prim: 'DI_PT_TRILIST', count: verts.length / 8 }],
    state: { ...b.state, depthFunc: 'FUNC_ALWAYS' },
    fs: { asm: FS_MS, fullRegs: 4, halfRegs: 7, outputs: [0], fragCoord: 8, sampleId: 24, sampleShading: true, consts: consts([0, 0.25, 0, 0]), feedback: [0], samplers: [{ linear: false, wrap: 'A6XX_TEX_CLAMP_TO_EDGE' }] },
  };
}

function runMs(d: GfxScene, bin?: { w: number; h: number }): { img: Uint8Array; diag: Diagnostics } {
  const b = buildDraw(d);
  const diag = new Diagnostics();
  const cp = new CommandProcessor(b.mem, { diag, gpuId: d.gpuId });
  if (bin) {
    const g = gmemDraw(b, d, { bin });
    cp.run(g.streamIova, g.streamDwords);
    const f = (k: number): Record<string, number> => decodeFields(`A6XX_TEX_CONST.${k}`, b.mem.read32(b.feedback!.descs[0]!.iova + 4 * k), 0, 'a6xx');
    assert.equal(f(2)['PITCH'], bin.w * 4 * 4);
    assert.equal(enumName('a3xx_msaa_samples', f(0)['SAMPLES']!, 'a6xx'), 'MSAA_FOUR');
  } else cp.run(b.streamIova, b.stream.length);
  const t = b.targets[0]!;
  const img = new Uint8Array(W * W * 16);
  for (let y = 0; y < W; y++) img.set(b.mem.readBytes(t.base + y * t.pitch, W * 16), y * W * 16);
  return { img, diag };
}

test('4x MSAA colour feedback per sample (isamm, sample id): GMEM = sysmem at several bin sizes; layers add up per sample', () => {
  const sys = runMs(msScene('a630', 3));
  assert.deepEqual(ids(sys.diag), []);
  // Samples of partly covered pixels differ: the triangle's layer added a step only where it covered.
  // Each layer adds 0.25 to what its sample held (clear 0), stored as UNORM8: 2 or 3 steps.
  const step = (n: number): number => {
    let v = 0;
    for (let k = 0; k < n; k++) v = Math.round(Math.min(1, v / 255 + 0.25) * 255);
    return v;
  };
  const reds = new Set(Array.from({ length: W * W * 4 }, (_, k) => sys.img[k * 4]!));
  assert.deepEqual([...reds].sort((a, c) => a - c), [step(2), step(3)]);
  let partial = 0;
  for (let p = 0; p < W * W; p++) if (new Set([0, 1, 2, 3].map((s) => sys.img[p * 16 + s * 4])).size > 1) partial++;
  assert.ok(partial > 5, `${partial} pixels whose samples differ`);
  for (const bin of [{ w: 32, h: 16 }, { w: 96, h: 48 }, { w: 32, h: 48 }]) {
    const g = runMs(msScene('a630', 3), bin);
    assert.deepEqual(ids(g.diag), [], `${bin.w}x${bin.h}`);
    assert.deepEqual(g.img, sys.img, `${bin.w}x${bin.h}`);
  }
});
