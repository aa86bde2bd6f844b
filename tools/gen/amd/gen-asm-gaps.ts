/**
 * Generator for test/golden/amd/asm-gaps.json: llvm-mc-19's answers for the assembler forms issue
 * 22 listed as gaps (alternative mnemonics, MTBUF format syntax, bound_ctrl:0, null as a base,
 * WMMA widths in wave64, s_subvector_loop_end, s_load glc, SDWA v_nop, _e64 on VOP3-only names,
 * SDWA under the plain mnemonic)
 * and for lines llvm-mc refuses (VOPD banks/literals/constant bus, VOP3 DPP sources, DPP controls
 * the generation lacks, WMMA modifiers). Each line is assembled alone: the encoding llvm-mc prints,
 * or null when it reports an error; accepted encodings are disassembled back by llvm-mc too.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LLVM_MC, llvmVersion } from '../llvm.js';

type Case = readonly [mcpu: string, wave: 32 | 64, text: string];

const T11 = 'gfx1100', T10 = 'gfx1030', T9 = 'gfx900';
const FMT = [
  'tbuffer_store_format_x v1, off, s[4:7], dfmt:15, nfmt:2, s1',
  'tbuffer_store_format_x v1, off, s[4:7], s1 format:[BUF_DATA_FORMAT_32]',
  'tbuffer_store_format_x v1, off, s[4:7], s1, format:(2 + 3 * 16) offset:4',
  'tbuffer_store_format_x v1, off, s[4:7], s1 format:[BUF_FMT_8_UNORM]',
  'tbuffer_store_format_x v1, off, s[4:7], s1 format:[BUF_FMT_32_FLOAT,BUF_NUM_FORMAT_FLOAT]',
  'tbuffer_store_format_x v1, off, s[4:7], s1 format:[BUF_DATA_FORMAT_32, BUF_NUM_FORMAT_FLOAT]',
  'tbuffer_store_format_x v1, off, s[4:7], s1, format:[BUF_NUM_FORMAT_USCALED, BUF_DATA_FORMAT_16] offset:4 glc',
  'tbuffer_load_format_xyzw v[1:4], off, s[4:7], s1 format:1',
];
const DPP = [
  'v_mov_b32_dpp v5, v1 quad_perm:[0,1,2,3] row_mask:0x0 bank_mask:0x0 bound_ctrl:0',
  'v_mov_b32_dpp v5, v1 quad_perm:[0,1,2,3] row_mask:0x0 bank_mask:0x0 bound_ctrl:1',
  'v_mov_b32_dpp v0, v1 wave_shl:1',
  'v_mov_b32_dpp v0, v1 row_share:1',
  'v_mov_b32_dpp v0, v1 row_bcast:15',
];
export const CASES: readonly Case[] = [
  // Alternative mnemonics (gfx1100 takes the GFX9/GFX10 names).
  ...['v_cmp_tru_f32 vcc_lo, v1, v2', 'v_cmp_tru_f16_e64 s5, v1, v2', 'v_cmpx_tru_f32 v1, v2', 'v_cmpx_tru_f64_e64 v[1:2], v[2:3]',
    'v_cvt_flr_i32_f32 v1, v2', 'v_cvt_rpi_i32_f32_e64 v1, s2', 'v_ffbh_u32 v1, v2', 'v_ffbh_i32 v1, s2', 'v_ffbl_b32_e64 v1, v2',
    'v_mul_legacy_f32 v1, v2, v3', 'v_mul_legacy_f32_e64 v1, s2, v3', 'v_cvt_pkrtz_f16_f32 v1, v2, v3',
    'v_cvt_pkrtz_f16_f32_e64_dpp v1, v2, v3 quad_perm:[1,0,3,2]', 'v_fmac_legacy_f32 v1, v2, v3', 'v_fma_legacy_f32 v1, v2, v3, v4',
    'v_dot2c_f32_f16 v1, v2, v3', 'v_cvt_pknorm_u16_f16 v1, v2, v3', 'v_add_u32 v1, v2, v3', 'v_cmp_tru_f32_e64_dpp s5, v1, v2 dpp8:[7,6,5,4,3,2,1,0]',
  ].map((t) => [T11, 32, t] as const),
  [T11, 64, 'v_cmp_tru_f32 vcc, v1, v2'],
  // MTBUF format syntax.
  ...FMT.flatMap((t) => [[T11, 32, t], [T10, 32, t], [T9, 64, t]] as const),
  // bound_ctrl:0 and the DPP controls of each generation.
  ...DPP.flatMap((t) => [[T11, 32, t], [T10, 32, t], [T9, 64, t]] as const),
  [T11, 32, 'v_dot2_f32_f16_e64_dpp v0, v1, v2, v3 quad_perm:[0,1,2,3] bound_ctrl:0'],
  // null as a base.
  [T11, 32, 'scratch_load_b32 v1, off, null'], [T11, 32, 'scratch_load_b128 v[5:8], v1, null'], [T11, 32, 'global_load_b32 v1, v2, null'],
  [T10, 32, 'scratch_load_dword v1, off, null'], [T10, 32, 'global_load_dword v1, v2, null'],
  // WMMA register widths in wave64, and its modifiers.
  ...(['v_wmma_f32_16x16x16_f16 v[16:19], v[0:7], v[8:15], v[16:19]', 'v_wmma_f32_16x16x16_f16 v[16:23], v[0:7], v[8:15], v[16:23]',
    'v_wmma_f16_16x16x16_f16 v[16:19], v[0:7], v[8:15], v[16:19] op_sel:[0,0,1]', 'v_wmma_i32_16x16x16_iu8 v[8:11], v[0:3], v[4:7], v[8:11] clamp',
    'v_wmma_i32_16x16x16_iu4 v[4:7], v[0:1], v[2:3], v[4:7]', 'v_wmma_f32_16x16x16_bf16 v[16:19], v[0:7], v[8:15], v[16:19] clamp',
  ] as const).flatMap((t) => [[T11, 64, t], [T11, 32, t]] as const),
  [T11, 32, 'v_wmma_f32_16x16x16_f16 v[16:23], v[0:7], v[8:15], v[16:23] op_sel:[0,0,1]'],
  // gfx1030 s_subvector_loop_*, gfx900 s_load glc.
  [T10, 32, 's_subvector_loop_end s0, 0x1234'], [T10, 32, 's_subvector_loop_begin s5, 0x10'],
  [T9, 64, 's_load_dword s1, s[2:3], 0x4 glc'], [T9, 64, 's_load_dwordx2 s[2:3], s[2:3], s4 glc'],
  // SDWA v_nop (8 bytes), _e64 on VOP3-only mnemonics.
  [T9, 64, 'v_nop_sdwa'], [T10, 32, 'v_nop_sdwa'], [T9, 64, 'v_nop'], [T9, 64, 'v_nop_e64'], [T11, 32, 'v_nop_e64'],
  [T9, 64, 'v_mad_u16_e64 v5, v1, v2, v3'], [T11, 32, 'v_add3_u32_e64 v5, v1, v2, s3'],
  // SDWA written with the plain mnemonic (selectors make it SDWA; not with _e32).
  ...(['v_mov_b32 v1, v2 dst_sel:BYTE_0 dst_unused:UNUSED_PRESERVE src0_sel:DWORD', 'v_add_f32 v0, v0, v0 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:WORD_1 src1_sel:BYTE_2',
    'v_mov_b32_e32 v1, v2 dst_sel:BYTE_0'] as const).flatMap((t) => [[T9, 64, t], [T10, 32, t]] as const),
  // VOPD rules.
  ...['v_dual_add_f32 v1, v1, v5 :: v_dual_mov_b32 v2, v1', 'v_dual_add_f32 v1, v4, v0 :: v_dual_add_f32 v2, v5, v4',
    'v_dual_fmamk_f32 v6, v1, 0xaf123456, v3 :: v_dual_fmamk_f32 v5, v2, 0xaf123456, v5', 'v_dual_fmac_f32 v7, v1, v2 :: v_dual_fmamk_f32 v6, v2, 0xaf123456, v3',
    'v_dual_mul_f32 v11, 0x24681357, v2 :: v_dual_mul_f32 v10, 0xbabe, v5', 'v_dual_fmamk_f32 v122, 0xdeadbeef, 0x1234, v161 :: v_dual_mov_b32 v123, v2',
    'v_dual_fmamk_f32 v122, s0, 0xbabe, v161 :: v_dual_fmamk_f32 v123, s1, 0xbabe, v162', 'v_dual_add_f32 v255, vcc_lo, v2 :: v_dual_cndmask_b32 v6, s1, v3',
    'v_dual_add_f32 v255, s105, v2 :: v_dual_add_f32 v6, s1, v3', 'v_dual_cndmask_b32 v255, s1, v2 :: v_dual_mov_b32 v254, 0xbabe',
    'v_dual_fmaak_f32 v122, s74, v161, 2.741 :: v_dual_and_b32 v247, s74, v98', 'v_dual_add_f32 v0, v4, v2 :: v_dual_add_f32 v2, v1, v3',
    'v_dual_mov_b32 v1, v2 :: v_dual_add_f32 v2, v5, v7',
  ].map((t) => [T11, 32, t] as const),
  // VOP3 DPP sources.
  ...['v_add_f32_e64_dpp v5, v1, s2 quad_perm:[0,1,2,3]', 'v_add_f32_e64_dpp v5, v1, 2.0 quad_perm:[0,1,2,3]',
    'v_fma_f32_e64_dpp v5, v1, v2, s3 quad_perm:[0,1,2,3]', 'v_fma_f32_e64_dpp v5, v1, v2, 0x1234 quad_perm:[0,1,2,3]',
    'v_add_f32_e64_dpp v5, v1, v2 dpp8:[7,6,5,4,3,2,1,0]',
  ].map((t) => [T11, 32, t] as const),
  // Registers GFX11 lacks: refused bare; vccz/execz still taken under abs/neg.
  ...['v_add_f64 v[0:1], src_execz, v[2:3]', 'v_add_f64 v[0:1], -src_execz, v[2:3]', 'v_add_f64 v[0:1], |vccz|, v[2:3]',
    'v_add_f32 v0, v1, src_vccz', 'v_mov_b32 v0, execz', 'v_add_co_u32 v0, s0, src_pops_exiting_wave_id, v1',
    'v_add_f32 v0, -src_pops_exiting_wave_id, v1',
  ].map((t) => [T11, 32, t] as const),
  // gfx900 lds_direct: src0 only, never in the reversed-operand opcodes (v_bfrev_b32 is not one).
  ...['v_subrev_u32 v0, src_lds_direct, v0', 'v_lshlrev_b32_e64 v0, lds_direct, v0', 'v_pk_lshrrev_b16 v0, lds_direct, v0',
    'v_fma_f32 v0, v0, v0, lds_direct', 'v_add_u32 v0, v1, src_lds_direct', 'v_add_u32 v0, lds_direct, v0',
    'v_add_f32 v0, -lds_direct, v0', 'v_bfrev_b32 v5, src_lds_direct',
  ].map((t) => [T9, 64, t] as const),
  // Constant bus: distinct SGPRs + the literal + an implicit VCC read; one on gfx900 and for GFX10+'s
  // 64-bit shifts, two otherwise (null is free).
  ...['v_ashrrev_i64 v[0:1], s2, s[0:1]', 'v_ashrrev_i64 v[0:1], s0, v[0:1]', 'v_div_fmas_f32 v5, s3, s3, s2', 'v_div_fmas_f32 v5, s3, s3, v2',
    'v_add_f32_e64 v0, s1, s2', 'v_fma_f32 v0, s1, 0x1234, v2', 'v_fma_f32 v0, s1, 0x1234, s2', 'v_cndmask_b32_e64 v1, s5, vcc_lo, null',
  ].flatMap((t) => [[T11, 32, t], [T10, 32, t]] as const),
  ...['v_addc_co_u32_e32 v3, vcc, 12345, v3, vcc', 'v_cndmask_b32 v0, s1, v1, vcc', 'v_add_f32_e64 v0, flat_scratch_hi, m0',
    'v_madak_f32 v5, s1, v2, 0xa1b1c1d1', 'v_add_f32_e64 v0, s1, s1', 'v_cmp_eq_f32 vcc, s1, v2',
  ].map((t) => [T9, 64, t] as const),
  // Counter syntax: no trailing separator, no repeated depctr counter, s_delay_alu takes names only.
  ...['s_waitcnt vmcnt(0), expcnt(0),', 's_waitcnt vmcnt(0) & lgkmcnt(0)&', 's_waitcnt vmcnt(0) vmcnt(1)',
    's_waitcnt_depctr depctr_sa_sdst(0) depctr_sa_sdst(0)', 's_waitcnt_depctr depctr_sa_sdst(0) depctr_va_vdst(0)',
    's_delay_alu instid0(1)', 's_delay_alu instid0(VALU_DEP_1) |', 's_delay_alu instid0(VALU_DEP_1) | instskip(NEXT)',
  ].map((t) => [T11, 32, t] as const),
];

export interface GapCase {
  readonly mcpu: string;
  readonly wave: 32 | 64;
  readonly text: string;
  /** llvm-mc's encoding bytes, or null when it refused the line. */
  readonly bytes: number[] | null;
  /** llvm-mc's disassembly of those bytes. */
  readonly disasm?: string;
}

function mc(mcpu: string, wave: number, args: string[], input: string): { out: string; err: string } {
  const dir = mkdtempSync(join(tmpdir(), 'gpusim-gaps-'));
  try {
    const f = join(dir, 'in');
    writeFileSync(f, input);
    const a = ['-arch=amdgcn', `-mcpu=${mcpu}`, ...(mcpu === 'gfx900' ? [] : [`-mattr=+wavefrontsize${wave}`]), ...args, f];
    try {
      return { out: execFileSync(LLVM_MC, a, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }), err: '' };
    } catch (e) {
      const x = e as { stdout?: string; stderr?: string; code?: string };
      if (x.code === 'ENOENT' || x.stdout === undefined) throw e;
      return { out: x.stdout, err: x.stderr ?? '' };
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Output lines that are instructions (not blank, not directives), trimmed. */
const instLines = (out: string) => out.split('\n').map((l) => l.trim()).filter((l) => l !== '' && !l.startsWith('.'));

/** Input line numbers (1-based) llvm-mc reported a `kind` ('error', 'warning') at. */
function linesWith(err: string, kind: string): Set<number> {
  const at = new Set<number>();
  for (const m of err.matchAll(new RegExp(`^[^\\n]*?:(\\d+):\\d+: ${kind}:`, 'gm'))) at.add(Number(m[1]));
  return at;
}

/**
 * The cases of one processor and wave size through one llvm-mc run to encode and one to
 * disassemble (a run a case took ~10 s of the generator test), each input line mapped to its
 * output in order: a line with an error (encoding) or a warning (disassembly) gives none, every
 * other line exactly one. A case that breaks that (two instructions from one line, or none without
 * a message) stops the generator: its output could not be told apart.
 */
function group(mcpu: string, wave: 32 | 64, texts: readonly string[]): GapCase[] {
  const enc = mc(mcpu, wave, ['-show-encoding'], texts.join('\n') + '\n');
  const refused = linesWith(enc.err, 'error');
  const encodings = enc.out.split('\n').map((l) => /; encoding: \[([^\]]*)\]/.exec(l)).filter((m) => m !== null);
  const taken = texts.map((_, i) => !refused.has(i + 1));
  const tookLines = texts.length - refused.size;
  if (encodings.length !== tookLines) throw new Error(`${mcpu} wave${wave}: llvm-mc gave ${encodings.length} encodings for ${tookLines} lines it took`);
  let k = 0;
  const bytes = taken.map((ok) => (ok ? encodings[k++]![1]!.split(',').map((b) => Number(b.trim())) : null));
  const encoded = bytes.filter((b): b is number[] => b !== null);
  const dis = mc(mcpu, wave, ['-disassemble'], encoded.map((b) => b.map((x) => '0x' + x.toString(16)).join(',')).join('\n') + '\n');
  const invalid = linesWith(dis.err, 'warning');
  const lines = instLines(dis.out);
  if (lines.length !== encoded.length - invalid.size || [...invalid].some((n) => n < 1 || n > encoded.length)) {
    throw new Error(`${mcpu} wave${wave}: llvm-mc disassembled ${lines.length} instructions from ${encoded.length} lines, ${invalid.size} of them invalid`);
  }
  k = 0;
  const disasm = encoded.map((_, i) => (invalid.has(i + 1) ? undefined : lines[k++]));
  let d = 0;
  return texts.map((text, i) => {
    const b = bytes[i]!;
    if (b === null) return { mcpu, wave, text, bytes: null };
    const line = disasm[d++];
    return { mcpu, wave, text, bytes: b, ...(line ? { disasm: line.replace(/\s+/g, ' ') } : {}) };
  });
}

export function generate(): Record<string, string> {
  // Grouped by processor and wave size, then put back in CASES order.
  const groups = new Map<string, { mcpu: string; wave: 32 | 64; texts: string[]; done: GapCase[] }>();
  for (const [mcpu, wave, text] of CASES) {
    const key = `${mcpu}/${wave}`;
    let g = groups.get(key);
    if (g === undefined) groups.set(key, (g = { mcpu, wave, texts: [], done: [] }));
    g.texts.push(text);
  }
  for (const g of groups.values()) g.done = group(g.mcpu, g.wave, g.texts);
  const out = CASES.map(([mcpu, wave]) => groups.get(`${mcpu}/${wave}`)!.done.shift()!);
  return { 'test/golden/amd/asm-gaps.json': JSON.stringify({ llvm: llvmVersion(), cases: out }, null, 1) + '\n' };
}
