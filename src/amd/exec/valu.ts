/**
 * Vector ALU semantics. Each op is a per-lane function over the gathered source rows T/TH/TF
 * (valu-core.ts) writing R/RH/RF; the wrappers here handle destinations: a VGPR (32/64-bit,
 * 16-bit halves), a lane mask (compares, carries) to VCC/SGPR/EXEC, omod and clamp for floats.
 * Semantics follow the RDNA3 ISA definitions; float results round to f32 through Float32Array.
 */
import type { Instruction } from '../isa/types.js';
import type { Wave } from '../wave/wave.js';
import { SREG } from '../wave/wave.js';
import type { ExecEnv } from './env.js';
import { define, type Finding } from './registry.js';
import { HI, sread32, sread64, swrite32, swrite64 } from './operands.js';
import {
  T, TH, TF, R, RH, RF, bindSrc, gather, dppWriteMask, valuOperands, type OpType, type Src, type ValuOperands,
} from './valu-core.js';
import { mulhiU32, mulhiI32, popcnt, brev32 } from './salu.js';
import { f64, f64bits, f64hi } from '../../core/float.js';

type LaneFn = (l: number) => void;

const VALID = new Uint8Array(64);

/** Lanes to write: active in EXEC and valid after DPP. Fills VALID; returns the count. */
function activeLanes(w: Wave, ops: ValuOperands): number {
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

interface Shape {
  /** Source operand types, in order. */
  readonly srcs: readonly OpType[];
  /** Destination: VGPR of a type, or a lane mask. */
  readonly dst: OpType | 'mask';
}

/** Bind sources and return a gather-all function. */
function bindSources(env: ExecEnv, inst: Instruction, ops: ValuOperands, types: readonly OpType[], findings: Finding[]): (w: Wave) => void {
  const srcs: Src[] = types.map((t, k) => bindSrc(env, inst, ops, k, t, findings));
  const dpp = ops.dpp;
  const n = srcs.length;
  return (w) => {
    for (let k = 0; k < n; k++) gather(w, srcs[k]!, k as 0 | 1 | 2, dpp, VALID);
  };
}

/** omod and clamp for f32 results in RF. */
function f32Post(ops: ValuOperands): ((l: number) => void) | null {
  if (!ops.clamp && ops.omod === 0) return null;
  const mul = [1, 2, 4, 0.5][ops.omod]!;
  const clamp = ops.clamp;
  return (l) => {
    let x = RF[l]! * mul;
    if (clamp) x = Number.isNaN(x) ? 0 : Math.min(1, Math.max(0, x));
    RF[l] = x;
  };
}

function f64Post(ops: ValuOperands): ((x: number) => number) | null {
  if (!ops.clamp && ops.omod === 0) return null;
  const mul = [1, 2, 4, 0.5][ops.omod]!;
  const clamp = ops.clamp;
  return (x) => {
    x *= mul;
    return clamp ? (Number.isNaN(x) ? 0 : Math.min(1, Math.max(0, x))) : x;
  };
}

/** Check the VGPR destination range at bind time: out of range -> the instruction is a NOP. */
function vdstOk(env: ExecEnv, inst: Instruction, vdst: number, dwords: number, findings: Finding[]): boolean {
  if (vdst + dwords > env.vgprs) {
    findings.push({ id: 'gfx11.vgpr.dst-out-of-range', message: `${inst.mnemonic}: destination v${vdst} is past the ${env.vgprs} allocated VGPRs; the instruction is ignored (NOP)` });
    return false;
  }
  return true;
}

/** A VALU op writing one 32-bit VGPR per lane (types f32 or b32), possibly also a carry mask. */
export function vop(names: string | string[], shape: Shape, fn: LaneFn, carry?: { out?: boolean; in?: boolean }): void {
  define(names, (inst, env) => {
    const ops = valuOperands(inst);
    const findings: Finding[] = [];
    const gatherAll = bindSources(env, inst, ops, shape.srcs, findings);
    const ws = env.waveSize;
    const dst = shape.dst;
    const wide = dst === 'b64' || dst === 'f64';
    const ok = vdstOk(env, inst, ops.vdst, wide ? 2 : 1, findings);
    const d = ops.vdst * ws;
    const post = dst === 'f32' ? f32Post(ops) : null;
    const post64 = dst === 'f64' ? f64Post(ops) : null;
    // Carry-in: VOP2 reads VCC; VOP3SD reads the mask from src2.
    const cinEnc = carry?.in ? (inst.encoding === 'VOP2' ? SREG.VCC_LO : ops.src[2]!) : -1;
    const cin = cinEnc >= 0 ? (ws === 64 ? sread64(cinEnc, ops.literal) : sread32(cinEnc, ops.literal)) : null;
    // Carry-out: VOP2 writes VCC; VOP3SD writes sdst.
    const coutEnc = carry?.out ? (inst.encoding === 'VOP2' ? SREG.VCC_LO : ops.sdst) : -1;
    return {
      cls: 'valu',
      findings,
      run: (w) => {
        const n = activeLanes(w, ops);
        w.laneOps += n;
        if (!ok) return;
        gatherAll(w);
        if (cin) {
          CIN_LO = cin(w);
          CIN_HI = ws === 64 ? HI[0]! : 0;
        }
        COUT_LO = 0;
        COUT_HI = 0;
        const v = w.v;
        for (let l = 0; l < ws; l++) {
          if (VALID[l] === 0) continue;
          fn(l);
          if (post) post(l);
          if (wide) {
            if (post64) {
              const lo = f64bits(post64(f64(R[l]!, RH[l]!)));
              R[l] = lo;
              RH[l] = f64hi();
            }
            v[d + l] = R[l]!;
            v[d + ws + l] = RH[l]!;
          } else v[d + l] = R[l]!;
        }
        if (coutEnc >= 0) {
          // The carry mask has a bit per lane; inactive lanes write 0.
          if (ws === 64) swrite64(w, coutEnc, COUT_LO, COUT_HI);
          else swrite32(w, coutEnc, COUT_LO);
        }
      },
    };
  });
}

/** Carry-in mask and carry-out accumulation for the current instruction. */
let CIN_LO = 0;
let CIN_HI = 0;
let COUT_LO = 0;
let COUT_HI = 0;
const cinBit = (l: number) => (l < 32 ? (CIN_LO >>> l) & 1 : (CIN_HI >>> (l - 32)) & 1);
const setCout = (l: number, c: number) => {
  if (c) {
    if (l < 32) COUT_LO = (COUT_LO | (1 << l)) >>> 0;
    else COUT_HI = (COUT_HI | (1 << (l - 32))) >>> 0;
  }
};

const U32x2: Shape = { srcs: ['b32', 'b32'], dst: 'b32' };
const U32x1: Shape = { srcs: ['b32'], dst: 'b32' };
const U32x3: Shape = { srcs: ['b32', 'b32', 'b32'], dst: 'b32' };
const F32x1: Shape = { srcs: ['f32'], dst: 'f32' };
const F32x2: Shape = { srcs: ['f32', 'f32'], dst: 'f32' };
const F32x3: Shape = { srcs: ['f32', 'f32', 'f32'], dst: 'f32' };
const F64x2: Shape = { srcs: ['f64', 'f64'], dst: 'f64' };
const F64x3: Shape = { srcs: ['f64', 'f64', 'f64'], dst: 'f64' };
const F64x1: Shape = { srcs: ['f64'], dst: 'f64' };

const [T0, T1, T2] = T;
const [TH0, TH1, TH2] = TH;
const [TF0, TF1, TF2] = TF;

// ---- moves and bit ops
vop('v_mov_b32', U32x1, (l) => void (R[l] = T0[l]!));
vop('v_not_b32', U32x1, (l) => void (R[l] = ~T0[l]!));
vop('v_bfrev_b32', U32x1, (l) => void (R[l] = brev32(T0[l]!)));
vop('v_and_b32', U32x2, (l) => void (R[l] = T0[l]! & T1[l]!));
vop('v_or_b32', U32x2, (l) => void (R[l] = T0[l]! | T1[l]!));
vop('v_xor_b32', U32x2, (l) => void (R[l] = T0[l]! ^ T1[l]!));
vop('v_xnor_b32', U32x2, (l) => void (R[l] = ~(T0[l]! ^ T1[l]!)));
vop('v_or3_b32', U32x3, (l) => void (R[l] = T0[l]! | T1[l]! | T2[l]!));
vop('v_and_or_b32', U32x3, (l) => void (R[l] = (T0[l]! & T1[l]!) | T2[l]!));
vop('v_xor3_b32', U32x3, (l) => void (R[l] = T0[l]! ^ T1[l]! ^ T2[l]!));
vop('v_lshlrev_b32', U32x2, (l) => void (R[l] = T1[l]! << (T0[l]! & 31)));
vop('v_lshrrev_b32', U32x2, (l) => void (R[l] = T1[l]! >>> (T0[l]! & 31)));
vop('v_ashrrev_i32', U32x2, (l) => void (R[l] = (T1[l]! | 0) >> (T0[l]! & 31)));
vop('v_lshl_add_u32', U32x3, (l) => void (R[l] = (T0[l]! << (T1[l]! & 31)) + T2[l]!));
vop('v_add_lshl_u32', U32x3, (l) => void (R[l] = (T0[l]! + T1[l]!) << (T2[l]! & 31)));
vop('v_lshl_or_b32', U32x3, (l) => void (R[l] = (T0[l]! << (T1[l]! & 31)) | T2[l]!));
vop('v_bfe_u32', U32x3, (l) => {
  const off = T1[l]! & 31;
  const wd = T2[l]! & 31;
  R[l] = wd === 0 ? 0 : ((T0[l]! >>> off) & (wd === 32 ? 0xffffffff : (1 << wd) - 1)) >>> 0;
});
vop('v_bfe_i32', U32x3, (l) => {
  const off = T1[l]! & 31;
  const wd = T2[l]! & 31;
  R[l] = wd === 0 ? 0 : ((T0[l]! >>> off) << (32 - wd)) >> (32 - wd);
});
vop('v_bfi_b32', U32x3, (l) => void (R[l] = (T0[l]! & T1[l]!) | (~T0[l]! & T2[l]!)));
vop('v_alignbit_b32', U32x3, (l) => {
  const s = T2[l]! & 31;
  R[l] = s === 0 ? T1[l]! : (T1[l]! >>> s) | (T0[l]! << (32 - s));
});
vop('v_bcnt_u32_b32', U32x2, (l) => void (R[l] = popcnt(T0[l]!) + T1[l]!));
vop('v_ctz_i32_b32', U32x1, (l) => void (R[l] = T0[l] === 0 ? -1 : 31 - Math.clz32(T0[l]! & -T0[l]!)));
vop('v_clz_i32_u32', U32x1, (l) => void (R[l] = T0[l] === 0 ? -1 : Math.clz32(T0[l]!)));
vop('v_perm_b32', U32x3, (l) => {
  const s0 = T0[l]!, s1 = T1[l]!, sel = T2[l]!;
  let r = 0;
  for (let b = 0; b < 4; b++) r |= permByte(s0, s1, (sel >>> (8 * b)) & 0xff) << (8 * b);
  R[l] = r;
});
function permByte(s0: number, s1: number, sel: number): number {
  if (sel < 4) return (s1 >>> (8 * sel)) & 0xff;
  if (sel < 8) return (s0 >>> (8 * (sel - 4))) & 0xff;
  if (sel < 12) {
    // sign of 16-bit words: 8 -> s1 byte1 sign, 9 -> s1 byte3, 10 -> s0 byte1, 11 -> s0 byte3
    const src = sel < 10 ? s1 : s0;
    const byte = sel & 1 ? 3 : 1;
    return (src >>> (8 * byte + 7)) & 1 ? 0xff : 0;
  }
  return sel === 12 ? 0 : 0xff;
}

// ---- integer arithmetic
vop('v_add_nc_u32', U32x2, (l) => void (R[l] = T0[l]! + T1[l]!));
vop('v_sub_nc_u32', U32x2, (l) => void (R[l] = T0[l]! - T1[l]!));
vop('v_subrev_nc_u32', U32x2, (l) => void (R[l] = T1[l]! - T0[l]!));
vop('v_add3_u32', U32x3, (l) => void (R[l] = T0[l]! + T1[l]! + T2[l]!));
vop('v_mul_lo_u32', U32x2, (l) => void (R[l] = Math.imul(T0[l]!, T1[l]!)));
vop('v_mul_hi_u32', U32x2, (l) => void (R[l] = mulhiU32(T0[l]!, T1[l]!)));
vop('v_mul_hi_i32', U32x2, (l) => void (R[l] = mulhiI32(T0[l]!, T1[l]!)));
vop('v_mul_u32_u24', U32x2, (l) => void (R[l] = Math.imul(T0[l]! & 0xffffff, T1[l]! & 0xffffff)));
vop('v_mul_i32_i24', U32x2, (l) => void (R[l] = Math.imul((T0[l]! << 8) >> 8, (T1[l]! << 8) >> 8)));
vop('v_mad_u32_u24', U32x3, (l) => void (R[l] = Math.imul(T0[l]! & 0xffffff, T1[l]! & 0xffffff) + T2[l]!));
vop('v_mad_i32_i24', U32x3, (l) => void (R[l] = Math.imul((T0[l]! << 8) >> 8, (T1[l]! << 8) >> 8) + T2[l]!));
vop('v_min_u32', U32x2, (l) => void (R[l] = Math.min(T0[l]!, T1[l]!)));
vop('v_max_u32', U32x2, (l) => void (R[l] = Math.max(T0[l]!, T1[l]!)));
vop('v_min_i32', U32x2, (l) => void (R[l] = Math.min(T0[l]! | 0, T1[l]! | 0)));
vop('v_max_i32', U32x2, (l) => void (R[l] = Math.max(T0[l]! | 0, T1[l]! | 0)));
vop('v_med3_i32', U32x3, (l) => {
  const a = T0[l]! | 0, b = T1[l]! | 0, c = T2[l]! | 0;
  R[l] = Math.max(Math.min(a, b), Math.min(Math.max(a, b), c));
});
vop('v_med3_u32', U32x3, (l) => {
  const a = T0[l]!, b = T1[l]!, c = T2[l]!;
  R[l] = Math.max(Math.min(a, b), Math.min(Math.max(a, b), c));
});
vop('v_cndmask_b32', { srcs: ['b32', 'b32'], dst: 'b32' }, (l) => void (R[l] = cinBit(l) ? T1[l]! : T0[l]!), { in: true });
vop('v_add_co_u32', U32x2, (l) => {
  const r = T0[l]! + T1[l]!;
  R[l] = r;
  setCout(l, r > 0xffffffff ? 1 : 0);
}, { out: true });
vop('v_sub_co_u32', U32x2, (l) => {
  R[l] = T0[l]! - T1[l]!;
  setCout(l, T1[l]! > T0[l]! ? 1 : 0);
}, { out: true });
vop('v_subrev_co_u32', U32x2, (l) => {
  R[l] = T1[l]! - T0[l]!;
  setCout(l, T0[l]! > T1[l]! ? 1 : 0);
}, { out: true });
vop('v_add_co_ci_u32', U32x2, (l) => {
  const r = T0[l]! + T1[l]! + cinBit(l);
  R[l] = r;
  setCout(l, r > 0xffffffff ? 1 : 0);
}, { in: true, out: true });
vop('v_sub_co_ci_u32', U32x2, (l) => {
  const c = cinBit(l);
  R[l] = T0[l]! - T1[l]! - c;
  setCout(l, T1[l]! + c > T0[l]! ? 1 : 0);
}, { in: true, out: true });
vop('v_subrev_co_ci_u32', U32x2, (l) => {
  const c = cinBit(l);
  R[l] = T1[l]! - T0[l]! - c;
  setCout(l, T0[l]! + c > T1[l]! ? 1 : 0);
}, { in: true, out: true });
vop('v_mbcnt_lo_u32_b32', U32x2, (l) => void (R[l] = popcnt(T0[l]! & (l >= 32 ? 0xffffffff : (2 ** l - 1))) + T1[l]!));
vop('v_mbcnt_hi_u32_b32', U32x2, (l) => void (R[l] = popcnt(T0[l]! & (l < 32 ? 0 : (2 ** (l - 32) - 1))) + T1[l]!));

// ---- 64-bit integer
vop('v_lshlrev_b64', { srcs: ['b32', 'b64'], dst: 'b64' }, (l) => {
  const s = T0[l]! & 63, lo = T1[l]!, hi = TH1[l]!;
  if (s === 0) (R[l] = lo), (RH[l] = hi);
  else if (s < 32) (R[l] = lo << s), (RH[l] = (hi << s) | (lo >>> (32 - s)));
  else (R[l] = 0), (RH[l] = lo << (s - 32));
});
vop('v_lshrrev_b64', { srcs: ['b32', 'b64'], dst: 'b64' }, (l) => {
  const s = T0[l]! & 63, lo = T1[l]!, hi = TH1[l]!;
  if (s === 0) (R[l] = lo), (RH[l] = hi);
  else if (s < 32) (R[l] = (lo >>> s) | (hi << (32 - s))), (RH[l] = hi >>> s);
  else (R[l] = hi >>> (s - 32)), (RH[l] = 0);
});
vop('v_ashrrev_i64', { srcs: ['b32', 'b64'], dst: 'b64' }, (l) => {
  const s = T0[l]! & 63, lo = T1[l]!, hi = TH1[l]!;
  if (s === 0) (R[l] = lo), (RH[l] = hi);
  else if (s < 32) (R[l] = (lo >>> s) | (hi << (32 - s))), (RH[l] = hi >> s);
  else (R[l] = hi >> (s - 32)), (RH[l] = hi >> 31);
});
/** D.u64 = S0.u32 * S1.u32 + S2.u64, carry out to SDST. */
vop('v_mad_u64_u32', { srcs: ['b32', 'b32', 'b64'], dst: 'b64' }, (l) => {
  const a = T0[l]!, b = T1[l]!;
  const plo = Math.imul(a, b) >>> 0;
  const phi = mulhiU32(a, b);
  const lo = plo + T2[l]!;
  const c0 = lo > 0xffffffff ? 1 : 0;
  const hi = phi + TH2[l]! + c0;
  R[l] = lo;
  RH[l] = hi;
  setCout(l, hi > 0xffffffff ? 1 : 0);
}, { out: true });
vop('v_mad_i64_i32', { srcs: ['b32', 'b32', 'b64'], dst: 'b64' }, (l) => {
  const a = T0[l]!, b = T1[l]!;
  const plo = Math.imul(a, b) >>> 0;
  const phi = mulhiI32(a, b);
  const lo = plo + T2[l]!;
  const c0 = lo > 0xffffffff ? 1 : 0;
  const hi = phi + TH2[l]! + c0;
  R[l] = lo;
  RH[l] = hi;
  // signed overflow of the 64-bit add
  const sa = phi >>> 31, sb = TH2[l]! >>> 31, sr = (hi >>> 0) >>> 31;
  setCout(l, sa === sb && sr !== sa ? 1 : 0);
}, { out: true });

// ---- f32
vop('v_add_f32', F32x2, (l) => void (RF[l] = TF0[l]! + TF1[l]!));
vop('v_sub_f32', F32x2, (l) => void (RF[l] = TF0[l]! - TF1[l]!));
vop('v_subrev_f32', F32x2, (l) => void (RF[l] = TF1[l]! - TF0[l]!));
vop('v_mul_f32', F32x2, (l) => void (RF[l] = TF0[l]! * TF1[l]!));
vop('v_fma_f32', F32x3, (l) => void (RF[l] = fmaF32(TF0[l]!, TF1[l]!, TF2[l]!)));
vop('v_max_f32', F32x2, (l) => void (RF[l] = maxF(TF0[l]!, TF1[l]!)));
vop('v_min_f32', F32x2, (l) => void (RF[l] = minF(TF0[l]!, TF1[l]!)));
vop('v_trunc_f32', F32x1, (l) => void (RF[l] = Math.trunc(TF0[l]!)));
vop('v_floor_f32', F32x1, (l) => void (RF[l] = Math.floor(TF0[l]!)));
vop('v_ceil_f32', F32x1, (l) => void (RF[l] = Math.ceil(TF0[l]!)));
vop('v_rndne_f32', F32x1, (l) => void (RF[l] = rne(TF0[l]!)));
vop('v_fract_f32', F32x1, (l) => void (RF[l] = fract(TF0[l]!)));
vop('v_sqrt_f32', F32x1, (l) => void (RF[l] = Math.sqrt(TF0[l]!)));
vop('v_rsq_f32', F32x1, (l) => void (RF[l] = 1 / Math.sqrt(TF0[l]!)));
vop('v_rcp_f32', F32x1, (l) => void (RF[l] = 1 / TF0[l]!));
vop('v_rcp_iflag_f32', F32x1, (l) => void (RF[l] = 1 / TF0[l]!));
vop('v_exp_f32', F32x1, (l) => void (RF[l] = 2 ** TF0[l]!));
vop('v_log_f32', F32x1, (l) => void (RF[l] = Math.log2(TF0[l]!)));
vop('v_sin_f32', F32x1, (l) => void (RF[l] = Math.sin(TF0[l]! * 2 * Math.PI)));
vop('v_cos_f32', F32x1, (l) => void (RF[l] = Math.cos(TF0[l]! * 2 * Math.PI)));
vop('v_ldexp_f32', { srcs: ['f32', 'b32'], dst: 'f32' }, (l) => void (RF[l] = TF0[l]! * 2 ** (T1[l]! | 0)));
vop('v_cvt_f32_u32', { srcs: ['b32'], dst: 'f32' }, (l) => void (RF[l] = T0[l]!));
vop('v_cvt_f32_i32', { srcs: ['b32'], dst: 'f32' }, (l) => void (RF[l] = T0[l]! | 0));
vop('v_cvt_u32_f32', { srcs: ['f32'], dst: 'b32' }, (l) => void (R[l] = cvtU32(TF0[l]!)));
vop('v_cvt_i32_f32', { srcs: ['f32'], dst: 'b32' }, (l) => void (R[l] = cvtI32(TF0[l]!)));
vop('v_cvt_f32_ubyte0', { srcs: ['b32'], dst: 'f32' }, (l) => void (RF[l] = T0[l]! & 0xff));
vop('v_cvt_f32_ubyte1', { srcs: ['b32'], dst: 'f32' }, (l) => void (RF[l] = (T0[l]! >>> 8) & 0xff));
vop('v_cvt_f32_ubyte2', { srcs: ['b32'], dst: 'f32' }, (l) => void (RF[l] = (T0[l]! >>> 16) & 0xff));
vop('v_cvt_f32_ubyte3', { srcs: ['b32'], dst: 'f32' }, (l) => void (RF[l] = T0[l]! >>> 24));

// ---- f64
function f64op(name: string, shape: Shape, fn: (a: number, b: number, c: number) => number): void {
  vop(name, shape, (l) => {
    const r = fn(f64(T0[l]!, TH0[l]!), shape.srcs.length > 1 ? f64(T1[l]!, TH1[l]!) : 0, shape.srcs.length > 2 ? f64(T2[l]!, TH2[l]!) : 0);
    R[l] = f64bits(r);
    RH[l] = f64hi();
  });
}
f64op('v_add_f64', F64x2, (a, b) => a + b);
f64op('v_mul_f64', F64x2, (a, b) => a * b);
f64op('v_fma_f64', F64x3, (a, b, c) => fma64(a, b, c));
f64op('v_trunc_f64', F64x1, (a) => Math.trunc(a));
f64op('v_floor_f64', F64x1, (a) => Math.floor(a));
f64op('v_rcp_f64', F64x1, (a) => 1 / a);
f64op('v_rsq_f64', F64x1, (a) => 1 / Math.sqrt(a));
vop('v_ldexp_f64', { srcs: ['f64', 'b32'], dst: 'f64' }, (l) => {
  R[l] = f64bits(f64(T0[l]!, TH0[l]!) * 2 ** (T1[l]! | 0));
  RH[l] = f64hi();
});
vop('v_cvt_u32_f64', { srcs: ['f64'], dst: 'b32' }, (l) => void (R[l] = cvtU32(f64(T0[l]!, TH0[l]!))));
vop('v_cvt_i32_f64', { srcs: ['f64'], dst: 'b32' }, (l) => void (R[l] = cvtI32(f64(T0[l]!, TH0[l]!))));
vop('v_cvt_f64_u32', { srcs: ['b32'], dst: 'f64' }, (l) => void ((R[l] = f64bits(T0[l]!)), (RH[l] = f64hi())));
vop('v_cvt_f64_i32', { srcs: ['b32'], dst: 'f64' }, (l) => void ((R[l] = f64bits(T0[l]! | 0)), (RH[l] = f64hi())));

// ---- compares (VOPC and VOP3 forms): a lane mask to VCC / SDST, or EXEC for v_cmpx
type Cmp = (l: number) => boolean;
export function vcmp(name: string, srcs: readonly OpType[], test: Cmp): void {
  for (const x of [false, true]) {
    const mn = x ? name.replace(/^v_cmp_/, 'v_cmpx_') : name;
    define(mn, (inst, env) => {
      const ops = valuOperands(inst);
      const findings: Finding[] = [];
      const gatherAll = bindSources(env, inst, ops, srcs, findings);
      const ws = env.waveSize;
      // e32 writes VCC, e64 writes SDST (vdst field of VOP3 holds the SGPR), cmpx writes EXEC only.
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
const CMP_NAMES: [string, (a: number, b: number) => boolean][] = [
  ['eq', (a, b) => a === b], ['ne', (a, b) => a !== b], ['lt', (a, b) => a < b], ['le', (a, b) => a <= b],
  ['gt', (a, b) => a > b], ['ge', (a, b) => a >= b],
];
for (const [n, t] of CMP_NAMES) {
  vcmp(`v_cmp_${n}_u32`, ['b32', 'b32'], (l) => t(T0[l]!, T1[l]!));
  vcmp(`v_cmp_${n}_i32`, ['b32', 'b32'], (l) => t(T0[l]! | 0, T1[l]! | 0));
  vcmp(`v_cmp_${n}_u64`, ['b64', 'b64'], (l) => t(TH0[l]! * 0x1_0000_0000 + T0[l]!, TH1[l]! * 0x1_0000_0000 + T1[l]!));
  vcmp(`v_cmp_${n}_i64`, ['b64', 'b64'], (l) => t((TH0[l]! | 0) * 0x1_0000_0000 + T0[l]!, (TH1[l]! | 0) * 0x1_0000_0000 + T1[l]!));
}
// Float compares: ordered forms are false on NaN; the n* forms are their negations (true on NaN).
const FCMP: [string, (a: number, b: number) => boolean][] = [
  ['eq', (a, b) => a === b], ['lt', (a, b) => a < b], ['le', (a, b) => a <= b], ['gt', (a, b) => a > b],
  ['ge', (a, b) => a >= b], ['lg', (a, b) => a < b || a > b], ['o', (a, b) => a === a && b === b],
];
for (const [n, t] of FCMP) {
  vcmp(`v_cmp_${n}_f32`, ['f32', 'f32'], (l) => t(TF0[l]!, TF1[l]!));
  vcmp(`v_cmp_${n}_f64`, ['f64', 'f64'], (l) => t(f64(T0[l]!, TH0[l]!), f64(T1[l]!, TH1[l]!)));
  const neg = n === 'o' ? 'u' : n === 'lg' ? 'neq' : n === 'eq' ? 'neq_' : `n${n}`;
  if (neg !== 'neq_' && neg !== 'neq') {
    vcmp(`v_cmp_${neg}_f32`, ['f32', 'f32'], (l) => !t(TF0[l]!, TF1[l]!));
    vcmp(`v_cmp_${neg}_f64`, ['f64', 'f64'], (l) => !t(f64(T0[l]!, TH0[l]!), f64(T1[l]!, TH1[l]!)));
  }
}
vcmp('v_cmp_neq_f32', ['f32', 'f32'], (l) => !(TF0[l]! === TF1[l]!));
vcmp('v_cmp_nlg_f32', ['f32', 'f32'], (l) => !(TF0[l]! < TF1[l]! || TF0[l]! > TF1[l]!));
vcmp('v_cmp_neq_f64', ['f64', 'f64'], (l) => !(f64(T0[l]!, TH0[l]!) === f64(T1[l]!, TH1[l]!)));
vcmp('v_cmp_nlg_f64', ['f64', 'f64'], (l) => { const a = f64(T0[l]!, TH0[l]!), b = f64(T1[l]!, TH1[l]!); return !(a < b || a > b); });

// ---- cross-lane
define('v_readfirstlane_b32', (inst, env) => {
  const ops = valuOperands(inst);
  const src = ops.src[0]!;
  const d = ops.vdst;
  const ws = env.waveSize;
  const base = src >= 256 ? (src - 256) * ws : -1;
  const S = src < 256 ? sread32(src, ops.literal) : null;
  return {
    cls: 'valu',
    run: (w) => {
      let lane = 0;
      for (let l = 0; l < ws; l++) if (w.laneOn(l)) { lane = l; break; }
      swrite32(w, d, S ? S(w) : w.v[base + lane]!);
    },
  };
});
define('v_readlane_b32', (inst, env) => {
  const ops = valuOperands(inst);
  const ws = env.waveSize;
  const src = ops.src[0]!;
  const L = sread32(ops.src[1]!, ops.literal);
  const d = ops.vdst;
  return {
    cls: 'valu',
    run: (w) => {
      const lane = L(w) & (ws - 1);
      swrite32(w, d, src >= 256 ? w.v[(src - 256) * ws + lane]! : sread32(src, ops.literal)(w));
    },
  };
});
define('v_writelane_b32', (inst, env) => {
  const ops = valuOperands(inst);
  const ws = env.waveSize;
  const S = sread32(ops.src[0]!, ops.literal);
  const L = sread32(ops.src[1]!, ops.literal);
  const d = ops.vdst * ws;
  return { cls: 'valu', run: (w) => void (w.v[d + (L(w) & (ws - 1))] = S(w)) };
});

// v_fmac_f32: D = S0 * S1 + D (the destination is also the third source).
define('v_fmac_f32', (inst, env) => fmacBinder(inst, env));
function fmacBinder(inst: Instruction, env: ExecEnv) {
  const ops = valuOperands(inst);
  const withDst: ValuOperands = { ...ops, src: [ops.src[0]!, ops.src[1]!, 256 + ops.vdst] };
  const findings: Finding[] = [];
  const gatherAll = bindSources(env, inst, withDst, ['f32', 'f32', 'f32'], findings);
  const ws = env.waveSize;
  const d = ops.vdst * ws;
  const post = f32Post(ops);
  return {
    cls: 'valu' as const,
    findings,
    run: (w: Wave) => {
      w.laneOps += activeLanes(w, ops);
      gatherAll(w);
      const vf = w.vf;
      for (let l = 0; l < ws; l++) {
        if (VALID[l] === 0) continue;
        RF[l] = fmaF32(TF0[l]!, TF1[l]!, TF2[l]!);
        if (post) post(l);
        vf[d + l] = RF[l]!;
      }
    },
  };
}

// ---- float helpers
function maxF(a: number, b: number): number {
  if (Number.isNaN(a)) return b;
  if (Number.isNaN(b)) return a;
  return a > b ? a : a < b ? b : Object.is(a, -0) ? b : a;
}
function minF(a: number, b: number): number {
  if (Number.isNaN(a)) return b;
  if (Number.isNaN(b)) return a;
  return a < b ? a : a > b ? b : Object.is(a, -0) ? a : b;
}
function rne(x: number): number {
  const r = Math.round(x);
  return Math.abs(x - Math.trunc(x)) === 0.5 ? 2 * Math.round(x / 2) : r;
}
function fract(x: number): number {
  if (!Number.isFinite(x)) return Number.isNaN(x) ? x : NaN;
  return Math.min(x - Math.floor(x), 0.99999994);
}
function cvtU32(x: number): number {
  if (Number.isNaN(x)) return 0;
  return x <= 0 ? 0 : x >= 4294967295 ? 4294967295 : Math.trunc(x) >>> 0;
}
function cvtI32(x: number): number {
  if (Number.isNaN(x)) return 0;
  return x <= -2147483648 ? -2147483648 : x >= 2147483647 ? 2147483647 : Math.trunc(x);
}
/**
 * f32 fma: the product of two f32 values is exact in a double, so a*b+c is one double rounding
 * followed by the f32 one; the two can differ from a single rounding only in rare halfway cases.
 */
export function fmaF32(a: number, b: number, c: number): number {
  return Math.fround(a * b + c);
}
/** f64 fma (double rounding is possible in rare cases: documented limitation until a exact fma lands). */
function fma64(a: number, b: number, c: number): number {
  return a * b + c;
}
void TH2;
