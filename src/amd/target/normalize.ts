/**
 * GFX9 (gfx900) and GFX10.3 (gfx1030) execution: each decoded instruction is normalised once, at
 * bind time, into the GFX11 instruction the semantics table knows, so the wave keeps one register
 * layout (wave.ts, GFX11 numbering) and the hot path does no per-read translation.
 *
 * What is translated (facts from LLVM's AMDGPU operand tables and the older ISA guides):
 * - Scalar operand numbers. GFX10.3: M0 = 124, NULL = 125; GFX9: M0 = 124 and no NULL (125 is
 *   reserved; treated as NULL: reads 0, writes dropped); GFX11 swaps them (NULL 124, M0 125). Every
 *   field the generated opcode table marks scalar ('s'/'src' VALU operands; 'sreg'/'ssrc'/
 *   'smemoff' scalar operands) is mapped. GFX9's FLAT_SCRATCH (102/103) and XNACK_MASK (104/105)
 *   stay SGPR slots 102..105 of the GFX11 layout; VCC 106, TTMP 108..123, EXEC 126, the inline
 *   constants and src_* apertures 235..239, VCCZ/EXECZ/SCC 251..253 are the same numbers.
 *   GFX9 FLAT/GLOBAL `saddr` "off" is 0x7f (GFX10: NULL 0x7d); it becomes GFX11 NULL. SCRATCH's
 *   addressing mode (VADDR / SADDR / offset only) is read off SADDR and becomes GFX11's SVE bit.
 *   MUBUF/MTBUF SOFFSET is mapped like any scalar source. GFX10's FLAT-family offset is 12 bits
 *   (signed for GLOBAL/SCRATCH) where GFX9/GFX11 have 13: re-encoded in the 13-bit field.
 * - DS_CMPST_* (compare value in DATA0) becomes GFX11's DS_CMPSTORE_* with DATA0/DATA1 swapped.
 * - s_waitcnt's simm16. GFX9: vmcnt [3:0]+[15:14], expcnt [6:4], lgkmcnt [11:8]; GFX10: the same
 *   with lgkmcnt [13:8]; GFX11: expcnt [2:0], lgkmcnt [9:4], vmcnt [15:10]. GFX9 has no
 *   s_waitcnt_vscnt: its stores count on vmcnt (see `storesInVmcnt`).
 * - GFX9 SMEM: IMM=1 makes OFFSET a 20-bit byte offset, IMM=0 makes it an SGPR number (SOE adds
 *   SOFFSET to an immediate): rewritten to GFX11's offset + soffset (NULL = none).
 * - Mnemonics: renames LLVM itself treats as aliases (gen-aliases.gen.ts: s_load_dword ->
 *   s_load_b32, ds_read_b32 -> ds_load_b32, v_ffbh_u32 -> v_clz_i32_u32 ...), and GFX9's carry
 *   ops whose GFX11 twins LLVM does not alias (v_addc_co_u32 = v_add_co_ci_u32 ...).
 * - 16-bit VALU operands: GFX11's VOP1/VOP2/VOPC use VGPR bit 7 to pick a register half (true16);
 *   GFX9/GFX10 have no such rule (v128..v255 are whole registers, 16-bit operands are the low
 *   half). Such instructions are rebound in their VOP3 shape with op_sel 0, which is exactly that.
 *   GFX9 zeroes the high half of most 16-bit results (LLVM's zeroesHigh16BitsOfDest: "most
 *   instructions maintain the legacy behavior of 0ing", the f16 mac/fmac/madak/madmk family
 *   preserves); GFX10 preserves it for all (valu.ts asks `zeroesHigh16`).
 * - GFX9 V_CMPX also writes its result to VCC (VOP3: SDST); GFX10+ write EXEC only.
 * - SDWA (VOP1/VOP2/VOPC with an SDWA dword): rebound in the VOP3 shape, where any source may be an
 *   SGPR or a constant and clamp/omod/abs/neg exist; the source selects (BYTE_n/WORD_n, zero- or
 *   sign-extended) are applied while gathering (valu-core.ts sdwaSelect), DST_SEL/DST_UNUSED after
 *   the op (sdwaDst). VOPC's destination (VCC when SD = 0) becomes the VOP3 compare's SDST.
 *
 * Semantics that only the older generations have live in exec/pre-gfx11.ts.
 */
import type { Instruction } from '../isa/types.js';
import type { OperandSpace } from '../isa/operands.js';
import type { Wave } from '../wave/wave.js';
import { SREG } from '../wave/wave.js';
import type { ExecEnv } from '../engine/env.js';
import { lookup, baseMnemonic, type Bound } from '../engine/registry.js';
import { GFX1030_ALIASES, GFX900_ALIASES } from './aliases.gen.js';
import { swrite32, swrite64 } from '../exec/operands.js';
import type { SdwaOpInfo } from '../isa/sdwa.js';
import '../exec/pre-gfx11.js';
export { zeroesHigh16, storesInVmcnt } from './space.js';

/** GFX9 carry ops LLVM does not alias to their GFX11 names (same definitions: D = S0 op S1 op carry). */
const GFX9_RENAMES: Readonly<Record<string, string>> = {
  v_addc_co_u32: 'v_add_co_ci_u32', v_subb_co_u32: 'v_sub_co_ci_u32', v_subbrev_co_u32: 'v_subrev_co_ci_u32',
  v_add_u16: 'v_add_nc_u16', v_sub_u16: 'v_sub_nc_u16',
  // GFX8's 16-bit opcodes as GFX9 keeps them ("legacy": the same operation, no op_sel, the high
  // half of VDST zeroed; LLVM D115729: "documented to have the same zeroing behaviour as on GFX8").
  v_mad_legacy_u16: 'v_mad_u16', v_mad_legacy_i16: 'v_mad_i16', v_mad_legacy_f16: 'v_mad_f16',
  v_fma_legacy_f16: 'v_fma_f16', v_div_fixup_legacy_f16: 'v_div_fixup_f16',
  // Always-false / always-true 16-bit compares (GFX11 dropped them): the result ignores the
  // sources, so the 32-bit forms are the same instruction. v_cmpx_tru_* is LLVM's GFX9 name of
  // v_cmpx_t_* (the v_cmp_tru_* ones are in the generated alias table).
  v_cmp_f_i16: 'v_cmp_f_i32', v_cmp_f_u16: 'v_cmp_f_u32', v_cmp_t_i16: 'v_cmp_t_i32', v_cmp_t_u16: 'v_cmp_t_u32',
  v_cmpx_f_i16: 'v_cmpx_f_i32', v_cmpx_f_u16: 'v_cmpx_f_u32', v_cmpx_t_i16: 'v_cmpx_t_i32', v_cmpx_t_u16: 'v_cmpx_t_u32',
  v_cmpx_tru_f16: 'v_cmpx_t_f16', v_cmpx_tru_f32: 'v_cmpx_t_f32', v_cmpx_tru_f64: 'v_cmpx_t_f64',
  // "SQ translates to V_CVT_PK_U8_F32" (GFX9 ISA): the byte-accumulating form reads VDST as S2.
  v_cvt_pkaccum_u8_f32: 'v_cvt_pk_u8_f32',
};

/** GFX9 legacy 16-bit ops: no op_sel (GFX8 semantics). */
const GFX9_LEGACY16 = /^v_(mad_legacy_[iuf]16|fma_legacy_f16|div_fixup_legacy_f16)$/;

/** Operand descriptors of a generated table entry: VALU (`ops`) or scalar (`operands`). */
interface TableInfo {
  readonly ops?: readonly { readonly f: string; readonly k: string; readonly t?: string }[];
  readonly operands?: readonly { readonly field: string; readonly kind: string }[];
}

/** The GFX11 number of an older generation's scalar operand (only M0/NULL differ). */
function mapScalar(v: number): number {
  if (v === 124) return SREG.M0;
  if (v === 125) return SREG.NULL;
  return v;
}

/** Whether a VALU instruction has 16-bit operands or result (its name says so). */
function is16Bit(base: string): boolean {
  return /(^|_)[fiub]16(_|$)/.test(base) || /_[iu]16_/.test(base);
}

/** s_waitcnt simm16 of GFX9/GFX10 re-laid in GFX11's layout. */
export function waitcntToGfx11(gfx: 9 | 10, v: number): number {
  const vm = (v & 0xf) | (((v >>> 14) & 3) << 4);
  const exp = (v >>> 4) & 7;
  const lgkm = gfx === 9 ? (v >>> 8) & 0xf : (v >>> 8) & 0x3f;
  return (exp | (lgkm << 4) | (vm << 10)) >>> 0;
}

/** The GFX11-shaped instruction an older generation's instruction executes as. */
export function normalize(inst: Instruction, space: OperandSpace): Instruction {
  const gfx = space.gfx;
  if (gfx === 11) return inst;
  const f: Record<string, number> = { ...inst.fields };
  const info = inst.info as TableInfo | undefined;
  for (const o of info?.ops ?? []) {
    if ((o.k === 's' || o.k === 'src') && f[o.f] !== undefined && f[o.f]! < 128) f[o.f] = mapScalar(f[o.f]!);
  }
  for (const o of info?.operands ?? []) {
    if ((o.kind === 'sreg' || o.kind === 'ssrc' || o.kind === 'smemoff') && f[o.field] !== undefined && f[o.field]! < 128) f[o.field] = mapScalar(f[o.field]!);
  }
  let encoding = inst.encoding;
  const m = inst.mnemonic;
  const base = baseMnemonic(m);
  const suffix = m.slice(base.length);
  const aliases = gfx === 9 ? GFX900_ALIASES : GFX1030_ALIASES;
  let name = aliases[base] ?? (gfx === 9 ? GFX9_RENAMES[base] : undefined) ?? base;
  // Same name, other message ids (GFX11's 3 is DEALLOC_VGPRS, GFX9/10's is GS_DONE).
  if (base === 's_sendmsg' || base === 's_sendmsghalt') name = `${base}@pre11`;
  // VINTRP's v_interp_p1/p2_f32 read LDS (vintrp.ts); GFX11's VINTERP ops of the same names do not.
  if (inst.encoding === 'VINTRP') name = `${base}@vintrp`;
  // HW_REG ids 16..19 are TBA_LO/HI, TMA_LO/HI on GFX9/GFX10 (GFX11 reuses 18/19 for PERF_SNAPSHOT_PC).
  const hwId = (f.simm16 ?? 0) & 0x3f;
  if (base === 's_getreg_b32' && hwId >= 16 && hwId <= 19) name = 's_getreg_b32@tbatma';
  // GFX9's HW_ID (id 4; GFX10 split it into HW_ID1/HW_ID2); GFX10's FLAT_SCR_LO/HI are user-writable.
  if (gfx === 9 && base === 's_getreg_b32' && hwId === 4) name = 's_getreg_b32@hwid9';
  if (gfx === 10 && (base === 's_setreg_b32' || base === 's_setreg_imm32_b32') && (hwId === 20 || hwId === 21)) name = `${base}@flatscr`;
  // GFX10.3's image_msaa_load is left out (target/coverage.ts LEFT_OUT): it must not bind GFX11's.
  if (gfx === 10 && base === 'image_msaa_load') name = 'image_msaa_load@gfx10';
  if (gfx === 9 && GFX9_LEGACY16.test(base)) f.opsel = 0;
  if (gfx === 9 && base === 'v_cvt_pkaccum_u8_f32') f.src2 = 256 + (f.vdst ?? 0);
  if (inst.encoding === 'SOPP' && base === 's_waitcnt') f.simm16 = waitcntToGfx11(gfx, f.simm16 ?? 0);
  if (inst.encoding === 'SMEM' && gfx === 9) {
    const imm = f.imm ?? 1;
    const soe = f.soe ?? 0;
    const raw = f.offset ?? 0;
    if (imm === 1) {
      f.offset = raw & 0xfffff;
      f.soffset = soe ? mapScalar(f.soffset ?? 0) : SREG.NULL;
    } else {
      f.offset = 0;
      f.soffset = mapScalar(raw & 0x7f);
    }
  }
  if (gfx === 10 && f.offset !== undefined) {
    // GFX10's offset field is 12 bits: signed for GLOBAL/SCRATCH, unsigned 11 bits for FLAT (LLVM
    // never sets its top bit). Re-encode as GFX11's 13-bit signed field / 12-bit FLAT field.
    if (inst.encoding === 'GLOBAL' || inst.encoding === 'SCRATCH') f.offset = (((f.offset << 20) >> 20) & 0x1fff) >>> 0;
    else if (inst.encoding === 'FLAT') f.offset = f.offset & 0x7ff;
  }
  if ((inst.encoding === 'FLAT' || inst.encoding === 'GLOBAL') && f.saddr !== undefined) {
    f.saddr = gfx === 9 && f.saddr === 0x7f ? SREG.NULL : mapScalar(f.saddr);
  }
  if (inst.encoding === 'SCRATCH' && f.saddr !== undefined) {
    // GFX11 says with SVE whether VADDR is used. GFX10: SADDR NULL (0x7d) uses VADDR, 0x7f neither
    // (offset only), an SGPR uses SADDR alone. GFX9: 0x7f uses VADDR, an SGPR uses SADDR alone.
    const sa = f.saddr;
    const vaddrOnly = gfx === 9 ? sa === 0x7f : sa === 0x7d;
    const none = gfx === 10 && sa === 0x7f;
    f.sve = vaddrOnly ? 1 : 0;
    f.saddr = vaddrOnly || none ? SREG.NULL : mapScalar(sa);
  }
  if ((inst.encoding === 'MUBUF' || inst.encoding === 'MTBUF') && f.soffset !== undefined) f.soffset = mapScalar(f.soffset);
  // GFX9 DPP16's wave shifts and row broadcasts (reserved from GFX10 on): valu-core.ts dpp16Lane.
  if (gfx === 9 && f.dpp_ctrl !== undefined) f.dpp_gfx9 = 1;
  // DS_CMPST: DATA0 is the compare value, DATA1 the new one; GFX11's DS_CMPSTORE takes them the other way round.
  const cmpst = /^ds_cmpst_(rtn_)?([bf](?:32|64))$/.exec(name);
  if (inst.encoding === 'DS' && cmpst) {
    name = `ds_cmpstore_${cmpst[1] ?? ''}${cmpst[2]}`;
    const d0 = f.data0;
    f.data0 = f.data1 ?? 0;
    f.data1 = d0 ?? 0;
  }
  if (inst.variant === 'sdwa') {
    // SDWA: the VOP3 shape (any source may be an SGPR or constant; clamp/omod; abs/neg), with the
    // source selects riding along in src0_sel/src1_sel (valu-core.ts applies them while gathering)
    // and dst_sel/dst_unused applied after the op (bindPreGfx11). VOP2's implicit VCC becomes the
    // VOP3 forms' operand: a carry/condition-out before the sources is SDST, a mask after them SRC2.
    const ops = (inst.info as SdwaOpInfo).ops;
    const at0 = ops.findIndex((o) => o.f === 'src0');
    ops.forEach((o, i) => {
      if (o.k !== 'x' || !o.x!.startsWith('vcc')) return;
      if (i < at0) { f.sdst = SREG.VCC_LO; encoding = 'VOP3SD'; }
      else f.src2 = SREG.VCC_LO;
    });
    if (encoding === 'VOPC') {
      f.vdst = f.sdst!;
      delete f.sdst;
    }
    f.opsel = 0;
    if (encoding !== 'VOP3SD') encoding = 'VOP3';
  } else if ((encoding === 'VOP1' || encoding === 'VOP2' || encoding === 'VOPC') && is16Bit(name)) {
    if (encoding !== 'VOP1' && f.vsrc1 !== undefined) {
      f.src1 = 256 + f.vsrc1;
      delete f.vsrc1;
    }
    if (encoding === 'VOPC') f.vdst = SREG.VCC_LO;
    f.opsel = 0;
    if (f.dpp_ctrl !== undefined) {
      // VOP3 DPP takes its abs/neg from the VOP3 fields.
      f.abs = (f.dabs0 ?? 0) | ((f.dabs1 ?? 0) << 1);
      f.neg = (f.dneg0 ?? 0) | ((f.dneg1 ?? 0) << 1);
    }
    encoding = 'VOP3';
  }
  if (name === base && encoding === inst.encoding && !changed(inst.fields, f)) return inst;
  name += suffix;
  return { ...inst, encoding, mnemonic: name, fields: f };
}

function changed(a: Readonly<Record<string, number>>, b: Readonly<Record<string, number>>): boolean {
  for (const k of Object.keys(b)) if (a[k] !== b[k]) return true;
  return Object.keys(a).length !== Object.keys(b).length;
}

/**
 * Bind an older generation's instruction: normalise it, bind the GFX11 semantics, and wrap the
 * few behaviours that differ. Returns the normalised instruction with the bound handler.
 */
export function bindPreGfx11(inst: Instruction, env: ExecEnv, bind: (inst: Instruction, env: ExecEnv) => Bound): { inst: Instruction; bound: Bound } {
  const n = normalize(inst, env.space);
  if (n.variant === 'sdwa' && n.fields.dst_sel !== undefined && n.fields.dst_sel !== 6) return { inst: n, bound: sdwaDst(n, env, bind(n, env)) };
  const b = bind(n, env);
  const base = baseMnemonic(n.mnemonic);
  if (env.space.gfx === 9 && base.startsWith('v_cmpx_') && lookup(n.mnemonic) !== undefined) {
    // GFX9 V_CMPX: the result goes to VCC (VOPC) or SDST (VOP3) as well as EXEC.
    const d = n.encoding === 'VOPC' ? SREG.VCC_LO : (n.fields.vdst ?? n.fields.sdst ?? SREG.VCC_LO);
    const run = b.run;
    const w64 = env.waveSize === 64;
    return {
      inst: n,
      bound: {
        ...b,
        run: (w: Wave) => {
          run(w);
          if (w64) swrite64(w, d, w.s[SREG.EXEC_LO]!, w.s[SREG.EXEC_HI]!);
          else swrite32(w, d, w.s[SREG.EXEC_LO]!);
        },
      },
    };
  }
  return { inst: n, bound: b };
}

/** Old destination dwords of the instruction being run (SDWA UNUSED_PRESERVE). */
const OLD = new Uint32Array(64);

/**
 * SDWA DST_SEL/DST_UNUSED: the op's result (its low byte or word) goes to the selected byte/word of
 * VDST; the other bits are zero (UNUSED_PAD), the sign of the field above it and zero below
 * (UNUSED_SEXT), or VDST's old bits (UNUSED_PRESERVE). Only lanes active in EXEC are written.
 */
function sdwaDst(n: Instruction, env: ExecEnv, b: Bound): Bound {
  const sel = n.fields.dst_sel!;
  const unused = n.fields.dst_unused ?? 0;
  const size = sel < 4 ? 8 : 16;
  const shift = sel < 4 ? sel * 8 : (sel - 4) * 16;
  const field = (((1 << size) - 1) << shift) >>> 0;
  const vdst = n.fields.vdst!;
  const ws = env.waveSize;
  const run = b.run;
  // Past the allocated VGPRs the op itself is a NOP (and reports it): nothing to merge.
  if (vdst >= env.vgprs) return b;
  const d = vdst * ws;
  return {
    ...b,
    run: (w: Wave) => {
      const v = w.v;
      for (let l = 0; l < ws; l++) OLD[l] = v[d + l]!;
      const el = w.s[SREG.EXEC_LO]!;
      const eh = ws === 64 ? w.s[SREG.EXEC_HI]! : 0;
      run(w);
      for (let l = 0; l < ws; l++) {
        if (!((l < 32 ? el >>> l : eh >>> (l - 32)) & 1)) continue;
        const x = ((v[d + l]! << shift) & field) >>> 0;
        let rest = 0;
        if (unused === 2) rest = OLD[l]! & ~field;
        else if (unused === 1 && (x >>> (shift + size - 1)) & 1) rest = shift + size < 32 ? ~((1 << (shift + size)) - 1) : 0;
        v[d + l] = (x | rest) >>> 0;
      }
    },
  };
}
