/**
 * POPS on executed gfx900 code (GFX9): the entering sequence of src/amd/gfx/pops-asm.ts (packer in
 * MODE[25:24] by s_setreg, the wraparound remap with GFX9's off-by-one correction, the finite
 * s_sleep 3 wait loop — GFX9 exits wake nobody), the ordered section in global memory with GLC
 * first read / last write through the cache model, s_sendmsg ORDERED_PS_DONE, a null export; wave64.
 * The OIT image equals the serial primitive-order reference for 100 scheduler seeds with pixel and
 * sample interlock at 1x, 4x and 8x; the Vega10/Raven 8x workaround (DB_DFSM_CONTROL.
 * POPS_DRAIN_PS_ON_OVERLAP) is diagnosed when missing.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import '../../src/amd/engine/bind.js';
import { executableTarget } from '../../src/amd/target/executable.js';
import { imageDiff, oitShader, runOit } from '../../src/amd/gfx/pops-oit.js';
import type { OitDraw, OitOptions, OitVariant } from '../../src/amd/gfx/pops-oit.js';

const gfx900 = executableTarget('gfx900')!;
const SEEDS = 100;

function run(seed: number, draws: readonly OitDraw[], variant: OitVariant = 'correct', extra: Partial<OitOptions> = {}) {
  const r = runOit({ gen: 'gfx9', target: gfx900, seed, draws, prims: 24, size: 32, variant, ...extra });
  return { r, ids: [...new Set(r.diags.list.map((d) => d.id))].sort(), diff: imageDiff(r.image, r.reference) };
}

for (const samples of [1, 4, 8]) {
  for (const interlock of ['pixel', 'sample'] as const) {
    test(`gfx900 ${interlock} interlock ${samples}x: ${SEEDS} scheduler seeds give the serial primitive-order image`, () => {
      let polls = 0;
      for (let seed = 1; seed <= SEEDS; seed++) {
        const { r, ids, diff } = run(seed, [{ samples, interlock }, { samples, interlock }]);
        assert.equal(r.run.aborted, false, `seed ${seed}`);
        assert.equal(diff, 0, `seed ${seed}: image differs`);
        assert.deepEqual(ids, [], `seed ${seed}`);
        polls += r.stats.reduce((n, s) => n + s.blockedPolls, 0);
      }
      assert.ok(polls > 0, 'some wave polled src_pops_exiting_wave_id before it could enter');
    });
  }
}

test('gfx900: without the wait loop, or with POPS off, some seed breaks the image', () => {
  const breaks = (variant: OitVariant, draws: readonly OitDraw[]): number => {
    for (let seed = 1; seed <= SEEDS; seed++) if (run(seed, draws, variant).diff > 0) return seed;
    return 0;
  };
  assert.ok(breaks('no-wait', [{ samples: 4, interlock: 'pixel' }, { samples: 4, interlock: 'pixel' }]) > 0);
  assert.ok(breaks('correct', [{ samples: 4, interlock: 'pixel', pops: false }, { samples: 4, interlock: 'pixel', pops: false }]) > 0);
});

test('gfx900: the wait loop with s_sleep 0xffff (the GFX10+ idiom) is reported: GFX9 exits wake nobody', () => {
  const shader = oitShader('gfx9').replace('s_sleep 3', 's_sleep 0xffff');
  const { ids, diff } = run(1, [{ samples: 4, interlock: 'pixel' }, { samples: 4, interlock: 'pixel' }], 'correct', { shader });
  assert.ok(ids.includes('pops.wait.gfx9-sleep-delay'), ids.join());
  assert.equal(diff, 0, 'slow, still ordered');
});

test('gfx900 Vega10/Raven at 8x: POPS_DRAIN_PS_ON_OVERLAP missing is diagnosed; set, the run is clean and ordered', () => {
  for (const chip of ['vega10', 'raven'] as const) {
    const missing = run(1, [{ samples: 8, interlock: 'sample', drain: false }], 'correct', { chip });
    assert.deepEqual(missing.ids, ['pops.config.drain-missing'], chip);
    for (let seed = 1; seed <= 10; seed++) {
      const ok = run(seed, [{ samples: 8, interlock: 'sample' }, { samples: 8, interlock: 'pixel' }], 'correct', { chip });
      assert.deepEqual(ok.ids, [], `${chip} seed ${seed}`);
      assert.equal(ok.diff, 0);
    }
    // 4x needs no workaround.
    assert.deepEqual(run(1, [{ samples: 4, interlock: 'sample', drain: false }], 'correct', { chip }).ids, []);
  }
});
