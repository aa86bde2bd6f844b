/**
 * VALU compares (VOPC e32 -> VCC, VOP3 e64 -> SDST, v_cmpx -> EXEC only) for f16/f32/f64,
 * i16/u16/i32/u32/i64/u64 and v_cmp_class. A compare writes one bit per lane: inactive lanes
 * (EXEC or DPP) write 0, and the mask is written even when EXEC == 0 (the wave-state seed: a
 * V_CMP writing an SGPR/VCC is never skipped). Float sources are denormal-flushed per MODE.
 */
import { define, type Finding } from './registry.js';
import { SREG } from '../wave/wave.js';
import { swrite32, swrite64 } from './operands.js';
import { valuOperands, type OpType } from './valu-core.js';
import { VALID, MODE, activeLanes, bindSources, T0, T1, TH0, TH1, TF0, TF1, h, d64 } from './valu.js';
import { HWREG } from '../wave/wave.js';

type Cmp = (l: number) => boolean;

/** Define v_cmp_<name> and v_cmpx_<name>. */
export function vcmp(name: string, srcs: readonly OpType[], test: Cmp): void {
  for (const x of [false, true]) {
    const mn = x ? name.replace(/^v_cmp_/, 'v_cmpx_') : name;
    define(mn, (inst, env) => {
      const ops = valuOperands(inst);
      const findings: Finding[] = [];
      const gatherAll = bindSources(env, inst, ops, srcs, findings);
      const ws = env.waveSize;
      // e32 writes VCC, e64 writes SDST (the VOP3 vdst field holds the SGPR), cmpx writes EXEC only.
      const sd = x ? -1 : inst.encoding === 'VOPC' ? SREG.VCC_LO : ops.vdst;
      return {
        cls: 'valu',
        findings,
        run: (w) => {
          w.laneOps += activeLanes(w, ops);
          loadDenorm(w.hw[HWREG.MODE]!);
          gatherAll(w);
          let lo = 0;
          let hi = 0;
          for (let l = 0; l < ws; l++) {
            if (VALID[l] === 0 || !test(l)) continue;
            if (l < 32) lo |= 1 << l;
            else hi |= 1 << (l - 32);
          }
          lo >>>= 0;
          hi >>>= 0;
          if (x) {
            w.s[SREG.EXEC_LO] = lo;
            if (ws === 64) w.s[SREG.EXEC_HI] = hi;
          } else if (ws === 64) swrite64(w, sd, lo, hi);
          else swrite32(w, sd, lo);
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

const u64 = (lo: number, hi: number) => hi * 0x1_0000_0000 + lo;
const i64 = (lo: number, hi: number) => (hi | 0) * 0x1_0000_0000 + lo;
/** 64-bit compares: exact through (hi, lo) ordering, not through a lossy double. */
const cmp64 = (alo: number, ahi: number, blo: number, bhi: number, signed: boolean): number => {
  const a = signed ? ahi | 0 : ahi;
  const b = signed ? bhi | 0 : bhi;
  if (a !== b) return a < b ? -1 : 1;
  return alo === blo ? 0 : alo < blo ? -1 : 1;
};
void u64;
void i64;
const s16 = (x: number) => (x << 16) >> 16;

const ICMP: [string, (c: number) => boolean][] = [
  ['lt', (c) => c < 0], ['eq', (c) => c === 0], ['le', (c) => c <= 0], ['gt', (c) => c > 0], ['ne', (c) => c !== 0], ['ge', (c) => c >= 0],
];
const cmp = (a: number, b: number) => (a < b ? -1 : a > b ? 1 : 0);
for (const [n, t] of ICMP) {
  vcmp(`v_cmp_${n}_u32`, ['b32', 'b32'], (l) => t(cmp(T0[l]!, T1[l]!)));
  vcmp(`v_cmp_${n}_i32`, ['b32', 'b32'], (l) => t(cmp(T0[l]! | 0, T1[l]! | 0)));
  vcmp(`v_cmp_${n}_u16`, ['b16', 'b16'], (l) => t(cmp(T0[l]!, T1[l]!)));
  vcmp(`v_cmp_${n}_i16`, ['b16', 'b16'], (l) => t(cmp(s16(T0[l]!), s16(T1[l]!))));
  vcmp(`v_cmp_${n}_u64`, ['b64', 'b64'], (l) => t(cmp64(T0[l]!, TH0[l]!, T1[l]!, TH1[l]!, false)));
  vcmp(`v_cmp_${n}_i64`, ['b64', 'b64'], (l) => t(cmp64(T0[l]!, TH0[l]!, T1[l]!, TH1[l]!, true)));
}
for (const ty of ['u32', 'i32', 'u64', 'i64'] as const) {
  const w: OpType = ty.endsWith('64') ? 'b64' : 'b32';
  vcmp(`v_cmp_f_${ty}`, [w, w], () => false);
  vcmp(`v_cmp_t_${ty}`, [w, w], () => true);
}

// Float compares: the n* forms are negations (true on NaN); o/u test orderability.
const FCMP: [string, (a: number, b: number) => boolean][] = [
  ['f', () => false], ['lt', (a, b) => a < b], ['eq', (a, b) => a === b], ['le', (a, b) => a <= b], ['gt', (a, b) => a > b],
  ['lg', (a, b) => a < b || a > b], ['ge', (a, b) => a >= b], ['o', (a, b) => a === a && b === b], ['u', (a, b) => a !== a || b !== b],
  ['nge', (a, b) => !(a >= b)], ['nlg', (a, b) => !(a < b || a > b)], ['ngt', (a, b) => !(a > b)], ['nle', (a, b) => !(a <= b)],
  ['neq', (a, b) => !(a === b)], ['nlt', (a, b) => !(a < b)], ['t', () => true],
];
for (const [n, t] of FCMP) {
  vcmp(`v_cmp_${n}_f32`, ['f32', 'f32'], (l) => t(TF0[l]!, TF1[l]!));
  vcmp(`v_cmp_${n}_f64`, ['f64', 'f64'], (l) => t(d64(0, l), d64(1, l)));
  vcmp(`v_cmp_${n}_f16`, ['f16', 'f16'], (l) => t(h(0, l), h(1, l)));
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
function classCmp(name: string, type: OpType, cls: (l: number) => number): void {
  for (const x of [false, true]) {
    const mn = x ? name.replace(/^v_cmp_/, 'v_cmpx_') : name;
    void mn;
  }
  vcmpRaw(name, [type, 'b32'], (l) => ((T1[l]! >>> cls(l)) & 1) === 1);
}
/** Like vcmp but without MODE's input flush (class tests look at the bits as they are). */
function vcmpRaw(name: string, srcs: readonly OpType[], test: Cmp): void {
  for (const x of [false, true]) {
    const mn = x ? name.replace(/^v_cmp_/, 'v_cmpx_') : name;
    define(mn, (inst, env) => {
      const ops = valuOperands(inst);
      const findings: Finding[] = [];
      const gatherAll = bindSources(env, inst, ops, srcs, findings, true);
      const ws = env.waveSize;
      const sd = x ? -1 : inst.encoding === 'VOPC' ? SREG.VCC_LO : ops.vdst;
      return {
        cls: 'valu',
        findings,
        run: (w) => {
          w.laneOps += activeLanes(w, ops);
          gatherAll(w);
          let lo = 0;
          let hi = 0;
          for (let l = 0; l < ws; l++) {
            if (VALID[l] === 0 || !test(l)) continue;
            if (l < 32) lo |= 1 << l;
            else hi |= 1 << (l - 32);
          }
          lo >>>= 0;
          hi >>>= 0;
          if (x) {
            w.s[SREG.EXEC_LO] = lo;
            if (ws === 64) w.s[SREG.EXEC_HI] = hi;
          } else if (ws === 64) swrite64(w, sd, lo, hi);
          else swrite32(w, sd, lo);
        },
      };
    });
  }
}
classCmp('v_cmp_class_f32', 'f32', (l) => {
  const b = T0[l]!;
  return classBit(b >>> 31 === 1, (b & 0x7f800000) === 0x7f800000, (b & 0x7f800000) === 0, (b & 0x7fffff) === 0, (b & 0x400000) !== 0);
});
classCmp('v_cmp_class_f16', 'f16', (l) => {
  const b = T0[l]!;
  return classBit((b & 0x8000) !== 0, (b & 0x7c00) === 0x7c00, (b & 0x7c00) === 0, (b & 0x3ff) === 0, (b & 0x200) !== 0);
});
classCmp('v_cmp_class_f64', 'f64', (l) => {
  const lo = T0[l]!, hi = TH0[l]!;
  return classBit(hi >>> 31 === 1, (hi & 0x7ff00000) === 0x7ff00000, (hi & 0x7ff00000) === 0, (hi & 0xfffff) === 0 && lo === 0, (hi & 0x80000) !== 0);
});
