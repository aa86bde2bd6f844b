/**
 * Render state and work: CP_SET_DRAW_STATE (per-mode groups, run at draws and CP_SET_MODE),
 * CP_SET_MARKER / CP_SET_MODE, draws / dispatches / blits recorded with the register state they
 * see, CP_LOAD_STATE6*, the binning loops (CP_START_BIN, CP_FIXED_STRIDE_DRAW_TABLE) and the
 * binning state handed to draws.
 */
import type { CommandProcessor, WorkRecord } from './cp.js';
import { a64, CTX_LO, MODE_INDEX, need, type Handler } from './exec.js';
import { execCsDirect, execCsIndirect } from './handlers-compute.js';
import { drawRuns, execDraw, loadState6Gfx } from './handlers-gfx.js';
import { blit2dAccess, sysmemDrawWrites } from './handlers-cache.js';
import type { PacketRecord } from './walker.js';
import { execBlit2d } from '../rb/blit2d.js';
import { VscReader, type PrimBox } from '../vsc/vsc.js';
import { lrzCntl, regAddr } from './handlers-event.js';
import { decodeFields } from '../regs/db.js';
import type { PerfWhere } from '../rbbm/perfcounters.js';
import { endGmemPass } from './handlers-feedback.js';

/** Groups of { d0, addr lo, addr hi }: remember per mode (dirty when changed), drop, or run now (LOAD_IMMED). */
function setDrawState(cp: CommandProcessor, r: PacketRecord): number {
  const p = r.payload;
  for (let g = 0; g + 2 < p.length; g += 3) {
    const d0 = p[g]!;
    const count = d0 & 0xffff;
    const dirty = (d0 >>> 16) & 1;
    const disable = (d0 >>> 17) & 1;
    const disableAll = (d0 >>> 18) & 1;
    const loadImmed = (d0 >>> 19) & 1;
    const modes = [(d0 >>> 20) & 1, (d0 >>> 21) & 1, (d0 >>> 22) & 1]; // BINNING, GMEM, SYSMEM
    const id = (d0 >>> 24) & 0x1f;
    const addr = (p[g + 2]! * 2 ** 32) + p[g + 1]!;
    if (disableAll) {
      for (const m of cp.drawState) for (const s of m) Object.assign(s, { addr: 0, count: 0, dirty: false });
      continue;
    }
    if (loadImmed) {
      if (count) cp.execIb(addr, count, r.level + 1, true);
      continue;
    }
    for (let m = 0; m < 3; m++) {
      if (!modes[m]) continue;
      const s = cp.drawState[m]![id]!;
      if (disable) Object.assign(s, { addr: 0, count: 0, dirty: false });
      else {
        if (s.addr !== addr || s.count !== count || dirty) s.dirty = true;
        s.addr = addr;
        s.count = count;
      }
    }
  }
  return 0;
}

/** Execute the dirty draw-state groups of the current mode (at draws and CP_SET_MODE). */
function runDrawStates(cp: CommandProcessor, level: number): void {
  const slots = cp.drawState[MODE_INDEX[cp.mode]]!;
  for (const s of slots) {
    if (!s.dirty || s.count === 0) continue;
    s.dirty = false;
    cp.execIb(s.addr, s.count, level + 1, true);
  }
}

function setMode(cp: CommandProcessor, r: PacketRecord): number {
  need(cp, r, 1);
  if (r.payload[0]! & 1) runDrawStates(cp, r.level);
  return 0;
}

/** RM6_BYPASS / RM6_BINNING / RM6_GMEM select the render mode (IFPC and kernel-only markers do not). */
function setMarker(cp: CommandProcessor, r: PacketRecord): number {
  need(cp, r, 1);
  const d0 = r.payload[0]!;
  const m = d0 & 0xf;
  if (d0 & 0x100) return 0;
  cp.marker = m;
  const prev = cp.mode;
  if (m === 1) cp.mode = 'SYSMEM';
  else if (m === 2) cp.mode = 'BINNING';
  else if (m === 4) cp.mode = 'GMEM';
  // Bin numbering for the perf marks: each RM6_GMEM is the next bin of the render pass.
  if (m === 4) cp.perf.bin++;
  else if (m === 1 || m === 2) {
    cp.perf.bin = -1;
    endGmemPass(cp);
  }
  if (prev !== cp.mode) {
    cp.count(9); // PERF_CP_MODE_SWITCH
    if (cp.mode === 'BINNING') cp.vsc.begin();
    else if (prev === 'BINNING') cp.vsc.end();
    if (cp.mode === 'SYSMEM') cp.vscReader = undefined;
  }
  return 0;
}

/** The pass a perf mark belongs to; in GMEM the bin's number and its window (GRAS_SC_WINDOW_SCISSOR, RB_WINDOW_OFFSET). */
export function perfWhere(cp: CommandProcessor): PerfWhere {
  if (cp.mode === 'SYSMEM') return { pass: 'sysmem' };
  if (cp.mode === 'BINNING') return { pass: 'binning' };
  const f = (reg: string): Record<string, number> => {
    const o = cp.regsDb.reg(reg);
    return decodeFields(cp.regsDb.at(o)!.type, cp.readReg(o), 0, cp.gen);
  };
  const tl = f('GRAS_SC_WINDOW_SCISSOR_TL'), br = f('GRAS_SC_WINDOW_SCISSOR_BR'), off = f('RB_WINDOW_OFFSET');
  return { pass: 'gmem', bin: cp.perf.bin, window: { x0: tl['X'] ?? 0, y0: tl['Y'] ?? 0, x1: br['X'] ?? 0, y1: br['Y'] ?? 0 }, offset: { x: off['X'] ?? 0, y: off['Y'] ?? 0 } };
}

/**
 * Record a draw / dispatch / blit with the state it sees. A draw runs the dirty draw-state groups
 * first, may be killed by draw predication, and is CP_EVENT_START, the work, CONTEXT_DONE,
 * CP_EVENT_END (the banks switch).
 */
/** Does the visibility stream decide draws now (GMEM pass, CP_SET_BIN_DATA5 given, no override)? */
export function vscActive(cp: CommandProcessor): boolean {
  return cp.mode === 'GMEM' && cp.vscReader !== undefined && (cp.cpState.get('CP_SET_VISIBILITY_OVERRIDE')?.[0] ?? 0) === 0;
}

function record(cp: CommandProcessor, kind: WorkRecord['kind'], r: PacketRecord, invisible = false, boxes?: PrimBox[]): void {
  if (kind === 'draw') runDrawStates(cp, r.level);
  const killed = kind === 'draw' && cp.predGlobal && cp.predLocal && !cp.predPass;
  if (killed) cp.count(8); // PERF_CP_PREDICATED_DRAWS_KILLED
  if (invisible) cp.vscSkippedDraws++;

  const bank = cp.ctx;
  const state: Map<number, number> = new Map();
  if (cp.snapshots) {
    const b = cp.banks[bank]!;
    for (let k = 0; k < b.length; k++) if (b[k]) state.set(CTX_LO + k, b[k]!);
    for (const o of cp.written) state.set(o, cp.regs[o]!);
  }
  const w: WorkRecord = { kind, packet: r.name, payload: Array.from(r.payload), iova: r.iova, level: r.level, mode: cp.mode, marker: cp.marker, bank, killed, state, cpState: new Map(cp.cpState), bin: cp.binIndex, thread: cp.thread, ...(invisible ? { invisible } : {}) };
  cp.work.push(w);
  if (kind === 'draw' && !killed && cp.mode === 'BINNING' && cp.vsc.running) {
    const got = cp.binningHook?.(cp, w) ?? boxes;
    if (!got) cp.report('adreno.vsc.no-geometry', 'info', `binning-pass draw at 0x${r.iova.toString(16)}: no geometry for it (no binning hook result); binned as visible in every bin`);
    cp.vsc.draw(got);
  }
  if (!killed && !invisible) {
    cp.ctxDone[cp.ctx] = true;
    cp.count(11);
    cp.switchContext();
  }
}

/** A draw runs its dirty groups, then (in SYSMEM mode, unless predicated off) the pipeline, then is recorded. */
function draw(cp: CommandProcessor, r: PacketRecord): number {
  runDrawStates(cp, r.level);
  const killed = cp.predGlobal && cp.predLocal && !cp.predPass;
  // The visibility stream decides first: a draw with nothing in this bin is not run.
  const invisible = !killed && vscActive(cp) && !cp.vscReader!.next();
  let boxes: PrimBox[] | undefined;
  // GRAS_LRZ_CNTL at the draw: direction / depth-view checks, then LRZ in the pipeline (handlers-lrz.ts).
  cp.lrzDraw = undefined;
  if (!killed && !invisible) {
    const cntl = lrzCntl(cp);
    if (cntl.ENABLE) cp.lrzDraw = cp.lrz.draw(cntl, regAddr(cp, 'GRAS_LRZ_FAST_CLEAR_BUFFER_BASE'), cp.readReg(cp.regsDb.reg('GRAS_LRZ_DEPTH_VIEW')));
  }
  if (!killed && !invisible) {
    if (cp.mode === 'SYSMEM') sysmemDrawWrites(cp, r.name);
    const before = drawRuns(cp).length;
    boxes = execDraw(cp, r, vscActive(cp) ? cp.vscReader : undefined);
    // CP_DRAW_INDIRECT_MULTI runs several draws: each adds to the counters.
    for (const run of drawRuns(cp).slice(before)) {
      if (!run.ran || !run.result) continue;
      const d = run.result;
      cp.perf.add('PERF_PC_IA_VERTICES', d.vertices);
      cp.perf.add('PERF_PC_VS_INVOCATIONS', d.vertices);
      cp.perf.add('PERF_PC_IA_PRIMITIVES', d.primitives);
      cp.perf.add('PERF_TSE_INPUT_PRIM', d.primitives);
      cp.perf.add('PERF_TSE_FACENESS_CULLED_PRIM', d.culled);
      cp.perf.add('PERF_RB_PS_INVOCATIONS', d.fragments);
      cp.perf.add('PERF_RB_Z_PASS', d.rb.samplesPassed);
      cp.perf.add('PERF_RB_C_WRITE', d.rb.samplesWritten);
      cp.perf.add('PERF_VFD_TOTAL_VERTICES', d.vertices);
      cp.perf.add('PERF_VFDP_VS_STAGE_WAVES', d.vs.waves);
      cp.perf.add('PERF_VPC_PC_PRIMITIVES', d.primitives);
      cp.perf.add('PERF_SP_VS_INSTRUCTIONS', d.vs.instructions);
      cp.perf.add('PERF_SP_FS_INSTRUCTIONS', d.fs.instructions);
      cp.perf.add('PERF_SP_WAVE_CONTEXTS', d.vs.waves + d.fs.waves);
      cp.perf.add('PERF_SP_PIXELS_KILLED', d.killed);
    }
  }
  if (!killed && !invisible && cp.mode !== 'BINNING') cp.perf.add('PERF_PC_3D_DRAWCALLS');
  if (!killed && !invisible) cp.perf.mark('draw', r.name, r.iova, cp.countables, cp.cycles, cp.gen, perfWhere(cp));
  record(cp, 'draw', r, invisible, boxes);
  return 0;
}

/** A dispatch runs on the SP with the registers of the bank being filled, then is recorded (which switches banks). */
function dispatch(cp: CommandProcessor, r: PacketRecord): number {
  if (r.name === 'CP_EXEC_CS_INDIRECT') execCsIndirect(cp, r);
  else execCsDirect(cp, r);
  record(cp, 'dispatch', r);
  return 0;
}

/** CP_BLIT runs the 2D engine on the bank's 2D registers (rb/blit2d.ts), then is recorded. */
function blit(cp: CommandProcessor, r: PacketRecord): number {
  const source = blit2dAccess(cp);
  const res = execBlit2d(cp, (r.payload[0] ?? 0) & 0xf, cp.tile6);
  cp.perf.add('PERF_PC_2D_DRAWCALLS');
  cp.perf.add('PERF_RB_2D_VALID_PIXELS', res?.pixels ?? 0);
  // A copy / scale reads its source through the TP: one filtered pixel per destination pixel.
  if (source) cp.perf.add('PERF_TP_2D_OUTPUT_PIXELS', res?.pixels ?? 0);
  cp.perf.mark('blit', r.name, r.iova, cp.countables, cp.cycles, cp.gen, perfWhere(cp));
  record(cp, 'blit', r);
  return 0;
}

/**
 * COUNT command buffers of STRIDE dwords each, one draw per buffer. No visibility stream is
 * modelled, so every buffer runs (as with CP_SET_VISIBILITY_OVERRIDE).
 */
function fixedStrideDrawTable(cp: CommandProcessor, r: PacketRecord): number {
  need(cp, r, 4);
  const p = r.payload;
  const base = a64(p, 0);
  const stride = p[2]! >>> 20;
  const count = p[3]!;
  for (let k = 0; k < count; k++) cp.execIb(base + 4 * stride * k, stride, r.level + 1);
  return 0;
}

/**
 * For each bin: the bin's prefix (as an IB2), then the BODY_DWORDS after this packet, up to
 * CP_END_BIN; afterwards execution continues past the body (the walker skips it).
 */
function startBin(cp: CommandProcessor, r: PacketRecord): number {
  need(cp, r, 5);
  const p = r.payload;
  const bins = p[0]!;
  const prefix = a64(p, 1);
  const prefixDw = p[3]!;
  const body = p[4]!;
  const after = r.iova + 4 * (1 + p.length);
  for (let b = 0; b < bins; b++) {
    cp.binIndex = b;
    if (prefixDw) cp.execIb(prefix + 4 * prefixDw * b, prefixDw, r.level + 1);
    if (body) cp.execIb(after, body, r.level);
  }
  cp.binIndex = -1;
  return body;
}

/** The end of a CP_START_BIN body: the loop is CP_START_BIN's. */
function endBin(): number {
  return 0;
}

/** Binning state: kept and handed to draws; CP_SET_BIN_DATA5 also opens the bin's visibility stream (vsc/vsc.ts). */
function binningState(cp: CommandProcessor, r: PacketRecord): number {
  const p = r.payload;
  cp.cpState.set(r.name === 'CP_SET_PSEUDO_REG' ? `${r.name}:${p[0] ?? 0}` : r.name, Array.from(p));
  if (r.name === 'CP_SET_BIN_DATA5') {
    need(cp, r, 7);
    cp.perf.add('PERF_PC_VIS_STREAMS_LOADED');
    cp.vscReader = new VscReader({ readReg: (o) => cp.readReg(o), writeReg: (o, v) => cp.writeReg(o, v, true), regOf: (n) => cp.regsDb.reg(n), read32: (a) => cp.mem.read32(a), write32: (a, v) => cp.mem.write32(a, v), report: (id, sev, msg) => cp.report(id, sev, msg) }, Array.from(p));
  }
  return 0;
}

export const DRAW_HANDLERS: Readonly<Record<string, Handler>> = {
  CP_SET_DRAW_STATE: setDrawState,
  CP_SET_MODE: setMode,
  CP_SET_MARKER: setMarker,
  CP_DRAW_INDX_OFFSET: draw,
  CP_DRAW_INDIRECT: draw,
  CP_DRAW_INDX_INDIRECT: draw,
  CP_DRAW_INDIRECT_MULTI: draw,
  CP_DRAW_AUTO: draw,
  CP_EXEC_CS: dispatch,
  CP_EXEC_CS_INDIRECT: dispatch,
  CP_BLIT: blit,
  CP_LOAD_STATE6: loadState6Gfx,
  CP_LOAD_STATE6_GEOM: loadState6Gfx,
  CP_LOAD_STATE6_FRAG: loadState6Gfx,
  CP_FIXED_STRIDE_DRAW_TABLE: fixedStrideDrawTable,
  CP_START_BIN: startBin,
  CP_END_BIN: endBin,
  CP_SET_VISIBILITY_OVERRIDE: binningState,
  CP_SET_SUBDRAW_SIZE: binningState,
  CP_SET_BIN_DATA5: binningState,
  CP_SET_BIN_DATA5_OFFSET: binningState,
  CP_SET_PSEUDO_REG: binningState,
};
