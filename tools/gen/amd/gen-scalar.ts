/**
 * Generator for the scalar encodings (SOP1, SOP2, SOPK, SOPC, SOPP, SMEM): enumerates each opcode
 * field through llvm-objdump, records the mnemonic and infers each operand (which field, how wide,
 * how it prints) from LLVM's text, learns the symbolic-operand tables (s_waitcnt, depctr,
 * s_delay_alu, sendmsg, hwreg, s_version) by probing, and builds golden files from random probes.
 * Target-parametrised: a target is its mcpu, its layouts and where its files go.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LLVM_MC, LLVM_OBJDUMP, assembleLines, cached, disassembleProbes, llvmVersion } from '../llvm.js';
import { buildGolden, formatGolden, rng } from '../golden.js';
import { GFX9_SPACE, GFX10_SPACE, GFX11_SPACE, SRC, splitOperands, type OperandSpace } from '../../../src/amd/isa/operands.js';
import { GFX10_SCALAR } from '../../../src/amd/isa/gfx10/layouts.js';
import { GFX9_SCALAR } from '../../../src/amd/isa/gfx9/layouts.js';
import { nullValue, sregText, ssrcText } from '../../../src/amd/isa/gfx11/scalar-operands.js';
import {
  GFX11_SCALAR, putField, type NamedField, type OperandKind, type ScalarClass, type ScalarLayout, type ScalarOp,
  type AsmClass, type ScalarOperand, type ScalarSpecials,
} from '../../../src/amd/isa/gfx11/scalar-layout.js';

export interface ScalarGenTarget {
  readonly mcpu: string;
  readonly layouts: readonly ScalarLayout[];
  /** Repo-relative directory of the generated tables, and of the golden files. */
  readonly srcDir: string;
  readonly goldenDir: string;
  /** The scalar operand space (SGPR count, specials, null, sources). */
  readonly space: OperandSpace;
  /** Targets whose mnemonics are tried as assembler aliases on this one. */
  readonly aliasFrom: readonly string[];
}

const GFX1100: ScalarGenTarget = {
  mcpu: 'gfx1100', layouts: GFX11_SCALAR, space: GFX11_SPACE, srcDir: 'src/amd/isa/gfx11', goldenDir: 'test/golden/amd/gfx1100',
  aliasFrom: ['gfx1030', 'gfx900'],
};

const LIT = 0x12345678;
/** Base register values the operand inference recognises by number. */
const BASE: Record<string, number> = { sdst: 10, ssrc0: 20, ssrc1: 30, sdata: 8, sbase: 2, soffset: 20 };

function encode(L: ScalarLayout, op: number, vals: Readonly<Record<string, number>>): number[] {
  const w = [L.value >>> 0, 0];
  putField(w, L.op, op);
  for (const [k, v] of Object.entries(vals)) putField(w, L.fields[k]!, v);
  return L.dwords === 2 ? w : [w[0]!];
}

function splitText(t: string): { mnemonic: string; ops: string[] } {
  const k = t.indexOf(' ');
  if (k < 0) return { mnemonic: t, ops: [] };
  // LLVM's remarks (`/*Invalid register, operand has ...*/`) contain commas: keep them whole.
  const masked = t.slice(k + 1).replace(/\/\*[^*]*\*\//g, (m) => m.replace(/,/g, '\u0001'));
  return { mnemonic: t.slice(0, k), ops: splitOperands(masked).map((o) => o.replace(/\u0001/g, ',')) };
}

/** `s5` -> [5,1], `s[4:7]` -> [4,4], else null. */
function sgprOf(t: string): [number, number] | null {
  let m = /^s(\d+)$/.exec(t);
  if (m) return [Number(m[1]), 1];
  m = /^s\[(\d+):(\d+)\]$/.exec(t);
  if (m) return [Number(m[1]), Number(m[2]) - Number(m[1]) + 1];
  return null;
}

function baseVals(L: ScalarLayout): Record<string, number> {
  switch (L.name) {
    case 'SOP1': return { sdst: BASE.sdst!, ssrc0: BASE.ssrc0! };
    case 'SOP2': return { sdst: BASE.sdst!, ssrc0: BASE.ssrc0!, ssrc1: BASE.ssrc1! };
    case 'SOPC': return { ssrc0: BASE.ssrc0!, ssrc1: BASE.ssrc1! };
    case 'SOPK': return { sdst: BASE.sdst!, simm16: 0x1234 };
    case 'SOPP': return { simm16: 0 };
    // GFX9 says which of soffset/offset are present in imm/soe bits: set both (`s20 offset:0x10`).
    case 'SMEM': return { sbase: BASE.sbase!, sdata: BASE.sdata!, soffset: BASE.soffset!, offset: 0x10, ...(L.fields.imm ? { imm: 1, soe: 1 } : {}) };
  }
}

function withLit(p: number[]): number[] {
  return p.length === 1 ? [p[0]!, LIT] : p;
}

/** Classify a 16-bit immediate's printing from its texts at values 0, 3, 65, 0x1234. */
function immKind(t: readonly (string | undefined | null)[]): OperandKind | null {
  const [t0, t3, t65, t1234] = t;
  const any = (p: string): boolean => t.some((x) => x?.startsWith(p));
  if (any('hwreg(')) return 'hwreg';
  if (any('sendmsg(')) return 'sendmsg';
  if (t0?.includes('vmcnt(')) return 'waitcnt';
  if (t0?.startsWith('depctr_')) return 'depctr';
  if (t3?.startsWith('instid0(')) return 'delay';
  if (t0?.startsWith('UC_VERSION')) return 'version';
  if (t3 === '0x3') return 'hex';
  if (t1234 === '4660') return t0 === undefined ? 'udec_opt' : 'udec';
  if (t3 === '3' && t65 === '0x41') return 'u16';
  return null;
}

interface OpInfo {
  readonly op: number;
  readonly entry: ScalarOp;
  /** LLVM's text for the enumeration probe (a valid line to vary for the assembler probes). */
  readonly text: string;
}

/** Enumerate one encoding's opcodes and infer each opcode's operands. */
function enumerate(T: ScalarGenTarget, L: ScalarLayout): OpInfo[] {
  const base = baseVals(L);
  const baseAll = base;
  const probes: number[][] = [];
  for (let op = 0; op < L.opCount; op++) {
    probes.push(withLit(encode(L, op, base)));
    if (L.name === 'SOPP') probes.push(withLit(encode(L, op, { simm16: 3 })));
  }
  const res = disassembleProbes(T.mcpu, probes);
  const per = L.name === 'SOPP' ? 2 : 1;
  const found: { op: number; text: string; size: number; base?: Record<string, number> }[] = [];
  for (let op = 0; op < L.opCount; op++) {
    const r = res[op * per]!.text ? res[op * per]! : per === 2 && res[op * per + 1]!.text ? res[op * per + 1]! : null;
    if (r) found.push({ op, text: r.text!, size: r.size });
  }
  // GFX9 SMEM without address operands (s_memtime, s_memrealtime...) refuses imm/soe/sbase: ask
  // again for the opcodes not found with only sdata set.
  if (L.name === 'SMEM' && L.fields.imm) {
    const sdataOnly = { sdata: BASE.sdata! };
    const missing = Array.from({ length: L.opCount }, (_, op) => op).filter((op) => !found.some((f) => f.op === op));
    disassembleProbes(T.mcpu, missing.map((op) => encode(L, op, sdataOnly))).forEach((r, i) => {
      if (r.text) found.push({ op: missing[i]!, text: r.text, size: r.size, base: sdataOnly });
    });
    found.sort((a, b) => a.op - b.op);
  }
  // Immediate classification probes (SOPK/SOPP simm16) and the SMEM flag probes.
  const immVals = [0, 3, 65, 0x1234];
  const smemFlags = (['glc', 'dlc'] as const).filter((fl) => L.fields[fl]);
  const extra: number[][] = [];
  for (const f of found) {
    if (L.name === 'SOPK' || L.name === 'SOPP') for (const v of immVals) extra.push(withLit(encode(L, f.op, { ...base, simm16: v })));
    if (L.name === 'SMEM') for (const fl of smemFlags) extra.push(encode(L, f.op, { ...(f.base ?? base), [fl]: 1 }));
  }
  const ex = extra.length ? disassembleProbes(T.mcpu, extra) : [];
  const nEx = L.name === 'SMEM' ? smemFlags.length : L.name === 'SOPK' || L.name === 'SOPP' ? immVals.length : 0;

  const out: { op: number; entry: ScalarOp; used: Set<string>; text: string; base: Record<string, number> }[] = [];
  found.forEach((f, fi) => {
    const base = f.base ?? baseAll;
    const { mnemonic, ops } = splitText(f.text);
    const operands: ScalarOperand[] = [];
    const used = new Set<string>();
    const flags: string[] = [];
    let last = ops;
    // An SMEM offset operand prints as `s20 offset:0x10` (flags come from the glc/dlc probes).
    const hasOffset = L.name === 'SMEM' && ops.length > 0 && /offset:0x10$/.test(ops[ops.length - 1]!);
    if (hasOffset) last = ops.slice(0, -1);
    const immTexts = (idx: number): (string | undefined | null)[] => immVals.map((_, k) => {
      const t = ex[fi * nEx + k]!.text;
      return t === null ? null : splitText(t).ops[idx];
    });
    let text = f.text;
    last.forEach((o, idx) => {
      const r = sgprOf(o);
      if (r) {
        const field = Object.keys(base).find((k) => (k === 'sbase' ? base[k]! * 2 : base[k]) === r[0] && !used.has(k) && k !== 'simm16');
        if (!field) throw new Error(`${L.name} ${f.op} '${f.text}': operand ${o} matches no field`);
        used.add(field);
        operands.push({ field, kind: field === 'sbase' ? 'sbase' : field.startsWith('ssrc') ? 'ssrc' : 'sreg', dwords: r[1] });
        return;
      }
      if (L.name === 'SOP1' && o.startsWith('sendmsg(')) {
        used.add('ssrc0');
        operands.push({ field: 'ssrc0', kind: 'sendmsg' });
        return;
      }
      if (L.name === 'SMEM' && /^\d+$/.test(o) && Number(o) === BASE.sdata) {
        used.add('sdata');
        operands.push({ field: 'sdata', kind: 'imm7' });
        return;
      }
      // GFX9 s_set_gpr_idx_on/_mode: a 4-bit mask printed `gpr_idx(SRC0,...)` (hex above 15).
      const gprField = L.name === 'SOPC' ? 'ssrc1' : 'simm16';
      const g = (L.name === 'SOPC' || L.name === 'SOPP') && !used.has(gprField) ? gprIdxNames(T, L, f.op, gprField, base, idx) : null;
      if (g) {
        used.add(gprField);
        operands.push({ field: gprField, kind: 'gpridx', names: g.names });
        // The enumeration value may print as plain hex, which llvm-mc refuses: vary a valid line instead.
        text = g.text;
        return;
      }
      if ((L.name === 'SOPK' || L.name === 'SOPP') && f.size === 8 && o === '0x' + LIT.toString(16)) {
        operands.push({ field: 'literal', kind: 'lit' });
        return;
      }
      if (L.name === 'SOPK' || L.name === 'SOPP') {
        const k = immKind(immTexts(idx));
        if (!k) throw new Error(`${L.name} ${f.op} '${f.text}': cannot classify immediate ${JSON.stringify(immTexts(idx))}`);
        used.add('simm16');
        operands.push({ field: 'simm16', kind: k });
        return;
      }
      throw new Error(`${L.name} ${f.op} '${f.text}': unrecognised operand ${o}`);
    });
    if (L.name === 'SOPP' && ops.length === 0) {
      const k = immKind(immTexts(0));
      if (k === 'udec_opt') {
        used.add('simm16');
        operands.push({ field: 'simm16', kind: k });
      }
    }
    if (L.name === 'SMEM') {
      for (const [k, name] of smemFlags.entries()) {
        const t = ex[fi * nEx + k]!.text;
        if (t === f.text + ' ' + name) {
          flags.push(name);
          used.add(name);
        }
      }
    }
    if (hasOffset) {
      used.add('soffset');
      used.add('offset');
      if (L.fields.imm) { used.add('imm'); used.add('soe'); }
      operands.push({ field: 'soffset', kind: 'smemoff' });
    }
    const entry: ScalarOp = { mnemonic, operands, ...(flags.length ? { flags } : {}) };
    out.push({ op: f.op, entry, used, text, base });
  });

  // Register-only sources: LLVM prints a constant there with an `/*Invalid immediate*/` remark.
  const roProbes: number[][] = [];
  const roWhere: [number, number][] = [];
  out.forEach((o, i) => o.entry.operands.forEach((p, k) => {
    if (p.kind !== 'ssrc') return;
    roProbes.push(withLit(encode(L, o.op, { ...base, [p.field]: 128 })));
    roWhere.push([i, k]);
  }));
  if (roProbes.length) disassembleProbes(T.mcpu, roProbes).forEach((r, j) => {
    if (!r.text?.includes('/*Invalid immediate*/')) return;
    const [i, k] = roWhere[j]!;
    const e = out[i]!.entry;
    out[i]!.entry = { ...e, operands: e.operands.map((p, kk) => (kk === k ? { ...p, regOnly: true } : p)) };
  });

  // Bits outside the opcode and the used fields: flip each; if LLVM then rejects the word, it must be zero.
  const flipProbes: number[][] = [];
  const flipBits: [number, number, number][] = [];
  out.forEach((o, i) => {
    const p = encode(L, o.op, o.base);
    for (let word = 0; word < L.dwords; word++) {
      let usedMask = word === 0 ? L.mask | (((1 << L.op.bits) - 1) << L.op.lo) : 0;
      for (const fname of o.used) {
        const b = L.fields[fname];
        if (b && b.word === word) usedMask |= (b.bits === 32 ? -1 : ((1 << b.bits) - 1)) << b.lo;
      }
      for (let bit = 0; bit < 32; bit++) {
        if ((usedMask >>> bit) & 1) continue;
        const q = p.slice();
        q[word] = (q[word]! ^ (1 << bit)) >>> 0;
        flipProbes.push(withLit(q));
        flipBits.push([i, word, bit]);
      }
    }
  });
  const fr = disassembleProbes(T.mcpu, flipProbes);
  const zero: number[][] = out.map(() => [0, 0]);
  fr.forEach((r, k) => {
    const [i, word, bit] = flipBits[k]!;
    if (r.text === null) zero[i]![word] = (zero[i]![word]! | (1 << bit)) >>> 0;
  });
  return out.map((o, i) => {
    const z0 = zero[i]![0]!;
    const z1 = zero[i]![1]!;
    return { op: o.op, text: o.text, entry: { ...o.entry, ...(z0 ? { zero0: z0 } : {}), ...(z1 ? { zero1: z1 } : {}) } };
  });
}

// ---------------------------------------------------------------------------------------------
// What llvm-mc accepts: vary one operand of a valid line over one example per register class.

function classExamples(n: number, src: boolean): [AsmClass, string][] {
  const r = (p: string, lo: number): string => (n === 1 ? `${p}${lo}` : `${p}[${lo}:${lo + n - 1}]`);
  const ex: [AsmClass, string][] = [['sgpr', r('s', 0)], ['ttmp', r('ttmp', 0)], ['null', 'null']];
  if (n === 1) ex.push(['vcc', 'vcc_lo'], ['m0', 'm0'], ['exec', 'exec_lo']);
  if (n === 2) ex.push(['vcc', 'vcc'], ['exec', 'exec']);
  if (src) {
    for (const nm of ['src_shared_base', 'src_shared_limit', 'src_private_base', 'src_private_limit', 'src_pops_exiting_wave_id', 'src_vccz', 'src_execz', 'src_scc']) ex.push([nm as AsmClass, nm]);
    ex.push(['inline', '1'], ['literal', '0x12345']);
  }
  return ex;
}

function learnAsmRules(T: ScalarGenTarget, infos: readonly OpInfo[]): OpInfo[] {
  const lines: string[] = [];
  const where: { i: number; k: number; cls: AsmClass | 'negoff' | 'wide' }[] = [];
  infos.forEach((info, i) => {
    const { mnemonic, ops } = splitText(info.text);
    info.entry.operands.forEach((o, k) => {
      if (o.kind === 'smemoff') {
        lines.push(`${mnemonic} ${[...ops.slice(0, k), '-0x10'].join(', ')}`);
        where.push({ i, k, cls: 'negoff' });
        return;
      }
      if (o.field === 'simm16' && o.kind !== 'udec_opt') {
        // Does llvm-mc take a wider integer here (truncating it to 16 bits) or refuse it?
        const v = ops.slice();
        v[k] = '0x10000';
        lines.push(`${mnemonic} ${v.join(', ')}`);
        where.push({ i, k, cls: 'wide' });
        return;
      }
      if (o.kind !== 'sreg' && o.kind !== 'sbase' && o.kind !== 'ssrc') return;
      for (const [cls, t] of classExamples(o.dwords ?? 1, o.kind === 'ssrc')) {
        const v = ops.slice();
        v[k] = t;
        lines.push(`${mnemonic} ${v.join(', ')}`);
        where.push({ i, k, cls });
      }
    });
  });
  const res = assembleLines(T.mcpu, lines);
  const reject = infos.map((x) => x.entry.operands.map(() => new Set<AsmClass>()));
  const negoff = new Set<number>();
  const wide = new Set<number>();
  res.forEach((r, j) => {
    const w = where[j]!;
    if (w.cls === 'wide') {
      if (r.words) wide.add(w.i);
      return;
    }
    if (r.words) return;
    if (w.cls === 'negoff') negoff.add(w.i);
    else reject[w.i]![w.k]!.add(w.cls);
  });
  return infos.map((info, i) => {
    const operands = info.entry.operands.map((o, k) => {
      const rj = [...reject[i]![k]!];
      return rj.length ? { ...o, asmReject: rj } : o;
    });
    return {
      ...info,
      entry: { ...info.entry, operands, ...(negoff.has(i) ? { asmUnsignedOffset: true } : {}), ...(wide.has(i) ? { asmTruncate: true } : {}) },
    };
  });
}

// ---------------------------------------------------------------------------------------------
// Register-field sweeps: every value of every register operand, once per operand signature. LLVM
// prints some values the operand's register class forbids with a remark (`m0/*Invalid register,
// operand has 'SReg_32_XM0_XEXEC' register class*/`): those texts are recorded per operand.

function learnRemarks(T: ScalarGenTarget, L: ScalarLayout, infos: readonly OpInfo[]): { infos: OpInfo[]; sweeps: number[][] } {
  const sig = (o: ScalarOperand): string => JSON.stringify([o.field, o.kind, o.dwords, o.regOnly]);
  const reps = new Map<string, { op: number; k: number; field: string }>();
  infos.forEach((info) => info.entry.operands.forEach((o, k) => {
    if (o.kind !== 'sreg' && o.kind !== 'sbase' && o.kind !== 'ssrc' && o.kind !== 'smemoff') return;
    if (!reps.has(sig(o))) reps.set(sig(o), { op: info.op, k, field: o.kind === 'smemoff' ? 'soffset' : o.field });
  }));
  const base = baseVals(L);
  const sweeps: number[][] = [];
  const owner: { s: string; v: number; k: number }[] = [];
  for (const [s, r] of reps) {
    const bits = L.fields[r.field]!.bits;
    for (let v = 0; v < 1 << bits; v++) {
      sweeps.push(withLit(encode(L, r.op, { ...base, [r.field]: v })));
      owner.push({ s, v, k: r.k });
    }
  }
  const remarks = new Map<string, Record<number, string>>();
  const invalid = new Map<string, number[]>();
  const kindOf = new Map<string, ScalarOperand>();
  infos.forEach((info) => info.entry.operands.forEach((o) => kindOf.set(sig(o), o)));
  /** Whether the codec's naming rules give this value a name (before remarks and invalid lists). */
  const named = (o: ScalarOperand, v: number): boolean => {
    const n = o.dwords ?? 1;
    switch (o.kind) {
      case 'sreg': return sregText(T.space, v, n) !== null;
      case 'sbase': return sregText(T.space, v * 2, n) !== null;
      case 'ssrc': return v === SRC.LITERAL || ssrcText(T.space, v, n, undefined) !== null;
      default: return sregText(T.space, v, 1) !== null; // smemoff: soffset
    }
  };
  disassembleProbes(T.mcpu, sweeps).forEach((res, j) => {
    const { s, v, k } = owner[j]!;
    const o = kindOf.get(s)!;
    if (!res.text) {
      // LLVM rejects a value our naming rules accept: the codec must reject it too.
      if (named(o, v)) invalid.set(s, [...(invalid.get(s) ?? []), v]);
      return;
    }
    const text = splitText(res.text).ops[k];
    if (!named(o, v) && !text?.includes('/*Invalid register')) {
      throw new Error(`${L.name} ${o.field}=${v}: LLVM prints '${res.text}' but the naming rules reject it`);
    }
    const t = splitText(res.text).ops[k];
    if (t === undefined || !t.includes('/*')) return;
    if (!remarks.has(s)) remarks.set(s, {});
    remarks.get(s)![v] = t;
  });
  return {
    sweeps,
    infos: infos.map((info) => ({
      ...info,
      entry: {
        ...info.entry,
        operands: info.entry.operands.map((o) => {
          const bad = invalid.get(sig(o));
          const withInvalid = bad ? { ...o, invalid: bad } : o;
          const rm = remarks.get(sig(o));
          if (!rm || o.kind === 'smemoff') return withInvalid;
          // Constants in register-only sources are printed by the codec (`/*Invalid immediate*/`).
          const keep = Object.fromEntries(Object.entries(rm).filter(([, t]) => t.includes('/*Invalid register')));
          return Object.keys(keep).length ? { ...withInvalid, remarks: keep } : withInvalid;
        }),
      },
    })),
  };
}

// ---------------------------------------------------------------------------------------------
// Mnemonic aliases: older generations' names llvm-mc still takes for this target (s_load_dword,
// s_andn2_b32...). Candidates are the names LLVM prints for `aliasFrom` targets; a candidate is an
// alias when llvm-mc assembles that target's text for this one, to the opcode we then look up.

function learnAliases(T: ScalarGenTarget, ops: Record<ScalarClass, OpInfo[]>): Record<ScalarClass, Record<string, string>> {
  const known = new Set<string>();
  for (const L of T.layouts) for (const o of ops[L.name]) known.add(o.entry.mnemonic);
  const texts: string[] = [];
  for (const mcpu of T.aliasFrom) {
    for (const L of T.layouts) {
      const probes: number[][] = [];
      for (let op = 0; op < L.opCount; op++) probes.push(withLit(encode(L, op, baseVals(L))));
      for (const r of disassembleProbes(mcpu, probes)) {
        if (r.text && !known.has(splitText(r.text).mnemonic)) texts.push(r.text);
      }
    }
  }
  const out = Object.fromEntries(T.layouts.map((L) => [L.name, {} as Record<string, string>])) as Record<ScalarClass, Record<string, string>>;
  const seen = new Map<string, string>();
  assembleLines(T.mcpu, texts).forEach((r, i) => {
    if (!r.words) return;
    const alias = splitText(texts[i]!).mnemonic;
    const w0 = r.words[0]!;
    const L = T.layouts.find((l) => ((w0 & l.mask) >>> 0) === (l.value >>> 0) && ((w0 & (l.notMask ?? 0)) >>> 0) !== ((l.notValue ?? 1) >>> 0));
    if (!L) return;
    const op = (w0 >>> L.op.lo) & ((1 << L.op.bits) - 1);
    const target = ops[L.name].find((o) => o.op === op)?.entry.mnemonic;
    if (!target) return;
    const prev = seen.get(alias);
    if (prev !== undefined && prev !== `${L.name}:${target}`) throw new Error(`alias ${alias} maps to both ${prev} and ${target}`);
    seen.set(alias, `${L.name}:${target}`);
    out[L.name][alias] = target;
  });
  for (const L of T.layouts) out[L.name] = Object.fromEntries(Object.entries(out[L.name]).sort(([a], [b]) => (a < b ? -1 : 1)));
  return out;
}

// ---------------------------------------------------------------------------------------------
// Branches: llvm-objdump follows a PC-relative simm16 with its target (`<.text+0x10>`).

function learnBranches(T: ScalarGenTarget, L: ScalarLayout, infos: readonly OpInfo[]): OpInfo[] {
  const cand = infos.filter((i) => i.entry.operands.some((o) => o.field === 'simm16'));
  if (cand.length === 0) return [...infos];
  const dir = mkdtempSync(join(tmpdir(), 'gpusim-branch-'));
  try {
    // One probe per 16 bytes, simm16 = 1 (target = next slot), padded with the layout's own zero word.
    const buf = Buffer.alloc(cand.length * 16);
    cand.forEach((c, i) => {
      const w = withLit(encode(L, c.op, { ...baseVals(L), simm16: 1 }));
      for (let k = 0; k < 4; k++) buf.writeUInt32LE((k < w.length ? w[k]! : 0xbf800000) >>> 0, i * 16 + k * 4);
    });
    // Remembered in the LLVM answer cache (llvm.ts) by the target and the probe bytes.
    const text = cached(['scalar branch probes', T.mcpu, buf], () => {
      writeFileSync(join(dir, 'b.bin'), buf);
      writeFileSync(join(dir, 'b.s'), `.text\n.incbin "${join(dir, 'b.bin')}"\n`);
      execFileSync(LLVM_MC, ['-arch=amdgcn', `-mcpu=${T.mcpu}`, '-filetype=obj', '-o', join(dir, 'b.o'), join(dir, 'b.s')]);
      return execFileSync(LLVM_OBJDUMP, ['-d', `--mcpu=${T.mcpu}`, join(dir, 'b.o')], { encoding: 'utf8', maxBuffer: 1 << 28 });
    });
    const branchAt = new Set<number>();
    for (const line of text.split('\n')) {
      const m = /\/\/ ([0-9A-Fa-f]+): [0-9A-Fa-f ]+ <[^>]+>\s*$/.exec(line);
      if (m) branchAt.add(parseInt(m[1]!, 16));
    }
    const br = new Set(cand.filter((_, i) => branchAt.has(i * 16)).map((c) => c.op));
    return infos.map((i) => (br.has(i.op) ? { ...i, entry: { ...i.entry, objdumpTarget: true } } : i));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------------------------------------
// Symbolic operand tables

/** The names of a gpr_idx mask's bits (values 1, 2, 4, 8 print `gpr_idx(NAME)`), or null if this operand is not one. */
function gprIdxNames(T: ScalarGenTarget, L: ScalarLayout, op: number, field: string, base: Record<string, number>, idx: number): { names: string[]; text: string } | null {
  const r = disassembleProbes(T.mcpu, [0, 1, 2, 4, 8].map((v) => withLit(encode(L, op, { ...base, [field]: v }))));
  const t = r.map((x) => (x.text === null ? '' : splitText(x.text).ops[idx] ?? ''));
  if (t[0] !== 'gpr_idx()') return null;
  return { names: t.slice(1).map((x) => /^gpr_idx\((\w+)\)$/.exec(x)![1]!), text: r[1]!.text! };
}

function probeTexts(T: ScalarGenTarget, L: ScalarLayout, op: number, vals: readonly number[], extra: Record<string, number> = {}): string[] {
  const r = disassembleProbes(T.mcpu, vals.map((v) => withLit(encode(L, op, { ...extra, simm16: v }))));
  return r.map((x, i) => {
    if (x.text === null) throw new Error(`probe ${L.name} ${op} ${vals[i]} unknown`);
    const k = x.text.indexOf(' ');
    return k < 0 ? '' : x.text.slice(k + 1);
  });
}

const bits16 = Array.from({ length: 16 }, (_, b) => 1 << b);

function parseCalls(t: string): [string, string][] {
  return [...t.matchAll(/([A-Za-z_0-9]+)\(([^()]*)\)/g)].map((m) => [m[1]!, m[2]!]);
}

/** Learn fields `name(value)` by single-bit probes; defaults are all-ones (LLVM prints all fields when every one is at its default). */
function learnCounterFields(T: ScalarGenTarget, L: ScalarLayout, op: number): NamedField[] {
  const t0 = probeTexts(T, L, op, [0])[0]!;
  const order = parseCalls(t0).map(([n]) => n);
  const single = probeTexts(T, L, op, bits16);
  /** Per field: encoding bit of each field bit. */
  const bitsOf = new Map<string, Map<number, number>>();
  const add = (name: string, k: number, b: number): void => {
    if (!bitsOf.has(name)) bitsOf.set(name, new Map());
    bitsOf.get(name)!.set(k, b);
  };
  single.forEach((t, b) => {
    if (!t.includes('(')) return; // printed raw: a bit no field owns
    const calls = new Map(parseCalls(t));
    for (const name of order) {
      const v = calls.get(name);
      if (v !== undefined && Number(v) !== 0) {
        const k = Math.log2(Number(v));
        if (!Number.isInteger(k)) throw new Error(`odd field value ${name}(${v})`);
        add(name, k, b);
      } else if (v === undefined && !calls.has(name)) {
        add(name, 0, b); // a one-bit field whose default is 1 drops out when its bit is set
      }
    }
  });
  return order.map((name) => {
    const m = bitsOf.get(name);
    if (!m || m.size === 0) throw new Error(`no bits found for ${name}`);
    const enc = [...m.keys()].sort((a, b) => a - b).map((k) => m.get(k)!);
    const lo = enc[0]!;
    const bits = enc.length;
    // GFX9/GFX10 split vmcnt over two bit ranges: keep the encoding bit of every field bit.
    const split = enc.some((b, k) => b !== lo + k) ? { split: enc } : {};
    return { name, lo, bits, dflt: (1 << bits) - 1, ...split };
  });
}

function learnSpecials(T: ScalarGenTarget, ops: Record<ScalarClass, OpInfo[]>): ScalarSpecials {
  const SOPP = T.layouts.find((l) => l.name === 'SOPP')!;
  const SOPK = T.layouts.find((l) => l.name === 'SOPK')!;
  /** The first opcode with an operand of this kind, or null when the target has none (GFX10 has no s_delay_alu). */
  const opOf = (cls: ScalarClass, kind: OperandKind): number | null =>
    ops[cls].find((x) => x.entry.operands.some((p) => p.kind === kind))?.op ?? null;
  const waitOp = opOf('SOPP', 'waitcnt');
  const depOp = opOf('SOPP', 'depctr');
  const delayOp = opOf('SOPP', 'delay');
  const sendOp = opOf('SOPP', 'sendmsg');
  const hwOp = opOf('SOPK', 'hwreg');
  const verOp = opOf('SOPK', 'version');
  return {
    waitcnt: waitOp === null ? [] : learnCounterFields(T, SOPP, waitOp),
    depctr: depOp === null ? [] : learnDepctr(T, SOPP, depOp),
    delay: delayOp === null ? [] : learnDelay(T, SOPP, delayOp),
    ...(sendOp === null ? { sendmsgMask: 0, sendmsg: {} } : learnSendmsg(T, SOPP, sendOp)),
    ...(hwOp === null ? { hwregFields: NO_HWREG, hwreg: {} } : learnHwreg(T, SOPK, hwOp)),
    ...(verOp === null ? { versionMask: 0, version: {}, versionFlags: [] } : learnVersion(T, SOPK, verOp)),
  };
}

const NO_HWREG = {
  id: { name: 'id', lo: 0, bits: 0, dflt: 0 }, offset: { name: 'offset', lo: 0, bits: 0, dflt: 0 }, size: { name: 'size', lo: 0, bits: 0, dflt: 0 },
};

function learnDepctr(T: ScalarGenTarget, SOPP: ScalarLayout, depOp: number): NamedField[] {
  const depctr = learnCounterFields(T, SOPP, depOp);
  // Verify every field's default is all-ones: the all-defaults value prints every field at its default.
  const allDef = depctr.reduce((a, f) => a | (f.dflt << f.lo), 0);
  const allText = probeTexts(T, SOPP, depOp, [allDef])[0]!;
  const expect = depctr.map((f) => `${f.name}(${f.dflt})`).join(' ');
  if (allText !== expect) throw new Error(`depctr defaults: '${allText}' != '${expect}'`);
  return depctr;
}

/** s_delay_alu: fields from single-bit probes, names from every value of each field. */
function learnDelay(T: ScalarGenTarget, SOPP: ScalarLayout, delayOp: number): NamedField[] {
  const single = probeTexts(T, SOPP, delayOp, bits16);
  const dbits = new Map<string, number[]>();
  single.forEach((t, b) => {
    const c = parseCalls(t);
    if (c.length === 1) {
      if (!dbits.has(c[0]![0])) dbits.set(c[0]![0], []);
      dbits.get(c[0]![0])!.push(b);
    }
  });
  const delay: NamedField[] = [];
  for (const [name, bs] of dbits) {
    const lo = Math.min(...bs);
    const bits = bs.length;
    const vals = Array.from({ length: 1 << bits }, (_, v) => v << lo);
    const names: Record<number, string> = {};
    probeTexts(T, SOPP, delayOp, vals).forEach((t, v) => {
      if (v === 0) return;
      const m = new RegExp(`^${name}\\((.*)\\)$`).exec(t);
      if (!m) throw new Error(`delay ${name} ${v}: '${t}'`);
      names[v] = m[1]!;
    });
    delay.push({ name, lo, bits, dflt: 0, names });
  }
  return delay.sort((a, b) => a.lo - b.lo);
}

/** sendmsg: ids 0..255 and which higher bits a named message ignores. */
function learnSendmsg(
  T: ScalarGenTarget, SOPP: ScalarLayout, sendOp: number,
): { sendmsgMask: number; sendmsg: Record<number, string>; sendmsgCodes?: Record<number, string> } {
  // Pre-GFX11 messages carry an operation (id 2 = MSG_GS with op 2 prints `sendmsg(MSG_GS, GS_OP_EMIT, 0)`):
  // learn LLVM's text for every id | op << 4 | stream << 8.
  const [gs] = probeTexts(T, SOPP, sendOp, [0x22]);
  if (gs!.startsWith('sendmsg(') && gs!.includes(',') && !/^sendmsg\(\d/.test(gs!)) {
    const sendmsgCodes: Record<number, string> = {};
    probeTexts(T, SOPP, sendOp, Array.from({ length: 0x400 }, (_, i) => i)).forEach((t, v) => {
      if (t.startsWith('sendmsg(')) sendmsgCodes[v] = t;
    });
    // The fields LLVM decodes: bits that change the text of a named message (others are ignored).
    let sendmsgMask = 0;
    probeTexts(T, SOPP, sendOp, bits16.map((b) => b ^ 0x22)).forEach((t, b) => { if (t !== gs) sendmsgMask |= 1 << b; });
    return { sendmsgMask, sendmsg: {}, sendmsgCodes };
  }
  const sendmsg: Record<number, string> = {};
  probeTexts(T, SOPP, sendOp, Array.from({ length: 256 }, (_, i) => i)).forEach((t, id) => {
    const m = /^sendmsg\(([A-Z_][A-Z_0-9]*)\)$/.exec(t);
    if (m) sendmsg[id] = m[1]!;
  });
  const named = Number(Object.keys(sendmsg)[0]);
  let sendmsgMask = 0;
  probeTexts(T, SOPP, sendOp, bits16.map((b) => b | named)).forEach((t, b) => {
    if (t !== `sendmsg(${sendmsg[named]})` || (1 << b) === named) sendmsgMask |= 1 << b;
  });
  // Bits inside the mask are the id: everything below the first ignored bit.
  for (let b = 0; b < 16; b++) if (!((sendmsgMask >> b) & 1)) { sendmsgMask = (1 << b) - 1; break; }
  return { sendmsgMask, sendmsg };
}

/** hwreg(id, offset, size): single-bit probes locate the three fields (size printed as value+1). */
function learnHwreg(T: ScalarGenTarget, SOPK: ScalarLayout, hwOp: number): Pick<ScalarSpecials, 'hwregFields' | 'hwreg'> {
  const hwT = probeTexts(T, SOPK, hwOp, bits16, { sdst: 0 });
  const comp: number[][] = [[], [], []];
  hwT.forEach((t, b) => {
    const m = /hwreg\(([^)]*)\)/.exec(t)!;
    const p = m[1]!.split(',').map((x) => x.trim());
    const id = /^\d+$/.test(p[0]!) ? Number(p[0]) : -1;
    const off = Number(p[1] ?? 0);
    const size = p.length > 1 ? Number(p[2]) - 1 : 31;
    if (id !== 0) comp[0]!.push(b); // a number, or a name (bit 0 gives HW_REG_MODE)
    else if (off > 0) comp[1]!.push(b);
    else if (size > 0) comp[2]!.push(b);
  });
  const mk = (name: string, bs: number[], dflt: number): NamedField => ({ name, lo: Math.min(...bs), bits: bs.length, dflt });
  const hwregFields = { id: mk('id', comp[0]!, 0), offset: mk('offset', comp[1]!, 0), size: mk('size', comp[2]!, (1 << comp[2]!.length) - 1) };
  const hwreg: Record<number, string> = {};
  const full = hwregFields.size.dflt << hwregFields.size.lo;
  probeTexts(T, SOPK, hwOp, Array.from({ length: 1 << hwregFields.id.bits }, (_, i) => (i << hwregFields.id.lo) | full), { sdst: 0 })
    .forEach((t, id) => {
      const m = /hwreg\(([A-Z_][A-Z_0-9]*)\)/.exec(t);
      if (m) hwreg[id] = m[1]!;
    });
  return { hwregFields, hwreg };
}

/** s_version: which bits are the version number, which are named flags. */
function learnVersion(T: ScalarGenTarget, SOPK: ScalarLayout, verOp: number): Pick<ScalarSpecials, 'versionMask' | 'version' | 'versionFlags'> {
  const vt = probeTexts(T, SOPK, verOp, bits16, { sdst: 0 });
  const v0 = probeTexts(T, SOPK, verOp, [0], { sdst: 0 })[0]!;
  let versionMask = 0;
  const versionFlags: { bit: number; name: string }[] = [];
  vt.forEach((t, b) => {
    if (/^\d+$/.test(t) || /^UC_VERSION_[A-Z0-9_]+$/.test(t)) versionMask |= 1 << b;
    else if (t.startsWith(v0 + '|')) versionFlags.push({ bit: b, name: t.slice(v0.length + 1) });
  });
  const version: Record<number, string> = {};
  probeTexts(T, SOPK, verOp, Array.from({ length: versionMask + 1 }, (_, i) => i), { sdst: 0 }).forEach((t, v) => {
    if (!/^\d+$/.test(t)) version[v] = t;
  });
  return { versionMask, version, versionFlags };
}

// ---------------------------------------------------------------------------------------------
// Golden probes

function goldenProbes(T: ScalarGenTarget, L: ScalarLayout, ops: readonly OpInfo[], sp: ScalarSpecials, seed: number): number[][] {
  const R = rng(seed);
  const S = T.space;
  const NULL = nullValue(S);
  const specials = Object.keys(S.specials).map(Number);
  const pairs = Object.keys(S.pairs).map(Number);
  const sources = Object.keys(S.sources).map(Number).filter((v) => v !== 254);
  const sgprs = S.sgprs;
  const ri = (n: number): number => Math.floor(R() * n);
  const pick = <X>(xs: readonly X[]): X => xs[ri(xs.length)]!;
  const sreg = (n: number): number => {
    const c = R();
    if (c < 0.55) { const s = ri(sgprs); return n > 1 && R() < 0.85 ? s & ~(Math.min(n, 4) - 1) : s; }
    if (c < 0.75) return SRC.TTMP0 + ri(16);
    return pick(specials);
  };
  const literals = [5, 0xffffffff, 0xfffffff0, 0x3f800000, 0xbf000000, 0x3e22f983, 0x80000000, 64, 65, 0x40800000];
  const ssrc = (n: number): number => {
    const c = R();
    if (c < 0.45) return sreg(n);
    if (c < 0.65) return 128 + ri(81);
    if (c < 0.75) return 240 + ri(9);
    if (c < 0.82) return pick(sources);
    if (c < 0.985) return 255;
    return pick([209, 220, 233, 249, 250, 254]);
  };
  const lit = (): number => (R() < 0.5 ? pick(literals) : Math.floor(R() * 0x100000000)) >>> 0;
  const out: number[][] = [];
  for (const { op, entry } of ops) {
    const kinds = new Set(entry.operands.map((o) => o.kind));
    const n = L.name === 'SOPP' && entry.operands.length === 0 ? 3 : L.name === 'SMEM' ? 40 : kinds.has('depctr') || kinds.has('delay') || kinds.has('sendmsg') || kinds.has('hwreg') || kinds.has('waitcnt') || kinds.has('version') ? 80 : 14;
    for (let k = 0; k < n; k++) {
      const vals: Record<string, number> = {};
      let l = lit();
      for (const o of entry.operands) {
        const w = o.dwords ?? 1;
        switch (o.kind) {
          case 'sreg': vals[o.field] = o.field === 'sdata' ? smemData(w) : sreg(w); break;
          case 'ssrc': vals[o.field] = ssrc(w); break;
          case 'sbase': vals[o.field] = R() < 0.8 ? ri(sgprs / 2) & ~((w >> 1) - 1) : pick([...(w === 2 ? [pairs[0]! / 2] : []), ...[0, 4, 8, 12].map((k) => (SRC.TTMP0 + k) / 2), NULL / 2, NULL / 2]); break;
          case 'imm7': vals[o.field] = ri(128); break;
          case 'sendmsg':
            if (o.field === 'ssrc0') vals[o.field] = R() < 0.6 ? pick(Object.keys(sp.sendmsg).map(Number)) : ri(256);
            else if (sp.sendmsgCodes) vals[o.field] = R() < 0.6 ? pick(Object.keys(sp.sendmsgCodes).map(Number)) : R() < 0.5 ? ri(0x400) : ri(0x10000);
            else vals[o.field] = R() < 0.5 ? pick(Object.keys(sp.sendmsg).map(Number)) | (R() < 0.3 ? ri(256) << 8 : 0) : R() < 0.5 ? ri(256) : ri(0x10000);
            break;
          case 'depctr': {
            const dflt = sp.depctr.reduce((a, f) => a | (f.dflt << f.lo), 0);
            let v = dflt;
            for (const f of sp.depctr) if (R() < 0.35) v = (v & ~(((1 << f.bits) - 1) << f.lo)) | (ri(1 << f.bits) << f.lo);
            vals[o.field] = R() < 0.85 ? v : ri(0x10000);
            break;
          }
          case 'waitcnt': {
            let v = 0;
            for (const f of sp.waitcnt) v |= (R() < 0.4 ? f.dflt : R() < 0.3 ? 0 : ri(f.dflt + 1)) << f.lo;
            vals[o.field] = R() < 0.9 ? v : ri(0x10000);
            break;
          }
          case 'delay': {
            let v = 0;
            for (const f of sp.delay) if (R() < 0.6) v |= ri(Object.keys(f.names ?? {}).length + 1) << f.lo;
            vals[o.field] = R() < 0.9 ? v : ri(0x10000);
            break;
          }
          case 'hwreg': {
            const F = sp.hwregFields;
            const id = R() < 0.6 ? pick(Object.keys(sp.hwreg).map(Number)) : ri(1 << F.id.bits);
            const off = R() < 0.3 ? 0 : ri(1 << F.offset.bits);
            const size = R() < 0.3 ? F.size.dflt : ri(1 << F.size.bits);
            vals[o.field] = (id << F.id.lo) | (off << F.offset.lo) | (size << F.size.lo);
            break;
          }
          case 'version': {
            let v = R() < 0.6 ? pick(Object.keys(sp.version).map(Number)) : ri(sp.versionMask + 1);
            for (const f of sp.versionFlags) if (R() < 0.3) v |= 1 << f.bit;
            vals[o.field] = R() < 0.9 ? v : ri(0x10000);
            break;
          }
          case 'lit': l = lit(); break;
          case 'smemoff': {
            vals.soffset = R() < 0.5 ? NULL : sreg(1) & 0x7f;
            if (L.fields.imm) { vals.imm = ri(2); vals.soe = ri(2); }
            const c = R();
            vals.offset = (c < 0.15 ? 0 : c < 0.5 ? ri(256) : c < 0.75 ? ri(1 << 21) : (1 << 21) - 1 - ri(4096)) >>> 0;
            break;
          }
          default:
            vals[o.field] = R() < 0.5 ? ri(65) : R() < 0.5 ? ri(0x10000) : 0xffff - ri(64);
        }
      }
      for (const fl of entry.flags ?? []) vals[fl] = ri(2);
      const p = encode(L, op, vals);
      // Occasionally set bits LLVM ignores (and, rarely, bits it rejects).
      if (R() < 0.1) {
        const free = (L.name === 'SMEM' ? 0x38000 : 0) | (entry.zero0 ?? 0);
        if (free) p[0] = (p[0]! | (1 << pick([...Array(32).keys()].filter((b) => (free >>> b) & 1)))) >>> 0;
      }
      if (L.name === 'SMEM' && R() < 0.1) p[1] = (p[1]! | (1 << (21 + ri(4)))) >>> 0;
      out.push(L.dwords === 1 ? [p[0]!, l] : p);
    }
    // Edge values of symbolic operands.
    if (kinds.has('waitcnt')) for (const v of [0, 0xffff, 0xfff7, 0xfc07, 0x3f7, 0x8]) out.push(encode(L, op, { simm16: v }));
    if (kinds.has('depctr')) for (const v of [0, 0xffff, 0xff9f, 0xff1f, 0x1, 0xfe1f]) out.push(encode(L, op, { simm16: v }));
    if (kinds.has('delay')) for (const v of [0, 0xffff, 0x91, 0x800, 0xc]) out.push(encode(L, op, { simm16: v }));
  }
  // Unused opcodes.
  const have = new Set(ops.map((o) => o.op));
  for (let op = 0; op < L.opCount; op++) if (!have.has(op)) out.push(encode(L, op, baseVals(L)));

  function smemData(w: number): number {
    const c = R();
    if (c < 0.8) { const a = Math.min(w, 4); const s = ri(sgprs - w + 1) & ~(a - 1); return R() < 0.1 ? s | ri(a) : s; }
    if (c < 0.9) { const a = Math.min(w, 4); return SRC.TTMP0 + ri(Math.floor((16 - w) / a) + 1) * a; }
    // Specials the SMEM data classes allow (vcc, null); m0/exec print with LLVM's remark and are swept anyway.
    return w === 1 ? pick(specials.filter((v) => v < S.sgprs + 2 || v === NULL)) : w === 2 ? pick(pairs.filter((v) => v < S.sgprs + 2 || v === NULL)) : NULL;
  }
  return out;
}

// ---------------------------------------------------------------------------------------------

function fileFor(cls: ScalarClass): string {
  return cls.toLowerCase();
}

export function generateScalar(T: ScalarGenTarget): Record<string, string> {
  const ver = llvmVersion();
  const files: Record<string, string> = {};
  const ops = {} as Record<ScalarClass, OpInfo[]>;
  const sweeps = {} as Record<ScalarClass, number[][]>;
  for (const L of T.layouts) {
    const r = learnRemarks(T, L, learnBranches(T, L, learnAsmRules(T, enumerate(T, L))));
    ops[L.name] = r.infos;
    sweeps[L.name] = r.sweeps;
  }
  const sp = learnSpecials(T, ops);
  const aliases = learnAliases(T, ops);
  const header = (cls: string): string =>
    `/**\n * ${cls} opcode table for ${T.mcpu}. GENERATED by tools/gen/amd/gen-scalar.ts from LLVM ${ver}\n` +
    ` * (llvm-objdump --mcpu=${T.mcpu}): do not edit; regenerate with \`npm run gen -- scalar\`.\n */\n`;
  let seed = 1100;
  for (const L of T.layouts) {
    const name = fileFor(L.name);
    const layoutModule = T.srcDir === 'src/amd/isa/gfx11' ? './scalar-layout.js' : '../gfx11/scalar-layout.js';
    let src = header(L.name) + `import type { ScalarOp${L.name === 'SOPP' ? ', ScalarSpecials' : ''} } from '${layoutModule}';\n\n`;
    src += `export const ${L.name}: Readonly<Record<number, ScalarOp>> = {\n`;
    for (const o of ops[L.name]) src += `  ${o.op}: ${JSON.stringify(o.entry)},\n`;
    src += '};\n';
    src += `\n/** Older mnemonics llvm-mc accepts for ${T.mcpu}, to the ${L.name} mnemonic they assemble to. */\n`;
    src += `export const ${L.name}_ALIASES: Readonly<Record<string, string>> = {\n`;
    for (const [a, m] of Object.entries(aliases[L.name])) src += `  ${a}: '${m}',\n`;
    src += '};\n';
    if (L.name === 'SOPP') {
      src += `\n/** Tables of LLVM's symbolic scalar operands (s_waitcnt, depctr, s_delay_alu, sendmsg, hwreg, s_version). */\n`;
      src += `export const SPECIALS: ScalarSpecials = {\n${Object.entries(sp).map(([k, v]) => `  ${k}: ${JSON.stringify(v)},`).join('\n')}\n};\n`;
    }
    files[`${T.srcDir}/${name}.gen.ts`] = src;
    const probes = [...sweeps[L.name], ...goldenProbes(T, L, ops[L.name], sp, seed++)];
    const cases = buildGolden(T.mcpu, probes, 160);
    files[`${T.goldenDir}/${name}.tsv`] = formatGolden(cases);
  }
  return files;
}

const GFX1030: ScalarGenTarget = {
  mcpu: 'gfx1030', layouts: GFX10_SCALAR, space: GFX10_SPACE, srcDir: 'src/amd/isa/gfx10', goldenDir: 'test/golden/amd/gfx1030',
  aliasFrom: ['gfx900'],
};

const GFX900: ScalarGenTarget = {
  mcpu: 'gfx900', layouts: GFX9_SCALAR, space: GFX9_SPACE, srcDir: 'src/amd/isa/gfx9', goldenDir: 'test/golden/amd/gfx900',
  aliasFrom: [],
};

export function generate(): Record<string, string> {
  return { ...generateScalar(GFX1100), ...generateScalar(GFX1030), ...generateScalar(GFX900) };
}
