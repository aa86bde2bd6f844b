/**
 * Executor side of Primitive Ordered Pixel Shading (seed 002_d00ee82034762a57.txt).
 *
 * The POPS model (src/amd/gfx/pops.ts, seen here through pops-port.ts) lives below the pipeline; a pixel-shader wave is tied to
 * its POPS state with `attachPops` when the pipeline launches it. Compute waves have none, and
 * every helper here is then a no-op, so the hooks cost nothing outside POPS.
 *
 * Defined here: `s_endpgm_ordered_ps_done` (GFX9/GFX10: wait for every counter, send
 * ORDERED_PS_DONE, end the program), which had no semantics. The instructions that already have
 * semantics elsewhere call the helpers below:
 * - s_setreg_b32 / s_setreg_imm32_b32 -> `popsSetreg` after the write (MODE[25:24] on GFX9,
 *   HW_REG_POPS_PACKER on GFX10+);
 * - reading operand 239 (src_pops_exiting_wave_id) -> `popsExitingWaveId` (volatile: per read);
 * - s_sleep -> `popsSleep` (a true result: sleep until an exit of the packer wakes the wave);
 * - s_wait_event -> `popsWaitEvent` (false: the wave must stay at this instruction and retry);
 * - s_sendmsg -> `popsSendmsg` with the message id (7 = ORDERED_PS_DONE);
 * - exp -> `popsExport` with the done bit; s_endpgm -> `popsEndpgm`.
 */
import type { Wave } from '../wave/wave.js';
import { HWREG, SREG, STATUS } from '../wave/wave.js';
import type { Instruction } from '../isa/types.js';
import { HW_REG_MODE, HW_REG_POPS_PACKER, intrawaveLayers, type PopsPort, type PopsWaveView } from './pops-port.js';
import { define } from '../engine/registry.js';

interface Link {
  readonly unit: PopsPort;
  readonly pops: PopsWaveView;
}

const links = new WeakMap<Wave, Link>();
const waves = new WeakMap<PopsWaveView, Wave>();

/**
 * Whether any wave was ever tied to POPS state in this process: the instruction owners test this
 * before calling a helper, so runs without POPS pay one property read at those (rare) instructions.
 */
export const popsAttached = { any: false };

/** Model clocks a GFX11 wave waiting in s_wait_event sleeps before it looks at export_ready again (an exit wakes it earlier). */
export const POPS_WAIT_EVENT_RETRY = 64;

/** Tie an executor wave to its POPS state (done by the pipeline at pixel-shader wave launch). */
export function attachPops<P extends PopsWaveView>(w: Wave, unit: PopsPort<P>, pops: P): void {
  popsAttached.any = true;
  links.set(w, { unit: unit as unknown as PopsPort, pops });
  waves.set(pops, w);
}

export function popsOf(w: Wave): PopsWaveView | undefined {
  return links.get(w)?.pops;
}

/** Resume executor waves the POPS model woke (GFX10+ sleepers in the wait loop). */
function wake(list: readonly PopsWaveView[]): void {
  for (const p of list) {
    const w = waves.get(p);
    if (w && w.state === 'sleep') w.state = 'ready';
  }
}

const counters = (w: Wave) => ({ vm: w.vmcnt, vs: w.vscnt, lgkm: w.lgkmcnt });

/** After s_setreg wrote `value` into bits [offset, offset+size) of hardware register `id`. */
export function popsSetreg(w: Wave, id: number, offset: number, size: number, value: number, pc?: number): void {
  const l = links.get(w);
  if (!l) return;
  const full = size >= 32 ? value >>> 0 : (value & ((1 << size) - 1)) << offset;
  const touched = size >= 32 ? 0xffff_ffff : ((1 << size) - 1) << offset;
  if (id === HW_REG_MODE && (touched & (3 << 24)) !== 0) l.unit.setMode(l.pops, (full >>> 24) & 3, pc);
  if (id === HW_REG_POPS_PACKER && (touched & 7) !== 0) l.unit.setPopsPacker(l.pops, full & 7, pc);
}

/** The value of src_pops_exiting_wave_id (operand 239) for this wave now; 0 outside POPS. */
export function popsExitingWaveId(w: Wave, pc?: number): number {
  const l = links.get(w);
  return l ? l.unit.readExitingWaveId(l.pops, pc) : 0;
}

/** s_sleep: true when the wave should sleep until an exit of its packer wakes it. */
export function popsSleep(w: Wave, simm16: number, pc?: number): boolean {
  const l = links.get(w);
  return l ? l.unit.sleep(l.pops, simm16, pc).wakeOnExit : false;
}

/** s_wait_event: false while the wave must keep waiting (GFX11 export_ready). */
export function popsWaitEvent(w: Wave, simm16: number, pc?: number): boolean {
  const l = links.get(w);
  return l ? l.unit.waitEvent(l.pops, simm16, pc) : true;
}

export function popsSendmsg(w: Wave, id: number, pc?: number): void {
  const l = links.get(w);
  if (l) wake(l.unit.sendMsg(l.pops, id, counters(w), pc));
}

/** exp: the export POPS requires; with `done` on GFX11 the exit. Skipped exports (STATUS.SKIP_EXPORT) count for nothing. */
export function popsExport(w: Wave, done: boolean, pc?: number): void {
  const l = links.get(w);
  if (!l) return;
  if ((w.hw[HWREG.STATUS]! & STATUS.SKIP_EXPORT) !== 0) l.unit.exportSkipped(l.pops, pc);
  else wake(l.unit.exportDone(l.pops, done, counters(w), pc));
}

export function popsEndpgm(w: Wave, pc?: number): void {
  const l = links.get(w);
  if (l) wake(l.unit.endProgram(l.pops, false, pc));
}

// ---------------------------------------------------------------- subgroup operations in the intrawave loop

/** VCC_LO's scalar operand number (GFX9-GFX11): a v_cmp writing elsewhere is a ballot. */
const VCC_LO = 106;

/**
 * Whether the instruction is a subgroup operation whose result depends on lanes outside each
 * lane's own quad (seed "Resolving intrawave collisions": the layers split a wave at quad
 * boundaries, so quad-local operations see the same lanes either way). Returns its kind, or null.
 * v_cmp into VCC (the _e32 form) is taken as control flow, not a ballot; a v_cmp writing another
 * SGPR (the e64 form compilers use for subgroupBallot) is a ballot.
 */
export function crossQuadOp(inst: Instruction): string | null {
  const m = inst.mnemonic;
  const f = inst.fields;
  if (inst.variant === 'dpp16' || f['dpp_ctrl'] !== undefined) {
    return (f['dpp_ctrl'] ?? 0) <= 0xff ? null : 'DPP'; // 0x00-0xff: quad_perm
  }
  if (inst.variant === 'dpp8') {
    const sel = f['sel'] ?? 0;
    for (let i = 0; i < 8; i++) if ((((sel >>> (3 * i)) & 7) >> 2) !== (i >> 2)) return 'DPP8';
    return null;
  }
  if (/^v_(readlane|readfirstlane|writelane|permlane\w*)_b32/.test(m)) return m.replace(/_e(32|64)$/, '');
  if (/^ds_b?permute_b32/.test(m)) return m;
  if (m === 'ds_swizzle_b32') {
    const off = ((f['offset0'] ?? 0) | ((f['offset1'] ?? 0) << 8)) & 0xffff;
    if (off & 0x8000) return null; // quad-permute mode
    const and = off & 0x1f, or = (off >> 5) & 0x1f, xor = (off >> 10) & 0x1f;
    return (and & 0x1c) === 0x1c && (or & 0x1c) === 0 && (xor & 0x1c) === 0 ? null : m;
  }
  if (/^v_cmp_/.test(m) && inst.variant === 'e64' && (f['vdst'] ?? VCC_LO) !== VCC_LO) return `${m} (ballot into an SGPR)`;
  return null;
}

/** EXEC of each POPS wave when it was first seen inside its ordered section. */
const entryExec = new WeakMap<PopsWaveView, readonly [number, number]>();
const reported = new WeakMap<PopsWaveView, Set<number>>();

/**
 * Before each instruction of a POPS wave (the runners call it): a subgroup operation inside the
 * ordered section of a wave with intrawave collisions, executed while some layer of the lanes that
 * entered has no active lane (the layer loop runs one layer at a time), sees a different set of
 * active lanes than outside the loop: pops.intrawave.subgroup-lanes (once per wave and PC).
 */
export function popsBeforeInstruction(w: Wave, inst: Instruction, pc: number): void {
  const l = links.get(w);
  if (!l) return;
  const p = l.pops;
  if (!p.entered || p.exited || p.intrawaveCollision === 0 || !p.config.loadIntrawaveCollision) return;
  const lo = w.s[SREG.EXEC_LO]! >>> 0, hi = w.waveSize === 64 ? w.s[SREG.EXEC_HI]! >>> 0 : 0;
  const entry = entryExec.get(p);
  if (!entry) {
    entryExec.set(p, [lo, hi]);
    return;
  }
  if ((lo === entry[0] && hi === entry[1]) || (lo === 0 && hi === 0)) return;
  const kind = crossQuadOp(inst);
  if (!kind) return;
  const on = (e: readonly [number, number], lane: number): boolean => ((lane < 32 ? e[0] >>> lane : e[1] >>> (lane - 32)) & 1) === 1;
  const layers = intrawaveLayers(p.intrawaveCollision, w.waveSize);
  let missing = -1;
  let active = 0;
  layers.forEach(([a, b], i) => {
    let inEntry = false, inNow = false;
    for (let lane = a; lane < b; lane++) {
      inEntry ||= on(entry, lane);
      inNow ||= on([lo, hi], lane);
    }
    if (inNow) active++;
    if (inEntry && !inNow && missing < 0) missing = i;
  });
  if (missing < 0) return;
  let seen = reported.get(p);
  if (!seen) reported.set(p, (seen = new Set()));
  if (seen.has(pc)) return;
  seen.add(pc);
  l.unit.intrawaveSubgroupOp(p, kind, active, layers.length, pc);
}

/** s_endpgm_ordered_ps_done: waits for every counter, sends ORDERED_PS_DONE, ends the wave. */
define('s_endpgm_ordered_ps_done', (inst) => ({
  cls: 'branch',
  run: (w) => {
    w.vmcnt = w.vscnt = w.lgkmcnt = w.expcnt = 0; // memory completes at issue in this model
    const l = links.get(w);
    if (l) wake(l.unit.endProgram(l.pops, true, w.pc - inst.size));
    w.state = 'ended';
  },
}));
