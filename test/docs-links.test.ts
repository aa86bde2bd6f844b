/**
 * The front door and the docs must not point nowhere: every relative Markdown link in README.md,
 * bench/README.md and docs/*.md names a file that exists, and a `#fragment` names a heading of
 * the target (GitHub's slug of it).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** Markdown text without fenced code blocks (a link-like string in a code sample is not a link). */
function prose(md: string): string {
  return md.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '');
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

function anchors(md: string): Set<string> {
  const out = new Set<string>();
  const seen = new Map<string, number>();
  for (const m of prose(md).matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const s = slug(m[1]!);
    const n = seen.get(s) ?? 0;
    seen.set(s, n + 1);
    out.add(n === 0 ? s : `${s}-${n}`);
  }
  return out;
}

function docFiles(): string[] {
  const docs = join(ROOT, 'docs');
  const files = ['README.md', 'bench/README.md'];
  if (existsSync(docs)) for (const f of readdirSync(docs).sort()) if (f.endsWith('.md')) files.push(`docs/${f}`);
  return files;
}

test('slug follows GitHub for the heading shapes the docs use', () => {
  assert.equal(slug('PM4 command processor (`src/amd/cp/`)'), 'pm4-command-processor-srcamdcp');
  assert.equal(slug('Decoder, disassembler, assembler'), 'decoder-disassembler-assembler');
  assert.equal(slug('POPS (Primitive Ordered Pixel Shading)'), 'pops-primitive-ordered-pixel-shading');
});

test('README.md and docs/*.md: every relative link names an existing file and heading', () => {
  const files = docFiles();
  assert.ok(files.includes('docs/design.md'), 'docs/design.md is missing');
  const bad: string[] = [];
  let links = 0;
  for (const file of files) {
    const md = readFileSync(join(ROOT, file), 'utf8');
    for (const m of prose(md).matchAll(/\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
      const target = m[1]!;
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // http:, https:, mailto:
      links++;
      const [path, fragment] = target.split('#', 2) as [string, string | undefined];
      const abs = path === '' ? join(ROOT, file) : resolve(ROOT, dirname(file), decodeURIComponent(path));
      if (!abs.startsWith(ROOT + '/') && abs !== ROOT) {
        bad.push(`${file}: ${target} leaves the repository`);
        continue;
      }
      if (!existsSync(abs)) {
        bad.push(`${file}: ${target} (no ${relative(ROOT, abs)})`);
        continue;
      }
      if (fragment && statSync(abs).isFile() && abs.endsWith('.md') && !anchors(readFileSync(abs, 'utf8')).has(fragment)) {
        bad.push(`${file}: ${target} (no heading #${fragment} in ${relative(ROOT, abs)})`);
      }
    }
  }
  assert.ok(links > 0, 'no links found');
  assert.deepEqual(bad, []);
});
