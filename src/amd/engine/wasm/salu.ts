/**
 * SALU ops inside a translated run (valu.ts): the ops the fast tier binds to a generated handler
 * (fast-salu.ts bindSalu: SGPR, VCC, M0, EXEC, NULL, inline-constant and literal operands), run by
 * their description's own statements (exec/salu-ops.ts, compiled by jsub.ts / lower.ts) over the
 * register block: `a`/`ah`, `b`/`bh` read from it (or a literal), `r`/`rh` stored to the
 * destination as swrite32/swrite64 store them, `c` to SCC. SCC lives in this thread's SCC slot in
 * the heap while the run runs (heap.ts sccSlot; tier.ts copies the wave's SCC in before the call
 * and back after), so an op of the run reads what an earlier one wrote. A scalar op never hands
 * back, and counts no lane-ops. Ops whose description calls a helper stay in JavaScript.
 *
 * An SALU op only rides in a run that is translated for another op (tier.ts): on its own it would
 * cost a call where the block's inlined statement costs almost nothing. It joins the runs around
 * it: matmul's loop body (two 64-bit address adds, the counter's s_add_i32 and s_cmp_eq_u32, the
 * loads, the v_fmac) is one call instead of a JavaScript lane loop, two scalar ops and a call.
 */
import type { Op } from '../types.js';
import type { SaluSpec, SaluSrc } from '../fast-salu.js';
import { FuncBuilder, OP, I32, I64 } from './encoder.js';
import { parseStatements, SubsetError, type Stmt } from './jsub.js';
import { Lowerer, type Var } from './lower.js';

/** An SALU op as the translator takes it. */
export interface WSalu {
  readonly salu: SaluSpec;
  readonly body: readonly Stmt[];
  /** Whether its statements read SCC (`w.scc`). */
  readonly readsScc: boolean;
  readonly vec: false;
}

/** Descriptions by their text: parsed, and lowered once to a throwaway function (null: outside the subset). */
const parsed = new Map<string, readonly Stmt[] | null>();

export function wasmSalu(op: Op): WSalu | undefined {
  const sp = op.inline?.salu as SaluSpec | undefined;
  if (sp === undefined) return undefined;
  let body = parsed.get(sp.body);
  if (body === undefined) {
    try {
      body = parseStatements(sp.body);
      lowerSalu(new FuncBuilder(1), 0, { salu: sp, body, readsScc: true, vec: false }, 0);
    } catch (e) {
      if (!(e instanceof SubsetError)) throw e;
      body = null;
    }
    parsed.set(sp.body, body);
  }
  if (body === null) return undefined;
  return { salu: sp, body, readsScc: /\bw\.scc\b/.test(sp.body), vec: false };
}

/** Lower the SALU op `x` over the register block at local `R`, with SCC at byte `scc` of the heap. */
export function lowerSalu(fb: FuncBuilder, R: number, x: WSalu, scc: number): void {
  const sp = x.salu;
  const a = fb.local(I32), ah = fb.local(I32), b = fb.local(I32), bh = fb.local(I32), sc = fb.local(I32);
  const r = fb.local(I64), rh = fb.local(I64), c = fb.local(I32);
  const load = (s: SaluSrc, lo: number, hi: number) => {
    if ('lit' in s) {
      fb.i32(s.lit).set(lo).i32(0).set(hi);
      return;
    }
    fb.get(R).mem(OP.i32_load, 2, s.at).set(lo);
    if (s.hiAt < 0) fb.i32(0).set(hi);
    else fb.get(R).mem(OP.i32_load, 2, s.hiAt).set(hi);
  };
  load(sp.a, a, ah);
  load(sp.b, b, bh);
  if (x.readsScc) fb.i32(0).mem(OP.i32_load, 2, scc).set(sc);
  fb.i64(0).set(r).i64(0).set(rh).i32(0).set(c);
  const names = new Map<string, Var>([
    ['a', { local: a, kind: 'u' }], ['ah', { local: ah, kind: 'u' }], ['b', { local: b, kind: 'u' }], ['bh', { local: bh, kind: 'u' }],
    ['w.scc', { local: sc, kind: 'u' }], ['r', { local: r, kind: 'l' }], ['rh', { local: rh, kind: 'l' }], ['c', { local: c, kind: 'b' }],
  ]);
  new Lowerer(fb, names).stmts(x.body);
  if (sp.save !== undefined && sp.save >= 0) {
    fb.get(R).get(b).mem(OP.i32_store, 2, sp.save * 4);
    if (sp.d64) fb.get(R).get(bh).mem(OP.i32_store, 2, (sp.save + 1) * 4);
  }
  if (sp.dst >= 0) {
    fb.get(R).get(r).op(OP.i32_wrap_i64).mem(OP.i32_store, 2, sp.dst * 4);
    if (sp.d64) fb.get(R).get(rh).op(OP.i32_wrap_i64).mem(OP.i32_store, 2, (sp.dst + 1) * 4);
  }
  if (sp.writesScc) fb.i32(0).get(c).mem(OP.i32_store, 2, scc);
}
