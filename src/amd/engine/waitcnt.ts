/**
 * Wait-counter sanitizer: reports `gfx11.waitcnt.read-before-wait` when an instruction reads or
 * overwrites a register that is the destination of a load the program has not waited for.
 *
 * The functional model completes every load at issue, so a missing s_waitcnt never changes
 * gpusim's results; on hardware the instruction would see the register's old value. Per wave it
 * tracks, for each VGPR and SGPR, which outstanding load writes it and that load's serial number
 * on its counter:
 * - VM_CNT (VMEM/FLAT/GLOBAL/SCRATCH loads, atomics with return): returns in order, so
 *   `vmcnt(N)` retires all but the newest N;
 * - LGKM_CNT: DS returns in order among DS ops (`lgkmcnt(N)` retires all but the newest N DS
 *   ops whatever else is counted), SMEM returns out of order (only `lgkmcnt(0)` retires it);
 * - VS_CNT (stores) writes no register, so it needs no tracking here.
 * A load may overwrite the destination of an older load on the same in-order counter (they land
 * in order). Cost: one field test per instruction while the wave has nothing outstanding.
 * Register operands are read off the instruction's printed text (every encoding, VOPD included).
 */
import type { Diagnostics } from '../../core/diagnostics.js';
import type { Wave } from '../wave/wave.js';
import { WAVE_STATE_SEED } from './env.js';
import { INST_CLASSES, type Op } from './types.js';
import type { OperandSpace } from '../isa/operands.js';
import { storesInVmcnt } from '../target/space.js';

const NONE = 0;
const VM = 1;
const DS = 2;
const SMEM = 3;
const KIND_NAME = ['', 'VM_CNT', 'LGKM_CNT (DS)', 'LGKM_CNT (SMEM)'];

/** Register ids: SGPR/special operand encodings 0..127, VGPR n as 256 + n. */
interface OpInfo {
  /** Load kind whose destination is `dst` (NONE when the op returns no data). */
  readonly kind: number;
  /** The counter whose issue order the op takes part in: every DS op counts (stores too). */
  readonly counts: number;
  readonly dst: Int32Array;
  /** Every register the op names (sources and destinations). */
  readonly refs: Int32Array;
  /** For waits: the counter limits (-1 = that counter is not waited on), or null. */
  readonly wait: { vm: number; lgkm: number; sgpr: number } | null;
}

/** Register ids 0..511: scalar encodings 0..255, VGPRs 256..511 (v0..v255). */
const REGS = 512;

/** The outstanding loads of a wave, as a step computes them (then interned: State). */
class Track {
  /**
   * Load kind of each register's outstanding load, NONE once it retired (cleared at each wait).
   * Basic blocks read it from generated code (block.ts, `checkRefs`, through State.kind): an op
   * none of whose registers has a kind here needs no `step`.
   */
  readonly kind = new Uint8Array(REGS);
  readonly ser = new Float64Array(REGS);
  readonly pc = new Float64Array(REGS);
  readonly issued = new Float64Array(4);
  readonly done = new Float64Array(4);
  /** Registers whose kind was set since the last reset (reset clears only those). */
  readonly dirty = new Int32Array(REGS);
  readonly listed = new Uint8Array(REGS);
  ndirty = 0;
  mark(r: number, kind: number): void {
    if (this.listed[r] === 0) {
      this.listed[r] = 1;
      this.dirty[this.ndirty++] = r;
    }
    this.kind[r] = kind;
  }
  reset(): void {
    for (let i = 0; i < this.ndirty; i++) {
      const r = this.dirty[i]!;
      this.kind[r] = NONE;
      this.listed[r] = 0;
    }
    this.ndirty = 0;
    this.issued.fill(0);
    this.done.fill(0);
  }
  /** Forget the kinds of registers whose loads have retired (check skips those registers anyway). */
  sweep(): void {
    for (let i = 0; i < this.ndirty; i++) {
      const r = this.dirty[i]!;
      const k = this.kind[r]!;
      if (k !== NONE && this.ser[r]! <= this.done[k]!) this.kind[r] = NONE;
    }
  }
  /** Take `src`'s contents (this track was reset). */
  copy(src: Track): void {
    for (let i = 0; i < src.ndirty; i++) {
      const r = src.dirty[i]!;
      this.mark(r, src.kind[r]!);
      this.ser[r] = src.ser[r]!;
      this.pc[r] = src.pc[r]!;
    }
    this.issued.set(src.issued);
    this.done.set(src.done);
  }
  busy(): boolean {
    return this.done[VM]! < this.issued[VM]! || this.done[DS]! < this.issued[DS]! || this.done[SMEM]! < this.issued[SMEM]!;
  }
}

const REG = /\b(v|s|ttmp)(\d+)\b|\b(v|s|ttmp)\[(\d+):(\d+)\]|\b(vcc_lo|vcc_hi|vcc)\b/g;

function regId(file: string, n: number): number {
  return file === 'v' ? 256 + n : file === 'ttmp' ? 108 + n : n;
}

/** All register ids named by an operand list text; also returns the first operand's ids. */
function parseRegs(text: string): { all: number[]; first: number[] } {
  const sp = text.indexOf(' ');
  const ops = sp < 0 ? '' : text.slice(sp + 1);
  const firstEnd = ops.indexOf(',');
  const all: number[] = [];
  const first: number[] = [];
  for (const m of ops.matchAll(REG)) {
    const ids: number[] = [];
    if (m[1]) ids.push(regId(m[1], Number(m[2])));
    else if (m[3]) for (let i = Number(m[4]); i <= Number(m[5]); i++) ids.push(regId(m[3], i));
    else if (m[6] === 'vcc') ids.push(106, 107);
    else ids.push(m[6] === 'vcc_lo' ? 106 : 107);
    all.push(...ids);
    if (firstEnd < 0 || m.index! < firstEnd) first.push(...ids);
  }
  return { all, first };
}

function analyse(op: Op, storesInVm: boolean): OpInfo {
  const inst = op.inst;
  const mn = inst.mnemonic;
  if (mn === 's_waitcnt') {
    const v = inst.fields.simm16 ?? 0;
    return { kind: NONE, counts: NONE, dst: new Int32Array(0), refs: new Int32Array(0), wait: { vm: (v >>> 10) & 0x3f, lgkm: (v >>> 4) & 0x3f, sgpr: -1 } };
  }
  if (mn === 's_waitcnt_vmcnt' || mn === 's_waitcnt_lgkmcnt') {
    const n = inst.fields.simm16 ?? 0;
    const sd = inst.fields.sdst ?? 124;
    const vm = mn === 's_waitcnt_vmcnt';
    return { kind: NONE, counts: NONE, dst: new Int32Array(0), refs: new Int32Array(0), wait: { vm: vm ? n : -1, lgkm: vm ? -1 : n, sgpr: sd === 124 ? -1 : sd } };
  }
  if (mn.startsWith('s_waitcnt') || mn === 's_endpgm' || mn === 's_nop' || mn === 's_delay_alu' || mn === 's_clause') {
    return { kind: NONE, counts: NONE, dst: new Int32Array(0), refs: new Int32Array(0), wait: null };
  }
  const { all, first } = parseRegs(op.text());
  let kind = NONE;
  const enc = inst.encoding;
  const glc = (inst.fields.glc ?? 0) === 1;
  if (enc === 'SMEM') kind = /^s_(buffer_)?load/.test(mn) ? SMEM : NONE;
  else if (enc === 'DS') kind = /_rtn|^ds_load|^ds_swizzle|permute|^ds_append|^ds_consume/.test(mn) && !inst.fields.gds ? DS : NONE;
  else if (enc === 'FLAT' || enc === 'GLOBAL' || enc === 'SCRATCH' || enc === 'MUBUF' || enc === 'MTBUF' || enc === 'MIMG') {
    if (/_load_lds/.test(mn)) kind = NONE;
    else if (/_load|image_sample|image_gather|image_get|image_bvh/.test(mn) || (/_atomic_/.test(mn) && glc)) kind = VM;
  }
  let counts = enc === 'DS' ? DS : enc === 'SMEM' ? SMEM : kind;
  // GFX9 has no VS_CNT: stores (and atomics without return) take their place in VM_CNT's order.
  if (storesInVm && counts === NONE && (enc === 'FLAT' || enc === 'GLOBAL' || enc === 'SCRATCH' || enc === 'MUBUF' || enc === 'MTBUF' || enc === 'MIMG')) counts = VM;
  return { kind, counts, dst: Int32Array.from(kind === NONE ? [] : first), refs: Int32Array.from(all), wait: null };
}

/**
 * By Op.ci: 1 for the classes that may issue a counted load (memory instructions). A wave with no
 * track (w.waitTrack null) needs `step` only for these: the scheduler tests it inline.
 */
export const MEM_CLASS = Uint8Array.from(INST_CLASSES, (c) => (c === 'smem' || c === 'vmem' || c === 'flat' || c === 'lds' ? 1 : 0));

/**
 * For an op whose sanitizer step can only check its registers (not a memory op, not a wait, not
 * s_endpgm), the register ids it names; null for any other op. Such an op's `step` does nothing
 * unless one of these registers has a kind in the wave's track (Track.kind), which a basic block
 * tests inline instead of calling `step` (block.ts).
 */
export function checkRefs(op: Op): Int32Array | null {
  if (MEM_CLASS[op.ci] !== 0 || op.inst.mnemonic === 's_endpgm') return null;
  // storesInVm only changes memory encodings' counters: any value gives a non-memory op's info.
  const info = infoOf(op, false);
  return info.wait === null && info.counts === NONE ? info.refs : null;
}

function infoOf(op: Op, storesInVm: boolean): OpInfo {
  let info = op.waitInfo as OpInfo | null;
  if (info === null) op.waitInfo = info = analyse(op, storesInVm);
  return info;
}

/** apply's result bits. */
const LIVE = 1, SGPR_READ = 2;

/** What a step found: the register it reports (the op's first outstanding one) and the message. */
interface Finding {
  readonly register: string;
  readonly message: string;
}

/**
 * A wave's track as the sanitizer keeps it: interned and never changed. Its Track is canonical:
 * every counter's `done` is 0 (`issued` is what is outstanding on it) and only registers whose load
 * is still outstanding have a kind (with their serial numbers shifted to match), so two histories
 * that leave the same outstanding loads share one State. The next state is a pure function of the
 * state and the op (waits that read their count from an SGPR aside: those are not memoised), so
 * each step is remembered on the state it leaves, by the op's PC (`next`).
 */
class State {
  /** Read by basic blocks (block.ts) to skip steps that can only check registers: see Track.kind. */
  readonly kind: Uint8Array;
  readonly next = new Map<number, Step>();
  /** Runs of steps taken from this state (stepRun), by block and range. */
  readonly runs = new Map<StepRefs, Map<number, RunStep>>();
  readonly track: Track;
  constructor(track: Track) {
    this.track = track;
    this.kind = track.kind;
  }
}

/** One op's step from a state: the state it leaves (null: nothing outstanding) and what it reports. */
interface Step {
  readonly op: Op;
  readonly to: State | null;
  readonly finding: Finding | null;
  /** Remembered (not a wait that read its count from an SGPR). */
  readonly kept: boolean;
}

/**
 * Each op's sanitizer step as a basic block takes it (block.ts stepLines): ALWAYS (a memory op),
 * TRACKED (whenever the wave has a track), NEVER (an op whose step checks no register), or LISTED
 * (when one of its registers, regs[at[i]..at[i + 1]), checkRefs, has an outstanding load). Typed
 * arrays, so stepRun's loop sees one shape whatever the block.
 */
export interface StepRefs {
  readonly how: Uint8Array;
  readonly at: Int32Array;
  readonly regs: Int32Array;
}
export const ALWAYS = 0, TRACKED = 1, NEVER = 2, LISTED = 3;

/** The step rules of a block's ops, made once per op list (a block's code and its replays share them). */
export function stepRefsOf(ops: readonly Op[]): StepRefs {
  let sr = stepRefsMade.get(ops);
  if (sr === undefined) stepRefsMade.set(ops, (sr = makeStepRefs(ops)));
  return sr;
}
const stepRefsMade = new WeakMap<readonly Op[], StepRefs>();

function makeStepRefs(ops: readonly Op[]): StepRefs {
  const how = new Uint8Array(ops.length);
  const at = new Int32Array(ops.length + 1);
  const regs: number[] = [];
  ops.forEach((op, i) => {
    at[i] = regs.length;
    if (MEM_CLASS[op.ci] === 1) return void (how[i] = ALWAYS);
    const refs = checkRefs(op);
    if (refs === null) how[i] = TRACKED;
    else if (refs.length === 0) how[i] = NEVER;
    else {
      how[i] = LISTED;
      regs.push(...new Set(refs));
    }
  });
  at[ops.length] = regs.length;
  return { how, at, regs: Int32Array.from(regs) };
}

/**
 * The steps of a run of a block's ops (stepRun) from one state: the state they leave, the PC of the
 * last op stepped (-1: none) and what they found, in order.
 */
interface RunStep {
  readonly first: Op;
  readonly to: State | null;
  readonly lastPc: number;
  readonly findings: readonly (readonly [number, Finding])[];
}

export class WaitcntSanitizer {
  private readonly diag: Diagnostics | null;
  private readonly reported = new Set<number>();
  /** States by their canonical contents (see State), and the steps of waves with no track. */
  private readonly states = new Map<string, State>();
  private readonly fromNone = new Map<number, Step>();
  private readonly noneRuns = new Map<StepRefs, Map<number, RunStep>>();
  /** The working track a step is computed on (then interned). */
  private readonly work = new Track();

  private readonly storesInVm: boolean;

  /** `space`: the target's operand space (GFX9 counts stores on VM_CNT); default GFX11 rules. */
  constructor(diag: Diagnostics | null, space?: OperandSpace) {
    this.diag = diag;
    this.storesInVm = space !== undefined && storesInVmcnt(space);
  }

  /** How many distinct tracks (States) the waves have left so far: bounded by the program, not by its run. */
  get trackStates(): number {
    return this.states.size;
  }

  /**
   * Call before `op` executes on `w` (with w.pc still at the op). A wave carries a track only
   * while a load is outstanding (w.waitTrack, a State): with none, a non-memory op costs one test.
   * Dropping the track once every counter has retired is exact: then issued == done on every
   * counter and only the order of later operations matters. A step already taken from the same
   * state at the same op is looked up, not computed (a dispatch's waves repeat each other's).
   */
  step(w: Wave, op: Op): void {
    const t = w.waitTrack as State | null;
    if (t === null && MEM_CLASS[op.ci] === 0) return;
    const f = this.advance(w, t, op);
    if (f !== null) this.report(w, w.pc, f);
  }

  /**
   * The steps of ops [from, to) of a basic block (at `pcs`, their rules `sr`) that ran without
   * stepping (a translated run: block.ts), each as the block's step lines take it (w.pc at the op).
   * Their outcome from the wave's state is remembered: a dispatch's waves mostly repeat it.
   */
  stepRun(w: Wave, ops: readonly Op[], pcs: readonly number[], sr: StepRefs, from: number, to: number): void {
    const t = w.waitTrack as State | null;
    const memo = t === null ? this.noneRuns : t.runs;
    let m = memo.get(sr);
    if (m === undefined) memo.set(sr, (m = new Map()));
    // A block has at most 48 ops (block.ts MAX_OPS).
    const key = from * 64 + to;
    let rs = m.get(key);
    if (rs === undefined || rs.first !== ops[from]) {
      const made = this.runOf(w, ops, pcs, sr, from, to);
      if (made !== null) m.set(key, made);
      return;
    }
    w.waitTrack = rs.to;
    if (rs.lastPc >= 0) w.pc = rs.lastPc;
    for (const [pc, f] of rs.findings) this.report(w, pc, f);
  }

  /** stepRun's steps one by one (reported as they come); their RunStep, null when one read an SGPR. */
  private runOf(w: Wave, ops: readonly Op[], pcs: readonly number[], sr: StepRefs, from: number, to: number): RunStep | null {
    const how = sr.how;
    const findings: [number, Finding][] = [];
    let lastPc = -1;
    let pure = true;
    for (let i = from; i < to; i++) {
      const r = how[i]!;
      if (r === NEVER) continue;
      const t = w.waitTrack as State | null;
      if (r !== ALWAYS) {
        if (t === null) continue;
        if (r === LISTED) {
          const kind = t.kind, regs = sr.regs;
          let any = 0;
          for (let j = sr.at[i]!, e = sr.at[i + 1]!; j < e; j++) any |= kind[regs[j]!]!;
          if (any === 0) continue;
        }
      }
      const op = ops[i]!;
      w.pc = lastPc = pcs[i]!;
      if (t === null && MEM_CLASS[op.ci] === 0) continue;
      const s = this.stepOf(w, t, op);
      if (!s.kept) pure = false;
      w.waitTrack = s.to;
      if (s.finding !== null) {
        findings.push([w.pc, s.finding]);
        this.report(w, w.pc, s.finding);
      }
    }
    return pure ? { first: ops[from]!, to: w.waitTrack as State | null, lastPc, findings } : null;
  }

  /** A finding at `pc`, reported for the first wave that makes it there. */
  private report(w: Wave, pc: number, f: Finding): void {
    if (this.reported.has(pc)) return;
    this.reported.add(pc);
    this.diag?.report({ id: 'gfx11.waitcnt.read-before-wait', severity: 'error', where: { pc, wave: w.id, register: f.register }, message: f.message, seed: WAVE_STATE_SEED });
  }

  /**
   * A step without reporting, on a track of the probe's own that is neither interned nor
   * remembered (quietPrefix probes each op from one or two states only): whether it finds nothing.
   * The wave's track is that Track, or null as `step` leaves it.
   */
  probe(w: Wave, op: Op): boolean {
    const had = w.waitTrack !== null;
    if (!had && MEM_CLASS[op.ci] === 0) return true;
    const t = this.work;
    if (!had) t.reset();
    w.waitTrack = this.apply(t, had, w, op) & LIVE ? t : null;
    return this.found === null;
  }

  /** The wave moves to the state its step at `op` leaves; returns the step's finding. */
  private advance(w: Wave, t: State | null, op: Op): Finding | null {
    const s = this.stepOf(w, t, op);
    w.waitTrack = s.to;
    return s.finding;
  }

  /** The step of `op` at w.pc from state `t`: remembered, or computed now. */
  private stepOf(w: Wave, t: State | null, op: Op): Step {
    const memo = t === null ? this.fromNone : t.next;
    const s = memo.get(w.pc);
    return s !== undefined && s.op === op ? s : this.compute(t, w, op, memo);
  }

  /** The step of `op` at w.pc from state `from`, remembered in `memo` unless it read an SGPR. */
  private compute(from: State | null, w: Wave, op: Op, memo: Map<number, Step>): Step {
    const t = this.work;
    t.reset();
    if (from !== null) t.copy(from.track);
    const r = this.apply(t, from !== null, w, op);
    const s: Step = { op, to: r & LIVE ? this.intern(t) : null, finding: this.found, kept: (r & SGPR_READ) === 0 };
    if (s.kept) memo.set(w.pc, s);
    return s;
  }

  /** What `apply` found (null: nothing). */
  private found: Finding | null = null;

  /**
   * The sanitizer's rules: `op`'s step on the wave's outstanding loads `t` (`had`: the wave had a
   * track; else `t` is empty). Returns LIVE when the wave keeps a track, SGPR_READ when the step read
   * an SGPR (a wait's count); leaves its finding in `found`.
   */
  private apply(t: Track, had: boolean, w: Wave, op: Op): number {
    this.found = null;
    const info = infoOf(op, this.storesInVm);
    if (!had) {
      if (info.kind === NONE) return 0;
      this.issue(w, t, info);
      return LIVE;
    }
    if (op.cls === 'branch' && op.inst.mnemonic === 's_endpgm') return 0;
    if (MEM_CLASS[op.ci] === 0 && !t.busy()) return LIVE;
    if (info.wait !== null) {
      this.retire(w, t, info.wait);
      return (t.busy() ? LIVE : 0) | (info.wait.sgpr >= 0 ? SGPR_READ : 0);
    }
    if (t.busy()) this.found = this.check(w, t, op, info);
    this.issue(w, t, info);
    return LIVE;
  }

  /** The State of `t`'s contents (see State: counters and serial numbers shifted so done is 0). */
  private intern(t: Track): State {
    const regs: number[] = [];
    for (let i = 0; i < t.ndirty; i++) {
      const r = t.dirty[i]!;
      const k = t.kind[r]!;
      if (k !== NONE && t.ser[r]! > t.done[k]!) regs.push(r);
    }
    regs.sort((a, b) => a - b);
    let key = `${t.issued[VM]! - t.done[VM]!},${t.issued[DS]! - t.done[DS]!},${t.issued[SMEM]! - t.done[SMEM]!}`;
    for (const r of regs) {
      const k = t.kind[r]!;
      key += `;${r}:${k}:${t.issued[k]! - t.ser[r]!}:${t.pc[r]!}`;
    }
    let s = this.states.get(key);
    if (s === undefined) {
      const c = new Track();
      for (let k = VM; k <= SMEM; k++) c.issued[k] = t.issued[k]! - t.done[k]!;
      for (const r of regs) {
        const k = t.kind[r]!;
        c.mark(r, k);
        c.ser[r] = t.ser[r]! - t.done[k]!;
        c.pc[r] = t.pc[r]!;
      }
      s = new State(c);
      this.states.set(key, s);
    }
    return s;
  }

  private issue(w: Wave, t: Track, info: OpInfo): void {
    if (info.counts === NONE) return;
    const ser = ++t.issued[info.counts]!;
    for (const r of info.dst) {
      t.mark(r, info.kind);
      t.ser[r] = ser;
      t.pc[r] = w.pc;
    }
  }

  private retire(w: Wave, t: Track, wait: { vm: number; lgkm: number; sgpr: number }): void {
    const extra = wait.sgpr >= 0 ? w.s[wait.sgpr]! : Infinity;
    const vm = wait.vm < 0 ? -1 : Math.min(wait.vm, extra);
    const lgkm = wait.lgkm < 0 ? -1 : Math.min(wait.lgkm, extra);
    if (vm >= 0 && vm < 63) t.done[VM] = Math.max(t.done[VM]!, t.issued[VM]! - vm);
    if (lgkm >= 0 && lgkm < 63) {
      t.done[DS] = Math.max(t.done[DS]!, t.issued[DS]! - lgkm);
      if (lgkm === 0) t.done[SMEM] = t.issued[SMEM]!;
    }
    t.sweep();
  }

  /** The op's first register read or overwritten before its load was waited for (each such load is then forgotten). */
  private check(w: Wave, t: Track, op: Op, info: OpInfo): Finding | null {
    let found: Finding | null = null;
    for (const r of info.refs) {
      const k = t.kind[r]!;
      if (k === NONE || t.ser[r]! <= t.done[k]!) continue;
      // A newer load on the same in-order counter may overwrite an older one's destination.
      if (info.kind === k && k !== SMEM && info.dst.includes(r) && !this.readsOther(info, r)) continue;
      t.kind[r] = NONE;
      if (found !== null) continue;
      const name = r >= 256 ? `v${r - 256}` : r === 106 ? 'vcc_lo' : r === 107 ? 'vcc_hi' : r >= 108 && r < 124 ? `ttmp${r - 108}` : `s${r}`;
      found = {
        register: name,
        message: `${op.inst.mnemonic} uses ${name}, the destination of the load at pc 0x${t.pc[r]!.toString(16)} that is still outstanding on ${KIND_NAME[k]}: no s_waitcnt covers it, so the hardware may see the old value`,
      };
    }
    return found;
  }

  /**
   * Replays the steps of `ops[from..n)` (at `pcs`) on a wave that entered a basic block at op
   * `from` with no track and skipped them (block.ts, `quietPrefix`): the block left before the point where the track is
   * known to be empty again. The wave's PC is kept.
   */
  replay(w: Wave, ops: readonly Op[], pcs: readonly number[], n: number, from = 0): void {
    // The steps as stepRun takes them (its rules skip only steps that change nothing), remembered
    // the same way: a loop body cut by the scheduler's quantum replays its prefix every few turns
    // (matmul 256x256: ~1 M steps a dispatch, ~4% of its warm time).
    const pc = w.pc;
    this.stepRun(w, ops, pcs, stepRefsOf(ops), from, n);
    w.pc = pc;
  }

  /** Whether r also appears as a source of the op (beyond its destination list). */
  private readsOther(info: OpInfo, r: number): boolean {
    let n = 0;
    for (const x of info.refs) if (x === r) n++;
    return n > 1;
  }
}

/**
 * How many leading ops of a straight-line block (at `pcs`) a wave entering it with no track may run
 * without sanitizer steps: the largest n such that, stepped from no track, ops[0..n) report nothing
 * and leave no track. Stepping depends only on the ops (and the PCs, for messages) until a wait
 * reads its count from an SGPR, where the simulation stops. So a wave with no track that runs the
 * whole prefix ends with no track and no report, exactly as stepping would leave it; one that leaves
 * the block inside the prefix replays the steps it skipped (`WaitcntSanitizer.replay`). With
 * `from` and `to`: the same for a wave entering at op `from` (a block entered mid-way), ops up to
 * `to` only; the result is then an index into `ops` (>= from).
 */
export function quietPrefix(ops: readonly Op[], pcs: readonly number[], space?: OperandSpace, from = 0, to = ops.length, probe = quietProbe(space)): number {
  const w = { waitTrack: null, pc: 0, id: -1 } as unknown as Wave;
  let best = from;
  for (let i = from; i < to; i++) {
    const op = ops[i]!;
    if (w.waitTrack !== null && MEM_CLASS[op.ci] === 0) {
      const info = infoOf(op, space !== undefined && storesInVmcnt(space));
      if (info.wait !== null && info.wait.sgpr >= 0) break;
    }
    w.pc = pcs[i]!;
    if (!probe.probe(w, op)) break;
    if (w.waitTrack === null) best = i + 1;
  }
  return best;
}

/**
 * A sanitizer for quietPrefix's probes (it reports nothing): one can serve every probe of a block,
 * which then share their steps.
 */
export function quietProbe(space?: OperandSpace): WaitcntSanitizer {
  return new WaitcntSanitizer(null, space);
}
