/**
 * Lowering of the description subset (jsub.ts) to wasm instructions with JavaScript's number
 * semantics: a value is a double unless it is known to be an int32 (bit and shift operators,
 * Math.imul: kind 's'), a uint32 (`>>>`, uint32 sources: 'u') or a boolean ('b'); mixed
 * arithmetic and comparisons go through f64 as JavaScript does. ToInt32 of a double is
 * i64.trunc_sat_f64_s then i32.wrap_i64, which is JavaScript's ToInt32 for every value whose
 * magnitude is below 2^63 and for NaN (the integer descriptions' values are sums and products of
 * 32-bit values); larger doubles and infinities would differ, so a description producing them
 * must not be lowered (none of the translated ones does).
 */
import { OP, SAT, F64, I32, I64, type FuncBuilder } from './encoder.js';
import { SubsetError, type Expr, type Stmt } from './jsub.js';

/** f64, int32, uint32, boolean (i32 0/1), and an exact integer held in an i64 ('l'). */
export type Kind = 'f' | 's' | 'u' | 'b' | 'l';

/** A name in scope: a local of the function and the kind of value it holds. */
export interface Var {
  readonly local: number;
  readonly kind: Kind;
}

const isInt = (k: Kind) => k !== 'f';

/**
 * The kind `e` evaluates to under JavaScript's number semantics, the names' kinds given by
 * `kind` (shared with the SIMD lowering, simd-int.ts, which must take the same kinds).
 */
export function kindOf(e: Expr, kind: (n: string) => Kind): Kind {
  switch (e.t) {
    case 'num': return 'f';
    case 'name': return kind(e.n);
    case 'un': return e.op === '~' ? 's' : e.op === '!' ? 'b' : 'f';
    case 'cond': {
      const a = kindOf(e.a, kind), b = kindOf(e.b, kind);
      return a === b ? a : isIntish(e.a, kind) && isIntish(e.b, kind) ? 'l' : 'f';
    }
    case 'call':
      switch (e.f) {
        case 'Math.imul': return 's';
        case 'popcnt': case 'mulhiU32': return 'u';
        case 'Math.min': case 'Math.max': {
          const a = kindOf(e.args[0]!, kind), b = kindOf(e.args[1]!, kind);
          return a === b && (a === 's' || a === 'u') ? a : 'f';
        }
        default: return 'f';
      }
    case 'bin':
      switch (e.op) {
        case '&': case '|': case '^': case '<<': case '>>': return 's';
        case '>>>': return 'u';
        // Sums and differences of integers are exact in an i64 (as in a double: |x| < 2^53).
        case '+': case '-': return isIntish(e.a, kind) && isIntish(e.b, kind) ? 'l' : 'f';
        case '*': case '/': return 'f';
        default: return 'b';
      }
  }
}

/** An integer value (int kinds, or an integer number literal below 2^32 in magnitude). */
export function isIntish(e: Expr, kind: (n: string) => Kind): boolean {
  if (e.t === 'num') return Number.isInteger(e.v) && Math.abs(e.v) <= 0xffffffff;
  return kindOf(e, kind) !== 'f';
}

/**
 * The kind a comparison `a op b` is made in ('f': as doubles): as integers when both sides are
 * integers of one signedness (a number literal joins the other side when it is exactly one of its
 * values), as exact integers ('l') when one side is.
 */
export function compareKind(a: Expr, b: Expr, kind: (n: string) => Kind): Kind {
  const ka = kindOf(a, kind), kb = kindOf(b, kind);
  const fits = (e: Expr, k: Kind) => e.t === 'num' && Number.isInteger(e.v) && (k === 'u' ? e.v >= 0 && e.v <= 0xffffffff : e.v >= -0x80000000 && e.v <= 0x7fffffff);
  const intK = (x: Kind) => (x === 'b' ? 'u' : x);
  if ((ka === 'l' && isIntish(b, kind)) || (kb === 'l' && isIntish(a, kind))) return 'l';
  if (isInt(ka) && isInt(kb) && intK(ka) === intK(kb)) return intK(ka);
  if (isInt(ka) && fits(b, intK(ka))) return intK(ka);
  if (isInt(kb) && fits(a, intK(kb))) return intK(kb);
  return 'f';
}

export class Lowerer {
  private readonly scopes: Map<string, Var>[];
  private tmpF = -1;
  private readonly fb: FuncBuilder;
  constructor(fb: FuncBuilder, names: ReadonlyMap<string, Var>) {
    this.fb = fb;
    this.scopes = [new Map(names)];
  }

  private lookup(n: string): Var {
    for (let i = this.scopes.length - 1; i >= 0; i--) {
      const v = this.scopes[i]!.get(n);
      if (v !== undefined) return v;
    }
    throw new SubsetError(`unknown name '${n}'`);
  }

  /** The kind `e` evaluates to (without emitting). */
  kindOf(e: Expr): Kind {
    return kindOf(e, (n) => this.lookup(n).kind);
  }

  private isIntish(e: Expr): boolean {
    return isIntish(e, (n) => this.lookup(n).kind);
  }

  /** Emit `e` converted to `want` ('s': ToInt32 bits). */
  emit(e: Expr, want: Kind): void {
    const fb = this.fb;
    if (e.t === 'num' && want === 'l' && Number.isInteger(e.v) && Math.abs(e.v) < 2 ** 53) {
      fb.i64(e.v);
      return;
    }
    if (e.t === 'num' && want !== 'f' && want !== 'b' && want !== 'l') {
      fb.i32(e.v >= 0 ? e.v >>> 0 : e.v | 0);
      return;
    }
    const k = this.emitRaw(e);
    this.convert(k, want);
  }

  private convert(k: Kind, want: Kind): void {
    const fb = this.fb;
    if (k === want) return;
    if (k === 'l') {
      if (want === 'f') fb.op(OP.f64_convert_i64_s);
      else if (want === 'b') fb.op(OP.i64_eqz, OP.i32_eqz);
      else fb.op(OP.i32_wrap_i64);
      return;
    }
    if (want === 'l') {
      if (k === 'f') fb.sat(SAT.i64_trunc_sat_f64_s);
      else fb.op(k === 's' ? OP.i64_extend_i32_s : OP.i64_extend_i32_u);
      return;
    }
    if (want === 'f') {
      fb.op(k === 's' ? OP.f64_convert_i32_s : OP.f64_convert_i32_u);
    } else if (want === 'b') {
      if (k === 'f') {
        // JavaScript truthiness of a double: not 0 and not NaN.
        if (this.tmpF < 0) this.tmpF = fb.local(F64);
        fb.tee(this.tmpF).f64(0).op(OP.f64_ne).get(this.tmpF).get(this.tmpF).op(OP.f64_eq, OP.i32_and);
      } else fb.op(OP.i32_eqz, OP.i32_eqz);
    } else if (k === 'f') {
      fb.sat(SAT.i64_trunc_sat_f64_s).op(OP.i32_wrap_i64);
    }
    // s, u, b -> s/u: the same 32 bits.
  }

  private emitRaw(e: Expr): Kind {
    const fb = this.fb;
    switch (e.t) {
      case 'num':
        fb.f64(e.v);
        return 'f';
      case 'name': {
        const v = this.lookup(e.n);
        fb.get(v.local);
        return v.kind;
      }
      case 'un':
        if (e.op === '-') {
          this.emit(e.a, 'f');
          fb.op(OP.f64_neg);
          return 'f';
        }
        if (e.op === '~') {
          this.emit(e.a, 's');
          fb.i32(-1).op(OP.i32_xor);
          return 's';
        }
        this.emit(e.a, 'b');
        fb.op(OP.i32_eqz);
        return 'b';
      case 'cond': {
        const k = this.kindOf(e);
        this.emit(e.c, 'b');
        fb.op(OP.if, k === 'f' ? F64 : k === 'l' ? I64 : I32);
        this.emit(e.a, k);
        fb.op(OP.else);
        this.emit(e.b, k);
        fb.op(OP.end);
        return k;
      }
      case 'call':
        return this.call(e.f, e.args);
      case 'bin':
        return this.binary(e.op, e.a, e.b);
    }
  }

  private call(f: string, args: readonly Expr[]): Kind {
    const fb = this.fb;
    const need = (n: number) => {
      if (args.length !== n) throw new SubsetError(`${f}: ${args.length} arguments`);
    };
    switch (f) {
      case 'Math.imul':
        need(2);
        this.emit(args[0]!, 's');
        this.emit(args[1]!, 's');
        fb.op(OP.i32_mul);
        return 's';
      case 'popcnt':
        need(1);
        this.emit(args[0]!, 's');
        fb.op(OP.i32_popcnt);
        return 'u';
      case 'mulhiU32':
        need(2);
        this.emit(args[0]!, 'u');
        fb.op(OP.i64_extend_i32_u);
        this.emit(args[1]!, 'u');
        fb.op(OP.i64_extend_i32_u, OP.i64_mul).i64(32).op(OP.i64_shr_u, OP.i32_wrap_i64);
        return 'u';
      case 'Math.trunc':
      case 'Math.abs':
        need(1);
        this.emit(args[0]!, 'f');
        fb.op(f === 'Math.trunc' ? OP.f64_trunc : OP.f64_abs);
        return 'f';
      case 'Math.min':
      case 'Math.max': {
        need(2);
        const k = this.kindOf({ t: 'call', f, args });
        if (k === 'f') {
          this.emit(args[0]!, 'f');
          this.emit(args[1]!, 'f');
          fb.op(f === 'Math.min' ? OP.f64_min : OP.f64_max);
          return 'f';
        }
        // select(a, b, a < b) for min: both operands evaluated once into locals.
        const a = fb.local(I32), b = fb.local(I32);
        this.emit(args[0]!, k);
        fb.set(a);
        this.emit(args[1]!, k);
        fb.set(b);
        fb.get(a).get(b).get(a).get(b);
        const lt = k === 's' ? OP.i32_lt_s : OP.i32_lt_u;
        const gt = k === 's' ? OP.i32_gt_s : OP.i32_gt_u;
        fb.op(f === 'Math.min' ? lt : gt, OP.select);
        return k;
      }
      default:
        throw new SubsetError(`unknown function '${f}'`);
    }
  }

  private binary(op: string, a: Expr, b: Expr): Kind {
    const fb = this.fb;
    const bits: Readonly<Record<string, number>> = { '&': OP.i32_and, '|': OP.i32_or, '^': OP.i32_xor, '<<': OP.i32_shl, '>>': OP.i32_shr_s, '>>>': OP.i32_shr_u };
    const arith: Readonly<Record<string, number>> = { '+': OP.f64_add, '-': OP.f64_sub, '*': OP.f64_mul, '/': OP.f64_div };
    if (bits[op] !== undefined) {
      // Shift counts: wasm takes the count modulo 32, as JavaScript does.
      this.emit(a, 's');
      this.emit(b, 's');
      fb.op(bits[op]!);
      return op === '>>>' ? 'u' : 's';
    }
    if ((op === '+' || op === '-') && this.kindOf({ t: 'bin', op, a, b }) === 'l') {
      this.emit(a, 'l');
      this.emit(b, 'l');
      fb.op(op === '+' ? OP.i64_add : OP.i64_sub);
      return 'l';
    }
    if (arith[op] !== undefined) {
      this.emit(a, 'f');
      this.emit(b, 'f');
      fb.op(arith[op]!);
      return 'f';
    }
    if (op === '&&' || op === '||') {
      this.emit(a, 'b');
      fb.op(OP.if, I32);
      if (op === '&&') this.emit(b, 'b');
      else fb.i32(1);
      fb.op(OP.else);
      if (op === '&&') fb.i32(0);
      else this.emit(b, 'b');
      fb.op(OP.end);
      return 'b';
    }
    // Comparisons: as int32 or exact integers where compareKind says so, else as doubles.
    const k = compareKind(a, b, (n) => this.lookup(n).kind);
    const I: Readonly<Record<string, readonly [number, number, number]>> = {
      // [f64, i32 signed, i32 unsigned]
      '===': [OP.f64_eq, OP.i32_eq, OP.i32_eq], '==': [OP.f64_eq, OP.i32_eq, OP.i32_eq],
      '!==': [OP.f64_ne, OP.i32_ne, OP.i32_ne], '!=': [OP.f64_ne, OP.i32_ne, OP.i32_ne],
      '<': [OP.f64_lt, OP.i32_lt_s, OP.i32_lt_u], '>': [OP.f64_gt, OP.i32_gt_s, OP.i32_gt_u],
      '<=': [OP.f64_le, OP.i32_le_s, OP.i32_le_u], '>=': [OP.f64_ge, OP.i32_ge_s, OP.i32_ge_u],
    };
    const L: Readonly<Record<string, number>> = { '===': OP.i64_eq, '==': OP.i64_eq, '!==': OP.i64_ne, '!=': OP.i64_ne, '<': OP.i64_lt_s, '>': OP.i64_gt_s, '<=': OP.i64_le_s, '>=': OP.i64_ge_s };
    const ops = I[op];
    if (ops === undefined) throw new SubsetError(`unknown operator '${op}'`);
    this.emit(a, k);
    this.emit(b, k);
    fb.op(k === 'l' ? L[op]! : ops[k === 'f' ? 0 : k === 's' ? 1 : 2]);
    return 'b';
  }

  /** Emit statements. Assignments go to names in scope; declarations add locals. */
  stmts(ss: readonly Stmt[]): void {
    for (const s of ss) this.stmt(s);
  }

  private stmt(s: Stmt): void {
    const fb = this.fb;
    switch (s.t) {
      case 'block':
        this.scopes.push(new Map());
        this.stmts(s.body);
        this.scopes.pop();
        return;
      case 'decl':
        for (const [n, e] of s.items) {
          const k = s.konst ? this.kindOf(e) : 'f';
          const local = fb.local(k === 'f' ? F64 : k === 'l' ? I64 : I32);
          this.emit(e, k);
          fb.set(local);
          this.scopes[this.scopes.length - 1]!.set(n, { local, kind: k });
        }
        return;
      case 'assign': {
        const v = this.lookup(s.n);
        this.emit(s.e, v.kind);
        fb.set(v.local);
        return;
      }
      case 'if':
        this.emit(s.c, 'b');
        fb.op(OP.if, 0x40);
        this.scopes.push(new Map());
        this.stmt(s.a);
        this.scopes.pop();
        if (s.b !== null) {
          fb.op(OP.else);
          this.scopes.push(new Map());
          this.stmt(s.b);
          this.scopes.pop();
        }
        fb.op(OP.end);
        return;
    }
  }
}

