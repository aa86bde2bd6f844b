/**
 * Where a two-thread run's time goes (bench/README, "All cores: methodology and load balance"):
 *   node dist/bench/parallel-phases.js [kernel] [--static] [--no-caller] [--runs N]
 * Warms a pool (spawn and module load, timed), then runs each bench case on one thread and split
 * over the pool N times (the first is the cold run) and prints, per run, the wall and process CPU
 * ms, the main thread's memory layout, and per slice: workgroups and chunks, code-object load and
 * dispatch (wall and thread CPU), the message latency before it started and the wait after it
 * ended. Thread CPU comes from /proc/thread-self/schedstat (Linux).
 */
import { availableParallelism } from 'node:os';
import { ROOT } from '../tools/gen/run.js';
import { runKernel } from '../src/runtime/run.js';
import { ParallelPool } from '../src/runtime/parallel.js';
import { nodeWorkerHost } from '../src/runtime/parallel-node.js';
import { benchCases } from './cases.js';
import { adoptedCopy } from './rdna3.js';
import { intArg } from './args.js';

const args = process.argv.slice(2);
const filter = args.find((a, i) => !a.startsWith('--') && args[i - 1] !== '--runs');
const runs = intArg(args, '--runs', 3);
const pool = new ParallelPool(nodeWorkerHost(), availableParallelism(), {
  callerSlice: !args.includes('--no-caller'), split: args.includes('--static') ? 'static' : 'dynamic',
});
const r1 = (x: number | null) => (x === null ? '-' : x.toFixed(1));
const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

const t0 = performance.now();
const c0 = cpu();
const starts = await pool.warm();
console.log(`pool: ${pool.threads} threads (${pool.workers} workers, caller slice ${pool.callerSlice}, ${pool.splitMode} split); warm ${r1(performance.now() - t0)} ms wall, ${r1(cpu() - c0)} ms process CPU;`
  + ` per worker spawn->loaded ${starts.map((s) => r1(s.spawnToLoadedMs)).join(', ')} ms, thread CPU ${starts.map((s) => r1(s.cpuMs)).join(', ')} ms`);
for (const c of benchCases({ root: ROOT, only: (n) => !filter || n.includes(filter) })) {
  for (let i = 0; i < runs; i++) {
    // Inputs copied and handed over before the timer, as the benchmark does (rdna3.ts adoptedCopy).
    let l = adoptedCopy(c.launch, false);
    let t = performance.now();
    let u = cpu();
    runKernel(l);
    const one = `1T ${r1(performance.now() - t)} ms / ${r1(cpu() - u)} cpu`;
    l = adoptedCopy(c.launch, true);
    t = performance.now();
    u = cpu();
    const p = await pool.run(l);
    const ms = performance.now() - t;
    const pc = cpu() - u;
    const sl = (p.parallel.slices ?? []).map((s) => `[${s.groups}g/${s.chunks}c load ${r1(s.loadMs)}/${r1(s.loadCpuMs)} run ${r1(s.runMs)}/${r1(s.runCpuMs)} lat ${r1(s.latencyMs)} wait ${r1(s.waitMs)}]`);
    console.log(`${c.name} #${i}: ${one} | ${p.parallel.threads}T ${r1(ms)} ms / ${r1(pc)} cpu, layout ${r1(p.parallel.layoutMs ?? null)} ${sl.join(' ')}`);
  }
}
pool.close();
