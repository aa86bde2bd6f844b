/** What instruction semantics may see besides the wave: the dispatch-wide environment. */
import type { Diagnostics } from '../../core/diagnostics.js';
import type { OperandSpace } from '../isa/operands.js';
import { WAVE_STATE_SEED, type CacheHook, type ExecEnv, type Engine, type AlignMode } from './types.js';
export type { ExecEnv, Engine, AlignMode } from './types.js';
export { WAVE_STATE_SEED } from './types.js';

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
 * engine, alignment, whether the memory is in the wasm heap) are fixed; diagnostics, the clock and the epoch are the current dispatch's
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
  readonly heapMemory: boolean;
  diag: Diagnostics = NO_DIAG;
  epoch = 0;
  /** True while a dispatch runs with this env (a nested dispatch of the same code gets its own). */
  busy = false;
  private clock: { t: number } = { t: 0 };

  constructor(space: OperandSpace, waveSize: 32 | 64, vgprs: number, engine: Engine, alignMode: AlignMode | undefined, heapMemory = false) {
    this.space = space;
    this.heapMemory = heapMemory;
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

