/**
 * Generator for the SDWA forms of VOP1/VOP2/VOPC on gfx900 and gfx1030: every fact in
 * src/amd/isa/{gfx9,gfx10}/sdwa.gen.ts is read off llvm-objdump-19 by probing, and
 * test/golden/amd/<mcpu>/{vop1,vop2,vopc}-sdwa.tsv are LLVM's answers to seeded random encodings.
 *
 * Per opcode: find an SDWA encoding LLVM decodes (src0 = 249 in the VALU word, the SDWA dword after
 * it); attribute each printed operand to a field by perturbing one field at a time; read which
 * source classes each source decodes (VGPR with S = 0, scalar/constant with S = 1); flip every
 * modifier bit of the SDWA dword from an all-BYTE_0 base (no flip can make a select 7, which
 * LLVM 19 crashes on) and record what it does: `<unknown>` (a must-be-zero bit), nothing, or a
 * printed modifier; and which selectors print at all. Constant typing comes from the opcode's plain
 * form (the same operand of the generated plain table). The SDWA dword layout itself is the ISA
 * guides' (see src/amd/isa/sdwa.ts).
 */
import { assembleLines, disassembleProbes, llvmVersion } from '../llvm.js';
import { formatGolden, rng, type GoldenCase } from '../golden.js';
import { WAVE64, laneMasksFrom, splitText } from './gen-valu.js';
import { SDWA_BIT, type SdwaEnc, type SdwaOpInfo } from '../../../src/amd/isa/sdwa.js';
import { SRC_CLASS, SRC_CLASS_PROBE, srcClass, type ValuOpInfo, type ValuOperand } from '../../../src/amd/isa/gfx11/valu-types.js';
import { VOP1_OPS as G9_VOP1, } from '../../../src/amd/isa/gfx9/vop1.gen.js';
import { VOP2_OPS as G9_VOP2 } from '../../../src/amd/isa/gfx9/vop2.gen.js';
import { VOPC_OPS as G9_VOPC } from '../../../src/amd/isa/gfx9/vopc.gen.js';
import { VOP1_OPS as G10_VOP1 } from '../../../src/amd/isa/gfx10/vop1.gen.js';
import { VOP2_OPS as G10_VOP2 } from '../../../src/amd/isa/gfx10/vop2.gen.js';
import { VOPC_OPS as G10_VOPC } from '../../../src/amd/isa/gfx10/vopc.gen.js';

interface SdwaTarget {
  readonly mcpu: string;
  readonly genDir: string;
  readonly goldenDir: string;
  /** The plain forms (constant typing of each source). */
  readonly plain: Readonly<Record<SdwaEnc, Readonly<Record<number, ValuOpInfo>>>>;
  /** Wave32 by default with a wave64 mode: lane-mask operands are probed in both, wave64 goldens written. */
  readonly wave64?: boolean;
}

export const SDWA_TARGETS: readonly SdwaTarget[] = [
  { mcpu: 'gfx900', genDir: 'src/amd/isa/gfx9', goldenDir: 'test/golden/amd/gfx900', plain: { VOP1: G9_VOP1, VOP2: G9_VOP2, VOPC: G9_VOPC } },
  { mcpu: 'gfx1030', genDir: 'src/amd/isa/gfx10', goldenDir: 'test/golden/amd/gfx1030', plain: { VOP1: G10_VOP1, VOP2: G10_VOP2, VOPC: G10_VOPC }, wave64: true },
];

const ENCS: readonly SdwaEnc[] = ['VOP1', 'VOP2', 'VOPC'];
const OPCODES: Readonly<Record<SdwaEnc, number>> = { VOP1: 256, VOP2: 63, VOPC: 256 };

/** Field values of one probe. src0/src1 in the 9-bit source space; sels/mods as raw SDWA-dword bits. */
interface Vals {
  vdst?: number;
  src0?: number;
  src1?: number;
  /** VOPC: SGPR destination (sets SD). */
  sdst?: number;
  /** SDWA dword bits 8..31 other than S0/S1/SD/SDST (already placed). */
  bits?: number;
}

const DWORD_SELS = (6 << 8) | (6 << 16) | (6 << 24);

function enc(e: SdwaEnc, op: number, v: Vals): number[] {
  let w0 = e === 'VOP1' ? 0x7e000000 | (op << 9) : e === 'VOPC' ? 0x7c000000 | (op << 17) : op << 25;
  w0 |= 249;
  let d = v.bits ?? 0;
  const s0 = v.src0 ?? 257;
  d |= s0 >= 256 ? s0 - 256 : (s0 | (1 << SDWA_BIT.s0));
  if (e !== 'VOP1') {
    const s1 = v.src1 ?? 258;
    if (s1 >= 256) w0 |= (s1 - 256) << 9;
    else { w0 |= s1 << 9; d |= 1 << SDWA_BIT.s1; }
  }
  if (e !== 'VOPC') w0 |= (v.vdst ?? 5) << 17;
  else if (v.sdst !== undefined) d = (d & ~0xff00) | (1 << SDWA_BIT.sd) | (v.sdst << 8);
  return [w0 >>> 0, d >>> 0];
}

function probe(mcpu: string, probes: readonly (readonly number[])[], mattr = ''): { text: string | null; invalid: boolean; size: number }[] {
  return disassembleProbes(mcpu, probes, undefined, mattr);
}

/** The selector bits of a plain probe: DWORD everywhere the encoding has a selector. */
function baseSels(e: SdwaEnc): number {
  return e === 'VOPC' ? DWORD_SELS & ~0xff00 : e === 'VOP1' ? DWORD_SELS & ~(7 << 24) : DWORD_SELS;
}

/** Lane-mask operands (`lm`) of each opcode, from the same words read in wave32 and wave64 (an SGPR destination s4 when there is one). */
function markLaneMasks(t: SdwaTarget, e: SdwaEnc, table: Map<number, SdwaOpInfo>): Map<number, SdwaOpInfo> {
  // Without operands (v_nop) there is no lane mask to find.
  const ops = [...table.keys()].sort((a, b) => a - b).filter((op) => table.get(op)!.ops.length > 0);
  const out = laneMasksFrom(t.mcpu, ops.map((op) => {
    const info = table.get(op)!;
    const v: Vals = { bits: baseSels(e), vdst: 1, src0: 257, src1: 258, ...(info.ops.some((o) => o.k === 's') ? { sdst: 4 } : {}) };
    return [op, info, enc(e, op, v)] as const;
  }));
  return new Map([...table].map(([op, info]) => [op, out.get(op) ?? info] as const).sort(([a], [b]) => a - b));
}

function regCount(t: string): number {
  const m = /\[(\d+):(\d+)\]/.exec(t);
  if (m) return Number(m[2]) - Number(m[1]) + 1;
  return t === 'vcc' || t === 'exec' ? 2 : 1;
}

const CLASS_KEYS = Object.keys(SRC_CLASS) as (keyof typeof SRC_CLASS)[];
/** Modifier bits flipped one at a time (the selectors, DST_UNUSED and the rest of the dword too). */
const FLIP_BITS = [8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 24, 25, 26, 27, 28, 29, 30];
const MOD_BITS = new Set<number>([SDWA_BIT.clamp, 14, 15, SDWA_BIT.src0_sext, SDWA_BIT.src0_neg, SDWA_BIT.src0_abs, SDWA_BIT.src1_sext, SDWA_BIT.src1_neg, SDWA_BIT.src1_abs]);
const SEL_BITS: Readonly<Record<number, number>> = { 8: 1, 9: 1, 10: 1, 11: 2, 12: 2, 16: 4, 17: 4, 18: 4, 24: 8, 25: 8, 26: 8 };

function inferEncoding(t: SdwaTarget, e: SdwaEnc): Map<number, SdwaOpInfo> {
  const tries: Vals[] = [
    { bits: DWORD_SELS }, { bits: DWORD_SELS, vdst: 0 }, { bits: DWORD_SELS, src0: 1 }, { bits: DWORD_SELS, src0: 1, src1: 2 },
  ];
  // VOPC has SDST where the destination selects are; VOP1 has no src1 select (LLVM wants it 0).
  // Last, an all-zero SDWA dword: the only one LLVM reads as v_nop's 8-byte SDWA form.
  const base = [...tries.map((x) => ({ ...x, bits: baseSels(e) })), { bits: 0, src0: 256, vdst: 0 }];
  const ops = [...Array(OPCODES[e]).keys()].filter((op) => t.plain[e][op] !== undefined);
  const r1 = probe(t.mcpu, ops.flatMap((op) => base.map((v) => enc(e, op, v))));
  const found: { op: number; v: Vals; text: string }[] = [];
  ops.forEach((op, i) => {
    for (let k = 0; k < base.length; k++) {
      const r = r1[i * base.length + k]!;
      // An SDWA form prints `_sdwa`, except one without operands (v_nop: LLVM prints `v_nop`, 8 bytes).
      if (r.text && !r.invalid && r.size === 8 && (splitText(r.text).m.endsWith('_sdwa') || splitText(r.text).ops.length === 0)) { found.push({ op, v: base[k]!, text: r.text }); break; }
    }
  });
  // Attribute operands: perturb one field at a time.
  const fields = e === 'VOP1' ? ['vdst', 'src0'] : e === 'VOP2' ? ['vdst', 'src0', 'src1'] : ['sdst', 'src0', 'src1'];
  const pert = (f: string, v: Vals): Vals => {
    if (f === 'sdst') return { ...v, sdst: 20 };
    const cur = (v as Record<string, number | undefined>)[f] ?? (f === 'vdst' ? 5 : f === 'src0' ? 257 : 258);
    return { ...v, [f]: cur + 4 };
  };
  const r2 = probe(t.mcpu, found.flatMap((b) => fields.map((f) => enc(e, b.op, pert(f, b.v)))));
  const partial = found.map((b, bi) => {
    const bt = splitText(b.text);
    const attr = bt.ops.map(() => '');
    fields.forEach((f, k) => {
      const r = r2[bi * fields.length + k]!;
      if (!r.text) return;
      const pt = splitText(r.text);
      if (pt.ops.length !== bt.ops.length) return;
      pt.ops.forEach((o, i) => { if (o !== bt.ops[i] && attr[i] === '') attr[i] = f; });
    });
    // The VOPC destination prints vcc/vcc_lo with SD = 0: take its width from the SD = 1 text.
    const sdText = e === 'VOPC' ? splitText(r2[bi * fields.length]!.text ?? '').ops : [];
    return { ...b, bt, attr, sdText };
  });
  // Source classes and modifier bits.
  const plan: { pi: number; kind: 'class' | 'flip' | 'type'; f: string; x: number }[] = [];
  const p3: number[][] = [];
  partial.forEach((p, pi) => {
    p.attr.forEach((f) => {
      if (f !== 'src0' && f !== 'src1') return;
      // Constant typing: a 16-bit integer operand prints float inline constants as bit patterns.
      p3.push(enc(e, p.op, { ...p.v, [f]: 240 }));
      plan.push({ pi, kind: 'type', f, x: 240 });
      for (const c of CLASS_KEYS) {
        const pv = SRC_CLASS_PROBE[c];
        p3.push(enc(e, p.op, { ...p.v, [f]: pv }));
        plan.push({ pi, kind: 'class', f, x: SRC_CLASS[c] });
      }
    });
    const selZero = (p.v.bits ?? 0) & ~(DWORD_SELS);
    for (const b of FLIP_BITS) {
      if (e === 'VOPC' && b >= 8 && b <= 15) continue;
      p3.push(enc(e, p.op, { ...p.v, bits: (selZero | (1 << b)) >>> 0 }));
      plan.push({ pi, kind: 'flip', f: '', x: b });
    }
    p3.push(enc(e, p.op, { ...p.v, bits: selZero }));
    plan.push({ pi, kind: 'flip', f: '', x: -1 });
  });
  const r3 = probe(t.mcpu, p3);
  const classes = new Map<string, number>();
  const i16 = new Set<string>();
  const z = partial.map(() => 0);
  const mods = partial.map(() => 0);
  const zeroText = new Map<number, string>();
  const modTexts: { pi: number; bit: number; text: string }[] = [];
  plan.forEach((pl, i) => { if (pl.kind === 'flip' && pl.x < 0) zeroText.set(pl.pi, r3[i]!.text ?? ''); });
  plan.forEach((pl, i) => {
    const r = r3[i]!;
    if (pl.kind === 'type') {
      if (r.text?.includes('0x3800')) i16.add(`${pl.pi}:${pl.f}`);
      return;
    }
    if (pl.kind === 'class') {
      if (r.text && !r.invalid && r.size === 8) classes.set(`${pl.pi}:${pl.f}`, (classes.get(`${pl.pi}:${pl.f}`) ?? 0) | pl.x);
      return;
    }
    if (pl.x < 0) return;
    if (!r.text || r.size !== 8) { z[pl.pi] = (z[pl.pi]! | (1 << pl.x)) >>> 0; return; }
    if (r.text === zeroText.get(pl.pi)) return;
    if (MOD_BITS.has(pl.x)) {
      mods[pl.pi] = (mods[pl.pi]! | (1 << pl.x)) >>> 0;
      modTexts.push({ pi: pl.pi, bit: pl.x, text: r.text });
    }
    else if (!SEL_BITS[pl.x]) throw new Error(`${t.mcpu} ${e} op ${partial[pl.pi]!.op}: bit ${pl.x} changes text: ${r.text}`);
  });
  // Modifiers LLVM decodes but llvm-mc refuses to assemble (GFX10's omod): the assembler refuses them too.
  const noAsm = partial.map(() => 0);
  assembleLines(t.mcpu, modTexts.map((m) => m.text)).forEach((a, i) => {
    if (!a.words) noAsm[modTexts[i]!.pi] = (noAsm[modTexts[i]!.pi]! | (1 << modTexts[i]!.bit)) >>> 0;
  });
  const out = new Map<number, SdwaOpInfo>();
  partial.forEach((p, pi) => {
    const plainInfo = t.plain[e][p.op]!;
    const plainType = (f: string) => plainInfo.ops.find((o) => o.f === (f === 'src1' ? (e === 'VOP1' ? 'src1' : 'vsrc1') : f))?.t
      ?? plainInfo.ops.find((o) => o.f === f)?.t;
    const ops: ValuOperand[] = p.bt.ops.map((o, i) => {
      const f = p.attr[i]!;
      if (f === '') return { f: '', k: 'x', n: regCount(o), x: o };
      if (f === 'vdst') return { f, k: 'v', n: regCount(o) };
      if (f === 'sdst') return { f, k: 's', n: regCount(p.sdText[i] ?? o) };
      // The plain form's typing, except where the SDWA text shows 16-bit integer constants.
      const pt = plainType(f);
      const ty = i16.has(`${pi}:${f}`) ? 'i16' : pt === 'i16' ? 'f32' : pt;
      return { f, k: 'src', n: regCount(o), ...(ty ? { t: ty } : { t: 'f32' as const }), ok: classes.get(`${pi}:${f}`) ?? 0 };
    });
    const txt = p.text;
    const sel = (txt.includes(' dst_sel:') ? 1 : 0) | (txt.includes(' dst_unused:') ? 2 : 0) | (txt.includes(' src0_sel:') ? 4 : 0) | (txt.includes(' src1_sel:') ? 8 : 0);
    out.set(p.op, { m: p.bt.m, ops, z: [0, z[pi]!], mods: mods[pi]!, ...(noAsm[pi] ? { na: noAsm[pi] } : {}), sel });
  });
  return out;
}

// ---------------------------------------------------------------------------------------------
// Golden cases

function goldenProbes(e: SdwaEnc, table: Map<number, SdwaOpInfo>, seed: number, perOp: number): number[][] {
  const r = rng(seed);
  const ri = (n: number) => Math.floor(r() * n);
  const scalars = [0, 1, 5, 100, 101, 102, 104, 106, 107, 108, 115, 123, 124, 125, 126, 127, 128, 129, 150, 192, 193, 200, 208, 235, 236, 239, 240, 241, 242, 246, 247, 248, 251, 252, 253, 254];
  const out: number[][] = [];
  const pickSrc = (o: ValuOperand): number => {
    for (let k = 0; k < 20; k++) {
      const v = ri(2) ? 256 + ri(256) : scalars[ri(scalars.length)]!;
      if (srcClass(v) & (o.ok ?? 0)) return v;
    }
    return 256 + ri(256);
  };
  for (const [op, info] of [...table.entries()].sort((a, b) => a[0] - b[0])) {
    for (let k = 0; k < perOp; k++) {
      const v: Vals = {};
      for (const o of info.ops) {
        if (o.k === 'v') v.vdst = k === 0 ? 1 : ri(256);
        else if (o.k === 's') { if (ri(2)) v.sdst = ri(5) === 0 ? 106 : ri(106); }
        else if (o.k === 'src') (v as Record<string, number>)[o.f] = pickSrc(o);
      }
      let bits = 0;
      if (e !== 'VOPC') bits |= ri(7) << 8 | ri(4) << 11;
      bits |= ri(7) << 16 | (info.sel & 8 ? ri(7) << 24 : 0);
      // Each printed modifier with probability 1/3.
      for (let b = 8; b < 32; b++) if ((info.mods >>> b) & 1 && ri(3) === 0) bits |= 1 << b;
      out.push(enc(e, op, { ...v, bits: bits >>> 0 }));
    }
    // Must-be-zero bits set (unknown), a few per opcode.
    const zb = [...Array(32).keys()].filter((b) => (info.z[1]! >>> b) & 1);
    for (let k = 0; k < Math.min(2, zb.length); k++) out.push(enc(e, op, { bits: (DWORD_SELS & (e === 'VOPC' ? ~0xff00 : e === 'VOP1' ? ~(7 << 24) : ~0)) | (1 << zb[ri(zb.length)]!) }));
  }
  return out;
}

function buildGolden(mcpu: string, probes: number[][], mattr = ''): GoldenCase[] {
  const dis = probe(mcpu, probes, mattr);
  const seen = new Set<string>();
  const cases: { words: number[]; text: string | null }[] = [];
  dis.forEach((d, i) => {
    const key = d.text ?? `?${probes[i]!.join(',')}`;
    if (seen.has(key)) return;
    seen.add(key);
    // LLVM then reads the SDWA dword as an instruction of its own: only the first word is unknown.
    if (d.text === null) { cases.push({ words: probes[i]!, text: null }); return; }
    if (d.invalid || d.size !== 8) return;
    cases.push({ words: probes[i]!.slice(0, d.size / 4), text: d.text });
  });
  const asm = assembleLines(mcpu, cases.map((c) => c.text ?? ''), mattr);
  return cases.map((c, i) => ({ words: c.words, text: c.text, asm: c.text === null ? null : asm[i]!.words }));
}

function genFile(t: SdwaTarget, tables: Record<SdwaEnc, Map<number, SdwaOpInfo>>): string {
  const lines = [
    `/**`,
    ` * GENERATED by tools/gen/amd/gen-sdwa.ts from llvm-objdump ${llvmVersion()} (-mcpu=${t.mcpu}): do not edit.`,
    ` * The SDWA forms of the VOP1/VOP2/VOPC opcodes of ${t.mcpu}: mnemonic, operands (field, kind, width,`,
    ` * constant typing, accepted source classes), must-be-zero bits of [VALU word, SDWA dword], the SDWA`,
    ` * modifier bits that print (and those llvm-mc will not assemble), and which selectors print (1 dst_sel,`,
    ` * 2 dst_unused, 4 src0_sel, 8 src1_sel).`,
    ` */`,
    `import type { SdwaOpInfo } from '../sdwa.js';`,
  ];
  for (const e of ENCS) {
    lines.push('', `export const ${e}_SDWA_OPS: Readonly<Record<number, SdwaOpInfo>> = {`);
    for (const [op, info] of [...tables[e].entries()].sort((a, b) => a[0] - b[0])) lines.push(`  ${op}: ${JSON.stringify(info)},`);
    lines.push('};');
  }
  lines.push('');
  return lines.join('\n');
}

export function generate(): Record<string, string> {
  const files: Record<string, string> = {};
  for (const t of SDWA_TARGETS) {
    const tables = {} as Record<SdwaEnc, Map<number, SdwaOpInfo>>;
    for (const e of ENCS) tables[e] = t.wave64 ? markLaneMasks(t, e, inferEncoding(t, e)) : inferEncoding(t, e);
    files[`${t.genDir}/sdwa.gen.ts`] = genFile(t, tables);
    ENCS.forEach((e, i) => {
      files[`${t.goldenDir}/${e.toLowerCase()}-sdwa.tsv`] = formatGolden(buildGolden(t.mcpu, goldenProbes(e, tables[e], 501 + i, e === 'VOPC' ? 4 : 8)));
      const lanes = new Map([...tables[e]].filter(([, info]) => info.ops.some((o) => o.lm)));
      if (t.wave64 && lanes.size) {
        files[`${t.goldenDir}/${e.toLowerCase()}-sdwa-w64.tsv`] = formatGolden(buildGolden(t.mcpu, goldenProbes(e, lanes, 601 + i, 3), WAVE64));
      }
    });
  }
  return files;
}
