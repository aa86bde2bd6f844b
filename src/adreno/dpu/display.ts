/**
 * One displayed frame end to end: every layer through its SSPP, the layer mixer, the DSPP, and
 * the commit timeline over the mode's timing.
 */
import { Diagnostics } from '../../core/diagnostics.js';
import { checkPipes, runPipe } from './sspp.js';
import { mix, type MixerLayer } from './mixer.js';
import { runDspp, type DsppResult } from './dspp.js';
import { timing, type Timing } from './timing.js';
import { runTimeline, type TimelineRun } from './commit.js';
import type { Frame } from './frame.js';

export interface DisplayResult {
  readonly width: number;
  readonly height: number;
  /** The mixer output (4 x Uint16 per pixel: 10-bit colour, 8-bit alpha). */
  readonly mixed: Uint16Array;
  readonly dspp: DsppResult;
  readonly timing: Timing;
  readonly timeline: TimelineRun;
  readonly diag: Diagnostics;
}

export function composeFrame(f: Frame, diag = new Diagnostics()): DisplayResult {
  const t = timing(f.mode);
  checkPipes(f.layers);
  const width = f.mode.hdisplay;
  const height = f.mode.vdisplay;
  const mixerLayers: MixerLayer[] = f.layers.map((l) => ({ name: l.name, stage: l.stage, dst: l.dst, img: runPipe(l, diag), blend: l.blend }));
  const mixed = mix({ width, height, border: f.border }, mixerLayers, f.dims);
  const dspp = runDspp(f.dspp, mixed, width, height);
  const timeline = runTimeline(t, f.timeline, diag);
  return { width, height, mixed, dspp, timing: t, timeline, diag };
}
