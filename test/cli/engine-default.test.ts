/**
 * `gpusim run` with no --engine: the fast engine, but a grid of fewer waves than tier.ts's
 * tiering.firstCalls starts each op on its reference handler (Program.firstCalls), so a kernel of a
 * few waves builds no block and compiles nothing it would barely run. Its run.json is
 * --engine fast's and --engine interp's byte for byte but for the timing.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const ROOT = new URL('../../..', import.meta.url).pathname;
const BIN = join(ROOT, 'bin/gpusim.cjs');

function run(manifest: string, ...extra: string[]): { report: string; blocks: number } {
  const r = spawnSync(process.execPath, [BIN, 'run', join(ROOT, 'kernels/manifests', manifest), '--json', ...extra], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  const j = JSON.parse(r.stdout) as Record<string, unknown>;
  const blocks = (j['timing'] as { blocks: number }).blocks;
  delete j['timing'];
  delete j['timeMs'];
  return { report: JSON.stringify(j), blocks };
}

test('run: no --engine, a grid of four waves: reference handlers first, the bytes of --engine fast and interp', () => {
  // int64_ops: straight code, four waves.
  const def = run('int64_ops.json');
  const fast = run('int64_ops.json', '--engine', 'fast');
  const interp = run('int64_ops.json', '--engine', 'interp');
  assert.equal(def.report, fast.report);
  assert.equal(def.report, interp.report);
  assert.equal(def.blocks, 0, 'no block built');
  assert.ok(fast.blocks > 0, '--engine fast builds its blocks at once');
  assert.equal(interp.blocks, 0);
});

test('run: no --engine, a loop in a grid of eight waves: its blocks are built (visited more often than waves were launched)', () => {
  const def = run('collatz.json');
  const interp = run('collatz.json', '--engine', 'interp');
  assert.equal(def.report, interp.report);
  assert.ok(def.blocks > 0, 'the loop was built');
});

test('run --pm4: no --engine, the same rule (the command processor launches the grid)', () => {
  for (const pm4 of ['direct', 'indirect']) {
    const def = run('int64_ops.json', '--pm4', pm4);
    const fast = run('int64_ops.json', '--pm4', pm4, '--engine', 'fast');
    assert.equal(def.report, fast.report, pm4);
    assert.equal(def.blocks, 0, `${pm4}: no block built`);
    assert.ok(fast.blocks > 0, `${pm4}: --engine fast builds its blocks at once`);
  }
});
