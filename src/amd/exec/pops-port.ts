/**
 * What the executor knows of Primitive Ordered Pixel Shading (seed 002_d00ee82034762a57.txt): the
 * hardware-register ids its s_setreg watches, the intrawave layer split, and the interface of the
 * POPS unit the instructions drive. The unit itself (src/amd/gfx/pops.ts) implements `PopsPort`;
 * the executor (pops-exec.ts) depends on this leaf only, never on the graphics blocks above it.
 */

/** HW_REG_POPS_PACKER (GFX10+) and HW_REG_MODE ids. */
export const HW_REG_MODE = 1;
export const HW_REG_POPS_PACKER = 25;

/**
 * Split a wave into the layers the ordered section runs in, from the INTRAWAVE_COLLISION quad
 * mask (low 8 bits for wave32, 16 for wave64; the rest ignored): each set bit starts a new layer
 * at that quad. Returns [firstLane, endLane) per layer.
 */
export function intrawaveLayers(mask: number, waveSize: 32 | 64): [number, number][] {
  const quads = waveSize / 4;
  const m = mask & ((1 << quads) - 1);
  const out: [number, number][] = [];
  let start = 0;
  for (let q = 1; q < quads; q++) {
    if ((m >>> q) & 1) {
      out.push([start, q * 4]);
      start = q * 4;
    }
  }
  out.push([start, waveSize]);
  return out;
}

/** The wave's counters a POPS message or export carries (vm, vs, lgkm). */
export interface PopsCounters {
  readonly vm: number;
  readonly vs: number;
  readonly lgkm: number;
}

/** What the executor reads of a wave's POPS state (gfx/pops.ts PopsWave). */
export interface PopsWaveView {
  readonly entered: boolean;
  readonly exited: boolean;
  readonly intrawaveCollision: number;
  readonly config: { readonly loadIntrawaveCollision: boolean };
}

/**
 * The POPS unit as the instructions drive it (gfx/pops.ts PopsUnit): each call returns the waves
 * an exit woke, where it may wake any.
 */
export interface PopsPort<P extends PopsWaveView = PopsWaveView> {
  setMode(w: P, bits: number, pc?: number): void;
  setPopsPacker(w: P, value: number, pc?: number): void;
  readExitingWaveId(w: P, pc?: number): number;
  sleep(w: P, simm16: number, pc?: number): { wakeOnExit: boolean };
  waitEvent(w: P, simm16: number, pc?: number): boolean;
  sendMsg(w: P, id: number, counters?: PopsCounters, pc?: number): P[];
  exportSkipped(w: P, pc?: number): void;
  exportDone(w: P, done: boolean, counters?: PopsCounters, pc?: number): P[];
  endProgram(w: P, orderedPsDone?: boolean, pc?: number): P[];
  intrawaveSubgroupOp(w: P, kind: string, activeLayers: number, layers: number, pc?: number): void;
}
