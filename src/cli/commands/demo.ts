/**
 * `gpusim demo`: the built-in demo on bundled inputs. Loads the clang-19 kernels shipped in
 * kernels/bin/gfx1100, shows one kernel's descriptor and disassembly, then decodes, prints and
 * re-assembles every instruction of every bundled code object and reports the round trip, then
 * runs the bundled vadd kernel through the manifest path (kernels/manifests/vadd.json, as
 * `gpusim run` does) and prints its result check.
 */
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Command } from '../command.js';
import { InputError } from '../../core/errors.js';
import { loadCodeObject } from '../../formats/amdgpu/codeobject.js';
import { formatListing, listCodeObject } from '../../amd/isa/listing.js';
import { roundTrips } from '../../amd/isa/target.js';
import { gfx11 } from '../../amd/isa/gfx11/index.js';
import { loadManifest } from '../../runtime/manifest.js';
import { runManifest } from '../../runtime/run.js';
import { summary as runSummary } from './run.js';

/** The repository/package root (dist/src/cli/commands -> four levels up). */
export function packageRoot(): string {
  return resolve(dirname(fileURLToPath(import.meta.url)), '../../../..');
}

export const demoCommand: Command = {
  name: 'demo',
  summary: 'run the built-in demo on the bundled clang-19 kernels',
  help: `usage: gpusim demo [--json]

Loads the bundled gfx1100 code objects (kernels/bin/gfx1100), prints the saxpy kernel's
descriptor summary and disassembly, then decodes, prints and re-assembles every instruction of
every bundled object and reports how many round-trip to the same bytes. Then runs
kernels/manifests/vadd.json on the RDNA3 model (as \`gpusim run\` does) and checks its output.
  --json   print the round-trip summary and the run's result as JSON
Exit: 0 when every instruction round-trips and the kernel's output matches, 1 otherwise.`,
  options: { json: { type: 'boolean', default: false } },
  run(values, _positionals, io) {
    const dir = join(packageRoot(), 'kernels/bin/gfx1100');
    if (!existsSync(dir)) throw new InputError(`bundled kernels not found at ${dir}`);
    const objs = readdirSync(dir).filter((f) => f.endsWith('.co') || f.endsWith('.o')).sort();
    let insts = 0;
    let same = 0;
    const mismatches: string[] = [];
    const encodings = new Map<string, number>();
    const t0 = performance.now();
    for (const f of objs) {
      const co = loadCodeObject(new Uint8Array(readFileSync(join(dir, f))), f);
      if (f === 'saxpy.co' && !values.json) {
        const k = co.kernels[0]!;
        io.stdout(`== ${f}: ${co.target.mcpu}, code object v${co.codeObjectVersion}, kernel ${k.name}: wave${k.kd.derived.waveSize} ${k.codeSize} bytes of code\n`);
        io.stdout(formatListing(listCodeObject(gfx11, co, k.name)));
      }
      for (const b of listCodeObject(gfx11, co)) {
        for (const l of b.lines) {
          if (!l.inst) continue;
          insts++;
          encodings.set(l.inst.encoding, (encodings.get(l.inst.encoding) ?? 0) + 1);
          if (roundTrips(gfx11, l)) same++;
          else if (mismatches.length < 10) mismatches.push(`${f} ${l.pc.toString(16)}: ${l.text}`);
        }
      }
    }
    const ms = performance.now() - t0;
    const manifest = join(packageRoot(), 'kernels/manifests/vadd.json');
    const run = runManifest(loadManifest(manifest));
    const summary = {
      objects: objs.length, instructions: insts, roundTrip: same,
      byEncoding: Object.fromEntries([...encodings.entries()].sort((a, b) => b[1] - a[1])), ms: Math.round(ms), mismatches,
      run: {
        manifest: 'kernels/manifests/vadd.json', ok: run.exitCode === 0, waves: run.report.waves,
        waveInstructions: run.report.waveInstructions, laneOperations: run.report.laneOperations,
        expectations: run.expectations, diagnostics: run.report.diagnosticCounts,
      },
    };
    if (values.json) io.stdout(JSON.stringify(summary, null, 1) + '\n');
    else {
      io.stdout(`\n== ${objs.length} bundled gfx1100 objects: ${insts} instructions decoded, printed and re-assembled in ${summary.ms} ms\n`);
      io.stdout(`   by encoding: ${[...encodings.entries()].sort((a, b) => b[1] - a[1]).map(([k, v]) => `${k} ${v}`).join(', ')}\n`);
      io.stdout(`   ${same} of ${insts} re-assemble to the same bytes${mismatches.length ? ':\n   ' + mismatches.join('\n   ') : ''}\n`);
      io.stdout(`\n== gpusim run kernels/manifests/vadd.json\n`);
      io.stdout(runSummary(run));
    }
    return same === insts && run.exitCode === 0 ? 0 : 1;
  },
};
