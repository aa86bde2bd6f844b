/** GFX10.3 VOP3P (packed math, dot products, v_fma_mix*): the shared VOP3P codec over gfx1030's generated table; no DPP forms. */
import type { Codec } from '../types.js';
import { GFX10_SPACE } from '../operands.js';
import { makeVop3pCodec } from '../gfx11/vop3p.js';
import { VOP3P_OPS } from './vop3p.gen.js';

export type { Vop3pOp } from '../gfx11/vop3p.js';

export const codecs: Codec[] = [makeVop3pCodec({ name: 'gfx10-', prefix9: 0x198, space: GFX10_SPACE, ops: VOP3P_OPS })];
