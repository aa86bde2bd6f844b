/**
 * examples/pops-oit in `gpusim draw --gfx gfx1030 / gfx900`: the hardware VS, and a pixel shader with
 * the GFX10.3 / GFX9 entering sequence (COLLISION_WAVEID loaded through SPI_SHADER_PGM_RSRC2_PS and
 * PA_SC_SHADER_CONTROL, the packer register, the src_pops_exiting_wave_id wait loop), the storage
 * image read-modify-written with GLC (DLC) through the per-CU cache model, ORDERED_PS_DONE after
 * the counters and the colour export. The image equals the serial primitive-order reference (and
 * the gfx1100 image) for every seed; removing the wait loop breaks some seed.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import '../../src/amd/engine/bind.js';
import { runScene, type SceneResult } from '../../src/runtime/draw-scene.js';
import { assemble } from '../../src/amd/isa/target.js';
import { executableTarget } from '../../src/amd/target/executable.js';
import { assembleWithLabels } from '../../src/amd/gfx/pops-run.js';
import { POPS_ENTER } from '../../src/amd/gfx/pops-asm.js';
import { imageDiff } from '../../src/amd/gfx/pops-oit.js';
import { setField } from '../../src/amd/gfx/pops-config.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const EX = join(ROOT, 'examples/pops-oit');
type Json = Record<string, unknown>;
const load = (): Json => JSON.parse(readFileSync(join(EX, 'scene.json'), 'utf8')) as Json;

function storage(r: SceneResult): Uint32Array {
  const va = r.buffers.get('storage')!;
  return Uint32Array.from({ length: r.width * r.height }, (_, i) => r.mem.read32(va + 4 * i));
}
function target(r: SceneResult): Uint32Array {
  const t = r.targets[0]!;
  return Uint32Array.from({ length: r.width * r.height }, (_, i) => r.mem.read32(t.va + 4 * i));
}

/** gfx1100's serial image: the committed PNG is it (pops-draw.test.ts). */
const reference = storage(runScene(load(), EX, { order: 'roundrobin', seed: 1, popsCaches: false }));

const GENS = [['gfx1030', 'gfx103', 'ps-gfx1030.s'], ['gfx900', 'gfx9', 'ps-gfx900.s']] as const;

for (const [gfx, gen, file] of GENS) {
  test(`examples/pops-oit --gfx ${gfx}: the pixel shader's entering code is pops-asm.ts's sequence`, () => {
    const t = executableTarget(gfx)!;
    const ps = Array.from(assemble(t, readFileSync(join(EX, file), 'utf8')));
    const enter = Array.from(assembleWithLabels(t, POPS_ENTER[gen]));
    const at = ps.findIndex((_, i) => enter.every((w, k) => ps[i + k] === w));
    assert.ok(at >= 0, 'the hand-offset branches match the labelled sequence');
  });

  test(`examples/pops-oit --gfx ${gfx}: 30 scheduler seeds give the serial primitive-order image, no diagnostics`, () => {
    let polls = 0;
    for (let seed = 1; seed <= 30; seed++) {
      const r = runScene(load(), EX, { gfx, order: seed % 6 === 0 ? 'roundrobin' : 'random', seed });
      assert.equal(r.stats.aborted, false);
      assert.deepEqual(r.diag.list.map((d) => d.id), [], `seed ${seed}`);
      assert.equal(imageDiff(storage(r), reference), 0, `seed ${seed}: storage image`);
      assert.equal(imageDiff(target(r), reference), 0, `seed ${seed}: colour target`);
      assert.equal(r.pops.length, 2);
      assert.ok(r.popsCache !== null);
      polls += r.pops.reduce((n, p) => n + p.blockedPolls, 0);
    }
    assert.ok(polls > 0, 'some wave polled src_pops_exiting_wave_id before it could enter');
  });

  test(`examples/pops-oit --gfx ${gfx}: without the wait loop some seed breaks the order; without COLLISION_WAVEID's enable in PA_SC_SHADER_CONTROL it is reported`, () => {
    const s = load();
    const src = readFileSync(join(EX, file), 'utf8').split('\n');
    (s.shaders as Record<string, Json>).ps = { source: src.map((l) => (/^s_sleep|^s_branch/.test(l) ? 's_nop 0' : l)) };
    let broken = 0;
    for (let seed = 1; seed <= 30 && broken === 0; seed++) {
      if (imageDiff(storage(runScene(s, EX, { gfx, order: 'random', seed })), reference) > 0) broken = seed;
    }
    assert.ok(broken > 0);
    const half = load();
    ((half.state as Json)[gfx] as Json).registers = { ...(((half.state as Json)[gfx] as Json).registers as Json), PA_SC_SHADER_CONTROL: 0 };
    assert.ok(runScene(half, EX, { gfx, seed: 1 }).diag.list.some((d) => d.id === 'pops.config.arg-half-enabled'));
  });
}

test('examples/pops-oit --gfx gfx900 at 8x on Vega10/Raven: POPS_DRAIN_PS_ON_OVERLAP missing is reported; set, the draw is quiet', () => {
  const at8 = (drain: boolean): Json => {
    const s = load();
    s.samples = 8;
    const regs = ((s.state as Json).gfx900 as Json).registers as Json;
    if (drain) regs.DB_DFSM_CONTROL = setField('gfx9', 'DB_DFSM_CONTROL', 'POPS_DRAIN_PS_ON_OVERLAP', 1);
    return s;
  };
  for (const popsChip of ['vega10', 'raven'] as const) {
    const ids = (s: Json) => [...new Set(runScene(s, EX, { gfx: 'gfx900', seed: 2, popsChip }).diag.list.map((d) => d.id))];
    assert.deepEqual(ids(at8(false)), ['pops.config.drain-missing'], popsChip);
    assert.deepEqual(ids(at8(true)), [], popsChip);
  }
  // Other chips, and 1x on Vega10, need no workaround.
  assert.deepEqual(runScene(at8(false), EX, { gfx: 'gfx900', seed: 2 }).diag.list, []);
  assert.deepEqual(runScene(load(), EX, { gfx: 'gfx900', seed: 2, popsChip: 'vega10' }).diag.list, []);
});
