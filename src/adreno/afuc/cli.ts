/** `gpusim adreno afuc disasm|asm|emu`. */
import { readFileSync, writeFileSync } from 'node:fs';
import { EXIT_FINDING, EXIT_OK, InputError, UsageError } from '../../core/errors.js';
import { intText } from '../../core/numbers.js';
import { maybeGunzip } from '../../formats/rd.js';
import type { Gen } from '../regs/db.js';
import { AfucAsmError, assemble } from './isa.js';
import { renderInstr } from './fdtext.js';
import { FdAsmError, fdAssemble } from './fdasm.js';
import { disasmWords, fdDisassemble } from './fddisasm.js';
import { chipForGen } from './names.js';
import { AfucEmu } from './emu.js';
import { testFirmwareFile, testFirmwareSource } from './testfw.js';
import { firmwareEmu, firmwareSummary, fwIdInfo, loadFirmware, type LoadedFirmware } from './fwfile.js';

/**
 * A released-layout firmware file: dword 0 is zero and the version word names a known firmware
 * id (or --gen forces the generation). `--skip N` bypasses this (raw instruction words).
 */
function asFirmwareFile(file: string, values: Record<string, unknown>): LoadedFirmware | undefined {
  if (file === 'test' || file.endsWith('.asm') || file.endsWith('.s') || values['skip'] !== undefined) return undefined;
  const b = new Uint8Array(readFileSync(file));
  if (b.length < 12 || b.length % 4) return undefined;
  const dw = new Uint32Array(b.slice().buffer);
  if (dw[0] !== 0 || (!fwIdInfo((dw[1]! >>> 12) & 0xfff) && values['gen'] === undefined)) return undefined;
  return loadFirmware(b, file, values['gen'] as Gen | undefined);
}

type AfucGenName = 'a5xx' | 'a6xx' | 'a7xx';

function loadFw(file: string, gen: AfucGenName): Uint32Array {
  if (file === 'test') return assemble(testFirmwareSource(gen), gen);
  if (file.endsWith('.asm') || file.endsWith('.s')) return assembleSource(file, { defaultGen: gen }).image;
  const b = new Uint8Array(readFileSync(file));
  if (b.length % 4) throw new InputError(`firmware is ${b.length} bytes, not whole dwords`, file);
  return new Uint32Array(b.slice().buffer);
}

/** A freedreno-syntax source file through the afuc-asm-compatible assembler; errors are one line. */
function assembleSource(file: string, opts: Parameters<typeof fdAssemble>[1]): ReturnType<typeof fdAssemble> {
  try {
    return fdAssemble(readFileSync(file, 'utf8'), opts);
  } catch (e) {
    if (e instanceof FdAsmError || e instanceof AfucAsmError) throw new InputError(e.message, file);
    throw e;
  }
}

/** Drop `--skip N` leading dwords (a firmware file's header) before disassembling or emulating. */
function skipHeader(fw: Uint32Array, values: Record<string, unknown>): Uint32Array {
  const n = values['skip'] !== undefined ? intText(String(values['skip']), 'afuc disasm: --skip') : 0;
  if (!Number.isInteger(n) || n < 0 || n > fw.length) throw new UsageError(`--skip must be 0..${fw.length}`);
  return fw.subarray(n);
}

const REPL_HELP = [
  'commands: s [N] step N instructions | c continue to a breakpoint or idle | b ADDR / d ADDR set / delete a breakpoint',
  '          r registers | x REG [N] GPU registers (hex offset) | p FILE feed a packet stream | l [ADDR] list code | q quit',
];

/** A small line-driven debugger over stdin (also scriptable: `printf 's 5\\nr\\nq\\n' | gpusim adreno afuc emu test -i`). */
function interactive(emu: AfucEmu, values: Record<string, unknown>, out: (l: string) => void): number {
  const lines = readStdinLines();
  if (typeof values['packets'] === 'string') emu.feed(new Uint32Array(maybeGunzip(new Uint8Array(readFileSync(values['packets'])), values['packets']).slice().buffer));
  const show = (): void => {
    const d = emu.code[emu.pc];
    out(`${emu.pc.toString(16).padStart(4, '0')}: ${d ? renderInstr(d, emu.chip) : `[${emu.fw[emu.pc]?.toString(16).padStart(8, '0') ?? '????????'}]`}`);
  };
  out(REPL_HELP.join('\n'));
  show();
  for (const raw of lines) {
    const [cmd, a, b] = raw.trim().split(/\s+/);
    if (!cmd) continue;
    out(`> ${raw.trim()}`);
    if (cmd === 'q') break;
    else if (cmd === 's') {
      const n = a ? parseInt(a, 10) : 1;
      for (let i = 0; i < n && emu.stopped !== 'error'; i++) emu.step();
      show();
    } else if (cmd === 'c') {
      out(`stopped: ${emu.run(1_000_000)}`);
      show();
    } else if (cmd === 'b' && a) emu.breakpoints.add(parseInt(a, 16));
    else if (cmd === 'd' && a) emu.breakpoints.delete(parseInt(a, 16));
    else if (cmd === 'r') for (const l of emu.dump()) out(l);
    else if (cmd === 'x' && a) {
      const o = parseInt(a, 16);
      const n = b ? parseInt(b, 10) : 1;
      for (let i = 0; i < n; i++) out(`  0x${(o + i).toString(16)}: 0x${emu.regs[(o + i) & 0x3ffff]!.toString(16).padStart(8, '0')}`);
    } else if (cmd === 'p' && a) {
      const bytes = maybeGunzip(new Uint8Array(readFileSync(a)), a);
      emu.feed(new Uint32Array(bytes.slice(0, bytes.length & ~3).buffer));
      out(`fed ${bytes.length >> 2} dwords`);
    } else if (cmd === 'l') {
      const at = a ? parseInt(a, 16) : emu.pc;
      for (let pc = Math.max(0, at - 2); pc < Math.min(emu.fw.length, at + 8); pc++) {
        const d = emu.code[pc];
        out(`${pc === emu.pc ? '=>' : '  '} ${pc.toString(16).padStart(4, '0')}: ${d ? renderInstr(d, emu.chip) : `[${emu.fw[pc]!.toString(16).padStart(8, '0')}]`}`);
      }
    } else out(REPL_HELP.join('\n'));
  }
  for (const d of emu.diag.list) out(`${d.severity} ${d.id}: ${d.message} ${JSON.stringify(d.where)}`);
  return emu.diag.list.length ? EXIT_FINDING : EXIT_OK;
}

function readStdinLines(): string[] {
  try {
    return readFileSync(0, 'utf8').split(/\r?\n/);
  } catch {
    return [];
  }
}

export function afucCommand(values: Record<string, unknown>, rest: string[], out: (l: string) => void): number {
  const [sub, file] = rest;
  const g0 = (values['gen'] as Gen | undefined) ?? 'a6xx';
  if (g0 !== 'a5xx' && g0 !== 'a6xx' && g0 !== 'a7xx') throw new UsageError('afuc: --gen must be a5xx, a6xx or a7xx');
  const gen: AfucGenName = g0;
  if (!sub || !file) throw new UsageError('adreno afuc: usage: afuc disasm <fw> | afuc asm <src.asm> -o <fw> | afuc emu <fw|test> [--packets f] [--break ADDR] [--steps N] [--trace]  (fw "test" = the built-in test firmware)');
  switch (sub) {
    case 'disasm': {
      // Firmware files print exactly what freedreno's afuc-disasm prints (-u: without the file
      // name); raw words (`test`, --skip N) list as its -r mode does, without the header.
      if (file !== 'test' && values['skip'] === undefined && !file.endsWith('.asm') && !file.endsWith('.s')) {
        const bytes = new Uint8Array(readFileSync(file));
        const forced = values['gen'] as Gen | undefined;
        if (values['summary']) {
          const fwf = loadFirmware(bytes, file, forced);
          for (const l of firmwareSummary(fwf)) out(l);
        }
        const fwId = values['fw-id'] !== undefined ? intText(String(values['fw-id']), '--fw-id', { radix: 16, max: 0xffffffff }) : undefined;
        if (fwId !== undefined && !fwIdInfo(fwId)) throw new UsageError(`--fw-id: unknown firmware id '${String(values['fw-id'])}'`);
        for (const l of fdDisassemble(bytes, { file, unitTest: values['unit-test'] === true, ...(forced ? { gen: forced } : {}), ...(fwId !== undefined ? { fwId } : {}) })) out(l);
        return EXIT_OK;
      }
      if ((file.endsWith('.asm') || file.endsWith('.s')) && values['skip'] === undefined) {
        // A source with its version literal lists as the firmware file it assembles to.
        const r = assembleSource(file, values['gen'] !== undefined ? { gen } : { defaultGen: gen });
        if (fwIdInfo((r.image[0]! >>> 12) & 0xfff) && r.image.length >= 2) {
          for (const l of fdDisassemble(r.bytes, { file, unitTest: values['unit-test'] === true, ...(values['gen'] !== undefined ? { gen } : {}) })) out(l);
          return EXIT_OK;
        }
        for (const l of disasmWords(r.image, chipForGen(gen))) out(l);
        return EXIT_OK;
      }
      const words = skipHeader(loadFw(file, gen), values);
      for (const l of disasmWords(words, chipForGen(gen))) out(l);
      return EXIT_OK;
    }
    case 'asm': {
      const o = values['output'];
      if (typeof o !== 'string') throw new UsageError('afuc asm: -o <output file> is required');
      const fwIdArg = values['fw-id'];
      const id = fwIdArg !== undefined ? intText(String(fwIdArg), '--fw-id', { radix: 16, max: 0xffffffff }) : undefined;
      if (id !== undefined && !fwIdInfo(id)) throw new UsageError(`--fw-id: unknown firmware id '${String(fwIdArg)}'`);
      if (file === 'test') {
        // The built-in test firmware: raw words, or with --fw-id the released file layout.
        const bytes = id !== undefined ? testFirmwareFile(id) : new Uint8Array(loadFw(file, gen).buffer);
        writeFileSync(o, bytes);
        out(id !== undefined ? `${(bytes.length >> 2) - 1} dwords (+ the leading zero dword) written to ${o}` : `${bytes.length >> 2} instructions written to ${o}`);
        return EXIT_OK;
      }
      // freedreno syntax, written as afuc-asm writes it: a zero dword, then each section.
      const forced = id !== undefined ? fwIdInfo(id)!.gen : (values['gen'] as 'a5xx' | 'a6xx' | 'a7xx' | undefined);
      const r = assembleSource(file, forced ? { gen: forced, ...(id !== undefined ? { fwId: id } : {}) } : { defaultGen: gen });
      writeFileSync(o, r.bytes);
      out(`${r.image.length} dwords (+ the leading zero dword) in ${r.sections.length} section${r.sections.length === 1 ? '' : 's'} written to ${o}`);
      return EXIT_OK;
    }
    case 'emu': {
      if (gen === 'a5xx') throw new UsageError('afuc emu: the emulator models a6xx/a7xx SQE firmware (a5xx PFP/ME are not emulated)');
      const fwf = asFirmwareFile(file, values);
      const onStep = values['trace'] ? { onStep: (pc: number, t: string) => out(`  ${pc.toString(16).padStart(4, '0')}: ${t}`) } : {};
      if (fwf) for (const l of firmwareSummary(fwf)) out(l);
      const raw = fwf ? undefined : skipHeader(loadFw(file, gen), values);
      if (raw && raw.length === 0) throw new InputError('no instructions to run (empty firmware)', file);
      const emu = fwf ? firmwareEmu(fwf, 'SQE', 0, onStep) : new AfucEmu(raw!, { gen, ...onStep });
      for (const b of (values['break'] as string[] | undefined) ?? []) emu.breakpoints.add(intText(b, 'afuc emu: --break', { radix: 16, max: 0xffff }));
      const steps = values['steps'] !== undefined ? intText(String(values['steps']), 'afuc emu: --steps', { max: 1_000_000_000 }) : 1_000_000;
      if (values['interactive']) return interactive(emu, values, out);
      let why = emu.run(steps);
      out(`bootstrap: ${why} after ${emu.steps} steps; packet table: ${Array.from(emu.jmptbl).filter((x, i, a) => a.indexOf(x) === i).length} distinct handlers`);
      if (typeof values['packets'] === 'string') {
        const b = maybeGunzip(new Uint8Array(readFileSync(values['packets'])), values['packets']);
        if (b.length % 4) throw new InputError('packet stream is not whole dwords', values['packets']);
        emu.feed(new Uint32Array(b.slice().buffer));
        while ((why = emu.run(steps)) === 'breakpoint') {
          out(`breakpoint at 0x${emu.pc.toString(16)}`);
          for (const l of emu.dump()) out('  ' + l);
        }
        out(`packets: ${why} after ${emu.steps} steps, ${emu.packets} packets dispatched`);
      }
      for (const l of emu.dump()) out(l);
      for (const d of emu.diag.list) out(`${d.severity} ${d.id}: ${d.message} ${JSON.stringify(d.where)}`);
      return emu.diag.list.length || (why !== 'idle' && why !== 'breakpoint') ? EXIT_FINDING : EXIT_OK;
    }
    default:
      throw new UsageError(`afuc: unknown subcommand '${sub}' (disasm, asm, emu)`);
  }
}
