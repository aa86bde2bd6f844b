/**
 * An ir3 manifest may name an assembly file as its `shader` (`.s`, `.asm`, `.ir3`):
 * `gpusim adreno dispatch k.json` assembles it with src/adreno/ir3/asm.ts for the manifest's GPU
 * and runs it (issue 23: hand-written kernels first-class). examples/ir3-kernel is such a kernel
 * (labels, a loop, comments); its expected output is recomputed here from its input.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { dispatchCommand } from '../../src/adreno/sp/cli.js';
import { readIr3Manifest, runIr3Dispatch } from '../../src/adreno/sp/dispatch.js';
import { InputError } from '../../src/core/errors.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const EX = join(ROOT, 'examples/ir3-kernel');

test('examples/ir3-kernel: the assembly manifest assembles, runs and matches', () => {
  const a = new Uint32Array(new Uint8Array(readFileSync(join(EX, 'a.bin'))).buffer);
  const want = a.map((x) => (10 * x + 45) >>> 0);
  assert.deepEqual(new Uint32Array(new Uint8Array(readFileSync(join(EX, 'o.expected.bin'))).buffer), want, 'o.expected.bin = 10 * a + 45');
  const lines: string[] = [];
  const out = mkdtempSync(join(tmpdir(), 'ir3-asm-'));
  const rc = dispatchCommand({ out }, [join(EX, 'sum.json')], (l) => lines.push(l));
  assert.equal(rc, 0, lines.join('\n'));
  assert.equal(lines[0], 'PASS o');
  assert.deepEqual(new Uint32Array(new Uint8Array(readFileSync(join(out, 'o.bin'))).buffer), want);
});

test('the same source runs on a730; a bad line is one InputError naming the file and line', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ir3-asm-'));
  for (const f of ['sum.s', 'a.bin', 'o.expected.bin']) copyFileSync(join(EX, f), join(dir, f));
  const m = JSON.parse(readFileSync(join(EX, 'sum.json'), 'utf8')) as Record<string, unknown>;
  writeFileSync(join(dir, 'k.json'), JSON.stringify({ ...m, gpu: 'a730' }));
  const lines: string[] = [];
  assert.equal(dispatchCommand({}, [join(dir, 'k.json')], (l) => lines.push(l)), 0, lines.join('\n'));
  writeFileSync(join(dir, 'sum.s'), readFileSync(join(EX, 'sum.s'), 'utf8').replace('add.u r3.y, r3.y, 1', 'add.u r3.y, r3.y, bogus'));
  assert.throws(() => runIr3Dispatch(readIr3Manifest(join(dir, 'k.json'))), (e: unknown) => e instanceof InputError && /sum\.s/.test(e.message) && /line \d+: cannot assemble 'add\.u r3\.y, r3\.y, bogus'/.test(e.message));
});
