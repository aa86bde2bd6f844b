// A parallel run's memory in the wasm heap (engine/wasm/heap.ts, runtime/parallel.ts): the calling
// thread lays the segments out in its heap, its own slice runs on that Memory, and each worker
// adopts the heap (posted with the slice) so both threads' GLOBAL accesses run in translated code;
// the threads allocate side by side from the heap's shared bump pointer.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { benchCases } from '../../bench/cases.js';
import { runKernel } from '../../src/runtime/run.js';
import { ParallelPool } from '../../src/runtime/parallel.js';
import { nodeWorkerHost } from '../../src/runtime/parallel-node.js';
import { Memory } from '../../src/core/memory.js';
import { heap, heapAlloc, heapBacking, heapShared } from '../../src/amd/engine/wasm/heap.js';
import { wasmTier } from '../../src/amd/engine/wasm/tier.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const HERE = dirname(fileURLToPath(import.meta.url));
const on = wasmTier.on && heapShared();
const callerPool = new ParallelPool(nodeWorkerHost(), 2, { callerSlice: true, chunksPerThread: 4, lateJoin: false });
// Two workers, no slice on this thread: both adopt this thread's heap.
const workerPool = new ParallelPool(nodeWorkerHost(), 2, { chunksPerThread: 4 });
after(() => {
  callerPool.close();
  workerPool.close();
});

test('a shared Memory backed by the heap: segments in the heap, on its SharedArrayBuffer, marked shared', { skip: !on && 'no shared wasm heap' }, () => {
  const m = new Memory({ shared: true, backing: heapBacking() });
  const data = Uint8Array.of(5, 6, 7, 8);
  const a = m.alloc(4, 'a', 256, data);
  assert.ok(a.heap !== undefined && a.heap > 0, 'in the heap');
  assert.ok(a.u8.buffer instanceof SharedArrayBuffer);
  assert.equal(a.shared, true, 'atomics on it go through Atomics (other threads map it)');
  assert.equal(m.read32(a.base), 0x08070605);
  assert.ok(m.table > 0, 'a segment table for translated accesses');
  // A worker's Memory (a backing that takes only views of the heap) maps any other array in place,
  // out of the heap (a segment outside the calling thread's heap).
  const own = new Uint8Array(new SharedArrayBuffer(8));
  const b = new Memory({ shared: true, backing: heapBacking(new WeakMap()) }).map(0x10_0000_0000, 8, 'b', own);
  assert.equal(b.heap, undefined);
  assert.equal(b.u8.buffer, own.buffer);
  // Unbacked, a segment on a heap-like SharedArrayBuffer is still shared.
  assert.equal(new Memory({ shared: true }).alloc(4).shared, true);
  m.release();
});

for (const name of ['matmul', 'matmul_tiled']) {
  test(`parallel ${name} with the memory in the heap: both threads translate GLOBAL accesses, bytes as one thread`, { skip: !on && 'no shared wasm heap' }, async () => {
    const c = benchCases({ root: ROOT, small: true, only: (n) => n === name })[0]!;
    const one = runKernel(c.launch, { engine: 'interp' });
    // (The fast engine named: left out, this small grid would start on the reference handlers.)
    const fast = { engine: 'fast' } as const;
    for (const par of [await callerPool.run(c.launch, fast), await callerPool.run(c.launch, fast), await workerPool.run(c.launch, fast), await workerPool.run(c.launch, fast)]) {
      assert.equal(par.parallel.threads, 2, par.parallel.reason);
      for (const b of Object.keys(one.buffers)) assert.deepEqual(par.buffers[b], one.buffers[b], `${name}: buffer ${b}`);
      assert.equal(par.report.waveInstructions, one.report.waveInstructions);
      const slices = par.parallel.slices ?? [];
      assert.equal(slices.length, 2);
      // Every thread that ran groups ran (some of) their GLOBAL accesses in translated code (the
      // loop bodies run compiled from their first visit): the caller's slice on the heap-backed
      // Memory, the worker's on the heap it adopted.
      for (const s of slices) if (s.groups > 0) assert.ok(s.wasmGlobal > 0, `a slice of ${s.groups} groups translated ${s.wasmGlobal} GLOBAL accesses`);
    }
  });
}

test('--engine interp in parallel: the memory stays out of the heap and nothing is translated', async () => {
  const c = benchCases({ root: ROOT, small: true, only: (n) => n === 'vaddmul' })[0]!;
  const par = await callerPool.run(c.launch, { engine: 'interp' });
  assert.deepEqual(par.buffers['d'], runKernel(c.launch, { engine: 'interp' }).buffers['d']);
  for (const s of par.parallel.slices ?? []) assert.equal(s.wasmGlobal, 0);
});

test('heap shared by threads: a worker adopts it; blocks allocated side by side never overlap', { skip: !on && 'no shared wasm heap' }, async () => {
  const N = 20000;
  const worker = new Worker(resolve(HERE, 'parallel-heap-worker.js'));
  try {
    const theirs = new Promise<{ adopted: boolean; again: boolean; blocks: [number, number][]; seen: number }>((res, rej) => {
      worker.once('message', res);
      worker.once('error', rej);
    });
    const probe = heapAlloc(64);
    new Int32Array(heap()!.mem.buffer, probe, 1)[0] = 0x5eed;
    const go = new Int32Array(new SharedArrayBuffer(8));
    worker.postMessage({ mem: heap()!.mem, n: N, probe, go: go.buffer });
    // Allocate while the worker does (from when it is ready), sizes varied, the bump pointer contended.
    Atomics.wait(go, 0, 0, 10_000);
    Atomics.store(go, 1, 1);
    const mine: [number, number][] = [];
    for (let i = 0; i < N; i++) {
      const size = 64 * (1 + (i % 7));
      mine.push([heapAlloc(size), size]);
    }
    const r = await theirs;
    assert.ok(r.adopted, 'the worker adopted the heap');
    assert.ok(r.again, 'the same heap posted again is known as the one adopted');
    assert.equal(r.seen, 0x5eed, 'the worker sees what this thread wrote');
    const all = [...mine, ...r.blocks, [probe, 64] as [number, number]].sort((a, b) => a[0] - b[0]);
    for (const [off] of all) assert.ok(off > 0, 'every allocation got a block');
    for (let i = 1; i < all.length; i++) assert.ok(all[i - 1]![0] + all[i - 1]![1] <= all[i]![0], `blocks at ${all[i - 1]![0]} and ${all[i]![0]} overlap`);
    const buf = heap()!.mem.buffer;
    for (const [off, size] of r.blocks) assert.equal(new Int32Array(buf, off, size / 4)[0], off, 'the worker wrote its blocks in this heap');
  } finally {
    await worker.terminate();
  }
});
