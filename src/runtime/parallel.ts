/**
 * All cores: a kernel's workgroups spread over worker threads that share GPU memory.
 *
 * The main thread lays out GPU memory as runKernel does (code, buffers, kernarg, queue, dispatch
 * packet) in a `shared` Memory, whose segments are SharedArrayBuffers. Each worker maps the same
 * segments at the same addresses and runs workgroups through the ordinary dispatch, with its own
 * decode cache, LDS and scratch. The split is dynamic: every thread pulls chunks of consecutive
 * workgroups from one shared counter (`Atomics.add`, DispatchConfig.moreGroups) until the grid is
 * taken, so a thread that started late, was descheduled or drew expensive groups simply takes
 * fewer. Workgroups of a race-free kernel touch disjoint output bytes, so the result is the same
 * bytes as one thread and as any `--order random` run, whoever ran which group; the report's
 * diagnostics are put back in workgroup order (each chunk's diagnostics are recorded with it).
 *
 * Global/flat/buffer atomics are compare-exchange loops on the shared segments (vmem.ts
 * memAtomic32/64), so kernels with atomics split too: integer atomics without return give the
 * same bytes as one thread (their result does not depend on the order); returned values and
 * float atomics depend on the interleaving, as they do under `--order random`.
 * Traces, trap handlers and --strict run on one thread.
 *
 * Threads come from a `WorkerHost`: parallel-node.ts (worker_threads) in Node; a browser build
 * gives one made of Web Workers whose script calls `answer` (parallel-slice.ts) on each message. Nothing here
 * touches a Node API.
 */
import { Memory } from '../core/memory.js';
import { heap, heapBacking, heapShared } from '../amd/engine/wasm/heap.js';
import { wasmTier } from '../amd/engine/wasm/tier.js';
import { firstCallsFor } from '../amd/engine/tier.js';
import { Diagnostics, type Diagnostic } from '../core/diagnostics.js';
import { InputError } from '../core/errors.js';
import { loadCodeObjectCached, type CodeObject, type CodeObjectKernel } from '../formats/amdgpu/codeobject.js';
import { loadCode, type DispatchStats } from './dispatch.js';
import { setupLaunch, type ArgValue } from './hsa.js';
import { scalarBytes, structBytes } from './manifest.js';
import { diagnosticRecord, runKernel, type KernelLaunch, type KernelRun, type RunOptions, type RunReport } from './run.js';
import { clockMs, JOIN, runSlice, type SharedSegment, type SliceRequest, type SliceResult, type SliceTiming, type WorkerAnswer, type WorkerRequest } from './parallel-slice.js';

export { answer, runSlice } from './parallel-slice.js';
export type { PingRequest, PingResult, SharedSegment, SliceRequest, SliceResult, SliceTiming, WorkerAnswer, WorkerRequest } from './parallel-slice.js';

// ---- the thread abstraction ----------------------------------------------------------------------

/** One worker: messages are structured-cloned; SharedArrayBuffers in them are shared, not copied. */
export interface WorkerPort {
  post(msg: WorkerRequest): void;
  onMessage(cb: (msg: WorkerAnswer) => void): void;
  onError(cb: (e: Error) => void): void;
  terminate(): void;
}

export interface WorkerHost {
  /** Hardware threads available (the default thread count). */
  readonly cores: number;
  spawn(): WorkerPort;
  /** CPU milliseconds the calling thread has used (optional: phase timing of the caller's slice). */
  readonly threadCpuMs?: () => number;
  /**
   * The machine's load (runnable threads, e.g. the 1-minute load average), optional, read only by
   * a host without `cpuTimes`: the late join then starts no worker when fewer than half a core per
   * worker is idle, since a worker then takes CPU from this thread (and from V8's compiler
   * threads) instead of adding any.
   */
  readonly load?: () => number;
  /**
   * The machine's CPU time so far, idle and in all (any unit, summed over its cores: Linux's
   * /proc/stat), optional: the late join measures idle cores over its rate window with it, and
   * starts a worker only while at least half a core per worker is idle (the 1-minute load average
   * lags and does not see a hypervisor's steal, nor V8's compiler threads warming the caller up).
   */
  readonly cpuTimes?: () => CpuTimes;
}

export interface CpuTimes {
  readonly idle: number;
  readonly total: number;
}

// ---- the main side -------------------------------------------------------------------------------

/** Why a kernel cannot be split over threads, or null. */
export function parallelBlocker(co: CodeObject, opts: RunOptions, l: KernelLaunch): string | null {
  if (opts.trace || opts.onInstruction) return 'tracing';
  if (opts.timeline) return 'a timeline';
  if (opts.strict) return '--strict';
  if (l.trapHandler) return 'a trap handler';
  if (l.images?.length || l.samplers?.length) return 'images or samplers';
  if (!co.text) return 'no .text';
  return null;
}

export interface ParallelRun extends KernelRun {
  /**
   * Threads used, why only one, each slice's wall milliseconds in its thread (load balance), and
   * where the time went: the main thread's memory layout, then per slice (the caller's first when
   * it runs one) its phases, the message latency before it started and the wait after it ended
   * until this thread took its result.
   */
  readonly parallel: {
    readonly threads: number; readonly reason?: string; readonly sliceMs?: readonly number[];
    readonly layoutMs?: number; readonly layoutCpuMs?: number | null; readonly slices?: readonly (SliceTiming & { readonly latencyMs: number; readonly waitMs: number })[];
  };
}

/**
 * Wall ms a worker takes from spawn to running (loading its modules) in a fresh process, measured
 * with ParallelPool.warm() on the development VM: 0.2-0.35 s. The late join starts workers only
 * when the rest of a dispatch looks longer than this.
 */
export const WORKER_START_MS = 300;

/**
 * The rest of a dispatch a late-joining worker must face to pay: its start-up (WORKER_START_MS),
 * about as much again warming its own code (each thread compiles its blocks and V8 optimises them
 * anew: a fresh `gpusim run --threads 2` of matmul 256^3 used ~1.1 s more process CPU than one
 * thread, half of it the worker's module loading), and as much again of useful work, so that a
 * worker that joins is not slower than none.
 */
export const WORKER_PAYS_MS = 3 * WORKER_START_MS;

/**
 * The late join decides only after the calling thread has run the grid this long, from its rate
 * over the last RATE_WINDOW_MS at least: the first few hundred ms of a fresh process's dispatch
 * run at a fraction of the warm rate (V8 compiling the handlers and blocks; matmul 256^3 reaches
 * its steady rate after ~0.3-0.5 s), and a rule projecting the rest from the first chunks
 * started the worker for dispatches of ~0.3-1 s, each then slower on two threads than on one
 * (bench cold: vaddmul 0.83x, vaddmul.w64 0.67x, matmul_tiled 0.71x).
 */
export const DECIDE_AFTER_MS = WORKER_START_MS;
export const RATE_WINDOW_MS = 50;

/** Idle cores a late-joining worker needs over the window that decides (half a core). */
export const IDLE_PER_WORKER = 0.5;

/**
 * With fewer idle cores than that, the rest must be this many times WORKER_PAYS_MS: a worker then
 * shares busy cores (the scheduler's fair share still gives the process more of the machine with
 * more threads: matmul 512^3 beside a CPU hog, 3.5-3.9 s on two threads against 4.0-5.8 s on one)
 * while its start-up and warm-up run at the contended rate (bench cold, probe 1.26-1.29: the
 * late join made reduce_1bar and matmul_tiled's ~0.6 s dispatches 0.78x and 0.82x one thread).
 */
export const CONTENDED_PAYS = 3;

/**
 * The rest is projected at the best rate of the last RATE_WINDOWS windows, and not while the last
 * window is more than RISING times the one before (the caller is still warming up). Projected from
 * the last window alone, fresh dispatches of ~0.6 s started a worker for nothing: matmul_tiled's
 * rate went 0.19, 0.47, 0.92, 1.16 workgroups/ms over 300-460 ms (the first projected 1.2 s, the
 * rest took 0.25 s), reduce_1bar's 4.2, 2.0, 2.3, 4.7, 17 over 200-430 ms (a dip while its blocks
 * were compiled).
 */
export const RATE_WINDOWS = 4;
export const RISING = 1.5;

/**
 * The late join's rule, fed the calling thread's progress (times in ms from any origin): whether the
 * rest of the grid now outlasts what a late-joining worker must pay. Before DECIDE_AFTER_MS from
 * `t0` it never does; after, once the rate has stopped rising (RISING), the rest is projected at
 * the best rate of the last RATE_WINDOWS windows of at least RATE_WINDOW_MS each (shorter ones are
 * not measured: they would not end at a chunk's edge). With the machine's CPU times (`cpu`,
 * WorkerHost.cpuTimes), a window with fewer than `needIdle` idle cores needs CONTENDED_PAYS times
 * the rest.
 */
export class LateJoinRule {
  private readonly t0: number;
  private readonly needIdle: number;
  private readonly cores: number;
  private winT: number;
  private winTaken = 0;
  private winCpu: CpuTimes | undefined;
  /** The last RATE_WINDOWS windows' rates (workgroups per ms). */
  private readonly rates: number[] = [];
  /** Idle cores of the last window that would have paid with enough of them (undefined: none such). */
  short: number | undefined;
  constructor(t0: number, needIdle = 0, cores = 1, cpu?: CpuTimes) {
    this.t0 = t0;
    this.winT = t0;
    this.needIdle = needIdle;
    this.cores = cores;
    this.winCpu = cpu;
  }

  /**
   * After `taken` of `total` workgroups were taken, at time `now` (`cpu`: the machine's CPU times
   * then, or how to read them: read only when a window closes, since reading Linux's /proc/stat at
   * every chunk cost a fresh matmul 256^3 dispatch kept on one thread ~3%).
   */
  pays(now: number, taken: number, total: number, cpu?: CpuTimes | (() => CpuTimes)): boolean {
    if (now - this.winT < RATE_WINDOW_MS) return false;
    if (typeof cpu === 'function') cpu = cpu();
    const rate = (taken - this.winTaken) / (now - this.winT);
    const prev = this.rates[this.rates.length - 1];
    this.rates.push(rate);
    if (this.rates.length > RATE_WINDOWS) this.rates.shift();
    if (now - this.t0 >= DECIDE_AFTER_MS && rate > 0 && !(prev !== undefined && rate > RISING * prev)) {
      const rest = (total - taken) / Math.max(...this.rates);
      const w = this.winCpu;
      const idle = cpu !== undefined && w !== undefined && cpu.total > w.total ? this.cores * (cpu.idle - w.idle) / (cpu.total - w.total) : Infinity;
      if (rest > WORKER_PAYS_MS * (idle >= this.needIdle ? 1 : CONTENDED_PAYS)) return true;
      if (rest > WORKER_PAYS_MS) this.short = idle;
    }
    this.winT = now;
    this.winTaken = taken;
    this.winCpu = cpu;
    return false;
  }
}

/** How the pool's threads share a grid. */
export type SplitMode = 'dynamic' | 'static';

export interface ParallelPoolOptions {
  /** See ParallelPool.callerSlice. */
  readonly callerSlice?: boolean;
  /**
   * 'dynamic' (default): threads pull chunks of workgroups from a shared counter; 'static': each
   * thread gets one contiguous equal slice (kept to measure against).
   */
  readonly split?: SplitMode;
  /** Chunks per thread of the dynamic split (default 16: the idle tail is at most ~1/16 of a slice). */
  readonly chunksPerThread?: number;
  /**
   * With callerSlice and the dynamic split (default true): a worker that has not started its slice
   * when the calling thread has taken the whole grid is left out and not waited for, so a small
   * dispatch in a fresh process never waits for a worker's start-up. false: every worker takes
   * part (tests of the split itself).
   */
  readonly lateJoin?: boolean;
}

/** Workers' start-up as warm() measured it: wall ms from spawn to loaded, and the worker thread's CPU ms by then. */
export interface WorkerStart {
  readonly spawnToLoadedMs: number;
  readonly cpuMs: number | null;
}

/** A set of workers kept across runs (spawning costs tens of milliseconds each). */
export class ParallelPool {
  private readonly host: WorkerHost;
  readonly threads: number;
  private ports: WorkerPort[] = [];
  private spawnedAt: number[] = [];
  private waiting = new Map<number, { resolve: (r: WorkerAnswer) => void; reject: (e: Error) => void }>();
  private nextId = 1;
  /** When each answer arrived (by request id), for the wait figures. */
  private arrived = new Map<number, number>();
  readonly splitMode: SplitMode;
  readonly chunksPerThread: number;

  /**
   * The calling thread runs the first slice itself while the workers run the others (so `threads`
   * counts it and the pool spawns one worker fewer). It is warm (it decoded and ran kernels
   * before) and nothing waits on a message for its slice; a thread that must stay responsive
   * (a browser page) leaves this off.
   */
  readonly callerSlice: boolean;
  readonly lateJoin: boolean;

  constructor(host: WorkerHost, threads = host.cores, opts: ParallelPoolOptions = {}) {
    this.host = host;
    this.threads = Math.max(1, threads);
    this.callerSlice = opts.callerSlice ?? false;
    this.lateJoin = opts.lateJoin ?? true;
    this.splitMode = opts.split ?? 'dynamic';
    this.chunksPerThread = Math.max(1, opts.chunksPerThread ?? 16);
  }

  /** Workers this pool runs (one fewer than its threads when the caller runs a slice). */
  get workers(): number {
    return this.threads < 2 ? 0 : this.threads - (this.callerSlice ? 1 : 0);
  }

  /**
   * Spawn every worker now and wait until each has loaded its modules (a runtime keeps its pool:
   * this is the cost a first run would otherwise pay). Returns each worker's start-up figures.
   */
  async warm(): Promise<WorkerStart[]> {
    const rs = await Promise.all(Array.from({ length: this.workers }, (_, i) => this.send(i, { ping: true })));
    return rs.map((r, i) => {
      const p = 'ping' in r ? r : null;
      return { spawnToLoadedMs: p ? p.loadedAt - this.spawnedAt[i]! : NaN, cpuMs: p ? p.cpuMs : null };
    });
  }

  private port(i: number): WorkerPort {
    let p = this.ports[i];
    if (!p) {
      this.spawnedAt[i] = clockMs();
      p = this.host.spawn();
      p.onMessage((r) => {
        const w = this.waiting.get(r.id);
        if (w) {
          this.arrived.set(r.id, clockMs());
          this.waiting.delete(r.id);
          w.resolve(r);
        }
      });
      p.onError((e) => {
        for (const w of this.waiting.values()) w.reject(e);
        this.waiting.clear();
      });
      this.ports[i] = p;
    }
    return p;
  }

  private send(i: number, req: Omit<SliceRequest, 'id'> | { readonly ping: true }): Promise<WorkerAnswer> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.port(i).post({ ...req, id });
    });
  }

  /** Send a slice; its answer with the time it was taken off the queue (ms since the slice ended). */
  private async sendSlice(i: number, req: Omit<SliceRequest, 'id'>): Promise<{ r: SliceResult; at: number }> {
    const id = this.nextId;
    const r = await this.send(i, req);
    if ('ping' in r) throw new Error('parallel worker answered a slice with a ping');
    const at = this.arrived.get(id) ?? clockMs();
    this.arrived.delete(id);
    return { r, at };
  }

  close(): void {
    for (const p of this.ports) p.terminate();
    this.ports = [];
  }

  /**
   * Run a kernel with its workgroups split over the pool's threads. Falls back to runKernel on
   * this thread (and says why) for a kernel that cannot be split or a grid of one workgroup.
   */
  async run(l: KernelLaunch, opts: RunOptions = {}): Promise<ParallelRun> {
    const co = l.codeObject instanceof Uint8Array ? loadCodeObjectCached(l.codeObject, 'kernel') : l.codeObject;
    const groups = [0, 1, 2].map((i) => Math.ceil(l.grid[i]! / l.block[i]!));
    const total = groups[0]! * groups[1]! * groups[2]!;
    const blocker = this.threads < 2 ? 'one thread' : total < 2 ? 'one workgroup' : parallelBlocker(co, opts, l);
    if (blocker !== null) return { ...runKernel({ ...l, codeObject: co }, opts), parallel: { threads: 1, reason: blocker } };
    return this.split(co, l, opts, total);
  }

  private async split(co: CodeObject, l: KernelLaunch, opts: RunOptions, total: number): Promise<ParallelRun> {
    const kernel = pickKernel(co, l.kernel);
    const md = kernel.metadata;
    if (!md) throw new InputError(`kernel ${kernel.name} has no metadata: cannot lay out its arguments`);
    // GPU memory laid out as runKernel lays it out, in SharedArrayBuffers.
    const tLayout = performance.now();
    const cLayout = this.host.threadCpuMs?.() ?? 0;
    // In this thread's wasm heap when it is a shared memory (engine/wasm/heap.ts): this thread's
    // slice then translates its GLOBAL accesses as runKernel's do (with the segments in arrays of
    // their own, a dispatch the late join kept on this thread ran matmul 256^3 1.1-1.25x slower
    // than `--threads 1`), and the workers map the same bytes.
    const inHeap = (opts.engine ?? 'fast') !== 'interp' && wasmTier.on && heapShared();
    const mem = new Memory({ shared: true, backing: inHeap ? heapBacking() : null });
    const code = loadCode(mem, co);
    const segs = new Map<string, number>();
    for (const b of l.buffers) {
      if (segs.has(b.name)) throw new InputError(`buffers.${b.name}: defined twice`);
      // Shared memory copies an ordinary array into a SharedArrayBuffer, the heap into itself. An
      // array already on a SharedArrayBuffer is used in place where the heap does not take it (no
      // copy: the layout's copies are the serial part of a split run) only when the caller hands it
      // over (`adopt`), as runKernel does; otherwise it is copied first.
      const onSab = b.data.buffer instanceof SharedArrayBuffer;
      const data = onSab && b.adopt !== true ? sharedCopy(b.data) : b.data;
      segs.set(b.name, mem.alloc(Math.max(data.length, 1), b.name, 256, data.length > 0 ? data : undefined).base);
    }
    const explicit = md.args.filter((a) => !a.hidden);
    if (l.args.length !== explicit.length) throw new InputError(`args: kernel ${kernel.name} takes ${explicit.length} arguments, ${l.args.length} given`);
    const values: ArgValue[] = l.args.map((a) => {
      switch (a.kind) {
        case 'buffer': return { kind: 'pointer', va: segs.get(a.name)! };
        case 'local': return { kind: 'local', bytes: a.bytes };
        case 'scalar': return { kind: 'bytes', bytes: scalarBytes(a.type, a.value) };
        case 'struct': return { kind: 'bytes', bytes: structBytes(a.fields) };
        // parallelBlocker keeps launches with images or samplers on one thread.
        case 'image': case 'sampler': throw new InputError(`args: ${a.kind} '${a.name}' needs a one-thread run`);
      }
    });
    const setup = setupLaunch(mem, kernel, values, l.grid, l.block, code.loadBase + kernel.kdAddress);
    const scratchPerLane = kernel.kd.private_segment_fixed_size + (md.uses_dynamic_stack ? 16384 : 0);
    const segments: SharedSegment[] = mem.segments.map((s) => ({ base: s.base, size: s.size, label: s.label, sab: s.u8.buffer as SharedArrayBuffer, offset: s.u8.byteOffset, ...(s.heap !== undefined ? { heap: s.heap } : {}) }));
    const heapMem = inHeap ? heap()!.mem : undefined;
    const threads = Math.min(this.threads, total);
    const coBytes = co.elf.bytes.slice();
    const layoutMs = performance.now() - tLayout;
    const layoutCpuMs = this.host.threadCpuMs ? this.host.threadCpuMs() - cLayout : null;
    const t0 = performance.now();
    const dynamic = this.splitMode === 'dynamic';
    // The shared work counter of the dynamic split: [next workgroup, stop flag].
    const own = this.callerSlice ? 1 : 0;
    const late = own === 1 && dynamic && this.lateJoin;
    // [next workgroup, stop flag, one join flag per slice] (parallel-slice.ts SliceRequest.joinSlot).
    const counter = dynamic ? new SharedArrayBuffer(8 + 4 * threads) : undefined;
    // The instruction budget the dynamic split's slices share (parallel-slice.ts SliceRequest.spent).
    const spent = dynamic ? new SharedArrayBuffer(8) : undefined;
    const chunk = Math.max(1, Math.ceil(total / (threads * this.chunksPerThread)));
    const slice = (t: number): Omit<SliceRequest, 'id'> => {
      const first = dynamic ? 0 : Math.floor((t * total) / threads);
      const end = dynamic ? 0 : Math.floor(((t + 1) * total) / threads);
      return {
        co: coBytes, kernel: kernel.name, segments, ...(heapMem !== undefined ? { heap: heapMem } : {}), grid: [...l.grid], block: [...l.block],
        kernargVa: setup.kernargVa, dynamicLds: setup.dynamicLds, dispatchPacketVa: setup.dispatchPacketVa, queueVa: setup.queueVa,
        scratchPerLane, order: opts.order ?? 'roundrobin', engine: opts.engine ?? 'fast', firstCalls: firstCallsFor(opts.engine), seed: opts.seed ?? 1, maxInstructions: opts.maxInstructions ?? 50_000_000,
        firstGroup: first, groupCount: end - first, ...(counter ? { counter, spent, chunk, threads, ...(late && t > 0 ? { joinSlot: t } : {}) } : {}),
      };
    };
    // Workers first (they start while this thread runs its own slice), results in slice order.
    let postedAt = clockMs();
    let sent: Promise<{ r: SliceResult; at: number }>[] = [];
    const startWorkers = () => {
      postedAt = clockMs();
      sent = Array.from({ length: threads - own }, (_, k) => this.sendSlice(k, slice(k + own)));
    };
    // With the late join, workers not spawned yet are started only once this thread's own progress
    // says the grid will outlast a worker's start-up and warm-up: from DECIDE_AFTER_MS into the
    // grid, after `taken` of `total` groups, the rest would take (total - taken) groups at the best
    // rate of the last windows (LateJoinRule; not since the start, nor from the first chunks: those
    // pay this thread's own warm-up and would overstate the rest). A dispatch that ends sooner
    // spawns nothing (no start-up CPU either); a busy machine (host.cpuTimes, else host.load) needs
    // a longer rest, or starts none.
    let hook: ((taken: number, total: number) => void) | undefined;
    let busy: string | null = null;
    const cpu = this.host.cpuTimes;
    const rule = late && this.ports.length < threads - own ? new LateJoinRule(performance.now(), IDLE_PER_WORKER * (threads - own), this.host.cores, cpu?.()) : undefined;
    if (rule !== undefined) {
      hook = (taken, all) => {
        if (sent.length > 0 || busy !== null || !rule.pays(performance.now(), taken, all, cpu)) return;
        // The load average only where the idle cores were not measured (it lags a minute and counts
        // this thread: at load 1.5-1.7 on 2 cores it kept matmul 512^3 on one thread, 3.9-5.0 s
        // against 2.6-3.3 s on two).
        const load = cpu === undefined ? this.host.load?.() : undefined;
        const workers = threads - own;
        if (load !== undefined && this.host.cores - load < 0.5 * workers) busy = `the machine is busy (load ${load.toFixed(1)} on ${this.host.cores} cores)`;
        else startWorkers();
      };
    } else startWorkers();
    const mine = own === 1 ? runSlice({ ...slice(0), id: 0 }, this.host.threadCpuMs, hook, mem) : null;
    const mineAt = clockMs();
    // Decided per dispatch by the work itself: a worker that had not started when this thread ran
    // out of workgroups (a small grid, a worker still loading its modules in a fresh process) is
    // left out, and this thread does not wait for it; its answer, when it comes, is empty.
    let joined = sent;
    if (late) {
      const flags = new Int32Array(counter!);
      joined = sent.filter((_, k) => Atomics.compareExchange(flags, 2 + k + 1, JOIN.open, JOIN.abandoned) !== JOIN.open);
    }
    const answers = [...(mine ? [{ r: mine, at: mineAt }] : []), ...(await Promise.all(joined))];
    const results = answers.map((a) => a.r);
    const timeMs = performance.now() - t0;
    const stats: DispatchStats = { waves: 0, workgroups: 0, waveInstructions: 0, laneOps: 0, byClass: {}, aborted: false };
    const counts = new Map<string, number>();
    // Each chunk's diagnostics, put back in workgroup order (the order one thread reports them in).
    const pieces: { first: number; list: Diagnostic[] }[] = [];
    for (const r of results) {
      if (!r.ok) throw new Error(`parallel worker failed: ${r.error}`);
      r.chunkDiag.forEach(([first, from], j) => pieces.push({ first, list: r.diagnostics.slice(from, r.chunkDiag[j + 1]?.[1] ?? r.diagnostics.length) }));
      stats.waves += r.stats.waves;
      stats.workgroups += r.stats.workgroups;
      stats.waveInstructions += r.stats.waveInstructions;
      stats.laneOps += r.stats.laneOps;
      stats.aborted ||= r.stats.aborted;
      for (const [k, v] of Object.entries(r.stats.byClass)) stats.byClass[k] = (stats.byClass[k] ?? 0) + v;
      for (const [k, v] of r.counts) counts.set(k, (counts.get(k) ?? 0) + v);
    }
    pieces.sort((a, b) => a.first - b.first);
    // The shared budget ran out: one report, as one thread makes it (a slice still running when
    // another spent the last of it reports its own end too).
    const BUDGET = 'gpusim.instruction-budget';
    const all = pieces.flatMap((p) => p.list);
    const firstBudget = all.findIndex((d) => d.id === BUDGET);
    const diagnostics = all.filter((d, i) => d.id !== BUDGET || i === firstBudget).slice(0, new Diagnostics().limit);
    if (counts.has(BUDGET)) counts.set(BUDGET, 1);
    // The outputs are views of the shared segments (this run's memory is not used again): no copy;
    // copies of those in the heap, whose blocks the release below hands back for reuse (every
    // thread that took part has answered; one left out never touched them).
    const buffers: Record<string, Uint8Array> = {};
    for (const b of l.buffers) {
      const s = mem.find(segs.get(b.name)!, 1)!;
      buffers[b.name] = s.heap !== undefined ? s.u8.slice(0, b.data.length) : s.u8.subarray(0, b.data.length);
    }
    mem.release();
    const report: RunReport = {
      kernel: kernel.name, target: co.target.mcpu, waveSize: kernel.kd.derived.waveSize, grid: [...l.grid], block: [...l.block],
      order: opts.order ?? 'roundrobin', seed: opts.seed ?? 1, waves: stats.waves, workgroups: stats.workgroups,
      waveInstructions: stats.waveInstructions, laneOperations: stats.laneOps,
      byClass: Object.fromEntries(Object.entries(stats.byClass).sort()), timeMs: Math.round(timeMs * 1000) / 1000,
      aborted: stats.aborted, ldsBytes: kernel.kd.group_segment_fixed_size + setup.dynamicLds, scratchPerLane,
      diagnostics: diagnostics.map(diagnosticRecord),
      diagnosticCounts: Object.fromEntries([...counts.entries()].sort()),
    };
    const slices = answers.map(({ r, at }) => {
      const t = r.ok ? r.timing : null;
      return t === null ? null : { ...t, latencyMs: t.startAt - postedAt, waitMs: at - t.endAt };
    }).filter((x) => x !== null);
    // Threads that took part (workers left out by the late join did not).
    const used = sent.length === 0 ? 1 : threads - (sent.length - joined.length);
    const short = rule?.short;
    const noWorker = short !== undefined
      ? `too few idle cores for a worker to pay (${short.toFixed(1)} idle of ${this.host.cores})`
      : 'the grid ran out before starting a worker would pay (a small dispatch)';
    const lateReason = used < threads ? { reason: busy !== null ? busy : sent.length === 0 ? noWorker : `the other thread${threads > 2 ? 's' : ''} started after the grid was taken (a small dispatch)` } : {};
    return { report, buffers, strictStop: undefined, parallel: { threads: used, ...lateReason, sliceMs: results.map((r) => (r.ok ? Math.round(r.ms) : 0)), layoutMs, layoutCpuMs, slices } };
  }
}

function sharedCopy(a: Uint8Array): Uint8Array {
  const c = new Uint8Array(new SharedArrayBuffer(a.length));
  c.set(a);
  return c;
}

function pickKernel(co: CodeObject, name: string | undefined): CodeObjectKernel {
  const k = name === undefined ? (co.kernels.length === 1 ? co.kernels[0] : undefined) : co.kernels.find((x) => x.name === name);
  if (!k) throw new InputError(`kernel: ${name === undefined ? 'name one of' : `no kernel '${name}' in`} ${co.kernels.map((x) => x.name).join(', ')}`);
  return k;
}
