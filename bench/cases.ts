/**
 * The RDNA3 execution benchmark cases (issue 4): real clang-19 gfx1100 kernels with their launch,
 * seeded random inputs (issue 24: uniform floats, not values chosen so that sums are exact: with
 * inexact sums `v_fmac_f32` and `v_add_f32` take their rounding paths, as a user's data makes them)
 * and a CPU reference for every output. Element-wise results are checked bit-exactly (the
 * reference rounds as the kernel does: one binary32 rounding per operation); sums whose order or
 * fma contraction the kernel chooses (matmul, reductions) are checked against a binary64
 * reference within the bound of a length-n binary32 sum, n * 2^-23 * sum|terms| (the engines are
 * compared with each other bit for bit by test/amd/engine-diff*).
 *
 * Kernels: kernels/bin/gfx1100/*.co (the test fixtures, sources in kernels/src) and
 * bench/kernels/bin/*.co (benchmark-only, sources in bench/kernels/src, bench/kernels/build.sh).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { KernelLaunch, KernelBuffer } from '../src/runtime/run.js';
import { mulberry32 } from '../src/runtime/manifest.js';

export interface BenchCase {
  readonly name: string;
  readonly what: string;
  readonly launch: KernelLaunch;
  /** Compare the outputs with the CPU reference: null when equal, else a one-line reason. */
  check(out: Readonly<Record<string, Uint8Array>>): string | null;
}

/** Uniform random binary32 values in [lo, hi) from a seeded PRNG. */
function floats(n: number, seed: number, lo: number, hi: number): Float32Array {
  const r = mulberry32(seed);
  const a = new Float32Array(n);
  for (let i = 0; i < n; i++) a[i] = lo + r() * (hi - lo);
  return a;
}

/**
 * `got` against sums computed in binary64 (`want`) with the bound of a binary32 sum of `n`
 * terms in any order, with or without fma: |got - want| <= n * 2^-23 * `mag` (the sum of the
 * terms' magnitudes), per element.
 */
/** Count the elements `ok(i)` refuses: null when none, else the count and the first one. */
function mismatches(n: number, ok: (i: number) => boolean, what: string, show: (i: number) => string): string | null {
  let bad = 0;
  let first = -1;
  for (let i = 0; i < n; i++) {
    if (!ok(i)) {
      if (first < 0) first = i;
      bad++;
    }
  }
  return bad === 0 ? null : `${bad} ${what}, first [${first}] ${show(first)}`;
}

function cmpSum(got: Uint8Array | undefined, want: Float64Array, mag: Float64Array, n: number): string | null {
  if (!got) return 'output missing';
  const g = new Float32Array(got.buffer.slice(got.byteOffset, got.byteOffset + got.byteLength));
  if (g.length !== want.length) return `length ${g.length}, want ${want.length}`;
  return mismatches(want.length, (i) => Math.abs(g[i]! - want[i]!) <= n * 2 ** -23 * mag[i]!, 'outside the rounding bound', (i) => `got ${g[i]} want ${want[i]}`);
}

function bytesOf(a: Float32Array | Uint32Array | Uint8Array): Uint8Array {
  return new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
}

function f32buf(name: string, a: Float32Array): KernelBuffer {
  return { name, type: 'f32', data: bytesOf(a) };
}

function zeros(name: string, type: 'f32' | 'u32', n: number): KernelBuffer {
  return { name, type, data: new Uint8Array(n * 4) };
}

function cmpF32(got: Uint8Array | undefined, want: Float32Array): string | null {
  if (!got) return 'output missing';
  const g = new Float32Array(got.buffer.slice(got.byteOffset, got.byteOffset + got.byteLength));
  if (g.length !== want.length) return `length ${g.length}, want ${want.length}`;
  return mismatches(want.length, (i) => Object.is(g[i], want[i]), 'mismatches', (i) => `got ${g[i]} want ${want[i]}`);
}

function cmpU32(got: Uint8Array | undefined, want: Uint32Array): string | null {
  if (!got) return 'output missing';
  const g = new Uint32Array(got.buffer.slice(got.byteOffset, got.byteOffset + got.byteLength));
  return mismatches(want.length, (i) => g[i] === want[i], 'mismatches', (i) => `got ${g[i]} want ${want[i]}`);
}

export interface CaseOptions {
  /** Root of the repository (kernels/ and bench/ are read from it). */
  readonly root: string;
  /** Scale the problem down for tests: 1 is the benchmark size. */
  readonly small?: boolean;
  /** Add the memory case: a 2^24-element vector add, three 64 MiB buffers (run only on request). */
  readonly memoryCase?: boolean;
  /** Build only the cases this accepts (inputs and references are built eagerly). */
  readonly only?: (name: string) => boolean;
}

export function benchCases(o: CaseOptions): BenchCase[] {
  const fixture = (n: string) => new Uint8Array(readFileSync(join(o.root, 'kernels/bin/gfx1100', n)));
  const own = (n: string) => new Uint8Array(readFileSync(join(o.root, 'bench/kernels/bin', n)));
  const small = o.small === true;
  const cases: BenchCase[] = [];
  const sel = (...names: string[]) => !o.only || names.some((n) => o.only!(n));

  // Empty kernel over the vector grid: the dispatch/wave-launch baseline.
  if (sel('empty')) {
    const n = small ? 4096 : 1 << 20;
    cases.push({
      name: 'empty', what: `empty kernel, ${n} work-items, block 256 (baseline)`,
      launch: { codeObject: fixture('empty.co'), grid: [n, 1, 1], block: [256, 1, 1], buffers: [], args: [] },
      check: () => null,
    });
  }
  // Vector add-multiply.
  for (const w64 of [false, true]) {
    if (!sel(w64 ? 'vaddmul.w64' : 'vaddmul')) continue;
    const n = small ? 4096 : 1 << 20;
    const a = floats(n, 1, -8, 8), b = floats(n, 2, -8, 8), c = floats(n, 3, -4, 4);
    const want = new Float32Array(n);
    for (let i = 0; i < n; i++) want[i] = Math.fround(Math.fround(a[i]! + b[i]!) * c[i]!);
    cases.push({
      name: w64 ? 'vaddmul.w64' : 'vaddmul', what: `d=(a+b)*c, ${n} floats, block 256${w64 ? ', wave64' : ''}`,
      launch: {
        codeObject: own(w64 ? 'vaddmul.w64.co' : 'vaddmul.co'), grid: [n, 1, 1], block: [256, 1, 1],
        buffers: [f32buf('a', a), f32buf('b', b), f32buf('c', c), zeros('d', 'f32', n)],
        args: [{ kind: 'buffer', name: 'a' }, { kind: 'buffer', name: 'b' }, { kind: 'buffer', name: 'c' }, { kind: 'buffer', name: 'd' }, { kind: 'scalar', type: 'u32', value: n }],
      },
      check: (out) => cmpF32(out['d'], want),
    });
  }
  // Matrix multiply, naive and LDS-tiled.
  if (sel('matmul', 'matmul_tiled')) {
    const n = small ? 32 : 256;
    const A = floats(n * n, 4, -2, 2), B = floats(n * n, 5, -2, 2);
    const C = new Float64Array(n * n);
    const mag = new Float64Array(n * n);
    for (let r = 0; r < n; r++) {
      for (let c = 0; c < n; c++) {
        let acc = 0;
        let m = 0;
        for (let k = 0; k < n; k++) {
          const p = A[r * n + k]! * B[k * n + c]!; // exact in binary64
          acc += p;
          m += Math.abs(p);
        }
        C[r * n + c] = acc;
        mag[r * n + c] = m;
      }
    }
    for (const tiled of [false, true]) {
      if (!sel(tiled ? 'matmul_tiled' : 'matmul')) continue;
      cases.push({
        name: tiled ? 'matmul_tiled' : 'matmul', what: `${n}x${n}x${n} f32, one work-item per output${tiled ? ', 16x16 LDS tiles' : ''}, block 16x16`,
        launch: {
          codeObject: fixture(tiled ? 'matmul_tiled.co' : 'matmul_naive.co'), grid: [n, n, 1], block: [16, 16, 1],
          buffers: [f32buf('A', A), f32buf('B', B), zeros('C', 'f32', n * n)],
          args: [{ kind: 'buffer', name: 'A' }, { kind: 'buffer', name: 'B' }, { kind: 'buffer', name: 'C' }, { kind: 'scalar', type: 'u32', value: n }],
        },
        check: (out) => cmpSum(out['C'], C, mag, n),
      });
    }
  }
  // Reductions: 256-wide tree (a barrier per step, wave32 and wave64) and one-barrier.
  if (sel('reduce_tree', 'reduce_tree.w64', 'reduce_1bar')) {
    const n = small ? 4096 : 1 << 20;
    const x = floats(n, 6, -4, 4);
    const groups = n / 256;
    const want = new Float64Array(groups);
    const mag = new Float64Array(groups);
    for (let g = 0; g < groups; g++) {
      for (let i = 0; i < 256; i++) {
        want[g]! += x[g * 256 + i]!;
        mag[g]! += Math.abs(x[g * 256 + i]!);
      }
    }
    const red = (name: string, co: Uint8Array, what: string): BenchCase => ({
      name, what: `${what}, ${n} floats, block 256`,
      launch: {
        codeObject: co, grid: [n, 1, 1], block: [256, 1, 1],
        buffers: [f32buf('in', x), zeros('partial', 'f32', groups)],
        args: [{ kind: 'buffer', name: 'in' }, { kind: 'buffer', name: 'partial' }],
      },
      check: (out) => cmpSum(out['partial'], want, mag, 256),
    });
    if (sel('reduce_tree')) cases.push(red('reduce_tree', fixture('reduce_lds.co'), 'LDS tree reduction, barrier per step'));
    if (sel('reduce_tree.w64')) cases.push(red('reduce_tree.w64', fixture('reduce_lds.w64.co'), 'LDS tree reduction, barrier per step, wave64'));
    if (sel('reduce_1bar')) cases.push(red('reduce_1bar', own('reduce_onebarrier.co'), 'LDS reduction with one barrier'));
  }
  // Histogram with LDS and global atomics.
  if (sel('histogram')) {
    const n = small ? 4096 : 1 << 20;
    const r = mulberry32(7);
    const data = new Uint8Array(n);
    for (let i = 0; i < n; i++) data[i] = Math.floor(r() * 256);
    const want = new Uint32Array(64);
    for (let i = 0; i < n; i++) want[data[i]! & 63]!++;
    cases.push({
      name: 'histogram', what: `64-bin histogram of ${n} bytes, LDS + global atomics, block 256`,
      launch: {
        codeObject: fixture('histogram.co'), grid: [n, 1, 1], block: [256, 1, 1],
        buffers: [{ name: 'data', type: 'u8', data }, zeros('bins', 'u32', 64)],
        args: [{ kind: 'buffer', name: 'data' }, { kind: 'scalar', type: 'u32', value: n }, { kind: 'buffer', name: 'bins' }],
      },
      check: (out) => cmpU32(out['bins'], want),
    });
  }
  // The small kernels of issue 24's table: a 3x3 convolution and an LDS-tiled transpose.
  if (sel('conv2d')) {
    const n = small ? 32 : 256;
    const x = floats(n * n, 10, -2, 2), wt = floats(9, 11, -1, 1);
    // kernels/src/conv2d.cl (FP_CONTRACT OFF): each product and each sum rounded to binary32, in
    // the kernel's order (dy, then dx, from -1), clamp-to-edge borders.
    const want = new Float32Array(n * n);
    const clamp = (v: number) => (v < 0 ? 0 : v > n - 1 ? n - 1 : v);
    for (let y = 0; y < n; y++) {
      for (let xi = 0; xi < n; xi++) {
        let acc = 0;
        for (let dy = -1; dy <= 1; dy++) {
          for (let dx = -1; dx <= 1; dx++) acc = Math.fround(acc + Math.fround(x[clamp(y + dy) * n + clamp(xi + dx)]! * wt[(dy + 1) * 3 + dx + 1]!));
        }
        want[y * n + xi] = acc;
      }
    }
    cases.push({
      name: 'conv2d', what: `3x3 convolution of a ${n}x${n} f32 image, clamp-to-edge, weights in constant memory, block 16x8`,
      launch: {
        codeObject: fixture('conv2d.co'), grid: [n, n, 1], block: [16, 8, 1],
        buffers: [f32buf('in', x), zeros('out', 'f32', n * n), f32buf('wt', wt)],
        args: [{ kind: 'buffer', name: 'in' }, { kind: 'buffer', name: 'out' }, { kind: 'buffer', name: 'wt' }, { kind: 'scalar', type: 'u32', value: n }, { kind: 'scalar', type: 'u32', value: n }],
      },
      check: (out) => cmpF32(out['out'], want),
    });
  }
  if (sel('transpose')) {
    const n = small ? 32 : 256;
    const x = floats(n * n, 12, -1000, 1000);
    const want = new Float32Array(n * n);
    for (let r = 0; r < n; r++) for (let c = 0; c < n; c++) want[r * n + c] = x[c * n + r]!;
    cases.push({
      name: 'transpose', what: `${n}x${n} f32 transpose through a padded 16x17 LDS tile, block 16x16`,
      launch: {
        codeObject: fixture('transpose.co'), grid: [n, n, 1], block: [16, 16, 1],
        buffers: [f32buf('in', x), zeros('out', 'f32', n * n)],
        args: [{ kind: 'buffer', name: 'in' }, { kind: 'buffer', name: 'out' }, { kind: 'scalar', type: 'u32', value: n }, { kind: 'scalar', type: 'u32', value: n }],
      },
      check: (out) => cmpF32(out['out'], want),
    });
  }
  // Memory: 2^24-element c = a + b (the issue's bound: peak RSS under 1.5x the 192 MiB of buffers + 300 MiB).
  if (o.memoryCase) {
    const n = 1 << 24;
    const a = floats(n, 8, -8, 8), b = floats(n, 9, -8, 8);
    cases.push({
      name: 'vadd_2^24', what: `c=a+b, ${n} floats (3 x 64 MiB buffers), block 256`,
      launch: {
        codeObject: fixture('vadd.co'), grid: [n, 1, 1], block: [256, 1, 1],
        buffers: [f32buf('a', a), f32buf('b', b), zeros('c', 'f32', n)],
        args: [{ kind: 'buffer', name: 'a' }, { kind: 'buffer', name: 'b' }, { kind: 'buffer', name: 'c' }, { kind: 'scalar', type: 'u32', value: n }],
      },
      check: (out) => {
        const got = out['c'];
        if (!got) return 'output missing';
        const g = new Float32Array(got.buffer, got.byteOffset, n);
        for (let i = 0; i < n; i++) if (!Object.is(g[i], Math.fround(a[i]! + b[i]!))) return `first mismatch at [${i}]`;
        return null;
      },
    });
  }
  return cases;
}
