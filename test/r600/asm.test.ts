/**
 * The r600 assembler turns clang-19's own .s back into the bytes of its .o for every fixture,
 * and re-assembles gpusim's disassembly to the same words.
 *
 * One difference is inherent in LLVM's text and allowed here: Cayman `STORE_DWORD Tn` prints the
 * same for COMP_MASK 3 and 15 (gpusim assembles 15 unless the line says MASK:3).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { assembleBody, assembleListing } from '../../src/r600/isa/asm.js';
import { disassembleKernel, loadR600Object } from '../../src/r600/isa/object.js';
import { fixtures } from './disasm.test.js';

/** Mask the COMP_MASK bits of Cayman STORE_DWORD (CF_INST 0x57, RAT_INST 20) words. */
function normalize(words: Uint32Array, gen: string, cfEnd: number): number[] {
  const out = [...words];
  if (gen !== 'cayman') return out;
  for (let i = 0; i < cfEnd; i++) {
    const w0 = out[2 * i]!;
    const w1 = out[2 * i + 1]!;
    if (((w1 >>> 22) & 0xff) === 0x57 && ((w0 >>> 4) & 0x3f) === 20) {
      const m = (w1 >>> 12) & 15;
      if (m === 3 || m === 15) out[2 * i + 1] = (w1 & ~(15 << 12)) >>> 0;
    }
  }
  return out;
}

for (const fx of fixtures()) {
  test(`assembling clang's ${fx.mcpu}/${fx.name}.s gives the .o bytes`, () => {
    const o = loadR600Object(readFileSync(fx.obj), fx.obj);
    const asm = assembleListing(o.gen, readFileSync(fx.s, 'utf8'), fx.s);
    for (const k of o.kernels) {
      const a = asm.get(k.name);
      assert.ok(a, k.name);
      const n = k.program.size >>> 2;
      const ref = new Uint32Array(n);
      const dv = new DataView(o.text.buffer, o.text.byteOffset + k.offset, n * 4);
      for (let i = 0; i < n; i++) ref[i] = dv.getUint32(i * 4, true);
      assert.equal(a.words.length, n, 'program length');
      assert.deepEqual(normalize(a.words, o.gen, k.program.cfEnd), normalize(ref, o.gen, k.program.cfEnd));
      // Relocated literals name the same symbols the object's relocations do.
      assert.deepEqual([...a.relocs].sort(), [...k.relocs].sort());
      // And gpusim's own disassembly assembles to the same words.
      const b = assembleBody(o.gen, disassembleKernel(k), k.name);
      assert.deepEqual(normalize(b.words, o.gen, k.program.cfEnd), normalize(ref, o.gen, k.program.cfEnd));
    }
  });
}

test('assembler errors are one-line InputErrors naming the line', () => {
  assert.throws(() => assembleBody('evergreen', ['\tFOO 1, @2'], 't'), /t:1: unknown CF instruction FOO/);
  assert.throws(() => assembleBody('evergreen', ['\tALU 0, @2, KC0[], KC1[]', '\tCF_END', '\tALU clause starting at 2:', '\t  MOV * T200.X, T0.X,  '], 't'), /out of range/);
  assert.throws(() => assembleBody('evergreen', ['\tALU 0, @2, KC0[], KC1[]', '\tCF_END', '\tALU clause starting at 2:', '\t  BOGUS * T0.X, T0.X,  '], 't'), /unknown ALU instruction BOGUS/);
});
