/**
 * An L0/L1/L2 model for POPS runs (seed 002_d00ee82034762a57.txt, "Memory access
 * requirements"): enough that ordered-section data read through a cache level holding an old copy
 * is stale across waves on other compute units, and that the cache-policy bits and the cache
 * invalidations of the code decide which reads see the newest data.
 *
 * The hierarchy, as the ISA guides and LLVM's AMDGPU memory model (AMDGPUUsage, "Memory Model
 * GFX10-GFX11" and the GFX6-GFX9 one) describe it:
 * - levels: a vector L0 per compute unit (GFX9: the CU's vector L1, "TCP"), a GL1 per shader array
 *   (`cusPerL1` CUs; GFX10.3 and GFX11 only), the shared L2 = the backing `Memory` (coherent);
 *   128-byte lines with per-dword valid masks, LRU;
 * - both levels are write-through and hold no dirty data: a store's bytes reach L2 when the store
 *   completes (its counter no longer counts it), which is why a release needs only
 *   `s_waitcnt vscnt(0)` (GFX9: vmcnt(0)) and no write-back. The storing CU's L0 line is updated
 *   (GLC = 0) or evicted (GLC = 1); the GL1 is read-only, so the storing shader array's GL1 drops
 *   its copy. Other CUs' L0s and other arrays' GL1s keep theirs: that is the staleness;
 * - loads: a plain load hits whatever the CU's L0 (then the array's GL1) holds, however old.
 *   GFX10.3: GLC bypasses (and evicts) the L0 line, DLC the GL1 line. GFX11: GLC bypasses both,
 *   DLC only steers the MALL (no effect here). GFX9: GLC bypasses the vector L1;
 * - buffer_gl0_inv / buffer_gl1_inv (GFX10+), buffer_wbinvl1(_vol) (GFX9): drop a whole level;
 * - end of the run: every store still in flight lands (the end-of-pipe wait); clean lines stay.
 *
 * Outstanding stores: a store's writes stay in flight while the wave's store counter (VS_CNT on
 * GFX10+, VM_CNT on GFX9) still counts them; they land when an s_waitcnt lowers it, or at a
 * random time after the wave ended. So a wave that leaves its ordered section with stores
 * outstanding lets the next overlapping wave read the old value (the race the seed describes).
 * A wave's own loads see its in-flight stores to the same bytes (program order for one address).
 *
 * Outstanding loads: a dword load takes a random latency (1..maxLoadDelay clocks) to return its
 * data and samples memory when it returns; an s_waitcnt that needs it stalls the wave until then.
 * So a load still in flight when the wave leaves its ordered section returns what memory holds at
 * that later time — possibly a value an overlapping wave wrote after being resumed (the read race
 * of the seed's "Exiting"). Loads whose shape the model does not follow (sub-dword, d16, partial
 * reads) complete at issue.
 *
 * Waves reach the model through their `Memory`: `viewFor(cu)` returns a Memory whose reads and
 * writes go through that CU's caches; the executor tells the model each vector memory
 * instruction's policy through `ExecEnv.cacheHook` (exec/cache-hook.ts).
 */
import { mulberry32 } from '../../core/prng.js';
import type { Memory } from '../../core/memory.js';
import type { Wave } from '../wave/wave.js';
import type { CacheHook } from '../engine/cache-hook.js';
import type { Instruction } from '../isa/types.js';
import { SREG } from '../wave/wave.js';
import { CPOL } from '../engine/cache-hook.js';
import type { PopsGen } from './pops-config.js';

/** A load held in flight: its destination, lanes and the dwords it read (address, value at issue). */
interface HeldLoad {
  readonly vdst: number;
  readonly dwords: number;
  readonly lanes: readonly number[];
  readonly reads: readonly { a: number; v: number }[];
  readonly cu: number;
  readonly cpol: number;
  /** Model clock when the data returns. */
  readonly due: number;
  /** Issue order among the wave's memory instructions (GFX9: loads and stores retire in it). */
  readonly seq: number;
}

/** The writes of one store instruction still in flight. */
interface StoreBatch {
  readonly seq: number;
  readonly writes: PendingWrite[];
}

/** Dwords per lane of a whole-dword vector load (0: not held — sub-dword, d16, atomics). */
function loadDwords(m: string): number {
  const r = /^(global|flat|buffer|scratch)_load_(b32|b64|b96|b128|dword|dwordx2|dwordx3|dwordx4)$/.exec(m);
  if (!r) return 0;
  return ({ b32: 1, dword: 1, b64: 2, dwordx2: 2, b96: 3, dwordx3: 3, b128: 4, dwordx4: 4 } as Record<string, number>)[r[2]!]!;
}

/** 128-byte lines (RDNA GL0/GL1/GL2); per-dword masks fit in 32 bits. */
const LINE_DWORDS = 32;
const LINE_BYTES = LINE_DWORDS * 4;
const FULL = 0xffffffff;

interface Line {
  readonly data: Uint32Array;
  /** Bit i: dword i holds data. */
  valid: number;
}

/** Reads dword i of line n from the level below. */
type Below = (n: number, i: number) => number;

/** One write-through (clean-only) cache level with LRU replacement (Map insertion order). */
class Level {
  readonly lines = new Map<number, Line>();
  /** The line last used (the Map's last key), or -1. */
  private mru = -1;
  hits = 0;
  misses = 0;
  readonly capacity: number;
  constructor(capacity: number) {
    this.capacity = capacity;
  }

  /** A read through this level: a hit returns the held copy, however old; a miss fills the whole line from `below`. */
  read(n: number, i: number, below: Below): number {
    let l = this.lines.get(n);
    if (l) {
      // Most recently used already (a wave's lanes read a line's dwords one after another):
      // re-inserting it would not change the order.
      if (n !== this.mru) {
        this.lines.delete(n);
        this.lines.set(n, l);
        this.mru = n;
      }
    } else {
      if (this.lines.size >= this.capacity) this.lines.delete(this.lines.keys().next().value as number);
      l = { data: new Uint32Array(LINE_DWORDS), valid: 0 };
      this.lines.set(n, l);
      this.mru = n;
    }
    if ((l.valid >>> i) & 1) {
      this.hits++;
      return l.data[i]!;
    }
    this.misses++;
    // Fill every missing dword of the line (a whole-line fill keeps neighbours as old as this one).
    for (let k = 0; k < LINE_DWORDS; k++) if (!((l.valid >>> k) & 1)) l.data[k] = below(n, k);
    l.valid = FULL;
    return l.data[i]!;
  }

  /** A store passing through: a line holding the dword takes the written bytes (no allocation on a miss). */
  update(n: number, i: number, v: number, mask: number): void {
    const l = this.lines.get(n);
    if (l && (l.valid >>> i) & 1) l.data[i] = ((l.data[i]! & ~mask) | (v & mask)) >>> 0;
  }

  /** Drop the line (a bypassing access evicts it). */
  invalidate(n: number): void {
    this.lines.delete(n);
    if (n === this.mru) this.mru = -1;
  }

  clear(): void {
    this.lines.clear();
    this.mru = -1;
  }
}

interface PendingWrite {
  readonly cu: number;
  /** Dword address, the bytes to write (in place) and which of them. */
  readonly a: number;
  readonly v: number;
  readonly mask: number;
  readonly cpol: number;
}

export interface PopsCacheOptions {
  readonly computeUnits: number;
  /**
   * Which generation's cache-policy bits and levels: 'gfx11' (default; GLC bypasses L0 and GL1),
   * 'gfx103' (GLC bypasses L0, DLC the GL1), 'gfx9' (no GL1; GLC bypasses the vector L1).
   */
  readonly gen?: PopsGen;
  /** Compute units sharing one GL1 (a shader array; GFX10+). Default 2. */
  readonly cusPerL1?: number;
  /** Lines per L0 / L1. Defaults 64 / 256. */
  readonly l0Lines?: number;
  readonly l1Lines?: number;
  /** The wave's counter that still counts its stores: VS_CNT (default, GFX10+) or VM_CNT (GFX9). */
  readonly storeCounter?: 'vscnt' | 'vmcnt';
  /** Most clocks a wave's outstanding stores stay in flight after it ended. Default 64. */
  readonly maxStoreDelay?: number;
  /** Most clocks a held load takes to return its data (uniform 1..N, seeded). Default 128. */
  readonly maxLoadDelay?: number;
  /** Seed of the load latencies. Default 1. */
  readonly seed?: number;
}

export interface PopsCacheStats {
  readonly l0Hits: number;
  readonly l0Misses: number;
  readonly l1Hits: number;
  readonly l1Misses: number;
  /** Stores that landed after their wave had ended. */
  readonly lateStores: number;
  /** Held loads whose value at completion differed from the value at issue (they saw a later write). */
  readonly lateLoads: number;
  /** Reads that returned a value older than L2's (an L0/GL1 line filled before another CU's store reached L2). */
  readonly staleReads: number;
}

/**
 * The cache model's shape per generation: GFX10+ has a GL1 per shader array (two arrays per SE,
 * as Navi 1x/2x/3x have, so a pixel's waves — always on its SE — can still meet on different GL1s);
 * GFX9 has none (the CU's vector L1 talks to L2) and counts stores on VM_CNT with the loads.
 */
export function popsCacheShape(gen: PopsGen, computeUnits: number, cusPerSe: number): { gen: PopsGen; cusPerL1: number; storeCounter: 'vscnt' | 'vmcnt' } {
  return gen === 'gfx9' ? { gen, cusPerL1: computeUnits, storeCounter: 'vmcnt' } : { gen, cusPerL1: Math.max(1, cusPerSe >> 1), storeCounter: 'vscnt' };
}

/** One line of text for the CLIs (`gpusim pops oit`, `gpusim draw`). */
export function formatCacheStats(c: PopsCacheStats): string {
  return `caches: L0 ${c.l0Hits} hits / ${c.l0Misses} misses, L1 ${c.l1Hits} / ${c.l1Misses}, stale reads ${c.staleReads}, late stores ${c.lateStores}, late loads ${c.lateLoads}`;
}

export class PopsCaches implements CacheHook {
  readonly l2: Memory;
  readonly gen: PopsGen;
  private readonly l0: Level[] = [];
  /** GL1 per shader array (empty on GFX9). */
  private readonly l1: Level[] = [];
  private readonly cusPerL1: number;
  private readonly views: Memory[] = [];
  private readonly storeCounter: 'vscnt' | 'vmcnt';
  private readonly maxStoreDelay: number;
  /** Policy of the vector memory instruction executing now (0 outside one: plain access). */
  private cpol = 0;
  /** Writes of the store instruction executing now (queued instead of applied). */
  private batch: PendingWrite[] | null = null;
  /** Per wave, its store instructions still in flight, oldest first. */
  private readonly pending = new Map<Wave, StoreBatch[]>();
  /** Issue numbers of memory instructions (orders a wave's loads against its stores). */
  private seq = 0;
  /** Stores of ended waves, landing at `due`. */
  private readonly inflight: { due: number; writes: PendingWrite[] }[] = [];
  private clock = 0;
  private late = 0;
  private stale = 0;
  /** The wave whose vector memory instruction executes now. */
  private cur: Wave | null = null;
  /** Dword reads of the load instruction executing now (null outside a held load). */
  private reads: { a: number; v: number }[] | null = null;
  private loadInst: Instruction | null = null;
  /** Per wave, its held loads, oldest first. */
  private readonly loads = new Map<Wave, HeldLoad[]>();
  private lateLoadCount = 0;
  private readonly maxLoadDelay: number;
  private readonly loadRnd: () => number;
  private readonly fromL2: Below;

  constructor(l2: Memory, o: PopsCacheOptions) {
    this.l2 = l2;
    this.gen = o.gen ?? 'gfx11';
    this.cusPerL1 = o.cusPerL1 ?? 2;
    this.storeCounter = o.storeCounter ?? 'vscnt';
    this.maxStoreDelay = o.maxStoreDelay ?? 64;
    this.maxLoadDelay = o.maxLoadDelay ?? 128;
    this.loadRnd = mulberry32(o.seed ?? 1);
    this.fromL2 = (n, i) => l2.read32(n * LINE_BYTES + i * 4);
    if (this.gen !== 'gfx9') for (let s = 0; s < Math.ceil(o.computeUnits / this.cusPerL1); s++) this.l1.push(new Level(o.l1Lines ?? 256));
    for (let c = 0; c < o.computeUnits; c++) {
      this.l0.push(new Level(o.l0Lines ?? 64));
      this.views.push(this.makeView(c));
    }
  }

  /** The memory a wave on compute unit `cu` sees. */
  viewFor(cu: number): Memory {
    const v = this.views[cu];
    if (!v) throw new Error(`no compute unit ${cu}`);
    return v;
  }

  // ---- CacheHook
  begin(w: Wave, cpol: number, store: boolean, inst?: Instruction): void {
    this.cpol = cpol;
    this.batch = store ? [] : null;
    this.cur = w;
    const held = !store && inst !== undefined && loadDwords(inst.mnemonic) > 0;
    this.reads = held ? [] : null;
    this.loadInst = held ? inst : null;
  }

  end(w: Wave): void {
    if (this.reads !== null && this.loadInst !== null) this.holdLoad(w, this.loadInst, this.reads, this.cpol);
    this.reads = null;
    this.loadInst = null;
    if (this.batch !== null) {
      let q = this.pending.get(w);
      if (!q) this.pending.set(w, (q = []));
      q.push({ seq: this.seq++, writes: this.batch });
    }
    this.batch = null;
    this.cpol = 0;
    this.cur = null;
  }

  invalidate(w: Wave, level: 0 | 1): void {
    const cu = this.cuOf(w);
    if (level === 0) this.l0[cu]!.clear();
    else this.l1At(cu)?.clear();
  }

  // ---- runner hooks
  /** After each instruction of `w`: what its counters no longer count retires (a load not yet due stalls the wave); due late stores land. */
  afterInstruction(w: Wave, clock: number): void {
    this.clock = clock;
    this.retire(w, clock, true);
    while (this.inflight.length > 0 && this.inflight[0]!.due <= clock) {
      this.late += this.inflight[0]!.writes.length;
      this.apply(this.inflight.shift()!.writes);
    }
  }

  /**
   * Before each instruction of `w`: loads its VM_CNT no longer counts return now (the wave slept
   * until their data was due; a wave woken early takes the data as it is now).
   */
  beforeInstruction(w: Wave, clock: number): void {
    this.clock = clock;
    this.retire(w, clock, false);
  }

  /**
   * Retire what the wave's counters no longer count, oldest first. GFX10+: stores beyond VS_CNT
   * land, loads beyond VM_CNT return. GFX9 (`storeCounter` 'vmcnt'): loads and stores share VM_CNT
   * and retire in issue order. `stall`: a load not yet due puts the wave to sleep until it is
   * (and holds back what was issued after it).
   */
  private retire(w: Wave, clock: number, stall: boolean): void {
    const lq = this.loads.get(w);
    const sq = this.pending.get(w);
    if (!lq && !sq) return;
    const shared = this.storeCounter === 'vmcnt';
    if (sq && !shared) while (sq.length > w.vscnt) this.apply(sq.shift()!.writes);
    const nl = (): number => lq?.length ?? 0;
    const ns = (): number => (shared ? sq?.length ?? 0 : 0);
    while (nl() + ns() > w.vmcnt) {
      const load = nl() > 0 && (ns() === 0 || lq![0]!.seq < sq![0]!.seq);
      if (!load) {
        this.apply(sq!.shift()!.writes);
        continue;
      }
      const h = lq![0]!;
      if (stall && h.due > clock) {
        if (w.state === 'ready') {
          w.sleepUntil = h.due;
          w.state = 'sleep';
        }
        break;
      }
      lq!.shift();
      this.completeLoad(w, h);
    }
    if (lq && lq.length === 0) this.loads.delete(w);
    if (sq && sq.length === 0) this.pending.delete(w);
  }

  /** Deterministic latency draw (mulberry32 over the seed). */
  private loadDelay(): number {
    return 1 + Math.floor(this.loadRnd() * this.maxLoadDelay);
  }

  /** The wave ended: its outstanding stores land at a random later time. */
  waveEnded(w: Wave, rnd: () => number): void {
    this.loads.delete(w); // results of loads of an ended wave reach no register anyone reads
    const q = this.pending.get(w);
    this.pending.delete(w);
    if (!q) return;
    for (const { writes } of q) {
      if (writes.length === 0) continue;
      this.inflight.push({ due: this.clock + 1 + Math.floor(rnd() * this.maxStoreDelay), writes });
    }
    this.inflight.sort((a, b) => a.due - b.due);
  }

  /** Land every store still in flight (end of the run: the end-of-pipe wait). Clean lines stay cached. */
  drainAll(): void {
    for (const q of this.pending.values()) for (const b of q) this.apply(b.writes);
    this.pending.clear();
    for (const f of this.inflight) this.apply(f.writes);
    this.inflight.length = 0;
  }

  stats(): PopsCacheStats {
    let l0Hits = 0, l0Misses = 0, l1Hits = 0, l1Misses = 0;
    for (const l of this.l0) (l0Hits += l.hits), (l0Misses += l.misses);
    for (const l of this.l1) (l1Hits += l.hits), (l1Misses += l.misses);
    return { l0Hits, l0Misses, l1Hits, l1Misses, lateStores: this.late, staleReads: this.stale, lateLoads: this.lateLoadCount };
  }

  /**
   * A dword load ended: when its reads are one per dword per active lane, lane-major with
   * consecutive addresses per lane, hold it (its VGPRs are written again at completion).
   */
  private holdLoad(w: Wave, inst: Instruction, reads: readonly { a: number; v: number }[], cpol: number): void {
    const d = loadDwords(inst.mnemonic);
    const vdst = inst.fields['vdst'] ?? inst.fields['vdata'];
    if (vdst === undefined) return;
    const lanes: number[] = [];
    const lo = w.s[SREG.EXEC_LO]! >>> 0, hi = w.waveSize === 64 ? w.s[SREG.EXEC_HI]! >>> 0 : 0;
    for (let l = 0; l < w.waveSize; l++) if (((l < 32 ? lo >>> l : hi >>> (l - 32)) & 1) === 1) lanes.push(l);
    if (lanes.length === 0 || reads.length !== lanes.length * d) return;
    for (let k = 0; k < lanes.length; k++) {
      for (let j = 1; j < d; j++) if (reads[k * d + j]!.a !== reads[k * d]!.a + 4 * j) return;
    }
    let q = this.loads.get(w);
    if (!q) this.loads.set(w, (q = []));
    q.push({ vdst: vdst & 0xff, dwords: d, lanes, reads: reads.slice(), cu: this.cuOf(w), cpol, due: this.clock + this.loadDelay(), seq: this.seq++ });
    // Loads retire in order with the counter (the executor counted this one); a counter already
    // below the queue (no counting) retires them at once.
    this.retire(w, this.clock, false);
  }

  private completeLoad(w: Wave, h: HeldLoad): void {
    const ws = w.waveSize;
    h.lanes.forEach((lane, k) => {
      for (let j = 0; j < h.dwords; j++) {
        const r = h.reads[k * h.dwords + j]!;
        const v = this.ownWrites(w, r.a, this.readDword(h.cu, r.a, h.cpol), h.seq);
        if (v !== r.v) this.lateLoadCount++;
        const reg = h.vdst + j;
        if (reg * ws + lane < w.v.length) w.v[reg * ws + lane] = v >>> 0;
      }
    });
  }

  // ---- the memory path
  private cuOf(w: Wave): number {
    const i = this.views.indexOf(w.mem);
    return i < 0 ? 0 : i;
  }

  private l1At(cu: number): Level | undefined {
    return this.l1[Math.floor(cu / this.cusPerL1)];
  }

  /** Which levels a load with these policy bits bypasses (and evicts its line from), per generation. */
  private bypass(cpol: number): { l0: boolean; l1: boolean } {
    const glc = (cpol & CPOL.GLC) !== 0;
    if (this.gen === 'gfx103') return { l0: glc, l1: (cpol & CPOL.DLC) !== 0 };
    return { l0: glc, l1: glc };
  }

  /**
   * `v` (the dword at `a` as the caches gave it) with the wave's own stores to it that are still
   * in flight laid over it, oldest first: those issued before `beforeSeq` (a held load sees the
   * stores issued before it), and the executing instruction's own bytes.
   */
  private ownWrites(w: Wave | null, a: number, v: number, beforeSeq = Infinity): number {
    const q = w === null ? undefined : this.pending.get(w);
    if (q) {
      for (const b of q) {
        if (b.seq >= beforeSeq) break;
        for (const p of b.writes) if (p.a === a) v = ((v & ~p.mask) | (p.v & p.mask)) >>> 0;
      }
    }
    if (w !== null && w === this.cur && this.batch !== null) for (const p of this.batch) if (p.a === a) v = ((v & ~p.mask) | (p.v & p.mask)) >>> 0;
    return v;
  }

  private apply(writes: readonly PendingWrite[]): void {
    for (const p of writes) this.writeDword(p);
  }

  private readDword(cu: number, a: number, cpol: number): number {
    const n = Math.floor(a / LINE_BYTES);
    const i = (a % LINE_BYTES) >>> 2;
    const l0 = this.l0[cu]!;
    const l1 = this.l1At(cu);
    const b = this.bypass(cpol);
    if (b.l0) l0.invalidate(n);
    if (b.l1) l1?.invalidate(n);
    const fromL1: Below = l1 && !b.l1 ? (m, k) => l1.read(m, k, this.fromL2) : this.fromL2;
    return b.l0 ? fromL1(n, i) : l0.read(n, i, fromL1);
  }

  /** A store lands: its bytes go to L2; the storing CU's L0 line is updated (GLC: evicted), its array's GL1 copy dropped. */
  private writeDword(p: PendingWrite): void {
    const n = Math.floor(p.a / LINE_BYTES);
    const i = (p.a % LINE_BYTES) >>> 2;
    const old = this.l2.read32(p.a);
    this.l2.write32(p.a, ((old & ~p.mask) | (p.v & p.mask)) >>> 0);
    const l0 = this.l0[p.cu]!;
    if (p.cpol & CPOL.GLC) l0.invalidate(n);
    else l0.update(n, i, p.v, p.mask);
    this.l1At(p.cu)?.invalidate(n);
  }

  private store(cu: number, a: number, v: number, mask: number): void {
    const p: PendingWrite = { cu, a, v: v >>> 0, mask: mask >>> 0, cpol: this.cpol };
    if (this.batch !== null) this.batch.push(p);
    else this.writeDword(p);
  }

  private makeView(cu: number): Memory {
    const self = this;
    const view = Object.create(this.l2) as Memory;
    const rd = (a: number): number => {
      const base = a - (a % 4);
      if (self.l2.find(base, 4) === null) return self.l2.read32(base); // unmapped: the backing memory faults
      const cached = self.readDword(cu, base, self.cpol);
      if (cached !== self.l2.read32(base)) self.stale++;
      const v = self.ownWrites(self.cur, base, cached);
      if (self.reads !== null) {
        if (a % 4 === 0) self.reads.push({ a: base, v });
        else self.reads = null, self.loadInst = null; // unaligned: not followed
      }
      return v;
    };
    const wr = (a: number, v: number, bytes: number): void => {
      const base = a - (a % 4);
      if (self.l2.find(base, 4) === null) {
        self.l2.write32(base, v); // unmapped: the backing memory faults
        return;
      }
      const sh = (a - base) * 8;
      const mask = (bytes === 4 ? 0xffffffff : ((1 << (bytes * 8)) - 1)) << sh;
      // Byte-masked: a packed rgba8 image store writes one byte per channel, each lands on its own bytes.
      self.store(cu, base, (v << sh) >>> 0, mask);
    };
    Object.defineProperties(view, {
      read8: { value: (a: number) => (rd(a) >>> ((a % 4) * 8)) & 0xff },
      read16: { value: (a: number) => (a % 4 === 3 ? (rd(a) >>> 24) | ((rd(a + 1) & 0xff) << 8) : (rd(a) >>> ((a % 4) * 8)) & 0xffff) },
      read32: { value: (a: number) => (a % 4 === 0 ? rd(a) : (((rd(a) >>> ((a % 4) * 8)) | (rd(a + 4) << (32 - (a % 4) * 8))) >>> 0)) },
      readF32: { value: (a: number) => new Float32Array(Uint32Array.of(view.read32(a)).buffer)[0]! },
      write8: { value: (a: number, v: number) => wr(a, v & 0xff, 1) },
      write16: { value: (a: number, v: number) => (a % 4 === 3 ? (wr(a, v & 0xff, 1), wr(a + 1, (v >>> 8) & 0xff, 1)) : wr(a, v & 0xffff, 2)) },
      write32: {
        value: (a: number, v: number) => {
          if (a % 4 === 0) return wr(a, v, 4);
          for (let k = 0; k < 4; k++) wr(a + k, (v >>> (8 * k)) & 0xff, 1);
        },
      },
      writeF32: { value: (a: number, v: number) => view.write32(a, new Uint32Array(Float32Array.of(v).buffer)[0]!) },
    });
    return view;
  }
}
