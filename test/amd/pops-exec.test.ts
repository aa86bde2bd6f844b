/**
 * The executor hooks of POPS (src/amd/exec/pops-exec.ts): s_endpgm_ordered_ps_done semantics and
 * the helpers the owners of s_setreg / operand 239 / s_sleep / s_wait_event / s_sendmsg / exp /
 * s_endpgm call, on real executor waves.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Diagnostics } from '../../src/core/diagnostics.js';
import { lookup, implemented } from '../../src/amd/engine/registry.js';
import '../../src/amd/engine/bind.js';
import {
  attachPops, popsEndpgm, popsExitingWaveId, popsExport, popsSendmsg, popsSetreg, popsSleep, popsWaitEvent,
} from '../../src/amd/exec/pops-exec.js';
import type { ExecEnv } from '../../src/amd/engine/env.js';
import type { Instruction } from '../../src/amd/isa/types.js';
import { PopsUnit, HW_REG_MODE, HW_REG_POPS_PACKER, packerSetregValue, shaderMayEnter } from '../../src/amd/gfx/pops.js';
import type { PopsGen } from '../../src/amd/gfx/pops-config.js';
import { runAsm } from './exec-harness.js';
import { drawConfig } from './pops-sim.js';

function twoWaves(gen: PopsGen) {
  const diags = new Diagnostics();
  const unit = new PopsUnit({ gen, diagnostics: diags, shaderEngines: 1, packerOf: () => [0, 1] });
  const cfg = drawConfig(gen, { samples: 1, interlock: 'pixel' });
  const q = { x: 0, y: 0, coverage: [1, 1, 1, 1] as [number, number, number, number], primitive: 0 };
  const [pa] = unit.rasterize(cfg, [q], 32);
  const [pb] = unit.rasterize(cfg, [q], 32);
  const a = runAsm('s_endpgm').wave;
  const b = runAsm('s_endpgm').wave;
  a.state = b.state = 'ready';
  attachPops(a, unit, pa!);
  attachPops(b, unit, pb!);
  return { diags, unit, a, b, pa: pa!, pb: pb! };
}

const fakeInst = (mnemonic: string): Instruction => ({
  encoding: 'sopp' as Instruction['encoding'], opcode: 30, mnemonic, size: 4, words: [0], fields: {}, literal: undefined, variant: '', info: null,
});

test('s_endpgm_ordered_ps_done has semantics; it sends ORDERED_PS_DONE, ends the wave and wakes GFX10.3 sleepers', () => {
  assert.ok(implemented().includes('s_endpgm_ordered_ps_done'));
  const { diags, unit, a, b, pb } = twoWaves('gfx103');
  const cw = pb.collisionWaveId;
  popsSetreg(b, HW_REG_POPS_PACKER, 0, 3, packerSetregValue('gfx103', cw));
  assert.equal(shaderMayEnter('gfx103', cw, popsExitingWaveId(b)), false);
  assert.equal(popsSleep(b, 0xffff), true);
  b.state = 'sleep';
  popsExport(a, true);
  a.vmcnt = 3;
  const bound = lookup('s_endpgm_ordered_ps_done')!(fakeInst('s_endpgm_ordered_ps_done'), {} as ExecEnv);
  bound.run(a);
  assert.equal(a.state, 'ended');
  assert.equal(a.vmcnt, 0);
  assert.equal(b.state, 'ready', 'the exit woke the sleeping wave');
  assert.equal(shaderMayEnter('gfx103', cw, popsExitingWaveId(b)), true);
  popsSendmsg(b, 7);
  popsExport(b, true);
  popsEndpgm(b);
  assert.deepEqual(diags.list, []);
  assert.equal(unit.inFlight(), 0);
});

test('popsSetreg: GFX9 MODE[25:24] through a wider write, hwreg 25 fields; counters checked at ORDERED_PS_DONE', () => {
  const { diags, a, b, pb } = twoWaves('gfx9');
  popsSetreg(b, HW_REG_MODE, 24, 2, packerSetregValue('gfx9', pb.collisionWaveId));
  assert.equal(pb.packerSet, 1);
  popsSetreg(a, HW_REG_MODE, 0, 32, 0); // MODE write not touching a packer: nothing
  assert.equal(diags.list.length, 0);
  a.vmcnt = 1;
  popsSendmsg(a, 7);
  assert.deepEqual(diags.list.map((d) => d.id), ['pops.exit.counters-outstanding']);
});

test('GFX11: s_wait_event blocks until the overlapped wave exported with done', () => {
  const { diags, a, b } = twoWaves('gfx11');
  assert.equal(popsWaitEvent(a, 0), true);
  assert.equal(popsWaitEvent(b, 0), false);
  popsExport(a, true);
  assert.equal(popsWaitEvent(b, 0), true);
  popsEndpgm(a);
  popsExport(b, true);
  popsEndpgm(b);
  assert.deepEqual(diags.list, []);
});

test('waves without POPS: every helper is a no-op', () => {
  const w = runAsm('s_endpgm').wave;
  popsSetreg(w, HW_REG_POPS_PACKER, 0, 3, 3);
  assert.equal(popsExitingWaveId(w), 0);
  assert.equal(popsSleep(w, 3), false);
  assert.equal(popsWaitEvent(w, 0), true);
  popsSendmsg(w, 7);
  popsExport(w, true);
  popsEndpgm(w);
});
