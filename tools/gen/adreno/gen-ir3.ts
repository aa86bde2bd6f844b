/**
 * Generator: the ir3 shader ISA (Adreno a3xx..a7xx) from freedreno's isaspec files
 * (../shared/ref/freedreno-isa/ir3.xml and the files it imports). Writes every bitset as isaspec
 * keeps it, not flattened: its parent, its own patterns (match / dontcare / mask over the root's
 * 64 bits), its cases (each <override> in order, then the default case) with their fields,
 * derived fields, asserts and display templates, and its <gen> range; the named and inline
 * expressions as source text; the enums; and for each root bitset the ordered list of its leaves
 * (the candidates isaspec's decoder tries). src/adreno/ir3/isa.ts parses the expressions once at
 * load. Run: `npx tsc -p . && node dist/tools/gen/run.js adreno/ir3`.
 */
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseXml, type XmlElement } from './xml.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../../..');
const DIR = join(ROOT, '..', 'shared', 'ref', 'freedreno-isa');

interface GenField {
  name: string;
  low: number;
  high: number;
  /** builtin type (uint, int, bool, ...), an enum name or a root bitset name; 'assert' for <assert>. */
  type: string;
  display?: string;
  /** Name of the expression (derived fields). */
  expr?: string;
  /** [name in the enclosing scope, name inside the field's bitset]. */
  params?: [string, string][];
  /** <assert> value (bits low..high). */
  val?: number;
}

interface GenCase {
  expr?: string;
  display?: string;
  fields: GenField[];
}

interface GenBitset {
  name: string;
  extends?: string;
  size?: number;
  genMin: number;
  genMax: number;
  /** Own patterns only, as 64-bit hex strings. */
  match: bigint;
  dontcare: bigint;
  mask: bigint;
  cases: GenCase[];
}

const GEN_MAX = 0xffffffff;

function bitrange(el: XmlElement): [number, number] {
  if (el.attrs['pos'] !== undefined) {
    const p = parseInt(el.attrs['pos'], 10);
    return [p, p];
  }
  return [parseInt(el.attrs['low']!, 10), parseInt(el.attrs['high']!, 10)];
}

function pattern(el: XmlElement, where: string): { match: bigint; dontcare: bigint; mask: bigint } {
  const [lo, hi] = bitrange(el);
  const s = el.text.trim();
  if (s.length !== hi - lo + 1) throw new Error(`${where}: pattern length ${s.length} for bits ${lo}..${hi}`);
  let match = 0n;
  let dontcare = 0n;
  for (const ch of s) {
    match <<= 1n;
    dontcare <<= 1n;
    if (ch === '1') match |= 1n;
    else if (ch === 'x') dontcare |= 1n;
    else if (ch !== '0') throw new Error(`${where}: bad pattern character '${ch}'`);
  }
  const mask = ((1n << BigInt(hi - lo + 1)) - 1n) << BigInt(lo);
  return { match: match << BigInt(lo), dontcare: dontcare << BigInt(lo), mask };
}

export function generate(): Record<string, string> {
  const exprs = new Map<string, string>();
  const enums = new Map<string, [number, string][]>();
  const bitsets: GenBitset[] = [];
  let anon = 0;

  const exprText = (el: XmlElement): string => el.text.trim().replace(/\s+/g, ' ');
  const inlineExpr = (el: XmlElement, where: string): string => {
    const list = el.children.filter((c) => c.tag === 'expr');
    if (list.length !== 1) throw new Error(`${where}: expected one <expr>`);
    const name = `anon_${anon++}`;
    exprs.set(name, exprText(list[0]!));
    return name;
  };

  const parseCase = (el: XmlElement, where: string, expr?: string): GenCase => {
    // isaspec's order: derived fields, then asserts, then fields; a later entry with the same
    // name replaces an earlier one in place.
    const fields = new Map<string, GenField>();
    const put = (f: GenField): void => {
      fields.set(f.name, f);
    };
    for (const d of el.children.filter((c) => c.tag === 'derived')) {
      const width = d.attrs['width'] !== undefined ? parseInt(d.attrs['width'], 10) : 1;
      const f: GenField = { name: d.attrs['name']!, low: 0, high: width - 1, type: d.attrs['type']!, expr: d.attrs['expr'] ?? inlineExpr(d, `${where}.${d.attrs['name']}`) };
      if (d.attrs['display'] !== undefined) f.display = d.attrs['display'].trim();
      put(f);
    }
    for (const a of el.children.filter((c) => c.tag === 'assert')) {
      const [lo, hi] = bitrange(a);
      const p = pattern(a, where);
      put({ name: `${where}#assert${fields.size}`, low: lo, high: hi, type: 'assert', val: Number(p.match >> BigInt(lo)) });
    }
    for (const x of el.children.filter((c) => c.tag === 'field')) {
      const [lo, hi] = bitrange(x);
      const f: GenField = { name: x.attrs['name']!, low: lo, high: hi, type: x.attrs['type']! };
      if (x.attrs['display'] !== undefined) f.display = x.attrs['display'].trim();
      const params = x.children.filter((c) => c.tag === 'param').map((p) => [p.attrs['name']!, p.attrs['as'] ?? p.attrs['name']!] as [string, string]);
      if (params.length) f.params = params;
      put(f);
    }
    const c: GenCase = { fields: [...fields.values()] };
    if (expr) c.expr = expr;
    for (const d of el.children.filter((c2) => c2.tag === 'display')) c.display = d.text.trim();
    return c;
  };

  const parseFile = (file: string): void => {
    const doc = parseXml(readFileSync(join(DIR, file), 'utf8'), file);
    const isa = doc.children.find((c) => c.tag === 'isa')!;
    for (const imp of isa.children.filter((c) => c.tag === 'import')) parseFile(imp.attrs['file']!);
    for (const e of isa.children.filter((c) => c.tag === 'expr')) exprs.set(e.attrs['name'] ?? `anon_${anon++}`, exprText(e));
    for (const e of isa.children.filter((c) => c.tag === 'enum')) {
      enums.set(e.attrs['name']!, e.children.filter((v) => v.tag === 'value').map((v) => [parseInt(v.attrs['val']!, 10), v.attrs['display']!] as [number, string]));
    }
    for (const b of isa.children.filter((c) => c.tag === 'bitset')) {
      const name = b.attrs['name']!;
      const bs: GenBitset = { name, genMin: 0, genMax: GEN_MAX, match: 0n, dontcare: 0n, mask: 0n, cases: [] };
      if (b.attrs['size'] !== undefined) bs.size = parseInt(b.attrs['size'], 10);
      else bs.extends = b.attrs['extends']!;
      for (const g of b.children.filter((c) => c.tag === 'gen')) {
        if (g.attrs['min'] !== undefined) bs.genMin = parseInt(g.attrs['min'], 10);
        if (g.attrs['max'] !== undefined) bs.genMax = parseInt(g.attrs['max'], 10);
      }
      const dflt = parseCase(b, name);
      for (const o of b.children.filter((c) => c.tag === 'override')) {
        const expr = o.attrs['expr'] ?? inlineExpr(o, name);
        bs.cases.push(parseCase(o, name, expr));
      }
      bs.cases.push(dflt);
      for (const p of b.children.filter((c) => c.tag === 'pattern')) {
        const q = pattern(p, name);
        bs.match |= q.match;
        bs.dontcare |= q.dontcare;
        bs.mask |= q.mask;
      }
      bitsets.push(bs);
    }
  };
  parseFile('ir3.xml');

  // Leaves per root, in isaspec's order (first appearance of each name; per-generation variants
  // of one name stay together).
  const byName = new Map<string, GenBitset>();
  for (const b of bitsets) if (!byName.has(b.name)) byName.set(b.name, b);
  const leafOrder = new Map<string, number[]>();
  bitsets.forEach((b, i) => {
    const l = leafOrder.get(b.name);
    if (l) l.push(i);
    else leafOrder.set(b.name, [i]);
  });
  for (const b of bitsets) if (b.extends) leafOrder.delete(b.extends);
  const rootOf = (b: GenBitset): string => (b.extends ? rootOf(byName.get(b.extends)!) : b.name);
  const roots: Record<string, number[]> = {};
  for (const b of bitsets) if (b.size !== undefined) roots[b.name] = [];
  for (const idxs of leafOrder.values()) for (const i of idxs) roots[rootOf(bitsets[i]!)]!.push(i);

  // Check what isaspec checks: every leaf accounts for all of its bits.
  for (const idxs of leafOrder.values()) {
    for (const i of idxs) {
      let covered = 0n;
      let size = 0;
      for (let b: GenBitset | undefined = bitsets[i]; b; b = b.extends ? byName.get(b.extends) : undefined) {
        covered |= b.mask;
        for (const f of b.cases[b.cases.length - 1]!.fields) if (!f.expr) covered |= ((1n << BigInt(f.high - f.low + 1)) - 1n) << BigInt(f.low);
        if (b.size !== undefined) size = b.size;
      }
      if (covered !== (1n << BigInt(size)) - 1n) throw new Error(`ir3.xml: leaf ${bitsets[i]!.name} has undefined bits`);
    }
  }

  const hex = (v: bigint): string => JSON.stringify('0x' + v.toString(16));
  const L: string[] = [
    "// GENERATED by tools/gen/adreno/gen-ir3.ts from freedreno's ir3 isaspec",
    '// (shared/ref/freedreno-isa/ir3.xml and its imports, Mesa d9849ac4). Do not edit; run',
    '// `node dist/tools/gen/run.js adreno/ir3`.',
    '',
    '/** A field of a bitset case: bits, type, display (bool fields), expression (derived), params (bitset fields). */',
    'export interface Ir3FieldDef {',
    '  readonly name: string;',
    '  readonly low: number;',
    '  readonly high: number;',
    "  /** builtin (uint, int, hex, offset, uoffset, float, bool, bool_inv, branch, absbranch), an enum, a root bitset, or 'assert'. */",
    '  readonly type: string;',
    '  readonly display?: string;',
    '  readonly expr?: string;',
    '  readonly params?: readonly (readonly [string, string])[];',
    '  readonly val?: number;',
    '}',
    '',
    '/** One <override> (with its expression) or the default case (last, no expression). */',
    'export interface Ir3CaseDef {',
    '  readonly expr?: string;',
    '  readonly display?: string;',
    '  readonly fields: readonly Ir3FieldDef[];',
    '}',
    '',
    '/** A bitset as written in the XML: own patterns (64-bit hex strings), cases, generation range (gpu_id, e.g. 600..699). */',
    'export interface Ir3BitsetDef {',
    '  readonly name: string;',
    '  readonly extends?: string;',
    '  readonly size?: number;',
    '  readonly genMin: number;',
    '  readonly genMax: number;',
    '  readonly match: string;',
    '  readonly dontcare: string;',
    '  readonly mask: string;',
    '  readonly cases: readonly Ir3CaseDef[];',
    '}',
    '',
    '/** Expressions (C syntax over {FIELD} references), named (#...) and inline (anon_N). */',
    'export const IR3_EXPRS: Readonly<Record<string, string>> = {',
    ...[...exprs].map(([k, v]) => `  ${JSON.stringify(k)}: ${JSON.stringify(v)},`),
    '};',
    '',
    'export const IR3_ENUMS: Readonly<Record<string, readonly (readonly [number, string])[]>> = {',
    ...[...enums].map(([k, v]) => `  ${JSON.stringify(k)}: ${JSON.stringify(v)},`),
    '};',
    '',
    '/** Every bitset in XML order (imports first, as isaspec reads them). */',
    'export const IR3_BITSETS: readonly Ir3BitsetDef[] = [',
  ];
  for (const b of bitsets) {
    const head = [`name: ${JSON.stringify(b.name)}`];
    if (b.extends) head.push(`extends: ${JSON.stringify(b.extends)}`);
    if (b.size !== undefined) head.push(`size: ${b.size}`);
    head.push(`genMin: ${b.genMin}`, `genMax: ${b.genMax}`, `match: ${hex(b.match)}`, `dontcare: ${hex(b.dontcare)}`, `mask: ${hex(b.mask)}`);
    L.push(`  { ${head.join(', ')},`);
    L.push('    cases: [');
    for (const c of b.cases) {
      const ch: string[] = [];
      if (c.expr) ch.push(`expr: ${JSON.stringify(c.expr)}`);
      if (c.display !== undefined) ch.push(`display: ${JSON.stringify(c.display)}`);
      L.push(`      { ${ch.length ? ch.join(', ') + ', ' : ''}fields: [`);
      for (const f of c.fields) {
        const fp = [`name: ${JSON.stringify(f.name)}`, `low: ${f.low}`, `high: ${f.high}`, `type: ${JSON.stringify(f.type)}`];
        if (f.display !== undefined) fp.push(`display: ${JSON.stringify(f.display)}`);
        if (f.expr) fp.push(`expr: ${JSON.stringify(f.expr)}`);
        if (f.params) fp.push(`params: ${JSON.stringify(f.params)}`);
        if (f.val !== undefined) fp.push(`val: ${f.val}`);
        L.push(`        { ${fp.join(', ')} },`);
      }
      L.push('      ] },');
    }
    L.push('    ] },');
  }
  L.push('];', '');
  L.push('/** For each root bitset (a `size` attribute), the indices in IR3_BITSETS of its leaves, in decode order. */');
  L.push('export const IR3_ROOTS: Readonly<Record<string, readonly number[]>> = {');
  for (const [k, v] of Object.entries(roots)) L.push(`  ${JSON.stringify(k)}: ${JSON.stringify(v)},`);
  L.push('};', '');
  return { 'src/adreno/ir3/isa.gen.ts': L.join('\n') };
}
