/**
 * Traps and exceptions (wave-state seed, "trap and exception registers"):
 * - STATUS.TRAP_EN says a trap handler is installed (TBA/TMA set by the launcher). With TRAP_EN=0
 *   every trap and exception is ignored and s_trap is a NOP.
 * - Entering the handler loads {TTMP1, TTMP0} = {7'h0, HT[0], trapID[7:0], PC[47:0]}, sets
 *   STATUS.PRIV (TTMPs become readable/writable) and jumps to TBA. s_trap saves its own PC; an
 *   exception saves the PC the caller names (the instruction after the one that raised it, or the
 *   faulting PC for an illegal encoding). HT=1 is only for host traps, TRAP_ID is 0 for exceptions.
 * - s_rfe_b64 returns: PC = its operand, STATUS.PRIV = 0.
 * - Exceptions set their TRAPSTS bit (sticky). Floating-point/integer exceptions trap only when
 *   their MODE.EXCP_EN bit is set; MEMVIOL and illegal instructions always trap (cannot be masked).
 * - A trap or exception raised inside the handler (PRIV=1) only records TRAPSTS: no nesting.
 * Other units raise exceptions through `raiseException` (VALU: EXCP_* bits; memory: MEM_VIOL).
 */
import type { Wave } from '../wave/wave.js';
import { HWREG, SREG, STATUS } from '../wave/wave.js';
import { MODE } from './hwreg.js';

/** TRAPSTS bits (EXCP[8:0] share their bit numbers with MODE.EXCP_EN[8:0]). */
export const TRAPSTS = {
  EXCP_INVALID: 1 << 0, EXCP_INPUT_DENORM: 1 << 1, EXCP_DIV0: 1 << 2, EXCP_OVERFLOW: 1 << 3,
  EXCP_UNDERFLOW: 1 << 4, EXCP_INEXACT: 1 << 5, EXCP_INT_DIV0: 1 << 6, EXCP_ADDR_WATCH0: 1 << 7,
  EXCP_MEM_VIOL: 1 << 8, SAVECTX: 1 << 10, ILLEGAL_INST: 1 << 11, HOST_TRAP: 1 << 16,
} as const;

/** Whether the wave has a trap handler (STATUS.TRAP_EN). */
export function trapEnabled(w: Wave): boolean {
  return (w.hw[HWREG.STATUS]! & STATUS.TRAP_EN) !== 0;
}

/** Enter the trap handler: TTMP0/1 get the saved PC and trap id, PRIV=1, PC=TBA. */
export function enterTrap(w: Wave, savedPc: number, trapId: number, hostTrap = 0): void {
  w.s[SREG.TTMP0] = savedPc >>> 0;
  w.s[SREG.TTMP0 + 1] = ((Math.floor(savedPc / 0x1_0000_0000) & 0xffff) | ((trapId & 0xff) << 16) | ((hostTrap & 1) << 24)) >>> 0;
  w.hw[HWREG.STATUS] = (w.hw[HWREG.STATUS]! | STATUS.PRIV | STATUS.TRAP) >>> 0;
  w.pc = w.tba;
}

/**
 * Record an exception (TRAPSTS bits) and take the trap when it is enabled and possible.
 * `bits`: TRAPSTS.EXCP_* (maskable by MODE.EXCP_EN, MEM_VIOL excepted) or ILLEGAL_INST.
 * Returns true when the wave now runs its trap handler (the caller must not continue the
 * instruction's normal effects past that point).
 */
export function raiseException(w: Wave, bits: number, savedPc: number): boolean {
  w.hw[HWREG.TRAPSTS] = (w.hw[HWREG.TRAPSTS]! | bits) >>> 0;
  if (!trapEnabled(w) || w.priv) return false;
  const unmaskable = bits & (TRAPSTS.EXCP_MEM_VIOL | TRAPSTS.ILLEGAL_INST);
  const enabled = (w.hw[HWREG.MODE]! >>> MODE.EXCP_EN_SHIFT) & 0x1ff & bits;
  if (unmaskable === 0 && enabled === 0) return false;
  enterTrap(w, savedPc, 0);
  return true;
}

/** Installed trap handler for a dispatch: code bytes mapped at `tba`, and the TMA value. */
export interface TrapHandler {
  /** Handler code (GFX11 machine code), mapped at `tba`. */
  readonly code: Uint8Array | Uint32Array;
  /** Trap base address: where the code is mapped (256-byte aligned). */
  readonly tba: number;
  /** Trap memory address (opaque to the hardware; the handler reads it with s_sendmsg_rtn). */
  readonly tma?: number;
}

/** Launch-time state for a wave when a trap handler is installed: TBA/TMA and STATUS.TRAP_EN. */
export function installTrap(w: Wave, h: TrapHandler): void {
  w.tba = h.tba;
  w.tma = h.tma ?? 0;
  w.hw[HWREG.STATUS] = (w.hw[HWREG.STATUS]! | STATUS.TRAP_EN) >>> 0;
}
