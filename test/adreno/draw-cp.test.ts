/**
 * Draw packets on the CP. Indirect and automatic draws (cp/handlers-gfx.ts drawParamsList): CP_DRAW_INDIRECT_MULTI in
 * its four forms (adreno_pm4.xml: NORMAL, INDEXED, INDIRECT_COUNT, INDIRECT_COUNT_INDEXED; the
 * DST_OFF constant), CP_DRAW_AUTO (the stream-out byte counter), each giving the image of the
 * direct draws with the same parameters; the run's draw budget (pc/draw.ts DrawBudget); counts
 * past register arrays found by the stream fuzz.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { a6xxSceneDescription } from '../../src/runtime/draw-a6xx.js';
import { buildDraw, type GfxDraw, type GfxScene } from '../../src/adreno/driver/sysmem.js';
import { CommandProcessor } from '../../src/adreno/cp/cp.js';
import { drawRuns, setDrawLimits } from '../../src/adreno/cp/handlers-gfx.js';
import { DrawBudgetError } from '../../src/adreno/pc/draw.js';
import { Diagnostics } from '../../src/core/diagnostics.js';
import { RdWriter } from '../../src/formats/rd.js';
import { cffdumpRd } from '../../src/adreno/cp/cffdump.js';
import { CmdStream } from '../../src/adreno/cp/builder.js';
import { pkt7 } from '../../src/adreno/cp/pm4.js';
import { runAfter, runSceneStream } from './scene-run.js';

const EXAMPLES = join(import.meta.dirname, '..', '..', '..', 'examples');
const base = (): GfxScene => a6xxSceneDescription(JSON.parse(readFileSync(join(EXAMPLES, 'triangle', 'scene.json'), 'utf8')) as Record<string, unknown>, join(EXAMPLES, 'triangle'), 'a630');
const f32 = (a: number[]): Uint8Array => new Uint8Array(new Float32Array(a).buffer);
/** A rectangle in NDC as two triangles (6 vertices: position xyzw, colour rgba). */
function rect(x0: number, y0: number, x1: number, y1: number, c: number[]): number[] {
  const v = (x: number, y: number): number[] => [x, y, 0.5, 1, ...c];
  return [...v(x0, y0), ...v(x1, y0), ...v(x0, y1), ...v(x0, y1), ...v(x1, y0), ...v(x1, y1)];
}
/** Three rectangles (18 vertices) and an index buffer walking them backwards. */
function scene(draws: GfxDraw[], vs?: Partial<GfxScene['vs']>): GfxScene {
  const b = base();
  const verts = [...rect(-1, -1, -0.5, -0.5, [1, 0, 0, 1]), ...rect(0, -1, 0.5, -0.5, [0, 1, 0, 1]), ...rect(-1, 0, -0.5, 0.5, [0, 0, 1, 1])];
  const idx = new Uint16Array(18).map((_, k) => 17 - k);
  return {
    ...b, width: 16, height: 16, state: { ...b.state, viewport: [0, 0, 16, 16], scissor: [0, 0, 16, 16], blend: [] },
    buffers: new Map([...b.buffers, ['v', f32(verts)], ['idx', new Uint8Array(idx.buffer)]]),
    vs: { ...b.vs, inputs: [{ buffer: 'v', stride: 32, offset: 0, format: 'FMT6_32_32_32_32_FLOAT', regid: 0, mask: 0xf }, { buffer: 'v', stride: 32, offset: 16, format: 'FMT6_32_32_32_32_FLOAT', regid: 4, mask: 0xf }], ...vs },
    draws,
  };
}
function render(d: GfxScene): { img: Uint8Array; diag: Diagnostics; cp: CommandProcessor } {
  const b = buildDraw(d);
  const diag = new Diagnostics();
  const cp = new CommandProcessor(b.mem, { diag, gpuId: d.gpuId });
  cp.run(b.streamIova, b.stream.length);
  const t = b.targets[0]!;
  // The 16x16 RGBA8 pixels, rows packed.
  const img = new Uint8Array(16 * 64);
  for (let y = 0; y < 16; y++) img.set(b.mem.readBytes(t.base + y * t.pitch, 64), y * 64);
  return { img, diag, cp };
}
const problems = (d: Diagnostics): string[] => d.list.filter((x) => x.severity !== 'info').map((x) => `${x.id}: ${x.message}`);
/** Pixels that differ from the clear (pixel 15,15 is outside every rectangle). */
const covered = (img: Uint8Array, pitch = 64): number => {
  const bg = img.subarray(15 * pitch + 60, 15 * pitch + 64);
  let n = 0;
  for (let y = 0; y < 16; y++) for (let x = 0; x < 16; x++) if (img.subarray(y * pitch + x * 4, y * pitch + x * 4 + 4).some((c, k) => c !== bg[k])) n++;
  return n;
};
const TRI = 'DI_PT_TRILIST';

test('CP_DRAW_INDIRECT_MULTI (NORMAL): the sub-draws give the image of the same direct draws', () => {
  const direct = render(scene([{ prim: TRI, count: 6 }, { prim: TRI, count: 6, vertexOffset: 6 }, { prim: TRI, count: 6, vertexOffset: 12 }]));
  assert.deepEqual(problems(direct.diag), []);
  // Three rectangles of 4x4 pixels, nothing else: the reference is not empty.
  assert.equal(covered(direct.img), 48);
  const multi = render(scene([{ prim: TRI, count: 6, multi: { more: [{ count: 6, vertexOffset: 6 }, { count: 6, vertexOffset: 12 }] } }]));
  assert.deepEqual(problems(multi.diag), []);
  assert.deepEqual(multi.img, direct.img);
  assert.deepEqual(drawRuns(multi.cp).map((r) => [r.packet, r.ran]), [['CP_DRAW_INDX_OFFSET', true], ...Array(3).fill(['CP_DRAW_INDIRECT_MULTI', true])]);
  // A padded stride reads the parameters where it says.
  assert.deepEqual(render(scene([{ prim: TRI, count: 6, multi: { stride: 36, more: [{ count: 6, vertexOffset: 6 }, { count: 6, vertexOffset: 12 }] } }])).img, direct.img);
});

test('CP_DRAW_INDIRECT_MULTI INDIRECT_COUNT: min(DRAW_COUNT, the count in memory) sub-draws', () => {
  const two = render(scene([{ prim: TRI, count: 6 }, { prim: TRI, count: 6, vertexOffset: 6 }]));
  const counted = render(scene([{ prim: TRI, count: 6, multi: { count: 2, more: [{ count: 6, vertexOffset: 6 }, { count: 6, vertexOffset: 12 }] } }]));
  assert.deepEqual(counted.img, two.img);
  assert.equal(covered(counted.img), 32);
  // A count above DRAW_COUNT is clamped to it.
  const all = render(scene([{ prim: TRI, count: 6, multi: { count: 1000, more: [{ count: 6, vertexOffset: 6 }, { count: 6, vertexOffset: 12 }] } }]));
  assert.equal(covered(all.img), 48);
  assert.equal(drawRuns(all.cp).length, 4);
});

test('CP_DRAW_INDIRECT_MULTI: a sub-draw whose parameters are not in memory ends the packet, said', () => {
  // The driver's packet with DRAW_COUNT 2^20 and STRIDE 1 MiB: sub-draws soon leave GPU memory.
  const d = scene([{ prim: TRI, count: 6, multi: { more: [{ count: 6, vertexOffset: 6 }] } }]);
  const b = buildDraw(d);
  const seg = b.mem.segments.find((x) => x.base === b.streamIova)!;
  const words = new Uint32Array(seg.u8.buffer, seg.u8.byteOffset, b.stream.length);
  const at = words.indexOf(pkt7(0x2a, 6));
  assert.ok(at > 0, 'the stream has CP_DRAW_INDIRECT_MULTI (NORMAL, 6 dwords)');
  words[at + 3] = 1 << 20;
  words[at + 6] = 1 << 20;
  const diag = new Diagnostics();
  const cp = new CommandProcessor(b.mem, { diag, gpuId: d.gpuId });
  cp.run(b.streamIova, b.stream.length);
  const runs = drawRuns(cp);
  assert.deepEqual([runs[0]!.ran, runs[1]!.ran, runs[runs.length - 1]!.ran], [true, true, false]);
  assert.match(runs[runs.length - 1]!.missing.join(), /sub-draw \d+'s parameters at 0x[0-9a-f]+ not in memory/);
  assert.ok(runs.length < 100, `${runs.length} draws`);
});

test('CP_DRAW_INDIRECT_MULTI INDEXED and INDIRECT_COUNT_INDEXED equal CP_DRAW_INDX_OFFSET with the same indices', () => {
  const idx = { buffer: 'idx', size: 2 } as const;
  const direct = render(scene([{ prim: TRI, count: 6, indices: idx, first: 0 }, { prim: TRI, count: 6, indices: idx, first: 12 }]));
  assert.equal(covered(direct.img), 32);
  const multi = render(scene([{ prim: TRI, count: 6, indices: idx, first: 0, multi: { more: [{ count: 6, first: 12 }] } }]));
  assert.deepEqual(problems(multi.diag), []);
  assert.deepEqual(multi.img, direct.img);
  const counted = render(scene([{ prim: TRI, count: 6, indices: idx, first: 0, multi: { count: 2, more: [{ count: 6, first: 12 }, { count: 6, first: 6 }] } }]));
  assert.deepEqual(counted.img, direct.img);
});

test('CP_DRAW_INDIRECT_MULTI DST_OFF: the VS reads {draw_id, first_vertex, first_instance, 0} at that constant', () => {
  // The VS moves each sub-draw right by draw_id (c4.x, an integer) NDC units: sub-draw 1 of the
  // first rectangle lands where the second rectangle is drawn directly (x + 1 = 8 pixels).
  const vs = { asm: 'cov.u32f32 r4.x, c4.x\nadd.f r3.x, r0.x, r4.x\nmov.f32f32 r3.y, r0.y\nmov.f32f32 r3.z, r0.z\nmov.f32f32 r3.w, r0.w\n(rpt3)mov.f32f32 r2.x, (r)r1.x\nend\n', fullRegs: 5, consts: new Uint32Array(32) };
  const ref = render(scene([{ prim: TRI, count: 6 }, { prim: TRI, count: 6 }], vs));
  assert.equal(covered(ref.img), 16);
  const multi = render(scene([{ prim: TRI, count: 6, multi: { dstOff: 4, more: [{ count: 6 }] } }], vs));
  assert.deepEqual(problems(multi.diag), []);
  assert.equal(covered(multi.img), 32);
  // Red (the first rectangle's colour) at both places.
  for (const x of [1, 9]) assert.deepEqual(Array.from(multi.img.subarray(1 * 64 + x * 4, 1 * 64 + x * 4 + 4)), [255, 0, 0, 255], `pixel ${x},1`);
  // Without DST_OFF the constant stays 0: both sub-draws in the same place.
  assert.deepEqual(render(scene([{ prim: TRI, count: 6, multi: { more: [{ count: 6 }] } }], vs)).img, ref.img);
});

test('CP_DRAW_AUTO: (byte counter - offset) / stride vertices, as the direct draw; its counter is named', () => {
  const direct = render(scene([{ prim: TRI, count: 12 }]));
  const auto = render(scene([{ prim: TRI, count: 0, auto: { bytes: 16 + 12 * 32, offset: 16, stride: 32 } }]));
  assert.deepEqual(problems(auto.diag), []);
  assert.deepEqual(auto.img, direct.img);
  assert.equal(covered(auto.img), 32);
  const info = auto.diag.list.filter((d) => d.id === 'adreno.cp.draw-auto-counter');
  assert.equal(info.length, 1);
  assert.match(info[0]!.message, /12 vertices from the byte counter/);
  // STRIDE 0 has nothing to divide by: the draw is not run, and says so.
  const bad = render(scene([{ prim: TRI, count: 0, auto: { bytes: 64, offset: 0, stride: 0 } }]));
  assert.deepEqual(drawRuns(bad.cp).map((r) => r.ran), [true, false]);
  assert.match(drawRuns(bad.cp)[1]!.missing.join(), /STRIDE 0/);
});

test('the indirect packets decode in cffdump format without a problem', () => {
  const d = scene([{ prim: TRI, count: 6, multi: { count: 2, more: [{ count: 6, vertexOffset: 6 }] } }, { prim: TRI, count: 0, auto: { bytes: 192, offset: 0, stride: 32 } }]);
  const b = buildDraw(d);
  const w = new RdWriter().gpuId(d.gpuId);
  for (const s of b.mem.segments) w.buffer(s.base, s.u8);
  const lines: string[] = [];
  assert.deepEqual(cffdumpRd(w.cmdstream(b.streamIova, b.stream.length).bytes(), { out: (l) => lines.push(l) }).problems, []);
  const text = lines.join('\n');
  assert.match(text, /CP_DRAW_INDIRECT_MULTI/);
  assert.match(text, /OPCODE = INDIRECT_OP_INDIRECT_COUNT \| DST_OFF = 0 }[^]*indirect count: 2[^]*draw 1:/);
  assert.match(text, /CP_DRAW_AUTO/);
});

test('draw budget: each limit stops the run with one line naming it; the defaults stay quiet', () => {
  const run = (d: GfxScene, limits: Parameters<typeof setDrawLimits>[1]): Diagnostics => {
    const b = buildDraw(d);
    const diag = new Diagnostics();
    const cp = new CommandProcessor(b.mem, { diag, gpuId: d.gpuId });
    setDrawLimits(cp, limits);
    cp.run(b.streamIova, b.stream.length);
    return diag;
  };
  const d = scene([{ prim: TRI, count: 18, instances: 1000 }]);
  assert.deepEqual(problems(run(d, {})), []);
  const cases: [Parameters<typeof setDrawLimits>[1], RegExp][] = [
    [{ vertices: 10000 }, /1000 instance\(s\) x 18 indices: 18003 vertices in the run, over the draw budget of 10000 \(adreno run --max-vertices\)/],
    [{ primitives: 5000 }, /1000 instance\(s\) x 6 primitives: 6001 primitives in the run, over the draw budget of 5000 \(adreno run --max-primitives\)/],
    [{ pixels: 20000 }, /rasterized bounding boxes: \d+ pixels in the run, over the draw budget of 20000 \(adreno run --max-pixels\)/],
    [{ instructions: 3000 }, /shader wave-instructions: \d+ instructions in the run, over the draw budget of 3000 \(adreno run --max-instructions\)/],
    [{ drawBytes: 1000 }, /18 indices need about 1 MiB of working memory, over the draw limit of 0 MiB \(adreno run --max-draw-mib\)/],
  ];
  for (const [limits, re] of cases) {
    assert.throws(() => run(d, limits), (e: unknown) => e instanceof DrawBudgetError && re.test(e.message) && !e.message.includes('\n'), JSON.stringify(limits));
  }
  // DRAW_COUNT cannot spin: each sub-draw costs a vertex of the budget.
  assert.throws(() => run(scene([{ prim: TRI, count: 0, multi: { stride: 0, more: Array(40).fill({ count: 0 }) } }]), { vertices: 20 }), /sub-draw \d+ of 41: 21 vertices in the run, over the draw budget of 20/);
});

test('adreno.vpc.out-count-beyond-array: SP_VS_PRIMITIVE_CNTL OUT past SP_VS_OUT fires, the draw is not run', () => {
  // Found by the a6xx stream fuzz (seed 24, mutation 269 at N=1000): OUT is 6 bits, SP_VS_OUT[] holds 32 outputs.
  const d = scene([{ prim: TRI, count: 6 }]);
  const { b, diag, cp } = runSceneStream(d);
  assert.deepEqual(problems(diag), []);
  runAfter(b, cp, new CmdStream('a6xx').reg('SP_VS_PRIMITIVE_CNTL', { OUT: 40 }).drawAuto(TRI, 3));
  assert.deepEqual([...new Set(diag.list.filter((x) => x.severity !== 'info').map((x) => x.id))], ['adreno.vpc.out-count-beyond-array']);
  assert.deepEqual(drawRuns(cp).map((r) => r.ran), [true, true, false]);
});

test('adreno.rb.mrt-count-beyond-array: an MRT count past the 8 outputs fires, the draw is not run', () => {
  // Found by the a6xx stream fuzz (seed 24, mutation 275 at N=1500): MRT is 4 bits, the arrays 8 long.
  for (const cntl of ['SP_FS_OUTPUT_CNTL1', 'RB_FS_OUTPUT_CNTL1']) {
    const d = scene([{ prim: TRI, count: 6 }]);
    const { b, diag, cp } = runSceneStream(d);
    assert.deepEqual(problems(diag), []);
    runAfter(b, cp, new CmdStream('a6xx').reg(cntl, { MRT: 12 }).drawAuto(TRI, 3));
    assert.deepEqual([...new Set(diag.list.filter((x) => x.severity !== 'info').map((x) => x.id))], ['adreno.rb.mrt-count-beyond-array'], cntl);
    assert.deepEqual(drawRuns(cp).map((r) => r.ran), [true, true, false], cntl);
  }
});
