/**
 * Run every generator: each module in tools/gen/amd/ (and later r600/, adreno/) that exports
 * `generate(): Promise<Record<string, string>> | Record<string, string>` returns files (paths relative to
 * the repository root) and their contents. `--check` compares instead of writing and exits 1 on a difference.
 *
 *   node dist/tools/gen/run.js [--check] [name-filter]
 */
import { readdirSync, readFileSync, writeFileSync, mkdirSync, existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

export interface Generator {
  generate(): Promise<Record<string, string>> | Record<string, string>;
}

/** All generator modules (compiled .js paths), by name. */
export function generatorModules(): { name: string; path: string }[] {
  const here = dirname(fileURLToPath(import.meta.url));
  const out: { name: string; path: string }[] = [];
  for (const sub of ['amd', 'r600', 'adreno', '.']) {
    const d = join(here, sub);
    if (!existsSync(d)) continue;
    for (const f of readdirSync(d).sort()) {
      if (!f.startsWith('gen-') || !f.endsWith('.js')) continue;
      out.push({ name: `${sub === '.' ? '' : sub + '/'}${f.slice(4, -3)}`, path: join(d, f) });
    }
  }
  return out;
}

export async function runGenerator(path: string): Promise<Record<string, string>> {
  const mod = (await import(pathToFileURL(path).href)) as Generator;
  return await mod.generate();
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const check = args.includes('--check');
  const filter = args.find((a) => !a.startsWith('--'));
  let diffs = 0;
  for (const g of generatorModules()) {
    if (filter && !g.name.includes(filter)) continue;
    const t0 = Date.now();
    const files = await runGenerator(g.path);
    for (const [rel, content] of Object.entries(files)) {
      const p = join(ROOT, rel);
      const old = existsSync(p) ? readFileSync(p, 'utf8') : null;
      if (old === content) continue;
      if (check) {
        diffs++;
        console.log(`differs: ${rel}`);
      } else {
        mkdirSync(dirname(p), { recursive: true });
        writeFileSync(p, content);
        console.log(`wrote ${rel}`);
      }
    }
    console.log(`${g.name}: ${Object.keys(files).length} files in ${Date.now() - t0} ms`);
  }
  if (diffs) process.exitCode = 1;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
