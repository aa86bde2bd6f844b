/**
 * Keeps src/amd/gfx/README.md's issue-5 coverage table honest: every path it names exists and
 * every quoted test name occurs in the test file named before it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

test('src/amd/gfx/README.md issue-5 table: every named file exists and every quoted test is in its file', () => {
  const readme = readFileSync(join(ROOT, 'src/amd/gfx/README.md'), 'utf8');
  const at = readme.indexOf('## Issue 5 coverage');
  assert.ok(at >= 0, 'the section exists');
  const rows = readme.slice(at).split('\n').filter((l) => l.startsWith('| ') && !l.startsWith('| item'));
  assert.ok(rows.length >= 25, `${rows.length} rows`);
  let tests = 0;
  for (const row of rows) {
    const cells = row.split(' | ');
    assert.ok(cells.length >= 4, row);
    for (const m of row.matchAll(/`((?:src|test|tools|examples|bench)\/[^`]+)`/g)) assert.ok(existsSync(join(ROOT, m[1]!)), `${m[1]} (row: ${cells[0]})`);
    // In the tests cell, each `file` is followed by one quoted test name.
    const cell = cells[2]!;
    const refs = [...cell.matchAll(/`([^`]+\.test\.ts)` "([^"]+)"/g)];
    assert.ok(refs.length > 0, `row without tests: ${cells[0]}`);
    for (const [, file, name] of refs) {
      const src = readFileSync(join(ROOT, file!), 'utf8');
      assert.ok(src.includes(name!), `${file} has no test "${name}"`);
      tests++;
    }
  }
  assert.ok(tests >= 50, `${tests} test references`);
});
