/**
 * Generated tables and golden files must be exactly what the committed generators produce
 * (used by test/gen.test.ts and test/amd/gen-tables.test.ts, which split the generators).
 * Each generator is re-run in memory and compared. A generator whose inputs are not on this
 * machine is skipped: the LLVM 19 tools (llvm-mc-19...) for the ISA probes, or `../shared/ref`
 * (Mesa's and freedreno's databases) beside the repository. GPUSIM_SKIP_REGEN=1 skips them all.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { haveLlvm } from '../tools/gen/llvm.js';
import { ROOT, generatorModules, runGenerator } from '../tools/gen/run.js';

const llvm = haveLlvm();
const lld = spawnSync(process.env.LLD ?? 'ld.lld-19', ['--version']).status === 0;
const shared = existsSync(join(ROOT, '../shared/ref'));

/** Why a generator could not run here (a missing input), or null for a real failure. */
function missingInput(e: unknown): string | null {
  const err = e as NodeJS.ErrnoException & { path?: string; spawnargs?: string[] };
  const text = `${err?.message ?? ''} ${err?.path ?? ''}`;
  if (!llvm && /llvm|ENOENT.*(mc|objdump|readobj|clang)/i.test(text)) return 'LLVM 19 is not installed';
  // One LLVM package may be installed without another (llvm-19 without clang-19): a tool the
  // generator spawns that is not on this machine is a missing input too, whichever it is.
  if (err?.code === 'ENOENT' && err.path && /^(clang|llc|llvm-|ld\.lld)/.test(err.path)) return `${err.path} is not installed`;
  if (!lld && /ld\.lld/.test(text)) return 'ld.lld-19 is not installed';
  if (!shared && err?.code === 'ENOENT' && /shared[/\\]ref/.test(text)) return '../shared/ref is not beside the repository';
  return null;
}

/**
 * The generators that take most of the time (LLVM probes: valu, memory, scalar): checked by
 * test/amd/gen-tables.test.ts, which node's runner (files in path order) starts in the middle of
 * the suite instead of at its end, so both halves run beside other files.
 */
export const HEAVY = new Set(['amd/valu', 'amd/memory', 'amd/scalar']);

/** The regenerate-and-compare test for each generator `pick` selects. */
export function checkGenerators(pick: (name: string) => boolean): void {
  for (const g of generatorModules().filter((x) => pick(x.name))) {
  test(`generator ${g.name} reproduces its committed output`, { skip: process.env.GPUSIM_SKIP_REGEN ? 'GPUSIM_SKIP_REGEN set' : false }, async (t) => {
    let files: Record<string, string>;
    try {
      files = await runGenerator(g.path);
    } catch (e) {
      const why = missingInput(e);
      if (why) {
        t.skip(why);
        return;
      }
      throw e;
    }
    const differ: string[] = [];
    for (const [rel, content] of Object.entries(files)) {
      const p = join(ROOT, rel);
      if (!existsSync(p) || readFileSync(p, 'utf8') !== content) differ.push(rel);
    }
    assert.deepEqual(differ, [], `regenerate with: npm run gen -- ${g.name}`);
  });
}
}
