/**
 * The semantics table: base mnemonic -> binder. A binder runs once per decoded instruction (at
 * its first execution) and returns the handler that runs every time; operand decoding happens
 * in the binder, never in the handler. Families (salu.ts, valu.ts, ...) fill the table by calling
 * `define` at import time; bind.ts imports them all.
 */
import type { Instruction } from '../isa/types.js';
import type { Binder } from './types.js';
export type { Finding, Bound, Inline, Binder } from './types.js';

const table = new Map<string, Binder>();

/** Register semantics for one or more base mnemonics (without _e32/_e64/_dpp suffixes). */
export function define(names: string | readonly string[], binder: Binder): void {
  for (const n of typeof names === 'string' ? [names] : names) {
    if (table.has(n)) throw new Error(`semantics for ${n} defined twice`);
    table.set(n, binder);
  }
}

/** The mnemonic without its encoding suffix: v_add_f32_e64_dpp -> v_add_f32. */
export function baseMnemonic(m: string): string {
  return m.replace(/_(e32|e64|dpp|sdwa|e64_dpp)$/, '').replace(/_e64$/, '');
}

export function lookup(mnemonic: string): Binder | undefined {
  return table.get(baseMnemonic(mnemonic));
}

/** Every mnemonic with semantics (for coverage reports). */
export function implemented(): string[] {
  return [...table.keys()].sort();
}
