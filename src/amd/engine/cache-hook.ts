/**
 * The optional memory-hierarchy hook of the executor (`ExecEnv.cacheHook`). Vector memory
 * instructions are wrapped at bind time only when the environment carries a hook, so runs without
 * one (every compute dispatch) execute the unwrapped handlers and pay nothing. The POPS runner
 * attaches the L0/L1/L2 model of src/amd/gfx/pops-cache.ts through it.
 */
import type { Instruction } from '../isa/types.js';
import type { Wave } from '../wave/wave.js';
import { CPOL, type ExecEnv } from './types.js';
export type { CacheHook } from './types.js';
export { CPOL } from './types.js';

/** Wrap a bound memory instruction so the hook sees its cache policy (identity without a hook). */
export function withCachePolicy<B extends { readonly run: (w: Wave) => void }>(inst: Instruction, env: ExecEnv, b: B, store: boolean): B {
  const hook = env.cacheHook;
  if (hook === undefined) return b;
  const f = inst.fields;
  const cpol = ((f['glc'] ?? 0) ? CPOL.GLC : 0) | ((f['dlc'] ?? 0) ? CPOL.DLC : 0) | ((f['slc'] ?? 0) ? CPOL.SLC : 0);
  const run = b.run;
  return {
    ...b,
    run: (w: Wave) => {
      hook.begin(w, cpol, store, inst);
      run(w);
      hook.end(w);
    },
  };
}

/**
 * Wrap a bound vector memory atomic: atomics are performed in L2 (the L0/GL1 are bypassed whatever
 * the instruction's bits say; on GFX10+ GLC means "return the pre-op value"), so the hook sees a
 * GLC DLC access whose write applies at once (identity without a hook).
 */
export function withAtomicCaches<B extends { readonly run: (w: Wave) => void }>(inst: Instruction, env: ExecEnv, b: B): B {
  const hook = env.cacheHook;
  if (hook === undefined) return b;
  const run = b.run;
  return {
    ...b,
    run: (w: Wave) => {
      hook.begin(w, CPOL.GLC | CPOL.DLC, false, inst);
      run(w);
      hook.end(w);
    },
  };
}

/** A cache invalidation instruction: tells the hook (a no-op without one). */
export function cacheInvalidate(env: ExecEnv, level: 0 | 1): (w: Wave) => void {
  const hook = env.cacheHook;
  return hook === undefined ? () => {} : (w) => hook.invalidate(w, level);
}
