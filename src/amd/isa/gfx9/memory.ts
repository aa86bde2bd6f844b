/**
 * GFX9 memory codecs: DS (the shared DS codec over gfx900's table, op[24:17] gds[16]),
 * FLAT/GLOBAL/SCRATCH, MUBUF/MTBUF, EXP (the shared EXP codec over this target's
 * targets: compr/vm, param0..31) and MIMG (the shared MIMG codec over GFX9's layout: no dim, no
 * NSA, da/a16 flags, free address width).
 *
 * FLAT `fields`: offset is the raw 13-bit field (FLAT unsigned, GLOBAL/SCRATCH signed), saddr
 * 0x7f (`FLAT_SADDR_OFF`) means no SGPR base (FLAT itself requires saddr 0); SCRATCH reads its
 * VGPR address exactly when saddr is off; `lds` set: the load writes LDS instead of vdst.
 * MUBUF/MTBUF `fields` use GFX11's names (offen, idxen, glc, slc, tfe, lds, format; dlc always 0);
 * MTBUF's format is dfmt (bits 3:0) | nfmt << 4.
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
import { MIMG_ALIASES, MIMG_DIMS, MIMG_OPS, MIMG_RESERVED, MIMG_RSRC_TEXT, MIMG_VADDR_ASM } from './mimg.gen.js';
import { MTBUF_ALIASES, MTBUF_ASM, MTBUF_FORMATS, MTBUF_OPS, MTBUF_SOFFSET, MTBUF_SRSRC } from './mtbuf.gen.js';

export const FLAT_SADDR_OFF = 0x7f;

export const GFX9_FLAT: FlatLayout = {
  name: 'gfx9-', tables: FLAT_OPS, aliases: FLAT_ALIASES, offsetBits: 13, seg: 14, glc: 16, slc: 17, dlc: -1, lds: 13, sve: -1,
  nv: FLAT_NV, saddrOff: FLAT_SADDR_OFF, saddr: FLAT_SADDR,
};

const B = (w: 0 | 1, lo: number, n: number): BufField => ({ w, lo, n });
/** offen[12] idxen[13] glc[14] in word 0; tfe[23] in word 1 (MUBUF's slc is word 0 bit 17, MTBUF's word 1 bit 22). */
const BUF = { offset: B(0, 0, 12), offen: B(0, 12, 1), idxen: B(0, 13, 1), glc: B(0, 14, 1), tfe: B(1, 23, 1) };

export const mubuf = makeBufCodec({
  ...BUF, name: 'MUBUF', codec: 'gfx9-MUBUF', prefix: 0b111000, op: B(0, 18, 7), lds: B(0, 16, 1), slc: B(0, 17, 1),
  table: MUBUF_OPS, aliases: MUBUF_ALIASES, asm: MUBUF_ASM, srsrc: MUBUF_SRSRC, soffset: MUBUF_SOFFSET, ldsNoVdata: true,
});
export const mtbuf = makeBufCodec({
  ...BUF, name: 'MTBUF', codec: 'gfx9-MTBUF', prefix: 0b111010, op: B(0, 15, 4), format: B(0, 19, 7), slc: B(1, 22, 1),
  table: MTBUF_OPS, aliases: MTBUF_ALIASES, asm: MTBUF_ASM, formats: MTBUF_FORMATS, srsrc: MTBUF_SRSRC, soffset: MTBUF_SOFFSET,
});

export const exp = makeExpCodec({ codec: 'gfx9-EXP', prefix: 0b110001, targets: EXP_TARGETS, legacy: true });

/** GFX9 MIMG: op[24:18], no dim/NSA; unorm[12] glc[13] da[14] a16[15] tfe[16] lwe[17] slc[25]; ssamp word 1 [25:21], d16 word 1 [31]. */
export const mimg = makeMimgCodec({
  codec: 'gfx9-MIMG', prefix: 0b111100, table: MIMG_OPS, dims: MIMG_DIMS, aliases: MIMG_ALIASES,
  flags: { unorm: [0, 12], glc: [0, 13], da: [0, 14], a16: [0, 15], tfe: [0, 16], lwe: [0, 17], slc: [0, 25], d16: [1, 31] },
  op: [18, 7], opHi: -1, nsa: [0, 0], dimLo: -1, ssampLo: 21, reserved: MIMG_RESERVED, vaddrAsm: MIMG_VADDR_ASM, rsrcText: MIMG_RSRC_TEXT,
});

export const codecs: Codec[] = [makeDsCodec(DS_OPS, DS_ALIASES, 'gfx9-DS', { opLo: 17, gdsLo: 16 }), makeFlatCodec(GFX9_FLAT), mubuf, mtbuf, mimg, exp];
