/**
 * Real kernels end to end: every kernels/manifests/*.json runs through runManifest (the `gpusim run`
 * path) as its wave32 and wave64 builds, under round-robin and seeded random scheduling, and its
 * outputs must equal the CPU reference (integers exactly, floats within each op's stated ULP bound,
 * see test/amd/kernels/references.ts) with no diagnostic at all.
 *
 * A kernel whose code uses an opcode without semantics yet is listed in xfail.ts with the missing
 * mnemonics; for it the test accepts exactly a `gpusim.unimplemented` stop on one of those (the list
 * shrinks as semantics land: regenerate it with `node dist/tools/kernels/xfail.js`).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { references } from './kernels/references.js';
import { XFAIL } from './kernels/xfail.js';
import { VARIANTS, manifestNames, loadSuiteManifest, inputsOf, runVariant, checkOutput, unimplementedMnemonics } from './kernels/suite.js';

const names = manifestNames();

test('the suite has at least 40 kernels and a reference for every manifest', () => {
  assert.ok(names.length >= 40, `${names.length} manifests`);
  for (const n of names) assert.ok(references[n], `no CPU reference for ${n}`);
  for (const n of Object.keys(references)) assert.ok(names.includes(n), `reference ${n} has no manifest`);
  for (const n of Object.keys(XFAIL)) assert.ok(names.includes(n), `xfail entry ${n} has no manifest`);
});

for (const name of names) {
  test(`kernel ${name}`, async (t) => {
    let stopped = 0;
    for (const v of VARIANTS) {
      const label = `wave${v.waveSize} ${v.order} seed ${v.seed}`;
      const m = loadSuiteManifest(name, v.waveSize);
      const want = references[name]!(inputsOf(m), v.waveSize);
      const r = runVariant(name, v);
      const missing = unimplementedMnemonics(r);
      if (missing.length > 0) {
        const allowed = XFAIL[name] ?? [];
        for (const mn of missing) assert.ok(allowed.includes(mn), `${name} ${label}: stopped at unimplemented ${mn}, which xfail.ts does not list for it`);
        const other = r.report.diagnostics.filter((d) => d.id !== 'gpusim.unimplemented');
        assert.deepEqual(other.map((d) => `${d.id}: ${d.message}`), [], `${name} ${label}: diagnostics besides gpusim.unimplemented`);
        t.diagnostic(`${label}: expected failure, unimplemented ${missing.join(', ')}`);
        stopped++;
        continue;
      }
      assert.deepEqual(r.report.diagnostics.map((d) => `${d.id} @${JSON.stringify(d.where)}: ${d.message}`), [], `${name} ${label}: diagnostics on a clean kernel`);
      assert.equal(r.report.aborted, false, `${name} ${label}: run aborted`);
      for (const [buf, e] of Object.entries(want)) {
        const problem = checkOutput(buf, r.buffers[buf]!, e);
        assert.equal(problem, null, `${name} ${label}: ${problem}`);
      }
    }
    if (XFAIL[name] && stopped === 0) t.diagnostic(`passes in every variant now: regenerate xfail.ts`);
  });
}
