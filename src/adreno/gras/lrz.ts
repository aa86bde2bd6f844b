/**
 * LRZ, the low-resolution Z buffer (seed 004 "LRZ"; freedreno's lrz.rst):
 * - the LRZ buffer at GRAS_LRZ_BUFFER_BASE: one D16 value per 8x8 block of the depth buffer,
 *   GRAS_LRZ_BUFFER_PITCH.PITCH values per row;
 * - the fast-clear buffer at GRAS_LRZ_FAST_CLEAR_BUFFER_BASE: 512 bytes, one bit per 16x4 LRZ
 *   blocks (0 = still fast-cleared: reads 1.0 for LESS, 0.0 for GREATER; 1 = written), followed by
 *   the 6 state-tracking bytes: byte 512 the direction (CUR_DIR_DISABLED 0, CUR_DIR_GE 1,
 *   CUR_DIR_LE 2, CUR_DIR_UNSET 3), byte 513 padding, bytes 514..517 the GRAS_LRZ_DEPTH_VIEW the
 *   buffer was built for (freedreno's fd_lrzfc_layout<A6XX>);
 * - two caches in front of them (fast-clear bits; direction + depth view): LRZ_CLEAR fills the
 *   caches (fast-clear bits to 0 when FC_ENABLE; direction to UNSET and the depth view when
 *   DISABLE_ON_WRONG_DIR), GRAS_LRZ_CNTL reads them at each draw, LRZ_FLUSH writes them back —
 *   until then memory holds the old bytes (observable);
 * - at a draw with ENABLE and DISABLE_ON_WRONG_DIR: a stored depth view different from
 *   GRAS_LRZ_DEPTH_VIEW disables LRZ; a stored direction of DISABLED disables it; UNSET takes the
 *   draw's DIR (with DIR_WRITE); a different direction disables LRZ and, with DIR_WRITE, stores
 *   DISABLED. The register's DIR encodes LE 1 / GE 2 / INVALID 3, the byte GE 1 / LE 2.
 * - gen3 (a650): GRAS_LRZ_CNTL and GRAS_LRZ_DEPTH_VIEW must be written with CP_REG_WRITE
 *   TRACK_LRZ, which flushes LRZ (ENABLE forced) when GREATER, DIR (unless the old value is GE or
 *   the new DISABLED) or the depth view change (adreno_pm4.xml); a plain write is
 *   `adreno.lrz.track-quirk`.
 * Diagnostics: `adreno.lrz.wrong-direction` — LRZ used in one direction after being written in
 * the other since the last LRZ_CLEAR, without DISABLE_ON_WRONG_DIR (the buffer is malformed: lrz.rst
 * "changing depth comparison directions without disabling LRZ would lead to a malformed LRZ
 * buffer"); `adreno.lrz.dir-mismatch` — GREATER disagrees with DIR.
 *
 * The fast-clear bit order (row-major over 16x4 blocks of a pitch-wide LRZ row) is a model choice:
 * no source documents it.
 */

export const FC_BYTES = 512;
export const META_BYTES = 6;
export const CUR_DIR = { DISABLED: 0, GE: 1, LE: 2, UNSET: 3 } as const;
/** GRAS_LRZ_CNTL.DIR values (a6xx_lrz_dir_status). */
export const LRZ_DIR = { LE: 1, GE: 2, INVALID: 3 } as const;

export interface LrzCntl {
  readonly ENABLE: number;
  readonly LRZ_WRITE: number;
  readonly GREATER: number;
  readonly FC_ENABLE: number;
  readonly Z_TEST_ENABLE: number;
  readonly DIR: number;
  readonly DIR_WRITE: number;
  readonly DISABLE_ON_WRONG_DIR: number;
}

/** What LRZ needs from the CP. */
export interface LrzHost {
  readBytes(addr: number, n: number): Uint8Array;
  writeBytes(addr: number, b: Uint8Array): void;
  report(id: string, severity: 'error' | 'warning' | 'info', message: string): void;
}

interface Cache {
  base: number;
  fc: Uint8Array;
  meta: Uint8Array;
  dirty: boolean;
}

export interface LrzDrawState {
  readonly enabled: boolean;
  readonly write: boolean;
  /** Why LRZ is off for the draw. */
  readonly reason?: 'disabled' | 'depth-view' | 'dir-disabled' | 'wrong-dir' | 'dir-invalid';
}

export class Lrz {
  private cache: Cache | undefined;
  /** Direction the buffer was written in since the last LRZ_CLEAR (driver-side tracking check). */
  private writtenDir: 'LE' | 'GE' | undefined;
  readonly stats = { clears: 0, flushes: 0, draws: 0, disabledDraws: 0 };

  private readonly host: LrzHost;
  constructor(host: LrzHost) {
    this.host = host;
  }

  private load(base: number): Cache {
    if (this.cache && this.cache.base === base) return this.cache;
    if (this.cache?.dirty) this.writeBack();
    const all = this.host.readBytes(base, FC_BYTES + META_BYTES);
    this.cache = { base, fc: all.slice(0, FC_BYTES), meta: all.slice(FC_BYTES), dirty: false };
    return this.cache;
  }

  private writeBack(): void {
    const c = this.cache!;
    const b = new Uint8Array(FC_BYTES + META_BYTES);
    b.set(c.fc);
    b.set(c.meta, FC_BYTES);
    this.host.writeBytes(c.base, b);
    c.dirty = false;
  }

  /** LRZ_CLEAR with the GRAS_LRZ_CNTL / GRAS_LRZ_DEPTH_VIEW in force. */
  clear(fcBase: number, cntl: LrzCntl, depthView: number): void {
    this.stats.clears++;
    this.writtenDir = undefined;
    if (!fcBase) return;
    const c = this.load(fcBase);
    if (cntl.FC_ENABLE) c.fc.fill(0);
    if (cntl.DISABLE_ON_WRONG_DIR) {
      c.meta[0] = CUR_DIR.UNSET;
      new DataView(c.meta.buffer, c.meta.byteOffset).setUint32(2, depthView >>> 0, true);
    }
    c.dirty = true;
  }

  /** LRZ_FLUSH: the caches to memory. */
  flush(): void {
    this.stats.flushes++;
    if (this.cache?.dirty) this.writeBack();
    this.cache = undefined;
  }

  /** The state-tracking bytes as GRAS sees them (through the cache). */
  meta(fcBase: number): { dir: number; view: number } {
    const c = this.load(fcBase);
    return { dir: c.meta[0]!, view: new DataView(c.meta.buffer, c.meta.byteOffset).getUint32(2, true) };
  }

  /** Is the fast-clear bit of LRZ block (bx, by) set (the block written)? */
  fcBit(fcBase: number, pitch: number, bx: number, by: number): boolean {
    const c = this.load(fcBase);
    const i = Math.floor(by / 4) * Math.ceil(pitch / 16) + Math.floor(bx / 16);
    return ((c.fc[i >> 3]! >> (i & 7)) & 1) === 1;
  }

  private setFcBit(fcBase: number, pitch: number, bx: number, by: number): void {
    const c = this.load(fcBase);
    const i = Math.floor(by / 4) * Math.ceil(pitch / 16) + Math.floor(bx / 16);
    if (i >> 3 >= FC_BYTES) return;
    c.fc[i >> 3] = c.fc[i >> 3]! | (1 << (i & 7));
    c.dirty = true;
  }

  /** GRAS_LRZ_CNTL at a draw: direction and depth-view checks, the tracking byte updated. */
  draw(cntl: LrzCntl, fcBase: number, depthView: number): LrzDrawState {
    this.stats.draws++;
    const off = (reason: LrzDrawState['reason']): LrzDrawState => {
      this.stats.disabledDraws++;
      return { enabled: false, write: false, reason };
    };
    if (!cntl.ENABLE) return { enabled: false, write: false, reason: 'disabled' };
    const dir: 'LE' | 'GE' = cntl.GREATER ? 'GE' : 'LE';
    if ((cntl.DIR === LRZ_DIR.LE && dir !== 'LE') || (cntl.DIR === LRZ_DIR.GE && dir !== 'GE')) {
      this.host.report('adreno.lrz.dir-mismatch', 'warning', `GRAS_LRZ_CNTL.DIR ${cntl.DIR === LRZ_DIR.LE ? 'LRZ_DIR_LE' : 'LRZ_DIR_GE'} with GREATER ${cntl.GREATER}: the direction tracked differs from the one LRZ is updated in`);
    }
    if (cntl.DISABLE_ON_WRONG_DIR && fcBase) {
      const c = this.load(fcBase);
      const m = this.meta(fcBase);
      if (m.view !== depthView >>> 0) return off('depth-view');
      if (cntl.DIR === LRZ_DIR.INVALID) {
        if (cntl.DIR_WRITE) { c.meta[0] = CUR_DIR.DISABLED; c.dirty = true; }
        return off('dir-invalid');
      }
      if (m.dir === CUR_DIR.DISABLED) return off('dir-disabled');
      const want = cntl.DIR === LRZ_DIR.GE ? CUR_DIR.GE : CUR_DIR.LE;
      if (m.dir === CUR_DIR.UNSET) {
        if (cntl.DIR_WRITE) { c.meta[0] = want; c.dirty = true; }
      } else if (m.dir !== want) {
        if (cntl.DIR_WRITE) { c.meta[0] = CUR_DIR.DISABLED; c.dirty = true; }
        return off('wrong-dir');
      }
    } else if (this.writtenDir && this.writtenDir !== dir) {
      this.host.report('adreno.lrz.wrong-direction', 'error', `LRZ used in the ${dir} direction after it was written ${this.writtenDir} since the last LRZ_CLEAR, without GRAS_LRZ_CNTL.DISABLE_ON_WRONG_DIR: the LRZ buffer is malformed for this test and can reject visible fragments`);
    }
    if (cntl.LRZ_WRITE) this.writtenDir = dir;
    return { enabled: true, write: cntl.LRZ_WRITE === 1 };
  }

  /** The D16 value of LRZ block (bx, by) as the test sees it (fast-cleared blocks read 1.0 / 0.0). */
  value(lrzBase: number, pitch: number, fcBase: number, fcEnable: boolean, greater: boolean, bx: number, by: number): number {
    if (fcEnable && fcBase && !this.fcBit(fcBase, pitch, bx, by)) return greater ? 0 : 0xffff;
    const b = this.host.readBytes(lrzBase + 2 * (by * pitch + bx), 2);
    return b[0]! | (b[1]! << 8);
  }

  /**
   * The block test: may a primitive with depth range [zmin, zmax] (D16 units) pass in block (bx, by)?
   * LESS keeps in LRZ the farthest depth the block can hold, GREATER the nearest.
   */
  test(lrzBase: number, pitch: number, fcBase: number, cntl: LrzCntl, bx: number, by: number, zmin: number, zmax: number): boolean {
    const v = this.value(lrzBase, pitch, fcBase, !!cntl.FC_ENABLE, !!cntl.GREATER, bx, by);
    return cntl.GREATER ? zmax >= v : zmin <= v;
  }

  /** A primitive covering block (bx, by) entirely, writing depth up to `zfar` (D16): tighten the bound. */
  update(lrzBase: number, pitch: number, fcBase: number, cntl: LrzCntl, bx: number, by: number, zfar: number): void {
    if (cntl.FC_ENABLE && fcBase && !this.fcBit(fcBase, pitch, bx, by)) {
      // First write into a fast-cleared 16x4 group: the group takes the clear value (GRAS_LRZ_CNTL.FC_ENABLE's doc).
      const clear = cntl.GREATER ? 0 : 0xffff;
      const gx = Math.floor(bx / 16) * 16, gy = Math.floor(by / 4) * 4;
      for (let y = gy; y < gy + 4; y++) for (let x = gx; x < Math.min(gx + 16, pitch); x++) this.host.writeBytes(lrzBase + 2 * (y * pitch + x), Uint8Array.of(clear & 0xff, clear >> 8));
      this.setFcBit(fcBase, pitch, bx, by);
    }
    const v = this.value(lrzBase, pitch, fcBase, !!cntl.FC_ENABLE, !!cntl.GREATER, bx, by);
    const nv = cntl.GREATER ? Math.max(v, zfar) : Math.min(v, zfar);
    this.host.writeBytes(lrzBase + 2 * (by * pitch + bx), Uint8Array.of(nv & 0xff, nv >> 8));
    if (cntl.FC_ENABLE && fcBase) this.setFcBit(fcBase, pitch, bx, by);
  }
}
