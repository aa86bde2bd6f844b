/**
 * GFX11 VALU codecs: VOP1, VOP2, VOPC (32-bit `_e32` forms), VOP3 and VOP3SD (64-bit `_e64` forms
 * and VOP3-only opcodes), each with DPP16 (src0 = 250) and DPP8 (src0 = 233/234) forms.
 * GFX11 has no SDWA (LLVM: "sdwa variant of this instruction is not supported").
 *
 * Everything per opcode (mnemonic, operands, constant typing, must-be-zero bits, printed modifiers)
 * comes from the generated tables; this file is the generic machinery around them.
 */
import { AsmError, DecodeError, type AsmLine, type Codec, type EncodingName, type Instruction } from '../types.js';
import { GFX1100_VALU_ALIASES } from '../valu-aliases.gen.js';
import {
  GFX11_SPACE, SRC, inlineFloatText, inlineInt, parseIntText, parseReg, sregName, splitOperands, splitWords, vregName,
  type OperandSpace,
} from '../operands.js';
import { srcClass, wave64Table, type FieldDef, type ValuOpInfo, type ValuOperand, type ValuType } from './valu-types.js';
import { VOP1_OPS, VOP1_DPP16_OPS, VOP1_DPP8_OPS } from './vop1.gen.js';
import { VOP2_OPS, VOP2_DPP16_OPS, VOP2_DPP8_OPS } from './vop2.gen.js';
import { VOPC_OPS, VOPC_DPP16_OPS, VOPC_DPP8_OPS } from './vopc.gen.js';
import { VOP3_OPS, VOP3_DPP16_OPS, VOP3_DPP8_OPS } from './vop3.gen.js';
import { DPP16_FIELDS, DPP8_FIELDS, dppText, newDppMods, parseDppWord, type DppForm, type DppMods } from './valu-dpp.js';

// ---------------------------------------------------------------------------------------------
// Encoding layouts

type Enc = 'VOP1' | 'VOP2' | 'VOPC' | 'VOP3';

interface Layout {
  readonly enc: Enc;
  /** DPP form (the DPP dword follows the base words), or null for the plain encoding. */
  readonly form: DppForm | null;
  readonly words: number;
  readonly op: FieldDef;
  readonly prefix: number;
  readonly fields: Readonly<Record<string, FieldDef>>;
  readonly table: readonly (ValuOpInfo | undefined)[];
  /** Precomputed for decode: the fields as [name, word, shift, mask] (VOP3SD: sdst instead of abs/opsel). */
  readonly fl?: readonly FieldSlot[];
  readonly flSd?: readonly FieldSlot[];
  /** Opcodes whose plain form has no src0 operand (src0 = 250/233/234 does not select DPP). */
  readonly noSrc0?: Uint8Array;
  /** The target's operand space. */
  readonly space: OperandSpace;
  /** DPP16 without fi (GFX9). */
  readonly noFi?: boolean;
  /** A plain layout's DPP16/DPP8 forms. */
  readonly dppOf?: Readonly<Record<DppForm, Layout>>;
}

type FieldSlot = readonly [string, number, number, number];

function finish(L: Layout): Layout {
  const fl: FieldSlot[] = Object.entries(L.fields).map(([k, f]) => [k, f.w, f.lo, (1 << f.n) - 1] as const);
  const flSd: FieldSlot[] = [...fl.filter(([k]) => k !== 'abs' && k !== 'opsel'), ['sdst', 0, 8, 0x7f]];
  const noSrc0 = new Uint8Array(L.table.length);
  L.table.forEach((info, op) => { if (info && info.ops.every((o) => o.f !== 'src0')) noSrc0[op] = 1; });
  return { ...L, fl, flSd, noSrc0 };
}

function toArray(t: Readonly<Record<number, ValuOpInfo>>, n: number): (ValuOpInfo | undefined)[] {
  const a: (ValuOpInfo | undefined)[] = new Array(n).fill(undefined);
  for (const [k, v] of Object.entries(t)) a[Number(k)] = v;
  return a;
}

const F = (w: number, lo: number, n: number): FieldDef => ({ w, lo, n });

/** One encoding's generated tables: plain, DPP16 and DPP8 forms. */
export interface ValuEncTables {
  readonly ops: Readonly<Record<number, ValuOpInfo>>;
  readonly dpp16: Readonly<Record<number, ValuOpInfo>>;
  readonly dpp8: Readonly<Record<number, ValuOpInfo>>;
}

/** Everything the VALU codecs need about a target: its operand space and generated tables (layouts are shared). */
export interface ValuTargetData {
  /** Prefix of the codec names (`gfx10` -> `gfx10-VOP2`; GFX11 keeps the bare names). */
  readonly name: string;
  readonly space: OperandSpace;
  readonly tables: Readonly<Record<Enc, ValuEncTables>>;
  /** VOP3's encoding prefix (bits 31:26): 0b110101 on GFX10/11, 0b110100 on GFX9. */
  readonly vop3Prefix?: number;
  /** The DPP16 dword has no fi bit (GFX9: LLVM ignores bit 18). */
  readonly dppNoFi?: boolean;
  /**
   * Read the text in wave64 on a wave32-by-default target (GFX10+, LLVM's +wavefrontsize64): the
   * generated lane-mask operands (`lm`) take an SGPR pair / `vcc`. The encodings are the same.
   */
  readonly wave64?: boolean;
  /** Other generations' mnemonics llvm-mc takes for this target's instructions (base names, generated). */
  readonly aliases?: Readonly<Record<string, string>>;
}

/** The tables of a target as they read in wave64. */
function wave64Tables(t: Readonly<Record<Enc, ValuEncTables>>): Record<Enc, ValuEncTables> {
  const out = {} as Record<Enc, ValuEncTables>;
  for (const e of ['VOP1', 'VOP2', 'VOPC', 'VOP3'] as const) {
    out[e] = { ops: wave64Table(t[e].ops), dpp16: wave64Table(t[e].dpp16), dpp8: wave64Table(t[e].dpp8) };
  }
  return out;
}

/** A target's VALU layouts with their tables, and the assembler's candidates by mnemonic. */
export interface ValuSet {
  readonly space: OperandSpace;
  readonly LAYOUTS: Readonly<Record<Enc, Layout>>;
  readonly DPP: Readonly<Record<Enc, Readonly<Record<DppForm, Layout>>>>;
  readonly BY_MNEMONIC: Map<string, Cand[]>;
}

export function makeValuSet(T0: ValuTargetData): ValuSet {
  const T = T0.wave64 ? { ...T0, tables: wave64Tables(T0.tables) } : T0;
  const space = T.space;
  const noFi = T.dppNoFi === true;
  const plain: Record<Enc, Layout> = {
    VOP1: finish({ enc: 'VOP1', form: null, words: 1, op: F(0, 9, 8), prefix: 0x7e000000, fields: { src0: F(0, 0, 9), vdst: F(0, 17, 8) }, table: toArray(T.tables.VOP1.ops, 256), space, noFi }),
    VOP2: finish({ enc: 'VOP2', form: null, words: 1, op: F(0, 25, 6), prefix: 0, fields: { src0: F(0, 0, 9), vsrc1: F(0, 9, 8), vdst: F(0, 17, 8) }, table: toArray(T.tables.VOP2.ops, 64), space, noFi }),
    VOPC: finish({ enc: 'VOPC', form: null, words: 1, op: F(0, 17, 8), prefix: 0x7c000000, fields: { src0: F(0, 0, 9), vsrc1: F(0, 9, 8) }, table: toArray(T.tables.VOPC.ops, 256), space, noFi }),
    VOP3: finish({
      enc: 'VOP3', form: null, words: 2, op: F(0, 16, 10), prefix: ((T.vop3Prefix ?? 0x35) << 26) >>> 0,
      fields: {
        vdst: F(0, 0, 8), abs: F(0, 8, 3), opsel: F(0, 11, 4), clamp: F(0, 15, 1),
        src0: F(1, 0, 9), src1: F(1, 9, 9), src2: F(1, 18, 9), omod: F(1, 27, 2), neg: F(1, 29, 3),
      },
      table: toArray(T.tables.VOP3.ops, 1024),
      space,
      noFi,
    }),
  };
  const DPP = {} as Record<Enc, Record<DppForm, Layout>>;
  const LAYOUTS = {} as Record<Enc, Layout>;
  for (const e of ['VOP1', 'VOP2', 'VOPC', 'VOP3'] as const) {
    DPP[e] = { dpp16: dppLayout(plain[e], 'dpp16', T.tables[e].dpp16), dpp8: dppLayout(plain[e], 'dpp8', T.tables[e].dpp8) };
    // An opcode without src0 ignores the DPP selector unless LLVM decodes a DPP form of it (GFX10 v_nop).
    const noSrc0 = plain[e].noSrc0!.map((x, op) => (x && !DPP[e].dpp16.table[op] && !DPP[e].dpp8.table[op] ? 1 : 0));
    LAYOUTS[e] = { ...plain[e], dppOf: DPP[e], noSrc0 };
  }
  // The assembler's candidates, built on first use: a run or a disassembly never reads them
  // (building them for the five VALU sets took ~0.1 s of every process's start-up).
  let byMnemonic: Map<string, Cand[]> | null = null;
  return {
    space, LAYOUTS, DPP,
    get BY_MNEMONIC() {
      return (byMnemonic ??= candidates(LAYOUTS, DPP, T.aliases));
    },
  };
}

/** The assembler's candidates by mnemonic (suffix-less spellings, `_e64` of VOP3-only ops, aliases). */
function candidates(LAYOUTS: Readonly<Record<Enc, Layout>>, DPP: Readonly<Record<Enc, Readonly<Record<DppForm, Layout>>>>, aliases: Readonly<Record<string, string>> | undefined): Map<string, Cand[]> {
  const BY_MNEMONIC = new Map<string, Cand[]>();
  const addCand = (name: string, c: Cand): void => {
    const l = BY_MNEMONIC.get(name);
    if (l) l.push(c);
    else BY_MNEMONIC.set(name, [c]);
  };
  const ALL_LAYOUTS: readonly Layout[] = (['VOP1', 'VOP2', 'VOPC', 'VOP3'] as const).flatMap((e) => [LAYOUTS[e], DPP[e].dpp16, DPP[e].dpp8]);
  for (const L of ALL_LAYOUTS) {
    L.table.forEach((info, op) => {
      if (!info) return;
      addCand(info.m, { L, op, info });
    });
  }
  // Suffix-less spellings (`v_add_f32` → `_e32` first, then `_e64`; with DPP controls `_dpp`, then `_e64_dpp`).
  for (const L of ALL_LAYOUTS) {
    L.table.forEach((info, op) => {
      if (!info) return;
      const m = /^(.*?)(_e32|_e64)?(_dpp)?$/.exec(info.m)!;
      if (m[1] === info.m) return;
      addCand(m[1]!, { L, op, info });
    });
  }
  // llvm-mc also takes `_e64` on the instructions that only have a VOP3 form (v_add3_u32_e64, v_nop_e64).
  for (const L of [LAYOUTS.VOP3]) {
    L.table.forEach((info, op) => {
      if (!info || /_e64$/.test(info.m)) return;
      if (!BY_MNEMONIC.has(`${info.m}_e64`)) addCand(`${info.m}_e64`, { L, op, info });
    });
  }
  // Aliases: `alias` + suffix reads as the instruction + the same suffix.
  for (const [a, b] of Object.entries(aliases ?? {})) {
    for (const [k, c] of [...BY_MNEMONIC]) {
      if (!k.startsWith(b)) continue;
      const rest = k.slice(b.length);
      if (!/^(|_e32|_e64|_dpp|_e64_dpp)$/.test(rest) || BY_MNEMONIC.has(a + rest)) continue;
      BY_MNEMONIC.set(a + rest, c);
    }
  }
  return BY_MNEMONIC;
}

const SDST = F(0, 8, 7);

/** The DPP16/DPP8 form of a plain layout: same fields but src0, plus the DPP dword's. */
function dppLayout(L: Layout, form: DppForm, table: Readonly<Record<number, ValuOpInfo>>): Layout {
  const fields: Record<string, FieldDef> = {};
  for (const [k, f] of Object.entries(L.fields)) if (k !== 'src0') fields[k] = f;
  for (const [k, f] of Object.entries(form === 'dpp16' ? DPP16_FIELDS : DPP8_FIELDS)) fields[k] = { w: L.words, lo: f.lo, n: f.n };
  return finish({ ...L, form, words: L.words + 1, fields, table: toArray(table, L.table.length) });
}

const GFX11_VALU_DATA: ValuTargetData = {
  name: 'gfx11',
  aliases: GFX1100_VALU_ALIASES,
  space: GFX11_SPACE,
  tables: {
    VOP1: { ops: VOP1_OPS, dpp16: VOP1_DPP16_OPS, dpp8: VOP1_DPP8_OPS },
    VOP2: { ops: VOP2_OPS, dpp16: VOP2_DPP16_OPS, dpp8: VOP2_DPP8_OPS },
    VOPC: { ops: VOPC_OPS, dpp16: VOPC_DPP16_OPS, dpp8: VOPC_DPP8_OPS },
    VOP3: { ops: VOP3_OPS, dpp16: VOP3_DPP16_OPS, dpp8: VOP3_DPP8_OPS },
  },
};
const GFX11_VALU = makeValuSet(GFX11_VALU_DATA);
export const LAYOUTS = GFX11_VALU.LAYOUTS;
const DPP = GFX11_VALU.DPP;

function get(w: ArrayLike<number>, base: number, f: FieldDef): number {
  return (w[base + f.w]! >>> f.lo) & ((1 << f.n) - 1);
}

// ---------------------------------------------------------------------------------------------
// Constants as LLVM prints them

const F32_CONST: Readonly<Record<number, string>> = {
  0x3f000000: '0.5', 0xbf000000: '-0.5', 0x3f800000: '1.0', 0xbf800000: '-1.0', 0x40000000: '2.0', 0xc0000000: '-2.0',
  0x40800000: '4.0', 0xc0800000: '-4.0', 0x3e22f983: '0.15915494',
};
const F16_CONST: Readonly<Record<number, string>> = {
  0x3800: '0.5', 0xb800: '-0.5', 0x3c00: '1.0', 0xbc00: '-1.0', 0x4000: '2.0', 0xc000: '-2.0', 0x4400: '4.0', 0xc400: '-4.0', 0x3118: '0.15915494',
};
const F64_CONST_HI: Readonly<Record<number, string>> = {
  0x3fe00000: '0.5', 0xbfe00000: '-0.5', 0x3ff00000: '1.0', 0xbff00000: '-1.0', 0x40000000: '2.0', 0xc0000000: '-2.0',
  0x40100000: '4.0', 0xc0100000: '-4.0',
};
const FLOATS = ['0.5', '-0.5', '1.0', '-1.0', '2.0', '-2.0', '4.0', '-4.0'];
const I16_FLOATS = ['0x3800', '0xb800', '0x3c00', '0xbc00', '0x4000', '0xc000', '0x4400', '0xc400', '0x3118'];

const hex = (v: number): string => '0x' + (v >>> 0).toString(16);
const smallInt = (v: number): boolean => v >= -16 && v <= 64;

/** LLVM's text for a literal dword in an operand of type t. */
export function literalText(t: ValuType, lit: number): string {
  const s = lit | 0;
  switch (t) {
    case 'f16': case 'bf16': {
      const lo = lit & 0xffff;
      const s16 = (lo << 16) >> 16;
      if (smallInt(s16)) return String(s16);
      return F16_CONST[lo] ?? hex(lo);
    }
    case 'i16':
      if (smallInt(s)) return String(s);
      return F32_CONST[lit >>> 0] ?? hex(lit & 0xffff);
    case 'f64':
      if (lit === 0) return '0';
      return F64_CONST_HI[lit >>> 0] ?? hex(lit);
    case 'i64':
      if (lit >= 0 && lit <= 64) return String(lit);
      return hex(lit);
    case 'k32': case 'k16':
      return hex(lit);
    default:
      if (smallInt(s)) return String(s);
      return F32_CONST[lit >>> 0] ?? hex(lit);
  }
}

/** LLVM's text for a 9-bit source value of type t (null when the value names nothing). */
export function srcText(space: OperandSpace, v: number, n: number, t: ValuType, lit: number | undefined, t16: boolean): string | null {
  if (v >= 256) {
    const r = v - 256;
    return t16 ? `v${r & 127}.${r & 128 ? 'h' : 'l'}` : vregName(r, n);
  }
  // `null` reads as zero at any width (GFX10 v_mqsad_u32_u8's 128-bit src2).
  if (v < 128) return sregName(space, alignScalar(v, n, space.sgprs), n) ?? (space.specials[v] === 'null' ? 'null' : null);
  if (v <= 192) return String(v - 128);
  if (v <= 208) return String(192 - v);
  if (v >= 240 && v <= 248) {
    if (t === 'i16') return I16_FLOATS[v - 240]!;
    if (v === 248) return t === 'f64' || t === 'i64' ? '0.15915494309189532' : '0.15915494';
    return FLOATS[v - 240]!;
  }
  if (v === 255) return lit === undefined ? null : literalText(t, lit);
  // LLVM 19 names 254 in GFX11 VALU sources too (GFX11_SPACE leaves it out for the scalar encodings).
  return space.sources[v] ?? (v === 254 ? 'src_lds_direct' : null);
}

function rangeOk(space: OperandSpace, v: number, n: number): boolean {
  if (v >= 256) return v - 256 + n <= 256;
  if (v < 128) return sregName(space, alignScalar(v, n, space.sgprs), n) !== null || space.specials[v] === 'null';
  return true;
}

/**
 * LLVM decodes a misaligned SGPR/TTMP tuple as the aligned one (with a warning: "scalar reg isn't
 * aligned"): pairs align to 2, wider tuples to 4. Specials (vcc_hi, exec_hi) stay invalid.
 */
export function alignScalar(v: number, n: number, sgprs = 106): number {
  // Only SGPRs and TTMPs align; the specials (GFX9's flat_scratch/xnack_mask halves, vcc_hi, exec_hi) stay.
  if (n < 2 || (v >= sgprs && v < 108) || v >= 124) return v;
  return v & ~(n === 2 ? 1 : 3);
}

const isConst = (v: number): boolean => (v >= 128 && v <= 208) || (v >= 240 && v <= 248) || v === 255;

// ---------------------------------------------------------------------------------------------
// Decode

function fail(pc: number, words: ArrayLike<number>, index: number, n: number, why: string): never {
  const ws: number[] = [];
  for (let i = 0; i < n && index + i < words.length; i++) ws.push(words[index + i]! >>> 0);
  throw new DecodeError(pc, ws, why);
}

function srcIndex(f: string): number {
  return f === 'src0' ? 0 : f === 'src1' ? 1 : f === 'src2' ? 2 : -1;
}

/**
 * The named fields of one instruction. Written out per encoding (object literals of a fixed shape,
 * named stores) because this runs once per decoded instruction.
 */
function extractFields(L: Layout, info: ValuOpInfo, op: number, words: ArrayLike<number>, index: number, fi8: number): Record<string, number> {
  const w0 = words[index]! >>> 0;
  let f: Record<string, number>;
  switch (L.enc) {
    case 'VOP1': f = { op, src0: w0 & 511, vdst: (w0 >>> 17) & 255 }; break;
    case 'VOP2': f = { op, src0: w0 & 511, vsrc1: (w0 >>> 9) & 255, vdst: (w0 >>> 17) & 255 }; break;
    case 'VOPC': f = { op, src0: w0 & 511, vsrc1: (w0 >>> 9) & 255 }; break;
    default: {
      const w1 = words[index + 1]! >>> 0;
      f = info.sd
        ? { op, vdst: w0 & 255, sdst: (w0 >>> 8) & 127, clamp: (w0 >>> 15) & 1, src0: w1 & 511, src1: (w1 >>> 9) & 511, src2: (w1 >>> 18) & 511, omod: (w1 >>> 27) & 3, neg: w1 >>> 29 }
        : { op, vdst: w0 & 255, abs: (w0 >>> 8) & 7, opsel: (w0 >>> 11) & 15, clamp: (w0 >>> 15) & 1, src0: w1 & 511, src1: (w1 >>> 9) & 511, src2: (w1 >>> 18) & 511, omod: (w1 >>> 27) & 3, neg: w1 >>> 29 };
    }
  }
  if (L.form === null) return f;
  const d = words[index + L.words - 1]! >>> 0;
  // DPP forms: src0 is the DPP dword's VGPR; keep it in the 9-bit source space like the plain forms.
  f.dsrc0 = d & 255;
  f.src0 = SRC.VGPR0 + (d & 255);
  if (L.form === 'dpp8') {
    f.sel = d >>> 8;
    f.fi = fi8;
    return f;
  }
  f.dpp_ctrl = (d >>> 8) & 0x1ff;
  f.fi = L.noFi ? 0 : (d >>> 18) & 1;
  f.bound_ctrl = (d >>> 19) & 1;
  f.dneg0 = (d >>> 20) & 1;
  f.dabs0 = (d >>> 21) & 1;
  f.dneg1 = (d >>> 22) & 1;
  f.dabs1 = (d >>> 23) & 1;
  f.bank_mask = (d >>> 24) & 15;
  f.row_mask = d >>> 28;
  if (L.enc !== 'VOP3') {
    // The 32-bit encodings' input modifiers live in the DPP dword.
    f.abs = f.dabs0 | (f.dabs1 << 1);
    f.neg = f.dneg0 | (f.dneg1 << 1);
  }
  return f;
}

/** Decode a VALU word sequence in layout L (non-DPP, or DPP when src0 says so). */
function decodeValu(P: Layout, words: ArrayLike<number>, index: number, pc: number): Instruction {
  let L = P;
  const op = get(words, index, L.op);
  if (index + P.words > words.length) fail(pc, words, index, P.words, 'truncated instruction');
  const src0 = get(words, index, P.fields.src0!);
  let fi8 = 0;
  // Opcodes without a src0 operand (v_nop, v_pipeflush) ignore the field: no DPP form.
  if (P.noSrc0![op]) { /* plain */ }
  else if (src0 === SRC.DPP16) L = P.dppOf!.dpp16;
  else if (src0 === SRC.DPP8 || src0 === SRC.DPP8FI) {
    L = P.dppOf!.dpp8;
    fi8 = src0 === SRC.DPP8FI ? 1 : 0;
  }
  const info = L.table[op];
  if (!info) fail(pc, words, index, P.words, `${L.enc} opcode ${op} has no ${L.form ?? 'plain'} form`);
  if (index + L.words > words.length) fail(pc, words, index, L.words, 'truncated instruction');
  for (let i = 0; i < L.words; i++) if ((words[index + i]! & info.z[i]!) !== 0) fail(pc, words, index, L.words, `${info.m}: reserved bits set`);
  const fields = extractFields(L, info, op, words, index, fi8);
  let needLit = false;
  for (const o of info.ops) {
    if (o.k === 'k') needLit = true;
    else if (o.k === 'src') {
      const v = fields[o.f]!;
      if ((srcClass(v) & ((o.ok ?? 0) | (o.rk ?? 0))) === 0) fail(pc, words, index, L.words, `${info.m}: source value ${v} not allowed in ${o.f}`);
      if (v === SRC.LITERAL) needLit = true;
      if (o.n > 1 && !rangeOk(P.space, v, o.n)) fail(pc, words, index, L.words, `${info.m}: ${o.f} register range out of bounds`);
    } else if (o.k === 's') {
      const v = fields[o.f]!;
      // A misaligned pair reads as the aligned one (LLVM warns), as operandText prints it.
      if (v >= 128 || sregName(P.space, alignScalar(v, o.n, P.space.sgprs), o.n) === null) fail(pc, words, index, L.words, `${info.m}: ${o.f} ${v} is not a scalar register`);
    } else if (o.k === 'v') {
      const v = fields[o.f]!;
      if (o.lo && v >= 128) fail(pc, words, index, L.words, `${info.m}: ${o.f} must be v0..v127`);
      if (v + o.n > 256) fail(pc, words, index, L.words, `${info.m}: ${o.f} register range out of bounds`);
    }
  }
  let size = L.words;
  let literal: number | undefined;
  if (needLit) {
    if (index + L.words >= words.length) fail(pc, words, index, L.words, 'literal constant missing');
    literal = words[index + L.words]! >>> 0;
    size++;
  }
  const ws: number[] = [];
  for (let i = 0; i < size; i++) ws.push(words[index + i]! >>> 0);
  return {
    encoding: (info.sd ? 'VOP3SD' : L.enc) as EncodingName, opcode: op, mnemonic: info.m, size: size * 4, words: ws,
    fields, literal, variant: L.form ?? (L.enc === 'VOP3' ? 'e64' : 'e32'), info,
  };
}

// ---------------------------------------------------------------------------------------------
// Print

/** Text of one operand (with its abs/neg decoration). */
export function operandText(o: ValuOperand, inst: Instruction, info: ValuOpInfo, space: OperandSpace = GFX11_SPACE): string {
  const f = inst.fields;
  switch (o.k) {
    case 'x': return o.x!;
    case 'v': {
      const r = f[o.f]!;
      let t = o.h ? `v${r & 127}.${r & 128 ? 'h' : 'l'}` : vregName(r, o.n);
      if (o.rc && r >= 128) t += `/*Invalid register, operand has '${o.rc}' register class*/`;
      // DPP src0 (and VOP2's vsrc1) take the DPP dword's abs/neg in the 32-bit DPP forms.
      return o.f === 'dsrc0' ? decorate(t, 0, false, f, info) : o.f === 'vsrc1' ? decorate(t, 1, false, f, info) : t;
    }
    // A misaligned SGPR-pair destination reads as the aligned pair (as LLVM prints it).
    case 's': return sregName(space, alignScalar(f[o.f]!, o.n, space.sgprs), o.n) ?? srcText(space, f[o.f]!, o.n, 'f32', inst.literal, false) ?? `?${f[o.f]}`;
    case 'k': return literalText(o.t ?? 'k32', inst.literal ?? 0);
    default: {
      const v = f[o.f]!;
      let t = srcText(space, v, o.n, o.t ?? 'f32', inst.literal, !!o.h) ?? `?${v}`;
      // LLVM decodes some illegal sources and says so in a remark.
      if (o.rk && srcClass(v) & o.rk && !(srcClass(v) & (o.ok ?? 0))) {
        t += isConst(v) ? '/*Invalid immediate*/' : `/*Invalid register, operand has '${o.rc ?? '?'}' register class*/`;
      }
      const i = srcIndex(o.f);
      return i < 0 ? t : decorate(t, i, isConst(v), f, info);
    }
  }
}

/** Apply source i's abs/neg (or sext) modifiers to its text, the way LLVM prints them. */
function decorate(text: string, i: number, constant: boolean, f: Readonly<Record<string, number>>, info: ValuOpInfo): string {
  const abs = ((f.abs ?? 0) & (info.abs ?? 0) & (1 << i)) !== 0;
  const neg = ((f.neg ?? 0) & (info.neg ?? 0) & (1 << i)) !== 0;
  if (neg && info.sx && info.sx & (1 << i)) return `sext(${text})`;
  let t = text;
  if (abs) t = `|${t}|`;
  if (neg) t = !abs && constant ? `neg(${t})` : `-${t}`;
  return t;
}

/** The VOP3 modifier suffix: op_sel, clamp, omod. */
export function vop3Mods(inst: Instruction, info: ValuOpInfo): string {
  const f = inst.fields;
  let s = '';
  const sel = (f.opsel ?? 0) & (info.sel ?? 0);
  if (sel && info.selb) s += ` op_sel:[${info.selb.map((b) => (b < 0 ? 0 : (sel >> b) & 1)).join(',')}]`;
  if (f.clamp && info.clamp) s += ' clamp';
  if (f.omod && info.omod) s += [' ', ' mul:2', ' mul:4', ' div:2'][f.omod]!;
  return s;
}

function printValu(inst: Instruction, space: OperandSpace): string {
  const info = inst.info as ValuOpInfo;
  const ops = info.ops.map((o) => operandText(o, inst, info, space));
  let s = info.m + (ops.length ? ' ' + ops.join(', ') : '');
  const vop3 = inst.encoding === 'VOP3' || inst.encoding === 'VOP3SD';
  if (vop3) s += vop3Mods(inst, info);
  if (inst.variant === 'dpp16' || inst.variant === 'dpp8') s += dppText(inst.fields, inst.variant, space.gfx === 9);
  return s;
}

// ---------------------------------------------------------------------------------------------
// Assemble

interface Cand {
  readonly L: Layout;
  readonly op: number;
  readonly info: ValuOpInfo;
}

export class OperandError extends Error {}

/** A parsed source operand: its 9-bit value, literal (if any), abs/neg. */
export interface ParsedSrc {
  value: number;
  literal?: number;
  abs: boolean;
  neg: boolean;
}


/** Parse a source operand text for an operand of type t with n dwords. */
export function parseSrc(text: string, o: ValuOperand, space: OperandSpace = GFX11_SPACE): ParsedSrc {
  let t = text.trim();
  let neg = false;
  let abs = false;
  if (t.startsWith('sext(') && t.endsWith(')')) { neg = true; t = t.slice(5, -1).trim(); }
  else if (t.startsWith('neg(') && t.endsWith(')')) { neg = true; t = t.slice(4, -1).trim(); }
  else if (t.startsWith('-') && (t[1] === '|' || /^-[a-z]/i.test(t) || t.startsWith('-abs('))) { neg = true; t = t.slice(1).trim(); }
  if (t.startsWith('|') && t.endsWith('|')) { abs = true; t = t.slice(1, -1).trim(); }
  else if (t.startsWith('abs(') && t.endsWith(')')) { abs = true; t = t.slice(4, -1).trim(); }
  const type = o.t ?? 'f32';
  const tl = t.toLowerCase();
  const mt = /^v(\d+)\.([lh])$/.exec(tl);
  if (mt) return { value: 256 + Number(mt[1]) + (mt[2] === 'h' ? 128 : 0), abs, neg };
  const r = parseReg(space, tl);
  if (r) {
    if (!widthOk(r, o)) throw new OperandError(`register ${t} has the wrong width`);
    // GFX11 dropped POPS's exiting-wave id and the vccz/execz sources: llvm-mc refuses them, but
    // still takes vccz/execz under an abs/neg modifier (it checks the bare register only).
    if (space.gfx === 11 && r.value === 239) throw new OperandError(`register not available on this GPU`);
    if (space.gfx === 11 && (r.value === 251 || r.value === 252) && !abs && !neg) throw new OperandError(`execz and vccz are not supported on this GPU`);
    return { value: r.value, abs, neg };
  }
  // Special sources that name a pair when the operand is 64-bit (vcc, exec) or single (vcc_lo).
  const iv = parseIntText(tl);
  if (iv !== null) {
    const b16 = type === 'i16' || type === 'f16' || type === 'bf16';
    if (b16 ? iv < -0x8000 || iv > 0xffff : iv < -0x80000000 || iv > 0xffffffff) throw new OperandError(`${t} does not fit the operand`);
    // 32-bit (and 16-bit float) operands read a full-width value as signed: 0xffffffff is -1.
    const sv = type === 'f32' ? iv | 0 : type === 'f16' || type === 'bf16' ? ((iv & 0xffff) << 16) >> 16 : iv;
    const inl = inlineInt(sv);
    if (inl !== null) return { value: inl, abs, neg };
    // llvm-mc encodes a literal equal to an inline float constant's bits as that constant.
    const fi = inlineBits(type, b16 ? iv & 0xffff : iv >>> 0);
    if (fi !== null) return { value: fi, abs, neg };
    return { value: SRC.LITERAL, literal: (b16 ? iv & 0xffff : iv) >>> 0, abs, neg };
  }
  const fl = inlineFloatText(tl);
  if (fl !== null) return { value: fl, abs, neg };
  const x = Number(tl);
  if (Number.isFinite(x) && /^-?[0-9.]+(e[-+]?\d+)?$/.test(tl)) {
    if (type === 'f16' || type === 'bf16') return { value: SRC.LITERAL, literal: f16bits(x), abs, neg };
    if (type === 'f64') return { value: SRC.LITERAL, literal: f64hi(x), abs, neg };
    const b = new DataView(new ArrayBuffer(4));
    b.setFloat32(0, x);
    return { value: SRC.LITERAL, literal: b.getUint32(0), abs, neg };
  }
  throw new OperandError(`bad operand ${t}`);
}

/** The inline-constant encoding whose bits equal literal `v` in an operand of type t, or null. */
function inlineBits(t: ValuType, v: number): number | null {
  let k: string | undefined;
  if (t === 'f32') k = F32_CONST[v];
  else if (t === 'f16' || t === 'bf16') k = v <= 0xffff ? F16_CONST[v] : undefined;
  else if (t === 'f64') k = F64_CONST_HI[v];
  if (k === undefined) return null;
  return k === '0.15915494' ? 248 : 240 + FLOATS.indexOf(k);
}

/** Parse the literal K of v_fmaak/v_fmamk: integers as written, floats as `t`'s bits. */
function parseK(text: string, t: 'f16' | 'f32'): number {
  const tl = text.trim().toLowerCase();
  const iv = parseIntText(tl);
  if (iv !== null) {
    if (iv < -0x80000000 || iv > 0xffffffff) throw new OperandError(`${text} does not fit the operand`);
    return iv >>> 0;
  }
  const x = tl === '0.15915494' ? 1 / (2 * Math.PI) : Number(tl);
  if (!Number.isFinite(x) || !/^-?[0-9.]+(e[-+]?\d+)?$/.test(tl)) throw new OperandError(`bad constant ${text}`);
  if (t === 'f16') return f16bits(x);
  const b = new DataView(new ArrayBuffer(4));
  b.setFloat32(0, x);
  return b.getUint32(0);
}

function f64hi(x: number): number {
  const b = new DataView(new ArrayBuffer(8));
  b.setFloat64(0, x);
  return b.getUint32(0);
}
function f16bits(x: number): number {
  const b = new DataView(new ArrayBuffer(4));
  b.setFloat32(0, x);
  const f = b.getUint32(0);
  const sign = (f >>> 16) & 0x8000;
  const e = ((f >>> 23) & 0xff) - 127 + 15;
  const m = f & 0x7fffff;
  if (e <= 0) return sign;
  if (e >= 31) return sign | 0x7c00;
  return sign | (e << 10) | (m >>> 13);
}

function parseVgpr(text: string, o: ValuOperand): number {
  const t = text.trim().toLowerCase();
  if (o.h) {
    const m = /^v(\d+)\.([lh])$/.exec(t);
    if (!m || Number(m[1]) > 127) throw new OperandError(`expected a 16-bit VGPR half, got ${text}`);
    return Number(m[1]) + (m[2] === 'h' ? 128 : 0);
  }
  const r = parseReg(GFX11_SPACE, t);
  if (!r || r.file !== 'v' || r.count !== o.n) throw new OperandError(`expected a ${o.n}-dword VGPR, got ${text}`);
  return r.value - 256;
}

/**
 * Whether a register's width fits an operand. Specials are taken at any width (LLVM reads `exec` in
 * a 32-bit source as its low half), except VCC and EXEC in a lane mask, which is exactly one dword in
 * wave32 and a pair in wave64 (`vcc_lo` vs `vcc`: llvm-mc refuses the other one).
 */
export function widthOk(r: { readonly file: string; readonly value: number; readonly count: number }, o: ValuOperand): boolean {
  if (r.count === o.n) return true;
  if (r.file !== 'special') return false;
  // vcc_lo/vcc_hi (106/107) and exec_lo/exec_hi (126/127) and their pairs.
  return !(o.lm && (r.value === 106 || r.value === 107 || r.value === 126 || r.value === 127));
}

function parseSgprDst(text: string, o: ValuOperand, space: OperandSpace): number {
  const r = parseReg(space, text);
  if (!r || r.file === 'v' || r.value >= 128) throw new OperandError(`expected an SGPR, got ${text}`);
  if (!widthOk(r, o)) throw new OperandError(`wrong SGPR width: ${text}`);
  return r.value;
}

function put(words: number[], f: FieldDef, v: number): void {
  const mask = ((1 << f.n) - 1) << f.lo;
  words[f.w] = ((words[f.w]! & ~mask) | ((v << f.lo) & mask)) >>> 0;
}

/** Split an operand list into operand texts and trailing modifier words. */
export function splitRest(rest: string): { ops: string[]; mods: string[] } {
  const parts = splitOperands(rest);
  if (!parts.length) return { ops: [], mods: [] };
  const last = splitWords(parts[parts.length - 1]!);
  // Modifiers alone (GFX10's `v_nop row_shl:12 ...`): no operand.
  if (parts.length === 1 && last.length && /^[a-z_][a-z_0-9]*:/i.test(last[0]!)) return { ops: [], mods: last };
  parts[parts.length - 1] = last[0] ?? '';
  // A modifier-only rest (e.g. `v_nop`'s) has no operand.
  return { ops: parts.filter((p) => p !== ''), mods: last.slice(1) };
}

/** Encode the operands of candidate c; throws OperandError when they do not fit. */
function encodeCand(c: Cand, ops: string[], mods: string[]): number[] {
  const { L, info } = c;
  if (ops.length !== info.ops.length) throw new OperandError(`expected ${info.ops.length} operands`);
  const words: number[] = new Array(L.words).fill(0);
  words[0] = L.prefix;
  put(words, L.op, c.op);
  let literal: number | undefined;
  let abs = 0;
  let neg = 0;
  const setLit = (v: number) => {
    if (literal !== undefined && literal !== v) throw new OperandError('only one literal constant');
    literal = v >>> 0;
  };
  // Constant bus: the distinct scalar registers read (VCC read implicitly included) plus the literal.
  const bus = new Set<number>();
  if (/^v_div_fmas_/.test(info.m)) bus.add(VCC_LO);
  let sawSrc = false;
  info.ops.forEach((o, i) => {
    const t = ops[i]!;
    switch (o.k) {
      case 'x':
        if (t.toLowerCase() !== o.x) throw new OperandError(`expected ${o.x}`);
        // VOP2's carry-in / select VCC (after the sources) is a scalar read; a VCC destination is not.
        if (sawSrc && (o.x === 'vcc' || o.x === 'vcc_lo')) bus.add(VCC_LO);
        break;
      case 'v': {
        if (o.f === 'dsrc0' || o.f === 'vsrc1') {
          const si = o.f === 'dsrc0' ? 0 : 1;
          const p = parseSrc(t, { f: o.f, k: 'src', n: o.n, t: 'f32' }, L.space);
          if (p.value < 256) throw new OperandError(`expected a VGPR, got ${t}`);
          if ((o.lo || o.rc) && p.value - 256 >= 128) throw new OperandError(`${t}: only v0..v127 here`);
          put(words, L.fields[o.f]!, p.value - 256);
          if (p.abs) { if (!((info.abs ?? 0) & (1 << si))) throw new OperandError('abs not allowed'); abs |= 1 << si; }
          if (p.neg) { if (!((info.neg ?? 0) & (1 << si))) throw new OperandError('neg not allowed'); neg |= 1 << si; }
        } else {
          const r = parseVgpr(t, o);
          if ((o.lo || o.rc) && r >= 128) throw new OperandError(`${t}: only v0..v127 here`);
          put(words, L.fields[o.f]!, r);
        }
        break;
      }
      case 's': put(words, o.f === 'sdst' ? SDST : L.fields[o.f]!, parseSgprDst(t, o, L.space)); break;
      case 'k': {
        // The K constant is always a literal; float text takes the instruction's source type.
        const ft = info.ops.find((x) => x.k === 'src')?.t;
        setLit(parseK(t, ft === 'f16' || ft === 'i16' || o.t === 'k16' ? 'f16' : 'f32'));
        break;
      }
      default: {
        const p = parseSrc(t, o, L.space);
        if ((srcClass(p.value) & (o.ok ?? 0)) === 0) throw new OperandError(`operand ${t} not allowed here`);
        // VOP3 with DPP (GFX11): llvm-mc wants a VGPR in src1 and no literal (the decoder prints what
        // the bits say; the assembler refuses what LLVM refuses).
        if (L.enc === 'VOP3' && L.form !== null && ((o.f === 'src1' && p.value < SRC.VGPR0) || p.value === SRC.LITERAL)) {
          throw new OperandError(`${t}: invalid operand for a VOP3 DPP ${o.f}`);
        }
        if (p.value === SRC.LITERAL) setLit(p.literal!);
        else if (readsConstantBus(L.space, p.value)) bus.add(p.value);
        sawSrc = true;
        put(words, L.fields[o.f]!, p.value);
        const si = srcIndex(o.f);
        if (p.value === SRC_LDS_DIRECT && si > 0) throw new OperandError('lds_direct may be used as src0 only');
        if (p.abs) { if (!((info.abs ?? 0) & (1 << si))) throw new OperandError('abs not allowed'); abs |= 1 << si; }
        if (p.neg) { if (!((info.neg ?? 0) & (1 << si))) throw new OperandError('neg not allowed'); neg |= 1 << si; }
      }
    }
  });
  // GFX9 has one constant-bus read per instruction; GFX10+ two, except the 64-bit shifts (one).
  const busLimit = L.space.gfx === 9 || SHIFT64.test(info.m) ? 1 : 2;
  if (bus.size + (literal !== undefined ? 1 : 0) > busLimit) throw new OperandError('invalid operand (violates constant bus restrictions)');
  let opsel = 0;
  let clamp = 0;
  let omod = 0;
  const dm = newDppMods();
  for (const m of mods) {
    const ml = m.toLowerCase();
    if (L.form && parseDppWord(ml, dm, L.space.gfx)) continue;
    if (ml === 'clamp' && info.clamp) clamp = 1;
    else if (ml === 'mul:2' && info.omod) omod = 1;
    else if (ml === 'mul:4' && info.omod) omod = 2;
    else if (ml === 'div:2' && info.omod) omod = 3;
    else if ((ml === 'mul:1' || ml === 'div:1') && L.enc === 'VOP3') { /* the default; still selects VOP3 */ }
    else if (ml.startsWith('op_sel:[') && info.selb) {
      const bits = ml.slice(8, -1).split(',').map((x) => Number(x.trim()));
      if (bits.length !== info.selb.length || bits.some((b) => b !== 0 && b !== 1)) throw new OperandError(`bad ${m}`);
      bits.forEach((b, i) => {
        if (!b) return;
        if (info.selb![i]! < 0) throw new OperandError(`op_sel entry ${i} not available`);
        opsel |= 1 << info.selb![i]!;
      });
      if (opsel & ~(info.sel ?? 0)) throw new OperandError(`op_sel bit not available: ${m}`);
    } else throw new OperandError(`unexpected modifier ${m}`);
  }
  if (L.enc === 'VOP3') {
    if (!info.sd) { put(words, L.fields.abs!, abs); put(words, L.fields.opsel!, opsel); }
    put(words, L.fields.clamp!, clamp);
    put(words, L.fields.omod!, omod);
    put(words, L.fields.neg!, neg);
  } else if (L.form === 'dpp16') {
    put(words, L.fields.dabs0!, abs & 1); put(words, L.fields.dabs1!, abs >> 1);
    put(words, L.fields.dneg0!, neg & 1); put(words, L.fields.dneg1!, neg >> 1);
  } else if (abs || neg || opsel || clamp || omod) throw new OperandError('modifiers need the VOP3 encoding');
  if (L.form) encodeDpp(L, words, dm);
  if (info.a) info.a.forEach((b, i) => { words[i] = (words[i]! | b) >>> 0; });
  if (literal !== undefined) words.push(literal);
  return words;
}

/** Fill in the DPP selector in src0 and the DPP dword's controls. */
function encodeDpp(L: Layout, words: number[], dm: DppMods): void {
  // src0 sits where it does in every target's plain layout.
  const src0 = LAYOUTS[L.enc].fields.src0!;
  if ((dm.form ?? L.form) !== L.form) throw new OperandError('DPP controls of the other form');
  if (L.form === 'dpp8') {
    put(words, src0, dm.fi ? SRC.DPP8FI : SRC.DPP8);
    put(words, L.fields.sel!, dm.sel);
  } else {
    put(words, src0, SRC.DPP16);
    put(words, L.fields.dpp_ctrl!, dm.ctrl);
    put(words, L.fields.row_mask!, dm.rowMask);
    put(words, L.fields.bank_mask!, dm.bankMask);
    put(words, L.fields.bound_ctrl!, dm.boundCtrl);
    put(words, L.fields.fi!, dm.fi);
  }
}

const VCC_LO = 106;
/** The 64-bit shifts, which GFX10+ still limit to one constant-bus read. */
const SHIFT64 = /^v_(lshlrev_b64|lshrrev_b64|ashrrev_i64)/;
/** Source values that are scalar registers (read over the constant bus): not null, not constants, not VGPRs. */
function readsConstantBus(space: OperandSpace, v: number): boolean {
  return (v < 128 && space.specials[v] !== 'null') || (v >= 235 && v <= 239) || (v >= 251 && v <= 253);
}

/** Source value 254: LDS_DIRECT (GFX9/GFX10 only). */
const SRC_LDS_DIRECT = 254;
/** An lds_direct operand as written (bare or under modifiers). */
/** The reversed-operand opcodes (not v_bfrev_b32, whose name only looks alike). */
const REV_OPCODE = /(sub|subb|lshl|lshr|ashr)rev_/;
export const LDS_DIRECT_TEXT = /(^|[^a-z0-9_])(src_)?lds_direct\b/i;

function assembleValu(S: ValuSet, encs: readonly Enc[], line: AsmLine): number[] | null {
  const form: DppForm | null = /\bdpp8:/.test(line.rest) ? 'dpp8' : /\b(quad_perm|row_[a-z_]+|row_mask|bank_mask|bound_ctrl):?/.test(line.rest) || line.mnemonic.endsWith('_dpp') ? 'dpp16' : null;
  const cands = S.BY_MNEMONIC.get(line.mnemonic)?.filter((c) => encs.includes(c.L.enc) && c.L.form === form);
  if (!cands || cands.length === 0) return null;
  // C-style comments (LLVM's remarks on illegal operands) are not part of the operands.
  const { ops, mods } = splitRest(line.rest.includes('/*') ? line.rest.replace(/\/\*.*?\*\//g, '') : line.rest);
  // LLVM refuses lds_direct in the reversed-operand opcodes (v_subrev_*, v_lshlrev_*, ...).
  if (REV_OPCODE.test(line.mnemonic) && ops.some((t) => LDS_DIRECT_TEXT.test(t.trim()))) {
    throw new AsmError(line.line, 'lds_direct cannot be used with this instruction');
  }
  let err: Error | null = null;
  for (const c of cands) {
    try {
      return encodeCand(c, ops, mods);
    } catch (e) {
      if (!(e instanceof OperandError)) throw e;
      err ??= e;
    }
  }
  throw new AsmError(line.line, `${line.mnemonic}: ${err?.message ?? 'invalid operands'}`);
}

// ---------------------------------------------------------------------------------------------
// Codecs

function makeCodec(S: ValuSet, L: Layout, name: string, matches: (w0: number) => boolean, asmEncs: readonly Enc[]): Codec {
  return {
    name,
    matches,
    decode: (words, index, pc) => decodeValu(L, words, index, pc),
    print: (inst) => printValu(inst, S.space),
    assemble: (line) => (asmEncs.length ? assembleValu(S, asmEncs, line) : null),
  };
}

/** The VALU codecs of a target (VOP1/VOP2/VOPC/VOP3 with their DPP forms), in match order. */
export function makeValuCodecs(S: ValuSet, prefix = ''): Codec[] {
  const L = S.LAYOUTS;
  const vop3 = L.VOP3.prefix >>> 26;
  return [
    // The VALU assembler lives in the first codec (a mnemonic may have `_e32` and `_e64` candidates).
    makeCodec(S, L.VOP2, prefix + 'VOP2', (w0) => (w0 >>> 31) === 0 && ((w0 >>> 25) & 0x3e) !== 0x3e, ['VOP1', 'VOP2', 'VOPC', 'VOP3']),
    makeCodec(S, L.VOP1, prefix + 'VOP1', (w0) => (w0 >>> 25) === 0x3f, []),
    makeCodec(S, L.VOPC, prefix + 'VOPC', (w0) => (w0 >>> 25) === 0x3e, []),
    makeCodec(S, L.VOP3, prefix + 'VOP3', (w0) => (w0 >>> 26) === vop3, []),
  ];
}

export const codecs: Codec[] = makeValuCodecs(GFX11_VALU);
/** The same codecs reading and writing wave64 text (lane masks as SGPR pairs), built on first use. */
export function codecsWave64(): Codec[] {
  return (wave64Codecs ??= makeValuCodecs(makeValuSet({ ...GFX11_VALU_DATA, wave64: true })));
}
let wave64Codecs: Codec[] | undefined;

export { DPP, type Cand, type Layout };
