/**
 * A depth input attachment in a feedback loop (issue 19): the FS samples the depth buffer the draw
 * writes (GfxScene fs.feedbackDepth). Sysmem reads the D24S8 image (FMT6_Z24_UNORM_S8_UINT); GMEM
 * reads the bin's depth buffer through turnip's patched descriptor (TILE6_2 at gmem_base + the
 * depth buffer's GMEM offset, PITCH bin width x 4). Two identical layers with a depth that varies
 * across the screen: the second reads what the first wrote, so the image is depth + 0.25 per
 * column — GMEM must equal sysmem at every bin size; NO_FLUSH in GMEM reads the cleared depth and
 * is adreno.gras.feedback-no-flush.
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

const EXAMPLES = join(import.meta.dirname, '..', '..', '..', 'examples');
const ids = (d: Diagnostics): string[] => [...new Set(d.list.filter((x) => x.severity !== 'info').map((x) => x.id))];
const W = 48;
const f32 = (a: number[]): Uint8Array => new Uint8Array(new Float32Array(a).buffer);
const consts = (a: number[]): Uint32Array => new Uint32Array(new Float32Array(a).buffer);
// z runs 0.2 (left) .. 0.8 (right).
const quad = (): number[] => {
  const v = (x: number, y: number): number[] => [x, y, 0.5 + 0.3 * x, 1, 0, 0, 0, 1];
  return [...v(-1, -1), ...v(1, -1), ...v(-1, 1), ...v(-1, 1), ...v(1, -1), ...v(1, 1)];
};
// Frag coord (1/16 pixel) x c0.x -> normalized coordinate; sample the depth (t#0); add c0.y to red.
const FS = `cov.u32f32 r1.x, r2.x
cov.u32f32 r1.y, r2.y
mul.f r1.x, r1.x, c0.x
mul.f r1.y, r1.y, c0.x
sam (f32)(xyzw)r0.x, r1.x, s#0, t#0
(sy)add.f r0.x, r0.x, c0.y
end
`;

function scene(gpu: A6xxGpu, layers: number, mode?: string): GfxScene {
  const json = JSON.parse(readFileSync(join(EXAMPLES, 'feedback', 'scene.json'), 'utf8')) as Record<string, unknown>;
  const b = a6xxSceneDescription(json, join(EXAMPLES, 'feedback'), gpu);
  const verts = Array.from({ length: layers }, quad).flat();
  return {
    ...b, width: W, height: W,
    buffers: new Map([['vertices', f32(verts)]]),
    draws: [{ prim: 'DI_PT_TRILIST', count: verts.length / 8 }],
    depth: { format: 'DEPTH6_24_8', clear: 0.1 },
    state: { ...b.state, viewport: [0, 0, W, W], scissor: [0, 0, W, W], blend: [], depthFunc: 'FUNC_ALWAYS', depthWrite: true, ...(mode !== undefined ? { singlePrimMode: mode } : {}) },
    fs: { asm: FS, fullRegs: 3, outputs: [0], fragCoord: 8, consts: consts([1 / (16 * W), 0.25, 0, 0]), feedbackDepth: true, samplers: [{ linear: false, wrap: 'A6XX_TEX_CLAMP_TO_EDGE' }] },
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
