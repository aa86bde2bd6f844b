/** `gpusim asm`: assemble LLVM-syntax AMDGPU assembly to raw instruction bytes. */
import { readFileSync, writeFileSync } from 'node:fs';
import type { Command } from '../command.js';
import { UsageError, InputError } from '../../core/errors.js';
import { targetFor, targets, withWaveOption } from '../../amd/isa/targets.js';
import { assembleLine, splitAsmLine } from '../../amd/isa/target.js';
import { AsmError } from '../../amd/isa/types.js';

export const asmCommand: Command = {
  name: 'asm',
  summary: 'assemble AMDGPU assembly (llvm-mc syntax) to raw bytes',
  help: `usage: gpusim asm <file.s | -> [-o out.bin] [--mcpu gfx1100|gfx1030|gfx900] [--wave 32|64] [--json]

Assembles one instruction per line (labels and directives are skipped; comments after ';' or '//').
Without -o, prints each instruction with its encoding as llvm-mc -show-encoding does.
  -o, --output FILE   write the little-endian instruction bytes to FILE
  --mcpu NAME         target (${Object.keys(targets).join(', ')}); default gfx1100
  --wave 32|64        the wave size the text is written for, as llvm-mc's -mattr=+wavefrontsize32/64:
                      lane masks (v_cmp results, carries, v_cndmask conditions, VCC) are one SGPR
                      (s4, vcc_lo) in wave32 and a pair (s[4:5], vcc) in wave64. Default: wave32 on
                      gfx1100/gfx1030, wave64 on gfx900 (its only mode)
  --json              print [{line, text, words}] as JSON
Exit: 0 ok, 2 on a line that does not assemble (the error names the line).`,
  options: {
    output: { type: 'string', short: 'o' },
    mcpu: { type: 'string', default: 'gfx1100' },
    wave: { type: 'string' },
    json: { type: 'boolean', default: false },
  },
  positionals: true,
  run(values, positionals, io) {
    if (positionals.length !== 1) throw new UsageError('asm: expected one input file (or - for stdin)');
    const mcpu = values.mcpu as string;
    const base = targetFor(mcpu);
    if (!base) throw new UsageError(`asm: unknown --mcpu '${mcpu}' (known: ${Object.keys(targets).join(', ')})`);
    const target = withWaveOption(base, values.wave as string | undefined);
    if (typeof target === 'string') throw new UsageError(`asm: ${target}`);
    const file = positionals[0]!;
    const src = file === '-' ? readFileSync(0, 'utf8') : readFileSync(file, 'utf8');
    const out: { line: number; text: string; words: number[] }[] = [];
    const lines = src.split('\n');
    for (let i = 0; i < lines.length; i++) {
      const l = splitAsmLine(lines[i]!, i + 1);
      if (!l || l.mnemonic.endsWith(':') || l.mnemonic.startsWith('.')) continue;
      try {
        out.push({ line: i + 1, text: `${l.mnemonic} ${l.rest}`.trim(), words: assembleLine(target, lines[i]!, i + 1) });
      } catch (e) {
        if (e instanceof AsmError) throw new InputError(`${e.message}: ${lines[i]!.trim()}`, file);
        throw e;
      }
    }
    if (values.output) {
      const total = out.reduce((n, o) => n + o.words.length, 0);
      const buf = Buffer.alloc(total * 4);
      let k = 0;
      for (const o of out) for (const w of o.words) buf.writeUInt32LE(w >>> 0, 4 * k++);
      writeFileSync(values.output as string, buf);
    } else if (values.json) {
      io.stdout(JSON.stringify(out, null, 1) + '\n');
    } else {
      for (const o of out) {
        const bytes: string[] = [];
        for (const w of o.words) for (let b = 0; b < 4; b++) bytes.push('0x' + ((w >>> (8 * b)) & 0xff).toString(16).padStart(2, '0'));
        io.stdout(`\t${o.text.padEnd(39)} ; encoding: [${bytes.join(',')}]\n`);
      }
    }
    return 0;
  },
};
