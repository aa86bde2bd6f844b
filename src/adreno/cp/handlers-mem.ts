/**
 * Packets that move data between memory, registers and the SQE scratch: CP_MEM_WRITE,
 * CP_MEM_TO_MEM, CP_MEMCPY, CP_REG_TO_MEM, CP_MEM_TO_REG, CP_REG_RMW, the scratch packets and
 * the register bunches. Register writes from the ring buffer (level 0) are privileged.
 */
import type { CommandProcessor } from './cp.js';
import { a64, need, type Handler } from './exec.js';
import type { PacketRecord } from './walker.js';

function memWrite(cp: CommandProcessor, r: PacketRecord): number {
  need(cp, r, 2);
  const p = r.payload;
  const addr = a64(p, 0);
  for (let k = 2; k < p.length; k++) cp.cpWrite32(addr + (k - 2) * 4, p[k]!);
  return 0;
}

/** Sum of up to N sources (NEG_A/B/C negate the first three), 32 or 64 bits (DOUBLE). */
function memToMem(cp: CommandProcessor, r: PacketRecord): number {
  need(cp, r, 5);
  const p = r.payload;
  const d0 = p[0]!;
  const dbl = (d0 >>> 29) & 1;
  const dst = a64(p, 1);
  let sum = 0;
  const nsrc = (p.length - 3) >> 1;
  for (let s = 0; s < nsrc; s++) {
    const sa = a64(p, 3 + 2 * s);
    let v = dbl ? cp.cpRead64(sa) : cp.cpRead32(sa);
    if (s < 3 && (d0 >>> s) & 1) v = -v;
    sum += v;
  }
  if (dbl) {
    // Wrap to 64 bits: exact for |values| < 2^53, which memory addresses and counters are.
    const lo = ((sum % 2 ** 32) + 2 ** 32) % 2 ** 32;
    const hi = Math.floor(sum / 2 ** 32);
    cp.cpWrite32(dst, lo >>> 0);
    cp.cpWrite32(dst + 4, hi >>> 0);
  } else cp.cpWrite32(dst, sum >>> 0);
  return 0;
}

function memcpy(cp: CommandProcessor, r: PacketRecord): number {
  need(cp, r, 5);
  const p = r.payload;
  const n = p[0]!;
  const src = a64(p, 1);
  const dst = a64(p, 3);
  for (let k = 0; k < n; k++) cp.cpWrite32(dst + 4 * k, cp.cpRead32(src + 4 * k));
  return 0;
}

/** CNT registers to memory (ACCUMULATE adds what is there). */
function regToMem(cp: CommandProcessor, r: PacketRecord): number {
  need(cp, r, 3);
  const p = r.payload;
  const reg = p[0]! & 0x3ffff;
  const cnt = Math.max((p[0]! >>> 18) & 0xfff, 1);
  const acc = (p[0]! >>> 31) & 1;
  const dst = a64(p, 1);
  cp.wfmCount++;
  cp.syncCounters();
  for (let k = 0; k < cnt; k++) {
    let v = cp.readReg(reg + k);
    if (acc) v = (v + cp.cpRead32(dst + 4 * k)) >>> 0;
    cp.cpWrite32(dst + 4 * k, v);
  }
  return 0;
}

function memToReg(cp: CommandProcessor, r: PacketRecord): number {
  need(cp, r, 3);
  const p = r.payload;
  const reg = p[0]! & 0x3ffff;
  const cnt = Math.max((p[0]! >>> 19) & 0x7ff, 1);
  const shl = (p[0]! >>> 30) & 1;
  const src = a64(p, 1);
  for (let k = 0; k < cnt; k++) {
    const v = cp.cpRead32(src + 4 * k);
    cp.writeReg(reg + k, shl ? v << 2 : v, r.level === 0);
  }
  return 0;
}

/** REG = rotl(REG & SRC0, ROTATE) then + or | SRC1 (sources immediate or registers). */
function regRmw(cp: CommandProcessor, r: PacketRecord): number {
  need(cp, r, 3);
  const p = r.payload;
  const d0 = p[0]!;
  const reg = d0 & 0x3ffff;
  const rot = (d0 >>> 24) & 31;
  cp.syncCounters();
  const s0 = (d0 >>> 31) & 1 ? cp.readReg(p[1]! & 0x3ffff) : p[1]!;
  const s1 = (d0 >>> 30) & 1 ? cp.readReg(p[2]! & 0x3ffff) : p[2]!;
  let v = (cp.readReg(reg) & s0) >>> 0;
  v = rot ? ((v << rot) | (v >>> (32 - rot))) >>> 0 : v;
  v = (d0 >>> 29) & 1 ? (v + s1) >>> 0 : (v | s1) >>> 0;
  cp.writeReg(reg, v, r.level === 0);
  return 0;
}

function regToScratch(cp: CommandProcessor, r: PacketRecord): number {
  need(cp, r, 1);
  const p = r.payload;
  const reg = p[0]! & 0x3ffff;
  const s = (p[0]! >>> 20) & 7;
  const cnt = ((p[0]! >>> 24) & 7) + 1;
  cp.wfmCount++;
  cp.syncCounters();
  for (let k = 0; k < cnt; k++) cp.sqeScratch[(s + k) & 7] = cp.readReg(reg + k);
  return 0;
}

function scratchToReg(cp: CommandProcessor, r: PacketRecord): number {
  need(cp, r, 1);
  const p = r.payload;
  const reg = p[0]! & 0x3ffff;
  const s = (p[0]! >>> 20) & 7;
  const cnt = ((p[0]! >>> 24) & 7) + 1;
  for (let k = 0; k < cnt; k++) cp.writeReg(reg + k, cp.sqeScratch[(s + k) & 7]!, r.level === 0);
  return 0;
}

function scratchWrite(cp: CommandProcessor, r: PacketRecord): number {
  need(cp, r, 1);
  const p = r.payload;
  const s0 = (p[0]! >>> 20) & 7;
  for (let k = 1; k < p.length; k++) cp.sqeScratch[(s0 + k - 1) & 7] = p[k]!;
  return 0;
}

/** a7xx: CNT dwords of memory into the 48-dword scratch memory at OFFSET. */
function memToScratchMem(cp: CommandProcessor, r: PacketRecord): number {
  need(cp, r, 4);
  const p = r.payload;
  const cnt = p[0]! & 0x3f;
  const off = p[1]! & 0x3f;
  const src = a64(p, 2);
  for (let k = 0; k < cnt; k++) if (off + k < cp.scratchMem.length) cp.scratchMem[off + k] = cp.cpRead32(src + 4 * k);
  return 0;
}

/** { register, value } pairs. */
function contextRegBunch(cp: CommandProcessor, r: PacketRecord): number {
  const p = r.payload;
  for (let k = 0; k + 1 < p.length; k += 2) cp.writeReg(p[k]! & 0x3ffff, p[k + 1]!, r.level === 0);
  return 0;
}

/** As CP_CONTEXT_REG_BUNCH after two leading dwords. */
function contextRegBunch2(cp: CommandProcessor, r: PacketRecord): number {
  const p = r.payload;
  for (let k = 2; k + 1 < p.length; k += 2) cp.writeReg(p[k]! & 0x3ffff, p[k + 1]!, r.level === 0);
  return 0;
}

/**
 * CP_REG_WRITE: the write, and with TRACKER TRACK_LRZ (a650's firmware) the LRZ tracking: an
 * LRZ_FLUSH when GRAS_LRZ_CNTL.GREATER changes, DIR changes (unless the old value is GE or the
 * new one DISABLED), or GRAS_LRZ_DEPTH_VIEW changes (adreno_pm4.xml's reg_tracker).
 */
function regWrite(cp: CommandProcessor, r: PacketRecord): number {
  need(cp, r, 3);
  const off = r.payload[1]! & 0x3ffff;
  const v = r.payload[2]! >>> 0;
  if ((r.payload[0]! & 0xf) === 8) {
    const old = cp.readReg(off);
    let flush = false;
    if (off === cp.regsDb.reg('GRAS_LRZ_CNTL')) {
      const greater = (x: number): number => (x >>> 2) & 1, dir = (x: number): number => (x >>> 6) & 3;
      flush = greater(old) !== greater(v) || (dir(old) !== dir(v) && dir(old) !== 1 && dir(v) !== 0 /* CUR_DIR_GE 1, CUR_DIR_DISABLED 0 as the tracker's doc names them */);
    } else if (off === cp.regsDb.reg('GRAS_LRZ_DEPTH_VIEW')) flush = old !== v;
    if (flush) cp.lrz.flush();
  }
  cp.writeReg(off, v, r.level === 0);
  return 0;
}

export const MEM_HANDLERS: Readonly<Record<string, Handler>> = {
  CP_MEM_WRITE: memWrite,
  CP_MEM_TO_MEM: memToMem,
  CP_MEMCPY: memcpy,
  CP_REG_TO_MEM: regToMem,
  CP_MEM_TO_REG: memToReg,
  CP_REG_RMW: regRmw,
  CP_REG_TO_SCRATCH: regToScratch,
  CP_SCRATCH_TO_REG: scratchToReg,
  CP_SCRATCH_WRITE: scratchWrite,
  CP_MEM_TO_SCRATCH_MEM: memToScratchMem,
  CP_CONTEXT_REG_BUNCH: contextRegBunch,
  CP_CONTEXT_REG_BUNCH2: contextRegBunch2,
  CP_REG_WRITE: regWrite,
};
