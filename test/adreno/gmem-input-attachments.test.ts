/**
 * GMEM input attachments beyond single-sample colour (issue 19): the descriptors turnip's
 * `tu_emit_input_attachments` writes "patched for gmem" (TILE6_2, no swap, PITCH tile width x cpp,
 * cpp including the samples, BASE gmem_base + the GMEM offset) for
 * - a D24S8 attachment: depth aspect FMT6_Z24_UNORM_S8_UINT, stencil aspect FMT6_Z24_UINT_S8_UINT
 *   swizzled Y,0,0,1, both at the attachment's GMEM offset;
 * - a D32S8 attachment's stencil: FMT6_8_UINT at gmem_offset_stencil, cpp = the samples;
 * - a 4x MSAA colour attachment read per sample (isamm, Mesa's txf_ms).
 * The buffers are put in GMEM by BLIT-event restores of memory images (the RB's GMEM layout), the
 * compute shader reads them at framebuffer pixels of the bin with SP_TP_WINDOW_OFFSET = the bin
 * origin, and every value must equal what the same shader reads from the memory image through the
 * sysmem descriptor — for several bin sizes and origins. A PITCH that is not the bin's row
 * (samples left out) is adreno.tex.gmem-pitch-mismatch.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { assembleIr3 } from '../../src/adreno/ir3/asm.js';
import { runIr3Dispatch, type Ir3Manifest } from '../../src/adreno/sp/dispatch.js';
import { encodeFields } from '../../src/adreno/regs/db.js';
import { hi32, lo32, type CmdStream } from '../../src/adreno/cp/builder.js';
import { gmemInfo } from '../../src/adreno/rb/gmem.js';
import { ccuCntlGmem } from '../../src/adreno/rb/gmem-pass.js';
import { mulberry32 } from '../../src/core/prng.js';
import type { Segment } from '../../src/core/memory.js';
import { BODY } from './ir3-ibo-body.js';

const DIR = mkdtempSync(join(tmpdir(), 'gmem-ia-'));
const FW = 192, FH = 64;
const MSAA = ['MSAA_ONE', 'MSAA_TWO', 'MSAA_FOUR'];

/** The attachments: memory images of the framebuffer (random bytes, seeded). */
const rnd = mulberry32(19);
const IMG = {
  ds: { fmt: 'FMT6_Z24_UNORM_S8_UINT', cpp: 4, samples: 1, bytes: Uint8Array.from({ length: FW * FH * 4 }, () => Math.floor(rnd() * 256)) },
  s8: { fmt: 'FMT6_8_UINT', cpp: 1, samples: 1, bytes: Uint8Array.from({ length: FW * FH }, () => Math.floor(rnd() * 256)) },
  ms: { fmt: 'FMT6_8_8_8_8_UINT', cpp: 4, samples: 4, bytes: Uint8Array.from({ length: FW * FH * 16 }, () => Math.floor(rnd() * 256)) },
};
type Att = keyof typeof IMG;

interface View { att: Att; fmt: string; swiz?: [string, string, string, string]; pitchSamples?: number; noSample?: boolean }
const VIEWS: Record<string, View> = {
  depth: { att: 'ds', fmt: 'FMT6_Z24_UNORM_S8_UINT' },
  stencil: { att: 'ds', fmt: 'FMT6_Z24_UINT_S8_UINT', swiz: ['A6XX_TEX_Y', 'A6XX_TEX_ZERO', 'A6XX_TEX_ZERO', 'A6XX_TEX_ONE'] },
  sepStencil: { att: 's8', fmt: 'FMT6_8_UINT' },
  msaa: { att: 'ms', fmt: 'FMT6_8_8_8_8_UINT' },
};

function desc(v: View, base: number, gmem?: { binW: number }): number[] {
  const a = IMG[v.att];
  const sw = v.swiz ?? ['A6XX_TEX_X', 'A6XX_TEX_Y', 'A6XX_TEX_Z', 'A6XX_TEX_W'];
  const d = new Array<number>(16).fill(0);
  d[0] = encodeFields('A6XX_TEX_CONST.0', { TILE_MODE: gmem ? 'TILE6_2' : 'TILE6_LINEAR', SWIZ_X: sw[0], SWIZ_Y: sw[1], SWIZ_Z: sw[2], SWIZ_W: sw[3], FMT: v.fmt, SWAP: 'WZYX', SAMPLES: MSAA[Math.log2(a.samples)] }, 'a6xx');
  d[1] = encodeFields('A6XX_TEX_CONST.1', { WIDTH: FW, HEIGHT: FH }, 'a6xx');
  const pitch = gmem ? gmem.binW * a.cpp * (v.pitchSamples ?? a.samples) : FW * a.cpp * a.samples;
  d[2] = encodeFields('A6XX_TEX_CONST.2', { PITCH: pitch, TYPE: 'A6XX_TEX_2D' }, 'a6xx');
  d[4] = encodeFields('A6XX_TEX_CONST.4', { BASE_LO: lo32(base) }, 'a6xx');
  d[5] = encodeFields('A6XX_TEX_CONST.5', { BASE_HI: hi32(base), DEPTH: 1 }, 'a6xx');
  return d;
}

interface Bin { w: number; h: number; x: number; y: number }
let seq = 0;

/**
 * Read view `name` at 64 pixels of the bin (sample lane % 4 with isamm): through GMEM (bin given)
 * or the memory image (sysmem). Returns r3.xyzw per lane and the diagnostics.
 */
function read(name: string, bin: Bin, gmem: boolean, patch: Partial<View> = {}): { out: Uint32Array; ids: string[] } {
  const v = { ...VIEWS[name]!, ...patch };
  const ms = IMG[v.att].samples > 1;
  const input = new Uint32Array(512);
  for (let l = 0; l < 64; l++) {
    input[l * 8] = bin.x + ((l * 5) % bin.w);
    input[l * 8 + 1] = bin.y + ((l * 3) % bin.h);
    input[l * 8 + 2] = l % 4;
  }
  const file = join(DIR, `in${seq++}.bin`);
  writeFileSync(file, new Uint8Array(input.buffer));
  const m: Ir3Manifest = {
    dir: '.', shader: '(assembled)', gpuId: 630, block: [64, 1, 1], groups: [1, 1, 1], waveSize: 64,
    localIdReg: 0, wgIdReg: 192, fullRegs: 6, halfRegs: 0, sharedSize: 0, constlen: 1, consts: new Uint32Array(4),
    buffers: [{ name: 'o', kind: 'ssbo', type: 'u32', count: 256, ibo: 0 }, { name: 'in', kind: 'ssbo', type: 'u32', count: 512, ibo: 1, file }],
    outputs: ['o'], expect: {},
  };
  const va = gmemInfo(630).gmemVa;
  // GMEM offsets of the three bin buffers (4 KiB aligned, as the drivers place them).
  const offs: Record<Att, number> = { ds: 0, s8: 0, ms: 0 };
  let at = 0;
  for (const k of ['ds', 's8', 'ms'] as Att[]) {
    offs[k] = at;
    at += Math.ceil((bin.w * bin.h * IMG[k].cpp * IMG[k].samples) / 4096) * 4096;
  }
  const state = (cs: CmdStream, alloc: (b: Uint8Array, l: string) => Segment): void => {
    const mem: Record<Att, number> = { ds: 0, s8: 0, ms: 0 };
    for (const k of ['ds', 's8', 'ms'] as Att[]) mem[k] = alloc(IMG[k].bytes.slice(), `${k} image`).base;
    if (gmem) {
      cs.reg('RB_CCU_CNTL', ccuCntlGmem(630));
      cs.reg('GRAS_BIN_CONTROL', { BINW: bin.w, BINH: bin.h, RENDER_MODE: 'RENDERING_PASS' }).reg('RB_BIN_CONTROL2', { BINW: bin.w, BINH: bin.h });
      cs.setMarker('RM6_GMEM');
      for (const r of ['RB_WINDOW_OFFSET', 'RB_WINDOW_OFFSET2', 'SP_WINDOW_OFFSET', 'SP_TP_WINDOW_OFFSET']) cs.reg(r, { X: bin.x, Y: bin.y });
      cs.reg('RB_BLIT_SCISSOR_TL', { X: 0, Y: 0 }).reg('RB_BLIT_SCISSOR_BR', { X: FW - 1, Y: FH - 1 });
      // Restores: the RB puts each image's bin in GMEM.
      for (const k of ['ds', 's8', 'ms'] as Att[]) {
        const a = IMG[k];
        cs.reg('RB_BLIT_GMEM_MSAA_CNTL', { SAMPLES: MSAA[Math.log2(a.samples)] });
        cs.reg('RB_BLIT_INFO', { GMEM: true, DEPTH: k === 'ds' });
        cs.reg('RB_BLIT_DST_INFO', { TILE_MODE: 'TILE6_LINEAR', SAMPLES: MSAA[Math.log2(a.samples)], COLOR_FORMAT: a.fmt });
        cs.reg64('RB_BLIT_DST', mem[k]).reg('RB_BLIT_DST_PITCH', (FW * a.cpp * a.samples) / 64).reg('RB_BLIT_BASE_GMEM', offs[k]);
        cs.event('BLIT');
      }
      cs.event('CACHE_INVALIDATE');
    }
    const d = desc(v, gmem ? va + offs[v.att] : mem[v.att], gmem ? { binW: bin.w } : undefined);
    const seg = alloc(new Uint8Array(new Uint32Array(d).buffer), 'tex descriptor');
    cs.pkt('CP_LOAD_STATE6_FRAG', [encodeFields('CP_LOAD_STATE6.0', { DST_OFF: 0, STATE_TYPE: 'ST6_CONSTANTS', STATE_SRC: 'SS6_INDIRECT', STATE_BLOCK: 'SB6_CS_TEX', NUM_UNIT: 1 }, 'a6xx'), lo32(seg.base), hi32(seg.base)]);
  };
  const op = `${ms && !v.noSample ? 'isamm' : 'isam'} (${v.fmt.includes('UNORM') ? 'f32' : 'u32'})(xyzw)r3.x, r1.x, s#0, t#0`;
  const r = runIr3Dispatch(m, { words: assembleIr3(BODY(op), { gpuId: 630 }), state });
  return { out: new Uint32Array(r.buffers.get('o')!.buffer.slice(0)), ids: [...new Set(r.diag.list.filter((x) => x.severity !== 'info').map((x) => x.id))] };
}

const BINS: Bin[] = [{ w: 32, h: 16, x: 32, y: 16 }, { w: 64, h: 32, x: 128, y: 32 }, { w: 96, h: 48, x: 96, y: 0 }, { w: 32, h: 64, x: 0, y: 0 }];

test('D24S8 depth and stencil aspects, D32S8 separate stencil, 4x MSAA colour per sample: GMEM reads = sysmem reads', () => {
  for (const name of Object.keys(VIEWS))
    for (const bin of BINS) {
      const g = read(name, bin, true);
      const s = read(name, bin, false);
      const what = `${name} bin ${bin.w}x${bin.h} at ${bin.x},${bin.y}`;
      assert.deepEqual(g.ids, [], what);
      assert.deepEqual(s.ids, [], what);
      assert.deepEqual(g.out, s.out, what);
    }
  // The values are the images' own: stencil = byte 3 of D24S8 (swizzled to x; y, z 0, w 1),
  // sample (lane % 4) of the MSAA pixel.
  const bin = BINS[1]!;
  const st = read('stencil', bin, true).out, ms = read('msaa', bin, true).out;
  for (let l = 0; l < 64; l++) {
    const x = bin.x + ((l * 5) % bin.w), y = bin.y + ((l * 3) % bin.h);
    assert.deepEqual([...st.subarray(l * 4, l * 4 + 4)], [IMG.ds.bytes[(y * FW + x) * 4 + 3]!, 0, 0, 1], `stencil lane ${l}`);
    const o = (y * FW + x) * 16 + (l % 4) * 4;
    assert.deepEqual([...ms.subarray(l * 4, l * 4 + 4)], [...IMG.ms.bytes.subarray(o, o + 4)], `msaa lane ${l}`);
  }
});

test('adreno.tex.gmem-pitch-mismatch: an MSAA TILE6_2 descriptor whose PITCH leaves out the samples; quiet with them', () => {
  const bin = BINS[0]!;
  assert.deepEqual(read('msaa', bin, true, { pitchSamples: 1 }).ids, ['adreno.tex.gmem-pitch-mismatch']);
  assert.deepEqual(read('msaa', bin, true).ids, []);
  assert.deepEqual(read('sepStencil', bin, true, { pitchSamples: 4 }).ids, ['adreno.tex.gmem-pitch-mismatch']);
});

test('adreno.tex.msaa-without-sample: isam (no sample index) on the MSAA attachment, in GMEM and in memory; isamm quiet', () => {
  const bin = BINS[2]!;
  for (const gmem of [true, false]) {
    const r = read('msaa', bin, gmem, { noSample: true });
    assert.deepEqual(r.ids, ['adreno.tex.msaa-without-sample'], `gmem ${gmem}`);
    // The model's choice: sample 0.
    const x = bin.x, y = bin.y;
    assert.deepEqual([...r.out.subarray(0, 4)], [...IMG.ms.bytes.subarray((y * FW + x) * 16, (y * FW + x) * 16 + 4)]);
    assert.deepEqual(read('msaa', bin, gmem).ids, []);
  }
});
