/**
 * The lane statements of the VALU descriptions (exec/valu-int.ts, exec/valu-f32.ts) are JavaScript
 * text that both JavaScript tiers compile. The wasm tier compiles the same text: this is a parser
 * for the small subset the descriptions use (blocks, `const`/`let` declarations, assignments,
 * `if`/`else`, and expressions of numbers, names, unary `- ~ !`, binary arithmetic, bit, shift,
 * comparison and logical operators, `?:` and calls of named functions), so no op's formula is
 * restated for wasm. Text outside the subset throws (the op then stays in JavaScript).
 * A leaf module: it imports nothing.
 */

export type Expr =
  | { readonly t: 'num'; readonly v: number }
  | { readonly t: 'name'; readonly n: string }
  | { readonly t: 'un'; readonly op: string; readonly a: Expr }
  | { readonly t: 'bin'; readonly op: string; readonly a: Expr; readonly b: Expr }
  | { readonly t: 'cond'; readonly c: Expr; readonly a: Expr; readonly b: Expr }
  | { readonly t: 'call'; readonly f: string; readonly args: readonly Expr[] };

export type Stmt =
  | { readonly t: 'block'; readonly body: readonly Stmt[] }
  | { readonly t: 'decl'; readonly konst: boolean; readonly items: readonly (readonly [string, Expr])[] }
  | { readonly t: 'assign'; readonly n: string; readonly e: Expr }
  | { readonly t: 'if'; readonly c: Expr; readonly a: Stmt; readonly b: Stmt | null };

export class SubsetError extends Error {}

/**
 * One token at a time (sticky): whitespace, a number, a (dotted) name, or an operator, longest
 * first (`>>>` before `>>` before `>`). One native match per token: the lane texts are parsed in
 * every fresh process, where slicing the rest of the text and trying a pattern per token class ran
 * as cold JavaScript (~2 ms of a fresh conv2d dispatch).
 */
const TOKEN = /\s+|(0x[0-9a-fA-F]+|\d+(?:\.\d+)?(?:[eE][-+]?\d+)?)|([A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*)|(>>>|===|!==|<<|>>|<=|>=|&&|\|\||==|!=|[{}();,?:=<>+\-*/&|^~!])/y;

function tokenize(src: string): string[] {
  const out: string[] = [];
  let i = 0;
  while (i < src.length) {
    TOKEN.lastIndex = i;
    const m = TOKEN.exec(src);
    if (m === null) throw new SubsetError(`unexpected '${src[i]!}'`);
    i = TOKEN.lastIndex;
    if (m[1] !== undefined || m[2] !== undefined || m[3] !== undefined) out.push(m[0]);
  }
  return out;
}

/** Binary operator precedences (JavaScript's, for the operators of the subset). */
const PREC: Readonly<Record<string, number>> = {
  '||': 1, '&&': 2, '|': 3, '^': 4, '&': 5, '===': 6, '!==': 6, '==': 6, '!=': 6,
  '<': 7, '>': 7, '<=': 7, '>=': 7, '<<': 8, '>>': 8, '>>>': 8, '+': 9, '-': 9, '*': 10, '/': 10,
};

class Parser {
  private i = 0;
  private readonly toks: readonly string[];
  constructor(toks: readonly string[]) {
    this.toks = toks;
  }
  private peek(): string | undefined {
    return this.toks[this.i];
  }
  private next(): string {
    const t = this.toks[this.i++];
    if (t === undefined) throw new SubsetError('unexpected end');
    return t;
  }
  private eat(t: string): void {
    const got = this.next();
    if (got !== t) throw new SubsetError(`expected '${t}', got '${got}'`);
  }
  done(): boolean {
    return this.i >= this.toks.length;
  }
  stmt(): Stmt {
    const t = this.peek();
    if (t === '{') {
      this.next();
      const body: Stmt[] = [];
      while (this.peek() !== '}') body.push(this.stmt());
      this.next();
      return { t: 'block', body };
    }
    if (t === 'const' || t === 'let') {
      this.next();
      const items: [string, Expr][] = [];
      for (;;) {
        const n = this.next();
        if (!/^[A-Za-z_$][\w$]*$/.test(n)) throw new SubsetError(`bad name '${n}'`);
        this.eat('=');
        items.push([n, this.expr()]);
        if (this.peek() === ',') {
          this.next();
          continue;
        }
        break;
      }
      this.eat(';');
      return { t: 'decl', konst: t === 'const', items };
    }
    if (t === 'if') {
      this.next();
      this.eat('(');
      const c = this.expr();
      this.eat(')');
      const a = this.stmt();
      let b: Stmt | null = null;
      if (this.peek() === 'else') {
        this.next();
        b = this.stmt();
      }
      return { t: 'if', c, a, b };
    }
    const n = this.next();
    if (!/^[A-Za-z_$][\w$]*$/.test(n)) throw new SubsetError(`unsupported statement at '${n}'`);
    this.eat('=');
    const e = this.expr();
    this.eat(';');
    return { t: 'assign', n, e };
  }
  expr(): Expr {
    const c = this.binary(1);
    if (this.peek() !== '?') return c;
    this.next();
    const a = this.expr();
    this.eat(':');
    const b = this.expr();
    return { t: 'cond', c, a, b };
  }
  private binary(min: number): Expr {
    let a = this.unary();
    for (;;) {
      const op = this.peek();
      const p = op === undefined ? undefined : PREC[op];
      if (p === undefined || p < min) return a;
      this.next();
      const b = this.binary(p + 1);
      a = { t: 'bin', op: op!, a, b };
    }
  }
  private unary(): Expr {
    const t = this.peek();
    if (t === '-' || t === '~' || t === '!' || t === '+') {
      this.next();
      const a = this.unary();
      if (t === '-' && a.t === 'num') return { t: 'num', v: -a.v };
      return t === '+' ? a : { t: 'un', op: t, a };
    }
    return this.primary();
  }
  private primary(): Expr {
    const t = this.next();
    if (t === '(') {
      const e = this.expr();
      this.eat(')');
      return e;
    }
    if (/^(0x|\d)/.test(t)) return { t: 'num', v: Number(t) };
    if (t === 'true' || t === 'false') return { t: 'num', v: t === 'true' ? 1 : 0 };
    if (!/^[A-Za-z_$]/.test(t)) throw new SubsetError(`unexpected '${t}'`);
    if (this.peek() === '(') {
      this.next();
      const args: Expr[] = [];
      while (this.peek() !== ')') {
        args.push(this.expr());
        if (this.peek() === ',') this.next();
      }
      this.next();
      return { t: 'call', f: t, args };
    }
    return { t: 'name', n: t };
  }
}

/** The statements of `src` (throws SubsetError outside the subset). */
export function parseStatements(src: string): Stmt[] {
  const p = new Parser(tokenize(src));
  const out: Stmt[] = [];
  while (!p.done()) out.push(p.stmt());
  return out;
}
