/**
 * The Node adapter of parallel.ts: workers are worker_threads running parallel-worker-node.js.
 * (A browser build supplies the same WorkerHost made of Web Workers.)
 */
import type * as WorkerThreads from 'node:worker_threads';
import { availableParallelism, loadavg } from 'node:os';
import { readFileSync } from 'node:fs';
import type { CpuTimes, WorkerAnswer, WorkerHost, WorkerPort } from './parallel.js';
import { freshBundle } from './code-cache-node.js';

/**
 * CPU milliseconds the calling thread has run, from Linux's /proc/thread-self/schedstat
 * (nanoseconds; Node 20 has no per-thread CPU clock), or undefined where that file is missing.
 */
export const threadCpuMs: (() => number) | undefined = (() => {
  const file = '/proc/thread-self/schedstat';
  const read = () => Number(readFileSync(file, 'latin1').split(' ', 1)[0]) / 1e6;
  try {
    return Number.isFinite(read()) ? read : undefined;
  } catch {
    return undefined;
  }
})();

/**
 * The machine's CPU time, idle (idle + iowait) and in all, in clock ticks summed over its cores,
 * from the first line of Linux's /proc/stat; undefined where that file is missing.
 */
export const cpuTimes: (() => CpuTimes) | undefined = (() => {
  const read = (): CpuTimes => {
    const f = readFileSync('/proc/stat', 'latin1');
    const v = f.slice(0, f.indexOf('\n')).trim().split(/\s+/).slice(1, 9).map(Number);
    return { idle: v[3]! + v[4]!, total: v.reduce((a, b) => a + b, 0) };
  };
  try {
    return Number.isFinite(read().total) ? read : undefined;
  } catch {
    return undefined;
  }
})();

export function nodeWorkerHost(): WorkerHost {
  return {
    cores: availableParallelism(),
    ...(threadCpuMs ? { threadCpuMs } : {}),
    ...(cpuTimes ? { cpuTimes } : {}),
    // Linux/macOS: the 1-minute load average (Windows reports 0: no reading, workers start as before).
    load: () => loadavg()[0]!,
    spawn(): WorkerPort {
      // The one-file worker through V8's code cache when the build made one (parallel-worker-bundle.ts).
      const script = freshBundle('gpusim-worker.cjs') !== null ? './parallel-worker-bundle.js' : './parallel-worker-node.js';
      // Loaded on first use: a single-threaded run (most) does not pay for the module (~1.5 ms).
      const { Worker } = process.getBuiltinModule('node:worker_threads') as typeof WorkerThreads;
      const w = new Worker(new URL(script, import.meta.url));
      return {
        post: (m) => w.postMessage(m),
        onMessage: (cb) => void w.on('message', (m: WorkerAnswer) => cb(m)),
        onError: (cb) => void w.on('error', cb),
        terminate: () => void w.terminate(),
      };
    },
  };
}
