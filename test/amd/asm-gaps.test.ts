/**
 * The assembler forms issue 22 listed as gaps against llvm-mc, and the lines llvm-mc refuses:
 * every case of test/golden/amd/asm-gaps.json (llvm-mc-19's encoding or refusal, and its
 * disassembly of what it encoded; `npm run gen -- asm-gaps`) must come out the same from gpusim.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../../tools/gen/run.js';
import { targets, waveTarget } from '../../src/amd/isa/targets.js';
import { assembleLine, decodeAt, printInst } from '../../src/amd/isa/target.js';
import { AsmError } from '../../src/amd/isa/types.js';
import type { GapCase } from '../../tools/gen/amd/gen-asm-gaps.js';

const { cases } = JSON.parse(readFileSync(join(ROOT, 'test/golden/amd/asm-gaps.json'), 'utf8')) as { cases: GapCase[] };
const bytesOf = (w: readonly number[]): number[] => w.flatMap((x) => [x & 0xff, (x >>> 8) & 0xff, (x >>> 16) & 0xff, x >>> 24]);
const wordsOf = (b: readonly number[]): number[] => Array.from({ length: b.length / 4 }, (_, i) => (b[4 * i]! | (b[4 * i + 1]! << 8) | (b[4 * i + 2]! << 16) | (b[4 * i + 3]! << 24)) >>> 0);

test('the golden file has both accepted and refused lines', () => {
  assert.ok(cases.filter((c) => c.bytes).length >= 50);
  assert.ok(cases.filter((c) => !c.bytes).length >= 20);
});

test('gpusim encodes what llvm-mc-19 encodes, and refuses what it refuses', () => {
  const bad: string[] = [];
  for (const c of cases) {
    const t = waveTarget(targets[c.mcpu]!, c.wave)!;
    let got: number[] | string;
    try {
      got = bytesOf(assembleLine(t, c.text));
    } catch (e) {
      if (!(e instanceof AsmError)) throw e;
      got = e.message;
    }
    if (c.bytes === null ? typeof got !== 'string' : JSON.stringify(got) !== JSON.stringify(c.bytes)) {
      bad.push(`${c.mcpu}/w${c.wave} '${c.text}': llvm-mc ${c.bytes ? JSON.stringify(c.bytes) : 'refuses'}, gpusim ${typeof got === 'string' ? got : JSON.stringify(got)}`);
    }
  }
  assert.deepEqual(bad, []);
});

test('gpusim disassembles those encodings as llvm-mc-19 does', () => {
  const bad: string[] = [];
  for (const c of cases) {
    if (!c.bytes || !c.disasm) continue;
    const t = waveTarget(targets[c.mcpu]!, c.wave)!;
    const inst = decodeAt(t, wordsOf(c.bytes), 0);
    const text = printInst(t, inst).replace(/\s+/g, ' ');
    if (text !== c.disasm || inst.size !== c.bytes.length) bad.push(`${c.mcpu}/w${c.wave} ${JSON.stringify(c.bytes)}: llvm-mc '${c.disasm}', gpusim '${text}' (${inst.size} bytes)`);
  }
  assert.deepEqual(bad, []);
});
