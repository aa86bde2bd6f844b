/** Primitive assembly: lists, strips, fans, rects, restart and the provoking vertex. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { assemble, defaultRestartIndex } from '../../src/amd/gfx/primitive-assembly.js';
import { DI_PT } from '../../src/amd/gfx/pa-regs.gen.js';
import { Diagnostics } from '../../src/core/diagnostics.js';

const verts = (ps: { v: readonly number[] }[]): number[][] => ps.map((p) => [...p.v]);
const prov = (ps: { v: readonly number[]; provoking: number }[]): number[] => ps.map((p) => p.v[p.provoking]!);

test('lists drop incomplete trailing primitives', () => {
  assert.deepEqual(verts(assemble(DI_PT.DI_PT_POINTLIST, [4, 5, 6])), [[4], [5], [6]]);
  assert.deepEqual(verts(assemble(DI_PT.DI_PT_LINELIST, [0, 1, 2, 3, 4])), [[0, 1], [2, 3]]);
  assert.deepEqual(verts(assemble(DI_PT.DI_PT_LINESTRIP, [0, 1, 2, 3])), [[0, 1], [1, 2], [2, 3]]);
  assert.deepEqual(verts(assemble(DI_PT.DI_PT_TRILIST, [0, 1, 2, 3, 4, 5, 6, 7])), [[0, 1, 2], [3, 4, 5]]);
  assert.deepEqual(verts(assemble(DI_PT.DI_PT_RECTLIST, [0, 1, 2, 3, 4, 5])), [[0, 1, 2], [3, 4, 5]]);
});

test('triangle strips keep the winding: odd triangles swap, per provoking-vertex mode', () => {
  const first = assemble(DI_PT.DI_PT_TRISTRIP, [0, 1, 2, 3, 4, 5]);
  assert.deepEqual(verts(first), [[0, 1, 2], [1, 3, 2], [2, 3, 4], [3, 5, 4]]);
  assert.deepEqual(prov(first), [0, 1, 2, 3]);
  const last = assemble(DI_PT.DI_PT_TRISTRIP, [0, 1, 2, 3, 4, 5], { provokingLast: true });
  assert.deepEqual(verts(last), [[0, 1, 2], [2, 1, 3], [2, 3, 4], [4, 3, 5]]);
  assert.deepEqual(prov(last), [2, 3, 4, 5]);
});

test('triangle fans pivot on the first vertex', () => {
  const first = assemble(DI_PT.DI_PT_TRIFAN, [9, 1, 2, 3, 4]);
  assert.deepEqual(verts(first), [[1, 2, 9], [2, 3, 9], [3, 4, 9]]);
  assert.deepEqual(prov(first), [1, 2, 3]);
  const last = assemble(DI_PT.DI_PT_TRIFAN, [9, 1, 2, 3, 4], { provokingLast: true });
  assert.deepEqual(verts(last), [[9, 1, 2], [9, 2, 3], [9, 3, 4]]);
  assert.deepEqual(prov(last), [2, 3, 4]);
});

test('primitive restart restarts strips and fans, cuts lists, and keeps counting primitive IDs', () => {
  const R = 0xffff;
  const s = assemble(DI_PT.DI_PT_TRISTRIP, [0, 1, 2, 3, R, 4, 5, 6, 7], { restartEnable: true, indexType: 16 });
  assert.deepEqual(verts(s), [[0, 1, 2], [1, 3, 2], [4, 5, 6], [5, 7, 6]]);
  assert.deepEqual(s.map((p) => p.primId), [0, 1, 2, 3]);
  const f = assemble(DI_PT.DI_PT_TRIFAN, [0, 1, 2, 3, R, 10, 11, 12], { restartEnable: true, indexType: 16 });
  assert.deepEqual(verts(f), [[1, 2, 0], [2, 3, 0], [11, 12, 10]]);
  const l = assemble(DI_PT.DI_PT_TRILIST, [0, 1, R, 2, 3, 4], { restartEnable: true, indexType: 16 });
  assert.deepEqual(verts(l), [[2, 3, 4]]);
  const ls = assemble(DI_PT.DI_PT_LINESTRIP, [0, 1, 2, R, 3, 4], { restartEnable: true, indexType: 16 });
  assert.deepEqual(verts(ls), [[0, 1], [1, 2], [3, 4]]);
  // Disabled: the all-ones index is an ordinary vertex.
  assert.deepEqual(verts(assemble(DI_PT.DI_PT_TRILIST, [0, 1, R], { indexType: 16 })), [[0, 1, R]]);
});

test('the restart value is compared at the index type width', () => {
  assert.equal(defaultRestartIndex(8), 0xff);
  assert.equal(defaultRestartIndex(16), 0xffff);
  assert.equal(defaultRestartIndex(32), 0xffffffff);
  // 32-bit reset register with a 16-bit index buffer: only the low 16 bits matter.
  const p = assemble(DI_PT.DI_PT_TRISTRIP, [0, 1, 2, 0xffff, 3, 4, 5], { restartEnable: true, restartIndex: 0xffffffff, indexType: 16 });
  assert.equal(p.length, 2);
  // 8-bit indices restart on 0xff.
  assert.equal(assemble(DI_PT.DI_PT_TRISTRIP, [0, 1, 2, 0xff, 3, 4, 5], { restartEnable: true, indexType: 8 }).length, 2);
  // 32-bit indices: 0xffff is an ordinary index.
  assert.equal(assemble(DI_PT.DI_PT_TRISTRIP, [0, 1, 2, 0xffff, 3, 4, 5], { restartEnable: true, indexType: 32 }).length, 5);
  // A custom reset index.
  assert.equal(assemble(DI_PT.DI_PT_TRISTRIP, [0, 1, 2, 7, 3, 4, 5], { restartEnable: true, restartIndex: 7, indexType: 16 }).length, 2);
});

test('unsupported primitive types are diagnosed, not crashed on', () => {
  const d = new Diagnostics();
  assert.deepEqual(assemble(DI_PT.DI_PT_TRILIST_ADJ, [0, 1, 2, 3, 4, 5], {}, d), []);
  assert.equal(d.list[0]?.id, 'amd.pa.prim-type-unsupported');
  const clean = new Diagnostics();
  assemble(DI_PT.DI_PT_TRILIST, [0, 1, 2], {}, clean);
  assert.equal(clean.size, 0);
});
