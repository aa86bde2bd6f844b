/**
 * The POPS sequences (src/amd/gfx/pops-asm.ts) assemble with gpusim's assembler to the encodings
 * llvm-mc-19 gives (recorded below from `llvm-mc-19 -arch=amdgcn -mcpu=<cpu> -show-encoding`;
 * branch lines carry fixups there and are left out). gfx900 is recorded for when its target is complete.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { assembleLine } from '../../src/amd/isa/target.js';
import { gfx11 } from '../../src/amd/isa/gfx11/index.js';
import { gfx10 } from '../../src/amd/isa/gfx10/index.js';
import { POPS_ENTER, POPS_EXIT } from '../../src/amd/gfx/pops-asm.js';

const LLVM: Record<'gfx103' | 'gfx11', Record<string, number[]>> = {
  gfx103: {
    's_bitcmp1_b32 s0, 31': [0x00, 0x9f, 0x0d, 0xbf],
    's_bfe_u32 s1, s0, 0x2001c': [0x00, 0xff, 0x81, 0x93, 0x1c, 0x00, 0x02, 0x00],
    's_lshl_b32 s1, s1, 1': [0x01, 0x81, 0x01, 0x8f],
    's_or_b32 s1, s1, 1': [0x01, 0x81, 0x01, 0x88],
    's_setreg_b32 hwreg(HW_REG_POPS_PACKER, 0, 3), s1': [0x19, 0x10, 0x81, 0xb9],
    's_and_b32 s2, s0, 0x3ff': [0x00, 0xff, 0x02, 0x87, 0xff, 0x03, 0x00, 0x00],
    's_not_b32 s2, s2': [0x02, 0x07, 0x82, 0xbe],
    's_bfe_u32 s3, s0, 0xa0010': [0x00, 0xff, 0x83, 0x93, 0x10, 0x00, 0x0a, 0x00],
    's_add_i32 s3, s3, s2': [0x03, 0x02, 0x03, 0x81],
    's_add_i32 s4, src_pops_exiting_wave_id, s2': [0xef, 0x02, 0x04, 0x81],
    's_cmp_gt_u32 s4, s3': [0x04, 0x03, 0x08, 0xbf],
    's_sleep 0xffff': [0xff, 0xff, 0x8e, 0xbf],
    's_waitcnt vmcnt(0) lgkmcnt(0)': [0x70, 0x00, 0x8c, 0xbf],
    's_waitcnt_vscnt null, 0x0': [0x00, 0x00, 0xfd, 0xbb],
    's_sendmsg sendmsg(MSG_ORDERED_PS_DONE)': [0x07, 0x00, 0x90, 0xbf],
  },
  gfx11: {
    's_wait_event 0x0': [0x00, 0x00, 0x8b, 0xbf],
    's_waitcnt vmcnt(0) lgkmcnt(0)': [0x07, 0x00, 0x89, 0xbf],
    's_waitcnt_vscnt null, 0x0': [0x00, 0x00, 0x7c, 0xbc],
    'exp mrt0 off, off, off, off done': [0x00, 0x08, 0x00, 0xf8, 0x00, 0x00, 0x00, 0x00],
  },
};

const bytes = (words: number[]): number[] => words.flatMap((w) => [w & 0xff, (w >>> 8) & 0xff, (w >>> 16) & 0xff, w >>> 24]);

for (const [gen, target] of [['gfx103', gfx10], ['gfx11', gfx11]] as const) {
  test(`${gen}: the POPS entering and exiting sequences assemble to llvm-mc's encodings`, () => {
    const lines = `${POPS_ENTER[gen]}\n${POPS_EXIT[gen]}`.split('\n').map((l) => l.trim()).filter((l) => l && !l.endsWith(':') && !/^s_(cbranch|branch)/.test(l));
    assert.deepEqual(lines.filter((l) => !(l in LLVM[gen])), [], 'every line has a recorded encoding');
    for (const l of lines) assert.deepEqual(bytes(assembleLine(target, l)), LLVM[gen][l], l);
  });
}
