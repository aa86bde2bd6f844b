/**
 * The a6xx 3D pipeline rendering into UBWC colour targets (rb/ubwc-target.ts, the GMEM BLIT
 * resolve, driver/sysmem.ts's "a6xx": { "tile": "UBWC" }): the example scenes rendered
 * compressed decode (ubwc/ubwc.ts) to the linear render, sysmem and GMEM, a630 and a660; the
 * flag plane holds what ubwc.ts's encoder writes for the same pixels; a CP_BLIT out of the UBWC
 * target equals the linear render; the capture decodes; the flag buffer checks fire and stay
 * quiet; and the register fields against a real capture's cffdump text.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { a6xxSceneDescription, runA6xxScene, type A6xxGpu } from '../../src/runtime/draw-a6xx.js';
import { buildDraw, type BuiltDraw, type GfxScene } from '../../src/adreno/driver/sysmem.js';
import { gmemDraw } from '../../src/adreno/driver/gmem.js';
import { CommandProcessor } from '../../src/adreno/cp/cp.js';
import { CmdStream } from '../../src/adreno/cp/builder.js';
import { decodeHeader } from '../../src/adreno/cp/pm4.js';
import { cffdumpRd } from '../../src/adreno/cp/cffdump.js';
import { Diagnostics } from '../../src/core/diagnostics.js';
import { decodeFields, enumValue, gpuRegs } from '../../src/adreno/regs/db.js';
import { tile6ConfigFor } from '../../src/adreno/ubwc/tile6.js';
import { decodeFlag, linearToUbwc, ubwcToLinear } from '../../src/adreno/ubwc/ubwc.js';

const EXAMPLES = join(import.meta.dirname, '..', '..', '..', 'examples');
const CAPTURES = join(import.meta.dirname, '..', '..', '..', '..', 'shared', 'adreno-captures');
const scene = (name: string): Record<string, unknown> => JSON.parse(readFileSync(join(EXAMPLES, name, 'scene.json'), 'utf8')) as Record<string, unknown>;
const ubwc = (s: Record<string, unknown>): Record<string, unknown> => ({ ...s, a6xx: { ...((s['a6xx'] as object | undefined) ?? {}), tile: 'UBWC' } });
const ids = (d: Diagnostics): string[] => [...new Set(d.list.filter((x) => x.severity !== 'info').map((x) => x.id))];
const GPUS: readonly A6xxGpu[] = ['a630', 'a660'];
const GPU_ID: Record<A6xxGpu, number> = { a630: 630, a660: 660 };

/** Build a scene (optionally as a GMEM pass) and run it; the built memory stays readable. */
function render(name: string, gpu: A6xxGpu, o: { ubwc: boolean; gmem?: { bin?: { w: number; h: number } }; samples?: number }): { b: BuiltDraw; cp: CommandProcessor; diag: Diagnostics; desc: GfxScene } {
  const s = o.samples ? { ...scene(name), samples: o.samples } : scene(name);
  const desc = a6xxSceneDescription(o.ubwc ? ubwc(s) : s, join(EXAMPLES, name), gpu);
  const b = buildDraw(desc);
  const diag = new Diagnostics();
  const cp = new CommandProcessor(b.mem, { diag, gpuId: GPU_ID[gpu], tile6: tile6ConfigFor(gpu) });
  if (o.gmem) {
    const g = gmemDraw(b, desc, o.gmem);
    cp.run(g.streamIova, g.streamDwords);
  } else cp.run(b.streamIova, b.stream.length);
  return { b, cp, diag, desc };
}

/** The linear render's pixels, tightly packed. */
function linearPixels(r: { b: BuiltDraw; desc: GfxScene }): Uint8Array {
  const t = r.b.targets[0]!;
  const row = r.desc.width * t.cpp * r.desc.samples;
  const out = new Uint8Array(row * r.desc.height);
  for (let y = 0; y < r.desc.height; y++) out.set(r.b.mem.readBytes(t.base + y * t.pitch, row), y * row);
  return out;
}

/** The UBWC render's flag and pixel planes. */
function ubwcBytes(r: { b: BuiltDraw }): Uint8Array {
  const u = r.b.targets[0]!.ubwc!;
  return r.b.mem.readBytes(u.flags, u.layout.dataOffset + u.layout.dataSize);
}

for (const name of ['triangle', 'blend']) {
  test(`examples/${name} rendered into UBWC decodes to the linear render (sysmem and GMEM, a630 and a660)`, () => {
    for (const gpu of GPUS) {
      const cfg = tile6ConfigFor(gpu);
      const lin = render(name, gpu, { ubwc: false });
      assert.deepEqual(ids(lin.diag), []);
      const want = linearPixels(lin);
      const planes: Uint8Array[] = [];
      for (const gmem of [undefined, {}, { bin: { w: 32, h: 16 } }]) {
        const what = `${name} ${gpu} ${gmem ? `GMEM ${JSON.stringify(gmem)}` : 'sysmem'}`;
        const r = render(name, gpu, { ubwc: true, ...(gmem ? { gmem } : {}) });
        assert.deepEqual(ids(r.diag), [], `${what}: diagnostics`);
        const lay = r.b.targets[0]!.ubwc!.layout;
        const bytes = ubwcBytes(r);
        const d = new Diagnostics();
        assert.deepEqual(ubwcToLinear(bytes, lay, { alphaByte: 3 }, d, 'rt', cfg), want, `${what}: decoded pixels`);
        assert.equal(d.size, 0, `${what}: the flags decode cleanly`);
        // The flag plane is what ubwc.ts's encoder writes for the linear render's pixels.
        const ref = linearToUbwc(want, lay, { alphaByte: 3 }, cfg);
        for (let by = 0; by < lay.blocksY; by++)
          for (let bx = 0; bx < lay.blocksX; bx++) assert.equal(bytes[by * lay.metaPitch + bx], ref[by * lay.metaPitch + bx], `${what}: flag of block ${bx},${by}`);
        planes.push(bytes.subarray(0, lay.metaSize));
      }
      // Both render modes and every bin size leave the same flags.
      for (const p of planes.slice(1)) assert.deepEqual(p, planes[0]);
      const flags = [...planes[0]!.subarray(0, 4)].map(decodeFlag);
      // blend (4x MSAA, 4x4-pixel blocks) clears to opaque white: untouched blocks are fast-cleared; triangle's grey is stored whole.
      assert.equal(flags[0]!.kind, name === 'blend' ? 'clear' : 'data', `${name}: block 0's flag`);
    }
  });
}

test('a UBWC target the scene runner reads back equals the linear one; the capture decodes with the flag registers', () => {
  for (const gpu of GPUS) {
    const s = scene('blend');
    const lin = runA6xxScene(s, join(EXAMPLES, 'blend'), gpu);
    const u = runA6xxScene(ubwc(s), join(EXAMPLES, 'blend'), gpu, { bin: { w: 32, h: 32 } });
    assert.deepEqual(ids(u.diag), []);
    assert.deepEqual(u.targets[0]!.data, lin.targets[0]!.data, gpu);
  }
  const r = runA6xxScene(ubwc(scene('triangle')), join(EXAMPLES, 'triangle'), 'a630');
  const lines: string[] = [];
  assert.deepEqual(cffdumpRd(r.rd, { out: (l) => lines.push(l) }).problems, []);
  const text = lines.join('\n');
  for (const want of ['RB_MRT_FLAG_BUFFER[0].ADDR', 'RB_MRT_FLAG_BUFFER[0].PITCH: { PITCH = 64', 'FLAG_MRTS = 0x1', 'COLOR_TILE_MODE = TILE6_3']) assert.ok(text.includes(want), `cffdump shows ${want}`);
});

test('CP_BLIT from the UBWC render target to a linear surface equals the linear render', () => {
  for (const gpu of GPUS) {
    // The 4x scene: the driver's own MSAA resolve (CP_BLIT, SP_PS_2D_SRC FLAGS, samples averaged) out of the UBWC target.
    const ms = [false, true].map((u) => render('blend', gpu, { ubwc: u }));
    const resolved = ms.map((r) => r.b.mem.readBytes(r.b.resolved![0]!.base, r.b.resolved![0]!.pitch * r.desc.height));
    assert.deepEqual(ids(ms[1]!.diag), []);
    assert.deepEqual(resolved[1], resolved[0], `${gpu}: MSAA resolve out of UBWC`);
    // Single-sampled: a plain copy of the whole target.
    const want = linearPixels(render('blend', gpu, { ubwc: false, samples: 1 }));
    const r = render('blend', gpu, { ubwc: true, samples: 1 });
    assert.ok([...r.b.mem.readBytes(r.b.targets[0]!.ubwc!.flags, 4)].some((f) => decodeFlag(f).kind === 'clear'), 'the source has fast-cleared blocks');
    const t = r.b.targets[0]!;
    const { width: W, height: H } = r.desc;
    const pitch = W * 4;
    const dst = r.b.mem.alloc(pitch * H, 'copy', 0x1000);
    const F = 'FMT6_8_8_8_8_UNORM';
    const cs = new CmdStream();
    cs.event('PC_CCU_FLUSH_COLOR_TS');
    const cntl = { COLOR_FORMAT: F, IFMT: 'R2D_UNORM8' };
    cs.reg('GRAS_2D_BLIT_CNTL', cntl).reg('RB_2D_BLIT_CNTL', cntl);
    cs.reg('GRAS_2D_DST_TL', { X: 0, Y: 0 }).reg('GRAS_2D_DST_BR', { X: W - 1, Y: H - 1 });
    cs.reg('RB_2D_DST_INFO', { COLOR_FORMAT: F, TILE_MODE: 'TILE6_LINEAR', COLOR_SWAP: 'WZYX' });
    cs.reg64('RB_2D_DST', dst.base).reg('RB_2D_DST_PITCH', pitch >> 6);
    cs.reg('SP_2D_DST_FORMAT', { COLOR_FORMAT: F, NORM: true });
    cs.reg('GRAS_2D_SRC_TL_X', 0).reg('GRAS_2D_SRC_TL_Y', 0).reg('GRAS_2D_SRC_BR_X', (W - 1) << 8).reg('GRAS_2D_SRC_BR_Y', (H - 1) << 8);
    cs.reg('SP_PS_2D_SRC_INFO', { COLOR_FORMAT: F, TILE_MODE: 'TILE6_3', COLOR_SWAP: 'WZYX', FLAGS: true });
    cs.reg('SP_PS_2D_SRC_SIZE', { WIDTH: W, HEIGHT: H });
    cs.reg64('SP_PS_2D_SRC', t.base).reg('SP_PS_2D_SRC_PITCH', { PITCH: t.pitch });
    cs.reg64('SP_PS_2D_SRC_FLAGS', t.ubwc!.flags).reg('SP_PS_2D_SRC_FLAGS_PITCH', t.ubwc!.flagPitch >> 6);
    cs.pkt('CP_BLIT', [enumValue('cp_blit_cmd', 'BLIT_OP_SCALE', 'a6xx')!]);
    const ib = r.b.mem.alloc(cs.bytes().length, 'ib', 0x1000, cs.bytes());
    assert.equal(r.cp.run(ib.base, cs.dwords().length), 'done');
    assert.deepEqual(ids(r.diag), [], gpu);
    assert.deepEqual(r.b.mem.readBytes(dst.base, pitch * H), want, `${gpu}: the copy`);
  }
});

// --- the flag buffer checks -------------------------------------------------------------------

/** Rewrite the value of the first PKT4 write of `reg` in a built stream (memory and the stream copy). */
function patchReg(b: BuiltDraw, reg: string, value: number): void {
  const off = gpuRegs(b.gen).reg(reg);
  for (let k = 0; k < b.stream.length;) {
    const h = decodeHeader(b.stream[k]!, b.gen);
    if (h.type === 4 && off >= h.reg && off < h.reg + h.count) {
      const at = k + 1 + off - h.reg;
      b.mem.write32(b.streamIova + 4 * at, value >>> 0);
      return;
    }
    k += 1 + h.count;
  }
  throw new Error(`${reg} not written`);
}

function runPatched(patch: (b: BuiltDraw) => void): Diagnostics {
  const desc = a6xxSceneDescription(ubwc(scene('triangle')), join(EXAMPLES, 'triangle'), 'a630');
  const b = buildDraw(desc);
  patch(b);
  const diag = new Diagnostics();
  new CommandProcessor(b.mem, { diag, gpuId: 630 }).run(b.streamIova, b.stream.length);
  return diag;
}

test('adreno.rb.ubwc-flag-overlap / -pitch / -unmapped fire on a wrong RB_MRT_FLAG_BUFFER, quiet on the driver\'s', () => {
  assert.deepEqual(ids(runPatched(() => {})), []);
  // The flag plane moved onto the pixel plane.
  // (The corruption it warns of follows: flag bytes written over pixels read back as compressed tiles.)
  const over = runPatched((b) => patchReg(b, 'RB_MRT_FLAG_BUFFER[0].ADDR', b.targets[0]!.base + 0x100));
  assert.equal(ids(over)[0], 'adreno.rb.ubwc-flag-overlap');
  // A flag pitch of 0: every row of flags on the same bytes.
  const pitch = runPatched((b) => patchReg(b, 'RB_MRT_FLAG_BUFFER[0].PITCH', 0));
  assert.deepEqual(ids(pitch), ['adreno.rb.ubwc-flag-pitch']);
  // An address nothing maps: reported, the CCU's write-back to it faults, and the draw is not run.
  const gone = runPatched((b) => patchReg(b, 'RB_MRT_FLAG_BUFFER[0].ADDR', 0x7fff0000));
  assert.deepEqual(ids(gone).sort(), ['adreno.cp.iova-fault', 'adreno.rb.ubwc-flag-unmapped']);
  assert.ok(gone.list.some((d) => d.id === 'adreno.cp.draw-not-run'));
});

test('adreno.rb.ubwc-flag-overlap fires on a GMEM resolve whose RB_BLIT_FLAG_DST lies in the pixel plane', () => {
  const desc = a6xxSceneDescription(ubwc(scene('triangle')), join(EXAMPLES, 'triangle'), 'a630');
  const b = buildDraw(desc);
  const t = b.targets[0]!;
  // The same pass with the resolve's flag buffer on the pixel plane.
  const bad: BuiltDraw = { ...b, targets: [{ ...t, ubwc: { ...t.ubwc!, flags: t.base } }] };
  const g = gmemDraw(bad, desc, {});
  const diag = new Diagnostics();
  new CommandProcessor(b.mem, { diag, gpuId: 630 }).run(g.streamIova, g.streamDwords);
  assert.equal(ids(diag)[0], 'adreno.rb.ubwc-flag-overlap');
  // The driver's own pass is quiet.
  const ok = new Diagnostics();
  const b2 = buildDraw(desc);
  const g2 = gmemDraw(b2, desc, {});
  new CommandProcessor(b2.mem, { diag: ok, gpuId: 630 }).run(g2.streamIova, g2.streamDwords);
  assert.deepEqual(ids(ok), []);
});

test('UBWC needs a tiled MRT: FLAG_MRTS on a TILE6_LINEAR target is not rendered', () => {
  const diag = runPatched((b) => {
    const off = gpuRegs(b.gen).reg('RB_MRT[0].BUF_INFO');
    for (let k = 0; k < b.stream.length;) {
      const h = decodeHeader(b.stream[k]!, b.gen);
      if (h.type === 4 && h.reg === off) {
        const at = b.streamIova + 4 * (k + 1);
        const v = b.mem.read32(at);
        const f = decodeFields(gpuRegs(b.gen).at(off)!.type, v, 0, b.gen);
        assert.equal(f['COLOR_TILE_MODE'], enumValue('a6xx_tile_mode', 'TILE6_3', 'a6xx'));
        b.mem.write32(at, v & ~(3 << 8)); // COLOR_TILE_MODE = TILE6_LINEAR
      }
      k += 1 + h.count;
    }
  });
  const notRun = diag.list.filter((d) => d.id === 'adreno.cp.draw-not-run');
  assert.ok(notRun.length > 0 && notRun.every((d) => d.message.includes('ubwc requires tiling')));
});

// --- real input ---------------------------------------------------------------------------------

test('RB_RENDER_CNTL and RB_MRT_FLAG_BUFFER as a real a630 capture\'s cffdump prints them', (t) => {
  const log = join(CAPTURES, 'reference', 'fd-clouds.log');
  if (!existsSync(log)) return t.skip('../shared/adreno-captures absent');
  const text = readFileSync(log, 'utf8');
  const db = gpuRegs('a6xx');
  // "!+ 00000010 RB_RENDER_CNTL: { CCUSINGLECACHELINESIZE = 0x2 | RASTER_MODE = ... | FLAG_MRTS = 0 }"
  const seen = [...text.matchAll(/^[!+ ]*\s*([0-9a-f]{8})\s+RB_RENDER_CNTL: \{([^}]*)\}/gm)];
  assert.ok(seen.length > 0, 'the capture writes RB_RENDER_CNTL');
  for (const m of seen) {
    const f = decodeFields(db.at(db.reg('RB_RENDER_CNTL'))!.type, parseInt(m[1]!, 16), 0, 'a6xx');
    const printed = Object.fromEntries(m[2]!.split('|').map((p) => p.trim().split(' = ')).filter((p) => p.length === 2).map(([k, v]) => [k, v]));
    assert.equal(f['CCUSINGLECACHELINESIZE'], Number(printed['CCUSINGLECACHELINESIZE']));
    assert.equal(f['FLAG_MRTS'], Number(printed['FLAG_MRTS']));
  }
  // The driver emits the value freedreno does (CCUSINGLECACHELINESIZE 2, no BINNING), with FLAG_MRTS 0 for a linear target.
  const desc = a6xxSceneDescription(scene('triangle'), join(EXAMPLES, 'triangle'), 'a630');
  const b = buildDraw(desc);
  const off = db.reg('RB_RENDER_CNTL');
  let emitted: number | undefined;
  for (let k = 0; k < b.stream.length;) {
    const h = decodeHeader(b.stream[k]!, b.gen);
    if (h.type === 4 && h.reg === off) emitted = b.stream[k + 1];
    k += 1 + h.count;
  }
  const rendering = seen.map((m) => parseInt(m[1]!, 16)).filter((v) => !(v & 0x80)); // not the binning pass
  assert.ok(rendering.includes(emitted!), `the driver's RB_RENDER_CNTL 0x${emitted?.toString(16)} is one the capture uses`);
});

test('RB_MRT_FLAG_BUFFER pitches in the real captures follow fdl6 (when one renders compressed)', (t) => {
  const log = join(CAPTURES, 'reference', 'fd-clouds.log');
  if (!existsSync(log)) return t.skip('../shared/adreno-captures absent');
  const text = readFileSync(log, 'utf8');
  assert.ok(/RB_MRT_FLAG_BUFFER\[0\]\.PITCH: \{ PITCH = \d+ \| ARRAY_PITCH = \d+ \}/.test(text), 'the capture programs RB_MRT_FLAG_BUFFER (fields as the model names them)');
  // Flag buffers: validate their pitch alignment when a capture renders compressed; none of the stored ones does.
  const flags = [...text.matchAll(/RB_MRT_FLAG_BUFFER\[(\d)\]\.PITCH: \{ PITCH = (\d+)/g)].filter((m) => Number(m[2]) > 0);
  if (!flags.length) return t.skip('no capture renders into a UBWC colour buffer (every RB_MRT_FLAG_BUFFER PITCH is 0)');
  for (const m of flags) assert.equal(Number(m[2]) % 64, 0, 'fdl6 aligns the flag pitch to 64');
});

test('the UBWC scene\'s .rd capture runs again through `adreno run` to the same flag and pixel planes', async () => {
  const { drawRd } = await import('../../src/adreno/driver/sysmem.js');
  const { runRd } = await import('../../src/adreno/run.js');
  const desc = a6xxSceneDescription({ ...ubwc(scene('blend')), samples: 1 }, join(EXAMPLES, 'blend'), 'a630');
  const b = buildDraw(desc);
  const rd = drawRd(b, 630);
  new CommandProcessor(b.mem, { diag: new Diagnostics(), gpuId: 630 }).run(b.streamIova, b.stream.length);
  const again = runRd(rd, {}, 'blend-ubwc.rd');
  assert.deepEqual(ids(again.diag), []);
  const u = b.targets[0]!.ubwc!;
  const n = u.layout.dataOffset + u.layout.dataSize;
  assert.deepEqual(again.cp.mem.readBytes(u.flags, n), b.mem.readBytes(u.flags, n));
});
