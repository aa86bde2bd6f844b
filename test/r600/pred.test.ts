/**
 * The predicate-counter ops (PRED_SET*_PUSH[_INT], PRED_SET_POP, PRED_SET_RESTORE, PRED_SET_INV,
 * PRED_SET_CLR): nested conditionals inside one ALU clause with a per-item counter in a GPR
 * (0 = executing), as the ISA documents define them, in hand-written assembly.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ids, lit, runAsm } from './helpers.js';
import { predCounterOp } from '../../src/r600/exec/alu.js';

const lanes = (f: (l: number) => number): number[] => Array.from({ length: 64 }, (_, l) => f(l));
const ONE = 0x3f800000;

test('if (tid > 16) { if (tid > 40) .. else .. } with PRED_SETGT_PUSH / PRED_SET_INV / PRED_SET_POP on a counter', () => {
  const r = runAsm(`
    ALU 21, @2, KC0[], KC1[]
    CF_END
    ALU clause starting at 2:
      INT_TO_FLT * T6.X, T0.X,
      ADD   T4.X, T6.X, literal.x,
      ADD * T4.Y, T6.X, literal.y,
    ${lit(0xc1800000, 0xc2200000)}
      PRED_SETGT_PUSH * Pred,T3.X, T3.X, T4.X,
      MOV * T5.X, literal.x, Pred_sel_one
    ${lit(1)}
      PRED_SETGT_PUSH * Pred,T3.X, T3.X, T4.Y,
      MOV * T8.X, T3.X,
      MOV * T5.Y, literal.x, Pred_sel_one
    ${lit(1)}
      PRED_SET_INV * Pred,T3.X, T3.X,
      MOV * T5.Z, literal.x, Pred_sel_one
    ${lit(1)}
      PRED_SET_POP * Pred,T3.X, T3.X, literal.x,
    ${lit(ONE)}
      MOV * T5.W, literal.x, Pred_sel_one
    ${lit(1)}
      PRED_SET_POP * Pred,T3.X, T3.X, literal.x,
    ${lit(ONE)}
      MOV * T7.X, literal.x, Pred_sel_one
    ${lit(1)}`);
  assert.deepEqual(ids(r.diag), []);
  assert.deepEqual(r.reg(5, 0), lanes((l) => (l > 16 ? 1 : 0)), 'outer then');
  assert.deepEqual(r.reg(5, 1), lanes((l) => (l > 40 ? 1 : 0)), 'inner then');
  assert.deepEqual(r.reg(5, 2), lanes((l) => (l > 16 && l <= 40 ? 1 : 0)), 'inner else (PRED_SET_INV)');
  assert.deepEqual(r.reg(5, 3), lanes((l) => (l > 16 ? 1 : 0)), 'after the inner if (one PRED_SET_POP)');
  assert.deepEqual(r.reg(7, 0), lanes(() => 1), 'after the outer if: everyone again');
  // The counter after the inner push: 2 levels off, 1 level off, executing.
  assert.deepEqual(r.reg(8, 0), lanes((l) => (l <= 16 ? 0x40000000 : l <= 40 ? ONE : 0)));
  assert.deepEqual(r.reg(3, 0), lanes(() => 0));
});

test('PRED_SET*_PUSH_INT count in integers; RESTORE, CLR and INV follow the counter definition', () => {
  const neg = (v: number): number => v >>> 0;
  assert.deepEqual(predCounterOp('PRED_SETLT_PUSH_INT', 0, neg(-5)), [true, 0]);
  assert.deepEqual(predCounterOp('PRED_SETLT_PUSH_INT', 3, neg(-5)), [false, 4]);
  assert.deepEqual(predCounterOp('PRED_SETLE_PUSH_INT', 0, 0), [true, 0]);
  assert.deepEqual(predCounterOp('PRED_SETE_PUSH_INT', 0, 1), [false, 1]);
  assert.deepEqual(predCounterOp('PRED_SETNE_PUSH', 0, ONE), [true, 0]);
  assert.deepEqual(predCounterOp('PRED_SETGE_PUSH', ONE, ONE), [false, 0x40000000]);
  assert.deepEqual(predCounterOp('PRED_SET_RESTORE', 0, 0), [true, 0]);
  assert.deepEqual(predCounterOp('PRED_SET_RESTORE', 0x40400000, 0), [false, 0x40400000]);
  assert.deepEqual(predCounterOp('PRED_SET_INV', 0, 0), [false, ONE]);
  assert.deepEqual(predCounterOp('PRED_SET_INV', 0x40400000, 0), [false, 0x40400000]);
  assert.deepEqual(predCounterOp('PRED_SET_CLR', 0, 0), [false, 0x7f7fffff]);
  assert.deepEqual(predCounterOp('PRED_SET_POP', 0x40400000, ONE), [false, 0x40000000]);
  assert.equal(predCounterOp('PRED_SETGT', 0, 0), undefined, 'the plain compares are not counter ops');
});

test('PRED_SETGT_PUSH_INT with ExecMask under ALU_PUSH_BEFORE: the counter pass decides the branch', () => {
  const r = runAsm(`
    ALU_PUSH_BEFORE 0, @4, KC0[], KC1[]
    JUMP @3 POP:1
    ALU_POP_AFTER 1, @5, KC0[], KC1[]
    CF_END
    ALU clause starting at 4:
      PRED_SETGT_PUSH_INT * ExecMask,Pred,T3.X, T3.X, T0.X,
    ALU clause starting at 5:
      MOV * T2.X, literal.x,
    ${lit(7)}`);
  assert.deepEqual(ids(r.diag), []);
  assert.deepEqual(r.reg(2, 0), lanes((l) => (l > 0 ? 7 : 0)));
  assert.deepEqual(r.reg(3, 0), lanes((l) => (l > 0 ? 0 : 1)));
});
