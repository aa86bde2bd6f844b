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

// --- LRZ in draws: a depth scene (examples/msaa at 1 sample, the near triangle drawn first) ---

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { a6xxSceneDescription } from '../../src/runtime/draw-a6xx.js';
import { buildDraw } from '../../src/adreno/driver/sysmem.js';
import { drawRuns } from '../../src/adreno/cp/handlers-gfx.js';

const EX = join(import.meta.dirname, '..', '..', '..', 'examples', 'msaa');

function depthScene(lrz: ((cs: CmdStream, base: number, fc: number) => void) | undefined, again?: (cs: CmdStream) => void) {
  const s = JSON.parse(readFileSync(join(EX, 'scene.json'), 'utf8')) as Record<string, unknown>;
  const buffers = { ...(s['buffers'] as object), order: { type: 'u16', values: [3, 4, 5, 0, 1, 2] } };
  const scene = { ...s, samples: 1, a6xx: { samples: 1 }, buffers, draws: [{ topology: 'DI_PT_TRILIST', count: 3, indices: 'order', first: 0 }, { topology: 'DI_PT_TRILIST', count: 3, indices: 'order', first: 3 }] };
  const desc = a6xxSceneDescription(scene, EX, 'a630');
  const b = buildDraw(desc);
  const lrzBuf = b.mem.alloc(32 * 2 * 8, 'lrz', 0x1000);
  const fc = b.mem.alloc(1024, 'lrz fc', 0x1000);
  const cs = new CmdStream();
  if (lrz) lrz(cs, lrzBuf.base, fc.base);
  cs.indirectBuffer(b.streamIova, b.stream.length);
  if (again) { again(cs); cs.indirectBuffer(b.streamIova, b.stream.length); }
  const dw = cs.dwords();
  const ib = b.mem.alloc(dw.length * 4, 'ib', 0x1000, new Uint8Array(dw.buffer.slice(0)));
  const diag = new Diagnostics();
  const cp = new CommandProcessor(b.mem, { diag, gpuId: 630 });
  assert.equal(cp.run(ib.base, dw.length), 'done');
  const t = b.targets[0]!;
  return { img: b.mem.readBytes(t.base, t.pitch * 48), ids: diag.list.filter((d) => d.severity !== 'info').map((d) => d.id), lrzKilled: drawRuns(cp).reduce((a, d) => a + (d.result?.lrzKilled ?? 0), 0) };
}

const setup = (extra: Record<string, unknown> = {}) => (cs: CmdStream, base: number, fc: number): void => {
  cs.reg64('GRAS_LRZ_BUFFER_BASE', base).reg('GRAS_LRZ_BUFFER_PITCH', { PITCH: 32 }).reg64('GRAS_LRZ_FAST_CLEAR_BUFFER_BASE', fc);
  cs.reg('GRAS_LRZ_CNTL', { ENABLE: true, FC_ENABLE: true, ...('DISABLE_ON_WRONG_DIR' in extra ? { DISABLE_ON_WRONG_DIR: true } : {}) }).event('LRZ_CLEAR');
  cs.reg('GRAS_LRZ_CNTL', { ENABLE: true, LRZ_WRITE: true, Z_TEST_ENABLE: true, FC_ENABLE: true, DIR: 'LRZ_DIR_LE', ...extra });
};

test('LRZ in draws: a correctly built LRZ rejects hidden fragments before the FS and changes no pixel', () => {
  const plain = depthScene(undefined);
  assert.deepEqual(plain.ids, []);
  const lrz = depthScene(setup());
  assert.deepEqual(lrz.ids, []);
  assert.ok(lrz.lrzKilled > 0, `LRZ rejected ${lrz.lrzKilled} fragments`);
  assert.deepEqual(lrz.img, plain.img);
});

test('LRZ in draws: the other direction without DISABLE_ON_WRONG_DIR loses visible pixels (and says so); with it, LRZ turns off', () => {
  const plain = depthScene(undefined, () => undefined);
  const ge = { ENABLE: true, LRZ_WRITE: true, Z_TEST_ENABLE: true, FC_ENABLE: true, GREATER: true, DIR: 'LRZ_DIR_GE' };
  const wrong = depthScene(setup(), (cs) => cs.reg('GRAS_LRZ_CNTL', ge));
  assert.ok(wrong.ids.includes('adreno.lrz.wrong-direction'));
  assert.notDeepEqual(wrong.img, plain.img);
  const tracked = depthScene(setup({ DISABLE_ON_WRONG_DIR: true, DIR_WRITE: true }), (cs) => cs.reg('GRAS_LRZ_CNTL', { ...ge, DISABLE_ON_WRONG_DIR: true, DIR_WRITE: true }));
  assert.deepEqual(tracked.ids, []);
  assert.deepEqual(tracked.img, plain.img);
});
