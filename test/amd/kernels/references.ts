/**
 * CPU references for the kernel suite (kernels/manifests/*.json): each takes the manifest's
 * initial buffers and returns what the kernel must leave in its outputs. Written from the OpenCL
 * C sources in kernels/src, never from gpusim's results.
 *
 * Integers compare exactly. Floats carry a ULP bound per output element (`ulp`, a pattern repeated
 * over the buffer, one entry per float op the kernel writes there): 0 where the op is exact in
 * IEEE arithmetic and the reference reproduces it (inputs are drawn on a grid of multiples of a
 * power of two where sums and products must stay exact), otherwise the bound OpenCL's full profile
 * allows or the hardware instruction documents (1 ulp for v_sqrt/v_rsq/v_rcp/v_exp/v_log, libclc's
 * sin/cos 4, tan 5, exp/log 3, pow 16, atan2 6, tanh 5). `abs` adds an absolute tolerance
 * (v_sin/v_cos take revolutions and have absolute, not relative, error).
 *
 * BigInt appears here (test code) for 64-bit integer references only; the simulator never uses it.
 */
import { f16bits } from '../../../src/core/float.js';
import type { ElemType } from '../../../src/runtime/manifest.js';

export interface Expected {
  readonly type: ElemType;
  readonly data: Uint8Array;
  /** Per-element ULP bound, repeated over the buffer (floats only). */
  readonly ulp?: readonly number[];
  /** Per-element absolute tolerance, repeated (floats only). */
  readonly abs?: readonly number[];
  /** Compare as multisets (schedule-dependent order, e.g. atomic-counter compaction). */
  readonly unordered?: boolean;
}

export type Inputs = Readonly<Record<string, Uint8Array>>;
/** `gfx`: the target whose build runs (default gfx1100); a few kernels compile differently per target. */
export type Reference = (inp: Inputs, waveSize: 32 | 64, gfx?: 'gfx1100' | 'gfx1030' | 'gfx900') => Record<string, Expected>;

const fr = Math.fround;
const u32 = (b: Uint8Array) => new Uint32Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.length));
const i32 = (b: Uint8Array) => new Int32Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.length));
const f32a = (b: Uint8Array) => new Float32Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.length));
const f64a = (b: Uint8Array) => new Float64Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.length));
const u16 = (b: Uint8Array) => new Uint16Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.length));
const bytes = (a: ArrayBufferView) => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);

function out(type: ElemType, a: ArrayBufferView, extra: Omit<Expected, 'type' | 'data'> = {}): Expected {
  return { type, data: bytes(a), ...extra };
}

function f16(h: number): number {
  const s = h & 0x8000 ? -1 : 1;
  const e = (h >>> 10) & 0x1f;
  const m = h & 0x3ff;
  if (e === 0) return s * m * 2 ** -24;
  if (e === 31) return m === 0 ? s * Infinity : NaN;
  return s * (1 + m / 1024) * 2 ** (e - 15);
}

/** Round half to even (rint). */
function rint(x: number): number {
  if (!Number.isFinite(x)) return x;
  const f = Math.floor(x);
  const d = x - f;
  const r = d < 0.5 ? f : d > 0.5 ? f + 1 : f % 2 === 0 ? f : f + 1;
  return r === 0 && (x < 0 || Object.is(x, -0)) ? -0 : r;
}

/** fmaf with one rounding: the product of two f32 is exact in f64; fix the sum's double rounding. */
export function fmaf(a: number, b: number, c: number): number {
  const p = a * b;
  const s = p + c;
  // TwoSum: the exact error of s.
  const bb = s - p;
  const err = (p - (s - bb)) + (c - bb);
  const r = fr(s);
  if (err === 0 || r === s) return r;
  // s lies between two floats; only a tie at s exactly would round the wrong way.
  const lo = r < s ? r : prevF32(r);
  const hi = r < s ? nextF32(r) : r;
  if (s - lo !== hi - s) return r;
  return err > 0 ? hi : lo;
}
const F = new Float32Array(1);
const U = new Uint32Array(F.buffer);
function nextF32(x: number): number {
  F[0] = x;
  if (x === 0) return 2 ** -149;
  U[0] = x > 0 ? U[0]! + 1 : U[0]! - 1;
  return F[0]!;
}
function prevF32(x: number): number {
  return -nextF32(-x);
}

/** An exact f64 value rounded to f32 in MODE round mode m: 0 nearest even, 1 +inf, 2 -inf, 3 toward zero. */
function roundF32(v: number, m: number): number {
  const rn = fr(v);
  if (m === 0 || rn === v) return rn;
  const lo = rn < v ? rn : prevF32(rn);
  const hi = rn > v ? rn : nextF32(rn);
  if (m === 1) return hi;
  if (m === 2) return lo;
  return v > 0 ? lo : hi;
}

/** f16 bits of v rounded in mode m (1 +inf, 2 -inf, 3 toward zero; 0 nearest even). */
function roundF16(v: number, m: number): number {
  const rn = f16bits(v);
  const r = f16(rn);
  if (m === 0 || r === v) return rn;
  // The neighbours of the nearest half on either side of v (bit patterns step by one away from zero).
  const away = (h: number) => (h & 0x7fff) + 1 | (h & 0x8000);
  const toward = (h: number) => ((h & 0x7fff) - 1) | (h & 0x8000);
  const below = r < v ? rn : r > 0 ? toward(rn) : away(rn);
  const above = r > v ? rn : r >= 0 ? away(rn) : toward(rn);
  if (m === 1) return above;
  if (m === 2) return below;
  return v > 0 ? below : above;
}

function u64(lo: number, hi: number): bigint {
  return (BigInt(hi >>> 0) << 32n) | BigInt(lo >>> 0);
}
const M64 = (1n << 64n) - 1n;
function s64(x: bigint): bigint {
  return BigInt.asIntN(64, x);
}
function put64(o: Uint32Array, i: number, v: bigint): void {
  const x = BigInt.asUintN(64, v);
  o[2 * i] = Number(x & 0xffffffffn);
  o[2 * i + 1] = Number(x >> 32n);
}
function mulhiU32(a: number, b: number): number {
  return Number((BigInt(a >>> 0) * BigInt(b >>> 0)) >> 32n) >>> 0;
}
function mulhiI32(a: number, b: number): number {
  return Number(BigInt.asIntN(32, (BigInt(a | 0) * BigInt(b | 0)) >> 32n)) | 0;
}
function clz32(x: number): number {
  return Math.clz32(x);
}
function popc(x: number): number {
  let n = 0;
  for (let v = x >>> 0; v; v &= v - 1) n++;
  return n;
}
function grid(n: number): number[] {
  return Array.from({ length: n }, (_, i) => i);
}

export const references: Readonly<Record<string, Reference>> = {
  atomics(inp) {
    const v = i32(inp.v!);
    let mn = 2147483647;
    let mx = -2147483648;
    let or = 0;
    let xor = 0;
    let and = 0xffffffff;
    let sum = 0;
    v.forEach((x, i) => {
      mn = Math.min(mn, x);
      mx = Math.max(mx, x);
      or |= 1 << (i & 31);
      xor ^= x;
      and &= ~(1 << (x & 31));
      sum += x; // small integers: every float partial sum is exact, in any order
    });
    return {
      mn: out('i32', Int32Array.of(mn)), mx: out('i32', Int32Array.of(mx)),
      bits: out('u32', Uint32Array.of(or >>> 0, xor >>> 0, and >>> 0)), fsum: out('f32', Float32Array.of(sum), { ulp: [0] }),
    };
  },
  branch_lane() {
    const o = new Int32Array(256).fill(-1);
    for (let g = 0; g < 256; g++) {
      const l = g % 64;
      if (l === 7) continue;
      let v = l & 1 ? l * 3 : l % 4 === 0 ? -l : 5;
      for (let j = 0; j < (l & 7); j++) v += j;
      o[g] = v;
    }
    return { out: out('i32', o) };
  },
  convert(inp) {
    const f = f32a(inp.f!);
    const n = f.length;
    const si = new Int32Array(n);
    const ui = new Uint32Array(n);
    const h = new Uint16Array(n);
    const c = new Int8Array(n);
    const back = new Float32Array(n);
    for (let i = 0; i < n; i++) {
      const v = f[i]!;
      si[i] = Math.trunc(v);
      ui[i] = Math.trunc(v < 0 ? 0 : v);
      h[i] = f16bits(v);
      const t = Math.trunc(v);
      c[i] = t > 127 ? 127 : t < -128 ? -128 : t;
      back[i] = fr(si[i]! + ui[i]!);
    }
    return { si: out('i32', si), ui: out('u32', ui), h: out('f16', h, { ulp: [0] }), c: out('i8', c), back: out('f32', back, { ulp: [0] }) };
  },
  double_math(inp) {
    const a = f64a(inp.a!);
    const b = f64a(inp.b!);
    const o = new Float64Array(2 * a.length);
    const li = new Uint32Array(2 * a.length);
    for (let i = 0; i < a.length; i++) {
      const x = a[i]!;
      const y = b[i]!;
      o[2 * i] = x * y + x / (y + 1); // the kernel fuses: 1 rounding less, positive terms -> <= 1 ulp apart
      o[2 * i + 1] = Math.sqrt(x * x + y * y); // may be fused too; sqrt halves the difference
      put64(li, i, BigInt(Math.trunc(x * 1024)) + BigInt(Math.trunc(y)));
    }
    return { out: out('f64', o, { ulp: [2, 2] }), li: out('i64', li) };
  },
  dyn_index_lds(inp) {
    const a = f32a(inp.in!);
    const o = new Float32Array(a.length);
    for (let g = 0; g < a.length; g++) {
      const l = g % 64;
      const base = g - l;
      o[g] = fr(fr(a[g]! + fr(2 * a[base + ((l + 1) % 64)]!)) + (l & 31));
    }
    return { out: out('f32', o, { ulp: [0] }) };
  },
  empty() {
    return {};
  },
  float_misc(inp) {
    const a = f32a(inp.a!);
    const b = f32a(inp.b!);
    const o = new Float32Array(a.length);
    for (let i = 0; i < a.length; i += 4) {
      const [xx, xy, xz, xw] = [a[i]!, a[i + 1]!, a[i + 2]!, a[i + 3]!];
      const [yx, yy, yz, yw] = [b[i]!, b[i + 1]!, b[i + 2]!, b[i + 3]!];
      o[i] = fr(Math.abs(xx) + (Math.sign(xy) < 0 || Object.is(xy, -0) ? -Math.abs(yx) : Math.abs(yx)));
      o[i + 1] = fr(Math.min(xy, yy) * Math.max(xz, yz));
      o[i + 2] = fr(fr(Math.floor(xz) + Math.ceil(yz)) + Math.trunc(xw));
      o[i + 3] = fmaf(-xx, yx, rint(yw)); // contracted to an fma by clang
    }
    return { out: out('f32', o, { ulp: [0, 0, 0, 1] }) };
  },
  global_offset() {
    return { out: out('u32', Uint32Array.from(grid(256))) };
  },
  grid3d() {
    const o = new Uint32Array(128);
    for (let z = 0; z < 4; z++) for (let y = 0; y < 4; y++) for (let x = 0; x < 8; x++) o[(z * 4 + y) * 8 + x] = x + 1000 * y + 1000000 * z;
    return { out: out('u32', o) };
  },
  half_math(inp) {
    const a = u16(inp.a!);
    const b = u16(inp.b!);
    const o = new Uint16Array(a.length);
    const o2 = new Uint16Array(2 * a.length);
    for (let i = 0; i < a.length; i++) {
      const x = f16(a[i]!);
      const y = f16(b[i]!);
      const d = f16(f16bits(f16(f16bits(x - y)) / 2));
      o[i] = f16bits(x * y + d); // x*y exact in f64: one rounding, as the fused form
      o2[2 * i] = f16bits(x * y + x);
      o2[2 * i + 1] = f16bits(y * x + y);
    }
    return { out: out('f16', o, { ulp: [1] }), out2: out('f16', o2, { ulp: [1] }) };
  },
  histogram(inp) {
    const d = inp.data!;
    const o = new Uint32Array(64);
    for (const x of d) o[x & 63]!++;
    return { bins: out('u32', o) };
  },
  int_ops(inp) {
    const a = u32(inp.a!);
    const b = u32(inp.b!);
    const o = new Uint32Array(a.length * 12);
    for (let i = 0; i < a.length; i++) {
      const x = a[i]!;
      const y = b[i]!;
      const s = y & 31;
      const k = i * 12;
      o[k] = x << s;
      o[k + 1] = (x | 0) >> s;
      o[k + 2] = (x << s) | (x >>> ((32 - y) & 31));
      o[k + 3] = popc(x);
      o[k + 4] = x ? clz32(x) : 32;
      o[k + 5] = x ? 31 - clz32(x & -x) : 32;
      o[k + 6] = mulhiU32(x, y);
      o[k + 7] = mulhiI32(x, y);
      o[k + 8] = (x | 0) < (y | 0) ? x : y;
      o[k + 9] = x > y ? x : y;
      o[k + 10] = (x >>> s) & 31;
      o[k + 11] = (x & ~(0xff << 8)) | ((y & 0xff) << 8);
    }
    return { out: out('u32', o) };
  },
  lds_rotate(inp) {
    const a = u32(inp.in!);
    return { out: out('u32', Uint32Array.from(grid(a.length), (g) => a[g - (g % 64) + (((g % 64) + 1) & 63)]!)) };
  },
  loop_sum(inp) {
    const rs = u32(inp.rowstart!);
    const v = f32a(inp.vals!);
    const o = new Float32Array(rs.length - 1);
    for (let r = 0; r < o.length; r++) {
      let s = 0;
      for (let j = rs[r]!; j < rs[r + 1]!; j++) s = fr(s + v[j]!);
      o[r] = s;
    }
    return { out: out('f32', o, { ulp: [0] }) };
  },
  math_builtins(inp) {
    const x = f32a(inp.x!);
    const o = new Float32Array(x.length * 9);
    x.forEach((v, i) => {
      const k = i * 9;
      o[k] = Math.sqrt(v);
      o[k + 1] = 1 / Math.sqrt(v);
      o[k + 2] = 1 / v;
      o[k + 3] = 2 ** v;
      o[k + 4] = Math.log2(v);
      o[k + 5] = Math.sin(2 * Math.PI * v); // v_sin_f32 takes revolutions
      o[k + 6] = Math.cos(2 * Math.PI * v);
      o[k + 7] = v - Math.floor(v);
      o[k + 8] = v * 8;
    });
    return { out: out('f32', o, { ulp: [1, 1, 1, 1, 1, 0, 0, 0, 0], abs: [0, 0, 0, 0, 0, 2 ** -18, 2 ** -18, 0, 0] }) };
  },
  matmul_naive(inp) {
    return { C: out('f32', matmul(f32a(inp.A!), f32a(inp.B!), 16), { ulp: [0] }) };
  },
  matmul_tiled(inp) {
    return { C: out('f32', matmul(f32a(inp.A!), f32a(inp.B!), 32), { ulp: [0] }) };
  },
  multi_fill() {
    return { out: out('u32', new Uint32Array(256).fill(3735928559)) };
  },
  multi_copy(inp) {
    return { out: out('u32', u32(inp.in!)) };
  },
  multi_scale(inp) {
    return { x: out('f32', f32a(inp.x!).map((v) => fr(v * -1.5)), { ulp: [0] }) };
  },
  prefix_scan(inp) {
    return { out: out('u32', scanGroups(u32(inp.in!), 128, true)) };
  },
  query_sizes() {
    return { out: out('u32', Uint32Array.of(16, 2, 1, 4, 2, 2, 64, 4, 2, 3)) };
  },
  reduce_dynlds(inp) {
    const a = i32(inp.in!);
    const o = new Int32Array(a.length / 128);
    a.forEach((v, i) => (o[Math.floor(i / 128)]! += v));
    return { partial: out('i32', o) };
  },
  reduce_lds(inp) {
    const a = f32a(inp.in!);
    const o = new Float32Array(a.length / 256);
    a.forEach((v, i) => (o[Math.floor(i / 256)]! += v)); // multiples of 1/8, small: exact in any order
    return { partial: out('f32', o, { ulp: [0] }) };
  },
  saxpy(inp) {
    const x = f32a(inp.x!);
    const y = f32a(inp.y!);
    return { y: out('f32', y.map((v, i) => fmaf(2.5, x[i]!, v)), { ulp: [0] }) };
  },
  scratch_array(inp) {
    const idx = i32(inp.idx!);
    const o = new Int32Array(idx.length);
    for (let g = 0; g < idx.length; g++) {
      const p = Int32Array.from(grid(64), (j) => j * g);
      const k = idx[g]! & 63;
      p[k]! += 1000;
      o[g] = p[(k * 7) & 63]! + p[k]!;
    }
    return { out: out('i32', o) };
  },
  select_clamp(inp) {
    const x = f32a(inp.x!);
    return { y: out('f32', x.map((v, i) => { const c = Math.min(Math.max(v, -2), 3); return i & 1 ? -c : c; }), { ulp: [0] }) };
  },
  shuffle(inp) {
    const a = i32(inp.in!);
    const o = Int32Array.from(grid(a.length), (g) => a[g - (g % 32) + (((g % 32) + 1) & 31)]!);
    const first = Int32Array.from(grid(a.length / 32), (w) => a[w * 32]!);
    return { out: out('i32', o), first: out('i32', first) };
  },
  struct_arg(inp) {
    const p = f32a(inp.p!);
    const ints = new Int32Array(p.buffer);
    for (let i = 0; i < 100; i++) {
      p[4 * i + 1] = fr(p[4 * i + 1]! - fr(9.75 * 0.5));
      p[4 * i] = fr(p[4 * i]! + 0.5);
      ints[4 * i + 3] = i;
    }
    return { p: out('f32', p, { ulp: [0] }) };
  },
  transpose(inp) {
    const a = f32a(inp.in!);
    const w = 40;
    const h = 24;
    const o = new Float32Array(w * h);
    for (let r = 0; r < h; r++) for (let c = 0; c < w; c++) o[c * h + r] = a[r * w + c]!;
    return { out: out('f32', o, { ulp: [0] }) };
  },
  vadd(inp) {
    const a = f32a(inp.a!);
    const b = f32a(inp.b!);
    return { c: out('f32', a.map((v, i) => fr(v + b[i]!)), { ulp: [0] }) };
  },
  vmul_int(inp) {
    const a = i32(inp.a!);
    const b = i32(inp.b!);
    const c64 = new Uint32Array(2 * a.length);
    a.forEach((x, i) => put64(c64, i, BigInt(x) * BigInt(b[i]!)));
    return { c: out('i32', a.map((x, i) => Math.imul(x, b[i]!))), c64: out('i64', c64) };
  },

  conv2d(inp) {
    const a = f32a(inp.in!);
    const wt = f32a(inp.wt!);
    const w = 20;
    const h = 12;
    const o = new Float32Array(w * h);
    const cl = (v: number, hi: number) => Math.min(Math.max(v, 0), hi);
    for (let y = 0; y < h; y++) {
      for (let x = 0; x < w; x++) {
        let acc = 0;
        for (let dy = -1; dy <= 1; dy++) for (let dx = -1; dx <= 1; dx++) acc = fr(acc + fr(a[cl(y + dy, h - 1) * w + cl(x + dx, w - 1)]! * wt[(dy + 1) * 3 + dx + 1]!));
        o[y * w + x] = acc;
      }
    }
    return { out: out('f32', o, { ulp: [0] }) };
  },
  conv1d_lds(inp) {
    const a = f32a(inp.in!);
    const t = f32a(inp.taps!);
    const n = a.length;
    const o = new Float32Array(n);
    for (let g = 0; g < n; g++) {
      let acc = 0;
      for (let k = 0; k <= 8; k++) acc = fr(acc + fr(a[Math.min(Math.max(g - 4 + k, 0), n - 1)]! * t[k]!));
      o[g] = acc;
    }
    return { out: out('f32', o, { ulp: [0] }) };
  },
  bitonic_sort(inp) {
    const a = u32(inp.data!);
    for (let b = 0; b < a.length; b += 256) a.subarray(b, b + 256).sort();
    return { data: out('u32', a) };
  },
  scan_blelloch(inp) {
    const a = u32(inp.in!);
    const sums = new Uint32Array(a.length / 256);
    for (let g = 0; g < sums.length; g++) for (let i = 0; i < 256; i++) sums[g]! += a[g * 256 + i]!;
    return { out: out('u32', scanGroups(a, 256, false)), sums: out('u32', sums) };
  },
  half_poly(inp) {
    const x = u16(inp.x!);
    const o = new Uint16Array(3 * x.length);
    const wide = new Float32Array(x.length);
    const r = (v: number) => f16(f16bits(v));
    x.forEach((h, i) => {
      const v = f16(h);
      // each half fma: the product of two halves and the sum are exact in f64, one rounding
      const p = r(r(r(v * 0.5 - 1) * v + 0.25) * v + 2);
      o[3 * i] = f16bits(p);
      o[3 * i + 1] = f16bits(Math.max(Math.min(v, 0.75), -0.75));
      o[3 * i + 2] = f16bits(Math.sqrt(Math.abs(v)));
      wide[i] = v * 3;
    });
    return { out: out('f16', o, { ulp: [0, 0, 1] }), wide: out('f32', wide, { ulp: [0] }) };
  },
  f64_ops(inp) {
    const a = i32(inp.a!);
    const b = i32(inp.b!);
    const o = new Float64Array(8 * a.length);
    a.forEach((ai, i) => {
      const x = ai * 0.0009765625;
      const y = b[i]! * 0.0078125 + 0.5;
      const k = 8 * i;
      o[k] = Math.floor(x);
      o[k + 1] = Math.ceil(x);
      o[k + 2] = Math.trunc(x);
      o[k + 3] = rint(x);
      o[k + 4] = Math.min(x, y) * Math.max(x, y); // exact: 17-bit by 18-bit mantissas
      o[k + 5] = x * y - x; // exact too, so the fma's single rounding changes nothing
      o[k + 6] = x / y;
      o[k + 7] = Math.sqrt(Math.abs(y));
    });
    return { out: out('f64', o, { ulp: [0, 0, 0, 0, 0, 0, 1, 1] }) };
  },
  int64_ops(inp) {
    const a = u32(inp.a!);
    const b = u32(inp.b!);
    const n = a.length / 2;
    const o = new Uint32Array(n * 24);
    for (let i = 0; i < n; i++) {
      const x = u64(a[2 * i]!, a[2 * i + 1]!);
      const y = u64(b[2 * i]!, b[2 * i + 1]!);
      const s = y & 63n;
      const k = i * 12;
      let pc = 0n;
      for (let v = x; v; v &= v - 1n) pc++;
      let lz = 0n;
      while (lz < 64n && !((x >> (63n - lz)) & 1n)) lz++;
      const y1 = y | 1n;
      const r = [
        x + y, x - y, x * y, x >> s, s64(x) >> s, x << s, pc, lz,
        ((x << s) | (x >> ((64n - s) & 63n))) & M64, (x * y) >> 64n,
        x / y1, s64(x) % s64(y1),
      ];
      r.forEach((v, j) => put64(o, k + j, v));
    }
    return { out: out('u32', o) };
  },
  transcendental(inp) {
    const x = f32a(inp.x!);
    const y = f32a(inp.y!);
    const o = new Float32Array(8 * x.length);
    x.forEach((u, i) => {
      const v = y[i]!;
      const k = 8 * i;
      o[k] = Math.sin(u);
      o[k + 1] = Math.cos(u);
      o[k + 2] = Math.tan(u);
      o[k + 3] = Math.exp(u);
      o[k + 4] = Math.log(v);
      o[k + 5] = v ** u;
      o[k + 6] = Math.atan2(u, v);
      o[k + 7] = Math.tanh(u);
    });
    return { out: out('f32', o, { ulp: [4, 4, 5, 3, 3, 16, 6, 5] }) };
  },
  collatz(inp) {
    const st = u32(inp.start!);
    const steps = new Uint32Array(st.length);
    const peak = new Uint32Array(st.length);
    st.forEach((s0, i) => {
      let n = s0;
      let s = 0;
      let p = n;
      while (n !== 1 && s < 1000) {
        n = n & 1 ? (3 * n + 1) >>> 0 : n >>> 1;
        p = Math.max(p, n);
        s++;
      }
      steps[i] = s;
      peak[i] = p;
    });
    return { steps: out('u32', steps), peak: out('u32', peak) };
  },
  nested_loops(inp) {
    const a = i32(inp.a!);
    return {
      out: out('i32', a.map((ai, g) => {
        const n = ai & 15;
        let acc = 0;
        for (let i = 0; i < n; i++) {
          if ((i ^ g) & 1) continue;
          for (let j = i; j < 2 * n; j++) {
            if (j * i > 3 * n) break;
            acc += j - i;
          }
        }
        return acc;
      })),
    };
  },
  private_sort(inp) {
    const a = i32(inp.in!);
    for (let g = 0; g < a.length; g += 48) a.subarray(g, g + 48).sort();
    return { out: out('i32', a) };
  },
  mandelbrot() {
    const o = new Uint32Array(64 * 32);
    for (let py = 0; py < 32; py++) {
      for (let px = 0; px < 64; px++) {
        const cr = fr(-2 + fr(px * 0.046875));
        const ci = fr(-1 + fr(py * 0.046875));
        let zr = 0;
        let zi = 0;
        let it = 0;
        while (it < 64 && fr(fr(zr * zr) + fr(zi * zi)) <= 4) {
          const t = fr(fr(fr(zr * zr) - fr(zi * zi)) + cr);
          zi = fr(fr(fr(2 * zr) * zi) + ci);
          zr = t;
          it++;
        }
        o[py * 64 + px] = it;
      }
    }
    return { out: out('u32', o) };
  },
  int_builtins(inp) {
    const a = i32(inp.a!);
    const b = i32(inp.b!);
    const o = new Int32Array(10 * a.length);
    const wide = new Uint32Array(2 * a.length);
    const sat = (v: number) => Math.min(Math.max(v, -2147483648), 2147483647);
    a.forEach((x, i) => {
      const y = b[i]!;
      const k = 10 * i;
      o[k] = sat(x + y);
      o[k + 1] = sat(x - y);
      o[k + 2] = Math.floor((x + y) / 2);
      o[k + 3] = Math.floor((x + y + 1) / 2);
      o[k + 4] = Math.abs(x - y) | 0;
      o[k + 5] = Math.imul(x >> 8, y >> 8);
      o[k + 6] = (Math.imul(x >> 8, y >> 8) + x) | 0;
      o[k + 7] = mulhiI32(x, y);
      o[k + 8] = Math.min(Math.max(x, -1000), 1000);
      const s = y & 31;
      o[k + 9] = (x << s) | (x >>> ((32 - s) & 31));
      wide[2 * i] = y >>> 0;
      wide[2 * i + 1] = x >>> 0;
    });
    return { out: out('i32', o), wide: out('i64', wide) };
  },
  stream_compact(inp) {
    const a = u32(inp.in!);
    const kept = [...a].filter((v) => v > 600);
    const o = new Uint32Array(a.length);
    o.set(kept);
    return { out: out('u32', o, { unordered: true }), count: out('u32', Uint32Array.of(kept.length)) };
  },
  dot_f64(inp) {
    const a = f64a(inp.a!);
    const b = f64a(inp.b!);
    const o = new Float64Array(a.length / 128);
    for (let g = 0; g < o.length; g++) {
      const s = Float64Array.from(grid(128), (l) => a[g * 128 + l]! * b[g * 128 + l]!);
      for (let stride = 64; stride > 0; stride >>= 1) for (let l = 0; l < stride; l++) s[l]! += s[l + stride]!;
      o[g] = s[0]!;
    }
    return { partial: out('f64', o, { ulp: [0] }) };
  },
  f64_transcendental(inp) {
    // OpenCL's double bounds (exp/log 3, sin/cos 4, pow 16, atan2 6, cbrt 2, tanh 5) plus 1 for
    // V8's fdlibm, which is within 1 ulp rather than correctly rounded.
    const x = f64a(inp.x!);
    const y = f64a(inp.y!);
    const o = new Float64Array(8 * x.length);
    x.forEach((u, i) => {
      const v = y[i]!;
      o.set([Math.exp(u), Math.log(v), Math.sin(u), Math.cos(u), v ** u, Math.atan2(u, v), Math.cbrt(u), Math.tanh(u)], 8 * i);
    });
    return { out: out('f64', o, { ulp: [4, 4, 5, 5, 17, 7, 3, 6] }) };
  },
  half_transcendental(inp) {
    // libclc evaluates half math in float and rounds: OpenCL's half bounds (2 ulp; sqrt 1, pow 4).
    const x = u16(inp.x!);
    const y = u16(inp.y!);
    const o = new Uint16Array(7 * x.length);
    x.forEach((hu, i) => {
      const u = f16(hu);
      const v = f16(y[i]!);
      o.set([Math.exp(u), Math.log2(v), Math.sin(u), Math.cos(u), Math.sqrt(v), v ** u, Math.tanh(u)].map(f16bits), 7 * i);
    });
    return { out: out('f16', o, { ulp: [2, 2, 2, 2, 1, 4, 2] }) };
  },
  narrow_ints(inp) {
    const px = inp.px!;
    const s = new Int16Array(inp.s!.slice().buffer);
    const n = px.length;
    const bright = new Uint8Array(n);
    const scaled = new Int16Array(n);
    const packed = new Uint16Array(n);
    const mag = new Int8Array(n);
    for (let i = 0; i < n; i++) {
      const p = px[i]!;
      const t = s[i]!;
      bright[i] = Math.min(p + 40, 255);
      scaled[i] = Math.min(Math.max(t * 3, -32768), 32767);
      packed[i] = (p << 8) | (t & 0xff);
      const c = ((t >> 4) << 24) >> 24; // (char)(t >> 4)
      mag[i] = Math.abs(c); // abs(char) is a uchar: 128 wraps back to -128 as a char
    }
    return { bright: out('u8', bright), scaled: out('i16', scaled), packed: out('u16', packed), mag: out('i8', mag) };
  },
  cross_lane(inp, ws, gfx) {
    // All lanes active (64-item groups). DPP16 rows are 16 lanes; permlanex16 reads the other row of
    // its 32-lane half; ds_swizzle works in 32-lane groups; ballot_w64 in wave32 has a zero high half.
    const a = i32(inp.in!);
    const o = new Int32Array(10 * a.length);
    const ballot = new Uint32Array(2 * a.length);
    for (let g = 0; g < a.length; g++) {
      const lane = (g % 64) % ws;
      const wb = g - lane;
      const k = lane & 15;
      const rb = g - k;
      const r = lane >> 4;
      const nib = (lo: number, hi: number) => ((k < 8 ? lo >>> (4 * k) : hi >>> (4 * (k - 8))) & 15);
      // GFX9 has no row_xmask/row_share/permlane: its build stores -1 there (see the source).
      const gfx9 = gfx === 'gfx900';
      o.set([
        k === 0 ? -1 : a[g - 1]!,
        a[rb + 15 - k]!,
        a[g - (lane & 3) + [1, 0, 3, 2][lane & 3]!]!,
        gfx9 ? -1 : a[rb + (k ^ 1)]!,
        gfx9 ? -1 : a[rb + 5]!,
        gfx9 ? -1 : a[rb + nib(0x01234567, 0x89abcdef)]!,
        gfx9 ? -1 : a[wb + ((r ^ 1) << 4) + nib(0x76543210, 0xfedcba98)]!,
        a[wb + (lane ^ 1)]!,
        a[wb + 3]!,
        a[wb + 31 - (lane & 31)]!,
      ], 10 * g);
      for (let l = 0; l < ws; l++) if (a[wb + l]! > 0) ballot[2 * g + (l >> 5)]! |= 1 << (l & 31);
    }
    return { out: out('i32', o), ballot: out('u64', ballot) };
  },
  packed_math(inp, _ws, gfx) {
    const a = u16(inp.a!);
    const b = u16(inp.b!);
    const s = new Int16Array(inp.s!.slice().buffer);
    const u = u16(inp.u!);
    const n = a.length / 2;
    const ho = new Uint16Array(6 * n);
    const so = new Int16Array(4 * n);
    const uo = new Uint16Array(4 * n);
    const dot = new Float32Array(n);
    const idot = new Int32Array(n);
    const sb = (x: number, k: number) => ((x >>> (8 * k)) << 24) >> 24; // signed byte k
    for (let i = 0; i < n; i++) {
      for (let c = 0; c < 2; c++) {
        const x = f16(a[2 * i + c]!);
        const y = f16(b[2 * i + c]!);
        ho[6 * i + c] = f16bits(x + y);
        ho[6 * i + 2 + c] = f16bits(x * y);
        ho[6 * i + 4 + c] = f16bits(Math.max(x, y));
        const p = s[2 * i + c]!;
        const q = s[2 * i + 2 + c]!;
        so[4 * i + c] = p + q;
        so[4 * i + 2 + c] = Math.max(p, q);
        const m = u[2 * i + c]!;
        const nn = u[2 * i + 2 + c]!;
        uo[4 * i + c] = Math.imul(m, nn);
        uo[4 * i + 2 + c] = (m >>> [3, 5][c]!) | (nn << [1, 2][c]!);
      }
      // Positive inputs: the products are exact, so one rounding of the exact sum is within 1 ulp of any order.
      dot[i] = f16(a[2 * i]!) * f16(b[2 * i]!) + f16(a[2 * i + 1]!) * f16(b[2 * i + 1]!) + 1.5;
      const pa = ((s[2 * i]! & 0xffff) | (s[2 * i + 1]! << 16)) >>> 0;
      const pb = (u[2 * i]! | (u[2 * i + 1]! << 16)) >>> 0;
      let acc = i;
      for (let k = 0; k < 4; k++) acc += sb(pa, k) * sb(pb, k);
      idot[i] = acc;
    }
    // The dot builtins need GFX11's dot8-insts: the gfx1030/gfx900 builds store 0 (see the source).
    if (gfx === 'gfx1030' || gfx === 'gfx900') {
      dot.fill(0);
      idot.fill(0);
    }
    return { ho: out('f16', ho, { ulp: [0] }), so: out('i16', so), uo: out('u16', uo), dot: out('f32', dot, { ulp: [1] }), idot: out('i32', idot) };
  },
  local_atomics(inp) {
    const a = i32(inp.in!);
    const groups = a.length / 64;
    const res = new Int32Array(12 * groups);
    for (let g = 0; g < groups; g++) {
      const xs = a.subarray(64 * g, 64 * g + 64);
      let and = -1;
      let xor = 0;
      let cas = 0;
      let umin = 0xffffffff;
      let umax = 0;
      let bytes = 0;
      for (const x of xs) {
        and &= ~(1 << (x & 31));
        xor ^= x;
        cas += x & 15;
        umin = Math.min(umin, x >>> 0);
        umax = Math.max(umax, x >>> 0);
        bytes += x & 0xff;
      }
      res.set([Math.min(...xs), Math.max(...xs), and, -1, xor, 5, cas, 0, umin | 0, umax | 0, 64, bytes], 12 * g);
    }
    return { res: out('i32', res), slot: out('i32', new Int32Array(a.length).fill(1)) };
  },
  denorm_ftz(inp, _ws, gfx) {
    // MODE flushes f32 denormals: inputs read as signed zero, denormal results become signed zero.
    // The fused ops (v_fmamk, v_fma) round the exact sum once; every sum here is exact in f64.
    // gfx900 computes x + y * 2^-120 with v_madmk_f32, which is not fused and flushes its product.
    const ftz = (v: number) => (v !== 0 && Math.abs(v) < 2 ** -126 ? (v < 0 ? -0 : 0) : v);
    const a = f32a(inp.a!);
    const b = f32a(inp.b!);
    const o = new Float32Array(4 * a.length);
    a.forEach((x0, i) => {
      const x = ftz(x0);
      const y = ftz(b[i]!);
      const p120 = gfx === 'gfx900' ? ftz(fr(y * 2 ** -120)) : y * 2 ** -120;
      o.set([ftz(fr(x * y)), ftz(fr(p120 + x)), ftz(fr(x * y + x)), ftz(fr(x * 2 ** -100))], 4 * i);
    });
    return { out: out('f32', o, { ulp: [0] }) };
  },
  round_modes(inp) {
    // Operands in ±[1, 2) and ±[1, 4): sums, products and fma results are exact in f64, so the
    // f32 result in each MODE.FP_ROUND mode is the exact value rounded in that direction.
    const a = f32a(inp.a!);
    const b = f32a(inp.b!);
    const c = f32a(inp.c!);
    const o = new Float32Array(12 * a.length);
    a.forEach((x, i) => {
      const y = i & 1 ? -b[i]! : b[i]!;
      const z = i & 2 ? -c[i]! : c[i]!;
      for (let m = 0; m < 4; m++) o.set([x + y, x * y, x * y + z].map((v) => roundF32(v, m)), 12 * i + 3 * m);
    });
    return { out: out('f32', o, { ulp: [0] }) };
  },
  buffer_rsrc(inp) {
    // Raw buffer resources with num_records = n * 4 bytes (n = 200): a b32 load at or past it reads 0,
    // a store there is dropped (out keeps its fill).
    const a = i32(inp.in!);
    const n = 200;
    const o = new Int32Array(a.length).fill(12345);
    const low = new Uint16Array(a.length);
    for (let i = 0; i < a.length; i++) {
      const v = i < n ? a[i]! : 0;
      const u = a[(i & 63) + 2]!;
      if (i < n) o[i] = v + u;
      low[i] = v ^ i;
    }
    return { out: out('i32', o), low: out('u16', low) };
  },
  float_atomics(inp) {
    const a = f32a(inp.in!);
    const g = new Float32Array(a.length / 64);
    a.forEach((x, i) => (g[Math.floor(i / 64)]! += x)); // integers: exact in any order
    return {
      acc: out('f32', Float32Array.of(a.reduce((s, x) => s + x, 0), Math.min(...a), Math.max(...a)), { ulp: [0] }),
      groupsum: out('f32', g, { ulp: [0] }),
    };
  },
  int_div(inp) {
    const a = i32(inp.a!);
    const b = i32(inp.b!);
    const q = new Int32Array(4 * a.length);
    const fm = new Float32Array(a.length);
    a.forEach((x, i) => {
      const y = b[i]! | 1;
      const ux = x >>> 0;
      const uy = y >>> 0;
      q.set([Math.trunc(x / y), x % y, Math.trunc(ux / uy), ux % uy], 4 * i);
      fm[i] = fr(fr(x) * fr(0.001)) % fr(fr(y) * fr(0.0001)); // fmod is exact
    });
    return { q: out('i32', q), fm: out('f32', fm, { ulp: [0] }) };
  },
  vector_types(inp) {
    const f = f32a(inp.f!);
    const nn = i32(inp.n!);
    const n = f.length / 4 - 1;
    const fo = new Float32Array(4 * n);
    const io = new Int32Array(4 * n);
    const co = new Uint8Array(4 * n);
    const ho = new Uint16Array(3 * n);
    for (let i = 0; i < n; i++) {
      const a = f.subarray(4 * i, 4 * i + 4);
      const b = f.subarray(4 * i + 4, 4 * i + 8);
      const p = nn.subarray(4 * i, 4 * i + 4);
      const q = nn.subarray(4 * i + 4, 4 * i + 8);
      for (let k = 0; k < 4; k++) fo[4 * i + k] = a[3 - k]! * b[k]! + (k + 1); // multiples of 1/256: exact
      const shuf = [p[0]!, q[1]!, p[2]!, q[3]!];
      for (let k = 0; k < 4; k++) io[4 * i + k] = shuf[k]! + Math.min(p[k]!, q[k]!); // select(p, q, p > q)
      const c = [0, 1, 2, 3].map((k) => Math.min(Math.max(p[k]! >> 20, 0), 255));
      co.set([c[1]!, c[0]!, c[3]!, c[2]!], 4 * i);
      const v = a[0]! * 1000;
      ho.set([3, 1, 2].map((m) => roundF16(v, m)), 3 * i);
    }
    return { fo: out('f32', fo, { ulp: [0] }), io: out('i32', io), co: out('u8', co), ho: out('f16', ho, { ulp: [0] }) };
  },
  realtime(inp) {
    // REALTIME only moves forward (s_sleep and the loop lie between the two reads); MODE.FP_ROUND
    // at launch is the descriptor's (0: round to nearest even everywhere).
    const a = u32(inp.in!);
    const o = new Uint32Array(3 * a.length);
    a.forEach((x, i) => {
      let acc = x;
      for (let k = 0; k < (x & 31); k++) acc = (Math.imul(acc, 1664525) + 1013904223) >>> 0;
      o.set([1, acc, 0], 3 * i);
    });
    return { out: out('u32', o) };
  },
  trap(inp) {
    // Lanes with a negative input trap after the others stored; the handler counts them (TMA) and ends the wave.
    const a = i32(inp.in!);
    const o = a.map((v) => (v < 0 ? -1 : 2 * v));
    return { out: out('i32', o), trapped: out('u32', Uint32Array.of(a.filter((v) => v < 0).length)) };
  },
  atomics64(inp) {
    const v = u32(inp.v!);
    let add = 0n;
    let max = 0n;
    let min = M64;
    let xor = 0n;
    for (const e of v) {
      const x = BigInt(e) * 4099n;
      add = (add + x) & M64;
      if (x > max) max = x;
      if (x < min) min = x;
      xor ^= (x << 20n) & M64;
    }
    const o = new Uint32Array(8);
    [add, max, min, xor].forEach((x, i) => put64(o, i, x));
    return { acc: out('u32', o) };
  },
};

function matmul(A: Float32Array, B: Float32Array, n: number): Float32Array {
  // Inputs are multiples of 1/4 in [-2, 2]: every product and partial sum is exact.
  const C = new Float32Array(n * n);
  for (let r = 0; r < n; r++) for (let c = 0; c < n; c++) {
    let acc = 0;
    for (let k = 0; k < n; k++) acc += A[r * n + k]! * B[k * n + c]!;
    C[r * n + c] = acc;
  }
  return C;
}

function scanGroups(a: Uint32Array, size: number, inclusive: boolean): Uint32Array {
  const o = new Uint32Array(a.length);
  for (let g = 0; g < a.length; g += size) {
    let s = 0;
    for (let i = 0; i < size; i++) {
      if (inclusive) s = (s + a[g + i]!) >>> 0;
      o[g + i] = s;
      if (!inclusive) s = (s + a[g + i]!) >>> 0;
    }
  }
  return o;
}
