/**
 * Per-generation facts the GFX11 semantics ask at bind time (a leaf module: valu.ts and
 * waitcnt.ts import it without pulling in the GFX9/GFX10 binders). See normalize.ts.
 */
import type { OperandSpace } from '../isa/operands.js';
import { baseMnemonic } from '../engine/registry.js';

/** GFX9 16-bit ops that preserve the high half of their destination (LLVM: changed in GFX9). */
const GFX9_PRESERVE_HI = /^v_(mac|fmac|madak|madmk|fmaak|fmamk)_f16$/;

/**
 * Whether a 16-bit result written to the low half zeroes the high half on this generation
 * (GFX9 for most ops; never on GFX10/GFX11). Asked once per instruction at bind time.
 */
export function zeroesHigh16(space: OperandSpace, mnemonic: string): boolean {
  return space.gfx === 9 && !GFX9_PRESERVE_HI.test(baseMnemonic(mnemonic));
}

/** GFX9 stores count on vmcnt (there is no vscnt); GFX10 and GFX11 count them on vscnt. */
export function storesInVmcnt(space: OperandSpace): boolean {
  return space.gfx === 9;
}

/**
 * The wave counter a vector memory store (or an atomic without return) increments: VS_CNT on
 * GFX10+, VM_CNT on GFX9, where loads and stores share one counter that retires in issue order
 * (so s_waitcnt vmcnt(N) bounds the loads and stores together, as on hardware).
 */
export function storeCounter(space: OperandSpace): 'vscnt' | 'vmcnt' {
  return storesInVmcnt(space) ? 'vmcnt' : 'vscnt';
}

