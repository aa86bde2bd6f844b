/**
 * R600-family opcode tables -> src/r600/isa/opcodes.gen.ts.
 *
 * Two sources, cross-checked:
 *  1. Facts from the R600/R700/Evergreen/Cayman ISA documents (opcode numbers per generation and
 *     the slots an ALU op may issue in), written below as data.
 *  2. LLVM 19 itself: clang-19 has no r600 disassembler or assembly parser, so the generator pairs
 *     each line clang prints with `-S` with the bytes of the same compile's `.o` (the committed
 *     fixtures under kernels/r600/bin plus the probe kernels in tools/gen/r600/probes, compiled here
 *     for cypress and cayman). Every instruction LLVM emits yields (field value, LLVM mnemonic,
 *     printed source count); a documented number that disagrees with LLVM stops the generator, and
 *     LLVM's spelling becomes the mnemonic the disassembler prints and the assembler accepts.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseElf } from '../../../src/formats/elf.js';
import { cached } from '../llvm.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../../..');
const CLANG = process.env.CLANG ?? 'clang-19';
const CLC = process.env.CLC ?? '/usr/lib/clc';

/** clang's --version text: part of every cached answer's key (tools/gen/llvm.ts `cached`). */
let clangId: string | undefined;
function clangIdentity(): string {
  return (clangId ??= execFileSync(CLANG, ['--version'], { encoding: 'utf8' }));
}

/**
 * clang's output for `args` (and `input` on stdin), remembered in the LLVM answer cache by
 * clang's version, the arguments and the bytes of `files` (the source and the libclc bitcode it
 * links): `npm test` regenerates this table every run (gen-check), ~12 s of clang otherwise.
 */
function clangCached(what: string, args: readonly string[], files: readonly string[], run: () => string): string {
  return cached([`r600 ${what}`, clangIdentity(), ...args, ...files.flatMap((f) => [f, readFileSync(f)])], run);
}

/**
 * ALU ops: name, source count, opcode on R600/R700 and on Evergreen/Cayman (hex, '-' = absent),
 * and slots on r600/r700/evergreen/cayman: V vector (x,y,z,w), S trans, VS any, 4V all four
 * vector slots, XY / ZW a slot pair, '.' not present. Op3 ops are marked by the '3' source count;
 * LDS ops carry their LDS_OP field value.
 */
const ALU_FACTS = `
ADD 2 00 00 VS VS VS VS|MUL 2 01 01 VS VS VS VS|MUL_IEEE 2 02 02 VS VS VS VS|MAX 2 03 03 VS VS VS VS
MIN 2 04 04 VS VS VS VS|MAX_DX10 2 05 05 VS VS VS VS|MIN_DX10 2 06 06 VS VS VS VS|SETE 2 08 08 VS VS VS VS
SETGT 2 09 09 VS VS VS VS|SETGE 2 0A 0A VS VS VS VS|SETNE 2 0B 0B VS VS VS VS|SETE_DX10 2 0C 0C VS VS VS VS
SETGT_DX10 2 0D 0D VS VS VS VS|SETGE_DX10 2 0E 0E VS VS VS VS|SETNE_DX10 2 0F 0F VS VS VS VS
FRACT 1 10 10 VS VS VS VS|TRUNC 1 11 11 VS VS VS VS|CEIL 1 12 12 VS VS VS VS|RNDNE 1 13 13 VS VS VS VS
FLOOR 1 14 14 VS VS VS VS|ASHR_INT 2 70 15 S VS VS VS|LSHR_INT 2 71 16 S VS VS VS|LSHL_INT 2 72 17 S VS VS VS
MOV 1 19 19 VS VS VS VS|NOP 0 1A 1A VS VS VS VS|PRED_SETGT_UINT 2 1E 1E VS VS VS VS|PRED_SETGE_UINT 2 1F 1F VS VS VS VS
PRED_SETE 2 20 20 VS VS VS VS|PRED_SETGT 2 21 21 VS VS VS VS|PRED_SETGE 2 22 22 VS VS VS VS|PRED_SETNE 2 23 23 VS VS VS VS
PRED_SET_INV 1 24 24 VS VS VS VS|PRED_SET_POP 2 25 25 VS VS VS VS|PRED_SET_CLR 0 26 26 VS VS VS VS
PRED_SET_RESTORE 1 27 27 VS VS VS VS|PRED_SETE_PUSH 2 28 28 VS VS VS VS|PRED_SETGT_PUSH 2 29 29 VS VS VS VS
PRED_SETGE_PUSH 2 2A 2A VS VS VS VS|PRED_SETNE_PUSH 2 2B 2B VS VS VS VS|KILLE 2 2C 2C VS VS VS VS
KILLGT 2 2D 2D VS VS VS VS|KILLGE 2 2E 2E VS VS VS VS|KILLNE 2 2F 2F VS VS VS VS|AND_INT 2 30 30 VS VS VS VS
OR_INT 2 31 31 VS VS VS VS|XOR_INT 2 32 32 VS VS VS VS|NOT_INT 1 33 33 VS VS VS VS|ADD_INT 2 34 34 VS VS VS VS
SUB_INT 2 35 35 VS VS VS VS|MAX_INT 2 36 36 VS VS VS VS|MIN_INT 2 37 37 VS VS VS VS|MAX_UINT 2 38 38 VS VS VS VS
MIN_UINT 2 39 39 VS VS VS VS|SETE_INT 2 3A 3A VS VS VS VS|SETGT_INT 2 3B 3B VS VS VS VS|SETGE_INT 2 3C 3C VS VS VS VS
SETNE_INT 2 3D 3D VS VS VS VS|SETGT_UINT 2 3E 3E VS VS VS VS|SETGE_UINT 2 3F 3F VS VS VS VS
KILLGT_UINT 2 40 40 VS VS VS VS|KILLGE_UINT 2 41 41 VS VS VS VS|PRED_SETE_INT 2 42 42 VS VS VS VS
PRED_SETGT_INT 2 43 43 VS VS VS VS|PRED_SETGE_INT 2 44 44 VS VS VS VS|PRED_SETNE_INT 2 45 45 VS VS VS VS
KILLE_INT 2 46 46 VS VS VS VS|KILLGT_INT 2 47 47 VS VS VS VS|KILLGE_INT 2 48 48 VS VS VS VS|KILLNE_INT 2 49 49 VS VS VS VS
PRED_SETE_PUSH_INT 2 4A 4A VS VS VS VS|PRED_SETGT_PUSH_INT 2 4B 4B VS VS VS VS|PRED_SETGE_PUSH_INT 2 4C 4C VS VS VS VS
PRED_SETNE_PUSH_INT 2 4D 4D VS VS VS VS|PRED_SETLT_PUSH_INT 2 4E 4E VS VS VS VS|PRED_SETLE_PUSH_INT 2 4F 4F VS VS VS VS
FLT_TO_INT 1 6B 50 S S V V|BFREV_INT 1 - 51 . . VS VS|ADDC_UINT 2 - 52 . . VS VS|SUBB_UINT 2 - 53 . . VS VS
GROUP_BARRIER 0 - 54 . . VS VS|GROUP_SEQ_BEGIN 0 - 55 . . VS .|GROUP_SEQ_END 0 - 56 . . VS .|SET_MODE 2 - 57 . . VS VS
SET_CF_IDX0 0 - 58 . . VS .|SET_CF_IDX1 0 - 59 . . VS .|SET_LDS_SIZE 2 - 5A . . VS VS|MUL_INT24 2 - 5B . . . V
MULHI_INT24 2 - 5C . . . V|FLT_TO_INT_TRUNC 1 - 5D . . . V|EXP_IEEE 1 61 81 S S S S|LOG_CLAMPED 1 62 82 S S S S
LOG_IEEE 1 63 83 S S S S|RECIP_CLAMPED 1 64 84 S S S S|RECIP_FF 1 65 85 S S S S|RECIP_IEEE 1 66 86 S S S S
RECIPSQRT_CLAMPED 1 67 87 S S S S|RECIPSQRT_FF 1 68 88 S S S S|RECIPSQRT_IEEE 1 69 89 S S S S|SQRT_IEEE 1 6A 8A S S S S
SIN 1 6E 8D S S S S|COS 1 6F 8E S S S S|MULLO_INT 2 73 8F S S S 4V|MULHI_INT 2 74 90 S S S 4V
MULLO_UINT 2 75 91 S S S 4V|MULHI_UINT 2 76 92 S S S 4V|RECIP_INT 1 77 93 S S S .|RECIP_UINT 1 78 94 S S S .
RECIP_64 2 - 95 . . S S|RECIP_CLAMPED_64 2 - 96 . . S S|RECIPSQRT_64 2 - 97 . . S S|RECIPSQRT_CLAMPED_64 2 - 98 . . S S
SQRT_64 2 - 99 . . S S|FLT_TO_UINT 1 79 9A S S S V|INT_TO_FLT 1 6C 9B S S S V|UINT_TO_FLT 1 6D 9C S S S V
BFM_INT 2 - A0 . . V V|FLT32_TO_FLT16 1 - A2 . . V V|FLT16_TO_FLT32 1 - A3 . . V V|UBYTE0_FLT 1 - A4 . . V V
UBYTE1_FLT 1 - A5 . . V V|UBYTE2_FLT 1 - A6 . . V V|UBYTE3_FLT 1 - A7 . . V V|BCNT_INT 1 - AA . . V V
FFBH_UINT 1 - AB . . V V|FFBL_INT 1 - AC . . V V|FFBH_INT 1 - AD . . V V|FLT_TO_UINT4 1 - AE . . V V
DOT_IEEE 2 - AF . . V V|FLT_TO_INT_RPI 1 - B0 . . V V|FLT_TO_INT_FLOOR 1 - B1 . . V V|MULHI_UINT24 2 - B2 . . V V
MBCNT_32HI_INT 1 - B3 . . V V|OFFSET_TO_FLT 1 - B4 . . V V|MUL_UINT24 2 - B5 . . V V|BCNT_ACCUM_PREV_INT 1 - B6 . . V V
MBCNT_32LO_ACCUM_PREV_INT 1 - B7 . . V V|SETE_64 2 - B8 . . V V|SETNE_64 2 - B9 . . V V|SETGT_64 2 - BA . . V V
SETGE_64 2 - BB . . V V|MIN_64 2 - BC . . V V|MAX_64 2 - BD . . V V|DOT4 2 50 BE 4V 4V 4V 4V|DOT4_IEEE 2 51 BF 4V 4V 4V 4V
CUBE 2 52 C0 4V 4V 4V 4V|MAX4 1 53 C1 4V 4V 4V 4V|FREXP_64 1 07 C4 V V V V|LDEXP_64 2 7A C5 V V V V
FRACT_64 1 7B C6 V V V V|PRED_SETGT_64 2 7C C7 V V V V|PRED_SETE_64 2 7D C8 V V V V|PRED_SETGE_64 2 7E C9 V V V V
MUL_64 2 1B CA V V V 4V|ADD_64 2 17 CB V V V V|MOVA_INT 1 18 CC V V V V|FLT64_TO_FLT32 1 1C CD V V V V
FLT32_TO_FLT64 1 1D CE V V V V|SAD_ACCUM_PREV_UINT 2 - CF . . V V|DOT 2 - D0 . . V V|MUL_PREV 1 - D1 . . V V
MUL_IEEE_PREV 1 - D2 . . V V|ADD_PREV 1 - D3 . . V V|MULADD_PREV 2 - D4 . . V V|MULADD_IEEE_PREV 2 - D5 . . V V
INTERP_XY 2 - D6 . . 4V 4V|INTERP_ZW 2 - D7 . . 4V 4V|INTERP_X 2 - D8 . . XY XY|INTERP_Z 2 - D9 . . ZW ZW
STORE_FLAGS 1 - DA . . V V|LOAD_STORE_FLAGS 1 - DB . . V V|LDS_1A 2 - DC . . V V|LDS_1A1D 2 - DD . . V V
LDS_2A 2 - DF . . V V|INTERP_LOAD_P0 1 - E0 . . V V|INTERP_LOAD_P10 1 - E1 . . V V|INTERP_LOAD_P20 1 - E2 . . V V
MOVA 1 15 - V V . .|MOVA_FLOOR 1 16 - V V . .|MOVA_GPR_INT 1 60 - S . . .
BFE_UINT 3 - 04 . . V V|BFE_INT 3 - 05 . . V V|BFI_INT 3 - 06 . . V V|FMA 3 - 07 . . V V|MULADD_INT24 3 - 08 . . . V
CNDNE_64 3 - 09 . . V V|FMA_64 3 - 0A . . V 4V|LERP_UINT 3 - 0B . . V V|BIT_ALIGN_INT 3 - 0C . . V V
BYTE_ALIGN_INT 3 - 0D . . V V|SAD_ACCUM_UINT 3 - 0E . . V V|SAD_ACCUM_HI_UINT 3 - 0F . . V V
MULADD_UINT24 3 - 10 . . V V|MULADD 3 10 14 VS VS VS VS|MULADD_M2 3 11 15 VS VS VS VS|MULADD_M4 3 12 16 VS VS VS VS
MULADD_D2 3 13 17 VS VS VS VS|MULADD_IEEE 3 14 18 VS VS VS VS|CNDE 3 18 19 VS VS VS VS|CNDGT 3 19 1A VS VS VS VS
CNDGE 3 1A 1B VS VS VS VS|CNDE_INT 3 1C 1C VS VS VS VS|CNDGT_INT 3 1D 1D VS VS VS VS|CNDGE_INT 3 1E 1E VS VS VS VS
MUL_LIT 3 0C 1F S S S V|MULADD_64 3 08 - V V . .|MULADD_64_M2 3 09 - V V . .|MULADD_64_M4 3 0A - V V . .
MULADD_64_D2 3 0B - V V . .|MUL_LIT_M2 3 0D - VS VS . .|MUL_LIT_M4 3 0E - VS VS . .|MUL_LIT_D2 3 0F - VS VS . .
MULADD_IEEE_M2 3 15 - VS VS . .|MULADD_IEEE_M4 3 16 - VS VS . .|MULADD_IEEE_D2 3 17 - VS VS . .
`;

/** LDS_IDX_OP (op3 0x11) LDS_OP field values, Evergreen and Cayman: name, sources, value (hex). */
const LDS_FACTS = `
LDS_ADD 2 00|LDS_SUB 2 01|LDS_RSUB 2 02|LDS_INC 2 03|LDS_DEC 2 04|LDS_MIN_INT 2 05|LDS_MAX_INT 2 06
LDS_MIN_UINT 2 07|LDS_MAX_UINT 2 08|LDS_AND 2 09|LDS_OR 2 0A|LDS_XOR 2 0B|LDS_MSKOR 3 0C|LDS_WRITE 2 0D
LDS_WRITE_REL 3 0E|LDS_WRITE2 3 0F|LDS_CMP_STORE 3 10|LDS_CMP_STORE_SPF 3 11|LDS_BYTE_WRITE 2 12
LDS_SHORT_WRITE 2 13|LDS_ADD_RET 2 20|LDS_SUB_RET 2 21|LDS_RSUB_RET 2 22|LDS_INC_RET 2 23|LDS_DEC_RET 2 24
LDS_MIN_INT_RET 2 25|LDS_MAX_INT_RET 2 26|LDS_MIN_UINT_RET 2 27|LDS_MAX_UINT_RET 2 28|LDS_AND_RET 2 29
LDS_OR_RET 2 2A|LDS_XOR_RET 2 2B|LDS_MSKOR_RET 3 2C|LDS_XCHG_RET 2 2D|LDS_XCHG_REL_RET 3 2E|LDS_XCHG2_RET 3 2F
LDS_CMP_XCHG_RET 3 30|LDS_CMP_XCHG_SPF_RET 3 31|LDS_READ_RET 1 32|LDS_READ_REL_RET 1 33|LDS_READ2_RET 2 34
LDS_READWRITE_RET 3 35|LDS_BYTE_READ_RET 1 36|LDS_UBYTE_READ_RET 1 37|LDS_SHORT_READ_RET 1 38|LDS_USHORT_READ_RET 1 39
`;

/**
 * CF_INST values per generation (r600 r700 evergreen cayman; '-' absent). CF_ALU_WORD1 ops are
 * a separate 4-bit space, marked with a leading '@'.
 */
const CF_FACTS = `
NOP 00 00 00 00|TC 01 01 01 01|VC 02 02 02 -|VC_TC 03 03 - -|GDS - - 03 03|LOOP_START 04 04 04 04
LOOP_END 05 05 05 05|LOOP_START_DX10 06 06 06 06|LOOP_START_NO_AL 07 07 07 07|LOOP_CONTINUE 08 08 08 08
LOOP_BREAK 09 09 09 09|JUMP 0A 0A 0A 0A|PUSH 0B 0B 0B 0B|PUSH_ELSE 0C 0C - -|ELSE 0D 0D 0D 0D|POP 0E 0E 0E 0E
POP_JUMP 0F 0F - -|POP_PUSH 10 10 - -|POP_PUSH_ELSE 11 11 - -|CALL 12 12 12 12|CALL_FS 13 13 13 13
RETURN 14 14 14 14|EMIT_VERTEX 15 15 15 15|EMIT_CUT_VERTEX 16 16 16 16|CUT_VERTEX 17 17 17 17|KILL 18 18 18 18
WAIT_ACK - 1A 1A 1A|TC_ACK - 1B 1B 1B|VC_ACK - 1C 1C -|JUMPTABLE - - 1D 1D|GLOBAL_WAVE_SYNC - - 1E 1E
HALT - - 1F 1F|CF_END - - - 20|LDS_DEALLOC - - - 21|PUSH_WQM - - - 22|POP_WQM - - - 23|ELSE_WQM - - - 24
JUMP_ANY - - - 25|REACTIVATE - - - 26|REACTIVATE_WQM - - - 27|INTERRUPT - - - 28|INTERRUPT_AND_SLEEP - - - 29
SET_PRIORITY - - - 2A|MEM_STREAM0_BUF0 - - 40 40|MEM_STREAM0_BUF1 - - 41 41|MEM_STREAM0_BUF2 - - 42 42
MEM_STREAM0_BUF3 - - 43 43|MEM_STREAM1_BUF0 - - 44 44|MEM_STREAM1_BUF1 - - 45 45|MEM_STREAM1_BUF2 - - 46 46
MEM_STREAM1_BUF3 - - 47 47|MEM_STREAM2_BUF0 - - 48 48|MEM_STREAM2_BUF1 - - 49 49|MEM_STREAM2_BUF2 - - 4A 4A
MEM_STREAM2_BUF3 - - 4B 4B|MEM_STREAM3_BUF0 - - 4C 4C|MEM_STREAM3_BUF1 - - 4D 4D|MEM_STREAM3_BUF2 - - 4E 4E
MEM_STREAM3_BUF3 - - 4F 4F|MEM_STREAM0 20 20 - -|MEM_STREAM1 21 21 - -|MEM_STREAM2 22 22 - -|MEM_STREAM3 23 23 - -
MEM_WRITE_SCRATCH 24 24 50 50|MEM_REDUCTION 25 25 - -|MEM_RING 26 26 52 52|EXPORT 27 27 53 53|EXPORT_DONE 28 28 54 54
MEM_EXPORT - 3A 55 55|MEM_RAT - - 56 56|MEM_RAT_CACHELESS - - 57 57|MEM_RING1 - - 58 58|MEM_RING2 - - 59 59
MEM_RING3 - - 5A 5A|MEM_EXPORT_COMBINED - - 5B 5B|MEM_RAT_COMBINED_CACHELESS - - 5C 5C
@ALU 08 08 08 08|@ALU_PUSH_BEFORE 09 09 09 09|@ALU_POP_AFTER 0A 0A 0A 0A|@ALU_POP2_AFTER 0B 0B 0B 0B
@ALU_EXTENDED - - 0C 0C|@ALU_CONTINUE 0D 0D 0D -|@ALU_BREAK 0E 0E 0E -|@ALU_VALID_PIXEL_MODE - - - 0E
@ALU_ELSE_AFTER 0F 0F 0F 0F
`;

/** RAT_INST values (CF_ALLOC_EXPORT_WORD0_RAT), Evergreen; Cayman adds the STORE_* forms. */
const RAT_FACTS = `
NOP 00|STORE_TYPED 01|STORE_RAW 02|STORE_RAW_FDENORM 03|CMPXCHG_INT 04|CMPXCHG_FLT 05|CMPXCHG_FDENORM 06
ADD 07|SUB 08|RSUB 09|MIN_INT 0A|MIN_UINT 0B|MAX_INT 0C|MAX_UINT 0D|AND 0E|OR 0F|XOR 10|MSKOR 11|INC_UINT 12
DEC_UINT 13|STORE_DWORD 14|STORE_SHORT 15|STORE_BYTE 16|NOP_RTN 20|XCHG_RTN 22|XCHG_FDENORM_RTN 23
CMPXCHG_INT_RTN 24|CMPXCHG_FLT_RTN 25|CMPXCHG_FDENORM_RTN 26|ADD_RTN 27|SUB_RTN 28|RSUB_RTN 29|MIN_INT_RTN 2A
MIN_UINT_RTN 2B|MAX_INT_RTN 2C|MAX_UINT_RTN 2D|AND_RTN 2E|OR_RTN 2F|XOR_RTN 30|MSKOR_RTN 31|INC_UINT_RTN 32
DEC_UINT_RTN 33
`;

/**
 * MEM_GDS (Evergreen/Cayman GDS clauses): GDS_OP values (MEM_GDS_WORD1 bits 14:9) with MEM_OP 4
 * (GDS), the sources the op reads (address, data0, data1 from SRC_SEL_X/Y/Z) and whether it
 * returns a value to DST_GPR. TF_WRITE is MEM_OP 5 with GDS_OP 0. Values from the Evergreen and
 * Cayman ISA documents (the same numbering as LDS_OP).
 */
const GDS_FACTS = `
GDS_ADD 2 00|GDS_SUB 2 01|GDS_RSUB 2 02|GDS_INC 2 03|GDS_DEC 2 04|GDS_MIN_INT 2 05|GDS_MAX_INT 2 06
GDS_MIN_UINT 2 07|GDS_MAX_UINT 2 08|GDS_AND 2 09|GDS_OR 2 0A|GDS_XOR 2 0B|GDS_MSKOR 3 0C|GDS_WRITE 2 0D
GDS_WRITE_REL 3 0E|GDS_WRITE2 3 0F|GDS_CMP_STORE 3 10|GDS_CMP_STORE_SPF 3 11|GDS_BYTE_WRITE 2 12
GDS_SHORT_WRITE 2 13|GDS_ADD_RET 2 20|GDS_SUB_RET 2 21|GDS_RSUB_RET 2 22|GDS_INC_RET 2 23|GDS_DEC_RET 2 24
GDS_MIN_INT_RET 2 25|GDS_MAX_INT_RET 2 26|GDS_MIN_UINT_RET 2 27|GDS_MAX_UINT_RET 2 28|GDS_AND_RET 2 29
GDS_OR_RET 2 2A|GDS_XOR_RET 2 2B|GDS_MSKOR_RET 3 2C|GDS_XCHG_RET 2 2D|GDS_XCHG_REL_RET 3 2E|GDS_XCHG2_RET 3 2F
GDS_CMP_XCHG_RET 3 30|GDS_CMP_XCHG_SPF_RET 3 31|GDS_READ_RET 1 32|GDS_READ_REL_RET 1 33|GDS_READ2_RET 2 34
GDS_READWRITE_RET 3 35|GDS_BYTE_READ_RET 1 36|GDS_UBYTE_READ_RET 1 37|GDS_SHORT_READ_RET 1 38|GDS_USHORT_READ_RET 1 39
GDS_ATOMIC_ORDERED_ALLOC 1 3F
`;

/**
 * TEX_INST values of TEX_WORD0 (bits 4:0) per generation (r600 r700 evergreen cayman; '-' absent),
 * from the R600/R700/Evergreen/Cayman ISA documents. 0..2 are the vertex/memory forms that share the
 * field (VTX_FETCH, VTX_SEMANTIC, MEM) and decode as VTX/MEM words. LLVM prints `TEX_<name>`.
 */
const TEX_FACTS = `
LD 03 03 03 03|GET_TEXTURE_RESINFO 04 04 04 04|GET_NUMBER_OF_SAMPLES 05 05 05 05|GET_LOD 06 06 06 06
GET_GRADIENTS_H 07 07 07 07|GET_GRADIENTS_V 08 08 08 08|GET_LERP 09 09 - -|SET_TEXTURE_OFFSETS - - 09 09
KEEP_GRADIENTS - 0A 0A 0A|SET_GRADIENTS_H 0B 0B 0B 0B|SET_GRADIENTS_V 0C 0C 0C 0C|PASS 0D 0D 0D 0D
SET_CUBEMAP_INDEX 0E 0E - -|GET_BUFFER_RESINFO - - 0E 0E|FETCH4 0F 0F - -|SAMPLE 10 10 10 10|SAMPLE_L 11 11 11 11
SAMPLE_LB 12 12 12 12|SAMPLE_LZ 13 13 13 13|SAMPLE_G 14 14 14 14|SAMPLE_G_L 15 15 - -|GATHER4 - - 15 15
SAMPLE_G_LB 16 16 16 16|SAMPLE_G_LZ 17 17 - -|GATHER4_O - - 17 17|SAMPLE_C 18 18 18 18|SAMPLE_C_L 19 19 19 19
SAMPLE_C_LB 1A 1A 1A 1A|SAMPLE_C_LZ 1B 1B 1B 1B|SAMPLE_C_G 1C 1C 1C 1C|SAMPLE_C_G_L 1D 1D - -|GATHER4_C - - 1D 1D
SAMPLE_C_G_LB 1E 1E 1E 1E|SAMPLE_C_G_LZ 1F 1F - -|GATHER4_C_O - - 1F 1F
`;

/**
 * Texture DATA_FORMAT values (SQ_TEX_RESOURCE_WORD7 / the shared FMT_* numbering) of the formats
 * whose components are plain bit fields, lowest bits first: name, value, component widths, and
 * whether the components are floats (FMT_*_FLOAT).
 */
const TEX_FORMAT_FACTS = `
8 01 8 int|16 05 16 int|16_FLOAT 06 16 float|8_8 07 8.8 int|32 0D 32 int|32_FLOAT 0E 32 float|16_16 0F 16.16 int
16_16_FLOAT 10 16.16 float|2_10_10_10 19 2.10.10.10 int|8_8_8_8 1A 8.8.8.8 int|10_10_10_2 1B 10.10.10.2 int|32_32 1D 32.32 int
32_32_FLOAT 1E 32.32 float|16_16_16_16 1F 16.16.16.16 int|16_16_16_16_FLOAT 20 16.16.16.16 float|32_32_32_32 22 32.32.32.32 int
32_32_32_32_FLOAT 23 32.32.32.32 float
`;

/** VTX DATA_FORMAT values and their widths in dwords (for LLVM's VTX_READ_<bits> names). */
const VTX_FORMAT_FACTS = `8 01|16 05|32 0D|64 1D|128 22`;

function entries(text: string): string[][] {
  return text.trim().split(/[|\n]/).map((e) => e.trim()).filter(Boolean).map((e) => e.split(/\s+/));
}
const hx = (s: string): number => (s === '-' ? -1 : parseInt(s, 16));

type Gen = 'cypress' | 'cayman';
interface Seen {
  /** mnemonic clang printed -> generations and printed source counts */
  alu2: Map<number, { llvm: string; srcs: Set<number>; gens: Set<Gen> }>;
  alu3: Map<number, { llvm: string; srcs: Set<number>; gens: Set<Gen> }>;
  lds: Map<number, { llvm: string; srcs: Set<number>; gens: Set<Gen> }>;
  cf: Map<string, { llvm: string; gens: Set<Gen> }>;
  rat: Map<number, { llvm: string; gens: Set<Gen> }>;
  vtx: Map<number, { llvm: string; gens: Set<Gen> }>;
  tex: Map<number, { llvm: string; gens: Set<Gen> }>;
}

function note(
  map: Map<number, { llvm: string; srcs: Set<number>; gens: Set<Gen> }>,
  code: number,
  llvm: string,
  srcs: number,
  gen: Gen,
  where: string,
): void {
  const e = map.get(code);
  if (e && e.llvm !== llvm) throw new Error(`${where}: opcode ${code} printed both as ${e.llvm} and ${llvm}`);
  const v = e ?? { llvm, srcs: new Set<number>(), gens: new Set<Gen>() };
  v.srcs.add(srcs);
  v.gens.add(gen);
  map.set(code, v);
}

/** Pair one clang -S listing with its object's .text, recording what each line encodes. */
function pair(sText: string, obj: Uint8Array, gen: Gen, where: string, seen: Seen): void {
  const elf = parseElf(obj);
  const text = elf.sectionByName('.text');
  if (!text) throw new Error(`${where}: no .text`);
  const bytes = elf.sectionData(text);
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const w = (off: number): number => dv.getUint32(off, true);
  let cursor = 0;
  let mode: 'cf' | 'alu' | 'fetch' | 'none' = 'none';
  const funcs = new Set([...sText.matchAll(/\.type\s+([\w.$]+),@function/g)].map((m) => m[1]!));
  for (const raw of sText.split('\n')) {
    const line = raw.replace(/;.*$/, '');
    const lab = /^([A-Za-z_.$][\w.$]*):/.exec(line);
    if (lab) {
      if (/\$local$/.test(lab[1]!)) continue;
      mode = funcs.has(lab[1]!) ? 'cf' : 'none';
      continue;
    }
    if (/^\.Lfunc_end/.test(line)) mode = 'none';
    let m = /^\t(ALU|Fetch) clause starting at (\d+):/.exec(line);
    if (m) {
      mode = m[1] === 'ALU' ? 'alu' : 'fetch';
      cursor = Number(m[2]) * 8;
      continue;
    }
    if (mode === 'none' || !/^\t/.test(line) || /^\t\./.test(line) || line.trim() === '') continue;
    const t = line.trim();
    if (mode === 'cf') {
      const w0 = w(cursor);
      const w1 = w(cursor + 4);
      cursor += 8;
      const mn = t.split(/\s+/)[0]!;
      if (mn === 'PAD') continue;
      if (mn.startsWith('ALU')) {
        const code = (w1 >>> 26) & 0xf;
        noteCf(seen, '@' + code, mn, gen, where);
      } else {
        const code = (w1 >>> 22) & 0xff;
        noteCf(seen, String(code), mn === 'CF_END' && code === 0 ? 'CF_END(EOP)' : mn, gen, where);
        if (mn.startsWith('MEM_RAT')) {
          const rat = (w0 >>> 4) & 0x3f;
          const rn = t.split(/\s+/)[1]!;
          const e = seen.rat.get(rat);
          if (e && e.llvm !== rn) throw new Error(`${where}: RAT_INST ${rat} printed as ${e.llvm} and ${rn}`);
          seen.rat.set(rat, { llvm: rn, gens: (e?.gens ?? new Set<Gen>()).add(gen) });
        }
      }
      continue;
    }
    if (mode === 'fetch') {
      const w0 = w(cursor);
      const w1 = w(cursor + 4);
      cursor += 16;
      const mn = t.split(/\s+/)[0]!;
      if (mn.startsWith('TEX_')) {
        const code = w0 & 0x1f;
        const e = seen.tex.get(code);
        if (e && e.llvm !== mn) throw new Error(`${where}: TEX_INST ${code} printed as ${e.llvm} and ${mn}`);
        seen.tex.set(code, { llvm: mn, gens: (e?.gens ?? new Set<Gen>()).add(gen) });
        continue;
      }
      const fmt = (w1 >>> 22) & 0x3f;
      const e = seen.vtx.get(fmt);
      if (e && e.llvm !== mn) throw new Error(`${where}: VTX format ${fmt} printed as ${e.llvm} and ${mn}`);
      seen.vtx.set(fmt, { llvm: mn, gens: (e?.gens ?? new Set<Gen>()).add(gen) });
      continue;
    }
    // ALU clause: a literal line is the next 8 bytes; anything else is one ALU instruction.
    if (/^(-?\d|@)/.test(t)) {
      cursor += 8;
      continue;
    }
    const w1 = w(cursor + 4);
    cursor += 8;
    const mn = t.replace(/\*.*$/, '').split(/\s+/)[0]!;
    const rest = t.slice(t.indexOf(mn) + mn.length).replace(/^\s*\*?\s*/, '');
    const ops = rest.replace(/^(ExecMask,|Pred,)/, '').split(',').map((s) => s.trim()).filter((s) => s !== '' && !/^(Pred_sel|BS:)/.test(s));
    const op3 = ((w1 >>> 15) & 7) !== 0;
    if (op3 && ((w1 >>> 13) & 0x1f) === 0x11) {
      note(seen.lds, (w1 >>> 21) & 0x3f, mn, ops.length, gen, where);
    } else if (op3) {
      note(seen.alu3, (w1 >>> 13) & 0x1f, mn, ops.length - 1, gen, where);
    } else {
      note(seen.alu2, (w1 >>> 7) & 0x7ff, mn, Math.max(0, ops.length - 1), gen, where);
    }
  }
}

function noteCf(seen: Seen, key: string, mn: string, gen: Gen, where: string): void {
  const e = seen.cf.get(gen + key);
  if (e && e.llvm !== mn) throw new Error(`${where}: CF ${key} printed as ${e.llvm} and ${mn}`);
  seen.cf.set(gen + key, { llvm: mn, gens: (e?.gens ?? new Set<Gen>()).add(gen) });
}

function compileProbes(seen: Seen): void {
  const dir = join(ROOT, 'tools/gen/r600/probes');
  const tmp = mkdtempSync(join(tmpdir(), 'gpusim-r600-'));
  try {
    for (const f of readdirSync(dir).filter((x) => x.endsWith('.cl')).sort()) {
      for (const gen of ['cypress', 'cayman'] as const) {
        const flags = ['-x', 'cl', '-target', 'r600', `-mcpu=${gen}`, '-nogpulib', '-O2', '-Xclang', '-mlink-builtin-bitcode',
          '-Xclang', `${CLC}/${gen}-r600--.bc`, '-include', 'clc/clc.h'];
        const o = join(tmp, `${f}.${gen}.o`);
        const s = join(tmp, `${f}.${gen}.s`);
        const src = join(dir, f);
        const out = JSON.parse(clangCached('probe', flags, [src, `${CLC}/${gen}-r600--.bc`], () => {
          execFileSync(CLANG, [...flags, '-c', src, '-o', o], { stdio: 'pipe' });
          execFileSync(CLANG, [...flags, '-S', src, '-o', s], { stdio: 'pipe' });
          return JSON.stringify({ o: readFileSync(o).toString('base64'), s: readFileSync(s, 'utf8') });
        })) as { o: string; s: string };
        pair(out.s, Buffer.from(out.o, 'base64'), gen, `probe ${f} (${gen})`, seen);
      }
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

function readFixtures(seen: Seen): void {
  for (const gen of ['cypress', 'cayman'] as const) {
    const dir = join(ROOT, 'kernels/r600/bin', gen);
    if (!existsSync(dir)) continue;
    for (const f of readdirSync(dir).filter((x) => x.endsWith('.s')).sort()) {
      const base = join(dir, f.slice(0, -2));
      pair(readFileSync(base + '.s', 'utf8'), readFileSync(base + '.o'), gen, `fixture ${gen}/${f}`, seen);
    }
  }
}

/**
 * Per-chip facts LLVM knows: clang predefines __HAS_FMAF__ for the -mcpu names whose hardware has
 * FMA, which on this family are exactly the double-precision parts (Cypress/Hemlock, Cayman/Aruba);
 * the others cannot even select fma() ("no libcall available for fma").
 */
const MCPUS = 'r600 rv610 rv620 rv630 rv635 rs780 rs880 rv670 rv710 rv730 rv740 rv770 cedar redwood juniper cypress hemlock palm sumo sumo2 barts turks caicos cayman aruba';
/**
 * Wavefront width per -mcpu. LLVM's R600Processors.td gives each processor model a
 * FeatureWavefrontSize{16,32,64} (Northern Islands through FeatureNorthernIslands):
 * r600/rv670/rv770(rv740)/cypress(hemlock)/juniper/redwood/sumo(sumo2)/barts/turks/caicos/cayman(aruba)
 * 64; r630/rv710/rv730/cedar(palm) 32; rs880 (rs780, rv610, rv620) 16. LLVM aliases rv630 and rv635
 * to the r600 model (64) although it defines a separate 32-wide r630 model; Mesa's r600 driver
 * (r600_asm.c stack_entry_size) lists RV630/RV635 as 32 wide, so they take the r630 model's 32.
 * The CF stack's subentries per entry ("limited based on the physical thread-group width", seed
 * 003) follow Mesa's stack row table for R6xx-R8xx: 8 columns per row for 16- and 32-wide
 * waves, 4 for 64-wide (Cayman/Aruba, the R9xx parts, are 64 wide: 4).
 * Note: LLVM 19 itself emits the same CF-ALU-bug workaround for cedar as for redwood (its 64-wide
 * threshold: a nested-if probe splits ALU_PUSH_BEFORE at the same depth), so its output cannot
 * confirm the 32; the processor definition is the source.
 */
const WAVE_FACTS = `
  r600 64 | rv610 16 | rv620 16 | rv630 32 | rv635 32 | rs780 16 | rs880 16 | rv670 64 |
  rv710 32 | rv730 32 | rv740 64 | rv770 64 |
  cedar 32 | redwood 64 | juniper 64 | cypress 64 | hemlock 64 | palm 32 | sumo 64 | sumo2 64 |
  barts 64 | turks 64 | caicos 64 | cayman 64 | aruba 64`;
interface ChipFacts { mcpu: string; fp64: boolean; waveSize: number; stackSubentries: number }
function chipFacts(): ChipFacts[] {
  const wave = new Map(WAVE_FACTS.split('|').map((e) => e.trim().split(/\s+/)).map(([m, w]) => [m!, Number(w)]));
  return MCPUS.split(' ').map((mcpu) => {
    const args = ['-x', 'cl', '-target', 'r600', `-mcpu=${mcpu}`, '-nogpulib', '-dM', '-E', '-'];
    const out = clangCached('macros', args, [], () => execFileSync(CLANG, args, { input: '', stdio: ['pipe', 'pipe', 'pipe'] }).toString());
    const waveSize = wave.get(mcpu);
    if (waveSize === undefined) throw new Error(`gen-isa: no wavefront size for -mcpu=${mcpu}`);
    return { mcpu, fp64: /#define __HAS_FMAF__ 1/.test(out), waveSize, stackSubentries: waveSize < 64 ? 8 : 4 };
  });
}

const gensOf = (s: Set<Gen> | undefined): string => JSON.stringify([...(s ?? [])].sort());

export function generate(): Record<string, string> {
  const seen: Seen = { alu2: new Map(), alu3: new Map(), lds: new Map(), cf: new Map(), rat: new Map(), vtx: new Map(), tex: new Map() };
  readFixtures(seen);
  compileProbes(seen);

  const out: string[] = [];
  out.push('// Generated by tools/gen/r600/gen-isa.ts from ISA-document facts cross-checked against LLVM 19. Do not edit.');
  out.push('/* eslint-disable */');
  out.push('');
  out.push("/** Slots an ALU op may issue in: V vector x/y/z/w, S trans, VS any, 4V all four vector slots, XY/ZW a pair, '' absent. */");
  out.push("export type AluSlots = '' | 'V' | 'S' | 'VS' | '4V' | 'XY' | 'ZW';");
  out.push('export interface AluOpInfo {');
  out.push('  /** ISA-document name. */ readonly name: string;');
  out.push('  /** What clang -S prints (LLVM name when LLVM emits it, else the document name). */ readonly llvm: string;');
  out.push('  /** Source operands (0-3). */ readonly srcs: number;');
  out.push("  /** Encoding: op2 (11-bit ALU_INST), op3 (5-bit), lds (LDS_IDX_OP with LDS_OP field). */ readonly enc: 'op2' | 'op3' | 'lds';");
  out.push('  /** Opcode on R600/R700 (-1: absent). */ readonly r600: number;');
  out.push('  /** Opcode on Evergreen/Cayman (-1: absent); LDS_OP for lds. */ readonly eg: number;');
  out.push('  /** Slots on r600, r700, evergreen, cayman. */ readonly slots: readonly [AluSlots, AluSlots, AluSlots, AluSlots];');
  out.push('  /** Generations whose clang output was seen using this op. */ readonly seen: readonly string[];');
  out.push('}');
  out.push('export const ALU_OPS: readonly AluOpInfo[] = [');
  const slotOf = (s: string): string => (s === '.' ? '' : s);
  const aluNames = new Set<string>();
  for (const [name, srcs, r6, eg, ...sl] of entries(ALU_FACTS)) {
    const op3 = srcs === '3';
    const code = hx(eg!);
    const s = code >= 0 ? (op3 ? seen.alu3 : seen.alu2).get(code) : undefined;
    if (s && [...s.srcs].some((n) => n > Number(srcs))) throw new Error(`LLVM prints ${s.llvm} with more sources than ${name} has`);
    aluNames.add(name!);
    out.push(`  { name: '${name}', llvm: '${s?.llvm ?? name}', srcs: ${srcs}, enc: '${op3 ? 'op3' : 'op2'}', r600: ${hx(r6!)}, eg: ${code}, slots: [${sl.map((x) => `'${slotOf(x)}'`).join(', ')}], seen: ${gensOf(s?.gens)} },`);
  }
  for (const [name, srcs, code] of entries(LDS_FACTS)) {
    const s = seen.lds.get(hx(code!));
    out.push(`  { name: '${name}', llvm: '${s?.llvm ?? name}', srcs: ${srcs}, enc: 'lds', r600: -1, eg: ${hx(code!)}, slots: ['', '', 'V', 'V'], seen: ${gensOf(s?.gens)} },`);
  }
  out.push('];');
  // Every op LLVM emitted must be a documented one.
  const docOp2 = new Set(entries(ALU_FACTS).filter((e) => e[1] !== '3').map((e) => hx(e[3]!)));
  const docOp3 = new Set(entries(ALU_FACTS).filter((e) => e[1] === '3').map((e) => hx(e[3]!)));
  const docLds = new Set(entries(LDS_FACTS).map((e) => hx(e[2]!)));
  for (const [c, s] of seen.alu2) if (!docOp2.has(c)) throw new Error(`LLVM emits undocumented OP2 ${c} (${s.llvm})`);
  for (const [c, s] of seen.alu3) if (!docOp3.has(c)) throw new Error(`LLVM emits undocumented OP3 ${c} (${s.llvm})`);
  for (const [c, s] of seen.lds) if (!docLds.has(c)) throw new Error(`LLVM emits undocumented LDS_OP ${c} (${s.llvm})`);

  out.push('');
  out.push('export interface CfOpInfo {');
  out.push('  readonly name: string;');
  out.push('  /** What clang -S prints for it on evergreen / cayman when LLVM emits it. */ readonly llvm: string;');
  out.push('  /** CF_ALU_WORD1 op (4-bit space) rather than CF_WORD1 / CF_ALLOC_EXPORT_WORD1 (8-bit). */ readonly alu: boolean;');
  out.push('  /** CF_INST on r600, r700, evergreen, cayman (-1: absent). */ readonly codes: readonly [number, number, number, number];');
  out.push('  readonly seen: readonly string[];');
  out.push('}');
  out.push('export const CF_OPS: readonly CfOpInfo[] = [');
  for (const [n, a, b, c, d] of entries(CF_FACTS)) {
    const alu = n!.startsWith('@');
    const name = alu ? n!.slice(1) : n!;
    const key = (alu ? '@' : '') + String(hx(c!));
    const keyCm = (alu ? '@' : '') + String(hx(d!));
    const eg = hx(c!) >= 0 ? seen.cf.get('cypress' + key) : undefined;
    const cm = hx(d!) >= 0 ? seen.cf.get('cayman' + keyCm) : undefined;
    const llvm = (eg ?? cm)?.llvm;
    const gens = new Set<Gen>([...(eg ? ['cypress' as Gen] : []), ...(cm ? ['cayman' as Gen] : [])]);
    out.push(`  { name: '${name}', llvm: '${llvm && llvm !== 'CF_END(EOP)' ? llvm : name}', alu: ${alu}, codes: [${[a, b, c, d].map((x) => hx(x!)).join(', ')}], seen: ${gensOf(gens)} },`);
  }
  out.push('];');
  for (const [k, s] of seen.cf) {
    const gen = k.startsWith('cypress') ? 'cypress' : 'cayman';
    const key = k.slice(gen.length);
    const col = gen === 'cypress' ? 3 : 4;
    const alu = key.startsWith('@');
    const code = Number(alu ? key.slice(1) : key);
    if (s.llvm === 'CF_END(EOP)') continue;
    const doc = entries(CF_FACTS).find((e) => e[0]!.startsWith('@') === alu && hx(e[col]!) === code);
    if (!doc) throw new Error(`LLVM emits undocumented CF ${key} (${s.llvm}) on ${gen}`);
  }

  out.push('');
  out.push('export interface RatInstInfo { readonly name: string; readonly llvm: string; readonly code: number; readonly seen: readonly string[] }');
  out.push('/** RAT_INST of CF_ALLOC_EXPORT_WORD0_RAT. */');
  out.push('export const RAT_INSTS: readonly RatInstInfo[] = [');
  for (const [name, code] of entries(RAT_FACTS)) {
    const s = seen.rat.get(hx(code!));
    out.push(`  { name: '${name}', llvm: '${s?.llvm ?? name}', code: ${hx(code!)}, seen: ${gensOf(s?.gens)} },`);
  }
  out.push('];');
  for (const [c, s] of seen.rat) if (!entries(RAT_FACTS).some((e) => hx(e[1]!) === c)) throw new Error(`LLVM emits undocumented RAT_INST ${c} (${s.llvm})`);

  out.push('');
  out.push('/** VTX DATA_FORMAT -> the VTX_READ_<bits> name LLVM prints, and the dwords fetched. */');
  out.push('export const VTX_FORMATS: readonly { readonly format: number; readonly llvm: string; readonly bits: number; readonly seen: readonly string[] }[] = [');
  for (const [bits, fmt] of entries(VTX_FORMAT_FACTS)) {
    const s = seen.vtx.get(hx(fmt!));
    const llvm = `VTX_READ_${bits}`;
    if (s && s.llvm !== llvm) throw new Error(`LLVM prints format ${fmt} as ${s.llvm}, expected ${llvm}`);
    out.push(`  { format: ${hx(fmt!)}, llvm: '${llvm}', bits: ${bits}, seen: ${gensOf(s?.gens)} },`);
  }
  out.push('];');
  for (const [f, s] of seen.vtx) if (!entries(VTX_FORMAT_FACTS).some((e) => hx(e[1]!) === f)) throw new Error(`LLVM emits undocumented VTX format ${f} (${s.llvm})`);
  out.push('');
  out.push('export interface TexInstInfo {');
  out.push('  readonly name: string;');
  out.push("  /** What clang -S prints (LLVM's TEX_<name>). */ readonly llvm: string;");
  out.push('  /** TEX_INST on r600, r700, evergreen, cayman (-1: absent). */ readonly codes: readonly [number, number, number, number];');
  out.push('  readonly seen: readonly string[];');
  out.push('}');
  out.push('/** TEX_WORD0 TEX_INST values 3..31 (0..2 are VTX_FETCH / VTX_SEMANTIC / MEM). */');
  out.push('export const TEX_INSTS: readonly TexInstInfo[] = [');
  for (const [name, ...codes] of entries(TEX_FACTS)) {
    const eg = hx(codes[2]!);
    const s = eg >= 0 ? seen.tex.get(eg) : undefined;
    const llvm = `TEX_${name}`;
    if (s && s.llvm !== llvm) throw new Error(`LLVM prints TEX_INST ${eg} as ${s.llvm}, the documents call it ${name}`);
    out.push(`  { name: '${name}', llvm: '${llvm}', codes: [${codes.map((c) => hx(c)).join(', ')}], seen: ${gensOf(s?.gens)} },`);
  }
  out.push('];');
  for (const [c, s] of seen.tex) if (!entries(TEX_FACTS).some((e) => hx(e[3]!) === c)) throw new Error(`LLVM emits undocumented TEX_INST ${c} (${s.llvm})`);
  out.push('');
  out.push('/** Texture DATA_FORMATs gpusim decodes: component bit widths (X first, from bit 0) and float-ness. */');
  out.push('export const TEX_FORMATS: readonly { readonly name: string; readonly format: number; readonly bits: readonly number[]; readonly float: boolean }[] = [');
  for (const [name, code, widths, kind] of entries(TEX_FORMAT_FACTS)) {
    out.push(`  { name: 'FMT_${name}', format: ${hx(code!)}, bits: [${widths!.split('.').join(', ')}], float: ${kind === 'float'} },`);
  }
  out.push('];');
  out.push('');
  out.push('/**');
  out.push(' * Chips by -mcpu name. fp64: FMA and the 64-bit float ops (clang-19 predefines __HAS_FMAF__).');
  out.push(" * waveSize: work-items per wavefront (LLVM's R600Processors.td FeatureWavefrontSize*; rv630/rv635 from Mesa).");
  out.push(" * stackSubentries: CF stack subentries per entry (Mesa r600_asm.c's stack row table: 8 below 64 wide, else 4).");
  out.push(' */');
  out.push('export const R600_CHIPS: readonly { readonly mcpu: string; readonly fp64: boolean; readonly waveSize: number; readonly stackSubentries: number }[] = [');
  for (const c of chipFacts()) out.push(`  { mcpu: '${c.mcpu}', fp64: ${c.fp64}, waveSize: ${c.waveSize}, stackSubentries: ${c.stackSubentries} },`);
  out.push('];');
  out.push('');
  out.push('/** MEM_GDS ops: GDS_OP (MEM_OP 4), sources read (address, data0, data1) and whether DST_GPR gets a value. */');
  out.push('export const GDS_OPS: readonly { readonly name: string; readonly code: number; readonly srcs: number; readonly ret: boolean }[] = [');
  for (const [name, srcs, code] of entries(GDS_FACTS)) {
    out.push(`  { name: '${name}', code: ${hx(code!)}, srcs: ${srcs}, ret: ${/_RET$|ORDERED_ALLOC$/.test(name!)} },`);
  }
  out.push('];');
  out.push('');
  return { 'src/r600/isa/opcodes.gen.ts': out.join('\n') };
}
