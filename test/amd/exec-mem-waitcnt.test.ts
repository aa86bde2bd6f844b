/**
 * The wait-counter sanitizer (gfx11.waitcnt.read-before-wait): fires on hand-written assembly
 * that uses a load's destination before an s_waitcnt covers it, stays quiet when the wait is
 * there (counting in-order VM_CNT / DS returns and out-of-order SMEM returns as the hardware
 * does), and stays quiet on every clang-compiled fixture kernel. Also: the buffer format table is
 * what its generator produces from Mesa's register database.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runAsm, type AsmRun } from './exec-harness.js';
import { Memory } from '../../src/core/memory.js';
import { loadManifest } from '../../src/runtime/manifest.js';
import { runManifest } from '../../src/runtime/run.js';
import { targets } from '../../src/amd/isa/targets.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const ID = 'gfx11.waitcnt.read-before-wait';
const hits = (r: AsmRun) => r.diags.filter((d) => d.id === ID);

function run(body: string): AsmRun {
  const mem = new Memory();
  const seg = mem.alloc(4096, 'buf');
  return runAsm(`${body}\ns_endpgm`, { mem, waitcnt: true, exec: 1, sgpr: { 0: seg.base % 2 ** 32, 1: Math.floor(seg.base / 2 ** 32) }, vgpr: { 0: 0 } });
}

test('VM_CNT: using a load result before s_waitcnt vmcnt fires; the wait silences it', () => {
  const bad = run(`global_load_b32 v1, v0, s[0:1]
    v_mov_b32 v2, v1`);
  assert.equal(hits(bad).length, 1);
  assert.equal(hits(bad)[0]!.where.register, 'v1');
  assert.equal(hits(run(`global_load_b32 v1, v0, s[0:1]
    s_waitcnt vmcnt(0)
    v_mov_b32 v2, v1`)).length, 0);
  // Loads return in order: vmcnt(1) covers the older of two.
  assert.equal(hits(run(`global_load_b32 v1, v0, s[0:1]
    global_load_b64 v[2:3], v0, s[0:1] offset:8
    s_waitcnt vmcnt(1)
    v_mov_b32 v4, v1`)).length, 0);
  assert.equal(hits(run(`global_load_b32 v1, v0, s[0:1]
    global_load_b64 v[2:3], v0, s[0:1] offset:8
    s_waitcnt vmcnt(1)
    v_mov_b32 v4, v3`)).length, 1);
  // A store reading the data register, and a VALU overwriting it, are both hazards.
  assert.equal(hits(run(`global_load_b32 v1, v0, s[0:1]
    global_store_b32 v0, v1, s[0:1] offset:64`)).length, 1);
  assert.equal(hits(run(`global_load_b32 v1, v0, s[0:1]
    v_mov_b32 v1, 0`)).length, 1);
  // A second load into the same register lands after the first: allowed.
  assert.equal(hits(run(`global_load_b32 v1, v0, s[0:1]
    global_load_b32 v1, v0, s[0:1] offset:4
    s_waitcnt vmcnt(0)`)).length, 0);
  // Atomics return only with glc.
  assert.equal(hits(run(`global_atomic_add_u32 v1, v0, v2, s[0:1] glc
    v_mov_b32 v3, v1`)).length, 1);
  assert.equal(hits(run(`global_atomic_add_u32 v0, v2, s[0:1]
    v_mov_b32 v3, v2`)).length, 0);
});

test('LGKM_CNT: SMEM returns out of order (only lgkmcnt(0) covers it), DS in order', () => {
  assert.equal(hits(run(`s_load_b32 s4, s[0:1], 0x0
    s_mov_b32 s5, s4`)).length, 1);
  assert.equal(hits(run(`s_load_b32 s4, s[0:1], 0x0
    s_load_b32 s6, s[0:1], 0x4
    s_waitcnt lgkmcnt(1)
    s_mov_b32 s5, s4`)).length, 1);
  assert.equal(hits(run(`s_load_b32 s4, s[0:1], 0x0
    s_load_b32 s6, s[0:1], 0x4
    s_waitcnt lgkmcnt(0)
    s_add_u32 s5, s4, s6`)).length, 0);
  assert.equal(hits(run(`ds_load_b32 v1, v0
    ds_load_b32 v2, v0 offset:4
    s_waitcnt lgkmcnt(1)
    v_mov_b32 v3, v1`)).length, 0);
  assert.equal(hits(run(`ds_load_b32 v1, v0
    ds_load_b32 v2, v0 offset:4
    s_waitcnt lgkmcnt(1)
    v_mov_b32 v3, v2`)).length, 1);
  // SMEM base registers still pending are a hazard too.
  assert.equal(hits(run(`s_load_b64 s[2:3], s[0:1], 0x0
    s_load_b32 s4, s[2:3], 0x0
    s_waitcnt lgkmcnt(0)`)).length, 1);
  // Separate counters: waiting on vmcnt does not cover an SMEM load.
  assert.equal(hits(run(`s_load_b32 s4, s[0:1], 0x0
    s_waitcnt vmcnt(0)
    s_mov_b32 s5, s4`)).length, 1);
});

test('registers v128..v255 are tracked like the others, under the interpreter, op-by-op and in basic blocks', () => {
  // The track once covered ids below 384 (v0..v127): a read of v200 while any load was outstanding
  // was reported whatever it loaded.
  const mem = new Memory();
  const seg = mem.alloc(4096, 'buf');
  const sgpr = { 0: seg.base % 2 ** 32, 1: Math.floor(seg.base / 2 ** 32) };
  const cases: [string, number][] = [
    // A pending load into v200, read before and after its wait.
    [`global_load_b32 v200, v0, s[0:1]
      v_mov_b32 v2, v200`, 1],
    [`global_load_b32 v200, v0, s[0:1]
      s_waitcnt vmcnt(0)
      v_mov_b32 v2, v200`, 0],
    // An unrelated high register while a load is outstanding, and after a partial wait retired
    // the load a later op reads (the retired register must not look pending, the newer one must).
    [`global_load_b32 v1, v0, s[0:1]
      v_mov_b32 v250, v201`, 0],
    [`global_load_b32 v200, v0, s[0:1]
      global_load_b32 v201, v0, s[0:1] offset:4
      s_waitcnt vmcnt(1)
      v_add_nc_u32 v3, v200, v200
      v_add_nc_u32 v4, v201, v3`, 1],
  ];
  for (const [body, want] of cases) {
    for (const o of [{ engine: 'interp' as const }, { engine: 'fast' as const, blocks: false }, { engine: 'fast' as const }]) {
      const r = runAsm(`${body}\ns_endpgm`, { mem, waitcnt: true, exec: 1, sgpr, vgpr: { 0: 0 }, ...o });
      assert.equal(hits(r).length, want, `${JSON.stringify(o)}: ${body}`);
    }
  }
});

test('steps are remembered per outstanding-load state, except waits that read their count from an SGPR', () => {
  const mem = new Memory();
  const seg = mem.alloc(4096, 'buf');
  const sgpr = { 0: seg.base % 2 ** 32, 1: Math.floor(seg.base / 2 ** 32) };
  const engines = [{ engine: 'interp' as const }, { engine: 'fast' as const, blocks: false }, { engine: 'fast' as const }];
  // A software-pipelined loop: a load is always outstanding, so the wave never drops its track and
  // the counters' serial numbers grow every iteration. The states are canonical (what is still
  // outstanding, not how many loads were ever issued): a few states, whatever the trip count.
  const loop = (trips: number, wait: string) => `global_load_b32 v1, v0, s[0:1]
    s_mov_b32 s4, ${trips}
    loop:
    global_load_b32 v3, v0, s[0:1] offset:4
    s_waitcnt vmcnt(1)
    v_add_nc_u32 v2, v2, v1
    global_load_b32 v1, v0, s[0:1]
    ${wait}
    v_add_nc_u32 v2, v2, v3
    s_sub_u32 s4, s4, 1
    s_cmp_lg_u32 s4, 0
    s_cbranch_scc1 loop
    s_waitcnt vmcnt(0)`;
  for (const o of engines) {
    const few = runAsm(`${loop(3, 's_waitcnt vmcnt(1)')}\ns_endpgm`, { mem, waitcnt: true, exec: 1, sgpr, vgpr: { 0: 0 }, ...o });
    const many = runAsm(`${loop(200, 's_waitcnt vmcnt(1)')}\ns_endpgm`, { mem, waitcnt: true, exec: 1, sgpr, vgpr: { 0: 0 }, ...o });
    assert.equal(hits(few).length + hits(many).length, 0, JSON.stringify(o));
    assert.ok(many.instructions > 1500);
    assert.ok(many.waitcnt!.trackStates <= few.waitcnt!.trackStates && few.waitcnt!.trackStates <= 6, `${JSON.stringify(o)}: ${few.waitcnt!.trackStates} / ${many.waitcnt!.trackStates} states`);
    // vmcnt(2) leaves v3's load outstanding where it is read: reported once (one PC), every trip.
    const bad = runAsm(`${loop(50, 's_waitcnt vmcnt(2)')}\ns_endpgm`, { mem, waitcnt: true, exec: 1, sgpr, vgpr: { 0: 0 }, ...o });
    assert.deepEqual(hits(bad).map((d) => d.where.register), ['v3'], JSON.stringify(o));
  }
  // GFX10.3's s_waitcnt_vmcnt s5, 62 waits for min(62, s5) (GFX11 takes only null there): the same
  // state and PC on both trips, but the first trip (s5 = 0) retires both loads and the second
  // (s5 = 1) leaves v1's (the newer) outstanding.
  for (const o of engines) {
    const r = runAsm(`s_mov_b32 s5, 0
      s_mov_b32 s4, 2
      loop:
      global_load_dword v3, v0, s[0:1]
      global_load_dword v1, v0, s[0:1] offset:4
      s_waitcnt_vmcnt s5, 62
      v_mov_b32 v4, v1
      s_waitcnt vmcnt(0)
      s_mov_b32 s5, 1
      s_sub_u32 s4, s4, 1
      s_cmp_lg_u32 s4, 0
      s_cbranch_scc1 loop
      s_endpgm`, { target: targets.gfx1030!, mem, waitcnt: true, exec: 1, sgpr, vgpr: { 0: 0 }, ...o });
    assert.deepEqual(hits(r).map((d) => d.where.register), ['v1'], JSON.stringify(o));
  }
});

test('the sanitizer stays quiet on every clang-compiled fixture kernel', () => {
  const dir = join(ROOT, 'kernels/manifests');
  const files = readdirSync(dir).filter((f) => f.endsWith('.json')).sort();
  let ran = 0;
  for (const f of files) {
    const m0 = loadManifest(join(dir, f));
    // The wave32 fixture and its wave64 build.
    for (const m of [m0, { ...m0, codeObject: m0.codeObject.replace(/\.co$/, '.w64.co') }]) {
      if (!existsSync(m.codeObject)) continue; // a fixture not built yet
      const r = runManifest(m, { maxInstructions: 2_000_000 });
      ran++;
      const n = r.report.diagnosticCounts[ID] ?? 0;
      assert.equal(n, 0, `${m.codeObject}: ${r.report.diagnostics.filter((d) => d.id === ID).map((d) => d.message).join('; ')}`);
    }
  }
  assert.ok(ran >= 80, `only ${ran} fixtures ran`);
});

