/**
 * The a6xx caches as the seed (004, "Caches") describes who uses which:
 * - the CP's memory accesses are uncached;
 * - RB writes (sysmem draws, the 2D engine's destination, GMEM resolves) go through the CCU colour
 *   or depth cache and reach memory at PC_CCU_FLUSH_COLOR_TS / PC_CCU_FLUSH_DEPTH_TS
 *   (PC_CCU_RESOLVE_TS for the colour cache after tile stores);
 * - everything else goes through UCHE (flushed by CACHE_FLUSH_TS); texturing reads through the
 *   TP's L1 (CACHE_INVALIDATE invalidates UCHE and L1).
 *
 * The model is write-through with shadows: memory holds the newest bytes (what the pipeline
 * reads back), and for every range written through a cache since its last flush the bytes from
 * before the write are kept. A reader that does not go through that cache — the CP, the BLIT
 * event's restore (uncached, seed), the 2D engine's source (TP / UCHE) of CCU-written data —
 * sees the old bytes, which is observable, and `adreno.cache.stale-read` names the event the
 * stream was missing. A TP read of a range it has read before, written since through any path
 * without a CACHE_INVALIDATE in between, is `adreno.cache.stale-l1`.
 */

export type CacheKind = 'ccu-color' | 'ccu-depth' | 'uche';

/** The event that writes a cache's dirty lines to memory. */
export const FLUSH_EVENT: Readonly<Record<CacheKind, string>> = {
  'ccu-color': 'PC_CCU_FLUSH_COLOR_TS',
  'ccu-depth': 'PC_CCU_FLUSH_DEPTH_TS',
  uche: 'CACHE_FLUSH_TS',
};

export interface CacheHost {
  readBytes(addr: number, n: number): Uint8Array;
  report(id: string, severity: 'error' | 'warning' | 'info', message: string): void;
}

interface Shadow {
  readonly kind: CacheKind;
  readonly base: number;
  readonly old: Uint8Array;
  /** Who wrote it (for the message). */
  readonly by: string;
  reported: boolean;
}

interface Range {
  readonly base: number;
  readonly end: number;
}

const overlaps = (a: number, b: number, c: number, d: number): boolean => a < d && c < b;

export class Caches {
  private shadows: Shadow[] = [];
  /** Ranges the TP's L1 holds since the last CACHE_INVALIDATE, and which of them went stale. */
  private l1: Range[] = [];
  private l1Stale: Range[] = [];
  readonly stats = { flushes: 0, invalidates: 0, staleReads: 0 };
  private readonly host: CacheHost;

  constructor(host: CacheHost) {
    this.host = host;
  }

  /** Any range written through a cache and not flushed? */
  get any(): boolean {
    return this.shadows.length > 0;
  }

  /** Before `len` bytes at `base` are written through cache `kind` by `by`: keep what was there. */
  willWrite(kind: CacheKind, base: number, len: number, by: string): void {
    if (len <= 0) return;
    for (const r of this.l1) if (overlaps(base, base + len, r.base, r.end)) this.l1Stale.push({ base: Math.max(base, r.base), end: Math.min(base + len, r.end) });
    if (this.shadows.some((s) => s.kind === kind && s.base <= base && s.base + s.old.length >= base + len)) return;
    this.shadows.push({ kind, base, old: this.host.readBytes(base, len), by, reported: false });
  }

  /** An uncached (CP) write: later uncached reads see it, so the kept bytes under it are replaced. */
  uncachedWrite(addr: number, bytes: Uint8Array): void {
    for (const s of this.shadows) {
      const lo = Math.max(addr, s.base), hi = Math.min(addr + bytes.length, s.base + s.old.length);
      if (lo < hi) s.old.set(bytes.subarray(lo - addr, hi - addr), lo - s.base);
    }
  }

  /** An event: flushes drop their cache's shadows, CACHE_INVALIDATE empties L1. */
  event(name: string): void {
    const kinds: CacheKind[] = [];
    if (name === 'PC_CCU_FLUSH_COLOR_TS' || name === 'PC_CCU_RESOLVE_TS') kinds.push('ccu-color');
    if (name === 'PC_CCU_FLUSH_DEPTH_TS') kinds.push('ccu-depth');
    if (name === 'CACHE_FLUSH_TS' || name === 'CACHE_FLUSH') kinds.push('uche');
    if (kinds.length) {
      this.stats.flushes++;
      this.shadows = this.shadows.filter((s) => !kinds.includes(s.kind));
    }
    if (name === 'CACHE_INVALIDATE') {
      this.stats.invalidates++;
      this.l1 = [];
      this.l1Stale = [];
    }
  }

  /**
   * A read of `len` bytes at `addr` by a reader outside `via` (the caches it reads through; the CP
   * reads through none): memory's bytes with every shadow of another path laid over them
   * (`observable`: only the shadows that differ from memory are reported).
   */
  read(addr: number, len: number, reader: string, via: readonly CacheKind[] = [], observable = false): Uint8Array {
    const out = this.host.readBytes(addr, len);
    for (const s of this.shadows) {
      if (via.includes(s.kind)) continue;
      const lo = Math.max(addr, s.base), hi = Math.min(addr + len, s.base + s.old.length);
      if (lo >= hi) continue;
      const old = s.old.subarray(lo - s.base, hi - s.base);
      // `observable`: a shadow holding the bytes memory holds (kept for a write not made yet) is no stale read.
      if (observable && old.every((b, k) => b === out[lo - addr + k])) continue;
      out.set(old, lo - addr);
      this.stats.staleReads++;
      if (!s.reported) {
        s.reported = true;
        this.host.report('adreno.cache.stale-read', 'error', `${reader} reads 0x${lo.toString(16)}..0x${hi.toString(16)}, written by ${s.by} through the ${s.kind === 'uche' ? 'UCHE' : s.kind === 'ccu-color' ? 'CCU colour cache' : 'CCU depth cache'} and not flushed: it sees the old bytes; ${FLUSH_EVENT[s.kind]} was needed before it`);
      }
    }
    return out;
  }

  /** A TP (L1) read: stale if the range was read into L1 and written since without CACHE_INVALIDATE. */
  l1Read(addr: number, len: number, reader: string): void {
    const hit = this.l1Stale.find((r) => overlaps(addr, addr + len, r.base, r.end));
    if (hit) {
      this.host.report('adreno.cache.stale-l1', 'error', `${reader} reads 0x${hit.base.toString(16)}..0x${hit.end.toString(16)} through the TP's L1, which holds it from an earlier read; it was written since: CACHE_INVALIDATE was needed before it`);
      this.l1Stale = this.l1Stale.filter((r) => r !== hit);
    }
    this.l1.push({ base: addr, end: addr + len });
  }

  /** Ranges written through `kind` and not yet flushed (for tests and reports). */
  dirty(kind: CacheKind): { base: number; len: number }[] {
    return this.shadows.filter((s) => s.kind === kind).map((s) => ({ base: s.base, len: s.old.length }));
  }
}
