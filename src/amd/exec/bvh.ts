/**
 * image_bvh_intersect_ray / image_bvh64_intersect_ray (GFX10.3, GFX11): one ray against one BVH
 * node, four dwords back.
 *
 * Address VGPRs, in LLVM's order (llvm.amdgcn.image.bvh.intersect.ray): node pointer (1 dword, or
 * 2 for bvh64), ray extent (f32), ray origin (3 x f32), ray direction and inverse direction (3 x
 * f32 each; with A16 six f16 packed {dir.x, dir.y} {dir.z, inv.x} {inv.y, inv.z}).
 *
 * The resource is a 4-dword BVH descriptor (r128) laid out as RADV builds it: dword0 = base
 * address bits 39:8, dword1 bits 7:0 = base address bits 47:40 and bit 31 = box sort enable,
 * dword3 bit 24 = triangle return mode (1: barycentrics). The node's byte address is base +
 * (node pointer with its low 3 bits cleared) * 8: nodes are 64-byte aligned and the low 3 bits of
 * the pointer carry the node type (RADV bvh.h): 0 triangle, 4 box16, 5 box32.
 *
 * Box nodes (radv_bvh_box32_node: children[4] at 0, four {min xyz, max xyz} f32 boxes from byte
 * 16; box16: the same with f16 coordinates): a child is hit when its min.x is not NaN and the slab
 * test gives tmax >= max(0, tmin) and tmin < ray extent (inverse direction clamped to +-FLT_MAX,
 * each operation rounded to f32); missed children read 0xffffffff. With box sort the hit children
 * are ordered by tmin (misses last; the same 5-comparator network as RADV's emulation); without it
 * they stay in node order.
 * Triangle nodes (vertices v0, v1, v2 as f32 xyz at bytes 0, 12, 24): the watertight test
 * (Woop et al., JCGT 2013) as RADV's software path computes it (shear in f32, edge functions and t
 * in f64); the result is {t_num, t_denom, i_num, j_num} with t = t_num / t_denom and barycentrics
 * i = i_num / t_denom (weight of v1), j = j_num / t_denom (weight of v2), normalized so that
 * |t_denom| = 1 and its sign is the facing (the determinant's sign); a miss (or a hit behind the
 * origin) returns {+inf, 1.0, 0, 0}. How the hardware scales the numerators is not in our sources;
 * every ratio above is.
 *
 * Not modelled (diagnosed `gfx11.mimg.unsupported`, result 0): triangle return mode 0 (triangle id
 * and hit status: their encoding is not in our sources), node types 1-3 (second triangle of a
 * compressed pair), 6 (instance) and 7 (procedural AABB), and the descriptor's box growing amount
 * (boxes are tested as stored).
 */
import type { Instruction } from '../isa/types.js';
import type { MimgDecoded } from '../isa/gfx11/memory-mimg.js';
import type { Wave } from '../wave/wave.js';
import { OncePerDispatch, type ExecEnv } from '../engine/env.js';
import { define, type Finding } from '../engine/registry.js';
import { CNT_MAX, dstInRange, laneOn, srcRows } from './vmem.js';
import { f16, f32bits } from '../../core/float.js';
import { diagAt } from './operands.js';

const F = Math.fround;
const FLT_MAX = 3.4028234663852886e38;
const INVALID = 0xffffffff;

/** Node types (low 3 bits of a node pointer). */
export const BVH_TRIANGLE = 0, BVH_BOX16 = 4, BVH_BOX32 = 5;

export interface Ray { readonly extent: number; readonly origin: readonly number[]; readonly dir: readonly number[]; readonly inv: readonly number[] }

const asF32 = (bits: number): number => {
  const b = new DataView(new ArrayBuffer(4));
  b.setUint32(0, bits >>> 0, true);
  return b.getFloat32(0, true);
};

/** The four children of a box node against the ray: pointers (misses 0xffffffff), sorted by tmin when `sort`. */
export function boxNode(read32: (a: number) => number, addr: number, half: boolean, ray: Ray, sort: boolean): number[] {
  const inv = ray.inv.map((x) => Math.min(FLT_MAX, Math.max(-FLT_MAX, x)));
  const child: number[] = [], dist: number[] = [];
  for (let i = 0; i < 4; i++) {
    const lo: number[] = [], hi: number[] = [];
    for (let k = 0; k < 3; k++) {
      if (half) {
        const word = (j: number): number => read32(addr + 16 + i * 12 + (j >> 1) * 4) >>> 0;
        const h = (j: number): number => f16((word(j) >>> ((j & 1) * 16)) & 0xffff);
        lo.push(h(k)); hi.push(h(3 + k));
      } else {
        lo.push(asF32(read32(addr + 16 + i * 24 + k * 4))); hi.push(asF32(read32(addr + 16 + i * 24 + 12 + k * 4)));
      }
    }
    const b0 = lo.map((c, k) => F(F(c - ray.origin[k]!) * inv[k]!));
    const b1 = hi.map((c, k) => F(F(c - ray.origin[k]!) * inv[k]!));
    const tmin = Math.max(Math.min(b0[0]!, b1[0]!), Math.min(b0[1]!, b1[1]!), Math.min(b0[2]!, b1[2]!));
    const tmax = Math.min(Math.max(b0[0]!, b1[0]!), Math.max(b0[1]!, b1[1]!), Math.max(b0[2]!, b1[2]!));
    const hit = !Number.isNaN(lo[0]!) && tmax >= Math.max(0, tmin) && tmin < ray.extent;
    child.push(hit ? read32(addr + i * 4) >>> 0 : INVALID);
    dist.push(hit ? tmin : Infinity);
  }
  if (sort) {
    for (const [a, b] of [[0, 1], [2, 3], [0, 2], [1, 3], [1, 2]] as const) {
      if (dist[b]! < dist[a]!) {
        [dist[a], dist[b]] = [dist[b]!, dist[a]!];
        [child[a], child[b]] = [child[b]!, child[a]!];
      }
    }
  }
  return child;
}

/** A triangle node against the ray: {t_num, t_denom, i_num, j_num} as f32 values. */
export function triangleNode(read32: (a: number) => number, addr: number, ray: Ray): number[] {
  const vtx = [0, 1, 2].map((j) => [0, 1, 2].map((k) => asF32(read32(addr + j * 12 + k * 4))));
  const d = ray.dir;
  const ad = d.map(Math.abs);
  const kz = ad[0]! >= ad[1]! ? (ad[0]! >= ad[2]! ? 0 : 2) : ad[1]! >= ad[2]! ? 1 : 2;
  let kx = (kz + 1) % 3, ky = (kx + 1) % 3;
  if (d[kz]! < 0) [kx, ky] = [ky, kx];
  const sz = F(1 / d[kz]!);
  const sx = F(d[kx]! * sz), sy = F(d[ky]! * sz);
  const rel = vtx.map((v) => v.map((c, k) => F(c - ray.origin[k]!)));
  const px = rel.map((v) => F(v[kx]! - F(sx * v[kz]!)));
  const py = rel.map((v) => F(v[ky]! - F(sy * v[kz]!)));
  const [ax, bx, cx] = px as [number, number, number];
  const [ay, by, cy] = py as [number, number, number];
  const u = cx * by - cy * bx, v = ax * cy - ay * cx, w = bx * ay - by * ax;
  const miss = [Infinity, 1, 0, 0];
  if ((u < 0 || v < 0 || w < 0) && (u > 0 || v > 0 || w > 0)) return miss;
  const det = u + v + w;
  const t = u * (sz * rel[0]![kz]!) + v * (sz * rel[1]![kz]!) + w * (sz * rel[2]![kz]!);
  if (Math.sign(det) * t < 0) return miss;
  const a = Math.abs(det);
  return [F(t / a), Math.sign(det), F(v / a), F(w / a)];
}

function lanes(inst: Instruction): number[] {
  const out: number[] = [];
  for (const [r, n] of (inst.info as MimgDecoded).addr) for (let k = 0; k < n; k++) out.push(r + k);
  return out;
}

for (const wide of [false, true]) {
  define(wide ? 'image_bvh64_intersect_ray' : 'image_bvh_intersect_ray', (inst, env: ExecEnv) => {
    const f = inst.fields;
    const ws = env.waveSize;
    const findings: Finding[] = [];
    const vdata = f.vdata!;
    if (!dstInRange(env, inst, vdata, 4, findings)) {
      return { cls: 'vmem', findings, run: (w) => { if (w.vmcnt < CNT_MAX) w.vmcnt++; } };
    }
    const a16 = f.a16 === 1;
    const want = (wide ? 2 : 1) + 1 + 3 + (a16 ? 3 : 6);
    let regs = lanes(inst);
    if (regs.length < want) regs = Array.from({ length: want }, (_, k) => f.vaddr! + k);
    if (regs.some((r) => r >= env.vgprs)) srcRows(env, inst, regs[0]!, regs.length, 'address', findings);
    regs = regs.map((r) => (r >= env.vgprs ? 0 : r));
    const srsrc = f.srsrc! * 4;
    const warn = new OncePerDispatch(env);
    return {
      cls: 'vmem',
      findings,
      run: (w: Wave) => {
        const pc = w.pc - inst.size;
        if (w.vmcnt < CNT_MAX) w.vmcnt++;
        const d1 = w.s[srsrc + 1]! >>> 0, d3 = w.s[srsrc + 3]! >>> 0;
        const base = (w.s[srsrc]! >>> 0) * 256 + (d1 & 0xff) * 2 ** 40;
        const sort = (d1 >>> 31) === 1, ij = ((d3 >>> 24) & 1) === 1;
        const v = w.v;
        const read32 = (a: number): number => w.mem.read32(a);
        const reg = (k: number, l: number): number => v[regs[k]! * ws + l]! >>> 0;
        let n = 0;
        let bad = '';
        for (let l = 0; l < ws; l++) {
          if (!laneOn(w, l)) continue;
          n++;
          const ptr = wide ? reg(0, l) + reg(1, l) * 2 ** 32 : reg(0, l);
          let k = wide ? 2 : 1;
          const extent = asF32(reg(k++, l));
          const origin = [0, 1, 2].map(() => asF32(reg(k++, l)));
          let dir: number[], inv: number[];
          if (a16) {
            const h = [0, 1, 2].flatMap(() => { const x = reg(k++, l); return [f16(x & 0xffff), f16(x >>> 16)]; });
            dir = h.slice(0, 3); inv = h.slice(3);
          } else {
            dir = [0, 1, 2].map(() => asF32(reg(k++, l)));
            inv = [0, 1, 2].map(() => asF32(reg(k++, l)));
          }
          const type = ptr % 8;
          const addr = base + (ptr - type) * 8;
          const ray: Ray = { extent, origin, dir, inv };
          let out: number[];
          if (type === BVH_BOX16 || type === BVH_BOX32) out = boxNode(read32, addr, type === BVH_BOX16, ray, sort);
          else if (type === BVH_TRIANGLE && ij) out = triangleNode(read32, addr, ray).map((x) => f32bits(x) >>> 0);
          else {
            bad = type === BVH_TRIANGLE ? 'triangle return mode 0 (triangle id and hit status) is not modelled' : `node type ${type} is not modelled (triangle 0, box16 4, box32 5 only)`;
            out = [0, 0, 0, 0];
          }
          for (let c = 0; c < 4; c++) v[(vdata + c) * ws + l] = out[c]! >>> 0;
        }
        if (bad) {
          if (warn.due) diagAt(env, w, pc, 'gfx11.mimg.unsupported', `${inst.mnemonic}: ${bad}; the lane's result is 0`);
          warn.fire();
        }
        w.laneOps += n;
      },
    };
  });
}
