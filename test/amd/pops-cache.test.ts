/**
 * The POPS cache model (src/amd/gfx/pops-cache.ts) against the memory model of LLVM's AMDGPUUsage
 * (GFX6-GFX9 and GFX10-GFX11): write-through L0 (GFX9: the CU's vector L1) and a read-only GL1 per
 * shader array, so a store is in L2 once it completed; a plain load on another CU can still hit
 * an old line; GLC bypasses the L0 (GFX11: the GL1 too), DLC the GL1 on GFX10.3 only; and the
 * invalidations drop a level. Driven through the CacheHook as the executor drives it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Memory } from '../../src/core/memory.js';
import { PopsCaches, popsCacheShape } from '../../src/amd/gfx/pops-cache.js';
import type { PopsGen } from '../../src/amd/gfx/pops-config.js';
import type { Wave } from '../../src/amd/wave/wave.js';
import { CPOL } from '../../src/amd/engine/cache-hook.js';

/** Four CUs; GFX10+: two shader arrays of two CUs (CU 0, 1 share a GL1; CU 2, 3 the other). */
function setup(gen: PopsGen) {
  const mem = new Memory();
  const seg = mem.alloc(4096, 'image');
  const c = new PopsCaches(mem, { computeUnits: 4, ...popsCacheShape(gen, 4, 4) });
  // A wave stand-in: the model reads only its memory (which CU) and its counters.
  const wave = (cu: number): Wave => ({ mem: c.viewFor(cu), vscnt: 0, vmcnt: 0, state: 'ready' } as unknown as Wave);
  const load = (cu: number, a: number, cpol = 0): number => {
    const w = wave(cu);
    c.begin(w, cpol, false);
    const v = c.viewFor(cu).read32(a);
    c.end(w);
    return v;
  };
  /** A store that completes at once (its counter is already 0 after the instruction). */
  const store = (cu: number, a: number, v: number, cpol = 0): void => {
    const w = wave(cu);
    c.begin(w, cpol, true);
    c.viewFor(cu).write32(a, v);
    c.end(w);
    c.afterInstruction(w, 0);
  };
  return { mem, c, a: seg.base, load, store, wave };
}

for (const gen of ['gfx9', 'gfx103', 'gfx11'] as const) {
  test(`${gen}: stores write through to L2; the storing CU reads its own value, another CU's old line stays stale`, () => {
    const { mem, c, a, load, store } = setup(gen);
    assert.equal(load(0, a), 0);
    assert.equal(load(2, a), 0);
    store(0, a, 7);
    assert.equal(mem.read32(a), 7, 'in L2 once the store completed (no write-back needed)');
    assert.equal(load(0, a), 7, 'the storing CU\'s L0 line was updated');
    assert.equal(load(2, a), 0, 'CU 2 still holds the line it filled before');
    assert.ok(c.stats().staleReads > 0);
    // A GLC store evicts the storing CU's line instead of updating it: the next read fills from L2.
    store(0, a + 4, 9, CPOL.GLC);
    assert.equal(load(0, a + 4), 9);
  });
}

test('per generation: which policy bits bypass which level for a load', () => {
  // CU 0 and CU 1 share a GL1 on GFX10+: CU 1 fills its L0 and the GL1, CU 2 (other array) writes.
  const fresh = (gen: PopsGen, cpol: number): boolean => {
    const { a, load, store } = setup(gen);
    load(1, a);
    store(2, a, 5);
    return load(1, a, cpol) === 5;
  };
  assert.equal(fresh('gfx103', 0), false);
  assert.equal(fresh('gfx103', CPOL.GLC), false, 'GFX10.3 GLC: past the L0, but the GL1 line is old');
  assert.equal(fresh('gfx103', CPOL.DLC), false, 'GFX10.3 DLC alone: the L0 line is old');
  assert.equal(fresh('gfx103', CPOL.GLC | CPOL.DLC), true);
  assert.equal(fresh('gfx11', CPOL.GLC), true, 'GFX11 GLC bypasses L0 and GL1');
  assert.equal(fresh('gfx11', CPOL.DLC), false, 'GFX11 DLC only steers the MALL');
  assert.equal(fresh('gfx9', CPOL.GLC), true, 'GFX9 GLC bypasses the vector L1; no GL1');
});

test('buffer_gl0_inv / buffer_gl1_inv (GFX9: buffer_wbinvl1) drop a level: both are needed on GFX10+', () => {
  for (const gen of ['gfx103', 'gfx11'] as const) {
    const { a, c, load, store, wave } = setup(gen);
    load(1, a);
    store(2, a, 5);
    c.invalidate(wave(1), 0);
    assert.equal(load(1, a), 0, `${gen}: the L0 refills from the old GL1 line`);
    c.invalidate(wave(1), 1);
    c.invalidate(wave(1), 0);
    assert.equal(load(1, a), 5, `${gen}: both dropped: L2`);
  }
  const g9 = setup('gfx9');
  g9.load(1, g9.a);
  g9.store(2, g9.a, 5);
  g9.c.invalidate(g9.wave(1), 0);
  assert.equal(g9.load(1, g9.a), 5);
});

test('a store still counted stays in flight: the wave reads its own bytes, others read L2 until it lands', () => {
  const { mem, c, a, load, wave } = setup('gfx11');
  const w = { ...wave(0), vscnt: 1 } as unknown as Wave;
  c.begin(w, 0, true);
  c.viewFor(0).write8(a + 1, 0xab); // a byte-masked store: only byte 1 lands
  c.end(w);
  c.afterInstruction(w, 0);
  assert.equal(mem.read32(a), 0, 'not landed while VS_CNT counts it');
  c.begin(w, 0, false);
  assert.equal(c.viewFor(0).read32(a), 0xab00, 'the wave sees its own in-flight bytes');
  c.end(w);
  assert.equal(load(2, a), 0);
  (w as { vscnt: number }).vscnt = 0;
  c.afterInstruction(w, 1);
  assert.equal(mem.read32(a), 0xab00);
});
