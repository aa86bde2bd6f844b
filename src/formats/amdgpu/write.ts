/**
 * Write a linked AMDHSA code object (ELF64 ET_DYN), laid out as ld.lld -shared lays out one
 * assembled kernel file: a read-only segment (NT_AMDGPU_METADATA note, .dynsym, .hash, .dynstr,
 * .rodata with the 64-byte kernel descriptors), an executable segment (.text, 256-byte aligned, on
 * its own page), a read-write segment (.dynamic), then .symtab/.strtab/.shstrtab and the section
 * headers. Symbols: each kernel `NAME` (FUNC, GLOBAL, PROTECTED) and `NAME.kd` (OBJECT, GLOBAL,
 * 64 bytes). The descriptors' kernel_code_entry_byte_offset is filled here (entry VA - KD VA).
 */
import { encode } from '@msgpack/msgpack';
import { EF_AMDGPU_MACH } from './mach.gen.js';
import { KD_SIZE } from './kd.js';
import { AMDGPU_NOTE_NAME, NT_AMDGPU_METADATA, type MsgMap } from './metadata.js';
import { InputError } from '../../core/errors.js';
import { EM_AMDGPU, ELFOSABI_AMDGPU_HSA } from './codeobject.js';

export interface CodeObjectKernelIn {
  readonly name: string;
  /** Byte offset of the first instruction in `text`. */
  readonly textOffset: number;
  /** Bytes of code (the function symbol's size). */
  readonly codeSize: number;
  /** 64 descriptor bytes; the entry offset is overwritten. */
  readonly descriptor: Uint8Array;
}

export interface CodeObjectIn {
  /** Processor as -mcpu spells it (gfx1100, gfx1030, gfx900...). */
  readonly mcpu: string;
  /** Code object version 4, 5 or 6. */
  readonly version: number;
  /** e_flags xnack/sramecc settings (code object v4+ two-bit fields); 'unsupported' leaves them 0. */
  readonly xnack: 'unsupported' | 'any' | 'off' | 'on';
  readonly sramecc: 'unsupported' | 'any' | 'off' | 'on';
  readonly text: Uint8Array;
  readonly kernels: readonly CodeObjectKernelIn[];
  /** The NT_AMDGPU_METADATA map (amdhsa.version, amdhsa.kernels...). */
  readonly metadata: MsgMap;
}

const PAGE = 0x1000;
const FEATURE: Readonly<Record<string, number>> = { unsupported: 0, any: 1, off: 2, on: 3 };

function align(n: number, a: number): number {
  return Math.ceil(n / a) * a;
}

class StrTab {
  readonly parts: string[] = [''];
  private size = 1;
  private readonly at = new Map<string, number>();
  add(s: string): number {
    if (s === '') return 0;
    const k = this.at.get(s);
    if (k !== undefined) return k;
    const o = this.size;
    this.at.set(s, o);
    this.parts.push(s);
    this.size += Buffer.byteLength(s) + 1;
    return o;
  }
  bytes(): Uint8Array {
    return new Uint8Array(Buffer.from(this.parts.join('\0') + '\0'));
  }
}

/** SysV ELF hash (DT_HASH). */
function elfHash(name: string): number {
  let h = 0;
  for (const b of Buffer.from(name)) {
    h = ((h << 4) + b) >>> 0;
    const g = h & 0xf0000000;
    if (g) h ^= g >>> 24;
    h &= ~g >>> 0;
  }
  return h >>> 0;
}

/** The bytes of a linked code object. */
export function writeCodeObject(co: CodeObjectIn): Uint8Array {
  const mach = Object.entries(EF_AMDGPU_MACH).find(([, v]) => v[0] === co.mcpu);
  if (!mach) throw new InputError(`no EF_AMDGPU_MACH for processor '${co.mcpu}'`);
  if (co.version < 4 || co.version > 6) throw new InputError(`code object version ${co.version}: gpusim writes versions 4, 5 and 6`);
  const eflags = Number(mach[0]) | (FEATURE[co.xnack]! << 8) | (FEATURE[co.sramecc]! << 10);

  // Note: namesz, descsz, type, "AMDGPU\0" padded to 4, msgpack padded to 4.
  const desc = encode(co.metadata);
  const nameB = Buffer.from(AMDGPU_NOTE_NAME + '\0');
  const note = new Uint8Array(12 + align(nameB.length, 4) + align(desc.length, 4));
  const ndv = new DataView(note.buffer);
  ndv.setUint32(0, nameB.length, true);
  ndv.setUint32(4, desc.length, true);
  ndv.setUint32(8, NT_AMDGPU_METADATA, true);
  note.set(nameB, 12);
  note.set(desc, 12 + align(nameB.length, 4));

  // Symbols (same list in .dynsym and .symtab): null, then per kernel NAME and NAME.kd.
  const syms: { name: string; value: number; size: number; info: number; other: number; shndx: number }[] = [];
  const SEC = { note: 1, dynsym: 2, hash: 3, dynstr: 4, rodata: 5, text: 6, dynamic: 7, symtab: 8, strtab: 9, shstrtab: 10 } as const;
  const dynstr = new StrTab();
  const rodata = new Uint8Array(co.kernels.length * KD_SIZE);

  // Layout of the read-only segment.
  const PH_COUNT = 6;
  let off = 64 + PH_COUNT * 56;
  const noteOff = off = align(off, 4);
  off += note.length;
  const dynsymOff = off = align(off, 8);
  const nsyms = 1 + co.kernels.length * 2;
  off += nsyms * 24;
  const hashOff = off = align(off, 4);
  const nbucket = Math.max(1, nsyms);
  off += (2 + nbucket + nsyms) * 4;
  for (const k of co.kernels) { dynstr.add(k.name); dynstr.add(`${k.name}.kd`); }
  const dynstrB = dynstr.bytes();
  const dynstrOff = off;
  off += dynstrB.length;
  const rodataOff = off = align(off, 64);
  off += rodata.length;
  const roEnd = off;
  // Executable segment on the next page (VA = file offset + PAGE, as lld places it).
  const textOff = off = align(off, 256);
  const textVa = textOff + PAGE;
  off += co.text.length;
  const dynamicOff = off = align(off, 8);
  const dynamicVa = dynamicOff + 2 * PAGE;
  const dynamic = new Uint8Array(6 * 16);
  off += dynamic.length;

  co.kernels.forEach((k, i) => {
    if (k.textOffset < 0 || k.textOffset + k.codeSize > co.text.length) throw new InputError(`kernel ${k.name}: code at ${k.textOffset} outside .text`);
    const kd = k.descriptor.slice(0, KD_SIZE);
    const kdVa = rodataOff + i * KD_SIZE;
    const entry = textVa + k.textOffset - kdVa;
    const kdv = new DataView(kd.buffer);
    kdv.setUint32(16, entry >>> 0, true);
    kdv.setInt32(20, Math.floor(entry / 0x100000000), true);
    rodata.set(kd, i * KD_SIZE);
    syms.push({ name: k.name, value: textVa + k.textOffset, size: k.codeSize, info: (1 << 4) | 2, other: 3, shndx: SEC.text });
    syms.push({ name: `${k.name}.kd`, value: kdVa, size: KD_SIZE, info: (1 << 4) | 1, other: 0, shndx: SEC.rodata });
  });

  const symBytes = (tab: StrTab): Uint8Array => {
    const b = new Uint8Array(nsyms * 24);
    const dv = new DataView(b.buffer);
    syms.forEach((s, j) => {
      const o = (j + 1) * 24;
      dv.setUint32(o, tab.add(s.name), true);
      b[o + 4] = s.info;
      b[o + 5] = s.other;
      dv.setUint16(o + 6, s.shndx, true);
      dv.setBigUint64(o + 8, BigInt(s.value), true);
      dv.setBigUint64(o + 16, BigInt(s.size), true);
    });
    return b;
  };
  const dynsymB = symBytes(dynstr);
  const strtab = new StrTab();
  const symtabB = symBytes(strtab);
  const strtabB = strtab.bytes();

  // .hash
  const hash = new Uint8Array((2 + nbucket + nsyms) * 4);
  const hdv = new DataView(hash.buffer);
  hdv.setUint32(0, nbucket, true);
  hdv.setUint32(4, nsyms, true);
  const buckets = new Uint32Array(nbucket);
  const chains = new Uint32Array(nsyms);
  syms.forEach((s, j) => {
    const b = elfHash(s.name) % nbucket;
    chains[j + 1] = buckets[b]!;
    buckets[b] = j + 1;
  });
  buckets.forEach((v, j) => hdv.setUint32(8 + j * 4, v, true));
  chains.forEach((v, j) => hdv.setUint32(8 + nbucket * 4 + j * 4, v, true));

  // .dynamic: SYMTAB, SYMENT, STRTAB, STRSZ, HASH, NULL.
  const ddv = new DataView(dynamic.buffer);
  [[6, dynsymOff], [11, 24], [5, dynstrOff], [10, dynstrB.length], [4, hashOff], [0, 0]].forEach(([tag, v], j) => {
    ddv.setBigUint64(j * 16, BigInt(tag!), true);
    ddv.setBigUint64(j * 16 + 8, BigInt(v!), true);
  });

  // Non-allocated sections.
  const symtabOff = off = align(off, 8);
  off += symtabB.length;
  const strtabOff = off;
  off += strtabB.length;
  const shstr = new StrTab();
  const names = ['', '.note', '.dynsym', '.hash', '.dynstr', '.rodata', '.text', '.dynamic', '.symtab', '.strtab', '.shstrtab'].map((n) => shstr.add(n));
  const shstrB = shstr.bytes();
  const shstrOff = off;
  off += shstrB.length;
  const shOff = off = align(off, 8);
  const SH_COUNT = 11;
  off += SH_COUNT * 64;

  const out = new Uint8Array(off);
  const dv = new DataView(out.buffer);
  // ELF header.
  out.set([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, ELFOSABI_AMDGPU_HSA, co.version - 2]);
  dv.setUint16(16, 3, true); // ET_DYN
  dv.setUint16(18, EM_AMDGPU, true);
  dv.setUint32(20, 1, true);
  dv.setBigUint64(24, 0n, true);
  dv.setBigUint64(32, 64n, true);
  dv.setBigUint64(40, BigInt(shOff), true);
  dv.setUint32(48, eflags >>> 0, true);
  dv.setUint16(52, 64, true);
  dv.setUint16(54, 56, true);
  dv.setUint16(56, PH_COUNT, true);
  dv.setUint16(58, 64, true);
  dv.setUint16(60, SH_COUNT, true);
  dv.setUint16(62, SEC.shstrtab, true);

  // Program headers: PHDR, LOAD R, LOAD RX, LOAD RW, DYNAMIC, NOTE.
  const phdrs: [number, number, number, number, number, number][] = [
    // type, flags, offset, vaddr, filesz, align
    [6, 4, 64, 64, PH_COUNT * 56, 8],
    [1, 4, 0, 0, roEnd, PAGE],
    [1, 5, textOff, textVa, co.text.length, PAGE],
    [1, 6, dynamicOff, dynamicVa, dynamic.length, PAGE],
    [2, 6, dynamicOff, dynamicVa, dynamic.length, 8],
    [4, 4, noteOff, noteOff, note.length, 4],
  ];
  phdrs.forEach(([type, flags, o, va, sz, al], j) => {
    const p = 64 + j * 56;
    dv.setUint32(p, type, true);
    dv.setUint32(p + 4, flags, true);
    dv.setBigUint64(p + 8, BigInt(o), true);
    dv.setBigUint64(p + 16, BigInt(va), true);
    dv.setBigUint64(p + 24, BigInt(va), true);
    dv.setBigUint64(p + 32, BigInt(sz), true);
    dv.setBigUint64(p + 40, BigInt(sz), true);
    dv.setBigUint64(p + 48, BigInt(al), true);
  });

  out.set(note, noteOff);
  out.set(dynsymB, dynsymOff);
  out.set(hash, hashOff);
  out.set(dynstrB, dynstrOff);
  out.set(rodata, rodataOff);
  out.set(co.text, textOff);
  out.set(dynamic, dynamicOff);
  out.set(symtabB, symtabOff);
  out.set(strtabB, strtabOff);
  out.set(shstrB, shstrOff);

  // Section headers: name, type, flags, addr, offset, size, link, info, align, entsize.
  const A = 2, W = 1, X = 4;
  const shdrs: [number, number, number, number, number, number, number, number, number][] = [
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [7, A, noteOff, noteOff, note.length, 0, 0, 4, 0],
    [11, A, dynsymOff, dynsymOff, dynsymB.length, SEC.dynstr, 1, 8, 24],
    [5, A, hashOff, hashOff, hash.length, SEC.dynsym, 0, 4, 4],
    [3, A, dynstrOff, dynstrOff, dynstrB.length, 0, 0, 1, 0],
    [1, A, rodataOff, rodataOff, rodata.length, 0, 0, 64, 0],
    [1, A | X, textVa, textOff, co.text.length, 0, 0, 256, 0],
    [6, A | W, dynamicVa, dynamicOff, dynamic.length, SEC.dynstr, 0, 8, 16],
    [2, 0, 0, symtabOff, symtabB.length, SEC.strtab, 1, 8, 24],
    [3, 0, 0, strtabOff, strtabB.length, 0, 0, 1, 0],
    [3, 0, 0, shstrOff, shstrB.length, 0, 0, 1, 0],
  ];
  shdrs.forEach(([type, flags, addr, o, size, link, info, al, ent], j) => {
    const p = shOff + j * 64;
    dv.setUint32(p, names[j]!, true);
    dv.setUint32(p + 4, type, true);
    dv.setBigUint64(p + 8, BigInt(flags), true);
    dv.setBigUint64(p + 16, BigInt(addr), true);
    dv.setBigUint64(p + 24, BigInt(o), true);
    dv.setBigUint64(p + 32, BigInt(size), true);
    dv.setUint32(p + 40, link, true);
    dv.setUint32(p + 44, info, true);
    dv.setBigUint64(p + 48, BigInt(al), true);
    dv.setBigUint64(p + 56, BigInt(ent), true);
  });
  return out;
}
