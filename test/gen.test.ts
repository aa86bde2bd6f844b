/**
 * Generated tables and golden files must be exactly what the committed generators produce from
 * LLVM. Regenerates in memory and compares (skipped when LLVM 19 is not installed: the committed
 * outputs are what every other test uses). GPUSIM_SKIP_REGEN=1 skips it too.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { haveLlvm } from '../tools/gen/llvm.js';
import { ROOT, generatorModules, runGenerator } from '../tools/gen/run.js';

const skip = process.env.GPUSIM_SKIP_REGEN ? 'GPUSIM_SKIP_REGEN set' : haveLlvm() ? false : 'LLVM 19 (llvm-mc-19) not installed';

for (const g of generatorModules()) {
  test(`generator ${g.name} reproduces its committed output`, { skip }, async () => {
    const files = await runGenerator(g.path);
    const differ: string[] = [];
    for (const [rel, content] of Object.entries(files)) {
      const p = join(ROOT, rel);
      if (!existsSync(p) || readFileSync(p, 'utf8') !== content) differ.push(rel);
    }
    assert.deepEqual(differ, [], `regenerate with: npm run gen -- ${g.name}`);
  });
}
