/**
 * Backtracking through the CP's IB prefetch. CP_INDIRECT_BUFFER may read up to three following
 * CP_INDIRECT_BUFFERs' contents into the ROQ before the SQE executes the first, so CP_IBn_BASE
 * can name an IB several IBs ahead of the one the SQE is in, and REM_SIZE (plus the ROQ's
 * unconsumed dwords) can exceed that IB's size. Scanning the calling stream for runs of
 * consecutive CP_INDIRECT_BUFFERs (and IB chains) and walking back by the sizes from the one
 * that matches CP_IBn_BASE finds the IB and position the SQE had reached; IB2 is found the same
 * way inside the IB1s of that run. Same algorithm as freedreno's crashdec.
 */
import { decodeHeaderAnyGen, opcodeName } from '../cp/pm4.js';
import type { Gen } from '../regs/db.js';
import type { DumpBuffers, HostPtr } from './buffers.js';

/** What crashdec knows about an IB level from the registers (cffdec_options.ibs). */
export interface IbHint {
  base: number;
  rem: number;
  size: number;
  crashFound: boolean;
}

/** A type-4 or type-7 header with both parity bits right (freedreno's pkt_is_type4/7). */
export function isType4or7(d: number): boolean {
  const t = decodeHeaderAnyGen(d).type;
  return t === 4 || t === 7;
}

/** `[register, size including header]` for a register-write header, else undefined. */
function regwrite(p: number): [number, number] | undefined {
  const h = decodeHeaderAnyGen(p);
  return h.type === 0 || h.type === 4 ? [h.reg, h.count + 1] : undefined;
}

/** `[opcode, size including header]` for an opcode header, else undefined. */
function opcodePkt(p: number): [number, number] | undefined {
  const h = decodeHeaderAnyGen(p);
  return h.type === 3 || h.type === 7 ? [h.opcode, h.count + 1] : undefined;
}

/** Dwords to skip to the next type-4/7 header (find_next_packet). */
function findNextPacket(arr: Uint32Array, off: number, n: number): number {
  for (let c = 0; c < n; c++) if (isType4or7(arr[off + c] ?? 0)) return c;
  return n;
}

const MAX_PREFETCH_IBS = 4;

interface Ib {
  addr: number;
  size: number;
}

class History {
  private readonly h: Ib[] = [];
  push(ib: Ib): void {
    this.h.push(ib);
    if (this.h.length > MAX_PREFETCH_IBS) this.h.shift();
  }
  get num(): number {
    return this.h.length;
  }
  get(n: number): Ib | undefined {
    return this.h[n];
  }
  reset(): void {
    this.h.length = 0;
  }
}

function parseIndirect(arr: Uint32Array, off: number, gen: Gen): Ib {
  const at = (i: number): number => arr[off + i] ?? 0;
  const is64 = gen === 'a5xx' || gen === 'a6xx' || gen === 'a7xx';
  return is64 ? { addr: at(1) * 2 ** 32 + at(0), size: at(2) } : { addr: at(0), size: at(1) };
}

/** Step over one packet: [size in dwords, opcode name if an opcode packet]. */
function step(arr: Uint32Array, off: number, left: number, gen: Gen): [number, string | undefined, boolean] {
  const d = arr[off] ?? 0;
  const op = opcodePkt(d);
  if (op) return [op[1], opcodeName(op[0], gen), true];
  const rw = regwrite(d);
  if (rw) return [rw[1], undefined, false];
  return [Math.max(1, findNextPacket(arr, off, left)), undefined, false];
}

/** The IB a stream chains to at its end (CP_INDIRECT_BUFFER_CHAIN), if any. */
function checkChain(p: HostPtr, size: number, gen: Gen): Ib | undefined {
  let left = size;
  let off = p.off;
  let guard = 0;
  while (left > 0 && guard++ < 1_000_000) {
    const [count, name] = step(p.arr, off, left, gen);
    if (name === 'CP_INDIRECT_BUFFER_CHAIN') return parseIndirect(p.arr, off + 1, gen);
    off += count;
    left -= count;
  }
  return undefined;
}

function reversePrefetch(s: History, hint: IbHint): Ib | undefined {
  let rem = hint.rem;
  for (let n = s.num - 1; n >= 0; n--) {
    const ib = s.get(n)!;
    if (ib.size > rem) {
      hint.crashFound = true;
      hint.base = ib.addr;
      hint.rem = rem;
      return ib;
    }
    rem -= ib.size;
  }
  return undefined;
}

function scan(s: History, hint: IbHint, p: HostPtr, size: number, bufs: DumpBuffers, gen: Gen): Ib | undefined {
  let left = size;
  let off = p.off;
  let guard = 0;
  while (left > 0 && guard++ < 1_000_000) {
    const [count, name, isOp] = step(p.arr, off, left, gen);
    if (isOp && name === 'CP_INDIRECT_BUFFER') {
      let ib = parseIndirect(p.arr, off + 1, gen);
      for (let chain = 0; chain < 64; chain++) {
        s.push(ib);
        if (ib.addr === hint.base) return reversePrefetch(s, hint);
        const host = bufs.hostptr(ib.addr);
        if (!host) break;
        const next = checkChain(host, ib.size, gen);
        if (!next) break;
        ib = next;
      }
    } else {
      // Prefetch only spans consecutive CP_INDIRECT_BUFFERs.
      s.reset();
    }
    off += count;
    left -= count;
  }
  return undefined;
}

/**
 * Correct `ibs[1]` / `ibs[2]` (base, rem, crashFound) for prefetch, given the ring-buffer
 * stream being decoded. When the crash is found in IB2, crashdec also moves IB1 back to the
 * oldest IB of the run (so its marker logic sees that IB1 first): `markerIb1` keeps that; a
 * location report wants IB1 as found (false).
 */
export function handlePrefetch(rb: HostPtr, size: number, ibs: IbHint[], bufs: DumpBuffers, gen: Gen, markerIb1 = true): void {
  const rbState = new History();
  const ib1 = scan(rbState, ibs[1]!, rb, size, bufs, gen);
  if (!ib1) return;
  if (!ibs[2]!.rem) return;
  const ib1State = new History();
  for (let n = 0; n < rbState.num; n++) {
    const ib = rbState.get(n)!;
    const host = bufs.hostptr(ib.addr);
    if (!host) break;
    const ib2 = scan(ib1State, ibs[2]!, host, ib.size, bufs, gen);
    if (ib2) {
      if (!markerIb1) break;
      const first = rbState.get(0)!;
      ibs[1]!.base = first.addr;
      ibs[1]!.rem = first.size;
      break;
    }
    if (ib === ib1) break;
  }
}
