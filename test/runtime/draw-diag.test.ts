/**
 * Every diagnostic the draw pipeline reports fires on a scene that breaks its rule (registers
 * overridden through state.registers, or a shader changed), and the clean scenes of
 * draw.test.ts show they stay quiet.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runScene } from '../../src/runtime/draw-scene.js';
import { Pm4Builder } from '../../src/amd/cp/builder.js';
import { CommandProcessor } from '../../src/amd/cp/cp.js';
import { Memory } from '../../src/core/memory.js';
import { Diagnostics } from '../../src/core/diagnostics.js';
import { GfxPipeline } from '../../src/amd/gfx/pipeline.js';
import { regDb } from '../../src/amd/cp/regdb.js';
import { encodeFields } from '../../src/amd/gfx/regs.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const EX = join(ROOT, 'examples/triangle');
const base = JSON.parse(readFileSync(join(EX, 'scene.json'), 'utf8')) as Record<string, unknown>;
const VS = readFileSync(join(EX, 'vs.s'), 'utf8').split('\n');
const db = regDb('gfx11');
const E = (r: string, f: Record<string, number | string>): number => encodeFields(db, r, f);

function ids(patch: (s: Record<string, unknown>) => void): string[] {
  const s = JSON.parse(JSON.stringify(base)) as Record<string, unknown>;
  patch(s);
  return [...runScene(s, EX).diag.counts.keys()];
}
const regs = (r: Record<string, number>) => (s: Record<string, unknown>): void => { s.state = { ...(s.state as object), registers: r }; };

test('the triangle example is clean', () => {
  assert.deepEqual(ids(() => {}), []);
});

test('CB: unmodelled colour formats and dual-source blend factors', () => {
  assert.ok(ids(regs({ CB_COLOR0_INFO: E('CB_COLOR0_INFO', { FORMAT: 'COLOR_5_6_5', NUMBER_TYPE: 'NUMBER_UNORM' }) })).includes('amd.cb.format-unsupported'));
  assert.ok(ids(regs({ CB_BLEND0_CONTROL: E('CB_BLEND0_CONTROL', { ENABLE: 1, COLOR_SRCBLEND: 'BLEND_SRC1_COLOR', COLOR_DESTBLEND: 'BLEND_ZERO' }) })).includes('amd.cb.blend-factor-unsupported'));
});

test('DB: an unmodelled depth format', () => {
  assert.ok(ids((s) => {
    s.depth = { format: 'Z_32_FLOAT', clear: 1 };
    regs({ DB_Z_INFO: E('DB_Z_INFO', { FORMAT: 'Z_24' }) })(s);
  }).includes('amd.db.format-unsupported'));
});

test('SPI/GE: program address in no shader, legacy (non-NGG) GFX11 draws, subgroups too small for a primitive', () => {
  assert.ok(ids(regs({ SPI_SHADER_PGM_LO_PS: 0x1234 })).includes('amd.spi.no-code'));
  assert.ok(ids(regs({ VGT_SHADER_STAGES_EN: 0 })).includes('amd.ge.not-ngg'));
  assert.ok(ids(regs({ GE_CNTL: E('GE_CNTL', { VERTS_PER_SUBGRP: 2, PRIMS_PER_SUBGRP: 32 }) })).includes('amd.ge.subgroup-too-small'));
});

test('NGG: GS_ALLOC_REQ twice, a primitive naming a vertex with no position', () => {
  const twice = VS.map((l) => (l.startsWith('s_sendmsg') ? `${l}\n${l}` : l));
  assert.ok(ids((s) => { s.shaders = { ...(s.shaders as object), vs: { source: twice } }; }).includes('amd.ngg.alloc-req-twice'));
  // Export the position of lane 0 only: the primitive names vertices 1 and 2 too.
  const onePos = VS.map((l) => (l.startsWith('exp pos0') ? 's_mov_b32 s21, exec_lo\ns_mov_b32 exec_lo, 1\nexp pos0 v10, v11, v12, v13\ns_mov_b32 exec_lo, s21' : l));
  assert.ok(ids((s) => { s.shaders = { ...(s.shaders as object), vs: { source: onePos } }; }).includes('amd.ngg.prim-vertex-not-exported'));
});

test('GE: an index buffer in unmapped memory reads 0 and is reported', () => {
  const mem = new Memory();
  const diag = new Diagnostics();
  const pipe = new GfxPipeline('gfx11', mem, diag, []);
  const cp = new CommandProcessor({ gen: 'gfx11', mem, diag, analyse: false, onDraw: (r) => pipe.draw(r) });
  const b = new Pm4Builder('gfx11');
  b.setContextReg('VGT_SHADER_STAGES_EN', E('VGT_SHADER_STAGES_EN', { PRIMGEN_EN: 1 }));
  b.setUconfigReg('VGT_PRIMITIVE_TYPE', 4).indexType(1).drawIndex2(3, 0x9990_0000, 3);
  cp.run(b.finish());
  assert.ok(diag.counts.has('amd.ge.index-fetch-fault'));
  // ... and with no shader at the (zero) program address the stage reports it.
  assert.ok(diag.counts.has('amd.spi.no-code'));
});

test('GFX9/GFX10.3 draws of unmodelled stage setups (tessellation, legacy GS, GFX9 NGG) are recorded, not executed', () => {
  for (const [gen, stages] of [['gfx9', { GS_EN: 1 }], ['gfx9', { PRIMGEN_EN: 1 }], ['gfx103', { HS_EN: 1 }], ['gfx103', { VS_EN: 2 }]] as const) {
    const mem = new Memory();
    const diag = new Diagnostics();
    const pipe = new GfxPipeline(gen, mem, diag, []);
    const cp = new CommandProcessor({ gen, mem, diag, analyse: false, onDraw: (r) => pipe.draw(r) });
    const b = new Pm4Builder(gen);
    cp.run(b.setContextReg('VGT_SHADER_STAGES_EN', encodeFields(b.db, 'VGT_SHADER_STAGES_EN', stages)).drawIndexAuto(3).finish());
    assert.ok(diag.counts.has('amd.draw.gen-not-executed'), `${gen} ${JSON.stringify(stages)}`);
    assert.equal(pipe.stats.draws, 0);
    assert.equal(cp.draws.length, 1);
  }
  // The real hardware VS runs: with no shader loaded that is amd.spi.no-code, not gen-not-executed.
  const mem = new Memory();
  const diag = new Diagnostics();
  const pipe = new GfxPipeline('gfx9', mem, diag, []);
  const cp = new CommandProcessor({ gen: 'gfx9', mem, diag, analyse: false, onDraw: (r) => pipe.draw(r) });
  cp.run(new Pm4Builder('gfx9').drawIndexAuto(3).finish());
  assert.ok(!diag.counts.has('amd.draw.gen-not-executed'));
  assert.equal(pipe.stats.draws, 1);
});

test('MIMG: unmodelled image forms are reported once and write 0', () => {
  const ps = ['image_sample v10, v[0:2], s[0:7], s[8:11] dmask:0x1 dim:SQ_RSRC_IMG_CUBE', 's_waitcnt vmcnt(0)', 'exp mrt0 v10, v10, v10, v10 done', 's_endpgm'];
  const got = ids((s) => {
    s.buffers = { ...(s.buffers as object), tex: { type: 'f32', values: [1, 2, 3, 4] } };
    s.shaders = { ...(s.shaders as object), ps: { source: ps } };
    s.ps = { ...(s.ps as object), userData: [{ image: 'tex', width: 2, height: 2, format: '32_FLOAT' }, { sampler: {} }] };
  });
  assert.ok(got.includes('gfx11.mimg.unsupported'));
});

test('LDS: a PS EXTRA_LDS_SIZE or an NGG LDS_SIZE past the generation limit (lds-alloc.gen.ts) is diagnosed; the example is not', () => {
  const clean = ids(() => {});
  assert.ok(!clean.includes('amd.draw.lds-too-large'));
  // EXTRA_LDS_SIZE 255 x 1 KiB on GFX11 is far past 64 KiB.
  assert.ok(ids(regs({ SPI_SHADER_PGM_RSRC2_PS: E('SPI_SHADER_PGM_RSRC2_PS', { EXTRA_LDS_SIZE: 255 }) })).includes('amd.draw.lds-too-large'));
  // LDS_SIZE 255 (its 8 bits) x 512 bytes = 127.5 KiB for the primitive shader.
  assert.ok(ids(regs({ SPI_SHADER_PGM_RSRC2_GS: E('SPI_SHADER_PGM_RSRC2_GS', { LDS_SIZE: 255 }) })).includes('amd.draw.lds-too-large'));
});
