/**
 * Loading the one-file builds (scripts/bundle.mjs: dist/gpusim-cli.cjs for the `gpusim` program,
 * dist/gpusim-worker.cjs for the workers of `--threads`) with V8's code cache (issue 24: ~200
 * ES modules took ~0.45 s of CPU to load in each fresh thread; Node 20 has no compile cache for ES
 * modules, but a CommonJS script compiled through `vm.Script` can use V8's).
 *
 * A bundle is used only when it is at least as new as the last tsc build (dist/.tsbuildinfo): a
 * `tsc -p .` by hand makes it stale until the next scripts/build.mjs. The code cache (V8's
 * serialized bytecode of the functions compiled by the time it is made) lives in a per-user cache
 * directory ($XDG_CACHE_HOME/gpusim or ~/.cache/gpusim), named after the bundle (the CLI's after
 * its subcommand too), its size and modification time and Node's version and architecture; V8 itself rejects a cache made for other
 * source or flags, and then it is written again. Nothing is written into the repository. Any
 * failure falls back (to the separate modules, or to compiling without a cache).
 *
 * GPUSIM_BUNDLE=0 turns the bundles off; GPUSIM_CODE_CACHE=0 loads them without a cache.
 */
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import vm from 'node:vm';

/** The dist/ folder this module was built into. */
export const DIST = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The per-user cache directory of gpusim (created on first write). */
export function cacheDir(): string {
  const base = process.env['XDG_CACHE_HOME'] || join(homedir(), '.cache');
  return join(base, 'gpusim');
}

/** dist/<name> when it exists, is not older than the last tsc build and bundles are on; else null. */
export function freshBundle(name: string): string | null {
  if (process.env['GPUSIM_BUNDLE'] === '0') return null;
  const file = join(DIST, name);
  try {
    return statSync(file).mtimeMs >= statSync(join(DIST, '.tsbuildinfo')).mtimeMs ? file : null;
  } catch {
    return null;
  }
}

export interface LoadedBundle {
  readonly exports: Record<string, unknown>;
  /** 'one file, code cache' when V8 took the cache, else 'one file'. */
  readonly how: string;
  /** Writes the code cache when there was none or V8 rejected it (later: more is compiled by then). */
  readonly saveCache: () => void;
}

/**
 * Runs a bundle (CommonJS, from scripts/bundle.mjs) in this thread, through the code cache named
 * `prefix`-...; `before` runs between compiling and evaluating it (main.ts's program check).
 * `prefix` names what the process runs: a cache holds the functions the run that wrote it
 * compiled, so the CLI keeps one per subcommand (a cache written by `gpusim --version` left a
 * later `gpusim run` of conv2d compiling the engine lazily: 0.33-0.38 s to its first instruction
 * instead of 0.2 s, and a slower dispatch).
 */
export function runBundle(file: string, prefix: string, before?: (how: string) => void): LoadedBundle {
  const st = statSync(file);
  const useCache = process.env['GPUSIM_CODE_CACHE'] !== '0';
  // The build's part of the name: caches of other builds are removed when this one is written.
  const build = `-${process.version}-${process.arch}-${st.size}-${Math.round(st.mtimeMs)}.v8cache`;
  const cacheFile = join(cacheDir(), `${prefix}${build}`);
  const family = prefix.split('-')[0]!;
  let cached: Buffer | undefined;
  if (useCache) {
    try {
      cached = readFileSync(cacheFile);
    } catch {
      cached = undefined;
    }
  }
  // The bundles are ASCII (scripts/bundle.mjs): latin1 makes a one-byte string without decoding.
  const src = readFileSync(file, 'latin1');
  const script = new vm.Script(`(function (exports, require, module, __filename, __dirname, __gpusimImport) {${src}\n})`, { filename: file, cachedData: cached });
  const how = cached !== undefined && !script.cachedDataRejected ? 'one file, code cache' : 'one file';
  type Wrapper = (e: object, r: NodeJS.Require, m: { exports: object }, f: string, d: string, i: (p: string) => Promise<unknown>) => void;
  const fn = script.runInThisContext() as Wrapper;
  const mod = { exports: {} as Record<string, unknown> };
  // The modules a bundle leaves out (bench/), imported by path relative to dist/ (a script
  // compiled from a code cache has no dynamic-import host of its own in Node 20).
  const importDist = (p: string) => import(new URL(p, pathToFileURL(join(DIST, '/')).href).href);
  before?.(how);
  fn.call(mod.exports, mod.exports, createRequire(file), mod, file, DIST, importDist);
  const saveCache = () => {
    if (!useCache || (cached !== undefined && !script.cachedDataRejected)) return;
    try {
      const dir = cacheDir();
      mkdirSync(dir, { recursive: true });
      const tmp = `${cacheFile}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
      writeFileSync(tmp, script.createCachedData());
      renameSync(tmp, cacheFile);
      // Caches of earlier builds are dead weight (a few MB each).
      for (const f of readdirSync(dir)) {
        if (f.startsWith(`${family}-`) && f.endsWith('.v8cache') && !f.endsWith(build)) rmSync(join(dir, f), { force: true });
      }
    } catch {
      // a read-only or full cache directory: the next run compiles again
    }
  };
  return { exports: mod.exports, how, saveCache };
}
