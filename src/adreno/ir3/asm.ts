/**
 * ir3 assembler driven by the same isaspec tables as the disassembler: an instruction's text is
 * matched against the display templates of every encoding that exists on the GPU (cases of the
 * leaf and its parents, nested bitset fields recursively), which assigns the raw fields it
 * shows; derived fields it shows (`h` from !FULL, `(nopN)`, `.2d`, `.w64`, ...) become
 * constraints, solved by trying the unassigned raw fields their expressions read. A candidate
 * is accepted only if disassembling it gives back the same text, so the output is always
 * something Mesa would print the same way.
 *
 * Syntax: the disassembler's lines; `name:` labels (and `#name` targets, Mesa's `l<N>`
 * included); `raw 0x<lo><hi>` / `no match: <hi><lo>` lines (unknown encodings, as printed);
 * cffdump's `:c:nnnn:cccc[...] ` prefix is ignored; blank lines and lines starting with `;` or
 * `@` (the compiler's header) are skipped, and so is a trailing ` ; comment` (hand-written code).
 */
import { InputError } from '../../core/errors.js';
import { Decoder, resolveGpuId, type Scope } from './disasm.js';
import type { Expr } from './expr.js';
import { ENUMS, EXPRS, leavesOf, type Bitset, type Field } from './isa.js';

export class Ir3AsmError extends InputError {}

interface Ctx {
  readonly bitset: Bitset;
  readonly abs: number;
  readonly params: readonly (readonly [string, string])[] | undefined;
  readonly parent: Ctx | undefined;
}

interface State {
  val: bigint;
  /** Bits whose value the text fixed. */
  fixed: bigint;
  constraints: { ctx: Ctx; expr: string; value: bigint; nonzero?: boolean }[];
}

const maskOf = (w: number): bigint => (1n << BigInt(w)) - 1n;

function clone(s: State): State {
  return { val: s.val, fixed: s.fixed, constraints: [...s.constraints] };
}

/** Set `width` bits at `abs` to `v`; false if the text fixed them to something else. */
function assign(s: State, abs: number, width: number, v: bigint): boolean {
  const m = maskOf(width) << BigInt(abs);
  const bits = (BigInt.asUintN(width, v) << BigInt(abs)) & m;
  if ((s.fixed & m & (s.val ^ bits)) !== 0n) return false;
  s.val = (s.val & ~m) | bits;
  s.fixed |= m;
  return true;
}

/**
 * Display templates of a bitset and its parents, in the decoder's order, with the override
 * expression choosing each and the expressions of the earlier ones (which must be false).
 */
function templates(b: Bitset): { display: string; expr: string | undefined; not: string[] }[] {
  const out: { display: string; expr: string | undefined; not: string[] }[] = [];
  const before: string[] = [];
  for (let x: Bitset | undefined = b; x; x = x.parent) {
    for (const c of x.cases) {
      if (c.display === undefined) continue;
      out.push({ display: c.display, expr: c.expr, not: [...before] });
      if (c.expr !== undefined) before.push(c.expr);
    }
  }
  return out;
}

function caseConstraints(ctx: Ctx, tpl: { expr: string | undefined; not: string[] }): State['constraints'] {
  const out: State['constraints'] = tpl.not.map((e) => ({ ctx, expr: e, value: 0n }));
  if (tpl.expr !== undefined) out.push({ ctx, expr: tpl.expr, value: 1n, nonzero: true });
  return out;
}

/**
 * Every definition of a field name visible from a context: its bitset chain, then params. A
 * definition in an override case needs that case's expression true; one in a later case needs
 * the earlier cases defining the same name false (the decoder takes the first).
 */
function definitions(ctx: Ctx, name: string): { field: Field; ctx: Ctx; need: State['constraints'] }[] {
  const out: { field: Field; ctx: Ctx; need: State['constraints']; key: string; n: number }[] = [];
  const earlier: string[] = [];
  let reachable = true;
  for (let b: Bitset | undefined = ctx.bitset; b && reachable; b = b.parent) {
    for (const c of b.cases) {
      const f = c.fields.find((x) => x.name === name && x.kind !== 'assert');
      if (!f) continue;
      const key = `${f.low}:${f.high}:${f.type}:${f.expr ?? ''}:${f.display ?? ''}:${JSON.stringify(f.params ?? [])}`;
      const need: State['constraints'] = earlier.map((e) => ({ ctx, expr: e, value: 0n }));
      if (c.expr !== undefined) need.push({ ctx, expr: c.expr, value: 1n, nonzero: true });
      if (c.expr !== undefined) earlier.push(c.expr);
      const same = out.find((o) => o.key === key);
      if (same) same.n++;
      else out.push({ field: f, ctx, need, key, n: 1 });
      if (c.expr === undefined) {
        reachable = false;
        break;
      }
    }
  }
  if (out.length === 0 && ctx.params && ctx.parent) for (const [pn, as] of ctx.params) if (as === name) return definitions(ctx.parent, pn);
  // One definition (or the same one in several cases): which case supplies it does not matter.
  if (out.length === 1 || out.every((o) => o.n > 1)) return out.map((o) => ({ field: o.field, ctx: o.ctx, need: [] }));
  return out.map((o) => ({ field: o.field, ctx: o.ctx, need: o.n > 1 ? [] : o.need }));
}

function parseF(t: string): number | undefined {
  if (/^-?nan$/.test(t)) return NaN;
  if (/^-?inf$/.test(t)) return t.startsWith('-') ? -Infinity : Infinity;
  return /^-?\d+\.\d+$/.test(t) ? parseFloat(t) : undefined;
}

function floatBits(x: number, width: number, neg: boolean): bigint {
  const dv = new DataView(new ArrayBuffer(4));
  if (width === 32) {
    dv.setFloat32(0, x);
    let b = dv.getUint32(0);
    if (Number.isNaN(x)) b = neg ? 0xffc00000 : 0x7fc00000;
    return BigInt(b >>> 0);
  }
  // float -> half, round to nearest even
  if (Number.isNaN(x)) return neg ? 0xfe00n : 0x7e00n;
  const s = x < 0 || Object.is(x, -0) ? 0x8000 : 0;
  const a = Math.abs(x);
  if (a === Infinity || a >= 65520) return BigInt(s | 0x7c00);
  if (a < 2 ** -24 / 2) return BigInt(s);
  let e = Math.floor(Math.log2(a));
  if (e < -14) return BigInt(s | Math.round(a / 2 ** -24));
  let m = Math.round((a / 2 ** e - 1) * 1024);
  if (m === 1024) {
    m = 0;
    e++;
  }
  return BigInt(s | ((e + 15) << 10) | m);
}

/** Encodings already found, by gpu_id and text (those without a branch target). */
const MEMO = new Map<string, bigint | undefined>();

class Assembler {
  readonly gpuId: number;
  readonly labels: ReadonlyMap<string, number>;
  readonly numInstr: number;
  n = 0;
  text = '';

  constructor(gpuId: number, labels: ReadonlyMap<string, number>, numInstr: number) {
    this.gpuId = gpuId;
    this.labels = labels;
    this.numInstr = numInstr;
  }

  /** Parse a plain value of a field type at `pos`: [value, end position][] alternatives. */
  private values(f: Field, pos: number): [bigint, number][] {
    const t = this.text;
    const rest = t.slice(pos);
    const num = (re: RegExp): RegExpExecArray | null => re.exec(rest);
    if (f.kind === 'enum') {
      const out: [bigint, number][] = [];
      for (const [v, d] of ENUMS.get(f.type)!) if (rest.startsWith(d)) out.push([v, pos + d.length]);
      const m = num(/^\d+/);
      if (m) out.push([BigInt(m[0]), pos + m[0].length]);
      return out.sort((a, b) => b[1] - a[1]);
    }
    switch (f.type) {
      case 'bool':
      case 'bool_inv': {
        const on = f.type === 'bool' ? 1n : 0n;
        if (f.display !== undefined) {
          const out: [bigint, number][] = [];
          if (f.display !== '' && rest.startsWith(f.display)) out.push([on, pos + f.display.length]);
          out.push([1n - on, pos]);
          if (f.display === '') out.push([on, pos]);
          return out;
        }
        const m = num(/^[01]/);
        return m ? [[f.type === 'bool' ? BigInt(m[0]) : 1n - BigInt(m[0]), pos + 1]] : [];
      }
      case 'uint': {
        const m = num(/^\d+/);
        return m ? [[BigInt(m[0]), pos + m[0].length]] : [];
      }
      case 'int': {
        const m = num(/^-?\d+/);
        return m ? [[BigInt(m[0]), pos + m[0].length]] : [];
      }
      case 'hex': {
        const m = num(/^[0-9a-f]+/);
        return m ? [[BigInt('0x' + m[0]), pos + m[0].length]] : [];
      }
      case 'offset': {
        const m = num(/^[-+]\d+/);
        const out: [bigint, number][] = m ? [[BigInt(m[0]), pos + m[0].length]] : [];
        out.push([0n, pos]);
        return out;
      }
      case 'uoffset': {
        const m = num(/^\+\d+/);
        const out: [bigint, number][] = m ? [[BigInt(m[0].slice(1)), pos + m[0].length]] : [];
        out.push([0n, pos]);
        return out;
      }
      case 'float': {
        const m = num(/^-?(\d+\.\d+|nan|inf)/);
        if (!m) return [];
        const x = parseF(m[0]);
        if (x === undefined) return [];
        return [[floatBits(x, f.width, m[0].startsWith('-')), pos + m[0].length]];
      }
      case 'branch':
      case 'absbranch': {
        const m = num(/^l(\d+)/) ?? null;
        const out: [bigint, number][] = [];
        if (m) {
          const target = parseInt(m[1]!, 10);
          if (target < this.numInstr) out.push([BigInt(f.type === 'branch' ? target - this.n : target), pos + m[0].length]);
        }
        const k = num(/^-?\d+/);
        if (k) out.push([BigInt(k[0]), pos + k[0].length]);
        return out;
      }
      default:
        return [];
    }
  }

  /** Match `template` against the text from `pos`, in context `ctx`. */
  *matchTemplate(tpl: string, pos: number, ctx: Ctx, st: State): Generator<[number, State]> {
    const parts = tpl.split(/(\{[^}]*\})/).filter((p) => p !== '');
    yield* this.matchParts(parts, 0, pos, ctx, st);
  }

  private *matchParts(parts: readonly string[], i: number, pos: number, ctx: Ctx, st: State): Generator<[number, State]> {
    if (i === parts.length) {
      yield [pos, st];
      return;
    }
    const p = parts[i]!;
    if (!p.startsWith('{')) {
      if (this.text.startsWith(p, pos)) yield* this.matchParts(parts, i + 1, pos + p.length, ctx, st);
      return;
    }
    const name = p.slice(1, -1).replace(/:align=.*$/, '');
    if (name === 'NAME') {
      if (this.text.startsWith(ctx.bitset.name, pos)) yield* this.matchParts(parts, i + 1, pos + ctx.bitset.name.length, ctx, st);
      return;
    }
    for (const { field, ctx: owner, need: need0 } of definitions(ctx, name)) {
      // Speculative: the decoder looks a field up in the case its own expression is in.
      const need = need0.filter((k) => !(k.nonzero && st.constraints.some((q) => q.nonzero && q.expr === k.expr && q.ctx === k.ctx)));
      const stD: State = need.length ? { ...st, constraints: [...st.constraints, ...need] } : st;
      if (field.kind === 'bitset') {
        const abs = owner.abs + field.low;
        for (const leaf of leavesOf(field.type, this.gpuId)) {
          const s1 = clone(stD);
          const pm = (leaf.mask & ~leaf.dontcare) << BigInt(abs);
          const pv = leaf.match << BigInt(abs);
          if ((s1.fixed & pm & (s1.val ^ pv)) !== 0n) continue;
          s1.val = (s1.val & ~pm) | pv;
          s1.fixed |= pm;
          const sub: Ctx = { bitset: leaf, abs, params: field.params, parent: owner };
          for (const tpl of templates(leaf)) {
            const s2 = { ...s1, constraints: [...s1.constraints, ...caseConstraints(sub, tpl)] };
            for (const [end, s3] of this.matchTemplate(tpl.display, pos, sub, s2)) yield* this.matchParts(parts, i + 1, end, ctx, s3);
          }
        }
        continue;
      }
      for (const [v, end] of this.values(field, pos)) {
        const s1 = clone(stD);
        if (field.expr !== undefined) {
          if (!(field.type === 'bool' && field.display === '')) s1.constraints.push({ ctx: owner, expr: field.expr, value: v });
        } else if (!assign(s1, owner.abs + field.low, field.width, v)) continue;
        yield* this.matchParts(parts, i + 1, end, ctx, s1);
      }
    }
  }

  private scopeOf(ctx: Ctx, val: bigint): Scope {
    const parent = ctx.parent ? this.scopeOf(ctx.parent, val) : undefined;
    return { parent, val: (val >> BigInt(ctx.abs)) & maskOf(ctx.bitset.size), bitset: ctx.bitset, params: ctx.params, cache: undefined };
  }

  /** Raw fields (absolute bit ranges) an expression reads, through derived fields and params. */
  private rawInputs(dec: Decoder, ctx: Ctx, scope: Scope, expr: string, out: Map<number, number>, depth = 0): void {
    if (depth > 6) return;
    const vars = EXPRS.get(expr)?.vars ?? [];
    for (const v of vars) {
      const r = dec.resolveField(scope, v);
      if (!r) continue;
      // Which context does the resolved scope belong to?
      let c: Ctx | undefined = ctx;
      let s: Scope | undefined = scope;
      while (c && s && s !== r.scope) {
        c = c.parent;
        s = s.parent;
      }
      if (!c) continue;
      if (r.field.expr !== undefined) this.rawInputs(dec, c, r.scope, r.field.expr, out, depth + 1);
      else out.set(c.abs + r.field.low, r.field.width);
    }
  }

  /**
   * Solve the constraints together: try every value of the unfixed raw fields they read
   * (up to 16 bits; zero first), else one constraint at a time.
   */
  solve(st: State): State | undefined {
    const s = clone(st);
    const dec = new Decoder(this.gpuId, this.numInstr, true, false, undefined);
    const ok = (k: State['constraints'][number], val: bigint): boolean => {
      const r = dec.evaluate(this.scopeOf(k.ctx, val), k.expr);
      return k.nonzero ? r !== 0n : r === BigInt.asUintN(64, k.value);
    };
    const freeOf = (ks: State['constraints']): [number, number][] => {
      const inputs = new Map<number, number>();
      for (const k of ks) this.rawInputs(dec, k.ctx, this.scopeOf(k.ctx, s.val), k.expr, inputs);
      return [...inputs].filter(([abs, w]) => (s.fixed & (maskOf(w) << BigInt(abs))) === 0n);
    };
    const search = (ks: State['constraints']): boolean => {
      if (ks.every((k) => ok(k, s.val))) return true;
      const free = freeOf(ks);
      const bits = free.reduce((a, [, w]) => a + w, 0);
      if (bits === 0 || bits > 16) return false;
      for (let combo = 0; combo < 1 << bits; combo++) {
        let v = s.val;
        let sh = 0;
        for (const [abs, w] of free) {
          const m = maskOf(w) << BigInt(abs);
          v = (v & ~m) | (BigInt((combo >> sh) & ((1 << w) - 1)) << BigInt(abs));
          sh += w;
        }
        if (ks.every((k) => ok(k, v))) {
          s.val = v;
          for (const [abs, w] of free) s.fixed |= maskOf(w) << BigInt(abs);
          return true;
        }
      }
      return false;
    };
    // `{A} == 4 && {B} == 62`, `{X}`, `!{X}` (override choices): set those raw fields first.
    for (const k of s.constraints) {
      if (!k.nonzero) continue;
      const terms: [string, bigint, boolean][] = [];
      const walk = (e: Expr): void => {
        if (e.k === 'bin' && e.op === '&&') {
          walk(e.a);
          walk(e.b);
        } else if (e.k === 'bin' && e.op === '==' && e.a.k === 'var' && e.b.k === 'num') terms.push([e.a.name, e.b.v, false]);
        else if (e.k === 'var') terms.push([e.name, 1n, true]);
        else if (e.k === 'un' && e.op === '!' && e.a.k === 'var') terms.push([e.a.name, 0n, true]);
      };
      const t = EXPRS.get(k.expr);
      if (t) walk(t.tree);
      for (const [name, v, flag] of terms) {
        const scope = this.scopeOf(k.ctx, s.val);
        const r = dec.resolveField(scope, name);
        if (!r || r.field.expr !== undefined || (flag && r.field.width !== 1)) continue;
        let c: Ctx | undefined = k.ctx;
        for (let x: Scope | undefined = scope; c && x && x !== r.scope; x = x.parent) c = c.parent;
        if (!c) continue;
        const m = maskOf(r.field.width) << BigInt(c.abs + r.field.low);
        if ((s.fixed & m) === 0n) assign(s, c.abs + r.field.low, r.field.width, v);
      }
    }
    if (search(s.constraints)) return s;
    for (const k of s.constraints) if (!search([k])) return undefined;
    return s;
  }

  /** Text of a word as the disassembler prints it at this position. */
  render(val: bigint): string | undefined {
    const dec = new Decoder(this.gpuId, this.numInstr, true, true, undefined);
    dec.n = this.n;
    const b = dec.findBitset('#instruction', val);
    if (!b) return undefined;
    dec.display({ parent: undefined, val, bitset: b, params: undefined, cache: undefined });
    dec.flushErrors();
    return dec.out;
  }

  /** Assemble one instruction's text (labels already turned into `l<N>`). */
  instr(text: string): bigint | undefined {
    // Without a branch target the encoding does not depend on the position.
    const key = text.includes('#') ? undefined : `${this.gpuId}:${text}`;
    if (key !== undefined && MEMO.has(key)) return MEMO.get(key);
    const v = this.search(text);
    if (key !== undefined) {
      if (MEMO.size >= 20000) MEMO.clear();
      MEMO.set(key, v);
    }
    return v;
  }

  private search(text: string): bigint | undefined {
    this.text = text;
    for (const leaf of leavesOf('#instruction', this.gpuId)) {
      const tpls = templates(leaf);
      if (tpls.every((t) => t.display.includes('{NAME}')) && !text.includes(leaf.name)) continue;
      const ctx: Ctx = { bitset: leaf, abs: 0, params: undefined, parent: undefined };
      const pm = leaf.mask & ~leaf.dontcare;
      const st0: State = { val: leaf.match, fixed: pm, constraints: [] };
      for (const tpl of tpls) {
        const st1: State = { ...st0, constraints: caseConstraints(ctx, tpl) };
        for (const [end, st] of this.matchTemplate(tpl.display, 0, ctx, st1)) {
          if (end !== text.length) continue;
          const s = this.solve(st);
          if (!s) continue;
          if (this.render(s.val) === text) return s.val;
        }
      }
    }
    return undefined;
  }
}

/**
 * Assemble ir3 text for a GPU (`gpuId` 630 or `gen` 6...). Returns the dwords (two per
 * instruction, low first). Throws Ir3AsmError (an InputError) naming the line on failure.
 */
export function assembleIr3(src: string, opts: { gpuId?: number; gen?: number }, where = 'ir3'): Uint32Array {
  const gpuId = resolveGpuId(opts);
  const lines = src.split(/\r?\n/);
  const labels = new Map<string, number>();
  const instrs: { text: string; line: number }[] = [];
  lines.forEach((raw, i) => {
    const l = raw.replace(/^\s*:\d:\d{4}:\d{4}\[[0-9a-f]{8}x_[0-9a-f]{8}x\] /, '').replace(/\s;.*$/, '').trim();
    if (l === '' || l.startsWith(';') || l.startsWith('@')) return;
    const m = /^([A-Za-z_][\w.]*):$/.exec(l);
    if (m) {
      if (labels.has(m[1]!)) throw new Ir3AsmError(`line ${i + 1}: label '${m[1]}' defined twice`, where);
      labels.set(m[1]!, instrs.length);
      return;
    }
    instrs.push({ text: l, line: i + 1 });
  });
  const asm = new Assembler(gpuId, labels, instrs.length);
  const out = new Uint32Array(instrs.length * 2);
  instrs.forEach((ins, n) => {
    asm.n = n;
    let text = ins.text;
    let m = /^raw 0x([0-9A-F]+)$/.exec(text);
    if (m) {
      // `raw 0x%X%X`: low dword then high dword, unpadded; ambiguous unless one split re-prints.
      const h = m[1]!;
      for (let k = 1; k < h.length; k++) {
        const lo = parseInt(h.slice(0, k), 16);
        const hi = parseInt(h.slice(k), 16);
        if (lo > 0xffffffff || hi > 0xffffffff) continue;
        if (lo.toString(16).toUpperCase() + hi.toString(16).toUpperCase() !== h) continue;
        out[n * 2] = lo;
        out[n * 2 + 1] = hi;
        return;
      }
      throw new Ir3AsmError(`line ${ins.line}: bad raw word '${text}'`, where);
    }
    m = /^no match: ([0-9a-f]{8})([0-9a-f]{8})$/.exec(text);
    if (m) {
      out[n * 2] = parseInt(m[2]!, 16);
      out[n * 2 + 1] = parseInt(m[1]!, 16);
      return;
    }
    text = text.replace(/#([A-Za-z_][\w.]*)/g, (all, name: string) => {
      const t = labels.get(name);
      return t === undefined ? all : `#l${t}`;
    });
    const v = asm.instr(text);
    if (v === undefined) throw new Ir3AsmError(`line ${ins.line}: cannot assemble '${ins.text}' for gpu ${gpuId}`, where);
    out[n * 2] = Number(v & 0xffffffffn);
    out[n * 2 + 1] = Number(v >> 32n);
  });
  return out;
}
