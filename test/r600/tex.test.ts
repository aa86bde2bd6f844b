/**
 * The texture unit: clang-19 kernels that sample (SAMPLE) and depth-compare (SAMPLE_C) through
 * LLVM's r600 texture intrinsics, against CPU references written here; assembly tests for the
 * instructions LLVM 19 cannot select (SAMPLE_L/LB/LZ/G, LD, GET_TEXTURE_RESINFO, GET_GRADIENTS_H/V,
 * SET_GRADIENTS_H/V, GATHER4, SAMPLE_C_L/C_LB, GATHER4_C/_O/_C_O with SET_TEXTURE_OFFSETS, GET_LOD);
 * texel formats, addressing modes and border colors; and the
 * r600.tex.* diagnostics.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../../tools/gen/run.js';
import { mulberry32 } from '../../src/runtime/manifest.js';
import { runR600Kernel } from '../../src/runtime/r600.js';
import { loadR600Object } from '../../src/r600/isa/object.js';
import { TEX_CLAMP, TEX_DIM, decodeTexResource, encodeTexResource, encodeTexSampler, preWrap, readTexel, texLevel, wrapIndex } from '../../src/r600/exec/tex.js';
import { ids, lit, runAsm } from './helpers.js';
import { assembleTex } from '../../src/r600/isa/asm.js';
import { decodeFetch, decodeTex } from '../../src/r600/isa/decode.js';
import { printFetch } from '../../src/r600/isa/print.js';

const f = Math.fround;
const FMT = { F32: 0x0e, RGBA8: 0x1a, F16: 0x06, RGBA16F: 0x20, R10G10B10A2: 0x19, RGBA32F: 0x23, D24S8: 0x11 } as const;
const B = (v: number): number => new Uint32Array(new Float32Array([v]).buffer)[0]!;

function load(mcpu: string, name: string) {
  return loadR600Object(readFileSync(join(ROOT, 'kernels/r600/bin', mcpu, `${name}.o`)), name);
}

for (const mcpu of ['cypress', 'cayman']) {
  test(`${mcpu}/tex_sample: point sampling with WRAP and bilinear with CLAMP_LAST_TEXEL match the CPU reference`, () => {
    const r = mulberry32(11);
    const rgba = Uint8Array.from({ length: 16 * 16 * 4 }, () => Math.floor(r() * 256));
    const depth = Float32Array.from({ length: 8 * 8 }, () => Math.floor(r() * 64) / 4 - 8);
    const n = 128;
    const run = runR600Kernel({
      object: load(mcpu, 'tex_sample'), grid: [n, 1, 1], block: [64, 1, 1],
      buffers: [{ name: 'out', type: 'f32', data: new Uint8Array(n * 32) }, { name: 'rgba', type: 'u32', data: rgba }, { name: 'flt', type: 'f32', data: new Uint8Array(depth.buffer) }],
      args: [{ kind: 'buffer', name: 'out' }, { kind: 'scalar', type: 'f32', value: 1 / 16 }],
      textures: [
        { id: 0, buffer: 'rgba', words: encodeTexResource({ width: 16, height: 16, base: 0, format: FMT.RGBA8 }) },
        { id: 1, buffer: 'flt', words: encodeTexResource({ width: 8, height: 8, base: 0, format: FMT.F32 }) },
      ],
      samplers: new Map([
        [0, encodeTexSampler({ clamp: [TEX_CLAMP.WRAP, TEX_CLAMP.WRAP, TEX_CLAMP.WRAP] })],
        [1, encodeTexSampler({ clamp: [TEX_CLAMP.CLAMP_LAST_TEXEL, TEX_CLAMP.CLAMP_LAST_TEXEL, 0], magFilter: 1, minFilter: 1 })],
      ]),
    });
    assert.deepEqual(run.diagnostics.map((d) => `${d.id}: ${d.message}`), []);
    const got = new Float32Array(run.buffers.out!.slice().buffer);
    const cl = (v: number, hi: number): number => Math.min(Math.max(v, 0), hi);
    const d = (x: number, y: number): number => depth[cl(y, 7) * 8 + cl(x, 7)]!;
    for (let i = 0; i < n; i++) {
      const x = (((i - 40) % 16) + 16) % 16, y = (i >> 4) % 16;
      const want = [0, 1, 2, 3].map((k) => f(rgba[(y * 16 + x) * 4 + k]! / 255));
      assert.deepEqual([...got.slice(8 * i, 8 * i + 4)], want, `point ${i}`);
      // Bilinear at texel-space (u, v) = ((i & 15) / 2, (i >> 4) / 2): GL's linear filter with clamp to edge.
      const u = (i & 15) / 2 - 0.5, v = (i >> 4) / 2 - 0.5;
      const i0 = Math.floor(u), j0 = Math.floor(v), a = u - i0, b = v - j0;
      const bil = (1 - a) * (1 - b) * d(i0, j0) + a * (1 - b) * d(i0 + 1, j0) + (1 - a) * b * d(i0, j0 + 1) + a * b * d(i0 + 1, j0 + 1);
      assert.deepEqual([...got.slice(8 * i + 4, 8 * i + 8)], [f(bil), 0, 0, 1], `bilinear ${i}`);
    }
  });

  test(`${mcpu}/tex_compare: SAMPLE_C compares W with the depth texel (LESSEQUAL) like the CPU reference`, () => {
    const r = mulberry32(12);
    const depth = Float32Array.from({ length: 64 }, () => Math.floor(r() * 16) / 16);
    const ref = Float32Array.from({ length: 64 }, () => Math.floor(r() * 16) / 16);
    const run = runR600Kernel({
      object: load(mcpu, 'tex_compare'), grid: [64, 1, 1], block: [64, 1, 1],
      buffers: [{ name: 'out', type: 'f32', data: new Uint8Array(256) }, { name: 'ref', type: 'f32', data: new Uint8Array(ref.buffer) }, { name: 'depth', type: 'f32', data: new Uint8Array(depth.buffer) }],
      args: [{ kind: 'buffer', name: 'out' }, { kind: 'buffer', name: 'ref' }],
      textures: [{ id: 2, buffer: 'depth', words: encodeTexResource({ width: 8, height: 8, base: 0, format: FMT.F32 }) }],
      samplers: new Map([[3, encodeTexSampler({ clamp: [2, 2, 2], compare: 3 })]]),
    });
    assert.deepEqual(run.diagnostics.map((d) => `${d.id}: ${d.message}`), []);
    const got = [...new Float32Array(run.buffers.out!.slice().buffer)];
    assert.deepEqual(got, Array.from({ length: 64 }, (_, i) => (ref[i]! <= depth[i]! ? 1 : 0)));
  });
}

// ---- assembly tests ----

const BASE = 1024;
/** An 8x8 FMT_32_FLOAT texture with 3 levels: level L texel (x, y) = 100 (L + 1) + x + 8 y. */
function mipTexture(global: Uint8Array): Uint32Array {
  const dv = new DataView(global.buffer);
  const words = encodeTexResource({ width: 8, height: 8, base: BASE, mipBase: BASE + 256, format: FMT.F32, lastLevel: 2 });
  const r = decodeTexResource(words);
  for (let L = 0; L < 3; L++) {
    const lv = texLevel(r, L);
    for (let y = 0; y < lv.height; y++) for (let x = 0; x < lv.width; x++) dv.setFloat32(lv.base + (y * lv.pitch + x) * 4, 100 * (L + 1) + x + 8 * y, true);
  }
  return words;
}

/** CF: setup ALU clause, one TC clause, CF_END; then the fetch clause at slot 4 and the ALU clause after it. */
function texProg(setup: string[], tex: string[]): string {
  const setupSlots = setup.length;
  const alu = 4 + 2 * tex.length;
  return [`ALU ${setupSlots - 1}, @${alu}, KC0[], KC1[]`, `TEX ${tex.length - 1} @4`, 'CF_END', 'PAD', 'Fetch clause starting at 4:', ...tex.map((t) => '  ' + t), `ALU clause starting at ${alu}:`, ...setup].join('\n');
}

// T5 = (l & 3, (l >> 2) & 3, 0, 1) as ints; T1 = normalized texel centres of a 4x4 grid ((2 T5.xy + 1) / 8), T1.W = 1.0; T7.X = 1.
const SETUP = [
  '  AND_INT * T5.X, T0.X, literal.x,', lit(3),
  '  LSHR * T5.Y, T0.X, literal.x,', lit(2),
  '  AND_INT * T5.Y, T5.Y, literal.x,', lit(3),
  '  MOV * T5.Z, literal.x,', lit(0),
  '  MOV * T5.W, 1,',
  '  LSHL * T1.X, T5.X, 1,',
  '  ADD_INT * T1.X, T1.X, 1,',
  '  LSHL * T1.Y, T5.Y, 1,',
  '  ADD_INT * T1.Y, T1.Y, 1,',
  '  INT_TO_FLT * T1.X, T1.X,',
  '  INT_TO_FLT * T1.Y, T1.Y,',
  '  MUL_IEEE * T1.X, T1.X, literal.x,', lit(B(0.125)),
  '  MUL_IEEE * T1.Y, T1.Y, literal.x,', lit(B(0.125)),
  '  MOV * T1.W, literal.x,', lit(B(1)),
  '  MOV * T1.Z, literal.x,', lit(0),
  '  MOV * T7.X, 1,',
];
const lanes = (fn: (x: number, y: number, l: number) => number): number[] => Array.from({ length: 64 }, (_, l) => fn(l & 3, (l >> 2) & 3, l) >>> 0);
const POINT_MIP = encodeTexSampler({ clamp: [2, 2, 2], mipFilter: 1 });

test('SAMPLE_L picks the level in W, LD reads a level by integer coordinates, GET_TEXTURE_RESINFO reports the level size and count', () => {
  const global = new Uint8Array(8192);
  const tex = mipTexture(global);
  const r = runAsm(texProg(SETUP, [
    'TEX_SAMPLE_L T2.XYZW, T1.XYZW RID:0 SID:0 CT:NNNN',
    'TEX_LD T3.XYZW, T5.XYZW RID:0 SID:0 CT:UUUU',
    'TEX_GET_TEXTURE_RESINFO T4.XYZW, T7.XXXX RID:0 SID:0 CT:UUUU',
    'TEX_SAMPLE_LZ T6.X___, T1.XYZW RID:0 SID:0 CT:NNNN',
  ]), { global, textures: new Map([[0, tex]]), samplers: new Map([[0, POINT_MIP]]) });
  assert.deepEqual(ids(r.diag), []);
  const lvl1 = lanes((x, y) => B(200 + x + 8 * y));
  assert.deepEqual(r.reg(2, 0), lvl1, 'SAMPLE_L W=1 reads level 1 at the texel centres of its 4x4 grid');
  assert.deepEqual(r.reg(3, 0), lvl1, 'LD level 1 (W = 1) at integer (x, y)');
  assert.deepEqual(r.reg(3, 3), lanes(() => B(1)), 'FMT_32_FLOAT has no W component: it reads 1.0');
  assert.deepEqual([0, 1, 2, 3].map((c) => r.reg(4, c)[5]), [4, 4, 1, 3], 'RESINFO level 1: 4x4, depth 1, 3 levels');
  assert.deepEqual(r.reg(6, 0), lanes((x, y) => B(100 + (2 * x + 1) + 8 * (2 * y + 1))), 'SAMPLE_LZ reads level 0');
  assert.deepEqual(r.reg(6, 1), lanes(() => 0), 'DST_SEL _ leaves the channel alone');
});

test('implicit LOD comes from quad derivatives; GET_GRADIENTS_H/V (coarse and fine) return them; SET_GRADIENTS feeds SAMPLE_G', () => {
  const global = new Uint8Array(8192);
  const tex = mipTexture(global);
  const r = runAsm(texProg(SETUP, [
    // Lanes of a quad are consecutive ids: u steps 0.25 from q0 to q1 and 0.5 from q0 to q2 -> 4 texels -> LOD 2.
    'TEX_SAMPLE T2.XYZW, T1.XYZW RID:0 SID:0 CT:NNNN',
    'TEX_GET_GRADIENTS_H T3.XYZW, T1.XYZW RID:0 SID:0 CT:NNNN',
    'TEX_GET_GRADIENTS_V T4.XYZW, T1.XYZW RID:0 SID:0 CT:NNNN',
    'TEX_GET_GRADIENTS_V T8.XYZW, T1.XYZW RID:0 SID:0 CT:NNNN MOD:1',
    'TEX_SET_GRADIENTS_H T0.____, T9.XYZW RID:0 SID:0 CT:NNNN',
    'TEX_SET_GRADIENTS_V T0.____, T9.XYZW RID:0 SID:0 CT:NNNN',
    'TEX_SAMPLE_G T6.XYZW, T1.XYZW RID:0 SID:0 CT:NNNN',
    'TEX_SAMPLE_LB T10.XYZW, T1.XYZW RID:0 SID:0 CT:NNNN',
    'TEX_SAMPLE_G_LB T11.XYZW, T1.XYZW RID:0 SID:0 CT:NNNN',
    'TEX_SAMPLE_C_G T12.XYZW, T1.XYZW RID:0 SID:1 CT:NNNN',
    'TEX_SAMPLE_C_LZ T13.XYZW, T1.XYZW RID:0 SID:2 CT:NNNN',
    'TEX_KEEP_GRADIENTS T0.____, T1.XYZW RID:0 SID:0 CT:NNNN',
    'TEX_SAMPLE_G T14.XYZW, T1.XYZW RID:0 SID:0 CT:NNNN',
  ]), { global, textures: new Map([[0, tex]]), samplers: new Map([[0, POINT_MIP], [1, encodeTexSampler({ clamp: [2, 2, 2], compare: 1 })], [2, encodeTexSampler({ clamp: [2, 2, 2], compare: 4 })]]) });
  assert.deepEqual(ids(r.diag), []);
  assert.deepEqual(r.reg(2, 0), lanes((x, y) => B(300 + (x >> 1) + 8 * (y >> 1))), 'LOD 2: level 2 (2x2) texel');
  assert.deepEqual(r.reg(3, 0), lanes(() => B(0.25)), 'H = u(q1) - u(q0)');
  assert.deepEqual(r.reg(3, 1), lanes(() => 0), 'v does not change inside a quad');
  assert.deepEqual(r.reg(4, 0), lanes(() => B(0.5)), 'coarse V = u(q2) - u(q0)');
  assert.deepEqual(r.reg(8, 0), lanes(() => B(0.5)), 'fine V (INST_MOD 1) = u(q2|q3) - u(q0|q1) per column');
  // T9 is zero: zero gradients give LOD -inf -> clamped to MIN_LOD 0 -> level 0.
  assert.deepEqual(r.reg(6, 0), lanes((x, y) => B(100 + (2 * x + 1) + 8 * (2 * y + 1))), 'SAMPLE_G with zero gradients reads level 0');
  // SAMPLE_LB: implicit LOD 2 + bias W (1.0) = 3 -> clamped to the last level (2).
  assert.deepEqual(r.reg(10, 0), r.reg(2, 0), 'SAMPLE_LB biases the implicit LOD (clamped to LAST_LEVEL)');
  assert.deepEqual(r.reg(11, 0), r.reg(6, 0), 'SAMPLE_G_LB: zero gradients (LOD -inf) plus bias 1 still clamps to MIN_LOD 0');
  assert.deepEqual(r.reg(12, 0), lanes(() => B(1)), 'SAMPLE_C_G: W = 1.0 LESS every level-0 texel (>= 100)');
  assert.deepEqual(r.reg(13, 3), lanes(() => 0), 'SAMPLE_C_LZ: W = 1.0 GREATER fails everywhere, in all channels');
  assert.deepEqual(r.reg(14, 0), r.reg(2, 0), 'KEEP_GRADIENTS stores the quad derivatives SAMPLE_G then uses (LOD 2 again)');
});

test('GATHER4 returns the bilinear footprint; offsets move by half texels; DST_SEL of the resource swizzles', () => {
  const global = new Uint8Array(8192);
  const tex = mipTexture(global);
  const swz = Uint32Array.from(tex);
  swz[4] = (swz[4]! & ~(0xfff << 16)) | (5 << 16) | (0 << 19) | (4 << 22) | (0 << 25); // (1, X, 0, X)
  const r = runAsm(texProg(SETUP, [
    'TEX_GATHER4 T2.XYZW, T1.XYZW RID:0 SID:0 CT:NNNN',
    'TEX_SAMPLE_LZ T3.XYZW, T1.XYZW RID:0 SID:0 CT:NNNN OX:2 OY:-2',
    'TEX_SAMPLE_LZ T4.XYZW, T1.XYZW RID:1 SID:0 CT:NNNN',
  ]), { global, textures: new Map([[0, tex], [1, swz]]), samplers: new Map([[0, POINT_MIP]]) });
  assert.deepEqual(ids(r.diag), []);
  // Level 0 u = (2x + 1) (texels): footprint columns 2x and 2x + 1, rows 2y and 2y + 1.
  const t0 = (x: number, y: number): number => B(100 + x + 8 * y);
  for (const l of [0, 5, 10, 63]) {
    const x = l & 3, y = (l >> 2) & 3;
    assert.deepEqual([0, 1, 2, 3].map((c) => r.reg(2, c)[l]), [t0(2 * x, 2 * y + 1), t0(2 * x + 1, 2 * y + 1), t0(2 * x + 1, 2 * y), t0(2 * x, 2 * y)], `lane ${l}`);
  }
  // OX:2 = +1 texel, OY:-2 = -1 texel (clamped at the edge); level-0 u = 2x + 1.
  assert.deepEqual(r.reg(3, 0), lanes((x, y) => t0(Math.min(2 * x + 2, 7), 2 * y)));
  assert.deepEqual([0, 1, 2, 3].map((c) => r.reg(4, c)[5]), [B(1), t0(3, 3), 0, t0(3, 3)]);
});

test('addressing modes follow the documented definitions; borders use BORDER_COLOR_TYPE', () => {
  // WRAP / MIRROR / CLAMP_LAST_TEXEL / MIRROR_ONCE_LAST_TEXEL on size 4, texel indices -6..9.
  const size = 4;
  for (let i = -6; i < 10; i++) {
    assert.equal(wrapIndex(TEX_CLAMP.WRAP, i, size), i - size * Math.floor(i / size));
    const m = i - 2 * size * Math.floor(i / (2 * size));
    assert.equal(wrapIndex(TEX_CLAMP.MIRROR, i, size), m < size ? m : 2 * size - 1 - m);
    assert.equal(wrapIndex(TEX_CLAMP.CLAMP_LAST_TEXEL, i, size), Math.min(Math.max(i, 0), size - 1));
    assert.equal(wrapIndex(TEX_CLAMP.MIRROR_ONCE_LAST_TEXEL, i, size), Math.min(i < 0 ? -i - 1 : i, size - 1));
    assert.equal(wrapIndex(TEX_CLAMP.CLAMP_BORDER, i, size), i < 0 || i >= size ? -1 : i);
  }
  assert.equal(preWrap(TEX_CLAMP.CLAMP_HALF_BORDER, -3, size), -0.5);
  assert.equal(preWrap(TEX_CLAMP.MIRROR_ONCE_BORDER, -3, size), 3);
  // A 1D texture read past both ends: CLAMP_BORDER with each border type, and the register color.
  const global = new Uint8Array(8192);
  const dv = new DataView(global.buffer);
  for (let x = 0; x < 8; x++) dv.setFloat32(BASE + 4 * x, 10 + x, true);
  const tex = encodeTexResource({ dim: TEX_DIM.D1, width: 8, base: BASE, format: FMT.F32 });
  // T1.X = l - 4 + 0.5 texels (unnormalized): lanes 0..3 and 12.. fall off the 8-texel line.
  const setup = ['  ADD_INT * T1.X, T0.X, literal.x,', lit(-4), '  INT_TO_FLT * T1.X, T1.X,', '  ADD * T1.X, T1.X, literal.x,', lit(B(0.5))];
  const samplers = new Map([0, 1, 2, 3].map((t) => [t, encodeTexSampler({ clamp: [TEX_CLAMP.CLAMP_BORDER, 0, 0], borderType: t })] as [number, Uint32Array]));
  samplers.set(4, encodeTexSampler({ clamp: [TEX_CLAMP.MIRROR, 0, 0] }));
  const r = runAsm(texProg(setup, [0, 1, 2, 3, 4].map((s) => `TEX_SAMPLE_LZ T${2 + s}.XYZW, T1.XYZW RID:0 SID:${s} CT:UNNN`)), {
    global, textures: new Map([[0, tex]]), samplers, borderColors: new Map([[3, [0.25, 0.5, 0.75, 1]]]),
  });
  assert.deepEqual(ids(r.diag), []);
  const inside = (l: number): boolean => l >= 4 && l < 12;
  const want = (border: number[]) => [0, 1, 2, 3].map((c) => lanes((_x, _y, l) => B(inside(l) ? [10 + l - 4, 0, 0, 1][c]! : border[c]!)));
  assert.deepEqual([0, 1, 2, 3].map((c) => r.reg(2, c)), want([0, 0, 0, 0]), 'transparent black');
  assert.deepEqual([0, 1, 2, 3].map((c) => r.reg(3, c)), want([0, 0, 0, 1]), 'opaque black');
  assert.deepEqual([0, 1, 2, 3].map((c) => r.reg(4, c)), want([1, 1, 1, 1]), 'opaque white');
  assert.deepEqual([0, 1, 2, 3].map((c) => r.reg(5, c)), want([0.25, 0.5, 0.75, 1]), 'register');
  assert.deepEqual(r.reg(6, 0), lanes((_x, _y, l) => B(10 + wrapIndex(TEX_CLAMP.MIRROR, l - 4, 8))), 'MIRROR');
});

test('texel formats: unsigned/signed/biased norm, int, scaled, half and float components', () => {
  const mem = new Uint8Array(256);
  const dv = new DataView(mem.buffer);
  const out = new Float64Array(4);
  const read = (format: number, f: Partial<Parameters<typeof encodeTexResource>[0]>): number[] => {
    const r = decodeTexResource(encodeTexResource({ width: 1, base: 0, format, ...f }));
    assert.equal(readTexel(r, texLevel(r, 0), dv, 0, 0, 0, out), undefined);
    return [...out];
  };
  mem.set([0, 127, 128, 255]);
  assert.deepEqual(read(FMT.RGBA8, {}), [0, 127 / 255, 128 / 255, 1]);
  assert.deepEqual(read(FMT.RGBA8, { comp: [1, 1, 1, 1] }), [0, 1, -1, -1 / 127], 'signed norm clamps -128 to -1');
  assert.deepEqual(read(FMT.RGBA8, { comp: [2, 2, 2, 2] }), [-1, -1 / 127, 0, 1], 'unsigned biased: raw - 128 on the signed scale');
  assert.deepEqual(read(FMT.RGBA8, { numFormat: 1, comp: [0, 1, 1, 0] }), [0, 127, 0xffffff80, 255], 'INT keeps integer patterns (signed sign-extends)');
  assert.deepEqual(read(FMT.RGBA8, { numFormat: 2 }), [0, 127, 128, 255], 'SCALED');
  dv.setUint16(0, 0x3c00, true); dv.setUint16(2, 0xc000, true); dv.setUint16(4, 0x0001, true); dv.setUint16(6, 0x7c00, true);
  assert.deepEqual(read(FMT.RGBA16F, {}), [1, -2, 2 ** -24, Infinity]);
  assert.deepEqual(read(FMT.F16, {}), [1, 0, 0, 1], 'one component: Y, Z read 0 and W 1');
  dv.setUint32(0, (3 | (512 << 2) | (1023 << 12) | (5 << 22)) >>> 0, true);
  assert.deepEqual(read(FMT.R10G10B10A2, { numFormat: 2 }), [3, 512, 1023, 5], 'FMT_2_10_10_10: X is the low 2 bits');
  [1.5, -2, 1e-3, 7].forEach((v, k) => dv.setFloat32(4 * k, v, true));
  assert.deepEqual(read(FMT.RGBA32F, {}), [1.5, -2, f(1e-3), 7]);
});

test('r600.tex.* diagnostics fire on unbound/invalid resources and samplers, unknown formats, tiling, memory and unmodelled ops', () => {
  const global = new Uint8Array(8192);
  const tex = mipTexture(global);
  const run = (line: string, textures: Map<number, Uint32Array>, samplers = new Map([[0, POINT_MIP]])): string[] =>
    ids(runAsm(texProg(SETUP, [line]), { global, textures, samplers }).diag);
  const line = 'TEX_SAMPLE_LZ T2.XYZW, T1.XYZW RID:0 SID:0 CT:NNNN';
  assert.deepEqual(run(line, new Map([[0, tex]])), [], 'quiet on a bound, valid texture');
  assert.deepEqual(run(line, new Map()), ['r600.tex.resource']);
  const invalid = Uint32Array.from(tex); invalid[7] = invalid[7]! & 0x3fffffff;
  assert.deepEqual(run(line, new Map([[0, invalid]])), ['r600.tex.resource'], 'TYPE 0: invalid texture');
  assert.deepEqual(run(line, new Map([[0, tex]]), new Map()), ['r600.tex.sampler']);
  const fmt = Uint32Array.from(tex); fmt[7] = (fmt[7]! & ~0x3f) | FMT.D24S8;
  assert.deepEqual(run(line, new Map([[0, fmt]])), ['r600.tex.format']);
  const tiled = Uint32Array.from(tex); tiled[1] = (tiled[1]! & 0x0fffffff) | (4 << 28);
  assert.deepEqual(run(line, new Map([[0, tiled]])), ['r600.tex.unsupported'], '2D tiled');
  const far = Uint32Array.from(tex); far[2] = 1000;
  assert.deepEqual(run(line, new Map([[0, far]])), ['r600.tex.out-of-range']);
  assert.deepEqual(run('TEX_GET_NUMBER_OF_SAMPLES T2.XYZW, T1.XYZW RID:0 SID:0 CT:NNNN', new Map([[0, tex]])), ['r600.tex.unsupported']);
  // SAMPLE_C_L on a 2D array: Z would be both the layer and the reference.
  const arr = encodeTexResource({ width: 8, height: 8, depth: 2, base: BASE, format: FMT.F32, dim: TEX_DIM.D2_ARRAY });
  assert.deepEqual(run('TEX_SAMPLE_C_L T2.XYZW, T1.XYZW RID:0 SID:0 CT:NNUN', new Map([[0, arr]])), ['r600.tex.unsupported']);
});

test('texture words print and assemble back, including the fields LLVM does not print', () => {
  const err = (m: string): never => { throw new Error(m); };
  for (const line of [
    'TEX_SAMPLE_C_G T2.X_0W, T1.ZYX1 RID:17 SID:9 CT:NUNU OX:-3 OY:5 OZ:-16 LB:-7 MOD:2 WQ SREL DREL ALT RIM:1 SIM:2',
    'TEX_SAMPLE T1.XYZW, T0.XY00 RID:0 SID:0 CT:UUNN',
    'TEX_GATHER4_C_O T127.WZYX, T126.XXXX RID:255 SID:31 CT:NNNN',
  ]) {
    const w = assembleTex('cayman', line, err);
    const f = decodeFetch(0, w[0], w[1], w[2], w[3], 'cayman');
    assert.ok(f.tex);
    assert.equal(printFetch(f, () => undefined), line);
  }
  // The same bits are SAMPLE_G_L on R700 and GATHER4 on Evergreen.
  const w = assembleTex('r700', 'TEX_SAMPLE_G_L T1.XYZW, T0.XYZW RID:0 SID:0 CT:NNNN', err);
  assert.equal(decodeTex('evergreen', w[0], w[1], w[2]).op?.name, 'GATHER4');
  assert.throws(() => assembleTex('evergreen', 'TEX_SAMPLE_G_L T1.XYZW, T0.XYZW RID:0 SID:0 CT:NNNN', err), /unknown texture instruction/);
});

test('SAMPLE_C_L / SAMPLE_C_LB take the reference in Z and the LOD (bias) in W; GATHER4_C compares the footprint; GATHER4_O / _C_O add SET_TEXTURE_OFFSETS', () => {
  const global = new Uint8Array(8192);
  const tex = mipTexture(global);
  const REF = 205, GREF = 109.5;
  const setup = [...SETUP,
    // T9 = (u, v, REF, 1.0) for SAMPLE_C_L; T10 = (u, v, REF, -1.0) for SAMPLE_C_LB; T11 = (u, v, 0, GREF).
    '  MOV T9.X, T1.X,', '  MOV T9.Y, T1.Y,', '  MOV T9.Z, literal.x,', '  MOV * T9.W, 1.0,', lit(B(REF)),
    '  MOV T10.X, T1.X,', '  MOV T10.Y, T1.Y,', '  MOV T10.Z, literal.x,', '  MOV * T10.W, literal.y,', lit(B(REF), B(-1)),
    '  MOV T11.X, T1.X,', '  MOV T11.Y, T1.Y,', '  MOV T11.Z, 0.0,', '  MOV * T11.W, literal.x,', lit(B(GREF)),
  ];
  const less = encodeTexSampler({ clamp: [2, 2, 2], mipFilter: 1, compare: 1 });
  const r = runAsm(texProg(setup, [
    'TEX_SAMPLE_C_L T2.XYZW, T9.XYZW RID:0 SID:1 CT:NNNN',
    'TEX_SAMPLE_C_LB T3.XYZW, T10.XYZW RID:0 SID:1 CT:NNNN',
    'TEX_GATHER4_C T4.XYZW, T11.XYZW RID:0 SID:1 CT:NNNN',
    // Per-pixel offsets (l & 3, 0, 0) texels from T5 (integers).
    'TEX_SET_TEXTURE_OFFSETS T0.____, T5.XZZZ RID:0 SID:0 CT:UUUU',
    'TEX_GATHER4_O T6.XYZW, T1.XYZW RID:0 SID:0 CT:NNNN',
    'TEX_GATHER4_C_O T8.XYZW, T11.XYZW RID:0 SID:1 CT:NNNN',
  ]), { global, textures: new Map([[0, tex]]), samplers: new Map([[0, POINT_MIP], [1, less]]) });
  assert.deepEqual(ids(r.diag), []);
  // C_L: LOD W = 1 -> level 1, texel (x, y) = 200 + x + 8y at the 4x4 texel centres; LESS: REF < texel.
  // C_LB: implicit LOD 2 (see above) + W (-1) = level 1 again. Reading the reference from W, or
  // ignoring the LOD, would give all ones.
  const lvl1 = lanes((x, y) => B(REF < 200 + x + 8 * y ? 1 : 0));
  for (let c = 0; c < 4; c++) {
    assert.deepEqual(r.reg(2, c), lvl1, `SAMPLE_C_L channel ${c}`);
    assert.deepEqual(r.reg(3, c), lvl1, `SAMPLE_C_LB channel ${c}`);
  }
  const t0 = (x: number, y: number): number => 100 + Math.min(x, 7) + 8 * Math.min(y, 7);
  const foot = (x0: number, y0: number): number[][] => [[x0, y0 + 1], [x0 + 1, y0 + 1], [x0 + 1, y0], [x0, y0]];
  for (let l = 0; l < 64; l++) {
    const x = l & 3, y = (l >> 2) & 3;
    const base = foot(2 * x, 2 * y), moved = foot(2 * x + x, 2 * y);
    assert.deepEqual([0, 1, 2, 3].map((c) => r.reg(4, c)[l]), base.map(([u, v]) => B(GREF < t0(u!, v!) ? 1 : 0)), `GATHER4_C lane ${l}`);
    assert.deepEqual([0, 1, 2, 3].map((c) => r.reg(6, c)[l]), moved.map(([u, v]) => B(t0(u!, v!))), `GATHER4_O lane ${l}`);
    assert.deepEqual([0, 1, 2, 3].map((c) => r.reg(8, c)[l]), moved.map(([u, v]) => B(GREF < t0(u!, v!) ? 1 : 0)), `GATHER4_C_O lane ${l}`);
  }
});

test('GET_LOD returns the computed LOD (X) and the LOD clamped to MAX_LOD (Y)', () => {
  const global = new Uint8Array(8192);
  const tex = mipTexture(global);
  const r = runAsm(texProg(SETUP, [
    'TEX_GET_LOD T2.XYZW, T1.XYZW RID:0 SID:0 CT:NNNN',
    'TEX_GET_LOD T3.XYZW, T1.XYZW RID:0 SID:1 CT:NNNN LB:8',
  ]), { global, textures: new Map([[0, tex]]), samplers: new Map([[0, POINT_MIP], [1, encodeTexSampler({ clamp: [2, 2, 2], mipFilter: 1, maxLod: 1.5, lodBias: 0.25 })]]) });
  assert.deepEqual(ids(r.diag), []);
  // u steps 0.25 across a quad on an 8-texel level 0: 2 texels per pixel horizontally, 4 vertically (0.5) -> log2(4) = 2.
  assert.deepEqual([0, 1, 2, 3].map((c) => r.reg(2, c)[9]), [B(2), B(2), 0, 0]);
  // Instruction LOD_BIAS 8/16 = 0.5 and sampler LOD_BIAS 0.25: 2.75, clamped to 1.5.
  assert.deepEqual([0, 1, 2, 3].map((c) => r.reg(3, c)[9]), [B(2.75), B(1.5), 0, 0]);
});
