/**
 * The R600 OpenCL corpus (tools/r600/corpus.ts) through `gpusim run`: clang-19's objects checked
 * against CPU-computed results. The objects committed under kernels/r600/corpus/ (written by
 * `node dist/tools/r600/corpus.js --targets cypress,cayman --write-objects kernels/r600/corpus`)
 * always run; with clang-19 and libclc-19 installed the corpus is compiled afresh for cypress,
 * redwood, cayman and barts and run too (skipped otherwise).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from '../../tools/gen/run.js';
import { CORPUS, CORPUS_TARGETS, compileCorpus, corpusLines, haveCompiler, runCorpus } from '../../tools/r600/corpus.js';
import { runR600Kernel } from '../../src/runtime/r600.js';
import { mulberry32 } from '../../src/core/prng.js';

const committed = (mcpu: string): string => join(ROOT, 'kernels/r600/corpus', `${mcpu}.o`);

for (const mcpu of ['cypress', 'cayman']) {
  test(`${mcpu}: the committed corpus object passes every kernel through gpusim run`, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gpusim-r600-corpus-'));
    try {
      const rs = await runCorpus(committed(mcpu), dir);
      assert.equal(rs.length, CORPUS.length);
      assert.ok(rs.every((r) => r.ok), corpusLines(mcpu, rs).join('\n'));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
}

for (const mcpu of CORPUS_TARGETS) {
  test(`${mcpu}: the corpus compiled now by clang-19 passes through gpusim run`, { skip: haveCompiler(mcpu) ? false : `no clang-19 / libclc-19 r600 bitcode for ${mcpu}` }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gpusim-r600-corpus-'));
    try {
      const obj = join(dir, 'corpus.o');
      compileCorpus(mcpu, obj);
      const rs = await runCorpus(obj, dir);
      assert.ok(rs.every((r) => r.ok), corpusLines(mcpu, rs).join('\n'));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
}

const u8 = (a: { buffer: ArrayBufferLike; byteOffset: number; byteLength: number }): Uint8Array => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);

test('RAT atomics: clang-19 hands them byte addresses; read as dword indices they miss (the default is byte addresses)', () => {
  const object = new Uint8Array(readFileSync(committed('cypress')));
  const inp = Int32Array.from({ length: 64 }, (_, i) => i * 37 - 1000);
  const run = (atomicByteAddress?: boolean) => runR600Kernel({
    object, kernel: 'atomics', grid: [64, 1, 1], block: [64, 1, 1],
    buffers: [{ name: 'hist', type: 'i32', data: new Uint8Array(96) }, { name: 'mm', type: 'i32', data: new Uint8Array(16) }, { name: 'in', type: 'i32', data: u8(inp) }],
    args: [{ kind: 'buffer', name: 'hist' }, { kind: 'buffer', name: 'mm' }, { kind: 'buffer', name: 'in' }],
  }, atomicByteAddress === undefined ? {} : { atomicByteAddress });
  const hist = (r: ReturnType<typeof run>) => Array.from(new Int32Array(r.buffers.hist!.slice().buffer)).slice(0, 16);
  const want = new Array<number>(16).fill(0);
  for (const v of inp) want[v & 15]!++;
  assert.deepEqual(hist(run()), want);
  assert.deepEqual(run().diagnostics, []);
  const dword = run(false);
  assert.notDeepEqual(hist(dword), want);
  assert.ok(dword.diagnostics.some((d) => d.id === 'r600.mem.out-of-range'));
});

test('implicit arguments: work_dim defaults to the highest grid axis above 1, the global offset to 0', () => {
  const object = new Uint8Array(readFileSync(committed('cayman')));
  for (const [grid, dim] of [[[16, 1, 1], 1], [[16, 8, 1], 2], [[8, 2, 2], 3]] as const) {
    const r = runR600Kernel({
      object, kernel: 'work_dims', grid, block: [8, 1, 1], buffers: [{ name: 'out', type: 'u32', data: new Uint8Array(4 * 6 * 64) }], args: [{ kind: 'buffer', name: 'out' }],
    });
    const o = new Uint32Array(r.buffers.out!.slice().buffer);
    assert.deepEqual([o[0], o[1], o[2], o[6 + 3]], [dim, 0, 0, 1], `grid ${grid}`);
  }
});

/** LLVM 19's r600 sint_to_fp i64 -> f32: leading zeros of |x|'s high word, then x itself normalised (the compiled code). */
function llvm19SignedToFloat(x: bigint): number {
  const lo = Number(BigInt.asUintN(32, x)), hi = Number(BigInt.asUintN(32, x >> 32n));
  const sign = (hi | 0) >> 31;
  const carry = lo + (sign >>> 0) > 0xffffffff ? 1 : 0;
  const hiAbs = ((hi + sign + carry) ^ sign) >>> 0;
  const sh = hiAbs === 0 ? 32 : Math.clz32(hiAbs);
  const norm = BigInt.asUintN(64, BigInt.asUintN(64, x) << BigInt(sh));
  const v = (Number(norm >> 32n) | Math.min(Number(BigInt.asUintN(32, norm)), 1)) >>> 0;
  const f = new Float32Array([v]);
  const b = new Uint32Array(f.buffer);
  b[0] = ((b[0]! + ((32 - sh) << 23)) | (hi & 0x80000000)) >>> 0;
  return f[0]!;
}

test('(float)long on clang-19 r600: gpusim gives the compiled bits, which differ from C for negative values (an LLVM 19 defect)', () => {
  const r = mulberry32(11);
  const xs = BigInt64Array.from({ length: 64 }, (_, i) => BigInt.asIntN(64, (BigInt(Math.floor(r() * 2 ** 31)) << BigInt(i % 33)) * (i % 2 ? -1n : 1n)));
  for (const mcpu of ['cypress', 'cayman']) {
    const run = runR600Kernel({
      object: new Uint8Array(readFileSync(committed(mcpu))), kernel: 'int64_to_float_signed', grid: [64, 1, 1], block: [64, 1, 1],
      buffers: [{ name: 'out', type: 'f32', data: new Uint8Array(256) }, { name: 'in', type: 'i64', data: u8(xs) }],
      args: [{ kind: 'buffer', name: 'out' }, { kind: 'buffer', name: 'in' }],
    });
    const got = Array.from(new Float32Array(run.buffers.out!.slice().buffer));
    assert.deepEqual(got, Array.from(xs, llvm19SignedToFloat), mcpu);
    // Non-negative values convert as C says; negative ones do not.
    xs.forEach((x, i) => { if (x >= 0n) assert.equal(got[i], Math.fround(Number(x))); });
    assert.ok(xs.some((x, i) => x < 0n && got[i] !== Math.fround(Number(x))));
  }
});
