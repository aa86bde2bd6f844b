/** `gpusim r600 disasm|asm|run` end to end (through the command object and through the CLI binary). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from '../../tools/gen/run.js';
import { runCommand } from '../../src/cli/commands/run.js';
import { r600Command } from '../../src/cli/commands/r600.js';
import { InputError, UsageError } from '../../src/core/errors.js';
import { isR600Object } from '../../src/r600/isa/object.js';

function run(args: string[], values: Record<string, unknown> = {}): { code: number; out: string } {
  let out = '';
  const io = { stdout: (s: string) => { out += s; }, stderr: (s: string) => { out += s; }, isTTY: false };
  const code = r600Command.run({ json: false, strict: false, ...values }, args, io) as number;
  return { code, out };
}

test('r600 disasm prints clang -S text', () => {
  const { code, out } = run(['disasm', join(ROOT, 'kernels/r600/bin/cypress/branch.o')]);
  assert.equal(code, 0);
  assert.match(out, /^branch:\n\tALU/);
  assert.match(out, /MEM_RAT_CACHELESS STORE_RAW/);
});

test('r600 asm writes the program bytes of the .o', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gpusim-r600-'));
  const out = join(dir, 'iadd.bin');
  assert.equal(run(['asm', join(ROOT, 'kernels/r600/bin/cypress/iadd.s')], { o: out }).code, 0);
  const bin = readFileSync(out);
  const obj = readFileSync(join(ROOT, 'kernels/r600/bin/cypress/iadd.o'));
  // .text starts at file offset 0x100 in clang's r600 objects
  assert.deepEqual(bin, obj.subarray(0x100, 0x100 + bin.length));
  // and the raw program disassembles again
  assert.match(run(['disasm', out]).out, /ALU 6, @10/);
});

test('r600 run: 0 when expectations hold, 1 on a mismatch, errors for bad input', () => {
  const m = join(ROOT, 'kernels/r600/manifests/vadd.cypress.json');
  const ok = run(['run', m]);
  assert.equal(ok.code, 0, ok.out);
  assert.match(ok.out, /expect c: ok/);
  const dir = mkdtempSync(join(tmpdir(), 'gpusim-r600-'));
  const j = JSON.parse(readFileSync(m, 'utf8'));
  j.codeObject = join(ROOT, 'kernels/r600/bin/cypress/vadd.o');
  j.expect.c.file = join(ROOT, 'kernels/r600/manifests/vadd.c.expected.bin');
  j.args[3] = { i32: 999 };
  writeFileSync(join(dir, 'bad.json'), JSON.stringify(j));
  const bad = run(['run', join(dir, 'bad.json')], { out: join(dir, 'out') });
  assert.equal(bad.code, 1);
  assert.match(bad.out, /1 mismatches/);
  const report = JSON.parse(readFileSync(join(dir, 'out/run.json'), 'utf8'));
  assert.equal(report.ok, false);
  assert.equal(readFileSync(join(dir, 'out/c.bin')).length, 4000);
  assert.throws(() => run(['run', join(dir, 'missing.json')]), InputError);
  const trace = join(dir, 'trace.txt');
  assert.equal(run(['run', m], { trace }).code, 0);
  const lines = readFileSync(trace, 'utf8').trim().split('\n');
  assert.match(lines[0]!, /^wave 0 cf 0 ALU_PUSH_BEFORE .* \| active=ffffffffffffffff valid=ffffffffffffffff stack=0$/);
  // n = 1000: the last wave (items 960..1023) keeps its first 40 items active past the branch.
  assert.ok(lines.includes('wave 15 cf 1 JUMP @7 POP:1 | active=000000ffffffffff valid=ffffffffffffffff stack=1'));
  assert.throws(() => run(['frobnicate', m]), UsageError);
});

test('the gpusim binary exposes r600 and exits 2 on a bad file', () => {
  const main = join(ROOT, 'dist/src/cli/main.js');
  const out = execFileSync(process.execPath, [main, 'r600', 'run', join(ROOT, 'kernels/r600/manifests/vadd.cayman.json')], { encoding: 'utf8' });
  assert.match(out, /vadd \(cayman\)/);
  const r = spawnSync(process.execPath, [main, 'r600', 'disasm', join(ROOT, 'kernels/r600/src/vadd.cl')], { encoding: 'utf8' });
  assert.equal(r.status, 2);
  assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
});

test('isR600Object tells r600 ELFs from the rest', () => {
  assert.equal(isR600Object(readFileSync(join(ROOT, 'kernels/r600/bin/cypress/vadd.o'))), true);
  assert.equal(isR600Object(readFileSync(join(ROOT, 'kernels/r600/bin/cayman/vadd.o'))), true);
  assert.equal(isR600Object(readFileSync(join(ROOT, 'kernels/r600/src/vadd.cl'))), false);
  assert.equal(isR600Object(new Uint8Array(3)), false);
});

test('gpusim run takes r600 manifests (PASS / summary), refuses AMD-only options for them', async () => {
  const m = join(ROOT, 'kernels/r600/manifests/vadd.cypress.json');
  let out = '';
  const io = { stdout: (s: string) => { out += s; }, stderr: () => {}, isTTY: false };
  assert.equal(await runCommand.run({ json: false, strict: false }, [m], io), 0);
  assert.match(out, /^vadd \(r600-cypress wave64\): 16 workgroups, 16 waves/);
  assert.match(out, /c: ok\nPASS\n$/);
  await assert.rejects(async () => runCommand.run({ json: false, strict: false, threads: '2' }, [m], io), /--threads does not apply to an R600-family object/);
  const bin = spawnSync(process.execPath, [join(ROOT, 'dist/src/cli/main.js'), 'run', m, '--json'], { encoding: 'utf8' });
  assert.equal(bin.status, 0, bin.stderr);
  assert.equal(JSON.parse(bin.stdout).target, 'r600-cypress');
});

test('gpusim run refuses workDim / globalOffset for AMD objects instead of ignoring them', async () => {
  const src = join(ROOT, 'kernels/manifests/atomics.json');
  const j = JSON.parse(readFileSync(src, 'utf8'));
  j.codeObject = join(ROOT, 'kernels/manifests', j.codeObject);
  for (const b of Object.values(j.buffers) as { file?: string }[]) if (b.file) b.file = join(ROOT, 'kernels/manifests', b.file);
  for (const e of Object.values(j.expect ?? {}) as { file: string }[]) e.file = join(ROOT, 'kernels/manifests', e.file);
  const dir = mkdtempSync(join(tmpdir(), 'gpusim-run-'));
  writeFileSync(join(dir, 'm.json'), JSON.stringify({ ...j, globalOffset: [4] }));
  const io = { stdout: () => {}, stderr: () => {}, isTTY: false };
  await assert.rejects(async () => runCommand.run({ json: false, strict: false }, [join(dir, 'm.json')], io), /workDim and globalOffset are read for R600-family objects only/);
});

test('r600 run: a grid whose waves cannot fit the instruction budget is refused up front, naming the limit', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gpusim-r600-'));
  const j = JSON.parse(readFileSync(join(ROOT, 'kernels/r600/manifests/vadd.cypress.json'), 'utf8'));
  j.codeObject = join(ROOT, 'kernels/r600/bin/cypress/vadd.o');
  delete j.expect;
  j.grid = [2147483648, 1, 1];
  writeFileSync(join(dir, 'big.json'), JSON.stringify(j));
  // 2^31 items = 2^25 waves, each at least the CF instructions before vadd's first branch.
  assert.throws(() => run(['run', join(dir, 'big.json')]), (e: unknown) => e instanceof InputError && /33554432 waves .* over the instruction budget of 50000000 \(--max-instructions\)/.test(e.message));
  // The same grid fits a budget raised past the bound (not run here: only the check is), and a
  // normal grid under a small budget passes the check and runs.
  j.grid = [1024, 1, 1];
  writeFileSync(join(dir, 'small.json'), JSON.stringify(j));
  const ok = run(['run', join(dir, 'small.json')], { 'max-instructions': '1000' });
  assert.equal(ok.code, 0, ok.out);
  // 16 waves x at least 2 instructions do not fit 20.
  assert.throws(() => run(['run', join(dir, 'small.json')], { 'max-instructions': '20' }), /16 waves .* budget of 20 /);
});
