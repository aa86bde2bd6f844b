/**
 * The graphics wave scheduler: runs the waves of one pipeline stage of a draw (NGG subgroups, PS
 * waves) on the shader model, interleaved round-robin or in a seeded random order, with the same
 * per-instruction rules as compute dispatch (decode once per PC through Program, illegal
 * instructions, instruction budget, s_sleep, s_barrier within a wave's peers). Results never
 * depend on the order: stages commit their outputs in launch order (src/runtime/draw.ts).
 */
import type { Diagnostics } from '../core/diagnostics.js';
import { DecodeError } from '../amd/isa/types.js';
import type { Op, Program } from '../amd/exec/program.js';
import { WAVE_STATE_SEED } from '../amd/exec/env.js';
import type { Wave } from '../amd/wave/wave.js';
import { prng } from './dispatch.js';

export interface GfxWave {
  readonly wave: Wave;
  readonly program: Program;
}

export interface GfxRunOptions {
  readonly order: 'roundrobin' | 'random';
  readonly seed: number;
  /** Instruction budget left for this run. */
  readonly budget: number;
  readonly diag: Diagnostics;
  /** Called before each instruction executes (message observers, tracing). */
  readonly beforeOp?: (w: Wave, op: Op) => void;
  /** Called after each instruction executed (POPS trace). */
  readonly afterOp?: (w: Wave) => void;
  /** Model clock shared with the ExecEnv of the programs (advanced per instruction). */
  readonly clock: { t: number };
}

export interface GfxRunStats {
  instructions: number;
  aborted: boolean;
}

const QUANTUM = 64;

export function runGfxWaves(list: readonly GfxWave[], o: GfxRunOptions): GfxRunStats {
  const rnd = prng(o.seed);
  const random = o.order === 'random';
  const live = list.slice();
  const st: GfxRunStats = { instructions: 0, aborted: false };
  while (live.length > 0) {
    let progressed = false;
    const order = random ? shuffle(live.length, rnd) : null;
    for (let k = 0; k < live.length; k++) {
      const g = live[order ? order[k]! : k]!;
      const w = g.wave;
      if (w.state === 'sleep' && o.clock.t >= w.sleepUntil) w.state = 'ready';
      if (w.state === 'barrier' && w.peers.every((p) => p.state === 'barrier' || p.state === 'ended')) {
        for (const p of w.peers) if (p.state === 'barrier') p.state = 'ready';
      }
      if (w.state !== 'ready') continue;
      const q = random ? 1 + Math.floor(rnd() * QUANTUM * 2) : QUANTUM;
      for (let i = 0; i < q && w.state === 'ready'; i++) {
        if (st.instructions >= o.budget) {
          o.diag.report({ id: 'gpusim.instruction-budget', severity: 'error', where: { pc: w.pc, wave: w.id }, message: `stopped after the draw's instruction budget (a runaway loop? raise --max-instructions)` });
          st.aborted = true;
          return st;
        }
        let op: Op;
        try {
          op = g.program.opAt(w.pc, w);
        } catch (e) {
          if (!(e instanceof DecodeError)) throw e;
          o.diag.report({ id: 'gfx11.illegal-instruction', severity: 'error', where: { pc: w.pc, wave: w.id }, message: `${e.message}; the wave is halted`, seed: WAVE_STATE_SEED });
          w.state = 'halted';
          break;
        }
        o.beforeOp?.(w, op);
        w.pc += op.inst.size;
        op.run(w);
        w.instructions++;
        st.instructions++;
        o.clock.t++;
        o.afterOp?.(w);
        progressed = true;
      }
    }
    for (let k = live.length - 1; k >= 0; k--) {
      const s = live[k]!.wave.state;
      if (s === 'ended' || s === 'halted') live.splice(k, 1);
    }
    if (!progressed && live.length > 0) {
      let wake = Infinity;
      for (const g of live) if (g.wave.state === 'sleep' && g.wave.sleepUntil < wake) wake = g.wave.sleepUntil;
      if (wake !== Infinity) {
        o.clock.t = Math.max(o.clock.t, wake);
        continue;
      }
      if (live.some((g) => g.wave.state === 'barrier' && g.wave.peers.every((p) => p.state === 'barrier' || p.state === 'ended'))) continue;
      const w = live[0]!.wave;
      o.diag.report({ id: 'gfx11.wave.stuck', severity: 'error', where: { pc: w.pc, wave: w.id }, message: `${live.length} graphics wave(s) can make no progress (state ${w.state}); the stage stops` });
      st.aborted = true;
      return st;
    }
  }
  return st;
}

function shuffle(n: number, rnd: () => number): number[] {
  const a = Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [a[i], a[j]] = [a[j]!, a[i]!];
  }
  return a;
}
