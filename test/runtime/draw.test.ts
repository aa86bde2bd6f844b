/**
 * The GFX11 draw pipeline end to end (scene -> PM4 -> CP -> NGG -> raster -> PS -> DB/CB), checked
 * against the independent reference rasterizer in draw-ref.ts: exact per-sample coverage with the
 * top-left rule for 1/2/4/8/16 samples, perspective-correct interpolation within 4e-6 absolute
 * (a few f32 ULPs of values in [0, 1]: I/J and P10/P20 are f32, the PS does two f32 FMAs),
 * depth and blending per sample, order independence, the PM4 golden of a draw stream, and
 * clear errors for bad scenes.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runScene, resolveTarget, SCENE_TARGETS, type SceneResult } from '../../src/runtime/draw-scene.js';
import { regDb } from '../../src/amd/cp/regdb.js';
import { encodeFields } from '../../src/amd/gfx/regs.js';
import { InputError } from '../../src/core/errors.js';
import { f16, f32 } from '../../src/core/float.js';
import { main } from '../../src/cli/main.js';
import { loadPng } from '../../src/cli/commands/draw.js';
import { refCovers, refInterp, refSample, refSetup, type RefVertex } from './draw-ref.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const EX = join(ROOT, 'examples/triangle');
const VS = readFileSync(join(EX, 'vs.s'), 'utf8').split('\n');
const PS = readFileSync(join(EX, 'ps.s'), 'utf8').split('\n');
/** A pixel shader writing attribute 0's x to an R32_FLOAT target. */
const PS_R = PS.map((l) => (l.startsWith('exp mrt0') ? 'exp mrt0 v6, off, off, off done' : l));
/** PS_R as wave64 text: its whole-quad-mode switch spelt for EXEC as an SGPR pair. */
const PS_R64 = PS_R.map((l) => l.replace(/^s_wqm_b32 exec_lo, exec_lo/, 's_wqm_b64 exec, exec'));
/** The same scene on gfx1030/gfx900 (`--gfx`): the hardware VS and a v_interp_p1/p2 pixel shader. */
const VS_LEGACY = readFileSync(join(EX, 'vs-legacy.s'), 'utf8').split('\n');
const PS_R_LEGACY = readFileSync(join(EX, 'ps-legacy.s'), 'utf8').split('\n').map((l) => (l.startsWith('exp mrt0') ? 'exp mrt0 v2, off, off, off done vm' : l));
const LEGACY_VS = { wave: 64, vgprs: 16, userData: [{ address: 'vertices' }] };

type Tri = [RefVertex, RefVertex, RefVertex];

function scene(tris: readonly Tri[], o: { samples?: number; w?: number; h?: number; format?: string; ps?: string[]; exportFormat?: string; depth?: Record<string, unknown>; state?: Record<string, unknown>; wave?: 32 | 64; clear?: number[] } = {}): Record<string, unknown> {
  const values: number[] = [];
  for (const t of tris) for (const v of t) values.push(v.x, v.y, v.z, v.w, ...[0, 1, 2, 3].map((c) => v.attr[c] ?? (c === 3 ? 1 : 0)));
  // The NGG shader stays wave32 (the assembler writes wave32 VOPC); the PS runs in either size.
  const wave = o.wave ?? 32;
  return {
    width: o.w ?? 32, height: o.h ?? 32, samples: o.samples ?? 1,
    targets: [{ format: o.format ?? 'R32_FLOAT', clear: o.clear ?? [0, 0, 0, 0] }],
    ...(o.depth ? { depth: o.depth } : {}),
    buffers: { vertices: { type: 'f32', values } },
    // Per-target overrides: the scene also runs on gfx1030/gfx900 (PS_R only; a custom PS is gfx1100 text).
    shaders: { vs: { source: VS, gfx1030: { source: VS_LEGACY }, gfx900: { source: VS_LEGACY } }, ps: o.ps ? { source: o.ps } : { source: wave === 64 ? PS_R64 : PS_R, gfx1030: { source: PS_R_LEGACY }, gfx900: { source: PS_R_LEGACY } } },
    vs: { shader: 'vs', wave: 32, vgprs: 24, userData: [{ buffer: 'vertices', stride: 32, format: '32_32_32_32_FLOAT' }, { attrRing: true }], gfx1030: LEGACY_VS, gfx900: LEGACY_VS },
    ps: { shader: 'ps', wave, vgprs: 16, inputs: [{ offset: 0 }], exportFormat: [o.exportFormat ?? 'SPI_SHADER_32_R'], gfx900: { wave: 64 } },
    state: o.state ?? {},
    draws: [{ topology: 'DI_PT_TRILIST', count: 3 * tris.length }],
  };
}

function clean(r: SceneResult): void {
  assert.deepEqual(r.diag.list.filter((d) => d.severity !== 'info').map((d) => `${d.id}: ${d.message}`), []);
  assert.equal(r.stats.aborted, false);
}

function sampleF32(r: SceneResult, x: number, y: number, s: number): number {
  const t = r.targets[0]!;
  return f32(r.mem.read32(t.va + ((y * r.width + x) * r.samples + s) * 4));
}

const v = (x: number, y: number, a: number[], z = 0.5, w = 1): RefVertex => ({ x: x * w, y: y * w, z: z * w, w, attr: a });

/** Seeded triangles (including ones sharing an edge and ones partly off screen). */
function triangles(seed: number, n: number): Tri[] {
  let s = seed >>> 0;
  const r = (): number => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
  const out: Tri[] = [];
  for (let i = 0; i < n; i++) {
    const a = v(r() * 2.4 - 1.2, r() * 2.4 - 1.2, [1]);
    const b = v(r() * 2.4 - 1.2, r() * 2.4 - 1.2, [1]);
    const c = v(r() * 2.4 - 1.2, r() * 2.4 - 1.2, [1]);
    out.push([a, b, c]);
  }
  // A quad split along its diagonal: the shared edge must be covered exactly once.
  out.push([v(-0.5, -0.5, [1]), v(0.5, -0.5, [1]), v(0.5, 0.5, [1])], [v(-0.5, -0.5, [1]), v(0.5, 0.5, [1]), v(-0.5, 0.5, [1])]);
  return out;
}

for (const samples of [1, 2, 4, 8, 16]) {
  test(`coverage: every sample matches the reference rasterizer (top-left rule, ${samples}x, additive so double coverage shows)`, () => {
    const tris = triangles(17 + samples, 5);
    const r = runScene(scene(tris, { samples, state: { blend: [{ enable: true, colorSrc: 'BLEND_ONE', colorDst: 'BLEND_ONE' }] } }));
    clean(r);
    const refs = tris.map((t) => refSetup(t, 32, 32));
    let covered = 0;
    for (let y = 0; y < 32; y++) {
      for (let x = 0; x < 32; x++) {
        for (let s = 0; s < samples; s++) {
          const [sx, sy] = refSample(x, y, samples, s);
          const want = refs.filter((t) => t && refCovers(t, sx, sy)).length;
          covered += want;
          assert.equal(sampleF32(r, x, y, s), want, `pixel (${x}, ${y}) sample ${s}`);
        }
      }
    }
    assert.ok(covered > 100, 'the scene covers samples');
  });
}

test('interpolation: perspective-correct attributes at pixel centres within 4e-6 of the reference', () => {
  const tri: Tri = [v(-0.9, -0.8, [0.1], 0.2, 1), v(0.9, -0.6, [0.9], 0.5, 3), v(-0.2, 0.9, [0.4], 0.7, 0.5)];
  for (const wave of [32, 64] as const) {
    const r = runScene(scene([tri], { wave }));
    clean(r);
    const t = refSetup(tri, 32, 32)!;
    let n = 0;
    for (let y = 0; y < 32; y++) {
      for (let x = 0; x < 32; x++) {
        const [sx, sy] = refSample(x, y, 1, 0);
        if (!refCovers(t, sx, sy)) {
          assert.equal(sampleF32(r, x, y, 0), 0);
          continue;
        }
        const want = refInterp(t, x + 0.5, y + 0.5, 0);
        const got = sampleF32(r, x, y, 0);
        assert.ok(Math.abs(got - want) <= 4e-6, `(${x}, ${y}) wave${wave}: ${got} vs ${want}`);
        n++;
      }
    }
    assert.ok(n > 50);
  }
});

const GENS = ['gfx1100', 'gfx1030', 'gfx900'] as const;

test('depth: FRAG_LESS keeps the nearer triangle per sample whatever the draw order (Z_32_FLOAT and Z_16) on gfx1100, gfx1030 and gfx900', () => {
  const near: Tri = [v(-0.9, -0.9, [1], 0.3), v(0.5, -0.9, [1], 0.3), v(-0.9, 0.5, [1], 0.3)];
  const far: Tri = [v(-0.5, -0.5, [2], 0.6), v(0.9, -0.5, [2], 0.6), v(0.9, 0.9, [2], 0.6)];
  for (const gfx of GENS) for (const format of ['Z_32_FLOAT', 'Z_16']) {
    for (const tris of [[near, far], [far, near]] as Tri[][]) {
      const r = runScene(scene(tris, { samples: 4, depth: { format, clear: 1 } }), '.', { gfx });
      clean(r);
      const [rn, rf] = [refSetup(near, 32, 32)!, refSetup(far, 32, 32)!];
      for (let y = 0; y < 32; y++) for (let x = 0; x < 32; x++) for (let s = 0; s < 4; s++) {
        const [sx, sy] = refSample(x, y, 4, s);
        const want = refCovers(rn, sx, sy) ? 1 : refCovers(rf, sx, sy) ? 2 : 0;
        assert.equal(sampleF32(r, x, y, s), want, `${gfx} ${format} (${x}, ${y}) s${s}`);
      }
      // The depth surface holds the nearer depth where covered.
      const d = r.depth!;
      const [sx, sy] = refSample(4, 4, 4, 0);
      assert.ok(refCovers(rn, sx, sy));
      const stored = format === 'Z_16' ? r.mem.read16(d.va + (4 * 32 + 4) * 4 * 2) / 65535 : f32(r.mem.read32(d.va + (4 * 32 + 4) * 4 * 4));
      assert.ok(Math.abs(stored - 0.3) < 1e-4, `${gfx} ${format}: stored depth ${stored}`);
    }
  }
});

test('stencil: a first draw writes REPLACE, a second draw passes only where FRAG_EQUAL holds, on gfx1100, gfx1030 and gfx900', () => {
  // Draw 1 (left half) writes stencil 7 (FRAG_ALWAYS, REPLACE); draw 2 (everything, in front)
  // tests FRAG_EQUAL 7 with its DB registers written before it (draws[1].registers, encoded with
  // each generation's own register layouts): it shows only where draw 1 wrote 7.
  const first: Tri = [v(-1, -1, [1]), v(0, -1, [1]), v(-1, 1, [1])];
  const all: Tri[] = [[v(-1, -1, [2], 0.4), v(3, -1, [2], 0.4), v(-1, 3, [2], 0.4)]];
  const [ra] = [refSetup(first, 32, 32)!];
  for (const gfx of GENS) {
    const db = regDb(SCENE_TARGETS[gfx].gen);
    const E = (r: string, f: Record<string, number | string>): number => encodeFields(db, r, f);
    const s = scene([first, ...all], { depth: { format: 'Z_32_FLOAT', clear: 1 }, state: { depthFunc: 'FRAG_ALWAYS', depthWrite: false, stencil: { func: 'FRAG_ALWAYS', pass: 'STENCIL_REPLACE_TEST', ref: 7 } } });
    s.draws = [{ topology: 'DI_PT_TRILIST', count: 3 }, {
      topology: 'DI_PT_TRILIST', count: 3, first: 3,
      registers: {
        DB_DEPTH_CONTROL: E('DB_DEPTH_CONTROL', { Z_ENABLE: 1, ZFUNC: 'FRAG_ALWAYS', STENCIL_ENABLE: 1, STENCILFUNC: 'FRAG_EQUAL' }),
        DB_STENCIL_CONTROL: E('DB_STENCIL_CONTROL', { STENCILFAIL: 'STENCIL_KEEP', STENCILZPASS: 'STENCIL_INVERT', STENCILZFAIL: 'STENCIL_KEEP' }),
        DB_STENCILREFMASK: E('DB_STENCILREFMASK', { STENCILTESTVAL: 7, STENCILMASK: 0xff, STENCILWRITEMASK: 0xff }),
      },
    }];
    // The second draw's vertices follow the first's in the buffer: draw them with an index buffer.
    (s.buffers as Record<string, unknown>).idx = { type: 'u16', values: [0, 1, 2, 3, 4, 5] };
    (s.draws as Record<string, unknown>[]).forEach((d) => { d.indices = 'idx'; });
    const r = runScene(s, '.', { gfx });
    clean(r);
    const sva = r.depth!.va + 32 * 32 * 4;
    let shown = 0;
    for (let y = 0; y < 32; y++) for (let x = 0; x < 32; x++) {
      const inFirst = refCovers(ra, ...refSample(x, y, 1, 0));
      assert.equal(sampleF32(r, x, y, 0), inFirst ? 2 : 0, `${gfx} colour (${x}, ${y})`);
      // Where draw 2 passed, its ZPASS op inverted 7 -> 0xf8; elsewhere the stencil is 0 (cleared).
      assert.equal(r.mem.read8(sva + y * 32 + x), inFirst ? 0xf8 : 0, `${gfx} stencil (${x}, ${y})`);
      if (inFirst) shown++;
    }
    assert.ok(shown > 100, `${gfx}: draw 1 covers pixels`);
  }
});

test('blending: SRC_ALPHA / ONE_MINUS_SRC_ALPHA into R8G8B8A8_UNORM and ONE/ONE into R16G16B16A16_FLOAT, per pixel', () => {
  const c = [1, 0.5, 0.25, 0.5];
  const t: Tri = [v(-1, -1, c), v(1, -1, c), v(-1, 1, c)];
  const ref = refSetup(t, 32, 32)!;
  const u = runScene(scene([t, t], { format: 'R8G8B8A8_UNORM', ps: PS, exportFormat: 'SPI_SHADER_32_ABGR', clear: [0, 0, 1, 1], state: { blend: [{ enable: true, colorSrc: 'BLEND_SRC_ALPHA', colorDst: 'BLEND_ONE_MINUS_SRC_ALPHA' }] } }));
  clean(u);
  const h = runScene(scene([t, t], { format: 'R16G16B16A16_FLOAT', ps: PS, exportFormat: 'SPI_SHADER_32_ABGR', clear: [0.125, 0, 0, 0], state: { blend: [{ enable: true, colorSrc: 'BLEND_ONE', colorDst: 'BLEND_ONE' }] } }));
  clean(h);
  // Two layers of the same colour: dst1 = c*a + dst0*(1-a) rounded to 8 bits, then again.
  // The reference blends in doubles, the CB in f32: UNORM8 results may differ by 1 LSB at ties.
  const q = (x: number): number => Math.floor(Math.min(1, Math.max(0, x)) * 255 + 0.5) / 255;
  const blendOnce = (d: number[]): number[] => d.map((dv, k) => q(c[k]! * c[3]! + dv * (1 - c[3]!)));
  const want = blendOnce(blendOnce([0, 0, 1, 1]).map((x) => x));
  for (let y = 0; y < 32; y++) for (let x = 0; x < 32; x++) {
    const [sx, sy] = refSample(x, y, 1, 0);
    const inside = refCovers(ref, sx, sy);
    const px = u.mem.read32(u.targets[0]!.va + (y * 32 + x) * 4);
    const got = [0, 1, 2, 3].map((k) => ((px >>> (8 * k)) & 0xff) / 255);
    const exp = (inside ? want : [0, 0, 1, 1]).map((g) => Math.round(g * 255));
    got.forEach((g, k) => assert.ok(Math.abs(Math.round(g * 255) - exp[k]!) <= 1, `unorm (${x}, ${y}) channel ${k}: ${Math.round(g * 255)} vs ${exp[k]}`));
    const a = h.targets[0]!.va + (y * 32 + x) * 8;
    const hv = [0, 1, 2, 3].map((k) => f16(h.mem.read16(a + 2 * k)));
    assert.deepEqual(hv, inside ? [2.125, 1, 0.5, 1] : [0.125, 0, 0, 0], `fp16 (${x}, ${y})`);
  }
});

test('images do not depend on the wave scheduling order or seed (outputs commit in rasterization order)', () => {
  const tris = triangles(5, 8);
  const s = scene(tris, { samples: 4, state: { blend: [{ enable: true, colorSrc: 'BLEND_ONE', colorDst: 'BLEND_ONE' }] } });
  const a = runScene(s, '.', { order: 'roundrobin' });
  const b = runScene(s, '.', { order: 'random', seed: 99 });
  assert.deepEqual(resolveTarget(a, a.targets[0]!), resolveTarget(b, b.targets[0]!));
  assert.equal(a.stats.psWaves, b.stats.psWaves);
});

test('indexed draws with primitive restart (DRAW_INDEX_2, 16-bit indices) and strips', () => {
  const quad = [v(-0.8, -0.8, [1]), v(0.8, -0.8, [1]), v(-0.8, 0.8, [1]), v(0.8, 0.8, [1])];
  const s = scene([], {});
  const values: number[] = [];
  for (const p of quad) values.push(p.x, p.y, p.z, p.w, 1, 0, 0, 1);
  s.buffers = { vertices: { type: 'f32', values }, idx: { type: 'u16', values: [0, 1, 2, 0xffff, 1, 3, 2] } };
  s.draws = [{ topology: 'DI_PT_TRILIST', indices: 'idx', count: 7, restart: 0xffff }];
  const r = runScene(s);
  clean(r);
  // The restart drops nothing here but splits the list: both triangles draw (1 + 2 prims, the
  // second run starts a fresh list of 3 indices).
  assert.equal(r.stats.primitives, 2);
  const strip = scene([], {});
  strip.buffers = s.buffers;
  strip.draws = [{ topology: 'DI_PT_TRISTRIP', count: 4 }];
  const r2 = runScene(strip);
  clean(r2);
  const t1 = refSetup([quad[0]!, quad[1]!, quad[2]!], 32, 32)!, t2 = refSetup([quad[1]!, quad[3]!, quad[2]!], 32, 32)!;
  for (let y = 0; y < 32; y++) for (let x = 0; x < 32; x++) {
    const [sx, sy] = refSample(x, y, 1, 0);
    const want = refCovers(t1, sx, sy) || refCovers(t2, sx, sy) ? 1 : 0;
    assert.equal(sampleF32(r2, x, y, 0), want, `strip (${x}, ${y})`);
    assert.equal(sampleF32(r, x, y, 0), want, `indexed (${x}, ${y})`);
  }
});

test('PS launch hook: every PS wave is handed over with its quads, packer and wave id; ids count per packer', () => {
  const seen: { id: number; packer: number; se: number; quads: number; sgpr: number }[] = [];
  const r = runScene(scene(triangles(3, 4), {}), '.', { onPsWave: (l) => seen.push({ id: l.psWaveId, packer: l.packer, se: l.se, quads: l.ps.quads.length, sgpr: l.wave.s[0]! }) });
  clean(r);
  assert.equal(seen.length, r.stats.psWaves);
  const per = new Map<string, number[]>();
  for (const s of seen) per.set(`${s.se}:${s.packer}`, [...(per.get(`${s.se}:${s.packer}`) ?? []), s.id]);
  for (const ids of per.values()) assert.deepEqual(ids, ids.map((_, i) => i));
  // PS_wave_id wraps at SPI_PS_MAX_WAVE_ID.
  const wrapped: number[] = [];
  runScene(scene(triangles(3, 4), {}), '.', { psMaxWaveId: 1, shaderEngines: 1, onPsWave: (l) => { if (l.se === 0 && l.packer === 0) wrapped.push(l.psWaveId); } });
  assert.ok(wrapped.length >= 3);
  assert.deepEqual(wrapped, wrapped.map((_, i) => i % 2));
});

test('pm4 golden: the triangle example\'s command stream decodes as recorded on each generation (NGG on gfx1100, hardware VS on gfx1030/gfx900)', async () => {
  const scenePath = join(EX, 'scene.json');
  const dir = mkdtempSync(join(tmpdir(), 'gpusim-draw-'));
  for (const [gfx, gen, name] of [['gfx1100', 'gfx11', 'gfx11-draw.txt'], ['gfx1030', 'gfx10.3', 'gfx103-draw.txt'], ['gfx900', 'gfx9', 'gfx9-draw.txt']] as const) {
    const bin = join(dir, `draw-${gfx}.pm4`);
    let out = '';
    const io = { stdout: (s: string) => void (out += s), stderr: () => {}, isTTY: false };
    assert.equal(await main(['draw', scenePath, '--gfx', gfx, '--pm4', bin], io), 0);
    assert.match(out, /1 draw\(s\), 1 primitive\(s\)/);
    const golden = join(ROOT, 'test/golden/pm4', name);
    let dec = '';
    assert.equal(await main(['pm4', 'decode', bin, '--gfx', gen], { ...io, stdout: (s: string) => void (dec += s) }), 0);
    // Addresses depend on allocation order only (deterministic), so the decode is stable.
    if (process.env['GPUSIM_ACCEPT_GOLDEN'] === '1') {
      mkdirSync(dirname(golden), { recursive: true });
      writeFileSync(golden, dec);
    }
    assert.equal(dec, readFileSync(golden, 'utf8'), `${gfx}: decode differs from ${name}`);
  }
});

test('gpusim draw --out writes the resolved first target as a PNG that decodes to the raw image', async () => {
  const { decode } = await loadPng();
  const dir = mkdtempSync(join(tmpdir(), 'gpusim-draw-'));
  const png = join(dir, 'out.png');
  const raw = join(dir, 'out.raw');
  assert.equal(await main(['draw', join(EX, 'scene.json'), '--out', png, '--raw', raw, '--order', 'random', '--seed', '4'], { stdout: () => {}, stderr: () => {}, isTTY: false }), 0);
  const img = decode(readFileSync(png));
  assert.equal(img.width, 64);
  assert.equal(img.height, 64);
  // One sample per pixel: the PNG is the raw R8G8B8A8 target byte for byte.
  assert.deepEqual(Buffer.from(img.data as Uint8Array), readFileSync(raw));
  assert.deepEqual(Buffer.from(img.data as Uint8Array), readFileSync(join(EX, 'triangle.raw')));
});

test('bad scenes: one clear error naming the field', () => {
  const ok = scene([[v(-1, -1, [1]), v(1, -1, [1]), v(-1, 1, [1])]]);
  const cases: [Record<string, unknown>, RegExp][] = [
    [{ ...ok, width: 0 }, /^width: /],
    [{ ...ok, samples: 3 }, /^samples: must be 1, 2, 4, 8 or 16/],
    [{ ...ok, targets: [{ format: 'R5G6B5' }] }, /^targets\[0\]\.format: /],
    [{ ...ok, draws: [{ topology: 'DI_PT_NOPE', count: 3 }] }, /^draws\[0\]\.topology: /],
    [{ ...ok, draws: [{ count: -1 }] }, /^draws\[0\]\.count: /],
    [{ ...ok, shaders: { vs: { source: ['v_bogus v0'] }, ps: { source: PS_R } } }, /^shaders\.vs: /],
    [{ ...ok, vs: { shader: 'nope' } }, /^vs\.shader: no shader 'nope'/],
    [{ ...ok, state: { blend: [{ enable: true, colorSrc: 'BLEND_TEAPOT' }] } }, /^state\.blend\[0\]: /],
    [{ ...ok, buffers: { vertices: { type: 'f64', values: [] } } }, /^buffers\.vertices\.type: /],
    [{ ...ok, gfx: 'gfx1010' }, /^gfx: /],
    [{ ...ok, draws: [{ topology: 'DI_PT_TRILIST', count: 3, registers: { DB_TEAPOT: 1 } }] }, /^draws\[0\]\.registers\.DB_TEAPOT: no such gfx1100 register/],
    [{ ...ok, ps: { ...(ok.ps as object), userData: [{ image: 'vertices', width: 64, height: 64, format: '32_FLOAT' }] } }, /^ps\.userData\[0\]\.image: buffer 'vertices' holds 96 bytes; a 64x64 image/],
    [{ ...ok, ps: { ...(ok.ps as object), userData: [{ image: 'vertices', width: 2, height: 2, levels: 3, format: '32_FLOAT' }] } }, /^ps\.userData\[0\]\.levels: /],
  ];
  for (const [s, re] of cases) {
    assert.throws(() => runScene(s), (e: unknown) => e instanceof InputError && re.test(e.message), `expected ${re}`);
  }
});

test('fuzzed scenes: random field damage gives an InputError or a clean run, never a crash', () => {
  let seed = 12345;
  const rnd = (): number => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32);
  const base = scene([[v(-1, -1, [1]), v(1, -1, [1]), v(-1, 1, [1])]]);
  const junk = [null, -1, 1e9, 'x', [], {}, 0.5, true, 17];
  for (let i = 0; i < 60; i++) {
    const s = JSON.parse(JSON.stringify(base)) as Record<string, unknown>;
    const keys = Object.keys(s);
    const k = keys[Math.floor(rnd() * keys.length)]!;
    const sub = s[k];
    if (sub && typeof sub === 'object' && !Array.isArray(sub) && rnd() < 0.5) {
      const sk = Object.keys(sub);
      if (sk.length) (sub as Record<string, unknown>)[sk[Math.floor(rnd() * sk.length)]!] = junk[Math.floor(rnd() * junk.length)];
    } else s[k] = junk[Math.floor(rnd() * junk.length)];
    try {
      runScene(s, '.', { maxInstructions: 100000 });
    } catch (e) {
      assert.ok(e instanceof InputError, `iteration ${i} (${k}): ${(e as Error).stack}`);
    }
  }
});

test('NGG rules: exports before GS_ALLOC_REQ, a missing GS_ALLOC_REQ and lanes past the allocation are diagnosed', () => {
  const t: Tri = [v(-1, -1, [1]), v(1, -1, [1]), v(-1, 1, [1])];
  const ids = (vs: string[]): string[] => {
    const s = scene([t]);
    (s.shaders as Record<string, unknown>).vs = { source: vs };
    return [...runScene(s).diag.counts.keys()];
  };
  // No GS_ALLOC_REQ at all: its exports come before any allocation.
  const noAlloc = VS.filter((l) => !l.startsWith('s_sendmsg'));
  assert.ok(ids(noAlloc).includes('amd.ngg.export-before-alloc'));
  assert.ok(ids(noAlloc).includes('amd.ngg.no-alloc-req'));
  // Allocate one vertex fewer than exported.
  const short = VS.map((l) => (l.startsWith('s_or_b32 m0') ? 's_or_b32 m0, s16, s18\ns_sub_u32 m0, m0, 1' : l));
  assert.ok(ids(short).includes('amd.ngg.export-past-alloc'));
  // A colour export from the primitive shader is the wrong stage.
  const mrt = VS.map((l) => (l.startsWith('exp pos0') ? `${l}\nexp mrt0 v10, v11, v12, v13` : l));
  assert.ok(ids(mrt).includes('amd.exp.target-stage'));
});

test('exp rules: EXEC == 0 skips an export unless done or pos0; a compute wave has no export sink', () => {
  // PS that clears EXEC before a non-done export, then exports done with EXEC restored.
  const t: Tri = [v(-1, -1, [1]), v(1, -1, [1]), v(-1, 1, [1])];
  const ps = PS_R.map((l) => (l.startsWith('exp mrt0') ? 's_mov_b32 s10, exec_lo\ns_mov_b32 exec_lo, 0\nexp mrt0 v6, off, off, off\ns_mov_b32 exec_lo, s10\nexp mrt0 v6, off, off, off done' : l));
  const r = runScene(scene([t], { ps }));
  clean(r);
  assert.equal(sampleF32(r, 2, 2, 0), 1);
  // Killing every lane before the only (done) export: the export still happens (done) but carries no lanes.
  const killed = PS_R.map((l) => (l.startsWith('exp mrt0') ? 's_mov_b32 exec_lo, 0\nexp mrt0 v6, off, off, off done' : l));
  const k = runScene(scene([t], { ps: killed }));
  clean(k);
  assert.equal(sampleF32(k, 2, 2, 0), 0);
});

test('PS VGPRs follow SPI_PS_INPUT_ADDR when it differs from ENA: I/J move to v2/v3 behind the unloaded PERSP_SAMPLE slot', () => {
  const tri: Tri = [v(-0.9, -0.8, [0.1], 0.2, 1), v(0.9, -0.6, [0.9], 0.5, 3), v(-0.2, 0.9, [0.4], 0.7, 0.5)];
  // The same interpolation as PS_R with I in v2 and J in v3 (temporaries moved to v8..).
  const ps = ['s_wqm_b32 exec_lo, exec_lo', 's_mov_b32 m0, s0', 'lds_param_load v8, attr0.x', 's_waitcnt expcnt(0)', 'v_interp_p10_f32 v9, v8, v2, v8', 'v_interp_p2_f32 v9, v8, v3, v9', 'exp mrt0 v9, off, off, off done', 's_endpgm'];
  const s = scene([tri], { ps });
  (s.ps as Record<string, unknown>).inputEna = ['PERSP_CENTER'];
  (s.ps as Record<string, unknown>).inputAddr = ['PERSP_SAMPLE', 'PERSP_CENTER'];
  const r = runScene(s);
  clean(r);
  const t = refSetup(tri, 32, 32)!;
  let n = 0;
  for (let y = 0; y < 32; y++) for (let x = 0; x < 32; x++) {
    const [sx, sy] = refSample(x, y, 1, 0);
    if (!refCovers(t, sx, sy)) continue;
    assert.ok(Math.abs(sampleF32(r, x, y, 0) - refInterp(t, x + 0.5, y + 0.5, 0)) <= 4e-6, `(${x}, ${y})`);
    n++;
  }
  assert.ok(n > 50);
  // ENA bits outside ADDR are diagnosed.
  (s.ps as Record<string, unknown>).inputAddr = ['PERSP_SAMPLE'];
  assert.ok(runScene(s).diag.counts.has('amd.spi.ps-input-ena-not-in-addr'));
});

test('instanced draws: NUM_INSTANCES runs the subgroups once per instance with InstanceID in v8', () => {
  // The NGG shader offsets x by InstanceID * 1.0 (clip space): two instances draw two copies.
  const vs = VS.map((l) => (l.startsWith('exp pos0') ? 'v_cvt_f32_u32 v21, v8\nv_add_f32 v10, v10, v21\nexp pos0 v10, v11, v12, v13' : l));
  const tri: Tri = [v(-1, -1, [1]), v(-0.2, -1, [1]), v(-1, 0, [1])];
  const s = scene([tri]);
  (s.shaders as Record<string, unknown>).vs = { source: vs };
  s.draws = [{ topology: 'DI_PT_TRILIST', count: 3, instances: 2 }];
  const r = runScene(s);
  clean(r);
  assert.equal(r.stats.primitives, 2);
  const t0 = refSetup(tri, 32, 32)!, t1 = refSetup(tri.map((p) => ({ ...p, x: p.x + 1 })) as unknown as Tri, 32, 32)!;
  for (let y = 0; y < 32; y++) for (let x = 0; x < 32; x++) {
    const [sx, sy] = refSample(x, y, 1, 0);
    assert.equal(sampleF32(r, x, y, 0), refCovers(t0, sx, sy) || refCovers(t1, sx, sy) ? 1 : 0, `(${x}, ${y})`);
  }
});
