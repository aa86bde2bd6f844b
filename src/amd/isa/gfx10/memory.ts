/**
 * GFX10.3 memory codecs so far: DS (the shared DS codec over gfx1030's table), FLAT/GLOBAL/SCRATCH
 * and MUBUF/MTBUF. EXP (the shared EXP codec over this target's
 * targets: compr/vm, param0..31), MIMG (the shared MIMG codec over GFX10's layout: op bit 7 at
 * [0], a 2-bit NSA dword count, dim[5:3]).
 *
 * FLAT `fields`: offset is the raw 12-bit field (FLAT unsigned, GLOBAL/SCRATCH signed), saddr
 * 0x7d (`FLAT_SADDR_OFF`) means no SGPR base; SCRATCH reads its VGPR address exactly when saddr is
 * off; `lds` set: the load writes LDS instead of vdst.
 * MUBUF/MTBUF `fields` use GFX11's names (offen, idxen, glc, slc, dlc, tfe, lds, format); MTBUF's
 * format is GFX10's unified 7-bit format.
 */
import type { Codec } from '../types.js';
import { makeDsCodec } from '../gfx11/memory-ds.js';
import { makeFlatCodec, type FlatLayout } from '../gfx11/memory-flat.js';
import { makeBufCodec, type BufField } from '../gfx11/memory-buf.js';
import { makeExpCodec } from '../gfx11/memory-exp.js';
import { makeMimgCodec } from '../gfx11/memory-mimg.js';
import { DS_ALIASES, DS_OPS } from './ds.gen.js';
import { FLAT_ALIASES, FLAT_NV, FLAT_OPS, FLAT_SADDR } from './flat.gen.js';
import { MUBUF_ALIASES, MUBUF_ASM, MUBUF_OPS, MUBUF_SOFFSET, MUBUF_SRSRC } from './mubuf.gen.js';
import { EXP_TARGETS } from './exp.gen.js';
import { MIMG_ALIASES, MIMG_DIMS, MIMG_NSA_ORIG, MIMG_OPS } from './mimg.gen.js';
import { MTBUF_ALIASES, MTBUF_ASM, MTBUF_FORMATS, MTBUF_OPS, MTBUF_SOFFSET, MTBUF_SRSRC } from './mtbuf.gen.js';

export const FLAT_SADDR_OFF = 0x7d;

export const GFX10_FLAT: FlatLayout = {
  name: 'gfx10-', tables: FLAT_OPS, aliases: FLAT_ALIASES, offsetBits: 12, seg: 14, glc: 16, slc: 17, dlc: 12, lds: 13, sve: -1,
  nv: FLAT_NV, saddrOff: FLAT_SADDR_OFF, saddr: FLAT_SADDR,
};

const B = (w: 0 | 1, lo: number, n: number): BufField => ({ w, lo, n });
/** Before GFX11: offen[12] idxen[13] glc[14] dlc[15] in word 0; slc[22] tfe[23] in word 1. */
const BUF = { offset: B(0, 0, 12), offen: B(0, 12, 1), idxen: B(0, 13, 1), glc: B(0, 14, 1), dlc: B(0, 15, 1), slc: B(1, 22, 1), tfe: B(1, 23, 1) };

export const mubuf = makeBufCodec({
  ...BUF, name: 'MUBUF', codec: 'gfx10-MUBUF', prefix: 0b111000, op: B(0, 18, 8), lds: B(0, 16, 1),
  table: MUBUF_OPS, aliases: MUBUF_ALIASES, asm: MUBUF_ASM, srsrc: MUBUF_SRSRC, soffset: MUBUF_SOFFSET, ldsNoVdata: true,
});
/** MTBUF: op[18:16] with op bit 3 in word 1 bit 21; format[25:19]. */
export const mtbuf = makeBufCodec({
  ...BUF, name: 'MTBUF', codec: 'gfx10-MTBUF', prefix: 0b111010, op: B(0, 16, 3), opHi: B(1, 21, 1), format: B(0, 19, 7),
  table: MTBUF_OPS, aliases: MTBUF_ALIASES, asm: MTBUF_ASM, formats: MTBUF_FORMATS, srsrc: MTBUF_SRSRC, soffset: MTBUF_SOFFSET,
});

export const exp = makeExpCodec({ codec: 'gfx10-EXP', prefix: 0b111110, targets: EXP_TARGETS, legacy: true });

/** GFX10 MIMG: op[24:18] + op bit 7 at [0], nsa[2:1], dim[5:3], flags as below, ssamp word 1 [25:21]. */
export const mimg = makeMimgCodec({
  codec: 'gfx10-MIMG', prefix: 0b111100, table: MIMG_OPS, dims: MIMG_DIMS, aliases: MIMG_ALIASES,
  flags: { unorm: [0, 12], glc: [0, 13], slc: [0, 25], dlc: [0, 7], r128: [0, 15], lwe: [0, 17], a16: [1, 30], d16: [1, 31], tfe: [0, 16] },
  op: [18, 7], opHi: 0, nsa: [1, 2], dimLo: 3, ssampLo: 21, nsaOrig: MIMG_NSA_ORIG,
});

export const codecs: Codec[] = [makeDsCodec(DS_OPS, DS_ALIASES, 'gfx10-DS'), makeFlatCodec(GFX10_FLAT), mubuf, mtbuf, mimg, exp];
