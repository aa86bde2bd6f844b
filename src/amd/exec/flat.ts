/**
 * FLAT / GLOBAL / SCRATCH loads, stores and atomics.
 *
 * Addresses: FLAT takes a 64-bit VGPR address and routes it by aperture (shared aperture -> the
 * workgroup's LDS, private aperture -> the lane's scratch, else global memory); GLOBAL takes a
 * 64-bit VGPR address, or with saddr an SGPR pair plus a 32-bit VGPR offset; SCRATCH takes
 * (VGPR if sve) + (SGPR if saddr) + offset as a private-segment offset. Loads and atomics with
 * return (glc) count on VM_CNT, stores and atomics without return on VS_CNT; FLAT also counts
 * on LGKM_CNT (it may reach LDS).
 */
import type { Instruction } from '../isa/types.js';
import type { Wave } from '../wave/wave.js';
import type { ExecEnv } from '../engine/env.js';
import { storeCounter } from '../target/space.js';
import { define, type Finding } from '../engine/registry.js';
import {
  APERTURE, ATOMIC32, ATOMIC64, CNT_MAX, R64, alignModeOf, atomicKey, dstInRange, laneOn, ldsRead, ldsWrite, ldsInRange,
  memAtomic32, memAtomic64, memFastPaths, memRead, memWrite, onceReporter, scratchAddr, srcRows, vmemAlign,
  withViolation,
} from './vmem.js';
import { withAtomicCaches, withCachePolicy } from '../engine/cache-hook.js';
import { fastFlatDword } from '../engine/fast-mem.js';
import { markFast } from '../engine/fast-registry.js';

const SADDR_OFF = 124;

type Rd = (w: Wave, addr: number, l: number, bytes: number) => number;
type Wr = (w: Wave, addr: number, l: number, bytes: number, v: number) => void;

/** Scratch offsets outside the lane's private segment: reads 0, writes dropped, reported once per wave. */
let scratchOob: ((w: Wave, l: number, a: number) => void) | null = null;
function scratchOk(w: Wave, off: number, l: number, bytes: number): boolean {
  if (off >= 0 && off + bytes <= w.scratchPerLane) return true;
  scratchOob?.(w, l, off);
  return false;
}

const scratchRead: Rd = (w, a, l, b) => (scratchOk(w, a, l, b) ? memRead(w, scratchAddr(w, a, l), b) : 0);
const scratchWrite: Wr = (w, a, l, b, v) => void (scratchOk(w, a, l, b) && memWrite(w, scratchAddr(w, a, l), b, v));
const flatRead: Rd = (w, a, l, b) => {
  const ap = a - (a % APERTURE.SIZE);
  if (ap === APERTURE.SHARED) return ldsRead(w, a - APERTURE.SHARED, b);
  if (ap === APERTURE.PRIVATE) return scratchRead(w, a - APERTURE.PRIVATE, l, b);
  return memRead(w, a, b);
};
const flatWrite: Wr = (w, a, l, b, v) => {
  const ap = a - (a % APERTURE.SIZE);
  if (ap === APERTURE.SHARED) return ldsWrite(w, a - APERTURE.SHARED, b, v);
  if (ap === APERTURE.PRIVATE) return scratchWrite(w, a - APERTURE.PRIVATE, l, b, v);
  memWrite(w, a, b, v);
};
const globalRead: Rd = (w, a, _l, b) => memRead(w, a, b);
const globalWrite: Wr = (w, a, _l, b, v) => memWrite(w, a, b, v);

function family(inst: Instruction): { rd: Rd; wr: Wr } {
  if (inst.encoding === 'GLOBAL') return { rd: globalRead, wr: globalWrite };
  if (inst.encoding === 'SCRATCH') return { rd: scratchRead, wr: scratchWrite };
  return { rd: flatRead, wr: flatWrite };
}

/** Per-lane address of a FLAT-family instruction (bound once). */
function addressOf(inst: Instruction, env: ExecEnv, findings: Finding[]): (w: Wave, l: number) => number {
  const f = inst.fields;
  // GLOBAL/SCRATCH: 13-bit signed offset; FLAT: 12-bit unsigned (the sign bit is ignored).
  const off = inst.encoding === 'FLAT' ? (f.offset ?? 0) & 0xfff : ((f.offset ?? 0) << 19) >> 19;
  const saddr = f.saddr ?? SADDR_OFF;
  if (inst.encoding === 'SCRATCH') {
    const sv = saddr !== SADDR_OFF;
    const vOn = (f.sve ?? 0) === 1;
    const va = vOn ? srcRows(env, inst, f.addr ?? 0, 1, 'address', findings)[0]! : 0;
    return (w, l) => ((vOn ? w.v[va + l]! : 0) + (sv ? w.s[saddr]! : 0) + off) | 0;
  }
  if (inst.encoding === 'GLOBAL' && saddr !== SADDR_OFF) {
    const va = srcRows(env, inst, f.addr ?? 0, 1, 'address', findings)[0]!;
    const sa = saddr & ~1;
    return (w, l) => w.s[sa]! + w.s[sa + 1]! * 0x1_0000_0000 + w.v[va + l]! + off;
  }
  const rows = srcRows(env, inst, f.addr ?? 0, 2, 'address', findings);
  const lo = rows[0]!;
  const hi = rows[1]!;
  return (w, l) => w.v[lo + l]! + w.v[hi + l]! * 0x1_0000_0000 + off;
}

function counterFor(inst: Instruction, env: ExecEnv, returns: boolean): (w: Wave) => void {
  const k = returns ? 'vmcnt' : storeCounter(env.space);
  return inst.encoding === 'FLAT' ? (w) => { if (w[k] < CNT_MAX) w[k]++; if (w.lgkmcnt < CNT_MAX) w.lgkmcnt++; } : (w) => void (w[k] < CNT_MAX && w[k]++);
}

interface Access {
  readonly store: boolean;
  readonly bytes: number;
  readonly count: number;
  readonly signed: boolean;
  readonly d16: 'lo' | 'hi' | null;
}

function accessOf(mn: string): Access | null {
  const m = /_(load|store)_(b|u|i|d16_b|d16_u|d16_i|d16_hi_b|d16_hi_u|d16_hi_i)(8|16|32|64|96|128)$/.exec(mn);
  if (!m) return null;
  const store = m[1] === 'store';
  const kind = m[2]!;
  const bits = Number(m[3]);
  const d16 = kind.startsWith('d16_hi') ? 'hi' : kind.startsWith('d16') ? 'lo' : null;
  if (bits >= 32) return { bytes: 4, count: bits / 32, signed: false, store, d16 };
  return { bytes: bits / 8, count: 1, signed: kind.endsWith('i'), store, d16 };
}

/** Alignment handling of one access (see vmem.ts): returns the address to use. */
function aligner(env: ExecEnv, inst: Instruction, elem: number): (w: Wave, l: number, a: number) => number {
  const { unit, strict } = vmemAlign(alignModeOf(env), elem);
  if (unit === 1) return (_w, _l, a) => a;
  const report = onceReporter(env, inst, 'gfx11.mem.misaligned', 'error', true);
  return (w, l, a) => {
    const r = a % unit;
    if (r === 0) return a;
    if (strict) report(w, l, a, `address 0x${a.toString(16)} is not ${unit}-byte aligned under alignment mode ${alignModeOf(env)}: MEMVIOL`);
    return a - r;
  };
}

function bindAccess(inst: Instruction, env: ExecEnv) {
  const acc = accessOf(inst.mnemonic)!;
  const findings: Finding[] = [];
  const f = inst.fields;
  const ws = env.waveSize;
  const addr = addressOf(inst, env, findings);
  const { rd, wr } = family(inst);
  const data = acc.store ? srcRows(env, inst, f.data ?? 0, acc.count, 'data', findings) : null;
  const ok = acc.store || dstInRange(env, inst, f.vdst ?? 0, acc.count, findings);
  const d = (f.vdst ?? 0) * ws;
  const cnt = counterFor(inst, env, !acc.store);
  const oob = onceReporter(env, inst, 'gfx11.scratch.out-of-range', 'warning');
  const cls = inst.encoding === 'FLAT' ? ('flat' as const) : ('vmem' as const);
  const oobFn = (ww: Wave, l: number, a: number) => oob(ww, l, a, `private-segment offset ${a} is outside the lane's ${ww.scratchPerLane}-byte scratch: reads 0, writes dropped`);
  const ref = withViolation({ run: bindAccessRef(inst, env, acc, addr, rd, wr, data, ok, d, cnt, oobFn) }).run;
  const byte = acc.bytes === 1 && !acc.store && acc.d16 === null ? (acc.signed ? 'i8' as const : 'u8' as const) : undefined;
  if (memFastPaths(env) && (inst.encoding === 'GLOBAL' || inst.encoding === 'FLAT') && (acc.bytes === 4 || byte !== undefined) && alignModeOf(env) === 'unaligned' && ok) {
    // Fast engine: every active lane inside one segment, dword-aligned -> its Uint32Array directly
    // (fast-mem.ts); anything else (a fault, a segment boundary, an aperture, misalignment) takes
    // the reference path.
    const saddr = f.saddr ?? SADDR_OFF;
    const sv = inst.encoding === 'GLOBAL' && saddr !== SADDR_OFF;
    // (The reference reports an out-of-range address register; both read VGPR0 for it.)
    const rows = srcRows(env, inst, f.addr ?? 0, sv ? 1 : 2, 'address', []);
    const fast = fastFlatDword({
      ws, flat: inst.encoding === 'FLAT', saddr: sv ? saddr & ~1 : -1, lo: rows[0]!, hi: sv ? 0 : rows[1]!,
      off: inst.encoding === 'FLAT' ? (f.offset ?? 0) & 0xfff : ((f.offset ?? 0) << 19) >> 19,
      count: acc.count, store: acc.store, data: data ? [...data] : [], d, storeCnt: storeCounter(env.space), ...(byte !== undefined ? { byte } : {}),
    }, ref);
    return { cls, findings, run: fast.run, inline: fast.inline };
  }
  if (memFastPaths(env) && inst.encoding === 'SCRATCH' && acc.bytes === 4 && alignModeOf(env) === 'unaligned' && ok) {
    const fast = scratchFastPath(inst, env, acc.count, data, d, cnt);
    return { cls, findings, run: markFast((w: Wave) => void (fast(w) || ref(w))) };
  }
  return { cls, findings, run: ref };
}

/**
 * The fast path of a dword-multiple SCRATCH load or store: every active lane's private offset
 * inside its scratch and the lanes' bytes in one segment, dword-aligned; else false, nothing done.
 */
function scratchFastPath(inst: Instruction, env: ExecEnv, count: number, data: Int32Array | null, d: number, cnt: (w: Wave) => void): (w: Wave) => boolean {
  const f = inst.fields;
  const ws = env.waveSize;
  const off = ((f.offset ?? 0) << 19) >> 19;
  const saddr = f.saddr ?? SADDR_OFF;
  const sv = saddr !== SADDR_OFF;
  const vOn = (f.sve ?? 0) === 1;
  const va = vOn ? srcRows(env, inst, f.addr ?? 0, 1, 'address', [])[0]! : 0;
  const span = 4 * count;
  return (w) => {
    const v = w.v;
    const eLo = w.s[126]!;
    const eHi = ws === 64 ? w.s[127]! : 0;
    if (eLo === 0 && eHi === 0) return false;
    const per = w.scratchPerLane;
    const sOff = sv ? w.s[saddr]! : 0;
    const seg = w.mem.find(w.scratchBase, Math.max(1, per * ws));
    if (seg === null || seg.u32 === null) return false;
    const rel = w.scratchBase - seg.base;
    let n = 0;
    for (let l = 0; l < ws; l++) {
      if ((((l < 32 ? eLo >>> l : eHi >>> (l - 32)) & 1)) === 0) continue;
      const o = ((vOn ? v[va + l]! : 0) + sOff + off) | 0;
      if (o < 0 || o + span > per) return false;
      const b = rel + l * per + o;
      if ((b & 3) !== 0) return false;
      IDX[l] = b >>> 2;
      n++;
    }
    cnt(w);
    const u32 = seg.u32;
    for (let l = 0; l < ws; l++) {
      if ((((l < 32 ? eLo >>> l : eHi >>> (l - 32)) & 1)) === 0) continue;
      const i = IDX[l]!;
      if (data !== null) for (let k = 0; k < count; k++) u32[i + k] = v[data[k]! + l]!;
      else for (let k = 0; k < count; k++) v[d + k * ws + l] = u32[i + k]!;
    }
    w.laneOps += n;
    return true;
  };
}

/** Scratch for the fast paths: per-lane dword index into the segment. */
const IDX = new Int32Array(64);

/** The reference FLAT/GLOBAL/SCRATCH load/store handler. */
function bindAccessRef(
  inst: Instruction, env: ExecEnv, acc: Access, addr: (w: Wave, l: number) => number, rd: Rd, wr: Wr,
  data: Int32Array | null, ok: boolean, d: number, cnt: (w: Wave) => void, oobFn: (w: Wave, l: number, a: number) => void,
): (w: Wave) => void {
  const ws = env.waveSize;
  const align = aligner(env, inst, acc.bytes);
  if (inst.encoding === 'GLOBAL' && acc.bytes === 4 && alignModeOf(env) === 'unaligned') {
    // The common case, without the per-lane indirections: dword-multiple global access.
    const count = acc.count;
    return (w: Wave) => {
        cnt(w);
        if (!ok) return;
        const v = w.v;
        const mem = w.mem;
        const eLo = w.s[126]!;
        const eHi = ws === 64 ? w.s[127]! : 0;
        let n = 0;
        for (let l = 0; l < ws; l++) {
          if ((((l < 32 ? eLo >>> l : eHi >>> (l - 32)) & 1)) === 0) continue;
          n++;
          const a = addr(w, l);
          if (data !== null) for (let k = 0; k < count; k++) mem.write32(a + 4 * k, v[data[k]! + l]!);
          else for (let k = 0; k < count; k++) v[d + k * ws + l] = mem.read32(a + 4 * k);
        }
        w.laneOps += n;
    };
  }
  return (w: Wave) => {
      cnt(w);
      if (!ok) return;
      scratchOob = oobFn;
      const v = w.v;
      let n = 0;
      for (let l = 0; l < ws; l++) {
        if (!laneOn(w, l)) continue;
        n++;
        const a = align(w, l, addr(w, l));
        if (data !== null) {
          if (acc.bytes < 4) wr(w, a, l, acc.bytes, acc.d16 === 'hi' ? v[data[0]! + l]! >>> 16 : v[data[0]! + l]!);
          else for (let k = 0; k < acc.count; k++) wr(w, a + 4 * k, l, 4, v[data[k]! + l]!);
        } else if (acc.bytes < 4) {
          let x = rd(w, a, l, acc.bytes);
          if (acc.signed) x = acc.bytes === 1 ? (x << 24) >> 24 : (x << 16) >> 16;
          if (acc.d16 === 'lo') v[d + l] = (v[d + l]! & 0xffff0000) | (x & 0xffff);
          else if (acc.d16 === 'hi') v[d + l] = ((v[d + l]! & 0xffff) | (x << 16)) >>> 0;
          else v[d + l] = x >>> 0;
        } else if (acc.count > 1 && inst.encoding === 'FLAT' && a - (a % APERTURE.SIZE) === APERTURE.SHARED && !ldsInRange(w, a - APERTURE.SHARED, 4 * acc.count)) {
          // A multi-dword LDS read with any part out of range returns all zeros.
          for (let k = 0; k < acc.count; k++) v[d + k * ws + l] = 0;
        } else for (let k = 0; k < acc.count; k++) v[d + k * ws + l] = rd(w, a + 4 * k, l, 4);
      }
      scratchOob = null;
      w.laneOps += n;
  };
}

for (const seg of ['flat', 'global', 'scratch']) {
  for (const t of ['u8', 'i8', 'u16', 'i16', 'b32', 'b64', 'b96', 'b128', 'd16_u8', 'd16_i8', 'd16_b16', 'd16_hi_u8', 'd16_hi_i8', 'd16_hi_b16']) define(`${seg}_load_${t}`, (i, e) => withCachePolicy(i, e, bindAccess(i, e), false));
  for (const t of ['b8', 'b16', 'b32', 'b64', 'b96', 'b128', 'd16_hi_b8', 'd16_hi_b16']) define(`${seg}_store_${t}`, (i, e) => withCachePolicy(i, e, bindAccess(i, e), true));
}

/** global_load/store_addtid_b32: address = SGPR pair (or 0 with saddr off) + offset + lane * 4. */
for (const store of [false, true]) {
  define(store ? 'global_store_addtid_b32' : 'global_load_addtid_b32', (inst, env) => {
    const f = inst.fields;
    const ws = env.waveSize;
    const findings: Finding[] = [];
    const off = ((f.offset ?? 0) << 19) >> 19;
    const saddr = f.saddr ?? SADDR_OFF;
    const sa = saddr & ~1;
    const data = store ? srcRows(env, inst, f.data ?? 0, 1, 'data', findings)[0]! : 0;
    const ok = store || dstInRange(env, inst, f.vdst ?? 0, 1, findings);
    const d = (f.vdst ?? 0) * ws;
    const cnt = counterFor(inst, env, !store);
    return {
      cls: 'vmem',
      findings,
      run: (w) => {
        cnt(w);
        if (!ok) return;
        const base = (saddr === SADDR_OFF ? 0 : w.s[sa]! + w.s[sa + 1]! * 0x1_0000_0000) + off;
        for (let l = 0; l < ws; l++) {
          if (!laneOn(w, l)) continue;
          if (store) memWrite(w, base + 4 * l, 4, w.v[data + l]!);
          else w.v[d + l] = memRead(w, base + 4 * l, 4);
        }
      },
    };
  });
}

// ---- atomics: 32/64-bit integer and float, with return when glc is set ------------------------

function bindAtomic(inst: Instruction, env: ExecEnv, key: string, wide: boolean) {
  const f = inst.fields;
  const ws = env.waveSize;
  const findings: Finding[] = [];
  const dw = wide ? 2 : 1;
  const bytes = 4 * dw;
  const addr = addressOf(inst, env, findings);
  const { rd, wr } = family(inst);
  const cmp = key === 'cmpswap' || key === 'cmpswap_f';
  // cmpswap data: DATA[0..dw) = new value, DATA[dw..2dw) = compare value.
  const data = srcRows(env, inst, f.data ?? 0, cmp ? 2 * dw : dw, 'data', findings);
  const ret = (f.glc ?? 0) === 1;
  const ok = !ret || dstInRange(env, inst, f.vdst ?? 0, dw, findings);
  const d = (f.vdst ?? 0) * ws;
  const cnt = counterFor(inst, env, ret);
  const fn32 = ATOMIC32[key]!;
  const fn64 = ATOMIC64[key]!;
  const misaligned = onceReporter(env, inst, 'gfx11.mem.misaligned-atomic', 'error', true);
  const isFlat = inst.encoding === 'FLAT';
  return {
    cls: inst.encoding === 'FLAT' ? ('flat' as const) : ('vmem' as const),
    findings,
    run: (w: Wave) => {
      cnt(w);
      if (!ok) return;
      const v = w.v;
      let n = 0;
      for (let l = 0; l < ws; l++) {
        if (!laneOn(w, l)) continue;
        n++;
        const a = addr(w, l);
        if (a % bytes !== 0) {
          misaligned(w, l, a, `${bytes * 8}-bit atomic at 0x${a.toString(16)} is not ${bytes}-byte aligned: MEMVIOL`);
          continue;
        }
        // Global memory (not an LDS/scratch aperture) goes through memAtomic32/64: atomic
        // across the threads of a parallel run when memory is shared.
        const global = !isFlat || (a - (a % APERTURE.SIZE) !== APERTURE.SHARED && a - (a % APERTURE.SIZE) !== APERTURE.PRIVATE);
        if (!wide) {
          let old: number;
          if (global) old = memAtomic32(w, a, fn32, v[data[0]! + l]!, cmp ? v[data[1]! + l]! : 0);
          else {
            old = rd(w, a, l, 4);
            wr(w, a, l, 4, fn32(old, v[data[0]! + l]!, cmp ? v[data[1]! + l]! : 0));
          }
          if (ret) v[d + l] = old;
        } else if (global) {
          const oLo = cmp
            ? memAtomic64(w, a, fn64, v[data[0]! + l]!, v[data[1]! + l]!, v[data[2]! + l]!, v[data[3]! + l]!)
            : memAtomic64(w, a, fn64, v[data[0]! + l]!, v[data[1]! + l]!, 0, 0);
          if (ret) {
            v[d + ws + l] = R64[0]!;
            v[d + l] = oLo;
          }
        } else {
          const oLo = rd(w, a, l, 4);
          const oHi = rd(w, a + 4, l, 4);
          const lo = cmp
            ? fn64(oLo, oHi, v[data[0]! + l]!, v[data[1]! + l]!, v[data[2]! + l]!, v[data[3]! + l]!)
            : fn64(oLo, oHi, v[data[0]! + l]!, v[data[1]! + l]!, 0, 0);
          const hi = R64[0]!;
          wr(w, a, l, 4, lo);
          wr(w, a + 4, l, 4, hi);
          if (ret) {
            v[d + l] = oLo;
            v[d + ws + l] = oHi;
          }
        }
      }
      w.laneOps += n;
    },
  };
}

for (const seg of ['flat', 'global']) {
  const ops = [
    'swap_b32', 'cmpswap_b32', 'add_u32', 'sub_u32', 'min_i32', 'min_u32', 'max_i32', 'max_u32', 'and_b32', 'or_b32', 'xor_b32', 'inc_u32', 'dec_u32',
    'swap_b64', 'cmpswap_b64', 'add_u64', 'sub_u64', 'min_i64', 'min_u64', 'max_i64', 'max_u64', 'and_b64', 'or_b64', 'xor_b64', 'inc_u64', 'dec_u64',
    'cmpswap_f32', 'min_f32', 'max_f32', 'add_f32',
  ];
  if (seg === 'global') ops.push('csub_u32');
  for (const op of ops) {
    const k = atomicKey(op)!;
    define(`${seg}_atomic_${op}`, (inst, env) => withAtomicCaches(inst, env, withViolation(bindAtomic(inst, env, k.key, k.wide))));
  }
  // GFX10.3's f64 atomics (GFX11 dropped them): the f32 forms' operations on 64-bit data.
  for (const [op, key] of [['fcmpswap_x2', 'cmpswap_f'], ['fmin_x2', 'min_f'], ['fmax_x2', 'max_f']] as const) {
    define(`${seg}_atomic_${op}`, (inst, env) => withAtomicCaches(inst, env, withViolation(bindAtomic(inst, env, key, true))));
  }
}
