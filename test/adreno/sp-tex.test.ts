/**
 * cat5 texture instructions (src/adreno/sp/tex.ts) through real descriptors: each test lays out
 * a texture in GPU memory (linear, or TILE6_3 through ubwc/tile6.ts), writes A6XX_TEX_CONST /
 * A6XX_TEX_SAMP by the register database's field names, loads them with CP_LOAD_STATE6 (or puts
 * them in a bindless set behind SP_CS_BINDLESS_BASE) and runs hand-assembled ir3 on the CP. The
 * expected values are computed here from the texel arrays with Vulkan's sampling formulas
 * (wrap, nearest, bilinear, mip selection), not by the code under test.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { assembleIr3 } from '../../src/adreno/ir3/asm.js';
import { runIr3Dispatch, type Ir3Manifest } from '../../src/adreno/sp/dispatch.js';
import { encodeFields, type Gen } from '../../src/adreno/regs/db.js';
import { hi32, lo32, type CmdStream } from '../../src/adreno/cp/builder.js';
import { defaultPitch, linearToTile6, mipLayout, paddedHeight, TILE6_A630 } from '../../src/adreno/ubwc/tile6.js';
import { FLAG_UNCOMPRESSED, linearToUbwc, ubwcLayout } from '../../src/adreno/ubwc/ubwc.js';
import { mulberry32 } from '../../src/core/prng.js';
import type { Segment } from '../../src/core/memory.js';
import { InputError } from '../../src/core/errors.js';
import { BODY } from './ir3-ibo-body.js';

const DIR = mkdtempSync(join(tmpdir(), 'sp-tex-'));
const f2u = (x: number): number => new Uint32Array(new Float32Array([x]).buffer)[0]!;
const u2f = (x: number): number => new Float32Array(new Uint32Array([x]).buffer)[0]!;

interface TexOpts {
  fmt: string;
  width: number;
  height?: number;
  depth?: number;
  pitch: number;
  type?: string;
  tile?: string;
  arrayPitch?: number;
  levels?: number;
  swiz?: [string, string, string, string];
  swap?: string;
}

function texDesc(gen: Gen, base: number, o: TexOpts): number[] {
  const d = new Array<number>(16).fill(0);
  const sw = o.swiz ?? ['A6XX_TEX_X', 'A6XX_TEX_Y', 'A6XX_TEX_Z', 'A6XX_TEX_W'];
  d[0] = encodeFields('A6XX_TEX_CONST.0', { TILE_MODE: o.tile ?? 'TILE6_LINEAR', SWIZ_X: sw[0], SWIZ_Y: sw[1], SWIZ_Z: sw[2], SWIZ_W: sw[3], MIPLVLS: (o.levels ?? 1) - 1, FMT: o.fmt, SWAP: o.swap ?? 'WZYX' }, gen);
  d[1] = encodeFields('A6XX_TEX_CONST.1', { WIDTH: o.width, HEIGHT: o.height ?? 1 }, gen);
  d[2] = encodeFields('A6XX_TEX_CONST.2', { PITCH: o.pitch, TYPE: o.type ?? 'A6XX_TEX_2D' }, gen);
  d[3] = encodeFields('A6XX_TEX_CONST.3', { ARRAY_PITCH: o.arrayPitch ?? 0 }, gen);
  d[4] = encodeFields('A6XX_TEX_CONST.4', { BASE_LO: lo32(base) }, gen);
  d[5] = encodeFields('A6XX_TEX_CONST.5', { BASE_HI: hi32(base), DEPTH: o.depth ?? 1 }, gen);
  return d;
}

interface SampOpts {
  mag?: string;
  min?: string;
  wrap?: string;
  unnorm?: boolean;
  mipLinear?: boolean;
  maxLod?: number;
  bcolor?: number;
  compare?: string;
}

function sampDesc(gen: Gen, o: SampOpts): number[] {
  const f = (x: string | undefined): string => `A6XX_TEX_${x ?? 'NEAREST'}`;
  const wrap = `A6XX_TEX_${o.wrap ?? 'CLAMP_TO_EDGE'}`;
  return [
    encodeFields('A6XX_TEX_SAMP.0', { XY_MAG: f(o.mag), XY_MIN: f(o.min), WRAP_S: wrap, WRAP_T: wrap, WRAP_R: wrap, MIPFILTER_LINEAR_NEAR: !!o.mipLinear }, gen),
    encodeFields('A6XX_TEX_SAMP.1', { UNNORM_COORDS: !!o.unnorm, MIPFILTER_LINEAR_FAR: !!o.mipLinear, MAX_LOD: Math.round((o.maxLod ?? 0) * 256), MIN_LOD: 0, COMPARE_FUNC: o.compare ?? 'FUNC_NEVER' }, gen),
    encodeFields('A6XX_TEX_SAMP.2', { BCOLOR: o.bcolor ?? 0 }, gen),
    0,
  ];
}

interface Setup {
  /** Texture bytes to place; the callback gets their addresses. */
  blobs: Uint8Array[];
  tex?: (addr: number[]) => number[][];
  samp?: number[][];
  /** Bindless sets: descriptors (16 dwords each, 64-byte stride). */
  bindless?: { set: number; descs: (addr: number[]) => number[][] } | { set: number; descs: (addr: number[]) => number[][] }[];
  border?: Float32Array;
}

function ls6(gen: Gen, type: string, n: number): number {
  return encodeFields('CP_LOAD_STATE6.0', { DST_OFF: 0, STATE_TYPE: type, STATE_SRC: 'SS6_INDIRECT', STATE_BLOCK: 'SB6_CS_TEX', NUM_UNIT: n }, gen);
}

let seq = 0;
/** Run one cat5 instruction per lane: SRC1 = in[lane].xyzw (r1), SRC2 = in[lane].zw.. (r2); returns r3.xyzw per lane. */
function run(gpuId: number, op: string, input: Uint32Array, s: Setup, pre = '', diags?: string[]): Uint32Array {
  const gen: Gen = gpuId >= 700 ? 'a7xx' : 'a6xx';
  const file = join(DIR, `in${seq++}.bin`);
  writeFileSync(file, new Uint8Array(input.buffer, input.byteOffset, input.byteLength));
  const m: Ir3Manifest = {
    dir: '.', shader: '(assembled)', gpuId, block: [64, 1, 1], groups: [1, 1, 1], waveSize: 64,
    localIdReg: 0, wgIdReg: 192, fullRegs: 6, halfRegs: 0, sharedSize: 0, constlen: 1, consts: new Uint32Array(4),
    buffers: [{ name: 'o', kind: 'ssbo', type: 'u32', count: 256, ibo: 0 }, { name: 'in', kind: 'ssbo', type: 'u32', count: 512, ibo: 1, file }],
    outputs: ['o'], expect: {},
  };
  const state = (cs: CmdStream, alloc: (b: Uint8Array, l: string) => Segment): void => {
    const addr = s.blobs.map((b, k) => alloc(b, `texture ${k}`).base);
    const put = (words: number[][], stride: number, label: string): Segment => {
      const a = new Uint32Array((words.length * stride) / 4);
      words.forEach((d, k) => a.set(d, (k * stride) / 4));
      return alloc(new Uint8Array(a.buffer), label);
    };
    if (s.tex) {
      const t = s.tex(addr);
      const seg = put(t, 64, 'tex descriptors');
      cs.pkt('CP_LOAD_STATE6_FRAG', [ls6(gen, 'ST6_CONSTANTS', t.length), lo32(seg.base), hi32(seg.base)]);
    }
    if (s.samp) {
      const seg = put(s.samp, 16, 'samplers');
      cs.pkt('CP_LOAD_STATE6_FRAG', [ls6(gen, 'ST6_SHADER', s.samp.length), lo32(seg.base), hi32(seg.base)]);
    }
    for (const set of s.bindless ? [s.bindless].flat() : []) {
      const seg = put(set.descs(addr), 64, 'bindless set');
      // DESC_SIZE 3 (BINDLESS_DESCRIPTOR_64B) in the low bits of the address.
      cs.reg64(`SP_CS_BINDLESS_BASE[${set.set}].DESCRIPTOR`, seg.base + 3);
    }
    if (s.border) {
      const seg = alloc(new Uint8Array(s.border.buffer.slice(0)), 'border colours');
      cs.reg64('SP_TP_BORDER_COLOR_BASE_ADDR', seg.base);
    }
  };
  const r = runIr3Dispatch(m, { words: assembleIr3(pre + BODY(op), { gpuId }), state });
  if (diags) diags.push(...r.diag.list.map((d) => d.id));
  else assert.deepEqual(r.diag.list.map((d) => d.id), []);
  return new Uint32Array(r.buffers.get('o')!.buffer.slice(0));
}

// Vulkan's texel wrap (the spec's formulas), -1 = border.
function wrapRef(mode: string, i: number, n: number): number {
  const mirror = (a: number): number => (a >= 0 ? a : -(1 + a));
  if (mode === 'REPEAT') return i - n * Math.floor(i / n);
  if (mode === 'CLAMP_TO_EDGE') return Math.max(0, Math.min(n - 1, i));
  if (mode === 'MIRROR_REPEAT') return n - 1 - mirror((i - 2 * n * Math.floor(i / (2 * n))) - n);
  if (mode === 'MIRROR_CLAMP') return Math.max(0, Math.min(n - 1, mirror(i)));
  return i < 0 || i >= n ? -1 : i;
}

test('isam reads a 2D TILE6_3 FMT6_8_8_8_8_UINT texture texel by texel (outside: 0)', () => {
  const W = 20, H = 12;
  const rng = mulberry32(7);
  const lin = new Uint8Array(W * H * 4).map(() => Math.floor(rng() * 256));
  const pitch = defaultPitch(W, 4, 'tile6_3');
  const tiled = linearToTile6(lin, W, H, 4, pitch, TILE6_A630);
  assert.equal(tiled.length, pitch * paddedHeight(H, 'tile6_3', 4));
  const input = new Uint32Array(512);
  for (let l = 0; l < 64; l++) {
    input[l * 8] = l === 63 ? W : (l * 7) % W;
    input[l * 8 + 1] = l === 62 ? -1 >>> 0 : (l * 5) % H;
  }
  for (const gpu of [630, 730]) {
    const gen: Gen = gpu >= 700 ? 'a7xx' : 'a6xx';
    const o = run(gpu, 'isam (u32)(xyzw)r3.x, r1.x, s#0, t#1', input, {
      blobs: [tiled],
      tex: ([a]) => [new Array(16).fill(0), texDesc(gen, a!, { fmt: 'FMT6_8_8_8_8_UINT', width: W, height: H, pitch, tile: 'TILE6_3' })],
    });
    for (let l = 0; l < 64; l++) {
      const x = input[l * 8]!, y = input[l * 8 + 1]!;
      const want = x < W && y < H ? [...lin.subarray((y * W + x) * 4, (y * W + x) * 4 + 4)] : [0, 0, 0, 0];
      assert.deepEqual([...o.subarray(l * 4, l * 4 + 4)], want, `gpu ${gpu} lane ${l} (${x}, ${y})`);
    }
  }
});

test('sam nearest applies each wrap mode (and the border colour) to normalized coordinates', () => {
  const W = 5, H = 3;
  const texels = Float32Array.from({ length: W * H }, (_, k) => 1.5 + k * 0.25);
  const pitch = 64;
  const img = new Uint8Array(pitch * H);
  for (let y = 0; y < H; y++) img.set(new Uint8Array(texels.buffer, y * W * 4, W * 4), y * pitch);
  const border = new Float32Array(64);
  border.set([0.25, 0.5, 0.75, 1], 32); // entry 1 (128 bytes in)
  const input = new Uint32Array(512);
  for (let l = 0; l < 64; l++) {
    input[l * 8] = f2u((((l % 21) - 7 + 0.3) / W));
    input[l * 8 + 1] = f2u(((Math.floor(l / 21) * 2 - 2 + 0.6) / H));
  }
  for (const mode of ['REPEAT', 'CLAMP_TO_EDGE', 'MIRROR_REPEAT', 'CLAMP_TO_BORDER', 'MIRROR_CLAMP']) {
    const o = run(630, 'sam (f32)(xyzw)r3.x, r1.x, s#0, t#0', input, {
      blobs: [img],
      tex: ([a]) => [texDesc('a6xx', a!, { fmt: 'FMT6_32_FLOAT', width: W, height: H, pitch })],
      samp: [sampDesc('a6xx', { wrap: mode, bcolor: 1 })],
      border,
    });
    for (let l = 0; l < 64; l++) {
      const x = wrapRef(mode, Math.floor(u2f(input[l * 8]!) * W), W);
      const y = wrapRef(mode, Math.floor(u2f(input[l * 8 + 1]!) * H), H);
      const want = x < 0 || y < 0 ? [0.25, 0.5, 0.75, 1] : [texels[y * W + x]!, 0, 0, 1];
      assert.deepEqual([...new Float32Array(o.buffer, l * 16, 4)], want, `${mode} lane ${l}`);
    }
  }
});

test('sam linear blends the 2x2 texels around u - 0.5 (FMT6_32_32_FLOAT, clamp to edge)', () => {
  const W = 4, H = 4, pitch = 64;
  const rng = mulberry32(11);
  const texels = Float32Array.from({ length: W * H * 2 }, () => Math.fround(rng() * 8 - 4));
  const img = new Uint8Array(pitch * H);
  for (let y = 0; y < H; y++) img.set(new Uint8Array(texels.buffer, y * W * 8, W * 8), y * pitch);
  const input = new Uint32Array(512);
  const uv: [number, number][] = [];
  for (let l = 0; l < 64; l++) {
    // Texel-space coordinates whose fractions are multiples of 1/16 (exact in 8 sub-texel bits).
    const u = -0.5 + (l % 11) * 0.4375, v = -0.25 + Math.floor(l / 11) * 0.8125;
    uv.push([u, v]);
    input[l * 8] = f2u(u / W);
    input[l * 8 + 1] = f2u(v / H);
  }
  const o = run(630, 'sam (f32)(xyzw)r3.x, r1.x, s#0, t#0', input, {
    blobs: [img],
    tex: ([a]) => [texDesc('a6xx', a!, { fmt: 'FMT6_32_32_FLOAT', width: W, height: H, pitch })],
    samp: [sampDesc('a6xx', { mag: 'LINEAR', min: 'LINEAR' })],
  });
  const at = (x: number, y: number, c: number): number => texels[(Math.max(0, Math.min(H - 1, y)) * W + Math.max(0, Math.min(W - 1, x))) * 2 + c]!;
  for (let l = 0; l < 64; l++) {
    const [u, v] = uv[l]!;
    const i0 = Math.floor(u - 0.5), j0 = Math.floor(v - 0.5);
    const a = u - 0.5 - i0, b = v - 0.5 - j0;
    for (let c = 0; c < 2; c++) {
      const want = (1 - a) * (1 - b) * at(i0, j0, c) + a * (1 - b) * at(i0 + 1, j0, c) + (1 - a) * b * at(i0, j0 + 1, c) + a * b * at(i0 + 1, j0 + 1, c);
      const got = new Float32Array(o.buffer, l * 16, 4)[c]!;
      assert.ok(Math.abs(got - want) <= 1e-6 * Math.max(1, Math.abs(want)), `lane ${l} c${c}: ${got} vs ${want}`);
    }
    assert.equal(new Float32Array(o.buffer, l * 16, 4)[3], 1);
  }
});

test('saml picks mip levels of an fdl6 mip chain (nearest, and linear between two levels)', () => {
  const W = 16, H = 8, LV = 3;
  const lay = mipLayout(W, H, 4, LV, 'linear');
  const img = new Uint8Array(lay[LV - 1]!.offset + lay[LV - 1]!.size);
  const dv = new DataView(img.buffer);
  const val = (l: number, x: number, y: number): number => Math.fround(l * 100 + y * 10 + x * 0.5);
  for (const L of lay) for (let y = 0; y < L.height; y++) for (let x = 0; x < L.width; x++) dv.setFloat32(L.offset + y * L.pitch + x * 4, val(L.level, x, y), true);
  const input = new Uint32Array(512);
  const lods = [0, 0.25, 0.5, 0.75, 1, 1.25, 1.5, 2, 2.5, 5];
  for (let l = 0; l < 64; l++) {
    input[l * 8] = f2u(((l * 3) % 16 + 0.5) / 16);
    input[l * 8 + 1] = f2u(((l * 5) % 8 + 0.5) / 8);
    input[l * 8 + 4] = f2u(lods[l % lods.length]!);
  }
  for (const mipLinear of [false, true]) {
    const o = run(630, 'saml (f32)(xyzw)r3.x, r1.x, r2.x, s#0, t#0', input, {
      blobs: [img],
      tex: ([a]) => [texDesc('a6xx', a!, { fmt: 'FMT6_32_FLOAT', width: W, height: H, pitch: lay[0]!.pitch, levels: LV })],
      samp: [sampDesc('a6xx', { mipLinear, maxLod: 15 })],
    });
    for (let l = 0; l < 64; l++) {
      const s = u2f(input[l * 8]!), t = u2f(input[l * 8 + 1]!), lod = u2f(input[l * 8 + 4]!);
      const at = (L: number): number => val(L, Math.floor(s * (W >> L)), Math.floor(t * (H >> L)));
      let want: number;
      if (lod <= 0) want = at(0);
      else if (!mipLinear) want = at(Math.min(LV - 1, Math.ceil(lod + 0.5) - 1));
      else {
        const d = Math.min(Math.floor(lod), LV - 1), d1 = Math.min(d + 1, LV - 1), f = lod - Math.floor(lod);
        want = at(d) * (1 - f) + at(d1) * f;
      }
      assert.ok(Math.abs(new Float32Array(o.buffer, l * 16, 1)[0]! - want) < 1e-4, `mipLinear ${mipLinear} lane ${l} lod ${lod}`);
    }
  }
});

test('sam.a.o: array layer, integer offsets, unnormalized coordinates, swizzle and the WXYZ swap', () => {
  const W = 6, H = 4, LAYERS = 3, pitch = 64;
  const rng = mulberry32(5);
  const lin = new Uint8Array(W * H * LAYERS * 4).map(() => Math.floor(rng() * 256));
  const apitch = 4096; // ARRAY_PITCH counts 4 KiB units
  const img = new Uint8Array(apitch * LAYERS);
  for (let z = 0; z < LAYERS; z++) for (let y = 0; y < H; y++) img.set(lin.subarray(((z * H + y) * W) * 4, ((z * H + y) * W + W) * 4), z * apitch + y * pitch);
  const input = new Uint32Array(512);
  for (let l = 0; l < 64; l++) {
    input[l * 8] = f2u((l % 9) * 0.75 - 0.6);
    input[l * 8 + 1] = f2u(Math.floor(l / 9) * 0.6);
    input[l * 8 + 2] = f2u((l % 5) * 0.7 - 0.6); // layer: rounded, clamped
    input[l * 8 + 4] = ((l % 3) - 1) >>> 0; // offsets
    input[l * 8 + 5] = ((l % 2) * 2 - 1) >>> 0;
  }
  const o = run(630, 'sam.a.o (f32)(xyzw)r3.x, r1.x, r2.x, s#0, t#0', input, {
    blobs: [img],
    tex: ([a]) => [texDesc('a6xx', a!, { fmt: 'FMT6_8_8_8_8_UNORM', width: W, height: H, depth: LAYERS, pitch, arrayPitch: apitch, swap: 'WXYZ', swiz: ['A6XX_TEX_Z', 'A6XX_TEX_W', 'A6XX_TEX_ONE', 'A6XX_TEX_X'] })],
    samp: [sampDesc('a6xx', { unnorm: true })],
  });
  for (let l = 0; l < 64; l++) {
    const x = Math.max(0, Math.min(W - 1, Math.floor(u2f(input[l * 8]!)) + (input[l * 8 + 4]! | 0)));
    const y = Math.max(0, Math.min(H - 1, Math.floor(u2f(input[l * 8 + 1]!)) + (input[l * 8 + 5]! | 0)));
    const z = Math.max(0, Math.min(LAYERS - 1, Math.floor(u2f(input[l * 8 + 2]!) + 0.5)));
    const p = lin.subarray(((z * H + y) * W + x) * 4);
    // Memory order r g b a; WXYZ swaps r and b; then the swizzle picks (z, w, 1, x).
    const rgba = [p[2]! / 255, p[1]! / 255, p[0]! / 255, p[3]! / 255];
    const want = [rgba[2]!, rgba[3]!, 1, rgba[0]!].map(Math.fround);
    assert.deepEqual([...new Float32Array(o.buffer, l * 16, 4)], want, `lane ${l}`);
  }
});

test('bindless and s2en sampling name descriptors per lane: BINDLESS_IMM, BINDLESS_NONUNIFORM, CAT5_UNIFORM', () => {
  const W = 4, pitch = 64;
  const imgs = [0, 1, 2].map((k) => {
    const b = new Uint8Array(pitch * 2);
    new Float32Array(b.buffer).set(Float32Array.from({ length: W }, (_, x) => k * 10 + x));
    return b;
  });
  const input = new Uint32Array(512);
  for (let l = 0; l < 64; l++) {
    input[l * 8] = f2u(((l % W) + 0.5) / W);
    input[l * 8 + 1] = f2u(0.25);
    input[l * 8 + 4] = 1 + (l % 2); // texture index (full vec2: texture, sampler)
    input[l * 8 + 5] = 3;
  }
  const empty = new Array<number>(16).fill(0);
  for (const gpu of [630, 730]) {
    const gen: Gen = gpu >= 700 ? 'a7xx' : 'a6xx';
    const t = (a: number): number[] => texDesc(gen, a, { fmt: 'FMT6_32_FLOAT', width: W, height: 2, pitch });
    const samp = [...sampDesc(gen, {}), ...new Array(12).fill(0)];
    const setup: Setup = { blobs: imgs, bindless: { set: 1, descs: (a) => [empty, t(a[1]!), t(a[2]!), samp] } };
    const imm = run(gpu, 'sam.base1 (f32)(xyzw)r3.x, r1.x, s#3, t#2', input, setup);
    const nonu = run(gpu, 'sam.s2en.nonuniform.base1 (f32)(xyzw)r3.x, r1.x, r2.x', input, setup);
    // Non-bindless s2en: a half vec2 (sampler, texture) from the state loaded by CP_LOAD_STATE6.
    const hin = input.slice();
    for (let l = 0; l < 64; l++) hin[l * 8 + 4] = 0 | ((l % 3) << 16);
    const uni = run(gpu, 'sam.s2en.uniform (f32)(xyzw)r3.x, r1.x, hr4.x', hin, { blobs: imgs, tex: (a) => a.map(t), samp: [sampDesc(gen, {})] });
    for (let l = 0; l < 64; l++) {
      const x = l % W;
      assert.equal(new Float32Array(imm.buffer)[l * 4], 20 + x, `gpu ${gpu} imm lane ${l}`);
      assert.equal(new Float32Array(nonu.buffer)[l * 4], (1 + (l % 2)) * 10 + x, `gpu ${gpu} nonuniform lane ${l}`);
      assert.equal(new Float32Array(uni.buffer)[l * 4], (l % 3) * 10 + x, `gpu ${gpu} s2en lane ${l}`);
    }
  }
});

test('CAT5_BINDLESS_A1_IMM: the sampler set in a1.x bits 0-2, the other index in a1.x bits 3+ (a6xx: texture, a7xx: sampler)', () => {
  const W = 4, pitch = 64;
  const imgs = [0, 1, 2, 3].map((k) => {
    const b = new Uint8Array(pitch * 2);
    new Float32Array(b.buffer).set(Float32Array.from({ length: W }, (_, x) => k * 10 + x));
    return b;
  });
  const input = new Uint32Array(512);
  for (let l = 0; l < 64; l++) {
    input[l * 8] = f2u(((l % W) + 0.5) / W);
    input[l * 8 + 1] = f2u(0.25);
  }
  for (const gpu of [630, 730]) {
    const gen: Gen = gpu >= 700 ? 'a7xx' : 'a6xx';
    const t = (a: number): number[] => texDesc(gen, a, { fmt: 'FMT6_32_FLOAT', width: W, height: 2, pitch });
    const nearest = [...sampDesc(gen, {}), ...new Array(12).fill(0)];
    // Textures in set 0; samplers in set 2: index 1 normalized, its neighbours unnormalized (a
    // wrong index would read texel 0 in every lane).
    const unnorm = [...sampDesc(gen, { unnorm: true }), ...new Array(12).fill(0)];
    const setup: Setup = { blobs: imgs, bindless: [{ set: 0, descs: (a) => a.map(t) }, { set: 2, descs: () => [unnorm, nearest, unnorm] }] };
    // a6xx: a1.x = texture 3 << 3 | sampler set 2, sampler index 1 in the instruction.
    // a7xx: a1.x = sampler 1 << 3 | sampler set 2, texture index 3 in the instruction.
    const op = gpu >= 700 ? 'sam.base0 (f32)(xyzw)r3.x, r1.x, t#3, a1.x' : 'sam.base0 (f32)(xyzw)r3.x, r1.x, s#1, a1.x';
    const o = run(gpu, op, input, setup, `mova1 a1.x, ${gpu >= 700 ? (1 << 3) | 2 : (3 << 3) | 2}\n`);
    for (let l = 0; l < 64; l++) assert.equal(new Float32Array(o.buffer)[l * 4], 30 + (l % W), `gpu ${gpu} lane ${l}`);
  }
});

test('getsize (per LOD), getinfo and getbuf read the descriptor', () => {
  const input = new Uint32Array(512);
  for (let l = 0; l < 64; l++) input[l * 8] = l % 4;
  const tex = (a: number[]): number[][] => [
    texDesc('a6xx', a[0]!, { fmt: 'FMT6_16_16_UINT', width: 40, height: 24, depth: 5, pitch: 256, levels: 4, type: 'A6XX_TEX_2D', arrayPitch: 256 * 24 }),
    texDesc('a6xx', a[0]!, { fmt: 'FMT6_8_8_8_8_UNORM', width: 7, height: 1, pitch: 64, swap: 'WXYZ' }),
  ];
  const setup = { blobs: [new Uint8Array(256 * 24 * 5)], tex };
  const size = run(630, 'getsize (u32)(xyzw)r3.x, r1.x, t#0', input, setup);
  for (let l = 0; l < 64; l++) {
    const lod = l % 4;
    assert.deepEqual([...size.subarray(l * 4, l * 4 + 4)], [Math.max(1, 40 >> lod), Math.max(1, 24 >> lod), Math.max(1, 5 >> lod), 5], `lane ${l}`);
  }
  const info0 = run(630, 'getinfo (u32)(xyzw)r3.x, t#0', input, setup);
  const info1 = run(630, 'getinfo (u32)(xyzw)r3.x, t#1', input, setup);
  // isaspec getinfo table: 16_UINT = 11, RG = 3; 8_UNORM = 2, BGRA = 10; levels; samples.
  assert.deepEqual([...info0.subarray(0, 4)], [11, 3, 4, 1]);
  assert.deepEqual([...info1.subarray(0, 4)], [2, 10, 1, 1]);
  const buf = run(630, 'getbuf (u32)(x)r3.x, t#0', input, {
    blobs: [new Uint8Array(4 * 70000)],
    tex: (a) => {
      const d = new Array<number>(16).fill(0);
      d[0] = encodeFields('A6XX_TEX_CONST.0', { FMT: 'FMT6_32_UINT' }, 'a6xx');
      d[1] = encodeFields('A6XX_TEX_CONST.1', { WIDTH: 70000 % 32768, HEIGHT: Math.floor(70000 / 32768) }, 'a6xx');
      d[2] = encodeFields('A6XX_TEX_CONST.2', { TYPE: 'A6XX_TEX_BUFFER' }, 'a6xx');
      d[4] = encodeFields('A6XX_TEX_CONST.4', { BASE_LO: lo32(a[0]!) }, 'a6xx');
      d[5] = encodeFields('A6XX_TEX_CONST.5', { BASE_HI: hi32(a[0]!) }, 'a6xx');
      return [d];
    },
  });
  for (let l = 0; l < 64; l++) assert.equal(buf[l * 4], 70000);
});

test('gather4r/g/b/a return one component of the 2x2 footprint in Vulkan order (i0,j1) (i1,j1) (i1,j0) (i0,j0)', () => {
  const W = 4, H = 4, pitch = 64;
  const rng = mulberry32(23);
  const texels = Float32Array.from({ length: W * H * 2 }, () => Math.fround(rng() * 10));
  const img = new Uint8Array(pitch * H);
  for (let y = 0; y < H; y++) img.set(new Uint8Array(texels.buffer, y * W * 8, W * 8), y * pitch);
  const input = new Uint32Array(512);
  for (let l = 0; l < 64; l++) {
    input[l * 8] = f2u(((l % 9) * 0.5 - 0.2) / W);
    input[l * 8 + 1] = f2u((Math.floor(l / 9) * 0.6 - 0.1) / H);
  }
  // (R, G) texels; swizzle (Y, X, ONE, ZERO): gather4r sees G, gather4g R, gather4b 1, gather4a 0.
  const setup: Setup = {
    blobs: [img],
    tex: ([a]) => [texDesc('a6xx', a!, { fmt: 'FMT6_32_32_FLOAT', width: W, height: H, pitch, swiz: ['A6XX_TEX_Y', 'A6XX_TEX_X', 'A6XX_TEX_ONE', 'A6XX_TEX_ZERO'] })],
    samp: [sampDesc('a6xx', { mag: 'LINEAR', min: 'LINEAR' })],
  };
  const at = (x: number, y: number, c: number): number => texels[(Math.max(0, Math.min(H - 1, y)) * W + Math.max(0, Math.min(W - 1, x))) * 2 + c]!;
  for (const [op, pick] of [['gather4r', (x: number, y: number) => at(x, y, 1)], ['gather4g', (x: number, y: number) => at(x, y, 0)], ['gather4b', () => 1], ['gather4a', () => 0]] as const) {
    const o = run(630, `${op} (f32)(xyzw)r3.x, r1.x, s#0, t#0`, input, setup);
    for (let l = 0; l < 64; l++) {
      const i0 = Math.floor(u2f(input[l * 8]!) * W - 0.5), j0 = Math.floor(u2f(input[l * 8 + 1]!) * H - 0.5);
      const want = [pick(i0, j0 + 1), pick(i0 + 1, j0 + 1), pick(i0 + 1, j0), pick(i0, j0)];
      assert.deepEqual([...new Float32Array(o.buffer, l * 16, 4)], want, `${op} lane ${l}`);
    }
  }
});

test('samgq takes the LOD from explicit gradients (log2 of the longer scaled gradient)', () => {
  const W = 16, H = 8, LV = 3;
  const lay = mipLayout(W, H, 4, LV, 'linear');
  const img = new Uint8Array(lay[LV - 1]!.offset + lay[LV - 1]!.size);
  const dv = new DataView(img.buffer);
  const val = (l: number, x: number, y: number): number => l * 100 + y * 10 + x;
  for (const L of lay) for (let y = 0; y < L.height; y++) for (let x = 0; x < L.width; x++) dv.setFloat32(L.offset + y * L.pitch + x * 4, val(L.level, x, y), true);
  const input = new Uint32Array(512);
  for (let l = 0; l < 64; l++) {
    input[l * 8] = f2u(((l * 3) % 16 + 0.5) / 16);
    input[l * 8 + 1] = f2u(((l * 5) % 8 + 0.5) / 8);
    const k = l % 3; // gradient 2^k texels along x (ddx) or y (ddy): LOD k
    if (l % 2) input[l * 8 + 4] = f2u(2 ** k / W);
    else input[l * 8 + 7] = f2u(2 ** k / H);
  }
  const o = run(630, 'samgq (f32)(xyzw)r3.x, r1.x, s#0, t#0', input, {
    blobs: [img],
    tex: ([a]) => [texDesc('a6xx', a!, { fmt: 'FMT6_32_FLOAT', width: W, height: H, pitch: lay[0]!.pitch, levels: LV })],
    samp: [sampDesc('a6xx', { maxLod: 15 })],
  });
  for (let l = 0; l < 64; l++) {
    const k = l % 3;
    const s = u2f(input[l * 8]!), t = u2f(input[l * 8 + 1]!);
    assert.equal(new Float32Array(o.buffer, l * 16, 1)[0], val(k, Math.floor(s * (W >> k)), Math.floor(t * (H >> k))), `lane ${l}`);
  }
});

test('cube maps: the major axis picks the face (Vulkan table), cube arrays add 6 layers per cube', () => {
  const N = 4, pitch = 64, apitch = 4096, CUBES = 2;
  const img = new Uint8Array(apitch * 6 * CUBES);
  const dv = new DataView(img.buffer);
  const val = (layer: number, x: number, y: number): number => layer * 100 + y * 10 + x;
  for (let L = 0; L < 6 * CUBES; L++) for (let y = 0; y < N; y++) for (let x = 0; x < N; x++) dv.setFloat32(L * apitch + y * pitch + x * 4, val(L, x, y), true);
  const rng = mulberry32(99);
  const input = new Uint32Array(512);
  const dirs: number[][] = [];
  for (let l = 0; l < 64; l++) {
    // A direction with a clear major axis (|major| >= 1.25 x the others), away from texel edges.
    const axis = l % 3, sign = (l >> 2) % 2 ? -1 : 1;
    const d = [rng() * 1.4 - 0.7, rng() * 1.4 - 0.7, rng() * 1.4 - 0.7];
    d[axis] = sign * (1 + rng());
    dirs.push(d);
    for (let k = 0; k < 3; k++) input[l * 8 + k] = f2u(d[k]!);
    input[l * 8 + 3] = f2u(l % 2);
  }
  // Vulkan's table: face, sc, tc, ma per major axis and sign.
  const table = (x: number, y: number, z: number): [number, number, number, number] => {
    const m = Math.max(Math.abs(x), Math.abs(y), Math.abs(z));
    if (m === Math.abs(x)) return x > 0 ? [0, -z, -y, x] : [1, z, -y, x];
    if (m === Math.abs(y)) return y > 0 ? [2, x, z, y] : [3, x, -z, y];
    return z > 0 ? [4, x, -y, z] : [5, -x, -y, z];
  };
  const o = run(630, 'sam.3d.a (f32)(xyzw)r3.x, r1.x, s#0, t#0', input, {
    blobs: [img],
    tex: ([a]) => [texDesc('a6xx', a!, { fmt: 'FMT6_32_FLOAT', width: N, height: N, depth: CUBES, pitch, arrayPitch: apitch, type: 'A6XX_TEX_CUBE' })],
    samp: [sampDesc('a6xx', { wrap: 'REPEAT' })],
  });
  for (let l = 0; l < 64; l++) {
    const [x, y, z] = dirs[l]!.map(Math.fround) as [number, number, number];
    const [face, sc, tc, ma] = table(x, y, z);
    const s = (sc / Math.abs(ma) + 1) / 2, t = (tc / Math.abs(ma) + 1) / 2;
    const want = val(face + 6 * (l % 2), Math.min(N - 1, Math.floor(s * N)), Math.min(N - 1, Math.floor(t * N)));
    assert.equal(new Float32Array(o.buffer, l * 16, 1)[0], want, `lane ${l} dir ${dirs[l]}`);
  }
});

test('sam.s compares the reference with each texel (COMPARE_FUNC) before filtering; Z24S8 and 32_FLOAT depth', () => {
  const W = 4, H = 4, pitch = 64;
  const rng = mulberry32(3);
  const depth = Array.from({ length: W * H }, () => Math.floor(rng() * 0xffffff));
  const z24 = new Uint8Array(pitch * H);
  const f32 = new Uint8Array(pitch * H);
  for (let y = 0; y < H; y++)
    for (let x = 0; x < W; x++) {
      new DataView(z24.buffer).setUint32(y * pitch + x * 4, depth[y * W + x]! | (0x5a << 24), true);
      new DataView(f32.buffer).setFloat32(y * pitch + x * 4, depth[y * W + x]! / 0xffffff, true);
    }
  const input = new Uint32Array(512);
  for (let l = 0; l < 64; l++) {
    input[l * 8] = f2u(((l % 8) * 0.5 + 0.25) / W);
    input[l * 8 + 1] = f2u((Math.floor(l / 8) * 0.5 + 0.25) / H);
    input[l * 8 + 2] = f2u(rng());
  }
  const ops: Record<string, (r: number, d: number) => boolean> = { FUNC_LESS: (r, d) => r < d, FUNC_GEQUAL: (r, d) => r >= d };
  for (const [fmt, img] of [['FMT6_Z24_UNORM_S8_UINT', z24], ['FMT6_32_FLOAT', f32]] as const)
    for (const [func, op] of Object.entries(ops)) {
      const o = run(630, 'sam.s (f32)(xyzw)r3.x, r1.x, s#0, t#0', input, {
        blobs: [img],
        tex: ([a]) => [texDesc('a6xx', a!, { fmt, width: W, height: H, pitch })],
        samp: [sampDesc('a6xx', { mag: 'LINEAR', min: 'LINEAR', compare: func })],
      });
      for (let l = 0; l < 64; l++) {
        const u = u2f(input[l * 8]!) * W - 0.5, v = u2f(input[l * 8 + 1]!) * H - 0.5, ref = u2f(input[l * 8 + 2]!);
        const i0 = Math.floor(u), j0 = Math.floor(v), a = u - i0, b = v - j0;
        const D = (x: number, y: number): number => {
          const d = depth[Math.max(0, Math.min(H - 1, y)) * W + Math.max(0, Math.min(W - 1, x))]! / 0xffffff;
          return op(ref, fmt === 'FMT6_32_FLOAT' ? Math.fround(d) : d) ? 1 : 0;
        };
        const want = (1 - a) * (1 - b) * D(i0, j0) + a * (1 - b) * D(i0 + 1, j0) + (1 - a) * b * D(i0, j0 + 1) + a * b * D(i0 + 1, j0 + 1);
        assert.ok(Math.abs(new Float32Array(o.buffer, l * 16, 1)[0]! - want) < 1e-6, `${fmt} ${func} lane ${l}`);
      }
    }
});

test('half coordinates and an f16 destination: sam (f16) hr', () => {
  const W = 8, H = 2, pitch = 64;
  const texels = Float32Array.from({ length: W * H }, (_, k) => 0.125 * k - 0.5);
  const img = new Uint8Array(pitch * H);
  for (let y = 0; y < H; y++) img.set(new Uint8Array(texels.buffer, y * W * 4, W * 4), y * pitch);
  const input = new Uint32Array(512);
  // f16 bits of (x + 0.5) / 8 and (y + 0.5) / 2: exact in f16.
  const h = (v: number): number => {
    const e = Math.floor(Math.log2(v));
    return ((e + 15) << 10) | Math.round((v / 2 ** e - 1) * 1024);
  };
  for (let l = 0; l < 64; l++) input[l * 8] = h(((l % W) + 0.5) / W) | (h((((l >> 3) % H) + 0.5) / H) << 16);
  const o = run(630, 'sam (f16)(xyzw)hr6.x, hr2.x, s#0, t#0', input, {
    blobs: [img],
    tex: ([a]) => [texDesc('a6xx', a!, { fmt: 'FMT6_32_FLOAT', width: W, height: H, pitch })],
    samp: [sampDesc('a6xx', {})],
  });
  const f16 = (b: number): number => (b & 0x8000 ? -1 : 1) * (((b >> 10) & 31) === 0 ? (b & 1023) * 2 ** -24 : (1 + (b & 1023) / 1024) * 2 ** (((b >> 10) & 31) - 15));
  for (let l = 0; l < 64; l++) {
    const r = o[l * 4]!, g = o[l * 4 + 1]!;
    assert.deepEqual([f16(r & 0xffff), f16(r >>> 16), f16(g & 0xffff), f16(g >>> 16)], [texels[((l >> 3) % H) * W + (l % W)]!, 0, 0, 1], `lane ${l}`);
  }
});

test('isam reads a UBWC 8888 texture: stored tiles through TILE6_3, fast-cleared tiles from their flag', () => {
  const W = 40, H = 12;
  const rng = mulberry32(41);
  const lin = new Uint8Array(W * H * 4);
  for (let y = 0; y < H; y++)
    for (let x = 0; x < W; x++) {
      const o = (y * W + x) * 4;
      const bx = Math.floor(x / 16), by = Math.floor(y / 4);
      // Some 16x4 macrotiles uniform (white opaque, black transparent): the writer fast-clears them.
      if ((bx + by) % 3 === 0) lin.set([255, 255, 255, 255], o);
      else if ((bx + by) % 3 === 1 && by === 1) lin.set([0, 0, 0, 0], o);
      else for (let k = 0; k < 4; k++) lin[o + k] = Math.floor(rng() * 256);
    }
  const lay = ubwcLayout(W, H, 4);
  const bytes = linearToUbwc(lin, lay, { alphaByte: 3 });
  const flags = [...bytes.subarray(0, lay.blocksY * lay.metaPitch)].filter((_, k) => k % lay.metaPitch < lay.blocksX);
  assert.ok(flags.some((f) => f !== FLAG_UNCOMPRESSED) && flags.some((f) => f === FLAG_UNCOMPRESSED), 'both fast-cleared and stored tiles');
  const input = new Uint32Array(512);
  const pts: [number, number][] = [];
  for (let l = 0; l < 64; l++) {
    const p: [number, number] = [(l * 13) % W, (l * 7) % H];
    pts.push(p);
    input[l * 8] = p[0];
    input[l * 8 + 1] = p[1];
  }
  const setupTex = ([a]: number[]): number[][] => {
      const d = texDesc('a6xx', a! + lay.dataOffset, { fmt: 'FMT6_8_8_8_8_UINT', width: W, height: H, pitch: lay.pitch, tile: 'TILE6_3' });
      d[3] = (d[3]! | encodeFields('A6XX_TEX_CONST.3', { FLAG: true, TILE_ALL: true }, 'a6xx')) >>> 0;
      d[7] = encodeFields('A6XX_TEX_CONST.7', { FLAG_LO: lo32(a!) }, 'a6xx');
      d[8] = encodeFields('A6XX_TEX_CONST.8', { FLAG_HI: hi32(a!) }, 'a6xx');
      d[10] = encodeFields('A6XX_TEX_CONST.10', { FLAG_BUFFER_PITCH: lay.metaPitch }, 'a6xx');
      return [d];
  };
  const o = run(630, 'isam (u32)(xyzw)r3.x, r1.x, s#0, t#0', input, { blobs: [bytes], tex: setupTex });
  for (let l = 0; l < 64; l++) {
    const [x, y] = pts[l]!;
    assert.deepEqual([...o.subarray(l * 4, l * 4 + 4)], [...lin.subarray((y * W + x) * 4, (y * W + x) * 4 + 4)], `lane ${l} (${x}, ${y})`);
  }
  // A tile compressed to 32 bytes (flag 0x11): its bitstream is not described, so the read is
  // reported (adreno.ubwc.compressed-tile) and gives zeros; the other tiles read as before.
  const [cx, cy] = pts[5]!;
  const bad = bytes.slice();
  bad[Math.floor(cy / 4) * lay.metaPitch + Math.floor(cx / 16)] = 0x11;
  const diags: string[] = [];
  const o2 = run(630, 'isam (u32)(xyzw)r3.x, r1.x, s#0, t#0', input, { blobs: [bad], tex: setupTex }, '', diags);
  assert.deepEqual(diags, ['adreno.ubwc.compressed-tile']);
  assert.deepEqual([...o2.subarray(5 * 4, 5 * 4 + 4)], [0, 0, 0, 0]);
  for (let l = 0; l < 64; l++) {
    const [x, y] = pts[l]!;
    if (Math.floor(x / 16) !== Math.floor(cx / 16) || Math.floor(y / 4) !== Math.floor(cy / 4)) assert.deepEqual([...o2.subarray(l * 4, l * 4 + 4)], [...o.subarray(l * 4, l * 4 + 4)], `lane ${l}`);
  }
});

test('isaml fetches from a mip level; isamm fetches one sample of a 4x multisampled TILE6_3 texture', () => {
  // isaml: FMT6_32_UINT 16x8 with 3 levels (fdl6 mip chain), level l % 3 at (x, y) inside it.
  const W = 16, H = 8, LV = 3;
  const lay = mipLayout(W, H, 4, LV, 'linear');
  const img = new Uint8Array(lay[LV - 1]!.offset + lay[LV - 1]!.size);
  const dv = new DataView(img.buffer);
  const val = (l: number, x: number, y: number): number => l * 1000 + y * 100 + x;
  for (const L of lay) for (let y = 0; y < L.height; y++) for (let x = 0; x < L.width; x++) dv.setUint32(L.offset + y * L.pitch + x * 4, val(L.level, x, y), true);
  const input = new Uint32Array(512);
  for (let l = 0; l < 64; l++) {
    const L = l % 3;
    input[l * 8] = (l * 5) % (W >> L);
    input[l * 8 + 1] = (l * 3) % (H >> L);
    input[l * 8 + 4] = L;
  }
  const o = run(630, 'isaml (u32)(xyzw)r3.x, r1.x, r2.x, s#0, t#0', input, {
    blobs: [img],
    tex: ([a]) => [texDesc('a6xx', a!, { fmt: 'FMT6_32_UINT', width: W, height: H, pitch: lay[0]!.pitch, levels: LV })],
  });
  for (let l = 0; l < 64; l++) assert.equal(o[l * 4], val(l % 3, input[l * 8]!, input[l * 8 + 1]!), `isaml lane ${l}`);

  // isamm: 4 samples of 4 bytes side by side per texel (fdl6: cpp x samples), tiled as 16-byte texels.
  const MW = 8, MH = 8, S = 4;
  const lin = Uint32Array.from({ length: MW * MH * S }, (_, k) => (k * 2654435761) >>> 0);
  const pitch = defaultPitch(MW, 4 * S, 'tile6_3');
  const tiled = linearToTile6(new Uint8Array(lin.buffer), MW, MH, 4 * S, pitch, TILE6_A630);
  const min = new Uint32Array(512);
  for (let l = 0; l < 64; l++) {
    min[l * 8] = (l * 3) % MW;
    min[l * 8 + 1] = (l * 5) % MH;
    min[l * 8 + 2] = l % S;
  }
  const om = run(630, 'isamm (u32)(xyzw)r3.x, r1.x, s#0, t#0', min, {
    blobs: [tiled],
    tex: ([a]) => {
      const d = texDesc('a6xx', a!, { fmt: 'FMT6_32_UINT', width: MW, height: MH, pitch, tile: 'TILE6_3' });
      d[0] = (d[0]! | encodeFields('A6XX_TEX_CONST.0', { SAMPLES: 'MSAA_FOUR' }, 'a6xx')) >>> 0;
      return [d];
    },
  });
  for (let l = 0; l < 64; l++) assert.equal(om[l * 4], lin[((min[l * 8 + 1]! * MW) + min[l * 8]!) * S + min[l * 8 + 2]!], `isamm lane ${l}`);
});

test('what the model cannot sample is one InputError naming it (unbound t#, unprogrammed bindless set)', () => {
  const input = new Uint32Array(512);
  const img = new Uint8Array(4096);
  const err = (op: string, s: Setup, re: RegExp): void => assert.throws(() => run(630, op, input, s), (e: unknown) => e instanceof InputError && re.test(e.message), op);
  err('sam (f32)(xyzw)r3.x, r1.x, s#0, t#2', { blobs: [img], tex: ([a]) => [texDesc('a6xx', a!, { fmt: 'FMT6_32_FLOAT', width: 4, height: 4, pitch: 64 })], samp: [sampDesc('a6xx', {})] }, /t#2, which the dispatch does not bind/);
  err('sam.base3 (f32)(xyzw)r3.x, r1.x, s#0, t#0', { blobs: [img] }, /set 3, whose SP_CS_BINDLESS_BASE is not programmed/);
});

test('TILE6_2 reads GMEM (a630: from 0x100000): outside a GMEM pass adreno.tex.gmem-outside-bin, at system memory adreno.tex.tile6-2-outside-gmem (zeros)', () => {
  const input = new Uint32Array(512);
  const img = new Uint8Array(4096).fill(0x3f);
  const tex = (base: number) => (): number[][] => [texDesc('a6xx', base, { fmt: 'FMT6_32_FLOAT', width: 4, height: 4, pitch: 64, tile: 'TILE6_2' })];
  for (const [base, id] of [[0x100000, 'adreno.tex.gmem-outside-bin'], [2 ** 33, 'adreno.tex.tile6-2-outside-gmem']] as const) {
    const diags: string[] = [];
    const o = run(630, 'sam (f32)(xyzw)r3.x, r1.x, s#0, t#0', input, { blobs: [img], tex: tex(base), samp: [sampDesc('a6xx', {})] }, '', diags);
    assert.deepEqual([...new Set(diags)], [id]);
    // GMEM never written and the zeros of an unmapped TILE6_2: red 0, never the 0x3f3f3f3f of memory.
    for (let l = 0; l < 64; l++) assert.equal(o[l * 4], 0, `${id} lane ${l}`);
  }
});

test('NaN coordinates and a NaN LOD read as 0 (no fault, no endless mip walk)', () => {
  const W = 16, H = 8, LV = 3;
  const lay = mipLayout(W, H, 4, LV, 'linear');
  const img = new Uint8Array(lay[LV - 1]!.offset + lay[LV - 1]!.size);
  const dv = new DataView(img.buffer);
  for (const L of lay) for (let y = 0; y < L.height; y++) for (let x = 0; x < L.width; x++) dv.setFloat32(L.offset + y * L.pitch + x * 4, L.level * 100 + y * 10 + x, true);
  const input = new Uint32Array(512);
  for (let l = 0; l < 64; l++) {
    input[l * 8] = l % 2 ? 0x7fc00000 : f2u((3 + 0.5) / W);
    input[l * 8 + 1] = l % 3 ? 0x7fc00000 : f2u((2 + 0.5) / H);
    input[l * 8 + 4] = 0x7fc00000;
  }
  const o = run(630, 'saml (f32)(xyzw)r3.x, r1.x, r2.x, s#0, t#0', input, {
    blobs: [img],
    tex: ([a]) => [texDesc('a6xx', a!, { fmt: 'FMT6_32_FLOAT', width: W, height: H, pitch: lay[0]!.pitch, levels: LV })],
    samp: [sampDesc('a6xx', { mipLinear: true, maxLod: 15, wrap: 'REPEAT' })],
  });
  for (let l = 0; l < 64; l++) assert.equal(new Float32Array(o.buffer, l * 16, 1)[0], (l % 3 ? 0 : 2) * 10 + (l % 2 ? 0 : 3), `lane ${l}`);
});

test('getlod: log2 of the quad\'s coordinate derivatives in texels, 8-bit fixed point (x clamped, y not)', () => {
  const W = 16, H = 8;
  const input = new Uint32Array(512);
  // Quad q spans a[q] texels per pixel in x and b[q] in y (fibers 4q+0/1 top row, 4q+2/3 bottom).
  const a = (q: number): number => 0.3 + q * 0.7;
  const b = (q: number): number => (q % 3) * 0.9 + 0.1;
  for (let l = 0; l < 64; l++) {
    const q = l >> 2;
    input[l * 8] = f2u((0.1 + (l & 1) * a(q)) / W);
    input[l * 8 + 1] = f2u((0.2 + ((l >> 1) & 1) * b(q)) / H);
  }
  const o = run(630, 'getlod (u32)(xy)r3.x, r1.x, s#0, t#0', input, {
    blobs: [new Uint8Array(64 * H * 2)],
    tex: ([base]) => [texDesc('a6xx', base!, { fmt: 'FMT6_32_FLOAT', width: W, height: H, pitch: 64, levels: 5 })],
    samp: [sampDesc('a6xx', { min: 'LINEAR', maxLod: 4 })],
  });
  const i32 = new Int32Array(o.buffer);
  for (let l = 0; l < 64; l++) {
    const q = l >> 2;
    // The coordinates went through f32: take the differences the shader sees.
    const du = (Math.fround((0.1 + a(q)) / W) - Math.fround(0.1 / W)) * W;
    const dv = (Math.fround((0.2 + b(q)) / H) - Math.fround(0.2 / H)) * H;
    const lambda = Math.log2(Math.max(Math.abs(du), Math.abs(dv)));
    assert.equal(i32[l * 4 + 1], Math.round(lambda * 256), `lane ${l} y (lambda ${lambda})`);
    assert.equal(i32[l * 4], Math.round(Math.min(Math.max(lambda, 0), 4) * 256), `lane ${l} x`);
  }
});
