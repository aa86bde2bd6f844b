/**
 * UBWC depth buffers (rb/ubwc-target.ts `ubwcDepth`, RB_RENDER_CNTL FLAG_DEPTH,
 * RB_DEPTH_FLAG_BUFFER_*, the scene key "a6xx": { "depthTile": "UBWC" }): a depth-tested scene
 * rendered with a UBWC D24S8, D32F and (4x) D16 buffer decodes (ubwc/ubwc.ts) to the bytes of the
 * linear render, sysmem and GMEM (resolve through RB_BLIT_FLAG_DST), a630 and a660, with the flags
 * ubwc.ts's encoder writes for those bytes (D24S8 fast-clears uniform blocks with the 8888
 * encoding, the stencil byte in the alpha place); the buffer reads back through the TP (isam of a
 * FLAG texture), a CP_BLIT and a GMEM restore; the flag buffer checks and turnip's depth-bounds
 * quirk fire and stay quiet.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { a6xxSceneDescription, runA6xxScene, type A6xxGpu } from '../../src/runtime/draw-a6xx.js';
import { cffdumpRd } from '../../src/adreno/cp/cffdump.js';
import { runRd } from '../../src/adreno/run.js';
import { drawRuns } from '../../src/adreno/cp/handlers-gfx.js';
import { buildDraw, type BuiltDraw, type GfxScene } from '../../src/adreno/driver/sysmem.js';
import { gmemDraw } from '../../src/adreno/driver/gmem.js';
import { emitGmemPass } from '../../src/adreno/rb/gmem-pass.js';
import { gmemInfo } from '../../src/adreno/rb/gmem.js';
import { binLayout } from '../../src/adreno/vsc/vsc.js';
import { CommandProcessor } from '../../src/adreno/cp/cp.js';
import { CmdStream, hi32, lo32 } from '../../src/adreno/cp/builder.js';
import { decodeHeader } from '../../src/adreno/cp/pm4.js';
import { Diagnostics } from '../../src/core/diagnostics.js';
import { encodeFields, enumValue, gpuRegs } from '../../src/adreno/regs/db.js';
import { tile6ConfigFor } from '../../src/adreno/ubwc/tile6.js';
import { linearToUbwc, ubwcToLinear, type ClearPixel } from '../../src/adreno/ubwc/ubwc.js';
import { assembleIr3 } from '../../src/adreno/ir3/asm.js';
import { runIr3Dispatch, type Ir3Manifest } from '../../src/adreno/sp/dispatch.js';

const DIR = join(import.meta.dirname, '..', '..', '..', 'examples', 'triangle');
const GPUS: readonly A6xxGpu[] = ['a630', 'a660'];
const GPU_ID: Record<A6xxGpu, number> = { a630: 630, a660: 660 };
const ids = (d: Diagnostics): string[] => [...new Set(d.list.filter((x) => x.severity !== 'info').map((x) => x.id))];
type DepthFmt = 'DEPTH6_16' | 'DEPTH6_24_8' | 'DEPTH6_32';
const CPP: Record<DepthFmt, number> = { DEPTH6_16: 2, DEPTH6_24_8: 4, DEPTH6_32: 4 };
const AS_COLOR: Record<DepthFmt, string> = { DEPTH6_16: 'FMT6_16_UNORM', DEPTH6_24_8: 'FMT6_Z24_UNORM_S8_UINT', DEPTH6_32: 'FMT6_32_FLOAT' };
/** The cases: D24S8 and D32F single-sampled (4 bytes a pixel), D16 at 4 samples (8 bytes a pixel; 1x D16 is 2 bytes, not modelled). */
const CASES: readonly (readonly [DepthFmt, number])[] = [['DEPTH6_24_8', 1], ['DEPTH6_32', 1], ['DEPTH6_16', 4]];
const clearOf = (f: DepthFmt): ClearPixel | undefined => (f === 'DEPTH6_24_8' ? { alphaByte: 3 } : undefined);

/** Three depth-tested triangles (LESS, cleared to 1): a slanted one, one at z = 0 covering whole blocks, one at 0.3 over both. */
function desc(gpu: A6xxGpu, fmt: DepthFmt, samples: number, ubwc: boolean, state: Partial<GfxScene['state']> = {}): GfxScene {
  const s = JSON.parse(readFileSync(join(DIR, 'scene.json'), 'utf8')) as Record<string, unknown>;
  const v = (x: number, y: number, z: number, c: number[]): number[] => [x, y, z, 1, ...c];
  const verts = [
    ...v(-1, -1, 0.2, [1, 0, 0, 1]), ...v(1, -1, 0.8, [1, 0, 0, 1]), ...v(-1, 1, 0.5, [1, 0, 0, 1]),
    ...v(-0.2, -0.9, 0, [0, 1, 0, 1]), ...v(0.9, -0.9, 0, [0, 1, 0, 1]), ...v(0.9, 0.9, 0, [0, 1, 0, 1]),
    ...v(-0.8, 0.8, 0.3, [0, 0, 1, 1]), ...v(0.8, 0.8, 0.3, [0, 0, 1, 1]), ...v(0, -0.8, 0.3, [0, 0, 1, 1]),
  ];
  const d = a6xxSceneDescription({
    ...s, samples, depth: { format: fmt === 'DEPTH6_16' ? 'Z_16' : 'Z_32_FLOAT', clear: 1 },
    buffers: { vertices: { type: 'f32', values: verts } }, draws: [{ topology: 'DI_PT_TRILIST', count: 9 }],
    state: { depthFunc: 'FRAG_LESS' }, a6xx: { depthTile: ubwc ? 'UBWC' : 'LINEAR' },
  }, DIR, gpu);
  return { ...d, depth: { ...d.depth!, format: fmt }, state: { ...d.state, ...state } };
}

interface Run { b: BuiltDraw; cp: CommandProcessor; diag: Diagnostics; d: GfxScene }
function render(d: GfxScene, gpu: A6xxGpu, gmem?: { bin?: { w: number; h: number } }): Run {
  const b = buildDraw(d);
  const diag = new Diagnostics();
  const cp = new CommandProcessor(b.mem, { diag, gpuId: GPU_ID[gpu], tile6: tile6ConfigFor(gpu) });
  if (gmem) {
    const g = gmemDraw(b, d, gmem);
    cp.run(g.streamIova, g.streamDwords);
  } else cp.run(b.streamIova, b.stream.length);
  return { b, cp, diag, d };
}
/** A linear depth buffer's pixels, tightly packed. */
function linearDepth(r: Run, base = r.b.depth!.base, pitch = r.b.depth!.pitch): Uint8Array {
  const row = r.d.width * r.b.depth!.cpp * r.d.samples;
  const out = new Uint8Array(row * r.d.height);
  for (let y = 0; y < r.d.height; y++) out.set(r.b.mem.readBytes(base + y * pitch, row), y * row);
  return out;
}
const ubwcPlanes = (r: Run): Uint8Array => r.b.mem.readBytes(r.b.depth!.ubwc!.flags, r.b.depth!.ubwc!.layout.dataOffset + r.b.depth!.ubwc!.layout.dataSize);
const colour = (r: Run): Uint8Array => r.b.mem.readBytes(r.b.targets[0]!.base, r.b.targets[0]!.pitch * r.d.height);

for (const [fmt, samples] of CASES) {
  test(`UBWC ${fmt} (${samples}x) decodes to the linear depth render, sysmem and GMEM, a630 and a660`, () => {
    for (const gpu of GPUS) {
      const cfg = tile6ConfigFor(gpu);
      const lin = render(desc(gpu, fmt, samples, false), gpu);
      assert.deepEqual(ids(lin.diag), []);
      const want = linearDepth(lin);
      assert.ok(new Set(want).size > 8, 'the depth buffer holds varied values');
      const planes: Uint8Array[] = [];
      for (const gmem of [undefined, {}, { bin: { w: 32, h: 16 } }]) {
        const what = `${fmt} ${gpu} ${gmem ? `GMEM ${JSON.stringify(gmem)}` : 'sysmem'}`;
        const r = render(desc(gpu, fmt, samples, true), gpu, gmem);
        assert.deepEqual(ids(r.diag), [], `${what}: diagnostics`);
        assert.deepEqual(colour(r), colour(render(desc(gpu, fmt, samples, false), gpu, gmem)), `${what}: the colour target as with the linear depth buffer`);
        const lay = r.b.depth!.ubwc!.layout;
        const bytes = ubwcPlanes(r);
        const d = new Diagnostics();
        assert.deepEqual(ubwcToLinear(bytes, lay, clearOf(fmt), d, 'depth', cfg), want, `${what}: decoded depth`);
        assert.equal(d.size, 0, `${what}: the flags decode cleanly`);
        const ref = linearToUbwc(want, lay, clearOf(fmt), cfg);
        for (let by = 0; by < lay.blocksY; by++)
          for (let bx = 0; bx < lay.blocksX; bx++) assert.equal(bytes[by * lay.metaPitch + bx], ref[by * lay.metaPitch + bx], `${what}: flag of block ${bx},${by}`);
        planes.push(bytes.subarray(0, lay.metaSize));
      }
      for (const p of planes.slice(1)) assert.deepEqual(p, planes[0], `${fmt} ${gpu}: the same flags in every mode`);
      const lay = render(desc(gpu, fmt, samples, true), gpu).b.depth!.ubwc!.layout;
      const flags = Array.from({ length: lay.blocksY }, (_, by) => [...planes[0]!.subarray(by * lay.metaPitch, by * lay.metaPitch + lay.blocksX)]).flat();
      if (fmt === 'DEPTH6_24_8') {
        // Depth 1 / stencil 0 (the clear: flag 0x09) and depth 0 (the z = 0 triangle: 0x01) blocks are fast-cleared, the rest stored.
        assert.ok(flags.includes(0x09) && flags.includes(0x01) && flags.includes(0x1f), `${gpu}: D24S8 flags ${[...new Set(flags)].map((f) => f.toString(16))}`);
      } else assert.ok(flags.every((f) => f === 0x1f), `${fmt}: no clear encoding, every block stored`);
    }
  });
}

// --- reading back: the TP, CP_BLIT, the GMEM restore ----------------------------------------

const TMP = mkdtempSync(join(tmpdir(), 'ubwc-depth-'));
let seq = 0;
/** isam (f32) of texel (x, y) per lane from one 2D texture descriptor over `bytes`; returns r3.x per lane. */
function isam(gpuId: number, bytes: Uint8Array, desc: (addr: number) => number[], pts: readonly [number, number][]): { v: Float32Array; diag: string[] } {
  const input = new Uint32Array(512);
  pts.forEach(([x, y], l) => { input[l * 8] = x; input[l * 8 + 1] = y; });
  const file = join(TMP, `in${seq++}.bin`);
  writeFileSync(file, new Uint8Array(input.buffer));
  const m: Ir3Manifest = {
    dir: '.', shader: '(assembled)', gpuId, block: [64, 1, 1], groups: [1, 1, 1], waveSize: 64,
    localIdReg: 0, wgIdReg: 192, fullRegs: 6, halfRegs: 0, sharedSize: 0, constlen: 1, consts: new Uint32Array(4),
    buffers: [{ name: 'o', kind: 'ssbo', type: 'u32', count: 256, ibo: 0 }, { name: 'in', kind: 'ssbo', type: 'u32', count: 512, ibo: 1, file }],
    outputs: ['o'], expect: {},
  };
  const body = `shl.b r4.x, r0.x, 3\nshl.b r4.y, r0.x, 2\n(rpt5)nop\nadd.u r4.z, r4.x, 4\n(rpt5)nop\nldib.b.untyped.1d.u32.4.imm r1.x, r4.x, 1\nldib.b.untyped.1d.u32.4.imm r2.x, r4.z, 1\n(rpt5)nop\n(sy)isam (f32)(xyzw)r3.x, r1.x, s#0, t#0\n(rpt5)nop\n(sy)stib.b.untyped.1d.u32.4.imm r3.x, r4.y, 0\nend\n`;
  const ls6 = (type: string, n: number): number => encodeFields('CP_LOAD_STATE6.0', { DST_OFF: 0, STATE_TYPE: type, STATE_SRC: 'SS6_INDIRECT', STATE_BLOCK: 'SB6_CS_TEX', NUM_UNIT: n }, 'a6xx');
  const r = runIr3Dispatch(m, {
    words: assembleIr3(body, { gpuId }),
    state: (cs, alloc) => {
      const a = alloc(bytes, 'depth texture').base;
      const t = alloc(new Uint8Array(new Uint32Array(desc(a)).buffer), 'tex descriptor');
      cs.pkt('CP_LOAD_STATE6_FRAG', [ls6('ST6_CONSTANTS', 1), lo32(t.base), hi32(t.base)]);
      const s = alloc(new Uint8Array(16), 'sampler');
      cs.pkt('CP_LOAD_STATE6_FRAG', [ls6('ST6_SHADER', 1), lo32(s.base), hi32(s.base)]);
    },
  });
  const o = new Float32Array(r.buffers.get('o')!.buffer.slice(0));
  return { v: Float32Array.from(pts, (_, l) => o[l * 4]!), diag: r.diag.list.map((x) => x.id) };
}

test('the TP samples a UBWC depth buffer (FLAG texture, D24S8 and D32F) as the linear render\'s depths', () => {
  // a630 only: the compute dispatch runner lays TILE6_3 out with a630's bank configuration whatever its gpuId.
  for (const gpu of ['a630'] as const)
    for (const fmt of ['DEPTH6_24_8', 'DEPTH6_32'] as const) {
      const lin = linearDepth(render(desc(gpu, fmt, 1, false), gpu));
      const r = render(desc(gpu, fmt, 1, true), gpu);
      const u = r.b.depth!.ubwc!;
      const { width: W, height: H } = r.d;
      const pts = Array.from({ length: 64 }, (_, l): [number, number] => [(l * 13 + 3) % W, (l * 29 + 5) % H]);
      const { v, diag } = isam(GPU_ID[gpu], ubwcPlanes(r), (a) => {
        const d = new Array<number>(16).fill(0);
        d[0] = encodeFields('A6XX_TEX_CONST.0', { TILE_MODE: 'TILE6_3', SWIZ_X: 'A6XX_TEX_X', SWIZ_Y: 'A6XX_TEX_Y', SWIZ_Z: 'A6XX_TEX_Z', SWIZ_W: 'A6XX_TEX_W', FMT: AS_COLOR[fmt], SWAP: 'WZYX' }, 'a6xx');
        d[1] = encodeFields('A6XX_TEX_CONST.1', { WIDTH: W, HEIGHT: H }, 'a6xx');
        d[2] = encodeFields('A6XX_TEX_CONST.2', { PITCH: u.layout.pitch, TYPE: 'A6XX_TEX_2D' }, 'a6xx');
        d[3] = encodeFields('A6XX_TEX_CONST.3', { FLAG: true, TILE_ALL: true }, 'a6xx');
        d[4] = encodeFields('A6XX_TEX_CONST.4', { BASE_LO: lo32(a + u.layout.dataOffset) }, 'a6xx');
        d[5] = encodeFields('A6XX_TEX_CONST.5', { BASE_HI: hi32(a + u.layout.dataOffset), DEPTH: 1 }, 'a6xx');
        d[7] = encodeFields('A6XX_TEX_CONST.7', { FLAG_LO: lo32(a) }, 'a6xx');
        d[8] = encodeFields('A6XX_TEX_CONST.8', { FLAG_HI: hi32(a) }, 'a6xx');
        d[10] = encodeFields('A6XX_TEX_CONST.10', { FLAG_BUFFER_PITCH: u.flagPitch }, 'a6xx');
        return d;
      }, pts);
      assert.deepEqual(diag, [], `${gpu} ${fmt}`);
      const dv = new DataView(lin.buffer);
      pts.forEach(([x, y], l) => {
        const raw = dv.getUint32((y * W + x) * 4, true);
        const want = fmt === 'DEPTH6_32' ? dv.getFloat32((y * W + x) * 4, true) : Math.fround((raw & 0xffffff) / 0xffffff);
        assert.ok(Math.abs(v[l]! - want) <= 2 ** -24, `${gpu} ${fmt} texel (${x}, ${y}): ${v[l]} vs ${want}`);
      });
      assert.ok(new Set(v).size > 4, 'varied depths sampled');
    }
});

test('CP_BLIT out of a UBWC D32F depth buffer and a GMEM restore of a UBWC D24S8 one give the linear render\'s bytes', () => {
  for (const gpu of GPUS) {
    // CP_BLIT (the 2D engine; FMT6_32_FLOAT source with FLAGS) to a linear surface.
    const want32 = linearDepth(render(desc(gpu, 'DEPTH6_32', 1, false), gpu));
    const r = render(desc(gpu, 'DEPTH6_32', 1, true), gpu);
    const u = r.b.depth!;
    const { width: W, height: H } = r.d;
    const pitch = W * 4;
    const dst = r.b.mem.alloc(pitch * H, 'copy', 0x1000);
    const F = 'FMT6_32_FLOAT';
    const cs = new CmdStream();
    cs.event('PC_CCU_FLUSH_DEPTH_TS');
    const cntl = { COLOR_FORMAT: F, IFMT: 'R2D_FLOAT32' };
    cs.reg('GRAS_2D_BLIT_CNTL', cntl).reg('RB_2D_BLIT_CNTL', cntl);
    cs.reg('GRAS_2D_DST_TL', { X: 0, Y: 0 }).reg('GRAS_2D_DST_BR', { X: W - 1, Y: H - 1 });
    cs.reg('RB_2D_DST_INFO', { COLOR_FORMAT: F, TILE_MODE: 'TILE6_LINEAR', COLOR_SWAP: 'WZYX' });
    cs.reg64('RB_2D_DST', dst.base).reg('RB_2D_DST_PITCH', pitch >> 6);
    cs.reg('SP_2D_DST_FORMAT', { COLOR_FORMAT: F });
    cs.reg('GRAS_2D_SRC_TL_X', 0).reg('GRAS_2D_SRC_TL_Y', 0).reg('GRAS_2D_SRC_BR_X', (W - 1) << 8).reg('GRAS_2D_SRC_BR_Y', (H - 1) << 8);
    cs.reg('SP_PS_2D_SRC_INFO', { COLOR_FORMAT: F, TILE_MODE: 'TILE6_3', COLOR_SWAP: 'WZYX', FLAGS: true });
    cs.reg('SP_PS_2D_SRC_SIZE', { WIDTH: W, HEIGHT: H });
    cs.reg64('SP_PS_2D_SRC', u.base).reg('SP_PS_2D_SRC_PITCH', { PITCH: u.pitch });
    cs.reg64('SP_PS_2D_SRC_FLAGS', u.ubwc!.flags).reg('SP_PS_2D_SRC_FLAGS_PITCH', u.ubwc!.flagPitch >> 6);
    cs.pkt('CP_BLIT', [enumValue('cp_blit_cmd', 'BLIT_OP_SCALE', 'a6xx')!]);
    const ib = r.b.mem.alloc(cs.bytes().length, 'ib', 0x1000, cs.bytes());
    assert.equal(r.cp.run(ib.base, cs.dwords().length), 'done');
    assert.deepEqual(ids(r.diag), [], gpu);
    assert.deepEqual(r.b.mem.readBytes(dst.base, pitch * H), want32, `${gpu}: CP_BLIT copy of the UBWC D32F buffer`);

    // The BLIT event: restore the UBWC D24S8 buffer into GMEM (one bin over the image), then resolve it to a linear surface.
    const want24 = linearDepth(render(desc(gpu, 'DEPTH6_24_8', 1, false), gpu));
    const g = render(desc(gpu, 'DEPTH6_24_8', 1, true), gpu, {});
    const dz = g.b.depth!;
    const out = g.b.mem.alloc(pitch * H, 'restored', 0x1000);
    const info = gmemInfo(GPU_ID[gpu]);
    const layout = binLayout({ width: W, height: H, cpps: [4], budget: 1 << 20, alignW: info.tileAlignW, alignH: info.tileAlignH, maxW: info.tileMaxW, maxH: info.tileMaxH, numPipes: info.numVscPipes, bin: { w: W, h: H } });
    const fmt = 'FMT6_Z24_UNORM_S8_UINT';
    const load = emitGmemPass(new CmdStream(), { gpuId: GPU_ID[gpu], layout, targets: [{ iova: dz.base, pitch: dz.pitch, format: fmt, depth: true, tile: 'TILE6_3', flags: { iova: dz.ubwc!.flags, pitch: dz.ubwc!.flagPitch }, load: true, store: false }] });
    const store = emitGmemPass(new CmdStream(), { gpuId: GPU_ID[gpu], layout, targets: [{ iova: out.base, pitch, format: fmt, depth: true }] });
    for (const p of [load, store]) {
      const seg = g.b.mem.alloc(p.bytes().length, 'pass', 0x1000, p.bytes());
      g.cp.run(seg.base, p.dwords().length);
    }
    assert.deepEqual(ids(g.diag), [], gpu);
    assert.deepEqual(g.b.mem.readBytes(out.base, pitch * H), want24, `${gpu}: UBWC D24S8 restored into GMEM and resolved linear`);
  }
});

// --- the checks ------------------------------------------------------------------------------

/** Rewrite the value of the first PKT4 write of `reg` (a name or a register offset) in a built stream. */
function patchReg(b: BuiltDraw, reg: string | number, value: number): void {
  const off = typeof reg === 'number' ? reg : gpuRegs(b.gen).reg(reg);
  for (let k = 0; k < b.stream.length;) {
    const h = decodeHeader(b.stream[k]!, b.gen);
    if (h.type === 4 && off >= h.reg && off < h.reg + h.count) {
      b.mem.write32(b.streamIova + 4 * (k + 1 + off - h.reg), value >>> 0);
      return;
    }
    k += 1 + h.count;
  }
  throw new Error(`${reg} not written`);
}
function runPatched(d: GfxScene, gpu: A6xxGpu, patch: (b: BuiltDraw) => void): Diagnostics {
  const b = buildDraw(d);
  patch(b);
  const diag = new Diagnostics();
  new CommandProcessor(b.mem, { diag, gpuId: GPU_ID[gpu] }).run(b.streamIova, b.stream.length);
  return diag;
}

test('depth flag buffer checks (overlap, pitch, unmapped), 2-byte UBWC depth, and the gen1 depth-bounds quirk', () => {
  const d = desc('a630', 'DEPTH6_24_8', 1, true);
  assert.deepEqual(ids(runPatched(d, 'a630', () => {})), []);
  const db = gpuRegs('a6xx');
  const enc = (reg: string, f: Record<string, number | boolean>): number => encodeFields(db.at(db.reg(reg))!.type, f, 'a6xx');
  assert.deepEqual(ids(runPatched(d, 'a630', (b) => patchReg(b, 'RB_DEPTH_FLAG_BUFFER_BASE', lo32(b.depth!.base + 256)))), ['adreno.rb.ubwc-flag-overlap']);
  assert.deepEqual(ids(runPatched(d, 'a630', (b) => patchReg(b, 'RB_DEPTH_FLAG_BUFFER_PITCH', enc('RB_DEPTH_FLAG_BUFFER_PITCH', { PITCH: 0 })))), ['adreno.rb.ubwc-flag-pitch']);
  const unmapped = runPatched(d, 'a630', (b) => patchReg(b, db.reg('RB_DEPTH_FLAG_BUFFER_BASE') + 1, 0x7f));
  // (The CCU's write of the flag plane faults too, as for the MRTs.)
  assert.deepEqual(ids(unmapped).sort(), ['adreno.cp.iova-fault', 'adreno.rb.ubwc-flag-unmapped']);
  assert.ok(unmapped.list.some((x) => x.id === 'adreno.cp.draw-not-run'), 'the draw is not run');
  // FLAG_DEPTH on a 1x D16 buffer (2 bytes a pixel): the flag layout of 2-byte pixels is not modelled, the draw is not run.
  const d16 = runPatched(desc('a630', 'DEPTH6_16', 1, false), 'a630', (b) => patchReg(b, 'RB_RENDER_CNTL', enc('RB_RENDER_CNTL', { CCUSINGLECACHELINESIZE: 2, FLAG_DEPTH: true })));
  assert.ok(d16.list.some((x) => x.id === 'adreno.cp.draw-not-run' && x.message.includes('FLAG_DEPTH')), 'D16 UBWC: draw not run, saying why');
  // Depth bounds without the depth test on a UBWC depth buffer: a630 (gen1) needs the test; a660 (gen4) does not.
  const bounds = (gpu: A6xxGpu, ubwc: boolean): string[] => ids(render(desc(gpu, 'DEPTH6_24_8', 1, ubwc, { depthTest: false, depthBounds: [0, 1] }), gpu).diag);
  assert.deepEqual(bounds('a630', true), ['adreno.rb.ubwc-depth-bounds-without-test']);
  assert.deepEqual(bounds('a630', false), []);
  assert.deepEqual(bounds('a660', true), []);
});

test('a UBWC depth + depth clamp scene: the capture decodes in cffdump format with the flag and clamp registers, and re-runs the same', () => {
  const s = JSON.parse(readFileSync(join(DIR, 'scene.json'), 'utf8')) as Record<string, unknown>;
  const scene = { ...s, depth: { format: 'Z_32_FLOAT', clear: 1 }, state: { depthFunc: 'FRAG_LESS', depthClamp: true }, a6xx: { depthTile: 'UBWC' } };
  const r = runA6xxScene(scene, DIR, 'a630');
  assert.deepEqual(ids(r.diag), []);
  const lines: string[] = [];
  assert.deepEqual(cffdumpRd(r.rd, { out: (l) => lines.push(l) }).problems, []);
  const text = lines.join('\n');
  for (const want of ['FLAG_DEPTH', 'RB_DEPTH_FLAG_BUFFER_BASE', 'RB_DEPTH_FLAG_BUFFER_PITCH: { PITCH = 64 | ARRAY_PITCH = 1024 }', 'ZNEAR_CLIP_DISABLE | ZFAR_CLIP_DISABLE | Z_CLAMP_ENABLE', 'RB_Z_CLAMP_MAX: 1.000000', 'GRAS_CL_Z_CLAMP[0].MAX: 1.000000'])
    assert.ok(text.includes(want), `cffdump shows ${want}`);
  const again = runRd(r.rd, {}, 'ubwc-depth.rd');
  assert.deepEqual(ids(again.diag), []);
  assert.deepEqual(drawRuns(again.cp).map((d) => d.result?.rb.samplesWritten), r.draws.map((d) => d.result?.rb.samplesWritten));
});
