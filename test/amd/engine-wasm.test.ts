// The wasm tier (src/amd/engine/wasm/, issue 24): straight VALU runs translated to WebAssembly must
// give the reference interpreter's results bit for bit. Seeded random runs of the ops it takes
// (integer and f32 ops over random register contents: NaNs, infinities, denormals, -0, values
// whose fma lands on f32 midpoints), random EXEC and MODE, in both wave sizes; then every bench
// kernel (seeded random inputs) through the scheduler with the tier on, against the interpreter.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { encodableProgram, runAsm, type AsmRunOptions } from './exec-harness.js';
import { snap, diffSnap, type WaveSnap } from './engine-state.js';
import { mulberry32 } from '../../src/runtime/manifest.js';
import { assemble } from '../../src/amd/isa/target.js';
import { gfx11 } from '../../src/amd/isa/gfx11/index.js';
import { benchCases } from '../../bench/cases.js';
import { runKernel, type KernelRun } from '../../src/runtime/run.js';
import type { Engine } from '../../src/amd/engine/env.js';
import { hotRun, makeBytesKey, setWasmTier, wasmTier } from '../../src/amd/engine/wasm/tier.js';
import { groupStats, intVecStats, simdStats } from '../../src/amd/engine/wasm/valu.js';
import { INT_OPS } from '../../src/amd/exec/valu-int.js';
import { tiering } from '../../src/amd/engine/tier.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

type Rng = () => number;
const pick = <T>(r: Rng, a: readonly T[]): T => a[Math.floor(r() * a.length)]!;
const int = (r: Rng, n: number) => Math.floor(r() * n);

const SPECIAL = [0, 0x80000000, 0x3f800000, 0xbf800000, 0x00000001, 0x807fffff, 0x00800000, 0x7f800000, 0xff800000, 0x7fc00000, 0x7fc12345,
  0x7f800001, 0x7f7fffff, 0xff7fffff, 0xffffffff, 0x7fffffff, 1, 31, 32, 0x4b800000, 0x33800000, 0x3f800001, 0x4effffff, 0xcf000000];
function value(r: Rng): number {
  const k = r();
  if (k < 0.15) return pick(r, SPECIAL) >>> 0;
  if (k < 0.35) return int(r, 0x1_0000_0000) >>> 0;
  if (k < 0.45) return int(r, 64);
  const f = new Float32Array([(r() - 0.5) * 2 ** (int(r, 12) - 6)]);
  if (k < 0.5) f[0] = Math.fround(f[0]! * 2 ** -130);
  return new Uint32Array(f.buffer)[0]!;
}

const V = (r: Rng) => `v${int(r, 12)}`;
const S = (r: Rng) => `s${int(r, 12)}`;
const INLINE = ['0', '1', '7', '64', '-1', '-16', '0.5', '-1.0', '4.0'];
function src(r: Rng, lit = true): string {
  const k = r();
  if (k < 0.6) return V(r);
  if (k < 0.78) return S(r);
  if (k < 0.82) return pick(r, ['vcc_lo', 'm0', 'exec_lo']);
  if (k < 0.92 || !lit) return pick(r, INLINE);
  return '0x' + value(r).toString(16);
}
const sdst = (r: Rng) => pick(r, ['vcc_lo', 's20', 's22', 'null', 's12']);
const VOP2_I = ['v_and_b32', 'v_or_b32', 'v_xor_b32', 'v_xnor_b32', 'v_add_nc_u32', 'v_sub_nc_u32', 'v_subrev_nc_u32', 'v_lshlrev_b32', 'v_lshrrev_b32',
  'v_ashrrev_i32', 'v_mul_u32_u24', 'v_mul_i32_i24', 'v_min_u32', 'v_max_u32', 'v_min_i32', 'v_max_i32'];
const VOP2_F = ['v_add_f32', 'v_sub_f32', 'v_subrev_f32', 'v_mul_f32', 'v_fmac_f32', 'v_max_f32', 'v_min_f32'];
const VOP1 = ['v_mov_b32', 'v_not_b32', 'v_cvt_f32_u32', 'v_cvt_f32_i32', 'v_cvt_u32_f32', 'v_cvt_i32_f32'];
const VOP3_3 = ['v_add3_u32', 'v_or3_b32', 'v_xor3_b32', 'v_and_or_b32', 'v_lshl_add_u32', 'v_add_lshl_u32', 'v_lshl_or_b32', 'v_xad_u32', 'v_bfi_b32',
  'v_mad_u32_u24', 'v_mad_i32_i24', 'v_bfe_u32', 'v_bfe_i32', 'v_alignbit_b32', 'v_fma_f32'];

const VP = (r: Rng) => { const a = int(r, 11); return `v[${a}:${a + 1}]`; };
const SP = (r: Rng) => pick(r, ['s[20:21]', 's[2:3]', 'vcc', 'exec', '0', '-1', '7']);
const CMP = ['lt', 'eq', 'le', 'gt', 'ne', 'ge'];
const DUAL_X = ['v_dual_mov_b32', 'v_dual_add_nc_u32', 'v_dual_and_b32', 'v_dual_lshlrev_b32', 'v_dual_cndmask_b32', 'v_dual_add_f32', 'v_dual_mul_f32', 'v_dual_max_f32', 'v_dual_fmac_f32', 'v_dual_sub_f32'];
/** A VOPD half's operands (the assembler rejects bank conflicts; encodableProgram draws again). */
function dualHalf(r: Rng, op: string, d: number): string {
  const one = op === 'v_dual_mov_b32';
  const vcc = op === 'v_dual_cndmask_b32' ? ', vcc_lo' : '';
  return `${op} v${d}, ${src(r, false)}${one ? '' : `, ${V(r)}`}${vcc}`;
}

function inst(r: Rng): string {
  switch (int(r, 17)) {
    case 12: return r() < 0.75 ? `${pick(r, ['v_lshlrev_b64', 'v_lshrrev_b64', 'v_ashrrev_i64'])} ${VP(r)}, ${src(r, false)}, ${r() < 0.8 ? VP(r) : SP(r)}`
      : `v_mad_u64_u32 ${VP(r)}, ${pick(r, ['null', 's20', 'vcc_lo'])}, ${src(r, false)}, ${src(r, false)}, ${r() < 0.7 ? VP(r) : SP(r)}`;
    case 13: return `v_cmp_${pick(r, CMP)}_${pick(r, ['u32', 'i32', 'f32'])}_e32 vcc_lo, ${src(r)}, ${V(r)}`;
    case 14: return r() < 0.6 ? `v_cmp_${pick(r, CMP)}_${pick(r, ['u32', 'i32', 'f32'])}_e64 ${sdst(r)}, ${src(r, false)}, ${src(r, false)}`
      : `v_cmp_${pick(r, CMP)}_${pick(r, ['u64', 'i64'])}_e64 ${sdst(r)}, ${VP(r)}, ${r() < 0.7 ? VP(r) : SP(r)}`;
    // EXEC rewritten mid-run (rarely to zero: most lanes pass most compares with some value).
    case 15: return `v_cmpx_${pick(r, ['lt', 'le', 'gt', 'ge', 'ne'])}_${pick(r, ['u32', 'i32', 'f32'])}_e32 ${src(r)}, ${V(r)}`;
    case 16: {
      const d = int(r, 6) * 2;
      return `${dualHalf(r, pick(r, DUAL_X), d)} :: ${dualHalf(r, pick(r, DUAL_X), d + 1)}`;
    }
    case 0: return `${pick(r, VOP1)}_e32 ${V(r)}, ${src(r)}`;
    case 1: case 2: return `${pick(r, VOP2_I)}_e32 ${V(r)}, ${src(r)}, ${V(r)}`;
    case 3: case 4: case 5: return `${pick(r, VOP2_F)}_e32 ${V(r)}, ${src(r)}, ${V(r)}`;
    case 6: return `${pick(r, [...VOP2_I, ...VOP2_F, 'v_mul_lo_u32', 'v_mul_hi_u32', 'v_bcnt_u32_b32'])}_e64 ${V(r)}, ${src(r, false)}, ${src(r, false)}`;
    case 7: return `${pick(r, VOP3_3)} ${V(r)}, ${src(r, false)}, ${src(r, false)}, ${src(r, false)}`;
    case 8: return `${pick(r, ['v_add_co_u32', 'v_sub_co_u32', 'v_subrev_co_u32'])} ${V(r)}, ${sdst(r)}, ${src(r, false)}, ${src(r, false)}`;
    case 9: return `${pick(r, ['v_add_co_ci_u32', 'v_sub_co_ci_u32', 'v_subrev_co_ci_u32'])}_e32 ${V(r)}, vcc_lo, ${src(r)}, ${V(r)}, vcc_lo`;
    case 10: return r() < 0.5 ? `v_cndmask_b32_e32 ${V(r)}, ${src(r)}, ${V(r)}, vcc_lo` : `v_cndmask_b32_e64 ${V(r)}, ${src(r, false)}, ${src(r, false)}, ${pick(r, ['vcc_lo', 's20', 's22', 'exec_lo'])}`;
    default: return r() < 0.5 ? `v_fmaak_f32 ${V(r)}, ${src(r, false)}, ${V(r)}, 0x${value(r).toString(16)}` : `v_fmamk_f32 ${V(r)}, ${src(r, false)}, 0x${value(r).toString(16)}, ${V(r)}`;
  }
}

const program = (r: Rng, n: number): string[] => encodableProgram(() => inst(r), n);

/** With the wasm tier on; `hot`: runs translated as hot runs at once (hotRun: integer ops four lanes at a time), else lane by lane. */
function withWasm<T>(f: () => T, hot = true): T {
  const was = wasmTier.on;
  const calls = hotRun.calls;
  setWasmTier(true);
  hotRun.calls = hot ? 0 : 1e9;
  try {
    return f();
  } finally {
    setWasmTier(was);
    hotRun.calls = calls;
  }
}

/** Random VGPRs v0..v(nv-1) and SGPRs s0..s23 (values edge-heavy), VCC any mask. */
function randomRegs(r: Rng, ws: number, nv: number): { vgpr: Record<number, number[]>; sgpr: Record<number, number> } {
  const vgpr: Record<number, number[]> = {};
  for (let i = 0; i < nv; i++) vgpr[i] = Array.from({ length: ws }, () => value(r));
  const sgpr: Record<number, number> = {};
  for (let i = 0; i < 24; i++) sgpr[i] = value(r);
  sgpr[106] = int(r, 0x1_0000_0000);
  sgpr[107] = int(r, 0x1_0000_0000);
  return { vgpr, sgpr };
}

function trial(seed: number, ws: 32 | 64): void {
  const r = mulberry32(seed);
  const lines = program(r, 4 + int(r, 20));
  const { vgpr, sgpr } = randomRegs(r, ws, 13);
  const ek = r();
  const exec = ek < 0.5 ? 0xffffffff : ek < 0.55 ? 0 : int(r, 0x1_0000_0000);
  const execHi = ek < 0.5 ? 0xffffffff : int(r, 0x1_0000_0000);
  const mode = r() < 0.85 ? 0xf0 : pick(r, [0x3f0, 0xf1, 0xc0, 0x00]);
  const o: AsmRunOptions = { waveSize: ws, asmWave: 32, vgprs: 16, vgpr, sgpr, exec, execHi, mode, scc: int(r, 2) };
  const source = lines.join('\n') + '\ns_endpgm';
  const a = runAsm(source, { ...o, engine: 'interp' });
  // Odd seeds: integer ops four lanes at a time (simd-int.ts); even: lane by lane (a run's first translation).
  const b = withWasm(() => runAsm(source, { ...o, engine: 'fast' }), seed % 2 === 1);
  const d = diffSnap(snap(a.wave), snap(b.wave));
  assert.equal(d, null, `${d}\nseed ${seed} wave${ws} mode 0x${mode.toString(16)} exec 0x${exec.toString(16)}:\n${source}`);
  assert.deepEqual(b.diags.map((g) => g.id), a.diags.map((g) => g.id), `diagnostics, seed ${seed}`);
}

test('wasm tier: random VALU runs equal the interpreter bit for bit (wave32)', () => {
  const runs = wasmTier.runs;
  const calls = wasmTier.calls;
  const simd = simdStats.ops;
  const grouped = groupStats.ops;
  const iv = intVecStats.ops;
  for (let seed = 1; seed <= 200; seed++) trial(seed, 32);
  assert.ok(wasmTier.runs > runs + 100, `translated runs: ${wasmTier.runs - runs}`);
  // Integer ops sharing one lane loop (carries and masks from earlier ops of the group too).
  assert.ok(groupStats.ops > grouped + 300, `ops in fused groups: ${groupStats.ops - grouped}`);
  // ... four lanes at a time (simd-int.ts).
  assert.ok(intVecStats.ops > iv + 150, `integer ops with a SIMD row: ${intVecStats.ops - iv}`);
  // f32 ops with a two-lanes-at-a-time row for EXEC all ones (simd.ts), half the trials' EXEC.
  assert.ok(simdStats.ops > simd + 50, `f32 ops with a SIMD row: ${simdStats.ops - simd}`);
  assert.ok(wasmTier.calls > calls + 100, `calls of translated code: ${wasmTier.calls - calls}`);
});

test('wasm tier: random VALU runs equal the interpreter bit for bit (wave64)', () => {
  const simd = simdStats.ops;
  for (let seed = 501; seed <= 650; seed++) trial(seed, 64);
  assert.ok(simdStats.ops > simd + 30, `f32 ops with a SIMD row: ${simdStats.ops - simd}`);
});

test('wasm tier: every integer op and integer compare four lanes at a time equals the interpreter (both wave sizes, any EXEC)', () => {
  // Each description (exec/valu-int.ts, the integer v_cmp/v_cmpx) over seeded random sources of
  // every kind (VGPR rows, SGPRs and inline constants: uniform values the row splats, per-lane
  // shift counts and carry-ins), EXEC all ones or random: two copies, a fused group taking the
  // SIMD row (an inactive lane's registers and mask bits as they were).
  const r = mulberry32(2411);
  const b32 = (k: number) => pick(r, [`v${k}`, `v${k + 4}`, `s${k}`, pick(r, ['0', '1', '-1', '7', '31', '32', '-16', '64'])]);
  const b64 = (k: number) => pick(r, [`v[${2 * k}:${2 * k + 1}]`, `v[${2 * k + 4}:${2 * k + 5}]`, `s[${2 * k}:${2 * k + 1}]`, pick(r, ['0', '1', '-1', '7'])]);
  const lines: string[] = [];
  for (const [name, d] of INT_OPS) {
    for (let t = 0; t < 3; t++) {
      // (Drawn again until it encodes: at most two scalar values on the constant bus.)
      lines.push(...encodableProgram(() => {
        const srcs = d.srcs.map((x, k) => (x === 'b64' ? b64(k) : b32(k)));
        return `${name} ${[d.kind === 'i64' ? 'v[8:9]' : 'v8', ...(d.cout ? [pick(r, ['s20', 'vcc_lo', 'null'])] : []), ...srcs, ...(d.cin ? [pick(r, ['s22', 'vcc_lo'])] : [])].join(', ')}`;
      }, 1));
    }
  }
  for (const t of ['u32', 'i32', 'u64', 'i64']) {
    for (const rel of ['f', 'lt', 'eq', 'le', 'gt', 'ne', 'ge', 't']) {
      const wide = t.endsWith('64');
      lines.push(...encodableProgram(() => `v_cmp_${rel}_${t}_e64 ${pick(r, ['s20', 'vcc_lo'])}, ${wide ? b64(0) : b32(0)}, ${wide ? b64(1) : b32(1)}`, 1));
    }
    lines.push(`v_cmpx_${pick(r, ['lt', 'gt', 'ne', 'ge'])}_${t}_e64 ${t.endsWith('64') ? 'v[2:3], v[4:5]' : 'v1, v2'}`);
  }
  let programs = 0;
  for (const ws of [32, 64] as const) {
    for (const line of lines) {
      const { vgpr, sgpr } = randomRegs(r, ws, 12);
      const full = r() < 0.5;
      const o: AsmRunOptions = { waveSize: ws, asmWave: 32, vgprs: 16, vgpr, sgpr, exec: full ? 0xffffffff : int(r, 0x1_0000_0000), execHi: full ? 0xffffffff : pick(r, [0, int(r, 0x1_0000_0000)]) };
      // The second copy writes elsewhere (and reads the first's result when it reads v8). A program
      // of its own (the s_mov): a block's translated code is kept per code, and would not count again.
      const source = `s_mov_b32 s30, ${++programs}\n${line}\n${line.replace(/^(\S+) v8\b/, '$1 v10').replace(/^(\S+) v\[8:9\]/, '$1 v[10:11]')}\ns_endpgm`;
      const iv = intVecStats.ops;
      const a = runAsm(source, { ...o, engine: 'interp' });
      const b = withWasm(() => runAsm(source, { ...o, engine: 'fast' }));
      const d = diffSnap(snap(a.wave), snap(b.wave));
      assert.equal(d, null, `${d}\nwave${ws}:\n${source}`);
      // v_cmpx writes EXEC: the group ends there (the second copy runs alone, maybe with no lanes).
      if (!line.startsWith('v_cmpx')) assert.equal(intVecStats.ops, iv + 2, `both copies with a SIMD row (wave${ws}): ${line}`);
      else assert.ok(intVecStats.ops > iv, `a SIMD row (wave${ws}): ${line}`);
    }
  }
});

test('wasm tier: a loop body of integer ops is translated again four lanes at a time once hot', () => {
  // Lane by lane for its first hotRun.calls calls (a run called a few times costs less to translate
  // and compile that way), then with SIMD rows: the same results as the interpreter's, any EXEC.
  // (A loop body per EXEC: translated code is kept per block code, hot after the first. Its trips
  // run inside the translated code, up to 255 a call: 300 make a second call, when it is hot.)
  const program = (k: number) => ['s_mov_b32 s40, 300',
    'v_add_co_u32 v1, vcc_lo, v1, v2', 'v_add_co_ci_u32_e32 v3, vcc_lo, v3, v4, vcc_lo', 'v_xor_b32_e32 v5, v1, v3', 'v_lshlrev_b64 v[6:7], 3, v[1:2]',
    `s_add_u32 s42, s42, ${k}`, 's_sub_u32 s40, s40, 1', 's_cmp_lg_u32 s40, 0', 's_cbranch_scc1 -10', 's_endpgm'].join('\n');
  const r = mulberry32(77);
  for (const [k, exec] of [0xffffffff, 0x0f0f00ff].entries()) {
    const source = program(k + 1);
    const vgpr: Record<number, number[]> = {};
    for (let i = 0; i < 8; i++) vgpr[i] = Array.from({ length: 32 }, () => value(r));
    const o: AsmRunOptions = { vgprs: 16, vgpr, exec };
    const a = runAsm(source, { ...o, engine: 'interp' });
    const hot = wasmTier.hot, iv = intVecStats.ops;
    const calls = hotRun.calls;
    const saved = tiering.visitsPerByteOp;
    tiering.visitsPerByteOp = 0;
    let b: ReturnType<typeof runAsm>;
    try {
      b = withWasm(() => {
        hotRun.calls = 10;
        return runAsm(source, { ...o, engine: 'fast' });
      });
    } finally {
      hotRun.calls = calls;
      tiering.visitsPerByteOp = saved;
    }
    assert.equal(diffSnap(snap(a.wave), snap(b.wave)), null, `exec 0x${exec.toString(16)}`);
    assert.equal(wasmTier.hot, hot + 1, 'the loop body translated again');
    assert.equal(intVecStats.ops, iv + 4, 'its four integer ops with SIMD rows');
  }
});

test('wasm tier: the same loop body at two addresses is one compiled module (its bytes are the key)', () => {
  const body = ['s_mov_b32 s40, 5', 'v_add_co_u32 v1, vcc_lo, v1, v2', 'v_add_co_ci_u32_e32 v3, vcc_lo, v3, v4, vcc_lo', 'v_xor_b32_e32 v5, v3, v1', 'v_lshlrev_b64 v[6:7], 3, v[1:2]',
    's_add_u32 s43, s43, 61', 's_sub_u32 s40, s40, 1', 's_cmp_lg_u32 s40, 0', 's_cbranch_scc1 -10'];
  const source = [...body, ...body, 's_endpgm'].join('\n');
  const r = mulberry32(78);
  const vgpr: Record<number, number[]> = {};
  for (let i = 0; i < 8; i++) vgpr[i] = Array.from({ length: 32 }, () => value(r));
  const o: AsmRunOptions = { vgprs: 16, vgpr };
  const a = runAsm(source, { ...o, engine: 'interp' });
  const runs = wasmTier.runs, modules = wasmTier.modules;
  const saved = tiering.visitsPerByteOp;
  tiering.visitsPerByteOp = 0;
  let b: ReturnType<typeof runAsm>;
  try {
    b = withWasm(() => runAsm(source, { ...o, engine: 'fast' }));
  } finally {
    tiering.visitsPerByteOp = saved;
  }
  assert.equal(diffSnap(snap(a.wave), snap(b.wave)), null);
  // Each loop makes two runs: the block entering it (s_mov_b32 and the first trip) and the body.
  assert.equal(wasmTier.runs - runs, 4);
  assert.equal(wasmTier.modules - modules, 2, 'the second loop\'s two runs are the first\'s modules');
});

test('wasm tier: module keys are one character per byte, distinct for distinct bytes (Node Buffer and TextDecoder)', () => {
  const all = Uint8Array.from({ length: 256 }, (_, i) => i);
  for (const key of [makeBytesKey(Buffer), makeBytesKey(undefined)]) {
    const k = key(all);
    assert.equal(k.length, 256);
    assert.equal(new Set(k).size, 256);
    assert.equal(key(all.subarray(7, 9)), k.slice(7, 9), 'a view keys its own bytes');
    assert.notEqual(key(Uint8Array.of(1, 2, 3)), key(Uint8Array.of(1, 2, 4)));
  }
});

test('wasm tier: an fma landing on an f32 midpoint (handed back) and random fmac lanes (taken) round once', () => {
  // (-2^-24 (1 - 2^-15)) * (1 + 2^-15) + (1 + 2^-23): rounded to a double first it is the midpoint
  // 1 + 2^-24; the correctly rounded f32 is 1 + 2^-23 (the JavaScript handler's roundF32 path).
  const a = -(2 ** -24) * (1 - 2 ** -15);
  const b = 1 + 2 ** -15;
  const c = 1 + 2 ** -23;
  // (EXEC all ones: the SIMD row finds the possible tie in every lane pair and hands the op back.)
  const simd = simdStats.ops;
  const r = withWasm(() => runAsm('v_fma_f32 v3, v0, v1, v2\nv_fmac_f32_e32 v2, v0, v1\ns_endpgm', { vgprF32: { 0: a, 1: b, 2: c }, engine: 'fast' }));
  assert.equal(simdStats.ops, simd + 2, 'both ops translated with a SIMD row');
  assert.equal(r.vf(3, 5), 1 + 2 ** -23);
  assert.equal(r.vf(2, 31), 1 + 2 ** -23);
  // The same with only odd or only even lanes active (the row computes every lane; each pair's
  // active lane alone decides the hand-back).
  for (const exec of [0xaaaaaaaa, 0x55555555]) {
    const q = withWasm(() => runAsm('v_fma_f32 v3, v0, v1, v2\ns_endpgm', { vgprF32: { 0: a, 1: b, 2: c, 3: 7 }, exec, engine: 'fast' }));
    for (let l = 0; l < 32; l++) assert.equal(q.vf(3, l), ((exec >>> l) & 1) !== 0 ? 1 + 2 ** -23 : 7, `exec 0x${exec.toString(16)} lane ${l}`);
  }
  // Random products and sums (remainders nonzero almost everywhere): against the interpreter.
  const rng = mulberry32(7);
  const rnd = () => Array.from({ length: 32 }, () => Math.fround((rng() - 0.5) * 4));
  const o: AsmRunOptions = { vgprF32: { 0: rnd(), 1: rnd(), 2: rnd() } };
  const src = 'v_fmac_f32_e32 v2, v0, v1\nv_fmac_f32_e32 v2, v1, v2\nv_mul_f32_e32 v3, v2, v0\nv_add_f32_e32 v4, v3, v1\ns_endpgm';
  const x = runAsm(src, { ...o, engine: 'interp' });
  const y = withWasm(() => runAsm(src, { ...o, engine: 'fast' }));
  assert.equal(diffSnap(snap(x.wave), snap(y.wave)), null);
});

function runCase(launch: Parameters<typeof runKernel>[0], engine: Engine): { r: KernelRun; waves: Map<number, WaveSnap> } {
  const waves = new Map<number, WaveSnap>();
  assert.ok(launch.codeObject instanceof Uint8Array);
  const r = runKernel({ ...launch, codeObject: new Uint8Array(launch.codeObject) }, { engine, order: 'roundrobin', seed: 3, onWaveEnd: (w) => void waves.set(w.id, snap(w)) });
  return { r, waves };
}

for (const c of benchCases({ root: ROOT, small: true })) {
  test(`wasm tier: bench kernel ${c.name} equals the interpreter (outputs, report, every wave)`, () => {
    const a = runCase(c.launch, 'interp');
    assert.equal(c.check(a.r.buffers), null, 'the reference run matches the CPU reference');
    const calls = wasmTier.calls;
    // Blocks compiled at their first visit: a short test dispatch would otherwise step its
    // straight blocks (tier.ts) and never reach the translated runs.
    const saved = tiering.visitsPerByteOp;
    tiering.visitsPerByteOp = 0;
    let b: ReturnType<typeof runCase>;
    try {
      b = withWasm(() => runCase(c.launch, 'fast'));
    } finally {
      tiering.visitsPerByteOp = saved;
    }
    // Runs are translated when they hold an f32 op taken two lanes at a time or a GLOBAL or DS
    // access (histogram: its LDS stores and loads); the empty kernel has none.
    if (c.name === 'empty') assert.equal(wasmTier.calls, calls, 'no translated code');
    else assert.ok(wasmTier.calls > calls, 'translated code ran');
    for (const k of Object.keys(a.r.buffers)) assert.ok(Buffer.from(a.r.buffers[k]!).equals(Buffer.from(b.r.buffers[k]!)), `buffer ${k} differs`);
    const { timeMs: _ta, ...ra } = a.r.report;
    const { timeMs: _tb, ...rb } = b.r.report;
    assert.deepEqual(rb, ra, 'run reports');
    assert.equal(b.waves.size, a.waves.size);
    for (const [id, wa] of a.waves) {
      const d = diffSnap(wa, b.waves.get(id)!);
      assert.equal(d, null, `wave ${id}: ${d}`);
    }
  });
}

