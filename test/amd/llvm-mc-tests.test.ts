/**
 * LLVM's own MC tests for AMDGPU (llvm/test/MC/AMDGPU and llvm/test/MC/Disassembler/AMDGPU from
 * the llvm-toolchain-19 source package), run against gpusim's assembler and disassembler by
 * tools/llvm-mc-tests.ts. Set GPUSIM_LLVM_MC_TESTS to that package's llvm/test/MC directory; the
 * test skips without it. The floors are the figures reached (docs/amd.md): a regression fails.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { runMcTests, type Counts } from '../../tools/llvm-mc-tests.js';

const DIR = process.env.GPUSIM_LLVM_MC_TESTS;
const present = DIR !== undefined && existsSync(join(DIR, 'AMDGPU'));

/** Matched cases per target (LLVM 19.1.7's tests): assembly, disassembly, rejected lines. */
const FLOOR: Readonly<Record<string, readonly [asm: number, disasm: number, reject: number]>> = {
  'gfx1100/w32': [40323, 39044, 7249],
  'gfx1100/w64': [21597, 26711, 11118],
  'gfx1030/w32': [167, 105, 451],
  'gfx1030/w64': [0, 0, 3],
  'gfx900/w64': [54933, 39322, 1520],
};

test('LLVM MC tests: gpusim matches at least the recorded figures per target', { skip: present ? false : 'set GPUSIM_LLVM_MC_TESTS=<llvm source>/llvm/test/MC' }, () => {
  const r = runMcTests(DIR!);
  const got = (c: Counts | undefined): number[] => (c ? [c.asm.matched, c.disasm.matched, c.reject.matched] : [0, 0, 0]);
  const low: string[] = [];
  for (const [t, floor] of Object.entries(FLOOR)) {
    const g = got(r.targets[t]);
    ['asm', 'disasm', 'reject'].forEach((k, i) => {
      if (g[i]! < floor[i]!) low.push(`${t} ${k}: ${g[i]} matched, the floor is ${floor[i]}`);
    });
  }
  assert.deepEqual(low, []);
  assert.ok(r.files.length >= 240, `${r.files.length} test files counted`);
});
