/**
 * EXP outside a graphics stage and the export rules that need no pipeline: a compute wave has no
 * export sink (`amd.exp.no-sink`, the export is dropped), STATUS.SKIP_EXPORT and EXEC == 0 skip
 * non-done exports silently, and a source VGPR past the allocation is diagnosed at bind time.
 * The graphics cases (sinks per stage, done/pos0 with EXEC == 0) are in test/runtime/draw.test.ts.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runAsm } from './exec-harness.js';
import { expTargetKind } from '../../src/amd/exec/exp.js';

test('exp from a compute wave reports amd.exp.no-sink once per export and the wave continues', () => {
  const r = runAsm('exp mrt0 v0, v1, v2, v3 done\nv_mov_b32 v4, 7\ns_endpgm');
  assert.deepEqual(r.diags.map((d) => d.id), ['amd.exp.no-sink']);
  assert.equal(r.v(4, 0), 7);
});

test('exp with EXEC == 0 (not done, not pos0) or STATUS.SKIP_EXPORT is skipped: nothing is reported', () => {
  assert.deepEqual(runAsm('exp mrt0 v0, v1, v2, v3\ns_endpgm', { exec: 0 }).diags.map((d) => d.id), []);
  assert.deepEqual(runAsm('exp mrt0 v0, v1, v2, v3 done\ns_endpgm', { status: 1 << 18 }).diags.map((d) => d.id), []);
  // done with EXEC == 0 still issues (and so finds no sink here).
  assert.deepEqual(runAsm('exp mrt0 v0, v1, v2, v3 done\ns_endpgm', { exec: 0 }).diags.map((d) => d.id), ['amd.exp.no-sink']);
  assert.deepEqual(runAsm('exp pos0 v0, v1, v2, v3\ns_endpgm', { exec: 0 }).diags.map((d) => d.id), ['amd.exp.no-sink']);
});

test('exp source VGPR past the allocation is diagnosed (reads VGPR0)', () => {
  const r = runAsm('exp mrt0 v0, off, off, v9 done\ns_endpgm', { vgprs: 8 });
  assert.ok(r.diags.some((d) => d.id === 'gfx11.vgpr.src-out-of-range'));
});

test('export target kinds come from the generated target names', () => {
  assert.deepEqual(expTargetKind('mrt3'), ['mrt', 3]);
  assert.deepEqual(expTargetKind('pos0'), ['pos', 0]);
  assert.deepEqual(expTargetKind('prim'), ['prim', 0]);
  assert.deepEqual(expTargetKind('mrtz'), ['mrtz', 0]);
  assert.deepEqual(expTargetKind('invalid_target_9'), ['invalid', 0]);
});
