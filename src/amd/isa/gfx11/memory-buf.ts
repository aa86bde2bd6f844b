/**
 * GFX11 MUBUF and MTBUF codecs (one implementation, two layouts).
 * MUBUF word 0: offset[11:0] slc[12] dlc[13] glc[14] lds[16] op[25:18] prefix[31:26]=0b111000.
 * MTBUF word 0: offset[11:0] slc[12] dlc[13] glc[14] op[18:15] format[25:19] prefix=0b111010.
 * Word 1 (both): vaddr[7:0] vdata[15:8] srsrc[20:16] (x4) tfe[21] offen[22] idxen[23] soffset[31:24].
 * Operand lists, tfe widths and must-be-zero fields come from mubuf.gen.ts / mtbuf.gen.ts.
 * GFX9 and GFX10.3 use the same codec over their layouts (`BufLayout`) and tables.
 */
import { AsmError, DecodeError, type AsmLine, type Codec, type Instruction } from '../types.js';
import { GFX11_SPACE, SRC, inlineFloatText, inlineInt, parseIntText, parseReg, sregName, srcName, vregName } from '../operands.js';
import { MUBUF_ALIASES, MUBUF_ASM, MUBUF_OPS, type BufEntry } from './mubuf.gen.js';
import { MTBUF_ALIASES, MTBUF_ASM, MTBUF_OPS, MTBUF_FORMATS } from './mtbuf.gen.js';
import { aliasOf, bf, parseIntIn, parseMods, parseSreg, parseVgpr, splitLine, word } from './memory-common.js';

// ---------------------------------------------------------------------------------------------
// MTBUF format syntax, as llvm-mc reads it. GFX10+ take the unified `format:[BUF_FMT_32_FLOAT]`
// or a data/numeric pair `format:[BUF_DATA_FORMAT_32,BUF_NUM_FORMAT_FLOAT]` that names a unified
// one; GFX9 takes `format:[BUF_DATA_FORMAT_32,BUF_NUM_FORMAT_FLOAT]` (either half alone, in any
// order) and the legacy `dfmt:N` / `nfmt:N`, before or after soffset. `format:N` is the raw field.
// The defaults (data format 8, numeric format UNORM: field value 1) are the names the generated
// tables leave out because LLVM prints nothing for them.

interface FormatSyntax {
  readonly unified: boolean;
  readonly byName: ReadonlyMap<string, number>;
  readonly dfmt: ReadonlyMap<string, number>;
  readonly nfmt: ReadonlyMap<string, number>;
}

const DEFAULT_DFMT = 'BUF_DATA_FORMAT_8';
const DEFAULT_NFMT = 'BUF_NUM_FORMAT_UNORM';

function formatSyntax(formats: readonly string[]): FormatSyntax {
  const unified = !formats.some((n) => n.includes('BUF_DATA_FORMAT'));
  const byName = new Map<string, number>();
  const dfmt = new Map<string, number>([[DEFAULT_DFMT, 1]]);
  const nfmt = new Map<string, number>([[DEFAULT_NFMT, 0]]);
  formats.forEach((n, i) => {
    const names = n.replace(/^\[|\]$/g, '').split(',').filter(Boolean);
    if (names.length === 1 && /^BUF_FMT_/.test(names[0]!)) byName.set(names[0]!, i);
    if (unified) return;
    // GFX9: field = dfmt | nfmt << 4; one name is printed when the other half is the default.
    for (const nm of names) {
      if (nm.startsWith('BUF_DATA_FORMAT_')) dfmt.set(nm, i & 15);
      if (nm.startsWith('BUF_NUM_FORMAT_')) nfmt.set(nm, i >> 4);
    }
  });
  if (unified) {
    byName.set(`BUF_FMT_${DEFAULT_DFMT.slice(16)}_${DEFAULT_NFMT.slice(15)}`, 1);
    // The data/numeric names a unified format is made of.
    for (const k of byName.keys()) {
      const m = /^BUF_FMT_(.*)_([A-Z]+)$/.exec(k);
      if (m) { dfmt.set(`BUF_DATA_FORMAT_${m[1]}`, -1); nfmt.set(`BUF_NUM_FORMAT_${m[2]}`, -1); }
    }
  }
  return { unified, byName, dfmt, nfmt };
}

/** A small constant expression (`(2 + 3 * 16)`, `0x7f`), or null. */
function constExpr(t: string): number | null {
  const n = parseIntText(t);
  if (n !== null) return n;
  if (!/^[\s\d+\-*/()x]+$/i.test(t) || /[a-wyz]/i.test(t)) return null;
  const toks = t.match(/0x[0-9a-f]+|\d+|[-+*/()]/gi) ?? [];
  let i = 0;
  const prim = (): number | null => {
    const k = toks[i++];
    if (k === undefined) return null;
    if (k === '(') { const v = sum(); if (toks[i++] !== ')') return null; return v; }
    if (k === '-') { const v = prim(); return v === null ? null : -v; }
    const v = Number(k);
    return Number.isFinite(v) ? v : null;
  };
  const prod = (): number | null => {
    let v = prim();
    while (v !== null && (toks[i] === '*' || toks[i] === '/')) { const o = toks[i++]; const r = prim(); if (r === null) return null; v = o === '*' ? v * r : Math.trunc(v / r); }
    return v;
  };
  const sum = (): number | null => {
    let v = prod();
    while (v !== null && (toks[i] === '+' || toks[i] === '-')) { const o = toks[i++]; const r = prod(); if (r === null) return null; v = o === '+' ? v + r : v - r; }
    return v;
  };
  const v = sum();
  return i === toks.length ? v : null;
}

const FORMAT_TOKEN = /(^|,|\s)\s*(format:\s*(?:\[[^\]]*\]?|\([^)]*\)|[^\s,]+)|dfmt:\s*[^\s,]+|nfmt:\s*[^\s,]+)\s*(,?)/i;

/** Take the format operands out of an MTBUF line's operand text: the rest and the field value. */
function takeFormat(l: AsmLine, rest0: string, S: FormatSyntax): { rest: string; value: number | undefined } {
  let rest = rest0;
  let format: number | undefined;
  let dfmt: number | undefined;
  let nfmt: number | undefined;
  for (;;) {
    const m = FORMAT_TOKEN.exec(rest);
    if (!m) break;
    const before = m[1] === ',';
    const after = m[3] === ',';
    const tok = m[2]!;
    // `a, TOKEN, b` -> `a, b`; `a, TOKEN mods` -> `a mods`; `a TOKEN ...` -> `a ...`.
    rest = rest.slice(0, m.index) + (before && after ? ',' : ' ') + rest.slice(m.index + m[0].length);
    const k = tok.indexOf(':');
    const key = tok.slice(0, k).toLowerCase();
    const val = tok.slice(k + 1).trim();
    if (key === 'dfmt' || key === 'nfmt') {
      if (S.unified) throw new AsmError(l.line, `${key}: is not supported on this target (use format:)`);
      const v = constExpr(val);
      if (v === null || v < 0 || v > (key === 'dfmt' ? 15 : 7)) throw new AsmError(l.line, `invalid ${key} '${val}'`);
      if ((key === 'dfmt' ? dfmt : nfmt) !== undefined || format !== undefined) throw new AsmError(l.line, `duplicate format operand`);
      if (key === 'dfmt') dfmt = v;
      else nfmt = v;
      continue;
    }
    if (format !== undefined || dfmt !== undefined || nfmt !== undefined) throw new AsmError(l.line, `duplicate format operand`);
    if (val.startsWith('[')) {
      if (!val.endsWith(']')) throw new AsmError(l.line, `format: expected a closing square bracket`);
      const names = val.slice(1, -1).split(',').map((x) => x.trim().toUpperCase());
      if (names.length === 1 && S.byName.has(names[0]!)) {
        if (!S.unified) throw new AsmError(l.line, `unified format is not supported on this target`);
        format = S.byName.get(names[0]!)!;
        continue;
      }
      let d: string | undefined;
      let n: string | undefined;
      for (const nm of names) {
        if (S.dfmt.has(nm) && d === undefined) d = nm;
        else if (S.nfmt.has(nm) && n === undefined) n = nm;
        else throw new AsmError(l.line, `invalid format '${val}'`);
      }
      d ??= DEFAULT_DFMT;
      n ??= DEFAULT_NFMT;
      if (S.unified) {
        const u = S.byName.get(`BUF_FMT_${d.slice(16)}_${n.slice(15)}`);
        if (u === undefined) throw new AsmError(l.line, `unsupported format '${val}'`);
        format = u;
      } else format = S.dfmt.get(d)! | (S.nfmt.get(n)! << 4);
      continue;
    }
    const v = constExpr(val);
    if (v === null || v < 0 || v > 127) throw new AsmError(l.line, `invalid format '${val}'`);
    format = v;
  }
  if (dfmt !== undefined || nfmt !== undefined) format = (dfmt ?? 1) | ((nfmt ?? 0) << 4);
  return { rest: rest.replace(/,\s*$/, '').trim(), value: format };
}


/** A bit field: dword index, low bit, width. */
export interface BufField { readonly w: 0 | 1; readonly lo: number; readonly n: number }
const B = (w: 0 | 1, lo: number, n: number): BufField => ({ w, lo, n });

/**
 * One target's MUBUF or MTBUF encoding as data. vaddr[7:0] vdata[15:8] srsrc[20:16] soffset[31:24]
 * of word 1 are common to GFX9..GFX11; the rest moves between generations.
 */
export interface BufLayout {
  readonly name: 'MUBUF' | 'MTBUF';
  /** Codec name (target prefix + class). */
  readonly codec: string;
  readonly prefix: number;
  readonly op: BufField;
  /** GFX10 MTBUF: op bit 3 lives in word 1. */
  readonly opHi?: BufField;
  readonly offset: BufField;
  readonly offen: BufField;
  readonly idxen: BufField;
  readonly glc: BufField;
  readonly slc: BufField;
  readonly dlc?: BufField;
  readonly lds?: BufField;
  readonly tfe: BufField;
  readonly format?: BufField;
  readonly table: Readonly<Record<number, BufEntry>>;
  readonly aliases: Readonly<Record<string, string>>;
  /** Operand forms llvm-mc accepts (it refuses some that LLVM prints). */
  readonly asm: Readonly<{ nullSrsrc: boolean; literalSoffset: boolean }>;
  readonly formats?: readonly string[];
  /** LLVM's text per srsrc value (null: rejected); default GFX11's. */
  readonly srsrc?: readonly (string | null)[];
  /** LLVM's text per soffset value (null: rejected, '#' literal follows); default GFX11's. */
  readonly soffset?: readonly (string | null)[];
  /** GFX9/GFX10: with lds set the load goes to LDS and vdata is not an operand. */
  readonly ldsNoVdata?: boolean;
}

/** LLVM's text for the srsrc field (4-aligned SGPR/TTMP quad, or null when 31). */
function srsrcName(v: number): string | null {
  return v === 31 ? 'null' : sregName(GFX11_SPACE, v * 4, 4);
}

/**
 * LLVM's text for soffset: an SGPR, special or inline constant; 255 takes a literal dword after the
 * instruction; 254 (src_lds_direct) is printed with LLVM's invalid-register comment.
 */
function soffsetName(v: number, literal: number | undefined): string | null {
  if (v === SRC.LITERAL) return literal === undefined ? null : literalText(literal);
  if (v === 254) return "src_lds_direct/*Invalid register, operand has 'SReg_32' register class*/";
  return srcName(GFX11_SPACE, v, 1, 'i32');
}

/** Float bit patterns LLVM prints by value (the inline float constants). */
const FLOAT_LITERALS: Readonly<Record<number, string>> = {
  0x3f000000: '0.5', 0xbf000000: '-0.5', 0x3f800000: '1.0', 0xbf800000: '-1.0', 0x40000000: '2.0', 0xc0000000: '-2.0',
  0x40800000: '4.0', 0xc0800000: '-4.0', 0x3e22f983: '0.15915494',
};

/** How LLVM prints a 32-bit literal operand: inline-representable integers in decimal, inline floats by value, else hex. */
function literalText(v: number): string {
  const i = v | 0;
  if (i >= -16 && i <= 64) return String(i);
  return FLOAT_LITERALS[v >>> 0] ?? '0x' + (v >>> 0).toString(16);
}

const get = (w0: number, w1: number, f: BufField | undefined): number => (f ? ((f.w ? w1 : w0) >>> f.lo) & ((1 << f.n) - 1) : 0);

export function makeBufCodec(L: BufLayout): Codec {
  const TABLE: (BufEntry | undefined)[] = [];
  const BY_NAME = new Map<string, { op: number; e: BufEntry }>();
  for (const [k, e] of Object.entries(L.table)) {
    TABLE[Number(k)] = e;
    BY_NAME.set(e.mn, { op: Number(k), e });
  }
  const mtbuf = L.name === 'MTBUF';
  const formats = L.formats ?? [];
  const formatByName = new Map<string, number>();
  formats.forEach((n, i) => { if (n && n !== '?' && !/^\d+$/.test(n)) formatByName.set(n.toUpperCase(), i); });
  const fmtSyntax = mtbuf ? formatSyntax(formats) : null;
  /** The operands printed: without vdata for a GFX9/GFX10 load to LDS. */
  const opsOf = (e: BufEntry, lds: number) => (lds && L.ldsNoVdata && e.lds === 'opt' ? e.ops.filter(([n]) => n !== 'vdata') : e.ops);
  const srsrcText = (v: number) => (L.srsrc ? L.srsrc[v]! : srsrcName(v));
  const soffsetText = (v: number, lit: number | undefined) => {
    if (!L.soffset) return soffsetName(v, lit);
    const t = L.soffset[v]!;
    return t === '#' ? (lit === undefined ? null : literalText(lit)) : t;
  };
  const srsrcOk: boolean[] = [];
  const soffsetOk: boolean[] = [];
  for (let v = 0; v < 32; v++) srsrcOk[v] = srsrcText(v) !== null;
  for (let v = 0; v < 256; v++) soffsetOk[v] = v === SRC.LITERAL ? (L.soffset ? L.soffset[v] === '#' : true) : soffsetText(v, undefined) !== null;
  const srsrcByText = new Map<string, number>();
  const soffsetByText = new Map<string, number>();
  for (let v = 0; v < 32; v++) { const t = srsrcText(v); if (t !== null && !t.includes('/*') && !srsrcByText.has(t)) srsrcByText.set(t, v); }
  if (L.soffset) L.soffset.forEach((t, v) => { if (t !== null && t !== '#' && !t.includes('/*') && !soffsetByText.has(t)) soffsetByText.set(t, v); });
  return {
    name: L.codec,
    matches: (w0) => w0 >>> 26 === L.prefix,
    decode(words, index, pc): Instruction {
      const w0 = word(words, index, 0, pc);
      const w1 = word(words, index, 1, pc);
      const op = get(w0, w1, L.op) | (get(w0, w1, L.opHi) << L.op.n);
      const lit = w1 >>> 24 === SRC.LITERAL ? word(words, index, 2, pc) : undefined;
      const bad = (why: string) => new DecodeError(pc, [w0, w1], why);
      const e = TABLE[op];
      if (!e) throw bad(`${L.name} opcode ${op} is not defined`);
      const f: Record<string, number> = {
        op, offset: get(w0, w1, L.offset), slc: get(w0, w1, L.slc), dlc: get(w0, w1, L.dlc), glc: get(w0, w1, L.glc),
        vaddr: w1 & 0xff, vdata: (w1 >>> 8) & 0xff, srsrc: (w1 >>> 16) & 0x1f, tfe: get(w0, w1, L.tfe),
        offen: get(w0, w1, L.offen), idxen: get(w0, w1, L.idxen), soffset: w1 >>> 24,
      };
      if (mtbuf) {
        f.format = get(w0, w1, L.format);
        if (formats[f.format] === '?') throw bad(`invalid format ${f.format}`);
      } else f.lds = get(w0, w1, L.lds);
      if (f.tfe && e.tfe === 0) throw bad(`tfe not allowed for ${e.mn}`);
      if (f.lds && e.lds === 'no') throw bad(`lds not allowed for ${e.mn}`);
      if (f.offset && e.offset === 'no') throw bad(`offset not allowed for ${e.mn}`);
      if ((f.glc && e.cpol[0] === 'no') || (f.slc && e.cpol[1] === 'no') || (f.dlc && e.cpol[2] === 'no')) throw bad(`cache policy bit not allowed for ${e.mn}`);
      for (const z of e.zero) {
        if (z === 'offen' ? f.offen || f.idxen : f[z]) throw bad(`field ${z} must be zero for ${e.mn}`);
      }
      for (const [n, c] of opsOf(e, f.lds!)) {
        if (n === 'srsrc' && !srsrcOk[f.srsrc!]) throw bad(`invalid srsrc ${f.srsrc}`);
        if (n === 'soffset' && !soffsetOk[f.soffset!]) throw bad(`invalid soffset ${f.soffset}`);
        if (n === 'vdata' && f.vdata! + (f.tfe ? e.tfe : c) > 256) throw bad('vdata range exceeds v255');
        if (n === 'vaddr' && f.vaddr! + f.offen! + f.idxen! > 256) throw bad('vaddr range exceeds v255');
      }
      const hasLit = lit !== undefined && e.ops.some(([n]) => n === 'soffset');
      return {
        encoding: L.name, opcode: op, mnemonic: e.mn, size: hasLit ? 12 : 8, words: hasLit ? [w0, w1, lit] : [w0, w1], fields: f,
        literal: hasLit ? lit : undefined, variant: '', info: e,
      };
    },
    print(inst): string {
      const e = inst.info as BufEntry;
      const f = inst.fields;
      const ops = opsOf(e, f.lds!).map(([n, c]) => {
        switch (n) {
          case 'vdata': return vregName(f.vdata!, f.tfe ? e.tfe : c);
          case 'vaddr': { const k = f.offen! + f.idxen!; return k ? vregName(f.vaddr!, k) : 'off'; }
          case 'srsrc': return srsrcText(f.srsrc!)!;
          default: return soffsetText(f.soffset!, inst.literal)!;
        }
      });
      let s = e.mn + (ops.length ? ' ' + ops.join(', ') : '');
      if (mtbuf && formats[f.format!]) s += ` format:${formats[f.format!]}`;
      if (f.idxen) s += ' idxen';
      if (f.offen) s += ' offen';
      if (f.offset && e.offset === 'opt') s += ` offset:${f.offset}`;
      if (f.glc && e.cpol[0] === 'opt') s += ' glc';
      if (f.slc && e.cpol[1] === 'opt') s += ' slc';
      if (f.dlc && e.cpol[2] === 'opt') s += ' dlc';
      if (f.tfe) s += ' tfe';
      if (f.lds && e.lds === 'opt') s += ' lds';
      return s;
    },
    assemble(l: AsmLine): number[] | null {
      const hit = BY_NAME.get(l.mnemonic) ?? BY_NAME.get(aliasOf(L.aliases, l.mnemonic));
      if (!hit) return null;
      const { op, e } = hit;
      let rest = l.rest;
      let fmtValue: number | undefined;
      if (fmtSyntax) {
        const r = takeFormat(l, rest, fmtSyntax);
        rest = r.rest;
        fmtValue = r.value;
      }
      const { ops, mods } = e.ops.length ? splitLine(rest) : { ops: [], mods: rest.split(/\s+/).filter(Boolean) };
      const ldsForm = L.ldsNoVdata === true && e.lds === 'opt' && mods.some((x) => x.toLowerCase() === 'lds');
      const tmpl = opsOf(e, ldsForm ? 1 : 0);
      if (ops.length !== tmpl.length) throw new AsmError(l.line, `${e.mn} takes ${tmpl.length} operands, got ${ops.length}`);
      const flags = ['idxen', 'offen', 'glc', 'slc', 'tfe'];
      if (L.dlc) flags.push('dlc');
      if (L.lds) flags.push('lds');
      const m = parseMods(l, mods, flags, mtbuf ? ['offset', 'format'] : ['offset']);
      const idxen = m.flags.has('idxen') ? 1 : 0;
      const offen = m.flags.has('offen') ? 1 : 0;
      const tfe = m.flags.has('tfe') ? 1 : 0;
      if (tfe && (e.tfe === 0 || !e.tfeAsm)) throw new AsmError(l.line, `tfe is not supported by ${e.mn}`);
      let vaddr = 0, vdata = 0, srsrc = 0, soffset = 0;
      let literal: number | undefined;
      tmpl.forEach(([n, c], i) => {
        const t = ops[i]!;
        switch (n) {
          case 'vdata': vdata = parseVgpr(l, t, tfe ? e.tfe : c); break;
          case 'vaddr': {
            const k = idxen + offen;
            if (k === 0) { if (t.trim().toLowerCase() !== 'off') throw new AsmError(l.line, `vaddr must be 'off' without idxen/offen`); } else vaddr = parseVgpr(l, t, k);
            break;
          }
          case 'srsrc': {
            const tt = t.trim().toLowerCase();
            if (L.srsrc) {
              const v = srsrcByText.get(tt);
              if (v === undefined) throw new AsmError(l.line, `invalid srsrc '${t}'`);
              srsrc = v;
              break;
            }
            if (tt === 'null') {
              if (!L.asm.nullSrsrc) throw new AsmError(l.line, `srsrc cannot be null`);
              srsrc = 31;
              break;
            }
            const r = parseSreg(l, t, 4);
            if (r.value & 3) throw new AsmError(l.line, `srsrc '${t}' must be 4-aligned`);
            srsrc = r.value >> 2;
            break;
          }
          default: {
            const byText = soffsetByText.get(t.trim().toLowerCase());
            const r = byText !== undefined ? { value: byText } : parseSoffset(l, t, L.soffset !== undefined);
            soffset = r.value;
            literal = r.literal;
            if (literal !== undefined && !L.asm.literalSoffset) throw new AsmError(l.line, `soffset '${t}' is not an inline constant or register`);
          }
        }
      });
      const offset = m.vals.has('offset') ? parseIntIn(l, m.vals.get('offset')!, 0, 4095, 'offset') : 0;
      const ws = [(L.prefix << 26) >>> 0, 0];
      const put = (fl: BufField | undefined, v: number) => { if (fl) ws[fl.w] = (ws[fl.w]! | bf(v, fl.lo, fl.n)) >>> 0; };
      put(L.op, op);
      put(L.opHi, op >>> L.op.n);
      put(L.glc, m.flags.has('glc') ? 1 : 0);
      put(L.dlc, m.flags.has('dlc') ? 1 : 0);
      put(L.slc, m.flags.has('slc') ? 1 : 0);
      put(L.offset, offset);
      if (mtbuf) {
        let fmt = fmtValue ?? 1;
        if (m.vals.has('format')) {
          const t = m.vals.get('format')!.trim();
          const n = parseIntText(t);
          const v = n !== null ? n : formatByName.get(t.toUpperCase().replace(/\s+/g, ''));
          if (v === undefined || v < 0 || v >= 1 << L.format!.n) throw new AsmError(l.line, `invalid format '${t}'`);
          fmt = v;
        }
        put(L.format, fmt);
      } else if (m.flags.has('lds')) {
        if (e.lds !== 'opt') throw new AsmError(l.line, `lds is not supported by ${e.mn}`);
        put(L.lds, 1);
      }
      put(L.idxen, idxen);
      put(L.offen, offen);
      put(L.tfe, tfe);
      ws[1] = (ws[1]! | bf(soffset, 24, 8) | bf(srsrc, 16, 5) | bf(vdata, 8, 8) | vaddr) >>> 0;
      return literal === undefined ? ws : [...ws, literal >>> 0];
    },
  };
}

/** soffset: an SGPR/special register, an inline constant, or a 32-bit literal. */
function parseSoffset(l: AsmLine, t: string, tabled = false): { value: number; literal?: number } {
  const s = t.trim().toLowerCase();
  if (!tabled && s === 'null') return { value: 124 };
  const r = tabled ? null : parseReg(GFX11_SPACE, s);
  if (r) {
    if (r.count !== 1 || r.file === 'v') throw new AsmError(l.line, `invalid soffset '${t}'`);
    return { value: r.value };
  }
  const n = parseIntText(s);
  if (n !== null) {
    const v = inlineInt(n);
    if (v !== null) return { value: v };
    if (n < -0x80000000 || n > 0xffffffff) throw new AsmError(l.line, `soffset '${t}' does not fit 32 bits`);
    return { value: SRC.LITERAL, literal: n >>> 0 };
  }
  const fv = inlineFloatText(s);
  if (fv !== null) return { value: fv };
  throw new AsmError(l.line, `invalid soffset '${t}'`);
}

export const mubufCodec = makeBufCodec({
  name: 'MUBUF', codec: 'MUBUF', prefix: 0b111000, op: B(0, 18, 8), offset: B(0, 0, 12), slc: B(0, 12, 1), dlc: B(0, 13, 1), glc: B(0, 14, 1),
  lds: B(0, 16, 1), tfe: B(1, 21, 1), offen: B(1, 22, 1), idxen: B(1, 23, 1), table: MUBUF_OPS, aliases: MUBUF_ALIASES, asm: MUBUF_ASM,
});
export const mtbufCodec = makeBufCodec({
  name: 'MTBUF', codec: 'MTBUF', prefix: 0b111010, op: B(0, 15, 4), format: B(0, 19, 7), offset: B(0, 0, 12), slc: B(0, 12, 1), dlc: B(0, 13, 1),
  glc: B(0, 14, 1), tfe: B(1, 21, 1), offen: B(1, 22, 1), idxen: B(1, 23, 1), table: MTBUF_OPS, aliases: MTBUF_ALIASES, asm: MTBUF_ASM, formats: MTBUF_FORMATS,
});

