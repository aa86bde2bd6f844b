/**
 * The run manifest and `gpusim run`: validation (one-line errors naming the field, exit 2), exit
 * codes 0/1, --out/--json/--trace, --strict, the instruction budget, and the library API.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync, existsSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { main } from '../../src/cli/main.js';
import {
  parseManifest, bufferContents, compareBuffers, parseInt64, scalarBytes, structBytes, loadManifest, readElem, ELEM, mulberry32,
} from '../../src/runtime/manifest.js';
import { runKernel, runManifest } from '../../src/runtime/run.js';
import { InputError } from '../../src/core/errors.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const VADD_CO = join(ROOT, 'kernels/bin/gfx1100/vadd.co');

async function cli(args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(args, { stdout: (s) => void (out += s), stderr: (s) => void (err += s), isTTY: false });
  return { code, out, err };
}

function vaddManifest(extra: Record<string, unknown> = {}, n = 100): Record<string, unknown> {
  return {
    codeObject: VADD_CO, kernel: 'vadd', grid: [n, 1, 1], block: [32, 1, 1],
    buffers: {
      a: { type: 'f32', count: n, init: { random: { seed: 3, min: -4, max: 4, step: 0.5 } } },
      b: { type: 'f32', count: n, init: { fill: 1.25 } },
      c: { type: 'f32', count: n },
    },
    args: ['a', 'b', 'c', { u32: n }],
    outputs: ['c'],
    ...extra,
  };
}

/** A copy of a gfx1030 ELF64 code object relabelled gfx1010: EF_AMDGPU_MACH (e_flags [7:0]) and the metadata's target name. */
function relabel(bytes: Uint8Array, mach: number): Uint8Array {
  const b = Uint8Array.from(bytes);
  b[48] = mach;
  const from = new TextEncoder().encode('gfx1030');
  const to = new TextEncoder().encode('gfx1010');
  for (let i = 0; i + from.length <= b.length; i++) if (from.every((c, k) => b[i + k] === c)) b.set(to, i);
  return b;
}

function writeTmp(obj: unknown, files: Record<string, Uint8Array> = {}): { dir: string; path: string } {
  const dir = mkdtempSync(join(tmpdir(), 'gpusim-run-'));
  for (const [f, b] of Object.entries(files)) writeFileSync(join(dir, f), b);
  const path = join(dir, 'm.json');
  writeFileSync(path, JSON.stringify(obj));
  return { dir, path };
}

function expectedVadd(n: number): Uint8Array {
  const m = parseManifest(vaddManifest({}, n));
  const a = new Float32Array(bufferContents(m.buffers[0]!).buffer);
  return new Uint8Array(Float32Array.from(a, (x) => Math.fround(x + 1.25)).buffer);
}

test('manifest validation names the field in one line', () => {
  const bad: [Record<string, unknown>, RegExp][] = [
    [{ ...vaddManifest(), grid: [0, 1, 1] }, /^<inline>: grid\[0\]: must be a positive 32-bit integer$/],
    [{ ...vaddManifest(), codeObject: 3 }, /codeObject: must be a non-empty path string/],
    [{ ...vaddManifest(), buffers: { a: { type: 'f31', count: 1 } } }, /buffers\.a\.type: must be one of u8 i8 u16/],
    [{ ...vaddManifest(), buffers: { a: { type: 'u8' } } }, /buffers\.a\.count: required/],
    [{ ...vaddManifest(), buffers: { a: { type: 'u8', count: 2, init: { values: [1, 2, 3] } } } }, /buffers\.a\.init\.values: 3 values for 2 elements/],
    [{ ...vaddManifest(), buffers: { a: { type: 'u8', count: 2, init: { values: [256] } } } }, /buffers\.a\.init\.values\[0\]: 256 does not fit u8/],
    [{ ...vaddManifest(), buffers: { a: { type: 'i32', count: 2, init: { random: { min: 5, max: 1 } } } } }, /buffers\.a\.init\.random: min 5 is above max 1/],
    [{ ...vaddManifest(), buffers: { a: { type: 'f32', count: 2, init: { splat: 1 } } } }, /buffers\.a\.init\.splat: unknown init/],
    [{ ...vaddManifest(), args: ['nope'] }, /args\[0\]: 'nope' is not a buffer/],
    [{ ...vaddManifest(), args: [{ f33: 1 }] }, /args\[0\]: unknown argument type 'f33'/],
    [{ ...vaddManifest(), args: [{ local: -4 }] }, /args\[0\]\.local: must be a positive integer/],
    [{ ...vaddManifest(), args: [{ i32: 1.5 }] }, /args\[0\]\.i32: 1\.5 is not an integer/],
    [{ ...vaddManifest(), outputs: ['z'] }, /outputs\[0\]: "z" is not a buffer/],
    [{ ...vaddManifest(), expect: { c: { ulp: 1 } } }, /expect\.c\.file: must be a path string/],
    [{ ...vaddManifest(), expect: { c: { file: 'x', ulp: -1 } } }, /expect\.c\.ulp: must be a non-negative integer/],
    [{ ...vaddManifest(), colour: 'red' }, /colour: unknown field/],
    [{ ...vaddManifest(), trapHandler: { asm: 'h.s', code: 'h.bin' } }, /trapHandler: give exactly one of asm/],
    [{ ...vaddManifest(), trapHandler: { asm: 'h.s', tma: 'nope' } }, /trapHandler\.tma: "nope" is not a buffer/],
  ];
  for (const [m, re] of bad) {
    assert.throws(() => parseManifest(m), (e: unknown) => e instanceof InputError && re.test(e.message) && !e.message.includes('\n'), String(re));
  }
});

test('buffer contents: fill, values, random (seeded, in range, on the step grid), file, 64-bit strings', () => {
  const m = parseManifest({
    codeObject: 'x.co', grid: [1],
    buffers: {
      f: { type: 'i16', count: 3, init: { fill: -2 } },
      v: { type: 'u64', count: 3, init: { values: ['0xffffffffffffffff', -1, 5] } },
      r: { type: 'i32', count: 1000, init: { random: { seed: 9, min: -3, max: 3 } } },
      s: { type: 'f32', count: 1000, init: { random: { seed: 9, min: -1, max: 1, step: 0.25 } } },
      h: { type: 'f16', count: 2, init: { values: ['NaN', 0.5] } },
      raw: { type: 'u8', file: 'in.bin' },
    },
  }, '<inline>', '/tmp');
  const c = (n: string) => bufferContents(m.buffers.find((b) => b.name === n)!, () => Uint8Array.of(7, 8, 9));
  assert.deepEqual([...new Int16Array(c('f').buffer)], [-2, -2, -2]);
  assert.deepEqual([...new Uint32Array(c('v').buffer)], [0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff, 5, 0]);
  const r = [...new Int32Array(c('r').buffer)];
  assert.ok(r.every((x) => x >= -3 && x <= 3));
  assert.equal(new Set(r).size, 7, 'every value of [min, max] is drawn');
  assert.deepEqual(c('r'), c('r'), 'seeded');
  assert.ok([...new Float32Array(c('s').buffer)].every((x) => x >= -1 && x <= 1 && Number.isInteger(x * 4)));
  assert.deepEqual([...new Uint16Array(c('h').buffer)], [0x7e00, 0x3800]);
  assert.deepEqual([...c('raw')], [7, 8, 9]);
  assert.deepEqual(parseInt64('-2'), [0xfffffffe, 0xffffffff]);
  assert.deepEqual(parseInt64('0x1_0000_0001'), [1, 1]);
  assert.equal(parseInt64('0x1ffffffffffffffff'), null);
  assert.deepEqual([...scalarBytes('i64', -1)], [255, 255, 255, 255, 255, 255, 255, 255]);
  assert.deepEqual([...structBytes([{ type: 'u8', value: 1 }, { type: 'f32', value: 1 }, { type: 'u16', value: 2 }])], [1, 0, 0, 0, 0, 0, 0x80, 0x3f, 2, 0, 0, 0]);
});

test('compareBuffers: integers exact, floats within ulp, NaN = NaN, +0 = -0', () => {
  const f = (...v: number[]) => new Uint8Array(Float32Array.from(v).buffer);
  const one = 1;
  const next = new Float32Array(new Uint32Array([0x3f800001]).buffer)[0]!;
  assert.equal(compareBuffers('f32', f(one, NaN, 0), f(next, NaN, -0), 1).count, 0);
  assert.equal(compareBuffers('f32', f(one), f(next), 0).count, 1);
  assert.equal(compareBuffers('f32', f(NaN), f(1), 1000).count, 1);
  assert.equal(compareBuffers('u32', f(one), f(next), 5).count, 1, 'integers ignore the ulp bound');
});

test('gpusim run without expect says nothing was checked instead of PASS', async () => {
  const { path } = writeTmp(vaddManifest({}, 64), {});
  const r = await cli(['run', path]);
  assert.equal(r.code, 0, r.out + r.err);
  assert.match(r.out, /\nran \(nothing checked\)\n$/);
  assert.doesNotMatch(r.out, /PASS/);
});

test('gpusim run: pass, --json, --out, --trace', async () => {
  const n = 100;
  const { dir, path } = writeTmp(vaddManifest({ expect: { c: { file: 'c.bin', ulp: 0 } } }, n), { 'c.bin': expectedVadd(n) });
  const r = await cli(['run', path]);
  assert.equal(r.code, 0, r.out + r.err);
  assert.match(r.out, /^vadd \(gfx1100 wave32\): 4 workgroups, 4 waves, /);
  assert.match(r.out, /c: ok\nPASS\n$/);
  const j = await cli(['run', path, '--json', '--order', 'random', '--seed', '5', '--out', join(dir, 'o'), '--trace', join(dir, 't.txt')]);
  assert.equal(j.code, 0, j.err);
  const run = JSON.parse(j.out) as Record<string, unknown>;
  assert.equal(run.ok, true);
  assert.equal(run.order, 'random');
  assert.equal(run.seed, 5);
  assert.equal(run.waves, 4);
  assert.equal(run.workgroups, 4);
  assert.ok((run.waveInstructions as number) > 0 && (run.laneOperations as number) >= n);
  assert.ok((run.byClass as Record<string, number>).valu! > 0);
  assert.deepEqual(run.diagnostics, []);
  assert.deepEqual(readdirSync(join(dir, 'o')).sort(), ['c.bin', 'run.json']);
  assert.deepEqual(new Uint8Array(readFileSync(join(dir, 'o/c.bin'))), expectedVadd(n));
  assert.deepEqual(JSON.parse(readFileSync(join(dir, 'o/run.json'), 'utf8')), run);
  const trace = readFileSync(join(dir, 't.txt'), 'utf8').trim().split('\n');
  assert.equal(trace.length, run.waveInstructions);
  assert.match(trace[0]!, /^wave \d+ pc 0x[0-9a-f]+ exec 0x[0-9a-f]{8}  s_load_b\d+ .*\| s\d+=0x[0-9a-f]+.*\| mem 0x[0-9a-f]+\.\.0x[0-9a-f]+ \(\d+ B\)$/);
  assert.ok(trace.some((l) => / s_endpgm$/.test(l)));
});

test('gpusim run: exit 1 on a mismatch, listing the first differences', async () => {
  const n = 64;
  const want = expectedVadd(n);
  new Float32Array(want.buffer)[5] = 1e9;
  const { path } = writeTmp(vaddManifest({ expect: { c: { file: 'c.bin' } } }, n), { 'c.bin': want });
  const r = await cli(['run', path]);
  assert.equal(r.code, 1);
  assert.match(r.out, /c: 1 mismatches\n {4}\[5\] got [-0-9.]+, want 1000000000 \(\d+ ulp\)\n/);
  assert.match(r.out, /FAIL\n$/);
});

test('gpusim run --threads: a split (or late-joined) run gives the one-thread bytes and report; a trace keeps one thread and says so', async () => {
  const n = 1000;
  const { dir, path } = writeTmp(vaddManifest({ expect: { c: { file: 'c.bin', ulp: 0 } } }, n), { 'c.bin': expectedVadd(n) });
  const one = await cli(['run', path, '--json', '--out', join(dir, 'o1')]);
  const two = await cli(['run', path, '--json', '--threads', '2', '--out', join(dir, 'o2')]);
  assert.equal(two.code, 0, two.err);
  const a = JSON.parse(one.out) as Record<string, unknown>;
  const b = JSON.parse(two.out) as Record<string, unknown>;
  // A grid this small is usually done before the worker has loaded: the run then says so (the
  // per-dispatch late join of parallel.ts); either way the bytes and the report are one thread's.
  if (b.threads === 2) assert.equal(b.threadsReason, undefined);
  else {
    assert.equal(b.threads, 1);
    assert.match(String(b.threadsReason), /a small dispatch/);
  }
  for (const k of ['ok', 'waves', 'workgroups', 'waveInstructions', 'laneOperations', 'byClass', 'diagnostics', 'expectations']) assert.deepEqual(b[k], a[k], k);
  assert.deepEqual(readFileSync(join(dir, 'o2/c.bin')), readFileSync(join(dir, 'o1/c.bin')));
  const traced = await cli(['run', path, '--threads', '2', '--trace', join(dir, 't.txt')]);
  assert.equal(traced.code, 0, traced.err);
  assert.match(traced.out, /, 1 thread \(tracing\)\)/);
});

test('gpusim run: exit 2 for bad input, with the field named', async () => {
  const cases: [string[], RegExp][] = [
    [['run'], /expected exactly one manifest/],
    [['run', '/nonexistent/m.json'], /no such file/],
    [['run', writeTmp({ ...vaddManifest(), grid: 'x' }).path, '--seed', '1'], /grid: must be an array/],
    [['run', writeTmp(vaddManifest()).path, '--order', 'sideways'], /--order must be roundrobin or random/],
    [['run', writeTmp(vaddManifest()).path, '--max-instructions', '0'], /--max-instructions: 0 is out of range/],
    [['run', writeTmp(vaddManifest()).path, '--threads', 'many'], /--threads \(auto or N\): 'many' is not an integer/],
    [['run', writeTmp(vaddManifest()).path, '--threads', '0'], /--threads \(auto or N\): 0 is out of range \[1, 256\]/],
    [['run', writeTmp({ ...vaddManifest(), args: ['a', 'b', 'c'] }).path], /args: kernel vadd takes 4 arguments/],
    [['run', writeTmp({ ...vaddManifest(), args: ['a', 'b', { u32: 1 }, 'c'] }).path], /args\[2\] \(c\): the kernel expects global_buffer/],
    [['run', writeTmp({ ...vaddManifest(), args: ['a', 'b', 'c', { u64: 1 }] }).path], /args\[3\] \(n\): the kernel's argument is 4 bytes/],
    [['run', writeTmp({ ...vaddManifest(), kernel: 'vsub' }).path], /kernel: no kernel 'vsub'/],
    [['run', writeTmp({ ...vaddManifest(), codeObject: 'missing.co' }).path], /codeObject: cannot read/],
    [['run', writeTmp({ ...vaddManifest(), expect: { c: { file: 'missing.bin' } } }).path], /expect\.c\.file: cannot read/],
    // gfx1030's vadd.co relabelled gfx1010 (EF_AMDGPU_MACH 0x33): a family member gpusim does not execute.
    [['run', writeTmp({ ...vaddManifest(), codeObject: 'vadd.co' }, { 'vadd.co': relabel(readFileSync(join(ROOT, 'kernels/bin/gfx1030/vadd.co')), 0x33) }).path], /target gfx1010 cannot run/],
  ];
  for (const [args, re] of cases) {
    const r = await cli(args);
    assert.equal(r.code, 2, `${args.join(' ')}: ${r.err}`);
    assert.match(r.err, re);
    assert.equal(r.err.trim().split('\n').length, 1, r.err);
  }
});

test('gpusim run: diagnostics are reported; --strict turns them into exit 1', async () => {
  // n larger than the buffers: the lanes past the end read and write unmapped memory.
  const m = vaddManifest({}, 64);
  (m.args as unknown[])[3] = { u32: 96 };
  (m as { grid: number[] }).grid = [96, 1, 1];
  const { path } = writeTmp(m);
  const loose = await cli(['run', path]);
  assert.equal(loose.code, 0, loose.out);
  assert.match(loose.out, /diagnostics: gpusim\.memory\.unmapped x\d+/);
  const strict = await cli(['run', path, '--strict']);
  assert.equal(strict.code, 1);
  assert.match(strict.out, /ABORTED/);
});

test('gpusim run: the instruction budget stops a run (exit 1, aborted)', async () => {
  const { path } = writeTmp(vaddManifest());
  const r = await cli(['run', path, '--max-instructions', '10', '--json']);
  assert.equal(r.code, 1);
  const j = JSON.parse(r.out) as { aborted: boolean; waveInstructions: number; diagnosticCounts: Record<string, number> };
  assert.equal(j.aborted, true);
  assert.equal(j.waveInstructions, 10);
  assert.equal(j.diagnosticCounts['gpusim.instruction-budget'], 1);
});

test('the instruction budget running out at a pass boundary stops the run with its own report only', async () => {
  // vaddmul (small grid): a budget of 1728 ran out exactly where one workgroup's turn ended, and the
  // next group's pass, issuing nothing, was also reported as gfx11.wave.stuck. Every budget across
  // the run, in both orders: one budget report, nothing stuck.
  const { benchCases } = await import('../../bench/cases.js');
  const c = benchCases({ root: ROOT, small: true, only: (n) => n === 'vaddmul' })[0]!;
  const total = runKernel(c.launch).report.waveInstructions;
  for (let b = 1; b < total; b += 37) {
    for (const order of ['roundrobin', 'random'] as const) {
      const r = runKernel(c.launch, { maxInstructions: b, order, seed: 3 });
      assert.equal(r.report.aborted, true);
      assert.equal(r.report.waveInstructions, b, `budget ${b} ${order}`);
      assert.deepEqual(r.report.diagnosticCounts, { 'gpusim.instruction-budget': 1 }, `budget ${b} ${order}`);
    }
  }
  const at = runKernel(c.launch, { maxInstructions: 1728 });
  assert.deepEqual(at.report.diagnosticCounts, { 'gpusim.instruction-budget': 1 });
});

test('runKernel and runManifest as a library', () => {
  const n = 40;
  const a = Float32Array.from({ length: n }, (_, i) => i);
  const b = Float32Array.from({ length: n }, (_, i) => 2 * i);
  const r = runKernel({
    codeObject: new Uint8Array(readFileSync(VADD_CO)), grid: [n, 1, 1], block: [16, 1, 1],
    buffers: [
      { name: 'a', type: 'f32', data: new Uint8Array(a.buffer) },
      { name: 'b', type: 'f32', data: new Uint8Array(b.buffer) },
      { name: 'c', type: 'f32', data: new Uint8Array(4 * n) },
    ],
    args: [{ kind: 'buffer', name: 'a' }, { kind: 'buffer', name: 'b' }, { kind: 'buffer', name: 'c' }, { kind: 'scalar', type: 'u32', value: n }],
  }, { order: 'random', seed: 3 });
  assert.deepEqual([...new Float32Array(r.buffers.c!.buffer)], Array.from({ length: n }, (_, i) => 3 * i));
  assert.equal(r.report.workgroups, 3);
  assert.equal(r.report.aborted, false);
  const vadd = join(ROOT, 'kernels/manifests/vadd.json');
  assert.ok(existsSync(vadd));
  const m = runManifest(loadManifest(vadd));
  assert.equal(m.exitCode, 0);
  assert.equal(m.expectations.c!.ok, true);
});

test('trapHandler: without one, LLVM\'s s_trap 2 sequence ends in s_sethalt; with one, the handler runs with TMA', async () => {
  const m = JSON.parse(readFileSync(join(ROOT, 'kernels/manifests/trap.json'), 'utf8')) as Record<string, unknown>;
  m.codeObject = join(ROOT, 'kernels/bin/gfx1100/trap.co');
  delete m.expect;
  m.trapHandler = { asm: join(ROOT, 'kernels/manifests/trap_handler.s'), tma: 'trapped' };
  const withHandler = await cli(['run', writeTmp(m).path, '--json']);
  assert.equal(withHandler.code, 0, withHandler.out);
  assert.deepEqual((JSON.parse(withHandler.out) as { diagnostics: unknown[] }).diagnostics, []);
  delete m.trapHandler;
  const none = await cli(['run', writeTmp(m).path, '--json']);
  assert.equal(none.code, 1);
  const j = JSON.parse(none.out) as { aborted: boolean; diagnosticCounts: Record<string, number> };
  assert.equal(j.aborted, true);
  assert.ok(j.diagnosticCounts['gfx11.wave.halted']! >= 1, JSON.stringify(j.diagnosticCounts));
  m.trapHandler = { asm: writeTmp({}).dir + '/bad.s' };
  writeFileSync((m.trapHandler as { asm: string }).asm, 's_frobnicate s0\n');
  const bad = await cli(['run', writeTmp(m).path]);
  assert.equal(bad.code, 2);
  assert.match(bad.err, /trapHandler\.asm: /);
});

test('a seed fixes the schedule: same seed, same counts; race-free outputs equal across orders', () => {
  const m = loadManifest(join(ROOT, 'kernels/manifests/reduce_lds.json'));
  const a = runManifest(m, { order: 'random', seed: 42 });
  const b = runManifest(m, { order: 'random', seed: 42 });
  const c = runManifest(m, { order: 'roundrobin' });
  const strip = (r: typeof a) => ({ ...r.report, timeMs: 0 });
  assert.deepEqual(strip(a), strip(b));
  assert.deepEqual(a.buffers.partial, c.buffers.partial);
  assert.equal(a.exitCode, 0);
});

test('random buffers: element i is the seed\'s i-th number of mulberry32, mapped to the range', () => {
  const n = 3000;
  const cases: [string, Record<string, unknown>, (r: () => number) => number][] = [
    ['f32', { seed: 44, min: -2, max: 2 }, (r) => Math.fround(-2 + r() * 4)],
    ['f64', { seed: 3, min: 0, max: 1e6 }, (r) => r() * 1e6],
    ['f16', { seed: 5, min: -1, max: 1, step: 0.25 }, (r) => -1 + Math.floor(r() * 9) * 0.25],
    ['f32', { seed: 7, min: 0, max: 8, step: 0.5 }, (r) => Math.floor(r() * 17) * 0.5],
    ['u8', { seed: 9, min: 10, max: 20 }, (r) => 10 + Math.floor(r() * 11)],
    ['i32', { seed: 11, min: -5, max: 5 }, (r) => -5 + Math.floor(r() * 11)],
    ['u32', { seed: 13, min: 0, max: 4294967295 }, (r) => Math.floor(r() * 4294967296)],
  ];
  for (const [type, random, expect] of cases) {
    const m = parseManifest({ ...vaddManifest({}, n), buffers: { a: { type, count: n, init: { random } } }, args: ['a'], outputs: [] });
    const bytes = bufferContents(m.buffers[0]!);
    const r = mulberry32(random['seed'] as number);
    for (let i = 0; i < n; i++) {
      const want = Math.min(expect(r), random['max'] as number);
      const got = readElem(new DataView(bytes.buffer), i * ELEM[type as 'f32'].bytes, type as 'f32');
      assert.equal(Number(got), type === 'f16' ? want : type === 'f32' ? Math.fround(want) : want, `${type} ${JSON.stringify(random)} element ${i}`);
    }
  }
  // A 64-bit range wider than 2^32 draws two numbers per element.
  const w = parseManifest({ ...vaddManifest({}, n), buffers: { a: { type: 'u64', count: 4, init: { random: { seed: 1, min: 0, max: 2 ** 40 } } } }, args: ['a'], outputs: [] });
  const r = mulberry32(1);
  const wb = new DataView(bufferContents(w.buffers[0]!).buffer);
  for (let i = 0; i < 4; i++) {
    const v = Math.floor((r() * 2 ** 21 + Math.floor(r() * 2 ** 32) / 2 ** 32) / 2 ** 21 * (2 ** 40 + 1));
    assert.equal(wb.getUint32(i * 8, true) + wb.getUint32(i * 8 + 4, true) * 2 ** 32, Math.min(v, 2 ** 40));
  }
});
