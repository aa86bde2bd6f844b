/**
 * GFX11 scalar codecs (SOP1, SOP2, SOPK, SOPC, SOPP, SMEM): the golden files run against the scalar
 * codecs alone (so a broken codec elsewhere cannot hide a scalar regression), plus what goldens do
 * not show: extracted fields, DecodeError contents, AsmError on bad operands, assembler variants.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseGolden, hexWords } from '../../tools/gen/golden.js';
import { assembleLine, decodeAt, disassemble, printInst, type IsaTarget } from '../../src/amd/isa/target.js';
import { AsmError, DecodeError } from '../../src/amd/isa/types.js';
import { GFX11_SPACE } from '../../src/amd/isa/operands.js';
import { codecs } from '../../src/amd/isa/gfx11/scalar.js';
import { ROOT } from '../../tools/gen/run.js';

const T: IsaTarget = { mcpu: 'gfx1100', space: GFX11_SPACE, codecs };

for (const cls of ['sop1', 'sop2', 'sopk', 'sopc', 'sopp', 'smem']) {
  test(`gfx1100 scalar golden ${cls}.tsv`, () => {
    const cases = parseGolden(readFileSync(join(ROOT, 'test/golden/amd/gfx1100', `${cls}.tsv`), 'utf8'));
    assert.ok(cases.length > 100);
    const bad: string[] = [];
    for (const c of cases) {
      if (c.text === null) {
        try {
          bad.push(`${hexWords(c.words)}: expected <unknown>, got '${printInst(T, decodeAt(T, c.words, 0))}'`);
        } catch (e) {
          if (!(e instanceof DecodeError)) bad.push(`${hexWords(c.words)}: ${(e as Error).message}`);
        }
        continue;
      }
      try {
        const inst = decodeAt(T, c.words, 0);
        const text = printInst(T, inst);
        if (text !== c.text) bad.push(`${hexWords(c.words)}: disasm '${text}' != llvm '${c.text}'`);
        else if (inst.size !== c.words.length * 4) bad.push(`${hexWords(c.words)}: size ${inst.size}`);
      } catch (e) {
        bad.push(`${hexWords(c.words)}: decode failed for '${c.text}': ${(e as Error).message}`);
      }
      if (!c.asm) {
        // llvm-mc refuses this text (e.g. src_vccz on GFX11, a negative buffer offset): so must we.
        try {
          const w = assembleLine(T, c.text);
          bad.push(`asm '${c.text}': llvm-mc rejects it but we assembled ${hexWords(w)}`);
        } catch (e) {
          if (!(e instanceof AsmError)) bad.push(`asm '${c.text}': ${(e as Error).message}`);
        }
      }
      if (c.asm) {
        try {
          const w = assembleLine(T, c.text);
          if (hexWords(w) !== hexWords(c.asm)) bad.push(`asm '${c.text}': ${hexWords(w)} != llvm ${hexWords(c.asm)}`);
        } catch (e) {
          bad.push(`asm '${c.text}': ${(e as Error).message}`);
        }
      }
    }
    assert.ok(bad.length === 0, `${bad.length} of ${cases.length} differ:\n  ${bad.slice(0, 60).join('\n  ')}`);
  });
}
