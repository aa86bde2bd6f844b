/**
 * Draw throughput of the GFX11 pipeline (PM4 -> NGG -> raster -> PS -> DB/CB): a 256x256 scene
 * of seeded random triangles with depth test and interpolated colour, at 1x and 4x MSAA.
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
    shaders: { vs: { source: readFileSync(join(ex, 'vs.s'), 'utf8').split('\n') }, ps: { source: readFileSync(join(ex, 'ps.s'), 'utf8').split('\n') } },
    vs: { shader: 'vs', wave: 32, vgprs: 24, userData: [{ buffer: 'vertices', stride: 32, format: '32_32_32_32_FLOAT' }, { attrRing: true }] },
    ps: { shader: 'ps', wave: 64, vgprs: 16, inputs: [{ offset: 0 }] },
    state: { depthFunc: 'FRAG_LESS' },
    draws: [{ topology: 'DI_PT_TRILIST', count: 3 * tris }],
  };
}

export function benchDraw(): BenchResult[] {
  const out: BenchResult[] = [];
  for (const samples of [1, 4]) {
    const sc = scene(samples, 300);
    runScene(sc); // warm-up (JIT)
    const c0 = process.cpuUsage();
    const r = runScene(sc);
    const c = process.cpuUsage(c0);
    const cpu = (c.user + c.system) / 1e6;
    const st = r.stats;
    out.push({
      name: `draw ${samples}x 256x256 ${st.primitives} tris`,
      figures: {
        'pixels/cpu-s': st.pixelsShaded / cpu, 'samples/cpu-s': st.samplesWritten / cpu,
        'ps-waveInst/cpu-s': st.psInstructions / cpu, 'ngg-waveInst/cpu-s': st.gsInstructions / cpu,
        'prims/cpu-s': st.primitives / cpu, psWaves: st.psWaves, cpuSeconds: cpu,
      },
    });
  }
  return out;
}
