/**
 * RBBM performance counters of the graphics blocks (seed 004, "Performance Counters"): each block
 * has M select registers (<BLOCK>_PERFCTR_<BLOCK>_SEL[i]) naming one of its countables
 * (a6xx_<block>_perfcounter_select) and M free-running 64-bit counters RBBM_PERFCTR_<BLOCK>[i].
 * The model counts events, not cycles: the countables below advance by what the CP and the
 * pipeline did; every other countable reads 0 (the CP's own counters are cp.ts's).
 *
 * Counted: PC — PERF_PC_3D_DRAWCALLS (draws run), PERF_PC_2D_DRAWCALLS (CP_BLIT),
 * PERF_PC_VIS_STREAMS_LOADED (CP_SET_BIN_DATA5), PERF_PC_IA_VERTICES / PERF_PC_VS_INVOCATIONS,
 * PERF_PC_IA_PRIMITIVES, PERF_PC_INSTANCES; TSE — PERF_TSE_INPUT_PRIM, PERF_TSE_FACENESS_CULLED_PRIM;
 * RB — PERF_RB_PS_INVOCATIONS (fragments), PERF_RB_Z_PASS (samples passed), PERF_RB_C_WRITE
 * (samples written), PERF_RB_2D_VALID_PIXELS (CP_BLIT pixels). The VSC and LRZ blocks' counters
 * exist and read 0: what their countables measure is not documented closely enough to count.
 */
import { enumName, type Gen, type RegisterSpace } from '../regs/db.js';

interface Block {
  readonly sel: string;
  readonly ctr: string;
  readonly count: number;
  readonly countables: string;
}

const BLOCKS: readonly Block[] = [
  { sel: 'PC_PERFCTR_PC_SEL', ctr: 'RBBM_PERFCTR_PC', count: 8, countables: 'a6xx_pc_perfcounter_select' },
  { sel: 'GRAS_PERFCTR_TSE_SEL', ctr: 'RBBM_PERFCTR_TSE', count: 4, countables: 'a6xx_tse_perfcounter_select' },
  { sel: 'RB_PERFCTR_RB_SEL', ctr: 'RBBM_PERFCTR_RB', count: 8, countables: 'a6xx_rb_perfcounter_select' },
  { sel: 'VSC_PERFCTR_VSC_SEL', ctr: 'RBBM_PERFCTR_VSC', count: 2, countables: 'a6xx_vsc_perfcounter_select' },
  { sel: 'GRAS_PERFCTR_LRZ_SEL', ctr: 'RBBM_PERFCTR_LRZ', count: 4, countables: 'a6xx_lrz_perfcounter_select' },
];

export interface PerfHost {
  readonly gen: Gen;
  readonly regsDb: RegisterSpace;
  readReg(off: number): number;
  /** Set a register without side effects (counter registers are RBBM's). */
  setReg(off: number, v: number): void;
}

export class BlockCounters {
  /** Totals by countable name. */
  readonly totals = new Map<string, number>();

  add(countable: string, n = 1): void {
    if (n) this.totals.set(countable, (this.totals.get(countable) ?? 0) + n);
  }

  /** Write every RBBM_PERFCTR_<block>[i] from its select register (before register reads). */
  sync(h: PerfHost): void {
    if (h.gen !== 'a6xx') return;
    for (const b of BLOCKS) {
      const sel0 = h.regsDb.reg(`${b.sel}[0]`);
      const ctr0 = h.regsDb.reg(`${b.ctr}[0]`);
      for (let i = 0; i < b.count; i++) {
        const name = enumName(b.countables, h.readReg(sel0 + i), h.gen);
        const v = (name && this.totals.get(name)) || 0;
        h.setReg(ctr0 + 2 * i, v >>> 0);
        h.setReg(ctr0 + 2 * i + 1, Math.floor(v / 2 ** 32) >>> 0);
      }
    }
  }
}
