/**
 * VSC: bin layout and pipes; the binning pass's streams (geometry from the CP's binning hook);
 * CP_SET_BIN_DATA5 skipping draws and, with CP_SKIP_IB2_ENABLE_*, IB2s with no visible draw.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Memory } from '../../src/core/memory.js';
import { Diagnostics } from '../../src/core/diagnostics.js';
import { CmdStream, Layout } from '../../src/adreno/cp/builder.js';
import { CommandProcessor } from '../../src/adreno/cp/cp.js';
import { gmemInfo } from '../../src/adreno/rb/gmem.js';
import { emitGmemPass, gmemBudget } from '../../src/adreno/rb/gmem-pass.js';
import { binLayout, type PrimBox } from '../../src/adreno/vsc/vsc.js';

const lay = (w: number, h: number, cpps: number[], bin?: { w: number; h: number }) => {
  const i = gmemInfo(630);
  return binLayout({ width: w, height: h, cpps, budget: gmemBudget(630), alignW: i.tileAlignW, alignH: i.tileAlignH, maxW: i.tileMaxW, maxH: i.tileMaxH, numPipes: 32, ...(bin ? { bin } : {}) });
};

test('bin layout: fits GMEM below the CCU cache, 32x16 granules, every bin in exactly one pipe', () => {
  for (const [w, h, cpps] of [[1920, 1080, [4, 4]], [2560, 1440, [8, 4]], [100, 70, [4]], [4096, 300, [16, 4]]] as const) {
    const L = lay(w, h, [...cpps]);
    assert.ok(L.used <= gmemBudget(630));
    assert.equal(L.binW % 32, 0);
    assert.equal(L.binH % 16, 0);
    assert.ok(L.nx * L.binW >= w && L.ny * L.binH >= h);
    assert.ok(L.pipes.length <= 32 && L.tppX * L.tppY <= 32);
    const seen = new Map<string, number>();
    for (const p of L.pipes) for (let y = p.y; y < p.y + p.h; y++) for (let x = p.x; x < p.x + p.w; x++) seen.set(`${x},${y}`, (seen.get(`${x},${y}`) ?? 0) + 1);
    assert.equal(seen.size, L.nx * L.ny);
    assert.ok([...seen.values()].every((v) => v === 1));
  }
  assert.throws(() => lay(100, 70, [4], { w: 40, h: 16 }), /multiple of 32x16/);
});

/** A GMEM pass with hardware binning over `draws` (each a memWrite marker + a draw), geometry from `geo`. */
function binned(geo: PrimBox[][], bin: { w: number; h: number }, opts: { ib2PerDraw?: boolean; limit?: number } = {}) {
  const Lay = new Layout();
  const marks = Lay.reserve(4096, 'marks');
  const fb = Lay.reserve(128 * 64 * 4, 'fb');
  const strm = Lay.reserve(0x10000, 'vsc');
  const L = lay(128, 64, [4], bin);
  const pitch = opts.limit ?? 0x400;
  // Draws: each writes its index to marks + 4 * (bin * 16 + draw) via CP_MEM_WRITE from the same IB.
  let drawIb: { iova: number; sizeDwords: number };
  if (opts.ib2PerDraw) {
    // One draw per IB2, called from an IB1-level list the pass calls at IB2 level: the list itself is the IB.
    const cs = new CmdStream();
    geo.forEach((_, d) => cs.regRmw('CP_SCRATCH[0]', 0xffffffff, 0, { add: false }).drawAuto('DI_PT_TRILIST', 3).regRmw(`CP_SCRATCH[${1 + d}]`, 0xffffffff, 1, { add: true }));
    drawIb = Lay.place(cs);
  } else {
    const cs = new CmdStream();
    geo.forEach(() => cs.drawAuto('DI_PT_TRILIST', 3));
    drawIb = Lay.place(cs);
  }
  const cs = emitGmemPass(new CmdStream(), { gpuId: 630, layout: L, targets: [{ iova: fb, pitch: 512, format: 'FMT6_8_8_8_8_UNORM', clear: { dw: [0] } }], draws: drawIb, vsc: { drawStrm: strm, drawPitch: pitch, primStrm: strm + 0x8000, primPitch: pitch, sizeAddr: strm + 0xf000 } });
  const ib = Lay.place(cs);
  const mem = new Memory();
  for (const b of Lay.buffers) mem.map(b.iova, Math.max(b.data.length, 4), b.label, b.data.slice());
  const diag = new Diagnostics();
  let n = 0;
  const cp = new CommandProcessor(mem, { diag, binning: () => geo[n++ % geo.length] });
  assert.equal(cp.run(ib.iova, ib.sizeDwords), 'done');
  return { cp, mem, diag, L, strm, marks };
}

const errs = (d: Diagnostics): string[] => d.list.filter((x) => x.severity !== 'info').map((x) => x.id);

test('binning pass writes the documented streams; each bin runs only the draws visible in it', () => {
  // 128x64 in 64x32 bins: 2x2 bins. Draw 0 in bin (0,0) only; draw 1 spans bins (1,0) and (1,1); draw 2 off-screen.
  const geo: PrimBox[][] = [[{ x0: 3, y0: 3, x1: 20, y1: 20 }], [{ x0: 70, y0: 10, x1: 90, y1: 50 }, { x0: 100, y0: 5, x1: 101, y1: 6 }], []];
  const { cp, mem, diag, L, strm } = binned(geo, { w: 64, h: 32 });
  assert.deepEqual(errs(diag), []);
  assert.equal(L.nx * L.ny, 4);
  assert.equal(L.pipes.length, 4); // one bin per pipe (tpp 1x1)
  // Pipe p = bin p (row-major); each pipe's draw stream has 3 dwords (bit 0 = its one bin).
  const words = (p: number) => [0, 1, 2].map((d) => mem.read32(strm + p * 0x400 + 4 * d));
  assert.deepEqual(words(0), [1, 0, 0]);
  assert.deepEqual(words(1), [0, 1, 0]);
  assert.deepEqual(words(2), [0, 0, 0]);
  assert.deepEqual(words(3), [0, 1, 0]);
  assert.deepEqual([0, 1, 2, 3].map((p) => mem.read32(strm + 0xf000 + 4 * p)), [12, 12, 12, 12]); // sizes in bytes
  // Primitive stream, per draw its primitive count then a mask per primitive: in bin (1,0) draw 0's
  // one primitive is absent, both of draw 1's are present, draw 2 has none.
  assert.deepEqual([0, 1, 2, 3, 4, 5].map((k) => mem.read32(strm + 0x8000 + 1 * 0x400 + 4 * k)), [1, 0, 2, 1, 1, 0]);
  assert.equal(cp.readReg(cp.regsDb.reg('VSC_PRIM_STRM_SIZE[1].REG')), 24);
  assert.equal(cp.readReg(cp.regsDb.reg('VSC_STATE[1].REG')), 1);
  assert.equal(cp.readReg(cp.regsDb.reg('VSC_STATE[2].REG')), 0);
  // Render pass: per bin, which draws ran (not invisible), by bin order.
  const ran = cp.work.filter((w) => w.kind === 'draw' && w.mode === 'GMEM').map((w) => !w.invisible);
  // Bin (0,1) has no visible draw: its IB2 is skipped whole (CP_SKIP_IB2_ENABLE_GLOBAL after binning).
  assert.deepEqual(ran, [true, false, false, false, true, false, false, true, false]);
  assert.equal(cp.vscSkippedIbs, 1);
  assert.equal(cp.vscSkippedDraws, 9);
});

test('CP_SKIP_IB2_ENABLE: an IB2 whose draws are all invisible in the bin is skipped', () => {
  const geo: PrimBox[][] = [[{ x0: 3, y0: 3, x1: 20, y1: 20 }]];
  const { cp, diag } = binned(geo, { w: 64, h: 32 });
  assert.deepEqual(errs(diag), []);
  // The draws IB (one draw, visible only in bin 0) is an IB2 in the render pass: skipped in 3 of 4 bins.
  assert.equal(cp.vscSkippedIbs, 3);
  assert.equal(cp.work.filter((w) => w.kind === 'draw' && w.mode === 'GMEM').length, 1);
});

test('stream overflow: entries past LIMIT are lost, sizes keep counting, the render pass draws them everywhere', () => {
  const geo: PrimBox[][] = Array.from({ length: 20 }, () => [{ x0: 1, y0: 1, x1: 2, y1: 2 }]);
  const { cp, diag, mem, strm } = binned(geo, { w: 64, h: 32 }, { limit: 64 + 32 }); // LIMIT = 32 bytes = 8 draws
  assert.ok(errs(diag).includes('adreno.vsc.overflow'));
  assert.ok(errs(diag).includes('adreno.vsc.stream-short') === false);
  assert.equal(mem.read32(strm + 0xf000), 80);
  assert.equal(cp.readReg(cp.regsDb.reg('VSC_DRAW_STRM_SIZE[0].REG')), 80);
});
