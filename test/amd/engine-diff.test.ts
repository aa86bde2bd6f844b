// Differential test of the execution engines (issue 4): every benchmark kernel runs through the
// reference interpreter (engine 'interp') and the fast path (engine 'fast'); every output byte,
// the run report (counts, classes, diagnostics) and the final state of every wave must be equal.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchCases } from '../../bench/cases.js';
import { runKernel, type KernelRun } from '../../src/runtime/run.js';
import type { Engine } from '../../src/amd/engine/env.js';
import { snap, diffSnap, type WaveSnap } from './engine-state.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

function run(launch: Parameters<typeof runKernel>[0], engine: Engine, order: 'roundrobin' | 'random'): { r: KernelRun; waves: Map<number, WaveSnap> } {
  const waves = new Map<number, WaveSnap>();
  const r = runKernel(launch, { engine, order, seed: 5, onWaveEnd: (w) => void waves.set(w.id, snap(w)) });
  return { r, waves };
}

for (const c of benchCases({ root: ROOT, small: true })) {
  for (const order of ['roundrobin', 'random'] as const) {
    test(`engine-diff ${c.name} (${order}): fast == interp, outputs and every wave's final state`, () => {
      const a = run(c.launch, 'interp', order);
      const b = run(c.launch, 'fast', order);
      assert.equal(a.r.report.aborted, false);
      assert.equal(c.check(a.r.buffers), null, 'the reference run matches the CPU reference');
      assert.deepEqual(Object.keys(b.r.buffers).sort(), Object.keys(a.r.buffers).sort());
      for (const k of Object.keys(a.r.buffers)) assert.ok(Buffer.from(a.r.buffers[k]!).equals(Buffer.from(b.r.buffers[k]!)), `buffer ${k} differs`);
      const { timeMs: _ta, ...ra } = a.r.report;
      const { timeMs: _tb, ...rb } = b.r.report;
      assert.deepEqual(rb, ra, 'run reports (instruction/lane counts, classes, diagnostics)');
      assert.ok(a.waves.size > 0);
      assert.equal(b.waves.size, a.waves.size);
      for (const [id, wa] of a.waves) {
        const wb = b.waves.get(id);
        assert.ok(wb, `wave ${id} missing from the fast run`);
        const d = diffSnap(wa, wb);
        assert.equal(d, null, `wave ${id}: ${d}`);
      }
    });
  }
}
