/**
 * Early Z (DB_SHADER_CONTROL Z_ORDER / DEPTH_BEFORE_SHADER / KILL_ENABLE): images equal the late-Z
 * images and the reference rasterizer; early Z launches no lanes for rejected samples (counted
 * against the reference coverage); DEPTH_BEFORE_SHADER writes depth before a discarding shader;
 * an undeclared discard under early Z is diagnosed, a declared one is quiet. Each test runs on
 * gfx1100 (NGG), gfx1030 and gfx900 (hardware VS, v_interp PS), DB_SHADER_CONTROL encoded with
 * each generation's register layout.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runScene, SCENE_TARGETS, type SceneResult } from '../../src/runtime/draw-scene.js';
import { f32 } from '../../src/core/float.js';
import { regDb } from '../../src/amd/cp/regdb.js';
import { encodeFields } from '../../src/amd/gfx/regs.js';
import { refCovers, refSample, refSetup, type RefVertex } from './draw-ref.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const EX = join(ROOT, 'examples/triangle');
const VS = readFileSync(join(EX, 'vs.s'), 'utf8').split('\n');
const PS = readFileSync(join(EX, 'ps.s'), 'utf8').split('\n');
/** Attribute 0's x to an R32_FLOAT target. */
const PS_R = PS.map((l) => (l.startsWith('exp mrt0') ? 'exp mrt0 v6, off, off, off done' : l));
/** The same, discarding every lane before the export. */
const PS_KILL = PS_R.flatMap((l) => (l.startsWith('exp mrt0') ? ['s_mov_b32 exec_lo, 0', l] : [l]));
/** gfx1030/gfx900: the hardware VS and a v_interp PS (wave64: the discard clears the whole EXEC). */
const VS_LEGACY = readFileSync(join(EX, 'vs-legacy.s'), 'utf8').split('\n');
const PS_R_LEGACY = readFileSync(join(EX, 'ps-legacy.s'), 'utf8').split('\n').map((l) => (l.startsWith('exp mrt0') ? 'exp mrt0 v2, off, off, off done vm' : l));
const PS_KILL_LEGACY = PS_R_LEGACY.flatMap((l) => (l.startsWith('exp mrt0') ? ['s_mov_b64 exec, 0', l] : [l]));
const GENS = ['gfx1100', 'gfx1030', 'gfx900'] as const;
type Gfx = (typeof GENS)[number];

type Tri = [RefVertex, RefVertex, RefVertex];
const v = (x: number, y: number, a: number[], z = 0.5): RefVertex => ({ x, y, z, w: 1, attr: a });
const near: Tri = [v(-0.9, -0.9, [1], 0.3), v(0.5, -0.9, [1], 0.3), v(-0.9, 0.5, [1], 0.3)];
const far: Tri = [v(-0.5, -0.5, [2], 0.6), v(0.9, -0.5, [2], 0.6), v(0.9, 0.9, [2], 0.6)];

/** DB_SHADER_CONTROL fields; encoded per generation by scene(). */
const dsc = (f: Record<string, number | string>): Record<string, number | string> => f;

function scene(tris: readonly Tri[], gfx: Gfx, control: Record<string, number | string>, o: { samples?: number; kill?: boolean } = {}): Record<string, unknown> {
  const shaderControl = encodeFields(regDb(SCENE_TARGETS[gfx].gen), 'DB_SHADER_CONTROL', control);
  const legacy = gfx !== 'gfx1100';
  const values: number[] = [];
  for (const t of tris) for (const p of t) values.push(p.x, p.y, p.z, p.w, ...[0, 1, 2, 3].map((c) => p.attr[c] ?? (c === 3 ? 1 : 0)));
  return {
    width: 32, height: 32, samples: o.samples ?? 4,
    targets: [{ format: 'R32_FLOAT', clear: [0, 0, 0, 0] }],
    depth: { format: 'Z_32_FLOAT', clear: 1 },
    buffers: { vertices: { type: 'f32', values } },
    gfx,
    shaders: { vs: { source: legacy ? VS_LEGACY : VS }, ps: { source: legacy ? (o.kill ? PS_KILL_LEGACY : PS_R_LEGACY) : o.kill ? PS_KILL : PS_R } },
    vs: legacy ? { shader: 'vs', wave: 64, vgprs: 16, userData: [{ address: 'vertices' }] } : { shader: 'vs', wave: 32, vgprs: 24, userData: [{ buffer: 'vertices', stride: 32, format: '32_32_32_32_FLOAT' }, { attrRing: true }] },
    ps: { shader: 'ps', wave: legacy ? 64 : 32, vgprs: 16, inputs: [{ offset: 0 }], exportFormat: ['SPI_SHADER_32_R'] },
    state: { registers: { DB_SHADER_CONTROL: shaderControl } },
    draws: [{ topology: 'DI_PT_TRILIST', count: 3 * tris.length }],
  };
}

const sampleF32 = (r: SceneResult, x: number, y: number, s: number): number => f32(r.mem.read32(r.targets[0]!.va + ((y * 32 + x) * r.samples + s) * 4));
const depthAt = (r: SceneResult, x: number, y: number, s: number): number => f32(r.mem.read32(r.depth!.va + ((y * 32 + x) * r.samples + s) * 4));
const problems = (r: SceneResult): string[] => r.diag.list.filter((d) => d.severity !== 'info').map((d) => d.id);

for (const gfx of GENS) {
  test(`${gfx} early Z: same image as late Z and the reference; occluded samples launch no pixel shader lanes`, () => {
    const [rn, rf] = [refSetup(near, 32, 32)!, refSetup(far, 32, 32)!];
    // Far samples hidden by the near triangle, drawn first: what early Z rejects.
    let hidden = 0;
    for (let y = 0; y < 32; y++) for (let x = 0; x < 32; x++) for (let s = 0; s < 4; s++) {
      const [sx, sy] = refSample(x, y, 4, s);
      if (refCovers(rn, sx, sy) && refCovers(rf, sx, sy)) hidden++;
    }
    assert.ok(hidden > 20, `the triangles overlap (${hidden} samples)`);
    for (const tris of [[near, far], [far, near]] as Tri[][]) {
      const late = runScene(scene(tris, gfx, dsc({ Z_ORDER: 'LATE_Z' })));
      const early = runScene(scene(tris, gfx, dsc({ Z_ORDER: 'EARLY_Z_THEN_LATE_Z' })));
      assert.deepEqual(problems(late), []);
      assert.deepEqual(problems(early), []);
      for (let y = 0; y < 32; y++) for (let x = 0; x < 32; x++) for (let s = 0; s < 4; s++) {
        const [sx, sy] = refSample(x, y, 4, s);
        const want = refCovers(rn, sx, sy) ? 1 : refCovers(rf, sx, sy) ? 2 : 0;
        assert.equal(sampleF32(early, x, y, s), want, `early (${x}, ${y}) s${s}`);
        assert.equal(sampleF32(late, x, y, s), want, `late (${x}, ${y}) s${s}`);
        assert.equal(depthAt(early, x, y, s), depthAt(late, x, y, s));
      }
      assert.equal(late.stats.earlyZRejected ?? 0, 0);
      if (tris[0] === near) {
        // Near first: every hidden far sample is rejected before the PS.
        assert.equal(early.stats.earlyZRejected, hidden);
        assert.ok(early.stats.pixelsShaded < late.stats.pixelsShaded, `${early.stats.pixelsShaded} < ${late.stats.pixelsShaded}`);
      } else {
        // Far first: nothing is hidden when the PS runs.
        assert.equal(early.stats.earlyZRejected, 0);
        assert.equal(early.stats.pixelsShaded, late.stats.pixelsShaded);
      }
    }
  });

  test(`${gfx} early Z falls back to late Z when the shader may discard or export depth (KILL_ENABLE, Z_EXPORT_ENABLE); RE_Z runs late`, () => {
    const cases: Record<string, number | string>[] = [{ Z_ORDER: 'EARLY_Z_THEN_LATE_Z', KILL_ENABLE: 1 }, { Z_ORDER: 'EARLY_Z_THEN_LATE_Z', MASK_EXPORT_ENABLE: 1 }, { Z_ORDER: 'RE_Z' }, { Z_ORDER: 'EARLY_Z_THEN_RE_Z', KILL_ENABLE: 1 }];
    for (const f of cases) {
      const r = runScene(scene([near, far], gfx, dsc(f)));
      assert.deepEqual(problems(r), [], JSON.stringify(f));
      assert.equal(r.stats.earlyZRejected ?? 0, 0, JSON.stringify(f));
    }
    const ez = runScene(scene([near, far], gfx, dsc({ Z_ORDER: 'EARLY_Z_THEN_RE_Z' })));
    assert.ok((ez.stats.earlyZRejected ?? 0) > 0, 'EARLY_Z_THEN_RE_Z without kill runs early');
  });

  test(`${gfx} DEPTH_BEFORE_SHADER: depth is written before a discarding shader; late Z leaves it; undeclared discards are diagnosed`, () => {
    const covered = (r: SceneResult): { depth: number; color: number } => {
      let depth = 0, color = 0;
      for (let y = 0; y < 32; y++) for (let x = 0; x < 32; x++) for (let s = 0; s < 4; s++) {
        if (depthAt(r, x, y, s) !== 1) depth++;
        if (sampleF32(r, x, y, s) !== 0) color++;
      }
      return { depth, color };
    };
    const rn = refSetup(near, 32, 32)!;
    let want = 0;
    for (let y = 0; y < 32; y++) for (let x = 0; x < 32; x++) for (let s = 0; s < 4; s++) if (refCovers(rn, ...refSample(x, y, 4, s))) want++;
    // Forced early, discard declared: depth of every covered sample written, no colour, no diagnostic.
    const forced = runScene(scene([near], gfx, dsc({ DEPTH_BEFORE_SHADER: 1, Z_ORDER: 'EARLY_Z_THEN_LATE_Z', KILL_ENABLE: 1 }), { kill: true }));
    assert.deepEqual(problems(forced), []);
    assert.deepEqual(covered(forced), { depth: want, color: 0 });
    assert.ok(Math.abs(depthAt(forced, 4, 4, 0) - 0.3) < 1e-6);
    // Late Z: the discard leaves depth alone.
    const late = runScene(scene([near], gfx, dsc({ Z_ORDER: 'LATE_Z', KILL_ENABLE: 1 }), { kill: true }));
    assert.deepEqual(problems(late), []);
    assert.deepEqual(covered(late), { depth: 0, color: 0 });
    // EARLY_Z_THEN_LATE_Z with KILL_ENABLE = 0 while the shader discards: the DB ran early and wrote depth.
    const undeclared = runScene(scene([near], gfx, dsc({ Z_ORDER: 'EARLY_Z_THEN_LATE_Z' }), { kill: true }));
    assert.deepEqual(problems(undeclared), ['amd.db.kill-without-kill-enable']);
    assert.deepEqual(covered(undeclared), { depth: want, color: 0 });
  });
}
