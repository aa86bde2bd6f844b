/**
 * SP wave state: one fiber group (a "wave") of 64 lanes, 128 with THREAD128 (double threadsize).
 *
 * Register file layout (typed arrays, documented so the hot path is one load):
 * - `regs`: Uint32Array, component index c = reg*4 + comp (r0.x = 0, r47.w = 191, up to r63.w),
 *   element `c * lanes + lane`. r48.x.. hold what HLSQ preloads (work-group id). a0.x = 244,
 *   a1.x = 245, p0.x..p0.w = 248..251 live here too (they are GPR numbers 61/62 in the encoding).
 * - half registers (MERGEDREGS, a6xx): hrN.c = half component h = N*4+c aliases the low (h even)
 *   or high (h odd) 16 bits of full component h>>1: `regs16[((h>>1)*lanes + lane)*2 + (h&1)]`.
 * - shared (uniform) registers r48.x..r55.w (components 192..223) hold one value per wave,
 *   kept in lane 0's slot; every lane reads it (HLSQ's work-group id preload lands there).
 * - `pc`: per-lane instruction index; -1 once the lane has ended. The wave issues the smallest
 *   PC among its live lanes with those lanes active (the (jp) reconvergence point is where the
 *   lanes meet again).
 */
export const NCOMP = 256;
export const A0 = 61 * 4;
export const P0 = 62 * 4;
export const SHARED_LO = 48 * 4;
export const SHARED_HI = 56 * 4;

export class Wave {
  readonly lanes: number;
  readonly regs: Uint32Array;
  readonly regs16: Uint16Array;
  readonly pc: Int32Array;
  /** Lanes issuing the current instruction (1) or not (0). */
  readonly active: Uint8Array;
  /** Work-group and wave number inside it. */
  readonly wg: number;
  readonly id: number;
  /** Lanes the last select() made active. */
  nActive = 0;
  /** Waiting at `bar` (the barrier generation it waits on), -1 if not. */
  barWait = -1;
  done = false;
  /** Private memory (ldp/stp), PRIVATE_BYTES per lane, made on first use. */
  priv: DataView | undefined = undefined;
  /** Instructions issued. */
  issued = 0;
  /** Fiber-instructions: the lanes active in each issued instruction, summed (select() counts them). */
  fiberInstrs = 0;
  constructor(lanes: number, wg: number, id: number) {
    this.lanes = lanes;
    this.regs = new Uint32Array(NCOMP * lanes);
    this.regs16 = new Uint16Array(this.regs.buffer);
    this.pc = new Int32Array(lanes).fill(-1);
    this.active = new Uint8Array(lanes);
    this.wg = wg;
    this.id = id;
  }
  /** The next PC to issue (lanes at it become active), or -1 when every lane ended. */
  select(): number {
    let m = -1;
    const pc = this.pc;
    for (let l = 0; l < this.lanes; l++) {
      const p = pc[l]!;
      if (p >= 0 && (m < 0 || p < m)) m = p;
    }
    const a = this.active;
    let n = 0;
    for (let l = 0; l < this.lanes; l++) {
      const on = pc[l] === m && m >= 0 ? 1 : 0;
      a[l] = on;
      n += on;
    }
    this.nActive = n;
    return m;
  }
}
