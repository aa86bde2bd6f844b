/** Every AMD instruction-set target gpusim knows, by LLVM -mcpu name. */
import type { IsaTarget } from './target.js';
import { gfx11 } from './gfx11/index.js';
import { gfx10 } from './gfx10/index.js';
import { gfx9 } from './gfx9/index.js';

/**
 * gfx1100 (GFX11), gfx1030 (GFX10.3) and gfx900 (GFX9): every encoding class has generated
 * tables and golden files in test/golden/amd/<mcpu>/, and the clang-19 code objects of
 * kernels/bin/<mcpu>/ disassemble exactly as llvm-objdump-19 prints them and round-trip.
 */
export const targets: Readonly<Record<string, IsaTarget>> = { gfx1100: gfx11, gfx1030: gfx10, gfx900: gfx9 };

/** Look up a target by -mcpu name (gfx1100...), or null. */
export function targetFor(mcpu: string): IsaTarget | null {
  return targets[mcpu] ?? null;
}
