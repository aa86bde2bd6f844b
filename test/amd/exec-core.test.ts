/** The execution core on a single wave: operand rules, EXEC, branches, PC semantics. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runAsm, CODE_VA } from './exec-harness.js';

test('s_add_u32 carries into SCC and s_addc_u32 consumes it', () => {
  const r = runAsm('s_add_u32 s2, s0, s1\ns_addc_u32 s3, 0, 0\ns_endpgm', { sgpr: { 0: 0xffffffff, 1: 2 } });
  assert.equal(r.s(2), 1);
  assert.equal(r.s(3), 1);
});

test('s_getpc_b64 returns the address of the next instruction', () => {
  const r = runAsm('s_nop 0\ns_getpc_b64 s[4:5]\ns_endpgm');
  assert.equal(r.s(4) + r.s(5) * 2 ** 32, CODE_VA + 8);
});

test('branch target is the next PC + simm16 * 4', () => {
  // s_branch 1 skips one dword: the s_mov_b32 s0, 1 is not executed.
  const r = runAsm('s_branch 1\ns_mov_b32 s0, 1\ns_endpgm', { sgpr: { 0: 7 } });
  assert.equal(r.s(0), 7);
});

test('VALU respects EXEC and writes only active lanes', () => {
  const r = runAsm('v_add_nc_u32 v1, v0, 10\ns_endpgm', { vgpr: { 0: [1, 2, 3, 4], 1: 99 }, exec: 0b0101 });
  assert.deepEqual([r.v(1, 0), r.v(1, 1), r.v(1, 2), r.v(1, 3)], [11, 99, 13, 99]);
});

test('TTMP writes outside a trap handler are ignored and leave SCC alone; TTMP reads give 0', () => {
  const r = runAsm('s_add_u32 ttmp0, s0, s1\ns_mov_b32 s2, ttmp1\ns_endpgm', { sgpr: { 0: 0xffffffff, 1: 1, 108: 5, 109: 6 }, scc: 0 });
  assert.equal(r.s(108), 5);
  assert.equal(r.wave.scc, 0);
  assert.equal(r.s(2), 0);
  const p = runAsm('s_add_u32 ttmp0, s0, s1\ns_mov_b32 s2, ttmp1\ns_endpgm', { sgpr: { 0: 0xffffffff, 1: 1, 109: 6 }, status: 0x20 /* STATUS.PRIV */ });
  assert.equal(p.s(108), 0);
  assert.equal(p.wave.scc, 1);
  assert.equal(p.s(2), 6);
});

test('NULL as a destination drops the value but still updates SCC', () => {
  const r = runAsm('s_and_b32 null, s0, s1\ns_endpgm', { sgpr: { 0: 3, 1: 1 } });
  assert.equal(r.wave.scc, 1);
  assert.equal(r.s(124), 0);
});

test('s_and_saveexec_b32 saves EXEC and masks it', () => {
  const r = runAsm('s_and_saveexec_b32 s4, s0\ns_endpgm', { sgpr: { 0: 0b1100 }, exec: 0b1010 });
  assert.equal(r.s(4), 0b1010);
  assert.equal(r.s(126), 0b1000);
  assert.equal(r.wave.scc, 1);
});

test('a compare writes VCC with one bit per active lane', () => {
  const r = runAsm('v_cmp_gt_u32 vcc_lo, v0, v1\ns_endpgm', { vgpr: { 0: [5, 1, 7, 0], 1: [1, 5, 7, 0] }, exec: 0xf });
  assert.equal(r.s(106), 0b0001);
});

test('an out-of-range destination VGPR makes the instruction a NOP, with a diagnostic', () => {
  const r = runAsm('v_mov_b32 v9, 1\ns_endpgm', { vgprs: 8, vgpr: { 0: 0 } });
  assert.ok(r.diags.some((d) => d.id === 'gfx11.vgpr.dst-out-of-range'));
  const clean = runAsm('v_mov_b32 v7, 1\ns_endpgm', { vgprs: 8 });
  assert.equal(clean.diags.length, 0);
  assert.equal(clean.v(7), 1);
});
