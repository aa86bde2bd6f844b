/**
 * Generator: the afuc (SQE/CP microcontroller) instruction set from freedreno's isaspec file
 * (../shared/ref/freedreno-isa/afuc.xml). Flattens every concrete bitset through its `extends`
 * chain into one leaf form: fixed bits (mask/match), fields, display template, display
 * overrides with `{FIELD} == N` conditions, and the generation range (<gen min max>).
 * Writes src/adreno/afuc/afuc.gen.ts. Run: `npx tsc -p . && node dist/tools/gen/run.js adreno/afuc`.
 */
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseXml, type XmlElement } from './xml.js';
import { chipMask, GENS } from './gen-regs.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../../..');
const SHARED = join(ROOT, '..', 'shared');

interface Field {
  name: string;
  low: number;
  high: number;
  type: string;
  display: string;
  /** isaspec `call="true"`: a branch whose target is a function (afuc-disasm names it fxnN). */
  call: boolean;
}

function num(s: string): number {
  return s.startsWith('0x') ? parseInt(s.slice(2), 16) : parseInt(s, 10);
}

function clean(s: string): string {
  return s.replace(/\s+/g, ' ').trim();
}

/** Parse `{A} == 1 && ({B} == 0)` into [[A,1],[B,0]]; null when the expression is anything else. */
function conds(expr: string): [string, number][] | null {
  const out: [string, number][] = [];
  for (const part of expr.replace(/[()]/g, ' ').split('&&')) {
    const m = /^\s*\{(\w+)\}\s*==\s*(0x[0-9a-fA-F]+|\d+)\s*$/.exec(part);
    if (!m) return null;
    out.push([m[1]!, num(m[2]!)]);
  }
  return out;
}

/** GPU register element as the rules-ng decoder walks it: a register, or an array of them. */
type GpuEl = [number, string, string] | [number, string, number, number, GpuEl[]];

/**
 * The GPU register elements afuc-disasm names immediates with (its A5XX/A6XX domain, then AXXX),
 * for one chip variant, in document order: the decoder takes the first element that covers an
 * offset, and an array claims its whole span.
 */
function gpuElements(variant: string): GpuEl[] {
  const dir = join(SHARED, 'ref', 'freedreno-registers', 'adreno');
  const bit = 1 << GENS.indexOf(variant as (typeof GENS)[number]);
  const files = variant === 'A5XX' ? [['a5xx.xml', 'A5XX']] : [['a6xx.xml', 'A6XX'], ['a6xx_gmu.xml', 'A6XX']];
  files.push(['adreno_common.xml', 'AXXX']);
  const ok = (el: XmlElement): boolean => {
    const v = el.attrs['variants'];
    if (v === undefined) return true;
    const m = chipMask(v);
    return m === null || (m & bit) !== 0;
  };
  const walk = (el: XmlElement): GpuEl[] => {
    const out: GpuEl[] = [];
    for (const c of el.children) {
      if (!ok(c)) continue;
      if (c.tag === 'reg32' || c.tag === 'reg64') {
        const name = c.attrs['name']!;
        const t = c.attrs['type'] ?? '';
        out.push([num(c.attrs['offset']!), name, c.tag === 'reg64' ? (t === 'address' || t === 'waddress' ? `${name}_HI` : `${name}+0x1`) : '']);
      } else if (c.tag === 'array') {
        out.push([num(c.attrs['offset']!), c.attrs['name'] ?? '', num(c.attrs['stride']!), num(c.attrs['length']!), walk(c)]);
      } else if (c.tag === 'stripe') out.push(...walk(c));
    }
    return out;
  };
  const out: GpuEl[] = [];
  for (const [f, dom] of files) {
    const doc = parseXml(readFileSync(join(dir, f!), 'utf8'), f);
    const find = (el: XmlElement): void => {
      for (const c of el.children) {
        if (c.tag === 'domain' && c.attrs['name'] === dom) out.push(...walk(c));
        else if (c.tag === 'database') find(c);
      }
    };
    find(doc);
  }
  return out;
}

export function generate(): Record<string, string> {
  const doc = parseXml(readFileSync(join(SHARED, 'ref', 'freedreno-isa', 'afuc.xml'), 'utf8'), 'afuc.xml');
  const isa = doc.children.find((c) => c.tag === 'isa')!;
  const bitsets = isa.children.filter((c) => c.tag === 'bitset');
  const byName = new Map<string, XmlElement>();
  for (const b of bitsets) if (b.attrs['name']!.startsWith('#')) byName.set(b.attrs['name']!, b);
  const exprs = new Map<string, string>();
  for (const e of isa.children.filter((c) => c.tag === 'expr')) exprs.set(e.attrs['name']!, clean(e.text));
  const enums: Record<string, [number, string][]> = {};
  for (const e of isa.children.filter((c) => c.tag === 'enum')) {
    enums[e.attrs['name']!] = e.children.filter((v) => v.tag === 'value').map((v) => [num(v.attrs['val']!), v.attrs['display'] ?? ''] as [number, string]);
  }
  const skipped: string[] = [];
  const leaves: string[] = [];
  for (const b of bitsets) {
    const name = b.attrs['name']!;
    if (name.startsWith('#')) continue;
    const chain: XmlElement[] = [];
    for (let cur: XmlElement | undefined = b; cur; cur = cur.attrs['extends'] ? byName.get(cur.attrs['extends']) : undefined) chain.push(cur);
    let mask = 0;
    let match = 0;
    const fields = new Map<string, Field>();
    let template: string | undefined;
    const overrides: { when: [string, number][]; template: string }[] = [];
    let gmin = 0;
    let gmax = 99;
    const derived = new Map<string, { expr: string; type: string }>();
    // Walk from the root so that children override parents.
    for (const el of [...chain].reverse()) {
      for (const c of el.children) {
        if (c.tag === 'pattern') {
          const lo = c.attrs['pos'] !== undefined ? num(c.attrs['pos']) : num(c.attrs['low']!);
          const bits = clean(c.text);
          for (let i = 0; i < bits.length; i++) {
            const bit = lo + bits.length - 1 - i;
            const ch = bits[i];
            if (ch === 'x') continue;
            mask = (mask | (1 << bit)) >>> 0;
            if (ch === '1') match = (match | (1 << bit)) >>> 0;
            else match = (match & ~(1 << bit)) >>> 0;
          }
        } else if (c.tag === 'field') {
          const lo = c.attrs['pos'] !== undefined ? num(c.attrs['pos']) : num(c.attrs['low']!);
          const hi = c.attrs['pos'] !== undefined ? lo : num(c.attrs['high']!);
          fields.set(c.attrs['name']!, { name: c.attrs['name']!, low: lo, high: hi, type: c.attrs['type'] ?? 'uint', display: c.attrs['display'] ?? '', call: c.attrs['call'] === 'true' });
        } else if (c.tag === 'display') template = clean(c.text);
        else if (c.tag === 'gen') {
          if (c.attrs['min']) gmin = num(c.attrs['min']);
          if (c.attrs['max']) gmax = num(c.attrs['max']);
        } else if (c.tag === 'derived') derived.set(c.attrs['name']!, { expr: exprs.get(c.attrs['expr']!) ?? '0', type: c.attrs['type'] ?? 'uint' });
      }
    }
    // Overrides: nearest first (the leaf's own before its parents').
    for (const el of chain) {
      for (const o of el.children.filter((c) => c.tag === 'override')) {
        const exprText = o.attrs['expr'] ? exprs.get(o.attrs['expr']) : clean(o.children.find((c) => c.tag === 'expr')?.text ?? '');
        const disp = o.children.find((c) => c.tag === 'display');
        if (!disp || exprText === undefined) continue;
        const w = conds(exprText);
        if (!w) {
          skipped.push(`${name}: override "${exprText}"`);
          continue;
        }
        overrides.push({ when: w, template: clean(disp.text) });
      }
    }
    if (!template) throw new Error(`afuc.xml: ${name} has no display template`);
    // Derived fields stay placeholders in the template; their constant value is listed with the form.
    const fix = (t: string): string => t.replace('{NAME}', b.attrs['displayname'] ?? name);
    const derivedList = [...derived].map(([k, d]) => {
      if (!/^\d+$/.test(d.expr)) throw new Error(`afuc.xml: ${name}: derived ${k} is not a constant`);
      return [k, num(d.expr), d.type] as [string, number, string];
    });
    const fl = [...fields.values()].sort((a, b2) => a.low - b2.low);
    leaves.push(
      `  { name: ${JSON.stringify(name)}, mnemonic: ${JSON.stringify(b.attrs['displayname'] ?? name)}, genMin: ${gmin}, genMax: ${gmax}, mask: 0x${mask.toString(16)}, match: 0x${match.toString(16)},\n` +
        `    fields: [${fl.map((f) => `[${JSON.stringify(f.name)}, ${f.low}, ${f.high}, ${JSON.stringify(f.type)}, ${JSON.stringify(f.display)}, ${f.call}]`).join(', ')}],\n` +
        `    derived: ${JSON.stringify(derivedList)},\n` +
        `    template: ${JSON.stringify(fix(template))},\n` +
        `    overrides: [${overrides.map((o) => `{ when: ${JSON.stringify(o.when)}, template: ${JSON.stringify(fix(o.template))} }`).join(', ')}] },`,
    );
  }
  const L = [
    "// GENERATED by tools/gen/adreno/gen-afuc.ts from freedreno's afuc isaspec",
    '// (shared/ref/freedreno-isa/afuc.xml, Mesa d9849ac4). Do not edit; run `npm run gen -- adreno/afuc`.',
    '',
    '/** [name, lowBit, highBit, type, display-when-set (bool fields), call (branch to a function)] */',
    'export type AfucField = readonly [string, number, number, string, string, boolean];',
    'export interface AfucForm {',
    '  readonly name: string;',
    '  readonly mnemonic: string;',
    '  /** Generations this encoding exists on (afuc.xml <gen min max>; 5 = a5xx, 6 = a6xx, 7 = a7xx). */',
    '  readonly genMin: number;',
    '  readonly genMax: number;',
    '  readonly mask: number;',
    '  readonly match: number;',
    '  readonly fields: readonly AfucField[];',
    '  /** Derived fields: [name, constant value, type] (setsecure\'s branch target, +3). */',
    '  readonly derived: readonly (readonly [string, number, string])[];',
    '  readonly template: string;',
    '  readonly overrides: readonly { readonly when: readonly (readonly [string, number])[]; readonly template: string }[];',
    '}',
    '',
    `export const AFUC_ENUMS: Readonly<Record<string, readonly (readonly [number, string])[]>> = ${JSON.stringify(enums)};`,
    '',
    '/** Every concrete encoding, in afuc.xml order. */',
    'export const AFUC_FORMS: readonly AfucForm[] = [',
    ...leaves,
    '];',
    '',
    '/**',
    ' * GPU registers afuc-disasm names immediates with, per chip variant, in rules-ng document order',
    ' * (A5XX or A6XX then AXXX): [offset, name, high-dword name of a reg64 or \'\'] or an array',
    ' * [offset, name, stride, length, elements inside].',
    ' */',
    'export type AfucGpuEl = readonly [number, string, string] | readonly [number, string, number, number, readonly AfucGpuEl[]];',
    `export const AFUC_GPU_REGS: Readonly<Record<'a5xx' | 'a6xx' | 'a7xx', readonly AfucGpuEl[]>> = {`,
    ...(['A5XX', 'A6XX', 'A7XX'] as const).map((v) => `  ${v.toLowerCase()}: ${JSON.stringify(gpuElements(v))},`),
    '};',
    '',
    `/** Display overrides the generator could not express as field conditions (handled by type in isa.ts). */`,
    `export const AFUC_SKIPPED: readonly string[] = ${JSON.stringify(skipped)};`,
    '',
  ];
  return { 'src/adreno/afuc/afuc.gen.ts': L.join('\n') };
}
