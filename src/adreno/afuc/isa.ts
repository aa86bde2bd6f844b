/**
 * afuc (SQE firmware) decoder, disassembler and assembler, driven by the forms generated from
 * afuc.xml. `gen` is the afuc generation number: 5 (a5xx), 6 (a6xx), 7 (a7xx).
 *
 * Assembly syntax is the disassembler's: optional `(rep)(xmovN)(peek)(sdsN)` prefixes, the
 * mnemonic, operands as displayed (`$02`, `$data`, `0x1f`, `b3`, `#label`, `[$00 + @REG_WRITE]!`);
 * `label:` lines; `.word 0x...` data; `@@label` is replaced by the label's byte offset (for jump
 * tables loaded by the bootstrap); comments start with `;` or `//`.
 */
import { AFUC_ENUMS, AFUC_FORMS, type AfucForm } from './afuc.gen.js';
import { registerSpace, type Gen } from '../regs/db.js';

export type AfucGen = 5 | 6 | 7;

export function afucGen(g: Gen | AfucGen): AfucGen {
  if (typeof g === 'number') return g;
  return g === 'a5xx' ? 5 : g === 'a7xx' ? 7 : 6;
}

export interface Decoded {
  readonly form: AfucForm;
  readonly word: number;
  readonly f: Record<string, number>;
}

const formCache = new Map<number, AfucForm[]>();
function forms(gen: AfucGen): AfucForm[] {
  let f = formCache.get(gen);
  if (!f) {
    // More fixed bits first, so the most specific encoding wins.
    f = AFUC_FORMS.filter((x) => gen >= x.genMin && gen <= x.genMax).sort((a, b) => popcount(b.mask) - popcount(a.mask));
    formCache.set(gen, f);
  }
  return f;
}

function popcount(v: number): number {
  let c = 0;
  for (v >>>= 0; v; v >>>= 1) c += v & 1;
  return c;
}

function field(word: number, lo: number, hi: number): number {
  const w = hi - lo + 1;
  return w >= 32 ? word >>> 0 : (word >>> lo) & ((1 << w) - 1);
}

/** Decode one instruction word, or undefined when no encoding matches. */
export function decode(word: number, gen: AfucGen): Decoded | undefined {
  word >>>= 0;
  for (const form of forms(gen)) {
    if (((word & form.mask) >>> 0) !== form.match) continue;
    const f: Record<string, number> = {};
    for (const [name, lo, hi] of form.fields) f[name] = field(word, lo, hi);
    return { form, word, f };
  }
  return undefined;
}

const REG_NAMES = new Map<number, string>((AFUC_ENUMS['#reg'] ?? []).map(([v, d]) => [v, d]));
const SRC_SPECIAL = new Map<number, string>((AFUC_ENUMS['#specialsrc'] ?? []).map(([v, d]) => [v, d]));
const DST_SPECIAL = new Map<number, string>((AFUC_ENUMS['#specialdst'] ?? []).map(([v, d]) => [v, d]));

function regName(v: number, dst: boolean): string {
  if (v >= 0x1c) return (dst ? DST_SPECIAL : SRC_SPECIAL).get(v) ?? `$${v.toString(16)}`;
  return REG_NAMES.get(v) ?? `$${v.toString(16).padStart(2, '0')}`;
}

/** Parse a register operand (`$02`, `$sp`, `$data`...) for a source or destination. */
export function parseReg(s: string, dst: boolean): number | undefined {
  const t = s.trim().toLowerCase();
  for (const [v, d] of REG_NAMES) if (d === t) return v;
  for (const [v, d] of dst ? DST_SPECIAL : SRC_SPECIAL) if (d === t) return v;
  const m = /^\$([0-9a-f]{1,2})$/.exec(t);
  if (m) {
    const v = parseInt(m[1]!, 16);
    return v < 0x1c ? v : undefined;
  }
  return undefined;
}

function controlSpace(gen: AfucGen): string {
  return gen === 5 ? 'A5XX_CONTROL_REG' : gen === 7 ? 'A7XX_CONTROL_REG' : 'A6XX_CONTROL_REG';
}

function ctrlName(v: number, gen: AfucGen, sqe: boolean): string {
  const sp = registerSpace(sqe ? 'A6XX_SQE_REG' : controlSpace(gen), gen === 7 ? 'a7xx' : gen === 5 ? 'a5xx' : 'a6xx');
  const r = sp.at(v);
  // SQE registers are `%NAME` as freedreno's tools write them, control registers `@NAME`.
  return r ? `${sqe ? '%' : '@'}${r.name}` : `0x${v.toString(16).padStart(3, '0')}`;
}

function ctrlParse(s: string, gen: AfucGen, sqe: boolean): number | undefined {
  const t = s.trim();
  if (/^0x[0-9a-f]+$/i.test(t)) return parseInt(t.slice(2), 16);
  if (/^\d+$/.test(t)) return parseInt(t, 10);
  const m = /^[@%](\w+)(\+(\d+))?$/.exec(t);
  if (!m) return undefined;
  const sp = registerSpace(sqe ? 'A6XX_SQE_REG' : controlSpace(gen), gen === 7 ? 'a7xx' : gen === 5 ? 'a5xx' : 'a6xx');
  const o = sp.offsetOf(m[1]!);
  return o === undefined ? undefined : o + (m[3] ? parseInt(m[3], 10) : 0);
}

function chooseTemplate(d: Decoded): string {
  for (const o of d.form.overrides) if (o.when.every(([k, v]) => d.f[k] === v)) return o.template;
  return d.form.template;
}

/** Branch target of a decoded instruction at `pc` (dword index), if it is a branch. */
export function branchTarget(d: Decoded, pc: number): number | undefined {
  for (const [name, , , type] of d.form.fields) {
    if (type === 'branch') {
      const off = d.f[name]!;
      return pc + (off & 0x8000 ? off - 0x10000 : off);
    }
    if (type === 'absbranch') return d.f[name]!;
  }
  return undefined;
}

export const labelName = (pc: number): string => `l${pc.toString(16).padStart(4, '0')}`;

/** Text of one instruction; `labels` maps targets to names (else `#+N` relative / `#0x..` absolute). */
export function disasmOne(d: Decoded, pc: number, gen: AfucGen, labels?: ReadonlyMap<number, string>): string {
  const t = chooseTemplate(d);
  return t.replace(/\{(\w+)\}/g, (_m, name: string) => {
    const fd = d.form.fields.find((x) => x[0] === name);
    if (!fd) {
      const dv = d.form.derived.find((x) => x[0] === name);
      return dv ? String(dv[1]) : `{${name}}`;
    }
    const [, , , type, disp] = fd;
    const v = d.f[name]!;
    switch (type) {
      case 'bool':
        return v ? disp : '';
      case '#xmov':
      case '#sds':
        return AFUC_ENUMS[type]?.find((e) => e[0] === v)?.[1] ?? '';
      case '#src':
        return regName(v, false);
      case '#dst':
        return regName(v, true);
      case 'hex':
        return v.toString(16);
      case 'uint':
        return String(v);
      case 'branch':
      case 'absbranch': {
        const tgt = branchTarget(d, pc)!;
        const l = labels?.get(tgt);
        if (l) return l;
        if (type === 'absbranch') return `0x${tgt.toString(16)}`;
        const off = tgt - pc;
        return off >= 0 ? `+${off}` : String(off);
      }
      case '#control-base':
      case '#sqe-base':
        return d.f['PREINCREMENT'] ? `0x${v.toString(16)}` : ctrlName(v, gen, type === '#sqe-base');
      default:
        return String(v);
    }
  });
}

/** Encode field values into a form's word (no checks). */
function encodeForm(form: AfucForm, f: Record<string, number>): number {
  let w = form.match >>> 0;
  for (const [name, lo, hi] of form.fields) {
    const v = f[name] ?? 0;
    const width = hi - lo + 1;
    const mask = width >= 32 ? 0xffffffff : (1 << width) - 1;
    w = (w | ((v & mask) << lo)) >>> 0;
  }
  return w >>> 0;
}

export interface DisasmLine {
  readonly pc: number;
  readonly word: number;
  readonly text: string;
  readonly label?: string;
}

/**
 * Disassemble a program. Words whose re-encoding would differ (unknown encodings, or set
 * don't-care bits) are printed as `.word`, so assembling the listing gives the same bytes.
 */
export function disassemble(words: Uint32Array, g: AfucGen | Gen, opts: { jumpTable?: ReadonlyMap<number, string> } = {}): DisasmLine[] {
  const gen = afucGen(g);
  const decoded = Array.from(words, (w) => decode(w, gen));
  const labels = new Map<number, string>();
  decoded.forEach((d, pc) => {
    if (!d) return;
    const t = branchTarget(d, pc);
    if (t !== undefined && t >= 0 && t < words.length) labels.set(t, labelName(t));
  });
  for (const [pc, name] of opts.jumpTable ?? []) if (pc < words.length) labels.set(pc, name);
  const out: DisasmLine[] = [];
  decoded.forEach((d, pc) => {
    const word = words[pc]! >>> 0;
    let text = `.word 0x${word.toString(16).padStart(8, '0')}`;
    if (d) {
      const t = disasmOne(d, pc, gen, labels);
      let ok = false;
      try {
        const re = assembleLine(t, pc, gen, labels);
        ok = re === word;
      } catch {
        ok = false;
      }
      text = ok ? t : `${text} ; ${t}`;
    }
    const label = labels.get(pc);
    out.push(label ? { pc, word, text, label } : { pc, word, text });
  });
  return out;
}

/** Listing text (labels on their own lines). */
export function listing(lines: readonly DisasmLine[]): string {
  const out: string[] = [];
  for (const l of lines) {
    if (l.label) out.push(`${l.label}:`);
    out.push(`\t${l.text}`);
  }
  return out.join('\n') + '\n';
}

export class AfucAsmError extends Error {
  override readonly name = 'AfucAsmError';
}

interface TemplateRx {
  readonly form: AfucForm;
  readonly mnemonic: string;
  readonly prefix: string[];
  readonly rx: RegExp;
  readonly names: string[];
  readonly when: readonly (readonly [string, number])[];
}

const rxCache = new Map<number, Map<string, TemplateRx[]>>();

function escapeRx(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function templateRxs(gen: AfucGen): Map<string, TemplateRx[]> {
  let m = rxCache.get(gen);
  if (m) return m;
  m = new Map();
  for (const form of forms(gen)) {
    for (const [tpl0, when] of [...form.overrides.map((o) => [o.template, o.when] as const), [form.template, [] as const] as const]) {
      let tpl = tpl0;
      for (const [k, v] of form.derived) tpl = tpl.replace(`{${k}}`, String(v));
      const mm = /^((?:\{\w+\})*)([a-z0-9_]+)(.*)$/.exec(tpl);
      if (!mm) continue;
      const prefix = [...mm[1]!.matchAll(/\{(\w+)\}/g)].map((x) => x[1]!);
      const mnemonic = mm[2]!;
      const names: string[] = [];
      let rx = '';
      for (const part of mm[3]!.split(/(\{\w+\})/)) {
        const fm = /^\{(\w+)\}$/.exec(part);
        if (!fm) {
          rx += part.split(' ').map(escapeRx).join('\\s*');
          continue;
        }
        const fd = form.fields.find((x) => x[0] === fm[1]);
        const type = fd?.[3] ?? 'uint';
        names.push(fm[1]!);
        rx +=
          type === 'bool' ? '(!?)' :
          type === '#src' || type === '#dst' ? '(\\$[0-9a-z]+)' :
          type === 'hex' ? '([0-9a-fA-F]+)' :
          type === 'uint' ? '(\\d+)' :
          type === 'branch' || type === 'absbranch' ? '([\\w+-]+)' :
          '([@%]\\w+(?:\\+\\d+)?|0x[0-9a-fA-F]+|\\d+)';
      }
      const list = m.get(mnemonic) ?? [];
      list.push({ form, mnemonic, prefix, rx: new RegExp(`^\\s*${rx}\\s*$`), names, when });
      m.set(mnemonic, list);
    }
  }
  rxCache.set(gen, m);
  return m;
}

/** Assemble one instruction line at `pc`. Throws AfucAsmError with a readable message. */
export function assembleLine(line: string, pc: number, gen: AfucGen, labels: ReadonlyMap<number, string> | ReadonlyMap<string, number>): number {
  let s = line.trim();
  const pre: Record<string, number> = {};
  for (;;) {
    const m = /^\((rep|peek|xmov([1-3])|sds([1-3]))\)/.exec(s);
    if (!m) break;
    if (m[1] === 'rep') pre['REP'] = 1;
    else if (m[1] === 'peek') pre['PEEK'] = 1;
    else if (m[2]) pre['XMOV'] = parseInt(m[2], 10);
    else if (m[3]) pre['SDS'] = parseInt(m[3], 10);
    s = s.slice(m[0].length);
  }
  const mm = /^([a-z0-9_]+)(.*)$/.exec(s);
  if (!mm) throw new AfucAsmError(`cannot parse '${line}'`);
  const cands = templateRxs(gen).get(mm[1]!);
  if (!cands) throw new AfucAsmError(`unknown instruction '${mm[1]}' for a${gen}xx`);
  const labelPc = (name: string): number | undefined => {
    for (const [k, v] of labels as Map<unknown, unknown>) {
      if (typeof k === 'string' && k === name) return v as number;
      if (typeof v === 'string' && v === name) return k as number;
    }
    return undefined;
  };
  let lastErr = `operands '${mm[2]!.trim()}' do not fit any form of ${mm[1]}`;
  for (const c of cands) {
    if (Object.keys(pre).some((k) => !c.prefix.includes(k))) continue;
    const om = c.rx.exec(mm[2]!);
    if (!om) continue;
    const f: Record<string, number> = { ...pre };
    let ok = true;
    c.names.forEach((name, i) => {
      if (!ok) return;
      const txt = om[i + 1]!;
      const type = c.form.fields.find((x) => x[0] === name)?.[3] ?? 'uint';
      let v: number | undefined;
      if (type === 'bool') v = txt ? 1 : 0;
      else if (type === '#src' || type === '#dst') v = parseReg(txt, type === '#dst');
      else if (type === 'hex') v = parseInt(txt, 16);
      else if (type === 'uint') v = parseInt(txt, 10);
      else if (type === 'branch' || type === 'absbranch') {
        let tgt: number | undefined;
        if (/^[+-]\d+$/.test(txt)) tgt = pc + parseInt(txt, 10);
        else if (/^0x[0-9a-f]+$/i.test(txt)) tgt = parseInt(txt, 16);
        else tgt = labelPc(txt);
        if (tgt === undefined) {
          lastErr = `undefined label '${txt}'`;
          ok = false;
          return;
        }
        v = type === 'absbranch' ? tgt : (tgt - pc) & 0xffff;
        if (type === 'branch' && (tgt - pc < -0x8000 || tgt - pc > 0x7fff)) {
          lastErr = `branch to ${txt} out of range`;
          ok = false;
          return;
        }
      } else v = ctrlParse(txt, gen, type === '#sqe-base');
      if (v === undefined) {
        ok = false;
        lastErr = `bad operand '${txt}' for ${name}`;
        return;
      }
      const fd = c.form.fields.find((x) => x[0] === name);
      if (fd && v >= 2 ** (fd[2] - fd[1] + 1)) {
        ok = false;
        lastErr = `operand '${txt}' does not fit ${fd[2] - fd[1] + 1} bits`;
        return;
      }
      f[name] = v;
    });
    if (!ok) continue;
    for (const [k, v] of c.when) {
      if (f[k] !== undefined && f[k] !== v) ok = false;
      f[k] = v;
    }
    if (!ok) continue;
    const w = encodeForm(c.form, f);
    // The encoding must decode back to this form (guards the overlapping encodings).
    const back = decode(w, gen);
    if (!back || back.form !== c.form) continue;
    return w;
  }
  throw new AfucAsmError(lastErr);
}

/** A literal offset encoded as a NOP-like word: high byte 0x01 on a6xx+ (all-zero words are illegal there). */
export function nopLiteral(x: number, gen: AfucGen): number {
  if (x >>> 24) throw new AfucAsmError(`literal 0x${x.toString(16)} does not fit 24 bits`);
  return gen < 6 ? x : (x | (1 << 24)) >>> 0;
}

/** Assemble a program. Errors name the line. */
export function assemble(src: string, g: AfucGen | Gen): Uint32Array {
  const gen = afucGen(g);
  const lines = src.split(/\r?\n/).map((l) => l.replace(/(;|\/\/).*$/, '').trim());
  const labels = new Map<string, number>();
  let pc = 0;
  const items: { line: string; pc: number; no: number }[] = [];
  lines.forEach((l, no) => {
    let s = l;
    for (;;) {
      const m = /^([A-Za-z_][\w]*):\s*/.exec(s);
      if (!m) break;
      if (labels.has(m[1]!)) throw new AfucAsmError(`line ${no + 1}: label '${m[1]}' defined twice`);
      labels.set(m[1]!, pc);
      s = s.slice(m[0].length);
    }
    if (!s) return;
    const al = /^\.align\s+(\d+)$/.exec(s);
    if (al) {
      // freedreno's `.align N` (bytes): pad with nop up to the boundary.
      const n = Math.max(1, parseInt(al[1]!, 10) >> 2);
      while (pc % n) {
        items.push({ line: 'nop', pc, no });
        pc++;
      }
      return;
    }
    items.push({ line: s, pc, no });
    pc += s.startsWith('.word') ? s.slice(5).split(',').length : 1;
  });
  const out: number[] = [];
  for (const it of items) {
    const s = it.line.replace(/@@(\w+)/g, (_m, n: string) => {
      const v = labels.get(n);
      if (v === undefined) throw new AfucAsmError(`line ${it.no + 1}: undefined label '${n}'`);
      return '0x' + (v * 4).toString(16);
    });
    try {
      const lit = /^\[(?:([0-9a-fA-F]{1,8})|#(\w+))\]$/.exec(s);
      if (lit) {
        // freedreno raw literals: [xxxxxxxx] is the word itself, [#label] the label's offset as a
        // nop literal (high byte 0x01 on a6xx+, as firmware headers hold the jump table offset).
        if (lit[1]) out.push(parseInt(lit[1], 16) >>> 0);
        else {
          const v = labels.get(lit[2]!);
          if (v === undefined) throw new AfucAsmError(`undefined label '${lit[2]}'`);
          out.push(nopLiteral(v, gen));
        }
      } else if (s.startsWith('.word')) {
        for (const t of s.slice(5).split(',')) {
          const x = t.trim();
          const lv = labels.get(x);
          const v = lv !== undefined ? lv : /^0x[0-9a-f]+$/i.test(x) ? parseInt(x, 16) : /^\d+$/.test(x) ? parseInt(x, 10) : NaN;
          if (!Number.isFinite(v)) throw new AfucAsmError(`bad .word value '${x}'`);
          out.push(v >>> 0);
        }
      } else out.push(assembleLine(s, it.pc, gen, labels));
    } catch (e) {
      if (e instanceof AfucAsmError) throw new AfucAsmError(`line ${it.no + 1}: ${e.message}`);
      throw e;
    }
  }
  return Uint32Array.from(out);
}
