/**
 * The layer mixer (seed 004, "Display Pipeline"; sde_hw_lm.h). Blend stages in z-order over the
 * border colour: stage 0 is the base, up to 7 stages (SDE's DEFAULT_SDE_MIXER_BLENDSTAGES).
 * Per stage a blend config:
 *
 *   fg alpha and bg alpha each select a constant (the fg or bg constant) or a pixel alpha (of
 *   the fg layer or of the background so far), then optionally invert (255 - a), modulate by
 *   the fg constant, i.e. the plane alpha (a * const / 255), and invert after modulation;
 *   colour out = (fg * Af + bg * Ab + 127) / 255, rounded down, clamped to 10 bits;
 *   alpha-out selects which alpha the stage passes on: the fg layer's or the background's.
 *
 * The DRM blend modes map onto it as the kernel's DPU does: opaque = fg const a / bg const
 * 255 - a; premultiplied = fg const a / bg fg-pixel inverted (modulated by a when a < 255);
 * coverage = fg fg-pixel / bg fg-pixel inverted (both modulated by a when a < 255).
 *
 * Dim layers are solid colour stages (a rectangle, a 10-bit colour and a constant alpha) with no
 * pipe. The mixer output size (mixer-out) is the frame size; pixels no layer covers keep the
 * border colour. Not modelled: MISR (the signature of the output), colour keying (TRANSP_EN),
 * the mixer "gc" placeholder.
 */
import type { LayerImage, Rect } from './sspp.js';

export const MAX_BLEND_STAGES = 7;

export type AlphaSel = 'fg_const' | 'bg_const' | 'fg_pixel' | 'bg_pixel';

export interface AlphaCfg {
  readonly sel: AlphaSel;
  readonly inv: boolean;
  readonly mod: boolean;
  readonly invMod: boolean;
}

export interface BlendConfig {
  readonly fg: AlphaCfg;
  readonly bg: AlphaCfg;
  readonly fgConst: number;
  readonly bgConst: number;
  readonly alphaOut: 'fg' | 'bg';
}

const cfg = (sel: AlphaSel, o: Partial<AlphaCfg> = {}): AlphaCfg => ({ sel, inv: false, mod: false, invMod: false, ...o });

/** The DRM blend modes at plane alpha `a`, as the DPU sets them up. */
export function blendMode(mode: 'opaque' | 'premultiplied' | 'coverage', a: number): BlendConfig {
  const partial = a !== 255;
  switch (mode) {
    case 'opaque':
      return { fg: cfg('fg_const'), bg: cfg('bg_const'), fgConst: a, bgConst: 255 - a, alphaOut: 'fg' };
    case 'premultiplied':
      return { fg: cfg('fg_const'), bg: partial ? cfg('fg_pixel', { mod: true, invMod: true }) : cfg('fg_pixel', { inv: true }), fgConst: a, bgConst: 255 - a, alphaOut: 'fg' };
    case 'coverage':
      return { fg: partial ? cfg('fg_pixel', { mod: true }) : cfg('fg_pixel'), bg: partial ? cfg('fg_pixel', { mod: true, invMod: true }) : cfg('fg_pixel', { inv: true }), fgConst: a, bgConst: 255 - a, alphaOut: 'fg' };
  }
}

export interface MixerLayer {
  readonly name: string;
  readonly stage: number;
  readonly dst: Rect;
  readonly img: LayerImage;
  readonly blend: BlendConfig;
}

export interface DimLayer {
  readonly stage: number;
  readonly rect: Rect;
  /** 10-bit colour. */
  readonly color: readonly [number, number, number];
  readonly alpha: number;
}

export interface MixerConfig {
  readonly width: number;
  readonly height: number;
  /** 10-bit colour and 8-bit alpha. */
  readonly border: readonly [number, number, number, number];
}

/** 255-based product, rounded to nearest (ties up). */
export const mul255 = (a: number, b: number): number => Math.floor((a * b + 127) / 255);

/** The alpha one side of a stage applies. */
export function stageAlpha(c: AlphaCfg, fgConst: number, bgConst: number, fgA: number, bgA: number): number {
  let a = c.sel === 'fg_const' ? fgConst : c.sel === 'bg_const' ? bgConst : c.sel === 'fg_pixel' ? fgA : bgA;
  if (c.inv) a = 255 - a;
  if (c.mod) a = mul255(a, fgConst);
  if (c.invMod) a = 255 - a;
  return a;
}

/** Blend one fg pixel over one bg pixel (10-bit colour, 8-bit alpha), in place into `out`. */
export function blendPixel(b: BlendConfig, fg: ArrayLike<number>, fo: number, bg: Uint16Array, bo: number): void {
  const fa = stageAlpha(b.fg, b.fgConst, b.bgConst, fg[fo + 3]!, bg[bo + 3]!);
  const ba = stageAlpha(b.bg, b.fgConst, b.bgConst, fg[fo + 3]!, bg[bo + 3]!);
  for (let c = 0; c < 3; c++) bg[bo + c] = Math.min(1023, Math.floor((fg[fo + c]! * fa + bg[bo + c]! * ba + 127) / 255));
  bg[bo + 3] = b.alphaOut === 'fg' ? fg[fo + 3]! : bg[bo + 3]!;
}

/** Compose the stages (layers and dim layers) over the border colour: the mixer output, 4 x Uint16 per pixel. */
export function mix(m: MixerConfig, layers: readonly MixerLayer[], dims: readonly DimLayer[]): Uint16Array {
  const out = new Uint16Array(m.width * m.height * 4);
  for (let i = 0; i < m.width * m.height; i++) out.set(m.border, i * 4);
  const stages = [
    ...layers.map((l) => ({ stage: l.stage, order: 0, rect: l.dst, px: l.img.px, blend: l.blend })),
    ...dims.map((d) => ({
      stage: d.stage,
      order: 1,
      rect: d.rect,
      px: null as Uint16Array | null,
      color: [d.color[0], d.color[1], d.color[2], d.alpha],
      blend: { fg: cfg('fg_const'), bg: cfg('bg_const'), fgConst: d.alpha, bgConst: 255 - d.alpha, alphaOut: 'bg' } as BlendConfig,
    })),
  ].sort((a, b) => a.stage - b.stage || a.order - b.order);
  for (const s of stages) {
    const { x: rx, y: ry, w, h } = s.rect;
    const solid = 'color' in s ? (s.color as number[]) : null;
    for (let y = 0; y < h; y++)
      for (let x = 0; x < w; x++) {
        const bo = ((ry + y) * m.width + rx + x) * 4;
        if (solid) blendPixel(s.blend, solid, 0, out, bo);
        else blendPixel(s.blend, s.px!, (y * w + x) * 4, out, bo);
      }
  }
  return out;
}
