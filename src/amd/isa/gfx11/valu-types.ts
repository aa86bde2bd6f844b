/**
 * Shapes of the generated VALU opcode tables (vop1/vop2/vopc/vop3 .gen.ts) and the encoding
 * layouts they were probed through. The tables are facts read off LLVM by tools/gen/amd/gen-valu.ts.
 */

/** A bit field of an encoding: dword index, low bit, width. */
export interface FieldDef {
  readonly w: number;
  readonly lo: number;
  readonly n: number;
}

/**
 * How a source operand's value is typed, as far as printing constants goes (decided by probing LLVM
 * with inline constants and literals): 32-bit ('f32'; integer and float print alike), 16-bit float
 * ('f16'), 16-bit integer ('i16': float inline constants print as their bit patterns), 64-bit float
 * ('f64': the literal is the high dword), 64-bit integer ('i64').
 */
export type ValuType = 'f32' | 'f16' | 'i16' | 'f64' | 'i64' | 'bf16' | 'k32' | 'k16';

/** One printed operand of an instruction. */
export interface ValuOperand {
  /** Encoding field the operand comes from ('vdst', 'sdst', 'src0', 'src1', 'src2', 'vsrc1', 'lit'), or '' for fixed text. */
  readonly f: string;
  /** 'v' VGPR field, 's' scalar destination field, 'src' 9-bit source field, 'k' literal constant, 'x' fixed text. */
  readonly k: 'v' | 's' | 'src' | 'k' | 'x';
  /** Width in dwords. */
  readonly n: number;
  /** Constant typing of a 'src'/'k' operand. */
  readonly t?: ValuType;
  /** Source classes LLVM decodes in this operand (bit mask of SRC_CLASS), for 'src' operands. */
  readonly ok?: number;
  /** Source classes LLVM decodes in this operand but prints with an "Invalid" remark. */
  readonly rk?: number;
  /** The register class LLVM names in that remark ('v' operands: v128..v255 decode with this remark). */
  readonly rc?: string;
  /** True16 register syntax (`v5.l` / `v5.h`, the high bit of the VGPR index selects `.h`). */
  readonly h?: 1;
  /** 'v' operands: only v0..v127 decode. */
  readonly lo?: 1;
  /** Fixed text for k === 'x' (e.g. `vcc_lo`). */
  readonly x?: string;
  /**
   * A lane mask (VCC or an SGPR carry/condition): one dword in wave32, a pair in wave64, as LLVM
   * prints it with +wavefrontsize64 (`s4` -> `s[4:5]`, `vcc_lo` -> `vcc`). Set by gen-valu's wave64 probe.
   */
  readonly lm?: 1;
}

/** An operand as it reads in wave64: lane masks widen to a pair (`vcc_lo` fixed text to `vcc`). */
export function wave64Operand<O extends ValuOperand>(o: O): O {
  if (!o.lm) return o;
  return { ...o, n: 2, ...(o.k === 'x' ? { x: o.x === 'vcc_lo' ? 'vcc' : o.x } : {}) };
}

/** An opcode table as it reads in wave64 (the same encodings; only lane-mask operands widen). */
export function wave64Table<I extends { readonly ops: readonly ValuOperand[] }>(t: Readonly<Record<number, I>>): Record<number, I> {
  const out: Record<number, I> = {};
  for (const [k, info] of Object.entries(t)) out[Number(k)] = info.ops.some((o) => o.lm) ? { ...info, ops: info.ops.map(wave64Operand) } : info;
  return out;
}

/** One opcode of one encoding. */
export interface ValuOpInfo {
  /** LLVM's mnemonic as printed (with `_e32`/`_e64` when LLVM prints it). */
  readonly m: string;
  readonly ops: readonly ValuOperand[];
  /** Bits of each dword that must be zero (LLVM treats the word as `<unknown>` otherwise). */
  readonly z: readonly number[];
  /** VOP3: abs bits (of the 3-bit field) that print, neg bits that print, op_sel bits that print. */
  readonly abs?: number;
  readonly neg?: number;
  /** Neg bits that print as `sext(...)` (integer operands). */
  readonly sx?: number;
  readonly sel?: number;
  /** The op_sel bit each printed `op_sel:[...]` entry shows (-1: an entry no bit sets). */
  readonly selb?: readonly number[];
  readonly clamp?: 1;
  readonly omod?: 1;
  /** Bits llvm-mc sets that no printed operand names (e.g. v_cmpx_*_e64's vdst = exec_lo), per dword. */
  readonly a?: readonly number[];
  /** VOP3SD (scalar carry/condition destination in bits 14:8). */
  readonly sd?: 1;
}

/** Source operand classes for ValuOperand.ok: which kinds of 9-bit source values LLVM accepts. */
export const SRC_CLASS = {
  vgpr: 1, sgpr: 2, vcc: 4, ttmp: 8, null: 16, m0: 32, exec: 64, int: 128, float: 256, literal: 512, special: 1024, scc: 2048,
  /** v128..v255 (16-bit operands in LLVM's "fake16" mode only reach v0..v127). */
  vgprHi: 4096,
  /** src_lds_direct (254), which LLVM 19 still decodes in GFX11 VALU sources. */
  lds: 8192,
} as const;

/** A representative value of each class, used by the generator to probe LLVM. */
export const SRC_CLASS_PROBE: Readonly<Record<keyof typeof SRC_CLASS, number>> = {
  vgpr: 266, sgpr: 4, vcc: 106, ttmp: 110, null: 124, m0: 125, exec: 126, int: 129, float: 240, literal: 255, special: 235, scc: 253,
  vgprHi: 456, lds: 254,
};

/** Class of a 9-bit source value. */
export function srcClass(v: number): number {
  if (v >= 384) return SRC_CLASS.vgprHi;
  if (v >= 256) return SRC_CLASS.vgpr;
  if (v < 106) return SRC_CLASS.sgpr;
  if (v < 108) return SRC_CLASS.vcc;
  if (v < 124) return SRC_CLASS.ttmp;
  if (v === 124) return SRC_CLASS.null;
  if (v === 125) return SRC_CLASS.m0;
  if (v < 128) return SRC_CLASS.exec;
  if (v <= 208) return SRC_CLASS.int;
  if (v >= 240 && v <= 248) return SRC_CLASS.float;
  if (v === 255) return SRC_CLASS.literal;
  if (v >= 235 && v <= 239) return SRC_CLASS.special;
  if (v >= 251 && v <= 253) return SRC_CLASS.scc;
  if (v === 254) return SRC_CLASS.lds;
  return 0;
}
