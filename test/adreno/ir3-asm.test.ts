/**
 * ir3 assembler: asm(disasm(bin)) == bin for every corpus binary (with its nop padding),
 * labels by any name, raw words, errors as InputError, and the `gpusim adreno ir3` commands.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { assembleIr3 } from '../../src/adreno/ir3/asm.js';
import { disasmIr3 } from '../../src/adreno/ir3/disasm.js';
import { InputError } from '../../src/core/errors.js';
import { CORPUS, corpus } from './ir3-corpus.js';

test('ir3 corpus: asm(disasm(bin)) == bin, bit for bit, for every binary', (t) => {
  if (!existsSync(CORPUS)) return t.skip('../shared/ir3-corpus is absent');
  const bad: string[] = [];
  let n = 0;
  for (const c of corpus()) {
    const text = disasmIr3(c.bin, { gpuId: c.gpuId }).join('\n');
    const back = assembleIr3(text, { gpuId: c.gpuId }, c.name);
    n += c.bin.length / 2;
    const diff = c.bin.findIndex((w, i) => back[i] !== w);
    if (back.length !== c.bin.length || diff >= 0) bad.push(`${c.name}: first difference at dword ${diff}`);
  }
  assert.deepEqual(bad, []);
  t.diagnostic(`${n} instructions round-tripped`);
});

test('labels by any name, relative branches, raw words', () => {
  const src = ['start:', 'nop', 'br !p0.x, #done', 'jump #start', '(jp)end', 'done:', 'raw 0x07800000', 'no match: 0780000000000001'].join('\n');
  const w = assembleIr3(src, { gpuId: 630 });
  assert.equal(w.length, 12);
  assert.deepEqual(disasmIr3(w.subarray(0, 10), { gpuId: 630 }), ['l0:', 'nop', 'br !p0.x, #l4', 'jump #l0', '(jp)end', 'l4:', 'raw 0x07800000']);
  assert.deepEqual([...w.subarray(8)], [0, 0x07800000, 1, 0x07800000]);
});

test('the compiler listing itself assembles (header and comment lines skipped)', (t) => {
  if (!existsSync(CORPUS)) return t.skip('../shared/ir3-corpus is absent');
  const txt = readFileSync(join(CORPUS, 'out', 'ids_3d.a630.ir3.txt'), 'utf8');
  const w = assembleIr3(txt, { gpuId: 630 });
  const bin = new Uint8Array(readFileSync(join(CORPUS, 'bin', 'ids_3d.a630.bin')));
  assert.deepEqual(new Uint8Array(w.buffer), bin.subarray(0, w.length * 4));
});

test('bad assembly is an InputError naming the line', () => {
  assert.throws(() => assembleIr3('nop\nfrobnicate r0.x', { gpuId: 630 }), (e: unknown) => e instanceof InputError && /line 2/.test((e as Error).message));
  assert.throws(() => assembleIr3('a:\na:\nnop', { gpuId: 630 }), InputError);
  // a7xx-only instructions do not exist on a6xx.
  assert.throws(() => assembleIr3('lock', { gpuId: 630 }), InputError);
  assert.equal(assembleIr3('lock', { gpuId: 730 }).length, 2);
});

test('gpusim adreno ir3 disasm / asm, and bad input exits 2', async () => {
  const { main } = await import('../../src/cli/main.js');
  const dir = mkdtempSync(join(tmpdir(), 'gpusim-ir3-'));
  let so = '';
  let se = '';
  const io = { stdout: (s: string) => void (so += s), stderr: (s: string) => void (se += s), isTTY: false };
  const src = join(dir, 'a.s');
  writeFileSync(src, 'mov.f32f32 r0.x, c0.x\n(rpt2)nop\nend\n');
  const bin = join(dir, 'a.bin');
  assert.equal(await main(['adreno', 'ir3', 'asm', src, '--gpu', 'a630', '-o', bin], io), 0);
  so = '';
  assert.equal(await main(['adreno', 'ir3', 'disasm', bin, '--gpu', 'a630'], io), 0);
  assert.equal(so, 'mov.f32f32 r0.x, c0.x\n(rpt2)nop\nend\n');
  so = '';
  assert.equal(await main(['adreno', 'ir3', 'disasm', bin, '--gpu', '630', '--verbose', '--stats'], io), 0);
  assert.match(so, /^:1:0000:0000\[20244000x_00000000x\] mov\.f32f32 r0\.x, c0\.x\n/);
  assert.match(so, /- shaderdb: 5 instr, 3 nops, 2 non-nops, 1 mov, 0 cov/);
  assert.equal(await main(['adreno', 'ir3', 'disasm', bin], io), 2);
  assert.equal(await main(['adreno', 'ir3', 'disasm', bin, '--gpu', 'a999'], io), 2);
  const odd = join(dir, 'odd.bin');
  writeFileSync(odd, new Uint8Array(12));
  assert.equal(await main(['adreno', 'ir3', 'disasm', odd, '--gpu', 'a630'], io), 2);
  writeFileSync(src, 'mov.f32f32 r0.x\n');
  assert.equal(await main(['adreno', 'ir3', 'asm', src, '--gpu', 'a630', '-o', bin], io), 2);
  assert.match(se, /line 1: cannot assemble/);
  so = '';
  assert.equal(await main(['adreno', '--help'], io), 0);
  assert.match(so, /ir3 disasm <code\.bin> --gpu/);
});

test('fuzz: random decodable words survive disasm -> asm -> disasm (a630, a730)', () => {
  let seed = 0x2468ace;
  const rnd = (): number => {
    seed ^= seed << 13;
    seed ^= seed >>> 17;
    seed ^= seed << 5;
    return seed >>> 0;
  };
  const fails: string[] = [];
  for (const gpuId of [630, 730]) {
    let tried = 0;
    while (tried < 25) {
      const w = [rnd(), rnd()];
      const [text] = disasmIr3(w, { gpuId });
      // Skip words Mesa itself reports as odd (don't-care bits, asserts) or cannot decode.
      if (!text || text.includes('\t;') || text.startsWith('raw ')) continue;
      tried++;
      let again = '';
      try {
        again = disasmIr3(assembleIr3(text, { gpuId }), { gpuId })[0] ?? '';
      } catch (e) {
        again = String(e);
      }
      if (again !== text) fails.push(`${gpuId}: ${text} -> ${again}`);
    }
  }
  assert.deepEqual(fails, []);
});
