/**
 * A Web Worker of a parallel run (parallel-web.ts): runs each slice it is sent. Loaded as a module
 * worker it serves its own global scope; `serveSlices` is exported for other scopes (and tests).
 */
import { answer, type WorkerRequest } from './parallel-slice.js';
import type { WorkerScopeLike } from './parallel-web.js';

/** Answer every SliceRequest (or ping) posted to `scope` with its SliceResult. */
export function serveSlices(scope: WorkerScopeLike): void {
  scope.addEventListener('message', (e) => scope.postMessage(answer(e.data as WorkerRequest)));
}

// Inside a dedicated worker (WorkerGlobalScope exists only there), serve this scope.
const g = globalThis as { WorkerGlobalScope?: unknown; postMessage?: unknown; addEventListener?: unknown };
if (g.WorkerGlobalScope !== undefined && typeof g.postMessage === 'function' && typeof g.addEventListener === 'function') {
  serveSlices(globalThis as unknown as WorkerScopeLike);
}
