/**
 * Two lanes at a time (wasm SIMD, f64x2) for the f32 descriptions the wasm tier takes: the same
 * lane statements (exec/valu-f32.ts, parsed by jsub.ts) lowered over pairs of lanes instead of one
 * lane, for a whole row when EXEC is all ones. Every value of those statements is a double (the
 * sources' f32 values, the exact result `x`, its remainder `e` and their temporaries), so each
 * becomes an f64x2; an `if` over doubles is if-converted (both sides computed, each assignment
 * kept per lane by the condition's mask with v128.bitselect): the statements are pure arithmetic,
 * so computing a branch a lane does not take changes nothing but the discarded value. Statements
 * outside that subset (integer values, calls, `?:`) throw SubsetError and the op keeps the scalar
 * loop (valu.ts).
 *
 * Measured (docs/speed.md, seventh pass): an fma over 32 lanes with the midpoint and NaN tests took
 * 70-80 ns a call this way against 240-285 ns for the fast tier's JavaScript lanes.
 */
import { FuncBuilder, SIMD, V128 } from './encoder.js';
import { SubsetError, type Expr, type Stmt } from './jsub.js';


/** Nested scopes of names (a block's declarations end with it), shared by both SIMD lowerings. */
export class Scopes<T> {
  readonly all: Map<string, T>[];
  constructor(names: ReadonlyMap<string, T>) {
    this.all = [new Map(names)];
  }
  lookup(n: string, unknown: () => string): T {
    for (let i = this.all.length - 1; i >= 0; i--) {
      const x = this.all[i]!.get(n);
      if (x !== undefined) return x;
    }
    throw new SubsetError(unknown());
  }
  /** The innermost scope (a declaration's). */
  top(): Map<string, T> {
    return this.all[this.all.length - 1]!;
  }
  /** A block's statements, each lowered by `each`, inside a new scope. */
  block(body: readonly Stmt[], each: (s: Stmt) => void): void {
    this.all.push(new Map());
    try {
      for (const s of body) each(s);
    } finally {
      this.all.pop();
    }
  }
}

const BIN: Readonly<Record<string, number>> = { '+': SIMD.f64x2_add, '-': SIMD.f64x2_sub, '*': SIMD.f64x2_mul, '/': SIMD.f64x2_div };

/** Lowers f64-only lane statements over f64x2 locals (names: the variables in scope, each a v128 local). */
export class VecLowerer {
  private readonly fb: FuncBuilder;
  private readonly scopes: Scopes<number>;

  constructor(fb: FuncBuilder, names: ReadonlyMap<string, number>) {
    this.fb = fb;
    this.scopes = new Scopes(names);
  }

  stmts(ss: readonly Stmt[]): void {
    for (const s of ss) this.stmt(s, -1);
  }

  private lookup(n: string): number {
    return this.scopes.lookup(n, () => `${n} is not a double the SIMD lowering knows`);
  }

  /** One statement; `guard`: the local holding the mask of the lanes it runs for (-1: all). */
  private stmt(s: Stmt, guard: number): void {
    const fb = this.fb;
    switch (s.t) {
      case 'block':
        this.scopes.block(s.body, (x) => this.stmt(x, guard));
        return;
      case 'decl':
        // A declaration is computed for every lane (pure arithmetic), guarded or not.
        for (const [n, e] of s.items) {
          const l = fb.local(V128);
          this.value(e);
          fb.set(l);
          this.scopes.top().set(n, l);
        }
        return;
      case 'assign': {
        const l = this.lookup(s.n);
        this.value(s.e);
        if (guard >= 0) fb.get(l).get(guard).simd(SIMD.v128_bitselect);
        fb.set(l);
        return;
      }
      case 'if':
        ifConverted(fb, guard, () => this.mask(s.c), (m) => this.stmt(s.a, m), s.b === null ? null : (n) => this.stmt(s.b!, n));
        return;
    }
  }

  /** A double-valued expression: leaves an f64x2. */
  private value(e: Expr): void {
    const fb = this.fb;
    switch (e.t) {
      case 'num':
        fb.v128f64(e.v);
        return;
      case 'name':
        fb.get(this.lookup(e.n));
        return;
      case 'un':
        if (e.op !== '-') break;
        this.value(e.a);
        fb.simd(SIMD.f64x2_neg);
        return;
      case 'bin': {
        const op = BIN[e.op];
        if (op === undefined) break;
        this.value(e.a);
        this.value(e.b);
        fb.simd(op);
        return;
      }
      default:
        break;
    }
    throw new SubsetError(`not a double expression for the SIMD lowering (${e.t}${'op' in e ? ` ${e.op}` : ''})`);
  }

  /** A comparison of doubles (or && / || of comparisons): leaves a lane mask. */
  private mask(e: Expr): void {
    const fb = this.fb;
    if (e.t === 'bin') {
      if (e.op === '===' || e.op === '!==') {
        this.value(e.a);
        this.value(e.b);
        fb.simd(e.op === '===' ? SIMD.f64x2_eq : SIMD.f64x2_ne);
        return;
      }
      if (e.op === '&&' || e.op === '||') {
        this.mask(e.a);
        this.mask(e.b);
        fb.simd(e.op === '&&' ? SIMD.v128_and : SIMD.v128_or);
        return;
      }
    }
    throw new SubsetError('not a comparison of doubles for the SIMD lowering');
  }
}

/**
 * An `if` over a per-lane condition, if-converted: `mask()` leaves the condition's lane mask, `a`
 * then `b` (if any) lower their statements guarded by the masks of the lanes that take them (the
 * condition's, or its complement, within `guard`: -1 for every lane). Shared by both SIMD lowerings.
 */
export function ifConverted(fb: FuncBuilder, guard: number, mask: () => void, a: (m: number) => void, b: ((n: number) => void) | null): void {
  const m = fb.local(V128);
  mask();
  if (guard >= 0) fb.get(guard).simd(SIMD.v128_and);
  fb.set(m);
  a(m);
  if (b === null) return;
  const n = fb.local(V128);
  if (guard >= 0) fb.get(guard).get(m).simd(SIMD.v128_andnot);
  else fb.get(m).simd(SIMD.v128_not);
  fb.set(n);
  b(n);
}

/** Whether `body` lowers over pairs of lanes with the doubles `names` in scope (a dry run). */
export function vectorizable(body: readonly Stmt[], names: readonly string[]): boolean {
  const fb = new FuncBuilder(0);
  try {
    new VecLowerer(fb, new Map(names.map((n) => [n, fb.local(V128)]))).stmts(body);
    return true;
  } catch (e) {
    if (e instanceof SubsetError) return false;
    throw e;
  }
}
