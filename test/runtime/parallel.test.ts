// Parallel runs (src/runtime/parallel.ts on worker_threads): every benchmark kernel on a small
// grid gives the same output bytes on one thread, under --order random, and split over 2 threads.
// Kernels with global atomics split too (compare-exchange on the shared segments).
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchCases } from '../../bench/cases.js';
import { runKernel } from '../../src/runtime/run.js';
import { ParallelPool } from '../../src/runtime/parallel.js';
import { nodeWorkerHost } from '../../src/runtime/parallel-node.js';
import { Memory } from '../../src/core/memory.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const pool = new ParallelPool(nodeWorkerHost(), 2);
// The same split with the calling thread running the first slice (one worker).
const callerPool = new ParallelPool(nodeWorkerHost(), 2, { callerSlice: true });
after(() => {
  pool.close();
  callerPool.close();
});

test('Memory shared option: segments live in SharedArrayBuffers, initial data copied in', () => {
  const m = new Memory({ shared: true });
  const data = Uint8Array.of(1, 2, 3, 4);
  const a = m.alloc(4, 'a', 256, data);
  const b = m.alloc(8, 'b');
  assert.ok(a.u8.buffer instanceof SharedArrayBuffer);
  assert.ok(b.u8.buffer instanceof SharedArrayBuffer);
  assert.equal(m.read32(a.base), 0x04030201);
  m.write8(a.base, 9);
  assert.equal(data[0], 1, 'the caller keeps its own array');
  assert.ok(!(new Memory().alloc(4).u8.buffer instanceof SharedArrayBuffer), 'plain memory is unchanged');
});

for (const c of benchCases({ root: ROOT, small: true })) {
  test(`parallel ${c.name}: bit-identical to one thread and to --order random`, async () => {
    const one = runKernel(c.launch);
    assert.equal(one.report.aborted, false);
    assert.equal(c.check(one.buffers), null);
    const rnd = runKernel(c.launch, { order: 'random', seed: 7 });
    const par = await pool.run(c.launch);
    const parRnd = await pool.run(c.launch, { order: 'random', seed: 3 });
    const parCaller = await callerPool.run(c.launch);
    assert.equal(par.parallel.threads, 2, par.parallel.reason);
    assert.equal(parCaller.parallel.threads, 2, parCaller.parallel.reason);
    for (const r of [rnd, par, parRnd, parCaller]) {
      assert.equal(r.report.aborted, false);
      assert.equal(r.report.waveInstructions, one.report.waveInstructions);
      assert.equal(r.report.laneOperations, one.report.laneOperations);
      assert.equal(r.report.workgroups, one.report.workgroups);
      for (const name of Object.keys(one.buffers)) assert.deepEqual(r.buffers[name], one.buffers[name], `${c.name}: buffer ${name}`);
      assert.deepEqual(r.report.diagnosticCounts, one.report.diagnosticCounts);
    }
  });
}

test('global atomics on shared memory: two threads hammering one dword lose no update', async () => {
  const { Worker } = await import('node:worker_threads');
  const m = new Memory({ shared: true });
  const seg = m.alloc(16, 'counter');
  const N = 200_000;
  const vmem = new URL('../../src/amd/exec/vmem.js', import.meta.url).href;
  const mem = new URL('../../src/core/memory.js', import.meta.url).href;
  // Each thread maps the same SharedArrayBuffer and runs N atomic adds and N 64-bit adds through
  // the helpers the global/flat/buffer atomics use.
  const src = `
    const { workerData, parentPort } = require('node:worker_threads');
    Promise.all([import(${JSON.stringify(vmem)}), import(${JSON.stringify(mem)})]).then(([v, M]) => {
      const m = new M.Memory();
      m.map(workerData.base, 16, 'counter', new Uint8Array(workerData.sab, workerData.offset, 16));
      const w = { mem: m };
      for (let i = 0; i < workerData.n; i++) {
        v.memAtomic32(w, workerData.base, v.ATOMIC32.add, 1, 0);
        v.memAtomic64(w, workerData.base + 8, v.ATOMIC64.add, 0x80000000, 0, 0, 0);
      }
      parentPort.postMessage('done');
    });`;
  const run = () => new Promise<void>((ok, fail) => {
    const t = new Worker(src, { eval: true, workerData: { sab: seg.u8.buffer, offset: seg.u8.byteOffset, base: seg.base, n: N } });
    t.on('message', () => void t.terminate().then(() => ok()));
    t.on('error', fail);
  });
  await Promise.all([run(), run()]);
  assert.equal(m.read32(seg.base), 2 * N);
  assert.equal(m.read64(seg.base + 8), 2 * N * 0x80000000);
});
