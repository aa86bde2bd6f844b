/**
 * GFX11 VOP3P, VOPD, VINTERP and LDSDIR codecs: their golden files run against these codecs alone
 * (so a broken codec elsewhere cannot hide a regression here), plus what goldens do not show:
 * extracted fields, DecodeError contents, AsmError on bad operands, assembler input variants.
 * Expected encodings below were produced by llvm-mc-19 -show-encoding.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseGolden, hexWords } from '../../tools/gen/golden.js';
import { assembleLine, decodeAt, disassemble, printInst, type IsaTarget } from '../../src/amd/isa/target.js';
import { AsmError, DecodeError } from '../../src/amd/isa/types.js';
import { GFX11_SPACE } from '../../src/amd/isa/operands.js';
import { codecs as vop3p, dppCtrlText, parseDppCtrl, printLiteral } from '../../src/amd/isa/gfx11/vop3p.js';
import { codecs as vopd } from '../../src/amd/isa/gfx11/vopd.js';
import { codecs as interp } from '../../src/amd/isa/gfx11/interp.js';
import { ROOT } from '../../tools/gen/run.js';

const T: IsaTarget = { mcpu: 'gfx1100', space: GFX11_SPACE, codecs: [...vop3p, ...vopd, ...interp] };

/** Little-endian bytes as llvm-mc prints them -> dwords. */
function bytes(b: number[]): number[] {
  const out: number[] = [];
  for (let i = 0; i < b.length; i += 4) out.push((b[i]! | (b[i + 1]! << 8) | (b[i + 2]! << 16) | (b[i + 3]! << 24)) >>> 0);
  return out;
}

for (const cls of ['vop3p', 'vop3p-dpp', 'vopd', 'vinterp', 'ldsdir']) {
  test(`gfx1100 ${cls}.tsv against the VOP3P/VOPD/VINTERP/LDSDIR codecs alone`, () => {
    const cases = parseGolden(readFileSync(join(ROOT, 'test/golden/amd/gfx1100', `${cls}.tsv`), 'utf8'));
    assert.ok(cases.length > 100);
    const bad: string[] = [];
    for (const c of cases) {
      if (c.text === null) {
        assert.throws(() => decodeAt(T, c.words, 0), DecodeError, hexWords(c.words));
        continue;
      }
      const text = printInst(T, decodeAt(T, c.words, 0));
      if (text !== c.text) bad.push(`${hexWords(c.words)}: '${text}' != '${c.text}'`);
      if (c.asm && hexWords(assembleLine(T, c.text)) !== hexWords(c.asm)) bad.push(`asm '${c.text}'`);
    }
    assert.deepEqual(bad, []);
  });
}

test('VOP3P fields are extracted once into the record', () => {
  // v_pk_fma_f16 v8, v16, v32, v48 op_sel:[1,0,0] op_sel_hi:[1,1,0] neg_lo:[0,1,0] clamp
  const inst = decodeAt(T, [0xcc0e8808, 0x5cc24110], 0);
  assert.equal(inst.encoding, 'VOP3P');
  assert.equal(inst.mnemonic, 'v_pk_fma_f16');
  assert.equal(inst.size, 8);
  assert.equal(inst.variant, 'e64');
  assert.deepEqual(
    { ...inst.fields },
    { vdst: 8, neg_hi: 0, op_sel: 1, op_sel_hi2: 0, clamp: 1, src0: 272, src1: 288, src2: 304, op_sel_hi: 3, neg: 2 },
  );
  assert.equal(printInst(T, inst), 'v_pk_fma_f16 v8, v16, v32, v48 op_sel:[1,0,0] op_sel_hi:[1,1,0] neg_lo:[0,1,0] clamp');
});

test('VOP3P literal and DPP forms carry a third dword', () => {
  const lit = decodeAt(T, [0xcc134008, 0x1bfe4110, 0x3c00], 0);
  assert.equal(lit.size, 12);
  assert.equal(lit.literal, 0x3c00);
  assert.equal(printInst(T, lit), 'v_dot2_f32_f16 v8, v16, v32, 0x3c00');
  const dpp = decodeAt(T, bytes([0x00, 0x40, 0x13, 0xcc, 0xfa, 0x04, 0x0e, 0x1c, 0x01, 0x01, 0x0d, 0xa5]), 0);
  assert.equal(dpp.variant, 'dpp16');
  assert.equal(dpp.fields.dpp_ctrl, 0x101);
  assert.equal(dpp.fields.row_mask, 0xa);
  assert.equal(dpp.fields.bank_mask, 0x5);
  assert.equal(printInst(T, dpp), 'v_dot2_f32_f16_e64_dpp v0, v1, v2, v3 row_shl:1 row_mask:0xa bank_mask:0x5 bound_ctrl:1 fi:1');
});

test('VOP3P invalid encodings raise DecodeError naming pc and dwords', () => {
  const cases: number[][] = [
    [0xcc230008, 0x1c0e0401], // no opcode 35
    [0xcc0f4008, 0x18c24110], // v_pk_add_f16 with a nonzero (unused) src2
    [0xcc404008, 0x1cc24001], // WMMA src0 must be a VGPR range
    [0xcc0f4008, 0x180240fa, 0xff00e410], // v_pk_add_f16 has no DPP form
    [0xcc204008, 0x1cc240fa, 0xff010010], // reserved dpp_ctrl 0x100
  ];
  for (const w of cases) {
    assert.throws(() => decodeAt(T, w, 0, 0x40), (e: unknown) => {
      assert.ok(e instanceof DecodeError);
      assert.equal(e.pc, 0x40);
      assert.equal(e.words[0], w[0]);
      return true;
    });
  }
  // Truncated: the literal dword is missing.
  assert.throws(() => decodeAt(T, [0xcc134008, 0x1bfe4110], 0), DecodeError);
});

test('VOP3P assembler: defaults, modifiers and operand spellings as llvm-mc encodes them', () => {
  const cases: [string, number[]][] = [
    ['v_pk_add_f16 v8, v16, v32', [0x08, 0x40, 0x0f, 0xcc, 0x10, 0x41, 0x02, 0x18]],
    ['v_pk_add_f16 v8, v16, v32 op_sel_hi:[1,1]', [0x08, 0x40, 0x0f, 0xcc, 0x10, 0x41, 0x02, 0x18]],
    ['v_fma_mix_f32 v0, -v1, |v2|, neg(2.0)', [0x00, 0x02, 0x20, 0xcc, 0x01, 0x05, 0xd2, 0xa3]],
    ['v_fma_mix_f32 v0, v1, v2, v3 op_sel_hi:[1,1,1] clamp', [0x00, 0xc0, 0x20, 0xcc, 0x01, 0x05, 0x0e, 0x1c]],
    ['v_wmma_i32_16x16x16_iu8 v[0:7], v[8:11], v[12:15], v[0:7] clamp', [0x00, 0xc0, 0x44, 0xcc, 0x08, 0x19, 0x02, 0x1c]],
    ['v_pk_add_f16 v8, 0x3c00, v32', [0x08, 0x40, 0x0f, 0xcc, 0xf2, 0x40, 0x02, 0x18]],
    // DPP without the _e64_dpp suffix, row/bank masks defaulting to 0xf.
    ['v_fma_mix_f32 v0, v1, v2, v3 row_shl:1', [0x00, 0x00, 0x20, 0xcc, 0xfa, 0x04, 0x0e, 0x04, 0x01, 0x01, 0x01, 0xff]],
    ['v_fma_mix_f32 v0, v1, v2, v3 dpp8:[7,6,5,4,3,2,1,0] fi:1', [0x00, 0x00, 0x20, 0xcc, 0xea, 0x04, 0x0e, 0x04, 0x01, 0x77, 0x39, 0x05]],
  ];
  for (const [text, b] of cases) assert.equal(hexWords(assembleLine(T, text)), hexWords(bytes(b)), text);
  const bad = [
    'v_pk_add_f16 v8, v16', // operand count
    'v_pk_add_f16 v8, v16, v32 op_sel:[1,0,0]', // three values for a two-source op
    'v_pk_add_f16 v8, v16, v32 bogus:1',
    'v_wmma_f32_16x16x16_f16 v[8:15], s[0:7], v[32:39], v[48:55]', // WMMA A/B are VGPRs
    'v_pk_add_f16_e64_dpp v8, v16, v32 quad_perm:[0,1,2,3]', // no DPP form
    'v_pk_add_f16 v8, 0x1234, 0x5678', // two different literals
  ];
  for (const text of bad) assert.throws(() => assembleLine(T, text), AsmError, text);
});

test('DPP control helpers round-trip every legal dpp_ctrl', () => {
  let legal = 0;
  for (let c = 0; c < 0x200; c++) {
    const t = dppCtrlText(c);
    if (t === null) continue;
    legal++;
    assert.equal(parseDppCtrl(t), c, t);
  }
  assert.equal(legal, 256 + 15 * 3 + 2 + 32);
});

test('literal printers follow LLVM operand types', () => {
  assert.equal(printLiteral('b32', 0x3f800000), '1.0');
  assert.equal(printLiteral('b32', 0xfffffffd), '-3');
  assert.equal(printLiteral('f16', 0x12345678), '0x5678');
  assert.equal(printLiteral('v2f16', 0x3c00), '1.0');
  assert.equal(printLiteral('v2f16', 0x3c003c00), '0x3c003c00');
  assert.equal(printLiteral('hex32', 5), '0x5');
});

test('VOPD: vdstY low bit is implied by vdstX, one literal is shared', () => {
  const w = bytes([0xff, 0x00, 0x02, 0xca, 0x03, 0x09, 0x02, 0x01, 0x78, 0x56, 0x34, 0x12]);
  const inst = decodeAt(T, w, 0);
  assert.equal(inst.encoding, 'VOPD');
  assert.equal(inst.size, 12);
  assert.equal(inst.fields.vdstX, 1);
  assert.equal(inst.fields.vdstY, 2);
  assert.equal(inst.literal, 0x12345678);
  assert.equal(printInst(T, inst), 'v_dual_mov_b32 v1, 0x12345678 :: v_dual_fmaak_f32 v2, v3, v4, 0x12345678');
  assert.equal(hexWords(assembleLine(T, printInst(T, inst))), hexWords(w));
  assert.equal(
    hexWords(assembleLine(T, 'v_dual_mul_f32 v0, s5, v1 :: v_dual_add_nc_u32 v3, 7, v2')),
    hexWords(bytes([0x05, 0x02, 0xe0, 0xc8, 0x87, 0x04, 0x02, 0x00])),
  );
  for (const text of [
    'v_dual_mov_b32 v1, v2 :: v_dual_mov_b32 v3, v4', // both vdst odd
    'v_dual_mov_b32 v1, v2', // no Y half
    'v_dual_mov_b32 v1, v2 :: v_dual_add_nc_u32_bogus v2, v3, v4',
    'v_dual_add_nc_u32 v1, v2, v3 :: v_dual_mov_b32 v2, v3', // add_nc_u32 is Y-only
    'v_dual_fmaak_f32 v1, v2, v3, 0x1 :: v_dual_fmaak_f32 v2, v3, v4, 0x2', // two literals
  ]) assert.throws(() => assembleLine(T, text), AsmError, text);
  // mov has no vsrc1: a nonzero field is not an instruction.
  assert.throws(() => decodeAt(T, [0xca000300, 0x04020102], 0), DecodeError);
  // opX 13 exists in no slot.
  assert.throws(() => decodeAt(T, [0xcb400100, 0x04020302], 0), DecodeError);
});

test('VINTERP and LDSDIR fields, defaults and errors', () => {
  const vi = decodeAt(T, bytes([0x01, 0x87, 0x01, 0xcd, 0x02, 0x07, 0x12, 0xa4]), 0);
  assert.equal(vi.encoding, 'VINTERP');
  assert.deepEqual({ ...vi.fields }, { vdst: 1, wait_exp: 7, op_sel: 0, clamp: 1, src0: 258, src1: 259, src2: 260, neg: 5 });
  assert.equal(printInst(T, vi), 'v_interp_p2_f32 v1, -v2, v3, -v4 clamp wait_exp:7');
  assert.equal(hexWords(assembleLine(T, 'v_interp_p2_f32 v1, -v2, v3, -v4 clamp wait_exp:7')), hexWords(vi.words));
  // op_sel exists only on the f16 variants; sources must be VGPRs.
  assert.throws(() => decodeAt(T, [0xcd000808, 0x04c24110], 0), DecodeError);
  assert.throws(() => decodeAt(T, [0xcd000008, 0x04c24001], 0), DecodeError);
  assert.throws(() => assembleLine(T, 'v_interp_p10_f32 v8, s1, v32, v48'), AsmError);

  const ld = decodeAt(T, [0xce0f1608], 0);
  assert.equal(ld.encoding, 'LDSDIR');
  assert.deepEqual({ ...ld.fields }, { vdst: 8, attr_chan: 2, attr: 5, wait_vdst: 15 });
  assert.equal(printInst(T, ld), 'lds_param_load v8, attr5.z wait_vdst:15');
  assert.equal(hexWords(assembleLine(T, 'lds_direct_load v8')), hexWords([0xce100008]));
  assert.equal(hexWords(assembleLine(T, 'lds_param_load v1, attr32.w')), hexWords(bytes([0x01, 0x83, 0x00, 0xce])));
  assert.throws(() => assembleLine(T, 'lds_param_load v1, attr33.w'), AsmError);
  assert.throws(() => assembleLine(T, 'lds_param_load v1, attr1.x wait_vdst:16'), AsmError);
  assert.throws(() => decodeAt(T, [0xce400008], 0), DecodeError);
  assert.throws(() => decodeAt(T, [0xce200008], 0), DecodeError);
});

test('disassemble prints <unknown> and resynchronises after an invalid VOP3P word', () => {
  const lines = disassemble(T, [0xcc230008, 0xce100008, 0xcc0f4008, 0x18024110]);
  assert.deepEqual(lines.map((l) => l.text), ['<unknown>', 'lds_direct_load v8 wait_vdst:0', 'v_pk_add_f16 v8, v16, v32']);
});
