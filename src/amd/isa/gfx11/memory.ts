/**
 * The GFX11 memory and export codecs: DS, MUBUF, MTBUF, MIMG, FLAT/GLOBAL/SCRATCH, EXP.
 *
 * What `inst.info` holds, for executors:
 * - DS: `DsEntry` (ds.gen.ts): operands [field, dwords] in print order, offset form, gds rule.
 * - FLAT/GLOBAL/SCRATCH: `FlatEntry` (flat.gen.ts); `fields.seg` is 0 flat, 1 scratch, 2 global.
 * - MUBUF/MTBUF: `BufEntry` (mubuf.gen.ts); vdata is `tfe` dwords wide when tfe is set.
 * - MIMG: `MimgDecoded` (memory-mimg.ts): the entry plus the vdata width and address registers.
 * - EXP: null (everything is in `fields`).
 */
import type { Codec } from '../types.js';
import { dsCodec } from './memory-ds.js';
import { flatCodec } from './memory-flat.js';
import { mubufCodec, mtbufCodec } from './memory-buf.js';
import { mimgCodec } from './memory-mimg.js';
import { expCodec } from './memory-exp.js';

export type { DsEntry } from './ds.gen.js';
export type { FlatEntry } from './flat.gen.js';
export type { BufEntry } from './mubuf.gen.js';
export type { MimgDecoded } from './memory-mimg.js';

/** Codecs of this family. */
export const codecs: Codec[] = [dsCodec, flatCodec, mubufCodec, mtbufCodec, mimgCodec, expCodec];
