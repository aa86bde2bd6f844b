/**
 * The import graph of src/ keeps its shape (issue 21):
 * - no import cycle among src/ modules, counting `import type` too (a type cycle is a knot in the
 *   design even though Node never sees it). Allowed: a generated `x.gen.ts` importing a type from a
 *   hand-written module of its folder (the generator names the type its table has, the module
 *   imports the table), and the explicit type-only edges of ALLOWED_TYPE_EDGES below;
 * - no upward import: core <- formats <- family folders (amd, r600, adreno) <- runtime <- cli,
 *   index.ts on top; and no family folder imports another.
 * It reads the TypeScript sources (the repository, not dist/), so it needs no build of anything else.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * Type-only edges that close a cycle and are kept on purpose: a handler table receives its host
 * class as a parameter type (the host imports the table). Each must exist and be type-only.
 */
const ALLOWED_TYPE_EDGES: readonly (readonly [string, string])[] = [
  // Adreno CP packet handlers take the CommandProcessor they run on.
  ['src/adreno/cp/exec.ts', 'src/adreno/cp/cp.ts'],
  ['src/adreno/cp/handlers.ts', 'src/adreno/cp/cp.ts'],
  ['src/adreno/cp/handlers-cond.ts', 'src/adreno/cp/cp.ts'],
  ['src/adreno/cp/handlers-draw.ts', 'src/adreno/cp/cp.ts'],
  ['src/adreno/cp/handlers-compute.ts', 'src/adreno/cp/cp.ts'],
  ['src/adreno/cp/handlers-event.ts', 'src/adreno/cp/cp.ts'],
  ['src/adreno/cp/handlers-mem.ts', 'src/adreno/cp/cp.ts'],
  ['src/adreno/cp/handlers-gfx.ts', 'src/adreno/cp/cp.ts'],
  ['src/adreno/cp/handlers-gmem.ts', 'src/adreno/cp/cp.ts'],
  ['src/adreno/cp/handlers-cache.ts', 'src/adreno/cp/cp.ts'],
  ['src/adreno/cp/handlers-lrz.ts', 'src/adreno/cp/cp.ts'],
  ['src/adreno/cp/handlers-feedback.ts', 'src/adreno/cp/cp.ts'],
  ['src/adreno/cp/handlers-so.ts', 'src/adreno/cp/cp.ts'],
  // R600 clause binders name the CF op that holds them; the wave keeps its program's CF ops.
  ['src/r600/wave/machine.ts', 'src/r600/wave/cf.ts'],
  ['src/r600/wave/alu-clause.ts', 'src/r600/wave/cf.ts'],
  ['src/r600/wave/export.ts', 'src/r600/wave/cf.ts'],
  ['src/r600/wave/fetch-clause.ts', 'src/r600/wave/cf.ts'],
  ['src/r600/wave/gds-clause.ts', 'src/r600/wave/cf.ts'],
];

interface Edge {
  readonly to: string;
  /** Every import of `to` in the file is `import type` / `export type`. */
  readonly typeOnly: boolean;
}

function sources(dir: string, out: string[] = []): string[] {
  for (const e of readdirSync(dir)) {
    const p = join(dir, e);
    if (statSync(p).isDirectory()) sources(p, out);
    else if (p.endsWith('.ts')) out.push(relative(ROOT, p).split('\\').join('/'));
  }
  return out;
}

/** Static imports and re-exports (`from '...'`, side-effect `import '...'`) and literal `import('...')`. */
const STATIC = /^\s*(import|export)\s+(type\s+)?(?:[^'"`;]*?\s+from\s+)?'([^']+)'/gm;
const DYNAMIC = /\bimport\('([^']+)'\)/g;

function graph(): Map<string, Edge[]> {
  const files = sources(join(ROOT, 'src')).sort();
  const known = new Set(files);
  const g = new Map<string, Edge[]>();
  for (const f of files) {
    const text = readFileSync(join(ROOT, f), 'utf8');
    const seen = new Map<string, boolean>();
    const add = (spec: string, typeOnly: boolean): void => {
      if (!spec.startsWith('.')) return;
      const to = normalize(join(dirname(f), spec)).split('\\').join('/').replace(/\.js$/, '.ts');
      if (!known.has(to)) return;
      seen.set(to, (seen.get(to) ?? true) && typeOnly);
    };
    for (const m of text.matchAll(STATIC)) add(m[3]!, m[2] !== undefined);
    for (const m of text.matchAll(DYNAMIC)) add(m[1]!, false);
    g.set(f, [...seen].map(([to, typeOnly]) => ({ to, typeOnly })));
  }
  return g;
}

/** Strongly connected components with more than one module (Tarjan). */
function cycles(g: ReadonlyMap<string, readonly string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next);
    next++;
    stack.push(v);
    onStack.add(v);
    for (const w of g.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const c: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        c.push(w);
      } while (w !== v);
      if (c.length > 1) out.push(c.sort());
    }
  };
  for (const v of g.keys()) if (!index.has(v)) visit(v);
  return out;
}

const LAYER: Readonly<Record<string, number>> = { core: 0, formats: 1, amd: 2, r600: 2, adreno: 2, runtime: 3, cli: 4 };

function layerOf(f: string): { layer: number; top: string } {
  const top = f.split('/')[1]!;
  if (top === 'index.ts') return { layer: 5, top };
  const layer = LAYER[top];
  if (layer === undefined) throw new Error(`${f}: src/${top} has no layer; add it to LAYER in test/layering.test.ts`);
  return { layer, top };
}

test('src/ has no import cycle (type imports included) outside generated pairs and the allowed host edges', () => {
  const g = graph();
  const allowed = new Set(ALLOWED_TYPE_EDGES.map(([a, b]) => `${a} -> ${b}`));
  for (const [a, b] of ALLOWED_TYPE_EDGES) {
    const e = g.get(a)?.find((x) => x.to === b);
    assert.ok(e, `allowed edge ${a} -> ${b} no longer exists: drop it from ALLOWED_TYPE_EDGES`);
    assert.ok(e.typeOnly, `allowed edge ${a} -> ${b} is a value import now`);
  }
  const kept = new Map<string, string[]>();
  for (const [f, edges] of g) {
    kept.set(f, edges.filter((e) => {
      if (!e.typeOnly) return true;
      if (f.endsWith('.gen.ts') && dirname(f) === dirname(e.to) && !e.to.endsWith('.gen.ts')) return false;
      return !allowed.has(`${f} -> ${e.to}`);
    }).map((e) => e.to));
  }
  const found = cycles(kept);
  assert.deepEqual(found.map((c) => `${c.length}: ${c.join(' ')}`), []);
});

test('src/ has no value import cycle at all (what Node evaluates)', () => {
  const g = graph();
  const values = new Map([...g].map(([f, edges]) => [f, edges.filter((e) => !e.typeOnly).map((e) => e.to)]));
  assert.deepEqual(cycles(values).map((c) => c.join(' ')), []);
});

test('src/ imports only downward: core <- formats <- amd|r600|adreno <- runtime <- cli <- index.ts', () => {
  const bad: string[] = [];
  for (const [f, edges] of graph()) {
    const a = layerOf(f);
    for (const e of edges) {
      const b = layerOf(e.to);
      if (b.layer > a.layer) bad.push(`${f} -> ${e.to} (upward)`);
      else if (a.layer === 2 && b.layer === 2 && a.top !== b.top) bad.push(`${f} -> ${e.to} (another family)`);
    }
  }
  assert.deepEqual(bad, []);
});

test('the import scanner sees the imports it checks', () => {
  // A fixed point of the graph: if the pattern stopped matching, the tests above would pass vacuously.
  const g = graph();
  const bind = g.get('src/amd/engine/bind.ts');
  assert.ok(bind, 'src/amd/engine/bind.ts exists');
  assert.ok(bind.some((e) => e.to === 'src/amd/exec/salu.ts' && !e.typeOnly), 'bind.ts side-effect import of exec/salu.ts is seen');
  assert.ok(bind.some((e) => e.to === 'src/amd/engine/registry.ts'), 'bind.ts import of registry.ts is seen');
  const env = g.get('src/amd/engine/env.ts');
  assert.ok(env?.some((e) => e.to === 'src/amd/engine/types.ts' && !e.typeOnly), 'env.ts re-export of types.ts is seen');
  assert.ok([...g.values()].reduce((n, es) => n + es.length, 0) > 1000, 'the graph has its edges');
});
