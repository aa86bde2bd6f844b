/**
 * MIMG from pixel shaders: image_sample (nearest and bilinear, clamp and repeat) against a
 * reference sampler written here, image_load / image_store at the pixel position, and scene images
 * with levels and layers, with T#/S# descriptors packed in each generation's layout by the scene
 * builder (gfx1100, and gfx1030/gfx900 through the hardware VS).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runScene, type SceneResult } from '../../src/runtime/draw-scene.js';
import { f32 } from '../../src/core/float.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const VS = readFileSync(join(ROOT, 'examples/triangle/vs.s'), 'utf8').split('\n');
const W = 16;
const TEX = [0.0, 1.0, 0.25, 0.5, 0.75, 0.125, 1.0, 0.0, 0.5, 0.5, 0.0, 0.875, 0.375, 0.625, 0.25, 1.0];

function quadScene(ps: string[], psExtra: Record<string, unknown>, userData: unknown[]): Record<string, unknown> {
  // Full-screen quad; attribute 0 = (u, v) from 0 to 1.
  const c = [[-1, -1, 0, 0], [1, -1, 1, 0], [1, 1, 1, 1], [-1, -1, 0, 0], [1, 1, 1, 1], [-1, 1, 0, 1]];
  const values: number[] = [];
  for (const [x, y, u, v] of c) values.push(x!, y!, 0.5, 1, u!, v!, 0, 1);
  return {
    width: W, height: W, targets: [{ format: 'R32_FLOAT' }],
    buffers: { vertices: { type: 'f32', values }, tex: { type: 'f32', values: TEX }, out: { type: 'f32', values: new Array<number>(W * W).fill(-1) } },
    shaders: { vs: { source: VS }, ps: { source: ps } },
    vs: { shader: 'vs', wave: 32, vgprs: 24, userData: [{ buffer: 'vertices', stride: 32, format: '32_32_32_32_FLOAT' }, { attrRing: true }] },
    ps: { shader: 'ps', wave: 32, vgprs: 16, inputs: [{ offset: 0 }], exportFormat: ['SPI_SHADER_32_R'], userData, ...psExtra },
    draws: [{ topology: 'DI_PT_TRILIST', count: 6 }],
  };
}

/** Whole quad mode first: the interpolation reads across the quad and image_sample's LOD comes from it. */
const SAMPLE_PS = [
  's_wqm_b32 exec_lo, exec_lo',
  's_mov_b32 m0, s12',
  'lds_param_load v2, attr0.x',
  'lds_param_load v3, attr0.y',
  's_waitcnt expcnt(0)',
  'v_interp_p10_f32 v6, v2, v0, v2',
  'v_interp_p10_f32 v7, v3, v0, v3',
  'v_interp_p2_f32 v6, v2, v1, v6',
  'v_interp_p2_f32 v7, v3, v1, v7',
  'image_sample v10, v[6:7], s[0:7], s[8:11] dmask:0x1 dim:SQ_RSRC_IMG_2D',
  's_waitcnt vmcnt(0)',
  'exp mrt0 v10, off, off, off done',
  's_endpgm',
];

function clean(r: SceneResult): void {
  assert.deepEqual(r.diag.list.filter((d) => d.severity !== 'info').map((d) => `${d.id}: ${d.message}`), []);
}
const px = (r: SceneResult, x: number, y: number): number => f32(r.mem.read32(r.targets[0]!.va + (y * W + x) * 4));

function refSample(u: number, v: number, linear: boolean, wrap: 'clamp' | 'repeat'): number {
  const tx = (x: number, y: number): number => {
    const f = (i: number): number => (wrap === 'clamp' ? Math.min(3, Math.max(0, i)) : ((i % 4) + 4) % 4);
    return TEX[f(y) * 4 + f(x)]!;
  };
  const fu = u * 4, fv = v * 4;
  if (!linear) return tx(Math.floor(fu), Math.floor(fv));
  const x0 = Math.floor(fu - 0.5), y0 = Math.floor(fv - 0.5);
  const a = fu - 0.5 - x0, b = fv - 0.5 - y0;
  return (1 - a) * (1 - b) * tx(x0, y0) + a * (1 - b) * tx(x0 + 1, y0) + (1 - a) * b * tx(x0, y0 + 1) + a * b * tx(x0 + 1, y0 + 1);
}

for (const filter of ['nearest', 'linear'] as const) {
  for (const wrap of ['clamp', 'repeat'] as const) {
    test(`image_sample ${filter} ${wrap}: every pixel matches the reference sampler within 1e-5`, () => {
      const r = runScene(quadScene(SAMPLE_PS, {}, [{ image: 'tex', width: 4, height: 4, format: '32_FLOAT' }, { sampler: { filter, wrap } }]));
      clean(r);
      for (let y = 0; y < W; y++) for (let x = 0; x < W; x++) {
        const want = refSample((x + 0.5) / W, (y + 0.5) / W, filter === 'linear', wrap);
        assert.ok(Math.abs(px(r, x, y) - want) <= 1e-5, `(${x}, ${y}): ${px(r, x, y)} vs ${want}`);
      }
    });
  }
}

// image_load of 'tex' at (x/4, y/4) + 1 stored into 'out' at (x, y) and exported, on all three
// generations (gfx1030 takes dim:, gfx900's T# TYPE says 2D; the legacy exports carry vm).
const loadStorePs = (dim: string, done: string): string[] => [
  'v_cvt_u32_f32 v4, v2',
  'v_cvt_u32_f32 v5, v3',
  'v_lshrrev_b32 v4, 2, v4',
  'v_lshrrev_b32 v5, 2, v5',
  `image_load v6, v[4:5], s[0:7] dmask:0x1${dim}`,
  's_waitcnt vmcnt(0)',
  'v_add_f32 v6, 1.0, v6',
  'v_cvt_u32_f32 v4, v2',
  'v_cvt_u32_f32 v5, v3',
  `image_store v6, v[4:5], s[8:15] dmask:0x1${dim}`,
  `exp mrt0 v6, off, off, off ${done}`,
  's_endpgm',
];

for (const [gfx, dim, done] of [['gfx1100', ' dim:SQ_RSRC_IMG_2D', 'done'], ['gfx1030', ' dim:SQ_RSRC_IMG_2D', 'done vm'], ['gfx900', '', 'done vm']] as const) {
  test(`${gfx} image_load / image_store at the pixel position (POS_X/Y_FLOAT inputs)`, () => {
    const ps = loadStorePs(dim, done);
    const s = quadScene(ps, { inputEna: ['PERSP_CENTER', 'POS_X_FLOAT', 'POS_Y_FLOAT'], ...(gfx === 'gfx1100' ? {} : { wave: 64 }) }, [
      { image: 'tex', width: 4, height: 4, format: '32_FLOAT' }, { image: 'out', width: W, height: W, format: '32_FLOAT' },
    ]);
    if (gfx !== 'gfx1100') {
      s.gfx = gfx;
      s.shaders = { vs: { source: VS_LEGACY }, ps: { source: ps } };
      s.vs = { shader: 'vs', wave: 64, vgprs: 16, userData: [{ address: 'vertices' }] };
    }
    const r = runScene(s);
    clean(r);
    for (let y = 0; y < W; y++) for (let x = 0; x < W; x++) {
      const want = TEX[(y >> 2) * 4 + (x >> 2)]! + 1;
      assert.equal(px(r, x, y), want, `colour (${x}, ${y})`);
    }
    // The scene made 'out' a linear image: rows 256 bytes (64 texels) apart on every generation.
    const out = r.images.get('out')!;
    assert.equal(out.layout.levels[0]!.pitch, 64);
    for (let y = 0; y < W; y++) for (let x = 0; x < W; x++) assert.equal(f32(r.mem.read32(out.va + (y * 64 + x) * 4)), TEX[(y >> 2) * 4 + (x >> 2)]! + 1, `stored (${x}, ${y})`);
  });
}

// The same sampled quad on the legacy pipelines: hardware VS (examples/triangle/vs-legacy.s passes
// (u, v, 0, 1) as parameter 0), v_interp_* in the PS, and the scene's T#/S# packed in the target's
// own layouts (GFX10.3's; GFX9's with WIDTH/PITCH and no dim field in the instruction).
const VS_LEGACY = readFileSync(join(ROOT, 'examples/triangle/vs-legacy.s'), 'utf8').split('\n');
const legacyPs = (dim: string): string[] => [
  's_wqm_b64 exec, exec',
  's_mov_b32 m0, s12',
  'v_interp_p1_f32 v2, v0, attr0.x',
  'v_interp_p1_f32 v3, v0, attr0.y',
  'v_interp_p2_f32 v2, v1, attr0.x',
  'v_interp_p2_f32 v3, v1, attr0.y',
  `image_sample v10, v[2:3], s[0:7], s[8:11] dmask:0x1${dim}`,
  's_waitcnt vmcnt(0)',
  'exp mrt0 v10, off, off, off done vm',
  's_endpgm',
];

for (const [gfx, dim] of [['gfx1030', ' dim:SQ_RSRC_IMG_2D'], ['gfx900', '']] as const) {
  for (const filter of ['nearest', 'linear'] as const) {
    test(`${gfx} draw: image_sample ${filter} in the PS matches the reference sampler within 1e-5`, () => {
      const s = quadScene(legacyPs(dim), { inputEna: ['PERSP_CENTER'], wave: 64 }, [{ image: 'tex', width: 4, height: 4, format: '32_FLOAT' }, { sampler: { filter, wrap: 'clamp' } }]);
      s.gfx = gfx;
      s.shaders = { vs: { source: VS_LEGACY }, ps: { source: legacyPs(dim) } };
      s.vs = { shader: 'vs', wave: 64, vgprs: 16, userData: [{ address: 'vertices' }] };
      const r = runScene(s);
      clean(r);
      for (let y = 0; y < W; y++) for (let x = 0; x < W; x++) {
        const want = refSample((x + 0.5) / W, (y + 0.5) / W, filter === 'linear', 'clamp');
        assert.ok(Math.abs(px(r, x, y) - want) <= 1e-5, `(${x}, ${y}): ${px(r, x, y)} vs ${want}`);
      }
    });
  }
}

// Scene images with levels and layers on all three generations: the scene copies the buffer's
// tightly packed texels (layer by layer, level 0 first) into the generation's linear layout, and
// the PS reads level 1 of layer 1 with image_sample_l. 5x3 R32, 2 levels (5x3, 2x1), 2 layers;
// texel value layer * 1000 + level * 100 + y * 10 + x.
const MIP_VALUES: number[] = [];
for (let s = 0; s < 2; s++) for (const [i, w, h] of [[0, 5, 3], [1, 2, 1]] as const) for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) MIP_VALUES.push(s * 1000 + i * 100 + y * 10 + x);
const LOD1_LAYER1 = ['v_mov_b32 v4, 1.0', 'v_mov_b32 v5, 1.0'];
const mipPs = (gfx: string): string[] => gfx === 'gfx1100'
  ? [...SAMPLE_PS.slice(0, 9), 'v_mov_b32 v8, 1.0', 'v_mov_b32 v9, 1.0', 'image_sample_l v10, v[6:9], s[0:7], s[8:11] dmask:0x1 dim:SQ_RSRC_IMG_2D_ARRAY', ...SAMPLE_PS.slice(10)]
  : [...legacyPs('').slice(0, 6), ...LOD1_LAYER1, `image_sample_l v10, v[2:5], s[0:7], s[8:11] dmask:0x1${gfx === 'gfx900' ? ' da' : ' dim:SQ_RSRC_IMG_2D_ARRAY'}`, ...legacyPs('').slice(7)];

for (const gfx of ['gfx1100', 'gfx1030', 'gfx900'] as const) {
  test(`${gfx} draw: a scene image with levels and layers is laid out as the generation's addrlib does (image_sample_l reads level 1 of layer 1)`, () => {
    const s = quadScene(mipPs(gfx), gfx === 'gfx1100' ? {} : { inputEna: ['PERSP_CENTER'], wave: 64 }, [{ image: 'mip', width: 5, height: 3, levels: 2, layers: 2, format: '32_FLOAT' }, { sampler: { filter: 'nearest', wrap: 'clamp', mip: 'nearest' } }]);
    (s.buffers as Record<string, unknown>).mip = { type: 'f32', values: MIP_VALUES };
    if (gfx !== 'gfx1100') {
      s.gfx = gfx;
      s.shaders = { vs: { source: VS_LEGACY }, ps: { source: mipPs(gfx) } };
      s.vs = { shader: 'vs', wave: 64, vgprs: 16, userData: [{ address: 'vertices' }] };
    }
    const r = runScene(s);
    clean(r);
    for (let y = 0; y < W; y++) for (let x = 0; x < W; x++) assert.equal(px(r, x, y), 1100 + (x < W / 2 ? 0 : 1), `(${x}, ${y})`);
    // The surface: rows of 256 bytes; GFX9 stacks level 1 under level 0 (row 3) in a 5-row slice,
    // GFX10.3/GFX11 put level 1 first (offset 0) and level 0 at 256 in a 1024-byte slice.
    const im = r.images.get('mip')!;
    const [l1, slice] = gfx === 'gfx900' ? [3 * 256, 5 * 256] : [0, 256 + 3 * 256];
    assert.equal(r.mem.readF32(im.va + slice + l1 + 4), 1101);
    assert.equal(r.mem.readF32(im.va + slice + (gfx === 'gfx900' ? 0 : 256) + 2 * 256 + 4 * 4), 1024);
  });
}
