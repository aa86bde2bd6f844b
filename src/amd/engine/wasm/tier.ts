/**
 * The wasm tier's hook into basic blocks (block.ts): a straight run of VALU ops and GLOBAL dword
 * accesses the translator takes (valu.ts, global.ts) becomes one call of a WebAssembly function
 * instead of inlined JavaScript, when the run has an f32 op whose lanes run two at a time (simd.ts:
 * f64x2, for a row with EXEC all ones) or a GLOBAL access. It is on by default where WebAssembly
 * shared memories exist (docs/speed.md, "WebAssembly tier"); GPUSIM_WASM=0 in the environment, or
 * `setWasmTier(false)`, turns it off for waves created from then on (their register blocks must
 * live in the heap: heap.ts; a Memory's segments too, for its accesses to be translated). A wave
 * whose registers are not in the heap, and every op the translated code hands back, runs through
 * the ops' JavaScript handlers, so results are those of the fast tier, i.e. the reference
 * interpreter's, bit for bit (test/amd/engine-wasm.test.ts, engine-wasm-global.test.ts).
 */
import type { Op } from '../types.js';
import type { Wave } from '../../wave/wave.js';
import type { Clock } from '../block-types.js';
import { heap, heapAvailable, useHeap } from './heap.js';
import { translateRun, wasmOp, type WOp } from './valu.js';
import { globalStats } from './global.js';
import { Wasm, type WasmModule } from './api.js';
import { CNT_MAX } from '../../exec/vmem.js';

const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env;

/**
 * `on`: whether blocks built from now on call translated runs (and new waves get heap registers);
 * `runs`: runs taken (each translated and compiled at its first call), `modules`: distinct modules
 * compiled, `calls`: calls of translated code (by waves in the heap) in this thread.
 */
export const wasmTier = { on: env?.['GPUSIM_WASM'] !== '0' && heapAvailable(), runs: 0, modules: 0, calls: 0 };
if (wasmTier.on) useHeap(true);

export function setWasmTier(on: boolean): void {
  wasmTier.on = on && heapAvailable();
  useHeap(wasmTier.on);
}

/** Longest translated run (its `done` count is returned in 8 bits). */
const MAX_RUN = 32;

type Runner = (w: Wave) => number;

/** Compiled modules by their bytes (identical runs anywhere in the process share one). */
const modules = new Map<string, WasmModule>();

function moduleOf(bytes: Uint8Array): WasmModule {
  const key = String.fromCharCode(...bytes);
  let mod = modules.get(key);
  if (mod === undefined) {
    mod = new Wasm.Module(bytes);
    modules.set(key, mod);
    wasmTier.modules++;
  }
  return mod;
}

/**
 * The caller of a translated run, instantiated on first use. The run is translated and
 * its module compiled at its first call, not when its block's source is made: a block that is
 * built but never runs compiled (a straight block stepped op by op in a short dispatch, tier.ts)
 * costs no translation (conv2d 256x256's fresh dispatch spent about half of its block building
 * there).
 */
function lazyRunner(run: readonly WOp[], ws: 32 | 64): Runner {
  let f: ((off: number, table: number) => number) | null = null;
  return (w: Wave): number => {
    if (w.regArena < 0) return 0;
    wasmTier.calls++;
    if (f === null) {
      const inst = new Wasm.Instance(moduleOf(translateRun(run, ws)), { m: { mem: heap()!.mem } });
      f = inst.exports['run'] as (off: number, table: number) => number;
    }
    return f(w.regOff, w.mem.table);
  };
}

/**
 * Ops [from, to) of a block run through their handlers, as the block's op-by-op code runs them
 * (w.pc at the next op and the clock at the op while the handler runs); the sanitizer steps of the
 * whole run were taken before the call, as for a fused run (VALU ops change nothing a step reads).
 */
function rest(w: Wave, clk: Clock, t0: number, ops: readonly Op[], pcs: readonly number[], from: number, to: number): void {
  for (let i = from; i < to; i++) {
    const op = ops[i]!;
    w.pc = pcs[i]! + op.size;
    clk.t = t0 + i;
    op.run(w);
  }
}

/**
 * wasmOp per op (an op belongs to one Program, so to one wave size and VGPR count): block building
 * asks at every op of a stretch of VALU ops.
 */
const wops = new WeakMap<Op, WOp | null>();
function wasmOpOnce(op: Op, ws: number, vgprs: number): WOp | undefined {
  let x = wops.get(op);
  if (x === undefined) wops.set(op, (x = wasmOp(op, ws, vgprs) ?? null));
  return x ?? undefined;
}

/** A translated run, in the shape of a fused run (block.ts binds `params` to `args`). */
export interface WasmRun {
  readonly n: number;
  readonly code: string;
  readonly params: readonly string[];
  readonly args: readonly unknown[];
}

/**
 * The longest prefix of `ops` (ops[k..] of a block) the translator takes, as code for the block
 * function (free names w, clk, t0, $O, $A as block.ts declares them); undefined when the first op
 * is not taken.
 */
export function wasmRun(ops: readonly Op[], k: number, ws: 32 | 64, vgprs: number): WasmRun | undefined {
  const run: WOp[] = [];
  for (let i = k; i < ops.length && run.length < MAX_RUN; i++) {
    const x = wasmOpOnce(ops[i]!, ws, vgprs);
    if (x === undefined) break;
    run.push(x);
  }
  // Only runs with an f32 op taken two lanes at a time (simd.ts) or a GLOBAL access (global.ts):
  // scalar wasm lanes cost about what the JavaScript tier's lanes cost warm, and each translated
  // module costs a compile cold, but a global lane in wasm costs a third of the handler's.
  if (!run.some((x) => x.vec || 'global' in x)) return undefined;
  const n = run.length;
  wasmTier.runs++;
  // The counters the translated accesses bump, for those it completed (`d` ops: the handlers of
  // the ops it hands back bump their own).
  const bumps = run.map((x, j) => {
    if (!('global' in x)) return '';
    const c = x.global.store ? x.global.storeCnt : 'vmcnt';
    return `if (d > ${j}) { GS.done++; if (w.${c} < ${CNT_MAX}) w.${c}++; } `;
  }).join('');
  const code = `const q = WR(w); w.laneOps += q >>> 8; const d = q & 255; ${bumps}if (d !== ${n}) WREST(w, clk, t0, $O, $A[0], ${k} + d, ${k + n});`;
  return bumps === ''
    ? { n, code, params: ['WR', 'WREST'], args: [lazyRunner(run, ws), rest] }
    : { n, code, params: ['WR', 'WREST', 'GS'], args: [lazyRunner(run, ws), rest, globalStats] };
}
