/**
 * SDWA (sub-dword addressing) forms of VOP1/VOP2/VOPC on GFX9 and GFX10.3: the 32-bit VALU word
 * with src0 = 249, followed by an SDWA dword. GFX11 has none.
 *
 * SDWA dword (GFX9 / GFX10 ISA guides, "SDWA" microcode format):
 *   [7:0] SRC0 (a VGPR, or with S0 a scalar source), [10:8] DST_SEL, [12:11] DST_UNUSED, [13] CLAMP,
 *   [15:14] OMOD (GFX9 only), [18:16] SRC0_SEL, [19] SRC0_SEXT, [20] SRC0_NEG, [21] SRC0_ABS,
 *   [23] S0, [26:24] SRC1_SEL, [27] SRC1_SEXT, [28] SRC1_NEG, [29] SRC1_ABS, [31] S1.
 *   VOPC: [14:8] SDST, [15] SD (SD = 0: the result goes to VCC and SDST is ignored).
 * Selects: 0..3 BYTE_0..3, 4/5 WORD_0/1, 6 DWORD (7 is reserved: LLVM 19 crashes on it; we refuse it).
 *
 * Which fields each opcode has, what prints, which bits must be zero and which source classes
 * decode are facts read off LLVM by tools/gen/amd/gen-sdwa.ts into <target>/sdwa.gen.ts.
 */
import { AsmError, DecodeError, type AsmLine, type Codec, type Instruction } from './types.js';
import { SRC, parseReg, sregName, splitOperands, splitWords, vregName, type OperandSpace } from './operands.js';
import { srcClass, type ValuOperand } from './gfx11/valu-types.js';
import { parseSrc, srcText, widthOk, OperandError } from './gfx11/vector.js';

/** One opcode's SDWA form. Operands use the fields `vdst`, `sdst`, `src0`, `src1` (9-bit source space) or fixed text. */
export interface SdwaOpInfo {
  /** Mnemonic as LLVM prints it (`v_add_f32_sdwa`). */
  readonly m: string;
  readonly ops: readonly ValuOperand[];
  /** Must-be-zero bits of [VALU word, SDWA dword] (LLVM says `<unknown>` when one is set). */
  readonly z: readonly number[];
  /** SDWA-dword modifier bits that print when set (clamp 13, omod 14/15, sext 19/27, neg 20/28, abs 21/29). */
  readonly mods: number;
  /** Of those, the bits llvm-mc refuses to assemble (GFX10 omod: decoded, not accepted). */
  readonly na?: number;
  /** Selectors LLVM prints: 1 dst_sel, 2 dst_unused, 4 src0_sel, 8 src1_sel. */
  readonly sel: number;
}

export type SdwaEnc = 'VOP1' | 'VOP2' | 'VOPC';

export interface SdwaTables {
  readonly VOP1: Readonly<Record<number, SdwaOpInfo>>;
  readonly VOP2: Readonly<Record<number, SdwaOpInfo>>;
  readonly VOPC: Readonly<Record<number, SdwaOpInfo>>;
}

/** The SDWA selector of src0 in the VALU word. */
export const SDWA_SRC = 249;

/** Bit positions of the SDWA dword. */
export const SDWA_BIT = {
  clamp: 13, omod: 14, src0_sext: 19, src0_neg: 20, src0_abs: 21, s0: 23, src1_sext: 27, src1_neg: 28, src1_abs: 29, s1: 31, sd: 15,
} as const;

export const SEL_NAMES = ['BYTE_0', 'BYTE_1', 'BYTE_2', 'BYTE_3', 'WORD_0', 'WORD_1', 'DWORD'] as const;
/** dst_unused 3 has no name; LLVM 19 prints it as UNUSED_PAD. */
export const UNUSED_NAMES = ['UNUSED_PAD', 'UNUSED_SEXT', 'UNUSED_PRESERVE', 'UNUSED_PAD'] as const;

function opOf(enc: SdwaEnc, w0: number): number {
  return enc === 'VOP2' ? (w0 >>> 25) & 63 : enc === 'VOP1' ? (w0 >>> 9) & 255 : (w0 >>> 17) & 255;
}

function encOf(w0: number): SdwaEnc | null {
  if ((w0 & 511) !== SDWA_SRC) return null;
  if (w0 >>> 25 === 0x3f) return 'VOP1';
  if (w0 >>> 25 === 0x3e) return 'VOPC';
  if (w0 >>> 31 === 0) return 'VOP2';
  return null;
}

/** Decoded fields: op, vdst/sdst, src0/src1 in the 9-bit source space, the selects and modifiers. */
function decodeSdwa(space: OperandSpace, enc: SdwaEnc, info: SdwaOpInfo, words: ArrayLike<number>, index: number, pc: number): Instruction {
  const w0 = words[index]! >>> 0;
  const fail = (why: string): never => {
    const ws: number[] = [];
    for (let i = 0; i < 2 && index + i < words.length; i++) ws.push(words[index + i]! >>> 0);
    throw new DecodeError(pc, ws, why);
  };
  if (index + 2 > words.length) fail('truncated instruction');
  const d = words[index + 1]! >>> 0;
  if ((w0 & info.z[0]!) !== 0 || (d & info.z[1]!) !== 0) fail(`${info.m}: reserved bits set`);
  const op = opOf(enc, w0);
  const s0 = (d >>> SDWA_BIT.s0) & 1;
  const s1 = d >>> SDWA_BIT.s1;
  const f: Record<string, number> = {
    op,
    src0: s0 ? d & 255 : SRC.VGPR0 + (d & 255),
    src0_sel: (d >>> 16) & 7,
    src0_sext: (d >>> 19) & 1,
    src1_sel: (d >>> 24) & 7,
    src1_sext: (d >>> 27) & 1,
    abs: ((d >>> 21) & 1) | (((d >>> 29) & 1) << 1),
    neg: ((d >>> 20) & 1) | (((d >>> 28) & 1) << 1),
    clamp: (d >>> 13) & 1,
    omod: (d >>> 14) & 3,
  };
  if (enc !== 'VOP1') f.src1 = s1 ? (w0 >>> 9) & 255 : SRC.VGPR0 + ((w0 >>> 9) & 255);
  if (enc === 'VOPC') {
    f.sd = (d >>> 15) & 1;
    f.sdst = f.sd ? (d >>> 8) & 127 : 106;
    f.clamp = 0;
    f.omod = 0;
  } else {
    f.vdst = (w0 >>> 17) & 255;
    f.dst_sel = (d >>> 8) & 7;
    f.dst_unused = (d >>> 11) & 3;
  }
  // Only the selectors and modifiers this opcode has count.
  if (!(info.sel & 1)) f.dst_sel = 6;
  if (!(info.sel & 2)) f.dst_unused = 0;
  if (!(info.sel & 4)) f.src0_sel = 6;
  if (!(info.sel & 8)) f.src1_sel = 6;
  for (const k of ['dst_sel', 'src0_sel', 'src1_sel'] as const) if (f[k] === 7) fail(`${info.m}: reserved ${k} 7`);
  for (const o of info.ops) {
    if (o.k === 'src' && (srcClass(f[o.f]!) & (o.ok ?? 0)) === 0) fail(`${info.m}: source value ${f[o.f]} not allowed in ${o.f}`);
    if (o.k === 's' && f.sd && sregName(space, f.sdst!, o.n) === null) fail(`${info.m}: sdst ${f.sdst} is not a scalar register`);
  }
  return { encoding: enc, opcode: op, mnemonic: info.m, size: 8, words: [w0, d], fields: f, literal: undefined, variant: 'sdwa', info };
}

const isConst = (v: number): boolean => (v >= 128 && v <= 208) || (v >= 240 && v <= 248);

function operandText(space: OperandSpace, o: ValuOperand, inst: Instruction, info: SdwaOpInfo): string {
  const f = inst.fields;
  switch (o.k) {
    case 'x': return o.x!;
    case 'v': return vregName(f[o.f]!, o.n);
    case 's': return sregName(space, f[o.f]!, o.n) ?? `?${f[o.f]}`;
    default: {
      const v = f[o.f]!;
      let t = srcText(space, v, o.n, o.t ?? 'f32', undefined, false) ?? `?${v}`;
      const i = o.f === 'src0' ? 0 : 1;
      const abs = (f.abs! >> i) & 1 && (info.mods >>> (i ? SDWA_BIT.src1_abs : SDWA_BIT.src0_abs)) & 1;
      const neg = (f.neg! >> i) & 1 && (info.mods >>> (i ? SDWA_BIT.src1_neg : SDWA_BIT.src0_neg)) & 1;
      const sext = f[i ? 'src1_sext' : 'src0_sext'] && (info.mods >>> (i ? SDWA_BIT.src1_sext : SDWA_BIT.src0_sext)) & 1;
      if (sext) t = `sext(${t})`;
      if (abs) t = `|${t}|`;
      if (neg) t = !abs && isConst(v) ? `neg(${t})` : `-${t}`;
      return t;
    }
  }
}

function printSdwa(space: OperandSpace, inst: Instruction): string {
  const info = inst.info as SdwaOpInfo;
  const f = inst.fields;
  let s = info.m + (info.ops.length ? ' ' + info.ops.map((o) => operandText(space, o, inst, info)).join(', ') : '');
  if (f.clamp && (info.mods >>> SDWA_BIT.clamp) & 1) s += ' clamp';
  if (f.omod && (info.mods >>> SDWA_BIT.omod) & 3) s += ['', ' mul:2', ' mul:4', ' div:2'][f.omod]!;
  if (info.sel & 1) s += ` dst_sel:${SEL_NAMES[f.dst_sel!]}`;
  if (info.sel & 2) s += ` dst_unused:${UNUSED_NAMES[f.dst_unused!]}`;
  if (info.sel & 4) s += ` src0_sel:${SEL_NAMES[f.src0_sel!]}`;
  if (info.sel & 8) s += ` src1_sel:${SEL_NAMES[f.src1_sel!]}`;
  return s;
}

// ---------------------------------------------------------------------------------------------
// Assemble

interface Cand { readonly enc: SdwaEnc; readonly op: number; readonly info: SdwaOpInfo }

function selValue(text: string, names: readonly string[]): number {
  const k = names.indexOf(text.toUpperCase());
  if (k < 0) throw new OperandError(`bad selector ${text}`);
  return k;
}

function encodeCand(space: OperandSpace, c: Cand, ops: string[], mods: string[]): number[] {
  const { enc, op, info } = c;
  if (ops.length !== info.ops.length) throw new OperandError(`expected ${info.ops.length} operands`);
  let w0 = enc === 'VOP1' ? 0x7e000000 | (op << 9) : enc === 'VOPC' ? 0x7c000000 | (op << 17) : op << 25;
  w0 |= SDWA_SRC;
  // llvm-mc's defaults for an omitted selector: DWORD, and UNUSED_PRESERVE; selectors the opcode lacks stay 0.
  let d = (info.sel & 1 ? 6 << 8 : 0) | (info.sel & 2 ? 2 << 11 : 0) | (info.sel & 4 ? 6 << 16 : 0) | (info.sel & 8 ? 6 << 24 : 0);
  const srcMod = (i: number, abs: boolean, neg: boolean, sext: boolean): void => {
    const b = i ? [SDWA_BIT.src1_abs, SDWA_BIT.src1_neg, SDWA_BIT.src1_sext] : [SDWA_BIT.src0_abs, SDWA_BIT.src0_neg, SDWA_BIT.src0_sext];
    for (const [on, bit] of [[abs, b[0]!], [neg, b[1]!], [sext, b[2]!]] as const) {
      if (!on) continue;
      if (!((info.mods >>> bit) & 1) || ((info.na ?? 0) >>> bit) & 1) throw new OperandError('source modifier not allowed');
      d |= 1 << bit;
    }
  };
  info.ops.forEach((o, i) => {
    const t = ops[i]!.trim();
    switch (o.k) {
      case 'x': if (t.toLowerCase() !== o.x) throw new OperandError(`expected ${o.x}`); break;
      case 'v': {
        const r = parseReg(space, t.toLowerCase());
        if (!r || r.file !== 'v' || r.count !== o.n) throw new OperandError(`expected a VGPR, got ${t}`);
        w0 |= (r.value - 256) << 17;
        break;
      }
      case 's': {
        const r = parseReg(space, t.toLowerCase());
        if (!r || r.value >= 128 || !widthOk(r, o)) throw new OperandError(`expected an SGPR, got ${t}`);
        // VCC is the SD = 0 form.
        if (r.value !== 106) d |= (1 << SDWA_BIT.sd) | (r.value << 8);
        break;
      }
      default: {
        let txt = t;
        let sext = false;
        let negOuter = false;
        if (txt.startsWith('-') && txt.slice(1).trim().startsWith('sext(')) { negOuter = true; txt = txt.slice(1).trim(); }
        if (txt.startsWith('|') && txt.endsWith('|') && txt.slice(1).trim().startsWith('sext(')) {
          throw new OperandError('abs of sext');
        }
        if (txt.startsWith('sext(') && txt.endsWith(')')) { sext = true; txt = txt.slice(5, -1).trim(); }
        const p = parseSrc(txt, o, space);
        if (p.value === SRC.LITERAL || p.value > 511) throw new OperandError('SDWA takes no literal');
        if ((srcClass(p.value) & (o.ok ?? 0)) === 0) throw new OperandError(`operand ${t} not allowed here`);
        const si = o.f === 'src0' ? 0 : 1;
        srcMod(si, p.abs, p.neg || negOuter, sext);
        const v = p.value >= 256 ? p.value - 256 : p.value;
        const s = p.value >= 256 ? 0 : 1;
        if (si === 0) d |= v | (s << SDWA_BIT.s0);
        else { w0 |= v << 9; d |= s << SDWA_BIT.s1; }
      }
    }
  });
  for (const m of mods) {
    const ml = m.toLowerCase();
    const kv = /^([a-z0-9_]+):(.*)$/.exec(ml);
    const bit = (b: number, v: number): void => {
      if (!((info.mods >>> b) & 1) || ((info.na ?? 0) >>> b) & 1) throw new OperandError(`${m} not allowed`);
      d |= v << b;
    };
    if (ml === 'clamp') bit(SDWA_BIT.clamp, 1);
    else if (ml === 'mul:2') bit(SDWA_BIT.omod, 1);
    else if (ml === 'mul:4') { bit(SDWA_BIT.omod + 1, 1); }
    else if (ml === 'div:2') { bit(SDWA_BIT.omod, 1); bit(SDWA_BIT.omod + 1, 1); }
    else if (kv && kv[1] === 'dst_sel' && info.sel & 1) d = (d & ~(7 << 8)) | (selValue(kv[2]!, SEL_NAMES) << 8);
    else if (kv && kv[1] === 'dst_unused' && info.sel & 2) d = (d & ~(3 << 11)) | (selValue(kv[2]!, UNUSED_NAMES.slice(0, 3)) << 11);
    else if (kv && kv[1] === 'src0_sel' && info.sel & 4) d = (d & ~(7 << 16)) | (selValue(kv[2]!, SEL_NAMES) << 16);
    else if (kv && kv[1] === 'src1_sel' && info.sel & 8) d = (d & ~(7 << 24)) | (selValue(kv[2]!, SEL_NAMES) << 24);
    else throw new OperandError(`unexpected modifier ${m}`);
  }
  return [w0 >>> 0, d >>> 0];
}

function splitRest(rest: string): { ops: string[]; mods: string[] } {
  const parts = splitOperands(rest);
  if (!parts.length) return { ops: [], mods: [] };
  const last = splitWords(parts[parts.length - 1]!);
  if (parts.length === 1 && last.length && /^[a-z_][a-z_0-9]*:/i.test(last[0]!)) return { ops: [], mods: last };
  parts[parts.length - 1] = last[0] ?? '';
  return { ops: parts.filter((p) => p !== ''), mods: last.slice(1) };
}

/** The SDWA codec of a target: decodes VOP1/VOP2/VOPC words with src0 = 249 whose opcode has an SDWA form. */
export function makeSdwaCodec(name: string, space: OperandSpace, tables: SdwaTables): Codec {
  const arr = (t: Readonly<Record<number, SdwaOpInfo>>): (SdwaOpInfo | undefined)[] => {
    const a: (SdwaOpInfo | undefined)[] = new Array(256).fill(undefined);
    for (const [k, v] of Object.entries(t)) a[Number(k)] = v;
    return a;
  };
  const T: Record<SdwaEnc, (SdwaOpInfo | undefined)[]> = { VOP1: arr(tables.VOP1), VOP2: arr(tables.VOP2), VOPC: arr(tables.VOPC) };
  const byMnemonic = new Map<string, Cand[]>();
  for (const enc of ['VOP1', 'VOP2', 'VOPC'] as const) {
    T[enc].forEach((info, op) => {
      if (!info) return;
      // v_nop's SDWA form prints as `v_nop`; llvm-mc assembles it from `v_nop_sdwa` (plain `v_nop` is VOP1).
      const key = info.m.endsWith('_sdwa') ? info.m : `${info.m}_sdwa`;
      const l = byMnemonic.get(key) ?? byMnemonic.set(key, []).get(key)!;
      l.push({ enc, op, info });
    });
  }
  return {
    name,
    matches: (w0) => {
      const enc = encOf(w0);
      return enc !== null && T[enc][opOf(enc, w0)] !== undefined;
    },
    decode: (words, index, pc) => {
      const w0 = words[index]! >>> 0;
      const enc = encOf(w0)!;
      return decodeSdwa(space, enc, T[enc][opOf(enc, w0)]!, words, index, pc);
    },
    print: (inst) => printSdwa(space, inst),
    assemble: (line: AsmLine) => {
      // llvm-mc also reads the plain mnemonic as SDWA when SDWA selectors follow (`v_mov_b32 v1, v2 dst_sel:BYTE_0`).
      const cands = byMnemonic.get(line.mnemonic)
        ?? (/\b(dst_sel|dst_unused|src0_sel|src1_sel):/i.test(line.rest) ? byMnemonic.get(`${line.mnemonic}_sdwa`) : undefined);
      if (!cands) return null;
      const { ops, mods } = splitRest(line.rest);
      let err: Error | null = null;
      for (const c of cands) {
        try {
          return encodeCand(space, c, ops, mods);
        } catch (e) {
          if (!(e instanceof OperandError)) throw e;
          err ??= e;
        }
      }
      throw new AsmError(line.line, `${line.mnemonic}: ${err?.message ?? 'invalid operands'}`);
    },
  };
}
