/**
 * POPS on executed gfx1030 code: the GFX10.3 entering sequence of src/amd/gfx/pops-asm.ts (packer
 * in HW_REG_POPS_PACKER, polling src_pops_exiting_wave_id with the wraparound remap, s_sleep
 * 0xffff woken by exits), the intrawave-collision layer loop, and the ORDERED_PS_DONE exit,
 * assembled by gpusim's gfx1030 assembler and run by the GFX10.3 executor.
 *
 * gpusim's gfx1030 assembler has no GLOBAL or EXP encodings in main yet, so the ordered section
 * read-modify-writes the image in the runner's shared LDS array, and every wave ends without an
 * export: `pops.export.missing` is expected on each run and filtered out below (the gfx1100 tests
 * cover the export rules on executed code).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import '../../src/amd/exec/semantics.js';
import { gfx10 } from '../../src/amd/isa/gfx10/index.js';
import { imageDiff, oitShader, runOit } from '../../src/amd/gfx/pops-oit.js';
import type { OitDraw, OitOptions } from '../../src/amd/gfx/pops-oit.js';

const SEEDS = 100;

function run(seed: number, draws: readonly OitDraw[], extra: Partial<OitOptions> = {}) {
  const r = runOit({ gen: 'gfx103', target: gfx10, seed, draws, prims: 24, size: 32, storage: 'lds', ...extra });
  const ids = [...new Set(r.diags.list.map((d) => d.id))].filter((id) => id !== 'pops.export.missing').sort();
  return { r, ids, diff: imageDiff(r.image, r.reference) };
}

for (const samples of [1, 4, 8]) {
  for (const interlock of ['pixel', 'sample'] as const) {
    test(`gfx1030 ${interlock} interlock ${samples}x: ${SEEDS} scheduler seeds give the serial primitive-order image`, () => {
      let polls = 0;
      for (let seed = 1; seed <= SEEDS; seed++) {
        const { r, ids, diff } = run(seed, [{ samples, interlock }, { samples, interlock }]);
        assert.equal(r.run.aborted, false);
        assert.equal(diff, 0, `seed ${seed}`);
        assert.deepEqual(ids, [], `seed ${seed}`);
        polls += r.stats.reduce((n, s) => n + s.blockedPolls, 0);
      }
      assert.ok(polls > 0, 'some wave polled src_pops_exiting_wave_id before it could enter');
    });
  }
}

test('gfx1030 intrawave collisions: the layer loop orders overlapping quads of one wave for 100 seeds', () => {
  const draws = [{ samples: 4, interlock: 'pixel', intrawave: true }, { samples: 4, interlock: 'pixel', intrawave: true }] as const;
  let layered = 0;
  for (let seed = 1; seed <= SEEDS; seed++) {
    const { r, ids, diff } = run(seed, draws);
    assert.equal(diff, 0, `seed ${seed}`);
    assert.deepEqual(ids, []);
    for (const s of r.stats) layered += s.intrawaveLayers - s.waves;
  }
  assert.ok(layered > 0, 'INTRAWAVE_COLLISION split some wave into layers');
  // The same waves without the loop: overlapping lanes of one instruction lose updates.
  const { diff } = run(1, draws, { shader: oitShader('gfx103', 'correct', false, 'lds') });
  assert.ok(diff > 0);
});

test('gfx1030: without the wait loop some scheduler seed breaks the image', () => {
  let broken = 0;
  for (let seed = 1; seed <= SEEDS && broken === 0; seed++) {
    if (run(seed, [{ samples: 4, interlock: 'pixel' }, { samples: 4, interlock: 'pixel' }], { variant: 'no-wait' }).diff > 0) broken = seed;
  }
  assert.ok(broken > 0);
});

const px4 = [{ samples: 4, interlock: 'pixel' }, { samples: 4, interlock: 'pixel' }] as const;
const clean = oitShader('gfx103', 'correct', false, 'lds');
const DONE = '  s_sendmsg sendmsg(MSG_ORDERED_PS_DONE)';
const SKIP = '  s_bitcmp1_b32 s0, 31\n  s_cbranch_scc0 .Lpops_enter\n';

test('gfx1030 diagnostics through executed instructions; the clean shader is quiet', () => {
  assert.ok(clean.includes(DONE) && clean.includes(SKIP));
  assert.deepEqual(run(2, px4, { shader: clean }).ids, []);
  const cases: [string, string, string][] = [
    ['pops.wait.no-overlap', 'the wait loop run without testing COLLISION_WAVEID[31]', clean.replace(SKIP, '')],
    ['pops.exit.twice', 'ORDERED_PS_DONE sent twice', clean.replace(DONE, `${DONE}\n${DONE}`)],
    ['pops.exit.missing', 's_endpgm after the packer was set, no ORDERED_PS_DONE', clean.replace(DONE, '')],
    ['pops.exit.before-wait', 'ORDERED_PS_DONE before the wait loop', clean.replace('.Lpops_wait:', `${DONE}\n.Lpops_wait:`).replace(/(s_waitcnt_vscnt null, 0x0\n)  s_sendmsg sendmsg\(MSG_ORDERED_PS_DONE\)/, '$1')],
    ['pops.exit.counters-outstanding', 'LDS writes not awaited before ORDERED_PS_DONE', clean.replace('  s_waitcnt vmcnt(0) lgkmcnt(0)\n', '')],
    ['pops.wait.gfx9-sleep-delay', 'not a GFX10.3 rule: stays quiet with s_sleep 3', clean.replace('s_sleep 0xffff', 's_sleep 3')],
  ];
  for (const [id, what, shader] of cases) {
    let seen = false;
    for (let seed = 1; seed <= 10 && !seen; seed++) seen = run(seed, px4, { shader }).ids.includes(id);
    assert.equal(seen, id !== 'pops.wait.gfx9-sleep-delay', `${id}: ${what}`);
  }
});

test('gfx1030: s_endpgm_ordered_ps_done exits the ordered section (waits for the counters, sends the message, ends)', () => {
  const shader = clean.replace(`${DONE}\n  s_endpgm`, '  s_endpgm_ordered_ps_done');
  assert.notEqual(shader, clean);
  for (let seed = 1; seed <= 10; seed++) {
    const { ids, diff } = run(seed, px4, { shader });
    assert.deepEqual(ids, []);
    assert.equal(diff, 0);
  }
});
