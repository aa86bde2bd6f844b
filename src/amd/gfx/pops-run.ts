/**
 * A small pixel-shader wave runner for POPS (seed 002_d00ee82034762a57.txt): it launches the
 * waves a `PopsUnit` formed as executor waves running real machine code, ties each to its POPS
 * state (`attachPops`), and interleaves them with a seeded random scheduler over a few compute
 * units. The instructions themselves drive the ordered-section state machine through the hooks
 * (s_setreg, src_pops_exiting_wave_id, s_sleep, s_wait_event, s_sendmsg, exp, s_endpgm).
 *
 * Scheduling (the SQ's scheduler, amd/sq/scheduler.ts `runSlots`): waves launch in rasterization
 * order into free wave slots (a CU is picked at random); each scheduler step runs a random ready
 * wave for a random quantum of 1..8 instructions; sleeping waves wake when their delay passes or
 * when an exit of their packer wakes them (GFX10+). When every resident wave sleeps, the clock
 * jumps to the earliest wake-up.
 *
 * Optional: a cache model (`PopsCaches`: per-CU L0/L1 views of memory, a shared L2) and a trace
 * recorder (`PopsTrace`: the Chrome trace of waves entering, waiting in and leaving ordered
 * sections).
 */
import { mulberry32 } from '../../core/prng.js';
import type { Diagnostics } from '../../core/diagnostics.js';
import type { Memory } from '../../core/memory.js';
import type { IsaTarget } from '../isa/target.js';
import { assembleLine } from '../isa/target.js';
import { Program } from '../engine/program.js';
import type { ExecEnv } from '../engine/env.js';
import { WAVE_STATE_SEED } from '../engine/env.js';
import { attachPops, popsBeforeInstruction } from '../exec/pops-exec.js';
import type { Clock } from '../engine/block.js';
import { prng, Sq } from '../sq/scheduler.js';
import type { WaveTimeline } from '../sq/timeline.js';
import { setExportSink, type ExportSink } from '../exec/exp.js';

const DISCARD_EXPORTS: ExportSink = { export: () => {} };
import { APERTURE } from '../exec/vmem.js';
import { Wave, SREG } from '../wave/wave.js';
import type { PopsUnit, PopsWave } from './pops.js';
import type { PopsCaches } from './pops-cache.js';
import { TraceEvents, traceEventJson, type TraceEvent } from '../../core/trace-events.js';

/** Where the runner maps the pixel shader's code. */
export const PS_CODE_VA = 0x6000_0000_0000;

/**
 * Assemble LLVM-syntax text with `.Lname:` labels: branch operands naming a label become the
 * SIMM16 dword offset from the next instruction (the assembler itself takes numbers only).
 */
export function assembleWithLabels(target: IsaTarget, source: string): Uint32Array {
  const lines = source.split('\n').map((l) => l.replace(/\/\/.*$|;.*$/, '').trim()).filter((l) => l !== '');
  const labels = new Map<string, number>();
  const insts: { text: string; at: number; words?: number[] }[] = [];
  let at = 0;
  for (const l of lines) {
    const raw = /^\.long\s+(.*)$/.exec(l);
    if (raw) {
      // Raw dwords (an encoding the assembler refuses for this target, e.g. a removed operand).
      const words = raw[1]!.split(',').map((x) => Number(x.trim()) >>> 0);
      at += words.length;
      insts.push({ text: l, at, words });
      continue;
    }
    const m = /^([.\w$]+):$/.exec(l);
    if (m) {
      labels.set(m[1]!, at);
      continue;
    }
    const probe = l.replace(/^(s_branch|s_cbranch_\w+)\s+[.A-Za-z_$][\w.$]*$/, '$1 0');
    at += assembleLine(target, probe).length;
    insts.push({ text: l, at });
  }
  const out: number[] = [];
  for (const { text, at: next, words } of insts) {
    if (words) {
      out.push(...words);
      continue;
    }
    const m = /^(s_branch|s_cbranch_\w+)\s+([.A-Za-z_$][\w.$]*)$/.exec(text);
    if (m) {
      const t = labels.get(m[2]!);
      if (t === undefined) throw new Error(`undefined label ${m[2]}`);
      out.push(...assembleLine(target, `${m[1]} ${t - next}`));
    } else out.push(...assembleLine(target, text));
  }
  return Uint32Array.from(out);
}

/** One pixel-shader wave to launch: its POPS state and how its registers are loaded. */
export interface PsLaunch {
  readonly pops: PopsWave;
  /** Load the wave's SGPR/VGPR arguments and EXEC (the runner sets nothing else). */
  readonly setup: (w: Wave) => void;
}

export interface PopsRunOptions {
  readonly target: IsaTarget;
  readonly unit: PopsUnit;
  /** The pixel shader's machine code (mapped at PS_CODE_VA). */
  readonly code: Uint32Array;
  readonly mem: Memory;
  /** Executor diagnostics (the PopsUnit reports into its own sink; pass the same one to merge). */
  readonly diags: Diagnostics;
  readonly seed: number;
  readonly waveSize?: 32 | 64;
  readonly vgprs?: number;
  readonly computeUnits?: number;
  /** Wave slots per compute unit. */
  readonly slotsPerCu?: number;
  readonly maxInstructions?: number;
  /** Per-CU cache views (attach only for runs that study coherence). */
  readonly caches?: PopsCaches;
  readonly trace?: PopsTrace;
  /** Record the scheduler's turns as 'PS' wave tracks (`gpusim pops oit --timeline`, sq/timeline.ts). */
  readonly timeline?: WaveTimeline;
}

export interface PopsRunResult {
  readonly instructions: number;
  readonly steps: number;
  /** Model clock at the end. */
  readonly clock: number;
  /** The run stopped early (budget, deadlock or a halted wave). */
  readonly aborted: boolean;
  readonly waves: readonly Wave[];
}

/** Deterministic PRNG (mulberry32): the scheduler's (amd/sq/scheduler.ts). */
export const popsRng = prng;

/** Run the launches to completion under the seeded scheduler (amd/sq/scheduler.ts `runSlots`). */
export function runPopsWaves(o: PopsRunOptions, launches: readonly PsLaunch[]): PopsRunResult {
  const ws = o.waveSize ?? 32;
  const vgprs = o.vgprs ?? 32;
  const rnd = popsRng(o.seed);
  const clk: Clock = { t: 0 };
  const env: ExecEnv = {
    space: o.target.space, diag: o.diags, seed: WAVE_STATE_SEED, waveSize: ws, vgprs, now: () => clk.t,
    ...(o.caches ? { cacheHook: o.caches } : {}),
  };
  const bytes = new Uint8Array(o.code.buffer.slice(o.code.byteOffset, o.code.byteOffset + o.code.byteLength));
  if (o.mem.find(PS_CODE_VA) === null) o.mem.map(PS_CODE_VA, Math.max(4096, Math.ceil(bytes.length / 4096) * 4096), 'ps-code');
  o.mem.writeBytes(PS_CODE_VA, bytes);
  const program = new Program(o.target, PS_CODE_VA, o.code, env);
  const cus = o.computeUnits ?? 4;
  const slots = o.slotsPerCu ?? 4;
  const perCu = new Array<number>(cus).fill(0);
  const lds = new Uint8Array(1024); // the scenes' pixel shaders use no LDS
  const trace = o.trace;
  const caches = o.caches;
  interface Res { p: PopsWave; cu: number }
  const res = new Map<Wave, Res>();
  const all: Wave[] = [];
  let next = 0;
  let steps = 0;

  const sq = new Sq({
    diag: o.diags, clock: clk, budget: o.maxInstructions ?? 5_000_000, observer: o.timeline?.stage('PS') ?? null,
    // The ordered section's rules and the caches around each instruction (the waves step op by op).
    before: (w, op) => {
      popsBeforeInstruction(w, op.inst, w.pc);
      caches?.beforeInstruction(w, clk.t);
    },
    after: (w) => {
      caches?.afterInstruction(w, clk.t - 1);
      trace?.observe(res.get(w)!.p, clk.t);
    },
  });
  sq.runSlots({
    program, rnd, maxQuantum: 8,
    step: () => void steps++,
    launch: (resident) => {
      while (next < launches.length) {
        const free: number[] = [];
        for (let c = 0; c < cus; c++) if (perCu[c]! < slots) free.push(c);
        if (free.length === 0) return;
        const cu = free[Math.floor(rnd() * free.length)]!;
        const l = launches[next++]!;
        const mem = caches ? caches.viewFor(cu) : o.mem;
        const w = new Wave(
          { waveSize: ws, vgprs, pc: PS_CODE_VA, sharedBase: APERTURE.SHARED, privateBase: APERTURE.PRIVATE, mode: 0xf0, status: 0 },
          mem, lds, { wg: [0, 0, 0], waveInGroup: 0, id: l.pops.seq },
        );
        w.s[SREG.EXEC_LO] = 0xffffffff;
        w.s[SREG.EXEC_HI] = ws === 64 ? 0xffffffff : 0;
        l.setup(w);
        attachPops(w, o.unit, l.pops);
        // This runner models the ordered section only: colour exports have no backend to reach.
        setExportSink(w, DISCARD_EXPORTS);
        perCu[cu]!++;
        resident.push(w);
        res.set(w, { p: l.pops, cu });
        all.push(w);
        trace?.launch(l.pops, cu, clk.t);
      }
    },
    retire: (w) => {
      const r = res.get(w)!;
      perCu[r.cu]!--;
      caches?.waveEnded(w, rnd);
      trace?.end(r.p, clk.t);
    },
  });
  caches?.drainAll();
  return { instructions: sq.executed, steps, clock: clk.t, aborted: sq.aborted, waves: all };
}

// ---------------------------------------------------------------- trace

/**
 * Records a Chrome trace (the JSON Perfetto and chrome://tracing open): one track per wave
 * (process = compute unit), with slices for the wave's life, its wait for overlapped waves and
 * its ordered section, and instant events for exits. Timestamps are model clocks shown as µs.
 */
export class PopsTrace {
  private readonly open = new Map<PopsWave, { cu: number; start: number; waitFrom: number; enteredAt: number; exitedAt: number }>();

  /**
   * `out`: the event list to add to (a `--timeline` shares one with the SQ's wave tracks);
   * `pidBase`: its processes are pidBase + CU (or packer) index; `label`: their name prefix.
   */
  readonly out: TraceEvents;
  private readonly pidBase: number;
  private readonly label: string;

  constructor(out: TraceEvents = new TraceEvents(), pidBase = 0, label = 'CU') {
    this.out = out;
    this.pidBase = pidBase;
    this.label = label;
  }

  get events(): readonly TraceEvent[] {
    return this.out.events;
  }

  launch(p: PopsWave, cu: number, clock: number): void {
    this.open.set(p, { cu, start: clock, waitFrom: -1, enteredAt: -1, exitedAt: -1 });
    this.out.process(this.pidBase + cu, `${this.label} ${cu}`);
    this.out.thread(this.pidBase + cu, p.seq, `wave ${p.seq} (SE${p.se} packer ${p.packer} id ${p.waveId})`);
  }

  /** Called after each instruction of the wave: notices the transitions of its POPS state. */
  observe(p: PopsWave, clock: number): void {
    const s = this.open.get(p);
    if (!s) return;
    if (s.waitFrom < 0 && p.waited) s.waitFrom = clock;
    if (s.enteredAt < 0 && p.entered) {
      s.enteredAt = clock;
      if (s.waitFrom >= 0 && p.blockedPolls > 0) this.slice('wait for overlapped waves', 'pops.wait', s.cu, p, s.waitFrom, clock, { polls: p.blockedPolls });
    }
    if (s.exitedAt < 0 && p.exited) {
      s.exitedAt = clock;
      if (s.enteredAt >= 0) this.slice('ordered section', 'pops.ordered', s.cu, p, s.enteredAt, clock, {});
      this.out.instant('exit ordered section', 'pops.exit', this.pidBase + s.cu, p.seq, clock);
    }
  }

  end(p: PopsWave, clock: number): void {
    this.observe(p, clock);
    const s = this.open.get(p);
    if (!s) return;
    this.slice(`wave ${p.seq}`, 'wave', s.cu, p, s.start, clock, {
      draw: p.draw, quads: p.quads.length, collisionWaveId: `0x${p.collisionWaveId.toString(16)}`, newestOverlapped: p.newestOverlapped?.seq ?? -1,
    });
    this.open.delete(p);
  }

  private slice(name: string, cat: string, cu: number, p: PopsWave, from: number, to: number, args: Record<string, number | string>): void {
    this.out.slice(name, cat, this.pidBase + cu, p.seq, from, to, args);
  }

  /** The trace file's JSON text. */
  json(): string {
    return traceEventJson(this.out.events, POPS_CLOCK);
  }
}

/** What one µs of a POPS trace is. */
export const POPS_CLOCK = 'gpusim model clocks (1 per wave-instruction), shown as µs';
