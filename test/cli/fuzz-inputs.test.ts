/**
 * Fuzz every input format through the command line (seeded, deterministic): mutations of real
 * inputs — the bundled clang-19 code objects and manifests, scenes, R600 objects, assembly text,
 * afuc firmware, a6xx draws (scenes under --gpu a630, sysmem and --gmem; the driver's command
 * streams with mutated dwords, as .rd captures under `adreno run`), and from ../shared (skipped
 * when absent) Adreno .rd captures and ir3 binaries.
 * Each run must end with exit 0, 1 or 2, never 3 (an internal error); an exit 2 prints one line.
 * Budgets (--max-instructions, --steps, adreno run's --max-vertices/--max-pixels/...) bound every
 * run, so a mutation cannot hang the suite; mutated a6xx draw packets must reach the draw budget.
 * GPUSIM_FUZZ_N (default 200) sets the mutations per format.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync, copyFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../../src/cli/main.js';
import { mulberry32 } from '../../src/core/prng.js';
import { EXIT_ERROR } from '../../src/core/errors.js';
import { RdWriter } from '../../src/formats/rd.js';
import { a6xxSceneDescription } from '../../src/runtime/draw-a6xx.js';
import { buildDraw } from '../../src/adreno/driver/sysmem.js';
import { gmemDraw } from '../../src/adreno/driver/gmem.js';

const ROOT = new URL('../../..', import.meta.url).pathname;
const SHARED = join(ROOT, '../shared');
const N = Number(process.env.GPUSIM_FUZZ_N ?? 200);

/** A small draw budget for `adreno run` (each limit reachable within a fraction of a second). */
const BUDGET = ['--max-vertices', '20000', '--max-primitives', '10000', '--max-pixels', '30000', '--max-instructions', '200000', '--max-draw-mib', '64'];

const INTERESTING = [0, 0xff, 0x7f, 0x80, 0xfe, 0x01, 0x10];

/** One seeded mutation of bytes: flips, overwrites, interesting bytes, cuts, duplications. */
export function mutateBytes(b: Uint8Array, r: () => number, words = false): Uint8Array {
  let out = b.slice();
  const n = 1 + Math.floor(r() * 4);
  for (let k = 0; k < n && out.length; k++) {
    const at = Math.floor(r() * out.length);
    const kind = Math.floor(r() * 6);
    if (kind === 0) out[at]! ^= 1 << Math.floor(r() * 8);
    else if (kind === 1) out[at] = Math.floor(r() * 256);
    else if (kind === 2) out[at] = INTERESTING[Math.floor(r() * INTERESTING.length)]!;
    else if (kind === 3 && words) out.fill(r() < 0.5 ? 0xff : 0, at & ~3, Math.min(out.length, (at & ~3) + 4));
    else if (kind === 4 && r() < 0.3) out = out.slice(0, words ? at & ~3 : at);
    else if (kind === 5 && r() < 0.3) {
      const len = Math.min(out.length - at, 1 + Math.floor(r() * 64));
      const dup = new Uint8Array(out.length + len);
      dup.set(out.subarray(0, at + len));
      dup.set(out.subarray(at, at + len), at + len);
      dup.set(out.subarray(at + len), at + 2 * len);
      out = words ? dup.slice(0, dup.length & ~3) : dup;
    } else out[at]! ^= 0x80;
  }
  return out;
}

const TEXT_PIECES = ['\r', '\0', '"', '{', '}', '[', ']', ',', ':', '-1', '1e309', '4294967296', '0x', 'null', '\ufeff', ' ', '\n', 'v', 's', ';', '9999999999'];

/** One seeded mutation of text: a piece inserted, a span deleted or duplicated, a digit changed. */
export function mutateText(t: string, r: () => number): string {
  let s = t;
  const n = 1 + Math.floor(r() * 3);
  for (let k = 0; k < n; k++) {
    const at = Math.floor(r() * (s.length + 1));
    const kind = Math.floor(r() * 4);
    if (kind === 0) s = s.slice(0, at) + TEXT_PIECES[Math.floor(r() * TEXT_PIECES.length)] + s.slice(at);
    else if (kind === 1) s = s.slice(0, at) + s.slice(at + 1 + Math.floor(r() * 8));
    else if (kind === 2) {
      const len = 1 + Math.floor(r() * 40);
      s = s.slice(0, at + len) + s.slice(at, at + len) + s.slice(at + len);
    } else {
      const digits = [...s.matchAll(/[0-9]/g)];
      const d = digits[Math.floor(r() * digits.length)];
      if (d?.index !== undefined) s = s.slice(0, d.index) + String(Math.floor(r() * 10)) + s.slice(d.index + 1);
    }
  }
  return s;
}

async function gpusim(argv: string[]): Promise<{ code: number; err: string }> {
  let err = '';
  const code = await main(argv, { stdout: () => {}, stderr: (s) => void (err += s), isTTY: false });
  return { code, err };
}

/** Run `n` mutations: write each to `file`, run the command, check the exit and the message. */
async function fuzz(name: string, seed: number, n: number, write: (r: () => number) => void, argv: string[]): Promise<Record<number, number>> {
  const r = mulberry32(seed);
  const codes: Record<number, number> = {};
  for (let i = 0; i < n; i++) {
    write(r);
    const res = await gpusim(argv);
    codes[res.code] = (codes[res.code] ?? 0) + 1;
    assert.ok(res.code === 0 || res.code === 1 || res.code === EXIT_ERROR, `${name} mutation ${i} (seed ${seed}): exit ${res.code}: ${res.err}`);
    if (res.code === EXIT_ERROR) {
      assert.equal(res.err.split('\n').filter(Boolean).length, 1, `${name} mutation ${i}: ${res.err}`);
      assert.ok(res.err.length <= 420, `${name} mutation ${i}: message of ${res.err.length} characters`);
    }
  }
  // A fuzz that only ever hits the first check exercises nothing: some mutations must get through.
  assert.ok((codes[0] ?? 0) + (codes[1] ?? 0) > 0 || n < 20, `${name}: every mutation was rejected (${JSON.stringify(codes)})`);
  return codes;
}

function withDir<T>(f: (dir: string) => Promise<T>): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), 'gpusim-fuzz-'));
  return f(dir).finally(() => rmSync(dir, { recursive: true, force: true }));
}

test('fuzz: AMD code objects (info, disasm) and manifests (run)', () => withDir(async (dir) => {
  const co = new Uint8Array(readFileSync(join(ROOT, 'kernels/bin/gfx1100/vadd.co')));
  const f = join(dir, 'k.co');
  await fuzz('code object info', 1, N, (r) => writeFileSync(f, mutateBytes(co, r)), ['info', f]);
  await fuzz('code object disasm', 2, N, (r) => writeFileSync(f, mutateBytes(co, r)), ['disasm', f]);
  const m = readFileSync(join(ROOT, 'kernels/manifests/vadd.json'), 'utf8')
    .replace('"../bin/gfx1100/vadd.co"', JSON.stringify(f)).replace('"expected/vadd.c.bin"', JSON.stringify(join(ROOT, 'kernels/manifests/expected/vadd.c.bin')));
  const mf = join(dir, 'm.json');
  writeFileSync(f, co);
  writeFileSync(join(dir, 'm0.json'), m);
  await fuzz('manifest', 3, N, (r) => writeFileSync(mf, mutateText(m, r)), ['run', mf, '--max-instructions', '20000']);
  // Mutated code objects under `run` (mutation 82 of seed 4 once hung the ELF string scan: a
  // SHT_NULL header named as the section-name table; test/formats/elf.test.ts keeps that case).
  await fuzz('code object run', 4, N, (r) => writeFileSync(f, mutateBytes(co, r)), ['run', mf.replace('m.json', 'm0.json'), '--max-instructions', '20000']);
}));

test('fuzz: assembly text (asm, asm -o code object, run from .s)', () => withDir(async (dir) => {
  const src = readFileSync(join(ROOT, 'examples/asm-kernel/sum.s'), 'utf8');
  const f = join(dir, 'k.s');
  await fuzz('asm', 5, N, (r) => writeFileSync(f, mutateText(src, r)), ['asm', f]);
  await fuzz('asm -o', 6, N, (r) => writeFileSync(f, mutateText(src, r)), ['asm', f, '-o', join(dir, 'k.co')]);
}));

test('fuzz: scenes (draw)', () => withDir(async (dir) => {
  for (const s of ['vs.s', 'ps.s', 'vs-legacy.s', 'ps-legacy.s']) copyFileSync(join(ROOT, 'examples/triangle', s), join(dir, s));
  const text = readFileSync(join(ROOT, 'examples/triangle/scene.json'), 'utf8');
  const f = join(dir, 'scene.json');
  await fuzz('scene', 7, N, (r) => writeFileSync(f, mutateText(text, r)), ['draw', f, '--max-instructions', '50000']);
  const ps = readFileSync(join(ROOT, 'examples/triangle/ps.s'), 'utf8');
  writeFileSync(f, text);
  await fuzz('scene ps.asm', 8, Math.ceil(N / 2), (r) => writeFileSync(join(dir, 'ps.s'), mutateText(ps, r)), ['draw', f, '--max-instructions', '50000']);
}));

test('fuzz: a6xx scenes (draw --gpu a630, sysmem and GMEM)', () => withDir(async (dir) => {
  for (const s of ['vs-a6xx.s', 'fs-a6xx.s']) copyFileSync(join(ROOT, 'examples/triangle', s), join(dir, s));
  copyFileSync(join(ROOT, 'examples/texture/fs-a6xx.s'), join(dir, 'tex-fs-a6xx.s'));
  const tri = readFileSync(join(ROOT, 'examples/triangle/scene.json'), 'utf8');
  // The texture scene with its shaders next to it (a6xx keys only: the AMD shaders are not read).
  const tex = readFileSync(join(ROOT, 'examples/texture/scene.json'), 'utf8').replace('"../triangle/vs-a6xx.s"', '"vs-a6xx.s"').replace('"fs-a6xx.s"', '"tex-fs-a6xx.s"');
  const f = join(dir, 'scene.json');
  const out = join(dir, 'o.png');
  await fuzz('a6xx scene', 21, N, (r) => writeFileSync(f, mutateText(r() < 0.5 ? tri : tex, r)), ['draw', f, '--gpu', 'a630', '--out', out]);
  await fuzz('a6xx scene gmem', 22, Math.ceil(N / 2), (r) => writeFileSync(f, mutateText(r() < 0.5 ? tri : tex, r)), ['draw', f, '--gpu', 'a630', '--gmem', '--bin', '32x16', '--out', out]);
  const fs = readFileSync(join(ROOT, 'examples/texture/fs-a6xx.s'), 'utf8');
  writeFileSync(f, tex);
  await fuzz('a6xx scene fs.asm', 23, Math.ceil(N / 2), (r) => writeFileSync(join(dir, 'tex-fs-a6xx.s'), mutateText(fs, r)), ['draw', f, '--gpu', 'a630', '--out', out]);
}));

test('fuzz: a6xx draw streams (the driver\'s, dwords mutated, adreno run)', () => withDir(async (dir) => {
  const sceneDir = join(ROOT, 'examples/texture');
  const desc = a6xxSceneDescription(JSON.parse(readFileSync(join(sceneDir, 'scene.json'), 'utf8')) as Record<string, unknown>, sceneDir, 'a630');
  const f = join(dir, 'd.rd');
  for (const [name, seed, gmem] of [['a6xx stream sysmem', 24, false], ['a6xx stream gmem', 25, true]] as const) {
    const b = buildDraw(desc);
    const g = gmem ? gmemDraw(b, desc, { bin: { w: 32, h: 16 } }) : undefined;
    const iova = g?.streamIova ?? b.streamIova;
    const segs = b.mem.segments;
    // Mostly the stream itself (IB1; with GMEM the pass, whose draw IB is the sysmem stream),
    // sometimes another segment the stream points at (IB2, descriptors, shaders, vertices).
    await fuzz(name, seed, Math.ceil(N / 2), (r) => {
      const k = r() < 0.6 ? segs.findIndex((s) => s.base === iova) : Math.floor(r() * segs.length);
      const w = new RdWriter().gpuId(desc.gpuId);
      let dwords = 0;
      for (const [j, s] of segs.entries()) {
        const bytes = j === k ? mutateBytes(s.u8, r, true) : s.u8;
        if (s.base === iova) dwords = bytes.length >> 2;
        w.buffer(s.base, bytes);
      }
      writeFileSync(f, w.cmdstream(iova, g && k !== segs.findIndex((s) => s.base === iova) ? g.streamDwords : Math.min(dwords, g?.streamDwords ?? b.stream.length)).bytes());
    }, ['adreno', 'run', f, ...BUDGET]);
  }
  // The draw packets' own dwords (counts, instances, index addresses) set to large or random
  // values: the run's draw budget must stop them with one line naming the limit (mutation 5 of
  // seed 100 above once set NUM_INSTANCES to 1862270977 and grew without bound).
  const b = buildDraw(desc);
  const seg = b.mem.segments.find((s) => s.base === b.streamIova)!;
  const words = new Uint32Array(seg.u8.slice().buffer);
  const draws: number[] = [];
  for (let k = 0; k < b.stream.length; k++) if ([0x38, 0x28, 0x29].includes((words[k]! >>> 16) & 0x7f) && words[k]! >>> 28 === 7) draws.push(k);
  assert.ok(draws.length >= 2, 'the driver stream has draw packets');
  const LARGE = [0xffffffff, 0x6f000001, 0x10000, 0x1000000, 0x7fffffff, 3000];
  let budgetHits = 0;
  const r = mulberry32(26);
  for (let i = 0; i < Math.ceil(N / 4); i++) {
    const m = words.slice();
    const at = draws[Math.floor(r() * draws.length)]! + 1 + Math.floor(r() * 3);
    m[at] = r() < 0.7 ? LARGE[Math.floor(r() * LARGE.length)]! : Math.floor(r() * 2 ** 32);
    const w = new RdWriter().gpuId(desc.gpuId);
    for (const s of b.mem.segments) w.buffer(s.base, s === seg ? new Uint8Array(m.buffer) : s.u8);
    writeFileSync(f, w.cmdstream(b.streamIova, b.stream.length).bytes());
    const res = await gpusim(['adreno', 'run', f, ...BUDGET]);
    assert.ok(res.code === 0 || res.code === 1 || res.code === EXIT_ERROR, `a6xx draw packet mutation ${i}: exit ${res.code}: ${res.err}`);
    if (res.code === EXIT_ERROR) {
      assert.equal(res.err.split('\n').filter(Boolean).length, 1, res.err);
      assert.match(res.err, /over the draw (budget|limit) of \d+( MiB)? \(adreno run --max-[a-z-]+\)/);
      budgetHits++;
    }
  }
  assert.ok(budgetHits > 0 || N < 20, 'no draw-packet mutation reached the draw budget');
}));

test('fuzz: R600 objects (disasm, run)', () => withDir(async (dir) => {
  const o = new Uint8Array(readFileSync(join(ROOT, 'kernels/r600/bin/cypress/vadd.o')));
  const f = join(dir, 'vadd.o');
  await fuzz('r600 disasm', 9, N, (r) => writeFileSync(f, mutateBytes(o, r, true)), ['r600', 'disasm', f]);
  const m = JSON.parse(readFileSync(join(ROOT, 'kernels/r600/manifests/vadd.cypress.json'), 'utf8')) as Record<string, unknown>;
  m.codeObject = f;
  delete m.expect;
  const mf = join(dir, 'm.json');
  writeFileSync(mf, JSON.stringify(m));
  await fuzz('r600 run', 10, Math.ceil(N / 2), (r) => writeFileSync(f, mutateBytes(o, r, true)), ['r600', 'run', mf, '--max-instructions', '20000']);
}));

test('fuzz: afuc firmware (disasm, emu)', () => withDir(async (dir) => {
  const fw = join(dir, 'test.fw');
  const made = await gpusim(['adreno', 'afuc', 'asm', 'test', '-o', fw, '--fw-id', '6ee']);
  assert.equal(made.code, 0, made.err);
  const b = new Uint8Array(readFileSync(fw));
  const f = join(dir, 'm.fw');
  await fuzz('afuc disasm', 11, N, (r) => writeFileSync(f, mutateBytes(b, r, true)), ['adreno', 'afuc', 'disasm', f]);
  await fuzz('afuc emu', 12, N, (r) => writeFileSync(f, mutateBytes(b, r, true)), ['adreno', 'afuc', 'emu', f, '--steps', '2000']);
}));

test('fuzz: Adreno .rd captures (decode, run)', { skip: !existsSync(join(SHARED, 'adreno-captures/traces/fd-clouds.rd.gz')) && 'no ../shared/adreno-captures' }, () => withDir(async (dir) => {
  const rd = new Uint8Array(gunzipSync(readFileSync(join(SHARED, 'adreno-captures/traces/fd-clouds.rd.gz'))));
  const f = join(dir, 'm.rd');
  await fuzz('rd decode', 13, N, (r) => writeFileSync(f, mutateBytes(rd, r, true)), ['adreno', 'decode', f, '--summary']);
  await fuzz('rd run', 14, Math.ceil(N / 2), (r) => writeFileSync(f, mutateBytes(rd, r, true)), ['adreno', 'run', f]);
}));

test('fuzz: ir3 binaries (disasm)', { skip: !existsSync(join(SHARED, 'ir3-corpus/bin')) && 'no ../shared/ir3-corpus' }, () => withDir(async (dir) => {
  const bins = readdirSync(join(SHARED, 'ir3-corpus/bin')).filter((n) => n.endsWith('.a630.bin')).sort().slice(0, 4);
  const f = join(dir, 'm.bin');
  let seed = 15;
  for (const name of bins) {
    const b = new Uint8Array(readFileSync(join(SHARED, 'ir3-corpus/bin', name)));
    await fuzz(`ir3 ${name}`, seed++, Math.ceil(N / bins.length), (r) => writeFileSync(f, mutateBytes(b, r, true)), ['adreno', 'ir3', 'disasm', f, '--gpu', 'a630']);
  }
}));
