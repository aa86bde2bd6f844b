/** Every AMD instruction-set target gpusim knows, by LLVM -mcpu name. */
import type { IsaTarget } from './target.js';
import { gfx11 } from './gfx11/index.js';

export const targets: Readonly<Record<string, IsaTarget>> = { gfx1100: gfx11 };

/** Look up a target by -mcpu name (gfx1100...), or null. */
export function targetFor(mcpu: string): IsaTarget | null {
  return targets[mcpu] ?? null;
}
