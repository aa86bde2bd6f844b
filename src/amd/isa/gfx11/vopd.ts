/**
 * GFX11 VOPD: two VALU ops (X and Y) issued together, `v_dual_X ... :: v_dual_Y ...`.
 *
 *   dw0: srcX0[8:0] vsrcX1[16:9] opY[21:17] opX[25:22] 0b110010[31:26]
 *   dw1: srcY0[8:0] vsrcY1[16:9] vdstY[23:17] (vdstY >> 1; its low bit is the opposite of vdstX's) vdstX[31:24]
 *   then one literal dword shared by both halves (src0 = 255, or the K of fmaak/fmamk).
 *
 * Which ops each slot accepts, and their operand order, are in vopd.gen.ts (tools/gen/amd/gen-vopd.ts).
 * The decoder does not check VGPR bank rules (LLVM's disassembler does not either); the assembler
 * leaves that to the author, as llvm-mc rejects such pairs.
 */
import { AsmError, DecodeError, type AsmLine, type Codec, type Instruction } from '../types.js';
import { GFX11_SPACE, SRC, parseReg, splitOperands, srcName } from '../operands.js';
import { LDS_DIRECT, VALU_SRC_OK, parseSrcValue, printLiteral, type LiteralKind } from './vop3p.js';
import { VOPD_LIT_WITH_K, VOPD_X, VOPD_Y } from './vopd.gen.js';

export type VopdSlot = 'vdst' | 'src0' | 'vsrc1' | 'k';

export interface VopdOp {
  readonly mnemonic: string;
  /** LLVM's operand order. */
  readonly shape: readonly VopdSlot[];
  /** How a src0 literal prints. */
  readonly lit: LiteralKind;
  /** LLVM's text for 1/(2*pi) in src0. */
  readonly inv2pi: string;
  /** How the K constant of fmaak/fmamk prints. */
  readonly klit: LiteralKind;
}

/** The decoded pair, kept in `Instruction.info`. */
export interface VopdInfo {
  readonly x: VopdOp;
  readonly y: VopdOp;
}

const PREFIX6 = 0b110010;
/** GFX11's null (reads no SGPR), and a key for v_dual_cndmask_b32's implicit VCC read. */
const GFX11_NULL = 124;
const IMPLICIT_VCC = -1;

const hasK = (o: VopdOp): boolean => o.shape.includes('k');
const hasVsrc1 = (o: VopdOp): boolean => o.shape.includes('vsrc1');

/** Per (opX, opY) the decoded-pair record, built once. */
const PAIRS: (VopdInfo | undefined)[] = new Array(16 * 32);
for (const [xs, x] of Object.entries(VOPD_X)) for (const [ys, y] of Object.entries(VOPD_Y)) PAIRS[Number(xs) * 32 + Number(ys)] = { x, y };


function decode(words: ArrayLike<number>, index: number, pc: number): Instruction {
  const w0 = words[index]! >>> 0;
  if (index + 1 >= words.length) throw new DecodeError(pc, [w0], 'VOPD needs two dwords');
  const w1 = words[index + 1]! >>> 0;
  const opX = (w0 >>> 22) & 0xf;
  const opY = (w0 >>> 17) & 0x1f;
  const pair = PAIRS[opX * 32 + opY];
  if (!pair) throw new DecodeError(pc, [w0, w1], `no VOPD pair opX=${opX} opY=${opY}`);
  const vdstX = w1 >>> 24;
  const fields = {
    opX, opY, srcX0: w0 & 0x1ff, vsrcX1: (w0 >>> 9) & 0xff, srcY0: w1 & 0x1ff, vsrcY1: (w1 >>> 9) & 0xff,
    vdstX, vdstY: (((w1 >>> 17) & 0x7f) << 1) | ((vdstX & 1) ^ 1),
  };
  if (!hasVsrc1(pair.x) && fields.vsrcX1) throw new DecodeError(pc, [w0, w1], `${pair.x.mnemonic} has no vsrc1`);
  if (!hasVsrc1(pair.y) && fields.vsrcY1) throw new DecodeError(pc, [w0, w1], `${pair.y.mnemonic} has no vsrc1`);
  if (!VALU_SRC_OK[fields.srcX0] || !VALU_SRC_OK[fields.srcY0]) throw new DecodeError(pc, [w0, w1], 'invalid VOPD src0');
  let literal: number | undefined;
  let size = 8;
  if (hasK(pair.x) || hasK(pair.y) || fields.srcX0 === SRC.LITERAL || fields.srcY0 === SRC.LITERAL) {
    if (index + 2 >= words.length) throw new DecodeError(pc, [w0, w1], 'literal dword missing');
    literal = words[index + 2]! >>> 0;
    size = 12;
  }
  const ws = size === 12 ? [w0, w1, literal!] : [w0, w1];
  return {
    encoding: 'VOPD', opcode: opX * 32 + opY, mnemonic: pair.x.mnemonic, size, words: ws, fields, literal, variant: '', info: pair,
  };
}

function half(op: VopdOp, vdst: number, src0: number, vsrc1: number, literal: number | undefined, withK: boolean): string {
  const parts = op.shape.map((s) => {
    switch (s) {
      case 'vdst': return `v${vdst}`;
      case 'vsrc1': return `v${vsrc1}`;
      case 'k': return printLiteral(op.klit, literal ?? 0);
      case 'src0':
        if (src0 === SRC.LITERAL) return printLiteral(withK ? VOPD_LIT_WITH_K : op.lit, literal ?? 0);
        if (src0 === SRC.INV_2PI) return op.inv2pi;
        if (src0 === LDS_DIRECT) return 'src_lds_direct';
        return srcName(GFX11_SPACE, src0, 1, 'f32', literal) ?? `<bad ${src0}>`;
    }
  });
  return `${op.mnemonic} ${parts.join(', ')}`;
}

function print(inst: Instruction): string {
  const p = inst.info as VopdInfo;
  const f = inst.fields;
  const k = hasK(p.x) || hasK(p.y);
  return `${half(p.x, f.vdstX!, f.srcX0!, f.vsrcX1!, inst.literal, k)} :: ${half(p.y, f.vdstY!, f.srcY0!, f.vsrcY1!, inst.literal, k)}`;
}

const X_BY_NAME = new Map(Object.entries(VOPD_X).map(([k, v]) => [v.mnemonic, Number(k)]));
const Y_BY_NAME = new Map(Object.entries(VOPD_Y).map(([k, v]) => [v.mnemonic, Number(k)]));

interface HalfAsm {
  vdst: number;
  src0: number;
  vsrc1: number;
  literal: number | undefined;
}

function parseHalf(op: VopdOp, text: string, line: number): HalfAsm {
  const parts = splitOperands(text);
  if (parts.length !== op.shape.length) throw new AsmError(line, `${op.mnemonic} takes ${op.shape.length} operands`);
  const h: HalfAsm = { vdst: 0, src0: 0, vsrc1: 0, literal: undefined };
  op.shape.forEach((s, i) => {
    const t = parts[i]!;
    if (s === 'vdst' || s === 'vsrc1') {
      const r = parseReg(GFX11_SPACE, t);
      if (!r || r.file !== 'v' || r.count !== 1) throw new AsmError(line, `expected a VGPR, got '${t}'`);
      if (s === 'vdst') h.vdst = r.value - SRC.VGPR0;
      else h.vsrc1 = r.value - SRC.VGPR0;
    } else if (s === 'src0') {
      const v = parseSrcValue(t, op.lit);
      if (!v) throw new AsmError(line, `bad operand '${t}'`);
      h.src0 = v.value;
      if (v.literal !== undefined) setLiteral(h, v.literal, line);
    } else {
      const v = parseSrcValue(t, op.klit) ?? floatK(t);
      if (!v || (v.value !== SRC.LITERAL && v.value < 128)) throw new AsmError(line, `bad constant '${t}'`);
      // K is always a literal dword, even when the value has an inline encoding.
      setLiteral(h, v.value === SRC.LITERAL ? v.literal! : inlineValue(t), line);
    }
  });
  return h;
}

/** One literal dword per instruction (llvm-mc: "only one unique literal operand is allowed"). */
function setLiteral(h: HalfAsm, v: number, line: number): void {
  if (h.literal !== undefined && h.literal >>> 0 !== v >>> 0) throw new AsmError(line, 'only one unique literal operand is allowed');
  h.literal = v;
}

/** A K written as a decimal float that is no inline constant (`2.741`): its f32 bits. */
function floatK(t: string): { value: number; literal: number } | null {
  if (!/^-?(\d+\.\d*|\.\d+)(e[-+]?\d+)?$/i.test(t.trim())) return null;
  const b = new DataView(new ArrayBuffer(4));
  b.setFloat32(0, Number(t));
  return { value: SRC.LITERAL, literal: b.getUint32(0) };
}

/**
 * The VGPR each half reads in LLVM's source slots 0..2 (src2: fmamk's vsrc1, or the accumulator of
 * fmac/dot2acc, which is vdst), for the bank rule.
 */
function slots(op: VopdOp, h: HalfAsm): [number | null, number | null, number | null] {
  const s0 = h.src0 >= SRC.VGPR0 ? h.src0 - SRC.VGPR0 : null;
  if (!hasVsrc1(op)) return [s0, null, null];
  const ki = op.shape.indexOf('k');
  if (ki >= 0 && ki < op.shape.indexOf('vsrc1')) return [s0, null, h.vsrc1]; // fmamk: src0 * K + src2
  const acc = /fmac|dot2acc/.test(op.mnemonic) ? h.vdst : null;
  return [s0, h.vsrc1, acc];
}

/**
 * llvm-mc's VOPD rules beyond the encoding: the two halves' sources in the same slot come from
 * different VGPR banks (src0, src1: VGPR index mod 4; src2: mod 2), and they read at most one
 * scalar register between them (the constant bus; v_dual_cndmask_b32 reads VCC).
 */
function checkPair(x: VopdOp, hx: HalfAsm, y: VopdOp, hy: HalfAsm, line: number): void {
  const sx = slots(x, hx);
  const sy = slots(y, hy);
  const banks = [4, 4, 2];
  for (let i = 0; i < 3; i++) {
    const a = sx[i]!;
    const b = sy[i]!;
    if (a !== null && b !== null && a % banks[i]! === b % banks[i]!) throw new AsmError(line, `src${i} operands must use different VGPR banks`);
  }
  // Up to two scalar values: distinct SGPRs, the literal (one at most, K included), and
  // cndmask's implicit VCC, which llvm-mc counts apart from an explicit vcc_lo.
  const scalars = new Set<number>();
  for (const [op, h] of [[x, hx], [y, hy]] as const) {
    if (h.src0 < 128 && h.src0 !== GFX11_NULL) scalars.add(h.src0);
    if (op.mnemonic === 'v_dual_cndmask_b32') scalars.add(IMPLICIT_VCC);
    if (h.literal !== undefined) scalars.add(SRC.LITERAL);
  }
  if (scalars.size > 2) throw new AsmError(line, 'invalid operand (violates constant bus restrictions)');
}

/** Literal dword of a constant whose text parses to an inline encoding (`1.0`, `5`). */
function inlineValue(t: string): number {
  const F: Record<string, number> = {
    '0.5': 0x3f000000, '-0.5': 0xbf000000, '1.0': 0x3f800000, '-1.0': 0xbf800000, '2.0': 0x40000000, '-2.0': 0xc0000000,
    '4.0': 0x40800000, '-4.0': 0xc0800000, '0.15915494': 0x3e22f983,
  };
  if (F[t] !== undefined) return F[t]!;
  return Number(t) >>> 0;
}

function assemble(line: AsmLine): number[] | null {
  const opX = X_BY_NAME.get(line.mnemonic);
  if (opX === undefined) return null;
  const k = line.rest.indexOf('::');
  if (k < 0) throw new AsmError(line.line, `${line.mnemonic} needs a '::' Y half`);
  const yText = line.rest.slice(k + 2).trim();
  const m = /^(\S+)\s*(.*)$/.exec(yText);
  const opY = m ? Y_BY_NAME.get(m[1]!.toLowerCase()) : undefined;
  if (opY === undefined) throw new AsmError(line.line, `'${m?.[1] ?? ''}' is not a VOPD Y op`);
  const x = VOPD_X[opX]!;
  const y = VOPD_Y[opY]!;
  const hx = parseHalf(x, line.rest.slice(0, k).trim(), line.line);
  const hy = parseHalf(y, m![2]!, line.line);
  if (hx.literal !== undefined && hy.literal !== undefined && hx.literal >>> 0 !== hy.literal >>> 0) throw new AsmError(line.line, 'only one unique literal operand is allowed');
  if ((hx.vdst & 1) === (hy.vdst & 1)) throw new AsmError(line.line, 'one dst register must be even and the other odd');
  checkPair(x, hx, y, hy, line.line);
  const w0 = ((PREFIX6 << 26) | (opX << 22) | (opY << 17) | (hx.vsrc1 << 9) | hx.src0) >>> 0;
  const w1 = (hy.src0 | (hy.vsrc1 << 9) | ((hy.vdst >> 1) << 17) | (hx.vdst << 24)) >>> 0;
  const lit = hx.literal ?? hy.literal;
  return lit === undefined ? [w0, w1] : [w0, w1, lit >>> 0];
}

export const vopdCodec: Codec = {
  name: 'VOPD',
  matches: (w0) => w0 >>> 26 === PREFIX6,
  decode,
  print,
  assemble,
};

export const codecs: Codec[] = [vopdCodec];
