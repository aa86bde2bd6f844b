/** Every instruction of every bundled clang-19 object decodes, prints, and assembles back to its own bytes. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../../tools/gen/run.js';
import { targets } from '../../src/amd/isa/targets.js';
import { roundTrips } from '../../src/amd/isa/target.js';
import { loadCodeObject } from '../../src/formats/amdgpu/codeobject.js';
import { listCodeObject } from '../../src/amd/isa/listing.js';

for (const [mcpu, target] of Object.entries(targets)) {
  const dir = join(ROOT, 'kernels/bin', mcpu);
  if (!existsSync(dir)) continue;
  test(`${mcpu}: decode -> print -> assemble round-trips every instruction of the bundled objects`, () => {
    let n = 0;
    const bad: string[] = [];
    for (const f of readdirSync(dir).filter((x) => x.endsWith('.co') || x.endsWith('.o')).sort()) {
      const co = loadCodeObject(new Uint8Array(readFileSync(join(dir, f))), f);
      for (const b of listCodeObject(target, co)) {
        for (const l of b.lines) {
          n++;
          if (!roundTrips(target, l)) bad.push(`${f} 0x${l.pc.toString(16)}: ${l.text}`);
        }
      }
    }
    assert.ok(n > 5000, `only ${n} instructions`);
    assert.ok(bad.length === 0, `${bad.length} of ${n} do not round-trip:\n  ${bad.slice(0, 30).join('\n  ')}`);
  });
}
