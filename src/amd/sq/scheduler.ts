/**
 * The SQ's wave scheduler: one for every workload (compute dispatches, the draw pipeline's NGG,
 * VS and PS waves, the POPS runner), as MGPUSim's compute unit owns wave slots and issue. The
 * rules live here once:
 * - issue: a wave runs for a quantum of instructions; on the fast engine a basic block
 *   (src/amd/engine/block.ts) runs in one step, cut at the end of the quantum or the budget, so
 *   every turn runs exactly the instructions op-by-op stepping would; per-op hooks (tracing, the
 *   POPS ordered-section and cache models) step op by op;
 * - an illegal instruction raises TRAPSTS.ILLEGAL_INST: the trap handler runs when one is
 *   installed, else the wave halts (gfx11.illegal-instruction);
 * - only s_endpgm may follow MSG_DEALLOC_VGPRS (gfx11.vgpr.use-after-dealloc);
 * - the instruction budget stops the run (gpusim.instruction-budget);
 * - a halted wave stops the run (nothing resumes it without a debugger: the hardware would hang);
 * - s_barrier completes when every live wave of the workgroup waits at it (a halted one never
 *   arrives: gfx11.barrier.deadlock);
 * - sleeping waves (s_sleep, s_wait_event, POPS ordered-section waits, cache stalls) wake when the
 *   model clock reaches their wake-up; when nothing else can run the clock jumps to the earliest;
 * - waves that can make no progress at all are reported once (gfx11.barrier.deadlock when they
 *   wait at a barrier, gfx11.wave.stuck otherwise) and the run stops;
 * - an optional observer (a timeline, sq/timeline.ts) sees each turn and barrier release; the
 *   per-instruction trace (sq/trace.ts) is a `before`/`after` hook pair.
 *
 * Which resident wave issues next is the arbitration of the workload, each keeping the seeded
 * order it always had (tests pin seeds): `runWorkgroups` (compute: workgroups resident in a few
 * slots, one picked per step and its waves interleaved), `runStage` (a draw stage: every wave of
 * the stage resident, all taking a turn per round), `runSlots` (POPS: waves launched into compute
 * unit wave slots, one random ready wave per step).
 */
import { mulberry32 } from '../../core/prng.js';
import type { Diagnostics } from '../../core/diagnostics.js';
import { DecodeError } from '../isa/types.js';
import { INST_CLASSES, type Op, type Program } from '../engine/program.js';
import { WAVE_STATE_SEED, type Engine } from '../engine/env.js';
import type { Block, Clock } from '../engine/block-types.js';
import { hotBlockAt, hotEntry } from '../engine/tier.js';
import { MEM_CLASS, type WaitcntSanitizer } from '../engine/waitcnt.js';
import { raiseException, TRAPSTS } from '../exec/trap.js';
import type { Wave } from '../wave/wave.js';

/** The round-robin quantum; seeded random quanta are 1..2*QUANTUM. */
export const QUANTUM = 64;

/** Deterministic PRNG: the project's one mulberry32 (src/core/prng.ts), the scheduler's seeded orders. */
export const prng: (seed: number) => () => number = mulberry32;

/** A trap handler's code: waves whose PC is in [base, end) run `program`. */
export interface TrapCode {
  readonly program: Program;
  readonly base: number;
  readonly end: number;
}

export interface SqOptions {
  readonly diag: Diagnostics;
  /** The model clock the programs' ExecEnv reads (one tick per issued wave-instruction). */
  readonly clock: Clock;
  /** Wave-instructions this run may issue. */
  readonly budget: number;
  /** 'interp' steps every op through the reference handlers; 'fast' (default) runs basic blocks. */
  readonly engine?: Engine;
  /** The wait-counter sanitizer (null: off). */
  readonly waitcnt?: WaitcntSanitizer | null;
  /** Before each instruction (tracing, POPS): the waves then step op by op. */
  readonly before?: ((w: Wave, op: Op) => void) | undefined;
  /** After each instruction, with the clock advanced (POPS caches and trace). */
  readonly after?: ((w: Wave) => void) | undefined;
  readonly trap?: TrapCode | null;
  /** Sees each turn and barrier release (a timeline, amd/sq/timeline.ts); per turn, never per instruction. */
  readonly observer?: SqObserver | null;
}

/** What a timeline sees of the scheduler: called per turn and per barrier release, not per instruction. */
export interface SqObserver {
  /** Wave `w` issued instructions from model clock `t0` to `t1` in one turn (its state is the one after it). */
  turn(w: Wave, t0: number, t1: number): void;
  /** The workgroup barrier of `peers` released its waiting waves at clock `t`. */
  barrier(peers: readonly Wave[], t: number): void;
}

export class Sq {
  readonly diag: Diagnostics;
  readonly clk: Clock;
  /** Wave-instructions this run may issue (a split run's slice moves it as the shared budget is spent: dispatch.ts budgetShare). */
  budget: number;
  /** Wave-instructions issued. */
  executed = 0;
  /** Per-class counts, indexed by Op.ci (INST_CLASSES). */
  private readonly counts = new Float64Array(INST_CLASSES.length);
  /** Blocks whose runs this scheduler has not added to `counts` yet (Block.runs). */
  private readonly uncounted: Block[] = [];

  /** Wave-instructions issued by class (indexed as INST_CLASSES). */
  get classCounts(): Float64Array {
    this.flushCounts();
    return this.counts;
  }

  /** Adds the pending runs of blocks to the counts by class. */
  private flushCounts(): void {
    const cc = this.counts;
    for (const b of this.uncounted) {
      const r = b.runs;
      let k = 0;
      for (let j = 0; j < b.n; j++) {
        k += r[j]!;
        r[j] = 0;
        if (k !== 0) cc[b.ops[j]!.ci]! += k;
      }
      r[b.n] = 0;
      b.counter = null;
    }
    this.uncounted.length = 0;
  }

  /** `b`'s runs are this scheduler's from now on (another's pending ones go to that one's counts first). */
  private countFor(b: Block): void {
    if (b.counter !== null) (b.counter as Sq).flushCounts();
    b.counter = this;
    this.uncounted.push(b);
  }
  /** The run must stop (budget, a halted wave, no progress). */
  stopped = false;
  /** The run stopped early (budget, deadlock, a halted wave). */
  aborted = false;
  private readonly blocks: boolean;
  private readonly wc: WaitcntSanitizer | null;
  private readonly before: ((w: Wave, op: Op) => void) | undefined;
  private readonly after: ((w: Wave) => void) | undefined;
  private readonly trapProgram: Program | null;
  private readonly trapBase: number;
  private readonly trapEnd: number;
  private readonly obs: SqObserver | null;

  constructor(o: SqOptions) {
    this.diag = o.diag;
    this.clk = o.clock;
    this.budget = o.budget;
    this.wc = o.waitcnt ?? null;
    this.before = o.before;
    this.after = o.after;
    // Basic blocks: the fast engine only (the interpreter stays the per-op reference), never under per-op hooks.
    this.blocks = o.engine !== 'interp' && o.before === undefined && o.after === undefined;
    const t = o.trap ?? null;
    this.trapProgram = t === null ? null : t.program;
    this.trapBase = t === null ? 0 : t.base;
    this.trapEnd = t === null ? 0 : t.end;
    this.obs = o.observer ?? null;
  }

  /**
   * One pass of the scheduler over `waves` (the first `n`, in `order` when given): each wave gets
   * a turn, if it is ready (a sleeper whose time came wakes; with `barrierAtTurn` a wave at a
   * barrier its peers all reached is released first), of a quantum of instructions (seeded:
   * 1..qmax; else QUANTUM) of `program` (or of the trap handler while its PC is there). On the
   * fast engine a basic block runs in one step, cut at the end of the quantum or the budget, so
   * every turn runs exactly the instructions op-by-op stepping would. Returns whether any wave
   * issued anything. (One function with the wave loop: this is the hot loop of every dispatch.)
   */
  pass(waves: readonly Wave[], n: number, order: Int32Array | null, rnd: (() => number) | null, qmax: number, program: Program, barrierAtTurn: boolean): boolean {
    const clk = this.clk;
    const budget = this.budget;
    const cc = this.counts;
    const wc = this.wc;
    const before = this.before;
    const after = this.after;
    const blocks = this.blocks;
    const tp = this.trapProgram;
    const tb = this.trapBase;
    const te = this.trapEnd;
    const obs = this.obs;
    let executed = this.executed;
    let progressed = false;
    for (let k = 0; k < n && !this.stopped; k++) {
      const w = waves[order !== null ? order[k]! : k]!;
      if (w.state === 'sleep' && clk.t >= w.sleepUntil) w.state = 'ready';
      if (barrierAtTurn && w.state === 'barrier') this.releaseBarrier(w.peers);
      if (w.state !== 'ready') continue;
      const q = rnd !== null ? 1 + Math.floor(rnd() * qmax) : QUANTUM;
      const t0 = clk.t;
      for (let i = 0; i < q && w.state === 'ready'; i++) {
        const prog = tp !== null && w.pc >= tb && w.pc < te ? tp : program;
        if (blocks && !w.vgprsReleased && executed < budget) {
          // A basic block in one step (block.ts), cut at the end of the quantum or the budget; until
          // it is hot (tier.ts) the op is stepped below.
          const b = hotBlockAt(prog, w.pc);
          if (b !== null) {
            // Entered at op e: 0, or where the wave's last turn cut the block (tier.ts). A loop body
            // that branched back to its start runs again at once while the turn and budget allow
            // (what hotBlockAt would return there: a loop body runs compiled from its first visit);
            // one translated whole may take those trips itself and return more than its n ops.
            let e = hotEntry.k;
            for (;;) {
              const room = budget - executed;
              const end = b.fn(w, clk, wc, e + (q - i < room ? q - i : room), b.ops, b.args, e);
              const ran = end - e;
              w.instructions += ran;
              executed += ran;
              // Counted by class when the counts are read (classCounts): two increments here.
              if (b.counter !== this) this.countFor(b);
              const r = b.runs;
              r[e]!++;
              if (end <= b.n) r[end]!--;
              else {
                // A loop body that took T back branches itself (block.ts: end = T n + d): runs of
                // [e, n), T - 1 times [0, n) and [0, d).
                const T = Math.floor(end / b.n), d = end - T * b.n;
                r[0]! += T;
                r[b.n]! -= T;
                r[d]!--;
              }
              i += ran;
              if (!b.loop || w.pc !== b.pc || i >= q || executed >= budget || w.state !== 'ready') break;
              e = 0;
            }
            i--;
            progressed = true;
            continue;
          }
        }
        if (executed >= budget) {
          this.diag.report({ id: 'gpusim.instruction-budget', severity: 'error', where: { pc: w.pc, wave: w.id }, message: `stopped after ${budget} wave-instructions (a runaway loop? raise --max-instructions)` });
          this.stopped = true;
          this.aborted = true;
          break;
        }
        let op: Op;
        try {
          op = prog.opAt(w.pc, w);
        } catch (e) {
          if (!(e instanceof DecodeError)) throw e;
          if (this.illegal(w, e)) continue;
          break;
        }
        // Read on every step, so the test has V8 feedback before the first wave releases its VGPRs
        // (an access first reached then deoptimised the optimised pass in every fresh run).
        const endpgm = op.endpgm;
        if (w.vgprsReleased && !endpgm) {
          this.diag.report({ id: 'gfx11.vgpr.use-after-dealloc', severity: 'error', where: { pc: w.pc, wave: w.id }, message: `${op.inst.mnemonic} after s_sendmsg MSG_DEALLOC_VGPRS: only s_endpgm may follow`, seed: WAVE_STATE_SEED });
        }
        if (before !== undefined) before(w, op);
        if (wc !== null && (w.waitTrack !== null || MEM_CLASS[op.ci] === 1)) wc.step(w, op);
        w.pc += op.size;
        op.run(w);
        w.instructions++;
        executed++;
        clk.t++;
        cc[op.ci]++;
        if (after !== undefined) after(w);
        progressed = true;
      }
      if (obs !== null && clk.t !== t0) obs.turn(w, t0, clk.t);
    }
    this.executed = executed;
    return progressed;
  }

  /** An undecodable instruction: TRAPSTS.ILLEGAL_INST; true when the trap handler now runs, else the wave halts. */
  private illegal(w: Wave, e: DecodeError): boolean {
    const trapped = raiseException(w, TRAPSTS.ILLEGAL_INST, w.pc);
    this.diag.report({ id: 'gfx11.illegal-instruction', severity: 'error', where: { pc: w.pc, wave: w.id }, message: `${e.message}; ${trapped ? 'the trap handler runs' : 'the wave is halted (an illegal-instruction trap with no handler)'}`, seed: WAVE_STATE_SEED });
    if (!trapped) w.state = 'halted';
    return trapped;
  }

  /** A sleeping wave whose wake-up time has come is ready again. */
  wake(w: Wave): void {
    if (w.state === 'sleep' && this.clk.t >= w.sleepUntil) w.state = 'ready';
  }

  /** Nothing could run: the clock jumps to the earliest wake-up of `waves`' sleepers; false when none will wake by itself. */
  skipToWake(waves: readonly Wave[]): boolean {
    let wake = Infinity;
    for (let k = 0; k < waves.length; k++) {
      const w = waves[k]!;
      if (w.state === 'sleep' && w.sleepUntil < wake) wake = w.sleepUntil;
    }
    if (wake === Infinity) return false;
    if (this.clk.t < wake) this.clk.t = wake;
    return true;
  }

  /**
   * The workgroup barrier of `peers`: released when every live wave (not ended, not halted)
   * waits at it and none is halted (a halted wave never arrives). Returns whether it released.
   */
  releaseBarrier(peers: readonly Wave[]): boolean {
    if (!barrierComplete(peers)) return false;
    this.obs?.barrier(peers, this.clk.t);
    release(peers);
    return true;
  }

  /**
   * `waves` can make no progress (none ready, none waking by itself, no barrier to release):
   * reported once, and the run stops. Waves at a barrier make it a barrier deadlock (with the
   * halted wave that never arrives, when there is one).
   */
  deadlock(waves: readonly Wave[]): void {
    this.stopped = true;
    this.aborted = true;
    this.reportDeadlock(waves);
  }

  /** What `deadlock` reports, without stopping the run (a retiring workgroup with a halted wave reports it too). */
  reportDeadlock(waves: readonly Wave[]): void {
    const waiting = waves.filter((w) => w.state === 'barrier').map((w) => w.id);
    if (waiting.length > 0) {
      const h = waves.find((w) => w.state === 'halted');
      const first = waves.find((w) => w.state === 'barrier')!;
      const why = h ? `while wave ${h.id} is halted${h.haltReason ? ` (${h.haltReason})` : ''}` : 'while the others have ended or are stuck';
      this.diag.report({ id: 'gfx11.barrier.deadlock', severity: 'error', where: { wave: waiting[0]!, workgroup: (h ?? first).wgId.join(',') }, message: `s_barrier can never complete: waves ${waiting.join(', ')} wait ${why}`, seed: WAVE_STATE_SEED });
      return;
    }
    const stuck = waves.filter((w) => w.state !== 'ended');
    const w = stuck[0] ?? waves[0]!;
    this.diag.report({ id: 'gfx11.wave.stuck', severity: 'error', where: { pc: w.pc, wave: w.id }, message: `${stuck.length} wave(s) can make no progress (${stuck.map((x) => `${x.id}:${x.state}`).join(', ')}); the run stops` });
  }

  // ------------------------------------------------------------------ arbitration

  /**
   * Compute: workgroups resident in `concurrent` slots (`launch` fills a free slot, null when no
   * group is left); each step picks a group (random: a seeded pick; round-robin: the oldest) and
   * gives each of its waves a turn (random: in a seeded order with a seeded quantum). A group
   * retires (`retire`) when its waves have all ended or one halted; a halt then stops the run.
   */
  runWorkgroups(o: WorkgroupArbitration): void {
    const random = o.rnd !== null;
    const rnd = o.rnd ?? Math.random;
    const program = o.program;
    const concurrent = o.concurrent;
    const order = new Int32Array(Math.max(1, o.wavesPerGroup));
    // Born holding objects (then emptied): a fresh [] has Smi elements until the first push, and
    // the optimised scheduler deoptimised ("wrong map") on that transition in every dispatch.
    const resident: ResidentGroup[] = [o.placeholder];
    resident.length = 0;
    const freeSlots = Array.from({ length: concurrent }, (_, i) => concurrent - 1 - i);
    const fill = (): void => {
      while (resident.length < concurrent) {
        const slot = freeSlots[freeSlots.length - 1]!;
        const g = o.launch(slot, this.stopped);
        if (g === null) break;
        freeSlots.pop();
        resident.push(g);
      }
    };
    fill();
    while (resident.length > 0 && !this.stopped) {
      const gi = random ? Math.floor(rnd() * resident.length) : 0;
      const g = resident[gi]!;
      const gw = g.waves;
      const nw = gw.length;
      if (random) shuffleInto(order, nw, rnd);
      let progressed = this.pass(gw, nw, random ? order : null, o.rnd, QUANTUM * 2, program, false);
      // Sleeping waves: when nothing else could run, the clock runs on to the earliest wake-up.
      if (!progressed && this.skipToWake(gw)) progressed = true;
      // Waves not ended or halted ("live"), of them those at the barrier, and halted ones.
      let live = 0;
      let atBarrier = 0;
      let halted = 0;
      for (let k = 0; k < nw; k++) {
        const st = gw[k]!.state;
        if (st === 'halted') halted++;
        else if (st !== 'ended') {
          live++;
          if (st === 'barrier') atBarrier++;
        }
      }
      if (atBarrier > 0 && barrierDue(live, atBarrier, halted)) {
        this.obs?.barrier(gw, this.clk.t);
        release(gw);
        progressed = true;
      }
      if (live === 0 || halted > 0) {
        if (halted > 0) {
          this.aborted = true;
          if (gw.some((w) => w.state === 'barrier')) this.reportDeadlock(gw);
        }
        o.retire(g);
        // resident.splice(gi, 1) without the array of removed elements it returns.
        for (let k = gi + 1; k < resident.length; k++) resident[k - 1] = resident[k]!;
        resident.pop();
        freeSlots.push(g.slot);
        fill();
        if (halted > 0) this.stopped = true;
        continue;
      }
      // (A pass that issued nothing because the budget ran out at its start stopped the run: no deadlock.)
      if (!progressed && !this.stopped) this.deadlock(gw);
    }
  }

  /**
   * A draw stage: every wave of `waves` (all running `program`) is resident; each round gives
   * every live wave a turn (random: in a seeded order with a seeded quantum); a wave at a barrier
   * its peers all reached is released at its turn. Ended waves leave after the round.
   */
  runStage(waves: readonly Wave[], program: Program, rnd: (() => number) | null): void {
    const live = waves.slice();
    const order = new Int32Array(Math.max(1, live.length));
    while (live.length > 0 && !this.stopped) {
      if (rnd !== null) shuffleInto(order, live.length, rnd);
      const progressed = this.pass(live, live.length, rnd !== null ? order : null, rnd, QUANTUM * 2, program, true);
      for (let k = live.length - 1; k >= 0; k--) {
        const s = live[k]!.state;
        if (s === 'halted') this.stopped = this.aborted = true;
        if (s === 'ended' || s === 'halted') live.splice(k, 1);
      }
      if (this.stopped || progressed || live.length === 0) continue;
      if (this.skipToWake(live)) continue;
      if (live.some((w) => w.state === 'barrier' && barrierComplete(w.peers))) continue;
      this.deadlock(live);
    }
  }

  /**
   * Waves launched into compute-unit wave slots (POPS): `launch` fills free slots; each step runs
   * one random ready wave for a random quantum of 1..maxQuantum instructions; a wave that ended
   * leaves its slot (`retire`) and the next launches.
   */
  runSlots(o: SlotArbitration): void {
    const rnd = o.rnd;
    const resident: Wave[] = [];
    const one: Wave[] = [];
    o.launch(resident);
    while (resident.length > 0 && !this.stopped) {
      for (const w of resident) this.wake(w);
      const ready = resident.filter((w) => w.state === 'ready');
      if (ready.length === 0) {
        if (!this.skipToWake(resident)) this.deadlock(resident);
        continue;
      }
      const w = ready[Math.floor(rnd() * ready.length)]!;
      o.step();
      one[0] = w;
      this.pass(one, 1, null, rnd, o.maxQuantum, o.program, false);
      if (this.stopped) break;
      if (w.state === 'ended' || w.state === 'halted') {
        resident.splice(resident.indexOf(w), 1);
        o.retire(w);
        if (w.state === 'halted') {
          this.stopped = this.aborted = true;
          break;
        }
        o.launch(resident);
      }
    }
  }
}

/** A workgroup resident in a slot. */
export interface ResidentGroup {
  readonly waves: Wave[];
  readonly slot: number;
}

export interface WorkgroupArbitration {
  readonly program: Program;
  /** Seeded random order, or null for round-robin. */
  readonly rnd: (() => number) | null;
  readonly concurrent: number;
  readonly wavesPerGroup: number;
  /** An object of the resident list's element shape (see runWorkgroups). */
  readonly placeholder: ResidentGroup;
  /** Launch the next workgroup into `slot`; null when none is left (`stopped`: the run stops). */
  launch(slot: number, stopped: boolean): ResidentGroup | null;
  /** The group's waves all ended, or one halted: it leaves its slot. */
  retire(g: ResidentGroup): void;
}

export interface SlotArbitration {
  readonly program: Program;
  readonly rnd: () => number;
  readonly maxQuantum: number;
  /** Launch waves into free slots, appending them to `resident`. */
  launch(resident: Wave[]): void;
  /** A wave ended or halted and left its slot. */
  retire(w: Wave): void;
  /** A scheduler step begins (statistics). */
  step(): void;
}

/**
 * The barrier rule: s_barrier completes when every live wave of the workgroup (not ended, not
 * halted) waits at it, and no wave is halted (a halted wave never arrives).
 */
function barrierDue(live: number, atBarrier: number, halted: number): boolean {
  return live > 0 && atBarrier === live && halted === 0;
}

/** Every live peer waits at the barrier (and none is halted). */
function barrierComplete(peers: readonly Wave[]): boolean {
  let live = 0;
  let atBarrier = 0;
  let halted = 0;
  for (let k = 0; k < peers.length; k++) {
    const st = peers[k]!.state;
    if (st === 'halted') halted++;
    else if (st !== 'ended') {
      live++;
      if (st === 'barrier') atBarrier++;
    }
  }
  return barrierDue(live, atBarrier, halted);
}

/** Release the waves waiting at the barrier. */
function release(peers: readonly Wave[]): void {
  for (let k = 0; k < peers.length; k++) if (peers[k]!.state === 'barrier') peers[k]!.state = 'ready';
}

/** A seeded Fisher-Yates shuffle of 0..n-1 into `a` (the same draws as a fresh array would take). */
export function shuffleInto(a: Int32Array, n: number, rnd: () => number): void {
  for (let i = 0; i < n; i++) a[i] = i;
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    const t = a[i]!;
    a[i] = a[j]!;
    a[j] = t;
  }
}
