/**
 * Constant-read rules of VLIW instruction groups (r600.alu.const-read): the trans slot's constant
 * limit and the GPR cycles it loses to constants, and the two kcache channel pairs per group. Each
 * fires on a group that breaks it, stays quiet on the legal neighbour, and never fires on clang's code.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../../tools/gen/run.js';
import { loadR600Object } from '../../src/r600/isa/object.js';
import { ids, lit, runAsm } from './helpers.js';

const prog = (body: string[]): string => [`ALU ${body.length - 1}, @2, KC0[CB0:0-32], KC1[]`, 'CF_END', 'ALU clause starting at 2:', ...body].join('\n');
/** Four vector MOVs fill x, y, z, w so the group's fifth instruction issues in the trans slot. */
const VEC = ['  MOV T5.X, T0.X,', '  MOV T5.Y, T0.X,', '  MOV T5.Z, T0.X,', '  MOV T5.W, T0.X,'];
const diag = (body: string[], gen: 'evergreen' | 'cayman' | 'r700' = 'evergreen'): string[] => ids(runAsm(prog(body), { gen }).diag);

test('trans slot: one constant forbids a GPR read in cycle 0', () => {
  // SCL_210 reads src2 in cycle 0.
  assert.deepEqual(diag([...VEC, '  MULADD * T6.X, KC0[1].X, T2.Y, T3.Z,']), ['r600.alu.const-read']);
  // SCL_122 reads src0 in cycle 1, src1/src2 in cycle 2: legal.
  assert.deepEqual(diag([...VEC, '  MULADD * T6.X, T2.Y, T3.Z, KC0[1].X, BS:VEC_021/SCL_122']), []);
  // Without constants the trans slot may read GPRs in any cycle.
  assert.deepEqual(diag([...VEC, '  MULADD * T6.X, T1.X, T2.Y, T3.Z,']), []);
});

test('trans slot: two constants forbid GPR reads in cycles 0 and 1; three constants never fit', () => {
  assert.deepEqual(diag([...VEC, '  MULADD * T6.X, KC0[1].X, T2.Y, KC0[1].Y,']), ['r600.alu.const-read'], 'SCL_210: src1 in cycle 1');
  assert.deepEqual(diag([...VEC, '  MULADD * T6.X, KC0[1].X, T2.Y, KC0[1].Y, BS:VEC_021/SCL_122']), [], 'SCL_122: src1 in cycle 2');
  assert.deepEqual(diag([...VEC, '  MULADD * T6.X, KC0[1].X, 1.0, literal.x,', lit(0x40000000)]), ['r600.alu.const-read']);
  // PV/PS are forwarded results, not constants.
  assert.deepEqual(diag(['  MOV * T2.Y, T0.X,', ...VEC, '  MULADD * T6.X, PV.X, T2.Y, KC0[1].Y, BS:VEC_021/SCL_122']), []);
});

test('a group reads kcache constants from at most two channel pairs (R700 and later)', () => {
  const three = ['  ADD T4.X, KC0[1].X, KC0[1].Z,', '  ADD * T4.Y, KC0[2].X, KC0[1].Y,'];
  const two = ['  ADD T4.X, KC0[1].X, KC0[1].Y,', '  ADD * T4.Y, KC0[2].Z, KC0[1].X,'];
  for (const gen of ['evergreen', 'cayman', 'r700'] as const) {
    assert.deepEqual(diag(three, gen), ['r600.alu.const-read'], gen);
    assert.deepEqual(diag(two, gen), [], gen);
  }
});

test('every clang-19 fixture keeps the constant-read rules', () => {
  let groups = 0;
  for (const mcpu of ['cypress', 'cayman']) {
    const dir = join(ROOT, 'kernels/r600/bin', mcpu);
    for (const f of readdirSync(dir).filter((x) => x.endsWith('.o'))) {
      const o = loadR600Object(readFileSync(join(dir, f)), f);
      for (const k of o.kernels) {
        for (const c of k.program.cf) {
          for (const g of c.aluClause ?? []) {
            groups++;
            assert.equal(g.constError, undefined, `${mcpu}/${f} ${k.name} group at ${g.offset}`);
          }
        }
      }
    }
  }
  assert.ok(groups > 300, `${groups} groups checked`);
});
