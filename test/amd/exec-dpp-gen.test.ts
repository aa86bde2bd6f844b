/**
 * GFX9's DPP16 controls that GFX10 dropped (valu-core.ts dpp16Lane with GFX9 set by
 * target/normalize.ts): wave_shl/wave_rol/wave_shr/wave_ror by one lane and row_bcast:15/31, in gfx900
 * assembly. Expected lanes worked out from the GFX9 ISA guide's DPP_CTRL table; lanes whose source
 * is out of range are not written (bound_ctrl clear), rows off in row_mask are not written.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runAsm } from './exec-harness.js';
import { targets } from '../../src/amd/isa/targets.js';

const gfx900 = targets.gfx900!;
const gfx1030 = targets.gfx1030!;
const LANES = Array.from({ length: 64 }, (_, l) => 100 + l);
const OLD = 0xdead;

function mov(ctrl: string, rowMask = '0xf', t = gfx900, ws: 32 | 64 = 64): number[] {
  const r = runAsm(`v_mov_b32_dpp v1, v0 ${ctrl} row_mask:${rowMask} bank_mask:0xf\ns_endpgm`, { target: t, waveSize: ws, vgpr: { 0: LANES, 1: OLD } });
  assert.deepEqual(r.diags, []);
  return Array.from({ length: ws }, (_, l) => r.v(1, l));
}

test('gfx900 DPP wave_shl:1 / wave_shr:1: lane l reads l+1 / l-1; the lane off the wave end is not written', () => {
  const shl = mov('wave_shl:1');
  for (let l = 0; l < 63; l++) assert.equal(shl[l], 100 + l + 1, `shl lane ${l}`);
  assert.equal(shl[63], OLD);
  const shr = mov('wave_shr:1');
  assert.equal(shr[0], OLD);
  for (let l = 1; l < 64; l++) assert.equal(shr[l], 100 + l - 1, `shr lane ${l}`);
});

test('gfx900 DPP wave_rol:1 / wave_ror:1 wrap around the 64 lanes', () => {
  const rol = mov('wave_rol:1');
  for (let l = 0; l < 64; l++) assert.equal(rol[l], 100 + ((l + 1) % 64), `rol lane ${l}`);
  const ror = mov('wave_ror:1');
  for (let l = 0; l < 64; l++) assert.equal(ror[l], 100 + ((l + 63) % 64), `ror lane ${l}`);
});

test('gfx900 DPP row_bcast:15 (row_mask 0xa) and row_bcast:31 (row_mask 0xc), as reductions use them', () => {
  const b15 = mov('row_bcast:15', '0xa');
  for (let l = 0; l < 64; l++) {
    const row = l >> 4;
    assert.equal(b15[l], row & 1 ? 100 + row * 16 - 1 : OLD, `bcast15 lane ${l}`);
  }
  const b31 = mov('row_bcast:31', '0xc');
  for (let l = 0; l < 64; l++) assert.equal(b31[l], l >= 32 ? 131 : OLD, `bcast31 lane ${l}`);
  // Row 0 has no row before it: with every row enabled it is still not written.
  const all = mov('row_bcast:15');
  for (let l = 0; l < 16; l++) assert.equal(all[l], OLD);
});

test('gfx1030 DPP row_share and row_xmask (GFX10 controls) still run per row', () => {
  const share = mov('row_share:3', '0xf', gfx1030, 32);
  for (let l = 0; l < 32; l++) assert.equal(share[l], 100 + (l & ~15) + 3, `share lane ${l}`);
  const xm = mov('row_xmask:5', '0xf', gfx1030, 32);
  for (let l = 0; l < 32; l++) assert.equal(xm[l], 100 + ((l & ~15) | ((l & 15) ^ 5)), `xmask lane ${l}`);
});
