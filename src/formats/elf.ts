/**
 * ELF32 / ELF64 little-endian reader over a Uint8Array. Read-only, no copies of section data
 * (views into the input). Every offset and size read from the file is checked against the file
 * length before use; a malformed or truncated file throws InputError with one line saying what
 * is wrong and where. Field names follow the ELF specification (e_flags, sh_offset, st_info...).
 */
import { InputError, hex } from '../core/errors.js';

export const ET = { NONE: 0, REL: 1, EXEC: 2, DYN: 3, CORE: 4 } as const;
export const SHT = {
  NULL: 0, PROGBITS: 1, SYMTAB: 2, STRTAB: 3, RELA: 4, HASH: 5, DYNAMIC: 6, NOTE: 7, NOBITS: 8,
  REL: 9, DYNSYM: 11,
} as const;
export const PT = { NULL: 0, LOAD: 1, DYNAMIC: 2, INTERP: 3, NOTE: 4, PHDR: 6 } as const;
export const STT = { NOTYPE: 0, OBJECT: 1, FUNC: 2, SECTION: 3, FILE: 4 } as const;
export const STB = { LOCAL: 0, GLOBAL: 1, WEAK: 2 } as const;
export const SHN_UNDEF = 0;
export const SHN_XINDEX = 0xffff;

/** Names of a few e_machine values, for error messages. */
export const MACHINE_NAMES: Readonly<Record<number, string>> = {
  0: 'none', 3: 'x86', 8: 'MIPS', 20: 'PowerPC', 40: 'ARM', 62: 'x86-64', 183: 'AArch64',
  224: 'AMDGPU', 243: 'RISC-V', 247: 'BPF',
};

export interface ElfHeader {
  /** 1 = ELF32, 2 = ELF64 (EI_CLASS). */
  readonly class: 1 | 2;
  readonly osabi: number;
  readonly abiVersion: number;
  readonly type: number;
  readonly machine: number;
  readonly version: number;
  readonly entry: number;
  readonly phoff: number;
  readonly shoff: number;
  readonly flags: number;
  readonly ehsize: number;
  readonly phentsize: number;
  readonly phnum: number;
  readonly shentsize: number;
  readonly shnum: number;
  readonly shstrndx: number;
}

export interface SectionHeader {
  readonly index: number;
  readonly name: string;
  readonly nameOffset: number;
  readonly type: number;
  readonly flags: number;
  readonly addr: number;
  readonly offset: number;
  readonly size: number;
  readonly link: number;
  readonly info: number;
  readonly addralign: number;
  readonly entsize: number;
}

export interface ProgramHeader {
  readonly index: number;
  readonly type: number;
  readonly flags: number;
  readonly offset: number;
  readonly vaddr: number;
  readonly paddr: number;
  readonly filesz: number;
  readonly memsz: number;
  readonly align: number;
}

export interface ElfSymbol {
  readonly index: number;
  readonly name: string;
  readonly value: number;
  readonly size: number;
  /** st_info & 0xf (STT_*). */
  readonly type: number;
  /** st_info >> 4 (STB_*). */
  readonly binding: number;
  /** st_other & 3 (STV_*). */
  readonly visibility: number;
  readonly shndx: number;
}

export interface ElfNote {
  readonly name: string;
  readonly type: number;
  readonly desc: Uint8Array;
  /** File offset of the note header. */
  readonly offset: number;
}

export interface ElfRela {
  readonly offset: number;
  readonly sym: number;
  readonly type: number;
  readonly addend: number;
}

const MAX_SAFE = Number.MAX_SAFE_INTEGER;

export class ElfFile {
  readonly bytes: Uint8Array;
  readonly header: ElfHeader;
  readonly sections: readonly SectionHeader[];
  readonly programHeaders: readonly ProgramHeader[];
  private readonly view: DataView;
  private readonly is64: boolean;

  constructor(bytes: Uint8Array) {
    this.bytes = bytes;
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    if (bytes.length < 4 || bytes[0] !== 0x7f || bytes[1] !== 0x45 || bytes[2] !== 0x4c || bytes[3] !== 0x46) {
      const magic = Array.from(bytes.subarray(0, 4), (b) => b.toString(16).padStart(2, '0')).join(' ');
      throw new InputError(`not an ELF file (magic ${magic || 'missing: file is empty'}, expected 7f 45 4c 46)`);
    }
    if (bytes.length < 16) throw new InputError(`truncated ELF file: ${bytes.length} bytes, the identification alone needs 16`);
    const cls = bytes[4]!;
    if (cls !== 1 && cls !== 2) throw new InputError(`bad ELF class ${cls} at 0x4 (expected 1 = ELF32 or 2 = ELF64)`);
    if (bytes[5] !== 1) throw new InputError(`unsupported ELF data encoding ${bytes[5]} at 0x5 (only 1 = little-endian is supported)`);
    this.is64 = cls === 2;
    const ehsize = this.is64 ? 64 : 52;
    if (bytes.length < ehsize) {
      throw new InputError(`truncated ELF file: ${bytes.length} bytes, the ELF${this.is64 ? 64 : 32} header needs ${ehsize}`);
    }
    this.header = this.readHeader(cls);
    this.sections = this.readSections();
    this.programHeaders = this.readProgramHeaders();
  }

  get is64Bit(): boolean {
    return this.is64;
  }

  // --- low-level reads (callers have bounds-checked the range) -------------------------------

  u8(off: number): number {
    return this.view.getUint8(off);
  }
  u16(off: number): number {
    return this.view.getUint16(off, true);
  }
  u32(off: number): number {
    return this.view.getUint32(off, true);
  }
  i32(off: number): number {
    return this.view.getInt32(off, true);
  }
  /** Unsigned 64-bit as a JS number; throws if it is not exactly representable. */
  u64(off: number, what: string): number {
    const lo = this.view.getUint32(off, true);
    const hi = this.view.getUint32(off + 4, true);
    if (hi > 0x1fffff) throw new InputError(`${what} at ${hex(off)} is too large (0x${hi.toString(16)}${lo.toString(16).padStart(8, '0')})`);
    return hi * 0x100000000 + lo;
  }
  /** Signed 64-bit as a JS number; throws if it is not exactly representable. */
  i64(off: number, what: string): number {
    const lo = this.view.getUint32(off, true);
    const hi = this.view.getInt32(off + 4, true);
    const v = hi * 0x100000000 + lo;
    if (!Number.isSafeInteger(v)) throw new InputError(`${what} at ${hex(off)} is out of range`);
    return v;
  }
  private addr(off: number, what: string): number {
    return this.is64 ? this.u64(off, what) : this.u32(off);
  }

  /** Throw unless [off, off+size) lies inside the file. */
  check(off: number, size: number, what: string): void {
    if (!(off >= 0 && size >= 0 && off <= MAX_SAFE && size <= MAX_SAFE)) {
      throw new InputError(`${what} has a bad offset ${hex(off)} or size ${hex(size)}`);
    }
    if (off + size > this.bytes.length) {
      throw new InputError(`${what} at ${hex(off)} extends past end of file (size ${hex(this.bytes.length)})`);
    }
  }

  // --- structure --------------------------------------------------------------------------------

  private readHeader(cls: 1 | 2): ElfHeader {
    const b = this.bytes;
    const is64 = this.is64;
    const h: ElfHeader = {
      class: cls,
      osabi: b[7]!,
      abiVersion: b[8]!,
      type: this.u16(16),
      machine: this.u16(18),
      version: this.u32(20),
      entry: this.addr(24, 'e_entry'),
      phoff: is64 ? this.u64(32, 'e_phoff') : this.u32(28),
      shoff: is64 ? this.u64(40, 'e_shoff') : this.u32(32),
      flags: this.u32(is64 ? 48 : 36),
      ehsize: this.u16(is64 ? 52 : 40),
      phentsize: this.u16(is64 ? 54 : 42),
      phnum: this.u16(is64 ? 56 : 44),
      shentsize: this.u16(is64 ? 58 : 46),
      shnum: this.u16(is64 ? 60 : 48),
      shstrndx: this.u16(is64 ? 62 : 50),
    };
    return h;
  }

  private readSections(): SectionHeader[] {
    const h = this.header;
    if (h.shoff === 0) return [];
    const want = this.is64 ? 64 : 40;
    if (h.shentsize !== want) throw new InputError(`bad e_shentsize ${h.shentsize} (expected ${want} for ELF${this.is64 ? 64 : 32})`);
    let shnum = h.shnum;
    this.check(h.shoff, want, 'section header 0');
    if (shnum === 0) {
      // More than 0xff00 sections: the count lives in section 0's sh_size.
      shnum = this.is64 ? this.u64(h.shoff + 32, 'section 0 sh_size') : this.u32(h.shoff + 20);
    }
    if (shnum > 0x100000) throw new InputError(`implausible section count ${shnum}`);
    const tableEnd = h.shoff + shnum * want;
    if (tableEnd > this.bytes.length) {
      throw new InputError(`section header table at ${hex(h.shoff)} (${shnum} x ${want} bytes) extends past end of file (size ${hex(this.bytes.length)})`);
    }
    const raw: Omit<SectionHeader, 'name'>[] = [];
    for (let i = 0; i < shnum; i++) {
      const o = h.shoff + i * want;
      const is64 = this.is64;
      const s = {
        index: i,
        nameOffset: this.u32(o),
        type: this.u32(o + 4),
        flags: is64 ? this.u64(o + 8, `section header ${i} sh_flags`) : this.u32(o + 8),
        addr: is64 ? this.u64(o + 16, `section header ${i} sh_addr`) : this.u32(o + 12),
        offset: is64 ? this.u64(o + 24, `section header ${i} sh_offset`) : this.u32(o + 16),
        size: is64 ? this.u64(o + 32, `section header ${i} sh_size`) : this.u32(o + 20),
        link: this.u32(is64 ? o + 40 : o + 24),
        info: this.u32(is64 ? o + 44 : o + 28),
        addralign: is64 ? this.u64(o + 48, `section header ${i} sh_addralign`) : this.u32(o + 32),
        entsize: is64 ? this.u64(o + 56, `section header ${i} sh_entsize`) : this.u32(o + 36),
      };
      if (s.type !== SHT.NOBITS && s.type !== SHT.NULL) {
        if (s.offset + s.size > this.bytes.length) {
          throw new InputError(`section ${i} data at ${hex(s.offset)} (size ${hex(s.size)}) extends past end of file (size ${hex(this.bytes.length)})`);
        }
      }
      raw.push(s);
    }
    let strndx = h.shstrndx;
    if (strndx === SHN_XINDEX && raw.length > 0) strndx = raw[0]!.link;
    const strtab = strndx !== 0 ? raw[strndx] : undefined;
    if (strndx !== 0 && !strtab) throw new InputError(`e_shstrndx ${strndx} is not a section (there are ${raw.length})`);
    return raw.map((s) => ({
      ...s,
      name: strtab ? this.string(strtab, s.nameOffset, `name of section ${s.index}`) : '',
    }));
  }

  private readProgramHeaders(): ProgramHeader[] {
    const h = this.header;
    if (h.phoff === 0 || h.phnum === 0) return [];
    const want = this.is64 ? 56 : 32;
    if (h.phentsize !== want) throw new InputError(`bad e_phentsize ${h.phentsize} (expected ${want} for ELF${this.is64 ? 64 : 32})`);
    const out: ProgramHeader[] = [];
    for (let i = 0; i < h.phnum; i++) {
      const o = h.phoff + i * want;
      this.check(o, want, `program header ${i}`);
      const p: ProgramHeader = this.is64
        ? {
            index: i, type: this.u32(o), flags: this.u32(o + 4),
            offset: this.u64(o + 8, `program header ${i} p_offset`), vaddr: this.u64(o + 16, `program header ${i} p_vaddr`),
            paddr: this.u64(o + 24, `program header ${i} p_paddr`), filesz: this.u64(o + 32, `program header ${i} p_filesz`),
            memsz: this.u64(o + 40, `program header ${i} p_memsz`), align: this.u64(o + 48, `program header ${i} p_align`),
          }
        : {
            index: i, type: this.u32(o), offset: this.u32(o + 4), vaddr: this.u32(o + 8), paddr: this.u32(o + 12),
            filesz: this.u32(o + 16), memsz: this.u32(o + 20), flags: this.u32(o + 24), align: this.u32(o + 28),
          };
      if (p.offset + p.filesz > this.bytes.length) {
        throw new InputError(`program header ${i} segment at ${hex(p.offset)} (size ${hex(p.filesz)}) extends past end of file (size ${hex(this.bytes.length)})`);
      }
      out.push(p);
    }
    return out;
  }

  /** NUL-terminated string at `off` inside a string-table section. */
  string(strtab: Pick<SectionHeader, 'index' | 'type' | 'offset' | 'size'>, off: number, what: string): string {
    if (strtab.type === SHT.NOBITS) throw new InputError(`${what}: string table section ${strtab.index} has no data`);
    if (off >= strtab.size) {
      if (off === 0 && strtab.size === 0) return '';
      throw new InputError(`${what}: offset ${hex(off)} is outside string table section ${strtab.index} (size ${hex(strtab.size)})`);
    }
    if (strtab.type === SHT.NULL || strtab.offset + strtab.size > this.bytes.length) {
      // A SHT_NULL header is not bounds-checked when the sections are read: it must not serve as a
      // string table (its size may be anything, and the scan below would run past the file).
      throw new InputError(`${what}: section ${strtab.index} (type ${strtab.type}, ${hex(strtab.size)} bytes at ${hex(strtab.offset)}) is not a string table inside the file`);
    }
    const start = strtab.offset + off;
    const end = strtab.offset + strtab.size;
    let p = start;
    while (p < end && this.bytes[p] !== 0) p++;
    if (p === end) throw new InputError(`${what}: string at ${hex(start)} is not NUL-terminated within section ${strtab.index}`);
    let s = '';
    for (let i = start; i < p; i++) s += String.fromCharCode(this.bytes[i]!);
    return s;
  }

  /** The bytes of a section (a view; empty for SHT_NOBITS). */
  sectionData(s: SectionHeader): Uint8Array {
    if (s.type === SHT.NOBITS) return new Uint8Array(0);
    this.check(s.offset, s.size, `section ${s.index} (${s.name || 'unnamed'})`);
    return this.bytes.subarray(s.offset, s.offset + s.size);
  }

  sectionByName(name: string): SectionHeader | undefined {
    return this.sections.find((s) => s.name === name);
  }

  // --- symbols ----------------------------------------------------------------------------------

  /** Symbols of a SHT_SYMTAB or SHT_DYNSYM section (index 0, the null symbol, included). */
  symbolsOf(sec: SectionHeader): ElfSymbol[] {
    const ent = this.is64 ? 24 : 16;
    const where = `symbol table section ${sec.index} (${sec.name})`;
    if (sec.entsize !== 0 && sec.entsize !== ent) throw new InputError(`${where}: bad sh_entsize ${sec.entsize} (expected ${ent})`);
    if (sec.size % ent !== 0) throw new InputError(`${where}: size ${hex(sec.size)} is not a multiple of ${ent}`);
    this.check(sec.offset, sec.size, where);
    const strtab = this.sections[sec.link];
    if (!strtab || strtab.type !== SHT.STRTAB) {
      throw new InputError(`${where}: sh_link ${sec.link} is not a string table`);
    }
    const n = sec.size / ent;
    const out: ElfSymbol[] = [];
    for (let i = 0; i < n; i++) {
      const o = sec.offset + i * ent;
      const nameOff = this.u32(o);
      let info: number, other: number, shndx: number, value: number, size: number;
      if (this.is64) {
        info = this.u8(o + 4);
        other = this.u8(o + 5);
        shndx = this.u16(o + 6);
        value = this.u64(o + 8, `symbol ${i} st_value`);
        size = this.u64(o + 16, `symbol ${i} st_size`);
      } else {
        value = this.u32(o + 4);
        size = this.u32(o + 8);
        info = this.u8(o + 12);
        other = this.u8(o + 13);
        shndx = this.u16(o + 14);
      }
      out.push({
        index: i,
        name: this.string(strtab, nameOff, `name of symbol ${i} in ${sec.name}`),
        value, size, type: info & 0xf, binding: info >> 4, visibility: other & 3, shndx,
      });
    }
    return out;
  }

  /** .symtab symbols (empty if there is none). */
  symtab(): ElfSymbol[] {
    const s = this.sections.find((x) => x.type === SHT.SYMTAB);
    return s ? this.symbolsOf(s) : [];
  }

  /** .dynsym symbols (empty if there is none). */
  dynsym(): ElfSymbol[] {
    const s = this.sections.find((x) => x.type === SHT.DYNSYM);
    return s ? this.symbolsOf(s) : [];
  }

  /** Relocations with addends (SHT_RELA) of one section. */
  relocations(sec: SectionHeader): ElfRela[] {
    const ent = this.is64 ? 24 : 12;
    const where = `relocation section ${sec.index} (${sec.name})`;
    if (sec.size % ent !== 0) throw new InputError(`${where}: size ${hex(sec.size)} is not a multiple of ${ent}`);
    this.check(sec.offset, sec.size, where);
    const out: ElfRela[] = [];
    for (let o = sec.offset; o < sec.offset + sec.size; o += ent) {
      if (this.is64) {
        const info = this.u64(o + 8, 'r_info');
        out.push({ offset: this.u64(o, 'r_offset'), sym: Math.floor(info / 0x100000000), type: info % 0x100000000, addend: this.i64(o + 16, 'r_addend') });
      } else {
        const info = this.u32(o + 4);
        out.push({ offset: this.u32(o), sym: info >>> 8, type: info & 0xff, addend: this.i32(o + 8) });
      }
    }
    return out;
  }

  // --- notes ------------------------------------------------------------------------------------

  /** Notes in a byte range [off, off+size) with the given alignment (4 or 8). */
  notesIn(off: number, size: number, align: number, where: string): ElfNote[] {
    this.check(off, size, where);
    const a = align === 8 ? 8 : 4;
    const end = off + size;
    const out: ElfNote[] = [];
    let p = off;
    while (p < end) {
      if (p + 12 > end) throw new InputError(`${where}: note header at ${hex(p)} is truncated (${end - p} bytes left, need 12)`);
      const namesz = this.u32(p);
      const descsz = this.u32(p + 4);
      const type = this.u32(p + 8);
      const nameOff = p + 12;
      const descOff = nameOff + alignUp(namesz, a);
      const next = descOff + alignUp(descsz, a);
      if (descOff + descsz > end || nameOff + namesz > end) {
        throw new InputError(`${where}: note at ${hex(p)} (namesz ${namesz}, descsz ${descsz}) extends past the end of its note area at ${hex(end)}`);
      }
      let name = '';
      for (let i = 0; i < namesz; i++) {
        const c = this.bytes[nameOff + i]!;
        if (c === 0) break;
        name += String.fromCharCode(c);
      }
      out.push({ name, type, desc: this.bytes.subarray(descOff, descOff + descsz), offset: p });
      p = Math.min(next, end);
    }
    return out;
  }

  /**
   * All notes: from SHT_NOTE sections, or from PT_NOTE segments when the file has no section
   * headers (a stripped object). A note in both is reported once.
   */
  notes(): ElfNote[] {
    const noteSecs = this.sections.filter((s) => s.type === SHT.NOTE);
    if (noteSecs.length > 0) {
      return noteSecs.flatMap((s) => this.notesIn(s.offset, s.size, s.addralign, `note section ${s.index} (${s.name})`));
    }
    return this.programHeaders
      .filter((p) => p.type === PT.NOTE)
      .flatMap((p) => this.notesIn(p.offset, p.filesz, p.align, `note segment ${p.index}`));
  }

  // --- address mapping --------------------------------------------------------------------------

  /** The section (with file data) whose [addr, addr+size) holds virtual address `va`. */
  sectionAt(va: number): SectionHeader | undefined {
    return this.sections.find((s) => s.type !== SHT.NULL && s.type !== SHT.NOBITS && s.size > 0 && (s.flags & 2) !== 0 && va >= s.addr && va < s.addr + s.size);
  }

  /** Map a virtual address to a file offset via the allocated sections, or undefined. */
  vaToOffset(va: number): number | undefined {
    const s = this.sectionAt(va);
    if (s) return s.offset + (va - s.addr);
    for (const p of this.programHeaders) {
      if (p.type === PT.LOAD && va >= p.vaddr && va < p.vaddr + p.filesz) return p.offset + (va - p.vaddr);
    }
    return undefined;
  }
}

function alignUp(n: number, a: number): number {
  return Math.ceil(n / a) * a;
}

/** Parse an ELF file (throws InputError on anything malformed). */
export function parseElf(bytes: Uint8Array): ElfFile {
  return new ElfFile(bytes);
}
