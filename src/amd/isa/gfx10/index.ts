/**
 * The GFX10.3 (RDNA2, gfx1030) instruction set: its operand space and codecs, the GFX11 codec
 * modules parametrised over gfx1030's layouts and generated tables. Every encoding class
 * has golden files; listed in `targets` (../targets.ts).
 */
import type { IsaTarget } from '../target.js';
import { GFX10_SPACE } from '../operands.js';
import type { Codec } from '../types.js';
import { codecs as scalarCodecs } from './scalar.js';
import { codecs as vectorCodecs, codecsWave64 as vectorCodecsWave64 } from './vector.js';
import { codecs as memoryCodecs } from './memory.js';
import { codecs as vop3pCodecs } from './vop3p.js';
import { makeVintrpCodecs } from '../gfx9/vintrp.js';
import { VINTRP_OPS, VINTRP_PARAMS, VOP3_INTERP_OPS } from './vintrp.gen.js';

// The VOP3-encoded v_interp_* ops before VOP3 (gen-valu leaves them out of its tables).
const vintrpCodecs = makeVintrpCodecs({ name: 'gfx10-', vintrp: 0b110010, vop3: 0b110101, ops: VINTRP_OPS, params: VINTRP_PARAMS, vop3Ops: VOP3_INTERP_OPS });

const codecs: Codec[] = [...vintrpCodecs, ...scalarCodecs, ...vectorCodecs, ...vop3pCodecs, ...memoryCodecs];

export const gfx10: IsaTarget = { mcpu: 'gfx1030', space: GFX10_SPACE, codecs, wave: 32 };

/** gfx1030 read as LLVM does with +wavefrontsize64: lane masks are SGPR pairs. */
export const gfx10Wave64: IsaTarget = {
  mcpu: 'gfx1030', space: GFX10_SPACE, wave: 64,
  codecs: [...vintrpCodecs, ...scalarCodecs, ...vectorCodecsWave64, ...vop3pCodecs, ...memoryCodecs],
};
