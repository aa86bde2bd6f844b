/**
 * The SQ's timeline (`gpusim run|draw --timeline FILE`): each turn a wave gets from the scheduler
 * (scheduler.ts) becomes a slice on the wave's track, grouped by the compute unit and SIMD the
 * wave's HW_ID1 names (exec/hwreg.ts: WAVE_ID [4:0] = id & 15, SIMD_ID = (id >> 4) & 3,
 * WGP_ID = (id >> 6) & 15), over the scheduler's model clock (one tick per issued
 * wave-instruction, written as µs). A wave waiting at s_barrier gets a "barrier" slice until the
 * release, one in s_sleep a "sleep" slice. Recorded per turn, never per instruction; past
 * `maxEvents` slices (default 250,000, a file of about 40 MB) a global instant marks where the
 * recording stopped.
 */
import type { TraceEvents } from '../../core/trace-events.js';
import type { Wave } from '../wave/wave.js';
import type { SqObserver } from './scheduler.js';

/** The process of the command processor's track (before the CUs' 1 + CU and POPS's 1000 + packer). */
const CP_PID = 500;

/** What one µs of an SQ timeline is. */
export const SQ_CLOCK = 'gpusim model clock: 1 tick per issued wave-instruction, shown as 1 µs';

/** The compute unit (WGP on GFX10+) and SIMD of a wave, as its HW_ID1 reads. */
export function wavePlacement(id: number): { readonly cu: number; readonly simd: number; readonly slot: number } {
  return { cu: (id >>> 6) & 15, simd: (id >>> 4) & 3, slot: id & 15 };
}

export class WaveTimeline {
  /**
   * Added to the clock of what is recorded: a command processor that runs dispatches one after
   * another, each with its scheduler clock from 0, sets it to `latest` before the next.
   */
  offset = 0;
  /** The latest time recorded (offset included). */
  latest = 0;
  /** Slices recorded; past `maxEvents` the rest are counted in `dropped`. */
  recorded = 0;
  dropped = 0;
  private readonly tids = new Map<string, number>();
  private readonly waiting = new Map<Wave, { key: string; from: number }>();

  /**
   * `out`: the event list (shared with POPS and CP tracks of the same run); processes are
   * pidBase + CU; `maxEvents` bounds the file.
   */
  readonly out: TraceEvents;
  private readonly pidBase: number;
  private readonly maxEvents: number;

  constructor(out: TraceEvents, pidBase = 1, maxEvents = 250_000) {
    this.out = out;
    this.pidBase = pidBase;
    this.maxEvents = maxEvents;
  }

  /**
   * A command-processor packet that ran waves (a PM4 draw or dispatch) as a slice from the clock
   * before it to the clock after its waves: the waves it launched lie inside it in time.
   */
  packet(name: string, from: number, to: number, args?: Readonly<Record<string, unknown>>): void {
    if (to > this.latest) this.latest = to;
    this.out.process(CP_PID, 'CP (PM4)', 0);
    this.out.thread(CP_PID, 1, 'draws and dispatches');
    this.out.slice(name, 'cp.packet', CP_PID, 1, from, to, args);
  }

  /** The observer for the waves of one stage ('compute', 'VS', 'GS', 'PS'): give it to the Sq. */
  stage(name: string): SqObserver {
    return {
      turn: (w, t0, t1) => this.turn(name, w, t0, t1),
      barrier: (peers, t) => this.released(peers, t),
    };
  }

  private track(stage: string, w: Wave): { pid: number; tid: number; key: string } {
    const key = `${stage}:${w.id}`;
    const { cu, simd } = wavePlacement(w.id);
    const pid = this.pidBase + cu;
    let tid = this.tids.get(key);
    if (tid === undefined) {
      tid = this.tids.size + 1;
      this.tids.set(key, tid);
      this.out.process(pid, `CU ${cu}`, pid);
      this.out.thread(pid, tid, `SIMD ${simd} · ${stage} wave ${w.id}`, simd * 1_000_000 + tid);
    }
    return { pid, tid, key };
  }

  private room(t: number): boolean {
    if (this.recorded < this.maxEvents) {
      this.recorded++;
      return true;
    }
    // The first slice past the bound leaves a mark where the file stops following the waves.
    if (this.dropped++ === 0) this.out.instant(`timeline full (${this.maxEvents} slices): later turns are not recorded`, 'timeline', this.pidBase, 0, t, 'g');
    return false;
  }

  private turn(stage: string, w: Wave, t0: number, t1: number): void {
    t0 += this.offset;
    t1 += this.offset;
    if (t1 > this.latest) this.latest = t1;
    if (!this.room(t0)) return;
    const { pid, tid, key } = this.track(stage, w);
    this.out.slice(stage === 'compute' ? `wave ${w.id}` : `${stage} wave ${w.id}`, `wave.${stage}`, pid, tid, t0, t1, {
      instructions: t1 - t0, workgroup: w.wgId.join(','), state: w.state,
    });
    if (w.state === 'barrier') this.waiting.set(w, { key, from: t1 });
    else if (w.state === 'sleep' && w.sleepUntil + this.offset > t1) this.out.slice('s_sleep', 'sleep', pid, tid, t1, w.sleepUntil + this.offset);
    else if (w.state === 'halted') this.out.instant(`halted${w.haltReason ? `: ${w.haltReason}` : ''}`, 'halt', pid, tid, t1);
  }

  private released(peers: readonly Wave[], t: number): void {
    t += this.offset;
    for (const w of peers) {
      const at = this.waiting.get(w);
      if (at === undefined) continue;
      this.waiting.delete(w);
      if (!this.room(t)) continue;
      const tid = this.tids.get(at.key)!;
      this.out.slice('s_barrier', 'barrier', this.pidBase + wavePlacement(w.id).cu, tid, at.from, t, { workgroup: w.wgId.join(',') });
    }
  }
}
