/**
 * isaspec expressions: the C subset the ir3 XML uses (`({SRC1_R} != 0) || ...`, `!{FULL}`,
 * `({OFF_HI} << 8) | {OFF_LO}`, `2ULL << {W}`, `ISA_GPU_ID() >= 600`, `/* comments *\/`).
 * Parsed once into a tree; evaluated over 64-bit two's-complement integers (BigInt), as the C
 * code isaspec generates computes them with int64_t variables and a uint64_t result.
 */

export type Expr =
  | { readonly k: 'num'; readonly v: bigint }
  | { readonly k: 'var'; readonly name: string }
  | { readonly k: 'gpu' }
  | { readonly k: 'un'; readonly op: string; readonly a: Expr }
  | { readonly k: 'bin'; readonly op: string; readonly a: Expr; readonly b: Expr }
  | { readonly k: 'cond'; readonly c: Expr; readonly a: Expr; readonly b: Expr };

export interface ParsedExpr {
  readonly tree: Expr;
  /** Field names referenced, sorted (the order isaspec resolves them in). */
  readonly vars: readonly string[];
}

const BINARY: readonly (readonly string[])[] = [
  ['||'],
  ['&&'],
  ['|'],
  ['^'],
  ['&'],
  ['==', '!='],
  ['<', '<=', '>', '>='],
  ['<<', '>>'],
  ['+', '-'],
  ['*', '/', '%'],
];

export function parseExpr(src: string): ParsedExpr {
  const text = src.replace(/\/\*[\s\S]*?\*\//g, ' ');
  const toks: string[] = [];
  const re = /\s*(\{[A-Za-z0-9_]+\}|ISA_GPU_ID\s*\(\s*\)|0[xX][0-9a-fA-F]+[uUlL]*|\d+[uUlL]*|\|\||&&|==|!=|<=|>=|<<|>>|[-+*/%&|^!~<>()?:])/y;
  let pos = 0;
  while (pos < text.length) {
    if (/^\s*$/.test(text.slice(pos))) break;
    re.lastIndex = pos;
    const m = re.exec(text);
    if (!m) throw new Error(`isaspec expression: cannot parse "${src}" at ${pos}`);
    toks.push(m[1]!);
    pos = re.lastIndex;
  }
  let i = 0;
  const vars = new Set<string>();
  const peek = (): string | undefined => toks[i];
  const eat = (t: string): void => {
    if (toks[i] !== t) throw new Error(`isaspec expression: expected '${t}' in "${src}"`);
    i++;
  };
  const primary = (): Expr => {
    const t = toks[i++];
    if (t === undefined) throw new Error(`isaspec expression: unexpected end of "${src}"`);
    if (t === '(') {
      const e = ternary();
      eat(')');
      return e;
    }
    if (t === '!' || t === '~' || t === '-' || t === '+') return { k: 'un', op: t, a: primary() };
    if (t.startsWith('{')) {
      const name = t.slice(1, -1);
      vars.add(name);
      return { k: 'var', name };
    }
    if (t.startsWith('ISA_GPU_ID')) return { k: 'gpu' };
    if (/^\d|^0[xX]/.test(t)) return { k: 'num', v: BigInt(t.replace(/[uUlL]+$/, '')) };
    throw new Error(`isaspec expression: unexpected '${t}' in "${src}"`);
  };
  const binary = (level: number): Expr => {
    if (level >= BINARY.length) return primary();
    let a = binary(level + 1);
    for (;;) {
      const t = peek();
      if (t === undefined || !BINARY[level]!.includes(t)) return a;
      i++;
      a = { k: 'bin', op: t, a, b: binary(level + 1) };
    }
  };
  const ternary = (): Expr => {
    const c = binary(0);
    if (peek() !== '?') return c;
    i++;
    const a = ternary();
    eat(':');
    return { k: 'cond', c, a, b: ternary() };
  };
  const tree = ternary();
  if (i !== toks.length) throw new Error(`isaspec expression: trailing '${toks[i]}' in "${src}"`);
  return { tree, vars: [...vars].sort() };
}

const s64 = (v: bigint): bigint => BigInt.asIntN(64, v);
const b = (c: boolean): bigint => (c ? 1n : 0n);

/** Evaluate with variable values already resolved (isaspec resolves every variable first). */
export function evalExpr(e: Expr, vars: ReadonlyMap<string, bigint>, gpuId: number): bigint {
  switch (e.k) {
    case 'num':
      return e.v;
    case 'var':
      return vars.get(e.name) ?? 0n;
    case 'gpu':
      return BigInt(gpuId);
    case 'un': {
      const a = evalExpr(e.a, vars, gpuId);
      return e.op === '!' ? b(a === 0n) : e.op === '~' ? s64(~a) : e.op === '-' ? s64(-a) : a;
    }
    case 'cond':
      return evalExpr(e.c, vars, gpuId) !== 0n ? evalExpr(e.a, vars, gpuId) : evalExpr(e.b, vars, gpuId);
    case 'bin': {
      const a = evalExpr(e.a, vars, gpuId);
      if (e.op === '&&') return b(a !== 0n && evalExpr(e.b, vars, gpuId) !== 0n);
      if (e.op === '||') return b(a !== 0n || evalExpr(e.b, vars, gpuId) !== 0n);
      const c = evalExpr(e.b, vars, gpuId);
      switch (e.op) {
        case '|':
          return s64(a | c);
        case '^':
          return s64(a ^ c);
        case '&':
          return s64(a & c);
        case '==':
          return b(a === c);
        case '!=':
          return b(a !== c);
        case '<':
          return b(a < c);
        case '<=':
          return b(a <= c);
        case '>':
          return b(a > c);
        case '>=':
          return b(a >= c);
        case '<<':
          return s64(a << (c & 63n));
        case '>>':
          return s64(a >> (c & 63n));
        case '+':
          return s64(a + c);
        case '-':
          return s64(a - c);
        case '*':
          return s64(a * c);
        case '/':
          return c === 0n ? 0n : s64(a / c);
        case '%':
          return c === 0n ? 0n : s64(a % c);
      }
      throw new Error(`isaspec expression: operator ${e.op}`);
    }
  }
}
