// The wasm tier's translated runs declare few locals (valu.ts: each op's locals go back for the
// next op's code, FuncBuilder.scope): Liftoff's compile time and memory grew with locals times
// blocks. Its own file: the modules the tier keeps by their bytes must be made here.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchCases } from '../../bench/cases.js';
import { runKernel } from '../../src/runtime/run.js';
import { wasmTier } from '../../src/amd/engine/wasm/tier.js';
import { loadCodeObject } from '../../src/formats/amdgpu/codeobject.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

/** Locals a one-function module declares (its code section's first body). */
function declaredLocals(b: Uint8Array): number {
  let p = 8;
  const uleb = (): number => {
    let x = 0, s = 0, c = 0;
    do {
      c = b[p++]!;
      x += (c & 0x7f) * 2 ** s;
      s += 7;
    } while (c & 0x80);
    return x;
  };
  while (p < b.length) {
    const id = b[p++]!;
    const size = uleb();
    const end = p + size;
    if (id === 10) {
      uleb(); // bodies
      uleb(); // body size
      let n = 0;
      for (let runs = uleb(); runs > 0; runs--) {
        n += uleb();
        p++; // type
      }
      return n;
    }
    p = end;
  }
  return 0;
}

test('wasm tier: an op\'s locals are the next op\'s (translated runs declare few)', () => {
  // A run's f32 rows and memory accesses declared 170-680 locals before, one set per op.
  const c = benchCases({ root: ROOT, small: true, only: (n) => n === 'matmul_tiled' })[0]!;
  const made: number[] = [];
  const W = (globalThis as unknown as { WebAssembly: { Module: new (b: Uint8Array) => unknown } }).WebAssembly;
  const M = W.Module;
  W.Module = function (b: Uint8Array) {
    made.push(declaredLocals(b));
    return new M(b);
  } as unknown as typeof W.Module;
  try {
    runKernel({ ...c.launch, codeObject: loadCodeObject(c.launch.codeObject as Uint8Array, 'k') }, { engine: 'fast' });
  } finally {
    W.Module = M;
  }
  if (!wasmTier.on) return;
  assert.ok(made.length > 0, 'modules were made');
  made.sort((a, b) => a - b);
  assert.ok(made[made.length >> 1]! < 100, `locals per translated run: ${made.join(' ')}`);
});
