/**
 * Caches (seed 004 "Caches"): the CP reads memory uncached, so what the RB wrote through the CCU
 * is invisible to it until the flush event; the TP's L1 keeps what it read until CACHE_INVALIDATE.
 * Stale bytes are observable (CP_MEMCPY copies them) and the missing event is named.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Memory } from '../../src/core/memory.js';
import { Diagnostics } from '../../src/core/diagnostics.js';
import { CmdStream, Layout } from '../../src/adreno/cp/builder.js';
import { CommandProcessor } from '../../src/adreno/cp/cp.js';
import { enumValue } from '../../src/adreno/regs/db.js';
import { emitGmemPass } from '../../src/adreno/rb/gmem-pass.js';
import { binLayout } from '../../src/adreno/vsc/vsc.js';

const OP = enumValue('cp_blit_cmd', 'BLIT_OP_SCALE', 'a6xx')!;
const RGBA8 = 'FMT6_8_8_8_8_UNORM';

function solid(cs: CmdStream, dst: number, w: number, h: number, c: number[]): CmdStream {
  const cntl = { SOLID_COLOR: true, COLOR_FORMAT: RGBA8, IFMT: 'R2D_UNORM8' };
  return cs.reg('GRAS_2D_BLIT_CNTL', cntl).reg('RB_2D_BLIT_CNTL', cntl).reg('GRAS_2D_DST_TL', { X: 0, Y: 0 }).reg('GRAS_2D_DST_BR', { X: w - 1, Y: h - 1 })
    .reg('RB_2D_DST_INFO', { COLOR_FORMAT: RGBA8, TILE_MODE: 'TILE6_LINEAR' }).reg64('RB_2D_DST', dst).reg('RB_2D_DST_PITCH', 1).regs32('RB_2D_SRC_SOLID_C0', c).pkt('CP_BLIT', [OP]);
}

function copy(cs: CmdStream, src: number, dst: number, w: number, h: number): CmdStream {
  const cntl = { COLOR_FORMAT: RGBA8, IFMT: 'R2D_UNORM8' };
  return cs.reg('GRAS_2D_BLIT_CNTL', cntl).reg('RB_2D_BLIT_CNTL', cntl).reg('GRAS_2D_DST_TL', { X: 0, Y: 0 }).reg('GRAS_2D_DST_BR', { X: w - 1, Y: h - 1 })
    .reg('RB_2D_DST_INFO', { COLOR_FORMAT: RGBA8, TILE_MODE: 'TILE6_LINEAR' }).reg64('RB_2D_DST', dst).reg('RB_2D_DST_PITCH', 1)
    .reg('GRAS_2D_SRC_TL_X', 0).reg('GRAS_2D_SRC_TL_Y', 0).reg('GRAS_2D_SRC_BR_X', (w - 1) << 8).reg('GRAS_2D_SRC_BR_Y', (h - 1) << 8)
    .reg('SP_PS_2D_SRC_INFO', { COLOR_FORMAT: RGBA8, TILE_MODE: 'TILE6_LINEAR' }).reg('SP_PS_2D_SRC_SIZE', { WIDTH: w, HEIGHT: h }).reg64('SP_PS_2D_SRC', src).reg('SP_PS_2D_SRC_PITCH', { PITCH: 64 })
    .pkt('CP_BLIT', [OP]);
}

function run(build: (cs: CmdStream, a: number, b: number, out: number) => void) {
  const L = new Layout();
  const a = L.reserve(64 * 4, 'a'), b = L.reserve(64 * 4, 'b'), out = L.reserve(256, 'out');
  const cs = new CmdStream();
  build(cs, a, b, out);
  const ib = L.place(cs);
  const mem = new Memory();
  for (const x of L.buffers) mem.map(x.iova, Math.max(x.data.length, 4), x.label, x.data.slice());
  const diag = new Diagnostics();
  const cp = new CommandProcessor(mem, { diag });
  assert.equal(cp.run(ib.iova, ib.sizeDwords), 'done');
  return { mem, out, ids: diag.list.filter((d) => d.severity !== 'info').map((d) => d.id), msgs: diag.list.map((d) => d.message) };
}

test('the CP does not see a CP_BLIT destination until PC_CCU_FLUSH_COLOR_TS', () => {
  const stale = run((cs, a, _b, out) => { solid(cs, a, 4, 2, [0x11, 0x22, 0x33, 0x44]); cs.memcpy(out, a, 1); });
  assert.deepEqual(stale.ids, ['adreno.cache.stale-read']);
  assert.ok(stale.msgs.some((m) => m.includes('PC_CCU_FLUSH_COLOR_TS')));
  assert.equal(stale.mem.read32(stale.out), 0); // the old bytes
  const ok = run((cs, a, _b, out) => { solid(cs, a, 4, 2, [0x11, 0x22, 0x33, 0x44]); cs.event('PC_CCU_FLUSH_COLOR_TS').memcpy(out, a, 1); });
  assert.deepEqual(ok.ids, []);
  assert.equal(ok.mem.read32(ok.out), 0x44332211);
  // The wrong flush (depth) does not help.
  const wrong = run((cs, a, _b, out) => { solid(cs, a, 4, 2, [1, 2, 3, 4]); cs.event('PC_CCU_FLUSH_DEPTH_TS').event('CACHE_FLUSH_TS').memcpy(out, a, 1); });
  assert.deepEqual(wrong.ids, ['adreno.cache.stale-read']);
});

test('a GMEM resolve reaches the CP only after PC_CCU_RESOLVE_TS', () => {
  const pass = (extra: boolean) => run((cs, a, b, out) => {
    const L = binLayout({ width: 16, height: 4, cpps: [4], budget: 1 << 19, alignW: 32, alignH: 16, maxW: 1024, maxH: 1008, numPipes: 32 });
    // The pass ends with PC_CCU_RESOLVE_TS: its resolve into a is visible.
    emitGmemPass(cs, { gpuId: 630, layout: L, targets: [{ iova: a, pitch: 64, format: RGBA8, clear: { dw: [0x01020304] } }] });
    cs.memcpy(out, a, 1);
    // A second resolve of the same GMEM into b with no PC_CCU_RESOLVE_TS after it.
    if (extra) cs.setMarker('RM6_GMEM').reg('RB_BLIT_INFO', 0).reg('RB_BLIT_DST_INFO', { COLOR_FORMAT: RGBA8 }).reg64('RB_BLIT_DST', b).reg('RB_BLIT_DST_PITCH', 1).reg('RB_BLIT_BASE_GMEM', 0).event('BLIT').memcpy(out + 4, b, 1);
  });
  const good = pass(false);
  assert.deepEqual(good.ids, []);
  assert.equal(good.mem.read32(good.out), 0x01020304);
  const bad = pass(true);
  assert.deepEqual(bad.ids, ['adreno.cache.stale-read']);
  assert.equal(bad.mem.read32(bad.out), 0x01020304);
  assert.equal(bad.mem.read32(bad.out + 4), 0); // b's old bytes
});

test('the TP L1 keeps a source it read until CACHE_INVALIDATE', () => {
  const build = (inv: boolean) => (cs: CmdStream, a: number, b: number): void => {
    solid(cs, a, 4, 1, [1, 2, 3, 4]).event('PC_CCU_FLUSH_COLOR_TS');
    copy(cs, a, b, 4, 1).event('PC_CCU_FLUSH_COLOR_TS'); // a is now in L1
    solid(cs, a, 4, 1, [9, 9, 9, 9]).event('PC_CCU_FLUSH_COLOR_TS'); // a rewritten
    if (inv) cs.event('CACHE_INVALIDATE');
    copy(cs, a, b, 4, 1);
  };
  const bad = run(build(false));
  assert.deepEqual(bad.ids, ['adreno.cache.stale-l1']);
  assert.ok(bad.msgs.some((m) => m.includes('CACHE_INVALIDATE')));
  assert.deepEqual(run(build(true)).ids, []);
});

test('RBBM perf counters: the selected countables count CP_BLITs, their pixels and draws', () => {
  const r = run((cs, a, b, out) => {
    cs.reg('PC_PERFCTR_PC_SEL[0]', enumValue('a6xx_pc_perfcounter_select', 'PERF_PC_2D_DRAWCALLS', 'a6xx')!);
    cs.reg('PC_PERFCTR_PC_SEL[1]', enumValue('a6xx_pc_perfcounter_select', 'PERF_PC_3D_DRAWCALLS', 'a6xx')!);
    cs.reg('RB_PERFCTR_RB_SEL[2]', enumValue('a6xx_rb_perfcounter_select', 'PERF_RB_2D_VALID_PIXELS', 'a6xx')!);
    cs.reg('TPL1_PERFCTR_TP_SEL[5]', enumValue('a6xx_tp_perfcounter_select', 'PERF_TP_2D_OUTPUT_PIXELS', 'a6xx')!);
    solid(cs, a, 4, 2, [1, 2, 3, 4]);
    solid(cs, b, 3, 3, [1, 2, 3, 4]);
    cs.event('PC_CCU_FLUSH_COLOR_TS');
    copy(cs, a, b, 4, 1);
    cs.drawAuto('DI_PT_TRILIST', 3);
    cs.regToMem('RBBM_PERFCTR_PC[0]', out, 4).regToMem('RBBM_PERFCTR_RB[2]', out + 16, 2).regToMem('RBBM_PERFCTR_TP[5]', out + 24, 2);
  });
  // Three blits (8 + 9 + 4 pixels); only the copy's 4 pixels come through the TP.
  assert.deepEqual([0, 1, 2, 3, 4, 6].map((k) => r.mem.read32(r.out + 4 * k)), [3, 0, 1, 0, 8 + 9 + 4, 4]);
});

test('a CP write over CCU-held data is what the CP reads back', () => {
  const r = run((cs, a, _b, out) => { solid(cs, a, 4, 2, [1, 2, 3, 4]); cs.memWrite(a, [0xabcd]).memcpy(out, a, 2); });
  assert.equal(r.mem.read32(r.out), 0xabcd); // its own write
  assert.equal(r.mem.read32(r.out + 4), 0); // the next pixel: still the CCU's, unflushed
  assert.deepEqual(r.ids, ['adreno.cache.stale-read']);
});
