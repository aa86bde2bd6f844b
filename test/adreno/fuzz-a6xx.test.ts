/**
 * Bad input to the a6xx features of depth clamp / clip control, UBWC depth, SINGLE_PRIM_MODE
 * feedback loops (sysmem and GMEM, TILE6_2 textures), VPC stream-out with CP_DRAW_AUTO and the
 * per-bin perf rows (issue 19): a fixed set of seeded mutations of scenes using them (`draw --gpu`
 * and `adreno perf`, a630 / a660, sysmem / GMEM), and of the driver's streams with the dwords of
 * those registers and packets mutated (`adreno run` / `adreno perf` on the .rd capture). Each run
 * ends with exit 0 or 1, or 2 with one line, never 3 (an internal error); the draw budget bounds
 * the streams. Then the cases fuzzing found, one test each. GPUSIM_FUZZ_N (default 8) sets the
 * mutations per group; a few hundred per group ran clean when this was written.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../../src/cli/main.js';
import { mulberry32 } from '../../src/core/prng.js';
import { EXIT_ERROR } from '../../src/core/errors.js';
import { RdWriter } from '../../src/formats/rd.js';
import { a6xxSceneDescription, type A6xxGpu } from '../../src/runtime/draw-a6xx.js';
import { buildDraw } from '../../src/adreno/driver/sysmem.js';
import { gmemDraw } from '../../src/adreno/driver/gmem.js';
import { encodeFields, gpuRegs } from '../../src/adreno/regs/db.js';
import { opcodeName } from '../../src/adreno/cp/pm4.js';
import { CmdStream } from '../../src/adreno/cp/builder.js';
import { drawRuns } from '../../src/adreno/cp/handlers-gfx.js';
import { runSceneStream } from './scene-run.js';
import { CommandProcessor } from '../../src/adreno/cp/cp.js';
import { Diagnostics } from '../../src/core/diagnostics.js';

const EX = join(import.meta.dirname, '..', '..', '..', 'examples');
const N = Number(process.env.GPUSIM_FUZZ_N ?? 8);
const BUDGET = ['--max-vertices', '20000', '--max-primitives', '10000', '--max-pixels', '30000', '--max-instructions', '200000', '--max-draw-mib', '64'];
type Json = Record<string, any>;

// The scenes: examples/feedback (a colour target read by the FS), the triangle with a capture and
// a CP_DRAW_AUTO over it, a depth-clamped UBWC depth buffer, and all of them together.
const read = (p: string): Json => JSON.parse(readFileSync(join(EX, p), 'utf8')) as Json;
function triangle(): Json {
  const s = read('triangle/scene.json');
  const keep = (o: Json, keys: string[]): Json => Object.fromEntries(Object.entries(o).filter(([k]) => keys.includes(k)));
  return {
    ...keep(s, ['width', 'height', 'samples', 'targets', 'buffers', 'draws']),
    shaders: { vs: { a6xx: { asm: join(EX, 'triangle/vs-a6xx.s') } }, ps: { a6xx: { asm: join(EX, 'triangle/fs-a6xx.s') } } },
    vs: keep(s.vs, ['shader', 'a6xx']), ps: keep(s.ps, ['shader', 'a6xx']),
  };
}
const OUTS = (): Json[] => [{ loc: 4, components: 4, at: 0 }, { loc: 0, components: 4, at: 16 }];
const SCENES: Record<string, () => Json> = {
  feedback: () => {
    const s = read('feedback/scene.json');
    s.shaders = { vs: { a6xx: { asm: join(EX, 'triangle/vs-a6xx.s') } }, ps: { a6xx: { asm: join(EX, 'feedback/fs-a6xx.s') } } };
    return s;
  },
  xfb: () => {
    const s = triangle();
    s.buffers.cap = { type: 'f32', values: new Array(64).fill(0) };
    s.draws = [
      { topology: 'DI_PT_TRILIST', count: 3, a6xx: { xfb: { buffer: 'cap', stride: 32, outputs: OUTS(), offset: 0, size: 256, discard: true } } },
      { topology: 'DI_PT_TRILIST', a6xx: { drawAuto: { xfb: 'cap', stride: 32, offset: 0, inputs: true } } },
      { topology: 'DI_PT_TRILIST', count: 3, a6xx: { xfb: { buffer: 'cap', stride: 32, outputs: OUTS(), resume: true } } },
    ];
    return s;
  },
  depth: () => ({
    ...triangle(), width: 32, height: 32, depth: { format: 'Z_32_FLOAT', clear: 1 },
    buffers: { vertices: { type: 'f32', values: [-0.9, -0.9, -0.5, 1, 1, 0, 0, 1, 0.9, -0.9, 1.5, 1, 0, 1, 0, 1, 0, 0.9, 0.5, 1, 0, 0, 1, 1] } },
    state: { depthFunc: 'FRAG_LESS', depthClamp: true, depthClip: false, a6xx: { depthBias: { constant: 1, slope: 1, clamp: 0 }, depthBounds: [0, 1] } },
    a6xx: { depthTile: 'UBWC' },
  }),
  combo: () => {
    const s = SCENES.feedback!();
    s.depth = { format: 'Z_32_FLOAT', clear: 1 };
    s.a6xx = { depthTile: 'UBWC' };
    s.state = { depthFunc: 'FRAG_LEQUAL', depthClamp: true };
    s.buffers.cap = { type: 'f32', values: new Array(256).fill(0) };
    s.draws = [
      { topology: 'DI_PT_TRILIST', count: 6, a6xx: { xfb: { buffer: 'cap', stride: 32, outputs: OUTS() } } },
      { topology: 'DI_PT_TRILIST', count: 0, a6xx: { drawAuto: { xfb: 'cap', stride: 32 } } },
      { topology: 'DI_PT_TRILIST', count: 12, first: 6 },
    ];
    return s;
  },
};

const VALUES: unknown[] = [-1, 0, 1, 3, 4, 7, 31, 32, 33, 64, 255, 256, 4096, 65536, 1e9, 2 ** 31, 2 ** 32, 2 ** 53, -(2 ** 31), -32, 0.5, -0.5, 1e30,
  'x', '', 'UBWC', 'LINEAR', true, false, null, [], {}, [0], 'cap', 'vertices', 'nobuf', 'DI_PT_POINTLIST', 'DI_PT_TRISTRIP'];
const NUMS = VALUES.filter((v): v is number => typeof v === 'number');
/** Keys whose values the mutations favour: the new features' and the sizes, counts and offsets around them. */
const HOT = /^(a6xx|xfb|drawAuto|depth|depthClamp|depthClip|depthTile|userData|target|stride|offset|size|count|outputs|first|instances|width|height|samples|cap|loc|components|at|discard|resume|inputs|clear|format)$/;

function paths(o: unknown, p: (string | number)[] = [], out: (string | number)[][] = []): (string | number)[][] {
  if (p.length) out.push(p);
  if (o && typeof o === 'object' && !(p[p.length - 1] === 'values')) for (const k of Object.keys(o)) paths((o as Json)[k], [...p, Array.isArray(o) ? Number(k) : k], out);
  return out;
}
/** One or two seeded changes: a value of another type or out of range, a key deleted, an entry repeated, a number scaled. */
function mutateScene(s: Json, r: () => number): string[] {
  const log: string[] = [];
  for (let k = 0, n = 1 + Math.floor(r() * 2); k < n; k++) {
    const all = paths(s);
    const hot = all.filter((p) => p.some((x) => typeof x === 'string' && HOT.test(x)));
    const pool = hot.length && r() < 0.85 ? hot : all;
    const p = pool[Math.floor(r() * pool.length)]!;
    let parent: Json = s;
    for (const x of p.slice(0, -1)) parent = parent[x] as Json;
    const key = p[p.length - 1] as string;
    const kind = Math.floor(r() * 8);
    let v: unknown;
    if (typeof parent[key] === 'number' && r() < 0.7) v = r() < 0.6 ? NUMS[Math.floor(r() * NUMS.length)] : parent[key] + Math.floor(r() * 9) - 4;
    else if (kind === 0 && !Array.isArray(parent)) {
      delete parent[key];
      log.push(`delete ${p.join('.')}`);
      continue;
    } else if (kind === 1 && Array.isArray(parent)) {
      (parent as unknown[]).push(structuredClone(parent[Number(key)]));
      log.push(`repeat ${p.join('.')}`);
      continue;
    } else if (kind === 2 && key === 'values') v = (parent[key] as unknown[]).slice(0, [0, 1, 3, 7][Math.floor(r() * 4)]);
    else v = structuredClone(VALUES[Math.floor(r() * VALUES.length)]);
    (parent as Json)[key] = v;
    log.push(`${p.join('.')} = ${JSON.stringify(v)}`);
  }
  return log;
}

async function gpusim(argv: string[]): Promise<{ code: number; err: string }> {
  let err = '';
  const code = await main(argv, { stdout: () => {}, stderr: (s) => void (err += s), isTTY: false });
  return { code, err };
}
function check(what: string, res: { code: number; err: string }, codes: Record<number, number>): void {
  codes[res.code] = (codes[res.code] ?? 0) + 1;
  assert.ok(res.code === 0 || res.code === 1 || res.code === EXIT_ERROR, `${what}: exit ${res.code}: ${res.err}`);
  if (res.code === EXIT_ERROR) {
    assert.equal(res.err.split('\n').filter(Boolean).length, 1, `${what}: ${res.err}`);
    assert.ok(res.err.length <= 420, `${what}: message of ${res.err.length} characters`);
  }
}
async function withDir<T>(f: (dir: string) => Promise<T>): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), 'gpusim-fuzz-a6xx-'));
  try { return await f(dir); } finally { rmSync(dir, { recursive: true, force: true }); }
}

test('fuzz: a6xx scenes with feedback loops, stream-out, UBWC depth and depth clamp (draw --gpu, adreno perf)', () => withDir(async (dir) => {
  const codes: Record<number, number> = {};
  const names = Object.keys(SCENES);
  for (let i = 0; i < N * names.length; i++) {
    const r = mulberry32(1900 + i);
    const name = names[i % names.length]!;
    const s = SCENES[name]!();
    const log = mutateScene(s, r);
    const f = join(dir, 'scene.json');
    writeFileSync(f, JSON.stringify(s));
    const gpu = r() < 0.5 ? 'a630' : 'a660', mode = r() < 0.5 ? 'sysmem' : 'gmem';
    const argv = r() < 0.2 ? ['adreno', 'perf', f, '--gpu', gpu, '--mode', mode] : ['draw', f, '--gpu', gpu, '--mode', mode, '--out', join(dir, 'o.png'), ...(mode === 'gmem' && r() < 0.5 ? ['--bin', '32x16'] : [])];
    check(`${name} case ${i} (${argv.slice(2).join(' ')}; ${log.join(', ')})`, await gpusim(argv), codes);
  }
  assert.ok((codes[0] ?? 0) + (codes[1] ?? 0) > 0 || N < 8, `every mutation was rejected (${JSON.stringify(codes)})`);
}));

/** Registers and packets of the features whose dwords the stream fuzz changes. */
const REGS = /^(VPC_SO|GRAS_SC_CNTL|RB_DEPTH_FLAG_BUFFER|GRAS_CL_Z_CLAMP|RB_Z_CLAMP|GRAS_CL_CNTL|RB_DEPTH_CNTL|RB_DEPTH_BUFFER|RB_RENDER_CNTL|GRAS_SU_DEPTH|GRAS_LRZ)/;
const PACKETS = /^(CP_DRAW_AUTO|CP_MEM_TO_REG|CP_COND_REG_EXEC|CP_EVENT_WRITE7?|CP_REG_TO_MEM|CP_LOAD_STATE6(_FRAG|_GEOM)?)$/;
const LARGE = [0, 1, 0xffffffff, 0x80000000, 0x7fffffff, 0x10000, 0x1000000, 0xfffffff0, 0x3ff, 0x400, 0x1fffff, 32, 31, 4, 3];

test('fuzz: the driver\'s a6xx streams with the new registers\' dwords mutated (adreno run, adreno perf)', () => withDir(async (dir) => {
  const regs = gpuRegs('a6xx');
  const codes: Record<number, number> = {};
  const combos: [string, A6xxGpu, false | true | { w: number; h: number }][] = [];
  for (const n of ['feedback', 'xfb', 'depth']) for (const gpu of ['a630', 'a660'] as const) for (const g of [false, true, { w: 32, h: 16 }]) combos.push([n, gpu, g]);
  const f = join(dir, 'm.rd');
  for (let i = 0; i < N * 3; i++) {
    const r = mulberry32(1950 + i);
    const [name, gpu, gm] = combos[i % combos.length]!;
    const desc = a6xxSceneDescription(SCENES[name]!(), EX, gpu);
    const b = buildDraw(desc);
    const g = gm ? gmemDraw(b, desc, gm === true ? {} : { bin: gm }) : undefined;
    const segs = b.mem.segments.map((s) => s.u8.slice());
    // Each register write (PKT4) and packet payload (PKT7) of the features, in every segment; the
    // feedback loops' TILE6_2 texture descriptors.
    const at: { seg: number; dw: number; what: string }[] = [];
    for (const [si, u8] of segs.entries()) {
      const w = new Uint32Array(u8.buffer, 0, u8.length >> 2);
      for (let k = 0; k < w.length; k++) {
        const h = w[k]!;
        if (h >>> 28 === 4) {
          for (let j = 0; j < (h & 0x7f) && k + 1 + j < w.length; j++) if (REGS.test(regs.nameOf(((h >>> 8) & 0x7ffff) + j) ?? '')) at.push({ seg: si, dw: k + 1 + j, what: regs.nameOf(((h >>> 8) & 0x7ffff) + j)! });
        } else if (h >>> 28 === 7) {
          const op = opcodeName((h >>> 16) & 0x7f, 'a6xx') ?? '';
          if (PACKETS.test(op)) for (let j = 0; j < (op.startsWith('CP_LOAD_STATE6') ? Math.min(3, h & 0x3fff) : h & 0x3fff) && k + 1 + j < w.length; j++) at.push({ seg: si, dw: k + 1 + j, what: `${op}[${j}]` });
        }
      }
    }
    for (const d of b.feedback?.descs ?? []) {
      const si = b.mem.segments.findIndex((s) => s.base <= d.iova && d.iova < s.end);
      for (let j = 0; j < 16; j++) at.push({ seg: si, dw: (d.iova - b.mem.segments[si]!.base) / 4 + j, what: `TEX_CONST[${j}]` });
    }
    assert.ok(at.length > 20, `${name}: ${at.length} dwords to mutate`);
    const log: string[] = [];
    for (let m = 0, n = 1 + Math.floor(r() * 3); m < n; m++) {
      const t = at[Math.floor(r() * at.length)]!;
      const dv = new DataView(segs[t.seg]!.buffer);
      const old = dv.getUint32(t.dw * 4, true);
      const kind = Math.floor(r() * 4);
      const v = kind === 0 ? LARGE[Math.floor(r() * LARGE.length)]! : kind === 1 ? (old ^ (1 << Math.floor(r() * 32))) >>> 0 : kind === 2 ? Math.floor(r() * 2 ** 32) : (old + (Math.floor(r() * 9) - 4) * 16 ** Math.floor(r() * 5)) >>> 0;
      dv.setUint32(t.dw * 4, v, true);
      log.push(`${t.what} 0x${old.toString(16)} -> 0x${v.toString(16)}`);
    }
    const w = new RdWriter().gpuId(desc.gpuId);
    for (const [si, s] of b.mem.segments.entries()) w.buffer(s.base, segs[si]!);
    writeFileSync(f, w.cmdstream(g?.streamIova ?? b.streamIova, g?.streamDwords ?? b.stream.length).bytes());
    const argv = [...(r() < 0.25 ? ['adreno', 'perf', f] : ['adreno', 'run', f]), ...BUDGET];
    check(`${name} ${gpu} ${JSON.stringify(gm)} case ${i} (${argv[1]}; ${log.join(', ')})`, await gpusim(argv), codes);
  }
  assert.ok((codes[0] ?? 0) + (codes[1] ?? 0) > 0, JSON.stringify(codes));
}));

test('a6xx scenes: width and height are integers in 1..16384, 2^24 samples a target (exit 2 naming the key)', () => withDir(async (dir) => {
  const f = join(dir, 'scene.json');
  for (const [w, h, key] of [[0, 64, 'width'], [0.5, 64, 'width'], [64, -1, 'height'], [20000, 64, 'width'], [8192, 4096, 'width']] as const) {
    writeFileSync(f, JSON.stringify({ ...SCENES.feedback!(), width: w, height: h }));
    for (const mode of ['sysmem', 'gmem']) {
      const res = await gpusim(['draw', f, '--gpu', 'a630', '--mode', mode, '--out', join(dir, 'o.png')]);
      assert.equal(res.code, EXIT_ERROR, `${w}x${h} ${mode}: ${res.err}`);
      assert.match(res.err, new RegExp(`^gpusim: scene ${key}: `), res.err);
      assert.equal(res.err.split('\n').filter(Boolean).length, 1);
    }
  }
  writeFileSync(f, JSON.stringify({ ...SCENES.feedback!(), width: 32, height: 16 }));
  assert.equal((await gpusim(['draw', f, '--gpu', 'a630', '--out', join(dir, 'o.png')])).code, 0);
}));

test('a6xx scenes: out-of-range xfb / drawAuto / feedback / depthTile values end with exit 2 naming the key', () => withDir(async (dir) => {
  const f = join(dir, 'scene.json');
  const cases: [string, (s: Json) => void, RegExp][] = [
    ['xfb at past A_OFF', (s) => { s.draws[0].a6xx.xfb.outputs[0].at = 2048; }, /draws\[0\]\.a6xx\.xfb\.outputs\[0\]\.at: an integer in 0\.\.2044/],
    ['xfb at not a dword', (s) => { s.draws[0].a6xx.xfb.outputs[1].at = 18; }, /draws\[0\]\.a6xx\.xfb\.outputs\[1\]\.at: byte 18: a multiple of 4/],
    ['xfb loc negative', (s) => { s.draws[0].a6xx.xfb.outputs[0].loc = -1; }, /draws\[0\]\.a6xx\.xfb\.outputs\[0\]\.loc: an integer in 0\.\.127/],
    ['xfb locations past 127', (s) => { s.draws[0].a6xx.xfb.outputs[0].loc = 126; }, /draws\[0\]\.a6xx\.xfb\.outputs\[0\]\.components: locations 126\.\.129 run past/],
    ['xfb components 0', (s) => { s.draws[2].a6xx.xfb.outputs[0].components = 0; }, /draws\[2\]\.a6xx\.xfb\.outputs\[0\]\.components: an integer in 1\.\.4/],
    ['xfb stride not dwords', (s) => { s.draws[0].a6xx.xfb.stride = 6; }, /draws\[0\]\.a6xx\.xfb\.stride: 6: a multiple of 4/],
    ['xfb offset negative', (s) => { s.draws[0].a6xx.xfb.offset = -64; }, /draws\[0\]\.a6xx\.xfb\.offset: an integer in 0\.\.256/],
    ['xfb size past the buffer', (s) => { s.draws[0].a6xx.xfb.offset = 32; s.draws[0].a6xx.xfb.size = 256; }, /draws\[0\]\.a6xx\.xfb\.size: an integer in 0\.\.224/],
    ['xfb resume first', (s) => { s.draws[0].a6xx.xfb.resume = true; }, /draws\[0\]\.a6xx\.xfb\.resume: no earlier draw captures into 'cap'/],
    ['drawAuto stride 0', (s) => { s.draws[1].a6xx.drawAuto.stride = 0; }, /draws\[1\]\.a6xx\.drawAuto\.stride: an integer in 1\.\./],
    ['drawAuto offset negative', (s) => { s.draws[1].a6xx.drawAuto.offset = -4; }, /draws\[1\]\.a6xx\.drawAuto\.offset: an integer in 0\.\./],
    ['drawAuto of an uncaptured buffer', (s) => { s.draws[1].a6xx.drawAuto.xfb = 'vertices'; }, /draws\[1\]\.a6xx\.drawAuto\.xfb: no earlier draw captures into 'vertices'/],
    ['feedback of a missing target', (s) => { s.ps = SCENES.feedback!().ps; s.ps.userData[0].target = 1; }, /ps\.userData\[0\]\.target: a colour target index \(the scene has 1\)/],
    ['feedback of a multisampled target', (s) => { s.ps = SCENES.feedback!().ps; s.samples = 2; }, /ps\.userData\[0\]\.target: a feedback read of a 2-sample target/],
    ['UBWC depth of 2 bytes a pixel', (s) => { s.depth = { format: 'Z_16' }; s.a6xx = { depthTile: 'UBWC' }; }, /a6xx\.depthTile: UBWC depth is modelled for 4, 8 and 16 bytes a pixel \(samples included\), not 2/],
  ];
  for (const [what, change, re] of cases) {
    const s = SCENES.xfb!();
    if (what.startsWith('feedback')) s.shaders.ps = SCENES.feedback!().shaders.ps;
    change(s);
    writeFileSync(f, JSON.stringify(s));
    for (const mode of ['sysmem', 'gmem']) {
      const res = await gpusim(['draw', f, '--gpu', 'a660', '--mode', mode, '--out', join(dir, 'o.png')]);
      assert.equal(res.code, EXIT_ERROR, `${what} ${mode}: exit ${res.code} ${res.err}`);
      assert.match(res.err, new RegExp(`^gpusim: scene ${re.source}`), `${what} ${mode}`);
      assert.equal(res.err.split('\n').filter(Boolean).length, 1);
    }
  }
  // The unchanged scene renders in both modes (GMEM with adreno.vsc.prim-count: the resumed capture
  // in the binning pass changes the counter the render pass's CP_DRAW_AUTO reads).
  writeFileSync(f, JSON.stringify(SCENES.xfb!()));
  for (const mode of ['sysmem', 'gmem']) assert.equal((await gpusim(['draw', f, '--gpu', 'a660', '--mode', mode, '--out', join(dir, 'o.png')])).code, mode === 'gmem' ? 1 : 0, mode);
}));

test('GMEM: more bins than the 32 VSC pipes of 32 bins hold end with exit 2 (not minutes of bins)', () => withDir(async (dir) => {
  const f = join(dir, 'scene.json');
  writeFileSync(f, JSON.stringify({ ...SCENES.feedback!(), width: 1024, height: 1024 }));
  for (const argv of [['draw', f, '--gpu', 'a630', '--mode', 'gmem', '--bin', '32x16', '--out', join(dir, 'o.png')], ['adreno', 'perf', f, '--gpu', 'a660', '--mode', 'gmem', '--bin', '32x16']]) {
    const res = await gpusim(argv);
    assert.equal(res.code, EXIT_ERROR, res.err);
    assert.match(res.err, /^gpusim: scene \(GMEM\): 32x64 bins of 32x16: more than the 32 VSC pipes of 32 bins each hold \(1024\); larger bins are needed\n$/);
  }
}));

test('a depth pitch of 0xca714dd6 (a mutated RB_DEPTH_BUFFER_PITCH) keeps the CCU shadow to mapped memory: a fault, not 6.9 TB', () => {
  const desc = a6xxSceneDescription(SCENES.depth!(), EX, 'a630');
  const b = buildDraw(desc);
  const pitch = gpuRegs('a6xx').reg('RB_DEPTH_BUFFER_PITCH');
  // The register's dword in the driver's stream (a type-4 write covering it).
  let at = -1;
  for (let k = 0; k < b.stream.length && at < 0; k++) {
    const h = b.stream[k]!;
    if (h >>> 28 === 4 && ((h >>> 8) & 0x7ffff) <= pitch && pitch < ((h >>> 8) & 0x7ffff) + (h & 0x7f)) at = k + 1 + pitch - ((h >>> 8) & 0x7ffff);
  }
  assert.ok(at > 0, 'the stream writes RB_DEPTH_BUFFER_PITCH');
  b.mem.write32(b.streamIova + 4 * at, 0xca714dd6);
  const diag = new Diagnostics();
  const cp = new CommandProcessor(b.mem, { diag, gpuId: desc.gpuId });
  cp.run(b.streamIova, b.stream.length);
  assert.ok(diag.list.some((d) => d.id === 'adreno.cp.iova-fault'), diag.list.map((d) => d.id).join(' '));
  const mapped = b.mem.segments.reduce((n, s) => n + s.size, 0);
  const kept = cp.caches.dirty('ccu-depth').reduce((n, r) => n + r.len, 0);
  assert.ok(kept > 0 && kept <= mapped, `${kept} bytes kept of ${mapped} mapped`);
});

test('adreno.cp.consts-past-file: constants loaded past the 256-vec4 file are dropped with a warning; quiet on the scenes', () => {
  const desc = a6xxSceneDescription(SCENES.feedback!(), EX, 'a630');
  const clean = runSceneStream(desc);
  assert.ok(!clean.diag.list.some((d) => d.id === 'adreno.cp.consts-past-file'));
  const ls6 = (block: string, dst: number, units: number): number => encodeFields('CP_LOAD_STATE6.0', { DST_OFF: dst, STATE_TYPE: 'ST6_CONSTANTS', STATE_SRC: 'SS6_DIRECT', STATE_BLOCK: block, NUM_UNIT: units }, 'a6xx');
  const vec4 = [1, 2, 3, 4];
  // Wholly past the file (DST_OFF 12288, the mutation that threw a RangeError), and straddling its end.
  for (const [op, block, dst, units, dropped] of [['CP_LOAD_STATE6_FRAG', 'SB6_FS_SHADER', 12288, 1, 1], ['CP_LOAD_STATE6_GEOM', 'SB6_VS_SHADER', 255, 2, 1], ['CP_LOAD_STATE6', 'SB6_CS_SHADER', 300, 1, 1]] as const) {
    const r = runSceneStream(desc, new CmdStream('a6xx').pkt(op, [ls6(block, dst, units), 0, 0, ...new Array(units).fill(vec4).flat()]));
    const d = r.diag.list.filter((x) => x.id === 'adreno.cp.consts-past-file');
    assert.equal(d.length, 1, `${op} DST_OFF ${dst}`);
    assert.match(d[0]!.message, new RegExp(`${units} vec4\\(s\\) at DST_OFF ${dst} reach past the 256-vec4 constant file: ${dropped} dropped`));
  }
  // The part inside the file is still loaded: vec4 255 of the VS constants.
  const r = runSceneStream(desc, new CmdStream('a6xx').pkt('CP_LOAD_STATE6_GEOM', [ls6('SB6_VS_SHADER', 255, 2), 0, 0, 9, 8, 7, 6, 5, 4, 3, 2]));
  assert.ok(r.diag.list.some((x) => x.id === 'adreno.cp.consts-past-file'));
});

test('a draw of no vertex with 2^32 - 1 instances (a mutated CP_DRAW_AUTO over an empty capture) ends with nothing drawn', () => {
  const desc = a6xxSceneDescription(triangle(), EX, 'a630');
  const init = encodeFields('vgt_draw_initiator_a4xx', { PRIM_TYPE: 'DI_PT_TRILIST', SOURCE_SELECT: 'DI_SRC_SEL_AUTO_INDEX', VIS_CULL: 'IGNORE_VISIBILITY' }, 'a6xx');
  const r = runSceneStream(desc, new CmdStream('a6xx').pkt('CP_DRAW_INDX_OFFSET', [init, 0xffffffff, 0]));
  const last = drawRuns(r.cp).at(-1)!;
  assert.equal(last.packet, 'CP_DRAW_INDX_OFFSET');
  assert.ok(last.ran && last.result, `the draw ran: ${last.missing.join('; ')}`);
  assert.deepEqual([last.result.vertices, last.result.primitives, last.result.fragments], [0, 0, 0]);
  assert.ok(!r.diag.list.some((x) => x.severity === 'error'), r.diag.list.map((x) => x.id).join(' '));
});
