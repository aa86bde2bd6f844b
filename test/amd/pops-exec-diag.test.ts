/**
 * The POPS diagnostics fired by executed instructions (gfx1100): each broken variant of the OIT
 * pixel shader raises its diagnostic through the instruction hooks (s_wait_event, s_sendmsg,
 * s_setreg, operand 239, exp, s_endpgm), and the correct shader stays quiet. Also the draw
 * configuration rules of "Export requirements", the GFX10.1 workaround and VRS.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import '../../src/amd/engine/bind.js';
import { Diagnostics } from '../../src/core/diagnostics.js';
import { gfx11 } from '../../src/amd/isa/gfx11/index.js';
import { oitDrawRegs, oitShader, runOit } from '../../src/amd/gfx/pops-oit.js';
import type { OitOptions } from '../../src/amd/gfx/pops-oit.js';
import { decodePopsDraw, setField } from '../../src/amd/gfx/pops-config.js';
import type { PopsChip, PopsGen, PopsVrs } from '../../src/amd/gfx/pops-config.js';
import { POPS_ENUMS } from '../../src/amd/gfx/pops-regs.gen.js';

const draws = [{ samples: 4, interlock: 'pixel' }, { samples: 4, interlock: 'pixel' }] as const;

function ids(shader: string, extra: Partial<OitOptions> = {}): string[] {
  const r = runOit({ gen: 'gfx11', target: gfx11, seed: 3, draws, prims: 16, size: 32, shader, ...extra });
  assert.equal(r.run.aborted, false);
  return [...new Set(r.diags.list.map((d) => d.id))].sort();
}

const clean = oitShader('gfx11');
const EXP = '  exp mrt0 off, off, off, off done';

test('the correct gfx1100 shader raises nothing', () => {
  assert.ok(clean.includes(EXP));
  assert.deepEqual(ids(clean), []);
});

test('pops.export.missing: the wave ends without an export under POPS', () => {
  assert.deepEqual(ids(clean.replace(EXP, '')), ['pops.export.missing']);
});

test('pops.wait-event.no-export-ready: s_wait_event with bit 0 set does not wait', () => {
  const got = ids(clean.replace('s_wait_event 0x0', 's_wait_event 0x1'));
  assert.ok(got.includes('pops.wait-event.no-export-ready'), got.join());
});

test('pops.done-msg.gfx11: s_sendmsg 7 (ORDERED_PS_DONE) is not the GFX11 exit', () => {
  const got = ids(clean.replace(EXP, `  s_sendmsg 7\n${EXP}`));
  assert.ok(got.includes('pops.done-msg.gfx11'), got.join());
});

test('pops.packer.gfx11: setting HW_REG_POPS_PACKER on GFX11', () => {
  const got = ids(clean.replace('s_wait_event 0x0', 's_mov_b32 s1, 1\n  s_setreg_b32 hwreg(25, 0, 3), s1\n  s_wait_event 0x0'));
  assert.ok(got.includes('pops.packer.gfx11'), got.join());
});

test('pops.exiting-id.gfx11: reading src_pops_exiting_wave_id (operand 239) on GFX11', () => {
  // s_add_i32 s4, src_pops_exiting_wave_id, s2: the assembler (like llvm-mc) refuses the operand on gfx1100.
  const got = ids(clean.replace('s_wait_event 0x0', '.long 0x810402ef\n  s_wait_event 0x0'));
  assert.ok(got.includes('pops.exiting-id.gfx11'), got.join());
});

test('pops.enter.after-exit: waiting for export_ready again after the last export', () => {
  const got = ids(clean.replace(EXP, `${EXP}\n  s_wait_event 0x0`));
  assert.ok(got.includes('pops.enter.after-exit'), got.join());
});

test('pops.export.skipped: export skipping (STATUS.SKIP_EXPORT) under POPS', () => {
  const got = ids(clean, { exportSkipping: true });
  assert.ok(got.includes('pops.export.skipped'), got.join());
  assert.ok(got.includes('pops.export.missing'), 'a skipped export is no export');
});

function configIds(gen: PopsGen, regs: Record<string, number>, chip: PopsChip = 'other', vrs?: PopsVrs): string[] {
  const d = new Diagnostics();
  decodePopsDraw(gen, regs, d, chip, vrs);
  return d.list.map((x) => x.id);
}

test('pops.export.no-allocation: GFX10+ without SPI_SHADER_COL_FORMAT / Z format space; quiet with SPI_SHADER_32_R', () => {
  for (const gen of ['gfx103', 'gfx11'] as const) {
    const regs = oitDrawRegs(gen, draws[0]);
    assert.deepEqual(configIds(gen, regs), [], gen);
    assert.equal(regs['SPI_SHADER_COL_FORMAT'], setField(gen, 'SPI_SHADER_COL_FORMAT', 'COL0_EXPORT_FORMAT', POPS_ENUMS.SPI_SHADER_32_R));
    assert.deepEqual(configIds(gen, { ...regs, SPI_SHADER_COL_FORMAT: 0 }), ['pops.export.no-allocation'], gen);
    assert.deepEqual(configIds(gen, { ...regs, SPI_SHADER_COL_FORMAT: 0, SPI_SHADER_Z_FORMAT: setField(gen, 'SPI_SHADER_Z_FORMAT', 'Z_EXPORT_FORMAT', 1) }), [], gen);
  }
  assert.deepEqual(configIds('gfx9', { ...oitDrawRegs('gfx9', draws[0]), SPI_SHADER_COL_FORMAT: 0 }), [], 'no export skipping before GFX10');
});

test('pops.config.pslc-missing: Navi10/12/14 with POPS_DRAIN_PS_ON_OVERLAP need PSLC_ON_HANG_ONLY', () => {
  const regs = { ...oitDrawRegs('gfx103', draws[0]), DB_DFSM_CONTROL: setField('gfx103', 'DB_DFSM_CONTROL', 'POPS_DRAIN_PS_ON_OVERLAP', 1) };
  for (const chip of ['navi10', 'navi12', 'navi14'] as const) {
    assert.deepEqual(configIds('gfx103', regs, chip), ['pops.config.pslc-missing'], chip);
    const ok = { ...regs, DB_RENDER_OVERRIDE2: setField('gfx103', 'DB_RENDER_OVERRIDE2', 'PARTIAL_SQUAD_LAUNCH_CONTROL', POPS_ENUMS.PSLC_ON_HANG_ONLY) };
    assert.deepEqual(configIds('gfx103', ok, chip), [], chip);
  }
  assert.deepEqual(configIds('gfx103', regs, 'other'), [], 'GFX10.3 chips do not need it');
  assert.deepEqual(configIds('gfx103', oitDrawRegs('gfx103', draws[0]), 'navi10'), [], 'drain off: nothing to work around');
});

test('VRS: GFX10.3 forces 1x1 under POPS; GFX11 coarse rates interlock per fine pixel unless FORCE_SC_VRS_RATE_FINE_POPS', () => {
  const vrs: PopsVrs = { rateX: 2, rateY: 2 };
  const d103 = new Diagnostics();
  const c103 = decodePopsDraw('gfx103', oitDrawRegs('gfx103', draws[0]), d103, 'other', vrs);
  assert.deepEqual(c103.shadingRate, [1, 1]);
  assert.deepEqual(d103.list.map((x) => x.id), ['pops.vrs.forced-1x1']);
  const d11 = new Diagnostics();
  const c11 = decodePopsDraw('gfx11', oitDrawRegs('gfx11', draws[0]), d11, 'other', vrs);
  assert.deepEqual(c11.shadingRate, [2, 2]);
  assert.deepEqual(d11.list.map((x) => x.id), ['pops.vrs.coarse-interlock']);
  const f11 = new Diagnostics();
  const forced = decodePopsDraw('gfx11', oitDrawRegs('gfx11', draws[0]), f11, 'other', { ...vrs, forceScVrsRateFinePops: true });
  assert.deepEqual(forced.shadingRate, [1, 1]);
  assert.deepEqual(f11.list, []);
  assert.deepEqual(configIds('gfx11', oitDrawRegs('gfx11', draws[0]), 'other', { rateX: 1, rateY: 1 }), []);
});
