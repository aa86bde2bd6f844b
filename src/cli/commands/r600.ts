/** `gpusim r600 disasm|asm|run`: the R600/Evergreen/Cayman tools. */
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from '../command.js';
import { InputError, UsageError } from '../../core/errors.js';
import { intOption } from '../../core/numbers.js';
import { MCPU_GEN, decodeProgram, type R600Gen } from '../../r600/isa/decode.js';
import { assembleListing } from '../../r600/isa/asm.js';
import { disassembleKernel, loadR600Object, vtxName } from '../../r600/isa/object.js';
import { printProgram } from '../../r600/isa/print.js';
import { runR600Manifest } from '../../runtime/r600.js';
import { coverageLines, r600Coverage, type CoverageSources } from '../../r600/coverage.js';
import { fileURLToPath } from 'node:url';

/** Fixture listings (kernels/r600/bin/<chip>/*.s) and test/r600 sources under a checkout. */
export function coverageSources(root: string): CoverageSources {
  const names = (dir: string): string[] => {
    try {
      return readdirSync(dir).sort();
    } catch {
      throw new InputError(`cannot read ${dir} (coverage reads a gpusim checkout; --root DIR)`);
    }
  };
  const texts = (dir: string, ext: string, keep: (f: string) => boolean = () => true): string[] =>
    names(dir).filter((f) => f.endsWith(ext) && keep(f)).map((f) => readFileSync(join(dir, f), 'utf8'));
  const bin = join(root, 'kernels/r600/bin');
  const fixtures = new Map<string, string[]>();
  for (const chip of names(bin)) fixtures.set(chip, texts(join(bin, chip), '.s'));
  // coverage.test.ts names ops to check the measurement, not to test them.
  return { fixtures, tests: texts(join(root, 'test/r600'), '.ts', (f) => f !== 'coverage.test.ts') };
}

function genOf(mcpu: string): R600Gen {
  const g = MCPU_GEN[mcpu];
  if (!g) throw new UsageError(`r600: unknown --mcpu '${mcpu}' (known: ${Object.keys(MCPU_GEN).join(', ')})`);
  return g;
}

export const r600Command: Command = {
  name: 'r600',
  summary: 'R600/Evergreen/Cayman: disassemble, assemble, and run clang r600 kernels',
  help: `usage: gpusim r600 disasm <file.o | program.bin> [--mcpu cypress] [--kernel NAME]
       gpusim r600 asm <file.s> [--mcpu cypress] [-o program.bin]
       gpusim r600 coverage [--json] [--root DIR]
       gpusim r600 run <manifest.json> [--json] [--out DIR] [--seed N] [--order roundrobin|random]
                       [--strict] [--max-instructions N] [--stack-size N] [--trace FILE]
                       [--trace-limit N] [--atomic-dword-index]

disasm prints each kernel the way clang -S -target r600 prints it (CF program, then clauses).
A non-ELF input is one raw program (little-endian dwords) for --mcpu (default cypress).
asm reads clang's r600 assembly (or gpusim's disassembly) and writes each kernel's program bytes
(with several kernels, -o gets <out>.<kernel>.bin); without -o it prints the dwords in hex.
run executes a manifest (the format of \`gpusim run\`) whose code object is an r600 ELF
(\`gpusim run\` runs the same manifests; this is its r600 form with a per-CF-instruction summary).
coverage prints the measured opcode coverage per generation (the table in src/r600/README.md):
each op is probed on the executor; fixtures and tests are read from the checkout (--root).
--trace writes one line per CF instruction: the wave, the instruction, its active and valid
masks (hex, one bit per lane of the wave, lane 0 = bit 0) and the CF stack depth; --trace-limit N
keeps the first N lines (default 100000). RAT atomic indices on global memory are byte
addresses, as clang-19 emits them; --atomic-dword-index reads them as dword indices instead, as
Mesa's own r600 compiler emits them (docs/r600.md, RAT atomics). --atomic-byte-address (the
default) is accepted for old scripts.
Exit: 0 ok, 1 a finding (expectation mismatch, or a diagnostic with --strict), 2 bad input.`,
  options: {
    mcpu: { type: 'string' },
    kernel: { type: 'string' },
    o: { type: 'string', short: 'o' },
    json: { type: 'boolean', default: false },
    out: { type: 'string' },
    seed: { type: 'string' },
    order: { type: 'string' },
    strict: { type: 'boolean', default: false },
    'max-instructions': { type: 'string' },
    'stack-size': { type: 'string' },
    trace: { type: 'string' },
    'trace-limit': { type: 'string' },
    'atomic-byte-address': { type: 'boolean', default: false },
    'atomic-dword-index': { type: 'boolean', default: false },
    root: { type: 'string' },
  },
  positionals: true,
  run(values, positionals, io) {
    const [sub, file, ...more] = positionals;
    if (sub === 'coverage' && !file) {
      const root = values.root !== undefined ? String(values.root) : fileURLToPath(new URL('../../../..', import.meta.url));
      const rows = r600Coverage(coverageSources(root));
      io.stdout(values.json ? JSON.stringify(rows, null, 2) + '\n' : coverageLines(rows).join('\n') + '\n');
      return 0;
    }
    if (!sub || !file || more.length) throw new UsageError('r600: expected a subcommand (disasm, asm, run) and one file, or coverage');
    const readBytes = (f: string): Uint8Array => {
      try {
        return new Uint8Array(readFileSync(f));
      } catch {
        throw new InputError(`cannot read ${f}`);
      }
    };
    const num = (k: string, max = Number.MAX_SAFE_INTEGER): number | undefined => intOption(values[k], `r600: --${k}`, { max });
    // Options are checked before any file is read.
    if (values.mcpu !== undefined) genOf(String(values.mcpu));
    if (sub === 'disasm') {
      const bytes = readBytes(file);
      const isElf = bytes.length >= 4 && bytes[0] === 0x7f && bytes[1] === 0x45 && bytes[2] === 0x4c && bytes[3] === 0x46;
      if (!isElf) {
        if (bytes.length % 8 !== 0) throw new InputError(`raw program is ${bytes.length} bytes, not a whole number of 64-bit slots`, file);
        const words = new Uint32Array(bytes.length / 4);
        const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
        for (let i = 0; i < words.length; i++) words[i] = dv.getUint32(i * 4, true);
        const p = decodeProgram(genOf((values.mcpu as string | undefined) ?? 'cypress'), words, file);
        io.stdout(printProgram(p, { vtxName }).join('\n') + '\n');
        return 0;
      }
      const o = loadR600Object(bytes, file);
      const ks = o.kernels.filter((k) => values.kernel === undefined || k.name === values.kernel);
      if (!ks.length) throw new InputError(`no kernel '${values.kernel}'`, file);
      for (const k of ks) io.stdout(`${k.name}:\n${disassembleKernel(k).join('\n')}\n`);
      return 0;
    }
    if (sub === 'asm') {
      const text = new TextDecoder().decode(readBytes(file));
      const gen = genOf((values.mcpu as string | undefined) ?? 'cypress');
      const progs = assembleListing(gen, text, file);
      const out = values.o as string | undefined;
      for (const [name, p] of progs) {
        const bytes = new Uint8Array(p.words.buffer, p.words.byteOffset, p.words.byteLength);
        if (out) writeFileSync(progs.size === 1 ? out : `${out}.${name}.bin`, bytes);
        else io.stdout(`${name}:\n${[...p.words].map((w) => w.toString(16).padStart(8, '0')).join(' ')}\n`);
      }
      return 0;
    }
    if (sub === 'run') {
      const order = (values.order as string | undefined) ?? 'roundrobin';
      if (order !== 'roundrobin' && order !== 'random') throw new UsageError(`r600: --order must be roundrobin or random`);
      if (values['atomic-byte-address'] === true && values['atomic-dword-index'] === true) throw new UsageError('r600: --atomic-byte-address and --atomic-dword-index contradict each other');
      const traceLimit = intOption(values['trace-limit'], 'r600: --trace-limit', { min: 1 }) ?? 100_000;
      if (values['trace-limit'] !== undefined && !values.trace) throw new UsageError('r600: --trace-limit needs --trace FILE');
      const traceLines: string[] = [];
      let traceSkipped = 0;
      const r = runR600Manifest(file, {
        seed: num('seed', 0xffffffff), order, strict: values.strict as boolean, maxInstructions: num('max-instructions'), stackSize: num('stack-size'),
        atomicByteAddress: values['atomic-dword-index'] !== true,
        trace: values.trace ? (l) => void (traceLines.length < traceLimit ? traceLines.push(l) : traceSkipped++) : undefined,
      });
      if (values.trace) writeFileSync(values.trace as string, traceLines.join('\n') + '\n' + (traceSkipped ? `... ${traceSkipped} more lines past --trace-limit\n` : ''));
      if (values.out) {
        const dir = values.out as string;
        mkdirSync(dir, { recursive: true });
        for (const name of r.manifest.outputs) writeFileSync(join(dir, `${name}.bin`), r.buffers[name]!);
        writeFileSync(join(dir, 'run.json'), JSON.stringify(r.json, null, 2) + '\n');
      }
      if (values.json) io.stdout(JSON.stringify(r.json, null, 2) + '\n');
      else {
        io.stdout(`${r.kernel} (${r.mcpu}): ${r.json.workgroups} workgroups, ${r.json.waves} waves, ${r.json.waveInstructions} wave-instructions, ${r.json.laneOperations} lane-ops, ${r.diagnostics.length} diagnostics\n`);
        for (const d of r.diagnostics.slice(0, 20)) io.stdout(`  ${d.severity} ${d.id}: ${d.message} ${JSON.stringify(d.where)}\n`);
        for (const [name, e] of Object.entries(r.expectations)) {
          io.stdout(`  expect ${name}: ${e.ok ? 'ok' : `${e.mismatches} mismatches`}\n`);
          for (const m of e.first.slice(0, 5)) io.stdout(`    [${m.index}] got ${m.got} want ${m.want}${m.ulp !== undefined ? ` (${m.ulp} ulp)` : ''}\n`);
        }
      }
      return r.exitCode;
    }
    throw new UsageError(`r600: unknown subcommand '${sub}' (disasm, asm, run, coverage)`);
  },
};
