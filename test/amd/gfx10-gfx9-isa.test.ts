/**
 * The gfx1030 and gfx900 instruction sets: what the golden files do not show — the fields GFX9's
 * SMEM imm/soe select, pre-GFX11 sendmsg operations, GFX9 gpr_idx masks and wave-shift DPP controls,
 * SDWA fields and destinations, and the typed errors for the encoding classes not done yet.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { assembleLine, decodeAt, printInst } from '../../src/amd/isa/target.js';
import { AsmError, DecodeError } from '../../src/amd/isa/types.js';
import { targetFor, targets } from '../../src/amd/isa/targets.js';

const gfx9 = targets.gfx900!;
const gfx10 = targets.gfx1030!;

/** Little-endian bytes (as llvm-mc -show-encoding prints them) to dwords. */
function dw(bytes: number[]): number[] {
  const out: number[] = [];
  for (let i = 0; i < bytes.length; i += 4) out.push((bytes[i]! | (bytes[i + 1]! << 8) | (bytes[i + 2]! << 16) | (bytes[i + 3]! << 24)) >>> 0);
  return out;
}

function roundTrip(t: typeof gfx9, text: string, bytes: number[]): void {
  const words = dw(bytes);
  assert.deepEqual(assembleLine(t, text), words, `assemble '${text}'`);
  assert.equal(printInst(t, decodeAt(t, words, 0)), text);
}

test('gfx1030 and gfx900 are full targets: offered by -mcpu name for code objects, asm and disasm', () => {
  assert.deepEqual(Object.keys(targets).sort(), ['gfx1030', 'gfx1100', 'gfx900']);
  assert.equal(targetFor('gfx900'), gfx9);
  assert.equal(targetFor('gfx1030'), gfx10);
  assert.equal(gfx9.mcpu, 'gfx900');
  assert.equal(gfx10.mcpu, 'gfx1030');
  assert.equal(targetFor('gfx90a'), null);
});

test('gfx900 SMEM: imm/soe choose between an SGPR in the offset field, an offset, and both', () => {
  roundTrip(gfx9, 's_load_dword s5, s[2:3], s7', [0x41, 0x01, 0x00, 0xc0, 0x07, 0x00, 0x00, 0x00]);
  roundTrip(gfx9, 's_load_dword s5, s[2:3], 0x10', [0x41, 0x01, 0x02, 0xc0, 0x10, 0x00, 0x00, 0x00]);
  roundTrip(gfx9, 's_load_dword s5, s[2:3], s7 offset:0x10', [0x41, 0x41, 0x02, 0xc0, 0x10, 0x00, 0x00, 0x0e]);
  const i = decodeAt(gfx9, dw([0x41, 0x41, 0x02, 0xc0, 0x10, 0x00, 0x00, 0x0e]), 0);
  assert.equal(i.encoding, 'SMEM');
  assert.equal(i.fields.imm, 1);
  assert.equal(i.fields.soe, 1);
  assert.equal(i.fields.soffset, 7);
  assert.equal(i.fields.offset, 0x10);
});

test('pre-GFX11 sendmsg carries an operation and a stream', () => {
  for (const t of [gfx9, gfx10]) roundTrip(t, 's_sendmsg sendmsg(MSG_GS, GS_OP_EMIT, 1)', [0x22, 0x01, 0x90, 0xbf]);
});

test('gfx900 gpr_idx masks and wave-shift DPP controls', () => {
  roundTrip(gfx9, 's_set_gpr_idx_on s2, gpr_idx(SRC0,DST)', [0x02, 0x09, 0x11, 0xbf]);
  roundTrip(gfx9, 'v_mov_b32_dpp v1, v2 wave_shl:1 row_mask:0xf bank_mask:0xf', [0xfa, 0x02, 0x02, 0x7e, 0x02, 0x30, 0x01, 0xff]);
});

test('FLAT/GLOBAL/SCRATCH per generation: offset widths, saddr off values, the no-address scratch form', () => {
  // gfx1030: 12-bit signed offset; saddr 0x7d = off; "off, off" scratch encodes saddr 0x7f.
  roundTrip(gfx10, 'scratch_load_dword v1, off, off offset:-16', [0xf0, 0x4f, 0x30, 0xdc, 0x00, 0x00, 0x7f, 0x01]);
  roundTrip(gfx10, 'global_load_dword v1, v2, s[4:5] offset:-1', [0xff, 0x8f, 0x30, 0xdc, 0x02, 0x00, 0x04, 0x01]);
  // gfx900: 13-bit offsets, FLAT unsigned with saddr 0.
  roundTrip(gfx9, 'scratch_load_dword v1, off, s4 offset:-4096', [0x00, 0x50, 0x50, 0xdc, 0x00, 0x00, 0x04, 0x01]);
  roundTrip(gfx9, 'flat_load_dword v1, v[2:3] offset:4095', [0xff, 0x0f, 0x50, 0xdc, 0x02, 0x00, 0x00, 0x01]);
  const i = decodeAt(gfx10, dw([0xf0, 0x4f, 0x30, 0xdc, 0x00, 0x00, 0x7f, 0x01]), 0);
  assert.equal(i.encoding, 'SCRATCH');
  assert.equal(i.fields.saddr, 0x7f);
  assert.equal(i.fields.offset, 0xff0);
});

test('MUBUF/MTBUF per generation: lds loads drop vdata, formats (GFX10 unified, GFX9 dfmt/nfmt)', () => {
  for (const [t, b2] of [[gfx10, 0x31], [gfx9, 0x51]] as const) {
    roundTrip(t, 'buffer_load_dword v1, s[8:11], 0 offen lds', [0x00, 0x10, b2, 0xe0, 0x01, 0x00, 0x02, 0x80]);
  }
  roundTrip(gfx10, 'tbuffer_load_format_x v1, off, s[8:11], s3 format:[BUF_FMT_32_FLOAT] dlc', [0x00, 0x80, 0xb0, 0xe8, 0x00, 0x01, 0x02, 0x03]);
  roundTrip(gfx9, 'tbuffer_load_format_x v1, off, s[8:11], s3 format:[BUF_DATA_FORMAT_32,BUF_NUM_FORMAT_FLOAT]', [0x00, 0x00, 0xa0, 0xeb, 0x00, 0x01, 0x02, 0x03]);
  const i = decodeAt(gfx9, dw([0x00, 0x00, 0xa0, 0xeb, 0x00, 0x01, 0x02, 0x03]), 0);
  assert.equal(i.encoding, 'MTBUF');
  assert.equal(i.fields.format, 4 | (7 << 4));
});

test('VOP3P: GFX9 inside the VOP3 space (0x1a7 prefix), GFX10 at 0x198, neither with DPP', () => {
  roundTrip(gfx9, 'v_pk_add_f16 v0, v1, v2', [0x00, 0x40, 0x8f, 0xd3, 0x01, 0x05, 0x02, 0x18]);
  roundTrip(gfx10, 'v_pk_add_f16 v0, v1, v2', [0x00, 0x40, 0x0f, 0xcc, 0x01, 0x05, 0x02, 0x18]);
  assert.equal(decodeAt(gfx9, [0xd38f4000, 0x18020501], 0).encoding, 'VOP3P');
});

test('SDWA: VOPC destination VCC or an SGPR (a pair on GFX9), source selects and sext, omod', () => {
  // llvm-mc-19 -show-encoding for each line.
  roundTrip(gfx10, 'v_cmp_gt_f32_sdwa s6, v1, v2 src0_sel:DWORD src1_sel:DWORD', [0xf9, 0x04, 0x08, 0x7c, 0x01, 0x86, 0x06, 0x06]);
  roundTrip(gfx9, 'v_cmp_gt_f32_sdwa s[6:7], v1, v2 src0_sel:DWORD src1_sel:DWORD', [0xf9, 0x04, 0x88, 0x7c, 0x01, 0x86, 0x06, 0x06]);
  roundTrip(gfx10, 'v_or_b32_sdwa v5, sext(v1), v2 dst_sel:WORD_1 dst_unused:UNUSED_SEXT src0_sel:BYTE_3 src1_sel:WORD_0', [0xf9, 0x04, 0x0a, 0x38, 0x01, 0x0d, 0x0b, 0x04]);
  roundTrip(gfx9, 'v_add_f32_sdwa v5, v1, v2 mul:2 dst_sel:DWORD dst_unused:UNUSED_PRESERVE src0_sel:DWORD src1_sel:DWORD', [0xf9, 0x04, 0x0a, 0x02, 0x01, 0x56, 0x06, 0x06]);
  // GFX10 documents no SDWA omod, but LLVM 19 decodes and assembles it (v_add_f32 is VOP2 opcode 3 there).
  roundTrip(gfx10, 'v_add_f32_sdwa v5, v1, v2 mul:2 dst_sel:DWORD dst_unused:UNUSED_PRESERVE src0_sel:DWORD src1_sel:DWORD', [0xf9, 0x04, 0x0a, 0x06, 0x01, 0x56, 0x06, 0x06]);
  const i = decodeAt(gfx10, dw([0xf9, 0x04, 0x0a, 0x38, 0x01, 0x0d, 0x0b, 0x04]), 0);
  assert.equal(i.encoding, 'VOP2');
  assert.equal(i.variant, 'sdwa');
  assert.deepEqual([i.fields.dst_sel, i.fields.dst_unused, i.fields.src0_sel, i.fields.src0_sext, i.fields.src1_sel, i.fields.src0, i.fields.src1], [5, 1, 3, 1, 4, 257, 258]);
  // SD = 0: VCC whatever SDST holds.
  assert.equal(decodeAt(gfx9, dw([0xf9, 0x04, 0x88, 0x7c, 0x01, 0x06, 0x06, 0x06]), 0).fields.sdst, 106);
  // Select 7 is reserved (LLVM 19 crashes on it): a DecodeError here.
  assert.throws(() => decodeAt(gfx9, dw([0xf9, 0x04, 0x0a, 0x02, 0x01, 0x07, 0x06, 0x06]), 0, 0x10), (e: unknown) => e instanceof DecodeError && e.pc === 0x10);
});

test('gfx900 MIMG: GFX9 field positions, da/a16/d16, the free address width and the reserved bit (llvm-mc-19 encodings)', () => {
  roundTrip(gfx9, 'image_load v[0:3], v4, s[8:15] dmask:0xf unorm', [0x00, 0x1f, 0x00, 0xf0, 0x04, 0x00, 0x02, 0x00]);
  roundTrip(gfx9, 'image_load v0, v4, s[8:15] dmask:0x3 d16', [0x00, 0x03, 0x00, 0xf0, 0x04, 0x00, 0x02, 0x80]);
  roundTrip(gfx9, 'image_atomic_add v0, v4, s[8:15] dmask:0x1 unorm glc', [0x00, 0x31, 0x48, 0xf0, 0x04, 0x00, 0x02, 0x00]);
  roundTrip(gfx9, 'image_gather4 v[0:3], v4, s[8:15], s[16:19] dmask:0x1', [0x00, 0x01, 0x00, 0xf1, 0x04, 0x00, 0x82, 0x00]);
  // The address width is not encoded: llvm-mc takes any width a variant has, LLVM prints the first match.
  const sample = dw([0x00, 0x0f, 0x80, 0xf0, 0x04, 0x00, 0x82, 0x00]);
  assert.deepEqual(assembleLine(gfx9, 'image_sample v[0:3], v[4:5], s[8:15], s[16:19] dmask:0xf'), sample);
  assert.deepEqual(assembleLine(gfx9, 'image_sample v[0:3], v4, s[8:15], s[16:19] dmask:0xf'), sample);
  assert.equal(printInst(gfx9, decodeAt(gfx9, sample, 0)), 'image_sample v[0:3], v4, s[8:15], s[16:19] dmask:0xf');
  assert.deepEqual(assembleLine(gfx9, 'image_load v[0:3], v[4:5], s[8:15] dmask:0xf unorm da'), dw([0x00, 0x5f, 0x00, 0xf0, 0x04, 0x00, 0x02, 0x00]));
  assert.throws(() => assembleLine(gfx9, 'image_load v[0:3], v[4:8], s[8:15] dmask:0xf'), /address of 1\/2\/3\/4 dword/);
  assert.throws(() => assembleLine(gfx9, 'image_load v[0:3], v[4:5], s[8:15] dmask:0xf dim:SQ_RSRC_IMG_2D'), AsmError);
  assert.throws(() => assembleLine(gfx9, 'image_load v[0:3], v4, s[8:15] dmask:0xf dlc'), AsmError);
  const i = decodeAt(gfx9, dw([0x00, 0xdf, 0x00, 0xf0, 0x04, 0x00, 0x02, 0x80]), 0);
  assert.deepEqual([i.encoding, i.fields.da, i.fields.a16, i.fields.d16, i.fields.unorm, i.fields.dim], ['MIMG', 1, 1, 1, 1, 0]);
  // Word 0 bit 0 is a reserved bit LLVM rejects (MIMG_RESERVED): a DecodeError with the pc and dwords.
  assert.throws(() => decodeAt(gfx9, [0xf0000f01, 0x00020004], 0, 0x40), (e: unknown) => e instanceof DecodeError && e.pc === 0x40 && e.words[0] === 0xf0000f01);
});

test('gfx1030 MIMG: GFX10 field positions and the NSA dword count (llvm-mc-19 encodings)', () => {
  roundTrip(gfx10, 'image_load v[0:3], v[0:1], s[0:7] dmask:0xf dim:SQ_RSRC_IMG_2D unorm glc slc dlc', [0x88, 0x3f, 0x00, 0xf2, 0x00, 0x00, 0x00, 0x00]);
  roundTrip(gfx10, 'image_sample v[0:3], [v4, v9, v1], s[0:7], s[8:11] dmask:0xf dim:SQ_RSRC_IMG_3D', [0x12, 0x0f, 0x80, 0xf0, 0x04, 0x00, 0x40, 0x00, 0x09, 0x01, 0x00, 0x00]);
  roundTrip(gfx10, 'image_sample_d v[0:3], [v4, v9, v1, v2, v3, v5, v7], s[0:7], s[8:11] dmask:0xf dim:SQ_RSRC_IMG_2D_ARRAY', [0x2c, 0x0f, 0x88, 0xf0, 0x04, 0x00, 0x40, 0x00, 0x09, 0x01, 0x02, 0x03, 0x05, 0x07, 0x00, 0x00]);
  roundTrip(gfx10, 'image_atomic_add v1, v[0:1], s[0:7] dmask:0x1 dim:SQ_RSRC_IMG_2D glc', [0x08, 0x21, 0x44, 0xf0, 0x00, 0x01, 0x00, 0x00]);
  const i = decodeAt(gfx10, dw([0x2c, 0x0f, 0x88, 0xf0, 0x04, 0x00, 0x40, 0x00, 0x09, 0x01, 0x02, 0x03, 0x05, 0x07, 0x00, 0x00]), 0);
  assert.equal(i.encoding, 'MIMG');
  assert.equal(i.size, 16);
  assert.equal(i.fields.dim, 5);
  assert.equal(i.fields.nsa, 1);
});
