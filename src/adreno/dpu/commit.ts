/**
 * Commit sequencing and the per-frame IRQs (seed 004, "vsync"). Per frame two IRQs:
 *
 *   ping-pong done, ~2.2 ms before vsync: the double-buffered registers for the next frame are
 *   latched, and from then on the non-double-buffered registers for the next frame may be
 *   programmed. It also says the previous kickoff has completed.
 *   vsync: the seed leaves open whether it marks the new frame's start (vblank end) or the
 *   current frame's end (vblank start), so the model takes either (`vsync_irq`); the buffers of
 *   the commit shown before can be modified from then on.
 *
 * An atomic update (mdss_mdp_overlay_kickoff, ~3 ms) runs these phases with the seed's durations:
 * sspp_programming 0.3 ms (map buffers), dest_scaler_programming 0.1 ms, display_commit (~2.5 ms):
 * prepare_fnc 1 us, mixer_programming 0.1 ms, postproc_programming 2 us, frame_ready,
 * wait_pingpong (until the previous kickoff's ping-pong done; 2-6 ms in the seed's trace),
 * flush_kickoff 0.1 ms (flush the register changes); display_wait4comp 0.02 ms (busy-wait for the
 * flush), overlay_cleanup 0.1 ms (unmap buffers). Counters: mdss_fb_0 counts after wait_pingpong
 * (before flush_kickoff); mdss_fb0_retire counts after each vsync IRQ.
 *
 * Which registers are double-buffered is not in the seed: the model makes the pipe, mixer and
 * DSPP coefficient registers double-buffered (they take effect at the ping-pong done after the
 * flush) and the DSPP lookup-table memories (IGC, GC, gamut, vLUT) and the histogram control
 * direct (they take effect when written). Writing a direct register while the previous kickoff
 * has not reached ping-pong done changes the frame being scanned: `adreno.dpu.direct-before-pingpong`.
 */
import { InputError } from '../../core/errors.js';
import type { Diagnostics } from '../../core/diagnostics.js';
import type { Timing } from './timing.js';
import { traceEventJson, type TraceEvent } from '../../core/trace-events.js';

const SEED = '004_0583f9f0ffcacefd.txt';

export type RegGroup = 'sspp' | 'scaler' | 'csc' | 'mixer' | 'border' | 'dim' | 'pcc' | 'hsic' | 'memcolor' | 'dither' | 'igc' | 'gc' | 'gamut' | 'vlut' | 'histogram';

type Phase = 'sspp_programming' | 'mixer_programming' | 'postproc_programming';

/** Each register group: its block, whether it is double-buffered, and the phase that programs it. */
export const REG_GROUPS: Readonly<Record<RegGroup, { readonly block: 'sspp' | 'mixer' | 'dspp'; readonly doubleBuffered: boolean; readonly phase: Phase }>> = {
  sspp: { block: 'sspp', doubleBuffered: true, phase: 'sspp_programming' },
  scaler: { block: 'sspp', doubleBuffered: true, phase: 'sspp_programming' },
  csc: { block: 'sspp', doubleBuffered: true, phase: 'sspp_programming' },
  mixer: { block: 'mixer', doubleBuffered: true, phase: 'mixer_programming' },
  border: { block: 'mixer', doubleBuffered: true, phase: 'mixer_programming' },
  dim: { block: 'mixer', doubleBuffered: true, phase: 'mixer_programming' },
  pcc: { block: 'dspp', doubleBuffered: true, phase: 'postproc_programming' },
  hsic: { block: 'dspp', doubleBuffered: true, phase: 'postproc_programming' },
  memcolor: { block: 'dspp', doubleBuffered: true, phase: 'postproc_programming' },
  dither: { block: 'dspp', doubleBuffered: true, phase: 'postproc_programming' },
  igc: { block: 'dspp', doubleBuffered: false, phase: 'postproc_programming' },
  gc: { block: 'dspp', doubleBuffered: false, phase: 'postproc_programming' },
  gamut: { block: 'dspp', doubleBuffered: false, phase: 'postproc_programming' },
  vlut: { block: 'dspp', doubleBuffered: false, phase: 'postproc_programming' },
  histogram: { block: 'dspp', doubleBuffered: false, phase: 'postproc_programming' },
};

/** Phase durations in us (seed). wait_pingpong has none: it lasts until the IRQ. */
export const PHASE_US = {
  sspp_programming: 300,
  dest_scaler_programming: 100,
  prepare_fnc: 1,
  mixer_programming: 100,
  postproc_programming: 2,
  flush_kickoff: 100,
  display_wait4comp: 20,
  overlay_cleanup: 100,
} as const;

/** The seed's typical figures, for comparison with a run: kickoff ~3 ms, display_commit ~2.5 ms, wait_pingpong 2-6 ms. */
export const SEED_TYPICAL_US = { kickoff: 3000, displayCommit: 2500, waitPingpong: [2000, 6000] as const, pingpongBeforeVsync: 2200 };

export interface CommitDesc {
  /** Earliest start (us from the first active line); a commit also waits for the one before it. */
  readonly startUs: number;
  readonly program: readonly RegGroup[];
  /** When the direct (non-double-buffered) registers are written: after wait_pingpong (at flush_kickoff), or with postproc_programming. */
  readonly direct: 'after_pingpong' | 'with_postproc';
}

export interface TimelineConfig {
  readonly frames?: number;
  readonly vsyncIrq: 'vblank_start' | 'vblank_end';
  readonly pingpongBeforeVsyncUs: number;
  readonly commits: readonly CommitDesc[];
}

export interface PhaseSpan {
  readonly name: string;
  readonly start: number;
  readonly end: number;
}

export interface CommitRun {
  readonly index: number;
  readonly start: number;
  readonly end: number;
  readonly phases: readonly PhaseSpan[];
  readonly waitPingpongUs: number;
  readonly writes: readonly { readonly group: RegGroup; readonly t: number; readonly doubleBuffered: boolean }[];
  readonly flushAt: number;
  /** The ping-pong done that latches this commit's double-buffered registers, and the first frame showing them. */
  readonly latchAt: number;
  readonly latchFrame: number;
  readonly firstFrame: number;
}

export interface Irq {
  readonly kind: 'pingpong_done' | 'vsync';
  readonly frame: number;
  readonly t: number;
}

/** The Chrome trace-event record (src/core/trace-events.ts, the one writer of gpusim's timelines). */
export type { TraceEvent };

export interface TimelineRun {
  readonly frames: number;
  readonly irqs: readonly Irq[];
  readonly commits: readonly CommitRun[];
  /** Per frame, the commit whose double-buffered state it shows (-1: none yet). */
  readonly shows: readonly number[];
  readonly counters: { readonly mdss_fb_0: number; readonly mdss_fb0_retire: number };
  readonly events: readonly TraceEvent[];
}

const TID = { scanout: 1, irq: 2, commit: 3, regs: 4 } as const;

export function runTimeline(t: Timing, cfg: TimelineConfig, diag: Diagnostics): TimelineRun {
  const T = t.frameUs;
  const A = t.vActiveUs;
  const vsyncAt = (k: number): number => (cfg.vsyncIrq === 'vblank_start' ? k * T + A : (k + 1) * T);
  if (!(cfg.pingpongBeforeVsyncUs >= 0 && cfg.pingpongBeforeVsyncUs < vsyncAt(0)))
    throw new InputError(`timeline: pingpong_done_before_vsync_us ${cfg.pingpongBeforeVsyncUs} must lie within the first frame (0..${vsyncAt(0).toFixed(1)} us)`);
  const ppAt = (k: number): number => vsyncAt(k) - cfg.pingpongBeforeVsyncUs;
  /** The first ping-pong done strictly after time x. */
  const nextPp = (x: number): number => {
    let k = Math.max(0, Math.floor((x + cfg.pingpongBeforeVsyncUs - vsyncAt(0)) / T));
    while (ppAt(k) <= x) k++;
    while (k > 0 && ppAt(k - 1) > x) k--;
    return k;
  };
  const events: TraceEvent[] = [
    { name: 'process_name', cat: '__metadata', ph: 'M', ts: 0, pid: 1, tid: 0, args: { name: 'DPU' } },
    ...Object.entries(TID).map(([n, tid]) => ({ name: 'thread_name', cat: '__metadata', ph: 'M' as const, ts: 0, pid: 1, tid, args: { name: n === 'regs' ? 'registers' : n === 'irq' ? 'IRQs' : n } })),
  ];
  const commits: CommitRun[] = [];
  let now = 0;
  let fb0 = 0;
  let prevLatch = -Infinity;
  for (const [index, c] of cfg.commits.entries()) {
    const phases: PhaseSpan[] = [];
    const writes: { group: RegGroup; t: number; doubleBuffered: boolean }[] = [];
    let clock = Math.max(c.startUs, now);
    const start = clock;
    const span = (name: string, dur: number): PhaseSpan => {
      const p = { name, start: clock, end: clock + dur };
      phases.push(p);
      clock += dur;
      return p;
    };
    const write = (phase: Phase | 'flush_kickoff', at: number): void => {
      for (const g of c.program) {
        const info = REG_GROUPS[g];
        const when: Phase | 'flush_kickoff' = !info.doubleBuffered && c.direct === 'after_pingpong' ? 'flush_kickoff' : info.phase;
        if (when !== phase) continue;
        writes.push({ group: g, t: at, doubleBuffered: info.doubleBuffered });
        if (!info.doubleBuffered && at < prevLatch)
          diag.report({
            id: 'adreno.dpu.direct-before-pingpong',
            severity: 'warning',
            where: { commit: index, register: g, t_us: +at.toFixed(3) },
            message: `commit ${index} writes ${g} (not double-buffered) at ${at.toFixed(1)} us, before the ping-pong done at ${prevLatch.toFixed(1)} us that completes the previous kickoff: the frame being scanned changes`,
            seed: SEED,
          });
      }
    };
    write('sspp_programming', span('sspp_programming', PHASE_US.sspp_programming).start);
    span('dest_scaler_programming', PHASE_US.dest_scaler_programming);
    const dcStart = clock;
    span('prepare_fnc', PHASE_US.prepare_fnc);
    write('mixer_programming', span('mixer_programming', PHASE_US.mixer_programming).start);
    write('postproc_programming', span('postproc_programming', PHASE_US.postproc_programming).start);
    phases.push({ name: 'frame_ready', start: clock, end: clock });
    const waitEnd = prevLatch > clock ? prevLatch : clock;
    const wait = span('wait_pingpong', waitEnd - clock);
    fb0++;
    events.push({ name: 'mdss_fb_0', cat: 'counter', ph: 'C', ts: wait.end, pid: 1, tid: TID.commit, args: { value: fb0 } });
    const flush = span('flush_kickoff', PHASE_US.flush_kickoff);
    write('flush_kickoff', flush.start);
    const flushAt = flush.end;
    phases.push({ name: 'display_commit', start: dcStart, end: clock });
    span('display_wait4comp', PHASE_US.display_wait4comp);
    span('overlay_cleanup', PHASE_US.overlay_cleanup);
    const latchFrame = nextPp(flushAt);
    const latchAt = ppAt(latchFrame);
    commits.push({ index, start, end: clock, phases, waitPingpongUs: wait.end - wait.start, writes, flushAt, latchAt, latchFrame, firstFrame: latchFrame + 1 });
    prevLatch = latchAt;
    now = clock;
  }
  const lastFrame = commits.length ? Math.max(...commits.map((c) => c.firstFrame)) + 1 : 0;
  const frames = Math.max(cfg.frames ?? 0, lastFrame + 1, 1);
  const irqs: Irq[] = [];
  const shows: number[] = [];
  let retire = 0;
  for (let k = 0; k < frames; k++) {
    const shown = commits.filter((c) => c.firstFrame <= k).map((c) => c.index);
    const commit = shown.length ? shown[shown.length - 1]! : -1;
    shows.push(commit);
    const lines = (n: number): number => n * t.lineUs;
    events.push({ name: `frame ${k}`, cat: 'scanout', ph: 'X', ts: k * T, dur: A, pid: 1, tid: TID.scanout, args: { commit } });
    events.push({ name: 'front porch', cat: 'scanout', ph: 'X', ts: k * T + A, dur: lines(t.vFrontPorch), pid: 1, tid: TID.scanout });
    events.push({ name: 'vsync pulse', cat: 'scanout', ph: 'X', ts: k * T + A + lines(t.vFrontPorch), dur: lines(t.vSync), pid: 1, tid: TID.scanout });
    events.push({ name: 'back porch', cat: 'scanout', ph: 'X', ts: k * T + A + lines(t.vFrontPorch + t.vSync), dur: lines(t.vBackPorch), pid: 1, tid: TID.scanout });
    irqs.push({ kind: 'pingpong_done', frame: k, t: ppAt(k) });
    events.push({ name: 'ping-pong done', cat: 'irq', ph: 'i', s: 'p', ts: ppAt(k), pid: 1, tid: TID.irq, args: { frame: k } });
    for (const c of commits.filter((c) => c.latchFrame === k))
      events.push({ name: `latch commit ${c.index}`, cat: 'registers', ph: 'i', s: 't', ts: ppAt(k), pid: 1, tid: TID.regs, args: { groups: c.writes.filter((w) => w.doubleBuffered).map((w) => w.group) } });
    irqs.push({ kind: 'vsync', frame: k, t: vsyncAt(k) });
    events.push({ name: 'vsync', cat: 'irq', ph: 'i', s: 'p', ts: vsyncAt(k), pid: 1, tid: TID.irq, args: { frame: k } });
    retire++;
    events.push({ name: 'mdss_fb0_retire', cat: 'counter', ph: 'C', ts: vsyncAt(k), pid: 1, tid: TID.irq, args: { value: retire } });
    for (const c of commits.filter((c) => c.latchFrame === k && c.index > 0))
      events.push({ name: `release buffers of commit ${c.index - 1}`, cat: 'registers', ph: 'i', s: 't', ts: vsyncAt(k), pid: 1, tid: TID.regs });
  }
  for (const c of commits) {
    events.push({ name: `mdss_mdp_overlay_kickoff (commit ${c.index})`, cat: 'commit', ph: 'X', ts: c.start, dur: c.end - c.start, pid: 1, tid: TID.commit, args: { program: c.writes.map((w) => w.group), waitPingpongUs: +c.waitPingpongUs.toFixed(3) } });
    for (const p of c.phases)
      events.push(p.end === p.start && p.name === 'frame_ready' ? { name: p.name, cat: 'commit', ph: 'i', s: 't', ts: p.start, pid: 1, tid: TID.commit } : { name: p.name, cat: 'commit', ph: 'X', ts: p.start, dur: p.end - p.start, pid: 1, tid: TID.commit });
    for (const w of c.writes) events.push({ name: `write ${w.group}${w.doubleBuffered ? '' : ' (direct)'}`, cat: 'registers', ph: 'i', s: 't', ts: w.t, pid: 1, tid: TID.regs, args: { commit: c.index } });
    events.push({ name: `flush (commit ${c.index})`, cat: 'registers', ph: 'i', s: 't', ts: c.flushAt, pid: 1, tid: TID.regs });
  }
  for (const d of diag.list.filter((d) => d.id.startsWith('adreno.dpu.')))
    events.push({ name: d.id, cat: 'diagnostic', ph: 'i', s: 'g', ts: Number(d.where['t_us'] ?? 0), pid: 1, tid: TID.regs, args: { message: d.message } });
  events.sort((a, b) => a.ts - b.ts || (a.ph === 'M' ? -1 : 0) - (b.ph === 'M' ? -1 : 0) || (b.dur ?? 0) - (a.dur ?? 0));
  return { frames, irqs, commits, shows, counters: { mdss_fb_0: fb0, mdss_fb0_retire: retire }, events };
}

/** The trace as Chrome's trace-event JSON (ui.perfetto.dev, chrome://tracing). */
export function traceJson(run: TimelineRun): string {
  return traceEventJson(run.events, 'us from the first active line of frame 0', 'ms');
}
