/** `gpusim adreno <decode|crash|afuc|run> ...`: the Adreno command-processor tools. */
import { readFileSync } from 'node:fs';
import { EXIT_ERROR, EXIT_FINDING, EXIT_OK, type CliIO, type Command } from '../command.js';
import { UsageError } from '../../core/errors.js';
import { intOption } from '../../core/numbers.js';
import { ALL_GENS, type Gen } from '../../adreno/regs/db.js';
import { parseRd } from '../../formats/rd.js';
import { decodeRaw, decodeRd, looksLikeRd, summaryLines } from '../../adreno/decode.js';
import { loadPng } from './draw.js';

const HELP = `usage: gpusim adreno <subcommand> [options]

subcommands:
  decode <trace.rd[.gz] | stream.bin>  print every submit, IB, packet and register write
      --gen a2xx..a7xx   force the generation (default: from the trace, else a6xx)
      --submit N         only submit N (0-based); --frame N is the same (an .rd has no
                         frame markers, gpusim counts one frame per submit)
      --json             one JSON record per packet (submit, stream, level, iova, offset,
                         type, opcode, name, count, writes | payload)
      --base ADDR        address a raw stream is decoded at (default 0)
      --format cffdump   the text of freedreno's \`cffdump --unit-test\`, line for line
                         (--frame N: only command stream N; --once: each IB once per
                         render mode; shader listings need the ir3 disassembler)
      --summary          analysis only: packets by name and IB kind, registers written
  crash <devcoredump> | --fault-line "gpu fault ring ..."
                         estimated crash location, RBBM_STATUS bits, fence, CP state
      --format crashdec  freedreno crashdec's text line for line (-s summary, -v verbose,
                         -f FILE as crashdec takes it: crash --format crashdec -sf dump)
  run <trace.rd[.gz]> [--strict] [--json] [--trace] [--thread BR|BV] [--timeline FILE]
                         execute the trace on the simulated a6xx CP; prints faults,
                         diagnostics, draws and the final CP state (--trace: every
                         executed packet, skipped ones are not shown; --thread: the
                         a7xx CP thread to model, BR by default; --timeline: a
                         Chrome/Perfetto trace of the submits and packets, IBs holding
                         the packets they ran, over the CP's cycle counter)
      --max-vertices N --max-primitives N --max-pixels N --max-instructions N --max-draw-mib N
                         the draws' budget over the run (defaults 2^24 vertices, 2^24
                         primitives, 2^24 pixels visited, 50 million shader wave-
                         instructions, 1024 MiB for one draw): over it, one line naming
                         the limit and exit 2
  perf <capture.rd[.gz] | scene.json --gpu a630|a660 [--mode sysmem|gmem] [--bin WxH]>
          [--counters NAME,...] [--all] [--json]
                         the a6xx performance counters per draw, dispatch and blit, by
                         block as fdperf groups them, then the totals: the modelled
                         countables by default, --all every countable (unmodelled ones
                         read 0, marked "not modelled"), --counters the named ones
  afuc disasm <fw> [-u] [--gen a5xx|a6xx|a7xx] [--fw-id ID] [--summary] [--skip N]
                         a firmware file (a630_sqe.fw, a650/a660_sqe.fw, a730/a740_sqe.fw,
                         a750 ...) prints as freedreno's afuc-disasm prints it (-u: without
                         the file name line): packet-handler labels, fxnN/lN labels, register
                         names, jump table, a7xx BV/LPAC sections; --summary adds the loader's
                         view (version, sections, warnings); --skip N lists raw words after N
                         dwords (afuc-disasm -r style); --fw-id reads the file as that
                         firmware (afuc-disasm -g)
  afuc asm <src.asm> -o <fw> [--gen G] [--fw-id ID] | afuc asm test -o <fw> [--fw-id ID]
                         freedreno firmware source (.section, .jumptbl, .align, [literals],
                         @CONTROL_REG, %SQE_REG, #labels) to the bytes afuc-asm writes (a zero
                         dword, then the image); the generation comes from the version literal
                         unless --gen/--fw-id force it; 'test': the built-in test firmware
                         (raw words, or with --fw-id the released layout)
  afuc emu <fw|test> [--packets stream.bin] [--break ADDR] [--steps N] [--trace] [-i]
                         (-i: step/break/registers from commands on stdin; fw 'test'
                         is the built-in test firmware)

  ir3 disasm <code.bin> --gpu a630|a660|a730|a420|a6xx... [--cffdump] [--verbose] [--stats]
                         shader code (64-bit instructions) as Mesa prints it: the compiler's
                         listing by default; --cffdump as cffdump does (stops after end and
                         4 nops), --verbose adds its :cat:index:cycle[raw] prefix, --stats
                         its Stats block
  ir3 asm <code.s> --gpu ... -o <code.bin>
                         assemble that syntax back (labels, #label targets, raw words)

  dispatch <manifest.json> [--out DIR] [--json] [--seed N --order random] [--strict]
          [--rd FILE]    run an ir3 compute dispatch (shared/ir3-corpus manifest format) as
                         the driver does: memory and an a6xx/a7xx command stream (CP_LOAD_STATE6,
                         SP_CS_*/HLSQ_CS_*, CP_EXEC_CS) executed by the CP, which runs the SP;
                         writes outputs as DIR/<name>.bin, prints PASS/FAIL per expected
                         buffer (exit 1 on a mismatch); --rd writes the stream and its memory
                         (inputs as they were before the dispatch) as an .rd capture

  display <frame.json> [--out frame.png] [--timeline trace.json] [--json] [--strict]
                         compose a frame on the display pipeline (DPU): layers through the
                         SSPPs (RGB/YUV, tiled and UBWC sources, CSC, rotation, scaling,
                         multirect), the layer mixer and the DSPP; write the image, and the
                         commit/IRQ timeline as a Chrome/Perfetto trace (docs/adreno.md)

  coverage               packets executed / decoded, register domains, afuc encodings
                         executed by the emulator (measured, the table in src/adreno/README.md)

Exit codes: 0 ok, 1 problems found (malformed packets, faults, diagnostics), 2 bad input.`;

function parseGen(v: unknown): Gen | undefined {
  if (v === undefined) return undefined;
  const g = String(v).toLowerCase();
  if (!(ALL_GENS as readonly string[]).includes(g)) throw new UsageError(`--gen must be one of ${ALL_GENS.join(', ')}`);
  return g as Gen;
}

/** A count or index option (decimal or 0x hex); --base is a GPU address, 48 bits on a6xx/a7xx. */
function parseNum(v: unknown, what: string, max = 0xffffffff): number | undefined {
  return intOption(v, what, { max });
}

async function sub(name: string, values: Record<string, unknown>, rest: string[], io: CliIO): Promise<number> {
  const lines: string[] = [];
  const flush = (): void => {
    if (lines.length) io.stdout(lines.join('\n') + '\n');
    lines.length = 0;
  };
  const out = (l: string): void => {
    lines.push(l);
    if (lines.length >= 4096) flush();
  };
  switch (name) {
    case 'decode': {
      const file = rest[0];
      if (!file) throw new UsageError('adreno decode: missing trace file');
      const bytes = new Uint8Array(readFileSync(file));
      const gen = parseGen(values['gen']);
      const submit = parseNum(values['submit'] ?? values['frame'], '--submit');
      const json = !!values['json'];
      const quiet = !!values['summary'];
      const format = values['format'] === undefined ? undefined : String(values['format']);
      if (submit !== undefined && looksLikeRd(bytes)) {
        const n = parseRd(bytes, file).submits.length;
        if (submit >= n) throw new UsageError(`adreno decode: --${values['submit'] !== undefined ? 'submit' : 'frame'} ${submit}: ${file} has ${n} submit(s)${n ? ` (0..${n - 1})` : ''}`);
      }
      if (format !== undefined && format !== 'cffdump' && format !== 'text') throw new UsageError(`--format must be cffdump or text, got '${format}'`);
      if (format === 'cffdump') {
        if (!looksLikeRd(bytes)) throw new UsageError('--format cffdump needs an .rd capture');
        const { cffdumpRd } = await import('../../adreno/cp/cffdump.js');
        const frame = parseNum(values['frame'] ?? values['submit'], '--frame');
        const recs: Record<string, unknown>[] = [];
        const s = cffdumpRd(bytes, { out: json ? (l) => void recs.push({ line: l }) : out, once: !!values['once'], ...(gen ? { gen } : {}), ...(frame !== undefined ? { frame } : {}) }, file);
        if (json) for (const r of recs) out(JSON.stringify(r));
        flush();
        return s.problems.length ? EXIT_FINDING : EXIT_OK;
      }
      const sum = looksLikeRd(bytes)
        ? decodeRd(bytes, { out, json, quiet, ...(gen ? { gen } : {}), ...(submit !== undefined ? { submit } : {}) }, file)
        : decodeRaw(bytes, gen ?? 'a6xx', { out, json, quiet }, parseNum(values['base'], '--base', 2 ** 48 - 1) ?? 0);
      if (quiet) for (const l of summaryLines(sum)) out(l);
      else if (!json) out(`-- ${sum.submits} submit(s), ${sum.packets} packet(s), ${sum.problems.length} problem(s)`);
      flush();
      return sum.problems.length ? EXIT_FINDING : EXIT_OK;
    }
    case 'crash': {
      const { crashCommand } = await import('../../adreno/crash.js');
      try {
        return crashCommand(values, rest, out);
      } finally {
        // crashdec's text up to a parse error is printed before the error.
        flush();
      }
    }
    case 'run': {
      const { runCommand } = await import('../../adreno/run.js');
      const code = runCommand(values, rest, out);
      flush();
      return code;
    }
    case 'perf': {
      const { perfCommand } = await import('../../runtime/adreno-perf.js');
      const code = perfCommand(values, rest, out);
      flush();
      return code;
    }
    case 'coverage': {
      const { coverageLines } = await import('../../adreno/coverage.js');
      for (const l of coverageLines()) out(l);
      flush();
      return EXIT_OK;
    }
    case 'ir3': {
      const { ir3Command } = await import('../../adreno/ir3/cli.js');
      const code = ir3Command(values, rest, out);
      flush();
      return code;
    }
    case 'dispatch': {
      const { dispatchCommand } = await import('../../adreno/sp/cli.js');
      const code = dispatchCommand(values, rest, out);
      flush();
      return code;
    }
    case 'display': {
      const { displayCommand } = await import('../../adreno/dpu/cli.js');
      const code = await displayCommand(values, rest, out, async () => (await loadPng()).encode);
      flush();
      return code;
    }
    case 'afuc': {
      const { afucCommand } = await import('../../adreno/afuc/cli.js');
      const code = afucCommand(values, rest, out);
      flush();
      return code;
    }
    default:
      throw new UsageError(`adreno: unknown subcommand '${name}' (decode, crash, run, afuc, ir3, dispatch, display, coverage)`);
  }
}

export const adrenoCommand: Command = {
  name: 'adreno',
  summary: 'Adreno command streams: decode .rd traces, crash dumps, run the CP, afuc firmware, ir3 shaders, the display pipeline',
  help: HELP,
  positionals: true,
  options: {
    gen: { type: 'string' },
    submit: { type: 'string' },
    frame: { type: 'string' },
    json: { type: 'boolean' },
    summary: { type: 'boolean', short: 's' },
    file: { type: 'string', short: 'f' },
    format: { type: 'string' },
    once: { type: 'boolean' },
    verbose: { type: 'boolean', short: 'v' },
    skip: { type: 'string' },
    base: { type: 'string' },
    'fault-line': { type: 'string' },
    strict: { type: 'boolean' },
    packets: { type: 'string' },
    break: { type: 'string', multiple: true },
    steps: { type: 'string' },
    output: { type: 'string', short: 'o' },
    trace: { type: 'boolean' },
    interactive: { type: 'boolean', short: 'i' },
    'unit-test': { type: 'boolean', short: 'u' },
    'fw-id': { type: 'string' },
    thread: { type: 'string' },
    gpu: { type: 'string' },
    cffdump: { type: 'boolean' },
    stats: { type: 'boolean' },
    out: { type: 'string' },
    seed: { type: 'string' },
    order: { type: 'string' },
    timeline: { type: 'string' },
    rd: { type: 'string' },
    'max-vertices': { type: 'string' },
    'max-primitives': { type: 'string' },
    'max-pixels': { type: 'string' },
    'max-instructions': { type: 'string' },
    'max-draw-mib': { type: 'string' },
    counters: { type: 'string' },
    all: { type: 'boolean' },
    mode: { type: 'string' },
    bin: { type: 'string' },
  },
  async run(values, positionals, io) {
    const [name, ...rest] = positionals;
    if (!name) {
      io.stdout(HELP + '\n');
      return EXIT_ERROR;
    }
    return sub(name, values, rest, io);
  },
};
