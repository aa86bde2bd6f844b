// The Web Worker adapter (src/runtime/parallel-web.ts + parallel-worker-web.ts) with a fake Worker:
// messages cross a structured clone asynchronously, as between a page and its workers, and the
// worker side is the real slice server. A split run must give the bytes a one-thread run gives.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchCases } from '../../bench/cases.js';
import { runKernel } from '../../src/runtime/run.js';
import { ParallelPool } from '../../src/runtime/parallel.js';
import { webWorkerHost, type WebWorkerLike, type WorkerScopeLike } from '../../src/runtime/parallel-web.js';
import { serveSlices } from '../../src/runtime/parallel-worker-web.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

type Listener = (e: { data: unknown; message?: string }) => void;

/** A Worker whose "thread" is a WorkerScopeLike on this thread, reached through structuredClone. */
class FakeWorker implements WebWorkerLike {
  private readonly main = new Map<string, Listener[]>();
  private readonly inner = new Map<string, Listener[]>();
  posted = 0;
  terminated = false;
  constructor(serve: (scope: WorkerScopeLike) => void) {
    const scope: WorkerScopeLike = {
      postMessage: (m) => void setImmediate(() => this.emit(this.main, 'message', { data: structuredClone(m) })),
      addEventListener: (type: string, cb: Listener) => void this.on(this.inner, type, cb),
    };
    serve(scope);
  }
  private on(map: Map<string, Listener[]>, type: string, cb: Listener): void {
    map.set(type, [...(map.get(type) ?? []), cb]);
  }
  private emit(map: Map<string, Listener[]>, type: string, e: { data: unknown; message?: string }): void {
    if (this.terminated) return;
    for (const cb of map.get(type) ?? []) cb(e);
  }
  postMessage(msg: unknown): void {
    this.posted++;
    // SharedArrayBuffers survive structuredClone shared, as postMessage shares them.
    setImmediate(() => this.emit(this.inner, 'message', { data: structuredClone(msg) }));
  }
  addEventListener(type: 'message' | 'error', cb: Listener): void {
    this.on(this.main, type, cb);
  }
  fail(message: string): void {
    this.emit(this.main, 'error', { data: undefined, message });
  }
  terminate(): void {
    this.terminated = true;
  }
}

test('Web Worker adapter: a split run over fake workers gives the one-thread bytes', async () => {
  const made: FakeWorker[] = [];
  const pool = new ParallelPool(webWorkerHost({ cores: 2, create: () => { const w = new FakeWorker(serveSlices); made.push(w); return w; } }));
  assert.equal(pool.threads, 2);
  try {
    for (const c of benchCases({ root: ROOT, small: true, only: (n) => n === 'vaddmul' || n === 'histogram' })) {
      const one = runKernel(c.launch);
      const par = await pool.run(c.launch);
      assert.equal(par.parallel.threads, 2, par.parallel.reason);
      assert.equal(par.report.waveInstructions, one.report.waveInstructions);
      for (const name of Object.keys(one.buffers)) assert.deepEqual(par.buffers[name], one.buffers[name], `${c.name}: ${name}`);
      assert.equal(c.check(par.buffers), null);
    }
  } finally {
    pool.close();
  }
  assert.equal(made.length, 2, 'one worker per thread, kept across runs');
  assert.ok(made.every((w) => w.posted === 2 && w.terminated));
});

test('late join: workers are started only for a long enough grid, and left out when they start after the caller took it', async () => {
  // The fake worker sees its message only after the caller's synchronous slice has taken every
  // workgroup. Not spawned yet: a grid this small never spawns one (no start-up cost). Spawned
  // (warm()): it is sent its slice at once but starts late, so it is left out and not waited for;
  // its slice, when it runs, takes nothing. With lateJoin off the caller waits and it takes part.
  const c = benchCases({ root: ROOT, small: true, only: (n) => n === 'vaddmul' })[0]!;
  const one = runKernel(c.launch);
  const made: FakeWorker[] = [];
  const host = () => webWorkerHost({ cores: 2, create: () => { const w = new FakeWorker(serveSlices); made.push(w); return w; } });
  const late = new ParallelPool(host(), 2, { callerSlice: true, chunksPerThread: 4 });
  const waits = new ParallelPool(host(), 2, { callerSlice: true, chunksPerThread: 4, lateJoin: false });
  try {
    const a = await late.run(c.launch);
    assert.equal(a.parallel.threads, 1);
    assert.match(a.parallel.reason ?? '', /ran out before starting a worker/);
    assert.equal(made.length, 0, 'no worker spawned for a small grid');
    assert.deepEqual(a.buffers['d'], one.buffers['d']);
    await late.warm();
    const b = await late.run(c.launch);
    assert.equal(b.parallel.threads, 1);
    assert.match(b.parallel.reason ?? '', /started after the grid was taken/);
    assert.deepEqual(b.buffers['d'], one.buffers['d']);
    assert.equal(b.report.waveInstructions, one.report.waveInstructions);
    const w = await waits.run(c.launch);
    assert.equal(w.parallel.threads, 2);
    assert.deepEqual(w.buffers['d'], one.buffers['d']);
    assert.equal(w.report.workgroups, one.report.workgroups);
  } finally {
    late.close();
    waits.close();
  }
  assert.equal(made.length, 2);
});

test('Web Worker adapter: a worker error rejects the run', async () => {
  let w: FakeWorker | undefined;
  // A worker that never answers, then fails.
  const pool = new ParallelPool(webWorkerHost({ cores: 2, create: () => (w = new FakeWorker(() => {})) }));
  const c = benchCases({ root: ROOT, small: true, only: (n) => n === 'vaddmul' })[0]!;
  const run = pool.run(c.launch);
  await new Promise((r) => setImmediate(r));
  w!.fail('boom');
  await assert.rejects(run, /boom/);
  pool.close();
});

test('Web Worker adapter: without a Worker constructor, spawning says so', () => {
  const host = webWorkerHost({ cores: 1 });
  assert.equal(host.cores, 1);
  assert.throws(() => host.spawn(), /no Web Worker constructor/);
});
