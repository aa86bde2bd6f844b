/**
 * image_msaa_load on gfx1100 over the MSAA surface layout gpusim's CB writes (src/amd/gfx/cb.ts):
 * samples written with the CB's writeSample and read back through a 2D_MSAA / 2D_MSAA_ARRAY T#
 * (LAST_LEVEL = log2(samples), as Mesa's descriptors encode it) must equal the CB's readSample.
 * Encodings agree with llvm-mc-19 (when installed); gfx1030's form is left out (docs/amd.md).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { targets } from '../../src/amd/isa/targets.js';
import { assemble } from '../../src/amd/isa/target.js';
import type { RsrcBits } from '../../src/amd/exec/mimg-rsrc.gen.js';
import { imageGen } from '../../src/amd/exec/mimg.js';
import { readSample, writeSample, type ColorTarget } from '../../src/amd/gfx/cb.js';
import { Memory } from '../../src/core/memory.js';
import { f16 } from '../../src/core/float.js';
import { haveLlvm, LLVM_MC } from '../../tools/gen/llvm.js';
import { runAsm } from './exec-harness.js';

const BASE = 0x3000_0000;
const W = 3, H = 2, S = 4, LAYERS = 2;
const target = targets.gfx1100!;
const LINES = new Set<string>();

function tsharp(type: number, extra: Readonly<Record<string, number>> = {}): Record<number, number> {
  const G = imageGen(11);
  const fmt = Number(Object.entries(G.F).find(([, e]) => e.name === '8_8_8_8_UNORM')![0]);
  const w = new Array<number>(8).fill(0);
  w[0] = BASE / 256;
  const fields: Record<string, number> = { FORMAT: fmt, WIDTH_LO: (W - 1) & 3, WIDTH_HI: (W - 1) >> 2, HEIGHT: H - 1, DST_SEL_X: 4, DST_SEL_Y: 5, DST_SEL_Z: 6, DST_SEL_W: 7, TYPE: type, MAX_MIP: 2, LAST_LEVEL: 2, ...extra };
  for (const [k, v] of Object.entries(fields)) {
    const d: RsrcBits = G.R[k]!;
    w[d.word] = (w[d.word]! + v * 2 ** d.lo) >>> 0;
  }
  const out: Record<number, number> = {};
  w.forEach((v, i) => { out[i] = v; });
  return out;
}

/** LAYERS layers of a W x H, S-sample RGBA8 target, every sample's channels distinct. */
function surface(): { mem: Memory; layer: ColorTarget[] } {
  const mem = new Memory();
  mem.map(BASE, 65536, 'msaa');
  const layer: ColorTarget[] = [];
  for (let z = 0; z < LAYERS; z++) {
    const t: ColorTarget = { index: 0, va: BASE + z * W * H * S * 4, width: W, height: H, samples: S, format: 'R8G8B8A8_UNORM', bytes: 4, writeMask: 15, exportFormat: 'SPI_SHADER_UNORM16_ABGR', blend: null };
    layer.push(t);
    for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) for (let s = 0; s < S; s++) {
      const px = Float64Array.from([0, 1, 2, 3], (c) => ((z * 97 + y * 41 + x * 13 + s * 5 + c * 3) % 256) / 255);
      writeSample(mem, t, x, y, s, px, 15);
    }
  }
  return { mem, layer };
}
const cbRead = (t: ColorTarget, mem: Memory, x: number, y: number, s: number, c: number): number => {
  if (s >= S) return 0;
  const o = new Float64Array(4);
  readSample(mem, t, x, y, s, o);
  return o[c]!;
};

test('gfx1100 image_msaa_load: four samples of the DMASK channel from the fragment index', () => {
  const { mem, layer } = surface();
  for (const [c, dmask] of [[0, 1], [1, 2], [2, 4], [3, 8]] as const) {
    for (const frag of [0, 1, 2]) {
      const line = `image_msaa_load v[4:7], v[0:2], s[0:7] dmask:0x${dmask.toString(16)} dim:SQ_RSRC_IMG_2D_MSAA unorm`;
      LINES.add(line);
      const xs = [0, 1, 2, 0, 1, 2], ys = [0, 0, 0, 1, 1, 1];
      const r = runAsm(`${line}\ns_waitcnt vmcnt(0)\ns_endpgm`, { target, waveSize: 32, mem, sgpr: tsharp(14), vgpr: { 0: xs, 1: ys, 2: frag }, exec: 0x3f });
      assert.deepEqual(r.diags.map((d) => d.id), []);
      for (let l = 0; l < 6; l++) {
        const want = [0, 1, 2, 3].map((k) => Math.fround(cbRead(layer[0]!, mem, xs[l]!, ys[l]!, frag + k, c)));
        assert.deepEqual([4, 5, 6, 7].map((k) => r.vf(k, l)), want, `c${c} frag ${frag} lane ${l}`);
      }
    }
  }
});

test('gfx1100 image_msaa_load: 2D_MSAA_ARRAY layers, a16 addresses, d16 data and tfe', () => {
  const { mem, layer } = surface();
  const sg = tsharp(15, { DEPTH: LAYERS - 1 });
  const arr = 'image_msaa_load v[4:7], v[0:3], s[0:7] dmask:0x2 dim:SQ_RSRC_IMG_2D_MSAA_ARRAY unorm';
  LINES.add(arr);
  const r = runAsm(`${arr}\ns_waitcnt vmcnt(0)\ns_endpgm`, { target, waveSize: 32, mem, sgpr: sg, vgpr: { 0: 2, 1: 1, 2: 1, 3: 0 }, exec: 1 });
  assert.deepEqual(r.diags.map((d) => d.id), []);
  assert.deepEqual([4, 5, 6, 7].map((k) => r.vf(k, 0)), [0, 1, 2, 3].map((s) => Math.fround(cbRead(layer[1]!, mem, 2, 1, s, 1))));
  const a16 = 'image_msaa_load v[4:7], v[0:1], s[0:7] dmask:0x1 dim:SQ_RSRC_IMG_2D_MSAA_ARRAY unorm a16';
  LINES.add(a16);
  const q = runAsm(`${a16}\ns_waitcnt vmcnt(0)\ns_endpgm`, { target, waveSize: 32, mem, sgpr: sg, vgpr: { 0: (1 << 16) | 1, 1: (1 << 16) | 1 }, exec: 1 });
  // x = 1, y = 1, layer 1, fragment 1: samples 1..3, then one past the count (0).
  assert.deepEqual([4, 5, 6, 7].map((k) => q.vf(k, 0)), [1, 2, 3, 4].map((s) => Math.fround(cbRead(layer[1]!, mem, 1, 1, s, 0))));
  const d16 = 'image_msaa_load v[4:6], v[0:2], s[0:7] dmask:0x4 dim:SQ_RSRC_IMG_2D_MSAA unorm tfe d16';
  LINES.add(d16);
  const d = runAsm(`${d16}\ns_waitcnt vmcnt(0)\ns_endpgm`, { target, waveSize: 32, mem, sgpr: tsharp(14), vgpr: { 0: 1, 1: 0, 2: 0, 6: 0xdead }, exec: 1 });
  const halves = [d.v(4, 0) & 0xffff, d.v(4, 0) >>> 16, d.v(5, 0) & 0xffff, d.v(5, 0) >>> 16].map(f16);
  halves.forEach((h, s) => assert.ok(Math.abs(h - cbRead(layer[0]!, mem, 1, 0, s, 2)) < 1e-3, `d16 sample ${s}`));
  assert.equal(d.v(6, 0), 0);
});

test('gfx1100 image_msaa_load: a non-MSAA dim is diagnosed; gfx1030 stops as unimplemented', () => {
  const { mem } = surface();
  const r = runAsm('image_msaa_load v[4:7], v[0:1], s[0:7] dmask:0x1 dim:SQ_RSRC_IMG_2D unorm\ns_endpgm', { target, waveSize: 32, mem, sgpr: tsharp(9), vgpr: { 0: 0, 1: 0 } });
  assert.deepEqual(r.diags.map((d) => d.id), ['gfx11.mimg.unsupported']);
  const g = runAsm('image_msaa_load v4, v[0:2], s[0:7] dmask:0x1 dim:SQ_RSRC_IMG_2D_MSAA unorm\ns_endpgm', { target: targets.gfx1030!, waveSize: 32, mem, sgpr: tsharp(14), vgpr: { 0: 0, 1: 0, 2: 0 } });
  assert.deepEqual(g.diags.map((d) => d.id), ['gpusim.unimplemented']);
});

test('the image_msaa_load lines assemble as llvm-mc-19 encodes them', { skip: haveLlvm() ? false : 'llvm-mc-19 not installed' }, () => {
  const lines = [...LINES];
  assert.ok(lines.length >= 6);
  const r = spawnSync(LLVM_MC, ['-triple=amdgcn-amd-amdhsa', '-mcpu=gfx1100', '-show-encoding'], { input: lines.join('\n') + '\n', encoding: 'utf8' });
  assert.equal(r.stderr, '');
  const theirs = r.stdout.split('\n').filter((l) => l.includes('encoding:')).map((l) => /encoding: \[(.*)\]/.exec(l)![1]!.split(',').map((x) => Number(x)));
  assert.equal(theirs.length, lines.length);
  lines.forEach((l, i) => assert.deepEqual(Array.from(new Uint8Array(Uint32Array.from(assemble(target, l)).buffer)), theirs[i], l));
});
