/**
 * Generator: the Adreno register and PM4 database from freedreno's rules-ng XML
 * (../shared/ref/freedreno-registers/adreno/*.xml). Writes src/adreno/regs/db.gen.ts.
 * Run: `npx tsc -p . && node dist/tools/gen/run.js adreno/regs`.
 *
 * What is kept: every domain (register spaces A2XX..A6XX/A7XX, the CP control/pipe/SQE spaces,
 * and the PM4 payload layouts, which rules-ng describes as domains named after the packet),
 * registers (32/64-bit, arrays kept compact as offset+stride+length), bitsets, bitfields and
 * enums, each tagged with the chip generations it exists on (`variants="A6XX-"` etc.) as a
 * bit mask, or with a non-chip variant condition (e.g. CP_DRAW_INDIRECT_MULTI's OPCODE).
 * Documentation text is not copied.
 */
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseXml, type XmlElement } from './xml.js';

// Not imported from run.js: run.js imports generators while its own top-level await is pending.
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../../..');
const SHARED = join(ROOT, '..', 'shared');

export const GENS = ['A2XX', 'A3XX', 'A4XX', 'A5XX', 'A6XX', 'A7XX'] as const;
const ALL = (1 << GENS.length) - 1;

const FILES = [
  'adreno_common.xml',
  'adreno_pm4.xml',
  'a2xx.xml',
  'a3xx.xml',
  'a4xx.xml',
  'a5xx.xml',
  'a6xx.xml',
  'a6xx_gmu.xml',
  'adreno_control_regs.xml',
  'adreno_pipe_regs.xml',
  'ocmem.xml',
];

/** Parse a rules-ng chip variant list ("A6XX", "A6XX-", "A2XX-A4XX", comma lists) into a mask; null if not a chip list. */
export function chipMask(v: string): number | null {
  let mask = 0;
  for (const part of v.split(',').map((s) => s.trim())) {
    const m = /^(A\dXX)(-(A\dXX)?)?$/.exec(part);
    if (!m) return null;
    const lo = GENS.indexOf(m[1] as (typeof GENS)[number]);
    if (lo < 0) return null;
    const hi = m[2] ? (m[3] ? GENS.indexOf(m[3] as (typeof GENS)[number]) : GENS.length - 1) : lo;
    for (let g = lo; g <= hi; g++) mask |= 1 << g;
  }
  return mask;
}

function num(s: string | undefined, what: string): number {
  if (s === undefined) throw new Error(`missing ${what}`);
  const v = s.startsWith('0x') || s.startsWith('0X') ? parseInt(s.slice(2), 16) : parseInt(s, 10);
  if (!Number.isFinite(v)) throw new Error(`bad number ${s} for ${what}`);
  return v;
}

interface Ctx {
  mask: number;
  /** Non-chip condition "varset=VARIANTS" or ''. */
  cond: string;
  varset: string;
}

function childCtx(el: XmlElement, ctx: Ctx): Ctx {
  const varset = el.attrs['varset'] ?? ctx.varset;
  const v = el.attrs['variants'];
  if (v === undefined) return { ...ctx, varset };
  const m = varset === 'chip' ? chipMask(v) : null;
  if (m !== null) return { mask: ctx.mask & m, cond: ctx.cond, varset };
  return { mask: ctx.mask, cond: `${varset}=${v}`, varset };
}

type Field = [string, number, number, string, number, number, string];
type EnumVal = [number, string, number];
/** [offset, name, width, type, mask, cond, stride, length, (low, high, shr when the register itself has them)] */
type Reg = (string | number)[];

const enums = new Map<string, EnumVal[]>();
const bitsets = new Map<string, Field[]>();
const domains = new Map<string, { width: number; regs: Reg[] }>();

function addEnum(name: string, el: XmlElement, ctx: Ctx): void {
  const list = enums.get(name) ?? [];
  let next = 0;
  for (const c of el.children) {
    if (c.tag !== 'value') continue;
    const cc = childCtx(c, ctx);
    const value = c.attrs['value'] !== undefined ? num(c.attrs['value'], `${name}.${c.attrs['name']}`) : next;
    next = value + 1;
    list.push([value, c.attrs['name']!, cc.mask]);
  }
  enums.set(name, list);
}

/** Fields that select a variant (addvariant="yes") are decoded, and printed, first. */
const selectors = new Set<Field>();
function addVariantFirst(fs: Field[]): Field[] {
  return [...fs.filter((f) => selectors.has(f)), ...fs.filter((f) => !selectors.has(f))];
}

function fieldsOf(el: XmlElement, ctx: Ctx, owner: string, width: number): Field[] {
  const out: Field[] = [];
  for (const c of el.children) {
    if (c.tag !== 'bitfield') continue;
    const cc = childCtx(c, ctx);
    let low: number, high: number;
    if (c.attrs['pos'] !== undefined) low = high = num(c.attrs['pos'], 'pos');
    else {
      low = num(c.attrs['low'] ?? '0', 'low');
      high = num(c.attrs['high'] ?? String(width - 1), 'high');
    }
    let type = c.attrs['type'] ?? '';
    if (c.children.some((v) => v.tag === 'value')) {
      type = `${owner}.${c.attrs['name']}`;
      addEnum(type, c, cc);
    }
    if (type === 'fixed' || type === 'ufixed') type += `:${c.attrs['radix'] ?? '0'}`;
    const f: Field = [c.attrs['name']!, low, high, type, c.attrs['shr'] ? num(c.attrs['shr'], 'shr') : 0, cc.mask, cc.cond];
    if (c.attrs['addvariant'] === 'yes') selectors.add(f);
    out.push(f);
  }
  return addVariantFirst(out);
}

function regType(el: XmlElement, ctx: Ctx, owner: string, width: number): string {
  const hasFields = el.children.some((c) => c.tag === 'bitfield');
  const hasValues = el.children.some((c) => c.tag === 'value');
  let type = el.attrs['type'] ?? '';
  if (hasFields) {
    // A named type plus inline fields, or the same register in several stripes: merge the fields.
    // librnn order: the register's own fields, then those of its (inline) named type.
    const own = [...(bitsets.get(owner) ?? []), ...fieldsOf(el, ctx, owner, width)];
    const named = type ? (bitsets.get(type) ?? []) : [];
    type = owner;
    bitsets.set(type, addVariantFirst([...own, ...named]));
  } else if (hasValues) {
    type = owner;
    addEnum(type, el, ctx);
  }
  if (type === 'fixed' || type === 'ufixed') type += `:${el.attrs['radix'] ?? '0'}`;
  return type;
}

function walkDomainBody(dom: string, el: XmlElement, ctx: Ctx, regs: Reg[], prefix: string, base: number, stride: number, length: number): void {
  for (const c of el.children) {
    const cc = childCtx(c, ctx);
    switch (c.tag) {
      case 'reg32':
      case 'reg64': {
        const width = c.tag === 'reg64' ? 64 : 32;
        const name = prefix ? `${prefix}.${c.attrs['name']}` : c.attrs['name']!;
        const off = base + num(c.attrs['offset'], `${dom}.${name} offset`);
        const reg: Reg = [off, name, width, regType(c, cc, `${dom}.${name}`, width), cc.mask, cc.cond, stride, length];
        // A register's own low/high/shr (rules-ng typeinfo on the reg, e.g. RB_MRT[].PITCH shr=6):
        // the value is masked and shifted before decoding, bits outside are shown apart.
        const { low, high, shr, pos } = c.attrs;
        if (low !== undefined || high !== undefined || shr !== undefined || pos !== undefined) {
          const lo = pos !== undefined ? num(pos, 'pos') : num(low ?? '0', 'low');
          reg.push(lo, pos !== undefined ? lo : num(high ?? String(width - 1), 'high'), shr ? num(shr, 'shr') : 0);
        }
        regs.push(reg);
        break;
      }
      case 'array': {
        const off = num(c.attrs['offset'], 'array offset');
        const name = `${c.attrs['name'] ?? ''}[]`;
        const s = num(c.attrs['stride'], 'stride');
        const n = num(c.attrs['length'], 'length');
        if (!c.children.some((x) => x.tag === 'reg32' || x.tag === 'reg64' || x.tag === 'stripe')) {
          regs.push([off, name, 32, c.attrs['type'] ?? '', cc.mask, cc.cond, s, n]);
        } else walkDomainBody(dom, c, cc, regs, name, off, s, n);
        break;
      }
      case 'stripe':
        walkDomainBody(dom, c, cc, regs, c.attrs['prefix'] && cc.varset !== 'chip' ? prefix : prefix, base, stride, length);
        break;
      case 'enum':
        addEnum(c.attrs['name']!, c, cc);
        break;
      case 'bitset': {
        const name = c.attrs['name']!;
        bitsets.set(name, addVariantFirst([...(bitsets.get(name) ?? []), ...fieldsOf(c, cc, name, 32)]));
        break;
      }
      default:
        break;
    }
  }
}

function walkTop(el: XmlElement, ctx: Ctx, file: string): void {
  for (const c of el.children) {
    const cc = childCtx(c, ctx);
    if (c.tag === 'enum') addEnum(c.attrs['name']!, c, cc);
    else if (c.tag === 'bitset') {
      const name = c.attrs['name']!;
      bitsets.set(name, [...(bitsets.get(name) ?? []), ...fieldsOf(c, cc, name, 32)]);
    } else if (c.tag === 'domain') {
      // a6xx_gmu.xml reuses the domain name A6XX for the GMU's own register space; the GPU's
      // decoders (cffdump) never load it, so it is kept apart instead of shadowing GPU offsets.
      const name = file === 'a6xx_gmu.xml' && c.attrs['name'] === 'A6XX' ? 'A6XX_GMU' : c.attrs['name']!;
      const d = domains.get(name) ?? { width: num(c.attrs['width'] ?? '32', 'width'), regs: [] };
      walkDomainBody(name, c, { ...cc, cond: '' }, d.regs, '', 0, 0, 0);
      domains.set(name, d);
    } else if (c.tag === 'database') walkTop(c, cc, file);
  }
}

const q = (s: string): string => JSON.stringify(s);

export function generate(): Record<string, string> {
  enums.clear();
  bitsets.clear();
  selectors.clear();
  domains.clear();
  const dir = join(SHARED, 'ref', 'freedreno-registers', 'adreno');
  for (const f of FILES) {
    const doc = parseXml(readFileSync(join(dir, f), 'utf8'), f);
    walkTop(doc, { mask: ALL, cond: '', varset: 'chip' }, f);
  }
  // Registers stay in document order: rules-ng lookups take the first element that matches an
  // offset, so the order decides which of two aliases names it.
  const L: string[] = [
    '// GENERATED by tools/gen/adreno/gen-regs.ts from freedreno\'s rules-ng register database',
    '// (shared/ref/freedreno-registers/adreno/*.xml, Mesa d9849ac4). Do not edit; run `npm run gen -- adreno/regs`.',
    '/* eslint-disable */',
    '',
    '/** Chip generations; a variants mask has bit i set when the entry exists on GENS[i]. */',
    `export const GENS = ${JSON.stringify(GENS)} as const;`,
    '',
    '/** [name, lowBit, highBit, type, shr, variantsMask, nonChipCondition] */',
    'export type FieldDef = readonly [string, number, number, string, number, number, string];',
    '/** [value, name, variantsMask] */',
    'export type EnumValDef = readonly [number, string, number];',
    '/** [offset, name ("ARR[].CHILD" for arrays), width 32|64, type, variantsMask, nonChipCondition, arrayStride, arrayLength] */',
    '/** ... and, when the register itself has them, [low, high, shr] of its value. */',
    'export type RegDef = readonly [number, string, number, string, number, string, number, number, number?, number?, number?];',
    '',
    'export const ENUMS: Readonly<Record<string, readonly EnumValDef[]>> = {',
  ];
  for (const k of [...enums.keys()].sort()) {
    L.push(`  ${q(k)}: [${enums.get(k)!.map((v) => `[${v[0]},${q(v[1])},${v[2]}]`).join(',')}],`);
  }
  L.push('};', '', 'export const BITSETS: Readonly<Record<string, readonly FieldDef[]>> = {');
  for (const k of [...bitsets.keys()].sort()) {
    L.push(`  ${q(k)}: [${bitsets.get(k)!.map((f) => `[${q(f[0])},${f[1]},${f[2]},${q(f[3])},${f[4]},${f[5]},${q(f[6])}]`).join(',')}],`);
  }
  L.push('};', '', 'export const DOMAINS: Readonly<Record<string, { readonly width: number; readonly regs: readonly RegDef[] }>> = {');
  for (const k of [...domains.keys()].sort()) {
    const d = domains.get(k)!;
    L.push(`  ${q(k)}: { width: ${d.width}, regs: [`);
    for (const r of d.regs) L.push(`    [${r[0]},${q(r[1] as string)},${r[2]},${q(r[3] as string)},${r[4]},${q(r[5] as string)},${r[6]},${r[7]}${r.length > 8 ? `,${r[8]},${r[9]},${r[10]}` : ''}],`);
    L.push('  ] },');
  }
  L.push('};', '');
  return { 'src/adreno/regs/db.gen.ts': L.join('\n') };
}
