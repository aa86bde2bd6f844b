/**
 * `gpusim run <manifest.json>`: run one kernel as the manifest describes (src/runtime/manifest.ts),
 * check its expectations and write the outputs and run.json.
 */
import { closeSync, mkdirSync, openSync, readFileSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from '../command.js';
import { EXIT_FINDING, EXIT_OK } from '../command.js';
import { UsageError } from '../../core/errors.js';
import { intOption } from '../../core/numbers.js';
import { TraceEvents } from '../../core/trace-events.js';
import { SQ_CLOCK } from '../../amd/sq/timeline.js';
import { loadManifest, type Manifest } from '../../runtime/manifest.js';
import { availableParallelism } from 'node:os';
import { runManifest, runManifestWith, type ManifestRun, type RunOptions } from '../../runtime/run.js';
import { nodeWorkerHost, threadCpuMs } from '../../runtime/parallel-node.js';
import { engineTime } from '../../amd/engine/program.js';
import { setBlockStore } from '../../amd/engine/block.js';
import { openBlockStore } from '../../runtime/block-cache-node.js';
import { isR600Object } from '../../r600/isa/machine.js';

/** Is the manifest's code object an R600-family ELF (clang -target r600)? Unreadable: no (runManifest reports it). */
function codeObjectIsR600(m: Manifest): boolean {
  try {
    return isR600Object(new Uint8Array(readFileSync(m.codeObject)));
  } catch {
    return false;
  }
}

export const runCommand: Command = {
  name: 'run',
  summary: 'run a kernel (AMD gfx9/10.3/11 or R600-family) described by a manifest and check its outputs',
  help: `usage: gpusim run <manifest.json> [--out DIR] [--json] [--seed N] [--order roundrobin|random]
                   [--engine fast|interp] [--strict] [--max-instructions N] [--trace FILE]
                   [--trace-limit N] [--timeline FILE] [--threads N|auto] [--pm4 direct|indirect]

Runs the kernel a manifest describes (code object, kernel, grid, block, buffers, args, outputs,
expect; see docs/running-kernels.md) and compares the outputs with the expected files (integers
exactly, floats within the stated ULP bound). An R600-family object (clang -target r600) runs on
the r600 model (docs/r600.md; the same as gpusim r600 run): --engine, --threads and --pm4 do not
apply to it, --trace writes one line per CF instruction, and it takes --stack-size N and
--atomic-dword-index (RAT atomic indices as dwords instead of clang-19's byte addresses).
  --out DIR              write <name>.bin for each output and run.json into DIR
  --json                 print run.json on stdout instead of the summary
  --seed N               scheduler seed (default 1)
  --order ORDER          roundrobin (default) or random: seeded interleaving of waves and workgroups
  --engine ENGINE        fast (specialised handlers, basic blocks, WebAssembly, memory fast paths)
                         or interp (the reference interpreter alone); both give the same bytes.
                         Left out: fast, but a grid of under 64 waves runs each op's reference
                         handler until the op has run 64 times (cheaper for a few waves)
  --strict               stop at the first diagnostic and exit 1
  --max-instructions N   wave-instruction budget (default 50000000)
  --trace FILE           write one line per executed instruction: wave, pc (the code-object address
                         disasm and diagnostics print), EXEC, the instruction, the registers it
                         changed (VGPRs: first lanes + a count), the GPU memory and LDS it touched.
                         Tracing runs the interpreter (--engine interp) on one thread
  --trace-limit N        trace lines at most (default 100000; the run goes on untraced)
  --timeline FILE        write a Chrome/Perfetto trace (ui.perfetto.dev, chrome://tracing): each
                         wave's scheduler turns per CU and SIMD, barrier waits, over the model
                         clock (1 tick = 1 wave-instruction, shown as 1 µs); with --pm4 the
                         dispatch packet spans its waves; one thread
  --threads N|auto       split the workgroups over N threads (auto: every core); the outputs are
                         the same bytes as on one thread for a kernel without races. A trace,
                         --strict, a trap handler or one workgroup run on one thread (the summary
                         says why). Default 1: starting the workers costs about half a second
  --pm4 FORM             launch through the PM4 command processor of the kernel's generation
                         (gfx900, gfx1030, gfx11): direct = DISPATCH_DIRECT of the grid in
                         work-items, indirect = DISPATCH_INDIRECT of workgroup counts in memory;
                         the outputs are the same as without it (one thread)
Exit: 0 ok, 1 an expectation mismatch, an aborted run or (--strict) a diagnostic, 2 bad input.`,
  options: {
    out: { type: 'string' },
    json: { type: 'boolean', default: false },
    seed: { type: 'string' },
    order: { type: 'string' },
    engine: { type: 'string' },
    strict: { type: 'boolean', default: false },
    'max-instructions': { type: 'string' },
    trace: { type: 'string' },
    'trace-limit': { type: 'string' },
    timeline: { type: 'string' },
    threads: { type: 'string' },
    pm4: { type: 'string' },
    'stack-size': { type: 'string' },
    'atomic-dword-index': { type: 'boolean', default: false },
  },
  positionals: true,
  async run(values, positionals, io) {
    if (positionals.length !== 1) throw new UsageError('run: expected exactly one manifest.json');
    const seed = intOpt(values.seed, '--seed', 0, 0xffffffff) ?? 1;
    const budget = intOpt(values['max-instructions'], '--max-instructions', 1, Number.MAX_SAFE_INTEGER);
    const order = (values.order as string | undefined) ?? 'roundrobin';
    if (order !== 'roundrobin' && order !== 'random') throw new UsageError(`run: --order must be roundrobin or random, not '${order}'`);
    // (Left out: the fast engine, a small grid starting on the reference handlers: tier.ts firstCalls.)
    const engine = values.engine as string | undefined;
    if (engine !== undefined && engine !== 'fast' && engine !== 'interp') throw new UsageError(`run: --engine must be fast or interp, not '${engine}'`);
    const threads = values.threads === 'auto' ? availableParallelism() : intOpt(values.threads, '--threads (auto or N)', 1, 256) ?? 1;
    const traceLimit = intOpt(values['trace-limit'], '--trace-limit', 1, Number.MAX_SAFE_INTEGER);
    if (traceLimit !== undefined && typeof values.trace !== 'string') throw new UsageError('run: --trace-limit needs --trace FILE');
    if (values.engine === 'fast' && typeof values.trace === 'string') throw new UsageError('run: --trace runs the interpreter: leave out --engine fast');
    const pm4 = values.pm4 as string | undefined;
    if (pm4 !== undefined && pm4 !== 'direct' && pm4 !== 'indirect') throw new UsageError(`run: --pm4 must be direct or indirect, not '${pm4}'`);
    if (pm4 !== undefined && threads > 1) throw new UsageError('run: --pm4 launches through one command processor: leave out --threads');
    const m = loadManifest(positionals[0]!);
    if (codeObjectIsR600(m)) {
      for (const k of ['engine', 'threads', 'pm4'] as const) if (values[k] !== undefined) throw new UsageError(`run: --${k} does not apply to an R600-family object`);
      if (values.timeline !== undefined) throw new UsageError('run: --timeline does not apply to an R600-family object');
      const traceLines: string[] = [];
      let traceSkipped = 0;
      // Loaded only for an R600 object, as ParallelPool only for --threads (start-up: docs/speed.md).
      const { runR600Manifest } = await import('../../runtime/r600.js');
      const r = runR600Manifest(m, {
        seed, order, strict: values.strict === true, ...(budget !== undefined ? { maxInstructions: budget } : {}),
        stackSize: intOpt(values['stack-size'], '--stack-size', 0, 255), atomicByteAddress: values['atomic-dword-index'] !== true,
        ...(typeof values.trace === 'string' ? { trace: (l: string) => void (traceLines.length < (traceLimit ?? 100_000) ? traceLines.push(l) : traceSkipped++) } : {}),
      });
      if (typeof values.trace === 'string') writeFileSync(values.trace, traceLines.join('\n') + '\n' + (traceSkipped ? `... ${traceSkipped} more lines past --trace-limit\n` : ''));
      if (typeof values.out === 'string') {
        mkdirSync(values.out, { recursive: true });
        for (const name of m.outputs) writeFileSync(join(values.out, `${name}.bin`), r.buffers[name]!);
        writeFileSync(join(values.out, 'run.json'), JSON.stringify(r.json, null, 1) + '\n');
      }
      if (values.json) io.stdout(JSON.stringify(r.json, null, 1) + '\n');
      else io.stdout(summary(r as unknown as ManifestRun));
      return r.exitCode === 0 ? EXIT_OK : EXIT_FINDING;
    }
    for (const k of ['stack-size'] as const) if (values[k] !== undefined) throw new UsageError(`run: --${k} applies to R600-family objects only`);
    if (values['atomic-dword-index'] === true) throw new UsageError('run: --atomic-dword-index applies to R600-family objects only');
    if (m.workDim !== undefined || m.globalOffset !== undefined) throw new UsageError('run: the manifest keys workDim and globalOffset are read for R600-family objects only so far');

    let traceFd: number | undefined;
    let traceBuf: string[] = [];
    let traceLen = 0;
    const flushTrace = () => {
      if (traceFd !== undefined && traceBuf.length) writeSync(traceFd, traceBuf.join(''));
      traceBuf = [];
      traceLen = 0;
    };
    if (typeof values.trace === 'string') traceFd = openSync(values.trace, 'w');

    const t0 = Date.now();
    let shown = false;
    let lastDraw = 0;
    const timeline = typeof values.timeline === 'string' ? new TraceEvents() : undefined;
    const opts: RunOptions = {
      seed, order, ...(engine !== undefined ? { engine } : {}), ...(traceLimit !== undefined ? { traceLimit } : {}), ...(timeline ? { timeline } : {}), strict: values.strict === true, ...(pm4 !== undefined ? { pm4 } : {}),
      ...(budget !== undefined ? { maxInstructions: budget } : {}),
      ...(traceFd !== undefined ? {
        trace: (line: string) => {
          traceBuf.push(line, '\n');
          if (++traceLen >= 4096) flushTrace();
        },
      } : {}),
      ...(io.isTTY ? {
        progress: (done: number, total: number) => {
          const now = Date.now();
          if (now - t0 < 1000 || (now - lastDraw < 100 && done < total)) return;
          lastDraw = now;
          shown = true;
          const width = 30;
          const fill = Math.round((done / total) * width);
          io.stderr(`\r[${'#'.repeat(fill)}${'.'.repeat(width - fill)}] ${done}/${total} workgroups`);
        },
      } : {}),
    };
    let r: ManifestRun;
    let used: { threads: number; reason?: string } | undefined;
    // The block cache on disk (runtime/block-cache-node.ts): plans generated by earlier runs of this
    // build are taken instead of generated; this run's are saved when it is over.
    const blocks = openBlockStore();
    setBlockStore(blocks);
    const pool = threads > 1 ? new (await import('../../runtime/parallel.js')).ParallelPool(nodeWorkerHost(), threads, { callerSlice: true }) : undefined;
    try {
      if (pool === undefined) r = runManifest(m, opts);
      else {
        r = await runManifestWith(m, opts, async (l) => {
          const p = await pool.run(l, opts);
          used = { threads: p.parallel.threads, ...(p.parallel.reason !== undefined ? { reason: p.parallel.reason } : {}) };
          return p;
        });
      }
    } finally {
      setBlockStore(null);
      pool?.close();
      if (traceFd !== undefined) {
        flushTrace();
        closeSync(traceFd);
      }
      if (timeline !== undefined) writeFileSync(String(values.timeline), timeline.json(SQ_CLOCK));
      if (shown) io.stderr('\n');
    }

    if (typeof values.trace === 'string' && r.json.traceSkipped) writeFileSync(values.trace, `... ${r.json.traceSkipped} more wave-instructions past --trace-limit\n`, { flag: 'a' });
    if (used !== undefined) r = { ...r, json: { ...r.json, threads: used.threads, ...(used.reason !== undefined ? { threadsReason: used.reason } : {}) } };
    if (values.json || typeof values.out === 'string') r = { ...r, json: { ...r.json, timing: coldTiming(r.json.timeMs) } };
    if (typeof values.out === 'string') {
      mkdirSync(values.out, { recursive: true });
      for (const name of m.outputs) writeFileSync(join(values.out, `${name}.bin`), r.buffers[name]!);
      writeFileSync(join(values.out, 'run.json'), JSON.stringify(r.json, null, 1) + '\n');
    }
    if (values.json) io.stdout(JSON.stringify(r.json, null, 1) + '\n');
    else io.stdout(summary(r));
    blocks?.save();
    return r.exitCode === 0 ? EXIT_OK : EXIT_FINDING;
  },
};

/**
 * Where this process's time went (run.json `timing`, docs/speed.md "The cold run"): milliseconds
 * since the process started (performance.now()) when Node had booted, when the dispatch began
 * issuing and when the report was made; the dispatch's wall time; the time the main thread spent building basic blocks
 * (source generation, new Function, bytecode) and binding ops; CPU time of the whole process
 * (every thread: V8's optimising compiler and GC threads, workers) and of the main thread alone.
 */
function coldTiming(dispatchMs: number): Record<string, unknown> {
  const r = (x: number) => Math.round(x * 10) / 10;
  const cpu = process.cpuUsage();
  const processCpu = (cpu.user + cpu.system) / 1000;
  const main = threadCpuMs?.();
  return {
    // Node's own start-up before any gpusim code (its bootstrap; NODE_EXTRA_CA_CERTS adds the
    // parsing of that file: 50-90 ms a process on the development VM, ~5 ms without).
    nodeStartMs: r(performance.nodeTiming.bootstrapComplete),
    firstInstructionMs: r(engineTime.firstInstAt), dispatchMs: r(dispatchMs), processMs: r(performance.now()),
    compileMs: r(engineTime.compileMs), blocks: engineTime.blocks, blockFunctions: engineTime.blockFns, blocksFromCache: engineTime.cachedBlocks,
    bindMs: r(engineTime.bindMs), boundOps: engineTime.binds,
    cpuMs: { process: r(processCpu), ...(main !== undefined ? { mainThread: r(main), otherThreads: r(processCpu - main) } : {}) },
    // How the CLI's code was loaded (src/cli/launch.ts): 'modules', 'one file' or 'one file, code cache'.
    cli: (globalThis as { gpusimBundle?: string }).gpusimBundle ?? 'modules',
  };
}

/** A numeric option, parsed strictly (core/numbers.ts: decimal or 0x hex, the range named). */
function intOpt(v: unknown, name: string, min: number, max: number): number | undefined {
  return intOption(v, `run: ${name}`, { min, max });
}

/** The human-readable result: one line for the run, one per expectation, the diagnostics. */
export function summary(r: ManifestRun): string {
  const j = r.json;
  const lines: string[] = [];
  const on = j.threads === undefined ? '' : `, ${j.threads} thread${j.threads === 1 ? '' : 's'}${j.threadsReason ? ` (${j.threadsReason})` : ''}`;
  lines.push(`${j.kernel} (${j.target} wave${j.waveSize}): ${j.workgroups} workgroups, ${j.waves} waves, ${j.waveInstructions} wave-instructions, ${j.laneOperations} lane-ops in ${j.timeMs.toFixed(1)} ms (${j.order}, seed ${j.seed}${on})${j.aborted ? ' — ABORTED' : ''}`);
  for (const [name, e] of Object.entries(r.expectations)) {
    if (e.ok) lines.push(`  ${name}: ok${e.ulp ? ` (within ${e.ulp} ulp)` : ''}`);
    else {
      lines.push(`  ${name}: ${e.mismatches} mismatches${e.ulp ? ` beyond ${e.ulp} ulp` : ''}`);
      for (const x of e.first.slice(0, 5)) lines.push(`    [${x.index}] got ${x.got}, want ${x.want}${x.ulp !== undefined ? ` (${x.ulp} ulp)` : ''}`);
    }
  }
  if (j.traceSkipped) lines.push(`  trace: ${j.traceLines} lines, ${j.traceSkipped} wave-instructions past --trace-limit not traced`);
  const counts = Object.entries(j.diagnosticCounts);
  if (counts.length) {
    lines.push(`  diagnostics: ${counts.map(([id, n]) => `${id} x${n}`).join(', ')}`);
    for (const d of j.diagnostics.slice(0, 5)) {
      // run.json already numbers a PC as --trace and disasm do (runtime/run.ts diagnosticRecord).
      const where = Object.entries(d.where).filter(([k]) => k !== 'pcAddress').map(([k, v]) => `${k} ${v}`).join(', ');
      lines.push(`    ${d.id} (${where}): ${d.message}`);
    }
  }
  // PASS only when an expectation was checked: a run with nothing to compare says so.
  const checked = Object.keys(r.expectations).length > 0;
  lines.push(r.exitCode !== 0 ? 'FAIL' : checked ? 'PASS' : 'ran (nothing checked)');
  return lines.join('\n') + '\n';
}


