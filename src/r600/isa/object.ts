/**
 * R600-family code objects: the ELF32 relocatable objects clang -target r600 writes. Each kernel
 * is a function symbol in .text; its CF program starts at the symbol. The generation comes from
 * e_flags (EF_AMDGPU_MACH_R600_*), and .AMDGPU.config holds register/value pairs (SQ_PGM_RESOURCES...).
 */
import { InputError } from '../../core/errors.js';
import { parseElf, STT } from '../../formats/elf.js';
import { decodeProgram, type R600Gen, type R600Program } from './decode.js';
import { printProgram } from './print.js';
import { VTX_FORMATS } from './opcodes.gen.js';

export { R600_MACH, isR600Object } from './machine.js';
import { R600_MACH } from './machine.js';

export const vtxName = (format: number): string | undefined => VTX_FORMATS.find((f) => f.format === format)?.llvm;

export interface R600Kernel {
  readonly name: string;
  /** Byte offset of the program in .text. */
  readonly offset: number;
  readonly program: R600Program;
  /** Relocated literal dwords: byte offset within the program -> symbol name. */
  readonly relocs: Map<number, string>;
}

export interface R600Object {
  readonly mcpu: string;
  readonly gen: R600Gen;
  readonly text: Uint8Array;
  readonly kernels: R600Kernel[];
  /** Data symbols in .text (e.g. __constant tables): name -> byte offset. */
  readonly dataSymbols: Map<string, { offset: number; size: number }>;
  /** .AMDGPU.config register/value pairs. */
  readonly config: [number, number][];
}

export function loadR600Object(bytes: Uint8Array, where = 'object'): R600Object {
  const elf = parseElf(bytes);
  if (elf.header.machine !== 224) throw new InputError(`not an AMDGPU ELF (e_machine ${elf.header.machine})`, where);
  const mach = R600_MACH[elf.header.flags & 0xff];
  if (!mach) throw new InputError(`e_flags 0x${elf.header.flags.toString(16)} is not an R600-family target`, where);
  const textSec = elf.sectionByName('.text');
  if (!textSec) throw new InputError('no .text section', where);
  const text = elf.sectionData(textSec);
  const syms = elf.symtab();
  const relocByOffset = new Map<number, string>();
  /** R_AMDGPU_ABS32 against .text symbols: S (the symbol's .text offset, i.e. its address in vertex buffer 2) + A (in place). */
  const relocValue = new Map<number, number>();
  for (const s of elf.sections) {
    // r600 objects carry SHT_REL (9) sections: 8-byte entries {r_offset, r_info}.
    if (s.type === 9 && s.info === textSec.index) {
      const d = elf.sectionData(s);
      const v = new DataView(d.buffer, d.byteOffset, d.byteLength);
      for (let o = 0; o + 8 <= d.byteLength; o += 8) {
        const sym = syms.find((x) => x.index === v.getUint32(o + 4, true) >>> 8);
        if (sym) {
          relocByOffset.set(v.getUint32(o, true), sym.name);
          relocValue.set(v.getUint32(o, true), sym.value);
        }
      }
    }
  }
  const dataSymbols = new Map<string, { offset: number; size: number }>();
  for (const s of syms) if (s.shndx === textSec.index && s.type === STT.OBJECT) dataSymbols.set(s.name, { offset: s.value, size: s.size });
  const kernels: R600Kernel[] = [];
  const words = new Uint32Array(text.byteLength >>> 2);
  const dv = new DataView(text.buffer, text.byteOffset, text.byteLength);
  for (let i = 0; i < words.length; i++) words[i] = dv.getUint32(i * 4, true);
  // The executor sees relocated literals; the disassembler still prints the symbol name.
  for (const [off, value] of relocValue) if (off % 4 === 0 && off / 4 < words.length) words[off / 4] = (words[off / 4]! + value) >>> 0;
  for (const s of syms) {
    if (s.shndx !== textSec.index || s.type !== STT.FUNC || s.name.endsWith('$local')) continue;
    if (s.value % 8 !== 0) throw new InputError(`function ${s.name} is not 8-byte aligned`, where);
    const w = words.subarray(s.value >>> 2, (s.value + (s.size || text.byteLength - s.value)) >>> 2);
    const program = decodeProgram(mach.gen, w, `${where}: ${s.name}`);
    const relocs = new Map<number, string>();
    for (const [off, name] of relocByOffset) if (off >= s.value && off < s.value + w.byteLength) relocs.set(off - s.value, name);
    kernels.push({ name: s.name, offset: s.value, program, relocs });
  }
  const config: [number, number][] = [];
  const cfg = elf.sectionByName('.AMDGPU.config');
  if (cfg) {
    const d = elf.sectionData(cfg);
    const v = new DataView(d.buffer, d.byteOffset, d.byteLength);
    for (let o = 0; o + 8 <= d.byteLength; o += 8) config.push([v.getUint32(o, true), v.getUint32(o + 4, true)]);
  }
  return { mcpu: mach.mcpu, gen: mach.gen, text, kernels, dataSymbols, config };
}

/** The body lines clang -S prints for a kernel (instruction lines only, each starting with a tab). */
export function disassembleKernel(k: R600Kernel): string[] {
  return printProgram(k.program, { relocs: k.relocs, vtxName });
}

/** Extract the same lines from a clang -S listing, per function. */
export function listingBodies(sText: string): Map<string, string[]> {
  const funcs = new Set([...sText.matchAll(/\.type\s+([\w.$]+),@function/g)].map((m) => m[1]!));
  const out = new Map<string, string[]>();
  let cur: string[] | undefined;
  for (const raw of sText.split('\n')) {
    const lab = /^([A-Za-z_.$][\w.$]*):/.exec(raw);
    if (lab) {
      if (lab[1]!.endsWith('$local')) continue;
      if (funcs.has(lab[1]!)) {
        cur = [];
        out.set(lab[1]!, cur);
      } else cur = undefined;
      continue;
    }
    if (!cur || !raw.startsWith('\t') || raw.startsWith('\t.') || raw.trim() === '') continue;
    cur.push(raw.replace(/\s+;.*$/, (m) => (/^\s+;/.test(m) ? '' : m)));
  }
  return out;
}
