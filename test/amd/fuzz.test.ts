/**
 * Fuzz the GFX11 decoder and disassembler with 10^6 seeded random dwords: the only exception
 * allowed is the typed DecodeError (which the disassembler turns into `<unknown>`); no hang.
 * Half the dwords get the prefix of a real encoding class so every codec is exercised.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { disassemble } from '../../src/amd/isa/target.js';
import { gfx11 } from '../../src/amd/isa/gfx11/index.js';
import { rng } from '../../tools/gen/golden.js';

/** [mask, value] of each GFX11 encoding prefix. */
const PREFIXES: [number, number][] = [
  [0xc0000000, 0x80000000], [0xf0000000, 0xb0000000], [0xff800000, 0xbe800000], [0xff800000, 0xbf000000],
  [0xff800000, 0xbf800000], [0xfc000000, 0xf4000000], [0xfe000000, 0x7e000000], [0xfe000000, 0x7c000000],
  [0x80000000, 0x00000000], [0xfc000000, 0xd4000000], [0xff000000, 0xcc000000], [0xff000000, 0xcd000000],
  [0xff000000, 0xce000000], [0xfc000000, 0xc8000000], [0xfc000000, 0xd8000000], [0xfc000000, 0xdc000000],
  [0xfc000000, 0xe0000000], [0xfc000000, 0xe8000000], [0xfc000000, 0xf0000000], [0xfc000000, 0xf8000000],
];

test('fuzz: 10^6 random dwords through decoder and disassembler', () => {
  const N = 1_000_000;
  const r = rng(0x5eed);
  const words = new Uint32Array(N);
  for (let i = 0; i < N; i++) {
    let w = (r() * 4294967296) >>> 0;
    if (r() < 0.5) {
      const [m, v] = PREFIXES[Math.floor(r() * PREFIXES.length)]!;
      w = ((w & ~m) | v) >>> 0;
    }
    words[i] = w;
  }
  // Chunks keep each disassembly's output small; a chunk boundary is just another end of code.
  let decoded = 0;
  let unknown = 0;
  const CH = 50_000;
  for (let s = 0; s < N; s += CH) {
    const lines = disassemble(gfx11, words, s * 4, s, Math.min(N, s + CH));
    for (const l of lines) {
      if (l.inst) {
        decoded++;
        assert.equal(typeof l.text, 'string');
        assert.ok(l.text.length > 0);
      } else unknown++;
    }
  }
  assert.ok(decoded + unknown > 0);
  // Every dword is either inside a decoded instruction or reported as <unknown>.
  console.log(`fuzz: ${decoded} decoded, ${unknown} <unknown>`);
});
