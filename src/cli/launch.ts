/**
 * How the `gpusim` program starts (issue 24: a fresh `gpusim run` spent ~0.45 s of CPU loading
 * ~200 ES modules before its first instruction). When the build made the one-file CLI
 * (dist/gpusim-cli.cjs, scripts/bundle.mjs: esbuild is a dev dependency) and it is at least as new
 * as the last tsc build, that file runs instead of the separate modules: one file to read and no
 * module resolution, compiled from V8's code cache when there is one (runtime/code-cache-node.ts:
 * where the cache lives, when it is written, GPUSIM_BUNDLE=0 and GPUSIM_CODE_CACHE=0).
 */
import { freshBundle, runBundle } from '../runtime/code-cache-node.js';

export const BUNDLE_NAME = 'gpusim-cli.cjs';

/**
 * The code cache a command line uses (runtime/code-cache-node.ts runBundle): its subcommand's (a
 * cache holds what the run that wrote it compiled: `run` and `disasm` compile different code),
 * `other` for options alone (`--version`, `--help`).
 */
export function cacheKey(argv: readonly string[]): string {
  const c = argv[0];
  return c !== undefined && /^[a-z][a-z0-9]*$/.test(c) ? c : 'other';
}

/** Runs the command line through the one-file CLI when there is a fresh one, else through `own`. */
export async function launch(own: () => Promise<void>): Promise<void> {
  const file = freshBundle(BUNDLE_NAME);
  let b: { runCli: () => Promise<void>; saveCache: () => void } | null = null;
  if (file !== null) {
    try {
      // The flag tells main.ts inside the bundle that it is not the program, and `run --json`
      // (timing.cli) how the code was loaded.
      const l = runBundle(file, `cli-${cacheKey(process.argv.slice(2))}`, (how) => void ((globalThis as { gpusimBundle?: string }).gpusimBundle = how));
      const runCli = l.exports['runCli'];
      if (typeof runCli === 'function') b = { runCli: runCli as () => Promise<void>, saveCache: l.saveCache };
    } catch {
      b = null;
    }
  }
  if (b === null) {
    delete (globalThis as { gpusimBundle?: string }).gpusimBundle;
    return own();
  }
  await b.runCli();
  // After the run: the cache then holds every function the run compiled.
  b.saveCache();
}
