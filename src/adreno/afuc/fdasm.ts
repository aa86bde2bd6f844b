/**
 * afuc assembler for freedreno's firmware source syntax, writing what `afuc-asm` writes:
 *
 *   file     a zero dword (the kernel strips it), then every section's words
 *   sections `.section NAME` pads the current one with nop to 32 bytes and starts the next
 *            (a7xx: SQE, then BV, then LPAC microcode); labels belong to their section
 *   [xxxxxxxx]   a raw word; the first one (the version) sets the generation from its
 *            firmware id unless one is forced
 *   [#label]     the label's offset as a nop literal (0x01xxxxxx on a6xx+): the jump table offset
 *   .jumptbl     0x80 words: packet id -> offset of the label named after the packet
 *            (`CP_ME_INIT:`, `PKT4:`, `IN_PREEMPT:` ... or `UNKN<id>:`)
 *   .align N     nop up to an N-byte boundary
 *   instructions `(rep)`, `(xmovN)`, `(peek)`, `(sdsN)` prefixes; registers `$00`..`$1f`, `$rem`,
 *            `$data`, `$addr`...; immediates decimal or `0x` hex, `@CONTROL_REG`, `%SQE_REG`,
 *            either `+ N`; `b<bit>`; `#label` branch targets and `mov $02, #label` offsets
 *   comments `;` to the end of the line
 *
 * The encodings come from the generated afuc.xml tables (afuc.gen.ts), the same ones the
 * disassembler and the emulator decode with.
 */
import { AFUC_FORMS, type AfucForm } from './afuc.gen.js';
import { decode, nopLiteral, type AfucGen } from './isa.js';
import { fwIdInfo } from './fwfile.js';
import { chipForGen, controlRegOffset, packetId, sqeRegOffset, type AfucChip } from './names.js';

export class FdAsmError extends Error {
  override readonly name = 'FdAsmError';
}

type TokKind = 'int' | 'reg' | 'bit' | 'creg' | 'sreg' | 'lref' | 'lit' | 'word' | 'dir' | 'pre' | 'p';

interface Tok {
  readonly k: TokKind;
  readonly s: string;
  readonly line: number;
  /** Numeric value (int, reg, bit, lit, xmov/sds prefixes). */
  readonly v: number;
}

const REG_ALIASES: Record<string, number> = { rem: 0x1c, memdata: 0x1d, addr: 0x1d, regdata: 0x1e, usraddr: 0x1e, data: 0x1f, sp: 0x1a, lr: 0x1b };

const OPS = new Set([
  'nop', 'add', 'addhi', 'sub', 'subhi', 'and', 'or', 'xor', 'not', 'shl', 'ushr', 'ishr', 'rot', 'mul8', 'min', 'max', 'cmp', 'bic',
  'msb', 'setbit', 'clrbit', 'ubfx', 'bfi', 'mov', 'cwrite', 'cread', 'swrite', 'sread', 'store', 'load', 'brne', 'breq', 'ret', 'iret',
  'call', 'jump', 'jumpa', 'sret', 'waitin', 'bl', 'setsecure',
]);

function lex(src: string): Tok[] {
  const out: Tok[] = [];
  let line = 1;
  let i = 0;
  const n = src.length;
  const err = (what: string): never => {
    throw new FdAsmError(`line ${line}: ${what}`);
  };
  const word = /[A-Za-z0-9_]/;
  while (i < n) {
    const c = src[i]!;
    if (c === '\n') {
      line++;
      i++;
      continue;
    }
    if (c === ' ' || c === '\t' || c === '\r') {
      i++;
      continue;
    }
    if (c === ';') {
      while (i < n && src[i] !== '\n') i++;
      continue;
    }
    const rest = src.slice(i, i + 64);
    let m: RegExpExecArray | null;
    if ((m = /^0x[0-9a-fA-F]*/.exec(rest)) || (m = /^(0|[1-9][0-9]*)/.exec(rest))) {
      const t = m[0];
      const big = t.startsWith('0x') ? (t.length > 2 ? BigInt(t) : 0n) : BigInt(t);
      if (big > 0xffffffffn) err(`number ${t} does not fit 32 bits`);
      out.push({ k: 'int', s: t, line, v: Number(big) });
      i += t.length;
      continue;
    }
    if ((m = /^\$([0-9a-fA-F]{2})(?![A-Za-z0-9])/.exec(rest)) || (m = /^\$([A-Za-z][A-Za-z0-9]*)/.exec(rest)) || (m = /^\$([0-9a-fA-F]{2})/.exec(rest))) {
      const name = m[1]!;
      let v = REG_ALIASES[name];
      if (v === undefined) {
        if (!/^[0-9a-fA-F]+$/.test(name)) err(`invalid register '$${name}'`);
        v = parseInt(name, 16);
      }
      if (v > 0x1f) err(`invalid register '$${name}' (registers are $00..$1f)`);
      out.push({ k: 'reg', s: m[0], line, v });
      i += m[0].length;
      continue;
    }
    if ((m = /^[@%#]([A-Za-z_][A-Za-z0-9_]*)/.exec(rest))) {
      out.push({ k: c === '@' ? 'creg' : c === '%' ? 'sreg' : 'lref', s: m[1]!, line, v: 0 });
      i += m[0].length;
      continue;
    }
    if ((m = /^\[([0-9a-fA-F]+)\]/.exec(rest))) {
      if (m[1]!.replace(/^0+/, '').length > 8) err(`literal [${m[1]}] does not fit 32 bits`);
      out.push({ k: 'lit', s: m[0], line, v: parseInt(m[1]!, 16) >>> 0 });
      i += m[0].length;
      continue;
    }
    if ((m = /^\((rep|peek|xmov[1-3]|sds[1-3])\)/.exec(rest))) {
      const p = m[1]!;
      out.push({ k: 'pre', s: p.replace(/\d$/, ''), line, v: /\d$/.test(p) ? parseInt(p.slice(-1), 10) : 1 });
      i += m[0].length;
      continue;
    }
    if ((m = /^\.(align|jumptbl|section)(?![A-Za-z0-9_])/.exec(rest))) {
      out.push({ k: 'dir', s: m[1]!, line, v: 0 });
      i += m[0].length;
      continue;
    }
    if (word.test(c) && !/[0-9]/.test(c)) {
      let j = i;
      while (j < n && word.test(src[j]!)) j++;
      const t = src.slice(i, j);
      if (/^b[0-9]+$/.test(t)) {
        const v = parseInt(t.slice(1), 10);
        if (v > 31) err(`bit ${t} out of range (b0..b31)`);
        out.push({ k: 'bit', s: t, line, v });
      } else out.push({ k: 'word', s: t, line, v: 0 });
      i = j;
      continue;
    }
    if (src.startsWith('<<', i)) {
      out.push({ k: 'p', s: '<<', line, v: 0 });
      i += 2;
      continue;
    }
    if (',[]+!:'.includes(c)) {
      out.push({ k: 'p', s: c, line, v: 0 });
      i++;
      continue;
    }
    err(`unknown token '${c}'`);
  }
  return out;
}

/** One parsed instruction (afuc-asm's struct afuc_instr), before labels are resolved. */
interface Instr {
  opc: string;
  line: number;
  rep?: boolean;
  xmov?: number;
  peek?: boolean;
  sds?: number;
  preincrement?: boolean;
  dst?: number;
  src1?: number;
  src2?: number;
  immed?: number;
  hasImmed?: boolean;
  shift?: number;
  bit?: number;
  hasBit?: boolean;
  label?: string;
  literal?: number;
}

interface Section {
  readonly instrs: Instr[];
  /** Labels in declaration order (the first of a name wins, as afuc-asm resolves them). */
  readonly labels: { name: string; offset: number }[];
  offset: number;
}

class Parser {
  private pos = 0;
  readonly sections: Section[] = [{ instrs: [], labels: [], offset: 0 }];

  readonly toks: Tok[];
  constructor(toks: Tok[]) {
    this.toks = toks;
  }

  private get sec(): Section {
    return this.sections[this.sections.length - 1]!;
  }
  private peek(o = 0): Tok | undefined {
    return this.toks[this.pos + o];
  }
  private fail(what: string, t = this.peek()): never {
    const at = t ? `line ${t.line}` : 'end of file';
    throw new FdAsmError(`${at}: ${what}${t ? ` at '${t.s}'` : ''}`);
  }
  private next(): Tok {
    const t = this.toks[this.pos];
    if (!t) this.fail('unexpected end of file');
    this.pos++;
    return t;
  }
  private isP(s: string, o = 0): boolean {
    const t = this.peek(o);
    return t?.k === 'p' && t.s === s;
  }
  private expectP(s: string): void {
    if (!this.isP(s)) this.fail(`expected '${s}'`);
    this.pos++;
  }
  private reg(): number {
    const t = this.next();
    if (t.k !== 'reg') this.fail('expected a register', t);
    return t.v;
  }
  private labelRef(): string {
    const t = this.next();
    if (t.k !== 'lref') this.fail('expected a #label', t);
    return t.s;
  }
  private bitTok(): number {
    const t = this.next();
    if (t.k !== 'bit') this.fail('expected a bit (b0..b31)', t);
    return t.v;
  }
  /** immediate: number | @CONTROL_REG [+ immediate] | %SQE_REG [+ immediate] */
  private immediate(): number {
    const t = this.next();
    if (t.k === 'int') return t.v;
    if (t.k === 'creg' || t.k === 'sreg') {
      const v = t.k === 'creg' ? controlRegOffset(t.s, this.chip()) : sqeRegOffset(t.s, this.chip());
      if (v === undefined) this.fail(`unknown ${t.k === 'creg' ? 'control' : 'SQE'} register`, t);
      if (this.isP('+')) {
        this.pos++;
        return (v + this.immediate()) >>> 0;
      }
      return v;
    }
    return this.fail('expected an immediate', t);
  }
  private isImmediate(): boolean {
    const k = this.peek()?.k;
    return k === 'int' || k === 'creg' || k === 'sreg';
  }
  /** Register names need the generation: set before parsing (forced, or the version literal's). */
  chipOverride: AfucChip | undefined;
  private chip(): AfucChip {
    if (!this.chipOverride) throw new Error('fdasm: parse() before the generation is known');
    return this.chipOverride;
  }

  private add(i: Instr): Instr {
    this.sec.instrs.push(i);
    this.sec.offset++;
    return i;
  }

  parse(): void {
    while (this.pos < this.toks.length) this.statement();
  }

  private statement(): void {
    const t = this.peek()!;
    if (t.k === 'word' && this.isP(':', 1)) {
      this.pos += 2;
      this.sec.labels.push({ name: t.s, offset: this.sec.offset });
      return;
    }
    if (t.k === 'dir') {
      this.pos++;
      if (t.s === 'align') {
        const n = this.immediate();
        const words = Math.floor(n / 4);
        if (!words) this.fail(`.align ${n}: the alignment must be at least 4 bytes`, t);
        while (this.sec.offset % words) this.add({ opc: 'nop', line: t.line });
      } else if (t.s === 'jumptbl') {
        this.sec.instrs.push({ opc: 'jumptbl', line: t.line });
        this.sec.offset += 0x80;
      } else {
        const name = this.next();
        if (name.k !== 'word') this.fail('expected a section name', name);
        // Sections are 32-byte aligned: pad the current one.
        while (this.sec.offset % 8) this.add({ opc: 'nop', line: t.line });
        this.sections.push({ instrs: [], labels: [], offset: 0 });
      }
      return;
    }
    if (t.k === 'lit') {
      this.pos++;
      this.add({ opc: 'literal', line: t.line, literal: t.v });
      return;
    }
    if (this.isP('[')) {
      this.pos++;
      const l = this.labelRef();
      this.expectP(']');
      this.add({ opc: 'literal', line: t.line, label: l });
      return;
    }
    if (t.k === 'pre') {
      let rep = false;
      if (t.s === 'rep') {
        rep = true;
        this.pos++;
      }
      const i = this.instrR(rep);
      if (!i) this.fail('expected an ALU, load or store instruction after the prefix');
      return;
    }
    if (t.k === 'word' && OPS.has(t.s)) {
      if (this.instrR(false)) return;
      this.other();
      return;
    }
    this.fail(t.k === 'word' ? `unknown instruction '${t.s}'` : 'expected an instruction, a label or a directive', t);
  }

  /** instr_r: [(xmovN)][(peek)] ALU | load | store (the forms that take (rep)). */
  private instrR(rep: boolean): Instr | undefined {
    let xmov = 0;
    let peek = false;
    let sds = 0;
    let t = this.peek();
    if (t?.k === 'pre' && t.s === 'xmov') {
      xmov = t.v;
      this.pos++;
      t = this.peek();
    }
    if (t?.k === 'pre' && t.s === 'peek') {
      peek = true;
      this.pos++;
      t = this.peek();
    }
    if (t?.k === 'pre' && t.s === 'sds' && !xmov && !peek) {
      sds = t.v;
      this.pos++;
      t = this.peek();
      if (t?.k !== 'word' || t.s !== 'cwrite') this.fail('(sdsN) goes with cwrite', t);
    }
    if (!t || t.k !== 'word') return undefined;
    const line = t.line;
    const op = t.s;
    const alu = ['add', 'addhi', 'sub', 'subhi', 'and', 'or', 'xor', 'shl', 'ushr', 'ishr', 'rot', 'mul8', 'min', 'max', 'cmp', 'bic'];
    let i: Instr | undefined;
    if (alu.includes(op) || ['msb', 'not', 'mov', 'setbit', 'clrbit', 'ubfx', 'bfi'].includes(op)) {
      this.pos++;
      const dst = this.reg();
      this.expectP(',');
      if (alu.includes(op)) {
        const src1 = this.reg();
        this.expectP(',');
        i = this.isImmediate() ? { opc: op, line, dst, src1, immed: this.immediate(), hasImmed: true } : { opc: op, line, dst, src1, src2: this.reg() };
      } else if (op === 'msb') i = { opc: op, line, dst, src1: this.reg() };
      else if (op === 'not') i = this.isImmediate() ? { opc: op, line, dst, immed: this.immediate(), hasImmed: true } : { opc: op, line, dst, src1: this.reg() };
      else if (op === 'mov') {
        if (this.peek()?.k === 'reg') i = { opc: 'or', line, dst, src1: 0, src2: this.reg() };
        else {
          i = { opc: 'movi', line, dst, shift: 0 };
          if (this.peek()?.k === 'lref') i.label = this.labelRef();
          else i.immed = this.immediate();
          if (this.isP('<<')) {
            this.pos++;
            i.shift = this.immediate();
          }
        }
      } else if (op === 'setbit' || op === 'clrbit') {
        const src1 = this.reg();
        this.expectP(',');
        if (op === 'setbit' && this.peek()?.k === 'reg') i = { opc: 'setbit', line, dst, src1, src2: this.reg() };
        else i = { opc: op === 'setbit' ? 'setbiti' : 'clrbit', line, dst, src1, bit: this.bitTok(), hasBit: true };
      } else {
        const src1 = this.reg();
        this.expectP(',');
        const lo = this.bitTok();
        this.expectP(',');
        i = { opc: op, line, dst, src1, bit: lo, immed: this.bitTok() };
      }
      i.xmov = xmov;
      i.peek = peek;
    } else if (xmov || peek) {
      this.fail('(xmovN)/(peek) go with ALU instructions', t);
    } else if (op === 'load' || op === 'cread' || op === 'sread' || op === 'store' || op === 'cwrite' || op === 'swrite') {
      this.pos++;
      const r = this.reg();
      this.expectP(',');
      this.expectP('[');
      const base = this.reg();
      this.expectP('+');
      const immed = this.immediate();
      this.expectP(']');
      const pre = this.isP('!');
      if (pre) this.pos++;
      const load = op === 'load' || op === 'cread' || op === 'sread';
      i = load ? { opc: op, line, dst: r, src1: base, immed, preincrement: pre } : { opc: op, line, src1: r, src2: base, immed, preincrement: pre, sds };
    } else return undefined;
    i.rep = rep;
    return this.add(i);
  }

  private other(): void {
    const t = this.next();
    const line = t.line;
    switch (t.s) {
      case 'brne':
      case 'breq': {
        const src1 = this.reg();
        this.expectP(',');
        if (this.peek()?.k === 'bit') {
          const bit = this.bitTok();
          this.expectP(',');
          this.add({ opc: t.s, line, src1, bit, hasBit: true, label: this.labelRef() });
        } else {
          const immed = this.immediate();
          this.expectP(',');
          this.add({ opc: t.s, line, src1, immed, hasImmed: true, label: this.labelRef() });
        }
        return;
      }
      case 'call':
      case 'bl':
      case 'jumpa':
        this.add({ opc: t.s, line, label: this.labelRef() });
        return;
      case 'jump':
        if (this.peek()?.k === 'reg') this.add({ opc: 'jumpr', line, src1: this.reg() });
        else this.add({ opc: 'jump', line, label: this.labelRef() });
        return;
      case 'setsecure': {
        const src1 = this.reg();
        this.expectP(',');
        // afuc-asm keeps the label but never resolves it: the target is always +3.
        this.add({ opc: 'setsecure', line, src1, label: this.labelRef() });
        return;
      }
      case 'ret':
      case 'iret':
      case 'sret':
      case 'waitin':
      case 'nop':
        this.add({ opc: t.s, line });
        return;
      default:
        this.fail(`'${t.s}' cannot stand here`, t);
    }
  }
}

const formCache = new Map<string, AfucForm | null>();
function formFor(name: string, gen: AfucGen): AfucForm | undefined {
  const key = `${gen}:${name}`;
  let f = formCache.get(key);
  if (f === undefined) {
    f = AFUC_FORMS.find((x) => x.name === name && gen >= x.genMin && gen <= x.genMax) ?? null;
    formCache.set(key, f);
  }
  return f ?? undefined;
}

const ALU_IMMED = new Set(['add', 'addhi', 'sub', 'subhi', 'and', 'or', 'xor', 'not', 'shl', 'ushr', 'ishr', 'rot', 'mul8', 'min', 'max', 'cmp', 'bic']);

/** Encode one instruction with its form's fields (afuc.xml's <encode> maps). */
function encode(i: Instr, gen: AfucGen, offset: number | undefined, literal: number | undefined): number {
  let name = i.opc;
  if (ALU_IMMED.has(name) && i.hasImmed) name += 'i';
  if (name === 'breq' || name === 'brne') name += i.hasBit ? 'b' : 'i';
  if (name === 'jump') name = 'brneb';
  const form = formFor(name, gen);
  if (!form) throw new FdAsmError(`line ${i.line}: ${i.opc}${i.hasImmed ? ' with an immediate' : ''} is not an a${gen}xx instruction`);
  const isLoad = name === 'load' || name === 'cread' || name === 'sread';
  const isBranch = name.startsWith('br');
  const val: Record<string, number | undefined> = {
    XMOV: i.xmov, DST: i.dst, SRC1: i.src1, SRC2: i.src2, IMMED: i.immed, RIMMED: i.immed, BIT: i.bit, REP: i.rep ? 1 : 0,
    PEEK: i.peek ? 1 : 0, SHIFT: i.shift, PREINCREMENT: i.preincrement ? 1 : 0, SDS: i.sds, SRC: i.src1, BASE: i.immed,
    OFFSET: isBranch ? offset : isLoad ? i.src1 : i.src2, TARGET: literal,
  };
  if (name === 'ubfx' || name === 'bfi') {
    val['LO'] = i.bit;
    val['HI'] = i.immed;
  }
  let w = form.match >>> 0;
  for (const [fname, lo, hi, type] of form.fields) {
    let v = val[fname] ?? 0;
    const width = hi - lo + 1;
    if (type === 'branch') {
      if (v < -0x8000 || v > 0x7fff) throw new FdAsmError(`line ${i.line}: branch to #${i.label} is ${v} instructions away (more than 16 bits)`);
      v &= 0xffff;
    } else if (v < 0 || v >= 2 ** width) {
      throw new FdAsmError(`line ${i.line}: ${i.opc}: ${fname.toLowerCase()} ${v} does not fit ${width} bits`);
    }
    w = (w | ((v << lo) >>> 0)) >>> 0;
  }
  const back = decode(w, gen);
  if (!back || back.form !== form) throw new FdAsmError(`line ${i.line}: ${i.opc}: operands give an encoding of another instruction`);
  return w;
}

export interface FdAsmOptions {
  /** Force the generation (afuc-asm takes it from the first literal's firmware id). */
  readonly gen?: 'a5xx' | 'a6xx' | 'a7xx';
  /** With `gen`: the firmware id whose control registers the names refer to (a750's differ). */
  readonly fwId?: number;
  /** Generation when the first literal names no known firmware (afuc-asm gives up there). */
  readonly defaultGen?: 'a5xx' | 'a6xx' | 'a7xx';
}

export interface FdAsmResult {
  /** The file afuc-asm writes: a zero dword, then the image. */
  readonly bytes: Uint8Array;
  /** The image (the file without its first dword). */
  readonly image: Uint32Array;
  readonly gen: AfucGen;
  /** Dword offset of each section in the image. */
  readonly sections: readonly number[];
}

/** Assemble freedreno-syntax afuc source. Throws FdAsmError (one line, naming the source line). */
export function fdAssemble(src: string, opts: FdAsmOptions = {}): FdAsmResult {
  const p = new Parser(lex(src));
  let chip: AfucChip;
  if (opts.gen) chip = chipForGen(opts.gen, opts.fwId !== undefined ? fwIdInfo(opts.fwId)?.controlDomain : undefined);
  else {
    const lit = p.toks.find((t) => t.k === 'lit');
    const id = lit ? (lit.v >>> 12) & 0xfff : -1;
    const info = fwIdInfo(id);
    if (info) chip = chipForGen(info.gen, info.controlDomain);
    else if (opts.defaultGen) chip = chipForGen(opts.defaultGen);
    else if (!lit) throw new FdAsmError('no version literal ([xxxxxxxx]) to take the generation from; pass --gen');
    else throw new FdAsmError(`line ${lit.line}: unknown firmware id 0x${id.toString(16)} in the version literal ${lit.s}; pass --gen`);
  }
  p.chipOverride = chip;
  if (!p.toks.length) throw new FdAsmError('no instructions (an empty source)');
  p.parse();
  const gen = chip.gen;
  const out: number[] = [];
  const starts: number[] = [];
  for (const sec of p.sections) {
    starts.push(out.length);
    const resolve = (i: Instr): number => {
      const l = sec.labels.find((x) => x.name === i.label);
      if (!l) throw new FdAsmError(`line ${i.line}: undefined label '${i.label}'`);
      return l.offset;
    };
    sec.instrs.forEach((ins, idx) => {
      switch (ins.opc) {
        case 'jumptbl': {
          const table = new Array<number>(0x80).fill(0);
          for (const l of sec.labels) {
            let id = packetId(l.name);
            if (id < 0) {
              const m = /^UNKN([+-]?\d+)/.exec(l.name);
              if (!m) continue;
              id = parseInt(m[1]!, 10);
              if (id < 0 || id >= 0x80) throw new FdAsmError(`line ${ins.line}: label ${l.name} names no packet id (0..127)`);
            }
            table[id] = l.offset;
          }
          out.push(...table);
          return;
        }
        case 'literal':
          out.push(ins.label !== undefined ? nopLiteralChecked(resolve(ins), gen, ins.line) : ins.literal!);
          return;
        case 'brne':
        case 'breq':
        case 'jump':
          // afuc-asm counts the branch from the instruction's index in its list (a .jumptbl is one entry).
          out.push(encode(ins, gen, resolve(ins) - idx, undefined));
          return;
        case 'call':
        case 'bl':
        case 'jumpa':
          out.push(encode(ins, gen, undefined, resolve(ins)));
          return;
        case 'movi':
          if (ins.label !== undefined) ins.immed = resolve(ins);
          out.push(encode(ins, gen, undefined, undefined));
          return;
        default:
          out.push(encode(ins, gen, undefined, undefined));
      }
    });
  }
  const image = Uint32Array.from(out);
  const file = new Uint32Array(image.length + 1);
  file.set(image, 1);
  return { bytes: new Uint8Array(file.buffer), image, gen, sections: starts };
}

function nopLiteralChecked(x: number, gen: AfucGen, line: number): number {
  if (x >>> 24) throw new FdAsmError(`line ${line}: offset 0x${x.toString(16)} does not fit a literal`);
  return nopLiteral(x, gen);
}
