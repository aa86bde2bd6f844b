/**
 * Conditional execution (seed 003) on hand-written assembly, for what clang does not emit:
 * ALU_POP2_AFTER, WHOLE_QUAD_MODE, VALID_PIXEL_MODE with KILL, CALL/CALL_FS/RETURN, JUMPTABLE,
 * ELSE, loops with LOOP_CONTINUE, and nesting up to and past the CF stack size.
 * T0.X holds each work-item's local id, so lane l has T0.X = l.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ids, lit, runAsm } from './helpers.js';
import { STATE } from '../../src/r600/wave/machine.js';

const lanes = (pred: (l: number) => boolean, yes: number, no = 0): number[] => Array.from({ length: 64 }, (_, l) => (pred(l) ? yes : no));
const dwords = (g: Uint8Array, from: number, n: number): number[] => Array.from(new Uint32Array(g.buffer, from * 4, n));

test('ALU_POP2_AFTER pops both pushes of a nested if after its clause', () => {
  const r = runAsm(`
    ALU_PUSH_BEFORE 1, @6, KC0[], KC1[]
    ALU_PUSH_BEFORE 1, @8, KC0[], KC1[]
    ALU_POP2_AFTER 1, @10, KC0[], KC1[]
    ALU 1, @12, KC0[], KC1[]
    CF_END
    PAD
    ALU clause starting at 6:
      PRED_SETGT_INT * ExecMask,PredicateBit (MASKED), T0.X, literal.x,
    ${lit(15)}
    ALU clause starting at 8:
      PRED_SETGT_INT * ExecMask,PredicateBit (MASKED), T0.X, literal.x,
    ${lit(31)}
    ALU clause starting at 10:
      MOV * T2.X, literal.x,
    ${lit(1)}
    ALU clause starting at 12:
      MOV * T3.X, literal.x,
    ${lit(7)}`);
  assert.deepEqual(r.reg(2, 0), lanes((l) => l > 31, 1));
  assert.deepEqual(r.reg(3, 0), lanes(() => true, 7));
  assert.equal(r.waves[0]!.stack.length, 0);
  assert.deepEqual(ids(r.diag), []);
});

test('an ALU clause without POP2 leaves the inner lanes disabled (control for the test above)', () => {
  const r = runAsm(`
    ALU_PUSH_BEFORE 1, @6, KC0[], KC1[]
    ALU_PUSH_BEFORE 1, @8, KC0[], KC1[]
    ALU_POP_AFTER 1, @10, KC0[], KC1[]
    ALU 1, @12, KC0[], KC1[]
    CF_END
    PAD
    ALU clause starting at 6:
      PRED_SETGT_INT * ExecMask,PredicateBit (MASKED), T0.X, literal.x,
    ${lit(15)}
    ALU clause starting at 8:
      PRED_SETGT_INT * ExecMask,PredicateBit (MASKED), T0.X, literal.x,
    ${lit(31)}
    ALU clause starting at 10:
      MOV * T2.X, literal.x,
    ${lit(1)}
    ALU clause starting at 12:
      MOV * T3.X, literal.x,
    ${lit(7)}`);
  assert.deepEqual(r.reg(3, 0), lanes((l) => l > 15, 7));
  assert.equal(r.waves[0]!.stack.length, 1);
});

test('PRED_SET* exec changes take effect at the next CF instruction, not inside the clause', () => {
  const r = runAsm(`
    ALU_PUSH_BEFORE 3, @4, KC0[], KC1[]
    ALU 1, @8, KC0[], KC1[]
    POP @0 POP:1
    CF_END
    ALU clause starting at 4:
      PRED_SETGT_INT * ExecMask,PredicateBit (MASKED), T0.X, literal.x,
    ${lit(40)}
      MOV * T2.X, literal.x,
    ${lit(5)}
    ALU clause starting at 8:
      MOV * T3.X, literal.x,
    ${lit(6)}`);
  assert.deepEqual(r.reg(2, 0), lanes(() => true, 5), 'the rest of the clause still runs on every lane');
  assert.deepEqual(r.reg(3, 0), lanes((l) => l > 40, 6));
});

test('WHOLE_QUAD_MODE runs a clause on every pixel of a quad with an active pixel', () => {
  const r = runAsm(`
    ALU_PUSH_BEFORE 1, @6, KC0[], KC1[]
    ALU 1, @8, KC0[], KC1[] WQM
    ALU 1, @10, KC0[], KC1[]
    POP @0 POP:1
    CF_END
    PAD
    ALU clause starting at 6:
      PRED_SETE_INT * ExecMask,PredicateBit (MASKED), T0.X, literal.x,
    ${lit(5)}
    ALU clause starting at 8:
      MOV * T2.X, literal.x,
    ${lit(1)}
    ALU clause starting at 10:
      MOV * T3.X, literal.x,
    ${lit(1)}`);
  assert.deepEqual(r.reg(2, 0), lanes((l) => l >= 4 && l < 8, 1));
  assert.deepEqual(r.reg(3, 0), lanes((l) => l === 5, 1));
});

test('VALID_PIXEL_MODE with KILL: killed pixels stay active but VPM instructions skip them; CF KILL kills the rest', () => {
  const r = runAsm(`
    ALU 7, @8, KC0[], KC1[]
    MEM_RAT_CACHELESS STORE_RAW T2.X, T0.X, 0 VPM
    MEM_RAT_CACHELESS STORE_RAW T2.X, T3.X, 0
    KILL @0
    MEM_RAT_CACHELESS STORE_RAW T2.X, T4.X, 0 VPM
    CF_END
    PAD
    PAD
    ALU clause starting at 8:
      ADD_INT * T2.X, T0.X, literal.x,
    ${lit(1000)}
      KILLGT * T0.X (MASKED), T0.X, literal.x,
    ${lit(9)}
      ADD_INT * T3.X, T0.X, literal.x,
    ${lit(64)}
      ADD_INT * T4.X, T0.X, literal.x,
    ${lit(128)}`);
  const g = r.global;
  assert.deepEqual(dwords(g, 0, 64), lanes((l) => l <= 9, 0).map((v, l) => (l <= 9 ? 1000 + l : 0)));
  assert.deepEqual(dwords(g, 64, 64), lanes(() => true, 0).map((_, l) => 1000 + l));
  assert.deepEqual(dwords(g, 128, 64), lanes(() => false, 0));
  assert.deepEqual([...r.waves[0]!.valid], lanes(() => false, 1));
  assert.deepEqual(ids(r.diag), []);
});

test('CALL_FS runs the fetch shader and RETURN comes back; without a fetch shader it is a diagnostic', () => {
  const src = `
    CALL_FS @0
    ALU 1, @6, KC0[], KC1[]
    CF_END
    NOP
    ALU 1, @8, KC0[], KC1[]
    RETURN @0
    ALU clause starting at 6:
      ADD_INT * T3.X, T2.X, literal.x,
    ${lit(1)}
    ALU clause starting at 8:
      MOV * T2.X, literal.x,
    ${lit(41)}`;
  const r = runAsm(src, { fetchShader: 4 });
  assert.deepEqual(r.reg(3, 0), lanes(() => true, 42));
  assert.deepEqual(ids(r.diag), []);
  const bad = runAsm(src, { entries: [4] });
  assert.deepEqual(ids(bad.diag), ['r600.cf.call-fs-without-fetch-shader']);
  assert.deepEqual(bad.reg(3, 0), lanes(() => true, 1));
});

test('CALL pushes a return address; RETURN without CALL is a diagnostic', () => {
  const r = runAsm(`
    CALL @4
    ALU 1, @6, KC0[], KC1[]
    CF_END
    NOP
    ALU 1, @8, KC0[], KC1[]
    RETURN @0
    ALU clause starting at 6:
      ADD_INT * T3.X, T2.X, literal.x,
    ${lit(100)}
    ALU clause starting at 8:
      ADD_INT * T2.X, T0.X, literal.x,
    ${lit(1)}`);
  assert.deepEqual(r.reg(3, 0), lanes(() => true, 0).map((_, l) => l + 101));
  const bad = runAsm(`
    RETURN @0
    CF_END`);
  assert.deepEqual(ids(bad.diag), ['r600.cf.return-without-call']);
});

test('JUMPTABLE jumps to ADDR + CF_IDX0 (set from AR.x by SET_CF_IDX0)', () => {
  const prog = (k: number): string => `
    ALU 2, @8, KC0[], KC1[]
    JUMPTABLE @2
    JUMP @5 POP:0 COND:FALSE
    JUMP @5 POP:0 COND:FALSE
    ALU 1, @11, KC0[], KC1[]
    CF_END
    PAD
    PAD
    ALU clause starting at 8:
      MOVA_INT * AR.x (MASKED), literal.x,
    ${lit(k)}
      SET_CF_IDX0
    ALU clause starting at 11:
      MOV * T2.X, literal.x,
    ${lit(22)}`;
  assert.deepEqual(runAsm(prog(2)).reg(2, 0), lanes(() => true, 22));
  assert.deepEqual(runAsm(prog(0)).reg(2, 0), lanes(() => true, 0));
  assert.deepEqual(runAsm(prog(1)).reg(2, 0), lanes(() => true, 0));
});

test('PUSH / ELSE / POP: the else side runs only on items active when the branch was pushed', () => {
  const r = runAsm(`
    ALU_PUSH_BEFORE 1, @8, KC0[], KC1[]
    ALU_PUSH_BEFORE 1, @10, KC0[], KC1[]
    ALU 1, @12, KC0[], KC1[]
    ELSE @5 POP:0
    ALU_POP2_AFTER 1, @14, KC0[], KC1[]
    CF_END
    PAD
    PAD
    ALU clause starting at 8:
      PRED_SETGT_INT * ExecMask,PredicateBit (MASKED), T0.X, literal.x,
    ${lit(31)}
    ALU clause starting at 10:
      PRED_SETGT_INT * ExecMask,PredicateBit (MASKED), T0.X, literal.x,
    ${lit(47)}
    ALU clause starting at 12:
      MOV * T2.X, literal.x,
    ${lit(1)}
    ALU clause starting at 14:
      MOV * T2.X, literal.x,
    ${lit(2)}`);
  assert.deepEqual(r.reg(2, 0), lanes((l) => l > 31, 0).map((_, l) => (l > 47 ? 1 : l > 31 ? 2 : 0)));
});

test('a DX10 loop with LOOP_CONTINUE and LOOP_BREAK: continue resumes at LOOP_END, break leaves', () => {
  // for (;;) { T2 += 1; if (T2 > (lane & 7)) break; if (T2 & 1) continue; T3 += 1; }
  const r = runAsm(`
    ALU 1, @16, KC0[], KC1[]
    LOOP_START_DX10 @11
    ALU 0, @18, KC0[], KC1[]
    ALU_PUSH_BEFORE 0, @19, KC0[], KC1[]
    LOOP_BREAK @10
    POP @0 POP:1
    ALU_PUSH_BEFORE 1, @20, KC0[], KC1[]
    LOOP_CONTINUE @10
    POP @0 POP:1
    ALU 0, @22, KC0[], KC1[]
    END_LOOP @2
    CF_END
    PAD
    PAD
    PAD
    PAD
    ALU clause starting at 16:
      AND_INT * T5.X, T0.X, literal.x,
    ${lit(7)}
    ALU clause starting at 18:
      ADD_INT * T2.X, T2.X, 1,
    ALU clause starting at 19:
      PRED_SETGT_INT * ExecMask,PredicateBit (MASKED), T2.X, T5.X,
    ALU clause starting at 20:
      AND_INT * T6.X, T2.X, 1,
      PRED_SETNE_INT * ExecMask,PredicateBit (MASKED), T6.X, 0.0,
    ALU clause starting at 22:
      ADD_INT * T3.X, T3.X, 1,`);
  const it = (l: number): number => (l & 7) + 1;
  assert.deepEqual(r.reg(2, 0), lanes(() => true, 0).map((_, l) => it(l)));
  // T3 counts passes with even T2.X among 1..it-1 (the breaking pass leaves before the increment)
  assert.deepEqual(r.reg(3, 0), lanes(() => true, 0).map((_, l) => Math.floor((it(l) - 1) / 2)));
  assert.equal(r.waves[0]!.stack.length, 0);
  assert.deepEqual([...r.waves[0]!.state], lanes(() => true, STATE.ACTIVE));
  assert.deepEqual(ids(r.diag), []);
});

function nested(depth: number): string {
  const cf: string[] = [];
  const clauses: string[] = [];
  const nCf = 2 * depth + 2;
  const base = nCf + (nCf % 2);
  let at = base;
  for (let k = 0; k < depth; k++) {
    cf.push(`ALU_PUSH_BEFORE 1, @${at}, KC0[], KC1[]`);
    clauses.push(`ALU clause starting at ${at}:`, `  PRED_SETGT_INT * ExecMask,PredicateBit (MASKED), T0.X, literal.x,`, lit(k));
    at += 2;
  }
  cf.push(`ALU 1, @${at}, KC0[], KC1[]`);
  clauses.push(`ALU clause starting at ${at}:`, `  MOV * T2.X, literal.x,`, lit(1));
  for (let k = 0; k < depth; k++) cf.push('POP @0 POP:1');
  cf.push('CF_END');
  if (nCf % 2) cf.push('PAD');
  return [...cf, ...clauses].join('\n');
}

test('nesting up to the stack size is quiet; one level past it reports r600.cf.stack-overflow', () => {
  // STACK_SIZE 2 = 8 subentries; the first push on Evergreen takes 2, so 7 nested pushes fit.
  const ok = runAsm(nested(7), { stackSize: 2 });
  assert.deepEqual(ids(ok.diag), []);
  assert.deepEqual(ok.reg(2, 0), lanes((l) => l > 6, 1));
  const over = runAsm(nested(8), { stackSize: 2 });
  assert.deepEqual(ids(over.diag), ['r600.cf.stack-overflow']);
  // Execution continues the way the model's unbounded stack allows.
  assert.deepEqual(over.reg(2, 0), lanes((l) => l > 7, 1));
  const deep = runAsm(nested(40), { stackSize: 16 });
  assert.deepEqual(deep.reg(2, 0), lanes((l) => l > 39, 1));
  assert.deepEqual(ids(deep.diag), []);
  assert.deepEqual(ids(runAsm(nested(40), { stackSize: 10 }).diag), ['r600.cf.stack-overflow']);
});

test('Cayman has no first-push extra subentry: 8 nested pushes fit in STACK_SIZE 2', () => {
  assert.deepEqual(ids(runAsm(nested(8), { stackSize: 2, gen: 'cayman' }).diag), []);
  assert.deepEqual(ids(runAsm(nested(9), { stackSize: 2, gen: 'cayman' }).diag), ['r600.cf.stack-overflow']);
});

test('cedar: 32-wide waves, 8 CF stack subentries per entry (R600_CHIPS): 15 nested pushes fit STACK_SIZE 2', () => {
  // 64 work-items are two 32-wide waves on cedar; each wave sees its own local ids.
  const ok = runAsm(nested(15), { stackSize: 2, mcpu: 'cedar' });
  assert.equal(ok.waves.length, 2);
  assert.deepEqual(ok.waves.map((w) => w.W), [32, 32]);
  assert.deepEqual(ids(ok.diag), []);
  assert.deepEqual([...ok.reg(2, 0, 0), ...ok.reg(2, 0, 1)], lanes((l) => l > 14, 1));
  // 2 + 15 subentries need ceil(17 / 8) = 3 entries.
  assert.deepEqual(ids(runAsm(nested(16), { stackSize: 2, mcpu: 'cedar' }).diag), ['r600.cf.stack-overflow']);
  // The same program on a 64-wide Evergreen chip overflows much earlier (4 subentries per entry).
  assert.deepEqual(ids(runAsm(nested(15), { stackSize: 2, mcpu: 'juniper' }).diag), ['r600.cf.stack-overflow']);
  assert.deepEqual(runAsm(nested(1), { mcpu: 'juniper' }).waves.map((w) => w.W), [64]);
});

test('POP re-evaluates its condition test after popping: with VALID_PIXEL_MODE killed pixels stay off', () => {
  const r = runAsm(`
    ALU_PUSH_BEFORE 3, @6, KC0[], KC1[]
    POP @0 POP:1 VPM
    ALU 1, @10, KC0[], KC1[]
    CF_END
    PAD
    PAD
    ALU clause starting at 6:
      KILLGT * T0.X (MASKED), T0.X, literal.x,
    ${lit(19)}
      PRED_SETGT_INT * ExecMask,PredicateBit (MASKED), literal.x, T0.X,
    ${lit(9)}
    ALU clause starting at 10:
      MOV * T2.X, literal.x,
    ${lit(3)}`);
  // After the pop every item is restored, then items 20.. (killed) fail the VPM test.
  assert.deepEqual(r.reg(2, 0), lanes((l) => l <= 19, 3));
});

const elseVpm = (vpm: string): string => `
    ALU_PUSH_BEFORE 3, @6, KC0[], KC1[]
    ELSE @3 POP:0${vpm}
    ALU_POP_AFTER 1, @10, KC0[], KC1[]
    CF_END
    PAD
    PAD
    ALU clause starting at 6:
      KILLGT * T0.X (MASKED), T0.X, literal.x,
    ${lit(19)}
      PRED_SETGT_INT * ExecMask,PredicateBit (MASKED), literal.x, T0.X,
    ${lit(9)}
    ALU clause starting at 10:
      MOV * T2.X, literal.x,
    ${lit(3)}`;

test('ELSE re-runs its condition test after the swap (seed 003): with VALID_PIXEL_MODE killed pixels are not re-activated', () => {
  // Items 0..8 take the if (9 > id); 20.. are killed. ELSE swaps to 9..63, and VPM keeps 20..63 off.
  const r = runAsm(elseVpm(' VPM'));
  assert.deepEqual(r.reg(2, 0), lanes((l) => l >= 9 && l <= 19, 3));
  assert.deepEqual(ids(r.diag), []);
  // Without VPM the killed items do run the else side (the kill only clears VALID).
  assert.deepEqual(runAsm(elseVpm('')).reg(2, 0), lanes((l) => l >= 9, 3));
});

test('ELSE with COND:FALSE leaves no item active after the swap and jumps to ADDR', () => {
  const r = runAsm(elseVpm(' COND:FALSE'));
  assert.deepEqual(r.reg(2, 0), lanes(() => false, 3));
});

const fetchCond = (cond: string): string => `
    TEX 0 @2${cond}
    CF_END
    Fetch clause starting at 2:
      VTX_READ_32 T1.X, T0.X, 0, #1`;

test('a fetch clause honours the COND of its CF instruction: FALSE fetches nothing, BOOL follows the CF_CONST boolean', () => {
  const global = new Uint8Array(4096);
  for (let i = 0; i < 256; i++) global[i] = (i * 7 + 1) & 0xff;
  const want = Array.from({ length: 64 }, (_, l) => new DataView(global.buffer).getUint32(l, true));
  assert.deepEqual(runAsm(fetchCond(''), { global: global.slice() }).reg(1, 0), want);
  assert.deepEqual(runAsm(fetchCond(' COND:FALSE'), { global: global.slice() }).reg(1, 0), lanes(() => false, 0));
  assert.deepEqual(runAsm(fetchCond(' COND:BOOL CF_CONST:2'), { global: global.slice(), bools: 4 }).reg(1, 0), want);
  assert.deepEqual(runAsm(fetchCond(' COND:BOOL CF_CONST:2'), { global: global.slice(), bools: 0 }).reg(1, 0), lanes(() => false, 0));
  assert.deepEqual(runAsm(fetchCond(' COND:NOT_BOOL CF_CONST:2'), { global: global.slice(), bools: 0 }).reg(1, 0), want);
});
