/**
 * DS dword loads and stores inside a translated run (valu.ts): the accesses the fast tier's
 * handlers make (fast-mem.ts fastDsDword for ds_load/store_b32..b128, fastDs2 for the 2addr and
 * 2addr_stride64 b32/b64 forms, whose operands it takes) over the workgroup's LDS when it lives in
 * the wasm heap (heap.ts allocLds). The handlers' tests, per active lane: the address (VGPR plus
 * the offset, mod 2^32; a 2addr form's VGPR alone, its two offsets folded into the limit) a
 * multiple of 4 and at most the allocation's size less the bytes the access reaches. A lane failing
 * hands the access back whole (its handler, then the reference, redo it); EXEC zero or an LDS
 * outside the heap hands it back at once. A load overwriting its address register tests every lane
 * before moving any; other accesses test and move in one pass, as the handlers do. Lanes and, in a
 * 2addr form, its two halves move in the handlers' order. The caller bumps LGKM_CNT (tier.ts).
 */
import type { Op } from '../types.js';
import type { DsDwordSpec, Ds2Spec } from '../fast-mem.js';
import { OP, SIMD, I32, V128 } from './encoder.js';
import { testRows, type RunFrame } from './global.js';

/** A DS access as the translator takes it: one address (dword forms) or two (2addr forms). */
export interface WDs {
  readonly ds: { readonly two: false; readonly sp: DsDwordSpec } | { readonly two: true; readonly sp: Ds2Spec };
  readonly vec: false;
}

export function wasmDs(op: Op): WDs | undefined {
  const ds = op.inline?.ds as WDs['ds'] | undefined;
  return ds === undefined ? undefined : { ds, vec: false };
}

/** Lower run op `i`, the access `x`. */
export function lowerDs(f: RunFrame, x: WDs['ds'], i: number): void {
  const { fb, R, la, el, eh, V, ws, D, DL } = f;
  const handBack = () => f.ret(i);
  const a = fb.local(I32), limit = fb.local(I32), at = fb.local(I32);
  fb.get(R).mem(OP.i32_load, 2, 126 * 4).set(el);
  if (ws === 64) fb.get(R).mem(OP.i32_load, 2, 127 * 4).set(eh);
  else fb.i32(0).set(eh);
  // The highest address a lane may have; negative: none.
  const reach = x.two ? 4 * x.sp.dw + Math.max(x.sp.o0, x.sp.o1) : 4 * x.sp.count;
  fb.get(DL).i32(reach).op(OP.i32_sub).set(limit);
  fb.get(el).get(eh).op(OP.i32_or, OP.i32_eqz).get(D).i32(0).op(OP.i32_lt_s, OP.i32_or).get(limit).i32(0).op(OP.i32_lt_s, OP.i32_or, OP.if, 0x40);
  handBack();
  fb.op(OP.end);
  const addrRow = x.sp.addr;
  const off = x.two ? 0 : x.sp.off;
  const test = () => {
    fb.get(la).mem(OP.i32_load, 2, V + addrRow * 4);
    if (off !== 0) fb.i32(off).op(OP.i32_add);
    fb.tee(a).get(limit).op(OP.i32_gt_u).get(a).i32(3).op(OP.i32_and, OP.i32_or, OP.if, 0x40);
    handBack();
    fb.op(OP.end);
  };
  const move = (reload: boolean) => {
    if (reload) {
      fb.get(la).mem(OP.i32_load, 2, V + addrRow * 4);
      if (off !== 0) fb.i32(off).op(OP.i32_add);
      fb.set(a);
    }
    fb.get(a).get(D).op(OP.i32_add).set(at);
    const one = (byteOff: number, row: number, store: boolean) => {
      if (store) fb.get(at).get(la).mem(OP.i32_load, 2, V + row * 4).mem(OP.i32_store, 2, byteOff);
      else fb.get(la).get(at).mem(OP.i32_load, 2, byteOff).mem(OP.i32_store, 2, V + row * 4);
    };
    if (x.two) {
      const sp = x.sp;
      for (const [h, o] of [[0, sp.o0], [1, sp.o1]] as const) {
        for (let k = 0; k < sp.dw; k++) one(o + 4 * k, sp.store ? (h === 0 ? sp.data0[k]! : sp.data1[k]!) : sp.d + (h * sp.dw + k) * ws, sp.store);
      }
    } else {
      const sp = x.sp;
      for (let k = 0; k < sp.count; k++) one(4 * k, sp.store ? sp.data[k]! : sp.d + k * ws, sp.store);
    }
  };
  const dwords = x.two ? 2 * x.sp.dw : x.sp.count;
  const lim4 = fb.local(V128);
  testRows(f, !x.sp.store && addrRow >= x.sp.d && addrRow < x.sp.d + dwords * ws, test, move, handBack, () => void fb.get(limit).simd(SIMD.i32x4_splat).set(lim4), () => {
    // `test`'s two tests four lanes at a time: past the limit, not dword-aligned.
    const a4 = fb.local(V128);
    fb.get(la).simdMem(SIMD.v128_load, 4, V + addrRow * 4);
    if (off !== 0) fb.i32(off).simd(SIMD.i32x4_splat).simd(SIMD.i32x4_add);
    fb.tee(a4).get(lim4).simd(SIMD.i32x4_gt_u).get(a4).v128i32([3, 3, 3, 3]).simd(SIMD.v128_and).simd(SIMD.v128_or);
  });
}
