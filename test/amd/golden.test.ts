/**
 * Every golden case LLVM gave us (test/golden/amd/<mcpu>/*.tsv, built by the generators from
 * llvm-objdump-19 and llvm-mc-19) must decode to LLVM's text, and LLVM's text must assemble to
 * LLVM's bytes. Runs without LLVM.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { parseGolden, hexWords } from '../../tools/gen/golden.js';
import { assembleLine, decodeAt, printInst } from '../../src/amd/isa/target.js';
import { DecodeError } from '../../src/amd/isa/types.js';
import { targets, waveTarget } from '../../src/amd/isa/targets.js';
import { ROOT } from '../../tools/gen/run.js';

for (const target of Object.values(targets)) {
  const dir = join(ROOT, 'test/golden/amd', target.mcpu);
  if (!existsSync(dir)) continue;
  for (const f of readdirSync(dir).filter((x) => x.endsWith('.tsv')).sort()) {
    // `*-w64.tsv`: LLVM's answers with -mattr=+wavefrontsize64, read by the target's wave64 reading.
    const wave64 = f.endsWith('-w64.tsv');
    test(`${target.mcpu}${wave64 ? ' wave64' : ''} golden ${f}`, () => {
      const t = wave64 ? waveTarget(target, 64) : target;
      assert.ok(t && (!wave64 || t.wave === 64), `${target.mcpu} has no wave64 reading`);
      const cases = parseGolden(readFileSync(join(dir, f), 'utf8'));
      assert.ok(cases.length > 0, 'golden file is empty');
      const bad: string[] = [];
      let asmChecked = 0;
      for (const c of cases) {
        if (c.text === null) {
          try {
            const inst = decodeAt(t, c.words, 0);
            bad.push(`${hexWords(c.words)}: expected <unknown>, got '${printInst(t, inst)}'`);
          } catch (e) {
            if (!(e instanceof DecodeError)) bad.push(`${hexWords(c.words)}: ${(e as Error).message}`);
          }
          continue;
        }
        try {
          const inst = decodeAt(t, c.words, 0);
          const text = printInst(t, inst);
          if (text !== c.text) bad.push(`${hexWords(c.words)}: disasm '${text}' != llvm '${c.text}'`);
          else if (inst.size !== c.words.length * 4) bad.push(`${hexWords(c.words)}: size ${inst.size} != ${c.words.length * 4}`);
        } catch (e) {
          bad.push(`${hexWords(c.words)}: decode failed for '${c.text}': ${(e as Error).message}`);
        }
        if (c.asm) {
          asmChecked++;
          try {
            const w = assembleLine(t, c.text);
            if (hexWords(w) !== hexWords(c.asm)) bad.push(`asm '${c.text}': ${hexWords(w)} != llvm ${hexWords(c.asm)}`);
          } catch (e) {
            bad.push(`asm '${c.text}': ${(e as Error).message}`);
          }
        }
      }
      assert.ok(bad.length === 0, `${bad.length} of ${cases.length} cases (${asmChecked} assembled) differ from LLVM:\n  ${bad.slice(0, 40).join('\n  ')}`);
    });
  }
}
