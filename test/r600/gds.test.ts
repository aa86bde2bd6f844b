/**
 * GDS (Evergreen/Cayman global data share, 64 KiB shared by every work-item of a dispatch): MEM_GDS
 * words decode, print and assemble (gpusim's syntax: LLVM 19 never emits GDS, so these are
 * assembly tests), and GDS clauses execute per work-item in lane order with returns through
 * DST_SEL. T0.X holds each work-item's local id, T1.X its group id.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { InputError } from '../../src/core/errors.js';
import { mulberry32 } from '../../src/runtime/manifest.js';
import { assembleGds } from '../../src/r600/isa/asm.js';
import { decodeGds } from '../../src/r600/isa/decode.js';
import { GDS_OPS } from '../../src/r600/isa/opcodes.gen.js';
import { printGds } from '../../src/r600/isa/print.js';
import { ids, lit, runAsm } from './helpers.js';

const err = (m: string): never => {
  throw new InputError(m);
};

/** T2.X = address, T2.Y = data0, T2.Z = data1 (from literals or lane-dependent code), then one GDS clause. */
function gdsProgram(setup: string[], gds: string[], setupSlots: number): string {
  const gdsAt = 4 + setupSlots + ((4 + setupSlots) & 1);
  return [
    `ALU ${setupSlots - 1}, @4, KC0[], KC1[]`,
    `GDS ${gds.length - 1} @${gdsAt}`,
    'CF_END',
    'PAD',
    'ALU clause starting at 4:',
    ...setup,
    `GDS clause starting at ${gdsAt}:`,
    ...gds,
  ].join('\n');
}

const u32 = (g: Uint8Array, byte: number): number => new DataView(g.buffer, g.byteOffset).getUint32(byte, true);

test('every GDS op prints and re-assembles to the same 128 bits', () => {
  for (const op of GDS_OPS) {
    const line = `${op.name} T5.X1_0, T2.XYZ UAV:3 ALLOC_CONSUME`;
    const w = assembleGds(line, err);
    const g = decodeGds(0, ...w);
    assert.equal(g.op?.name, op.name);
    assert.equal(printGds(g), line);
    assert.deepEqual(assembleGds(printGds(g), err), w);
  }
});

test('random MEM_GDS words print, and the text assembles back to the same words', () => {
  const r = mulberry32(7);
  const w = (): number => Math.floor(r() * 4294967296) >>> 0;
  for (let i = 0; i < 5000; i++) {
    const words = [w(), w(), w(), w()] as const;
    const g = decodeGds(0, ...words);
    const text = printGds(g);
    const again = assembleGds(text, err);
    assert.equal(printGds(decodeGds(0, ...again)), text);
    assert.deepEqual([...again], [...words].map((x) => x >>> 0), text);
  }
});

test('GDS_ADD_RET hands out unique slots across workgroups and leaves the total in GDS', () => {
  const src = gdsProgram(['  MOV * T2.X, literal.x,', lit(16), '  MOV * T2.Y, 1,'], ['  GDS_ADD_RET T3.X___, T2.XY_'], 3);
  const gds = new Uint8Array(64 * 1024);
  const r = runAsm(src, { grid: [256, 1, 1], block: [64, 1, 1], gds, order: 'random', seed: 5 });
  assert.deepEqual(ids(r.diag), []);
  assert.equal(u32(gds, 16), 256);
  const got = r.waves.flatMap((_, k) => r.reg(3, 0, k)).sort((a, b) => a - b);
  assert.deepEqual(got, Array.from({ length: 256 }, (_, i) => i));
  // Lane order inside a wave: the wave that ran first got 0..63 in lane order.
  const w0 = r.waves.map((_, k) => r.reg(3, 0, k)).find((v) => v[0] === 0)!;
  assert.deepEqual(w0, Array.from({ length: 64 }, (_, l) => l));
});

test('GDS persists across dispatches and GDS_WRITE / GDS_READ_RET see other work-items', () => {
  const gds = new Uint8Array(64 * 1024);
  // Dispatch 1: item l writes 3*l+1 at byte 4*l.
  const w = gdsProgram(['  LSHL * T2.X, T0.X, literal.x,', lit(2), '  MULLO_INT * T2.Y, T0.X, literal.x,', lit(3), '  ADD_INT * T2.Y, PS, 1,'], ['  GDS_WRITE T3.____, T2.XY_'], 5);
  assert.deepEqual(ids(runAsm(w, { gds }).diag), []);
  // Dispatch 2: item l reads byte 4*(63-l), and (READ2) the pair at 4*(62-l & ~1).
  const rd = gdsProgram(['  SUB_INT * T2.X, literal.x, T0.X,', lit(63), '  LSHL * T2.X, PV.X, literal.x,', lit(2)], ['  GDS_READ_RET T3.X___, T2.X__', '  GDS_READ2_RET T4.XY01, T2.X__'], 4);
  const r = runAsm(rd, { gds });
  assert.deepEqual(ids(r.diag), []);
  assert.deepEqual(r.reg(3, 0), Array.from({ length: 64 }, (_, l) => 3 * (63 - l) + 1));
  assert.deepEqual(r.reg(4, 1), Array.from({ length: 64 }, (_, l) => (l === 0 ? 0 : 3 * (64 - l) + 1)));
  assert.deepEqual(r.reg(4, 2), Array(64).fill(0));
  assert.deepEqual(r.reg(4, 3), Array(64).fill(0x3f800000));
});

test('GDS read-modify-write ops match a CPU reference over 64 lanes in lane order', () => {
  // data0 = lane - 20 (as a 32-bit pattern), data1 = lane * 7; every lane hits byte 8, which starts at 1000.
  const ref: Record<string, (o: number, b: number, c: number) => number> = {
    GDS_ADD_RET: (o, b) => (o + b) >>> 0,
    GDS_SUB_RET: (o, b) => (o - b) >>> 0,
    GDS_RSUB_RET: (o, b) => (b - o) >>> 0,
    GDS_MIN_INT_RET: (o, b) => ((o | 0) < (b | 0) ? o : b),
    GDS_MAX_UINT_RET: (o, b) => Math.max(o, b),
    GDS_AND_RET: (o, b) => (o & b) >>> 0,
    GDS_OR_RET: (o, b) => (o | b) >>> 0,
    GDS_XOR_RET: (o, b) => (o ^ b) >>> 0,
    GDS_INC_RET: (o, b) => (o >= b ? 0 : o + 1),
    GDS_DEC_RET: (o, b) => (o === 0 || o > b ? b : o - 1),
    GDS_XCHG_RET: (_o, b) => b,
    GDS_MSKOR_RET: (o, b, c) => ((o & ~b) | c) >>> 0,
    GDS_CMP_XCHG_RET: (o, b, c) => (o === b ? c : o),
  };
  for (const [name, f] of Object.entries(ref)) {
    const gds = new Uint8Array(64 * 1024);
    new DataView(gds.buffer).setUint32(8, 1000, true);
    const src = gdsProgram(
      ['  MOV * T2.X, literal.x,', lit(8), '  ADD_INT * T2.Y, T0.X, literal.x,', lit(-20), '  MULLO_INT * T2.Z, T0.X, literal.x,', lit(7)],
      [`  ${name} T3.X___, T2.XYZ`],
      6,
    );
    const r = runAsm(src, { gds });
    assert.deepEqual(ids(r.diag), [], name);
    let m = 1000;
    const want: number[] = [];
    for (let l = 0; l < 64; l++) {
      want.push(m);
      m = f(m, (l - 20) >>> 0, l * 7) >>> 0;
    }
    assert.deepEqual(r.reg(3, 0), want, name);
    assert.equal(u32(gds, 8), m, name);
  }
});

test('GDS clauses honour the active mask, BCAST_FIRST_REQ and masked destination channels', () => {
  // Only items with T0.X > 40 run the GDS clause (inside a branch).
  const src = [
    'ALU_PUSH_BEFORE 2, @6, KC0[], KC1[]',
    'GDS 0 @10',
    'POP @4 POP:1',
    'GDS 0 @12',
    'CF_END',
    'PAD',
    'ALU clause starting at 6:',
    '  MOV * T2.Y, 1,',
    '  PRED_SETGT_INT * ExecMask,PredicateBit (MASKED), T0.X, literal.x,',
    lit(40),
    'GDS clause starting at 10:',
    '  GDS_ADD_RET T3.X___, T2.XY_',
    'GDS clause starting at 12:',
    '  GDS_ADD_RET T4._X__, T2.XY_ BCAST_FIRST',
  ].join('\n');
  const gds = new Uint8Array(64 * 1024);
  const r = runAsm(src, { gds });
  assert.deepEqual(ids(r.diag), []);
  assert.deepEqual(r.reg(3, 0), Array.from({ length: 64 }, (_, l) => (l > 40 ? l - 41 : 0)));
  // BCAST_FIRST_REQ: one add for the whole wave, every item sees the same old value.
  assert.deepEqual(r.reg(4, 1), Array(64).fill(23));
  assert.deepEqual(r.reg(4, 0), Array(64).fill(0));
  assert.equal(u32(gds, 0), 24);
});

test('GDS diagnostics: out of range, unsupported, unknown, and TF_WRITE outside tessellation', () => {
  const oor = runAsm(gdsProgram(['  MOV * T2.X, literal.x,', lit(65536)], ['  GDS_WRITE T3.____, T2.XY_'], 2));
  assert.deepEqual(ids(oor.diag), ['r600.gds.out-of-range']);
  const edge = runAsm(gdsProgram(['  MOV * T2.X, literal.x,', lit(65532)], ['  GDS_WRITE T3.____, T2.XY_'], 2));
  assert.deepEqual(ids(edge.diag), [], 'the last dword is in range');
  assert.deepEqual(ids(runAsm(gdsProgram(['  MOV * T2.X, 0.0,'], ['  GDS_WRITE_REL T3.____, T2.XYZ'], 1)).diag), ['r600.gds.unsupported']);
  assert.deepEqual(ids(runAsm(gdsProgram(['  MOV * T2.X, 0.0,'], ['  GDS_ADD T3.____, T2.XY_ MEM_OP:3'], 1)).diag), ['r600.gds.unknown']);
  assert.deepEqual(ids(runAsm(gdsProgram(['  MOV * T2.X, 0.0,'], ['  GDS_ADD T3.____, T2.XY_ MEM_OP:5'], 1)).diag), ['r600.cf.not-in-compute']);
});
