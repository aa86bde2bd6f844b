/**
 * VLIW groups and the ALU-clause forms of conditional execution, in hand-written assembly:
 * all slots read before any writes, PV/PS forwarding (trans slot on Evergreen), ALU_ELSE_AFTER,
 * ALU_BREAK, Cayman's ALU_VALID_PIXEL_MODE, counted loops with aL (LOOP_START + CF_CONST).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ids, lit, runAsm } from './helpers.js';

const all = (v: number): number[] => Array.from({ length: 64 }, () => v);
const lanes = (f: (l: number) => number): number[] => Array.from({ length: 64 }, (_, l) => f(l));

test('a group reads every source before writing: two MOVs swap T1.X and T1.Y', () => {
  const r = runAsm(`
    ALU 4, @2, KC0[], KC1[]
    CF_END
    ALU clause starting at 2:
      MOV   T1.X, literal.x,
      MOV * T1.Y, literal.y,
    ${lit(5, 9)}
      MOV   T1.X, T1.Y,
      MOV * T1.Y, T1.X,`);
  assert.deepEqual(r.reg(1, 0), all(9));
  assert.deepEqual(r.reg(1, 1), all(5));
  assert.deepEqual(ids(r.diag), []);
});

test('PV carries the vector slots and PS the trans slot (RECIP_IEEE is trans-only on Evergreen)', () => {
  const r = runAsm(`
    ALU 4, @2, KC0[], KC1[]
    CF_END
    ALU clause starting at 2:
      MOV   T2.X, literal.x,
      RECIP_IEEE * T2.Y, literal.y,
    ${lit(7, 0x40800000)}
      ADD_INT   T3.X, PV.X, 1,
      MOV * T3.Y, PS,`);
  assert.deepEqual(r.reg(3, 0), all(8));
  assert.deepEqual(r.reg(3, 1), all(0x3e800000));
  assert.equal(r.waves[0]!.opts.program.cf[0]!.aluClause![0]!.insts[1]!.slot, 4);
});

test('ALU_ELSE_AFTER runs the then-side, then flips to the else-side', () => {
  const r = runAsm(`
    ALU_PUSH_BEFORE 1, @6, KC0[], KC1[]
    ALU_ELSE_AFTER 1, @8, KC0[], KC1[]
    ALU_POP_AFTER 1, @10, KC0[], KC1[]
    ALU 1, @12, KC0[], KC1[]
    CF_END
    PAD
    ALU clause starting at 6:
      PRED_SETGT_INT * ExecMask,PredicateBit (MASKED), T0.X, literal.x,
    ${lit(31)}
    ALU clause starting at 8:
      MOV * T2.X, literal.x,
    ${lit(1)}
    ALU clause starting at 10:
      MOV * T3.X, literal.x,
    ${lit(1)}
    ALU clause starting at 12:
      MOV * T4.X, literal.x,
    ${lit(1)}`);
  assert.deepEqual(r.reg(2, 0), lanes((l) => (l > 31 ? 1 : 0)));
  assert.deepEqual(r.reg(3, 0), lanes((l) => (l <= 31 ? 1 : 0)));
  assert.deepEqual(r.reg(4, 0), all(1));
});

test('ALU_BREAK puts items whose exec test fails into Inactive-Break', () => {
  const r = runAsm(`
    LOOP_START_DX10 @4
    ALU 0, @6, KC0[], KC1[]
    ALU_BREAK 0, @7, KC0[], KC1[]
    END_LOOP @1
    CF_END
    PAD
    ALU clause starting at 6:
      ADD_INT * T2.X, T2.X, 1,
    ALU clause starting at 7:
      PRED_SETGT_INT * ExecMask,PredicateBit (MASKED), T0.X, T2.X,`);
  assert.deepEqual(r.reg(2, 0), lanes((l) => Math.max(l, 1)));
  assert.equal(r.waves[0]!.stack.length, 0);
});

test('LOOP_START with an integer constant counts iterations and steps aL (read as LOOP_IDX)', () => {
  const r = runAsm(`
    LOOP_START @3
    ALU 0, @4, KC0[], KC1[]
    END_LOOP @1
    CF_END
    ALU clause starting at 4:
      ADD_INT * T2.X, T2.X, SRC238.X,`, { loopConsts: [{ count: 5, init: 10, inc: 2 }] });
  assert.deepEqual(r.reg(2, 0), all(10 + 12 + 14 + 16 + 18));
  const zero = runAsm(`
    LOOP_START @3
    ALU 0, @4, KC0[], KC1[]
    END_LOOP @1
    CF_END
    ALU clause starting at 4:
      ADD_INT * T2.X, T2.X, 1,`, { loopConsts: [{ count: 0, init: 0, inc: 0 }] });
  assert.deepEqual(zero.reg(2, 0), all(0), 'a zero trip count skips the loop');
});

test('COND BOOL / NOT_BOOL test the CF_CONST boolean', () => {
  const prog = `
    JUMP @2 POP:0 COND:BOOL CF_CONST:3
    ALU 1, @4, KC0[], KC1[]
    CF_END
    PAD
    ALU clause starting at 4:
      MOV * T2.X, literal.x,
    ${lit(1)}`;
  // JUMP jumps when every item fails: with bool 3 clear, BOOL fails everywhere.
  assert.deepEqual(runAsm(prog, { bools: 0 }).reg(2, 0), all(0));
  assert.deepEqual(runAsm(prog, { bools: 1 << 3 }).reg(2, 0), all(1));
});

test("Cayman's ALU_VALID_PIXEL_MODE skips killed pixels", () => {
  const r = runAsm(`
    ALU 1, @6, KC0[], KC1[]
    ALU_VALID_PIXEL_MODE 1, @8, KC0[], KC1[]
    ALU 1, @10, KC0[], KC1[]
    CF_END
    PAD
    PAD
    ALU clause starting at 6:
      KILLGT * T0.X (MASKED), T0.X, literal.x,
    ${lit(9)}
    ALU clause starting at 8:
      MOV * T2.X, literal.x,
    ${lit(1)}
    ALU clause starting at 10:
      MOV * T3.X, literal.x,
    ${lit(1)}`, { gen: 'cayman' });
  assert.deepEqual(r.reg(2, 0), lanes((l) => (l <= 9 ? 1 : 0)));
  assert.deepEqual(r.reg(3, 0), all(1));
});

test('R700 uses its own opcode column (MULLO_INT 0x73, FLT_TO_INT 0x6B, trans-only) and CF COUNT split', async () => {
  const { assembleBody } = await import('../../src/r600/isa/asm.js');
  const { decodeAlu } = await import('../../src/r600/isa/decode.js');
  const src = `
    ALU 3, @2, KC0[], KC1[]
    CF_END
    ALU clause starting at 2:
      MULLO_INT * T2.X, T0.X, literal.x,
    ${lit(3)}
      INT_TO_FLT * T2.Y, T2.X,
      FLT_TO_INT * T2.Z, T2.Y,`;
  const a = assembleBody('r700', src.split('\n').map((l) => l.replace(/^\s*/, '\t')).filter((l) => l.trim()));
  assert.equal((a.words[5]! >>> 7) & 0x7ff, 0x73);
  assert.equal(decodeAlu('r700', 0, a.words[4]!, a.words[5]!).op?.name, 'MULLO_INT');
  assert.equal(decodeAlu('evergreen', 0, a.words[4]!, a.words[5]!).op, undefined, '0x73 is no Evergreen OP2');
  const r = runAsm(src, { gen: 'r700' });
  assert.deepEqual(r.reg(2, 2), lanes((l) => 3 * l));
  // A TEX clause COUNT of 9 splits into bits 12:10 and 19 on R600/R700.
  const t = assembleBody('r700', ['\tTEX 9 @4', '\tCF_END']);
  assert.equal(((t.words[1]! >>> 10) & 7) | (((t.words[1]! >>> 19) & 1) << 3), 9);
});

test('LDS_WRITE_REL writes B at A and C at A + 4 * IDX_OFFSET (a vec2 store, as Mesa emits it)', () => {
  const src = [
    'ALU 12, @2, KC0[], KC1[]', 'CF_END', 'ALU clause starting at 2:',
    '  LSHL * T1.X, T0.X, literal.x,', lit(3),
    '  ADD_INT * T1.Y, T0.X, literal.x,', lit(1000),
    '  ADD_INT * T1.Z, T0.X, literal.x,', lit(2000),
    '  LDS_WRITE_REL * T1.X, T1.Y, T1.Z, OFS:1',
    '  LDS_READ_RET * OQAP, T1.X',
    '  MOV * T2.X, OQAP,',
    '  ADD_INT * T1.W, T1.X, literal.x,', lit(4),
    '  LDS_READ_RET * OQAP, T1.W',
    '  MOV * T2.Y, OQAP,',
  ].join('\n');
  const r = runAsm(src);
  assert.deepEqual(ids(r.diag), []);
  assert.deepEqual(r.reg(2, 0), lanes((l) => l + 1000));
  assert.deepEqual(r.reg(2, 1), lanes((l) => l + 2000));
});
