/**
 * Four lanes at a time (wasm SIMD, i32x4) for the integer lane statements the wasm tier takes
 * (exec/valu-int.ts, the integer compares of exec/valu-cmp-ops.ts): the same statements the scalar
 * lane loop lowers (lower.ts, JavaScript's number semantics), lowered over four consecutive lanes
 * of a row when EXEC is all ones (valu.ts). Kinds follow lower.ts exactly (its `kindOf`,
 * `compareKind`): an int32 or uint32 value is an i32x4 ('s', 'u'), a boolean a lane mask ('m':
 * all ones for true), and an exact integer ('l': lower.ts's i64, the sums and differences of
 * 32-bit values) a pair of i32x4 holding each lane's low and high dwords (two's complement, carries
 * and borrows between them by unsigned compares). A double is taken only where it is integral: a
 * `let` variable, a `?:` of integers, a literal, or sums of those (the compares' outcome `o`,
 * v_mad_u64_u32's high dword): each such double is an integer below 2^53 in magnitude, so it is
 * exact as a pair and every operation on it gives what the double gives.
 *
 * A value that is the same for every lane (a name bound to an SGPR, a literal or an inline
 * constant, and expressions of those only) is computed once by the scalar lowering (lower.ts) and
 * splatted; so is a shift count (wasm's vector shifts take one count; a count that differs per
 * lane is shifted lane by lane). An `if` over a uniform condition is a branch; over a per-lane one
 * it is if-converted (both sides run, each assignment kept per lane by the mask with
 * v128.bitselect): the statements are pure integer arithmetic (no division, nothing traps), so a
 * side a lane does not take changes nothing but the discarded values. Anything else (floats,
 * products as doubles, unknown calls) throws SubsetError and the op keeps the scalar lane loop.
 */
import { FuncBuilder, OP, SIMD, I32, I64, F64, V128 } from './encoder.js';
import { SubsetError, type Expr, type Stmt } from './jsub.js';
import { Scopes, ifConverted } from './simd.js';
import { Lowerer, compareKind, kindOf, type Kind, type Var } from './lower.js';

/** int32 / uint32 bits, a lane mask, an exact integer as a (low, high) pair of rows. */
export type VKind = 'u' | 's' | 'm' | 'l';

/**
 * A name in scope. A vector name holds its lanes in v128 locals (`hi`: an 'l' pair's high
 * dwords) and tells `kindOf` the scalar kind `sk` lower.ts gives it ('f' for a `let`, held as an
 * exact pair); a uniform name is a scalar local of lower.ts (`integral`: a double known to be an
 * integer below 2^53).
 */
export type VName =
  | { readonly vec: true; readonly kind: VKind; readonly lo: number; readonly hi: number; readonly sk: Kind }
  | { readonly vec: false; readonly v: Var; readonly integral: boolean };

/** A value produced: a u, s or m row on the wasm stack, or an exact pair in locals. */
type Val = { readonly k: 'u' | 's' | 'm' } | { readonly k: 'l'; readonly lo: number; readonly hi: number };
/** A uniform value splatted (in `pre`): a row's local, or a pair. */
type Splat = { readonly k: 'u' | 's' | 'm'; readonly local: number } | { readonly k: 'l'; readonly lo: number; readonly hi: number };

const ICMP: Readonly<Record<string, readonly [number, number]>> = {
  // [signed, unsigned]
  '===': [SIMD.i32x4_eq, SIMD.i32x4_eq], '==': [SIMD.i32x4_eq, SIMD.i32x4_eq],
  '!==': [SIMD.i32x4_ne, SIMD.i32x4_ne], '!=': [SIMD.i32x4_ne, SIMD.i32x4_ne],
  '<': [SIMD.i32x4_lt_s, SIMD.i32x4_lt_u], '>': [SIMD.i32x4_gt_s, SIMD.i32x4_gt_u],
  '<=': [SIMD.i32x4_le_s, SIMD.i32x4_le_u], '>=': [SIMD.i32x4_ge_s, SIMD.i32x4_ge_u],
};
const SHIFT: Readonly<Record<string, readonly [number, number]>> = { '<<': [SIMD.i32x4_shl, OP.i32_shl], '>>': [SIMD.i32x4_shr_s, OP.i32_shr_s], '>>>': [SIMD.i32x4_shr_u, OP.i32_shr_u] };
const BITS: Readonly<Record<string, number>> = { '&': SIMD.v128_and, '|': SIMD.v128_or, '^': SIMD.v128_xor };
/** Byte lanes of the high dwords of two i64x2 products (mulhiU32). */
const HIGH_DWORDS = [4, 5, 6, 7, 12, 13, 14, 15, 20, 21, 22, 23, 28, 29, 30, 31];

/** Lowers integer lane statements over four lanes (see the file comment). */
export class IntVecLowerer {
  /** The per-lane code (a loop body); `pre`: code run once before it (uniform values). */
  private readonly fb: FuncBuilder;
  private readonly pre: FuncBuilder;
  private readonly scopes: Scopes<VName>;
  /** Uniform values splatted (in `pre`), by expression (or uniform name) and kind. */
  private readonly splats = new Map<Expr | VName, Map<VKind, Splat>>();
  private readonly uniformOf = new Map<Expr, boolean>();
  private readonly kind = (n: string): Kind => {
    const x = this.lookup(n);
    return x.vec ? x.sk : x.v.kind;
  };

  /** A local holding an all-zero row (the caller's, zeroed). */
  private readonly z: number;

  /**
   * Per-lane code goes to `fb`, code computing uniform values (once: they are the same for every
   * group of four lanes) to `pre`, which the caller places before the loop running `fb`'s code.
   */
  constructor(fb: FuncBuilder, pre: FuncBuilder, names: ReadonlyMap<string, VName>, zero: number) {
    this.fb = fb;
    this.pre = pre;
    this.scopes = new Scopes(names);
    this.z = zero;
  }

  stmts(ss: readonly Stmt[]): void {
    for (const s of ss) this.stmt(s, -1);
  }

  private lookup(n: string): VName {
    return this.scopes.lookup(n, () => `unknown name '${n}'`);
  }

  /** Whether `e` is the same for every lane: only uniform names (and literals). */
  private uniform(e: Expr): boolean {
    let u = this.uniformOf.get(e);
    if (u === undefined) {
      switch (e.t) {
        case 'num': u = true; break;
        case 'name': u = !this.lookup(e.n).vec; break;
        case 'un': u = this.uniform(e.a); break;
        case 'bin': u = this.uniform(e.a) && this.uniform(e.b); break;
        case 'cond': u = this.uniform(e.c) && this.uniform(e.a) && this.uniform(e.b); break;
        case 'call': u = e.args.every((a) => this.uniform(a)); break;
      }
      this.uniformOf.set(e, u);
    }
    return u;
  }

  /** Whether `e` (of any kind) is an integer below 2^53 in magnitude: an int kind, or a double built from integers by ?:, + and -. */
  private integral(e: Expr): boolean {
    if (kindOf(e, this.kind) !== 'f') return true;
    switch (e.t) {
      case 'num': return Number.isInteger(e.v) && Math.abs(e.v) < 2 ** 52;
      case 'name': {
        const x = this.lookup(e.n);
        return x.vec || x.integral;
      }
      case 'cond': return this.integral(e.a) && this.integral(e.b);
      case 'un': return e.op === '-' && this.integral(e.a);
      case 'bin': return (e.op === '+' || e.op === '-') && this.integral(e.a) && this.integral(e.b);
      default: return false;
    }
  }

  /** A scalar lowering (into `pre`) over the uniform names in scope. */
  private scalar(): Lowerer {
    const names = new Map<string, Var>();
    for (const s of this.scopes.all) for (const [n, x] of s) if (!x.vec) names.set(n, x.v);
    return new Lowerer(this.pre, names);
  }

  private pairLocals(): { lo: number; hi: number } {
    return { lo: this.fb.local(V128), hi: this.fb.local(V128) };
  }

  /** `e` as `want`: a row left on the stack, or (want 'l') an exact pair. */
  private val(e: Expr, want: VKind): Val {
    if (this.uniform(e)) return this.splat(e, want);
    if (want === 'u' || want === 's') {
      // Only the low dword wanted: a sum's or difference's is the low dwords' (modulo 2^32), a
      // ?: picks between its sides' (no pair made for the high dwords nobody reads).
      const fb = this.fb;
      if (e.t === 'bin' && (e.op === '+' || e.op === '-') && this.integral(e)) {
        this.row(e.a, 's');
        this.row(e.b, 's');
        fb.simd(e.op === '+' ? SIMD.i32x4_add : SIMD.i32x4_sub);
        return { k: want };
      }
      if (e.t === 'un' && e.op === '-' && this.integral(e)) {
        this.zero();
        this.row(e.a, 's');
        fb.simd(SIMD.i32x4_sub);
        return { k: want };
      }
      if (e.t === 'cond' && this.integral(e)) {
        this.row(e.a, want);
        this.row(e.b, want);
        this.row(e.c, 'm');
        fb.simd(SIMD.v128_bitselect);
        return { k: want };
      }
    }
    return this.convert(this.raw(e), want);
  }

  /** A row of `e` as u, s or m, left on the stack. */
  private row(e: Expr, want: 'u' | 's' | 'm'): void {
    this.val(e, want);
  }

  private pair(e: Expr): { readonly lo: number; readonly hi: number } {
    return this.val(e, 'l') as { k: 'l'; lo: number; hi: number };
  }

  /**
   * A uniform `e`, computed once (in `pre`) as lower.ts computes it and splatted: left on the
   * stack (a row), or its pair's locals.
   */
  private splat(e: Expr, want: VKind): Val {
    const key: Expr | VName = e.t === 'name' ? this.lookup(e.n) : e;
    let byKind = this.splats.get(key);
    if (byKind === undefined) this.splats.set(key, (byKind = new Map()));
    let v = byKind.get(want);
    if (v === undefined) {
      v = this.splatOnce(e, want);
      byKind.set(want, v);
    }
    if (v.k === 'l') return v;
    this.fb.get(v.local);
    return { k: v.k };
  }

  private splatOnce(e: Expr, want: VKind): Splat {
    const pre = this.pre;
    const sc = this.scalar();
    if (want === 'l') {
      if (kindOf(e, this.kind) === 'f' && !this.integral(e)) throw new SubsetError('a double that may not be an integer');
      const p = this.pairLocals();
      if (e.t === 'num') {
        // A literal pair as constants.
        const x = e.v;
        pre.v128i32([x, x, x, x].map((y) => y % 2 ** 32 >>> 0) as [number, number, number, number]).set(p.lo);
        const h = Math.floor(x / 2 ** 32) | 0;
        pre.v128i32([h, h, h, h]).set(p.hi);
        return { k: 'l', ...p };
      }
      const t = pre.local(I64);
      sc.emit(e, 'l');
      pre.set(t);
      pre.get(t).op(OP.i32_wrap_i64).simd(SIMD.i32x4_splat).set(p.lo);
      pre.get(t).i64(32).op(OP.i64_shr_s, OP.i32_wrap_i64).simd(SIMD.i32x4_splat).set(p.hi);
      return { k: 'l', ...p };
    }
    const local = pre.local(V128);
    sc.emit(e, want === 'm' ? 'b' : want);
    // A boolean (0 or 1) to a mask: (b === 0) - 1.
    if (want === 'm') pre.op(OP.i32_eqz).i32(1).op(OP.i32_sub);
    pre.simd(SIMD.i32x4_splat).set(local);
    return { k: want, local };
  }

  /** An all-zero row (one local per function, set where the lowering starts). */
  private zero(): void {
    this.fb.get(this.z);
  }

  /** Convert `v` (on the stack unless a pair) to `want`. */
  private convert(v: Val, want: VKind): Val {
    const fb = this.fb;
    if (want === 'l') {
      if (v.k === 'l') return v;
      const p = this.pairLocals();
      // A mask's number is 1 for true.
      if (v.k === 'm') fb.simd(SIMD.i32x4_neg);
      if (v.k === 's') fb.tee(p.lo).i32(31).simd(SIMD.i32x4_shr_s).set(p.hi);
      else {
        fb.set(p.lo);
        this.zero();
        fb.set(p.hi);
      }
      return { k: 'l', ...p };
    }
    if (v.k === 'l') {
      // An exact integer to int32/uint32 bits is its low dword (ToInt32 is modulo 2^32); its truth is not zero.
      fb.get(v.lo);
      if (want === 'm') {
        fb.get(v.hi).simd(SIMD.v128_or);
        this.zero();
        fb.simd(SIMD.i32x4_ne);
      }
      return { k: want };
    }
    if (v.k === want) return v;
    if (want === 'm') {
      this.zero();
      fb.simd(SIMD.i32x4_ne);
    } else if (v.k === 'm') fb.simd(SIMD.i32x4_neg);
    return { k: want };
  }

  /** A per-lane `e` in the kind it evaluates to (a double only when integral: as a pair). */
  private raw(e: Expr): Val {
    const fb = this.fb;
    const k = kindOf(e, this.kind);
    if (k === 'f' && !this.integral(e)) throw new SubsetError(`a double for the integer SIMD lowering (${e.t})`);
    switch (e.t) {
      case 'num':
        return this.splat(e, 'l');
      case 'name': {
        const x = this.lookup(e.n);
        if (!x.vec) return this.splat(e, k === 'b' ? 'm' : k === 'f' ? 'l' : k);
        if (x.kind === 'l') return { k: 'l', lo: x.lo, hi: x.hi };
        fb.get(x.lo);
        return { k: x.kind };
      }
      case 'un':
        if (e.op === '~') {
          this.row(e.a, 's');
          fb.simd(SIMD.v128_not);
          return { k: 's' };
        }
        if (e.op === '!') {
          this.row(e.a, 'm');
          fb.simd(SIMD.v128_not);
          return { k: 'm' };
        }
        return this.sum(null, e.a, '-');
      case 'cond': {
        if (k === 'l' || k === 'f') {
          const a = this.pair(e.a), b = this.pair(e.b);
          const m = fb.local(V128);
          this.row(e.c, 'm');
          fb.set(m);
          const p = this.pairLocals();
          fb.get(a.lo).get(b.lo).get(m).simd(SIMD.v128_bitselect).set(p.lo);
          fb.get(a.hi).get(b.hi).get(m).simd(SIMD.v128_bitselect).set(p.hi);
          return { k: 'l', ...p };
        }
        const vk = k === 'b' ? 'm' : k;
        this.row(e.a, vk);
        this.row(e.b, vk);
        this.row(e.c, 'm');
        fb.simd(SIMD.v128_bitselect);
        return { k: vk };
      }
      case 'call':
        return this.call(e.f, e.args, k);
      case 'bin':
        return this.binary(e.op, e.a, e.b);
    }
  }

  /** a + b or a - b (a null: 0 - b) as exact pairs: the low dwords' carry (or borrow) goes into the high dwords. */
  private sum(a: Expr | null, b: Expr, op: '+' | '-'): Val {
    const fb = this.fb;
    const A = a === null ? null : this.pair(a);
    const B = this.pair(b);
    const p = this.pairLocals();
    if (A === null) this.zero();
    else fb.get(A.lo);
    fb.get(B.lo).simd(op === '+' ? SIMD.i32x4_add : SIMD.i32x4_sub).set(p.lo);
    // High dwords, then the carry (lo < a.lo: all ones, i.e. -1, so subtracted) or the borrow (a.lo < b.lo: added).
    if (A === null) this.zero();
    else fb.get(A.hi);
    fb.get(B.hi).simd(op === '+' ? SIMD.i32x4_add : SIMD.i32x4_sub);
    if (op === '+') fb.get(p.lo).get(A === null ? B.lo : A.lo).simd(SIMD.i32x4_lt_u).simd(SIMD.i32x4_sub);
    else {
      if (A === null) this.zero();
      else fb.get(A.lo);
      fb.get(B.lo).simd(SIMD.i32x4_lt_u).simd(SIMD.i32x4_add);
    }
    fb.set(p.hi);
    return { k: 'l', ...p };
  }

  private call(f: string, args: readonly Expr[], k: Kind): Val {
    const fb = this.fb;
    if ((f === 'Math.imul' || f === 'mulhiU32' || f === 'Math.min' || f === 'Math.max') && args.length !== 2) throw new SubsetError(`${f}: ${args.length} arguments`);
    switch (f) {
      case 'Math.imul':
        this.row(args[0]!, 's');
        this.row(args[1]!, 's');
        fb.simd(SIMD.i32x4_mul);
        return { k: 's' };
      case 'popcnt':
        if (args.length !== 1) throw new SubsetError('popcnt: arguments');
        this.row(args[0]!, 's');
        fb.simd(SIMD.i8x16_popcnt).simd(SIMD.i16x8_extadd_pairwise_i8x16_u).simd(SIMD.i32x4_extadd_pairwise_i16x8_u);
        return { k: 'u' };
      case 'mulhiU32': {
        // The high dwords of the four 64-bit products (two i64x2 products, shuffled).
        const a = fb.local(V128), b = fb.local(V128);
        this.row(args[0]!, 'u');
        fb.set(a);
        this.row(args[1]!, 'u');
        fb.set(b);
        fb.get(a).get(b).simd(SIMD.i64x2_extmul_low_i32x4_u);
        fb.get(a).get(b).simd(SIMD.i64x2_extmul_high_i32x4_u);
        fb.shuffle(HIGH_DWORDS);
        return { k: 'u' };
      }
      case 'Math.min':
      case 'Math.max': {
        if (k !== 's' && k !== 'u') throw new SubsetError(`${f} of doubles`);
        this.row(args[0]!, k);
        this.row(args[1]!, k);
        const ops = f === 'Math.min' ? [SIMD.i32x4_min_s, SIMD.i32x4_min_u] : [SIMD.i32x4_max_s, SIMD.i32x4_max_u];
        fb.simd(ops[k === 's' ? 0 : 1]!);
        return { k };
      }
      default:
        throw new SubsetError(`'${f}' in the integer SIMD lowering`);
    }
  }

  private binary(op: string, a: Expr, b: Expr): Val {
    const fb = this.fb;
    const bit = BITS[op];
    if (bit !== undefined) {
      this.row(a, 's');
      this.row(b, 's');
      fb.simd(bit);
      return { k: 's' };
    }
    const sh = SHIFT[op];
    if (sh !== undefined) {
      const out: 's' | 'u' = op === '>>>' ? 'u' : 's';
      // wasm takes a shift count modulo 32, as JavaScript does.
      if (this.uniform(b)) {
        const n = this.pre.local(I32);
        this.scalar().emit(b, 's');
        this.pre.set(n);
        this.row(a, 's');
        fb.get(n).simd(sh[0]);
        return { k: out };
      }
      const x = fb.local(V128), c = fb.local(V128), r = fb.local(V128);
      this.row(a, 's');
      fb.tee(x).set(r);
      this.row(b, 's');
      fb.set(c);
      for (let j = 0; j < 4; j++) {
        fb.get(r).get(x).simdLane(SIMD.i32x4_extract_lane, j).get(c).simdLane(SIMD.i32x4_extract_lane, j).op(sh[1]);
        fb.simdLane(SIMD.i32x4_replace_lane, j).set(r);
      }
      fb.get(r);
      return { k: out };
    }
    if (op === '+' || op === '-') {
      if (!this.integral({ t: 'bin', op, a, b })) throw new SubsetError(`a double ${op} for the integer SIMD lowering`);
      return this.sum(a, b, op);
    }
    if (op === '&&' || op === '||') {
      this.row(a, 'm');
      this.row(b, 'm');
      fb.simd(op === '&&' ? SIMD.v128_and : SIMD.v128_or);
      return { k: 'm' };
    }
    const cmp = ICMP[op];
    if (cmp === undefined) throw new SubsetError(`operator '${op}' in the integer SIMD lowering`);
    let k = compareKind(a, b, this.kind);
    if (k === 'f') {
      // Doubles that are integers below 2^53 compare as their exact pairs.
      if (!this.integral(a) || !this.integral(b)) throw new SubsetError('a comparison of doubles');
      k = 'l';
    }
    if (k !== 'l') {
      const rk = k === 's' ? 's' : 'u';
      this.row(a, rk);
      this.row(b, rk);
      fb.simd(cmp[k === 's' ? 0 : 1]!);
      return { k: 'm' };
    }
    const A = this.pair(a), B = this.pair(b);
    const eq = () => fb.get(A.lo).get(B.lo).simd(SIMD.i32x4_eq).get(A.hi).get(B.hi).simd(SIMD.i32x4_eq).simd(SIMD.v128_and);
    // x < y: its high dword less (signed), or equal with the low dword less (unsigned).
    const lt = (x: typeof A, y: typeof A) => {
      fb.get(x.hi).get(y.hi).simd(SIMD.i32x4_lt_s);
      fb.get(x.hi).get(y.hi).simd(SIMD.i32x4_eq).get(x.lo).get(y.lo).simd(SIMD.i32x4_lt_u).simd(SIMD.v128_and).simd(SIMD.v128_or);
    };
    switch (op) {
      case '===': case '==': eq(); break;
      case '!==': case '!=': eq(); fb.simd(SIMD.v128_not); break;
      case '<': lt(A, B); break;
      case '>': lt(B, A); break;
      case '<=': lt(B, A); fb.simd(SIMD.v128_not); break;
      default: lt(A, B); fb.simd(SIMD.v128_not); break;
    }
    return { k: 'm' };
  }

  /** A per-lane condition as a mask (a uniform one as a splatted mask). */
  private mask(e: Expr): void {
    this.row(e, 'm');
  }

  /** One statement; `guard`: the local holding the mask of the lanes it runs for (-1: all). */
  private stmt(s: Stmt, guard: number): void {
    const fb = this.fb;
    switch (s.t) {
      case 'block':
        this.scopes.block(s.body, (x) => this.stmt(x, guard));
        return;
      case 'decl': {
        const scope = this.scopes.top();
        for (const [n, e] of s.items) {
          // A uniform constant: a scalar local, as lower.ts declares it.
          if (s.konst && this.uniform(e)) {
            const k = kindOf(e, this.kind);
            const local = fb.local(k === 'f' ? F64 : k === 'l' ? I64 : I32);
            const integral = this.integral(e);
            this.scalar().emit(e, k);
            this.pre.set(local);
            scope.set(n, { vec: false, v: { local, kind: k }, integral });
            continue;
          }
          // Per lane (computed for every lane, guarded or not: pure arithmetic). A `let` is a
          // double (lower.ts): held as an exact pair, so every value it takes must be integral.
          const sk = s.konst ? kindOf(e, this.kind) : 'f';
          const vk: VKind = sk === 'b' ? 'm' : sk === 'f' ? 'l' : sk;
          const v = this.val(e, vk);
          if (v.k === 'l') {
            // A fresh pair (the value may be another name's locals).
            const p = this.pairLocals();
            fb.get(v.lo).set(p.lo).get(v.hi).set(p.hi);
            scope.set(n, { vec: true, kind: 'l', lo: p.lo, hi: p.hi, sk });
          } else {
            const l = fb.local(V128);
            fb.set(l);
            scope.set(n, { vec: true, kind: vk, lo: l, hi: -1, sk });
          }
        }
        return;
      }
      case 'assign': {
        const x = this.lookup(s.n);
        if (!x.vec) throw new SubsetError(`assignment to a uniform name '${s.n}'`);
        if (x.sk === 'f' && !this.integral(s.e)) throw new SubsetError(`a double assigned to '${s.n}'`);
        const v = this.val(s.e, x.kind);
        if (v.k === 'l') {
          // The value's halves are in locals of their own already (or are the name's own).
          if (guard >= 0) {
            fb.get(v.lo).get(x.lo).get(guard).simd(SIMD.v128_bitselect).set(x.lo);
            fb.get(v.hi).get(x.hi).get(guard).simd(SIMD.v128_bitselect).set(x.hi);
          } else fb.get(v.lo).set(x.lo).get(v.hi).set(x.hi);
        } else {
          if (guard >= 0) fb.get(x.lo).get(guard).simd(SIMD.v128_bitselect);
          fb.set(x.lo);
        }
        return;
      }
      case 'if': {
        if (this.uniform(s.c)) {
          // The same for every lane: a branch (its condition computed once).
          const t = this.pre.local(I32);
          this.scalar().emit(s.c, 'b');
          this.pre.set(t);
          fb.get(t).op(OP.if, 0x40);
          this.stmt(s.a, guard);
          if (s.b !== null) {
            fb.op(OP.else);
            this.stmt(s.b, guard);
          }
          fb.op(OP.end);
          return;
        }
        ifConverted(fb, guard, () => this.mask(s.c), (m) => this.stmt(s.a, m), s.b === null ? null : (n) => this.stmt(s.b!, n));
        return;
      }
    }
  }
}

/** Whether statements `ss` read the name `n` (an assigned name never read needs only the bits stored). */
export function readsName(ss: readonly Stmt[], n: string): boolean {
  const inExpr = (e: Expr): boolean => {
    switch (e.t) {
      case 'num': return false;
      case 'name': return e.n === n;
      case 'un': return inExpr(e.a);
      case 'bin': return inExpr(e.a) || inExpr(e.b);
      case 'cond': return inExpr(e.c) || inExpr(e.a) || inExpr(e.b);
      case 'call': return e.args.some(inExpr);
    }
  };
  const inStmt = (s: Stmt): boolean => {
    switch (s.t) {
      case 'block': return s.body.some(inStmt);
      case 'decl': return s.items.some(([, e]) => inExpr(e));
      case 'assign': return inExpr(s.e);
      case 'if': return inExpr(s.c) || inStmt(s.a) || (s.b !== null && inStmt(s.b));
    }
  };
  return ss.some(inStmt);
}
