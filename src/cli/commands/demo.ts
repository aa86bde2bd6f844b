/**
 * `gpusim demo`: a one-screen tour on bundled inputs only (no ../shared, no LLVM): run a clang-19
 * kernel and a hand-written one, disassemble a code object, render the POPS scene to a PNG, run an
 * R600 kernel showing its CF program with the CF stack, disassemble and run Adreno's SQE firmware
 * (gpusim's built-in test firmware), and round-trip every bundled AMD instruction. Each step is
 * the real command (its Command object), with its output cut to a few lines.
 */
import { mkdtempSync, readFileSync, readdirSync, existsSync, writeFileSync } from 'node:fs';
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
import { CmdStream, Layout } from '../../adreno/cp/builder.js';
import { RdWriter } from '../../formats/rd.js';

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
  /** Exit codes that count as success (default 0 only): a real capture's decode may report findings. */
  readonly accept?: readonly number[];
}

/** A real a6xx capture, when the shared inputs are checked out beside the repository. */
export const SHARED_CAPTURE = '../shared/adreno-captures/traces/fd-clouds.rd.gz';

/**
 * A small a6xx frame built by gpusim's command-stream builder (src/adreno/cp/builder.ts): per draw
 * CP_SCRATCH writes, a draw-state group (CP_SET_DRAW_STATE), a CP_DRAW_INDX_OFFSET; then a
 * CACHE_FLUSH_TS event; written as an .rd capture (as the Mesa tools read them) for a630.
 */
export function demoFrameRd(): Uint8Array {
  const L = new Layout();
  const fence = L.reserve(4096, 'fence');
  const state = L.place(new CmdStream().reg('RB_BLEND_CNTL', 1).regs32('GRAS_CL_VPORT[0].XOFFSET', [1, 2, 3, 4, 5, 6]), 'state');
  const cs = new CmdStream().setMarker('RM6_BYPASS');
  for (let i = 0; i < 3; i++) {
    cs.regs32('CP_SCRATCH[0]', [i, i + 1, i + 2]);
    cs.setDrawState([{ groupId: i, addr: state.iova, count: state.sizeDwords, dirty: true }]);
    cs.drawAuto('DI_PT_TRILIST', 3);
  }
  cs.event('CACHE_FLUSH_TS', fence, 7);
  const ib = L.place(cs, 'ib1');
  const w = new RdWriter().gpuId(630);
  for (const b of L.buffers) w.buffer(b.iova, b.data);
  return w.cmdstream(ib.iova, ib.sizeDwords).bytes();
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
  2. gpusim run examples/asm-kernel/sum.json --trace DIR/sum.trace   a hand-written kernel, assembled
     by gpusim, with its instruction trace
  3. gpusim disasm kernels/bin/gfx1100/saxpy.co --collapse-padding
  4. gpusim draw examples/pops-oit/scene.json --out DIR/pops-oit.png   POPS draws to a PNG
  5. gpusim r600 run kernels/r600/manifests/vadd.cypress.json --trace  CF program and CF stack
  6. gpusim adreno afuc disasm / emu on the built-in SQE test firmware
  7. gpusim adreno decode ../shared/adreno-captures/traces/fd-clouds.rd.gz --summary: a real
     capture, when ../shared is checked out beside the repository; else a frame gpusim's own
     command-stream builder wrote as DIR/adreno-frame.rd
  8. gpusim adreno run DIR/adreno-frame.rd --timeline DIR/adreno-cp.json: that frame on the CP
  9. every instruction of every bundled gfx1100 object decoded, printed and re-assembled
  --out DIR   where the PNG, the R600 trace and the Adreno files go (default: a new temporary directory)
  --json      one record per step: the command, its exit code and its full output
Exit: 0 when every step succeeds, 1 otherwise.`,
  options: { json: { type: 'boolean', default: false }, out: { type: 'string' } },
  async run(values, _positionals, io) {
    const root = packageRoot();
    const at = (p: string): string => join(root, p);
    if (!existsSync(at('kernels/bin/gfx1100'))) throw new InputError(`bundled kernels not found at ${at('kernels/bin/gfx1100')}`);
    const dir = typeof values.out === 'string' ? values.out : mkdtempSync(join(tmpdir(), 'gpusim-demo-'));
    // The Adreno steps: a real capture when ../shared is checked out, and a frame of our own builder.
    const frame = join(dir, 'adreno-frame.rd');
    writeFileSync(frame, demoFrameRd());
    const capture = existsSync(at(SHARED_CAPTURE)) ? at(SHARED_CAPTURE) : null;
    const head = (n: number) => (l: string[]): string[] => (l.length > n ? [...l.slice(0, n), `… (${l.length - n} more lines)`] : l);
    const steps: Step[] = [
      { title: 'a clang-19 kernel on the RDNA3 model', cmd: runCommand, argv: [at('kernels/manifests/vadd.json')], pick: head(4) },
      { title: 'a hand-written kernel (labels, .amdhsa_kernel), assembled and run', cmd: runCommand, argv: [at('examples/asm-kernel/sum.json'), '--trace', join(dir, 'sum.trace')], pick: head(3) },
      { title: 'disassembly, as llvm-objdump-19 prints it (padding collapsed)', cmd: disasmCommand, argv: [at('kernels/bin/gfx1100/saxpy.co'), '--collapse-padding'], pick: (l) => [...l.slice(2, 7), '…'] },
      { title: 'POPS: PM4 -> NGG -> raster -> ordered pixel shaders -> PNG', cmd: drawCommand, argv: [at('examples/pops-oit/scene.json'), '--out', join(dir, 'pops-oit.png')], pick: head(5) },
      { title: 'R600 (Evergreen): CF program, ALU clauses, the CF stack per wave', cmd: r600Command, argv: ['run', at('kernels/r600/manifests/vadd.cypress.json'), '--trace', join(dir, 'r600.trace')], pick: head(3) },
      { title: 'Adreno SQE firmware (built-in test firmware), as afuc-disasm prints it', cmd: adrenoCommand, argv: ['afuc', 'disasm', 'test'], pick: (l) => l.filter((x) => !x.startsWith(';')).slice(0, 3) },
      { title: 'Adreno SQE firmware executed', cmd: adrenoCommand, argv: ['afuc', 'emu', 'test', '--steps', '40'], pick: head(3) },
      capture !== null
        ? { title: 'Adreno: a captured a6xx frame decoded (../shared)', cmd: adrenoCommand, argv: ['decode', capture, '--summary'], pick: head(3), accept: [0, 1] }
        : { title: 'Adreno: a frame gpusim built, decoded (../shared captures not found)', cmd: adrenoCommand, argv: ['decode', frame, '--summary'], pick: head(3) },
      { title: "Adreno: a frame gpusim's stream builder wrote, run on the a6xx CP (packets on a Perfetto timeline)", cmd: adrenoCommand, argv: ['run', frame, '--timeline', join(dir, 'adreno-cp.json')], pick: head(2) },
    ];
    const records: { command: string; code: number; output: string[] }[] = [];
    let ok = true;
    for (const [i, s] of steps.entries()) {
      const { values: v, positionals: p } = parse(s.cmd, s.argv);
      const r = await runStep(s.cmd, v, p);
      const shown = s.argv.map((a) => (a.startsWith(root) ? a.slice(root.length + 1) : a === capture ? SHARED_CAPTURE : a));
      records.push({ command: `gpusim ${s.cmd.name} ${shown.join(' ')}`, code: r.code, output: r.out });
      ok &&= (s.accept ?? [0]).includes(r.code);
      if (values.json) continue;
      io.stdout(`${i ? '\n' : ''}== ${i + 1}. ${s.title}\n   $ gpusim ${s.cmd.name} ${shown.join(' ')}${r.code ? `   (exit ${r.code}${s.accept?.includes(r.code) ? ': findings the tool reports' : ''})` : ''}\n`);
      for (const l of s.pick(r.out)) io.stdout(`   ${l}\n`);
      if (s.argv.includes(join(dir, 'sum.trace'))) {
        const t = readFileSync(join(dir, 'sum.trace'), 'utf8').split('\n').filter(Boolean);
        io.stdout(`   --trace (wave, pc, EXEC, instruction | registers changed | memory), 2 of ${t.length} lines:\n`);
        for (const l of [t.find((x) => x.includes('global_load'))!, t.find((x) => x.includes('v_add_nc_u32_e32 v2, v2, v1'))!]) io.stdout(`     ${l}\n`);
      }
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
