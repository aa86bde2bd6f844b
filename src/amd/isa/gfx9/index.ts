/**
 * The GFX9 (Vega, gfx900) instruction set: its operand space and codecs, the GFX11 codec
 * modules parametrised over gfx900's layouts and generated tables. Every encoding class
 * has golden files; listed in `targets` (../targets.ts).
 */
import type { IsaTarget } from '../target.js';
import { GFX9_SPACE } from '../operands.js';
import type { Codec } from '../types.js';
import { codecs as scalarCodecs } from './scalar.js';
import { codecs as vectorCodecs } from './vector.js';
import { codecs as memoryCodecs } from './memory.js';
import { codecs as vop3pCodecs } from './vop3p.js';
import { makeVintrpCodecs } from './vintrp.js';
import { VINTRP_OPS, VINTRP_PARAMS, VOP3_INTERP_OPS } from './vintrp.gen.js';

// VOP3P first: its dw0[31:23] prefix lies inside VOP3's 6-bit one.
// The VOP3-encoded v_interp_* ops before VOP3 (gen-valu leaves them out of its tables).
const vintrpCodecs = makeVintrpCodecs({ name: 'gfx9-', vintrp: 0b110101, vop3: 0b110100, ops: VINTRP_OPS, params: VINTRP_PARAMS, vop3Ops: VOP3_INTERP_OPS });

const codecs: Codec[] = [...vintrpCodecs, ...vop3pCodecs, ...scalarCodecs, ...vectorCodecs, ...memoryCodecs];

/** GFX9 is wave64 only: its text always names lane masks as pairs. */
export const gfx9: IsaTarget = { mcpu: 'gfx900', space: GFX9_SPACE, codecs, wave: 64 };
