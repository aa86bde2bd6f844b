/**
 * Whole code objects compiled by clang-19 (kernels/bin/<mcpu>/*.co and *.o) must disassemble to
 * exactly what llvm-objdump-19 printed for them (kernels/bin/<mcpu>/*.objdump.txt): every
 * instruction's text, address, dwords and branch-target comment, modulo whitespace.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../../tools/gen/run.js';
import { targets } from '../../src/amd/isa/targets.js';
import { loadCodeObject } from '../../src/formats/amdgpu/codeobject.js';
import { formatListing, listCodeObject } from '../../src/amd/isa/listing.js';

/** Instruction and symbol lines of an objdump listing, normalised: `ADDR: WORDS | text | comment`. */
export function listingLines(text: string): string[] {
  const out: string[] = [];
  for (const raw of text.split('\n')) {
    const sym = /^([0-9a-f]{16}) <(.*)>:$/.exec(raw);
    if (sym) {
      out.push(`${sym[1]} <${sym[2]}>`);
      continue;
    }
    const m = /^\t(.*?)\s*\/\/ ([0-9A-F]+): ([0-9A-F ]+?)(?: (<.*>))?$/.exec(raw);
    if (!m) continue;
    out.push(`${m[2]}: ${m[3]} | ${m[1]!.replace(/\s+/g, ' ').trim()}${m[4] ? ' | ' + m[4] : ''}`);
  }
  return out;
}

for (const [mcpu, target] of Object.entries(targets)) {
  const dir = join(ROOT, 'kernels/bin', mcpu);
  if (!existsSync(dir)) continue;
  const files = readdirSync(dir).filter((f) => f.endsWith('.objdump.txt')).sort();
  test(`${mcpu}: ${files.length} clang-19 code objects disassemble as llvm-objdump-19 does`, () => {
    assert.ok(files.length >= 20, 'expected at least 20 compiled fixtures');
    const bad: string[] = [];
    let lines = 0;
    for (const f of files) {
      const obj = f.slice(0, -'.objdump.txt'.length);
      const co = loadCodeObject(new Uint8Array(readFileSync(join(dir, obj))), obj);
      const ours = listingLines(formatListing(listCodeObject(target, co)));
      const theirs = listingLines(readFileSync(join(dir, f), 'utf8'));
      // a symbol and at least one instruction (gfx900's empty kernel is one s_endpgm: GFX9 has no s_code_end padding)
      assert.ok(theirs.length >= 2, `${f} has no instruction lines`);
      lines += theirs.length;
      const n = Math.max(ours.length, theirs.length);
      for (let i = 0; i < n; i++) {
        if (ours[i] !== theirs[i]) {
          bad.push(`${obj}: ours '${ours[i]}'\n      llvm '${theirs[i]}'`);
          break;
        }
      }
    }
    assert.ok(lines > 1000, `only ${lines} instruction lines`);
    assert.ok(bad.length === 0, `${bad.length} of ${files.length} objects differ (${lines} llvm lines):\n  ${bad.slice(0, 30).join('\n  ')}`);
  });
}
