/**
 * Render-target and depth clears fill the fresh segments in place (draw-scene.ts fillPattern):
 * every sample holds the clear value, and an all-zero clear writes nothing (the pages of a large
 * target stay untouched until drawn).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fillPattern, runScene, targetBytes } from '../../src/runtime/draw-scene.js';

const ROOT = new URL('../../..', import.meta.url).pathname;

test('fillPattern: copies of the pattern to the end, any length; zeros write nothing', () => {
  for (const p of [[1, 2], [1, 2, 3, 4], [9, 8, 7, 6, 5, 4, 3, 2]]) {
    for (let n = 0; n <= 37; n++) {
      const d = new Uint8Array(n).fill(0xaa);
      fillPattern(d, Uint8Array.from(p));
      assert.deepEqual([...d], Array.from({ length: n }, (_, i) => p[i % p.length]), `pattern ${p} length ${n}`);
    }
  }
  const d = new Uint8Array(64).fill(0xaa);
  fillPattern(d, new Uint8Array(4));
  assert.ok(d.every((b) => b === 0xaa));
});

test('a scene with no draws: every sample of the colour target and of depth holds its clear value', () => {
  const dir = join(ROOT, 'examples/triangle');
  const r = runScene({
    ...(JSON.parse(readFileSync(join(dir, 'scene.json'), 'utf8')) as Record<string, unknown>), width: 5, height: 3, samples: 4,
    targets: [{ name: 'c', format: 'R16G16B16A16_FLOAT', clear: [0.5, -2, 0, 1] }],
    depth: { format: 'Z_16', clear: 0.25 }, draws: [],
  }, dir);
  const t = targetBytes(r, r.targets[0]!);
  const h = new Uint16Array(t.buffer, t.byteOffset, t.length / 2);
  assert.equal(h.length, 5 * 3 * 4 * 4);
  for (let i = 0; i < h.length; i += 4) assert.deepEqual([...h.subarray(i, i + 4)], [0x3800, 0xc000, 0, 0x3c00]);
  for (let k = 0; k < 5 * 3 * 4; k++) assert.equal(r.mem.read16(r.depth!.va + 2 * k), Math.round(0.25 * 65535));
});
