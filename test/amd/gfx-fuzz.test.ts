/** Random register states and hostile positions (NaN, Inf, w = 0, huge) never throw or hang. */
import { mulberry32 } from '../../src/core/prng.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodePaState, makeReg } from '../../src/amd/gfx/state.js';
import { runFrontEnd } from '../../src/amd/gfx/frontend.js';
import { psInputVgprs } from '../../src/amd/gfx/waves.js';
import { Diagnostics } from '../../src/core/diagnostics.js';
import { GENS, targetRegs } from './gfx-harness.js';

const rng = mulberry32;

test('fuzz: random PA/SPI registers and positions', () => {
  const r = rng(1234);
  const u32 = (): number => (r() * 2 ** 32) >>> 0;
  const specials = [NaN, Infinity, -Infinity, 0, -0, 1e30, -1e30, 1e-30];
  for (let iter = 0; iter < 300; iter++) {
    const gen = GENS[iter % 3]!;
    const regs: Record<string, number> = { ...targetRegs({ gen, w: 32, h: 32 }) };
    for (const name of ['PA_CL_CLIP_CNTL', 'PA_CL_VTE_CNTL', 'PA_SU_SC_MODE_CNTL', 'PA_SU_VTX_CNTL', 'PA_SC_AA_CONFIG', 'PA_SC_MODE_CNTL_0',
      'PA_SC_AA_SAMPLE_LOCS_PIXEL_X0Y0_0', 'PA_SC_CENTROID_PRIORITY_0', 'SPI_PS_INPUT_ENA', 'SPI_PS_INPUT_ADDR', 'PA_CL_VPORT_XSCALE',
      'PA_CL_GB_HORZ_CLIP_ADJ', 'PA_SC_WINDOW_OFFSET', 'PA_SU_POINT_SIZE', 'PA_SU_LINE_CNTL', 'VGT_PRIMITIVE_TYPE']) {
      if (r() < 0.4) regs[name] = u32();
    }
    // keep the screen scissor small so the walk is bounded
    regs.PA_SC_SCREEN_SCISSOR_TL = 0;
    regs.PA_SC_SCREEN_SCISSOR_BR = makeReg(gen, 'PA_SC_SCREEN_SCISSOR_BR', { BR_X: 1 + Math.floor(r() * 40), BR_Y: 1 + Math.floor(r() * 40) });
    const diags = new Diagnostics();
    const st = decodePaState(gen, regs, diags);
    const nv = 12;
    const pos: number[] = [];
    for (let i = 0; i < 4 * nv; i++) pos.push(r() < 0.05 ? specials[Math.floor(r() * specials.length)]! : (r() - 0.5) * (r() < 0.1 ? 1e4 : 4));
    const idx: number[] = [];
    for (let i = 0; i < 24; i++) idx.push(r() < 0.05 ? 0xffffffff : Math.floor(r() * nv));
    const res = runFrontEnd(st, { indices: idx, positions: pos, primType: r() < 0.5 ? st.primType & 31 : 4, waveSize: r() < 0.5 ? 32 : 64 }, diags);
    for (const w of res.waves) psInputVgprs(w, st);
    assert.ok(res.quads.length <= 21 * 21 * 24 * 8);
  }
});
