/** The GFX11 memory and export codecs: DS, MUBUF, MTBUF, MIMG, FLAT/GLOBAL/SCRATCH, EXP. */
import type { Codec } from '../types.js';
import { dsCodec } from './memory-ds.js';
import { flatCodec } from './memory-flat.js';
import { mubufCodec, mtbufCodec } from './memory-buf.js';
import { mimgCodec } from './memory-mimg.js';
import { expCodec } from './memory-exp.js';

/** Codecs of this family. */
export const codecs: Codec[] = [dsCodec, flatCodec, mubufCodec, mtbufCodec, mimgCodec, expCodec];
