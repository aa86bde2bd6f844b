/** Run hand-written r600 assembly on one workgroup and look at the waves' final state. */
import { Diagnostics } from '../../src/core/diagnostics.js';
import { assembleBody } from '../../src/r600/isa/asm.js';
import { decodeProgram, type R600Gen } from '../../src/r600/isa/decode.js';
import type { R600Object } from '../../src/r600/isa/object.js';
import { runR600, type R600DispatchOptions } from '../../src/r600/wave/dispatch.js';
import { type Wave } from '../../src/r600/wave/machine.js';

export interface AsmRun {
  readonly waves: Wave[];
  readonly diag: Diagnostics;
  readonly global: Uint8Array;
  /** gpr(wave, reg, chan) as a per-lane array. */
  reg(reg: number, chan: number, wave?: number): number[];
}

export function objectFrom(gen: R600Gen, src: string, entries?: readonly number[], mcpu?: string): R600Object {
  const lines = src.split('\n').map((l) => l.replace(/^\s*/, '\t')).filter((l) => l.trim() !== '');
  const a = assembleBody(gen, lines, 'test.s');
  const program = decodeProgram(gen, a.words, 'test.s', entries);
  const text = new Uint8Array(a.words.buffer.slice(0));
  return { mcpu: mcpu ?? (gen === 'cayman' ? 'cayman' : 'cypress'), gen, text, kernels: [{ name: 'main', offset: 0, program, relocs: new Map() }], dataSymbols: new Map(), config: [] };
}

export function runAsm(src: string, opts: Partial<R600DispatchOptions> & { gen?: R600Gen; lanes?: number; globalBytes?: number; entries?: number[]; mcpu?: string } = {}): AsmRun {
  const gen = opts.gen ?? 'evergreen';
  const object = objectFrom(gen, src, opts.entries ?? (opts.fetchShader !== undefined ? [opts.fetchShader] : undefined), opts.mcpu);
  const diag = opts.diag ?? new Diagnostics();
  const waves: Wave[] = [];
  const global = opts.global ?? new Uint8Array(opts.globalBytes ?? 4096);
  const lanes = opts.lanes ?? 64;
  runR600({
    object, kernel: object.kernels[0]!, grid: opts.grid ?? [lanes, 1, 1], block: opts.block ?? [lanes, 1, 1], args: opts.args ?? new Uint8Array(0),
    global, diag, stackSize: opts.stackSize ?? 8, maxInstructions: opts.maxInstructions ?? 100000, fetchShader: opts.fetchShader, bools: opts.bools,
    loopConsts: opts.loopConsts, gds: opts.gds, exports: opts.exports, memBuffers: opts.memBuffers, scratchDwords: opts.scratchDwords, onWaveEnd: (w) => waves.push(w),
    textures: opts.textures, samplers: opts.samplers, borderColors: opts.borderColors, rats: opts.rats, interpParams: opts.interpParams,
  });
  waves.sort((a, b) => a.id - b.id);
  return {
    waves, diag, global,
    reg(reg: number, chan: number, wave = 0): number[] {
      const w = waves[wave]!;
      return Array.from({ length: w.W }, (_, l) => w.gpr[(reg * 4 + chan) * w.W + l]!);
    },
  };
}

/** A literal line for value v (the assembler only reads the integer before the parenthesis). */
export const lit = (a: number, b = 0): string => `${a | 0}(0), ${b | 0}(0)`;

export const ids = (d: Diagnostics): string[] => [...new Set(d.list.map((x) => x.id))].sort();

/** One ALU clause (setup, `setupSlots` instruction and literal lines) run first, then the CF lines `cf`. */
export function cfProg(cf: string[], setup: string[], setupSlots: number): string {
  const at = Math.max(4, cf.length + 2);
  return [`ALU ${setupSlots - 1}, @${at}, KC0[], KC1[]`, ...cf, 'CF_END', ...Array(at - cf.length - 2).fill('PAD'), `ALU clause starting at ${at}:`, ...setup].join('\n');
}
