/** `gpusim disasm`: disassemble a code object, relocatable object or raw instruction bytes like llvm-objdump -d. */
import { readFileSync } from 'node:fs';
import type { Command } from '../command.js';
import { UsageError, InputError } from '../../core/errors.js';
import { targetFor, targets, withWaveOption } from '../../amd/isa/targets.js';
import type { IsaTarget } from '../../amd/isa/target.js';
import { loadCodeObject } from '../../formats/amdgpu/codeobject.js';
import { formatListing, listCodeObject, listRaw } from '../../amd/isa/listing.js';

export const disasmCommand: Command = {
  name: 'disasm',
  summary: 'disassemble an AMDGPU code object (.co/.o) or raw bytes, as llvm-objdump -d prints it',
  help: `usage: gpusim disasm <file.co | file.o | raw.bin> [--mcpu gfx1100|gfx1030|gfx900] [--wave 32|64] [--kernel NAME] [--json]
                     [--collapse-padding]

ELF inputs are disassembled per function symbol; the target comes from the ELF header unless
--mcpu is given. Anything that is not ELF is read as raw little-endian instruction dwords at address 0
(--mcpu then defaults to gfx1100). Invalid encodings print <unknown> and disassembly goes on, as
llvm-objdump does; they are counted as findings (exit 1).
  --mcpu NAME     target (${Object.keys(targets).join(', ')})
  --wave 32|64    print lane masks as wave32 (s4, vcc_lo; the default, as llvm-objdump) or wave64
                  (s[4:5], vcc; llvm-objdump --mattr=+wavefrontsize64) text
  --kernel NAME   only this function symbol
  --json          print [{symbol, address, lines:[{pc, words, text}]}]
  --collapse-padding
                  print a trailing run of s_code_end padding as its first line and a count
                  (default: every line, as llvm-objdump prints them)
Exit: 0 ok, 1 if any word did not decode, 2 bad input.`,
  options: {
    mcpu: { type: 'string' },
    wave: { type: 'string' },
    kernel: { type: 'string' },
    json: { type: 'boolean', default: false },
    'collapse-padding': { type: 'boolean', default: false },
  },
  positionals: true,
  run(values, positionals, io) {
    if (positionals.length !== 1) throw new UsageError('disasm: expected one input file');
    const wave = (t: IsaTarget): IsaTarget => {
      const w = withWaveOption(t, values.wave as string | undefined);
      if (typeof w === 'string') throw new UsageError(`disasm: ${w}`);
      return w;
    };
    const file = positionals[0]!;
    const bytes = new Uint8Array(readFileSync(file));
    const isElf = bytes.length >= 4 && bytes[0] === 0x7f && bytes[1] === 0x45 && bytes[2] === 0x4c && bytes[3] === 0x46;
    let mcpu = values.mcpu as string | undefined;
    let blocks;
    if (isElf) {
      const co = loadCodeObject(bytes, file);
      mcpu ??= co.target.mcpu;
      const target = targetFor(mcpu);
      if (!target) throw new InputError(`no instruction set for target '${mcpu}' yet (known: ${Object.keys(targets).join(', ')})`, file);
      blocks = listCodeObject(wave(target), co, values.kernel as string | undefined);
      if (values.kernel !== undefined && blocks.length === 0) throw new InputError(`no function symbol '${values.kernel}' in .text`, file);
    } else {
      mcpu ??= 'gfx1100';
      const target = targetFor(mcpu);
      if (!target) throw new UsageError(`disasm: unknown --mcpu '${mcpu}' (known: ${Object.keys(targets).join(', ')})`);
      if (bytes.length % 4 !== 0) throw new InputError(`raw instruction file is ${bytes.length} bytes, not a whole number of dwords`, file);
      blocks = listRaw(wave(target), bytes);
    }
    const unknown = blocks.reduce((n, b) => n + b.lines.filter((l) => !l.inst).length, 0);
    if (values.json) {
      io.stdout(JSON.stringify(blocks.map((b) => ({
        symbol: b.symbol, address: b.address,
        lines: b.lines.map((l) => ({ pc: l.pc, words: l.words, text: l.text })),
      }))) + '\n');
    } else {
      if (isElf) io.stdout(`\n${file.split('/').pop()}:\tfile format elf64-amdgpu\n\nDisassembly of section .text:\n`);
      io.stdout(formatListing(blocks, { collapsePadding: values['collapse-padding'] === true }));
    }
    if (unknown > 0) io.stderr(`gpusim: ${unknown} word(s) did not decode as ${mcpu} instructions\n`);
    return unknown > 0 ? 1 : 0;
  },
};
