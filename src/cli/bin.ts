/**
 * The `gpusim` program's launcher as the build makes it CommonJS (scripts/bundle.mjs bundles this
 * module and launch.ts into dist/gpusim-launch.cjs; bin/gpusim.cjs, package.json's `bin`, requires
 * it). Node starts a CommonJS program without its ES module loader, which a fresh `gpusim run`
 * spent ~30 ms on before the one-file CLI even began to load (main.js and its imports resolved and
 * linked as ES modules). Without a fresh one-file CLI, the separate modules run (launch.ts).
 */
import { launch } from './launch.js';

void launch(async () => (await import('./main.js')).runCli());
