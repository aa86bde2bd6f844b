/**
 * Cold and warm, side by side (issue 24): what one `gpusim run` sees is a fresh process, whose
 * first dispatch pays the decode, the block compilation and V8's JIT. For every RDNA3 bench case
 * this starts fresh processes (`node dist/bench/cold.js --child CASE ENGINE WARM`), engine `fast`
 * and `interp` alternating (the interpreter is the proxy for remu, which runs at about its speed),
 * each running the case once cold and then WARM times warm, and reports medians over the rounds:
 *
 * - `coldMs` / `coldCpuMs`: the first dispatch's wall time and the process CPU during it (all
 *   threads: V8's optimising compiler works on its own), `coldMainCpuMs` the main thread's share;
 * - `processMs`: process start to the end of the first dispatch (module loading and input
 *   generation included: the whole of a `gpusim run` but its report); `firstInstMs`: process
 *   start to the first issued instruction; `compileMs`: building basic blocks during the run;
 * - `warmMs`: the best warm dispatch; M wave-instructions/s and M lane-ops/s, cold and warm;
 * - `xInterpCold` / `xInterpWarm`: the interpreter's time over fast's, in the same rounds;
 * - `threads2ColdMs` / `threads2ColdCpuMs` / `x1threadCold`: the cold dispatch with `--threads 2`
 *   (engine `fast2`: the CLI's per-dispatch choice) and one thread's cold time over it;
 *   `threads2Used` / `threads2Why`: threads it used per round, and why one;
 * - `cachedColdMs` / `xInterpColdCached` / `cachedBlocks`: the cold dispatch of engine `fastc`, fast
 *   with the block cache (runtime/block-cache-node.ts) in a directory of this bench's, primed by one
 *   untimed child per case: what a repeated `gpusim run` of the kernel sees; the interpreter's time
 *   over it; the blocks it took from the cache;
 * - `probeMs` / `probe2x`: the machine probe (machine-probe.ts) before each round, medians.
 *
 * Then a `[fresh gpusim run]` row per case: the issue's own measure, the case as a user runs it.
 * The case is written as a manifest (its inputs as files: caseManifest) and run by fresh `gpusim
 * run` processes of the one-file CLI (bin/gpusim.cjs, code and block caches in a directory of the
 * bench's), engine fast on its first run (GPUSIM_BLOCK_CACHE=0), fast again with the block cache
 * an earlier run filled, and interp, the order rotated every round: `dispatchMs` /
 * `cachedDispatchMs` / `interpDispatchMs` and the same for `processMs` (medians), `xInterpDispatch`
 * / `xInterpDispatchCached` / `xInterpProcess` / `xInterpProcessCached` (geometric means over the
 * rounds of the interpreter's time over fast's), the outputs checked against the CPU reference.
 *
 * A `start-up` row first: fresh `gpusim run kernels/manifests/empty.json --json` processes (the CLI
 * as a user starts it: bin/gpusim.cjs), the separate ES modules (GPUSIM_BUNDLE=0) and the one-file
 * build with its code cache (src/cli/launch.ts) alternating: Node's own start-up (`nodeStartMs`,
 * before any gpusim code: NODE_EXTRA_CA_CERTS costs 50-90 ms there on the development VM), time to
 * the first instruction and process CPU. (The cases' children below run the separate modules, not the one-file CLI: their
 * cold figures include ~0.3 s more start-up than a user's run.)
 *
 *   node dist/bench/cold.js [--rounds N] [--warm N] [kernel]      (also `npm run bench -- cold`)
 */
import { intArg } from './args.js';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { setBlockStore } from '../src/amd/engine/block.js';
import { openBlockStore } from '../src/runtime/block-cache-node.js';
import { freshBundle } from '../src/runtime/code-cache-node.js';
import { BUNDLE_NAME } from '../src/cli/launch.js';
import { ROOT } from '../tools/gen/run.js';
import { benchCases, type BenchCase } from './cases.js';
import { runKernel } from '../src/runtime/run.js';
import { engineTime } from '../src/amd/engine/program.js';
import { nodeWorkerHost, threadCpuMs } from '../src/runtime/parallel-node.js';
import { alternating, MachineProbe, median } from './machine-probe.js';
import { adoptedCopy } from './rdna3.js';
import type { BenchResult } from './main.js';

interface ChildResult {
  /** Threads the cold dispatch used, and why one (fast2: `--threads 2`'s per-dispatch choice). */
  readonly threads?: number;
  readonly reason?: string;
  readonly coldMs: number;
  readonly coldCpuMs: number;
  readonly coldMainCpuMs: number | null;
  readonly processMs: number;
  readonly firstInstMs: number;
  readonly compileMs: number;
  readonly blocks: number;
  readonly cachedBlocks: number;
  readonly warmMs: number | null;
  readonly wi: number;
  readonly laneOps: number;
  readonly bad: string | null;
}

/**
 * One case, one engine, in this (fresh) process: the cold run, then `warm` warm ones. `fast2` is
 * engine fast with two threads as `gpusim run --threads 2` runs it (the caller's slice, workers
 * started per dispatch when the grid and the machine's load say they pay: runtime/parallel.ts).
 */
async function child(name: string, engine: 'fast' | 'interp' | 'fast2' | 'fastc', warm: number, blockDir?: string): Promise<ChildResult> {
  const [c] = benchCases({ root: ROOT, only: (n) => n === name });
  if (c === undefined) throw new Error(`no bench case '${name}'`);
  // fastc: engine fast with the block cache in `blockDir` (read, and written when the run is over).
  const store = engine === 'fastc' && blockDir !== undefined ? openBlockStore(blockDir, 'bench') : null;
  setBlockStore(store);
  const pool = engine === 'fast2' ? new (await import('../src/runtime/parallel.js')).ParallelPool(nodeWorkerHost(), 2, { callerSlice: true }) : null;
  let used: { threads?: number; reason?: string } = {};
  const one = async () => {
    const l = adoptedCopy(c.launch, pool !== null);
    const c0 = process.cpuUsage();
    const m0 = threadCpuMs?.();
    let r;
    if (pool === null) r = runKernel(l, { engine: engine === 'interp' ? 'interp' : 'fast' });
    else {
      const p = await pool.run(l, { engine: 'fast' });
      used = { threads: p.parallel.threads, ...(p.parallel.reason !== undefined ? { reason: p.parallel.reason } : {}) };
      r = p;
    }
    const cu = process.cpuUsage(c0);
    const m1 = threadCpuMs?.();
    return { r, cpu: (cu.user + cu.system) / 1000, main: m0 !== undefined && m1 !== undefined ? m1 - m0 : null };
  };
  const cold = await one();
  store?.save();
  const coldUsed = used;
  const processMs = performance.now();
  const bad = cold.r.report.aborted ? 'aborted' : c.check(cold.r.buffers);
  let warmMs: number | null = null;
  for (let i = 0; i < warm; i++) {
    const ms = (await one()).r.report.timeMs;
    if (warmMs === null || ms < warmMs) warmMs = ms;
  }
  pool?.close();
  return {
    ...coldUsed,
    coldMs: cold.r.report.timeMs, coldCpuMs: cold.cpu, coldMainCpuMs: cold.main, processMs, firstInstMs: engineTime.firstInstAt,
    compileMs: engineTime.compileMs, blocks: engineTime.blocks, cachedBlocks: engineTime.cachedBlocks, warmMs, wi: cold.r.report.waveInstructions, laneOps: cold.r.report.laneOperations, bad,
  };
}

function spawnChild(name: string, engine: string, warm: number, blockDir?: string): ChildResult {
  const out = execFileSync(process.execPath, [import.meta.filename, '--child', name, engine, String(warm), ...(blockDir !== undefined ? [blockDir] : [])], { encoding: 'utf8', maxBuffer: 1 << 24 });
  return JSON.parse(out) as ChildResult;
}

interface StartupRun {
  /** Node's own start-up before gpusim's code (run.json timing.nodeStartMs). */
  readonly nodeStartMs: number;
  readonly firstInstMs: number;
  readonly processMs: number;
  readonly cpuMs: number;
}

/**
 * One fresh `gpusim run` of the empty kernel as package.json's bin starts it (bin/gpusim.cjs), with
 * the one-file CLI or without (`esm`: the separate ES modules).
 */
function startupRun(esm: boolean): StartupRun {
  const env = { ...process.env, GPUSIM_BUNDLE: esm ? '0' : '1' };
  const out = execFileSync(process.execPath, [join(ROOT, 'bin/gpusim.cjs'), 'run', join(ROOT, 'kernels/manifests/empty.json'), '--json'], { encoding: 'utf8', env, maxBuffer: 1 << 24 });
  const t = (JSON.parse(out) as { timing: { nodeStartMs: number; firstInstructionMs: number; processMs: number; cpuMs: { process: number } } }).timing;
  return { nodeStartMs: t.nodeStartMs, firstInstMs: t.firstInstructionMs, processMs: t.processMs, cpuMs: t.cpuMs.process };
}

/**
 * `c` as a `gpusim run` manifest in `dir` (its code object and every buffer's initial contents as
 * files, every buffer an output); returns the manifest's path.
 */
export function caseManifest(c: BenchCase, dir: string): string {
  const l = c.launch;
  if (!(l.codeObject instanceof Uint8Array)) throw new Error(`${c.name}: the case's code object is not bytes`);
  writeFileSync(join(dir, 'kernel.co'), l.codeObject);
  const buffers: Record<string, unknown> = {};
  for (const b of l.buffers) {
    writeFileSync(join(dir, `${b.name}.in.bin`), b.data);
    buffers[b.name] = { type: b.type, file: `${b.name}.in.bin` };
  }
  const args = l.args.map((a) => {
    if (a.kind === 'buffer') return a.name;
    if (a.kind === 'scalar') return { [a.type]: a.value };
    throw new Error(`${c.name}: a ${a.kind} argument has no manifest form here`);
  });
  const m = { codeObject: 'kernel.co', ...(l.kernel !== undefined ? { kernel: l.kernel } : {}), grid: l.grid, block: l.block, buffers, args, outputs: l.buffers.map((b) => b.name) };
  const file = join(dir, 'manifest.json');
  writeFileSync(file, JSON.stringify(m));
  return file;
}

interface CliRun {
  readonly dispatchMs: number;
  readonly processMs: number;
  readonly blocksFromCache: number;
  readonly bad: string | null;
}

/**
 * One fresh `gpusim run MANIFEST --json --out DIR` as a user starts it (bin/gpusim.cjs: the one-file
 * CLI with its code cache), its code and block caches under `cache` (XDG_CACHE_HOME), the case's
 * check on the outputs it wrote.
 */
function cliRun(c: BenchCase, manifest: string, cache: string, out: string, engine: 'fast' | 'fastc' | 'interp'): CliRun {
  const env = { ...process.env, XDG_CACHE_HOME: cache, ...(engine === 'fast' ? { GPUSIM_BLOCK_CACHE: '0' } : {}) };
  const args = [join(ROOT, 'bin/gpusim.cjs'), 'run', manifest, '--json', '--out', out, ...(engine === 'interp' ? ['--engine', 'interp'] : [])];
  let text: string;
  try {
    text = execFileSync(process.execPath, args, { encoding: 'utf8', env, maxBuffer: 1 << 26 });
  } catch (e) {
    // Exit code 1: a finding (the report is still on stdout).
    text = (e as { stdout?: string }).stdout ?? '';
    if (!text) throw e;
  }
  const t = (JSON.parse(text) as { timing: { dispatchMs: number; processMs: number; blocksFromCache: number } }).timing;
  const got: Record<string, Uint8Array> = {};
  for (const b of c.launch.buffers) got[b.name] = new Uint8Array(readFileSync(join(out, `${b.name}.bin`)));
  return { dispatchMs: t.dispatchMs, processMs: t.processMs, blocksFromCache: t.blocksFromCache, bad: c.check(got) };
}

/**
 * The case as a user runs it, the issue's measure: fresh `gpusim run` processes, engine fast (its
 * first run: no block cache), fast with the block cache an earlier run filled (a repeated run) and
 * interp, the order rotated every round. Medians of the dispatch and process wall times, and the
 * geometric means over the rounds of the interpreter's time over each fast one's (same round).
 */
export function benchCli(c: BenchCase, rounds: number): BenchResult {
  const dir = mkdtempSync(join(tmpdir(), 'gpusim-cold-cli-'));
  try {
    const out = join(dir, 'out');
    mkdirSync(out);
    const manifest = caseManifest(c, dir);
    const cache = join(dir, 'cache');
    const kinds = ['fast', 'fastc', 'interp'] as const;
    const runs: Record<(typeof kinds)[number], CliRun[]> = { fast: [], fastc: [], interp: [] };
    // Untimed: the code cache, and the block cache fastc reads.
    cliRun(c, manifest, cache, out, 'fastc');
    cliRun(c, manifest, cache, out, 'interp');
    for (let r = 0; r < rounds; r++) {
      for (let k = 0; k < kinds.length; k++) {
        const kind = kinds[(r + (r % 2 === 0 ? k : kinds.length - 1 - k)) % kinds.length]!;
        runs[kind].push(cliRun(c, manifest, cache, out, kind));
      }
    }
    const r1 = (x: number) => Math.round(x * 10) / 10;
    const r2 = (x: number) => Math.round(x * 100) / 100;
    const med = (xs: readonly CliRun[], f: (x: CliRun) => number) => r1(median(xs.map(f)));
    const gm = (xs: readonly CliRun[], f: (x: CliRun) => number) => r2(Math.exp(xs.reduce((s, x, i) => s + Math.log(f(runs.interp[i]!) / f(x)), 0) / xs.length));
    return {
      name: `${c.name} [fresh gpusim run]`,
      figures: {
        rounds, dispatchMs: med(runs.fast, (x) => x.dispatchMs), cachedDispatchMs: med(runs.fastc, (x) => x.dispatchMs), interpDispatchMs: med(runs.interp, (x) => x.dispatchMs),
        xInterpDispatch: gm(runs.fast, (x) => x.dispatchMs), xInterpDispatchCached: gm(runs.fastc, (x) => x.dispatchMs),
        processMs: med(runs.fast, (x) => x.processMs), cachedProcessMs: med(runs.fastc, (x) => x.processMs), interpProcessMs: med(runs.interp, (x) => x.processMs),
        xInterpProcess: gm(runs.fast, (x) => x.processMs), xInterpProcessCached: gm(runs.fastc, (x) => x.processMs),
        cachedBlocks: median(runs.fastc.map((x) => x.blocksFromCache)), loadAvg: r1(loadavg()[0]!),
        check: [...runs.fast, ...runs.fastc, ...runs.interp].find((x) => x.bad !== null)?.bad ?? 'ok',
      },
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The start-up row: separate modules against the one-file CLI (with its code cache), alternating. */
export function benchStartup(rounds = 5): BenchResult {
  if (freshBundle(BUNDLE_NAME) === null) return { name: 'start-up [fresh gpusim run, empty kernel]', figures: { note: 'no fresh dist/gpusim-cli.cjs (esbuild not installed?): separate modules only' } };
  startupRun(false); // writes the code cache when there is none
  const { a: esm, b: one } = alternating(rounds, () => startupRun(true), () => startupRun(false));
  const m = (xs: StartupRun[], f: (x: StartupRun) => number) => Math.round(median(xs.map(f)) * 10) / 10;
  return {
    name: 'start-up [fresh gpusim run, empty kernel]',
    figures: {
      rounds, nodeStartMs: m([...esm, ...one], (x) => x.nodeStartMs), modulesFirstInstMs: m(esm, (x) => x.firstInstMs), modulesCpuMs: m(esm, (x) => x.cpuMs),
      bundleFirstInstMs: m(one, (x) => x.firstInstMs), bundleCpuMs: m(one, (x) => x.cpuMs),
      xCpu: Math.round(m(esm, (x) => x.cpuMs) / m(one, (x) => x.cpuMs) * 100) / 100,
      loadAvg: Math.round(loadavg()[0]! * 10) / 10,
    },
  };
}

export const ROUNDS = 3;
export const WARM = 3;

/** The cold suite: every case (or those whose name contains `filter`), fast and interp alternating. */
export async function benchCold(filter?: string, rounds = ROUNDS, warm = WARM): Promise<BenchResult[]> {
  const names = benchCases({ root: ROOT, only: (n) => n !== 'empty' && (filter === undefined || filter === 'cold' || n.includes(filter)) }).map((c) => c.name);
  const results: BenchResult[] = filter === undefined || filter === 'cold' ? [benchStartup()] : [];
  const probe = names.length > 0 ? await MachineProbe.start() : null;
  const blockDir = mkdtempSync(join(tmpdir(), 'gpusim-cold-blocks-'));
  for (const name of names) {
    const fast: ChildResult[] = [];
    const interp: ChildResult[] = [];
    const two: ChildResult[] = [];
    const cached: ChildResult[] = [];
    const readings: { oneMs: number; parallel: number }[] = [];
    spawnChild(name, 'fastc', 0, blockDir); // fills the block cache
    for (let r = 0; r < rounds; r++) {
      readings.push(await probe!.read());
      // Alternate which engine goes first, so a change in machine load hits both.
      if (r % 2 === 0) {
        fast.push(spawnChild(name, 'fast', warm));
        cached.push(spawnChild(name, 'fastc', 0, blockDir));
        two.push(spawnChild(name, 'fast2', 0));
        interp.push(spawnChild(name, 'interp', 1));
      } else {
        interp.push(spawnChild(name, 'interp', 1));
        two.push(spawnChild(name, 'fast2', 0));
        cached.push(spawnChild(name, 'fastc', 0, blockDir));
        fast.push(spawnChild(name, 'fast', warm));
      }
    }
    const med = (xs: readonly ChildResult[], f: (x: ChildResult) => number | null) => median(xs.map(f).filter((x): x is number => x !== null));
    const r1 = (x: number) => Math.round(x * 10) / 10;
    const r2 = (x: number) => Math.round(x * 100) / 100;
    const wi = fast[0]!.wi;
    const lo = fast[0]!.laneOps;
    const coldMs = med(fast, (x) => x.coldMs);
    const warmMs = med(fast, (x) => x.warmMs);
    const iCold = med(interp, (x) => x.coldMs);
    const iWarm = med(interp, (x) => x.warmMs);
    results.push({
      name: `${name} [cold, fresh process]`,
      figures: {
        waveInst: wi, laneOps: lo, rounds,
        coldMs: r1(coldMs), coldCpuMs: r1(med(fast, (x) => x.coldCpuMs)), coldMainCpuMs: r1(med(fast, (x) => x.coldMainCpuMs)),
        processMs: r1(med(fast, (x) => x.processMs)), firstInstMs: r1(med(fast, (x) => x.firstInstMs)), compileMs: r1(med(fast, (x) => x.compileMs)),
        warmMs: r1(warmMs),
        'coldWaveInst/s': Math.round(wi / coldMs * 1000), 'warmWaveInst/s': Math.round(wi / warmMs * 1000),
        'coldLaneOps/s': Math.round(lo / coldMs * 1000), 'warmLaneOps/s': Math.round(lo / warmMs * 1000),
        interpColdMs: r1(iCold), interpWarmMs: r1(iWarm), interpColdCpuMs: r1(med(interp, (x) => x.coldCpuMs)),
        xInterpCold: r2(iCold / coldMs), xInterpWarm: r2(iWarm / warmMs),
        xInterpColdCpu: r2(med(interp, (x) => x.coldCpuMs) / med(fast, (x) => x.coldCpuMs)),
        cachedColdMs: r1(med(cached, (x) => x.coldMs)), xInterpColdCached: r2(iCold / med(cached, (x) => x.coldMs)), cachedBlocks: med(cached, (x) => x.cachedBlocks),
        threads2ColdMs: r1(med(two, (x) => x.coldMs)), threads2ColdCpuMs: r1(med(two, (x) => x.coldCpuMs)),
        x1threadCold: r2(coldMs / med(two, (x) => x.coldMs)), threads2Used: two.map((x) => x.threads ?? 1).join('/'),
        ...(two.some((x) => x.reason !== undefined) ? { threads2Why: [...new Set(two.map((x) => x.reason).filter((x) => x !== undefined))].join('; ') } : {}),
        probeMs: r2(median(readings.map((x) => x.oneMs))), probe2x: r2(median(readings.map((x) => x.parallel))), loadAvg: r1(loadavg()[0]!),
        check: [...fast, ...cached, ...two, ...interp].find((x) => x.bad !== null)?.bad ?? 'ok',
      },
    });
  }
  probe?.close();
  rmSync(blockDir, { recursive: true, force: true });
  // The same cases as a user runs them (the one-file CLI), when the build made it.
  if (freshBundle(BUNDLE_NAME) !== null) {
    for (const c of benchCases({ root: ROOT, only: (n) => names.includes(n) })) results.push(benchCli(c, rounds));
  }
  return results;
}

if (process.argv[2] === '--child') {
  const [, , , name, engine, warm, blockDir] = process.argv;
  if (engine !== 'fast' && engine !== 'interp' && engine !== 'fast2' && engine !== 'fastc') throw new Error(`engine must be fast, fast2, fastc or interp, not ${engine}`);
  process.stdout.write(JSON.stringify(await child(name!, engine, intArg(['--warm', warm ?? ''], '--warm', 0, { min: 0 }), blockDir)) + '\n');
  process.exit(0); // a worker left out by the late join may still be loading
} else if (import.meta.filename === process.argv[1]) {
  const a = process.argv.slice(2);
  const opt = (k: string, d: number) => intArg(a, k, d);
  const filter = a.find((x, i) => !x.startsWith('--') && !a[i - 1]?.startsWith('--'));
  for (const r of await benchCold(filter, opt('--rounds', ROUNDS), opt('--warm', WARM))) {
    console.log(`${r.name}: ${Object.entries(r.figures).map(([k, v]) => `${k}=${v}`).join('  ')}`);
  }
}
