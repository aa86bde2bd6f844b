/**
 * Display timing and the commit/IRQ timeline: the seed's 2560x1440 example, the IRQ order, the
 * atomic-update phases and counters, and `adreno.dpu.direct-before-pingpong` (fires / quiet).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Diagnostics } from '../../src/core/diagnostics.js';
import { InputError } from '../../src/core/errors.js';
import { SEED_MODE_2560x1440, timing, timingLines } from '../../src/adreno/dpu/timing.js';
import { PHASE_US, runTimeline, traceJson, type CommitDesc, type TimelineConfig } from '../../src/adreno/dpu/commit.js';

test("the seed's 2560x1440 mode: hblank 0.1 us, vblank 34.3 us, v-inactive 0.2 ms, 60 Hz", () => {
  const t = timing(SEED_MODE_2560x1440);
  assert.deepEqual([t.hFrontPorch, t.hSync, t.hBackPorch, t.vFrontPorch, t.vSync, t.vBackPorch], [48, 32, 80, 2, 3, 12]);
  assert.equal(t.hblankUs.toFixed(1), '0.1'); // 32 / 237.8 MHz
  assert.equal(t.vblankUs.toFixed(1), '34.3'); // 3 * 2720 / 237.8 MHz
  assert.equal((t.vInactiveUs / 1000).toFixed(1), '0.2'); // 17 * 2720 / 237.8 MHz
  assert.ok(Math.abs(t.hblankUs - 32 / 237.8) < 1e-9);
  assert.ok(Math.abs(t.vblankUs - (3 * 2720) / 237.8) < 1e-9);
  assert.ok(Math.abs(t.vInactiveUs - (17 * 2720) / 237.8) < 1e-9);
  assert.equal(Math.round(t.refreshHz), 60);
  const text = timingLines(t).join('\n');
  for (const s of ['hblank 0.1 us', 'vblank 34.3 us', 'v-inactive 0.2 ms']) assert.ok(text.includes(s), s);
  assert.throws(() => timing({ ...SEED_MODE_2560x1440, vrefresh: 75 }), InputError);
  assert.throws(() => timing({ ...SEED_MODE_2560x1440, hsyncStart: 2500 }), /hdisplay < hsync_start/);
});

const cfg = (commits: CommitDesc[], o: Partial<TimelineConfig> = {}): TimelineConfig => ({ vsyncIrq: 'vblank_end', pingpongBeforeVsyncUs: 2200, commits, ...o });

test('per-frame IRQs: ping-pong done 2.2 ms before vsync; vsync at vblank end or start', () => {
  const t = timing(SEED_MODE_2560x1440);
  const r = runTimeline(t, cfg([], { frames: 3 }), new Diagnostics());
  assert.equal(r.irqs.length, 6);
  for (let k = 0; k < 3; k++) {
    const v = r.irqs.find((i) => i.kind === 'vsync' && i.frame === k)!;
    const p = r.irqs.find((i) => i.kind === 'pingpong_done' && i.frame === k)!;
    assert.ok(Math.abs(v.t - (k + 1) * t.frameUs) < 1e-6);
    assert.ok(Math.abs(v.t - p.t - 2200) < 1e-6);
  }
  assert.equal(r.counters.mdss_fb0_retire, 3, 'retire counts every vsync');
  const s = runTimeline(t, cfg([], { frames: 1, vsyncIrq: 'vblank_start' }), new Diagnostics());
  assert.ok(Math.abs(s.irqs.find((i) => i.kind === 'vsync')!.t - 1440 * t.lineUs) < 1e-6);
});

test('atomic update: phases with the seed durations, wait_pingpong, latch at ping-pong done, counters', () => {
  const t = timing(SEED_MODE_2560x1440);
  const T = t.frameUs;
  // Commit 1 starts 10 ms into frame 1, while commit 0's kickoff is pending until frame 1's ping-pong done.
  const r = runTimeline(t, cfg([{ startUs: 100, program: ['sspp', 'mixer', 'pcc', 'igc'], direct: 'after_pingpong' }, { startUs: T + 10000, program: ['sspp', 'gc'], direct: 'after_pingpong' }]), new Diagnostics());
  const [c0, c1] = r.commits as [typeof r.commits[0], typeof r.commits[0]];
  const ph = (c: typeof c0, n: string): { start: number; end: number } => c.phases.find((p) => p.name === n)!;
  assert.equal(ph(c0, 'sspp_programming').end - ph(c0, 'sspp_programming').start, PHASE_US.sspp_programming);
  assert.equal(PHASE_US.sspp_programming, 300);
  assert.equal(PHASE_US.flush_kickoff, 100);
  assert.equal(ph(c0, 'wait_pingpong').end - ph(c0, 'wait_pingpong').start, 0, 'nothing pending before the first commit');
  // Commit 0 flushes in frame 0 -> latched at frame 0's ping-pong done -> shown from frame 1.
  assert.equal(c0.latchFrame, 0);
  assert.ok(Math.abs(c0.latchAt - (T - 2200)) < 1e-6);
  assert.equal(c0.firstFrame, 1);
  // Commit 1: ready at T + 10000 + 300 + 100 + 1 + 100 + 2; the previous kickoff completed at frame 0's ping-pong done, before it: no wait.
  assert.equal(c1.waitPingpongUs, 0);
  // A commit ready before the previous kickoff's ping-pong done waits for it (2-6 ms in the seed).
  const r2 = runTimeline(t, cfg([{ startUs: T - 7700, program: ['sspp'], direct: 'after_pingpong' }, { startUs: T - 6500, program: ['sspp'], direct: 'after_pingpong' }]), new Diagnostics());
  const w = r2.commits[1]!;
  assert.ok(Math.abs(w.phases.find((p) => p.name === 'wait_pingpong')!.end - (T - 2200)) < 1e-6, 'until commit 0 completes');
  // Ready at T - 6500 + 300 + 100 + 1 + 100 + 2: the wait is 3797 us, inside the seed's 2-6 ms.
  assert.ok(Math.abs(w.waitPingpongUs - (T - 2200 - (T - 6500 + 503))) < 1e-6);
  assert.ok(w.waitPingpongUs >= 2000 && w.waitPingpongUs <= 6000);
  assert.equal(w.latchFrame, 1);
  assert.equal(r2.counters.mdss_fb_0, 2, 'mdss_fb_0 counts each wait_pingpong');
  // Direct registers are written after wait_pingpong, double-buffered ones in their phase.
  const igc = c0.writes.find((x) => x.group === 'igc')!;
  assert.equal(igc.doubleBuffered, false);
  assert.equal(igc.t, ph(c0, 'flush_kickoff').start);
  assert.equal(c0.writes.find((x) => x.group === 'pcc')!.t, ph(c0, 'postproc_programming').start);
  // Commit 1 flushes at ~T + 10.7 ms, before frame 1's ping-pong done (2T - 2.2 ms): shown from frame 2.
  assert.equal(c1.latchFrame, 1);
  assert.deepEqual(r.shows.slice(0, 3), [-1, 0, 1]);
});

test('adreno.dpu.direct-before-pingpong: fires when a LUT is written before ping-pong done, quiet after', () => {
  const t = timing(SEED_MODE_2560x1440);
  const T = t.frameUs;
  const two = (direct: CommitDesc['direct']): CommitDesc[] => [
    { startUs: T - 7700, program: ['sspp', 'gc'], direct: 'after_pingpong' },
    { startUs: T - 6500, program: ['sspp', 'gc', 'igc'], direct },
  ];
  const bad = new Diagnostics();
  runTimeline(t, cfg(two('with_postproc')), bad);
  assert.equal(bad.counts.get('adreno.dpu.direct-before-pingpong'), 2, 'gc and igc');
  assert.equal(bad.list[0]!.where['commit'], 1);
  const good = new Diagnostics();
  runTimeline(t, cfg(two('after_pingpong')), good);
  assert.equal(good.size, 0);
  // Double-buffered groups written early are fine.
  const db = new Diagnostics();
  runTimeline(t, cfg([two('after_pingpong')[0]!, { startUs: T - 6500, program: ['pcc', 'hsic', 'dither'], direct: 'with_postproc' }]), db);
  assert.equal(db.size, 0);
});

test('the timeline is a Chrome / Perfetto trace: traceEvents, X and i events, pid/tid, ts in us', () => {
  const t = timing(SEED_MODE_2560x1440);
  const r = runTimeline(t, cfg([{ startUs: 0, program: ['sspp', 'igc'], direct: 'with_postproc' }], { frames: 2 }), new Diagnostics());
  const j = JSON.parse(traceJson(r)) as { traceEvents: { ph: string; ts: number; pid: number; tid: number; dur?: number; name: string }[] };
  assert.ok(Array.isArray(j.traceEvents));
  for (const e of j.traceEvents) {
    assert.ok(['X', 'i', 'M', 'C'].includes(e.ph));
    assert.equal(typeof e.ts, 'number');
    assert.equal(typeof e.pid, 'number');
    assert.equal(typeof e.tid, 'number');
    if (e.ph === 'X') assert.ok(e.dur! >= 0);
  }
  const names = j.traceEvents.map((e) => e.name);
  for (const n of ['ping-pong done', 'vsync', 'frame 0', 'mdss_mdp_overlay_kickoff (commit 0)', 'sspp_programming', 'wait_pingpong', 'flush_kickoff', 'frame_ready', 'mdss_fb0_retire', 'mdss_fb_0', 'latch commit 0'])
    assert.ok(names.includes(n), n);
  assert.ok(j.traceEvents.some((e) => e.ph === 'X' && e.name === 'frame 1' && Math.abs(e.ts - t.frameUs) < 1e-6));
});
