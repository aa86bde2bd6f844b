/**
 * Which instructions of the RDNA3 benchmark kernels run on reference handlers under the fast
 * engine, weighted by how often they execute:
 *   node dist/bench/fast-coverage.js [case-name-substring]
 * Each case of bench/cases.ts runs once through runKernel with an `onInstruction` hook; an op
 * counts as fast when its bound handler is one of the fast engine's (fast-registry.ts `isFast`:
 * generated ALU handlers and the memory fast paths, which may still hand a given execution back
 * to the reference). Results are checked against the CPU reference as in the benchmark.
 */
import { ROOT } from '../tools/gen/run.js';
import { runKernel } from '../src/runtime/run.js';
import { isFast } from '../src/amd/engine/fast-registry.js';
import { benchCases } from './cases.js';

export interface Coverage {
  readonly name: string;
  readonly total: number;
  readonly reference: number;
  /** Reference-path executions by mnemonic, most frequent first. */
  readonly byMnemonic: readonly (readonly [string, number])[];
}

export function fastCoverage(filter?: string): Coverage[] {
  const cases = benchCases({ root: ROOT, memoryCase: false, only: (n) => n !== 'empty' && (!filter || n.includes(filter)) });
  return cases.map((c) => {
    let total = 0;
    let reference = 0;
    const by = new Map<string, number>();
    const r = runKernel(c.launch, {
      onInstruction: (_w, op) => {
        total++;
        if (isFast(op.run)) return;
        reference++;
        by.set(op.inst.mnemonic, (by.get(op.inst.mnemonic) ?? 0) + 1);
      },
    });
    const bad = c.check(r.buffers);
    if (bad !== null) throw new Error(`${c.name}: output differs from the CPU reference: ${bad}`);
    return { name: c.name, total, reference, byMnemonic: [...by].sort((a, b) => b[1] - a[1]) };
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const c of fastCoverage(process.argv[2])) {
    const pct = (n: number) => `${((100 * n) / c.total).toFixed(1)}%`;
    console.log(`${c.name}: ${c.total} wave-instructions, ${pct(c.reference)} on reference handlers`);
    for (const [m, n] of c.byMnemonic.slice(0, 12)) console.log(`  ${m.padEnd(28)} ${String(n).padStart(9)}  ${pct(n)}`);
  }
}
