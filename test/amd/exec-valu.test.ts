/**
 * VALU integer, bit, 16-bit, 64-bit, cross-lane and DPP semantics on a single wave, written in
 * assembly with the gpusim assembler. Expected values come from the RDNA3 ISA pseudocode,
 * evaluated here on the CPU (BigInt where the ISA computes in 64/65 bits).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runAsm, type AsmRunOptions } from './exec-harness.js';

const A = [0, 1, 0xffffffff, 0x80000000, 0x12345678, 0x7fffffff, 0xdeadbeef, 31];
const B = [5, 0xffffffff, 2, 1, 0x87654321, 33, 0x0f0f0f0f, 7];
const C = [3, 7, 0xffffff00, 8, 16, 0x11, 1, 0x80000000];
const N = A.length;
const u32 = (x: number | bigint) => Number(BigInt.asUintN(32, BigInt(x)));
const i32 = (x: number) => x | 0;
const lo16 = (x: number) => x & 0xffff;
const s16 = (x: number) => (x << 16) >> 16;
const pop = (x: number) => x.toString(2).split('').filter((c) => c === '1').length;

function run(src: string, o: AsmRunOptions = {}) {
  return runAsm(`${src}\ns_endpgm`, { exec: (1 << N) - 1, ...o });
}
/** Run `asm` with v0/v1/v2 = A/B/C and compare v3 lanes against ref. */
function check32(asm: string, ref: (a: number, b: number, c: number, lane: number) => number, o: AsmRunOptions = {}): void {
  const r = run(asm, { vgpr: { 0: A, 1: B, 2: C, 3: 0xcccccccc }, ...o });
  for (let l = 0; l < N; l++) assert.equal(r.v(3, l), u32(ref(A[l]!, B[l]!, C[l]!, l)), `${asm} lane ${l}`);
}

const INT32: [string, (a: number, b: number, c: number, l: number) => number][] = [
  ['v_mov_b32 v3, v0', (a) => a],
  ['v_not_b32 v3, v0', (a) => ~a],
  ['v_bfrev_b32 v3, v0', (a) => parseInt(a.toString(2).padStart(32, '0').split('').reverse().join(''), 2)],
  ['v_and_b32 v3, v0, v1', (a, b) => a & b],
  ['v_or_b32 v3, v0, v1', (a, b) => a | b],
  ['v_xor_b32 v3, v0, v1', (a, b) => a ^ b],
  ['v_xnor_b32 v3, v0, v1', (a, b) => ~(a ^ b)],
  ['v_or3_b32 v3, v0, v1, v2', (a, b, c) => a | b | c],
  ['v_and_or_b32 v3, v0, v1, v2', (a, b, c) => (a & b) | c],
  ['v_xor3_b32 v3, v0, v1, v2', (a, b, c) => a ^ b ^ c],
  ['v_lshlrev_b32 v3, v0, v1', (a, b) => b << (a & 31)],
  ['v_lshrrev_b32 v3, v0, v1', (a, b) => b >>> (a & 31)],
  ['v_ashrrev_i32 v3, v0, v1', (a, b) => (b | 0) >> (a & 31)],
  ['v_lshl_add_u32 v3, v0, v1, v2', (a, b, c) => Number((BigInt(u32(a << (b & 31))) + BigInt(c)) & 0xffffffffn)],
  ['v_add_lshl_u32 v3, v0, v1, v2', (a, b, c) => u32(a + b) << (c & 31)],
  ['v_lshl_or_b32 v3, v0, v1, v2', (a, b, c) => (a << (b & 31)) | c],
  ['v_xad_u32 v3, v0, v1, v2', (a, b, c) => u32(a ^ b) + c],
  ['v_bfe_u32 v3, v0, v1, v2', (a, b, c) => Number((BigInt(a) >> BigInt(b & 31)) & ((1n << BigInt(c & 31)) - 1n))],
  ['v_bfe_i32 v3, v0, v1, v2', (a, b, c) => {
    const w = c & 31;
    if (w === 0) return 0;
    return Number(BigInt.asIntN(w, BigInt(a >>> (b & 31))));
  }],
  ['v_bfm_b32 v3, v0, v1', (a, b) => u32(((1 << (a & 31)) - 1) << (b & 31))],
  ['v_bfi_b32 v3, v0, v1, v2', (a, b, c) => (a & b) | (~a & c)],
  ['v_alignbit_b32 v3, v0, v1, v2', (a, b, c) => Number(((BigInt(a) << 32n | BigInt(b)) >> BigInt(c & 31)) & 0xffffffffn)],
  ['v_alignbyte_b32 v3, v0, v1, v2', (a, b, c) => Number(((BigInt(a) << 32n | BigInt(b)) >> BigInt((c & 3) * 8)) & 0xffffffffn)],
  ['v_bcnt_u32_b32 v3, v0, v1', (a, b) => pop(a) + b],
  ['v_ctz_i32_b32 v3, v0', (a) => (a === 0 ? -1 : a.toString(2).length - a.toString(2).lastIndexOf('1') - 1)],
  ['v_clz_i32_u32 v3, v0', (a) => (a === 0 ? -1 : 32 - a.toString(2).length)],
  ['v_cls_i32 v3, v0', (a) => {
    const s = a.toString(2).padStart(32, '0');
    for (let i = 1; i < 32; i++) if (s[i] !== s[0]) return i;
    return -1;
  }],
  ['v_perm_b32 v3, v0, v1, v2', (a, b, c) => {
    const bytes = [b & 255, (b >>> 8) & 255, (b >>> 16) & 255, b >>> 24, a & 255, (a >>> 8) & 255, (a >>> 16) & 255, a >>> 24];
    let r = 0;
    for (let i = 0; i < 4; i++) {
      const sel = (c >>> (8 * i)) & 255;
      const v = sel >= 13 ? 255 : sel === 12 ? 0 : sel >= 8 ? ((bytes[(sel - 8) * 2 + 1]! >> 7) & 1) * 255 : bytes[sel]!;
      r |= v << (8 * i);
    }
    return r;
  }],
  ['v_lerp_u8 v3, v0, v1, v2', (a, b, c) => {
    let r = 0;
    for (let i = 0; i < 4; i++) r |= ((((a >>> (8 * i)) & 255) + ((b >>> (8 * i)) & 255) + ((c >>> (8 * i)) & 1)) >> 1) << (8 * i);
    return r;
  }],
  ['v_add_nc_u32 v3, v0, v1', (a, b) => a + b],
  ['v_sub_nc_u32 v3, v0, v1', (a, b) => a - b],
  ['v_subrev_nc_u32 v3, v0, v1', (a, b) => b - a],
  ['v_add_nc_i32 v3, v0, v1', (a, b) => a + b],
  ['v_sub_nc_i32 v3, v0, v1', (a, b) => a - b],
  ['v_add3_u32 v3, v0, v1, v2', (a, b, c) => a + b + c],
  ['v_mul_lo_u32 v3, v0, v1', (a, b) => Number((BigInt(a) * BigInt(b)) & 0xffffffffn)],
  ['v_mul_hi_u32 v3, v0, v1', (a, b) => Number((BigInt(a) * BigInt(b)) >> 32n)],
  ['v_mul_hi_i32 v3, v0, v1', (a, b) => Number(BigInt.asUintN(32, (BigInt(i32(a)) * BigInt(i32(b))) >> 32n))],
  ['v_mul_u32_u24 v3, v0, v1', (a, b) => Number((BigInt(a & 0xffffff) * BigInt(b & 0xffffff)) & 0xffffffffn)],
  ['v_mul_hi_u32_u24 v3, v0, v1', (a, b) => Number((BigInt(a & 0xffffff) * BigInt(b & 0xffffff)) >> 32n)],
  ['v_mul_i32_i24 v3, v0, v1', (a, b) => Number(BigInt.asUintN(32, BigInt((a << 8) >> 8) * BigInt((b << 8) >> 8)))],
  ['v_mul_hi_i32_i24 v3, v0, v1', (a, b) => Number(BigInt.asUintN(32, (BigInt((a << 8) >> 8) * BigInt((b << 8) >> 8)) >> 32n))],
  ['v_mad_u32_u24 v3, v0, v1, v2', (a, b, c) => Number((BigInt(a & 0xffffff) * BigInt(b & 0xffffff) + BigInt(c)) & 0xffffffffn)],
  ['v_mad_i32_i24 v3, v0, v1, v2', (a, b, c) => Number(BigInt.asUintN(32, BigInt((a << 8) >> 8) * BigInt((b << 8) >> 8) + BigInt(c)))],
  ['v_min_u32 v3, v0, v1', (a, b) => Math.min(a, b)],
  ['v_max_u32 v3, v0, v1', (a, b) => Math.max(a, b)],
  ['v_min_i32 v3, v0, v1', (a, b) => Math.min(i32(a), i32(b))],
  ['v_max_i32 v3, v0, v1', (a, b) => Math.max(i32(a), i32(b))],
  ['v_min3_u32 v3, v0, v1, v2', (a, b, c) => Math.min(a, b, c)],
  ['v_max3_u32 v3, v0, v1, v2', (a, b, c) => Math.max(a, b, c)],
  ['v_min3_i32 v3, v0, v1, v2', (a, b, c) => Math.min(i32(a), i32(b), i32(c))],
  ['v_max3_i32 v3, v0, v1, v2', (a, b, c) => Math.max(i32(a), i32(b), i32(c))],
  ['v_med3_u32 v3, v0, v1, v2', (a, b, c) => [a, b, c].sort((x, y) => x - y)[1]!],
  ['v_med3_i32 v3, v0, v1, v2', (a, b, c) => [i32(a), i32(b), i32(c)].sort((x, y) => x - y)[1]!],
  ['v_maxmin_u32 v3, v0, v1, v2', (a, b, c) => Math.min(Math.max(a, b), c)],
  ['v_minmax_u32 v3, v0, v1, v2', (a, b, c) => Math.max(Math.min(a, b), c)],
  ['v_maxmin_i32 v3, v0, v1, v2', (a, b, c) => Math.min(Math.max(i32(a), i32(b)), i32(c))],
  ['v_minmax_i32 v3, v0, v1, v2', (a, b, c) => Math.max(Math.min(i32(a), i32(b)), i32(c))],
  ['v_mbcnt_lo_u32_b32 v3, v0, v1', (a, b, _c, l) => pop(a & ((1 << l) - 1)) + b],
  ['v_mbcnt_hi_u32_b32 v3, v0, v1', (_a, b) => b],
  ['v_sad_u8 v3, v0, v1, v2', (a, b, c) => sad(a, b, c, false)],
  ['v_msad_u8 v3, v0, v1, v2', (a, b, c) => sad(a, b, c, true)],
  ['v_sad_hi_u8 v3, v0, v1, v2', (a, b, c) => (sad(a, b, 0, false) << 16) + c],
  ['v_sad_u16 v3, v0, v1, v2', (a, b, c) => c + Math.abs(lo16(a) - lo16(b)) + Math.abs((a >>> 16) - (b >>> 16))],
  ['v_sad_u32 v3, v0, v1, v2', (a, b, c) => Math.abs(a - b) + c],
  ['v_cvt_pk_u16_u32 v3, v0, v1', (a, b) => Math.min(a, 65535) | (Math.min(b, 65535) << 16)],
  ['v_cvt_pk_i16_i32 v3, v0, v1', (a, b) => (Math.max(-32768, Math.min(32767, i32(a))) & 0xffff) | (Math.max(-32768, Math.min(32767, i32(b))) << 16)],
  ['v_mad_u32_u16 v3, v0, v1, v2', (a, b, c) => lo16(a) * lo16(b) + c],
  ['v_mad_i32_i16 v3, v0, v1, v2', (a, b, c) => s16(a) * s16(b) + c],
  ['v_cvt_i32_i16 v3, v0', (a) => s16(a)],
  ['v_cvt_u32_u16 v3, v0', (a) => lo16(a)],
  ['v_cvt_pk_u8_f32 v3, 0x437f0000, v1, v2', (_a, b, c) => u32((c & ~(0xff << ((b & 3) * 8))) | (255 << ((b & 3) * 8)))],
];
function sad(a: number, b: number, c: number, masked: boolean): number {
  let r = c;
  for (let i = 0; i < 32; i += 8) {
    const x = (a >>> i) & 255, y = (b >>> i) & 255;
    if (masked && y === 0) continue;
    r += Math.abs(x - y);
  }
  return u32(r);
}

for (const [asm, ref] of INT32) test(`int32: ${asm}`, () => check32(asm, ref));

test('v_mbcnt_lo/hi count lanes below in wave64', () => {
  const r = runAsm('v_mbcnt_lo_u32_b32 v1, -1, 0\nv_mbcnt_hi_u32_b32 v1, -1, v1\ns_endpgm', { waveSize: 64 });
  for (let l = 0; l < 64; l++) assert.equal(r.v(1, l), l);
});

test('integer clamp saturates (v_add_nc_u32, v_sub_nc_u32, v_add_nc_i32, v_sub_nc_i32, v_add_co_u32)', () => {
  check32('v_add_nc_u32_e64 v3, v0, v1 clamp', (a, b) => Math.min(a + b, 0xffffffff));
  check32('v_sub_nc_u32_e64 v3, v0, v1 clamp', (a, b) => Math.max(a - b, 0));
  check32('v_add_nc_i32 v3, v0, v1 clamp', (a, b) => Math.max(-0x80000000, Math.min(0x7fffffff, i32(a) + i32(b))));
  check32('v_sub_nc_i32 v3, v0, v1 clamp', (a, b) => Math.max(-0x80000000, Math.min(0x7fffffff, i32(a) - i32(b))));
  check32('v_add_co_u32 v3, s10, v0, v1 clamp', (a, b) => Math.min(a + b, 0xffffffff));
});

// ---- carries: VOP2 (VCC) and VOP3SD (any SGPR), with inactive lanes writing 0 bits
function mask(f: (l: number) => boolean, exec = (1 << N) - 1): number {
  let m = 0;
  for (let l = 0; l < N; l++) if ((exec >> l) & 1 && f(l)) m |= 1 << l;
  return m >>> 0;
}
test('carry ops: v_add_co_u32, v_sub_co_u32, v_subrev_co_u32 (VOP3SD sdst)', () => {
  const exec = 0b1011_1111;
  for (const [asm, ref, co] of [
    ['v_add_co_u32 v3, s10, v0, v1', (a: number, b: number) => a + b, (a: number, b: number) => a + b > 0xffffffff],
    ['v_sub_co_u32 v3, s10, v0, v1', (a: number, b: number) => a - b, (a: number, b: number) => b > a],
    ['v_subrev_co_u32 v3, s10, v0, v1', (a: number, b: number) => b - a, (a: number, b: number) => a > b],
  ] as const) {
    const r = run(asm, { vgpr: { 0: A, 1: B }, sgpr: { 10: 0xffffffff }, exec });
    assert.equal(r.s(10), mask((l) => co(A[l]!, B[l]!), exec), asm);
    for (let l = 0; l < N; l++) if ((exec >> l) & 1) assert.equal(r.v(3, l), u32(ref(A[l]!, B[l]!)));
  }
});
test('carry-in ops read VCC in VOP2 and SRC2 in VOP3SD: v_add_co_ci_u32, v_sub_co_ci_u32, v_subrev_co_ci_u32', () => {
  const cin = 0b0110_1010;
  for (const [name, ref, co] of [
    ['v_add_co_ci_u32', (a: number, b: number, c: number) => a + b + c, (a: number, b: number, c: number) => a + b + c > 0xffffffff],
    ['v_sub_co_ci_u32', (a: number, b: number, c: number) => a - b - c, (a: number, b: number, c: number) => b + c > a],
    ['v_subrev_co_ci_u32', (a: number, b: number, c: number) => b - a - c, (a: number, b: number, c: number) => a + c > b],
  ] as const) {
    const e32 = run(`${name} v3, vcc_lo, v0, v1, vcc_lo`, { vgpr: { 0: A, 1: B }, sgpr: { 106: cin } });
    const e64 = run(`${name}_e64 v3, s12, v0, v1, s11`, { vgpr: { 0: A, 1: B }, sgpr: { 11: cin } });
    for (const [r, sd] of [[e32, 106], [e64, 12]] as const) {
      assert.equal(r.s(sd), mask((l) => co(A[l]!, B[l]!, (cin >> l) & 1)), name);
      for (let l = 0; l < N; l++) assert.equal(r.v(3, l), u32(ref(A[l]!, B[l]!, (cin >> l) & 1)), `${name} lane ${l}`);
    }
  }
});
test('v_cndmask_b32: VOP2 reads VCC, VOP3 reads an SGPR mask, with float abs/neg modifiers', () => {
  const m = 0b1100_0101;
  const e32 = run('v_cndmask_b32 v3, v0, v1, vcc_lo', { vgpr: { 0: A, 1: B }, sgpr: { 106: m } });
  const e64 = run('v_cndmask_b32_e64 v3, v0, -v1, s20', { vgpr: { 0: A, 1: B }, sgpr: { 20: m } });
  for (let l = 0; l < N; l++) {
    assert.equal(e32.v(3, l), (m >> l) & 1 ? B[l] : A[l]);
    assert.equal(e64.v(3, l), (m >> l) & 1 ? u32(B[l]! ^ 0x80000000) : A[l]);
  }
});
test('EXEC == 0: a VALU writing an SGPR still runs and writes 0 bits; VGPRs stay', () => {
  const r = run('v_add_co_u32 v3, s10, v0, v1', { vgpr: { 0: A, 1: B, 3: 7 }, sgpr: { 10: 0xffffffff }, exec: 0 });
  assert.equal(r.s(10), 0);
  assert.equal(r.v(3, 2), 7);
});

test('wave64: carries and masks are SGPR pairs (wave64 text: s[10:11], vcc; the same encodings as wave32 s10, vcc_lo)', () => {
  const lanes = Array.from({ length: 64 }, (_, i) => (i % 3 === 0 ? 0xffffffff : i));
  const ones = Array.from({ length: 64 }, () => 1);
  const o = { waveSize: 64 as const, vgpr: { 0: lanes, 1: ones }, execHi: 0x7fffffff };
  const r = runAsm('v_add_co_u32 v3, s[10:11], v0, v1\nv_add_co_ci_u32 v4, vcc, v1, v1, vcc\nv_cndmask_b32_e64 v5, v1, v0, s[10:11]\ns_endpgm', { ...o, sgpr: { 106: 0, 107: 0x80000001 } });
  let lo = 0, hi = 0;
  for (let l = 0; l < 64; l++) if (l % 3 === 0 && l !== 63) l < 32 ? (lo |= 1 << l) : (hi |= 1 << (l - 32));
  assert.equal(r.s(10), lo >>> 0);
  assert.equal(r.s(11), hi >>> 0); // lane 63 inactive: 0
  assert.equal(r.v(3, 33), 0);
  assert.equal(r.v(4, 32), 3); // carry-in from VCC_HI bit 0
  assert.equal(r.v(4, 63), 0); // inactive lane untouched
  assert.equal(r.v(5, 36), 0xffffffff);
  assert.equal(r.v(5, 37), 1);
});

// ---- 64-bit integer
const big = (lo: number, hi: number) => (BigInt(hi >>> 0) << 32n) | BigInt(lo >>> 0);
test('64-bit shifts: v_lshlrev_b64, v_lshrrev_b64, v_ashrrev_i64', () => {
  const shifts = [0, 1, 31, 32, 33, 63, 64 + 5, 40];
  for (const [asm, ref] of [
    ['v_lshlrev_b64 v[4:5], v0, v[2:3]', (x: bigint, s: number) => BigInt.asUintN(64, x << BigInt(s & 63))],
    ['v_lshrrev_b64 v[4:5], v0, v[2:3]', (x: bigint, s: number) => x >> BigInt(s & 63)],
    ['v_ashrrev_i64 v[4:5], v0, v[2:3]', (x: bigint, s: number) => BigInt.asUintN(64, BigInt.asIntN(64, x) >> BigInt(s & 63))],
  ] as const) {
    const r = run(asm, { vgpr: { 0: shifts, 2: A, 3: B } });
    for (let l = 0; l < N; l++) {
      const e = ref(big(A[l]!, B[l]!), shifts[l]!);
      assert.equal(big(r.v(4, l), r.v(5, l)), e, `${asm} lane ${l}`);
    }
  }
});
test('v_mad_u64_u32 / v_mad_i64_i32: 64-bit result and the 65th bit to SDST', () => {
  const r = run('v_mad_u64_u32 v[4:5], s10, v0, v1, v[2:3]', { vgpr: { 0: A, 1: B, 2: C, 3: A } });
  const q = run('v_mad_i64_i32 v[4:5], s10, v0, v1, v[2:3]', { vgpr: { 0: A, 1: B, 2: C, 3: A } });
  let mu = 0;
  let mi = 0;
  for (let l = 0; l < N; l++) {
    const su = BigInt(A[l]!) * BigInt(B[l]!) + big(C[l]!, A[l]!);
    assert.equal(big(r.v(4, l), r.v(5, l)), BigInt.asUintN(64, su));
    if (su >> 64n) mu |= 1 << l;
    const si = BigInt(i32(A[l]!)) * BigInt(i32(B[l]!)) + BigInt.asIntN(64, big(C[l]!, A[l]!));
    assert.equal(big(q.v(4, l), q.v(5, l)), BigInt.asUintN(64, si));
    if (BigInt.asUintN(65, si) >> 64n) mi |= 1 << l;
  }
  assert.equal(r.s(10), mu >>> 0);
  assert.equal(q.s(10), mi >>> 0);
});
test('v_qsad_pk_u16_u8 / v_mqsad_pk_u16_u8 slide a 4-byte window over S0', () => {
  const s0 = [0x04030201, 0x08070605];
  const s1 = 0x01020304;
  for (const [name, masked] of [['v_qsad_pk_u16_u8', false], ['v_mqsad_pk_u16_u8', true]] as const) {
    const r = run(`${name} v[4:5], v[0:1], v2, v[6:7]`, { vgpr: { 0: s0[0]!, 1: s0[1]!, 2: s1, 6: 0x00020001, 7: 0x00040003 } });
    const x = big(s0[0]!, s0[1]!);
    const acc = [1, 2, 3, 4];
    const want = acc.map((c, i) => sad(Number((x >> BigInt(8 * i)) & 0xffffffffn), s1, c, masked) & 0xffff);
    assert.equal(r.v(4), (want[0]! | (want[1]! << 16)) >>> 0, name);
    assert.equal(r.v(5), (want[2]! | (want[3]! << 16)) >>> 0, name);
  }
});
test('v_mqsad_u32_u8: four masked SADs into a 4-dword destination', () => {
  const s0 = [0x04030201, 0x08070605];
  const s1 = 0x01020004; // a zero reference byte is skipped
  const acc = [10, 20, 30, 40];
  const r = run('v_mqsad_u32_u8 v[4:7], v[0:1], v2, v[8:11]', { vgpr: { 0: s0[0]!, 1: s0[1]!, 2: s1, 8: acc[0]!, 9: acc[1]!, 10: acc[2]!, 11: acc[3]! } });
  const x = big(s0[0]!, s0[1]!);
  for (let i = 0; i < 4; i++) assert.equal(r.v(4 + i), sad(Number((x >> BigInt(8 * i)) & 0xffffffffn), s1, acc[i]!, true));
});

// ---- 16-bit integer ops: low halves by default, op_sel / .h halves, the other half preserved
const INT16: [string, (a: number, b: number, c: number) => number][] = [
  ['v_add_nc_u16 v3, v0, v1', (a, b) => a + b],
  ['v_sub_nc_u16 v3, v0, v1', (a, b) => a - b],
  ['v_add_nc_i16 v3, v0, v1', (a, b) => s16(a) + s16(b)],
  ['v_sub_nc_i16 v3, v0, v1', (a, b) => s16(a) - s16(b)],
  ['v_mul_lo_u16 v3, v0, v1', (a, b) => lo16(a) * lo16(b)],
  ['v_mad_u16 v3, v0, v1, v2', (a, b, c) => lo16(a) * lo16(b) + lo16(c)],
  ['v_mad_i16 v3, v0, v1, v2', (a, b, c) => s16(a) * s16(b) + s16(c)],
  ['v_min_u16 v3, v0, v1', (a, b) => Math.min(lo16(a), lo16(b))],
  ['v_max_u16 v3, v0, v1', (a, b) => Math.max(lo16(a), lo16(b))],
  ['v_min_i16 v3, v0, v1', (a, b) => Math.min(s16(a), s16(b))],
  ['v_max_i16 v3, v0, v1', (a, b) => Math.max(s16(a), s16(b))],
  ['v_min3_u16 v3, v0, v1, v2', (a, b, c) => Math.min(lo16(a), lo16(b), lo16(c))],
  ['v_max3_u16 v3, v0, v1, v2', (a, b, c) => Math.max(lo16(a), lo16(b), lo16(c))],
  ['v_min3_i16 v3, v0, v1, v2', (a, b, c) => Math.min(s16(a), s16(b), s16(c))],
  ['v_max3_i16 v3, v0, v1, v2', (a, b, c) => Math.max(s16(a), s16(b), s16(c))],
  ['v_med3_u16 v3, v0, v1, v2', (a, b, c) => [lo16(a), lo16(b), lo16(c)].sort((x, y) => x - y)[1]!],
  ['v_med3_i16 v3, v0, v1, v2', (a, b, c) => [s16(a), s16(b), s16(c)].sort((x, y) => x - y)[1]!],
  ['v_and_b16 v3, v0, v1', (a, b) => a & b],
  ['v_or_b16 v3, v0, v1', (a, b) => a | b],
  ['v_xor_b16 v3, v0, v1', (a, b) => a ^ b],
  ['v_not_b16 v3, v0', (a) => ~a],
  ['v_lshlrev_b16 v3, v0, v1', (a, b) => lo16(b) << (a & 15)],
  ['v_lshrrev_b16 v3, v0, v1', (a, b) => lo16(b) >>> (a & 15)],
  ['v_ashrrev_i16 v3, v0, v1', (a, b) => s16(b) >> (a & 15)],
  ['v_sat_pk_u8_i16 v3, v0', (a) => {
    const sat = (n: number) => (n <= 0 ? 0 : n >= 255 ? 255 : n);
    return sat(s16(a)) | (sat(a >> 16) << 8);
  }],
];
for (const [asm, ref] of INT16) {
  test(`int16: ${asm} (writes the low half, keeps the high half)`, () => {
    check32(asm, (a, b, c) => (0xcccc0000 | lo16(ref(a, b, c))) >>> 0);
  });
}
test('16-bit saturation with clamp: v_add_nc_u16, v_sub_nc_i16, v_mad_u16', () => {
  check32('v_add_nc_u16 v3, v0, v1 clamp', (a, b) => 0xcccc0000 | Math.min(lo16(a) + lo16(b), 0xffff));
  check32('v_sub_nc_i16 v3, v0, v1 clamp', (a, b) => 0xcccc0000 | lo16(Math.max(-32768, Math.min(32767, s16(a) - s16(b)))));
  check32('v_mad_u16 v3, v0, v1, v2 clamp', (a, b, c) => 0xcccc0000 | Math.min(lo16(a) * lo16(b) + lo16(c), 0xffff));
});
test('op_sel picks source halves and the destination half (VOP3): v_add_nc_u16 op_sel:[1,1,1]', () => {
  check32('v_add_nc_u16 v3, v0, v1 op_sel:[1,1,1]', (a, b) => ((lo16((a >>> 16) + (b >>> 16)) << 16) | 0xcccc) >>> 0);
  check32('v_add_nc_u16 v3, v0, v1 op_sel:[0,1,0]', (a, b) => (0xcccc0000 | lo16(a + (b >>> 16))) >>> 0);
});
test('v_cndmask_b16 selects 16-bit halves by an SGPR mask', () => {
  const m = 0b1010_0110;
  check32('v_cndmask_b16 v3, v0, v1, s20', (a, b, _c, l) => (0xcccc0000 | lo16((m >> l) & 1 ? b : a)) >>> 0, { sgpr: { 20: m } });
});
test('true16 .l/.h registers: v_mov_b16 moves between halves', () => {
  check32('v_mov_b16 v3.h, v0.l', (a) => ((lo16(a) << 16) | 0xcccc) >>> 0);
  check32('v_mov_b16 v3.l, v1.h', (_a, b) => (0xcccc0000 | (b >>> 16)) >>> 0);
  check32('v_mov_b16 v3.l, 0x1234', () => 0xcccc1234);
});

// ---- cross-lane
test('v_readfirstlane_b32 reads the lowest active lane (lane 0 when EXEC == 0)', () => {
  const r = run('v_readfirstlane_b32 s4, v0', { vgpr: { 0: A }, exec: 0b1100 });
  assert.equal(r.s(4), A[2]);
  const z = run('v_readfirstlane_b32 s4, v0', { vgpr: { 0: A }, exec: 0 });
  assert.equal(z.s(4), A[0]);
  const w64 = runAsm('v_readfirstlane_b32 s4, v0\ns_endpgm', { waveSize: 64, vgpr: { 0: Array.from({ length: 64 }, (_, i) => i * 3) }, exec: 0, execHi: 0b100 });
  assert.equal(w64.s(4), 34 * 3);
});
test('v_readlane_b32 / v_writelane_b32 ignore EXEC (also EXEC == 0)', () => {
  const r = run('v_readlane_b32 s4, v0, s5\nv_writelane_b32 v1, s6, 3', { vgpr: { 0: A, 1: 0 }, sgpr: { 5: 32 + 4, 6: 77 }, exec: 0 });
  assert.equal(r.s(4), A[4]); // lane select masked to 5 bits in wave32
  assert.equal(r.v(1, 3), 77);
  assert.equal(r.v(1, 2), 0);
});
test('v_permlane16_b32 rotates within rows; v_permlanex16_b32 reads the other row', () => {
  const lanes = Array.from({ length: 32 }, (_, i) => 100 + i);
  const r = runAsm('v_permlane16_b32 v1, v0, s0, s1\nv_permlanex16_b32 v2, v0, s0, s1\ns_endpgm', { vgpr: { 0: lanes }, sgpr: { 0: 0x87654321, 1: 0x0fedcba9 } });
  for (let l = 0; l < 32; l++) {
    const i = l & 15;
    const row = l & 16;
    assert.equal(r.v(1, l), 100 + row + ((i + 1) & 15));
    assert.equal(r.v(2, l), 100 + (row ^ 16) + ((i + 1) & 15));
  }
});
test('v_permlane16_b32: inactive source lanes need FI (op_sel[0]); BOUND_CTRL (op_sel[1]) writes 0', () => {
  const lanes = Array.from({ length: 32 }, (_, i) => 100 + i);
  const exec = 0x7fff7fff;
  const o = { vgpr: { 0: lanes, 1: 5, 2: 5, 3: 5 }, sgpr: { 0: 0x87654321, 1: 0x0fedcba9 }, exec };
  const r = runAsm('v_permlane16_b32 v1, v0, s0, s1\nv_permlane16_b32 v2, v0, s0, s1 op_sel:[1,0]\nv_permlane16_b32 v3, v0, s0, s1 op_sel:[0,1]\ns_endpgm', o);
  assert.equal(r.v(1, 14), 5); // reads lane 15 (inactive): not written
  assert.equal(r.v(2, 14), 115); // fetch inactive
  assert.equal(r.v(3, 14), 0); // bound_ctrl
  assert.equal(r.v(1, 13), 114);
});
test('v_permlane64_b32 swaps wave64 halves', () => {
  const lanes = Array.from({ length: 64 }, (_, i) => i);
  const r = runAsm('v_permlane64_b32 v1, v0\ns_endpgm', { waveSize: 64, vgpr: { 0: lanes } });
  for (let l = 0; l < 64; l++) assert.equal(r.v(1, l), l ^ 32);
});
test('v_swap_b32 exchanges two VGPRs in active lanes', () => {
  const r = run('v_swap_b32 v1, v0', { vgpr: { 0: A, 1: B }, exec: 0b11 });
  assert.deepEqual([r.v(0, 0), r.v(1, 0), r.v(0, 2), r.v(1, 2)], [B[0], A[0], A[2], B[2]]);
});
test('V_MOVREL: v_movrels/movreld/movrelsd/movrelsd_2/swaprel index by M0', () => {
  const r = run('v_movrels_b32 v20, v1\nv_movreld_b32 v2, v0\nv_movrelsd_b32 v30, v0', { vgpr: { 0: A, 11: B }, sgpr: { 125: 10 } });
  for (let l = 0; l < N; l++) {
    assert.equal(r.v(20, l), B[l]); // v20 <- v(1+10)
    assert.equal(r.v(12, l), A[l]); // v(2+10) <- v0
    assert.equal(r.v(40, l), r.v(10, l)); // v(30+10) <- v(0+10)
  }
  const m0 = (20 << 16) | 10;
  const q = run('v_movrelsd_2_b32 v5, v7\nv_swaprel_b32 v1, v2', { vgpr: { 17: A, 12: B, 21: C }, sgpr: { 125: m0 } });
  for (let l = 0; l < N; l++) {
    assert.equal(q.v(25, l), A[l]); // v(5+20) <- v(7+10)
    assert.equal(q.v(21, l), B[l]); // swap v(1+20) <-> v(2+10)
    assert.equal(q.v(12, l), C[l]);
  }
});
test('V_MOVREL out of range: a source past the VGPRs reads VGPR0, a destination makes a NOP; diagnosed', () => {
  const r = run('v_movrels_b32 v3, v1\nv_movreld_b32 v4, v0', { vgprs: 16, vgpr: { 0: A, 3: 9 }, sgpr: { 125: 20 } });
  assert.equal(r.v(3, 4), A[4]);
  assert.ok(r.diags.some((d) => d.id === 'gfx11.vgpr.movrel-out-of-range'));
  const clean = run('v_movrels_b32 v3, v1', { vgprs: 16, vgpr: { 0: A }, sgpr: { 125: 2 } });
  assert.equal(clean.diags.length, 0);
});
test('out-of-range VGPR destination: the instruction is a NOP (multi-destination writes nothing)', () => {
  const r = run('v_add_co_u32 v20, s10, v0, v1', { vgprs: 16, vgpr: { 0: A, 1: B }, sgpr: { 10: 0x1234 } });
  assert.equal(r.s(10), 0x1234);
  assert.ok(r.diags.some((d) => d.id === 'gfx11.vgpr.dst-out-of-range'));
});
test('a 64-bit SGPR VALU source on an odd register is diagnosed and reads the even pair', () => {
  // v_add_f64 v[2:3], s[1:2], v[0:1] (not assemblable: hand-encoded, src0 = 1)
  const f = (x: number) => { const u = new Uint32Array(new Float64Array([x]).buffer); return [u[0]!, u[1]!]; };
  const [lo, hi] = f(1.5);
  const [slo, shi] = f(2);
  const bad = run('.long 0xd7270002, 0x00020001', { vgpr: { 0: lo!, 1: hi! }, sgpr: { 0: slo!, 1: shi!, 2: 0x12345678 } });
  assert.ok(bad.diags.some((d) => d.id === 'gfx11.sgpr.misaligned'));
  assert.equal(new Float64Array(new Uint32Array([bad.v(2), bad.v(3)]).buffer)[0], 3.5);
  const good = run('v_add_f64 v[2:3], s[0:1], v[0:1]', { vgpr: { 0: lo!, 1: hi! }, sgpr: { 0: slo!, 1: shi! } });
  assert.equal(good.diags.length, 0);
});
test('VALU scalar destinations naming a TTMP: ignored outside a trap handler and diagnosed; written with STATUS.PRIV', () => {
  for (const src of ['v_readlane_b32 ttmp2, v0, 1', 'v_readfirstlane_b32 ttmp2, v0', 'v_cmp_eq_u32_e64 ttmp2, v0, v0', 'v_add_co_u32 v3, ttmp2, v0, v1']) {
    const r = run(src, { vgpr: { 0: A, 1: B }, sgpr: { 110: 0x5555 } });
    assert.equal(r.s(110), 0x5555, src);
    assert.ok(r.diags.some((d) => d.id === 'gfx11.ttmp.write-user'), src);
    const p = run(src, { vgpr: { 0: A, 1: B }, sgpr: { 110: 0x5555 }, status: 0x20 }); // STATUS.PRIV (bit 5)
    assert.notEqual(p.s(110), 0x5555, src);
    assert.equal(p.diags.filter((d) => d.id === 'gfx11.ttmp.write-user').length, 0, src);
  }
});
test('v_nop and v_pipeflush do nothing', () => {
  const r = run('v_nop\nv_pipeflush', { vgpr: { 0: A } });
  assert.equal(r.v(0, 6), A[6]);
  assert.equal(r.diags.length, 0);
});

// ---- DPP
test('DPP16 quad_perm, row_shl with bound_ctrl, row_mask; DPP8 lane select', () => {
  const lanes = Array.from({ length: 32 }, (_, i) => i * 10);
  const o = { vgpr: { 0: lanes, 1: 1, 2: 999 } };
  const q = runAsm('v_add_nc_u32_dpp v2, v0, v1 quad_perm:[3,2,1,0] row_mask:0xf bank_mask:0xf\ns_endpgm', o);
  for (let l = 0; l < 32; l++) assert.equal(q.v(2, l), ((l & ~3) | (3 - (l & 3))) * 10 + 1);
  const s = runAsm('v_mov_b32_dpp v2, v0 row_shl:1 row_mask:0xf bank_mask:0xf bound_ctrl:1\ns_endpgm', o);
  assert.equal(s.v(2, 0), 10);
  assert.equal(s.v(2, 15), 0); // out of the row: bound_ctrl gives 0
  const k = runAsm('v_mov_b32_dpp v2, v0 row_shl:1 row_mask:0xf bank_mask:0xf\ns_endpgm', o);
  assert.equal(k.v(2, 15), 999); // not written
  const m = runAsm('v_mov_b32_dpp v2, v0 row_mirror row_mask:0x1 bank_mask:0xf\ns_endpgm', o);
  assert.equal(m.v(2, 0), 150);
  assert.equal(m.v(2, 16), 999); // row 1 masked
  const e = runAsm('v_mov_b32_dpp v2, v0 dpp8:[7,6,5,4,3,2,1,0]\ns_endpgm', o);
  for (let l = 0; l < 32; l++) assert.equal(e.v(2, l), ((l & ~7) | (7 - (l & 7))) * 10);
  // an inactive source lane: DPP8 reads 0 without FI, the value with fi:1
  const z = runAsm('v_mov_b32_dpp v2, v0 dpp8:[7,6,5,4,3,2,1,0]\ns_endpgm', { ...o, exec: 0xfffffffe });
  assert.equal(z.v(2, 7), 0);
  const f = runAsm('v_mov_b32_dpp v2, v0 dpp8:[7,6,5,4,3,2,1,0] fi:1\ns_endpgm', { ...o, exec: 0xfffffffe });
  assert.equal(f.v(2, 7), 0);
  assert.equal(f.v(2, 6), 10);
  const g = runAsm('v_mov_b32_dpp v2, v0 dpp8:[7,6,5,4,3,2,1,0] fi:1\ns_endpgm', { ...o, exec: 0xffffff7f });
  assert.equal(g.v(2, 0), 70); // lane 7 inactive but fetched
});
test('VOPC with DPP: lanes with an invalid source compare false', () => {
  const lanes = Array.from({ length: 32 }, (_, i) => i);
  const r = runAsm('v_cmp_eq_u32 vcc_lo, v0, v1 row_shr:1 row_mask:0xf bank_mask:0xf\ns_endpgm', { vgpr: { 0: lanes, 1: lanes.map((i) => i - 1) } });
  assert.equal(r.s(106), 0xfffefffe);
});
