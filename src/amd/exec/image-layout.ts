/**
 * Linear image layouts per generation: where each mip level and array slice of a linear
 * (SW_MODE 0) image lies, as AMD's addrlib lays linear surfaces out. One place, used by the MIMG
 * address computation (mimg.ts, from the T#) and by the scenes that create images
 * (src/runtime/draw-scene.ts), so both agree.
 *
 * The rules (addrlib, Mesa src/amd/addrlib, and the Mesa descriptor code that fills the T#):
 * - Every generation aligns a linear row to 256 bytes: pitch = align(width, 256 / bytes per texel)
 *   (Gfx9Lib::ComputeSurfaceLinearPadding, Gfx10Lib::HwlComputeSurfaceInfoLinear; GFX11 uses the
 *   GFX10 code). GFX12's 128 bytes is not modelled.
 * - GFX9 stacks the levels of a mip chain under each other in one column of the level-0 pitch:
 *   level i starts pitch * (h0 + ... + h(i-1)) texels in, with h0 = HEIGHT and h(k+1) =
 *   max(1, ceil(hk / 2)) (addrlib's RoundHalf). An array slice is pitch * that chain height texels
 *   (one level: pitch * HEIGHT). The T# PITCH field holds addrlib's "epitch": the row pitch - 1 for
 *   one level, the chain height - 1 for a mip chain (epitchIsHeight); the hardware then derives the
 *   row pitch from WIDTH.
 * - GFX10.3 and GFX11 store the levels smallest first, each with its own pitch aligned to 256 bytes
 *   (level n-1 at offset 0, level 0 last); a slice is the whole chain. One-level 1D/2D
 *   (non-array) images may carry a custom pitch in T# DEPTH (low 13 bits) and PITCH_MSB, pitch - 1,
 *   used when it exceeds WIDTH (Mesa writes it only for multiples of 256 bytes); otherwise DEPTH is
 *   the last array slice (0 for a single image) and the pitch is the aligned width.
 * A level's size is max(1, WIDTH >> i) x max(1, HEIGHT >> i) texels on every generation.
 */

/** Layout rule of a generation (9 = GFX9, 10 = GFX10.3, 11 = GFX11). */
export interface LinearRule {
  /** Row alignment of linear surfaces in bytes. */
  readonly pitchAlignBytes: number;
  /** 'stacked': GFX9's levels under each other at the level-0 pitch; 'smallest-first': GFX10+. */
  readonly mips: 'stacked' | 'smallest-first';
  /** Where a one-level image's explicit pitch is: T# PITCH (GFX9) or DEPTH + PITCH_MSB (GFX10.3+). */
  readonly pitchField: 'PITCH' | 'DEPTH+PITCH_MSB';
}

export const LINEAR_RULES: Readonly<Record<9 | 10 | 11, LinearRule>> = {
  9: { pitchAlignBytes: 256, mips: 'stacked', pitchField: 'PITCH' },
  10: { pitchAlignBytes: 256, mips: 'smallest-first', pitchField: 'DEPTH+PITCH_MSB' },
  11: { pitchAlignBytes: 256, mips: 'smallest-first', pitchField: 'DEPTH+PITCH_MSB' },
};

export function linearRule(gfx: number): LinearRule {
  return gfx === 9 ? LINEAR_RULES[9] : gfx === 10 ? LINEAR_RULES[10] : LINEAR_RULES[11];
}

export interface MipLevel { readonly offset: number; readonly pitch: number; readonly width: number; readonly height: number }

export interface LinearLayout {
  /** Levels 0..n-1: byte offset from the slice start, row pitch in texels, size in texels. */
  readonly levels: readonly MipLevel[];
  /** Bytes from one array slice to the next. */
  readonly sliceBytes: number;
  /**
   * GFX9's T# PITCH + 1: the row pitch (one level) or the chain height in rows (a mip chain).
   * On GFX10+ the pitch a one-level T# may carry in DEPTH/PITCH_MSB (the aligned pitch).
   */
  readonly epitch: number;
}

/** The aligned pitch in texels of a `width`-texel row (texels of `bytes` bytes, 256 % bytes == 0). */
export function linearPitch(rule: LinearRule, width: number, bytes: number): number {
  const align = rule.pitchAlignBytes / bytes;
  return Math.ceil(width / align) * align;
}

/**
 * The layout of a linear image. `pitch` (one level only) overrides the aligned pitch, as a
 * descriptor's explicit pitch does.
 */
export function linearLayout(rule: LinearRule, width: number, height: number, bytes: number, levels = 1, pitch?: number): LinearLayout {
  const size = (i: number): [number, number] => [Math.max(1, width >> i), Math.max(1, height >> i)];
  if (levels <= 1) {
    const p = pitch ?? linearPitch(rule, width, bytes);
    return { levels: [{ offset: 0, pitch: p, width, height }], sliceBytes: p * height * bytes, epitch: p };
  }
  const out: MipLevel[] = new Array(levels);
  if (rule.mips === 'stacked') {
    const p = linearPitch(rule, width, bytes);
    let rows = 0, h = height;
    for (let i = 0; i < levels; i++) {
      const [lw, lh] = size(i);
      out[i] = { offset: p * rows * bytes, pitch: p, width: lw, height: lh };
      rows += h;
      h = Math.max(1, Math.ceil(h / 2));
    }
    return { levels: out, sliceBytes: p * rows * bytes, epitch: rows };
  }
  let offset = 0;
  for (let i = levels - 1; i >= 0; i--) {
    const [lw, lh] = size(i);
    const p = linearPitch(rule, lw, bytes);
    out[i] = { offset, pitch: p, width: lw, height: lh };
    offset += p * lh * bytes;
  }
  return { levels: out, sliceBytes: offset, epitch: out[0]!.pitch };
}
