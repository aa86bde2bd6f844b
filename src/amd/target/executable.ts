/**
 * Which instruction set executes a code object, by its EF_AMDGPU_MACH -mcpu name: gfx11 code on
 * the GFX11 tables; gfx1030 (GFX10.3) and gfx900 (GFX9) on their own decoders with the GFX11
 * semantics through normalize.ts. Other members of those families (gfx90a, gfx1010...) differ
 * in opcodes and are not offered.
 *
 * The GFX10.3 and GFX9 tables are evaluated only when a code object of theirs arrives (issue 24:
 * isa/targets.ts).
 */
import type { IsaTarget } from '../isa/target.js';
import { gfx11 } from '../isa/gfx11/index.js';
import { gfx10Module, gfx9Module } from '../isa/targets.js';

export function executableTarget(mcpu: string): IsaTarget | null {
  if (mcpu.startsWith('gfx11')) return gfx11;
  if (mcpu === 'gfx1030') return gfx10Module().gfx10;
  if (mcpu === 'gfx900') return gfx9Module().gfx9;
  return null;
}

/** The -mcpu names `gpusim run` accepts, for messages. */
export const EXECUTABLE_TARGETS = 'gfx11 (RDNA3), gfx1030 (GFX10.3) and gfx900 (GFX9)';
