/** `gpusim info`: text and JSON output on a fixture, and exit code 2 with one line for bad input. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../../src/cli/main.js';
import { KERNELS_BIN, fixtureBytes } from './fixtures.js';

async function run(args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(args, { stdout: (s) => void (out += s), stderr: (s) => void (err += s), isTTY: false });
  return { code, out, err };
}

test('info prints target, descriptor, resources and arguments', async () => {
  const r = await run(['info', join(KERNELS_BIN, 'gfx1100', 'reduce_dynlds.co')]);
  assert.equal(r.code, 0, r.err);
  assert.match(r.out, /AMDGPU code object v5/);
  assert.match(r.out, /^target\s+gfx1100 /m);
  assert.match(r.out, /^kernel reduce_dynlds$/m);
  assert.match(r.out, /wave size\s+32/);
  assert.match(r.out, /dynamic_shared_pointer\s+int\* s\s+\(local\)/);
  assert.match(r.out, /user SGPRs\s+15: dispatch_ptr s0\.\.s1, kernarg_segment_ptr s2\.\.s3/);
});

test('info --json --kernel selects one kernel and is valid JSON', async () => {
  const r = await run(['info', join(KERNELS_BIN, 'gfx1100', 'multi.v4.co'), '--json', '--kernel', 'scale']);
  assert.equal(r.code, 0, r.err);
  const j = JSON.parse(r.out) as { codeObjectVersion: number; kernels: { name: string; kd: { derived: { waveSize: number } } }[] };
  assert.equal(j.codeObjectVersion, 4);
  assert.deepEqual(j.kernels.map((k) => k.name), ['scale']);
  assert.equal(j.kernels[0]!.kd.derived.waveSize, 32);
});

test('info: bad input and usage exit 2 with one line', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'gpusim-info-'));
  try {
    const x86 = fixtureBytes('gfx1100', 'vadd.co');
    new DataView(x86.buffer).setUint16(18, 62, true);
    writeFileSync(join(dir, 'x86.co'), x86);
    let r = await run(['info', join(dir, 'x86.co')]);
    assert.equal(r.code, 2);
    assert.equal(r.err, `gpusim: ${join(dir, 'x86.co')}: not an AMDGPU code object: e_machine 62 (x86-64)\n`);
    r = await run(['info', join(KERNELS_BIN, 'gfx1100', 'vadd.co'), '--kernel', 'nope']);
    assert.equal(r.code, 2);
    assert.match(r.err, /no kernel 'nope' .* \(kernels: vadd\)\n$/);
    r = await run(['info']);
    assert.equal(r.code, 2);
    r = await run(['info', join(dir, 'missing.co')]);
    assert.equal(r.code, 2);
    assert.match(r.err, /no such file/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
