/**
 * GRAS_SC_CNTL SINGLE_PRIM_MODE and feedback loops (gras/overlap.ts, cp/handlers-feedback.ts,
 * driver/sysmem.ts): an FS that samples its own colour target at its pixel and adds 0.25 to red,
 * drawn as overlapping full-screen layers in one draw. The expected bytes follow from the modes'
 * documented meaning (the register XML's a6xx_single_prim_mode, seed 004 "Caches") worked by hand:
 * each layer that sees the one before adds a step; a layer that sees the bytes from before the draw
 * adds one step in all. The diagnostics fire on the wrong modes and stay quiet on clean scenes.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { a6xxSceneDescription } from '../../src/runtime/draw-a6xx.js';
import { buildDraw, type GfxScene } from '../../src/adreno/driver/sysmem.js';
import { decodeFields, enumName, enumValue } from '../../src/adreno/regs/db.js';
import { meet, neededMode, overlapBehaviour, singlePrimMode } from '../../src/adreno/gras/overlap.js';
import { runSceneStream } from './scene-run.js';
import { Diagnostics } from '../../src/core/diagnostics.js';
import { CommandProcessor } from '../../src/adreno/cp/cp.js';
import { decodeHeader, opcode, pkt7 } from '../../src/adreno/cp/pm4.js';
import { ubwcToLinear } from '../../src/adreno/ubwc/ubwc.js';
import { consts, f32, FEEDBACK_FS, quad } from './feedback-fixtures.js';

const EXAMPLES = join(import.meta.dirname, '..', '..', '..', 'examples');
const triangleJson = (): Record<string, unknown> => JSON.parse(readFileSync(join(EXAMPLES, 'triangle', 'scene.json'), 'utf8')) as Record<string, unknown>;
const triangle = (): GfxScene => a6xxSceneDescription(triangleJson(), join(EXAMPLES, 'triangle'), 'a630');
const ids = (d: Diagnostics): string[] => [...new Set(d.list.filter((x) => x.severity !== 'info').map((x) => x.id))];

// 48x48: a layer is 2304 fragments, so FS batches (4096) straddle layers.
const W = 48;

/** `layers` overlapping full-screen quads in one draw; the FS reads target 0 back. */
function scene(layers: number, mode?: string | number, tile?: 'UBWC'): GfxScene {
  const b = triangle();
  const verts = Array.from({ length: layers }, quad).flat();
  return {
    ...b, width: W, height: W,
    targets: [{ format: 'FMT6_8_8_8_8_UNORM', clear: [0, 0.5, 0, 1], ...(tile ? { tile } : {}) }],
    buffers: new Map([['vertices', f32(verts)]]),
    draws: [{ prim: 'DI_PT_TRILIST', count: verts.length / 8 }],
    state: { ...b.state, viewport: [0, 0, W, W], scissor: [0, 0, W, W], blend: [], ...(mode !== undefined ? { singlePrimMode: mode as string } : {}) },
    fs: { asm: FEEDBACK_FS, fullRegs: 3, outputs: [0], fragCoord: 8, consts: consts([1 / (16 * W), 0.25, 0, 0]), feedback: [0], samplers: [{ linear: false, wrap: 'A6XX_TEX_CLAMP_TO_EDGE' }] },
  };
}

/** Red after `steps` read-add-write rounds through an 8-bit UNORM target from 0. */
function red(steps: number): number {
  let b = 0;
  for (let k = 0; k < steps; k++) b = Math.round(Math.min(1, b / 255 + 0.25) * 255);
  return b;
}

function render(d: GfxScene): { reds: Set<number>; diag: Diagnostics; other: Set<string> } {
  const { b, diag } = runSceneStream(d);
  const t = b.targets[0]!;
  const reds = new Set<number>();
  const other = new Set<string>();
  for (let y = 0; y < W; y++)
    for (let x = 0; x < W; x++) {
      const p = b.mem.readBytes(t.base + y * t.pitch + x * 4, 4);
      reds.add(p[0]!);
      other.add(`${p[1]},${p[2]},${p[3]}`);
    }
  return { reds, diag, other };
}

test('the enum values are the register database\'s a6xx_single_prim_mode (from the register XML)', () => {
  for (const m of ['NO_FLUSH', 'FLUSH_PER_OVERLAP', 'FLUSH_PER_OVERLAP_AND_OVERWRITE'] as const) assert.equal(singlePrimMode(enumValue('a6xx_single_prim_mode', m, 'a6xx')!), m);
  assert.equal(singlePrimMode(2), undefined);
  assert.deepEqual(overlapBehaviour('FLUSH_PER_OVERLAP', false), { stall: true, coherent: true });
  assert.deepEqual(overlapBehaviour('FLUSH_PER_OVERLAP', true), { stall: true, coherent: false });
  assert.deepEqual(overlapBehaviour('NO_FLUSH', false), { stall: false, coherent: false });
  assert.equal(neededMode(true), 'FLUSH_PER_OVERLAP_AND_OVERWRITE');
  assert.equal(neededMode(false), 'FLUSH_PER_OVERLAP');
  assert.deepEqual(meet(0x1000, 0x100, 0x1080, 0x100), { base: 0x1080, len: 0x80 });
  assert.equal(meet(0x1000, 0x100, 0x1100, 0x100), undefined);
});

test('the driver sets FLUSH_PER_OVERLAP_AND_OVERWRITE for a sysmem feedback loop: every layer sees the one before', () => {
  const r = render(scene(3));
  assert.deepEqual(ids(r.diag), []);
  assert.deepEqual([...r.reds], [red(3)]);
  assert.deepEqual([...r.other], ['128,0,255']);
});

test('NO_FLUSH: every layer reads the bytes from before the draw (one step, whatever the FS batching); adreno.gras.feedback-no-flush names the mode', () => {
  // 3 layers of 48x48 = 6912 fragments: FS batches straddle the layers, and still one step everywhere.
  const r = render(scene(3, 'NO_FLUSH'));
  assert.deepEqual([...r.reds], [red(1)]);
  assert.deepEqual(ids(r.diag), ['adreno.gras.feedback-no-flush']);
  const d = r.diag.list.filter((x) => x.id === 'adreno.gras.feedback-no-flush');
  assert.equal(d.length, 1);
  assert.match(d[0]!.message, /t#0 samples MRT0.*FLUSH_PER_OVERLAP_AND_OVERWRITE was needed/);
});

test('FLUSH_PER_OVERLAP in sysmem stalls but leaves the writes in the CCU: stale, adreno.gras.feedback-needs-overwrite', () => {
  const r = render(scene(3, 'FLUSH_PER_OVERLAP'));
  assert.deepEqual([...r.reds], [red(1)]);
  assert.deepEqual(ids(r.diag), ['adreno.gras.feedback-needs-overwrite']);
  assert.match(r.diag.list.find((x) => x.id === 'adreno.gras.feedback-needs-overwrite')!.message, /FLUSH_PER_OVERLAP_AND_OVERWRITE was needed/);
});

test('SINGLE_PRIM_MODE 2 (not in the enum): adreno.gras.single-prim-mode-reserved, read as NO_FLUSH', () => {
  const r = render(scene(2, 2));
  assert.deepEqual([...r.reds], [red(1)]);
  assert.deepEqual(ids(r.diag).sort(), ['adreno.gras.feedback-no-flush', 'adreno.gras.single-prim-mode-reserved']);
});

test('a feedback loop without overlapping primitives is clean in every mode: each pixel reads its own value once', () => {
  for (const m of ['NO_FLUSH', 'FLUSH_PER_OVERLAP', 'FLUSH_PER_OVERLAP_AND_OVERWRITE']) {
    const r = render(scene(1, m));
    assert.deepEqual([...r.reds], [red(1)], m);
    assert.deepEqual(ids(r.diag), [], m);
  }
});

test('a scene without a feedback loop stays quiet and its stream keeps the reset GRAS_SC_CNTL', () => {
  const { diag, cp } = runSceneStream(triangle());
  assert.deepEqual(ids(diag).filter((i) => i.startsWith('adreno.gras.')), []);
  assert.equal(cp.readReg(cp.regsDb.reg('GRAS_SC_CNTL')), 0);
  // The feedback scene's stream holds the turnip value: CCUSINGLECACHELINESIZE 2 | SINGLE_PRIM_MODE 1.
  const fb = runSceneStream(scene(1));
  assert.equal(fb.cp.readReg(fb.cp.regsDb.reg('GRAS_SC_CNTL')), 2 | (1 << 3));
});

test('scene JSON: ps.userData { "target": 0 } samples colour target 0; a bad index is an error', () => {
  const j = triangleJson();
  const ps = j.ps as Record<string, unknown>;
  const withUd = (ud: unknown[]): Record<string, unknown> => ({ ...j, ps: { ...ps, userData: ud } });
  const d = a6xxSceneDescription(withUd([{ target: 0 }, { sampler: { filter: 'nearest', wrap: 'clamp' } }]), join(EXAMPLES, 'triangle'), 'a630');
  assert.deepEqual(d.fs.feedback, [0]);
  assert.throws(() => a6xxSceneDescription(withUd([{ target: -1 }]), join(EXAMPLES, 'triangle'), 'a630'), /userData\[0\]\.target/);
  assert.throws(() => buildDraw({ ...d, fs: { ...d.fs, feedback: [3] } }), /colour target 3: the scene has 1/);
});

test('without the barrier after the clear, a stale feedback read sees the CCU-held clear missing: adreno.cache.stale-read names PC_CCU_FLUSH_COLOR_TS', () => {
  // The driver's PC_CCU_FLUSH_COLOR_TS before the feedback draw turned into a CP_NOP of the same size.
  const d = scene(1, 'NO_FLUSH');
  const b = buildDraw(d);
  const ev = opcode('CP_EVENT_WRITE', 'a6xx'), nop = opcode('CP_NOP', 'a6xx');
  const flush = enumValue('vgt_event_type', 'PC_CCU_FLUSH_COLOR_TS', 'a6xx')!;
  let removed = 0;
  for (let k = 0; k < b.stream.length;) {
    const at = b.streamIova + 4 * k;
    const h = decodeHeader(b.mem.read32(at), 'a6xx');
    if (h.type === 7 && h.opcode === ev && (b.mem.read32(at + 4) & 0xff) === flush) {
      b.mem.write32(at, pkt7(nop, h.count));
      removed++;
    }
    k += 1 + h.count;
  }
  assert.equal(removed, 1);
  const diag = new Diagnostics();
  new CommandProcessor(b.mem, { diag, gpuId: d.gpuId }).run(b.streamIova, b.stream.length);
  assert.deepEqual(ids(diag), ['adreno.cache.stale-read']);
  assert.match(diag.list.find((x) => x.id === 'adreno.cache.stale-read')!.message, /FS's t#0 \(TP \/ UCHE\).*PC_CCU_FLUSH_COLOR_TS was needed/);
  // UCHE holds the target from before the clear (zeros): red 0 + 0.25, the rest 0.
  const t = b.targets[0]!;
  assert.deepEqual(Array.from(b.mem.readBytes(t.base + 5 * t.pitch + 7 * 4, 4)), [red(1), 0, 0, 0]);
  // With the barrier: clean (the NO_FLUSH test above and this scene's unpatched stream).
  assert.deepEqual(ids(runSceneStream(d).diag), []);
});

test('examples/feedback (the scene JSON path): three layers each adding 0.5 saturate red on a630 and a660; NO_FLUSH stops at one layer', () => {
  const dir = join(EXAMPLES, 'feedback');
  const json = JSON.parse(readFileSync(join(dir, 'scene.json'), 'utf8')) as Record<string, unknown>;
  for (const gpu of ['a630', 'a660'] as const) {
    const d = a6xxSceneDescription(json, dir, gpu);
    assert.deepEqual(d.fs.feedback, [0]);
    for (const [mode, r] of [[undefined, 255], ['NO_FLUSH', 128]] as const) {
      const { b, diag } = runSceneStream(mode ? { ...d, state: { ...d.state, singlePrimMode: mode } } : d);
      const t = b.targets[0]!;
      const px = new Set<string>();
      for (let y = 0; y < d.height; y++) for (let x = 0; x < d.width; x++) px.add(Array.from(b.mem.readBytes(t.base + y * t.pitch + x * 4, 4)).join(','));
      assert.deepEqual([...px], [`${r},128,0,255`], `${gpu} ${mode ?? 'driver'}`);
      assert.deepEqual(ids(diag), mode ? ['adreno.gras.feedback-no-flush'] : [], `${gpu} ${mode ?? 'driver'}`);
    }
  }
});

test('a UBWC target read back: the driver mode renders as the linear target does; any other mode is adreno.gras.feedback-ubwc-sync, overlap or not', () => {
  const decoded = (d: GfxScene): { px: Set<string>; diag: Diagnostics } => {
    const { b, diag } = runSceneStream(d);
    const u = b.targets[0]!.ubwc!;
    const dd = new Diagnostics();
    const lin = ubwcToLinear(b.mem.readBytes(u.flags, u.layout.dataOffset + u.layout.dataSize), u.layout, { alphaByte: 3 }, dd, 'rt');
    assert.equal(dd.size, 0);
    const px = new Set<string>();
    for (let k = 0; k < W * W; k++) px.add(Array.from(lin.subarray(4 * k, 4 * k + 4)).join(','));
    return { px, diag };
  };
  const good = decoded(scene(3, undefined, 'UBWC'));
  assert.deepEqual(ids(good.diag), []);
  assert.deepEqual([...good.px], [`${red(3)},128,0,255`]);
  // One layer (no overlap): the linear target is clean under NO_FLUSH, the UBWC one is not.
  for (const m of ['NO_FLUSH', 'FLUSH_PER_OVERLAP']) {
    const r = decoded(scene(1, m, 'UBWC'));
    assert.deepEqual([...r.px], [`${red(1)},128,0,255`], m);
    assert.deepEqual(ids(r.diag), ['adreno.gras.feedback-ubwc-sync'], m);
    assert.match(r.diag.list.find((x) => x.id === 'adreno.gras.feedback-ubwc-sync')!.message, new RegExp(`t#0 samples MRT0, t#0 flags samples MRT0 flags\\) with GRAS_SC_CNTL SINGLE_PRIM_MODE ${m} .*FLUSH_PER_OVERLAP_AND_OVERWRITE was needed`), m);
  }
});

test('fd-clouds (a real a630 capture, no feedback loop): its GRAS_SC_CNTL 0x2 is NO_FLUSH with CCUSINGLECACHELINESIZE 2, as the driver writes it', (t) => {
  const log = join(import.meta.dirname, '..', '..', '..', '..', 'shared', 'adreno-captures', 'reference', 'fd-clouds.log');
  if (!existsSync(log)) return t.skip('../shared/adreno-captures absent');
  // cffdump's draw-state dump: "<raw dword> GRAS_SC_CNTL: { ... SINGLE_PRIM_MODE = X ... }".
  const seen = [...readFileSync(log, 'utf8').matchAll(/([0-9a-f]{8})\s+GRAS_SC_CNTL: \{[^}]*SINGLE_PRIM_MODE = (\w+)/g)];
  assert.ok(seen.length >= 1);
  for (const [, raw, name] of seen) {
    const f = decodeFields('A6XX.GRAS_SC_CNTL', parseInt(raw!, 16), 0, 'a6xx');
    assert.equal(enumName('a6xx_single_prim_mode', f['SINGLE_PRIM_MODE']!, 'a6xx'), name);
    assert.equal(singlePrimMode(f['SINGLE_PRIM_MODE']!), 'NO_FLUSH');
    assert.equal(f['CCUSINGLECACHELINESIZE'], 2);
  }
  // The scene driver's write for a loop keeps that line size and changes only the mode.
  const fb = runSceneStream(scene(1));
  const v = fb.cp.readReg(fb.cp.regsDb.reg('GRAS_SC_CNTL'));
  assert.equal(v & ~(3 << 3), parseInt(seen[0]![1]!, 16));
});

test('examples/feedback on the AMD pipeline: one line saying its shaders are ir3 only and which --gpu draws it', async () => {
  const { runSceneFile } = await import('../../src/runtime/draw-scene.js');
  assert.throws(() => runSceneFile(join(EXAMPLES, 'feedback', 'scene.json')), /shaders\.vs: only ir3 code \(shaders\.vs\.a6xx\): draw this scene with --gpu a630 or a660/);
});
