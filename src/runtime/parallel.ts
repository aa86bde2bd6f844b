/**
 * All cores: a kernel's workgroups spread over worker threads that share GPU memory.
 *
 * The main thread lays out GPU memory as runKernel does (code, buffers, kernarg, queue, dispatch
 * packet) in a `shared` Memory, whose segments are SharedArrayBuffers. Each worker maps the same
 * segments at the same addresses and runs a contiguous slice of the grid's workgroups through the
 * ordinary dispatch (DispatchConfig.firstGroup/groupCount), with its own decode cache, LDS and
 * scratch. Workgroups of a race-free kernel touch disjoint output bytes, so the result is the
 * same bytes as one thread and as any `--order random` run.
 *
 * Global/flat/buffer atomics are compare-exchange loops on the shared segments (vmem.ts
 * memAtomic32/64), so kernels with atomics split too: integer atomics without return give the
 * same bytes as one thread (their result does not depend on the order); returned values and
 * float atomics depend on the interleaving, as they do under `--order random`.
 * Traces, trap handlers and --strict run on one thread.
 *
 * Threads come from a `WorkerHost`: parallel-node.ts (worker_threads) in Node; a browser build
 * gives one made of Web Workers whose script calls `runSlice` on each message. Nothing here
 * touches a Node API.
 */
import { Memory } from '../core/memory.js';
import { Diagnostics, type Diagnostic } from '../core/diagnostics.js';
import { InputError } from '../core/errors.js';
import { loadCodeObject, type CodeObject, type CodeObjectKernel } from '../formats/amdgpu/codeobject.js';
import { gfx11 } from '../amd/isa/gfx11/index.js';
import { bytesToWords } from '../amd/isa/listing.js';
import { CODE_BASE, dispatch, loadCode, type DispatchStats, type LoadedCode } from './dispatch.js';
import { setupLaunch, type ArgValue } from './hsa.js';
import { scalarBytes, structBytes } from './manifest.js';
import { runKernel, type KernelLaunch, type KernelRun, type RunOptions, type RunReport } from './run.js';

// ---- the thread abstraction ----------------------------------------------------------------------

/** One worker: messages are structured-cloned; SharedArrayBuffers in them are shared, not copied. */
export interface WorkerPort {
  post(msg: SliceRequest): void;
  onMessage(cb: (msg: SliceResult) => void): void;
  onError(cb: (e: Error) => void): void;
  terminate(): void;
}

export interface WorkerHost {
  /** Hardware threads available (the default thread count). */
  readonly cores: number;
  spawn(): WorkerPort;
}

/** A GPU memory segment as the workers see it. */
export interface SharedSegment {
  readonly base: number;
  readonly size: number;
  readonly label: string;
  readonly sab: SharedArrayBuffer;
  readonly offset: number;
}

export interface SliceRequest {
  readonly id: number;
  readonly co: Uint8Array;
  readonly kernel: string;
  readonly segments: readonly SharedSegment[];
  readonly grid: [number, number, number];
  readonly block: [number, number, number];
  readonly kernargVa: number;
  readonly dynamicLds: number;
  readonly dispatchPacketVa: number;
  readonly queueVa: number;
  readonly scratchPerLane: number;
  readonly order: 'roundrobin' | 'random';
  readonly engine: 'fast' | 'interp';
  readonly seed: number;
  readonly maxInstructions: number;
  readonly firstGroup: number;
  readonly groupCount: number;
}

export type SliceResult =
  | { readonly id: number; readonly ok: true; readonly stats: DispatchStats; readonly diagnostics: Diagnostic[]; readonly counts: [string, number][]; readonly ms: number }
  | { readonly id: number; readonly ok: false; readonly error: string };

// ---- the worker side -----------------------------------------------------------------------------

/** Run one slice of workgroups (what a worker does with each message). */
export function runSlice(req: SliceRequest): SliceResult {
  try {
    const co = loadCodeObject(req.co, 'kernel');
    const kernel = co.kernels.find((k) => k.name === req.kernel);
    if (!kernel || !co.text) throw new Error(`no kernel ${req.kernel}`);
    const mem = new Memory();
    for (const s of req.segments) mem.map(s.base, s.size, s.label, new Uint8Array(s.sab, s.offset, s.size));
    const code: LoadedCode = { co, loadBase: CODE_BASE, textVa: CODE_BASE + co.text.address, words: bytesToWords(co.text.bytes) };
    const diag = new Diagnostics();
    mem.onFault = (f) => {
      diag.report({ id: 'gpusim.memory.unmapped', severity: 'warning', where: { va: '0x' + f.va.toString(16), bytes: f.size }, message: `${f.write ? 'write' : 'read'} of ${f.size} bytes at unmapped 0x${f.va.toString(16)} (${f.write ? 'dropped' : 'reads 0'})` });
    };
    const t0 = performance.now();
    const stats = dispatch(gfx11, code, kernel, mem, diag, {
      grid: req.grid, block: req.block, kernargVa: req.kernargVa, dynamicLds: req.dynamicLds, order: req.order, engine: req.engine, seed: req.seed,
      maxInstructions: req.maxInstructions, dispatchPacketVa: req.dispatchPacketVa, queueVa: req.queueVa,
      scratchPerLane: req.scratchPerLane, firstGroup: req.firstGroup, groupCount: req.groupCount,
    });
    return { id: req.id, ok: true, stats, diagnostics: diag.list, counts: [...diag.counts.entries()], ms: performance.now() - t0 };
  } catch (e) {
    return { id: req.id, ok: false, error: (e as Error).stack ?? String(e) };
  }
}

// ---- the main side -------------------------------------------------------------------------------

/** Why a kernel cannot be split over threads, or null. */
export function parallelBlocker(co: CodeObject, opts: RunOptions, l: KernelLaunch): string | null {
  if (opts.trace || opts.onInstruction) return 'tracing';
  if (opts.strict) return '--strict';
  if (l.trapHandler) return 'a trap handler';
  if (!co.text) return 'no .text';
  return null;
}

export interface ParallelRun extends KernelRun {
  /** Threads used, why only one, and each slice's wall milliseconds in its worker (load balance). */
  readonly parallel: { readonly threads: number; readonly reason?: string; readonly sliceMs?: readonly number[] };
}

/** A set of workers kept across runs (spawning costs tens of milliseconds each). */
export class ParallelPool {
  private readonly host: WorkerHost;
  readonly threads: number;
  private ports: WorkerPort[] = [];
  private waiting = new Map<number, { resolve: (r: SliceResult) => void; reject: (e: Error) => void }>();
  private nextId = 1;

  /**
   * The calling thread runs the first slice itself while the workers run the others (so `threads`
   * counts it and the pool spawns one worker fewer). It is warm (it decoded and ran kernels
   * before) and nothing waits on a message for its slice; a thread that must stay responsive
   * (a browser page) leaves this off.
   */
  readonly callerSlice: boolean;

  constructor(host: WorkerHost, threads = host.cores, opts: { readonly callerSlice?: boolean } = {}) {
    this.host = host;
    this.threads = Math.max(1, threads);
    this.callerSlice = opts.callerSlice ?? false;
  }

  private port(i: number): WorkerPort {
    let p = this.ports[i];
    if (!p) {
      p = this.host.spawn();
      p.onMessage((r) => {
        const w = this.waiting.get(r.id);
        if (w) {
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

  private send(i: number, req: Omit<SliceRequest, 'id'>): Promise<SliceResult> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.port(i).post({ ...req, id });
    });
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
    const co = l.codeObject instanceof Uint8Array ? loadCodeObject(l.codeObject, 'kernel') : l.codeObject;
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
    const mem = new Memory({ shared: true });
    const code = loadCode(mem, co);
    const segs = new Map<string, number>();
    for (const b of l.buffers) {
      if (segs.has(b.name)) throw new InputError(`buffers.${b.name}: defined twice`);
      segs.set(b.name, mem.alloc(Math.max(b.data.length, 1), b.name, 256, b.data.length > 0 ? b.data : undefined).base);
    }
    const explicit = md.args.filter((a) => !a.hidden);
    if (l.args.length !== explicit.length) throw new InputError(`args: kernel ${kernel.name} takes ${explicit.length} arguments, ${l.args.length} given`);
    const values: ArgValue[] = l.args.map((a) => {
      switch (a.kind) {
        case 'buffer': return { kind: 'pointer', va: segs.get(a.name)! };
        case 'local': return { kind: 'local', bytes: a.bytes };
        case 'scalar': return { kind: 'bytes', bytes: scalarBytes(a.type, a.value) };
        case 'struct': return { kind: 'bytes', bytes: structBytes(a.fields) };
      }
    });
    const setup = setupLaunch(mem, kernel, values, l.grid, l.block, code.loadBase + kernel.kdAddress);
    const scratchPerLane = kernel.kd.private_segment_fixed_size + (md.uses_dynamic_stack ? 16384 : 0);
    const segments: SharedSegment[] = mem.segments.map((s) => ({ base: s.base, size: s.size, label: s.label, sab: s.u8.buffer as SharedArrayBuffer, offset: s.u8.byteOffset }));
    const threads = Math.min(this.threads, total);
    const coBytes = co.elf.bytes.slice();
    const t0 = performance.now();
    const slice = (t: number): Omit<SliceRequest, 'id'> => {
      const first = Math.floor((t * total) / threads);
      const end = Math.floor(((t + 1) * total) / threads);
      return {
        co: coBytes, kernel: kernel.name, segments, grid: [...l.grid], block: [...l.block],
        kernargVa: setup.kernargVa, dynamicLds: setup.dynamicLds, dispatchPacketVa: setup.dispatchPacketVa, queueVa: setup.queueVa,
        scratchPerLane, order: opts.order ?? 'roundrobin', engine: opts.engine ?? 'fast', seed: opts.seed ?? 1, maxInstructions: opts.maxInstructions ?? 50_000_000,
        firstGroup: first, groupCount: end - first,
      };
    };
    // Workers first (they start while this thread runs its own slice), results in slice order.
    const own = this.callerSlice ? 1 : 0;
    const sent = Array.from({ length: threads - own }, (_, k) => this.send(k, slice(k + own)));
    const mine = own === 1 ? runSlice({ ...slice(0), id: 0 }) : null;
    const results = [...(mine ? [mine] : []), ...(await Promise.all(sent))];
    const timeMs = performance.now() - t0;
    const stats: DispatchStats = { waves: 0, workgroups: 0, waveInstructions: 0, laneOps: 0, byClass: {}, aborted: false };
    const diagnostics: Diagnostic[] = [];
    const counts = new Map<string, number>();
    for (const r of results) {
      if (!r.ok) throw new Error(`parallel worker failed: ${r.error}`);
      stats.waves += r.stats.waves;
      stats.workgroups += r.stats.workgroups;
      stats.waveInstructions += r.stats.waveInstructions;
      stats.laneOps += r.stats.laneOps;
      stats.aborted ||= r.stats.aborted;
      for (const [k, v] of Object.entries(r.stats.byClass)) stats.byClass[k] = (stats.byClass[k] ?? 0) + v;
      diagnostics.push(...r.diagnostics);
      for (const [k, v] of r.counts) counts.set(k, (counts.get(k) ?? 0) + v);
    }
    // The outputs are views of the shared segments (this run's memory is not used again): no copy.
    const buffers: Record<string, Uint8Array> = {};
    for (const b of l.buffers) {
      const s = mem.find(segs.get(b.name)!, 1)!;
      buffers[b.name] = s.u8.subarray(0, b.data.length);
    }
    const report: RunReport = {
      kernel: kernel.name, target: co.target.mcpu, waveSize: kernel.kd.derived.waveSize, grid: [...l.grid], block: [...l.block],
      order: opts.order ?? 'roundrobin', seed: opts.seed ?? 1, waves: stats.waves, workgroups: stats.workgroups,
      waveInstructions: stats.waveInstructions, laneOperations: stats.laneOps,
      byClass: Object.fromEntries(Object.entries(stats.byClass).sort()), timeMs: Math.round(timeMs * 1000) / 1000,
      aborted: stats.aborted, ldsBytes: kernel.kd.group_segment_fixed_size + setup.dynamicLds, scratchPerLane,
      diagnostics: diagnostics.map((d) => ({ id: d.id, severity: d.severity, where: d.where, message: d.message, ...(d.seed ? { seed: d.seed } : {}) })),
      diagnosticCounts: Object.fromEntries([...counts.entries()].sort()),
    };
    return { report, buffers, strictStop: undefined, parallel: { threads, sliceMs: results.map((r) => (r.ok ? Math.round(r.ms) : 0)) } };
  }
}

function pickKernel(co: CodeObject, name: string | undefined): CodeObjectKernel {
  const k = name === undefined ? (co.kernels.length === 1 ? co.kernels[0] : undefined) : co.kernels.find((x) => x.name === name);
  if (!k) throw new InputError(`kernel: ${name === undefined ? 'name one of' : `no kernel '${name}' in`} ${co.kernels.map((x) => x.name).join(', ')}`);
  return k;
}
