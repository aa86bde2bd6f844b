/**
 * The engine's shared types: what a bound instruction is (Bound, Op, Run), what semantics may see
 * besides the wave (ExecEnv) and the optional cache hook. A leaf module: the semantics (exec/), the
 * binders and the engine import it, and it imports nothing of theirs, so the import graph of
 * src/amd has no cycle through these names.
 */
import type { Diagnostics } from '../../core/diagnostics.js';
import type { OperandSpace } from '../isa/operands.js';
import type { Instruction } from '../isa/types.js';
import type { Wave } from '../wave/wave.js';
import type { Code } from './code.js';

export interface ExecEnv {
  readonly space: OperandSpace;
  readonly diag: Diagnostics;
  // (No memory: handlers reach it through the wave, `w.mem`.)
  /** Seed document for the wave-state rules (diagnostics cite it). */
  readonly seed: string;
  /** Wave size and VGPRs per lane of the dispatch (all its waves share them, so binding may use them). */
  readonly waveSize: 32 | 64;
  readonly vgprs: number;
  /**
   * SH_MEM_CONFIG.alignment_mode for LDS and vector memory (absent = 'unaligned', what compute
   * queues get): 'dword' forces alignment, 'dword-strict'/'strict' also raise MEMVIOL.
   */
  readonly alignMode?: AlignMode;
  /**
   * Which execution engine binds the instructions: 'fast' (default) may pick specialised handlers
   * and memory fast paths; 'interp' uses only the reference interpreter. Both must give the same
   * bytes, wave state and diagnostics (the differential test runs every benchmark kernel in both).
   */
  readonly engine?: Engine;
  /**
   * The dispatch's memory keeps its segments in the wasm tier's heap (engine/wasm/heap.ts): the
   * tier translates GLOBAL accesses (elsewhere, e.g. a split run's shared segments, every one would
   * hand back, so they stay in the JavaScript blocks).
   */
  readonly heapMemory?: boolean;
  /**
   * Optional cache model consulted by vector memory instructions (bound in only when present:
   * see cache-hook.ts); absent = memory is coherent, as every compute dispatch runs.
   */
  readonly cacheHook?: CacheHook;
  /** Model time: REALTIME ticks at 100 MHz derived from executed instructions. */
  now(): number;
  /**
   * Which dispatch the handlers run for (absent = 0): a Program kept across dispatches
   * (dispatch.ts) binds once, and a diagnostic its handlers report "once" is once per epoch, so a
   * repeated dispatch reports what a fresh Program would.
   */
  readonly epoch?: number;
}

/** Execution engines (see ExecEnv.engine). */
export type Engine = 'fast' | 'interp';

/** SH_MEM_CONFIG.alignment_mode values. */
export type AlignMode = 'unaligned' | 'dword' | 'dword-strict' | 'strict';

/** The seed that documents the GFX11 wave-state rules. */
export const WAVE_STATE_SEED = '001_5e6764f932d07b8a.txt';

/** Cache-policy bits of a vector memory instruction (GFX10/GFX11 GLC, DLC, SLC). */
export const CPOL = { GLC: 1, DLC: 2, SLC: 4 } as const;

export interface CacheHook {
  /**
   * A vector memory instruction of `w` starts (`cpol`: CPOL bits; `store`: it writes memory;
   * `inst`: the instruction, so a model can hold a load's results in flight).
   */
  begin(w: Wave, cpol: number, store: boolean, inst?: Instruction): void;
  /** ...and ends. */
  end(w: Wave): void;
  /** buffer_gl0_inv / buffer_gl1_inv: drop the wave's CU L0 / shader-array L1 contents. */
  invalidate(w: Wave, level: 0 | 1): void;
}

/** Instruction classes for the run statistics (run.json) and for wait-counter bookkeeping. */
export type InstClass = 'salu' | 'smem' | 'branch' | 'msg' | 'valu' | 'trans' | 'vmem' | 'flat' | 'lds' | 'export' | 'other';

/** Every class, in a fixed order: `Op.ci` indexes it (the scheduler counts classes in an array). */
export const INST_CLASSES: readonly InstClass[] = ['salu', 'smem', 'branch', 'msg', 'valu', 'trans', 'vmem', 'flat', 'lds', 'export', 'other'];

export type Run = (w: Wave) => void;

export interface Op {
  readonly inst: Instruction;
  readonly run: Run;
  readonly cls: InstClass;
  /** Index of `cls` in INST_CLASSES. */
  readonly ci: number;
  /** inst.size, on the op itself (the scheduler reads it per instruction; Instruction shapes vary). */
  readonly size: number;
  /** s_endpgm: the one instruction a wave may issue after s_sendmsg MSG_DEALLOC_VGPRS (the scheduler checks per step). */
  readonly endpgm: boolean;
  /** What the wait-counter sanitizer (waitcnt.ts) learned about the op, filled on first use. */
  waitInfo: unknown;
  /** The instruction's text (for traces and diagnostics), computed on demand. */
  text(): string;
  /** The handler's source, when a basic block may inline it (block.ts). */
  readonly inline: Inline | undefined;
}

/** A rule broken by the instruction itself (known at bind time), reported at its first execution. */
export interface Finding {
  readonly id: string;
  readonly message: string;
  readonly severity?: 'error' | 'warning';
}

export interface Bound {
  readonly run: Run;
  readonly cls: InstClass;
  readonly findings?: readonly Finding[];
  /** The handler's source, for a basic block to inline (block.ts); absent: the block calls `run`. */
  readonly inline?: Inline;
}

/**
 * A generated handler's source (code.ts): `code` is the statement list of `function (w) { ... }`
 * with explicit hand-back points (the standalone handler renders each as `return ref(w);`, which
 * hands the instruction to the reference handler before anything was written), and no other
 * return. `params` are exactly the free names the statements use, bound to `args`; `ref` is one of
 * them when the code hands back.
 */
export interface Inline {
  /** The handler this is the source of (a wrapper that replaces `run` invalidates the source). */
  readonly run: Run;
  readonly code: Code;
  readonly params: readonly string[];
  readonly args: readonly unknown[];
  /** The source's identity: its parameters and rendered text (blocks compiled from it are shared by it). */
  readonly key: string;
  /** The handler moves the PC (a branch): a block inlines it only as its last op. */
  readonly movesPc?: boolean;
  /**
   * An integer VALU op's structured form (fast-valu.ts `LaneOp`): a basic block runs a straight run
   * of such ops in one lane loop (fast-valu.ts `fuseLanes`).
   */
  readonly lane?: object;
  /**
   * A GLOBAL dword load or store's operands (fast-mem.ts `FlatDwordSpec`): the wasm tier
   * (wasm/global.ts) translates it inside a run.
   */
  readonly global?: object;
  /** A DS dword or 2addr load or store's operands (fast-mem.ts): the wasm tier (wasm/lds.ts) translates it. */
  readonly ds?: object;
  /** An SALU op's operands (fast-salu.ts `SaluSpec`): the wasm tier (wasm/salu.ts) runs it inside a run. */
  readonly salu?: object;
  /** An s_load's operands (fast-mem.ts `ScalarLoadSpec`): the wasm tier (wasm/smem.ts) translates it. */
  readonly smem?: object;
}

export type Binder = (inst: Instruction, env: ExecEnv) => Bound;
