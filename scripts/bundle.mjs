// The CLI in one file (issue 24): dist/gpusim-cli.cjs, and the worker of `--threads` in another,
// dist/gpusim-worker.cjs, built from dist/src after tsc when esbuild (a dev dependency) is
// installed. `gpusim` (dist/src/cli/main.js, through src/cli/launch.ts) and the workers
// (runtime/parallel-node.ts) run them when they are not older than the last tsc build, with V8's
// code cache kept in a per-user cache directory (runtime/code-cache-node.ts); otherwise, or
// without esbuild, the separate ES modules run as before. One file
// loads in ~0.2 s less CPU than ~200 modules (no per-module resolution and file reads), and a
// CommonJS script can use V8's code cache, which Node 20 offers for no ES module.
//
// - `import.meta.url` becomes the original module's URL (relative to the bundle), so paths built
//   from it (the worker script of runtime/parallel-node.js, the repo root) stay what they were.
// - Imports leaving dist/src (the bench command's `import('../../../bench/main.js')`) stay
//   dynamic imports of the separate modules, resolved against dist/ by the loader.
// Plain JavaScript: it runs before anything is compiled.
import { readFileSync, writeFileSync, statSync, renameSync, rmSync } from 'node:fs';
import { join, dirname, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist');
export const bundleFile = join(dist, 'gpusim-cli.cjs');
// The worker of `--threads` (src/runtime/parallel-worker-bundle.ts runs it).
const workerFile = join(dist, 'gpusim-worker.cjs');
// bin/gpusim.cjs's launcher (src/cli/bin.ts).
const launcherFile = join(dist, 'gpusim-launch.cjs');
const stamp = join(dist, '.tsbuildinfo');

const mtime = (f) => {
  try {
    return statSync(f).mtimeMs;
  } catch {
    return 0;
  }
};

/** Rebuild the bundle when it is older than the last tsc build; quiet no-op without esbuild. */
export async function bundleCli({ force = false } = {}) {
  const built = Math.min(mtime(bundleFile), mtime(workerFile), mtime(launcherFile));
  if (!force && built >= mtime(stamp) && built > 0) return false;
  let esbuild;
  try {
    esbuild = await import('esbuild');
  } catch {
    return false; // not installed: gpusim runs the separate modules
  }
  const srcDir = join(dist, 'src') + sep;
  const urlOf = (file) => `require("node:url").pathToFileURL(require("node:path").join(__dirname, ${JSON.stringify(relative(dist, file).split(sep).join('/'))})).href`;
  const plugin = {
    name: 'gpusim-dist',
    setup(b) {
      b.onResolve({ filter: /^\.\.?\// }, (a) => {
        const p = resolve(a.resolveDir, a.path);
        if (!a.importer.startsWith(srcDir) || p.startsWith(srcDir)) return undefined;
        return { path: 'gpusim-dist:./' + relative(dist, p).split(sep).join('/'), external: true };
      });
      b.onLoad({ filter: /\.js$/ }, (a) => {
        if (!a.path.startsWith(srcDir)) return undefined;
        const text = readFileSync(a.path, 'utf8');
        return { contents: text.includes('import.meta.url') ? text.replaceAll('import.meta.url', urlOf(a.path)) : text, loader: 'js' };
      });
    },
  };
  const tmpDir = join(dist, '.bundle-tmp');
  await esbuild.build({
    entryPoints: { 'gpusim-cli': join(dist, 'src', 'cli', 'main.js'), 'gpusim-worker': join(dist, 'src', 'runtime', 'parallel-worker-node.js') },
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    outdir: tmpDir,
    outExtension: { '.js': '.cjs' },
    plugins: [plugin],
    logLevel: 'error',
    legalComments: 'none',
  });
  // The worker first: the CLI's bundle time is what the launcher compares.
  for (const out of [workerFile, bundleFile]) {
    const tmp = join(tmpDir, out.slice(dist.length + 1));
    // main.js's `#!` line: the bundle runs inside a function wrapper (src/runtime/code-cache-node.ts).
    // Imports of the separate modules go through the loader's `__gpusimImport` (a script compiled
    // from a code cache has no dynamic-import host of its own in Node 20).
    let text = readFileSync(tmp, 'utf8');
    if (text.startsWith('#!')) text = '//' + text.slice(2);
    if (/require\("gpusim-dist:/.test(text)) throw new Error('bundle: a static import leaves dist/src (only dynamic ones can)');
    // ASCII only (esbuild escapes strings and names; comments keep their characters): the loader
    // reads it as latin1 into a one-byte string, ~20 ms of CPU less per process than decoding
    // UTF-8 into a two-byte one (runtime/code-cache-node.ts).
    text = text.replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
    writeFileSync(tmp, text.replaceAll('import("gpusim-dist:', '__gpusimImport("'));
    renameSync(tmp, out);
  }
  // The CommonJS launcher of bin/gpusim.cjs (src/cli/bin.ts with launch.ts and what it imports);
  // main.js stays outside, imported only when there is no fresh one-file CLI.
  await esbuild.build({
    entryPoints: [join(dist, 'src', 'cli', 'bin.js')],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    outfile: launcherFile + '.tmp',
    plugins: [plugin, {
      name: 'gpusim-launch',
      setup(b) {
        b.onResolve({ filter: /^\.\/main\.js$/ }, () => ({ path: './src/cli/main.js', external: true }));
      },
    }],
    logLevel: 'error',
    legalComments: 'none',
  });
  renameSync(launcherFile + '.tmp', launcherFile);
  rmSync(tmpDir, { recursive: true, force: true });
  return true;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await bundleCli({ force: process.argv.includes('--force') });
}
