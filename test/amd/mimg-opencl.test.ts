/**
 * OpenCL image kernels compiled by clang-19 (test/amd/kernels/images/images.cl; the image builtins
 * from clc-images.ll, which calls LLVM's llvm.amdgcn.image.* intrinsics, as libclc 19 has none for
 * amdgcn) for gfx1100, gfx1030 and gfx900, run through `gpusim run` manifests with `images` and
 * `samplers`, and checked against CPU references written here: linear layouts re-derived from
 * addrlib's rules (256-byte rows; GFX9 levels stacked at the level-0 pitch, GFX10.3+ smallest level
 * first), OpenCL/GL sampling (nearest, bilinear, trilinear, clamp/repeat/mirror/border), D3D resinfo
 * sizes, GL's gather order and LOD formula. The MIMG forms the kernels exercise (image_get_resinfo,
 * image_get_lod, image_load/store d16, a16, 3D, arrays, sample_l/_lz a16 d16, gather4 d16) are also
 * checked to disassemble as llvm-objdump-19 prints them. Skips without clang-19/ld.lld-19/libclc-19.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from '../../tools/gen/run.js';
import { parseManifest } from '../../src/runtime/manifest.js';
import { runManifest } from '../../src/runtime/run.js';
import { targets } from '../../src/amd/isa/targets.js';
import { loadCodeObject } from '../../src/formats/amdgpu/codeobject.js';
import { formatListing, listCodeObject } from '../../src/amd/isa/listing.js';
import { f16, f16bits } from '../../src/core/float.js';
import { mulberry32 } from '../../src/core/prng.js';

const SRC = join(ROOT, 'test/amd/kernels/images');
const LIBCLC = '/usr/lib/clc/amdgcn--amdhsa.bc';
const has = (t: string): boolean => spawnSync(t, ['--version'], { encoding: 'utf8' }).status === 0;
const SKIP = !has('clang-19') || !has('ld.lld-19') || !has('llvm-objdump-19') || !existsSync(LIBCLC) ? 'clang-19, ld.lld-19, llvm-objdump-19 or libclc-19 missing' : false;
const CPUS = ['gfx1100', 'gfx1030', 'gfx900'] as const;
type Cpu = (typeof CPUS)[number];

/** Compile images.cl for each target once (into a temporary directory removed at exit). */
const built = new Map<Cpu, string>();
let dir = '';
function build(cpu: Cpu): string {
  const have = built.get(cpu);
  if (have) return have;
  if (!dir) {
    dir = mkdtempSync(join(tmpdir(), 'gpusim-mimg-'));
    process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
    const r = spawnSync('clang-19', ['-target', 'amdgcn-amd-amdhsa', '-nogpulib', '-c', '-emit-llvm', '-x', 'ir', join(SRC, 'clc-images.ll'), '-o', join(dir, 'lib.bc')], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
  }
  const o = join(dir, `images.${cpu}.o`), co = join(dir, `images.${cpu}.co`);
  const r = spawnSync('clang-19', ['-x', 'cl', '-cl-std=CL2.0', '-target', 'amdgcn-amd-amdhsa', '-nogpulib', '-O2', '-cl-kernel-arg-info', `-mcpu=${cpu}`, `-I${SRC}`, `-I${join(ROOT, 'kernels/include')}`,
    '-Xclang', '-finclude-default-header', '-Xclang', '-mlink-builtin-bitcode', '-Xclang', join(dir, 'lib.bc'), '-Xclang', '-mlink-builtin-bitcode', '-Xclang', LIBCLC,
    '-Wno-linker-warnings', '-c', join(SRC, 'images.cl'), '-o', o], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  const l = spawnSync('ld.lld-19', ['-shared', o, '-o', co], { encoding: 'utf8' });
  assert.equal(l.status, 0, l.stderr);
  built.set(cpu, co);
  return co;
}

// ---- the CPU side: layouts and references ----------------------------------------------------

interface Img { w: number; h: number; d: number; levels: number; bytes: number }
/** Texel offset (in texels) of (x, y, slice, level) in the target's linear layout. */
function texelIndex(cpu: Cpu, im: Img, x: number, y: number, s: number, level: number): number {
  const pitchOf = (w: number): number => Math.ceil((w * im.bytes) / 256) * (256 / im.bytes);
  const lw = (i: number): number => Math.max(1, im.w >> i), lh = (i: number): number => Math.max(1, im.h >> i);
  if (cpu === 'gfx900') {
    // Levels under each other at the level-0 pitch; a slice is the whole column.
    const p = pitchOf(im.w);
    let rows = 0;
    for (let i = 0; i < level; i++) rows += lh(i);
    let chain = 0;
    for (let i = 0; i < im.levels; i++) chain += lh(i);
    return s * p * chain + (rows + y) * p + x;
  }
  // GFX10.3/GFX11: the smallest level first, each level its own pitch; a slice is the whole chain.
  let before = 0, chain = 0;
  for (let i = im.levels - 1; i >= 0; i--) {
    if (i === level) before = chain;
    chain += pitchOf(lw(i)) * lh(i);
  }
  return s * chain + before + y * pitchOf(lw(level)) + x;
}
/** Texels of the whole image: slices of one mip chain each. */
function texelCount(cpu: Cpu, im: Img): number {
  return im.d * (texelIndex(cpu, im, 0, 0, 1, 0) - texelIndex(cpu, im, 0, 0, 0, 0));
}
/** Round half to even (sampled array layers). */
function rint(x: number): number {
  const r = Math.round(x);
  return r - x === 0.5 && r % 2 !== 0 ? r - 1 : r;
}

type Texel = readonly [number, number, number, number];
/** A buffer holding `fn`'s texels (4 channels each) at their layout positions. */
function texelValues(cpu: Cpu, im: Img, fn: (x: number, y: number, s: number, level: number) => Texel): number[] {
  const out = new Array<number>(texelCount(cpu, im) * 4).fill(0);
  for (let lv = 0; lv < im.levels; lv++) {
    for (let s = 0; s < im.d; s++) {
      for (let y = 0; y < Math.max(1, im.h >> lv); y++) {
        for (let x = 0; x < Math.max(1, im.w >> lv); x++) {
          const k = texelIndex(cpu, im, x, y, s, lv) * 4;
          fn(x, y, s, lv).forEach((c, i) => { out[k + i] = c; });
        }
      }
    }
  }
  return out;
}

type Address = 'repeat' | 'mirror' | 'clamp' | 'border';
/** A texel index after the addressing mode (-1: the border). */
function address(mode: Address, i: number, n: number): number {
  if (mode === 'repeat') return ((i % n) + n) % n;
  if (mode === 'mirror') { const p = ((i % (2 * n)) + 2 * n) % (2 * n); return p < n ? p : 2 * n - 1 - p; }
  if (mode === 'clamp') return Math.min(n - 1, Math.max(0, i));
  return i < 0 || i >= n ? -1 : i;
}
/** Point or (bi/tri)linear sampling of one level at texel-space coordinates (OpenCL 1.2 section 8.2). */
function sampleRef(get: (x: number, y: number, z: number) => Texel, size: readonly number[], c: readonly number[], linear: boolean, mode: Address): number[] {
  const taps: [number[], number][] = [[[], 1]];
  for (let a = 0; a < size.length; a++) {
    const next: [number[], number][] = [];
    const n = size[a]!;
    if (!linear) {
      for (const [p, wt] of taps) next.push([[...p, address(mode, Math.floor(c[a]!), n)], wt]);
    } else {
      const f = c[a]! - 0.5, i0 = Math.floor(f), fr = f - i0;
      for (const [p, wt] of taps) {
        next.push([[...p, address(mode, i0, n)], wt * (1 - fr)]);
        next.push([[...p, address(mode, i0 + 1, n)], wt * fr]);
      }
    }
    taps.splice(0, taps.length, ...next);
  }
  const out = [0, 0, 0, 0];
  for (const [p, wt] of taps) {
    if (wt === 0) continue;
    const t: Texel = p.some((q) => q < 0) ? [0, 0, 0, 0] : get(p[0]!, p[1] ?? 0, p[2] ?? 0);
    for (let k = 0; k < 4; k++) out[k]! += wt * t[k]!;
  }
  return out;
}

function close(got: ArrayLike<number>, want: ArrayLike<number>, tol: number, what: string): void {
  assert.equal(got.length, want.length, `${what}: length`);
  for (let i = 0; i < want.length; i++) {
    const ok = Number.isNaN(want[i]!) ? Number.isNaN(got[i]!) : Math.abs(got[i]! - want[i]!) <= tol * Math.max(1, Math.abs(want[i]!));
    assert.ok(ok, `${what}[${i}]: got ${got[i]}, want ${want[i]}`);
  }
}

interface Launch {
  kernel: string; grid: number[]; block?: number[];
  buffers: Record<string, unknown>; images?: Record<string, unknown>; samplers?: Record<string, unknown>; args: unknown[];
}
function run(cpu: Cpu, l: Launch): Record<string, Uint8Array> {
  const m = parseManifest({ codeObject: build(cpu), kernel: l.kernel, grid: l.grid, block: l.block ?? l.grid.map((g) => Math.min(g, 8)), buffers: l.buffers, images: l.images, samplers: l.samplers, args: l.args }, '<test>', dir);
  const r = runManifest(m);
  assert.deepEqual(r.report.diagnostics.map((d) => `${d.id}: ${d.message}`), [], `${cpu} ${l.kernel}: diagnostics`);
  assert.equal(r.report.aborted, false);
  return r.buffers;
}
const F32 = (u: Uint8Array): Float32Array => new Float32Array(u.buffer, u.byteOffset, u.byteLength / 4);
const I32 = (u: Uint8Array): Int32Array => new Int32Array(u.buffer, u.byteOffset, u.byteLength / 4);
const H16 = (u: Uint8Array): number[] => Array.from(new Uint16Array(u.buffer, u.byteOffset, u.byteLength / 2), (h) => f16(h));

const RGBA32F = '32_32_32_32_FLOAT';

for (const cpu of CPUS) {
  test(`${cpu}: clang-19 image kernels disassemble as llvm-objdump-19 prints them`, { skip: SKIP }, () => {
    const co = build(cpu);
    const norm = (text: string): string[] => text.split('\n').map((x) => /^\t(.*?)\s*\/\/ ([0-9A-F]+): ([0-9A-F ]+)/.exec(x)).filter((x) => x !== null).map((x) => `${x![2]}: ${x![3]} | ${x![1]!.replace(/\s+/g, ' ')}`);
    const theirs = norm(spawnSync('llvm-objdump-19', ['-d', `--mcpu=${cpu}`, co], { encoding: 'utf8' }).stdout);
    const ours = norm(formatListing(listCodeObject(targets[cpu], loadCodeObject(new Uint8Array(readFileSync(co)), co))));
    const images = theirs.filter((x) => x.includes('image_'));
    // every form the kernels are about: queries, d16, a16, 3D, arrays, gather
    for (const want of [/image_get_resinfo/, /image_get_lod/, /image_load .* d16/, /image_store .* d16/, /image_load .* a16/, /image_sample_l .* a16/, /image_sample_lz .* a16 d16/, /image_gather4_lz .* d16/]) {
      assert.ok(images.some((x) => want.test(x)), `${cpu}: no ${want.source}`);
    }
    assert.deepEqual(ours.filter((x) => x.includes('image_')), images);
    assert.equal(ours.length, theirs.length);
  });

  test(`${cpu}: get_image_* and image_get_resinfo per level`, { skip: SKIP }, () => {
    const a: Img = { w: 8, h: 4, d: 1, levels: 4, bytes: 16 }, b: Img = { w: 5, h: 3, d: 2, levels: 1, bytes: 4 }, c: Img = { w: 4, h: 4, d: 3, levels: 1, bytes: 16 };
    const out = I32(run(cpu, {
      kernel: 'sizes', grid: [1],
      buffers: { ta: { type: 'f32', count: texelCount(cpu, a) * 4 }, tb: { type: 'u8', count: texelCount(cpu, b) * 4 }, tc: { type: 'f32', count: texelCount(cpu, c) * 4 }, out: { type: 'i32', count: 32 } },
      images: { a: { buffer: 'ta', type: '2d', format: RGBA32F, width: 8, height: 4, levels: 4 }, b: { buffer: 'tb', type: '3d', format: '8_8_8_8_UNORM', width: 5, height: 3, depth: 2 }, c: { buffer: 'tc', type: '2d_array', format: RGBA32F, width: 4, height: 4, layers: 3 } },
      args: ['a', 'b', 'c', 'out'],
    }).out!);
    const want = [8, 4, 5, 3, 2, 3, 4, 0];
    // D3D resinfo: (width, height, 0 for 2D, levels); a level past the last returns sizes of 0.
    for (let l = 0; l < 5; l++) want.push(l < 4 ? Math.max(1, 8 >> l) : 0, l < 4 ? Math.max(1, 4 >> l) : 0, 0, 4);
    assert.deepEqual(Array.from(out.subarray(0, 28)), want);
  });

  test(`${cpu}: read_imagef with samplers (normalized/unnormalized, nearest/linear, four address modes)`, { skip: SKIP }, () => {
    const im: Img = { w: 5, h: 4, d: 1, levels: 1, bytes: 16 };
    const tex = (x: number, y: number): Texel => [x, y, x * 10 + y, 1 + (x ^ y) / 4];
    const rnd = mulberry32(22);
    const N = 48;
    for (const [s, normalized, filter, addr] of [['n_nearest_clamp', true, 'nearest', 'clamp'], ['n_linear_repeat', true, 'linear', 'repeat'], ['u_linear_border', false, 'linear', 'border'], ['n_nearest_mirror', true, 'nearest', 'mirror'], ['u_nearest_clamp', false, 'nearest', 'clamp']] as const) {
      const uv: number[] = [];
      for (let i = 0; i < N; i++) uv.push(normalized ? -0.6 + rnd() * 2.2 : -1.5 + rnd() * 8, normalized ? -0.6 + rnd() * 2.2 : -1.5 + rnd() * 7);
      const f = Float32Array.from(uv);
      const out = F32(run(cpu, {
        kernel: 'sample2d', grid: [N],
        buffers: { tex: { type: 'f32', count: texelCount(cpu, im) * 4, init: { values: texelValues(cpu, im, tex) } }, uv: { type: 'f32', count: 2 * N, init: { values: Array.from(f) } }, out: { type: 'f32', count: 4 * N } },
        images: { img: { buffer: 'tex', format: RGBA32F, width: im.w, height: im.h } }, samplers: { s: { normalized, filter, address: addr } },
        args: ['img', 's', 'uv', 'out'],
      }).out!);
      const want: number[] = [];
      for (let i = 0; i < N; i++) {
        const u = f[2 * i]! * (normalized ? im.w : 1), v = f[2 * i + 1]! * (normalized ? im.h : 1);
        want.push(...sampleRef((x, y) => tex(x, y), [im.w, im.h], [u, v], filter === 'linear', addr));
      }
      close(out, want, 2e-6, `${cpu} ${s}`);
    }
  });

  test(`${cpu}: read_imagef/read_imagei with integer coordinates (UNORM, SINT; misses read 0)`, { skip: SKIP }, () => {
    const im: Img = { w: 5, h: 3, d: 1, levels: 1, bytes: 4 };
    const byte = (x: number, y: number, c: number): number => (x * 37 + y * 91 + c * 53 + 7) & 255;
    const out = F32(run(cpu, {
      kernel: 'load2d', grid: [7, 5],
      buffers: { tex: { type: 'u8', count: texelCount(cpu, im) * 4, init: { values: texelValues(cpu, im, (x, y) => [byte(x, y, 0), byte(x, y, 1), byte(x, y, 2), byte(x, y, 3)]) } }, out: { type: 'f32', count: 4 * 35 } },
      images: { img: { buffer: 'tex', format: '8_8_8_8_UNORM', width: 5, height: 3 } }, args: ['img', 'out'],
    }).out!);
    const want: number[] = [];
    for (let y = -1; y < 4; y++) for (let x = -1; x < 6; x++) for (let c = 0; c < 4; c++) want.push(x >= 0 && x < 5 && y >= 0 && y < 3 ? byte(x, y, c) / 255 : 0);
    close(out, want, 1e-7, `${cpu} load2d`);
    const si: Img = { w: 4, h: 2, d: 1, levels: 1, bytes: 8 };
    const sv = (x: number, y: number, c: number): number => (x - 2) * 9000 + y * 77 - c * 1234;
    const outi = I32(run(cpu, {
      kernel: 'loadi', grid: [4, 2],
      buffers: { tex: { type: 'i16', count: texelCount(cpu, si) * 4, init: { values: texelValues(cpu, si, (x, y) => [sv(x, y, 0), sv(x, y, 1), sv(x, y, 2), sv(x, y, 3)]) } }, out: { type: 'i32', count: 32 } },
      images: { img: { buffer: 'tex', format: '16_16_16_16_SINT', width: 4, height: 2 } }, args: ['img', 'out'],
    }).out!);
    const wi: number[] = [];
    for (let y = 0; y < 2; y++) for (let x = 0; x < 4; x++) for (let c = 0; c < 4; c++) wi.push(sv(x, y, c));
    assert.deepEqual(Array.from(outi), wi);
  });

  test(`${cpu}: write_imagef converts to UNORM (clamped, rounded to nearest)`, { skip: SKIP }, () => {
    const im: Img = { w: 4, h: 2, d: 1, levels: 1, bytes: 4 };
    const vals = [-1, 0, 0.2, 0.5, 1 / 255, 0.999, 1, 7, 0.25, 0.75, 0.1, 0.9, NaN, 0.0019, 0.498, 0.502];
    const input = Array.from({ length: 32 }, (_, i) => vals[(i * 5) % vals.length]!);
    const tex = run(cpu, {
      kernel: 'write2d', grid: [4, 2],
      buffers: { tex: { type: 'u8', count: texelCount(cpu, im) * 4 }, in: { type: 'f32', count: 32, init: { values: input.map((x) => (Number.isNaN(x) ? 'NaN' : x)) } } },
      images: { img: { buffer: 'tex', format: '8_8_8_8_UNORM', width: 4, height: 2 } }, args: ['img', 'in'],
    }).tex!;
    for (let y = 0; y < 2; y++) {
      for (let x = 0; x < 4; x++) {
        for (let c = 0; c < 4; c++) {
          const n = Math.fround(input[(y * 4 + x) * 4 + c]!);
          const want = !(n > 0) ? 0 : n >= 1 ? 255 : Math.floor(n * 255 + 0.5);
          assert.equal(tex[texelIndex(cpu, im, x, y, 0, 0) * 4 + c], want, `(${x},${y}).${c} from ${n}`);
        }
      }
    }
  });

  test(`${cpu}: half images: read_imageh / write_imageh (d16 loads, stores and samples)`, { skip: SKIP }, () => {
    const im: Img = { w: 4, h: 4, d: 1, levels: 1, bytes: 8 };
    const hv = (x: number, y: number, c: number): number => f16(f16bits((x - 1.5) * 0.375 + y * 3.25 + c / 7));
    const fill = (x: number, y: number): Texel => [hv(x, y, 0), hv(x, y, 1), hv(x, y, 2), hv(x, y, 3)];
    const r = run(cpu, {
      kernel: 'halves', grid: [4, 4],
      buffers: { src: { type: 'f16', count: texelCount(cpu, im) * 4, init: { values: texelValues(cpu, im, fill) } }, dst: { type: 'f16', count: texelCount(cpu, im) * 4 }, out: { type: 'f16', count: 64 } },
      images: { a: { buffer: 'src', format: '16_16_16_16_FLOAT', width: 4, height: 4 }, b: { buffer: 'dst', format: '16_16_16_16_FLOAT', width: 4, height: 4 } },
      samplers: { s: { normalized: true, filter: 'nearest', address: 'clamp' } },
      args: ['a', 'b', 's', 'out'],
    });
    const dst = H16(r.dst!), out = H16(r.out!);
    for (let y = 0; y < 4; y++) {
      for (let x = 0; x < 4; x++) {
        for (let c = 0; c < 4; c++) {
          assert.equal(dst[texelIndex(cpu, im, x, y, 0, 0) * 4 + c], f16(f16bits(hv(x, y, c) * 2)), `dst (${x},${y}).${c}`);
          assert.equal(out[(y * 4 + x) * 4 + c], hv(x, y, c), `sampled (${x},${y}).${c}`);
        }
      }
    }
  });

  test(`${cpu}: 3D images: integer loads and trilinear samples`, { skip: SKIP }, () => {
    const im: Img = { w: 3, h: 2, d: 4, levels: 1, bytes: 16 };
    const tex = (x: number, y: number, z: number): Texel => [x, y, z, x + 3 * y + 6 * z];
    const texels = { type: 'f32', count: texelCount(cpu, im) * 4, init: { values: texelValues(cpu, im, (x, y, s) => tex(x, y, s)) } };
    const image = { img: { buffer: 'tex', type: '3d', format: RGBA32F, width: 3, height: 2, depth: 4 } };
    const out = F32(run(cpu, { kernel: 'load3d', grid: [3, 2, 4], buffers: { tex: texels, out: { type: 'f32', count: 4 * 24 } }, images: image, args: ['img', 'out'] }).out!);
    const want: number[] = [];
    for (let z = 0; z < 4; z++) for (let y = 0; y < 2; y++) for (let x = 0; x < 3; x++) want.push(...tex(x, y, z));
    assert.deepEqual(Array.from(out), want);
    const rnd = mulberry32(3);
    const N = 32;
    const uvw = Float32Array.from({ length: 4 * N }, (_, i) => (i % 4 === 3 ? 0 : -0.3 + rnd() * 1.6));
    const got = F32(run(cpu, {
      kernel: 'sample3d', grid: [N], buffers: { tex: texels, uvw: { type: 'f32', count: 4 * N, init: { values: Array.from(uvw) } }, out: { type: 'f32', count: 4 * N } },
      images: image, samplers: { s: { normalized: true, filter: 'linear', address: 'clamp' } }, args: ['img', 's', 'uvw', 'out'],
    }).out!);
    const w3: number[] = [];
    for (let i = 0; i < N; i++) w3.push(...sampleRef(tex, [3, 2, 4], [uvw[4 * i]! * 3, uvw[4 * i + 1]! * 2, uvw[4 * i + 2]! * 4], true, 'clamp'));
    close(got, w3, 2e-6, `${cpu} sample3d`);
  });

  test(`${cpu}: 2D arrays: integer loads and sampled reads pick the layer`, { skip: SKIP }, () => {
    const im: Img = { w: 4, h: 4, d: 3, levels: 1, bytes: 16 };
    const tex = (x: number, y: number, s: number): Texel => [x, y, s, 100 * s + 10 * y + x];
    const N = 16;
    const rnd = mulberry32(5);
    const uvl: number[] = [];
    for (let i = 0; i < N; i++) uvl.push(Math.floor(rnd() * 4) + 0.25, Math.floor(rnd() * 4) + 0.75, -0.9 + rnd() * 4.3, 0);
    const f = Float32Array.from(uvl);
    const out = F32(run(cpu, {
      kernel: 'array2d', grid: [N],
      buffers: { tex: { type: 'f32', count: texelCount(cpu, im) * 4, init: { values: texelValues(cpu, im, tex) } }, uvl: { type: 'f32', count: 4 * N, init: { values: Array.from(f) } }, out: { type: 'f32', count: 8 * N } },
      images: { img: { buffer: 'tex', type: '2d_array', format: RGBA32F, width: 4, height: 4, layers: 3 } },
      samplers: { s: { normalized: false, filter: 'nearest', address: 'clamp' } }, args: ['img', 's', 'uvl', 'out'],
    }).out!);
    const want: number[] = [];
    for (let i = 0; i < N; i++) {
      const x = Math.trunc(f[4 * i]!), y = Math.trunc(f[4 * i + 1]!), l = Math.trunc(f[4 * i + 2]!) | 0;
      want.push(...(l >= 0 && l < 3 ? tex(x, y, l) : [0, 0, 0, 0]));
      // Sampled layers round to nearest even and clamp to the view (OpenCL: clamp(rint(layer), 0, layers - 1)).
      const rl = Math.min(2, Math.max(0, rint(f[4 * i + 2]!)));
      want.push(...tex(Math.floor(f[4 * i]!), Math.floor(f[4 * i + 1]!), rl));
    }
    assert.deepEqual(Array.from(out), want);
  });

  test(`${cpu}: a16: 16-bit integer and f16 coordinates (image_load, image_sample_l, image_sample_lz d16)`, { skip: SKIP }, () => {
    const im: Img = { w: 8, h: 8, d: 1, levels: 1, bytes: 16 };
    const tex = (x: number, y: number): Texel => [x / 8, y / 8, (x * y) / 64, 1 - x / 16];
    const N = 64;
    const rnd = mulberry32(16);
    // f16-exact coordinates (multiples of 1/128) and LODs.
    const uvl = Array.from({ length: 4 * N }, (_, i) => (i % 4 === 3 ? 0 : i % 4 === 2 ? Math.floor(rnd() * 4) / 2 : Math.floor(rnd() * 160 - 16) / 128));
    const r = run(cpu, {
      kernel: 'a16', grid: [N],
      buffers: { tex: { type: 'f32', count: texelCount(cpu, im) * 4, init: { values: texelValues(cpu, im, tex) } }, uvl: { type: 'f32', count: 4 * N, init: { values: uvl } }, out: { type: 'f32', count: 8 * N }, hout: { type: 'f16', count: 4 * N } },
      images: { img: { buffer: 'tex', format: RGBA32F, width: 8, height: 8 } }, samplers: { s: { normalized: true, filter: 'linear', address: 'clamp' } },
      args: ['img', 's', 'uvl', 'out', 'hout'],
    });
    const out = F32(r.out!), h = H16(r.hout!);
    for (let i = 0; i < N; i++) {
      close(out.subarray(8 * i, 8 * i + 4), tex(i % 8, Math.floor(i / 8)), 0, `load a16 ${i}`);
      const s = sampleRef(tex, [8, 8], [uvl[4 * i]! * 8, uvl[4 * i + 1]! * 8], true, 'clamp');
      close(out.subarray(8 * i + 4, 8 * i + 8), s, 2e-6, `sample_l a16 ${i}`);
      // d16: the f16 of the filtered value (one f16 step of slack for the f32 weights).
      close(h.slice(4 * i, 4 * i + 4), s.map((x) => f16(f16bits(x))), 1e-3, `sample_lz a16 d16 ${i}`);
    }
  });

  test(`${cpu}: mip chains: image_sample_l with point and linear mip filters`, { skip: SKIP }, () => {
    const im: Img = { w: 8, h: 8, d: 1, levels: 4, bytes: 16 };
    const tex = (x: number, y: number, _s: number, lv: number): Texel => [lv, x, y, 10 * lv + 1];
    const lods = [-1, 0, 0.25, 0.5, 0.75, 1, 1.5, 2.2, 3, 3.5, 7, 0.1];
    const N = lods.length;
    const uvl = lods.flatMap((l, i) => [((i * 3) % 8 + 0.5) / 8, ((i * 5) % 8 + 0.5) / 8, l, 0]);
    for (const mip of ['nearest', 'linear'] as const) {
      const out = F32(run(cpu, {
        kernel: 'mips', grid: [N],
        buffers: { tex: { type: 'f32', count: texelCount(cpu, im) * 4, init: { values: texelValues(cpu, im, tex) } }, uvl: { type: 'f32', count: 4 * N, init: { values: uvl } }, out: { type: 'f32', count: 4 * N } },
        images: { img: { buffer: 'tex', format: RGBA32F, width: 8, height: 8, levels: 4 } }, samplers: { s: { normalized: true, filter: 'nearest', address: 'clamp', mip } },
        args: ['img', 's', 'uvl', 'out'],
      }).out!);
      const want: number[] = [];
      for (let i = 0; i < N; i++) {
        const u = uvl[4 * i]!, v = uvl[4 * i + 1]!, lod = Math.min(15, Math.max(0, lods[i]!));
        const at = (lv: number): number[] => { const n = 8 >> lv; return [...tex(Math.floor(u * n), Math.floor(v * n), 0, lv)]; };
        if (lod <= 0) want.push(...at(0));
        else if (mip === 'nearest') want.push(...at(Math.min(3, lod <= 0.5 ? 0 : Math.ceil(lod + 0.5) - 1)));
        else {
          // GL: linear between floor(lod) and floor(lod) + 1, both clamped to the last level.
          const l0 = Math.min(3, Math.floor(lod)), l1 = Math.min(3, l0 + 1), fr = lod >= 3 ? 0 : lod - Math.floor(lod);
          const a = at(l0), b = at(l1);
          want.push(...a.map((x, k) => x * (1 - fr) + b[k]! * fr));
        }
      }
      close(out, want, 1e-6, `${cpu} mip ${mip}`);
    }
  });

  test(`${cpu}: image_get_lod: (clamped, unclamped) LOD of each quad's derivatives`, { skip: SKIP }, () => {
    const im: Img = { w: 16, h: 8, d: 1, levels: 4, bytes: 16 };
    // Per quad (u0, v0, du, dv): x steps du, y steps dv between the quad's work-items.
    const steps = [[0.1, 0.2, 1 / 16, 0], [0.3, 0.1, 2 / 16, 1 / 8], [0.5, 0.5, 0, 4 / 8], [0.2, 0.7, 0.5 / 16, 0.25 / 8], [0.1, 0.1, 100 / 16, 0], [0.4, 0.3, 3 / 16, 5 / 8], [0.6, 0.2, 1 / 64, 1 / 64], [0, 0, 8 / 16, 8 / 8]];
    const N = 4 * steps.length;
    const out = F32(run(cpu, {
      kernel: 'lod', grid: [N], block: [N],
      buffers: { tex: { type: 'f32', count: texelCount(cpu, im) * 4 }, st: { type: 'f32', count: 4 * steps.length, init: { values: steps.flat() } }, out: { type: 'f32', count: 2 * N } },
      images: { img: { buffer: 'tex', format: RGBA32F, width: 16, height: 8, levels: 4 } }, samplers: { s: { normalized: true, filter: 'linear', address: 'clamp', mip: 'linear' } },
      args: ['img', 's', 'st', 'out'],
    }).out!);
    const want: number[] = [];
    for (let i = 0; i < N; i++) {
      const [, , du, dv] = steps[i >> 2]!.map((x) => Math.fround(x));
      const raw = Math.log2(Math.max(du! * 16, dv! * 8));
      want.push(Math.min(3, Math.max(0, raw)), raw);
    }
    close(out, want, 1e-5, `${cpu} get_lod`);
  });

  test(`${cpu}: image_gather4_lz d16: the footprint's red channels in GL order`, { skip: SKIP }, () => {
    const im: Img = { w: 4, h: 4, d: 1, levels: 1, bytes: 16 };
    const red = (x: number, y: number): number => 1 + x + 4 * y;
    const uv = [0.1, 0.1, 0.5, 0.5, 0.9, 0.3, 0.37, 0.88, -0.2, 0.6, 1.3, 1.1];
    const N = uv.length / 2;
    const out = H16(run(cpu, {
      kernel: 'gather', grid: [N],
      buffers: { tex: { type: 'f32', count: texelCount(cpu, im) * 4, init: { values: texelValues(cpu, im, (x, y) => [red(x, y), -1, -2, -3]) } }, uv: { type: 'f32', count: 2 * N, init: { values: uv } }, out: { type: 'f16', count: 4 * N } },
      images: { img: { buffer: 'tex', format: RGBA32F, width: 4, height: 4 } }, samplers: { s: { normalized: true, filter: 'linear', address: 'clamp' } },
      args: ['img', 's', 'uv', 'out'],
    }).out!);
    const want: number[] = [];
    for (let i = 0; i < N; i++) {
      const i0 = Math.floor(Math.fround(uv[2 * i]!) * 4 - 0.5), j0 = Math.floor(Math.fround(uv[2 * i + 1]!) * 4 - 0.5);
      const c = (x: number, y: number): number => red(address('clamp', x, 4), address('clamp', y, 4));
      want.push(c(i0, j0 + 1), c(i0 + 1, j0 + 1), c(i0 + 1, j0), c(i0, j0));
    }
    assert.deepEqual(out, want);
  });
}

test('manifest images and samplers are validated', () => {
  const base = { codeObject: 'x.co', grid: [1], buffers: { t: { type: 'f32', count: 64 } } };
  const bad: [Record<string, unknown>, RegExp][] = [
    [{ images: { i: { buffer: 'nope', format: RGBA32F, width: 4 } } }, /images\.i\.buffer: "nope" is not a buffer/],
    [{ images: { i: { buffer: 't', format: RGBA32F, width: 4, type: 'cube' } } }, /images\.i\.type: must be one of/],
    [{ images: { i: { buffer: 't', format: RGBA32F, width: 4, depth: 2 } } }, /only 3d images have a depth/],
    [{ images: { i: { buffer: 't', format: RGBA32F, width: 4, height: 4, levels: 4 } } }, /at most 3 levels/],
    [{ images: { i: { buffer: 't', format: RGBA32F, width: 4, type: '3d', depth: 2, levels: 2 } } }, /3D mip chains are not modelled/],
    [{ images: { t: { buffer: 't', format: RGBA32F, width: 4 } } }, /cannot have the name of a buffer/],
    [{ samplers: { s: { filter: 'cubic' } } }, /samplers\.s\.filter: must be one of nearest, linear/],
    [{ samplers: { s: { wrap: 'repeat' } } }, /samplers\.s\.wrap: unknown field/],
  ];
  for (const [extra, why] of bad) assert.throws(() => parseManifest({ ...base, ...extra }), why);
  const ok = parseManifest({ ...base, images: { i: { buffer: 't', format: RGBA32F, width: 4 } }, samplers: { s: {} }, args: ['i', 's', 't'] });
  assert.deepEqual(ok.args.map((a) => a.kind), ['image', 'sampler', 'buffer']);
});
