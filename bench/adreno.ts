/**
 * Adreno figures: .rd decode speed (packets/s, walk only and walk + text/JSON printing), CP
 * execution speed (packets/s) on a synthetic trace shaped like a real frame (register bunches,
 * draw-state groups, draws, events), afuc emulation speed (SQE instructions/s) and the ir3
 * shader core on the ir3 corpus (fiber-instructions/s), and a sysmem draw (pixels/s).
 */
import { CmdStream, Layout } from '../src/adreno/cp/builder.js';
import { RdWriter } from '../src/formats/rd.js';
import { decodeRd } from '../src/adreno/decode.js';
import { Walker } from '../src/adreno/cp/walker.js';
import { CommandProcessor } from '../src/adreno/cp/cp.js';
import { Memory } from '../src/core/memory.js';
import { Diagnostics } from '../src/core/diagnostics.js';
import { assemble } from '../src/adreno/afuc/isa.js';
import { AfucEmu } from '../src/adreno/afuc/emu.js';
import { testFirmwareSource } from '../src/adreno/afuc/testfw.js';
import { gpuRegs } from '../src/adreno/regs/db.js';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { buildDraw } from '../src/adreno/driver/sysmem.js';
import { drawRuns } from '../src/adreno/cp/handlers-gfx.js';
import { a6xxSceneDescription } from '../src/runtime/draw-a6xx.js';
import { join } from 'node:path';
import { readIr3Manifest, runIr3Dispatch } from '../src/adreno/sp/dispatch.js';
import { runCompute, type ComputeJob } from '../src/adreno/sp/compute.js';
import type { BenchResult } from './main.js';

const IR3_CORPUS = join(import.meta.dirname, '../../../shared/ir3-corpus');

/**
 * The ir3 shader core on every corpus manifest (skipped without ../shared): the SP alone on the
 * job the CP handed over (decode + bind once per dispatch, then the waves), and the whole
 * `adreno dispatch` path (memory, stream, CP, SP). Figures: fiber-instructions/s.
 */
function benchIr3(): BenchResult[] {
  if (!existsSync(IR3_CORPUS)) return [{ name: 'adreno ir3 execute', figures: { skipped: '../shared/ir3-corpus absent' } }];
  const files = readdirSync(IR3_CORPUS).filter((f) => /\.a\d+\.json$/.test(f)).sort();
  const ms = files.map((f) => readIr3Manifest(join(IR3_CORPUS, f)));
  // The SP jobs exactly as CP_EXEC_CS built them (captured once from a run of each stream).
  const jobs: ComputeJob[] = [];
  for (const m of ms) {
    jobs.push(runIr3Dispatch(m, { check: false }).job);
  }
  let fibers = 0;
  let waveInstrs = 0;
  const spMs = time(() => {
    fibers = 0;
    waveInstrs = 0;
    for (const j of jobs) {
      const res = runCompute({ ...j, consts: j.consts.slice() }, new Diagnostics(), { check: false });
      fibers += res.fiberInstructions;
      waveInstrs += res.instructions;
    }
  });
  const out: BenchResult[] = [{ name: `adreno ir3 execute (${jobs.length} corpus dispatches, SP only)`, figures: { fiberInstructions: fibers, waveInstructions: waveInstrs, ...rates(fibers, spMs, 'fiber-instructions') } }];
  const fullMs = time(() => {
    fibers = 0;
    for (const m of ms) fibers += runIr3Dispatch(m).fiberInstructions;
  });
  out.push({ name: `adreno ir3 dispatch (${ms.length} manifests, stream + CP + SP + checks)`, figures: { fiberInstructions: fibers, ...rates(fibers, fullMs, 'fiber-instructions') } });
  return out;
}

/** A synthetic frame: per draw a few register writes, a draw-state group, a draw, an event. */
function frame(draws: number): { L: Layout; ib: { iova: number; sizeDwords: number } } {
  const L = new Layout();
  const buf = L.reserve(1 << 16, 'data');
  const so = L.place(new CmdStream().reg('RB_BLEND_CNTL', 1).regs32('GRAS_CL_VPORT[0].XOFFSET', [1, 2, 3, 4, 5, 6]), 'state');
  const cs = new CmdStream().setMarker('RM6_BYPASS');
  for (let i = 0; i < draws; i++) {
    cs.regs32('CP_SCRATCH[0]', [i, i + 1, i + 2]);
    cs.reg('GRAS_SU_POINT_SIZE', i & 0xff);
    cs.setDrawState([{ groupId: i & 7, addr: so.iova, count: so.sizeDwords, dirty: (i & 3) === 0 }]);
    cs.drawAuto('DI_PT_TRILIST', 3);
    if ((i & 15) === 0) cs.event('CACHE_FLUSH_TS', buf + (i % 1024) * 8, i);
    cs.memWrite(buf + 0x8000 + (i % 1024) * 4, [i]);
  }
  return { L, ib: L.place(cs, 'ib1') };
}

/** Mean wall and CPU milliseconds per run (CPU time is what to compare on a loaded machine). */
function time(fn: () => void, minMs = 600): { wall: number; cpu: number } {
  // Warm up first: the first runs measure the JIT, not the simulator.
  for (let i = 0; i < 3; i++) fn();
  let reps = 0;
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  let ms = 0;
  while (ms < minMs) {
    fn();
    reps++;
    ms = performance.now() - t0;
  }
  const c = process.cpuUsage(c0);
  return { wall: ms / reps, cpu: (c.user + c.system) / 1000 / reps };
}

/** Rate per wall second and per CPU second. */
function rates(n: number, t: { wall: number; cpu: number }, unit: string): Record<string, number> {
  return { [`${unit}/s`]: n / (t.wall / 1000), [`${unit}/cpu-s`]: n / (t.cpu / 1000) };
}

export function benchAdreno(): BenchResult[] {
  const out: BenchResult[] = [];
  void gpuRegs('a6xx');
  const { L, ib } = frame(2000);
  const w = new RdWriter().gpuId(630);
  for (const b of L.buffers) w.buffer(b.iova, b.data);
  const rd = w.cmdstream(ib.iova, ib.sizeDwords).bytes();
  let packets = 0;
  decodeRd(rd, { out: () => {}, json: true }).packets;
  const mem = new Memory();
  for (const b of L.buffers) mem.map(b.iova, b.data.length, b.label, b.data.slice());
  const walkMs = time(() => {
    packets = 0;
    new Walker(mem, 'a6xx', { packet: () => void packets++ }).walk(ib.iova, ib.sizeDwords);
  });
  out.push({ name: 'adreno decode walk', figures: { packets, ...rates(packets, walkMs, 'packets') } });
  let lines = 0;
  const textMs = time(() => {
    lines = 0;
    packets = decodeRd(rd, { out: () => void lines++ }).packets;
  });
  out.push({ name: 'adreno decode text', figures: { packets, lines, ...rates(packets, textMs, 'packets') } });
  const jsonMs = time(() => {
    packets = decodeRd(rd, { out: () => {}, json: true }).packets;
  });
  out.push({ name: 'adreno decode json', figures: { packets, ...rates(packets, jsonMs, 'packets') } });
  let executed = 0;
  const execMs = time(() => {
    const m = new Memory();
    for (const b of L.buffers) m.map(b.iova, b.data.length, b.label, b.data.slice());
    const cp = new CommandProcessor(m, { diag: new Diagnostics(), snapshots: false });
    cp.run(ib.iova, ib.sizeDwords);
    executed = cp.packets;
  });
  out.push({ name: 'adreno cp execute', figures: { packets: executed, ...rates(executed, execMs, 'packets') } });
  const fw = assemble(testFirmwareSource(), 'a6xx');
  const stream = new CmdStream();
  for (let i = 0; i < 500; i++) stream.regs32('CP_SCRATCH[0]', [i, i, i, i]).nop([1, 2]).pkt('CP_CONTEXT_REG_BUNCH', [0x884, i, 0x885, i]);
  const dw = stream.dwords();
  let steps = 0;
  const emuMs = time(() => {
    const emu = new AfucEmu(fw, { diag: new Diagnostics() });
    emu.run();
    emu.feed(dw);
    emu.run(10_000_000);
    steps = emu.steps;
  });
  out.push({ name: 'adreno afuc emulate', figures: { instructions: steps, ...rates(steps, emuMs, 'instructions') } });
  out.push(...benchIr3());
  out.push(...benchDraw());
  return out;
}

/**
 * The a6xx graphics pipeline in sysmem mode on examples/blend (4x MSAA, 64x64, blending): the
 * stream built once, then CP + VFD + VS + GRAS + FS + RB per run. Figures: pixels (fragments with
 * a covered sample, the clear's included) and samples written per second.
 */
function benchDraw(): BenchResult[] {
  const dir = join(import.meta.dirname, '../../examples/blend');
  const desc = a6xxSceneDescription(JSON.parse(readFileSync(join(dir, 'scene.json'), 'utf8')) as Record<string, unknown>, dir, 'a630');
  let pixels = 0;
  let samples = 0;
  const ms = time(() => {
    const b = buildDraw(desc);
    const cp = new CommandProcessor(b.mem, { diag: new Diagnostics(), gpuId: 630 });
    cp.run(b.streamIova, b.stream.length);
    pixels = 0;
    samples = 0;
    for (const r of drawRuns(cp)) {
      pixels += r.result?.fragments ?? 0;
      samples += r.result?.rb.samplesWritten ?? 0;
    }
  });
  return [{ name: 'adreno draw (examples/blend on a630: driver + CP + pipeline)', figures: { pixels, samplesWritten: samples, ...rates(pixels, ms, 'pixels') } }];
}
