/**
 * GFX9 memory codecs so far: DS (the shared DS codec over gfx900's table, op[24:17] gds[16]) and
 * FLAT/GLOBAL/SCRATCH. MUBUF/MTBUF, MIMG and EXP are still to do.
 *
 * FLAT `fields`: offset is the raw 13-bit field (FLAT unsigned, GLOBAL/SCRATCH signed), saddr
 * 0x7f (`FLAT_SADDR_OFF`) means no SGPR base (FLAT itself requires saddr 0); SCRATCH reads its
 * VGPR address exactly when saddr is off; `lds` set: the load writes LDS instead of vdst.
 */
import type { Codec } from '../types.js';
import { makeDsCodec } from '../gfx11/memory-ds.js';
import { makeFlatCodec, type FlatLayout } from '../gfx11/memory-flat.js';
import { DS_ALIASES, DS_OPS } from './ds.gen.js';
import { FLAT_ALIASES, FLAT_NV, FLAT_OPS, FLAT_SADDR } from './flat.gen.js';

export const FLAT_SADDR_OFF = 0x7f;

export const GFX9_FLAT: FlatLayout = {
  name: 'gfx9-', tables: FLAT_OPS, aliases: FLAT_ALIASES, offsetBits: 13, seg: 14, glc: 16, slc: 17, dlc: -1, lds: 13, sve: -1,
  nv: FLAT_NV, saddrOff: FLAT_SADDR_OFF, saddr: FLAT_SADDR,
};

export const codecs: Codec[] = [makeDsCodec(DS_OPS, DS_ALIASES, 'gfx9-DS', { opLo: 17, gdsLo: 16 }), makeFlatCodec(GFX9_FLAT)];
