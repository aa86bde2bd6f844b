/** The generated PA register layouts, state decoding, and the register-rule diagnostics. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generate } from '../../tools/gen/amd/gen-gfx-regs.js';
import { PA_REGS } from '../../src/amd/gfx/pa-regs.gen.js';
import { STANDARD_SAMPLE_LOCATIONS, checkPsInputs, decodePaState, getField, makeReg, standardMsaaRegisters } from '../../src/amd/gfx/state.js';
import { Diagnostics } from '../../src/core/diagnostics.js';
import { GENS, targetRegs } from './gfx-harness.js';
import { regDb, type Pm4Gen } from '../../src/amd/cp/regdb.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const haveRef = existsSync(join(ROOT, '..', 'shared', 'ref', 'mesa-amd-registers', 'gfx11.json')) || !!process.env.GPUSIM_SHARED_REF;

test('gen-gfx-regs reproduces the committed pa-regs.gen.ts', { skip: haveRef ? false : 'shared/ref not present' }, () => {
  for (const [rel, content] of Object.entries(generate())) {
    assert.equal(readFileSync(join(ROOT, rel), 'utf8'), content, `regenerate: npm run gen -- gfx-regs (${rel})`);
  }
});

test('layouts: offsets and the fields the front end reads exist on every generation', () => {
  for (const gen of GENS) {
    const r = PA_REGS[gen];
    assert.equal(r.PA_SU_SC_MODE_CNTL.offset, 0x28814 / 4);
    assert.deepEqual(r.PA_SU_SC_MODE_CNTL.fields.CULL_BACK, [1, 1]);
    assert.deepEqual(r.PA_SC_AA_CONFIG.fields.MSAA_NUM_SAMPLES, [0, 2]);
    assert.equal(r.PA_CL_VPORT_XSCALE.offset, 0x2843c / 4);
    assert.equal(r.SPI_PS_INPUT_ADDR.offset, 0x286d0 / 4);
    assert.deepEqual(r.SPI_PS_INPUT_ENA.fields.POS_FIXED_PT_ENA, [15, 15]);
  }
  assert.ok('VGT_MULTI_PRIM_IB_RESET_EN' in PA_REGS.gfx9);
  assert.ok(!('VGT_MULTI_PRIM_IB_RESET_EN' in PA_REGS.gfx11));
  assert.equal(getField('gfx11', 'PA_SU_VTX_CNTL', 'QUANT_MODE', makeReg('gfx11', 'PA_SU_VTX_CNTL', { QUANT_MODE: 5, PIX_CENTER: 1 })), 5);
});

test('decoding: sample locations round-trip through the registers; restart enable per generation', () => {
  for (const gen of GENS) {
    for (const n of [1, 2, 4, 8, 16] as const) {
      const st = decodePaState(gen, targetRegs({ gen, samples: n }));
      assert.equal(st.numSamples, n);
      for (let p = 0; p < 4; p++) {
        STANDARD_SAMPLE_LOCATIONS[n]!.forEach(([x, y], s) => {
          assert.deepEqual([st.sampleLocs[p]![2 * s], st.sampleLocs[p]![2 * s + 1]], [x, y], `${gen} ${n}x pixel ${p} sample ${s}`);
        });
      }
      // centroid priority starts with the sample closest to the centre
      const locs = STANDARD_SAMPLE_LOCATIONS[n]!;
      const d = (s: number): number => locs[s]![0] ** 2 + locs[s]![1] ** 2;
      assert.equal(d(st.centroidOrder[0]!), Math.min(...locs.map((_, s) => d(s))));
    }
  }
  const g9 = decodePaState('gfx9', { ...targetRegs({ gen: 'gfx9' }), VGT_MULTI_PRIM_IB_RESET_EN: 1, VGT_MULTI_PRIM_IB_RESET_INDX: 0xffff });
  assert.equal(g9.restartEnable, true);
  assert.equal(g9.restartIndex, 0xffff);
  const g11 = decodePaState('gfx11', { ...targetRegs(), PA_SU_SC_MODE_CNTL: makeReg('gfx11', 'PA_SU_SC_MODE_CNTL', { MULTI_PRIM_IB_ENA: 1 }) });
  assert.equal(g11.restartEnable, true);
  assert.ok(standardMsaaRegisters('gfx11', 8).PA_SC_AA_CONFIG! > 0);
});

test('diagnostics: SPI_PS_INPUT_ENA outside ADDR, no barycentric input, invalid MSAA_NUM_SAMPLES; clean state reports nothing', () => {
  const clean = new Diagnostics();
  for (const gen of GENS) for (const n of [1, 2, 4, 8, 16] as const) decodePaState(gen, targetRegs({ gen, samples: n }), clean);
  checkPsInputs(0x0302, 0x0303, clean);
  assert.equal(clean.size, 0);

  const d1 = new Diagnostics();
  checkPsInputs(0x0003, 0x0002, d1);
  assert.deepEqual(d1.list.map((x) => x.id), ['amd.spi.ps-input-ena-not-in-addr']);
  assert.equal(d1.list[0]!.seed, '001_5e6764f932d07b8a.txt');

  const d2 = new Diagnostics();
  checkPsInputs(0x0300, 0x0300, d2);
  assert.deepEqual(d2.list.map((x) => x.id), ['amd.spi.ps-input-no-ij']);

  const d3 = new Diagnostics();
  const st = decodePaState('gfx103', { ...targetRegs({ gen: 'gfx103' }), PA_SC_AA_CONFIG: 5 }, d3);
  assert.deepEqual(d3.list.map((x) => x.id), ['amd.pa.aa-config.num-samples-invalid']);
  assert.equal(st.numSamples, 16);

  const strict = new Diagnostics({ strict: true });
  assert.throws(() => checkPsInputs(0x1, 0x0, strict), /ps-input-ena-not-in-addr/);
});

test('DB registers: every field db.ts reads has one layout (and enum values) on gfx9, gfx103 and gfx11; only offsets and GFX9\'s DB_DEPTH_SIZE name differ', () => {
  // What decodeDepthState reads (src/amd/gfx/db.ts), by register.
  const read: Record<string, string[]> = {
    DB_Z_INFO: ['FORMAT', 'NUM_SAMPLES'], DB_STENCIL_INFO: ['FORMAT'],
    DB_DEPTH_CONTROL: ['STENCIL_ENABLE', 'Z_ENABLE', 'Z_WRITE_ENABLE', 'ZFUNC', 'BACKFACE_ENABLE', 'STENCILFUNC', 'STENCILFUNC_BF'],
    DB_STENCIL_CONTROL: ['STENCILFAIL', 'STENCILZPASS', 'STENCILZFAIL', 'STENCILFAIL_BF', 'STENCILZPASS_BF', 'STENCILZFAIL_BF'],
    DB_STENCILREFMASK: ['STENCILTESTVAL', 'STENCILMASK', 'STENCILWRITEMASK', 'STENCILOPVAL'],
    DB_SHADER_CONTROL: ['Z_EXPORT_ENABLE', 'Z_ORDER', 'KILL_ENABLE', 'MASK_EXPORT_ENABLE', 'DEPTH_BEFORE_SHADER'],
    DB_Z_READ_BASE_HI: ['BASE_HI'], DB_STENCIL_WRITE_BASE_HI: ['BASE_HI'],
  };
  const layout = (gen: Pm4Gen, reg: string, f: string): string => {
    const x = regDb(gen).get(reg)?.fields.find((y) => y.name === f);
    assert.ok(x, `${gen} ${reg}.${f}`);
    return JSON.stringify([x.lo, x.hi, x.values ? [...x.values] : null]);
  };
  for (const [reg, fields] of Object.entries(read)) for (const f of fields) {
    assert.equal(layout('gfx9', reg, f), layout('gfx11', reg, f), `${reg}.${f} gfx9 vs gfx11`);
    assert.equal(layout('gfx103', reg, f), layout('gfx11', reg, f), `${reg}.${f} gfx103 vs gfx11`);
  }
  // The depth surface size: DB_DEPTH_SIZE on GFX9, DB_DEPTH_SIZE_XY after, with the same X_MAX/Y_MAX.
  assert.equal(layout('gfx9', 'DB_DEPTH_SIZE', 'X_MAX'), layout('gfx11', 'DB_DEPTH_SIZE_XY', 'X_MAX'));
  assert.equal(regDb('gfx9').get('DB_DEPTH_SIZE_XY'), undefined);
  // Offsets move: DB_Z_INFO is 0x28038 on GFX9, 0x28040 on GFX10.3/GFX11.
  assert.equal(regDb('gfx9').get('DB_Z_INFO')!.offset * 4, 0x28038);
  assert.equal(regDb('gfx103').get('DB_Z_INFO')!.offset * 4, 0x28040);
});
