/**
 * Vector ALU semantics: the op wrapper every VALU family uses, and the integer ops.
 *
 * An op is a row function over the gathered source rows T/TH/TF (valu-core.ts): one loop over
 * the lanes inside each op. Integer and bit ops write their result bits to R (and RH for 64-bit).
 * Float ops record each lane's exact result as a JS number with `fin(l, x)` (plus, when it is not
 * exact, the remainder in ERR[0]); the wrapper then applies what the hardware applies around
 * every float op, in this order:
 * - input denormal flush (MODE.FP_DENORM, f32 by bits 5:4, f16/f64 by bits 7:6) on float sources;
 * - NaN results: the first NaN source quieted and converted, else the default NaN (0xffc00000);
 * - omod (an exact power-of-two scale), rounding under MODE.FP_ROUND (f32 bits 1:0, f16/f64 3:2),
 *   output denormal flush, clamp to [0, 1] (NaN -> 0 under DX10_CLAMP);
 * - 16-bit destinations write one half of the VGPR and keep the other (GFX10+ rule); the half is
 *   op_sel[3] in VOP3 and bit 7 of the VGPR number in VOP1/VOP2 (true16).
 * Destinations: a VGPR (16/32/64-bit), a lane mask (carry-out, div_scale) to VCC or SDST.
 * Wave-state rules: an out-of-range destination VGPR makes the instruction a NOP, and with a
 * second (SGPR) destination nothing is written at all. EXEC==0 does not skip the instruction:
 * a lane mask destination is still written (with 0 bits for inactive lanes).
 */
import type { Instruction } from '../isa/types.js';
import type { Wave } from '../wave/wave.js';
import { SREG, HWREG } from '../wave/wave.js';
import type { ExecEnv } from '../engine/env.js';
import { define, type Finding } from '../engine/registry.js';
import { zeroesHigh16 } from '../target/space.js';
import { HI, sread32, sread64, swrite32, swrite64 } from './operands.js';
import {
  T, TH, TF, R, RH, RF, bindSrc, gather, dppWriteMask, valuOperands, is16, sgprPairAlign, type OpType, type Src, type ValuOperands,
} from './valu-core.js';
import { mulhiU32, mulhiI32, popcnt, brev32, once } from './salu.js';
import { INT_OPS, type IntHelpers, type IntOp, type IntSrcExpr } from './valu-int.js';
import { F32_OPS, type F32Op, type F32SrcExpr } from './valu-f32.js';
import { f16, f32bits, f64, f64bits, f64hi, roundF16, roundF32, roundF64, flushF16, flushF32, isDenormF64 } from '../../core/float.js';

/**
 * An op computes lanes 0..n-1 in one call (a loop inside each op's own function, so V8 sees one
 * monomorphic loop per op instead of a megamorphic call per lane). Inactive lanes are computed
 * too (cheap, no side effects besides the carry mask, which the wrapper masks) and not written.
 */
export type RowFn = (n: number) => void;
export type LaneFn = RowFn;
export type FloatFn = RowFn;

/** Lanes to write this instruction (EXEC and DPP masks). */
export const VALID = new Uint8Array(64);

/**
 * Remainder of a float op's result that is not exact (see the file comment), and in ERR[1] a 1
 * when an f64 result overflowed from finite operands (directed modes then stop at the largest
 * finite value); reset per lane.
 */
export const ERR = new Float64Array(2);
/** Float ops set RAW[0] = 1 after writing final bits to R/RH themselves (NaN payloads, fixups). */
export const RAW = new Uint8Array(1);
/** Per-lane float results: value, remainder, f64 overflow flag, raw-bits flag (see `fin`). */
export const RD = new Float64Array(64);
export const RE = new Float64Array(64);
export const RO = new Uint8Array(64);
export const RW = new Uint8Array(64);
/** Record lane l's float result x with the ERR/RAW side channel, and clear the channel. */
export function fin(l: number, x: number): void {
  RD[l] = x;
  RE[l] = ERR[0]!;
  RO[l] = ERR[1]!;
  RW[l] = RAW[0]!;
  ERR[0] = 0;
  ERR[1] = 0;
  RAW[0] = 0;
}

/**
 * MODE register fields of the instruction being executed, refreshed by the wrapper before the
 * lane loop (ops read them: min/max use IEEE, div ops the round modes).
 */
export const MODE = {
  rm32: 0, rm64: 0, fin32: false, fout32: false, fin64: false, fout64: false, ieee: true, dx10: true,
  /** The instruction's clamp bit (integer ops saturate with it). */
  clamp: false,
};

function loadMode(w: Wave, clamp: boolean): void {
  const m = w.hw[HWREG.MODE]!;
  MODE.rm32 = m & 3;
  MODE.rm64 = (m >>> 2) & 3;
  const d32 = (m >>> 4) & 3;
  const d64 = (m >>> 6) & 3;
  // FP_DENORM: 0 flush in+out, 1 flush out only, 2 flush in only, 3 none.
  MODE.fin32 = (d32 & 1) === 0;
  MODE.fout32 = (d32 & 2) === 0;
  MODE.fin64 = (d64 & 1) === 0;
  MODE.fout64 = (d64 & 2) === 0;
  MODE.dx10 = ((m >>> 8) & 1) === 1;
  MODE.ieee = ((m >>> 9) & 1) === 1;
  MODE.clamp = clamp;
}

/** Lanes to write: active in EXEC and valid after DPP. Fills VALID; returns the count. */
export function activeLanes(w: Wave, ops: ValuOperands): number {
  const ws = w.waveSize;
  const el = w.s[SREG.EXEC_LO]!;
  const eh = ws === 64 ? w.s[SREG.EXEC_HI]! : 0;
  let n = 0;
  for (let l = 0; l < ws; l++) {
    const on = l < 32 ? (el >>> l) & 1 : (eh >>> (l - 32)) & 1;
    VALID[l] = on;
    n += on;
  }
  dppWriteMask(ops.dpp, VALID, ws);
  return n;
}

export interface Shape {
  /** Source operand types, in order. */
  readonly srcs: readonly OpType[];
  /** Destination VGPR type. */
  readonly dst: OpType;
}

export interface VopOptions {
  /** Carry-in mask: VCC in VOP2, SRC2 in VOP3; 'vcc' always reads VCC (v_div_fmas). */
  readonly in?: boolean | 'vcc';
  /** Carry-out / condition mask: VCC in VOP2, SDST in VOP3SD. */
  readonly out?: boolean;
  /** Sources are not denormal-flushed by MODE (div_fmas, class-like ops). */
  readonly noFlushIn?: boolean;
  /** The op always flushes f32 denormal inputs and outputs (v_exp/log/rcp/rsq/sqrt_f32). */
  readonly trans?: boolean;
  /** Output denormals are not flushed by MODE (min/max: the ISA says they pass through). */
  readonly noFlushOut?: boolean;
  /** The destination VGPR is also the last source (v_fmac_*, v_dot2acc, v_pk_fmac). */
  readonly accum?: boolean;
  /** Rewrite the source list (v_fmamk/v_fmaak take the literal as a source). */
  readonly remap?: (ops: ValuOperands) => ValuOperands;
  /** Run-statistics class (transcendental ops run on the TRANS unit). */
  readonly cls?: 'valu' | 'trans';
}

/** Bind sources and return a gather-all function (with MODE's input denormal flush). */
export function bindSources(env: ExecEnv, inst: Instruction, ops: ValuOperands, types: readonly OpType[], findings: Finding[], noFlush = false, trans = false): (w: Wave) => void {
  const srcs: Src[] = types.map((t, k) => bindSrc(env, inst, ops, k, t, findings));
  const dpp = ops.dpp;
  const n = srcs.length;
  const ws = env.waveSize;
  return (w) => {
    for (let k = 0; k < n; k++) {
      const s = srcs[k]!;
      gather(w, s, k as 0 | 1 | 2, dpp, VALID);
      if (noFlush) continue;
      const ty = s.type;
      if (ty === 'f32' && (MODE.fin32 || trans)) {
        const t = T[k]!;
        for (let l = 0; l < ws; l++) t[l] = flushF32(t[l]!);
      } else if (ty === 'f16' && MODE.fin64) {
        const t = T[k]!;
        for (let l = 0; l < ws; l++) t[l] = flushF16(t[l]!);
      } else if (ty === 'f64' && MODE.fin64) {
        const t = T[k]!;
        const th = TH[k]!;
        for (let l = 0; l < ws; l++) if (isDenormF64(t[l]!, th[l]!)) (t[l] = 0), (th[l] = th[l]! & 0x80000000);
      }
    }
  };
}

/**
 * A VALU scalar destination (lane mask, readlane) naming a TTMP: outside a trap handler the write
 * is ignored (wave-state seed); reported once per instruction as gfx11.ttmp.write-user.
 */
export function ttmpWriteGuard(env: ExecEnv, inst: Instruction, enc: number): ((w: Wave) => void) | null {
  if (enc < SREG.TTMP0 || enc > SREG.TTMP15) return null;
  const report = once(env, inst, 'gfx11.ttmp.write-user');
  const t = enc - SREG.TTMP0;
  return (w) => {
    if (!w.priv) report(w, `ttmp${t} is only writable in a trap handler (STATUS.PRIV=1); the write is ignored`);
  };
}

/** Check the VGPR destination range at bind time: out of range -> the instruction is a NOP. */
export function vdstOk(env: ExecEnv, inst: Instruction, vdst: number, dwords: number, findings: Finding[]): boolean {
  if (vdst + dwords > env.vgprs) {
    findings.push({ id: 'gfx11.vgpr.dst-out-of-range', message: `${inst.mnemonic}: destination v${vdst} is past the ${env.vgprs} allocated VGPRs; the instruction is ignored (NOP)` });
    return false;
  }
  return true;
}

/** Default NaNs (the hardware's are negative quiet NaNs). */
const QNAN32 = 0xffc00000;
const QNAN16 = 0xfe00;
const QNAN64HI = 0xfff80000;

/**
 * NaN result bits for lane `l`: the first NaN source, quieted and converted to the destination
 * format, else the default NaN. Writes R (and RH for f64).
 */
function nanOut(l: number, srcs: readonly OpType[], dst: OpType): void {
  for (let k = 0; k < srcs.length; k++) {
    const ty = srcs[k];
    const lo = T[k]![l]!;
    let sign = 0;
    let pay = 0; // payload as a 52-bit-aligned fraction's top bits: use f64 (hi 20 bits, lo 32)
    let plo = 0;
    if (ty === 'f32') {
      if ((lo & 0x7fffffff) <= 0x7f800000) continue;
      sign = lo >>> 31;
      pay = (lo & 0x7fffff) >>> 3; // 23 -> top 20 bits of the f64 fraction
      plo = (lo << 29) >>> 0;
    } else if (ty === 'f16') {
      if ((lo & 0x7fff) <= 0x7c00) continue;
      sign = (lo >>> 15) & 1;
      pay = (lo & 0x3ff) << 10;
    } else if (ty === 'f64') {
      const hi = TH[k]![l]!;
      if ((hi & 0x7fffffff) < 0x7ff00000 || ((hi & 0x7fffffff) === 0x7ff00000 && lo === 0)) continue;
      sign = hi >>> 31;
      pay = hi & 0xfffff;
      plo = lo;
    } else continue;
    pay |= 0x80000; // quiet
    if (dst === 'f32') R[l] = ((sign << 31) | 0x7f800000 | (pay << 3) | (plo >>> 29)) >>> 0;
    else if (dst === 'f16') R[l] = (sign << 15) | 0x7c00 | (pay >>> 10);
    else {
      R[l] = plo;
      RH[l] = ((sign << 31) | 0x7ff00000 | pay) >>> 0;
    }
    return;
  }
  if (dst === 'f32') R[l] = QNAN32;
  else if (dst === 'f16') R[l] = QNAN16;
  else {
    R[l] = 0;
    RH[l] = QNAN64HI;
  }
}

const OMOD = [1, 2, 4, 0.5];

/** Carry-in mask and carry-out accumulation for the current instruction. */
let CIN_LO = 0;
let CIN_HI = 0;
let COUT_LO = 0;
let COUT_HI = 0;
/** Carry-in bit of lane l. */
export const cinBit = (l: number): number => (l < 32 ? (CIN_LO >>> l) & 1 : (CIN_HI >>> (l - 32)) & 1);
/** Set the carry-out / condition bit of lane l. */
export const setCout = (l: number, c: number | boolean): void => {
  if (c) {
    if (l < 32) COUT_LO = (COUT_LO | (1 << l)) >>> 0;
    else COUT_HI = (COUT_HI | (1 << (l - 32))) >>> 0;
  }
};

/** Clear carry-out bits of lanes not written (inactive in EXEC or invalid after DPP). */
function maskCout(ws: number): void {
  let lo = 0;
  let hi = 0;
  for (let l = 0; l < ws; l++) {
    if (VALID[l] === 0) continue;
    if (l < 32) lo |= 1 << l;
    else hi |= 1 << (l - 32);
  }
  COUT_LO = (COUT_LO & lo) >>> 0;
  COUT_HI = (COUT_HI & hi) >>> 0;
}

/** The 16-bit destination half: VOP3 op_sel[3]; VOP1/VOP2 bit 7 of the VGPR number. */
function dstHalf(inst: Instruction, ops: ValuOperands): { reg: number; hi: boolean } {
  if (inst.encoding === 'VOP3' || inst.encoding === 'VOP3SD') return { reg: ops.vdst, hi: ((ops.opsel >> 3) & 1) === 1 };
  return { reg: ops.vdst & 0x7f, hi: (ops.vdst & 0x80) !== 0 };
}

const KIND = { b32: 0, b64: 1, b16: 2, f32: 3, f64: 4, f16: 5 } as const;

function makeBinder(shape: Shape, fn: RowFn, o: VopOptions) {
  return (inst: Instruction, env: ExecEnv) => {
    let ops = valuOperands(inst);
    if (o.remap) ops = o.remap(ops);
    const findings: Finding[] = [];
    const srcTypes = o.accum ? [...shape.srcs, shape.dst] : shape.srcs;
    const ws = env.waveSize;
    const dst = shape.dst;
    const kind = KIND[dst];
    const half = is16(dst) ? dstHalf(inst, ops) : { reg: ops.vdst, hi: false };
    if (o.accum) {
      // the accumulator is the destination register (same half for 16-bit)
      const accEnc = is16(dst) && inst.encoding !== 'VOP3' ? 256 + ops.vdst : 256 + half.reg;
      const src = [...ops.src] as [number, number, number];
      src[srcTypes.length - 1] = accEnc;
      const opsel = is16(dst) && inst.encoding === 'VOP3' && half.hi ? ops.opsel | (1 << (srcTypes.length - 1)) : ops.opsel;
      ops = { ...ops, src, opsel };
    }
    const gatherAll = bindSources(env, inst, ops, srcTypes, findings, o.noFlushIn, o.trans);
    const wide = dst === 'b64' || dst === 'f64';
    const ok = vdstOk(env, inst, half.reg, wide ? 2 : 1, findings);
    const d = half.reg * ws;
    const dhi = half.hi;
    // A 16-bit result in the low half keeps the high half, except on GFX9 (target/normalize.ts).
    const keepHi = zeroesHigh16(env.space, inst.mnemonic) ? 0 : 0xffff0000;
    const omod = OMOD[ops.omod]!;
    const clamp = ops.clamp;
    const trans = o.trans === true;
    const noFlushOut = o.noFlushOut === true;
    const cinEnc = o.in === 'vcc' ? SREG.VCC_LO : o.in ? (inst.encoding === 'VOP2' ? SREG.VCC_LO : ops.src[2]!) : -1;
    const cin = cinEnc >= 0 ? (ws === 64 ? sread64(cinEnc, ops.literal) : sread32(cinEnc, ops.literal)) : null;
    const coutEnc = o.out ? (inst.encoding === 'VOP2' ? SREG.VCC_LO : ops.sdst) : -1;
    const ttmp = coutEnc >= 0 ? ttmpWriteGuard(env, inst, coutEnc) : null;
    if (ws === 64) {
      if (cinEnc >= 0 && cinEnc !== SREG.VCC_LO) sgprPairAlign(inst, cinEnc, 'carry-in mask', findings);
      if (coutEnc >= 0) sgprPairAlign(inst, coutEnc, 'lane-mask destination', findings);
    }
    return {
      cls: o.cls ?? 'valu',
      findings,
      run: (w: Wave) => {
        const n = activeLanes(w, ops);
        w.laneOps += n;
        if (!ok) return;
        loadMode(w, clamp);
        gatherAll(w);
        if (cin) {
          CIN_LO = cin(w);
          CIN_HI = ws === 64 ? HI[0]! : 0;
        }
        COUT_LO = 0;
        COUT_HI = 0;
        const v = w.v;
        ERR[0] = 0;
        ERR[1] = 0;
        RAW[0] = 0;
        fn(ws);
        if (kind < KIND.f32) {
          if (wide) {
            for (let l = 0; l < ws; l++) if (VALID[l] !== 0) (v[d + l] = R[l]!), (v[d + ws + l] = RH[l]!);
          } else if (kind === KIND.b16) {
            for (let l = 0; l < ws; l++) {
              if (VALID[l] === 0) continue;
              const old = v[d + l]!;
              v[d + l] = dhi ? ((old & 0xffff) | (R[l]! << 16)) >>> 0 : ((old & keepHi) | (R[l]! & 0xffff)) >>> 0;
            }
          } else for (let l = 0; l < ws; l++) if (VALID[l] !== 0) v[d + l] = R[l]!;
        } else {
          const rm = kind === KIND.f32 ? MODE.rm32 : MODE.rm64;
          const fout = !noFlushOut && (kind === KIND.f32 ? MODE.fout32 || trans : MODE.fout64);
          const fast = kind === KIND.f32 && rm === 0 && !fout && omod === 1 && !clamp;
          for (let l = 0; l < ws; l++) {
            if (VALID[l] === 0) continue;
            let x = RD[l]!;
            if (RW[l] === 0) {
              if (x !== x) {
                nanOut(l, srcTypes, dst);
                if (clamp && MODE.dx10) R[l] = RH[l] = 0;
              } else if (fast && RE[l] === 0) {
                RF[l] = x;
              } else {
                let e = RE[l]!;
                if (omod !== 1) (x *= omod), (e *= omod);
                if (kind === KIND.f32) {
                  let b = roundF32(x, e, rm);
                  if (fout) b = flushF32(b);
                  if (clamp) b = b >>> 31 ? 0 : b > 0x3f800000 ? 0x3f800000 : b;
                  R[l] = b;
                } else if (kind === KIND.f16) {
                  let b = roundF16(x, e, rm);
                  if (fout) b = flushF16(b);
                  if (clamp) b = b >>> 15 ? 0 : b > 0x3c00 ? 0x3c00 : b;
                  R[l] = b;
                } else {
                  let r = roundF64(x, e, rm, RO[l]!);
                  if (clamp) r = r > 1 ? 1 : r > 0 ? r : 0;
                  R[l] = f64bits(r);
                  RH[l] = f64hi();
                  if (fout && isDenormF64(R[l]!, RH[l]!)) (R[l] = 0), (RH[l] = RH[l]! & 0x80000000);
                }
              }
            }
            if (wide) {
              v[d + l] = R[l]!;
              v[d + ws + l] = RH[l]!;
            } else if (kind === KIND.f16) {
              const old = v[d + l]!;
              v[d + l] = dhi ? ((old & 0xffff) | (R[l]! << 16)) >>> 0 : ((old & keepHi) | (R[l]! & 0xffff)) >>> 0;
            } else v[d + l] = R[l]!;
          }
        }
        if (coutEnc >= 0) {
          // The mask has a bit per lane; inactive lanes write 0 (also with EXEC == 0).
          maskCout(ws);
          if (ttmp) ttmp(w);
          if (ws === 64) swrite64(w, coutEnc, COUT_LO, COUT_HI);
          else swrite32(w, coutEnc, COUT_LO);
        }
      },
    };
  };
}

/** A VALU op with an integer/bit result: `fn(n)` writes R[l] (and RH[l] for 64-bit) for lanes < n. */
export function vop(names: string | string[], shape: Shape, fn: LaneFn, o: VopOptions = {}): void {
  define(names, makeBinder(shape, fn, o));
}

/**
 * `vop`/`fop` with the lane function made (`make`, a `new Function` of the op's description) at the
 * op's first bind: made at load, the ~100 described ops' functions took ~4 ms of every start.
 */
function lazyVop(name: string, shape: Shape, make: () => RowFn, o: VopOptions = {}): void {
  let b: ReturnType<typeof makeBinder> | null = null;
  define(name, (inst, env) => (b ??= makeBinder(shape, make(), o))(inst, env));
}

/** A VALU op with a float result: `fn(n)` records each lane's exact value with `fin(l, x)` (remainder in ERR[0]). */
export function fop(names: string | string[], shape: Shape, fn: FloatFn, o: VopOptions = {}): void {
  define(names, makeBinder(shape, fn, o));
}

export const [T0, T1, T2] = T;
export const [TH0, TH1, TH2] = TH;
export const [TF0, TF1, TF2] = TF;

/** f16 value of source k at lane l. */
export const h = (k: 0 | 1 | 2, l: number): number => f16(T[k][l]!);
/** f64 value of source k at lane l. */
export const d64 = (k: 0 | 1 | 2, l: number): number => f64(T[k][l]!, TH[k][l]!);

/** Write a f32 result's bits without rounding (RAW). */
export function rawF32(l: number, bits: number): number {
  R[l] = bits >>> 0;
  RAW[0] = 1;
  return 0;
}
export function rawF64(l: number, lo: number, hi: number): number {
  R[l] = lo >>> 0;
  RH[l] = hi >>> 0;
  RAW[0] = 1;
  return 0;
}
export { f32bits };

const U32x2: Shape = { srcs: ['b32', 'b32'], dst: 'b32' };
const U32x1: Shape = { srcs: ['b32'], dst: 'b32' };
const U32x3: Shape = { srcs: ['b32', 'b32', 'b32'], dst: 'b32' };
const U16x1: Shape = { srcs: ['b16'], dst: 'b16' };
const U16x2: Shape = { srcs: ['b16', 'b16'], dst: 'b16' };
const U16x3: Shape = { srcs: ['b16', 'b16', 'b16'], dst: 'b16' };

// ---- moves and bit ops
vop('v_mov_b16', U16x1, (n) => {
  for (let l = 0; l < n; l++) void (R[l] = T0[l]!);
});
vop('v_not_b16', U16x1, (n) => {
  for (let l = 0; l < n; l++) void (R[l] = ~T0[l]! & 0xffff);
});
vop('v_bfrev_b32', U32x1, (n) => {
  for (let l = 0; l < n; l++) void (R[l] = brev32(T0[l]!));
});
vop('v_and_b16', U16x2, (n) => {
  for (let l = 0; l < n; l++) void (R[l] = T0[l]! & T1[l]!);
});
vop('v_or_b16', U16x2, (n) => {
  for (let l = 0; l < n; l++) void (R[l] = T0[l]! | T1[l]!);
});
vop('v_xor_b16', U16x2, (n) => {
  for (let l = 0; l < n; l++) void (R[l] = T0[l]! ^ T1[l]!);
});
vop('v_lshlrev_b16', U16x2, (n) => {
  for (let l = 0; l < n; l++) void (R[l] = (T1[l]! << (T0[l]! & 15)) & 0xffff);
});
vop('v_lshrrev_b16', U16x2, (n) => {
  for (let l = 0; l < n; l++) void (R[l] = T1[l]! >>> (T0[l]! & 15));
});
vop('v_ashrrev_i16', U16x2, (n) => {
  for (let l = 0; l < n; l++) void (R[l] = (((T1[l]! << 16) >> 16) >> (T0[l]! & 15)) & 0xffff);
});
vop('v_bfm_b32', U32x2, (n) => {
  for (let l = 0; l < n; l++) void (R[l] = ((1 << (T0[l]! & 31)) - 1) << (T1[l]! & 31));
});
vop('v_alignbyte_b32', U32x3, (n) => {
  for (let l = 0; l < n; l++) {
  const s = (T2[l]! & 3) * 8;
  R[l] = s === 0 ? T1[l]! : (T1[l]! >>> s) | (T0[l]! << (32 - s));
}
});
vop('v_ctz_i32_b32', U32x1, (n) => {
  for (let l = 0; l < n; l++) void (R[l] = T0[l] === 0 ? -1 : 31 - Math.clz32(T0[l]! & -T0[l]!));
});
vop('v_clz_i32_u32', U32x1, (n) => {
  for (let l = 0; l < n; l++) void (R[l] = T0[l] === 0 ? -1 : Math.clz32(T0[l]!));
});
vop('v_cls_i32', U32x1, (n) => {
  for (let l = 0; l < n; l++) {
  const x = T0[l]!;
  const y = (x >> 31) === 0 ? x : ~x >>> 0;
  R[l] = y === 0 ? -1 : Math.clz32(y);
}
});
vop('v_perm_b32', U32x3, (n) => {
  for (let l = 0; l < n; l++) {
  const s0 = T0[l]!, s1 = T1[l]!, sel = T2[l]!;
  let r = 0;
  for (let b = 0; b < 4; b++) r |= permByte(s0, s1, (sel >>> (8 * b)) & 0xff) << (8 * b);
  R[l] = r;
}
});
/** BYTE_PERMUTE of the 64-bit value {S0, S1} (S0 holds the high bytes). */
function permByte(s0: number, s1: number, sel: number): number {
  if (sel < 4) return (s1 >>> (8 * sel)) & 0xff;
  if (sel < 8) return (s0 >>> (8 * (sel - 4))) & 0xff;
  if (sel < 12) {
    // 8 -> in[1] bit 7, 9 -> in[3], 10 -> in[5], 11 -> in[7]
    const src = sel < 10 ? s1 : s0;
    const byte = sel & 1 ? 3 : 1;
    return (src >>> (8 * byte + 7)) & 1 ? 0xff : 0;
  }
  return sel === 12 ? 0 : 0xff;
}
vop('v_lerp_u8', U32x3, (n) => {
  for (let l = 0; l < n; l++) {
  const a = T0[l]!, b = T1[l]!, c = T2[l]!;
  let r = 0;
  for (let i = 0; i < 32; i += 8) r |= (((((a >>> i) & 0xff) + ((b >>> i) & 0xff) + ((c >>> i) & 1)) >>> 1) & 0xff) << i;
  R[l] = r;
}
});

// ---- integer arithmetic (clamp = saturation in the op's integer domain)
const satU32 = (x: number) => (MODE.clamp ? (x > 0xffffffff ? 0xffffffff : x < 0 ? 0 : x) : x);
const satI32 = (x: number) => (MODE.clamp ? (x > 0x7fffffff ? 0x7fffffff : x < -0x80000000 ? -0x80000000 : x) : x);
const satU16 = (x: number) => (MODE.clamp ? (x > 0xffff ? 0xffff : x < 0 ? 0 : x) : x) & 0xffff;
const satI16 = (x: number) => (MODE.clamp ? (x > 0x7fff ? 0x7fff : x < -0x8000 ? -0x8000 : x) : x) & 0xffff;
const s16 = (x: number) => (x << 16) >> 16;

/**
 * The integer ops of valu-int.ts (the description the fast tier inlines too), each compiled once
 * at load into its per-lane loop over the gathered sources: `r`/`rh` to R/RH (through satU32 for
 * the ops VOP3 clamp saturates), `c` to the carry-out mask, `ci` from the carry-in mask.
 */
const INT_PARAMS = ['R', 'RH', 'T0', 'T1', 'T2', 'TH0', 'TH1', 'TH2', 'cinBit', 'setCout', 'satU32', 'mulhiU32', 'popcnt'];
const INT_SRC: readonly IntSrcExpr[] = [0, 1, 2].map((k) => ({ u: `T${k}[l]`, h: `TH${k}[l]` }));
const INT_HELPERS: IntHelpers = { mulhiU32: 'mulhiU32', popcnt: 'popcnt' };
function intLaneFn(name: string, op: IntOp): LaneFn {
  const lane = [
    op.cin ? 'const ci = cinBit(l);' : '',
    `let r = 0, rh = 0, c = false; ${op.body(INT_SRC, INT_HELPERS)}`,
    op.clampU32 ? 'R[l] = satU32(r);' : 'R[l] = r;',
    op.kind === 'i64' ? 'RH[l] = rh;' : '',
    op.cout ? 'setCout(l, c ? 1 : 0);' : '',
  ].filter((x) => x !== '').join(' ');
  const src = `return function ${name}(n) {\nfor (let l = 0; l < n; l++) { ${lane} }\n};`;
  return new Function(...INT_PARAMS, src)(R, RH, T0, T1, T2, TH0, TH1, TH2, cinBit, setCout, satU32, mulhiU32, popcnt) as LaneFn;
}
for (const [name, op] of INT_OPS) {
  lazyVop(name, { srcs: op.srcs, dst: op.kind === 'i64' ? 'b64' : 'b32' }, () => intLaneFn(name, op), { ...(op.cin ? { in: true } : {}), ...(op.cout ? { out: true } : {}) });
}
/**
 * The f32 ops of valu-f32.ts (the description the fast tier inlines too), compiled the same way:
 * 'f32' ops record `x` and its remainder `e` as `fin` does, 'i32' ops write `r` to R.
 */
const F32_PARAMS = ['R', 'RD', 'RE', 'RO', 'RW', 'T0', 'T1', 'T2', 'TF0', 'TF1', 'TF2', 'unordered'];
const F32_SRC: readonly F32SrcExpr[] = [0, 1, 2].map((k) => ({ u: `T${k}[l]`, f: `TF${k}[l]` }));
/**
 * An 'ordered' op's lanes with a NaN source call `unordered(l)` (its NaN rule, which records the
 * lane's result with `fin`) instead of the body.
 */
export function f32LaneFn(name: string, op: F32Op, unordered?: (l: number) => void): LaneFn {
  const nan = op.srcs.map((_, k) => `TF${k}[l] !== TF${k}[l]`).join(' || ');
  const lane = (op.ordered ? `if (${nan}) { unordered(l); continue; } ` : '') + (op.kind === 'f32'
    ? `let x = 0, e = 0; ${op.body(F32_SRC)} RD[l] = x; RE[l] = e; RO[l] = 0; RW[l] = 0;`
    : `let r = 0; ${op.body(F32_SRC)} R[l] = r;`);
  const src = `return function ${name}(n) {\nfor (let l = 0; l < n; l++) { ${lane} }\n};`;
  return new Function(...F32_PARAMS, src)(R, RD, RE, RO, RW, T0, T1, T2, TF0, TF1, TF2, unordered) as LaneFn;
}
const REMAP = {
  /** D = S0 * K + S1 (K the literal). */
  mk: (o: ValuOperands): ValuOperands => ({ ...o, src: [o.src[0]!, 255, o.src[1]!] }),
  /** D = S0 * S1 + K. */
  ak: (o: ValuOperands): ValuOperands => ({ ...o, src: [o.src[0]!, o.src[1]!, 255] }),
};
for (const [name, op] of F32_OPS) {
  // Ordered ops (min/max) need their NaN rule: valu-float.ts defines them.
  if (op.ordered) continue;
  const o: VopOptions = { ...(op.accum ? { accum: true } : {}), ...(op.remap ? { remap: REMAP[op.remap] } : {}) };
  lazyVop(name, { srcs: op.srcs, dst: op.kind === 'f32' ? 'f32' : 'b32' }, () => f32LaneFn(name, op), o);
}
vop('v_add_nc_i32', U32x2, (n) => {
  for (let l = 0; l < n; l++) void (R[l] = satI32((T0[l]! | 0) + (T1[l]! | 0)));
});
vop('v_sub_nc_i32', U32x2, (n) => {
  for (let l = 0; l < n; l++) void (R[l] = satI32((T0[l]! | 0) - (T1[l]! | 0)));
});
vop('v_add_nc_u16', U16x2, (n) => {
  for (let l = 0; l < n; l++) void (R[l] = satU16(T0[l]! + T1[l]!));
});
vop('v_sub_nc_u16', U16x2, (n) => {
  for (let l = 0; l < n; l++) void (R[l] = satU16(T0[l]! - T1[l]!));
});
vop('v_add_nc_i16', U16x2, (n) => {
  for (let l = 0; l < n; l++) void (R[l] = satI16(s16(T0[l]!) + s16(T1[l]!)));
});
vop('v_sub_nc_i16', U16x2, (n) => {
  for (let l = 0; l < n; l++) void (R[l] = satI16(s16(T0[l]!) - s16(T1[l]!)));
});
vop('v_mul_lo_u16', U16x2, (n) => {
  for (let l = 0; l < n; l++) void (R[l] = satU16(T0[l]! * T1[l]!));
});
vop('v_mad_u16', U16x3, (n) => {
  for (let l = 0; l < n; l++) void (R[l] = satU16(T0[l]! * T1[l]! + T2[l]!));
});
vop('v_mad_i16', U16x3, (n) => {
  for (let l = 0; l < n; l++) void (R[l] = satI16(s16(T0[l]!) * s16(T1[l]!) + s16(T2[l]!)));
});
vop('v_mad_u32_u16', { srcs: ['b16', 'b16', 'b32'], dst: 'b32' }, (n) => {
  for (let l = 0; l < n; l++) void (R[l] = satU32(T0[l]! * T1[l]! + T2[l]!));
});
vop('v_mad_i32_i16', { srcs: ['b16', 'b16', 'b32'], dst: 'b32' }, (n) => {
  for (let l = 0; l < n; l++) void (R[l] = satI32(s16(T0[l]!) * s16(T1[l]!) + (T2[l]! | 0)));
});
vop('v_mul_hi_i32', U32x2, (n) => {
  for (let l = 0; l < n; l++) void (R[l] = mulhiI32(T0[l]!, T1[l]!));
});
vop('v_mul_hi_u32_u24', U32x2, (n) => {
  for (let l = 0; l < n; l++) void (R[l] = Math.floor(((T0[l]! & 0xffffff) * (T1[l]! & 0xffffff)) / 0x1_0000_0000));
});
vop('v_mul_hi_i32_i24', U32x2, (n) => {
  for (let l = 0; l < n; l++) void (R[l] = Math.floor((((T0[l]! << 8) >> 8) * ((T1[l]! << 8) >> 8)) / 0x1_0000_0000));
});
const minU = (a: number, b: number) => (a < b ? a : b);
const maxU = (a: number, b: number) => (a >= b ? a : b);
vop('v_min_u16', U16x2, (n) => {
  for (let l = 0; l < n; l++) void (R[l] = minU(T0[l]!, T1[l]!));
});
vop('v_max_u16', U16x2, (n) => {
  for (let l = 0; l < n; l++) void (R[l] = maxU(T0[l]!, T1[l]!));
});
vop('v_min_i16', U16x2, (n) => {
  for (let l = 0; l < n; l++) void (R[l] = minU(s16(T0[l]!), s16(T1[l]!)) & 0xffff);
});
vop('v_max_i16', U16x2, (n) => {
  for (let l = 0; l < n; l++) void (R[l] = maxU(s16(T0[l]!), s16(T1[l]!)) & 0xffff);
});
vop('v_min3_u32', U32x3, (n) => {
  for (let l = 0; l < n; l++) void (R[l] = minU(minU(T0[l]!, T1[l]!), T2[l]!));
});
vop('v_max3_u32', U32x3, (n) => {
  for (let l = 0; l < n; l++) void (R[l] = maxU(maxU(T0[l]!, T1[l]!), T2[l]!));
});
vop('v_min3_i32', U32x3, (n) => {
  for (let l = 0; l < n; l++) void (R[l] = minU(minU(T0[l]! | 0, T1[l]! | 0), T2[l]! | 0));
});
vop('v_max3_i32', U32x3, (n) => {
  for (let l = 0; l < n; l++) void (R[l] = maxU(maxU(T0[l]! | 0, T1[l]! | 0), T2[l]! | 0));
});
vop('v_min3_u16', U16x3, (n) => {
  for (let l = 0; l < n; l++) void (R[l] = minU(minU(T0[l]!, T1[l]!), T2[l]!));
});
vop('v_max3_u16', U16x3, (n) => {
  for (let l = 0; l < n; l++) void (R[l] = maxU(maxU(T0[l]!, T1[l]!), T2[l]!));
});
vop('v_min3_i16', U16x3, (n) => {
  for (let l = 0; l < n; l++) void (R[l] = minU(minU(s16(T0[l]!), s16(T1[l]!)), s16(T2[l]!)) & 0xffff);
});
vop('v_max3_i16', U16x3, (n) => {
  for (let l = 0; l < n; l++) void (R[l] = maxU(maxU(s16(T0[l]!), s16(T1[l]!)), s16(T2[l]!)) & 0xffff);
});
vop('v_maxmin_u32', U32x3, (n) => {
  for (let l = 0; l < n; l++) void (R[l] = minU(maxU(T0[l]!, T1[l]!), T2[l]!));
});
vop('v_minmax_u32', U32x3, (n) => {
  for (let l = 0; l < n; l++) void (R[l] = maxU(minU(T0[l]!, T1[l]!), T2[l]!));
});
vop('v_maxmin_i32', U32x3, (n) => {
  for (let l = 0; l < n; l++) void (R[l] = minU(maxU(T0[l]! | 0, T1[l]! | 0), T2[l]! | 0));
});
vop('v_minmax_i32', U32x3, (n) => {
  for (let l = 0; l < n; l++) void (R[l] = maxU(minU(T0[l]! | 0, T1[l]! | 0), T2[l]! | 0));
});
const med3 = (a: number, b: number, c: number) => {
  const mx = maxU(maxU(a, b), c);
  return mx === a ? maxU(b, c) : mx === b ? maxU(a, c) : maxU(a, b);
};
vop('v_med3_i32', U32x3, (n) => {
  for (let l = 0; l < n; l++) void (R[l] = med3(T0[l]! | 0, T1[l]! | 0, T2[l]! | 0));
});
vop('v_med3_u32', U32x3, (n) => {
  for (let l = 0; l < n; l++) void (R[l] = med3(T0[l]!, T1[l]!, T2[l]!));
});
vop('v_med3_i16', U16x3, (n) => {
  for (let l = 0; l < n; l++) void (R[l] = med3(s16(T0[l]!), s16(T1[l]!), s16(T2[l]!)) & 0xffff);
});
vop('v_med3_u16', U16x3, (n) => {
  for (let l = 0; l < n; l++) void (R[l] = med3(T0[l]!, T1[l]!, T2[l]!));
});
vop('v_cndmask_b16', U16x2, (n) => {
  for (let l = 0; l < n; l++) void (R[l] = cinBit(l) ? T1[l]! : T0[l]!);
}, { in: true });
vop('v_mbcnt_lo_u32_b32', U32x2, (n) => {
  for (let l = 0; l < n; l++) void (R[l] = popcnt(T0[l]! & (l >= 32 ? 0xffffffff : 2 ** l - 1)) + T1[l]!);
});
vop('v_mbcnt_hi_u32_b32', U32x2, (n) => {
  for (let l = 0; l < n; l++) void (R[l] = popcnt(T0[l]! & (l < 32 ? 0 : 2 ** (l - 32) - 1)) + T1[l]!);
});

// ---- sums of absolute differences
const absdiff = (a: number, b: number) => (a > b ? a - b : b - a);
function sadU8(a: number, b: number, acc: number, masked: boolean): number {
  let r = acc;
  for (let i = 0; i < 32; i += 8) {
    const y = (b >>> i) & 0xff;
    if (masked && y === 0) continue;
    r += absdiff((a >>> i) & 0xff, y);
  }
  return r >>> 0;
}
vop('v_sad_u8', U32x3, (n) => {
  for (let l = 0; l < n; l++) void (R[l] = sadU8(T0[l]!, T1[l]!, T2[l]!, false));
});
vop('v_msad_u8', U32x3, (n) => {
  for (let l = 0; l < n; l++) void (R[l] = sadU8(T0[l]!, T1[l]!, T2[l]!, true));
});
vop('v_sad_hi_u8', U32x3, (n) => {
  for (let l = 0; l < n; l++) void (R[l] = (sadU8(T0[l]!, T1[l]!, 0, false) << 16) + T2[l]!);
});
vop('v_sad_u16', U32x3, (n) => {
  for (let l = 0; l < n; l++) void (R[l] = T2[l]! + absdiff(T0[l]! & 0xffff, T1[l]! & 0xffff) + absdiff(T0[l]! >>> 16, T1[l]! >>> 16));
});
vop('v_sad_u32', U32x3, (n) => {
  for (let l = 0; l < n; l++) void (R[l] = absdiff(T0[l]!, T1[l]!) + T2[l]!);
});
/** 32-bit window of the 64-bit S0 starting at byte `b`. */
const win = (lo: number, hi: number, b: number) => (b === 0 ? lo : ((lo >>> (8 * b)) | (hi << (32 - 8 * b))) >>> 0);
vop('v_qsad_pk_u16_u8', { srcs: ['b64', 'b32', 'b64'], dst: 'b64' }, (n) => {
  for (let l = 0; l < n; l++) {
  const lo = T0[l]!, hi = TH0[l]!, s1 = T1[l]!, a = T2[l]!, b = TH2[l]!;
  R[l] = ((sadU8(win(lo, hi, 0), s1, a & 0xffff, false) & 0xffff) | (sadU8(win(lo, hi, 1), s1, a >>> 16, false) << 16)) >>> 0;
  RH[l] = ((sadU8(win(lo, hi, 2), s1, b & 0xffff, false) & 0xffff) | (sadU8(win(lo, hi, 3), s1, b >>> 16, false) << 16)) >>> 0;
}
});
vop('v_mqsad_pk_u16_u8', { srcs: ['b64', 'b32', 'b64'], dst: 'b64' }, (n) => {
  for (let l = 0; l < n; l++) {
  const lo = T0[l]!, hi = TH0[l]!, s1 = T1[l]!, a = T2[l]!, b = TH2[l]!;
  R[l] = ((sadU8(win(lo, hi, 0), s1, a & 0xffff, true) & 0xffff) | (sadU8(win(lo, hi, 1), s1, a >>> 16, true) << 16)) >>> 0;
  RH[l] = ((sadU8(win(lo, hi, 2), s1, b & 0xffff, true) & 0xffff) | (sadU8(win(lo, hi, 3), s1, b >>> 16, true) << 16)) >>> 0;
}
});

/**
 * v_mqsad_u32_u8: four masked SADs of 4-byte windows of the 64-bit S0 against S1, each added to
 * a dword of the 128-bit S2, into a 4-dword destination. Bound by hand (128-bit operands).
 */
define('v_mqsad_u32_u8', (inst, env) => {
  const ops = valuOperands(inst);
  const findings: Finding[] = [];
  const ws = env.waveSize;
  const gatherAll = bindSources(env, inst, ops, ['b64', 'b32'], findings, true);
  const ok = vdstOk(env, inst, ops.vdst, 4, findings);
  const d = ops.vdst * ws;
  const s2 = ops.src[2]!;
  let s2base = 0;
  if (s2 >= 256) {
    const r = s2 - 256;
    if (r + 3 >= env.vgprs) findings.push({ id: 'gfx11.vgpr.src-out-of-range', message: `${inst.mnemonic}: source v${r} is past the ${env.vgprs} allocated VGPRs; the hardware reads VGPR0` });
    else s2base = r * ws;
  }
  const s2sgpr = s2 < 256 ? s2 & ~3 : -1;
  return {
    cls: 'valu',
    findings,
    run: (w: Wave) => {
      w.laneOps += activeLanes(w, ops);
      if (!ok) return;
      gatherAll(w);
      const v = w.v;
      for (let l = 0; l < ws; l++) {
        if (VALID[l] === 0) continue;
        const lo = T0[l]!, hi = TH0[l]!, s1 = T1[l]!;
        for (let i = 0; i < 4; i++) {
          const acc = s2sgpr >= 0 ? (s2sgpr < 106 ? w.s[s2sgpr + i]! : 0) : v[s2base + i * ws + l]!;
          v[d + i * ws + l] = sadU8(win(lo, hi, i), s1, acc, true);
        }
      }
    },
  };
});

// ---- 64-bit integer
/** {D1, D.i64} = 65'I(S0.i32 * S1.i32 + S2.i64): D1 is bit 64 of the signed 65-bit sum. */
vop('v_mad_i64_i32', { srcs: ['b32', 'b32', 'b64'], dst: 'b64' }, (n) => {
  for (let l = 0; l < n; l++) {
  const a = T0[l]!, b = T1[l]!;
  const plo = Math.imul(a, b) >>> 0;
  const phi = mulhiI32(a, b) >>> 0;
  const lo = plo + T2[l]!;
  const hi = phi + TH2[l]! + (lo > 0xffffffff ? 1 : 0);
  R[l] = lo;
  RH[l] = hi;
  // bit 64 = sign(p) + sign(c) + carry out of bit 63 (sign-extended operands)
  const sp = phi >>> 31, sc = TH2[l]! >>> 31, c63 = hi > 0xffffffff ? 1 : 0;
  setCout(l, (sp + sc + c63) & 1);
}
}, { out: true });
void TF0;
void TF1;
void TF2;
void f32bits;
export { R, RH, RF, T, TH, TF };
