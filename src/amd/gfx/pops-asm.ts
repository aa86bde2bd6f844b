/**
 * The POPS shader sequences of seed 002_d00ee82034762a57.txt written as a compiler emits them,
 * per generation (LLVM syntax; assembled by llvm-mc-19 for gfx900 / gfx1030 / gfx1100). Inputs:
 * s0 = COLLISION_WAVEID. Clobbers s1-s4 and SCC. Examples, tests and the pipeline's demo scenes
 * splice them around an ordered section.
 */
import type { PopsGen } from './pops-config.js';

/** Entering: skip everything when [31] is 0; select the packer; wait until the exiting ID passes the newest overlapped one. */
export const POPS_ENTER: Readonly<Record<PopsGen, string>> = {
  gfx9: `  s_bitcmp1_b32 s0, 31
  s_cbranch_scc0 .Lpops_enter
  s_bfe_u32 s1, s0, 0x1001c
  s_lshl_b32 s1, 1, s1
  s_setreg_b32 hwreg(HW_REG_MODE, 24, 2), s1
  s_and_b32 s2, s0, 0x3ff
  s_bfe_u32 s3, s0, 0xa0010
  s_cmp_gt_u32 s3, s2
  s_addc_u32 s3, s3, 0
  s_not_b32 s2, s2
  s_add_i32 s3, s3, s2
.Lpops_wait:
  s_add_i32 s4, src_pops_exiting_wave_id, s2
  s_cmp_gt_u32 s4, s3
  s_cbranch_scc1 .Lpops_enter
  s_sleep 3
  s_branch .Lpops_wait
.Lpops_enter:`,
  gfx103: `  s_bitcmp1_b32 s0, 31
  s_cbranch_scc0 .Lpops_enter
  s_bfe_u32 s1, s0, 0x2001c
  s_lshl_b32 s1, s1, 1
  s_or_b32 s1, s1, 1
  s_setreg_b32 hwreg(HW_REG_POPS_PACKER, 0, 3), s1
  s_and_b32 s2, s0, 0x3ff
  s_not_b32 s2, s2
  s_bfe_u32 s3, s0, 0xa0010
  s_add_i32 s3, s3, s2
.Lpops_wait:
  s_add_i32 s4, src_pops_exiting_wave_id, s2
  s_cmp_gt_u32 s4, s3
  s_cbranch_scc1 .Lpops_enter
  s_sleep 0xffff
  s_branch .Lpops_wait
.Lpops_enter:`,
  gfx11: `  s_wait_event 0x0`,
};

/** Exiting: await the memory counters, then ORDERED_PS_DONE (GFX9-10.3) or the last export with done (GFX11). */
export const POPS_EXIT: Readonly<Record<PopsGen, string>> = {
  gfx9: `  s_waitcnt vmcnt(0) lgkmcnt(0)
  s_sendmsg sendmsg(MSG_ORDERED_PS_DONE)`,
  gfx103: `  s_waitcnt vmcnt(0) lgkmcnt(0)
  s_waitcnt_vscnt null, 0x0
  s_sendmsg sendmsg(MSG_ORDERED_PS_DONE)`,
  gfx11: `  s_waitcnt vmcnt(0) lgkmcnt(0)
  s_waitcnt_vscnt null, 0x0
  exp mrt0 off, off, off, off done`,
};
