/**
 * GFX11 scalar codecs: SOP1, SOP2, SOPK, SOPC, SOPP and SMEM. One table-driven codec per encoding:
 * the opcode tables (*.gen.ts) and symbolic-operand tables come from LLVM via gen-scalar.ts, the field
 * layouts from scalar-layout.ts. Decoding is field extraction plus table lookups; the printer and
 * assembler reproduce llvm-objdump's text and llvm-mc's bytes.
 */
import { AsmError, DecodeError, type AsmLine, type Codec, type EncodingName, type Instruction } from '../types.js';
import { GFX11_SPACE, SRC, parseIntText, splitOperands, splitWords, type OperandSpace } from '../operands.js';
import {
  GFX11_SCALAR, putField, type ScalarLayout, type ScalarOp, type ScalarOperand, type ScalarSpecials,
} from './scalar-layout.js';
import {
  literalText, nullValue, parseDelay, parseDepctr, parseHwreg, parseImm16, parseLiteral32, parseSendmsg, parseSreg,
  parseSsrc, parseVersion, parseWaitcnt, printDelay, printDepctr, printHwreg, printSendmsg, printVersion,
  printWaitcnt, signedHex, sregText, ssrcText,
} from './scalar-operands.js';
import { SOP1, SOP1_ALIASES } from './sop1.gen.js';
import { SOP2, SOP2_ALIASES } from './sop2.gen.js';
import { SOPK, SOPK_ALIASES } from './sopk.gen.js';
import { SOPC, SOPC_ALIASES } from './sopc.gen.js';
import { SOPP, SOPP_ALIASES, SPECIALS } from './sopp.gen.js';
import { SMEM, SMEM_ALIASES } from './smem.gen.js';

/** Everything a scalar codec needs about its target. */
export interface ScalarTargetData {
  /** Prefix of the codec names (`gfx11` -> `gfx11-sop2`). */
  readonly name: string;
  readonly space: OperandSpace;
  readonly layouts: readonly ScalarLayout[];
  readonly tables: Readonly<Record<string, Readonly<Record<number, ScalarOp>>>>;
  /** Per encoding, older mnemonics the assembler also takes (alias -> mnemonic). */
  readonly aliases: Readonly<Record<string, Readonly<Record<string, string>>>>;
  readonly specials: ScalarSpecials;
}

/** Validity of every field value for each register width, precomputed so decode does no string work. */
interface Validity {
  readonly sreg: Readonly<Record<number, Uint8Array>>;
  readonly ssrc: Readonly<Record<number, Uint8Array>>;
}

function buildValidity(space: OperandSpace): Validity {
  const sreg: Record<number, Uint8Array> = {};
  const ssrc: Record<number, Uint8Array> = {};
  for (const n of [1, 2, 4, 8, 16]) {
    const a = new Uint8Array(128);
    for (let v = 0; v < 128; v++) a[v] = sregText(space, v, n) === null ? 0 : 1;
    sreg[n] = a;
    const b = new Uint8Array(256);
    for (let v = 0; v < 256; v++) b[v] = v === SRC.LITERAL || ssrcText(space, v, n, undefined) !== null ? 1 : 0;
    ssrc[n] = b;
  }
  return { sreg, ssrc };
}

/**
 * A builder of the `fields` record from extracted values: object literals of a fixed shape for the
 * known layouts, so every decode of an encoding yields the same hidden class.
 */
function recordBuilder(names: readonly string[]): (v: Uint32Array) => Record<string, number> {
  switch (names.join(',')) {
    case 'sdst,ssrc0': return (v) => ({ sdst: v[0]!, ssrc0: v[1]! });
    case 'ssrc1,ssrc0': return (v) => ({ ssrc1: v[0]!, ssrc0: v[1]! });
    case 'simm16': return (v) => ({ simm16: v[0]! });
    case 'sdst,simm16': return (v) => ({ sdst: v[0]!, simm16: v[1]! });
    case 'sdst,ssrc1,ssrc0': return (v) => ({ sdst: v[0]!, ssrc1: v[1]!, ssrc0: v[2]! });
    case 'sbase,sdata,dlc,glc,offset,soffset':
      return (v) => ({ sbase: v[0]!, sdata: v[1]!, dlc: v[2]!, glc: v[3]!, offset: v[4]!, soffset: v[5]! });
    default:
      return (v) => {
        const f: Record<string, number> = {};
        names.forEach((k, i) => { f[k] = v[i]!; });
        return f;
      };
  }
}

function raw(words: ArrayLike<number>, index: number, n: number): number[] {
  const out: number[] = [];
  for (let k = 0; k < n && index + k < words.length; k++) out.push(words[index + k]! >>> 0);
  return out;
}

/** Inline constants and the literal (as opposed to registers and the src_* specials). */
function isConstant(v: number): boolean {
  return (v >= SRC.INLINE_INT_ZERO && v <= SRC.INLINE_INT_NEG_MAX) || (v >= SRC.FLOAT_FIRST && v <= SRC.INV_2PI) || v === SRC.LITERAL;
}

/** The assembler-acceptance class of an operand value (see ScalarOperand.asmReject). */
function asmClassOf(space: OperandSpace, v: number): string {
  if (v < space.sgprs) return 'sgpr';
  if (v >= SRC.TTMP0 && v <= SRC.TTMP15) return 'ttmp';
  if (v === SRC.LITERAL) return 'literal';
  if (isConstant(v)) return 'inline';
  const name = space.specials[v] ?? space.sources[v] ?? '';
  if (name === 'vcc_lo' || name === 'vcc_hi') return 'vcc';
  if (name === 'exec_lo' || name === 'exec_hi') return 'exec';
  return name;
}

/** Build the codec of one scalar encoding. */
export function makeScalarCodec(T: ScalarTargetData, L: ScalarLayout, valid: Validity): Codec {
  const table: (ScalarOp | undefined)[] = new Array(1 << L.op.bits).fill(undefined);
  for (const [k, e] of Object.entries(T.tables[L.name] ?? {})) table[Number(k)] = e;
  // The assembler's opcodes by mnemonic, made at its first use (a run or disassembly never reads them).
  let byMnemonicMap: Map<string, { op: number; e: ScalarOp }> | null = null;
  const byMnemonic = (): Map<string, { op: number; e: ScalarOp }> => {
    if (byMnemonicMap !== null) return byMnemonicMap;
    const m = new Map<string, { op: number; e: ScalarOp }>();
    table.forEach((e, op) => { if (e && !m.has(e.mnemonic)) m.set(e.mnemonic, { op, e }); });
    for (const [alias, name] of Object.entries(T.aliases[L.name] ?? {})) {
      const hit = m.get(name);
      if (hit && !m.has(alias)) m.set(alias, hit);
    }
    return (byMnemonicMap = m);
  };
  const fieldNames = Object.keys(L.fields);
  // Per opcode, the register fields to validate: a table of the values LLVM accepts (by name or
  // with a remark). Made at the opcode's first decode: every process made them for every opcode of
  // every scalar encoding (a copy of a 128-256-entry table per operand) at start-up.
  const checks: ({ fi: number; field: string; ok: Uint8Array; src: boolean }[] | undefined)[] = new Array(table.length).fill(undefined);
  const checksOf = (e: ScalarOp): { fi: number; field: string; ok: Uint8Array; src: boolean }[] => e.operands.flatMap((o) => {
    let base: Uint8Array;
    let field = o.field;
    if (o.kind === 'sreg') base = valid.sreg[o.dwords!]!;
    else if (o.kind === 'ssrc') base = valid.ssrc[o.dwords!]!;
    else if (o.kind === 'sbase') base = valid.sreg[o.dwords!]!.filter((_, v) => v % 2 === 0);
    else if (o.kind === 'smemoff') {
      // GFX9 (imm/soe layout): every 7-bit value names a register, and soffset may be unused.
      if (L.fields.imm) return [];
      base = valid.sreg[1]!; field = 'soffset';
    }
    else return [];
    const ok = Uint8Array.from(base);
    for (const k of Object.keys(o.remarks ?? {})) ok[Number(k)] = 1;
    for (const v of o.invalid ?? []) ok[v] = 0;
    return [{ fi: fieldNames.indexOf(field), field, ok, src: o.kind === 'ssrc' }];
  });
  const zero0 = Int32Array.from(table, (e) => e?.zero0 ?? 0);
  const zero1 = Int32Array.from(table, (e) => e?.zero1 ?? 0);
  // Field extraction into a scratch array, then one fixed-shape record per encoding.
  const nf = fieldNames.length;
  const fw = Int32Array.from(fieldNames, (k) => L.fields[k]!.word);
  const flo = Int32Array.from(fieldNames, (k) => L.fields[k]!.lo);
  const fmask = Uint32Array.from(fieldNames, (k) => (L.fields[k]!.bits === 32 ? 0xffffffff : (1 << L.fields[k]!.bits) - 1));
  const vals = new Uint32Array(nf);
  const record = recordBuilder(fieldNames);
  const hasLit = Uint8Array.from(table, (e) => (e?.operands.some((o) => o.kind === 'lit') ? 1 : 0));
  const opMask = (1 << L.op.bits) - 1;
  const mask = L.mask >>> 0;
  const value = L.value >>> 0;
  const notMask = (L.notMask ?? 0) >>> 0;
  const notValue = (L.notValue ?? 1) >>> 0;
  const enc = L.name as EncodingName;
  const space = T.space;
  const sp = T.specials;
  const NULL = nullValue(space);
  const hasImm = L.fields.imm !== undefined;

  function decode(words: ArrayLike<number>, index: number, pc: number): Instruction {
    const w0 = words[index]! >>> 0;
    if (L.dwords === 2 && index + 1 >= words.length) throw new DecodeError(pc, [w0], `truncated ${enc} instruction`);
    const op = (w0 >>> L.op.lo) & opMask;
    const e = table[op];
    if (!e) throw new DecodeError(pc, raw(words, index, L.dwords), `unknown ${enc} opcode ${op}`);
    if ((w0 & zero0[op]!) !== 0 || (L.dwords === 2 && ((words[index + 1]! >>> 0) & zero1[op]!) !== 0)) {
      throw new DecodeError(pc, raw(words, index, L.dwords), `${e.mnemonic}: reserved bits set`);
    }
    for (let i = 0; i < nf; i++) vals[i] = (words[index + fw[i]!]! >>> flo[i]!) & fmask[i]!;
    let needLit = hasLit[op] === 1;
    const cs = checks[op] ?? (checks[op] = checksOf(e));
    for (let i = 0; i < cs.length; i++) {
      const c = cs[i]!;
      const v = vals[c.fi]!;
      if (c.ok[v] !== 1) throw new DecodeError(pc, raw(words, index, L.dwords), `${e.mnemonic}: invalid ${c.field} ${v}`);
      if (c.src && v === SRC.LITERAL) needLit = true;
    }
    let literal: number | undefined;
    let n = L.dwords as number;
    if (needLit) {
      if (index + n >= words.length) throw new DecodeError(pc, raw(words, index, L.dwords), `${e.mnemonic}: missing literal`);
      literal = words[index + n]! >>> 0;
      n++;
    }
    const ws: number[] = [];
    for (let k = 0; k < n; k++) ws.push(words[index + k]! >>> 0);
    return { encoding: enc, opcode: op, mnemonic: e.mnemonic, size: n * 4, words: ws, fields: record(vals), literal, variant: '', info: e };
  }

  function operandText(inst: Instruction, o: ScalarOperand): string | null {
    const f = inst.fields;
    const v = f[o.field]!;
    if (o.remarks) {
      const r = o.remarks[v];
      if (r !== undefined) return r;
    }
    switch (o.kind) {
      case 'sreg': return sregText(space, v, o.dwords!);
      case 'sbase': return sregText(space, v * 2, o.dwords!);
      case 'ssrc': {
        // A constant in a register-only operand has no type: LLVM prints it as a 32-bit value.
        if (o.regOnly && isConstant(v)) return ssrcText(space, v, 1, inst.literal) + '/*Invalid immediate*/';
        return ssrcText(space, v, o.dwords!, inst.literal);
      }
      case 'hex': return '0x' + v.toString(16);
      case 'u16': return v <= 64 ? String(v) : '0x' + v.toString(16);
      case 'udec': return String(v);
      case 'udec_opt': return v === 0 ? null : String(v);
      case 'waitcnt': return printWaitcnt(sp, v);
      case 'delay': return printDelay(sp, v);
      case 'depctr': return printDepctr(sp, v);
      case 'sendmsg': return printSendmsg(sp, v);
      case 'hwreg': return printHwreg(sp, v);
      case 'version': return printVersion(sp, v);
      case 'lit': return literalText(inst.literal!, 1);
      case 'imm7': return v <= 64 ? String(v) : '0x' + v.toString(16);
      case 'gpridx': {
        const names = o.names!;
        if (v >= 1 << names.length) return '0x' + v.toString(16);
        return `gpr_idx(${names.filter((_, b) => (v >> b) & 1).join(',')})`;
      }
      case 'smemoff': {
        const off = (f.offset! << 11) >> 11;
        // GFX9: imm says the offset field is an offset (else its low 7 bits are the soffset SGPR),
        // soe that the soffset field is present.
        if (hasImm) {
          if (!f.imm) return sregText(space, f.soe ? f.soffset! : f.offset! & 0x7f, 1)!;
          return f.soe ? `${sregText(space, f.soffset!, 1)!} offset:${signedHex(off)}` : signedHex(off);
        }
        if (f.soffset === NULL) return signedHex(off) === '0x0' ? 'null' : signedHex(off);
        const s = sregText(space, f.soffset!, 1)!;
        return off === 0 ? s : `${s} offset:${signedHex(off)}`;
      }
    }
  }

  function print(inst: Instruction): string {
    const e = inst.info as ScalarOp;
    const parts: string[] = [];
    for (const o of e.operands) {
      const t = operandText(inst, o);
      if (t !== null) parts.push(t);
    }
    let s = parts.length ? `${e.mnemonic} ${parts.join(', ')}` : e.mnemonic;
    for (const fl of e.flags ?? []) if (inst.fields[fl]) s += ' ' + fl;
    return s;
  }

  function assemble(line: AsmLine): number[] | null {
    const hit = byMnemonic().get(line.mnemonic);
    if (!hit) return null;
    const { op, e } = hit;
    const bad = (why: string): never => { throw new AsmError(line.line, `${e.mnemonic}: ${why}`); };
    const w = [value, 0];
    putField(w, L.op, op);
    let literal: number | undefined;
    const setLit = (x: number): void => {
      if (literal !== undefined && literal !== x) bad('only one literal constant is allowed');
      literal = x;
    };
    const set = (name: string, v: number): void => putField(w, L.fields[name]!, v);
    // SOPP's symbolic operands may contain commas (`vmcnt(1), lgkmcnt(2)`): they take the whole text.
    const single = e.operands.length === 1 && e.operands[0]!.field === 'simm16';
    let ops = single ? (line.rest === '' ? [] : [line.rest]) : splitOperands(line.rest);
    let flagWords: string[] = [];
    if (L.name === 'SMEM' && ops.length > 0) {
      const lw = splitWords(ops[ops.length - 1]!);
      ops = [...ops.slice(0, -1), ...(lw.length ? [lw[0]!] : [])];
      flagWords = lw.slice(1);
    }
    // The trailing SMEM offset may be left out (null, 0), as may s_endpgm's immediate.
    const needed = e.operands.filter((o) => o.kind !== 'udec_opt' && o.kind !== 'smemoff').length;
    if (ops.length < needed || ops.length > e.operands.length) bad(`expected ${e.operands.length} operands, got ${ops.length}`);
    e.operands.forEach((o, i) => {
      const t = ops[i];
      if (t === undefined) return; // an optional trailing immediate
      const n = o.dwords ?? 1;
      let x: number | null = null;
      switch (o.kind) {
        case 'sreg': x = parseSreg(space, t, n); break;
        case 'sbase': { const r = parseSreg(space, t, n); x = r === null ? null : r >> 1; break; }
        case 'ssrc': {
          const p = parseSsrc(space, t, n);
          if (p && o.regOnly && isConstant(p.value)) bad(`operand '${t}' must be a register`);
          if (p) { x = p.value; if (p.literal !== undefined) setLit(p.literal); }
          break;
        }
        case 'hex': case 'u16': case 'udec': case 'udec_opt': x = parseImm16(t, e.asmTruncate); break;
        case 'waitcnt': x = parseImm16(t, e.asmTruncate) ?? parseWaitcnt(sp, t); break;
        case 'delay': x = parseImm16(t, e.asmTruncate) ?? parseDelay(sp, t); break;
        case 'depctr': x = parseImm16(t, e.asmTruncate) ?? parseDepctr(sp, t); break;
        case 'sendmsg':
          x = o.field === 'simm16' ? parseImm16(t, e.asmTruncate) ?? parseSendmsg(sp, t) : parseSendmsg(sp, t);
          if (x !== null && o.field !== 'simm16' && x > 0xff) x = null;
          break;
        case 'hwreg': x = parseImm16(t, e.asmTruncate) ?? parseHwreg(sp, t); break;
        case 'gpridx': {
          const m = /^gpr_idx\s*\((.*)\)$/i.exec(t);
          if (!m) { x = parseImm16(t); break; }
          x = 0;
          for (const nm of m[1]!.split(',').map((q) => q.trim().toUpperCase()).filter((q) => q)) {
            const b = o.names!.indexOf(nm);
            if (b < 0) bad(`unknown gpr_idx mode '${nm}'`);
            x |= 1 << b;
          }
          break;
        }
        case 'version': x = parseImm16(t, e.asmTruncate) ?? parseVersion(sp, t); break;
        case 'lit': { const l = parseLiteral32(t); if (l !== null) { setLit(l); x = 0; } break; }
        // llvm-mc keeps the low 7 bits of s_atc_probe's integer.
        case 'imm7': { const i = parseIntText(t); x = i !== null && Number.isSafeInteger(i) ? Number(BigInt.asUintN(7, BigInt(i))) : null; break; }
        case 'smemoff': {
          let soff = NULL;
          let off = 0;
          const r = parseSreg(space, t, 1);
          if (r !== null) soff = r;
          else {
            const i = parseIntText(t);
            if (i === null) bad(`bad offset '${t}'`);
            off = i!;
          }
          const rest: string[] = [];
          const fwCount = flagWords.length;
          for (const fw of flagWords) {
            const m = /^offset:(.*)$/i.exec(fw);
            if (m) {
              const i = parseIntText(m[1]!);
              if (i === null) bad(`bad offset '${fw}'`);
              off = i!;
            } else rest.push(fw);
          }
          flagWords = rest;
          if (off < (e.asmUnsignedOffset ? 0 : -(1 << 20)) || off >= 1 << 20) bad(`offset ${off} out of range`);
          if (hasImm) {
            const hasOff = r === null || flagWords.length !== fwCount;
            if (r !== null && !hasOff) { set('offset', r); x = r; break; }
            set('imm', 1);
            if (r !== null) { set('soe', 1); set('soffset', r); }
            set('offset', off & 0x1fffff);
            x = r ?? 0;
            break;
          }
          set('soffset', soff);
          set('offset', off & 0x1fffff);
          x = soff;
          break;
        }
      }
      if (x === null) bad(`invalid operand '${t}'`);
      if (o.asmReject && (o.kind === 'sreg' || o.kind === 'ssrc' || o.kind === 'sbase')) {
        const cls = asmClassOf(space, o.kind === 'sbase' ? x! * 2 : x!);
        if ((o.asmReject as readonly string[]).includes(cls)) bad(`operand '${t}' is not allowed here`);
      }
      if (o.kind !== 'lit' && o.kind !== 'smemoff') set(o.field, x!);
    });
    const seen = new Set<string>();
    for (const fw of flagWords) {
      const fl = fw.toLowerCase();
      if (!(e.flags ?? []).includes(fl)) bad(`unexpected '${fw}'`);
      if (seen.has(fl)) bad(`duplicate '${fw}'`);
      seen.add(fl);
      set(fl, 1);
    }
    if (L.name === 'SMEM' && !hasImm && e.operands.some((o) => o.kind === 'smemoff') && ops.length < e.operands.length) set('soffset', NULL);
    const out = L.dwords === 2 ? [w[0]! >>> 0, w[1]! >>> 0] : [w[0]! >>> 0];
    if (literal !== undefined) out.push(literal >>> 0);
    return out;
  }

  return {
    name: `${T.name}-${L.name.toLowerCase()}`,
    matches: (w0: number) => ((w0 & mask) >>> 0) === value && ((w0 & notMask) >>> 0) !== notValue,
    decode,
    print,
    assemble,
  };
}

/** The scalar codecs of a target, in match order. */
export function makeScalarCodecs(T: ScalarTargetData): Codec[] {
  const valid = buildValidity(T.space);
  return T.layouts.map((L) => makeScalarCodec(T, L, valid));
}

export const GFX11_SCALAR_DATA: ScalarTargetData = {
  name: 'gfx11',
  space: GFX11_SPACE,
  layouts: GFX11_SCALAR,
  tables: { SOP1, SOP2, SOPK, SOPC, SOPP, SMEM },
  aliases: { SOP1: SOP1_ALIASES, SOP2: SOP2_ALIASES, SOPK: SOPK_ALIASES, SOPC: SOPC_ALIASES, SOPP: SOPP_ALIASES, SMEM: SMEM_ALIASES },
  specials: SPECIALS,
};

/** Codecs of this family. */
export const codecs: Codec[] = makeScalarCodecs(GFX11_SCALAR_DATA);
