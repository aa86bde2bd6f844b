/**
 * Semantics of instructions only GFX9 (gfx900) and GFX10.3 (gfx1030) have, for the ones GFX11
 * dropped (the rest run through the GFX11 table, see target/normalize.ts). Names that GFX11 also uses
 * with another meaning are registered with an `@pre11` suffix the normaliser appends.
 *
 * - v_mad_f32 / v_mac_f32 / v_madmk_f32 / v_madak_f32 (GFX9/GFX10): multiply-add that is NOT
 *   fused: the product is rounded to f32 (current rounding mode) before the add, and these ops do
 *   not support f32 denormals (inputs and the product flush to zero; LLVM only selects them when
 *   f32 denormals are flushed). v_mad_f16 / v_mac_f16 / v_madmk_f16 / v_madak_f16 (GFX9): the
 *   same with an f16 product.
 * - v_mad_legacy_f32 (GFX9): v_mad_f32 with DX9 multiply rules (0 * x = 0 for any x).
 * - v_clrexcp (GFX9/GFX10): clears SIMD-side exception state, which this model does not keep.
 * - v_dot4c_i32_i8 (GFX10.3 VOP2): D.i32 += sum of the four signed byte products of S0 and S1.
 * - v_subrev_u16 (GFX9): D.u16 = S1 - S0 (clamp saturates at 0).
 * - s_memtime / s_memrealtime (SMEM): a 64-bit shader-clock / REALTIME sample into SDATA, counted on
 *   LGKM_CNT like every SMEM instruction (GFX11 replaced them with s_getreg SHADER_CYCLES and
 *   s_sendmsg_rtn REALTIME).
 * - buffer_wbinvl1 / buffer_wbinvl1_vol (GFX9 MUBUF): L1 write-back/invalidate; no data effect on
 *   coherent memory, the vector L1 dropped under a cache model (ExecEnv.cacheHook, POPS draws).
 * - s_sendmsg / s_sendmsghalt (GFX9/GFX10 message ids, LLVM's SIDefines: 1 INTERRUPT, 2 GS,
 *   3 GS_DONE, 4 SAVEWAVE, 5 STALL_WAVE_GEN, 6 HALT_WAVES, 7 ORDERED_PS_DONE, 8 EARLY_PRIM_DEALLOC,
 *   9 GS_ALLOC_REQ, 10 GET_DOORBELL, 11 GET_DDID, 15 SYSMSG). GFX11's id 3 is DEALLOC_VGPRS, so the
 *   GFX11 binder cannot be reused. A compute wave's INTERRUPT/SAVEWAVE/STALL/HALT/GS_ALLOC_REQ
 *   change nothing here; any other id (a geometry or pixel message, or unknown) is reported as
 *   `gfx10.sendmsg.unknown` / `gfx9.sendmsg.unknown` and dropped.
 * - s_getreg_b32 of HW_REG_TBA_LO/HI, TMA_LO/HI (ids 16..19 on GFX9/GFX10): the trap base and trap
 *   memory addresses, readable by the trap handler (STATUS.PRIV=1); a user shader reads 0.
 * - s_getreg_b32 of GFX9's HW_ID (id 4), fields from Mesa's SQ_WAVE_HW_ID (sq-wave-regs.gen.ts),
 *   filled like hwreg.ts's HW_ID1/HW_ID2: WAVE_ID, SIMD_ID, CU_ID from the wave id, TG_ID from the
 *   workgroup id, ME_ID 1, VM_ID 8, the rest 0.
 * - s_setreg_b32 / s_setreg_imm32_b32 of HW_REG_FLAT_SCR_LO/HI (ids 20/21) on GFX10: a user shader
 *   sets its flat scratch base this way (GFX11 made them read-only outside the trap handler).
 */
import { define } from '../engine/registry.js';
import { fop, vop, fin, R, T0, T1, T2, TF0, TF1, TF2, MODE, ERR, type Shape } from './valu.js';
import type { ValuOperands } from './valu-core.js';
import { EXACT, f16, f32, roundF16, roundF32, twoSum } from '../../core/float.js';
import { sread32, swrite32, swrite64 } from './operands.js';
import { HWREGS, hwregField, realtime } from './hwreg.js';
import { SQ_WAVE_HW_ID_GFX9 } from './sq-wave-regs.gen.js';
import type { Instruction } from '../isa/types.js';
import type { Wave } from '../wave/wave.js';
import type { ExecEnv } from '../engine/env.js';
import { once } from './salu.js';
import { HWREG, STATUS } from '../wave/wave.js';
import { popsAttached, popsSendmsg } from './pops-exec.js';
import { messageSinks, sendToSink } from './msg.js';
import { cacheInvalidate } from '../engine/cache-hook.js';

const F32x3: Shape = { srcs: ['f32', 'f32', 'f32'], dst: 'f32' };
const F32x2: Shape = { srcs: ['f32', 'f32'], dst: 'f32' };
const F16x3: Shape = { srcs: ['f16', 'f16', 'f16'], dst: 'f16' };
const F16x2: Shape = { srcs: ['f16', 'f16'], dst: 'f16' };

/** D = S0 * K + S1 (K the literal). */
const remapMK = (o: ValuOperands): ValuOperands => ({ ...o, src: [o.src[0]!, 255, o.src[1]!] });
/** D = S0 * S1 + K. */
const remapAK = (o: ValuOperands): ValuOperands => ({ ...o, src: [o.src[0]!, o.src[1]!, 255] });

const TINY32 = 2 ** -126;
const ftz32 = (x: number) => (x !== 0 && Math.abs(x) < TINY32 ? (x < 0 ? -0 : 0) : x);

/** The f32 product of a legacy MAD: inputs and result flushed, rounded in the current mode. */
function madProduct32(a: number, b: number): number {
  return ftz32(f32(roundF32(ftz32(a) * ftz32(b), 0, MODE.rm32)));
}
/** a + b exactly (remainder to the result rounding through ERR). */
function sum(a: number, b: number): number {
  const s = twoSum(a, b);
  ERR[0] = EXACT[0]!;
  ERR[1] = EXACT[1]!;
  return s;
}
const mad32 = (n: number) => {
  for (let l = 0; l < n; l++) fin(l, sum(madProduct32(TF0[l]!, TF1[l]!), ftz32(TF2[l]!)));
};
fop('v_mad_f32', F32x3, mad32);
// GFX9 V_MAD_LEGACY_F32: the same MAD with DX9 multiply rules (0 * anything = 0, even inf/NaN).
fop('v_mad_legacy_f32', F32x3, (n) => {
  for (let l = 0; l < n; l++) {
    const a = ftz32(TF0[l]!), b = ftz32(TF1[l]!);
    fin(l, sum(a === 0 || b === 0 ? 0 : madProduct32(a, b), ftz32(TF2[l]!)));
  }
});
// V_CLREXCP: "clear wave's exception state in SIMD". The model keeps no SIMD-side exception state
// (an exception is raised into TRAPSTS by the instruction that causes it), so nothing is pending.
define('v_clrexcp', () => ({ cls: 'valu', run: () => {} }));
fop('v_mac_f32', F32x2, mad32, { accum: true });
fop('v_madmk_f32', F32x3, mad32, { remap: remapMK });
fop('v_madak_f32', F32x3, mad32, { remap: remapAK });

/** The f16 product of MAD_F16, rounded to f16 in the current f16/f64 rounding mode. */
const madProduct16 = (l: number) => f16(roundF16(f16(T0[l]! & 0xffff) * f16(T1[l]! & 0xffff), 0, MODE.rm64));
const mad16 = (n: number) => {
  for (let l = 0; l < n; l++) fin(l, sum(madProduct16(l), f16(T2[l]! & 0xffff)));
};
fop('v_mad_f16', F16x3, mad16);
fop('v_mac_f16', F16x2, mad16, { accum: true });
fop('v_madmk_f16', F16x3, mad16, { remap: remapMK });
fop('v_madak_f16', F16x3, mad16, { remap: remapAK });

vop('v_dot4c_i32_i8', { srcs: ['b32', 'b32'], dst: 'b32' }, (n) => {
  for (let l = 0; l < n; l++) {
    const a = T0[l]!;
    const b = T1[l]!;
    let s = T2[l]! | 0;
    for (let k = 0; k < 32; k += 8) s += ((a << (24 - k)) >> 24) * ((b << (24 - k)) >> 24);
    R[l] = s >>> 0;
  }
}, { accum: true });

vop('v_subrev_u16', { srcs: ['b16', 'b16'], dst: 'b16' }, (n) => {
  for (let l = 0; l < n; l++) {
    const x = T1[l]! - T0[l]!;
    R[l] = (MODE.clamp && x < 0 ? 0 : x) & 0xffff;
  }
});

const LGKM_MAX = 63;
define(['s_memtime', 's_memrealtime'], (inst, env) => {
  const d = inst.fields.sdata ?? 0;
  const real = inst.mnemonic === 's_memrealtime';
  return {
    cls: 'smem',
    run: (w) => {
      const t = real ? realtime(env) : env.now();
      swrite64(w, d, t >>> 0, Math.floor(t / 0x1_0000_0000) >>> 0);
      if (w.lgkmcnt < LGKM_MAX) w.lgkmcnt++;
    },
  };
});

// GFX9's vector L1 (the CU's cache, write-through): invalidated for a cache model (POPS draws).
define(['buffer_wbinvl1', 'buffer_wbinvl1_vol'], (_i, e) => ({ cls: 'vmem', run: cacheInvalidate(e, 0) }));

/**
 * Messages a wave may send on GFX9/GFX10 that change nothing else in this model; 7 is
 * ORDERED_PS_DONE, which a POPS pixel-shader wave sends to leave its ordered section (pops-exec.ts).
 */
const QUIET_PRE11 = new Set([1, 4, 5, 6, 7, 9]);
for (const halt of [false, true]) {
  define(halt ? 's_sendmsghalt@pre11' : 's_sendmsg@pre11', (inst, env) => {
    const id = (inst.fields.simm16 ?? 0) & 0xf;
    const gen = env.space.gfx === 9 ? 'gfx9' : 'gfx10';
    const findings = QUIET_PRE11.has(id) ? [] : [{ id: `${gen}.sendmsg.unknown`, message: `${inst.mnemonic}: message id ${id} is not a compute-wave message on ${gen.toUpperCase()}; it is dropped` }];
    const halted = once(env, inst, `${gen}.wave.halted`, 'error');
    return {
      cls: 'msg', findings,
      run: (w) => {
        if (!halt && messageSinks.any) sendToSink(w, inst.fields.simm16 ?? 0, w.pc - inst.size);
        if (id === 7 && popsAttached.any) popsSendmsg(w, id, w.pc - inst.size);
        if (!halt) return;
        halted(w, 'the wave halts after sending its message; nothing resumes it without a debugger');
        w.hw[HWREG.STATUS] = (w.hw[HWREG.STATUS]! | STATUS.HALT) >>> 0;
        w.haltReason = 's_sendmsghalt';
        w.state = 'halted';
      },
    };
  });
}

define('s_getreg_b32@tbatma', (inst) => {
  const { id, offset, mask } = hwregField(inst.fields.simm16 ?? 0);
  const d = inst.fields.sdst ?? 0;
  const hi = (id & 1) === 1;
  const tma = id >= 18;
  return {
    cls: 'salu',
    run: (w) => {
      const a = tma ? w.tma : w.tba;
      const v = hi ? Math.floor(a / 0x1_0000_0000) >>> 0 : a >>> 0;
      swrite32(w, d, w.priv ? ((v & mask) >>> offset) >>> 0 : 0);
    },
  };
});

/** A field value placed at its [lo, hi] range. */
const put = (f: readonly [number, number], v: number): number => ((v & ((1 << (f[1] - f[0] + 1)) - 1)) << f[0]) >>> 0;

define('s_getreg_b32@hwid9', (inst) => {
  const { offset, mask } = hwregField(inst.fields.simm16 ?? 0);
  const d = inst.fields.sdst ?? 0;
  const F = SQ_WAVE_HW_ID_GFX9;
  return {
    cls: 'salu',
    run: (w) => {
      const v = (put(F.WAVE_ID, w.id) | put(F.SIMD_ID, w.id >>> 4) | put(F.CU_ID, w.id >>> 6) | put(F.TG_ID, w.wgId[0]!) |
        put(F.VM_ID, 8) | put(F.ME_ID, 1)) >>> 0;
      swrite32(w, d, ((v & mask) >>> offset) >>> 0);
    },
  };
});

function setFlatScr(inst: Instruction, env: ExecEnv, value: (w: Wave) => number) {
  const { id, offset, mask } = hwregField(inst.fields.simm16 ?? 0);
  const reg = HWREGS[id]!;
  return {
    cls: 'salu' as const,
    run: (w: Wave) => {
      const cur = reg.read(w, env);
      reg.write(w, ((cur & ~mask) | ((value(w) << offset) & mask)) >>> 0);
    },
  };
}
define('s_setreg_b32@flatscr', (inst, env) => setFlatScr(inst, env, sread32(inst.fields.sdst ?? 0, undefined)));
define('s_setreg_imm32_b32@flatscr', (inst, env) => {
  const lit = (inst.literal ?? 0) >>> 0;
  return setFlatScr(inst, env, () => lit);
});
