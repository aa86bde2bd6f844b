/**
 * GFX10.3 memory codecs so far: DS (the shared DS codec over gfx1030's table) and
 * FLAT/GLOBAL/SCRATCH. MUBUF/MTBUF, MIMG and EXP are still to do.
 *
 * FLAT `fields`: offset is the raw 12-bit field (FLAT unsigned, GLOBAL/SCRATCH signed), saddr
 * 0x7d (`FLAT_SADDR_OFF`) means no SGPR base; SCRATCH reads its VGPR address exactly when saddr is
 * off; `lds` set: the load writes LDS instead of vdst.
 */
import type { Codec } from '../types.js';
import { makeDsCodec } from '../gfx11/memory-ds.js';
import { makeFlatCodec, type FlatLayout } from '../gfx11/memory-flat.js';
import { DS_ALIASES, DS_OPS } from './ds.gen.js';
import { FLAT_ALIASES, FLAT_NV, FLAT_OPS, FLAT_SADDR } from './flat.gen.js';

export const FLAT_SADDR_OFF = 0x7d;

export const GFX10_FLAT: FlatLayout = {
  name: 'gfx10-', tables: FLAT_OPS, aliases: FLAT_ALIASES, offsetBits: 12, seg: 14, glc: 16, slc: 17, dlc: 12, lds: 13, sve: -1,
  nv: FLAT_NV, saddrOff: FLAT_SADDR_OFF, saddr: FLAT_SADDR,
};

export const codecs: Codec[] = [makeDsCodec(DS_OPS, DS_ALIASES, 'gfx10-DS'), makeFlatCodec(GFX10_FLAT)];
