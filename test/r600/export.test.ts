/**
 * CF_ALLOC_EXPORT beyond clang's RAT stores (assembly tests; LLVM's compute code emits none of
 * these): EXPORT / EXPORT_DONE to pixel/position/parameter targets with SEL_X..W swizzles and
 * bursts, MEM_WRITE_SCRATCH (private per work-item, written and read back), MEM_RING / MEM_EXPORT
 * buffers with indexed and ACK types, and the RAT forms LLVM leaves at their defaults (non-indexed
 * TYPE 0, ELEM_SIZE scaling, write-with-ACK). T0.X holds each work-item's local id.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cfProg as prog, ids, lit, runAsm } from './helpers.js';

const F1 = 0x3f800000;
const range = (n: number, f: (l: number) => number): number[] => Array.from({ length: n }, (_, l) => f(l) >>> 0);

// T2 = (l, 2l, 3l, 4l), T3 = (l+100, ...), T4.X = l.
const SETUP = [
  '  MOV T2.X, T0.X,', '  LSHL T2.Y, T0.X, 1,', '  MULLO_INT * T2.Z, T0.X, literal.x,', lit(3),
  '  LSHL * T2.W, T0.X, literal.x,', lit(2),
  '  ADD_INT * T3.X, T0.X, literal.x,', lit(100), '  MOV * T3.Y, 1,',
];
const SETUP_SLOTS = 9;

test('EXPORT / EXPORT_DONE write their targets through SEL_X..W, BURST_COUNT consecutive GPRs and targets', () => {
  const exports = new Map<string, Map<number, Uint32Array>>();
  const r = runAsm(prog(['EXPORT PARAM:0 T2.XY01', 'EXPORT_DONE PARAM:4 T2.WX__ BURST:1', 'EXPORT_DONE POS:0 T2.ZZZZ'], SETUP, SETUP_SLOTS), { exports });
  assert.deepEqual(ids(r.diag), []);
  const get = (k: string, l: number): number[] => [...exports.get(k)!.get(l)!];
  for (const l of [0, 1, 17, 63]) {
    assert.deepEqual(get('PARAM0', l), [l, 2 * l, 0, F1]);
    assert.deepEqual(get('PARAM4', l), [4 * l, l, 0, 0]);
    assert.deepEqual(get('PARAM5', l), [0, l + 100, 0, 0], 'burst 1 reads T3 (T3.W = 0, T3.X = l+100)');
    assert.deepEqual(get('POS0', l), [3 * l, 3 * l, 3 * l, 3 * l]);
  }
  assert.deepEqual([...exports.keys()].sort(), ['PARAM0', 'PARAM4', 'PARAM5', 'POS0']);
});

test('exports skip inactive items; VALID_PIXEL_MODE also skips killed ones', () => {
  const src = [
    'ALU 8, @8, KC0[], KC1[]',
    'ALU_PUSH_BEFORE 1, @18, KC0[], KC1[]',
    'EXPORT PIXEL:0 T2.XXXX',
    'POP @4 POP:1',
    'KILL @0 COND:BOOL',
    'EXPORT_DONE PIXEL:1 T2.XXXX VPM',
    'CF_END',
    'PAD',
    'ALU clause starting at 8:',
    ...SETUP,
    'ALU clause starting at 18:',
    '  PRED_SETGT_INT * ExecMask,PredicateBit (MASKED), T0.X, literal.x,',
    lit(50),
  ].join('\n');
  const exports = new Map<string, Map<number, Uint32Array>>();
  const r = runAsm(src, { exports, bools: 0 });
  assert.deepEqual(ids(r.diag), []);
  assert.deepEqual([...exports.get('PIXEL0')!.keys()].sort((a, b) => a - b), range(13, (i) => 51 + i));
  assert.equal(exports.get('PIXEL1')!.size, 64, 'KILL whose BOOL is false kills nothing');
  const killed = new Map<string, Map<number, Uint32Array>>();
  runAsm(src, { exports: killed, bools: 1 });
  assert.equal(killed.get('PIXEL1')!.size, 0, 'every item killed: the VPM export writes nothing');
});

test('export diagnostics: an export after EXPORT_DONE, a type never closed, reserved TYPE/SEL', () => {
  assert.deepEqual(ids(runAsm(prog(['EXPORT_DONE PARAM:0 T2.XYZW', 'EXPORT PARAM:1 T2.XYZW', 'EXPORT_DONE PARAM:2 T2.XYZW'], SETUP, SETUP_SLOTS)).diag), ['r600.export.after-done']);
  assert.deepEqual(ids(runAsm(prog(['EXPORT PARAM:0 T2.XYZW'], SETUP, SETUP_SLOTS)).diag), ['r600.export.no-done']);
  assert.deepEqual(ids(runAsm(prog(['EXPORT_DONE TYPE3:0 T2.XYZW'], SETUP, SETUP_SLOTS)).diag), ['r600.export.type']);
  assert.deepEqual(ids(runAsm(prog(['EXPORT_DONE PARAM:0 T2.X6__'], SETUP, SETUP_SLOTS)).diag), ['r600.export.swizzle']);
});

test('MEM_WRITE_SCRATCH is private per work-item: WRITE_IND then READ_IND gives each item its own data', () => {
  // Every item writes T2 (4 dwords, ELEM:3) at element T4.X = 5, then reads element 5 into T5.
  const setup = [...SETUP, '  MOV * T4.X, literal.x,', lit(5)];
  const r = runAsm(prog(['MEM_WRITE_SCRATCH WRITE_IND T2.XYZW, T4.X BASE:0 SIZE:15 ELEM:3', 'MEM_WRITE_SCRATCH READ_IND T5.XYZW, T4.X BASE:0 SIZE:15 ELEM:3', 'MEM_WRITE_SCRATCH READ T6.XY, T4.X BASE:5 SIZE:15 ELEM:3'], setup, SETUP_SLOTS + 2));
  assert.deepEqual(ids(r.diag), []);
  assert.deepEqual(r.reg(5, 0), range(64, (l) => l));
  assert.deepEqual(r.reg(5, 3), range(64, (l) => 4 * l));
  assert.deepEqual(r.reg(6, 1), range(64, (l) => 2 * l), 'non-indexed READ at ARRAY_BASE 5');
  const oor = runAsm(prog(['MEM_WRITE_SCRATCH WRITE T2.X, T4.X BASE:8000 SIZE:0'], SETUP, SETUP_SLOTS), { scratchDwords: 64 });
  assert.deepEqual(ids(oor.diag), ['r600.scratch.out-of-range']);
});

test('MEM_RING / MEM_EXPORT write shared buffers at ARRAY_BASE + INDEX_GPR.x; ACK types need WAIT_ACK', () => {
  const memBuffers = new Map<string, Uint8Array>();
  const r = runAsm(prog(['MEM_RING WRITE_IND T2.XY, T2.X BASE:10 SIZE:0 ELEM:1', 'MEM_EXPORT WRITE_IND_ACK T3.X, T2.X BASE:0 SIZE:0', 'WAIT_ACK @0'], SETUP, SETUP_SLOTS), { memBuffers });
  assert.deepEqual(ids(r.diag), []);
  const ring = new Uint32Array(memBuffers.get('MEM_RING')!.buffer);
  assert.deepEqual([...ring.slice(20, 148)], range(128, (i) => ((i & 1) === 0 ? i >> 1 : 2 * (i >> 1))));
  const exp = new Uint32Array(memBuffers.get('MEM_EXPORT')!.buffer);
  assert.deepEqual([...exp.slice(0, 64)], range(64, (l) => l + 100));
  const noWait = runAsm(prog(['MEM_EXPORT WRITE_IND_ACK T3.X, T2.X BASE:0 SIZE:0'], SETUP, SETUP_SLOTS));
  assert.deepEqual(ids(noWait.diag), ['r600.rat.ack-without-wait']);
});

test('RAT forms: TYPE 0 writes element 0, ELEM_SIZE scales the index, STORE_TYPED, write-with-ACK', () => {
  const g = runAsm(prog(['MEM_RAT_CACHELESS STORE_TYPED RAT(0) T2, T2, 0 ELEM:3', 'MEM_RAT_CACHELESS STORE_RAW T3.X, T2.X, 0 TYPE:3', 'WAIT_ACK @0'], SETUP, SETUP_SLOTS), { globalBytes: 2048 });
  assert.deepEqual(ids(g.diag), []);
  const words = new Uint32Array(g.global.buffer);
  // STORE_TYPED with ELEM:3: item l's 4 dwords at dword 4l.. — except dword l, which STORE_RAW (ACK) overwrote.
  for (let l = 0; l < 64; l++) {
    if (l >= 16) {
      assert.equal(words[4 * l + 1], 2 * l);
      assert.equal(words[4 * l + 3], 4 * l);
    }
    assert.equal(words[l], l + 100);
  }
  const t0 = runAsm(prog(['MEM_RAT_CACHELESS STORE_RAW T3.X, T2.X, 0 TYPE:0'], SETUP, SETUP_SLOTS), { globalBytes: 1024 });
  assert.equal(new Uint32Array(t0.global.buffer)[0], 163, 'non-indexed: every item writes element 0, lane 63 last');
  assert.equal(new Uint32Array(t0.global.buffer)[1], 0);
});
