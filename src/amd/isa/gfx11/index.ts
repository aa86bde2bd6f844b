/** The GFX11 (RDNA3, gfx1100) instruction set: its operand space and codecs. */
import type { IsaTarget } from '../target.js';
import { GFX11_SPACE } from '../operands.js';
import type { Codec } from '../types.js';
import { codecs as scalarCodecs } from './scalar.js';
import { codecs as vectorCodecs } from './vector.js';
import { codecs as memoryCodecs } from './memory.js';

const codecs: Codec[] = [...scalarCodecs, ...vectorCodecs, ...memoryCodecs];

export const gfx11: IsaTarget = { mcpu: 'gfx1100', space: GFX11_SPACE, codecs };
