/** `gpusim adreno ir3 disasm|asm`: the ir3 shader ISA (a3xx..a7xx) tools. */
import { readFileSync, writeFileSync } from 'node:fs';
import { EXIT_OK } from '../../core/errors.js';
import { InputError, UsageError } from '../../core/errors.js';
import { assembleIr3 } from './asm.js';
import { disasmIr3 } from './disasm.js';
import { gpuIdOf } from './isa.js';

export const IR3_USAGE =
  'adreno ir3: usage: ir3 disasm <code.bin> --gpu a630 [--cffdump] [--verbose] [--stats] | ir3 asm <code.s> --gpu a630 -o <code.bin>';

export function ir3Command(values: Record<string, unknown>, rest: string[], out: (l: string) => void): number {
  const [sub, file] = rest;
  if (!sub || !file || rest.length > 2) throw new UsageError(IR3_USAGE);
  if (values['gpu'] === undefined) throw new UsageError('adreno ir3: --gpu is required (a306, a420, a530, a630, a660, a730, ... or a6xx)');
  const gpuId = gpuIdOf(String(values['gpu']));
  if (gpuId === undefined) throw new UsageError(`adreno ir3: --gpu: '${String(values['gpu'])}' is not an Adreno a3xx..a7xx (e.g. a630, 660, a7xx)`);
  switch (sub) {
    case 'disasm': {
      const b = new Uint8Array(readFileSync(file));
      if (b.length % 8) throw new InputError(`${b.length} bytes is not a whole number of 64-bit instructions`, file);
      const words = new Uint32Array(b.slice().buffer);
      const verbose = !!values['verbose'];
      const stats = !!values['stats'];
      for (const l of disasmIr3(words, { gpuId, cffdump: !!values['cffdump'] || verbose || stats, verbose, stats })) out(l);
      return EXIT_OK;
    }
    case 'asm': {
      const o = values['output'];
      if (typeof o !== 'string') throw new UsageError('adreno ir3 asm: -o <output file> is required');
      const words = assembleIr3(readFileSync(file, 'utf8'), { gpuId }, file);
      writeFileSync(o, new Uint8Array(words.buffer, words.byteOffset, words.byteLength));
      out(`${words.length / 2} instructions (${words.length * 4} bytes) written to ${o}`);
      return EXIT_OK;
    }
    default:
      throw new UsageError(`adreno ir3: unknown subcommand '${sub}' (disasm, asm)`);
  }
}
