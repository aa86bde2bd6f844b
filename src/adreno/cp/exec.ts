/**
 * What the executing CP's packet handlers share: the handler signature, the Stop the fatal ones
 * throw, and payload helpers. Handlers live in handlers-*.ts, grouped by what they touch;
 * handlers.ts builds the per-generation table cp.ts dispatches through.
 */
import type { CommandProcessor } from './cp.js';
import type { PacketRecord } from './walker.js';

/** The a6xx context register range (banked per pipeline cluster). */
export const CTX_LO = 0x8000;
export const CTX_HI = 0xc000;

export type DrawMode = 'GMEM' | 'SYSMEM' | 'BINNING';
/** Index of a render mode in `CommandProcessor.drawState`. */
export const MODE_INDEX: Readonly<Record<DrawMode, number>> = { BINNING: 0, GMEM: 1, SYSMEM: 2 };

/** Why execution stopped. */
export type StopReason = 'done' | 'opcode-error' | 'protect-fault' | 'hang' | 'iova-fault' | 'budget';

/** Thrown to stop the CP (caught by `CommandProcessor.run`). */
export class Stop extends Error {
  readonly reason: StopReason;
  constructor(reason: StopReason) {
    super(reason);
    this.reason = reason;
  }
}

/**
 * Executes one type-7 packet. Returns the dwords to skip after it (conditional execution),
 * END (-1) to abandon the rest of the buffer (a chain), or 0.
 */
export type Handler = (cp: CommandProcessor, r: PacketRecord) => number;

/** A payload too short for the packet: CP_OPCODE_ERROR, stop. */
export function need(cp: CommandProcessor, r: PacketRecord, k: number): void {
  if (r.payload.length >= k) return;
  cp.setCpInt(0);
  cp.report('adreno.cp.short-payload', 'error', `${r.name} needs ${k} payload dwords, has ${r.payload.length}`);
  throw new Stop('opcode-error');
}

/** The 64-bit address in payload dwords k (low) and k + 1 (high); missing dwords read 0. */
export function a64(p: Uint32Array, k: number): number {
  return (p[k + 1] ?? 0) * 2 ** 32 + (p[k] ?? 0);
}

/** How many registers an array of the database has (`pattern` with % for the index, e.g. 'RB_MRT[%].BUF_INFO'). */
export function arrayLength(cp: CommandProcessor, pattern: string): number {
  let n = 0;
  for (;;) {
    try {
      cp.regsDb.reg(pattern.replace('%', String(n)));
    } catch {
      return n;
    }
    n++;
  }
}
