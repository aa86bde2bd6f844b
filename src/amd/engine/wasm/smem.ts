/**
 * s_load_bN inside a translated run (valu.ts): the load the fast tier's handler makes (fast-mem.ts
 * fastScalarLoad, whose operands it takes), from a segment that lives in the wasm heap (heap.ts).
 * The address is the handler's: the base SGPR pair's 48 bits plus the signed immediate and the
 * offset SGPR, wrapped at 2^48, its two low bits dropped; the segment holding the whole load is
 * found in the wave's Memory's segment table as `Memory.find` finds it, and the load must be
 * dword-aligned in it. Anything else (no table: a watched memory; a negative sum, which the
 * handler's arithmetic treats apart; no segment; one outside the heap; a misaligned one) hands the
 * op back before it wrote anything. The LGKM counter is the caller's to bump (tier.ts).
 */
import type { Op } from '../types.js';
import type { ScalarLoadSpec } from '../fast-mem.js';
import { OP, I32, I64 } from './encoder.js';
import { findSegment, type RunFrame } from './global.js';
import { CNT_MAX } from '../../exec/vmem.js';

/** An s_load as the translator takes it. */
export interface WSmem {
  readonly smem: ScalarLoadSpec;
  readonly vec: false;
}

/** The op's load, when the translator takes it (an s_load the fast tier inlines; tier.ts bumps LGKM_CNT up to CNT_MAX). */
export function wasmSmem(op: Op): WSmem | undefined {
  const sp = op.inline?.smem as ScalarLoadSpec | undefined;
  return sp === undefined || sp.lgkmMax !== CNT_MAX ? undefined : { smem: sp, vec: false };
}

/** Lower run op `i`, the load `sp`. */
export function lowerSmem(f: RunFrame, sp: ScalarLoadSpec, i: number): void {
  const { fb, R, T } = f;
  const a = fb.local(I64), o = fb.local(I64), k = fb.local(I32), e = fb.local(I32), at = fb.local(I32);
  const ld = (off: number) => fb.get(R).mem(OP.i32_load, 2, off);
  const handBack = () => f.ret(i);
  fb.get(T).op(OP.i32_eqz, OP.if, 0x40);
  handBack();
  fb.op(OP.end);
  // a: base (48 bits) + offset + SGPR offset; negative: hand back; 2^48 or more: wrapped.
  ld(sp.sb * 4).op(OP.i64_extend_i32_u);
  ld((sp.sb + 1) * 4).i32(0xffff).op(OP.i32_and, OP.i64_extend_i32_u).i64(32).op(OP.i64_shl, OP.i64_or);
  fb.i64(sp.off).op(OP.i64_add);
  if (sp.so >= 0) ld(sp.so * 4).op(OP.i64_extend_i32_u, OP.i64_add);
  fb.set(a);
  fb.get(a).i64(0).op(OP.i64_lt_s, OP.if, 0x40);
  handBack();
  fb.op(OP.end);
  fb.get(a).i64(2 ** 48).op(OP.i64_ge_u, OP.if, 0x40);
  fb.get(a).i64(2 ** 48).op(OP.i64_sub).set(a);
  fb.op(OP.end);
  fb.get(a).i64(-4).op(OP.i64_and).set(a);
  // The segment holding a (table entry: base, size, heap offset), then the whole load inside it.
  findSegment(f, a, e, k, handBack);
  fb.get(a).get(e).mem(OP.i64_load, 3, 0).op(OP.i64_sub).set(o);
  fb.get(e).mem(OP.i32_load, 2, 16).tee(at).i32(-1).op(OP.i32_eq);
  fb.get(o).i64(4 * sp.n).op(OP.i64_add).get(e).mem(OP.i64_load, 3, 8).op(OP.i64_gt_u, OP.i32_or);
  fb.get(o).i64(3).op(OP.i64_and).op(OP.i64_eqz, OP.i32_eqz, OP.i32_or, OP.if, 0x40);
  handBack();
  fb.op(OP.end);
  // The dwords, from the segment's heap bytes to the destination SGPRs.
  fb.get(o).op(OP.i32_wrap_i64).get(at).op(OP.i32_add).set(at);
  for (let d = 0; d < sp.n; d++) fb.get(R).get(at).mem(OP.i32_load, 2, 4 * d).mem(OP.i32_store, 2, (sp.d + d) * 4);
}
