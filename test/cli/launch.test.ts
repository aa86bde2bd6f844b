/**
 * The `gpusim` program through src/cli/launch.ts: the one-file CLI (dist/gpusim-cli.cjs, made by
 * scripts/bundle.mjs when esbuild is installed) gives the same output and exit code as the
 * separate modules, writes its code cache into the per-user cache directory (here a temporary
 * XDG_CACHE_HOME), one per subcommand, and loads from it on the next run; a damaged cache is
 * rejected by V8 and written again. Skips when there is no fresh bundle (no esbuild, or `tsc -p .` ran after the last build).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BUNDLE_NAME } from '../../src/cli/launch.js';
import { freshBundle } from '../../src/runtime/code-cache-node.js';

const ROOT = new URL('../../..', import.meta.url).pathname;
const MAIN = join(ROOT, 'dist/src/cli/main.js');
const BIN = join(ROOT, 'bin/gpusim.cjs');
const EMPTY = join(ROOT, 'kernels/manifests/empty.json');

function gpusim(env: Record<string, string>, ...argv: string[]): { code: number | null; out: string; err: string } {
  return spawn(MAIN, env, argv);
}

function spawn(program: string, env: Record<string, string>, argv: readonly string[]): { code: number | null; out: string; err: string } {
  const r = spawnSync(process.execPath, [program, ...argv], { encoding: 'utf8', env: { ...process.env, ...env } });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

/** How a run's `--json` report says the CLI was loaded. */
const timing = (s: string) => (JSON.parse(s) as { timing: { cli: string } }).timing.cli;
/** A `--json` report without its times (what two ways of running must agree on). */
const strip = (s: string) => {
  const j = JSON.parse(s) as Record<string, unknown>;
  delete j['timing'];
  delete j['timeMs'];
  return j;
};

const skip = freshBundle(BUNDLE_NAME) !== null ? false : 'no fresh dist/gpusim-cli.cjs (esbuild not installed, or dist rebuilt by tsc alone)';

test('the one-file CLI runs like the separate modules and keeps a code cache', { skip }, () => {
  const cache = mkdtempSync(join(tmpdir(), 'gpusim-launch-'));
  try {
    const env = { XDG_CACHE_HOME: cache };
    const modules = gpusim({ ...env, GPUSIM_BUNDLE: '0' }, 'run', EMPTY, '--json');
    assert.equal(modules.code, 0, modules.err);
    assert.deepEqual(readdirSync(cache), [], 'the separate modules write no cache');
    const first = gpusim(env, 'run', EMPTY, '--json');
    const second = gpusim(env, 'run', EMPTY, '--json');
    assert.equal(timing(modules.out), 'modules');
    assert.equal(timing(first.out), 'one file');
    assert.equal(timing(second.out), 'one file, code cache');
    // Node's own start-up comes first, before the first instruction.
    const t = (JSON.parse(second.out) as { timing: { nodeStartMs: number; firstInstructionMs: number } }).timing;
    assert.ok(t.nodeStartMs > 0 && t.nodeStartMs < t.firstInstructionMs, JSON.stringify(t));
    assert.deepEqual(strip(first.out), strip(modules.out));
    assert.deepEqual(strip(second.out), strip(modules.out));
    const files = readdirSync(join(cache, 'gpusim')).filter((f) => f.startsWith('cli-'));
    assert.equal(files.length, 1);
    assert.match(files[0]!, /^cli-run-v\d+.*\.v8cache$/);
    // Another subcommand (here options alone) keeps a cache of its own, and writing it removes
    // caches of other builds, not this build's.
    const stale = join(cache, 'gpusim', 'cli-disasm-v1.0.0-x64-1-1.v8cache');
    writeFileSync(stale, 'an older build');
    assert.equal(gpusim(env, '--version').code, 0);
    const after = readdirSync(join(cache, 'gpusim')).filter((f) => f.startsWith('cli-')).sort();
    assert.deepEqual(after.map((f) => f.split('-')[1]), ['other', 'run'], after.join(' '));
    assert.equal(timing(gpusim(env, 'run', EMPTY, '--json').out), 'one file, code cache');
    // A damaged cache: V8 rejects it, the run compiles, and the cache is written again.
    writeFileSync(join(cache, 'gpusim', files[0]!), 'not a code cache');
    const damaged = gpusim(env, 'run', EMPTY, '--json');
    assert.equal(damaged.code, 0, damaged.err);
    assert.equal(timing(damaged.out), 'one file');
    assert.equal(timing(gpusim(env, 'run', EMPTY, '--json').out), 'one file, code cache');
    // Errors keep their exit codes and messages through the bundle.
    const bad = gpusim(env, 'run', join(cache, 'missing.json'));
    const badModules = gpusim({ ...env, GPUSIM_BUNDLE: '0' }, 'run', join(cache, 'missing.json'));
    assert.equal(bad.code, 2);
    assert.equal(bad.code, badModules.code);
    assert.equal(bad.err, badModules.err);
  } finally {
    rmSync(cache, { recursive: true, force: true });
  }
});

test('bin/gpusim.cjs (package.json bin) runs the one-file CLI through its CommonJS launcher', { skip }, () => {
  const cache = mkdtempSync(join(tmpdir(), 'gpusim-bin-'));
  try {
    const env = { XDG_CACHE_HOME: cache };
    const viaMain = gpusim(env, 'run', EMPTY, '--json');
    const first = spawn(BIN, env, ['run', EMPTY, '--json']);
    assert.equal(first.code, 0, first.err);
    // The launcher shares main.js's bundle and code cache.
    assert.equal(timing(first.out), 'one file, code cache');
    assert.deepEqual(strip(first.out), strip(viaMain.out));
    assert.equal(timing(spawn(BIN, { ...env, GPUSIM_BUNDLE: '0' }, ['run', EMPTY, '--json']).out), 'modules');
    const v = spawn(BIN, env, ['--version']);
    assert.equal(v.code, 0);
    assert.match(v.out, /^gpusim \d/);
    const bad = spawn(BIN, env, ['run', join(cache, 'missing.json')]);
    assert.equal(bad.code, 2);
    assert.equal(bad.err, gpusim(env, 'run', join(cache, 'missing.json')).err);
  } finally {
    rmSync(cache, { recursive: true, force: true });
  }
});
