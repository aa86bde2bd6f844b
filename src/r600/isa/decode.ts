/**
 * R600-family program decoder: one pass over a shader's dwords turns the control-flow program and
 * the clauses it points at into plain records (fields extracted once; the executor never touches
 * bits again). Layout facts (Evergreen/Cayman ISA documents):
 *
 * - The CF program starts at dword 0; every CF instruction is 64 bits. Clause addresses (ADDR) and
 *   jump targets count 64-bit slots from the program start.
 * - ALU clauses: 64-bit ALU instructions grouped into instruction groups by the LAST bit; a group
 *   that reads ALU_SRC_LITERAL is followed by its literal dwords, padded to 64 bits.
 * - Fetch clauses (TC/VC): 128-bit instructions (VTX words 0..2 plus a pad dword).
 */
import { InputError, hex } from '../../core/errors.js';
import { ALU_OPS, CF_OPS, GDS_OPS, RAT_INSTS, TEX_INSTS, VTX_FORMATS, type AluOpInfo, type CfOpInfo, type RatInstInfo, type TexInstInfo } from './opcodes.gen.js';

/** Chip generations. VLIW5 (x,y,z,w + trans) on r600/r700/evergreen, VLIW4 on cayman. */
export type R600Gen = 'r600' | 'r700' | 'evergreen' | 'cayman';
export const GEN_COLUMN: Readonly<Record<R600Gen, 0 | 1 | 2 | 3>> = { r600: 0, r700: 1, evergreen: 2, cayman: 3 };

/** -mcpu names LLVM accepts for the family, and their generation. */
export const MCPU_GEN: Readonly<Record<string, R600Gen>> = {
  r600: 'r600', rv610: 'r600', rv620: 'r600', rv630: 'r600', rv635: 'r600', rs780: 'r600', rs880: 'r600', rv670: 'r600',
  rv710: 'r700', rv730: 'r700', rv740: 'r700', rv770: 'r700',
  cedar: 'evergreen', redwood: 'evergreen', juniper: 'evergreen', cypress: 'evergreen', hemlock: 'evergreen', palm: 'evergreen',
  sumo: 'evergreen', sumo2: 'evergreen', barts: 'evergreen', turks: 'evergreen', caicos: 'evergreen',
  cayman: 'cayman', aruba: 'cayman',
};

/** CF COND field. */
export const COND = { ACTIVE: 0, ALWAYS_FALSE: 1, BOOL: 2, NOT_BOOL: 3 } as const;

/** Special ALU source selects (Evergreen numbering). */
export const SRC = {
  KC0: 128, KC1: 160, LDS_OQ_A: 219, LDS_OQ_B: 220, LDS_OQ_A_POP: 221, LDS_OQ_B_POP: 222, LDS_DIRECT_A: 223,
  LDS_DIRECT_B: 224, TIME_HI: 227, TIME_LO: 228, MASK_HI: 229, MASK_LO: 230, HW_WAVE_ID: 231, SIMD_ID: 232, SE_ID: 233,
  HW_THREADGRP_ID: 234, WAVE_ID_IN_GRP: 235, NUM_THREADGRP_WAVES: 236, HW_ALU_ODD: 237, LOOP_IDX: 238,
  PARAM_BASE_ADDR: 240, NEW_PRIM_MASK: 241, PRIM_MASK_HI: 242, PRIM_MASK_LO: 243, ONE_DBL_L: 244, ONE_DBL_M: 245,
  HALF_DBL_L: 246, HALF_DBL_M: 247, ZERO: 248, ONE: 249, ONE_INT: 250, M_ONE_INT: 251, HALF: 252, LITERAL: 253, PV: 254,
  PS: 255, KC2: 256, KC3: 288,
  /** Evergreen/Cayman ALU_SRC_PARAM_BASE: PARAM0..PARAM31, interpolation parameters in the LDS parameter cache. */
  PARAM: 448,
} as const;

export interface KCacheSet {
  readonly bank: number;
  /** 0 NOP, 1 LOCK_1 (16 constants), 2 LOCK_2 (32), 3 LOCK_LOOP_INDEX. */
  readonly mode: number;
  /** Address in units of 16 constants. */
  readonly addr: number;
}

export interface AluSrc {
  readonly sel: number;
  readonly chan: number;
  readonly neg: boolean;
  readonly abs: boolean;
  readonly rel: boolean;
}

export interface AluInst {
  /** Byte offset of the instruction in the program. */
  readonly offset: number;
  readonly w0: number;
  readonly w1: number;
  readonly op: AluOpInfo | undefined;
  /** Raw ALU_INST (op2/op3) or LDS_OP (lds). */
  readonly code: number;
  readonly enc: 'op2' | 'op3' | 'lds';
  readonly src: readonly AluSrc[];
  readonly last: boolean;
  readonly predSel: number;
  readonly indexMode: number;
  readonly bankSwizzle: number;
  readonly dstGpr: number;
  readonly dstRel: boolean;
  readonly dstChan: number;
  readonly clamp: boolean;
  /** op2 only */
  readonly writeMask: boolean;
  readonly updateExecMask: boolean;
  readonly updatePred: boolean;
  readonly omod: number;
  /** R600 (first generation) op2 only: FOG_MERGE (bit 5; OMOD and ALU_INST sit one bit higher there). */
  readonly fogMerge: boolean;
  /** LDS_IDX_OP only: the 6-bit immediate offset assembled from IDX_OFFSET_0..5. */
  readonly ldsOffset: number;
  /** Slot in its group after assignment: 0..3 = x,y,z,w, 4 = trans. */
  slot: number;
}

export interface AluGroup {
  readonly insts: AluInst[];
  /** Literal dwords (0..4). */
  readonly literals: number[];
  readonly offset: number;
  /** Why the group breaks the VLIW slot rules, if it does. */
  readonly slotError?: string;
  /** Why the group's BANK_SWIZZLEs read two GPRs through one read port in one cycle, if they do. */
  readonly bankError?: string;
  /** Why the group breaks a constant-read rule (trans-slot constants, kcache channel pairs), if it does. */
  readonly constError?: string;
  /** The group holds a GROUP_BARRIER. */
  readonly barrier: boolean;
}

export interface FetchInst {
  readonly offset: number;
  readonly words: readonly [number, number, number, number];
  readonly vcInst: number;
  readonly fetchType: number;
  readonly fetchWholeQuad: boolean;
  readonly bufferId: number;
  readonly srcGpr: number;
  readonly srcRel: boolean;
  readonly srcSelX: number;
  readonly megaFetchCount: number;
  readonly dstGpr: number;
  readonly dstRel: boolean;
  readonly dstSel: readonly [number, number, number, number];
  readonly useConstFields: boolean;
  readonly dataFormat: number;
  readonly numFormatAll: number;
  readonly formatCompAll: boolean;
  readonly srfModeAll: boolean;
  readonly offsetBytes: number;
  readonly endianSwap: number;
  readonly constBufNoStride: boolean;
  readonly megaFetch: boolean;
  readonly altConst: boolean;
  readonly bufferIndexMode: number;
  /** Bytes one fetch reads per work-item (from DATA_FORMAT; 0 when unknown). */
  readonly bytes: number;
  /** TEX_WORD0..2 fields when this is a texture instruction (TEX_INST >= 3 in a TC clause). */
  readonly tex: TexInst | undefined;
}

/** One texture instruction (TEX_WORD0..2 and a pad dword), fields per the Evergreen/Cayman documents. */
export interface TexInst {
  /** TEX_INST (bits 4:0 of TEX_WORD0). */
  readonly code: number;
  readonly op: TexInstInfo | undefined;
  /** Bits 6:5 of TEX_WORD0: INST_MOD (Evergreen/Cayman), BC_FRAC_MODE in bit 5 on R600/R700. */
  readonly instMod: number;
  readonly fetchWholeQuad: boolean;
  readonly resourceId: number;
  readonly srcGpr: number;
  readonly srcRel: boolean;
  readonly altConst: boolean;
  readonly resourceIndexMode: number;
  readonly samplerIndexMode: number;
  readonly dstGpr: number;
  readonly dstRel: boolean;
  /** DST_SEL_X..W: 0..3 channel, 4 zero, 5 one, 7 masked. */
  readonly dstSel: readonly [number, number, number, number];
  /** LOD_BIAS: 7-bit signed, 3.4 fixed point (the raw field sign-extended). */
  readonly lodBias: number;
  /** COORD_TYPE_X..W: true = normalized ([0,1) spans the texture), false = texel units. */
  readonly coordNormalized: readonly [boolean, boolean, boolean, boolean];
  /** OFFSET_X/Y/Z: 5-bit signed fields in half texels (sign-extended raw values). */
  readonly offset: readonly [number, number, number];
  readonly samplerId: number;
  /** SRC_SEL_X..W: 0..3 channel, 4 zero, 5 one, 7 masked. */
  readonly srcSel: readonly [number, number, number, number];
}

/** One MEM_GDS instruction (128 bits: MEM_GDS_WORD0..2 and a pad dword). */
export interface GdsInst {
  readonly offset: number;
  readonly words: readonly [number, number, number, number];
  /** MEM_INST (2 for GDS) and MEM_OP (4 GDS, 5 TF_WRITE). */
  readonly memInst: number;
  readonly memOp: number;
  readonly gdsOp: number;
  readonly op: GdsOpInfo | undefined;
  readonly srcGpr: number;
  readonly srcRel: number;
  /** SRC_SEL_X/Y/Z: address, data0, data1 (0..3 channel, 4 zero, 5 one, 7 masked). */
  readonly srcSel: readonly [number, number, number];
  readonly dstGpr: number;
  readonly dstRel: number;
  /** MEM_GDS_WORD1 SRC_GPR (second source GPR; gpusim reads every source from SRC_GPR). */
  readonly srcGpr2: number;
  readonly uavIndexMode: number;
  readonly uavId: number;
  readonly allocConsume: boolean;
  readonly bcastFirstReq: boolean;
  readonly dstSel: readonly [number, number, number, number];
}
export type GdsOpInfo = (typeof GDS_OPS)[number];

export type CfKind = 'cf' | 'alu' | 'export';

export interface CfInst {
  readonly index: number;
  readonly w0: number;
  readonly w1: number;
  readonly kind: CfKind;
  readonly code: number;
  readonly op: CfOpInfo | undefined;
  /** CF_WORD0 / CF_ALU_WORD0 ADDR. */
  readonly addr: number;
  readonly jumptableSel: number;
  readonly popCount: number;
  readonly cfConst: number;
  readonly cond: number;
  /** COUNT field (instructions - 1 for clauses). */
  readonly count: number;
  readonly validPixelMode: boolean;
  readonly endOfProgram: boolean;
  readonly wholeQuadMode: boolean;
  readonly barrier: boolean;
  readonly kcache: readonly [KCacheSet, KCacheSet];
  readonly altConst: boolean;
  /** CF_ALLOC_EXPORT fields. */
  readonly ratId: number;
  readonly ratInst: number;
  readonly rat: RatInstInfo | undefined;
  readonly ratIndexMode: number;
  readonly exportType: number;
  readonly rwGpr: number;
  readonly rwRel: boolean;
  readonly indexGpr: number;
  readonly elemSize: number;
  readonly arraySize: number;
  readonly compMask: number;
  readonly burstCount: number;
  readonly mark: boolean;
  /** CF_ALLOC_EXPORT_WORD0 ARRAY_BASE (exports: the target index; MEM_*: the base element). */
  readonly arrayBase: number;
  /** CF_ALLOC_EXPORT_WORD1_SWIZ SEL_X..W (EXPORT / EXPORT_DONE): 0..3 channel, 4 zero, 5 one, 7 masked. */
  readonly swizzle: readonly [number, number, number, number];
  /** Decoded clause for ALU / fetch clause instructions. */
  aluClause?: AluGroup[];
  fetchClause?: FetchInst[];
  gdsClause?: GdsInst[];
}

export interface R600Program {
  readonly gen: R600Gen;
  readonly cf: CfInst[];
  /** Index of the first CF instruction past the program's end (after CF_END / END_OF_PROGRAM). */
  readonly cfEnd: number;
  /** Byte length covered by the CF program and its clauses. */
  readonly size: number;
  /** GPRs the program names (highest + 1; 128 when any operand is relative). */
  readonly gprCount: number;
}

const bits = (v: number, lo: number, n: number): number => (v >>> lo) & ((1 << n) - 1);

const aluByCode = new Map<string, AluOpInfo>();
for (const g of ['r600', 'r700', 'evergreen', 'cayman'] as const) {
  const col = GEN_COLUMN[g];
  for (const op of ALU_OPS) {
    const code = col >= 2 ? op.eg : op.r600;
    if (code < 0 || op.slots[col] === '') continue;
    aluByCode.set(`${g}:${op.enc}:${code}`, op);
  }
}
const cfByCode = new Map<string, CfOpInfo>();
for (const g of ['r600', 'r700', 'evergreen', 'cayman'] as const) {
  for (const op of CF_OPS) {
    const c = op.codes[GEN_COLUMN[g]];
    if (c >= 0) cfByCode.set(`${g}:${op.alu ? 'alu' : 'cf'}:${c}`, op);
  }
}
const gdsByCode = new Map<number, GdsOpInfo>(GDS_OPS.map((g) => [g.code, g]));
export function gdsOp(code: number): GdsOpInfo | undefined {
  return gdsByCode.get(code);
}
const ratByCode = new Map<number, RatInstInfo>(RAT_INSTS.map((r) => [r.code, r]));
const vtxBytes = new Map<number, number>(VTX_FORMATS.map((f) => [f.format, f.bits / 8]));
const texByCode = new Map<string, TexInstInfo>();
for (const g of ['r600', 'r700', 'evergreen', 'cayman'] as const) {
  for (const op of TEX_INSTS) if (op.codes[GEN_COLUMN[g]] >= 0) texByCode.set(`${g}:${op.codes[GEN_COLUMN[g]]}`, op);
}
export function texInst(gen: R600Gen, code: number): TexInstInfo | undefined {
  return texByCode.get(`${gen}:${code}`);
}
const sext = (v: number, n: number): number => (v << (32 - n)) >> (32 - n);

/** TEX_WORD0..2 -> a texture instruction record. */
export function decodeTex(gen: R600Gen, a: number, b: number, c: number): TexInst {
  const code = bits(a, 0, 5);
  return {
    code, op: texInst(gen, code),
    instMod: bits(a, 5, 2),
    fetchWholeQuad: bits(a, 7, 1) === 1,
    resourceId: bits(a, 8, 8),
    srcGpr: bits(a, 16, 7),
    srcRel: bits(a, 23, 1) === 1,
    altConst: bits(a, 24, 1) === 1,
    resourceIndexMode: bits(a, 25, 2),
    samplerIndexMode: bits(a, 27, 2),
    dstGpr: bits(b, 0, 7),
    dstRel: bits(b, 7, 1) === 1,
    dstSel: [bits(b, 9, 3), bits(b, 12, 3), bits(b, 15, 3), bits(b, 18, 3)],
    lodBias: sext(bits(b, 21, 7), 7),
    coordNormalized: [bits(b, 28, 1) === 1, bits(b, 29, 1) === 1, bits(b, 30, 1) === 1, bits(b, 31, 1) === 1],
    offset: [sext(bits(c, 0, 5), 5), sext(bits(c, 5, 5), 5), sext(bits(c, 10, 5), 5)],
    samplerId: bits(c, 15, 5),
    srcSel: [bits(c, 20, 3), bits(c, 23, 3), bits(c, 26, 3), bits(c, 29, 3)],
  };
}

export function aluOp(gen: R600Gen, enc: 'op2' | 'op3' | 'lds', code: number): AluOpInfo | undefined {
  return aluByCode.get(`${gen}:${enc}:${code}`);
}
export function cfOp(gen: R600Gen, alu: boolean, code: number): CfOpInfo | undefined {
  return cfByCode.get(`${gen}:${alu ? 'alu' : 'cf'}:${code}`);
}
export function ratInst(code: number): RatInstInfo | undefined {
  return ratByCode.get(code);
}

/** Is a CF_WORD1 value an ALU clause instruction (CF_ALU_WORD1 encoding)? Bits 29:26 in 8..15. */
export function isCfAlu(w1: number): boolean {
  return bits(w1, 26, 4) >= 8;
}

/** Does this CF_INST use the CF_ALLOC_EXPORT encoding (exports, MEM_*)? */
export function isCfExport(gen: R600Gen, code: number): boolean {
  return gen === 'evergreen' || gen === 'cayman' ? code >= 0x40 : code >= 0x20 && code <= 0x3a;
}

export function decodeCf(gen: R600Gen, index: number, w0: number, w1: number): CfInst {
  const alu = isCfAlu(w1);
  const code = alu ? bits(w1, 26, 4) : bits(w1, 22, 8);
  const kind: CfKind = alu ? 'alu' : isCfExport(gen, code) ? 'export' : 'cf';
  const op = cfOp(gen, alu, code);
  const eg = gen === 'evergreen' || gen === 'cayman';
  const base = {
    index, w0, w1, kind, code, op,
    addr: 0, jumptableSel: 0, popCount: 0, cfConst: 0, cond: 0, count: 0, validPixelMode: false, endOfProgram: false,
    wholeQuadMode: false, barrier: bits(w1, 31, 1) === 1,
    kcache: [{ bank: 0, mode: 0, addr: 0 }, { bank: 0, mode: 0, addr: 0 }] as [KCacheSet, KCacheSet], altConst: false,
    ratId: 0, ratInst: 0, rat: undefined, ratIndexMode: 0, exportType: 0, rwGpr: 0, rwRel: false, indexGpr: 0,
    elemSize: 0, arraySize: 0, compMask: 0, burstCount: 0, mark: false, arrayBase: 0, swizzle: [0, 0, 0, 0] as const,
  };
  if (kind === 'alu') {
    return {
      ...base,
      addr: bits(w0, 0, 22),
      kcache: [
        { bank: bits(w0, 22, 4), mode: bits(w0, 30, 2), addr: bits(w1, 2, 8) },
        { bank: bits(w0, 26, 4), mode: bits(w1, 0, 2), addr: bits(w1, 10, 8) },
      ],
      count: bits(w1, 18, 7),
      altConst: bits(w1, 25, 1) === 1,
      wholeQuadMode: bits(w1, 30, 1) === 1,
    };
  }
  if (kind === 'export') {
    const rat = ratInst(bits(w0, 4, 6));
    return {
      ...base,
      ratId: bits(w0, 0, 4),
      ratInst: bits(w0, 4, 6),
      rat,
      ratIndexMode: bits(w0, 11, 2),
      exportType: bits(w0, 13, 2),
      rwGpr: bits(w0, 15, 7),
      rwRel: bits(w0, 22, 1) === 1,
      indexGpr: bits(w0, 23, 7),
      elemSize: bits(w0, 30, 2),
      arraySize: bits(w1, 0, 12),
      compMask: bits(w1, 12, 4),
      burstCount: bits(w1, 16, 4),
      validPixelMode: bits(w1, 20, 1) === 1,
      endOfProgram: gen !== 'cayman' && bits(w1, 21, 1) === 1,
      mark: bits(w1, 30, 1) === 1,
      arrayBase: bits(w0, 0, 13),
      swizzle: [bits(w1, 0, 3), bits(w1, 3, 3), bits(w1, 6, 3), bits(w1, 9, 3)],
    };
  }
  return {
    ...base,
    addr: bits(w0, 0, 24),
    jumptableSel: eg ? bits(w0, 24, 3) : 0,
    popCount: bits(w1, 0, 3),
    cfConst: bits(w1, 3, 5),
    cond: bits(w1, 8, 2),
    count: eg ? bits(w1, 10, 6) : bits(w1, 10, 3) | (bits(w1, 19, 1) << 3),
    validPixelMode: bits(w1, 20, 1) === 1,
    endOfProgram: gen !== 'cayman' && bits(w1, 21, 1) === 1,
    wholeQuadMode: bits(w1, 30, 1) === 1,
  };
}

export function decodeAlu(gen: R600Gen, offset: number, w0: number, w1: number): AluInst {
  const op3 = bits(w1, 15, 3) !== 0;
  const op3code = bits(w1, 13, 5);
  const eg = gen === 'evergreen' || gen === 'cayman';
  const lds = op3 && eg && op3code === 0x11;
  const enc = lds ? 'lds' : op3 ? 'op3' : 'op2';
  // First-generation R600 op2: FOG_MERGE at bit 5, OMOD 7:6, a 10-bit ALU_INST at 17:8.
  const r6 = gen === 'r600' && !op3;
  const code = lds ? bits(w1, 21, 6) : op3 ? op3code : r6 ? bits(w1, 8, 10) : bits(w1, 7, 11);
  const src: AluSrc[] = [
    { sel: bits(w0, 0, 9), rel: bits(w0, 9, 1) === 1, chan: bits(w0, 10, 2), neg: !lds && bits(w0, 12, 1) === 1, abs: !op3 && bits(w1, 0, 1) === 1 },
    { sel: bits(w0, 13, 9), rel: bits(w0, 22, 1) === 1, chan: bits(w0, 23, 2), neg: !lds && bits(w0, 25, 1) === 1, abs: !op3 && bits(w1, 1, 1) === 1 },
  ];
  if (op3) src.push({ sel: bits(w1, 0, 9), rel: bits(w1, 9, 1) === 1, chan: bits(w1, 10, 2), neg: !lds && bits(w1, 12, 1) === 1, abs: false });
  const ldsOffset = lds
    ? (bits(w1, 27, 1) << 0) | (bits(w1, 12, 1) << 1) | (bits(w1, 28, 1) << 2) | (bits(w1, 31, 1) << 3) | (bits(w0, 12, 1) << 4) | (bits(w0, 25, 1) << 5)
    : 0;
  return {
    offset, w0, w1, enc, code,
    op: aluOp(gen, enc, code),
    src,
    last: bits(w0, 31, 1) === 1,
    predSel: bits(w0, 29, 2),
    indexMode: bits(w0, 26, 3),
    bankSwizzle: bits(w1, 18, 3),
    dstGpr: lds ? 0 : bits(w1, 21, 7),
    dstRel: !lds && bits(w1, 28, 1) === 1,
    dstChan: bits(w1, 29, 2),
    clamp: !lds && bits(w1, 31, 1) === 1,
    writeMask: !op3 && bits(w1, 4, 1) === 1,
    updateExecMask: !op3 && bits(w1, 2, 1) === 1,
    updatePred: !op3 && bits(w1, 3, 1) === 1,
    omod: op3 ? 0 : r6 ? bits(w1, 6, 2) : bits(w1, 5, 2),
    fogMerge: r6 && bits(w1, 5, 1) === 1,
    ldsOffset,
    slot: 0,
  };
}

/**
 * One 128-bit fetch-clause instruction. In a TC clause (`gen` given) an instruction whose TEX_INST
 * field is 3 or more is a texture instruction (TEX words); 0..2 (VTX_FETCH, VTX_SEMANTIC, MEM) and
 * everything in VC clauses are VTX words.
 */
export function decodeFetch(offset: number, a: number, b: number, c: number, d: number, gen?: R600Gen): FetchInst {
  const dataFormat = bits(b, 22, 6);
  return {
    offset, words: [a, b, c, d],
    vcInst: bits(a, 0, 5),
    fetchType: bits(a, 5, 2),
    fetchWholeQuad: bits(a, 7, 1) === 1,
    bufferId: bits(a, 8, 8),
    srcGpr: bits(a, 16, 7),
    srcRel: bits(a, 23, 1) === 1,
    srcSelX: bits(a, 24, 2),
    megaFetchCount: bits(a, 26, 6),
    dstGpr: bits(b, 0, 7),
    dstRel: bits(b, 7, 1) === 1,
    dstSel: [bits(b, 9, 3), bits(b, 12, 3), bits(b, 15, 3), bits(b, 18, 3)],
    useConstFields: bits(b, 21, 1) === 1,
    dataFormat,
    numFormatAll: bits(b, 28, 2),
    formatCompAll: bits(b, 30, 1) === 1,
    srfModeAll: bits(b, 31, 1) === 1,
    offsetBytes: bits(c, 0, 16),
    endianSwap: bits(c, 16, 2),
    constBufNoStride: bits(c, 18, 1) === 1,
    megaFetch: bits(c, 19, 1) === 1,
    altConst: bits(c, 20, 1) === 1,
    bufferIndexMode: bits(c, 21, 2),
    bytes: vtxBytes.get(dataFormat) ?? 0,
    tex: gen !== undefined && bits(a, 0, 5) >= 3 ? decodeTex(gen, a, b, c) : undefined,
  };
}

export function decodeGds(offset: number, a: number, b: number, c: number, d: number): GdsInst {
  const memOp = bits(a, 8, 3);
  const code = bits(b, 9, 6);
  return {
    offset, words: [a, b, c, d],
    memInst: bits(a, 0, 5),
    memOp,
    gdsOp: code,
    op: memOp === 4 ? gdsOp(code) : undefined,
    srcGpr: bits(a, 11, 7),
    srcRel: bits(a, 18, 2),
    srcSel: [bits(a, 20, 3), bits(a, 23, 3), bits(a, 26, 3)],
    dstGpr: bits(b, 0, 7),
    dstRel: bits(b, 7, 2),
    srcGpr2: bits(b, 16, 7),
    uavIndexMode: bits(b, 24, 2),
    uavId: bits(b, 26, 4),
    allocConsume: bits(b, 30, 1) === 1,
    bcastFirstReq: bits(b, 31, 1) === 1,
    dstSel: [bits(c, 0, 3), bits(c, 3, 3), bits(c, 6, 3), bits(c, 9, 3)],
  };
}

/**
 * Which slot each instruction of a group occupies (VLIW5: x y z w t; VLIW4 on Cayman: x y z w).
 * A vector-capable op takes its destination channel's slot; a trans-only op, or an op whose vector
 * slot is already taken, goes to t. Returns why the group is illegal (a slot used twice, a
 * vector-only op pushed to t), or undefined. (Cayman's former trans ops may sit in any of x..w:
 * LLVM replicates RECIP_IEEE and friends across all four.)
 */
export function assignSlots(gen: R600Gen, insts: AluInst[]): string | undefined {
  const used = [false, false, false, false, false];
  const col = GEN_COLUMN[gen];
  let error: string | undefined;
  for (const inst of insts) {
    const slots = inst.op?.slots[col] ?? 'VS';
    let s = inst.dstChan;
    if (gen === 'cayman') {
      if (used[s]) error ??= `two instructions in slot ${'xyzw'[s]}`;
      inst.slot = s;
      used[s] = true;
      continue;
    }
    if (slots === 'S' || used[s]) s = 4;
    if (s === 4 && used[4]) error ??= 'two instructions need the trans slot';
    if (s === 4 && (slots === 'V' || slots === '4V' || slots === 'XY' || slots === 'ZW')) error ??= `${inst.op?.name} is vector-only but its slot ${'xyzw'[inst.dstChan]} is taken`;
    inst.slot = s;
    used[s] = true;
  }
  return error;
}

/** GPR read cycle of each source per BANK_SWIZZLE: vector slots VEC_012..VEC_210, the trans slot SCL_210..SCL_221. */
const VEC_CYCLES = [[0, 1, 2], [0, 2, 1], [1, 2, 0], [1, 0, 2], [2, 0, 1], [2, 1, 0]] as const;
const SCL_CYCLES = [[2, 1, 0], [1, 2, 2], [2, 1, 2], [2, 2, 1]] as const;

/**
 * The GPR read-port rule of an instruction group: in each of the three read cycles, each channel
 * (bank) can read one GPR address; BANK_SWIZZLE says in which cycle each source is read. Two
 * different GPRs of one channel in one cycle, or a swizzle the slot does not have, is illegal.
 * Constants, literals, PV/PS and relative sources use no GPR port here.
 */
export function bankSwizzleError(insts: readonly AluInst[]): string | undefined {
  const port = new Map<number, number>();
  for (const inst of insts) {
    const cycles = inst.slot === 4 ? SCL_CYCLES[inst.bankSwizzle] : VEC_CYCLES[inst.bankSwizzle];
    if (!cycles) return `BANK_SWIZZLE ${inst.bankSwizzle} does not exist for the ${inst.slot === 4 ? 'trans' : 'vector'} slot`;
    const n = inst.op ? inst.op.srcs : inst.src.length;
    for (let k = 0; k < n && k < inst.src.length; k++) {
      const s = inst.src[k]!;
      if (s.sel >= 128 || s.rel) continue;
      const key = cycles[k]! * 4 + s.chan;
      const prev = port.get(key);
      if (prev !== undefined && prev !== s.sel) return `T${prev}.${'XYZW'[s.chan]} and T${s.sel}.${'XYZW'[s.chan]} are both read in cycle ${cycles[k]}`;
      port.set(key, s.sel);
    }
  }
  return undefined;
}

const isKcache = (sel: number): boolean => (sel >= SRC.KC0 && sel < SRC.KC1 + 32) || (sel >= SRC.KC2 && sel < SRC.KC3 + 32);

/**
 * Constant-read rules of an instruction group (R700 and later; the rules LLVM's R600 scheduler
 * enforces in fitsConstReadLimitations / isConstCompatible):
 * - the trans slot reads at most two constants (kcache, inline constants, literals; PV/PS are not
 *   constants), and a trans instruction that reads one constant cannot read a GPR in cycle 0, one that
 *   reads two cannot read a GPR in cycle 1 either (cycles from its SCL_* BANK_SWIZZLE);
 * - the kcache constants of a group come from at most two channel pairs ([XY] or [ZW] of one address).
 */
export function constReadError(gen: R600Gen, insts: readonly AluInst[]): string | undefined {
  if (gen === 'r600') return undefined;
  for (const inst of insts) {
    if (inst.slot !== 4) continue;
    const n = Math.min(inst.op ? inst.op.srcs : inst.src.length, inst.src.length);
    let consts = 0;
    for (let k = 0; k < n; k++) {
      const sel = inst.src[k]!.sel;
      if (sel >= 128 && sel !== SRC.PV && sel !== SRC.PS) consts++;
    }
    if (consts > 2) return `the trans slot (${inst.op?.name}) reads ${consts} constants (at most 2)`;
    const cycles = SCL_CYCLES[inst.bankSwizzle];
    if (!cycles || consts === 0) continue;
    for (let k = 0; k < n; k++) {
      const s = inst.src[k]!;
      if (s.sel >= 128) continue;
      const c = cycles[k]!;
      if (c === 0 || (c === 1 && consts > 1))
        return `the trans slot (${inst.op?.name}) reads ${consts} constant${consts > 1 ? 's' : ''} and GPR T${s.sel} in cycle ${c} (${BANK_SWIZZLE_TRANS[inst.bankSwizzle]})`;
    }
  }
  const pairs: string[] = [];
  for (const inst of insts) {
    const n = Math.min(inst.op ? inst.op.srcs : inst.src.length, inst.src.length);
    for (let k = 0; k < n; k++) {
      const s = inst.src[k]!;
      if (!isKcache(s.sel) || s.rel) continue;
      const key = `${s.sel}.${s.chan < 2 ? 'XY' : 'ZW'}`;
      if (!pairs.includes(key)) pairs.push(key);
    }
  }
  if (pairs.length > 2) return `kcache constants from ${pairs.length} channel pairs (${pairs.join(', ')}); a group reads at most 2`;
  return undefined;
}
const BANK_SWIZZLE_TRANS = ['SCL_210', 'SCL_122', 'SCL_212', 'SCL_221'];

/**
 * Decode a whole program: CF instructions from dword 0 until END_OF_PROGRAM / CF_END (inclusive), and
 * every clause those instructions reference. `words` is the shader's dword view (little-endian).
 */
export function decodeProgram(gen: R600Gen, words: Uint32Array, where = 'r600 program', entries?: readonly number[]): R600Program {
  const cf: CfInst[] = [];
  const nSlots = words.length >>> 1;
  let end = -1;
  let maxByte = 0;
  for (let i = 0; i < nSlots; i++) {
    const inst = decodeCf(gen, i, words[2 * i]!, words[2 * i + 1]!);
    cf.push(inst);
    maxByte = Math.max(maxByte, (i + 1) * 8);
    const isEnd = inst.endOfProgram || (gen === 'cayman' && inst.kind === 'cf' && inst.op?.name === 'CF_END');
    if (isEnd) {
      end = i + 1;
      // LLVM follows an export that carries END_OF_PROGRAM with a CF_END (NOP + EOP) anyway; keep it.
      if (inst.kind === 'export' && i + 1 < nSlots) {
        const next = decodeCf(gen, i + 1, words[2 * i + 2]!, words[2 * i + 3]!);
        if (next.kind === 'cf' && next.endOfProgram && next.op?.name === 'NOP') {
          cf.push(next);
          end = i + 2;
          maxByte += 8;
        }
      }
      break;
    }
  }
  if (end < 0) throw new InputError(`no END_OF_PROGRAM / CF_END in ${nSlots} CF slots`, where);
  // Subroutines placed after the end (CALL targets, the fetch shader of CALL_FS): decode the CF
  // slots up to each one's RETURN too.
  const targets = [...(entries ?? []), ...cf.filter((c) => c.kind === 'cf' && c.op?.name === 'CALL').map((c) => c.addr)].sort((a, b) => a - b);
  for (const t of targets) {
    if (t < end) continue;
    let i = end;
    for (; i < nSlots; i++) {
      const inst = decodeCf(gen, i, words[2 * i]!, words[2 * i + 1]!);
      cf.push(inst);
      if (i >= t && inst.kind === 'cf' && inst.op?.name === 'RETURN') break;
    }
    if (i >= nSlots) throw new InputError(`subroutine at CF ${t} has no RETURN`, where);
    end = i + 1;
    maxByte = Math.max(maxByte, end * 8);
    for (const c of cf) if (c.kind === 'cf' && c.op?.name === 'CALL' && c.addr >= end && !targets.includes(c.addr)) targets.push(c.addr);
  }
  for (const inst of cf) {
    if (inst.kind === 'alu' && inst.op?.name !== 'ALU_EXTENDED') {
      const start = inst.addr * 8;
      const n = inst.count + 1;
      if (start + n * 8 > words.length * 4) throw new InputError(`ALU clause at ${hex(start)} (${n} slots) runs past the program`, `${where} CF ${inst.index}`);
      inst.aluClause = decodeAluClause(gen, words, start, n, `${where} CF ${inst.index}`);
      maxByte = Math.max(maxByte, start + n * 8);
    } else if (inst.kind === 'cf' && inst.op?.name === 'GDS') {
      const start = inst.addr * 8;
      const n = inst.count + 1;
      if (start + n * 16 > words.length * 4) throw new InputError(`GDS clause at ${hex(start)} (${n} instructions) runs past the program`, `${where} CF ${inst.index}`);
      const list: GdsInst[] = [];
      for (let k = 0; k < n; k++) {
        const o = (start >>> 2) + 4 * k;
        list.push(decodeGds(start + 16 * k, words[o]!, words[o + 1]!, words[o + 2]!, words[o + 3]!));
      }
      inst.gdsClause = list;
      maxByte = Math.max(maxByte, start + n * 16);
    } else if (inst.kind === 'cf' && (inst.op?.name === 'TC' || inst.op?.name === 'VC' || inst.op?.name === 'VC_TC')) {
      const start = inst.addr * 8;
      const n = inst.count + 1;
      if (start + n * 16 > words.length * 4) throw new InputError(`fetch clause at ${hex(start)} (${n} instructions) runs past the program`, `${where} CF ${inst.index}`);
      const list: FetchInst[] = [];
      for (let k = 0; k < n; k++) {
        const o = (start >>> 2) + 4 * k;
        list.push(decodeFetch(start + 16 * k, words[o]!, words[o + 1]!, words[o + 2]!, words[o + 3]!, inst.op?.name === 'TC' ? gen : undefined));
      }
      inst.fetchClause = list;
      maxByte = Math.max(maxByte, start + n * 16);
    }
  }
  return { gen, cf, cfEnd: end, size: maxByte, gprCount: gprCountOf(cf) };
}

/** Decode `slots` 64-bit slots of an ALU clause starting at byte `start` into instruction groups. */
export function decodeAluClause(gen: R600Gen, words: Uint32Array, start: number, slots: number, where: string): AluGroup[] {
  const groups: AluGroup[] = [];
  let i = 0;
  while (i < slots) {
    const insts: AluInst[] = [];
    const goff = start + i * 8;
    for (;;) {
      if (i >= slots) throw new InputError(`ALU group at ${hex(goff)} has no LAST bit before the clause ends`, where);
      const o = (start >>> 2) + 2 * i;
      const inst = decodeAlu(gen, start + i * 8, words[o]!, words[o + 1]!);
      insts.push(inst);
      i++;
      if (inst.last) break;
      if (insts.length > 5) throw new InputError(`ALU group at ${hex(goff)} has more than 5 instructions`, where);
    }
    let nLit = 0;
    for (const inst of insts) for (const s of inst.src) if (s.sel === SRC.LITERAL) nLit = Math.max(nLit, s.chan + 1);
    const literals: number[] = [];
    if (nLit > 0) {
      const litSlots = (nLit + 1) >>> 1;
      if (i + litSlots > slots) throw new InputError(`literals of the ALU group at ${hex(goff)} run past the clause`, where);
      for (let k = 0; k < litSlots * 2; k++) literals.push(words[(start >>> 2) + 2 * i + k]!);
      i += litSlots;
    }
    const slotError = assignSlots(gen, insts);
    const bankError = slotError ? undefined : bankSwizzleError(insts);
    const constError = slotError ? undefined : constReadError(gen, insts);
    groups.push({ insts, literals, offset: goff, slotError, bankError, constError, barrier: insts.some((x) => x.op?.name === 'GROUP_BARRIER') });
  }
  return groups;
}

function gprCountOf(cf: readonly CfInst[]): number {
  let max = 1;
  const see = (r: number): void => {
    if (r > max) max = r;
  };
  for (const c of cf) {
    if (c.kind === 'export') {
      see(c.rwGpr);
      see(c.indexGpr);
      if (c.rwRel) return 128;
    }
    for (const g of c.aluClause ?? []) {
      for (const i of g.insts) {
        if (i.dstRel) return 128;
        see(i.dstGpr);
        for (const s of i.src) {
          if (s.sel < 128) {
            if (s.rel) return 128;
            see(s.sel);
          }
        }
      }
    }
    for (const g of c.gdsClause ?? []) {
      if (g.srcRel || g.dstRel) return 128;
      see(g.srcGpr);
      see(g.dstGpr);
    }
    for (const f of c.fetchClause ?? []) {
      if (f.srcRel || f.dstRel) return 128;
      see(f.srcGpr);
      see(f.dstGpr);
    }
  }
  return max + 1;
}
