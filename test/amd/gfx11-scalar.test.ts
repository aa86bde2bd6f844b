/**
 * GFX11 scalar codecs (SOP1, SOP2, SOPK, SOPC, SOPP, SMEM): the golden files run against the scalar
 * codecs alone (so a broken codec elsewhere cannot hide a scalar regression), plus what goldens do
 * not show: extracted fields, DecodeError contents, AsmError on bad operands, assembler variants.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseGolden, hexWords } from '../../tools/gen/golden.js';
import { assembleLine, decodeAt, disassemble, printInst, type IsaTarget } from '../../src/amd/isa/target.js';
import { AsmError, DecodeError } from '../../src/amd/isa/types.js';
import { GFX11_SPACE } from '../../src/amd/isa/operands.js';
import { codecs } from '../../src/amd/isa/gfx11/scalar.js';
import { ROOT } from '../../tools/gen/run.js';

const T: IsaTarget = { mcpu: 'gfx1100', space: GFX11_SPACE, codecs };

for (const cls of ['sop1', 'sop2', 'sopk', 'sopc', 'sopp', 'smem']) {
  test(`gfx1100 scalar golden ${cls}.tsv`, () => {
    const cases = parseGolden(readFileSync(join(ROOT, 'test/golden/amd/gfx1100', `${cls}.tsv`), 'utf8'));
    assert.ok(cases.length > 100);
    const bad: string[] = [];
    for (const c of cases) {
      if (c.text === null) {
        try {
          bad.push(`${hexWords(c.words)}: expected <unknown>, got '${printInst(T, decodeAt(T, c.words, 0))}'`);
        } catch (e) {
          if (!(e instanceof DecodeError)) bad.push(`${hexWords(c.words)}: ${(e as Error).message}`);
        }
        continue;
      }
      try {
        const inst = decodeAt(T, c.words, 0);
        const text = printInst(T, inst);
        if (text !== c.text) bad.push(`${hexWords(c.words)}: disasm '${text}' != llvm '${c.text}'`);
        else if (inst.size !== c.words.length * 4) bad.push(`${hexWords(c.words)}: size ${inst.size}`);
      } catch (e) {
        bad.push(`${hexWords(c.words)}: decode failed for '${c.text}': ${(e as Error).message}`);
      }
      if (!c.asm) {
        // llvm-mc refuses this text (e.g. src_vccz on GFX11, a negative buffer offset): so must we.
        try {
          const w = assembleLine(T, c.text);
          bad.push(`asm '${c.text}': llvm-mc rejects it but we assembled ${hexWords(w)}`);
        } catch (e) {
          if (!(e instanceof AsmError)) bad.push(`asm '${c.text}': ${(e as Error).message}`);
        }
      }
      if (c.asm) {
        try {
          const w = assembleLine(T, c.text);
          if (hexWords(w) !== hexWords(c.asm)) bad.push(`asm '${c.text}': ${hexWords(w)} != llvm ${hexWords(c.asm)}`);
        } catch (e) {
          bad.push(`asm '${c.text}': ${(e as Error).message}`);
        }
      }
    }
    assert.ok(bad.length === 0, `${bad.length} of ${cases.length} differ:\n  ${bad.slice(0, 60).join('\n  ')}`);
  });
}

const asm = (s: string): string => hexWords(assembleLine(T, s));
const dis = (...w: number[]): string => printInst(T, decodeAt(T, w, 0));

test('scalar decode extracts named fields, literal and size once', () => {
  const a = decodeAt(T, [0x80050703], 0);
  assert.equal(a.encoding, 'SOP2');
  assert.equal(a.mnemonic, 's_add_u32');
  assert.equal(a.opcode, 0);
  assert.deepEqual(a.fields, { sdst: 5, ssrc1: 7, ssrc0: 3 });
  assert.equal(a.size, 4);
  assert.equal(a.literal, undefined);
  const b = decodeAt(T, [0xbe8400ff, 0x12345678, 0xbf800000], 0);
  assert.equal(b.encoding, 'SOP1');
  assert.equal(b.size, 8);
  assert.equal(b.literal, 0x12345678);
  assert.deepEqual(b.words, [0xbe8400ff, 0x12345678]);
  const c = decodeAt(T, [0xf4046101, 0x0e000010], 0);
  assert.equal(c.encoding, 'SMEM');
  assert.equal(c.mnemonic, 's_load_b64');
  assert.deepEqual(c.fields, { sbase: 1, sdata: 4, dlc: 1, glc: 1, offset: 0x10, soffset: 7 });
  assert.equal(printInst(T, c), 's_load_b64 s[4:5], s[2:3], s7 offset:0x10 glc dlc');
  const d = decodeAt(T, [0xbf890407], 0);
  assert.equal(d.encoding, 'SOPP');
  assert.deepEqual(d.fields, { simm16: 0x0407 });
  const k = decodeAt(T, [0xb9801801, 5], 0);
  assert.equal(k.encoding, 'SOPK');
  assert.equal(k.size, 8);
  assert.equal(printInst(T, k), 's_setreg_imm32_b32 hwreg(HW_REG_MODE, 0, 4), 5');
});

test('scalar DecodeError names the pc and the raw dwords', () => {
  // SOP2 opcode 7 is unassigned on GFX11.
  const w = [0xbf800000, (0x80000000 | (7 << 23)) >>> 0];
  assert.throws(() => decodeAt(T, w, 1, 0x104), (e: unknown) => {
    assert.ok(e instanceof DecodeError);
    assert.equal(e.pc, 0x104);
    assert.deepEqual(e.words, [w[1]]);
    assert.match(e.message, /0x104/);
    assert.match(e.message, /SOP2 opcode 7/);
    return true;
  });
  // A literal operand with no dword after it; an SMEM instruction cut in half.
  assert.throws(() => decodeAt(T, [0xbe8400ff], 0), DecodeError);
  assert.throws(() => decodeAt(T, [0xf4000141], 0), DecodeError);
  // Reserved bits: s_code_end takes no immediate; s_gl1_inv takes no glc/dlc.
  assert.throws(() => decodeAt(T, [0xbf9f0001], 0), DecodeError);
  assert.throws(() => decodeAt(T, [0xf4806141, 0], 0), DecodeError);
  // 64-bit operand on an odd special (vcc_hi) and an out-of-range source.
  assert.throws(() => decodeAt(T, [0xbe84016b], 0), DecodeError);
  assert.throws(() => decodeAt(T, [0xbe8400d1], 0), DecodeError);
});

test('scalar disassembly goes on after an unknown word', () => {
  const lines = disassemble(T, [0xbe8400ff, 0x3f800000, 0xbfffffff, 0xbfb00000]);
  assert.deepEqual(lines.map((l) => l.text), ['s_mov_b32 s4, 1.0', '<unknown>', 's_endpgm']);
  assert.deepEqual(lines.map((l) => l.pc), [0, 8, 12]);
});

test('scalar printer matches LLVM on special forms', () => {
  assert.equal(dis(0xbe8501ff, 0xffffffff), 's_mov_b64 s[4:5], 0xffffffff');
  assert.equal(dis(0xbf89fff7), 's_waitcnt vmcnt(63) expcnt(7) lgkmcnt(63)');
  assert.equal(dis(0xbf89fc07), 's_waitcnt lgkmcnt(0)');
  assert.equal(dis(0xbf88ffff), 's_waitcnt_depctr 0xffff');
  assert.equal(dis(0xbf88fe1f), 's_waitcnt_depctr depctr_hold_cnt(0) depctr_va_ssrc(0)');
  assert.equal(dis(0xbf870091), 's_delay_alu instid0(VALU_DEP_1) | instskip(NEXT) | instid1(VALU_DEP_1)');
  assert.equal(dis(0xbfb60122), 's_sendmsg 290');
  assert.equal(dis(0xbfb60000), 's_sendmsg sendmsg(0, 0, 0)');
  assert.equal(dis(0xb080e00b), 's_version ((11|UC_VERSION_W64_BIT)|UC_VERSION_W32_BIT)|UC_VERSION_MDP_BIT');
  assert.equal(dis(0xbfa0ffff), 's_branch 65535');
  assert.equal(dis(0xbfb00000), 's_endpgm');
  assert.equal(dis(0xbfb01234), 's_endpgm 4660');
  assert.equal(dis(0xf4200133, 0xf8000010), 's_buffer_load_b32 s4, s[100:103], 0x10');
  assert.equal(dis(0xf4000101, 0xf8000000), 's_load_b32 s4, s[2:3], null');
  assert.equal(dis(0xbe8048b3), 's_setpc_b64 51/*Invalid immediate*/');
});

test('scalar assembler matches llvm-mc on input variants', () => {
  assert.equal(asm('s_waitcnt vmcnt(1) & lgkmcnt(2)'), 'bf890427');
  assert.equal(asm('s_waitcnt vmcnt(1), lgkmcnt(2)'), 'bf890427');
  assert.equal(asm('S_WAITCNT vmcnt(1) lgkmcnt(2)'), 'bf890427');
  assert.equal(asm('s_branch -1'), 'bfa0ffff');
  assert.equal(asm('s_setreg_imm32_b32 hwreg(HW_REG_MODE), 5'), 'b980f801 00000005');
  assert.equal(asm('s_version UC_VERSION_GFX10|UC_VERSION_W64_BIT'), 'b0802004');
  assert.equal(asm('s_waitcnt_vscnt null, 0x0'), 'bc7c0000');
  assert.equal(asm('s_sendmsg_rtn_b32 s5, sendmsg(MSG_RTN_GET_DOORBELL)'), 'be854c80');
  assert.equal(asm('s_load_b32 s5, s[2:3], 0x10'), 'f4000141 f8000010');
  assert.equal(asm('s_load_b32 s5, s[2:3], s7'), 'f4000141 0e000000');
  assert.equal(asm('s_buffer_load_b64 s[4:5], s[8:11], 0x20 glc'), 'f4244104 f8000020');
  assert.equal(asm('s_add_u32 s0, 0x12345, 0x12345'), '8000ffff 00012345');
  assert.equal(asm('s_waitcnt_depctr depctr_va_vdst(0)'), 'bf880f9f');
  assert.equal(asm('s_getreg_b32 s1, hwreg(HW_REG_HW_ID1, 4, 8)'), 'b8813917');
  assert.equal(asm('s_mov_b32 s0, 0x3f800000'), 'be8000f2');
  assert.equal(asm('s_mov_b32 s0, 3.5'), 'be8000ff 40600000');
  assert.equal(asm('s_mov_b64 s[0:1], -17'), 'be8001ff ffffffef');
  assert.equal(asm('s_cmpk_eq_i32 s1, -1'), 'b181ffff');
  assert.equal(asm('s_endpgm'), 'bfb00000');
  // Where llvm-mc truncates or defaults (learned per opcode by the generator).
  assert.equal(asm('s_load_b32 s0, s[0:1]'), 'f4000000 f8000000');
  assert.equal(asm('s_nop 0x10000'), 'bf800000');
  assert.equal(asm('s_setreg_imm32_b32 hwreg(HW_REG_MODE), -0x80000001'), 'b980f801 7fffffff');
  assert.equal(asm('s_atc_probe -1, s[0:1], 0x10'), 'f4881fc0 f8000010');
});

test('scalar assembler takes the older mnemonics llvm-mc takes', () => {
  assert.equal(asm('s_load_dword s5, s[2:3], 0x10'), asm('s_load_b32 s5, s[2:3], 0x10'));
  assert.equal(asm('s_buffer_load_dwordx4 s[4:7], s[8:11], s1 offset:0x4 glc'), asm('s_buffer_load_b128 s[4:7], s[8:11], s1 offset:0x4 glc'));
  assert.equal(asm('s_andn2_b64 s[0:1], exec, vcc'), asm('s_and_not1_b64 s[0:1], exec, vcc'));
  assert.equal(asm('s_ff1_i32_b32 s0, s1'), asm('s_ctz_i32_b32 s0, s1'));
  assert.equal(asm('s_inst_prefetch 0x3'), asm('s_set_inst_prefetch_distance 0x3'));
});

test('scalar assembler raises AsmError on bad operands', () => {
  for (const bad of [
    's_add_u32 s0, 0x12345, 0x54321', // two different literals
    's_mov_b64 s[1:2], 0', // misaligned pair
    's_waitcnt vmcnt(64)', // counter too large
    's_add_u32 s0, s1', // missing operand
    's_add_u32 s0, s1, s2, s3', // extra operand
    's_getreg_b32 s0, hwreg(HW_REG_NOPE)',
    's_mov_b32 s0, v1',
    's_load_b32 s0, s[2:3], 0x10 slc',
    's_buffer_load_b32 s0, s[4:7], -0x10', // buffer offsets are unsigned
    's_mov_b32 s0, src_vccz', // not on GFX11
    's_waitcnt_vscnt s0, 0x0', // sdst must be null
    's_movk_i32 s0, 0x10000', // SOPK immediates must fit 16 bits
    's_branch 65536',
    's_sendmsg sendmsg(MSG_INTERRUPT, 0)', // named GFX11 messages take no operation
    's_load_b32 s0, s[0:1], 0x10 glc glc',
  ]) assert.throws(() => assembleLine(T, bad), AsmError, bad);
});

test('every scalar instruction clang-19 emitted decodes as llvm-objdump printed it and assembles back', () => {
  const dir = join(ROOT, 'kernels/bin/gfx1100');
  if (!existsSync(dir)) return;
  let n = 0;
  const bad: string[] = [];
  for (const f of readdirSync(dir).filter((x) => x.endsWith('.objdump.txt')).sort()) {
    for (const raw of readFileSync(join(dir, f), 'utf8').split('\n')) {
      const m = /^\t(.*?)\s*\/\/ ([0-9A-F]+): ([0-9A-F ]+?)(?: (<.*>))?$/.exec(raw);
      if (!m) continue;
      const words = m[3]!.split(' ').map((x) => parseInt(x, 16));
      if (!codecs.some((c) => c.matches(words[0]!))) continue;
      const text = m[1]!.replace(/\s+/g, ' ').trim();
      n++;
      try {
        const ours = printInst(T, decodeAt(T, words, 0));
        if (ours !== text) bad.push(`${f} ${m[2]}: '${ours}' != llvm '${text}'`);
        // The compiler may set bits llvm-mc leaves clear (s_waitcnt's unused bit 3): then our bytes must
        // at least print the same text.
        const w = assembleLine(T, text);
        const a = hexWords(w);
        if (a !== m[3]!.toLowerCase() && printInst(T, decodeAt(T, w, 0)) !== text) bad.push(`${f} ${m[2]}: asm '${text}' -> ${a} != ${m[3]}`);
      } catch (e) {
        bad.push(`${f} ${m[2]}: '${text}': ${(e as Error).message}`);
      }
    }
  }
  assert.ok(n > 1000, `only ${n} scalar instructions in the fixtures`);
  assert.ok(bad.length === 0, `${bad.length} of ${n} differ:\n  ${bad.slice(0, 30).join('\n  ')}`);
});
