/**
 * `gpusim demo`: a one-screen tour on bundled inputs only (no ../shared, no LLVM): run a clang-19
 * kernel and a hand-written one, disassemble a code object, render the POPS scene to a PNG, run an
 * R600 kernel showing its CF program with the CF stack, disassemble and run Adreno's SQE firmware
 * (gpusim's built-in test firmware), and round-trip every bundled AMD instruction. Each step is
 * the real command (its Command object), with its output cut to a few lines.
 */
import { mkdtempSync, readFileSync, readdirSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CliIO, Command } from '../command.js';
import { InputError } from '../../core/errors.js';
import { loadCodeObject } from '../../formats/amdgpu/codeobject.js';
import { listCodeObject } from '../../amd/isa/listing.js';
import { roundTrips } from '../../amd/isa/target.js';
import { gfx11 } from '../../amd/isa/gfx11/index.js';
import { runCommand } from './run.js';
import { disasmCommand } from './disasm.js';
import { drawCommand } from './draw.js';
import { r600Command } from './r600.js';
import { adrenoCommand } from './adreno.js';

/** The repository/package root (dist/src/cli/commands -> four levels up). */
export function packageRoot(): string {
  return resolve(dirname(fileURLToPath(import.meta.url)), '../../../..');
}

interface Step {
  readonly title: string;
  readonly cmd: Command;
  readonly argv: readonly string[];
  /** Which output lines to show. */
  readonly pick: (lines: string[]) => string[];
}

/** Run a command object with parsed options, collecting its output. */
async function runStep(cmd: Command, values: Record<string, unknown>, positionals: string[]): Promise<{ code: number; out: string[] }> {
  let out = '';
  const io: CliIO = { stdout: (s) => void (out += s), stderr: (s) => void (out += s), isTTY: false };
  const code = await cmd.run(values, positionals, io);
  return { code, out: out.split('\n').filter((l) => l !== '') };
}

/** argv -> parseArgs-like values (the demo's own argument lists only: --k v, --flag). */
function parse(cmd: Command, argv: readonly string[]): { values: Record<string, unknown>; positionals: string[] } {
  const values: Record<string, unknown> = {};
  const positionals: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (!a.startsWith('--')) {
      positionals.push(a);
      continue;
    }
    const k = a.slice(2);
    const o = cmd.options[k];
    if (!o) throw new Error(`demo: ${cmd.name} has no --${k}`);
    if (o.type === 'boolean') values[k] = true;
    else values[k] = o.multiple ? [argv[++i]!] : argv[++i]!;
  }
  return { values, positionals };
}

export const demoCommand: Command = {
  name: 'demo',
  summary: 'a one-screen tour on bundled inputs: kernels, disassembly, a POPS PNG, R600, Adreno',
  help: `usage: gpusim demo [--out DIR] [--json]

A tour of what gpusim does, on inputs bundled in the repository (about one screen):
  1. gpusim run kernels/manifests/vadd.json              a clang-19 kernel on the RDNA3 model
  2. gpusim run examples/asm-kernel/sum.json             a hand-written kernel, assembled by gpusim
  3. gpusim disasm kernels/bin/gfx1100/saxpy.co --collapse-padding
  4. gpusim draw examples/pops-oit/scene.json --out DIR/pops-oit.png   POPS draws to a PNG
  5. gpusim r600 run kernels/r600/manifests/vadd.cypress.json --trace  CF program and CF stack
  6. gpusim adreno afuc disasm / emu on the built-in SQE test firmware
  7. every instruction of every bundled gfx1100 object decoded, printed and re-assembled
  --out DIR   where the PNG (and the R600 trace) go (default: a new temporary directory)
  --json      one record per step: the command, its exit code and its full output
Exit: 0 when every step succeeds, 1 otherwise.`,
  options: { json: { type: 'boolean', default: false }, out: { type: 'string' } },
  async run(values, _positionals, io) {
    const root = packageRoot();
    const at = (p: string): string => join(root, p);
    if (!existsSync(at('kernels/bin/gfx1100'))) throw new InputError(`bundled kernels not found at ${at('kernels/bin/gfx1100')}`);
    const dir = typeof values.out === 'string' ? values.out : mkdtempSync(join(tmpdir(), 'gpusim-demo-'));
    const head = (n: number) => (l: string[]): string[] => (l.length > n ? [...l.slice(0, n), `… (${l.length - n} more lines)`] : l);
    const steps: Step[] = [
      { title: 'a clang-19 kernel on the RDNA3 model', cmd: runCommand, argv: [at('kernels/manifests/vadd.json')], pick: head(4) },
      { title: 'a hand-written kernel (labels, .amdhsa_kernel), assembled and run', cmd: runCommand, argv: [at('examples/asm-kernel/sum.json')], pick: head(3) },
      { title: 'disassembly, as llvm-objdump-19 prints it (padding collapsed)', cmd: disasmCommand, argv: [at('kernels/bin/gfx1100/saxpy.co'), '--collapse-padding'], pick: (l) => [...l.slice(2, 9), '…', ...l.slice(-2)] },
      { title: 'POPS: PM4 -> NGG -> raster -> ordered pixel shaders -> PNG', cmd: drawCommand, argv: [at('examples/pops-oit/scene.json'), '--out', join(dir, 'pops-oit.png')], pick: head(5) },
      { title: 'R600 (Evergreen): CF program, ALU clauses, the CF stack per wave', cmd: r600Command, argv: ['run', at('kernels/r600/manifests/vadd.cypress.json'), '--trace', join(dir, 'r600.trace')], pick: head(3) },
      { title: 'Adreno SQE firmware (built-in test firmware), as afuc-disasm prints it', cmd: adrenoCommand, argv: ['afuc', 'disasm', 'test'], pick: (l) => l.filter((x) => !x.startsWith(';')).slice(0, 6) },
      { title: 'Adreno SQE firmware executed', cmd: adrenoCommand, argv: ['afuc', 'emu', 'test', '--steps', '40'], pick: head(3) },
    ];
    const records: { command: string; code: number; output: string[] }[] = [];
    let ok = true;
    for (const [i, s] of steps.entries()) {
      const { values: v, positionals: p } = parse(s.cmd, s.argv);
      const r = await runStep(s.cmd, v, p);
      const shown = s.argv.map((a) => (a.startsWith(root) ? a.slice(root.length + 1) : a));
      records.push({ command: `gpusim ${s.cmd.name} ${shown.join(' ')}`, code: r.code, output: r.out });
      ok &&= r.code === 0;
      if (values.json) continue;
      io.stdout(`${i ? '\n' : ''}== ${i + 1}. ${s.title}\n   $ gpusim ${s.cmd.name} ${shown.join(' ')}${r.code ? `   (exit ${r.code})` : ''}\n`);
      for (const l of s.pick(r.out)) io.stdout(`   ${l}\n`);
      if (s.cmd === r600Command) {
        const t = readFileSync(join(dir, 'r600.trace'), 'utf8').split('\n').filter(Boolean);
        io.stdout(`   CF trace (wave, instruction, active/valid masks, CF stack depth), first of ${t.length} lines:\n`);
        for (const l of t.slice(0, 5)) io.stdout(`     ${l}\n`);
      }
    }
    // Every bundled gfx1100 instruction: decode, print, re-assemble.
    const objs = readdirSync(at('kernels/bin/gfx1100')).filter((f) => f.endsWith('.co') || f.endsWith('.o')).sort();
    let insts = 0;
    let same = 0;
    for (const f of objs) {
      const co = loadCodeObject(new Uint8Array(readFileSync(join(at('kernels/bin/gfx1100'), f))), f);
      for (const b of listCodeObject(gfx11, co)) {
        for (const l of b.lines) {
          if (!l.inst) continue;
          insts++;
          if (roundTrips(gfx11, l)) same++;
        }
      }
    }
    ok &&= same === insts;
    if (values.json) io.stdout(JSON.stringify({ steps: records, roundTrip: { objects: objs.length, instructions: insts, same }, out: dir }, null, 1) + '\n');
    else {
      io.stdout(`\n== ${steps.length + 1}. ${objs.length} bundled gfx1100 code objects: ${same} of ${insts} instructions decode, print and re-assemble to the same bytes\n`);
      io.stdout(`\nfiles written to ${dir}; every step is a command: gpusim <command> --help\n`);
    }
    return ok ? 0 : 1;
  },
};
