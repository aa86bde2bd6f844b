/**
 * The kernel suite: every manifest in kernels/manifests, run through runManifest (the path
 * `gpusim run` takes) for wave32 (.co) and wave64 (.w64.co) builds, round-robin and seeded random
 * scheduling, and compared with the CPU reference (references.ts).
 */
import { readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadManifest, bufferContents, readElem, ulpDistance, ELEM, type Manifest } from '../../../src/runtime/manifest.js';
import { runManifest, type ManifestRun, type Order } from '../../../src/runtime/run.js';
import type { Expected } from './references.js';

/** Repository root (dist/test/amd/kernels -> four levels up; the same from test/amd/kernels via ts sources). */
export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../../..');
export const MANIFEST_DIR = join(ROOT, 'kernels/manifests');

export function manifestNames(): string[] {
  return readdirSync(MANIFEST_DIR).filter((f) => f.endsWith('.json')).map((f) => f.slice(0, -5)).sort();
}

export interface Variant {
  readonly waveSize: 32 | 64;
  readonly order: Order;
  readonly seed: number;
}

export const VARIANTS: readonly Variant[] = [
  { waveSize: 32, order: 'roundrobin', seed: 1 },
  { waveSize: 32, order: 'random', seed: 7 },
  { waveSize: 64, order: 'roundrobin', seed: 1 },
  { waveSize: 64, order: 'random', seed: 11 },
];

export function loadSuiteManifest(name: string, waveSize: 32 | 64): Manifest {
  const m = loadManifest(join(MANIFEST_DIR, `${name}.json`));
  if (waveSize === 32) return m;
  return { ...m, codeObject: m.codeObject.replace(/\.co$/, '.w64.co') };
}

export function inputsOf(m: Manifest): Record<string, Uint8Array> {
  return Object.fromEntries(m.buffers.map((b) => [b.name, bufferContents(b)]));
}

export function runVariant(name: string, v: Variant, maxInstructions = 20_000_000): ManifestRun {
  return runManifest(loadSuiteManifest(name, v.waveSize), { order: v.order, seed: v.seed, maxInstructions });
}

/** Compare one output with its expectation; returns a one-line description of the first differences, or null. */
export function checkOutput(name: string, got: Uint8Array, e: Expected): string | null {
  const size = ELEM[e.type].bytes;
  if (got.length !== e.data.length) return `${name}: ${got.length} bytes, expected ${e.data.length}`;
  let g = got;
  let w = e.data;
  if (e.unordered) {
    g = sortedElems(got, size);
    w = sortedElems(e.data, size);
  }
  const dg = new DataView(g.buffer, g.byteOffset, g.length);
  const dw = new DataView(w.buffer, w.byteOffset, w.length);
  const isFloat = ELEM[e.type].kind === 'float';
  const bad: string[] = [];
  let count = 0;
  for (let i = 0; i < g.length / size; i++) {
    const at = i * size;
    let ok: boolean;
    let note = '';
    if (isFloat) {
      const ulp = e.ulp ? e.ulp[i % e.ulp.length]! : 0;
      const abs = e.abs ? e.abs[i % e.abs.length]! : 0;
      const d = ulpDistance(e.type, dg, dw, at);
      const a = readElem(dg, at, e.type);
      const b = readElem(dw, at, e.type);
      ok = d <= ulp || (abs > 0 && Math.abs(a - b) <= abs);
      note = ` (${d} ulp, bound ${ulp})`;
    } else {
      ok = true;
      for (let k = 0; k < size; k++) if (g[at + k] !== w[at + k]) ok = false;
    }
    if (!ok) {
      count++;
      if (bad.length < 4) bad.push(`[${i}] got ${readElem(dg, at, e.type)} want ${readElem(dw, at, e.type)}${note}`);
    }
  }
  return count === 0 ? null : `${name}: ${count} of ${g.length / size} elements differ: ${bad.join('; ')}`;
}

function sortedElems(b: Uint8Array, size: number): Uint8Array {
  const n = b.length / size;
  const idx = Array.from({ length: n }, (_, i) => i);
  const key = (i: number) => {
    let s = '';
    for (let k = size - 1; k >= 0; k--) s += b[i * size + k]!.toString(16).padStart(2, '0');
    return s;
  };
  idx.sort((x, y) => (key(x) < key(y) ? -1 : key(x) > key(y) ? 1 : 0));
  const out = new Uint8Array(b.length);
  idx.forEach((src, i) => out.set(b.subarray(src * size, src * size + size), i * size));
  return out;
}

/** The mnemonic an `gpusim.unimplemented` diagnostic names. */
export function unimplementedMnemonics(r: ManifestRun): string[] {
  return [...new Set(r.report.diagnostics.filter((d) => d.id === 'gpusim.unimplemented').map((d) => d.message.split(' ')[0]!))].sort();
}
