/**
 * The wasm tier's hook into basic blocks (block.ts): a straight run of VALU ops, GLOBAL and DS
 * dword accesses, scalar loads, SALU ops and waits the translator takes (valu.ts, global.ts,
 * lds.ts, smem.ts, salu.ts), up to a whole block, becomes one call of a WebAssembly function
 * instead of inlined JavaScript, when the run has an f32 op whose lanes run two at a time (simd.ts:
 * f64x2, for a row with EXEC all ones), a memory access or two lane ops. It is on by default
 * where WebAssembly shared memories exist (docs/speed.md, "WebAssembly tier"); GPUSIM_WASM=0 in
 * the environment, or `setWasmTier(false)`, turns it off for waves created from then on (their
 * register blocks must live in the heap: heap.ts; a Memory's segments too, for its accesses to be
 * translated). A wave whose registers are not in the heap, and every op the translated code hands back, runs through
 * the ops' JavaScript handlers, so results are those of the fast tier, i.e. the reference
 * interpreter's, bit for bit (test/amd/engine-wasm.test.ts, engine-wasm-global.test.ts).
 */
import type { Op } from '../types.js';
import type { Wave } from '../../wave/wave.js';
import type { Clock } from '../block-types.js';
import type { WaitcntSanitizer } from '../waitcnt.js';
import { heap, heapAvailable, sccSlot, useHeap } from './heap.js';
import { hasHotCode, translateRun, wasmOp, type WOp } from './valu.js';
import { wasmBack } from './branch.js';
import { memStats } from './global.js';
import { Wasm, type WasmModule } from './api.js';
import { CNT_MAX } from '../../exec/vmem.js';
import { waitcntLimits } from '../../exec/flow.js';

const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env;

/**
 * `on`: whether blocks built from now on call translated runs (and new waves get heap registers);
 * `runs`: runs taken (each translated and compiled at its first call), `modules`: distinct modules
 * compiled, `calls`: calls of translated code (by waves in the heap) in this thread, `resumed` those
 * entering a run past its first op (a wave whose last turn was cut inside it), `cut` those stopping
 * before its end, `salu` SALU ops in the runs taken (salu.ts), `hot` runs translated again as hot
 * runs (hotRun), `trips` back branches a loop run took itself (branch.ts), `translations` runs
 * translated to bytes (not taken from the block cache: block.ts setBlockStore).
 */
export const wasmTier = { on: env?.['GPUSIM_WASM'] !== '0' && heapAvailable(), runs: 0, modules: 0, calls: 0, resumed: 0, cut: 0, salu: 0, hot: 0, trips: 0, translations: 0 };
if (wasmTier.on) useHeap(true);

export function setWasmTier(on: boolean): void {
  wasmTier.on = on && heapAvailable();
  useHeap(wasmTier.on);
}

/**
 * Longest translated run (its `done` count is returned in 8 bits): a whole block (block.ts
 * MAX_OPS). Each call from a block that V8 has not optimised yet goes through its generic
 * JavaScript-to-wasm wrapper; at 32, conv2d's 41-48-op blocks were two calls each.
 */
const MAX_RUN = 48;

type Runner = (w: Wave, start: number, limit: number) => number;

/**
 * `calls`: calls after which a run is translated again as a hot run (valu.ts translateRun `hot`):
 * integer ops four lanes at a time (simd-int.ts), GLOBAL and DS lanes tested four at a time
 * (global.ts testRows). Its first translation takes them lane by lane: in a fresh conv2d 256x256
 * (each straight run called once per wave) the SIMD code doubled translating (16 -> 34 ms) and
 * cost more wasm time in Liftoff than it saved; a loop body run for every trip (matmul: ~500 K
 * trips) gets the hot code after its first few thousand (a trip taken inside a call counts as a
 * call: branch.ts). 0: at once (tests).
 */
export const hotRun = { calls: 4096 };

/** Compiled modules by their bytes (identical runs anywhere in the process share one). */
const modules = new Map<string, WasmModule>();

type NodeBuffer = { from(a: ArrayBufferLike, off: number, len: number): { toString(enc: 'latin1'): string } };

/**
 * A module's bytes as a one-byte string, its key in `modules`: Node's Buffer copies them (~10 us
 * for a 14 KB run); elsewhere TextDecoder's windows-1252, one code point per byte value. Spread
 * into String.fromCharCode, a fresh matmul_tiled dispatch spent ~13 ms making its keys.
 */
export function makeBytesKey(B: NodeBuffer | undefined): (b: Uint8Array) => string {
  if (B !== undefined) return (b) => B.from(b.buffer, b.byteOffset, b.byteLength).toString('latin1');
  const td = new TextDecoder('windows-1252');
  return (b) => td.decode(b);
}
const bytesKey = makeBytesKey((globalThis as { Buffer?: NodeBuffer }).Buffer);

function moduleOf(bytes: Uint8Array): WasmModule {
  const key = bytesKey(bytes);
  let mod = modules.get(key);
  if (mod === undefined) {
    mod = new Wasm.Module(bytes);
    modules.set(key, mod);
    wasmTier.modules++;
  }
  return mod;
}

/**
 * The bytes of a run's translations made so far (cold: lane by lane; hot: see hotRun), shared
 * between its runner and the block cache's record of it (block.ts): a run restored from the cache
 * takes them instead of translating again.
 */
export interface RunBytes {
  cold?: Uint8Array;
  hot?: Uint8Array;
}

/**
 * The caller of a translated run, instantiated on first use. The run is translated and
 * its module compiled at its first call, not when its block's source is made: a block that is
 * built but never runs compiled (a straight block stepped op by op in a short dispatch, tier.ts)
 * costs no translation (conv2d 256x256's fresh dispatch spent about half of its block building
 * there).
 */
function lazyRunner(src: RunnerDesc, runOps: () => readonly WOp[], ws: 32 | 64): Runner {
  let f: ((off: number, table: number, start: number, limit: number, lds: number, ldsSize: number) => number) | null = null;
  const n = src.n;
  // SCC in the thread's slot while the run's SALU ops run (salu.ts): the wave's copied in, and back
  // out for what follows (handed-back ops, the block's branch).
  const salu = src.salu;
  let scc: Int32Array | null = null;
  // Translated as a hot run already (or its code would be the same, or an earlier process found
  // the run hot: the block cache has its hot bytes), and the calls so far (a loop run's trips
  // each count as one).
  let isHot = !src.hasHot || src.bytes.hot !== undefined;
  let calls = 0;
  const make = (hot: boolean) => {
    const b = src.bytes;
    let bytes = hot ? b.hot : b.cold;
    if (bytes === undefined) {
      bytes = translateRun(runOps(), ws, hot);
      wasmTier.translations++;
      if (hot) b.hot = bytes;
      else b.cold = bytes;
    }
    const inst = new Wasm.Instance(moduleOf(bytes), { m: { mem: heap()!.mem } });
    return inst.exports['run'] as (off: number, table: number, start: number, limit: number, lds: number, ldsSize: number) => number;
  };
  return (w: Wave, start: number, limit: number): number => {
    if (!w.regInHeap) return start;
    wasmTier.calls++;
    if (start > 0) wasmTier.resumed++;
    if (limit < n) wasmTier.cut++;
    if (f === null || (!isHot && calls >= hotRun.calls)) {
      // The first translation and the hot one at one call site: V8 optimised this closure with
      // feedback from first calls only, and a second site first reached then (a hot run's
      // re-translation, mid-dispatch) deoptimised it ("insufficient type feedback for call").
      const first = f === null;
      if (!first || hotRun.calls <= 0) isHot = true;
      wasmTier.hot += first ? 0 : 1;
      f = make(isHot);
      if (first && salu) scc = new Int32Array(heap()!.mem.buffer, sccSlot(), 1);
    }
    let q: number;
    if (scc === null) q = f(w.regOff, w.mem.table, start, limit, w.ldsAt, w.lds.length);
    else {
      scc[0] = w.scc;
      q = f(w.regOff, w.mem.table, start, limit, w.ldsAt, w.lds.length);
      w.scc = scc[0]!;
    }
    // A loop run's further trips (its result's: valu.ts translateRun) count as calls.
    const t = (q >>> 8) & 255;
    wasmTier.trips += t;
    if (!isHot) calls += 1 + t;
    return q;
  };
}

/**
 * Ops [from, to) of a block run through their handlers, as the block's op-by-op code runs them:
 * the sanitizer's step first (from op `stepFrom` on: the ones before are in a quiet prefix the
 * block skips), then the handler with w.pc at the next op and the clock at the op. Returns `to`, or
 * -(i + 1) when op i's handler stopped the wave or moved its PC.
 */
function rest(w: Wave, clk: Clock, t0: number, ops: readonly Op[], pcs: readonly number[], from: number, to: number, wc: WaitcntSanitizer | null, stepFrom: number): number {
  for (let i = from; i < to; i++) {
    const op = ops[i]!;
    if (wc !== null && i >= stepFrom) {
      w.pc = pcs[i]!;
      wc.step(w, op);
    }
    const next = pcs[i]! + op.size;
    w.pc = next;
    clk.t = t0 + i;
    op.run(w);
    // A handler that stopped the wave or moved its PC (a trap) ends the block there, as inlined code does.
    if (w.state !== 'ready' || w.pc !== next) return -(i + 1);
  }
  return to;
}

/** What a run op completed by translated code leaves to bumpDone: nothing, its handler (s_waitcnt), a DS or a GLOBAL access's counter. */
const WAIT = 1, DS = 2, VM = 3, VS = 4, SMEM = 5;

/** The counters of run ops [from, to) (block ops k + j) the translated code completed, in order. */
function bumpDone(w: Wave, ops: readonly Op[], k: number, kinds: Uint8Array, from: number, to: number): void {
  for (let j = from; j < to; j++) {
    switch (kinds[j]) {
      case WAIT:
        ops[k + j]!.run(w);
        break;
      case DS:
      case SMEM:
        if (kinds[j] === DS) memStats.ds++;
        else memStats.smem++;
        if (w.lgkmcnt < CNT_MAX) w.lgkmcnt++;
        break;
      case VM:
        memStats.global++;
        if (w.vmcnt < CNT_MAX) w.vmcnt++;
        break;
      case VS:
        memStats.global++;
        if (w.vscnt < CNT_MAX) w.vscnt++;
        break;
    }
  }
}

/**
 * The counters of `t` whole trips of a loop run (wasmRun: a trip is ops [0, n) of `kinds`, the
 * block's ops from 0) in one step. Each counter's updates in a trip, a saturating increment
 * (c -> min(c + 1, CNT_MAX)) per access and s_waitcnt's minimum (c -> min(c, limit): flow.ts
 * waitcntLimits), compose to one map c -> min(c + add, cap) on [0, CNT_MAX] (either update after
 * such a map is again one), so t trips are c -> min(c + t add, cap); the memory statistics count
 * each trip's accesses.
 */
function tripBumper(ops: readonly Op[], kinds: Uint8Array): (w: Wave, t: number) => void {
  // vmcnt, vscnt, lgkmcnt, expcnt.
  const add = [0, 0, 0, 0], cap = [CNT_MAX, CNT_MAX, CNT_MAX, CNT_MAX];
  const inc = (i: number) => {
    add[i]!++;
    cap[i] = Math.min(cap[i]! + 1, CNT_MAX);
  };
  let ds = 0, smem = 0, global = 0;
  kinds.forEach((kd, j) => {
    if (kd === WAIT) {
      const { vm, lgkm, exp } = waitcntLimits(ops[j]!.inst.fields['simm16'] ?? 0);
      [vm, CNT_MAX, lgkm, exp].forEach((x, i) => void (cap[i] = Math.min(cap[i]!, x)));
    } else if (kd === DS || kd === SMEM) {
      if (kd === DS) ds++;
      else smem++;
      inc(2);
    } else if (kd === VM || kd === VS) {
      global++;
      inc(kd === VM ? 0 : 1);
    }
  });
  const [av, as, al, ae] = add as [number, number, number, number];
  const [cv, cs, cl, ce] = cap as [number, number, number, number];
  return (w, t) => {
    memStats.ds += t * ds;
    memStats.smem += t * smem;
    memStats.global += t * global;
    w.vmcnt = Math.min(w.vmcnt + t * av, cv);
    w.vscnt = Math.min(w.vscnt + t * as, cs);
    w.lgkmcnt = Math.min(w.lgkmcnt + t * al, cl);
    w.expcnt = Math.min(w.expcnt + t * ae, ce);
  };
}

/**
 * wasmOp per op (an op belongs to one Program, so to one wave size and VGPR count): block building
 * asks at every op of a stretch of VALU ops.
 */
const wops = new WeakMap<Op, WOp | null>();
function wasmOpOnce(op: Op, ws: number, vgprs: number, heapMemory: boolean): WOp | undefined {
  let x = wops.get(op);
  if (x === undefined) wops.set(op, (x = wasmOp(op, ws, vgprs, heapMemory) ?? null));
  return x ?? undefined;
}

/** Whether the translator takes `op` (of a Program of this wave size, VGPR count and memory). */
export function wasmTakes(op: Op, ws: number, vgprs: number, heapMemory: boolean): boolean {
  return wasmOpOnce(op, ws, vgprs, heapMemory) !== undefined;
}

/**
 * A translated run of `n` ops (block.ts binds `params` to `args`). `code` runs its ops [a, z) (free
 * names a and z, block op indexes: block.ts enters a run at any of its ops and cuts it anywhere)
 * as far as the translated code takes them and leaves `d`, the run op it reached; block.ts then
 * takes the sanitizer's steps of the ops done and runs the rest through `WREST` (rest above).
 */
export interface WasmRun {
  readonly n: number;
  /**
   * A loop body's whole block, its back branch included (branch.ts): `code` may take further
   * trips, leaving `T` (back branches taken), `d` (the op reached in the last trip) and `dd` (in
   * the first), and counts the later trips' counters itself.
   */
  readonly loop: boolean;
  readonly code: string;
  readonly params: readonly string[];
  readonly args: readonly unknown[];
  /** What each of `args` is, for the block cache (runArg makes it again). */
  readonly descs: readonly RunDesc[];
}

/**
 * One of a translated run's bound values as the block cache (block.ts) records it: the run's
 * caller (ops [at, at + n) of the block, `loop`: the whole block with its back branch, and the
 * bytes of its translations), a function or object of this module, the run's counter kinds, or
 * the loop run's trip bumper (made again from the block's ops and those kinds).
 */
export type RunDesc =
  | RunnerDesc
  | { readonly k: 'value'; readonly name: keyof typeof RUN_VALUES }
  | { readonly k: 'kinds'; readonly kinds: Uint8Array }
  | { readonly k: 'trip'; readonly kinds: Uint8Array };

/**
 * A run's caller as the block cache records it (and what lazyRunner makes it from): ops [at, at + n)
 * of the block (`loop`: the whole block, its back branch last), whether it has SALU ops or reads
 * SCC, whether its code differs hot (valu.ts hasHotCode), and its translations' bytes so far.
 */
export interface RunnerDesc {
  readonly k: 'runner';
  readonly at: number;
  readonly n: number;
  readonly loop: boolean;
  readonly salu: boolean;
  readonly hasHot: boolean;
  readonly bytes: RunBytes;
}

const RUN_VALUES = { rest, bumpDone, memStats };

/** Whether `name` is a value runArg gives by name. */
export function isRunValue(name: string): name is keyof typeof RUN_VALUES {
  return Object.prototype.hasOwnProperty.call(RUN_VALUES, name);
}

/**
 * The bound value `d` describes, for a block of `ops` of a Program of this wave size, VGPR count
 * and memory: what wasmRun gave when it made the run (its caller translates from the ops only if
 * the bytes of the translation it needs are not in `d`).
 */
export function runArg(d: RunDesc, ops: readonly Op[], ws: 32 | 64, vgprs: number, heapMemory: boolean): unknown {
  switch (d.k) {
    case 'value': return RUN_VALUES[d.name];
    case 'kinds': return d.kinds;
    case 'trip': return tripBumper(ops, d.kinds);
    case 'runner': {
      const runOps = (): WOp[] => {
        const run: WOp[] = [];
        const last = d.loop ? d.at + d.n - 1 : d.at + d.n;
        for (let i = d.at; i < last; i++) {
          const x = wasmOpOnce(ops[i]!, ws, vgprs, heapMemory);
          if (x === undefined) throw new Error(`block cache: op ${i} of a cached run is not translated`);
          run.push(x);
        }
        if (d.loop) {
          const back = wasmBack(ops[last]!, ws);
          if (back === undefined) throw new Error('block cache: the cached loop run has no back branch');
          run.push(back);
        }
        return run;
      };
      return lazyRunner(d, runOps, ws);
    }
  }
}

/**
 * The longest prefix of `ops` (ops[k..] of a block) the translator takes, as code for the block
 * function (free names w, clk, t0, $O, $A as block.ts declares them, and a, z); undefined when the
 * first op is not taken. GLOBAL accesses are taken only for a Program whose dispatches' memory is
 * in the heap (`heapMemory`, ExecEnv).
 */
export function wasmRun(ops: readonly Op[], k: number, ws: 32 | 64, vgprs: number, heapMemory: boolean, inline = false): WasmRun | undefined {
  const run: WOp[] = [];
  for (let i = k; i < ops.length && run.length < MAX_RUN; i++) {
    const x = wasmOpOnce(ops[i]!, ws, vgprs, heapMemory);
    if (x === undefined) break;
    run.push(x);
  }
  // A loop body (`inline`) that is one run up to its back branch: the branch joins the run, which
  // then takes the body's further trips itself (branch.ts).
  const back = inline && k === 0 && run.length === ops.length - 1 ? wasmBack(ops[ops.length - 1]!, ws) : undefined;
  // Runs with an f32 op taken two lanes at a time (simd.ts) or a GLOBAL or DS access (global.ts,
  // lds.ts: a memory lane in wasm costs a third of the handler's), or at least two lane ops: warm,
  // scalar wasm lanes cost about what the JavaScript tier's lanes cost, but the block's source is
  // what a cold run pays for (tier.ts: a block whose ops are one call compiles at once).
  const laneOps = run.filter((x) => !('wait' in x) && !('salu' in x) && !('smem' in x)).length;
  if (!run.some((x) => x.vec || 'global' in x || 'ds' in x) && laneOps < 2) return undefined;
  // No trailing waits (they would only make the run longer to cut).
  if (back !== undefined) run.push(back);
  else while ('wait' in run[run.length - 1]!) run.pop();
  const n = run.length;
  wasmTier.runs++;
  for (const x of run) if ('salu' in x) wasmTier.salu++;
  // The counters the translated accesses bump and the waits set, in order, for the ops it
  // completed in this call (run ops [a - k, d): the handlers of the ops it hands back bump their
  // own): one shared call (bumpDone) over the run's kinds, only for runs that have any; a line per
  // op (`inline`: a loop body, which TurboFan compiles anyway and specialises).
  const runner: RunnerDesc = { k: 'runner', at: k, n, loop: back !== undefined, salu: run.some((x) => 'salu' in x || ('back' in x && x.readsScc)), hasHot: hasHotCode(run), bytes: {} };
  const kinds = Uint8Array.from(run, (x) => ('wait' in x ? (x.call ? WAIT : 0) : 'ds' in x ? DS : 'smem' in x ? SMEM : 'global' in x ? (x.global.store && x.global.storeCnt === 'vscnt' ? VS : VM) : 0));
  // A line per op with a counter, run when `ranAt(j)` holds (the op was completed in this call).
  const lines = (ranAt: (j: number) => string) => run.map((_, j) => {
    const ran = ranAt(j);
    switch (kinds[j]) {
      case WAIT: return `if (${ran}) $O[${k + j}].run(w); `;
      case DS: return `if (${ran}) { GS.ds++; if (w.lgkmcnt < ${CNT_MAX}) w.lgkmcnt++; } `;
      case SMEM: return `if (${ran}) { GS.smem++; if (w.lgkmcnt < ${CNT_MAX}) w.lgkmcnt++; } `;
      case VM: return `if (${ran}) { GS.global++; if (w.vmcnt < ${CNT_MAX}) w.vmcnt++; } `;
      case VS: return `if (${ran}) { GS.global++; if (w.vscnt < ${CNT_MAX}) w.vscnt++; } `;
      default: return '';
    }
  }).join('');
  if (back !== undefined) {
    // The first trip's ops [a, dd) (all of them when it took the back branch), then T - 1 whole
    // trips (tripBumper: one call) and the last trip's ops [0, d).
    const later = kinds.some((x) => x !== 0) ? `if (T > 0) { if (T > 1) WT(w, T - 1); ${lines((j) => `d > ${j}`)}} ` : '';
    const code = `const q = WR(w, a, z); w.laneOps += q >>> 16; const T = (q >>> 8) & 255, d = q & 255, dd = T > 0 ? ${n} : d; ${lines((j) => `dd > ${j} && a <= ${j}`)}${later}`;
    return { n, loop: true, code, params: ['WR', 'WREST', 'WT', 'GS'], args: [lazyRunner(runner, () => run, ws), rest, tripBumper(ops, kinds), memStats], descs: [runner, { k: 'value', name: 'rest' }, { k: 'trip', kinds }, { k: 'value', name: 'memStats' }] };
  }
  const bumps = !inline ? (kinds.some((x) => x !== 0) ? `if (d > a - ${k}) WB(w, $O, ${k}, WK, a - ${k}, d); ` : '') : lines((j) => `d > ${j} && a <= ${k + j}`);
  const code = `const q = WR(w, a - ${k}, z - ${k}); w.laneOps += q >>> 16; const d = q & 255; ${bumps}`;
  return { n, loop: false, code, params: ['WR', 'WREST', 'WB', 'WK', 'GS'], args: [lazyRunner(runner, () => run, ws), rest, bumpDone, kinds, memStats], descs: [runner, { k: 'value', name: 'rest' }, { k: 'value', name: 'bumpDone' }, { k: 'kinds', kinds }, { k: 'value', name: 'memStats' }] };
}
