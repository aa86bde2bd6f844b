/** What instruction semantics may see besides the wave: the dispatch-wide environment. */
import type { Diagnostics } from '../../core/diagnostics.js';
import type { Memory } from '../../core/memory.js';
import type { OperandSpace } from '../isa/operands.js';
import type { CacheHook } from './cache-hook.js';

export interface ExecEnv {
  readonly space: OperandSpace;
  readonly diag: Diagnostics;
  readonly mem: Memory;
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
}

/** Execution engines (see ExecEnv.engine). */
export type Engine = 'fast' | 'interp';

/** SH_MEM_CONFIG.alignment_mode values. */
export type AlignMode = 'unaligned' | 'dword' | 'dword-strict' | 'strict';

/** The seed that documents the GFX11 wave-state rules. */
export const WAVE_STATE_SEED = '001_5e6764f932d07b8a.txt';
