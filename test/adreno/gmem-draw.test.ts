/**
 * GMEM rendering of the example scenes: the tiled pass (driver/gmem.ts, rb/gmem-pass.ts) gives
 * byte-identical targets to the sysmem pass, for several bin sizes (including bins that do not
 * divide the framebuffer) with and without hardware binning, and the visibility stream skips work.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runA6xxScene, type A6xxGpu } from '../../src/runtime/draw-a6xx.js';

const EXAMPLES = join(import.meta.dirname, '..', '..', '..', 'examples');
const scene = (name: string): Record<string, unknown> => JSON.parse(readFileSync(join(EXAMPLES, name, 'scene.json'), 'utf8')) as Record<string, unknown>;
const errs = (r: ReturnType<typeof runA6xxScene>): string[] => r.diag.list.filter((d) => d.severity !== 'info').map((d) => d.id);

const BINS: ({ w: number; h: number } | undefined)[] = [undefined, { w: 32, h: 16 }, { w: 96, h: 48 }, { w: 32, h: 48 }];

for (const name of ['triangle', 'blend', 'msaa']) {
  test(`examples/${name}: GMEM == sysmem for every bin size, binned and not`, () => {
    const s = scene(name);
    const dir = join(EXAMPLES, name);
    for (const gpu of ['a630', 'a660'] as A6xxGpu[]) {
      const sys = runA6xxScene(s, dir, gpu);
      assert.deepEqual(errs(sys), []);
      for (const bin of gpu === 'a630' ? BINS : [undefined, { w: 32, h: 16 }]) {
        for (const binning of [true, false]) {
          const g = runA6xxScene(s, dir, gpu, { ...(bin ? { bin } : {}), binning });
          const what = `${name} ${gpu} bin ${bin ? `${bin.w}x${bin.h}` : 'auto'} binning ${binning}`;
          assert.deepEqual(errs(g), [], what);
          assert.ok(g.draws.length > 0 && g.draws.every((d) => d.ran), `${what}: draws ran`);
          g.targets.forEach((t, i) => assert.deepEqual(t.data, sys.targets[i]!.data, `${what}: target ${i}`));
          // MSAA scenes: the 2D engine's resolve after the pass sees the finished targets.
          assert.deepEqual(g.resolved, sys.resolved, `${what}: resolved`);
        }
      }
    }
  });
}

test('a small triangle: the binning pass keeps it out of the bins it misses, the image is unchanged', () => {
  const s = scene('triangle');
  const buffers = s['buffers'] as Record<string, { values: number[] }>;
  // Shrink the triangle into the top-left corner (positions are the first two of every 8 floats).
  const v = buffers['vertices']!.values.map((x, i) => (i % 8 < 2 ? x * 0.15 - 0.75 : x));
  const small = { ...s, buffers: { ...buffers, vertices: { ...buffers['vertices'], values: v } } };
  const dir = join(EXAMPLES, 'triangle');
  const sys = runA6xxScene(small, dir, 'a630');
  const binned = runA6xxScene(small, dir, 'a630', { bin: { w: 32, h: 16 }, binning: true });
  const all = runA6xxScene(small, dir, 'a630', { bin: { w: 32, h: 16 }, binning: false });
  assert.deepEqual(errs(binned), []);
  assert.deepEqual(binned.targets[0]!.data, sys.targets[0]!.data);
  assert.deepEqual(all.targets[0]!.data, sys.targets[0]!.data);
  // 8 bins: the clear runs in all of them, the triangle only where its box lies.
  assert.equal(all.draws.length, 16);
  assert.ok(binned.draws.length < all.draws.length && binned.draws.length >= 9, `binned draws ${binned.draws.length}`);
});

test('per-primitive visibility: bins skip the primitives the binning pass left out, images equal sysmem', () => {
  const s = scene('triangle');
  const buffers = s['buffers'] as Record<string, { values: number[] }>;
  // Eight small triangles in one draw, spread over the target (two rows of four).
  const tri = buffers['vertices']!.values;
  const values: number[] = [];
  for (let k = 0; k < 8; k++) for (let v = 0; v < 3; v++) values.push(...tri.slice(v * 8, v * 8 + 8).map((x, i) => (i === 0 ? x * 0.2 - 0.75 + 0.5 * (k % 4) : i === 1 ? x * 0.2 + (k < 4 ? -0.5 : 0.5) : x)));
  const many = { ...s, buffers: { ...buffers, vertices: { ...buffers['vertices'], values } }, draws: [{ topology: 'DI_PT_TRILIST', count: 24 }] };
  const dir = join(EXAMPLES, 'triangle');
  const sys = runA6xxScene(many, dir, 'a630');
  assert.deepEqual(errs(sys), []);
  for (const bin of [{ w: 32, h: 16 }, { w: 32, h: 32 }, { w: 64, h: 16 }, { w: 96, h: 48 }]) {
    const what = `bin ${bin.w}x${bin.h}`;
    const binned = runA6xxScene(many, dir, 'a630', { bin, binning: true });
    const all = runA6xxScene(many, dir, 'a630', { bin, binning: false });
    assert.deepEqual(errs(binned), [], what);
    assert.deepEqual(binned.targets[0]!.data, sys.targets[0]!.data, what);
    assert.deepEqual(all.targets[0]!.data, sys.targets[0]!.data, what);
    // Each bin the draw is visible in sets up only its primitives: 8 per visible bin minus the skipped.
    const bins = binned.gmem!.nx * binned.gmem!.ny;
    const sceneRuns = binned.draws.filter((d) => d.result && d.result.assembled === 8);
    assert.equal(sceneRuns.reduce((a, d) => a + d.result!.binSkipped + d.result!.primitives, 0), 8 * sceneRuns.length, what);
    assert.ok(binned.gmem!.skippedPrims > 0 && binned.gmem!.skippedPrims === sceneRuns.reduce((a, d) => a + d.result!.binSkipped, 0), `${what}: ${binned.gmem!.skippedPrims} skipped`);
    assert.equal(all.gmem!.skippedPrims, 0, what);
    assert.ok(sceneRuns.length <= bins, what);
  }
});

test('gpusim draw --gpu a630 --gmem --bin: the tiled run prints its bins; bad bins are usage errors', async () => {
  const { main } = await import('../../src/cli/main.js');
  const cli = async (...argv: string[]) => {
    let out = '', err = '';
    const code = await main(argv, { stdout: (s) => void (out += s), stderr: (s) => void (err += s), isTTY: false });
    return { code, out, err };
  };
  const file = join(EXAMPLES, 'triangle', 'scene.json');
  const ok = await cli('draw', file, '--gpu', 'a630', '--gmem', '--bin', '32x16', '--json');
  assert.equal(ok.code, 0, ok.err);
  const j = JSON.parse(ok.out) as { gmem: { binW: number; binH: number; nx: number; ny: number; binning: boolean } };
  assert.deepEqual([j.gmem.binW, j.gmem.binH, j.gmem.nx, j.gmem.ny, j.gmem.binning], [32, 16, 2, 4, true]);
  for (const argv of [['--gmem', '--bin', '40x16'], ['--bin', '32x16'], ['--gmem', '--bin', 'big']]) {
    const r = await cli('draw', file, '--gpu', 'a630', ...argv);
    assert.equal(r.code, 2, argv.join(' '));
    assert.equal(r.err.split('\n').filter(Boolean).length, 1);
  }
  const noGpu = await cli('draw', file, '--gmem');
  assert.equal(noGpu.code, 2);
});
