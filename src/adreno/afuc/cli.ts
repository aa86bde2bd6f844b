/** `gpusim adreno afuc disasm|asm|emu`. */
import { readFileSync, writeFileSync } from 'node:fs';
import { EXIT_FINDING, EXIT_OK, InputError, UsageError } from '../../core/errors.js';
import { maybeGunzip } from '../../formats/rd.js';
import type { Gen } from '../regs/db.js';
import { AfucAsmError, assemble, disasmOne, disassemble, listing } from './isa.js';
import { AfucEmu } from './emu.js';
import { testFirmwareFile, testFirmwareSource } from './testfw.js';
import { firmwareEmu, firmwareFileBytes, firmwareSummary, fwIdInfo, loadFirmware, type LoadedFirmware } from './fwfile.js';
import { opcodeName } from '../cp/pm4.js';

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

/** Packet-name labels for a section's handlers (first packet per handler address). */
function tableLabels(fw: LoadedFirmware, sec: LoadedFirmware['sections'][number]): Map<number, string> {
  const m = new Map<number, string>();
  sec.packetTable.forEach((pc, id) => {
    if (m.has(pc)) return;
    const n = id === 4 ? 'PKT4' : opcodeName(id, fw.gen) ?? `UNKN${id}`;
    m.set(pc, n);
  });
  if (sec.jumpTable >= 0) m.set(sec.jumpTable - sec.offset, 'jmptbl');
  return m;
}

function loadFw(file: string, gen: Gen): Uint32Array {
  if (file === 'test') return assemble(testFirmwareSource(gen), gen);
  if (file.endsWith('.asm') || file.endsWith('.s')) {
    try {
      return assemble(readFileSync(file, 'utf8'), gen);
    } catch (e) {
      if (e instanceof AfucAsmError) throw new InputError(e.message, file);
      throw e;
    }
  }
  const b = new Uint8Array(readFileSync(file));
  if (b.length % 4) throw new InputError(`firmware is ${b.length} bytes, not whole dwords`, file);
  return new Uint32Array(b.slice().buffer);
}

/** Drop `--skip N` leading dwords (a firmware file's header) before disassembling or emulating. */
function skipHeader(fw: Uint32Array, values: Record<string, unknown>): Uint32Array {
  const n = values['skip'] !== undefined ? parseInt(String(values['skip']), 10) : 0;
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
    out(`${emu.pc.toString(16).padStart(4, '0')}: ${d ? disasmOne(d, emu.pc, emu.agen) : '??'}`);
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
        out(`${pc === emu.pc ? '=>' : '  '} ${pc.toString(16).padStart(4, '0')}: ${d ? disasmOne(d, pc, emu.agen) : '.word 0x' + emu.fw[pc]!.toString(16)}`);
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
  const gen = (values['gen'] as Gen | undefined) ?? 'a6xx';
  if (gen !== 'a5xx' && gen !== 'a6xx' && gen !== 'a7xx') throw new UsageError('afuc: --gen must be a5xx, a6xx or a7xx');
  if (!sub || !file) throw new UsageError('adreno afuc: usage: afuc disasm <fw> | afuc asm <src.asm> -o <fw> | afuc emu <fw|test> [--packets f] [--break ADDR] [--steps N] [--trace]  (fw "test" = the built-in test firmware)');
  switch (sub) {
    case 'disasm': {
      const fwf = asFirmwareFile(file, values);
      if (fwf) {
        for (const l of firmwareSummary(fwf)) out(l);
        for (const sec of fwf.sections) {
          out(`; ---- ${sec.processor} ----`);
          const words = fwf.image.subarray(sec.offset, sec.offset + sec.dwords);
          for (const l of listing(disassemble(words, fwf.gen, { jumpTable: tableLabels(fwf, sec) })).trimEnd().split('\n')) out(l);
        }
        return fwf.warnings.length ? EXIT_FINDING : EXIT_OK;
      }
      for (const l of listing(disassemble(skipHeader(loadFw(file, gen), values), gen)).trimEnd().split('\n')) out(l);
      return EXIT_OK;
    }
    case 'asm': {
      const o = values['output'];
      if (typeof o !== 'string') throw new UsageError('afuc asm: -o <output file> is required');
      if (values['fw-id'] !== undefined) {
        // Released file layout: `test` builds the test firmware for that id; a source file must
        // start with its own version word and jump table literal ([xxxxxxxx], [#jmptbl]).
        const id = parseInt(String(values['fw-id']), 16);
        if (!fwIdInfo(id)) throw new UsageError(`--fw-id: unknown firmware id '${String(values['fw-id'])}'`);
        const bytes = file === 'test' ? testFirmwareFile(id) : firmwareFileBytes(loadFw(file, fwIdInfo(id)!.gen));
        writeFileSync(o, bytes);
        out(`${(bytes.length >> 2) - 1} dwords (+ the leading zero dword) written to ${o}`);
        return EXIT_OK;
      }
      const bin = loadFw(file, gen);
      writeFileSync(o, new Uint8Array(bin.buffer));
      out(`${bin.length} instructions written to ${o}`);
      return EXIT_OK;
    }
    case 'emu': {
      if (gen === 'a5xx') throw new UsageError('afuc emu: the emulator models a6xx/a7xx SQE firmware (a5xx PFP/ME are not emulated)');
      const fwf = asFirmwareFile(file, values);
      const onStep = values['trace'] ? { onStep: (pc: number, t: string) => out(`  ${pc.toString(16).padStart(4, '0')}: ${t}`) } : {};
      if (fwf) for (const l of firmwareSummary(fwf)) out(l);
      const emu = fwf
        ? firmwareEmu(fwf, 'SQE', 0, onStep)
        : new AfucEmu(skipHeader(loadFw(file, gen), values), { gen, ...onStep });
      for (const b of (values['break'] as string[] | undefined) ?? []) emu.breakpoints.add(parseInt(b, 16));
      const steps = values['steps'] !== undefined ? parseInt(String(values['steps']), 10) : 1_000_000;
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
