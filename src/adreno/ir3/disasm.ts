/**
 * ir3 disassembler: isaspec's generic decoder run over the generated ir3 tables, printing what
 * Mesa prints.
 *
 * Two callers in Mesa print ir3 code and we match both:
 * - the compiler (`ir3_shader_disasm`, the corpus's `.ir3.txt`): every instruction, branch
 *   labels, decode errors after a tab and `; `, unmatched words as `raw 0x<lo><hi>`;
 * - cffdump / crashdec (`disasm_a3xx_stat`, `cffdump: true`): the same text, but stops after
 *   `end` plus four `nop`s (or at `chsh`), gives up after more than 5 bad instructions in a row,
 *   prints unmatched words as `no match: <hi><lo>`, optionally prefixes each line with
 *   `:cat:nnnn:cccc[hi x_lo x] ` (`verbose`) and appends the `Stats:` block (`stats`).
 *
 * The decoder follows isaspec's rules: the leaf whose match/mask fits (a second fit is a
 * "bitset conflict"), set don't-care bits reported, <override> cases chosen by their expressions
 * in order with the default case last, fields resolved through the bitset chain and then through
 * the params of enclosing bitset fields, expressions cached per scope, an expression being
 * evaluated taken as true while its own override's fields are looked up.
 */
import { f16 } from '../../core/float.js';
import { InputError } from '../../core/errors.js';
import { evalExpr } from './expr.js';
import { ENUMS, EXPRS, gpuIdOf, leafTableOf, type Bitset, type Field } from './isa.js';

export interface Ir3DisasmOptions {
  /** Mesa gpu_id (630, 660, 730, 420...) or a generation number 3..7 (taken as gen * 100). */
  readonly gpuId?: number;
  readonly gen?: number;
  /** cffdump's behaviour (see the file comment). Default false: the compiler's listing. */
  readonly cffdump?: boolean;
  /** cffdump's raw prefix `:cat:nnnn:cccc[hi x_lo x] ` on each line. */
  readonly verbose?: boolean;
  /** Append cffdump's `Stats:` block (4 `- shaderdb:` lines). */
  readonly stats?: boolean;
  /** Print branch targets as labels (`l23:` lines, `#l23`). Default true. */
  readonly branchLabels?: boolean;
}

/** Counters as disasm-a3xx.c keeps them (struct shader_stats). */
export interface Ir3Stats {
  instructions: number;
  nops: number;
  mov: number;
  cov: number;
  lastBaryf: number;
  halfreg: number;
  fullreg: number;
  constlen: number;
  instrsPerCat: number[];
  sstall: number;
  ss: number;
  sy: number;
}

type Hooks = {
  field(name: string, val: bigint | string): void;
  pre(n: number, lo: number, hi: number): void;
};

export interface Scope {
  readonly parent: Scope | undefined;
  readonly val: bigint;
  readonly bitset: Bitset;
  readonly params: readonly (readonly [string, string])[] | undefined;
  cache: Map<string, bigint> | undefined;
}

const hex8 = (v: number): string => (v >>> 0).toString(16).padStart(8, '0');
const fmt64 = (v: bigint): string => hex8(Number((v >> 32n) & 0xffffffffn)) + hex8(Number(v & 0xffffffffn));

function signExtend(v: bigint, width: number): bigint {
  return width >= 64 ? BigInt.asIntN(64, v) : BigInt.asIntN(width, v & ((1n << BigInt(width)) - 1n));
}

/** C's printf("%f", x): six decimals, exact value rounded half to even, "nan"/"inf" with sign. */
export function printfF(x: number, negZeroOrNanSign = false): string {
  const neg = x < 0 || Object.is(x, -0) || (Number.isNaN(x) && negZeroOrNanSign);
  if (Number.isNaN(x)) return neg ? '-nan' : 'nan';
  if (!Number.isFinite(x)) return neg ? '-inf' : 'inf';
  const dv = new DataView(new ArrayBuffer(8));
  dv.setFloat64(0, Math.abs(x));
  const bits = dv.getBigUint64(0);
  const be = Number((bits >> 52n) & 0x7ffn);
  let m = bits & ((1n << 52n) - 1n);
  let e: number;
  if (be === 0) e = -1074;
  else {
    m |= 1n << 52n;
    e = be - 1075;
  }
  let q: bigint;
  if (e >= 0) q = (m << BigInt(e)) * 1000000n;
  else {
    const num = m * 1000000n;
    const den = 1n << BigInt(-e);
    q = num / den;
    const r = num % den;
    if (2n * r > den || (2n * r === den && (q & 1n) === 1n)) q += 1n;
  }
  const ip = q / 1000000n;
  const fp = (q % 1000000n).toString().padStart(6, '0');
  return `${neg ? '-' : ''}${ip}.${fp}`;
}

function f32(bits: number): { v: number; sign: boolean } {
  const dv = new DataView(new ArrayBuffer(4));
  dv.setUint32(0, bits >>> 0);
  return { v: dv.getFloat32(0), sign: (bits >>> 31) === 1 };
}

/** One run of isaspec's disassembler over a program (decode_state). */
export class Decoder {
  readonly branchTargets = new Set<number>();
  private exprStack: string[] = [];
  private errors: string[] = [];
  n = 0;
  stop = false;
  out = '';

  readonly gpuId: number;
  readonly numInstr: number;
  readonly branchLabels: boolean;
  readonly showErrors: boolean;
  readonly hooks: Hooks | undefined;

  constructor(gpuId: number, numInstr: number, branchLabels: boolean, showErrors: boolean, hooks: Hooks | undefined) {
    this.gpuId = gpuId;
    this.numInstr = numInstr;
    this.branchLabels = branchLabels;
    this.showErrors = showErrors;
    this.hooks = hooks;
  }

  error(msg: string): void {
    if (!this.showErrors || this.errors.length === 4) return;
    this.errors.push(msg);
  }

  flushErrors(): number {
    const n = this.errors.length;
    if (n) this.out += '\t; ' + this.errors.join(', ');
    this.errors = [];
    return n;
  }

  findBitset(root: string, val: bigint): Bitset | undefined {
    let match: Bitset | undefined;
    const t = leafTableOf(root, this.gpuId);
    const leaves = t.leaves;
    const lo = Number(val & 0xffffffffn), hi = Number((val >> 32n) & 0xffffffffn);
    for (let k = 0; k < leaves.length; k++) {
      if (((lo & t.careLo[k]!) >>> 0) !== t.matchLo[k] || ((hi & t.careHi[k]!) >>> 0) !== t.matchHi[k]) continue;
      const b = leaves[k]!;
      if (match) {
        this.error(`bitset conflict: ${match.name} vs ${b.name}`);
        return undefined;
      }
      match = b;
    }
    if (match && (match.dontcare & val) !== 0n) this.error(`dontcare bits in ${match.name}: ${fmt64(match.dontcare & val)}`);
    return match;
  }

  evaluate(scope: Scope, name: string): bigint {
    if (!scope.cache) scope.cache = new Map();
    else {
      const c = scope.cache.get(name);
      if (c !== undefined) return c;
    }
    // isaspec's recursion guard skips the bottom entry of its stack.
    for (let i = this.exprStack.length - 1; i > 0; i--) if (this.exprStack[i] === name) return 0n;
    const e = EXPRS.get(name);
    if (!e) return 0n;
    this.exprStack.push(name);
    const vars = new Map<string, bigint>();
    for (const v of e.vars) vars.set(v, this.decodeField(scope, v));
    const r = BigInt.asUintN(64, evalExpr(e.tree, vars, this.gpuId));
    this.exprStack.pop();
    scope.cache.set(name, r);
    return r;
  }

  private findField(scope: Scope, bitset: Bitset, name: string): Field | undefined {
    for (const c of bitset.cases) {
      if (c.expr !== undefined) {
        const cur = this.exprStack.length ? this.exprStack[this.exprStack.length - 1] : undefined;
        if (cur !== c.expr && !this.evaluate(scope, c.expr)) continue;
      }
      for (const f of c.fields) if (f.name === name) return f;
    }
    return bitset.parent ? this.findField(scope, bitset.parent, name) : undefined;
  }

  resolveField(scope: Scope | undefined, name: string): { field: Field; val: bigint; scope: Scope } | undefined {
    if (!scope) return undefined;
    const field = this.findField(scope, scope.bitset, name);
    if (!field) {
      for (const [pname, as] of scope.params ?? []) if (as === name) return this.resolveField(scope.parent, pname);
      return undefined;
    }
    const val = field.expr !== undefined ? this.evaluate(scope, field.expr) : (scope.val >> field.lowB) & field.maskB;
    return { field, val, scope };
  }

  decodeField(scope: Scope, name: string): bigint {
    const r = this.resolveField(scope, name);
    if (!r) {
      this.error(`no field '${name}'`);
      return 0n;
    }
    return r.val;
  }

  private findDisplay(scope: Scope, bitset: Bitset): string | undefined {
    for (const c of bitset.cases) {
      if (c.expr !== undefined && !this.evaluate(scope, c.expr)) continue;
      for (const f of c.fields) {
        if (f.kind !== 'assert') continue;
        const v = (scope.val >> f.lowB) & f.maskB;
        if (v !== BigInt(f.val!)) this.error(`WARNING: unexpected bits[${f.low}:${f.high}] in ${bitset.name}: ${fmt64(v)} vs ${fmt64(BigInt(f.val!))}`);
      }
      if (c.display === undefined) continue;
      return c.display;
    }
    return bitset.parent ? this.findDisplay(scope, bitset.parent) : undefined;
  }

  display(scope: Scope): void {
    const d = this.findDisplay(scope, scope.bitset);
    if (d === undefined) {
      this.error(`${scope.bitset.name}: no display template`);
      return;
    }
    let i = 0;
    while (i < d.length) {
      if (d[i] === '{') {
        const e = d.indexOf('}', i);
        this.displayField(scope, d.slice(i + 1, e));
        i = e + 1;
      } else {
        const j = d.indexOf('{', i);
        const end = j < 0 ? d.length : j;
        this.out += d.slice(i, end);
        i = end;
      }
    }
  }

  private displayField(scope: Scope, rawName: string): void {
    const al = rawName.indexOf(':align=');
    const name = al >= 0 ? rawName.slice(0, al) : rawName;
    if (al === 0) return;
    if (name === 'NAME') {
      this.hooks?.field(rawName, scope.bitset.name);
      this.out += scope.bitset.name;
      return;
    }
    const r = this.resolveField(scope, name);
    if (!r) {
      this.error(`no field '${name}'`);
      return;
    }
    const { field, val } = r;
    this.hooks?.field(rawName, val);
    const width = field.width;
    switch (field.kind) {
      case 'enum': {
        const d = ENUMS.get(field.type)!.get(val);
        this.out += d ?? String(Number(val & 0xffffffffn));
        return;
      }
      case 'bitset': {
        const b = this.findBitset(field.type, val);
        if (!b) {
          this.error(`no match: FIELD: '${scope.bitset.name}.${field.name}': ${fmt64(val)}`);
          return;
        }
        this.display({ parent: scope, val, bitset: b, params: field.params, cache: undefined });
        return;
      }
      case 'assert':
        return;
      case 'builtin':
        break;
    }
    switch (field.type) {
      case 'branch':
      case 'absbranch':
        if (this.branchLabels) {
          const off = field.type === 'branch' ? Number(signExtend(val, width)) + this.n : Number(val);
          if (off >= 0 && off < this.numInstr) {
            this.out += `l${off}`;
            this.branchTargets.add(off);
            return;
          }
        }
        this.out += signExtend(val, width).toString();
        return;
      case 'int':
        this.out += signExtend(val, width).toString();
        return;
      case 'uint':
        this.out += val.toString();
        return;
      case 'hex':
        this.out += val.toString(16);
        return;
      case 'offset':
        if (val !== 0n) {
          const s = signExtend(val, width);
          this.out += s < 0n ? s.toString() : `+${s}`;
        }
        return;
      case 'uoffset':
        if (val !== 0n) this.out += `+${val}`;
        return;
      case 'float':
        if (width === 16) {
          const h = Number(val & 0xffffn);
          this.out += printfF(f16(h), (h & 0x8000) !== 0);
        } else {
          const f = f32(Number(val & 0xffffffffn));
          this.out += printfF(f.v, f.sign);
        }
        return;
      case 'bool':
        if (field.display !== undefined) {
          if (val) this.out += field.display;
        } else this.out += String(Number(val & 0xffffffffn));
        return;
      case 'bool_inv':
        if (field.display !== undefined) {
          if (!val) this.out += field.display;
        } else this.out += val ? '0' : '1';
        return;
      case 'custom':
        return;
      default:
        this.error(`Bad field type: ${field.type} (${field.name})`);
    }
  }
}

/** The disassembly context of disasm-a3xx.c: statistics and the stop-after-end rule. */
class StatsCtx implements Hooks {
  nopCount = 0;
  hasEnd = false;
  curN = -1;
  curCat = 0;
  extraCycles = 0;
  sfuDelay = 0;
  last = { ss: false, nop: 0, repeat: 0 };
  reg = { half: false, r: false, file: 0, num: 0 };
  readonly s: Ir3Stats = { instructions: 0, nops: 0, mov: 0, cov: 0, lastBaryf: 0, halfreg: 0, fullreg: 0, constlen: 0, instrsPerCat: [0, 0, 0, 0, 0, 0, 0, 0], sstall: 0, ss: 0, sy: 0 };
  dec!: Decoder;
  prefix = '';

  readonly stopAtEnd: boolean;
  readonly verbose: boolean;

  constructor(stopAtEnd: boolean, verbose: boolean) {
    this.stopAtEnd = stopAtEnd;
    this.verbose = verbose;
  }

  field(name: string, v: bigint | string): void {
    const s = this.s;
    if (name === 'NAME') {
      const str = v as string;
      if (str === 'nop') {
        if (this.hasEnd) {
          this.nopCount++;
          if (this.nopCount > 3 && this.stopAtEnd) this.dec.stop = true;
        }
        s.nops += 1 + this.last.repeat;
      } else this.nopCount = 0;
      if (str === 'end') {
        this.hasEnd = true;
        this.nopCount = 0;
      } else if (str === 'chsh') {
        if (this.stopAtEnd) this.dec.stop = true;
      } else if (str === 'bary.f') s.lastBaryf = this.curN;
      return;
    }
    const num = Number(BigInt.asUintN(32, v as bigint));
    if (name === 'REPEAT') {
      this.extraCycles += num;
      s.instrsPerCat[this.curCat]! += num;
      this.last.repeat = num;
    } else if (name === 'NOP') {
      this.extraCycles += num;
      s.instrsPerCat[0]! += num;
      s.nops += num;
      this.last.nop = num;
    } else if (name === 'SY') s.sy += num;
    else if (name === 'SS') {
      s.ss += num;
      this.last.ss = num !== 0;
    } else if (name === 'CONST') {
      this.reg.num = num;
      this.reg.file = 2;
    } else if (name === 'GPR') {
      if (num < 48) {
        this.reg.num = num;
        this.reg.file = 1;
      }
    } else if (name === 'RT') this.reg.file = 3;
    else if (name === 'SRC_R' || name === 'SRC1_R' || name === 'SRC2_R' || name === 'SRC3_R') this.reg.r = num !== 0;
    else if (name === 'DST') this.reg.r = true;
    else if (name.includes('HALF')) this.reg.half = num !== 0;
    else if (name === 'SWIZ') {
      let n = ((this.reg.num << 2) | num) >>> 0;
      if (this.reg.r) n += this.last.repeat;
      if (this.reg.file === 2) s.constlen = Math.max(s.constlen, n);
      else if (this.reg.file === 1) {
        if (this.reg.half) s.halfreg = Math.max(s.halfreg, n);
        else s.fullreg = Math.max(s.fullreg, n);
      }
      this.reg = { half: false, r: false, file: 0, num: 0 };
    }
  }

  handleLast(): void {
    if (this.last.ss) {
      this.s.sstall += this.sfuDelay;
      this.sfuDelay = 0;
    }
    if (this.curCat === 4) this.sfuDelay = 10;
    else this.sfuDelay -= Math.min(this.sfuDelay, 1 + this.last.repeat + this.last.nop);
    this.last = { ss: false, nop: 0, repeat: 0 };
  }

  pre(n: number, lo: number, hi: number): void {
    const cat = hi >>> 29;
    if (n !== this.curN) {
      if (n > 0) this.handleLast();
      this.s.instrsPerCat[cat]!++;
      this.curN = n;
      if (cat === 1 && ((hi >>> 25) & 3) === 0) {
        if (((hi >>> 18) & 7) === ((hi >>> 14) & 7)) this.s.mov++;
        else this.s.cov++;
      }
    }
    this.curCat = cat;
    if (this.verbose) this.dec.out += `:${cat}:${String(n).padStart(4, '0')}:${String(this.extraCycles + n).padStart(4, '0')}[${hex8(hi)}x_${hex8(lo)}x] `;
  }

  statsLines(gpuId: number): string[] {
    const s = this.s;
    if (gpuId >= 600) {
      const n = Math.floor((s.halfreg + 1) / 2);
      s.halfreg = 0;
      s.fullreg = Math.max(s.fullreg, n);
    }
    const instr = this.curN + this.extraCycles + 1;
    s.instructions = instr;
    const up = (v: number): number => Math.ceil(v / 4);
    const c = s.instrsPerCat;
    return [
      'Stats:',
      `- shaderdb: ${instr} instr, ${s.nops} nops, ${instr - s.nops} non-nops, ${s.mov} mov, ${s.cov} cov`,
      `- shaderdb: ${s.lastBaryf} last-baryf, ${up(s.halfreg)} half, ${up(s.fullreg)} full, ${up(s.constlen)} constlen`,
      `- shaderdb: ${c[0]} cat0, ${c[1]} cat1, ${c[2]} cat2, ${c[3]} cat3, ${c[4]} cat4, ${c[5]} cat5, ${c[6]} cat6, ${c[7]} cat7`,
      `- shaderdb: ${s.sstall} sstall, ${s.ss} (ss), ${s.sy} (sy)`,
    ];
  }
}

export function resolveGpuId(opts: { gpuId?: number; gen?: number }): number {
  if (opts.gpuId !== undefined) return opts.gpuId >= 100 ? opts.gpuId : opts.gpuId * 100;
  if (opts.gen !== undefined) return opts.gen >= 100 ? opts.gen : opts.gen * 100;
  throw new InputError('ir3: no GPU generation given');
}

function checkWords(words: Uint32Array | readonly number[]): void {
  if (words.length % 2) throw new InputError(`ir3: ${words.length} dwords is not a whole number of 64-bit instructions`);
}

function pass(words: Uint32Array | readonly number[], dec: Decoder, ctx: StatsCtx | undefined, cffdump: boolean, lines: string[] | undefined): void {
  const num = words.length / 2;
  let errors = 0;
  for (dec.n = 0; dec.n < num; dec.n++) {
    const lo = words[dec.n * 2]! >>> 0;
    const hi = words[dec.n * 2 + 1]! >>> 0;
    if (cffdump && lines && errors > 5) break;
    if (dec.branchLabels && dec.branchTargets.has(dec.n) && lines) {
      dec.out = '';
      ctx?.pre(dec.n, lo, hi);
      lines.push(dec.out + `l${dec.n}:`);
    }
    dec.out = '';
    if (lines) ctx?.pre(dec.n, lo, hi);
    const val = (BigInt(hi) << 32n) | BigInt(lo);
    const b = dec.findBitset('#instruction', val);
    if (!b) {
      if (cffdump) dec.out += `no match: ${hex8(hi)}${hex8(lo)}`;
      else dec.out += `raw 0x${lo.toString(16).toUpperCase()}${hi.toString(16).toUpperCase()}`;
      lines?.push(dec.out);
      errors++;
      continue;
    }
    dec.display({ parent: undefined, val, bitset: b, params: undefined, cache: undefined });
    if (dec.flushErrors()) errors++;
    else errors = 0;
    lines?.push(dec.out);
    if (dec.stop) break;
  }
}

/**
 * Disassemble ir3 code (pairs of dwords, low dword first) into Mesa's lines, without
 * indentation. Throws InputError for an odd number of dwords or no generation.
 */
export function disasmIr3(words: Uint32Array | readonly number[], opts: Ir3DisasmOptions): string[] {
  checkWords(words);
  const gpuId = resolveGpuId(opts);
  const labels = opts.branchLabels ?? true;
  const num = words.length / 2;
  // Pre-pass (no hooks, no errors) to find the branch targets.
  const pre = new Decoder(gpuId, num, labels, false, undefined);
  if (labels) pass(words, pre, undefined, false, undefined);
  const cff = opts.cffdump ?? false;
  const ctx = cff || opts.verbose || opts.stats ? new StatsCtx(cff, opts.verbose ?? false) : undefined;
  const dec = new Decoder(gpuId, num, labels, true, ctx);
  if (ctx) ctx.dec = dec;
  for (const t of pre.branchTargets) dec.branchTargets.add(t);
  const lines: string[] = [];
  pass(words, dec, ctx, cff, lines);
  if (ctx) {
    ctx.handleLast();
    if (opts.stats) lines.push(...ctx.statsLines(gpuId));
  }
  return lines;
}

/** One instruction's text (no labels: branch targets print as `#<offset>` relative). */
export function disasmInstr(lo: number, hi: number, gpuId: number): string {
  const dec = new Decoder(gpuId, 0, false, true, undefined);
  const val = (BigInt(hi >>> 0) << 32n) | BigInt(lo >>> 0);
  const b = dec.findBitset('#instruction', val);
  if (!b) return `raw 0x${(lo >>> 0).toString(16).toUpperCase()}${(hi >>> 0).toString(16).toUpperCase()}`;
  dec.display({ parent: undefined, val, bitset: b, params: undefined, cache: undefined });
  dec.flushErrors();
  return dec.out;
}

/** The leaf bitset (instruction encoding) a 64-bit word decodes to on `gpuId`, if exactly one. */
export function instrBitset(lo: number, hi: number, gpuId: number): Bitset | undefined {
  const dec = new Decoder(gpuId, 0, false, false, undefined);
  return dec.findBitset('#instruction', (BigInt(hi >>> 0) << 32n) | BigInt(lo >>> 0));
}

export { gpuIdOf };
