/** GFX9 memory codecs so far: DS (the shared DS codec over gfx900's table, op[24:17] gds[16]). FLAT/GLOBAL/SCRATCH, MUBUF/MTBUF, MIMG and EXP are still to do. */
import type { Codec } from '../types.js';
import { makeDsCodec } from '../gfx11/memory-ds.js';
import { DS_ALIASES, DS_OPS } from './ds.gen.js';

export const codecs: Codec[] = [makeDsCodec(DS_OPS, DS_ALIASES, 'gfx9-DS', { opLo: 17, gdsLo: 16 })];
