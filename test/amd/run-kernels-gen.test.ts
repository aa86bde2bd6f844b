/**
 * The kernel suite on GFX10.3 (gfx1030) and GFX9 (gfx900): every kernels/manifests/*.json with its
 * code object swapped for the clang-19 build of that target (kernels/bin/<cpu>/, wave32 `.co` and
 * wave64 `.w64.co` on gfx1030; gfx900 is wave64 only, its `.co`), run through runManifest under
 * round-robin and seeded random scheduling, against the same CPU references as gfx1100
 * (test/amd/kernels/references.ts), with no diagnostic at all.
 *
 * A run may only stop short for a reason listed here, per target:
 * - NOT_DECODED: an encoding class the target's decoder does not have yet (the instruction tables
 *   for these targets are landing class by class); the run must stop at exactly such a word;
 * - XFAIL: a kernel whose manifest needs something this target cannot take, with the reason.
 * Every other kernel must match its reference. A kernel listed but passing is reported (shrink the list).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { references } from './kernels/references.js';
import { manifestNames, loadSuiteManifest, inputsOf, checkOutput, unimplementedMnemonics } from './kernels/suite.js';
import { runManifest, type Order } from '../../src/runtime/run.js';
import type { Manifest } from '../../src/runtime/manifest.js';

interface GenVariant {
  readonly cpu: 'gfx1030' | 'gfx900';
  readonly waveSize: 32 | 64;
  readonly order: Order;
  readonly seed: number;
}

const VARIANTS: readonly GenVariant[] = [
  { cpu: 'gfx1030', waveSize: 32, order: 'roundrobin', seed: 1 },
  { cpu: 'gfx1030', waveSize: 64, order: 'random', seed: 11 },
  { cpu: 'gfx900', waveSize: 64, order: 'roundrobin', seed: 1 },
  { cpu: 'gfx900', waveSize: 64, order: 'random', seed: 7 },
];

/**
 * Encoding classes not decoded yet, by the first dword's top bits (GFX9/GFX10 layouts): FLAT/GLOBAL/
 * SCRATCH 0b110111, MUBUF 0b111000; VOP3P 0b110011 (GFX10), [31:23] = 0x1a7 (GFX9);; gfx900's SMEM table lacks s_memrealtime (opcode 37).
 */
const NOT_DECODED: Readonly<Record<string, readonly { readonly what: string; readonly match: (word: number, why: string) => boolean }[]>> = {
  gfx1030: [
    { what: 'FLAT/GLOBAL/SCRATCH', match: (w, why) => w >>> 26 === 0x37 && why.includes('no encoding class') },
    { what: 'MUBUF', match: (w, why) => w >>> 26 === 0x38 && why.includes('no encoding class') },
    { what: 'VOP3P', match: (w, why) => w >>> 26 === 0x33 && why.includes('no encoding class') },
  ],
  gfx900: [
    { what: 'VOP3P', match: (w, why) => w >>> 23 === 0x1a7 && why.includes('has no plain form') },
    { what: 'FLAT/GLOBAL/SCRATCH', match: (w, why) => w >>> 26 === 0x37 && why.includes('no encoding class') },
    { what: 'MUBUF', match: (w, why) => w >>> 26 === 0x38 && why.includes('no encoding class') },
    { what: 's_memrealtime', match: (_w, why) => why.includes('unknown SMEM opcode 37') },
  ],
};

/** Kernels a target cannot run as the manifest stands, with why. */
const XFAIL: Readonly<Record<string, Readonly<Record<string, string>>>> = { gfx1030: {}, gfx900: {} };

function manifestFor(name: string, v: GenVariant): Manifest {
  const m = loadSuiteManifest(name, v.cpu === 'gfx900' ? 32 : v.waveSize);
  const th = m.trapHandler;
  // A trap handler in GFX11 assembly has a per-target twin beside it (trap_handler.<cpu>.s).
  const thPath = th && th.kind === 'asm' ? th.path.replace(/\.s$/, `.${v.cpu}.s`) : undefined;
  return {
    ...m, codeObject: m.codeObject.replace('/gfx1100/', `/${v.cpu}/`),
    ...(th && thPath && existsSync(thPath) ? { trapHandler: { ...th, path: thPath } } : {}),
  };
}

/** Why a run stopped at an undecoded word, if it did: the class named in NOT_DECODED. */
function undecoded(cpu: string, messages: readonly string[]): string | null {
  for (const msg of messages) {
    const m = /: (0x[0-9a-f]+)[^(]*\((.*)\)/.exec(msg);
    if (!m) continue;
    const hit = NOT_DECODED[cpu]!.find((c) => c.match(Number(m[1]) >>> 0, m[2]!));
    if (hit) return hit.what;
  }
  return null;
}

const names = manifestNames();

test('fixtures: every manifest has its gfx1030 (wave32, wave64) and gfx900 builds', () => {
  for (const n of names) {
    for (const v of VARIANTS) {
      const m = manifestFor(n, v);
      assert.ok(existsSync(m.codeObject), `${n}: ${m.codeObject} missing (kernels/build.sh ${n})`);
    }
  }
});

for (const name of names) {
  test(`kernel ${name} on gfx1030 and gfx900`, (t) => {
    const stops: string[] = [];
    for (const v of VARIANTS) {
      const label = `${v.cpu} wave${v.waveSize} ${v.order} seed ${v.seed}`;
      const xfail = XFAIL[v.cpu]?.[name];
      const m = manifestFor(name, v);
      let r;
      try {
        r = runManifest(m, { order: v.order, seed: v.seed, maxInstructions: 20_000_000 });
      } catch (e) {
        const msg = (e as Error).message;
        if (/trapHandler\.asm: .*unknown instruction '(global|flat|scratch)_/.test(msg)) {
          // The handler's GLOBAL instruction is not in this target's tables yet (assembler side of NOT_DECODED).
          stops.push(`${label}: trap handler not assembled (FLAT/GLOBAL/SCRATCH not decoded yet)`);
          continue;
        }
        assert.ok(xfail, `${name} ${label}: ${msg}`);
        stops.push(`${label}: expected failure (${xfail})`);
        continue;
      }
      const illegal = r.report.diagnostics.filter((d) => d.id === 'gfx11.illegal-instruction').map((d) => d.message);
      const cls = undecoded(v.cpu, illegal);
      if (cls !== null) {
        // Stopped at a class not decoded yet: nothing else may have gone wrong before it.
        const other = r.report.diagnostics.filter((d) => d.id !== 'gfx11.illegal-instruction' && d.id !== 'gfx11.barrier.deadlock');
        assert.deepEqual(other.map((d) => `${d.id}: ${d.message}`), [], `${name} ${label}: diagnostics besides the undecoded ${cls}`);
        stops.push(`${label}: stops at ${cls} (not decoded yet)`);
        continue;
      }
      const missing = unimplementedMnemonics(r);
      assert.deepEqual(missing, [], `${name} ${label}: stopped at unimplemented ${missing.join(', ')}`);
      assert.deepEqual(r.report.diagnostics.map((d) => `${d.id} @${JSON.stringify(d.where)}: ${d.message}`), [], `${name} ${label}: diagnostics on a clean kernel`);
      assert.equal(r.report.aborted, false, `${name} ${label}: run aborted`);
      const want = references[name]!(inputsOf(m), v.waveSize, v.cpu);
      for (const [buf, e] of Object.entries(want)) {
        const problem = checkOutput(buf, r.buffers[buf]!, e);
        assert.equal(problem, null, `${name} ${label}: ${problem}`);
      }
      if (xfail) t.diagnostic(`${label}: passes although XFAIL lists it: shrink the list`);
    }
    for (const s of stops) t.diagnostic(s);
  });
}
