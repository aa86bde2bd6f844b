// The wasm tier's GLOBAL accesses (src/amd/engine/wasm/global.ts, heap.ts; issue 24): dword loads
// and stores, and scalar loads (wasm/smem.ts), translated inside runs must give the reference
// interpreter's registers, memory and diagnostics bit for bit. Seeded random programs of GLOBAL
// loads/stores (both address forms, one to four dwords, loads over their own address registers)
// and s_load_b32..b512 (from valid, misaligned, straddling, unmapped and negative addresses)
// mixed with VALU ops and waits (the counters and the wait-counter sanitizer's reports must agree
// too), over lane addresses that are mostly valid and sometimes misaligned, past a segment's end,
// in another segment, or with another high dword, under random EXEC, in both wave sizes; with
// segments in the heap (translated) and not (a Program for such a memory keeps its accesses in the
// JavaScript blocks).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { encodableProgram, runAsm, type AsmRunOptions } from './exec-harness.js';
import { assemble } from '../../src/amd/isa/target.js';
import { gfx11 } from '../../src/amd/isa/gfx11/index.js';
import { kernelsMatchInterp } from './engine-wasm-kernels.js';
import { snap, diffSnap } from './engine-state.js';
import { mulberry32 } from '../../src/runtime/manifest.js';
import { Memory, type Segment } from '../../src/core/memory.js';
import { hotRun, setWasmTier, wasmTier } from '../../src/amd/engine/wasm/tier.js';
import { memStats } from '../../src/amd/engine/wasm/global.js';
import { heapBacking } from '../../src/amd/engine/wasm/heap.js';

type Rng = () => number;
const pick = <T>(r: Rng, a: readonly T[]): T => a[Math.floor(r() * a.length)]!;
const int = (r: Rng, n: number) => Math.floor(r() * n);

const SEG_BYTES = 4096;

/** Two data segments (and the harness's code) in a Memory, in the heap or not; same bytes either way. */
function memory(seed: number, backed: boolean): { mem: Memory; a: Segment; b: Segment } {
  const mem = new Memory({ backing: backed ? heapBacking() : null });
  const r = mulberry32(seed ^ 0x5eed);
  const fill = () => Uint8Array.from({ length: SEG_BYTES }, () => int(r, 256));
  const a = mem.alloc(SEG_BYTES, 'a', 256, fill());
  const b = mem.alloc(SEG_BYTES, 'b', 256, fill());
  return { mem, a, b };
}

/** A lane address in `a`: mostly a valid dword offset, sometimes one that a handler must hand back. */
function laneAddress(r: Rng, a: Segment, b: Segment, span: number, bad: number): number {
  const k = r();
  if (k >= bad) return a.base + 4 * int(r, (SEG_BYTES - span) / 4 + 1);
  const j = int(r, 5);
  if (j === 0) return a.base + 4 * int(r, SEG_BYTES / 4) + 1 + int(r, 3); // misaligned
  if (j === 1) return a.end - span + 4 * (1 + int(r, 4)); // past the end
  if (j === 2) return b.base + 4 * int(r, (SEG_BYTES - span) / 4 + 1); // another segment
  if (j === 3) return a.base - 4 * (1 + int(r, 8)); // before it (unmapped)
  return a.base + 4 * int(r, SEG_BYTES / 4) + 0x1_0000_0000; // another high dword
}

const V = (r: Rng) => `v${int(r, 12)}`;
const VALU = ['v_add_nc_u32', 'v_xor_b32', 'v_sub_nc_u32', 'v_add_f32', 'v_mul_f32', 'v_fmac_f32', 'v_max_u32'];
const DATA = (r: Rng, n: number) => {
  const d = int(r, 12 - n + 1);
  return n === 1 ? `v${d}` : `v[${d}:${d + n - 1}]`;
};
const SUFFIX = ['b32', 'b64', 'b96', 'b128'];

function access(r: Rng): string {
  const n = 1 + int(r, 4);
  const off = pick(r, [0, 0, 4, 8, -8, 2044, -4096]);
  const o = off !== 0 ? ` offset:${off}` : '';
  // Address pairs v[20:21], v[22:23], or 32-bit offsets v24, v25 from s[40:41].
  const pair = r() < 0.6 ? pick(r, [20, 22]) : -1;
  const vo = pick(r, [24, 25]);
  const addr = pair >= 0 ? `v[${pair}:${pair + 1}]` : `v${vo}`;
  const base = pair >= 0 ? 'off' : 's[40:41]';
  if (r() < 0.4) return `global_store_${SUFFIX[n - 1]} ${addr}, ${DATA(r, n)}, ${base}${o}`;
  // A load over its own address registers now and then (the low or high dword of the pair).
  if (r() < 0.2) return `global_load_b32 v${pair >= 0 ? pair + int(r, 2) : vo}, ${addr}, ${base}${o}`;
  return `global_load_${SUFFIX[n - 1]} ${DATA(r, n)}, ${addr}, ${base}${o}`;
}

/** A scalar load from s[42:43] (+ s44 sometimes): one to sixteen dwords, immediate offsets of both signs. */
function scalar(r: Rng): string {
  const n = pick(r, [1, 2, 4, 8, 16]);
  const d = n === 1 ? `s${int(r, 12)}` : `s[${n >= 8 ? 16 : 4 * int(r, 3)}:${(n >= 8 ? 16 : 4 * int(r, 3)) + n - 1}]`;
  const off = pick(r, [0, 0, 4, 8, -8, 0x40, 4093, -4096]);
  return r() < 0.3 ? `s_load_b${32 * n} ${d}, s[42:43], s44 offset:${off}` : `s_load_b${32 * n} ${d}, s[42:43], ${off}`;
}

function inst(r: Rng): string {
  if (r() < 0.25) return scalar(r);
  if (r() < 0.55) return access(r);
  if (r() < 0.15) return pick(r, ['s_waitcnt vmcnt(0)', 's_waitcnt vmcnt(1)', 's_waitcnt vmcnt(0) lgkmcnt(0)', 's_waitcnt lgkmcnt(0)']);
  return `${pick(r, VALU)}_e32 ${V(r)}, ${V(r)}, ${V(r)}`;
}

/**
 * A loop around `body` (at its start: a block of its own) ending in one of the back branches, with
 * its counter set up before it: s50 trips, or per lane v31 counting up to v30 (VCC, EXEC). The
 * unconditional one runs until the budget stops it.
 */
function loopOf(r: Rng, body: readonly string[], ws: 32 | 64): string[] {
  const trips = 1 + int(r, 40);
  // (Written for wave32 as the trials assemble: vcc_lo is VCC's encoding in either wave size.)
  const vcc = 'vcc_lo';
  const tails: Record<string, readonly string[]> = {
    scc1: ['s_sub_u32 s50, s50, 1', 's_cmp_lg_u32 s50, 0', 's_cbranch_scc1'],
    scc0: ['s_sub_u32 s50, s50, 1', 's_cmp_eq_u32 s50, 0', 's_cbranch_scc0'],
    vccnz: ['v_add_nc_u32_e32 v31, 1, v31', `v_cmp_lt_u32_e32 ${vcc}, v31, v30`, 's_cbranch_vccnz'],
    vccz: ['v_add_nc_u32_e32 v31, 1, v31', `v_cmp_ge_u32_e32 ${vcc}, v31, v30`, 's_cbranch_vccz'],
    execnz: ['v_add_nc_u32_e32 v31, 1, v31', 'v_cmpx_lt_u32_e32 v31, v30', 's_cbranch_execnz'],
    execz: ['s_sub_u32 s50, s50, 1', 's_cmp_eq_u32 s50, 0', `s_cselect_b${ws} ${ws === 64 ? 'exec' : 'exec_lo'}, -1, 0`, 's_cbranch_execz'],
    always: ['s_branch'],
  };
  const tail = [...tails[pick(r, Object.keys(tails))]!];
  // Addresses walking on each trip (off a segment's end in a later trip, now and then).
  const walk = r() < 0.5 ? [`v_add_nc_u32_e32 v${pick(r, [20, 24, 25])}, ${pick(r, [4, 16, 64, 256])}, v${pick(r, [20, 24, 25])}`] : [];
  const lines = [...walk, ...body, ...tail];
  const words = lines.reduce((t, x) => t + (x === tail[tail.length - 1] ? 1 : assemble(gfx11, x).length), 0);
  lines[lines.length - 1] = `${tail[tail.length - 1]} ${-words}`;
  return [`s_mov_b32 s50, ${trips}`, 'v_mov_b32_e32 v31, 0', ...lines];
}

function trial(seed: number, ws: 32 | 64, backed: boolean, loop = false): void {
  const r = mulberry32(seed);
  // A loop body takes its trips in wasm only while no op hands back: no offsets that leave the
  // segment in every trip, and fewer bad lanes.
  const draw = () => {
    for (;;) {
      const x = inst(r);
      if (!loop || !/offset:(-4096|2044)/.test(x)) return x;
    }
  };
  const straight = encodableProgram(draw, (loop ? 1 : 2) + int(r, loop ? 8 : 10));
  const lines = loop ? loopOf(r, straight, ws) : straight;
  const bad = r() < (loop ? 0.8 : 0.5) ? 0 : r() < 0.5 ? 0.02 : 0.3;
  const vgpr: Record<number, number[]> = {};
  for (let i = 0; i < 12; i++) vgpr[i] = Array.from({ length: ws }, () => int(r, 0x1_0000_0000));
  const m0 = memory(seed, backed);
  for (const [lo, hi] of [[20, 21], [22, 23]] as const) {
    const at = Array.from({ length: ws }, () => laneAddress(r, m0.a, m0.b, 16, bad));
    vgpr[lo] = at.map((x) => x % 0x1_0000_0000);
    vgpr[hi] = at.map((x) => Math.floor(x / 0x1_0000_0000));
  }
  for (const v of [24, 25]) vgpr[v] = Array.from({ length: ws }, () => laneAddress(r, m0.a, m0.b, 16, bad) - m0.a.base).map((x) => (x >= 0 && x < 2 ** 32 ? x : 0x10000));
  // The scalar loads' base: in a, misaligned (its low bits dropped), near a's end, in b, unmapped, or 0 (negative sums).
  const sb = r() < (loop ? 0.9 : 0.6) ? m0.a.base + 4 * int(r, 64) : pick(r, [m0.a.base + 1 + int(r, 3), m0.a.end - 8, m0.b.base + 16, m0.a.base - 4096, 0]);
  const sgpr: Record<number, number> = { 40: m0.a.base % 0x1_0000_0000, 41: Math.floor(m0.a.base / 0x1_0000_0000),
    42: sb % 0x1_0000_0000, 43: Math.floor(sb / 0x1_0000_0000), 44: pick(r, [0, 4, 64, 0xfffffff0]) };
  const ek = r();
  const exec = ek < 0.5 ? 0xffffffff : ek < 0.55 ? 0 : int(r, 0x1_0000_0000);
  const execHi = ek < 0.5 ? 0xffffffff : int(r, 0x1_0000_0000);
  if (loop) vgpr[30] = Array.from({ length: ws }, () => 1 + int(r, 40));
  // A loop's budget: sometimes inside its trips (the translated loop cut there).
  const budget = loop && (r() < 0.6 || lines[lines.length - 1]!.startsWith('s_branch')) ? { maxInstructions: 5 + int(r, 400) } : {};
  const o: AsmRunOptions = { waveSize: ws, asmWave: 32, vgprs: 32, vgpr, sgpr, exec, execHi, waitcnt: r() < (loop ? 0.3 : 0.5), ...budget };
  const source = lines.join('\n') + '\ns_endpgm';
  const m1 = memory(seed, false);
  const a = runAsm(source, { ...o, mem: m1.mem, engine: 'interp' });
  const was = wasmTier.on;
  const calls = hotRun.calls;
  setWasmTier(true);
  // Odd seeds: runs translated hot at once (lanes tested four at a time for a full EXEC:
  // global.ts testRows); even: as a run's first translation (lane by lane).
  hotRun.calls = seed % 2 === 1 ? 0 : 1e9;
  let b: ReturnType<typeof runAsm>;
  try {
    b = runAsm(source, { ...o, mem: m0.mem, engine: 'fast' });
  } finally {
    setWasmTier(was);
    hotRun.calls = calls;
  }
  const where = `seed ${seed} wave${ws} ${backed ? 'heap' : 'own arrays'} exec 0x${exec.toString(16)}:\n${source}`;
  const d = diffSnap(snap(a.wave), snap(b.wave));
  assert.equal(d, null, `${d}\n${where}`);
  assert.ok(Buffer.from(m0.a.u8).equals(Buffer.from(m1.a.u8)) && Buffer.from(m0.b.u8).equals(Buffer.from(m1.b.u8)), `memory differs\n${where}`);
  assert.deepEqual(b.diags.map((g) => `${g.id} ${JSON.stringify(g.where)}`), a.diags.map((g) => `${g.id} ${JSON.stringify(g.where)}`), `diagnostics\n${where}`);
}

test('wasm tier: random GLOBAL loads and stores equal the interpreter bit for bit (segments in the heap)', () => {
  const calls = wasmTier.calls;
  const done = memStats.global;
  const smem = memStats.smem;
  for (let seed = 1; seed <= 150; seed++) trial(seed, 32, true);
  for (let seed = 301; seed <= 400; seed++) trial(seed, 64, true);
  assert.ok(wasmTier.calls > calls + 100, `calls of translated code: ${wasmTier.calls - calls}`);
  assert.ok(memStats.global > done + 100, `accesses completed in wasm: ${memStats.global - done}`);
  assert.ok(memStats.smem > smem + 50, `scalar loads completed in wasm: ${memStats.smem - smem}`);
});

test('wasm tier: random loop bodies taking their trips inside the translated code equal the interpreter', () => {
  // Bodies of the random accesses, scalar loads, waits and VALU ops above, looping on SCC, VCC,
  // EXEC or always, under budgets that cut trips, the sanitizer on or off (a body that leaves a
  // track takes one trip a call), lanes handed back in later trips (walking addresses, NaNs).
  const trips = wasmTier.trips;
  for (let seed = 2001; seed <= 2120; seed++) trial(seed, 32, true, true);
  for (let seed = 2201; seed <= 2260; seed++) trial(seed, 64, true, true);
  assert.ok(wasmTier.trips > trips + 300, `trips taken in wasm: ${wasmTier.trips - trips}`);
});

test('wasm tier: a loop body taking its trips in wasm counts every access once and its counters as trip by trip', () => {
  // 37 trips of two loads, a wait and an add: all in wasm (the first trip in the block from the
  // program's start, the others in the loop body's own), as the interpreter runs them, budgets
  // stopping at every point of the last trips (counters mid-trip: loads outstanding or not).
  const body = ['global_load_b32 v1, v[20:21], off', 'global_load_b32 v2, v[20:21], off offset:4', 's_waitcnt vmcnt(1)', 'v_add_nc_u32_e32 v3, v1, v3',
    's_waitcnt vmcnt(0)', 'v_add_nc_u32_e32 v3, v2, v3', 's_sub_u32 s50, s50, 1', 's_cmp_lg_u32 s50, 0'];
  const words = body.reduce((t, x) => t + assemble(gfx11, x).length, 0) + 1;
  const source = ['s_mov_b32 s50, 37', ...body, `s_cbranch_scc1 ${-words}`, 's_endpgm'].join('\n');
  for (const budget of [undefined, 300, 301, 302, 303, 304, 305, 306, 307, 308, 309]) {
    const m0 = memory(9, true), m1 = memory(9, false);
    const o = (m: ReturnType<typeof memory>): AsmRunOptions => ({ mem: m.mem, vgpr: { 20: m.a.base % 2 ** 32, 21: Math.floor(m.a.base / 2 ** 32) }, ...(budget !== undefined ? { maxInstructions: budget } : {}) });
    const a = runAsm(source, { ...o(m1), engine: 'interp' });
    const was = wasmTier.on;
    setWasmTier(true);
    const done = memStats.global, trips = wasmTier.trips;
    let b: ReturnType<typeof runAsm>;
    try {
      b = runAsm(source, { ...o(m0), engine: 'fast' });
    } finally {
      setWasmTier(was);
    }
    assert.equal(diffSnap(snap(a.wave), snap(b.wave)), null, `budget ${budget}`);
    if (budget === undefined) {
      assert.equal(memStats.global - done, 74, 'each access counted once');
      assert.ok(wasmTier.trips - trips >= 30, `trips in wasm: ${wasmTier.trips - trips}`);
    }
  }
});

test('wasm tier: GLOBAL accesses of a memory outside the heap stay in JavaScript (the same results)', () => {
  const done = memStats.global;
  const smem = memStats.smem;
  for (let seed = 1001; seed <= 1040; seed++) trial(seed, 32, false);
  assert.equal(memStats.global, done, 'no access completed in wasm');
  assert.equal(memStats.smem, smem, 'no scalar load completed in wasm');
});

test('wasm tier: a watched memory (a trace) sends every GLOBAL access through find', () => {
  const { mem, a } = memory(5, true);
  const seen: number[] = [];
  mem.watch((va) => void seen.push(va));
  const done = memStats.global;
  const vgpr = { 20: a.base % 2 ** 32, 21: Math.floor(a.base / 2 ** 32), 0: 7 };
  const was = wasmTier.on;
  setWasmTier(true);
  try {
    runAsm('v_add_f32_e32 v1, v0, v0\nglobal_store_b32 v[20:21], v0, off\nglobal_load_b32 v2, v[20:21], off offset:4\ns_endpgm', { vgpr, mem, engine: 'fast' });
  } finally {
    setWasmTier(was);
  }
  assert.equal(memStats.global, done, 'no access completed in wasm');
  assert.ok(seen.includes(a.base) && seen.includes(a.base + 4), 'the watcher saw both accesses');
  assert.equal(a.u32![0], 7);
  mem.watch(null);
  assert.notEqual(mem.table, 0, 'the table is back after the watch');
});

test('wasm tier: bench kernels with seeded random quanta (turns cut inside translated runs, resumed there) equal the interpreter', () => {
  const resumed = wasmTier.resumed;
  const cut = wasmTier.cut;
  const trips = wasmTier.trips;
  kernelsMatchInterp(['matmul', 'vaddmul', 'vaddmul.w64'], 11);
  assert.ok(wasmTier.resumed > resumed && wasmTier.cut > cut, `runs resumed ${wasmTier.resumed - resumed}, cut ${wasmTier.cut - cut}`);
  // matmul's loop body takes its trips in wasm: the scheduler's counts by class (in the reports) agree.
  assert.ok(wasmTier.trips > trips, 'trips taken in wasm');
});

test('wasm tier: the same as hot runs (integer SIMD rows, memory lanes tested four at a time, groups entered inside run op by op)', () => {
  const resumed = wasmTier.resumed;
  const cut = wasmTier.cut;
  kernelsMatchInterp(['matmul', 'vaddmul', 'vaddmul.w64', 'reduce_tree'], 12, true);
  assert.ok(wasmTier.resumed > resumed && wasmTier.cut > cut, `runs resumed ${wasmTier.resumed - resumed}, cut ${wasmTier.cut - cut}`);
});
