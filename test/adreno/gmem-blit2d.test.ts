/**
 * The 2D engine reading GMEM (CP_BLIT with a TILE6_2 source): the resolve fd6 emits for formats
 * the BLIT event cannot resolve (`fd6_resolve_tile`) and turnip for unaligned render areas
 * (`store_cp_blit`) — gmem-pass.ts `resolve2d`. Its memory image must equal the BLIT-event
 * resolve of the same GMEM, for every bin size, MSAA averaged or sample 0, on a630 (GMEM at
 * 0x100000 for the TP) and a660 (at 0). Plus RB_2D_BLIT_CNTL.SCISSOR and the diagnostics.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Memory } from '../../src/core/memory.js';
import { Diagnostics } from '../../src/core/diagnostics.js';
import { CmdStream, Layout } from '../../src/adreno/cp/builder.js';
import { CommandProcessor } from '../../src/adreno/cp/cp.js';
import { gmemInfo } from '../../src/adreno/rb/gmem.js';
import { emitGmemPass, gmemBudget, type GmemTarget } from '../../src/adreno/rb/gmem-pass.js';
import { binLayout } from '../../src/adreno/vsc/vsc.js';

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (s * 1664525 + 1013904223) >>> 0) >>> 24);
}

const ids = (d: Diagnostics): string[] => d.list.filter((x) => x.severity !== 'info').map((x) => x.id);

function machine(L: Layout, gpuId: number): { cp: CommandProcessor; mem: Memory; diag: Diagnostics } {
  const mem = new Memory();
  for (const b of L.buffers) mem.map(b.iova, Math.max(b.data.length, 4), b.label, b.data.slice());
  const diag = new Diagnostics();
  return { cp: new CommandProcessor(mem, { diag, gpuId }), mem, diag };
}

/**
 * A GMEM pass over a w x h RGBA8 framebuffer: restore from `src` (samples per pixel), a partial
 * clear of G, resolve to a 1-sample image with the BLIT event or the 2D engine.
 */
function pass(o: { w: number; h: number; gpuId: number; samples: number; bin?: { w: number; h: number }; twoD: boolean; sample0?: boolean; seed: number }): { out: Uint8Array; ids: string[]; bins: string } {
  const { w, h, samples } = o;
  const pitch = Math.ceil((w * 4) / 64) * 64;
  const spitch = Math.ceil((w * 4 * samples) / 64) * 64;
  const r = rng(o.seed);
  const Lay = new Layout();
  // Samples are multiples of 4 so the average of four is exact (no rounding question).
  const src = Uint8Array.from({ length: spitch * o.h }, () => r() & 0xfc);
  const fbInit = Uint8Array.from({ length: pitch * o.h + 256 }, () => r());
  const from = Lay.place(src, 'msaa').iova;
  const fb = Lay.place(fbInit, 'fb').iova;
  const i = gmemInfo(o.gpuId);
  const L = binLayout({ width: w, height: h, cpps: [4 * samples], budget: gmemBudget(o.gpuId), alignW: i.tileAlignW, alignH: i.tileAlignH, maxW: i.tileMaxW, maxH: i.tileMaxH, numPipes: i.numVscPipes, ...(o.bin ? { bin: o.bin } : {}) });
  const t: GmemTarget = { iova: fb, pitch, format: 'FMT6_8_8_8_8_UNORM', samples: 1, load: true, loadFrom: { iova: from, pitch: spitch, samples }, clear: { dw: [0x00005500], mask: 0x2 }, resolve2d: o.twoD, ...(o.sample0 ? { sample0: true } : {}) };
  const cs = emitGmemPass(new CmdStream(), { gpuId: o.gpuId, layout: L, targets: [t], samples });
  const ib = Lay.place(cs, 'ib');
  const { cp, mem, diag } = machine(Lay, o.gpuId);
  assert.equal(cp.run(ib.iova, ib.sizeDwords), 'done');
  return { out: mem.readBytes(fb, pitch * h + 256), ids: ids(diag), bins: `${L.binW}x${L.binH} (${L.nx}x${L.ny})` };
}

test('2D-engine resolve from TILE6_2 GMEM = BLIT-event resolve: bin sizes, a630 / a660, MSAA average and sample 0', () => {
  const cases: { gpuId: number; samples: number; sample0?: boolean }[] = [
    { gpuId: 630, samples: 1 }, { gpuId: 660, samples: 1 }, { gpuId: 630, samples: 4 }, { gpuId: 660, samples: 4 }, { gpuId: 630, samples: 4, sample0: true }, { gpuId: 630, samples: 2 },
  ];
  for (const c of cases)
    for (const bin of [undefined, { w: 32, h: 16 }, { w: 96, h: 48 }, { w: 64, h: 32 }]) {
      if (c.gpuId === 660 && bin && bin.w % 96) continue; // a660 bins are 96-pixel aligned
      const o = { w: 100, h: 70, ...c, ...(bin ? { bin } : {}), seed: 11 + c.samples };
      const ev = pass({ ...o, twoD: false });
      const two = pass({ ...o, twoD: true });
      const what = `a${c.gpuId} ${c.samples}x${c.sample0 ? ' sample 0' : ''} bins ${two.bins}`;
      assert.deepEqual(ev.ids, [], what);
      assert.deepEqual(two.ids, [], what);
      assert.deepEqual(two.out, ev.out, what);
    }
  // And the image is the resolve: pixel (5, 3) of the 4x average, G cleared to 0x55.
  const p = pass({ w: 16, h: 8, gpuId: 630, samples: 4, twoD: true, seed: 5 });
  const r = rng(5);
  const src = Uint8Array.from({ length: 256 * 8 }, () => r() & 0xfc);
  const o = 3 * 256 + 5 * 16;
  const avg = [0, 1, 2, 3].map((k) => (src[o + k]! + src[o + 4 + k]! + src[o + 8 + k]! + src[o + 12 + k]!) / 4);
  avg[1] = 0x55;
  assert.deepEqual([...p.out.subarray(3 * 64 + 5 * 4, 3 * 64 + 5 * 4 + 4)], avg);
});

/** A hand-built CP_BLIT (8888) from a source surface to a linear destination; stream extras first. */
function blit(o: { gpuId?: number; pre?: (cs: CmdStream) => void; src: { iova: number; pitch: number; tile: string }; dst: { iova: number; pitch: number; tile?: string }; rect: [number, number, number, number]; scissor?: [number, number, number, number] }): CmdStream {
  const cs = new CmdStream();
  o.pre?.(cs);
  const cntl = { COLOR_FORMAT: 'FMT6_8_8_8_8_UNORM', IFMT: 'R2D_UNORM8', SCISSOR: !!o.scissor };
  const [x0, y0, x1, y1] = o.rect;
  cs.reg('GRAS_2D_BLIT_CNTL', cntl).reg('RB_2D_BLIT_CNTL', cntl);
  if (o.scissor) cs.reg('GRAS_2D_RESOLVE_CNTL_1', { X: o.scissor[0], Y: o.scissor[1] }).reg('GRAS_2D_RESOLVE_CNTL_2', { X: o.scissor[2], Y: o.scissor[3] });
  cs.reg('GRAS_2D_DST_TL', { X: x0, Y: y0 }).reg('GRAS_2D_DST_BR', { X: x1, Y: y1 });
  cs.reg('GRAS_2D_SRC_TL_X', x0 << 8).reg('GRAS_2D_SRC_TL_Y', y0 << 8).reg('GRAS_2D_SRC_BR_X', x1 << 8).reg('GRAS_2D_SRC_BR_Y', y1 << 8);
  cs.reg('RB_2D_DST_INFO', { COLOR_FORMAT: 'FMT6_8_8_8_8_UNORM', TILE_MODE: o.dst.tile ?? 'TILE6_LINEAR' });
  cs.reg64('RB_2D_DST', o.dst.iova).reg('RB_2D_DST_PITCH', o.dst.pitch / 64);
  cs.reg('SP_PS_2D_SRC_INFO', { COLOR_FORMAT: 'FMT6_8_8_8_8_UNORM', TILE_MODE: o.src.tile });
  cs.reg('SP_PS_2D_SRC_SIZE', { WIDTH: 0x3fff, HEIGHT: 0x3fff });
  cs.reg64('SP_PS_2D_SRC', o.src.iova).reg('SP_PS_2D_SRC_PITCH', { PITCH: o.src.pitch });
  return cs.pkt('CP_BLIT', [3]);
}

function runBlit(gpuId: number, build: (L: Layout) => { cs: CmdStream; read?: { iova: number; len: number } }): { ids: string[]; out?: Uint8Array; cp: CommandProcessor } {
  const Lay = new Layout();
  const { cs, read } = build(Lay);
  const ib = Lay.place(cs, 'ib');
  const { cp, mem, diag } = machine(Lay, gpuId);
  assert.equal(cp.run(ib.iova, ib.sizeDwords), 'done');
  return { ids: ids(diag), cp, ...(read ? { out: mem.readBytes(read.iova, read.len) } : {}) };
}

test('RB_2D_BLIT_CNTL.SCISSOR clips the destination to GRAS_2D_RESOLVE_CNTL_1/2; without it the whole rectangle', () => {
  const r = rng(9);
  const src = Uint8Array.from({ length: 64 * 8 }, () => r());
  for (const sc of [undefined, [3, 2, 9, 5] as [number, number, number, number]]) {
    const res = runBlit(630, (L) => {
      const s = L.place(src, 'src').iova;
      const d = L.reserve(64 * 8, 'dst');
      return { cs: blit({ src: { iova: s, pitch: 64, tile: 'TILE6_LINEAR' }, dst: { iova: d, pitch: 64 }, rect: [0, 0, 15, 7], ...(sc ? { scissor: sc } : {}) }), read: { iova: d, len: 64 * 8 } };
    });
    assert.deepEqual(res.ids, []);
    for (let y = 0; y < 8; y++)
      for (let x = 0; x < 16; x++) {
        const inside = !sc || (x >= sc[0] && x <= sc[2] && y >= sc[1] && y <= sc[3]);
        assert.deepEqual([...res.out!.subarray(y * 64 + x * 4, y * 64 + x * 4 + 4)], inside ? [...src.subarray(y * 64 + x * 4, y * 64 + x * 4 + 4)] : [0, 0, 0, 0], `(${x},${y}) scissor ${sc}`);
      }
  }
});

test('diagnostics: TILE6_2 destination, TILE6_2 source outside GMEM, GMEM read outside the bin; quiet when in the bin', () => {
  const va = gmemInfo(630).gmemVa;
  const gmemPass = (cs: CmdStream): void => {
    cs.reg('GRAS_BIN_CONTROL', { BINW: 32, BINH: 16 }).setMarker('RM6_GMEM');
    cs.reg('SP_TP_WINDOW_OFFSET', { X: 32, Y: 16 });
  };
  const one = (o: { src: string; dst?: string; srcAt?: 'gmem' | 'mem'; rect: [number, number, number, number]; scissor?: [number, number, number, number]; inPass?: boolean }): string[] =>
    runBlit(630, (L) => {
      const m = L.place(new Uint8Array(256 * 64), 'mem').iova;
      const d = L.reserve(256 * 64, 'dst');
      const s = o.srcAt === 'mem' ? m : va + 0x1000;
      return { cs: blit({ ...(o.inPass !== false ? { pre: gmemPass } : {}), src: { iova: s, pitch: o.srcAt === 'mem' ? 256 : 128, tile: o.src }, dst: { iova: d, pitch: 256, ...(o.dst ? { tile: o.dst } : {}) }, rect: o.rect, ...(o.scissor ? { scissor: o.scissor } : {}) }) };
    }).ids;
  // Clean: the bin (32,16)..(63,31) read from GMEM, clipped to it.
  assert.deepEqual(one({ src: 'TILE6_2', rect: [0, 0, 63, 47], scissor: [32, 16, 63, 31] }), []);
  assert.deepEqual(one({ src: 'TILE6_2', rect: [32, 16, 63, 31] }), []);
  // Unclipped: pixels of other bins.
  assert.deepEqual(one({ src: 'TILE6_2', rect: [0, 0, 63, 47] }), ['adreno.blit.gmem-outside-bin']);
  // Outside a GMEM pass.
  assert.deepEqual(one({ src: 'TILE6_2', rect: [32, 16, 63, 31], inPass: false }), ['adreno.blit.gmem-outside-bin']);
  assert.deepEqual(one({ src: 'TILE6_2', srcAt: 'mem', rect: [32, 16, 63, 31] }), ['adreno.blit.tile6-2-outside-gmem']);
  assert.deepEqual(one({ src: 'TILE6_LINEAR', dst: 'TILE6_2', srcAt: 'mem', rect: [32, 16, 63, 31] }), ['adreno.blit.tile6-2-destination']);
  assert.deepEqual(one({ src: 'TILE6_LINEAR', srcAt: 'mem', rect: [32, 16, 63, 31] }), []);
});
