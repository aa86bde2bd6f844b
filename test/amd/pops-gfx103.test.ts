/**
 * POPS on executed gfx1030 code: the GFX10.3 entering sequence of src/amd/gfx/pops-asm.ts (packer
 * in HW_REG_POPS_PACKER, polling src_pops_exiting_wave_id with the wraparound remap, s_sleep
 * 0xffff woken by exits), the intrawave-collision layer loop, the ordered section
 * read-modify-writing a storage image in global memory (first read and last write GLC DLC, through
 * the L0/L1/L2 model), the ORDERED_PS_DONE exit after s_waitcnt vmcnt/lgkmcnt and vscnt, and the
 * null export every POPS shader needs, assembled by gpusim's gfx1030 assembler and run by the
 * GFX10.3 executor. Same matrix as gfx900 (pops-gfx9.test.ts) and gfx1100 (pops-run.test.ts).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import '../../src/amd/engine/bind.js';
import { gfx10 } from '../../src/amd/isa/gfx10/index.js';
import { imageDiff, oitShader, runOit } from '../../src/amd/gfx/pops-oit.js';
import type { OitDraw, OitOptions } from '../../src/amd/gfx/pops-oit.js';

const SEEDS = 100;
const px4 = [{ samples: 4, interlock: 'pixel' }, { samples: 4, interlock: 'pixel' }] as const;

function run(seed: number, draws: readonly OitDraw[], extra: Partial<OitOptions> = {}) {
  const r = runOit({ gen: 'gfx103', target: gfx10, seed, draws, prims: 24, size: 32, ...extra });
  const ids = [...new Set(r.diags.list.map((d) => d.id))].sort();
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
  const { diff } = run(1, draws, { shader: oitShader('gfx103') });
  assert.ok(diff > 0);
});

/** The first scheduler seed whose image differs from the reference (0: none), with the diagnostics seen up to it. */
function firstBroken(draws: readonly OitDraw[], extra: Partial<OitOptions>) {
  const ids = new Set<string>();
  for (let seed = 1; seed <= SEEDS; seed++) {
    const { r, diff } = run(seed, draws, extra);
    for (const d of r.diags.list) ids.add(d.id);
    if (diff > 0) return { seed, ids, r };
  }
  return { seed: 0, ids, r: null };
}

test('gfx1030: without the wait loop, or with POPS off, some scheduler seed breaks the image', () => {
  assert.ok(firstBroken(px4, { variant: 'no-wait' }).seed > 0, 'no-wait');
  assert.ok(firstBroken([{ samples: 4, interlock: 'pixel', pops: false }, { samples: 4, interlock: 'pixel', pops: false }], {}).seed > 0, 'POPS off');
});

test('gfx1030 memory: a first read without GLC DLC, or stores outstanding at the exit, break the image; middle accesses and the last write may be plain', () => {
  const stale = firstBroken(px4, { variant: 'plain-first-read' });
  assert.ok(stale.seed > 0 && stale.r!.cache!.staleReads > 0, 'a plain first read hits a stale L0/L1 line');
  // GLC without DLC: the L0 is bypassed but the shader array's GL1 may still hold the old line.
  const gl1 = firstBroken(px4, { variant: 'first-read-glc' });
  assert.ok(gl1.seed > 0 && gl1.r!.cache!.staleReads > 0 && gl1.r!.cache!.l1Hits > 0, 'GLC alone reads a stale GL1 line');
  // The acquire by invalidation (LLVM's GFX10 sequence: buffer_gl1_inv; buffer_gl0_inv) makes a plain first read right; half of it does not.
  assert.ok(firstBroken(px4, { variant: 'gl0-inv-only' }).seed > 0, 'buffer_gl0_inv alone leaves the GL1 stale');
  assert.ok(firstBroken(px4, { variant: 'gl1-inv-only' }).seed > 0, 'buffer_gl1_inv alone leaves the L0 stale');
  const late = firstBroken(px4, { variant: 'no-exit-wait' });
  assert.ok(late.seed > 0 && late.ids.has('pops.exit.counters-outstanding') && late.r!.cache!.lateStores > 0, 'stores land after the exit');
  // L0 and GL1 are write-through: a plain last write is in L2 once VS_CNT says it completed.
  for (const variant of ['correct', 'all-coherent', 'plain-last-write', 'invalidate-first-read'] as const) {
    for (let seed = 1; seed <= 20; seed++) assert.equal(run(seed, px4, { variant }).diff, 0, `${variant} seed ${seed}`);
  }
});

const clean = oitShader('gfx103');
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
    ['pops.exit.counters-outstanding', 'image stores not awaited (vscnt) before ORDERED_PS_DONE', clean.replace('  s_waitcnt_vscnt null, 0x0\n', '')],
    ['pops.wait.gfx9-sleep-delay', 'not a GFX10.3 rule: stays quiet with s_sleep 3', clean.replace('s_sleep 0xffff', 's_sleep 3')],
  ];
  for (const [id, what, shader] of cases) {
    let seen = false;
    for (let seed = 1; seed <= 10 && !seen; seed++) seen = run(seed, px4, { shader }).ids.includes(id);
    assert.equal(seen, id !== 'pops.wait.gfx9-sleep-delay', `${id}: ${what}`);
  }
});

test('gfx1030: s_endpgm_ordered_ps_done exits the ordered section (waits for the counters, sends the message, ends)', () => {
  // The export comes first: the instruction ends the program.
  const shader = clean.replace(`${DONE}\n`, '').replace(/s_endpgm\n$/, 's_endpgm_ordered_ps_done\n');
  assert.ok(!shader.includes(DONE) && shader.includes('done vm\n  s_endpgm_ordered_ps_done'));
  assert.notEqual(shader, clean);
  for (let seed = 1; seed <= 10; seed++) {
    const { ids, diff } = run(seed, px4, { shader });
    assert.deepEqual(ids, []);
    assert.equal(diff, 0);
  }
});
