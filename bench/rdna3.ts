/**
 * RDNA3 execution speed (issue 4): every case of bench/cases.ts through runKernel (the path
 * `gpusim run` takes), its outputs checked against the CPU reference, one thread and (when
 * src/runtime/parallel.ts can run it) all cores. Rates are reported raw and as a ratio to the
 * empty-kernel baseline measured in the same process.
 */
import { availableParallelism } from 'node:os';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { ROOT } from '../tools/gen/run.js';
import { runKernel, type KernelRun } from '../src/runtime/run.js';
import { benchCases, type BenchCase } from './cases.js';
import type { BenchResult } from './main.js';

export interface RdnaRunner {
  readonly label: string;
  readonly threads: number;
  run(c: BenchCase): Promise<KernelRun>;
  /** Threads the last run used and why not more (a kernel with global atomics runs on one). */
  readonly lastThreads?: number;
  readonly lastReason?: string;
  close?(): void;
}

/** Peak RSS sampled while a run is in flight (progress callbacks and a timer). */
export class RssPeak {
  peak = 0;
  sample(): void {
    const r = process.memoryUsage.rss();
    if (r > this.peak) this.peak = r;
  }
}

export function singleThread(rss: RssPeak): RdnaRunner {
  return {
    label: '1 thread', threads: 1,
    run: (c) => {
      let k = 0;
      return Promise.resolve(runKernel(c.launch, { progress: () => { if ((++k & 31) === 0) rss.sample(); } }));
    },
  };
}

/** A full GC between cases, so one case's garbage does not count in the next one's peak RSS. */
function collector(): () => void {
  if (typeof globalThis.gc === 'function') return globalThis.gc;
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

export async function benchRdna3(filter?: string): Promise<BenchResult[]> {
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
  // Wall ms of each case on the first (one-thread) runner: the all-cores speed-up is against it.
  const oneThreadMs = new Map<string, number>();
  for (const runner of runners) {
    let baseline = 0;
    for (const c of cases) {
      gc();
      // One case is measured in its own call: the run's outputs must not stay reachable from this
      // suspended frame while the next case's peak memory is measured.
      const { ms, cpuMs, bad, wi, laneOps } = await measure(runner, c, rss);
      const rate = wi / (ms / 1000);
      if (c.name === 'empty') baseline = rate;
      if (runner.threads === 1) oneThreadMs.set(c.name, ms);
      const ms1 = oneThreadMs.get(c.name);
      out.push({
        name: `${c.name} [${runner.label}]`,
        figures: {
          ok: bad === null ? 'yes' : `NO (${bad})`,
          waveInst: wi,
          laneOps,
          ms: Math.round(ms * 10) / 10,
          cpuMs: Math.round(cpuMs * 10) / 10,
          'waveInst/s': Math.round(rate),
          'laneOps/s': Math.round(laneOps / (ms / 1000)),
          'waveInst/cpu-s': Math.round(wi / (cpuMs / 1000)),
          'xEmpty': baseline > 0 ? Math.round((rate / baseline) * 1000) / 1000 : 1,
          ...(runner.threads > 1 && ms1 !== undefined ? { 'x1thread': Math.round((ms1 / ms) * 1000) / 1000 } : {}),
          peakRssMiB: Math.round(rss.peak / 1048576),
          threads: runner.lastThreads ?? runner.threads,
          ...(runner.lastReason ? { note: runner.lastReason } : {}),
        },
      });
    }
    runner.close?.();
  }
  return out;
}

async function measure(runner: RdnaRunner, c: BenchCase, rss: RssPeak): Promise<{ ms: number; cpuMs: number; bad: string | null; wi: number; laneOps: number }> {
      rss.peak = 0;
  rss.sample();
  const timer = setInterval(() => rss.sample(), 20);
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  let r: KernelRun;
  try {
    r = await runner.run(c);
  } finally {
    clearInterval(timer);
  }
  const ms = performance.now() - t0;
  const cu = process.cpuUsage(c0);
  // CPU time of this process (all its threads): on a busy machine wall time overstates the cost.
  const cpuMs = (cu.user + cu.system) / 1000;
  rss.sample();
  const bad = r.report.aborted ? 'aborted' : c.check(r.buffers);
  return { ms, cpuMs, bad, wi: r.report.waveInstructions, laneOps: r.report.laneOperations };
}
