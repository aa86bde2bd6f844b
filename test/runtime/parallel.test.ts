// Parallel runs (src/runtime/parallel.ts on worker_threads): every benchmark kernel on a small
// grid gives the same output bytes on one thread, under --order random, and split over 2 threads
// both ways (threads pulling chunks from a shared counter, the default, and fixed equal slices),
// with and without the calling thread running a slice. Kernels with global atomics split too
// (compare-exchange on the shared segments).
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchCases } from '../../bench/cases.js';
import { runKernel } from '../../src/runtime/run.js';
import { ParallelPool, LateJoinRule, DECIDE_AFTER_MS, RATE_WINDOW_MS, RATE_WINDOWS, WORKER_PAYS_MS, IDLE_PER_WORKER, CONTENDED_PAYS } from '../../src/runtime/parallel.js';
import { nodeWorkerHost } from '../../src/runtime/parallel-node.js';
import { Memory } from '../../src/core/memory.js';
import { wasmTier } from '../../src/amd/engine/wasm/tier.js';
import { heapShared } from '../../src/amd/engine/wasm/heap.js';

// Split runs lay small segments out in the wasm heap when the tier is on (parallel-heap.test.ts).
const heapOn = wasmTier.on && heapShared();
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
// Dynamic split, two workers; 4 chunks per thread so even the small grids (4-16 groups) take
// several chunks and interleave between the threads.
const pool = new ParallelPool(nodeWorkerHost(), 2, { chunksPerThread: 4 });
// The same split with the calling thread pulling chunks too (one worker), as the bench runs it.
// (lateJoin off: the worker always takes part, however fast the caller takes a small grid.)
const callerPool = new ParallelPool(nodeWorkerHost(), 2, { callerSlice: true, chunksPerThread: 4, lateJoin: false });
// Fixed equal slices (the split before the shared counter), kept as a mode to measure against.
const staticPool = new ParallelPool(nodeWorkerHost(), 2, { split: 'static' });
after(() => {
  pool.close();
  callerPool.close();
  staticPool.close();
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
    const parCallerRnd = await callerPool.run(c.launch, { order: 'random', seed: 5 });
    const parStatic = await staticPool.run(c.launch);
    for (const p of [par, parRnd, parCaller, parCallerRnd, parStatic]) {
      assert.equal(p.parallel.threads, 2, p.parallel.reason);
      // Every workgroup ran exactly once, in chunks of consecutive groups.
      const slices = p.parallel.slices ?? [];
      assert.equal(slices.length, 2);
      assert.equal(slices.reduce((a, s) => a + s.groups, 0), one.report.workgroups);
    }
    const chunks = (par.parallel.slices ?? []).reduce((a, s) => a + s.chunks, 0);
    const wg = one.report.workgroups;
    // Chunks of at most wg/8 groups (4 per thread), shrinking towards the end of the grid (guided).
    assert.ok(chunks >= Math.ceil(wg / Math.ceil(wg / 8)) && chunks <= wg, `the dynamic split hands out ${chunks} chunks for ${wg} groups`);
    for (const r of [rnd, par, parRnd, parCaller, parCallerRnd, parStatic]) {
      assert.equal(r.report.aborted, false);
      assert.equal(r.report.waveInstructions, one.report.waveInstructions);
      assert.equal(r.report.laneOperations, one.report.laneOperations);
      assert.equal(r.report.workgroups, one.report.workgroups);
      for (const name of Object.keys(one.buffers)) assert.deepEqual(r.buffers[name], one.buffers[name], `${c.name}: buffer ${name}`);
      assert.deepEqual(r.report.diagnosticCounts, one.report.diagnosticCounts);
    }
  });
}

test('dynamic split: diagnostics come back in workgroup order, as one thread reports them', async () => {
  // vaddmul with input `a` empty and output `d` 512 floats short: the first four workgroups read
  // the guard gap after `a` and the last two store into the one after `d` (unmapped, reported per
  // access). One-group chunks scatter them over both threads.
  const c = benchCases({ root: ROOT, small: true, only: (n) => n === 'vaddmul' })[0]!;
  const cut = { a: 0, d: 2048 } as Record<string, number>;
  const launch = { ...c.launch, buffers: c.launch.buffers.map((b) => (cut[b.name] === undefined ? b : { ...b, data: b.data.subarray(0, cut[b.name] === 0 ? 0 : b.data.length - cut[b.name]!) })) };
  const one = runKernel(launch);
  assert.ok(one.report.diagnostics.length > 0, 'the overrun is reported');
  const fine = new ParallelPool(nodeWorkerHost(), 2, { chunksPerThread: 64 });
  try {
    for (let k = 0; k < 4; k++) {
      const par = await fine.run(launch);
      assert.equal(par.parallel.threads, 2);
      assert.equal((par.parallel.slices ?? []).reduce((a, s) => a + s.chunks, 0), one.report.workgroups, 'one group per chunk');
      assert.deepEqual(par.report.diagnostics, one.report.diagnostics);
      assert.deepEqual(par.report.diagnosticCounts, one.report.diagnosticCounts);
      assert.deepEqual(par.buffers['d'], one.buffers['d']);
    }
  } finally {
    fine.close();
  }
});

test('dynamic split: --max-instructions is the whole run\'s budget, shared by the threads', async () => {
  // vaddmul (thousands of groups) with a budget of 60% of its wave-instructions: one thread stops there;
  // split, the threads stop once together they spent it, past it by at most the chunks in flight
  // (small chunks here: under 1% of the grid each), with one report. Each thread with a budget of
  // its own ran 0.6 of the grid each: the whole grid, or 0.8-0.9 of it when one took more.
  const c = benchCases({ root: ROOT, small: false, only: (n) => n === 'vaddmul' })[0]!;
  const total = runKernel(c.launch).report.waveInstructions;
  const budget = Math.floor(total * 0.6);
  const one = runKernel(c.launch, { maxInstructions: budget });
  assert.equal(one.report.aborted, true);
  assert.equal(one.report.waveInstructions, budget);
  const fine = new ParallelPool(nodeWorkerHost(), 2, { chunksPerThread: 64 });
  try {
    for (let k = 0; k < 2; k++) {
      const par = await fine.run(c.launch, { maxInstructions: budget });
      assert.equal(par.parallel.threads, 2, par.parallel.reason);
      assert.equal(par.report.aborted, true, 'the split stops too');
      const ran = par.report.waveInstructions;
      assert.ok(ran >= budget && ran <= budget + 0.05 * total, `${ran} of ${total} wave-instructions, budget ${budget}`);
      assert.deepEqual(par.report.diagnosticCounts, { 'gpusim.instruction-budget': 1 });
      assert.equal(par.report.diagnostics.length, 1);
    }
    // A budget the run stays within: no stop, the same bytes.
    const all = await fine.run(c.launch, { maxInstructions: total });
    assert.equal(all.report.aborted, false);
    assert.deepEqual(all.buffers['d'], runKernel(c.launch).buffers['d']);
  } finally {
    fine.close();
  }
});

test('SharedArrayBuffer inputs: used in place when adopted, copied otherwise', async () => {
  const c = benchCases({ root: ROOT, small: true, only: (n) => n === 'vaddmul' })[0]!;
  const onSab = (a: Uint8Array) => {
    const s = new Uint8Array(new SharedArrayBuffer(a.length));
    s.set(a);
    return s;
  };
  const one = runKernel(c.launch);
  for (const adopt of [true, false]) {
    const mine = c.launch.buffers.map((b) => ({ ...b, data: onSab(b.data), adopt }));
    const par = await pool.run({ ...c.launch, buffers: mine });
    assert.equal(par.parallel.threads, 2);
    assert.deepEqual(par.buffers['d'], one.buffers['d']);
    const d = mine.find((b) => b.name === 'd')!.data;
    // Adopted: the run wrote into the caller's array (its result is a view of it) unless the
    // segment went into the wasm heap (copied in, the result copied out); else untouched.
    const inPlace = adopt && !heapOn;
    assert.equal(par.buffers['d']!.buffer === d.buffer, inPlace);
    assert.deepEqual(d, inPlace ? one.buffers['d'] : c.launch.buffers.find((b) => b.name === 'd')!.data);
  }
});

test('pool warm(): every worker is spawned and loaded before the first run', async () => {
  const p = new ParallelPool(nodeWorkerHost(), 2);
  try {
    const starts = await p.warm();
    assert.equal(starts.length, 2);
    for (const s of starts) assert.ok(s.spawnToLoadedMs > 0 && Number.isFinite(s.spawnToLoadedMs), `spawn to loaded: ${s.spawnToLoadedMs}`);
    assert.equal((await p.warm()).length, 2, 'a second warm() reuses the same workers');
  } finally {
    p.close();
  }
});

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

// The workers decode with the code object's own target (executableTarget, as runKernel does): a
// gfx1030 or gfx900 kernel split over threads gives the bytes one thread gives.
for (const mcpu of ['gfx1030', 'gfx900']) {
  for (const c of benchCases({ root: ROOT, small: true, only: (n) => n === 'histogram' || n === 'matmul' })) {
    test(`parallel ${c.name} on ${mcpu}: the workers run the code object's target`, async () => {
      const file = c.name === 'matmul' ? 'matmul_naive.co' : 'histogram.co';
      const launch = { ...c.launch, codeObject: new Uint8Array(readFileSync(resolve(ROOT, 'kernels/bin', mcpu, file))) };
      const one = runKernel(launch);
      assert.equal(one.report.target, mcpu);
      assert.equal(c.check(one.buffers), null);
      const par = await pool.run(launch);
      assert.equal(par.parallel.threads, 2);
      assert.equal(par.report.aborted, false);
      assert.equal(c.check(par.buffers), null);
      for (const b of launch.buffers) assert.deepEqual(par.buffers[b.name], one.buffers[b.name], b.name);
    });
  }
}

test('late join rule: decides from DECIDE_AFTER_MS on, once the rate stops rising, at the best recent window rate', () => {
  // 1000 workgroups. A cold start: 10 groups in the first 100 ms (the rest would take 9.9 s at
  // that rate), but no decision before DECIDE_AFTER_MS.
  const r = new LateJoinRule(0);
  assert.equal(r.pays(100, 10, 1000), false);
  assert.equal(r.pays(200, 100, 1000), false);
  // Warming up: 400 groups in the last 100 ms, over RISING times the window before: no decision.
  assert.equal(r.pays(DECIDE_AFTER_MS, 500, 1000), false);
  // A window shorter than RATE_WINDOW_MS is not measured (nor does it move the window).
  assert.equal(r.pays(DECIDE_AFTER_MS + RATE_WINDOW_MS - 1, 501, 1000), false);
  // The grid taken slowly from there on (5 groups a 100 ms window): while the 400-group window is
  // among the last RATE_WINDOWS, the rest is projected at its rate (~120 ms): no worker.
  for (let k = 1; k < RATE_WINDOWS; k++) assert.equal(r.pays(DECIDE_AFTER_MS + 100 * k, 500 + 5 * k, 1000), false, `slow window ${k}`);
  // Then the slow rate is the best recent one: 480 left -> 9.6 s: start one.
  assert.equal(r.pays(DECIDE_AFTER_MS + 100 * RATE_WINDOWS, 500 + 5 * RATE_WINDOWS, 1000), true);
  // The threshold itself, at 1 group per ms over two windows: a rest just over WORKER_PAYS_MS
  // pays, just under does not.
  for (const [rest, pays] of [[WORKER_PAYS_MS - 1, false], [WORKER_PAYS_MS + 1, true]] as const) {
    const g = new LateJoinRule(0);
    assert.equal(g.pays(DECIDE_AFTER_MS - 100, 200, 300 + rest), false, 'measures only, too early');
    assert.equal(g.pays(DECIDE_AFTER_MS, 300, 300 + rest), pays);
  }
});

test('late join rule: with too few idle cores over the window, the rest must be CONTENDED_PAYS times longer', () => {
  // Two cores, one worker needing IDLE_PER_WORKER idle. CPU times in ticks summed over both cores:
  // 100 ticks a window, of which `idle` were idle.
  const cpu = (t: number, idle: number) => ({ idle, total: t });
  // Every window takes 1 group per ms (steady), so the rest is what is left, in ms.
  const rest = 2 * WORKER_PAYS_MS; // pays with an idle core, not under contention
  const idleCore = new LateJoinRule(0, IDLE_PER_WORKER, 2, cpu(0, 0));
  assert.equal(idleCore.pays(DECIDE_AFTER_MS - 100, 200, 300 + rest, cpu(100, 40)), false, 'too early');
  // 45 of the last window's 100 ticks idle: 0.9 cores.
  assert.equal(idleCore.pays(DECIDE_AFTER_MS, 300, 300 + rest, cpu(200, 85)), true);
  const busy = new LateJoinRule(0, IDLE_PER_WORKER, 2, cpu(0, 0));
  busy.pays(DECIDE_AFTER_MS - 100, 200, 300 + rest, cpu(100, 5));
  // 10 of 100 idle: 0.2 cores. It would have paid with an idle core: recorded, the window moves on.
  assert.equal(busy.pays(DECIDE_AFTER_MS, 300, 300 + rest, cpu(200, 15)), false);
  assert.ok(busy.short !== undefined && Math.abs(busy.short - 0.2) < 1e-9, `short ${busy.short}`);
  // The next window is idle: it pays.
  assert.equal(busy.pays(DECIDE_AFTER_MS + 100, 400, 400 + rest, cpu(300, 75)), true);
  // Contended, a rest over CONTENDED_PAYS x WORKER_PAYS_MS still pays (the process's fair share
  // of busy cores grows with its threads).
  const long = new LateJoinRule(0, IDLE_PER_WORKER, 2, cpu(0, 0));
  long.pays(DECIDE_AFTER_MS - 100, 200, 300, cpu(100, 0));
  assert.equal(long.pays(DECIDE_AFTER_MS, 300, 300 + CONTENDED_PAYS * WORKER_PAYS_MS + 1, cpu(200, 0)), true);
  // CPU times given as a reader: read once a window closes, not at every chunk (a fresh dispatch's
  // chunks each read Linux's /proc/stat before).
  let reads = 0;
  const reader = () => cpu(100 * ++reads, 90 * reads);
  const lazy = new LateJoinRule(0, IDLE_PER_WORKER, 2, cpu(0, 0));
  for (let t = 1; t < RATE_WINDOW_MS; t += 7) assert.equal(lazy.pays(t, t, 1000, reader), false);
  assert.equal(reads, 0, 'no read inside a window');
  lazy.pays(DECIDE_AFTER_MS - 100, 200, 300 + rest, reader);
  assert.equal(lazy.pays(DECIDE_AFTER_MS, 300, 300 + rest, reader), true);
  assert.equal(reads, 2);
  // No CPU times (a host without them): the rest alone decides, as before.
  const none = new LateJoinRule(0, IDLE_PER_WORKER, 2);
  none.pays(DECIDE_AFTER_MS - 100, 200, 300 + rest);
  assert.equal(none.pays(DECIDE_AFTER_MS, 300, 300 + rest), true);
});
