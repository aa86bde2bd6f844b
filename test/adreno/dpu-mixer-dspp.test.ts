/**
 * The layer mixer and the DSPP against values computed here from their documented formulas.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { blendMode, mix, type BlendConfig, type MixerLayer } from '../../src/adreno/dpu/mixer.js';
import { runDspp, type DsppConfig } from '../../src/adreno/dpu/dspp.js';

const solid = (w: number, h: number, p: number[]): { w: number; h: number; px: Uint16Array } => {
  const px = new Uint16Array(w * h * 4);
  for (let i = 0; i < w * h; i++) px.set(p, i * 4);
  return { w, h, px };
};
const at = (out: Uint16Array, w: number, x: number, y: number): number[] => [...out.subarray((y * w + x) * 4, (y * w + x) * 4 + 4)];
/** (fg * Af + bg * Ab) / 255, rounded to nearest. */
const blend = (fg: number, af: number, bg: number, ab: number): number => Math.min(1023, Math.floor((fg * af + bg * ab) / 255 + 0.5));
const m255 = (a: number, b: number): number => Math.floor((a * b) / 255 + 0.5);

test('mixer: border colour, premultiplied / coverage / opaque blends, plane alpha', () => {
  const border = [1000, 500, 0, 255] as const;
  const fg = [400, 100, 800, 128];
  const L = (name: string, x: number, b: BlendConfig): MixerLayer => ({ name, stage: 1, dst: { x, y: 0, w: 1, h: 1 }, img: solid(1, 1, fg), blend: b });
  const out = mix({ width: 5, height: 1, border }, [L('pre', 0, blendMode('premultiplied', 255)), L('cov', 1, blendMode('coverage', 255)), L('opq', 2, blendMode('opaque', 255)), L('cov-a', 3, blendMode('coverage', 100))], []);
  for (let c = 0; c < 3; c++) {
    assert.equal(at(out, 5, 0, 0)[c], blend(fg[c]!, 255, border[c], 255 - 128), 'premultiplied: fg + bg * (1 - a)');
    assert.equal(at(out, 5, 1, 0)[c], blend(fg[c]!, 128, border[c], 255 - 128), 'coverage: fg * a + bg * (1 - a)');
    assert.equal(at(out, 5, 2, 0)[c], fg[c], 'opaque');
    const a = m255(128, 100);
    assert.equal(at(out, 5, 3, 0)[c], blend(fg[c]!, a, border[c], 255 - a), 'coverage with plane alpha 100: a = pixel * 100 / 255');
  }
  assert.deepEqual(at(out, 5, 4, 0), [...border], 'uncovered: border colour');
  assert.equal(at(out, 5, 0, 0)[3], 128, 'alpha-out: fg');
});

test('mixer: stages in z-order, alpha-out feeding a bg-pixel alpha, dim layer', () => {
  const base = { name: 'base', stage: 0, dst: { x: 0, y: 0, w: 2, h: 1 }, img: solid(2, 1, [800, 800, 800, 60]), blend: blendMode('opaque', 255) };
  // Stage 1 keeps the background's alpha (alpha_out bg); stage 2 weighs by that alpha.
  const keepBg: BlendConfig = { ...blendMode('coverage', 255), alphaOut: 'bg' };
  const s1 = { name: 's1', stage: 1, dst: { x: 0, y: 0, w: 2, h: 1 }, img: solid(2, 1, [0, 0, 0, 0]), blend: keepBg };
  const byBg: BlendConfig = { fg: { sel: 'bg_pixel', inv: false, mod: false, invMod: false }, bg: { sel: 'bg_pixel', inv: true, mod: false, invMod: false }, fgConst: 255, bgConst: 0, alphaOut: 'fg' };
  const s2 = { name: 's2', stage: 2, dst: { x: 0, y: 0, w: 1, h: 1 }, img: solid(1, 1, [200, 200, 200, 255]), blend: byBg };
  const dim = { stage: 3, rect: { x: 1, y: 0, w: 1, h: 1 }, color: [0, 0, 1023] as [number, number, number], alpha: 64 };
  const out = mix({ width: 2, height: 1, border: [0, 0, 0, 255] }, [s2, base, s1], [dim]);
  // Base opaque: 800, alpha 60. Stage 1: transparent fg, alpha-out bg keeps 60. Stage 2: 200 * 60 + 800 * 195.
  assert.deepEqual(at(out, 2, 0, 0), [blend(200, 60, 800, 195), blend(200, 60, 800, 195), blend(200, 60, 800, 195), 255]);
  // Dim: colour * 64 + bg * 191, alpha passes the background's.
  assert.deepEqual(at(out, 2, 1, 0), [blend(0, 64, 800, 191), blend(0, 64, 800, 191), blend(1023, 64, 800, 191), 60]);
});

/** Mixer output of the given 10-bit RGB pixels (w x 1). */
const row = (pixels: number[][]): Uint16Array => Uint16Array.from(pixels.flatMap((p) => [...p, 255]));
const to12 = (v: number): number => (v << 2) | (v >> 8);
const rgb8 = (r: { rgb8: Uint8Array }, i: number): number[] => [...r.rgb8.subarray(i * 3, i * 3 + 3)];
const ident = (n: number, max: number): number[] => Array.from({ length: n }, (_, i) => Math.round((i * max) / (n - 1)));

test('DSPP IGC (256 x 12-bit, interpolated) and GC (512 x 10-bit, interpolated)', () => {
  const igc = Array.from({ length: 256 }, (_, i) => Math.min(4095, i * i)); // a square curve
  const gc = Array.from({ length: 512 }, (_, i) => 1023 - (i >> 1)); // a falling line
  const inputs = [0, 5, 513, 1023];
  const cfg: DsppConfig = { igc: [igc, igc, igc], gc: [gc, gc, gc] };
  const r = runDspp(cfg, row(inputs.map((v) => [v, v, v])), inputs.length, 1);
  inputs.forEach((x, i) => {
    const i0 = x >> 2;
    const a = igc[i0]!;
    const b = igc[Math.min(255, i0 + 1)]!;
    const v12 = a + Math.floor(((b - a) * (x & 3)) / 4);
    const g0 = v12 >> 3;
    const v10 = gc[g0]! + Math.floor(((gc[Math.min(511, g0 + 1)]! - gc[g0]!) * (v12 & 7)) / 8);
    assert.equal(r.panel[i * 3], v10, `input ${x}`);
    assert.equal(r.rgb8[i * 3], v10 >> 2);
  });
});

test('DSPP PCC: 3x3 matrix and the polynomial terms', () => {
  // Swap R and B; G = 0.5 R + 0.25 constant + R * G product + B squared.
  const pcc = [
    [0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0],
    [0.25, 0.5, 0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0],
  ];
  const poly = [[0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1], [0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0]];
  const p = [1023, 512, 256];
  const n = p.map((v) => to12(v) / 4095);
  const r = runDspp({ pcc }, row([p]), 1, 1);
  const expect12 = [n[2]!, 0.25 + 0.5 * n[0]!, n[0]!].map((v) => Math.round(Math.min(1, v) * 4095));
  assert.deepEqual([...r.panel], expect12.map((v) => v >> 2));
  const q = runDspp({ pcc: poly }, row([p]), 1, 1);
  assert.deepEqual([...q.panel], [n[0]! * n[1]!, n[2]! * n[2]!, n[0]! * n[1]! * n[2]!].map((v) => Math.round(v * 4095) >> 2));
});

test('DSPP PA: hue rotation, saturation, contrast and value, memory colour protection, vLUT', () => {
  // Pure red rotated by 120 degrees is pure green.
  assert.deepEqual(rgb8(runDspp({ hsic: { hue: 120, saturation: 1, value: 0, contrast: 1 } }, row([[1023, 0, 0]]), 1, 1), 0), [0, 255, 0]);
  // Saturation 0: grey at V = max.
  assert.deepEqual(rgb8(runDspp({ hsic: { hue: 0, saturation: 0, value: 0, contrast: 1 } }, row([[1023, 0, 0]]), 1, 1), 0), [255, 255, 255]);
  // Contrast 2 about 0.5 then value -0.25 on a grey of V = 0.75 (10-bit 767 -> 12-bit).
  const v = to12(767) / 4095;
  const want = Math.round(Math.min(1, Math.max(0, (v - 0.5) * 2 + 0.5 - 0.25)) * 4095) >> 2;
  assert.deepEqual([...runDspp({ hsic: { hue: 0, saturation: 1, value: -0.25, contrast: 2 } }, row([[767, 767, 767]]), 1, 1).panel], [want, want, want]);
  // A skin tone (hue ~ 20) protected from the saturation change; a blue one is not.
  const skin = { name: 'skin' as const, hue: [0, 40] as [number, number], sat: [0.1, 1] as [number, number], val: [0.1, 1] as [number, number], hueAdjust: 0, satAdjust: 1, valAdjust: 1, protect: new Set(['sat'] as const) };
  const px = [[1023, 682, 341], [341, 682, 1023]];
  const r = runDspp({ hsic: { hue: 0, saturation: 0, value: 0, contrast: 1 }, memcolor: [skin] }, row(px), 2, 1);
  assert.deepEqual([...r.panel.subarray(0, 3)], px[0]!.map((c) => Math.round(to12(c) / 4095 * 4095) >> 2), 'protected: unchanged');
  assert.deepEqual([...r.panel.subarray(3, 6)], [1023, 1023, 1023], 'unprotected: grey');
  // vLUT halves V: entry i = i * 1023 / 255 / 2.
  const vlut = Array.from({ length: 256 }, (_, i) => (i * 1023) / 255 / 2);
  const h = runDspp({ vlut }, row([[1023, 1023, 1023]]), 1, 1);
  assert.deepEqual([...h.panel], [1, 1, 1].map(() => Math.round(0.5 * 4095) >> 2));
});

test('DSPP gamut: 3D LUT (5, 13, 17 points) with trilinear interpolation', () => {
  for (const N of [5, 13, 17]) {
    // A table that swaps R and G.
    const entries: number[][] = [];
    for (let r = 0; r < N; r++) for (let g = 0; g < N; g++) for (let b = 0; b < N; b++) entries.push([(g * 4095) / (N - 1), (r * 4095) / (N - 1), (b * 4095) / (N - 1)].map(Math.round));
    const p = [1023, 300, 17];
    const out = runDspp({ gamut: { size: N, entries } }, row([p]), 1, 1);
    // Exact on the grid; linear in between: the swap, up to the grid's rounding.
    const want = [p[1]!, p[0]!, p[2]!].map((v) => to12(v) >> 2);
    [...out.panel].forEach((v, k) => assert.ok(Math.abs(v - want[k]!) <= 1, `N=${N} channel ${k}: ${v} vs ${want[k]}`));
  }
});

test('DSPP dither: 4x4 thresholds scaled to the dropped bits; histogram of max(R,G,B)', () => {
  const matrix = [0, 8, 2, 10, 12, 4, 14, 6, 3, 11, 1, 9, 15, 7, 13, 5];
  const w = 4;
  const v = 514; // 6-bit output: 514 / 16 = 32.125
  const mixed = new Uint16Array(w * 4 * 4);
  for (let i = 0; i < 16; i++) mixed.set([v, v, v, 255], i * 4);
  const r = runDspp({ dither: { matrix, bits: [6, 6, 6] }, histogram: true }, mixed, w, 4);
  for (let y = 0; y < 4; y++)
    for (let x = 0; x < 4; x++) {
      const out = Math.min(63, (v + matrix[y * 4 + x]!) >> 4);
      assert.equal(r.panel[(y * w + x) * 3], out);
      assert.equal(r.rgb8[(y * w + x) * 3], (out << 2) | (out >> 4), '6 -> 8 bits by replication');
    }
  assert.equal(r.histogram![v >> 2], 16);
  assert.equal(r.histogram!.reduce((a, b) => a + b, 0), 16);
  // Without dither: truncation to 8 bits.
  assert.equal(runDspp({}, mixed, w, 4).rgb8[0], v >> 2);
  void ident;
});
