/**
 * RADV/ACO's own interlocked pixel shaders (../shared/pops-aco: Mesa 23.3.6's ACO output for
 * gfx900, gfx1030 and gfx1100, wave32 and wave64) run in `gpusim draw` from their raw code and
 * RADV's register config: RSRC1/2/3, SPI_PS_INPUT_ENA/ADDR, DB_SHADER_CONTROL, SPI_SHADER_COL_FORMAT
 * (`ps.config`), the storage image's T# in a descriptor set in RADV's 32-bit address window
 * (`{"descriptorSet": [...]}` user data, read by the shader's s_load through the set pointer), and
 * PRIM_MASK / COLLISION_WAVEID after the user SGPRs as RSRC2_PS asks.
 *
 * Layers of overlapping triangles with different colours and alpha blend into the storage image;
 * the result must equal a CPU evaluation of the GLSL (res = c * c.a + dst * (1 - c.a), rgba8 unorm)
 * in primitive order for every scheduling seed, with no diagnostics. Copies of the code with the
 * wait or the release removed (found by decoding, not by offsets) must be caught by POPS diagnostics.
 * Skips when ../shared/pops-aco is absent.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import '../../src/amd/engine/bind.js';
import { runScene, type SceneResult } from '../../src/runtime/draw-scene.js';
import { STANDARD_SAMPLE_LOCATIONS } from '../../src/amd/gfx/state.js';
import { assemble, disassemble } from '../../src/amd/isa/target.js';
import { waveTarget } from '../../src/amd/isa/targets.js';
import { executableTarget } from '../../src/amd/target/executable.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const ACO = resolve(ROOT, '../shared/pops-aco');
const HAVE = existsSync(join(ACO, 'README.md'));
const skip = HAVE ? false : '../shared/pops-aco is absent';
type Json = Record<string, unknown>;

const W = 16, H = 16;
/**
 * Layers in primitive order: [x0, y0, x1, y1, x2, y2] in NDC, colour rgba (exact in f32). Their
 * edges cut through quads (a vertical one at NDC 0.1, slanted ones), so partially covered quads
 * have helper lanes: PS waves start with the covered lanes only, ACO's GFX9/GFX10.3 code stores
 * with the launch mask and its GFX11 code restores it after s_wqm_b64.
 */
const LAYERS: Array<[number[], number[]]> = [
  [[-1, -1, 3, -1, -1, 3], [0.75, 0.25, 0.5, 0.5]],
  [[0.1, -1, 4, -1, 0.1, 3], [0.125, 0.875, 0.25, 0.75]],
  [[-1, -0.1, 3, 0.3, -1, 4], [0.5, 0.5, 1, 0.375]],
  [[0.3, 0.2, -4, 0.1, 0.2, -4], [1, 0, 0.25, 0.25]],
  [[-1, -1, 3, -1, -1, 3], [0, 0.625, 0.875, 0.625]],
];

/** The scene: the repository's vertex shaders (flat colour parameter), ACO's pixel shader with RADV's registers. */
function scene(gfx: string, wave: string, variant: string, psBin?: string): Json {
  const samples = variant.startsWith('sample') ? 4 : 1;
  const verts: number[] = [];
  for (const [p, c] of LAYERS) for (let v = 0; v < 3; v++) verts.push(p[2 * v]!, p[2 * v + 1]!, 0.5, 1, ...c);
  const dir = join(ACO, gfx, wave);
  const legacy = gfx !== 'gfx1100';
  return {
    gfx, width: W, height: H, samples,
    targets: [{ name: 'color', format: 'R8G8B8A8_UNORM', clear: [0, 0, 0, 0] }],
    buffers: { vertices: { type: 'f32', values: verts }, accum: { type: 'u32', values: new Array(W * H).fill(0) } },
    shaders: {
      vs: { asm: join(ROOT, 'examples/triangle', legacy ? 'vs-legacy.s' : 'vs.s') },
      ps: { bin: psBin ?? join(dir, `${variant}.fragment.bin`) },
    },
    vs: legacy ? { shader: 'vs', wave: 64, vgprs: 16, userData: [{ address: 'vertices' }] }
      : { shader: 'vs', wave: 32, vgprs: 24, userData: [{ buffer: 'vertices', stride: 32, format: '32_32_32_32_FLOAT' }, { attrRing: true }] },
    ps: {
      shader: 'ps', config: join(dir, `${variant}.fragment.config.json`), inputs: [{ offset: 0, flat: true }],
      // RADV's PS user SGPRs: two of ring offsets (unused here), then descriptor set 0 (binding 0: the storage image).
      userData: [{ u32: 0 }, { u32: 0 }, { descriptorSet: [{ image: 'accum', width: W, height: H, format: '8_8_8_8_UNORM' }] }],
    },
    draws: [{ topology: 'DI_PT_TRILIST', count: 3 * LAYERS.length }],
  };
}

/**
 * The GLSL in primitive order on the CPU: a layer shades a pixel when it covers one of its samples
 * (standard positions; 1x: the centre), res = c * c.a + dst * (1 - c.a), stored as rgba8 unorm.
 */
function expected(samples = 1): Uint32Array {
  const out = new Uint32Array(W * H);
  const f = Math.fround;
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      let dst = [0, 0, 0, 0];
      for (const [p, c] of LAYERS) {
        const hit = STANDARD_SAMPLE_LOCATIONS[samples]!.some(([dx, dy]) => inside(p, ((x + 0.5 + dx / 16) / W) * 2 - 1, ((y + 0.5 + dy / 16) / H) * 2 - 1));
        if (!hit) continue;
        const a = f(c[3]!);
        const res = c.map((ci, k) => f(f(f(ci) * a) + f(dst[k]! * f(1 - a))));
        const bytes = res.map((v) => Math.round(Math.min(1, Math.max(0, v)) * 255));
        dst = bytes.map((b) => f(b / 255));
        out[y * W + x] = (bytes[0]! | (bytes[1]! << 8) | (bytes[2]! << 16) | (bytes[3]! << 24)) >>> 0;
      }
    }
  }
  return out;
}
function inside(p: number[], x: number, y: number): boolean {
  const e = (i: number, j: number): number => (p[2 * j]! - p[2 * i]!) * (y - p[2 * i + 1]!) - (p[2 * j + 1]! - p[2 * i + 1]!) * (x - p[2 * i]!);
  const a = e(0, 1), b = e(1, 2), c = e(2, 0);
  // A centre on an edge would make the expectation depend on the fill rule: the layers avoid them.
  assert.ok(Math.min(Math.abs(a), Math.abs(b), Math.abs(c)) > 1e-6, `pixel centre (${x}, ${y}) on an edge`);
  return (a >= 0 && b >= 0 && c >= 0) || (a <= 0 && b <= 0 && c <= 0);
}

function accum(r: SceneResult): Uint32Array {
  const im = r.images.get('accum')!;
  const pitch = im.layout.levels[0]!.pitch;
  return Uint32Array.from({ length: W * H }, (_, i) => r.mem.read32(im.va + 4 * ((i / W | 0) * pitch + (i % W))));
}

export const CASES = [['gfx900', 'wave64'], ['gfx1030', 'wave32'], ['gfx1030', 'wave64'], ['gfx1100', 'wave32'], ['gfx1100', 'wave64']] as const;
export const VARIANTS = ['pixel_ordered_image', 'sample_ordered_image'] as const;
export { scene, expected, accum, ACO, mutate };

for (const [gfx, wave] of CASES) {
  for (const variant of VARIANTS) {
    test(`ACO ${variant} on ${gfx} ${wave}: the GLSL's blend in primitive order for every seed, diagnostics quiet`, { skip }, () => {
      const want = expected(variant.startsWith('sample') ? 4 : 1);
      for (const seed of [1, 2, 3, 7]) {
        // With the L0/GL1/L2 model (on by default in POPS draws): ACO's GLC DLC / GLC loads must see
        // the earlier waves' stores, which reach L2 through the write-through L0 and GL1.
        const r = runScene(scene(gfx, wave, variant), ACO, { order: 'random', seed });
        assert.ok(r.popsCache !== null, 'the draw ran through the cache model');
        assert.deepEqual(r.diag.list.map((d) => d.id), [], `seed ${seed}: ${r.diag.list.map((d) => `${d.id}: ${d.message}`).join('; ')}`);
        assert.deepEqual(accum(r), want, `seed ${seed}`);
      }
    });
  }
}

/**
 * ACO's code with the wait or the release replaced by s_nop 0, found by decoding: the wait is the
 * sleep-and-branch-back of the loop polling src_pops_exiting_wave_id (GFX9/GFX10.3) or s_wait_event
 * (GFX11); the release is s_sendmsg MSG_ORDERED_PS_DONE (GFX9/GFX10.3) or, on GFX11, the export with done.
 */
function mutate(gfx: string, wave: string, variant: string, what: 'wait' | 'release' | 'coherence'): Uint32Array {
  const bytes = readFileSync(join(ACO, gfx, wave, `${variant}.fragment.bin`));
  const words = new Uint32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length));
  const t = waveTarget(executableTarget(gfx)!, wave === 'wave32' ? 32 : 64)!;
  const nop = assemble(t, 's_nop 0')[0]!;
  const lines = disassemble(t, words);
  const end = lines.findIndex((l) => /^s_endpgm\b/.test(l.text));
  const code = lines.slice(0, end + 1);
  const hits: number[] = [];
  if (what === 'coherence') {
    // The ordered section's image_load and image_store re-assembled without GLC / DLC (same length).
    const out = words.slice();
    const load = code.findIndex((l) => /^image_load\b/.test(l.text));
    assert.ok(load >= 0 && /\bglc\b/.test(code[load]!.text), `${gfx} ${wave} ${variant}: no coherent image_load`);
    for (const l of code.filter((c) => /^image_(load|store)\b/.test(c.text))) {
      const plain = assemble(t, l.text.replace(/ (glc|dlc)\b/g, ''));
      assert.equal(plain.length, l.words.length);
      plain.forEach((w, k) => (out[l.pc / 4 + k] = w));
    }
    return out;
  }
  if (what === 'wait') {
    const poll = code.findIndex((l) => l.text.includes('src_pops_exiting_wave_id'));
    if (poll >= 0) {
      // The loop body after the poll: s_sleep, then the s_branch back to the poll.
      const sleep = code.findIndex((l, i) => i > poll && /^s_sleep\b/.test(l.text));
      const back = code.findIndex((l, i) => i > sleep && /^s_branch\b/.test(l.text));
      hits.push(sleep, back);
    } else hits.push(code.findIndex((l) => /^s_wait_event\b/.test(l.text)));
  } else {
    const msg = code.findIndex((l) => /^s_sendmsg\b/.test(l.text) && /ORDERED_PS_DONE/.test(l.text));
    if (msg >= 0) hits.push(msg);
    else hits.push(code.map((l) => /^exp\b.*\bdone\b/.test(l.text)).lastIndexOf(true));
  }
  assert.ok(hits.length > 0 && hits.every((i) => i >= 0), `${gfx} ${wave} ${variant}: no ${what} found`);
  const out = words.slice();
  for (const i of hits) {
    const l = code[i]!;
    for (let k = 0; k < l.words.length; k++) out[l.pc / 4 + k] = nop;
  }
  return out;
}

for (const [gfx, wave] of CASES) {
  for (const variant of VARIANTS) {
    for (const what of ['wait', 'release'] as const) {
      test(`ACO ${variant} on ${gfx} ${wave} with the ${what} removed: caught`, { skip }, () => {
        const dir = mkdtempSync(join(tmpdir(), 'gpusim-aco-'));
        try {
          const bin = join(dir, 'ps.bin');
          const m = mutate(gfx, wave, variant, what);
          writeFileSync(bin, new Uint8Array(m.buffer, m.byteOffset, m.byteLength));
          const want = expected(variant.startsWith('sample') ? 4 : 1);
          const ids = new Set<string>();
          let wrong = 0;
          for (const seed of [1, 2, 3, 7]) {
            const r = runScene(scene(gfx, wave, variant, bin), ACO, { order: 'random', seed });
            for (const d of r.diag.list) ids.add(d.id);
            if (accum(r).some((v, i) => v !== want[i])) wrong++;
          }
          assert.ok([...ids].some((id) => id.startsWith('pops.')), `no POPS diagnostic (${[...ids].join(', ') || 'none'}; ${wrong} wrong image(s))`);
        } finally { rmSync(dir, { recursive: true, force: true }); }
      });
    }
  }
}

/**
 * ACO's image_load and image_store without GLC/DLC: the load reads through the CU's L0 (and the
 * array's GL1), which may hold the pixel's line from before another CU's wave stored its blend
 * (plain stores keep the storing CU's L0 line, updated, where a GLC store evicts it). Some seed must give a
 * wrong image with stale reads counted; with coherent memory (no cache model) the same code is right.
 */
for (const [gfx, wave] of CASES) {
  test(`ACO pixel_ordered_image on ${gfx} ${wave} with GLC/DLC removed: a stale read breaks the blend`, { skip }, () => {
    const dir = mkdtempSync(join(tmpdir(), 'gpusim-aco-'));
    try {
      const bin = join(dir, 'ps.bin');
      const m = mutate(gfx, wave, 'pixel_ordered_image', 'coherence');
      writeFileSync(bin, new Uint8Array(m.buffer, m.byteOffset, m.byteLength));
      const want = expected(1);
      let broken = 0;
      for (let seed = 1; seed <= 40 && broken === 0; seed++) {
        const r = runScene(scene(gfx, wave, 'pixel_ordered_image', bin), ACO, { order: 'random', seed });
        if (accum(r).some((v, i) => v !== want[i])) {
          assert.ok(r.popsCache!.staleReads > 0, JSON.stringify(r.popsCache));
          broken = seed;
        }
      }
      assert.ok(broken > 0, 'no seed read a stale line');
      for (const seed of [1, 2, 3]) assert.deepEqual(accum(runScene(scene(gfx, wave, 'pixel_ordered_image', bin), ACO, { order: 'random', seed, popsCaches: false })), want, `coherent memory, seed ${seed}`);
    } finally { rmSync(dir, { recursive: true, force: true }); }
  });
}

test('ps.config: RSRC2_PS USER_SGPR must equal the user data the scene gives (error names the field)', () => {
  const s = JSON.parse(readFileSync(join(ROOT, 'examples/pops-oit/scene.json'), 'utf8')) as Json;
  // An inline config asking for 3 user SGPRs; the example's PS gives 2 (a 64-bit address).
  (s.ps as Json).config = { rsrc1: 0, rsrc2: 6, spi_ps_input_ena: 2, radv_shader_info_ps: { wave_size: 32 } };
  assert.throws(() => runScene(s, join(ROOT, 'examples/pops-oit')), /ps\.userData.*2 user SGPR\(s\), but ps\.config's RSRC2 \(USER_SGPR\) loads 3/);
});
