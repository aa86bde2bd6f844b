/**
 * Conditions, predicates and waits: CP_COND_EXEC, CP_REG_TEST, CP_COND_REG_EXEC (their skips are
 * returned to the walker), draw predication, CP_SKIP_IB2_ENABLE_*, CP_COND_WRITE5, the waits
 * (a condition that never holds is a hang), and the a7xx thread packets.
 */
import type { CommandProcessor } from './cp.js';
import { a64, need, Stop, type Handler } from './exec.js';
import type { PacketRecord } from './walker.js';

function condExec(cp: CommandProcessor, r: PacketRecord): number {
  need(cp, r, 6);
  const p = r.payload;
  const v0 = cp.cpRead32(a64(p, 0));
  const v1 = cp.cpRead32(a64(p, 2)) | 0;
  const ok = v0 !== 0 && v1 < (p[4]! | 0);
  return ok ? 0 : p[5]!;
}

/** Sets PRED_BIT of the predicate register from a register (or a7xx scratch memory) bit, or PRED_UPDATE merges. */
function regTest(cp: CommandProcessor, r: PacketRecord): number {
  need(cp, r, 1);
  const p = r.payload;
  const d0 = p[0]!;
  if (d0 >>> 31) {
    // PRED_UPDATE: PRED_REG = (PRED_REG & ~PRED_MASK) | (PRED_VAL & PRED_MASK)
    need(cp, r, 3);
    cp.predReg = ((cp.predReg & ~p[1]!) | (p[2]! & p[1]!)) >>> 0;
    return 0;
  }
  const bit = (d0 >>> 20) & 31;
  const predBit = (d0 >>> 26) & 31;
  if (!((d0 >>> 25) & 1)) cp.wfmCount++;
  let v: number;
  if (cp.gen === 'a7xx' && (d0 >>> 18) & 1) {
    // SOURCE_SCRATCH_MEM: a dword of the scratch memory CP_MEM_TO_SCRATCH_MEM filled.
    const o = d0 & 0x3ffff;
    v = o < cp.scratchMem.length ? cp.scratchMem[o]! : 0;
  } else {
    cp.syncCounters();
    v = cp.readReg(d0 & 0x3ffff);
  }
  const on = (v >>> bit) & 1;
  cp.predReg = on ? (cp.predReg | (1 << predBit)) >>> 0 : (cp.predReg & ~(1 << predBit)) >>> 0;
  return 0;
}

function condRegExec(cp: CommandProcessor, r: PacketRecord): number {
  need(cp, r, 2);
  const p = r.payload;
  const d0 = p[0]!;
  const mode = d0 >>> 28;
  const a7 = cp.gen === 'a7xx';
  const onchip = a7 && ((d0 >>> 24) & 1) === 1;
  const rd = (reg: number, chip: boolean): number => (chip ? (cp.onchip.get(reg) ?? 0) : cp.readReg(reg));
  if (mode === 1) return (cp.predReg >>> ((d0 >>> 18) & 31)) & 1 ? 0 : p[1]! & 0xffffff; // PRED_TEST
  if (mode === 2) {
    // REG_COMPARE: REG0 == REG1 (each may come from on-chip memory on a7xx)
    need(cp, r, 3);
    cp.syncCounters();
    const b = rd(p[1]! & 0x3ffff, a7 && ((p[1]! >>> 24) & 1) === 1);
    return rd(d0 & 0x3ffff, onchip) === b ? 0 : p[2]! & 0xffffff;
  }
  if (mode === 3) {
    // RENDER_MODE: BINNING / GMEM / SYSMEM bits select the modes that pass
    const mask = (d0 >>> 25) & 7;
    const bit = cp.mode === 'BINNING' ? 1 : cp.mode === 'GMEM' ? 2 : 4;
    return mask & bit ? 0 : p[1]! & 0xffffff;
  }
  if (a7 && mode === 4) {
    // REG_COMPARE_IMM: REG0 == IMM
    need(cp, r, 3);
    cp.syncCounters();
    return rd(d0 & 0x3ffff, onchip) === p[1]! ? 0 : p[2]! & 0xffffff;
  }
  if (a7 && mode === 5) {
    // THREAD_MODE: BV (bit 25), BR (bit 26), LPAC (bit 27) name the threads that run the block.
    const mine = cp.thread === 'BV' ? 1 << 25 : 1 << 26;
    return d0 & mine ? 0 : p[1]! & 0xffffff;
  }
  cp.report('adreno.cp.unsupported', 'warning', `CP_COND_REG_EXEC mode ${mode} is not defined for ${cp.gen}; executing the block`);
  return 0;
}

function drawPredEnableGlobal(cp: CommandProcessor, r: PacketRecord): number {
  need(cp, r, 1);
  cp.predGlobal = (r.payload[0]! & 1) === 1;
  cp.predLocal = true;
  return 0;
}

function drawPredEnableLocal(cp: CommandProcessor, r: PacketRecord): number {
  need(cp, r, 1);
  cp.predLocal = (r.payload[0]! & 1) === 1;
  return 0;
}

/** The predicate from memory (PRED_SRC_MEM, 64 bits, EQ_ZERO or not); other sources are not documented. */
function drawPredSet(cp: CommandProcessor, r: PacketRecord): number {
  need(cp, r, 1);
  const p = r.payload;
  const src = (p[0]! >>> 4) & 0xf;
  const eq0 = (p[0]! >>> 8) & 1;
  if (src === 5) {
    need(cp, r, 3);
    const v = cp.cpRead64(a64(p, 1));
    cp.predPass = eq0 ? v === 0 : v !== 0;
  } else cp.report('adreno.cp.unsupported', 'warning', `CP_DRAW_PRED_SET source ${src} is not modelled`);
  return 0;
}

function skipIb2EnableGlobal(cp: CommandProcessor, r: PacketRecord): number {
  need(cp, r, 1);
  cp.skipIb2Global = (r.payload[0]! & 1) === 1;
  return 0;
}

function skipIb2EnableLocal(cp: CommandProcessor, r: PacketRecord): number {
  need(cp, r, 1);
  cp.skipIb2Local = (r.payload[0]! & 1) === 1;
  return 0;
}

/** The test of CP_WAIT_REG_MEM / CP_COND_WRITE5: (register or memory & MASK) FUNCTION REF, signed or not. */
function memTest(cp: CommandProcessor, p: Uint32Array): boolean {
  const fn = p[0]! & 7;
  const signed = (p[0]! >>> 3) & 1;
  const poll = (p[0]! >>> 4) & 3;
  let v: number;
  if (poll === 0) {
    cp.syncCounters();
    v = cp.readReg(p[1]! & 0x3ffff);
  } else v = cp.cpRead32(a64(p, 1));
  v &= p[4]!;
  let ref = p[3]!;
  if (signed) {
    v |= 0;
    ref |= 0;
  } else {
    v >>>= 0;
    ref >>>= 0;
  }
  switch (fn) {
    case 0: return true;
    case 1: return v < ref;
    case 2: return v <= ref;
    case 3: return v === ref;
    case 4: return v !== ref;
    case 5: return v >= ref;
    case 6: return v > ref;
    default: return false;
  }
}

function condWrite5(cp: CommandProcessor, r: PacketRecord): number {
  need(cp, r, 8);
  const p = r.payload;
  if (memTest(cp, p) && (p[0]! >>> 8) & 1) cp.cpWrite32(a64(p, 5), p[7]!);
  return 0;
}

/** Polls up to maxPolls times, DELAY cycles apart (counted as SQE_IDLE); never true is a hang. */
function waitRegMem(cp: CommandProcessor, r: PacketRecord): number {
  need(cp, r, 6);
  const p = r.payload;
  for (let k = 0; k < cp.maxPolls; k++) {
    if (memTest(cp, p)) return 0;
    cp.cycles += p[5]! || 1;
    cp.count(0, p[5]! || 1);
    cp.count(15, p[5]! || 1); // PERF_CP_SQE_IDLE: polling, not working
  }
  cp.report('adreno.cp.wait-hang', 'error', `CP_WAIT_REG_MEM condition never became true (${cp.maxPolls} polls): the CP hangs here`);
  throw new Stop('hang');
}

function waitMemGte(cp: CommandProcessor, r: PacketRecord): number {
  need(cp, r, 4);
  const p = r.payload;
  for (let k = 0; k < cp.maxPolls; k++) {
    if ((cp.cpRead32(a64(p, 1)) | 0) >= (p[3]! | 0)) return 0;
    cp.cycles += 16;
    cp.count(0, 16);
    cp.count(15, 16);
  }
  cp.report('adreno.cp.wait-hang', 'error', `CP_WAIT_MEM_GTE: the value at 0x${a64(p, 1).toString(16)} never reached ${p[3]! | 0} (${cp.maxPolls} polls): the CP hangs here`);
  throw new Stop('hang');
}

function waitTwoRegs(cp: CommandProcessor, r: PacketRecord): number {
  need(cp, r, 3);
  const p = r.payload;
  cp.syncCounters();
  if (cp.readReg(p[0]! & 0x3ffff) !== 0 || cp.readReg(p[1]! & 0x3ffff) !== p[2]) return 0;
  cp.report('adreno.cp.wait-hang', 'error', `CP_WAIT_TWO_REGS: ${cp.regsDb.nameOf(p[0]! & 0x3ffff)} stays 0 and ${cp.regsDb.nameOf(p[1]! & 0x3ffff)} stays ${p[2]}: the CP hangs here`);
  throw new Stop('hang');
}

/** a7xx: wait for a 32/64-bit memory or on-chip value to reach a reference or the timestamp sum. */
function waitTimestamp(cp: CommandProcessor, r: PacketRecord): number {
  need(cp, r, 4);
  const p = r.payload;
  const src = p[0]! & 3;
  const onchipDst = (p[0]! >>> 4) & 1;
  const read = (): number => (onchipDst ? (cp.onchip.get(p[1]!) ?? 0) : src === 1 ? cp.cpRead64(a64(p, 1)) : cp.cpRead32(a64(p, 1)));
  const want = (): number => (src === 2 ? cp.globalTs + cp.localTs : src === 1 ? (p[4] ?? 0) * 2 ** 32 + p[3]! : p[3]! | 0);
  for (let k = 0; k < cp.maxPolls; k++) {
    const v = read();
    if ((src === 0 ? v | 0 : v) >= want()) return 0;
    cp.cycles += 16;
    cp.count(0, 16);
    cp.count(15, 16);
  }
  cp.report('adreno.cp.wait-hang', 'error', `CP_WAIT_TIMESTAMP: the ${onchipDst ? 'on-chip' : 'memory'} value never reached ${want()} (${cp.maxPolls} polls): the CP hangs here`);
  throw new Stop('hang');
}

/** a7xx: the threads the following packets are for, and CONCURRENT_BIN_DISABLE. */
function threadControl(cp: CommandProcessor, r: PacketRecord): number {
  need(cp, r, 1);
  const d0 = r.payload[0]!;
  cp.threadMask = (d0 & 3) || 3;
  cp.concurrentBinning = ((d0 >>> 27) & 1) === 0;
  if (d0 >>> 31) cp.count(24, 1); // SYNC_THREADS: both threads meet here (serialised in this model)
  return 0;
}

function bvBrCountOps(cp: CommandProcessor, r: PacketRecord): number {
  need(cp, r, 1);
  const p = r.payload;
  const op = p[0]! & 0xf;
  if (op === 1) {
    cp.bvCount = 0;
    cp.brCount = 0;
  } else if (op === 2) {
    need(cp, r, 2);
    cp.brOffset = p[1]! & 0xffff;
  } else if (op === 3 || op === 4) {
    // The wait is on the other thread; one thread at a time runs here, so the other is
    // taken to have run ahead (with concurrent binning disabled there is no other thread).
    const ok = op === 3 ? cp.bvCount > cp.brCount : cp.brCount + cp.brOffset > cp.bvCount;
    if (!ok) cp.count(24, 1); // SYNC_STALL
  }
  return 0;
}

export const COND_HANDLERS: Readonly<Record<string, Handler>> = {
  CP_COND_EXEC: condExec,
  CP_REG_TEST: regTest,
  CP_COND_REG_EXEC: condRegExec,
  CP_DRAW_PRED_ENABLE_GLOBAL: drawPredEnableGlobal,
  CP_DRAW_PRED_ENABLE_LOCAL: drawPredEnableLocal,
  CP_DRAW_PRED_SET: drawPredSet,
  CP_SKIP_IB2_ENABLE_GLOBAL: skipIb2EnableGlobal,
  CP_SKIP_IB2_ENABLE_LOCAL: skipIb2EnableLocal,
  CP_COND_WRITE5: condWrite5,
  CP_WAIT_REG_MEM: waitRegMem,
  CP_WAIT_MEM_GTE: waitMemGte,
  CP_WAIT_TWO_REGS: waitTwoRegs,
  CP_WAIT_TIMESTAMP: waitTimestamp,
  CP_THREAD_CONTROL: threadControl,
  CP_BV_BR_COUNT_OPS: bvBrCountOps,
};
