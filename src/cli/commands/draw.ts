/** `gpusim draw <scene.json> --out image.png`: build the scene's PM4, run it on the GFX11/GFX10.3/GFX9 pipeline, write the image. */
import { formatCacheStats } from '../../amd/gfx/pops-cache.js';
import { writeFileSync } from 'node:fs';
import { EXIT_FINDING, EXIT_OK, type CliIO, type Command } from '../command.js';
import { UsageError } from '../../core/errors.js';
import { intOption } from '../../core/numbers.js';
import { resolveTarget, runSceneFile, targetBytes } from '../../runtime/draw-scene.js';
import { PopsTrace } from '../../amd/gfx/pops-run.js';
import { InstructionTracer } from '../../amd/sq/trace.js';
import { SQ_CLOCK, WaveTimeline } from '../../amd/sq/timeline.js';
import { TraceEvents } from '../../core/trace-events.js';
import { a6xxGpu, resolveA6xxTarget, runA6xxSceneFile } from '../../runtime/draw-a6xx.js';

const HELP = `usage: gpusim draw <scene.json> --out image.png [--gfx gfx1100|gfx1030|gfx900] [--seed N] [--order roundrobin|random]
                   [--raw FILE] [--pm4 FILE] [--max-instructions N] [--pops-trace FILE] [--json]
                   [--trace FILE] [--trace-limit N] [--timeline FILE]
       gpusim draw <scene.json> --gpu a630|a660 --out image.png [--mode sysmem|gmem [--bin WxH]] [--rd FILE] [--surface FILE] [--json]

Build a real PM4 command stream from the scene (render targets, buffers, shaders, state, draws;
see docs/amd-graphics.md), execute it with the command processor and the graphics pipeline
(GFX11 NGG primitive shaders; GFX10.3 hardware VS or NGG; GFX9 hardware VS; rasterizer, pixel
shaders, depth/stencil and colour backends), and write
the first colour target as an 8-bit RGBA PNG (multisampled targets are resolved by averaging
their samples).

  --out FILE            the PNG to write
  --raw FILE            also write every sample of the first colour target, as stored
  --pm4 FILE            also write the command stream (decode it with gpusim pm4 decode --gfx ...)
  --gfx G               gfx1100, gfx1030 or gfx900: overrides the scene's "gfx" (the scene's
                        per-generation keys pick shaders and state for it)
  --seed N, --order O   wave scheduling (images do not depend on them: outputs commit in order)
  --max-instructions N  wave-instruction budget (default 50 million)
  --pops-trace FILE     POPS draws (DB_SHADER_CONTROL.PRIMITIVE_ORDERED_PIXEL_SHADER): write a Chrome
                        trace (Perfetto) of PS waves entering, waiting in and leaving ordered sections
  --json                print the run statistics and diagnostics as JSON
  --trace FILE          write one line per wave-instruction of every stage (GS/VS, PS, POPS PS):
                        stage, wave, pc (shader address), EXEC, the instruction, the registers it
                        changed, the GPU memory it touched (as gpusim run --trace); runs the
                        interpreter
  --trace-limit N       trace lines at most (default 100000; the draw goes on untraced)
  --timeline FILE       write a Chrome/Perfetto trace: every wave's scheduler turns per CU and
                        SIMD and stage, barrier waits, each PM4 draw packet spanning its waves, and
                        for POPS draws each PS wave's wait for overlapped waves and ordered
                        section (wait → release), per packer
  --gpu a630|a660       render on the Adreno a6xx pipeline instead (sysmem mode; the scene's
                        "a6xx"/"a630"/"a660" keys give the ir3 shaders and their registers)
  --rd FILE             with --gpu: also write the inputs and command stream as an .rd capture
  --surface FILE        with --gpu: write colour target 0 as memory holds it (with "a6xx": {"tile":
                        "UBWC"}: the flag plane, then the TILE6_3 pixels), as an "adreno display"
                        buffer's "file" reads it (examples/display-ubwc)
                        (gpusim adreno decode FILE --format cffdump)
  --mode sysmem|gmem    with --gpu: the render mode (default sysmem); --gmem is --mode gmem
  --gmem                with --gpu: GMEM (tiled) rendering: the binning pass writes VSC streams,
                        each bin is drawn in GMEM and resolved (docs/adreno.md "GMEM and binning")
  --bin WxH             with --gmem: the bin size (multiples of 32x16; default: the largest that fits)

POPS draws also print per draw: waves, overlapping waves, waves that waited, blocked polls,
intrawave layers and the serialisation depth.

Exit codes: 0 ok, 1 diagnostics or a run that stopped early, 2 bad scene or usage.`;

async function run(values: Record<string, unknown>, positionals: string[], io: CliIO): Promise<number> {
  const [file] = positionals;
  if (!file) throw new UsageError('draw: missing scene file');
  if (values['gpu'] !== undefined) return runAdreno(file, values, io);
  if (values['rd'] !== undefined || values['surface'] !== undefined) throw new UsageError(`draw: --${values['rd'] !== undefined ? 'rd' : 'surface'} needs --gpu a630|a660`);
  if (values['gmem'] !== undefined || values['bin'] !== undefined || values['mode'] !== undefined) throw new UsageError('draw: --gmem / --bin need --gpu a630|a660 (so does --mode)');
  const order = String(values['order'] ?? 'roundrobin');
  if (order !== 'roundrobin' && order !== 'random') throw new UsageError('draw: --order roundrobin|random');
  const seed = intOption(values['seed'], 'draw: --seed', { max: 0xffffffff }) ?? 1;
  const maxInstructions = intOption(values['max-instructions'], 'draw: --max-instructions', { min: 1 }) ?? 50_000_000;
  const traceLimit = intOption(values['trace-limit'], 'draw: --trace-limit', { min: 1 });
  if (traceLimit !== undefined && values['trace'] === undefined) throw new UsageError('draw: --trace-limit needs --trace FILE');
  if (values['timeline'] !== undefined && values['pops-trace'] !== undefined) throw new UsageError('draw: --timeline holds the POPS tracks of --pops-trace: give one of them');
  const events = values['timeline'] !== undefined ? new TraceEvents() : undefined;
  // On a timeline the POPS tracks are processes 1000 + packer, after the CUs' wave tracks.
  const popsTrace = values['pops-trace'] !== undefined ? new PopsTrace() : events ? new PopsTrace(events, 1000, 'POPS packer') : undefined;
  const timeline = events ? new WaveTimeline(events) : undefined;
  const lines: string[] = [];
  const tracer = values['trace'] !== undefined ? new InstructionTracer((l) => void lines.push(l), { ...(traceLimit !== undefined ? { limit: traceLimit } : {}) }) : undefined;
  let r;
  try {
    r = runSceneFile(file, {
      order, seed, maxInstructions, ...(values['gfx'] !== undefined ? { gfx: String(values['gfx']) } : {}), ...(popsTrace ? { popsTrace } : {}),
      ...(tracer ? { tracer, engine: 'interp' as const } : {}), ...(timeline ? { timeline } : {}),
    });
  } finally {
    tracer?.close();
  }
  if (values['pops-trace'] !== undefined && popsTrace) writeFileSync(String(values['pops-trace']), popsTrace.json());
  if (events) writeFileSync(String(values['timeline']), events.json(SQ_CLOCK));
  if (tracer) writeFileSync(String(values['trace']), lines.join('\n') + (lines.length ? '\n' : '') + (tracer.skipped ? `... ${tracer.skipped} more wave-instructions past --trace-limit\n` : ''));
  const t = r.targets[0];
  if (values['out'] !== undefined) {
    if (!t) throw new UsageError('draw: the scene has no colour target to write');
    const img = resolveTarget(r, t);
    const px = new Uint8Array(img.length);
    for (let i = 0; i < img.length; i++) {
      const v = img[i]!;
      px[i] = v !== v ? 0 : Math.round(Math.min(1, Math.max(0, v)) * 255);
    }
    const { encode } = await loadPng();
    writeFileSync(String(values['out']), encode({ width: r.width, height: r.height, data: px, channels: 4, depth: 8 }));
  }
  const written: string[] = [];
  if (values['out'] !== undefined) written.push(`image ${String(values['out'])}`);
  if (values['raw'] !== undefined && !t) throw new UsageError('draw: --raw: the scene has no colour target to write');
  if (values['raw'] !== undefined) written.push(`samples ${String(values['raw'])}`);
  if (values['pm4'] !== undefined) written.push(`PM4 ${String(values['pm4'])}`);
  if (values['pops-trace'] !== undefined) written.push(`POPS trace ${String(values['pops-trace'])}`);
  if (tracer) written.push(`trace ${String(values['trace'])} (${tracer.lines} lines${tracer.skipped ? `, ${tracer.skipped} past the limit` : ''})`);
  if (events) written.push(`timeline ${String(values['timeline'])}`);
  if (values['raw'] !== undefined && t) writeFileSync(String(values['raw']), targetBytes(r, t));
  if (values['pm4'] !== undefined) writeFileSync(String(values['pm4']), new Uint8Array(r.pm4.buffer, r.pm4.byteOffset, r.pm4.byteLength));
  const problems = r.diag.list.filter((d) => d.severity !== 'info');
  if (values['json']) io.stdout(JSON.stringify({ width: r.width, height: r.height, samples: r.samples, packets: r.packets, stats: r.stats, pops: r.pops, popsCache: r.popsCache, queries: Object.fromEntries([...r.queries].map(([k, q]) => [k, q.samples])), diagnostics: r.diag.list }, null, 1) + '\n');
  else {
    const s = r.stats;
    io.stdout(`${r.width}x${r.height} ${r.samples}x: ${s.draws} draw(s), ${s.primitives} primitive(s), ${s.gsWaves} vertex-stage wave(s), ${s.psWaves} PS wave(s), ${s.gsInstructions + s.psInstructions} wave-instructions, ${s.samplesWritten} samples written\n`);
    if (r.pops.length) {
      io.stdout('POPS draw  interlock  waves  overlapping  waited  blocked-polls  layers  depth\n');
      for (const p of r.pops) io.stdout(`${String(p.draw).padStart(9)}  ${`${p.interlock}${p.interlock === 'sample' ? ` ${p.interlockSamples}x` : ''}`.padStart(9)}  ${String(p.waves).padStart(5)}  ${String(p.overlappingWaves).padStart(11)}  ${String(p.waitedWaves).padStart(6)}  ${String(p.blockedPolls).padStart(13)}  ${String(p.intrawaveLayers).padStart(6)}  ${String(p.serialisationDepth).padStart(5)}\n`);
      if (r.popsCache) io.stdout(`POPS ${formatCacheStats(r.popsCache)}\n`);
    }
    for (const [name, q] of r.queries) io.stdout(`occlusion query ${name}: ${q.samples === null ? 'not written by every RB' : `${q.samples} sample(s) passed`}\n`);
    for (const d of r.diag.list.slice(0, 50)) io.stdout(`${d.severity}: ${d.id}: ${d.message}\n`);
    // Say what was written: a run without --out renders but keeps no image.
    io.stdout(written.length ? `wrote ${written.join(', ')}\n` : 'no image written (give --out FILE.png)\n');
  }
  return problems.length || r.stats.aborted ? EXIT_FINDING : EXIT_OK;
}

/** `--gpu a630|a660`: the scene on the a6xx sysmem pipeline. */
async function runAdreno(file: string, values: Record<string, unknown>, io: CliIO): Promise<number> {
  for (const k of ['gfx', 'raw', 'pm4', 'pops-trace', 'seed', 'order', 'max-instructions', 'trace', 'trace-limit', 'timeline']) if (values[k] !== undefined) throw new UsageError(`draw: --${k} is not used with --gpu`);
  const mode = values['mode'] === undefined ? (values['gmem'] ? 'gmem' : 'sysmem') : String(values['mode']);
  if (mode !== 'sysmem' && mode !== 'gmem') throw new UsageError(`draw: --mode must be sysmem or gmem (got ${mode})`);
  if (values['gmem'] && mode !== 'gmem') throw new UsageError('draw: --gmem contradicts --mode sysmem');
  if (values['bin'] !== undefined && mode !== 'gmem') throw new UsageError('draw: --bin needs --mode gmem');
  let bin: { w: number; h: number } | undefined;
  if (values['bin'] !== undefined) {
    const m = /^(\d+)x(\d+)$/.exec(String(values['bin']));
    if (!m) throw new UsageError(`draw: --bin WxH (got ${String(values['bin'])})`);
    bin = { w: Number(m[1]), h: Number(m[2]) };
    if (bin.w <= 0 || bin.h <= 0 || bin.w % 32 || bin.h % 16) throw new UsageError(`draw: --bin ${bin.w}x${bin.h}: a bin is a multiple of 32x16 (GRAS_BIN_CONTROL BINW/BINH units)`);
  }
  const r = runA6xxSceneFile(file, a6xxGpu(String(values['gpu'])), mode === 'gmem' ? (bin ? { bin } : {}) : undefined);
  if (values['out'] !== undefined) {
    if (!r.targets.length) throw new UsageError('draw: the scene has no colour target to write');
    const img = resolveA6xxTarget(r);
    const px = new Uint8Array(img.length);
    for (let i = 0; i < img.length; i++) {
      const v = img[i]!;
      px[i] = v !== v ? 0 : Math.round(Math.min(1, Math.max(0, v)) * 255);
    }
    const { encode } = await loadPng();
    writeFileSync(String(values['out']), encode({ width: r.width, height: r.height, data: px, channels: 4, depth: 8 }));
  }
  if (values['rd'] !== undefined) writeFileSync(String(values['rd']), r.rd);
  if (values['surface'] !== undefined) {
    if (!r.stored.length) throw new UsageError('draw: the scene has no colour target to write');
    writeFileSync(String(values['surface']), r.stored[0]!);
  }
  const problems = r.diag.list.filter((d) => d.severity !== 'info');
  const ran = r.draws.filter((d) => d.ran);
  const sum = (f: (d: (typeof ran)[number]) => number): number => ran.reduce((a, d) => a + f(d), 0);
  const stats = { draws: r.draws.length, ran: ran.length, vertices: sum((d) => d.result!.vertices), primitives: sum((d) => d.result!.primitives), fragments: sum((d) => d.result!.fragments), vsWaves: sum((d) => d.result!.vs.waves), fsWaves: sum((d) => d.result!.fs.waves), samplesWritten: sum((d) => d.result!.rb.samplesWritten) };
  if (values['json']) io.stdout(JSON.stringify({ gpu: r.gpu, width: r.width, height: r.height, samples: r.samples, stats, ...(r.gmem ? { gmem: r.gmem } : {}), diagnostics: r.diag.list }, null, 1) + '\n');
  else {
    io.stdout(`${r.gpu} ${r.width}x${r.height} ${r.samples}x: ${stats.ran}/${stats.draws} draw(s) run (the first clears), ${stats.primitives} primitive(s), ${stats.vsWaves} VS wave(s), ${stats.fsWaves} FS wave(s), ${stats.samplesWritten} samples written\n`);
    if (r.gmem) io.stdout(`GMEM: ${r.gmem.nx}x${r.gmem.ny} bins of ${r.gmem.binW}x${r.gmem.binH}, ${r.gmem.binning ? `binning pass, ${r.gmem.skippedDraws} draw(s) and ${r.gmem.skippedPrims} primitive(s) skipped by the visibility stream` : 'no binning pass'}\n`);
    for (const d of r.diag.list.slice(0, 50)) io.stdout(`${d.severity}: ${d.id}: ${d.message}\n`);
    const written = [values['out'] !== undefined ? `image ${String(values['out'])}` : '', values['rd'] !== undefined ? `capture ${String(values['rd'])}` : '', values['surface'] !== undefined ? `surface ${String(values['surface'])}` : ''].filter(Boolean);
    io.stdout(written.length ? `wrote ${written.join(', ')}\n` : 'no image written (give --out FILE.png)\n');
  }
  return problems.length || ran.length !== r.draws.length ? EXIT_FINDING : EXIT_OK;
}

/**
 * fast-png (a dependency) is loaded only when a PNG is written, so library users who never write
 * one (and the browser bundle) do not load it.
 */
export async function loadPng(): Promise<typeof import('fast-png')> {
  return import('fast-png');
}

export const drawCommand: Command = {
  name: 'draw',
  summary: 'render a scene through PM4, NGG/VS, raster, PS, DB and CB (GFX11, GFX10.3, GFX9) to a PNG',
  help: HELP,
  options: {
    out: { type: 'string' }, raw: { type: 'string' }, pm4: { type: 'string' }, gfx: { type: 'string' }, seed: { type: 'string' },
    order: { type: 'string' }, 'max-instructions': { type: 'string' }, 'pops-trace': { type: 'string' }, json: { type: 'boolean' },
    trace: { type: 'string' }, 'trace-limit': { type: 'string' }, timeline: { type: 'string' },
    gpu: { type: 'string' }, rd: { type: 'string' }, surface: { type: 'string' }, gmem: { type: 'boolean' }, mode: { type: 'string' }, bin: { type: 'string' },
  },
  positionals: true,
  run,
};
