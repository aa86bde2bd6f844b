/** The all-cores runner of the RDNA3 benchmark: src/runtime/parallel.ts on worker_threads. */
import { ParallelPool, type ParallelRun, type ParallelPoolOptions } from '../src/runtime/parallel.js';
import { nodeWorkerHost } from '../src/runtime/parallel-node.js';
import { reusedCopies, type RdnaRunner, type RssPeak } from './rdna3.js';
import type { BenchCase } from './cases.js';
import type { KernelLaunch } from '../src/runtime/run.js';

export function parallelRunner(threads: number, rss: RssPeak, opts: ParallelPoolOptions = { callerSlice: true }): RdnaRunner & { close(): void; lastThreads: number; lastReason: string } {
  // By default the main thread runs one slice itself: it only waits otherwise (bench/README,
  // 'memory, round 2'; measured again under "All cores: methodology and load balance").
  const pool = new ParallelPool(nodeWorkerHost(), threads, opts);
  void rss;
  let last: ParallelRun['parallel'] | undefined;
  const r = {
    label: `${threads} threads`, threads, lastThreads: threads, lastReason: '',
    get lastSplit() {
      const p = last;
      if (p?.slices === undefined || p.layoutCpuMs === undefined || p.layoutCpuMs === null) return undefined;
      const workers = p.slices.slice(pool.callerSlice ? 1 : 0);
      if (workers.some((s) => s.loadCpuMs === null || s.runCpuMs === null)) return undefined;
      return { layoutCpuMs: p.layoutCpuMs, workerCpuMs: workers.map((s) => s.loadCpuMs! + s.runCpuMs!) };
    },
    async warm() {
      const t0 = performance.now();
      const starts = await pool.warm();
      return {
        workers: starts.length,
        callerSlice: pool.callerSlice ? 'yes' : 'no',
        split: pool.splitMode,
        ms: Math.round((performance.now() - t0) * 10) / 10,
        // Each worker's thread CPU from spawn to its modules loaded (the cost a cold first run would pay).
        workerCpuMs: starts.map((s) => (s.cpuMs === null ? '-' : s.cpuMs.toFixed(1))).join('/'),
      };
    },
    prepare: reusedCopies(true),
    async run(_c: BenchCase, l: KernelLaunch) {
      const out = await pool.run(l);
      last = out.parallel;
      r.lastThreads = out.parallel.threads;
      r.lastReason = out.parallel.reason ?? '';
      return out;
    },
    close: () => pool.close(),
  };
  return r;
}
