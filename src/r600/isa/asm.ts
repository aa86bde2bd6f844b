/**
 * R600-family assembler: the inverse of print.ts. It reads the text clang -S prints for r600
 * (CF lines, PAD, "ALU clause starting at N:" / "Fetch clause starting at N:" sections, literal
 * lines) plus gpusim's extra tokens for fields LLVM never sets, and produces the program's dwords.
 *
 * Fields LLVM's text does not show get the values LLVM's code emitter uses (BARRIER set, etc.).
 * One ambiguity is inherent in LLVM's text: Cayman `STORE_DWORD Tn` prints the same for
 * COMP_MASK 3 and 15; gpusim assembles 15 unless `MASK:3` is given.
 */
import { InputError } from '../../core/errors.js';
import { ALU_OPS, CF_OPS, GDS_OPS, RAT_INSTS, TEX_INSTS, VTX_FORMATS, type AluOpInfo } from './opcodes.gen.js';
import { GEN_COLUMN, SRC, isCfExport, type R600Gen } from './decode.js';

const CHAN: Readonly<Record<string, number>> = { X: 0, Y: 1, Z: 2, W: 3, x: 0, y: 1, z: 2, w: 3 };
const BANK_SWIZZLE: Readonly<Record<string, number>> = {
  'BS:VEC_021/SCL_122': 1, 'BS:VEC_120/SCL_212': 2, 'BS:VEC_102/SCL_221': 3, 'BS:VEC_201': 4, 'BS:VEC_210': 5,
};
const PRED_SEL: Readonly<Record<string, number>> = { Pred_sel_1: 1, Pred_sel_zero: 2, Pred_sel_one: 3 };
const COND: Readonly<Record<string, number>> = { ACTIVE: 0, FALSE: 1, BOOL: 2, NOT_BOOL: 3 };
const OMOD: Readonly<Record<string, number>> = { '*2': 1, '*4': 2, '/2': 3 };

export interface AssembledProgram {
  readonly words: Uint32Array;
  /** Literal dwords that name a symbol: byte offset -> symbol. */
  readonly relocs: Map<number, string>;
}

interface SrcOperand {
  sel: number;
  chan: number;
  neg: boolean;
  abs: boolean;
  rel: boolean;
}

function aluTable(gen: R600Gen): Map<string, AluOpInfo> {
  const col = GEN_COLUMN[gen];
  const m = new Map<string, AluOpInfo>();
  for (const op of ALU_OPS) {
    const code = col >= 2 ? op.eg : op.r600;
    if (code < 0 || op.slots[col] === '') continue;
    if (!m.has(op.llvm)) m.set(op.llvm, op);
    if (!m.has(op.name)) m.set(op.name, op);
  }
  return m;
}

function parseSrc(t: string, err: (m: string) => never): SrcOperand {
  let s = t.trim();
  const o: SrcOperand = { sel: 0, chan: 0, neg: false, abs: false, rel: false };
  const consts: Record<string, number> = { '0.0': SRC.ZERO, '1.0': SRC.ONE, '1': SRC.ONE_INT, '-1': SRC.M_ONE_INT, '0.5': SRC.HALF };
  if (s in consts) return { ...o, sel: consts[s]! };
  if (s.startsWith('-')) {
    o.neg = true;
    s = s.slice(1);
    if (s in consts) return { ...o, sel: consts[s]! };
  }
  if (s.startsWith('|') && s.endsWith('|')) {
    o.abs = true;
    s = s.slice(1, -1);
  }
  if (s in consts) return { ...o, sel: consts[s]! };
  let m: RegExpExecArray | null;
  if ((m = /^T\((\d+) \+ AR\.x\)\.([XYZW])\+$/.exec(s))) return { ...o, sel: Number(m[1]), chan: CHAN[m[2]!]!, rel: true };
  if ((m = /^T(\d+)\.([XYZW])$/.exec(s))) {
    const sel = Number(m[1]);
    if (sel > 127) err(`register T${sel} out of range (T0..T127)`);
    return { ...o, sel, chan: CHAN[m[2]!]! };
  }
  if ((m = /^KC([0-3])\[(\d+)\]\.([XYZW])(\+?)$/.exec(s))) {
    const base = [SRC.KC0, SRC.KC1, SRC.KC2, SRC.KC3][Number(m[1])]!;
    const idx = Number(m[2]);
    if (idx > 31) err(`kcache index ${idx} out of range (0..31)`);
    return { ...o, sel: base + idx, chan: CHAN[m[3]!]!, rel: m[4] === '+' };
  }
  if ((m = /^Param(\d+)\.([XYZW])$/.exec(s))) {
    const n = Number(m[1]);
    if (n > 31) err(`parameter Param${n} out of range (Param0..Param31)`);
    return { ...o, sel: SRC.PARAM + n, chan: CHAN[m[2]!]! };
  }
  if ((m = /^literal\.([xyzw])$/.exec(s))) return { ...o, sel: SRC.LITERAL, chan: CHAN[m[1]!]! };
  if ((m = /^PV\.([XYZW])$/.exec(s))) return { ...o, sel: SRC.PV, chan: CHAN[m[1]!]! };
  if (s === 'PS') return { ...o, sel: SRC.PS };
  const special: Record<string, number> = { OQAP: SRC.LDS_OQ_A_POP, OQA: SRC.LDS_OQ_A, OQB: SRC.LDS_OQ_B, OQBP: SRC.LDS_OQ_B_POP };
  if (s in special) return { ...o, sel: special[s]! };
  if ((m = /^SRC(\d+)\.([XYZW])(\+?)$/.exec(s))) return { ...o, sel: Number(m[1]), chan: CHAN[m[2]!]!, rel: m[3] === '+' };
  return err(`cannot parse source operand '${t}'`);
}

function parseLiteral(t: string, err: (m: string) => never): { value: number; sym?: string } {
  const s = t.trim();
  if (s.startsWith('@')) return { value: 0, sym: s.slice(1) };
  const m = /^(-?\d+)(\(.*\))?$/.exec(s);
  if (m) return { value: Number(m[1]) >>> 0 };
  const h = /^0x([0-9a-fA-F]+)$/.exec(s);
  if (h) return { value: parseInt(h[1]!, 16) >>> 0 };
  return err(`cannot parse literal '${t}'`);
}

/** Extra tokens after the operands: returns the map of KEY -> value ('' for flags). */
function extras(tokens: string[]): Map<string, string> {
  const m = new Map<string, string>();
  for (const t of tokens) {
    if (!t) continue;
    const i = t.indexOf(':');
    if (t.startsWith('BS:') || t.startsWith('Pred_sel')) continue;
    m.set(i < 0 ? t : t.slice(0, i), i < 0 ? '' : t.slice(i + 1));
  }
  return m;
}

/** Encode one ALU line (no leading whitespace). Returns [w0, w1]. */
export function assembleAlu(gen: R600Gen, line: string, err: (m: string) => never, table = aluTable(gen)): [number, number] {
  const mm = /^([A-Z0-9_]+)(\s*)(\*?)(.*)$/.exec(line);
  if (!mm) return err(`cannot parse ALU instruction '${line}'`);
  const name = mm[1]!;
  const op = table.get(name) ?? err(`unknown ALU instruction ${name} for ${gen}`);
  let last = mm[3] === '*';
  const rest = mm[4]!.trim();
  const col = GEN_COLUMN[gen];
  const code = col >= 2 ? op.eg : op.r600;
  const toks = rest.split(/\s+/);
  let pred = 0;
  let bs = 0;
  for (const t of toks) {
    if (t in PRED_SEL) pred = PRED_SEL[t]!;
    if (t in BANK_SWIZZLE) bs = BANK_SWIZZLE[t]!;
    const b = /^BS:(\d+)$/.exec(t);
    if (b) bs = Number(b[1]);
  }
  const srcList: SrcOperand[] = [];
  let w0 = 0;
  let w1 = 0;
  const ex = extras(rest.split(/\s+/).filter((t) => /^[A-Z_]+(:\S*)?$/.test(t) && !/^(T\d|KC|PV|PS|OQ)/.test(t)));
  const indexMode = Number(ex.get('IDX') ?? 0);
  // Operands: split on ", "; strip the trailing pred/bank-swizzle/extra tokens from the last part.
  let dstPrefix = '';
  let body = rest;
  for (const pre of ['ExecMask,', 'Pred,']) if (body.startsWith(pre)) { dstPrefix += pre; body = body.slice(pre.length); }
  const parts = body === '' ? [] : body.split(',').map((p) => p.trim());
  if (parts.length) parts[0] = dstPrefix + parts[0];
  const operandOf = (p: string): string => p.replace(/\s+(Pred_sel_\w+|BS:\S+|[A-Z_]+:\S+|NOT_LAST|ExecMaskDummy)(?=\s|$).*$/, '').trim();

  if (op.enc === 'lds') {
    const ret = /_RET$/.test(op.name);
    let ops = parts.map(operandOf).filter((p) => p !== '');
    if (ret && name !== 'LDS_CMPST') {
      if (ops[0] !== 'OQAP') err(`${name} must name OQAP first`);
      ops = ops.slice(1);
    }
    if (ops.length < op.srcs) err(`${name} needs ${op.srcs} sources`);
    for (let k = 0; k < op.srcs; k++) srcList.push(parseSrc(ops[k]!, err));
    while (srcList.length < 3) srcList.push({ sel: 0, chan: 0, neg: false, abs: false, rel: false });
    const ofs = Number(ex.get('OFS') ?? 0);
    const [a, b, c] = srcList as [SrcOperand, SrcOperand, SrcOperand];
    w0 = a.sel | ((a.rel ? 1 : 0) << 9) | (a.chan << 10) | (((ofs >> 4) & 1) << 12) | (b.sel << 13) | ((b.rel ? 1 : 0) << 22) | (b.chan << 23) |
      (((ofs >> 5) & 1) << 25) | (indexMode << 26) | (pred << 29) | ((last ? 1 : 0) << 31);
    w1 = c.sel | ((c.rel ? 1 : 0) << 9) | (c.chan << 10) | (((ofs >> 1) & 1) << 12) | (0x11 << 13) | (Number(ex.get('BSW') ?? 0) << 18) |
      (code << 21) | ((ofs & 1) << 27) | (((ofs >> 2) & 1) << 28) | (Number(ex.get('CH') ?? 0) << 29) | (((ofs >> 3) & 1) << 31);
    return [w0 >>> 0, w1 >>> 0];
  }

  let dstGpr = 0;
  let dstChan = 0;
  let dstRel = false;
  let write = 1;
  let execMask = 0;
  let updPred = 0;
  let clamp = 0;
  let omod = 0;
  if (op.srcs === 0 && parts.length <= 1 && !/^T\d/.test(rest)) {
    // GROUP_BARRIER and friends: LLVM prints the mnemonic only; the group ends with it.
    last = !toks.includes('NOT_LAST');
    write = 0;
  } else {
    let d = parts[0] ?? err(`${name} needs a destination`);
    if (d.startsWith('ExecMask,')) { execMask = 1; d = d.slice(9); }
    if (d.startsWith('Pred,')) { updPred = 1; d = d.slice(5); }
    if (/ \(MASKED\)/.test(d)) { write = 0; d = d.replace(' (MASKED)', ''); }
    if (/ \(CLAMP\)/.test(d)) { clamp = 1; d = d.replace(' (CLAMP)', ''); }
    const om = / \(OMOD:(\S+)\)/.exec(d);
    if (om) { omod = OMOD[om[1]!] ?? err(`bad OMOD ${om[1]}`); d = d.replace(om[0], ''); }
    d = d.trim();
    let m: RegExpExecArray | null;
    if (d === 'PredicateBit') { dstGpr = 0; dstChan = 0; }
    else if ((m = /^AR\.([xyzw])$/.exec(d))) dstChan = CHAN[m[1]!]!;
    else if ((m = /^T\((\d+) \+ AR\.x\)\.([XYZW])\+$/.exec(d))) { dstGpr = Number(m[1]); dstChan = CHAN[m[2]!]!; dstRel = true; }
    else if ((m = /^T(\d+)\.([XYZW])$/.exec(d))) { dstGpr = Number(m[1]); dstChan = CHAN[m[2]!]!; }
    else err(`cannot parse destination '${d}'`);
    if (dstGpr > 127) err(`register T${dstGpr} out of range (T0..T127)`);
    for (let k = 0; k < op.srcs; k++) {
      const p = parts[1 + k];
      if (p === undefined) err(`${name} needs ${op.srcs} sources`);
      srcList.push(parseSrc(operandOf(p), err));
    }
  }
  while (srcList.length < 3) srcList.push({ sel: 0, chan: 0, neg: false, abs: false, rel: false });
  const [a, b, c] = srcList as [SrcOperand, SrcOperand, SrcOperand];
  w0 = a.sel | ((a.rel ? 1 : 0) << 9) | (a.chan << 10) | ((a.neg ? 1 : 0) << 12) | (b.sel << 13) | ((b.rel ? 1 : 0) << 22) | (b.chan << 23) |
    ((b.neg ? 1 : 0) << 25) | (indexMode << 26) | (pred << 29) | ((last ? 1 : 0) << 31);
  if (op.enc === 'op3') {
    w1 = c.sel | ((c.rel ? 1 : 0) << 9) | (c.chan << 10) | ((c.neg ? 1 : 0) << 12) | (code << 13) | (bs << 18) | (dstGpr << 21) |
      ((dstRel ? 1 : 0) << 28) | (dstChan << 29) | (clamp << 31);
  } else {
    // First-generation R600: FOG_MERGE at bit 5, OMOD and a 10-bit ALU_INST one bit higher.
    const mid = gen === 'r600' ? ((ex.has('FOG_MERGE') ? 1 : 0) << 5) | (omod << 6) | (code << 8) : (omod << 5) | (code << 7);
    w1 = (a.abs ? 1 : 0) | ((b.abs ? 1 : 0) << 1) | (execMask << 2) | (updPred << 3) | (write << 4) | mid | (bs << 18) |
      (dstGpr << 21) | ((dstRel ? 1 : 0) << 28) | (dstChan << 29) | (clamp << 31);
  }
  return [w0 >>> 0, w1 >>> 0];
}

const SELCH: Readonly<Record<string, number>> = { X: 0, Y: 1, Z: 2, W: 3, '0': 4, '1': 5, _: 7 };

/** Encode one texture instruction in print.ts's printTex syntax. */
export function assembleTex(gen: R600Gen, line: string, err: (m: string) => never): [number, number, number, number] {
  const m = /^(TEX_\w+) T(\d+)\.([XYZW01?_]{4}), T(\d+)\.([XYZW01?_]{4}) RID:(\d+) SID:(\d+) CT:([NU]{4})((?: \S+)*)$/.exec(line.trim());
  if (!m) return err(`cannot parse texture instruction '${line}'`);
  const col = GEN_COLUMN[gen];
  const code = /^TEX_INST_(\d+)$/.test(m[1]!) ? Number(m[1]!.slice(9)) : TEX_INSTS.find((t) => t.llvm === m[1] && t.codes[col] >= 0)?.codes[col] ?? err(`unknown texture instruction ${m[1]} on ${gen}`);
  const SEL = 'XYZW01?_';
  const sel = (s: string): number[] => [...s].map((ch) => SEL.indexOf(ch));
  const dst = sel(m[3]!);
  const src = sel(m[5]!);
  const ct = [...m[8]!].map((ch) => (ch === 'N' ? 1 : 0));
  const f: Record<string, number> = { OX: 0, OY: 0, OZ: 0, LB: 0, MOD: 0, WQ: 0, SREL: 0, DREL: 0, ALT: 0, RIM: 0, SIM: 0 };
  for (const tok of m[9]!.trim().split(/\s+/).filter(Boolean)) {
    const [k, v] = tok.split(':');
    if (!(k! in f)) err(`unknown texture field '${tok}'`);
    f[k!] = v === undefined ? 1 : Number(v);
  }
  const num = (v: string, max: number): number => (Number(v) <= max ? Number(v) : err(`${v} out of range in '${line}'`));
  const a = code | ((f.MOD! & 3) << 5) | (f.WQ! << 7) | (num(m[6]!, 255) << 8) | (num(m[4]!, 127) << 16) | (f.SREL! << 23) | (f.ALT! << 24) | ((f.RIM! & 3) << 25) | ((f.SIM! & 3) << 27);
  const b = num(m[2]!, 127) | (f.DREL! << 7) | (dst[0]! << 9) | (dst[1]! << 12) | (dst[2]! << 15) | (dst[3]! << 18) | ((f.LB! & 0x7f) << 21) | (ct[0]! << 28) | (ct[1]! << 29) | (ct[2]! << 30) | (ct[3]! << 31);
  const c = (f.OX! & 31) | ((f.OY! & 31) << 5) | ((f.OZ! & 31) << 10) | (num(m[7]!, 31) << 15) | (src[0]! << 20) | (src[1]! << 23) | (src[2]! << 26) | (src[3]! << 29);
  return [a >>> 0, b >>> 0, c >>> 0, 0];
}

export function assembleFetch(gen: R600Gen, line: string, err: (m: string) => never): [number, number, number, number] {
  if (/^\s*TEX_/.test(line)) return assembleTex(gen, line, err);
  const m = /^(VTX_READ_\d+|VTX_FMT_\d+) T(\d+)\.([XYZW01_]*), T(\d+)\.([XYZW]), (\d+), #(\d+)$/.exec(line.trim());
  if (!m) return err(`cannot parse fetch instruction '${line}'`);
  const fmt = m[1]!.startsWith('VTX_FMT_') ? Number(m[1]!.slice(8)) : VTX_FORMATS.find((f) => f.llvm === m[1])?.format ?? err(`unknown ${m[1]}`);
  const bytes = VTX_FORMATS.find((f) => f.format === fmt)?.bits ?? 32;
  const sel = [7, 7, 7, 7];
  const letters = m[3]!;
  for (let i = 0; i < 4; i++) sel[i] = i < letters.length ? SELCH[letters[i]!]! : 7;
  const dst = Number(m[2]);
  const src = Number(m[4]);
  // Cayman has no mega-fetch: LLVM leaves MEGA_FETCH_COUNT and MEGA_FETCH zero there.
  const megaOn = gen !== 'cayman';
  const mega = megaOn ? bytes / 8 : 0;
  // LLVM's VTX_READ_*: VC_INST FETCH, FETCH_TYPE NO_INDEX_OFFSET (2), MEGA_FETCH, NUM_FORMAT_ALL INT (1).
  const a = 0 | (2 << 5) | (Number(m[7]) << 8) | (src << 16) | (CHAN[m[5]!]! << 24) | (mega << 26);
  const b = dst | (sel[0]! << 9) | (sel[1]! << 12) | (sel[2]! << 15) | (sel[3]! << 18) | (fmt << 22) | (1 << 28);
  const c = Number(m[6]) | ((megaOn ? 1 : 0) << 19);
  return [a >>> 0, b >>> 0, c >>> 0, 0];
}

const GDS_SELCH: Readonly<Record<string, number>> = { X: 0, Y: 1, Z: 2, W: 3, '0': 4, '1': 5, '6': 6, _: 7 };

/** Encode one MEM_GDS line in print.ts's syntax (LLVM has none). */
export function assembleGds(line: string, err: (m: string) => never): [number, number, number, number] {
  const toks = line.trim().split(/\s+/);
  const m = /^(GDS_\w+)$/.exec(toks[0] ?? '') ?? err(`cannot parse GDS instruction '${line}'`);
  const md = /^T(\d+)\.([XYZW016_]{4}),$/.exec(toks[1] ?? '') ?? err(`bad GDS destination in '${line}'`);
  const ms = /^T(\d+)\.([XYZW016_]{3})$/.exec(toks[2] ?? '') ?? err(`bad GDS source in '${line}'`);
  const ex = extras(toks.slice(3));
  const name = m[1]!;
  const op = GDS_OPS.find((g) => g.name === name);
  const code = op ? op.code : /^GDS_OP_(\d+)$/.test(name) ? Number(name.slice(7)) : err(`unknown GDS instruction ${name}`);
  const dst = Number(md[1]);
  const src = Number(ms[1]);
  if (dst > 127 || src > 127 || code > 63) err(`GDS field out of range in '${line}'`);
  const sel = (s: string, i: number): number => GDS_SELCH[s[i]!]!;
  const num = (k: string, max: number): number => {
    const v = Number(ex.get(k) ?? 0);
    if (!Number.isInteger(v) || v < 0 || v > max) err(`bad ${k}:${ex.get(k)}`);
    return v;
  };
  const a = ex.has('MEM_INST') ? num('MEM_INST', 31) : 2;
  const w0 = a | (ex.has('MEM_OP') ? num('MEM_OP', 7) << 8 : 4 << 8) | (src << 11) | (num('SRC_REL', 3) << 18) | (sel(ms[2]!, 0) << 20) |
    (sel(ms[2]!, 1) << 23) | (sel(ms[2]!, 2) << 26) | num('W0', 0xffffffff);
  const w1 = dst | (num('DST_REL', 3) << 7) | (code << 9) | (num('SRC2', 127) << 16) | (num('UAV_IDX', 3) << 24) | (num('UAV', 15) << 26) |
    ((ex.has('ALLOC_CONSUME') ? 1 : 0) << 30) | ((ex.has('BCAST_FIRST') ? 1 : 0) << 31) | (num('W1', 0xffffffff) & ((1 << 15) | (1 << 23)));
  const w2 = sel(md[2]!, 0) | (sel(md[2]!, 1) << 3) | (sel(md[2]!, 2) << 6) | (sel(md[2]!, 3) << 9) | (num('W2', 0xfffff) << 12);
  return [w0 >>> 0, w1 >>> 0, w2 >>> 0, num('W3', 0xffffffff) >>> 0];
}

function cfCode(gen: R600Gen, name: string, alu: boolean, err: (m: string) => never): number {
  const col = GEN_COLUMN[gen];
  const op = CF_OPS.find((o) => o.alu === alu && (o.llvm === name || o.name === name) && o.codes[col] >= 0);
  return op ? op.codes[col] : err(`unknown CF instruction ${name} for ${gen}`);
}

function kcacheParse(t: string, err: (m: string) => never): { bank: number; mode: number; addr: number } {
  if (t === '') return { bank: 0, mode: 0, addr: 0 };
  const m = /^CB(\d+):(\d+)-(\d+)( LOOP)?$/.exec(t);
  if (!m) return err(`bad kcache '${t}'`);
  const lo = Number(m[2]);
  const hi = Number(m[3]);
  return { bank: Number(m[1]), mode: m[4] ? 3 : hi - lo === 32 ? 2 : 1, addr: lo / 16 };
}

/** Encode one CF line. */
export function assembleCf(gen: R600Gen, line: string, err: (m: string) => never): [number, number] {
  const t = line.trim();
  const toks = t.split(/\s+/);
  const ex = extras(toks.slice(1).filter((x) => /^[A-Z_]+(:\S+)?$/.test(x)));
  const flagBits = (w1: number, isAlu: boolean): number => {
    let v = w1;
    if (ex.has('WQM')) v |= 1 << 30;
    if (!isAlu && ex.has('VPM')) v |= 1 << 20;
    if (!ex.has('NO_BARRIER')) v |= 1 << 31;
    if (ex.has('MARK')) v |= 1 << 30;
    return v >>> 0;
  };
  let name = toks[0]!;
  if (name === 'PAD') return [0, 0];
  // Evergreen has no CF_END opcode: LLVM writes a NOP with END_OF_PROGRAM.
  if (name === 'CF_END' && gen !== 'cayman') {
    name = 'NOP';
    ex.set('EOP', '');
  }
  let m: RegExpExecArray | null;
  if ((m = /^(ALU\w*) (\d+), @(\d+), KC[02]\[([^\]]*)\], KC[13]\[([^\]]*)\]/.exec(t))) {
    const code = cfCode(gen, m[1]!, true, err);
    const k0 = kcacheParse(m[4]!, err);
    const k1 = kcacheParse(m[5]!, err);
    const w0 = Number(m[3]) | (k0.bank << 22) | (k1.bank << 26) | (k0.mode << 30);
    let w1 = k1.mode | (k0.addr << 2) | (k1.addr << 10) | (Number(m[2]) << 18) | (code << 26);
    if (ex.has('ALT_CONST')) w1 |= 1 << 25;
    return [w0 >>> 0, flagBits(w1, true)];
  }
  if (/^MEM_RAT/.test(name)) {
    const code = cfCode(gen, name, false, err);
    const rn = toks[1] ?? err('MEM_RAT needs a RAT instruction');
    const rat = RAT_INSTS.find((r) => r.llvm === rn || r.name === rn) ?? err(`unknown RAT instruction ${rn}`);
    // STORE_TYPED: LLVM's `RAT(id) Tdata, Tindex, eop` (the whole data and index GPRs).
    const typed = rat.name === 'STORE_TYPED' ? (/^RAT\((\d+)\)$/.exec(toks[2] ?? '') ?? err(`STORE_TYPED needs RAT(id) in '${t}'`)) : undefined;
    const rt = typed ? toks.slice(1) : toks;
    const mm = (typed ? /^T(\d+)(),$/ : /^T(\d+)(?:\.([XYZW]+))?,$/).exec(rt[2] ?? '') ?? err(`bad RAT data register in '${t}'`);
    const mi = (typed ? /^T(\d+),?$/ : /^T(\d+)\.X,?$/).exec(rt[3] ?? '') ?? err(`bad RAT index register in '${t}'`);
    let mask = 15;
    if (rn === 'STORE_RAW' || (rn === 'STORE_DWORD' && mm[2])) {
      mask = 0;
      for (const ch of mm[2] ?? 'XYZW') mask |= 1 << CHAN[ch]!;
    }
    if (ex.has('MASK')) mask = Number(ex.get('MASK'));
    let eop = ex.has('EOP') ? 1 : 0;
    if ((rn === 'STORE_RAW' || typed) && rt[4] !== undefined) eop = Number(rt[4]);
    if (gen === 'cayman') eop = 0;
    const type = Number(ex.get('TYPE') ?? 1);
    const ratId = typed ? Number(typed[1]) : Number(ex.get('RAT_ID') ?? 0);
    if (!(ratId >= 0 && ratId <= 15)) err(`RAT id ${ratId} out of range (0..15) in '${t}'`);
    const w0 = ratId | (rat.code << 4) | (Number(ex.get('IDXMODE') ?? 0) << 11) | (type << 13) | (Number(mm[1]) << 15) |
      ((ex.has('RW_REL') ? 1 : 0) << 22) | (Number(mi[1]) << 23) | (Number(ex.get('ELEM') ?? 0) << 30);
    const w1 = Number(ex.get('ARRAY') ?? 0) | (mask << 12) | (Number(ex.get('BURST') ?? 0) << 16) | (eop << 21) | (code << 22);
    return [w0 >>> 0, flagBits(w1, false)];
  }
  const code = cfCode(gen, name, false, err);
  if (isCfExport(gen, code)) {
    const num = (k: string, max: number): number => {
      const v = Number(ex.get(k) ?? 0);
      if (!Number.isInteger(v) || v < 0 || v > max) err(`bad ${k}:${ex.get(k)} in '${t}'`);
      return v;
    };
    const eop = (ex.has('EOP') && gen !== 'cayman' ? 1 : 0) << 21;
    const common = (type: number, rw: number, index: number, base: number): number =>
      base | (type << 13) | (rw << 15) | ((ex.has('RW_REL') ? 1 : 0) << 22) | (index << 23) | (num('ELEM', 3) << 30);
    if (name === 'EXPORT' || name === 'EXPORT_DONE') {
      // print.ts's form: NAME TYPE:BASE Tn.SWIZ [INDEX:n] ...
      const mt = /^(PIXEL|POS|PARAM|TYPE3):(\d+)$/.exec(toks[1] ?? '') ?? err(`bad export target in '${t}'`);
      const mr = /^T(\d+)\.([XYZW016_]{4})$/.exec(toks[2] ?? '') ?? err(`bad export register in '${t}'`);
      const base = Number(mt[2]);
      const rw = Number(mr[1]);
      if (base > 0x1fff || rw > 127) err(`export field out of range in '${t}'`);
      const sw = [...mr[2]!].map((ch) => GDS_SELCH[ch]!);
      const w0 = common(['PIXEL', 'POS', 'PARAM', 'TYPE3'].indexOf(mt[1]!), rw, num('INDEX', 127), base);
      const w1 = sw[0]! | (sw[1]! << 3) | (sw[2]! << 6) | (sw[3]! << 9) | (num('CMASK', 15) << 12) | (num('BURST', 15) << 16) | eop | (code << 22);
      return [w0 >>> 0, flagBits(w1, false)];
    }
    // MEM_* BUF form: NAME TYPE Tn.MASK, Ti.X BASE:n SIZE:n ...
    const types = name === 'MEM_WRITE_SCRATCH' ? ['WRITE', 'WRITE_IND', 'READ', 'READ_IND'] : ['WRITE', 'WRITE_IND', 'WRITE_ACK', 'WRITE_IND_ACK'];
    const type = types.indexOf(toks[1] ?? '');
    if (type < 0) err(`bad export type '${toks[1]}' in '${t}'`);
    const mm = /^T(\d+)\.([XYZW]+|_),$/.exec(toks[2] ?? '') ?? err(`bad export data register in '${t}'`);
    const mi = /^T(\d+)\.X$/.exec(toks[3] ?? '') ?? err(`bad export index register in '${t}'`);
    let mask = 0;
    if (mm[2] !== '_') for (const ch of mm[2]!) mask |= 1 << CHAN[ch]!;
    const rw = Number(mm[1]);
    const index = Number(mi[1]);
    if (rw > 127 || index > 127) err(`register out of range in '${t}'`);
    const w0 = common(type, rw, index, num('BASE', 0x1fff));
    const w1 = num('SIZE', 0xfff) | (mask << 12) | (num('BURST', 15) << 16) | eop | (code << 22);
    return [w0 >>> 0, flagBits(w1, false)];
  }
  let addr = 0;
  let count = 0;
  let pop = 0;
  for (const x of toks.slice(1)) {
    if ((m = /^@(\d+)$/.exec(x))) addr = Number(m[1]);
    else if ((m = /^POP:(\d+)$/.exec(x))) pop = Number(m[1]);
    else if ((m = /^COUNT:(\d+)$/.exec(x))) count = Number(m[1]);
    else if (/^\d+$/.test(x)) count = Number(x);
  }
  const eg = gen === 'evergreen' || gen === 'cayman';
  const w0 = addr | (Number(ex.get('JTS') ?? 0) << 24);
  const cond = ex.has('COND') ? COND[ex.get('COND')!] ?? err(`bad COND ${ex.get('COND')}`) : 0;
  let w1 = pop | (Number(ex.get('CF_CONST') ?? 0) << 3) | (cond << 8) | (code << 22);
  w1 |= eg ? (count & 0x3f) << 10 : ((count & 7) << 10) | (((count >> 3) & 1) << 19);
  if (ex.has('EOP') && gen !== 'cayman') w1 |= 1 << 21;
  if (ex.has('VPM')) w1 |= 1 << 20;
  return [w0 >>> 0, flagBits(w1, false)];
}

/** Assemble one program body (the lines clang -S prints between the kernel label and .Lfunc_end). */
export function assembleBody(gen: R600Gen, lines: readonly string[], where = 'asm'): AssembledProgram {
  const table = aluTable(gen);
  const words: number[] = [];
  const relocs = new Map<number, string>();
  const put = (byteOff: number, ws: readonly number[]): void => {
    for (let k = 0; k < ws.length; k++) words[(byteOff >>> 2) + k] = ws[k]! >>> 0;
  };
  let mode: 'cf' | 'alu' | 'fetch' | 'gds' = 'cf';
  let cursor = 0;
  let lineNo = 0;
  const err = (m: string): never => {
    throw new InputError(m, `${where}:${lineNo}`);
  };
  let lastGroupEnd = true;
  for (const raw of lines) {
    lineNo++;
    const line = raw.replace(/\s*;.*$/, '').replace(/^\s+/, '');
    if (line === '' || line.startsWith('.') || /^[A-Za-z_.$][\w.$]*:$/.test(line)) continue;
    let m: RegExpExecArray | null;
    if ((m = /^(ALU|Fetch|GDS) clause starting at (\d+):$/.exec(line))) {
      mode = m[1] === 'ALU' ? 'alu' : m[1] === 'GDS' ? 'gds' : 'fetch';
      cursor = Number(m[2]) * 8;
      lastGroupEnd = true;
      continue;
    }
    if (mode === 'cf') {
      put(cursor, assembleCf(gen, line, err));
      cursor += 8;
    } else if (mode === 'gds') {
      put(cursor, assembleGds(line, err));
      cursor += 16;
    } else if (mode === 'fetch') {
      put(cursor, assembleFetch(gen, line, err));
      cursor += 16;
    } else if (/^(-?\d|@|0x)/.test(line)) {
      const [a, b] = line.split(/,\s*/);
      const la = parseLiteral(a ?? err('literal line needs two values'), err);
      const lb = parseLiteral(b ?? err('literal line needs two values'), err);
      if (la.sym) relocs.set(cursor, la.sym);
      if (lb.sym) relocs.set(cursor + 4, lb.sym);
      put(cursor, [la.value, lb.value]);
      cursor += 8;
    } else {
      const [w0, w1] = assembleAlu(gen, line, err, table);
      put(cursor, [w0, w1]);
      lastGroupEnd = (w0 >>> 31) === 1;
      cursor += 8;
    }
  }
  void lastGroupEnd;
  const out = new Uint32Array(words.length);
  for (let i = 0; i < words.length; i++) out[i] = words[i] ?? 0;
  return { words: out, relocs };
}

/** Split a whole clang -S listing into kernel bodies and assemble each. */
export function assembleListing(gen: R600Gen, text: string, where = 'asm'): Map<string, AssembledProgram> {
  const funcs = new Set([...text.matchAll(/\.type\s+([\w.$]+),@function/g)].map((m) => m[1]!));
  const bodies = new Map<string, string[]>();
  let cur: string[] | undefined;
  for (const raw of text.split('\n')) {
    const lab = /^([A-Za-z_.$][\w.$]*):/.exec(raw);
    if (lab) {
      if (lab[1]!.endsWith('$local')) continue;
      cur = funcs.has(lab[1]!) || funcs.size === 0 ? [] : undefined;
      if (cur) bodies.set(lab[1]!, cur);
      continue;
    }
    if (cur && raw.startsWith('\t') && !raw.startsWith('\t.')) cur.push(raw);
  }
  if (bodies.size === 0) bodies.set('main', text.split('\n'));
  const out = new Map<string, AssembledProgram>();
  for (const [name, body] of bodies) out.set(name, assembleBody(gen, body, `${where}: ${name}`));
  return out;
}
