/**
 * Scalar ALU semantics (SOP1, SOP2, SOPK, SOPC, SOPP): pure functions of the wave's scalar state.
 * Each family helper binds operands once and returns a handler; results go through swrite32/64 so
 * the register-file rules (TTMP privilege, NULL, forced alignment) hold everywhere, and SCC is
 * only updated when the destination write was accepted.
 */
import type { Instruction } from '../isa/types.js';
import type { Wave } from '../wave/wave.js';
import { SREG } from '../wave/wave.js';
import type { ExecEnv } from './env.js';
import { define } from './registry.js';
import { HI, sread32, sread64, swrite32, swrite64 } from './operands.js';

/** SCC a SALU function produced (-1: SCC unchanged). Set by the op functions, read by the wrappers. */
let SCC = -1;
/** High dword of a 64-bit SALU result. */
let RHI = 0;

const f = (inst: Instruction, name: string): number => inst.fields[name] ?? 0;

/** SOP2 with 32-bit operands and result. */
export function sop2(names: string | string[], fn: (a: number, b: number, w: Wave) => number): void {
  define(names, (inst) => {
    const A = sread32(f(inst, 'ssrc0'), inst.literal);
    const B = sread32(f(inst, 'ssrc1'), inst.literal);
    const d = f(inst, 'sdst');
    return {
      cls: 'salu',
      run: (w) => {
        SCC = -1;
        const r = fn(A(w), B(w), w);
        if (swrite32(w, d, r >>> 0) && SCC >= 0) w.scc = SCC;
      },
    };
  });
}

/** SOP2 with 64-bit operands and a 64-bit result (lo returned, hi in RHI). `b32` marks a 32-bit second operand (shift counts). */
export function sop2x64(names: string | string[], fn: (alo: number, ahi: number, blo: number, bhi: number, w: Wave) => number, b32 = false): void {
  define(names, (inst) => {
    const A = sread64(f(inst, 'ssrc0'), inst.literal);
    const B = b32 ? sread32(f(inst, 'ssrc1'), inst.literal) : sread64(f(inst, 'ssrc1'), inst.literal);
    const d = f(inst, 'sdst');
    return {
      cls: 'salu',
      run: (w) => {
        SCC = -1;
        const alo = A(w);
        const ahi = HI[0]!;
        const blo = B(w);
        const bhi = b32 ? 0 : HI[0]!;
        const lo = fn(alo, ahi, blo, bhi, w);
        if (swrite64(w, d, lo >>> 0, RHI >>> 0) && SCC >= 0) w.scc = SCC;
      },
    };
  });
}

/** SOP1 with a 32-bit source and result. */
export function sop1(names: string | string[], fn: (a: number, w: Wave, d: number) => number): void {
  define(names, (inst) => {
    const A = sread32(f(inst, 'ssrc0'), inst.literal);
    const d = f(inst, 'sdst');
    return {
      cls: 'salu',
      run: (w) => {
        SCC = -1;
        const r = fn(A(w), w, d);
        if (swrite32(w, d, r >>> 0) && SCC >= 0) w.scc = SCC;
      },
    };
  });
}

/** SOP1 with a 64-bit source; `out32` when the result is 32-bit (e.g. s_bcnt1_i32_b64). */
export function sop1x64(names: string | string[], fn: (lo: number, hi: number, w: Wave) => number, out32 = false): void {
  define(names, (inst) => {
    const A = sread64(f(inst, 'ssrc0'), inst.literal);
    const d = f(inst, 'sdst');
    return {
      cls: 'salu',
      run: (w) => {
        SCC = -1;
        const lo = A(w);
        const r = fn(lo, HI[0]!, w);
        const ok = out32 ? swrite32(w, d, r >>> 0) : swrite64(w, d, r >>> 0, RHI >>> 0);
        if (ok && SCC >= 0) w.scc = SCC;
      },
    };
  });
}

/** SOPC compare of two 32-bit operands: SCC = fn(a, b). */
export function sopc(names: string | string[], fn: (a: number, b: number) => boolean): void {
  define(names, (inst) => {
    const A = sread32(f(inst, 'ssrc0'), inst.literal);
    const B = sread32(f(inst, 'ssrc1'), inst.literal);
    return { cls: 'salu', run: (w) => void (w.scc = fn(A(w), B(w)) ? 1 : 0) };
  });
}

const nz = (x: number) => ((x >>> 0) !== 0 ? 1 : 0);
const nz64 = (lo: number, hi: number) => ((lo >>> 0) !== 0 || (hi >>> 0) !== 0 ? 1 : 0);

// ---- SOP2 32-bit
sop2('s_add_u32', (a, b) => {
  const r = a + b;
  SCC = r > 0xffffffff ? 1 : 0;
  return r;
});
sop2('s_sub_u32', (a, b) => {
  SCC = b > a ? 1 : 0;
  return a - b;
});
sop2('s_addc_u32', (a, b, w) => {
  const r = a + b + w.scc;
  SCC = r > 0xffffffff ? 1 : 0;
  return r;
});
sop2('s_subb_u32', (a, b, w) => {
  SCC = b + w.scc > a ? 1 : 0;
  return a - b - w.scc;
});
sop2('s_add_i32', (a, b) => {
  const r = (a | 0) + (b | 0);
  SCC = r > 0x7fffffff || r < -0x80000000 ? 1 : 0;
  return r;
});
sop2('s_sub_i32', (a, b) => {
  const r = (a | 0) - (b | 0);
  SCC = r > 0x7fffffff || r < -0x80000000 ? 1 : 0;
  return r;
});
sop2('s_min_i32', (a, b) => ((SCC = (a | 0) < (b | 0) ? 1 : 0), SCC ? a : b));
sop2('s_min_u32', (a, b) => ((SCC = a < b ? 1 : 0), SCC ? a : b));
sop2('s_max_i32', (a, b) => ((SCC = (a | 0) > (b | 0) ? 1 : 0), SCC ? a : b));
sop2('s_max_u32', (a, b) => ((SCC = a > b ? 1 : 0), SCC ? a : b));
sop2('s_and_b32', (a, b) => ((SCC = nz(a & b)), a & b));
sop2('s_or_b32', (a, b) => ((SCC = nz(a | b)), a | b));
sop2('s_xor_b32', (a, b) => ((SCC = nz(a ^ b)), a ^ b));
sop2('s_nand_b32', (a, b) => ((SCC = nz(~(a & b))), ~(a & b)));
sop2('s_nor_b32', (a, b) => ((SCC = nz(~(a | b))), ~(a | b)));
sop2('s_xnor_b32', (a, b) => ((SCC = nz(~(a ^ b))), ~(a ^ b)));
sop2('s_and_not1_b32', (a, b) => ((SCC = nz(a & ~b)), a & ~b));
sop2('s_or_not1_b32', (a, b) => ((SCC = nz(a | ~b)), a | ~b));
sop2('s_lshl_b32', (a, b) => ((SCC = nz(a << (b & 31))), a << (b & 31)));
sop2('s_lshr_b32', (a, b) => ((SCC = nz(a >>> (b & 31))), a >>> (b & 31)));
sop2('s_ashr_i32', (a, b) => ((SCC = nz(a >> (b & 31))), a >> (b & 31)));
for (const n of [1, 2, 3, 4]) {
  sop2(`s_lshl${n}_add_u32`, (a, b) => {
    const r = (a << n >>> 0) + b;
    SCC = r > 0xffffffff || a >>> (32 - n) !== 0 ? 1 : 0;
    return r;
  });
}
sop2('s_mul_i32', (a, b) => Math.imul(a, b));
sop2('s_mul_hi_u32', (a, b) => mulhiU32(a, b));
sop2('s_mul_hi_i32', (a, b) => mulhiI32(a, b));
sop2('s_bfm_b32', (a, b) => ((1 << (a & 31)) - 1) << (b & 31));
sop2('s_bfe_u32', (a, b) => {
  const off = b & 31;
  const w = (b >>> 16) & 0x7f;
  const r = w === 0 ? 0 : w >= 32 ? a >>> off : (a >>> off) & ((1 << w) - 1) >>> 0;
  SCC = nz(r);
  return r;
});
sop2('s_bfe_i32', (a, b) => {
  const off = b & 31;
  const w = (b >>> 16) & 0x7f;
  const r = w === 0 ? 0 : w >= 32 ? a >> off : ((a >>> off) << (32 - w)) >> (32 - w);
  SCC = nz(r);
  return r;
});
sop2('s_cselect_b32', (a, b, w) => (w.scc ? a : b));
sop2('s_absdiff_i32', (a, b) => {
  const r = Math.abs((a | 0) - (b | 0));
  SCC = nz(r);
  return r;
});
sop2('s_pack_ll_b32_b16', (a, b) => (a & 0xffff) | (b << 16));
sop2('s_pack_lh_b32_b16', (a, b) => (a & 0xffff) | (b & 0xffff0000));
sop2('s_pack_hh_b32_b16', (a, b) => (a >>> 16) | (b & 0xffff0000));
sop2('s_pack_hl_b32_b16', (a, b) => (a >>> 16) | (b << 16));

// ---- SOP2 64-bit
sop2x64('s_and_b64', (al, ah, bl, bh) => ((RHI = ah & bh), (SCC = nz64(al & bl, RHI)), al & bl));
sop2x64('s_or_b64', (al, ah, bl, bh) => ((RHI = ah | bh), (SCC = nz64(al | bl, RHI)), al | bl));
sop2x64('s_xor_b64', (al, ah, bl, bh) => ((RHI = ah ^ bh), (SCC = nz64(al ^ bl, RHI)), al ^ bl));
sop2x64('s_nand_b64', (al, ah, bl, bh) => ((RHI = ~(ah & bh)), (SCC = nz64(~(al & bl), RHI)), ~(al & bl)));
sop2x64('s_nor_b64', (al, ah, bl, bh) => ((RHI = ~(ah | bh)), (SCC = nz64(~(al | bl), RHI)), ~(al | bl)));
sop2x64('s_xnor_b64', (al, ah, bl, bh) => ((RHI = ~(ah ^ bh)), (SCC = nz64(~(al ^ bl), RHI)), ~(al ^ bl)));
sop2x64('s_and_not1_b64', (al, ah, bl, bh) => ((RHI = ah & ~bh), (SCC = nz64(al & ~bl, RHI)), al & ~bl));
sop2x64('s_or_not1_b64', (al, ah, bl, bh) => ((RHI = ah | ~bh), (SCC = nz64(al | ~bl, RHI)), al | ~bl));
sop2x64('s_cselect_b64', (al, ah, bl, bh, w) => ((RHI = w.scc ? ah : bh), w.scc ? al : bl));
sop2x64('s_lshl_b64', (al, ah, b) => {
  const s = b & 63;
  let lo: number;
  if (s === 0) (lo = al), (RHI = ah);
  else if (s < 32) (lo = al << s), (RHI = (ah << s) | (al >>> (32 - s)));
  else (lo = 0), (RHI = al << (s - 32));
  SCC = nz64(lo, RHI);
  return lo;
}, true);
sop2x64('s_lshr_b64', (al, ah, b) => {
  const s = b & 63;
  let lo: number;
  if (s === 0) (lo = al), (RHI = ah);
  else if (s < 32) (lo = (al >>> s) | (ah << (32 - s))), (RHI = ah >>> s);
  else (lo = ah >>> (s - 32)), (RHI = 0);
  SCC = nz64(lo, RHI);
  return lo;
}, true);
sop2x64('s_ashr_i64', (al, ah, b) => {
  const s = b & 63;
  let lo: number;
  if (s === 0) (lo = al), (RHI = ah);
  else if (s < 32) (lo = (al >>> s) | (ah << (32 - s))), (RHI = ah >> s);
  else (lo = ah >> (s - 32)), (RHI = ah >> 31);
  SCC = nz64(lo, RHI);
  return lo;
}, true);

// ---- SOP1
sop1('s_mov_b32', (a) => a);
sop1('s_cmov_b32', (a, w, d) => (w.scc ? a : w.s[d]!));
sop1('s_not_b32', (a) => ((SCC = nz(~a)), ~a));
sop1('s_brev_b32', (a) => brev32(a));
sop1('s_ctz_i32_b32', (a) => (a === 0 ? -1 : 31 - Math.clz32(a & -a)));
sop1('s_clz_i32_u32', (a) => (a === 0 ? -1 : Math.clz32(a)));
sop1('s_bcnt1_i32_b32', (a) => ((SCC = nz(popcnt(a))), popcnt(a)));
sop1('s_bcnt0_i32_b32', (a) => ((SCC = nz(32 - popcnt(a))), 32 - popcnt(a)));
sop1('s_sext_i32_i8', (a) => (a << 24) >> 24);
sop1('s_sext_i32_i16', (a) => (a << 16) >> 16);
sop1('s_abs_i32', (a) => {
  const r = Math.abs(a | 0);
  SCC = nz(r);
  return r;
});
sop1x64('s_mov_b64', (lo, hi) => ((RHI = hi), lo));
sop1x64('s_cmov_b64', (lo, hi, w) => (w.scc ? ((RHI = hi), lo) : ((RHI = HI[0]!), lo)));
sop1x64('s_not_b64', (lo, hi) => ((RHI = ~hi), (SCC = nz64(~lo, ~hi)), ~lo));
sop1x64('s_ctz_i32_b64', (lo, hi) => (lo !== 0 ? 31 - Math.clz32(lo & -lo) : hi !== 0 ? 63 - Math.clz32(hi & -hi) : -1), true);
sop1x64('s_bcnt1_i32_b64', (lo, hi) => {
  const r = popcnt(lo) + popcnt(hi);
  SCC = nz(r);
  return r;
}, true);

/** s_<op>_saveexec: save EXEC to SDST, then EXEC = op(src, EXEC); SCC = EXEC != 0. */
function saveexec(name: string, op: (s: number, e: number) => number): void {
  define(`s_${name}_saveexec_b32`, (inst) => {
    const A = sread32(f(inst, 'ssrc0'), inst.literal);
    const d = f(inst, 'sdst');
    return {
      cls: 'salu',
      run: (w) => {
        const a = A(w);
        const e = w.s[SREG.EXEC_LO]!;
        swrite32(w, d, e); // EXEC is written even if SDST is out of range
        const r = op(a, e) >>> 0;
        w.s[SREG.EXEC_LO] = r;
        w.scc = nz(r);
      },
    };
  });
  define(`s_${name}_saveexec_b64`, (inst) => {
    const A = sread64(f(inst, 'ssrc0'), inst.literal);
    const d = f(inst, 'sdst');
    return {
      cls: 'salu',
      run: (w) => {
        const al = A(w);
        const ah = HI[0]!;
        const el = w.s[SREG.EXEC_LO]!;
        const eh = w.s[SREG.EXEC_HI]!;
        swrite64(w, d, el, eh);
        const rl = op(al, el) >>> 0;
        const rh = op(ah, eh) >>> 0;
        w.s[SREG.EXEC_LO] = rl;
        w.s[SREG.EXEC_HI] = rh;
        w.scc = nz64(rl, rh);
      },
    };
  });
}
saveexec('and', (s, e) => s & e);
saveexec('or', (s, e) => s | e);
saveexec('xor', (s, e) => s ^ e);
saveexec('nand', (s, e) => ~(s & e));
saveexec('nor', (s, e) => ~(s | e));
saveexec('xnor', (s, e) => ~(s ^ e));
saveexec('and_not0', (s, e) => ~s & e);
saveexec('or_not0', (s, e) => ~s | e);
saveexec('and_not1', (s, e) => s & ~e);
saveexec('or_not1', (s, e) => s | ~e);

// ---- SOPC
sopc('s_cmp_eq_u32', (a, b) => a === b);
sopc('s_cmp_lg_u32', (a, b) => a !== b);
sopc('s_cmp_gt_u32', (a, b) => a > b);
sopc('s_cmp_ge_u32', (a, b) => a >= b);
sopc('s_cmp_lt_u32', (a, b) => a < b);
sopc('s_cmp_le_u32', (a, b) => a <= b);
sopc('s_cmp_eq_i32', (a, b) => a === b);
sopc('s_cmp_lg_i32', (a, b) => a !== b);
sopc('s_cmp_gt_i32', (a, b) => (a | 0) > (b | 0));
sopc('s_cmp_ge_i32', (a, b) => (a | 0) >= (b | 0));
sopc('s_cmp_lt_i32', (a, b) => (a | 0) < (b | 0));
sopc('s_cmp_le_i32', (a, b) => (a | 0) <= (b | 0));
sopc('s_bitcmp0_b32', (a, b) => ((a >>> (b & 31)) & 1) === 0);
sopc('s_bitcmp1_b32', (a, b) => ((a >>> (b & 31)) & 1) === 1);
define(['s_cmp_eq_u64', 's_cmp_lg_u64'], (inst) => {
  const A = sread64(f(inst, 'ssrc0'), inst.literal);
  const B = sread64(f(inst, 'ssrc1'), inst.literal);
  const eq = inst.mnemonic.startsWith('s_cmp_eq');
  return {
    cls: 'salu',
    run: (w) => {
      const al = A(w);
      const ah = HI[0]!;
      const bl = B(w);
      const same = al === bl && ah === HI[0]!;
      w.scc = same === eq ? 1 : 0;
    },
  };
});

// ---- SOPK
define('s_movk_i32', (inst) => {
  const d = f(inst, 'sdst');
  const v = (f(inst, 'simm16') << 16) >> 16;
  return { cls: 'salu', run: (w) => void swrite32(w, d, v >>> 0) };
});

// ---- helpers
export function popcnt(x: number): number {
  x = x - ((x >>> 1) & 0x55555555);
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (((x + (x >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

export function brev32(x: number): number {
  x = ((x >>> 1) & 0x55555555) | ((x & 0x55555555) << 1);
  x = ((x >>> 2) & 0x33333333) | ((x & 0x33333333) << 2);
  x = ((x >>> 4) & 0x0f0f0f0f) | ((x & 0x0f0f0f0f) << 4);
  x = ((x >>> 8) & 0x00ff00ff) | ((x & 0x00ff00ff) << 8);
  return ((x >>> 16) | (x << 16)) >>> 0;
}

/** High 32 bits of an unsigned 32x32 product, exactly (no BigInt). */
export function mulhiU32(a: number, b: number): number {
  const a0 = a & 0xffff, a1 = a >>> 16, b0 = b & 0xffff, b1 = b >>> 16;
  const lo = a0 * b0;
  const mid1 = a1 * b0;
  const mid2 = a0 * b1;
  const carry = ((lo >>> 16) + (mid1 & 0xffff) + (mid2 & 0xffff)) >>> 16;
  return (a1 * b1 + (mid1 >>> 16) + (mid2 >>> 16) + carry) >>> 0;
}

/** High 32 bits of a signed 32x32 product. */
export function mulhiI32(a: number, b: number): number {
  let hi = mulhiU32(a >>> 0, b >>> 0);
  if ((a | 0) < 0) hi -= b >>> 0;
  if ((b | 0) < 0) hi -= a >>> 0;
  return hi >>> 0;
}
