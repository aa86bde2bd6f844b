/**
 * Operand access with the GFX11 register-file rules, resolved at bind time into small closures
 * (habit 3: nothing re-extracts bits per execution). Rules from the wave-state seed (SGPRs):
 * - out-of-range source SGPRs read 0; TTMPs read 0 outside a trap handler (STATUS.PRIV=0);
 * - writes to TTMPs outside a trap handler are ignored (and the SALU op then leaves SCC alone);
 * - writes to NULL are dropped (SCC still updates); writes past the SGPR file are dropped;
 * - 64-bit operands ignore the LSB of the register number (alignment forced), with a diagnostic.
 */
import type { Wave } from '../wave/wave.js';
import { SREG } from '../wave/wave.js';
import type { ExecEnv } from '../engine/env.js';
import { WAVE_STATE_SEED } from '../engine/env.js';
import { popsExitingWaveId } from './pops-exec.js';

export type SRead = (w: Wave) => number;

/** Scratch for 64-bit results without allocation: `HI[0]` carries the high dword of a 64-bit read. */
export const HI = new Uint32Array(1);

/** A diagnostic at bind time is reported once per instruction, at its first execution. */
export function diagAt(env: ExecEnv, w: Wave, pc: number, id: string, message: string, severity: 'error' | 'warning' = 'warning'): void {
  env.diag.report({ id, severity, where: { pc, wave: w.id }, message, seed: WAVE_STATE_SEED });
}

function isTtmp(enc: number): boolean {
  return enc >= SREG.TTMP0 && enc <= SREG.TTMP15;
}

/** 32-bit scalar source (8-bit encoding, or 9-bit < 256) with the literal resolved. */
export function sread32(enc: number, literal: number | undefined): SRead {
  if (enc === SREG.LITERAL) {
    const lit = (literal ?? 0) >>> 0;
    return () => lit;
  }
  if (enc === SREG.VCCZ || enc === SREG.EXECZ || enc === SREG.SCC) {
    return (w) => {
      w.syncSpecials();
      return w.s[enc]!;
    };
  }
  // src_pops_exiting_wave_id: volatile, the packer's value at each read (only its readers pay).
  if (enc === SREG.POPS_EXITING_WAVE_ID) return (w) => popsExitingWaveId(w);
  if (isTtmp(enc)) return (w) => (w.priv ? w.s[enc]! : 0);
  return (w) => w.s[enc]!;
}

/**
 * 64-bit scalar source: returns the low dword and leaves the high one in HI[0].
 * `fp64` selects how a 32-bit literal widens: as the high dword (f64 operands) or zero-extended.
 */
export function sread64(enc: number, literal: number | undefined, fp64 = false): SRead {
  if (enc === SREG.LITERAL) {
    const lit = (literal ?? 0) >>> 0;
    if (fp64) return () => ((HI[0] = lit), 0);
    return () => ((HI[0] = 0), lit);
  }
  if (enc >= 128) {
    if (enc === SREG.POPS_EXITING_WAVE_ID) return (w) => ((HI[0] = 0), popsExitingWaveId(w));
    if (enc === SREG.VCCZ || enc === SREG.EXECZ || enc === SREG.SCC) {
      return (w) => {
        w.syncSpecials();
        HI[0] = 0;
        return w.s[enc]!;
      };
    }
    return (w) => {
      HI[0] = w.s64hi[enc]!;
      return w.s64lo[enc]!;
    };
  }
  const r = enc & ~1; // alignment forced: the LSB is ignored
  if (r === SREG.NULL) return () => ((HI[0] = 0), 0);
  if (isTtmp(r)) return (w) => (w.priv ? ((HI[0] = w.s[r + 1]!), w.s[r]!) : ((HI[0] = 0), 0));
  return (w) => ((HI[0] = w.s[r + 1]!), w.s[r]!);
}

/**
 * Write a 32-bit scalar destination. Returns false when the write was refused (a TTMP outside a
 * trap handler), in which case a SALU op must not update SCC either.
 */
export function swrite32(w: Wave, enc: number, v: number): boolean {
  if (enc < SREG.TTMP0) {
    w.s[enc] = v;
    return true;
  }
  if (enc <= SREG.TTMP15) {
    if (!w.priv) return false;
    w.s[enc] = v;
    return true;
  }
  if (enc === SREG.NULL) return true;
  if (enc <= SREG.EXEC_HI) {
    w.s[enc] = v;
    return true;
  }
  return true; // past the SGPR file: dropped
}

/** Write a 64-bit scalar destination (register LSB forced to 0). */
export function swrite64(w: Wave, enc: number, lo: number, hi: number): boolean {
  const r = enc < 128 ? enc & ~1 : enc;
  if (r >= SREG.TTMP0 && r <= SREG.TTMP15 && !w.priv) return false;
  if (r === SREG.NULL || r >= 128) return true;
  w.s[r] = lo;
  w.s[r + 1] = hi;
  return true;
}

/** Diagnose a misaligned 64-bit (or wider) SGPR operand once, at bind time. */
export function checkAlign(env: ExecEnv, pc: number, enc: number, dwords: number, what: string): string | null {
  if (enc >= 128 || dwords < 2) return null;
  const align = dwords > 2 ? 4 : 2;
  if (enc % align !== 0) {
    return `${what} s${enc} of a ${dwords * 32}-bit operand is not ${align === 2 ? 'even' : 'quad'}-aligned; the hardware ignores the low bits (unpredictable per the ISA)`;
  }
  return null;
}
