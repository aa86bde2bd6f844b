/**
 * An afuc (SQE) emulator, following the seed's description of the firmware's world:
 * 32 GPRs ($00 reads as zero, $sp, $lr) with the FIFO registers ($data pops the ROQ and counts
 * down $rem, $regdata / $memdata pop the register and memory read FIFOs, writes to $addr /
 * $usraddr select a GPU register — or a pipe register when bits 24+ are set — and writes to $data
 * store there with auto-increment), the 12-bit control register space (REG_WRITE_ADDR/REG_WRITE,
 * REG_READ_DWORDS/REG_READ_ADDR, MEM_READ_ADDR/MEM_READ_DWORDS, PACKET_TABLE_WRITE(_ADDR),
 * WFI_PEND_INCR/WFI_PEND_CTR, LOAD_STORE_HI, SCRATCH_REG0..7), the 8-bit pipe register space
 * (NRT_ADDR/NRT_DATA memory writes, WFI_PEND_DECR applied with a pipeline latency, WAIT_MEM_WRITES,
 * WAIT_FOR_IDLE), (rep) and (xmovN), delay-slot branches, call/ret through the SQE stack,
 * `waitin` dispatching the next packet through the jump table.
 */
import { Memory } from '../../core/memory.js';
import { Diagnostics } from '../../core/diagnostics.js';
import { registerSpace, gpuRegs, type Gen, type RegisterSpace } from '../regs/db.js';
import { decodeHeader } from '../cp/pm4.js';
import { decode, afucGen, type AfucGen, type Decoded } from './isa.js';
import { renderInstr } from './fdtext.js';
import { chipForGen, type AfucChip } from './names.js';

const SEED = '004_0583f9f0ffcacefd.txt';
export const REG_REM = 0x1c;
export const REG_MEMDATA = 0x1d;
export const REG_ADDR = 0x1d;
export const REG_REGDATA = 0x1e;
export const REG_USRADDR = 0x1e;
export const REG_DATA = 0x1f;
/** Cycles before a pipelined WFI_PEND_DECR reaches the counter. */
const PIPE_LATENCY = 3;

export type EmuStop = 'idle' | 'breakpoint' | 'budget' | 'error' | 'running';

export interface AfucEmuOptions {
  readonly gen?: Gen;
  readonly mem?: Memory;
  readonly diag?: Diagnostics;
  /** IOVA the firmware image is loaded at (CP_SQE_INSTR_BASE). */
  readonly instrBase?: number;
  /** Called for each executed instruction (tracing). */
  readonly onStep?: (pc: number, text: string) => void;
  /**
   * Which microcontroller this image runs on: the SQE finds itself through the GPU register
   * CP_SQE_INSTR_BASE, a7xx BV / LPAC through the BV_INSTR_BASE / LPAC_INSTR_BASE control registers.
   */
  readonly processor?: 'SQE' | 'BV' | 'LPAC';
  /** Control register domain (default by generation; a750 firmware uses A7XX_GEN3_CONTROL_REG). */
  readonly controlDomain?: string;
  /** Initial control register values (chip state the firmware's bootstrap reads). */
  readonly control?: ReadonlyMap<number, number>;
}

export class AfucEmu {
  readonly gen: Gen;
  readonly agen: AfucGen;
  readonly fw: Uint32Array;
  readonly code: (Decoded | undefined)[];
  readonly mem: Memory;
  readonly diag: Diagnostics;
  readonly gpr = new Uint32Array(32);
  readonly control = new Uint32Array(0x1000);
  readonly sqe = new Uint32Array(0x1000);
  /** GPU registers (the CP's immediate view). */
  readonly regs = new Uint32Array(0x40000);
  readonly jmptbl = new Uint32Array(128);
  /**
   * The 32 draw-state groups as the SQE's draw-state control registers expose them (CP_SET_DRAW_STATE):
   * DRAW_STATE_SET_HDR records a group's count and mode mask (its (sdsN) modifier the base), and
   * DRAW_STATE_SEL selects one for DRAW_STATE_HDR / DRAW_STATE_BASE and its own SDS_BASE / SDS_DWORDS.
   */
  readonly drawState = Array.from({ length: 32 }, () => ({ hdr: 0, base: 0, sdsBase: 0, sdsDwords: 0 }));
  private prevDrawStateSel = 0;
  pc = 0;
  carry = 0;
  steps = 0;
  /** The ROQ queues: RB at the bottom, then IB1, IB2 as the firmware starts them (IB1_DWORDS / IB2_DWORDS). */
  private queues: { name: 'RB' | 'IB1' | 'IB2'; data: number[]; pos: number }[] = [{ name: 'RB', data: [], pos: 0 }];
  private get roqTop(): { name: 'RB' | 'IB1' | 'IB2'; data: number[]; pos: number } {
    return this.queues[this.queues.length - 1]!;
  }
  private regFifo: number[] = [];
  private memFifo: number[] = [];
  /** $addr state: GPU register address or pipe register (when `pipe`). */
  private gpuAddr = 0;
  private pipeAddr = 0;
  private pipe = false;
  private nrtAddr = 0;
  private memReadAddr = 0;
  private pending: { at: number; fn: () => void }[] = [];
  private branchTo = -1;
  readonly breakpoints = new Set<number>();
  stopped: EmuStop = 'running';
  /** Packets dispatched by `waitin`. */
  packets = 0;
  private readonly C: Record<string, number>;
  readonly controlSpace: RegisterSpace;
  private readonly P: Record<string, number>;
  private readonly onStep: ((pc: number, text: string) => void) | undefined;
  /** Register spaces for instruction text (the same names afuc-disasm prints). */
  readonly chip: AfucChip;

  constructor(fw: Uint32Array, opts: AfucEmuOptions = {}) {
    this.gen = opts.gen ?? 'a6xx';
    this.agen = afucGen(this.gen);
    this.fw = fw;
    this.code = Array.from(fw, (w) => decode(w, this.agen));
    this.mem = opts.mem ?? new Memory();
    this.diag = opts.diag ?? new Diagnostics();
    this.onStep = opts.onStep;
    const cs = registerSpace(opts.controlDomain ?? (this.agen === 7 ? 'A7XX_CONTROL_REG' : 'A6XX_CONTROL_REG'), this.gen);
    const ps = registerSpace(this.agen === 7 ? 'A7XX_PIPE_REG' : 'A6XX_PIPE_REG', this.gen);
    this.controlSpace = cs;
    this.chip = chipForGen(this.agen === 7 ? 'a7xx' : this.agen === 5 ? 'a5xx' : 'a6xx', cs.domain);
    const c = (n: string): number => cs.offsetOf(n) ?? -1;
    const p = (n: string): number => ps.offsetOf(n) ?? -1;
    this.C = {
      REG_WRITE_ADDR: c('REG_WRITE_ADDR'), REG_WRITE: c('REG_WRITE'), REG_READ_DWORDS: c('REG_READ_DWORDS'), REG_READ_ADDR: c('REG_READ_ADDR'),
      MEM_READ_ADDR: c('MEM_READ_ADDR'), MEM_READ_DWORDS: c('MEM_READ_DWORDS'), WFI_PEND_INCR: c('WFI_PEND_INCR'), WFI_PEND_CTR: c('WFI_PEND_CTR'),
      PACKET_TABLE_WRITE_ADDR: c('PACKET_TABLE_WRITE_ADDR'), PACKET_TABLE_WRITE: c('PACKET_TABLE_WRITE'), LOAD_STORE_HI: c('LOAD_STORE_HI'),
      IB1_BASE: c('IB1_BASE'), IB1_DWORDS: c('IB1_DWORDS'), IB2_BASE: c('IB2_BASE'), IB2_DWORDS: c('IB2_DWORDS'), IB_LEVEL: c('IB_LEVEL'),
      DRAW_STATE_SET_HDR: c('DRAW_STATE_SET_HDR'), DRAW_STATE_SEL: c('DRAW_STATE_SEL'), DRAW_STATE_HDR: c('DRAW_STATE_HDR'), DRAW_STATE_BASE: c('DRAW_STATE_BASE'),
      DRAW_STATE_ACTIVE_BITMASK: c('DRAW_STATE_ACTIVE_BITMASK'), SDS_BASE: c('SDS_BASE'), SDS_DWORDS: c('SDS_DWORDS'),
    };
    this.P = { NRT_ADDR: p('NRT_ADDR'), NRT_DATA: p('NRT_DATA'), WFI_PEND_DECR: p('WFI_PEND_DECR'), WAIT_MEM_WRITES: p('WAIT_MEM_WRITES'), WAIT_FOR_IDLE: p('WAIT_FOR_IDLE') };
    const base = opts.instrBase ?? 0x0f00_0000;
    if (!this.mem.find(base, Math.max(fw.length * 4, 4))) {
      // At least one dword is mapped, so an empty image is a pc-out-of-range stop, not a crash.
      const image = new Uint8Array(Math.max(fw.length * 4, 4));
      image.set(new Uint8Array(fw.slice().buffer));
      this.mem.map(base, image.length, 'sqe-fw', image);
    }
    const proc = opts.processor ?? 'SQE';
    const r = proc === 'SQE' ? gpuRegs(this.gen).reg('CP_SQE_INSTR_BASE') : proc === 'LPAC' && this.agen === 6 ? gpuRegs(this.gen).reg('CP_LPAC_SQE_INSTR_BASE') : -1;
    if (r >= 0) {
      this.regs[r] = base >>> 0;
      this.regs[r + 1] = Math.floor(base / 2 ** 32) >>> 0;
    } else {
      const c = cs.offsetOf(proc === 'BV' ? 'BV_INSTR_BASE' : 'LPAC_INSTR_BASE');
      if (c !== undefined) {
        this.control[c] = base >>> 0;
        this.control[c + 1] = Math.floor(base / 2 ** 32) >>> 0;
      }
    }
    for (const [a, v] of opts.control ?? []) this.control[a & 0xfff] = v >>> 0;
  }

  /** A control register by name in this emulator's domain (64-bit pairs read with `hi`). */
  controlReg(name: string): number | undefined {
    const o = this.controlSpace.offsetOf(name);
    return o === undefined ? undefined : this.control[o];
  }

  private report(id: string, message: string): void {
    this.diag.report({ id, severity: 'error', where: { pc: '0x' + this.pc.toString(16) }, message, seed: SEED });
  }

  /** Queue packet dwords into the ROQ. */
  feed(dwords: ArrayLike<number>): void {
    const rb = this.queues[0]!;
    for (let i = 0; i < dwords.length; i++) rb.data.push(dwords[i]! >>> 0);
  }

  /** Current IB level (0 ring buffer, 1 IB1, 2 IB2). */
  get ibLevel(): number {
    return this.queues.length - 1;
  }

  private pushIb(name: 'IB1' | 'IB2', baseReg: number, dwords: number): void {
    const base = this.control[baseReg + 1]! * 2 ** 32 + this.control[baseReg]!;
    if (this.queues.length >= 3) {
      this.report('afuc.ib-too-deep', `${name} started at IB level ${this.ibLevel}`);
      throw new EmuError('error');
    }
    const data: number[] = [];
    for (let k = 0; k < dwords; k++) data.push(this.mem.read32(base + 4 * k));
    this.queues.push({ name, data, pos: 0 });
    if (this.C['IB_LEVEL']! >= 0) this.control[this.C['IB_LEVEL']!] = this.ibLevel;
  }

  get rem(): number {
    return this.gpr[REG_REM]!;
  }

  // ---- operands ----------------------------------------------------------------------------

  private readSrc(r: number, peek = false): number {
    switch (r) {
      case 0:
        return 0;
      case REG_REM:
        return this.gpr[REG_REM]!;
      case REG_MEMDATA:
        return this.memFifo.length ? this.memFifo.shift()! : (this.report('afuc.fifo-underflow', 'read of $memdata with an empty memory read FIFO'), 0);
      case REG_REGDATA:
        return this.regFifo.length ? this.regFifo.shift()! : (this.report('afuc.fifo-underflow', 'read of $regdata with an empty register read FIFO'), 0);
      case REG_DATA: {
        const q = this.roqTop;
        if (q.pos >= q.data.length) {
          this.report('afuc.roq-underflow', 'read of $data with no packet data in the ROQ (the SQE would stall forever)');
          throw new EmuError('error');
        }
        const v = q.data[q.pos]!;
        if (!peek) {
          q.pos++;
          if (this.gpr[REG_REM]! > 0) this.gpr[REG_REM]!--;
        }
        return v;
      }
      default:
        return this.gpr[r]!;
    }
  }

  private writeDst(r: number, v: number): void {
    v >>>= 0;
    switch (r) {
      case 0:
        return;
      case REG_REM:
        this.gpr[REG_REM] = v;
        return;
      case REG_ADDR:
      case REG_USRADDR:
        if (v >>> 24) {
          this.pipe = true;
          this.pipeAddr = v >>> 24;
          if (this.pipeAddr === this.P['WFI_PEND_DECR'] || this.pipeAddr === this.P['WAIT_MEM_WRITES'] || this.pipeAddr === this.P['WAIT_FOR_IDLE']) this.pipeWrite(this.pipeAddr, 0);
        } else {
          this.pipe = false;
          this.gpuAddr = v & 0x3ffff;
        }
        return;
      case REG_DATA:
        if (this.pipe) {
          this.pipeWrite(this.pipeAddr, v);
          if (this.pipeAddr !== this.P['NRT_DATA']) this.pipeAddr++;
        } else this.regs[this.gpuAddr++ & 0x3ffff] = v;
        return;
      default:
        this.gpr[r] = v;
    }
  }

  private pipeWrite(a: number, v: number): void {
    if (a === this.P['NRT_ADDR']) this.nrtAddr = (this.nrtAddr - (this.nrtAddr % 2 ** 32)) + v;
    else if (a === this.P['NRT_ADDR']! + 1) this.nrtAddr = (this.nrtAddr % 2 ** 32) + v * 2 ** 32;
    else if (a === this.P['NRT_DATA']) {
      this.mem.write32(this.nrtAddr, v);
      this.nrtAddr += 4;
    } else if (a === this.P['WFI_PEND_DECR']) {
      this.pending.push({ at: this.steps + PIPE_LATENCY, fn: () => (this.control[this.C['WFI_PEND_CTR']!] = Math.max(0, this.control[this.C['WFI_PEND_CTR']!]! - 1)) });
    }
  }

  private cwrite(a: number, v: number): void {
    a &= 0xfff;
    v >>>= 0;
    const C = this.C;
    this.control[a] = v;
    if (a === C['REG_WRITE_ADDR']) this.gpuAddr = v & 0x3ffff;
    else if (a === C['REG_WRITE']) this.regs[this.gpuAddr++ & 0x3ffff] = v;
    else if (a === C['REG_READ_ADDR']) {
      const n = this.control[C['REG_READ_DWORDS']!]! || 1;
      for (let k = 0; k < n; k++) this.regFifo.push(this.regs[(v + k) & 0x3ffff]!);
    } else if (a === C['MEM_READ_ADDR']) this.memReadAddr = (this.memReadAddr - (this.memReadAddr % 2 ** 32)) + v;
    else if (a === C['MEM_READ_ADDR']! + 1) this.memReadAddr = (this.memReadAddr % 2 ** 32) + v * 2 ** 32;
    else if (a === C['MEM_READ_DWORDS']) {
      for (let k = 0; k < v; k++) this.memFifo.push(this.mem.read32(this.memReadAddr + 4 * k));
    } else if (a === C['PACKET_TABLE_WRITE']) {
      const i = this.control[C['PACKET_TABLE_WRITE_ADDR']!]!;
      if (i < this.jmptbl.length) this.jmptbl[i] = v;
      this.control[C['PACKET_TABLE_WRITE_ADDR']!] = i + 1;
    } else if (a === C['WFI_PEND_INCR']) this.control[C['WFI_PEND_CTR']!] = this.control[C['WFI_PEND_CTR']!]! + 1;
    else if (a === C['DRAW_STATE_SET_HDR']) {
      const g = this.drawState[(v >>> 24) & 0x1f]!;
      g.hdr = ((v & 0xffff) | (((v >>> 20) & 7) << 20)) >>> 0;
      this.control[C['DRAW_STATE_ACTIVE_BITMASK']!] = (this.control[C['DRAW_STATE_ACTIVE_BITMASK']!]! | (1 << ((v >>> 24) & 0x1f))) >>> 0;
    } else if (a === C['DRAW_STATE_SEL']) {
      const g = this.drawState[v & 0x1f]!;
      const sb = C['SDS_BASE']!;
      const prev = this.drawState[this.prevDrawStateSel]!;
      prev.sdsBase = this.control[sb + 1]! * 2 ** 32 + this.control[sb]!;
      prev.sdsDwords = this.control[C['SDS_DWORDS']!]!;
      this.control[C['DRAW_STATE_HDR']!] = g.hdr;
      this.control[C['DRAW_STATE_BASE']!] = g.base >>> 0;
      this.control[C['DRAW_STATE_BASE']! + 1] = Math.floor(g.base / 2 ** 32) >>> 0;
      this.control[sb] = g.sdsBase >>> 0;
      this.control[sb + 1] = Math.floor(g.sdsBase / 2 ** 32) >>> 0;
      this.control[C['SDS_DWORDS']!] = g.sdsDwords;
      this.prevDrawStateSel = v & 0x1f;
    } else if (a === C['IB1_DWORDS']) this.pushIb('IB1', C['IB1_BASE']!, v);
    else if (a === C['IB2_DWORDS']) this.pushIb('IB2', C['IB2_BASE']!, v);
  }

  private cread(a: number): number {
    return this.control[a & 0xfff]!;
  }

  // ---- execution ---------------------------------------------------------------------------

  /** Execute until idle (waitin with an empty ROQ), a breakpoint, an error or `maxSteps`. */
  run(maxSteps = 1_000_000): EmuStop {
    this.stopped = 'running';
    let first = true;
    while (this.stopped === 'running') {
      if (!first && this.breakpoints.has(this.pc)) {
        this.stopped = 'breakpoint';
        break;
      }
      first = false;
      if (maxSteps-- <= 0) {
        this.stopped = 'budget';
        break;
      }
      this.step();
    }
    return this.stopped;
  }

  /** Execute one instruction (with its delay slot semantics). */
  step(): void {
    try {
      this.stepInner();
    } catch (e) {
      if (e instanceof EmuError) this.stopped = e.reason;
      else throw e;
    }
  }

  private stepInner(): void {
    const pc = this.pc;
    if (pc < 0 || pc >= this.fw.length) {
      this.report('afuc.pc-out-of-range', `PC 0x${pc.toString(16)} is outside the ${this.fw.length}-instruction firmware`);
      throw new EmuError('error');
    }
    const d = this.code[pc];
    if (!d) {
      // Data literals (the firmware version, the jump table offset) execute as nop: words with
      // the top five bits clear, which on a6xx+ means a 0x01 high byte (afuc.xml: all-zero words
      // are illegal there). Anything else is an illegal instruction.
      const w = this.fw[pc]!;
      if (w >>> 27 !== 0 || (this.agen >= 6 && w >>> 24 !== 1)) {
        this.report('afuc.illegal-instruction', `illegal instruction 0x${this.fw[pc]!.toString(16).padStart(8, '0')}`);
        throw new EmuError('error');
      }
      this.onStep?.(pc, `[${this.fw[pc]!.toString(16).padStart(8, '0')}]`);
      this.steps++;
      const delayed = this.branchTo;
      this.branchTo = -1;
      this.pc = delayed >= 0 ? delayed : pc + 1;
      return;
    }
    if (this.onStep) this.onStep(pc, renderInstr(d, this.chip));
    this.steps++;
    for (let i = 0; i < this.pending.length; ) {
      if (this.pending[i]!.at <= this.steps) {
        this.pending[i]!.fn();
        this.pending.splice(i, 1);
      } else i++;
    }
    const delayed = this.branchTo;
    this.branchTo = -1;
    this.pc = pc + 1;
    this.exec(d, pc);
    if (delayed >= 0 && this.branchTo < 0) this.pc = delayed;
  }

  private exec(d: Decoded, pc: number): void {
    const f = d.f;
    const name = d.form.name;
    const rep = f['REP'] === 1;
    const once = (): void => this.execOnce(d, pc);
    if (!rep) {
      once();
      this.xmov(d);
      return;
    }
    // (rep): repeat until $rem reaches zero; each pass that does not read $data counts it down.
    let guard = 0;
    while (this.gpr[REG_REM]! > 0) {
      const before = this.gpr[REG_REM]!;
      once();
      this.xmov(d);
      if (this.gpr[REG_REM]! === before && this.gpr[REG_REM]! > 0) this.gpr[REG_REM]!--;
      if (++guard > 1 << 20) {
        this.report('afuc.rep-runaway', `(rep) ${name} ran more than 2^20 times`);
        throw new EmuError('error');
      }
    }
  }

  private xmov(d: Decoded): void {
    const n = d.f['XMOV'] ?? 0;
    if (!n) return;
    const k = Math.min(n, this.gpr[REG_REM]!);
    for (let i = 0; i < k; i++) this.writeDst(REG_DATA, this.readSrc(d.f['SRC2'] ?? REG_DATA));
  }

  private execOnce(d: Decoded, pc: number): void {
    const f = d.f;
    const n = d.form.name;
    const imm = f['RIMMED'] ?? f['IMMED'] ?? 0;
    const two = (op: (a: number, b: number) => number): void => {
      const a = this.readSrc(f['SRC1']!);
      const b = this.readSrc(f['SRC2']!, f['PEEK'] === 1);
      this.writeDst(f['DST']!, op(a, b));
    };
    const twoI = (op: (a: number, b: number) => number): void => {
      const a = this.readSrc(f['SRC1']!);
      this.writeDst(f['DST']!, op(a, imm));
    };
    const kind = aluKind(d);
    if (kind === 1) return two(ALU[n]!.bind(null, this));
    if (kind === 2) return twoI(ALU[n.slice(0, -1)]!.bind(null, this));
    const target = (): number => {
      const off = f['OFFSET']!;
      return pc + (off & 0x8000 ? off - 0x10000 : off);
    };
    const ctrlAddr = (): number => {
      const off = f['OFFSET'] ?? 0;
      const baseImm = f['BASE'] ?? f['IMMED'] ?? 0;
      let a = this.gpr[off]! + baseImm;
      if (off === 0) a = baseImm;
      if (f['PREINCREMENT'] && off !== 0) this.gpr[off] = a >>> 0;
      return a >>> 0;
    };
    switch (n) {
      case 'not':
        return this.writeDst(f['DST']!, ~this.readSrc(f['SRC1']!) >>> 0);
      case 'noti':
        return this.writeDst(f['DST']!, ~imm >>> 0);
      case 'msb': {
        const v = this.readSrc(f['SRC1']!);
        return this.writeDst(f['DST']!, v ? 31 - Math.clz32(v) : 0);
      }
      case 'movi':
        return this.writeDst(f['DST']!, (imm << (f['SHIFT']! & 31)) >>> 0);
      case 'setbiti':
        return this.writeDst(f['DST']!, (this.readSrc(f['SRC']!) | (1 << f['BIT']!)) >>> 0);
      case 'clrbit':
        return this.writeDst(f['DST']!, (this.readSrc(f['SRC']!) & ~(1 << f['BIT']!)) >>> 0);
      case 'ubfx': {
        const w = f['HI']! - f['LO']! + 1;
        const v = this.readSrc(f['SRC']!) >>> f['LO']!;
        return this.writeDst(f['DST']!, w >= 32 ? v : v & ((1 << w) - 1));
      }
      case 'bfi': {
        const w = f['HI']! - f['LO']! + 1;
        const mask = (w >= 32 ? 0xffffffff : ((1 << w) - 1) << f['LO']!) >>> 0;
        const cur = this.gpr[f['DST']!]!;
        return this.writeDst(f['DST']!, ((cur & ~mask) | ((this.readSrc(f['SRC']!) << f['LO']!) & mask)) >>> 0);
      }
      case 'cwrite': {
        const a = ctrlAddr();
        this.cwrite(a, this.readSrc(f['SRC']!));
        // (sdsN): N more reads of the source give the draw-state group's base address dwords.
        for (let k = 0; k < (f['SDS'] ?? 0); k++) {
          const v = this.readSrc(f['SRC']!);
          if ((a & 0xfff) === this.C['DRAW_STATE_SET_HDR']) {
            const g = this.drawState[(this.control[a & 0xfff]! >>> 24) & 0x1f]!;
            g.base = k === 0 ? g.base - (g.base % 2 ** 32) + v : (g.base % 2 ** 32) + v * 2 ** 32;
          }
        }
        return;
      }
      case 'cread':
        return this.writeDst(f['DST']!, this.cread(ctrlAddr()));
      case 'swrite':
        this.sqe[ctrlAddr() & 0xfff] = this.readSrc(f['SRC']!);
        return;
      case 'sread':
        return this.writeDst(f['DST']!, this.sqe[ctrlAddr() & 0xfff]!);
      case 'store': {
        const v = this.readSrc(f['SRC']!);
        const a = this.control[this.C['LOAD_STORE_HI']!]! * 2 ** 32 + ctrlAddr();
        this.mem.write32(a, v);
        return;
      }
      case 'load': {
        const a = this.control[this.C['LOAD_STORE_HI']!]! * 2 ** 32 + ctrlAddr();
        return this.writeDst(f['DST']!, this.mem.read32(a));
      }
      case 'brnei':
        if (this.readSrc(f['SRC']!) !== f['IMMED']) this.branchTo = target();
        return;
      case 'breqi':
        if (this.readSrc(f['SRC']!) === f['IMMED']) this.branchTo = target();
        return;
      case 'brneb':
        if (!((this.readSrc(f['SRC']!) >>> f['BIT']!) & 1)) this.branchTo = target();
        return;
      case 'breqb':
        if ((this.readSrc(f['SRC']!) >>> f['BIT']!) & 1) this.branchTo = target();
        return;
      case 'call': {
        const sp = this.sqe[5]!;
        if (sp >= 8) {
          this.report('afuc.stack-overflow', 'call with the 8-entry SQE return stack full');
          throw new EmuError('error');
        }
        this.sqe[8 + sp] = pc + 2;
        this.sqe[5] = sp + 1;
        this.branchTo = f['TARGET']!;
        return;
      }
      case 'ret':
      case 'iret': {
        const sp = this.sqe[5]!;
        if (sp === 0) {
          this.report('afuc.stack-underflow', 'ret with an empty SQE return stack');
          throw new EmuError('error');
        }
        this.sqe[5] = sp - 1;
        this.branchTo = this.sqe[8 + sp - 1]!;
        return;
      }
      case 'bl':
        this.gpr[0x1b] = pc + 2;
        this.branchTo = f['TARGET']!;
        return;
      case 'jumpa':
        this.branchTo = f['TARGET']!;
        return;
      case 'jumpr':
        this.branchTo = this.readSrc(f['SRC1']!);
        return;
      case 'sret':
        this.branchTo = this.gpr[0x1b]!;
        return;
      case 'setsecure':
        this.pc = pc + 3;
        return;
      case 'nop':
        return;
      case 'waitin':
        return this.waitin();
      default:
        this.report('afuc.unmodelled', `${n} is not modelled by the emulator`);
        throw new EmuError('error');
    }
  }

  /** waitin: look at the next packet header, set $rem to header + payload, branch (after the delay slot) to its handler. */
  private waitin(): void {
    // Finished IBs return to the level that called them.
    while (this.queues.length > 1 && this.roqTop.pos >= this.roqTop.data.length) {
      this.queues.pop();
      if (this.C['IB_LEVEL']! >= 0) this.control[this.C['IB_LEVEL']!] = this.ibLevel;
    }
    const q = this.roqTop;
    if (q.pos > 4096) {
      q.data = q.data.slice(q.pos);
      q.pos = 0;
    }
    if (q.pos >= q.data.length) {
      this.pc = this.pc - 1; // stay on waitin
      this.stopped = 'idle';
      return;
    }
    const hdr = q.data[q.pos]!;
    const h = decodeHeader(hdr, this.gen);
    let entry: number;
    if (h.type === 7) entry = h.opcode;
    else if (h.type === 4) entry = 4; // the PKT4 slot of the packet table
    else {
      this.report('afuc.bad-packet', `ROQ holds 0x${hdr.toString(16).padStart(8, '0')}, not a type-4/7 header`);
      throw new EmuError('error');
    }
    if (!h.parityOk) {
      this.report('afuc.bad-packet', `packet header 0x${hdr.toString(16).padStart(8, '0')} fails its parity check`);
      throw new EmuError('error');
    }
    if (q.pos + 1 + h.count > q.data.length) {
      this.report('afuc.bad-packet', `packet needs ${h.count} payload dwords, the ${q.name} queue has ${q.data.length - q.pos - 1}`);
      throw new EmuError('error');
    }
    this.gpr[REG_REM] = h.count + 1;
    this.packets++;
    this.branchTo = this.jmptbl[entry]!;
  }

  /** Register dump lines. */
  dump(): string[] {
    const out: string[] = [`pc 0x${this.pc.toString(16).padStart(4, '0')}  steps ${this.steps}  packets ${this.packets}  carry ${this.carry}  $rem ${this.gpr[REG_REM]}  sp ${this.sqe[5]}  WFI_PEND_CTR ${this.control[this.C['WFI_PEND_CTR']!]}`];
    for (let r = 0; r < 0x1c; r += 8) {
      out.push(Array.from({ length: 8 }, (_, k) => `$${(r + k).toString(16).padStart(2, '0')}=${this.gpr[r + k]!.toString(16).padStart(8, '0')}`).join(' '));
    }
    return out;
  }
}

const sh = (b: number): number => b & 31;
/** Two-source ALU operations (register and immediate forms share them). */
const ALU: Record<string, (e: AfucEmu, a: number, b: number) => number> = {
  add: (e, a, b) => {
    const s = a + b;
    e.carry = s > 0xffffffff ? 1 : 0;
    return s >>> 0;
  },
  addhi: (e, a, b) => (a + b + e.carry) >>> 0,
  sub: (e, a, b) => {
    e.carry = a < b ? 1 : 0;
    return (a - b) >>> 0;
  },
  subhi: (e, a, b) => (a - b - e.carry) >>> 0,
  and: (_e, a, b) => (a & b) >>> 0,
  or: (_e, a, b) => (a | b) >>> 0,
  xor: (_e, a, b) => (a ^ b) >>> 0,
  shl: (_e, a, b) => (a << sh(b)) >>> 0,
  ushr: (_e, a, b) => a >>> sh(b),
  ishr: (_e, a, b) => (a >> sh(b)) >>> 0,
  rot: (_e, a, b) => (sh(b) ? ((a << sh(b)) | (a >>> (32 - sh(b)))) >>> 0 : a),
  mul8: (_e, a, b) => (a & 0xff) * (b & 0xff),
  min: (_e, a, b) => Math.min(a >>> 0, b >>> 0),
  max: (_e, a, b) => Math.max(a >>> 0, b >>> 0),
  cmp: (_e, a, b) => (a > b ? 0x00 : a === b ? 0x2b : 0x1e),
  bic: (_e, a, b) => (a & ~b) >>> 0,
  setbit: (_e, a, b) => ((b & 1 ? a | (1 << ((b >>> 1) & 31)) : a & ~(1 << ((b >>> 1) & 31))) >>> 0),
};

const aluKinds = new WeakMap<object, number>();
/** 1: two-register ALU form, 2: register-immediate ALU form, 0: other. Cached per form. */
function aluKind(d: Decoded): number {
  let k = aluKinds.get(d.form);
  if (k === undefined) {
    const n = d.form.name;
    if (ALU[n] && d.form.fields.some((x) => x[0] === 'SRC2')) k = 1;
    else if (n.endsWith('i') && n !== 'setbiti' && ALU[n.slice(0, -1)]) k = 2;
    else k = 0;
    aluKinds.set(d.form, k);
  }
  return k;
}

class EmuError extends Error {
  readonly reason: EmuStop;
  constructor(reason: EmuStop) {
    super(reason);
    this.reason = reason;
  }
}
