/**
 * POPS inside `gpusim draw` (src/amd/gfx/pops-draw.ts): the example scene examples/pops-oit — 24
 * overlapping triangles in two draws whose pixel shader read-modify-writes a storage image in
 * its ordered section with a non-commutative blend — renders the serial primitive-order image
 * under every scheduler seed; removing the wait or POPS breaks it for some seed; the pops
 * diagnostics fire from the draw's registers and shader; statistics and --pops-trace.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runScene, type SceneResult } from '../../src/runtime/draw-scene.js';
import type { PsLaunch } from '../../src/amd/gfx/pipeline.js';
import { main } from '../../src/cli/main.js';
import { loadPng } from '../../src/cli/commands/draw.js';
import { setField } from '../../src/amd/gfx/pops-config.js';
import { PopsDraw } from '../../src/amd/gfx/pops-draw.js';
import { oitDrawRegs } from '../../src/amd/gfx/pops-oit.js';
import { decodeCollisionWaveId } from '../../src/amd/gfx/pops.js';
import { Diagnostics } from '../../src/core/diagnostics.js';
import { Memory } from '../../src/core/memory.js';
import { Wave } from '../../src/amd/wave/wave.js';
import { APERTURE } from '../../src/amd/exec/vmem.js';
import type { SetupPrim } from '../../src/amd/gfx/setup.js';
import type { Quad } from '../../src/amd/gfx/raster.js';
import { POPS_REGS } from '../../src/amd/gfx/pops-regs.gen.js';
import { encodeFields } from '../../src/amd/gfx/regs.js';
import { regDb } from '../../src/amd/cp/regdb.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const EX = join(ROOT, 'examples/pops-oit');
type Json = Record<string, unknown>;
const load = (): Json => JSON.parse(readFileSync(join(EX, 'scene.json'), 'utf8')) as Json;
const psLines = (): string[] => readFileSync(join(EX, 'ps.s'), 'utf8').split('\n');

/** The scene with the pixel shader's source replaced (lines of ps.s edited) and registers overridden. */
function variant(edit: (lines: string[]) => string[], regs: Record<string, number> = {}): Json {
  const s = load();
  const shaders = s.shaders as Record<string, Json>;
  shaders.ps = { source: edit(psLines()) };
  const st = s.state as Json;
  st.registers = { ...(st.registers as Json), ...regs };
  return s;
}

interface Run { r: SceneResult; launches: PsLaunch[] }
function run(scene: Json, seed: number, order: 'random' | 'roundrobin' = 'random', paScVrsSurfaceCntl1?: number): Run {
  const launches: PsLaunch[] = [];
  const r = runScene(scene, EX, { order, seed, onPsWave: (l) => void launches.push(l), ...(paScVrsSurfaceCntl1 !== undefined ? { paScVrsSurfaceCntl1 } : {}) });
  return { r, launches };
}

/**
 * The serial primitive-order reference: each covered pixel blended with its primitive's
 * (flat, provoking-vertex) colour in the order the rasterizer produced the invocations, computed
 * on the CPU with the shader's f32 conversion and integer blend.
 */
function reference(scene: Json, launches: readonly PsLaunch[], width: number, height: number): Uint32Array {
  const buffers = scene.buffers as Record<string, { values: number[] }>;
  const v = buffers.vertices!.values;
  const idx = buffers.indices!.values;
  const draws = scene.draws as Json[];
  const img = new Uint32Array(width * height);
  const byte = (c: number): number => Math.trunc(Math.fround(Math.fround(c) * 255));
  for (const l of launches) {
    const indexed = draws[l.drawIndex]!.indices !== undefined;
    for (const q of l.ps.quads) {
      const p = q.sp.prim.primId;
      const vi = indexed ? idx[3 * p]! : 3 * p;
      const c = [4, 5, 6, 7].map((k) => byte(v[8 * vi + k]!));
      const src = (c[0]! | (c[1]! << 8) | (c[2]! << 16) | (c[3]! << 24)) >>> 0;
      for (let i = 0; i < 4; i++) {
        if (!q.coverage[i]) continue;
        const px = (q.y + (i >> 1)) * width + q.x + (i & 1);
        img[px] = (((img[px]! >>> 1) & 0x7f7f7f7f) + ((src >>> 1) & 0x7f7f7f7f)) >>> 0;
      }
    }
  }
  return img;
}

function storage(r: SceneResult): Uint32Array {
  const va = r.buffers.get('storage')!;
  return Uint32Array.from({ length: r.width * r.height }, (_, i) => r.mem.read32(va + 4 * i));
}
function target(r: SceneResult): Uint32Array {
  const t = r.targets[0]!;
  return Uint32Array.from({ length: r.width * r.height }, (_, i) => r.mem.read32(t.va + 4 * i));
}
const differs = (a: Uint32Array, b: Uint32Array): number => a.reduce((n, x, i) => n + (x !== b[i] ? 1 : 0), 0);

test('examples/pops-oit: 40 scheduler seeds (random and round-robin) give the serial primitive-order image, no diagnostics', () => {
  const scene = load();
  let waited = 0;
  for (let seed = 1; seed <= 40; seed++) {
    const { r, launches } = run(scene, seed, seed % 8 === 0 ? 'roundrobin' : 'random');
    const ref = reference(scene, launches, r.width, r.height);
    assert.equal(r.stats.aborted, false);
    assert.deepEqual(r.diag.list.map((d) => d.id), [], `seed ${seed}`);
    assert.equal(differs(storage(r), ref), 0, `seed ${seed}: storage image differs from the serial reference`);
    assert.equal(differs(target(r), ref), 0, `seed ${seed}: colour target differs from the serial reference`);
    assert.equal(r.pops.length, 2);
    waited += r.pops.reduce((n, p) => n + p.waitedWaves, 0);
  }
  assert.ok(waited > 0, 'some wave waited in s_wait_event');
});

test('examples/pops-oit: the committed PNG is the serial reference (gpusim draw --out)', async () => {
  const { decode } = await loadPng();
  const scene = load();
  const { r, launches } = run(scene, 1);
  const ref = reference(scene, launches, r.width, r.height);
  const png = decode(readFileSync(join(EX, 'pops-oit.png')));
  assert.equal(png.width, r.width);
  for (let i = 0; i < ref.length; i++) {
    const got = (png.data[4 * i]! | (png.data[4 * i + 1]! << 8) | (png.data[4 * i + 2]! << 16) | (png.data[4 * i + 3]! << 24)) >>> 0;
    assert.equal(got, ref[i], `pixel ${i}`);
  }
});

/** First seed in 1..60 whose storage image differs from the reference, or 0. */
function breakingSeed(scene: Json): number {
  for (let seed = 1; seed <= 60; seed++) {
    const { r, launches } = run(scene, seed);
    if (differs(storage(r), reference(scene, launches, r.width, r.height)) > 0) return seed;
  }
  return 0;
}

test('examples/pops-oit: without the s_wait_event, or with POPS off, some seed breaks the order', () => {
  const noWait = variant((l) => l.filter((x) => !/^s_wait_event/.test(x)));
  assert.ok(breakingSeed(noWait) > 0, 'the wait removed: some seed differs');
  const off = variant((l) => l, { DB_SHADER_CONTROL: 0 });
  assert.ok(breakingSeed(off) > 0, 'POPS off: some seed differs');
  const { r } = run(off, 1);
  assert.deepEqual(r.pops, [], 'no POPS statistics without PRIMITIVE_ORDERED_PIXEL_SHADER');
});

test('examples/pops-oit: pops diagnostics fire from the draw (registers and shader) and stay quiet on the example', () => {
  const ids = (scene: Json): Set<string> => new Set(run(scene, 2).r.diag.list.map((d) => d.id));
  // No export at all: GFX11 hangs (the wave never releases; the model reports and releases at s_endpgm).
  assert.ok(ids(variant((l) => l.filter((x) => !/^exp /.test(x)))).has('pops.export.missing'));
  // OVERRIDE_INTRINSIC_RATE_ENABLE missing.
  assert.ok(ids(variant((l) => l, { DB_SHADER_CONTROL: setField('gfx11', 'DB_SHADER_CONTROL', 'PRIMITIVE_ORDERED_PIXEL_SHADER', 1) })).has('pops.config.rate-enable-missing'));
  // DB_Z_INFO.NUM_SAMPLES must equal MSAA_EXPOSED_SAMPLES (0 at 1x).
  assert.ok(ids(variant((l) => l, { DB_Z_INFO: setField('gfx11', 'DB_Z_INFO', 'NUM_SAMPLES', 2) })).has('pops.config.z-num-samples'));
  // Releasing with the store still outstanding.
  assert.ok(ids(variant((l) => l.filter((x) => !/^s_waitcnt_vscnt/.test(x)))).has('pops.exit.counters-outstanding'));
  // The GFX9/10 exit message (7, ORDERED_PS_DONE; gfx11 has no name for it) on GFX11.
  assert.ok(ids(variant((l) => l.map((x) => (/^s_wait_event/.test(x) ? 's_sendmsg sendmsg(7)' : x)))).has('pops.done-msg.gfx11'));
  assert.deepEqual([...ids(load())], []);
});

test('examples/pops-oit: statistics per draw and the --pops-trace Chrome trace from gpusim draw', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'pops-draw-'));
  const trace = join(dir, 't.json');
  let out = '';
  const io = { stdout: (s: string) => void (out += s), stderr: () => {}, isTTY: false };
  assert.equal(await main(['draw', join(EX, 'scene.json'), '--order', 'random', '--seed', '5', '--pops-trace', trace], io), 0);
  assert.match(out, /POPS draw\s+interlock\s+waves\s+overlapping\s+waited\s+blocked-polls\s+layers\s+depth/);
  const rows = out.split('\n').filter((l) => /^\s+\d+\s+pixel\s/.test(l));
  assert.equal(rows.length, 2);
  const t = JSON.parse(readFileSync(trace, 'utf8')) as { traceEvents: { name: string; ph: string; cat: string }[] };
  const cats = new Set(t.traceEvents.map((e) => e.cat));
  for (const c of ['wave', 'pops.ordered', 'pops.wait', 'pops.exit']) assert.ok(cats.has(c), `trace has ${c} events`);
  const { r } = run(load(), 5);
  for (const p of r.pops) {
    assert.ok(p.waves > 0 && p.overlappingWaves > 0 && p.overlappingWaves <= p.waves);
    assert.ok(p.serialisationDepth > 1, 'overlapping triangles serialise');
    assert.equal(p.intrawaveLayers, p.waves, 'GFX11 has no intrawave layers');
  }
});

test('GFX11 VRS: a POPS draw at a coarse rate without PA_SC_VRS_SURFACE_CNTL_1.FORCE_SC_VRS_RATE_FINE_POPS is reported; with it, quiet', () => {
  // The field is not in Mesa's JSON: tools/gen/amd/pops-regs-extra.json gives it, with its source.
  assert.deepEqual(POPS_REGS.gfx11.PA_SC_VRS_SURFACE_CNTL_1!.fields['FORCE_SC_VRS_RATE_FINE_POPS'], [7, 7]);
  assert.equal(POPS_REGS.gfx11.PA_SC_VRS_SURFACE_CNTL_1!.offset, null);
  const coarse = variant((l) => l, {
    PA_SC_VRS_OVERRIDE_CNTL: encodeFields(regDb('gfx11'), 'PA_SC_VRS_OVERRIDE_CNTL', { VRS_OVERRIDE_RATE_COMBINER_MODE: 'SC_VRS_COMB_MODE_OVERRIDE', VRS_RATE: 'VRS_SHADING_RATE_2X2' }),
  });
  assert.deepEqual([...new Set(run(coarse, 1).r.diag.list.map((d) => d.id))], ['pops.vrs.coarse-interlock']);
  const fine = setField('gfx11', 'PA_SC_VRS_SURFACE_CNTL_1', 'FORCE_SC_VRS_RATE_FINE_POPS', 1);
  assert.deepEqual(run(coarse, 1, 'random', fine).r.diag.list, []);
  // A 1x1 override requests no coarse rate.
  const one = variant((l) => l, {
    PA_SC_VRS_OVERRIDE_CNTL: encodeFields(regDb('gfx11'), 'PA_SC_VRS_OVERRIDE_CNTL', { VRS_OVERRIDE_RATE_COMBINER_MODE: 'SC_VRS_COMB_MODE_OVERRIDE', VRS_RATE: 'VRS_SHADING_RATE_1X1' }),
  });
  assert.deepEqual(run(one, 1).r.diag.list, []);
});

test('PopsDraw: a pipeline packer mapping wider than the generation folds onto its packers; overlapping quads split waves and load COLLISION_WAVEID', () => {
  const diag = new Diagnostics();
  const d = new PopsDraw({ gen: 'gfx9', diag, shaderEngines: 1, packerOf: () => [0, 3] });
  const regs = oitDrawRegs('gfx9', { samples: 1, interlock: 'pixel' });
  const st = d.begin(0, (r) => regs[r] ?? 0)!;
  assert.ok(st);
  const sp0 = { prim: { primId: 0 } } as unknown as SetupPrim;
  const sp1 = { prim: { primId: 1 } } as unknown as SetupPrim;
  const quads = [{ x: 0, y: 0, sp: sp0, coverage: Uint16Array.of(1, 1, 1, 1) }, { x: 0, y: 0, sp: sp1, coverage: Uint16Array.of(1, 0, 0, 0) }] as Quad[];
  const waves = d.pack(st, quads, 64, 16);
  assert.equal(waves.length, 2, 'the overlapping quad starts a new wave');
  const ids = waves.map((ps, i) => {
    const w = new Wave({ waveSize: 64, vgprs: 8, pc: 0, sharedBase: APERTURE.SHARED, privateBase: APERTURE.PRIVATE, mode: 0, status: 0 }, new Memory(), new Uint8Array(0), { wg: [i, 0, 0], waveInGroup: 0, id: i });
    assert.equal(d.launch(st, w, ps, 2, 0), 3);
    return decodeCollisionWaveId('gfx9', w.s[2]!);
  });
  assert.deepEqual(diag.list, []);
  assert.equal(ids[0]!.didOverlap, false);
  assert.deepEqual(ids[1], { didOverlap: true, packer: 1, newestOverlapped: ids[0]!.current, current: (ids[0]!.current + 1) & 0x3ff });
  assert.deepEqual(d.report().map((r) => [r.waves, r.overlappingWaves, r.serialisationDepth]), [[2, 1, 2]]);
});
