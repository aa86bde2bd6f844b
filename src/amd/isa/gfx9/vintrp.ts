/**
 * GFX9/GFX10.3 parameter interpolation codecs (shared; each target passes its prefixes and its
 * generated tables, vintrp.gen.ts):
 * - VINTRP, one dword: vsrc[7:0] attrchan[9:8] attr[15:10] op[17:16] vdst[25:18]. LLVM prints
 *   `v_interp_p1_f32_e32 v9, v5, attr7.z`; v_interp_mov_f32's vsrc is a parameter name (p10, p20,
 *   p0). The assembler also takes the names without `_e32`.
 * - The VOP3-encoded interpolation ops (v_interp_p1_f32_e64 ..., v_interp_p1ll_f16,
 *   v_interp_p1lv_f16, v_interp_p2_f16, GFX9's v_interp_p2_legacy_f16): VOP3's src0 holds
 *   {high[8], attrchan[7:6], attr[5:0]} (high: the upper f16 of the LDS dword), src1 is I/J (a
 *   VGPR) or the mov parameter, src2 the VGPR operand of the 3-source forms; abs/neg/clamp/omod
 *   and high print when the generated table says LLVM prints them, and a bit LLVM rejects makes
 *   the word invalid. A non-VGPR I/J or src2 (LLVM prints an "Invalid register" remark) is refused.
 * Both decode as encoding 'VINTRP' (variant 'e32' / 'e64') with fields vdst, attr, attr_chan and
 * vsrc (the VINTRP I/J VGPR number or mov parameter) or src1/src2 (operand encodings, VGPRs
 * 256+), high, abs, neg, clamp, omod.
 */
import { AsmError, DecodeError, type AsmLine, type Codec, type Instruction } from '../types.js';
import { parseVgpr, splitLine, word } from '../gfx11/memory-common.js';

export interface Vop3InterpEntry {
  readonly mn: string;
  readonly form: 'mov' | 'p' | 'p3';
  readonly mods: Readonly<Record<string, 'opt' | 'ign' | 'no'>>;
}

export interface VintrpLayout {
  readonly name: string;
  /** dw0[31:26] of VINTRP and of VOP3. */
  readonly vintrp: number;
  readonly vop3: number;
  readonly ops: Readonly<Record<number, { readonly mn: string; readonly mov: boolean }>>;
  readonly params: readonly string[];
  readonly vop3Ops: Readonly<Record<number, Vop3InterpEntry>>;
}

const CHANS = 'xyzw';
const OMOD = ['', 'mul:2', 'mul:4', 'div:2'];

function parseAttr(l: AsmLine, t: string): { attr: number; chan: number } {
  const m = /^attr(\d+)\.([xyzw])$/i.exec(t.trim());
  if (!m || Number(m[1]) > 63) throw new AsmError(l.line, `expected an attribute attrN.c, got '${t}'`);
  return { attr: Number(m[1]), chan: CHANS.indexOf(m[2]!.toLowerCase()) };
}

/** `-|v3|` -> { reg: 3, neg, abs }. */
function parseModVgpr(l: AsmLine, t: string): { reg: number; neg: boolean; abs: boolean } {
  let s = t.trim();
  const neg = s.startsWith('-');
  if (neg) s = s.slice(1).trim();
  const abs = s.startsWith('|') && s.endsWith('|');
  if (abs) s = s.slice(1, -1).trim();
  return { reg: parseVgpr(l, s, 1), neg, abs };
}

export function makeVintrpCodecs(L: VintrpLayout): Codec[] {
  const paramByName = new Map<string, number>();
  L.params.forEach((p, i) => { if (!p.startsWith('invalid')) paramByName.set(p, i); });
  const byMn = new Map<string, number>();
  for (const [k, e] of Object.entries(L.ops)) {
    byMn.set(e.mn, Number(k));
    byMn.set(e.mn.replace(/_e32$/, ''), Number(k));
  }
  const v3ByMn = new Map<string, number>();
  for (const [k, e] of Object.entries(L.vop3Ops)) v3ByMn.set(e.mn, Number(k));
  const parseParam = (l: AsmLine, t: string): number => {
    const p = paramByName.get(t.trim().toLowerCase());
    if (p === undefined) throw new AsmError(l.line, `expected an interpolation parameter (p10, p20, p0), got '${t}'`);
    return p;
  };

  const vintrp: Codec = {
    name: `${L.name}VINTRP`,
    matches: (w0) => w0 >>> 26 === L.vintrp,
    decode(words, index, pc): Instruction {
      const w0 = word(words, index, 0, pc);
      const op = (w0 >>> 16) & 3;
      const e = L.ops[op];
      if (!e) throw new DecodeError(pc, [w0], `VINTRP opcode ${op} does not exist`);
      const fields = { vsrc: w0 & 0xff, attr_chan: (w0 >>> 8) & 3, attr: (w0 >>> 10) & 0x3f, vdst: (w0 >>> 18) & 0xff };
      return { encoding: 'VINTRP', opcode: op, mnemonic: e.mn, size: 4, words: [w0], fields, literal: undefined, variant: 'e32', info: e };
    },
    print(inst): string {
      const f = inst.fields;
      const e = inst.info as { mov: boolean };
      return `${inst.mnemonic} v${f.vdst}, ${e.mov ? L.params[f.vsrc!] : `v${f.vsrc}`}, attr${f.attr}.${CHANS[f.attr_chan!]}`;
    },
    assemble(l: AsmLine): number[] | null {
      const op = byMn.get(l.mnemonic);
      if (op === undefined) return null;
      const { ops, mods } = splitLine(l.rest);
      if (ops.length !== 3 || mods.length) throw new AsmError(l.line, `${l.mnemonic} takes vdst, ${L.ops[op]!.mov ? 'a parameter' : 'a VGPR'} and an attribute`);
      const vdst = parseVgpr(l, ops[0]!, 1);
      const vsrc = L.ops[op]!.mov ? parseParam(l, ops[1]!) : parseVgpr(l, ops[1]!, 1);
      const a = parseAttr(l, ops[2]!);
      return [((L.vintrp << 26) | (vdst << 18) | (op << 16) | (a.attr << 10) | (a.chan << 8) | vsrc) >>> 0];
    },
  };

  const vop3: Codec = {
    name: `${L.name}VOP3-interp`,
    matches: (w0) => w0 >>> 26 === L.vop3 && L.vop3Ops[(w0 >>> 16) & 0x3ff] !== undefined,
    decode(words, index, pc): Instruction {
      const w0 = word(words, index, 0, pc);
      const w1 = word(words, index, 1, pc);
      const op = (w0 >>> 16) & 0x3ff;
      const e = L.vop3Ops[op]!;
      const abs = (w0 >>> 8) & 7;
      const neg = w1 >>> 29;
      const bits: Record<string, number> = {
        abs0: abs & 1, abs1: (abs >> 1) & 1, abs2: abs >> 2, opsel0: (w0 >>> 11) & 1, opsel1: (w0 >>> 12) & 1, opsel2: (w0 >>> 13) & 1,
        opsel3: (w0 >>> 14) & 1, clamp: (w0 >>> 15) & 1, omod: (w1 >>> 27) & 3, neg0: neg & 1, neg1: (neg >> 1) & 1, neg2: neg >> 2, high: (w1 >>> 8) & 1,
      };
      for (const [k, v] of Object.entries(bits)) if (v && e.mods[k] === 'no') throw new DecodeError(pc, [w0, w1], `${e.mn}: ${k} is not allowed`);
      const src1 = (w1 >>> 9) & 0x1ff;
      const src2 = (w1 >>> 18) & 0x1ff;
      if (e.form === 'mov' ? src1 >= 256 : src1 < 256) throw new DecodeError(pc, [w0, w1], `${e.mn}: invalid src1 ${src1}`);
      if (e.form === 'p3' && src2 < 256) throw new DecodeError(pc, [w0, w1], `${e.mn}: src2 must be a VGPR`);
      const on = (k: string) => (e.mods[k] === 'opt' ? bits[k]! : 0);
      const fields = {
        vdst: w0 & 0xff, attr: w1 & 0x3f, attr_chan: (w1 >>> 6) & 3, high: on('high'), src1, src2,
        abs: (on('abs1') << 1) | (on('abs2') << 2), neg: (on('neg1') << 1) | (on('neg2') << 2), clamp: on('clamp'), omod: e.mods.omod === 'opt' ? bits.omod! : 0,
      };
      return { encoding: 'VINTRP', opcode: op, mnemonic: e.mn, size: 8, words: [w0, w1], fields, literal: undefined, variant: 'e64', info: e };
    },
    print(inst): string {
      const f = inst.fields;
      const e = inst.info as Vop3InterpEntry;
      const src = (k: 1 | 2, enc: number): string => {
        let s = `v${enc - 256}`;
        if ((f.abs! >> k) & 1) s = `|${s}|`;
        return (f.neg! >> k) & 1 ? `-${s}` : s;
      };
      let s = `${e.mn} v${f.vdst}, ${e.form === 'mov' ? L.params[f.src1!] : src(1, f.src1!)}, attr${f.attr}.${CHANS[f.attr_chan!]}`;
      if (e.form === 'p3') s += `, ${src(2, f.src2!)}`;
      if (f.high) s += ' high';
      if (f.clamp) s += ' clamp';
      if (f.omod) s += ` ${OMOD[f.omod]}`;
      return s;
    },
    assemble(l: AsmLine): number[] | null {
      const op = v3ByMn.get(l.mnemonic);
      if (op === undefined) return null;
      const e = L.vop3Ops[op]!;
      const { ops, mods } = splitLine(l.rest);
      const n = e.form === 'p3' ? 4 : 3;
      if (ops.length !== n) throw new AsmError(l.line, `${l.mnemonic} takes ${n} operands`);
      const vdst = parseVgpr(l, ops[0]!, 1);
      const a = parseAttr(l, ops[2]!);
      let abs = 0;
      let neg = 0;
      let src1: number;
      if (e.form === 'mov') src1 = parseParam(l, ops[1]!);
      else {
        const s = parseModVgpr(l, ops[1]!);
        src1 = 256 + s.reg;
        abs |= s.abs ? 2 : 0;
        neg |= s.neg ? 2 : 0;
      }
      let src2 = 0;
      if (e.form === 'p3') {
        const s = parseModVgpr(l, ops[3]!);
        src2 = 256 + s.reg;
        abs |= s.abs ? 4 : 0;
        neg |= s.neg ? 4 : 0;
      }
      let high = 0;
      let clamp = 0;
      let omod = 0;
      for (const m0 of mods) {
        const m = m0.toLowerCase();
        if (m === 'high' && e.mods.high === 'opt') high = 1;
        else if (m === 'clamp' && e.mods.clamp === 'opt') clamp = 1;
        else if (OMOD.indexOf(m) > 0 && e.mods.omod === 'opt') omod = OMOD.indexOf(m);
        else throw new AsmError(l.line, `unexpected modifier '${m0}'`);
      }
      for (const [k, v] of [['abs1', abs & 2], ['abs2', abs & 4], ['neg1', neg & 2], ['neg2', neg & 4]] as const) {
        if (v && e.mods[k] !== 'opt') throw new AsmError(l.line, `${l.mnemonic}: ${k.slice(0, 3)} is not allowed on this operand`);
      }
      const w0 = (L.vop3 << 26) | (op << 16) | (clamp << 15) | (abs << 8) | vdst;
      const w1 = (neg << 29) | (omod << 27) | (src2 << 18) | (src1 << 9) | (high << 8) | (a.chan << 6) | a.attr;
      return [w0 >>> 0, w1 >>> 0];
    },
  };
  return [vop3, vintrp];
}
