/**
 * The POPS ordering guarantee (seed 002_d00ee82034762a57.txt): overlapping invocations run their
 * ordered sections in rasterization order, whatever wave the random scheduler picks; invocations
 * that do not overlap may run in any order. Checked per generation, with pixel and sample
 * interlock, across draws with different sample counts, with and without intrawave collisions.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { PopsGen } from '../../src/amd/gfx/pops-config.js';
import { PopsUnit } from '../../src/amd/gfx/pops.js';
import type { PopsQuad } from '../../src/amd/gfx/pops.js';
import { drawConfig, orderViolations, runScene, unorderedPairs } from './pops-sim.js';
import type { DrawSpec } from './pops-sim.js';

const GENS: readonly PopsGen[] = ['gfx9', 'gfx103', 'gfx11'];
const SEEDS = 25;

const SCENES: Record<string, DrawSpec[]> = {
  'pixel interlock 1x': [{ samples: 1, interlock: 'pixel' }, { samples: 1, interlock: 'pixel' }],
  'pixel interlock 4x': [{ samples: 4, interlock: 'pixel' }, { samples: 4, interlock: 'pixel' }],
  'sample interlock 4x then 8x then 2x': [{ samples: 4, interlock: 'sample' }, { samples: 8, interlock: 'sample' }, { samples: 2, interlock: 'sample' }],
  'mixed pixel 8x / sample 8x': [{ samples: 8, interlock: 'pixel' }, { samples: 8, interlock: 'sample' }],
  'intrawave collisions 4x pixel': [{ samples: 4, interlock: 'pixel', intrawave: true }, { samples: 4, interlock: 'pixel', intrawave: true }],
};

for (const gen of GENS) {
  for (const [name, draws] of Object.entries(SCENES)) {
    test(`${gen} ${name}: ${SEEDS} scheduler seeds give the serial primitive-order image`, () => {
      let unordered = 0;
      for (let seed = 1; seed <= SEEDS; seed++) {
        const res = runScene(gen, seed, draws);
        assert.equal(orderViolations(res.writes), 0, `seed ${seed}: overlapping ordered sections out of order`);
        assert.deepEqual([...res.image.entries()].sort(), [...res.reference.entries()].sort(), `seed ${seed}: image differs`);
        assert.deepEqual(res.diags.list, [], `seed ${seed}: the correct sequence raised diagnostics`);
        unordered += unorderedPairs(res.writes);
      }
      // Not a serialisation: non-overlapping invocations did run out of rasterization order.
      assert.ok(unordered > 0, 'no non-overlapping pair ever ran out of order');
    });
  }

  test(`${gen}: without the wait, some scheduler seed breaks the order`, () => {
    let broken = 0;
    for (let seed = 1; seed <= SEEDS && broken === 0; seed++) {
      const res = runScene(gen, seed, SCENES['pixel interlock 4x']!, { variant: 'no-wait' });
      if (orderViolations(res.writes) > 0) broken++;
    }
    assert.ok(broken > 0);
  });
}

test('gfx9/gfx10.3: intrawave collisions are reported and used (layers > 1 in some wave)', () => {
  for (const gen of ['gfx9', 'gfx103'] as const) {
    let layered = 0;
    for (let seed = 1; seed <= 10; seed++) {
      const res = runScene(gen, seed, SCENES['intrawave collisions 4x pixel']!);
      layered += res.waves.filter((w) => w.intrawaveCollision !== 0).length;
    }
    assert.ok(layered > 0, gen);
  }
});

test('gfx11: overlapping invocations always land in different waves (no intrawave mask)', () => {
  for (let seed = 1; seed <= 10; seed++) {
    const res = runScene('gfx11', seed, SCENES['intrawave collisions 4x pixel']!);
    assert.ok(res.waves.every((w) => w.intrawaveCollision === 0));
  }
});

test('statistics: under 8x MSAA, primitives sharing an edge serialise with pixel interlock, not with sample interlock', () => {
  for (const gen of GENS) {
    const depth: Record<string, number> = {};
    for (const interlock of ['pixel', 'sample'] as const) {
      const unit = new PopsUnit({ gen, shaderEngines: 1, packerOf: () => [0, 0] });
      const cfg = drawConfig(gen, { samples: 8, interlock });
      // 6 primitives, alternating sides of one edge: each covers the same 8 quads with half the samples.
      const quads: PopsQuad[] = [];
      for (let prim = 0; prim < 6; prim++) {
        const m = prim % 2 === 0 ? 0x0f : 0xf0;
        for (let i = 0; i < 8; i++) quads.push({ x: 2 * i, y: 0, coverage: [m, m, m, m], primitive: prim });
      }
      unit.rasterize(cfg, quads, 32);
      const st = unit.drawStats(0);
      assert.equal(st.waves, 6);
      depth[interlock] = st.serialisationDepth;
      assert.equal(st.overlappingWaves, interlock === 'pixel' ? 5 : 4, `${gen} ${interlock}`);
    }
    assert.deepEqual(depth, { pixel: 6, sample: 3 }, gen);
  }
});

test('statistics: intrawave layers counted from INTRAWAVE_COLLISION', () => {
  const res = runScene('gfx103', 3, [{ samples: 4, interlock: 'pixel', intrawave: true }], { prims: 30 });
  const st = res.unit.drawStats(0);
  assert.ok(st.intrawaveLayers > st.waves, JSON.stringify(st));
  assert.ok(st.waitedWaves > 0 && st.blockedPolls >= st.waitedWaves, JSON.stringify(st));
});
