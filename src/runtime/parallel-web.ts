/**
 * The browser adapter of parallel.ts: workers are Web Workers running parallel-worker-web.js
 * (a module worker), the same message protocol as the Node adapter (parallel-node.ts): the main
 * side posts a SliceRequest, whose SharedArrayBuffers are shared (the page must be cross-origin
 * isolated for SharedArrayBuffer), and the worker answers with a SliceResult.
 *
 * The few Web Worker types used are declared here, so the file type-checks without the DOM libs.
 */
import type { WorkerAnswer, WorkerHost, WorkerPort, WorkerRequest } from './parallel.js';

/** The part of a Web Worker (main-thread side) the adapter uses. */
export interface WebWorkerLike {
  postMessage(msg: unknown): void;
  addEventListener(type: 'message', cb: (e: { readonly data: unknown }) => void): void;
  addEventListener(type: 'error', cb: (e: { readonly message?: string }) => void): void;
  terminate(): void;
}

/** The part of a worker's global scope (worker side) the slice server uses. */
export interface WorkerScopeLike {
  postMessage(msg: unknown): void;
  addEventListener(type: 'message', cb: (e: { readonly data: unknown }) => void): void;
}

type WorkerCtor = new (url: URL, opts: { type: 'module' }) => WebWorkerLike;

export interface WebWorkerHostOptions {
  /** Threads to use (default navigator.hardwareConcurrency, else 1). */
  readonly cores?: number;
  /** Makes one worker (default: a module Worker running parallel-worker-web.js). */
  readonly create?: () => WebWorkerLike;
}

/** A WorkerHost made of Web Workers. */
export function webWorkerHost(opts: WebWorkerHostOptions = {}): WorkerHost {
  const g = globalThis as { navigator?: { hardwareConcurrency?: number }; Worker?: WorkerCtor };
  const create = opts.create ?? (() => {
    if (g.Worker === undefined) throw new Error('no Web Worker constructor in this environment');
    return new g.Worker(new URL('./parallel-worker-web.js', import.meta.url), { type: 'module' });
  });
  return {
    cores: opts.cores ?? Math.max(1, g.navigator?.hardwareConcurrency ?? 1),
    spawn(): WorkerPort {
      const w = create();
      return {
        post: (m: WorkerRequest) => w.postMessage(m),
        onMessage: (cb) => w.addEventListener('message', (e) => cb(e.data as WorkerAnswer)),
        onError: (cb) => w.addEventListener('error', (e) => cb(new Error(e.message ?? 'Web Worker error'))),
        terminate: () => w.terminate(),
      };
    },
  };
}
