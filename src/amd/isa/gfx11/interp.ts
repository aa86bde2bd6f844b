/**
 * GFX11 parameter interpolation encodings.
 *
 * VINTERP (dw0[31:24] = 0xCD), two dwords:
 *   dw0: vdst[7:0] wait_exp[10:8] op_sel[14:11] clamp[15] op[22:16]
 *   dw1: src0[8:0] src1[17:9] src2[26:18] neg[31:29]
 * LDSDIR (dw0[31:24] = 0xCE), one dword:
 *   vdst[7:0] attr_chan[9:8] attr[15:10] wait_vdst[19:16] op[21:20] (bits 23:22 reserved)
 *
 * Opcode tables: vinterp.gen.ts / ldsdir.gen.ts (tools/gen/amd/gen-interp.ts).
 */
import { AsmError, DecodeError, type AsmLine, type Codec, type Instruction } from '../types.js';
import { GFX11_SPACE, SRC, parseIntText, parseReg, splitOperands, splitWords, srcName } from '../operands.js';
import { VINTERP_OPS, VINTERP_SRC_OK } from './vinterp.gen.js';
import { LDSDIR_OPS } from './ldsdir.gen.js';

export interface VinterpOp {
  readonly mnemonic: string;
  /** op_sel is legal (the f16 variants). */
  readonly opsel: boolean;
}

export interface LdsdirOp {
  readonly mnemonic: string;
  /** Takes an `attrN.c` operand (lds_param_load). */
  readonly attr: boolean;
}

const VINTERP_PREFIX = 0xcd;
const LDSDIR_PREFIX = 0xce;

/** Non-VGPR source values LLVM accepts, as a lookup table. */
const SRC_OK = new Uint8Array(512).fill(1, 256);
for (const v of VINTERP_SRC_OK) SRC_OK[v] = 1;

function vinterpSrcText(v: number): string {
  if (v === 254) return 'src_lds_direct';
  return srcName(GFX11_SPACE, v, 1, 'f32') ?? `<bad ${v}>`;
}

function decodeVinterp(words: ArrayLike<number>, index: number, pc: number): Instruction {
  const w0 = words[index]! >>> 0;
  if (index + 1 >= words.length) throw new DecodeError(pc, [w0], 'VINTERP needs two dwords');
  const w1 = words[index + 1]! >>> 0;
  const opcode = (w0 >>> 16) & 0x7f;
  const op = VINTERP_OPS[opcode];
  if (!op) throw new DecodeError(pc, [w0, w1], `no VINTERP opcode ${opcode}`);
  const fields: Record<string, number> = {
    vdst: w0 & 0xff, wait_exp: (w0 >>> 8) & 7, op_sel: (w0 >>> 11) & 0xf, clamp: (w0 >>> 15) & 1,
    src0: w1 & 0x1ff, src1: (w1 >>> 9) & 0x1ff, src2: (w1 >>> 18) & 0x1ff, neg: (w1 >>> 29) & 7,
  };
  if (fields.op_sel && !op.opsel) throw new DecodeError(pc, [w0, w1], `${op.mnemonic} has no op_sel`);
  if (!SRC_OK[fields.src0!] || !SRC_OK[fields.src1!] || !SRC_OK[fields.src2!]) throw new DecodeError(pc, [w0, w1], `${op.mnemonic}: sources must be VGPRs`);
  return { encoding: 'VINTERP', opcode, mnemonic: op.mnemonic, size: 8, words: [w0, w1], fields, literal: undefined, variant: '', info: op };
}

function printVinterp(inst: Instruction): string {
  const f = inst.fields;
  const s = [f.src0!, f.src1!, f.src2!].map((v, i) => ((f.neg! >> i) & 1 ? '-' : '') + vinterpSrcText(v));
  let t = `${inst.mnemonic} v${f.vdst}, ${s.join(', ')}`;
  if (f.clamp) t += ' clamp';
  if (f.op_sel) t += ` op_sel:[${f.op_sel & 1},${(f.op_sel! >> 1) & 1},${(f.op_sel! >> 2) & 1},${(f.op_sel! >> 3) & 1}]`;
  return `${t} wait_exp:${f.wait_exp}`;
}

const VINTERP_BY_NAME = new Map(Object.entries(VINTERP_OPS).map(([k, v]) => [v.mnemonic, Number(k)]));
const LDSDIR_BY_NAME = new Map(Object.entries(LDSDIR_OPS).map(([k, v]) => [v.mnemonic, Number(k)]));

function parseVSrc(text: string, line: number): { value: number; neg: number } {
  let t = text;
  let neg = 0;
  if (t.startsWith('-')) { neg = 1; t = t.slice(1); }
  let value: number | undefined;
  if (t === 'src_lds_direct' || t === 'lds_direct') value = 254;
  else {
    const r = parseReg(GFX11_SPACE, t);
    if (r && r.count === 1) value = r.value;
  }
  if (value === undefined || !SRC_OK[value]) throw new AsmError(line, `bad VINTERP source '${text}'`);
  return { value, neg };
}

function assembleVinterp(line: AsmLine): number[] | null {
  const opcode = VINTERP_BY_NAME.get(line.mnemonic);
  if (opcode === undefined) return null;
  const op = VINTERP_OPS[opcode]!;
  const parts = splitOperands(line.rest);
  if (parts.length !== 4) throw new AsmError(line.line, `${line.mnemonic} takes 4 operands`);
  const tail = splitWords(parts[3]!);
  parts[3] = tail[0]!;
  const vd = parseReg(GFX11_SPACE, parts[0]!);
  if (!vd || vd.file !== 'v' || vd.count !== 1) throw new AsmError(line.line, `bad vdst '${parts[0]}'`);
  let w0 = ((VINTERP_PREFIX << 24) | (opcode << 16) | (vd.value - SRC.VGPR0)) >>> 0;
  let w1 = 0;
  for (let i = 0; i < 3; i++) {
    const s = parseVSrc(parts[i + 1]!, line.line);
    w1 |= (s.value << (9 * i)) | (s.neg << (29 + i));
  }
  for (const m of tail.slice(1)) {
    if (m === 'clamp') { w0 |= 1 << 15; continue; }
    const k = /^(wait_exp|op_sel):(.*)$/.exec(m);
    if (k && k[1] === 'wait_exp') {
      const n = parseIntText(k[2]!);
      if (n === null || n < 0 || n > 7) throw new AsmError(line.line, `bad wait_exp '${k[2]}'`);
      w0 = (w0 & ~(7 << 8)) | (n << 8);
    } else if (k && k[1] === 'op_sel' && op.opsel) {
      const b = /^\[([01]),([01]),([01]),([01])\]$/.exec(k[2]!);
      if (!b) throw new AsmError(line.line, `bad op_sel '${k[2]}'`);
      w0 |= (Number(b[1]) | (Number(b[2]) << 1) | (Number(b[3]) << 2) | (Number(b[4]) << 3)) << 11;
    } else throw new AsmError(line.line, `unknown modifier '${m}'`);
  }
  return [w0 >>> 0, w1 >>> 0];
}

export const vinterpCodec: Codec = {
  name: 'VINTERP',
  matches: (w0) => w0 >>> 24 === VINTERP_PREFIX,
  decode: decodeVinterp,
  print: printVinterp,
  assemble: assembleVinterp,
};

// ---------------------------------------------------------------------------------------------

const CHAN = ['x', 'y', 'z', 'w'] as const;

function decodeLdsdir(words: ArrayLike<number>, index: number, pc: number): Instruction {
  const w0 = words[index]! >>> 0;
  const opcode = (w0 >>> 20) & 3;
  const op = LDSDIR_OPS[opcode];
  if (!op) throw new DecodeError(pc, [w0], `no LDSDIR opcode ${opcode}`);
  if (w0 & 0x00c00000) throw new DecodeError(pc, [w0], 'LDSDIR reserved bits set');
  const fields = { vdst: w0 & 0xff, attr_chan: (w0 >>> 8) & 3, attr: (w0 >>> 10) & 0x3f, wait_vdst: (w0 >>> 16) & 0xf };
  return { encoding: 'LDSDIR', opcode, mnemonic: op.mnemonic, size: 4, words: [w0], fields, literal: undefined, variant: '', info: op };
}

function printLdsdir(inst: Instruction): string {
  const f = inst.fields;
  const op = inst.info as LdsdirOp;
  const attr = op.attr ? `, attr${f.attr}.${CHAN[f.attr_chan!]}` : '';
  return `${inst.mnemonic} v${f.vdst}${attr} wait_vdst:${f.wait_vdst}`;
}

function assembleLdsdir(line: AsmLine): number[] | null {
  const opcode = LDSDIR_BY_NAME.get(line.mnemonic);
  if (opcode === undefined) return null;
  const op = LDSDIR_OPS[opcode]!;
  const parts = splitOperands(line.rest);
  const n = op.attr ? 2 : 1;
  if (parts.length !== n) throw new AsmError(line.line, `${line.mnemonic} takes ${n} operand(s)`);
  const tail = splitWords(parts[n - 1]!);
  parts[n - 1] = tail[0]!;
  const vd = parseReg(GFX11_SPACE, parts[0]!);
  if (!vd || vd.file !== 'v' || vd.count !== 1) throw new AsmError(line.line, `bad vdst '${parts[0]}'`);
  let w = (LDSDIR_PREFIX << 24) | (opcode << 20) | (vd.value - SRC.VGPR0);
  if (op.attr) {
    const m = /^attr(\d+)\.([xyzw])$/.exec(parts[1]!);
    // The field holds 0..63 but llvm-mc accepts attr0..attr32 only.
    if (!m || Number(m[1]) > 32) throw new AsmError(line.line, `out of bounds interpolation attribute '${parts[1]}'`);
    w |= (Number(m[1]) << 10) | (CHAN.indexOf(m[2] as (typeof CHAN)[number]) << 8);
  }
  for (const m of tail.slice(1)) {
    const k = /^wait_vdst:(.*)$/.exec(m);
    const v = k ? parseIntText(k[1]!) : null;
    if (v === null || v < 0 || v > 15) throw new AsmError(line.line, `unknown modifier '${m}'`);
    w = (w & ~(0xf << 16)) | (v << 16);
  }
  return [w >>> 0];
}

export const ldsdirCodec: Codec = {
  name: 'LDSDIR',
  matches: (w0) => w0 >>> 24 === LDSDIR_PREFIX,
  decode: decodeLdsdir,
  print: printLdsdir,
  assemble: assembleLdsdir,
};

export const codecs: Codec[] = [vinterpCodec, ldsdirCodec];
