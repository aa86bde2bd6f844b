/**
 * VALU compares (described once in valu-cmp-ops.ts; VOPC e32 -> VCC, VOP3 e64 -> SDST, v_cmpx -> EXEC only) for f16/f32/f64,
 * i16/u16/i32/u32/i64/u64 and v_cmp_class. A compare writes one bit per lane: inactive lanes
 * (EXEC or DPP) write 0, and the mask is written even when EXEC == 0 (the wave-state seed: a
 * V_CMP writing an SGPR/VCC is never skipped). Float sources are denormal-flushed per MODE.
 */
import { define, type Finding } from '../engine/registry.js';
import { SREG } from '../wave/wave.js';
import { swrite32, swrite64 } from './operands.js';
import { valuOperands, sgprPairAlign, type OpType } from './valu-core.js';
import { VALID, MODE, activeLanes, bindSources, ttmpWriteGuard, T0, T1, TH0, TH1, TF0, TF1 } from './valu.js';
import { CMP_OPS, type CmpSrcExpr, type CmpType } from './valu-cmp-ops.js';
import { f16, f64 } from '../../core/float.js';
import { HWREG } from '../wave/wave.js';

/**
 * Per-lane compare outcome written by a type's row function: 1 less, 2 equal, 4 greater,
 * 8 unordered (a NaN); class tests write 1 for a selected class. A relation is the set of
 * outcomes it accepts (the ISA's n* float relations include unordered).
 */
const OUT = new Uint8Array(64);
type Row = (n: number) => void;

/** Define v_cmp_<name> and v_cmpx_<name> accepting the outcomes in `rel`. */
export function vcmp(name: string, srcs: readonly OpType[], row: Row, rel: number, noFlush = false): void {
  for (const x of [false, true]) {
    const mn = x ? name.replace(/^v_cmp_/, 'v_cmpx_') : name;
    define(mn, (inst, env) => {
      const ops = valuOperands(inst);
      const findings: Finding[] = [];
      const gatherAll = bindSources(env, inst, ops, srcs, findings, noFlush);
      const ws = env.waveSize;
      // e32 writes VCC, e64 writes SDST (the VOP3 vdst field holds the SGPR), cmpx writes EXEC only.
      const sd = x ? -1 : inst.encoding === 'VOPC' ? SREG.VCC_LO : ops.vdst;
      if (ws === 64 && sd >= 0) sgprPairAlign(inst, sd, 'lane-mask destination', findings);
      const ttmp = sd >= 0 ? ttmpWriteGuard(env, inst, sd) : null;
      return {
        cls: 'valu',
        findings,
        run: (w) => {
          w.laneOps += activeLanes(w, ops);
          loadDenorm(w.hw[HWREG.MODE]!);
          gatherAll(w);
          row(ws);
          let lo = 0;
          let hi = 0;
          for (let l = 0; l < ws; l++) {
            if (VALID[l] === 0 || (OUT[l]! & rel) === 0) continue;
            if (l < 32) lo |= 1 << l;
            else hi |= 1 << (l - 32);
          }
          lo >>>= 0;
          hi >>>= 0;
          if (x) {
            w.s[SREG.EXEC_LO] = lo;
            if (ws === 64) w.s[SREG.EXEC_HI] = hi;
          } else {
            if (ttmp) ttmp(w);
            if (ws === 64) swrite64(w, sd, lo, hi);
            else swrite32(w, sd, lo);
          }
        },
      };
    });
  }
}

/** Compares read MODE only for the input denormal flush. */
function loadDenorm(m: number): void {
  MODE.fin32 = (((m >>> 4) & 3) & 1) === 0;
  MODE.fin64 = (((m >>> 6) & 3) & 1) === 0;
}

/**
 * The compares of valu-cmp-ops.ts (the description the fast tier inlines too), each type's
 * outcome compiled once at load into its row function over the gathered sources.
 */
const CMP_SRC: readonly CmpSrcExpr[] = [0, 1].map((k) => ({ u: `T${k}[l]`, h: `TH${k}[l]`, f: `TF${k}[l]` }));
const rows = new Map<CmpType, Row>();
function rowOf(type: CmpType): Row {
  let row = rows.get(type);
  if (row === undefined) {
    const src = `return function row(n) {\nfor (let l = 0; l < n; l++) { let o = 0; ${type.outcome(CMP_SRC)} OUT[l] = o; }\n};`;
    row = new Function('OUT', 'T0', 'T1', 'TH0', 'TH1', 'TF0', 'TF1', 'f16', 'f64', src)(OUT, T0, T1, TH0, TH1, TF0, TF1, f16, f64) as Row;
    rows.set(type, row);
  }
  return row;
}
for (const [name, op] of CMP_OPS) vcmp(name, op.type.srcs, rowOf(op.type), op.rel);

/**
 * v_cmp_class: S1 bits select classes: 0 sNaN, 1 qNaN, 2 -inf, 3 -normal, 4 -denormal, 5 -0,
 * 6 +0, 7 +denormal, 8 +normal, 9 +inf. Classification is on the raw bits (no flush).
 */
function classBit(signBit: boolean, expAll: boolean, expZero: boolean, mantZero: boolean, quiet: boolean): number {
  if (expAll) return mantZero ? (signBit ? 2 : 9) : quiet ? 1 : 0;
  if (expZero) return mantZero ? (signBit ? 5 : 6) : signBit ? 4 : 7;
  return signBit ? 3 : 8;
}
vcmp('v_cmp_class_f32', ['f32', 'b32'], (n) => {
  for (let l = 0; l < n; l++) {
    const b = T0[l]!;
    const c = classBit(b >>> 31 === 1, (b & 0x7f800000) === 0x7f800000, (b & 0x7f800000) === 0, (b & 0x7fffff) === 0, (b & 0x400000) !== 0);
    OUT[l] = (T1[l]! >>> c) & 1;
  }
}, 1, true);
vcmp('v_cmp_class_f16', ['f16', 'b32'], (n) => {
  for (let l = 0; l < n; l++) {
    const b = T0[l]!;
    const c = classBit((b & 0x8000) !== 0, (b & 0x7c00) === 0x7c00, (b & 0x7c00) === 0, (b & 0x3ff) === 0, (b & 0x200) !== 0);
    OUT[l] = (T1[l]! >>> c) & 1;
  }
}, 1, true);
vcmp('v_cmp_class_f64', ['f64', 'b32'], (n) => {
  for (let l = 0; l < n; l++) {
    const lo = T0[l]!, hi = TH0[l]!;
    const c = classBit(hi >>> 31 === 1, (hi & 0x7ff00000) === 0x7ff00000, (hi & 0x7ff00000) === 0, (hi & 0xfffff) === 0 && lo === 0, (hi & 0x80000) !== 0);
    OUT[l] = (T1[l]! >>> c) & 1;
  }
}, 1, true);
