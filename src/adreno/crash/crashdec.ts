/**
 * `gpusim adreno crash <devcoredump> --format crashdec [-s]`: freedreno crashdec's text, line for
 * line. crashdec echoes the dump and expands each section as it goes:
 *
 * - header lines verbatim, `Got chip_id=0x...` after `revision:`;
 * - `ringbuffer:` and `bos:` without their ascii85 data (bos as `iova-end` and `size (hex)`);
 * - `registers:` one `\t%08x\tNAME: decoded` line per register (64-bit registers accumulated),
 *   then the fault analysis: CP_RB_BASE, CP_IBn_BASE/REM_SIZE corrected by the ROQ's unconsumed
 *   dwords (CP_ROQ_AVAIL_*), the ring position backed up on a6xx (its RPTR is the ROQ's, not the
 *   SQE's), the unread ring decoded cffdump-style with the prefetch backtracking and the
 *   `ESTIMATED CRASH LOCATION!` marker;
 * - `registers-gmu:` through the GMU register space;
 * - `indexed-registers:` CP_SQE_STAT (SQE PC and the 32 SQE registers), CP_DRAW_STATE and
 *   CP_ROQ as hex, CP_UCODE_DBG_DATA's sections (instruction cache, SQE scratch control
 *   registers), CP_MEMPOOL's per-cluster queues of pending register writes;
 * - `shader-blocks:`, `clusters:` (banked registers per context), `debugbus:`.
 *
 * Bad input never throws out of here: the lines produced so far are returned with a one-line
 * error (crashdec stops at the same places with "parse error scanning").
 */
import { disasmIr3 } from '../ir3/disasm.js';
import { InputError } from '../../core/errors.js';
import { Memory } from '../../core/memory.js';
import { CffdumpPrinter } from '../cp/cffdump.js';
import { opcodeName } from '../cp/pm4.js';
import { Walker, type IbInfo, type Visitor } from '../cp/walker.js';
import { genFromGpuId, gpuRegs, registerSpace, type Gen, type RegisterSpace } from '../regs/db.js';
import { DumpBuffers, type HostPtr } from './buffers.js';
import { handlePrefetch, isType4or7, type IbHint } from './prefetch.js';
import { hex8, hex64, RegAcc, registerText, rnnOf, split64, tabs } from './regtext.js';

export interface CrashdecOptions {
  /** -s: summary (no register writes in the command stream). */
  readonly summary?: boolean;
  /** -v: also dump the less interesting buffers, and the whole ring. */
  readonly verbose?: boolean;
  /** -l N: dwords to look back from the ring position (default 20). */
  readonly lookback?: number;
}

export interface CrashdecResult {
  readonly lines: string[];
  /** The one-line reason decoding stopped early, if it did. */
  readonly error?: string;
  readonly gen?: Gen;
}

/** The GMU's own register space (a6xx_gmu.xml's A6XX_GMU domain; crashdec loads it for registers-gmu). */
export function gmuRegs(gen: Gen): RegisterSpace {
  return registerSpace('A6XX_GMU', gen === 'a7xx' ? 'a7xx' : 'a6xx');
}

class ParseError extends Error {}

/** Parse `0x...` or hex digits of a 64-bit value into a number (exact below 2^53). */
function parseHex64(s: string): number {
  const t = s.trim().replace(/^0x/i, '');
  if (!/^[0-9a-fA-F]+$/.test(t)) throw new ParseError(`bad hex number '${s.trim()}'`);
  const hi = t.length > 8 ? parseInt(t.slice(0, -8), 16) : 0;
  const lo = parseInt(t.slice(-8), 16);
  return hi * 2 ** 32 + lo;
}

function parseDec(s: string): number {
  const m = /^\s*(-?\d+)/.exec(s);
  if (!m) throw new ParseError(`bad number '${s.trim()}'`);
  return parseInt(m[1]!, 10);
}

/** crashdec's lenient ascii85 (5 characters per dword, `z` = 0), into `sizedwords` dwords. */
export function ascii85Lenient(line: string, sizedwords: number): Uint32Array {
  // Every dword takes at least one character: a huge count with a short line allocates little.
  const n = Math.max(0, Math.min(Math.floor(sizedwords), line.length, 1 << 26));
  const buf = new Uint32Array(n);
  let i = 0;
  while (i < line.length && line[i] === ' ') i++;
  let idx = 0;
  while (i < line.length && idx < n) {
    if (line[i] === 'z') {
      buf[idx++] = 0;
      i++;
      continue;
    }
    let acc = 0;
    for (let k = 0; k < 5 && i < line.length; k++, i++) acc = (acc * 85 + (line.charCodeAt(i) - 33)) % 2 ** 32;
    buf[idx++] = acc >>> 0;
  }
  return buf;
}

/** The kernel's section-name typos, fixed as crashdec does. */
function fixLine(l: string): string {
  return l.replace('CP_MEMPOOOL', 'CP_MEMPOOL').replace('CP_SEQ_STAT', 'CP_SQE_STAT').replace('CP_BV_SQE_STAT_ADDR', 'CP_BV_SQE_STAT');
}

/** dump_hex_ascii: 16 bytes per row, `|ascii|` beside. */
export function hexAscii(buf: Uint32Array, sizeBytes: number, level: number, out: (l: string) => void): void {
  const t = '\t'.repeat(Math.max(0, Math.min(level, 8)));
  out(`${t}-----------------------------------------------`);
  out(`${t}${sizeBytes} (0x${sizeBytes.toString(16)}) bytes`);
  const nd = Math.ceil(sizeBytes / 4);
  const byte = (k: number): number => ((buf[k >> 2] ?? 0) >>> ((k & 3) * 8)) & 0xff;
  const ascii = (from: number, to: number): string => {
    let s = '';
    for (let k = from; k < to; k++) {
      const c = byte(k);
      s += c >= 0x20 && c < 0x7f ? String.fromCharCode(c) : '.';
    }
    return s;
  };
  for (let i = 0; i < nd; i += 4) {
    let s = `${t}${(i * 4).toString(16).padStart(6, '0')}: `;
    const words: string[] = [];
    for (let j = 0; j < 4 && i + j < nd; j++) words.push(hex8(buf[i + j] ?? 0));
    s += words.join(' ');
    if (words.length < 4) s += '         '.repeat(4 - words.length);
    s += `\t|${ascii(i * 4, Math.min(i * 4 + 16, nd * 4))}|`;
    out(s);
  }
}

const REG_RE = /^\s*-\s*\{\s*offset:\s*(?:0x)?([0-9a-fA-F]+),\s*value:\s*(?:0x)?([0-9a-fA-F]+)\s*\}/;

/** Decode a devcoredump into crashdec's text. */
export function crashdec(text: string, options: CrashdecOptions = {}): CrashdecResult {
  const lines: string[] = [];
  const out = (l: string): void => {
    lines.push(l);
  };
  const dec = new Decoder(text, options, out);
  try {
    dec.run();
  } catch (e) {
    if (e instanceof ParseError || e instanceof InputError || e instanceof RangeError) {
      return { lines, error: e.message, ...(dec.gen ? { gen: dec.gen } : {}) };
    }
    throw e;
  }
  if (!dec.sawDump) return { lines, error: 'not a GPU devcoredump (no kernel/revision/ringbuffer/registers section)' };
  return { lines, ...(dec.gen ? { gen: dec.gen } : {}) };
}

interface Ring {
  iova: number;
  rptr: number;
  wptr: number;
  size: number;
  buf?: Uint32Array;
}

class Decoder {
  private readonly src: string[];
  private pos = 0;
  private readonly opts: CrashdecOptions;
  private readonly out: (l: string) => void;
  gen: Gen | undefined;
  private gpuId = 0;
  private chipId = 0;
  sawDump = false;
  private readonly bufs = new DumpBuffers();
  private readonly rings = new Map<number, Ring>();
  private faultIova: number | undefined;
  private cff: CffdumpPrinter | undefined;
  private walker: Walker | undefined;
  /** The dump's buffers as GPU memory for the walker (iovas above 2^48 included). */
  private readonly mem = new Memory({ vaLimit: 2 ** 53 });
  /** Where the unwrapped ring copy sits in `mem` (its rows print address 0, as crashdec's do). */
  private copy: { base: number; end: number } | undefined;
  private marker: CrashMarker | undefined;
  private readonly ibs: IbHint[] = [0, 1, 2, 3].map(() => ({ base: 0, rem: 0, size: 0, crashFound: false }));

  constructor(text: string, opts: CrashdecOptions, out: (l: string) => void) {
    this.src = text.split('\n');
    if (this.src.length && this.src[this.src.length - 1] === '') this.src.pop();
    this.opts = opts;
    this.out = out;
  }

  private next(): string | undefined {
    if (this.pos >= this.src.length) return undefined;
    return fixLine(this.src[this.pos++]!.replace(/\r$/, ''));
  }

  /** Lines of the current section (those starting with a space). */
  private *section(): Generator<string> {
    for (;;) {
      if (this.pos >= this.src.length) return;
      const l = this.src[this.pos]!;
      if (!l.startsWith(' ')) return;
      yield this.next()!;
    }
  }

  /** A dump buffer: indexed for the prefetch scan, and mapped for the walker (zero past its data). */
  private addBuffer(iova: number, size: number, data: Uint32Array): Uint32Array {
    this.bufs.add(iova, size, data);
    if (size > 0 && size <= 1 << 28) {
      const bytes = new Uint8Array(size);
      bytes.set(new Uint8Array(data.buffer, data.byteOffset, Math.min(data.byteLength, size)));
      try {
        this.mem.map(iova, size, 'bo', bytes);
      } catch {
        /* overlapping or unmappable: the first buffer at an address wins, as in crashdec's lookup */
      }
    }
    return data;
  }

  private ascii85(sizedwords: number): Uint32Array {
    const l = this.next();
    if (l === undefined || !l.startsWith(' ')) {
      if (l !== undefined) this.pos--;
      return new Uint32Array(0);
    }
    return ascii85Lenient(l, sizedwords);
  }

  private get chip(): number {
    return this.gen ? parseInt(this.gen.slice(1), 10) : 0;
  }

  run(): void {
    for (let l = this.next(); l !== undefined; l = this.next()) {
      this.out(l);
      if (/^(kernel|module|revision|rbbm-status|ringbuffer|registers|gpu-initialized):/.test(l)) this.sawDump = true;
      if (l.startsWith('revision:')) {
        if (!this.revision(l)) return;
      } else if (l.startsWith('fault-info:')) this.faultInfo();
      else if (l.startsWith('bos:')) this.bos();
      else if (l.startsWith('ringbuffer:')) this.ringbuffer();
      else if (l.startsWith('gmu-log:')) this.gmuLog();
      else if (l.startsWith('gmu-hfi:')) this.gmuHfi();
      else if (l.startsWith('registers:')) {
        this.registers();
        this.cmdstream();
      } else if (l.startsWith('registers-gmu:')) this.gmuRegisters();
      else if (l.startsWith('indexed-registers:')) this.indexed();
      else if (l.startsWith('shader-blocks:')) this.shaderBlocks();
      else if (l.startsWith('clusters:')) this.clusters();
      else if (l.startsWith('debugbus:')) this.debugbus();
    }
  }

  private needGen(): Gen {
    if (!this.gen) throw new ParseError('register section before a supported revision: line');
    return this.gen;
  }

  private revision(l: string): boolean {
    const m = /^revision:\s*(\d+)\s*\((\d+)\.(\d+)\.(\d+)\.(\d+)\)/.exec(l);
    if (!m) throw new ParseError(`parse error scanning: 'revision: %u (%u.%u.%u.%u)'`);
    this.gpuId = parseInt(m[1]!, 10);
    const [core, major, minor, patch] = [m[2], m[3], m[4], m[5]].map((x) => parseInt(x!, 10) & 0xff) as [number, number, number, number];
    this.chipId = (((core << 24) >>> 0) | (major << 16) | (minor << 8) | patch) >>> 0;
    const gen = genFromGpuId(this.gpuId) ?? (core >= 2 && core <= 7 ? genFromGpuId(core * 100) : undefined);
    if (!gen || gen === 'a2xx') {
      this.out('Unsupported device');
      return false;
    }
    this.gen = gen;
    this.out(`Got chip_id=0x${this.chipId.toString(16)}`);
    const marker = (this.marker = new CrashMarker(this.ibs, this.out));
    const printer = new CffdumpPrinter(gen, this.gpuId, this.mem, this.out, undefined, {
      summary: !!this.opts.summary,
      hexAddr: (iova) => (this.copy && iova >= this.copy.base && iova < this.copy.end ? 0 : iova),
      mark: (level, last) => marker.mark(level, last),
    });
    this.cff = printer;
    const v: Visitor = {
      packet: (p) => printer.packet(p),
      packetEnd: (p) => printer.packetEnd(p),
      enterIb: (ib) => {
        marker.enterIb(ib);
        printer.enterIb(ib);
      },
      leaveIb: () => printer.leaveIb(),
      drawStateGroup: (g, l, sk) => printer.drawStateGroup(g, l, sk),
      loopIteration: (p, i) => printer.loopIteration(p, i),
    };
    this.walker = new Walker(this.mem, gen, v, { drawStates: 'at-draw', once: false, followChain: false, followEmbedded: true, headers: 'any', stopOnBadHeader: this.chip < 5, maxLevel: 3 });
    printer.walker = this.walker;
    return true;
  }

  private faultInfo(): void {
    for (const l of this.section()) {
      const far = /^ {2}- far:\s*(?:0x)?([0-9a-fA-F]+)/.exec(l) ?? /^ {2}- iova=(?:0x)?([0-9a-fA-F]+)/.exec(l);
      if (far) this.faultIova = parseHex64(far[1]!);
      this.out(l);
    }
  }

  private bos(): void {
    let size = 0;
    let iova = 0;
    for (const l of this.section()) {
      if (l.startsWith('  - iova:')) {
        iova = parseHex64(l.slice(9));
        continue;
      }
      if (l.startsWith('    size:')) {
        size = parseDec(l.slice(9)) >>> 0;
        const end = iova + size;
        const [a, b] = split64(iova);
        const [c, d] = split64(end);
        let s = `  - iova: 0x${hex64(a, b, 16)}-0x${hex64(c, d, 16)}`;
        const f = this.faultIova;
        if (f !== undefined) {
          if (iova <= f && f < end) s += '\t==';
          else if (iova <= f && f < end + size) s += '\t>=';
        }
        this.out(s);
        this.out(`    size: ${size} (0x${size.toString(16)})`);
        continue;
      }
      if (l.startsWith('    data: !!ascii85 |')) {
        const buf = this.ascii85(size / 4);
        if (this.opts.verbose) hexAscii(buf, size, 1, this.out);
        this.addBuffer(iova, size, buf);
        continue;
      }
      this.out(l);
    }
  }

  private ringbuffer(): void {
    let id = 0;
    const ring = (): Ring => {
      let r = this.rings.get(id);
      if (!r) this.rings.set(id, (r = { iova: 0, rptr: 0, wptr: 0, size: 0 }));
      return r;
    };
    for (const l of this.section()) {
      if (l.startsWith('  - id:')) {
        id = parseDec(l.slice(7));
        if (id < 0 || id >= 5) throw new ParseError(`ring id ${id} out of range 0..4`);
      } else if (l.startsWith('    iova:')) ring().iova = parseHex64(l.slice(9));
      else if (l.startsWith('    rptr:')) ring().rptr = parseDec(l.slice(9)) >>> 0;
      else if (l.startsWith('    wptr:')) ring().wptr = parseDec(l.slice(9)) >>> 0;
      else if (l.startsWith('    size:')) ring().size = parseDec(l.slice(9)) >>> 0;
      else if (l.startsWith('    data: !!ascii85 |')) {
        const r = ring();
        r.buf = this.addBuffer(r.iova, r.size, this.ascii85(r.size / 4));
        continue;
      }
      this.out(l);
    }
  }

  private gmuLog(): void {
    let size = 0;
    for (const l of this.section()) {
      if (l.startsWith('    size:')) size = parseDec(l.slice(9)) >>> 0;
      else if (l.startsWith('    data: !!ascii85 |')) {
        hexAscii(this.ascii85(size / 4), size, 1, this.out);
        continue;
      }
      this.out(l);
    }
  }

  /**
   * gmu-hfi: the HFI queue table (header, then one 12-dword header per queue). The messages in
   * the queues are not decoded here.
   */
  private gmuHfi(): void {
    let size = 0;
    for (const l of this.section()) {
      if (l.startsWith('    size:')) size = parseDec(l.slice(9)) >>> 0;
      else if (l.startsWith('    data: !!ascii85 |')) {
        const buf = this.ascii85(size / 4);
        if (this.opts.verbose) hexAscii(buf, size, 1, this.out);
        const at = (i: number): number => buf[i] ?? 0;
        this.out(`\tversion:       ${at(0)}`);
        this.out(`\tsize:          ${at(1)}`);
        this.out(`\tqhdr0_offset:  ${at(2)}`);
        this.out(`\tqhdr_size:     ${at(3)}`);
        this.out(`\tnum_queues:    ${at(4)}`);
        for (let q = 0; q < Math.min(at(4), 16); q++) {
          const b = 6 + q * 12;
          const h = (i: number): string => `0x${at(b + i).toString(16)}`;
          this.out(`\tqueue[${q}]:`);
          this.out(`\t\tstatus:       ${h(0)}`);
          this.out(`\t\tiova:         ${h(1)}`);
          this.out(`\t\ttype:         ${h(2)}`);
          this.out(`\t\tsize:         ${at(b + 3)}`);
          this.out(`\t\tmsg_size:     ${at(b + 4)}`);
          this.out(`\t\tdropped:      ${at(b + 5)}`);
          this.out(`\t\trx_watermark: ${h(6)}`);
          this.out(`\t\ttx_watermark: ${h(7)}`);
          this.out(`\t\trx_request:   ${h(8)}`);
          this.out(`\t\ttx_request:   ${h(9)}`);
          this.out(`\t\tread_index:   ${at(b + 10)}`);
          this.out(`\t\twrite_index:  ${at(b + 11)}`);
        }
        continue;
      }
      this.out(l);
    }
  }

  private registers(): void {
    const gen = this.needGen();
    const space = gpuRegs(gen);
    const acc = new RegAcc(space, this.out);
    for (const l of this.section()) {
      const m = REG_RE.exec(l);
      if (!m) throw new ParseError(`parse error scanning: '  - { offset: %x, value: %x }'`);
      const off = Math.floor(parseInt(m[1]!.slice(-8), 16) / 4);
      const v = parseInt(m[2]!.slice(-8), 16) >>> 0;
      this.cff!.regSet(off, v);
      const r = acc.push(off, v);
      if (r) this.out(`\t${hex64(r[1], r[2])}\t${this.cff!.registerLine(r[0], r[1], r[2])}`);
    }
  }

  private reg(name: string): number {
    const o = gpuRegs(this.gen!).offsetOf(name);
    return o === undefined ? 0 : this.cff!.regVal(o);
  }

  private reg64(name: string): number {
    const o = gpuRegs(this.gen!).offsetOf(name);
    if (o === undefined) return 0;
    return this.cff!.regVal(o) + (this.chip >= 5 ? this.cff!.regVal(o + 1) * 2 ** 32 : 0);
  }

  /** dump_cmdstream: locate the ring and decode what the CP had not finished. */
  private cmdstream(): void {
    const cff = this.cff!;
    const rbBase = this.reg64('CP_RB_BASE');
    const [a, b] = split64(rbBase);
    this.out(`got rb_base=${hex64(a, b, 1)}`);
    const remInfo = this.chip === 6 || this.chip === 7;
    this.ibs[1]!.base = this.reg64('CP_IB1_BASE');
    if (remInfo) this.ibs[1]!.rem = this.reg('CP_IB1_REM_SIZE');
    this.ibs[2]!.base = this.reg64('CP_IB2_BASE');
    if (remInfo) this.ibs[2]!.rem = this.reg('CP_IB2_REM_SIZE');
    if (remInfo) {
      // The ROQ holds dwords fetched but not yet consumed by the SQE.
      const ib1 = this.reg('CP_ROQ_AVAIL_IB1') >>> 16;
      const ib2 = this.reg('CP_ROQ_AVAIL_IB2') >>> 16;
      this.ibs[1]!.rem = (this.ibs[1]!.rem + (ib1 ? ib1 - 1 : 0)) >>> 0;
      this.ibs[2]!.rem = (this.ibs[2]!.rem + (ib2 ? ib2 - 1 : 0)) >>> 0;
    }
    for (const i of [1, 2]) {
      const [lo, hi] = split64(this.ibs[i]!.base);
      this.out(`IB${i}: ${hex64(lo, hi, 1)}, ${this.ibs[i]!.rem}`);
    }
    cff.resetWritten();
    for (const id of [0, 1, 2, 3, 4]) {
      const ring = this.rings.get(id);
      if (!ring || ring.iova !== rbBase || !ring.size) continue;
      this.out('found ring!');
      const szdw = ring.size >>> 2;
      if (!szdw) continue;
      if (szdw > 1 << 24) throw new ParseError(`ring ${id} size ${ring.size} is not a ring buffer size`);
      const buf = ring.buf ?? this.addBuffer(ring.iova, ring.size, new Uint32Array(0));
      if (this.opts.verbose) {
        handlePrefetch({ arr: buf, off: 0 }, szdw, this.ibs, this.bufs, this.gen!);
        this.walker!.walk(ring.iova, szdw, 0, 'RB');
        return;
      }
      const mod = (x: number): number => ((x % szdw) + szdw) % szdw;
      // The ring's rptr has most likely moved past the IB into later packets: back up a few
      // dwords and advance to the first valid packet header (crashdec as of Mesa 24.3: the
      // ring header's rptr, 12 dwords; later versions start from CP_RB_RPTR less the ROQ's
      // unconsumed ring dwords).
      const lookback = this.opts.lookback ?? 12;
      let rptr = mod(ring.rptr - lookback);
      for (let i = 0; i < lookback; i++) {
        const d = buf[rptr] ?? 0;
        if (this.chip < 5 || isType4or7(d)) break;
        rptr = mod(rptr + 1);
      }
      const cmdszdw = mod(ring.wptr - rptr);
      this.out(`got cmdszdw=${cmdszdw}`);
      const copy = new Uint32Array(cmdszdw);
      for (let i = 0; i < cmdszdw; i++) copy[i] = buf[mod(rptr + i)] ?? 0;
      const p: HostPtr = { arr: copy, off: 0 };
      handlePrefetch(p, cmdszdw, this.ibs, this.bufs, this.gen!);
      if (!cmdszdw) continue;
      // The copy goes into free memory for the walker; its rows print address 0 (it has no iova).
      const seg = this.mem.alloc(cmdszdw * 4, 'ring copy');
      for (let i = 0; i < cmdszdw; i++) seg.dv.setUint32(i * 4, copy[i]!, true);
      this.copy = { base: seg.base, end: seg.end };
      this.walker!.walk(seg.base, cmdszdw, 0, 'RB');
    }
  }

  private gmuRegisters(): void {
    const gen = this.needGen();
    const space = gmuRegs(gen);
    const acc = new RegAcc(space, this.out);
    for (const l of this.section()) {
      const m = REG_RE.exec(l);
      if (!m) throw new ParseError(`parse error scanning: '  - { offset: %x, value: %x }'`);
      const r = acc.push(Math.floor(parseInt(m[1]!.slice(-8), 16) / 4), parseInt(m[2]!.slice(-8), 16) >>> 0);
      if (r) this.out(`\t${hex64(r[1], r[2])}\t${registerText(space, r[0], r[1], r[2], gen)}`);
    }
  }

  private indexed(): void {
    this.needGen();
    let name = '';
    let sizedwords = 0;
    for (const l of this.section()) {
      if (l.startsWith('  - regs-name:')) {
        name = l.slice(14).trim().split(/\s+/)[0] ?? '';
      } else if (l.startsWith('    dwords:')) {
        sizedwords = Math.min(parseDec(l.slice(11)) >>> 0, 1 << 24);
      } else if (l.startsWith('    data: !!ascii85 |')) {
        const buf = this.ascii85(sizedwords);
        const canon = INDEXED_RENAMES[name] ?? name;
        if (canon === 'CP_SQE_STAT' || canon === 'CP_BV_SQE_STAT') this.sqeStat(buf);
        if (canon === 'CP_SQE_UCODE_DBG' || canon === 'CP_BV_SQE_UCODE_DBG') this.ucodeDbg(buf);
        if (canon === 'CP_MEM_POOL_DBG' || canon === 'CP_BV_MEM_POOL_DBG') this.memPool(buf, canon === 'CP_BV_MEM_POOL_DBG');
        const dump = this.opts.verbose || ['CP_SQE_STAT', 'CP_BV_SQE_STAT', 'CP_DRAW_STATE', 'CP_ROQ_DBG'].includes(canon);
        if (dump) hexAscii(buf, 4 * sizedwords, 1, this.out);
        continue;
      }
      this.out(l);
    }
  }

  /** CP_SQE_STAT: the SQE's PC, the packet it holds, and its 32 registers. */
  private sqeStat(stat: Uint32Array): void {
    const at = (i: number): number => stat[i] ?? 0;
    this.out(`\t PC: ${at(0).toString(16).padStart(4, '0')}`);
    const hdr = at(1);
    if (this.chip !== 5 && isType4or7(hdr) && hdr >>> 28 === 7) {
      const name = opcodeName((hdr >>> 16) & 0x7f, this.gen!);
      if (name) this.out(`\tPKT: ${name}`);
    }
    for (let i = 0; i < 16; i++) {
      this.out(`\t$${(i + 1).toString(16).padStart(2, '0')}: ${hex8(at(1 + i))}\t\t$${(i + 17).toString(16).padStart(2, '0')}: ${hex8(at(1 + i + 16))}`);
    }
  }

  private controlSpace(): RegisterSpace | undefined {
    if (this.chip === 7) return registerSpace(this.gen3() ? 'A7XX_GEN3_CONTROL_REG' : 'A7XX_CONTROL_REG', 'a7xx');
    if (this.chip === 6) return registerSpace('A6XX_CONTROL_REG', 'a6xx');
    if (this.chip === 5) return registerSpace('A5XX_CONTROL_REG', 'a5xx');
    return undefined;
  }

  /** a750-class parts moved the SQE control registers (A7XX_GEN3_CONTROL_REG). */
  private gen3(): boolean {
    return this.chip === 7 && (this.gpuId >= 750 || this.chipId === 0x43051401 || this.chipId === 0x43050c01 || this.chipId === 0x43050b00);
  }

  private controlRegs(regs: Uint32Array, base: number, count: number): void {
    const space = this.controlSpace();
    if (!space) return;
    const acc = new RegAcc(space, this.out);
    for (let i = 0; i < count; i++) {
      const r = acc.push(base + i, regs[i] ?? 0);
      if (r) this.out(`\t${hex64(r[1], r[2])}\t${registerText(space, r[0], r[1], r[2], this.gen!)}`);
    }
  }

  /** CP_UCODE_DBG_DATA: 4096-dword sections (instruction cache, jump table, scratch registers). */
  private ucodeDbg(dbg: Uint32Array): void {
    const sections = this.gen3() ? 8 : 6;
    for (let s = 0; s < sections; s++) {
      const part = dbg.subarray(Math.min(dbg.length, s * 0x1000), Math.min(dbg.length, (s + 1) * 0x1000));
      const sized = (n: number): Uint32Array => {
        const a = new Uint32Array(n);
        a.set(part.subarray(0, n));
        return a;
      };
      if (s === 0) {
        this.out('\tSQE instruction cache:');
        hexAscii(sized(0x400), 4 * 0x400, 1, this.out);
      } else if (s === 1 || s === 3) {
        this.out(`\tUnknown ${s}:`);
        hexAscii(sized(0x80), 4 * 0x80, 1, this.out);
      } else if (s === 2) {
        this.out('\tUnknown 2:');
        hexAscii(sized(0x200), 4 * 0x200, 1, this.out);
      } else if (s === 4) {
        if (this.opts.verbose) {
          this.out('\tSQE packet jumptable contents:');
          hexAscii(sized(0x80), 4 * 0x80, 1, this.out);
        }
      } else if (s === 5) {
        this.out('\tSQE scratch control regs:');
        this.controlRegs(sized(0x100), this.gen3() ? 0x400 : 0x100, this.chip === 7 ? 0x100 : 0x80);
      } else if (s === 7) {
        this.out('\tSQE control regs:');
        this.controlRegs(sized(0x400), 0, 0x400);
      }
    }
  }

  /** CP_MEMPOOL: the per-cluster queues of register writes in flight. */
  private memPool(pool: Uint32Array, bv: boolean): void {
    const at = (i: number): number => pool[i] ?? 0;
    const quarter = bv;
    const nextOff = quarter ? 0x400 : 0x1000;
    const data1 = quarter ? 0x600 : 0x1800;
    const data2 = quarter ? 0x800 : 0x2000;
    const numBlocks = quarter ? 0x40 : 0x80;
    const log2 = quarter ? 2 : 3;
    const blockSize = 1 << log2;
    const queues = this.chip === 6 || bv ? 6 : 7;
    const d2 = new Uint32Array(0x60);
    for (let i = 0; i < 0x60; i++) d2[i] = at(data2 + i);
    this.out('\tdata2:');
    hexAscii(d2, 4 * 0x60, 1, this.out);
    // data1 layout: 8-dword groups (unk0, writer_first_block_chunk[7], unk1, writer_second_block[7],
    // unk2[7], reader_first_block_chunk[7], unk3, reader_second_block[7], block_count[7], unk4).
    const wFirst = (q: number): number => at(data1 + 8 + q);
    const wSecond = (q: number): number => at(data1 + 24 + q);
    const rFirst = (q: number): number => at(data1 + 40 + q);
    const rSecond = (q: number): number => at(data1 + 56 + q);
    const queueSize = (q: number): number => at(data2 + 0x18 + q);
    const names = this.chip === 6 ? ['FE', 'SP_VS', 'PC_VS', 'GRAS', 'SP_PS', 'PS'] : ['FE', 'SP_VS', 'PC_VS', 'GRAS', 'SP_PS', 'VPC_PS', 'PS'];
    for (let q = 0; q < queues; q++) {
      this.out(`\tCLUSTER_${names[q]}:`);
      this.out('');
      const wBlock = wFirst(q) >>> log2;
      const wChunk = wFirst(q) & (blockSize - 1);
      const rBlock = rFirst(q) >>> log2;
      const rChunk = rFirst(q) & (blockSize - 1);
      let chunk = rChunk;
      let block = chunk >= blockSize / 2 ? rBlock : rSecond(q);
      const lastChunk = wChunk;
      const lastBlock = lastChunk >= blockSize / 2 ? wBlock : wSecond(q);
      if (block >= numBlocks) throw new ParseError(`CP_MEMPOOL: block ${block.toString(16)} too large`);
      let size = 0;
      while ((block !== lastBlock || chunk !== lastChunk) && size < numBlocks * blockSize) {
        size++;
        const c = (block * blockSize + chunk) * 4;
        this.memPoolChunk([at(c), at(c + 1), at(c + 2), at(c + 3)]);
        this.out(`\t${(16 * (block * blockSize + chunk)).toString(16).padStart(5, '0')}: ${hex8(at(c))} ${hex8(at(c + 1))} ${hex8(at(c + 2))} ${hex8(at(c + 3))}`);
        chunk++;
        if (chunk === blockSize) {
          block = at(nextOff + block);
          if (block >= numBlocks) throw new ParseError(`CP_MEMPOOL: block ${block.toString(16)} too large`);
          chunk = 0;
        }
      }
      if (size !== queueSize(q)) this.out(`\t\tCALCULATED SIZE ${size} DOES NOT MATCH!`);
      this.out('');
    }
  }

  /** One 128-bit mempool chunk: up to two register writes (bit-packed, LSB first). */
  private memPoolChunk(w: number[]): void {
    const bit = (b: number): number => ((w[b >>> 5]! >>> (b & 31)) & 1);
    const bits = (lo: number, n: number): number => {
      let v = 0;
      for (let i = n - 1; i >= 0; i--) v = v * 2 + bit(lo + i);
      return v;
    };
    const en0 = bit(0);
    const en1 = bit(1);
    const data0 = bits(2, 32);
    const data1 = bits(34, 32);
    const reg0 = bits(66, 18);
    const reg1 = bits(84, 18);
    const pipe0 = bit(102);
    const pipe1 = bit(103);
    const ctx0 = bit(104);
    const ctx1 = bit(105);
    if (en0) this.memPoolWrite(reg0, data0, ctx0, !!pipe0);
    if (en1) this.memPoolWrite(reg1, data1, ctx1, !!pipe1);
  }

  private memPoolWrite(reg: number, data: number, ctx: number, pipe: boolean): void {
    const gen = this.gen!;
    const space = pipe ? registerSpace(this.chip === 7 ? 'A7XX_PIPE_REG' : 'A6XX_PIPE_REG', gen) : gpuRegs(gen);
    const info = rnnOf(space).lookup(reg);
    const name = info.def ? info.name : `0x${reg.toString(16)}`;
    if (pipe) {
      this.out(`\t\twrite ${name} (${reg.toString(16).padStart(2, '0')}) pipe`);
      if (info.ti?.type !== 'void') this.out(`\t\t\t${registerText(space, reg, data, 0, gen)}`);
      return;
    }
    this.out(`\t\twrite ${name} (${reg.toString(16).padStart(5, '0')})${this.chip === 6 ? ` context ${ctx}` : ''}`);
    this.out(`${tabs(2)}${this.cff!.registerLine(reg, data, 0)}`);
  }


  private shaderBlocks(): void {
    let type = '';
    let sizedwords = 0;
    for (const l of this.section()) {
      if (l.startsWith('  - type:')) type = l.slice(9).trim().split(/\s+/)[0] ?? '';
      else if (/^[ \t]*size:/.test(l)) sizedwords = Math.min(parseDec(l.replace(/^[ \t]*size:/, '')) >>> 0, 1 << 24);
      else if (/^[ \t]*data: !!ascii85 \|/.test(l)) {
        const buf = this.ascii85(sizedwords);
        // Shader instruction memory is listed as ir3 (cffdump's verbose form, level 1), then dumped.
        const inst = ['A6XX_SP_INST_DATA', 'A6XX_HLSQ_INST_RAM', 'A7XX_SP_INST_DATA', 'A7XX_HLSQ_INST_RAM'].includes(type);
        if (inst && this.gpuId) for (const x of disasmIr3(buf.length % 2 ? buf.subarray(0, buf.length - 1) : buf, { gpuId: this.gpuId, cffdump: true, verbose: true })) this.out('\t' + x);
        if (this.opts.verbose || inst) hexAscii(buf, 4 * sizedwords, 1, this.out);
        continue;
      }
      this.out(l);
    }
  }

  private clusters(): void {
    const gen = this.needGen();
    const space = gpuRegs(gen);
    const acc = new RegAcc(space, this.out);
    for (const l of this.section()) {
      if (/^[ \t]*- (cluster-name|context|pipe):/.test(l)) {
        this.out(l);
        continue;
      }
      const m = REG_RE.exec(l);
      if (!m) throw new ParseError(`parse error scanning: '- { offset: %x, value: %x }'`);
      const off = Math.floor(parseInt(m[1]!.slice(-8), 16) / 4);
      const r = acc.push(off, parseInt(m[2]!.slice(-8), 16) >>> 0);
      if (r) this.out(`\t${hex64(r[1], r[2])}\t${this.cff!.registerLine(r[0], r[1], r[2])}`);
    }
  }

  private debugbus(): void {
    let sizedwords = 0;
    for (const l of this.section()) {
      if (l.startsWith('    count:')) sizedwords = Math.min(parseDec(l.slice(10)) >>> 0, 1 << 24);
      else if (l.startsWith('    data: !!ascii85 |')) {
        const buf = this.ascii85(sizedwords);
        if (this.opts.verbose) hexAscii(buf, 4 * sizedwords, 1, this.out);
        continue;
      }
      this.out(l);
    }
  }
}


/** The kernel's names for indexed-register blocks and the names crashdec works with. */
const INDEXED_RENAMES: Readonly<Record<string, string>> = {
  CP_ROQ: 'CP_ROQ_DBG',
  CP_UCODE_DBG_DATA: 'CP_SQE_UCODE_DBG',
  CP_RESOURCE_TBL: 'CP_RESOURCE_TABLE_DBG',
  CP_LPAC_ROQ: 'CP_LPAC_ROQ_DBG',
  CP_BV_DRAW_STATE_ADDR: 'CP_BV_DRAW_STATE',
  CP_BV_ROQ_DBG_ADDR: 'CP_BV_ROQ_DBG',
  CP_BV_SQE_UCODE_DBG_ADDR: 'CP_BV_SQE_UCODE_DBG',
  CP_LPAC_DRAW_STATE_ADDR: 'CP_LPAC_DRAW_STATE',
  CP_SQE_AC_UCODE_DBG_ADDR: 'CP_SQE_AC_UCODE_DBG',
  CP_SQE_AC_STAT_ADDR: 'CP_SQE_AC_STAT',
  CP_LPAC_FIFO_DBG_ADDR: 'CP_LPAC_FIFO_DBG',
  CP_MEMPOOL: 'CP_MEM_POOL_DBG',
  CP_BV_MEMPOOL: 'CP_BV_MEM_POOL_DBG',
};

/**
 * crashdec's highlight_addr: `ESTIMATED CRASH LOCATION!` once, before the first packet whose last
 * dword is at or past the position the CP had reached in the IB the registers name (CP_IBn_BASE,
 * REM_SIZE with the ROQ and prefetch corrections in `hints`). Per IB level, as cffdec keeps it:
 * the IB being walked, and whether the marker fired there or was left to the next level.
 */
class CrashMarker {
  private readonly st = [0, 1, 2, 3].map(() => ({ base: 0, size: 0, triggered: false, baseSeen: false }));
  private readonly hints: IbHint[];
  private readonly out: (l: string) => void;
  constructor(hints: IbHint[], out: (l: string) => void) {
    this.hints = hints;
    this.out = out;
  }

  enterIb(ib: IbInfo): void {
    // Draw-state groups take a level without a base of their own (cffdec: ib++ only).
    if (ib.kind === 'SDS' || ib.level < 1 || ib.level > 3) return;
    const s = this.st[ib.level]!;
    s.base = ib.iova;
    s.size = ib.sizeDwords;
  }

  mark(level: number, last: number): void {
    // The ring (level 0) has no position crashdec marks: it is the unwrapped copy.
    if (level < 1 || level > 3) return;
    const o = this.hints[level]!;
    const s = this.st[level]!;
    if (!o.base) return;
    if (level > 0 && this.hints[level - 1]!.base && !(this.st[level - 1]!.triggered || this.st[level - 1]!.baseSeen)) return;
    if (s.baseSeen || s.triggered || o.base !== s.base) return;
    const size = o.size ? o.size : s.size;
    if (o.rem > size) return;
    const hit = s.base + 4 * (size - o.rem) <= last && last <= s.base + 4 * size;
    if (hit && level < 2 && this.hints[level + 1]!.crashFound) {
      s.baseSeen = true;
      return;
    }
    if (hit) {
      s.triggered = true;
      this.out('ESTIMATED CRASH LOCATION!');
    }
  }
}
