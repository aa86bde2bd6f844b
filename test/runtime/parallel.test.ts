// Parallel runs (src/runtime/parallel.ts on worker_threads): every benchmark kernel on a small
// grid gives the same output bytes on one thread, under --order random, and split over 2 threads.
// Kernels with global atomics must fall back to one thread (and still match).
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchCases } from '../../bench/cases.js';
import { runKernel } from '../../src/runtime/run.js';
import { ParallelPool } from '../../src/runtime/parallel.js';
import { nodeWorkerHost } from '../../src/runtime/parallel-node.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const pool = new ParallelPool(nodeWorkerHost(), 2);
after(() => pool.close());

for (const c of benchCases({ root: ROOT, small: true })) {
  test(`parallel ${c.name}: bit-identical to one thread and to --order random`, async () => {
    const one = runKernel(c.launch);
    assert.equal(one.report.aborted, false);
    assert.equal(c.check(one.buffers), null);
    const rnd = runKernel(c.launch, { order: 'random', seed: 7 });
    const par = await pool.run(c.launch);
    const parRnd = await pool.run(c.launch, { order: 'random', seed: 3 });
    if (c.name === 'histogram') assert.equal(par.parallel.threads, 1, 'global atomics run on one thread');
    else assert.equal(par.parallel.threads, 2, par.parallel.reason);
    for (const r of [rnd, par, parRnd]) {
      assert.equal(r.report.aborted, false);
      assert.equal(r.report.waveInstructions, one.report.waveInstructions);
      assert.equal(r.report.laneOperations, one.report.laneOperations);
      assert.equal(r.report.workgroups, one.report.workgroups);
      for (const name of Object.keys(one.buffers)) assert.deepEqual(r.buffers[name], one.buffers[name], `${c.name}: buffer ${name}`);
      assert.deepEqual(r.report.diagnosticCounts, one.report.diagnosticCounts);
    }
  });
}
