// The wasm tier's DS accesses (src/amd/engine/wasm/lds.ts; issue 24): DS dword loads and stores
// (b32..b128) and their 2addr / 2addr_stride64 b32/b64 forms translated inside runs must give the
// reference interpreter's registers, LDS and diagnostics bit for bit. Seeded random programs of
// them mixed with VALU ops, no-ops and waits, over lane addresses that are mostly valid and
// sometimes misaligned or past the LDS's end, loads over their own address register, random EXEC,
// both wave sizes; the LDS in the heap (translated) and not (handed back).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { encodableProgram, runAsm, type AsmRunOptions } from './exec-harness.js';
import { snap, diffSnap } from './engine-state.js';
import { mulberry32 } from '../../src/runtime/manifest.js';
import { hotRun, setWasmTier, wasmTier } from '../../src/amd/engine/wasm/tier.js';
import { memStats } from '../../src/amd/engine/wasm/global.js';
import { allocLds, freeLds } from '../../src/amd/engine/wasm/heap.js';

type Rng = () => number;
const pick = <T>(r: Rng, a: readonly T[]): T => a[Math.floor(r() * a.length)]!;
const int = (r: Rng, n: number) => Math.floor(r() * n);

const LDS_BYTES = 4096;

const V = (r: Rng) => `v${int(r, 12)}`;
const VALU = ['v_add_nc_u32', 'v_xor_b32', 'v_add_f32', 'v_fmac_f32', 'v_max_u32'];
const rows = (d: number, n: number) => (n === 1 ? `v${d}` : `v[${d}:${d + n - 1}]`);
const SUFFIX = ['b32', 'b64', 'b96', 'b128'];

function access(r: Rng): string {
  const a = pick(r, ['v20', 'v21']);
  const k = int(r, 4);
  if (k < 2) {
    // Dword forms: offset in bytes.
    const n = 1 + int(r, 4);
    const off = pick(r, [0, 0, 4, 16, 64, 4092, 65532]);
    const o = off !== 0 ? ` offset:${off}` : '';
    const d = int(r, 12 - n + 1);
    if (r() < 0.4) return `ds_store_${SUFFIX[n - 1]} ${a}, ${rows(d, n)}${o}`;
    if (r() < 0.15) return `ds_load_b32 ${a}${o}`.replace('ds_load_b32 ', `ds_load_b32 ${a}, `);
    return `ds_load_${SUFFIX[n - 1]} ${rows(d, n)}, ${a}${o}`;
  }
  // 2addr forms: offsets in elements (b32: dwords, b64: qwords; stride64: x64).
  const dw = 1 + int(r, 2);
  const stride = r() < 0.3 ? '_stride64' : '';
  const o0 = pick(r, [0, 1, 2, 7, 255]), o1 = pick(r, [0, 1, 3, 16, 255]);
  const t = dw === 1 ? 'b32' : 'b64';
  if (r() < 0.4) {
    const d0 = int(r, 12 - dw + 1), d1 = int(r, 12 - dw + 1);
    return `ds_store_2addr${stride}_${t} ${a}, ${rows(d0, dw)}, ${rows(d1, dw)} offset0:${o0} offset1:${o1}`;
  }
  if (r() < 0.15) return `ds_load_2addr${stride}_${t} ${rows(a === 'v20' ? 20 : 19, 2 * dw)}, ${a} offset0:${o0} offset1:${o1}`;
  return `ds_load_2addr${stride}_${t} ${rows(int(r, 12 - 2 * dw + 1), 2 * dw)}, ${a} offset0:${o0} offset1:${o1}`;
}

function inst(r: Rng): string {
  if (r() < 0.55) return access(r);
  if (r() < 0.2) return pick(r, ['s_waitcnt lgkmcnt(0)', 's_nop 0', 's_delay_alu instid0(VALU_DEP_1)', 's_waitcnt lgkmcnt(1)']);
  return `${pick(r, VALU)}_e32 ${V(r)}, ${V(r)}, ${V(r)}`;
}

function trial(seed: number, ws: 32 | 64, heap: boolean): void {
  const r = mulberry32(seed);
  const lines = encodableProgram(() => inst(r), 2 + int(r, 12));
  const bad = r() < 0.5 ? 0 : r() < 0.5 ? 0.02 : 0.3;
  const vgpr: Record<number, number[]> = {};
  for (let i = 0; i < 20; i++) vgpr[i] = Array.from({ length: ws }, () => int(r, 0x1_0000_0000));
  const addr = () => {
    if (r() >= bad) return 4 * int(r, LDS_BYTES / 4 / 2);
    return pick(r, [4 * int(r, 1024) + 1 + int(r, 3), LDS_BYTES - 4 + 4 * int(r, 8), 0xfffffffc, 4 * int(r, 1 << 20)]);
  };
  vgpr[20] = Array.from({ length: ws }, addr);
  vgpr[21] = Array.from({ length: ws }, addr);
  const ek = r();
  const exec = ek < 0.5 ? 0xffffffff : ek < 0.55 ? 0 : int(r, 0x1_0000_0000);
  const execHi = ek < 0.5 ? 0xffffffff : int(r, 0x1_0000_0000);
  const init = Uint8Array.from({ length: LDS_BYTES }, () => int(r, 256));
  const o: AsmRunOptions = { waveSize: ws, asmWave: 32, vgprs: 24, vgpr, exec, execHi, waitcnt: r() < 0.5 };
  const source = lines.join('\n') + '\ns_endpgm';
  const a = runAsm(source, { ...o, lds: init.slice(), engine: 'interp' });
  const was = wasmTier.on;
  const calls = hotRun.calls;
  setWasmTier(true);
  // Odd seeds: runs translated hot at once (lanes tested four at a time for a full EXEC:
  // global.ts testRows); even: as a run's first translation (lane by lane).
  hotRun.calls = seed % 2 === 1 ? 0 : 1e9;
  const lds = heap ? allocLds(LDS_BYTES) : new Uint8Array(LDS_BYTES);
  lds.set(init);
  let b: ReturnType<typeof runAsm>;
  try {
    b = runAsm(source, { ...o, lds, engine: 'fast' });
  } finally {
    setWasmTier(was);
    hotRun.calls = calls;
  }
  const where = `seed ${seed} wave${ws} ${heap ? 'heap' : 'own array'} exec 0x${exec.toString(16)}:\n${source}`;
  const d = diffSnap(snap(a.wave), snap(b.wave));
  assert.equal(d, null, `${d}\n${where}`);
  assert.ok(Buffer.from(a.wave.lds).equals(Buffer.from(b.wave.lds)), `LDS differs\n${where}`);
  assert.deepEqual(b.diags.map((g) => `${g.id} ${JSON.stringify(g.where)}`), a.diags.map((g) => `${g.id} ${JSON.stringify(g.where)}`), `diagnostics\n${where}`);
  if (heap) freeLds(lds);
}

test('wasm tier: random DS loads and stores equal the interpreter bit for bit (LDS in the heap)', () => {
  const done = memStats.ds;
  const calls = wasmTier.calls;
  for (let seed = 1; seed <= 150; seed++) trial(seed, 32, true);
  for (let seed = 301; seed <= 400; seed++) trial(seed, 64, true);
  assert.ok(wasmTier.calls > calls + 100, `calls of translated code: ${wasmTier.calls - calls}`);
  assert.ok(memStats.ds > done + 100, `DS accesses completed in wasm: ${memStats.ds - done}`);
});

test('wasm tier: DS accesses to an LDS outside the heap are handed back whole', () => {
  const done = memStats.ds;
  for (let seed = 1001; seed <= 1040; seed++) trial(seed, 32, false);
  assert.equal(memStats.ds, done, 'no DS access completed in wasm');
});
