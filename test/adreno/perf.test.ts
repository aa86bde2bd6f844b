/**
 * Performance counters (rbbm/perfcounters.ts, `gpusim adreno perf`): the countables equal
 * quantities computed here from the scene and the image, the SEL registers programmed through
 * a stream select what RBBM_PERFCTR_* read back with CP_REG_TO_MEM, and real captures run
 * through the command to a clean end.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { a6xxSceneDescription } from '../../src/runtime/draw-a6xx.js';
import { buildDraw, type GfxDraw, type GfxScene } from '../../src/adreno/driver/sysmem.js';
import { CommandProcessor } from '../../src/adreno/cp/cp.js';
import { Diagnostics } from '../../src/core/diagnostics.js';
import { CmdStream } from '../../src/adreno/cp/builder.js';
import { enumValue, gpuRegs } from '../../src/adreno/regs/db.js';
import { alwaysOnTicks, blockCounters, PERF_BLOCKS } from '../../src/adreno/rbbm/perfcounters.js';
import { perfCommand, perfReport, selectCounters } from '../../src/runtime/adreno-perf.js';
import { UsageError } from '../../src/core/errors.js';

const EXAMPLES = join(import.meta.dirname, '..', '..', '..', 'examples');
const CAPTURES = join(import.meta.dirname, '..', '..', '..', '..', 'shared', 'adreno-captures', 'traces');
const base = (): GfxScene => a6xxSceneDescription(JSON.parse(readFileSync(join(EXAMPLES, 'triangle', 'scene.json'), 'utf8')) as Record<string, unknown>, join(EXAMPLES, 'triangle'), 'a630');
const f32 = (a: number[]): Uint8Array => new Uint8Array(new Float32Array(a).buffer);
/** An axis-aligned rectangle in NDC as two triangles (position xyzw, colour rgba). */
function rect(x0: number, y0: number, x1: number, y1: number, c: number[]): number[] {
  const v = (x: number, y: number): number[] => [x, y, 0.5, 1, ...c];
  return [...v(x0, y0), ...v(x1, y0), ...v(x0, y1), ...v(x0, y1), ...v(x1, y0), ...v(x1, y1)];
}
/** 16x16 target: rectangles of 4x4, 8x4 and 4x8 pixels (none overlapping). */
function scene(draws: GfxDraw[]): GfxScene {
  const b = base();
  const verts = [...rect(-1, -1, -0.5, -0.5, [1, 0, 0, 1]), ...rect(0, -1, 1, -0.5, [0, 1, 0, 1]), ...rect(-1, 0, -0.5, 1, [0, 0, 1, 1])];
  return {
    ...b, width: 16, height: 16, state: { ...b.state, viewport: [0, 0, 16, 16], scissor: [0, 0, 16, 16], blend: [] },
    buffers: new Map([...b.buffers, ['v', f32(verts)]]),
    vs: { ...b.vs, inputs: [{ buffer: 'v', stride: 32, offset: 0, format: 'FMT6_32_32_32_32_FLOAT', regid: 0, mask: 0xf }, { buffer: 'v', stride: 32, offset: 16, format: 'FMT6_32_32_32_32_FLOAT', regid: 4, mask: 0xf }] },
    draws,
  };
}
const TRI = 'DI_PT_TRILIST';
const DRAWS: GfxDraw[] = [{ prim: TRI, count: 6 }, { prim: TRI, count: 6, vertexOffset: 6 }, { prim: TRI, count: 6, vertexOffset: 12 }];

/** Run a scene's stream between a prologue and an epilogue stream (each its own submit, as a kernel does). */
function runWith(d: GfxScene, pro: (cs: CmdStream) => void, epi: (cs: CmdStream, out: number) => void) {
  const b = buildDraw(d);
  const OUT = 0x7000_0000, PRO = 0x7001_0000, EPI = 0x7002_0000;
  b.mem.map(OUT, 4096, 'out', new Uint8Array(4096));
  const place = (iova: number, cs: CmdStream): number => {
    const bytes = cs.bytes();
    b.mem.map(iova, Math.max(bytes.length, 4), 'ib', bytes.length ? bytes.slice() : new Uint8Array(4));
    return bytes.length / 4;
  };
  const p = new CmdStream(); pro(p);
  const e = new CmdStream(); epi(e, OUT);
  const np = place(PRO, p), ne = place(EPI, e);
  const diag = new Diagnostics();
  const cp = new CommandProcessor(b.mem, { diag, gpuId: d.gpuId });
  cp.perf.keepMarks = true;
  assert.equal(cp.run(PRO, np), 'done');
  assert.equal(cp.run(b.streamIova, b.stream.length), 'done');
  assert.equal(cp.run(EPI, ne), 'done');
  const t = b.targets[0]!;
  const img = new Uint8Array(16 * 64);
  for (let y = 0; y < 16; y++) img.set(b.mem.readBytes(t.base + y * t.pitch, 64), y * 64);
  const read64 = (k: number): number => b.mem.read32(OUT + 8 * k) + b.mem.read32(OUT + 8 * k + 4) * 2 ** 32;
  return { cp, diag, img, read64 };
}
/** Pixels that differ from the clear (pixel 15,15 is outside every rectangle). */
const covered = (img: Uint8Array): number => {
  const bg = img.subarray(15 * 64 + 60, 15 * 64 + 64);
  let n = 0;
  for (let p = 0; p < 256; p++) if (img.subarray(p * 4, p * 4 + 4).some((c, k) => c !== bg[k])) n++;
  return n;
};

test('perf: every block has select and counter registers in the database (counts from the XML arrays)', () => {
  const db = gpuRegs('a6xx');
  const n = Object.fromEntries(PERF_BLOCKS.map((b) => [b.name, blockCounters(db, b)]));
  for (const [name, k] of Object.entries(n)) assert.ok(k > 0, `${name} has no counters`);
  // The freedreno XML's array lengths for the blocks fdperf shows most.
  assert.equal(n['PC'], 8);
  assert.equal(n['SP'], 24);
});

test('perf: SEL registers written by pkt4 select what CP_REG_TO_MEM reads from RBBM_PERFCTR_*', () => {
  const sel: [string, string, string][] = [
    ['RB_PERFCTR_RB_SEL[3]', 'a6xx_rb_perfcounter_select', 'PERF_RB_PS_INVOCATIONS'],
    ['PC_PERFCTR_PC_SEL[0]', 'a6xx_pc_perfcounter_select', 'PERF_PC_IA_VERTICES'],
    ['VFD_PERFCTR_VFD_SEL[1]', 'a6xx_vfd_perfcounter_select', 'PERF_VFD_TOTAL_VERTICES'],
    ['VPC_PERFCTR_VPC_SEL[2]', 'a6xx_vpc_perfcounter_select', 'PERF_VPC_PC_PRIMITIVES'],
    ['GRAS_PERFCTR_TSE_SEL[0]', 'a6xx_tse_perfcounter_select', 'PERF_TSE_INPUT_PRIM'],
    ['RBBM_PERFCTR_RBBM_SEL[0]', 'a6xx_rbbm_perfcounter_select', 'PERF_RBBM_ALWAYS_ON'],
    ['UCHE_PERFCTR_UCHE_SEL[0]', 'a6xx_uche_perfcounter_select', 'PERF_UCHE_EVICTS'],
  ];
  const ctr = ['RBBM_PERFCTR_RB[3]', 'RBBM_PERFCTR_PC[0]', 'RBBM_PERFCTR_VFD[1]', 'RBBM_PERFCTR_VPC[2]', 'RBBM_PERFCTR_TSE[0]', 'RBBM_PERFCTR_RBBM[0]', 'RBBM_PERFCTR_UCHE[0]'];
  const r = runWith(scene(DRAWS),
    (cs) => { for (const [reg, en, name] of sel) cs.reg(reg, enumValue(en, name, 'a6xx')!); },
    (cs, out) => { ctr.forEach((c, k) => cs.regToMem(c, out + 8 * k, 2)); });
  assert.deepEqual(r.diag.list.filter((d) => d.severity !== 'info').map((d) => d.id), []);
  // The rectangle draws (the last three marks): fragments = the pixels the image shows covered.
  const marks = r.cp.perf.marks.filter((m) => m.kind === 'draw');
  const first = marks[marks.length - 4]!.totals, last = marks[marks.length - 1]!.totals;
  const delta = (n: string): number => (last.get(n) ?? 0) - (first.get(n) ?? 0);
  assert.equal(covered(r.img), 16 + 32 + 32);
  assert.equal(delta('PERF_RB_PS_INVOCATIONS'), covered(r.img));
  assert.equal(delta('PERF_PC_IA_VERTICES'), 18);
  assert.equal(delta('PERF_VPC_PC_PRIMITIVES'), 6);
  // The counters read through the stream are the run's totals (the scene's clear draw included).
  const tot = r.cp.perf.snapshot(r.cp.countables, r.cp.cycles, 'a6xx');
  assert.equal(r.read64(0), tot.get('PERF_RB_PS_INVOCATIONS'));
  assert.equal(r.read64(1), tot.get('PERF_PC_IA_VERTICES'));
  assert.equal(r.read64(2), tot.get('PERF_VFD_TOTAL_VERTICES'));
  assert.equal(r.read64(1), r.read64(2));
  assert.equal(r.read64(3), tot.get('PERF_VPC_PC_PRIMITIVES'));
  assert.equal(r.read64(4), r.read64(3));
  assert.ok(r.read64(0) >= 80);
  // The always-on timer: 19.2 MHz over the model time at the read (CP cycles so far at 710 MHz).
  assert.ok(r.read64(5) > 0 && r.read64(5) <= alwaysOnTicks(r.cp.cycles));
  // UCHE evictions are not modelled: 0, never a made-up number.
  assert.equal(r.read64(6), 0);
});

test('perf: report per draw; unknown countables are usage errors', () => {
  const r = runWith(scene(DRAWS), () => {}, () => {});
  const rep = perfReport(r.cp, selectCounters(['PERF_RB_PS_INVOCATIONS', 'PERF_UCHE_EVICTS'], false));
  const draws = rep.operations.filter((o) => o.kind === 'draw').slice(-3);
  assert.deepEqual(draws.map((o) => o.counters.find((c) => c.countable === 'PERF_RB_PS_INVOCATIONS')!.value), [16, 32, 32]);
  assert.deepEqual(draws[0]!.counters.find((c) => c.countable === 'PERF_UCHE_EVICTS'), { block: 'UCHE', countable: 'PERF_UCHE_EVICTS', value: 0, modelled: false });
  assert.throws(() => selectCounters(['PERF_NO_SUCH'], false), UsageError);
  assert.ok(selectCounters(undefined, true).length > selectCounters(undefined, false).length);
});

test('perf CLI: scene text and JSON, --mode gmem totals equal sysmem fragments', () => {
  const file = join(EXAMPLES, 'triangle', 'scene.json');
  const text: string[] = [];
  assert.equal(perfCommand({ gpu: 'a630' }, [file], (l) => text.push(l)), 0);
  assert.match(text[0]!, /^scene a630 sysmem: \d+ operation\(s\)/);
  assert.ok(text.some((l) => /^draw 0 CP_DRAW_INDX_OFFSET @0x/.test(l)));
  assert.ok(text.some((l) => /^ {4}PERF_RB_PS_INVOCATIONS +\d+$/.test(l)));
  const js = (mode: string): { operations: unknown[]; totals: { countable: string; value: number }[] } => {
    const o: string[] = [];
    assert.equal(perfCommand({ gpu: 'a630', json: true, mode, ...(mode === 'gmem' ? { bin: '32x16' } : {}) }, [file], (l) => o.push(l)), 0);
    return JSON.parse(o.join('\n'));
  };
  const s = js('sysmem'), g = js('gmem');
  const frag = (j: typeof s): number => j.totals.find((c) => c.countable === 'PERF_RB_PS_INVOCATIONS')!.value;
  assert.ok(frag(s) > 0);
  assert.equal(frag(g), frag(s));
  // GMEM (bins of 32x16): each draw runs once per bin it is visible in; its bins' fragments add up to the sysmem draw's.
  type Op = { kind: string; iova: string; counters: { countable: string; value: number }[] };
  const opFrag = (o: Op): number => o.counters.find((c) => c.countable === 'PERF_RB_PS_INVOCATIONS')!.value;
  const sOps = (s.operations as Op[]).filter((o) => o.kind === 'draw'), gOps = (g.operations as Op[]).filter((o) => o.kind === 'draw');
  assert.ok(gOps.length > sOps.length);
  const byDraw = (ops: Op[]): number[] => [...new Set(ops.map((o) => o.iova))].map((iova) => ops.filter((o) => o.iova === iova).reduce((a, o) => a + opFrag(o), 0));
  assert.deepEqual(byDraw(gOps), byDraw(sOps));
  assert.throws(() => perfCommand({ gpu: 'a630', mode: 'tiled' }, [file], () => {}), UsageError);
  assert.throws(() => perfCommand({}, [file], () => {}), UsageError);
});

test('perf CLI: real captures end cleanly (a6xx counted, other generations one line)', { skip: !existsSync(CAPTURES) && 'no ../shared/adreno-captures' }, () => {
  const lines: string[] = [];
  const code = perfCommand({ json: true }, [join(CAPTURES, 'fd-clouds.rd.gz')], (l) => lines.push(l));
  assert.ok(code === 0 || code === 1);
  const j = JSON.parse(lines.join('\n')) as { source: string; totals: { countable: string; value: number }[] };
  assert.match(j.source, /^capture a6xx gpu_id 630/);
  assert.ok(j.totals.find((c) => c.countable === 'PERF_CP_ALWAYS_COUNT')!.value > 0);
  assert.throws(() => perfCommand({}, [join(CAPTURES, 'glxgears-a420.rd.gz')], () => {}), (e: Error) => /a4xx/.test(e.message) && !e.message.includes('\n'));
});

test('draw --mode gmem is --gmem; --mode sysmem the default; a bad mode is exit 2', () => {
  const main = join(import.meta.dirname, '..', '..', 'src', 'cli', 'main.js');
  const file = join(EXAMPLES, 'triangle', 'scene.json');
  const run = (...a: string[]) => spawnSync(process.execPath, [main, 'draw', file, '--gpu', 'a630', '--json', ...a], { encoding: 'utf8' });
  const gm = run('--mode', 'gmem', '--bin', '32x16'), alias = run('--gmem', '--bin', '32x16');
  assert.equal(gm.status, 0, gm.stderr);
  assert.equal(gm.stdout, alias.stdout);
  assert.ok((JSON.parse(gm.stdout) as { gmem?: unknown }).gmem);
  const sys = run('--mode', 'sysmem');
  assert.equal(sys.stdout, run().stdout);
  assert.equal((JSON.parse(sys.stdout) as { gmem?: unknown }).gmem, undefined);
  const bad = run('--mode', 'tiled');
  assert.equal(bad.status, 2);
  assert.equal(bad.stderr.trim().split('\n').length, 1);
  assert.equal(run('--mode', 'sysmem', '--bin', '32x16').status, 2);
});

test('perf CLI: a dispatch capture counts the manifest\'s invocations and the waves the SP ran', () => {
  const main = join(import.meta.dirname, '..', '..', 'src', 'cli', 'main.js');
  const manifest = join(EXAMPLES, 'ir3-kernel', 'sum.json');
  const dir = mkdtempSync(join(tmpdir(), 'gpusim-perf-'));
  try {
    const rd = join(dir, 'cs.rd');
    const d = spawnSync(process.execPath, [main, 'adreno', 'dispatch', manifest, '--rd', rd], { encoding: 'utf8' });
    assert.equal(d.status, 0, d.stderr);
    const waves = Number(/(\d+) wave\(s\), (\d+) wave-instruction/.exec(d.stdout)![1]);
    const instr = Number(/(\d+) wave-instruction/.exec(d.stdout)![1]);
    const m = JSON.parse(readFileSync(manifest, 'utf8')) as { groups: number[]; block: number[] };
    const o: string[] = [];
    assert.equal(perfCommand({ json: true, counters: 'PERF_HLSQ_CS_INVOCATIONS,PERF_HLSQ_COMPUTE_DRAWCALLS,PERF_SP_CS_INSTRUCTIONS,PERF_SP_WAVE_CONTEXTS' }, [rd], (l) => o.push(l)), 0);
    const j = JSON.parse(o.join('\n')) as { operations: { kind: string; counters: { countable: string; value: number }[] }[] };
    assert.deepEqual(j.operations.map((x) => x.kind), ['dispatch']);
    const v = Object.fromEntries(j.operations[0]!.counters.map((c) => [c.countable, c.value]));
    assert.deepEqual(v, {
      PERF_HLSQ_CS_INVOCATIONS: [...m.groups, ...m.block].reduce((a, b) => a * b, 1),
      PERF_HLSQ_COMPUTE_DRAWCALLS: 1,
      PERF_SP_CS_INSTRUCTIONS: instr,
      PERF_SP_WAVE_CONTEXTS: waves,
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('perf per-bin numbering: binning-pass rows marked, GMEM rows carry the bin, its window and offset; --json too', () => {
  const file = join(EXAMPLES, 'triangle', 'scene.json');
  type Where = { pass: string; bin?: number; window?: { x0: number; y0: number; x1: number; y1: number }; offset?: { x: number; y: number } };
  type Op = { kind: string; iova: string; inPass: number; where?: Where };
  const js = (extra: Record<string, unknown>): Op[] => {
    const o: string[] = [];
    assert.equal(perfCommand({ gpu: 'a630', json: true, ...extra }, [file], (l) => o.push(l)), 0);
    return (JSON.parse(o.join('\n')) as { operations: Op[] }).operations.filter((x) => x.kind === 'draw');
  };
  assert.ok(js({}).every((o) => o.where?.pass === 'sysmem'));
  // 64x64 in bins of 32x16: 2 x 4 bins after the binning pass.
  const ops = js({ mode: 'gmem', bin: '32x16' });
  const binning = ops.filter((o) => o.where?.pass === 'binning');
  const gmem = ops.filter((o) => o.where?.pass === 'gmem');
  assert.equal(binning.length, 2, 'the clear and the triangle, once each in the binning pass');
  assert.deepEqual(binning.map((o) => o.inPass), [0, 1]);
  assert.equal(gmem.length, 16);
  for (const o of gmem) {
    const b = o.where!.bin!;
    const x0 = (b % 2) * 32, y0 = Math.floor(b / 2) * 16;
    // The window the driver's GRAS_SC_WINDOW_SCISSOR gave the bin, and RB_WINDOW_OFFSET at its corner.
    assert.deepEqual(o.where!.window, { x0, y0, x1: x0 + 31, y1: y0 + 15 });
    assert.deepEqual(o.where!.offset, { x: x0, y: y0 });
  }
  assert.deepEqual([...new Set(gmem.map((o) => o.where!.bin))], [0, 1, 2, 3, 4, 5, 6, 7]);
  // The same draw in different bins: the same place in its bin, different bins.
  const tri = gmem.filter((o) => o.iova === binning[1]!.iova);
  assert.equal(tri.length, 8);
  assert.ok(tri.every((o) => o.inPass === 1));
  const text: string[] = [];
  perfCommand({ gpu: 'a630', mode: 'gmem', bin: '32x16', counters: 'PERF_RB_PS_INVOCATIONS' }, [file], (l) => text.push(l));
  assert.ok(text.some((l) => /^draw 1 CP_DRAW_INDX_OFFSET @0x[0-9a-f]+ \[binning pass, draw 1\]$/.test(l)));
  assert.ok(text.some((l) => /^draw \d+ CP_DRAW_INDX_OFFSET @0x[0-9a-f]+ \[bin 3 window 32,16\.\.63,31 offset 32,16, draw 1\]$/.test(l)));
});

test('perf per-bin numbering on a real GMEM capture: fd-clouds binning-pass draws are marked', { skip: !existsSync(CAPTURES) && 'no ../shared/adreno-captures' }, () => {
  const lines: string[] = [];
  perfCommand({ json: true }, [join(CAPTURES, 'fd-clouds.rd.gz')], (l) => lines.push(l));
  const ops = (JSON.parse(lines.join('\n')) as { operations: { kind: string; inPass: number; where?: { pass: string } }[] }).operations;
  // Its three draws run in the RM6_BINNING pass (the capture's render pass then faults on VSC memory it lacks).
  const binning = ops.filter((o) => o.where?.pass === 'binning');
  assert.deepEqual(binning.map((o) => [o.kind, o.inPass]), [['draw', 0], ['draw', 1], ['draw', 2]]);
});
