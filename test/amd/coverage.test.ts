/**
 * `gpusim amd coverage`: the README's table and docs/amd.md's list of opcodes left out are the
 * tool's output, every opcode left out has a reason, and the opcodes issue 22 found stopping
 * gfx900 kernels execute.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { coverage, coverageLines, leftOutLines, reasonFor, COVERAGE_TARGETS } from '../../src/amd/target/coverage.js';

const root = new URL('../../../', import.meta.url);

test('README.md carries the measured opcode coverage table (gpusim amd coverage)', () => {
  const readme = readFileSync(new URL('README.md', root), 'utf8');
  assert.ok(readme.includes(coverageLines().join('\n')), 'README coverage table is stale: paste `gpusim amd coverage` into README.md');
});

test('docs/amd.md lists every opcode left out with its reason (gpusim amd coverage --detail)', () => {
  const doc = readFileSync(new URL('docs/amd.md', root), 'utf8');
  assert.ok(doc.includes(leftOutLines().join('\n')), 'docs/amd.md list is stale: paste `gpusim amd coverage --detail` into docs/amd.md');
});

test('every opcode that does not execute has a recorded reason', () => {
  for (const t of COVERAGE_TARGETS) {
    for (const e of coverage(t)) {
      for (const m of e.missing) assert.ok(reasonFor(t, m), `${t} ${e.encoding} ${m}: no reason recorded in src/amd/target/coverage.ts LEFT_OUT`);
    }
  }
});

test('the opcodes clang emits for gfx900 that used to stop kernels execute', () => {
  const missing = new Set(coverage('gfx900').flatMap((e) => e.missing));
  for (const m of ['v_mad_legacy_u16', 'v_mad_legacy_i16', 'v_mad_legacy_f16', 'v_fma_legacy_f16', 'v_div_fixup_legacy_f16', 'v_mad_legacy_f32', 'v_mad_u16', 'v_cvt_pkaccum_u8_f32']) {
    assert.ok(!missing.has(m), m);
  }
  // Every VALU and VOP3P opcode of the three targets executes except the listed legacy/graphics helpers.
  for (const t of COVERAGE_TARGETS) {
    for (const e of coverage(t)) {
      if (!['VOP1', 'VOP2', 'VOPC', 'VOP3', 'VOP3P', 'VOPD', 'FLAT', 'GLOBAL', 'SCRATCH', 'MUBUF', 'MTBUF', 'EXP'].includes(e.encoding)) continue;
      for (const m of e.missing) assert.match(m, /^v_(exp|log)_legacy_f32$|^v_screen_partition_4se_b32$/, `${t} ${e.encoding} ${m}`);
    }
  }
});
