/**
 * A loop body's back branch inside its translated run (valu.ts translateRun, wasm/tier.ts): the
 * last op of a block that branches back to its own start (block.ts isLoop), when the rest of the
 * block is one translated run. The translated function then takes the branch itself and runs the
 * body again while the caller's limit (the wave's quantum, the instruction budget) allows, instead
 * of returning to the block and the scheduler for every trip (matmul_naive's 13-op loop body: five
 * trips a 64-instruction turn, each a block call, a runner call and the counters around them).
 *
 * The condition is the description the other engines run (exec/salu-ops.ts BRANCH_OPS: SCC, VCC
 * or EXEC zero or not, or always), compiled by jsub.ts / lower.ts: `w.scc` reads this thread's SCC
 * slot (the run's SALU ops write it there: salu.ts), `w.s[N]` the register block's SGPR N.
 */
import type { Op } from '../types.js';
import { baseMnemonic } from '../registry.js';
import { BRANCH_OPS } from '../../exec/salu-ops.js';
import { FuncBuilder, OP, I32 } from './encoder.js';
import { parseStatements, SubsetError, type Expr } from './jsub.js';
import { Lowerer, type Var } from './lower.js';

/** A loop's back branch as the translator takes it. */
export interface WBack {
  /** Its condition (a boolean expression of `w.scc` and `w_s_N`, SGPR N). */
  readonly back: Expr;
  /** The SGPRs it reads, and whether it reads SCC. */
  readonly sgprs: readonly number[];
  readonly readsScc: boolean;
  readonly vec: false;
}

/** The branch `op` (of a Program of wave size `ws`) as a back branch, when its condition lowers. */
export function wasmBack(op: Op, ws: number): WBack | undefined {
  if (op.cls !== 'branch' || op.inline === undefined) return undefined;
  const cond = BRANCH_OPS.get(baseMnemonic(op.inst.mnemonic));
  if (cond === undefined) return undefined;
  const text = cond(ws);
  const sgprs = [...text.matchAll(/w\.s\[(\d+)\]/g)].map((m) => Number(m[1]));
  try {
    const s = parseStatements(`c = ${text.replace(/w\.s\[(\d+)\]/g, 'w_s_$1')};`)[0]!;
    if (s.t !== 'assign') return undefined;
    const x: WBack = { back: s.e, sgprs: [...new Set(sgprs)], readsScc: /\bw\.scc\b/.test(text), vec: false };
    lowerBack(new FuncBuilder(1), 0, x, 0);
    return x;
  } catch (e) {
    if (!(e instanceof SubsetError)) throw e;
    return undefined;
  }
}

/** Leave whether the back branch `x` is taken (i32 0/1), the register block at local `R`, SCC at byte `scc` of the heap. */
export function lowerBack(fb: FuncBuilder, R: number, x: WBack, scc: number): void {
  const names = new Map<string, Var>();
  const one = fb.local(I32);
  fb.i32(1).set(one);
  names.set('true', { local: one, kind: 'b' });
  if (x.readsScc) {
    const sc = fb.local(I32);
    fb.i32(0).mem(OP.i32_load, 2, scc).set(sc);
    names.set('w.scc', { local: sc, kind: 'u' });
  }
  for (const s of x.sgprs) {
    const v = fb.local(I32);
    fb.get(R).mem(OP.i32_load, 2, s * 4).set(v);
    names.set(`w_s_${s}`, { local: v, kind: 'u' });
  }
  new Lowerer(fb, names).emit(x.back, 'b');
}
