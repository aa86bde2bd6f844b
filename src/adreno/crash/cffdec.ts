/**
 * The command-stream printer crashdec uses (freedreno's cffdec, summary and full modes): packets
 * as `opcode: NAME (op) (N dwords)`, payload fields through the packet's rules-ng domain, a hex
 * dump per packet addressed by iova, IB1/IB2 followed through the dump's buffers, draw-state
 * groups loaded at draws, register summaries at draws, and `ESTIMATED CRASH LOCATION!` before the
 * first packet at or after the position the CP had reached (CP_IBn_BASE / REM_SIZE, prefetch-
 * corrected). Packet headers are recognised exactly as freedreno's pm4 helpers do (type 0/2/3
 * shapes are accepted on every generation, type 4/7 need both parity bits).
 *
 * The text of register values and payload fields comes from `regtext.ts` (one switch point).
 */
import { gpuRegs, enumName, type Gen, type RegisterSpace } from '../regs/db.js';
import { opcodeName } from '../cp/pm4.js';
import type { DumpBuffers, HostPtr } from './buffers.js';
import { domainLines, hex8, hex64, RegAcc, registerText, regName, rnnOf, split64, tabs } from './regtext.js';

/** Odd parity over the nibbles of `v` (pm4_calc_odd_parity_bit). */
function oddParity(v: number): number {
  v >>>= 0;
  const x = (v ^ (v >>> 4) ^ (v >>> 8) ^ (v >>> 12) ^ (v >>> 16) ^ (v >>> 20) ^ (v >>> 24) ^ (v >>> 28)) & 0xf;
  return (0x9669 >>> x) & 1;
}

export function isType4(p: number): boolean {
  p >>>= 0;
  return (p & 0xf0000000) >>> 0 === 0x40000000 && ((p >>> 27) & 1) === oddParity((p >>> 8) & 0x7ffff) && ((p >>> 7) & 1) === oddParity(p & 0x7f);
}

export function isType7(p: number): boolean {
  p >>>= 0;
  return (p & 0xf0000000) >>> 0 === 0x70000000 && (p & 0x0f000000) === 0 && ((p >>> 23) & 1) === oddParity((p >>> 16) & 0x7f) && ((p >>> 15) & 1) === oddParity(p & 0x3fff);
}

const isType0 = (p: number): boolean => ((p >>> 0) & 0xc0000000) === 0;
const isType3 = (p: number): boolean => ((p >>> 0) & 0xc0000000) >>> 0 === 0xc0000000 && (p & 0x80fe) === 0;
const isType2 = (p: number): boolean => p >>> 0 === 0x80000000;

/** `[register, size including header]` for a register-write header, else undefined. */
export function regwrite(p: number): [number, number] | undefined {
  if (isType0(p)) return [p & 0x7fff, ((p >>> 16) & 0x3fff) + 2];
  if (isType4(p)) return [(p >>> 8) & 0x7ffff, (p & 0x7f) + 1];
  return undefined;
}

/** `[opcode, size including header]` for an opcode header, else undefined. */
export function opcodePkt(p: number): [number, number] | undefined {
  if (isType3(p)) return [(p >>> 8) & 0xff, ((p >>> 16) & 0x3fff) + 2];
  if (isType7(p)) return [(p >>> 16) & 0x7f, (p & 0x3fff) + 1];
  return undefined;
}

/** Dwords to skip to the next type-4/7 header (find_next_packet). */
export function findNextPacket(arr: Uint32Array, off: number, n: number): number {
  for (let c = 0; c < n; c++) {
    const d = arr[off + c] ?? 0;
    if (isType7(d) || isType4(d)) return c;
  }
  return n;
}

/** What crashdec knows about an IB level from the registers (cffdec_options.ibs). */
export interface IbHint {
  base: number;
  rem: number;
  size: number;
  crashFound: boolean;
}

export interface CffdecOptions {
  readonly gen: Gen;
  /** -s: no register writes, register values only at draws. */
  readonly summary: boolean;
  /** Per level 0..3 (0 = ring buffer). */
  readonly ibs: IbHint[];
  /** The unwrapped ring-buffer copy being decoded at level 0. */
  rbHostBase?: Uint32Array;
}

interface IbState {
  base: number;
  host?: HostPtr;
  size: number;
  triggered: boolean;
  baseSeen: boolean;
}

interface DrawState {
  enableMask: number;
  flags: number;
  count: number;
  addr: number;
}

const MODE_BINNING = 1;
const MODE_GMEM = 2;
const MODE_BYPASS = 4;
const MODE_ALL = 7;
const REGCNT = 0x40000;
const MAX_LEVEL = 3;

const NOP_MESG = 0x4d455347;
const NOP_BEGN = 0x4245474e;
const NOP_END = 0x454e4400;

type Handler = (c: Cffdec, p: HostPtr, n: number, level: number) => void;

/** Register-triggered extras (cffdec's type0_reg table) by name, resolved per generation. */
const SCRATCH = ['CP_SCRATCH[0x4].REG', 'CP_SCRATCH[0x5].REG', 'CP_SCRATCH[0x6].REG', 'CP_SCRATCH[0x7].REG'];
const SHADER_BASES = ['SP_VS_BASE', 'SP_HS_BASE', 'SP_DS_BASE', 'SP_GS_BASE', 'SP_PS_BASE', 'SP_CS_BASE', 'SP_VS_OBJ_START', 'SP_HS_OBJ_START', 'SP_DS_OBJ_START', 'SP_GS_OBJ_START', 'SP_FS_OBJ_START', 'SP_CS_OBJ_START'];
const DESC_BASES = ['VS', 'HS', 'DS', 'GS', 'PS', 'FS', 'CS'].flatMap((s) => [`SP_${s}_TEXMEMOBJ_BASE`, `SP_${s}_SAMPLER_BASE`, `SP_${s}_TEX_CONST`, `SP_${s}_TEX_SAMP`]);

export class Cffdec {
  readonly opts: CffdecOptions;
  readonly gen: Gen;
  readonly space: RegisterSpace;
  readonly bufs: DumpBuffers;
  readonly out: (l: string) => void;
  readonly regs = new Uint32Array(REGCNT);
  private readonly written = new Uint8Array(REGCNT);
  private readonly rewritten = new Uint8Array(REGCNT);
  private readonly lastvals = new Uint32Array(REGCNT);
  private ibs: IbState[] = [];
  private ib = 0;
  private readonly state: DrawState[] = [];
  private renderMode = '(null)';
  private thread: string | undefined;
  private enableMask = MODE_ALL;
  private skipIb2Global = 0;
  private skipIb2Local = 0;
  private drawCount = 0;
  private loadingGroups = false;
  private nopScope = 0;
  private readonly special = new Map<number, 'scratch' | 'disasm' | 'gpuaddr'>();
  /** Output lines budget: a looping or huge stream stops instead of running away. */
  private budget = 2_000_000;

  constructor(opts: CffdecOptions, bufs: DumpBuffers, out: (l: string) => void) {
    this.opts = opts;
    this.gen = opts.gen;
    this.space = gpuRegs(opts.gen);
    this.bufs = bufs;
    this.out = (l) => {
      if (this.budget-- > 0) out(l);
    };
    for (let i = 0; i < 32; i++) this.state.push({ enableMask: 0, flags: 0, count: 0, addr: 0 });
    this.resetRegs();
    const mark = (names: string[], kind: 'scratch' | 'disasm' | 'gpuaddr'): void => {
      for (const n of names) {
        const o = this.space.offsetOf(n);
        if (o !== undefined) this.special.set(o, kind);
      }
    };
    if (this.gen === 'a6xx') mark(SCRATCH, 'scratch');
    mark(SHADER_BASES, 'disasm');
    if (this.gen === 'a6xx') mark(DESC_BASES, 'gpuaddr');
  }

  get is64(): boolean {
    return this.gen === 'a5xx' || this.gen === 'a6xx' || this.gen === 'a7xx';
  }

  private get chip(): number {
    return parseInt(this.gen.slice(1), 10);
  }

  /** cffdec's quiet(): level 3 output is hidden in summary mode. */
  quiet(lvl: number): boolean {
    return lvl >= 3 && this.opts.summary;
  }

  private printl(lvl: number, s: string): void {
    if (!this.quiet(lvl)) this.out(s);
  }

  resetRegs(): void {
    this.written.fill(0);
    this.rewritten.fill(0);
    this.lastvals.fill(0);
    this.ibs = [0, 1, 2, 3].map(() => ({ base: 0, size: 0, triggered: false, baseSeen: false }));
  }

  regSet(reg: number, v: number): void {
    if (reg < 0 || reg >= REGCNT) return;
    this.regs[reg] = v >>> 0;
    this.written[reg] = 1;
    this.rewritten[reg] = 1;
  }

  regVal(reg: number): number {
    return reg >= 0 && reg < REGCNT ? this.regs[reg]! : 0;
  }

  private at(p: HostPtr, i: number): number {
    return p.arr[p.off + i] ?? 0;
  }

  private slice(p: HostPtr, n: number): Uint32Array {
    const a = new Uint32Array(Math.max(0, n));
    for (let i = 0; i < n; i++) a[i] = this.at(p, i);
    return a;
  }

  private gpuaddr(p: HostPtr): number {
    return this.bufs.gpuaddr(p);
  }

  /** highlight_addr: prints the crash marker the first time the stream passes the CP's position. */
  private highlight(addr: HostPtr): boolean {
    const ib = this.ib;
    const o = this.opts.ibs[ib]!;
    const st = this.ibs[ib]!;
    if (!o.base && (ib !== 0 || !this.opts.rbHostBase)) return false;
    if (ib > 0 && this.opts.ibs[ib - 1]!.base && !(this.ibs[ib - 1]!.triggered || this.ibs[ib - 1]!.baseSeen)) return false;
    if (st.baseSeen) return false;
    if (st.triggered) return false;
    if (ib !== 0 && o.base !== st.base) return false;
    const host: HostPtr | undefined = ib !== 0 ? st.host : this.opts.rbHostBase ? { arr: this.opts.rbHostBase, off: 0 } : undefined;
    if (!host || host.arr !== addr.arr) return false;
    const size = o.size ? o.size : st.size;
    if (o.rem > size) return false;
    const start = host.off + (size - o.rem);
    const end = host.off + size;
    const hit = start <= addr.off && addr.off <= end;
    if (hit && ib < 2 && this.opts.ibs[ib + 1]!.crashFound) {
      st.baseSeen = true;
      return false;
    }
    st.triggered ||= hit;
    if (hit) this.out('ESTIMATED CRASH LOCATION!');
    return false;
  }

  /** dump_hex: rows of eight dwords with the iova, zero rows folded into `*`. */
  dumpHex(p: HostPtr, n: number, level: number): void {
    if (this.quiet(2)) return;
    this.highlight({ arr: p.arr, off: p.off + n - 1 });
    let lastzero = true;
    for (let i = 0; i < n; i += 8) {
      let zero = i !== 0;
      for (let j = 0; j < 8 && i + j < n && zero; j++) if (this.at(p, i + j)) zero = false;
      if (zero && !lastzero) this.out('*');
      lastzero = zero;
      if (zero) continue;
      const addr = this.gpuaddr({ arr: p.arr, off: p.off + i });
      const [lo, hi] = split64(addr);
      let s = this.is64 ? `${hex64(lo, hi, 16)}:${tabs(level)}` : `${hex8(lo)}:${tabs(level)}`;
      s += `${(i * 4).toString(16).padStart(4, '0')}:`;
      for (let j = 0; j < 8 && i + j < n; j++) s += ' ' + hex8(this.at(p, i + j));
      this.out(s);
    }
  }

  private dumpGpuaddrSize(addr: number, level: number, n: number, quietLvl: number): void {
    if (this.quiet(quietLvl)) return;
    const p = this.bufs.hostptr(addr);
    if (p) this.dumpHex(p, n, level + 1);
  }

  /** dump_register: the value line, then the register's extra (scratch values, buffer dumps). */
  private dumpRegister(reg: number, lo: number, hi: number, level: number, prefix = ''): void {
    if (!this.quiet(3)) this.out(prefix + tabs(level) + this.registerLine(reg, lo, hi));
    const kind = this.special.get(reg);
    if (!kind) return;
    if (kind === 'scratch') {
      if (this.quiet(3)) return;
      const r = this.space.offsetOf('CP_SCRATCH[0x0].REG') ?? this.space.offsetOf('CP_SCRATCH[0].REG');
      if (r === undefined) return;
      this.out(`${tabs(level)}:${this.regVal(r + 4)},${this.regVal(r + 5)},${this.regVal(r + 6)},${this.regVal(r + 7)}`);
      return;
    }
    const addr = hi * 2 ** 32 + (lo >>> 0);
    if (kind === 'gpuaddr') {
      this.dumpGpuaddrSize(addr, level, 64, 3);
      return;
    }
    // Shader disassembly is not available here: the hex of the program's first 64 dwords.
    if (this.quiet(3)) return;
    const a = addr - (addr % 16);
    const p = this.bufs.hostptr(a);
    if (p) this.dumpHex(p, Math.min(64, Math.floor(this.bufs.hostlen(a) / 4)), level + 1);
  }

  /** `NAME: value` with the `base=..` note for address-typed registers that point into a buffer. */
  registerLine(reg: number, lo: number, hi: number): string {
    let s = registerText(this.space, reg, lo, hi, this.gen);
    const ti = rnnOf(this.space).lookup(reg).ti;
    if (ti && this.chip >= 6 && (ti.type === 'address' || ti.type === 'waddress')) {
      const addr = hi * 2 ** 32 + (lo >>> 0);
      if (addr && this.bufs.hostptr(addr)) {
        const base = this.bufs.baseOf(addr);
        const [blo, bhi] = split64(base);
        s += `\t\tbase=${hex64(blo, bhi, 1)}, offset=${addr - base}, size=${this.bufs.hostlen(base)}`;
      }
    }
    return s;
  }

  /** Write registers from a packet (dump_registers with 64-bit accumulation). */
  private dumpRegisters(reg: number, p: HostPtr, n: number, level: number): void {
    const acc = new RegAcc(this.space, this.out);
    for (let i = 0; i < n; i++, reg++) {
      const v = this.at(p, i);
      this.regSet(reg, v);
      const r = acc.push(reg, v);
      if (r) this.dumpRegister(r[0], r[1], r[2], level);
    }
  }

  /** dump_commands: every packet of a buffer. */
  dumpCommands(p: HostPtr, sizedwords: number, level: number): void {
    let left = sizedwords;
    let off = p.off;
    while (left > 0 && this.budget > 0) {
      const cur: HostPtr = { arr: p.arr, off };
      const hdr = this.at(cur, 0);
      let count: number;
      const rw = regwrite(hdr);
      const op = rw ? undefined : opcodePkt(hdr);
      if (rw) {
        count = rw[1];
        this.printl(3, `${tabs(level + 1)}write ${regName(this.space, rw[0])} (${rw[0].toString(16).padStart(4, '0')})`);
        this.dumpRegisters(rw[0], { arr: p.arr, off: off + 1 }, count - 1, level + 2);
        if (!this.quiet(3)) this.dumpHex(cur, count, level + 1);
      } else if (op) {
        count = op[1];
        const name = opcodeName(op[0], this.gen);
        if (name && LOAD_GROUPS.has(name)) this.loadAllGroups(level + 1);
        this.out(`\t${tabs(level)}opcode: ${name ?? '(null)'} (${op[0].toString(16).padStart(2, '0')}) (${count} dwords)`);
        const payload: HostPtr = { arr: p.arr, off: off + 1 };
        if (name) {
          const dn = name === 'CP_LOAD_STATE6_FRAG' || name === 'CP_LOAD_STATE6_GEOM' ? 'CP_LOAD_STATE6' : name;
          for (const l of domainLines(dn, this.slice(payload, count - 1), level + 2, this.gen)) this.out(l);
        }
        const h = name ? HANDLERS[name] : undefined;
        if (h) h(this, payload, count - 1, level + 1);
        this.dumpHex(cur, count, level + 1);
      } else if (isType2(hdr)) {
        this.printl(3, `${tabs(level + 1)}nop`);
        count = 1;
      } else {
        this.out(`bad type! ${hex8(hdr)}`);
        if (this.chip >= 5) count = findNextPacket(p.arr, off, left);
        else return;
        if (count === 0) count = 1;
      }
      off += count;
      left -= count;
    }
    if (left < 0) this.out(`**** this ain't right!! dwords_left=${left}`);
  }

  // ---- packet handlers (cffdec's type3_op table) ----

  indirect(p: HostPtr, level: number): void {
    const addr = this.is64 ? this.at(p, 1) * 2 ** 32 + this.at(p, 0) : this.at(p, 0);
    const size = this.is64 ? this.at(p, 2) : this.at(p, 1);
    if (!this.quiet(3)) {
      const [lo, hi] = split64(addr);
      this.out(`${tabs(level)}ibaddr:${this.is64 ? hex64(lo, hi, 16) : hex8(lo)}`);
      this.out(`${tabs(level)}ibsize:${hex8(size)}`);
    }
    const ptr = this.bufs.hostptr(addr);
    if (!ptr || this.ib + 1 > MAX_LEVEL) return;
    this.highlight({ arr: p.arr, off: p.off + (this.is64 ? 3 : 2) });
    this.ib++;
    const st = this.ibs[this.ib]!;
    st.base = addr;
    st.host = ptr;
    st.size = size;
    this.dumpCommands(ptr, size, level);
    this.ib--;
  }

  regMem(p: HostPtr, level: number): void {
    const reg = this.at(p, 0) & 0xffff;
    this.printl(3, `${tabs(level)}base register: ${regName(this.space, reg)}`);
    if (this.quiet(2)) return;
    const addr = this.at(p, 1) + this.at(p, 2) * 2 ** 32;
    const [lo, hi] = split64(addr);
    this.out(`${tabs(level)}gpuaddr:${hex64(lo, hi, 16)}`);
    const ptr = this.bufs.hostptr(addr);
    if (ptr) this.dumpHex(ptr, (this.at(p, 0) >>> 19) & 0x3ff, level + 1);
  }

  memWrite(p: HostPtr, n: number, level: number): void {
    if (this.quiet(2)) return;
    if (this.is64) {
      const addr = this.at(p, 0) + this.at(p, 1) * 2 ** 32;
      const [lo, hi] = split64(addr);
      this.out(`${tabs(level)}gpuaddr:${hex64(lo, hi, 16)}`);
      const data: HostPtr = { arr: p.arr, off: p.off + 2 };
      this.dumpHex(data, n - 2, level + 1);
      const d2 = this.at(p, 2);
      if (isType4(d2) || isType7(d2)) this.dumpCommands(data, n - 2, level + 1);
    } else {
      this.out(`${tabs(level)}gpuaddr:${hex8(this.at(p, 0))}`);
    }
  }

  eventWrite(p: HostPtr, level: number): void {
    const name = enumName('vgt_event_type', this.at(p, 0) & 0xff, this.gen);
    this.printl(2, `${tabs(level)}event ${name ?? '(null)'}`);
    if (name && this.chip > 5 && (name === 'BLIT' || name === 'LRZ_CLEAR')) {
      this.printMode(level);
      this.registerSummary(level);
    }
  }

  printMode(level: number): void {
    if (this.chip >= 5 && !this.quiet(2)) {
      this.out(`${tabs(level)}mode: ${this.renderMode}${this.thread ? ':' + this.thread : ''}`);
      this.out(`${tabs(level)}skip_ib2: g=${this.skipIb2Global ? 1 : 0}, l=${this.skipIb2Local ? 1 : 0}`);
    }
  }

  /** dump_register_summary: registers written since the last draw, `!` changed, `+` rewritten. */
  registerSummary(level: number): void {
    const saved = this.opts.summary;
    (this.opts as { summary: boolean }).summary = false;
    this.printl(2, `${tabs(level)}draw[${this.drawCount}] register values`);
    let changed = false;
    let written = false;
    const acc = new RegAcc(this.space, this.out);
    for (let reg = 0; reg < REGCNT; reg++) {
      if (!this.rewritten[reg] || !this.written[reg]) continue;
      const v = this.regs[reg]!;
      if (v !== this.lastvals[reg]) {
        changed = true;
        this.lastvals[reg] = v;
      }
      written = true;
      const r = acc.push(reg, v);
      if (!r) continue;
      this.dumpRegister(r[0], r[1], r[2], level, `${changed ? '!' : ' '}${written ? '+' : ' '}\t${hex64(r[1], r[2])}`);
      changed = written = false;
    }
    this.rewritten.fill(0);
    this.drawCount++;
    (this.opts as { summary: boolean }).summary = saved;
  }

  private loadGroup(g: number, level: number): void {
    const ds = this.state[g]!;
    if (!ds.count) return;
    this.printl(2, `${tabs(level)}group_id: ${g}`);
    this.printl(2, `${tabs(level)}count: ${ds.count}`);
    const [lo, hi] = split64(ds.addr);
    this.printl(2, `${tabs(level)}addr: ${hex64(lo, hi, 16)}`);
    this.printl(2, `${tabs(level)}flags: ${ds.flags.toString(16)}`);
    if (this.chip >= 6) {
      this.printl(2, `${tabs(level)}enable_mask: 0x${ds.enableMask.toString(16)}`);
      if (!(ds.enableMask & this.enableMask)) {
        this.printl(2, `${tabs(level)}\tskipped!`);
        this.printl(2, '');
        return;
      }
    }
    const ptr = this.bufs.hostptr(ds.addr);
    if (ptr && this.ib + 1 <= MAX_LEVEL) {
      this.dumpHex(ptr, ds.count, level + 1);
      this.ib++;
      this.dumpCommands(ptr, ds.count, level + 1);
      this.ib--;
    }
  }

  loadAllGroups(level: number): void {
    if (this.loadingGroups) {
      this.out('ERROR: nothing in draw state should trigger recursively loading groups!');
      return;
    }
    this.loadingGroups = true;
    for (let g = 0; g < 32; g++) this.loadGroup(g, level);
    this.loadingGroups = false;
    for (const s of this.state) Object.assign(s, { enableMask: 0, flags: 0, count: 0, addr: 0 });
  }

  setDrawState(p: HostPtr, n: number, level: number): void {
    for (let i = 0; i < n; ) {
      const d0 = this.at(p, i);
      const count = d0 & 0xffff;
      const group = (d0 >>> 24) & 0x1f;
      const enable = (d0 >>> 20) & 0xf;
      const flags = (d0 >>> 16) & 0xf;
      let addr: number;
      if (this.is64) {
        addr = this.at(p, i + 1) + this.at(p, i + 2) * 2 ** 32;
        i += 3;
      } else {
        addr = this.at(p, i + 1);
        i += 2;
      }
      if (flags & 4) {
        for (const s of this.state) Object.assign(s, { enableMask: 0, flags: 0, count: 0, addr: 0 });
        continue;
      }
      const ds = this.state[group]!;
      Object.assign(ds, { enableMask: 0, flags: 0, count: 0, addr: 0 });
      if (flags & 2) continue;
      Object.assign(ds, { enableMask: enable, flags, count, addr });
      if (flags & 8) {
        this.loadGroup(group, level);
        Object.assign(ds, { enableMask: 0, flags: 0, count: 0, addr: 0 });
      }
    }
  }

  setMarker(p: HostPtr): void {
    const v = this.at(p, 0) & 0xf;
    const mode = enumName('a6xx_marker', v, this.gen);
    if (!mode) {
      this.renderMode = `0x${v.toString(16)}`;
      return;
    }
    this.renderMode = mode;
    if (mode === 'RM6_BIN_VISIBILITY' || mode === 'RM6_BINNING') this.enableMask = MODE_BINNING;
    else if (mode === 'RM6_BIN_RENDER_START' || mode === 'RM6_GMEM') this.enableMask = MODE_GMEM;
    else if (mode === 'RM6_DIRECT_RENDER' || mode === 'RM6_BYPASS') this.enableMask = MODE_BYPASS;
  }

  setThread(p: HostPtr): void {
    this.thread = enumName('cp_thread', this.at(p, 0) & 3, this.gen);
  }

  setSkipIb2(global: boolean, p: HostPtr): void {
    if (global) this.skipIb2Global = this.at(p, 0);
    else this.skipIb2Local = this.at(p, 0);
  }

  nop(p: HostPtr, n: number): void {
    if (this.quiet(3)) return;
    const id = this.at(p, 0);
    let prefix: string | undefined;
    if (id === NOP_MESG) prefix = '### ';
    else if (id === NOP_BEGN) prefix = `>>> #${++this.nopScope}: `;
    else if (id === NOP_END) prefix = `<<< #${this.nopScope--}: `;
    if (prefix === undefined) return;
    let s = '';
    outer: for (let i = 1; i < n; i++) {
      const d = this.at(p, i);
      for (let b = 0; b < 4; b++) {
        const c = (d >>> (8 * b)) & 0xff;
        if (c === 0) break outer;
        if (c < 0x80) s += String.fromCharCode(c);
      }
    }
    this.out(n > 1 ? prefix + s : prefix);
  }

  contextRegBunch(p: HostPtr, n: number, level: number): void {
    const saved = this.opts.summary;
    (this.opts as { summary: boolean }).summary = false;
    const acc = new RegAcc(this.space, this.out);
    for (let i = 0; i < n; i += 2) {
      const reg = this.at(p, i);
      const v = this.at(p, i + 1);
      const r = acc.push(reg, v);
      if (r) this.dumpRegister(r[0], r[1], r[2], level + 1);
      this.regSet(reg, v);
    }
    (this.opts as { summary: boolean }).summary = saved;
  }

  regWrite(p: HostPtr, level: number): void {
    const reg = this.at(p, 1) & 0xffff;
    const v = this.at(p, 2);
    const r = new RegAcc(this.space, this.out).push(reg, v);
    if (r) this.dumpRegister(r[0], r[1], r[2], level + 1);
    this.regSet(reg, v);
  }

  rmw(p: HostPtr, level: number): void {
    const reg = this.at(p, 0) & 0xffff;
    const and = this.at(p, 1);
    const or = this.at(p, 2);
    this.printl(3, `${tabs(level)}rmw (${regName(this.space, reg)} & 0x${hex8(and)}) | 0x${hex8(or)})`);
    this.regSet(reg, ((this.regVal(reg) & and) | or) >>> 0);
  }

  startBin(p: HostPtr, level: number): void {
    const loops = this.at(p, 0);
    let addr = this.at(p, 1) + this.at(p, 2) * 2 ** 32;
    const size = this.at(p, 3);
    const ptr = this.bufs.hostptr(addr);
    if (!ptr || this.ib + 1 > MAX_LEVEL) return;
    this.highlight({ arr: p.arr, off: p.off + 5 });
    this.ib++;
    let cur = ptr;
    for (let i = 0; i < Math.min(loops, 256); i++) {
      const st = this.ibs[this.ib]!;
      st.base = addr;
      st.host = cur;
      st.size = size;
      this.printl(3, `${tabs(level)}bin ${i}`);
      this.dumpCommands(cur, size, level);
      addr += size;
      cur = { arr: cur.arr, off: cur.off + size };
    }
    this.ib--;
  }

  /** dump_float: eight `%8f` values per row, addressed like dump_hex. */
  private dumpFloat(p: HostPtr, n: number, level: number): void {
    const f = new Float32Array(1);
    const u = new Uint32Array(f.buffer);
    let row = '';
    for (let i = 0; i < n; i++) {
      if (i % 8 === 0) {
        const [lo, hi] = split64(this.gpuaddr({ arr: p.arr, off: p.off + i }));
        row = (this.is64 ? hex64(lo, hi, 16) : hex8(lo)) + ':' + tabs(level);
      } else row += ' ';
      u[0] = this.at(p, i);
      row += cFloat(f[0]!).padStart(8, ' ');
      if (i % 8 === 7) this.out(row);
    }
    if (n % 8) this.out(row);
  }

  /**
   * CP_LOAD_STATE4/6: constants as floats and hex, texture/sampler/UBO descriptors through their
   * domains. Shader programs would be disassembled (no ir3 disassembler here: nothing printed).
   */
  loadState(p: HostPtr, level: number): void {
    if (this.quiet(2)) return;
    const d0 = this.at(p, 0);
    let numUnit = (d0 >>> 22) & 0x1ff;
    const block = (d0 >>> 18) & 0xf;
    const stype = this.chip >= 6 ? (d0 >>> 14) & 3 : this.at(p, 1) & 3;
    const srcBits = (d0 >>> 16) & 3;
    if (this.chip < 4) return;
    const kind = stateKind(block, stype);
    let contents: HostPtr | undefined;
    if (srcBits === 2) {
      const addr = (this.at(p, 1) & 0xfffffffc) + (this.is64 ? this.at(p, 2) * 2 ** 32 : 0);
      contents = addr ? this.bufs.hostptr(addr) : undefined;
    } else if (srcBits === 1) {
      return; // bindless: needs the descriptor base registers' values
    } else contents = { arr: p.arr, off: p.off + (this.is64 ? 3 : 2) };
    if (!contents) return;
    const c = contents;
    const desc = (dom: string, words: number, stride: number): void => {
      let off = c.off;
      for (let i = 0; i < numUnit; i++) {
        const at: HostPtr = { arr: c.arr, off };
        if (numUnit === 16 && !this.at(at, 0) && !this.at(at, 1) && (dom !== 'TEX_CONST' || (!this.at(at, 2) && !this.at(at, 3)))) break;
        const name = `A${this.chip}XX_${dom}`;
        for (const l of domainLines(name, this.slice(at, words), level + 2, this.gen)) this.out(l);
        this.dumpHex(at, words, level + 1);
        off += stride;
      }
    };
    switch (kind) {
      case 'SHADER_PROG':
        return;
      case 'SHADER_CONST':
        numUnit *= 2;
        this.dumpFloat(c, numUnit * 2, level + 1);
        this.dumpHex(c, numUnit * 2, level + 1);
        return;
      case 'TEX_SAMP':
        desc('TEX_SAMP', this.chip >= 5 ? 4 : 2, this.chip >= 5 ? 4 : 2);
        return;
      case 'TEX_CONST':
        desc('TEX_CONST', this.chip >= 6 ? 16 : this.chip === 5 ? 12 : 8, this.chip >= 6 ? 16 : this.chip === 5 ? 12 : 8);
        return;
      case 'UBO': {
        let off = c.off;
        for (let i = 0; i < numUnit; i++) {
          const at: HostPtr = { arr: c.arr, off };
          if (this.chip >= 5) for (const l of domainLines(`A${this.chip >= 6 ? 6 : 5}XX_UBO`, this.slice(at, 2), level + 2, this.gen)) this.out(l);
          this.dumpHex(at, 2, level + 1);
          off += 2;
        }
        return;
      }
      case 'SSBO_0':
        if (this.chip >= 6) desc('TEX_CONST', 16, 16);
        else this.dumpHex(c, numUnit * 4, level + 1);
        return;
      case 'SSBO_1':
        for (let i = 0; i < numUnit; i++) this.dumpHex({ arr: c.arr, off: c.off + 2 * i }, 2, level + 1);
        return;
      case 'SSBO_2':
        if (this.chip === 5) for (let i = 0; i < numUnit; i++) this.dumpHex({ arr: c.arr, off: c.off + 2 * i }, 2, level + 1);
        return;
      case 'UNKNOWN_2DWORDS':
        this.dumpHex(c, numUnit * 2, level + 1);
        return;
      default:
        this.dumpHex(c, numUnit, level + 1);
    }
  }

  draw(name: string, p: HostPtr, level: number): void {
    this.printMode(level);
    if (name === 'CP_DRAW_INDX_OFFSET') {
      if (this.at(p, 2) > 0) this.registerSummary(level);
      return;
    }
    if (name === 'CP_DRAW_INDX_INDIRECT') {
      this.dumpGpuaddrSize((this.at(p, 2) & 0x1ffff) * 2 ** 32 + this.at(p, 1), level, 0x10, 2);
      this.dumpGpuaddrSize((this.at(p, 5) & 0x1ffff) * 2 ** 32 + this.at(p, 4), level, 0x10, 2);
    } else if (name === 'CP_DRAW_INDIRECT') {
      this.dumpGpuaddrSize((this.at(p, 2) & 0x1ffff) * 2 ** 32 + this.at(p, 1), level, 0x10, 2);
    }
    this.registerSummary(level);
  }
}

/** Packets after which the draw-state groups are loaded (draws and dispatches). */
const LOAD_GROUPS = new Set(['CP_DRAW_INDX', 'CP_DRAW_INDX_2', 'CP_DRAW_INDX_OFFSET', 'CP_EXEC_CS', 'CP_EXEC_CS_INDIRECT', 'CP_DRAW_INDIRECT', 'CP_DRAW_INDX_INDIRECT', 'CP_DRAW_INDIRECT_MULTI', 'CP_DRAW_AUTO']);

/** C's `%f`: six decimals, `inf`/`nan` as glibc prints them. */
function cFloat(v: number): string {
  if (Number.isNaN(v)) return v < 0 ? '-nan' : 'nan';
  if (!Number.isFinite(v)) return v < 0 ? '-inf' : 'inf';
  const s = Math.abs(v) >= 1e21 ? `${BigInt(v)}.000000` : v.toFixed(6);
  return Object.is(v, -0) || (v < 0 && s[0] !== '-') ? '-' + s.replace(/^-/, '') : s;
}

type StateKind = 'TEX_SAMP' | 'TEX_CONST' | 'UBO' | 'SHADER_PROG' | 'SHADER_CONST' | 'SSBO_0' | 'SSBO_1' | 'SSBO_2' | 'UNKNOWN_2DWORDS' | 'NONE';

/** CP_LOAD_STATE4/6 state block and type -> what the payload holds (a4xx+ block numbering). */
function stateKind(block: number, type: number): StateKind {
  if (block <= 5) return (['TEX_SAMP', 'TEX_CONST', 'UBO', 'NONE'] as const)[type]!;
  if (block >= 8 && block <= 0xc) return (['SHADER_PROG', 'SHADER_CONST', 'UBO', 'NONE'] as const)[type]!;
  if (block === 0xd) return (['SHADER_PROG', 'SHADER_CONST', 'UBO', 'SSBO_0'] as const)[type]!;
  if (block === 0xe || block === 0xf) return (['SSBO_0', 'SSBO_1', 'SSBO_2', 'NONE'] as const)[type]!;
  if (block === 6 && type === 2) return 'UBO';
  if (block === 7 && type === 1) return 'UNKNOWN_2DWORDS';
  return 'NONE';
}

const HANDLERS: Readonly<Record<string, Handler>> = {
  CP_LOAD_STATE4: (c, p, _n, l) => c.loadState(p, l),
  CP_LOAD_STATE6: (c, p, _n, l) => c.loadState(p, l),
  CP_LOAD_STATE6_GEOM: (c, p, _n, l) => c.loadState(p, l),
  CP_LOAD_STATE6_FRAG: (c, p, _n, l) => c.loadState(p, l),
  CP_NOP: (c, p, n) => c.nop(p, n),
  CP_INDIRECT_BUFFER: (c, p, _n, l) => c.indirect(p, l),
  CP_INDIRECT_BUFFER_PFD: (c, p, _n, l) => c.indirect(p, l),
  CP_REG_RMW: (c, p, _n, l) => c.rmw(p, l),
  CP_REG_TO_MEM: (c, p, _n, l) => c.regMem(p, l),
  CP_MEM_TO_REG: (c, p, _n, l) => c.regMem(p, l),
  CP_MEM_WRITE: (c, p, n, l) => c.memWrite(p, n, l),
  CP_EVENT_WRITE: (c, p, _n, l) => c.eventWrite(p, l),
  CP_EVENT_WRITE7: (c, p, _n, l) => c.eventWrite(p, l),
  CP_SET_DRAW_STATE: (c, p, n, l) => c.setDrawState(p, n, l),
  CP_DRAW_INDX_OFFSET: (c, p, _n, l) => c.draw('CP_DRAW_INDX_OFFSET', p, l),
  CP_DRAW_INDIRECT: (c, p, _n, l) => c.draw('CP_DRAW_INDIRECT', p, l),
  CP_DRAW_INDX_INDIRECT: (c, p, _n, l) => c.draw('CP_DRAW_INDX_INDIRECT', p, l),
  CP_DRAW_INDIRECT_MULTI: (c, p, _n, l) => c.draw('CP_DRAW_INDIRECT_MULTI', p, l),
  CP_DRAW_AUTO: (c, p, _n, l) => c.draw('CP_DRAW_AUTO', p, l),
  CP_BLIT: (c, p, _n, l) => c.draw('CP_BLIT', p, l),
  CP_EXEC_CS: (c, _p, _n, l) => c.registerSummary(l),
  CP_EXEC_CS_INDIRECT: (c, _p, _n, l) => c.registerSummary(l),
  CP_SET_MARKER: (c, p) => c.setMarker(p),
  CP_THREAD_CONTROL: (c, p) => c.setThread(p),
  CP_SKIP_IB2_ENABLE_GLOBAL: (c, p) => c.setSkipIb2(true, p),
  CP_SKIP_IB2_ENABLE_LOCAL: (c, p) => c.setSkipIb2(false, p),
  CP_CONTEXT_REG_BUNCH: (c, p, n, l) => c.contextRegBunch(p, n, l),
  CP_NON_CONTEXT_REG_BUNCH: (c, p, n, l) => c.contextRegBunch({ arr: p.arr, off: p.off + 2 }, n - 2, l),
  CP_REG_WRITE: (c, p, _n, l) => c.regWrite(p, l),
  CP_START_BIN: (c, p, _n, l) => c.startBin(p, l),
};
