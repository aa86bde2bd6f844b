/**
 * image_bvh_intersect_ray / image_bvh64_intersect_ray on gfx1030 and gfx1100 against hand-built
 * RADV-layout nodes (bvh.ts). Expected values are computed here independently: a double-precision
 * slab test for box nodes and a Möller–Trumbore intersection for triangles. The encodings of every
 * line agree with llvm-mc-19 (when installed).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { targets } from '../../src/amd/isa/targets.js';
import { assemble, type IsaTarget } from '../../src/amd/isa/target.js';
import { Memory } from '../../src/core/memory.js';
import { f16bits, f32bits } from '../../src/core/float.js';
import { haveLlvm, LLVM_MC } from '../../tools/gen/llvm.js';
import { runAsm } from './exec-harness.js';

/** nsa: GFX11's grouped NSA form, or (`scatter`) GFX10.3's one-register-per-dword NSA form with the registers in reverse order. */
interface Gen { readonly cpu: 'gfx1100' | 'gfx1030'; readonly target: IsaTarget; readonly nsa: boolean; readonly scatter?: boolean }
const GENS: readonly Gen[] = [
  { cpu: 'gfx1100', target: targets.gfx1100!, nsa: false },
  { cpu: 'gfx1100', target: targets.gfx1100!, nsa: true },
  { cpu: 'gfx1030', target: targets.gfx1030!, nsa: false },
  { cpu: 'gfx1030', target: targets.gfx1030!, nsa: false, scatter: true },
];
const BASE = 0x3000_0000;
const LINES = new Map<string, Set<string>>();
/** The scattered form's first address register (dword k in v[SCATTER - k]). */
const SCATTER = 40;

type V3 = [number, number, number];
interface Box { readonly min: V3; readonly max: V3 }

/** A box32 node at byte `at`: children then boxes (min xyz, max xyz). */
function box32(mem: Memory, at: number, children: readonly number[], boxes: readonly Box[]): void {
  children.forEach((c, i) => mem.write32(at + i * 4, c >>> 0));
  boxes.forEach((b, i) => [...b.min, ...b.max].forEach((x, k) => mem.write32(at + 16 + i * 24 + k * 4, f32bits(x) >>> 0)));
}
function box16(mem: Memory, at: number, children: readonly number[], boxes: readonly Box[]): void {
  children.forEach((c, i) => mem.write32(at + i * 4, c >>> 0));
  boxes.forEach((b, i) => {
    const h = [...b.min, ...b.max].map(f16bits);
    for (let k = 0; k < 3; k++) mem.write32(at + 16 + i * 12 + k * 4, (h[2 * k]! | (h[2 * k + 1]! << 16)) >>> 0);
  });
}
function tri(mem: Memory, at: number, v: readonly V3[]): void {
  v.forEach((p, j) => p.forEach((x, k) => mem.write32(at + j * 12 + k * 4, f32bits(x) >>> 0)));
}

/** Independent slab test: tmin if the ray hits within [0, extent), else undefined. */
function slab(b: Box, o: V3, d: V3, extent: number): number | undefined {
  let lo = -Infinity, hi = Infinity;
  for (let k = 0; k < 3; k++) {
    const t0 = (b.min[k]! - o[k]!) / d[k]!, t1 = (b.max[k]! - o[k]!) / d[k]!;
    lo = Math.max(lo, Math.min(t0, t1));
    hi = Math.min(hi, Math.max(t0, t1));
  }
  return hi >= Math.max(0, lo) && lo < extent ? lo : undefined;
}
/** Möller–Trumbore: t and the barycentric weights of v1 and v2, or undefined. */
function mt(v: readonly V3[], o: V3, d: V3): { t: number; u: number; w: number; det: number } | undefined {
  const sub = (a: V3, b: V3): V3 => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
  const cross = (a: V3, b: V3): V3 => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
  const dot = (a: V3, b: V3): number => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
  const e1 = sub(v[1]!, v[0]!), e2 = sub(v[2]!, v[0]!);
  const p = cross(d, e2);
  const det = dot(e1, p);
  if (det === 0) return undefined;
  const s = sub(o, v[0]!);
  const u = dot(s, p) / det;
  const q = cross(s, e1);
  const w = dot(d, q) / det;
  const t = dot(e2, q) / det;
  if (u < 0 || w < 0 || u + w > 1 || t < 0) return undefined;
  return { t, u, w, det };
}

/** Address VGPRs from v9: node pointer (1 or 2), extent, origin, dir, inv_dir (f16 pairs with a16). */
function rayVgprs(ptr: number, wide: boolean, extent: number, o: V3, d: V3, a16: boolean): Record<number, number> {
  const out: Record<number, number> = {};
  let k = 9;
  out[k++] = ptr % 2 ** 32;
  if (wide) out[k++] = Math.floor(ptr / 2 ** 32);
  out[k++] = f32bits(extent) >>> 0;
  for (const x of o) out[k++] = f32bits(x) >>> 0;
  const inv = d.map((x) => 1 / x);
  if (a16) {
    const h = [...d, ...inv].map(f16bits);
    for (let i = 0; i < 3; i++) out[k++] = (h[2 * i]! | (h[2 * i + 1]! << 16)) >>> 0;
  } else for (const x of [...d, ...inv]) out[k++] = f32bits(x) >>> 0;
  return out;
}
function line(g: Gen, wide: boolean, a16: boolean): string {
  const op = wide ? 'image_bvh64_intersect_ray' : 'image_bvh_intersect_ray';
  const n = (wide ? 2 : 1) + 4 + (a16 ? 3 : 6);
  let addr: string;
  if (g.scatter) addr = `[${Array.from({ length: n }, (_, k) => `v${SCATTER - k}`).join(', ')}]`;
  else if (g.nsa) {
    const p = wide ? 'v[9:10]' : 'v9', e = wide ? 11 : 10;
    addr = `[${p}, v${e}, v[${e + 1}:${e + 3}], v[${e + 4}:${e + 6}]${a16 ? '' : `, v[${e + 7}:${e + 9}]`}]`;
  } else addr = `v[9:${9 + n - 1}]`;
  const text = `${op} v[4:7], ${addr}, s[4:7]${a16 ? ' a16' : ''}`;
  let s = LINES.get(g.cpu);
  if (!s) LINES.set(g.cpu, (s = new Set()));
  s.add(text);
  return text;
}
/** BVH descriptor in s[4:7]: base address, box sort (dword1 bit 31), triangle return mode (dword3 bit 24). */
function desc(base: number, sort: boolean, ij: boolean): Record<number, number> {
  return { 4: (base / 256) >>> 0, 5: (sort ? 0x8000_0000 : 0) >>> 0, 6: 0xffffffff, 7: ((ij ? 1 << 24 : 0) | 0x8000_0000 | 0x3ff) >>> 0 };
}
function run(g: Gen, wide: boolean, a16: boolean, mem: Memory, sg: Record<number, number>, vg: Record<number, number>): number[] {
  if (g.scatter) vg = Object.fromEntries(Object.entries(vg).map(([r, x]) => [SCATTER - (Number(r) - 9), x]));
  const r = runAsm(`${line(g, wide, a16)}\ns_waitcnt vmcnt(0)\ns_endpgm`, { target: g.target, waveSize: 32, mem, sgpr: sg, vgpr: vg });
  assert.deepEqual(r.diags.map((x) => x.id), []);
  return [4, 5, 6, 7].map((k) => r.v(k, 0) >>> 0);
}
const memory = (): Memory => { const m = new Memory(); m.map(BASE, 65536, 'bvh'); return m; };
const asF = (bits: number): number => new Float32Array(Uint32Array.of(bits).buffer)[0]!;

const O: V3 = [0.5, 0.25, -4];
const D: V3 = [0.125, 0.25, 1];
// Four boxes: near, far, one past the extent, one that the ray misses sideways; a fifth scene
// swaps in a NaN (inactive) box.
const BOXES: Box[] = [
  { min: [0, 0, 6], max: [4, 4, 7] },
  { min: [0, 0, 0], max: [2, 2, 1] },
  { min: [-50, -50, 96], max: [50, 50, 97] },
  { min: [8, 8, -1], max: [9, 9, 1] },
];
const CHILD = [0x1111_1115, 0x2222_2225, 0x3333_3335, 0x4444_4440];

for (const g of GENS) {
  for (const wide of [false, true]) {
    for (const a16 of [false, true]) {
      const tag = `${g.cpu}${g.nsa ? ' nsa' : g.scatter ? ' nsa-scattered' : ''}: ${wide ? 'bvh64' : 'bvh'}${a16 ? ' a16' : ''}`;
      test(`${tag}: box32/box16 node children, sorted by entry distance or in node order`, () => {
        const mem = memory();
        const at = BASE + 0x400;
        box32(mem, at, CHILD, BOXES);
        box16(mem, at + 0x80, CHILD, BOXES);
        const extent = 50;
        const dist = BOXES.map((b) => slab(b, O, D, extent));
        assert.deepEqual(dist.map((x) => x !== undefined), [true, true, false, false]);
        const inOrder = CHILD.map((c, i) => (dist[i] === undefined ? 0xffffffff : c >>> 0));
        const sorted = CHILD.map((c, i) => ({ c: c >>> 0, t: dist[i] ?? Infinity })).sort((a, b) => a.t - b.t).map((x) => (x.t === Infinity ? 0xffffffff : x.c));
        for (const [node, type] of [[at, 5], [at + 0x80, 4]] as const) {
          // Base 0 with an absolute node pointer, and a base with a relative one.
          for (const base of [0, BASE]) {
            const ptr = (node - base) / 8 + type;
            assert.deepEqual(run(g, wide, a16, mem, desc(base, true, true), rayVgprs(ptr, wide, extent, O, D, a16)), sorted, `${tag} type ${type} sorted`);
            assert.deepEqual(run(g, wide, a16, mem, desc(base, false, true), rayVgprs(ptr, wide, extent, O, D, a16)), inOrder, `${tag} type ${type} unsorted`);
          }
        }
        // A NaN min.x marks an inactive box; a short extent drops the far box.
        box32(mem, at, CHILD, [BOXES[0]!, { min: [NaN, 0, 0], max: [2, 2, 1] }, BOXES[2]!, BOXES[3]!]);
        assert.deepEqual(run(g, wide, a16, mem, desc(0, true, true), rayVgprs(at / 8 + 5, wide, extent, O, D, a16)), [CHILD[0]! >>> 0, 0xffffffff, 0xffffffff, 0xffffffff]);
        box32(mem, at, CHILD, BOXES);
        const short = slab(BOXES[0]!, O, D, 5) === undefined && slab(BOXES[1]!, O, D, 5) !== undefined;
        assert.ok(short);
        assert.deepEqual(run(g, wide, a16, mem, desc(0, true, true), rayVgprs(at / 8 + 5, wide, 5, O, D, a16)), [CHILD[1]! >>> 0, 0xffffffff, 0xffffffff, 0xffffffff]);
      });

      test(`${tag}: triangle node t and barycentrics (Möller–Trumbore), facing from t_denom's sign`, () => {
        const mem = memory();
        const at = BASE + 0x800;
        const V: V3[] = [[0, 0, 2], [3, 0.5, 2.5], [0.25, 3, 3]];
        const want = mt(V, O, D)!;
        assert.ok(want && want.u > 0 && want.w > 0);
        tri(mem, at, V);
        const r = run(g, wide, a16, mem, desc(0, true, true), rayVgprs(at / 8, wide, 100, O, D, a16)).map(asF);
        const tol = a16 ? 2e-3 : 1e-5; // a16: f16 directions
        assert.ok(Math.abs(r[0]! / r[1]! - want.t) <= tol * want.t, `t ${r[0]! / r[1]!} vs ${want.t}`);
        assert.ok(Math.abs(r[2]! / r[1]! - want.u) <= tol, `i ${r[2]! / r[1]!} vs ${want.u}`);
        assert.ok(Math.abs(r[3]! / r[1]! - want.w) <= tol, `j ${r[3]! / r[1]!} vs ${want.w}`);
        // The other winding: the facing sign flips and i/j swap; t is the same.
        tri(mem, at, [V[0]!, V[2]!, V[1]!]);
        const s = run(g, wide, a16, mem, desc(0, true, true), rayVgprs(at / 8, wide, 100, O, D, a16)).map(asF);
        assert.equal(Math.sign(s[1]!), -Math.sign(r[1]!));
        assert.ok(Math.abs(s[0]! / s[1]! - want.t) <= tol * want.t);
        assert.ok(Math.abs(s[2]! / s[1]! - want.w) <= tol && Math.abs(s[3]! / s[1]! - want.u) <= tol);
        // A miss (the ray passes beside the triangle): +inf / 1.0, barycentrics 0.
        const far: V3[] = V.map((p) => [p[0] + 10, p[1], p[2]]);
        assert.equal(mt(far, O, D), undefined);
        tri(mem, at, far);
        assert.deepEqual(run(g, wide, a16, mem, desc(0, true, true), rayVgprs(at / 8, wide, 100, O, D, a16)).map(asF), [Infinity, 1, 0, 0]);
      });
    }
  }
}

test('unmodelled BVH forms are diagnosed once; clean nodes stay quiet', () => {
  const g = GENS[0]!;
  const mem = memory();
  tri(mem, BASE, [[0, 0, 2], [3, 0.5, 2.5], [0.25, 3, 3]]);
  const go = (ij: boolean, type: number) => runAsm(`${line(g, false, false)}\ns_endpgm`, { target: g.target, waveSize: 32, mem, sgpr: desc(0, true, ij), vgpr: rayVgprs(BASE / 8 + type, false, 100, O, D, false) });
  assert.deepEqual(go(false, 0).diags.map((d) => d.id), ['gfx11.mimg.unsupported']);
  assert.deepEqual(go(true, 6).diags.map((d) => d.id), ['gfx11.mimg.unsupported']);
  assert.deepEqual(go(true, 0).diags.map((d) => d.id), []);
});

test('the BVH lines assemble as llvm-mc-19 encodes them', { skip: haveLlvm() ? false : 'llvm-mc-19 not installed' }, () => {
  for (const [cpu, set] of LINES) {
    const lines = [...set];
    assert.ok(lines.length >= 4, cpu);
    const r = spawnSync(LLVM_MC, ['-triple=amdgcn-amd-amdhsa', `-mcpu=${cpu}`, '-show-encoding'], { input: lines.join('\n') + '\n', encoding: 'utf8' });
    assert.equal(r.stderr, '', cpu);
    const theirs = r.stdout.split('\n').filter((l) => l.includes('encoding:')).map((l) => /encoding: \[(.*)\]/.exec(l)![1]!.split(',').map((x) => Number(x)));
    assert.equal(theirs.length, lines.length);
    const target = cpu === 'gfx1030' ? targets.gfx1030! : targets.gfx1100!;
    lines.forEach((l, i) => {
      const bytes = Array.from(new Uint8Array(Uint32Array.from(assemble(target, l)).buffer));
      assert.deepEqual(bytes, theirs[i], `${cpu}: ${l}`);
    });
  }
});

test('gfx1100: lanes trace their own node types; results past the VGPR allocation are not written', () => {
  const g = GENS[0]!;
  const mem = memory();
  const box = BASE + 0x400, tr = BASE + 0x800;
  box32(mem, box, CHILD, BOXES);
  const V: V3[] = [[0, 0, 2], [3, 0.5, 2.5], [0.25, 3, 3]];
  tri(mem, tr, V);
  const per = (ptr: number): Record<number, number> => rayVgprs(ptr, false, 50, O, D, false);
  const a = per(box / 8 + 5), b = per(tr / 8);
  const vg: Record<number, number[]> = {};
  for (const r of Object.keys(a)) vg[Number(r)] = [a[Number(r)]!, b[Number(r)]!];
  const r = runAsm(`${line(g, false, false)}\ns_waitcnt vmcnt(0)\ns_endpgm`, { target: g.target, waveSize: 32, mem, sgpr: desc(0, true, true), vgpr: vg, exec: 3 });
  assert.deepEqual(r.diags.map((x) => x.id), []);
  const dist = BOXES.map((bx) => slab(bx, O, D, 50));
  const order = CHILD.map((c, i) => ({ c: c >>> 0, t: dist[i] ?? Infinity })).sort((p, q) => p.t - q.t).map((x) => (x.t === Infinity ? 0xffffffff : x.c));
  assert.deepEqual([4, 5, 6, 7].map((k) => r.v(k, 0) >>> 0), order);
  const want = mt(V, O, D)!;
  assert.ok(Math.abs(r.vf(4, 1) / r.vf(5, 1) - want.t) < 1e-5 * want.t);
  // vdata v[4:7] with 6 VGPRs allocated: issued with EXEC=0, v4/v5 keep their values.
  const q = runAsm(`image_bvh_intersect_ray v[4:7], [v0, v1, v[2:4], v[2:4], v[2:4]], s[4:7]\ns_endpgm`, { target: g.target, waveSize: 32, vgprs: 6, mem, sgpr: desc(0, true, true), vgpr: { 0: box / 8 + 5, 1: f32bits(50) >>> 0, 4: 7, 5: 9 } });
  assert.ok(q.diags.some((x) => x.id === 'gfx11.vgpr.dst-out-of-range'));
  assert.deepEqual([q.v(4, 0), q.v(5, 0)], [7, 9]);
});
