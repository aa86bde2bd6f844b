/**
 * LDS per generation at dispatch (lds-alloc.gen.ts): a workgroup asking for more than the
 * generation's 64 KiB launches nothing and reports amd.dispatch.lds-too-large; the same kernel
 * with its real dynamic LDS runs clean and matches its expected output, on all three targets.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseManifest } from '../../src/runtime/manifest.js';
import { runManifest } from '../../src/runtime/run.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const DIR = join(ROOT, 'kernels/manifests');
const base = JSON.parse(readFileSync(join(DIR, 'reduce_dynlds.json'), 'utf8')) as { codeObject: string; args: unknown[] };

function run(mcpu: string, localBytes: number) {
  const j = JSON.parse(JSON.stringify(base)) as typeof base;
  j.codeObject = j.codeObject.replace('/gfx1100/', `/${mcpu}/`);
  j.args[2] = { local: localBytes };
  return runManifest(parseManifest(j, join(DIR, 'reduce_dynlds.json'), DIR));
}

for (const mcpu of ['gfx1100', 'gfx1030', 'gfx900']) {
  test(`${mcpu}: dynamic LDS within the limit runs clean; past 64 KiB nothing launches and it is diagnosed`, () => {
    const ok = run(mcpu, 512);
    assert.equal(ok.exitCode, 0);
    assert.equal(ok.report.aborted, false);
    assert.ok(!ok.report.diagnostics.some((d) => d.id === 'amd.dispatch.lds-too-large'));
    const big = run(mcpu, 70000);
    assert.equal(big.report.aborted, true);
    assert.equal(big.report.waves, 0);
    assert.ok(big.report.diagnostics.some((d) => d.id === 'amd.dispatch.lds-too-large'), JSON.stringify(big.report.diagnostics));
  });
}
