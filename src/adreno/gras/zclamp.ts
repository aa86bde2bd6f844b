/**
 * Depth clamp (seed 004, "3D Viewports and Scissors": GRAS_CL_Z_CLAMP_* "clamps transformed z to
 * the range if enabled", RB_Z_CLAMP_* "clamps z to the range" before the depth test and write).
 *
 * Two clamps, as freedreno programs them (facts from Mesa: fd6_rasterizer / fd6_zsa / fd6_emit and
 * turnip's viewport emission): GRAS_CL_CNTL Z_CLAMP_ENABLE with the per-viewport
 * GRAS_CL_Z_CLAMP[n] MIN / MAX (min / max of the viewport's minDepth, maxDepth), and
 * RB_DEPTH_CNTL Z_CLAMP_ENABLE with RB_Z_CLAMP_MIN / MAX (viewport 0's range). Both drivers set
 * both enables from the one API state (Vulkan depthClampEnable, GL depth_clamp) and disable near /
 * far clipping (ZNEAR / ZFAR_CLIP_DISABLE) from depth-clip state, which Vulkan defaults to
 * !depthClampEnable (VK_EXT_depth_clip_enable makes it separate).
 *
 * The model's order, per sample: polygon offset, then the GRAS clamp of the rasterized z (what LRZ
 * and the FS's frag-coord z see), then an FS-written depth replaces it, then the RB clamp, then the
 * format's quantization, the test and the write — Vulkan's order (depth bias is part of
 * rasterization; "before the sample's zf is compared to za, zf is clamped").
 */

export interface ZRange {
  readonly min: number;
  readonly max: number;
}

/** The clamp state of a draw: undefined where the enable is off. */
export interface DepthClampState {
  readonly gras?: ZRange;
  readonly rb?: ZRange;
}

export interface ClampProblem {
  readonly id: 'adreno.gras.z-clamp-range' | 'adreno.rb.z-clamp-range' | 'adreno.rb.z-clamp-mismatch';
  readonly severity: 'error' | 'warning';
  readonly message: string;
}

/** z clamped to [min, max] (with min > max, which is undefined, the result is max). */
export function clampZ(z: number, r: ZRange): number {
  return Math.min(Math.max(z, r.min), r.max);
}

/**
 * What the registers leave undefined: an enabled range with MIN > MAX or a NaN bound (drivers
 * always program min <= max: the min / max of minDepth and maxDepth), and the GRAS and RB enables
 * disagreeing (one state in every driver: only one stage clamps, so LRZ and the depth test see
 * different values).
 */
export function clampProblems(grasOn: boolean, gras: ZRange, rbOn: boolean, rb: ZRange): ClampProblem[] {
  const out: ClampProblem[] = [];
  const bad = (r: ZRange): boolean => !(r.min <= r.max);
  if (grasOn && bad(gras)) out.push({ id: 'adreno.gras.z-clamp-range', severity: 'error', message: `GRAS_CL_Z_CLAMP[0] MIN ${gras.min} > MAX ${gras.max} with GRAS_CL_CNTL Z_CLAMP_ENABLE: the clamped z is undefined (the model gives MAX)` });
  if (rbOn && bad(rb)) out.push({ id: 'adreno.rb.z-clamp-range', severity: 'error', message: `RB_Z_CLAMP_MIN ${rb.min} > RB_Z_CLAMP_MAX ${rb.max} with RB_DEPTH_CNTL Z_CLAMP_ENABLE: the clamped depth is undefined (the model gives MAX)` });
  if (grasOn !== rbOn) out.push({ id: 'adreno.rb.z-clamp-mismatch', severity: 'warning', message: `GRAS_CL_CNTL Z_CLAMP_ENABLE ${grasOn ? 1 : 0} and RB_DEPTH_CNTL Z_CLAMP_ENABLE ${rbOn ? 1 : 0} differ (drivers set both from one depth-clamp state): only ${grasOn ? 'the rasterized z (GRAS)' : 'the depth test input (RB)'} is clamped` });
  return out;
}
