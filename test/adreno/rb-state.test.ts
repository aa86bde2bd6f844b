/**
 * a6xx RB / GRAS raster state (pc/draw.ts polygonOffset, rb/output.ts, cp/handlers-gfx.ts,
 * driver/sysmem.ts): polygon offset (GRAS_SU_POLY_OFFSET_*), the depth bounds test
 * (RB_Z_BOUNDS_*), sRGB targets (RB_SRGB_CNTL), logic ops (RB_MRT[i].CONTROL ROP_CODE) and
 * dual-source blending (SRC1 factors). Expected values come from the formulas (Vulkan's depth
 * bias, the sRGB transfer function, bitwise ops on the stored bytes), written out here; each
 * diagnostic of an inconsistent state fires on it and stays quiet on the clean scenes.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { a6xxSceneDescription } from '../../src/runtime/draw-a6xx.js';
import type { BuiltDraw, GfxScene } from '../../src/adreno/driver/sysmem.js';
import { CmdStream } from '../../src/adreno/cp/builder.js';
import { Diagnostics } from '../../src/core/diagnostics.js';
import { runSceneStream } from './scene-run.js';

const EXAMPLES = join(import.meta.dirname, '..', '..', '..', 'examples');
const f32 = (a: number[]): Uint8Array => new Uint8Array(new Float32Array(a).buffer);
const consts = (a: number[]): Uint32Array => new Uint32Array(new Float32Array(a).buffer);
const ids = (d: Diagnostics): string[] => [...new Set(d.list.filter((x) => x.severity !== 'info').map((x) => x.id))];

/** A rectangle in NDC as two triangles: position (x, y, z per corner: z00 left, z10 right), colour. */
function rect(x0: number, y0: number, x1: number, y1: number, zl: number, zr: number, c: number[]): number[] {
  const v = (x: number, y: number, z: number): number[] => [x, y, z, 1, ...c];
  return [...v(x0, y0, zl), ...v(x1, y0, zr), ...v(x0, y1, zl), ...v(x0, y1, zl), ...v(x1, y0, zr), ...v(x1, y1, zr)];
}
function scene(verts: number[], over: Partial<GfxScene> = {}, fs: Partial<GfxScene['fs']> = {}): GfxScene {
  const dir = join(EXAMPLES, 'triangle');
  const b = a6xxSceneDescription(JSON.parse(readFileSync(join(dir, 'scene.json'), 'utf8')) as Record<string, unknown>, dir, 'a630');
  return {
    ...b, width: 16, height: 16,
    buffers: new Map([['vertices', f32(verts)]]),
    draws: [{ prim: 'DI_PT_TRILIST', count: verts.length / 8 }],
    state: { ...b.state, viewport: [0, 0, 16, 16], scissor: [0, 0, 16, 16], blend: [] },
    ...over,
    fs: { ...b.fs, ...fs },
  };
}
function render(d: GfxScene, after?: CmdStream): { b: BuiltDraw; px: (x: number, y: number) => number[]; diag: Diagnostics } {
  const { b, diag } = runSceneStream(d, after);
  const t = b.targets[0]!;
  return { b, px: (x, y) => Array.from(b.mem.readBytes(t.base + y * t.pitch + x * 4, 4)), diag };
}
const depthF32 = (b: BuiltDraw, x: number, y: number): number => new Float32Array(b.mem.readBytes(b.depth!.base + y * b.depth!.pitch + x * 4, 4).slice().buffer)[0]!;
const depthU16 = (b: BuiltDraw, x: number, y: number): number => new Uint16Array(b.mem.readBytes(b.depth!.base + y * b.depth!.pitch + x * 2, 2).slice().buffer)[0]!;
/** The FS writes c0 (a constant colour) to target 0. */
const CONST_FS = { asm: '(rpt3)mov.f32f32 r1.x, (r)c0.x\nend\n', fullRegs: 2, outputs: [4] };

test('polygon offset: slope * max |dz/dx|, |dz/dy| + constant * r (D32F: 2^(e - 23), D16: 2^-16), clamped', () => {
  // z runs 0.25 (left) .. 0.75 (right) across 16 pixels: dz/dx = 1/32, dz/dy = 0; z(x) at a centre = 0.25 + (x + 0.5) / 32.
  const verts = rect(-1, -1, 1, 1, 0.25, 0.75, [1, 1, 1, 1]);
  const z = (x: number): number => 0.25 + (x + 0.5) / 32;
  const run = (format: 'DEPTH6_32' | 'DEPTH6_16', bias: { constant: number; slope: number; clamp?: number } | undefined): BuiltDraw => {
    const r = render(scene(verts, { depth: { format, clear: 1 }, state: { viewport: [0, 0, 16, 16], scissor: [0, 0, 16, 16], blend: [], depthFunc: 'FUNC_ALWAYS', ...(bias ? { depthBias: bias } : {}) } }));
    assert.deepEqual(ids(r.diag), []);
    return r.b;
  };
  // D32F: the triangle's largest |z| is 0.75, exponent -1: r = 2^-24.
  for (const [bias, off] of [
    [undefined, () => 0],
    [{ constant: 1000, slope: 0 }, () => 1000 * 2 ** -24],
    [{ constant: 1000, slope: 2 }, () => 2 / 32 + 1000 * 2 ** -24],
    [{ constant: 1000, slope: 2, clamp: 0.01 }, () => 0.01],
    [{ constant: -1000, slope: -2, clamp: -0.02 }, () => -0.02],
  ] as const) {
    const b = run('DEPTH6_32', bias);
    for (const x of [0, 5, 15]) for (const y of [0, 9]) assert.ok(Math.abs(depthF32(b, x, y) - (z(x) + off())) < 1e-6, `D32F ${JSON.stringify(bias)} pixel ${x},${y}: ${depthF32(b, x, y)} vs ${z(x) + off()}`);
  }
  // D16: r = 2^-16; the stored value is the offset depth in 16-bit UNORM.
  const b = run('DEPTH6_16', { constant: 3, slope: 0 });
  for (const x of [0, 7, 15]) assert.equal(depthU16(b, x, 4), Math.round((z(x) + 3 / 65536) * 0xffff), `D16 pixel ${x}`);
});

test('depth bounds: only samples whose stored depth is within RB_Z_BOUNDS_MIN..MAX are drawn', () => {
  const A = [1, 0, 0, 1], B = [0, 1, 0, 1], C = [0, 0, 1, 1];
  // Left half at z 0.2 (A), right half at 0.8 (B), then a full quad at 0.1 (C) with bounds [0.5, 1].
  const verts = [...rect(-1, -1, 0, 1, 0.2, 0.2, A), ...rect(0, -1, 1, 1, 0.8, 0.8, B), ...rect(-1, -1, 1, 1, 0.1, 0.1, C)];
  const d = scene(verts, {
    depth: { format: 'DEPTH6_32', clear: 1 },
    draws: [{ prim: 'DI_PT_TRILIST', count: 6 }, { prim: 'DI_PT_TRILIST', count: 6, vertexOffset: 6 }, { prim: 'DI_PT_TRILIST', count: 6, vertexOffset: 12, state: { depthBounds: [0.5, 1] } }],
  });
  const r = render(d);
  assert.deepEqual(ids(r.diag), []);
  for (let y = 0; y < 16; y++)
    for (let x = 0; x < 16; x++) assert.deepEqual(r.px(x, y), x < 8 ? [255, 0, 0, 255] : [0, 0, 255, 255], `pixel ${x},${y}`);
  // Without the bounds the third quad (z 0.1 < 0.2, 0.8) covers everything.
  const all = render({ ...d, draws: d.draws.map((x) => ({ ...x, state: undefined })) as GfxScene['draws'] });
  assert.deepEqual(all.px(3, 3), [0, 0, 255, 255]);
});

// The sRGB transfer functions as the Vulkan / sRGB specification writes them.
const encode = (v: number): number => (v <= 0.0031308 ? 12.92 * v : 1.055 * Math.pow(v, 1 / 2.4) - 0.055);
const decode = (v: number): number => (v <= 0.04045 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4));

test('sRGB targets: the RB encodes what it writes and decodes the destination before blending', () => {
  // The left half is drawn; the right half keeps the clear, whose stored bytes are the blend's destination.
  const verts = rect(-1, -1, 0, 1, 0.5, 0.5, [0, 0, 0, 1]);
  const src = [0.5, 0.3, 0.01, 0.25];
  const fs = { ...CONST_FS, consts: consts(src) };
  const target = (srgb: boolean): GfxScene['targets'] => [{ format: 'FMT6_8_8_8_8_UNORM', clear: [0.1, 0.6, 0.9, 1], ...(srgb ? { srgb: true } : {}) }];
  const plain = render(scene(verts, { targets: target(true) }, fs));
  assert.deepEqual(ids(plain.diag), []);
  assert.deepEqual(plain.px(4, 4), [...src.slice(0, 3).map((v) => Math.round(encode(v) * 255)), Math.round(src[3]! * 255)]);
  // Blending src * a + dst * (1 - a) in linear: the stored clear bytes decoded, the result encoded.
  const blend = { enable: true, rgbSrc: 'FACTOR_SRC_ALPHA', rgbDst: 'FACTOR_ONE_MINUS_SRC_ALPHA', rgbOp: 'BLEND_DST_PLUS_SRC', aSrc: 'FACTOR_ONE', aDst: 'FACTOR_ZERO', aOp: 'BLEND_DST_PLUS_SRC' };
  const d = scene(verts, { targets: target(true) }, fs);
  const r = render({ ...d, state: { ...d.state, blend: [blend] } });
  assert.deepEqual(ids(r.diag), []);
  // The clear is written unconverted (the driver's clear draw has no sRGB).
  const dstBytes = r.px(12, 4).slice(0, 3);
  const want = dstBytes.map((b, k) => Math.round(encode(src[k]! * src[3]! + decode(b / 255) * (1 - src[3]!)) * 255));
  const got = r.px(4, 4);
  for (let k = 0; k < 3; k++) assert.equal(got[k], want[k], `channel ${k}`);
  // Not sRGB: the linear blend of the bytes.
  const lin = render({ ...d, targets: target(false), state: { ...d.state, blend: [blend] } });
  assert.deepEqual(lin.px(4, 4).slice(0, 3), dstBytes.map((b, k) => Math.round((src[k]! * src[3]! + (b / 255) * (1 - src[3]!)) * 255)));
});

test('logic ops on the stored bytes: XOR, AND, OR_REVERSE, INVERT, COPY_INVERTED, NOOP, SET', () => {
  // The left half is drawn; the right half keeps the clear (the destination bytes).
  const verts = rect(-1, -1, 0, 1, 0.5, 0.5, [0, 0, 0, 1]);
  const src = [51, 153, 255, 0];
  const fs = { ...CONST_FS, consts: consts(src.map((v) => v / 255)) };
  const ops: [string, (s: number, d: number) => number][] = [
    ['ROP_XOR', (s, d) => s ^ d], ['ROP_AND', (s, d) => s & d], ['ROP_OR_REVERSE', (s, d) => (s | ~d) & 255],
    ['ROP_INVERT', (_, d) => ~d & 255], ['ROP_COPY_INVERTED', (s) => ~s & 255], ['ROP_NOOP', (_, d) => d], ['ROP_SET', () => 255],
  ];
  for (const [op, f] of ops) {
    const r = render(scene(verts, { targets: [{ format: 'FMT6_8_8_8_8_UNORM', clear: [0.1, 0.6, 0.9, 1] }], state: { viewport: [0, 0, 16, 16], scissor: [0, 0, 16, 16], blend: [], logicOp: op } }, fs));
    assert.deepEqual(ids(r.diag), [], op);
    const dst = r.px(12, 7);
    assert.deepEqual(r.px(5, 7), src.map((s, k) => f(s, dst[k]!)), op);
  }
});

test('dual-source blending: FACTOR_SRC1_COLOR reads the FS\'s second output (SP_FS_OUTPUT[1])', () => {
  const verts = rect(-1, -1, 1, 1, 0.5, 0.5, [0, 0, 0, 1]);
  const src = [0.2, 0.4, 0.1, 1];
  const src1 = [0.5, 1, 0, 0.5];
  const fs = { asm: '(rpt3)mov.f32f32 r1.x, (r)c0.x\n(rpt3)mov.f32f32 r2.x, (r)c1.x\nend\n', fullRegs: 3, outputs: [4, 8], dualSource: true, consts: consts([...src, ...src1]) };
  const blend = { enable: true, rgbSrc: 'FACTOR_ONE', rgbDst: 'FACTOR_SRC1_COLOR', rgbOp: 'BLEND_DST_PLUS_SRC', aSrc: 'FACTOR_ONE', aDst: 'FACTOR_ONE_MINUS_SRC1_ALPHA', aOp: 'BLEND_DST_PLUS_SRC' };
  const d = scene(verts, {}, fs);
  const r = render({ ...d, state: { ...d.state, blend: [blend] } });
  assert.deepEqual(ids(r.diag), []);
  const dst = [0.1, 0.1, 0.1, 1].map((c) => Math.round(c * 255) / 255);
  const want = [0, 1, 2].map((k) => Math.round(Math.min(1, src[k]! + dst[k]! * src1[k]!) * 255));
  assert.deepEqual(r.px(5, 5), [...want, Math.round(Math.min(1, src[3]! + dst[3]! * (1 - src1[3]!)) * 255)]);
});

test('RB state diagnostics: quiet on the clean scenes above, each fires on its state', () => {
  const verts = rect(-1, -1, 1, 1, 0.5, 0.5, [0, 0, 0, 1]);
  const d = scene(verts, {}, { ...CONST_FS, consts: consts([0.5, 0.5, 0.5, 1]) });
  assert.deepEqual(ids(render(d).diag), []);
  const blend = { enable: true, rgbSrc: 'FACTOR_ONE', rgbDst: 'FACTOR_ZERO', rgbOp: 'BLEND_DST_PLUS_SRC', aSrc: 'FACTOR_ONE', aDst: 'FACTOR_ZERO', aOp: 'BLEND_DST_PLUS_SRC' };
  assert.deepEqual(ids(render({ ...d, state: { ...d.state, blend: [blend], logicOp: 'ROP_XOR' } }).diag), ['adreno.rb.rop-with-blend']);
  assert.deepEqual(ids(render({ ...d, state: { ...d.state, blend: [{ ...blend, rgbDst: 'FACTOR_SRC1_COLOR' }] } }).diag), ['adreno.rb.src1-without-dual']);
  assert.deepEqual(ids(render(scene(verts, { targets: [{ format: 'FMT6_16_16_16_16_FLOAT', clear: [0, 0, 0, 1], srgb: true }] }, d.fs)).diag), ['adreno.rb.srgb-format']);
  const draw = (cs: CmdStream): CmdStream => cs.drawAuto('DI_PT_TRILIST', 3);
  assert.deepEqual(ids(render(d, draw(new CmdStream().reg('RB_BLEND_CNTL', { DUAL_COLOR_IN_ENABLE: true, SAMPLE_MASK: 0xffff }))).diag), ['adreno.rb.dual-source-mismatch']);
  assert.deepEqual(ids(render(d, draw(new CmdStream().reg('RB_SRGB_CNTL', { SRGB_MRT0: true }))).diag), ['adreno.rb.srgb-mismatch']);
  assert.deepEqual(ids(render(d, draw(new CmdStream().reg('RB_DEPTH_CNTL', { Z_TEST_ENABLE: true, ZFUNC: 'FUNC_LESS' }))).diag), ['adreno.rb.z-read-disabled']);
  assert.deepEqual(ids(render(d, draw(new CmdStream().reg('RB_DEPTH_CNTL', { Z_TEST_ENABLE: true, ZFUNC: 'FUNC_ALWAYS' }))).diag), []);
});

test('scene keys: state.a6xx depthBias / depthBounds / logicOp reach the registers; misspelt keys are errors', async () => {
  const { runA6xxScene } = await import('../../src/runtime/draw-a6xx.js');
  const dir = join(EXAMPLES, 'triangle');
  const s = JSON.parse(readFileSync(join(dir, 'scene.json'), 'utf8')) as Record<string, any>;
  const d = a6xxSceneDescription({ ...s, state: { a6xx: { depthBias: { constant: 2, slope: 1.5 }, depthBounds: [0.25, 0.75], logicOp: 'ROP_XOR' } } }, dir, 'a660');
  assert.deepEqual(d.state.depthBias, { constant: 2, slope: 1.5, clamp: 0 });
  assert.deepEqual(d.state.depthBounds, [0.25, 0.75]);
  assert.equal(d.state.logicOp, 'ROP_XOR');
  // XOR with the stored clear: the clear's bytes where the triangle is not, src ^ clear where it is.
  const plain = runA6xxScene(s, dir, 'a630');
  const xor = runA6xxScene({ ...s, state: { a6xx: { logicOp: 'ROP_XOR' } } }, dir, 'a630');
  assert.deepEqual(xor.diag.list.filter((x) => x.severity !== 'info').map((x) => x.id), []);
  const byte = (img: Float32Array, k: number): number => Math.round(img[k]! * 255);
  const clear = [0, 1, 2, 3].map((c) => byte(plain.targets[0]!.data, c));
  let drawn = 0;
  for (let p = 0; p < 64 * 64; p++) {
    const src = [0, 1, 2, 3].map((c) => byte(plain.targets[0]!.data, p * 4 + c));
    const got = [0, 1, 2, 3].map((c) => byte(xor.targets[0]!.data, p * 4 + c));
    if (src.join() === clear.join()) assert.deepEqual(got, clear);
    else {
      drawn++;
      assert.deepEqual(got, src.map((v, c) => v ^ clear[c]!), `pixel ${p}`);
    }
  }
  assert.ok(drawn > 500, `${drawn} pixels`);
  assert.throws(() => a6xxSceneDescription({ ...s, state: { a6xx: { logicop: 'ROP_XOR' } } }, dir, 'a630'), /state\.a6xx: unknown key 'logicop' \(did you mean 'logicOp'\?\)/);
  assert.throws(() => a6xxSceneDescription({ ...s, state: { a6xx: { depthBias: { constnat: 1 } } } }, dir, 'a630'), /unknown key 'constnat'/);
  assert.throws(() => a6xxSceneDescription({ ...s, state: { a6xx: { logicOp: 'XOR' } } }, dir, 'a630'), /no a6xx equivalent/);
});
