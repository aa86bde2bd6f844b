/**
 * POPS memory rules (seed 002_d00ee82034762a57.txt, "Memory access requirements" and the counters
 * of "Exiting the ordered section") in the PM4 draw pipeline and per generation:
 *
 * - `gpusim draw` runs POPS draws' PS waves on compute units that see memory through the L0/L1/L2
 *   model (src/amd/gfx/pops-draw.ts, pops-cache.ts): examples/pops-oit without GLC on its first
 *   read (gfx1100: DLC alone only steers the MALL), or on gfx1030 with GLC but no DLC (the GL1 is
 *   per shader array), renders a different image for some scheduler seed, while the
 *   compiler-correct shader (the example) gives the serial reference (pops-draw.test.ts, 40 seeds)
 *   and coherent memory hides the mistake; the last write needs neither bit (L0 and GL1 write
 *   through), and on gfx1100 GLC alone is enough (what ACO emits);
 * - a release with the image store still counted (no s_waitcnt_vscnt) lets the store land after an
 *   overlapping wave read the old value;
 * - counters as the hardware keeps them: GFX10+ stores count on VS_CNT, GFX9 stores and loads share
 *   VM_CNT and retire in issue order (s_waitcnt vmcnt(N) bounds both together); "memory counters
 *   not awaited before exit" fires on each generation.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import '../../src/amd/engine/bind.js';
import { runScene, type SceneOptions, type SceneResult } from '../../src/runtime/draw-scene.js';
import { executableTarget } from '../../src/amd/target/executable.js';
import { Memory } from '../../src/core/memory.js';
import { imageDiff, oitShader, runOit } from '../../src/amd/gfx/pops-oit.js';
import { runAsm } from './exec-harness.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const EX = join(ROOT, 'examples/pops-oit');
type Json = Record<string, unknown>;
const load = (): Json => JSON.parse(readFileSync(join(EX, 'scene.json'), 'utf8')) as Json;

/** The example with each line of its pixel shader mapped by `edit`. */
function variant(edit: (line: string) => string): Json {
  const s = load();
  (s.shaders as Record<string, Json>).ps = { source: readFileSync(join(EX, 'ps.s'), 'utf8').split('\n').map(edit) };
  return s;
}
const onLoad = (f: (l: string) => string) => (l: string): string => (/^global_load_b32/.test(l) ? f(l) : l);
const onStore = (f: (l: string) => string) => (l: string): string => (/^global_store_b32/.test(l) ? f(l) : l);
const plain = (l: string): string => l.replace(' glc dlc', '');

function storage(r: SceneResult): Uint32Array {
  const va = r.buffers.get('storage')!;
  return Uint32Array.from({ length: r.width * r.height }, (_, i) => r.mem.read32(va + 4 * i));
}

/** The example's image as the serial primitive order gives it (POPS on, coherent memory, one wave at a time). */
const reference = storage(runScene(load(), EX, { order: 'roundrobin', seed: 1, popsCaches: false }));

function firstBroken(scene: Json, o: Partial<SceneOptions> = {}): { seed: number; r: SceneResult | null } {
  for (let seed = 1; seed <= 40; seed++) {
    const r = runScene(scene, EX, { order: 'random', seed, ...o });
    if (imageDiff(storage(r), reference) > 0) return { seed, r };
  }
  return { seed: 0, r: null };
}

test('gpusim draw: the example (GLC DLC first read and last write) is the serial image with the cache model on, and uses it', () => {
  const r = runScene(variant(onLoad((l) => l)), EX, { order: 'random', seed: 3 });
  assert.equal(imageDiff(storage(r), reference), 0);
  assert.deepEqual(r.diag.list, []);
  assert.ok(r.popsCache, 'POPS draws carry cache statistics');
  // Without POPS no draw sees the model.
  const off = load();
  ((off.state as Json).registers as Json).DB_SHADER_CONTROL = 0;
  assert.equal(runScene(off, EX, { order: 'random', seed: 3 }).popsCache, null);
});

test('gpusim draw: the first read without GLC DLC hits a stale L0/L1 line of a pixel another CU wrote', () => {
  const scene = variant(onLoad(plain));
  const b = firstBroken(scene);
  assert.ok(b.seed > 0, 'no seed read stale data');
  assert.ok(b.r!.popsCache!.staleReads > 0, JSON.stringify(b.r!.popsCache));
  assert.ok(b.r!.popsCache!.l0Hits > 0);
  // The shader is wrong only because of the caches: coherent memory hides the mistake.
  assert.equal(firstBroken(scene, { popsCaches: false }).seed, 0);
});

test('gpusim draw: the last write without GLC DLC is still the serial image — the L0 and GL1 write through to L2', () => {
  const b = firstBroken(variant(onStore(plain)));
  assert.equal(b.seed, 0);
});

test('gpusim draw gfx1100: GLC alone bypasses L0 and GL1 (ACO\'s form); DLC alone is a plain read', () => {
  assert.equal(firstBroken(variant((l) => l.replace(' glc dlc', ' glc'))).seed, 0);
  const b = firstBroken(variant(onLoad((l) => l.replace(' glc dlc', ' dlc'))));
  assert.ok(b.seed > 0 && b.r!.popsCache!.staleReads > 0, JSON.stringify(b.r?.popsCache));
});

test('gpusim draw gfx1030: GLC without DLC is not enough — the next wave of the pixel may run under another shader array\'s GL1', () => {
  const s = load();
  const ps = readFileSync(join(EX, 'ps-gfx1030.s'), 'utf8').split('\n').map((l) => (/^global_load_dword/.test(l) ? l.replace(' glc dlc', ' glc') : l));
  (s.shaders as Record<string, Json>).ps = { source: ps };
  const b = firstBroken(s, { gfx: 'gfx1030' });
  assert.ok(b.seed > 0);
  assert.ok(b.r!.popsCache!.l1Hits > 0 && b.r!.popsCache!.staleReads > 0, JSON.stringify(b.r!.popsCache));
});

test('gpusim draw: the release with the image store still in flight (no s_waitcnt_vscnt) lets it land late', () => {
  const scene = variant((l) => (/^s_waitcnt_vscnt/.test(l) ? '' : l));
  const b = firstBroken(scene);
  assert.ok(b.seed > 0);
  assert.ok(b.r!.diag.list.some((d) => d.id === 'pops.exit.counters-outstanding'));
});

// ---- counters per generation

const gfx900 = executableTarget('gfx900')!;
const gfx1030 = executableTarget('gfx1030')!;

/** A store then a load, then `wait`: the wave's [vmcnt, vscnt] at the end. */
function counters(target: typeof gfx900, wait: string): [number, number] {
  const mem = new Memory();
  const seg = mem.alloc(4096, 'buf');
  const src = `v_mov_b32 v0, 0\nv_mov_b32 v1, 7\nglobal_store_dword v0, v1, s[0:1]\nglobal_load_dword v2, v0, s[0:1] offset:64\n${wait}\ns_endpgm`;
  const r = runAsm(src, { target, mem, waveSize: 64, sgpr: { 0: seg.base % 0x1_0000_0000, 1: Math.floor(seg.base / 0x1_0000_0000) } });
  return [r.wave.vmcnt, r.wave.vscnt];
}

test('counters: GFX9 counts stores on VM_CNT with the loads (vmcnt(N) bounds both together); GFX10.3 on VS_CNT', () => {
  assert.deepEqual(counters(gfx900, ''), [2, 0]);
  assert.deepEqual(counters(gfx900, 's_waitcnt vmcnt(1)'), [1, 0]);
  assert.deepEqual(counters(gfx900, 's_waitcnt vmcnt(0)'), [0, 0]);
  assert.deepEqual(counters(gfx1030, ''), [1, 1]);
  assert.deepEqual(counters(gfx1030, 's_waitcnt vmcnt(0)'), [0, 1]);
  assert.deepEqual(counters(gfx1030, 's_waitcnt vmcnt(0)\ns_waitcnt_vscnt null, 0x0'), [0, 0]);
});

const px4 = [{ samples: 4, interlock: 'pixel' }, { samples: 4, interlock: 'pixel' }] as const;

test('counters: gfx900 ORDERED_PS_DONE without s_waitcnt vmcnt(0) — the stores still in VM_CNT land after overlapping waves resumed', () => {
  const clean = oitShader('gfx9');
  const shader = clean.replace('  s_waitcnt vmcnt(0) lgkmcnt(0)\n  s_sendmsg', '  s_sendmsg');
  assert.notEqual(shader, clean);
  let broken = 0;
  for (let seed = 1; seed <= 60 && broken === 0; seed++) {
    // Stores may stay in flight up to 1000 clocks: GFX9 waiters sleep in s_sleep 3 steps (192 clocks).
    const r = runOit({ gen: 'gfx9', target: gfx900, seed, draws: px4, prims: 24, size: 32, shader, maxStoreDelay: 1000 });
    const ids = r.diags.list.map((d) => d.id);
    assert.ok(ids.includes('pops.exit.counters-outstanding'), `seed ${seed}: ${ids.join()}`);
    assert.ok(r.diags.list.some((d) => /vm [1-9]/.test(d.message)), 'the outstanding stores are on VM_CNT');
    if (imageDiff(r.image, r.reference) > 0) {
      assert.ok(r.cache!.lateStores > 0);
      broken = seed;
    }
  }
  assert.ok(broken > 0, 'some seed lets a late store overwrite a later wave\'s blend');
  // The clean shader is quiet and ordered.
  for (let seed = 1; seed <= 10; seed++) {
    const r = runOit({ gen: 'gfx9', target: gfx900, seed, draws: px4, prims: 24, size: 32 });
    assert.deepEqual(r.diags.list, []);
    assert.equal(imageDiff(r.image, r.reference), 0);
  }
});
