/**
 * Vector memory: FLAT / GLOBAL / SCRATCH and DS (LDS). Functional model: each access completes at
 * issue; VM_CNT (loads and atomics with return), VS_CNT (stores) and LGKM_CNT (LDS) count the
 * operations until an s_waitcnt retires them.
 *
 * Address spaces: a flat address inside the shared aperture goes to the workgroup's LDS, inside the
 * private aperture to the lane's scratch, anything else to global memory. Scratch is per lane,
 * lane-major inside the wave's private segment (the hardware swizzle is invisible to the kernel).
 * LDS (wave-state seed): out-of-range writes are dropped, out-of-range reads return 0 and a
 * multi-dword read with any dword out of range returns all zeros.
 */
import type { Instruction } from '../isa/types.js';
import type { Wave } from '../wave/wave.js';
import { SREG } from '../wave/wave.js';
import type { ExecEnv } from './env.js';
import { define, type Finding } from './registry.js';

const CNT_MAX = 63;
const SADDR_OFF = 124;

/** Apertures (upper 16 bits of a flat address select them). */
export const APERTURE = { SHARED: 0x7fff_0000_0000, PRIVATE: 0x7ffe_0000_0000, SIZE: 0x1_0000_0000 } as const;

interface Access {
  /** Bytes per element and element count (dwords for b32..b128). */
  readonly bytes: number;
  readonly count: number;
  readonly signed: boolean;
  readonly store: boolean;
  /** d16: 16-bit data into the low (or with _hi, high) half of the VGPR. */
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

function laneOn(w: Wave, l: number): boolean {
  return l < 32 ? ((w.s[SREG.EXEC_LO]! >>> l) & 1) === 1 : ((w.s[SREG.EXEC_HI]! >>> (l - 32)) & 1) === 1;
}

/** Read `bytes` (1, 2, 4) at a flat/global/scratch address for lane l. */
type Rd = (w: Wave, addr: number, l: number, bytes: number) => number;
type Wr = (w: Wave, addr: number, l: number, bytes: number, v: number) => void;

function ldsRead(w: Wave, a: number, bytes: number): number {
  if (a < 0 || a + bytes > w.lds.length) return 0;
  const dv = w.ldsView;
  return bytes === 4 ? dv.getUint32(a, true) : bytes === 2 ? dv.getUint16(a, true) : dv.getUint8(a);
}
function ldsWrite(w: Wave, a: number, bytes: number, v: number): void {
  if (a < 0 || a + bytes > w.lds.length) return;
  const dv = w.ldsView;
  if (bytes === 4) dv.setUint32(a, v >>> 0, true);
  else if (bytes === 2) dv.setUint16(a, v & 0xffff, true);
  else dv.setUint8(a, v & 0xff);
}

function memRead(w: Wave, a: number, bytes: number): number {
  return bytes === 4 ? w.mem.read32(a) : bytes === 2 ? w.mem.read16(a) : w.mem.read8(a);
}
function memWrite(w: Wave, a: number, bytes: number, v: number): void {
  if (bytes === 4) w.mem.write32(a, v);
  else if (bytes === 2) w.mem.write16(a, v & 0xffff);
  else w.mem.write8(a, v & 0xff);
}

function scratchAddr(w: Wave, off: number, l: number): number {
  return w.scratchBase + l * w.scratchPerLane + off;
}

const flatRead: Rd = (w, a, l, b) => {
  const ap = a - (a % APERTURE.SIZE);
  if (ap === APERTURE.SHARED) return ldsRead(w, a - APERTURE.SHARED, b);
  if (ap === APERTURE.PRIVATE) return memRead(w, scratchAddr(w, a - APERTURE.PRIVATE, l), b);
  return memRead(w, a, b);
};
const flatWrite: Wr = (w, a, l, b, v) => {
  const ap = a - (a % APERTURE.SIZE);
  if (ap === APERTURE.SHARED) return ldsWrite(w, a - APERTURE.SHARED, b, v);
  if (ap === APERTURE.PRIVATE) return memWrite(w, scratchAddr(w, a - APERTURE.PRIVATE, l), b, v);
  memWrite(w, a, b, v);
};
const globalRead: Rd = (w, a, _l, b) => memRead(w, a, b);
const globalWrite: Wr = (w, a, _l, b, v) => memWrite(w, a, b, v);
const scratchRead: Rd = (w, a, l, b) => memRead(w, scratchAddr(w, a, l), b);
const scratchWrite: Wr = (w, a, l, b, v) => memWrite(w, scratchAddr(w, a, l), b, v);

/** Per-lane address function of a FLAT-family instruction. */
function addressOf(inst: Instruction, env: ExecEnv): (w: Wave, l: number) => number {
  const f = inst.fields;
  const off = ((f.offset ?? 0) << 19) >> 19; // 13-bit signed
  const ws = env.waveSize;
  const vaddr = (f.addr ?? 0) * ws;
  const saddr = f.saddr ?? SADDR_OFF;
  if (inst.encoding === 'SCRATCH') {
    // scratch: (VGPR offset if SVE) + (SGPR offset unless saddr is off) + instruction offset
    const sv = saddr !== SADDR_OFF;
    const vOn = (f.sve ?? 0) === 1;
    return (w, l) => (vOn ? w.v[vaddr + l]! : 0) + (sv ? w.s[saddr]! : 0) + off;
  }
  if (inst.encoding === 'GLOBAL' && saddr !== SADDR_OFF) {
    return (w, l) => w.s[saddr]! + w.s[saddr + 1]! * 0x1_0000_0000 + w.v[vaddr + l]! + off;
  }
  return (w, l) => w.v[vaddr + l]! + w.v[vaddr + ws + l]! * 0x1_0000_0000 + off;
}

function flatFamily(inst: Instruction): { rd: Rd; wr: Wr } {
  if (inst.encoding === 'GLOBAL') return { rd: globalRead, wr: globalWrite };
  if (inst.encoding === 'SCRATCH') return { rd: scratchRead, wr: scratchWrite };
  return { rd: flatRead, wr: flatWrite };
}

function vdstCheck(env: ExecEnv, inst: Instruction, r: number, n: number, findings: Finding[]): boolean {
  if (r + n > env.vgprs) {
    findings.push({ id: 'gfx11.vgpr.dst-out-of-range', message: `${inst.mnemonic}: v${r}..v${r + n - 1} is past the ${env.vgprs} allocated VGPRs; the access is issued with EXEC=0` });
    return false;
  }
  return true;
}

for (const seg of ['flat', 'global', 'scratch']) {
  for (const op of ['load', 'store']) {
    for (const t of ['b8', 'b16', 'b32', 'b64', 'b96', 'b128', 'u8', 'i8', 'u16', 'i16', 'd16_b16', 'd16_u8', 'd16_i8', 'd16_hi_b16', 'd16_hi_u8', 'd16_hi_i8']) {
      if (op === 'store' && (t.startsWith('u') || t.startsWith('i') || t === 'd16_b16' || /d16_(hi_)?[ui]8/.test(t))) continue;
      if (op === 'load' && (t === 'b8' || t === 'b16')) continue;
      const name = `${seg}_${op}_${t}`;
      define(name, (inst, env) => bindFlatAccess(inst, env));
    }
  }
}

function bindFlatAccess(inst: Instruction, env: ExecEnv) {
  const acc = accessOf(inst.mnemonic)!;
  const findings: Finding[] = [];
  const f = inst.fields;
  const ws = env.waveSize;
  const addr = addressOf(inst, env);
  const { rd, wr } = flatFamily(inst);
  const data = (f.data ?? 0) * ws;
  const vd = f.vdst ?? 0;
  const ok = acc.store || vdstCheck(env, inst, vd, acc.count, findings);
  const d = vd * ws;
  const cls = inst.encoding === 'FLAT' ? 'flat' as const : 'vmem' as const;
  return {
    cls,
    findings,
    run: (w: Wave) => {
      if (acc.store) w.vscnt < CNT_MAX && w.vscnt++;
      else w.vmcnt < CNT_MAX && w.vmcnt++;
      if (!ok) return;
      const v = w.v;
      let n = 0;
      for (let l = 0; l < ws; l++) {
        if (!laneOn(w, l)) continue;
        n++;
        const a = addr(w, l);
        if (acc.store) {
          if (acc.bytes < 4) wr(w, a, l, acc.bytes, acc.d16 === 'hi' ? v[data + l]! >>> 16 : v[data + l]!);
          else for (let k = 0; k < acc.count; k++) wr(w, a + 4 * k, l, 4, v[data + k * ws + l]!);
        } else if (acc.bytes < 4) {
          let x = rd(w, a, l, acc.bytes);
          if (acc.signed) x = acc.bytes === 1 ? (x << 24) >> 24 : (x << 16) >> 16;
          if (acc.d16 === 'lo') v[d + l] = (v[d + l]! & 0xffff0000) | (x & 0xffff);
          else if (acc.d16 === 'hi') v[d + l] = (v[d + l]! & 0xffff) | (x << 16);
          else v[d + l] = x;
        } else for (let k = 0; k < acc.count; k++) v[d + k * ws + l] = rd(w, a + 4 * k, l, 4);
      }
      w.laneOps += n;
    },
  };
}

// ---- atomics (global/flat): 32-bit and 64-bit, with or without return (glc)
type Atomic32 = (old: number, src: number, cmp: number) => number;
const ATOMIC32: Record<string, Atomic32> = {
  swap_b32: (_o, s) => s, cmpswap_b32: (o, s, c) => (o === c ? s : o), add_u32: (o, s) => o + s, sub_u32: (o, s) => o - s,
  min_i32: (o, s) => Math.min(o | 0, s | 0), max_i32: (o, s) => Math.max(o | 0, s | 0), min_u32: (o, s) => Math.min(o, s),
  max_u32: (o, s) => Math.max(o, s), and_b32: (o, s) => o & s, or_b32: (o, s) => o | s, xor_b32: (o, s) => o ^ s,
  inc_u32: (o, s) => (o >= s ? 0 : o + 1), dec_u32: (o, s) => (o === 0 || o > s ? s : o - 1),
  csub_u32: (o, s) => (o >= s ? o - s : 0),
};
for (const seg of ['flat', 'global']) {
  for (const [k, fn] of Object.entries(ATOMIC32)) {
    define(`${seg}_atomic_${k}`, (inst, env) => {
      const f = inst.fields;
      const ws = env.waveSize;
      const addr = addressOf(inst, env);
      const { rd, wr } = flatFamily(inst);
      const data = (f.data ?? 0) * ws;
      const ret = (f.glc ?? 0) === 1;
      const d = (f.vdst ?? 0) * ws;
      const cmpswap = k === 'cmpswap_b32';
      const findings: Finding[] = [];
      return {
        cls: inst.encoding === 'FLAT' ? 'flat' : 'vmem',
        findings,
        run: (w) => {
          if (ret) w.vmcnt < CNT_MAX && w.vmcnt++;
          else w.vscnt < CNT_MAX && w.vscnt++;
          for (let l = 0; l < ws; l++) {
            if (!laneOn(w, l)) continue;
            const a = addr(w, l);
            if (a % 4 !== 0) {
              env.diag.report({ id: 'gfx11.mem.misaligned-atomic', severity: 'error', where: { pc: w.pc - inst.size, wave: w.id, lane: l, address: a }, message: `${inst.mnemonic}: 32-bit atomic at a non-dword-aligned address raises MEMVIOL`, seed: '001_5e6764f932d07b8a.txt' });
              continue;
            }
            const old = rd(w, a, l, 4);
            const src = w.v[data + l]!;
            const cmp = cmpswap ? w.v[data + ws + l]! : 0;
            wr(w, a, l, 4, fn(old, src, cmp) >>> 0);
            if (ret) w.v[d + l] = old;
          }
        },
      };
    });
  }
}

// ---- cache controls: no data effect in the functional model
define(['buffer_gl0_inv', 'buffer_gl1_inv'], () => ({ cls: 'vmem', run: () => {} }));

// ---- DS (LDS)
/** LDS address of a lane: VGPR addr + offset (byte), no forced alignment in UNALIGNED mode. */
function dsSingle(name: string, kind: 'load' | 'store', bytes: number, count: number, signed = false): void {
  define(name, (inst, env) => {
    const f = inst.fields;
    const ws = env.waveSize;
    const off = (f.offset0 ?? 0) | ((f.offset1 ?? 0) << 8);
    const a0 = (f.addr ?? 0) * ws;
    const data = (f.data0 ?? 0) * ws;
    const d = (f.vdst ?? 0) * ws;
    return {
      cls: 'lds',
      run: (w) => {
        w.lgkmcnt < CNT_MAX && w.lgkmcnt++;
        const v = w.v;
        for (let l = 0; l < ws; l++) {
          if (!laneOn(w, l)) continue;
          const a = v[a0 + l]! + off;
          if (kind === 'store') {
            if (bytes < 4) ldsWrite(w, a, bytes, v[data + l]!);
            else for (let k = 0; k < count; k++) ldsWrite(w, a + 4 * k, 4, v[data + k * ws + l]!);
          } else if (bytes < 4) {
            let x = ldsRead(w, a, bytes);
            if (signed) x = bytes === 1 ? (x << 24) >> 24 : (x << 16) >> 16;
            v[d + l] = x;
          } else {
            const oob = a < 0 || a + 4 * count > w.lds.length;
            for (let k = 0; k < count; k++) v[d + k * ws + l] = oob ? 0 : ldsRead(w, a + 4 * k, 4);
          }
        }
      },
    };
  });
}
dsSingle('ds_load_b32', 'load', 4, 1);
dsSingle('ds_load_b64', 'load', 4, 2);
dsSingle('ds_load_b96', 'load', 4, 3);
dsSingle('ds_load_b128', 'load', 4, 4);
dsSingle('ds_load_u8', 'load', 1, 1);
dsSingle('ds_load_i8', 'load', 1, 1, true);
dsSingle('ds_load_u16', 'load', 2, 1);
dsSingle('ds_load_i16', 'load', 2, 1, true);
dsSingle('ds_store_b32', 'store', 4, 1);
dsSingle('ds_store_b64', 'store', 4, 2);
dsSingle('ds_store_b96', 'store', 4, 3);
dsSingle('ds_store_b128', 'store', 4, 4);
dsSingle('ds_store_b8', 'store', 1, 1);
dsSingle('ds_store_b16', 'store', 2, 1);

/** ds_*_2addr_*: two accesses at addr + offset0*size and addr + offset1*size (stride64: *64). */
function ds2(name: string, kind: 'load' | 'store', dw: 1 | 2, stride64: boolean): void {
  define(name, (inst, env) => {
    const f = inst.fields;
    const ws = env.waveSize;
    const unit = 4 * dw * (stride64 ? 64 : 1);
    const o0 = (f.offset0 ?? 0) * unit;
    const o1 = (f.offset1 ?? 0) * unit;
    const a0 = (f.addr ?? 0) * ws;
    const d0 = (f.data0 ?? 0) * ws;
    const d1 = (f.data1 ?? 0) * ws;
    const d = (f.vdst ?? 0) * ws;
    return {
      cls: 'lds',
      run: (w) => {
        w.lgkmcnt < CNT_MAX && w.lgkmcnt++;
        const v = w.v;
        for (let l = 0; l < ws; l++) {
          if (!laneOn(w, l)) continue;
          const a = v[a0 + l]!;
          for (let k = 0; k < dw; k++) {
            if (kind === 'store') {
              ldsWrite(w, a + o0 + 4 * k, 4, v[d0 + k * ws + l]!);
              ldsWrite(w, a + o1 + 4 * k, 4, v[d1 + k * ws + l]!);
            } else {
              v[d + k * ws + l] = ldsRead(w, a + o0 + 4 * k, 4);
              v[d + (dw + k) * ws + l] = ldsRead(w, a + o1 + 4 * k, 4);
            }
          }
        }
      },
    };
  });
}
ds2('ds_load_2addr_b32', 'load', 1, false);
ds2('ds_load_2addr_b64', 'load', 2, false);
ds2('ds_load_2addr_stride64_b32', 'load', 1, true);
ds2('ds_load_2addr_stride64_b64', 'load', 2, true);
ds2('ds_store_2addr_b32', 'store', 1, false);
ds2('ds_store_2addr_b64', 'store', 2, false);
ds2('ds_store_2addr_stride64_b32', 'store', 1, true);
ds2('ds_store_2addr_stride64_b64', 'store', 2, true);

/** DS 32-bit atomics, with (_rtn) and without return. */
for (const [k, fn] of Object.entries(ATOMIC32)) {
  const base = k.replace('swap_b32', 'storexchg_rtn_b32');
  void base;
  const dsName = k === 'swap_b32' ? null : k === 'cmpswap_b32' ? 'cmpstore_b32' : k;
  if (!dsName) continue;
  for (const rtn of [false, true]) {
    const name = rtn ? `ds_${dsName.replace(/_(b32|u32|i32)$/, '_rtn_$1')}` : `ds_${dsName}`;
    define(name, (inst, env) => {
      const f = inst.fields;
      const ws = env.waveSize;
      const off = (f.offset0 ?? 0) | ((f.offset1 ?? 0) << 8);
      const a0 = (f.addr ?? 0) * ws;
      const data = (f.data0 ?? 0) * ws;
      const data1 = (f.data1 ?? 0) * ws;
      const d = (f.vdst ?? 0) * ws;
      const cmp = k === 'cmpswap_b32';
      return {
        cls: 'lds',
        run: (w) => {
          w.lgkmcnt < CNT_MAX && w.lgkmcnt++;
          const v = w.v;
          for (let l = 0; l < ws; l++) {
            if (!laneOn(w, l)) continue;
            const a = v[a0 + l]! + off;
            const old = ldsRead(w, a, 4);
            // ds_cmpstore: DATA0 is the new value, DATA1 the compare value.
            const nv = cmp ? (old === v[data1 + l]! ? v[data + l]! : old) : fn(old, v[data + l]!, 0);
            ldsWrite(w, a, 4, nv >>> 0);
            if (rtn) v[d + l] = old;
          }
        },
      };
    });
  }
}

/** ds_bpermute_b32: dst[l] = src[addr[l]/4 % ws] (reads lanes regardless of EXEC). */
define('ds_bpermute_b32', (inst, env) => {
  const f = inst.fields;
  const ws = env.waveSize;
  const off = (f.offset0 ?? 0) | ((f.offset1 ?? 0) << 8);
  const a0 = (f.addr ?? 0) * ws;
  const data = (f.data0 ?? 0) * ws;
  const d = (f.vdst ?? 0) * ws;
  const tmp = new Uint32Array(64);
  return {
    cls: 'lds',
    run: (w) => {
      w.lgkmcnt < CNT_MAX && w.lgkmcnt++;
      const v = w.v;
      for (let l = 0; l < ws; l++) tmp[l] = v[data + l]!;
      for (let l = 0; l < ws; l++) {
        if (!laneOn(w, l)) continue;
        const src = (((v[a0 + l]! + off) >>> 2) & (ws - 1));
        v[d + l] = laneOn(w, src) ? tmp[src]! : 0;
      }
    },
  };
});
