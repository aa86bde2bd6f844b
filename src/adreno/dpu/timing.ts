/**
 * Display timing (seed 004, "vsync"): a mode line gives the pixel clock, the horizontal and
 * vertical active, sync start/end and totals; the rest follows:
 *
 *   h front porch = hsync_start - hdisplay, h sync = hsync_end - hsync_start (the seed calls its
 *   time "hblank": 32 / clock = 0.1 us in its 2560x1440 example), h back porch = htotal -
 *   hsync_end; likewise vertically, in lines of htotal clocks: "vblank" = vsync lines * htotal /
 *   clock (34.3 us), "v-inactive" = (vtotal - vdisplay) * htotal / clock (0.2 ms);
 *   refresh = clock / (htotal * vtotal).
 *
 * Times are in microseconds. The frame starts at the first active line; vblank starts at the end
 * of the active lines.
 */
import { InputError } from '../../core/errors.js';

export interface ModeLine {
  /** Pixel clock in kHz. */
  readonly clockKhz: number;
  readonly hdisplay: number;
  readonly hsyncStart: number;
  readonly hsyncEnd: number;
  readonly htotal: number;
  readonly vdisplay: number;
  readonly vsyncStart: number;
  readonly vsyncEnd: number;
  readonly vtotal: number;
  /** The refresh the mode line states, if any (checked against the clock and totals). */
  readonly vrefresh?: number;
}

export interface Timing {
  readonly mode: ModeLine;
  readonly hFrontPorch: number;
  readonly hSync: number;
  readonly hBackPorch: number;
  readonly vFrontPorch: number;
  readonly vSync: number;
  readonly vBackPorch: number;
  /** us per pixel clock, per line, per frame. */
  readonly pixelUs: number;
  readonly lineUs: number;
  readonly frameUs: number;
  readonly refreshHz: number;
  /** The seed's figures: hblank = h sync time, vblank = v sync time, v-inactive = all vertical blanking. */
  readonly hblankUs: number;
  readonly vblankUs: number;
  readonly vInactiveUs: number;
  /** Horizontal blanking (all of it) and active time per line; active time per frame. */
  readonly hInactiveUs: number;
  readonly hActiveUs: number;
  readonly vActiveUs: number;
}

export function timing(m: ModeLine): Timing {
  const order = (a: number, b: number, c: number, d: number, what: string): void => {
    if (!(a > 0 && a < b && b <= c && c <= d)) throw new InputError(`mode: need 0 < ${what}display < ${what}sync_start <= ${what}sync_end <= ${what}total, got ${a}, ${b}, ${c}, ${d}`);
  };
  if (!(m.clockKhz > 0)) throw new InputError(`mode: clock_khz must be positive, got ${m.clockKhz}`);
  order(m.hdisplay, m.hsyncStart, m.hsyncEnd, m.htotal, 'h');
  order(m.vdisplay, m.vsyncStart, m.vsyncEnd, m.vtotal, 'v');
  const pixelUs = 1000 / m.clockKhz;
  const lineUs = m.htotal * pixelUs;
  const frameUs = m.vtotal * lineUs;
  const refreshHz = 1e6 / frameUs;
  if (m.vrefresh !== undefined && Math.round(refreshHz) !== m.vrefresh)
    throw new InputError(`mode: vrefresh ${m.vrefresh} does not match clock / (htotal * vtotal) = ${refreshHz.toFixed(3)} Hz`);
  return {
    mode: m,
    hFrontPorch: m.hsyncStart - m.hdisplay,
    hSync: m.hsyncEnd - m.hsyncStart,
    hBackPorch: m.htotal - m.hsyncEnd,
    vFrontPorch: m.vsyncStart - m.vdisplay,
    vSync: m.vsyncEnd - m.vsyncStart,
    vBackPorch: m.vtotal - m.vsyncEnd,
    pixelUs,
    lineUs,
    frameUs,
    refreshHz,
    hblankUs: (m.hsyncEnd - m.hsyncStart) * pixelUs,
    vblankUs: (m.vsyncEnd - m.vsyncStart) * lineUs,
    vInactiveUs: (m.vtotal - m.vdisplay) * lineUs,
    hInactiveUs: (m.htotal - m.hdisplay) * pixelUs,
    hActiveUs: m.hdisplay * pixelUs,
    vActiveUs: m.vdisplay * lineUs,
  };
}

/** The seed's example mode: 2560x1440 at 60 Hz. */
export const SEED_MODE_2560x1440: ModeLine = {
  clockKhz: 237800,
  hdisplay: 2560,
  hsyncStart: 2608,
  hsyncEnd: 2640,
  htotal: 2720,
  vdisplay: 1440,
  vsyncStart: 1442,
  vsyncEnd: 1445,
  vtotal: 1457,
  vrefresh: 60,
};

/** Lines describing a timing, as `gpusim adreno display` prints them. */
export function timingLines(t: Timing): string[] {
  const m = t.mode;
  return [
    `mode ${m.hdisplay}x${m.vdisplay} @ ${t.refreshHz.toFixed(3)} Hz: clock ${(m.clockKhz / 1000).toFixed(3)} MHz, line ${t.lineUs.toFixed(3)} us, frame ${(t.frameUs / 1000).toFixed(3)} ms`,
    `  h: front porch ${t.hFrontPorch}, sync ${t.hSync} (hblank ${t.hblankUs.toFixed(1)} us), back porch ${t.hBackPorch}; active ${t.hActiveUs.toFixed(3)} us, inactive ${t.hInactiveUs.toFixed(3)} us`,
    `  v: front porch ${t.vFrontPorch}, sync ${t.vSync} (vblank ${t.vblankUs.toFixed(1)} us), back porch ${t.vBackPorch}; active ${(t.vActiveUs / 1000).toFixed(3)} ms, v-inactive ${(t.vInactiveUs / 1000).toFixed(1)} ms`,
  ];
}
