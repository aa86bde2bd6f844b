/**
 * The README's coverage block is `gpusim r600 coverage` output (measured by probing the executor
 * with one-instruction programs), and the measurement itself is sound: every op clang-19 emits is
 * executed, and a probe does tell executed ops from unmodelled ones.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../../tools/gen/run.js';
import { main } from '../../src/cli/main.js';
import { r600Coverage, type R600CoverageRow } from '../../src/r600/coverage.js';
import { coverageSources } from '../../src/cli/commands/r600.js';
import { ALU_OPS, CF_OPS } from '../../src/r600/isa/opcodes.gen.js';

let rows: R600CoverageRow[] | undefined;
const measured = (): R600CoverageRow[] => (rows ??= r600Coverage(coverageSources(ROOT)));

test('src/r600/README.md carries the measured coverage block (gpusim r600 coverage)', async () => {
  let out = '';
  const code = await main(['r600', 'coverage'], { stdout: (s) => { out += s; }, stderr: () => {}, isTTY: false });
  assert.equal(code, 0);
  const lines = out.trim().split('\n');
  assert.equal(lines.length, 2 + 4 + 4, 'header, 4 generations, 2 not-executed lists');
  const readme = readFileSync(join(ROOT, 'src/r600/README.md'), 'utf8');
  assert.ok(readme.includes(lines.join('\n')), 'README coverage block is stale: paste `gpusim r600 coverage` into src/r600/README.md');
  let json = '';
  await main(['r600', 'coverage', '--json'], { stdout: (s) => { json += s; }, stderr: () => {}, isTTY: false });
  assert.deepEqual(JSON.parse(json), JSON.parse(JSON.stringify(measured())));
});

test('every ALU and CF op clang-19 emitted for cypress / cayman is executed, and some 40 come from the clang fixtures', () => {
  for (const r of measured()) {
    if (r.gen !== 'evergreen' && r.gen !== 'cayman') continue;
    const chip = r.gen === 'evergreen' ? 'cypress' : 'cayman';
    const emitted = ALU_OPS.filter((o) => o.seen.includes(chip)).map((o) => o.name);
    assert.deepEqual(emitted.filter((n) => r.missing.alu.includes(n)), [], `${r.gen} ALU`);
    assert.ok(r.alu.fixtures > 40, `${r.gen}: ${r.alu.fixtures} ALU ops from clang fixtures`);
    const cf = CF_OPS.filter((o) => o.seen.includes(chip)).map((o) => o.name);
    assert.deepEqual(cf.filter((n) => r.missing.cf.includes(n)), [], `${r.gen} CF`);
    // The counts add up: executed + not executed = decoded.
    assert.equal(r.alu.executed + r.missing.alu.length, r.alu.decoded);
    assert.equal(r.cf.executed + r.missing.cf.length, r.cf.decoded);
    assert.ok(r.alu.tested <= r.alu.executed && r.alu.fixtures <= r.alu.tested);
  }
});

test('the probes separate modelled from unmodelled ops (known examples on both sides)', () => {
  const eg = measured().find((r) => r.gen === 'evergreen')!;
  for (const n of ['SET_MODE', 'CUBE']) assert.ok(eg.missing.alu.includes(n), n);
  for (const n of ['ADD', 'MULADD_IEEE', 'LDS_ADD', 'PRED_SETGT', 'ADD_64']) assert.ok(!eg.missing.alu.includes(n), n);
  assert.ok(eg.missing.cf.includes('HALT'));
  for (const n of ['LOOP_START_DX10', 'JUMPTABLE', 'CALL_FS', 'EMIT_VERTEX', 'GDS']) assert.ok(!eg.missing.cf.includes(n), n);
  const r600 = measured().find((r) => r.gen === 'r600')!;
  assert.equal(r600.tex.executed, 0, 'the R600/R700 texture path is not modelled');
  assert.ok(r600.alu.executed > 100);
});
