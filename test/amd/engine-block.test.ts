// Basic blocks (src/amd/engine/block.ts) against the reference interpreter: seeded random programs
// with counted loops, forward branches, VALU/SALU runs the blocks inline, global/LDS/scalar memory
// ops they call, s_waitcnt (with and without the wait-counter sanitizer) and instruction budgets
// that stop inside a block. Each runs on engine 'interp' (op by op), engine 'fast' with blocks, and
// engine 'fast' op by op; the final wave state, the memory, the instruction count and the
// diagnostics must be equal. The dispatch-level checks (quantum, random order, budget, class
// counts) run real kernels through runKernel.
import { test } from 'node:test';
import { setWasmTier, wasmTier } from '../../src/amd/engine/wasm/tier.js';
import assert from 'node:assert/strict';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runAsm, CODE_VA, type AsmRunOptions } from './exec-harness.js';
import { snap, diffSnap } from './engine-state.js';
import { mulberry32 } from '../../src/runtime/manifest.js';
import { assemble } from '../../src/amd/isa/target.js';
import { gfx11 } from '../../src/amd/isa/gfx11/index.js';
import { Diagnostics } from '../../src/core/diagnostics.js';
import { Memory } from '../../src/core/memory.js';
import { WAVE_STATE_SEED, type ExecEnv } from '../../src/amd/engine/env.js';
import { Program } from '../../src/amd/engine/program.js';
import { blockAt, blockFunction, blockShellAt, MAX_OPS, MIN_SRC_PER_OP } from '../../src/amd/engine/block.js';
import { hotBlockAt, PROBE, tierDispatch, tiering } from '../../src/amd/engine/tier.js';
import { engineTime } from '../../src/amd/engine/program.js';
import { quietPrefix } from '../../src/amd/engine/waitcnt.js';
import { Wave } from '../../src/amd/wave/wave.js';
import { APERTURE } from '../../src/amd/exec/vmem.js';
import { benchCases } from '../../bench/cases.js';
import { runKernel } from '../../src/runtime/run.js';
import type { Engine } from '../../src/amd/engine/env.js';

type Rng = () => number;
const pick = <T>(r: Rng, a: readonly T[]): T => a[Math.floor(r() * a.length)]!;
const int = (r: Rng, n: number) => Math.floor(r() * n);

const SPECIAL = [0, 0x80000000, 0x3f800000, 0xbf800000, 1, 0x7f800000, 0x7fc12345, 0xffffffff, 0x7fffffff, 31, 0x00000001, 0x4b800000];
function value(r: Rng): number {
  const k = r();
  if (k < 0.3) return pick(r, SPECIAL) >>> 0;
  if (k < 0.6) return int(r, 0x1_0000_0000) >>> 0;
  if (k < 0.75) return int(r, 64);
  return new Uint32Array(new Float32Array([(r() - 0.5) * 2 ** (int(r, 12) - 6)]).buffer)[0]!;
}

// Data registers v0..v11 and s0..s11; v12 holds each lane's global byte offset, v13 its LDS address,
// s[40:41] the global buffer, s30 the loop counter (never written by the random ops).
const V = (r: Rng) => `v${int(r, 12)}`;
const S = (r: Rng) => `s${int(r, 12)}`;
const SRC = (r: Rng) => (r() < 0.6 ? V(r) : r() < 0.75 ? S(r) : pick(r, ['0', '1', '-1', '0.5', '4.0', '64', '0x12345']));
const VOP2 = ['v_add_nc_u32', 'v_sub_nc_u32', 'v_and_b32', 'v_or_b32', 'v_xor_b32', 'v_lshlrev_b32', 'v_min_u32', 'v_max_i32', 'v_mul_u32_u24',
  'v_add_f32', 'v_sub_f32', 'v_mul_f32', 'v_fmac_f32'];
const SOP2 = ['s_add_u32', 's_addc_u32', 's_add_i32', 's_sub_u32', 's_and_b32', 's_or_b32', 's_xor_b32', 's_lshl_b32', 's_mul_i32', 's_min_u32', 's_cselect_b32'];

function alu(r: Rng): string {
  switch (int(r, 10)) {
    case 0: case 1: case 2: return `${pick(r, VOP2)}_e32 ${V(r)}, ${SRC(r)}, ${V(r)}`;
    case 3: return `v_add_co_u32 ${V(r)}, vcc_lo, ${V(r)}, ${SRC(r).replace(/^0x.*/, '4')}\nv_add_co_ci_u32_e32 ${V(r)}, vcc_lo, ${S(r)}, ${V(r)}, vcc_lo`;
    case 4: return `${pick(r, ['v_cmp_gt_u32', 'v_cmp_lt_f32', 'v_cmp_eq_u32'])}_e32 vcc_lo, ${SRC(r)}, ${V(r)}\nv_cndmask_b32_e32 ${V(r)}, ${SRC(r)}, ${V(r)}, vcc_lo`;
    case 5: {
      // VOPD: srcX0 and srcY0 in different VGPR banks, one even and one odd destination.
      const x = int(r, 12);
      return `v_dual_mov_b32 v${2 * int(r, 6)}, v${x} :: v_dual_add_nc_u32 v${2 * int(r, 6) + 1}, v${(x + 1 + int(r, 3)) % 12}, ${V(r)}`;
    }
    case 6: return `v_fma_f32 ${V(r)}, ${V(r)}, ${SRC(r).replace(/^0x.*/, 's3')}, ${V(r)}`;
    case 7: case 8: return `${pick(r, SOP2)} ${S(r)}, ${S(r)}, ${pick(r, ['s5', '7', '-3', '0x10000', 's9'])}`;
    default: return `${pick(r, ['s_cmp_eq_u32', 's_cmp_lt_u32', 's_cmp_gt_i32'])} ${S(r)}, ${pick(r, ['s3', '0', '16'])}`;
  }
}

function mem(r: Rng): string {
  const off = 4 * int(r, 32);
  switch (int(r, 9)) {
    case 0: case 1: return `global_load_b32 ${V(r)}, v12, s[40:41] offset:${off}`;
    case 2: return `global_store_b32 v12, ${V(r)}, s[40:41] offset:${off}`;
    case 3: return `global_atomic_add_u32 v12, ${V(r)}, s[40:41] offset:${off}`;
    case 4: return `ds_load_b32 ${V(r)}, v13 offset:${off}`;
    case 5: return `ds_store_b32 v13, ${V(r)} offset:${off}`;
    case 6: return `ds_add_u32 v13, ${V(r)} offset:${off}`;
    case 7: return `s_load_b32 ${S(r)}, s[40:41], 0x${off.toString(16)}`;
    default: return pick(r, ['s_waitcnt vmcnt(0)', 's_waitcnt lgkmcnt(0)', 's_waitcnt vmcnt(0) lgkmcnt(0)', 's_nop 0', 's_delay_alu instid0(VALU_DEP_1)']);
  }
}

const words = (line: string) => assemble(gfx11, line).length;

/** One random statement; a forward branch skips exactly the statement it guards. */
function stmt(r: Rng): string {
  const k = r();
  const line = k < 0.6 ? alu(r) : mem(r);
  try {
    const n = words(line);
    if (r() < 0.12) return `${pick(r, ['s_cbranch_scc0', 's_cbranch_scc1', 's_cbranch_vccz', 's_cbranch_execnz', 's_branch'])} ${n}\n${line}`;
    return line;
  } catch {
    return 's_nop 0';
  }
}

/** Straight-line runs and counted loops (s30 counts down; the backward branch offset in dwords). */
function program(r: Rng): string {
  const out: string[] = [];
  const body = (n: number) => Array.from({ length: n }, () => stmt(r));
  for (let part = 0; part < 1 + int(r, 3); part++) {
    out.push(...body(int(r, 6)));
    if (r() < 0.7) {
      const loop = [...body(1 + int(r, 12)), 's_add_i32 s30, s30, -1', 's_cmp_lg_u32 s30, 0'];
      const dw = loop.reduce((a, l) => a + words(l), 0);
      out.push(`s_mov_b32 s30, ${1 + int(r, 5)}`, ...loop, `s_cbranch_scc1 ${-(dw + 1)}`);
    }
  }
  out.push('s_waitcnt vmcnt(0) lgkmcnt(0)', 's_endpgm');
  return out.join('\n');
}

const GLOBAL_VA = 0x6000_0000_0000;

// Runs of integer VALU ops a block fuses into one lane loop (fast-valu.ts fuseLanes): 64-bit add
// and subtract pairs through VCC or an SGPR mask, compares into masks later ops select with or
// read back as scalar sources (which ends a run), masks written twice, a compare into EXEC, and
// 64-bit shifts and multiply-adds; data registers v0..v11 and s0..s11 only.
const MASK = (r: Rng) => pick(r, ['vcc_lo', 's4', 's6', 's8']);
const PAIR = (r: Rng) => { const d = 2 * int(r, 5); return `v[${d}:${d + 1}]`; };
function intOp(r: Rng): string {
  switch (int(r, 12)) {
    case 0: case 1: {
      const m = MASK(r);
      return `${pick(r, ['v_add_co_u32', 'v_sub_co_u32', 'v_subrev_co_u32'])} ${V(r)}, ${m}, ${V(r)}, ${SRC(r).replace(/^0x.*/, 's3')}
`
        + `${pick(r, ['v_add_co_ci_u32', 'v_sub_co_ci_u32', 'v_subrev_co_ci_u32'])}_e64 ${V(r)}, ${r() < 0.5 ? m : MASK(r)}, ${S(r)}, ${V(r)}, ${m}`;
    }
    case 2: return `v_add_co_u32 ${V(r)}, vcc_lo, ${V(r)}, ${V(r)}
v_add_co_ci_u32_e32 ${V(r)}, vcc_lo, ${S(r)}, ${V(r)}, vcc_lo`;
    case 3: return `${pick(r, ['v_cmp_gt_u32', 'v_cmp_eq_u32', 'v_cmp_lt_i32', 'v_cmp_ne_u32'])}_e64 ${MASK(r)}, ${SRC(r)}, ${V(r)}`;
    case 4: return `v_cndmask_b32_e64 ${V(r)}, ${SRC(r).replace(/^[-0-9.].*/, 'v1')}, ${V(r)}, ${MASK(r)}`;
    case 5: return `${pick(r, ['v_add_nc_u32', 'v_xor_b32', 'v_max_u32'])}_e64 ${V(r)}, ${pick(r, ['s4', 's6', 's8', 'vcc_lo'])}, ${V(r)}`;
    case 6: return `v_lshlrev_b64 ${PAIR(r)}, ${int(r, 40)}, ${PAIR(r)}`;
    case 7: return `v_mad_u64_u32 ${PAIR(r)}, ${MASK(r)}, ${V(r)}, ${S(r)}, ${PAIR(r)}`;
    case 8: return r() < 0.3 ? `v_cmp_ne_u32_e64 exec_lo, 0, ${V(r)}` : `v_mov_b32_e32 ${V(r)}, ${SRC(r)}`;
    case 9: return `${pick(r, ['v_and_b32', 'v_or_b32', 'v_lshlrev_b32', 'v_mul_u32_u24', 'v_min_u32'])}_e32 ${V(r)}, ${SRC(r)}, ${V(r)}`;
    case 10: return `v_add3_u32 ${V(r)}, ${V(r)}, ${S(r)}, ${V(r)}`;
    default: return `v_cmp_gt_u32_e32 vcc_lo, ${SRC(r)}, ${V(r)}
v_cndmask_b32_e32 ${V(r)}, ${SRC(r)}, ${V(r)}, vcc_lo`;
  }
}

function intProgram(r: Rng): string {
  const out: string[] = [];
  for (let part = 0; part < 1 + int(r, 3); part++) {
    out.push(...Array.from({ length: 2 + int(r, 8) }, () => intOp(r)));
    if (r() < 0.5) out.push(pick(r, ['s_add_u32 s0, s0, 1', 'global_store_b32 v12, v1, s[40:41]', 's_delay_alu instid0(VALU_DEP_1)']));
  }
  out.push('s_waitcnt vmcnt(0) lgkmcnt(0)', 's_endpgm');
  return out.join('\n');
}

function trial(seed: number, ws: 32 | 64, gen: (r: Rng) => string = program): void {
  const r = mulberry32(seed);
  const source = gen(r);
  const vgpr: Record<number, number[]> = {};
  for (let i = 0; i < 12; i++) vgpr[i] = Array.from({ length: ws }, () => value(r));
  vgpr[12] = Array.from({ length: ws }, (_, l) => l * 4);
  vgpr[13] = Array.from({ length: ws }, (_, l) => l * 4);
  const sgpr: Record<number, number> = { 40: GLOBAL_VA % 0x1_0000_0000, 41: Math.floor(GLOBAL_VA / 0x1_0000_0000) };
  for (let i = 0; i < 12; i++) sgpr[i] = value(r);
  const ek = r();
  const exec = ek < 0.6 ? 0xffffffff : int(r, 0x1_0000_0000);
  const init = Uint32Array.from({ length: 1024 }, () => value(r));
  const waitcnt = r() < 0.5;
  const budget = r() < 0.3 ? 1 + int(r, 120) : undefined;
  // The generated text is wave32's (lane masks as one SGPR); the same words run in both wave sizes.
  const base: AsmRunOptions = { waveSize: ws, asmWave: 32, vgprs: 16, vgpr, sgpr, exec, execHi: exec, mode: r() < 0.8 ? 0xf0 : 0x3f0, waitcnt, ...(budget ? { maxInstructions: budget } : {}) };
  const go = (engine: Engine, blocks: boolean) => {
    const m = new Memory();
    m.map(GLOBAL_VA, 8192, 'global');
    m.writeBytes(GLOBAL_VA, new Uint8Array(init.buffer.slice(0)));
    const run = runAsm(source, { ...base, engine, blocks, mem: m });
    return { run, bytes: m.readBytes(GLOBAL_VA, 8192) };
  };
  const a = go('interp', false);
  const where = `seed ${seed} wave${ws} waitcnt ${waitcnt} budget ${budget}:\n${source}`;
  for (const blocks of [true, false]) {
    const b = go('fast', blocks);
    const d = diffSnap(snap(a.run.wave), snap(b.run.wave));
    assert.equal(d, null, `blocks ${blocks}: ${d}\n${where}`);
    assert.equal(b.run.instructions, a.run.instructions, `instruction count\n${where}`);
    assert.ok(Buffer.from(a.bytes).equals(Buffer.from(b.bytes)), `global memory differs\n${where}`);
    assert.ok(Buffer.from(a.run.wave.lds).equals(Buffer.from(b.run.wave.lds)), `LDS differs\n${where}`);
    const diags = (x: typeof a.run) => x.diags.map((g) => `${g.id} ${g.where?.pc} ${g.message}`);
    assert.deepEqual(diags(b.run), diags(a.run), `diagnostics differ\n${where}`);
  }
}

test('blocks: random loops and branches over ALU and memory ops equal the interpreter (wave32)', () => {
  for (let seed = 1; seed <= 160; seed++) trial(seed, 32);
});

test('blocks: the same for wave64', () => {
  for (let seed = 5001; seed <= 5080; seed++) trial(seed, 64);
});

test('blocks: fused runs of integer VALU ops (carries, masks, EXEC, 64-bit) equal the interpreter, budgets cutting inside a run too', () => {
  // The JavaScript lane loops (wasm tier off) and the translated runs that take them when it is on.
  let fused = 0;
  for (const ws of [32, 64] as const) {
    for (let seed = 9001; seed <= 9090; seed++) {
      trial(seed, ws, intProgram);
      jsBlock(() => trial(seed, ws, intProgram));
      const src = intProgram(mulberry32(seed));
      const p = jsBlock(() => prog(src, env(ws)));
      for (let pc = CODE_VA; ;) {
        const b = jsBlock(() => blockAt(p, pc));
        if (b === null) break;
        fused += b.fused;
        pc += b.ops.reduce((a, o) => a + o.size, 0);
        if (b.ops[b.n - 1]!.inst.mnemonic === 's_endpgm') break;
      }
    }
  }
  assert.ok(fused > 200, `fused runs exercised: ${fused}`);
});

test('blocks: a fused run takes the carry of the op before it, stops before a scalar read of a mask it wrote, and ends at a write to EXEC', () => {
  // The JavaScript lane loops (the wasm tier, on by default, takes runs with f32 ops: below).
  const count = (src: string, ws: 32 | 64 = 32, wasm = false) => {
    const was = wasmTier.on;
    setWasmTier(wasm);
    try {
      return blockAt(prog(src + '\ns_endpgm', env(ws)), CODE_VA)!.fused;
    } finally {
      setWasmTier(was);
    }
  };
  // One run of four: two 64-bit adds through VCC.
  assert.equal(count('v_add_co_u32 v1, vcc_lo, s0, v2\nv_add_co_ci_u32_e32 v3, vcc_lo, s1, v4, vcc_lo\nv_add_co_u32 v5, vcc_lo, s2, v2\nv_add_co_ci_u32_e32 v6, vcc_lo, s3, v4, vcc_lo'), 1);
  // A scalar source reading s4 after a compare wrote it: two runs (the reader starts the second).
  assert.equal(count('v_cmp_gt_u32_e64 s4, v1, v2\nv_mov_b32_e32 v3, 1\nv_add_nc_u32_e64 v5, s4, v1\nv_mov_b32_e32 v6, 2'), 2);
  // A compare into EXEC ends its run: the op after it is not fused with it.
  assert.equal(count('v_mov_b32_e32 v3, 1\nv_cmp_ne_u32_e64 exec_lo, 0, v1\nv_mov_b32_e32 v6, 2'), 1);
  // Floats hand NaNs back to the reference: never fused in JavaScript; the wasm tier takes the
  // pair as one translated run (counted with the fused runs).
  assert.equal(count('v_add_f32_e32 v1, v2, v3\nv_mul_f32_e32 v4, v1, v3'), 0);
  assert.equal(count('v_add_f32_e32 v1, v2, v3\nv_mul_f32_e32 v4, v1, v3', 32, true), 1);
  // Wave64: the same pair runs fused.
  assert.equal(count('v_add_co_u32 v1, vcc_lo, s0, v2\nv_add_co_ci_u32_e32 v3, vcc_lo, s1, v4, vcc_lo', 64), 1);
});

test('blocks: ops without an effect in this model (s_nop, s_delay_alu, s_clause) are inlined as no code; results as stepped', () => {
  const src = ['s_clause 0x1', 'v_add_nc_u32_e32 v1, v2, v3', 's_delay_alu instid0(VALU_DEP_1)', 'v_add_nc_u32_e32 v4, v1, v3', 's_nop 3', 's_waitcnt vmcnt(0)', 's_endpgm'].join('\n');
  const b = blockAt(prog(src), CODE_VA)!;
  assert.equal(b.n, 7);
  assert.equal(b.inlined, 5, 'the hints and the two VALU ops are inlined; s_waitcnt is called, s_endpgm too');
  const o = { vgpr: { 2: Array.from({ length: 32 }, (_, l) => l * 3), 3: Array.from({ length: 32 }, (_, l) => 0xfffffff0 + l) } };
  const i = runAsm(src, { ...o, engine: 'interp' });
  const f = runAsm(src, { ...o, engine: 'fast' });
  assert.equal(diffSnap(snap(i.wave), snap(f.wave)), null);
  assert.equal(f.instructions, 7);
  assert.equal(i.instructions, 7);
});

function env(ws: 32 | 64 = 32): ExecEnv {
  return { space: gfx11.space, diag: new Diagnostics(), seed: WAVE_STATE_SEED, waveSize: ws, vgprs: 16, now: () => 0, engine: 'fast' };
}
const prog = (src: string, e = env()) => new Program(gfx11, CODE_VA, Uint32Array.from(assemble(gfx11, src)), e);
/** The JavaScript tier's block (wasm tier off: its runs would take the VALU, global and wait ops). */
function jsBlock<T>(f: () => T): T {
  const was = wasmTier.on;
  setWasmTier(false);
  try {
    return f();
  } finally {
    setWasmTier(was);
  }
}

test('blocks: a block runs to its first branch, inlines the fast ALU and memory handlers and calls the rest', () => {
  const p = prog(['v_add_nc_u32_e32 v1, v2, v3', 's_add_u32 s0, s1, 5', 'global_load_b32 v4, v12, s[40:41]', 's_waitcnt vmcnt(0)', 'v_fmac_f32_e32 v5, v4, v1',
    's_cbranch_scc1 2', 'v_mov_b32_e32 v6, 1', 's_endpgm'].join('\n'));
  const b = jsBlock(() => blockAt(p, CODE_VA)!);
  assert.ok(b);
  assert.equal(b.n, 6, 'ends with the branch, inclusive');
  assert.deepEqual(b.ops.map((o) => o.inst.mnemonic), ['v_add_nc_u32_e32', 's_add_u32', 'global_load_b32', 's_waitcnt', 'v_fmac_f32_e32', 's_cbranch_scc1']);
  assert.equal(b.inlined, 5, 'the two VALU ops, the SALU op, the global load (fast-mem.ts) and the branch are inlined; s_waitcnt is called');
  // Runs not yet counted by class, as differences over its ops (sq/scheduler.ts counts them).
  assert.equal(b.runs.length, 7);
  assert.equal(blockAt(p, CODE_VA), b, 'built once per start PC');
  const after = blockAt(p, CODE_VA + b.ops.reduce((a, o) => a + o.size, 0))!;
  assert.deepEqual(after.ops.map((o) => o.inst.mnemonic), ['v_mov_b32_e32', 's_endpgm']);
});

test('blocks: s_barrier, s_sleep and messages end a block; long runs are cut at MAX_OPS', () => {
  for (const end of ['s_barrier', 's_sleep 1', 's_sendmsg sendmsg(MSG_DEALLOC_VGPRS)', 's_setreg_imm32_b32 hwreg(HW_REG_MODE, 0, 4), 3']) {
    const p = prog(`v_mov_b32_e32 v1, 2\n${end}\nv_mov_b32_e32 v2, 3\ns_endpgm`);
    assert.equal(blockAt(p, CODE_VA)!.n, 2, end);
  }
  const p = prog(Array.from({ length: MAX_OPS + 10 }, (_, i) => `s_mov_b32 s${i % 10}, ${i}`).join('\n') + '\ns_endpgm');
  assert.equal(blockAt(p, CODE_VA)!.n, MAX_OPS);
});

test('blocks: an op with bind-time findings starts no block and ends the one before it; each dispatch (rearm) reports them again', () => {
  // v_mov_b32 v20 with 16 VGPRs allocated: gfx11.vgpr.dst-out-of-range, reported at its first execution.
  const e = env();
  const p = prog('v_mov_b32_e32 v1, 1\nv_mov_b32_e32 v20, 1\nv_mov_b32_e32 v2, 1\ns_endpgm', e);
  assert.equal(blockAt(p, CODE_VA)!.n, 1);
  assert.equal(blockAt(p, CODE_VA + 4), null);
  assert.equal(e.diag.list.length, 0, 'looking ahead reports nothing');
  const w = new Wave({ waveSize: 32, vgprs: 16, pc: CODE_VA + 4, sharedBase: APERTURE.SHARED, privateBase: APERTURE.PRIVATE, mode: 0xf0, status: 0 }, new Memory(), new Uint8Array(1024), { wg: [0, 0, 0], waveInGroup: 0, id: 0 });
  p.opAt(CODE_VA + 4, w);
  assert.equal(e.diag.list.length, 1, 'opAt reports it');
  p.opAt(CODE_VA + 4, w);
  assert.equal(e.diag.list.length, 1, 'once');
  assert.equal(blockAt(p, CODE_VA + 4), null, 'it still starts no block: a kept Program steps it in the next dispatch');
  assert.equal(blockAt(p, CODE_VA + 8)!.n, 2);
  p.rearm();
  p.opAt(CODE_VA + 4, w);
  assert.equal(e.diag.list.length, 2, 'a new dispatch reports it again');
  assert.equal(e.diag.list[1]!.id, 'gfx11.vgpr.dst-out-of-range');
});

test('blocks: a MEMVIOL trap in the middle of a block leaves the block at the trap, as op-by-op stepping does', () => {
  const src = 'v_mov_b32_e32 v1, 7\nglobal_atomic_add_u32 v12, v1, s[40:41] offset:2\nv_mov_b32_e32 v2, 9\ns_add_u32 s0, s0, 1\ns_endpgm';
  const o: AsmRunOptions = {
    sgpr: { 40: GLOBAL_VA % 0x1_0000_0000, 41: Math.floor(GLOBAL_VA / 0x1_0000_0000) }, vgpr: { 12: 0 },
    trapHandler: { source: 's_add_u32 s50, s50, 1\ns_endpgm' },
  };
  const runs = (['interp', 'fast'] as const).map((engine) => {
    const m = new Memory();
    m.map(GLOBAL_VA, 4096, 'global');
    return runAsm(src, { ...o, engine, mem: m });
  });
  const [a, b] = runs as [ReturnType<typeof runAsm>, ReturnType<typeof runAsm>];
  assert.equal(a.s(50), 1, 'the misaligned atomic trapped');
  assert.equal(a.v(2), 0, 'the op after the trap did not run');
  assert.equal(diffSnap(snap(a.wave), snap(b.wave)), null);
  assert.equal(b.instructions, a.instructions);
});

// Dispatch: whole blocks per scheduler step must leave turns, budgets and statistics unchanged.
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

test('blocks in dispatch: instruction budgets stop at the same instruction with the same state, classes and diagnostics', () => {
  const cases = benchCases({ root: ROOT, small: true, only: (n) => n === 'matmul' || n === 'reduce_tree' });
  assert.equal(cases.length, 2);
  for (const c of cases) {
    for (const [order, budget] of [['roundrobin', 997], ['random', 1531], ['random', 4099], ['roundrobin', 2111]] as const) {
      const go = (engine: Engine) => {
        const waves: ReturnType<typeof snap>[] = [];
        const r = runKernel(c.launch, { engine, order, seed: 3, maxInstructions: budget, onWaveEnd: (w) => void waves.push(snap(w)) });
        return { r, waves };
      };
      const a = go('interp');
      const b = go('fast');
      const { timeMs: _ta, ...ra } = a.r.report;
      const { timeMs: _tb, ...rb } = b.r.report;
      assert.equal(ra.aborted, true, `${c.name} ${order} ${budget}: the budget stops the run`);
      assert.deepEqual(rb, ra, `${c.name} ${order} ${budget}: run reports`);
      assert.equal(b.waves.length, a.waves.length);
      for (let i = 0; i < a.waves.length; i++) assert.equal(diffSnap(a.waves[i]!, b.waves[i]!), null, `${c.name} ${order} ${budget} wave ${i}`);
      for (const k of Object.keys(a.r.buffers)) assert.ok(Buffer.from(a.r.buffers[k]!).equals(Buffer.from(b.r.buffers[k]!)), `${c.name} ${order} ${budget}: buffer ${k}`);
    }
  }
});

test('blocks: the quiet prefix ends where the wait-counter track is empty again, and stops before a read that would report', () => {
  const ops = (src: string) => {
    const p = prog(src);
    const out: ReturnType<Program['peek']>[] = [];
    for (let pc = CODE_VA, i = 0; i < src.split('\n').length; i++) {
      const op = p.peek(pc);
      out.push(op);
      pc += op.size;
    }
    return { ops: out, pcs: out.map((_, i) => out.slice(0, i).reduce((a, o) => a + o.size, CODE_VA)) };
  };
  const q = (src: string) => {
    const o = ops(src);
    return quietPrefix(o.ops, o.pcs, gfx11.space);
  };
  // Load, wait, use: empty after the wait (3 ops), and after the VALU that follows.
  assert.equal(q(['global_load_b32 v4, v12, s[40:41]', 's_waitcnt vmcnt(0)', 'v_add_nc_u32_e32 v1, v4, v4', 'v_mov_b32_e32 v2, 0'].join('\n')), 4);
  // A second load still outstanding at the end: the prefix stops after the first wait.
  assert.equal(q(['global_load_b32 v4, v12, s[40:41]', 's_waitcnt vmcnt(0)', 'global_load_b32 v5, v12, s[40:41]', 'v_mov_b32_e32 v2, 0'].join('\n')), 2);
  // A read before the wait would report: nothing is quiet past it (the empty start counts: 0).
  assert.equal(q(['v_mov_b32_e32 v2, 0', 'global_load_b32 v4, v12, s[40:41]', 'v_add_nc_u32_e32 v1, v4, v4', 's_waitcnt vmcnt(0)'].join('\n')), 1);
  // The split wait form counts too.
  assert.equal(q(['global_load_b32 v4, v12, s[40:41]', 's_waitcnt_vmcnt null, 0x0', 'v_mov_b32_e32 v3, v4'].join('\n')), 3);
  // Stores leave no track (VS_CNT writes no register).
  assert.equal(q(['global_store_b32 v12, v4, s[40:41]', 'v_mov_b32_e32 v2, 0'].join('\n')), 2);
});

test('blocks: a second Program of the same code reuses the block plan with its own bound values; other handler sources compile their own', () => {
  const src = ['v_add_nc_u32_e32 v1, v2, v3', 'global_load_b32 v4, v12, s[40:41]', 's_waitcnt vmcnt(0)', 'v_fmac_f32_e32 v5, v4, v1', 's_endpgm'].join('\n');
  const a = jsBlock(() => blockAt(prog(src), CODE_VA)!);
  const b = jsBlock(() => blockAt(prog(src), CODE_VA)!);
  assert.equal(blockFunction(b), blockFunction(a), 'one generated function');
  assert.notEqual(b.args, a.args);
  assert.equal(b.args.length, a.args.length);
  assert.ok(b.args.some((x, i) => typeof x === 'function' && x !== a.args[i]), 'the second Program passes its own handlers');
  assert.equal(b.inlined, a.inlined);
  // Strict alignment binds no fast global load: a different source, a different function.
  const strict = prog(src, { ...env(), alignMode: 'dword' });
  const c = jsBlock(() => blockAt(strict, CODE_VA)!);
  assert.notEqual(blockFunction(c), blockFunction(a));
  assert.equal(c.inlined, a.inlined - 1, 'the load is called, not inlined');
});

test('blocks: the same code at two addresses runs one generated function, each with its own PCs', () => {
  // Each copy ends at its branch (never taken: SCC is 1), so the second starts a block of its own.
  const body = ['v_add_nc_u32_e32 v1, v2, v3', 's_add_u32 s0, s1, 5', 'global_load_b32 v4, v12, s[40:41]', 's_waitcnt vmcnt(0)', 'v_fmac_f32_e32 v5, v4, v1', 's_cmp_eq_u32 s0, s0', 's_cbranch_scc0 0'];
  const src = [...body, ...body, 's_endpgm'].join('\n');
  for (const wasm of [false, true]) {
    const was = wasmTier.on;
    setWasmTier(wasm);
    try {
      const p = prog(src);
      const a = blockAt(p, CODE_VA)!;
      const len = a.ops.reduce((s, o) => s + o.size, 0);
      const b = blockAt(p, CODE_VA + len)!;
      assert.equal(a.n, body.length);
      assert.equal(b.n, body.length);
      assert.equal(blockFunction(b), blockFunction(a), `wasm ${wasm}: one function for both copies`);
      assert.deepEqual([(a.args[0] as number[])[0], (b.args[0] as number[])[0]], [CODE_VA, CODE_VA + len], 'each passes its own PCs');
    } finally {
      setWasmTier(was);
    }
  }
  // Run through both copies, budgets cutting anywhere in either (the PCs a cut leaves): as the interpreter.
  for (let seed = 1; seed <= 24; seed++) trial(seed, seed % 2 ? 32 : 64, () => src);
});

test('tiering: a straight block that waits whatever its source is stepped without making it; when that wait is over, its source makes the wait', () => {
  const saved = { ...tiering };
  const dispatch = { ...tierDispatch };
  const built = engineTime.blocks;
  const was = wasmTier.on;
  try {
    // The lower bound of a block of ops the wasm tier takes is a `case` line an op, not
    // MIN_SRC_PER_OP: with the tier on, the three VALU ops are one translated run.
    setWasmTier(true);
    const shell = blockShellAt(prog('v_add_nc_u32_e32 v1, v2, v3\nv_mul_lo_u32 v4, v1, v2\nv_mov_b32_e32 v2, 1\ns_endpgm'), CODE_VA)!;
    assert.ok(shell.pending && shell.srcLen < MIN_SRC_PER_OP * 2, `lower bound ${shell.srcLen}`);
    // The JavaScript tier's blocks (wasm tier off) from here on.
    setWasmTier(false);
    // least wait = MIN_SRC_PER_OP * 0.03 = 3 visits; every block's source is longer than that
    // bound, so its own wait is longer (srcLen * 0.03 / n).
    tiering.minBytes = 45000;
    tiering.visitsPerByteOp = 0.03;
    const least = Math.round(MIN_SRC_PER_OP * tiering.visitsPerByteOp);
    const src = 'v_add_nc_u32_e32 v1, v2, v3\nv_mul_lo_u32 v4, v1, v2\nv_mov_b32_e32 v2, 1\ns_endpgm';
    const visits = (p: Program, upTo: number): number => {
      for (let v = 1; v <= upTo; v++) if (hotBlockAt(p, CODE_VA) !== null) return v;
      return -1;
    };
    // A dispatch of 2 waves: the block waits `least` visits with no source made.
    Object.assign(tierDispatch, { waves: 2, launched: 2, epoch: dispatch.epoch + 1 });
    const p = prog(src);
    assert.equal(visits(p, least), -1, 'stepped');
    const b = p.blocks[0]!;
    assert.equal(b.pending, true, 'no source made');
    assert.equal(b.srcLen, MIN_SRC_PER_OP * b.n);
    // The next dispatch has 1000 waves: its own wait (under 1000 visits) is over, it runs compiled.
    Object.assign(tierDispatch, { waves: 1000, launched: 1, epoch: dispatch.epoch + 2 });
    assert.equal(hotBlockAt(p, CODE_VA), b, 'compiled now');
    assert.equal(b.pending, false);
    assert.equal(b.srcLen, blockAt(prog(src), CODE_VA)!.srcLen, 'its real source length');
    // Again, with a next dispatch of 4 waves that its own wait outlasts: it keeps waiting, from
    // the visits it had, until it is reached more often than waves were launched (a loop).
    Object.assign(tierDispatch, { waves: 2, launched: 2, epoch: dispatch.epoch + 3 });
    const q = prog(src);
    assert.equal(visits(q, least), -1);
    const own = Math.round(b.srcLen * tiering.visitsPerByteOp / b.n);
    assert.ok(own > 4 + least, `its own wait (${own} visits) outlasts the next dispatch`);
    Object.assign(tierDispatch, { waves: 4, launched: 4, epoch: dispatch.epoch + 4 });
    assert.equal(hotBlockAt(q, CODE_VA), null, 'its source is made, and it still waits');
    assert.equal(q.blocks[0]!.pending, false);
    // The sixth visit (the second after this one) has seen five, more than the 4 waves launched.
    assert.equal(visits(q, own), 2, 'compiled once it was reached more often than waves were launched');
    assert.ok(engineTime.blocks - built >= 3);
  } finally {
    setWasmTier(was);
    Object.assign(tiering, saved);
    Object.assign(tierDispatch, dispatch);
  }
});

test('tiering: a block the dispatch\'s waves would pay for is compiled after PROBE visits only if the waves reaching it do', () => {
  const saved = { ...tiering };
  const dispatch = { ...tierDispatch };
  try {
    // Its own wait is srcLen / (n + 1.5 x its translated ops) visits (tier.ts gain: stepping a
    // translated op costs 2.5 times what stepping an inlined JavaScript op does; hundreds), within
    // the dispatch's 1000 waves: compiled at once before; probed now (probeBytes 0).
    Object.assign(tiering, { minBytes: 45000, visitsPerByteOp: 1, probeBytes: 0 });
    const src = 'v_add_nc_u32_e32 v1, v2, v3\nv_mul_lo_u32 v4, v1, v2\nv_mov_b32_e32 v2, 1\ns_endpgm';
    const own = (p: Program) => {
      const b = p.blocks[0]!;
      assert.equal(b.translated, wasmTier.on ? 3 : 0);
      return Math.round(b.srcLen / (b.n + 1.5 * b.translated));
    };
    // Visits with `every` waves launched before each: the visit at which it runs compiled, or -1.
    const run = (every: number, upTo: number): { at: number; own: number } => {
      Object.assign(tierDispatch, { waves: 1000, launched: 0, epoch: tierDispatch.epoch + 1 });
      const p = prog(src);
      let at = -1;
      for (let v = 1; v <= upTo && at < 0; v++) {
        tierDispatch.launched += every;
        if (hotBlockAt(p, CODE_VA) !== null) at = v;
      }
      return { at, own: own(p) };
    };
    const all = run(1, 2 * PROBE);
    assert.ok(all.own > PROBE && 8 * all.own > 1000 && all.own <= 1000, `own wait ${all.own}: the probe decides`);
    assert.equal(all.at, PROBE + 1, 'reached by every wave: compiled after the probe');
    // One wave in eight: 32 visits over 256 waves project 125 visits in the dispatch, under its own
    // wait: it keeps waiting, and is compiled when that wait is over.
    const some = run(8, 2000);
    assert.equal(some.at, some.own + 1, 'reached by one wave in eight: it waits its own wait');
    // Probed over two dispatches (fewer than PROBE visits in the first): it waits its own wait.
    Object.assign(tierDispatch, { waves: 1000, launched: 0, epoch: tierDispatch.epoch + 1 });
    const p2 = prog(src);
    for (let v = 1; v < PROBE; v++) {
      tierDispatch.launched = v;
      assert.equal(hotBlockAt(p2, CODE_VA), null);
    }
    Object.assign(tierDispatch, { waves: 1000, launched: 1, epoch: tierDispatch.epoch + 1 });
    assert.equal(hotBlockAt(p2, CODE_VA), null, 'the last probe visit, in the next dispatch: it waits');
    // Blocks under probeBytes are compiled at once, as before.
    tiering.probeBytes = 1e9;
    assert.equal(run(8, 10).at, 1);
  } finally {
    Object.assign(tiering, saved);
    Object.assign(tierDispatch, dispatch);
  }
});
