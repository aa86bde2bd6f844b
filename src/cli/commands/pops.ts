/**
 * `gpusim pops oit`: run the POPS order-independent-transparency scene (src/amd/gfx/pops-oit.ts)
 * on executed pixel-shader waves, compare the image with the serial primitive-order reference,
 * print the per-draw statistics, and optionally write a Chrome trace of the ordered sections.
 */
import { mcpuName } from '../../amd/isa/targets.js';
import { formatCacheStats } from '../../amd/gfx/pops-cache.js';
import { writeFileSync } from 'node:fs';
import type { CliIO, Command } from '../command.js';
import { EXIT_ERROR, EXIT_FINDING, EXIT_OK } from '../command.js';
import '../../amd/engine/bind.js';
import { executableTarget } from '../../amd/target/executable.js';
import { imageDiff, runOit } from '../../amd/gfx/pops-oit.js';
import type { OitVariant } from '../../amd/gfx/pops-oit.js';
import type { PopsGen } from '../../amd/gfx/pops-config.js';
import { PopsTrace } from '../../amd/gfx/pops-run.js';
import { PopsError } from '../../amd/gfx/pops.js';
import { UsageError } from '../../core/errors.js';
import { intOption } from '../../core/numbers.js';
import { TraceEvents } from '../../core/trace-events.js';
import { SQ_CLOCK, WaveTimeline } from '../../amd/sq/timeline.js';

const HELP = `usage: gpusim pops oit [--gfx gfx11|gfx10.3|gfx9] [--seed N] [--samples 1|2|4|8] [--interlock pixel|sample]
                     [--draws N] [--prims N] [--size N] [--intrawave] [--variant NAME] [--pops-trace FILE]
                     [--timeline FILE] [--json]

Runs the Primitive Ordered Pixel Shading OIT scene: overlapping primitives whose pixel shader
read-modify-writes a per-sample image in its ordered section (the entering/exiting sequences of
src/amd/gfx/pops-asm.ts), under a seeded random scheduler over 4 CUs. Prints whether the image
equals the serial primitive-order reference, the diagnostics, and per draw: waves, overlapping
waves, waves that waited, blocked polls, intrawave layers, serialisation depth.

  --gfx          gfx11 (gfx1100, global memory through the L0/L1/L2 model; default) or gfx10.3
                 (gfx1030, image in LDS) or gfx9 (gfx900, wave64, global memory, s_sleep 3 wait loop)
  --variant      correct (default), no-wait, plain-first-read, plain-last-write, no-exit-wait, all-coherent,
                 load-at-exit, load-at-exit-awaited (gfx11: a read outstanding / awaited at the exit)
  --intrawave    load INTRAWAVE_COLLISION and run the layer loop (gfx10.3)
  --seed         0 .. 2^32-1; --size: even, 4 .. 1024; --draws x --prims: at most 512 primitives (the runner
                 rasterizes every draw first; 512 POPS wave IDs per packer); the waves that
                 do not fit in the wave-ID space are reported as a usage error
  --pops-trace   write a Chrome trace (opens in Perfetto / chrome://tracing): per wave its life,
                 its wait for overlapped waves and its ordered section; model clocks shown as µs
  --timeline     write a Chrome/Perfetto trace of the scheduler: every wave's turns per CU and SIMD
                 (as \`run\`/\`draw --timeline\`) with the POPS tracks of --pops-trace beside them
Exit code 1 when the image differs or a diagnostic fired.`;

/** Limits of the options (the image is size x size x 8 sample slots, twice: the run's and the reference). */
export const MAX_SIZE = 1024;
export const MAX_DRAWS = 512;
export const MAX_PRIMS = 512;
export const MAX_TOTAL_PRIMS = 512;
const oneWord = (s: string): string => (s.length > 40 ? `'${s.slice(0, 40)}…'` : `'${s}'`);

const VARIANTS: readonly OitVariant[] = ['correct', 'no-wait', 'plain-first-read', 'plain-last-write', 'no-exit-wait', 'all-coherent', 'load-at-exit', 'load-at-exit-awaited'];

function run(values: Record<string, unknown>, positionals: string[], io: CliIO): number {
  if (positionals[0] !== 'oit' || positionals.length !== 1) {
    io.stderr('gpusim pops: expected the scene name `oit` (see --help)\n');
    return EXIT_ERROR;
  }
  const gfx = String(values['gfx'] ?? 'gfx11');
  const mcpu = mcpuName(gfx);
  const gen: PopsGen | null = mcpu === 'gfx1100' ? 'gfx11' : mcpu === 'gfx1030' ? 'gfx103' : mcpu === 'gfx900' ? 'gfx9' : null;
  if (!gen) {
    io.stderr(`gpusim pops: --gfx ${gfx}: expected gfx11, gfx10.3 or gfx9 (or gfx1100, gfx1030, gfx900)\n`);
    return EXIT_ERROR;
  }
  // Each option is checked on its own, against a limit named in the message (docs/cli.md).
  const num = (k: string, d: number, max: number): number => intOption(values[k], `pops: --${k}`, { min: 0, max }) ?? d;
  const seed = num('seed', 1, 0xffffffff);
  const samples = num('samples', 4, 8);
  const draws = num('draws', 2, MAX_DRAWS);
  const prims = num('prims', 24, MAX_PRIMS);
  const size = num('size', 32, MAX_SIZE);
  const interlock = String(values['interlock'] ?? 'pixel');
  const variant = String(values['variant'] ?? 'correct') as OitVariant;
  if (![1, 2, 4, 8].includes(samples)) throw new UsageError(`pops: --samples ${samples}: expected 1, 2, 4 or 8`);
  if (interlock !== 'pixel' && interlock !== 'sample') throw new UsageError(`pops: --interlock ${oneWord(interlock)}: expected pixel or sample`);
  if (!VARIANTS.includes(variant)) throw new UsageError(`pops: --variant ${oneWord(variant)}: expected one of ${VARIANTS.join(', ')}`);
  if (draws < 1) throw new UsageError('pops: --draws 0: expected at least 1 draw');
  if (size < 4 || size % 2 !== 0) throw new UsageError(`pops: --size ${size}: expected an even size of at least 4 (and at most ${MAX_SIZE})`);
  if (draws * prims > MAX_TOTAL_PRIMS) throw new UsageError(`pops: --draws ${draws} x --prims ${prims} = ${draws * prims} primitives; the OIT runner takes at most ${MAX_TOTAL_PRIMS} in all (it rasterizes every draw before running them)`);
  const intrawave = values['intrawave'] === true;
  if (intrawave && gen !== 'gfx103') {
    io.stderr('gpusim pops: --intrawave needs --gfx gfx10.3 (GFX11 has no intrawave collisions)\n');
    return EXIT_ERROR;
  }
  if (values['timeline'] !== undefined && values['pops-trace'] !== undefined) throw new UsageError('pops: --timeline holds the POPS tracks of --pops-trace: give one of them');
  const events = values['timeline'] !== undefined ? new TraceEvents() : undefined;
  // On a timeline the POPS tracks are processes 1000 + CU, after the SQ's wave tracks.
  const trace = values['pops-trace'] !== undefined ? new PopsTrace() : events ? new PopsTrace(events, 1000, 'POPS CU') : undefined;
  const timeline = events ? new WaveTimeline(events) : undefined;
  let r;
  try {
    r = runOit({
    gen, target: executableTarget(gen === 'gfx11' ? 'gfx1100' : gen === 'gfx9' ? 'gfx900' : 'gfx1030')!, seed, prims, size, variant,
    draws: Array.from({ length: draws }, () => ({ samples, interlock: interlock as 'pixel' | 'sample', intrawave })),
    ...(trace ? { trace } : {}), ...(timeline ? { timeline } : {}),
    });
  } catch (e) {
    // Every wave is rasterized before any runs: one packer's 10-bit POPS wave IDs bound them.
    if (e instanceof PopsError) throw new UsageError(`pops: the scene needs more waves in flight than the POPS wave-ID limit (512 per packer) allows; use fewer --draws or --prims, or a larger --size (${e.message})`);
    throw e;
  }
  if (events) writeFileSync(String(values['timeline']), events.json(SQ_CLOCK));
  else if (trace) writeFileSync(String(values['pops-trace']), trace.json());
  const diff = imageDiff(r.image, r.reference);
  const diags = r.diags.list;
  if (values['json'] === true) {
    io.stdout(`${JSON.stringify({ gen, seed, variant, imageDiffers: diff, instructions: r.run.instructions, draws: r.stats, cache: r.cache, diagnostics: diags }, null, 2)}\n`);
  } else {
    io.stdout(`POPS OIT ${gfx} seed ${seed}, ${draws} draws x ${prims} primitives, ${samples}x ${interlock} interlock, variant ${variant}\n`);
    io.stdout(`image: ${diff === 0 ? 'equals the serial primitive-order reference' : `${diff} sample slots differ from the serial reference`}\n`);
    io.stdout(`${r.run.instructions} wave-instructions, ${r.run.clock} model clocks\n`);
    io.stdout('draw  waves  overlapping  waited  blocked-polls  layers  depth\n');
    r.stats.forEach((s, d) => io.stdout(`${String(d).padStart(4)}  ${String(s.waves).padStart(5)}  ${String(s.overlappingWaves).padStart(11)}  ${String(s.waitedWaves).padStart(6)}  ${String(s.blockedPolls).padStart(13)}  ${String(s.intrawaveLayers).padStart(6)}  ${String(s.serialisationDepth).padStart(5)}\n`));
    if (r.cache) io.stdout(`${formatCacheStats(r.cache)}\n`);
    for (const d of diags) io.stdout(`${d.severity} ${d.id}: ${d.message}\n`);
  }
  return diff === 0 && diags.length === 0 ? EXIT_OK : EXIT_FINDING;
}

export const popsCommand: Command = {
  name: 'pops',
  summary: 'run the POPS order-independent-transparency scene on executed pixel shaders (--pops-trace)',
  help: HELP,
  positionals: true,
  options: {
    gfx: { type: 'string' },
    seed: { type: 'string' },
    samples: { type: 'string' },
    interlock: { type: 'string' },
    draws: { type: 'string' },
    prims: { type: 'string' },
    size: { type: 'string' },
    intrawave: { type: 'boolean' },
    variant: { type: 'string' },
    'pops-trace': { type: 'string' },
    timeline: { type: 'string' },
    json: { type: 'boolean' },
  },
  run,
};
