/**
 * DS (LDS) instructions. Address = VGPR[addr] + offset (byte), inside the workgroup's LDS
 * allocation. Every DS instruction counts on LGKM_CNT. Rules (wave-state seed, "LDS/GDS alignment
 * and out of range"): see vmem.ts; additionally 32-bit atomics need 4-byte and 64-bit atomics
 * 8-byte alignment (MEMVIOL), STRICT/DWORD_STRICT alignment modes report misaligned accesses, and
 * the other non-UNALIGNED modes clear the address LSBs (B32 4, B64 8, B96/B128 16 bytes).
 * GDS and GWS do not exist for compute dispatches here: such instructions report
 * `gfx11.ds.gds-unavailable` and do nothing.
 */
import type { Instruction } from '../isa/types.js';
import type { Wave } from '../wave/wave.js';
import { SREG } from '../wave/wave.js';
import type { ExecEnv } from '../engine/env.js';
import { define, type Bound, type Finding } from '../engine/registry.js';
import {
  ATOMIC32, ATOMIC64, CNT_MAX, R64, alignModeOf, atomicKey, dstInRange, laneOn, ldsInRange, ldsRead, ldsWrite,
  onceReporter, popcount, srcRows, VIOL, endViolation,
} from './vmem.js';
import { fastDs2, fastDsAtomic32, fastDsDword, type FastMem } from '../engine/fast-mem.js';

const count = (w: Wave) => void (w.lgkmcnt < CNT_MAX && w.lgkmcnt++);

function offset16(inst: Instruction): number {
  return (inst.fields.offset0 ?? 0) | ((inst.fields.offset1 ?? 0) << 8);
}

/** LDS address mask for the alignment mode (the seed's pseudo-code) and a MEMVIOL check. */
function ldsAlign(env: ExecEnv, inst: Instruction, accessBytes: number) {
  const mode = alignModeOf(env);
  const unit = mode === 'unaligned' ? 1 : accessBytes >= 12 ? 16 : accessBytes === 8 ? 8 : accessBytes === 4 ? 4 : 1;
  const strict = mode === 'strict' || mode === 'dword-strict';
  const natural = accessBytes >= 12 ? 16 : accessBytes;
  const report = onceReporter(env, inst, 'gfx11.lds.misaligned', 'error', true);
  return (w: Wave, l: number, a: number): number => {
    if (strict && a % natural !== 0) report(w, l, a, `LDS address 0x${a.toString(16)} is not ${natural}-byte aligned under alignment mode ${mode}: MEMVIOL`);
    return unit === 1 ? a : a - (a % unit);
  };
}

/** Report for an LDS access outside the allocation (dropped / reads 0), once per instruction. */
function oorReporter(env: ExecEnv, inst: Instruction) {
  const r = onceReporter(env, inst, 'gfx11.lds.out-of-range', 'warning');
  return (w: Wave, l: number, a: number, n: number) => r(w, l, a, `LDS access [0x${a.toString(16)}, +${n}) is outside the ${w.lds.length}-byte allocation: writes are dropped, reads return 0`);
}

function gdsUnavailable(inst: Instruction, env: ExecEnv): Bound {
  const report = onceReporter(env, inst, 'gfx11.ds.gds-unavailable', 'error');
  return {
    cls: 'lds',
    run: (w) => {
      count(w);
      report(w, -1, 0, 'GDS/GWS is not allocated to compute dispatches; the instruction has no effect');
    },
  };
}

/**
 * A DS binder returns its handler (wrapped here so a MEMVIOL it flags raises the exception), or
 * `{ fast }`: a generated fast path (fast-mem.ts) built over `withViol(ref)`, which is used as is.
 */
type DsBinder = (inst: Instruction, env: ExecEnv, findings: Finding[]) => ((w: Wave) => void) | { readonly fast: FastMem };

function withViol(inner: (w: Wave) => void): (w: Wave) => void {
  return (w: Wave) => {
    inner(w);
    if (VIOL.pending) endViolation(w);
  };
}

/** Register a DS op; instructions with the gds bit set get the GDS diagnostic instead. */
function ds(names: string | readonly string[], bind: DsBinder): void {
  define(names, (inst, env) => {
    if (inst.fields.gds) return gdsUnavailable(inst, env);
    const findings: Finding[] = [];
    const b = bind(inst, env, findings);
    return typeof b === 'function' ? { cls: 'lds', findings, run: withViol(b) } : { cls: 'lds', findings, run: b.fast.run, inline: b.fast.inline };
  });
}

// ---- loads and stores ------------------------------------------------------------------------

interface LS {
  readonly store: boolean;
  readonly bytes: number; // 1, 2 or 4 per element
  readonly count: number; // dwords for 4-byte elements
  readonly signed: boolean;
  readonly d16: 'lo' | 'hi' | null;
}

function dsLoadStore(name: string, a: LS): void {
  ds(name, (inst, env, findings) => {
    const ws = env.waveSize;
    const off = offset16(inst);
    const f = inst.fields;
    const addr = srcRows(env, inst, f.addr ?? 0, 1, 'address', findings)[0]!;
    const data = a.store ? srcRows(env, inst, f.data0 ?? 0, a.count, 'data', findings) : null;
    const total = a.bytes * a.count;
    const ok = a.store || dstInRange(env, inst, f.vdst ?? 0, a.count, findings);
    const d = (f.vdst ?? 0) * ws;
    const align = ldsAlign(env, inst, total);
    const oor = oorReporter(env, inst);
    const ref = (w: Wave) => {
      count(w);
      if (!ok) return;
      const v = w.v;
      let n = 0;
      for (let l = 0; l < ws; l++) {
        if (!laneOn(w, l)) continue;
        n++;
        const ad = align(w, l, (v[addr + l]! + off) >>> 0);
        if (!ldsInRange(w, ad, total)) oor(w, l, ad, total);
        if (data !== null) {
          if (a.bytes < 4) ldsWrite(w, ad, a.bytes, a.d16 === 'hi' ? v[data[0]! + l]! >>> 16 : v[data[0]! + l]!);
          else for (let k = 0; k < a.count; k++) ldsWrite(w, ad + 4 * k, 4, v[data[k]! + l]!);
        } else if (a.bytes < 4) {
          let x = ldsRead(w, ad, a.bytes);
          if (a.signed) x = a.bytes === 1 ? (x << 24) >> 24 : (x << 16) >> 16;
          if (a.d16 === 'lo') v[d + l] = (v[d + l]! & 0xffff0000) | (x & 0xffff);
          else if (a.d16 === 'hi') v[d + l] = ((v[d + l]! & 0xffff) | (x << 16)) >>> 0;
          else v[d + l] = x >>> 0;
        } else {
          const inRange = ldsInRange(w, ad, total);
          for (let k = 0; k < a.count; k++) v[d + k * ws + l] = inRange ? ldsRead(w, ad + 4 * k, 4) : 0;
        }
      }
      w.laneOps += n;
    };
    if (!fastOk(env, ok) || a.bytes !== 4) return ref;
    // Fast engine: every active lane in range and dword-aligned -> the LDS Uint32Array directly.
    return { fast: fastDsDword({ ws, addr, off, count: a.count, store: a.store, data: data ? [...data] : [], d }, withViol(ref)) };
  });
}

/** Whether the fast engine may bind an LDS fast path (unaligned mode, a valid destination). */
function fastOk(env: ExecEnv, ok: boolean): boolean {
  return env.engine !== 'interp' && alignModeOf(env) === 'unaligned' && ok;
}

for (const [n, c] of [['b32', 1], ['b64', 2], ['b96', 3], ['b128', 4]] as const) {
  dsLoadStore(`ds_load_${n}`, { store: false, bytes: 4, count: c, signed: false, d16: null });
  dsLoadStore(`ds_store_${n}`, { store: true, bytes: 4, count: c, signed: false, d16: null });
}
dsLoadStore('ds_load_u8', { store: false, bytes: 1, count: 1, signed: false, d16: null });
dsLoadStore('ds_load_i8', { store: false, bytes: 1, count: 1, signed: true, d16: null });
dsLoadStore('ds_load_u16', { store: false, bytes: 2, count: 1, signed: false, d16: null });
dsLoadStore('ds_load_i16', { store: false, bytes: 2, count: 1, signed: true, d16: null });
dsLoadStore('ds_load_u8_d16', { store: false, bytes: 1, count: 1, signed: false, d16: 'lo' });
dsLoadStore('ds_load_u8_d16_hi', { store: false, bytes: 1, count: 1, signed: false, d16: 'hi' });
dsLoadStore('ds_load_i8_d16', { store: false, bytes: 1, count: 1, signed: true, d16: 'lo' });
dsLoadStore('ds_load_i8_d16_hi', { store: false, bytes: 1, count: 1, signed: true, d16: 'hi' });
dsLoadStore('ds_load_u16_d16', { store: false, bytes: 2, count: 1, signed: false, d16: 'lo' });
dsLoadStore('ds_load_u16_d16_hi', { store: false, bytes: 2, count: 1, signed: false, d16: 'hi' });
dsLoadStore('ds_store_b8', { store: true, bytes: 1, count: 1, signed: false, d16: null });
dsLoadStore('ds_store_b16', { store: true, bytes: 2, count: 1, signed: false, d16: null });
dsLoadStore('ds_store_b8_d16_hi', { store: true, bytes: 1, count: 1, signed: false, d16: 'hi' });
dsLoadStore('ds_store_b16_d16_hi', { store: true, bytes: 2, count: 1, signed: false, d16: 'hi' });

/** ds_*_2addr_*: accesses at addr + offset0*size and addr + offset1*size (stride64: *64 more). */
function ds2(name: string, kind: 'load' | 'store' | 'xchg', dw: 1 | 2, stride64: boolean): void {
  ds(name, (inst, env, findings) => {
    const f = inst.fields;
    const ws = env.waveSize;
    const unit = 4 * dw * (stride64 ? 64 : 1);
    const o0 = (f.offset0 ?? 0) * unit;
    const o1 = (f.offset1 ?? 0) * unit;
    const addr = srcRows(env, inst, f.addr ?? 0, 1, 'address', findings)[0]!;
    const d0 = kind === 'load' ? null : srcRows(env, inst, f.data0 ?? 0, dw, 'data0', findings);
    const d1 = kind === 'load' ? null : srcRows(env, inst, f.data1 ?? 0, dw, 'data1', findings);
    const ok = kind === 'store' || dstInRange(env, inst, f.vdst ?? 0, 2 * dw, findings);
    const d = (f.vdst ?? 0) * ws;
    const align = ldsAlign(env, inst, 4 * dw);
    const oor = oorReporter(env, inst);
    const ref = (w: Wave) => {
      count(w);
      if (!ok) return;
      const v = w.v;
      let n = 0;
      for (let l = 0; l < ws; l++) {
        if (!laneOn(w, l)) continue;
        n++;
        const base = v[addr + l]!;
        for (let h = 0; h < 2; h++) {
          const a = align(w, l, (base + (h === 0 ? o0 : o1)) >>> 0);
          const inRange = ldsInRange(w, a, 4 * dw);
          if (!inRange) oor(w, l, a, 4 * dw);
          const src = h === 0 ? d0 : d1;
          for (let k = 0; k < dw; k++) {
            const dst = d + (h * dw + k) * ws + l;
            if (kind !== 'store') {
              const old = inRange ? ldsRead(w, a + 4 * k, 4) : 0;
              if (kind === 'xchg') ldsWrite(w, a + 4 * k, 4, v[src![k]! + l]!);
              v[dst] = old;
            } else ldsWrite(w, a + 4 * k, 4, v[src![k]! + l]!);
          }
        }
      }
      w.laneOps += n;
    };
    if (!fastOk(env, ok) || kind === 'xchg') return ref;
    // Fast engine: both addresses of every active lane in range and dword-aligned (offsets are
    // dword multiples, so checking the base and the larger offset covers both).
    return {
      fast: fastDs2({ ws, addr, o0, o1, dw, store: kind === 'store', data0: d0 ? [...d0] : [], data1: d1 ? [...d1] : [], d }, withViol(ref)),
    };
  });
}
for (const s64 of [false, true]) {
  const st = s64 ? '_stride64' : '';
  ds2(`ds_load_2addr${st}_b32`, 'load', 1, s64);
  ds2(`ds_load_2addr${st}_b64`, 'load', 2, s64);
  ds2(`ds_store_2addr${st}_b32`, 'store', 1, s64);
  ds2(`ds_store_2addr${st}_b64`, 'store', 2, s64);
  ds2(`ds_storexchg_2addr${st}_rtn_b32`, 'xchg', 1, s64);
  ds2(`ds_storexchg_2addr${st}_rtn_b64`, 'xchg', 2, s64);
}

// ---- atomics ---------------------------------------------------------------------------------

/** One DS atomic (32- or 64-bit), with or without return: (old, DATA0, DATA1) -> new. */
function dsAtomic(name: string, key: string, wide: boolean, rtn: boolean): void {
  ds(name, (inst, env, findings) => {
    const f = inst.fields;
    const ws = env.waveSize;
    const dw = wide ? 2 : 1;
    const bytes = 4 * dw;
    const off = offset16(inst);
    const addr = srcRows(env, inst, f.addr ?? 0, 1, 'address', findings)[0]!;
    const d0 = srcRows(env, inst, f.data0 ?? 0, dw, 'data0', findings);
    const two = key === 'cmpswap' || key === 'cmpswap_f' || key === 'mskor' || key === 'wrap';
    const d1 = two ? srcRows(env, inst, f.data1 ?? 0, dw, 'data1', findings) : d0;
    const ok = !rtn || dstInRange(env, inst, f.vdst ?? 0, dw, findings);
    const d = (f.vdst ?? 0) * ws;
    const fn32 = ATOMIC32[key]!;
    const fn64 = ATOMIC64[key]!;
    const misaligned = onceReporter(env, inst, 'gfx11.mem.misaligned-atomic', 'error', true);
    const oor = oorReporter(env, inst);
    const align = ldsAlign(env, inst, bytes);
    const ref = (w: Wave) => {
      count(w);
      if (!ok) return;
      const v = w.v;
      let n = 0;
      for (let l = 0; l < ws; l++) {
        if (!laneOn(w, l)) continue;
        n++;
        const a = align(w, l, (v[addr + l]! + off) >>> 0);
        if (a % bytes !== 0) {
          misaligned(w, l, a, `${bytes * 8}-bit LDS atomic at 0x${a.toString(16)} is not ${bytes}-byte aligned: MEMVIOL`);
          continue;
        }
        if (!ldsInRange(w, a, bytes)) {
          oor(w, l, a, bytes);
          if (rtn) for (let k = 0; k < dw; k++) v[d + k * ws + l] = 0;
          continue;
        }
        if (!wide) {
          const old = ldsRead(w, a, 4);
          ldsWrite(w, a, 4, fn32(old, v[d0[0]! + l]!, v[d1[0]! + l]!));
          if (rtn) v[d + l] = old;
        } else {
          const oLo = ldsRead(w, a, 4);
          const oHi = ldsRead(w, a + 4, 4);
          const lo = fn64(oLo, oHi, v[d0[0]! + l]!, v[d0[1]! + l]!, v[d1[0]! + l]!, v[d1[1]! + l]!);
          ldsWrite(w, a, 4, lo);
          ldsWrite(w, a + 4, 4, R64[0]!);
          if (rtn) {
            v[d + l] = oLo;
            v[d + ws + l] = oHi;
          }
        }
      }
      w.laneOps += n;
    };
    if (!fastOk(env, ok) || wide) return ref;
    // Fast engine, 32-bit: every active lane aligned and in range -> read-modify-write the LDS
    // dwords directly, lane by lane in the same order as the reference.
    return { fast: fastDsAtomic32({ ws, addr, off, key, op: fn32, s0: d0[0]!, s1: d1[0]!, d: rtn ? d : -1 }, withViol(ref)) };
  });
}

for (const op of [
  'add_u32', 'sub_u32', 'rsub_u32', 'inc_u32', 'dec_u32', 'min_i32', 'max_i32', 'min_u32', 'max_u32', 'and_b32', 'or_b32',
  'xor_b32', 'mskor_b32', 'cmpstore_b32', 'cmpstore_f32', 'min_f32', 'max_f32', 'add_f32',
  'add_u64', 'sub_u64', 'rsub_u64', 'inc_u64', 'dec_u64', 'min_i64', 'max_i64', 'min_u64', 'max_u64', 'and_b64', 'or_b64',
  'xor_b64', 'mskor_b64', 'cmpstore_b64', 'cmpstore_f64', 'min_f64', 'max_f64',
]) {
  const k = atomicKey(op)!;
  const [head, tail] = [op.slice(0, op.lastIndexOf('_')), op.slice(op.lastIndexOf('_') + 1)];
  if (op !== 'add_f32') dsAtomic(`ds_${op}`, k.key, k.wide, false);
  else dsAtomic('ds_add_f32', 'add_f', false, false);
  dsAtomic(`ds_${head}_rtn_${tail}`, k.key, k.wide, true);
}
dsAtomic('ds_storexchg_rtn_b32', 'swap', false, true);
dsAtomic('ds_storexchg_rtn_b64', 'swap', true, true);
dsAtomic('ds_wrap_rtn_b32', 'wrap', false, true);

// ---- append / consume / addtid (M0-based) ----------------------------------------------------

/** ds_append / ds_consume: LDS[M0 + offset] += / -= popcount(EXEC); every active lane gets the old value. */
for (const [name, sign] of [['ds_append', 1], ['ds_consume', -1]] as const) {
  ds(name, (inst, env, findings) => {
    const ws = env.waveSize;
    const off = offset16(inst);
    const ok = dstInRange(env, inst, inst.fields.vdst ?? 0, 1, findings);
    const d = (inst.fields.vdst ?? 0) * ws;
    const misaligned = onceReporter(env, inst, 'gfx11.mem.misaligned-atomic', 'error', true);
    const oor = oorReporter(env, inst);
    return (w) => {
      count(w);
      if (!ok) return;
      const a = ((w.s[SREG.M0]! & 0xffff) + off) >>> 0;
      const cnt = popcount(w.s[SREG.EXEC_LO]!) + (ws === 64 ? popcount(w.s[SREG.EXEC_HI]!) : 0);
      if (a % 4 !== 0) return misaligned(w, -1, a, `address 0x${a.toString(16)} from M0 is not dword aligned: MEMVIOL`);
      if (!ldsInRange(w, a, 4)) oor(w, -1, a, 4);
      const old = ldsRead(w, a, 4);
      ldsWrite(w, a, 4, (old + sign * cnt) >>> 0);
      for (let l = 0; l < ws; l++) if (laneOn(w, l)) w.v[d + l] = old;
    };
  });
}

/** ds_load/store_addtid_b32: address = M0[15:0] + offset + lane * 4. */
for (const store of [false, true]) {
  ds(store ? 'ds_store_addtid_b32' : 'ds_load_addtid_b32', (inst, env, findings) => {
    const ws = env.waveSize;
    const off = offset16(inst);
    const data = store ? srcRows(env, inst, inst.fields.data0 ?? 0, 1, 'data', findings)[0]! : 0;
    const ok = store || dstInRange(env, inst, inst.fields.vdst ?? 0, 1, findings);
    const d = (inst.fields.vdst ?? 0) * ws;
    const oor = oorReporter(env, inst);
    return (w) => {
      count(w);
      if (!ok) return;
      const base = (w.s[SREG.M0]! & 0xffff) + off;
      for (let l = 0; l < ws; l++) {
        if (!laneOn(w, l)) continue;
        const a = base + 4 * l;
        if (!ldsInRange(w, a, 4)) oor(w, l, a, 4);
        if (store) ldsWrite(w, a, 4, w.v[data + l]!);
        else w.v[d + l] = ldsRead(w, a, 4);
      }
    };
  });
}

// ---- cross-lane: swizzle, permute, bpermute (no LDS memory is touched) -----------------------

const TMP = new Uint32Array(64);
const TMPV = new Uint8Array(64);

/**
 * ds_swizzle_b32 source lane for lane i (offset patterns): bit 15 clear = bitmask mode within
 * 32-lane groups (and[4:0], or[9:5], xor[14:10]); 0x80xx = quad permute (2-bit selectors);
 * 0xCxxx = rotate within 32 lanes by offset[9:5], right when offset[10]. Returns -1 for the
 * FFT and reserved patterns, which gpusim does not model.
 */
export function swizzleSource(offset: number, i: number): number {
  if ((offset & 0x8000) === 0) {
    const and = offset & 0x1f;
    const or = (offset >>> 5) & 0x1f;
    const xor = (offset >>> 10) & 0x1f;
    return (i & 0x20) | ((((i & and) | or) ^ xor) & 0x1f);
  }
  if ((offset & 0xff00) === 0x8000) return (i & ~3) | ((offset >>> (2 * (i & 3))) & 3);
  if ((offset & 0xf000) === 0xc000 && (offset & 0x81f) === 0) {
    const size = (offset >>> 5) & 0x1f;
    const right = (offset >>> 10) & 1;
    return (i & 0x20) | ((right ? i - size : i + size) & 0x1f);
  }
  return -1;
}

ds('ds_swizzle_b32', (inst, env, findings) => {
  const ws = env.waveSize;
  const off = offset16(inst);
  // The swizzled value comes from the ADDR field (LLVM: ds_swizzle_b32 vdst, vaddr).
  const data = srcRows(env, inst, inst.fields.addr ?? 0, 1, 'data', findings)[0]!;
  const ok = dstInRange(env, inst, inst.fields.vdst ?? 0, 1, findings);
  const d = (inst.fields.vdst ?? 0) * ws;
  const src = new Int8Array(64);
  for (let l = 0; l < 64; l++) src[l] = swizzleSource(off, l);
  if (src[0] === -1) findings.push({ id: 'gpusim.unmodelled', message: `ds_swizzle_b32 offset 0x${off.toString(16)} (FFT or reserved pattern) is not modelled; lanes read 0` });
  return (w) => {
    count(w);
    if (!ok) return;
    const v = w.v;
    for (let l = 0; l < ws; l++) TMP[l] = v[data + l]!;
    for (let l = 0; l < ws; l++) {
      if (!laneOn(w, l)) continue;
      const s = src[l]!;
      // A disabled source lane contributes 0.
      v[d + l] = s >= 0 && laneOn(w, s) ? TMP[s]! : 0;
    }
  };
});

/** ds_permute_b32 (forward: lane i writes to lane addr/4) and ds_bpermute_b32 (lane i reads lane addr/4). */
for (const back of [false, true]) {
  ds(back ? 'ds_bpermute_b32' : 'ds_permute_b32', (inst, env, findings) => {
    const ws = env.waveSize;
    const off = offset16(inst);
    const addr = srcRows(env, inst, inst.fields.addr ?? 0, 1, 'address', findings)[0]!;
    const data = srcRows(env, inst, inst.fields.data0 ?? 0, 1, 'data', findings)[0]!;
    const ok = dstInRange(env, inst, inst.fields.vdst ?? 0, 1, findings);
    const d = (inst.fields.vdst ?? 0) * ws;
    return (w) => {
      count(w);
      if (!ok) return;
      const v = w.v;
      TMP.fill(0);
      if (back) {
        for (let l = 0; l < ws; l++) {
          if (!laneOn(w, l)) continue;
          const s = (((v[addr + l]! + off) >>> 2) % ws);
          TMP[l] = laneOn(w, s) ? v[data + s]! : 0;
        }
      } else {
        TMPV.fill(0);
        for (let l = 0; l < ws; l++) {
          if (!laneOn(w, l)) continue;
          const t = (((v[addr + l]! + off) >>> 2) % ws);
          TMP[t] = v[data + l]!;
        }
      }
      for (let l = 0; l < ws; l++) if (laneOn(w, l)) v[d + l] = TMP[l]!;
    };
  });
}

ds('ds_nop', () => (w) => count(w));

// GDS / GWS / ordered-count / GS registers: graphics or GDS-only.
for (const n of ['ds_gws_init', 'ds_gws_sema_v', 'ds_gws_sema_br', 'ds_gws_sema_p', 'ds_gws_barrier', 'ds_gws_sema_release_all', 'ds_ordered_count', 'ds_add_gs_reg_rtn', 'ds_sub_gs_reg_rtn']) {
  define(n, (inst, env) => gdsUnavailable(inst, env));
}
