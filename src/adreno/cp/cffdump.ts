/**
 * `gpusim adreno decode --format cffdump`: the text freedreno's `cffdump --unit-test` prints,
 * line for line, as a visitor over the one static walker (walker.ts, with draw states replayed
 * at draws and `--once`). The text rules (levels of tabs, `%#x`, field decoding, the per-draw
 * register summary, CP_LOAD_STATE contents, hexdumps with `*`) follow Mesa's cffdec; the code
 * is ours.
 *
 * Shader listings come from a disassembler hook (`shaderDisasm`), by default the ir3 disassembler
 * (src/adreno/ir3) for a3xx and later and the a2xx one (src/adreno/a2xx) before.
 */
import { Memory } from '../../core/memory.js';
import { parseRd, RD } from '../../formats/rd.js';
import { ENUMS, genBit, genFromChipId, genFromGpuId, type Gen } from '../regs/db.js';
import { cFloat, cHex, decodeDomain, decodeVal, payloadCond, RegAcc, rnnDomain, type AddrInfo, type Cond, type RnnDomain } from '../regs/rnndec.js';
import { disasmIr3 } from '../ir3/disasm.js';
import { disasmA2xx } from '../a2xx/disasm.js';
import { Walker, type DrawStateGroup, type IbInfo, type PacketRecord, type Problem, type Visitor } from './walker.js';

/**
 * Disassembles a shader (words from its first instruction to the end of its buffer, or the words
 * a CP_LOAD_STATE / CP_IM_LOAD_IMMEDIATE carries); returns lines without indentation. `stage` is
 * 'VS' | 'HS' | 'DS' | 'GS' | 'FS' | 'CS' when known (a2xx listings name gl_Position/gl_FragColor by it).
 */
export type ShaderDisasm = (words: Uint32Array, gpuId: number, stage?: string) => string[] | undefined;

/**
 * cffdump's own listing: for a3xx and later the ir3 disassembler in its verbose cffdump form with
 * the stats block; for a2xx the a2xx disassembler in its raw form (export comments by stage).
 */
export const defaultShaderDisasm: ShaderDisasm = (words, gpuId, stage) =>
  gpuId >= 300
    ? disasmIr3(words.length % 2 ? words.subarray(0, words.length - 1) : words, { gpuId, cffdump: true, verbose: true, stats: true })
    : disasmA2xx(words, stage === 'VS' || stage === 'FS' ? stage : undefined);

/**
 * The default listing, remembered within one decode: a capture loads the same shaders in every
 * submit and every bin, and the ir3 disassembler is the decode's main cost (fd-clouds, all
 * frames: 4.7 s with a listing per load, 0.07 s without listings). Same words, same gpuId, same
 * stage: the same lines.
 */
function rememberedShaderDisasm(): ShaderDisasm {
  const seen = new Map<string, string[] | undefined>();
  return (words, gpuId, stage) => {
    let key = `${gpuId}:${stage ?? ''}:`;
    for (let i = 0; i < words.length; i++) key += words[i]!.toString(36) + ',';
    if (seen.has(key)) return seen.get(key);
    const lines = defaultShaderDisasm(words, gpuId, stage);
    seen.set(key, lines);
    return lines;
  };
}

export interface CffdumpOptions {
  /** Only this submit (cffdump's --frame: one frame per command stream). */
  readonly frame?: number;
  /** Walk each IB once per render mode. */
  readonly once?: boolean;
  readonly gen?: Gen;
  readonly shaderDisasm?: ShaderDisasm;
  readonly out: (line: string) => void;
}

export interface CffdumpSummary {
  gen: Gen;
  submits: number;
  packets: number;
  problems: Problem[];
}

const TABS = ['\t', '\t\t', '\t\t\t', '\t\t\t\t', '\t\t\t\t\t', '\t\t\t\t\t\t', '\t\t\t\t\t\t\t', '\t\t\t\t\t\t\t\t', '\t\t\t\t\t\t\t\t\t', '\t\t\t\t\t\t\t\t\t\t', '\t\t\t\t\t\t\t\t\t\t\t'];
/** cffdec's `levels[]`: level n is n+1 tabs (an 'x' past the table). */
const lv = (n: number): string => (n >= 0 && n < TABS.length ? TABS[n]! : 'x');
const hex8 = (v: number): string => (v >>> 0).toString(16).padStart(8, '0');

function u32le(d: Uint8Array, o: number): number {
  return (d[o]! | (d[o + 1]! << 8) | (d[o + 2]! << 16) | (d[o + 3]! << 24)) >>> 0;
}

/** State blocks x state types of CP_LOAD_STATE4/6 (cffdec's lookup). */
type StateKind = 'TEX_SAMP' | 'TEX_CONST' | 'SHADER_PROG' | 'SHADER_CONST' | 'SSBO_0' | 'SSBO_1' | 'SSBO_2' | 'UBO' | 'UNKNOWN_2DWORDS' | 'TEX_MIPADDR' | undefined;
const STAGES = ['VS', 'HS', 'DS', 'GS', 'FS', 'CS'];
function stateKind(block: number, type: number): { kind: StateKind; stage: string } {
  if (block <= 5) return { kind: (['TEX_SAMP', 'TEX_CONST', 'UBO'] as const)[type], stage: STAGES[block]! };
  if (block >= 8 && block <= 0xd) {
    if (block === 0xd && type === 3) return { kind: 'SSBO_0', stage: 'CS' };
    return { kind: (['SHADER_PROG', 'SHADER_CONST', 'UBO'] as const)[type], stage: STAGES[block - 8]! };
  }
  if (block === 0xe || block === 0xf) return { kind: (['SSBO_0', 'SSBO_1', 'SSBO_2'] as const)[type], stage: block === 0xf ? 'CS' : '' };
  if (block === 6 && type === 2) return { kind: 'UBO', stage: '' };
  if (block === 7 && type === 1) return { kind: 'UNKNOWN_2DWORDS', stage: '' };
  return { kind: undefined, stage: '' };
}

/** Registers cffdec gives special output, per generation: scratch echo, shader disassembly, buffer hexdumps. */
type Special = 'scratch' | 'disasm' | 'dump' | 'lo' | 'disasm_hi' | 'dump_hi' | 'texconst_hi' | 'texsamp_hi';
function specialRegs(gen: Gen): Record<string, Special> {
  const s: Record<string, Special> = {};
  const st = ['VS', 'HS', 'DS', 'GS', 'FS', 'CS'];
  if (gen === 'a2xx' || gen === 'a3xx') for (let i = 0; i < 8; i++) s[`CP_SCRATCH_REG${i}`] = 'scratch';
  if (gen === 'a3xx') {
    Object.assign(s, { VSC_SIZE_ADDRESS: 'dump', SP_VS_PVT_MEM_ADDR_REG: 'dump', SP_FS_PVT_MEM_ADDR_REG: 'dump', SP_VS_OBJ_START_REG: 'disasm', SP_FS_OBJ_START_REG: 'disasm', TPL1_TP_FS_BORDER_COLOR_BASE_ADDR: 'dump' });
  }
  if (gen === 'a4xx') {
    for (let i = 0; i < 8; i++) s[`CP_SCRATCH[${cHex(i)}].REG`] = 'scratch';
    for (const x of st) {
      s[`SP_${x}_PVT_MEM_ADDR`] = 'dump';
      s[`SP_${x}_OBJ_START`] = 'disasm';
    }
    for (const x of ['VS', 'HS', 'DS', 'GS', 'FS']) s[`TPL1_TP_${x}_BORDER_COLOR_BASE_ADDR`] = 'dump';
  }
  if (gen === 'a5xx' || gen === 'a6xx') for (let i = 4; i < 8; i++) s[`CP_SCRATCH[${cHex(i)}].REG`] = 'scratch';
  if (gen === 'a5xx') {
    // 64-bit addresses as _LO/_HI pairs: the _HI write acts on both halves.
    for (const x of st) {
      s[`SP_${x}_OBJ_START_LO`] = 'lo';
      s[`SP_${x}_OBJ_START_HI`] = 'disasm_hi';
      s[`TPL1_${x}_TEX_CONST_LO`] = 'lo';
      s[`TPL1_${x}_TEX_CONST_HI`] = 'texconst_hi';
      s[`TPL1_${x}_TEX_SAMP_LO`] = 'lo';
      s[`TPL1_${x}_TEX_SAMP_HI`] = 'texsamp_hi';
    }
    s['TPL1_TP_BORDER_COLOR_BASE_ADDR_LO'] = 'lo';
    s['TPL1_TP_BORDER_COLOR_BASE_ADDR_HI'] = 'dump_hi';
  }
  if (gen === 'a6xx' || gen === 'a7xx') for (const x of st) s[`SP_${x}_OBJ_START`] = 'disasm';
  if (gen === 'a6xx') {
    for (const x of st) {
      s[`SP_${x}_TEX_CONST`] = 'dump';
      s[`SP_${x}_TEX_SAMP`] = 'dump';
    }
  }
  return s;
}

/** What crashdec changes in cffdec's output (its options, set by `crash --format crashdec`). */
export interface PrinterOptions {
  /** -s: register writes, IB addresses and CP_NOP strings hidden; register values only in draw summaries. */
  readonly summary?: boolean;
  /** The address a hexdump row shows for an iova (crashdec's unwrapped ring copy has none: 0). */
  readonly hexAddr?: (iova: number) => number;
  /**
   * Called before a packet's hexdump with the iova of its last dword, and on an IB packet before
   * its IB is walked (crashdec's `ESTIMATED CRASH LOCATION!`); `level` is the walker's IB level.
   */
  readonly mark?: (level: number, lastIova: number) => void;
}

/** The cffdump visitor: prints each packet as cffdec does while the walker walks. */
export class CffdumpPrinter implements Visitor {
  private readonly gen: Gen;
  private readonly chip: number;
  private readonly gpuId: number;
  private readonly out: (l: string) => void;
  private readonly disasm: ShaderDisasm | undefined;
  private readonly dom: RnnDomain;
  private readonly wide: boolean;
  private readonly special: Map<number, Special> = new Map();
  private readonly specialName: Map<number, string> = new Map();
  private gpuaddrLo = 0;
  private inSummary = false;
  private readonly scratch0: number | undefined;
  mem: Memory;
  walker: Walker | undefined;
  /** Print level of the buffer being walked (cffdec's dump_commands level). */
  private levelStack: number[] = [];
  private draws: number[] = [];
  private readonly vals = new Uint32Array(0x40000);
  private readonly written = new Uint8Array(0x40000);
  private rewritten = new Set<number>();
  private readonly lastvals = new Uint32Array(0x40000);
  drawCount = 0;
  private renderMode: string | undefined;
  private thread: string | undefined;
  private skipGlobal = 0;
  private skipLocal = 0;
  needsWfi = false;
  vertices = 0;
  private groupLevel = 0;
  private scope = 0;
  /** Dwords the last packet of the current buffer ran past its end (cffdec's negative dwords_left). */
  private overrun = 0;
  private afterBody: { addr: number; len: number; level: number } | undefined;

  /** Text cffdec printed without a newline (a CP_NOP marker with no string): it starts the next line. */
  private prefix = '';
  private readonly popts: PrinterOptions;
  /** > 0 while output is forced in full despite `summary` (draw summaries, register bunches). */
  private full = 0;

  constructor(gen: Gen, gpuId: number, mem: Memory, out: (l: string) => void, disasm?: ShaderDisasm, popts: PrinterOptions = {}) {
    this.popts = popts;
    this.gen = gen;
    this.chip = parseInt(gen[1]!, 10);
    this.gpuId = gpuId;
    this.mem = mem;
    this.out = (l: string): void => {
      if (this.prefix) {
        l = this.prefix + l;
        this.prefix = '';
      }
      out(l);
    };
    this.disasm = disasm;
    this.wide = this.chip >= 5;
    this.dom = rnnDomain(gen === 'a2xx' || gen === 'a3xx' ? [gen.toUpperCase(), 'AXXX'] : [gen === 'a7xx' ? 'A6XX' : gen.toUpperCase()], gen);
    for (const [name, what] of Object.entries(specialRegs(gen))) {
      const off = this.dom.offsetOf(name);
      if (off !== undefined) {
        this.special.set(off, what);
        this.specialName.set(off, name);
      }
    }
    this.scratch0 = this.dom.offsetOf('CP_SCRATCH[0].REG') ?? this.dom.offsetOf('CP_SCRATCH_REG0');
  }

  /** cffdec's quiet(3): detail hidden in summary mode. */
  private get q3(): boolean {
    return this.popts.summary === true && this.full === 0;
  }

  private get level(): number {
    return this.levelStack.length ? this.levelStack[this.levelStack.length - 1]! : 0;
  }

  // ---- memory helpers (cffdec's hostptr / gpubaseaddr / hostlen) ----
  private seg(addr: number): { base: number; end: number; u8: Uint8Array } | undefined {
    if (!addr) return undefined;
    return this.mem.find(addr, 1) ?? undefined;
  }

  private words(addr: number, n: number): Uint32Array | undefined {
    const s = this.seg(addr);
    if (!s) return undefined;
    const avail = Math.floor((s.end - addr) / 4);
    const k = Math.min(n, avail);
    const out = new Uint32Array(Math.max(0, k));
    for (let i = 0; i < k; i++) out[i] = u32le(s.u8, addr - s.base + i * 4);
    return out;
  }

  private addrStr(a: number): string {
    return this.wide ? a.toString(16).padStart(16, '0') : (a >>> 0).toString(16).padStart(8, '0');
  }

  private shown(iova: number): number {
    return this.popts.hexAddr ? this.popts.hexAddr(iova) : iova;
  }

  /** dump_hex: rows of 8 dwords at their GPU addresses, repeated zero rows as one `*`. */
  private hexdump(dw: ArrayLike<number>, iova: number, level: number): void {
    let lastzero = true;
    for (let i = 0; i < dw.length; i += 8) {
      let zero = i !== 0;
      for (let j = 0; j < 8 && i + j < dw.length && zero; j++) if (dw[i + j]) zero = false;
      if (zero && !lastzero) this.out('*');
      lastzero = zero;
      if (zero) continue;
      let l = `${this.addrStr(this.shown(iova + i * 4))}:${lv(level)}${(i * 4).toString(16).padStart(4, '0')}:`;
      for (let j = 0; j < 8 && i + j < dw.length; j++) l += ' ' + hex8(dw[i + j]!);
      this.out(l);
    }
  }

  /** dump_float: 8 per row, `%8f`. */
  private floatdump(dw: ArrayLike<number>, iova: number, level: number): void {
    const f = new Float32Array(1);
    const u = new Uint32Array(f.buffer);
    let l = '';
    let i = 0;
    for (; i < dw.length; i++) {
      if (i % 8 === 0) l = `${this.addrStr(this.shown(iova + i * 4))}:${lv(level)}`;
      else l += ' ';
      u[0] = dw[i]!;
      l += cFloat(f[0]!, u[0]! >>> 31 === 1).padStart(8);
      if (i % 8 === 7) this.out(l);
    }
    if (i % 8) this.out(l);
  }

  // ---- registers ----
  private regName(off: number): string {
    return this.dom.lookup(off).name;
  }

  /** A register's current value (from writes seen, or set from a dump). */
  regVal(off: number): number {
    return off >= 0 && off < this.vals.length ? this.vals[off]! : 0;
  }

  /** Forget which registers were written (values kept): the next draw summary starts afresh. */
  resetWritten(): void {
    this.written.fill(0);
    this.rewritten = new Set();
    this.lastvals.fill(0);
  }

  /** `NAME: value` as dump_register_val prints it, without the level's tabs. */
  registerLine(off: number, lo: number, hi: number): string {
    return this.registerVal(this.dom.lookup(off), BigInt(lo >>> 0) | (BigInt(hi >>> 0) << 32n), 0).slice(1);
  }

  regSet(off: number, v: number): void {
    if (off < 0 || off >= this.vals.length) return;
    this.vals[off] = v;
    this.written[off] = 1;
    this.rewritten.add(off);
  }

  /** dump_register_val: `NAME: decoded` (+ the buffer an address points into). */
  private registerVal(info: AddrInfo, value: bigint, level: number): string {
    if (!info.ti) return `${lv(level)}${info.name}: ${value.toString(16).padStart(8, '0')}`;
    let l = `${lv(level)}${info.name}: ${decodeVal(info.ti, value, this.gen)}`;
    let addr = 0;
    if (this.chip >= 6) {
      if (info.ti.type === 'address' || info.ti.type === 'waddress') addr = Number(value);
    } else if (this.chip >= 5) {
      // a5xx: the _LO/_HI register pairs (the XML has no address types there).
      const off = info.def ? info.def[0] : -1;
      if (info.name.endsWith('_HI') && this.regName(off - 1).endsWith('_LO')) addr = Number(value) * 2 ** 32 + this.vals[off - 1]!;
      else if (info.name.endsWith('_LO') && this.regName(off + 1).endsWith('_HI')) addr = this.vals[off + 1]! * 2 ** 32 + Number(value);
    }
    const s = addr ? this.seg(addr) : undefined;
    if (s) l += `\t\tbase=${s.base.toString(16)}, offset=${addr - s.base}, size=${s.end - s.base}`;
    return l;
  }

  private dumpRegister(off: number, info: AddrInfo, value: bigint, level: number, prefix = ''): void {
    if (!this.q3) this.out(prefix + this.registerVal(info, value, level));
    const what = this.special.get(off);
    if (!what) return;
    if (this.q3 && (what === 'scratch' || what === 'disasm' || what === 'dump')) return;
    if (what === 'scratch') {
      const r = this.scratch0;
      if (r !== undefined) this.out(`${lv(level)}:${this.vals[r + 4]},${this.vals[r + 5]},${this.vals[r + 6]},${this.vals[r + 7]}`);
    } else if (what === 'disasm') this.disasmAt(Number(value), level, this.stageOf(off));
    else if (what === 'dump') this.dumpAt(Number(value), 64, level);
    else if (what === 'lo') this.gpuaddrLo = Number(value & 0xffffffffn);
    else {
      const addr = Number(value & 0xffffffffn) * 2 ** 32 + this.gpuaddrLo;
      if (what === 'disasm_hi') this.disasmAt(addr, level, this.stageOf(off));
      else if (what === 'dump_hi') this.dumpAt(addr, 64, level);
      else if (this.inSummary && this.seg(addr)) {
        // TPL1_xS_TEX_{CONST,SAMP}_HI: descriptors counted by TPL1_xS_TEX_COUNT, in draw summaries only.
        const name = this.specialName.get(off)!;
        const countReg = this.dom.offsetOf(name.slice(0, name.search(/CONST|SAMP/)) + 'COUNT');
        const n = countReg !== undefined ? this.vals[countReg]! : 0;
        this.descriptors(what === 'texconst_hi' ? 'TEX_CONST' : 'TEX_SAMP', 'direct', n, addr, undefined, level + 1);
      }
    }
  }

  /** Shader stage a special register belongs to (SP_VS_OBJ_START -> VS). */
  private stageOf(off: number): string | undefined {
    return /^SP_([VHDGFC]S)_/.exec(this.specialName.get(off) ?? '')?.[1];
  }

  private disasmAt(addr0: number, level: number, stage?: string): void {
    const addr = addr0 - (addr0 % 16);
    const s = this.seg(addr);
    if (!s) return;
    // The disassembler gets the rest of the buffer; without one only the first 64 words are shown.
    const all = this.words(addr, this.disasm ? Math.floor((s.end - addr) / 4) : 64)!;
    this.hexdump(all.subarray(0, Math.min(64, all.length)), addr, level + 1);
    this.shader(all, level + 2, stage);
  }

  /** Disassembly lines indented by `tabs` tabs (ir3 listings: the level cffdec passes; a2xx: one more). */
  private shader(words: Uint32Array, tabs: number, stage?: string): void {
    const lines = this.disasm?.(words, this.gpuId, stage);
    if (lines) for (const l of lines) this.out('\t'.repeat(tabs) + l);
  }

  /** A fresh regacc: joins the two dwords of a 64-bit register. */
  private acc(): RegAcc {
    return new RegAcc(this.dom, this.out);
  }

  /** dump_registers: consecutive register writes, recorded and printed. */
  private dumpRegisters(base: number, dw: ArrayLike<number>, level: number): void {
    const r = this.acc();
    for (let i = 0; i < dw.length; i++) {
      const off = base + i;
      const v = dw[i]! >>> 0;
      if (this.needsWfi && !(off >= 0x2000 && off < 0x2400)) this.out(`NEEDS WFI: ${this.regName(off)} (${off.toString(16)})`);
      this.regSet(off, v);
      if (r.push(off, v)) this.dumpRegister(r.off, r.info!, r.value, level);
    }
  }

  /** dump_register_summary: registers written since the last draw, `!` changed, `+` rewritten. */
  private summary(level: number): void {
    this.out(`${lv(level)}draw[${this.drawCount}] register values`);
    this.inSummary = true;
    this.full++;
    const offs = [...this.rewritten].sort((a, b) => a - b);
    let changed = false;
    let written = false;
    const r = this.acc();
    for (const off of offs) {
      if (!this.written[off]) continue;
      const val = this.vals[off]!;
      if (val !== this.lastvals[off]) {
        changed = true;
        this.lastvals[off] = val;
      }
      written = true;
      if (r.push(off, val)) {
        this.dumpRegister(r.off, r.info!, r.value, level, `${changed ? '!' : ' '}${written ? '+' : ' '}\t${r.value.toString(16).padStart(8, '0')}`);
        changed = written = false;
      }
    }
    this.inSummary = false;
    this.full--;
    this.rewritten = new Set();
    this.drawCount++;
  }

  private printMode(level: number): void {
    if (this.chip < 5) return;
    this.out(`${lv(level)}mode: ${this.renderMode ?? '(null)'}${this.thread ? ':' + this.thread : ''}`);
    this.out(`${lv(level)}skip_ib2: g=${this.skipGlobal}, l=${this.skipLocal}`);
  }

  // ---- packet payloads through their rules-ng domain (dump_domain) ----
  private condFor(domain: string, dw: ArrayLike<number>): Cond {
    return payloadCond(domain, dw, this.gen);
  }

  domain(dw: ArrayLike<number>, level: number, name: string): void {
    for (const f of decodeDomain(dw, name, this.gen)) this.out(f.bitset ? `${lv(level)}${f.text}` : `${lv(level)}{ ${f.name} = ${f.text} }`);
  }

  // ---- visitor ----
  enterIb(ib: IbInfo): void {
    const parent = this.levelStack.length ? this.level : -1;
    // IBs one level in; draw-state groups and streams carried by a packet two (cffdec's level + 1 of the handler).
    this.levelStack.push(parent < 0 ? 0 : ib.kind === 'SDS' ? this.groupLevel + 1 : ib.kind === 'EMBED' ? parent + 2 : parent + 1);
    this.draws.push(0);
  }

  leaveIb(): void {
    this.levelStack.pop();
    this.draws.pop();
    if (this.overrun) this.out(`**** this ain't right!! dwords_left=${-this.overrun}`);
    this.overrun = 0;
  }

  drawStateGroup(g: DrawStateGroup, _level: number, skipped: boolean): void {
    // Groups replayed at a draw print one level in from the draw's buffer (LOAD_IMMED: the same).
    const L = this.level + 1;
    this.groupLevel = L;
    this.out(`${lv(L)}group_id: ${g.group}`);
    this.out(`${lv(L)}count: ${g.count}`);
    this.out(`${lv(L)}addr: ${g.addr.toString(16).padStart(16, '0')}`);
    this.out(`${lv(L)}flags: ${g.flags.toString(16)}`);
    if (this.chip >= 6) {
      this.out(`${lv(L)}enable_mask: 0x${g.enableMask.toString(16)}`);
      if (skipped) {
        this.out(`${lv(L)}\tskipped!`);
        this.out('');
        return;
      }
    }
    const w = this.words(g.addr, g.count);
    if (w) this.hexdump(w, g.addr, L + 1);
  }

  problem(): void {}

  loopIteration(p: PacketRecord, index: number): void {
    if (!this.q3) this.out(`${lv(this.level + 1)}${p.name === 'CP_START_BIN' ? 'bin' : 'draw'} ${index}`);
  }

  packet(p: PacketRecord): void {
    const level = this.level;
    if (p.type === -1) {
      this.out(`bad type! ${hex8(p.header)}`);
      return;
    }
    if (p.type === 4 || p.type === 0) {
      if (!this.q3) this.out(`${lv(level + 1)}write ${this.regName(p.reg)} (${p.reg.toString(16).padStart(4, '0')})`);
      this.dumpRegisters(p.reg, p.payload, level + 2);
      if (this.q3) return;
      this.popts.mark?.(p.level, p.iova + 4 * p.count);
      this.hexdump(this.packetWords(p), p.iova, level + 1);
      return;
    }
    if (p.type === 2) {
      if (!this.q3) this.out(`${lv(level + 1)}nop`);
      return;
    }
    const name = p.name.startsWith('UNKNOWN_0x') ? undefined : p.name;
    this.out(`\t${lv(level)}opcode: ${name ?? '(null)'} (${p.opcode.toString(16).padStart(2, '0')}) (${p.count + 1} dwords)`);
    if (name) this.domain(p.payload, level + 2, name === 'CP_LOAD_STATE6_FRAG' || name === 'CP_LOAD_STATE6_GEOM' ? 'CP_LOAD_STATE6' : name);
    this.handler(name, p, level + 1);
  }

  packetEnd(p: PacketRecord): void {
    if (p.type !== 3 && p.type !== 7) return;
    const body = this.afterBody;
    this.afterBody = undefined;
    // a5xx SET_RENDER_MODE / COMPUTE_CHECKPOINT: the carried stream's words follow its decode.
    if (body && this.seg(body.addr)) this.dumpAt(body.addr, body.len, body.level - 1);
    this.popts.mark?.(p.level, p.iova + 4 * p.count);
    this.hexdump(this.packetWords(p), p.iova, this.level + 1);
  }

  /** The packet's dwords; a packet running past its buffer is shown on into the memory after it, as cffdec reads it. */
  private packetWords(p: PacketRecord): Uint32Array {
    let n = p.payload.length;
    let tail: Uint32Array | undefined;
    if (p.type !== -1 && p.type !== 2 && n < p.count) {
      this.overrun = p.count - n;
      tail = this.words(p.iova + 4 * (1 + n), p.count - n);
      n += tail?.length ?? 0;
    }
    const w = new Uint32Array(n + 1);
    w[0] = p.header;
    w.set(p.payload, 1);
    if (tail) w.set(tail, 1 + p.payload.length);
    return w;
  }

  private handler(name: string | undefined, p: PacketRecord, level: number): void {
    const d = p.payload;
    // cffdec reads handler dwords straight from the buffer: past a short payload it sees
    // whatever follows the packet (a2xx CP_DRAW_INDX's num_indices is the next header).
    const at = (i: number): number => (i < d.length ? d[i]! >>> 0 : (this.words(p.iova + 4 * (1 + i), 1)?.[0] ?? 0) >>> 0);
    switch (name) {
      case 'CP_INDIRECT_BUFFER':
      case 'CP_INDIRECT_BUFFER_PFD':
      {
        const ib = this.wide ? at(1) * 2 ** 32 + at(0) : at(0);
        if (!this.q3) {
          this.out(`${lv(level)}ibaddr:${this.wide ? ib.toString(16).padStart(16, '0') : hex8(ib)}`);
          this.out(`${lv(level)}ibsize:${hex8(this.wide ? at(2) : at(1))}`);
        }
        if (this.seg(ib)) this.popts.mark?.(p.level, p.iova + 4 * (this.wide ? 3 : 2));
        return;
      }
      case 'CP_WAIT_FOR_IDLE':
        this.needsWfi = false;
        return;
      case 'CP_EVENT_WRITE':
      case 'CP_EVENT_WRITE7': {
        const ev = enumName('vgt_event_type', at(0) & 0xff, this.gen);
        this.out(`${lv(level)}event ${ev ?? '(null)'}`);
        if (ev && this.chip > 5 && (ev === 'BLIT' || ev === 'LRZ_CLEAR')) {
          this.printMode(level);
          this.summary(level);
        }
        return;
      }
      case 'CP_REG_RMW': {
        const r = at(0) & 0xffff;
        if (!this.q3) this.out(`${lv(level)}rmw (${this.regName(r)} & 0x${hex8(at(1))}) | 0x${hex8(at(2))})`);
        if (this.needsWfi && !this.q3) this.out(`NEEDS WFI: rmw (${this.regName(r)} & 0x${hex8(at(1))}) | 0x${hex8(at(2))})`);
        this.regSet(r, ((this.vals[r] ?? 0) & at(1)) | at(2));
        return;
      }
      case 'CP_REG_TO_MEM':
      case 'CP_MEM_TO_REG': {
        if (!this.q3) this.out(`${lv(level)}base register: ${this.regName(at(0) & 0xffff)}`);
        const a = at(2) * 2 ** 32 + at(1);
        this.out(`${lv(level)}gpuaddr:${a.toString(16).padStart(16, '0')}`);
        const w = this.words(a, (at(0) >>> 19) & 0x3ff);
        if (w) this.hexdump(w, a, level + 1);
        return;
      }
      case 'CP_MEM_WRITE':
        if (this.wide) {
          const a = at(1) * 2 ** 32 + at(0);
          this.out(`${lv(level)}gpuaddr:${a.toString(16).padStart(16, '0')}`);
          this.hexdump(d.subarray(2), p.iova + 12, level + 1);
        } else {
          this.out(`${lv(level)}gpuaddr:${hex8(at(0))}`);
          this.floatdump(d.subarray(1), p.iova + 8, level + 1);
        }
        return;
      case 'CP_DRAW_INDX':
      case 'CP_DRAW_INDX_2': {
        const prim = at(1) & 0x1f;
        const src = (at(1) >>> 6) & 3;
        const n = at(2);
        const di = this.draws.length - 1;
        this.out(`${lv(level)}draw:          ${this.draws[di] ?? 0}`);
        this.out(`${lv(level)}prim_type:     ${enumName('pc_di_primtype', prim, this.gen) ?? '(null)'} (${prim})`);
        this.out(`${lv(level)}source_select: ${enumName('pc_di_src_sel', src, this.gen) ?? '(null)'} (${src})`);
        this.out(`${lv(level)}num_indices:   ${n}`);
        this.vertices += n;
        if (di >= 0) this.draws[di]!++;
        if (name === 'CP_DRAW_INDX' && d.length === 5) {
          this.out(`${lv(level)}gpuaddr:       ${hex8(at(3))}`);
          this.out(`${lv(level)}idx_size:      ${at(4)}`);
          const sz = ((at(1) >>> 11) & 1) | ((at(1) >>> 12) & 2);
          const seg = this.seg(at(3));
          if (seg) {
            const bytes = seg.u8.subarray(at(3) - seg.base);
            let l = `${lv(level)}idxs:         `;
            if (sz === 2) for (let i = 0; i < at(4) && i < bytes.length; i++) l += ` ${bytes[i]}`;
            else if (sz === 0) for (let i = 0; i < at(4) / 2 && 2 * i + 1 < bytes.length; i++) l += ` ${bytes[2 * i]! | (bytes[2 * i + 1]! << 8)}`;
            else if (sz === 1) for (let i = 0; i < at(4) / 4 && 4 * i + 3 < bytes.length; i++) l += ` ${u32le(bytes, 4 * i)}`;
            this.out(l);
            const w = this.words(at(3), Math.floor(at(4) / 4));
            if (w) this.hexdump(w, at(3), level + 1);
          }
        }
        if (n > 0) this.summary(level);
        if (name === 'CP_DRAW_INDX') this.needsWfi = true;
        return;
      }
      case 'CP_DRAW_INDX_OFFSET':
        this.printMode(level);
        if (at(2) > 0) this.summary(level);
        return;
      case 'CP_DRAW_INDX_INDIRECT': {
        this.printMode(level);
        const a1 = this.wide ? (at(2) & 0x1ffff) * 2 ** 32 + at(1) : at(1);
        this.dumpAt(a1, 0x10, level);
        const a2 = this.wide ? (at(5) & 0x1ffff) * 2 ** 32 + at(4) : at(3);
        this.dumpAt(a2, 0x10, level);
        this.summary(level);
        return;
      }
      case 'CP_DRAW_INDIRECT':
        this.printMode(level);
        this.dumpAt((at(2) & 0x1ffff) * 2 ** 32 + at(1), 0x10, level);
        this.summary(level);
        return;
      case 'CP_DRAW_INDIRECT_MULTI':
        this.printMode(level);
        this.indirectMulti(p, level);
        this.summary(level);
        return;
      case 'CP_DRAW_AUTO':
      case 'CP_BLIT':
        this.printMode(level);
        this.summary(level);
        return;
      case 'CP_EXEC_CS':
      case 'CP_RUN_OPENCL':
        this.summary(level);
        return;
      case 'CP_EXEC_CS_INDIRECT': {
        const a = this.wide ? (at(2) & 0x1ffff) * 2 ** 32 + at(1) : at(1);
        this.out(`${lv(level)}addr: ${a.toString(16).padStart(16, '0')}`);
        this.dumpAt(a, 0x10, level);
        this.summary(level);
        return;
      }
      case 'CP_SET_MARKER': {
        const m = at(0) & 0xf;
        this.renderMode = enumName('a6xx_marker', m, this.gen) ?? `0x${m.toString(16)}`;
        return;
      }
      case 'CP_THREAD_CONTROL':
        this.thread = enumName('cp_thread', at(0) & 3, this.gen);
        return;
      case 'CP_SKIP_IB2_ENABLE_GLOBAL':
        this.skipGlobal = at(0);
        return;
      case 'CP_SKIP_IB2_ENABLE_LOCAL':
        this.skipLocal = at(0);
        return;
      case 'CP_CONTEXT_REG_BUNCH':
      case 'CP_NON_CONTEXT_REG_BUNCH': {
        const r = this.acc();
        this.full++;
        for (let i = name === 'CP_NON_CONTEXT_REG_BUNCH' ? 2 : 0; i + 1 < d.length; i += 2) {
          if (r.push(at(i), at(i + 1))) this.dumpRegister(r.off, r.info!, r.value, level + 1);
          this.regSet(at(i), at(i + 1));
        }
        this.full--;
        return;
      }
      case 'CP_REG_WRITE': {
        const r = at(1) & 0xffff;
        const a = this.acc();
        if (a.push(r, at(2))) this.dumpRegister(a.off, a.info!, a.value, level + 1);
        this.regSet(r, at(2));
        return;
      }
      case 'CP_WIDE_REG_WRITE': {
        let r = at(0) & 0xffff;
        const a = this.acc();
        for (let i = 1; i < d.length; i++, r++) {
          if (a.push(r, at(i))) this.dumpRegister(a.off, a.info!, a.value, level + 1);
          this.regSet(r, at(i));
        }
        return;
      }
      case 'CP_LOAD_STATE':
      case 'CP_LOAD_STATE4':
      case 'CP_LOAD_STATE6':
      case 'CP_LOAD_STATE6_GEOM':
      case 'CP_LOAD_STATE6_FRAG':
        this.loadState(p, level);
        return;
      case 'CP_NOP': {
        // Turnip / freedreno debug strings: MESG, BEGN, END magic first dwords.
        if (this.q3) return;
        const id = at(0);
        const tag = id === 0x4d455347 ? '### ' : id === 0x4245474e ? `>>> #${++this.scope}: ` : id === 0x454e4400 ? `<<< #${this.scope--}: ` : undefined;
        if (tag === undefined || !d.length) return;
        if (d.length > 1) {
          let str = '';
          const bytes = new Uint8Array(d.buffer, d.byteOffset + 4, (d.length - 1) * 4);
          for (const b of bytes) {
            if (b === 0) break;
            if (b < 0x80) str += String.fromCharCode(b);
          }
          this.out(tag + str);
        } else this.prefix += tag;
        return;
      }
      case 'CP_SET_AMBLE':
        this.out(`${lv(level)}addr=${(at(1) * 2 ** 32 + at(0)).toString(16)}`);
        return;
      case 'CP_SET_RENDER_MODE': {
        if (this.chip !== 5) return;
        this.renderMode = enumName('render_mode_cmd', at(0), this.gen) ?? '(null)';
        if (d.length === 1) return;
        this.dumpAt(at(2) * 2 ** 32 + at(1), 64, level + 1);
        if (d.length === 8) {
          this.out(`${lv(level)}addr: 0x${(at(7) * 2 ** 32 + at(6)).toString(16).padStart(16, '0')}`);
          this.out(`${lv(level)}len:  0x${at(5).toString(16)}`);
          this.afterBody = { addr: at(7) * 2 ** 32 + at(6), len: at(5), level: level + 1 };
        }
        return;
      }
      case 'CP_COMPUTE_CHECKPOINT': {
        if (this.chip !== 5 || d.length < 7) return;
        const a = at(6) * 2 ** 32 + at(5);
        const len = d.length === 8 ? at(7) : at(4);
        this.out(`${lv(level)}addr: 0x${a.toString(16).padStart(16, '0')}`);
        this.out(`${lv(level)}len:  0x${len.toString(16)}`);
        this.afterBody = { addr: a, len, level: level + 1 };
        return;
      }
      case 'CP_SET_CONSTANT':
        this.setConstant(p, level);
        return;
      case 'CP_IM_LOAD_IMMEDIATE': {
        const type = at(0) === 0 ? 'vertex' : at(0) === 1 ? 'fragment' : '<unknown>';
        this.out(`${lv(level)}${type} shader, start=${(at(1) >>> 16).toString(16).padStart(4, '0')}, size=${(at(1) & 0xffff).toString(16).padStart(4, '0')}`);
        // The a2xx listing is indented like cffdec's levels[level + 2].
        this.shader(d.subarray(2), level + 3, at(0) === 0 ? 'VS' : at(0) === 1 ? 'FS' : undefined);
        return;
      }
      default:
        return;
    }
  }

  private dumpAt(addr: number, n: number, level: number): void {
    const w = this.words(addr, n);
    if (w) this.hexdump(w, addr, level + 1);
  }

  private indirectMulti(p: PacketRecord, level: number): void {
    const d = p.payload;
    const dom = rnnDomain(['CP_DRAW_INDIRECT_MULTI'], this.gen);
    const cond = this.condFor('CP_DRAW_INDIRECT_MULTI', d);
    let countDw = 0, addrDw = 0, strideDw = 0;
    for (let i = 0; i < d.length; i++) {
      const n = dom.lookup(i, cond).name;
      if (n === 'INDIRECT_COUNT' && !countDw) countDw = i;
      if (n === 'INDIRECT' && !addrDw) addrDw = i;
      if (n === 'STRIDE' && !strideDw) strideDw = i;
    }
    let count = (d[2] ?? 0) >>> 0;
    if (countDw) {
      const ca = (d[countDw + 1] ?? 0) * 2 ** 32 + (d[countDw] ?? 0);
      const w = this.words(ca, 1);
      if (w && w.length) {
        this.out(`${lv(level)}indirect count: ${w[0]}`);
        count = w[0] === 0 || w[0]! > 0x10000 ? Math.min(count, 0x100) : Math.min(count, w[0]!);
      } else count = Math.min(count, 0x100);
    }
    if (addrDw && strideDw) {
      let a = (d[addrDw + 1] ?? 0) * 2 ** 32 + (d[addrDw] ?? 0);
      const stride = (d[strideDw] ?? 0) >>> 0;
      for (let i = 0; i < count; i++, a += stride) {
        this.out(`${lv(level)}draw ${i}:`);
        this.dumpAt(a, 0x10, level);
      }
    }
  }

  private loadState(p: PacketRecord, level: number): void {
    const d = p.payload;
    if (d.length < 2) return;
    const d0 = d[0]! >>> 0;
    const d1 = d[1]! >>> 0;
    let numUnit = (d0 >>> 22) & 0x1ff;
    let block: number, type: number, src: 'direct' | 'indirect' | 'bindless';
    if (this.chip >= 6) {
      block = (d0 >>> 18) & 0xf;
      type = (d0 >>> 14) & 3;
    } else if (this.chip >= 4) {
      block = (d0 >>> 18) & 0xf;
      type = d1 & 3;
    } else {
      block = (d0 >>> 19) & 7;
      type = d1 & 3;
    }
    if (this.chip >= 4) {
      const s = (d0 >>> 16) & 3;
      src = s === 2 ? 'indirect' : s === 1 ? 'bindless' : 'direct';
    } else src = (d0 >>> 16) & 7 ? 'indirect' : 'direct';
    const sk = this.chip >= 4 ? stateKind(block, type) : a3xxKind(block, type);
    let ext = 0;
    if (src === 'indirect') ext = this.wide ? (d[2] ?? 0) * 2 ** 32 + ((d1 & ~3) >>> 0) : d1 & 0xfffffffc;
    else if (src === 'bindless') {
      // As cffdec: a name the generation lacks resolves to register 0.
      const base = (sk.stage === 'CS' ? this.dom.offsetOf('HLSQ_CS_BINDLESS_BASE[0].DESCRIPTOR') : this.dom.offsetOf('HLSQ_BINDLESS_BASE[0].DESCRIPTOR')) ?? 0;
      const r = base + (d1 >>> 28) * (this.wide ? 2 : 1);
      ext = (this.wide ? (this.vals[r + 1] ?? 0) * 2 ** 32 : 0) + (((this.vals[r] ?? 0) & 0xfffffffc) >>> 0);
      ext += 4 * (d1 & 0xffffff);
    }
    const hdr = this.wide ? 3 : 2;
    const get = (n: number): { w: Uint32Array; iova: number } | undefined => {
      if (ext) {
        const w = this.words(ext, n);
        return w ? { w, iova: ext } : undefined;
      }
      return { w: d.subarray(hdr, hdr + n), iova: p.iova + 4 * (1 + hdr) };
    };
    if (ext && !this.seg(ext)) return;
    const L = level;
    switch (sk.kind) {
      case 'SHADER_PROG': {
        if (this.chip >= 4) numUnit *= 16;
        else if (this.chip >= 3) numUnit *= 4;
        const c = get(numUnit * 2);
        if (c) this.shader(c.w, L + 2, sk.stage || undefined);
        return;
      }
      case 'SHADER_CONST': {
        if (this.chip >= 4) numUnit *= 2;
        const c = get(numUnit * 2);
        if (!c) return;
        this.floatdump(c.w, c.iova, L + 1);
        this.hexdump(c.w, c.iova, L + 1);
        return;
      }
      case 'TEX_SAMP':
      case 'TEX_CONST':
      case 'SSBO_0':
      case 'SSBO_1':
      case 'SSBO_2':
      case 'UBO': {
        const per = this.descSize(sk.kind, src);
        const c = get(per.step * numUnit);
        if (c) this.descriptors(sk.kind, src, numUnit, c.iova, c.w, L);
        return;
      }
      case 'UNKNOWN_2DWORDS': {
        const c = get(numUnit * 2);
        if (c) this.hexdump(c.w, c.iova, L + 1);
        return;
      }
      default: {
        const c = get(numUnit);
        if (c) this.hexdump(c.w, c.iova, L + 1);
      }
    }
  }

  /** Texture/sampler/UBO/SSBO descriptors: each through its rules-ng domain, then in hex. */
  private descriptors(kind: StateKind, src: string, numUnit: number, iova: number, words: Uint32Array | undefined, L: number): void {
    const per = this.descSize(kind, src);
    const all = words ?? this.words(iova, per.step * numUnit);
    if (!all) return;
    for (let i = 0; i < numUnit; i++) {
      const o = i * per.step;
      const w = all.subarray(o, o + per.size);
      // The blob always loads 16 units; an all-zero one ends the list.
      if (numUnit === 16 && (kind === 'TEX_SAMP' || kind === 'TEX_CONST') && !w[0] && !w[1] && (kind === 'TEX_SAMP' || (!w[2] && !w[3]))) break;
      if (per.domain) this.domain(w, L + 2, per.domain);
      if (per.hex) this.hexdump(w, iova + o * 4, L + 1);
    }
  }

  private descSize(kind: StateKind, src: string): { size: number; step: number; domain: string | undefined; hex: boolean } {
    const c = this.chip;
    const G = c >= 6 ? 'A6XX' : `A${c}XX`;
    const bindless = src === 'bindless';
    switch (kind) {
      case 'TEX_SAMP': {
        const n = c <= 4 ? 2 : 4;
        return { size: n, step: c >= 6 && bindless ? 16 : n, domain: `${G}_TEX_SAMP`, hex: true };
      }
      case 'TEX_CONST': {
        const n = c === 3 ? 4 : c === 4 ? 8 : c === 5 ? 12 : 16;
        return { size: n, step: n, domain: `${G}_TEX_CONST`, hex: true };
      }
      case 'SSBO_0':
        return c >= 6 ? { size: 16, step: 16, domain: 'A6XX_TEX_CONST', hex: true } : { size: 4, step: 4, domain: c === 4 || c === 5 ? `${G}_SSBO_0` : undefined, hex: true };
      case 'SSBO_1':
        return { size: 2, step: 2, domain: c === 4 || c === 5 ? `${G}_SSBO_1` : undefined, hex: true };
      case 'SSBO_2':
        return { size: 2, step: 2, domain: c === 5 ? 'A5XX_SSBO_2' : undefined, hex: c === 5 };
      default:
        return { size: 2, step: bindless ? 16 : 2, domain: c === 5 ? 'A5XX_UBO' : c >= 6 ? 'A6XX_UBO' : undefined, hex: true };
    }
  }

  private a2xxTexConst(d: Uint32Array, val: number, level: number): void {
    const g = (i: number): number => (d[i] ?? 0) >>> 0;
    const clamp = ['wrap', 'mirror', 'clamp-last-texel'];
    const filter = ['point', 'bilinear', 'bicubic'];
    const sw = 'xyzw01??';
    const pitch = (g(0) >>> 22) << 5;
    const swiz = (g(3) >>> 1) & 0xfff;
    const L = lv(level + 1);
    this.out(`${lv(level)}set texture const ${val.toString(16).padStart(4, '0')}`);
    this.out(`${L}clamp x/y/z: ${clamp[(g(0) >>> 10) & 3] ?? '(null)'}/${clamp[(g(0) >>> 13) & 3] ?? '(null)'}/${clamp[(g(0) >>> 16) & 3] ?? '(null)'}`);
    this.out(`${L}filter min/mag: ${filter[(g(3) >>> 21) & 3] ?? '(null)'}/${filter[(g(3) >>> 19) & 3] ?? '(null)'}`);
    this.out(`${L}swizzle: ${sw[swiz & 7]}${sw[(swiz >>> 3) & 7]}${sw[(swiz >>> 6) & 7]}${sw[(swiz >>> 9) & 7]}`);
    const flags = g(1) & 0xfff;
    this.out(`${L}addr=${hex8(g(1) & ~0xfff)} (flags=${flags.toString(16).padStart(3, '0')}), size=${(g(2) & 0x1fff) + 1}x${((g(2) >>> 13) & 0x1fff) + 1}, pitch=${pitch}, format=${enumName('a2xx_sq_surfaceformat', flags & 0xf, this.gen) ?? '(null)'}`);
    this.out(`${L}mipaddr=${hex8(g(5) & ~0xfff)} (flags=${(g(5) & 0xfff).toString(16).padStart(3, '0')})`);
  }

  private a2xxShaderConst(d: Uint32Array, val: number, level: number): void {
    this.out(`${lv(level)}set shader const ${val.toString(16).padStart(4, '0')}`);
    for (let i = 0; i < d.length; ) {
      const w = d[i++]! >>> 0;
      const addr = (w & ~0xf) >>> 0;
      if (!this.seg(addr)) continue;
      const fmt = enumName('a2xx_sq_surfaceformat', w & 0xf, this.gen) ?? '(null)';
      let size = (d[i++] ?? 0) >>> 0;
      this.out(`${lv(level + 1)}addr=${hex8(addr)}, size=${size}, format=${fmt}`);
      size = Math.floor((size + 3) / 4);
      const n = Math.min(size, 64);
      const data = this.words(addr, n) ?? new Uint32Array(0);
      this.hexdump(data, addr, level + 1);
      if (size > n) this.out(`${lv(level + 1)}\t\t...`);
      this.floatdump(data, addr, level + 1);
      if (size > n) this.out(`${lv(level + 1)}\t\t...`);
    }
  }

  /** a2xx CP_SET_CONSTANT. */
  private setConstant(p: PacketRecord, level: number): void {
    const d = p.payload;
    if (!d.length) return;
    const d0 = d[0]! >>> 0;
    let val = d0 & 0xffff;
    switch ((d0 >>> 16) & 0xf) {
      case 0:
        this.floatdump(d.subarray(1), p.iova + 8, level + 1);
        return;
      case 1:
        if (val < 0x78) this.a2xxTexConst(d.subarray(1), val, level);
        else this.a2xxShaderConst(d.subarray(1), val, level);
        return;
      case 2:
        this.out(`${lv(level)}set bool const ${val.toString(16).padStart(4, '0')}`);
        return;
      case 3:
        this.out(`${lv(level)}set loop const ${val.toString(16).padStart(4, '0')}`);
        return;
      case 4:
        val += 0x2000;
        if (d0 & 0x80000000) {
          const src = d[1]! >>> 0;
          let dst = d[2]! >>> 0;
          this.out(`${lv(level)}${this.regName(val)} = ${hex8(dst)} + ${this.regName(src)} (${hex8(this.vals[src] ?? 0)})`);
          dst = (dst + (this.vals[src] ?? 0)) >>> 0;
          this.dumpRegisters(val, [dst], level + 1);
        } else this.dumpRegisters(val, d.subarray(1), level + 1);
        return;
    }
  }
}

function a3xxKind(block: number, type: number): { kind: StateKind; stage: string } {
  const t: Record<number, StateKind[]> = { 0: ['TEX_SAMP', 'TEX_CONST'], 2: ['TEX_SAMP', 'TEX_CONST'], 4: ['SHADER_PROG', 'SHADER_CONST'], 6: ['SHADER_PROG', 'SHADER_CONST'] };
  return { kind: t[block]?.[type], stage: block >= 4 ? (block === 4 ? 'VS' : 'FS') : '' };
}

function enumName(e: string, v: number, gen: Gen): string | undefined {
  const bit = genBit(gen);
  for (const x of ENUMS[e] ?? []) if (x[0] === v && x[2] & bit) return x[1];
  return undefined;
}

/** Decode an .rd capture the way `cffdump --unit-test [--frame N] [--once]` prints it. */
export function cffdumpRd(bytes: Uint8Array, opts: CffdumpOptions, where = 'trace'): CffdumpSummary {
  const f = parseRd(bytes, where);
  const out = opts.out;
  let gen: Gen = opts.gen ?? 'a6xx';
  let gpuId = 0;
  let got = false;
  let mem = new Memory();
  let printer: CffdumpPrinter | undefined;
  let walker: Walker | undefined;
  const sum: CffdumpSummary = { gen, submits: 0, packets: 0, problems: [] };
  const disasm = opts.shaderDisasm ?? rememberedShaderDisasm();
  const setup = (): void => {
    printer = new CffdumpPrinter(gen, gpuId, mem, out, disasm);
    const inner = printer;
    const v: Visitor = {
      packet: (p) => inner.packet(p),
      packetEnd: (p) => inner.packetEnd(p),
      enterIb: (ib) => inner.enterIb(ib),
      leaveIb: () => inner.leaveIb(),
      drawStateGroup: (g, l, s) => inner.drawStateGroup(g, l, s),
      loopIteration: (p, i) => inner.loopIteration(p, i),
      problem: (pr) => void sum.problems.push(pr),
    };
    walker = new Walker(mem, gen, v, { drawStates: 'at-draw', once: opts.once ?? false, followChain: false, followEmbedded: true, headers: 'any', stopOnBadHeader: gen === 'a2xx' || gen === 'a3xx' || gen === 'a4xx', maxLevel: 6 });
    printer.walker = walker;
  };
  let needsReset = false;
  let skip = false;
  let submit = 0;
  let pending: { iova: number; len: number } | undefined;
  const text = (d: Uint8Array): string => {
    let e = d.indexOf(0);
    if (e < 0) e = d.length;
    return new TextDecoder('latin1').decode(d.subarray(0, e));
  };
  const addr = (d: Uint8Array): { iova: number; len: number } => ({
    iova: (d.length >= 12 ? u32le(d, 8) * 2 ** 32 : 0) + (d.length >= 4 ? u32le(d, 0) : 0),
    len: d.length >= 8 ? u32le(d, 4) : 0,
  });
  for (const s of f.sections) {
    // (cffdump's per-section needs_wfi reset is its own variable, not the decoder's: not modelled.)
    const d = s.data;
    switch (s.type) {
      case RD.TEST:
        out(`test: ${text(d)}`);
        break;
      case RD.CMD: {
        const t = text(d);
        out(`cmd: ${t}`);
        skip = t.startsWith('fdperf') || t.startsWith('chrome') || t.startsWith('surfaceflinger') || t.startsWith('X');
        break;
      }
      case RD.VERT_SHADER:
        out('vertex shader:');
        out(text(d));
        break;
      case RD.FRAG_SHADER:
        out('fragment shader:');
        out(text(d));
        break;
      case RD.GPUADDR:
        if (needsReset) {
          mem = new Memory();
          if (printer) printer.mem = mem;
          if (walker) {
            walker.mem = mem;
            walker.dumped.clear();
          }
          needsReset = false;
        }
        pending = addr(d);
        break;
      case RD.BUFFER_CONTENTS: {
        if (!pending) break;
        const { iova, len } = pending;
        pending = undefined;
        const size = Math.min(len || d.length, d.length);
        if (!size || iova + size > 2 ** 53) break;
        for (const seg of [...mem.segments]) if (seg.base < iova + size && iova < seg.end) mem.unmap(seg.base);
        try {
          mem.map(iova, size, 'bo', d.slice(0, size));
        } catch {
          /* unmappable (e.g. beyond the VA limit): left out, as an unknown buffer */
        }
        break;
      }
      case RD.CMDSTREAM_ADDR: {
        const a = addr(d);
        if (opts.frame === undefined || opts.frame === submit) {
          if (!printer) setup();
          out('############################################################');
          out(`cmdstream[${submit}]: ${a.len} dwords`);
          if (!skip) {
            sum.submits++;
            const before = walker!.packets;
            if (mem.find(a.iova, 1)) walker!.walk(a.iova, a.len, 1, 'IB1');
            else out('NULL cmd buffer!');
            sum.packets += walker!.packets - before;
          }
          out('############################################################');
          out('vertices: 0');
        }
        needsReset = true;
        submit++;
        break;
      }
      case RD.GPU_ID:
        if (!got && d.length >= 4) {
          const id = u32le(d, 0);
          if (!id) break;
          out(`gpu_id: ${id}`);
          const g = genFromGpuId(id);
          if (!g) break;
          gpuId = id;
          gen = opts.gen ?? g;
          got = true;
          setup();
        }
        break;
      case RD.CHIP_ID:
        if (!got && d.length >= 8) {
          const lo = u32le(d, 0);
          const hi = u32le(d, 4);
          out(`chip_id: 0x${(hi * 2 ** 32 + lo).toString(16)}`);
          const g = genFromChipId(lo, hi);
          if (!g) break;
          gen = opts.gen ?? g;
          gpuId = ((lo >>> 24) & 0xff) * 100 + ((lo >>> 16) & 0xff) * 10 + ((lo >>> 8) & 0xff);
          got = true;
          setup();
        }
        break;
      default:
        break;
    }
  }
  // cffdump says so only for a section size that is negative as an int; a short last section is read as far as it goes.
  if (f.warnings.some((w) => Number(/truncated: (\d+) bytes declared/.exec(w)?.[1] ?? 0) >= 2 ** 31)) out('corrupt file');
  sum.gen = gen;
  return sum;
}
