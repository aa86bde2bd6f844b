/**
 * Decode speed: GFX11 instructions decoded per second over a corpus of every golden case LLVM
 * gave us (all encoding classes, all opcodes), and decode+print (disassembly) per second.
 */
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../tools/gen/run.js';
import { parseGolden } from '../tools/gen/golden.js';
import { decodeAt, printInst } from '../src/amd/isa/target.js';
import { gfx11 } from '../src/amd/isa/gfx11/index.js';
import type { BenchResult } from './main.js';

export function benchDecode(): BenchResult[] {
  const dir = join(ROOT, 'test/golden/amd/gfx1100');
  const words: number[] = [];
  const starts: number[] = [];
  if (existsSync(dir)) {
    for (const f of readdirSync(dir).filter((x) => x.endsWith('.tsv')).sort()) {
      for (const c of parseGolden(readFileSync(join(dir, f), 'utf8'))) {
        if (c.text === null) continue;
        try {
          decodeAt(gfx11, c.words, 0);
        } catch {
          continue; // not decodable yet: leave it out of the speed corpus
        }
        starts.push(words.length);
        words.push(...c.words);
      }
    }
  }
  if (starts.length === 0) return [{ name: 'decode gfx1100', figures: { note: 'no decodable golden corpus' } }];
  const code = Uint32Array.from(words);
  const n = starts.length;
  const time = (fn: () => void, minMs = 400): { reps: number; ms: number } => {
    let reps = 0;
    const t0 = performance.now();
    let ms = 0;
    while (ms < minMs) {
      fn();
      reps++;
      ms = performance.now() - t0;
    }
    return { reps, ms };
  };
  let sink = 0;
  const d = time(() => {
    for (let i = 0; i < n; i++) sink += decodeAt(gfx11, code, starts[i]!).size;
  });
  const p = time(() => {
    for (let i = 0; i < n; i++) sink += printInst(gfx11, decodeAt(gfx11, code, starts[i]!)).length;
  });
  if (sink === 42) console.log('');
  return [
    { name: 'decode gfx1100', figures: { corpus: n, 'instr/s': (n * d.reps) / (d.ms / 1000) } },
    { name: 'disasm gfx1100', figures: { corpus: n, 'instr/s': (n * p.reps) / (p.ms / 1000) } },
  ];
}
