/**
 * GFX9 VOP3P: the shared VOP3P codec over gfx900's generated table. Its opcodes sit inside the VOP3
 * encoding (0b110100) at 0x380.., i.e. dw0[31:23] = 0x1a7, so this codec is tried before VOP3's.
 */
import type { Codec } from '../types.js';
import { GFX9_SPACE } from '../operands.js';
import { makeVop3pCodec } from '../gfx11/vop3p.js';
import { VOP3P_OPS } from './vop3p.gen.js';

export type { Vop3pOp } from '../gfx11/vop3p.js';

export const codecs: Codec[] = [makeVop3pCodec({ name: 'gfx9-', prefix9: 0x1a7, space: GFX9_SPACE, ops: VOP3P_OPS })];
