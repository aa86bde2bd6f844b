/**
 * The VALU execution core shared by every vector ALU op: operand normalisation across encodings
 * (VOP1/VOP2/VOPC/VOP3/VOP3SD and their DPP16/DPP8 forms), the gather of each source into a
 * per-lane scratch row (VGPR row, broadcast scalar/inline/literal, DPP lane permutation, abs/neg
 * modifiers on the operand type's sign bit, op_sel half selection), and the write-back rules
 * (EXEC, DPP row/bank masks, out-of-range VGPRs). Op families (valu.ts and friends) supply only
 * the per-lane arithmetic.
 *
 * VGPR out-of-range (wave-state seed): a source VGPR past the allocation reads VGPR0; a
 * destination past it turns the instruction into a NOP; an instruction with several destinations
 * (VGPR + SGPR) writes nothing if any is out of range.
 */
import type { Instruction } from '../isa/types.js';
import type { Wave } from '../wave/wave.js';
import { SREG } from '../wave/wave.js';
import type { ExecEnv } from '../engine/env.js';
import { HI, sread32, sread64 } from './operands.js';
import type { Finding } from '../engine/registry.js';

/** Per-lane scratch rows (max wave64). `T[k]` low dwords of source k, `TH[k]` high dwords. */
export const T = [new Uint32Array(64), new Uint32Array(64), new Uint32Array(64)] as const;
export const TH = [new Uint32Array(64), new Uint32Array(64), new Uint32Array(64)] as const;
export const TF = [new Float32Array(T[0].buffer), new Float32Array(T[1].buffer), new Float32Array(T[2].buffer)] as const;
/** Result row (low dwords) and high dwords for 64-bit results. */
export const R = new Uint32Array(64);
export const RH = new Uint32Array(64);
export const RF = new Float32Array(R.buffer);

export type OpType = 'b16' | 'f16' | 'b32' | 'f32' | 'b64' | 'f64';

export interface Dpp16 {
  readonly kind: 'dpp16';
  readonly ctrl: number;
  readonly rowMask: number;
  readonly bankMask: number;
  readonly boundCtrl: boolean;
  readonly fi: boolean;
  /** GFX9's wave-wide controls (wave_shl/rol/shr/ror:1, row_bcast:15/31) are meaningful (reserved later). */
  readonly gfx9?: boolean;
}
export interface Dpp8 {
  readonly kind: 'dpp8';
  readonly sel: number;
  readonly fi: boolean;
}

/** An instruction's operands, whatever its encoding. */
export interface ValuOperands {
  /** 9-bit source encodings (VGPRs 256+); -1 when the encoding has no such source. */
  readonly src: readonly [number, number, number];
  readonly vdst: number;
  /** Scalar destination (VOP3SD sdst, VOP3 compare sdst), -1 when none. */
  readonly sdst: number;
  readonly abs: number;
  readonly neg: number;
  readonly opsel: number;
  readonly clamp: boolean;
  readonly omod: number;
  readonly dpp: Dpp16 | Dpp8 | null;
  readonly literal: number | undefined;
  /** GFX9/GFX10 SDWA source selects per source (`sel | sext << 3`, see sdwaSelect), absent otherwise. */
  readonly sel?: readonly [number, number, number];
}

export function valuOperands(inst: Instruction): ValuOperands {
  const f = inst.fields;
  const g = (k: string, d = 0) => f[k] ?? d;
  const dpp16 = f.dpp_ctrl !== undefined;
  const dpp8 = f.sel !== undefined && f.dsrc0 !== undefined;
  const enc = inst.encoding;
  let src0 = dpp16 || dpp8 ? 256 + g('dsrc0') : g('src0', -1);
  const src1 = enc === 'VOP2' || enc === 'VOPC' ? 256 + g('vsrc1') : g('src1', -1);
  const src2 = g('src2', -1);
  let abs = g('abs');
  let neg = g('neg');
  if (dpp16 && enc !== 'VOP3' && enc !== 'VOP3SD') {
    abs |= g('dabs0') | (g('dabs1') << 1);
    neg |= g('dneg0') | (g('dneg1') << 1);
  }
  if (src0 === -1) src0 = -1;
  const dpp: Dpp16 | Dpp8 | null = dpp16
    ? { kind: 'dpp16', ctrl: g('dpp_ctrl'), rowMask: g('row_mask'), bankMask: g('bank_mask'), boundCtrl: g('bound_ctrl') === 1, fi: g('fi') === 1, ...(f.dpp_gfx9 ? { gfx9: true } : {}) }
    : dpp8
      ? { kind: 'dpp8', sel: g('sel'), fi: (inst.words[0]! & 0x1ff) === 234 }
      : null;
  return {
    src: [src0, src1, src2], vdst: g('vdst', -1), sdst: f.sdst ?? -1, abs, neg, opsel: g('opsel'),
    clamp: g('clamp') === 1, omod: g('omod'), dpp, literal: inst.literal,
    ...(f.src0_sel !== undefined ? { sel: [g('src0_sel') | (g('src0_sext') << 3), g('src1_sel', 6) | (g('src1_sext') << 3), 6] as const } : {}),
  };
}

/** A bound source operand: a VGPR row or a uniform value. */
export interface Src {
  readonly vgpr: boolean;
  /** Row offset in w.v of the (first) VGPR: reg * waveSize (VGPR0 when out of range). */
  readonly base: number;
  readonly read: (w: Wave) => number;
  readonly type: OpType;
  /** abs / neg modifiers for this source. */
  readonly abs: boolean;
  readonly neg: boolean;
  /** op_sel: take the high 16 bits (16-bit operands). */
  readonly hi: boolean;
  /** SDWA select of the source dword (`sel | sext << 3`), when not a plain DWORD. */
  readonly sel?: number;
}

/**
 * SDWA source select: BYTE_0..3 (0..3), WORD_0/1 (4/5) of each lane's dword, zero- or (sext, bit 3)
 * sign-extended to 32 bits; DWORD (6) as is.
 */
export function sdwaSelect(t: Uint32Array, n: number, code: number): void {
  const sel = code & 7;
  if (sel === 6) return;
  const size = sel < 4 ? 8 : 16;
  const shift = sel < 4 ? sel * 8 : (sel - 4) * 16;
  const up = 32 - size;
  if (code & 8) for (let l = 0; l < n; l++) t[l] = ((t[l]! << (up - shift)) >> up) >>> 0;
  else for (let l = 0; l < n; l++) t[l] = (t[l]! << (up - shift)) >>> up;
}

/**
 * abs/neg act on the operand's sign bit. They are float modifiers, but the hardware applies them
 * to untyped moves too (v_mov_b32 -v1, v_cndmask_b32 with -|x|), so bit types get them as well.
 */
const SIGN: Record<OpType, number> = { b16: 0x8000, f16: 0x8000, b32: 0x80000000, f32: 0x80000000, b64: 0x80000000, f64: 0x80000000 };

/** binary16 values of the float inline constants 240..248 (0.5, -0.5, 1, -1, 2, -2, 4, -4, 1/(2*pi)). */
const F16_CONST = [0x3800, 0xb800, 0x3c00, 0xbc00, 0x4000, 0xc000, 0x4400, 0xc400, 0x3118];

/** Whether `type` is a 16-bit operand type. */
export function is16(type: OpType): boolean {
  return type === 'b16' || type === 'f16';
}

/**
 * Bind source `k` of the given type. Diagnoses an out-of-range source VGPR (reads VGPR0).
 * 16-bit operands: in VOP1/VOP2/VOPC (and their DPP forms) bit 7 of a VGPR number selects the
 * high half (GFX11 true16: v0.l..v127.h); in VOP3 the op_sel bit of the source does. 16-bit
 * operands see float inline constants as binary16 values and a literal's low half.
 */
export function bindSrc(env: ExecEnv, inst: Instruction, ops: ValuOperands, k: number, type: OpType, findings: Finding[]): Src {
  const ws = env.waveSize;
  const vgprs = env.vgprs;
  const enc = ops.src[k]!;
  const wide = type === 'b64' || type === 'f64';
  const abs = ((ops.abs >> k) & 1) === 1;
  const neg = ((ops.neg >> k) & 1) === 1;
  const vop3 = inst.encoding === 'VOP3' || inst.encoding === 'VOP3SD';
  // op_sel only selects halves of 16-bit operands (v_dot2_f16_f16 ignores it on its packed sources)
  let hi = vop3 && is16(type) && ((ops.opsel >> k) & 1) === 1;
  const sc = ops.sel?.[k] ?? 6;
  const sel = sc === 6 || sc === 14 ? {} : { sel: sc };
  if (enc >= 256) {
    let r = enc - 256;
    if (is16(type) && (inst.encoding === 'VOP1' || inst.encoding === 'VOP2' || inst.encoding === 'VOPC')) {
      hi = (r & 0x80) !== 0;
      r &= 0x7f;
    }
    if (r + (wide ? 1 : 0) >= vgprs) {
      findings.push({ id: 'gfx11.vgpr.src-out-of-range', message: `${inst.mnemonic}: source v${r} is past the ${vgprs} allocated VGPRs; the hardware reads VGPR0` });
      r = 0;
    }
    return { vgpr: true, base: r * ws, read: () => 0, type, abs, neg, hi, ...sel };
  }
  if (is16(type)) {
    if (enc >= 240 && enc <= 248) {
      const c = F16_CONST[enc - 240]!;
      return { vgpr: false, base: 0, read: () => c, type, abs, neg, hi: false, ...sel };
    }
    if (enc === 255) {
      const lit = (ops.literal ?? 0) & 0xffff;
      return { vgpr: false, base: 0, read: () => lit, type, abs, neg, hi: false, ...sel };
    }
  }
  if (wide) sgprPairAlign(inst, enc, `source ${k}`, findings);
  const read = wide ? sread64(enc, ops.literal, type === 'f64') : sread32(enc, ops.literal);
  return { vgpr: false, base: 0, read, type, abs, neg, hi, ...sel };
}

/**
 * A 64-bit SGPR operand of a VALU op (64-bit source, wave64 lane mask) must be even-aligned; the
 * hardware ignores the LSB (wave-state seed: unpredictable). Reported at bind time.
 */
export function sgprPairAlign(inst: Instruction, enc: number, what: string, findings: Finding[]): void {
  if (enc >= 0 && enc < SREG.NULL && (enc & 1) === 1) {
    findings.push({ id: 'gfx11.sgpr.misaligned', message: `${inst.mnemonic}: ${what} s${enc} of a 64-bit operand is odd; the hardware ignores the LSB and uses s${enc - 1} (unpredictable per the ISA)` });
  }
}

/** Active-lane test. */
export function laneActive(execLo: number, execHi: number, lane: number): boolean {
  return lane < 32 ? ((execLo >>> lane) & 1) === 1 : ((execHi >>> (lane - 32)) & 1) === 1;
}

/** DPP16 source lane for `lane`, or -1 when the source is out of the row (invalid). */
export function dpp16Lane(ctrl: number, lane: number, ws: number, gfx9 = false): number {
  const row = lane & ~15;
  const l = lane & 15;
  if (ctrl <= 0xff) return (lane & ~3) | ((ctrl >> ((lane & 3) * 2)) & 3); // quad_perm
  if (ctrl >= 0x101 && ctrl <= 0x10f) { const s = l + (ctrl - 0x100); return s < 16 ? row + s : -1; } // row_shl
  if (ctrl >= 0x111 && ctrl <= 0x11f) { const s = l - (ctrl - 0x110); return s >= 0 ? row + s : -1; } // row_shr
  if (ctrl >= 0x121 && ctrl <= 0x12f) return row + ((l - (ctrl - 0x120)) & 15); // row_ror
  if (ctrl === 0x140) return row + (15 - l); // row_mirror
  if (ctrl === 0x141) return row + ((l & 8) | (7 - (l & 7))); // row_half_mirror
  if (ctrl >= 0x150 && ctrl <= 0x15f) return row + (ctrl - 0x150); // row_share
  if (ctrl >= 0x160 && ctrl <= 0x16f) return row + (l ^ (ctrl - 0x160)); // row_xmask
  if (gfx9) {
    // GFX9 ISA, DPP_CTRL: whole-wave shifts/rotates by one lane, and broadcasts of a row's last lane.
    if (ctrl === 0x130) return lane + 1 < ws ? lane + 1 : -1; // wave_shl:1
    if (ctrl === 0x134) return (lane + 1) % ws; // wave_rol:1
    if (ctrl === 0x138) return lane > 0 ? lane - 1 : -1; // wave_shr:1
    if (ctrl === 0x13c) return (lane + ws - 1) % ws; // wave_ror:1
    if (ctrl === 0x142) return row > 0 ? row - 1 : -1; // row_bcast:15: lane 15 of the row before
    if (ctrl === 0x143) return lane >= 32 ? 31 : -1; // row_bcast:31: lane 31 to rows 2 and 3
  }
  return -1;
}

/**
 * Gather source `s` into T[k]/TH[k] for every lane (inactive lanes too: cheap and branch-free),
 * applying DPP (src0 only), abs/neg and op_sel. Returns false lanes' validity through `valid`
 * (DPP lanes whose source is invalid and bound_ctrl is 0 are not written).
 */
export function gather(w: Wave, s: Src, k: 0 | 1 | 2, dpp: Dpp16 | Dpp8 | null, valid: Uint8Array): void {
  const ws = w.waveSize;
  const t = T[k];
  const th = TH[k];
  const wide = s.type === 'b64' || s.type === 'f64';
  if (s.vgpr) {
    const v = w.v;
    const b = s.base;
    if (dpp && k === 0) {
      const el = w.s[SREG.EXEC_LO]!;
      const eh = ws === 64 ? w.s[SREG.EXEC_HI]! : 0;
      for (let l = 0; l < ws; l++) {
        let sl = dpp.kind === 'dpp16' ? dpp16Lane(dpp.ctrl, l, ws, dpp.gfx9) : (l & ~7) | ((dpp.sel >>> ((l & 7) * 3)) & 7);
        if (sl >= ws) sl = -1;
        if (sl >= 0 && !dpp.fi && !laneActive(el, eh, sl)) sl = -1;
        if (sl < 0) {
          // DPP16: an invalid source (off the row, or inactive without FI) reads 0 under
          // BOUND_CTRL, else the lane is not written. DPP8 (never off its group) reads 0 from an
          // inactive lane without FI.
          if (dpp.kind === 'dpp8' || dpp.boundCtrl) {
            t[l] = 0;
            th[l] = 0;
          } else valid[l] = 0;
          continue;
        }
        t[l] = v[b + sl]!;
        if (wide) th[l] = v[b + ws + sl]!;
      }
    } else {
      for (let l = 0; l < ws; l++) t[l] = v[b + l]!;
      if (wide) for (let l = 0; l < ws; l++) th[l] = v[b + ws + l]!;
    }
  } else {
    const lo = s.read(w);
    t.fill(lo, 0, ws);
    if (wide) th.fill(HI[0]!, 0, ws);
  }
  if (s.sel !== undefined) sdwaSelect(t, ws, s.sel);
  if (s.hi) for (let l = 0; l < ws; l++) t[l] = t[l]! >>> 16;
  else if (s.type === 'b16' || s.type === 'f16') for (let l = 0; l < ws; l++) t[l] = t[l]! & 0xffff;
  const sign = SIGN[s.type];
  if (sign !== 0 && (s.abs || s.neg)) {
    const row = wide ? th : t;
    if (s.abs) for (let l = 0; l < ws; l++) row[l] = (row[l]! & ~sign) >>> 0;
    if (s.neg) for (let l = 0; l < ws; l++) row[l] = (row[l]! ^ sign) >>> 0;
  }
}

/** DPP16 row/bank write masks: lanes in a disabled row or bank are not written. */
export function dppWriteMask(dpp: Dpp16 | Dpp8 | null, valid: Uint8Array, ws: number): void {
  if (!dpp || dpp.kind !== 'dpp16') return;
  for (let l = 0; l < ws; l++) {
    if (((dpp.rowMask >> (l >> 4)) & 1) === 0 || ((dpp.bankMask >> ((l >> 2) & 3)) & 1) === 0) valid[l] = 0;
  }
}
