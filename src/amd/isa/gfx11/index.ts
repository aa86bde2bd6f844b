/** The GFX11 (RDNA3, gfx1100) instruction set: its operand space and codecs. */
import type { IsaTarget } from '../target.js';
import { GFX11_SPACE } from '../operands.js';
import type { Codec } from '../types.js';
import { codecs as scalarCodecs } from './scalar.js';
import { codecs as vectorCodecs, codecsWave64 as vectorCodecsWave64 } from './vector.js';
import { codecs as vop3pCodecs, codecsWave64 as vop3pCodecsWave64 } from './vop3p.js';
import { codecs as vopdCodecs } from './vopd.js';
import { codecs as interpCodecs } from './interp.js';
import { codecs as memoryCodecs } from './memory.js';

/** Each codec's `matches` tests a distinct encoding prefix, so the order only affects speed. */
const codecs: Codec[] = [...scalarCodecs, ...vectorCodecs, ...vop3pCodecs, ...vopdCodecs, ...interpCodecs, ...memoryCodecs];

export const gfx11: IsaTarget = { mcpu: 'gfx1100', space: GFX11_SPACE, codecs, wave: 32 };

/**
 * gfx1100 read as LLVM does with +wavefrontsize64: lane masks are SGPR pairs (`s[4:5]`, `vcc`), and
 * VOPD, which needs wave32, does not exist (llvm-objdump prints its words as unknown).
 */
let wave64Codecs: Codec[] | undefined;
export const gfx11Wave64: IsaTarget = {
  mcpu: 'gfx1100', space: GFX11_SPACE, wave: 64,
  // Built on first use: a wave32 run or disassembly never reads them (issue 24, start-up).
  get codecs(): Codec[] {
    return (wave64Codecs ??= [...scalarCodecs, ...vectorCodecsWave64(), ...vop3pCodecsWave64(), ...interpCodecs, ...memoryCodecs]);
  },
};
