/**
 * The r600 disassembler prints exactly what clang-19 -S printed for every committed fixture
 * (kernels/r600/bin/<mcpu>/<name>.o vs <name>.s), line for line.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../../tools/gen/run.js';
import { disassembleKernel, listingBodies, loadR600Object } from '../../src/r600/isa/object.js';

/** Fixture directories: every kernel for cypress and cayman, a subset for the other Evergreen chips. */
export const R600_FIXTURE_CHIPS = ['cypress', 'cayman', 'redwood', 'juniper', 'cedar', 'sumo'] as const;

export function fixtures(): { mcpu: string; name: string; obj: string; s: string }[] {
  const out: { mcpu: string; name: string; obj: string; s: string }[] = [];
  for (const mcpu of R600_FIXTURE_CHIPS) {
    const dir = join(ROOT, 'kernels/r600/bin', mcpu);
    for (const f of readdirSync(dir).filter((x) => x.endsWith('.o')).sort()) {
      out.push({ mcpu, name: f.slice(0, -2), obj: join(dir, f), s: join(dir, f.slice(0, -2) + '.s') });
    }
  }
  return out;
}

test('there are at least 25 cypress fixtures and some cayman ones', () => {
  const f = fixtures();
  assert.ok(f.filter((x) => x.mcpu === 'cypress').length >= 25);
  assert.ok(f.filter((x) => x.mcpu === 'cayman').length >= 5);
});

for (const fx of fixtures()) {
  test(`disassembly of ${fx.mcpu}/${fx.name} matches clang -S`, () => {
    const o = loadR600Object(readFileSync(fx.obj), fx.obj);
    assert.equal(o.mcpu, fx.mcpu);
    const ref = listingBodies(readFileSync(fx.s, 'utf8'));
    assert.ok(o.kernels.length >= 1);
    for (const k of o.kernels) assert.deepEqual(disassembleKernel(k), ref.get(k.name), k.name);
  });
}
