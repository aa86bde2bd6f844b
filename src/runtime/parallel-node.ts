/**
 * The Node adapter of parallel.ts: workers are worker_threads running parallel-worker-node.js.
 * (A browser build supplies the same WorkerHost made of Web Workers.)
 */
import { Worker } from 'node:worker_threads';
import { availableParallelism } from 'node:os';
import type { SliceResult, WorkerHost, WorkerPort } from './parallel.js';

export function nodeWorkerHost(): WorkerHost {
  return {
    cores: availableParallelism(),
    spawn(): WorkerPort {
      const w = new Worker(new URL('./parallel-worker-node.js', import.meta.url));
      return {
        post: (m) => w.postMessage(m),
        onMessage: (cb) => void w.on('message', (m: SliceResult) => cb(m)),
        onError: (cb) => void w.on('error', cb),
        terminate: () => void w.terminate(),
      };
    },
  };
}
