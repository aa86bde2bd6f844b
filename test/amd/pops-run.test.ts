/**
 * POPS on executed machine code (gfx1100): the order-independent-transparency scene of
 * src/amd/gfx/pops-oit.ts runs the entering/exiting sequences of src/amd/gfx/pops-asm.ts around a
 * read-modify-write ordered section, assembled by gpusim's assembler, on PS waves formed by
 * PopsUnit and interleaved by a seeded random scheduler over four CUs with the L0/L1/L2 model.
 * The image must equal the serial primitive-order reference (computed on the CPU) for 100
 * scheduler seeds, with pixel and sample interlock at 1x, 4x and 8x MSAA; each documented
 * mistake must break some seed and raise its diagnostic.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import '../../src/amd/engine/bind.js';
import { gfx11 } from '../../src/amd/isa/gfx11/index.js';
import { imageDiff, runOit } from '../../src/amd/gfx/pops-oit.js';
import type { OitDraw, OitOptions, OitVariant } from '../../src/amd/gfx/pops-oit.js';

const SEEDS = 100;
const base = { gen: 'gfx11', target: gfx11, prims: 24, size: 32 } as const;

function run(seed: number, draws: readonly OitDraw[], variant: OitVariant = 'correct', extra: Partial<OitOptions> = {}) {
  return runOit({ ...base, seed, draws, variant, ...extra });
}

for (const samples of [1, 4, 8]) {
  for (const interlock of ['pixel', 'sample'] as const) {
    test(`gfx1100 ${interlock} interlock ${samples}x: ${SEEDS} scheduler seeds give the serial primitive-order image`, () => {
      const draws = [{ samples, interlock }, { samples, interlock }];
      let waited = 0;
      for (let seed = 1; seed <= SEEDS; seed++) {
        const r = run(seed, draws);
        assert.equal(r.run.aborted, false, `seed ${seed}`);
        assert.equal(imageDiff(r.image, r.reference), 0, `seed ${seed}: image differs from the serial reference`);
        assert.deepEqual(r.diags.list.map((d) => d.id), [], `seed ${seed}`);
        waited += r.stats.reduce((n, s) => n + s.waitedWaves, 0);
      }
      assert.ok(waited > 0, 'some wave had to wait in s_wait_event');
    });
  }
}

test('gfx1100: a draw sequence 4x -> 8x -> 2x with sample interlock keeps the order (sample indices only)', () => {
  const draws = [{ samples: 4, interlock: 'sample' }, { samples: 8, interlock: 'sample' }, { samples: 2, interlock: 'sample' }] as const;
  for (let seed = 1; seed <= 30; seed++) {
    const r = run(seed, draws);
    assert.equal(imageDiff(r.image, r.reference), 0, `seed ${seed}`);
    assert.deepEqual(r.diags.list, []);
  }
});

function someSeedBreaks(variant: OitVariant, draws: readonly OitDraw[], extra: Partial<OitOptions> = {}) {
  const ids = new Set<string>();
  for (let seed = 1; seed <= SEEDS; seed++) {
    const r = run(seed, draws, variant, extra);
    for (const d of r.diags.list) ids.add(d.id);
    if (imageDiff(r.image, r.reference) > 0) return { seed, ids, r };
  }
  return { seed: 0, ids, r: null };
}

const px4 = [{ samples: 4, interlock: 'pixel' }, { samples: 4, interlock: 'pixel' }] as const;

test('gfx1100: without s_wait_event some scheduler seed breaks the image, and the early export is reported', () => {
  const b = someSeedBreaks('no-wait', px4);
  assert.ok(b.seed > 0, 'no seed broke the order');
  assert.ok(b.ids.has('pops.exit.before-wait'), [...b.ids].join());
});

test('gfx1100: with POPS off (PRIMITIVE_ORDERED_PIXEL_SHADER = 0) some scheduler seed breaks the image', () => {
  const b = someSeedBreaks('correct', [{ samples: 4, interlock: 'pixel', pops: false }, { samples: 4, interlock: 'pixel', pops: false }]);
  assert.ok(b.seed > 0);
});

test('memory: the first read of the ordered section without GLC DLC reads stale L0 data from another CU\'s era', () => {
  const b = someSeedBreaks('plain-first-read', px4);
  assert.ok(b.seed > 0, 'no seed read stale data');
  assert.ok(b.r!.cache!.staleReads > 0, JSON.stringify(b.r!.cache));
  // Without the cache model memory is coherent and the same shader gives the reference.
  for (let seed = 1; seed <= 10; seed++) assert.equal(imageDiff(run(seed, px4, 'plain-first-read', { caches: false }).image, run(seed, px4, 'plain-first-read', { caches: false }).reference), 0);
});

test('memory: GFX11 GLC bypasses L0 and GL1; acquiring by buffer_gl1_inv + buffer_gl0_inv works, either alone reads stale lines', () => {
  for (const variant of ['gl0-inv-only', 'gl1-inv-only'] as const) {
    const b = someSeedBreaks(variant, px4);
    assert.ok(b.seed > 0, `${variant}: no seed read stale data`);
    assert.ok(b.r!.cache!.staleReads > 0, JSON.stringify(b.r!.cache));
  }
  for (const variant of ['first-read-glc', 'invalidate-first-read'] as const) {
    for (let seed = 1; seed <= 20; seed++) {
      const r = run(seed, px4, variant);
      assert.equal(imageDiff(r.image, r.reference), 0, `${variant} seed ${seed}`);
    }
  }
});

test('memory: only the first read needs GLC DLC (middle accesses plain; the last write may be plain: L0 and GL1 write through), all-coherent also correct', () => {
  for (const variant of ['correct', 'all-coherent', 'plain-last-write'] as const) {
    for (let seed = 1; seed <= 20; seed++) {
      const r = run(seed, px4, variant);
      assert.equal(imageDiff(r.image, r.reference), 0, `${variant} seed ${seed}`);
    }
  }
});

test('memory: leaving the ordered section with stores outstanding lets the next wave read the old value', () => {
  const b = someSeedBreaks('no-exit-wait', px4);
  assert.ok(b.seed > 0);
  assert.ok(b.ids.has('pops.exit.counters-outstanding'));
  assert.ok(b.r!.cache!.lateStores > 0);
});

test('statistics of the OIT scene: overlapping waves, waits, layers and serialisation depth per draw', () => {
  const r = run(1, px4);
  assert.equal(r.stats.length, 2);
  for (const s of r.stats) {
    assert.ok(s.waves > 0 && s.overlappingWaves <= s.waves && s.waitedWaves <= s.overlappingWaves, JSON.stringify(s));
    assert.equal(s.intrawaveLayers, s.waves, 'GFX11 has no intrawave collisions: one layer per wave');
    assert.ok(s.serialisationDepth > 1 && s.serialisationDepth <= s.waves);
  }
});
