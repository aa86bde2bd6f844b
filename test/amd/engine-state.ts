/**
 * Wave-state snapshots for comparing execution engines (engine-diff.test.ts): everything a wave
 * carries that an instruction can change, copied so later runs cannot alias it.
 */
import type { Wave } from '../../src/amd/wave/wave.js';

export interface WaveSnap {
  readonly id: number;
  readonly pc: number;
  readonly scc: number;
  readonly state: string;
  readonly instructions: number;
  readonly laneOps: number;
  readonly counters: readonly number[];
  readonly s: Uint32Array;
  readonly s64lo: Uint32Array;
  readonly s64hi: Uint32Array;
  readonly hw: Uint32Array;
  readonly v: Uint32Array;
  readonly haltReason: string;
}

export function snap(w: Wave): WaveSnap {
  return {
    id: w.id, pc: w.pc, scc: w.scc, state: w.state, instructions: w.instructions, laneOps: w.laneOps,
    counters: [w.vmcnt, w.vscnt, w.lgkmcnt, w.expcnt, w.sleepUntil], s: w.s.slice(), s64lo: w.s64lo.slice(), s64hi: w.s64hi.slice(),
    hw: w.hw.slice(), v: w.v.slice(), haltReason: w.haltReason,
  };
}

/** The first difference between two snapshots, or null. */
export function diffSnap(a: WaveSnap, b: WaveSnap): string | null {
  for (const k of ['id', 'pc', 'scc', 'state', 'instructions', 'laneOps', 'haltReason'] as const) {
    if (a[k] !== b[k]) return `${k}: ${String(a[k])} vs ${String(b[k])}`;
  }
  for (let i = 0; i < a.counters.length; i++) if (a.counters[i] !== b.counters[i]) return `counter ${i}: ${a.counters[i]} vs ${b.counters[i]}`;
  for (const k of ['s', 's64lo', 's64hi', 'hw', 'v'] as const) {
    const x = a[k];
    const y = b[k];
    if (x.length !== y.length) return `${k} length ${x.length} vs ${y.length}`;
    for (let i = 0; i < x.length; i++) {
      if (x[i] !== y[i]) return `${k}[${i}]: 0x${x[i]!.toString(16)} vs 0x${y[i]!.toString(16)}`;
    }
  }
  return null;
}
