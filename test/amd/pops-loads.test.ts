/**
 * Loads held in flight (seed "Exiting the ordered section": reads that something after the
 * ordered section depends on must be awaited before the exit). The L0/L1/L2 model of
 * src/amd/gfx/pops-cache.ts samples a dword load again when VM_CNT stops counting it, so a load
 * still outstanding when the wave leaves its ordered section returns whatever memory holds when the
 * wave finally waits — possibly what a resumed overlapping wave wrote meanwhile.
 *
 * The gfx1100 OIT shader re-reads each pixel sample after its last store into v6 (variant
 * load-at-exit*): with VM_CNT awaited before the exit, v6 equals the value the wave itself stored
 * (v5) in every lane for 100 seeds; with the exit before the wait, some seed gives a lane a later
 * wave's value and pops.exit.counters-outstanding fires.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import '../../src/amd/engine/bind.js';
import { gfx11 } from '../../src/amd/isa/gfx11/index.js';
import { imageDiff, runOit } from '../../src/amd/gfx/pops-oit.js';
import type { OitVariant } from '../../src/amd/gfx/pops-oit.js';

const draws = [{ samples: 4, interlock: 'pixel' }, { samples: 4, interlock: 'pixel' }] as const;

/** Lanes (over all waves) whose v6 differs from v5 after the run. */
function mismatches(variant: OitVariant, seed: number) {
  // Long load latencies (up to 1000 model clocks) give the resumed waves time to write first.
  const r = runOit({ gen: 'gfx11', target: gfx11, seed, draws, prims: 24, size: 32, variant, maxLoadDelay: 1000 });
  let bad = 0;
  for (const w of r.run.waves) {
    const ws = w.waveSize;
    for (let lane = 0; lane < ws; lane++) {
      if (w.v[1 * ws + lane] === 0) continue; // no coverage: never ran the section
      if (w.v[6 * ws + lane] !== w.v[5 * ws + lane]) bad++;
    }
  }
  return { r, bad, ids: new Set(r.diags.list.map((d) => d.id)) };
}

test('load awaited before the exit: the re-read value is the wave\'s own in every lane, 100 seeds, no diagnostics', () => {
  let held = 0;
  for (let seed = 1; seed <= 100; seed++) {
    const { r, bad, ids } = mismatches('load-at-exit-awaited', seed);
    assert.equal(bad, 0, `seed ${seed}`);
    assert.deepEqual([...ids], [], `seed ${seed}`);
    assert.equal(imageDiff(r.image, r.reference), 0);
    assert.equal(r.cache!.lateLoads, 0);
    held += r.run.instructions > 0 ? 1 : 0;
  }
  assert.equal(held, 100);
});

test('load outstanding at the exit: some seed lets a lane observe a later wave\'s write; the counters diagnostic fires', () => {
  let found = 0;
  for (let seed = 1; seed <= 100 && found === 0; seed++) {
    const { r, bad, ids } = mismatches('load-at-exit', seed);
    assert.ok(ids.has('pops.exit.counters-outstanding'), `seed ${seed}`);
    assert.equal(imageDiff(r.image, r.reference), 0, 'the image itself is ordered (the stores were awaited)');
    if (bad > 0) {
      assert.ok(r.cache!.lateLoads > 0);
      found = seed;
    }
  }
  assert.ok(found > 0, 'a held load returned a value written after the wave left its ordered section');
});
