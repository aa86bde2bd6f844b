/**
 * Field layouts of the scalar encodings (SOP1, SOP2, SOPK, SOPC, SOPP, SMEM) and the shape of their
 * generated opcode tables. Layouts are per-target data (checked against llvm-mc -show-encoding by
 * the golden files); the generator tools/gen/amd/gen-scalar.ts and the codecs in scalar.ts share them.
 */
import type { EncodingName } from '../types.js';

/** A bit field: dword index (0 or 1), low bit, width. */
export interface BitField {
  readonly word: 0 | 1;
  readonly lo: number;
  readonly bits: number;
}

export type ScalarClass = 'SOP1' | 'SOP2' | 'SOPK' | 'SOPC' | 'SOPP' | 'SMEM';

export interface ScalarLayout {
  readonly name: ScalarClass & EncodingName;
  /** Dwords of the base encoding (without literal). */
  readonly dwords: 1 | 2;
  /** `(w0 & mask) === value` claims the dword... */
  readonly mask: number;
  readonly value: number;
  /** ...unless `(w0 & notMask) === notValue` (SOP2 shares its prefix with SOPK/SOP1/SOPC/SOPP). */
  readonly notMask?: number;
  readonly notValue?: number;
  readonly op: BitField;
  /** Opcodes to enumerate (the op field values that are this encoding's). */
  readonly opCount: number;
  /** Named fields other than the opcode. */
  readonly fields: Readonly<Record<string, BitField>>;
}

const f = (word: 0 | 1, lo: number, bits: number): BitField => ({ word, lo, bits });

/** GFX11 (gfx1100) scalar encodings. */
export const GFX11_SCALAR: readonly ScalarLayout[] = [
  {
    name: 'SOP1', dwords: 1, mask: 0xff800000 | 0, value: 0xbe800000 | 0, op: f(0, 8, 8), opCount: 256,
    fields: { sdst: f(0, 16, 7), ssrc0: f(0, 0, 8) },
  },
  {
    name: 'SOPC', dwords: 1, mask: 0xff800000 | 0, value: 0xbf000000 | 0, op: f(0, 16, 7), opCount: 128,
    fields: { ssrc1: f(0, 8, 8), ssrc0: f(0, 0, 8) },
  },
  {
    name: 'SOPP', dwords: 1, mask: 0xff800000 | 0, value: 0xbf800000 | 0, op: f(0, 16, 7), opCount: 128,
    fields: { simm16: f(0, 0, 16) },
  },
  {
    // SOPK ops 29..31 are SOP1/SOPC/SOPP; 28 (prefix 0x17C) is unused.
    name: 'SOPK', dwords: 1, mask: 0xf0000000 | 0, value: 0xb0000000 | 0, notMask: 0xfe000000 | 0, notValue: 0xbe000000 | 0,
    op: f(0, 23, 5), opCount: 28,
    fields: { sdst: f(0, 16, 7), simm16: f(0, 0, 16) },
  },
  {
    // [31:30]=0b10 but not [29:28]=0b11 (that is SOPK and the 0x17D..0x17F classes).
    name: 'SOP2', dwords: 1, mask: 0xc0000000 | 0, value: 0x80000000 | 0, notMask: 0x30000000, notValue: 0x30000000,
    op: f(0, 23, 7), opCount: 0x60,
    fields: { sdst: f(0, 16, 7), ssrc1: f(0, 8, 8), ssrc0: f(0, 0, 8) },
  },
  {
    name: 'SMEM', dwords: 2, mask: 0xfc000000 | 0, value: 0xf4000000 | 0, op: f(0, 18, 8), opCount: 256,
    fields: {
      sbase: f(0, 0, 6), sdata: f(0, 6, 7), dlc: f(0, 13, 1), glc: f(0, 14, 1),
      offset: f(1, 0, 21), soffset: f(1, 25, 7),
    },
  },
];

/**
 * How an operand is printed/parsed:
 * - 'sreg': a scalar register field (7-bit SDST-style, or SMEM sdata; `dwords` wide);
 * - 'sbase': SMEM base pair/quad (field holds the SGPR index / 2);
 * - 'ssrc': an 8-bit scalar source (registers, inline constants, specials, 255 = literal);
 * - 'hex' | 'u16' | 'udec' | 'udec_opt': a 16-bit immediate printed as hex always, decimal up to 64
 *   else hex, unsigned decimal, or unsigned decimal omitted when 0;
 * - 'waitcnt' | 'delay' | 'depctr' | 'sendmsg' | 'hwreg' | 'version': LLVM's symbolic operands;
 * - 'lit': a mandatory 32-bit literal (s_setreg_imm32_b32);
 * - 'imm7': a raw 7-bit number (s_atc_probe's sdata);
 * - 'smemoff': the SMEM soffset/offset pair (`s7 offset:0x10`, `0x10`, `null`);
 * - 'gpridx': GFX9's VGPR-indexing mode mask, `gpr_idx(SRC0,DST)` by the bit names in `names` (hex above the mask).
 */
export type OperandKind =
  | 'sreg' | 'sbase' | 'ssrc' | 'hex' | 'u16' | 'udec' | 'udec_opt'
  | 'waitcnt' | 'delay' | 'depctr' | 'sendmsg' | 'hwreg' | 'version' | 'lit' | 'imm7' | 'smemoff' | 'gpridx';

export interface ScalarOperand {
  readonly field: string;
  readonly kind: OperandKind;
  /** Width in dwords for register operands. */
  readonly dwords?: number;
  /** A source that must be a register (s_movrels, s_setpc...): LLVM flags constants as invalid. */
  readonly regOnly?: boolean;
  /** Field values LLVM refuses to decode here although they name a register (GFX10 src_lds_direct in SALU). */
  readonly invalid?: readonly number[];
  /** LLVM's text for field values outside the operand's register class (printed with a remark). */
  readonly remarks?: Readonly<Record<number, string>>;
  /** gpridx: LLVM's name of each mask bit. */
  readonly names?: readonly string[];
  /** Operand classes llvm-mc refuses here although the disassembler prints them. */
  readonly asmReject?: readonly AsmClass[];
}

/** Classes of register/source operands, as the assembler-acceptance rules name them. */
export type AsmClass =
  | 'sgpr' | 'ttmp' | 'null' | 'vcc' | 'm0' | 'exec' | 'inline' | 'literal'
  | 'src_shared_base' | 'src_shared_limit' | 'src_private_base' | 'src_private_limit'
  | 'src_pops_exiting_wave_id' | 'src_vccz' | 'src_execz' | 'src_scc';

/** One generated opcode-table entry. */
export interface ScalarOp {
  readonly mnemonic: string;
  readonly operands: readonly ScalarOperand[];
  /** Bits of dword 0 / dword 1 that must be zero (LLVM rejects the encoding otherwise). */
  readonly zero0?: number;
  readonly zero1?: number;
  /** Cache-policy flags the instruction prints (SMEM `glc`, `dlc`), in LLVM's order. */
  readonly flags?: readonly string[];
  /**
   * llvm-objdump follows this instruction with the target of its PC-relative simm16 (`<.text+0x10>`):
   * the branches and s_subvector_loop_begin/end, but not s_call_b64.
   */
  readonly objdumpTarget?: boolean;
  /** llvm-mc takes only a non-negative SMEM offset here. */
  readonly asmUnsignedOffset?: boolean;
  /** llvm-mc takes any integer for the 16-bit immediate here and keeps its low 16 bits. */
  readonly asmTruncate?: boolean;
}

export function getField(words: ArrayLike<number>, index: number, b: BitField): number {
  const w = words[index + b.word]! >>> 0;
  return b.bits === 32 ? w : (w >>> b.lo) & ((1 << b.bits) - 1);
}

export function putField(words: number[], b: BitField, v: number): void {
  const m = ((1 << b.bits) - 1) << b.lo;
  words[b.word] = ((words[b.word]! & ~m) | ((v << b.lo) & m)) >>> 0;
}

/** A named bit field of a symbolic immediate (s_waitcnt counters, depctr fields, s_delay_alu parts). */
export interface NamedField {
  readonly name: string;
  readonly lo: number;
  readonly bits: number;
  /** Value that means "no wait"/default (LLVM omits fields at their default). */
  readonly dflt: number;
  /** Encoding bit of each field bit, when the field is not contiguous (GFX9/GFX10 vmcnt). */
  readonly split?: readonly number[];
  /** Printed names by value (s_delay_alu), when the field is symbolic. */
  readonly names?: Readonly<Record<number, string>>;
}

/** Tables behind LLVM's symbolic scalar operands, read off LLVM by the generator. */
export interface ScalarSpecials {
  readonly waitcnt: readonly NamedField[];
  readonly depctr: readonly NamedField[];
  readonly delay: readonly NamedField[];
  /** sendmsg: message-id mask and names by id. */
  readonly sendmsgMask: number;
  readonly sendmsg: Readonly<Record<number, string>>;
  /**
   * Before GFX11 a message is id | op << 4 | stream << 8: LLVM's text (inside `s_sendmsg `) for every
   * code it prints symbolically, learned over all such codes; other values print as decimal.
   */
  readonly sendmsgCodes?: Readonly<Record<number, string>>;
  /** hwreg: id/offset/size-1 fields and register names by id. */
  readonly hwregFields: { readonly id: NamedField; readonly offset: NamedField; readonly size: NamedField };
  readonly hwreg: Readonly<Record<number, string>>;
  /** s_version: the version-number mask, version names, and flag-bit names. */
  readonly versionMask: number;
  readonly version: Readonly<Record<number, string>>;
  readonly versionFlags: readonly { readonly bit: number; readonly name: string }[];
}
