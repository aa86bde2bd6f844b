import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mcpuName, targetFor, targets } from '../../src/amd/isa/targets.js';

test('generation names and -mcpu names pick the same target (gfx11 = gfx1100, gfx10.3 = gfx1030, gfx9 = gfx900)', () => {
  for (const [gen, mcpu] of [['gfx11', 'gfx1100'], ['gfx10.3', 'gfx1030'], ['gfx103', 'gfx1030'], ['GFX9', 'gfx900']] as const) {
    assert.equal(mcpuName(gen), mcpu);
    assert.equal(targetFor(gen), targets[mcpu]);
    assert.equal(targetFor(mcpu), targets[mcpu]);
  }
  assert.equal(targetFor('gfx1010'), null);
  assert.equal(mcpuName('gfx1010'), 'gfx1010');
});
