/**
 * VALU compares (VOPC e32 -> VCC, VOP3 e64 -> SDST, v_cmpx -> EXEC only) for f16/f32/f64,
 * i16/u16/i32/u32/i64/u64 and v_cmp_class. A compare writes one bit per lane: inactive lanes
 * (EXEC or DPP) write 0, and the mask is written even when EXEC == 0 (the wave-state seed: a
 * V_CMP writing an SGPR/VCC is never skipped). Float sources are denormal-flushed per MODE.
 */
import { define, type Finding } from '../engine/registry.js';
import { SREG } from '../wave/wave.js';
import { swrite32, swrite64 } from './operands.js';
import { valuOperands, sgprPairAlign, type OpType } from './valu-core.js';
import { VALID, MODE, activeLanes, bindSources, ttmpWriteGuard, T0, T1, TH0, TH1, TF0, TF1, h, d64 } from './valu.js';
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

const s16 = (x: number) => (x << 16) >> 16;
const rowF32: Row = (n) => {
  for (let l = 0; l < n; l++) {
    const a = TF0[l]!, b = TF1[l]!;
    OUT[l] = a < b ? 1 : a === b ? 2 : a > b ? 4 : 8;
  }
};
const rowF64: Row = (n) => {
  for (let l = 0; l < n; l++) {
    const a = d64(0, l), b = d64(1, l);
    OUT[l] = a < b ? 1 : a === b ? 2 : a > b ? 4 : 8;
  }
};
const rowF16: Row = (n) => {
  for (let l = 0; l < n; l++) {
    const a = h(0, l), b = h(1, l);
    OUT[l] = a < b ? 1 : a === b ? 2 : a > b ? 4 : 8;
  }
};
const rowU32: Row = (n) => {
  for (let l = 0; l < n; l++) {
    const a = T0[l]!, b = T1[l]!;
    OUT[l] = a < b ? 1 : a === b ? 2 : 4;
  }
};
const rowI32: Row = (n) => {
  for (let l = 0; l < n; l++) {
    const a = T0[l]! | 0, b = T1[l]! | 0;
    OUT[l] = a < b ? 1 : a === b ? 2 : 4;
  }
};
const rowU16: Row = rowU32; // 16-bit sources are gathered zero-extended
const rowI16: Row = (n) => {
  for (let l = 0; l < n; l++) {
    const a = s16(T0[l]!), b = s16(T1[l]!);
    OUT[l] = a < b ? 1 : a === b ? 2 : 4;
  }
};
/** 64-bit compares: exact through (hi, lo) ordering, not through a lossy double. */
const rowU64: Row = (n) => {
  for (let l = 0; l < n; l++) {
    const a = TH0[l]!, b = TH1[l]!;
    const x = T0[l]!, y = T1[l]!;
    OUT[l] = a < b ? 1 : a > b ? 4 : x < y ? 1 : x === y ? 2 : 4;
  }
};
const rowI64: Row = (n) => {
  for (let l = 0; l < n; l++) {
    const a = TH0[l]! | 0, b = TH1[l]! | 0;
    const x = T0[l]!, y = T1[l]!;
    OUT[l] = a < b ? 1 : a > b ? 4 : x < y ? 1 : x === y ? 2 : 4;
  }
};

const IREL: [string, number][] = [['f', 0], ['lt', 1], ['eq', 2], ['le', 3], ['gt', 4], ['ne', 5], ['ge', 6], ['t', 7]];
for (const [n, rel] of IREL) {
  if (n !== 'f' && n !== 't') {
    vcmp(`v_cmp_${n}_u16`, ['b16', 'b16'], rowU16, rel);
    vcmp(`v_cmp_${n}_i16`, ['b16', 'b16'], rowI16, rel);
  }
  vcmp(`v_cmp_${n}_u32`, ['b32', 'b32'], rowU32, rel);
  vcmp(`v_cmp_${n}_i32`, ['b32', 'b32'], rowI32, rel);
  vcmp(`v_cmp_${n}_u64`, ['b64', 'b64'], rowU64, rel);
  vcmp(`v_cmp_${n}_i64`, ['b64', 'b64'], rowI64, rel);
}
// Float relations as outcome sets: the n* forms are negations (true on NaN), o/u orderability.
const FREL: [string, number][] = [
  ['f', 0], ['lt', 1], ['eq', 2], ['le', 3], ['gt', 4], ['lg', 5], ['ge', 6], ['o', 7],
  ['u', 8], ['nge', 9], ['nlg', 10], ['ngt', 11], ['nle', 12], ['neq', 13], ['nlt', 14], ['t', 15],
];
for (const [n, rel] of FREL) {
  vcmp(`v_cmp_${n}_f32`, ['f32', 'f32'], rowF32, rel);
  vcmp(`v_cmp_${n}_f64`, ['f64', 'f64'], rowF64, rel);
  vcmp(`v_cmp_${n}_f16`, ['f16', 'f16'], rowF16, rel);
}

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
