/**
 * Numbers in the options of run, pm4 and bench (and the bench scripts) are parsed by one strict
 * reader (src/core/numbers.ts): decimal or 0x hex digits only, the range named in the message;
 * exponents, signs, fractions and values past the range are usage errors (exit 2), and the forms
 * it takes work (quiet).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../../src/cli/main.js';
import { EXIT_ERROR, EXIT_FINDING, EXIT_OK } from '../../src/core/errors.js';

const ROOT = new URL('../../..', import.meta.url).pathname;
const VADD = join(ROOT, 'kernels/manifests/vadd.json');

async function gpusim(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(argv, { stdout: (s) => void (out += s), stderr: (s) => void (err += s), isTTY: false });
  return { code, out, err };
}

async function bad(re: RegExp, ...argv: string[]): Promise<void> {
  const r = await gpusim(...argv);
  assert.equal(r.code, EXIT_ERROR, `${argv.join(' ')}: exit ${r.code} ${r.err}`);
  assert.match(r.err, re);
  assert.equal(r.err.trim().split('\n').length, 1);
}

test('run: loose numbers are usage errors naming the option and the range', async () => {
  await bad(/run: --seed: '1e3' is not an integer/, 'run', VADD, '--seed', '1e3');
  await bad(/run: --seed: '-1' is not an integer/, 'run', VADD, '--seed=-1');
  await bad(/run: --seed: '1\.5' is not an integer/, 'run', VADD, '--seed', '1.5');
  await bad(/run: --seed: 99999999999999999999 is out of range \[0, 2\^32-1\]/, 'run', VADD, '--seed', '99999999999999999999');
  await bad(/run: --max-instructions: '0x' is not an integer/, 'run', VADD, '--max-instructions', '0x');
  await bad(/run: --threads \(auto or N\): 257 is out of range \[1, 256\]/, 'run', VADD, '--threads', '257');
  await bad(/run: --trace-limit: '10k' is not an integer/, 'run', VADD, '--trace', join(tmpdir(), 'gpusim-unused.trace'), '--trace-limit', '10k');
});

test('run: the strict forms it takes — decimal and 0x hex — work', async () => {
  const a = await gpusim('run', VADD, '--seed', '0x10', '--order', 'random', '--json');
  const b = await gpusim('run', VADD, '--seed', '16', '--order', 'random', '--json');
  assert.equal(a.code, EXIT_OK, a.err);
  assert.equal((JSON.parse(a.out) as { seed: number }).seed, 16);
  assert.equal((JSON.parse(b.out) as { seed: number }).seed, 16);
  // A budget of 0x10 wave-instructions stops the run early: a finding, not a usage error.
  const c = await gpusim('run', VADD, '--max-instructions', '0x10');
  assert.equal(c.code, EXIT_FINDING);
  assert.match(c.out, /gpusim\.instruction-budget/);
});

test('pm4 decode --va: a GPU address below 2^48, dword aligned', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'gpusim-opt-'));
  try {
    const ib = join(dir, 'ib.bin');
    writeFileSync(ib, new Uint8Array(new Uint32Array([0xc0001000, 0]).buffer)); // PKT3 NOP, one dword
    await bad(/--va \(a GPU address\): 0x1000000000000 is out of range \[0, 2\^48-1\]/, 'pm4', 'decode', ib, '--gfx', 'gfx11', '--va', '0x1000000000000');
    await bad(/--va \(a GPU address\): '0x1g' is not an integer/, 'pm4', 'decode', ib, '--gfx', 'gfx11', '--va', '0x1g');
    await bad(/--va: 0x1001 is not dword aligned/, 'pm4', 'decode', ib, '--gfx', 'gfx11', '--va', '0x1001');
    const ok = await gpusim('pm4', 'decode', ib, '--gfx', 'gfx11', '--va', '0x1000');
    assert.equal(ok.code, EXIT_OK, ok.err);
    assert.match(ok.out, /NOP/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('bench and the bench scripts: whole numbers in decimal only', async () => {
  await bad(/bench: --repeats: '0x3' is not a decimal integer/, 'bench', '--repeats', '0x3', 'rdna3');
  await bad(/bench: --warmup: 1000001 is out of range \[0, 1000000\]/, 'bench', '--warmup', '1000001', 'rdna3');
  for (const script of ['steady.js', 'parallel-phases.js']) {
    let err = '';
    let code = 0;
    try {
      execFileSync(process.execPath, [join(ROOT, 'dist/bench', script), '--runs', '2.5'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    } catch (e) {
      const x = e as { status: number; stderr: string };
      code = x.status;
      err = x.stderr;
    }
    assert.equal(code, 2, script);
    assert.equal(err.trim(), "--runs: '2.5' is not a decimal integer");
  }
});

test('r600 run --trace-limit: the first N CF lines and a count of the rest; bad values named', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'gpusim-opt-'));
  try {
    const m = join(ROOT, 'kernels/r600/manifests/vadd.cypress.json');
    const full = await gpusim('r600', 'run', m, '--trace', join(dir, 'all.txt'));
    assert.equal(full.code, EXIT_OK, full.err);
    const all = readFileSync(join(dir, 'all.txt'), 'utf8').trim().split('\n');
    assert.doesNotMatch(all.join('\n'), /past --trace-limit/);
    for (const argv of [['r600', 'run'], ['run']]) {
      const r = await gpusim(...argv, m, '--trace', join(dir, 't.txt'), '--trace-limit', '3');
      assert.equal(r.code, EXIT_OK, r.err);
      assert.deepEqual(readFileSync(join(dir, 't.txt'), 'utf8').trim().split('\n'), [...all.slice(0, 3), `... ${all.length - 3} more lines past --trace-limit`]);
    }
    await bad(/r600: --trace-limit: 0 is out of range \[1, /, 'r600', 'run', m, '--trace', join(dir, 'x.txt'), '--trace-limit', '0');
    await bad(/r600: --trace-limit needs --trace FILE/, 'r600', 'run', m, '--trace-limit', '3');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('draw --gpu: options of the AMD pipeline are refused, not ignored', async () => {
  const scene = join(ROOT, 'examples/triangle/scene.json');
  const out = join(tmpdir(), 'gpusim-unused.png');
  await bad(/draw: --trace is not used with --gpu/, 'draw', scene, '--gpu', 'a630', '--out', out, '--trace', join(tmpdir(), 'gpusim-unused.trace'));
  await bad(/draw: --timeline is not used with --gpu/, 'draw', scene, '--gpu', 'a630', '--out', out, '--timeline', join(tmpdir(), 'gpusim-unused.json'));
  await bad(/draw: --gmem \/ --bin need --gpu/, 'draw', scene, '--out', out, '--gmem');
});
