/**
 * Write the expected outputs of the kernel suite next to the manifests (kernels/manifests/expected/
 * <manifest>.<buffer>.bin) from the CPU references, and point each manifest's "expect" at them, so
 * `gpusim run kernels/manifests/<name>.json` checks its own result. Outputs whose order depends on
 * the schedule are left out. The ULP bound written is the largest the reference states for the
 * buffer (the test itself checks the per-op bounds).
 *
 *   npx tsc -p . && node dist/tools/kernels/expected.js
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { references } from '../../test/amd/kernels/references.js';
import { MANIFEST_DIR, inputsOf, loadSuiteManifest, manifestNames } from '../../test/amd/kernels/suite.js';

mkdirSync(join(MANIFEST_DIR, 'expected'), { recursive: true });
let files = 0;
for (const name of manifestNames()) {
  const m = loadSuiteManifest(name, 32);
  const want = references[name]!(inputsOf(m), 32);
  const expect: Record<string, { file: string; ulp: number }> = {};
  for (const [buf, e] of Object.entries(want)) {
    if (e.unordered || e.abs) continue;
    const file = `expected/${name}.${buf}.bin`;
    writeFileSync(join(MANIFEST_DIR, file), e.data);
    files++;
    expect[buf] = { file, ulp: Math.max(0, ...(e.ulp ?? [0])) };
  }
  const path = join(MANIFEST_DIR, `${name}.json`);
  const text = readFileSync(path, 'utf8');
  const json = JSON.parse(text) as Record<string, unknown>;
  const body = Object.keys(expect).length ? `  "expect": ${JSON.stringify(expect)}\n}\n` : '';
  // Keep the hand layout: drop any previous "expect" line and append the new one before the closing brace.
  let t = text.replace(/,\n  "expect": .*\n}\n$/, '\n}\n');
  if (body) t = t.replace(/\n}\n$/, ',\n' + body);
  void json;
  writeFileSync(path, t);
}
console.log(`${files} expected-output files`);
