/**
 * Every r600 diagnostic fires on a program that breaks its rule, with the stable id, the CF index
 * and the wave; clean programs (every clang fixture, see kernels.test.ts) raise none. Strict mode
 * stops at the first one.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Diagnostics, StrictStop } from '../../src/core/diagnostics.js';
import { ids, lit, runAsm } from './helpers.js';

const CASES: Record<string, { src: string; opts?: Parameters<typeof runAsm>[1] }> = {
  'r600.cf.stack-underflow': { src: 'POP @0 POP:1\nCF_END' },
  'r600.cf.jts-unused': { src: 'NOP JTS:3\nCF_END' },
  'r600.cf.popcount-unused': { src: 'NOP @0 POP:2\nCF_END' },
  'r600.cf.gds-cond': { src: 'GDS 0 @2 COND:BOOL\nCF_END\nPAD\nPAD\nPAD\nPAD' },
  'r600.cf.loop-end-without-loop': { src: 'END_LOOP @0\nCF_END' },
  'r600.cf.break-outside-loop': { src: 'LOOP_BREAK @1\nCF_END' },
  'r600.cf.return-without-call': { src: 'RETURN @0\nCF_END' },
  'r600.cf.call-fs-without-fetch-shader': { src: 'CALL_FS @0\nCF_END' },
  'r600.cf.not-in-compute': { src: 'EMIT_VERTEX @0\nCF_END' },
  'r600.cf.jumptable-sel': { src: 'JUMPTABLE @1 JTS:5\nCF_END' },
  'r600.rat.cacheless-inst': { src: 'MEM_RAT_CACHELESS ATOMIC_ADD T0, T0.X\nCF_END' },
  'r600.rat.index-mode': { src: 'MEM_RAT_CACHELESS STORE_RAW T0.X, T0.X, 0 IDXMODE:1\nCF_END' },
  'r600.rat.no-barrier': { src: 'MEM_RAT_CACHELESS STORE_RAW T0.X, T0.X, 0 NO_BARRIER\nCF_END' },
  'r600.rat.id': { src: 'MEM_RAT_CACHELESS STORE_RAW T0.X, T0.X, 0 RAT_ID:3\nCF_END' },
  'r600.mem.out-of-range': { src: `ALU 1, @2, KC0[], KC1[]\nMEM_RAT_CACHELESS STORE_RAW T0.X, T1.X, 0\nCF_END\nPAD\nALU clause starting at 2:\n  MOV * T1.X, literal.x,\n${lit(1 << 20)}` },
  'r600.lds.queue-underflow': { src: 'ALU 0, @2, KC0[], KC1[]\nCF_END\nALU clause starting at 2:\n  MOV * T1.X, OQAP,' },
  'r600.lds.out-of-range': { src: `ALU 2, @2, KC0[], KC1[]\nCF_END\nALU clause starting at 2:\n  MOV * T1.X, literal.x,\n${lit(1 << 20)}\n  LDS_WRITE * T1.X, T0.X,` },
  'r600.lds.queue-overflow': { src: `ALU 16, @2, KC0[], KC1[]\nCF_END\nALU clause starting at 2:\n${Array.from({ length: 17 }, () => '  LDS_READ_RET * OQAP, T0.X').join('\n')}` },
  'r600.alu.pv-undefined': { src: 'ALU 0, @2, KC0[], KC1[]\nCF_END\nALU clause starting at 2:\n  MOV * T1.X, PV.X,' },
  'r600.alu.kcache-unlocked': { src: 'ALU 0, @2, KC0[], KC1[]\nCF_END\nALU clause starting at 2:\n  MOV * T1.X, KC0[0].X,' },
  'r600.alu.gpr-out-of-range': { src: `ALU 2, @2, KC0[], KC1[]\nCF_END\nALU clause starting at 2:\n  MOVA_INT * AR.x (MASKED), literal.x,\n${lit(200)}\n  MOV * T1.X, T(0 + AR.x).X+,` },
  'r600.alu.slot-conflict': { src: `ALU 1, @2, KC0[], KC1[]\nCF_END\nALU clause starting at 2:\n  RECIP_IEEE   T1.X, T0.X,\n  SIN * T1.Y, T0.X,` },
  'r600.alu.interp': { src: 'ALU 0, @2, KC0[], KC1[]\nCF_END\nALU clause starting at 2:\n  INTERP_LOAD_P0 * T1.X, T0.X,' },
  'r600.alu.f64-pair': { src: 'ALU 0, @2, KC0[], KC1[]\nCF_END\nALU clause starting at 2:\n  ADD_64 * T1.X, T0.X, T0.Y,' },
  'r600.mem.array-size': { src: 'MEM_RING WRITE_IND T0.X, T0.X BASE:0 SIZE:1\nCF_END' },
  'r600.cf.cfconst-unused': { src: 'NOP @0 CF_CONST:4\nCF_END' },
  'r600.rat.ack-without-wait': { src: 'MEM_RAT_CACHELESS STORE_RAW T0.X, T0.X, 0 TYPE:3\nCF_END' },
  'r600.runaway': { src: 'LOOP_START_DX10 @3\nALU 0, @4, KC0[], KC1[]\nEND_LOOP @1\nCF_END\nALU clause starting at 4:\n  ADD_INT * T2.X, T2.X, 1,', opts: { maxInstructions: 500 } },
  'r600.cf.stack-overflow': { src: 'LOOP_START_DX10 @4\nLOOP_START_DX10 @3\nEND_LOOP @2\nEND_LOOP @1\nCF_END', opts: { stackSize: 1, maxInstructions: 50 } },
};

for (const [id, c] of Object.entries(CASES)) {
  test(`${id} fires`, () => {
    const r = runAsm(c.src, { globalBytes: 1024, ...c.opts });
    assert.ok(ids(r.diag).includes(id), `${id} not in ${JSON.stringify(ids(r.diag))}`);
    const d = r.diag.list.find((x) => x.id === id)!;
    assert.equal(d.seed, '003_ea00a3a93da820dc.txt');
    assert.ok(d.message.length > 0);
  });
}

test('GROUP_BARRIER waits for every wave of the group; a wave that ends first is reported', () => {
  // Two waves; every work-item writes its id to LDS, barrier, then reads its mirror.
  const src = `
    ALU 7, @2, KC0[], KC1[]
    CF_END
    ALU clause starting at 2:
      LSHL * T1.X, T0.X, literal.x,
    ${lit(2)}
      LDS_WRITE * T1.X, T0.X,
      GROUP_BARRIER
      SUB_INT * T2.X, literal.x, T1.X,
    ${lit(127 * 4)}
      LDS_READ_RET * OQAP, T2.X
      MOV * T3.X, OQAP,`;
  for (const order of ['roundrobin', 'random'] as const) {
    const r = runAsm(src, { lanes: 128, order, seed: 3 });
    assert.deepEqual(ids(r.diag), []);
    assert.deepEqual(r.reg(3, 0, 0), Array.from({ length: 64 }, (_, l) => 127 - l));
    assert.deepEqual(r.reg(3, 0, 1), Array.from({ length: 64 }, (_, l) => 63 - l));
  }
  // Wave 1 (items 64..127) skips the barrier clause: its items are disabled by a branch on T0.X < 64.
  const skip = `
    ALU_PUSH_BEFORE 1, @4, KC0[], KC1[]
    JUMP @3 POP:1
    ALU 0, @6, KC0[], KC1[]
    CF_END
    ALU clause starting at 4:
      PRED_SETGT_INT * ExecMask,PredicateBit (MASKED), literal.x, T0.X,
    ${lit(64)}
    ALU clause starting at 6:
      GROUP_BARRIER`;
  const r = runAsm(skip, { lanes: 128 });
  assert.deepEqual(ids(r.diag), ['r600.barrier.wave-ended']);
});

test('strict mode stops at the first diagnostic', () => {
  assert.throws(() => runAsm('POP @0 POP:1\nCF_END', { diag: new Diagnostics({ strict: true }) }), StrictStop);
});

test('WAIT_ACK covers RAT writes with ACK', () => {
  assert.deepEqual(ids(runAsm('MEM_RAT_CACHELESS STORE_RAW T0.X, T0.X, 0 TYPE:3\nWAIT_ACK @0\nCF_END', { globalBytes: 1024 }).diag), []);
});

test('a clean program raises nothing', () => {
  const r = runAsm(`ALU 1, @2, KC0[], KC1[]\nCF_END\nALU clause starting at 2:\n  MOV * T1.X, literal.x,\n${lit(5)}`);
  assert.deepEqual(ids(r.diag), []);
});
