// SALU ops inside the wasm tier's runs (src/amd/engine/wasm/salu.ts; issue 24): seeded random
// programs of scalar ops (every description of exec/salu-ops.ts the fast tier binds: 32- and
// 64-bit, SOP1/SOP2/SOPC, SCC readers such as s_addc_u32 and s_cselect_b32, the s_*_saveexec ops
// rewriting EXEC mid-run, EXEC, VCC and M0 as operands, inline constants and literals) mixed with
// f32 and carry VALU ops must leave the interpreter's registers and SCC bit for bit, in both wave
// sizes, under random EXEC; and kernels whose loop runs hold SALU ops, under random quanta.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { encodableProgram, runAsm, type AsmRunOptions } from './exec-harness.js';
import { kernelsMatchInterp } from './engine-wasm-kernels.js';
import { snap, diffSnap } from './engine-state.js';
import { mulberry32 } from '../../src/runtime/manifest.js';
import { SALU_OPS, SAVEEXEC_OPS } from '../../src/amd/exec/salu-ops.js';
import { setWasmTier, wasmTier } from '../../src/amd/engine/wasm/tier.js';

type Rng = () => number;
const pick = <T>(r: Rng, a: readonly T[]): T => a[Math.floor(r() * a.length)]!;
const int = (r: Rng, n: number) => Math.floor(r() * n);

const NAMES = [...SALU_OPS.keys()];
const CONSTS = ['0', '1', '-1', '7', '64', '-16', '0x12345678', '0xfffffff0', '0x80000000'];
const s32 = (r: Rng, src: boolean): string => {
  const k = r();
  if (src && k < 0.25) return pick(r, CONSTS);
  if (src && k < 0.3) return pick(r, ['vcc_lo', 'exec_lo', 'm0']);
  if (!src && k < 0.05) return pick(r, ['vcc_lo', 'm0', 'null']);
  return `s${int(r, 12)}`;
};
const s64 = (r: Rng, src: boolean): string => {
  if (src && r() < 0.25) return pick(r, CONSTS.slice(0, 6));
  if (src && r() < 0.05) return 'vcc';
  const d = 2 * int(r, 6);
  return `s[${d}:${d + 1}]`;
};

const SAVEEXEC = [...SAVEEXEC_OPS.keys()];

function salu(r: Rng): string {
  // s_<op>_saveexec (EXEC rewritten for the VALU ops after it; the old EXEC saved, or dropped to null).
  if (r() < 0.15) {
    const n = pick(r, SAVEEXEC);
    return r() < 0.6 ? `s_${n}_saveexec_b32 ${s32(r, false)}, ${s32(r, true)}` : `s_${n}_saveexec_b64 ${r() < 0.1 ? 'null' : s64(r, false)}, ${s64(r, true)}`;
  }
  const name = pick(r, NAMES);
  const d = SALU_OPS.get(name)!;
  const a = d.a64 ? s64(r, true) : s32(r, true);
  if (d.form === 'sopc') return `${name} ${a}, ${d.b64 ? s64(r, true) : s32(r, true)}`;
  const dst = d.d64 ? s64(r, false) : s32(r, false);
  if (d.form === 'sop1') return `${name} ${dst}, ${a}`;
  return `${name} ${dst}, ${a}, ${d.b64 ? s64(r, true) : s32(r, true)}`;
}

function valu(r: Rng): string {
  const v = () => `v${int(r, 8)}`;
  const k = r();
  if (k < 0.5) return `${pick(r, ['v_add_f32', 'v_mul_f32', 'v_sub_f32'])}_e32 ${v()}, ${pick(r, [v(), 's3', '0.5'])}, ${v()}`;
  if (k < 0.7) return `v_add_co_u32 ${v()}, vcc_lo, ${v()}, ${pick(r, [v(), 's5'])}`;
  if (k < 0.85) return `v_add_co_ci_u32_e32 ${v()}, vcc_lo, ${v()}, ${v()}, vcc_lo`;
  return `v_add_nc_u32_e32 ${v()}, ${pick(r, [v(), 's1'])}, ${v()}`;
}

function trial(seed: number, ws: 32 | 64): void {
  const r = mulberry32(seed);
  const lines = encodableProgram(() => (r() < 0.55 ? salu(r) : valu(r)), 4 + int(r, 16));
  const vgpr: Record<number, number[]> = {};
  for (let i = 0; i < 8; i++) vgpr[i] = Array.from({ length: ws }, () => (r() < 0.5 ? int(r, 0x1_0000_0000) : new Uint32Array(new Float32Array([r() * 8 - 4]).buffer)[0]!));
  const sgpr: Record<number, number> = {};
  for (let i = 0; i < 12; i++) sgpr[i] = pick(r, [0, 1, 0xffffffff, 0x80000000, int(r, 0x1_0000_0000), int(r, 64)]);
  const ek = r();
  const exec = ek < 0.5 ? 0xffffffff : int(r, 0x1_0000_0000);
  const execHi = ek < 0.5 ? 0xffffffff : int(r, 0x1_0000_0000);
  const o: AsmRunOptions = { waveSize: ws, asmWave: 32, vgprs: 16, vgpr, sgpr, exec, execHi, scc: int(r, 2) };
  const source = lines.join('\n') + '\ns_endpgm';
  const a = runAsm(source, { ...o, engine: 'interp' });
  const was = wasmTier.on;
  setWasmTier(true);
  let b: ReturnType<typeof runAsm>;
  try {
    b = runAsm(source, { ...o, engine: 'fast' });
  } finally {
    setWasmTier(was);
  }
  const d = diffSnap(snap(a.wave), snap(b.wave));
  assert.equal(d, null, `${d}\nseed ${seed} wave${ws} exec 0x${exec.toString(16)}:\n${source}`);
}

test('wasm tier: random SALU ops riding in translated runs equal the interpreter bit for bit (registers, SCC)', () => {
  const taken = wasmTier.salu;
  for (let seed = 1; seed <= 200; seed++) trial(seed, 32);
  for (let seed = 501; seed <= 600; seed++) trial(seed, 64);
  assert.ok(wasmTier.salu > taken + 200, `SALU ops in translated runs: ${wasmTier.salu - taken}`);
});

test('wasm tier: kernels whose runs hold SALU ops, turns cut and resumed by seeded random quanta, equal the interpreter', () => {
  const resumed = wasmTier.resumed;
  const taken = wasmTier.salu;
  kernelsMatchInterp(['matmul', 'reduce_tree', 'reduce_tree.w64'], 5);
  assert.ok(wasmTier.salu > taken, `SALU ops in translated runs: ${wasmTier.salu - taken}`);
  assert.ok(wasmTier.resumed > resumed, `runs resumed: ${wasmTier.resumed - resumed}`);
});
