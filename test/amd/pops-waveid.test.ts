/**
 * POPS wave IDs and arguments (seed 002_d00ee82034762a57.txt): the COLLISION_WAVEID layout per
 * generation, GFX9's off-by-one in the newest overlapped ID, 10-bit wraparound and the seed's
 * remapping, the packers' exiting wave ID, INTRAWAVE_COLLISION layers; the register fields come
 * from the committed generator.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { POPS_REGS } from '../../src/amd/gfx/pops-regs.gen.js';
import {
  PopsUnit, decodeCollisionWaveId, encodeCollisionWaveId, intrawaveLayers, packerSetregValue, remapWaveId,
  shaderMayEnter, shaderWaitTarget,
} from '../../src/amd/gfx/pops.js';
import type { PopsQuad } from '../../src/amd/gfx/pops.js';
import { drawConfig } from './pops-sim.js';

test('DB_SHADER_CONTROL: GFX11 OVERRIDE_INTRINSIC_RATE has its own offset; POPS_OVERLAP_NUM_SAMPLES only before GFX11', () => {
  assert.deepEqual(POPS_REGS.gfx9.DB_SHADER_CONTROL!.fields['POPS_OVERLAP_NUM_SAMPLES'], [20, 22]);
  assert.deepEqual(POPS_REGS.gfx103.DB_SHADER_CONTROL!.fields['POPS_OVERLAP_NUM_SAMPLES'], [20, 22]);
  assert.equal(POPS_REGS.gfx11.DB_SHADER_CONTROL!.fields['POPS_OVERLAP_NUM_SAMPLES'], undefined);
  assert.deepEqual(POPS_REGS.gfx11.DB_SHADER_CONTROL!.fields['OVERRIDE_INTRINSIC_RATE'], [26, 28]);
  assert.deepEqual(POPS_REGS.gfx11.DB_SHADER_CONTROL!.fields['OVERRIDE_INTRINSIC_RATE_ENABLE'], [25, 25]);
  for (const g of ['gfx9', 'gfx103', 'gfx11'] as const) {
    assert.deepEqual(POPS_REGS[g].DB_SHADER_CONTROL!.fields['PRIMITIVE_ORDERED_PIXEL_SHADER'], [16, 16]);
    const c = drawConfig(g, { samples: 8, interlock: 'sample', intrawave: true });
    assert.equal(c.enabled, true);
    assert.equal(c.interlockSamples, 8);
    assert.equal(c.exposedSamples, 8);
    assert.equal(c.loadCollisionWaveId, true);
    assert.equal(c.loadIntrawaveCollision, g !== 'gfx11');
    assert.equal(drawConfig(g, { samples: 8, interlock: 'pixel' }).interlockSamples, 1);
  }
});

test('COLLISION_WAVEID layout: [31] did overlap, packer [28] (GFX9) / [29:28] (GFX10+), [25:16] newest, [9:0] current', () => {
  assert.equal(encodeCollisionWaveId('gfx9', true, 1, 5, 9), (0x8000_0000 | 1 << 28 | 5 << 16 | 9) >>> 0);
  assert.equal(encodeCollisionWaveId('gfx103', true, 3, 5, 9), (0x8000_0000 | 3 << 28 | 5 << 16 | 9) >>> 0);
  assert.equal(encodeCollisionWaveId('gfx11', false, 2, 5, 9), (2 << 28 | 5 << 16 | 9) >>> 0);
  // GFX9 has one packer bit: packer 3 does not fit.
  assert.equal(decodeCollisionWaveId('gfx9', encodeCollisionWaveId('gfx9', true, 3, 1, 2)).packer, 1);
  assert.deepEqual(decodeCollisionWaveId('gfx103', 0xb3ff_03fe), { didOverlap: true, packer: 3, newestOverlapped: 0x3ff, current: 0x3fe });
  assert.equal(packerSetregValue('gfx9', encodeCollisionWaveId('gfx9', true, 0, 1, 2)), 0b01);
  assert.equal(packerSetregValue('gfx9', encodeCollisionWaveId('gfx9', true, 1, 1, 2)), 0b10);
  assert.equal(packerSetregValue('gfx103', encodeCollisionWaveId('gfx103', true, 2, 1, 2)), 0b101);
});

test('GFX9 reports the newest overlapped ID one low behind the wraparound; GFX10 does not', () => {
  // current 3, true newest 1020 (behind the wrap): GFX9 holds 1019, GFX10.3 1020.
  assert.equal(decodeCollisionWaveId('gfx9', encodeCollisionWaveId('gfx9', true, 0, 1020, 3)).newestOverlapped, 1019);
  assert.equal(decodeCollisionWaveId('gfx103', encodeCollisionWaveId('gfx103', true, 0, 1020, 3)).newestOverlapped, 1020);
  // Not behind the wrap: both exact.
  assert.equal(decodeCollisionWaveId('gfx9', encodeCollisionWaveId('gfx9', true, 0, 2, 3)).newestOverlapped, 2);
  // After the seed's correction both generations compare against the same target.
  assert.equal(shaderWaitTarget('gfx9', encodeCollisionWaveId('gfx9', true, 0, 1020, 3)),
    shaderWaitTarget('gfx103', encodeCollisionWaveId('gfx103', true, 0, 1020, 3)));
});

test('remapping: ~current maps the current wave to 0xffffffff and older IDs below it, across the wrap', () => {
  assert.equal(remapWaveId(7, 7), 0xffff_ffff);
  assert.equal(remapWaveId(6, 7), 0xffff_fffe);
  // Before the last wraparound: near 0, growing away from it, below everything after the wrap.
  assert.equal(remapWaveId(1023, 0), 1022);
  assert.equal(remapWaveId(1022, 0), 1021);
  assert.ok(remapWaveId(1023, 1) > remapWaveId(1022, 1));
  assert.ok(remapWaveId(0, 1) > remapWaveId(1023, 1));
});

test('the seed wait condition equals true ordering for every distance, across the wraparound (GFX9 and GFX10.3)', () => {
  for (const gen of ['gfx9', 'gfx103'] as const) {
    for (const current of [0, 1, 2, 511, 1021, 1022, 1023]) {
      for (let d = 1; d <= 600; d += 7) {
        const newest = (current - d) & 0x3ff;
        const cw = encodeCollisionWaveId(gen, true, 0, newest, current);
        for (let k = 0; k <= 700; k += 3) {
          const exiting = (current - k) & 0x3ff;
          // The exiting wave is k waves older than the current one; entering is allowed iff it is newer than the newest overlapped.
          assert.equal(shaderMayEnter(gen, cw, exiting), k < d, `${gen} current ${current} d ${d} k ${k}`);
        }
      }
    }
  }
});

const fullQuad = (x: number, y: number, primitive = 0): PopsQuad => ({ x, y, coverage: [1, 1, 1, 1], primitive });

test('packers hand out wrapping 10-bit wave IDs (1021, 1022, 1023, 0, 1) and the exiting ID follows in order', () => {
  for (const gen of ['gfx9', 'gfx103', 'gfx11'] as const) {
    const unit = new PopsUnit({ gen, shaderEngines: 1, packerOf: () => [0, 0] });
    unit.presetWaveIds(1021);
    const cfg = drawConfig(gen, { samples: 1, interlock: 'pixel' });
    // 5 waves of 8 quads (wave32), no overlap.
    const quads: PopsQuad[] = [];
    for (let i = 0; i < 40; i++) quads.push(fullQuad(2 * i, 0));
    const waves = unit.rasterize(cfg, quads, 32);
    assert.deepEqual(waves.map((w) => w.waveId), [1021, 1022, 1023, 0, 1]);
    assert.ok(waves.every((w) => decodeCollisionWaveId(gen, w.collisionWaveId).didOverlap === false));
    assert.equal(unit.exitingWaveId(0, 0), 1021);
    // A second draw overlapping the waves 1023 and 0.
    const [late] = unit.rasterize(cfg, [fullQuad(2 * 16, 0, 1), fullQuad(2 * 24, 0, 1)], 32);
    const f = decodeCollisionWaveId(gen, late!.collisionWaveId);
    assert.equal(f.current, 2);
    assert.equal(f.didOverlap, true);
    assert.equal(f.newestOverlapped, 0);
    assert.equal(late!.newestOverlapped, waves[3]);
    // Waves exit out of order; the exiting ID only moves past a contiguous prefix.
    unit.endProgramQuiet(waves[3]!);
    assert.equal(unit.exitingWaveId(0, 0), 1021);
    assert.equal(unit.mayEnter(late!), false);
    for (const w of waves.slice(0, 3)) unit.endProgramQuiet(w);
    assert.equal(unit.exitingWaveId(0, 0), 1);
    assert.equal(unit.mayEnter(late!), true);
    if (gen !== 'gfx11') assert.equal(shaderMayEnter(gen, late!.collisionWaveId, unit.exitingWaveId(0, 0)), true);
  }
});

test('per-generation COLLISION_WAVEID values for one overlap on packer 1 of SE1', () => {
  const values: Record<string, number> = {};
  for (const gen of ['gfx9', 'gfx103', 'gfx11'] as const) {
    const unit = new PopsUnit({ gen, shaderEngines: 2, packerOf: () => [1, 1] });
    unit.presetWaveIds(1022);
    const cfg = drawConfig(gen, { samples: 1, interlock: 'pixel' });
    const first = unit.rasterize(cfg, [fullQuad(0, 0)], 32);
    const second = unit.rasterize(cfg, [fullQuad(4, 0)], 32); // no overlap: 1023
    const third = unit.rasterize(cfg, [fullQuad(0, 0)], 32); // overlaps 1022, current 0
    assert.equal(first[0]!.collisionWaveId >>> 31, 0);
    assert.equal(second[0]!.collisionWaveId >>> 31, 0);
    values[gen] = third[0]!.collisionWaveId;
  }
  // GFX9: packer bit 28, newest 1022 > current 0 -> reported as 1021.
  assert.equal(values['gfx9'], (0x8000_0000 | 1 << 28 | 1021 << 16 | 0) >>> 0);
  assert.equal(values['gfx103'], (0x8000_0000 | 1 << 28 | 1022 << 16 | 0) >>> 0);
  assert.equal(values['gfx11'], (0x8000_0000 | 1 << 28 | 1022 << 16 | 0) >>> 0);
});

test('INTRAWAVE_COLLISION: the seed example mask splits wave64 into quads 1:0, 6:2, 7, 8, 15:9; high bits ignored', () => {
  const mask = (1 << 2) | (1 << 7) | (1 << 8) | (1 << 9);
  const expect = [[0, 8], [8, 28], [28, 32], [32, 36], [36, 64]];
  assert.deepEqual(intrawaveLayers(mask, 64), expect);
  assert.deepEqual(intrawaveLayers((mask | 0xffff_0000) >>> 0, 64), expect);
  // wave32 keeps 8 bits.
  assert.deepEqual(intrawaveLayers(mask, 32), [[0, 8], [8, 28], [28, 32]]);
  assert.deepEqual(intrawaveLayers(0, 32), [[0, 32]]);
});

test('intrawave: overlapping quads share a wave only when INTRAWAVE_COLLISION is loaded (GFX9-10.3)', () => {
  for (const gen of ['gfx9', 'gfx103', 'gfx11'] as const) {
    for (const intrawave of [false, true]) {
      const unit = new PopsUnit({ gen, shaderEngines: 1, packerOf: () => [0, 0] });
      const cfg = drawConfig(gen, { samples: 1, interlock: 'pixel', intrawave });
      const waves = unit.rasterize(cfg, [fullQuad(0, 0), fullQuad(2, 0), fullQuad(0, 0, 1), fullQuad(4, 0, 1)], 32);
      if (intrawave && gen !== 'gfx11') {
        assert.equal(waves.length, 1, gen);
        assert.equal(waves[0]!.intrawaveCollision, 1 << 2);
        assert.equal(waves[0]!.collisionWaveId >>> 31, 1, 'intrawave collision sets did-overlap');
      } else {
        assert.equal(waves.length, 2, `${gen} ${intrawave}`);
        assert.equal(waves[1]!.newestOverlapped, waves[0]);
      }
    }
  }
});

test('sample interlock: overlap by common sample index, across draws with different sample counts', () => {
  const unit = new PopsUnit({ gen: 'gfx103', shaderEngines: 1, packerOf: () => [0, 0] });
  const c4 = drawConfig('gfx103', { samples: 4, interlock: 'sample' });
  const c8 = drawConfig('gfx103', { samples: 8, interlock: 'sample' });
  const [a] = unit.rasterize(c4, [{ x: 0, y: 0, coverage: [0b0100, 0, 0, 0], primitive: 0 }], 32);
  const [b] = unit.rasterize(c8, [{ x: 0, y: 0, coverage: [0b1000_0011, 0, 0, 0], primitive: 0 }], 32);
  assert.equal(b!.newestOverlapped, null, 'samples 0,1,7 vs sample 2: no common index');
  const [c] = unit.rasterize(c8, [{ x: 0, y: 0, coverage: [0b0000_0100, 0, 0, 0], primitive: 0 }], 32);
  assert.equal(c!.newestOverlapped, a, 'sample index 2 of a 4x draw and of an 8x draw overlap');
  // Pixel interlock overlaps anything at the pixel.
  const p1 = drawConfig('gfx103', { samples: 8, interlock: 'pixel' });
  const [d] = unit.rasterize(p1, [{ x: 0, y: 0, coverage: [0b0001_0000, 0, 0, 0], primitive: 0 }], 32);
  assert.equal(d!.newestOverlapped, c);
});

test('misuse of the model is a clear PopsError: too many waves in flight for 10-bit IDs, wrong generation, bad preset', async () => {
  const { PopsError } = await import('../../src/amd/gfx/pops.js');
  const unit = new PopsUnit({ gen: 'gfx103', shaderEngines: 1, packerOf: () => [0, 0], maxInFlight: 4 });
  const cfg = drawConfig('gfx103', { samples: 1, interlock: 'pixel' });
  const quads: PopsQuad[] = [];
  for (let i = 0; i < 5 * 8; i++) quads.push(fullQuad(2 * i, 0));
  assert.throws(() => unit.rasterize(cfg, quads, 32), PopsError);
  assert.throws(() => unit.rasterize(drawConfig('gfx9', { samples: 1, interlock: 'pixel' }), [], 32), PopsError);
  assert.throws(() => unit.presetWaveIds(3), PopsError);
  assert.throws(() => new PopsUnit({ gen: 'gfx9', maxInFlight: 1024 }), PopsError);
});

test('launchWave: waves packed by the pipeline get the same arguments as waves PopsUnit forms itself', () => {
  for (const gen of ['gfx9', 'gfx103', 'gfx11'] as const) {
    const intrawave = gen !== 'gfx11';
    const cfg = drawConfig(gen, { samples: 4, interlock: 'sample', intrawave });
    const quads: PopsQuad[] = [];
    for (let i = 0; i < 40; i++) quads.push({ x: 2 * (i % 5), y: 2 * (i % 3), coverage: [1 + (i % 15), 0, 2 + (i % 13), 8], primitive: i });
    const a = new PopsUnit({ gen, shaderEngines: 1, packerOf: () => [0, 1] });
    const formed = a.rasterize(cfg, quads, 32);
    const b = new PopsUnit({ gen, shaderEngines: 1, packerOf: () => [0, 1] });
    const launched = formed.map((w) => b.launchWave(cfg, w.quads, 32, 0));
    assert.deepEqual(launched.map((w) => [w.waveId, w.collisionWaveId, w.intrawaveCollision]),
      formed.map((w) => [w.waveId, w.collisionWaveId, w.intrawaveCollision]), gen);
  }
  // A wave with an intrawave overlap but no INTRAWAVE_COLLISION is the packer's bug.
  const u = new PopsUnit({ gen: 'gfx11', shaderEngines: 1, packerOf: () => [0, 0] });
  const cfg = drawConfig('gfx11', { samples: 1, interlock: 'pixel' });
  assert.throws(() => u.launchWave(cfg, [fullQuad(0, 0), fullQuad(0, 0, 1)], 32), /new wave/);
  const v = new PopsUnit({ gen: 'gfx103', shaderEngines: 1, packerOf: (x) => [0, x < 8 ? 0 : 1] });
  assert.throws(() => v.launchWave(drawConfig('gfx103', { samples: 1, interlock: 'pixel' }), [fullQuad(0, 0), fullQuad(8, 0)], 32), /packer/);
});
