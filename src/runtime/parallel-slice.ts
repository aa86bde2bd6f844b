/**
 * The worker side of a parallel run (parallel.ts): the messages, and `runSlice`, which runs one
 * thread's share of a grid. Kept apart from the pool so a worker loads only the execution core
 * (dispatch, the executable targets' tables, the code-object reader) and not run.ts's assembler, targets and
 * manifest readers: that was a quarter of a worker's start-up CPU (bench/README, "All cores:
 * methodology and load balance"). Nothing here touches a Node API.
 */
import { Memory } from '../core/memory.js';
import { Diagnostics, type Diagnostic } from '../core/diagnostics.js';
import { loadCodeObjectCached } from '../formats/amdgpu/codeobject.js';
import { executableTarget } from '../amd/target/executable.js';
import { bytesToWords } from '../amd/isa/listing.js';
import { CODE_BASE, dispatch, type DispatchStats, type LoadedCode } from './dispatch.js';
import { adoptHeap, heapBacking, heapBuffer } from '../amd/engine/wasm/heap.js';
import { wasmTier } from '../amd/engine/wasm/tier.js';
import { memStats } from '../amd/engine/wasm/global.js';
import type { WasmMemory } from '../amd/engine/wasm/api.js';

// ---- messages ------------------------------------------------------------------------------------

/** A message to a worker: a slice to run, or a ping (answered once the worker has loaded). */
export type WorkerRequest = SliceRequest | PingRequest;
export interface PingRequest {
  readonly id: number;
  readonly ping: true;
}
/** A worker's answer to a ping: when it finished loading its modules and the CPU its thread used so far. */
export interface PingResult {
  readonly id: number;
  readonly ok: true;
  readonly ping: true;
  /** performance.timeOrigin + performance.now() when the worker's modules had loaded. */
  readonly loadedAt: number;
  readonly cpuMs: number | null;
}
export type WorkerAnswer = SliceResult | PingResult;

/** A GPU memory segment as the workers see it. */
export interface SharedSegment {
  readonly base: number;
  readonly size: number;
  readonly label: string;
  readonly sab: SharedArrayBuffer;
  readonly offset: number;
  /** The byte offset of the bytes in the calling thread's wasm heap (SliceRequest.heap), when they are there. */
  readonly heap?: number;
}

export interface SliceRequest {
  readonly id: number;
  readonly co: Uint8Array;
  readonly kernel: string;
  readonly segments: readonly SharedSegment[];
  /**
   * The calling thread's wasm heap (engine/wasm/heap.ts), when segments are in it: a worker that
   * adopts it maps those segments where they are, so its translated accesses reach them.
   */
  readonly heap?: WasmMemory;
  readonly grid: [number, number, number];
  readonly block: [number, number, number];
  readonly kernargVa: number;
  readonly dynamicLds: number;
  readonly dispatchPacketVa: number;
  readonly queueVa: number;
  readonly scratchPerLane: number;
  readonly order: 'roundrobin' | 'random';
  readonly engine: 'fast' | 'interp';
  /** DispatchConfig.firstCalls (runKernel's rule: the engine left out). */
  readonly firstCalls: number;
  readonly seed: number;
  readonly maxInstructions: number;
  /** A fixed range of workgroups; with `counter` both are 0 and the ranges come from it. */
  readonly firstGroup: number;
  readonly groupCount: number;
  /**
   * The shared work counter: Int32Array [next workgroup, stop flag]. The slice takes `chunk`
   * groups at a time until `next` passes the grid; an aborted slice raises the stop flag, and the
   * others take no further chunk (one thread stops the whole run there too).
   */
  readonly counter?: SharedArrayBuffer;
  /** The largest chunk, and the threads sharing the counter (chunks shrink as the grid runs out). */
  readonly chunk?: number;
  readonly threads?: number;
  /**
   * This slice's join flag in the counter (Int32Array index `2 + joinSlot`): a slice that may start
   * late (a worker still loading its modules) takes work only if it sets the flag 0 -> 1 first;
   * the caller, once the grid is taken, sets every flag still 0 to 2 and does not wait for those
   * slices (parallel.ts: a small dispatch is not held up by a worker's start-up).
   */
  readonly joinSlot?: number;
  /**
   * The wave-instructions the slices have issued so far (BigInt64Array [count]): with `counter`,
   * maxInstructions is the whole split's budget, not each slice's (dispatch.ts budgetShare).
   */
  readonly spent?: SharedArrayBuffer;
}

/** Join flags of the shared counter (see SliceRequest.joinSlot). */
export const JOIN = { open: 0, joined: 1, abandoned: 2 } as const;

/** Where a slice's time went (wall ms; thread CPU ms when the host can read it, else null). */
export interface SliceTiming {
  /** Workgroups and chunks this slice ran. */
  readonly groups: number;
  readonly chunks: number;
  /** performance.timeOrigin-based ms when the slice started and ended (to measure message latency). */
  readonly startAt: number;
  readonly endAt: number;
  /** Code-object parse and memory mapping. */
  readonly loadMs: number;
  readonly loadCpuMs: number | null;
  /** dispatch: decode, block compilation and execution. */
  readonly runMs: number;
  readonly runCpuMs: number | null;
  /** GLOBAL accesses completed in translated code (engine/wasm/global.ts): 0 when the segments were outside this thread's heap. */
  readonly wasmGlobal: number;
}

export type SliceResult =
  | {
    readonly id: number; readonly ok: true; readonly stats: DispatchStats; readonly diagnostics: Diagnostic[]; readonly counts: [string, number][];
    /** [first workgroup, index of its first diagnostic in `diagnostics`] of each chunk, in the order run. */
    readonly chunkDiag: [number, number][];
    readonly ms: number; readonly timing: SliceTiming;
  }
  | { readonly id: number; readonly ok: false; readonly error: string };

// ---- the worker side -----------------------------------------------------------------------------

/** epoch-like ms comparable between threads (each thread's performance.now has its own origin). */
export function clockMs(): number {
  return performance.timeOrigin + performance.now();
}

/** When this module finished loading (a worker has loaded everything it needs by then). */
const loadedAt = clockMs();

/** A worker's answer to each message: run the slice, or answer the ping. */
export function answer(req: WorkerRequest, cpuMs?: () => number): WorkerAnswer {
  if ('ping' in req) return { id: req.id, ok: true, ping: true, loadedAt, cpuMs: cpuMs ? cpuMs() : null };
  return runSlice(req, cpuMs);
}

/**
 * Run one slice of workgroups (what a worker does with each message). `onChunk` (the caller's own
 * slice) is told, before each chunk is taken, how many workgroups of `total` are taken so far;
 * `own` (the caller's own slice) is the Memory the request's segments were laid out in.
 */
export function runSlice(req: SliceRequest, cpuMs?: () => number, onChunk?: (taken: number, total: number) => void, own?: Memory): SliceResult {
  try {
    const startAt = clockMs();
    const c0 = cpuMs ? cpuMs() : 0;
    if (req.counter !== undefined && req.joinSlot !== undefined
      && Atomics.compareExchange(new Int32Array(req.counter), 2 + req.joinSlot, JOIN.open, JOIN.joined) !== JOIN.open) {
      // The caller finished the grid before this slice started: nothing to do, nobody waits.
      const timing: SliceTiming = { groups: 0, chunks: 0, startAt, endAt: clockMs(), loadMs: 0, loadCpuMs: null, runMs: 0, runCpuMs: null, wasmGlobal: 0 };
      return { id: req.id, ok: true, stats: { waves: 0, workgroups: 0, waveInstructions: 0, laneOps: 0, byClass: {}, aborted: false }, diagnostics: [], counts: [], chunkDiag: [], ms: 0, timing };
    }
    const co = loadCodeObjectCached(req.co, 'kernel');
    const kernel = co.kernels.find((k) => k.name === req.kernel);
    if (!kernel || !co.text) throw new Error(`no kernel ${req.kernel}`);
    // The code object's own instruction set, as runKernel picks it (gfx1030/gfx900 words are not gfx11's).
    const target = executableTarget(co.target.mcpu);
    if (!target) throw new Error(`no executable target for ${co.target.mcpu}`);
    // The caller's own slice runs on the split's Memory itself (its segments may be in this
    // thread's wasm heap, where translated accesses reach them); a worker maps the same bytes.
    const mem = own ?? sliceMemory(req);
    const code: LoadedCode = { co, loadBase: CODE_BASE, textVa: CODE_BASE + co.text.address, words: bytesToWords(co.text.bytes) };
    const diag = new Diagnostics();
    mem.onFault = (f) => {
      diag.report({ id: 'gpusim.memory.unmapped', severity: 'warning', where: { va: '0x' + f.va.toString(16), bytes: f.size }, message: `${f.write ? 'write' : 'read'} of ${f.size} bytes at unmapped 0x${f.va.toString(16)} (${f.write ? 'dropped' : 'reads 0'})` });
    };
    const t0 = performance.now();
    const c1 = cpuMs ? cpuMs() : 0;
    // Chunks from the shared counter: [first group, first diagnostic] of each, for the report's order.
    const chunkDiag: [number, number][] = [];
    let groups = 0;
    const total = req.grid.map((g, i) => Math.ceil(g / req.block[i]!)).reduce((a, b) => a * b, 1);
    const ctr = req.counter ? new Int32Array(req.counter) : null;
    const chunk = Math.max(1, req.chunk ?? 1);
    // Guided: a chunk is the remaining groups over twice the threads, between chunk/8 and chunk,
    // so the last chunks are small and the threads finish close together (a fixed chunk left the
    // caller waiting up to one chunk's time for the worker at the end).
    const sharers = Math.max(1, req.threads ?? 1);
    const least = Math.max(1, chunk >> 3);
    // Slow start: a slice's first chunk is the least one and each next may be twice the last, so a
    // thread that starts cold (its blocks not yet compiled, V8 not yet optimising them) does not
    // take a large share of the grid at its slowest and leave the others waiting at the end.
    let cap = least;
    const moreGroups = ctr === null ? undefined : (): readonly [number, number] | null => {
      onChunk?.(Atomics.load(ctr, 0), total);
      for (;;) {
        if (Atomics.load(ctr, 1) !== 0) return null;
        const first = Atomics.load(ctr, 0);
        if (first >= total) return null;
        const n = Math.min(total - first, chunk, cap, Math.max(least, Math.ceil((total - first) / (2 * sharers))));
        if (Atomics.compareExchange(ctr, 0, first, first + n) !== first) continue;
        cap = Math.min(chunk, cap * 2);
        chunkDiag.push([first, diag.list.length]);
        groups += n;
        return [first, n];
      }
    };
    const g0 = memStats.global;
    // The budget the slices share: each chunk first adds what this slice issued since the last one.
    const spent = req.spent !== undefined && ctr !== null ? new BigInt64Array(req.spent) : null;
    let reported = 0;
    const budgetShare = spent === null ? undefined : (executed: number): number => {
      const total = Number(Atomics.add(spent, 0, BigInt(executed - reported))) + executed - reported;
      reported = executed;
      return executed + Math.max(0, req.maxInstructions - total);
    };
    const stats = dispatch(target, code, kernel, mem, diag, {
      grid: req.grid, block: req.block, kernargVa: req.kernargVa, dynamicLds: req.dynamicLds, order: req.order, engine: req.engine, firstCalls: req.firstCalls, seed: req.seed,
      maxInstructions: req.maxInstructions, dispatchPacketVa: req.dispatchPacketVa, queueVa: req.queueVa,
      scratchPerLane: req.scratchPerLane, firstGroup: req.firstGroup, groupCount: req.groupCount,
      ...(moreGroups ? { moreGroups } : {}), ...(budgetShare ? { budgetShare } : {}),
    });
    if (own === undefined) mem.release();
    if (ctr !== null && stats.aborted) Atomics.store(ctr, 1, 1);
    if (ctr === null) {
      chunkDiag.push([req.firstGroup, 0]);
      groups = req.groupCount;
    }
    const ms = performance.now() - t0;
    const c2 = cpuMs ? cpuMs() : 0;
    const timing: SliceTiming = {
      groups, chunks: chunkDiag.length, startAt, endAt: clockMs(),
      loadMs: t0 - (startAt - performance.timeOrigin), loadCpuMs: cpuMs ? c1 - c0 : null, runMs: ms, runCpuMs: cpuMs ? c2 - c1 : null,
      wasmGlobal: memStats.global - g0,
    };
    return { id: req.id, ok: true, stats, diagnostics: diag.list, counts: [...diag.counts.entries()], chunkDiag, ms, timing };
  } catch (e) {
    return { id: req.id, ok: false, error: (e as Error).stack ?? String(e) };
  }
}

/**
 * A worker's Memory of the request's segments: views of the shared bytes, those in the calling
 * thread's heap mapped where they are once this thread has adopted that heap (else the segments
 * are outside this thread's heap and translated accesses hand them back).
 */
function sliceMemory(req: SliceRequest): Memory {
  const adopted = req.heap !== undefined && wasmTier.on && adoptHeap(req.heap);
  const views = new WeakMap<Uint8Array, number>();
  const mem = new Memory({ shared: true, backing: adopted ? heapBacking(views) : null });
  for (const s of req.segments) {
    const inHeap = adopted && s.heap !== undefined;
    const u8 = inHeap ? new Uint8Array(heapBuffer(), s.heap, s.size) : new Uint8Array(s.sab, s.offset, s.size);
    if (inHeap) views.set(u8, s.heap!);
    mem.map(s.base, s.size, s.label, u8);
  }
  return mem;
}
