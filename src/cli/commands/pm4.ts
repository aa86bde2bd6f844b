/** `gpusim pm4 decode <ib.bin> --gfx gfx9|gfx10.3|gfx11 [--json]`: the AMD PM4 packet decoder. */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { EXIT_FINDING, EXIT_OK, type CliIO, type Command } from '../command.js';
import { UsageError } from '../../core/errors.js';
import { intText } from '../../core/numbers.js';
import { Diagnostics } from '../../core/diagnostics.js';
import { Memory } from '../../core/memory.js';
import { coverageTable, pm4Coverage, type ComputeStreams, type SceneStreams } from '../../amd/cp/coverage.js';
import { runSceneFile } from '../../runtime/draw-scene.js';
import { loadManifest } from '../../runtime/manifest.js';
import { runManifest } from '../../runtime/run.js';
import { parsePm4Gen, type Pm4Gen } from '../../amd/cp/regdb.js';
import { PrintVisitor } from '../../amd/cp/printer.js';
import { AnalyseVisitor } from '../../amd/cp/cp.js';
import { dwordsFromBytes, walkPm4, type Pm4Packet } from '../../amd/cp/walker.js';

const HELP = `usage: gpusim pm4 decode <ib.bin> --gfx gfx9|gfx10.3|gfx11 [--json] [--mem FILE@ADDR ...] [--va ADDR]
       gpusim pm4 coverage [--json] [--examples DIR]

Decode a raw AMD PM4 stream (little-endian dwords): every packet with its header (type,
IT opcode, count, predicate, shader type), its body dword by dword, and its register writes
decoded field by field from the generation's register database (Mesa's register JSON).

INDIRECT_BUFFER packets (calls and chains) are followed and decoded inline, indented by IB
level, when the memory they point to is given: each --mem FILE@ADDR places a file's bytes at a
GPU address (repeat it for each buffer). Without --mem, or for an IB outside the given files,
the decoder prints a note and goes on. Loops and nesting deeper than 4 levels are errors.

  --gfx G          gfx9 (gfx900), gfx10.3 (gfx1030) or gfx11 (gfx1100); required
  --json           one JSON record per packet (and per IB start/end/skip) instead of text
  --mem FILE@ADDR  GPU memory for IBs: FILE's bytes at ADDR (hex 0x... or decimal), repeatable
  --va ADDR        the GPU address of <ib.bin> itself (names it in loop errors; optional)

coverage prints the measured packet and register coverage per generation (the table in
src/amd/cp/README.md): opcodes, how many decode field by field, are in the every-packet golden
and execute, registers and fields in the database and how many the example streams write
(the every-packet stream, the gpusim draw scenes under --examples, default examples/, and the
compute example: kernels/manifests/vadd.json with the generation's build, launched by
gpusim run --pm4 direct and --pm4 indirect), and how many of those kernel dispatches ran.

Exit codes: 0 ok, 1 diagnostics (packets that parse but break a rule),
2 malformed stream (bad header, count past the end, unknown opcode) or bad usage.`;

async function run(values: Record<string, unknown>, positionals: string[], io: CliIO): Promise<number> {
  const [sub, file] = positionals;
  if (sub === 'coverage') return coverage(values, io);
  if (sub !== 'decode') throw new UsageError(sub === undefined ? 'pm4: missing subcommand (decode, coverage)' : `pm4: unknown subcommand '${sub}' (decode, coverage)`);
  if (!file) throw new UsageError('pm4 decode: missing stream file');
  if (values['gfx'] === undefined) throw new UsageError('pm4 decode: --gfx gfx9|gfx10.3|gfx11 is required');
  const gen = parsePm4Gen(String(values['gfx']));
  const json = !!values['json'];
  const words = dwordsFromBytes(new Uint8Array(readFileSync(file)));
  const memArgs = (values['mem'] as string[] | undefined) ?? [];
  const mem = memArgs.length ? loadMem(memArgs) : null;
  const va = values['va'] !== undefined ? parseAddr(String(values['va']), '--va') : undefined;
  const lines: string[] = [];
  const flush = (): void => {
    if (lines.length) io.stdout(lines.join('\n') + '\n');
    lines.length = 0;
  };
  const out = (l: string): void => {
    lines.push(l);
    if (lines.length >= 4096) flush();
  };
  const diag = new Diagnostics();
  const printer = new PrintVisitor(gen, out, { json });
  const analyser = new AnalyseVisitor(gen, diag);
  let stats;
  try {
    stats = walkPm4(words, {
      packet: (p: Pm4Packet) => { printer.packet(p); analyser.packet(p); },
      skipIb: (at, n, level, unmapped) => printer.skipIb(at, n, level, unmapped),
      enterIb: (at, n, level, chained) => printer.enterIb(at, n, level, chained),
      leaveIb: (at, level) => printer.leaveIb(at, level),
    }, { gen, ...(va !== undefined ? { bufferVa: va } : {}), ...(mem ? { fetch: (at: number, n: number) => fetchDwords(mem, at, n), unmapped: 'note' as const } : {}) });
  } finally {
    flush();
  }
  for (const d of diag.list) {
    if (json) out(JSON.stringify({ diagnostic: d }));
    else out(`${d.severity}: ${d.id} at dword ${String(d.where['offset'])}: ${d.message}`);
  }
  if (!json) out(`-- ${stats.packets} packet(s), ${words.length} dwords, ${diag.list.filter((d) => d.severity !== 'info').length} problem(s)`);
  flush();
  return diag.list.some((d) => d.severity !== 'info') ? EXIT_FINDING : EXIT_OK;
}

/** The PM4 streams of the example scenes under `dir` whose "gfx" is `gen` (gfx1100 when absent). */
function sceneStreams(dir: string, run: (path: string) => { pm4: Uint32Array }): SceneStreams {
  return (gen) => {
    if (!existsSync(dir)) return [];
    const out: Uint32Array[] = [];
    for (const name of readdirSync(dir).sort()) {
      const f = join(dir, name, 'scene.json');
      if (!existsSync(f)) continue;
      const scene = JSON.parse(readFileSync(f, 'utf8')) as { gfx?: string; shaders?: Record<string, Record<string, unknown>> };
      // An a6xx-only scene (its shaders carry only ir3 code) has no PM4 stream.
      if (Object.values(scene.shaders ?? {}).every((s) => s.source === undefined && s.asm === undefined && s.bin === undefined && s.a6xx !== undefined)) continue;
      if (parsePm4Gen(scene.gfx ?? 'gfx1100') !== gen) continue;
      out.push(run(f).pm4);
    }
    return out;
  };
}


const COMPUTE_CPU: Record<Pm4Gen, string> = { gfx9: 'gfx900', gfx103: 'gfx1030', gfx11: 'gfx1100' };

/** The compute example of each generation: vadd's manifest with that generation's build, through PM4 both ways. */
function computeStreams(kernelsDir: string): ComputeStreams {
  return (gen) => {
    const path = join(kernelsDir, 'manifests/vadd.json');
    if (!existsSync(path)) return { streams: [], dispatchesRun: 0 };
    const m = loadManifest(path);
    const streams: Uint32Array[] = [];
    let dispatchesRun = 0;
    for (const pm4 of ['direct', 'indirect'] as const) {
      runManifest({ ...m, codeObject: m.codeObject.replace('/gfx1100/', `/${COMPUTE_CPU[gen]}/`) }, {
        pm4, onPm4: (s, n) => { streams.push(s); dispatchesRun += n; },
      });
    }
    return { streams, dispatchesRun };
  };
}

/** `gpusim pm4 coverage [--json] [--examples DIR]`: the measured table of src/amd/cp/README.md. */
function coverage(values: Record<string, unknown>, io: CliIO): number {
  const dir = values['examples'] !== undefined ? String(values['examples']) : fileURLToPath(new URL('../../../../examples', import.meta.url));
  const rows = pm4Coverage(sceneStreams(dir, (f) => runSceneFile(f)), computeStreams(fileURLToPath(new URL('../../../../kernels', import.meta.url))));
  io.stdout(values['json'] ? JSON.stringify(rows, null, 2) + '\n' : coverageTable(rows).join('\n') + '\n');
  return EXIT_OK;
}

/** A GPU address (core/numbers.ts: decimal or 0x hex, below 2^48), dword aligned. */
function parseAddr(s: string, what: string): number {
  const v = intText(s, `${what} (a GPU address)`, { max: 2 ** 48 - 1 });
  if (v % 4 !== 0) throw new UsageError(`${what}: 0x${v.toString(16)} is not dword aligned`);
  return v;
}

/** --mem FILE@ADDR arguments as one GPU memory (overlapping files are a usage error). */
function loadMem(args: readonly string[]): Memory {
  const mem = new Memory();
  const placed: { base: number; end: number; file: string }[] = [];
  for (const a of args) {
    const at = a.lastIndexOf('@');
    if (at <= 0) throw new UsageError(`--mem: expected FILE@ADDR, got '${a}'`);
    const file = a.slice(0, at);
    const base = parseAddr(a.slice(at + 1), `--mem ${file}`);
    const bytes = new Uint8Array(readFileSync(file));
    const end = base + bytes.length;
    const clash = placed.find((p) => base < p.end && p.base < end);
    if (clash) throw new UsageError(`--mem: ${file} at 0x${base.toString(16)} overlaps ${clash.file} at 0x${clash.base.toString(16)}`);
    placed.push({ base, end, file });
    if (bytes.length) mem.map(base, bytes.length, file, bytes);
  }
  return mem;
}

function fetchDwords(mem: Memory, va: number, n: number): Uint32Array | null {
  if (va % 4 !== 0) return null;
  const s = mem.find(va, n * 4);
  if (s === null) return null;
  const out = new Uint32Array(n);
  for (let i = 0; i < n; i++) out[i] = s.dv.getUint32(va - s.base + i * 4, true);
  return out;
}

export const pm4Command: Command = {
  name: 'pm4',
  summary: 'decode AMD PM4 command streams (GFX9, GFX10.3, GFX11)',
  help: HELP,
  options: { gfx: { type: 'string' }, json: { type: 'boolean' }, mem: { type: 'string', multiple: true }, va: { type: 'string' }, examples: { type: 'string' } },
  positionals: true,
  run,
};
