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

