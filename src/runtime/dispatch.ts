/**
 * Compute dispatch on the RDNA3 model: load a code object into GPU memory, build the HSA dispatch
 * packet, launch workgroups and their waves exactly as COMPUTE_PGM_RSRC1/2/3 and the kernel code
 * properties say (user SGPRs, system SGPRs, work-item IDs in VGPRs, EXEC for partial waves), and
 * run them under the SQ's seeded scheduler (src/amd/sq/scheduler.ts `runWorkgroups`).
 *
 * Scheduling: waves of a workgroup are interleaved; `roundrobin` gives each ready wave a fixed
 * quantum in turn, `random` picks the next wave and its quantum from a seeded PRNG and runs
 * several workgroups at once, which is how ordering guarantees (barriers) are exercised.
 */
import { mulberry32 } from '../core/prng.js';
import { bufFormatByName, bufGenOf, packVsharp } from '../amd/exec/buffer.js';
import { OOB_SELECT } from '../amd/exec/buffer-formats.gen.js';
import { LDS_ALLOC } from '../amd/exec/lds-alloc.gen.js';
import { ldsAllocBytes } from '../amd/gfx/spi.js';
import type { Memory } from '../core/memory.js';
import type { Diagnostics } from '../core/diagnostics.js';
import { InputError } from '../core/errors.js';
import { PT } from '../formats/elf.js';
import { sameBytes, type CodeObject, type CodeObjectKernel } from '../formats/amdgpu/codeobject.js';
import type { IsaTarget } from '../amd/isa/target.js';
import { INST_CLASSES, Program, engineTime, type Op } from '../amd/engine/program.js';
import type { AlignMode, Engine, ExecEnv } from '../amd/engine/env.js';
import { DispatchEnv } from '../amd/engine/env.js';
import { Wave, SREG, HWREG, ldsArray, waveLds } from '../amd/wave/wave.js';
import { APERTURE } from '../amd/exec/vmem.js';
import { WaitcntSanitizer } from '../amd/engine/waitcnt.js';
import { installTrap, type TrapHandler } from '../amd/exec/trap.js';
import { bytesToWords } from '../amd/isa/listing.js';
import type { Clock } from '../amd/engine/block.js';
import { prng, Sq, type SqObserver } from '../amd/sq/scheduler.js';
import { tierDispatch } from '../amd/engine/tier.js';

/** Where code objects are loaded in the GPU VA space. */
export const CODE_BASE = 0x7000_0000_0000;

export interface LoadedCode {
  readonly co: CodeObject;
  /** VA the code object's address 0 maps to. */
  readonly loadBase: number;
  readonly textVa: number;
  readonly words: Uint32Array;
}

/** Map every PT_LOAD segment of a linked code object at CODE_BASE + p_vaddr. */
export function loadCode(mem: Memory, co: CodeObject): LoadedCode {
  if (co.relocatable) throw new InputError('a relocatable object (.o) cannot run: link it with ld.lld -shared first', co.name);
  if (!co.text) throw new InputError('code object has no .text section', co.name);
  for (const ph of co.elf.programHeaders) {
    if (ph.type !== PT.LOAD || ph.memsz === 0) continue;
    const data = new Uint8Array(ph.memsz);
    data.set(co.elf.bytes.subarray(ph.offset, ph.offset + Math.min(ph.filesz, ph.memsz)));
    const start = Math.floor((CODE_BASE + ph.vaddr) / 4096) * 4096;
    const pad = CODE_BASE + ph.vaddr - start;
    const full = new Uint8Array(pad + ph.memsz);
    full.set(data, pad);
    const existing = mem.find(start, 1);
    if (existing) mem.writeBytes(CODE_BASE + ph.vaddr, data);
    else mem.map(start, Math.ceil(full.length / 4096) * 4096, `code:${co.name}`, padTo(full, Math.ceil(full.length / 4096) * 4096));
  }
  return { co, loadBase: CODE_BASE, textVa: CODE_BASE + co.text.address, words: bytesToWords(co.text.bytes) };
}

function padTo(a: Uint8Array, n: number): Uint8Array {
  if (a.length === n) return a;
  const b = new Uint8Array(n);
  b.set(a);
  return b;
}

export interface DispatchConfig {
  readonly grid: readonly [number, number, number];
  readonly block: readonly [number, number, number];
  /** VA of the kernarg segment (already filled). */
  readonly kernargVa: number;
  /** Dynamic LDS bytes (on top of group_segment_fixed_size). */
  readonly dynamicLds: number;
  readonly order: 'roundrobin' | 'random';
  readonly seed: number;
  /** Stop after this many wave-instructions in total (a runaway loop guard). */
  readonly maxInstructions: number;
  /** VA of the HSA dispatch packet (filled by the caller) and of the queue. */
  readonly dispatchPacketVa: number;
  readonly queueVa: number;
  /** Private segment bytes per work-item (descriptor fixed size + dynamic stack). */
  readonly scratchPerLane: number;
  /** Check for registers read before the s_waitcnt covering their load (default on). */
  readonly waitcnt?: boolean;
  /** SH_MEM_CONFIG.alignment_mode (default 'unaligned', what compute queues get). */
  readonly alignMode?: AlignMode;
  /** Execution engine (default 'fast'; 'interp' is the reference interpreter only). */
  readonly engine?: Engine;
  /**
   * Fast engine, a grid of fewer waves than this: each op runs its reference handler for its first
   * `firstCalls` calls, and blocks start only at PCs visited that often (Program.firstCalls;
   * default 0: specialised handlers and blocks at once). runKernel gives tier.ts's
   * tiering.firstCalls when its caller chose no engine.
   */
  readonly firstCalls?: number;
  /** Called before each instruction executes (tracing); absent means no cost. */
  readonly trace?: (w: Wave, op: Op) => void;
  /** Called after each instruction executed (a trace's register and memory summary, amd/sq/trace.ts). */
  readonly traceAfter?: (w: Wave) => void;
  /** Sees each scheduler turn and barrier release (the --timeline tracks, amd/sq/timeline.ts). */
  readonly observer?: SqObserver;
  /**
   * A user trap handler (GFX11 code mapped at `tba`; every wave gets STATUS.TRAP_EN, TBA, TMA).
   * Without one, s_trap is a NOP and an illegal instruction halts the wave.
   */
  readonly trapHandler?: TrapHandler;
  /** Called with each wave of a workgroup as the workgroup retires (final wave state, for the differential test). */
  readonly onWaveEnd?: (w: Wave) => void;
  /** Called each time a workgroup retires, with the count done and the total (progress bars). */
  readonly progress?: (done: number, total: number) => void;
  /**
   * Run only the workgroups [firstGroup, firstGroup + groupCount) of the grid, in flat order
   * (x fastest): a parallel run gives each thread a slice (src/runtime/parallel.ts). Default: all.
   */
  readonly firstGroup?: number;
  readonly groupCount?: number;
  /**
   * Dynamic load balancing: called when the range above (or the last one this returned) has no
   * group left to launch; returns the next range [first, first + count) of the grid, or null when
   * the threads sharing the grid have taken every group (parallel.ts pulls chunks from a shared
   * counter). Wave ids stay those of a whole-grid run.
   */
  readonly moreGroups?: () => readonly [number, number] | null;
  /**
   * A budget shared with other threads (parallel-slice.ts): before each moreGroups call, told the
   * wave-instructions this dispatch has issued, it returns how many this dispatch may issue in all
   * (what it issued and what the threads together have left of maxInstructions).
   */
  readonly budgetShare?: (executed: number) => number;
  /**
   * Workgroup ids start here instead of 0 (a PM4 dispatch's COMPUTE_START_X/Y/Z): the waves of
   * grid group (x, y, z) see workgroup id base + (x, y, z). `grid` counts from the base.
   */
  readonly groupBase?: readonly [number, number, number];
  /**
   * COMPUTE_USER_DATA_0..15 of a PM4 dispatch: s0..s[USER_SGPR-1] start with these values, as the
   * SPI loads them; the scratch SGPRs the model owns (private segment buffer, flat scratch init,
   * private segment size) then take the model's scratch. Absent (a runtime launch): the user
   * SGPRs are filled by name from the pointers above.
   */
  readonly userData?: Uint32Array;
}

export interface DispatchStats {
  waves: number;
  workgroups: number;
  waveInstructions: number;
  laneOps: number;
  byClass: Record<string, number>;
  /** True when the run stopped early (budget, deadlock, halted waves). */
  aborted: boolean;
}

/** Deterministic PRNG (mulberry32): the scheduler's (amd/sq/scheduler.ts). */
export { prng };

/** MODE at launch from RSRC1: FLOAT_MODE [7:0] (round [3:0], denorm [7:4]), DX10_CLAMP bit 8, IEEE bit 9. */
function initialMode(k: CodeObjectKernel): number {
  const r1 = k.kd.rsrc1;
  return ((r1.FLOAT_MODE ?? 0xf0) & 0xff) | ((r1.DX10_CLAMP ?? 0) << 8) | ((r1.IEEE_MODE ?? 0) << 9);
}

/** The LDS a request of `bytes` is given on a generation (the SPI's allocation, amd/gfx/spi.ts). */
export { ldsAllocBytes };

/**
 * `c` with every key present in one order. Callers build their configs with conditional spreads
 * (runKernel, a parallel slice, PM4), so the same dispatch code saw a handful of object shapes:
 * its property loads went polymorphic and V8 deoptimised and recompiled dispatch (~85 ms of
 * TurboFan, on a thread the other busy thread of a split run needed) and makeGroup ("wrong map")
 * each time a run came in through another path.
 */
function settle(c: DispatchConfig): Settled {
  return {
    grid: c.grid, block: c.block, kernargVa: c.kernargVa, dynamicLds: c.dynamicLds, order: c.order, seed: c.seed,
    maxInstructions: c.maxInstructions, dispatchPacketVa: c.dispatchPacketVa, queueVa: c.queueVa, scratchPerLane: c.scratchPerLane,
    waitcnt: c.waitcnt, alignMode: c.alignMode, engine: c.engine, firstCalls: c.firstCalls, trace: c.trace, traceAfter: c.traceAfter, observer: c.observer, trapHandler: c.trapHandler, onWaveEnd: c.onWaveEnd,
    progress: c.progress, firstGroup: c.firstGroup, groupCount: c.groupCount, moreGroups: c.moreGroups, budgetShare: c.budgetShare, groupBase: c.groupBase,
    userData: c.userData,
  };
}
type Settled = { readonly [K in keyof Required<DispatchConfig>]: DispatchConfig[K] };

/** A Program kept for its code object, with the env it was bound against. */
interface Kept {
  readonly program: Program;
  readonly env: DispatchEnv;
}

/** At most this many bindings (wave size, VGPRs, engine, alignment, target) are kept per code object. */
const KEPT_PER_CODE = 8;

/**
 * Programs kept across dispatches, by code object (loadCodeObjectCached hands a repeated launch the
 * same one): a dispatch of code already bound in this thread decodes, binds and compiles nothing.
 * Binding was per dispatch before; in a repeated or split run (each worker binds its own copy)
 * that setup, V8 tiering it up in the background and collecting its garbage cost 12-28 ms of CPU
 * per 40-60 ms run, taken from the threads the run needed.
 */
const kept = new WeakMap<object, Kept[]>();

function keptProgram(target: IsaTarget, code: LoadedCode, ws: 32 | 64, vgprs: number, engine: Engine, alignMode: AlignMode | undefined, heapMemory: boolean): Kept {
  // (By the words when a caller built the LoadedCode without a code object: tests do.)
  const owner: object = (code.co as CodeObject | null) ?? code.words;
  let list = kept.get(owner);
  if (list === undefined) kept.set(owner, (list = []));
  for (const k of list) {
    const e = k.env;
    const p = k.program;
    if (!e.busy && p.target === target && p.base === code.textVa && e.waveSize === ws && e.vgprs === vgprs && e.engine === engine && e.alignMode === alignMode && e.heapMemory === heapMemory && sameWords(p.words, code.words)) return k;
  }
  const env = new DispatchEnv(target.space, ws, vgprs, engine, alignMode, heapMemory);
  const k: Kept = { program: new Program(target, code.textVa, code.words, env), env };
  // (A busy one is in use by an enclosing dispatch of the same code: this one binds its own.)
  list.unshift(k);
  if (list.length > KEPT_PER_CODE) list.pop();
  return k;
}

function sameWords(a: Uint32Array, b: Uint32Array): boolean {
  return a === b || sameBytes(new Uint8Array(a.buffer, a.byteOffset, a.byteLength), new Uint8Array(b.buffer, b.byteOffset, b.byteLength));
}

export function dispatch(
  target: IsaTarget, code: LoadedCode, kernel: CodeObjectKernel, mem: Memory, diag: Diagnostics, given: DispatchConfig,
): DispatchStats {
  const cfg = settle(given);
  const ws = kernel.kd.derived.waveSize;
  const vgprs = Math.min(256, kernel.kd.derived.vgprs);
  // (A memory in the wasm heap has a segment table: runKernel's, with the tier on.)
  const k = keptProgram(target, code, ws, vgprs, cfg.engine ?? 'fast', cfg.alignMode, mem.table !== 0);
  // The model clock: one tick per issued wave-instruction (blocks advance it op by op too).
  const clk: Clock = { t: 0 };
  k.env.rebind(diag, clk);
  k.program.rearm();
  try {
    return runDispatch(target, code, kernel, mem, diag, cfg, k.program, k.env, clk);
  } finally {
    k.env.release();
  }
}

function runDispatch(
  target: IsaTarget, code: LoadedCode, kernel: CodeObjectKernel, mem: Memory, diag: Diagnostics, cfg: Settled,
  program: Program, env: ExecEnv, clk: Clock,
): DispatchStats {
  const kd = kernel.kd;
  const ws = env.waveSize;
  const vgprs = env.vgprs;
  const th = cfg.trapHandler;
  let trapProgram: Program | null = null;
  if (th) {
    const tw = th.code instanceof Uint32Array ? th.code : bytesToWords(th.code);
    const bytes = new Uint8Array(tw.buffer.slice(tw.byteOffset, tw.byteOffset + tw.byteLength));
    const start = Math.floor(th.tba / 4096) * 4096;
    const size = Math.ceil((th.tba + bytes.length - start) / 4096) * 4096;
    if (!mem.find(th.tba, 1)) mem.map(start, size, 'trap-handler');
    mem.writeBytes(th.tba, bytes);
    trapProgram = new Program(target, th.tba, tw, env);
  }
  const trapEnd = th && trapProgram ? th.tba + trapProgram.words.length * 4 : 0;
  const entry = code.loadBase + kernel.entryAddress;
  const [bx, by, bz] = cfg.block;
  const [gridX, gridY, gridZ] = cfg.grid;
  // Group counts as plain locals: an array of them took Smi or double elements depending on
  // whether map's callback ran optimised, and makeGroup deoptimised ("wrong map") on the change.
  const groupsX = Math.ceil(gridX / bx);
  const groupsY = Math.ceil(gridY / by);
  const groupsZ = Math.ceil(gridZ / bz);
  const ldsBytes = kd.group_segment_fixed_size + cfg.dynamicLds;
  const wgSize = bx * by * bz;
  if (wgSize > 1024) throw new InputError(`block of ${wgSize} work-items exceeds the 1024 GFX11 allows`);
  const wavesPerGroup = Math.ceil(wgSize / ws);
  const stats: DispatchStats = { waves: 0, workgroups: 0, waveInstructions: 0, laneOps: 0, byClass: {}, aborted: false };
  // LDS per workgroup: at most the generation's limit, allocated in its blocks (lds-alloc.gen.ts);
  // accesses past the allocation are out of range. A larger request launches nothing.
  const ldsGen = LDS_ALLOC[target.space.gfx];
  if (ldsBytes > ldsGen.maxBytes) {
    diag.report({
      id: 'amd.dispatch.lds-too-large', severity: 'error', where: {},
      message: `a workgroup needs ${ldsBytes} bytes of LDS (group_segment_fixed_size ${kd.group_segment_fixed_size} + dynamic ${cfg.dynamicLds}); ${target.mcpu} allows ${ldsGen.maxBytes}: nothing is launched`,
    });
    stats.aborted = true;
    return stats;
  }
  const random = cfg.order === 'random';
  const totalGroups = groupsX * groupsY * groupsZ;
  // (The whole grid's waves: a split run's slices decide alike.)
  const first = cfg.firstCalls ?? 0;
  program.firstCalls = totalGroups * wavesPerGroup < first ? Math.min(first, 255) : 0;
  const concurrent = random ? 4 : 1;
  // Scratch: one segment for the concurrently resident waves, lane-major per wave.
  const scratchPerWave = cfg.scratchPerLane * ws;
  const scratchSeg = scratchPerWave > 0 ? mem.alloc(scratchPerWave * wavesPerGroup * concurrent, 'scratch') : null;
  const firstGroup = cfg.firstGroup ?? 0;
  let endGroup = Math.min(totalGroups, firstGroup + (cfg.groupCount ?? totalGroups));
  // Wave ids as a whole-grid run numbers them (exact when the groups before the slice are full).
  let waveId = firstGroup * wavesPerGroup;
  const launch = { waveSize: ws, vgprs, pc: entry, sharedBase: APERTURE.SHARED, privateBase: APERTURE.PRIVATE, mode: initialMode(kernel), status: 0 } as const;
  const ldsAlloc = ldsAllocBytes(target.space.gfx, ldsBytes);
  // Waves and LDS are pooled per resident slot and relaunched for the next workgroup (a Wave is
  // five typed arrays; allocating them was a third of a short kernel's time). A caller that sees
  // the waves after they retire (onWaveEnd) gets fresh objects it may keep.
  const pool = cfg.onWaveEnd === undefined;
  const slotWaves: Wave[][] = Array.from({ length: concurrent }, () => []);
  // With pooling, a slot's group also keeps its wave list and workgroup id (rewritten for the next
  // group once every wave of the last one has retired): launching a group allocates nothing.
  const slotGroup: Wave[][] = Array.from({ length: concurrent }, () => []);
  const slotWg: [number, number, number][] = Array.from({ length: concurrent }, () => [0, 0, 0]);
  // (In the wasm heap when the tier is on: ldsArray, freed when the dispatch ends.)
  const slotLds = Array.from({ length: concurrent }, () => {
    const lds = ldsArray(ldsAlloc);
    return { lds, view: new DataView(lds.buffer, lds.byteOffset, lds.byteLength), u32: new Uint32Array(lds.buffer, lds.byteOffset, lds.byteLength >>> 2) };
  });
  const slotUsed = new Uint8Array(concurrent);
  // The first workgroup id (COMPUTE_START_X/Y/Z of a PM4 dispatch).
  const base = cfg.groupBase;
  // Work-item ID rows and EXEC of each wave of a full workgroup (the same for every full group).
  const idRows: ({ rows: Uint32Array; lo: number; hi: number } | undefined)[] = [];
  // Work-item IDs packed into v0 (10 bits each) on GFX11+ (and gfx940); GFX9/GFX10 give v0, v1, v2.
  const packed = kd.generation === 'gfx11' || kd.generation === 'gfx12' || kd.generation === 'gfx940';
  const idMode = kd.derived.workitemIdMode;
  const nRows = packed ? 1 : Math.min(vgprs, 1 + idMode);

  function workItemIds(wi: number, ex: number, ey: number, items: number): { rows: Uint32Array; lo: number; hi: number } {
    const rows = new Uint32Array(Math.max(1, nRows) * ws);
    let lo = 0;
    let hi = 0;
    for (let l = 0; l < ws; l++) {
      const flat = wi * ws + l;
      if (flat >= items) continue;
      if (l < 32) lo |= 1 << l;
      else hi |= 1 << (l - 32);
      const x = flat % ex;
      const y = Math.floor(flat / ex) % ey;
      const z = Math.floor(flat / (ex * ey));
      if (packed) rows[l] = x | (idMode >= 1 ? y << 10 : 0) | (idMode >= 2 ? z << 20 : 0);
      else {
        rows[l] = x;
        if (idMode >= 1 && vgprs > 1) rows[ws + l] = y;
        if (idMode >= 2 && vgprs > 2) rows[2 * ws + l] = z;
      }
    }
    return { rows, lo: lo >>> 0, hi: ws === 64 ? hi >>> 0 : 0 };
  }

  function makeGroup(gid: number, slot: number): Wave[] {
    tierDispatch.launched += wavesPerGroup;
    const gx = gid % groupsX;
    const gy = Math.floor(gid / groupsX) % groupsY;
    const gz = Math.floor(gid / (groupsX * groupsY));
    // Work-items of a partial workgroup at the grid edge.
    const ex = Math.min(bx, gridX - gx * bx);
    const ey = Math.min(by, gridY - gy * by);
    const ez = Math.min(bz, gridZ - gz * bz);
    const items = ex * ey * ez;
    const full = items === wgSize;
    const nw = Math.ceil(items / ws);
    const waves: Wave[] = pool ? slotGroup[slot]! : [];
    // (Shrunk only when this group has fewer waves than the slot's last: a length change may
    // reallocate the elements.)
    if (waves.length > nw) waves.length = nw;
    const wgId: [number, number, number] = pool ? slotWg[slot]! : [0, 0, 0];
    wgId[0] = base ? base[0] + gx : gx;
    wgId[1] = base ? base[1] + gy : gy;
    wgId[2] = base ? base[2] + gz : gz;
    const mine = slotLds[slot]!;
    let lds = mine.lds;
    let ldsView = mine.view;
    let ldsU32 = mine.u32;
    if (pool) {
      if (slotUsed[slot] !== 0 && ldsAlloc > 0) lds.fill(0);
      slotUsed[slot] = 1;
    } else {
      lds = new Uint8Array(ldsAlloc);
      ldsView = new DataView(lds.buffer);
      ldsU32 = new Uint32Array(lds.buffer);
    }
    const kept = slotWaves[slot]!;
    for (let wi = 0; wi < nw; wi++) {
      let w = pool ? kept[wi] : undefined;
      if (w !== undefined) w.relaunch(launch, lds, ldsView, ldsU32, wgId, wi, waveId++);
      else {
        w = new Wave(launch, mem, lds, { wg: wgId, waveInGroup: wi, id: waveId++ });
        if (pool) kept[wi] = w;
      }
      if (scratchSeg) {
        w.scratchBase = scratchSeg.base + (slot * wavesPerGroup + wi) * scratchPerWave;
        w.scratchPerLane = cfg.scratchPerLane;
      }
      if (th) installTrap(w, th);
      initSgprs(w, kernel, cfg, wgId, wi, nw, target.space.gfx);
      // Work-item IDs and EXEC.
      let init = full ? idRows[wi] : undefined;
      if (init === undefined) {
        init = workItemIds(wi, ex, ey, items);
        if (full) idRows[wi] = init;
      }
      w.v.set(init.rows.length <= w.v.length ? init.rows : init.rows.subarray(0, w.v.length));
      w.s[SREG.EXEC_LO] = init.lo;
      w.s[SREG.EXEC_HI] = init.hi;
      waves[wi] = w;
    }
    for (let wi = 0; wi < nw; wi++) waves[wi]!.peers = waves;
    stats.waves += nw;
    stats.workgroups++;
    return waves;
  }

  // Resident workgroups, launched into slots and run by the SQ's scheduler (amd/sq/scheduler.ts).
  let next = firstGroup;
  const slotEntry = slotGroup.map((waves, slot) => ({ waves, slot }));
  const more = cfg.moreGroups;
  let retired = 0;
  const trace = cfg.trace;
  const sq = new Sq({
    diag, clock: clk, budget: cfg.maxInstructions, engine: env.engine,
    waitcnt: cfg.waitcnt === false ? null : new WaitcntSanitizer(diag, target.space),
    before: trace, after: cfg.traceAfter, observer: cfg.observer ?? null, trap: trapProgram !== null ? { program: trapProgram, base: th!.tba, end: trapEnd } : null,
  });
  if (Number.isNaN(engineTime.firstInstAt)) engineTime.firstInstAt = performance.now();
  // How often a straight block can be reached in this dispatch (tier.ts): the whole grid's waves.
  tierDispatch.waves = totalGroups * wavesPerGroup;
  tierDispatch.launched = 0;
  tierDispatch.epoch++;
  sq.runWorkgroups({
    program, rnd: cfg.order === 'random' ? prng(cfg.seed) : null, concurrent, wavesPerGroup, placeholder: slotEntry[0]!,
    launch: (slot, stopped) => {
      while (next >= endGroup) {
        if (cfg.budgetShare !== undefined && more !== undefined && !stopped) sq.budget = cfg.budgetShare(sq.executed);
        const r = more !== undefined && !stopped ? more() : null;
        if (r === null) return null;
        next = r[0];
        endGroup = Math.min(totalGroups, r[0] + r[1]);
        waveId = next * wavesPerGroup;
      }
      const waves = makeGroup(next++, slot);
      return pool ? slotEntry[slot]! : { waves, slot };
    },
    retire: (g) => {
      const gw = g.waves;
      for (let k = 0; k < gw.length; k++) stats.laneOps += gw[k]!.laneOps;
      if (cfg.onWaveEnd) for (const w of gw) cfg.onWaveEnd(w);
      retired++;
      cfg.progress?.(firstGroup + retired, totalGroups);
    },
  });
  if (sq.aborted) stats.aborted = true;
  const executed = sq.executed;
  const classCounts = sq.classCounts;
  stats.waveInstructions = executed;
  const byClass: Record<string, number> = {};
  for (const c of [...INST_CLASSES].sort()) {
    const n = classCounts[INST_CLASSES.indexOf(c)]!;
    if (n > 0) byClass[c] = n;
  }
  stats.byClass = byClass;
  // The slots' LDS back to the heap (a dispatch that throws leaves them to the heap's collector).
  for (const x of slotLds) waveLds.free?.(x.lds);
  return stats;
}

/** A 64-bit value into SGPRs r, r+1. */
function put64(s: Uint32Array, r: number, v: number): void {
  s[r] = v % 0x1_0000_0000;
  s[r + 1] = Math.floor(v / 0x1_0000_0000);
}

/** Fill the user and system SGPRs the descriptor enables (AMDGPUUsage initial kernel state). */
function initSgprs(w: Wave, k: CodeObjectKernel, cfg: Settled, wg: [number, number, number], waveInGroup: number, wavesInGroup: number, gfx: 9 | 10 | 11): void {
  const d = k.kd.derived;
  const s = w.s;
  const ud = cfg.userData;
  if (ud) for (let i = 0; i < d.userSgprCount && i < ud.length; i++) s[i] = ud[i]!;
  // Index loops and no closures: this runs for every wave launched.
  const user = d.userSgprs;
  for (let i = 0; i < user.length; i++) {
    const u = user[i]!;
    if (ud && u.name !== 'private_segment_buffer' && u.name !== 'flat_scratch_init' && u.name !== 'private_segment_size') continue;
    switch (u.name) {
      case 'private_segment_buffer':
        // V# for scratch through buffer instructions: base = the wave's scratch, swizzled per lane.
        // ADD_TID_ENABLE with STRIDE = bytes per lane gives the lane-major layout scratch_* uses.
        // In the generation's V# layout: GFX9 leaves DATA_FORMAT 0 (with ADD_TID_ENABLE it is STRIDE[17:14]).
        {
          const G = bufGenOf(gfx);
          const v = packVsharp(G, {
            base: w.scratchBase, stride: cfg.scratchPerLane < 0x4000 ? cfg.scratchPerLane : 0, records: 0xffffffff, addTid: true,
            format: gfx === 9 ? 0 : bufFormatByName(G, '32_UINT')!, oob: OOB_SELECT.RAW,
          });
          for (let i = 0; i < 4; i++) w.s[u.reg + i] = v[i]!;
        }
        break;
      case 'dispatch_ptr': put64(s, u.reg, cfg.dispatchPacketVa); break;
      case 'queue_ptr': put64(s, u.reg, cfg.queueVa); break;
      case 'kernarg_segment_ptr': put64(s, u.reg, cfg.kernargVa); break;
      case 'dispatch_id': put64(s, u.reg, 0); break;
      case 'flat_scratch_init': put64(s, u.reg, w.scratchBase); break;
      case 'private_segment_size': s[u.reg] = cfg.scratchPerLane; break;
      default: break;
    }
  }
  const sys = d.systemSgprs;
  for (let i = 0; i < sys.length; i++) {
    const r = sys[i]!;
    switch (r.name) {
      case 'workgroup_id_x': s[r.reg] = wg[0]; break;
      case 'workgroup_id_y': s[r.reg] = wg[1]; break;
      case 'workgroup_id_z': s[r.reg] = wg[2]; break;
      // workgroup_info: wave count in the group [5:0] (and first-wave bit on some generations).
      case 'workgroup_info': s[r.reg] = wavesInGroup & 0x3f; break;
      case 'private_segment_wavefront_offset': s[r.reg] = 0; break;
      default: break;
    }
  }
  void waveInGroup;
  w.hw[HWREG.GPR_ALLOC] = 0;
}
