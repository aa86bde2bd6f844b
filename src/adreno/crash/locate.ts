/**
 * Where the CP was, from a parsed devcoredump: CP_IBn_BASE / CP_IBn_REM_SIZE plus the ROQ's
 * unconsumed dwords (CP_ROQ_AVAIL_IBn.REM - 1: the ROQ fetches ahead of the SQE), then walked
 * back through runs of prefetched IBs (prefetch.ts). Also a Memory over the dump's buffers that
 * holds iovas above 2^48 (the kernel's ring buffers live there), for the packet walker.
 */
import { Memory, type Segment } from '../../core/memory.js';
import type { DevCoreDump } from '../../formats/devcoredump.js';
import { gpuRegs, type Gen } from '../regs/db.js';
import { DumpBuffers } from './buffers.js';
import { isType4or7, type IbHint } from './prefetch.js';
import { handlePrefetch } from './prefetch.js';

/** A read-only Memory over dump buffers at any iova below 2^53 (no 48-bit VA limit). */
export class DumpMemory extends Memory {
  private readonly segs2: Segment[] = [];

  add(iova: number, size: number, data: Uint32Array, label: string): void {
    // The claimed size is trusted up to 64 MiB beyond the data (a corrupt size must not allocate GiBs).
    const n = Math.ceil(Math.max(Math.min(size, 1 << 26), data.length * 4, 4) / 4) * 4;
    if (!Number.isSafeInteger(iova) || iova < 0 || !Number.isSafeInteger(iova + n)) return;
    if (this.segs2.some((s) => iova < s.end && s.base < iova + n)) return; // overlapping bo: keep the first
    const u8 = new Uint8Array(n);
    u8.set(new Uint8Array(data.buffer, data.byteOffset, Math.min(data.byteLength, n)));
    this.segs2.push({ base: iova, size: n, end: iova + n, u8, dv: new DataView(u8.buffer), u32: new Uint32Array(u8.buffer), shared: false, label });
  }

  override get segments(): readonly Segment[] {
    return this.segs2;
  }

  override find(va: number, size = 1): Segment | null {
    for (const s of this.segs2) if (va >= s.base && va + size <= s.end) return s;
    return null;
  }
}

/** Memory holding a dump's ring buffers and bos. */
export function dumpMemory(d: DevCoreDump): DumpMemory {
  const mem = new DumpMemory();
  for (const r of d.rings) if (r.iova) mem.add(r.iova, r.size || r.data.length * 4, r.data, `ring${r.id}`);
  for (const b of d.bos) mem.add(b.iova, b.size, b.data, b.name || 'bo');
  return mem;
}

export interface CrashHints {
  /** Levels 0..3 (0 unused): base, remaining dwords as the SQE sees them, crashFound after backtracking. */
  readonly ibs: IbHint[];
  /** Dwords added to IB1/IB2's REM_SIZE for the ROQ (CP_ROQ_AVAIL_IBn.REM - 1, or 0). */
  readonly roq: [number, number];
  /** IB1/IB2 as the registers named them, before backtracking. */
  readonly regBase: [number, number];
}

/** The CP's IB1/IB2 position from the registers, corrected for the ROQ and IB prefetch. */
export function crashHints(d: DevCoreDump, gen: Gen): CrashHints {
  const regs = gpuRegs(gen);
  const val = (n: string): number => {
    const o = regs.offsetOf(n);
    return o === undefined ? 0 : (d.registers.get(o) ?? 0);
  };
  const val64 = (n: string): number => {
    const o = regs.offsetOf(n);
    return o === undefined ? 0 : (d.registers.get(o) ?? 0) + (d.registers.get(o + 1) ?? 0) * 2 ** 32;
  };
  const ibs: IbHint[] = [0, 1, 2, 3].map(() => ({ base: 0, rem: 0, size: 0, crashFound: false }));
  const remInfo = gen === 'a6xx' || gen === 'a7xx';
  ibs[1]!.base = val64('CP_IB1_BASE');
  ibs[2]!.base = val64('CP_IB2_BASE');
  const roq: [number, number] = [0, 0];
  if (remInfo) {
    const a1 = val('CP_ROQ_AVAIL_IB1') >>> 16;
    const a2 = val('CP_ROQ_AVAIL_IB2') >>> 16;
    roq[0] = a1 ? a1 - 1 : 0;
    roq[1] = a2 ? a2 - 1 : 0;
    ibs[1]!.rem = val('CP_IB1_REM_SIZE') + roq[0];
    ibs[2]!.rem = val('CP_IB2_REM_SIZE') + roq[1];
  }
  const regBase: [number, number] = [ibs[1]!.base, ibs[2]!.base];
  const bufs = new DumpBuffers();
  const ringBufs: { iova: number; buf: Uint32Array; rptr: number; wptr: number; szdw: number }[] = [];
  for (const r of d.rings) ringBufs.push({ iova: r.iova, buf: bufs.add(r.iova, r.size, r.data), rptr: r.rptr, wptr: r.wptr, szdw: Math.min(Math.floor(r.size / 4), 1 << 24) || r.data.length });
  for (const b of d.bos) bufs.add(b.iova, b.size, b.data);
  const rbBase = val64('CP_RB_BASE');
  const ring = ringBufs.find((r) => r.iova === rbBase) ?? (ringBufs.length === 1 ? ringBufs[0] : undefined);
  if (ring && ring.szdw) {
    // The unread part of the ring, from a little before rptr (as crashdec does).
    const n = ring.szdw;
    const mod = (x: number): number => ((x % n) + n) % n;
    let rptr = mod(ring.rptr - 12);
    for (let i = 0; i < 12; i++) {
      const w = ring.buf[rptr] ?? 0;
      if (isType4or7(w)) break;
      rptr = mod(rptr + 1);
    }
    const len = mod(ring.wptr - rptr) || n;
    const copy = new Uint32Array(len);
    for (let i = 0; i < len; i++) copy[i] = ring.buf[mod(rptr + i)] ?? 0;
    handlePrefetch({ arr: copy, off: 0 }, len, ibs, bufs, gen, false);
  }
  return { ibs, roq, regBase };
}
