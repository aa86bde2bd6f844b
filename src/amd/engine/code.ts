/**
 * Generated handler code as structured pieces (a leaf module: it imports nothing). A generated fast
 * handler's statements are statement text plus explicit hand-back points: where the handler gives
 * its instruction to the reference handler before anything was written. The standalone handler
 * renders a hand-back as `return ref(w);`; a basic block (block.ts) renders it as a call of the
 * reference handler followed by its own exit checks. The free names the statements use are
 * declared by the generator (Inline.params), never found by reading the text.
 */

/** The point where a generated handler hands its instruction to the reference handler `ref`. */
export const HAND_BACK: { readonly handBack: true } = Object.freeze({ handBack: true as const });

export type Piece = string | typeof HAND_BACK;
export type Code = readonly Piece[];

/** `if (cond)` hand back. */
export const handBackIf = (cond: string): Piece[] => [`if (${cond}) `, HAND_BACK];

/** Statements, one a line: each statement text, or pieces (e.g. handBackIf). */
export function stmts(xs: readonly (string | Code)[]): Piece[] {
  const out: Piece[] = [];
  xs.forEach((x, i) => {
    if (i > 0) out.push('\n');
    if (typeof x === 'string') out.push(x);
    else out.push(...x);
  });
  return out;
}

/** Whether `code` hands back anywhere (then `ref` is one of its free names). */
export const handsBack = (code: Code): boolean => code.some((p) => typeof p !== 'string');

/** The statement text, each hand-back replaced by `handBack`. */
export function render(code: Code, handBack: string): string {
  let s = '';
  for (const p of code) s += typeof p === 'string' ? p : handBack;
  return s;
}

/** A standalone handler's statements: a hand-back returns the reference handler's call. */
export const renderHandler = (code: Code): string => render(code, 'return ref(w);');

/**
 * Records which of a generator's free names the code it produces uses: a generator emits a helper's
 * name through `name` (or through `helpers`, whose getters record), and reads the set afterwards.
 */
export class Names<N extends string> {
  readonly used = new Set<N>();
  name(n: N): N {
    this.used.add(n);
    return n;
  }
  /** An object whose property `n` is the name n, recorded when read (for descriptions' bodies). */
  helpers<K extends N>(ns: readonly K[]): { readonly [P in K]: string } {
    const o = {} as { [P in K]: string };
    for (const n of ns) Object.defineProperty(o, n, { get: () => this.name(n), enumerable: true });
    return o;
  }
  /** The names of `all` used, in that order. */
  pick(all: readonly N[]): N[] {
    return all.filter((n) => this.used.has(n));
  }
}
