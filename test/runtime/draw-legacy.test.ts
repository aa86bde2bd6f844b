/**
 * GFX9 (gfx900) and GFX10.3 (gfx1030) draws: the hardware VS stage, GFX10.3 NGG with `exp param`,
 * and the PS launch of both, checked against the independent reference rasterizer (draw-ref.ts)
 * and against the GFX11 pipeline on the same scene: per-sample coverage at 1/2/4/8/16 samples, NGG and
 * legacy images identical on gfx1030, the LDS parameter preload equal on all three generations,
 * InstanceID in each generation's VS VGPR, primitive restart, and each legacy-VS diagnostic firing
 * and staying quiet.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runScene, type SceneResult } from '../../src/runtime/draw-scene.js';
import { f16, f32 } from '../../src/core/float.js';
import { InputError } from '../../src/core/errors.js';
import { refCovers, refInterp, refSample, refSetup, type RefVertex } from './draw-ref.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const VS11 = readFileSync(join(ROOT, 'examples/triangle/vs.s'), 'utf8').split('\n');

/** Hardware VS (gfx900 and gfx1030 assemble the same text): s[0:1] vertex buffer, v0 VertexID. */
const VS = [
  'v_lshlrev_b32 v1, 5, v0',
  'global_load_dwordx4 v[4:7], v1, s[0:1]',
  'global_load_dwordx4 v[8:11], v1, s[0:1] offset:16',
  's_waitcnt vmcnt(0)',
  'exp param0 v8, v9, v10, v11',
  'exp pos0 v4, v5, v6, v7 done',
  's_endpgm',
];
/** GFX10.3 NGG primitive shader: v0 = vertex 0 | vertex 1 << 16, v1 = vertex 2, v5 VertexID, s[8:9] vertex buffer. */
const NGG10 = [
  's_bfe_u32 s16, s3, 0x80000', 's_bfe_u32 s17, s3, 0x80008', 's_lshl_b32 s18, s17, 12', 's_or_b32 m0, s16, s18',
  's_sendmsg sendmsg(MSG_GS_ALLOC_REQ)',
  's_mov_b32 s19, exec_lo', 'v_mbcnt_lo_u32_b32 v20, -1, 0', 'v_cmp_gt_u32_e32 vcc_lo, s16, v20', 's_and_b32 exec_lo, s19, vcc_lo',
  'v_lshlrev_b32 v21, 5, v5',
  'global_load_dwordx4 v[10:13], v21, s[8:9]', 'global_load_dwordx4 v[14:17], v21, s[8:9] offset:16', 's_waitcnt vmcnt(0)',
  'exp pos0 v10, v11, v12, v13 done', 'exp param0 v14, v15, v16, v17',
  's_mov_b32 exec_lo, s19', 'v_cmp_gt_u32_e32 vcc_lo, s17, v20', 's_and_b32 exec_lo, s19, vcc_lo',
  'v_and_b32 v22, 0xffff, v0', 'v_lshrrev_b32 v23, 16, v0', 'v_lshl_or_b32 v22, v23, 10, v22', 'v_lshl_or_b32 v22, v1, 20, v22',
  'exp prim v22, off, off, off done',
  's_endpgm',
];
/** A PS writing 1.0 (coverage counting with ONE/ONE blending). */
const PS_ONE = { gfx1100: { source: ['v_mov_b32 v2, 1.0', 'exp mrt0 v2, v2, v2, v2 done', 's_endpgm'] }, gfx1030: { source: ['v_mov_b32 v2, 1.0', 'exp mrt0 v2, v2, v2, v2 done vm', 's_endpgm'] }, gfx900: { source: ['v_mov_b32 v2, 1.0', 'exp mrt0 v2, v2, v2, v2 done vm', 's_endpgm'] } };

type Tri = [RefVertex, RefVertex, RefVertex];
const v = (x: number, y: number, a: number[], z = 0.5, w = 1): RefVertex => ({ x: x * w, y: y * w, z: z * w, w, attr: a });

function triangles(seed: number, n: number): Tri[] {
  let s = seed >>> 0;
  const r = (): number => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
  const out: Tri[] = [];
  for (let i = 0; i < n; i++) out.push([0, 1, 2].map(() => v(r() * 2.4 - 1.2, r() * 2.4 - 1.2, [r(), r(), r(), 1], r(), 0.5 + r())) as Tri);
  out.push([v(-0.5, -0.5, [1]), v(0.5, -0.5, [1]), v(0.5, 0.5, [1])], [v(-0.5, -0.5, [1]), v(0.5, 0.5, [1]), v(-0.5, 0.5, [1])]);
  return out;
}

interface Opts { samples?: number; vsWave?: 32 | 64; psWave?: 32 | 64; ngg?: boolean; vs?: string[]; ps?: Record<string, unknown>; state?: Record<string, unknown>; draws?: unknown[]; instances?: number; params?: number }

/** One scene for every generation: per-target keys pick the shaders and the stage setup. */
function scene(tris: readonly Tri[], o: Opts = {}): Record<string, unknown> {
  const values: number[] = [];
  for (const t of tris) for (const p of t) values.push(p.x, p.y, p.z, p.w, ...[0, 1, 2, 3].map((c) => p.attr[c] ?? (c === 3 ? 1 : 0)));
  return {
    width: 32, height: 32, samples: o.samples ?? 1,
    targets: [{ format: 'R32_FLOAT', clear: [0, 0, 0, 0] }],
    buffers: { vertices: { type: 'f32', values } },
    shaders: {
      vs: { gfx1100: { source: VS11 }, gfx1030: { source: o.vs ?? (o.ngg ? NGG10 : VS) }, gfx900: { source: o.vs ?? VS } },
      ps: o.ps ?? PS_ONE,
    },
    params: o.params ?? 1,
    vs: {
      shader: 'vs', wave: o.vsWave ?? 64, vgprs: 32, userData: [{ address: 'vertices' }],
      gfx1100: { wave: 32, userData: [{ buffer: 'vertices', stride: 32, format: '32_32_32_32_FLOAT' }, { attrRing: true }] },
      ...(o.ngg ? { gfx1030: { ngg: true, wave: 32 } } : {}),
    },
    ps: { shader: 'ps', wave: o.psWave ?? 64, vgprs: 16, inputs: [{ offset: 0 }], exportFormat: ['SPI_SHADER_32_R'], gfx900: { wave: 64 } },
    state: { blend: [{ enable: true, colorSrc: 'BLEND_ONE', colorDst: 'BLEND_ONE' }], ...(o.state ?? {}) },
    draws: o.draws ?? [{ topology: 'DI_PT_TRILIST', count: 3 * tris.length, ...(o.instances ? { instances: o.instances } : {}) }],
  };
}

function clean(r: SceneResult): void {
  assert.deepEqual(r.diag.list.filter((d) => d.severity !== 'info').map((d) => `${d.id}: ${d.message}`), []);
  assert.equal(r.stats.aborted, false);
}

function sampleF32(r: SceneResult, x: number, y: number, s: number): number {
  return f32(r.mem.read32(r.targets[0]!.va + ((y * r.width + x) * r.samples + s) * 4));
}

function targetWords(r: SceneResult): number[] {
  const t = r.targets[0]!;
  return Array.from({ length: r.width * r.height * r.samples }, (_, i) => r.mem.read32(t.va + 4 * i));
}

const PATHS: { name: string; gfx: string; o: Opts }[] = [
  { name: 'gfx900 VS wave64', gfx: 'gfx900', o: {} },
  { name: 'gfx1030 VS wave64, PS wave64', gfx: 'gfx1030', o: {} },
  { name: 'gfx1030 VS wave32, PS wave32', gfx: 'gfx1030', o: { vsWave: 32, psWave: 32 } },
  { name: 'gfx1030 NGG wave32', gfx: 'gfx1030', o: { ngg: true, psWave: 32 } },
];

for (const samples of [1, 2, 4, 8, 16]) {
  test(`coverage on gfx900/gfx1030 (legacy VS and NGG) matches the reference rasterizer per sample at ${samples}x, and the gfx1100 image`, () => {
    const tris = triangles(31 + samples, 6);
    const refs = tris.map((t) => refSetup(t, 32, 32));
    const gfx11 = runScene(scene(tris, { samples }), '.', { gfx: 'gfx1100' });
    clean(gfx11);
    const want11 = targetWords(gfx11);
    for (const p of PATHS) {
      const r = runScene(scene(tris, { ...p.o, samples }), '.', { gfx: p.gfx });
      clean(r);
      let covered = 0;
      for (let y = 0; y < 32; y++) for (let x = 0; x < 32; x++) for (let s = 0; s < samples; s++) {
        const [sx, sy] = refSample(x, y, samples, s);
        const want = refs.filter((t) => t && refCovers(t, sx, sy)).length;
        covered += want;
        assert.equal(sampleF32(r, x, y, s), want, `${p.name}: pixel (${x}, ${y}) sample ${s}`);
      }
      assert.ok(covered > 100);
      assert.deepEqual(targetWords(r), want11, `${p.name}: same samples as gfx1100`);
    }
  });
}

test('the LDS parameter preload of every PS wave is the same on gfx1100 (attribute ring), gfx1030 (VS and NGG param exports) and gfx900', () => {
  const tris = triangles(5, 4);
  const lds = (gfx: string, o: Opts): string[] => {
    const got: string[] = [];
    // The parameters, without the allocation's zero tail (its block is 512 bytes on GFX9, 1 KiB on GFX10.3/GFX11).
    const r = runScene(scene(tris, { ...o, psWave: 64 }), '.', { gfx, onPsWave: (l) => { got.push(Buffer.from(l.wave.lds).toString('hex').replace(/(00)+$/, '')); } });
    clean(r);
    return got;
  };
  const want = lds('gfx1100', {});
  assert.ok(want.length > 2);
  // The preload holds the triangles' colours: P0 of the first input of wave 0 is a vertex colour.
  assert.ok(want.some((h) => /[^0]/.test(h.slice(0, 32))));
  assert.deepEqual(lds('gfx900', {}), want);
  assert.deepEqual(lds('gfx1030', {}), want);
  assert.deepEqual(lds('gfx1030', { ngg: true }), want);
});

test('NUM_INSTANCES: InstanceID reaches the hardware VS in v1 (gfx900) and v3 (gfx1030); the instance moves right by half the screen', () => {
  const tri: Tri = [v(-0.9, -0.5, [1]), v(-0.2, -0.5, [1]), v(-0.5, 0.5, [1])];
  const moved: Tri = tri.map((p) => ({ ...p, x: p.x + 1 })) as Tri;
  const vsWith = (reg: string): string[] => [`v_cvt_f32_u32 v12, ${reg}`, ...VS.slice(0, 4), 'v_add_f32 v4, v4, v12', ...VS.slice(4)];
  const refs = [refSetup(tri, 32, 32)!, refSetup(moved, 32, 32)!];
  for (const [gfx, reg] of [['gfx900', 'v1'], ['gfx1030', 'v3']] as const) {
    const r = runScene(scene([tri], { vs: vsWith(reg), instances: 2 }), '.', { gfx });
    clean(r);
    for (let y = 0; y < 32; y++) for (let x = 0; x < 32; x++) {
      const [sx, sy] = refSample(x, y, 1, 0);
      assert.equal(sampleF32(r, x, y, 0), refs.filter((t) => refCovers(t, sx, sy)).length, `${gfx} (${x}, ${y})`);
    }
    assert.equal(r.stats.gsWaves, 2);
  }
});

test('indexed strips with primitive restart draw the same samples on all three generations (GFX9 enables restart in VGT_MULTI_PRIM_IB_RESET_EN)', () => {
  const tris = triangles(9, 2);
  const s = scene(tris);
  (s.buffers as Record<string, unknown>).indices = { type: 'u16', values: [0, 1, 2, 3, 65535, 4, 5, 6, 7] };
  s.draws = [{ topology: 'DI_PT_TRISTRIP', indices: 'indices', count: 9, restart: 65535 }];
  const words = ['gfx1100', 'gfx1030', 'gfx900'].map((gfx) => {
    const r = runScene(s, '.', { gfx });
    clean(r);
    assert.equal(r.stats.primitives, 4, gfx);
    return targetWords(r);
  });
  assert.ok(words[0]!.some((w) => w !== 0));
  assert.deepEqual(words[1], words[0]);
  assert.deepEqual(words[2], words[0]);
});

test('legacy VS diagnostics fire on their rule and stay quiet on the clean scene', () => {
  const tris = triangles(3, 1);
  const ids = (gfx: string, o: Opts): string[] => [...new Set(runScene(scene(tris, o), '.', { gfx }).diag.list.map((d) => d.id))].sort();
  for (const gfx of ['gfx900', 'gfx1030']) {
    assert.deepEqual(ids(gfx, {}), [], `${gfx} clean`);
    assert.ok(ids(gfx, { vs: [...VS.slice(0, 4), 'exp param1 v8, v9, v10, v11', ...VS.slice(5)] }).includes('amd.vs.param-past-export-count'));
    assert.deepEqual(ids(gfx, { vs: VS.map((l) => l.replace('v7 done', 'v7')) }), ['amd.vs.no-pos-done']);
    // Lane 1 skips its position export: the primitive using it is dropped.
    // (the assembler writes gfx1030 VOPC for wave32, so that VS runs wave32)
    const skip = gfx === 'gfx900'
      ? ['v_mbcnt_lo_u32_b32 v20, -1, 0', 'v_cmp_ne_u32_e64 s[4:5], 1, v20', ...VS.slice(0, 5), 's_mov_b64 exec, s[4:5]', ...VS.slice(5)]
      : ['v_mbcnt_lo_u32_b32 v20, -1, 0', 'v_cmp_ne_u32_e64 s4, 1, v20', ...VS.slice(0, 5), 's_mov_b32 exec_lo, s4', ...VS.slice(5)];
    assert.ok(ids(gfx, { vs: skip, vsWave: gfx === 'gfx900' ? 64 : 32 }).includes('amd.vs.vertex-not-exported'), `${gfx} vertex-not-exported`);
    assert.ok(ids(gfx, { state: { registers: { SPI_SHADER_POS_FORMAT: 0 } } }).includes('amd.vs.pos0-format-none'));
    assert.ok(ids(gfx, { state: { registers: { SPI_SHADER_PGM_RSRC2_VS: 1 << 12 } } }).includes('amd.vs.streamout-not-modelled'));
    assert.ok(ids(gfx, { vs: [...VS.slice(0, 4), 'exp mrt0 v8, v9, v10, v11', ...VS.slice(5)] }).includes('amd.exp.target-stage'));
    assert.ok(ids(gfx, { state: { registers: { SPI_PS_INPUT_CNTL_0: 1 << 17 } } }).includes('amd.spi.ps-input-unsupported'));
    assert.deepEqual(ids(gfx, { state: { registers: { PA_CL_VS_OUT_CNTL: 1 << 16 } } }), ['amd.pa.vs-out-cntl-not-modelled']);
    // A legacy GS pipeline (GS_EN) is recorded, not run.
    const gs = runScene(scene(tris, { state: { registers: { VGT_SHADER_STAGES_EN: 1 << 5 } } }), '.', { gfx });
    assert.ok(gs.diag.counts.has('amd.draw.gen-not-executed'));
    assert.equal(gs.stats.draws, 0);
  }
  assert.ok(ids('gfx1030', { ngg: true, vs: NGG10.map((l) => l.replace('exp param0', 'exp param3')) }).includes('amd.vs.param-past-export-count'));
});

const PS_LEGACY = readFileSync(join(ROOT, 'examples/triangle/ps-legacy.s'), 'utf8').split('\n');
/** The example's PS exporting only the interpolated x (R32_FLOAT). */
const PS_R = PS_LEGACY.map((l) => (l.startsWith('exp mrt0') ? 'exp mrt0 v2, off, off, off done vm' : l));
const PS_R11 = readFileSync(join(ROOT, 'examples/triangle/ps.s'), 'utf8').split('\n').map((l) => (l.startsWith('exp mrt0') ? 'exp mrt0 v6, off, off, off done' : l));
/** gfx1100 wave32 text read as wave64 (this file's PS default): its whole-quad-mode switch spelt for EXEC as a pair. */
const wqm64 = (lines: string[]): string[] => lines.map((l) => l.replace(/^s_wqm_b32 exec_lo, exec_lo/, 's_wqm_b64 exec, exec'));
const PS_R11_W64 = wqm64(PS_R11);

test('interpolation on gfx900/gfx1030 (v_interp_p1/p2 from the preloaded LDS): perspective-correct within 4e-6 of the reference, NGG and legacy identical', () => {
  const tri: Tri = [v(-0.9, -0.8, [0.1], 0.2, 1), v(0.9, -0.6, [0.9], 0.5, 3), v(-0.2, 0.9, [0.4], 0.7, 0.5)];
  const t = refSetup(tri, 32, 32)!;
  const ps = { gfx1100: { source: PS_R11 }, gfx1030: { source: PS_R }, gfx900: { source: PS_R } };
  const state = { blend: [{ enable: false }] };
  const images: number[][] = [];
  for (const [gfx, o] of [['gfx900', {}], ['gfx1030', {}], ['gfx1030', { psWave: 32 }], ['gfx1030', { ngg: true }], ['gfx1030', { ngg: true, psWave: 32 }], ['gfx1100', { psWave: 32 }]] as const) {
    const r = runScene(scene([tri], { ...o, ps, state }), '.', { gfx });
    clean(r);
    let n = 0;
    for (let y = 0; y < 32; y++) for (let x = 0; x < 32; x++) {
      const [sx, sy] = refSample(x, y, 1, 0);
      const got = sampleF32(r, x, y, 0);
      if (!refCovers(t, sx, sy)) {
        assert.equal(got, 0);
        continue;
      }
      const want = refInterp(t, x + 0.5, y + 0.5, 0);
      assert.ok(Math.abs(got - want) <= 4e-6, `${gfx} ${JSON.stringify(o)} (${x}, ${y}): ${got} vs ${want}`);
      n++;
    }
    assert.ok(n > 50);
    images.push(targetWords(r));
  }
  for (const img of images) assert.deepEqual(img, images[images.length - 1], 'the same f32 results as gfx1100');
});

test('FLAT_SHADE: v_interp_mov_f32 p0 reads the provoking vertex (first, or last with PROVOKING_VTX_LAST) on gfx900 and gfx1030', () => {
  const tri: Tri = [v(-0.9, -0.8, [0.25]), v(0.9, -0.6, [0.5]), v(-0.2, 0.9, [0.75])];
  const ps = ['s_mov_b32 m0, s0', 'v_interp_mov_f32 v2, p0, attr0.x', 'exp mrt0 v2, off, off, off done vm', 's_endpgm'];
  for (const gfx of ['gfx900', 'gfx1030']) {
    for (const last of [false, true]) {
      const s = scene([tri], { ps: { source: ps }, state: { blend: [{ enable: false }], provokingLast: last } });
      (s.ps as Record<string, unknown>).inputs = [{ offset: 0, flat: true }];
      const r = runScene(s, '.', { gfx });
      clean(r);
      assert.equal(sampleF32(r, 12, 12, 0), last ? 0.75 : 0.25, `${gfx} provokingLast=${last}`);
    }
  }
});

test('the examples render the same bytes on gfx1100, gfx1030 (hardware VS and NGG) and gfx900, and gpusim draw --gfx writes their committed PNGs', async () => {
  const { main } = await import('../../src/cli/main.js');
  const { loadPng } = await import('../../src/cli/commands/draw.js');
  const { decode } = await loadPng();
  const dir = mkdtempSync(join(tmpdir(), 'gpusim-legacy-'));
  for (const ex of ['triangle', 'msaa', 'blend', 'texture']) {
    const file = join(ROOT, 'examples', ex, 'scene.json');
    const sj = JSON.parse(readFileSync(file, 'utf8')) as Record<string, Record<string, unknown>>;
    const raws = ['gfx1100', 'gfx1030', 'gfx900'].map((gfx) => {
      const r = runScene(sj, join(ROOT, 'examples', ex), { gfx });
      clean(r);
      return targetWords(r);
    });
    // GFX10.3 NGG: the same scene with the NGG shader.
    const ngg = structuredClone(sj);
    (ngg.shaders!.vs as Record<string, unknown>).gfx1030 = { asm: '../triangle/vs-ngg-gfx1030.s' };
    (ngg.vs as Record<string, unknown>).gfx1030 = { ngg: true, wave: 32, vgprs: 32, userData: [{ address: 'vertices' }] };
    const rn = runScene(ngg, join(ROOT, 'examples', ex), { gfx: 'gfx1030' });
    clean(rn);
    assert.ok(rn.stats.gsWaves >= 1);
    raws.push(targetWords(rn));
    for (const w of raws.slice(1)) assert.deepEqual(w, raws[0], ex);
    for (const gfx of ['gfx1030', 'gfx900']) {
      const out: string[] = [];
      const tmp = join(dir, `${ex}-${gfx}.png`);
      const code = await main(['draw', file, '--gfx', gfx, '--out', tmp], { stdout: (s: string) => void out.push(s), stderr: (s: string) => void out.push(s), isTTY: false });
      assert.equal(code, 0, out.join(''));
      const got = decode(readFileSync(tmp));
      const want = decode(readFileSync(join(ROOT, 'examples', ex, `${ex}-${gfx}.png`)));
      assert.deepEqual(Array.from(got.data), Array.from(want.data), `${ex} ${gfx}`);
    }
  }
});

test('PS launch on gfx900/gfx1030: PS_wave_id counts per packer (2 packers per SE on GFX9, 4 on GFX10.3); WAVE_CNT_EN puts {PS_wave_id, PS_wave_index} after PRIM_MASK', () => {
  const tris = triangles(3, 6);
  for (const [gfx, packers] of [['gfx900', 2], ['gfx1030', 4]] as const) {
    const seen: { id: number; packer: number; se: number; next: number; s1: number }[] = [];
    const s = scene(tris);
    (s.ps as Record<string, unknown>).waveCount = true;
    const r = runScene(s, '.', { gfx, onPsWave: (l) => void seen.push({ id: l.psWaveId, packer: l.packer, se: l.se, next: l.nextSgpr, s1: l.wave.s[1]! }) });
    clean(r);
    assert.equal(seen.length, r.stats.psWaves);
    const used = new Set(seen.map((x) => x.packer));
    assert.equal(Math.max(...used), packers - 1, `${gfx}: packers ${[...used]}`);
    const per = new Map<string, number[]>();
    for (const x of seen) per.set(`${x.se}:${x.packer}`, [...(per.get(`${x.se}:${x.packer}`) ?? []), x.id]);
    for (const ids of per.values()) assert.deepEqual(ids, ids.map((_, i) => i));
    for (const x of seen) {
      assert.equal(x.next, 2);
      assert.equal(x.s1, ((x.id << 6) | (x.se * packers + x.packer)) >>> 0);
    }
    // PS_wave_id wraps at SPI_PS_MAX_WAVE_ID (here 2: ids 0, 1, 2, 0, ...), also in the SGPR.
    const wrapped: { id: number; s1: number }[] = [];
    runScene(s, '.', { gfx, psMaxWaveId: 2, shaderEngines: 1, onPsWave: (l) => { if (l.packer === 0) wrapped.push({ id: l.psWaveId, s1: l.wave.s[1]! }); } });
    assert.ok(wrapped.length >= 4, `${gfx}: ${wrapped.length} waves on packer 0`);
    assert.deepEqual(wrapped.map((x) => x.id), wrapped.map((_, i) => i % 3));
    assert.deepEqual(wrapped.map((x) => x.s1), wrapped.map((_, i) => (i % 3) << 6));
  }
});

test('occlusion queries on all three generations: ZPASS counts equal the reference rasterizer\'s passing samples; ZPASS predication skips or runs draws', () => {
  // One vertex buffer, drawn by index ranges: an occluder quad (z 0.3), a triangle hidden behind
  // it (z 0.6), a triangle in front (z 0.1), then three small predicated triangles (z 0.05) in
  // separate corners, each writing its own attribute value.
  const sq = (x0: number, y0: number, x1: number, y1: number, z: number, a: number): Tri[] => [
    [v(x0, y0, [a], z), v(x1, y0, [a], z), v(x1, y1, [a], z)], [v(x0, y0, [a], z), v(x1, y1, [a], z), v(x0, y1, [a], z)]];
  const corner = (cx: number, cy: number, a: number): Tri => [v(cx - 0.15, cy - 0.15, [a], 0.05), v(cx + 0.15, cy - 0.15, [a], 0.05), v(cx, cy + 0.15, [a], 0.05)];
  const occluder = sq(-0.6, -0.6, 0.6, 0.6, 0.3, 0.25);
  const hidden: Tri = [v(-0.4, -0.4, [0.5], 0.6), v(0.3, -0.3, [0.5], 0.6), v(0, 0.4, [0.5], 0.6)];
  const front: Tri = [v(-0.1, -0.9, [0.75], 0.1), v(0.9, -0.2, [0.75], 0.1), v(0.2, 0.5, [0.75], 0.1)];
  const tris = [...occluder, hidden, front, corner(-0.8, -0.8, 2), corner(0.8, 0.8, 3), corner(-0.8, 0.8, 4)];
  const ps = { gfx1100: { source: PS_R11_W64 }, gfx1030: { source: PS_R }, gfx900: { source: PS_R } };
  const range = (first: number, n: number, extra: Record<string, unknown> = {}): Record<string, unknown> => ({ topology: 'DI_PT_TRILIST', indices: 'indices', first: 3 * first, count: 3 * n, ...extra });
  const draws = [
    range(0, 2), range(2, 1, { occlusionQuery: 'hidden' }), range(3, 1, { occlusionQuery: 'front' }),
    range(4, 1, { predicate: { query: 'hidden' } }), range(5, 1, { predicate: { query: 'front' } }), range(6, 1, { predicate: { query: 'hidden', drawIfVisible: false } }),
  ];
  const samples = 4;
  const refFront = refSetup(front, 32, 32)!;
  let want = 0;
  for (let y = 0; y < 32; y++) for (let x = 0; x < 32; x++) for (let s = 0; s < samples; s++) {
    const [sx, sy] = refSample(x, y, samples, s);
    if (refCovers(refFront, sx, sy)) want++;
  }
  assert.ok(want > 100);
  const centre = (t: Tri): [number, number] => [Math.floor(((t[0].x + t[1].x + t[2].x) / 3 + 1) * 16), Math.floor(((t[0].y + t[1].y + t[2].y) / 3 + 1) * 16)];
  for (const [gfx, rbs] of [['gfx1100', 4], ['gfx1030', 4], ['gfx900', 4], ['gfx1100', 1], ['gfx900', 3]] as const) {
    const s = scene(tris, { samples, ps, state: { blend: [{ enable: false }], depthFunc: 'FRAG_LESS', depthWrite: true }, draws });
    s.depth = { format: 'Z_32_FLOAT', clear: 1 };
    (s.buffers as Record<string, unknown>).indices = { type: 'u16', values: tris.flatMap((_, i) => [3 * i, 3 * i + 1, 3 * i + 2]) };
    const r = runScene(s, '.', { gfx, renderBackends: rbs });
    clean(r);
    assert.equal(r.queries.get('hidden')!.samples, 0, `${gfx}/${rbs} RBs: the hidden triangle passes no sample`);
    assert.equal(r.queries.get('front')!.samples, want, `${gfx}/${rbs} RBs: every sample of the front triangle passes`);
    assert.equal(r.stats.draws, 5, `${gfx}: the draw predicated on the hidden query is discarded`);
    const [ax, ay] = centre(tris[4]!), [bx, by] = centre(tris[5]!), [cx, cy] = centre(tris[6]!);
    assert.equal(sampleF32(r, ax, ay, 0), 0, `${gfx}: predicated on 'hidden' (draw if visible) not drawn`);
    assert.equal(sampleF32(r, bx, by, 0), 3, `${gfx}: predicated on 'front' drawn`);
    assert.equal(sampleF32(r, cx, cy, 0), 4, `${gfx}: predicated on 'hidden' (draw if not visible) drawn`);
  }
  // Bad query references name the field.
  const bad = scene(tris, { draws: [range(0, 1, { predicate: { query: 'nope' } })] });
  (bad.buffers as Record<string, unknown>).indices = { type: 'u16', values: [0, 1, 2] };
  assert.throws(() => runScene(bad, '.', { gfx: 'gfx900' }), /draws\[0\]\.predicate\.query: no earlier draw has occlusionQuery 'nope'/);
});

test('SPI_PS_INPUT_ADDR != ENA on gfx900/gfx1030: PERSP_SAMPLE reserved in ADDR moves I/J to v2/v3; interpolation still matches the reference', () => {
  const tri: Tri = [v(-0.9, -0.8, [0.1], 0.2, 1), v(0.9, -0.6, [0.9], 0.5, 3), v(-0.2, 0.9, [0.4], 0.7, 0.5)];
  const t = refSetup(tri, 32, 32)!;
  const ps = ['s_mov_b32 m0, s0', 'v_interp_p1_f32 v6, v2, attr0.x', 'v_interp_p2_f32 v6, v3, attr0.x', 'exp mrt0 v6, off, off, off done vm', 's_endpgm'];
  for (const gfx of ['gfx900', 'gfx1030']) {
    const s = scene([tri], { ps: { source: ps }, state: { blend: [{ enable: false }] } });
    Object.assign(s.ps as Record<string, unknown>, { inputEna: ['PERSP_CENTER'], inputAddr: ['PERSP_SAMPLE', 'PERSP_CENTER'] });
    const r = runScene(s, '.', { gfx });
    clean(r);
    let n = 0;
    for (let y = 0; y < 32; y++) for (let x = 0; x < 32; x++) {
      const [sx, sy] = refSample(x, y, 1, 0);
      if (!refCovers(t, sx, sy)) continue;
      assert.ok(Math.abs(sampleF32(r, x, y, 0) - refInterp(t, x + 0.5, y + 0.5, 0)) <= 4e-6, `${gfx} (${x}, ${y})`);
      n++;
    }
    assert.ok(n > 50);
    (s.ps as Record<string, unknown>).inputAddr = ['PERSP_SAMPLE'];
    assert.ok(runScene(s, '.', { gfx }).diag.counts.has('amd.spi.ps-input-ena-not-in-addr'), `${gfx}: ENA outside ADDR`);
  }
});

test('rect lists (DI_PT_RECTLIST) draw the implied fourth corner on all three generations: every sample of the rectangle once', () => {
  // Rect corners v0 (top-left), v1 (top-right), v2 (bottom-left); v3 = v1 + v2 - v0 is implied.
  const rects: Tri[] = [[v(-0.83, -0.71, [1]), v(0.41, -0.71, [1]), v(-0.83, 0.37, [1])], [v(0.1, 0.2, [1]), v(0.9, 0.2, [1]), v(0.1, 0.95, [1])]];
  const halves = rects.flatMap((r) => {
    const v3 = { ...r[1], x: r[1].x + r[2].x - r[0].x, y: r[1].y + r[2].y - r[0].y };
    return [refSetup(r, 32, 32)!, refSetup([r[1], v3, r[2]], 32, 32)!];
  });
  for (const samples of [1, 4]) {
    const words: number[][] = [];
    for (const gfx of ['gfx1100', 'gfx1030', 'gfx900']) {
      const r = runScene(scene(rects, { samples, draws: [{ topology: 'DI_PT_RECTLIST', count: 6 }] }), '.', { gfx });
      clean(r);
      assert.equal(r.stats.primitives, 2, gfx);
      for (let y = 0; y < 32; y++) for (let x = 0; x < 32; x++) for (let s = 0; s < samples; s++) {
        const [sx, sy] = refSample(x, y, samples, s);
        assert.equal(sampleF32(r, x, y, s), halves.filter((h) => refCovers(h, sx, sy)).length, `${gfx} ${samples}x (${x}, ${y}) sample ${s}`);
      }
      words.push(targetWords(r));
    }
    assert.ok(words[0]!.some((w) => w !== 0));
    assert.deepEqual(words[1], words[0]);
    assert.deepEqual(words[2], words[0]);
  }
});

test('helper lanes on all three generations: quad neighbours of edge pixels run with extrapolated barycentrics, so a DPP quad difference is the exact screen-space derivative', () => {
  // The attribute is clip-space x (w = 1): it grows by 2/32 per pixel. Each lane subtracts its
  // horizontal quad neighbour's value (quad_perm [1,0,3,2]); at the triangle's edges that neighbour
  // is a helper lane. Even x: a(x+1) - a(x) = +1/16, odd x: -1/16. Helper lanes start off (EXEC =
  // the covered lanes): the shaders turn on whole quad mode first, as a compiler does for derivatives.
  const tri: Tri = [v(-0.93, -0.87, [-0.93]), v(0.77, -0.61, [0.77]), v(-0.41, 0.89, [-0.41])];
  const dpp = ['v_mov_b32_dpp v7, v6 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf', 'v_sub_f32 v7, v7, v6'];
  const legacy = ['s_wqm_b64 exec, exec', 's_mov_b32 m0, s0', 'v_interp_p1_f32 v6, v0, attr0.x', 'v_interp_p2_f32 v6, v1, attr0.x', ...dpp, 'exp mrt0 v7, off, off, off done vm', 's_endpgm'];
  const gfx11 = PS_R11_W64.map((l) => (l.startsWith('exp mrt0') ? [...dpp, 'exp mrt0 v7, off, off, off done'].join('\n') : l));
  const ps = { gfx1100: { source: gfx11 }, gfx1030: { source: legacy }, gfx900: { source: legacy } };
  const t = refSetup(tri, 32, 32)!;
  for (const gfx of ['gfx1100', 'gfx1030', 'gfx900']) {
    const r = runScene(scene([tri], { ps, state: { blend: [{ enable: false }] } }), '.', { gfx });
    clean(r);
    let edge = 0;
    for (let y = 0; y < 32; y++) for (let x = 0; x < 32; x++) {
      const [sx, sy] = refSample(x, y, 1, 0);
      if (!refCovers(t, sx, sy)) continue;
      const nx = x ^ 1;
      const [nsx, nsy] = refSample(nx, y, 1, 0);
      if (!refCovers(t, nsx, nsy)) edge++;
      const want = (x & 1) === 0 ? 1 / 16 : -1 / 16;
      assert.ok(Math.abs(sampleF32(r, x, y, 0) - want) <= 2e-6, `${gfx} (${x}, ${y}): ${sampleF32(r, x, y, 0)} vs ${want}`);
    }
    assert.ok(edge > 5, `${gfx}: ${edge} pixels whose neighbour is a helper lane`);
  }
});

test('CB formats with blending on all three generations: R8G8B8A8_UNORM (SRC_ALPHA, ONE_MINUS_SRC_ALPHA), R16G16B16A16_FLOAT and R32_FLOAT (ONE, ONE) store the same bytes as gfx1100', () => {
  const c = [1, 0.5, 0.25, 0.5];
  const tri: Tri = [v(-1, -1, c), v(1, -1, c), v(-1, 1, c)];
  const ps4 = { gfx1100: { source: wqm64(readFileSync(join(ROOT, 'examples/triangle/ps.s'), 'utf8').split('\n')) }, gfx1030: { source: PS_LEGACY }, gfx900: { source: PS_LEGACY } };
  const cases = [
    { format: 'R8G8B8A8_UNORM', blend: { enable: true, colorSrc: 'BLEND_SRC_ALPHA', colorDst: 'BLEND_ONE_MINUS_SRC_ALPHA' }, clear: [0, 0, 1, 1], inside: [0xbf, 0x60, 0x70, 0x9f] },
    { format: 'R16G16B16A16_FLOAT', blend: { enable: true, colorSrc: 'BLEND_ONE', colorDst: 'BLEND_ONE' }, clear: [0.125, 0, 0, 0], inside: [2.125, 1, 0.5, 1] },
    { format: 'R32_FLOAT', blend: { enable: true, colorSrc: 'BLEND_ONE', colorDst: 'BLEND_ONE' }, clear: [0.125, 0, 0, 0], inside: [2.125] },
  ];
  for (const k of cases) {
    const words: number[][] = [];
    for (const gfx of ['gfx1100', 'gfx1030', 'gfx900']) {
      const s = scene([tri, tri], { ps: ps4, state: { blend: [k.blend] } });
      s.targets = [{ format: k.format, clear: k.clear }];
      (s.ps as Record<string, unknown>).exportFormat = ['SPI_SHADER_32_ABGR'];
      const r = runScene(s, '.', { gfx });
      clean(r);
      const t = r.targets[0]!;
      const bpp = k.format === 'R8G8B8A8_UNORM' || k.format === 'R32_FLOAT' ? 4 : 8;
      words.push(Array.from(r.mem.readBytes(t.va, 32 * 32 * bpp)));
      // Pixel (4, 4) is inside both layers, (30, 30) outside.
      const at = (x: number, y: number): number[] => k.format === 'R8G8B8A8_UNORM' ? [0, 1, 2, 3].map((i) => r.mem.read8(t.va + (y * 32 + x) * 4 + i))
        : k.format === 'R32_FLOAT' ? [f32(r.mem.read32(t.va + (y * 32 + x) * 4))] : [0, 1, 2, 3].map((i) => f16(r.mem.read16(t.va + (y * 32 + x) * 8 + 2 * i)));
      const inside = at(4, 4);
      inside.forEach((g, i) => assert.ok(Math.abs(g - k.inside[i]!) <= (k.format === 'R8G8B8A8_UNORM' ? 1 : 0), `${gfx} ${k.format} channel ${i}: ${g} vs ${k.inside[i]}`));
      assert.deepEqual(at(30, 30), k.format === 'R8G8B8A8_UNORM' ? [0, 0, 255, 255] : k.clear.slice(0, inside.length), `${gfx} ${k.format} outside`);
    }
    assert.deepEqual(words[1], words[0], `${k.format}: gfx1030 = gfx1100`);
    assert.deepEqual(words[2], words[0], `${k.format}: gfx900 = gfx1100`);
  }
});

test('fuzzed scenes on gfx900/gfx1030: random field damage gives an InputError or a clean run, never a crash', () => {
  let seed = 777;
  const rnd = (): number => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32);
  const base = scene(triangles(4, 1));
  const junk = [null, -1, 1e9, 'x', [], {}, 0.5, true, 17, { gfx900: 3 }];
  for (let i = 0; i < 40; i++) {
    const s = JSON.parse(JSON.stringify(base)) as Record<string, unknown>;
    const keys = Object.keys(s);
    const k = keys[Math.floor(rnd() * keys.length)]!;
    const sub = s[k];
    if (sub && typeof sub === 'object' && !Array.isArray(sub) && rnd() < 0.6) {
      const sk = Object.keys(sub);
      if (sk.length) (sub as Record<string, unknown>)[sk[Math.floor(rnd() * sk.length)]!] = junk[Math.floor(rnd() * junk.length)];
    } else s[k] = junk[Math.floor(rnd() * junk.length)];
    const gfx = i % 2 ? 'gfx900' : 'gfx1030';
    try {
      runScene(s, '.', { gfx, maxInstructions: 100000 });
    } catch (e) {
      assert.ok(e instanceof InputError, `${gfx} iteration ${i} (${k}): ${(e as Error).stack}`);
    }
  }
});
