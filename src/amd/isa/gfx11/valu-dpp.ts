/**
 * GFX11 VALU DPP16 / DPP8 forms (VOP1/VOP2/VOPC `_dpp` and VOP3 `_e64_dpp`).
 */
import { DecodeError, type AsmLine, type Instruction } from '../types.js';
import type { ValuOpInfo } from './valu-types.js';

export type DppForm = 'dpp16' | 'dpp8';
export const DPP_INFO = {};

export function dppDecode(enc: string, op: number, info: ValuOpInfo, words: ArrayLike<number>, index: number, pc: number): Instruction {
  void op; void info;
  throw new DecodeError(pc, [words[index]! >>> 0], `${enc} DPP not supported yet`);
}

export function dppPrint(inst: Instruction): string {
  return inst.mnemonic;
}

export function dppAssemble(encs: readonly string[], line: AsmLine, byMnemonic: unknown): number[] | null {
  void encs; void line; void byMnemonic;
  return null;
}
