/**
 * The per-instruction trace of `gpusim run|draw --trace` (the SQ's `before`/`after` hooks,
 * scheduler.ts): one line per executed wave-instruction with the wave, its PC (the code-object
 * address llvm-objdump and diagnostics print), EXEC before it issued, the instruction, the
 * registers whose values it changed and the memory it touched:
 *
 *     wave 0 pc 0x1c exec 0xffffffff  global_load_b32 v1, v0, s[0:1]  | v1 = 0:0x3f800000 1:0x40000000 2:0x40400000 3:0x40800000 (32 lanes changed) | mem 0x100000000..0x10000007f (128 B)
 *
 * Registers are found by comparing the SGPRs (s0.., vcc, ttmp, m0, exec), SCC and the wave's
 * VGPRs before and after the instruction (a write of the value already there does not show);
 * a VGPR shows its first lanes EXEC enabled and how many lanes changed. Memory is every range the
 * instruction looked up in GPU memory (loads, stores, atomics, scalar loads), merged where
 * touching and summarised by stride; LDS accesses (byte offsets in the workgroup's allocation)
 * likewise after `lds`. The trace is bounded: after `limit` lines the hooks stop formatting and only count.
 */
import type { Memory } from '../../core/memory.js';
import type { Op } from '../engine/types.js';
import type { Wave } from '../wave/wave.js';

/** SGPR names by scalar operand encoding (GFX10.3/GFX11 layout; the first 128 are registers). */
function sgprName(i: number): string {
  if (i < 106) return `s${i}`;
  if (i === 106) return 'vcc_lo';
  if (i === 107) return 'vcc_hi';
  if (i <= 123) return `ttmp${i - 108}`;
  if (i === 125) return 'm0';
  if (i === 126) return 'exec_lo';
  if (i === 127) return 'exec_hi';
  return `s[${i}]`;
}

const hex = (v: number): string => '0x' + (v >>> 0).toString(16);

/** Lanes of a changed VGPR shown before the count of the rest. */
const LANES_SHOWN = 4;
/** Separate memory ranges listed before a summary. */
const RANGES_SHOWN = 4;

export interface TraceOptions {
  /** Lines to write (default 100000); later instructions are counted in `skipped`. */
  readonly limit?: number;
  /** The PC printed is w.pc - base (the code object's load address: diagnostics and disasm count from there). */
  readonly base?: number;
  /** Prefix per line (a draw names the stage: "PS "). */
  readonly prefix?: string;
}

export class InstructionTracer {
  /** Lines written and instructions not traced past the limit. */
  lines = 0;
  skipped = 0;
  readonly limit: number;
  private readonly base: number;
  private sBefore = new Uint32Array(128);
  private vBefore = new Uint32Array(0);
  private sccBefore = 0;
  private execLo = 0;
  private execHi = 0;
  private pc = 0;
  private op: Op | null = null;
  private recording = false;
  private readonly access: number[] = [];
  private readonly ldsAccess: number[] = [];
  private readonly watched = new Set<Memory>();
  private readonly texts = new Map<Op, string>();

  private readonly out: (line: string) => void;

  constructor(out: (line: string) => void, o: TraceOptions = {}) {
    this.out = out;
    this.limit = o.limit ?? 100_000;
    this.base = o.base ?? 0;
  }

  /** The scheduler's `before` hook. */
  readonly before = (w: Wave, op: Op): void => {
    if (this.lines >= this.limit) {
      this.skipped++;
      return;
    }
    this.op = op;
    this.pc = w.pc;
    this.sBefore.set(w.s.subarray(0, 128));
    this.sccBefore = w.scc;
    this.execLo = w.s[126]!;
    this.execHi = w.s[127]!;
    if (this.vBefore.length < w.v.length) this.vBefore = new Uint32Array(w.v.length);
    this.vBefore.set(w.v);
    this.watch(w.mem);
    if (!(w.ldsView instanceof WatchedLds)) {
      const dv = w.ldsView;
      w.ldsView = new WatchedLds(dv.buffer, dv.byteOffset, dv.byteLength, (a, n) => {
        if (this.recording) this.ldsAccess.push(a, n);
      });
    }
    this.access.length = 0;
    this.ldsAccess.length = 0;
    this.recording = true;
  };

  /** The scheduler's `after` hook (prefix: e.g. the draw stage). */
  after(w: Wave, prefix = ''): void {
    const op = this.op;
    if (!this.recording || op === null) return;
    this.recording = false;
    this.op = null;
    let text = this.texts.get(op);
    if (text === undefined) this.texts.set(op, (text = op.text()));
    const exec = w.waveSize === 64 ? `0x${this.execHi.toString(16).padStart(8, '0')}${this.execLo.toString(16).padStart(8, '0')}` : `0x${this.execLo.toString(16).padStart(8, '0')}`;
    let line = `${prefix}wave ${w.id} pc ${hex(this.pc - this.base)} exec ${exec}  ${text}`;
    const regs = this.changed(w);
    if (regs) line += `  | ${regs}`;
    if (this.access.length) line += ` | mem ${summariseRanges(this.access)}`;
    if (this.ldsAccess.length) line += ` | lds ${summariseRanges(this.ldsAccess)}`;
    this.out(line);
    this.lines++;
  }

  /** Memory of a wave: watched while an instruction runs (core/memory.ts `watch`). */
  private watch(m: Memory): void {
    if (this.watched.has(m) || typeof m.watch !== 'function') return;
    this.watched.add(m);
    m.watch((va, size) => {
      if (this.recording) this.access.push(va, size);
    });
  }

  /** Stop watching the memories (the run is over). */
  close(): void {
    for (const m of this.watched) m.watch(null);
    this.watched.clear();
  }

  private changed(w: Wave): string {
    const parts: string[] = [];
    const s = w.s;
    const sb = this.sBefore;
    for (let i = 0; i < 128; i++) if (s[i] !== sb[i]) parts.push(`${sgprName(i)}=${hex(s[i]!)}`);
    if (w.scc !== this.sccBefore) parts.push(`scc=${w.scc}`);
    const ws = w.waveSize;
    const v = w.v;
    const vb = this.vBefore;
    for (let r = 0; r < w.vgprs; r++) {
      let changed = 0;
      for (let l = 0, i = r * ws; l < ws; l++, i++) if (v[i] !== vb[i]) changed++;
      if (changed === 0) continue;
      // The first lanes EXEC enabled (the lanes written), then how many lanes changed.
      let text = '';
      let shown = 0;
      for (let l = 0; l < ws && shown < LANES_SHOWN; l++) {
        if (!((l < 32 ? this.execLo >>> l : this.execHi >>> (l - 32)) & 1) && v[r * ws + l] === vb[r * ws + l]) continue;
        text += `${shown++ ? ' ' : ''}${l}:${hex(v[r * ws + l]!)}`;
      }
      parts.push(`v${r} = ${text} (${changed} lane${changed === 1 ? '' : 's'} changed)`);
    }
    return parts.join(' ');
  }
}

/**
 * `acc`: (va, size) pairs. Sorted by address, touching or overlapping accesses merge into ranges; one range prints
 * as `0xA..0xB (N B)`, equal ranges at a constant stride as `K x N B at 0xA stride S (..0xB)`,
 * anything else as the first ranges and a count.
 */
export function summariseRanges(acc: readonly number[]): string {
  const pairs: [number, number][] = [];
  for (let i = 0; i < acc.length; i += 2) pairs.push([acc[i]!, acc[i]! + acc[i + 1]!]);
  pairs.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const r: number[] = [];
  for (const [va, end] of pairs) {
    const n = r.length;
    if (n && va <= r[n - 1]!) r[n - 1] = Math.max(r[n - 1]!, end); // touching or overlapping (a read-modify-write)
    else r.push(va, end);
  }
  const k = r.length / 2;
  const lo = Math.min(...r.filter((_, i) => i % 2 === 0));
  const hi = Math.max(...r.filter((_, i) => i % 2 === 1));
  if (k === 1) return `${hex16(r[0]!)}..${hex16(r[1]! - 1)} (${r[1]! - r[0]!} B)`;
  const len = r[1]! - r[0]!;
  const stride = r[2]! - r[0]!;
  let regular = true;
  for (let j = 1; j < k && regular; j++) regular = r[2 * j + 1]! - r[2 * j]! === len && r[2 * j]! - r[2 * j - 2]! === stride;
  if (regular) return `${k} x ${len} B at ${hex16(r[0]!)} stride ${stride} (..${hex16(r[2 * k - 1]! - 1)})`;
  const first: string[] = [];
  for (let j = 0; j < Math.min(k, RANGES_SHOWN); j++) first.push(`${hex16(r[2 * j]!)}+${r[2 * j + 1]! - r[2 * j]!}`);
  return `${k} ranges in ${hex16(lo)}..${hex16(hi - 1)}: ${first.join(' ')}${k > RANGES_SHOWN ? ` (+${k - RANGES_SHOWN})` : ''}`;
}

function hex16(v: number): string {
  return '0x' + v.toString(16);
}

/**
 * A wave's view of its LDS that reports each access (byte offset, size) before making it: the
 * tracer puts it in `w.ldsView` (the one way the interpreter's LDS reads and writes go,
 * exec/vmem.ts ldsRead/ldsWrite, vintrp and LDS_DIRECT), so an untraced wave pays nothing.
 */
/** DataView's constructor with its buffer type fixed (a generic base constructor cannot be extended as is). */
const DataViewBase = DataView as new (buffer: ArrayBufferLike, offset: number, length: number) => DataView;

class WatchedLds extends DataViewBase {
  private readonly rec: (a: number, n: number) => void;
  constructor(buffer: ArrayBufferLike, offset: number, length: number, rec: (a: number, n: number) => void) {
    super(buffer, offset, length);
    this.rec = rec;
  }
  override getUint8(a: number): number { this.rec(a, 1); return super.getUint8(a); }
  override getInt8(a: number): number { this.rec(a, 1); return super.getInt8(a); }
  override getUint16(a: number, le?: boolean): number { this.rec(a, 2); return super.getUint16(a, le); }
  override getInt16(a: number, le?: boolean): number { this.rec(a, 2); return super.getInt16(a, le); }
  override getUint32(a: number, le?: boolean): number { this.rec(a, 4); return super.getUint32(a, le); }
  override getInt32(a: number, le?: boolean): number { this.rec(a, 4); return super.getInt32(a, le); }
  override getFloat32(a: number, le?: boolean): number { this.rec(a, 4); return super.getFloat32(a, le); }
  override setUint8(a: number, v: number): void { this.rec(a, 1); super.setUint8(a, v); }
  override setInt8(a: number, v: number): void { this.rec(a, 1); super.setInt8(a, v); }
  override setUint16(a: number, v: number, le?: boolean): void { this.rec(a, 2); super.setUint16(a, v, le); }
  override setInt16(a: number, v: number, le?: boolean): void { this.rec(a, 2); super.setInt16(a, v, le); }
  override setUint32(a: number, v: number, le?: boolean): void { this.rec(a, 4); super.setUint32(a, v, le); }
  override setInt32(a: number, v: number, le?: boolean): void { this.rec(a, 4); super.setInt32(a, v, le); }
  override setFloat32(a: number, v: number, le?: boolean): void { this.rec(a, 4); super.setFloat32(a, v, le); }
}
