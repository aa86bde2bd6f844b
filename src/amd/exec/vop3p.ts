/**
 * GFX11 VOP3P semantics: packed 16-bit math (v_pk_*), the mixed-precision FMAs (v_fma_mix*),
 * dot products (v_dot2/4/8_*) and the wave matrix multiply-accumulates (v_wmma_*), with their
 * DPP16/DPP8 forms where gfx1100 has them (dot2_f32_f16 and the fma_mix ops).
 *
 * Operand modifiers (RDNA3 ISA, VOP3P): each 32-bit source dword holds two 16-bit halves. The
 * low-half operation takes its operand k from the half op_sel[k] selects (0 low, 1 high) and the
 * high-half operation from the half op_sel_hi[k] selects; neg[k] negates the operand of the
 * low-half operation and neg_hi[k] that of the high-half one (float ops only; integer packed
 * ops ignore them). clamp clamps float results to [0, 1] and saturates integer results.
 * v_fma_mix*: op_sel_hi[k] = 0 reads source k as f32, 1 as the f16 half op_sel[k] picks;
 * neg[k] negates and neg_hi[k] is |x| (abs applied first).
 * Inline float constants in 16-bit packed operands are binary16 values in the low half with a
 * zero high half (LLVM only folds a constant into both halves through op_sel_hi = 0); integer
 * constants and literals are the 32-bit value.
 *
 * Float rounding follows MODE (f32 by FP_ROUND[1:0], f16 by FP_ROUND[3:2]) and denormal flushing
 * MODE.FP_DENORM (f32 bits 5:4, f16 bits 7:6); exact results are formed in doubles (TwoSum for
 * the additions) and rounded once.
 *
 * WMMA (RDNA3 ISA "Wave Matrix Multiply-Accumulate"), D = A x B + C, 16x16x16:
 * - A (src0): lane m (0..15) holds row m of A, K packed along its VGPRs (f16/bf16 two per dword,
 *   iu8 four, iu4 eight); lanes 16..31 (and 32..63 in wave64) must hold copies of lanes 0..15.
 * - B (src1): lane n holds column n of B, K packed the same way, same replication.
 * - C/D (src2/vdst): wave32, VGPR v lane l holds element (row 2v + l/16, column l%16) — 8 VGPRs;
 *   wave64 runs as two wave32 halves: VGPR v (0..3) lane l holds the wave32 VGPR v + 4*(l/32)
 *   element of lane l%32 — 4 VGPRs. 16-bit C/D use one half of each VGPR, op_sel[2] choosing
 *   the high half; the other half of D is kept.
 * - iu8/iu4: neg[0]/neg[1] mark A/B as signed (LLVM's neg_lo:[1,1,0]); clamp saturates the i32.
 *   f16/bf16: neg/neg_hi negate the low/high halves of A and B; for C neg[2] negates and
 *   neg_hi[2] takes |C|.
 * - WMMA ignores EXEC (it is never skipped, wave-state seed); EXEC not all ones is unpredictable
 *   per the ISA and diagnosed (gfx11.wmma.exec-not-full), as are A/B rows that differ between
 *   the replicated lane groups (gfx11.wmma.ab-lanes-differ: the model reads lanes 0..15).
 * - The products are exact and summed in a double, then rounded once (RNE) to the result type;
 *   the hardware's internal accumulation order/precision is not modelled bit for bit.
 */
import type { Instruction } from '../isa/types.js';
import type { Vop3pOp } from '../isa/gfx11/vop3p.js';
import type { Wave } from '../wave/wave.js';
import { HWREG, SREG } from '../wave/wave.js';
import { OncePerDispatch, type ExecEnv } from '../engine/env.js';
import { define, type Bound, type Finding } from '../engine/registry.js';
import { diagAt } from './operands.js';
import { T, bindSrc, gather, type Dpp16, type Dpp8, type Src, type ValuOperands } from './valu-core.js';
import { VALID, activeLanes } from './valu.js';
import { EXACT, bf16, bf16bits, f16, f16bits, f32, f32bits, flushF16, flushF32, roundF16, roundF32, twoSum } from '../../core/float.js';

// ---------------------------------------------------------------------------------------------
// MODE fields for the instruction being executed.

const M = { rm32: 0, rm16: 0, fin32: false, fout32: false, fin16: false, fout16: false, ieee: true, dx10: true, clamp: false };

function loadMode(w: Wave, clamp: boolean): void {
  const m = w.hw[HWREG.MODE]!;
  M.rm32 = m & 3;
  M.rm16 = (m >>> 2) & 3;
  const d32 = (m >>> 4) & 3;
  const d16 = (m >>> 6) & 3;
  M.fin32 = (d32 & 1) === 0;
  M.fout32 = (d32 & 2) === 0;
  M.fin16 = (d16 & 1) === 0;
  M.fout16 = (d16 & 2) === 0;
  M.dx10 = ((m >>> 8) & 1) === 1;
  M.ieee = ((m >>> 9) & 1) === 1;
  M.clamp = clamp;
}

const QNAN16 = 0xfe00;
const QNAN32 = 0xffc00000;
const isNan16 = (b: number): boolean => (b & 0x7fff) > 0x7c00;
const isNan32 = (b: number): boolean => (b & 0x7fffffff) > 0x7f800000;
const in16 = (b: number): number => (M.fin16 ? flushF16(b) : b);

/** f16 result bits of the exact value x + e (x not NaN), with MODE rounding, flushing and clamp. */
function out16(x: number, e: number): number {
  let b = roundF16(x, e, M.rm16);
  if (M.fout16) b = flushF16(b);
  if (M.clamp) b = b >>> 15 ? 0 : b > 0x3c00 ? 0x3c00 : b;
  return b;
}
/** f32 result bits of the exact value x + e (x not NaN). */
function out32(x: number, e: number): number {
  let b = roundF32(x, e, M.rm32);
  if (M.fout32) b = flushF32(b);
  if (M.clamp) b = b >>> 31 ? 0 : b > 0x3f800000 ? 0x3f800000 : b;
  return b >>> 0;
}
/** NaN result for f16: the first NaN operand quieted, else the default NaN; clamp(DX10) gives 0. */
function nan16(a: number, b: number, c: number): number {
  if (M.clamp && M.dx10) return 0;
  if (isNan16(a)) return a | 0x200;
  if (isNan16(b)) return b | 0x200;
  if (isNan16(c)) return c | 0x200;
  return QNAN16;
}

// ---------------------------------------------------------------------------------------------
// Operands

/** binary16 values of the float inline constants 240..248. */
const F16_CONST = [0x3800, 0xb800, 0x3c00, 0xbc00, 0x4000, 0xc000, 0x4400, 0xc400, 0x3118];

interface P3 {
  readonly ops: ValuOperands;
  readonly nsrc: number;
  readonly opsel: number;
  /** op_sel_hi with bit 2 from dw0[14]. */
  readonly opselHi: number;
  readonly neg: number;
  readonly negHi: number;
  readonly clamp: boolean;
  readonly vdst: number;
}

function p3(inst: Instruction): P3 {
  const f = inst.fields;
  const op = inst.info as Vop3pOp;
  const g = (k: string): number => f[k] ?? 0;
  let dpp: Dpp16 | Dpp8 | null = null;
  let src0 = g('src0');
  if (f.vsrc0 !== undefined) {
    src0 = 256 + g('vsrc0');
    dpp = f.dpp_ctrl !== undefined
      ? { kind: 'dpp16', ctrl: g('dpp_ctrl'), rowMask: g('row_mask'), bankMask: g('bank_mask'), boundCtrl: g('bound_ctrl') === 1, fi: g('fi') === 1 }
      : { kind: 'dpp8', sel: g('dpp8'), fi: g('fi') === 1 };
  }
  const ops: ValuOperands = {
    src: [src0, g('src1'), g('src2')], vdst: g('vdst'), sdst: -1, abs: 0, neg: 0, opsel: 0, clamp: g('clamp') === 1, omod: 0, dpp, literal: inst.literal,
  };
  return {
    ops, nsrc: op.srcs.length, opsel: g('op_sel'), opselHi: g('op_sel_hi') | (g('op_sel_hi2') << 2), neg: g('neg'), negHi: g('neg_hi'),
    clamp: g('clamp') === 1, vdst: g('vdst'),
  };
}

/** Bind source k as a raw dword; `f16const` makes float inline constants binary16 values. */
function bindP(env: ExecEnv, inst: Instruction, ops: ValuOperands, k: number, f16const: boolean, findings: Finding[]): Src {
  const enc = ops.src[k]!;
  if (f16const && enc >= 240 && enc <= 248) {
    const c = F16_CONST[enc - 240]!;
    return { vgpr: false, base: 0, read: () => c, type: 'b32', abs: false, neg: false, hi: false };
  }
  return bindSrc(env, inst, ops, k, 'b32', findings);
}

function dstCheck(env: ExecEnv, inst: Instruction, vdst: number, n: number, findings: Finding[]): boolean {
  if (vdst + n > env.vgprs) {
    findings.push({ id: 'gfx11.vgpr.dst-out-of-range', message: `${inst.mnemonic}: destination v${vdst} is past the ${env.vgprs} allocated VGPRs; the instruction is ignored (NOP)` });
    return false;
  }
  return true;
}

/** Per-lane kernel: computes lane l's result dword from T[0..2] (and, for mixlo/hi, the old dword). */
type Lane = (l: number) => number;

/** Common binder: gather sources (raw dwords), run `lane` per active lane, write the dword. */
function bindLanes(env: ExecEnv, inst: Instruction, p: P3, f16consts: readonly boolean[], findings: Finding[], make: () => Lane): Bound {
  const srcs: Src[] = [];
  for (let k = 0; k < p.nsrc; k++) srcs.push(bindP(env, inst, p.ops, k, f16consts[k]!, findings));
  const ok = dstCheck(env, inst, p.vdst, 1, findings);
  const ws = env.waveSize;
  const d = p.vdst * ws;
  const n = p.nsrc;
  const dpp = p.ops.dpp;
  const ops = p.ops;
  const clamp = p.clamp;
  const lane = make();
  return {
    cls: 'valu',
    findings,
    run: (w) => {
      w.laneOps += activeLanes(w, ops);
      if (!ok) return;
      loadMode(w, clamp);
      for (let k = 0; k < n; k++) gather(w, srcs[k]!, k as 0 | 1 | 2, dpp, VALID);
      const v = w.v;
      for (let l = 0; l < ws; l++) {
        if (VALID[l] === 0) continue;
        OLD[0] = v[d + l]!;
        v[d + l] = lane(l) >>> 0;
      }
    },
  };
}
/** The destination's previous dword (mixlo/mixhi keep one half). */
const OLD = new Uint32Array(1);

const T0 = T[0], T1 = T[1], T2 = T[2];

// ---------------------------------------------------------------------------------------------
// Packed 16-bit ops

/** Per half: a, b, c are the selected 16-bit operands (after neg for float ops). */
type Half = (a: number, b: number, c: number) => number;

function packed(name: string, nsrc: 2 | 3, float: boolean, fn: Half): void {
  define(name, (inst, env) => {
    const p = p3(inst);
    const findings: Finding[] = [];
    const consts = [true, true, true];
    const sl = [0, 1, 2].map((k) => ((p.opsel >> k) & 1) * 16);
    const sh = [0, 1, 2].map((k) => ((p.opselHi >> k) & 1) * 16);
    const nl = float ? [0, 1, 2].map((k) => ((p.neg >> k) & 1) * 0x8000) : [0, 0, 0];
    const nh = float ? [0, 1, 2].map((k) => ((p.negHi >> k) & 1) * 0x8000) : [0, 0, 0];
    const [sl0, sl1, sl2] = sl as [number, number, number];
    const [sh0, sh1, sh2] = sh as [number, number, number];
    const [nl0, nl1, nl2] = nl as [number, number, number];
    const [nh0, nh1, nh2] = nh as [number, number, number];
    const three = nsrc === 3;
    return bindLanes(env, inst, p, consts, findings, () => (l) => {
      const x = T0[l]!, y = T1[l]!, z = three ? T2[l]! : 0;
      const lo = fn(((x >>> sl0) & 0xffff) ^ nl0, ((y >>> sl1) & 0xffff) ^ nl1, ((z >>> sl2) & 0xffff) ^ nl2);
      const hi = fn(((x >>> sh0) & 0xffff) ^ nh0, ((y >>> sh1) & 0xffff) ^ nh1, ((z >>> sh2) & 0xffff) ^ nh2);
      return ((lo & 0xffff) | ((hi & 0xffff) << 16)) >>> 0;
    });
  });
}

const sx16 = (a: number): number => (a << 16) >> 16;
const satI16 = (x: number): number => (M.clamp ? (x > 32767 ? 32767 : x < -32768 ? -32768 : x) : x) & 0xffff;
const satU16 = (x: number): number => (M.clamp ? (x > 0xffff ? 0xffff : x < 0 ? 0 : x) : x) & 0xffff;

packed('v_pk_mad_i16', 3, false, (a, b, c) => satI16(sx16(a) * sx16(b) + sx16(c)));
packed('v_pk_mad_u16', 3, false, (a, b, c) => satU16(a * b + c));
packed('v_pk_mul_lo_u16', 2, false, (a, b) => Math.imul(a, b) & 0xffff);
packed('v_pk_add_i16', 2, false, (a, b) => satI16(sx16(a) + sx16(b)));
packed('v_pk_sub_i16', 2, false, (a, b) => satI16(sx16(a) - sx16(b)));
packed('v_pk_add_u16', 2, false, (a, b) => satU16(a + b));
packed('v_pk_sub_u16', 2, false, (a, b) => satU16(a - b));
packed('v_pk_lshlrev_b16', 2, false, (a, b) => (b << (a & 15)) & 0xffff);
packed('v_pk_lshrrev_b16', 2, false, (a, b) => b >>> (a & 15));
packed('v_pk_ashrrev_i16', 2, false, (a, b) => (sx16(b) >> (a & 15)) & 0xffff);
packed('v_pk_max_i16', 2, false, (a, b) => (sx16(a) >= sx16(b) ? a : b));
packed('v_pk_min_i16', 2, false, (a, b) => (sx16(a) <= sx16(b) ? a : b));
packed('v_pk_max_u16', 2, false, (a, b) => (a >= b ? a : b));
packed('v_pk_min_u16', 2, false, (a, b) => (a <= b ? a : b));

packed('v_pk_fma_f16', 3, true, (a, b, c) => {
  a = in16(a), b = in16(b), c = in16(c);
  const p = f16(a) * f16(b); // exact: 11x11-bit significands
  const s = twoSum(p, f16(c));
  return s !== s ? nan16(a, b, c) : out16(s, EXACT[0]!);
});
packed('v_pk_add_f16', 2, true, (a, b) => {
  a = in16(a), b = in16(b);
  const s = f16(a) + f16(b); // exact in a double
  return s !== s ? nan16(a, b, 0) : out16(s, 0);
});
packed('v_pk_mul_f16', 2, true, (a, b) => {
  a = in16(a), b = in16(b);
  const s = f16(a) * f16(b);
  return s !== s ? nan16(a, b, 0) : out16(s, 0);
});
const isSnan16 = (b: number): boolean => (b & 0x7e00) === 0x7c00 && (b & 0x1ff) !== 0;
/**
 * minNum/maxNum as v_min_f16/v_max_f16: under MODE.IEEE an sNaN operand gives that operand quieted
 * (src0's first); otherwise a NaN operand yields the other one; -0 < +0; denormal outputs pass through.
 */
function minmax16(a: number, b: number, max: boolean): number {
  a = in16(a), b = in16(b);
  const an = isNan16(a), bn = isNan16(b);
  let r: number;
  if (M.ieee && (isSnan16(a) || isSnan16(b))) r = (isSnan16(a) ? a : b) | 0x200;
  else if (an && bn) r = a | 0x200;
  else if (an) r = b;
  else if (bn) r = a;
  else {
    const x = f16(a), y = f16(b);
    if (x === y) r = max ? (a & 0x8000 ? b : a) : (a & 0x8000 ? a : b);
    else r = (x > y) === max ? a : b;
  }
  if (M.clamp) r = isNan16(r) ? (M.dx10 ? 0 : r) : r >>> 15 ? 0 : r > 0x3c00 ? 0x3c00 : r;
  return r;
}
packed('v_pk_max_f16', 2, true, (a, b) => minmax16(a, b, true));
packed('v_pk_min_f16', 2, true, (a, b) => minmax16(a, b, false));

// ---------------------------------------------------------------------------------------------
// Dot products

/** v_dot2_f32_f16 / v_dot2_f32_bf16: D.f32 = S0.lo*S1.lo + S0.hi*S1.hi + S2.f32. */
function dot2f32(name: string, bf: boolean): void {
  define(name, (inst, env) => {
    const p = p3(inst);
    const findings: Finding[] = [];
    const sl0 = (p.opsel & 1) * 16, sl1 = ((p.opsel >> 1) & 1) * 16;
    const sh0 = (p.opselHi & 1) * 16, sh1 = ((p.opselHi >> 1) & 1) * 16;
    const nl0 = (p.neg & 1) * 0x8000, nl1 = ((p.neg >> 1) & 1) * 0x8000;
    const nh0 = (p.negHi & 1) * 0x8000, nh1 = ((p.negHi >> 1) & 1) * 0x8000;
    const negC = ((p.neg >> 2) & 1) === 1;
    const absC = ((p.negHi >> 2) & 1) === 1;
    const cv = bf ? bf16 : f16;
    const fl = bf ? (x: number) => x : in16;
    return bindLanes(env, inst, p, [!bf, !bf, false], findings, () => (l) => {
      const x = T0[l]!, y = T1[l]!;
      const a0 = fl(((x >>> sl0) & 0xffff) ^ nl0), b0 = fl(((y >>> sl1) & 0xffff) ^ nl1);
      const a1 = fl(((x >>> sh0) & 0xffff) ^ nh0), b1 = fl(((y >>> sh1) & 0xffff) ^ nh1);
      let cb = T2[l]!;
      if (M.fin32) cb = flushF32(cb);
      if (absC) cb &= 0x7fffffff;
      if (negC) cb ^= 0x80000000;
      const p0 = cv(a0) * cv(b0), p1 = cv(a1) * cv(b1);
      const s1 = twoSum(p0, p1);
      const e1 = EXACT[0]!;
      const s = twoSum(s1, f32(cb >>> 0));
      if (s !== s) {
        if (M.clamp && M.dx10) return 0;
        if (isNan32(cb >>> 0)) return (cb | 0x400000) >>> 0;
        return QNAN32;
      }
      return out32(s, EXACT[0]! + e1);
    });
  });
}
dot2f32('v_dot2_f32_f16', false);
dot2f32('v_dot2_f32_bf16', true);

/**
 * Integer dots: `bits` per element (16, 8 or 4); signed A/B from neg[0]/neg[1] (iu variants), or
 * both signed (`signed`: GFX10.3's v_dot2_i32_i16 / v_dot4_i32_i8 / v_dot8_i32_i4, i32 accumulator
 * and signed saturation like the iu forms).
 */
function dotInt(name: string, bits: 16 | 8 | 4, iu: boolean, signed = false): void {
  define(name, (inst, env) => {
    const p = p3(inst);
    const findings: Finding[] = [];
    const sa = signed || (iu && (p.neg & 1) === 1);
    const sb = signed || (iu && ((p.neg >> 1) & 1) === 1);
    const n = 32 / bits;
    const mask = (1 << bits) - 1;
    const sh = 32 - bits;
    return bindLanes(env, inst, p, [false, false, false], findings, () => (l) => {
      const x = T0[l]!, y = T1[l]!;
      let s = iu || signed ? T2[l]! | 0 : T2[l]! >>> 0;
      for (let i = 0; i < n; i++) {
        const a = sa ? ((x >>> (i * bits)) << sh) >> sh : (x >>> (i * bits)) & mask;
        const b = sb ? ((y >>> (i * bits)) << sh) >> sh : (y >>> (i * bits)) & mask;
        s += a * b;
      }
      if (M.clamp) {
        if (iu || signed) s = s > 2147483647 ? 2147483647 : s < -2147483648 ? -2147483648 : s;
        else s = s > 0xffffffff ? 0xffffffff : s;
      }
      return s >>> 0;
    });
  });
}
dotInt('v_dot4_i32_iu8', 8, true);
dotInt('v_dot4_u32_u8', 8, false);
dotInt('v_dot8_i32_iu4', 4, true);
dotInt('v_dot8_u32_u4', 4, false);
// GFX10.3 only (GFX11 replaced the signed ones by the iu forms).
dotInt('v_dot2_i32_i16', 16, false, true);
dotInt('v_dot2_u32_u16', 16, false);
dotInt('v_dot4_i32_i8', 8, false, true);
dotInt('v_dot8_i32_i4', 4, false, true);

// ---------------------------------------------------------------------------------------------
// v_fma_mix_f32 / v_fma_mixlo_f16 / v_fma_mixhi_f16 (and GFX9's unfused v_mad_mix_*)

/** Operand values of the current lane (f32/f16 sources converted exactly). */
const MIXV = new Float64Array(3);
const MIXB = new Uint32Array(3);

const TINY32 = 2 ** -126;
const ftz32 = (x: number): number => (x !== 0 && Math.abs(x) < TINY32 ? (x < 0 ? -0 : 0) : x);

/**
 * `fused` false: GFX9's v_mad_mix_* (LLVM selects them for `fmad`, only with f32 denormals
 * flushed): like v_mad_f32, the operands and the product flush to zero and the product is rounded
 * to f32 in the current mode before the add.
 */
function mix(name: string, out: 'f32' | 'lo' | 'hi', fused = true): void {
  define(name, (inst, env) => {
    const p = p3(inst);
    const findings: Finding[] = [];
    const isF16 = [0, 1, 2].map((k) => ((p.opselHi >> k) & 1) === 1);
    const hi = [0, 1, 2].map((k) => ((p.opsel >> k) & 1) * 16);
    const neg = [0, 1, 2].map((k) => ((p.neg >> k) & 1) === 1);
    const abs = [0, 1, 2].map((k) => ((p.negHi >> k) & 1) === 1);
    // op_sel[2] of mixlo/mixhi... the destination half is fixed by the opcode.
    return bindLanes(env, inst, p, isF16, findings, () => (l) => {
      let nan = false;
      for (let k = 0; k < 3; k++) {
        const raw = T[k as 0 | 1 | 2][l]!;
        if (isF16[k]) {
          let b = in16((raw >>> hi[k]!) & 0xffff);
          if (abs[k]) b &= 0x7fff;
          if (neg[k]) b ^= 0x8000;
          MIXB[k] = b;
          if (isNan16(b)) {
            nan = true;
            // quiet and widen the payload into an f32 NaN
            MIXB[k] = (((b & 0x8000) << 16) | 0x7fc00000 | ((b & 0x3ff) << 13)) >>> 0;
          } else MIXB[k] = f32bits(f16(b));
          MIXV[k] = f16(b);
        } else {
          let b = M.fin32 ? flushF32(raw) : raw;
          if (abs[k]) b &= 0x7fffffff;
          if (neg[k]) b ^= 0x80000000;
          MIXB[k] = b >>> 0;
          if (isNan32(b >>> 0)) nan = true;
          MIXV[k] = f32(b >>> 0);
        }
      }
      // exact: at most 24x24 bits
      const prod = fused ? MIXV[0]! * MIXV[1]! : ftz32(f32(roundF32(ftz32(MIXV[0]!) * ftz32(MIXV[1]!), 0, M.rm32)));
      const s = twoSum(prod, fused ? MIXV[2]! : ftz32(MIXV[2]!));
      const e = EXACT[0]!;
      if (out === 'f32') {
        if (s === s) return out32(s, e);
        if (M.clamp && M.dx10) return 0;
        if (nan) for (let k = 0; k < 3; k++) if (isNan32(MIXB[k]!)) return (MIXB[k]! | 0x400000) >>> 0;
        return QNAN32;
      }
      let r: number;
      if (s === s) r = out16(s, e);
      else if (M.clamp && M.dx10) r = 0;
      else {
        r = QNAN16;
        if (nan) for (let k = 0; k < 3; k++) if (isNan32(MIXB[k]!)) { r = ((MIXB[k]! >>> 16) & 0x8000) | 0x7e00 | ((MIXB[k]! >>> 13) & 0x3ff); break; }
      }
      const old = OLD[0]!;
      return out === 'lo' ? ((old & 0xffff0000) | r) >>> 0 : ((old & 0xffff) | (r << 16)) >>> 0;
    });
  });
}
mix('v_fma_mix_f32', 'f32');
mix('v_fma_mixlo_f16', 'lo');
mix('v_fma_mixhi_f16', 'hi');
mix('v_mad_mix_f32', 'f32', false);
mix('v_mad_mixlo_f16', 'lo', false);
mix('v_mad_mixhi_f16', 'hi', false);

// ---------------------------------------------------------------------------------------------
// WMMA

type WType = 'f16' | 'bf16' | 'iu8' | 'iu4';
type DType = 'f32' | 'f16' | 'bf16' | 'i32';

const WA = new Float64Array(256); // A[m*16 + k]
const WB = new Float64Array(256); // B[k*16 + n]
const WC = new Float64Array(256); // C[m*16 + n]
const WD = new Uint32Array(256);

/** Lane and VGPR offset of C/D element (m, n), as lane + reg*ws (relative to the first VGPR). */
export function wmmaCdSlot(m: number, n: number, ws: 32 | 64): { lane: number; reg: number } {
  const vv = m >> 1; // wave32 VGPR index 0..7
  if (ws === 32) return { lane: n + 16 * (m & 1), reg: vv };
  return { lane: n + 16 * (m & 1) + 32 * (vv >> 2), reg: vv & 3 };
}

function wmma(name: string, ab: WType, dt: DType): void {
  define(name, (inst, env) => {
    const p = p3(inst);
    const findings: Finding[] = [];
    const ws = env.waveSize;
    const op = inst.info as Vop3pOp;
    const perDword = ab === 'iu4' ? 8 : ab === 'iu8' ? 4 : 2;
    const abRegs = 16 / perDword;
    void op;
    const dRegs = ws === 32 ? 8 : 4;
    const ok = dstCheck(env, inst, p.vdst, dRegs, findings);
    // Source VGPR rows; an out-of-range VGPR reads VGPR0 (wave-state seed), diagnosed once.
    const rows = (enc: number, n: number, what: string): number[] => {
      const out: number[] = [];
      for (let i = 0; i < n; i++) {
        let r = enc - 256 + i;
        if (r >= env.vgprs) {
          if (i === 0 || enc - 256 + i === env.vgprs) findings.push({ id: 'gfx11.vgpr.src-out-of-range', message: `${inst.mnemonic}: ${what} v${r} is past the ${env.vgprs} allocated VGPRs; the hardware reads VGPR0` });
          r = 0;
        }
        out.push(r * ws);
      }
      return out;
    };
    const aRows = rows(p.ops.src[0]!, abRegs, 'A');
    const bRows = rows(p.ops.src[1]!, abRegs, 'B');
    const cEnc = p.ops.src[2]!;
    const cVgpr = cEnc >= 256;
    const cRows = cVgpr ? rows(cEnc, dRegs, 'C') : [];
    const cRead = cVgpr ? null : bindSrc(env, inst, p.ops, 2, dt === 'f16' ? 'f16' : 'b32', findings).read;
    const signedA = (p.neg & 1) === 1;
    const signedB = ((p.neg >> 1) & 1) === 1;
    const float = ab === 'f16' || ab === 'bf16';
    const negLoA = float && (p.neg & 1) === 1, negHiA = float && (p.negHi & 1) === 1;
    const negLoB = float && ((p.neg >> 1) & 1) === 1, negHiB = float && ((p.negHi >> 1) & 1) === 1;
    const negC = dt !== 'i32' && ((p.neg >> 2) & 1) === 1;
    const absC = dt !== 'i32' && ((p.negHi >> 2) & 1) === 1;
    const half16 = dt === 'f16' || dt === 'bf16';
    const hiHalf = half16 && ((p.opsel >> 2) & 1) === 1;
    const clamp = p.clamp;
    const dBase = p.vdst * ws;
    // Element (m|n, k) of A or B from a row set: the value of lane `lane`.
    const elem = (v: Uint32Array, rs: number[], lane: number, k: number, signed: boolean, negLo: boolean, negHi: boolean): number => {
      const dw = v[rs[(k / perDword) | 0]! + lane]!;
      const i = k % perDword;
      if (ab === 'iu8') return signed ? ((dw >>> (i * 8)) << 24) >> 24 : (dw >>> (i * 8)) & 0xff;
      if (ab === 'iu4') return signed ? ((dw >>> (i * 4)) << 28) >> 28 : (dw >>> (i * 4)) & 0xf;
      let h = i === 0 ? dw & 0xffff : dw >>> 16;
      if (i === 0 ? negLo : negHi) h ^= 0x8000;
      return ab === 'bf16' ? bf16(h) : f16(h);
    };
    const warnExec = new OncePerDispatch(env);
    const warnRep = new OncePerDispatch(env);
    return {
      cls: 'valu',
      findings,
      run: (w) => {
        w.laneOps += ws;
        const pc = w.pc - inst.size;
        if (warnExec.due && (w.s[SREG.EXEC_LO] !== 0xffffffff || (ws === 64 && w.s[SREG.EXEC_HI] !== 0xffffffff))) {
          warnExec.fire();
          diagAt(env, w, pc, 'gfx11.wmma.exec-not-full', `${inst.mnemonic} with EXEC not all ones: the ISA makes the result unpredictable; gpusim computes every lane`);
        }
        if (!ok) return;
        const v = w.v;
        if (warnRep.due) {
          for (let r = 0; r < abRegs && warnRep.due; r++) {
            for (let l = 16; l < ws; l++) {
              if (v[aRows[r]! + l] !== v[aRows[r]! + (l & 15)] || v[bRows[r]! + l] !== v[bRows[r]! + (l & 15)]) {
                warnRep.fire();
                diagAt(env, w, pc, 'gfx11.wmma.ab-lanes-differ', `${inst.mnemonic}: A/B lane ${l} differs from lane ${l & 15}; the ISA requires every 16-lane group to hold the same rows/columns (gpusim reads lanes 0..15)`);
                break;
              }
            }
          }
        }
        for (let m = 0; m < 16; m++) for (let k = 0; k < 16; k++) WA[m * 16 + k] = elem(v, aRows, m, k, signedA, negLoA, negHiA);
        for (let n = 0; n < 16; n++) for (let k = 0; k < 16; k++) WB[k * 16 + n] = elem(v, bRows, n, k, signedB, negLoB, negHiB);
        const cConst = cRead ? cRead(w) >>> 0 : 0;
        for (let m = 0; m < 16; m++) {
          for (let n = 0; n < 16; n++) {
            let bits: number;
            if (cVgpr) {
              const vv = m >> 1;
              const lane = ws === 32 ? n + 16 * (m & 1) : n + 16 * (m & 1) + 32 * (vv >> 2);
              const reg = ws === 32 ? vv : vv & 3;
              const dw = v[cRows[reg]! + lane]!;
              bits = half16 ? (hiHalf ? dw >>> 16 : dw & 0xffff) : dw;
            } else bits = dt === 'bf16' ? (cConst >>> 16) & 0xffff : cConst;
            let c: number;
            if (dt === 'i32') c = bits | 0;
            else if (dt === 'f32') {
              if (absC) bits &= 0x7fffffff;
              if (negC) bits ^= 0x80000000;
              c = f32(bits >>> 0);
            } else {
              if (absC) bits &= 0x7fff;
              if (negC) bits ^= 0x8000;
              c = dt === 'bf16' ? bf16(bits) : f16(bits);
            }
            WC[m * 16 + n] = c;
          }
        }
        for (let m = 0; m < 16; m++) {
          for (let n = 0; n < 16; n++) {
            let s = WC[m * 16 + n]!;
            for (let k = 0; k < 16; k++) s += WA[m * 16 + k]! * WB[k * 16 + n]!;
            let r: number;
            if (dt === 'i32') {
              if (clamp) s = s > 2147483647 ? 2147483647 : s < -2147483648 ? -2147483648 : s;
              r = s >>> 0; // modulo 2^32 (the sum is an exact integer)
            } else if (dt === 'f32') r = f32bits(s);
            else if (dt === 'f16') r = f16bits(s);
            else r = bf16bits(s);
            WD[m * 16 + n] = r >>> 0;
          }
        }
        for (let m = 0; m < 16; m++) {
          for (let n = 0; n < 16; n++) {
            const vv = m >> 1;
            const lane = ws === 32 ? n + 16 * (m & 1) : n + 16 * (m & 1) + 32 * (vv >> 2);
            const reg = ws === 32 ? vv : vv & 3;
            const at = dBase + reg * ws + lane;
            const r = WD[m * 16 + n]!;
            if (half16) v[at] = hiHalf ? ((v[at]! & 0xffff) | (r << 16)) >>> 0 : ((v[at]! & 0xffff0000) | r) >>> 0;
            else v[at] = r;
          }
        }
      },
    };
  });
}
wmma('v_wmma_f32_16x16x16_f16', 'f16', 'f32');
wmma('v_wmma_f32_16x16x16_bf16', 'bf16', 'f32');
wmma('v_wmma_f16_16x16x16_f16', 'f16', 'f16');
wmma('v_wmma_bf16_16x16x16_bf16', 'bf16', 'bf16');
wmma('v_wmma_i32_16x16x16_iu8', 'iu8', 'i32');
wmma('v_wmma_i32_16x16x16_iu4', 'iu4', 'i32');
