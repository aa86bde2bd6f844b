/**
 * examples/image-kernel: a hand-written gfx1100 kernel given images and a sampler by a `gpusim run`
 * manifest (`images`, `samplers`): dst = src halved by bilinear sampling, stored with image_store.
 * The reference (the mean of each 2x2 block, through UNORM) is computed here from the manifest's
 * input texels.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { ROOT } from '../../tools/gen/run.js';
import { loadManifest } from '../../src/runtime/manifest.js';
import { runManifest } from '../../src/runtime/run.js';

const PATH = join(ROOT, 'examples/image-kernel/shrink.json');

test('examples/image-kernel: images and a sampler from the manifest; the halved image matches the reference', () => {
  const m = loadManifest(PATH);
  const src = m.buffers.find((b) => b.name === 'src_texels')!;
  assert.equal(src.init.kind, 'values');
  const texel = (x: number, y: number, c: number): number => Number((src.init as { values: readonly number[] }).values[y * 256 + x * 4 + c] ?? 0);
  for (const opts of [{}, { engine: 'interp' as const }, { order: 'random' as const, seed: 3 }]) {
    const r = runManifest(m, opts);
    assert.deepEqual(r.json.diagnostics, []);
    const dst = r.buffers.dst_texels!;
    for (let y = 0; y < 4; y++) {
      for (let x = 0; x < 4; x++) {
        for (let c = 0; c < 4; c++) {
          const sum = texel(2 * x, 2 * y, c) + texel(2 * x + 1, 2 * y, c) + texel(2 * x, 2 * y + 1, c) + texel(2 * x + 1, 2 * y + 1, c);
          // UNORM in [0, 1], the f32 mean, back to 8 bits rounded to nearest.
          const want = Math.floor(Math.fround(sum / 4 / 255) * 255 + 0.5);
          assert.equal(dst[y * 256 + x * 4 + c], want, `(${x},${y}).${c}`);
        }
      }
    }
  }
});

test('a manifest image whose buffer is smaller than its linear layout is refused, naming the sizes', () => {
  const m = loadManifest(PATH);
  const small = { ...m, buffers: m.buffers.map((b) => (b.name === 'src_texels' ? { ...b, count: 2047, bytes: 2047, init: { kind: 'zero' as const } } : b)) };
  assert.throws(() => runManifest(small), /images\.src: a 2d 8x8x1 8_8_8_8_UNORM image with 1 level\(s\) takes 2048 bytes in the gfx1100 linear layout .* buffer 'src_texels' has 2047/);
  const badFormat = { ...m, images: m.images!.map((i) => (i.name === 'dst' ? { ...i, format: '8_8_8_8_NOPE' } : i)) };
  assert.throws(() => runManifest(badFormat), /images\.dst\.format: '8_8_8_8_NOPE' is not an image format of this target/);
});
