/**
 * EXP on gfx1030 (GFX10.3) and gfx900 (GFX9): per-generation target numbering (param0..31,
 * GFX10's pos4 and prim, GFX9 without them), the compr and vm bits as LLVM encodes them, and
 * execution through exp.ts's sink with the generation's target names (a hardware VS's param
 * exports reach the sink as kind 'param'). Encodings are llvm-mc-19's (-show-encoding).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { assembleLine, decodeAt, printInst } from '../../src/amd/isa/target.js';
import { targets } from '../../src/amd/isa/targets.js';
import { setExportSink, type ExportEvent } from '../../src/amd/exec/exp.js';
import { runAsm } from './exec-harness.js';

const gfx9 = targets.gfx900!;
const gfx10 = targets.gfx1030!;

function dw(bytes: number[]): number[] {
  const out: number[] = [];
  for (let i = 0; i < bytes.length; i += 4) out.push((bytes[i]! | (bytes[i + 1]! << 8) | (bytes[i + 2]! << 16) | (bytes[i + 3]! << 24)) >>> 0);
  return out;
}

test('exp encodings per generation (llvm-mc-19): prefix, param targets, compr/vm/done', () => {
  for (const [t, hi] of [[gfx10, 0xf8], [gfx9, 0xc4]] as const) {
    const cases: [string, number[]][] = [
      ['exp mrt0 v1, v2, v3, v4 done vm', [0x0f, 0x18, 0x00, hi, 0x01, 0x02, 0x03, 0x04]],
      ['exp param5 v1, off, v3, off', [0x55, 0x02, 0x00, hi, 0x01, 0x00, 0x03, 0x00]],
      ['exp pos0 v1, v1, v3, v3 compr', [0xcf, 0x04, 0x00, hi, 0x01, 0x03, 0x00, 0x00]],
      ['exp null off, off, off, off', [0x90, 0x00, 0x00, hi, 0x00, 0x00, 0x00, 0x00]],
    ];
    for (const [text, bytes] of cases) {
      assert.deepEqual(assembleLine(t, text), dw(bytes), `${t.mcpu} '${text}'`);
      assert.equal(printInst(t, decodeAt(t, dw(bytes), 0)), text);
    }
    // LLVM's assembler takes positions 0 and 2 of a compressed export (1 and 3 are dropped).
    assert.deepEqual(assembleLine(t, 'exp pos0 v1, v2, v3, v4 compr'), dw([0xcf, 0x04, 0x00, hi, 0x01, 0x03, 0x00, 0x00]));
  }
  // prim and pos4 are GFX10 targets; on GFX9 their numbers are invalid targets.
  assert.deepEqual(assembleLine(gfx10, 'exp prim v1, off, off, off'), dw([0x41, 0x01, 0x00, 0xf8, 0x01, 0x00, 0x00, 0x00]));
  assert.throws(() => assembleLine(gfx9, 'exp prim v1, off, off, off'));
  assert.equal(printInst(gfx9, decodeAt(gfx9, [0xc4000141, 1], 0)), 'exp invalid_target_20 v1, off, off, off');
  assert.throws(() => assembleLine(gfx10, 'exp mrt0 v1, off, off, off row_en'));
});

for (const [t, ws] of [[gfx10, 32], [gfx9, 64]] as const) {
  const run = (src: string, events: ExportEvent[], exec?: number) => runAsm(`${src}\ns_endpgm`, {
    target: t, waveSize: ws, ...(exec !== undefined ? { exec, execHi: 0 } : {}),
    vgpr: { 1: Array.from({ length: ws }, (_, l) => 100 + l), 2: 0x3c004000, 3: Array.from({ length: ws }, (_, l) => l * 3) },
    onWave: (w) => setExportSink(w, { export: (_w, e) => events.push(e) }),
  });

  test(`${t.mcpu}: a param export reaches the stage's sink as kind 'param' with its index and channels`, () => {
    const ev: ExportEvent[] = [];
    const r = run('exp param5 v1, off, v3, off', ev);
    assert.deepEqual(r.diags.map((d) => d.id), []);
    assert.equal(ev.length, 1);
    const e = ev[0]!;
    assert.equal(e.kind, 'param');
    assert.equal(e.index, 5);
    assert.equal(e.en, 0b0101);
    assert.equal(e.compr, false);
    for (const l of [0, 7, ws - 1]) {
      assert.equal(e.data[0 * ws + l], 100 + l);
      assert.equal(e.data[1 * ws + l], 0);
      assert.equal(e.data[2 * ws + l], l * 3);
    }
  });

  test(`${t.mcpu}: a compressed export carries vsrc0 in channels 0/1 and vsrc1 in 2/3; vm and done pass through`, () => {
    const ev: ExportEvent[] = [];
    run('exp mrt0 v2, v2, v1, v1 done compr vm', ev, 0b1011);
    const e = ev[0]!;
    assert.equal(e.kind, 'mrt');
    assert.deepEqual([e.compr, e.vm, e.done, e.en], [true, true, true, 15]);
    assert.equal(e.execLo, 0b1011);
    for (const c of [0, 1]) assert.equal(e.data[c * ws + 0], 0x3c004000);
    for (const c of [2, 3]) assert.equal(e.data[c * ws + 3], 103);
    assert.equal(e.data[2 * ws + 2], 0, 'a lane off in EXEC carries nothing');
  });

  test(`${t.mcpu}: target numbers follow the generation (pos0 = 12, param0 = 32${t === gfx10 ? ', prim = 20' : ''})`, () => {
    const ev: ExportEvent[] = [];
    run(`exp pos0 v1, v1, v1, v1\nexp param0 v1, off, off, off${t === gfx10 ? '\nexp prim v1, off, off, off done' : ''}`, ev);
    assert.deepEqual(ev.map((e) => [e.target, e.kind, e.index]), t === gfx10 ? [[12, 'pos', 0], [32, 'param', 0], [20, 'prim', 0]] : [[12, 'pos', 0], [32, 'param', 0]]);
  });

  test(`${t.mcpu}: exp without a sink reports amd.exp.no-sink; EXEC == 0 skips a param export`, () => {
    const r = runAsm('exp param0 v1, off, off, off\ns_endpgm', { target: t, waveSize: ws });
    assert.deepEqual(r.diags.map((d) => d.id), ['amd.exp.no-sink']);
    const ev: ExportEvent[] = [];
    assert.deepEqual(run('exp param0 v1, off, off, off', ev, 0).diags.map((d) => d.id), []);
    assert.equal(ev.length, 0);
  });
}
