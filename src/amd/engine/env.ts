/** What instruction semantics may see besides the wave: the dispatch-wide environment. */
import type { Diagnostics } from '../../core/diagnostics.js';
import type { OperandSpace } from '../isa/operands.js';
import type { CacheHook } from './cache-hook.js';

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

/**
 * A diagnostic's "once" that re-arms for every dispatch (epoch): `due` until `fire()` in this
 * dispatch. A handler bound once and kept across dispatches reports what a fresh one would.
 */
export class OncePerDispatch {
  private last = -1;
  private readonly env: ExecEnv;
  constructor(env: ExecEnv) {
    this.env = env;
  }
  get due(): boolean {
    return this.last !== (this.env.epoch ?? 0);
  }
  fire(): void {
    this.last = this.env.epoch ?? 0;
  }
}

/** Epochs handed out in this thread (DispatchEnv.rebind). */
let epochs = 0;

/** The diagnostics of no dispatch: what a kept Program's env holds between dispatches. */
const NO_DIAG = { report: () => { throw new Error('a kept Program ran outside a dispatch'); } } as unknown as Diagnostics;

/**
 * The ExecEnv of a Program kept across dispatches: the binding parts (space, wave size, VGPRs,
 * engine, alignment) are fixed; diagnostics, the clock and the epoch are the current dispatch's
 * (handlers read `env.diag` and `env.now()` when they run, never at bind time; memory they reach
 * through the wave). Between dispatches it holds neither, so a kept Program keeps no run alive.
 */
export class DispatchEnv implements ExecEnv {
  readonly space: OperandSpace;
  readonly seed: string;
  readonly waveSize: 32 | 64;
  readonly vgprs: number;
  readonly engine: Engine;
  readonly alignMode?: AlignMode;
  diag: Diagnostics = NO_DIAG;
  epoch = 0;
  /** True while a dispatch runs with this env (a nested dispatch of the same code gets its own). */
  busy = false;
  private clock: { t: number } = { t: 0 };

  constructor(space: OperandSpace, waveSize: 32 | 64, vgprs: number, engine: Engine, alignMode: AlignMode | undefined) {
    this.space = space;
    this.seed = WAVE_STATE_SEED;
    this.waveSize = waveSize;
    this.vgprs = vgprs;
    this.engine = engine;
    if (alignMode !== undefined) this.alignMode = alignMode;
  }

  now(): number {
    return this.clock.t;
  }

  /** Enter a dispatch: its diagnostics and clock, and a new epoch. */
  rebind(diag: Diagnostics, clock: { t: number }): void {
    this.diag = diag;
    this.clock = clock;
    this.epoch = ++epochs;
    this.busy = true;
  }

  /** Leave the dispatch: drop its diagnostics and clock. */
  release(): void {
    this.diag = NO_DIAG;
    this.clock = { t: 0 };
    this.busy = false;
  }
}

/** Execution engines (see ExecEnv.engine). */
export type Engine = 'fast' | 'interp';

/** SH_MEM_CONFIG.alignment_mode values. */
export type AlignMode = 'unaligned' | 'dword' | 'dword-strict' | 'strict';

/** The seed that documents the GFX11 wave-state rules. */
export const WAVE_STATE_SEED = '001_5e6764f932d07b8a.txt';
