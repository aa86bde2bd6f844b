/** `gpusim asm`: assemble LLVM-syntax AMDGPU assembly to raw instruction bytes or a linked code object. */
import { readFileSync, writeFileSync } from 'node:fs';
import type { Command } from '../command.js';
import { UsageError, InputError } from '../../core/errors.js';
import { targetFor, targets, mcpuName } from '../../amd/isa/targets.js';
import { AsmError } from '../../amd/isa/types.js';
import { assembleSource, codeObjectOf } from '../../amd/isa/source.js';

export const asmCommand: Command = {
  name: 'asm',
  summary: 'assemble AMDGPU assembly (llvm-mc syntax) to raw bytes or a code object',
  help: `usage: gpusim asm <file.s | -> [-o out] [--format bin|co] [--mcpu gfx1100|gfx1030|gfx900] [--wave 32|64] [--json]

Assembles one instruction per line, with labels (\`loop:\`) as branch targets (forward or backward),
\`.p2align\` and \`.long\` in the code; comments after ';' or '//'. A file with \`.amdhsa_kernel NAME\`
... \`.end_amdhsa_kernel\` blocks (and \`.amdgcn_target\`, \`.amdhsa_code_object_version\`, an optional
\`.amdgpu_metadata\` block) describes kernels: with -o it becomes a linked code object (ELF with
.text, kernel descriptors, symbols and NT_AMDGPU_METADATA) that \`gpusim run\`, \`info\` and
\`disasm\` read, as llvm-mc + ld.lld -shared would make it. Other directives are skipped.
Without -o, prints each instruction with its encoding as llvm-mc -show-encoding does.
  -o, --output FILE   write the result to FILE
  --format bin|co     bin: the little-endian instruction bytes; co: a linked code object.
                      Default: co when the source has an .amdhsa_kernel block, else bin
  --mcpu NAME         target (${Object.keys(targets).join(', ')}); default: the source's
                      .amdgcn_target, else gfx1100
  --wave 32|64        the wave size the text is written for, as llvm-mc's -mattr=+wavefrontsize32/64:
                      lane masks (v_cmp results, carries, v_cndmask conditions, VCC) are one SGPR
                      (s4, vcc_lo) in wave32 and a pair (s[4:5], vcc) in wave64. Default: the
                      kernels' .amdhsa_wavefront_size32, else wave32 on gfx1100/gfx1030, wave64 on
                      gfx900 (its only mode)
  --json              print [{line, text, words}] as JSON
Exit: 0 ok, 2 on a line that does not assemble (one line on stderr naming the line).`,
  options: {
    output: { type: 'string', short: 'o' },
    format: { type: 'string' },
    mcpu: { type: 'string' },
    wave: { type: 'string' },
    json: { type: 'boolean', default: false },
  },
  positionals: true,
  run(values, positionals, io) {
    if (positionals.length !== 1) throw new UsageError('asm: expected one input file (or - for stdin)');
    const mcpu = values.mcpu === undefined ? undefined : mcpuName(String(values.mcpu));
    if (mcpu !== undefined && !targetFor(mcpu)) throw new UsageError(`asm: unknown --mcpu '${mcpu}' (known: ${Object.keys(targets).join(', ')})`);
    const waveOpt = values.wave as string | undefined;
    if (waveOpt !== undefined && waveOpt !== '32' && waveOpt !== '64') throw new UsageError(`asm: --wave must be 32 or 64, not '${waveOpt}'`);
    const format = values.format as string | undefined;
    if (format !== undefined && format !== 'bin' && format !== 'co') throw new UsageError(`asm: --format must be bin or co, not '${format}'`);
    const file = positionals[0]!;
    let src: string;
    try {
      src = file === '-' ? readFileSync(0, 'utf8') : readFileSync(file, 'utf8');
    } catch (e) {
      throw new InputError((e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (e as Error).message, file);
    }
    const lines = src.split(/\r?\n/);
    const fail = (e: unknown): never => {
      if (e instanceof AsmError) {
        const text = e.line > 0 ? (lines[e.line - 1] ?? '').replace(/[\r\n\v\f\u2028\u2029]/g, ' ').trim() : '';
        throw new InputError(text ? `${e.message}: ${text}` : e.message, file);
      }
      throw e;
    };
    let program;
    try {
      program = assembleSource(src, { ...(mcpu !== undefined ? { mcpu } : {}), ...(waveOpt !== undefined ? { wave: waveOpt === '64' ? 64 : 32 } : {}) });
    } catch (e) {
      if (e instanceof InputError && !(e instanceof AsmError)) throw new InputError(e.message, file);
      return fail(e);
    }
    const out = program.instructions.map((o) => ({ line: o.line, text: o.text, words: [...o.words] }));
    if (values.output) {
      const asCo = format === 'co' || (format === undefined && program.kernels.length > 0);
      let bytes: Uint8Array;
      if (asCo) {
        try {
          bytes = codeObjectOf(program);
        } catch (e) {
          return fail(e);
        }
      } else {
        const buf = Buffer.alloc(program.words.length * 4);
        program.words.forEach((w, k) => buf.writeUInt32LE(w >>> 0, 4 * k));
        bytes = buf;
      }
      writeFileSync(values.output as string, bytes);
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
