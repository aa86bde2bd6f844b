/**
 * Hardware registers behind s_getreg_b32 / s_setreg_b32 / s_setreg_imm32_b32 (GFX11 HW_REG ids,
 * the `hwreg(id, offset, size)` operand: id [5:0], offset [10:6], size-1 [15:11]).
 *
 * Each register has a reader (some are live views of other wave state: STATUS.SCC/EXECZ/VCCZ,
 * IB_STS counters, SHADER_CYCLES) and two write masks: the bits a user shader may write and the
 * bits only a trap handler (STATUS.PRIV=1) may write (wave-state seed: "some are read-only, some
 * writable, others only writable in the trap handler"). A write touching other bits keeps them and
 * reports `gfx11.hwreg.write-readonly` or `gfx11.hwreg.write-priv` once per instruction.
 *
 * Time model: `ExecEnv.now()` counts model shader clocks (one per issued wave-instruction);
 * SHADER_CYCLES is its low 20 bits and REALTIME runs at 100 MHz against a modelled 2.5 GHz shader
 * clock (25 shader clocks per REALTIME tick).
 */
import type { Wave } from '../wave/wave.js';
import { HWREG, SREG, STATUS } from '../wave/wave.js';
import type { ExecEnv } from '../engine/env.js';
import { LDS_ALLOC } from './lds-alloc.gen.js';
import { SQ_WAVE_GPR_ALLOC_GFX9, SQ_WAVE_GPR_ALLOC_GFX103, SQ_WAVE_GPR_ALLOC_GFX11 } from './sq-wave-regs.gen.js';

/** MODE register fields (RDNA3). */
export const MODE = {
  FP_ROUND: 0xf, FP_DENORM: 0xf0, DX10_CLAMP: 1 << 8, IEEE: 1 << 9, LOD_CLAMPED: 1 << 10,
  TRAP_AFTER_INST_EN: 1 << 11, EXCP_EN_SHIFT: 12, EXCP_EN: 0x1ff << 12, FP16_OVFL: 1 << 23, DISABLE_PERF: 1 << 27,
} as const;

/** Shader clocks per REALTIME tick (2.5 GHz modelled shader clock / 100 MHz REALTIME). */
export const CLOCKS_PER_REALTIME_TICK = 25;

export function realtime(env: ExecEnv): number {
  return Math.floor(env.now() / CLOCKS_PER_REALTIME_TICK);
}

export interface HwRegDesc {
  readonly name: string;
  /** Bits a user shader may write. */
  readonly user: number;
  /** Bits writable only with STATUS.PRIV=1 (in addition to `user`). */
  readonly priv: number;
  read(w: Wave, env: ExecEnv): number;
  /** Store the new full value (only the permitted bits differ from the current value). */
  write(w: Wave, v: number): void;
}

const stored = (id: number) => ({
  read: (w: Wave) => w.hw[id]!,
  write: (w: Wave, v: number) => void (w.hw[id] = v),
});
const readOnly = (name: string, read: (w: Wave, env: ExecEnv) => number): HwRegDesc => ({
  name, user: 0, priv: 0, read: (w, env) => read(w, env) >>> 0, write: () => {},
});

/** STATUS bits a trap handler may write (the rest are set by hardware). */
const STATUS_PRIV_WRITABLE = STATUS.SCC | STATUS.SPI_PRIO | STATUS.USER_PRIO | STATUS.PRIV | STATUS.TTRACE_EN |
  STATUS.EXPORT_RDY | STATUS.HALT | STATUS.TRAP | STATUS.SKIP_EXPORT | STATUS.PERF_EN | STATUS.COND_DBG_USER |
  STATUS.COND_DBG_SYS;

/**
 * GPR_ALLOC.VGPR_SIZE of the wave's generation (Mesa's SQ_WAVE_GPR_ALLOC: [13:8] on GFX9, [15:8] on
 * GFX10.3, [19:12] on GFX11): the VGPRs it was given in 4-VGPR units minus one, the unit AMD's
 * context-save trap handlers read on all three ("(vgpr_size + 1) * 4"). The bases and GFX9/GFX10.3's
 * SGPR_SIZE (a placement and an allocation the model does not keep) read 0.
 */
const GPR_ALLOC_FIELDS = { 9: SQ_WAVE_GPR_ALLOC_GFX9, 10: SQ_WAVE_GPR_ALLOC_GFX103, 11: SQ_WAVE_GPR_ALLOC_GFX11 } as const;

function gprAllocValue(w: Wave, env: ExecEnv): number {
  const [lo, hi] = GPR_ALLOC_FIELDS[env.space.gfx].VGPR_SIZE;
  return ((Math.max(1, Math.ceil(w.vgprs / 4)) - 1) & ((1 << (hi - lo + 1)) - 1)) << lo;
}

/**
 * LDS_ALLOC.LDS_SIZE of the wave's generation (lds-alloc.gen.ts): the LDS it was given, which the
 * launch rounded up to the generation's allocation block, in the unit the generation reports.
 */
function ldsAllocValue(w: Wave, env: ExecEnv): number {
  const g = LDS_ALLOC[env.space.gfx];
  const f = g.HWREG_LDS_SIZE;
  return (Math.ceil(w.lds.length / g.hwregLdsGranule) & ((1 << f.width) - 1)) << f.lo;
}

function readStatus(w: Wave): number {
  const s = w.hw[HWREG.STATUS]! & ~(STATUS.SCC | STATUS.EXECZ | STATUS.VCCZ);
  const execz = w.execZero() ? STATUS.EXECZ : 0;
  const vccz = w.s[SREG.VCC_LO] === 0 && (w.waveSize === 32 || w.s[SREG.VCC_HI] === 0) ? STATUS.VCCZ : 0;
  const novgprs = w.vgprsReleased ? STATUS.NO_VGPRS : 0;
  return (s | w.scc | execz | vccz | novgprs) >>> 0;
}

const hi48 = (hiDword: number) => (hiDword >>> 16) & 0xffff;

/** Descriptors by HW_REG id (undefined: not a GFX11 register; reads 0, writes are dropped). */
export const HWREGS: readonly (HwRegDesc | undefined)[] = (() => {
  const t: (HwRegDesc | undefined)[] = new Array(64).fill(undefined);
  t[HWREG.MODE] = { name: 'MODE', user: 0xffffffff, priv: 0, ...stored(HWREG.MODE) };
  t[HWREG.STATUS] = {
    name: 'STATUS', user: 0, priv: STATUS_PRIV_WRITABLE, read: readStatus,
    write: (w, v) => {
      w.hw[HWREG.STATUS] = v & ~(STATUS.EXECZ | STATUS.VCCZ);
      w.scc = v & 1;
    },
  };
  // TRAPSTS: "can be written by the user shader or the trap handler".
  t[HWREG.TRAPSTS] = { name: 'TRAPSTS', user: 0xffffffff, priv: 0, ...stored(HWREG.TRAPSTS) };
  // HW_ID1: WAVE_ID [4:0], SIMD_ID [9:8], WGP_ID [13:10], SA_ID [16], SE_ID [20:18] (a fixed placement by wave id).
  t[HWREG.HW_ID1] = readOnly('HW_ID1', (w) => (w.id & 15) | (((w.id >>> 4) & 3) << 8) | (((w.id >>> 6) & 15) << 10));
  // HW_ID2: QUEUE_ID [3:0], PIPE_ID [5:4], ME_ID [9:8], STATE_ID [14:12], WG_ID [20:16], VM_ID [27:24].
  t[HWREG.HW_ID2] = readOnly('HW_ID2', (w) => ((w.wgId[0] & 31) << 16) | (1 << 8) | (8 << 24));
  t[HWREG.GPR_ALLOC] = readOnly('GPR_ALLOC', gprAllocValue);
  t[HWREG.LDS_ALLOC] = readOnly('LDS_ALLOC', ldsAllocValue);
  // IB_STS: VM_CNT [3:0] (+[23:22]), EXP_CNT [6:4], LGKM_CNT [11:8], VS_CNT [31:26].
  t[HWREG.IB_STS] = readOnly('IB_STS', (w) => (w.vmcnt & 15) | ((w.expcnt & 7) << 4) | ((w.lgkmcnt & 15) << 8) |
    (((w.vmcnt >>> 4) & 3) << 22) | ((w.vscnt & 63) << 26));
  // SH_MEM_BASES: PRIVATE_BASE [15:0], SHARED_BASE [31:16] = aperture address bits [63:48].
  t[HWREG.SH_MEM_BASES] = readOnly('SH_MEM_BASES', (w) => hi48(w.s[SREG.PRIVATE_BASE]!) | (hi48(w.s[SREG.SHARED_BASE]!) << 16));
  // FLAT_SCRATCH: read-only except in the trap handler.
  t[HWREG.FLAT_SCR_LO] = {
    name: 'FLAT_SCR_LO', user: 0, priv: 0xffffffff, read: (w) => w.scratchBase >>> 0,
    write: (w, v) => void (w.scratchBase = Math.floor(w.scratchBase / 0x1_0000_0000) * 0x1_0000_0000 + (v >>> 0)),
  };
  t[HWREG.FLAT_SCR_HI] = {
    name: 'FLAT_SCR_HI', user: 0, priv: 0xffffffff, read: (w) => Math.floor(w.scratchBase / 0x1_0000_0000) >>> 0,
    write: (w, v) => void (w.scratchBase = (v >>> 0) * 0x1_0000_0000 + (w.scratchBase % 0x1_0000_0000)),
  };
  // POPS_PACKER: POPS_EN [0], POPS_PACKER_ID [2:1] (Mesa's SQ_WAVE_POPS_PACKER, GFX10.3 and GFX11): a
  // pixel shader selects its packer here before polling src_pops_exiting_wave_id (pops-exec.ts).
  t[HWREG.POPS_PACKER] = { name: 'POPS_PACKER', user: 0x7, priv: 0, ...stored(HWREG.POPS_PACKER) };
  t[HWREG.PERF_SNAPSHOT_PC_LO] = readOnly('PERF_SNAPSHOT_PC_LO', () => 0);
  t[HWREG.PERF_SNAPSHOT_PC_HI] = readOnly('PERF_SNAPSHOT_PC_HI', () => 0);
  t[HWREG.PERF_SNAPSHOT_DATA] = readOnly('PERF_SNAPSHOT_DATA', () => 0);
  t[HWREG.SHADER_CYCLES] = readOnly('SHADER_CYCLES', (_w, env) => env.now() & 0xfffff);
  return t;
})();

/** The hwreg(id, offset, size) fields of a simm16. */
export function hwregField(simm16: number): { id: number; offset: number; size: number; mask: number } {
  const id = simm16 & 0x3f;
  const offset = (simm16 >>> 6) & 0x1f;
  const size = ((simm16 >>> 11) & 0x1f) + 1;
  const width = Math.min(size, 32 - offset);
  const mask = (width >= 32 ? 0xffffffff : ((1 << width) - 1) << offset) >>> 0;
  return { id, offset, size, mask };
}
