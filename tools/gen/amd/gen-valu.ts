/**
 * Generator for the GFX11 VALU encodings VOP1, VOP2, VOPC and VOP3 (with VOP3SD): every fact in
 * src/amd/isa/gfx11/{vop1,vop2,vopc,vop3}.gen.ts is read off llvm-objdump-19 by probing, and
 * test/golden/amd/gfx1100/{vop1,vop2,vopc,vop3,vop3sd}.tsv are LLVM's answers to seeded random
 * encodings.
 *
 * How the tables are inferred (per opcode): find a base encoding LLVM decodes cleanly (trying
 * VGPR/SGPR/absent source combinations), attribute each printed operand to an encoding field by
 * perturbing one field at a time, read each source operand's constant typing from how LLVM prints
 * inline constants and literals in it, which source classes it decodes, and (VOP3) what every
 * single modifier bit does: `<unknown>` (a must-be-zero bit), nothing (ignored) or a printed modifier.
 *
 * The DPP16/DPP8 forms are inferred the same way, as layouts with the DPP dword appended.
 *
 * LLVM 19 behaviours the probing surfaced (all recorded as data, none typed by hand): unused source
 * fields must be zero; fake16 opcodes reject v128+ destinations but decode v128+ sources with an
 * "Invalid register" remark; integer operands print neg as sext(); 16-bit integer operands print
 * float inline constants as bit patterns; v_permlane op_sel entries are bits 0 and 1; v_cmpx_*_e64
 * assembles with vdst = exec_lo; misaligned SGPR pairs decode as the aligned pair with a warning;
 * src_lds_direct (254) still decodes in VALU sources.
 *
 * Target-parametrised: the per-target part is `VALU_TARGETS` (mcpu, encoding layouts, output paths).
 */
import { assembleLines, disassembleProbes, llvmVersion } from '../llvm.js';
import { formatGolden, rng, type GoldenCase } from '../golden.js';
import { splitOperands } from '../../../src/amd/isa/operands.js';
import {
  SRC_CLASS, SRC_CLASS_PROBE, srcClass, type FieldDef, type ValuOpInfo, type ValuOperand, type ValuType,
} from '../../../src/amd/isa/gfx11/valu-types.js';

// ---------------------------------------------------------------------------------------------
// Probe runner (tolerates `; Warning` remarks; flags `/*Invalid...*/` texts).

interface Probe {
  readonly text: string | null;
  readonly size: number;
  readonly invalid: boolean;
}

/** LLVM's view of each probe (shared runner in tools/gen/llvm.ts); unknown words count as invalid too. */
function probe(mcpu: string, probes: readonly (readonly number[])[], mattr = ''): Probe[] {
  return disassembleProbes(mcpu, probes, undefined, mattr).map((r) => (r.text === null ? { ...r, invalid: false } : r));
}

/** LLVM's feature string for wave64 on targets whose default is wave32. */
export const WAVE64 = '+wavefrontsize64';

// ---------------------------------------------------------------------------------------------
// Per-target data: encodings as field layouts.

type EncName = 'VOP1' | 'VOP2' | 'VOPC' | 'VOP3';

interface EncLayout {
  readonly name: EncName;
  readonly words: number;
  readonly opcodes: number;
  /** The encoding's words with only the opcode set. */
  base(op: number): number[];
  readonly fields: Readonly<Record<string, FieldDef>>;
  /** Bits of each dword holding the encoding prefix and the opcode (and, for DPP forms, the DPP controls). */
  readonly opMask: readonly number[];
  /** DPP form of a base encoding: the DPP dword follows the base words. */
  readonly dpp?: 'dpp16' | 'dpp8';
}

/** DPP16 dword defaults: row_mask 0xf, bank_mask 0xf, quad_perm:[0,1,2,3]. */
const DPP16_DEFAULT = 0xff00e400;
/** DPP8 dword default: identity lane selects [0..7]. */
const DPP8_DEFAULT = 0xfac68800;

/** The DPP16/DPP8 form of a base layout: src0 holds 250/233, the extra dword holds src0 and the controls. */
export function dppLayout(e: EncLayout, kind: 'dpp16' | 'dpp8'): EncLayout {
  const s0 = e.fields.src0!;
  const dw = e.words;
  const fields: Record<string, FieldDef> = {};
  for (const [k, f] of Object.entries(e.fields)) if (k !== 'src0') fields[k] = f;
  fields.dsrc0 = { w: dw, lo: 0, n: 8 };
  const opMask = e.opMask.slice();
  opMask[s0.w] = (opMask[s0.w]! | (((1 << s0.n) - 1) << s0.lo)) >>> 0;
  opMask.push(kind === 'dpp16' ? 0xff0dff00 : 0xffffff00);
  return {
    name: e.name, words: dw + 1, opcodes: e.opcodes, dpp: kind, fields, opMask,
    base: (op) => {
      const w = e.base(op);
      w[s0.w] = (w[s0.w]! | ((kind === 'dpp16' ? 250 : 233) << s0.lo)) >>> 0;
      return [...w, kind === 'dpp16' ? DPP16_DEFAULT : DPP8_DEFAULT];
    },
  };
}

export interface ValuTarget {
  readonly mcpu: string;
  /** Wave32 by default with a wave64 mode (GFX10+): lane-mask operands are probed in both and wave64 goldens written. */
  readonly wave64?: boolean;
  readonly encodings: readonly EncLayout[];
  readonly genDir: string;
  readonly goldenDir: string;
}

export const GFX11_VALU_LAYOUTS: Readonly<Record<EncName, EncLayout>> = {
  VOP1: {
    name: 'VOP1', words: 1, opcodes: 128, base: (op) => [(0x7e000000 | (op << 9)) >>> 0],
    fields: { src0: { w: 0, lo: 0, n: 9 }, vdst: { w: 0, lo: 17, n: 8 } }, opMask: [0xfe01fe00],
  },
  VOP2: {
    name: 'VOP2', words: 1, opcodes: 62, base: (op) => [(op << 25) >>> 0],
    fields: { src0: { w: 0, lo: 0, n: 9 }, vsrc1: { w: 0, lo: 9, n: 8 }, vdst: { w: 0, lo: 17, n: 8 } }, opMask: [0xfe000000],
  },
  VOPC: {
    name: 'VOPC', words: 1, opcodes: 256, base: (op) => [(0x7c000000 | (op << 17)) >>> 0],
    fields: { src0: { w: 0, lo: 0, n: 9 }, vsrc1: { w: 0, lo: 9, n: 8 } }, opMask: [0xfffe0000],
  },
  VOP3: {
    name: 'VOP3', words: 2, opcodes: 1024, base: (op) => [(0xd4000000 | (op << 16)) >>> 0, 0],
    fields: {
      vdst: { w: 0, lo: 0, n: 8 }, abs: { w: 0, lo: 8, n: 3 }, opsel: { w: 0, lo: 11, n: 4 }, sdst: { w: 0, lo: 8, n: 7 },
      clamp: { w: 0, lo: 15, n: 1 }, src0: { w: 1, lo: 0, n: 9 }, src1: { w: 1, lo: 9, n: 9 }, src2: { w: 1, lo: 18, n: 9 },
      omod: { w: 1, lo: 27, n: 2 }, neg: { w: 1, lo: 29, n: 3 },
    },
    opMask: [0xffff0000, 0],
  },
};

export const VALU_TARGETS: readonly ValuTarget[] = [
  {
    mcpu: 'gfx1100',
    wave64: true,
    encodings: [GFX11_VALU_LAYOUTS.VOP1, GFX11_VALU_LAYOUTS.VOP2, GFX11_VALU_LAYOUTS.VOPC, GFX11_VALU_LAYOUTS.VOP3],
    genDir: 'src/amd/isa/gfx11',
    goldenDir: 'test/golden/amd/gfx1100',
  },
  {
    // GFX9: VOP3's prefix is 0b110100; DPP16 without fi, no DPP8 (LLVM decodes none). SDWA: not yet.
    mcpu: 'gfx900',
    encodings: [GFX11_VALU_LAYOUTS.VOP1, GFX11_VALU_LAYOUTS.VOP2, GFX11_VALU_LAYOUTS.VOPC, {
      // Opcodes 0x380.. are VOP3P (prefix 0b110100111).
      ...GFX11_VALU_LAYOUTS.VOP3, opcodes: 0x380, base: (op) => [(0xd0000000 | (op << 16)) >>> 0, 0],
    }],
    genDir: 'src/amd/isa/gfx9',
    goldenDir: 'test/golden/amd/gfx900',
  },
  {
    // GFX10.3: the same layouts (VOP3 prefix 0b110101 too); LLVM decodes no VOP3/VOPC DPP forms here.
    mcpu: 'gfx1030',
    wave64: true,
    encodings: [GFX11_VALU_LAYOUTS.VOP1, GFX11_VALU_LAYOUTS.VOP2, GFX11_VALU_LAYOUTS.VOPC, GFX11_VALU_LAYOUTS.VOP3],
    genDir: 'src/amd/isa/gfx10',
    goldenDir: 'test/golden/amd/gfx1030',
  },
];

// ---------------------------------------------------------------------------------------------
// Encoding helpers

const LIT = 0x12345678;

function setField(words: number[], f: FieldDef, v: number): number[] {
  const out = words.slice();
  const mask = ((1 << f.n) - 1) << f.lo;
  out[f.w] = ((out[f.w]! & ~mask) | ((v << f.lo) & mask)) >>> 0;
  return out;
}

function enc(e: EncLayout, op: number, vals: Readonly<Record<string, number>>, lit = LIT): number[] {
  let w = e.base(op);
  for (const [k, v] of Object.entries(vals)) w = setField(w, e.fields[k]!, v);
  return [...w, lit];
}

/** Split LLVM's text into mnemonic, operand tokens, and the trailing modifier text. */
export function splitText(text: string): { m: string; ops: string[]; mods: string } {
  const sp = text.indexOf(' ');
  if (sp < 0) return { m: text, ops: [], mods: '' };
  const m = text.slice(0, sp);
  const parts = splitOperands(text.slice(sp + 1));
  let mods = '';
  if (parts.length) {
    const last = parts[parts.length - 1]!;
    const k = last.indexOf(' ');
    if (k >= 0) {
      mods = last.slice(k + 1);
      parts[parts.length - 1] = last.slice(0, k);
    }
  }
  return { m, ops: parts, mods };
}

function regCount(t: string): number {
  const m = /\[(\d+):(\d+)\]/.exec(t);
  if (m) return Number(m[2]) - Number(m[1]) + 1;
  if (t === 'vcc' || t === 'exec') return 2;
  return 1;
}

// ---------------------------------------------------------------------------------------------
// Opcode inference

function tries(e: EncLayout): Record<string, number>[] {
  const V = [266, 276, 286];
  const S = [2, 4, 6];
  const out: Record<string, number>[] = [];
  if (e.dpp) {
    // DPP: src0 is a VGPR in the DPP dword.
    for (const t of tries({ ...e, dpp: undefined })) {
      if (t.src0 !== 266) continue;
      const { src0: _, ...rest } = t;
      out.push({ ...rest, dsrc0: 10 });
    }
    return out;
  }
  if (e.name === 'VOP3') {
    const combos = ['VVV', 'VVS', 'VSS', 'SSS', 'VV0', 'VS0', 'SV0', 'SS0', 'V00', 'S00', '000'];
    for (const vdst of [5, 0]) for (const c of combos) {
      const r: Record<string, number> = { vdst };
      for (let i = 0; i < 3; i++) r[`src${i}`] = c[i] === 'V' ? V[i]! : c[i] === 'S' ? S[i]! : 0;
      out.push(r);
    }
  } else if (e.name === 'VOP1') {
    for (const vdst of [5, 0]) for (const s of [V[0]!, S[0]!, 0]) out.push({ vdst, src0: s });
  } else if (e.name === 'VOP2') {
    for (const vdst of [5, 0]) for (const s of [V[0]!, S[0]!]) out.push({ vdst, src0: s, vsrc1: 20 });
  } else {
    for (const s of [V[0]!, S[0]!]) for (const v1 of [20, 0]) out.push({ src0: s, vsrc1: v1 });
  }
  out.push({});
  return out;
}

/** A different value of the same kind for one field (sdst: +16 so a VOP3 abs field stays clear). */
function perturb(field: string, v: number): number {
  return field === 'sdst' ? v + 16 : v + 4;
}

const FLOAT_PROBES = [240, 241, 242, 243, 244, 245, 246, 247, 248, 128, 193];
const LIT_PROBES = [0x3f000000, 0x3800, 0x3fe00000, 0xfffffff0, 0x0000fff0, 0x12345678, 0x3e22f983, 0x3118, 0x41, 0xffff3800, 0x00000005];

interface OpProbe {
  op: number;
  base: Record<string, number>;
  text: string;
  size: number;
}

/** Signature texts → type name: how LLVM prints constants in the operand. */
function classifyType(sig: string[], width: number): ValuType {
  // sig: FLOAT_PROBES texts then LIT_PROBES texts.
  const inv = sig[8];
  const half = sig[0];
  const lit3800 = sig[FLOAT_PROBES.length + 1];
  const lit12 = sig[FLOAT_PROBES.length + 5];
  if (inv === '0.15915494309189532') return sig[FLOAT_PROBES.length + 2] === '0.5' ? 'f64' : 'i64';
  if (half === '0x3800') return 'i16';
  if (lit12 === '0x5678' && lit3800 === '0.5') return 'f16';
  if (lit12 === '0x12345678') return width === 2 ? 'i64' : 'f32';
  // No literal in this operand (GFX9 VOP3): only the inline constants print, alike for f16 and f32.
  if (lit12 === '<null>' && half === '0.5' && inv === '0.15915494') return 'f32';
  throw new Error(`unclassified operand typing: ${sig.join(' | ')}`);
}

/** Targets on which an opcode with unclassifiable operand typing is left out instead of failing (still to do). */
const UNCLASSIFIED_OK = new Set(['gfx1030', 'gfx900']);
/** `mcpu mnemonic` of the opcodes left out of the tables: their golden cases are left out too. */
const LEFT_OUT = new Set<string>();

function inferEncoding(mcpu: string, e: EncLayout, fallback?: Map<number, ValuOpInfo>): Map<number, ValuOpInfo> {
  const tr = tries(e);
  const probes: number[][] = [];
  for (let op = 0; op < e.opcodes; op++) for (const t of tr) probes.push(enc(e, op, t));
  const res = probe(mcpu, probes);
  const bases: OpProbe[] = [];
  for (let op = 0; op < e.opcodes; op++) {
    for (let i = 0; i < tr.length; i++) {
      const r = res[op * tr.length + i]!;
      // A DPP probe LLVM reads as the plain instruction alone (v_nop on GFX11) is no DPP form.
      if (r.text && !r.invalid && !(e.dpp && r.size < e.words * 4)) {
        bases.push({ op, base: tr[i]!, text: r.text, size: r.size });
        break;
      }
    }
  }
  // Phase 2: attribute operands to fields.
  const fieldNames = Object.keys(e.fields).filter((f) => ['vdst', 'sdst', 'src0', 'src1', 'src2', 'vsrc1', 'dsrc0'].includes(f));
  const p2: number[][] = [];
  for (const b of bases) {
    for (const f of fieldNames) p2.push(enc(e, b.op, { ...b.base, [f]: perturb(f, b.base[f] ?? 0) }));
    p2.push(enc(e, b.op, b.base, LIT + 4));
  }
  const r2 = probe(mcpu, p2);
  const nf = fieldNames.length + 1;
  const infos = new Map<number, ValuOpInfo>();
  interface Partial { b: OpProbe; ops: ValuOperand[]; used: Set<string>; srcIdx: Map<string, number> }
  const partial: Partial[] = [];
  bases.forEach((b, bi) => {
    const base = splitText(b.text);
    const attr: string[] = base.ops.map(() => '');
    const used = new Set<string>();
    [...fieldNames, 'lit'].forEach((f, k) => {
      const r = r2[bi * nf + k]!;
      if (!r.text) return;
      const t = splitText(r.text);
      if (t.ops.length !== base.ops.length) return;
      t.ops.forEach((o, i) => {
        if (o !== base.ops[i] && attr[i] === '') {
          attr[i] = f;
          used.add(f);
        }
      });
    });
    const ops: ValuOperand[] = base.ops.map((o, i) => {
      const f = attr[i]!;
      const n = regCount(o);
      const h = /\.[lh]$/.test(o) ? { h: 1 as const } : {};
      if (f === '') return { f: '', k: 'x', n: 1, x: o };
      if (f === 'lit') return { f: 'lit', k: 'k', n: 1 };
      if (f === 'vdst') return { f, k: o.startsWith('v') ? 'v' : 's', n, ...h };
      if (f === 'sdst') return { f, k: 's', n };
      if (f === 'vsrc1' || f === 'dsrc0') return { f, k: 'v', n, ...h };
      return { f, k: 'src', n, ...h };
    });
    partial.push({ b, ops, used, srcIdx: new Map() });
  });
  // Phase 3: types, classes, modifier bits.
  const p3: number[][] = [];
  const plan: { pi: number; kind: string; f: string; x: number }[] = [];
  const classKeys = Object.keys(SRC_CLASS) as (keyof typeof SRC_CLASS)[];
  partial.forEach((p, pi) => {
    for (const o of p.ops) {
      if (o.k === 'src') {
        for (const v of FLOAT_PROBES) { p3.push(enc(e, p.b.op, { ...p.b.base, [o.f]: v })); plan.push({ pi, kind: 'type', f: o.f, x: v }); }
        for (const l of LIT_PROBES) { p3.push(enc(e, p.b.op, { ...p.b.base, [o.f]: 255 }, l)); plan.push({ pi, kind: 'type', f: o.f, x: l }); }
        for (const c of classKeys) { p3.push(enc(e, p.b.op, { ...p.b.base, [o.f]: SRC_CLASS_PROBE[c] })); plan.push({ pi, kind: 'class', f: o.f, x: SRC_CLASS[c] }); }
      } else if (o.k === 'v') {
        p3.push(enc(e, p.b.op, { ...p.b.base, [o.f]: 200 })); plan.push({ pi, kind: 'vhi', f: o.f, x: 0 });
      } else if (o.k === 'k') {
        for (const l of LIT_PROBES) { p3.push(enc(e, p.b.op, p.b.base, l)); plan.push({ pi, kind: 'ktype', f: 'lit', x: l }); }
      }
    }
    // Single-bit flips of every non-opcode bit not in an attributed field.
    const w = enc(e, p.b.op, p.b.base);
    const opMaskWords = e.opMask;
    const fieldMask = new Array(e.words).fill(0) as number[];
    for (const f of p.used) {
      if (f === 'lit') continue;
      const d = e.fields[f]!;
      fieldMask[d.w] = (fieldMask[d.w]! | (((1 << d.n) - 1) << d.lo)) >>> 0;
    }
    for (let wi = 0; wi < e.words; wi++) for (let bit = 0; bit < 32; bit++) {
      const m = (1 << bit) >>> 0;
      if ((opMaskWords[wi]! & m) || (fieldMask[wi]! & m)) continue;
      const ww = w.slice();
      ww[wi] = (ww[wi]! ^ m) >>> 0;
      p3.push(ww);
      plan.push({ pi, kind: 'bit', f: String(wi), x: bit });
    }
  });
  const r3 = probe(mcpu, p3);
  const sigs = new Map<string, string[]>();
  const classes = new Map<string, number>();
  const remarked = new Map<string, number>();
  const remarkClass = new Map<string, string>();
  const z: number[][] = partial.map(() => new Array(e.words).fill(0) as number[]);
  const changed: { pi: number; w: number; bit: number; text: string }[] = [];
  plan.forEach((pl, i) => {
    const r = r3[i]!;
    const p = partial[pl.pi]!;
    const key = `${pl.pi}:${pl.f}`;
    if (pl.kind === 'type' || pl.kind === 'ktype') {
      const idx = p.ops.findIndex((o) => o.f === pl.f);
      const t = r.text ? (splitText(r.text).ops[idx] ?? '?').replace(/\/\*.*$/, '') : '<null>';
      // Strip modifiers a constant may not take (none expected here).
      (sigs.get(key) ?? sigs.set(key, []).get(key)!).push(t);
    } else if (pl.kind === 'vhi') {
      if (!r.text) classes.set(key, 1);
      else if (r.invalid) {
        const m = /\/\*Invalid register, operand has '([^']+)' register class\*\//.exec(r.text);
        if (m) remarkClass.set(key, m[1]!);
        else classes.set(key, 1);
      }
    } else if (pl.kind === 'class') {
      if (r.text && !r.invalid) classes.set(key, (classes.get(key) ?? 0) | pl.x);
      else if (r.text) {
        // Decoded, but LLVM remarks that the operand is illegal: keep the remark's register class.
        const m = /\/\*Invalid register, operand has '([^']+)' register class\*\//.exec(r.text);
        if (m || r.text.includes('/*Invalid immediate*/')) {
          remarked.set(key, (remarked.get(key) ?? 0) | pl.x);
          if (m) remarkClass.set(key, m[1]!);
        }
      }
    } else {
      const wi = Number(pl.f);
      if (!r.text) z[pl.pi]![wi] = (z[pl.pi]![wi]! | (1 << pl.x)) >>> 0;
      else if (r.text !== p.b.text) changed.push({ pi: pl.pi, w: wi, bit: pl.x, text: r.text });
    }
  });
  // VOP3 modifier semantics from the changed bits.
  const mods = partial.map(() => ({ abs: 0, neg: 0, sel: 0, clamp: 0, omod: 0, sx: 0 }));
  for (const c of changed) {
    const md = mods[c.pi]!;
    if (e.dpp && c.w === e.words - 1) {
      // DPP16 dword: src0_neg 20, src0_abs 21, src1_neg 22, src1_abs 23 (used by the 32-bit encodings).
      if (c.bit === 20) { md.neg |= 1; if (c.text.includes('sext(')) md.sx |= 1; }
      else if (c.bit === 21) md.abs |= 1;
      else if (c.bit === 22) { md.neg |= 2; if (c.text.includes('sext(')) md.sx |= 2; }
      else if (c.bit === 23) md.abs |= 2;
      else throw new Error(`${e.name} ${e.dpp} op ${partial[c.pi]!.b.op}: bit ${c.w}:${c.bit} changes text: ${c.text}`);
      continue;
    }
    if (e.name !== 'VOP3') throw new Error(`${e.name} op ${partial[c.pi]!.b.op}: bit ${c.w}:${c.bit} changes text: ${c.text}`);
    if (c.w === 0 && c.bit >= 8 && c.bit <= 10) md.abs |= 1 << (c.bit - 8);
    else if (c.w === 0 && c.bit >= 11 && c.bit <= 14) md.sel |= 1 << (c.bit - 11);
    else if (c.w === 0 && c.bit === 15) md.clamp = 1;
    else if (c.w === 1 && (c.bit === 27 || c.bit === 28)) md.omod = 1;
    else if (c.w === 1 && c.bit >= 29) {
      md.neg |= 1 << (c.bit - 29);
      if (c.text.includes('sext(')) md.sx |= 1 << (c.bit - 29);
    }
    else throw new Error(`VOP3 op ${partial[c.pi]!.b.op}: bit ${c.w}:${c.bit} changes text: ${c.text}`);
  }
  // op_sel entries: which opcode bit each printed entry shows (one probe per op_sel bit).
  const selProbes: number[][] = [];
  const selIdx: { pi: number; bit: number }[] = [];
  partial.forEach((p, pi) => {
    for (let b = 0; b < 4; b++) {
      if (!(mods[pi]!.sel & (1 << b))) continue;
      selProbes.push(enc(e, p.b.op, { ...p.b.base, opsel: 1 << b }));
      selIdx.push({ pi, bit: b });
    }
  });
  const selMap = new Map<number, number[]>();
  probe(mcpu, selProbes).forEach((r, i) => {
    const m = /op_sel:\[([^\]]*)\]/.exec(r.text ?? '');
    if (!m) throw new Error(`no op_sel in ${r.text}`);
    const entries = m[1]!.split(',');
    const { pi, bit } = selIdx[i]!;
    const map = selMap.get(pi) ?? selMap.set(pi, new Array(entries.length).fill(-1)).get(pi)!;
    const k = entries.indexOf('1');
    if (k < 0 || entries.lastIndexOf('1') !== k) throw new Error(`op_sel bit ${bit} shows as ${m[0]}`);
    map[k] = bit;
  });
  // Bits llvm-mc sets beyond the printed operands (e.g. v_cmpx_*_e64's implicit vdst = exec_lo).
  const asm = assembleLines(mcpu, partial.map((p) => p.b.text));
  const asmBits = partial.map((p, pi) => {
    const a = asm[pi]!.words;
    if (!a) return null;
    const keep = e.opMask.slice();
    for (const f of p.used) {
      if (f === 'lit') continue;
      const d = e.fields[f]!;
      keep[d.w] = (keep[d.w]! | (((1 << d.n) - 1) << d.lo)) >>> 0;
    }
    const bits = keep.map((k, i) => (a[i]! & ~k) >>> 0);
    return bits.some((b) => b !== 0) ? bits : null;
  });
  partial.forEach((p, pi) => {
    // An operand whose constants print in no known typing (GFX10's VOP3 v_interp_* attribute
    // operands) leaves its opcode out of the tables: reported, decoded as unknown.
    let unclassified = false;
    const ops = p.ops.map((o) => {
      if (o.k === 'src' || o.k === 'k') {
        const sig = sigs.get(`${pi}:${o.f}`)!;
        let t: ValuType;
        try {
          t = o.k === 'k' ? (sig[5] === '0x5678' ? 'k16' : 'k32') : classifyType(sig, o.n);
        } catch (err) {
          // DPP forms may take no constants in an operand: its typing is the base encoding's.
          const ft = fallback?.get(p.b.op)?.ops.find((x) => x.f === o.f)?.t;
          if (!ft) {
            if (!UNCLASSIFIED_OK.has(mcpu)) throw err;
            unclassified = true;
            t = 'f32';
          } else t = ft;
        }
        const key = `${pi}:${o.f}`;
        const rk = remarked.get(key) ?? 0;
        const rc = remarkClass.get(key);
        return o.k === 'src' ? { ...o, t, ok: classes.get(key) ?? 0, ...(rk ? { rk } : {}), ...(rc ? { rc } : {}) } : { ...o, t };
      }
      if (o.k === 'v' && classes.get(`${pi}:${o.f}`)) return { ...o, lo: 1 as const };
      if (o.k === 'v' && remarkClass.get(`${pi}:${o.f}`)) return { ...o, rc: remarkClass.get(`${pi}:${o.f}`)! };
      return o;
    });
    if (unclassified) {
      console.log(`${mcpu} ${e.name}${e.dpp ? ' ' + e.dpp : ''} op ${p.b.op} (${splitText(p.b.text).m}): operand typing unclassified, left out`);
      LEFT_OUT.add(`${mcpu} ${splitText(p.b.text).m}`);
      return;
    }
    const md = mods[pi]!;
    const info: ValuOpInfo = {
      m: splitText(p.b.text).m,
      ops,
      z: z[pi]!,
      ...(md.abs ? { abs: md.abs } : {}),
      ...(md.neg ? { neg: md.neg } : {}),
      ...(md.sx ? { sx: md.sx } : {}),
      ...(md.sel ? { sel: md.sel, selb: selMap.get(pi)! } : {}),
      ...(md.clamp ? { clamp: 1 as const } : {}),
      ...(md.omod ? { omod: 1 as const } : {}),
      ...(p.used.has('sdst') ? { sd: 1 as const } : {}),
      ...(asmBits[pi] ? { a: asmBits[pi] } : {}),
    };
    infos.set(p.b.op, info);
  });
  return infos;
}

// ---------------------------------------------------------------------------------------------
// Wave64: which operands are lane masks

/**
 * Values that name the same register text in wave32 and wave64 unless the operand is a lane mask:
 * s4 (s[4:5] for a 64-bit operand either way) in scalar and source fields, v1 in VGPR fields.
 */
function laneMaskProbe(e: EncLayout, op: number, info: ValuOpInfo): number[] {
  const vals: Record<string, number> = {};
  for (const o of info.ops) {
    if (o.k === 's') vals[o.f] = 4;
    else if (o.k === 'v') vals[o.f] = 1;
    else if (o.k === 'src') vals[o.f] = (o.ok ?? 0) & SRC_CLASS.sgpr ? 4 : 257;
  }
  return enc(e, op, vals);
}

/**
 * Disassemble every opcode once in wave32 and once with +wavefrontsize64 and mark the operands
 * whose text widens (`s4` -> `s[4:5]`, `vcc_lo` -> `vcc`) as lane masks (`lm`). Anything else that
 * differs between the modes is a fact this model does not hold, so it stops the generator.
 */
export function markLaneMasks(mcpu: string, e: EncLayout, t: Map<number, ValuOpInfo>): Map<number, ValuOpInfo> {
  const ops = [...t.keys()].sort((a, b) => a - b);
  return laneMasksFrom(mcpu, ops.map((op) => [op, t.get(op)!, laneMaskProbe(e, op, t.get(op)!)] as const));
}

/**
 * The lane-mask probe shared with gen-sdwa: each (opcode, info, probe words) is disassembled in
 * wave32 and wave64; an operand whose text widens gets `lm`.
 */
export function laneMasksFrom<I extends { readonly m: string; readonly ops: readonly ValuOperand[] }>(
  mcpu: string, cases: readonly (readonly [number, I, readonly number[]])[],
): Map<number, I> {
  const r32 = probe(mcpu, cases.map((c) => c[2]));
  const r64 = probe(mcpu, cases.map((c) => c[2]), WAVE64);
  const out = new Map<number, I>();
  cases.forEach(([op, info], i) => {
    const a = r32[i]!.text;
    const b = r64[i]!.text;
    if (a === null || b === null) throw new Error(`${mcpu} ${info.m}: lane-mask probe does not decode (wave32 ${a}, wave64 ${b})`);
    const ta = splitText(a);
    const tb = splitText(b);
    if (ta.m !== tb.m || ta.ops.length !== tb.ops.length || ta.ops.length !== info.ops.length || ta.mods !== tb.mods) {
      throw new Error(`${mcpu} ${info.m}: wave64 prints a different shape: '${a}' vs '${b}'`);
    }
    let lm = false;
    const o2 = info.ops.map((o, k) => {
      if (ta.ops[k] === tb.ops[k]) return o;
      const widened = (ta.ops[k] === 'vcc_lo' && tb.ops[k] === 'vcc') || (ta.ops[k] === 's4' && tb.ops[k] === 's[4:5]');
      if (!widened || o.n !== 1) throw new Error(`${mcpu} ${info.m}: operand ${k} reads '${ta.ops[k]}' in wave32, '${tb.ops[k]}' in wave64`);
      lm = true;
      return { ...o, lm: 1 as const };
    });
    out.set(op, lm ? { ...info, ops: o2 } : info);
  });
  return out;
}

/** The golden probes of the opcodes with a lane-mask operand, as LLVM reads and assembles them in wave64. */
function wave64Golden(mcpu: string, e: EncLayout, tables: EncTables, seed: number): string | null {
  const lanes = (t: Map<number, ValuOpInfo>) => new Map([...t].filter(([, i]) => i.ops.some((o) => o.lm)));
  if (lanes(tables.plain).size + lanes(tables.dpp16).size + lanes(tables.dpp8).size === 0) return null;
  const probes = [
    ...goldenProbes(e, lanes(tables.plain), seed, 3, tables.plain),
    ...goldenProbes(dppLayout(e, 'dpp16'), lanes(tables.dpp16), seed + 200, 2, tables.plain),
    ...goldenProbes(dppLayout(e, 'dpp8'), lanes(tables.dpp8), seed + 300, 1, tables.plain),
  ];
  return formatGolden(buildGoldenCases(mcpu, probes, WAVE64));
}

// ---------------------------------------------------------------------------------------------
// Output

function genFile(target: ValuTarget, e: EncLayout, tables: readonly [string, Map<number, ValuOpInfo>][]): string {
  const lines = [
    `/**`,
    ` * GENERATED by tools/gen/amd/gen-valu.ts from llvm-objdump ${llvmVersion()} (-mcpu=${target.mcpu}): do not edit.`,
    ` * The ${e.name} opcodes of ${target.mcpu} (plain, DPP16 and DPP8 forms): mnemonic as LLVM prints it,`,
    ` * operands (field, kind, width, constant typing, accepted source classes), must-be-zero bits per dword`,
    ` * and the modifiers LLVM prints.`,
    ` */`,
    `import type { ValuOpInfo } from '${target.genDir === 'src/amd/isa/gfx11' ? '.' : '../gfx11'}/valu-types.js';`,
  ];
  for (const [name, t] of tables) {
    lines.push('', `export const ${name}: Readonly<Record<number, ValuOpInfo>> = {`);
    for (const [op, info] of [...t.entries()].sort((a, b) => a[0] - b[0])) lines.push(`  ${op}: ${JSON.stringify(info)},`);
    lines.push('};');
  }
  lines.push('');
  return lines.join('\n');
}

/** Random probes per opcode for the golden files. */
function goldenProbes(e: EncLayout, t: Map<number, ValuOpInfo>, seed: number, perOp: number, all = t): number[][] {
  const r = rng(seed);
  const ri = (n: number) => Math.floor(r() * n);
  const out: number[][] = [];
  const interesting = [0, 1, 5, 100, 104, 105, 106, 107, 108, 115, 124, 125, 126, 127, 128, 129, 150, 192, 193, 200, 208, 235, 236, 237, 238, 239, 240, 241, 242, 243, 244, 245, 246, 247, 248, 251, 252, 253, 255, 256, 257, 300, 383, 384, 511];
  const lits = [0x3f000000, 0x3800, 0x3fe00000, 0xfffffff0, 0x0000fff0, 0x12345678, 0x3e22f983, 0x3118, 0x41, 0xffff3800, 5, 0x80000000, 0xbf800000, 0x40490fdb, 0x0000c400, 0x7fff, 0xdeadbeef];
  for (const [op, info] of [...t.entries()].sort((a, b) => a[0] - b[0])) {
    for (let k = 0; k < perOp; k++) {
      const vals: Record<string, number> = {};
      for (const o of info.ops) {
        if (o.k === 'v') vals[o.f] = k === 0 ? 1 : o.lo && ri(4) ? ri(128) : ri(256);
        else if (o.k === 's') vals[o.f] = ri(5) === 0 ? 106 : ri(4) === 0 ? 124 : ri(106);
        else if (o.k === 'src') {
          let v = 0;
          for (let tries = 0; tries < 20; tries++) {
            v = ri(3) === 0 ? 256 + ri(256) : interesting[ri(interesting.length)]!;
            if (srcClass(v) & (o.ok ?? 0) || tries > 15) break;
          }
          vals[o.f] = v;
        }
      }
      if (e.name === 'VOP3') {
        if (!info.sd) {
          if (ri(2)) vals.abs = ri(8) & (info.abs ?? 0);
          if (ri(2)) vals.opsel = ri(16) & (info.sel ?? 0);
        }
        if (ri(3) === 0 && info.clamp) vals.clamp = 1;
        if (ri(3) === 0 && info.omod) vals.omod = ri(4);
        if (ri(2)) vals.neg = ri(8) & (info.neg ?? 0);
      }
      const w = enc(e, op, vals, lits[ri(lits.length)]!);
      if (e.dpp === 'dpp16') {
        const ctrls = [ri(256), 0x101 + ri(15), 0x111 + ri(15), 0x121 + ri(15), 0x140, 0x141, 0x150 + ri(16), 0x160 + ri(16), ri(256), ri(512)];
        const ctrl = ctrls[ri(ctrls.length)]!;
        let d = (ctrl << 8) | (ri(16) << 24) | (ri(16) << 28) | (ri(2) << 18) | (ri(2) << 19);
        if (!e.name.startsWith('VOP3') && ri(2)) d |= (ri(16) << 20) & (((info.neg ?? 0) & 1 ? 1 << 20 : 0) | ((info.abs ?? 0) & 1 ? 1 << 21 : 0) | ((info.neg ?? 0) & 2 ? 1 << 22 : 0) | ((info.abs ?? 0) & 2 ? 1 << 23 : 0));
        w[e.words - 1] = ((w[e.words - 1]! & 0xff) | d) >>> 0;
      } else if (e.dpp === 'dpp8') {
        w[e.words - 1] = ((w[e.words - 1]! & 0xff) | (Math.floor(r() * 0x1000000) << 8)) >>> 0;
        if (ri(2)) w[e.words - 2] = (w[e.words - 2]! + (e.name === 'VOP3' ? 1 : 1)) >>> 0; // src0 233 -> 234 (fi:1)
      }
      out.push(w);
    }
  }
  // Unknowns: reserved opcodes, and must-be-zero bits set.
  const ur = rng(seed + 1);
  for (let op = 0; op < e.opcodes && out.length < 1e9; op++) {
    if (!all.has(op) && ur() < 0.3) out.push(enc(e, op, {}));
  }
  for (const [op, info] of t) {
    for (let wi = 0; wi < info.z.length; wi++) {
      const zm = info.z[wi]!;
      if (!zm || ur() > 0.2) continue;
      const bits = [...Array(32).keys()].filter((b) => zm & (1 << b));
      const w = enc(e, op, {});
      w[wi] = (w[wi]! | (1 << bits[Math.floor(ur() * bits.length)]!)) >>> 0;
      out.push(w);
    }
  }
  return out;
}

function buildGoldenCases(mcpu: string, probes: number[][], mattr = ''): GoldenCase[] {
  const dis = probe(mcpu, probes, mattr);
  const seen = new Set<string>();
  const cases: { words: number[]; text: string | null }[] = [];
  const seenUnknown = new Set<string>();
  dis.forEach((d, i) => {
    if (d.text === null) {
      const key = (probes[i]![0]! >>> 0).toString(16) + (probes[i]![1] ?? 0);
      if (seenUnknown.has(key)) return;
      seenUnknown.add(key);
      cases.push({ words: probes[i]!.slice(0, probes[i]!.length - 1), text: null });
      return;
    }
    // Keep LLVM's remarks on words it decodes but calls illegal (llvm-mc cannot assemble them back).
    const remarks = d.text
      .replace(/\/\* (Invalid dpp_ctrl value|[a-z_]+ is not supported starting from GFX10) \*\//g, '')
      .replace(/\/\*Invalid register, operand has '[^']+' register class\*\//g, '')
      .replace(/\/\*Invalid immediate\*\//g, '');
    if ((d.invalid && remarks.includes('/*')) || seen.has(d.text)) return;
    if (LEFT_OUT.has(`${mcpu} ${splitText(d.text).m}`)) return;
    seen.add(d.text);
    cases.push({ words: probes[i]!.slice(0, d.size / 4), text: d.text });
  });
  const asm = assembleLines(mcpu, cases.map((c) => c.text ?? ''), mattr);
  return cases.map((c, i) => ({ words: c.words, text: c.text, asm: c.text === null ? null : asm[i]!.words }));
}

export interface EncTables {
  readonly plain: Map<number, ValuOpInfo>;
  readonly dpp16: Map<number, ValuOpInfo>;
  readonly dpp8: Map<number, ValuOpInfo>;
}

export function inferTarget(target: ValuTarget): Record<EncName, EncTables> {
  const out = {} as Record<EncName, EncTables>;
  const lm = (e: EncLayout, t: Map<number, ValuOpInfo>) => (target.wave64 ? markLaneMasks(target.mcpu, e, t) : t);
  for (const e of target.encodings) {
    const plain = inferEncoding(target.mcpu, e);
    out[e.name] = {
      plain: lm(e, plain),
      dpp16: lm(dppLayout(e, 'dpp16'), inferEncoding(target.mcpu, dppLayout(e, 'dpp16'), plain)),
      dpp8: lm(dppLayout(e, 'dpp8'), inferEncoding(target.mcpu, dppLayout(e, 'dpp8'), plain)),
    };
  }
  return out;
}

export function generate(): Record<string, string> {
  const files: Record<string, string> = {};
  for (const target of VALU_TARGETS) Object.assign(files, generateValu(target));
  return files;
}

/** The generated tables and golden files of one target. */
export function generateValu(target: ValuTarget): Record<string, string> {
  const files: Record<string, string> = {};
  {
    const tables = inferTarget(target);
    for (const e of target.encodings) {
      const { plain: t, dpp16, dpp8 } = tables[e.name];
      const lc = e.name.toLowerCase();
      files[`${target.genDir}/${lc}.gen.ts`] = genFile(target, e, [[`${e.name}_OPS`, t], [`${e.name}_DPP16_OPS`, dpp16], [`${e.name}_DPP8_OPS`, dpp8]]);
      const seed = { VOP1: 101, VOP2: 102, VOPC: 103, VOP3: 104 }[e.name];
      const perOp = e.name === 'VOPC' ? 4 : e.name === 'VOP3' ? 8 : 10;
      if (e.name === 'VOP3') {
        const sd = new Map([...t].filter(([, i]) => i.sd));
        const nsd = new Map([...t].filter(([, i]) => !i.sd));
        files[`${target.goldenDir}/vop3.tsv`] = formatGolden(buildGoldenCases(target.mcpu, goldenProbes(e, nsd, seed, perOp, t)));
        files[`${target.goldenDir}/vop3sd.tsv`] = formatGolden(buildGoldenCases(target.mcpu, goldenProbes(e, sd, seed + 50, 40, t)));
      } else {
        files[`${target.goldenDir}/${lc}.tsv`] = formatGolden(buildGoldenCases(target.mcpu, goldenProbes(e, t, seed, perOp)));
      }
      const dppPer = e.name === 'VOPC' ? 3 : 5;
      const dppProbes = [
        ...goldenProbes(dppLayout(e, 'dpp16'), dpp16, seed + 200, dppPer, t),
        ...goldenProbes(dppLayout(e, 'dpp8'), dpp8, seed + 300, 2, t),
      ];
      files[`${target.goldenDir}/${lc}-dpp.tsv`] = formatGolden(buildGoldenCases(target.mcpu, dppProbes));
      const w64 = target.wave64 ? wave64Golden(target.mcpu, e, tables[e.name], seed + 400) : null;
      if (w64) files[`${target.goldenDir}/${lc}-w64.tsv`] = w64;
    }
  }
  return files;
}
