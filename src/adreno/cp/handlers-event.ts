/**
 * Events, timestamps and interrupts: CP_EVENT_WRITE (timestamps, data, IRQ), a7xx
 * CP_EVENT_WRITE7 and its timestamps, the WFI / WAIT_MEM_WRITES family (counted: every packet
 * completes before the next in this model), CP_INTERRUPT, CP_CCHE_INVALIDATE.
 */
import { decodeFields, enumName } from '../regs/db.js';
import type { CommandProcessor } from './cp.js';
import { execBlitEvent } from '../rb/gmem.js';
import type { LrzCntl } from '../gras/lrz.js';
import { need, type Handler } from './exec.js';
import type { PacketRecord } from './walker.js';
import { alwaysOnTicks } from '../rbbm/perfcounters.js';
import { soEvent } from './handlers-so.js';
import { checkResolve } from './handlers-feedback.js';

/** An event's side effects (flush counting, CONTEXT_DONE, IRQ) and its optional write (timestamp or DATA). */
function event(cp: CommandProcessor, p: Uint32Array, at: number): void {
  const d0 = p[0]!;
  const ev = d0 & 0xff;
  const name = enumName('vgt_event_type', ev, cp.gen) ?? `EVENT_0x${ev.toString(16)}`;
  const ts = (d0 >>> 30) & 1;
  const irq = (d0 >>> 31) & 1;
  const addr = p.length >= 3 ? p[2]! * 2 ** 32 + p[1]! : undefined;
  const value = ts ? cp.cycles : (p[3] ?? 0);
  if (addr !== undefined && (p.length >= 4 || ts)) {
    if (ts) cp.mem.write64(addr, value);
    else cp.mem.write32(addr, value);
  }
  if (name === 'CACHE_FLUSH_TS' || name === 'CACHE_FLUSH' || name === 'CACHE_INVALIDATE' || name.startsWith('PC_CCU_')) cp.count(12); // PERF_CP_CACHE_FLUSH
  if (name === 'CONTEXT_DONE') {
    cp.ctxDone[cp.ctx] = true;
    cp.count(11); // PERF_CP_CONTEXT_DONE
  }
  if (name === 'ZPASS_DONE') cp.count(10);
  cp.caches.event(name);
  if (name.startsWith('FLUSH_SO_') || name === 'WRITE_PRIMITIVE_COUNTS') soEvent(cp, name);
  if (name === 'BLIT') {
    if (cp.gmem) {
      const res = execBlitEvent(cp as CommandProcessor & { gmem: NonNullable<CommandProcessor['gmem']> }, cp.tile6);
      // A GMEM draw of this pass that sampled the resolved image as a sysmem texture (handlers-feedback.ts).
      if (res?.spans) checkResolve(cp, res.spans);
    }
    else cp.report('adreno.gmem.unmodelled-gpu', 'warning', `BLIT event on a${cp.gpuId}: no GMEM size is known for it; not performed`);
  }
  if (name === 'LRZ_CLEAR') cp.lrz.clear(regAddr(cp, 'GRAS_LRZ_FAST_CLEAR_BUFFER_BASE'), lrzCntl(cp), cp.readReg(cp.regsDb.reg('GRAS_LRZ_DEPTH_VIEW')));
  if (name === 'LRZ_FLUSH') cp.lrz.flush();
  if (irq) {
    cp.interrupts++;
    const o = cp.R['RBBM_INT_0_STATUS']!;
    const bit = name === 'CACHE_FLUSH_TS' ? 20 : name === 'RB_DONE_TS' ? 17 : 8;
    cp.regs[o] = (cp.regs[o]! | (1 << bit)) >>> 0;
  }
  cp.events.push({ name, value, iova: at, irq: !!irq, ...(addr !== undefined ? { addr } : {}) });
}

/** A 64-bit address register of the bank being filled. */
export function regAddr(cp: CommandProcessor, name: string): number {
  const o = cp.regsDb.reg(name);
  return cp.readReg(o + 1) * 2 ** 32 + cp.readReg(o);
}

/** GRAS_LRZ_CNTL's fields in the bank being filled. */
export function lrzCntl(cp: CommandProcessor): LrzCntl {
  const info = cp.regsDb.at(cp.regsDb.reg('GRAS_LRZ_CNTL'))!;
  const f = decodeFields(info.type, cp.readReg(info.offset), 0, cp.gen);
  const g = (k: string): number => f[k] ?? 0;
  return { ENABLE: g('ENABLE'), LRZ_WRITE: g('LRZ_WRITE'), GREATER: g('GREATER'), FC_ENABLE: g('FC_ENABLE'), Z_TEST_ENABLE: g('Z_TEST_ENABLE'), DIR: g('DIR'), DIR_WRITE: g('DIR_WRITE'), DISABLE_ON_WRONG_DIR: g('DISABLE_ON_WRONG_DIR') };
}

function eventWrite(cp: CommandProcessor, r: PacketRecord): number {
  need(cp, r, 1);
  event(cp, r.payload, r.iova);
  return 0;
}

/** a7xx CP_EVENT_WRITE7: WRITE_SRC selects user 32/64-bit data, the timestamp or register contents. */
function eventWrite7(cp: CommandProcessor, r: PacketRecord): number {
  need(cp, r, 1);
  const p = r.payload;
  const d0 = p[0]!;
  const src = (d0 >>> 20) & 7;
  const onchip = (d0 >>> 24) & 1;
  const enabled = (d0 >>> 27) & 1;
  if ((d0 >>> 16) & 1) cp.bvCount = (cp.bvCount + 1) & 0xffff; // INC_BV_COUNT
  if ((d0 >>> 17) & 1) cp.brCount = (cp.brCount + 1) & 0xffff; // INC_BR_COUNT
  if (enabled && p.length >= 2) {
    const vals: number[] = [];
    if (src === 0) vals.push(p[3] ?? 0);
    else if (src === 1) vals.push(p[3] ?? 0, p[4] ?? 0);
    else if (src === 2 || src === 3) {
      const t = src === 2 ? cp.globalTs + cp.localTs : alwaysOnTicks(cp.cycles); // TIMESTAMP_SUM / ALWAYSON (19.2 MHz)
      vals.push(t >>> 0, Math.floor(t / 2 ** 32) >>> 0);
    } else if (src === 4) {
      cp.syncCounters();
      const n = p[4] ?? 0;
      for (let k = 0; k < n; k++) vals.push(cp.readReg(((p[3] ?? 0) + k) & 0x3ffff));
    }
    if (onchip) vals.forEach((v, k) => cp.onchip.set(p[1]! + k, v));
    else if (p.length >= 3) {
      const addr = p[2]! * 2 ** 32 + p[1]!;
      vals.forEach((v, k) => cp.mem.write32(addr + 4 * k, v));
    }
  }
  // Event side effects (flush counting, CONTEXT_DONE) are the same as on a6xx; no data write there.
  event(cp, Uint32Array.of(d0 & 0xff), r.iova);
  return 0;
}

function waitForIdle(cp: CommandProcessor): number {
  cp.wfiCount++;
  return 0;
}

/** CP_WAIT_FOR_ME and CP_WAIT_MEM_WRITES. */
function waitForMe(cp: CommandProcessor): number {
  cp.wfmCount++;
  return 0;
}

function interrupt(cp: CommandProcessor): number {
  cp.interrupts++;
  const o = cp.R['RBBM_INT_0_STATUS']!;
  cp.regs[o] = (cp.regs[o]! | (1 << 8)) >>> 0; // CP_SW
  return 0;
}

/** a7xx: reset or advance the global / local timestamps. */
function modifyTimestamp(cp: CommandProcessor, r: PacketRecord): number {
  need(cp, r, 1);
  const d0 = r.payload[0]!;
  const op = d0 >>> 28;
  const add = d0 & 0xff;
  if (op === 0) cp.globalTs = cp.localTs = 0;
  else if (op === 1) cp.globalTs = (cp.globalTs + add) >>> 0;
  else if (op === 2) cp.localTs = (cp.localTs + add) >>> 0;
  return 0;
}

/** a7xx: bit 0 clears the on-chip memory, bit 2 resets the global and local timestamps. */
function resetContextState(cp: CommandProcessor, r: PacketRecord): number {
  need(cp, r, 1);
  const d0 = r.payload[0]!;
  if (d0 & 1) cp.onchip.clear();
  if (d0 & 4) cp.globalTs = cp.localTs = 0;
  return 0;
}

function ccheInvalidate(cp: CommandProcessor): number {
  cp.count(12);
  return 0;
}

export const EVENT_HANDLERS: Readonly<Record<string, Handler>> = {
  CP_EVENT_WRITE: eventWrite,
  CP_EVENT_WRITE7: eventWrite7,
  CP_WAIT_FOR_IDLE: waitForIdle,
  CP_WAIT_FOR_ME: waitForMe,
  CP_WAIT_MEM_WRITES: waitForMe,
  CP_INTERRUPT: interrupt,
  CP_MODIFY_TIMESTAMP: modifyTimestamp,
  CP_RESET_CONTEXT_STATE: resetContextState,
  CP_CCHE_INVALIDATE: ccheInvalidate,
};
