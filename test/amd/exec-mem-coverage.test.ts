/**
 * Every SMEM, DS, FLAT/GLOBAL/SCRATCH, MUBUF and MTBUF mnemonic of the generated GFX11 tables has
 * semantics, except the ones listed here with the reason; and the buffer format table generated
 * from Mesa's register database names the same formats LLVM prints for MTBUF's format field.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SMEM } from '../../src/amd/isa/gfx11/smem.gen.js';
import { DS_OPS } from '../../src/amd/isa/gfx11/ds.gen.js';
import { FLAT_OPS } from '../../src/amd/isa/gfx11/flat.gen.js';
import { MUBUF_OPS } from '../../src/amd/isa/gfx11/mubuf.gen.js';
import { MTBUF_OPS, MTBUF_FORMATS } from '../../src/amd/isa/gfx11/mtbuf.gen.js';
import { BUF_FORMATS } from '../../src/amd/exec/buffer-formats.gen.js';
import { lookup } from '../../src/amd/engine/registry.js';
import '../../src/amd/engine/bind.js';

/** Memory instructions left without semantics, and why. */
const WITHOUT_SEMANTICS: Record<string, string> = {
  // Ray-tracing traversal stack (pushes up to four node pointers on a per-lane LDS stack); its
  // pointer/stack-word layout is not in the sources this model is built from, and compute
  // kernels without ray queries never use it.
  ds_bvh_stack_rtn_b32: 'BVH traversal stack layout unavailable; ray tracing only',
  // Two independent conditional 32-bit exchanges; the condition encoding is not in our sources
  // and LLVM has no intrinsic that emits it.
  ds_condxchg32_rtn_b64: 'condition encoding unavailable; never emitted by LLVM',
};

test('every GFX11 memory mnemonic has semantics except the justified list', () => {
  const names: string[] = [];
  for (const op of Object.values(SMEM)) names.push(op.mnemonic);
  for (const op of Object.values(DS_OPS)) names.push(op.mn);
  for (const seg of Object.values(FLAT_OPS)) for (const op of Object.values(seg)) names.push(op.mn);
  for (const op of Object.values(MUBUF_OPS)) names.push(op.mn);
  for (const op of Object.values(MTBUF_OPS)) names.push(op.mn);
  const missing = names.filter((n) => !lookup(n)).sort();
  assert.deepEqual(missing, Object.keys(WITHOUT_SEMANTICS).sort());
  assert.equal(names.length, 14 + 126 + 129 + 79 + 16); // SMEM, DS, FLAT/SCRATCH/GLOBAL, MUBUF, MTBUF
});

test('Mesa-derived buffer formats agree with the MTBUF format names LLVM prints', () => {
  let checked = 0;
  for (let i = 2; i < 64; i++) {
    const llvm = MTBUF_FORMATS[i]!;
    const f = BUF_FORMATS[i];
    if (!/^\[BUF_FMT_/.test(llvm)) continue;
    assert.ok(f, `format ${i} (${llvm}) missing from the generated table`);
    assert.equal(`[BUF_FMT_${f.name}]`, llvm, `format ${i}`);
    checked++;
  }
  assert.ok(checked >= 60);
  // 8_UNORM (1) is LLVM's default format and printed as nothing.
  assert.equal(BUF_FORMATS[1]!.name, '8_UNORM');
  assert.equal(BUF_FORMATS[0], undefined);
});
