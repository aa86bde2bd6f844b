/**
 * GRAS_CL_GUARDBAND_CLIP_ADJ (gras/guardband.ts): the 3.6 float encoding as freedreno's
 * fd_calc_guardband computes it (its own table of widths; the value a turnip trace shows for a
 * 512-pixel viewport), the older heuristic's fields in the fd-clouds capture decoded, and the
 * clip it implies: triangles crossing the band are clipped at |x|, |y| <= gb w, which never
 * changes the covered pixels (the band holds the viewport; colours move by rounding at most),
 * counted per draw.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { join } from 'node:path';
import { a6xxSceneDescription } from '../../src/runtime/draw-a6xx.js';
import { buildDraw, type GfxScene } from '../../src/adreno/driver/sysmem.js';
import { CommandProcessor } from '../../src/adreno/cp/cp.js';
import { drawRuns } from '../../src/adreno/cp/handlers-gfx.js';
import { Diagnostics } from '../../src/core/diagnostics.js';
import { guardbandAdj, guardbandValue, MAX_GB } from '../../src/adreno/gras/guardband.js';
import { pkt4 } from '../../src/adreno/cp/pm4.js';
import { gpuRegs } from '../../src/adreno/regs/db.js';
import { runRd } from '../../src/adreno/run.js';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const CLOUDS = join(ROOT, '../shared/adreno-captures/traces/fd-clouds.rd.gz');

test('guardband encoding: fd_calc_guardband values and their decoding', () => {
  // fd_calc_guardband(256, 256) = 446 (0x1be), as a working turnip trace programs for 512 pixels.
  assert.equal(guardbandAdj(256, 256), 446);
  // freedreno's own table (offset 0 kept at the width's half): 510 -> 127, 511 -> 127, 512 -> 126.
  assert.equal(guardbandValue(guardbandAdj(255, 255)), 127);
  assert.equal(guardbandValue(guardbandAdj(255.5, 255.5)), 127);
  assert.equal(guardbandValue(guardbandAdj(256, 256)), 126);
  // Small viewports reach the top of the encoding; a zero scale is unbounded.
  assert.equal(guardbandAdj(8, 8), MAX_GB);
  assert.equal(guardbandAdj(0, 0), MAX_GB);
  assert.equal(guardbandValue(0), 1);
  assert.equal(guardbandValue(MAX_GB), 254);
  // Rounded down: the band never exceeds the rasterizer's range for the viewport it was made for.
  for (const size of [64, 100, 1000, 1920, 4096, 16384]) {
    const gb = guardbandValue(guardbandAdj(size / 2, size / 2));
    assert.ok(gb >= 1 && size / 2 + gb * (size / 2) <= 32767, `size ${size}: ${gb}`);
  }
});

test('the fd-clouds capture\'s guardband (older freedreno heuristic) decodes and runs clean', { skip: !existsSync(CLOUDS) && 'no ../shared/adreno-captures' }, () => {
  const r = runRd(new Uint8Array(gunzipSync(readFileSync(CLOUDS))), {}, 'fd-clouds');
  const regs = gpuRegs('a6xx');
  const o = regs.reg('GRAS_CL_GUARDBAND_CLIP_ADJ');
  const vals = new Set(r.cp.work.filter((w) => w.kind === 'draw').map((w) => w.state.get(o)).filter((v) => v !== undefined));
  // HORZ 311, VERT 349 for its 2160x1440 viewport: 511 - 65 (log2(size) - 8), i.e. 29.75 and 46.5.
  assert.deepEqual([...vals], [311 | (349 << 10)]);
  assert.equal(guardbandValue(311), 29.75);
  assert.equal(guardbandValue(349), 46.5);
  assert.deepEqual(r.diag.list.filter((d) => d.id.startsWith('adreno.gras')), []);
});

const f32 = (a: number[]): Uint8Array => new Uint8Array(new Float32Array(a).buffer);
/** One triangle with a vertex far right (x = 100 w: 800 pixels past a 16-pixel viewport). */
function scene(): GfxScene {
  const b = a6xxSceneDescription(JSON.parse(readFileSync(join(ROOT, 'examples/triangle/scene.json'), 'utf8')) as Record<string, unknown>, join(ROOT, 'examples/triangle'), 'a630');
  const v = [-1, -1, 0.5, 1, 1, 0, 0, 1, 100, 0.25, 0.5, 1, 0, 1, 0, 1, -1, 1, 0.5, 1, 0, 0, 1, 1];
  return {
    ...b, width: 16, height: 16, state: { ...b.state, viewport: [0, 0, 16, 16], scissor: [0, 0, 16, 16], blend: [] },
    buffers: new Map([...b.buffers, ['v', f32(v)]]),
    vs: { ...b.vs, inputs: [{ buffer: 'v', stride: 32, offset: 0, format: 'FMT6_32_32_32_32_FLOAT', regid: 0, mask: 0xf }, { buffer: 'v', stride: 32, offset: 16, format: 'FMT6_32_32_32_32_FLOAT', regid: 4, mask: 0xf }] },
    draws: [{ prim: 'DI_PT_TRILIST', count: 3 }],
  };
}
/** Which pixels differ from the clear (pixel 15,15 is outside the triangle). */
const mask = (img: Uint8Array): boolean[] => Array.from({ length: 256 }, (_, p) => img.subarray(p * 4, p * 4 + 4).some((c, k) => c !== img[15 * 64 + 60 + k]));

/** Render with every write of `reg` in the driver's stream replaced by `value`. */
function render(patch: Record<string, number>): { img: Uint8Array; clipped: number; diag: Diagnostics } {
  const d = scene();
  const b = buildDraw(d);
  const regs = gpuRegs('a6xx');
  const seg = b.mem.segments.find((s) => s.base === b.streamIova)!;
  const words = new Uint32Array(seg.u8.buffer, seg.u8.byteOffset, b.stream.length);
  for (const [name, value] of Object.entries(patch)) {
    const h = pkt4(regs.reg(name), 1);
    let n = 0;
    for (let k = 0; k + 1 < words.length; k++) if (words[k] === h) (words[k + 1] = value), n++;
    assert.ok(n > 0, `the driver writes ${name}`);
  }
  const diag = new Diagnostics();
  const cp = new CommandProcessor(b.mem, { diag, gpuId: d.gpuId });
  cp.run(b.streamIova, b.stream.length);
  const t = b.targets[0]!;
  const img = new Uint8Array(16 * 64);
  for (let y = 0; y < 16; y++) img.set(b.mem.readBytes(t.base + y * t.pitch, 64), y * 64);
  // Draw 0 is the driver's clear (a screen-covering triangle), draw 1 the scene's.
  return { img, clipped: drawRuns(cp)[1]!.result!.guardbandClipped, diag };
}

test('guardband clip: a triangle crossing the band is clipped at it, the image unchanged', () => {
  // The driver's band for a 16-pixel viewport is 254 half-widths: x = 100 w is inside it.
  const wide = render({});
  assert.deepEqual(wide.diag.list.filter((d) => d.severity !== 'info'), []);
  assert.equal(wide.clipped, 0);
  // A band of 1 (the viewport itself) and of 29.75 (HORZ 311) cut the triangle.
  for (const horz of [0, 311]) {
    const tight = render({ GRAS_CL_GUARDBAND_CLIP_ADJ: horz | (horz << 10) });
    assert.equal(tight.clipped, 1, `HORZ ${horz}`);
    // The same pixels; colours interpolated from the clipped vertices round within one step.
    assert.deepEqual(mask(tight.img), mask(wide.img), `HORZ ${horz}`);
    assert.ok(tight.img.every((c, k) => Math.abs(c - wide.img[k]!) <= 1), `HORZ ${horz}`);
  }
  // The image is not trivial: the triangle covers part of the target.
  const covered = mask(wide.img).filter(Boolean).length;
  assert.ok(covered > 60 && covered < 256, `${covered} pixels`);
  // GRAS_CL_CNTL CLIP_DISABLE: no x / y clip at all, the same image.
  const off = render({ GRAS_CL_GUARDBAND_CLIP_ADJ: 0, GRAS_CL_CNTL: 1 });
  assert.equal(off.clipped, 0);
  assert.deepEqual(off.img, wide.img);
});
