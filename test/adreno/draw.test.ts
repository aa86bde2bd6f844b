/**
 * The a6xx graphics pipeline in sysmem mode (src/adreno/{vfd,pc,vpc,gras,rb}, sp/graphics.ts,
 * cp/handlers-gfx.ts, driver/sysmem.ts): the example scenes on a630 and a660 against the AMD
 * pipeline's render of the same scene (the covered pixels equal, colours within one 8-bit step),
 * the capture decoding cleanly, per-block values computed by hand, and the draw diagnostics
 * firing on the state they describe and staying quiet on the examples.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runScene, resolveTarget } from '../../src/runtime/draw-scene.js';
import { a6xxSceneDescription, resolveA6xxTarget, runA6xxScene, type A6xxGpu } from '../../src/runtime/draw-a6xx.js';
import { buildDraw, type GfxScene } from '../../src/adreno/driver/sysmem.js';
import { CommandProcessor } from '../../src/adreno/cp/cp.js';
import { drawRuns } from '../../src/adreno/cp/handlers-gfx.js';
import { cffdumpRd } from '../../src/adreno/cp/cffdump.js';
import { runRd } from '../../src/adreno/run.js';
import { Diagnostics } from '../../src/core/diagnostics.js';
import { Memory } from '../../src/core/memory.js';
import { CmdStream } from '../../src/adreno/cp/builder.js';
import { assemble, indexStream, RESTART } from '../../src/adreno/pc/assemble.js';
import { clipPolygon, culled, rasterTriangle, signedArea2, STANDARD_SAMPLES, toScreen, type ScreenVertex } from '../../src/adreno/gras/raster.js';
import { fetchVertex, REGID_NONE, type VfdState } from '../../src/adreno/vfd/fetch.js';
import { blend, compare, stencilOp, type MrtBlend } from '../../src/adreno/rb/output.js';
import { enumValue } from '../../src/adreno/regs/db.js';
import { runSceneStream } from './scene-run.js';

const EXAMPLES = join(import.meta.dirname, '..', '..', '..', 'examples');
const scene = (name: string): Record<string, unknown> => JSON.parse(readFileSync(join(EXAMPLES, name, 'scene.json'), 'utf8')) as Record<string, unknown>;

for (const name of ['triangle', 'blend', 'msaa']) {
  test(`examples/${name} on a630 and a660 covers the pixels gfx1100 covers, colours within rounding`, () => {
    const s = scene(name);
    const dir = join(EXAMPLES, name);
    // a6xx renders at most 4x: the AMD reference runs the scene at the a6xx sample count.
    const a6 = s['a6xx'] as { samples?: number } | undefined;
    const amd = runScene({ ...s, samples: a6?.samples ?? s['samples'] }, dir, { gfx: 'gfx1100' });
    const ref = resolveTarget(amd, amd.targets[0]!);
    const clear = ((s['targets'] as { clear: number[]; format: string }[])[0]!);
    // The clear as the target stores it (8-bit UNORM rounds it).
    const stored = clear.clear.map((c) => (clear.format.endsWith('UNORM') ? Math.round(c * 255) / 255 : c));
    const covered = (img: Float32Array, p: number): boolean => [0, 1, 2, 3].some((c) => Math.abs(img[p * 4 + c]! - stored[c]!) > 1e-3);
    for (const gpu of ['a630', 'a660'] as A6xxGpu[]) {
      const r = runA6xxScene(s, dir, gpu);
      assert.deepEqual(r.diag.list.filter((d) => d.severity !== 'info').map((d) => d.id), [], `${name} ${gpu}: diagnostics`);
      assert.ok(r.draws.every((d) => d.ran), `${name} ${gpu}: every draw ran`);
      const img = resolveA6xxTarget(r);
      let cov = 0;
      let maxDiff = 0;
      for (let p = 0; p < r.width * r.height; p++) {
        assert.equal(covered(img, p), covered(ref, p), `${name} ${gpu}: pixel (${p % r.width}, ${Math.floor(p / r.width)}) coverage`);
        if (covered(img, p)) cov++;
        for (let c = 0; c < 4; c++) maxDiff = Math.max(maxDiff, Math.abs(img[p * 4 + c]! - ref[p * 4 + c]!));
      }
      assert.ok(cov > 100, `${name} ${gpu}: something is drawn (${cov} pixels)`);
      // One 8-bit step (the two pipelines round interpolated colours differently), 1e-3 on f16 targets.
      assert.ok(maxDiff <= 1 / 255 + 1e-6, `${name} ${gpu}: max colour difference ${maxDiff}`);
    }
  });
}

test('examples/texture on a630 and a660, sysmem and GMEM: gfx1100\'s pixels, colours within the filter precision', () => {
  const s = scene('texture');
  const dir = join(EXAMPLES, 'texture');
  const amd = runScene(s, dir, { gfx: 'gfx1100' });
  const ref = resolveTarget(amd, amd.targets[0]!);
  const stored = [0.1, 0.1, 0.1, 1].map((c) => Math.round(c * 255) / 255);
  const covered = (img: Float32Array, p: number): boolean => [0, 1, 2, 3].some((c) => Math.abs(img[p * 4 + c]! - stored[c]!) > 1e-3);
  // The tolerance from the filtering precision: the SP rounds each bilinear weight to 1/256
  // (error <= 1/512 per axis; gfx1100's model filters with exact weights), and d/da of the
  // result is at most the largest difference D between texels of one channel, so the filtered
  // values differ by at most 2 * D / 512 (plus float noise) before the 8-bit store; values that
  // close store at most ceil(255 * that) codes apart.
  const tex = ((s['buffers'] as Record<string, { values: number[] }>)['tex']!).values;
  let d = 0;
  for (let c = 0; c < 4; c++) {
    const ch = tex.filter((_, k) => k % 4 === c);
    d = Math.max(d, (Math.max(...ch) - Math.min(...ch)) / 255);
  }
  const tol = Math.ceil(255 * (2 * d / 512 + 1e-5)) / 255;
  assert.equal(tol, 1 / 255);
  for (const gpu of ['a630', 'a660'] as A6xxGpu[])
    for (const gmem of [undefined, {}, { bin: { w: 32, h: 16 } }]) {
      const what = `${gpu} ${gmem ? `GMEM ${gmem.bin ? '32x16' : 'default bins'}` : 'sysmem'}`;
      const r = runA6xxScene(s, dir, gpu, gmem);
      assert.deepEqual(r.diag.list.filter((x) => x.severity !== 'info').map((x) => x.id), [], `${what}: diagnostics`);
      assert.ok(r.draws.every((x) => x.ran), `${what}: every draw ran`);
      const img = resolveA6xxTarget(r);
      let cov = 0;
      let maxDiff = 0;
      for (let p = 0; p < r.width * r.height; p++) {
        assert.equal(covered(img, p), covered(ref, p), `${what}: pixel (${p % r.width}, ${Math.floor(p / r.width)}) coverage`);
        if (covered(img, p)) cov++;
        for (let c = 0; c < 4; c++) maxDiff = Math.max(maxDiff, Math.abs(img[p * 4 + c]! - ref[p * 4 + c]!));
      }
      assert.ok(cov > 3000, `${what}: the quad is drawn (${cov} pixels)`);
      assert.ok(maxDiff <= tol + 1e-6, `${what}: max colour difference ${maxDiff * 255} codes`);
    }
});

test('the texture scene\'s capture shows the image and sampler descriptors in SB6_FS_TEX', () => {
  const r = runA6xxScene(scene('texture'), join(EXAMPLES, 'texture'), 'a630');
  const lines: string[] = [];
  assert.deepEqual(cffdumpRd(r.rd, { out: (l) => lines.push(l) }).problems, []);
  const text = lines.join('\n');
  for (const want of ['SB6_FS_TEX', 'ST6_CONSTANTS', 'ST6_SHADER', 'A6XX_TEX_2D', 'A6XX_TEX_LINEAR', 'A6XX_TEX_REPEAT', 'sam (f32)(xyzw)r2.x, r1.x, s#0, t#0', 'NSAMP = 1']) assert.ok(text.includes(want), `cffdump shows ${want}`);
});

test('the draw capture decodes cleanly in cffdump format, shaders listed', () => {
  const r = runA6xxScene(scene('triangle'), join(EXAMPLES, 'triangle'), 'a630');
  const lines: string[] = [];
  const s = cffdumpRd(r.rd, { out: (l) => lines.push(l) });
  assert.deepEqual(s.problems, []);
  const text = lines.join('\n');
  for (const want of ['CP_SET_MARKER', 'RM6_BYPASS', 'CP_DRAW_INDX_OFFSET', 'SB6_VS_SHADER', 'SB6_FS_SHADER', 'bary.f', 'VFD_DECODE[0x1].INSTR', 'POSITIONLOC = 4', 'FMT6_8_8_8_8_UNORM']) assert.ok(text.includes(want), `cffdump shows ${want}`);
});

// --- per block, hand-computed ------------------------------------------------------------

const sv = (x: number, y: number): ScreenVertex => ({ x, y, z: 0.5, invW: 1, vary: new Float32Array(0) });
const ALL = { x0: 0, y0: 0, x1: 63, y1: 63 };

test('GRAS: the top-left rule gives a shared edge to exactly one triangle', () => {
  // A 4x4 square split on its diagonal, corners on pixel centres so the edges pass through samples.
  const a = sv(0.5, 0.5), b = sv(4.5, 0.5), c = sv(0.5, 4.5), d = sv(4.5, 4.5);
  const one = STANDARD_SAMPLES[1]!;
  const t1 = rasterTriangle(a, b, c, ALL, one, true);
  const t2 = rasterTriangle(b, d, c, ALL, one, true);
  const hits = new Map<string, number>();
  for (const f of [...t1, ...t2]) hits.set(`${f.x},${f.y}`, (hits.get(`${f.x},${f.y}`) ?? 0) + 1);
  // Pixel centres x+0.5 in [0.5, 4.5): the left and top edges (x = 0.5, y = 0.5) are in, right/bottom out: 4x4 pixels, each once.
  assert.equal(hits.size, 16);
  assert.ok([...hits.values()].every((n) => n === 1));
  assert.ok(hits.has('0,0') && !hits.has('4,0') && !hits.has('0,4'));
  // Centres on the diagonal (x + y = 4: (1,3) (2,2) (3,1)) go to the triangle for which it is a left
  // edge (the second); the first keeps the 10 pixels strictly inside (x + y <= 3).
  const inT1 = new Set(t1.map((f) => `${f.x},${f.y}`));
  assert.equal(inT1.has('1,2'), true);
  assert.equal(inT1.has('2,2'), false);
  assert.equal(t1.length, 10);
  assert.equal(t2.length, 6);
});

test('GRAS: orientation, culling, clipping against w and near z', () => {
  const a = sv(0, 0), b = sv(10, 0), c = sv(0, 10);
  assert.ok(signedArea2(a, b, c) > 0); // clockwise on screen (y down)
  assert.equal(culled(signedArea2(a, b, c), false, true, true), false); // CW front, cull back: kept
  assert.equal(culled(signedArea2(a, c, b), false, true, true), true);
  assert.equal(culled(signedArea2(a, b, c), true, false, false), false); // CCW front: a CW triangle is back
  // One vertex behind the near plane (z < 0 with ZERO_GB_SCALE_Z): the triangle becomes a quad.
  const v = (x: number, y: number, z: number): { pos: [number, number, number, number]; vary: Float32Array } => ({ pos: [x, y, z, 1], vary: Float32Array.of(z) });
  const poly = clipPolygon([v(0, 0, -1), v(1, 0, 1), v(0, 1, 1)], { clipDisable: false, znearDisable: false, zfarDisable: false, zeroOneZ: true });
  assert.equal(poly.length, 4);
  assert.ok(poly.every((p) => p.pos[2] >= 0));
  assert.deepEqual(poly.map((p) => p.pos[2]).sort(), [0, 0, 1, 1]);
  // Viewport: offset is the centre, scale the half size (x = -1 -> 0, y = 1 -> 64).
  const s = toScreen({ pos: [-1, 1, 0.5, 1], vary: new Float32Array(0) }, { xoffset: 32, xscale: 32, yoffset: 32, yscale: 32, zoffset: 0, zscale: 1 });
  assert.deepEqual([s.x, s.y, s.z], [0, 64, 0.5]);
});

test('GRAS: 4x MSAA tests the standard sample positions', () => {
  // A vertical edge at x = 0.5 + 1/16 through pixel 0: the samples at offsets -2/16 and -6/16 lie left of it.
  const f = rasterTriangle(sv(0.5625, -10), sv(20, -10), sv(0.5625, 20), ALL, STANDARD_SAMPLES[4]!, true).find((q) => q.x === 0 && q.y === 0)!;
  // Samples 0..3 at x offsets -2, 6, -6, 2 (sixteenths): only 1 and 3 are right of +1/16.
  assert.equal(f.mask, 0b1010);
});

test('PC: restart cuts strips; lists drop a partial primitive; fans keep vertex 0', () => {
  const { indices } = indexStream({ kind: 'dma', size: 2, count: 8, bytes: new Uint8Array(new Uint16Array([0, 1, 2, 3, 0xffff, 4, 5, 6]).buffer) }, true, 0xffff);
  assert.deepEqual(indices, [0, 1, 2, 3, RESTART, 4, 5, 6]);
  const strip = assemble('DI_PT_TRISTRIP', indices, false)!.map((p) => p.verts.map((k) => indices[k]));
  assert.deepEqual(strip, [[0, 1, 2], [2, 1, 3], [4, 5, 6]]);
  assert.deepEqual(assemble('DI_PT_TRILIST', indices, false)!.map((p) => p.verts.map((k) => indices[k])), [[0, 1, 2], [4, 5, 6]]);
  assert.deepEqual(assemble('DI_PT_TRIFAN', [0, 1, 2, 3], true)!.map((p) => [p.verts, p.provoking]), [[[0, 1, 2], 2], [[0, 2, 3], 3]]);
  // 8-bit indices, restart masked to the index size; no restart when disabled.
  assert.deepEqual(indexStream({ kind: 'dma', size: 1, count: 3, bytes: Uint8Array.of(7, 0xff, 9) }, true, 0xffffffff).indices, [7, RESTART, 9]);
  assert.deepEqual(indexStream({ kind: 'dma', size: 1, count: 3, bytes: Uint8Array.of(7, 0xff, 9) }, false, 0xff).indices, [7, 255, 9]);
  // Past the bounded buffer: read 0, counted.
  assert.deepEqual(indexStream({ kind: 'dma', size: 4, count: 2, bytes: new Uint8Array(new Uint32Array([5]).buffer) }, false, 0), { indices: [5, 0], outOfBounds: 1 });
});

test('VFD: per-vertex and instanced attributes, step rate, base vertex, vertex/instance ids', () => {
  const buf = new Uint8Array(new Float32Array([10, 11, 12, 13, 14, 15, 16, 17]).buffer);
  const inst = new Uint8Array(new Uint16Array([100, 200, 300]).buffer);
  const s: VfdState = {
    fetch: [{ base: 0x1000, size: buf.length, stride: 8 }, { base: 0x2000, size: inst.length, stride: 2 }],
    decode: [
      { idx: 0, offset: 4, instanced: false, format: 'FMT6_32_FLOAT', swap: 0, float: true, stepRate: 1 },
      { idx: 1, offset: 0, instanced: true, format: 'FMT6_16_UINT', swap: 0, float: false, stepRate: 2 },
    ],
    dest: [{ writemask: 0x1, regid: 4 }, { writemask: 0x1, regid: 8 }],
    regVertexId: 0, regInstanceId: 1, indexOffset: 1, instanceStart: 0, addVertex: true, addInstance: true,
  };
  const read = (addr: number, len: number): Uint8Array => (addr >= 0x2000 ? inst : buf).slice(addr & 0xfff, (addr & 0xfff) + len);
  const w = new Map(fetchVertex(s, 2, 3, read).writes);
  // Vertex 2 + base vertex 1 = element 3: float at 3*8+4 = 17; instance 3 / step rate 2 = element 1: 200.
  assert.equal(new Float32Array(new Uint32Array([w.get(4)!]).buffer)[0], 17);
  assert.equal(w.get(8), 200);
  assert.equal(w.get(0), 3); // vertex id with VFD_ADD_OFFSET VERTEX
  assert.equal(w.get(1), 3);
  assert.equal(fetchVertex({ ...s, regVertexId: REGID_NONE }, 9, 0, read).outOfBounds, 1); // element 10 past SIZE
});

test('RB: blend factors and opcodes, compare functions, stencil ops by hand', () => {
  const F = (n: string): number => enumValue('adreno_rb_blend_factor', n, 'a6xx')!;
  const O = (n: string): number => enumValue('a3xx_rb_blend_opcode', n, 'a6xx')!;
  const over: MrtBlend = { blend: true, componentEnable: 0xf, rgbSrc: F('FACTOR_SRC_ALPHA'), rgbDst: F('FACTOR_ONE_MINUS_SRC_ALPHA'), rgbOp: O('BLEND_DST_PLUS_SRC'), aSrc: F('FACTOR_ONE'), aDst: F('FACTOR_ONE_MINUS_SRC_ALPHA'), aOp: O('BLEND_DST_PLUS_SRC') };
  const r = blend(over, [1, 0, 0, 0.5], [0, 0, 1, 1], [0, 0, 0, 0]);
  assert.deepEqual(r, [0.5, 0, 0.5, 1]);
  const mx = blend({ ...over, rgbOp: O('BLEND_MAX_DST_SRC') }, [0.2, 0.9, 0, 1], [0.5, 0.1, 0, 1], [0, 0, 0, 0]);
  assert.deepEqual(mx.slice(0, 3), [0.5, 0.9, 0]);
  const C = (n: string): number => enumValue('adreno_compare_func', n, 'a6xx')!;
  assert.equal(compare(C('FUNC_LESS'), 0.3, 0.5), true);
  assert.equal(compare(C('FUNC_GEQUAL'), 0.3, 0.5), false);
  const S = (n: string): number => enumValue('adreno_stencil_op', n, 'a6xx')!;
  assert.equal(stencilOp(S('STENCIL_INCR_CLAMP'), 255, 0), 255);
  assert.equal(stencilOp(S('STENCIL_INCR_WRAP'), 255, 0), 0);
  assert.equal(stencilOp(S('STENCIL_REPLACE'), 3, 7), 7);
  assert.equal(stencilOp(S('STENCIL_INVERT'), 0x0f, 0), 0xf0);
});

// --- diagnostics -----------------------------------------------------------------------

/** Build and run a scene description, then (optionally) a second stream on the same CP. */
function runDesc(d: GfxScene, after?: CmdStream): { diag: Diagnostics; cp: CommandProcessor } {
  const { diag, cp } = runSceneStream(d, after);
  return { diag, cp };
}
const base = (): GfxScene => a6xxSceneDescription(scene('triangle'), join(EXAMPLES, 'triangle'), 'a630');
const ids = (d: Diagnostics): string[] => [...new Set(d.list.filter((x) => x.severity !== 'info').map((x) => x.id))];

test('adreno.vfd.count-beyond-array: FETCH_CNT past the VFD_FETCH registers fires, the draw is not run', () => {
  // Found by the a6xx stream fuzz (test/cli/fuzz-inputs.test.ts): FETCH_CNT is 6 bits, the array 32 long.
  const after = new CmdStream('a6xx').reg('VFD_CONTROL_0', { FETCH_CNT: 40, DECODE_CNT: 2 });
  after.drawAuto('DI_PT_TRILIST', 3);
  const r = runDesc(base(), after);
  assert.deepEqual(ids(r.diag), ['adreno.vfd.count-beyond-array']);
  assert.deepEqual(drawRuns(r.cp).map((x) => x.ran), [true, true, false]);
  assert.ok(!ids(runDesc(base()).diag).includes('adreno.vfd.count-beyond-array'));
});

test('draw diagnostics: quiet on the example, each fires on its state', () => {
  const clean = runDesc(base());
  assert.deepEqual(ids(clean.diag), []);
  assert.equal(drawRuns(clean.cp).filter((r) => r.ran).length, 2);
  const b = base();
  // VS output register r3 with FULLREGFOOTPRINT 3 (r0..r2).
  assert.deepEqual(ids(runDesc({ ...b, vs: { ...b.vs, fullRegs: 3 } }).diag), ['adreno.vpc.out-beyond-footprint']);
  // VFD destination beyond the footprint.
  assert.ok(ids(runDesc({ ...b, vs: { ...b.vs, fullRegs: 4, inputs: [...b.vs.inputs, { ...b.vs.inputs[0]!, regid: 5 * 4 }] } }).diag).includes('adreno.vfd.dest-beyond-footprint'));
  // FS colour output beyond the FS footprint.
  assert.deepEqual(ids(runDesc({ ...b, fs: { ...b.fs, fullRegs: 1 } }).diag), ['adreno.sp.fs-out-beyond-footprint']);
  // No output at VPC_VS_PACK POSITIONLOC.
  assert.ok(ids(runDesc({ ...b, vs: { ...b.vs, positionLoc: 8 } }).diag).includes('adreno.vpc.no-position'));
  // The FS reads a location VPC_VAR_DISABLE disables (location 4: the position, never a varying).
  assert.ok(ids(runDesc({ ...b, fs: { ...b.fs, asm: '(rpt3)bary.f (ei)r1.x, (r)4, r0.x\nend\n' } }).diag).includes('adreno.vpc.varying-disabled'));
  // A vertex fetch past VFD_FETCH SIZE.
  const vb = b.buffers.get('vertices')!;
  assert.ok(ids(runDesc({ ...b, buffers: new Map([['vertices', vb.slice(0, 64)]]) }).diag).includes('adreno.vfd.fetch-oob'));
  // Indices past MAX_INDICES.
  const withIdx: GfxScene = { ...b, buffers: new Map([...b.buffers, ['idx', new Uint8Array(new Uint16Array([0, 1]).buffer)]]), draws: [{ prim: 'DI_PT_TRILIST', count: 3, indices: { buffer: 'idx', size: 2 } }] };
  assert.ok(ids(runDesc(withIdx).diag).includes('adreno.pc.index-oob'));
  // Stencil with D16 and no separate stencil plane (D16_UNORM_S8_UINT is unsupported), after the example's state.
  const d16 = (separate: boolean): CmdStream => new CmdStream().reg('RB_DEPTH_BUFFER_INFO', { DEPTH_FORMAT: 'DEPTH6_16' }).reg('RB_STENCIL_INFO', { SEPARATE_STENCIL: separate }).reg('RB_STENCIL_CONTROL', { STENCIL_ENABLE: true, FUNC: 'FUNC_ALWAYS' }).drawAuto('DI_PT_TRILIST', 3);
  assert.ok(ids(runDesc(b, d16(false)).diag).includes('adreno.rb.d16-stencil'));
  assert.ok(!ids(runDesc(b, d16(true)).diag).includes('adreno.rb.d16-stencil'));
});

test('a draw with the VS enabled and no code is adreno.sp.no-shader; a stream without a VS is only not run', () => {
  const run = (enabled: boolean): Diagnostics => {
    const cs = new CmdStream().setMarker('RM6_BYPASS').reg('HLSQ_VS_CNTL', { ENABLED: enabled }).reg('SP_VS_INSTRLEN', 0).drawAuto('DI_PT_TRILIST', 3);
    const mem = new Memory();
    const seg = mem.alloc(cs.bytes().length, 'ib', 0x1000, cs.bytes());
    const diag = new Diagnostics();
    new CommandProcessor(mem, { diag }).run(seg.base, cs.dwords().length);
    return diag;
  };
  assert.deepEqual(ids(run(true)), ['adreno.sp.no-shader']);
  assert.deepEqual(ids(run(false)), []);
  assert.deepEqual(run(false).list.map((d) => d.id), ['adreno.cp.draw-not-run']);
});

// --- end to end on small hand-made scenes --------------------------------------------------

const f32 = (a: number[]): Uint8Array => new Uint8Array(new Float32Array(a).buffer);
/** A rectangle in NDC as two triangles (6 vertices: position xyzw, colour rgba). */
function rect(x0: number, y0: number, x1: number, y1: number, z: number, c: number[]): number[] {
  const v = (x: number, y: number): number[] => [x, y, z, 1, ...c];
  return [...v(x0, y0), ...v(x1, y0), ...v(x0, y1), ...v(x0, y1), ...v(x1, y0), ...v(x1, y1)];
}
function small(over: Partial<GfxScene>): GfxScene {
  const b = base();
  return { ...b, width: 16, height: 16, state: { ...b.state, viewport: [0, 0, 16, 16], scissor: [0, 0, 16, 16], blend: [] }, ...over };
}
/** Render and read RGBA8 pixel colours as 0..255 tuples. */
function pixels(d: GfxScene): { px: (x: number, y: number) => number[]; diag: Diagnostics; cp: CommandProcessor } {
  const b = buildDraw(d);
  const diag = new Diagnostics();
  const cp = new CommandProcessor(b.mem, { diag, gpuId: d.gpuId });
  cp.run(b.streamIova, b.stream.length);
  const t = b.targets[0]!;
  return { px: (x, y) => Array.from(b.mem.readBytes(t.base + y * t.pitch + x * 4, 4)), diag, cp };
}

test('instanced draw through CP_DRAW_INDX_INDIRECT: per-instance offsets from VFD, VS adds them', () => {
  const b = base();
  const d = small({
    buffers: new Map([['v', f32([-1, -1, 0.5, 1, 1, 0, 0, 1, -0.5, -1, 0.5, 1, 1, 0, 0, 1, -1, -0.5, 0.5, 1, 1, 0, 0, 1, -0.5, -0.5, 0.5, 1, 1, 0, 0, 1])], ['inst', f32([0, 0, 1, 0, 0, 1])], ['idx', new Uint8Array(new Uint16Array([0, 1, 2, 2, 1, 3]).buffer)]]),
    vs: {
      ...b.vs,
      asm: 'add.f r3.x, r0.x, r4.x\nadd.f r3.y, r0.y, r4.y\nmov.f32f32 r3.z, r0.z\nmov.f32f32 r3.w, r0.w\n(rpt3)mov.f32f32 r2.x, (r)r1.x\nend\n',
      fullRegs: 5,
      inputs: [
        { buffer: 'v', stride: 32, offset: 0, format: 'FMT6_32_32_32_32_FLOAT', regid: 0, mask: 0xf },
        { buffer: 'v', stride: 32, offset: 16, format: 'FMT6_32_32_32_32_FLOAT', regid: 4, mask: 0xf },
        { buffer: 'inst', stride: 8, offset: 0, format: 'FMT6_32_32_FLOAT', regid: 16, mask: 0x3, instanced: true, stepRate: 1 },
      ],
    },
    draws: [{ prim: 'DI_PT_TRILIST', count: 6, instances: 3, indices: { buffer: 'idx', size: 2 }, indirect: true }],
  });
  const { px, diag, cp } = pixels(d);
  assert.deepEqual(ids(diag), []);
  assert.deepEqual(drawRuns(cp).map((r) => r.packet), ['CP_DRAW_INDX_OFFSET', 'CP_DRAW_INDX_INDIRECT']);
  // NDC [-1,-0.5] is pixels 0..3; instance offsets +1 in x / y move the block by 8 pixels.
  let red = 0;
  for (let y = 0; y < 16; y++)
    for (let x = 0; x < 16; x++) {
      const want = (x < 4 && y < 4) || (x >= 8 && x < 12 && y < 4) || (x < 4 && y >= 8 && y < 12);
      assert.equal(px(x, y)[0] === 255, want, `pixel ${x},${y}`);
      if (want) red++;
    }
  assert.equal(red, 48);
});

for (const format of ['DEPTH6_16', 'DEPTH6_24_8', 'DEPTH6_32'] as const) {
  test(`depth ${format}${format === 'DEPTH6_16' ? '' : ' and stencil'} through the RB, CP_DRAW_INDIRECT`, () => {
    const stencil = format !== 'DEPTH6_16';
    const d = small({
      depth: { format, clear: 1, ...(stencil ? { stencil: { clear: 0 } } : {}) },
      buffers: new Map([['v', f32([...rect(-1, -1, 0.5, 1, 0.8, [1, 0, 0, 1]), ...rect(-0.5, -1, 1, 1, 0.3, [0, 1, 0, 1]), ...rect(-1, -1, 1, 1, 0.9, [1, 1, 1, 1]), ...rect(-1, -1, 1, 1, 0.0, [0, 0, 1, 1])])]]),
      vs: { ...base().vs, inputs: base().vs.inputs.map((i) => ({ ...i, buffer: 'v' })) },
      state: { ...small({}).state, depthFunc: 'FUNC_LESS', ...(stencil ? { stencil: { func: 'FUNC_ALWAYS', fail: 'STENCIL_KEEP', zpass: 'STENCIL_REPLACE', zfail: 'STENCIL_KEEP', ref: 1 } } : {}) },
      draws: [
        { prim: 'DI_PT_TRILIST', count: 6, indirect: true }, // far red, writes stencil 1
        { prim: 'DI_PT_TRILIST', count: 6, vertexOffset: 6, ...(stencil ? { state: { stencil: { func: 'FUNC_ALWAYS', fail: 'STENCIL_KEEP', zpass: 'STENCIL_KEEP', zfail: 'STENCIL_KEEP', ref: 0 } } } : {}) }, // near green
        { prim: 'DI_PT_TRILIST', count: 6, vertexOffset: 12 }, // white behind everything
        ...(stencil ? [{ prim: 'DI_PT_TRILIST', count: 6, vertexOffset: 18, state: { depthFunc: 'FUNC_ALWAYS', stencil: { func: 'FUNC_EQUAL', fail: 'STENCIL_KEEP', zpass: 'STENCIL_KEEP', zfail: 'STENCIL_KEEP', ref: 1 } } }] : []),
      ],
    });
    const { px, diag } = pixels(d);
    assert.deepEqual(ids(diag), []);
    for (let x = 0; x < 16; x++) {
      // Red covers pixels 0..11, green 4..15 in front of it; blue only where red wrote stencil 1.
      const want = stencil && x < 12 ? [0, 0, 255, 255] : x >= 4 ? [0, 255, 0, 255] : [255, 0, 0, 255];
      assert.deepEqual(px(x, 5), want, `pixel ${x}`);
    }
  });
}

test('TILE6_3 render targets: the same pixels as linear, stored in the fdl6 tiled order (a630 and a660)', () => {
  for (const gpu of ['a630', 'a660'] as A6xxGpu[]) {
    const s = scene('blend');
    const lin = runA6xxScene(s, join(EXAMPLES, 'blend'), gpu);
    const til = runA6xxScene({ ...s, a6xx: { ...(s['a6xx'] as object), tile: 'TILE6_3' } }, join(EXAMPLES, 'blend'), gpu);
    assert.deepEqual(ids(til.diag), []);
    assert.deepEqual(til.targets[0]!.data, lin.targets[0]!.data);
    // The capture programs the tiled layout.
    const lines: string[] = [];
    cffdumpRd(til.rd, { out: (l) => lines.push(l) });
    assert.ok(lines.join('\n').includes('COLOR_TILE_MODE = TILE6_3'));
  }
});

test('points and lines: screen quads of GRAS_SU_POINT_SIZE / LINEHALFWIDTH around the vertices', () => {
  const b = base();
  // Two points at pixel centres (4.5, 4.5) and (10.5, 2.5), a horizontal line along y = 12.5 from x = 2 to 14.
  const ndc = (p: number): number => (p / 16) * 2 - 1;
  const pts = f32([ndc(4.5), ndc(4.5), 0.5, 1, 1, 0, 0, 1, ndc(10.5), ndc(2.5), 0.5, 1, 1, 0, 0, 1, ndc(2), ndc(12.5), 0.5, 1, 0, 1, 0, 1, ndc(14), ndc(12.5), 0.5, 1, 0, 1, 0, 1]);
  const d = small({ buffers: new Map([['v', pts]]), vs: { ...b.vs, inputs: b.vs.inputs.map((i) => ({ ...i, buffer: 'v' })) }, draws: [{ prim: 'DI_PT_POINTLIST', count: 2 }, { prim: 'DI_PT_LINELIST', count: 2, vertexOffset: 2 }] });
  const { px, diag } = pixels(d);
  assert.deepEqual(ids(diag), []);
  const red: string[] = [];
  const green: string[] = [];
  for (let y = 0; y < 16; y++)
    for (let x = 0; x < 16; x++) {
      const c = px(x, y);
      if (c[0] === 255) red.push(`${x},${y}`);
      if (c[1] === 255) green.push(`${x},${y}`);
    }
  // A 1-pixel point covers its own pixel; the line 1 pixel wide covers row 12 from x = 2 to 13.
  assert.deepEqual(red, ['10,2', '4,4']);
  assert.deepEqual(green, Array.from({ length: 12 }, (_, k) => `${k + 2},12`));
});

test('the capture runs again through `adreno run`: the same draws render', () => {
  const r = runA6xxScene(scene('triangle'), join(EXAMPLES, 'triangle'), 'a660');
  const again = runRd(r.rd, {}, 'triangle.rd');
  assert.deepEqual(again.diag.list.filter((d) => d.severity !== 'info').map((d) => d.id), []);
  assert.deepEqual(drawRuns(again.cp).map((d) => d.result?.rb.samplesWritten), r.draws.map((d) => d.result?.rb.samplesWritten));
  assert.deepEqual(drawRuns(again.cp).map((d) => d.result?.rb.samplesWritten), [4096, 1352]);
});

test('MSAA targets are resolved by the 2D engine (CP_BLIT, SAMPLES_AVERAGE) as the samples average', () => {
  for (const name of ['blend', 'msaa']) {
    const r = runA6xxScene(scene(name), join(EXAMPLES, name), 'a630');
    assert.ok(r.resolved, `${name}: resolved by CP_BLIT`);
    const hw = resolveA6xxTarget(r);
    const sw = resolveA6xxTarget(r, 0, true);
    let max = 0;
    for (let k = 0; k < hw.length; k++) max = Math.max(max, Math.abs(hw[k]! - sw[k]!));
    // UNORM8 stores the average rounded to 8 bits; f16 rounds to its 11-bit mantissa.
    assert.ok(max <= 0.5 / 255 + 1e-6, `${name}: resolve differs by ${max}`);
  }
});

test('FS kill discards: exactly the pixels whose interpolated red is below c0.x = 0.5 keep the clear', () => {
  const b = small({});
  const plain = pixels(b);
  const kill = pixels({ ...b, fs: { ...b.fs, asm: '(rpt3)bary.f (ei)r1.x, (r)0, r0.x\ncmps.f.lt p0.x, r1.x, c0.x\nkill p0.x\nend\n', consts: new Uint32Array(new Float32Array([0.5, 0, 0, 0]).buffer) } });
  assert.deepEqual(ids(kill.diag), []);
  const clear = plain.px(0, 0);
  let kept = 0;
  let killed = 0;
  for (let y = 0; y < 16; y++)
    for (let x = 0; x < 16; x++) {
      const p = plain.px(x, y);
      if (p.join() === clear.join()) continue;
      const want = p[0]! >= 128 ? p : clear;
      assert.deepEqual(kill.px(x, y), want, `pixel ${x},${y}`);
      if (p[0]! >= 128) kept++;
      else killed++;
    }
  assert.ok(kept > 5 && killed > 5, `kept ${kept}, killed ${killed}`);
  assert.ok(drawRuns(kill.cp)[1]!.result!.killed === killed);
});

test('GRAS_SC_SCREEN_SCISSOR bounds the fragments (inclusive TL..BR)', () => {
  const b = small({});
  const full = pixels(b);
  const cut = pixels({ ...b, state: { ...b.state, scissor: [4, 6, 5, 3] } });
  const clear = full.px(0, 0);
  for (let y = 0; y < 16; y++)
    for (let x = 0; x < 16; x++) {
      const inside = x >= 4 && x < 9 && y >= 6 && y < 9;
      assert.deepEqual(cut.px(x, y), inside ? full.px(x, y) : clear, `pixel ${x},${y}`);
    }
});

test('flat.b reads the provoking vertex: first by default, last with PC_PRIMITIVE_CNTL_0 PROVOKING_VTX_LAST', () => {
  const b = small({});
  const flat = { ...b.fs, asm: 'flat.b r1.x, 0, 0\nflat.b r1.y, 1, 1\nflat.b r1.z, 2, 2\nflat.b r1.w, 3, 3\nend\n' };
  const colours = (provokingLast: boolean): Set<string> => {
    const r = pixels({ ...b, fs: flat, state: { ...b.state, provokingLast } });
    assert.deepEqual(ids(r.diag), []);
    const seen = new Set<string>();
    for (let y = 0; y < 16; y++) for (let x = 0; x < 16; x++) seen.add(r.px(x, y).join());
    return seen;
  };
  // The triangle's vertices are red, green, blue; the clear is (26, 26, 26).
  assert.deepEqual([...colours(false)].sort(), ['255,0,0,255', '26,26,26,255']);
  assert.deepEqual([...colours(true)].sort(), ['0,0,255,255', '26,26,26,255']);
});

test('the FS reads a texel buffer through its SB6_FS_TEX descriptor (isam at the index in c0.x)', () => {
  const b = small({});
  const texels = f32([1, 0, 0, 1, 0.25, 0.5, 0.75, 1, 0, 0, 1, 1]);
  const r = pixels({
    ...b,
    buffers: new Map([...b.buffers, ['tex', texels]]),
    fs: { ...b.fs, asm: 'mov.u32u32 r2.x, c0.x\nisam (f32)(xyzw)r1.x, r2.x, s#0, t#0\nend\n', fullRegs: 3, consts: Uint32Array.of(1, 0, 0, 0), textures: [{ buffer: 'tex', format: 'FMT6_32_32_32_32_FLOAT', elements: 3 }] },
  });
  assert.deepEqual(ids(r.diag), []);
  const seen = new Set<string>();
  for (let y = 0; y < 16; y++) for (let x = 0; x < 16; x++) seen.add(r.px(x, y).join());
  // Texel 1 (0.25, 0.5, 0.75, 1) everywhere the triangle covers.
  assert.deepEqual([...seen].sort(), ['26,26,26,255', '64,128,191,255']);
});

test('VFD_CONTROL_1 REGID4VTX: the VS reads the vertex id, VS constants from CP_LOAD_STATE6_GEOM', () => {
  const b = small({});
  const d = small({
    buffers: new Map([['v', f32(rect(-1, -1, 1, 1, 0.5, [0, 0, 0, 1]))]]),
    vs: {
      ...b.vs,
      asm: 'cov.u32f32 r5.x, r4.x\nmul.f r2.x, r5.x, c0.x\nmov.f32f32 r2.y, c0.y\nmov.f32f32 r2.z, c0.y\nmov.f32f32 r2.w, c0.z\n(rpt3)mov.f32f32 r3.x, (r)r0.x\nend\n',
      fullRegs: 6,
      inputs: [{ buffer: 'v', stride: 32, offset: 0, format: 'FMT6_32_32_32_32_FLOAT', regid: 0, mask: 0xf }],
      vertexIdReg: 16,
      consts: new Uint32Array(new Float32Array([1 / 3, 0, 1, 0]).buffer),
    },
    fs: { ...b.fs, asm: 'flat.b r1.x, 0, 0\nflat.b r1.y, 1, 1\nflat.b r1.z, 2, 2\nflat.b r1.w, 3, 3\nend\n' },
    draws: [{ prim: 'DI_PT_TRILIST', count: 6 }],
  });
  const r = pixels(d);
  assert.deepEqual(ids(r.diag), []);
  const count = new Map<string, number>();
  for (let y = 0; y < 16; y++) for (let x = 0; x < 16; x++) count.set(r.px(x, y).join(), (count.get(r.px(x, y).join()) ?? 0) + 1);
  // Triangle 0 provokes with vertex 0 (red 0), triangle 1 with vertex 3 (red 3 x 1/3 = 1). The
  // diagonal runs through 16 pixel centres; it is the lower-right triangle's left edge (top-left rule).
  assert.deepEqual([...count].sort(), [['0,0,0,255', 120], ['255,0,0,255', 136]]);
});

test('shared edges through pixel centres go to the same triangle as on gfx1100', () => {
  const s = scene('triangle');
  const dir = join(EXAMPLES, 'triangle');
  const v = (x: number, y: number, c: number[]): number[] => [x, y, 0.5, 1, ...c];
  const R = [1, 0, 0, 1];
  const G = [0, 1, 0, 1];
  const layouts = [
    [...v(-1, -1, R), ...v(1, -1, R), ...v(-1, 1, R), ...v(-1, 1, G), ...v(1, -1, G), ...v(1, 1, G)], // a quad's diagonal
    [...v(-0.5, -0.5, R), ...v(0.5, -0.5, R), ...v(0, 0.5, R), ...v(0.5, -0.5, G), ...v(0, 0.5, G), ...v(1, 0.5, G)], // a slanted shared edge
  ];
  for (const values of layouts) {
    const sc = { ...s, width: 16, height: 16, buffers: { vertices: { type: 'f32', values } }, draws: [{ topology: 'DI_PT_TRILIST', count: 6 }] };
    const amd = runScene(sc, dir, { gfx: 'gfx1100' });
    const ref = resolveTarget(amd, amd.targets[0]!);
    for (const gpu of ['a630', 'a660'] as A6xxGpu[]) {
      const img = resolveA6xxTarget(runA6xxScene(sc, dir, gpu));
      for (let p = 0; p < 256; p++) for (let c = 0; c < 3; c++) assert.ok(Math.abs(img[p * 4 + c]! - ref[p * 4 + c]!) < 0.01, `${gpu} pixel ${p % 16},${p >> 4}`);
    }
  }
});

test('half-precision FS outputs (SP_FS_OUTPUT HALF_PRECISION) give the same 8-bit pixels', () => {
  const b = small({});
  const full = pixels(b);
  const half = pixels({ ...b, fs: { ...b.fs, asm: '(rpt3)bary.f (ei)r1.x, (r)0, r0.x\n(rpt3)cov.f32f16 hr2.x, (r)r1.x\nend\n', fullRegs: 3, halfRegs: 3, outputs: [8], halfOutputs: true } });
  assert.deepEqual(ids(half.diag), []);
  let diff = 0;
  for (let y = 0; y < 16; y++) for (let x = 0; x < 16; x++) diff = Math.max(diff, ...half.px(x, y).map((v, k) => Math.abs(v - full.px(x, y)[k]!)));
  // f16 keeps 11 bits: at most one 8-bit step apart.
  assert.ok(diff <= 1, `max difference ${diff}`);
});

test('FS derivatives see 2x2 quads: dsx/dsy of the interpolated red are the plane slope on every pixel, edges too', () => {
  const b = small({});
  // Red is the weight of vertex 0 (NDC (-0.8, 0.8)); v1 (0.8, 0.8) shares its row, so on the
  // 16-pixel viewport d(red)/dx = -1 / (1.6 * 8) and |d(red)/dy| = 0.5 / (1.6 * 8).
  const dx = -1 / 12.8;
  const dy = 0.5 / 12.8;
  const fs = `(rpt3)bary.f (ei)r1.x, (r)0, r0.x
dsx (f32)(x)r0.x, r1.x
dsy (f32)(x)r0.y, r1.x
(sy)mul.f r1.x, r0.x, c0.x
mad.f32 r1.y, c0.y, r0.y, c0.z
mov.f32f32 r1.z, c0.w
mov.f32f32 r1.w, c1.x
end
`;
  const d = pixels({ ...b, fs: { ...b.fs, asm: fs, consts: new Uint32Array(new Float32Array([-8, 8, 0.5, 0, 1, 0, 0, 0]).buffer) } });
  assert.deepEqual(ids(d.diag), []);
  const plain = pixels(b);
  const clear = plain.px(0, 0);
  // The y direction of the window: red grows downwards when vertex 0 is at the top.
  const ys: number[] = [];
  for (let y = 0; y < 16; y++) if (plain.px(8, y).join() !== clear.join()) ys.push(y);
  const down = plain.px(8, ys[ys.length - 1]!)[0]! > plain.px(8, ys[0]!)[0]! ? 1 : -1;
  const want = [Math.round(-dx * 8 * 255), Math.round((down * dy * 8 + 0.5) * 255), 0, 255];
  let n = 0;
  for (let y = 0; y < 16; y++)
    for (let x = 0; x < 16; x++) {
      if (plain.px(x, y).join() === clear.join()) {
        assert.deepEqual(d.px(x, y), clear, `helper pixel ${x},${y} writes nothing`);
        continue;
      }
      n++;
      const got = d.px(x, y);
      for (let c = 0; c < 4; c++) assert.ok(Math.abs(got[c]! - want[c]!) <= 1, `pixel ${x},${y}: ${got} vs ${want}`);
    }
  assert.ok(n > 40, `${n} covered pixels`);
});
