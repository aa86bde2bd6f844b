/**
 * RDNA3 execution speed (issue 4): every case of bench/cases.ts through runKernel (the path
 * `gpusim run` takes), its outputs checked against the CPU reference, one thread and (when
 * src/runtime/parallel.ts can run it) all cores. Rates are reported raw and as a ratio to the
 * empty-kernel baseline measured in the same process.
 *
 * Methodology (bench/README, "All cores: methodology and load balance"): the worker pool is
 * spawned and loaded before anything is timed (a runtime keeps its pool; the start-up is its own
 * row). Each case runs once cold on every runner (`coldMs`: first decode, block compilation and
 * JIT of that kernel in that thread), then `repeats` more times, alternating runners so a change
 * in machine load hits both; `ms`/`cpuMs` are the best repeat, `medianMs` the median. `x1thread`
 * is the median over the repeats of the one-thread wall time over the all-cores run right after it
 * (`pairedRatio`), `x1threadBest` the best one-thread time over the best all-cores time; `xCpuPath` the one-thread
 * CPU time over the all-cores run's critical path in CPU time (main-thread layout + the busiest
 * slice), which is what an idle machine's wall-clock ratio approaches and is far less disturbed
 * by other processes than wall time.
 */
import { availableParallelism } from 'node:os';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { ROOT } from '../tools/gen/run.js';
import { runKernel, type KernelRun, type KernelLaunch } from '../src/runtime/run.js';
import { threadCpuMs } from '../src/runtime/parallel-node.js';
import { benchCases, type BenchCase } from './cases.js';
import { MachineProbe, median, type ProbeReading } from './machine-probe.js';
import type { BenchResult } from './main.js';

export interface RdnaRunner {
  readonly label: string;
  readonly threads: number;
  /** Get ready before anything is timed (spawn and load workers); figures for its own row. */
  warm?(): Promise<Record<string, number | string>>;
  /**
   * The launch a run gets: the case's inputs copied (into SharedArrayBuffers for a split run) and
   * handed over (`adopt`), as `gpusim run` hands over the buffers it built from the manifest. Made
   * before the timer starts: building a host's input arrays is not the dispatch. `keep`: the case
   * runs again on this runner, which may then refill the same buffers (`reusedCopies`).
   */
  prepare(c: BenchCase, keep: boolean): KernelLaunch;
  run(c: BenchCase, l: KernelLaunch): Promise<KernelRun>;
  /** The last split run's main-thread layout CPU ms and each worker's slice CPU ms, when known. */
  readonly lastSplit?: { readonly layoutCpuMs: number; readonly workerCpuMs: readonly number[] } | undefined;
  /** Threads the last run used and why not more (tracing, --strict, a trap handler, one workgroup). */
  readonly lastThreads?: number;
  readonly lastReason?: string;
  close?(): void;
}

/** Peak RSS sampled while a run is in flight (progress callbacks and a timer). */
export class RssPeak {
  peak = 0;
  /**
   * Sampling only while on: the cold run of each case (its peak is the one reported). A sample
   * reads /proc (process.memoryUsage.rss, ~0.2 ms here); one every 32 workgroups was 5% of a warm
   * one-thread vaddmul run, a cost the all-cores runner's workers did not pay.
   */
  on = false;
  sample(): void {
    if (!this.on) return;
    const r = process.memoryUsage.rss();
    if (r > this.peak) this.peak = r;
  }
}

export function singleThread(rss: RssPeak): RdnaRunner {
  return {
    label: '1 thread', threads: 1,
    prepare: reusedCopies(false),
    run: (_c, l) => {
      let k = 0;
      return Promise.resolve(runKernel(l, { progress: () => { if ((++k & 31) === 0) rss.sample(); } }));
    },
  };
}

/**
 * `l` with every buffer copied and adopted: on SharedArrayBuffers when `shared` (what a split run
 * lays out in place). The copies' pages are touched here, outside the timed run; on this machine a
 * fresh page costs microseconds (a 4 MiB copy into new memory took 17-40 ms), which in vaddmul's
 * 16 MiB of inputs was a third of the run and not the simulator's.
 */
export function adoptedCopy(l: KernelLaunch, shared: boolean): KernelLaunch {
  return {
    ...l,
    buffers: l.buffers.map((b) => {
      const data = shared ? new Uint8Array(new SharedArrayBuffer(b.data.length)) : new Uint8Array(b.data.length);
      data.set(b.data);
      return { ...b, data, adopt: true };
    }),
  };
}

/**
 * `prepare` for a runner: the first run of a case gets fresh adopted copies (`adoptedCopy`), every
 * later run of the same case the same buffers refilled with the case's inputs, as an application
 * that dispatches a kernel again reuses its buffers. Fresh copies for every repeat put 16-48 MiB of
 * new ArrayBuffers into each run, and V8 answers that external-memory growth with incremental
 * marking during the next timed runs (vaddmul: every second repeat 10-30 ms slower, 63 -> 75-110 ms;
 * with reused buffers 63-69 ms).
 */
export function reusedCopies(shared: boolean): (c: BenchCase, keep: boolean) => KernelLaunch {
  let last: { c: BenchCase; l: KernelLaunch } | undefined;
  return (c, keep) => {
    let l: KernelLaunch;
    if (last?.c === c) {
      l = last.l;
      l.buffers.forEach((b, i) => b.data.set(c.launch.buffers[i]!.data));
    } else {
      last = undefined; // the previous case's buffers are garbage before the copies are made
      l = adoptedCopy(c.launch, shared);
    }
    // Not kept after a case's last run: its buffers must not count in the next run's peak RSS.
    last = keep ? { c, l } : undefined;
    return l;
  };
}


/** A full GC between cases, so one case's garbage does not count in the next one's peak RSS. */
function collector(): () => void {
  if (typeof globalThis.gc === 'function') return globalThis.gc;
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

/** Repeats of each case after its cold run (best and median reported); `--repeats N` overrides. */
export const REPEATS = 7;

/**
 * Untimed runs of each case between its cold run and the timed repeats (`--warmup N` overrides).
 * A worker thread only warms on its own slices while V8's background compiles of its code compete
 * with the two busy threads: vaddmul's split run took 190, 119, 62, 51 ms in its first four runs
 * and 28-33 ms from the fifth, while the one-thread runner (warmed by its cold run) was steady
 * by its second repeat; timed from the first repeat, those pairs dragged x1thread's median down
 * for a reason the steady state does not have. The cold run stays reported (`coldMs`).
 */
export const WARMUP = 3;

export interface Run {
  readonly ms: number;
  readonly cpuMs: number;
  readonly pathCpuMs: number | undefined;
  readonly bad: string | null;
  readonly wi: number;
  readonly laneOps: number;
  readonly rss: number;
}

export async function benchRdna3(filter?: string, repeats = REPEATS, warmup = WARMUP): Promise<BenchResult[]> {
  // The memory case (three 64 MiB buffers) runs only when named: `npm run bench -- memory`.
  const memory = filter === 'memory' || filter === 'vadd_2^24';
  const cases = benchCases({
    root: ROOT, memoryCase: memory,
    only: (name) => memory ? name === 'vadd_2^24' : !filter || filter === 'rdna3' || name === 'empty' || name.includes(filter),
  });
  // A filter naming another suite (decode, adreno) selects no kernel here: nothing to run.
  if (filter && filter !== 'rdna3' && !memory && !cases.some((c) => c.name !== 'empty' && c.name.includes(filter))) return [];
  const rss = new RssPeak();
  const gc = collector();
  const runners: RdnaRunner[] = [singleThread(rss)];
  const n = availableParallelism();
  if (n > 1) {
    const { parallelRunner } = await import('./parallel-runner.js');
    runners.push(parallelRunner(n, rss));
  }
  const out: BenchResult[] = [];
  for (const runner of runners) {
    const f = await runner.warm?.();
    if (f) out.push({ name: `pool start-up [${runner.label}]`, figures: f });
  }
  // With two runners, the machine probe reads before each pair of repeats (machine-probe.ts).
  const probe = runners.length > 1 && !memory ? await MachineProbe.start() : null;
  // The memory case measures peak RSS: one run per runner, no repeats.
  const reps = memory ? 0 : Math.max(0, repeats);
  const warm = memory ? 0 : Math.max(0, warmup);
  const baseline = new Map<RdnaRunner, number>();
  for (const c of cases) {
    const runs = new Map<RdnaRunner, Run[]>(runners.map((r) => [r, []]));
    const readings: ProbeReading[] = [];
    // Cold run first on every runner, then the warm-up runs and the repeats, alternating runners.
    for (let k = 0; k <= warm + reps; k++) {
      const warming = k > 0 && k <= warm;
      if (warming) {
        for (const runner of runners) await measure(runner, c, rss, true, false);
        continue;
      }
      if (k > 0 && probe !== null) readings.push(await probe.read());
      for (const runner of runners) {
        // A full GC before the cold run only: V8 drops the optimised code of every function that
        // embedded an object of a finished dispatch (waves, the sanitizer, segments: "weak objects"
        // deopts), so a GC before each repeat made every repeat a cold run again (matmul 0.31 ->
        // 1.1 cpu-s). The repeats measure the steady state of a process dispatching the same kernel.
        if (k === 0) gc();
        // One run is measured in its own call: its outputs must not stay reachable from this
        // suspended frame while the next run's peak memory is measured.
        runs.get(runner)!.push(await measure(runner, c, rss, k < warm + reps, k === 0));
      }
    }
    const one = summary(runs.get(runners[0]!)!);
    for (const runner of runners) {
      const all = runs.get(runner)!;
      const s = summary(all);
      const rate = s.wi / (s.ms / 1000);
      if (c.name === 'empty') baseline.set(runner, rate);
      const base = baseline.get(runner) ?? 0;
      out.push({
        name: `${c.name} [${runner.label}]`,
        figures: {
          ok: s.bad === null ? 'yes' : `NO (${s.bad})`,
          waveInst: s.wi,
          laneOps: s.laneOps,
          repeats: all.length - 1,
          coldMs: Math.round(all[0]!.ms * 10) / 10,
          ms: Math.round(s.ms * 10) / 10,
          medianMs: Math.round(s.medianMs * 10) / 10,
          cpuMs: Math.round(s.cpuMs * 10) / 10,
          'waveInst/s': Math.round(rate),
          'laneOps/s': Math.round(s.laneOps / (s.ms / 1000)),
          'waveInst/cpu-s': Math.round(s.wi / (s.cpuMs / 1000)),
          'xEmpty': base > 0 ? Math.round((rate / base) * 1000) / 1000 : 1,
          ...(runner.threads > 1 ? { 'x1thread': round3(pairedRatio(runs.get(runners[0]!)!, all)), 'x1threadBest': round3(one.ms / s.ms) } : {}),
          // The machine probe over this case's repeats (medians): one-thread loop ms, and the
          // speed-up the same loop got on two threads at once, the ceiling for x1thread now.
          ...(runner.threads > 1 && readings.length > 0 ? {
            probeMs: Math.round(median(readings.map((r) => r.oneMs)) * 10) / 10,
            probe2x: round3(median(readings.map((r) => r.parallel))),
            // x1thread over the pairs the probe just before found two full cores for (>= 1.85x):
            // what the split gets when the machine gives what the target presumes.
            ...twoCorePairs(runs.get(runners[0]!)!, all, readings),
          } : {}),
          ...(runner.threads > 1 && s.pathCpuMs !== undefined && one.pathCpuMs !== undefined ? { 'xCpuPath': Math.round((one.pathCpuMs / s.pathCpuMs) * 1000) / 1000 } : {}),
          peakRssMiB: Math.round(s.rss / 1048576),
          threads: runner.lastThreads ?? runner.threads,
          ...(runner.lastReason ? { note: runner.lastReason } : {}),
        },
      });
    }
  }
  for (const runner of runners) runner.close?.();
  probe?.close();
  return out;
}

const round3 = (x: number): number => Math.round(x * 1000) / 1000;

/**
 * The median over the repeats of one thread's wall time over the all-cores run's that followed it
 * (the two runs of a pair are seconds apart). This 2-vCPU VM has slow phases lasting tens of
 * seconds (a fixed JS loop: 22 ms per pass, then 32-51 ms for a while), which move a best-of-N
 * ratio when one runner's best falls in a fast phase and the other's does not; a pair sees the
 * same phase. The cold runs are not paired (first compilation, not the steady state).
 */
export function pairedRatio(one: readonly Run[], many: readonly Run[], keep?: (k: number) => boolean): number {
  const n = Math.min(one.length, many.length);
  const r: number[] = [];
  for (let k = n > 1 ? 1 : 0; k < n; k++) if (keep === undefined || keep(k)) r.push(one[k]!.ms / many[k]!.ms);
  return median(r);
}

/** Probe readings at or above this speed-up count as two full cores. */
const TWO_CORES = 1.85;

/** `x1thread2core` (and how many pairs it is the median of), when any pair had two full cores. */
function twoCorePairs(one: readonly Run[], many: readonly Run[], readings: readonly ProbeReading[]): Record<string, number> {
  // readings[k - 1] was taken just before repeat pair k.
  const ok = (k: number) => (readings[k - 1]?.parallel ?? 0) >= TWO_CORES;
  const pairs = readings.filter((r) => r.parallel >= TWO_CORES).length;
  return pairs === 0 ? { twoCorePairs: 0 } : { x1thread2core: round3(pairedRatio(one, many, ok)), twoCorePairs: pairs };
}

/** Best and median of the repeats (the cold run alone when there are none); any failed check counts. */
function summary(all: readonly Run[]): { ms: number; medianMs: number; cpuMs: number; pathCpuMs: number | undefined; bad: string | null; wi: number; laneOps: number; rss: number } {
  const reps = all.length > 1 ? all.slice(1) : all;
  const ms = reps.map((r) => r.ms).sort((a, b) => a - b);
  const paths = reps.map((r) => r.pathCpuMs).filter((x) => x !== undefined);
  return {
    ms: ms[0]!, medianMs: ms[(ms.length - 1) >> 1]!, cpuMs: Math.min(...reps.map((r) => r.cpuMs)),
    pathCpuMs: paths.length > 0 ? Math.min(...paths) : undefined,
    bad: all.find((r) => r.bad !== null)?.bad ?? null, wi: all[0]!.wi, laneOps: all[0]!.laneOps, rss: all[0]!.rss,
  };
}

async function measure(runner: RdnaRunner, c: BenchCase, rss: RssPeak, keep: boolean, cold: boolean): Promise<Run> {
  const l = runner.prepare(c, keep);
  rss.peak = 0;
  rss.on = cold;
  rss.sample();
  const timer = cold ? setInterval(() => rss.sample(), 20) : undefined;
  const c0 = process.cpuUsage();
  const m0 = threadCpuMs?.() ?? 0;
  const t0 = performance.now();
  let r: KernelRun;
  try {
    r = await runner.run(c, l);
  } finally {
    if (timer !== undefined) clearInterval(timer);
  }
  const ms = performance.now() - t0;
  const cu = process.cpuUsage(c0);
  // CPU time of this process (all its threads, V8's compiler and GC threads too): on a busy
  // machine wall time overstates the cost.
  const cpuMs = (cu.user + cu.system) / 1000;
  const mainCpuMs = threadCpuMs ? threadCpuMs() - m0 : undefined;
  rss.sample();
  const bad = r.report.aborted ? 'aborted' : c.check(r.buffers);
  // Critical path in thread CPU time (V8's compiler and GC helper threads not counted, on both
  // runners): one thread's is its own; a split's is the longer of the main thread (layout, its own
  // slice if it runs one, the merge) and the layout followed by the busiest worker.
  const split = runner.threads > 1 ? runner.lastSplit : undefined;
  const pathCpuMs = mainCpuMs === undefined ? undefined
    : split === undefined ? (runner.threads > 1 ? undefined : mainCpuMs)
      : Math.max(mainCpuMs, split.layoutCpuMs + Math.max(0, ...split.workerCpuMs));
  return { ms, cpuMs, pathCpuMs, bad, wi: r.report.waveInstructions, laneOps: r.report.laneOperations, rss: rss.peak };
}
