#!/usr/bin/env node
// Build dist/ only when a source changed: `npm test`, `npm run demo` and `npm run bench` call this
// first. tsc runs in incremental mode (tsconfig.json: dist/.tsbuildinfo), so even a needed build
// recompiles only what changed; when nothing is newer than the last build, tsc is not started at
// all (it takes seconds just to check). A clean clone (no dist/) builds everything.
// Plain JavaScript: it runs before anything is compiled.
import { readdirSync, statSync, utimesSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const stamp = join(root, 'dist', '.tsbuildinfo');
const force = process.argv.includes('--force');

/** Newest modification time under the compiled folders (and of the build settings). */
function newest() {
  let t = 0;
  const walk = (d) => {
    let ents;
    try {
      ents = readdirSync(d, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of ents) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.ts')) t = Math.max(t, statSync(p).mtimeMs);
    }
  };
  for (const d of ['src', 'test', 'tools', 'bench']) walk(join(root, d));
  for (const f of ['tsconfig.json', 'package.json', 'package-lock.json']) {
    try {
      t = Math.max(t, statSync(join(root, f)).mtimeMs);
    } catch {
      // absent: nothing to compare
    }
  }
  return t;
}

let built = 0;
try {
  built = statSync(stamp).mtimeMs;
} catch {
  built = 0;
}
// The one-file CLI (scripts/bundle.mjs) follows every build; without esbuild it is skipped.
const { bundleCli } = await import('./bundle.mjs');
if (!force && built > 0 && newest() <= built) {
  await bundleCli();
  process.exit(0);
}
process.stderr.write(built ? 'gpusim: sources changed, building dist/ (incremental)\n' : 'gpusim: building dist/ (first build; later builds are incremental)\n');
const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
const r = spawnSync(process.execPath, [tsc, '-p', root], { stdio: 'inherit' });
if (r.status !== 0) process.exit(r.status ?? 1);
// tsc leaves its build info alone when no output changed (a touched file): mark this build.
const now = new Date();
try {
  utimesSync(stamp, now, now);
} catch {
  // no build info written (should not happen with incremental on)
}
await bundleCli({ force: true });
