/**
 * GFX11 VOP3P: packed 16-bit math, dot products, v_fma_mix*, WMMA, and their DPP16/DPP8 forms.
 *
 *   dw0: vdst[7:0] neg_hi[10:8] op_sel[13:11] op_sel_hi2[14] clamp[15] op[22:16] 0x198[31:23]
 *   dw1: src0[8:0] src1[17:9] src2[26:18] op_sel_hi[28:27] neg[31:29]
 *   then a literal dword, or a DPP16 dword (src0 = 250) / DPP8 dword (src0 = 233, 234 with fi).
 *
 * The per-opcode facts (operand widths, which modifier bits are legal, literal printing) are in
 * vop3p.gen.ts, read off LLVM by tools/gen/amd/gen-vop3p.ts.
 */
import { AsmError, DecodeError, type AsmLine, type Codec, type Instruction } from '../types.js';
import {
  GFX11_SPACE, SRC, inlineFloatText, inlineInt, parseIntText, parseReg, splitOperands, splitWords, srcName, vregName, type OperandSpace,
} from '../operands.js';
import { VOP3P_OPS } from './vop3p.gen.js';

/** How LLVM prints a literal in an operand (its operand type as far as printing goes). */
export type LiteralKind = 'b32' | 'f16' | 'v2f16' | 'v2bf16' | 'hex32';
/** Candidates in the order the generator tries them. */
export const LITERAL_KINDS: readonly LiteralKind[] = ['b32', 'f16', 'v2f16', 'v2bf16', 'hex32'];

export interface Vop3pSrc {
  /** Width in dwords. */
  readonly width: number;
  /** SGPRs are legal. */
  readonly sgpr: boolean;
  /** Inline constants and literals are legal. */
  readonly konst: boolean;
  readonly lit: LiteralKind;
  /** LLVM's text for the 1/(2*pi) inline constant (248) in this operand. */
  readonly inv2pi: string;
  /** The non-VGPR source values (0..255) LLVM accepts here, as inclusive ranges. */
  readonly ok: readonly (readonly [number, number])[];
}

export interface Vop3pOp {
  readonly mnemonic: string;
  readonly vdst: number;
  readonly srcs: readonly Vop3pSrc[];
  readonly mix: boolean;
  readonly opselHi: boolean;
  readonly opselHiDefault: number;
  readonly inv0: number;
  readonly inv1: number;
  readonly def0: number;
  readonly def1: number;
  readonly dpp: boolean;
}

const F32_INLINE: Readonly<Record<number, string>> = {
  0x3f000000: '0.5', 0xbf000000: '-0.5', 0x3f800000: '1.0', 0xbf800000: '-1.0', 0x40000000: '2.0', 0xc0000000: '-2.0',
  0x40800000: '4.0', 0xc0800000: '-4.0', 0x3e22f983: '0.15915494',
};
const F16_INLINE: Readonly<Record<number, string>> = {
  0x3800: '0.5', 0xb800: '-0.5', 0x3c00: '1.0', 0xbc00: '-1.0', 0x4000: '2.0', 0xc000: '-2.0', 0x4400: '4.0',
  0xc400: '-4.0', 0x3118: '0.15915494',
};

const BF16_INLINE: Readonly<Record<number, string>> = {
  0x3f00: '0.5', 0xbf00: '-0.5', 0x3f80: '1.0', 0xbf80: '-1.0', 0x4000: '2.0', 0xc000: '-2.0', 0x4080: '4.0',
  0xc080: '-4.0', 0x3e22: '0.15915494',
};

const hex = (v: number): string => '0x' + (v >>> 0).toString(16);

/** LLVM's text for a literal dword in an operand of the given kind. */
export function printLiteral(kind: LiteralKind, value: number): string {
  const v = value >>> 0;
  const s = v | 0;
  switch (kind) {
    case 'b32':
      if (s >= -16 && s <= 64) return String(s);
      return F32_INLINE[v] ?? hex(v);
    case 'hex32':
      return hex(v);
    case 'f16': {
      const lo = v & 0xffff;
      const s16 = (lo << 16) >> 16;
      if (s16 >= -16 && s16 <= 64) return String(s16);
      return F16_INLINE[lo] ?? hex(lo);
    }
    case 'v2f16':
      if (s >= -16 && s <= 64) return String(s);
      return (v <= 0xffff ? F16_INLINE[v] : undefined) ?? hex(v);
    case 'v2bf16':
      if (s >= -16 && s <= 64) return String(s);
      return (v <= 0xffff ? BF16_INLINE[v] : undefined) ?? hex(v);
  }
}

// ---------------------------------------------------------------------------------------------
// DPP controls (VOP3 DPP16/DPP8 dwords), as LLVM prints them on GFX11.

/** Text of a DPP16 dpp_ctrl value, or null when reserved. */
export function dppCtrlText(ctrl: number): string | null {
  if (ctrl <= 0xff) return `quad_perm:[${ctrl & 3},${(ctrl >> 2) & 3},${(ctrl >> 4) & 3},${(ctrl >> 6) & 3}]`;
  const n = ctrl & 0xf;
  switch (ctrl & 0x1f0) {
    case 0x100: return n ? `row_shl:${n}` : null;
    case 0x110: return n ? `row_shr:${n}` : null;
    case 0x120: return n ? `row_ror:${n}` : null;
    case 0x150: return `row_share:${n}`;
    case 0x160: return `row_xmask:${n}`;
  }
  if (ctrl === 0x140) return 'row_mirror';
  if (ctrl === 0x141) return 'row_half_mirror';
  return null;
}

/** Parse one DPP16 control word (`quad_perm:[..]`, `row_shl:n`...) to dpp_ctrl, or null. */
export function parseDppCtrl(word: string): number | null {
  const m = /^quad_perm:\[(\d),(\d),(\d),(\d)\]$/.exec(word);
  if (m) return Number(m[1]) | (Number(m[2]) << 2) | (Number(m[3]) << 4) | (Number(m[4]) << 6);
  if (word === 'row_mirror') return 0x140;
  if (word === 'row_half_mirror') return 0x141;
  const k = /^(row_shl|row_shr|row_ror|row_share|row_xmask):(\w+)$/.exec(word);
  if (!k) return null;
  const n = parseIntText(k[2]!);
  if (n === null || n < 0 || n > 15) return null;
  const b = { row_shl: 0x100, row_shr: 0x110, row_ror: 0x120, row_share: 0x150, row_xmask: 0x160 }[k[1]!]!;
  if (b < 0x150 && n === 0) return null;
  return b | n;
}

// ---------------------------------------------------------------------------------------------

const PREFIX9 = 0x198; // dw0[31:23]
/** VALU sources on GFX11 may still name src_lds_direct (254); GFX11_SPACE leaves it out because SALU may not. */
export const LDS_DIRECT = 254;

/** 1 for each 9-bit VALU source value that names something on GFX11 (one dword wide): decode-time lookup. */
export const VALU_SRC_OK: Uint8Array = (() => {
  const t = new Uint8Array(512);
  for (let v = 0; v < 512; v++) t[v] = v === LDS_DIRECT || srcName(GFX11_SPACE, v, 1, 'i32', 0) !== null ? 1 : 0;
  return t;
})();

function bitList(bits: readonly number[], n: number): string {
  return '[' + bits.slice(0, n).join(',') + ']';
}

// ---------------------------------------------------------------------------------------------
// Assembler


/** Parse a source value (no modifiers) to its 9-bit encoding and maybe a literal. */
export function parseSrcValue(text: string, kind: LiteralKind, space: OperandSpace = GFX11_SPACE): { value: number; literal?: number } | null {
  if (text === 'src_lds_direct' || text === 'lds_direct') return { value: LDS_DIRECT };
  const r = parseReg(space, text);
  if (r) return { value: r.value };
  const f = inlineFloatText(text);
  if (f !== null) return { value: f };
  const n = parseIntText(text);
  if (n === null) return null;
  const inl = inlineInt(n);
  if (inl !== null) return { value: inl };
  if (n < -0x80000000 || n > 0xffffffff) return null;
  const lit = n >>> 0;
  // llvm-mc turns a 16-bit literal equal to an f16 inline constant into that inline constant.
  if ((kind === 'f16' || kind === 'v2f16') && lit <= 0xffff && F16_INLINE[lit] !== undefined) return { value: inlineFloatText(F16_INLINE[lit]!)! };
  return { value: SRC.LITERAL, literal: lit };
}

function parseBits(text: string, line: number, n: number): number {
  const m = /^\[([01](?:,[01])*)\]$/.exec(text);
  if (!m) throw new AsmError(line, `bad modifier list '${text}'`);
  const bits = m[1]!.split(',').map(Number);
  if (bits.length !== n) throw new AsmError(line, `expected ${n} values in '${text}'`);
  return bits.reduce((a, b, i) => a | (b << i), 0);
}

/** Inline constants and literals (LLVM prints a negated immediate as `neg(x)`). */
export function isImmediate(v: number): boolean {
  return (v >= 128 && v <= 208) || (v >= 240 && v <= 248) || v === 255;
}

/** One target's VOP3P: dw0[31:23] prefix, operand space and generated opcode table. */
export interface Vop3pTarget {
  readonly name: string;
  readonly prefix9: number;
  readonly space: OperandSpace;
  readonly ops: Readonly<Record<number, Vop3pOp>>;
}

/** The VOP3P codec for one target (GFX9, GFX10.3 and GFX11 share it; GFX9/GFX10 have no DPP forms). */
export function makeVop3pCodec(T: Vop3pTarget): Codec {
  /** Per opcode, per source: 1 for each accepted 9-bit value (VGPRs in range, plus `ok`). Built once. */
  const SRC_OK: Uint8Array[][] = [];
  for (const [k, op] of Object.entries(T.ops)) {
    SRC_OK[Number(k)] = op.srcs.map((s) => {
      const t = new Uint8Array(512);
      for (const [a, b] of s.ok ?? []) t.fill(1, a, b + 1); // ?? []: a stale table must not stop its generator
      t.fill(1, 256, 512 - s.width + 1);
      return t;
    });
  }

  function decode(words: ArrayLike<number>, index: number, pc: number): Instruction {
    const w0 = words[index]! >>> 0;
    if (index + 1 >= words.length) throw new DecodeError(pc, [w0], 'VOP3P needs two dwords');
    const w1 = words[index + 1]! >>> 0;
    const opcode = (w0 >>> 16) & 0x7f;
    const op = T.ops[opcode];
    if (!op) throw new DecodeError(pc, [w0, w1], `no VOP3P opcode ${opcode}`);
    if ((w0 & op.inv0) !== 0 || (w1 & op.inv1) !== 0) throw new DecodeError(pc, [w0, w1], `reserved modifier bits for ${op.mnemonic}`);
    const src = [w1 & 0x1ff, (w1 >>> 9) & 0x1ff, (w1 >>> 18) & 0x1ff];
    const fields: Record<string, number> = {
      vdst: w0 & 0xff, neg_hi: (w0 >>> 8) & 7, op_sel: (w0 >>> 11) & 7, op_sel_hi2: (w0 >>> 14) & 1, clamp: (w0 >>> 15) & 1,
      src0: src[0]!, src1: src[1]!, src2: src[2]!, op_sel_hi: (w1 >>> 27) & 3, neg: (w1 >>> 29) & 7,
    };
    let size = 8;
    let variant = 'e64';
    let literal: number | undefined;
    const s0 = src[0]!;
    if (s0 === SRC.DPP16 || s0 === SRC.DPP8 || s0 === SRC.DPP8FI) {
      if (!op.dpp) throw new DecodeError(pc, [w0, w1], `${op.mnemonic} has no DPP form`);
      if (index + 2 >= words.length) throw new DecodeError(pc, [w0, w1], 'DPP dword missing');
      const x = words[index + 2]! >>> 0;
      fields.vsrc0 = x & 0xff;
      if (s0 === SRC.DPP16) {
        variant = 'dpp16';
        fields.dpp_ctrl = (x >>> 8) & 0x1ff;
        fields.fi = (x >>> 18) & 1;
        fields.bound_ctrl = (x >>> 19) & 1;
        fields.bank_mask = (x >>> 24) & 0xf;
        fields.row_mask = (x >>> 28) & 0xf;
        if (dppCtrlText(fields.dpp_ctrl) === null) throw new DecodeError(pc, [w0, w1, x], `reserved dpp_ctrl 0x${fields.dpp_ctrl.toString(16)}`);
      } else {
        variant = 'dpp8';
        fields.dpp8 = x >>> 8;
        fields.fi = s0 === SRC.DPP8FI ? 1 : 0;
      }
      size = 12;
    }
    for (let i = 0; i < op.srcs.length; i++) {
      if (variant !== 'e64' && i === 0) continue;
      const v = src[i]!;
      if (v === SRC.LITERAL) {
        if (variant !== 'e64') throw new DecodeError(pc, [w0, w1], 'literal with DPP');
        if (literal === undefined) {
          if (index + 2 >= words.length) throw new DecodeError(pc, [w0, w1], 'literal dword missing');
          literal = words[index + 2]! >>> 0;
          size = 12;
        }
      }
      if (!SRC_OK[opcode]![i]![v]) throw new DecodeError(pc, [w0, w1], `${op.mnemonic}: illegal src${i} ${v}`);
    }
    if ((w0 & 0xff) + op.vdst > 256) throw new DecodeError(pc, [w0, w1], `${op.mnemonic}: vdst out of range`);
    const ws: number[] = [];
    for (let i = 0; i < size / 4; i++) ws.push(words[index + i]! >>> 0);
    const mnemonic = variant === 'e64' ? op.mnemonic : op.mnemonic + '_e64_dpp';
    return { encoding: 'VOP3P', opcode, mnemonic, size, words: ws, fields, literal, variant, info: op };
  }

  function srcText(op: Vop3pOp, i: number, v: number, literal: number | undefined): string {
    const s = op.srcs[i]!;
    if (v === SRC.LITERAL) return printLiteral(s.lit, literal ?? 0);
    if (v === SRC.INV_2PI) return s.inv2pi;
    if (v === LDS_DIRECT) return 'src_lds_direct';
    // Wide operands may still name a one-dword special (null, src_scc): LLVM prints its plain name.
    return srcName(T.space, v, s.width, 'i32', literal) ?? srcName(T.space, v, 1, 'i32', literal) ?? `<bad ${v}>`;
  }


  function print(inst: Instruction): string {
    const op = inst.info as Vop3pOp;
    const f = inst.fields;
    const n = op.srcs.length;
    const ops: string[] = [vregName(f.vdst!, op.vdst)];
    const src = [f.src0!, f.src1!, f.src2!];
    for (let i = 0; i < n; i++) {
      let t = i === 0 && inst.variant !== 'e64' ? vregName(f.vsrc0!, 1) : srcText(op, i, src[i]!, inst.literal);
      if (op.mix) {
        const abs = (f.neg_hi! >> i) & 1;
        if (abs) t = `|${t}|`;
        if ((f.neg! >> i) & 1) t = !abs && isImmediate(i === 0 && inst.variant !== 'e64' ? 256 : src[i]!) ? `neg(${t})` : `-${t}`;
      }
      ops.push(t);
    }
    let s = `${inst.mnemonic} ${ops.join(', ')}`;
    const bits = (v: number): number[] => [v & 1, (v >> 1) & 1, (v >> 2) & 1];
    if (f.op_sel) s += ' op_sel:' + bitList(bits(f.op_sel), n);
    if (op.opselHi) {
      const hi = [f.op_sel_hi! & 1, (f.op_sel_hi! >> 1) & 1, f.op_sel_hi2!].slice(0, n);
      if (hi.some((b) => b !== op.opselHiDefault)) s += ' op_sel_hi:' + bitList(hi, n);
    }
    if (!op.mix) {
      if (f.neg) s += ' neg_lo:' + bitList(bits(f.neg), n);
      if (f.neg_hi) s += ' neg_hi:' + bitList(bits(f.neg_hi), n);
    }
    if (f.clamp) s += ' clamp';
    if (inst.variant === 'dpp16') {
      s += ` ${dppCtrlText(f.dpp_ctrl!)} row_mask:${hex(f.row_mask!)} bank_mask:${hex(f.bank_mask!)}`;
      if (f.bound_ctrl) s += ' bound_ctrl:1';
      if (f.fi) s += ' fi:1';
    } else if (inst.variant === 'dpp8') {
      const sel: number[] = [];
      for (let i = 0; i < 8; i++) sel.push((f.dpp8! >>> (3 * i)) & 7);
      s += ` dpp8:[${sel.join(',')}]`;
      if (f.fi) s += ' fi:1';
    }
    return s;
  }

  const BY_NAME = new Map<string, number>();
  for (const [k, v] of Object.entries(T.ops)) BY_NAME.set(v.mnemonic, Number(k));

  function assemble(line: AsmLine): number[] | null {
    let name = line.mnemonic;
    let dppSuffix = false;
    if (name.endsWith('_e64_dpp')) { name = name.slice(0, -8); dppSuffix = true; }
    const opcode = BY_NAME.get(name);
    if (opcode === undefined) return null;
    const op = T.ops[opcode]!;
    const n = op.srcs.length;
    const wmma = name.startsWith('v_wmma_');
    const parts = splitOperands(line.rest);
    if (parts.length !== n + 1) throw new AsmError(line.line, `${name} takes ${n + 1} operands`);
    const tail = splitWords(parts[n]!);
    parts[n] = tail[0]!;
    const mods = tail.slice(1);
    let w0 = ((T.prefix9 << 23) | (opcode << 16) | op.def0) >>> 0;
    let w1 = op.def1 >>> 0;
    const vd = parseReg(T.space, parts[0]!);
    if (!vd || vd.file !== 'v' || vd.count !== op.vdst) throw new AsmError(line.line, `bad vdst '${parts[0]}'`);
    w0 |= vd.value - SRC.VGPR0;
    let literal: number | undefined;
    let dpp: 'dpp16' | 'dpp8' | null = null;
    let ctrl = -1, rowMask = 0xf, bankMask = 0xf, bound = 0, fi = 0, sel = 0;
    for (const m of mods) {
      const k = m.indexOf(':');
      const key = k < 0 ? m : m.slice(0, k);
      const val = k < 0 ? '' : m.slice(k + 1);
      switch (key) {
        case 'op_sel': {
          // WMMA: only a 16-bit result takes op_sel (which half of D it writes); llvm-mc refuses it elsewhere.
          if (wmma && !op.opselHi) throw new AsmError(line.line, `${name}: op_sel is not valid here`);
          const b = parseBits(val, line.line, n); w0 = (w0 & ~(7 << 11)) | (b << 11); break; }
        case 'op_sel_hi': {
          const b = parseBits(val, line.line, n);
          w1 = (w1 & ~(3 << 27)) | ((b & 3) << 27);
          if (n > 2) w0 = (w0 & ~(1 << 14)) | (((b >> 2) & 1) << 14);
          break;
        }
        case 'neg_lo': if (op.mix) throw new AsmError(line.line, 'neg_lo not valid'); w1 = (w1 & ~(7 << 29)) | (parseBits(val, line.line, n) << 29); break;
        case 'neg_hi': if (op.mix) throw new AsmError(line.line, 'neg_hi not valid'); w0 = (w0 & ~(7 << 8)) | (parseBits(val, line.line, n) << 8); break;
        case 'clamp':
          // WMMA: clamp saturates the integer forms only (llvm-mc refuses it on the float ones).
          if (wmma && !name.startsWith('v_wmma_i32_')) throw new AsmError(line.line, `${name}: clamp is not valid here`);
          w0 |= 1 << 15;
          break;
        case 'row_mask': rowMask = parseIntText(val) ?? -1; break;
        case 'bank_mask': bankMask = parseIntText(val) ?? -1; break;
        case 'bound_ctrl': bound = parseIntText(val) ? 1 : 0; break; // GFX11: bound_ctrl:0 leaves the bit clear
        case 'fi': fi = parseIntText(val) ? 1 : 0; break;
        case 'dpp8': {
          const mm = /^\[([0-7](?:,[0-7]){7})\]$/.exec(val);
          if (!mm) throw new AsmError(line.line, `bad dpp8 '${val}'`);
          mm[1]!.split(',').forEach((x, i) => { sel |= Number(x) << (3 * i); });
          dpp = 'dpp8';
          break;
        }
        default: {
          const c = parseDppCtrl(m);
          if (c === null) throw new AsmError(line.line, `unknown modifier '${m}'`);
          ctrl = c;
          dpp = 'dpp16';
        }
      }
    }
    if (rowMask < 0 || rowMask > 15 || bankMask < 0 || bankMask > 15) throw new AsmError(line.line, 'bad row_mask/bank_mask');
    if (dppSuffix && !dpp) throw new AsmError(line.line, 'DPP controls missing');
    if (dpp && !op.dpp) throw new AsmError(line.line, `${name} has no DPP form`);
    let dppVgpr = 0;
    for (let i = 0; i < n; i++) {
      let t = parts[i + 1]!;
      let neg = 0, abs = 0;
      const s = op.srcs[i]!;
      let val = parseSrcValue(t, s.lit, T.space);
      if (!val && op.mix) {
        if (t.startsWith('neg(') && t.endsWith(')')) { neg = 1; t = t.slice(4, -1); }
        else if (t.startsWith('-')) { neg = 1; t = t.slice(1); }
        if (t.startsWith('|') && t.endsWith('|') && t.length > 2) { abs = 1; t = t.slice(1, -1); }
        val = parseSrcValue(t, s.lit, T.space);
      }
      if (!val) throw new AsmError(line.line, `bad operand '${parts[i + 1]}'`);
      if (val.value === SRC.LITERAL) {
        if (literal !== undefined && literal !== val.literal) throw new AsmError(line.line, 'only one literal allowed');
        literal = val.literal;
      }
      if (val.value === 254 && /(lshl|lshr|ashr)rev_/.test(name)) throw new AsmError(line.line, 'lds_direct cannot be used with this instruction');
      if (val.value < SRC.VGPR0 && !SRC_OK[opcode]![i]![val.value]) {
        throw new AsmError(line.line, `operand '${parts[i + 1]}' not allowed here`);
      }
      let v = val.value;
      if (i === 0 && dpp) {
        if (v < SRC.VGPR0) throw new AsmError(line.line, 'DPP src0 must be a VGPR');
        v = dpp === 'dpp16' ? SRC.DPP16 : fi ? SRC.DPP8FI : SRC.DPP8;
        dppVgpr = val.value - SRC.VGPR0;
      }
      w1 |= v << (9 * i);
      if (op.mix) { w0 |= abs << (8 + i); w1 |= neg << (29 + i); }
    }
    const out = [w0 >>> 0, w1 >>> 0];
    if (dpp === 'dpp16') out.push((dppVgpr | (ctrl << 8) | (fi << 18) | (bound << 19) | (bankMask << 24) | (rowMask << 28)) >>> 0);
    else if (dpp === 'dpp8') out.push((dppVgpr | (sel << 8)) >>> 0);
    else if (literal !== undefined) out.push(literal >>> 0);
    return out;
  }


  return { name: `${T.name}VOP3P`, matches: (w0) => w0 >>> 23 === T.prefix9, decode, print, assemble };
}

export const vop3pCodec: Codec = makeVop3pCodec({ name: '', prefix9: PREFIX9, space: GFX11_SPACE, ops: VOP3P_OPS });

export const codecs: Codec[] = [vop3pCodec];

/**
 * The table as LLVM reads it in wave64: a WMMA's C and D matrices are spread over 64 lanes, so
 * vdst and src2 take half the VGPRs of wave32 (v_wmma_f32_16x16x16_f16 v[16:19], v[0:7], v[8:15],
 * v[16:19]); A and B do not change.
 */
export function wave64Vop3pOps(ops: Readonly<Record<number, Vop3pOp>>): Record<number, Vop3pOp> {
  const out: Record<number, Vop3pOp> = {};
  for (const [k, op] of Object.entries(ops)) {
    out[Number(k)] = !op.mnemonic.startsWith('v_wmma_') ? op : {
      ...op,
      vdst: op.vdst / 2,
      srcs: op.srcs.map((x, i) => (i === 2 ? { ...x, width: x.width / 2 } : x)),
    };
  }
  return out;
}

/** The VOP3P codec reading and writing wave64 text, built on first use. */
export function codecsWave64(): Codec[] {
  return (wave64Codecs ??= [makeVop3pCodec({ name: '', prefix9: PREFIX9, space: GFX11_SPACE, ops: wave64Vop3pOps(VOP3P_OPS) })]);
}
let wave64Codecs: Codec[] | undefined;
