/**
 * Scene shaders are assembled in the wave size of the stage that runs them (or the shader's own
 * `wave`): a pixel shader whose text uses lane masks (v_cmp results, v_cndmask conditions,
 * s_and_saveexec) written for wave64 (`vcc`, `s[4:5]`, `exec`) runs as wave64 PS waves
 * (SPI_PS_IN_CONTROL.PS_W32_EN = 0) on gfx1100 and gfx1030 and draws the same image as its wave32
 * spelling (`vcc_lo`, `s4`, `exec_lo`) run as wave32 waves; gfx900 (wave64 only) draws it too.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runScene } from '../../src/runtime/draw-scene.js';
import { InputError } from '../../src/core/errors.js';
import { assemble } from '../../src/amd/isa/target.js';
import { targets } from '../../src/amd/isa/targets.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const DIR = join(ROOT, 'examples/triangle');

/** The triangle example's PS for `gfx` with lane-mask code before its export, spelt for `wave`. */
function psLines(gfx: string, wave: 32 | 64): string[] {
  const file = gfx === 'gfx1100' ? 'ps.s' : 'ps-legacy.s';
  const lines = readFileSync(join(DIR, file), 'utf8').split('\n').map((l) => l.replace(/;.*$/, '').trim()).filter((l) => l !== '');
  const at = lines.findIndex((l) => l.startsWith('exp '));
  const [r, g, b] = /exp mrt0 (v\d+), (v\d+), (v\d+)/.exec(lines[at]!)!.slice(1);
  const w64 = wave === 64;
  // The whole-quad-mode switch at the top of the gfx1100 PS, spelt for the wave size.
  if (w64) lines.forEach((l, i) => { if (l === 's_wqm_b32 exec_lo, exec_lo') lines[i] = 's_wqm_b64 exec, exec'; });
  const mask = w64 ? 's[4:5]' : 's4';
  const vcc = w64 ? 'vcc' : 'vcc_lo';
  const extra = [
    // red > 0.5 -> 1.0 (VOP3 compare into an SGPR (pair), VOP3 v_cndmask reading it)
    `v_cmp_lt_f32_e64 ${mask}, 0.5, ${r}`, `v_cndmask_b32_e64 ${r}, ${r}, 1.0, ${mask}`,
    // green < 0.25 -> 0 (VOPC into VCC, VOP2 v_cndmask reading VCC)
    `v_cmp_le_f32 ${vcc}, 0.25, ${g}`, `v_cndmask_b32 ${g}, 0, ${g}, ${vcc}`,
    // blue > 0.75 -> 1.0 under EXEC narrowed by s_and_saveexec, then EXEC restored
    `v_cmp_lt_f32 ${vcc}, 0.75, ${b}`, w64 ? 's_and_saveexec_b64 s[6:7], vcc' : 's_and_saveexec_b32 s6, vcc_lo',
    `v_mov_b32 ${b}, 1.0`, w64 ? 's_mov_b64 exec, s[6:7]' : 's_mov_b32 exec_lo, s6',
  ];
  return [...lines.slice(0, at), ...extra, ...lines.slice(at)];
}

/** PS waves of the last draw() (wave64 packs the same quads into fewer waves). */
let lastPsWaves = 0;

function draw(gfx: string, wave: 32 | 64, shaderWave?: 32 | 64, text: 32 | 64 = wave): Uint8Array {
  const scene = JSON.parse(readFileSync(join(DIR, 'scene.json'), 'utf8')) as Record<string, Record<string, unknown>>;
  scene.shaders!.ps = { source: psLines(gfx, text), ...(shaderWave ? { wave: shaderWave } : {}) };
  scene.ps = { ...scene.ps!, wave };
  delete scene.ps.gfx900;
  const r = runScene(scene, DIR, { gfx });
  assert.deepEqual(r.diag.list.filter((d) => d.severity !== 'info').map((d) => d.id), [], `${gfx} wave${wave}`);
  lastPsWaves = r.stats.psWaves;
  const t = r.targets[0]!;
  return r.mem.readBytes(t.va, t.width * t.height * r.samples * t.bytes);
}

for (const gfx of ['gfx1100', 'gfx1030']) {
  test(`${gfx}: a wave64 PS written in wave64 text draws the image its wave32 spelling draws as wave32`, () => {
    const w32 = draw(gfx, 32);
    const waves32 = lastPsWaves;
    const w64 = draw(gfx, 64);
    assert.ok(lastPsWaves < waves32, `${gfx}: ${lastPsWaves} wave64 PS waves, ${waves32} wave32`);
    const w64key = draw(gfx, 64, 64);
    assert.deepEqual(w64, w32);
    assert.deepEqual(w64key, w32);
    // The lane-mask code did something: saturated red and blue pixels exist, and green was cut.
    let red = 0;
    let blue = 0;
    for (let i = 0; i < w32.length; i += 4) {
      if (w32[i] === 255) red++;
      if (w32[i + 2] === 255) blue++;
    }
    assert.ok(red > 50 && blue > 50, `red ${red}, blue ${blue}`);
  });
}

test('gfx900 draws the wave64 text as well, the same image as gfx1030', () => {
  assert.deepEqual(draw('gfx900', 64), draw('gfx1030', 64));
});

test('the wave64 text is not wave32 text; a shader whose wave disagrees with its stage is a clear scene error', () => {
  const src = psLines('gfx1100', 64).join('\n');
  assert.throws(() => assemble(targets.gfx1100!, src));
  assert.throws(() => draw('gfx1100', 64, 32), (e: unknown) => e instanceof InputError && /ps\.wave: .*64 but shader 'ps' is written for wave32/.test(e.message));
  assert.throws(() => draw('gfx900', 64, 32), (e: unknown) => e instanceof InputError && /shaders\.ps\.wave: .*gfx900 shaders are wave64/.test(e.message));
});
