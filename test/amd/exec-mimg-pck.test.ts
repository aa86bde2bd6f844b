/**
 * MIMG forms LLVM has no intrinsic for or that the OpenCL kernels (mimg-opencl.test.ts) do not
 * reach, on gfx1100, gfx1030 and gfx900: image_load/store(_mip)_pck(_sgn) (no format conversion:
 * each channel's raw bits, zero- or sign-extended), image_get_resinfo on 1D arrays and 3D images
 * and with a16, d16 stores of odd channel counts, and a16 z-compare gathers. Values worked from the
 * ISA's definitions; the encodings of every line agree with llvm-mc-19 (when installed).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { targets } from '../../src/amd/isa/targets.js';
import { assemble, disassemble, type IsaTarget } from '../../src/amd/isa/target.js';
import type { RsrcBits } from '../../src/amd/exec/mimg-rsrc.gen.js';
import { imageGen } from '../../src/amd/exec/mimg.js';
import { Memory } from '../../src/core/memory.js';
import { f16bits, f32bits } from '../../src/core/float.js';
import { haveLlvm, LLVM_MC } from '../../tools/gen/llvm.js';
import { runAsm } from './exec-harness.js';

interface Gen { readonly cpu: 'gfx1100' | 'gfx1030' | 'gfx900'; readonly target: IsaTarget; readonly gfx: number; dim(d: string): string }
const GENS: readonly Gen[] = [
  { cpu: 'gfx1100', target: targets.gfx1100!, gfx: 11, dim: (d) => ` dim:SQ_RSRC_IMG_${d}` },
  { cpu: 'gfx1030', target: targets.gfx1030!, gfx: 10, dim: (d) => ` dim:SQ_RSRC_IMG_${d}` },
  { cpu: 'gfx900', target: targets.gfx900!, gfx: 9, dim: (d) => (d.endsWith('ARRAY') ? ' da' : '') },
];
const BASE = 0x3000_0000;
const TYPE: Readonly<Record<string, number>> = { '1D': 8, '2D': 9, '3D': 10, '1D_ARRAY': 12, '2D_ARRAY': 13 };

function words(layout: Readonly<Record<string, RsrcBits>>, n: number, fields: Readonly<Record<string, number>>, word0 = 0): number[] {
  const w = new Array<number>(n).fill(0);
  w[0] = word0 >>> 0;
  for (const [k, v] of Object.entries(fields)) {
    const d = layout[k]!;
    w[d.word] = (w[d.word]! + (v % 2 ** d.width) * 2 ** d.lo) >>> 0;
  }
  return w;
}
/** T# (SGPRs 0..7) of a linear image at BASE and a point clamp S# (SGPRs 8..11). */
function sgprs(g: Gen, format: string, width: number, height: number, type: string, extra: Readonly<Record<string, number>> = {}): Record<number, number> {
  const G = imageGen(g.gfx);
  const fmt = Number(Object.entries(G.F).find(([, e]) => e.name === format)![0]);
  const bytes = G.F[fmt]!.bytes;
  const pitch = Math.ceil((width * bytes) / 256) * (256 / bytes);
  const size: Record<string, number> = G.R.WIDTH ? { WIDTH: width - 1, PITCH: pitch - 1 } : { WIDTH_LO: (width - 1) & 3, WIDTH_HI: (width - 1) >> 2 };
  const t = words(G.R, 8, { FORMAT: fmt, ...size, HEIGHT: height - 1, DST_SEL_X: 4, DST_SEL_Y: 5, DST_SEL_Z: 6, DST_SEL_W: 7, TYPE: TYPE[type]!, ...extra }, BASE / 256);
  const s = words(G.S, 4, { CLAMP_X: 2, CLAMP_Y: 2, DEPTH_COMPARE_FUNC: 3 });
  const out: Record<number, number> = {};
  [...t, ...s].forEach((v, i) => { out[i] = v; });
  return out;
}
function memory(): Memory {
  const mem = new Memory();
  mem.map(BASE, 65536, 'image');
  return mem;
}
const ws = (g: Gen): 32 | 64 => (g.cpu === 'gfx900' ? 64 : 32);

/** Every line the tests below assemble, per target, for the llvm-mc check. */
const LINES = new Map<string, Set<string>>();
function asm(g: Gen, text: string): string {
  // llvm-mc wants GFX9's da after unorm (the order LLVM prints).
  if (g.gfx === 9) text = text.replace(/ da unorm/g, ' unorm da');
  let s = LINES.get(g.cpu);
  if (!s) LINES.set(g.cpu, (s = new Set()));
  for (const l of text.split('\n')) if (l.startsWith('image_')) s.add(l);
  return text;
}

for (const g of GENS) {
  test(`${g.cpu}: image_load_pck/_pck_sgn return raw channel bits, zero- or sign-extended`, () => {
    const mem = memory();
    // 8_8_8_8_UNORM texel (1, 0) = 80 ff 01 7f; 16_16_FLOAT texel (0, 0) = 0xbc00 (-1.0), 0x3c00.
    mem.writeBytes(BASE + 4, Uint8Array.of(0x80, 0xff, 0x01, 0x7f));
    for (const [op, want] of [['image_load_pck', [0x80, 0xff, 0x01, 0x7f]], ['image_load_pck_sgn', [0xffffff80, 0xffffffff, 1, 0x7f]], ['image_load', [0x80 / 255, 1, 1 / 255, 0x7f / 255].map((x) => f32bits(x))]] as const) {
      const r = runAsm(asm(g, `${op} v[4:7], v[0:1], s[0:7] dmask:0xf${g.dim('2D')} unorm\ns_endpgm`), { target: g.target, waveSize: ws(g), mem, sgpr: sgprs(g, '8_8_8_8_UNORM', 4, 2, '2D'), vgpr: { 0: 1, 1: 0 } });
      assert.deepEqual(r.diags.map((d) => d.id), []);
      assert.deepEqual([4, 5, 6, 7].map((k) => r.v(k, 0) >>> 0), want, op);
    }
    mem.writeBytes(BASE, Uint8Array.of(0x00, 0xbc, 0x00, 0x3c));
    const r = runAsm(asm(g, `image_load_pck_sgn v[4:5], v[0:1], s[0:7] dmask:0x3${g.dim('2D')} unorm\ns_endpgm`), { target: g.target, waveSize: ws(g), mem, sgpr: sgprs(g, '16_16_FLOAT', 4, 2, '2D'), vgpr: { 0: 0, 1: 0 } });
    assert.deepEqual([r.v(4, 0) >>> 0, r.v(5, 0) >>> 0], [0xffffbc00, 0x3c00]);
  });

  test(`${g.cpu}: image_store_pck / image_store_mip_pck write the low bits of each VGPR unconverted`, () => {
    const mem = memory();
    const r = runAsm(asm(g, `image_store_pck v[4:7], v[0:1], s[0:7] dmask:0xf${g.dim('2D')} unorm\ns_endpgm`), { target: g.target, waveSize: ws(g), mem, sgpr: sgprs(g, '8_8_8_8_UNORM', 4, 2, '2D'), vgpr: { 0: 2, 1: 1, 4: 0x123456ab, 5: 0x3f800000, 6: 0xfffffffe, 7: 7 }, exec: 1, execHi: 0 });
    assert.deepEqual(r.diags.map((d) => d.id), []);
    assert.deepEqual(Array.from(mem.readBytes(BASE + 256 + 8, 4)), [0xab, 0x00, 0xfe, 0x07]);
    // Level 1 of a 2-level 16_16_UINT chain: store_mip_pck and load_mip_pck at the same texel.
    const m2 = memory();
    const t = sgprs(g, '16_16_UINT', 8, 4, '2D', { MAX_MIP: 1, LAST_LEVEL: 1, ...(g.gfx === 9 ? { PITCH: 4 + 2 - 1 } : {}) });
    const s = runAsm(asm(g, `image_store_mip_pck v[4:5], v[0:2], s[0:7] dmask:0x3${g.dim('2D')} unorm\nimage_load_mip_pck v[8:9], v[0:2], s[0:7] dmask:0x3${g.dim('2D')} unorm\ns_waitcnt vmcnt(0)\ns_endpgm`), { target: g.target, waveSize: ws(g), mem: m2, sgpr: t, vgpr: { 0: 1, 1: 1, 2: 1, 4: 0xabcd1234, 5: 0x8001 }, exec: 1, execHi: 0 });
    assert.deepEqual(s.diags.map((d) => d.id), []);
    assert.deepEqual([s.v(8, 0), s.v(9, 0)], [0x1234, 0x8001]);
  });

  test(`${g.cpu}: image_get_resinfo on 1D arrays and 3D images, and with a16`, () => {
    const mem = memory();
    const run = (line: string, type: string, v0: number, extra: Readonly<Record<string, number>>): number[] => {
      const r = runAsm(asm(g, `${line}\ns_endpgm`), { target: g.target, waveSize: ws(g), mem, sgpr: sgprs(g, '8_8_8_8_UNORM', 20, type.startsWith('1D') ? 1 : 6, type, extra), vgpr: { 0: v0 } });
      assert.deepEqual(r.diags.map((d) => d.id), []);
      return [4, 5, 6, 7].map((k) => r.v(k, 0));
    };
    // 1D array: (width, layers, 0, levels); layers = DEPTH - BASE_ARRAY + 1.
    assert.deepEqual(run(`image_get_resinfo v[4:7], v0, s[0:7] dmask:0xf${g.dim('1D_ARRAY')} unorm`, '1D_ARRAY', 0, { DEPTH: 6, BASE_ARRAY: 2 }), [20, 5, 0, 1]);
    // 3D, level 2 of 3 (BASE_LEVEL 1 + 1): (20 >> 2, 6 >> 2, 9 >> 2, 2).
    const d3 = g.gfx === 9 ? '' : g.dim('3D');
    assert.deepEqual(run(`image_get_resinfo v[4:7], v0, s[0:7] dmask:0xf${d3} unorm`, '3D', 1, { DEPTH: 8, MAX_MIP: 2, BASE_LEVEL: 1, LAST_LEVEL: 2 }), [5, 1, 2, 2]);
    // a16: the level is the low 16 bits (the high half is ignored); dmask 0xa packs (height, levels).
    assert.deepEqual(run(`image_get_resinfo v[4:5], v0, s[0:7] dmask:0xa${g.dim('2D')} unorm a16`, '2D', 0xffff0001, { MAX_MIP: 2, LAST_LEVEL: 2 }).slice(0, 2), [3, 3]);
  });

  test(`${g.cpu}: d16 stores of three channels and a16 z-compare gathers`, () => {
    const mem = memory();
    // 16_16_16_16_FLOAT; store_d16 of (1.5, -2, 0.25) from two VGPRs at a16 (x, y) = (3, 1).
    const h = (x: number): number => f16bits(x);
    const r = runAsm(asm(g, `image_store v[4:5], v0, s[0:7] dmask:0x7${g.dim('2D')} unorm a16 d16\ns_endpgm`), { target: g.target, waveSize: ws(g), mem, sgpr: sgprs(g, '16_16_16_16_FLOAT', 4, 2, '2D'), vgpr: { 0: 3 | (1 << 16), 4: h(1.5) | (h(-2) << 16), 5: h(0.25) | 0xdead0000 }, exec: 1, execHi: 0 });
    assert.deepEqual(r.diags.map((d) => d.id), []);
    assert.deepEqual(Array.from(new Uint16Array(mem.readBytes(BASE + 256 + 24, 8).buffer.slice(0))), [h(1.5), h(-2), h(0.25), 0]);
    // gather4_c_lz a16 d16 on 32_FLOAT depths: z-compare (32-bit) first, then (u, v) as f16 in one VGPR.
    const m2 = memory();
    [0.1, 0.5, 0.9, 0.3].forEach((d, i) => m2.writeF32(BASE + (i >> 1) * 256 + (i & 1) * 4, d));
    const s = runAsm(asm(g, `image_gather4_c_lz v[4:5], v[0:1], s[0:7], s[8:11] dmask:0x1${g.dim('2D')} a16 d16\ns_endpgm`), { target: g.target, waveSize: ws(g), mem: m2, sgpr: sgprs(g, '32_FLOAT', 2, 2, '2D'), vgpr: { 0: f32bits(0.4), 1: h(0.5) | (h(0.5) << 16) } });
    assert.deepEqual(s.diags.map((d) => d.id), []);
    // LESSEQUAL: ref 0.4 <= texel; order (i0,j1), (i1,j1), (i1,j0), (i0,j0) = 0.9, 0.3, 0.5, 0.1.
    assert.deepEqual([s.v(4, 0), s.v(5, 0)], [h(1) | (h(0) << 16), h(1) | (h(0) << 16)]);
  });
}

for (const g of GENS) {
  test(`${g.cpu}: a16 sample_b (bias alone in its VGPR) and sample_d (derivatives 16-bit on gfx900 only) pick the level the LOD says`, () => {
    // 8x8 32_FLOAT, 4 levels, every texel of level i = i. Rows of 256 bytes (64 texels): GFX9 stacks
    // the levels (rows 0, 8, 12, 14), GFX10.3+ stores the smallest first (rows 0, 1, 3, 7 for levels 3..0).
    const mem = memory();
    const rows = g.gfx === 9 ? [[0, 8], [8, 4], [12, 2], [14, 1]] : [[7, 8], [3, 4], [1, 2], [0, 1]];
    rows.forEach(([r0, n], lv) => { for (let r = r0!; r < r0! + n!; r++) for (let x = 0; x < 8 >> lv; x++) mem.writeF32(BASE + r * 256 + x * 4, lv); });
    const t = sgprs(g, '32_FLOAT', 8, 8, '2D', { MAX_MIP: 3, LAST_LEVEL: 3, ...(g.gfx === 9 ? { PITCH: 14 } : {}) });
    Object.assign(t, Object.fromEntries(words(imageGen(g.gfx).S, 4, { CLAMP_X: 2, CLAMP_Y: 2, MIP_FILTER: 1, MAX_LOD: 15 * 256 }).map((v, i) => [8 + i, v])));
    const h = (x: number): number => f16bits(x);
    const W = ws(g);
    // sample_b: bias 2 (f16, low half of v0), (u, v) in v1; u steps one texel between a quad's columns: LOD 0 + 2.
    const vg: Record<number, number[]> = { 0: [], 1: [] };
    for (let l = 0; l < W; l++) { vg[0]!.push(h(2)); vg[1]!.push(h(0.25 + (l & 1) / 8) | (h(0.25) << 16)); }
    const b = runAsm(asm(g, `image_sample_b v4, v[0:1], s[0:7], s[8:11] dmask:0x1${g.dim('2D')} a16\ns_endpgm`), { target: g.target, waveSize: W, mem, sgpr: t, vgpr: vg });
    assert.deepEqual(b.diags.map((d) => d.id), []);
    for (let l = 0; l < W; l++) assert.equal(b.vf(4, l), 2, `sample_b lane ${l}`);
    // sample_d: ds/dx = 2/8 (footprint 2 texels: LOD 1), others 0; (u, v) = (0.5, 0.5) packed.
    const d16 = g.gfx === 9;
    const dv: Record<number, number> = d16 ? { 0: h(0.25), 1: 0, 2: h(0.5) | (h(0.5) << 16) } : { 0: f32bits(0.25), 1: 0, 2: 0, 3: 0, 4: h(0.5) | (h(0.5) << 16) };
    const line = `image_sample_d v4, ${d16 ? 'v[0:2]' : 'v[0:4]'}, s[0:7], s[8:11] dmask:0x1${g.dim('2D')} a16`;
    const d = runAsm(asm(g, `${line}\ns_endpgm`), { target: g.target, waveSize: W, mem, sgpr: t, vgpr: dv });
    assert.deepEqual(d.diags.map((x) => x.id), []);
    assert.equal(d.vf(4, 0), 1);
  });
}

test('cube images, 3D gathers, 3D mip chains and r128 stay gfx11.mimg.unsupported (once, writing 0); a 3D load is quiet', () => {
  const g = GENS[0]!;
  const cases: [string, string, Readonly<Record<string, number>>, RegExp][] = [
    ['image_load v[4:7], v[0:2], s[0:7] dmask:0xf dim:SQ_RSRC_IMG_CUBE unorm', '2D', {}, /dim 3 is not modelled/],
    ['image_gather4_lz v[4:7], v[0:2], s[0:7], s[8:11] dmask:0x1 dim:SQ_RSRC_IMG_3D', '3D', { DEPTH: 1 }, /gather4 and arrays of 3D images are not modelled/],
    ['image_load v[4:7], v[0:2], s[0:7] dmask:0xf dim:SQ_RSRC_IMG_3D unorm', '3D', { DEPTH: 1, MAX_MIP: 1, LAST_LEVEL: 1 }, /3D mip chains are not modelled/],
    ['image_load v[4:7], v[0:1], s[0:7] dmask:0xf dim:SQ_RSRC_IMG_2D unorm r128', '2D', {}, /r128 \(a 128-bit T#\) is not modelled/],
    ['image_load v[4:7], v[0:2], s[0:7] dmask:0xf dim:SQ_RSRC_IMG_3D unorm', '3D', { DEPTH: 1 }, /^$/],
  ];
  for (const [line, type, extra, why] of cases) {
    const mem = memory();
    mem.writeF32(BASE, 5);
    const r = runAsm(asm(g, `${line}\ns_endpgm`), { target: g.target, mem, sgpr: sgprs(g, '32_FLOAT', 4, 4, type, extra), vgpr: { 0: 0, 1: 0, 2: 0, 4: 0x1234 } });
    const d = r.diags.filter((x) => x.id === 'gfx11.mimg.unsupported');
    if (why.source === '^$') {
      assert.deepEqual(r.diags.map((x) => x.id), []);
      assert.equal(r.v(4, 0), f32bits(5));
      continue;
    }
    assert.equal(d.length, 1, line);
    assert.match(d[0]!.message, why);
    assert.equal(r.v(4, 0), 0);
  }
});

test('the pck, resinfo, a16 and d16 lines assemble and print as llvm-mc-19 does', { skip: haveLlvm() ? false : 'llvm-mc-19 not installed' }, () => {
  for (const g of GENS) {
    const lines = [...(LINES.get(g.cpu) ?? [])];
    assert.ok(lines.length >= 8, `${g.cpu}: ${lines.length} lines`);
    const r = spawnSync(LLVM_MC, ['-triple=amdgcn-amd-amdhsa', `-mcpu=${g.cpu}`, '-show-encoding'], { input: lines.join('\n') + '\n', encoding: 'utf8' });
    assert.equal(r.stderr, '', g.cpu);
    const theirs = r.stdout.split('\n').filter((l) => l.includes('encoding:')).map((l) => {
      const m = /^\s*(.*?)\s*(?:\/\/|;) encoding: \[(.*)\]/.exec(l)!;
      return { text: m[1]!.replace(/\s+/g, ' '), bytes: m[2]!.split(',').map((x) => Number(x)) };
    });
    assert.equal(theirs.length, lines.length);
    // The disassembler's view of the same bytes (GFX9 does not encode the address width, so its
    // text is LLVM's first match, as llvm-objdump prints it, not the width the line gave).
    const d = spawnSync(LLVM_MC, ['-triple=amdgcn-amd-amdhsa', `-mcpu=${g.cpu}`, '--disassemble'], { input: theirs.map((t) => t.bytes.join(' ')).join('\n') + '\n', encoding: 'utf8' });
    const printed = d.stdout.split('\n').filter((l) => /^\s+image_/.test(l)).map((l) => l.replace(/\s*(\/\/|;).*$/, '').trim().replace(/\s+/g, ' '));
    assert.equal(printed.length, lines.length);
    lines.forEach((line, i) => {
      const w = assemble(g.target, line);
      const bytes = Array.from(new Uint8Array(Uint32Array.from(w).buffer));
      assert.deepEqual(bytes, theirs[i]!.bytes, `${g.cpu}: ${line}`);
      assert.equal(disassemble(g.target, w)[0]!.text.replace(/\s+/g, ' '), printed[i], `${g.cpu}: ${line}`);
    });
  }
});
