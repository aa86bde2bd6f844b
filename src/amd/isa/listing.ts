/**
 * Disassembly listings in llvm-objdump's layout: per function symbol in .text, each instruction's
 * text, its address and its dwords, and `<sym+0x..>` after branches. Works on linked code objects,
 * relocatable objects and raw instruction bytes.
 */
import type { CodeObject } from '../../formats/amdgpu/codeobject.js';
import { STT } from '../../formats/elf.js';
import { disassemble, type IsaTarget, type DisasmLine } from './target.js';

export interface ListingBlock {
  /** Function symbol name (or '' for raw bytes). */
  readonly symbol: string;
  readonly address: number;
  readonly lines: readonly DisasmLine[];
}

/** Little-endian bytes to dwords (a trailing partial dword is dropped, as objdump does at a symbol's end). */
export function bytesToWords(bytes: Uint8Array): Uint32Array {
  const n = bytes.length >>> 2;
  const out = new Uint32Array(n);
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let i = 0; i < n; i++) out[i] = dv.getUint32(i * 4, true);
  return out;
}

/** Disassemble every function symbol of a code object's .text, each from its address to the next symbol's. */
export function listCodeObject(target: IsaTarget, co: CodeObject, only?: string): ListingBlock[] {
  const text = co.text;
  if (!text) return [];
  const words = bytesToWords(text.bytes);
  const secIndex = text.section.index;
  const syms = co.elf.symtab().length ? co.elf.symtab() : co.elf.dynsym();
  const starts = new Map<number, string>();
  for (const s of syms) {
    if (s.shndx !== secIndex || s.name === '') continue;
    if (s.type !== STT.FUNC && s.type !== STT.NOTYPE) continue;
    if (!starts.has(s.value) || s.type === STT.FUNC) starts.set(s.value, s.name);
  }
  if (starts.size === 0) starts.set(text.address, '');
  const sorted = [...starts.entries()].sort((a, b) => a[0] - b[0]);
  const end = text.address + text.bytes.length;
  const blocks: ListingBlock[] = [];
  sorted.forEach(([addr, name], i) => {
    if (only !== undefined && name !== only) return;
    const stop = i + 1 < sorted.length ? sorted[i + 1]![0] : end;
    const a = (addr - text.address) >>> 2;
    const b = (stop - text.address) >>> 2;
    blocks.push({ symbol: name, address: addr, lines: disassemble(target, words, addr, a, b) });
  });
  return blocks;
}

/** Disassemble raw instruction bytes starting at `address`. */
export function listRaw(target: IsaTarget, bytes: Uint8Array, address = 0): ListingBlock[] {
  const words = bytesToWords(bytes);
  return [{ symbol: '', address, lines: disassemble(target, words, address) }];
}

/**
 * The branch target llvm-objdump prints after an instruction: PC of the next instruction +
 * simm16 * 4, for the opcodes the generated tables mark `objdumpTarget` (learned from LLVM).
 */
export function branchTarget(line: DisasmLine): number | null {
  const inst = line.inst;
  if (!inst || !(inst.info as { objdumpTarget?: boolean } | null)?.objdumpTarget) return null;
  const simm = inst.fields.simm16;
  if (simm === undefined) return null;
  return line.pc + 4 + ((simm << 16) >> 16) * 4;
}

/** Format blocks as llvm-objdump -d does (instruction column padded to 59, then `// ADDR: WORDS`). */
/**
 * The listing as llvm-objdump -d prints it. With `collapsePadding`, a block's trailing run of
 * s_code_end padding (the instruction-prefetch padding the linker appends after the last kernel)
 * prints as its first line and one `; ... N more s_code_end` line (not llvm-objdump's text).
 */
export function formatListing(blocks: readonly ListingBlock[], opts: { collapsePadding?: boolean } = {}): string {
  const out: string[] = [];
  for (const b of blocks) {
    out.push('');
    if (b.symbol !== '') out.push(`${b.address.toString(16).padStart(16, '0')} <${b.symbol}>:`);
    let keep = b.lines.length;
    if (opts.collapsePadding) {
      let k = b.lines.length;
      while (k > 0 && b.lines[k - 1]!.text === 's_code_end') k--;
      if (b.lines.length - k > 2) keep = k + 1;
    }
    for (const [i, l] of b.lines.entries()) {
      if (i === keep) {
        out.push(`\t; ... ${b.lines.length - keep} more s_code_end (padding to 0x${(b.lines[b.lines.length - 1]!.pc + 4).toString(16)}; --collapse-padding)`);
        break;
      }
      const words = l.words.map((w) => (w >>> 0).toString(16).toUpperCase().padStart(8, '0')).join(' ');
      let s = `\t${l.text.padEnd(59)}// ${l.pc.toString(16).toUpperCase().padStart(12, '0')}: ${words}`;
      const t = branchTarget(l);
      if (t !== null && b.symbol !== '') s += ` <${b.symbol}+0x${(t - b.address).toString(16)}>`;
      out.push(s);
    }
  }
  return out.join('\n') + '\n';
}
