/** Every AMD instruction-set target gpusim knows, by LLVM -mcpu name. */
import type { IsaTarget } from './target.js';
import { gfx11, gfx11Wave64 } from './gfx11/index.js';
import { lazyModule } from '../../core/lazy-module.js';

/**
 * The GFX10.3 and GFX9 tables, evaluated on first use (issue 24: building them took ~30 ms of
 * CPU in every fresh process, gfx1100 runs included; core/lazy-module.ts).
 */
export const gfx10Module = lazyModule<typeof import('./gfx10/index.js')>(() => require('./gfx10/index.js'), './gfx10/index.js', import.meta.url);
export const gfx9Module = lazyModule<typeof import('./gfx9/index.js')>(() => require('./gfx9/index.js'), './gfx9/index.js', import.meta.url);

/**
 * gfx1100 (GFX11), gfx1030 (GFX10.3) and gfx900 (GFX9): every encoding class has generated
 * tables and golden files in test/golden/amd/<mcpu>/, and the clang-19 code objects of
 * kernels/bin/<mcpu>/ disassemble exactly as llvm-objdump-19 prints them and round-trip.
 */
export const targets: Readonly<Record<string, IsaTarget>> = {
  gfx1100: gfx11,
  get gfx1030() {
    return gfx10Module().gfx10;
  },
  get gfx900() {
    return gfx9Module().gfx9;
  },
};

/** The generation spellings every command accepts beside the -mcpu names (gfx11 = gfx1100...). */
const GENERATION_NAMES: Readonly<Record<string, string>> = { gfx11: 'gfx1100', 'gfx10.3': 'gfx1030', gfx103: 'gfx1030', gfx9: 'gfx900' };

/** The -mcpu name for a target or generation spelling (gfx11 -> gfx1100), unchanged when it is neither. */
export function mcpuName(name: string): string {
  const n = name.toLowerCase();
  return GENERATION_NAMES[n] ?? n;
}

/** Look up a target by -mcpu name (gfx1100...) or generation name (gfx11, gfx10.3, gfx9), or null. */
export function targetFor(mcpu: string): IsaTarget | null {
  return targets[mcpuName(mcpu)] ?? null;
}

/** Each target's other wave-size reading (GFX10+ are wave32 by default; GFX9 has wave64 only). */
let otherWave: ReadonlyMap<IsaTarget, IsaTarget> | null = null;
function otherWaveOf(t: IsaTarget): IsaTarget | undefined {
  if (t === gfx11) return gfx11Wave64;
  if (t === gfx11Wave64) return gfx11;
  if (t.mcpu !== 'gfx1030') return undefined;
  const { gfx10, gfx10Wave64 } = gfx10Module();
  otherWave ??= new Map([[gfx10, gfx10Wave64], [gfx10Wave64, gfx10]]);
  return otherWave.get(t);
}

/**
 * The target reading its text in the given wave size (LLVM's -mattr=+wavefrontsize64 /
 * +wavefrontsize32), or null when the generation has no such mode (gfx900 has no wave32).
 */
export function waveTarget(t: IsaTarget, wave: 32 | 64): IsaTarget | null {
  if ((t.wave ?? 32) === wave) return t;
  return otherWaveOf(t) ?? null;
}

/**
 * The `--wave` option of the assembler/disassembler commands: a target read in that wave size, or
 * the reason there is none. `wave` undefined keeps the target's default (wave32 on GFX10+, wave64 on GFX9).
 */
export function withWaveOption(t: IsaTarget, wave: string | undefined): IsaTarget | string {
  if (wave === undefined) return t;
  if (wave !== '32' && wave !== '64') return `--wave must be 32 or 64, not '${wave}'`;
  return waveTarget(t, Number(wave) as 32 | 64) ?? `${t.mcpu} has no wave${wave} mode`;
}
