// Shared by the wasm tier's tests (engine-wasm-global, engine-wasm-salu): bench kernels run under
// seeded random quanta (turns cut inside translated runs and resumed there) on the interpreter and
// on the fast engine with the tier on and every block compiled, compared buffer for buffer, report
// for report and wave for wave. (Loaded as a test file too: it declares no test.)
import assert from 'node:assert/strict';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { snap, diffSnap, type WaveSnap } from './engine-state.js';
import { hotRun, setWasmTier, wasmTier } from '../../src/amd/engine/wasm/tier.js';
import { tiering } from '../../src/amd/engine/tier.js';
import { benchCases } from '../../bench/cases.js';
import { runKernel } from '../../src/runtime/run.js';
import type { Engine } from '../../src/amd/engine/env.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

/**
 * The small bench cases named in `names`, each run both ways under `seed`'s random quanta; `hot`:
 * every run translated as a hot run at once (tier.ts hotRun), else as the tier does.
 */
export function kernelsMatchInterp(names: readonly string[], seed: number, hot = false): void {
  for (const c of benchCases({ root: ROOT, small: true, only: (n) => names.includes(n) })) {
    const go = (engine: Engine) => {
      const waves = new Map<number, WaveSnap>();
      const r = runKernel({ ...c.launch }, { engine, order: 'random', seed, onWaveEnd: (w) => void waves.set(w.id, snap(w)) });
      return { r, waves };
    };
    const a = go('interp');
    const saved = tiering.visitsPerByteOp;
    tiering.visitsPerByteOp = 0;
    const was = wasmTier.on;
    const calls = hotRun.calls;
    setWasmTier(true);
    if (hot) hotRun.calls = 0;
    let b: ReturnType<typeof go>;
    try {
      b = go('fast');
    } finally {
      tiering.visitsPerByteOp = saved;
      setWasmTier(was);
      hotRun.calls = calls;
    }
    for (const k of Object.keys(a.r.buffers)) assert.ok(Buffer.from(a.r.buffers[k]!).equals(Buffer.from(b.r.buffers[k]!)), `${c.name}: buffer ${k}`);
    const { timeMs: _ta, ...ra } = a.r.report;
    const { timeMs: _tb, ...rb } = b.r.report;
    assert.deepEqual(rb, ra, `${c.name}: run reports`);
    for (const [id, wa] of a.waves) assert.equal(diffSnap(wa, b.waves.get(id)!), null, `${c.name} wave ${id}`);
  }
}
