/**
 * Feedback loops in GMEM mode (issue 19): the FS reads the tile it renders through a TILE6_2
 * descriptor at the GMEM address + the target's GMEM offset, PITCH the bin width x cpp (turnip's
 * input attachments, fd6's framebuffer fetch), SINGLE_PRIM_MODE FLUSH_PER_OVERLAP. GMEM images must
 * equal the sysmem ones for every bin size; the expected bytes of the overlap modes follow from the
 * register XML's a6xx_single_prim_mode worked by hand (each layer that sees the one before adds a
 * step; one that sees GMEM from before the draw adds one in all). Each diagnostic fires on its
 * hazard and stays quiet on the clean scene.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { a6xxSceneDescription, runA6xxScene, type A6xxGpu } from '../../src/runtime/draw-a6xx.js';
import { buildDraw, type BuiltDraw, type GfxScene } from '../../src/adreno/driver/sysmem.js';
import { gmemDraw, type GmemDraw } from '../../src/adreno/driver/gmem.js';
import { gmemInfo } from '../../src/adreno/rb/gmem.js';
import { decodeFields, enumName, gpuRegs } from '../../src/adreno/regs/db.js';
import { decodeHeader } from '../../src/adreno/cp/pm4.js';
import { CommandProcessor } from '../../src/adreno/cp/cp.js';
import { Diagnostics } from '../../src/core/diagnostics.js';
import { consts, f32, FEEDBACK_FS, quad } from './feedback-fixtures.js';

const EXAMPLES = join(import.meta.dirname, '..', '..', '..', 'examples');
const ids = (d: Diagnostics): string[] => [...new Set(d.list.filter((x) => x.severity !== 'info').map((x) => x.id))];
const feedbackJson = (): Record<string, unknown> => JSON.parse(readFileSync(join(EXAMPLES, 'feedback', 'scene.json'), 'utf8')) as Record<string, unknown>;

const W = 48;

/** `layers` overlapping full-screen quads in one draw reading target 0 back at `scale` x its pixel. */
function scene(gpu: A6xxGpu, layers: number, mode?: string, scale = 1): GfxScene {
  const b = a6xxSceneDescription(feedbackJson(), join(EXAMPLES, 'feedback'), gpu);
  const verts = Array.from({ length: layers }, quad).flat();
  return {
    ...b, width: W, height: W,
    buffers: new Map([['vertices', f32(verts)]]),
    draws: [{ prim: 'DI_PT_TRILIST', count: verts.length / 8 }],
    state: { ...b.state, viewport: [0, 0, W, W], scissor: [0, 0, W, W], blend: [], ...(mode !== undefined ? { singlePrimMode: mode } : {}) },
    fs: { asm: FEEDBACK_FS, fullRegs: 3, outputs: [0], fragCoord: 8, consts: consts([scale / (16 * W), 0.25, 0, 0]), feedback: [0], samplers: [{ linear: false, wrap: 'A6XX_TEX_CLAMP_TO_EDGE' }] },
  };
}

function red(steps: number): number {
  let b = 0;
  for (let k = 0; k < steps; k++) b = Math.round(Math.min(1, b / 255 + 0.25) * 255);
  return b;
}

/** Build for GMEM, optionally patch the memory, run; the target's distinct reds. */
function runGmem(d: GfxScene, bin: { w: number; h: number }, patch?: (b: BuiltDraw, g: GmemDraw) => void): { reds: number[]; diag: Diagnostics; b: BuiltDraw; g: GmemDraw } {
  const b = buildDraw(d);
  const g = gmemDraw(b, d, { bin });
  patch?.(b, g);
  const diag = new Diagnostics();
  const cp = new CommandProcessor(b.mem, { diag, gpuId: d.gpuId });
  cp.run(g.streamIova, g.streamDwords);
  const t = b.targets[0]!;
  const reds = new Set<number>();
  for (let y = 0; y < d.height; y++) for (let x = 0; x < d.width; x++) reds.add(b.mem.readBytes(t.base + y * t.pitch + x * 4, 1)[0]!);
  return { reds: [...reds].sort((a, c) => a - c), diag, b, g };
}

test('examples/feedback in GMEM: byte-equal to sysmem on a630 (every bin size, binned and not) and a660', () => {
  const json = feedbackJson();
  const dir = join(EXAMPLES, 'feedback');
  // Every bin size on a630 (binned or not, alternating), two on a660: each render costs ~0.8 s.
  const cases: Record<A6xxGpu, [{ w: number; h: number } | undefined, boolean][]> = {
    a630: [[undefined, true], [{ w: 32, h: 16 }, false], [{ w: 96, h: 48 }, true], [{ w: 32, h: 48 }, false], [{ w: 32, h: 16 }, true]],
    a660: [[undefined, false], [{ w: 32, h: 48 }, true]],
  } as Record<A6xxGpu, [{ w: number; h: number } | undefined, boolean][]>;
  for (const gpu of ['a630', 'a660'] as A6xxGpu[]) {
    const sys = runA6xxScene(json, dir, gpu);
    for (const [bin, binning] of cases[gpu]) {
      {
        const what = `${gpu} bin ${bin ? `${bin.w}x${bin.h}` : 'auto'} binning ${binning}`;
        const g = runA6xxScene(json, dir, gpu, { ...(bin ? { bin } : {}), binning });
        assert.deepEqual(g.diag.list.filter((x) => x.severity !== 'info').map((x) => x.id), [], what);
        assert.ok(g.draws.length > 0 && g.draws.every((x) => x.ran), `${what}: draws ran`);
        assert.deepEqual(g.targets[0]!.data, sys.targets[0]!.data, what);
      }
    }
  }
});

test('the GMEM descriptor is what turnip / fd6 write: TILE6_2, no swap, GMEM address + offset, bin-width pitch; GRAS_SC_CNTL FLUSH_PER_OVERLAP', () => {
  for (const gpu of ['a630', 'a660'] as A6xxGpu[]) {
    const d = scene(gpu, 2);
    const b = buildDraw(d);
    const g = gmemDraw(b, d, { bin: { w: 32, h: 16 } });
    const at = b.feedback!.descs[0]!.iova;
    const w = (k: number): number => b.mem.read32(at + 4 * k);
    const f = (k: number): Record<string, number> => decodeFields(`A6XX_TEX_CONST.${k}`, w(k), 0, 'a6xx');
    assert.equal(enumName('a6xx_tile_mode', f(0)['TILE_MODE']!, 'a6xx'), 'TILE6_2');
    assert.equal(f(0)['SWAP'], 0);
    assert.equal(f(2)['PITCH'], 32 * 4);
    assert.equal(enumName('a6xx_tex_type', f(2)['TYPE']!, 'a6xx'), 'A6XX_TEX_2D');
    assert.equal(w(3), 0);
    assert.equal(f(5)['BASE_HI']! * 2 ** 32 + f(4)['BASE_LO']!, gmemInfo(d.gpuId).gmemVa + g.layout.bases[0]!);
    assert.deepEqual([f(1)['WIDTH'], f(1)['HEIGHT']], [W, W]);
    for (let k = 6; k < 16; k++) assert.equal(w(k), 0);
    const sc = b.streamIova + 4 * b.feedback!.scCntlAt;
    const db = gpuRegs('a6xx');
    assert.equal(decodeHeader(b.mem.read32(sc), 'a6xx').reg, db.reg('GRAS_SC_CNTL'));
    const v = decodeFields(db.at(db.reg('GRAS_SC_CNTL'))!.type, b.mem.read32(sc + 4), 0, 'a6xx');
    assert.equal(enumName('a6xx_single_prim_mode', v['SINGLE_PRIM_MODE']!, 'a6xx'), 'FLUSH_PER_OVERLAP');
    assert.equal(v['CCUSINGLECACHELINESIZE'], 2);
  }
});

test('GMEM overlap modes: FLUSH_PER_OVERLAP and _AND_OVERWRITE see every layer; NO_FLUSH sees GMEM from before the draw (adreno.gras.feedback-no-flush)', () => {
  for (const bin of [{ w: 32, h: 16 }, { w: 64, h: 48 }]) {
    for (const mode of [undefined, 'FLUSH_PER_OVERLAP_AND_OVERWRITE']) {
      const r = runGmem(scene('a630', 3, mode), bin);
      assert.deepEqual(ids(r.diag), [], `${mode} ${bin.w}x${bin.h}`);
      assert.deepEqual(r.reds, [red(3)], `${mode} ${bin.w}x${bin.h}`);
    }
    const stale = runGmem(scene('a630', 3, 'NO_FLUSH'), bin);
    assert.deepEqual(stale.reds, [red(1)]);
    assert.deepEqual(ids(stale.diag), ['adreno.gras.feedback-no-flush']);
    assert.match(stale.diag.list.find((x) => x.id === 'adreno.gras.feedback-no-flush')!.message, /in GMEM .*FLUSH_PER_OVERLAP was needed/);
    // SINGLE_PRIM_MODE 2 is not in the enum: reported, then read as NO_FLUSH.
    const reserved = runGmem(scene('a630', 3, 2 as unknown as string), bin);
    assert.deepEqual(reserved.reds, [red(1)]);
    assert.deepEqual(ids(reserved.diag).sort(), ['adreno.gras.feedback-no-flush', 'adreno.gras.single-prim-mode-reserved']);
    // One layer (no overlap): each pixel reads its own value once, clean in NO_FLUSH too.
    const one = runGmem(scene('a630', 1, 'NO_FLUSH'), bin);
    assert.deepEqual(ids(one.diag), []);
    assert.deepEqual(one.reds, [red(1)]);
  }
});

test('adreno.tex.gmem-outside-bin: a TILE6_2 read of another bin\'s pixel (coordinates doubled); quiet at the pixel itself', () => {
  const r = runGmem(scene('a630', 1, undefined, 2), { w: 32, h: 16 });
  assert.ok(ids(r.diag).includes('adreno.tex.gmem-outside-bin'), ids(r.diag).join());
  assert.match(r.diag.list.find((x) => x.id === 'adreno.tex.gmem-outside-bin')!.message, /outside the bin being rendered \(32x16 at SP_TP_WINDOW_OFFSET/);
  assert.deepEqual(ids(runGmem(scene('a630', 1), { w: 32, h: 16 }).diag), []);
});

test('adreno.tex.tile6-2-outside-gmem: a TILE6_2 descriptor pointing at system memory reads zeros and says so', () => {
  const r = runGmem(scene('a630', 1), { w: 32, h: 16 }, (b) => {
    const at = b.feedback!.descs[0]!.iova;
    const base = b.targets[0]!.base;
    b.mem.write32(at + 16, base % 2 ** 32);
    b.mem.write32(at + 20, (b.mem.read32(at + 20) & 0xffff0000) | Math.floor(base / 2 ** 32));
  });
  assert.deepEqual(ids(r.diag), ['adreno.tex.tile6-2-outside-gmem']);
  assert.match(r.diag.list[0]!.message, /outside GMEM \(0x100000\.\.0x200000\).*read as zeros/);
  assert.deepEqual(r.reds, [red(1)]);
});

test('adreno.gmem.stale-sysmem-read: in GMEM mode an FS sampling the target\'s sysmem image sees the last resolve, not the tile', () => {
  const d = scene('a630', 1);
  // The sysmem descriptor as buildDraw writes it, put back after gmemDraw's TILE6_2 rewrite (what
  // a driver without the GMEM patch would leave).
  const b0 = buildDraw(d);
  const sysDesc = Array.from({ length: 16 }, (_, k) => b0.mem.read32(b0.feedback!.descs[0]!.iova + 4 * k));
  const r2 = runGmem(d, { w: 32, h: 16 }, (b) => {
    const at = b.feedback!.descs[0]!.iova;
    for (let k = 0; k < 16; k++) b.mem.write32(at + 4 * k, sysDesc[k]!);
  });
  assert.deepEqual(ids(r2.diag), ['adreno.gmem.stale-sysmem-read']);
  assert.match(r2.diag.list.find((x) => x.id === 'adreno.gmem.stale-sysmem-read')!.message, /t#0 samples memory .* that this render pass resolves from GMEM/);
  // Quiet: a sysmem texture the pass does not render (examples/texture in GMEM).
  const tj = JSON.parse(readFileSync(join(EXAMPLES, 'texture', 'scene.json'), 'utf8')) as Record<string, unknown>;
  const tx = runA6xxScene(tj, join(EXAMPLES, 'texture'), 'a630', { bin: { w: 32, h: 16 } });
  assert.deepEqual(tx.diag.list.filter((x) => x.severity !== 'info').map((x) => x.id), []);
});

test('fd-clouds (a real a630 capture, fd6): SP_TP_WINDOW_OFFSET follows RB_WINDOW_OFFSET bin by bin, the origin the TP takes off TILE6_2 fetches', (t) => {
  const log = join(import.meta.dirname, '..', '..', '..', '..', 'shared', 'adreno-captures', 'reference', 'fd-clouds.log');
  if (!existsSync(log)) return t.skip('../shared/adreno-captures absent');
  const text = readFileSync(log, 'utf8');
  const seq = (reg: string): string[] => [...text.matchAll(new RegExp(`^\\s+${reg}: \\{ X = (\\d+) \\| Y = (\\d+) \\}`, 'gm'))].map((m) => `${m[1]},${m[2]}`);
  const rb = seq('RB_WINDOW_OFFSET'), tp = seq('SP_TP_WINDOW_OFFSET');
  assert.deepEqual(tp, rb);
  // Bins side by side (544 pixels wide): non-zero origins, so the TP does see the bin origin.
  assert.deepEqual([...new Set(tp)].sort(), ['0,0', '1088,0', '1632,0', '544,0']);
});

test('an input attachment at a non-zero GMEM offset: the FS reads colour target 1 (second bin buffer) and writes both; GMEM == sysmem', () => {
  for (const gpu of ['a630', 'a660'] as A6xxGpu[]) {
    const base = scene(gpu, 1);
    // Target 0 cleared red 0, target 1 red 0.5: reading the wrong buffer would give 64, not 192.
    const d: GfxScene = { ...base, targets: [{ ...base.targets[0]!, clear: [0, 0.5, 0, 1] }, { ...base.targets[0]!, clear: [0.5, 0.25, 0, 1] }], fs: { ...base.fs, outputs: [0, 4], feedback: [1] } };
    const sysB = buildDraw(d);
    const diag = new Diagnostics();
    new CommandProcessor(sysB.mem, { diag, gpuId: d.gpuId }).run(sysB.streamIova, sysB.stream.length);
    assert.deepEqual(ids(diag), []);
    const bytes = (b: BuiltDraw, i: number): number[] => {
      const t = b.targets[i]!;
      const out: number[] = [];
      for (let y = 0; y < d.height; y++) out.push(...b.mem.readBytes(t.base + y * t.pitch, d.width * 4));
      return out;
    };
    assert.equal(bytes(sysB, 0)[0], Math.round((128 / 255 + 0.25) * 255)); // target 1 red 128 + 0.25
    for (const bin of [{ w: 32, h: 16 }, { w: 96, h: 48 }]) {
      const r = runGmem(d, bin);
      assert.deepEqual(ids(r.diag), [], `${gpu} ${bin.w}x${bin.h}`);
      assert.ok(r.g.layout.bases[1]! > 0);
      for (const i of [0, 1]) assert.deepEqual(bytes(r.b, i), bytes(sysB, i), `${gpu} ${bin.w}x${bin.h} target ${i}`);
    }
  }
});
