/**
 * Which GFX11 opcodes the kernel suite executes, per encoding class: runs every manifest of
 * kernels/manifests as its wave32 and wave64 build with tracing and groups the executed
 * mnemonics by the encoding they were decoded from (VOP3, VOPD, DS, ...). Prints a Markdown
 * table (or JSON with --json).
 *
 *   npx tsc -p . && node dist/tools/kernels/coverage.js [--json]
 */
import { readFileSync } from 'node:fs';
import { loadCodeObject } from '../../src/formats/amdgpu/codeobject.js';
import { listCodeObject } from '../../src/amd/isa/listing.js';
import { gfx11 } from '../../src/amd/isa/gfx11/index.js';
import { runManifest } from '../../src/runtime/run.js';
import { loadSuiteManifest, manifestNames } from '../../test/amd/kernels/suite.js';

const byEncoding = new Map<string, Map<string, Set<string>>>();
const encodingOf = new Map<string, string>();
for (const name of manifestNames()) {
  for (const ws of [32, 64] as const) {
    const m = loadSuiteManifest(name, ws);
    const co = loadCodeObject(new Uint8Array(readFileSync(m.codeObject)), m.codeObject);
    for (const b of listCodeObject(gfx11, co)) for (const l of b.lines) if (l.inst) encodingOf.set(l.inst.mnemonic, l.inst.encoding);
    const seen = new Set<string>();
    runManifest(m, { trace: (line) => void seen.add(line.split(' ')[4]!) });
    for (const mn of seen) {
      const enc = encodingOf.get(mn) ?? 'trap handler (assembled)';
      let e = byEncoding.get(enc);
      if (!e) byEncoding.set(enc, (e = new Map()));
      let k = e.get(mn);
      if (!k) e.set(mn, (k = new Set()));
      k.add(name);
    }
  }
}
const rows = [...byEncoding.entries()].sort((a, b) => b[1].size - a[1].size);
if (process.argv.includes('--json')) {
  console.log(JSON.stringify(Object.fromEntries(rows.map(([e, ms]) => [e, Object.fromEntries([...ms.entries()].sort().map(([m, ks]) => [m, [...ks].sort()]))])), null, 1));
} else {
  console.log('| encoding | opcodes executed | mnemonics |\n|---|---|---|');
  for (const [e, ms] of rows) console.log(`| ${e} | ${ms.size} | ${[...ms.keys()].sort().join(' ')} |`);
  console.log(`\n${rows.reduce((n, [, ms]) => n + ms.size, 0)} distinct opcodes executed by ${manifestNames().length} manifests (wave32 + wave64).`);
}
