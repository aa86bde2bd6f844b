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
      const { ops, mods } = e.ops.length ? splitLine(l.rest) : { ops: [], mods: l.rest.split(/\s+/).filter(Boolean) };
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
        let fmt = 1;
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
