/**
 * Never a crash, a hang or a silent no-op (issue 23): each bad input of the list ends with one
 * clear line on stderr and exit 2 (usage or input error); limits are checked before any work and
 * named in the message; an unexpected exception is exit 3 ("internal error"), never 2.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../../src/cli/main.js';
import { commandLoaders } from '../../src/cli/commands/index.js';
import type { Command } from '../../src/cli/command.js';
import { EXIT_ERROR, EXIT_INTERNAL } from '../../src/core/errors.js';
import { intText, bigText } from '../../src/core/numbers.js';
import { jsonSyntaxError, parseJsonText } from '../../src/core/json.js';
import { RdWriter } from '../../src/formats/rd.js';

const ROOT = new URL('../../..', import.meta.url).pathname;
const TRIANGLE = join(ROOT, 'examples/triangle/scene.json');

export async function gpusim(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(argv, { stdout: (s) => void (out += s), stderr: (s) => void (err += s), isTTY: false });
  return { code, out, err };
}

/** Exit 2 with exactly one line on stderr matching `re`. */
async function bad(re: RegExp, ...argv: string[]): Promise<void> {
  const r = await gpusim(...argv);
  assert.equal(r.code, EXIT_ERROR, `${argv.join(' ')}: exit ${r.code}\n${r.err}`);
  assert.equal(r.err.split('\n').filter(Boolean).length, 1, r.err);
  assert.match(r.err, re);
  assert.doesNotMatch(r.err, /internal error/);
}

function withDir(f: (dir: string) => Promise<void>): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'gpusim-robust-'));
  return f(dir).finally(() => rmSync(dir, { recursive: true, force: true }));
}

/** The triangle scene with some fields replaced, written next to its shaders' copies. */
function scene(dir: string, patch: Record<string, unknown>): string {
  const s = { ...(JSON.parse(readFileSync(TRIANGLE, 'utf8')) as Record<string, unknown>), ...patch };
  for (const f of ['vs.s', 'ps.s', 'vs-legacy.s', 'ps-legacy.s']) writeFileSync(join(dir, f), readFileSync(join(ROOT, 'examples/triangle', f)));
  const p = join(dir, `scene-${Object.keys(patch).join('-')}.json`);
  writeFileSync(p, JSON.stringify(s));
  return p;
}

test('numbers: decimal and hex, ranges named, nothing wider than asked', () => {
  assert.equal(intText('0x10', '--x'), 16);
  assert.equal(intText('10', '--x', { radix: 16 }), 16);
  assert.equal(bigText('0xffffffffffffffff', '--base'), 2n ** 64n - 1n);
  assert.throws(() => bigText('0x10000000000000000', '--base'), /--base: 0x10000000000000000 is out of range \[0, 2\^64-1\]/);
  assert.throws(() => intText('99999999999999999999', '--seed', { max: 0xffffffff }), /out of range \[0, 2\^32-1\]/);
  assert.throws(() => intText('1e3', '--n'), /'1e3' is not an integer/);
  assert.throws(() => intText('-1', '--n'), /is not an integer/);
  assert.throws(() => intText('0xzz', '--break', { radix: 16 }), /'0xzz' is not a hex number/);
});

test('JSON: line and column of a syntax error, BOM accepted, input not echoed', () => {
  assert.equal(jsonSyntaxError('{"a": [1, 2]}'), null);
  assert.throws(() => parseJsonText('{"a":\n  [1,,2]}', 'f.json'), /f\.json: line 2, column 6: not valid JSON: expected a value, found ','/);
  assert.throws(() => parseJsonText('{"a": 1,}'), /line 1, column 9: .*trailing comma/);
  assert.throws(() => parseJsonText('{"a": 1} x'), /line 1, column 10: .*unexpected 'x' after the JSON value/);
  assert.throws(() => parseJsonText('{"a": "abc'), /line 1, column 7: .*unterminated string/);
  assert.deepEqual(parseJsonText('\ufeff{"a": 1}'), { a: 1 });
  const long = `{"k": ${'1'.repeat(100000)}x}`;
  assert.throws(() => parseJsonText(long), (e: Error) => e.message.length < 200);
});

test('scenes: limits up front, unknown keys named, ranges checked, --out said', () => withDir(async (dir) => {
  await bad(/16384x16384 with 1 sample\(s\) is 268435456 samples per target; the limit is 16777216/, 'draw', scene(dir, { width: 16384, height: 16384 }), '--out', join(dir, 'x.png'));
  await bad(/4096x4096 with 16 sample\(s\).*the limit is 16777216/, 'draw', scene(dir, { width: 4096, height: 4096, samples: 16 }));
  await bad(/sampels: unknown key/, 'draw', scene(dir, { sampels: 4 }));
  await bad(/state\.cul: unknown key \(did you mean 'cull'\?\)/, 'draw', scene(dir, { state: { cul: 'back' } }));
  await bad(/state\.viewport: width and height must be non-zero and at most 16384/, 'draw', scene(dir, { state: { viewport: [0, 0, 2 ** 31, 64] } }));
  const none = await gpusim('draw', scene(dir, {}));
  assert.equal(none.code, 0, none.err);
  assert.match(none.out, /^no image written \(give --out FILE\.png\)$/m);
  const png = join(dir, 'out.png');
  const some = await gpusim('draw', scene(dir, {}), '--out', png);
  assert.match(some.out, new RegExp(`^wrote image ${png.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`, 'm'));
  writeFileSync(join(dir, 'broken.json'), '{\n "width": 64,\n "height": }\n');
  await bad(/broken\.json: line 3, column 12: not valid scene JSON: expected a value, found '}'/, 'draw', join(dir, 'broken.json'));
  await bad(new RegExp(`${dir}: is a directory, not a scene file`), 'draw', dir);
}));

test('every example scene reads with no unknown key on every generation', async () => {
  for (const ex of ['triangle', 'blend', 'msaa', 'pops-oit', 'texture']) {
    for (const g of ['gfx1100', 'gfx1030', 'gfx900']) {
      const r = await gpusim('draw', join(ROOT, 'examples', ex, 'scene.json'), '--gfx', g, '--max-instructions', '1');
      assert.doesNotMatch(r.err, /unknown key/, `${ex} on ${g}: ${r.err}`);
      assert.notEqual(r.code, EXIT_ERROR, `${ex} on ${g}: ${r.err}`);
    }
  }
});

test('pops: each bad option named on its own, limits named', async () => {
  await bad(/--size: 100000 is out of range \[0, 1024\]/, 'pops', 'oit', '--size', '100000');
  await bad(/--draws: 1000000 is out of range \[0, 512\]/, 'pops', 'oit', '--draws', '1000000');
  await bad(/--prims: 100000000 is out of range \[0, 512\]/, 'pops', 'oit', '--prims', '100000000');
  await bad(/--seed: 99999999999999999999 is out of range \[0, 2\^32-1\]/, 'pops', 'oit', '--seed', '99999999999999999999');
  await bad(/--samples 3: expected 1, 2, 4 or 8/, 'pops', 'oit', '--samples', '3');
  await bad(/--size 5: expected an even size/, 'pops', 'oit', '--size', '5');
  await bad(/--interlock 'quad': expected pixel or sample/, 'pops', 'oit', '--interlock', 'quad');
  await bad(/--draws 64 x --prims 64 = 4096 primitives; the OIT runner takes at most 512/, 'pops', 'oit', '--draws', '64', '--prims', '64');
  await bad(/POPS wave-ID limit \(512 per packer\)/, 'pops', 'oit', '--draws', '2', '--prims', '256', '--size', '4');
});

test('strict options: --mcpu, --submit, --base, --break, seeds', () => withDir(async (dir) => {
  await bad(/r600: unknown --mcpu 'bogus'/, 'r600', 'disasm', join(dir, 'missing.o'), '--mcpu', 'bogus');
  await bad(/--base: 0x10000000000000000 is out of range \[0, 2\^48-1\]/, 'adreno', 'decode', TRIANGLE, '--base', '0x10000000000000000');
  await bad(/afuc emu: --break: '0xzz' is not a hex number/, 'adreno', 'afuc', 'emu', 'test', '--break', '0xzz');
  await bad(/afuc emu: --steps: 'ten' is not/, 'adreno', 'afuc', 'emu', 'test', '--steps', 'ten');
  await bad(/draw: --seed: '1\.5' is not/, 'draw', TRIANGLE, '--seed', '1.5');
  const rd = join(dir, 'one.rd');
  const w = new RdWriter();
  w.gpuId(630);
  w.buffer(0x100000, new Uint8Array(16));
  w.cmdstream(0x100000, 4);
  writeFileSync(rd, w.bytes());
  await bad(/adreno decode: --submit 99: .*one\.rd has 1 submit\(s\) \(0\.\.0\)/, 'adreno', 'decode', rd, '--submit', '99');
}));

test('adreno run: a buffer above the 48-bit address space is one clear error', () => withDir(async (dir) => {
  const rd = join(dir, 'high.rd');
  const w = new RdWriter();
  w.gpuId(630);
  w.buffer(2 ** 52, new Uint8Array(16));
  w.cmdstream(2 ** 52, 4);
  writeFileSync(rd, w.bytes());
  await bad(/buffer at 0x10000000000000 \(16 bytes.*\) lies above the 48-bit GPU address space/, 'adreno', 'run', rd);
}));

test('manifests: null is not absent, directories and BOMs, long lines cut', () => withDir(async (dir) => {
  const m = JSON.parse(readFileSync(join(ROOT, 'examples/asm-kernel/sum.json'), 'utf8')) as Record<string, unknown>;
  const abs: Record<string, unknown> = { ...m, codeObject: join(ROOT, 'examples/asm-kernel/sum.s'), buffers: Object.fromEntries(Object.entries(m.buffers as Record<string, Record<string, unknown>>).map(([k, b]) => [k, typeof b.file === 'string' ? { ...b, file: join(ROOT, 'examples/asm-kernel', b.file) } : b])) };
  if (abs.expect) abs.expect = Object.fromEntries(Object.entries(abs.expect as Record<string, Record<string, unknown>>).map(([k, e]) => [k, { ...e, file: join(ROOT, 'examples/asm-kernel', String(e.file)) }]));
  writeFileSync(join(dir, 'null.json'), JSON.stringify({ ...abs, args: null }));
  await bad(/args: is null/, 'run', join(dir, 'null.json'));
  writeFileSync(join(dir, 'bom.json'), '\ufeff' + JSON.stringify(abs));
  const r = await gpusim('run', join(dir, 'bom.json'));
  assert.equal(r.code, 0, r.err);
  await bad(new RegExp(`${dir}: is a directory, not a manifest file`), 'run', dir);
  await bad(new RegExp(`${dir}: is a directory, not a file`), 'disasm', dir);
  writeFileSync(join(dir, 'long.s'), `v_add_f32 v0, v1, ${'x'.repeat(100000)}\n`);
  const l = await gpusim('asm', join(dir, 'long.s'));
  assert.equal(l.code, EXIT_ERROR);
  assert.ok(l.err.length < 500, `${l.err.length} characters`);
  assert.match(l.err, /more characters\)$/m);
}));

test('an unexpected exception is exit 3 "internal error", with the stack only under GPUSIM_DEBUG', async () => {
  const boom = { name: 'boom-test', summary: '', help: '', options: {}, run: () => { throw new TypeError('x is undefined'); } };
  const loaders = commandLoaders as { name: string; load: () => Promise<Command> }[];
  loaders.push({ name: boom.name, load: async () => boom });
  try {
    const r = await gpusim('boom-test');
    assert.equal(r.code, EXIT_INTERNAL);
    assert.match(r.err, /^gpusim: internal error: x is undefined \(a gpusim bug; GPUSIM_DEBUG=1 prints the stack\)\n$/);
  } finally {
    loaders.pop();
  }
});
