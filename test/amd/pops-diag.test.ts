/**
 * Every POPS hazard of seed 002_d00ee82034762a57.txt detectable at the model level: each
 * diagnostic fires on the broken sequence and stays quiet on the documented one.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Diagnostics } from '../../src/core/diagnostics.js';
import { decodePopsDraw, setField } from '../../src/amd/gfx/pops-config.js';
import type { PopsGen } from '../../src/amd/gfx/pops-config.js';
import { PopsUnit, decodeCollisionWaveId, packerSetregValue, shaderMayEnter } from '../../src/amd/gfx/pops.js';
import type { PopsWave } from '../../src/amd/gfx/pops.js';
import { drawConfig, drawRegs } from './pops-sim.js';

const GENS: readonly PopsGen[] = ['gfx9', 'gfx103', 'gfx11'];
const ZERO = { vm: 0, vs: 0, lgkm: 0 };

/** Two waves on packer 1 of SE0: b overlaps a. */
function setup(gen: PopsGen) {
  const diags = new Diagnostics();
  const unit = new PopsUnit({ gen, diagnostics: diags, shaderEngines: 1, packerOf: () => [0, 1] });
  const cfg = drawConfig(gen, { samples: 1, interlock: 'pixel' });
  const q = { x: 0, y: 0, coverage: [1, 1, 1, 1] as [number, number, number, number], primitive: 0 };
  const [a] = unit.rasterize(cfg, [q], 32);
  const [b] = unit.rasterize(cfg, [q], 32);
  return { diags, unit, a: a!, b: b! };
}

/** The documented entering sequence; returns whether the wave got in. */
function enter(unit: PopsUnit, w: PopsWave, gen: PopsGen): boolean {
  if (gen === 'gfx11') return unit.waitEvent(w, 0);
  const cw = w.collisionWaveId;
  if (!decodeCollisionWaveId(gen, cw).didOverlap) return true;
  if (gen === 'gfx9') unit.setMode(w, packerSetregValue(gen, cw));
  else unit.setPopsPacker(w, packerSetregValue(gen, cw));
  return shaderMayEnter(gen, cw, unit.readExitingWaveId(w));
}

function leave(unit: PopsUnit, w: PopsWave, gen: PopsGen): void {
  if (gen !== 'gfx11') unit.sendMsg(w, 7, ZERO);
  unit.exportDone(w, true, ZERO);
  unit.endProgram(w);
}

const ids = (d: Diagnostics): string[] => d.list.map((x) => x.id);

for (const gen of GENS) {
  test(`${gen}: the documented sequence, with repeated entry, is quiet`, () => {
    const { diags, unit, a, b } = setup(gen);
    assert.equal(enter(unit, a, gen), true);
    assert.equal(enter(unit, b, gen), false, 'b overlaps a and must wait');
    if (gen !== 'gfx11') unit.sleep(b, gen === 'gfx9' ? 3 : 0xffff);
    assert.equal(enter(unit, a, gen), true, 'entering again before exiting is safe');
    leave(unit, a, gen);
    assert.equal(enter(unit, b, gen), true);
    assert.equal(enter(unit, b, gen), true);
    leave(unit, b, gen);
    assert.deepEqual(diags.list, []);
    assert.equal(unit.inFlight(), 0);
  });
}

test('gfx9/gfx10.3: s_endpgm_ordered_ps_done exits quietly; s_endpgm after the packer without ORDERED_PS_DONE fires pops.exit.missing', () => {
  for (const gen of ['gfx9', 'gfx103'] as const) {
    const ok = setup(gen);
    enter(ok.unit, ok.a, gen);
    ok.unit.exportDone(ok.a, true);
    ok.unit.endProgram(ok.a, true);
    assert.deepEqual(ids(ok.diags), []);
    enter(ok.unit, ok.b, gen);
    ok.unit.exportDone(ok.b, true);
    ok.unit.endProgram(ok.b);
    assert.deepEqual(ids(ok.diags), ['pops.exit.missing']);
  }
});

test('pops.export.missing: a POPS wave ending without any export (GFX10 unsynchronised, GFX11 hang)', () => {
  for (const gen of GENS) {
    const { diags, unit, a } = setup(gen);
    enter(unit, a, gen);
    if (gen !== 'gfx11') unit.sendMsg(a, 7, ZERO);
    unit.endProgram(a);
    assert.deepEqual(ids(diags), ['pops.export.missing'], gen);
  }
});

test('pops.exit.twice: ORDERED_PS_DONE sent twice', () => {
  for (const gen of ['gfx9', 'gfx103'] as const) {
    const { diags, unit, a } = setup(gen);
    unit.sendMsg(a, 7, ZERO);
    unit.sendMsg(a, 7, ZERO);
    assert.deepEqual(ids(diags), ['pops.exit.twice'], gen);
  }
});

test('pops.exit.before-wait: ORDERED_PS_DONE (or GFX11 last export) before the overlapped wave left', () => {
  for (const gen of GENS) {
    const { diags, unit, a, b } = setup(gen);
    enter(unit, a, gen);
    if (gen === 'gfx11') {
      unit.exportDone(b, true, ZERO);
    } else {
      unit.setPopsPacker(b, 0); // no-op on GFX10.3 without the enable bit; GFX9 gets MODE instead
      if (gen === 'gfx9') unit.setMode(b, packerSetregValue(gen, b.collisionWaveId));
      else unit.setPopsPacker(b, packerSetregValue(gen, b.collisionWaveId));
      unit.sendMsg(b, 7, ZERO);
    }
    assert.deepEqual(ids(diags).filter((i) => i !== 'pops.packer.wrong-register'), ['pops.exit.before-wait'], gen);
  }
});

test('pops.exit.counters-outstanding: memory counters not awaited at the exit', () => {
  for (const gen of GENS) {
    const { diags, unit, a } = setup(gen);
    enter(unit, a, gen);
    if (gen === 'gfx11') unit.exportDone(a, true, { vm: 0, vs: 2, lgkm: 0 });
    else unit.sendMsg(a, 7, { vm: 1, vs: 0, lgkm: 0 });
    assert.deepEqual(ids(diags), ['pops.exit.counters-outstanding'], gen);
  }
});

test('pops.wait.no-overlap: the wait loop run with did-overlap 0 is reported as the hang it is, and the loop ends', () => {
  for (const gen of ['gfx9', 'gfx103'] as const) {
    const { diags, unit, a } = setup(gen);
    unit.setPopsPacker(a, 1 | (1 << 1));
    unit.setMode(a, 0b10);
    const e = unit.readExitingWaveId(a);
    assert.equal(shaderMayEnter(gen, a.collisionWaveId, e), true);
    assert.deepEqual(ids(diags).filter((i) => i !== 'pops.packer.wrong-register'), ['pops.wait.no-overlap'], gen);
  }
});

test('pops.packer.setreg-missing: polling src_pops_exiting_wave_id before selecting the packer', () => {
  for (const gen of ['gfx9', 'gfx103'] as const) {
    const { diags, unit, b } = setup(gen);
    unit.readExitingWaveId(b);
    assert.deepEqual(ids(diags), ['pops.packer.setreg-missing'], gen);
  }
});

test('pops.wait.gfx9-sleep-delay: GFX9 wait loop sleeping 0xFFFF (GFX9 exits wake nobody); GFX10.3 0xFFFF is fine', () => {
  for (const gen of ['gfx9', 'gfx103'] as const) {
    const { diags, unit, a, b } = setup(gen);
    enter(unit, a, gen);
    enter(unit, b, gen);
    const r = unit.sleep(b, 0xffff);
    assert.equal(r.wakeOnExit, gen !== 'gfx9');
    assert.deepEqual(ids(diags), gen === 'gfx9' ? ['pops.wait.gfx9-sleep-delay'] : [], gen);
    if (gen === 'gfx103') {
      unit.sendMsg(a, 7, ZERO);
      assert.equal(b.sleeping, false, 'the exit woke the sleeper');
    }
  }
});

test('pops.wait-event.pre-gfx11 and pops.wait-event.no-export-ready', () => {
  const x = setup('gfx103');
  assert.equal(x.unit.waitEvent(x.b, 0), true);
  assert.deepEqual(ids(x.diags), ['pops.wait-event.pre-gfx11']);
  const y = setup('gfx11');
  assert.equal(y.unit.waitEvent(y.b, 1), true);
  assert.deepEqual(ids(y.diags), ['pops.wait-event.no-export-ready']);
  assert.equal(y.unit.exportReady(y.b), false);
});

test('pops.exiting-id.gfx11, pops.done-msg.gfx11, pops.packer.gfx11', () => {
  const { diags, unit, a } = setup('gfx11');
  unit.readExitingWaveId(a);
  unit.sendMsg(a, 7, ZERO);
  unit.setPopsPacker(a, 3);
  unit.exportDone(a, true, ZERO);
  unit.endProgram(a, true);
  assert.deepEqual(ids(diags), ['pops.exiting-id.gfx11', 'pops.done-msg.gfx11', 'pops.packer.gfx11', 'pops.done-msg.gfx11']);
});

test('pops.enter.after-exit: entering again after leaving the ordered section', () => {
  for (const gen of GENS) {
    const { diags, unit, a, b } = setup(gen);
    enter(unit, a, gen);
    leave(unit, a, gen);
    enter(unit, b, gen);
    if (gen === 'gfx11') unit.exportDone(b, true, ZERO);
    else unit.sendMsg(b, 7, ZERO);
    enter(unit, b, gen);
    assert.ok(ids(diags).includes('pops.enter.after-exit'), gen);
  }
});

test('pops.packer.mismatch / changed / invalid / wrong-register', () => {
  const g9 = setup('gfx9'); // packer 1
  g9.unit.setMode(g9.b, 0b01);
  g9.unit.setMode(g9.b, 0b10);
  g9.unit.setMode(g9.b, 0b11);
  g9.unit.setPopsPacker(g9.b, 3);
  assert.deepEqual(ids(g9.diags), ['pops.packer.mismatch', 'pops.packer.changed', 'pops.packer.invalid', 'pops.packer.wrong-register']);
  const g10 = setup('gfx103');
  g10.unit.setPopsPacker(g10.b, 1 | (2 << 1));
  assert.deepEqual(ids(g10.diags), ['pops.packer.mismatch']);
  const quiet = setup('gfx103');
  quiet.unit.setPopsPacker(quiet.b, 1 | (1 << 1));
  quiet.unit.setPopsPacker(quiet.b, 1 | (1 << 1));
  quiet.unit.setMode(quiet.b, 0b11); // MODE[25:24] mean nothing for POPS on GFX10+
  assert.deepEqual(ids(quiet.diags), []);
});

// ---- draw configuration

function cfgIds(gen: PopsGen, regs: Record<string, number>, chip: 'vega10' | 'raven' | 'other' = 'other'): string[] {
  const d = new Diagnostics();
  decodePopsDraw(gen, regs, d, chip);
  return ids(d);
}

test('draw configuration: the driver-correct registers are quiet on every generation, mode and sample count', () => {
  for (const gen of GENS) {
    for (const samples of [1, 2, 4, 8]) {
      for (const interlock of ['pixel', 'sample'] as const) {
        assert.deepEqual(cfgIds(gen, drawRegs(gen, { samples, interlock, intrawave: true })), [], `${gen} ${samples} ${interlock}`);
      }
    }
  }
});

test('pops.config.arg-half-enabled: COLLISION_WAVEID enabled in RSRC2_PS only', () => {
  for (const gen of GENS) {
    const r = { ...drawRegs(gen, { samples: 1, interlock: 'pixel' }), PA_SC_SHADER_CONTROL: 0 };
    assert.deepEqual(cfgIds(gen, r), ['pops.config.arg-half-enabled'], gen);
    assert.equal(decodePopsDraw(gen, r).loadCollisionWaveId, false);
  }
});

test('pops.config.intrawave-gfx11, pops.config.rate-enable-missing, pops.config.z-num-samples (GFX11)', () => {
  const base = drawRegs('gfx11', { samples: 4, interlock: 'sample' });
  const iw = {
    ...base,
    SPI_SHADER_PGM_RSRC2_PS: setField('gfx11', 'SPI_SHADER_PGM_RSRC2_PS', 'LOAD_INTRAWAVE_COLLISION', 1, base['SPI_SHADER_PGM_RSRC2_PS']),
    PA_SC_SHADER_CONTROL: setField('gfx11', 'PA_SC_SHADER_CONTROL', 'LOAD_INTRAWAVE_COLLISION', 1, base['PA_SC_SHADER_CONTROL']),
  };
  assert.deepEqual(cfgIds('gfx11', iw), ['pops.config.intrawave-gfx11']);
  const noEnable = { ...base, DB_SHADER_CONTROL: setField('gfx11', 'DB_SHADER_CONTROL', 'OVERRIDE_INTRINSIC_RATE_ENABLE', 0, base['DB_SHADER_CONTROL']) };
  assert.deepEqual(cfgIds('gfx11', noEnable), ['pops.config.rate-enable-missing']);
  assert.deepEqual(cfgIds('gfx11', { ...base, DB_Z_INFO: 0 }), ['pops.config.z-num-samples']);
  // DB_Z_INFO.NUM_SAMPLES is not the POPS sample count before GFX11.
  assert.deepEqual(cfgIds('gfx103', { ...drawRegs('gfx103', { samples: 4, interlock: 'sample' }), DB_Z_INFO: 0 }), []);
});

test('pops.config.overlap-samples: interlock sample count neither 1 nor MSAA_EXPOSED_SAMPLES', () => {
  for (const gen of GENS) {
    const r = drawRegs(gen, { samples: 8, interlock: 'sample' });
    const field = gen === 'gfx11' ? 'OVERRIDE_INTRINSIC_RATE' : 'POPS_OVERLAP_NUM_SAMPLES';
    const bad = { ...r, DB_SHADER_CONTROL: setField(gen, 'DB_SHADER_CONTROL', field, 2, r['DB_SHADER_CONTROL']) };
    assert.deepEqual(cfgIds(gen, bad), ['pops.config.overlap-samples'], gen);
  }
});

test('pops.config.drain-missing: Vega10/Raven 8x POPS without DB_DFSM_CONTROL.POPS_DRAIN_PS_ON_OVERLAP', () => {
  const r = drawRegs('gfx9', { samples: 8, interlock: 'pixel' });
  assert.deepEqual(cfgIds('gfx9', r, 'vega10'), ['pops.config.drain-missing']);
  assert.deepEqual(cfgIds('gfx9', r, 'raven'), ['pops.config.drain-missing']);
  assert.deepEqual(cfgIds('gfx9', r, 'other'), []);
  assert.deepEqual(cfgIds('gfx9', { ...r, DB_DFSM_CONTROL: setField('gfx9', 'DB_DFSM_CONTROL', 'POPS_DRAIN_PS_ON_OVERLAP', 1) }, 'vega10'), []);
  assert.deepEqual(cfgIds('gfx9', drawRegs('gfx9', { samples: 4, interlock: 'pixel' }), 'vega10'), []);
});
