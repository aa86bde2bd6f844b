/** The all-cores runner of the RDNA3 benchmark: src/runtime/parallel.ts on worker_threads. */
import { ParallelPool } from '../src/runtime/parallel.js';
import { nodeWorkerHost } from '../src/runtime/parallel-node.js';
import type { RdnaRunner, RssPeak } from './rdna3.js';

export function parallelRunner(threads: number, rss: RssPeak): RdnaRunner & { close(): void; lastThreads: number; lastReason: string } {
  // The main thread runs one slice itself: it only waits otherwise (bench/README, 'memory, round 2').
  const pool = new ParallelPool(nodeWorkerHost(), threads, { callerSlice: true });
  void rss;
  const r = {
    label: `${threads} threads`, threads, lastThreads: threads, lastReason: '',
    async run(c: Parameters<RdnaRunner['run']>[0]) {
      const out = await pool.run(c.launch);
      r.lastThreads = out.parallel.threads;
      r.lastReason = out.parallel.reason ?? '';
      return out;
    },
    close: () => pool.close(),
  };
  return r;
}
