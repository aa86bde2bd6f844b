/**
 * A manifest whose `codeObject` is an assembly file: `gpusim run` assembles it (labels,
 * `.amdhsa_kernel`, `.amdgpu_metadata`) and runs it. examples/asm-kernel/sum.json is a hand-written
 * gfx1100 loop kernel; its output is checked here against a reference computed in the test, in
 * both schedulers and both engines, and a broken source is one line naming the file and line.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from '../../tools/gen/run.js';
import { loadManifest } from '../../src/runtime/manifest.js';
import { runManifest } from '../../src/runtime/run.js';
import { main } from '../../src/cli/main.js';
import { InputError } from '../../src/core/errors.js';

const DIR = join(ROOT, 'examples/asm-kernel');

function reference(): Uint32Array {
  const input = new Uint32Array(new Uint8Array(readFileSync(join(DIR, 'in.bin'))).buffer);
  const count = 10;
  return input.map((x) => (count * x + (count * (count - 1)) / 2) >>> 0);
}

test('examples/asm-kernel: the assembly manifest runs and matches the reference', () => {
  const want = reference();
  assert.deepEqual(new Uint32Array(new Uint8Array(readFileSync(join(DIR, 'out.expected.bin'))).buffer), want, 'committed expectation');
  for (const opts of [{}, { order: 'random' as const, seed: 7 }, { engine: 'interp' as const }]) {
    const r = runManifest(loadManifest(join(DIR, 'sum.json')), opts);
    assert.equal(r.exitCode, 0, JSON.stringify(r.json.diagnostics));
    assert.deepEqual(r.json.diagnostics, []);
    assert.equal(r.json.target, 'gfx1100');
    assert.equal(r.json.waveSize, 32);
    assert.equal(r.json.waves, 8);
    const got = new Uint32Array(r.buffers.out!.buffer, r.buffers.out!.byteOffset, 256);
    assert.deepEqual(got, want);
  }
});

test('gpusim run takes the assembly manifest; a bad line in the source is one error line, exit 2', async () => {
  let out = '';
  let err = '';
  const io = { stdout: (s: string) => { out += s; }, stderr: (s: string) => { err += s; }, isTTY: false };
  assert.equal(await main(['run', join(DIR, 'sum.json')], io), 0, err);
  assert.match(out, /^sum \(gfx1100 wave32\): 4 workgroups, 8 waves/);
  assert.match(out, /out: ok\nPASS/);

  const dir = mkdtempSync(join(tmpdir(), 'gpusim-asm-manifest-'));
  for (const f of ['sum.json', 'in.bin', 'out.expected.bin']) copyFileSync(join(DIR, f), join(dir, f));
  writeFileSync(join(dir, 'sum.s'), readFileSync(join(DIR, 'sum.s'), 'utf8').replace('s_branch loop', 's_branch nowhere'));
  assert.throws(() => runManifest(loadManifest(join(dir, 'sum.json'))), (e: unknown) => e instanceof InputError && /codeObject: .*sum\.s: line 29: s_branch: invalid operand 'nowhere'/.test(e.message));
  out = '';
  err = '';
  assert.equal(await main(['run', join(dir, 'sum.json')], io), 2);
  assert.equal(out, '');
  assert.equal(err.trimEnd().split('\n').length, 1, err);
  assert.match(err, /line 29/);
});
