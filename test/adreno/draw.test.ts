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
import { Diagnostics } from '../../src/core/diagnostics.js';
import { Memory } from '../../src/core/memory.js';
import { CmdStream } from '../../src/adreno/cp/builder.js';
import { assemble, indexStream, RESTART } from '../../src/adreno/pc/assemble.js';
import { clipPolygon, culled, rasterTriangle, signedArea2, STANDARD_SAMPLES, toScreen, type ScreenVertex } from '../../src/adreno/gras/raster.js';
import { fetchVertex, REGID_NONE, type VfdState } from '../../src/adreno/vfd/fetch.js';
import { blend, compare, stencilOp, type MrtBlend } from '../../src/adreno/rb/output.js';
import { enumValue } from '../../src/adreno/regs/db.js';

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
  const b = buildDraw(d);
  const diag = new Diagnostics();
  const cp = new CommandProcessor(b.mem, { diag, gpuId: d.gpuId });
  cp.run(b.streamIova, b.stream.length);
  if (after) {
    const seg = b.mem.alloc(after.bytes().length, 'ib2', 0x1000, after.bytes());
    cp.run(seg.base, after.dwords().length);
  }
  return { diag, cp };
}
const base = (): GfxScene => a6xxSceneDescription(scene('triangle'), join(EXAMPLES, 'triangle'), 'a630');
const ids = (d: Diagnostics): string[] => [...new Set(d.list.filter((x) => x.severity !== 'info').map((x) => x.id))];

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
