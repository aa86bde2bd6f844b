/** Paths and loaders for the committed kernel fixtures (kernels/bin), shared by the format tests. */
import { mulberry32 } from '../../src/core/prng.js';
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Repository root (tests run from dist/test/formats). */
export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
export const KERNELS_BIN = join(ROOT, 'kernels', 'bin');
export const CPUS = ['gfx1100', 'gfx1030', 'gfx900'] as const;

export interface Fixture {
  readonly cpu: string;
  readonly file: string;
  readonly path: string;
}

/** Every committed code object and relocatable object. */
export function allFixtures(): Fixture[] {
  const out: Fixture[] = [];
  for (const cpu of CPUS) {
    const d = join(KERNELS_BIN, cpu);
    for (const f of readdirSync(d).sort()) {
      if (f.endsWith('.co') || f.endsWith('.o')) out.push({ cpu, file: f, path: join(d, f) });
    }
  }
  return out;
}

export function fixtureBytes(cpu: string, file: string): Uint8Array {
  return new Uint8Array(readFileSync(join(KERNELS_BIN, cpu, file)));
}

/** The LLVM facts recorded next to a fixture by kernels/facts.py. */
export interface Facts {
  cpu: string;
  codeObjectVersion: number | null;
  target: string | null;
  header: { class: number; osabi: number; abiVersion: number; type: number; machine: number; flags: number; phnum: number; shnum: number; shstrndx: number };
  sections: { name: string; type: number; flags: number; addr: number; offset: number; size: number }[];
  symtab: FactSymbol[];
  dynsym: FactSymbol[];
  notes: { owner: string; descsz: number; type: string }[];
  metadata: Record<string, unknown> | null;
  amdhsa: Record<string, Record<string, number>>;
}
export interface FactSymbol { name: string; value: number; size: number; binding: number; type: number; shndx: number }

export function facts(f: Fixture): Facts {
  return JSON.parse(readFileSync(f.path + '.facts.json', 'utf8')) as Facts;
}

/** Deterministic PRNG (mulberry32, src/core/prng.ts) for fuzzing. */
export const rng: (seed: number) => () => number = mulberry32;
