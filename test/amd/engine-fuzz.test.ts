// Seeded instruction-level differential fuzz of the execution engines: random sequences of the
// opcodes the fast path accelerates (fast-valu.ts, fast-salu.ts), in every plain encoding and a
// few non-plain ones it must leave to the interpreter, over random register contents (NaNs with
// payloads, signalling NaNs, infinities, denormals, -0), random EXEC and random MODE, run through
// engine 'interp' and engine 'fast'; the whole wave state and the diagnostics must be equal.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { encodableProgram, runAsm, CODE_VA, type AsmRunOptions } from './exec-harness.js';
import { snap, diffSnap } from './engine-state.js';
import { mulberry32 } from '../../src/runtime/manifest.js';
import { assemble, decodeAt } from '../../src/amd/isa/target.js';
import { gfx11 } from '../../src/amd/isa/gfx11/index.js';
import { bindInstruction } from '../../src/amd/engine/bind.js';
import { Diagnostics } from '../../src/core/diagnostics.js';
import { Memory } from '../../src/core/memory.js';
import { WAVE_STATE_SEED, type ExecEnv } from '../../src/amd/engine/env.js';
import { handlerOf } from '../../src/amd/engine/fast-registry.js';

type Rng = () => number;
const pick = <T>(r: Rng, a: readonly T[]): T => a[Math.floor(r() * a.length)]!;
const int = (r: Rng, n: number) => Math.floor(r() * n);

/** Bit patterns that stress float and integer edge cases. */
const SPECIAL = [
  0, 0x80000000, 0x3f800000, 0xbf800000, 0x00000001, 0x807fffff, 0x00800000, 0x7f800000, 0xff800000, 0x7fc00000, 0xffc00000,
  0x7fc12345, 0xffd00001, 0x7f800001, 0xffbfffff, 0x7f7fffff, 0xff7fffff, 0xffffffff, 0x7fffffff, 1, 2, 31, 32, 63, 0x4b800000,
  0x33800000, 0x3f800001, 0x4effffff, 0xcf000000,
];
function value(r: Rng): number {
  const k = r();
  if (k < 0.3) return pick(r, SPECIAL) >>> 0;
  if (k < 0.55) return int(r, 0x1_0000_0000) >>> 0;
  if (k < 0.7) return int(r, 64);
  // finite floats of nearby exponents (fma cancellation, inexact sums, midpoints)
  const f = new Float32Array([(r() - 0.5) * 2 ** (int(r, 12) - 6)]);
  if (k < 0.8) f[0] = Math.fround(f[0]! * 2 ** -130); // denormals
  return new Uint32Array(f.buffer)[0]!;
}

const V = (r: Rng) => `v${int(r, 12)}`;
const VP = (r: Rng) => { const b = int(r, 11); return `v[${b}:${b + 1}]`; };
const S = (r: Rng) => `s${int(r, 12)}`;
const SP = (r: Rng) => { const b = 2 * int(r, 6); return `s[${b}:${b + 1}]`; };
const INLINE = ['0', '1', '7', '64', '-1', '-16', '0.5', '-1.0', '4.0', '0.15915494'];
function src(r: Rng, lit = true): string {
  const k = r();
  if (k < 0.55) return V(r);
  if (k < 0.75) return S(r);
  if (k < 0.8) return pick(r, ['vcc_lo', 'm0', 'exec_lo', 'null']);
  if (k < 0.9 || !lit) return pick(r, INLINE);
  return '0x' + value(r).toString(16);
}
const src64 = (r: Rng) => (r() < 0.6 ? VP(r) : r() < 0.8 ? SP(r) : pick(r, ['0', '-1', '7', 'vcc', '0x12345678', 'exec']));
const sdst = (r: Rng) => pick(r, ['vcc_lo', 's20', 's22', 'null', 's12']);

const VOP2_I = ['v_and_b32', 'v_or_b32', 'v_xor_b32', 'v_xnor_b32', 'v_add_nc_u32', 'v_sub_nc_u32', 'v_subrev_nc_u32', 'v_lshlrev_b32', 'v_lshrrev_b32',
  'v_ashrrev_i32', 'v_mul_u32_u24', 'v_mul_i32_i24', 'v_min_u32', 'v_max_u32', 'v_min_i32', 'v_max_i32'];
const VOP2_F = ['v_add_f32', 'v_sub_f32', 'v_subrev_f32', 'v_mul_f32', 'v_fmac_f32', 'v_max_f32', 'v_min_f32'];
const VOP1 = ['v_mov_b32', 'v_not_b32', 'v_cvt_f32_u32', 'v_cvt_f32_i32', 'v_cvt_u32_f32', 'v_cvt_i32_f32'];
const VOP3_2 = ['v_mul_lo_u32', 'v_mul_hi_u32', 'v_bcnt_u32_b32'];
const VOP3_3 = ['v_add3_u32', 'v_or3_b32', 'v_xor3_b32', 'v_and_or_b32', 'v_lshl_add_u32', 'v_add_lshl_u32', 'v_lshl_or_b32', 'v_xad_u32', 'v_bfi_b32',
  'v_mad_u32_u24', 'v_mad_i32_i24', 'v_bfe_u32', 'v_bfe_i32', 'v_alignbit_b32', 'v_fma_f32'];
const CMP_T = ['u32', 'i32', 'f32', 'u64', 'i64'];
const IREL = ['f', 'lt', 'eq', 'le', 'gt', 'ne', 'ge', 't'];
const FREL = ['f', 'lt', 'eq', 'le', 'gt', 'lg', 'ge', 'o', 'u', 'nge', 'nlg', 'ngt', 'nle', 'neq', 'nlt', 't'];
const DUAL_X = ['v_dual_fmac_f32', 'v_dual_fmaak_f32', 'v_dual_fmamk_f32', 'v_dual_mul_f32', 'v_dual_add_f32', 'v_dual_sub_f32', 'v_dual_subrev_f32', 'v_dual_mov_b32', 'v_dual_cndmask_b32',
  'v_dual_max_f32', 'v_dual_min_f32'];
const DUAL_Y = [...DUAL_X, 'v_dual_add_nc_u32', 'v_dual_lshlrev_b32', 'v_dual_and_b32'];
const SALU2 = ['s_add_u32', 's_sub_u32', 's_add_i32', 's_sub_i32', 's_addc_u32', 's_subb_u32', 's_and_b32', 's_or_b32', 's_xor_b32', 's_and_not1_b32', 's_or_not1_b32',
  's_nand_b32', 's_nor_b32', 's_xnor_b32', 's_lshl_b32', 's_lshr_b32', 's_ashr_i32', 's_mul_i32', 's_mul_hi_u32', 's_min_u32', 's_max_u32', 's_min_i32',
  's_max_i32', 's_cselect_b32', 's_bfe_u32', 's_lshl1_add_u32', 's_lshl2_add_u32'];
const SALU2_64 = ['s_and_b64', 's_or_b64', 's_xor_b64', 's_and_not1_b64', 's_or_not1_b64', 's_cselect_b64', 's_lshr_b64', 's_nand_b64', 's_nor_b64', 's_xnor_b64'];
const SCMP = ['s_cmp_eq_u32', 's_cmp_lg_u32', 's_cmp_gt_u32', 's_cmp_ge_u32', 's_cmp_lt_u32', 's_cmp_le_u32', 's_cmp_eq_i32', 's_cmp_lg_i32', 's_cmp_gt_i32',
  's_cmp_ge_i32', 's_cmp_lt_i32', 's_cmp_le_i32', 's_bitcmp0_b32', 's_bitcmp1_b32'];

function dual(r: Rng): string {
  const half = (op: string, d: number, s0: string, v1: number) => {
    if (op === 'v_dual_mov_b32') return `${op} v${d}, ${s0}`;
    if (op === 'v_dual_fmaak_f32') return `${op} v${d}, ${s0}, v${v1}, 0x40400000`;
    if (op === 'v_dual_fmamk_f32') return `${op} v${d}, ${s0}, 0x40400000, v${v1}`;
    return `${op} v${d}, ${s0}, v${v1}`;
  };
  // Legal pairs: srcX0/srcY0 and vsrcX1/vsrcY1 in different banks (VGPR % 4), one even and one odd vdst.
  const dx = int(r, 12);
  const dy = (int(r, 6) * 2 + ((dx & 1) ^ 1)) % 12;
  const x0 = int(r, 12);
  const y0 = (x0 + 1 + int(r, 3)) % 12;
  const x1 = int(r, 12);
  const y1 = (x1 + 1 + int(r, 3)) % 12;
  const s0 = (v: number) => (r() < 0.8 ? `v${v}` : pick(r, ['s3', '1.0', '-16', 'vcc_lo']));
  return `${half(pick(r, DUAL_X), dx, s0(x0), x1)} :: ${half(pick(r, DUAL_Y), dy, s0(y0), y1)}`;
}

function inst(r: Rng): string {
  const k = int(r, 24);
  switch (k) {
    case 0: {
      const e32 = r() < 0.7;
      return `${pick(r, VOP1)}_${e32 ? 'e32' : 'e64'} ${V(r)}, ${src(r, e32)}`;
    }
    case 1: case 2: return `${pick(r, VOP2_I)}_e32 ${V(r)}, ${src(r)}, ${V(r)}`;
    case 3: case 4: return `${pick(r, VOP2_F)}_e32 ${V(r)}, ${src(r)}, ${V(r)}`;
    case 5: return `${pick(r, [...VOP2_I, ...VOP2_F, ...VOP3_2])}_e64 ${V(r)}, ${src(r, false)}, ${src(r, false)}`;
    case 6: return `${pick(r, VOP3_3)} ${V(r)}, ${src(r, false)}, ${src(r, false)}, ${src(r, false)}`;
    case 7: return `${pick(r, ['v_add_co_u32', 'v_sub_co_u32', 'v_subrev_co_u32'])} ${V(r)}, ${sdst(r)}, ${src(r, false)}, ${src(r, false)}`;
    case 8: return `${pick(r, ['v_add_co_ci_u32', 'v_sub_co_ci_u32', 'v_subrev_co_ci_u32'])}_e32 ${V(r)}, vcc_lo, ${src(r)}, ${V(r)}, vcc_lo`;
    case 9: return `${pick(r, ['v_add_co_ci_u32', 'v_sub_co_ci_u32', 'v_subrev_co_ci_u32'])}_e64 ${V(r)}, ${sdst(r)}, ${src(r, false)}, ${src(r, false)}, ${pick(r, ['vcc_lo', 's20', 's22'])}`;
    case 10: return r() < 0.5 ? `v_cndmask_b32_e32 ${V(r)}, ${src(r)}, ${V(r)}, vcc_lo` : `v_cndmask_b32_e64 ${V(r)}, ${src(r, false)}, ${src(r, false)}, ${pick(r, ['vcc_lo', 's20', 's22', 'exec_lo'])}`;
    case 11: return `${pick(r, ['v_lshlrev_b64', 'v_lshrrev_b64', 'v_ashrrev_i64'])} ${VP(r)}, ${src(r, false)}, ${src64(r)}`;
    case 12: return `v_mad_u64_u32 ${VP(r)}, ${pick(r, ['null', 's20', 'vcc_lo'])}, ${src(r, false)}, ${src(r, false)}, ${src64(r)}`;
    case 13: case 14: {
      const t = pick(r, CMP_T);
      const rel = pick(r, t === 'f32' ? FREL : IREL);
      const x = r() < 0.25 ? 'v_cmpx_' : 'v_cmp_';
      const wide = t.endsWith('64');
      const a = wide ? src64(r) : src(r);
      if (r() < 0.5) return `${x}${rel}_${t}_e32 ${x === 'v_cmp_' ? 'vcc_lo, ' : ''}${a}, ${wide ? VP(r) : V(r)}`;
      return `${x}${rel}_${t}_e64 ${x === 'v_cmp_' ? sdst(r) + ', ' : ''}${wide ? src64(r) : src(r, false)}, ${wide ? src64(r) : src(r, false)}`;
    }
    case 15: return r() < 0.5 ? `v_fmaak_f32 ${V(r)}, ${src(r, false)}, ${V(r)}, 0x${value(r).toString(16)}` : `v_fmamk_f32 ${V(r)}, ${src(r, false)}, 0x${value(r).toString(16)}, ${V(r)}`;
    case 16: case 17: return dual(r);
    // forms the fast path leaves to the interpreter
    case 18: return pick(r, [`v_add_f32_e64 ${V(r)}, -${V(r)}, |${V(r)}|`, `v_add_nc_u32_e64 ${V(r)}, ${V(r)}, ${V(r)} clamp`, `v_mul_f32_e64 ${V(r)}, ${V(r)}, ${V(r)} mul:2`,
      `v_mov_b32_dpp ${V(r)}, ${V(r)} quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf`, `s_denorm_mode ${int(r, 16)}`, `s_round_mode ${int(r, 16)}`]);
    case 19: case 20: return `${pick(r, SALU2)} ${S(r)}, ${src(r).replace(/^v\d+$/, 's5')}, ${src(r, false).replace(/^v\d+$/, 's7')}`;
    case 21: return `${pick(r, SALU2_64)} ${SP(r)}, ${pick(r, ['s[2:3]', 's[4:5]', 'exec', 'vcc', '-1', '0'])}, ${pick(r, ['s[6:7]', 's[8:9]', 'vcc', '7'])}`;
    case 22: return `${pick(r, SCMP)} ${S(r)}, ${pick(r, ['s3', '0', '-1', '0x80000000', 's9'])}`;
    default: return pick(r, [`s_mov_b32 ${S(r)}, ${src(r).replace(/^v\d+$/, 's1')}`, `s_mov_b64 ${SP(r)}, ${pick(r, ['s[2:3]', 'exec', '-1', '0x1234'])}`,
      `${pick(r, ['s_lshl_b64', 's_ashr_i64'])} ${SP(r)}, ${SP(r)}, ${int(r, 70)}`, `s_and_saveexec_b32 ${S(r)}, ${S(r)}`, `s_or_saveexec_b32 ${S(r)}, ${S(r)}`, `s_not_b32 ${S(r)}, ${S(r)}`,
      `s_movk_i32 ${S(r)}, 0x${int(r, 0x10000).toString(16)}`, `s_addk_i32 ${S(r)}, 0x${int(r, 0x10000).toString(16)}`, `s_mulk_i32 ${S(r)}, 0x${int(r, 0x10000).toString(16)}`,
      `s_cmpk_eq_u32 ${S(r)}, 0x${int(r, 0x10000).toString(16)}`, `s_not_b64 ${SP(r)}, ${SP(r)}`,
      `${pick(r, ['s_and_saveexec_b64', 's_or_saveexec_b64', 's_and_not1_saveexec_b64', 's_xor_saveexec_b32', 's_and_not0_saveexec_b32', 's_nand_saveexec_b64', 's_xnor_saveexec_b32'])} ${SP(r)}, ${SP(r)}`.replace(/_b32 s\[(\d+):\d+\], s\[(\d+):\d+\]/, '_b32 s$1, s$2'),
      `${pick(r, ['s_cbranch_scc0', 's_cbranch_scc1', 's_cbranch_vccz', 's_cbranch_vccnz', 's_cbranch_execz', 's_cbranch_execnz', 's_branch'])} 1\nv_mov_b32_e32 ${V(r)}, 5`, `s_add_u32 s${int(r, 6) * 2}, s1, s2\ns_addc_u32 s${int(r, 6) * 2 + 1}, s3, 0`]);
  }
}

const program = (r: Rng, n: number): string[] => encodableProgram(() => inst(r), n);

function trial(seed: number, ws: 32 | 64): void {
  const r = mulberry32(seed);
  const lines = program(r, 6 + int(r, 14));
  const vgprs = r() < 0.85 ? 16 : 8 + int(r, 5);
  const vgpr: Record<number, number[]> = {};
  for (let i = 0; i < Math.min(vgprs, 13); i++) vgpr[i] = Array.from({ length: ws }, () => value(r));
  const sgpr: Record<number, number> = {};
  for (let i = 0; i < 24; i++) sgpr[i] = value(r);
  sgpr[106] = int(r, 0x1_0000_0000);
  sgpr[107] = int(r, 0x1_0000_0000);
  sgpr[125] = value(r);
  const ek = r();
  const exec = ek < 0.5 ? 0xffffffff : ek < 0.55 ? 0 : int(r, 0x1_0000_0000);
  const execHi = ek < 0.5 ? 0xffffffff : int(r, 0x1_0000_0000);
  const mk = r();
  const mode = mk < 0.6 ? 0xf0 : mk < 0.8 ? 0x3f0 : int(r, 0x400);
  // The generated text is wave32's (lane masks as one SGPR); the same words run in both wave sizes.
  const o: AsmRunOptions = { waveSize: ws, asmWave: 32, vgprs, vgpr, sgpr, exec, execHi, mode, scc: int(r, 2) };
  const source = lines.join('\n') + '\ns_endpgm';
  const a = runAsm(source, { ...o, engine: 'interp' });
  const b = runAsm(source, { ...o, engine: 'fast' });
  const d = diffSnap(snap(a.wave), snap(b.wave));
  const where = `seed ${seed} wave${ws} mode 0x${mode.toString(16)} exec 0x${exec.toString(16)}:\n${source}`;
  assert.equal(d, null, `${d}\n${where}`);
  const diags = (x: typeof a) => x.diags.map((g) => `${g.id} ${g.where?.pc} ${g.message}`);
  assert.deepEqual(diags(b), diags(a), `diagnostics differ\n${where}`);
}

test('engine fuzz: random VALU/SALU sequences give the same wave state and diagnostics on both engines (wave32)', () => {
  for (let seed = 1; seed <= 250; seed++) trial(seed, 32);
});

test('engine fuzz: the same for wave64', () => {
  for (let seed = 1001; seed <= 1200; seed++) trial(seed, 64);
});

test('engine fuzz: most generated instructions take the fast path (the fuzz exercises it)', () => {
  const r = mulberry32(99);
  const env: ExecEnv = { space: gfx11.space, diag: new Diagnostics(), seed: WAVE_STATE_SEED, waveSize: 32, vgprs: 16, now: () => 0, engine: 'fast' };
  let fast = 0;
  let total = 0;
  for (const line of program(r, 400)) {
    const words = Uint32Array.from(assemble(gfx11, line));
    const b = bindInstruction(decodeAt(gfx11, words, 0, CODE_VA), env);
    total++;
    if (/^fast/.test(handlerOf(b.run).name)) fast++;
  }
  assert.ok(fast > total * 0.6, `${fast} of ${total} bound to fast handlers`);
});

test('engine fuzz: an fma whose double-rounded sum lands on an f32 midpoint is rounded once, as the reference does', () => {
  // (-2^-24 (1 - 2^-15)) * (1 + 2^-15) + (1 + 2^-23) = 1 + 2^-24 + 2^-54 exactly: rounding to a double
  // first gives the midpoint 1 + 2^-24 (which ties to 1.0); the correctly rounded f32 is 1 + 2^-23.
  const a = -(2 ** -24) * (1 - 2 ** -15);
  const b = 1 + 2 ** -15;
  const c = 1 + 2 ** -23;
  assert.equal(Math.fround(a), a);
  assert.equal(Math.fround(b), b);
  assert.equal(Math.fround(a * b + c), 1, 'the double-rounding trap is real');
  for (const engine of ['interp', 'fast'] as const) {
    const r = runAsm('v_fma_f32 v3, v0, v1, v2\nv_fmac_f32_e32 v2, v0, v1\ns_endpgm', { vgprF32: { 0: a, 1: b, 2: c }, engine });
    assert.equal(r.vf(3, 5), 1 + 2 ** -23, `${engine}: v_fma_f32`);
    assert.equal(r.vf(2, 31), 1 + 2 ** -23, `${engine}: v_fmac_f32`);
  }
});

test('f32 min/max and conversions on the fast path: every pair of edge values, both engines equal', () => {
  // ±0 in both orders, denormals, infinities, NaNs (quiet, signalling, payloads), integer limits.
  const E = [0, 0x80000000, 0x00000001, 0x80000001, 0x007fffff, 0x3f800000, 0xbf800000, 0x7f800000, 0xff800000, 0x7fc00000, 0x7f800001,
    0xffc12345, 0x4f800000, 0x4f7fffff, 0xcf000000, 0xcf000001, 0x4effffff, 0x3f000000, 0xbf7fffff, 0xffffffff, 0x7fffffff, 0x80000001];
  const nan = (x: number) => (x & 0x7fffffff) > 0x7f800000;
  const F = E.filter((x) => !nan(x));
  // NaN-free pairs first (chunks that stay on the fast handlers), then every pair.
  const pairs = [...F.flatMap((a) => F.map((b) => [a, b] as const)), ...E.flatMap((a) => E.map((b) => [a, b] as const))];
  const src = [
    'v_max_f32_e32 v2, v0, v1', 'v_min_f32_e32 v3, v0, v1', 'v_max_f32_e64 v4, v1, v0', 'v_min_f32_e64 v5, v1, v0',
    'v_max_f32_e32 v1, 0, v1', 'v_cvt_f32_u32_e32 v6, v0', 'v_cvt_f32_i32_e32 v7, v0', 'v_cvt_u32_f32_e32 v8, v0', 'v_cvt_i32_f32_e32 v9, v0',
    'v_cvt_i32_f32_e64 v10, v2', 'v_cvt_f32_u32_e64 v11, v3', 's_endpgm',
  ].join('\n');
  let fastRuns = 0;
  for (let k = 0; k < pairs.length; k += 32) {
    const chunk = pairs.slice(k, k + 32);
    while (chunk.length < 32) chunk.push([0x3f800000, 0x80000000]);
    // NaN-free chunks stay on the fast handlers; a chunk with a NaN hands min/max back to the reference.
    if (!chunk.some(([a, b]) => nan(a) || nan(b))) fastRuns++;
    for (const mode of [0xf0, 0x3f0, 0x00, 0x1f1]) {
      const o: AsmRunOptions = { vgprs: 16, mode, vgpr: { 0: chunk.map(([a]) => a), 1: chunk.map(([, b]) => b) } };
      const a = runAsm(src, { ...o, engine: 'interp' });
      const b = runAsm(src, { ...o, engine: 'fast' });
      const d = diffSnap(snap(a.wave), snap(b.wave));
      assert.equal(d, null, `pairs from ${k}, mode 0x${mode.toString(16)}: ${d}`);
    }
  }
  assert.ok(fastRuns > 0, 'some chunks run NaN-free');
  // The handlers are the fast ones (fast-valu.ts), not the reference.
  const env: ExecEnv = { space: gfx11.space, diag: new Diagnostics(), seed: WAVE_STATE_SEED, waveSize: 32, vgprs: 16, now: () => 0, engine: 'fast' };
  for (const line of ['v_max_f32_e32 v2, v0, v1', 'v_min_f32_e64 v5, v1, v0', 'v_cvt_f32_u32_e32 v6, v0', 'v_cvt_i32_f32_e32 v9, v0']) {
    const words = Uint32Array.from(assemble(gfx11, line));
    assert.match(handlerOf(bindInstruction(decodeAt(gfx11, words, 0, CODE_VA), env).run).name, /^fast/, line);
  }
});
