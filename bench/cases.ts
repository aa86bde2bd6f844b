/**
 * The RDNA3 execution benchmark cases (issue 4): real clang-19 gfx1100 kernels with their launch,
 * deterministic inputs and a CPU reference for every output. Inputs are multiples of small powers
 * of two so every float sum is exact in binary32: the reference does not depend on summation order
 * or on fma contraction, and the check is bit-exact.
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

/** Multiples of `step` in [lo, hi] from a seeded PRNG. */
function floats(n: number, seed: number, lo: number, hi: number, step: number): Float32Array {
  const r = mulberry32(seed);
  const a = new Float32Array(n);
  const k = Math.round((hi - lo) / step);
  for (let i = 0; i < n; i++) a[i] = lo + Math.floor(r() * (k + 1)) * step;
  return a;
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
  let bad = 0;
  let first = -1;
  for (let i = 0; i < want.length; i++) {
    if (!Object.is(g[i], want[i])) {
      if (first < 0) first = i;
      bad++;
    }
  }
  return bad === 0 ? null : `${bad} mismatches, first [${first}] got ${g[first]} want ${want[first]}`;
}

function cmpU32(got: Uint8Array | undefined, want: Uint32Array): string | null {
  if (!got) return 'output missing';
  const g = new Uint32Array(got.buffer.slice(got.byteOffset, got.byteOffset + got.byteLength));
  let bad = 0;
  let first = -1;
  for (let i = 0; i < want.length; i++) {
    if (g[i] !== want[i]) {
      if (first < 0) first = i;
      bad++;
    }
  }
  return bad === 0 ? null : `${bad} mismatches, first [${first}] got ${g[first]} want ${want[first]}`;
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
    const a = floats(n, 1, -8, 8, 1 / 64), b = floats(n, 2, -8, 8, 1 / 64), c = floats(n, 3, -4, 4, 1 / 8);
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
    const A = floats(n * n, 4, -2, 2, 0.25), B = floats(n * n, 5, -2, 2, 0.25);
    const C = new Float32Array(n * n);
    for (let r = 0; r < n; r++) {
      for (let c = 0; c < n; c++) {
        let acc = 0;
        for (let k = 0; k < n; k++) acc += A[r * n + k]! * B[k * n + c]!;
        C[r * n + c] = acc; // exact: products are multiples of 1/16 and |sum| <= 4n
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
        check: (out) => cmpF32(out['C'], C),
      });
    }
  }
  // Reductions: 256-wide tree (a barrier per step, wave32 and wave64) and one-barrier.
  if (sel('reduce_tree', 'reduce_tree.w64', 'reduce_1bar')) {
    const n = small ? 4096 : 1 << 20;
    const x = floats(n, 6, -4, 4, 0.125);
    const groups = n / 256;
    const want = new Float32Array(groups);
    for (let g = 0; g < groups; g++) {
      let s = 0;
      for (let i = 0; i < 256; i++) s += x[g * 256 + i]!;
      want[g] = s;
    }
    const red = (name: string, co: Uint8Array, what: string): BenchCase => ({
      name, what: `${what}, ${n} floats, block 256`,
      launch: {
        codeObject: co, grid: [n, 1, 1], block: [256, 1, 1],
        buffers: [f32buf('in', x), zeros('partial', 'f32', groups)],
        args: [{ kind: 'buffer', name: 'in' }, { kind: 'buffer', name: 'partial' }],
      },
      check: (out) => cmpF32(out['partial'], want),
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
  // Memory: 2^24-element c = a + b (the issue's bound: peak RSS under 1.5x the 192 MiB of buffers + 300 MiB).
  if (o.memoryCase) {
    const n = 1 << 24;
    const a = floats(n, 8, -8, 8, 1 / 64), b = floats(n, 9, -8, 8, 1 / 64);
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
