/**
 * The worker script when the build made the one-file worker (dist/gpusim-worker.cjs, the bundle of
 * parallel-worker-node.js): it runs that file through V8's code cache (code-cache-node.ts), which
 * starts a worker in ~0.36 s of CPU instead of ~0.57 s for the separate modules (fresh process,
 * loaded machine). parallel-node.ts spawns this only when the bundle is fresh.
 */
import { freshBundle, runBundle } from './code-cache-node.js';

/** Whether the bundle runs (it listens for slices from then on); false: load the separate modules. */
function fromBundle(): boolean {
  const file = freshBundle('gpusim-worker.cjs');
  if (file === null) return false;
  try {
    runBundle(file, 'worker').saveCache();
    return true;
  } catch {
    return false;
  }
}

if (!fromBundle()) await import('./parallel-worker-node.js');
