/** `gpusim adreno display <frame.json> --out frame.png [--timeline trace.json] [--json] [--strict]`. */
import { writeFileSync } from 'node:fs';
import { UsageError } from '../../core/errors.js';
import { Diagnostics, StrictStop } from '../../core/diagnostics.js';
import { readFrame } from './frame.js';
import { composeFrame } from './display.js';
import { timingLines } from './timing.js';
import { traceJson } from './commit.js';

/** Returns the exit code; writes the PNG through `encodePng` (fast-png, loaded by the caller). */
export async function displayCommand(values: Record<string, unknown>, rest: string[], out: (l: string) => void, encodePng: () => Promise<(img: { width: number; height: number; data: Uint8Array; channels: number; depth: 8 }) => Uint8Array>): Promise<number> {
  const file = rest[0];
  if (!file) throw new UsageError('adreno display: missing frame description (.json)');
  if (rest.length > 1) throw new UsageError(`adreno display: one frame file, got ${rest.length}`);
  const frame = readFrame(file);
  const diag = new Diagnostics({ strict: !!values['strict'] });
  let r;
  try {
    r = composeFrame(frame, diag);
  } catch (e) {
    if (!(e instanceof StrictStop)) throw e;
    out(`${e.diagnostic.severity}: ${e.diagnostic.id}: ${e.diagnostic.message} -- stopped (--strict)`);
    return 1;
  }
  if (values['out'] !== undefined) writeFileSync(String(values['out']), (await encodePng())({ width: r.width, height: r.height, data: r.dspp.rgb8, channels: 3, depth: 8 }));
  if (values['timeline'] !== undefined) writeFileSync(String(values['timeline']), traceJson(r.timeline));
  const problems = r.diag.list.filter((d) => d.severity !== 'info');
  if (values['json']) {
    out(JSON.stringify({
      width: r.width,
      height: r.height,
      timing: { ...r.timing, mode: undefined },
      frames: r.timeline.frames,
      shows: r.timeline.shows,
      irqs: r.timeline.irqs,
      commits: r.timeline.commits,
      counters: r.timeline.counters,
      ...(r.dspp.histogram ? { histogram: [...r.dspp.histogram] } : {}),
      diagnostics: r.diag.list,
    }));
    return problems.length ? 1 : 0;
  }
  for (const l of timingLines(r.timing)) out(l);
  out(`layers: ${frame.layers.map((l) => `${l.name} (${l.pipe}${l.rect ? ' rect 1' : ''}, stage ${l.stage}${l.surface ? `, ${l.surface.format.name} ${l.surface.layout}` : ', solid fill'})`).join('; ') || 'none'}${frame.dims.length ? `; ${frame.dims.length} dim layer(s)` : ''}`);
  const dsppOn = (['igc', 'pcc', 'hsic', 'memcolor', 'vlut', 'gamut', 'gc', 'dither', 'histogram'] as const).filter((k) => frame.dspp[k] !== undefined);
  out(`dspp: ${dsppOn.length ? dsppOn.join(' ') : 'bypass'}`);
  if (r.dspp.histogram) {
    const h = r.dspp.histogram;
    let peak = 0;
    for (let i = 1; i < h.length; i++) if (h[i]! > h[peak]!) peak = i;
    out(`histogram: 256 bins, peak bin ${peak} (${h[peak]} pixels)`);
  }
  for (const c of r.timeline.commits)
    out(`commit ${c.index}: ${c.start.toFixed(1)}..${c.end.toFixed(1)} us, wait_pingpong ${c.waitPingpongUs.toFixed(1)} us, flush ${c.flushAt.toFixed(1)} us, latched at ping-pong done of frame ${c.latchFrame} (${c.latchAt.toFixed(1)} us), shown from frame ${c.firstFrame}`);
  out(`timeline: ${r.timeline.frames} frame(s); mdss_fb_0 ${r.timeline.counters.mdss_fb_0}, mdss_fb0_retire ${r.timeline.counters.mdss_fb0_retire}`);
  for (const d of r.diag.list.slice(0, 50)) out(`${d.severity}: ${d.id}: ${d.message}`);
  out(`-- ${r.width}x${r.height}, ${r.diag.list.length} diagnostic(s)`);
  return problems.length ? 1 : 0;
}
