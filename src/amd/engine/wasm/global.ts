/**
 * GLOBAL dword loads and stores inside a translated run (valu.ts): the access the fast tier's
 * handler makes (fast-mem.ts fastFlatDword, whose operands it takes), over a segment that lives in
 * the wasm heap (heap.ts). The segment is the one holding the first active lane's address, found in
 * the wave's Memory's segment table (heap.ts) as `Memory.find` finds it; every active lane must fall
 * in it (its byte offset at most size - 4 x dwords), dword-aligned, and (with a 64-bit VGPR
 * address) have the first lane's high dword. A check pass tests every lane before the move pass
 * writes anything, so an access that fails any test (EXEC zero, no table, no segment, a segment
 * outside the heap or over 4 GiB, one lane out) is handed back whole: the op's JavaScript handler
 * runs it, and the reference handler after it (faults, reports, partial effects). Lanes move in
 * ascending order, as the reference's (the same last writer for lanes sharing an address). The
 * counters (VM_CNT, or the store counter) are the caller's to bump (tier.ts), for the ops done.
 */
import type { Op } from '../types.js';
import type { FlatDwordSpec } from '../fast-mem.js';
import { FuncBuilder, OP, SIMD, I32, I64, V128 } from './encoder.js';
import { TABLE_ENTRY, TABLE_HEAD } from './heap.js';

/** GLOBAL, DS and scalar-load accesses translated code completed (counted by the caller, tier.ts: tests). */
export const memStats = { global: 0, ds: 0, smem: 0 };

/** A GLOBAL dword access as the translator takes it (row offsets are VGPR x wave size). */
export interface WGlobal {
  readonly global: FlatDwordSpec;
  readonly vec: false;
}

/**
 * An s_waitcnt, or an op with no architectural effect, inside a run: nothing to translate (the
 * functional model completes every access at issue); the caller runs an s_waitcnt's handler for
 * the counters once the run got past it (tier.ts).
 */
export interface WWait {
  readonly wait: true;
  /** Its handler has effects (the counters): run after the run got past it. */
  readonly call: boolean;
  readonly vec: false;
}

/** s_waitcnt (its simm16 form: no SGPR operand) as the translator takes it. */
export function wasmWait(op: Op): WWait | undefined {
  if (op.inst.mnemonic === 's_waitcnt') return { wait: true, call: true, vec: false };
  // The ops with no architectural effect (exec/flow.ts: s_nop, s_delay_alu...): nothing to call.
  return op.inline?.key === 'nothing' ? { wait: true, call: false, vec: false } : undefined;
}

/** The op's access, when the translator takes it: a GLOBAL (not FLAT) dword-multiple load or store. */
export function wasmGlobal(op: Op): WGlobal | undefined {
  const sp = op.inline?.global as FlatDwordSpec | undefined;
  if (sp === undefined || sp.flat || sp.byte !== undefined || op.inst.encoding !== 'GLOBAL') return undefined;
  return { global: sp, vec: false };
}

/** What translateRun lends the lowering: its parameters, locals and helpers. */
export interface RunFrame {
  readonly fb: FuncBuilder;
  /** Param: the register block's byte offset; param: the Memory's segment table (0: none). */
  readonly R: number;
  readonly T: number;
  /** Params: the LDS's byte offset in the heap (-1: not there) and its size. */
  readonly D: number;
  readonly DL: number;
  readonly l: number;
  readonly la: number;
  readonly el: number;
  readonly eh: number;
  readonly lanes: number;
  /** Byte offset of the VGPRs in the register block. */
  readonly V: number;
  readonly ws: 32 | 64;
  /** Return `done` ops completed (with the lanes counted so far). */
  ret(done: number): void;
  /**
   * Loop over the active lanes (EXEC read into el/eh): body() with l and la = R + 4 l set. One
   * loop testing each lane (no second copy for EXEC all ones: a memory lane's work outweighs the
   * test, and wasm code size is what a cold run compiles).
   */
  laneLoop(body: () => void): void;
  /** Leaves whether EXEC (el, eh) is all ones (i32). */
  full(): void;
  /** A hot run's translation (translateRun `hot`): memory lanes tested four at a time for a full EXEC (testRows). */
  readonly hot: boolean;
}

/**
 * Leaves in local `e` the address of the segment-table entry (base: i64 at 0, size: i64 at 8, heap
 * offset: i32 at 16) whose segment holds the address in i64 local `a`, as `Memory.find` finds it
 * (the first with a - base < size); `handBack()` when none does. `k` is a scratch i32 local.
 */
export function findSegment(f: RunFrame, a: number, e: number, k: number, handBack: () => void): void {
  const { fb, T } = f;
  fb.i32(0).set(k).get(T).i32(TABLE_HEAD).op(OP.i32_add).set(e);
  fb.op(OP.block, 0x40).op(OP.loop, 0x40);
  fb.get(k).get(T).mem(OP.i32_load, 2, 0).op(OP.i32_ge_u, OP.if, 0x40);
  handBack();
  fb.op(OP.end);
  fb.get(a).get(e).mem(OP.i64_load, 3, 0).op(OP.i64_sub).get(e).mem(OP.i64_load, 3, 8).op(OP.i64_lt_u).br(OP.br_if, 1);
  fb.get(e).i32(TABLE_ENTRY).op(OP.i32_add).set(e).get(k).i32(1).op(OP.i32_add).set(k).br(OP.br, 0);
  fb.op(OP.end, OP.end);
}

/** Lower run op `i`, the access `sp`. */
export function lowerGlobal(f: RunFrame, sp: FlatDwordSpec, i: number): void {
  const { fb, R, T, l, la, el, eh, V, ws } = f;
  const span = 4 * sp.count;
  const B = fb.local(I64), C = fb.local(I64), last = fb.local(I64), o = fb.local(I64);
  const h0 = fb.local(I32), first = fb.local(I32), k = fb.local(I32), e = fb.local(I32), at = fb.local(I32);
  const x = fb.local(I32), lmin = fb.local(I32), rng = fb.local(I32), cw = fb.local(I32);
  const handBack = () => f.ret(i);
  // EXEC.
  fb.get(R).mem(OP.i32_load, 2, 126 * 4).set(el);
  if (ws === 64) fb.get(R).mem(OP.i32_load, 2, 127 * 4).set(eh);
  else fb.i32(0).set(eh);
  fb.get(el).get(eh).op(OP.i32_or, OP.i32_eqz).get(T).op(OP.i32_eqz, OP.i32_or, OP.if, 0x40);
  handBack();
  fb.op(OP.end);
  // The first active lane's byte offset in the register block's lane columns.
  fb.get(el).op(OP.i32_ctz).i32(32).get(eh).op(OP.i32_ctz, OP.i32_add).get(el).op(OP.select).i32(2).op(OP.i32_shl).set(first);
  // B: the 64-bit base (SGPR pair, or the first lane's high dword) plus the immediate offset.
  if (sp.saddr >= 0) {
    fb.get(R).mem(OP.i32_load, 2, sp.saddr * 4).op(OP.i64_extend_i32_u);
    fb.get(R).mem(OP.i32_load, 2, (sp.saddr + 1) * 4).op(OP.i64_extend_i32_u).i64(32).op(OP.i64_shl, OP.i64_or);
  } else {
    fb.get(R).get(first).op(OP.i32_add).mem(OP.i32_load, 2, V + sp.hi * 4).tee(h0).op(OP.i64_extend_i32_u).i64(32).op(OP.i64_shl);
  }
  fb.i64(sp.off).op(OP.i64_add).set(B);
  // The segment holding the first lane's address (o): the table entry with o - base < size.
  fb.get(R).get(first).op(OP.i32_add).mem(OP.i32_load, 2, V + sp.lo * 4).op(OP.i64_extend_i32_u).get(B).op(OP.i64_add).set(o);
  findSegment(f, o, e, k, handBack);
  // Found: [o, o + span) inside it, its bytes in the heap, at most 4 GiB (as the handler's tests).
  fb.get(e).mem(OP.i32_load, 2, 16).tee(at).i32(-1).op(OP.i32_eq);
  fb.get(e).mem(OP.i64_load, 3, 8).set(last);
  fb.get(last).i64(0x1_0000_0000).op(OP.i64_gt_u, OP.i32_or);
  fb.get(o).get(e).mem(OP.i64_load, 3, 0).op(OP.i64_sub).i64(span).op(OP.i64_add).get(last).op(OP.i64_gt_u, OP.i32_or, OP.if, 0x40);
  handBack();
  fb.op(OP.end);
  // C: the segment offset of address B. A lane's offset is C + its low dword x (in [0, 2^32)): in
  // [0, size - span] exactly when x is in [max(0, -C), min(2^32 - 1, size - span - C)].
  fb.get(B).get(e).mem(OP.i64_load, 3, 0).op(OP.i64_sub).set(C);
  fb.i64(0).get(C).op(OP.i64_sub).set(o);
  fb.get(o).i64(0).get(o).i64(0).op(OP.i64_gt_s, OP.select).set(o); // lmin
  fb.get(last).i64(span).op(OP.i64_sub).get(C).op(OP.i64_sub).set(last);
  fb.get(last).i64(0xffffffff).get(last).i64(0xffffffff).op(OP.i64_lt_s, OP.select).set(last); // lmax
  fb.get(o).get(last).op(OP.i64_gt_s, OP.if, 0x40);
  handBack();
  fb.op(OP.end);
  fb.get(last).get(o).op(OP.i64_sub, OP.i32_wrap_i64).set(rng);
  fb.get(o).op(OP.i32_wrap_i64).set(lmin);
  fb.get(C).op(OP.i32_wrap_i64).set(cw);
  // A lane's test: x - lmin > rng (unsigned), or its offset not a multiple of 4, or another high dword.
  const test = () => {
    fb.get(la).mem(OP.i32_load, 2, V + sp.lo * 4).tee(x).get(lmin).op(OP.i32_sub).get(rng).op(OP.i32_gt_u);
    fb.get(x).get(cw).op(OP.i32_add).i32(3).op(OP.i32_and, OP.i32_or);
    if (sp.saddr < 0) fb.get(la).mem(OP.i32_load, 2, V + sp.hi * 4).get(h0).op(OP.i32_ne, OP.i32_or);
    fb.op(OP.if, 0x40);
    handBack();
    fb.op(OP.end);
  };
  const move = (reload: boolean) => {
    if (reload) fb.get(la).mem(OP.i32_load, 2, V + sp.lo * 4).set(x);
    fb.get(x).get(cw).op(OP.i32_add).get(at).op(OP.i32_add).set(e);
    for (let d = 0; d < sp.count; d++) {
      if (sp.store) fb.get(e).get(la).mem(OP.i32_load, 2, V + sp.data[d]! * 4).mem(OP.i32_store, 2, 4 * d);
      else fb.get(la).get(e).mem(OP.i32_load, 2, 4 * d).mem(OP.i32_store, 2, V + (sp.d + d * ws) * 4);
    }
  };
  // A load overwriting its address rows tests every lane first, then moves lane by lane (each
  // lane's address read before its destination is written). Others test and move in one pass: a
  // lane failing after others moved hands the op back all the same, and the handlers redo it whole
  // (a load rewrites every active lane's destination, a store the same bytes in the same order),
  // as the JavaScript handler's one pass does (fast-mem.ts).
  const rows = (r: number) => r >= sp.d && r < sp.d + sp.count * ws;
  const lo4 = fb.local(V128), rng4 = fb.local(V128), cw4 = fb.local(V128), h4 = fb.local(V128), x4 = fb.local(V128);
  testRows(f, !sp.store && (rows(sp.lo) || (sp.saddr < 0 && rows(sp.hi))), test, move, handBack, () => {
    fb.get(lmin).simd(SIMD.i32x4_splat).set(lo4).get(rng).simd(SIMD.i32x4_splat).set(rng4).get(cw).simd(SIMD.i32x4_splat).set(cw4);
    if (sp.saddr < 0) fb.get(h0).simd(SIMD.i32x4_splat).set(h4);
  }, () => {
    // The three tests of `test`, four lanes at a time.
    fb.get(la).simdMem(SIMD.v128_load, 4, V + sp.lo * 4).tee(x4).get(lo4).simd(SIMD.i32x4_sub).get(rng4).simd(SIMD.i32x4_gt_u);
    fb.get(x4).get(cw4).simd(SIMD.i32x4_add).v128i32([3, 3, 3, 3]).simd(SIMD.v128_and).simd(SIMD.v128_or);
    if (sp.saddr < 0) fb.get(la).simdMem(SIMD.v128_load, 4, V + sp.hi * 4).get(h4).simd(SIMD.i32x4_ne).simd(SIMD.v128_or);
  });
}

/**
 * A memory access's lanes (testAndMove), with a path for EXEC all ones: every lane tested four
 * lanes at a time (`setup()` once, then `bad4()` leaves a row, nonzero in a lane that fails its
 * test; l and la at the first of the four), the access handed back if any lane fails, else every
 * lane moved (`move(true)`: its address read again). The lane-by-lane tests were about a third of
 * a memory lane's work (warm). Only in a hot run's translation (RunFrame.hot).
 */
export function testRows(f: RunFrame, overwrites: boolean, test: () => void, move: (reload: boolean) => void, handBack: () => void, setup: () => void, bad4: () => void): void {
  const { fb, R, l, la, ws } = f;
  // A run's first translation: lane by lane only (Liftoff's code for the vector pass, with the
  // lane loop beside it for other EXECs, cost a fresh conv2d more wasm time than it saved).
  if (!f.hot) return testAndMove(f, overwrites, test, move);
  f.full();
  fb.op(OP.if, 0x40);
  const bad = fb.local(V128);
  setup();
  fb.v128i32([0, 0, 0, 0]).set(bad);
  fb.i32(0).set(l).get(R).set(la);
  fb.op(OP.loop, 0x40);
  fb.get(bad);
  bad4();
  fb.simd(SIMD.v128_or).set(bad);
  fb.get(la).i32(16).op(OP.i32_add).set(la);
  fb.get(l).i32(4).op(OP.i32_add).tee(l).i32(ws).op(OP.i32_lt_u).br(OP.br_if, 0);
  fb.op(OP.end);
  fb.get(bad).simd(SIMD.v128_any_true).op(OP.if, 0x40);
  handBack();
  fb.op(OP.end);
  // Every lane moved in order, four a trip of a counted loop (no EXEC bits to find).
  fb.i32(0).set(l).get(R).set(la);
  fb.op(OP.loop, 0x40);
  for (let j = 0; j < 4; j++) {
    move(true);
    fb.get(la).i32(4).op(OP.i32_add).set(la);
  }
  fb.get(l).i32(4).op(OP.i32_add).tee(l).i32(ws).op(OP.i32_lt_u).br(OP.br_if, 0);
  fb.op(OP.end);
  fb.op(OP.else);
  testAndMove(f, overwrites, test, move);
  fb.op(OP.end);
}

/**
 * The lane loops of a memory access: with `overwrites` (a load over its own address rows) every
 * lane is tested, then each moved (`move(true)` rereads its address); else one pass tests and moves
 * each lane (`move(false)` uses the address the test read).
 */
export function testAndMove(f: RunFrame, overwrites: boolean, test: () => void, move: (reload: boolean) => void): void {
  if (overwrites) {
    f.laneLoop(test);
    f.laneLoop(() => move(true));
  } else {
    f.laneLoop(() => {
      test();
      move(false);
    });
  }
}
