/** Quads, helper lanes, wave packing order and the PS input VGPR layout. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runFrontEnd } from '../../src/amd/gfx/frontend.js';
import { packWaves, psInputLayout, psInputVgprs } from '../../src/amd/gfx/waves.js';
import { asFloat } from '../../src/amd/gfx/state.js';
import { clipPos, target } from './gfx-harness.js';

test('a one-pixel triangle makes one quad with three helper lanes', () => {
  const st = target({ w: 16, h: 16 });
  // Covers only the centre of pixel (5, 3): lane (3&1)*2 + (5&1) = 3 of the quad at (4, 2).
  const r = runFrontEnd(st, { indices: [0, 1, 2], positions: clipPos(st, [[5.2, 3.2], [5.9, 3.2], [5.2, 3.9]]), waveSize: 32 });
  assert.equal(r.quads.length, 1);
  assert.deepEqual([r.quads[0]!.x, r.quads[0]!.y], [4, 2]);
  assert.equal(r.waves.length, 1);
  const w = r.waves[0]!;
  assert.equal(w.liveLo, 0b1000);
  assert.equal(w.helperLo, 0b0111);
  assert.equal(w.newPrimMask, 1);
});

test('quads are in rasterization order (row by row) and fill waves of 8/16 quads; lanes are 4*quad + (y&1)*2 + (x&1)', () => {
  const st = target({ w: 16, h: 16 });
  // Full-screen: 64 quads.
  const pos = clipPos(st, [[0, 0], [16, 0], [0, 16], [16, 16]]);
  for (const ws of [32, 64] as const) {
    const r = runFrontEnd(st, { indices: [0, 1, 2, 1, 3, 2], positions: pos, waveSize: ws });
    // Two triangles -> quads on the diagonal appear in both primitives.
    const perWave = ws / 4;
    assert.equal(r.waves.length, Math.ceil(r.quads.length / perWave));
    const order = r.waves.flatMap((w) => w.quads);
    assert.deepEqual(order, r.quads);
    // inside a primitive: row-major
    for (let i = 1; i < r.quads.length; i++) {
      const a = r.quads[i - 1]!, b = r.quads[i]!;
      if (a.sp === b.sp) assert.ok(b.y > a.y || (b.y === a.y && b.x > a.x), 'row-major within a primitive');
      else assert.ok(a.sp.prim.primId < b.sp.prim.primId, 'primitives in order');
    }
    // every pixel is live exactly once over all waves
    const live = new Map<string, number>();
    for (const w of r.waves) {
      w.quads.forEach((q, qi) => {
        for (let p = 0; p < 4; p++) {
          const lane = 4 * qi + p;
          const isLive = lane < 32 ? (w.liveLo >>> lane) & 1 : (w.liveHi >>> (lane - 32)) & 1;
          assert.equal(isLive === 1, q.coverage[p] !== 0);
          if (isLive) {
            const k = `${q.x + (p & 1)},${q.y + (p >> 1)}`;
            live.set(k, (live.get(k) ?? 0) + 1);
          }
        }
      });
    }
    assert.equal(live.size, 256);
    assert.ok([...live.values()].every((c) => c === 1));
  }
});

test('new-primitive quad mask and the primitives-per-wave cap', () => {
  const st = target({ w: 16, h: 16 });
  // Three tiny triangles in three different quads.
  const pts: [number, number][] = [];
  const idx: number[] = [];
  for (let k = 0; k < 3; k++) {
    const x = 1 + 4 * k;
    pts.push([x + 0.2, 1.2], [x + 0.9, 1.2], [x + 0.2, 1.9]);
    idx.push(3 * k, 3 * k + 1, 3 * k + 2);
  }
  const r = runFrontEnd(st, { indices: idx, positions: clipPos(st, pts), waveSize: 32 });
  assert.equal(r.waves.length, 1);
  assert.equal(r.waves[0]!.newPrimMask, 0b111);
  assert.equal(r.waves[0]!.prims, 3);
  const capped = packWaves(r.quads, 32, { maxPrimsPerWave: 2 });
  assert.deepEqual(capped.map((w) => w.quads.length), [2, 1]);
  assert.deepEqual(capped.map((w) => w.prims), [2, 1]);
});

test('PS input VGPR layout: ADDR decides slots, ENA decides what is loaded', () => {
  // ENA == ADDR: enabled items pack from VGPR 0.
  const a = psInputLayout(0x0302 /* PERSP_CENTER, POS_X, POS_Y */, 0x0302);
  assert.deepEqual(a.slots.map((s) => [s.name, s.vgpr, s.count, s.loaded]), [
    ['PERSP_CENTER', 0, 2, true], ['POS_X_FLOAT', 2, 1, true], ['POS_Y_FLOAT', 3, 1, true],
  ]);
  assert.equal(a.numVgprs, 4);
  // ADDR != ENA: PERSP_SAMPLE reserved in ADDR but not loaded shifts everything by 2.
  const b = psInputLayout(0x0302, 0x0303);
  assert.deepEqual(b.slots.map((s) => [s.name, s.vgpr, s.loaded]), [
    ['PERSP_SAMPLE', 0, false], ['PERSP_CENTER', 2, true], ['POS_X_FLOAT', 4, true], ['POS_Y_FLOAT', 5, true],
  ]);
  // Every input: 2+2+2+3+2+2+2+1+1+1+1+1+1+1+1+1 = 24 VGPRs.
  assert.equal(psInputLayout(0xffff, 0xffff).numVgprs, 24);
  assert.equal(psInputLayout(0xffff, 0xffff).slots.find((s) => s.name === 'POS_FIXED_PT')!.vgpr, 23);
});

test('PS input VGPRs of a wave: centre/centroid barycentrics, positions, face, coverage, fixed-point position', () => {
  const st = target({
    w: 16, h: 16, samples: 4,
    extra: { SPI_PS_INPUT_ENA: 0x0001 | 0x0002 | 0x0004 | 0x0020 | 0x0100 | 0x0200 | 0x1000 | 0x4000 | 0x8000, SPI_PS_INPUT_ADDR: 0xffff },
  });
  // Right-angle triangle (0,0)-(16,0)-(0,16), w = 1: linear and perspective agree; I = x/16, J = y/16.
  const r = runFrontEnd(st, { indices: [0, 1, 2], positions: clipPos(st, [[0, 0], [16, 0], [0, 16]]), waveSize: 64 });
  const w = r.waves[0]!;
  const { vgprs, slots } = psInputVgprs(w, st);
  const slot = (n: string): number => slots.find((s) => s.name === n)!.vgpr;
  const f = (v: number, lane: number): number => asFloat(vgprs[v * 64 + lane]!);
  const q0 = w.quads[0]!;
  assert.deepEqual([q0.x, q0.y], [0, 0]);
  // lane 1 = pixel (1, 0): centre (1.5, 0.5)
  assert.ok(Math.abs(f(slot('PERSP_CENTER'), 1) - 1.5 / 16) < 1e-6);
  assert.ok(Math.abs(f(slot('PERSP_CENTER') + 1, 1) - 0.5 / 16) < 1e-6);
  assert.ok(Math.abs(f(slot('LINEAR_CENTER'), 1) - 1.5 / 16) < 1e-6);
  assert.equal(f(slot('POS_X_FLOAT'), 1), 1.5);
  assert.equal(f(slot('POS_Y_FLOAT'), 1), 0.5);
  assert.equal(f(slot('FRONT_FACE'), 1), st.faceCw ? 1 : -1);
  assert.equal(vgprs[slot('POS_FIXED_PT') * 64 + 2], 0 | (1 << 16));
  assert.equal(vgprs[slot('SAMPLE_COVERAGE') * 64 + 0], 0xf);
  // Not loaded (ADDR-only) items stay zero: PERSP_PULL_MODEL.
  assert.equal(vgprs[slot('PERSP_PULL_MODEL') * 64 + 0], 0);
  // A partially covered pixel on the hypotenuse: centroid lies on a covered sample, not the centre.
  for (let qi = 0; qi < w.quads.length; qi++) {
    const q = w.quads[qi]!;
    for (let p = 0; p < 4; p++) {
      const m = q.coverage[p]!;
      const lane = 4 * qi + p;
      const ci = f(slot('PERSP_CENTROID'), lane) * 16 - (q.x + (p & 1));
      const cj = f(slot('PERSP_CENTROID') + 1, lane) * 16 - (q.y + (p >> 1));
      if (m === 0xf || m === 0) {
        assert.ok(Math.abs(ci - 0.5) < 1e-5 && Math.abs(cj - 0.5) < 1e-5);
      } else {
        // the centroid position is one of the covered standard 4x sample positions
        const locs = [[-2, -6], [6, -2], [-6, 2], [2, 6]];
        const k = locs.findIndex((l) => Math.abs(0.5 + l[0]! / 16 - ci) < 1e-5 && Math.abs(0.5 + l[1]! / 16 - cj) < 1e-5);
        assert.ok(k >= 0 && ((m >>> k) & 1) === 1, `centroid sample ${k} covered in mask ${m}`);
      }
    }
  }
});

test('overlapping quads: INTRAWAVE_COLLISION layers (GFX9-10.3) or a new wave (GFX11), pixel vs sample interlock', () => {
  const st = target({ w: 16, h: 16, samples: 4 });
  // Two identical rectangles over the same 2 quads (pixels 0..3 of rows 0..1), then a disjoint one.
  const pts: [number, number][] = [];
  const idx: number[] = [];
  const rect = (x0: number, y0: number, x1: number, y1: number): void => {
    const b = pts.length;
    pts.push([x0, y0], [x1, y0], [x0, y1], [x1, y1]);
    idx.push(b, b + 1, b + 2, b + 1, b + 3, b + 2);
  };
  rect(0, 0, 4, 2); rect(0, 0, 4, 2); rect(8, 0, 12, 2);
  const r = runFrontEnd(st, { indices: idx, positions: clipPos(st, pts), waveSize: 64 });
  // Each rectangle is two triangles; the diagonal splits quads: count quads per primitive.
  const allow = packWaves(r.quads, 64);
  assert.equal(allow.length, 1);
  assert.equal(allow[0]!.intrawaveCollision, 0);
  const intra = packWaves(r.quads, 64, { overlap: 'intrawave', sampleInterlock: true });
  assert.equal(intra.length, 1);
  // The first quad of the second rectangle's first triangle starts a new layer.
  const firstOfRect2 = r.quads.findIndex((q) => q.sp.prim.primId === 2);
  assert.ok(firstOfRect2 > 0);
  assert.equal(intra[0]!.intrawaveCollision & ((1 << firstOfRect2) - 1) & ~1, 0, 'no collision inside the first rectangle (its triangles share no samples)');
  assert.ok((intra[0]!.intrawaveCollision >>> firstOfRect2) & 1, 'the repeated rectangle starts a new layer');
  // The disjoint rectangle does not start a layer.
  const firstOfRect3 = r.quads.findIndex((q) => q.sp.prim.primId === 4);
  assert.equal((intra[0]!.intrawaveCollision >>> firstOfRect3) & 1, 0);
  const split = packWaves(r.quads, 64, { overlap: 'split', sampleInterlock: true });
  assert.equal(split.length, 2);
  assert.equal(split[1]!.quads[0], r.quads[firstOfRect2]);
  // Pixel interlock: the two triangles of one rectangle share pixels along the diagonal (partially
  // covered pixels), so they collide; sample interlock: they share no samples.
  const one = runFrontEnd(st, { indices: [0, 1, 2, 1, 3, 2], positions: clipPos(st, [[0, 0], [3, 0], [0, 2], [3, 2]]), waveSize: 64 });
  assert.ok(packWaves(one.quads, 64, { overlap: 'intrawave' })[0]!.intrawaveCollision !== 0);
  assert.equal(packWaves(one.quads, 64, { overlap: 'intrawave', sampleInterlock: true })[0]!.intrawaveCollision, 0);
});

test('PS input VGPR layout for every SPI_PS_INPUT_ADDR (all 65536) with ENA a seeded subset of it, against an independent size list; loaded values move with their slot', () => {
  // VGPRs per SPI_PS_INPUT_ENA/ADDR bit, written out from LLVM's/Mesa's PS argument list (not
  // from waves.ts): PERSP_SAMPLE/CENTER/CENTROID I,J; PERSP_PULL_MODEL I/W, J/W, 1/W; LINEAR_*
  // I,J; LINE_STIPPLE_TEX; POS_X/Y/Z/W; FRONT_FACE; ANCILLARY; SAMPLE_COVERAGE; POS_FIXED_PT.
  const SIZE = [2, 2, 2, 3, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1];
  let seed = 0x9e3779b9;
  const rnd = (): number => (seed = (Math.imul(seed ^ (seed >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0);
  for (let addr = 0; addr < 0x10000; addr++) {
    const ena = addr & rnd();
    const { slots, numVgprs } = psInputLayout(ena, addr);
    let v = 0;
    let k = 0;
    for (let bit = 0; bit < 16; bit++) {
      if (!((addr >>> bit) & 1)) continue;
      const s = slots[k++]!;
      assert.equal(s.vgpr, v);
      assert.equal(s.count, SIZE[bit]);
      assert.equal(s.loaded, ((ena >>> bit) & 1) === 1);
      v += SIZE[bit]!;
    }
    assert.equal(k, slots.length);
    assert.equal(numVgprs, v);
  }
  // Values: each item alone (ADDR = ENA = one bit) and each item loaded in the full ADDR layout
  // carries the same dwords as in the all-enabled layout; everything else in the wave is 0.
  const st = target({ w: 16, h: 16, samples: 4, extra: { SPI_PS_INPUT_ENA: 0xffff, SPI_PS_INPUT_ADDR: 0xffff } });
  const r = runFrontEnd(st, { indices: [0, 1, 2], positions: clipPos(st, [[0.5, 0.25], [15.25, 1], [2, 14.75]]), waveSize: 32 });
  const w = r.waves[0]!;
  const full = psInputVgprs(w, st);
  const item = (vg: Uint32Array, slot: { vgpr: number; count: number }): number[] => Array.from(vg.subarray(slot.vgpr * 32, (slot.vgpr + slot.count) * 32));
  for (let bit = 0; bit < 16; bit++) {
    const want = item(full.vgprs, full.slots[bit]!);
    for (const [ena, addr] of [[1 << bit, 1 << bit], [1 << bit, 0xffff]] as const) {
      const got = psInputVgprs(w, { ...st, psInputEna: ena, psInputAddr: addr });
      const slot = got.slots.find((s) => s.loaded)!;
      assert.equal(slot.name, full.slots[bit]!.name);
      assert.deepEqual(item(got.vgprs, slot), want, `${slot.name} ENA 0x${ena.toString(16)} ADDR 0x${addr.toString(16)}`);
      const rest = Array.from(got.vgprs).filter((_, i) => Math.floor(i / 32) < slot.vgpr || Math.floor(i / 32) >= slot.vgpr + slot.count);
      assert.ok(rest.every((x) => x === 0), `${slot.name}: nothing outside its slot`);
    }
  }
});
