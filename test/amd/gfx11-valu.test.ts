/**
 * GFX11 VALU codecs (VOP1/VOP2/VOPC/VOP3/VOP3SD and their DPP16/DPP8 forms): what the golden files
 * do not show — the decoded fields, DecodeError contents, AsmError on bad operands, and llvm-mc's
 * encodings of input spellings LLVM never prints (recorded from llvm-mc-19 -mcpu=gfx1100).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { assembleLine, codecFor, decodeAt, disassemble, printInst, type IsaTarget } from '../../src/amd/isa/target.js';
import { AsmError, DecodeError } from '../../src/amd/isa/types.js';
import { GFX11_SPACE } from '../../src/amd/isa/operands.js';
import { codecs } from '../../src/amd/isa/gfx11/vector.js';
import { ROOT } from '../../tools/gen/run.js';

// Only this family's codecs, so the test does not depend on the other families' state.
const T: IsaTarget = { mcpu: 'gfx1100', space: GFX11_SPACE, codecs };

const hex = (ws: readonly number[]) => ws.map((w) => (w >>> 0).toString(16).padStart(8, '0')).join(' ');

test('VOP3 decode extracts the named fields once', () => {
  // v_fma_f32 v5, -|0.5|, -|v20|, -|v30| clamp
  const i = decodeAt(T, [0xd6138705, 0xe47a28f0], 0);
  assert.equal(i.encoding, 'VOP3');
  assert.equal(i.variant, 'e64');
  assert.equal(i.opcode, 0x213);
  assert.equal(i.mnemonic, 'v_fma_f32');
  assert.equal(i.size, 8);
  assert.equal(i.literal, undefined);
  assert.deepEqual(
    { vdst: i.fields.vdst, src0: i.fields.src0, src1: i.fields.src1, src2: i.fields.src2, abs: i.fields.abs, neg: i.fields.neg, clamp: i.fields.clamp, omod: i.fields.omod },
    { vdst: 5, src0: 240, src1: 276, src2: 286, abs: 7, neg: 7, clamp: 1, omod: 0 },
  );
  assert.equal(printInst(T, i), 'v_fma_f32 v5, -|0.5|, -|v20|, -|v30| clamp');
});

test('VOP3 literal and VOP3SD carry-out', () => {
  const lit = decodeAt(T, [0xd5030005, 0x000228ff, 0x12345678], 0);
  assert.equal(lit.size, 12);
  assert.equal(lit.literal, 0x12345678);
  assert.equal(printInst(T, lit), 'v_add_f32_e64 v5, 0x12345678, v20');
  const sd = decodeAt(T, [0xd7006a01, 0x00020702], 0);
  assert.equal(sd.encoding, 'VOP3SD');
  assert.equal(sd.fields.sdst, 106);
  assert.equal(sd.fields.abs, undefined);
  assert.equal(printInst(T, sd), 'v_add_co_u32 v1, vcc_lo, v2, v3');
});

test('VOP1/VOP2/VOPC 32-bit forms', () => {
  assert.equal(printInst(T, decodeAt(T, [0x7e0a030a], 0)), 'v_mov_b32_e32 v5, v10');
  assert.equal(printInst(T, decodeAt(T, [0x020a290a], 0)), 'v_cndmask_b32_e32 v5, v10, v20, vcc_lo');
  assert.equal(printInst(T, decodeAt(T, [0x7c24290a], 0)), 'v_cmp_eq_f32_e32 vcc_lo, v10, v20');
  assert.equal(printInst(T, decodeAt(T, [0x7d24290a], 0)), 'v_cmpx_eq_f32_e32 v10, v20');
  const k = decodeAt(T, [0x5a000501, 0x41200000], 0);
  assert.equal(k.size, 8);
  assert.equal(printInst(T, k), 'v_fmaak_f32 v0, v1, v2, 0x41200000');
  assert.equal(printInst(T, decodeAt(T, [0x7f0a390a], 0)), 'v_mov_b16_e32 v5.h, v10.l');
});

test('DPP16 and DPP8 forms decode their control dword', () => {
  const d = decodeAt(T, [0x7e0a02fa, 0xfa08010a], 0);
  assert.equal(d.variant, 'dpp16');
  assert.equal(d.size, 8);
  assert.equal(d.fields.dpp_ctrl, 0x001);
  assert.equal(d.fields.row_mask, 0xf);
  assert.equal(d.fields.bank_mask, 0xa);
  assert.equal(d.fields.bound_ctrl, 1);
  assert.equal(d.fields.src0, 256 + 10);
  assert.equal(printInst(T, d), 'v_mov_b32_dpp v5, v10 quad_perm:[1,0,0,0] row_mask:0xf bank_mask:0xa bound_ctrl:1');
  const d8 = decodeAt(T, [0xd5030005, 0x000228ea, 0x00fac60a], 0);
  assert.equal(d8.variant, 'dpp8');
  assert.equal(d8.size, 12);
  assert.equal(d8.fields.fi, 1);
  assert.equal(printInst(T, d8), 'v_add_f32_e64_dpp v5, v10, v20 dpp8:[6,0,3,5,7,1,0,0] fi:1');
});

test('invalid encodings raise DecodeError naming the pc and dwords', () => {
  // VOP2 opcode 0x3d is not defined on gfx1100.
  assert.throws(() => decodeAt(T, [0x7a0a290a], 0, 0x40), (e: unknown) => {
    assert.ok(e instanceof DecodeError);
    assert.equal(e.pc, 0x40);
    assert.deepEqual(e.words, [0x7a0a290a]);
    return true;
  });
  // v_add_f32_e64 has no third source: abs bit 2 must be zero.
  assert.throws(() => decodeAt(T, [0xd5030405, 0x00022810], 0), DecodeError);
  // A VOP3 word with its second dword missing, and a literal that is missing.
  assert.throws(() => decodeAt(T, [0xd5030005], 0), DecodeError);
  assert.throws(() => decodeAt(T, [0x7e0a02ff], 0), DecodeError);
  // 64-bit source that runs past the register file.
  assert.throws(() => decodeAt(T, [0x7e2e2fff], 0), DecodeError);
});

test('disassemble walks mixed sizes and marks unknown words', () => {
  const lines = disassemble(T, [0x7e0a030a, 0xd5030005, 0x000228ff, 0x3f800001, 0x7a0a290a, 0x7e0a02fa, 0xff00e40a]);
  assert.deepEqual(lines.map((l) => [l.pc, l.text]), [
    [0, 'v_mov_b32_e32 v5, v10'],
    [4, 'v_add_f32_e64 v5, 0x3f800001, v20'],
    [16, '<unknown>'],
    [20, 'v_mov_b32_dpp v5, v10 quad_perm:[0,1,2,3] row_mask:0xf bank_mask:0xf'],
  ]);
});

test('assembler matches llvm-mc on spellings LLVM does not print', () => {
  const cases: [string, string][] = [
    ['v_add_f32_e64 v5, 0x3f000000, v20', 'd5030005 000228f0'],
    ['v_add_f16_e64 v5, 0x3800, v20', 'd5320005 000228f0'],
    ['v_fma_f64 v[0:1], 0x3fe00000, v[2:3], v[4:5]', 'd6140000 041204f0'],
    ['v_add_f32 v1, v2, v3', '06020702'],
    ['v_add_f32 v1, v2, v3 clamp', 'd5038001 00020702'],
    ['v_add_f32 v1, s2, s3', 'd5030001 00000602'],
    ['v_cmp_eq_f32 s5, v1, v2', 'd4120005 00020501'],
    ['v_add_f32 v1, 1.5, v2', '060204ff 3fc00000'],
    ['v_add_f16 v1, 1.5, v2', '640204ff 00003e00'],
    ['v_mov_b32 v1, -2.5', '7e0202ff c0200000'],
    ['v_add_f32_e64 v1, abs(v2), neg(v3)', 'd5030101 40020702'],
    ['v_fmamk_f32 v0, v1, 10.0, v2', '58000501 41200000'],
    ['v_cndmask_b32 v0, v1, v2, s3', 'd5010000 000e0501'],
    ['v_cmpx_eq_f32_e64 s1, v2', 'd492007e 00020401'],
    ['v_mov_b32 v1, v2 quad_perm:[1,0,3,2] row_mask:0x3 bank_mask:0x5 bound_ctrl:0 fi:1', '7e0202fa 3504b102'],
    ['v_add_f32 v1, v2, v3 dpp8:[7,6,5,4,3,2,1,0]', '060206e9 05397702'],
    ['v_add_f32 v1, -v2, v3 clamp row_mirror', 'd5038001 200206fa ff014002'],
    ['v_cmp_eq_f32 s3, v1, v2 row_shl:1', 'd4120003 000204fa ff010101'],
    ['v_permlane16_b32 v1, v2, s3, s4 op_sel:[0,1]', 'd65b1001 00100702'],
    ['v_cvt_f64_f32 v[0:1], 0x3e22f983', '7e0020f8'],
    ['v_mov_b32 v1, 0xffffffff', '7e0202c1'],
    ['v_add_f16 v1, 0xfff0, v2', '640204d0'],
    ['v_add_nc_u16 v1, 0xffff, v2', 'd7030001 000204ff 0000ffff'],
    ['v_fmaak_f16 v0, v1, v2, 1.5', '70000501 00003e00'],
    ['v_fmaak_f32 v0, v1, v2, -1', '5a000501 ffffffff'],
    ['v_add_f32 v1, v2, v3 mul:1', 'd5030001 00020702'],
  ];
  for (const [text, want] of cases) assert.equal(hex(assembleLine(T, text)), want, text);
});

test('bad operands raise AsmError; GFX11 has no SDWA', () => {
  for (const bad of [
    'v_add_f32 v1, v2',
    'v_add_nc_u32_e64 v1, |v2|, v3',
    'v_mov_b32 v1, v[2:3]',
    'v_add_f32_e32 v1, v2, v3 clamp',
    'v_add_f32_e64 v1, v2, v3 op_sel:[1,0,0]',
    'v_add_f64 v[0:1], v2, v[4:5]',
    'v_mov_b32 v1, 0x100000000',
    'v_add_nc_u16 v1, -32769, v2',
    'v_add_f32 v1, src_lds_direct, v2',
  ]) assert.throws(() => assembleLine(T, bad), AsmError, bad);
  assert.throws(() => assembleLine(T, 'v_add_f32_sdwa v1, v2, v3'), /unknown instruction/);
});

test('every VALU instruction clang-19 emitted in the gfx1100 kernel fixtures round-trips like llvm-objdump', (t) => {
  const dir = join(ROOT, 'kernels/bin/gfx1100');
  if (!existsSync(dir)) return t.skip('no kernel fixtures');
  let n = 0;
  const bad: string[] = [];
  for (const f of readdirSync(dir).filter((x) => x.endsWith('.objdump.txt')).sort()) {
    for (const line of readFileSync(join(dir, f), 'utf8').split('\n')) {
      const m = /^\s+(.*?)\s*\/\/ ([0-9A-F]+): ([0-9A-F ]+)$/.exec(line);
      if (!m) continue;
      const words = m[3]!.trim().split(/\s+/).map((x) => parseInt(x, 16) >>> 0);
      if (!codecFor(T, words[0]!)) continue;
      n++;
      const text = m[1]!.replace(/\s+/g, ' ').trim();
      try {
        const got = printInst(T, decodeAt(T, words, 0));
        if (got !== text) bad.push(`${f}: '${got}' != '${text}'`);
        else if (hex(assembleLine(T, text)) !== hex(words)) bad.push(`${f}: asm '${text}'`);
      } catch (e) {
        bad.push(`${f}: ${text}: ${(e as Error).message}`);
      }
    }
  }
  assert.ok(n > 0, 'no VALU instructions found');
  assert.deepEqual(bad.slice(0, 20), []);
});
