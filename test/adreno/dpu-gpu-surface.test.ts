/**
 * Issue 20's end-to-end check: a UBWC surface written by the a6xx side (the CP executing CP_BLIT
 * BLIT_OP_SCALE through the RB 2D engine: a solid clear and a copy, both into a TILE6_3 + UBWC
 * destination) is composed by the display pipeline, reading the flag and pixel planes straight
 * from GPU memory. Expected pixels are the blit's inputs, computed here.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Memory } from '../../src/core/memory.js';
import { Diagnostics } from '../../src/core/diagnostics.js';
import { CmdStream, Layout } from '../../src/adreno/cp/builder.js';
import { CommandProcessor } from '../../src/adreno/cp/cp.js';
import { enumValue } from '../../src/adreno/regs/db.js';
import { ubwcLayout } from '../../src/adreno/ubwc/ubwc.js';
import { parseFrame, type Frame } from '../../src/adreno/dpu/frame.js';
import { composeFrame } from '../../src/adreno/dpu/display.js';

const FMT = 'FMT6_8_8_8_8_UNORM';

function blit(cs: CmdStream, dst: { iova: number; pitch: number; flags: number; flagPitch: number }, rect: [number, number, number, number], o: { solid?: number[]; src?: { iova: number; pitch: number; w: number; h: number } }): void {
  const cntl = { SOLID_COLOR: !!o.solid, COLOR_FORMAT: FMT, IFMT: 'R2D_UNORM8' };
  cs.reg('GRAS_2D_BLIT_CNTL', cntl).reg('RB_2D_BLIT_CNTL', cntl);
  cs.reg('GRAS_2D_DST_TL', { X: rect[0], Y: rect[1] }).reg('GRAS_2D_DST_BR', { X: rect[2], Y: rect[3] });
  cs.reg('RB_2D_DST_INFO', { COLOR_FORMAT: FMT, TILE_MODE: 'TILE6_3', FLAGS: true });
  cs.reg64('RB_2D_DST', dst.iova).reg('RB_2D_DST_PITCH', dst.pitch / 64);
  cs.reg64('RB_2D_DST_FLAGS', dst.flags).reg('RB_2D_DST_FLAGS_PITCH', dst.flagPitch / 64);
  cs.reg('SP_2D_DST_FORMAT', { COLOR_FORMAT: FMT, NORM: true });
  if (o.solid) cs.regs32('RB_2D_SRC_SOLID_C0', o.solid);
  if (o.src) {
    const s = o.src;
    cs.reg('GRAS_2D_SRC_TL_X', rect[0] << 8).reg('GRAS_2D_SRC_TL_Y', rect[1] << 8).reg('GRAS_2D_SRC_BR_X', rect[2] << 8).reg('GRAS_2D_SRC_BR_Y', rect[3] << 8);
    cs.reg('SP_PS_2D_SRC_INFO', { COLOR_FORMAT: FMT, TILE_MODE: 'TILE6_LINEAR', FLAGS: false, SAMPLES: 'MSAA_ONE', FILTER: false, SAMPLES_AVERAGE: false });
    cs.reg('SP_PS_2D_SRC_SIZE', { WIDTH: s.w, HEIGHT: s.h });
    cs.reg64('SP_PS_2D_SRC', s.iova).reg('SP_PS_2D_SRC_PITCH', { PITCH: s.pitch });
  }
  cs.pkt('CP_BLIT', [enumValue('cp_blit_cmd', 'BLIT_OP_SCALE', 'a6xx')!]);
}

test('the display composes a UBWC surface the a6xx 2D engine rendered (clear + copy via CP_BLIT)', () => {
  const W = 64, H = 8;
  const lay = ubwcLayout(W, H, 4);
  const L = new Layout();
  const surf = L.reserve(lay.dataOffset + lay.dataSize, 'rt');
  // The source of the copy: a linear gradient, opaque.
  const srcPitch = W * 4;
  const src = new Uint8Array(srcPitch * H);
  const srcPx = (x: number, y: number): number[] => [(x * 9) & 0xff, (y * 31) & 0xff, (200 - x) & 0xff, 255];
  for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) src.set(srcPx(x, y), y * srcPitch + x * 4);
  const srcIova = L.place(src, 'src').iova;
  const dst = { iova: surf + lay.dataOffset, pitch: lay.pitch, flags: surf, flagPitch: lay.metaPitch };
  const cs = new CmdStream();
  // Left half: a solid opaque white clear (the 2D engine may fast-clear those blocks); right half: the copy.
  blit(cs, dst, [0, 0, 31, H - 1], { solid: [255, 255, 255, 255] });
  blit(cs, dst, [32, 0, W - 1, H - 1], { src: { iova: srcIova, pitch: srcPitch, w: W, h: H } });
  const ib = L.place(cs, 'ib');
  const mem = new Memory();
  for (const b of L.buffers) mem.map(b.iova, Math.max(b.data.length, 4), b.label, b.data.slice());
  const diag = new Diagnostics();
  const cp = new CommandProcessor(mem, { diag });
  assert.equal(cp.run(ib.iova, ib.sizeDwords), 'done');
  assert.deepEqual(diag.list.filter((d) => d.severity !== 'info').map((d) => d.id), []);

  // The frame: the same surface, its planes read from GPU memory as the SSPP fetches them.
  const base = parseFrame({
    mode: { clock_khz: 100, hdisplay: W, hsync_start: W + 1, hsync_end: W + 2, htotal: W + 4, vdisplay: H, vsync_start: H + 1, vsync_end: H + 2, vtotal: H + 3 },
    buffers: { rt: { format: 'ABGR8888', width: W, height: H, layout: 'ubwc', pixels: Array.from({ length: W * H }, () => [0, 0, 0, 255]) } },
    layers: [{ pipe: 'DMA0', buffer: 'rt', dst: [0, 0, W, H], stage: 0, blend: 'opaque' }],
  });
  const s = base.surfaces.get('rt')!;
  const fromGpu = { ...s, planes: [mem.readBytes(surf, lay.dataOffset + lay.dataSize)], pitches: [lay.pitch] };
  const frame: Frame = { ...base, surfaces: new Map([['rt', fromGpu]]), layers: base.layers.map((l) => ({ ...l, surface: fromGpu })) };
  const r = composeFrame(frame);
  assert.equal(r.diag.size, 0);
  for (let y = 0; y < H; y++)
    for (let x = 0; x < W; x++) {
      const want = x < 32 ? [255, 255, 255] : srcPx(x, y).slice(0, 3);
      assert.deepEqual([...r.dspp.rgb8.subarray((y * W + x) * 3, (y * W + x) * 3 + 3)], want, `${x},${y}`);
    }
});

test('the display composes a UBWC surface the a6xx 3D pipeline rendered to the pixels of the linear render (a630, a660)', async () => {
  const { join } = await import('node:path');
  const { readFileSync } = await import('node:fs');
  const { a6xxSceneDescription } = await import('../../src/runtime/draw-a6xx.js');
  const { buildDraw } = await import('../../src/adreno/driver/sysmem.js');
  const { gmemDraw } = await import('../../src/adreno/driver/gmem.js');
  const { tile6ConfigFor } = await import('../../src/adreno/ubwc/tile6.js');
  const { decodeFlag } = await import('../../src/adreno/ubwc/ubwc.js');
  const examples = join(import.meta.dirname, '..', '..', '..', 'examples');
  // The blend example single-sampled: a white clear (fast-cleared blocks) under blended quads (stored blocks).
  const sc = { ...(JSON.parse(readFileSync(join(examples, 'blend', 'scene.json'), 'utf8')) as Record<string, unknown>), samples: 1 };
  for (const gpu of ['a630', 'a660'] as const)
    for (const gmem of [false, true]) {
      const what = `${gpu} ${gmem ? 'GMEM' : 'sysmem'}`;
      const renders = ['TILE6_LINEAR', 'UBWC'].map((tile) => {
        const desc = a6xxSceneDescription({ ...sc, a6xx: { tile } }, join(examples, 'blend'), gpu);
        const b = buildDraw(desc);
        const diag = new Diagnostics();
        const cp = new CommandProcessor(b.mem, { diag, gpuId: desc.gpuId, tile6: tile6ConfigFor(gpu) });
        if (gmem) {
          const g = gmemDraw(b, desc, { bin: { w: 32, h: 32 } });
          cp.run(g.streamIova, g.streamDwords);
        } else cp.run(b.streamIova, b.stream.length);
        assert.deepEqual(diag.list.filter((d) => d.severity !== 'info').map((d) => d.id), [], `${what} ${tile}`);
        return { b, desc };
      });
      const [lin, ubwc] = renders as [typeof renders[0], typeof renders[0]];
      const W = lin.desc.width, H = lin.desc.height;
      const lt = lin.b.targets[0]!, ut = ubwc.b.targets[0]!;
      const lay = ut.ubwc!.layout;
      const plane = ubwc.b.mem.readBytes(ut.ubwc!.flags, lay.metaSize);
      const flags = Array.from({ length: lay.blocksX * lay.blocksY }, (_, k) => decodeFlag(plane[Math.floor(k / lay.blocksX) * lay.metaPitch + (k % lay.blocksX)]!));
      assert.ok(flags.some((f) => f.kind === 'clear') && flags.some((f) => f.kind === 'data'), `${what}: fast-cleared and stored blocks`);
      const mode = { clock_khz: 100, hdisplay: W, hsync_start: W + 1, hsync_end: W + 2, htotal: W + 4, vdisplay: H, vsync_start: H + 1, vsync_end: H + 2, vtotal: H + 3 };
      const compose = (layout: 'linear' | 'ubwc', planes: Uint8Array, pitch: number): Uint8Array => {
        const base = parseFrame({ mode, buffers: { rt: { format: 'ABGR8888', width: W, height: H, layout, pixels: Array.from({ length: W * H }, () => [0, 0, 0, 255]) } }, layers: [{ pipe: 'DMA0', buffer: 'rt', dst: [0, 0, W, H], stage: 0, blend: 'opaque' }] });
        const s = { ...base.surfaces.get('rt')!, planes: [planes], pitches: [pitch], tile6: tile6ConfigFor(gpu) };
        const r = composeFrame({ ...base, surfaces: new Map([['rt', s]]), layers: base.layers.map((l) => ({ ...l, surface: s })) });
        assert.equal(r.diag.size, 0, `${what} ${layout}: display diagnostics`);
        return r.dspp.rgb8;
      };
      const fromLinear = compose('linear', lin.b.mem.readBytes(lt.base, lt.pitch * H), lt.pitch);
      const fromUbwc = compose('ubwc', ubwc.b.mem.readBytes(ut.ubwc!.flags, lay.dataOffset + lay.dataSize), ut.pitch);
      assert.deepEqual(fromUbwc, fromLinear, `${what}: the composed frames`);
      // And both are the render's own pixels (RGBA8 in memory, R G B shown).
      for (let p = 0; p < W * H; p += 97) {
        const x = p % W, y = Math.floor(p / W);
        assert.deepEqual([...fromLinear.subarray(p * 3, p * 3 + 3)], [...lin.b.mem.readBytes(lt.base + y * lt.pitch + x * 4, 3)], `${what}: pixel ${x},${y}`);
      }
    }
});

test('examples/display-ubwc: rt.ubwc is what the a6xx pipeline renders for its scene; the frame shows the render', async () => {
  const { join } = await import('node:path');
  const { readFileSync } = await import('node:fs');
  const { runA6xxSceneFile } = await import('../../src/runtime/draw-a6xx.js');
  const { readFrame } = await import('../../src/adreno/dpu/frame.js');
  const dir = join(import.meta.dirname, '..', '..', '..', 'examples', 'display-ubwc');
  const r = runA6xxSceneFile(join(dir, 'scene.json'), 'a630');
  assert.deepEqual(r.diag.list.filter((d) => d.severity !== 'info').map((d) => d.id), []);
  // Regenerate: gpusim draw examples/display-ubwc/scene.json --gpu a630 --surface examples/display-ubwc/rt.ubwc
  assert.deepEqual(r.stored[0], new Uint8Array(readFileSync(join(dir, 'rt.ubwc'))), 'rt.ubwc is the render (regenerate it with gpusim draw --surface)');
  const frame = readFrame(join(dir, 'frame.json'));
  const out = composeFrame(frame);
  assert.equal(out.diag.size, 0);
  const layer = frame.layers[0]!;
  const [dx, dy, dw, dh] = [layer.dst.x, layer.dst.y, layer.dst.w, layer.dst.h];
  const data = r.targets[0]!.data;
  for (let y = 0; y < out.height; y++)
    for (let x = 0; x < out.width; x++) {
      const inside = x >= dx && x < dx + dw && y >= dy && y < dy + dh;
      const p = ((y - dy) * r.width + (x - dx)) * 4;
      const want = inside ? [0, 1, 2].map((c) => Math.round(data[p + c]! * 255)) : [32, 32, 48];
      assert.deepEqual([...out.dspp.rgb8.subarray((y * out.width + x) * 3, (y * out.width + x) * 3 + 3)], want, `${x},${y}`);
    }
});
