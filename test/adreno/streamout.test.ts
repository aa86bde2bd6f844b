/**
 * VPC stream-out (cp/handlers-so.ts, vpc/streamout.ts) and CP_DRAW_AUTO over what it captured:
 * the driver's transform feedback (turnip's bind / begin / end under CP_COND_REG_EXEC RENDER_MODE
 * SYSMEM | BINNING, tu6_setup_streamout's SO program) captures the VS outputs the CPU computes
 * from the vertex data; a CP_DRAW_AUTO over the capture renders the original draw's pixels, in
 * sysmem and in GMEM at several bin sizes (the capture happens once, in the binning pass); the
 * diagnostics of illegal or unpredictable stream-out state fire and stay quiet.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { runRd } from '../../src/adreno/run.js';
import { join } from 'node:path';
import { a6xxSceneDescription, runA6xxScene } from '../../src/runtime/draw-a6xx.js';
import { buildDraw, type BuiltDraw, type GfxDraw, type GfxScene, type GfxXfb } from '../../src/adreno/driver/sysmem.js';
import { gmemDraw } from '../../src/adreno/driver/gmem.js';
import { CommandProcessor } from '../../src/adreno/cp/cp.js';
import { CmdStream } from '../../src/adreno/cp/builder.js';
import { encodeFields } from '../../src/adreno/regs/db.js';
import { decodeHeader, opcode, pkt7 } from '../../src/adreno/cp/pm4.js';
import { Diagnostics } from '../../src/core/diagnostics.js';
import { runAfter } from './scene-run.js';
import { RdWriter } from '../../src/formats/rd.js';
import { cffdumpRd } from '../../src/adreno/cp/cffdump.js';

const EXAMPLES = join(import.meta.dirname, '..', '..', '..', 'examples');
const base = (): GfxScene => a6xxSceneDescription(JSON.parse(readFileSync(join(EXAMPLES, 'triangle', 'scene.json'), 'utf8')) as Record<string, unknown>, join(EXAMPLES, 'triangle'), 'a630');
const f32 = (a: number[]): Uint8Array => new Uint8Array(new Float32Array(a).buffer);
const TRI = 'DI_PT_TRILIST';
const W = 64, H = 32;
/** A rectangle in NDC as two triangles (position xyzw, colour rgba per vertex). */
function rect(x0: number, y0: number, x1: number, y1: number, c: number[]): number[] {
  const v = (x: number, y: number): number[] => [x, y, 0.5, 1, ...c];
  return [...v(x0, y0), ...v(x1, y0), ...v(x0, y1), ...v(x0, y1), ...v(x1, y0), ...v(x1, y1)];
}
const VERTS = [...rect(-1, -1, -0.25, -0.25, [1, 0, 0, 1]), ...rect(0.1, -0.9, 0.8, 0.3, [0, 1, 0, 1]), ...rect(-0.6, 0.2, 0.9, 0.95, [0, 0, 1, 1])];
/** Position (VPC 4..7) at byte 0, colour (VPC 0..3) at byte 16: the layout of the vertex buffer itself. */
const XFB = (extra: Partial<GfxXfb> = {}): GfxXfb => ({ buffer: 'cap', stride: 32, outputs: [{ loc: 4, components: 4, at: 0 }, { loc: 0, components: 4, at: 16 }], ...extra });
function scene(draws: GfxDraw[], vs?: Partial<GfxScene['vs']>, capBytes = 1024): GfxScene {
  const b = base();
  return {
    ...b, width: W, height: H, state: { ...b.state, viewport: [0, 0, W, H], scissor: [0, 0, W, H], blend: [] },
    buffers: new Map([...b.buffers, ['v', f32(VERTS)], ['cap', new Uint8Array(capBytes)]]),
    vs: { ...b.vs, inputs: [{ buffer: 'v', stride: 32, offset: 0, format: 'FMT6_32_32_32_32_FLOAT', regid: 0, mask: 0xf }, { buffer: 'v', stride: 32, offset: 16, format: 'FMT6_32_32_32_32_FLOAT', regid: 4, mask: 0xf }], ...vs },
    draws,
  };
}
interface Ran { b: BuiltDraw; cp: CommandProcessor; diag: Diagnostics; img: Uint8Array; cap: Uint8Array }
function run(d: GfxScene, gmem?: { bin?: { w: number; h: number }; patch?: (b: BuiltDraw) => void }): Ran {
  const b = buildDraw(d);
  const diag = new Diagnostics();
  const cp = new CommandProcessor(b.mem, { diag, gpuId: d.gpuId });
  if (gmem) {
    gmem.patch?.(b);
    const g = gmemDraw(b, d, gmem.bin ? { bin: gmem.bin } : {});
    cp.run(g.streamIova, g.streamDwords);
  } else cp.run(b.streamIova, b.stream.length);
  const t = b.targets[0]!;
  const img = new Uint8Array(W * H * 4);
  for (let y = 0; y < H; y++) img.set(b.mem.readBytes(t.base + y * t.pitch, W * 4), y * W * 4);
  const seg = b.segments.find((s) => s.label === 'buf:cap')!;
  return { b, cp, diag, img, cap: b.mem.readBytes(seg.base, seg.size) };
}
const problems = (d: Diagnostics): string[] => d.list.filter((x) => x.severity !== 'info').map((x) => `${x.id}: ${x.message}`);
const ids = (d: Diagnostics): string[] => [...new Set(d.list.map((x) => x.id))];
const counter = (r: Ran): number => r.b.mem.read32(r.b.segments.find((s) => s.label === 'xfb counter:cap')!.base);
const covered = (img: Uint8Array): number => {
  let n = 0;
  for (let p = 0; p < W * H; p++) if (img.subarray(p * 4, p * 4 + 4).some((c, k) => c !== img[k])) n++;
  return n;
};

test('stream-out captures the VS outputs the CPU computes from the vertex data; the counter is the bytes', () => {
  // A VS that scales x and y by c0.x = 0.5: the capture must hold fround(x * 0.5), not the input.
  const half = new Uint32Array(new Float32Array([0.5, 0, 0, 0]).buffer);
  const vs = { asm: 'mul.f r3.x, r0.x, c0.x\nmul.f r3.y, r0.y, c0.x\nmov.f32f32 r3.z, r0.z\nmov.f32f32 r3.w, r0.w\n(rpt3)mov.f32f32 r2.x, (r)r1.x\nend\n', consts: half };
  for (const offset of [0, 40]) {
    const r = run(scene([{ prim: TRI, count: 18, xfb: XFB({ offset }) }], vs));
    assert.deepEqual(problems(r.diag), []);
    const ref = new Float32Array(18 * 8);
    for (let v = 0; v < 18; v++) {
      const s = VERTS.slice(v * 8, v * 8 + 8);
      ref.set([Math.fround(s[0]! * 0.5), Math.fround(s[1]! * 0.5), s[2]!, s[3]!, ...s.slice(4)], v * 8);
    }
    assert.deepEqual(new Float32Array(r.cap.slice(offset, offset + 18 * 32).buffer), ref, `capture at byte ${offset}`);
    assert.ok(r.cap.subarray(offset + 18 * 32).every((x) => x === 0), 'nothing past the 18 records');
    assert.ok(r.cap.subarray(0, offset).every((x) => x === 0), 'nothing before the offset');
    // FLUSH_SO_0 wrote the offset in dwords from the 32-byte aligned BUFFER_BASE; the counter is bytes from the bound start.
    assert.equal(counter(r), 18 * 32);
  }
});

test('stream-out overflow: primitives that do not fit below BUFFER_SIZE are not written, the counter stops before them', () => {
  // 100 bytes: one triangle (3 x 32) fits, the second does not.
  const r = run(scene([{ prim: TRI, count: 18, xfb: XFB({ size: 100 }) }]));
  assert.deepEqual(problems(r.diag), []);
  assert.equal(counter(r), 96);
  assert.deepEqual(new Float32Array(r.cap.slice(0, 96).buffer), new Float32Array(VERTS.slice(0, 24)));
  assert.ok(r.cap.subarray(96).every((x) => x === 0));
  assert.match(r.diag.list.find((d) => d.id === 'adreno.vpc.so-overflow')!.message, /5 of 6 primitive/);
  // Quiet when everything fits.
  assert.ok(!ids(run(scene([{ prim: TRI, count: 18, xfb: XFB() }])).diag).includes('adreno.vpc.so-overflow'));
});

test('CP_DRAW_AUTO over the captured vertices renders the original draw: sysmem and GMEM at several bin sizes', () => {
  const direct = run(scene([{ prim: TRI, count: 18 }]));
  assert.ok(covered(direct.img) > 400, `${covered(direct.img)} pixels`);
  const draws: GfxDraw[] = [{ prim: TRI, count: 18, xfb: XFB({ discard: true }) }, { prim: TRI, count: 0, auto: { xfb: 'cap', stride: 32, inputs: true } }];
  // The capture alone (rasterizer discard) draws nothing.
  assert.equal(covered(run(scene(draws.slice(0, 1))).img), 0);
  const sys = run(scene(draws));
  assert.deepEqual(problems(sys.diag), []);
  assert.deepEqual(sys.img, direct.img);
  assert.equal(counter(sys), 18 * 32);
  for (const bin of [undefined, { w: 32, h: 16 }, { w: 64, h: 16 }, { w: 32, h: 32 }]) {
    const g = run(scene(draws), { ...(bin ? { bin } : {}) });
    const what = bin ? `${bin.w}x${bin.h}` : 'auto';
    assert.deepEqual(problems(g.diag), [], what);
    assert.deepEqual(g.img, direct.img, `GMEM ${what}`);
    assert.deepEqual(g.cap, sys.cap, `GMEM ${what}: the capture`);
    assert.equal(counter(g), 18 * 32, `GMEM ${what}: the counter`);
  }
});

test('adreno.vpc.so-per-bin: stream-out left on in the GMEM bins writes the draw again in every bin', () => {
  const draws: GfxDraw[] = [{ prim: TRI, count: 18, xfb: XFB() }];
  // The driver's CP_COND_REG_EXEC (SYSMEM | BINNING) packets become NOPs: begin / end run in every bin.
  const unconditional = (b: BuiltDraw): void => {
    const op = opcode('CP_COND_REG_EXEC', b.gen);
    for (let k = 0; k < b.stream.length;) {
      const at = b.streamIova + 4 * k;
      const h = decodeHeader(b.mem.read32(at), b.gen);
      if (h.type === 7 && h.opcode === op) {
        b.mem.write32(at, pkt7(opcode('CP_NOP', b.gen), 2));
        k += 3;
        continue;
      }
      k += 1 + h.count;
    }
  };
  const bad = run(scene(draws), { bin: { w: 32, h: 16 }, patch: unconditional });
  const fired = bad.diag.list.filter((d) => d.id === 'adreno.vpc.so-per-bin');
  assert.ok(fired.length >= 4, `${fired.length} repeated stream-outs`);
  assert.match(fired[0]!.message, /already streamed out in this pass/);
  assert.ok(!ids(run(scene(draws), { bin: { w: 32, h: 16 } }).diag).includes('adreno.vpc.so-per-bin'));
});

/** The clean capture scene, then a second stream on the same CP: registers, then a draw (or an event). */
function after(regs: (cs: CmdStream, b: BuiltDraw) => void, draw = true): Ran {
  const d = scene([{ prim: TRI, count: 18, xfb: XFB() }]);
  const r = run(d);
  assert.deepEqual(problems(r.diag), []);
  const cs = new CmdStream('a6xx').reg('VPC_SO_DISABLE', { DISABLE: false });
  regs(cs, r.b);
  if (draw) cs.pkt('CP_DRAW_INDX_OFFSET', [encodeFields('vgt_draw_initiator_a4xx', { PRIM_TYPE: TRI, SOURCE_SELECT: 'DI_SRC_SEL_AUTO_INDEX', VIS_CULL: 'IGNORE_VISIBILITY' }, 'a6xx'), 1, 6]);
  runAfter(r.b, r.cp, cs);
  return r;
}
const capBase = (b: BuiltDraw): number => b.segments.find((s) => s.label === 'buf:cap')!.base;

test('stream-out diagnostics fire on illegal state and stay quiet on the clean capture', () => {
  const clean = after((cs) => cs.reg('VPC_SO[0].BUFFER_OFFSET', 0));
  assert.deepEqual(problems(clean.diag), []);
  // The second capture starts again at offset 0: BUFFER_OFFSET holds the VPC's running offset after it.
  assert.equal(clean.cp.readReg(clean.cp.regsDb.reg('VPC_SO[0].BUFFER_OFFSET')), 6 * 32);
  const cases: [string, (cs: CmdStream, b: BuiltDraw) => void, boolean?][] = [
    ['adreno.vpc.so-misaligned', (cs, b) => cs.reg64('VPC_SO[0].BUFFER_BASE', capBase(b) + 4)],
    ['adreno.vpc.so-buffer-unmapped', (cs) => cs.reg64('VPC_SO[0].BUFFER_BASE', 0xdead0000)],
    ['adreno.vpc.so-prog-past-outputs', (cs) => cs.reg('VPC_SO_CNTL', { ADDR: 10 }).reg('VPC_SO_PROG', { A_EN: true, A_BUF: 0, A_OFF: 28 })],
    ['adreno.vpc.so-entry-past-stride', (cs) => cs.reg('VPC_SO[0].BUFFER_STRIDE', 4)],
    ['adreno.vpc.so-buffer-not-in-stream', (cs) => cs.reg('VPC_SO_CNTL', { ADDR: 0 }).reg('VPC_SO_PROG', { A_EN: true, A_BUF: 2, A_OFF: 16 })],
    ['adreno.vpc.so-flush-unmapped', (cs) => cs.reg64('VPC_SO[0].FLUSH_BASE', 0xdead0000).event('FLUSH_SO_0'), false],
  ];
  for (const [id, regs, draw] of cases) assert.ok(ids(after(regs, draw ?? true).diag).includes(id), id);
});

test('WRITE_PRIMITIVE_COUNTS: {written, generated} of each stream at VPC_SO_STREAM_COUNTS; FLUSH_SO_n the offset in dwords', () => {
  const r = after((cs, b) => {
    const q = b.mem.alloc(64, 'counts', 0x1000);
    const f = b.mem.alloc(32, 'flush', 0x1000);
    cs.reg('VPC_SO[0].BUFFER_OFFSET', 0).reg64('VPC_SO_STREAM_COUNTS', q.base).reg64('VPC_SO[0].FLUSH_BASE', f.base);
  });
  const cs = new CmdStream('a6xx').event('WRITE_PRIMITIVE_COUNTS').event('FLUSH_SO_0');
  runAfter(r.b, r.cp, cs);
  const q = r.b.mem.segments.find((s) => s.label === 'counts');
  // Two captures: 6 triangles, then 2 (the second stream's 6 vertices).
  assert.deepEqual([r.b.mem.read64(q!.base), r.b.mem.read64(q!.base + 8), r.b.mem.read64(q!.base + 16)], [8, 8, 0]);
  assert.equal(r.b.mem.read32(r.b.mem.segments.find((s) => s.label === 'flush')!.base), (6 * 32) / 4);
});

test('scene key draws[i].a6xx xfb / drawAuto: the captured pass renders the direct one', () => {
  const json = JSON.parse(readFileSync(join(EXAMPLES, 'triangle', 'scene.json'), 'utf8')) as Record<string, unknown>;
  const bufs = json.buffers as Record<string, unknown>;
  const withCap = { ...json, buffers: { ...bufs, cap: { type: 'f32', values: new Array(64).fill(0) } } };
  const direct = runA6xxScene(json, join(EXAMPLES, 'triangle'), 'a630');
  const xfb = { buffer: 'cap', stride: 32, outputs: [{ loc: 4, components: 4, at: 0 }, { loc: 0, components: 4, at: 16 }], discard: true };
  const viaXfb = runA6xxScene({ ...withCap, draws: [{ topology: TRI, count: 3, a6xx: { xfb } }, { topology: TRI, a6xx: { drawAuto: { xfb: 'cap', stride: 32, inputs: true } } }] }, join(EXAMPLES, 'triangle'), 'a630');
  assert.deepEqual(problems(viaXfb.diag), []);
  assert.deepEqual(viaXfb.targets[0]!.data, direct.targets[0]!.data);
  const gm = runA6xxScene({ ...withCap, draws: [{ topology: TRI, count: 3, a6xx: { xfb } }, { topology: TRI, a6xx: { drawAuto: { xfb: 'cap', stride: 32, inputs: true } } }] }, join(EXAMPLES, 'triangle'), 'a630', { bin: { w: 32, h: 16 } });
  assert.deepEqual(problems(gm.diag), []);
  assert.deepEqual(gm.targets[0]!.data, direct.targets[0]!.data);
  assert.throws(() => runA6xxScene({ ...withCap, draws: [{ topology: TRI, count: 3, a6xx: { xfb: { ...xfb, strid: 4 } } }] }, join(EXAMPLES, 'triangle'), 'a630'), /unknown key 'strid'/);
});

test('the transform feedback stream decodes in cffdump format without a problem', () => {
  const d = scene([{ prim: TRI, count: 18, xfb: XFB({ offset: 40, discard: true }) }, { prim: TRI, count: 0, auto: { xfb: 'cap', stride: 32, inputs: true } }]);
  const b = buildDraw(d);
  const w = new RdWriter().gpuId(d.gpuId);
  for (const s of b.mem.segments) w.buffer(s.base, s.u8);
  const lines: string[] = [];
  assert.deepEqual(cffdumpRd(w.cmdstream(b.streamIova, b.stream.length).bytes(), { out: (l) => lines.push(l) }).problems, []);
  const text = lines.join('\n');
  for (const re of [/VPC_SO_STREAM_CNTL: \{ BUF0_STREAM = 1 \| BUF1_STREAM = 0 \| BUF2_STREAM = 0 \| BUF3_STREAM = 0 \| STREAM_ENABLE = 0x1 \}/, /VPC_SO_PROG: \{ A_BUF = 0 \| A_OFF = 16 \| A_EN \| B_BUF = 0 \| B_OFF = 20 \| B_EN \}/, /FLUSH_SO_0/, /CP_COND_REG_EXEC/, /CP_DRAW_AUTO/]) assert.match(text, re);
});

const CAPTURES = join(import.meta.dirname, '..', '..', '..', '..', 'shared', 'adreno-captures', 'traces');
test('VPC_SO_DISABLE over a GMEM pass: clear at the binning-pass draws, set at the render-pass draws, as in fd-clouds (fd6)', { skip: !existsSync(CAPTURES) && 'no ../shared/adreno-captures' }, () => {
  const disableAt = (cp: CommandProcessor, mode: string): number[] => cp.work.filter((w) => w.kind === 'draw' && w.mode === mode).map((w) => (w.state.get(cp.regsDb.reg('VPC_SO_DISABLE')) ?? 0) & 1);
  // The real capture: fd6 clears VPC_SO_DISABLE for the binning pass ("enable stream-out during binning pass").
  const real = runRd(new Uint8Array(readFileSync(join(CAPTURES, 'fd-clouds.rd.gz'))), {}, 'fd-clouds');
  const binningReal = disableAt(real.cp, 'BINNING');
  assert.ok(binningReal.length >= 3 && binningReal.every((v) => v === 0), `fd-clouds binning draws: ${binningReal}`);
  // The driver (turnip's order): the capture draw streams out in the binning pass only.
  const g = run(scene([{ prim: TRI, count: 18, xfb: XFB() }]), { bin: { w: 32, h: 16 } });
  const xfbDraw = (mode: string): number[] => g.cp.work.filter((w) => w.kind === 'draw' && w.mode === mode && w.payload[2] === 18).map((w) => (w.state.get(g.cp.regsDb.reg('VPC_SO_DISABLE')) ?? 0) & 1);
  assert.deepEqual(xfbDraw('BINNING'), [0]);
  assert.deepEqual(xfbDraw('GMEM'), new Array(4).fill(1), 'four 32x16 bins of 64x32');
});

test('a captured triangle strip keeps its winding: CP_DRAW_AUTO as a list culls what the strip culls', () => {
  // A strip whose last two triangles turn over (p4 / p5 swapped): back-face culling removes them.
  const p = [[-0.9, -0.9], [-0.9, 0.9], [0, -0.9], [0, 0.9], [0.9, 0.9], [0.9, -0.9]];
  const strip = p.flatMap(([x, y], k) => [x!, y!, 0.5, 1, k / 5, 1 - k / 5, 0.5, 1]);
  const withStrip = (draws: GfxDraw[], cull: boolean): GfxScene => {
    const s = scene(draws);
    return { ...s, buffers: new Map([...s.buffers, ['v', f32(strip)]]), state: { ...s.state, cullBack: cull } };
  };
  const direct = run(withStrip([{ prim: 'DI_PT_TRISTRIP', count: 6 }], true));
  const noCull = run(withStrip([{ prim: 'DI_PT_TRISTRIP', count: 6 }], false));
  assert.notDeepEqual(direct.img, noCull.img, 'culling removes triangles');
  assert.ok(covered(direct.img) > 0);
  const viaXfb = run(withStrip([{ prim: 'DI_PT_TRISTRIP', count: 6, xfb: XFB({ discard: true }) }, { prim: TRI, count: 0, auto: { xfb: 'cap', stride: 32, inputs: true } }], true));
  assert.deepEqual(problems(viaXfb.diag), []);
  assert.equal(counter(viaXfb), 4 * 3 * 32, 'four triangles of three vertices');
  assert.deepEqual(viaXfb.img, direct.img);
});

test('a resumed capture continues after the counter (CP_MEM_TO_REG into BUFFER_OFFSET): both captures draw as one', () => {
  const direct = run(scene([{ prim: TRI, count: 18 }]));
  for (const offset of [0, 40]) {
    const draws: GfxDraw[] = [
      { prim: TRI, count: 6, xfb: XFB({ offset, discard: true }) },
      { prim: TRI, count: 12, vertexOffset: 6, xfb: XFB({ offset, discard: true, resume: true }) },
      { prim: TRI, count: 0, auto: { xfb: 'cap', stride: 32, inputs: true } },
    ];
    for (const gmem of [undefined, { bin: { w: 32, h: 16 } }]) {
      const r = run(scene(draws), gmem);
      assert.deepEqual(problems(r.diag), []);
      assert.equal(counter(r), 18 * 32);
      assert.deepEqual(new Float32Array(r.cap.slice(offset, offset + 18 * 32).buffer), new Float32Array(VERTS));
      assert.deepEqual(r.img, direct.img, `offset ${offset} ${gmem ? 'GMEM' : 'sysmem'}`);
    }
  }
});

test('two buffers of one stream: each gets its locations at its stride; a primitive that overflows one is written to neither', () => {
  for (const size1 of [1024, 6 * 16 + 8]) {
    const r = after((cs, b) => {
      const second = b.mem.alloc(1024, 'second', 0x1000);
      // Position (VPC 4..7) to buffer 0 at stride 16, colour (VPC 0..3) to buffer 1 at stride 16.
      cs.reg('VPC_SO_STREAM_CNTL', { STREAM_ENABLE: 1, BUF0_STREAM: 1, BUF1_STREAM: 1 });
      cs.reg('VPC_SO[0].BUFFER_STRIDE', 4).reg('VPC_SO[1].BUFFER_STRIDE', 4);
      cs.reg('VPC_SO_CNTL', { RESET: true, ADDR: 0 });
      cs.reg('VPC_SO_PROG', { A_EN: true, A_BUF: 1, A_OFF: 0, B_EN: true, B_BUF: 1, B_OFF: 4 }).reg('VPC_SO_PROG', { A_EN: true, A_BUF: 1, A_OFF: 8, B_EN: true, B_BUF: 1, B_OFF: 12 });
      cs.reg('VPC_SO_PROG', { A_EN: true, A_BUF: 0, A_OFF: 0, B_EN: true, B_BUF: 0, B_OFF: 4 }).reg('VPC_SO_PROG', { A_EN: true, A_BUF: 0, A_OFF: 8, B_EN: true, B_BUF: 0, B_OFF: 12 });
      cs.reg('VPC_SO[0].BUFFER_OFFSET', 0).reg64('VPC_SO[1].BUFFER_BASE', second.base).reg('VPC_SO[1].BUFFER_SIZE', size1).reg('VPC_SO[1].BUFFER_OFFSET', 0);
    });
    assert.deepEqual(problems(r.diag), []);
    const second = r.b.mem.segments.find((s) => s.label === 'second')!;
    const fits = size1 >= 6 * 16 ? 6 : 3;
    const pos = new Float32Array(r.b.mem.readBytes(capBase(r.b), 96).slice().buffer);
    const col = new Float32Array(r.b.mem.readBytes(second.base, 96).slice().buffer);
    for (let v = 0; v < 6; v++) {
      // Buffer 0: the second capture's positions 16 bytes apart where it fit, else what the first
      // capture (the vertex records as they are, 32 bytes each) left there.
      assert.deepEqual(Array.from(pos.subarray(v * 4, v * 4 + 4)), (v < fits ? VERTS.slice(v * 8, v * 8 + 4) : VERTS.slice(v * 4, v * 4 + 4)).map(Math.fround), `position ${v}`);
      assert.deepEqual(Array.from(col.subarray(v * 4, v * 4 + 4)), v < fits ? VERTS.slice(v * 8 + 4, v * 8 + 8) : [0, 0, 0, 0], `colour ${v} (buffer 1 of ${size1} bytes)`);
    }
    assert.equal(r.cp.readReg(r.cp.regsDb.reg('VPC_SO[0].BUFFER_OFFSET')), fits * 16);
    assert.equal(r.cp.readReg(r.cp.regsDb.reg('VPC_SO[1].BUFFER_OFFSET')), fits * 16);
  }
});
