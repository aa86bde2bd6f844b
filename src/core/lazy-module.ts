/**
 * Evaluating a module only when it is first needed, synchronously (issue 24: a gfx1100 `gpusim
 * run` evaluated the GFX10.3 and GFX9 instruction tables and the PM4 path's register tables, ~0.5 MB
 * of modules it never used, in every fresh process).
 *
 * `lazyModule(() => require('./x.js'), './x.js', import.meta.url)` returns a getter of module x:
 * - in the one-file builds (scripts/bundle.mjs, esbuild), `require('./x.js')` of an ES module is
 *   bundled: the call evaluates the bundled module in place, once, with the same instances as
 *   every static import of it;
 * - run as separate ES modules (`require` is not defined there), Node's require of an ES module
 *   (Node 20.19+) loads it through the same module cache as `import`, so the instances are shared
 *   here too.
 * The first argument must spell `require` with a literal path for esbuild to see it.
 */

interface NodeModuleApi {
  createRequire(url: string): (id: string) => unknown;
}

export function lazyModule<T>(bundled: () => unknown, path: string, importerUrl: string): () => T {
  let m: T | undefined;
  return () => {
    if (m !== undefined) return m;
    // Bundled (the one-file CLI, or any bundler that turns the literal require into the module's
    // initialiser, whatever the output format): the call works whether or not a global `require`
    // exists. Run as separate ES modules it throws a ReferenceError naming `require`.
    try {
      m = bundled() as T;
      return m;
    } catch (e) {
      if (!(e instanceof ReferenceError) || !/\brequire\b/.test(e.message)) throw e;
    }
    const proc = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
    const nodeModule = proc?.getBuiltinModule?.('node:module') as NodeModuleApi | undefined;
    if (!nodeModule) throw new Error(`${path}: loading it on demand as a separate ES module needs Node 20.19 or later (or the one-file build)`);
    m = nodeModule.createRequire(importerUrl)(path) as T;
    return m;
  };
}
