/**
 * The GFX10.3 / GFX9 tables and the PM4 path load on first use (core/lazy-module.ts, issue 24):
 * a gfx1100 `gpusim run` does not load them, the lazily loaded targets are the same objects as
 * the statically imported ones, and the one-file CLI (where esbuild bundles the lazy `require`)
 * runs gfx1030 and gfx900 code objects, and `--pm4`, as the separate modules do.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { gfx10 as gfx10Static, gfx10Wave64 } from '../../src/amd/isa/gfx10/index.js';
import { gfx9 as gfx9Static } from '../../src/amd/isa/gfx9/index.js';
import { gfx10Module, targetFor, targets, waveTarget } from '../../src/amd/isa/targets.js';
import { executableTarget } from '../../src/amd/target/executable.js';
import { BUNDLE_NAME } from '../../src/cli/launch.js';
import { freshBundle } from '../../src/runtime/code-cache-node.js';

const ROOT = new URL('../../..', import.meta.url).pathname;
const MAIN = join(ROOT, 'dist/src/cli/main.js');

test('lazily loaded targets are the statically imported objects', () => {
  assert.equal(gfx10Module().gfx10, gfx10Static);
  assert.equal(gfx10Module(), gfx10Module());
  assert.equal(targets['gfx1030'], gfx10Static);
  assert.equal(targets['gfx900'], gfx9Static);
  assert.deepEqual(Object.keys(targets), ['gfx1100', 'gfx1030', 'gfx900']);
  assert.equal(targetFor('gfx10.3'), gfx10Static);
  assert.equal(executableTarget('gfx1030'), gfx10Static);
  assert.equal(executableTarget('gfx900'), gfx9Static);
  assert.equal(waveTarget(gfx10Static, 64), gfx10Wave64);
  assert.equal(waveTarget(gfx10Wave64, 32), gfx10Static);
  assert.equal(waveTarget(gfx9Static, 32), null);
});

function gpusim(env: Record<string, string>, ...argv: string[]): { code: number | null; out: string; err: string } {
  const r = spawnSync(process.execPath, [MAIN, ...argv], { encoding: 'utf8', env: { ...process.env, ...env } });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

test('a gfx1100 run loads neither the GFX10.3/GFX9 tables nor the PM4 path', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gpusim-lazy-'));
  try {
    // Module hooks (separate modules) recording every module URL loaded.
    const log = join(dir, 'loaded.txt');
    const hooks = join(dir, 'hooks.mjs');
    writeFileSync(hooks, `import { appendFileSync } from 'node:fs';\nexport async function load(url, context, next) {\n  appendFileSync(${JSON.stringify(log)}, url + '\\n');\n  return next(url, context);\n}\n`);
    const reg = join(dir, 'register.mjs');
    writeFileSync(reg, `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(hooks).href)});\n`);
    const r = spawnSync(process.execPath, ['--import', pathToFileURL(reg).href, MAIN, 'run', join(ROOT, 'kernels/manifests/vadd.json'), '--json'], { encoding: 'utf8', env: { ...process.env, GPUSIM_BUNDLE: '0' } });
    assert.equal(r.status, 0, r.stderr);
    const loaded = readFileSync(log, 'utf8').split('\n').filter((u) => u.includes('/dist/src/'));
    assert.ok(loaded.some((u) => u.includes('/amd/isa/gfx11/index.js')), 'the hooks saw the gfx11 tables load');
    for (const bad of ['/amd/isa/gfx10/index.js', '/amd/isa/gfx9/index.js', '/runtime/pm4.js', '/amd/cp/regdb.js']) {
      assert.ok(!loaded.some((u) => u.includes(bad)), `${bad} loaded for a gfx1100 run`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

const skip = freshBundle(BUNDLE_NAME) !== null ? false : 'no fresh dist/gpusim-cli.cjs (esbuild not installed, or dist rebuilt by tsc alone)';

test('the one-file CLI runs gfx1030, gfx900 and PM4 launches as the separate modules do', { skip }, () => {
  const bundle = readFileSync(join(ROOT, 'dist', BUNDLE_NAME));
  assert.ok(bundle.every((b) => b < 0x80), 'the bundle is ASCII (it is read as latin1)');
  const cache = mkdtempSync(join(tmpdir(), 'gpusim-lazy-cache-'));
  try {
    const dir = mkdtempSync(join(tmpdir(), 'gpusim-lazy-m-'));
    try {
      for (const [mcpu, extra] of [['gfx1030', []], ['gfx900', []], ['gfx1100', ['--pm4', 'direct']], ['gfx1030', ['--pm4', 'indirect']]] as const) {
        const m = JSON.parse(readFileSync(join(ROOT, 'kernels/manifests/vadd.json'), 'utf8')) as Record<string, unknown>;
        m['codeObject'] = join(ROOT, 'kernels/bin', mcpu, 'vadd.co');
        for (const [k, v] of Object.entries(m)) if (k === 'expect') for (const e of Object.values(v as Record<string, { file: string }>)) e.file = join(ROOT, 'kernels/manifests', e.file);
        const file = join(dir, `${mcpu}.json`);
        writeFileSync(file, JSON.stringify(m));
        const strip = (s: string) => {
          const j = JSON.parse(s) as Record<string, unknown>;
          delete j['timing'];
          delete j['timeMs'];
          return j;
        };
        const one = gpusim({ XDG_CACHE_HOME: cache }, 'run', file, '--json', ...extra);
        const modules = gpusim({ XDG_CACHE_HOME: cache, GPUSIM_BUNDLE: '0' }, 'run', file, '--json', ...extra);
        assert.equal(one.code, 0, `${mcpu} ${extra.join(' ')}: ${one.err}`);
        assert.equal(modules.code, 0, modules.err);
        assert.deepEqual(strip(one.out), strip(modules.out));
        assert.equal((JSON.parse(one.out) as { ok: boolean }).ok, true);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  } finally {
    rmSync(cache, { recursive: true, force: true });
  }
});
