/**
 * Draw throughput of the GFX11 pipeline (PM4 -> NGG -> raster -> PS -> DB/CB): a 256x256 scene
 * of seeded random triangles with depth test and interpolated colour, at 1x and 4x MSAA; and the
 * same scene at 1x on gfx1030 and gfx900 (hardware VS, v_interp_* pixel shader).
 * Figures per CPU-second (process.cpuUsage): shaded pixels, written samples, PS and NGG
 * wave-instructions, primitives.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../tools/gen/run.js';
import { runScene } from '../src/runtime/draw-scene.js';
import type { BenchResult } from './main.js';

function scene(samples: number, tris: number): Record<string, unknown> {
  const ex = join(ROOT, 'examples/triangle');
  const src = (f: string): string[] => readFileSync(join(ex, f), 'utf8').split('\n');
  let s = 7;
  const r = (): number => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
  const values: number[] = [];
  for (let t = 0; t < tris; t++) {
    const cx = r() * 2 - 1, cy = r() * 2 - 1, z = r();
    for (let k = 0; k < 3; k++) values.push(cx + (r() - 0.5) * 0.6, cy + (r() - 0.5) * 0.6, z, 1, r(), r(), r(), 1);
  }
  return {
    width: 256, height: 256, samples,
    targets: [{ format: 'R8G8B8A8_UNORM', clear: [0, 0, 0, 1] }],
    depth: { format: 'Z_32_FLOAT', clear: 1 },
    buffers: { vertices: { type: 'f32', values } },
    shaders: {
      vs: { source: src('vs.s'), gfx1030: { source: src('vs-legacy.s') }, gfx900: { source: src('vs-legacy.s') } },
      // The PS runs wave64: examples/msaa/ps.s is the triangle's gfx1100 shader spelt for wave64 (s_wqm_b64).
      ps: { source: readFileSync(join(ROOT, 'examples/msaa/ps.s'), 'utf8').split('\n'), gfx1030: { source: src('ps-legacy.s') }, gfx900: { source: src('ps-legacy.s') } },
    },
    vs: {
      shader: 'vs', wave: 32, vgprs: 24, userData: [{ buffer: 'vertices', stride: 32, format: '32_32_32_32_FLOAT' }, { attrRing: true }],
      gfx1030: { wave: 64, vgprs: 16, userData: [{ address: 'vertices' }] }, gfx900: { wave: 64, vgprs: 16, userData: [{ address: 'vertices' }] },
    },
    ps: { shader: 'ps', wave: 64, vgprs: 16, inputs: [{ offset: 0 }] },
    state: { depthFunc: 'FRAG_LESS' },
    draws: [{ topology: 'DI_PT_TRILIST', count: 3 * tris }],
  };
}

export function benchDraw(): BenchResult[] {
  const out: BenchResult[] = [];
  for (const [gfx, samples] of [['gfx1100', 1], ['gfx1100', 4], ['gfx1030', 1], ['gfx900', 1]] as const) {
    const sc = scene(samples, 300);
    runScene(sc, '.', { gfx }); // warm-up (JIT)
    const c0 = process.cpuUsage();
    const r = runScene(sc, '.', { gfx });
    const c = process.cpuUsage(c0);
    const cpu = (c.user + c.system) / 1e6;
    const st = r.stats;
    out.push({
      name: `draw${gfx === 'gfx1100' ? '' : ' ' + gfx} ${samples}x 256x256 ${st.primitives} tris`,
      figures: {
        'pixels/cpu-s': st.pixelsShaded / cpu, 'samples/cpu-s': st.samplesWritten / cpu,
        'ps-waveInst/cpu-s': st.psInstructions / cpu, [gfx === 'gfx1100' ? 'ngg-waveInst/cpu-s' : 'vs-waveInst/cpu-s']: st.gsInstructions / cpu,
        'prims/cpu-s': st.primitives / cpu, psWaves: st.psWaves, cpuSeconds: cpu,
      },
    });
  }
  return out;
}
