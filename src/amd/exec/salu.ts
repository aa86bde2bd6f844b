/**
 * Scalar ALU semantics (SOP1, SOP2, SOPK, SOPC, SOPP): pure functions of the wave's scalar state.
 * Each family helper binds operands once and returns a handler; results go through swrite32/64 so
 * the register-file rules (TTMP privilege, NULL, forced alignment) hold everywhere, and SCC is
 * only updated when the destination write was accepted.
 */
import type { Instruction } from '../isa/types.js';
import type { Wave } from '../wave/wave.js';
import { HWREG, SREG } from '../wave/wave.js';
import type { ExecEnv } from '../engine/env.js';
import { OncePerDispatch, WAVE_STATE_SEED } from '../engine/env.js';
import { define, type Binder, type Finding } from '../engine/registry.js';
import { HI, sread32, sread64, swrite32, swrite64 } from './operands.js';
import { HWREGS, hwregField } from './hwreg.js';
import { popsAttached, popsSetreg } from './pops-exec.js';
import { SALU_OPS, SAVEEXEC_OPS, type SaluHelpers, type SaluOp } from './salu-ops.js';

/** Operand description of a generated scalar opcode-table entry (`inst.info`). */
interface ScalarInfo {
  readonly operands?: readonly { readonly field: string; readonly kind: string; readonly dwords?: number }[];
}

/** A diagnostic reported once per instruction and dispatch (the first time its condition holds at run time). */
export function once(env: ExecEnv, inst: Instruction, id: string, severity: 'error' | 'warning' = 'warning'): (w: Wave, message: string) => void {
  const once = new OncePerDispatch(env);
  return (w, message) => {
    if (!once.due) return;
    once.fire();
    env.diag.report({ id, severity, where: { pc: w.pc - inst.size, wave: w.id }, message: `${inst.mnemonic}: ${message}`, seed: WAVE_STATE_SEED });
  };
}

/**
 * Register-file rules every scalar instruction shares, added around its binder:
 * - gfx11.sgpr.misaligned (bind time): a 64-bit SGPR operand on an odd register (the hardware
 *   ignores the LSB, so it reads/writes the even pair: unpredictable per the ISA);
 * - gfx11.ttmp.write-user (run time): a write to a TTMP while STATUS.PRIV=0 (ignored, and the
 *   instruction leaves SCC alone).
 */
export function sdefine(names: string | readonly string[], binder: Binder): void {
  define(names, (inst, env) => {
    const b = binder(inst, env);
    const findings: Finding[] = [...(b.findings ?? [])];
    let ttmpDst = -1;
    for (const o of (inst.info as ScalarInfo | undefined)?.operands ?? []) {
      const enc = inst.fields[o.field];
      if (enc === undefined || (o.kind !== 'sreg' && o.kind !== 'ssrc')) continue;
      if ((o.dwords ?? 1) >= 2 && enc < SREG.NULL && (enc & 1) === 1) {
        findings.push({ id: 'gfx11.sgpr.misaligned', message: `${inst.mnemonic}: ${o.field} s${enc} of a ${(o.dwords ?? 2) * 32}-bit operand is odd; the hardware ignores the LSB and uses s${enc - 1} (unpredictable per the ISA)` });
      }
      if (o.field === 'sdst' && o.kind === 'sreg' && enc >= SREG.TTMP0 && enc <= SREG.TTMP15 && !NO_WRITE.has(baseName(inst))) ttmpDst = enc;
    }
    if (ttmpDst < 0) return findings.length > 0 ? { ...b, findings } : b;
    const report = once(env, inst, 'gfx11.ttmp.write-user');
    const run = b.run;
    const t = ttmpDst - SREG.TTMP0;
    return {
      cls: b.cls, findings,
      run: (w) => {
        if (!w.priv) report(w, `ttmp${t} is only writable in a trap handler (STATUS.PRIV=1); the write is ignored and SCC is unchanged`);
        run(w);
      },
    };
  });
}

/** Scalar instructions whose `sdst` field is a source (compares, s_setreg, waits): no TTMP write. */
const NO_WRITE = new Set(['s_cmpk_eq_i32', 's_cmpk_lg_i32', 's_cmpk_gt_i32', 's_cmpk_ge_i32', 's_cmpk_lt_i32', 's_cmpk_le_i32',
  's_cmpk_eq_u32', 's_cmpk_lg_u32', 's_cmpk_gt_u32', 's_cmpk_ge_u32', 's_cmpk_lt_u32', 's_cmpk_le_u32', 's_setreg_b32',
  's_waitcnt_vscnt', 's_waitcnt_vmcnt', 's_waitcnt_expcnt', 's_waitcnt_lgkmcnt']);
const baseName = (inst: Instruction) => inst.mnemonic;

/** SCC a SALU function produced (-1: SCC unchanged). Set by the op functions, read by the wrappers. */
let SCC = -1;
/** High dword of a 64-bit SALU result. */
let RHI = 0;

const f = (inst: Instruction, name: string): number => inst.fields[name] ?? 0;

/** SOP2 with 32-bit operands and result. */
export function sop2(names: string | string[], fn: (a: number, b: number, w: Wave) => number): void {
  sdefine(names, (inst) => {
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
  sdefine(names, (inst) => {
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
  sdefine(names, (inst) => {
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
  sdefine(names, (inst) => {
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

const nz = (x: number) => ((x >>> 0) !== 0 ? 1 : 0);
const nz64 = (lo: number, hi: number) => ((lo >>> 0) !== 0 || (hi >>> 0) !== 0 ? 1 : 0);

/**
 * The ops of salu-ops.ts (the description the fast tier inlines too), each compiled once at load
 * into `fn(a, ah, b, bh, w)`: returns `r`, leaves `rh` in RES[0] and `c` in RES[1].
 */
const RES = new Uint32Array(2);
const SALU_HELPERS: SaluHelpers = { mulhiU32: 'mulhiU32' };
function saluFn(name: string, op: SaluOp): (a: number, ah: number, b: number, bh: number, w: Wave) => number {
  const src = `return function ${name}(a, ah, b, bh, w) { let r = 0, rh = 0, c = false; ${op.body(SALU_HELPERS)} RES[0] = rh; RES[1] = c ? 1 : 0; return r; };`;
  return new Function('mulhiU32', 'RES', src)(mulhiU32, RES) as (a: number, ah: number, b: number, bh: number, w: Wave) => number;
}
for (const [name, op] of SALU_OPS) {
  // Compiled at the op's first bind (at load, the ~70 `new Function`s took ~2-3 ms of every start).
  let fn: ReturnType<typeof saluFn> | null = null;
  sdefine(name, (inst) => {
    const lf = (fn ??= saluFn(name, op));
    const A = op.a64 ? sread64(f(inst, 'ssrc0'), inst.literal) : sread32(f(inst, 'ssrc0'), inst.literal);
    const B = op.form === 'sop1' ? null : op.b64 ? sread64(f(inst, 'ssrc1'), inst.literal) : sread32(f(inst, 'ssrc1'), inst.literal);
    const d = f(inst, 'sdst');
    const { a64, b64, d64, scc } = op;
    if (op.form === 'sopc') {
      return {
        cls: 'salu',
        run: (w) => {
          const a = A(w);
          const ah = a64 ? HI[0]! : 0;
          const b = B!(w);
          lf(a, ah, b, b64 ? HI[0]! : 0, w);
          w.scc = RES[1]!;
        },
      };
    }
    return {
      cls: 'salu',
      run: (w) => {
        const a = A(w);
        const ah = a64 ? HI[0]! : 0;
        const b = B === null ? 0 : B(w);
        const r = lf(a, ah, b, b64 ? HI[0]! : 0, w);
        const ok = d64 ? swrite64(w, d, r >>> 0, RES[0]!) : swrite32(w, d, r >>> 0);
        if (ok && scc) w.scc = RES[1]!;
      },
    };
  });
}

// ---- SOP2 32-bit (the rest)
sop2('s_mul_hi_i32', (a, b) => mulhiI32(a, b));
sop2('s_bfm_b32', (a, b) => ((1 << (a & 31)) - 1) << (b & 31));
sop2('s_bfe_i32', (a, b) => {
  const off = b & 31;
  const w = (b >>> 16) & 0x7f;
  const r = w === 0 ? 0 : w >= 32 ? a >> off : ((a >>> off) << (32 - w)) >> (32 - w);
  SCC = nz(r);
  return r;
});
sop2('s_absdiff_i32', (a, b) => {
  const d = ((a | 0) - (b | 0)) | 0; // 32-bit wrap, then the absolute value of that
  const r = d < 0 ? -d | 0 : d;
  SCC = nz(r);
  return r;
});
sop2('s_pack_ll_b32_b16', (a, b) => (a & 0xffff) | (b << 16));
sop2('s_pack_lh_b32_b16', (a, b) => (a & 0xffff) | (b & 0xffff0000));
sop2('s_pack_hh_b32_b16', (a, b) => (a >>> 16) | (b & 0xffff0000));
sop2('s_pack_hl_b32_b16', (a, b) => (a >>> 16) | (b << 16));

// ---- SOP2 64-bit

// ---- SOP1
sdefine('s_cmov_b32', (inst) => {
  const A = sread32(f(inst, 'ssrc0'), inst.literal);
  const d = f(inst, 'sdst');
  return { cls: 'salu', run: (w) => void (w.scc && swrite32(w, d, A(w) >>> 0)) };
});
sop1('s_brev_b32', (a) => brev32(a));
sop1('s_ctz_i32_b32', (a) => (a === 0 ? -1 : 31 - Math.clz32(a & -a)));
// GFX9/GFX10 S_FF0_I32_B32/B64: the position of the first zero bit from the LSB, -1 when none.
sop1('s_ff0_i32_b32', (a) => { const z = ~a; return z === 0 ? -1 : 31 - Math.clz32(z & -z); });
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
sdefine('s_cmov_b64', (inst) => {
  const A = sread64(f(inst, 'ssrc0'), inst.literal);
  const d = f(inst, 'sdst');
  return { cls: 'salu', run: (w) => void (w.scc && swrite64(w, d, A(w) >>> 0, HI[0]! >>> 0)) };
});
sop1x64('s_ctz_i32_b64', (lo, hi) => (lo !== 0 ? 31 - Math.clz32(lo & -lo) : hi !== 0 ? 63 - Math.clz32(hi & -hi) : -1), true);
sop1x64('s_ff0_i32_b64', (lo, hi) => { const zl = ~lo, zh = ~hi; return zl !== 0 ? 31 - Math.clz32(zl & -zl) : zh !== 0 ? 63 - Math.clz32(zh & -zh) : -1; }, true);
sop1x64('s_bcnt1_i32_b64', (lo, hi) => {
  const r = popcnt(lo) + popcnt(hi);
  SCC = nz(r);
  return r;
}, true);

/** s_<op>_saveexec: save EXEC to SDST, then EXEC = op(src, EXEC); SCC = EXEC != 0. */
function saveexec(name: string, op: (s: number, e: number) => number): void {
  sdefine(`s_${name}_saveexec_b32`, (inst) => {
    const A = sread32(f(inst, 'ssrc0'), inst.literal);
    const d = f(inst, 'sdst');
    return {
      cls: 'salu',
      run: (w) => {
        const a = A(w);
        const e = w.s[SREG.EXEC_LO]!;
        const ok = swrite32(w, d, e); // EXEC is written even if SDST is out of range
        const r = op(a, e) >>> 0;
        w.s[SREG.EXEC_LO] = r;
        if (ok) w.scc = nz(r);
      },
    };
  });
  sdefine(`s_${name}_saveexec_b64`, (inst) => {
    const A = sread64(f(inst, 'ssrc0'), inst.literal);
    const d = f(inst, 'sdst');
    return {
      cls: 'salu',
      run: (w) => {
        const al = A(w);
        const ah = HI[0]!;
        const el = w.s[SREG.EXEC_LO]!;
        const eh = w.s[SREG.EXEC_HI]!;
        const ok = swrite64(w, d, el, eh);
        const rl = op(al, el) >>> 0;
        const rh = op(ah, eh) >>> 0;
        w.s[SREG.EXEC_LO] = rl;
        w.s[SREG.EXEC_HI] = rh;
        if (ok) w.scc = nz64(rl, rh);
      },
    };
  });
}
for (const [name, expr] of SAVEEXEC_OPS) saveexec(name, new Function('s', 'e', `return ${expr('s', 'e')};`) as (s: number, e: number) => number);

// ---- SOPC
sdefine(['s_cmp_eq_u64', 's_cmp_lg_u64'], (inst) => {
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
sdefine('s_movk_i32', (inst) => {
  const d = f(inst, 'sdst');
  const v = (f(inst, 'simm16') << 16) >> 16;
  return { cls: 'salu', run: (w) => void swrite32(w, d, v >>> 0) };
});

// ---- SOP1: the rest of the bit operations
sop1x64('s_brev_b64', (lo, hi) => ((RHI = brev32(lo)), brev32(hi)));
sop1x64('s_clz_i32_u64', (lo, hi) => (hi !== 0 ? Math.clz32(hi) : lo !== 0 ? 32 + Math.clz32(lo) : -1), true);
/** Leading bits equal to the sign bit, counting the sign bit itself; -1 when all bits are equal. */
sop1('s_cls_i32', (a) => {
  const x = (a ^ (a >> 31)) >>> 0;
  return x === 0 ? -1 : Math.clz32(x);
});
sop1x64('s_cls_i32_i64', (lo, hi) => {
  const sign = hi >> 31;
  const xh = (hi ^ sign) >>> 0;
  const xl = (lo ^ sign) >>> 0;
  return xh !== 0 ? Math.clz32(xh) : xl !== 0 ? 32 + Math.clz32(xl) : -1;
}, true);
sop1x64('s_bcnt0_i32_b64', (lo, hi) => {
  const r = 64 - popcnt(lo) - popcnt(hi);
  SCC = nz(r);
  return r;
}, true);
sop1('s_quadmask_b32', (a) => {
  const r = quadmask(a);
  SCC = nz(r);
  return r;
});
sop1x64('s_quadmask_b64', (lo, hi) => {
  RHI = 0;
  const r = quadmask(lo) | (quadmask(hi) << 8);
  SCC = nz(r);
  return r;
});
sop1('s_wqm_b32', (a) => {
  const r = wqm(a);
  SCC = nz(r);
  return r;
});
sop1x64('s_wqm_b64', (lo, hi) => {
  RHI = wqm(hi);
  const r = wqm(lo);
  SCC = nz64(r, RHI);
  return r;
});
sop1x64('s_bitreplicate_b64_b32', (lo) => {
  RHI = spread16(lo >>> 16) * 3;
  return spread16(lo & 0xffff) * 3;
});

/** s_bitset0/1: D[S0[4:0]] (b32) or D[S0[5:0]] (b64) = 0/1; the other bits of D are kept. */
function bitset(name: string, one: boolean, b64: boolean): void {
  sdefine(name, (inst) => {
    const A = sread32(f(inst, 'ssrc0'), inst.literal);
    const d = f(inst, 'sdst');
    const D = b64 ? sread64(d, undefined) : sread32(d, undefined);
    return {
      cls: 'salu',
      run: (w) => {
        const n = A(w) & (b64 ? 63 : 31);
        let lo = D(w);
        let hi = b64 ? HI[0]! : 0;
        if (n < 32) lo = one ? lo | (1 << n) : lo & ~(1 << n);
        else hi = one ? hi | (1 << (n - 32)) : hi & ~(1 << (n - 32));
        if (b64) swrite64(w, d, lo >>> 0, hi >>> 0);
        else swrite32(w, d, lo >>> 0);
      },
    };
  });
}
bitset('s_bitset0_b32', false, false);
bitset('s_bitset1_b32', true, false);
bitset('s_bitset0_b64', false, true);
bitset('s_bitset1_b64', true, true);

/**
 * s_and_not{0,1}_wrexec: EXEC = op(S0, EXEC), then SDST = the new EXEC; SCC = EXEC != 0.
 * not0: ~S0 & EXEC; not1: S0 & ~EXEC. EXEC is written even if SDST is out of range.
 */
function wrexec(name: string, op: (s: number, e: number) => number): void {
  sdefine(`s_${name}_wrexec_b32`, (inst) => {
    const A = sread32(f(inst, 'ssrc0'), inst.literal);
    const d = f(inst, 'sdst');
    return {
      cls: 'salu',
      run: (w) => {
        const r = op(A(w), w.s[SREG.EXEC_LO]!) >>> 0;
        w.s[SREG.EXEC_LO] = r;
        if (swrite32(w, d, r)) w.scc = nz(r);
      },
    };
  });
  sdefine(`s_${name}_wrexec_b64`, (inst) => {
    const A = sread64(f(inst, 'ssrc0'), inst.literal);
    const d = f(inst, 'sdst');
    return {
      cls: 'salu',
      run: (w) => {
        const al = A(w);
        const ah = HI[0]!;
        const rl = op(al, w.s[SREG.EXEC_LO]!) >>> 0;
        const rh = op(ah, w.s[SREG.EXEC_HI]!) >>> 0;
        w.s[SREG.EXEC_LO] = rl;
        w.s[SREG.EXEC_HI] = rh;
        if (swrite64(w, d, rl, rh)) w.scc = nz64(rl, rh);
      },
    };
  });
}
wrexec('and_not0', (s, e) => ~s & e);
wrexec('and_not1', (s, e) => s & ~e);

// ---- S_MOVREL: SGPR indexing by M0 with the seed's range rules
/**
 * The highest register an M0-indexed operand based at `base` may reach (-1: only the base itself).
 * Ranges: [s0..s105, VCC_LO, VCC_HI] and [TTMP0..TTMP15]; any other base may not be indexed.
 * 64-bit operands must leave room for the pair (addr <= VCC_LO, or <= TTMP14).
 */
function movrelLimit(base: number, b64: boolean): number {
  if (base <= SREG.VCC_HI) return b64 ? SREG.VCC_LO : SREG.VCC_HI;
  if (base >= SREG.TTMP0 && base <= SREG.TTMP15) return b64 ? SREG.TTMP15 - 1 : SREG.TTMP15;
  return -1;
}

function movrelMessage(base: number, addr: number, src: boolean): string {
  return `index M0 moves ${src ? 'source' : 'destination'} s${base} to register ${addr}, outside its range ` +
    `([s0..vcc_hi] or [ttmp0..ttmp15]); ${src ? 'the hardware reads s0 instead' : 'nothing is written'}`;
}

/** Read an M0-relative source: out of range reads s0 (or s[0:1]). Low dword returned, high in HI[0]. */
function movrelRead(w: Wave, base: number, idx: number, b64: boolean, limit: number, report: (w: Wave, m: string) => void): number {
  let addr = base + idx;
  if (b64) addr -= addr & 1; // the index LSB is ignored for 64-bit operands
  if (idx !== 0 && (limit < 0 || addr > limit)) {
    report(w, movrelMessage(base, addr, true));
    addr = 0;
  }
  const ttmp = addr >= SREG.TTMP0 && addr <= SREG.TTMP15;
  if (ttmp && !w.priv) return (HI[0] = 0), 0;
  if (addr === SREG.NULL) return (HI[0] = 0), 0;
  // VCCZ, EXECZ and SCC are composed at the read, as every other source read of them does.
  if (addr === SREG.VCCZ || addr === SREG.EXECZ || addr === SREG.SCC) w.syncSpecials();
  if (addr >= 128) return (HI[0] = b64 ? w.s64hi[addr]! : 0), b64 ? w.s64lo[addr]! : w.s[addr]!;
  HI[0] = b64 ? w.s[addr + 1]! : 0;
  return w.s[addr]!;
}

/** Destination register of an M0-relative write, or -1 when out of range (nothing is written). */
function movrelDst(w: Wave, base: number, idx: number, b64: boolean, limit: number, report: (w: Wave, m: string) => void): number {
  let addr = base + idx;
  if (b64) addr -= addr & 1;
  if (idx !== 0 && (limit < 0 || addr > limit)) {
    report(w, movrelMessage(base, addr, false));
    return -1;
  }
  return addr;
}

for (const b64 of [false, true]) {
  const sfx = b64 ? 'b64' : 'b32';
  sdefine(`s_movrels_${sfx}`, (inst, env) => {
    const base = b64 ? f(inst, 'ssrc0') & ~1 : f(inst, 'ssrc0');
    const d = f(inst, 'sdst');
    const limit = movrelLimit(base, b64);
    const report = once(env, inst, 'gfx11.movrel.out-of-range');
    return {
      cls: 'salu',
      run: (w) => {
        const lo = movrelRead(w, base, w.s[SREG.M0]!, b64, limit, report);
        if (b64) swrite64(w, d, lo, HI[0]!);
        else swrite32(w, d, lo);
      },
    };
  });
  sdefine(`s_movreld_${sfx}`, (inst, env) => {
    const A = b64 ? sread64(f(inst, 'ssrc0'), inst.literal) : sread32(f(inst, 'ssrc0'), inst.literal);
    const base = b64 ? f(inst, 'sdst') & ~1 : f(inst, 'sdst');
    const limit = movrelLimit(base, b64);
    const report = once(env, inst, 'gfx11.movrel.out-of-range');
    return {
      cls: 'salu',
      run: (w) => {
        const lo = A(w);
        const hi = HI[0]!;
        const r = movrelDst(w, base, w.s[SREG.M0]!, b64, limit, report);
        if (r < 0) return;
        if (b64) swrite64(w, r, lo, hi);
        else swrite32(w, r, lo);
      },
    };
  });
}
/** s_movrelsd_2_b32: SGPR[SDST + M0[25:16]] = SGPR[SSRC0 + M0[9:0]]. */
sdefine('s_movrelsd_2_b32', (inst, env) => {
  const sbase = f(inst, 'ssrc0');
  const dbase = f(inst, 'sdst');
  const slimit = movrelLimit(sbase, false);
  const dlimit = movrelLimit(dbase, false);
  const report = once(env, inst, 'gfx11.movrel.out-of-range');
  return {
    cls: 'salu',
    run: (w) => {
      const m0 = w.s[SREG.M0]!;
      const v = movrelRead(w, sbase, m0 & 0x3ff, false, slimit, report);
      const r = movrelDst(w, dbase, (m0 >>> 16) & 0x3ff, false, dlimit, report);
      if (r >= 0) swrite32(w, r, v);
    },
  };
});

// ---- SOP2: 64-bit bit fields
/** s_bfm_b64: ((1 << S0[5:0]) - 1) << S1[5:0] in 64 bits (both sources 32-bit). */
sdefine('s_bfm_b64', (inst) => {
  const A = sread32(f(inst, 'ssrc0'), inst.literal);
  const B = sread32(f(inst, 'ssrc1'), inst.literal);
  const d = f(inst, 'sdst');
  return {
    cls: 'salu',
    run: (w) => {
      const width = A(w) & 63;
      const off = B(w) & 63;
      let ml = width >= 32 ? 0xffffffff : ((1 << width) - 1) >>> 0;
      let mh = width > 32 ? ((1 << (width - 32)) - 1) >>> 0 : 0;
      if (off >= 32) (mh = ml << (off - 32)), (ml = 0);
      else if (off > 0) (mh = (mh << off) | (ml >>> (32 - off))), (ml = ml << off);
      swrite64(w, d, ml >>> 0, mh >>> 0);
    },
  };
});
/** s_bfe_{u,i}64: S1[5:0] offset, S1[22:16] width; the field of S0 (64-bit), zero- or sign-extended. */
function bfe64(signed: boolean): (al: number, ah: number, b: number) => number {
  return (al, ah, b) => {
    const off = b & 63;
    const width = (b >>> 16) & 0x7f;
    // shift right by off
    let lo: number;
    let hi: number;
    if (off === 0) (lo = al), (hi = ah);
    else if (off < 32) (lo = (al >>> off) | (ah << (32 - off))), (hi = signed ? ah >> off : ah >>> off);
    else (lo = signed ? ah >> (off - 32) : ah >>> (off - 32)), (hi = signed ? ah >> 31 : 0);
    if (width === 0) (lo = 0), (hi = 0);
    else if (width < 32) {
      lo = signed ? (lo << (32 - width)) >> (32 - width) : width === 32 ? lo : lo & ((1 << width) - 1);
      hi = signed ? lo >> 31 : 0;
    } else if (width < 64) {
      const hw = width - 32;
      hi = hw === 0 ? (signed ? lo >> 31 : 0) : signed ? (hi << (32 - hw)) >> (32 - hw) : hi & ((1 << hw) - 1);
    }
    RHI = hi;
    SCC = nz64(lo, hi);
    return lo;
  };
}
sop2x64('s_bfe_u64', bfe64(false), true);
sop2x64('s_bfe_i64', bfe64(true), true);

// ---- SOPC: 64-bit bit compares
for (const [name, want] of [['s_bitcmp0_b64', 0], ['s_bitcmp1_b64', 1]] as const) {
  sdefine(name, (inst) => {
    const A = sread64(f(inst, 'ssrc0'), inst.literal);
    const B = sread32(f(inst, 'ssrc1'), inst.literal);
    return {
      cls: 'salu',
      run: (w) => {
        const lo = A(w);
        const hi = HI[0]!;
        const n = B(w) & 63;
        const bit = n < 32 ? (lo >>> n) & 1 : (hi >>> (n - 32)) & 1;
        w.scc = bit === want ? 1 : 0;
      },
    };
  });
}

// ---- SOPK
const simm = (inst: Instruction): number => (f(inst, 'simm16') << 16) >> 16;
sdefine('s_version', () => ({ cls: 'salu', run: () => {} }));
sdefine('s_cmovk_i32', (inst) => {
  const d = f(inst, 'sdst');
  const v = simm(inst) >>> 0;
  return { cls: 'salu', run: (w) => void (w.scc && swrite32(w, d, v)) };
});
for (const [op, fn] of [
  ['eq', (a: number, b: number) => a === b], ['lg', (a: number, b: number) => a !== b],
  ['gt', (a: number, b: number) => a > b], ['ge', (a: number, b: number) => a >= b],
  ['lt', (a: number, b: number) => a < b], ['le', (a: number, b: number) => a <= b],
] as const) {
  // _i32: signed compare with the sign-extended immediate; _u32: unsigned with the zero-extended one.
  sdefine(`s_cmpk_${op}_i32`, (inst) => {
    const A = sread32(f(inst, 'sdst'), undefined);
    const k = simm(inst);
    return { cls: 'salu', run: (w) => void (w.scc = fn(A(w) | 0, k) ? 1 : 0) };
  });
  sdefine(`s_cmpk_${op}_u32`, (inst) => {
    const A = sread32(f(inst, 'sdst'), undefined);
    const k = f(inst, 'simm16') & 0xffff;
    return { cls: 'salu', run: (w) => void (w.scc = fn(A(w), k) ? 1 : 0) };
  });
}
sdefine('s_addk_i32', (inst) => {
  const d = f(inst, 'sdst');
  const A = sread32(d, undefined);
  const k = simm(inst);
  return {
    cls: 'salu',
    run: (w) => {
      const r = (A(w) | 0) + k;
      if (swrite32(w, d, r >>> 0)) w.scc = r > 0x7fffffff || r < -0x80000000 ? 1 : 0;
    },
  };
});
sdefine('s_mulk_i32', (inst) => {
  const d = f(inst, 'sdst');
  const A = sread32(d, undefined);
  const k = simm(inst);
  return { cls: 'salu', run: (w) => void swrite32(w, d, Math.imul(A(w), k) >>> 0) };
});

// ---- s_getreg / s_setreg
sdefine('s_getreg_b32', (inst, env) => {
  const { id, offset, mask } = hwregField(f(inst, 'simm16'));
  const d = f(inst, 'sdst');
  const reg = HWREGS[id];
  if (!reg) {
    return { cls: 'salu', findings: [{ id: 'gfx11.hwreg.unknown', message: `${inst.mnemonic}: HW_REG id ${id} is not a GFX11 hardware register; it reads 0` }], run: (w) => void swrite32(w, d, 0) };
  }
  return { cls: 'salu', run: (w) => void swrite32(w, d, ((reg.read(w, env) & mask) >>> offset) >>> 0) };
});

function setreg(inst: Instruction, env: ExecEnv, value: (w: Wave) => number): { run: (w: Wave) => void; cls: 'salu'; findings?: Finding[] } {
  const { id, offset, mask } = hwregField(f(inst, 'simm16'));
  const reg = HWREGS[id];
  if (!reg) {
    return { cls: 'salu', findings: [{ id: 'gfx11.hwreg.unknown', message: `${inst.mnemonic}: HW_REG id ${id} is not a GFX11 hardware register; the write is dropped` }], run: () => {} };
  }
  const userBits = (mask & reg.user) >>> 0;
  const privBits = (mask & (reg.user | reg.priv)) >>> 0;
  const findings: Finding[] = [];
  if (((mask & ~(reg.user | reg.priv)) >>> 0) !== 0) {
    findings.push({ id: 'gfx11.hwreg.write-readonly', message: `${inst.mnemonic}: bits 0x${((mask & ~(reg.user | reg.priv)) >>> 0).toString(16)} of ${reg.name} are read-only; the write leaves them unchanged` });
  }
  const privOnly = (privBits & ~userBits) >>> 0;
  const report = once(env, inst, 'gfx11.hwreg.write-priv');
  const size = ((f(inst, 'simm16') >>> 11) & 0x1f) + 1;
  return {
    cls: 'salu', findings,
    run: (w) => {
      // POPS: MODE[25:24] (GFX9) / HW_REG_POPS_PACKER (GFX10+) select the wave's packer.
      if (popsAttached.any) popsSetreg(w, id, offset, size, value(w), w.pc - inst.size);
      const priv = w.priv;
      if (!priv && privOnly !== 0) report(w, `bits 0x${privOnly.toString(16)} of ${reg.name} are writable only in a trap handler (STATUS.PRIV=1); the write leaves them unchanged`);
      const allowed = priv ? privBits : userBits;
      if (allowed === 0) return;
      const cur = reg.read(w, env);
      const v = (value(w) << offset) >>> 0;
      reg.write(w, ((cur & ~allowed) | (v & allowed)) >>> 0);
    },
  };
}
sdefine('s_setreg_b32', (inst, env) => {
  const S = sread32(f(inst, 'sdst'), undefined);
  return setreg(inst, env, S);
});
sdefine('s_setreg_imm32_b32', (inst, env) => {
  const lit = (inst.literal ?? 0) >>> 0;
  return setreg(inst, env, () => lit);
});

// ---- helpers
/** Bit i of the result = any of bits 4i..4i+3 of x (8 result bits). */
function quadmask(x: number): number {
  let r = 0;
  for (let i = 0; i < 8; i++) if (((x >>> (4 * i)) & 15) !== 0) r |= 1 << i;
  return r;
}

/** Whole-quad mode: every quad with any bit set becomes all ones. */
function wqm(x: number): number {
  let r = 0;
  for (let i = 0; i < 8; i++) if (((x >>> (4 * i)) & 15) !== 0) r |= 15 << (4 * i);
  return r >>> 0;
}

/** Bits of a 16-bit value moved to the even bit positions of a 32-bit value. */
function spread16(x: number): number {
  x &= 0xffff;
  x = (x | (x << 8)) & 0x00ff00ff;
  x = (x | (x << 4)) & 0x0f0f0f0f;
  x = (x | (x << 2)) & 0x33333333;
  x = (x | (x << 1)) & 0x55555555;
  return x >>> 0;
}

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
