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

const HELP = `usage: gpusim pops oit [--gfx gfx11|gfx10.3|gfx9] [--seed N] [--samples 1|2|4|8] [--interlock pixel|sample]
                     [--draws N] [--prims N] [--size N] [--intrawave] [--variant NAME] [--pops-trace FILE] [--json]

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
  --pops-trace   write a Chrome trace (opens in Perfetto / chrome://tracing): per wave its life,
                 its wait for overlapped waves and its ordered section; model clocks shown as µs
Exit code 1 when the image differs or a diagnostic fired.`;

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
  const num = (k: string, d: number): number => {
    const v = values[k] === undefined ? d : Number(values[k]);
    if (!Number.isInteger(v) || v < 0) throw new Error(`--${k} must be a non-negative integer`);
    return v;
  };
  let seed: number, samples: number, draws: number, prims: number, size: number;
  try {
    seed = num('seed', 1);
    samples = num('samples', 4);
    draws = num('draws', 2);
    prims = num('prims', 24);
    size = num('size', 32);
  } catch (e) {
    io.stderr(`gpusim pops: ${(e as Error).message}\n`);
    return EXIT_ERROR;
  }
  const interlock = String(values['interlock'] ?? 'pixel');
  const variant = String(values['variant'] ?? 'correct') as OitVariant;
  if (![1, 2, 4, 8].includes(samples) || (interlock !== 'pixel' && interlock !== 'sample') || !VARIANTS.includes(variant) ||
      draws < 1 || size < 4 || size % 2 !== 0) {
    io.stderr('gpusim pops: bad --samples (1, 2, 4, 8), --interlock (pixel, sample), --variant, --draws or --size (even, >= 4)\n');
    return EXIT_ERROR;
  }
  const intrawave = values['intrawave'] === true;
  if (intrawave && gen !== 'gfx103') {
    io.stderr('gpusim pops: --intrawave needs --gfx gfx10.3 (GFX11 has no intrawave collisions)\n');
    return EXIT_ERROR;
  }
  const trace = values['pops-trace'] ? new PopsTrace() : undefined;
  const r = runOit({
    gen, target: executableTarget(gen === 'gfx11' ? 'gfx1100' : gen === 'gfx9' ? 'gfx900' : 'gfx1030')!, seed, prims, size, variant,
    draws: Array.from({ length: draws }, () => ({ samples, interlock: interlock as 'pixel' | 'sample', intrawave })),
    ...(trace ? { trace } : {}),
  });
  if (trace) writeFileSync(String(values['pops-trace']), trace.json());
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
    json: { type: 'boolean' },
  },
  run,
};
