// Tiering (src/amd/engine/tier.ts): the fast engine steps a large block's ops one by one until the
// block is hot, then runs its compiled function, so one dispatch mixes both (waves enter a block
// compiled while others are inside its stepped ops). Every benchmark kernel runs with blocks
// compiled at once, with every block waiting a few visits (compiled mid-dispatch), and with no
// block ever compiled; outputs, run reports and every wave's final state must equal the
// reference interpreter's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchCases } from '../../bench/cases.js';
import { runKernel, type KernelRun } from '../../src/runtime/run.js';
import type { Engine } from '../../src/amd/engine/env.js';
import { engineTime } from '../../src/amd/engine/program.js';
import { hotEntry, tiering, tierStats } from '../../src/amd/engine/tier.js';
import { wasmTier } from '../../src/amd/engine/wasm/tier.js';
import { snap, diffSnap, type WaveSnap } from './engine-state.js';
import { loadCodeObject } from '../../src/formats/amdgpu/codeobject.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

type Launch = Parameters<typeof runKernel>[0];

/** `engine` undefined: the caller chose none (runKernel's default: a small grid starts on the reference handlers). */
function run(launch: Launch, engine: Engine | undefined, order: 'roundrobin' | 'random', co?: ReturnType<typeof loadCodeObject>): { r: KernelRun; waves: Map<number, WaveSnap> } {
  const waves = new Map<number, WaveSnap>();
  // The code object parsed anew (unless given): a Program of its own (dispatch.ts keeps one per
  // code object, and run.ts hands byte-identical code objects the same parsed one), so no block or
  // visit count carries over from another setting.
  assert.ok(launch.codeObject instanceof Uint8Array);
  const r = runKernel({ ...launch, codeObject: co ?? loadCodeObject(launch.codeObject, 'kernel') }, { ...(engine !== undefined ? { engine } : {}), order, seed: 3, onWaveEnd: (w) => void waves.set(w.id, snap(w)) });
  return { r, waves };
}

/** Outputs, run reports and every wave's final state of `b` equal `a`'s. */
function same(a: ReturnType<typeof run>, b: ReturnType<typeof run>, what: string): void {
  for (const k of Object.keys(a.r.buffers)) assert.ok(Buffer.from(a.r.buffers[k]!).equals(Buffer.from(b.r.buffers[k]!)), `${what}: buffer ${k} differs`);
  const { timeMs: _ta, ...ra } = a.r.report;
  const { timeMs: _tb, ...rb } = b.r.report;
  assert.deepEqual(rb, ra, `${what}: run reports (instruction/lane counts, classes, diagnostics)`);
  assert.equal(b.waves.size, a.waves.size);
  for (const [id, wa] of a.waves) {
    const wb = b.waves.get(id);
    assert.ok(wb, `${what}: wave ${id} missing`);
    const d = diffSnap(wa, wb);
    assert.equal(d, null, `${what}: wave ${id}: ${d}`);
  }
}

const SETTINGS = [
  { name: 'every block compiled at once', minBytes: Infinity, visitsPerByteOp: 0 },
  { name: 'every block compiled after a few visits', minBytes: 0, visitsPerByteOp: 0.004 },
  { name: 'no block compiled', minBytes: 0, visitsPerByteOp: 1e9 },
] as const;

for (const c of benchCases({ root: ROOT, small: true })) {
  const order = c.name.length % 2 === 0 ? 'roundrobin' : 'random';
  test(`engine-tier ${c.name} (${order}): fast == interp with blocks compiled at once, mid-dispatch and never`, () => {
    const a = run(c.launch, 'interp', order);
    assert.equal(a.r.report.aborted, false);
    assert.equal(c.check(a.r.buffers), null, 'the reference run matches the CPU reference');
    const saved = { ...tiering };
    try {
      for (const s of SETTINGS) {
        tiering.minBytes = s.minBytes;
        tiering.visitsPerByteOp = s.visitsPerByteOp;
        const blocks0 = engineTime.blocks;
        const b = run(c.launch, 'fast', order);
        if (s.minBytes === Infinity && c.name !== 'empty') assert.ok(engineTime.blocks > blocks0, `${s.name}: blocks were built`);
        same(a, b, s.name);
      }
    } finally {
      Object.assign(tiering, saved);
    }
  });
}

// A wave whose turn was cut inside a block resumes in that block's own function (entered at the
// op it stopped before), so random quanta, which cut blocks everywhere, build no more blocks than
// round-robin turns do, but for a branch target inside a block that a cut may land on (matmul's
// epilogue: the s_cbranch_execz target at 0x188c). Before, each cut position built and compiled a
// suffix block of its own (six more here).
test('engine-tier: the entry op the scheduler reads is not an object literal', () => {
  // A `{ k }` literal shares V8's hidden class with every other `{ k }` literal (simd-int.ts makes
  // them with string values): the first such value generalised the field and deoptimised the
  // scheduler's optimised pass and hotBlockAt mid-dispatch. Its own class keeps its own map.
  assert.notEqual(Object.getPrototypeOf(hotEntry), Object.prototype);
});

test('engine-tier: waves resuming mid-block enter the block, no suffix blocks are built', () => {
  const c = benchCases({ root: ROOT, small: true }).find((x) => x.name === 'matmul');
  assert.ok(c, 'the matmul bench case');
  const saved = { ...tiering };
  try {
    tiering.minBytes = Infinity;
    const built = (order: 'roundrobin' | 'random'): { blocks: number; entered: number } => {
      const b0 = engineTime.blocks;
      const e0 = tierStats.entered;
      const { r } = run(c.launch, 'fast', order);
      assert.equal(c.check(r.buffers), null);
      return { blocks: engineTime.blocks - b0, entered: tierStats.entered - e0 };
    };
    const rnd = built('random');
    const rr = built('roundrobin');
    assert.ok(rnd.entered > 0, 'waves entered blocks mid-way');
    assert.ok(rr.blocks > 0);
    assert.ok(rnd.blocks <= rr.blocks + 1, `${rnd.blocks} blocks built with random quanta, ${rr.blocks} with round-robin turns`);
  } finally {
    Object.assign(tiering, saved);
  }
});

// The engine left to runKernel: a grid of fewer waves than tiering.firstCalls starts each op on
// its reference handler and builds no block at a PC visited fewer times, but in a loop (visited
// more often than waves were launched). With firstCalls above every small case's waves, straight
// code stays on the reference handlers while loop ops get their fast handlers and blocks
// mid-dispatch (others' waves still stepping them); the same code object run again (its kept
// Program's counts go on) takes its blocks then. Every run equals the interpreter's.
for (const c of benchCases({ root: ROOT, small: true })) {
  const order = c.name.length % 2 === 0 ? 'random' : 'roundrobin';
  test(`engine-tier ${c.name} (${order}): engine left out, reference handlers first == interp`, () => {
    const a = run(c.launch, 'interp', order);
    const saved = { ...tiering };
    try {
      tiering.firstCalls = 255;
      assert.ok(c.launch.codeObject instanceof Uint8Array);
      const co = loadCodeObject(c.launch.codeObject, 'kernel');
      const blocks = [engineTime.blocks];
      const calls0 = wasmTier.calls;
      for (let k = 0; k < 3; k++) {
        same(a, run(c.launch, undefined, order, co), `run ${k + 1}`);
        blocks.push(engineTime.blocks);
        if (k === 0 && c.name === 'matmul') {
          // Its loop (32 trips a wave) is built at once, from ops given their fast handlers
          // (Program.peekHot): translated code runs.
          assert.ok(engineTime.blocks > blocks[0]!, `${c.name}: its loop's blocks were built in the first run`);
          if (wasmTier.on) assert.ok(wasmTier.calls > calls0, `${c.name}: translated runs were called`);
        }
      }
      const built = blocks.slice(1).map((b, k) => b - blocks[k]!);
      if (c.name.startsWith('vaddmul')) {
        assert.equal(built[0], 0, 'straight code of few waves: no block in the first run');
        assert.ok(built[1]! > 0, `its blocks in the second run (${built})`);
      }
    } finally {
      Object.assign(tiering, saved);
    }
  });
}
