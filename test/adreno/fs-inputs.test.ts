/**
 * What HLSQ preloads into the a6xx FS (sp/graphics.ts, cp/handlers-gfx.ts, driver/sysmem.ts):
 * frag coord (x, y in 1/16 pixel, z, 1/w), front-facing (a half register, 0 front / -1 back),
 * sample id and coverage mask, i/j at the centroid, per-sample shading. Expected pixels come from
 * the scene's geometry by hand (window coordinates, orientation, barycentrics at the standard
 * sample positions), not from the rasterizer under test; the diagnostics of inconsistent FS input
 * state fire on it and stay quiet on clean scenes.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { a6xxSceneDescription } from '../../src/runtime/draw-a6xx.js';
import { buildDraw, type GfxScene } from '../../src/adreno/driver/sysmem.js';
import { CommandProcessor } from '../../src/adreno/cp/cp.js';
import { CmdStream } from '../../src/adreno/cp/builder.js';
import { Diagnostics } from '../../src/core/diagnostics.js';
import { runSceneStream } from './scene-run.js';

const EXAMPLES = join(import.meta.dirname, '..', '..', '..', 'examples');
const triangle = (): GfxScene => a6xxSceneDescription(JSON.parse(readFileSync(join(EXAMPLES, 'triangle', 'scene.json'), 'utf8')) as Record<string, unknown>, join(EXAMPLES, 'triangle'), 'a630');
const f32 = (a: number[]): Uint8Array => new Uint8Array(new Float32Array(a).buffer);
const consts = (a: number[]): Uint32Array => new Uint32Array(new Float32Array(a).buffer);
const ids = (d: Diagnostics): string[] => [...new Set(d.list.filter((x) => x.severity !== 'info').map((x) => x.id))];

/** A 16x16 scene (position xyzw + colour rgba per vertex) with the given FS and sample count. */
function scene(fs: Partial<GfxScene['fs']>, verts?: number[], samples: 1 | 2 | 4 = 1): GfxScene {
  const b = triangle();
  return {
    ...b, width: 16, height: 16, samples,
    ...(verts ? { buffers: new Map([['vertices', f32(verts)]]), draws: [{ prim: 'DI_PT_TRILIST', count: verts.length / 8 }] } : {}),
    state: { ...b.state, viewport: [0, 0, 16, 16], scissor: [0, 0, 16, 16], blend: [] },
    fs: { ...b.fs, ...fs },
  };
}
/** Render; read RGBA8 sample s of a pixel as 0..255. */
function render(d: GfxScene, after?: CmdStream): { px: (x: number, y: number, s?: number) => number[]; diag: Diagnostics } {
  const { b, diag } = runSceneStream(d, after);
  const t = b.targets[0]!;
  return { px: (x, y, s = 0) => Array.from(b.mem.readBytes(t.base + y * t.pitch + (x * d.samples + s) * 4, 4)), diag };
}
const u8 = (v: number): number => Math.round(Math.min(1, Math.max(0, v)) * 255);

test('frag coord: x, y arrive in 1/16 pixel at the centre (x * 16 + 8), z and 1/w as floats', () => {
  // Window z = NDC z (viewport depth 0..1, ZERO_GB_SCALE_Z); w = 2 on every vertex so 1/w = 0.5.
  const v = (x: number, y: number): number[] => [2 * x, 2 * y, 2 * 0.25, 2, 1, 1, 1, 1];
  const verts = [...v(-1, -1), ...v(1, -1), ...v(-1, 1), ...v(-1, 1), ...v(1, -1), ...v(1, 1)];
  const fs = `cov.u32f32 r1.x, r2.x
cov.u32f32 r1.y, r2.y
mul.f r1.x, r1.x, c0.x
mul.f r1.y, r1.y, c0.x
mov.f32f32 r1.z, r3.x
mov.f32f32 r1.w, r3.y
end
`;
  const r = render(scene({ asm: fs, fullRegs: 4, fragCoord: 8, fragCoordZw: 12, consts: consts([1 / 256, 0, 0, 0]) }, verts));
  assert.deepEqual(ids(r.diag), []);
  for (let y = 0; y < 16; y++)
    for (let x = 0; x < 16; x++) assert.deepEqual(r.px(x, y), [u8((x + 0.5) / 16), u8((y + 0.5) / 16), u8(0.25), u8(0.5)], `pixel ${x},${y}`);
});

test('front-facing: hr preloaded 0 on front faces, -1 on back faces (FRONT_CW off: counter-clockwise on screen is front)', () => {
  // Left half: (0,0) (8,0) (0,16) on screen; right half: (8,0) (16,16) (16,0).
  const v = (x: number, y: number): number[] => [x, y, 0.5, 1, 0, 0, 0, 1];
  const left = [v(-1, -1), v(0, -1), v(-1, 1)];
  const right = [v(0, -1), v(1, 1), v(1, -1)];
  // Orientation by hand: twice the signed area in window space (y down); negative = counter-clockwise.
  const win = (p: number[]): [number, number] => [(p[0]! + 1) * 8, (p[1]! + 1) * 8];
  const area2 = (t: number[][]): number => {
    const [a, b, c] = t.map(win) as [[number, number], [number, number], [number, number]];
    return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]);
  };
  const front = { left: area2(left) < 0, right: area2(right) < 0 };
  assert.notEqual(front.left, front.right);
  // red = 1 + (-1 or 0) = 0 back, 1 front; green 1.
  const fs = `cov.s16f32 r1.x, hr4.x
add.f r1.x, r1.x, c0.x
mov.f32f32 r1.y, c0.x
mov.f32f32 r1.z, c0.y
mov.f32f32 r1.w, c0.x
end
`;
  const r = render(scene({ asm: fs, fullRegs: 3, halfRegs: 5, face: 16, consts: consts([1, 0, 0, 0]) }, [...left.flat(), ...right.flat()]));
  assert.deepEqual(ids(r.diag), []);
  let n = 0;
  for (let y = 0; y < 16; y++)
    for (let x = 0; x < 16; x++) {
      // Pixel centres strictly inside one triangle: left of the left triangle's hypotenuse x + y/2 < 8.
      const cx = x + 0.5, cy = y + 0.5;
      const inLeft = cx < 8 && cx + cy / 2 < 8 - 1e-9;
      const inRight = cx > 8 && (cx - 8) * 2 > cy + 1e-9;
      if (!inLeft && !inRight) continue;
      n++;
      assert.deepEqual(r.px(x, y), [(inLeft ? front.left : front.right) ? 255 : 0, 255, 0, 255], `pixel ${x},${y}`);
    }
  assert.ok(n > 60, `${n} pixels`);
});

const SAMPLES4: readonly [number, number][] = [[-2 / 16, -6 / 16], [6 / 16, -2 / 16], [-6 / 16, 2 / 16], [2 / 16, 6 / 16]];

test('per-sample shading at 4x: every sample runs the FS with its sample id and a one-bit coverage mask', () => {
  // red = id / 4, green = mask / 16 (mask as an integer), full-screen quad: every sample covered.
  const v = (x: number, y: number): number[] => [x, y, 0.5, 1, 0, 0, 0, 1];
  const verts = [...v(-1, -1), ...v(1, -1), ...v(-1, 1), ...v(-1, 1), ...v(1, -1), ...v(1, 1)];
  const fs = `cov.u16f32 r1.x, hr6.x
cov.u32f32 r1.y, r2.x
mul.f r1.x, r1.x, c0.x
mul.f r1.y, r1.y, c0.y
mov.f32f32 r1.z, c0.z
mov.f32f32 r1.w, c0.w
end
`;
  // hr6.x lives in r3.x (merged registers), clear of the mask in r2.x.
  const base = { asm: fs, fullRegs: 4, halfRegs: 7, sampleId: 24, sampleMask: 8, consts: consts([1 / 4, 1 / 16, 0, 1]) };
  const per = render(scene({ ...base, sampleShading: true }, verts, 4));
  assert.deepEqual(ids(per.diag), []);
  const pix = render(scene(base, verts, 4));
  assert.deepEqual(ids(pix.diag), []);
  for (const [x, y] of [[0, 0], [5, 9], [15, 15]] as const)
    for (let s = 0; s < 4; s++) {
      assert.deepEqual(per.px(x, y, s), [u8(s / 4), u8((1 << s) / 16), 0, 255], `per-sample ${x},${y} sample ${s}`);
      // Pixel rate: one invocation, sample id 0, the pixel's whole coverage.
      assert.deepEqual(pix.px(x, y, s), [0, u8(15 / 16), 0, 255], `per-pixel ${x},${y} sample ${s}`);
    }
});

test('coverage mask at pixel rate on edges: exactly the samples the FS result was written to', () => {
  const fs = `cov.u32f32 r1.y, r2.x
mul.f r1.y, r1.y, c0.y
mov.f32f32 r1.x, c0.z
mov.f32f32 r1.z, c0.z
mov.f32f32 r1.w, c0.w
end
`;
  const r = render(scene({ asm: fs, fullRegs: 3, sampleMask: 8, consts: consts([0, 1 / 16, 0, 1]) }, undefined, 4));
  assert.deepEqual(ids(r.diag), []);
  const clear = r.px(0, 0, 0);
  let partial = 0;
  for (let y = 0; y < 16; y++)
    for (let x = 0; x < 16; x++) {
      let written = 0;
      for (let s = 0; s < 4; s++) if (r.px(x, y, s).join() !== clear.join()) written |= 1 << s;
      if (!written) continue;
      if (written !== 15) partial++;
      for (let s = 0; s < 4; s++) if ((written >> s) & 1) assert.equal(r.px(x, y, s)[1], u8(written / 16), `pixel ${x},${y}`);
    }
  assert.ok(partial > 5, `${partial} partly covered pixels`);
});

/** Barycentric weights (of v1, v2) of point p in the triangle v0 v1 v2, by areas. */
function bary(v: readonly (readonly [number, number])[], p: readonly [number, number]): [number, number] {
  const area = (a: readonly [number, number], b: readonly [number, number], c: readonly [number, number]): number => (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]);
  const A = area(v[0]!, v[1]!, v[2]!);
  return [area(v[0]!, p, v[2]!) / A, area(v[0]!, v[1]!, p) / A];
}

test('centroid i/j: the centre on fully covered pixels, the first covered sample on partly covered ones', () => {
  // Window vertices on the 1/256 grid (no snapping): NDC = window / 8 - 1 on the 16-pixel viewport.
  const win: [number, number][] = [[2, 14], [14, 13], [7, 1]];
  const verts = win.flatMap(([x, y]) => [x / 8 - 1, y / 8 - 1, 0.5, 1, 0, 0, 0, 1]);
  // w = 1: perspective and linear weights agree. Out: r, g = i, j at the centroid; b, a = i, j at the centre.
  const fs = `mov.f32f32 r1.x, r2.x
mov.f32f32 r1.y, r2.y
mov.f32f32 r1.z, r0.x
mov.f32f32 r1.w, r0.y
end
`;
  const d = scene({ asm: fs, fullRegs: 3, outputs: [4], ijPerspCentroid: 8 }, verts, 4);
  const b = buildDraw({ ...d, targets: [{ format: 'FMT6_32_32_32_32_FLOAT', clear: [-9, -9, -9, -9] }] });
  const diag = new Diagnostics();
  new CommandProcessor(b.mem, { diag, gpuId: d.gpuId }).run(b.streamIova, b.stream.length);
  assert.deepEqual(ids(diag), []);
  const t = b.targets[0]!;
  const px = (x: number, y: number, s: number): number[] => Array.from(new Float32Array(b.mem.readBytes(t.base + y * t.pitch + (x * 4 + s) * 16, 16).slice().buffer));
  let partial = 0, full = 0;
  for (let y = 0; y < 16; y++)
    for (let x = 0; x < 16; x++) {
      let m = 0;
      for (let s = 0; s < 4; s++) if (px(x, y, s)[0] !== -9) m |= 1 << s;
      if (!m) continue;
      const first = 31 - Math.clz32(m & -m);
      const want = m === 15 ? bary(win, [x + 0.5, y + 0.5]) : bary(win, [x + 0.5 + SAMPLES4[first]![0], y + 0.5 + SAMPLES4[first]![1]]);
      const centre = bary(win, [x + 0.5, y + 0.5]);
      const got = px(x, y, first);
      for (let c = 0; c < 2; c++) {
        assert.ok(Math.abs(got[c]! - want[c]!) < 1e-5, `pixel ${x},${y} (mask ${m}) centroid ${got.slice(0, 2)} vs ${want}`);
        assert.ok(Math.abs(got[c + 2]! - centre[c]!) < 1e-5, `pixel ${x},${y} centre ${got.slice(2)} vs ${centre}`);
      }
      // The centroid lies in the triangle; on partly covered pixels the centre may not.
      assert.ok(want[0] >= -1e-9 && want[1] >= -1e-9 && want[0] + want[1] <= 1 + 1e-9, `pixel ${x},${y} centroid inside`);
      if (m === 15) full++;
      else partial++;
    }
  assert.ok(partial > 10 && full > 20, `${partial} partial, ${full} full pixels`);
});

test('FS input diagnostics: quiet on a clean scene, each fires on its inconsistent state', () => {
  const d = scene({});
  assert.deepEqual(ids(render(d).diag), []);
  const draw = (cs: CmdStream): CmdStream => cs.drawAuto('DI_PT_TRILIST', 3);
  // A sysval register named without its enable: not loaded.
  assert.deepEqual(ids(render(d, draw(new CmdStream().reg('HLSQ_CONTROL_2_REG', { FACEREGID: 16, SAMPLEID: 0xfc, SAMPLEMASK: 0xfc, CENTERRHW: 0xfc }))).diag), ['adreno.sp.sysval-not-enabled']);
  // ... and with it, quiet (a half register inside HALFREGFOOTPRINT would be needed: here beyond it).
  assert.deepEqual(ids(render(d, draw(new CmdStream().reg('HLSQ_CONTROL_2_REG', { FACEREGID: 16, SAMPLEID: 0xfc, SAMPLEMASK: 0xfc, CENTERRHW: 0xfc }).reg('RB_RENDER_CONTROL1', { FACENESS: true }))).diag), ['adreno.sp.fs-sysval-beyond-footprint']);
  // GRAS_CNTL and RB_RENDER_CONTROL0 disagree.
  assert.deepEqual(ids(render(d, draw(new CmdStream().reg('RB_RENDER_CONTROL0', { IJ_PERSP_PIXEL: true, IJ_LINEAR_PIXEL: true }))).diag), ['adreno.gras.render-control-mismatch']);
  // GRAS_SAMPLE_CNTL and RB_SAMPLE_CNTL disagree.
  assert.deepEqual(ids(render(d, draw(new CmdStream().reg('GRAS_SAMPLE_CNTL', { PER_SAMP_MODE: true }))).diag), ['adreno.gras.sample-cntl-mismatch']);
  // FRAGCOORDSAMPLEMODE 1: neither CENTER nor SAMPLE.
  assert.deepEqual(ids(render(d, draw(new CmdStream().reg('RB_RENDER_CONTROL1', 1 << 4))).diag), ['adreno.rb.fragcoord-sample-mode']);
  // The clean per-sample / sysval scenes above are quiet (asserted in their tests).
});

test('scene keys: ps.a6xx names the FS system values; a misspelt key is an error with the closest name', () => {
  const s = JSON.parse(readFileSync(join(EXAMPLES, 'triangle', 'scene.json'), 'utf8')) as Record<string, any>;
  const src = ['cov.u32f32 r1.x, r2.x', 'cov.u32f32 r1.y, r2.y', 'mul.f r1.x, r1.x, c0.x', 'mul.f r1.y, r1.y, c0.x', 'mov.f32f32 r1.z, r3.x', 'mov.f32f32 r1.w, r3.y', 'end'];
  const withFs = (a6xx: Record<string, unknown>): Record<string, unknown> => ({
    ...s,
    shaders: { ...s.shaders, ps: { ...s.shaders.ps, a6xx: { source: src } } },
    ps: { ...s.ps, a6xx: a6xx },
  });
  const d = a6xxSceneDescription(withFs({ fullRegs: 4, ij: 'r0.x', outputs: ['r1.x'], fragCoord: 'r2.x', fragCoordZw: 'r3.x', face: 'hr5.x', sampleShading: false }), join(EXAMPLES, 'triangle'), 'a660');
  assert.equal(d.fs.fragCoord, 8);
  assert.equal(d.fs.fragCoordZw, 12);
  assert.equal(d.fs.face, 20);
  assert.throws(() => a6xxSceneDescription(withFs({ fullRegs: 4, outputs: ['r1.x'], fragCord: 'r2.x' }), join(EXAMPLES, 'triangle'), 'a630'), /ps\.a6xx: unknown key 'fragCord' \(did you mean 'fragCoord'\?\)/);
  assert.throws(() => a6xxSceneDescription(withFs({ fullRegs: 4, outputs: ['r1.x'], face: 'r2.x' }), join(EXAMPLES, 'triangle'), 'a630'), /a half register/);
});

test('implicit LOD: a minified mipmapped texture samples the level log2(texels per pixel) picks, as gfx1100 does', async () => {
  const { runScene, resolveTarget } = await import('../../src/runtime/draw-scene.js');
  const { runA6xxScene, resolveA6xxTarget } = await import('../../src/runtime/draw-a6xx.js');
  const dir = join(EXAMPLES, 'texture');
  const s = JSON.parse(readFileSync(join(dir, 'scene.json'), 'utf8')) as Record<string, any>;
  // A 16x16 image of 5 levels, each one solid colour.
  const colour = (k: number): number[] => [k * 50, 255 - k * 50, (k * 37) % 256, 255];
  const tex: number[] = [];
  for (let k = 0; k < 5; k++) for (let t = 0; t < (16 >> k) ** 2; t++) tex.push(...colour(k));
  // The 32-pixel screen covered by a quad whose texture coordinates run 0..U: U * 16 / 32 texels per pixel.
  const run = (U: number, mip: string, gpus: readonly ('a630' | 'a660')[]): { a6: Float32Array[]; amd: Float32Array } => {
    const v = (x: number, y: number, u: number, w: number): number[] => [x, y, 0.5, 1, u, w, 0, 1];
    const verts = [...v(-1, -1, 0, 0), ...v(1, -1, U, 0), ...v(1, 1, U, U), ...v(-1, -1, 0, 0), ...v(1, 1, U, U), ...v(-1, 1, 0, U)];
    const sc = {
      ...s, width: 32, height: 32,
      buffers: { vertices: { type: 'f32', values: verts }, tex: { type: 'u8', values: tex } },
      ps: { ...s.ps, userData: [{ image: 'tex', width: 16, height: 16, levels: 5, format: '8_8_8_8_UNORM' }, { sampler: { filter: 'nearest', wrap: 'repeat', mip } }] },
    };
    const amd = runScene(sc, dir, { gfx: 'gfx1100' });
    const a6 = gpus.map((g) => {
      const r = runA6xxScene(sc, dir, g);
      assert.deepEqual(r.diag.list.filter((x) => x.severity !== 'info').map((x) => x.id), [], `${g} U=${U} ${mip}`);
      return resolveA6xxTarget(r);
    });
    return { a6, amd: resolveTarget(amd, amd.targets[0]!) };
  };
  const cases: [number, string, number[]][] = [
    // lambda = log2(3) = 1.585: nearest mip level ceil(lambda + 0.5) - 1 = 2.
    [6, 'nearest', colour(2)],
    // lambda = log2(2.5) = 1.32: level 1.
    [5, 'nearest', colour(1)],
    // lambda = log2(0.5) < 0: magnified, level 0.
    [1, 'nearest', colour(0)],
    // Linear mip at lambda = log2(3): levels 1 and 2 blended by the fraction.
    [6, 'linear', colour(1).map((c, k) => c * (2 - Math.log2(3)) + colour(2)[k]! * (Math.log2(3) - 1))],
    // No mipmapping: level 0 however minified.
    [6, 'none', colour(0)],
  ];
  cases.forEach(([U, mip, want], n) => {
    const { a6, amd } = run(U, mip, n === 0 ? ['a630', 'a660'] : ['a630']);
    for (const img of a6)
      for (let p = 0; p < 32 * 32; p++)
        for (let c = 0; c < 4; c++) {
          // The quad covers the whole screen: every pixel samples the one level (or blend).
          assert.ok(Math.abs(img[p * 4 + c]! * 255 - want[c]!) <= 1.01, `U=${U} ${mip} pixel ${p % 32},${p >> 5}: ${img[p * 4 + c]! * 255} vs ${want[c]}`);
          assert.ok(Math.abs(img[p * 4 + c]! - amd[p * 4 + c]!) <= 1.01 / 255, `U=${U} ${mip} pixel ${p % 32},${p >> 5} differs from gfx1100`);
        }
  });
});

test('frag coord and face: the same pixels as gfx1100 (POS_X/Y_FLOAT, FRONT_FACE), sysmem and GMEM', async () => {
  const { runScene, resolveTarget } = await import('../../src/runtime/draw-scene.js');
  const { runA6xxScene, resolveA6xxTarget } = await import('../../src/runtime/draw-a6xx.js');
  const dir = join(EXAMPLES, 'triangle');
  const s = JSON.parse(readFileSync(join(dir, 'scene.json'), 'utf8')) as Record<string, any>;
  // A back-facing left triangle and a front-facing right one (counter-clockwise front).
  const v = (x: number, y: number): number[] => [x, y, 0.5, 1, 0, 0, 0, 1];
  const verts = [...v(-1, -1), ...v(0, -1), ...v(-1, 1), ...v(0, -1), ...v(1, 1), ...v(1, -1)];
  // Out: x / 16, y / 16, 1 on front faces and 0 on back faces, 1.
  const amdPs = ['v_mul_f32 v5, 0x3d800000, v2', 'v_mul_f32 v6, 0x3d800000, v3', 'v_add_f32 v7, 1.0, v4', 'v_mul_f32 v7, 0.5, v7', 'v_mov_b32 v8, 1.0', 'exp mrt0 v5, v6, v7, v8 done', 's_endpgm'];
  // 1/256 as eight halvings (cat2 float immediates come from a small table).
  const halve = (r: string): string[] => Array.from({ length: 8 }, () => `mul.f ${r}, ${r}, (0.5)`);
  const a6Fs = ['cov.u32f32 r1.x, r2.x', 'cov.u32f32 r1.y, r2.y', ...halve('r1.x'), ...halve('r1.y'), 'cov.s16f32 r1.z, hr6.x', 'add.f r1.z, r1.z, (1.0)', 'mov.f32f32 r1.w, (1.000000)', 'end'];
  const sc = {
    ...s, width: 16, height: 16,
    buffers: { vertices: { type: 'f32', values: verts } },
    shaders: { ...s.shaders, ps: { source: amdPs, a6xx: { source: a6Fs } } },
    ps: { ...s.ps, inputEna: ['PERSP_CENTER', 'POS_X_FLOAT', 'POS_Y_FLOAT', 'FRONT_FACE'], a6xx: { fullRegs: 4, halfRegs: 7, outputs: ['r1.x'], fragCoord: 'r2.x', face: 'hr6.x' } },
    draws: [{ topology: 'DI_PT_TRILIST', count: 6 }],
  };
  const amd = runScene(sc, dir, { gfx: 'gfx1100' });
  const ref = resolveTarget(amd, amd.targets[0]!);
  for (const gmem of [undefined, { bin: { w: 32, h: 32 } }]) {
    const r = runA6xxScene(sc, dir, 'a630', gmem);
    assert.deepEqual(r.diag.list.filter((x) => x.severity !== 'info').map((x) => x.id), []);
    const img = resolveA6xxTarget(r);
    let n = 0;
    for (let p = 0; p < 256; p++) {
      if (ref[p * 4 + 3]! < 0.5) continue;
      n++;
      for (let c = 0; c < 4; c++) assert.ok(Math.abs(img[p * 4 + c]! - ref[p * 4 + c]!) <= 0.5 / 255, `${gmem ? 'GMEM' : 'sysmem'} pixel ${p % 16},${p >> 4} channel ${c}: ${img[p * 4 + c]} vs ${ref[p * 4 + c]}`);
    }
    assert.ok(n > 100, `${n} pixels`);
  }
});

test('centroid interpolation at 4x: the same pixels as gfx1100\'s PERSP_CENTROID, and unlike the centre', async () => {
  const { runScene, resolveTarget } = await import('../../src/runtime/draw-scene.js');
  const { runA6xxScene, resolveA6xxTarget } = await import('../../src/runtime/draw-a6xx.js');
  const dir = join(EXAMPLES, 'triangle');
  const s = JSON.parse(readFileSync(join(dir, 'scene.json'), 'utf8')) as Record<string, any>;
  // The triangle example at 4x with its colour interpolated at the centroid (gfx1100: v0/v1 =
  // PERSP_CENTROID I/J; a6xx: HLSQ_CONTROL_3_REG IJ_PERSP_CENTROID into r0.x, read by bary.f).
  const at = (where: 'centroid' | 'centre'): Record<string, unknown> => ({
    ...s, width: 32, height: 32, samples: 4,
    ps: { ...s.ps, inputEna: [where === 'centroid' ? 'PERSP_CENTROID' : 'PERSP_CENTER'], a6xx: { fullRegs: 2, outputs: ['r1.x'], ...(where === 'centroid' ? { ijCentroid: 'r0.x' } : { ij: 'r0.x' }) } },
  });
  const amd = runScene(at('centroid'), dir, { gfx: 'gfx1100' });
  const ref = resolveTarget(amd, amd.targets[0]!);
  const a6 = (where: 'centroid' | 'centre'): Float32Array => {
    const r = runA6xxScene(at(where), dir, 'a630');
    assert.deepEqual(r.diag.list.filter((x) => x.severity !== 'info').map((x) => x.id), []);
    return resolveA6xxTarget(r, 0, true);
  };
  const cen = a6('centroid');
  const mid = a6('centre');
  let moved = 0;
  for (let k = 0; k < cen.length; k++) {
    assert.ok(Math.abs(cen[k]! - ref[k]!) <= 1.01 / 255, `component ${k}: ${cen[k]! * 255} vs gfx1100 ${ref[k]! * 255}`);
    if (Math.abs(mid[k]! - ref[k]!) > 1.01 / 255) moved++;
  }
  // Interpolating at the centre instead differs on edge pixels: the test sees the centroid.
  assert.ok(moved > 5, `${moved} components differ between centre and centroid`);
});

test('the FS\'s sample mask output (SAMPMASK_REGID + FRAG_WRITES_SAMPMASK) ANDs with the coverage', () => {
  const v = (x: number, y: number): number[] => [x, y, 0.5, 1, 0, 0, 0, 1];
  const verts = [...v(-1, -1), ...v(1, -1), ...v(-1, 1), ...v(-1, 1), ...v(1, -1), ...v(1, 1)];
  // Colour c0 = (1, 0, 1, 1); mask = c1.x as an integer: samples 0 and 2.
  const c = new Uint32Array([...consts([1, 0, 1, 1]), 0b0101, 0, 0, 0]);
  const fs = { asm: '(rpt3)mov.f32f32 r1.x, (r)c0.x\nmov.u32u32 r2.x, c1.x\nend\n', fullRegs: 3, consts: c, sampleMaskOut: 8 };
  const r = render(scene(fs, verts, 4));
  assert.deepEqual(ids(r.diag), []);
  const clear = render(scene({ ...fs, sampleMaskOut: undefined, consts: c }, [], 4)).px(0, 0, 0);
  for (const [x, y] of [[0, 0], [7, 11], [15, 15]] as const)
    for (let s = 0; s < 4; s++) assert.deepEqual(r.px(x, y, s), s === 0 || s === 2 ? [255, 0, 255, 255] : clear, `pixel ${x},${y} sample ${s}`);
  // SAMPMASK_REGID named without FRAG_WRITES_SAMPMASK: the RB ignores it (a diagnostic).
  const after = new CmdStream().reg('SP_FS_OUTPUT_CNTL0', { DEPTH_REGID: 0xfc, SAMPMASK_REGID: 8, STENCILREF_REGID: 0xfc }).drawAuto('DI_PT_TRILIST', 3);
  assert.deepEqual(ids(render(scene({ ...fs, sampleMaskOut: undefined }, verts, 4), after).diag), ['adreno.rb.sampmask-output-mismatch']);
});
