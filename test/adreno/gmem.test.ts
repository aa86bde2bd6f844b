/**
 * GMEM and the BLIT event: GMEM passes built by rb/gmem-pass.ts (freedreno's order) run on the
 * CP; memory images compared with the same operation done in sysmem by the 2D engine (CP_BLIT)
 * or computed here, for several bin sizes including ones that do not divide the framebuffer.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Memory } from '../../src/core/memory.js';
import { Diagnostics } from '../../src/core/diagnostics.js';
import { CmdStream, Layout } from '../../src/adreno/cp/builder.js';
import { CommandProcessor } from '../../src/adreno/cp/cp.js';
import { enumValue } from '../../src/adreno/regs/db.js';
import { ccuRanges, formatWidths, gmemInfo } from '../../src/adreno/rb/gmem.js';
import { ccuCntlGmem, emitGmemPass, gmemBudget, type GmemTarget } from '../../src/adreno/rb/gmem-pass.js';
import { binLayout, type BinLayout } from '../../src/adreno/vsc/vsc.js';
import { linearToTile6, tile6ToLinear } from '../../src/adreno/ubwc/tile6.js';
import { TILE6_A630 } from '../../src/adreno/ubwc/tile6.js';

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (s * 1664525 + 1013904223) >>> 0) >>> 24);
}

function machine(L: Layout, gpuId = 630): { cp: CommandProcessor; mem: Memory; diag: Diagnostics } {
  const mem = new Memory();
  for (const b of L.buffers) mem.map(b.iova, Math.max(b.data.length, 4), b.label, b.data.slice());
  const diag = new Diagnostics();
  return { cp: new CommandProcessor(mem, { diag, gpuId }), mem, diag };
}

const ids = (d: Diagnostics): string[] => d.list.filter((x) => x.severity !== 'info').map((x) => x.id);

function layoutFor(w: number, h: number, cpps: number[], bin?: { w: number; h: number }, gpuId = 630): BinLayout {
  const i = gmemInfo(gpuId);
  return binLayout({ width: w, height: h, cpps, budget: gmemBudget(gpuId), alignW: i.tileAlignW, alignH: i.tileAlignH, maxW: i.tileMaxW, maxH: i.tileMaxH, numPipes: i.numVscPipes, ...(bin ? { bin } : {}) });
}

test('GMEM facts: sizes per SoC, the CCU colour cache at the top of GMEM', () => {
  assert.equal(gmemInfo(630).gmemBytes, 1 << 20);
  assert.equal(gmemInfo(660).gmemBytes, 3 << 19);
  // freedreno's GMEM config on a630: 2 CCUs x 16 KiB (QUARTER of 64 KiB) = the seed's 16 KiB per CCU.
  const c = ccuCntlGmem(630);
  assert.equal(c['COLOR_OFFSET'], (1 << 20) - 2 * 16384);
  const r = ccuRanges({ COLOR_OFFSET: c['COLOR_OFFSET'] as number, COLOR_CACHE_SIZE: 2 }, gmemInfo(630), true);
  assert.deepEqual(r, [{ kind: 'colour', start: (1 << 20) - 32768, end: 1 << 20 }]);
  assert.deepEqual(formatWidths('FMT6_Z24_UNORM_S8_UINT'), [24, 8]);
  assert.deepEqual(formatWidths('FMT6_10_10_10_2_UNORM_DEST'), [10, 10, 10, 2]);
});

/** Framebuffer W x H RGBA8 in memory at `fb`; returns its bytes after a GMEM pass. */
function gmemRun(o: { w: number; h: number; bin?: { w: number; h: number }; targets: (fb: number, pitch: number) => GmemTarget[]; init?: Uint8Array; gpuId?: number; samples?: number; cpp?: number }): { out: Uint8Array; diag: Diagnostics; L: BinLayout; cp: CommandProcessor } {
  const cpp = o.cpp ?? 4;
  const pitch = Math.ceil((o.w * cpp) / 64) * 64;
  const Lay = new Layout();
  const size = Math.max(pitch * o.h, o.init?.length ?? 0);
  const fb = Lay.place(o.init ?? new Uint8Array(size), 'fb').iova;
  const targets = o.targets(fb, pitch);
  const L = layoutFor(o.w, o.h, targets.map(() => cpp * (o.samples ?? 1)), o.bin, o.gpuId);
  const cs = emitGmemPass(new CmdStream(), { gpuId: o.gpuId ?? 630, layout: L, targets, samples: o.samples ?? 1 });
  const ib = Lay.place(cs, 'ib');
  const { cp, mem, diag } = machine(Lay, o.gpuId);
  assert.equal(cp.run(ib.iova, ib.sizeDwords), 'done');
  return { out: mem.readBytes(fb, size), diag, L, cp };
}

/** The same clear in sysmem with the 2D engine (CP_BLIT solid colour). */
function sysmemClear(w: number, h: number, rgba: number[]): Uint8Array {
  const pitch = Math.ceil((w * 4) / 64) * 64;
  const Lay = new Layout();
  const fb = Lay.place(new Uint8Array(pitch * h), 'fb').iova;
  const cntl = { SOLID_COLOR: true, COLOR_FORMAT: 'FMT6_8_8_8_8_UNORM', IFMT: 'R2D_UNORM8' };
  const cs = new CmdStream().reg('GRAS_2D_BLIT_CNTL', cntl).reg('RB_2D_BLIT_CNTL', cntl)
    .reg('GRAS_2D_DST_TL', { X: 0, Y: 0 }).reg('GRAS_2D_DST_BR', { X: w - 1, Y: h - 1 })
    .reg('RB_2D_DST_INFO', { COLOR_FORMAT: 'FMT6_8_8_8_8_UNORM', TILE_MODE: 'TILE6_LINEAR' })
    .reg64('RB_2D_DST', fb).reg('RB_2D_DST_PITCH', pitch / 64).regs32('RB_2D_SRC_SOLID_C0', rgba)
    .pkt('CP_BLIT', [enumValue('cp_blit_cmd', 'BLIT_OP_SCALE', 'a6xx')!]);
  const ib = Lay.place(cs);
  const { cp, mem } = machine(Lay);
  assert.equal(cp.run(ib.iova, ib.sizeDwords), 'done');
  return mem.readBytes(fb, pitch * h);
}

const BINS = [undefined, { w: 32, h: 16 }, { w: 96, h: 48 }, { w: 64, h: 32 }, { w: 160, h: 80 }];

test('GMEM clear + resolve gives the sysmem image for every bin size (incl. bins not dividing 100x70)', () => {
  const rgba = [0x12, 0x34, 0x56, 0x78];
  const want = sysmemClear(100, 70, rgba);
  for (const bin of BINS) {
    const { out, diag, L } = gmemRun({ w: 100, h: 70, bin, targets: (fb, pitch) => [{ iova: fb, pitch, format: 'FMT6_8_8_8_8_UNORM', clear: { dw: [0x78563412] } }] });
    assert.deepEqual(ids(diag), [], `bin ${L.binW}x${L.binH}`);
    assert.deepEqual(out, want, `bin ${L.binW}x${L.binH} (${L.nx}x${L.ny} bins)`);
  }
});

test('restore, partial clear, resolve: memory outside the cleared components survives; no resolve = stale memory', () => {
  const w = 70, h = 37, pitch = Math.ceil((w * 4) / 64) * 64;
  const r = rng(7);
  const init = Uint8Array.from({ length: pitch * h }, () => r());
  const expect = init.slice();
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) expect[y * pitch + x * 4 + 1] = 0xee; // CLEAR_MASK 0x2: G only
  for (const bin of [{ w: 32, h: 16 }, { w: 96, h: 32 }, undefined]) {
    const { out, diag } = gmemRun({ w, h, bin, init, targets: (fb, p) => [{ iova: fb, pitch: p, format: 'FMT6_8_8_8_8_UNORM', load: true, clear: { dw: [0x0000ee00], mask: 0x2 } }] });
    assert.deepEqual(ids(diag), []);
    assert.deepEqual(out, expect);
  }
  // Without the resolve the GMEM work never reaches memory.
  const { out } = gmemRun({ w, h, init, targets: (fb, p) => [{ iova: fb, pitch: p, format: 'FMT6_8_8_8_8_UNORM', load: true, clear: { dw: [0x0000ee00], mask: 0x2 }, store: false }] });
  assert.deepEqual(out, init);
  assert.notDeepEqual(out, expect);
});

test('TILE6_3 memory surfaces load and store through GMEM unchanged (odd bins)', () => {
  const w = 64, h = 40, cpp = 4, pitch = w * cpp;
  const r = rng(3);
  const lin = Uint8Array.from({ length: pitch * h }, () => r());
  const tiled = linearToTile6(lin, w, h, cpp, pitch, TILE6_A630);
  for (const bin of [{ w: 32, h: 16 }, { w: 96, h: 48 }]) {
    const { out, diag } = gmemRun({ w, h, bin, init: tiled, targets: (fb, p) => [{ iova: fb, pitch: p, format: 'FMT6_8_8_8_8_UNORM', tile: 'TILE6_3', load: true }] });
    assert.deepEqual(ids(diag), []);
    assert.deepEqual(tile6ToLinear(out, w, h, cpp, pitch, TILE6_A630), lin);
  }
});

test('MSAA resolve: 4 samples in GMEM averaged into a 1-sample surface, or sample 0 with SAMPLE_0', () => {
  const w = 16, h = 8;
  // Clear GMEM (4 samples) then resolve: every sample holds the clear, so the average equals it.
  const { out } = gmemRun({ w, h, samples: 4, targets: (fb, p) => [{ iova: fb, pitch: p, format: 'FMT6_8_8_8_8_UNORM', clear: { dw: [0x80402010] }, samples: 1 }] });
  for (let y = 0; y < h; y++) assert.deepEqual(Array.from(out.slice(y * 64, y * 64 + 4)), [0x10, 0x20, 0x40, 0x80]);
  // Restore distinct samples from a 4-sample image, resolve to 1 sample: average vs sample 0.
  const Lay = new Layout();
  const src = new Uint8Array(w * 16 * h);
  for (let p = 0; p < w * h; p++) for (let s = 0; s < 4; s++) src.set([s * 40, 200, 0, 255], p * 16 + s * 4);
  const msa = Lay.place(src, 'msaa').iova;
  const dst = Lay.place(new Uint8Array(64 * h), 'dst').iova;
  const dst0 = Lay.place(new Uint8Array(64 * h), 'dst0').iova;
  const L = layoutFor(w, h, [16]);
  const cs = emitGmemPass(new CmdStream(), { gpuId: 630, layout: L, samples: 4, targets: [{ iova: msa, pitch: w * 16, format: 'FMT6_8_8_8_8_UNORM', samples: 4, load: true, store: false }] });
  // Two extra resolves of the same GMEM buffer (the pass above left the last bin's GMEM; one bin here).
  for (const [addr, s0] of [[dst, false], [dst0, true]] as const) {
    cs.setMarker('RM6_GMEM').reg('RB_BLIT_INFO', { SAMPLE_0: s0 });
    cs.reg('RB_BLIT_DST_INFO', { TILE_MODE: 'TILE6_LINEAR', SAMPLES: 'MSAA_ONE', COLOR_FORMAT: 'FMT6_8_8_8_8_UNORM' }).reg64('RB_BLIT_DST', addr).reg('RB_BLIT_DST_PITCH', 1).reg('RB_BLIT_BASE_GMEM', L.bases[0]!).event('BLIT');
  }
  const ib = Lay.place(cs);
  const { cp, mem, diag } = machine(Lay);
  assert.equal(cp.run(ib.iova, ib.sizeDwords), 'done');
  assert.deepEqual(ids(diag), []);
  assert.deepEqual(Array.from(mem.readBytes(dst, 4)), [60, 200, 0, 255]);
  assert.deepEqual(Array.from(mem.readBytes(dst0, 4)), [0, 200, 0, 255]);
});

test('Z24S8 depth clear with CLEAR_MASK 1 keeps the stencil byte', () => {
  const w = 8, h = 4;
  const init = new Uint8Array(64 * h).fill(0x5a);
  const { out, diag } = gmemRun({ w, h, init, targets: (fb, p) => [{ iova: fb, pitch: p, format: 'FMT6_Z24_UNORM_S8_UINT', depth: true, load: true, clear: { dw: [0x00ffffff], mask: 1 } }] });
  assert.deepEqual(ids(diag), []);
  assert.deepEqual(Array.from(out.slice(0, 8)), [0xff, 0xff, 0xff, 0x5a, 0xff, 0xff, 0xff, 0x5a]);
});

test('diagnostics: a GMEM write into the CCU colour cache, outside GMEM, a BLIT with no bin size; quiet on clean passes', () => {
  const run = (base: number, bin = { w: 32, h: 16 }): string[] => {
    const Lay = new Layout();
    const cs = new CmdStream().setMarker('RM6_GMEM').reg('RB_CCU_CNTL', ccuCntlGmem(630))
      .reg('RB_BIN_CONTROL2', { BINW: bin.w, BINH: bin.h }).reg('RB_WINDOW_OFFSET2', { X: 0, Y: 0 })
      .reg('RB_BLIT_SCISSOR_TL', { X: 0, Y: 0 }).reg('RB_BLIT_SCISSOR_BR', { X: 63, Y: 31 })
      .reg('RB_BLIT_DST_INFO', { COLOR_FORMAT: 'FMT6_8_8_8_8_UNORM' }).reg('RB_BLIT_INFO', { GMEM: true, CLEAR_MASK: 0xf })
      .reg('RB_BLIT_BASE_GMEM', base).event('BLIT');
    const ib = Lay.place(cs);
    const { cp, diag } = machine(Lay);
    cp.run(ib.iova, ib.sizeDwords);
    return ids(diag);
  };
  assert.deepEqual(run(0), []);
  assert.deepEqual(run((1 << 20) - 32768), ['adreno.gmem.ccu-overlap']);
  assert.deepEqual(run((1 << 20) - 36864), []); // a 32x16 bin: 2 KiB, below the cache
  assert.deepEqual(run((1 << 20) - 36864, { w: 64, h: 32 }), ['adreno.gmem.ccu-overlap']); // 8 KiB reach into it
  assert.deepEqual(run(1 << 20), ['adreno.gmem.out-of-range']);
  assert.deepEqual(run(0, { w: 0, h: 0 }), ['adreno.gmem.no-bin-size']);
});

test('UBWC memory surfaces: restore, partial clear and resolve through GMEM read back right', async () => {
  const { linearToUbwc, ubwcLayout, ubwcToLinear } = await import('../../src/adreno/ubwc/ubwc.js');
  const w = 64, h = 32;
  const lay = ubwcLayout(w, h, 4);
  const r = rng(11);
  const lin = Uint8Array.from({ length: w * h * 4 }, () => r());
  const packed = linearToUbwc(lin, lay, { alphaByte: 3 });
  const want = lin.slice();
  for (let p = 0; p < w * h; p++) want[p * 4 + 2] = 0x77; // CLEAR_MASK 0x4: B only
  for (const bin of [{ w: 32, h: 16 }, { w: 96, h: 48 }]) {
    const Lay = new Layout();
    const base = Lay.place(packed, 'ubwc').iova;
    const L = layoutFor(w, h, [4], bin);
    const cs = emitGmemPass(new CmdStream(), { gpuId: 630, layout: L, targets: [{ iova: base + lay.dataOffset, pitch: lay.pitch, format: 'FMT6_8_8_8_8_UNORM', tile: 'TILE6_3', flags: { iova: base, pitch: lay.metaPitch }, load: true, clear: { dw: [0x00770000], mask: 0x4 } }] });
    const ib = Lay.place(cs);
    const { cp, mem, diag } = machine(Lay);
    assert.equal(cp.run(ib.iova, ib.sizeDwords), 'done');
    assert.deepEqual(ids(diag), []);
    const back = ubwcToLinear(mem.readBytes(base, lay.dataOffset + lay.dataSize), lay, { alphaByte: 3 }, new Diagnostics(), 'dst');
    assert.deepEqual(back, want, `bin ${bin.w}x${bin.h}`);
  }
});
