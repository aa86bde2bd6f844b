/**
 * LRZ: the caches in front of the fast-clear buffer and the tracking bytes (LRZ_CLEAR / LRZ_FLUSH),
 * the direction and depth-view checks, the diagnostics, gen3's CP_REG_WRITE TRACK_LRZ.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Memory } from '../../src/core/memory.js';
import { Diagnostics } from '../../src/core/diagnostics.js';
import { CmdStream, Layout } from '../../src/adreno/cp/builder.js';
import { CommandProcessor } from '../../src/adreno/cp/cp.js';
import { CUR_DIR, FC_BYTES, Lrz } from '../../src/adreno/gras/lrz.js';

function run(build: (cs: CmdStream, fc: number) => void, gpuId = 630) {
  const Lay = new Layout();
  const fc = Lay.place(new Uint8Array(FC_BYTES + 6).fill(0xaa), 'fc').iova;
  const cs = new CmdStream().reg64('GRAS_LRZ_FAST_CLEAR_BUFFER_BASE', fc);
  build(cs, fc);
  const ib = Lay.place(cs);
  const mem = new Memory();
  for (const b of Lay.buffers) mem.map(b.iova, Math.max(b.data.length, 4), b.label, b.data.slice());
  const diag = new Diagnostics();
  const cp = new CommandProcessor(mem, { diag, gpuId });
  assert.equal(cp.run(ib.iova, ib.sizeDwords), 'done');
  return { cp, mem, fc, ids: diag.list.filter((x) => x.severity !== 'info').map((x) => x.id) };
}

const CLEAR = { ENABLE: true, FC_ENABLE: true, DISABLE_ON_WRONG_DIR: true };

test('LRZ_CLEAR fills the caches; memory changes only at LRZ_FLUSH', () => {
  const stale = run((cs) => cs.reg('GRAS_LRZ_DEPTH_VIEW', 0x12345).reg('GRAS_LRZ_CNTL', CLEAR).event('LRZ_CLEAR'));
  assert.equal(stale.mem.read8(stale.fc), 0xaa); // no LRZ_FLUSH: still the old bytes
  const { mem, fc, ids } = run((cs) => cs.reg('GRAS_LRZ_DEPTH_VIEW', 0x12345).reg('GRAS_LRZ_CNTL', CLEAR).event('LRZ_CLEAR').event('LRZ_FLUSH'));
  assert.deepEqual(ids, []);
  assert.ok(mem.readBytes(fc, FC_BYTES).every((b) => b === 0));
  assert.equal(mem.read8(fc + 512), CUR_DIR.UNSET);
  assert.equal(mem.read8(fc + 514) | (mem.read8(fc + 515) << 8) | (mem.read8(fc + 516) << 16), 0x12345);
});

test('direction tracking: the first draw sets the byte, the other direction disables LRZ (DISABLE_ON_WRONG_DIR: no diagnostic)', () => {
  const le = { ENABLE: true, LRZ_WRITE: true, DIR: 'LRZ_DIR_LE', DIR_WRITE: true, DISABLE_ON_WRONG_DIR: true };
  const ge = { ...le, GREATER: true, DIR: 'LRZ_DIR_GE' };
  const one = run((cs) => cs.reg('GRAS_LRZ_CNTL', CLEAR).event('LRZ_CLEAR').reg('GRAS_LRZ_CNTL', le).drawAuto('DI_PT_TRILIST', 3).event('LRZ_FLUSH'));
  assert.deepEqual(one.ids, []);
  assert.equal(one.mem.read8(one.fc + 512), CUR_DIR.LE);
  const two = run((cs) => cs.reg('GRAS_LRZ_CNTL', CLEAR).event('LRZ_CLEAR').reg('GRAS_LRZ_CNTL', le).drawAuto('DI_PT_TRILIST', 3).reg('GRAS_LRZ_CNTL', ge).drawAuto('DI_PT_TRILIST', 3).event('LRZ_FLUSH'));
  assert.deepEqual(two.ids, []);
  assert.equal(two.mem.read8(two.fc + 512), CUR_DIR.DISABLED);
  assert.equal(two.cp.lrz.stats.disabledDraws, 1);
  // A different depth view disables LRZ for the draw.
  const view = run((cs) => cs.reg('GRAS_LRZ_DEPTH_VIEW', 1).reg('GRAS_LRZ_CNTL', CLEAR).event('LRZ_CLEAR').reg('GRAS_LRZ_DEPTH_VIEW', 2).reg('GRAS_LRZ_CNTL', le).drawAuto('DI_PT_TRILIST', 3));
  assert.equal(view.cp.lrz.stats.disabledDraws, 1);
});

test('wrong direction without DISABLE_ON_WRONG_DIR fires; the same direction stays quiet', () => {
  const le = { ENABLE: true, LRZ_WRITE: true, DIR: 'LRZ_DIR_LE' };
  const ge = { ENABLE: true, LRZ_WRITE: true, GREATER: true, DIR: 'LRZ_DIR_GE' };
  const bad = run((cs) => cs.reg('GRAS_LRZ_CNTL', { FC_ENABLE: true }).event('LRZ_CLEAR').reg('GRAS_LRZ_CNTL', le).drawAuto('DI_PT_TRILIST', 3).reg('GRAS_LRZ_CNTL', ge).drawAuto('DI_PT_TRILIST', 3));
  assert.deepEqual(bad.ids, ['adreno.lrz.wrong-direction']);
  const ok = run((cs) => cs.reg('GRAS_LRZ_CNTL', { FC_ENABLE: true }).event('LRZ_CLEAR').reg('GRAS_LRZ_CNTL', le).drawAuto('DI_PT_TRILIST', 3).drawAuto('DI_PT_TRILIST', 3).event('LRZ_CLEAR').reg('GRAS_LRZ_CNTL', ge).drawAuto('DI_PT_TRILIST', 3));
  assert.deepEqual(ok.ids, []);
  const mism = run((cs) => cs.reg('GRAS_LRZ_CNTL', { ENABLE: true, GREATER: true, DIR: 'LRZ_DIR_LE' }).drawAuto('DI_PT_TRILIST', 3));
  assert.deepEqual(mism.ids, ['adreno.lrz.dir-mismatch']);
});

test('gen3 (a650): LRZ registers need CP_REG_WRITE TRACK_LRZ, which flushes on a direction change', () => {
  const plain = run((cs) => cs.reg('GRAS_LRZ_CNTL', { ENABLE: true }), 650);
  assert.deepEqual(plain.ids, ['adreno.lrz.track-quirk']);
  assert.deepEqual(run((cs) => cs.reg('GRAS_LRZ_CNTL', { ENABLE: true })).ids, []); // a630: fine
  const tracked = run((cs, fc) => {
    void fc;
    const R = cs; // CP_REG_WRITE: TRACKER, register, value
    R.pkt('CP_REG_WRITE', [8, 0x8100, 0x1 | (1 << 3) | (1 << 9)]).event('LRZ_CLEAR');
    R.pkt('CP_REG_WRITE', [8, 0x8100, 0x1 | (1 << 2) | (2 << 6)]); // GREATER changes: flush
  }, 650);
  assert.deepEqual(tracked.ids, []);
  assert.equal(tracked.mem.read8(tracked.fc), 0); // the clear reached memory through TRACK_LRZ's flush
});

test('block test and update: fast-cleared blocks read 1.0 (LESS) / 0.0 (GREATER); updates tighten the bound', () => {
  const bytes = new Uint8Array(0x2000);
  const l = new Lrz({ readBytes: (a, n) => bytes.slice(a, a + n), writeBytes: (a, b) => bytes.set(b, a), report: () => assert.fail('no diagnostics') });
  const cntl = { ENABLE: 1, LRZ_WRITE: 1, GREATER: 0, FC_ENABLE: 1, Z_TEST_ENABLE: 1, DIR: 1, DIR_WRITE: 0, DISABLE_ON_WRONG_DIR: 0 };
  bytes.fill(0x11, 0x1000, 0x1100);
  assert.equal(l.value(0x1000, 32, 0x100, true, false, 3, 2), 0xffff);
  assert.equal(l.value(0x1000, 32, 0x100, true, true, 3, 2), 0);
  assert.ok(l.test(0x1000, 32, 0x100, cntl, 3, 2, 0x9000, 0xa000));
  l.update(0x1000, 32, 0x100, cntl, 3, 2, 0x4000);
  assert.ok(l.fcBit(0x100, 32, 3, 2));
  assert.ok(!l.test(0x1000, 32, 0x100, cntl, 3, 2, 0x9000, 0xa000)); // behind the bound: rejected
  assert.ok(l.test(0x1000, 32, 0x100, cntl, 3, 2, 0x3000, 0x5000));
});
