/**
 * How the `gpusim` program starts (issue 24: a fresh `gpusim run` spent ~0.5 s of CPU loading
 * ~200 ES modules before its first instruction). When the build made the one-file CLI
 * (dist/gpusim-cli.cjs, scripts/bundle.mjs: esbuild is a dev dependency) and it is at least as new
 * as the last tsc build (dist/.tsbuildinfo), that file runs instead of the separate modules: one
 * file to read and no module resolution, compiled from V8's code cache when there is one.
 *
 * The code cache is V8's serialized bytecode of the bundle's functions (those compiled by the end
 * of the run that wrote it), in a per-user cache directory ($XDG_CACHE_HOME/gpusim or
 * ~/.cache/gpusim), under a name made of the bundle's size and modification time and Node's
 * version and architecture; V8 itself rejects a cache made for other source or flags, and then
 * it is written again. Nothing is ever written into the repository. Everything here is an
 * optimisation: any failure (no bundle, a stale one, an unreadable or unwritable cache) falls
 * back to the separate modules or to compiling without a cache.
 *
 * GPUSIM_BUNDLE=0 runs the separate modules; GPUSIM_CODE_CACHE=0 loads the bundle without a cache.
 */
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import vm from 'node:vm';

const dist = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const BUNDLE = join(dist, 'gpusim-cli.cjs');

/** The per-user cache directory of gpusim (created on first write). */
export function cacheDir(): string {
  const base = process.env['XDG_CACHE_HOME'] || join(homedir(), '.cache');
  return join(base, 'gpusim');
}

interface Loaded {
  readonly runCli: () => Promise<void>;
  /** Writes the code cache when there was none or V8 rejected it (after the run: more is compiled). */
  readonly saveCache: () => void;
}

/** The one-file CLI, loaded, or null when there is none, it is stale, or it is turned off. */
export function loadBundle(): Loaded | null {
  if (process.env['GPUSIM_BUNDLE'] === '0') return null;
  let st;
  try {
    st = statSync(BUNDLE);
    if (st.mtimeMs < statSync(join(dist, '.tsbuildinfo')).mtimeMs) return null;
  } catch {
    return null;
  }
  const useCache = process.env['GPUSIM_CODE_CACHE'] !== '0';
  const cacheFile = join(cacheDir(), `cli-${process.version}-${process.arch}-${st.size}-${Math.round(st.mtimeMs)}.v8cache`);
  let cached: Buffer | undefined;
  if (useCache) {
    try {
      cached = readFileSync(cacheFile);
    } catch {
      cached = undefined;
    }
  }
  const src = readFileSync(BUNDLE, 'utf8');
  const script = new vm.Script(`(function (exports, require, module, __filename, __dirname, __gpusimImport) {${src}\n})`, {
    filename: BUNDLE,
    cachedData: cached,
  });
  type Wrapper = (e: object, r: NodeJS.Require, m: { exports: object }, f: string, d: string, i: (p: string) => Promise<unknown>) => void;
  const fn = script.runInThisContext() as Wrapper;
  const mod = { exports: {} as { runCli?: () => Promise<void> } };
  // Read by main.ts (not the program inside the bundle) and by `run --json` (timing.cli).
  (globalThis as { gpusimBundle?: string }).gpusimBundle = cached !== undefined && !script.cachedDataRejected ? 'one file, code cache' : 'one file';
  // The modules the bundle leaves out (bench/), imported by path relative to dist/.
  const importDist = (p: string) => import(new URL(p, pathToFileURL(join(dist, '/')).href).href);
  fn.call(mod.exports, mod.exports, createRequire(BUNDLE), mod, BUNDLE, dist, importDist);
  const runCli = mod.exports.runCli;
  if (typeof runCli !== 'function') return null;
  const saveCache = () => {
    if (!useCache || (cached !== undefined && !script.cachedDataRejected)) return;
    try {
      mkdirSync(cacheDir(), { recursive: true });
      const tmp = `${cacheFile}.${process.pid}.tmp`;
      writeFileSync(tmp, script.createCachedData());
      renameSync(tmp, cacheFile);
      // Caches of earlier builds are dead weight (a few MB each).
      for (const f of readdirSync(cacheDir())) {
        if (f.startsWith('cli-') && f.endsWith('.v8cache') && join(cacheDir(), f) !== cacheFile) rmSync(join(cacheDir(), f), { force: true });
      }
    } catch {
      // a read-only or full cache directory: the next run compiles again
    }
  };
  return { runCli, saveCache };
}

/** Runs the command line through the one-file CLI when there is a fresh one, else through `own`. */
export async function launch(own: () => Promise<void>): Promise<void> {
  let b: Loaded | null = null;
  try {
    b = loadBundle();
  } catch {
    b = null;
  }
  if (b === null) return own();
  await b.runCli();
  b.saveCache();
}
