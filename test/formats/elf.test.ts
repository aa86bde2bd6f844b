/** ELF reader vs llvm-readobj's view of every fixture (kernels/bin/<cpu>/<obj>.facts.json). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseElf, SHT } from '../../src/formats/elf.js';
import { InputError } from '../../src/core/errors.js';
import { allFixtures, facts, fixtureBytes } from './fixtures.js';

const fixtures = allFixtures();

test('there are enough fixtures', () => {
  assert.ok(fixtures.length >= 150, `only ${fixtures.length} fixtures`);
});

test('ELF header, sections, symbols and notes match llvm-readobj for every fixture', () => {
  for (const f of fixtures) {
    const fx = facts(f);
    const elf = parseElf(fixtureBytes(f.cpu, f.file));
    const h = elf.header;
    const where = `${f.cpu}/${f.file}`;
    assert.deepEqual(
      { class: h.class, osabi: h.osabi, abiVersion: h.abiVersion, type: h.type, machine: h.machine, flags: h.flags, phnum: h.phnum, shnum: h.shnum, shstrndx: h.shstrndx },
      { class: fx.header.class, osabi: fx.header.osabi, abiVersion: fx.header.abiVersion, type: fx.header.type, machine: fx.header.machine, flags: fx.header.flags, phnum: fx.header.phnum, shnum: fx.header.shnum, shstrndx: fx.header.shstrndx },
      where,
    );
    assert.deepEqual(
      elf.sections.map((s) => ({ name: s.name, type: s.type, flags: s.flags, addr: s.addr, offset: s.offset, size: s.size })),
      fx.sections, where);
    const sym = (s: { name: string; value: number; size: number; binding: number; type: number; shndx: number }) =>
      ({ name: s.name, value: s.value, size: s.size, binding: s.binding, type: s.type, shndx: s.shndx });
    assert.deepEqual(elf.symtab().map(sym), fx.symtab, `${where} .symtab`);
    assert.deepEqual(elf.dynsym().map(sym), fx.dynsym, `${where} .dynsym`);
    const notes = elf.notes();
    assert.deepEqual(notes.map((n) => ({ owner: n.name, descsz: n.desc.length })), fx.notes.map((n) => ({ owner: n.owner, descsz: n.descsz })), `${where} notes`);
  }
});

test('PT_NOTE and SHT_NOTE give the same notes; program headers cover the file', () => {
  const elf = parseElf(fixtureBytes('gfx1100', 'vadd.co'));
  const fromSegments = elf.programHeaders.filter((p) => p.type === 4).flatMap((p) => elf.notesIn(p.offset, p.filesz, p.align, 'seg'));
  const fromSections = elf.notes();
  assert.equal(fromSegments.length, 1);
  assert.deepEqual(fromSegments.map((n) => [n.name, n.type, n.desc.length]), fromSections.map((n) => [n.name, n.type, n.desc.length]));
  assert.equal(fromSections[0]!.name, 'AMDGPU');
  assert.equal(fromSections[0]!.type, 32);
  // .text: VA 0x1700 is file offset 0x700 in lld's layout.
  const text = elf.sectionByName('.text')!;
  assert.equal(text.type, SHT.PROGBITS);
  assert.equal(elf.vaToOffset(text.addr), text.offset);
  assert.notEqual(text.addr, text.offset);
});

test('relocations of a relocatable object', () => {
  const elf = parseElf(fixtureBytes('gfx1100', 'vadd.o'));
  assert.equal(elf.header.type, 1);
  const rela = elf.sections.find((s) => s.type === SHT.RELA)!;
  assert.equal(rela.name, '.rela.rodata');
  const r = elf.relocations(rela);
  assert.equal(r.length, 1);
  assert.equal(r[0]!.type, 5); // R_AMDGPU_REL64
  assert.equal(r[0]!.offset, 16); // kernel_code_entry_byte_offset of the first descriptor
  assert.equal(r[0]!.addend, 16);
  assert.equal(elf.symtab()[r[0]!.sym]!.name, 'vadd');
});

/** A hand-built little-endian ELF32 (what r600 objects use): header + 3 sections + 1 symbol. */
function tinyElf32(): Uint8Array {
  const shstr = '\0.shstrtab\0.strtab\0.symtab\0';
  const str = '\0foo\0';
  const b = new Uint8Array(52 + 64 + 16 + 16 * 4 + 40 * 4);
  const dv = new DataView(b.buffer);
  b.set([0x7f, 0x45, 0x4c, 0x46, 1, 1, 1, 0]);
  dv.setUint16(16, 1, true); dv.setUint16(18, 224, true); dv.setUint32(20, 1, true);
  dv.setUint32(36, 0x9, true); // e_flags: cypress
  dv.setUint16(40, 52, true); dv.setUint16(46, 40, true);
  const shoff = 52 + 64 + 16 + 64;
  dv.setUint32(32, shoff, true); dv.setUint16(48, 4, true); dv.setUint16(50, 1, true);
  let p = 52;
  for (let i = 0; i < shstr.length; i++) b[p + i] = shstr.charCodeAt(i);
  const shstrOff = p; p += 64;
  for (let i = 0; i < str.length; i++) b[p + i] = str.charCodeAt(i);
  const strOff = p; p += 16;
  const symOff = p; // symbol 0 null, symbol 1 foo
  dv.setUint32(symOff + 16, 1, true); dv.setUint32(symOff + 20, 0x100, true); dv.setUint32(symOff + 24, 8, true);
  b[symOff + 28] = 0x12; dv.setUint16(symOff + 30, 0, true);
  const sh = (i: number, name: number, type: number, off: number, size: number, link = 0, entsize = 0) => {
    const o = shoff + i * 40;
    dv.setUint32(o, name, true); dv.setUint32(o + 4, type, true); dv.setUint32(o + 16, off, true);
    dv.setUint32(o + 20, size, true); dv.setUint32(o + 24, link, true); dv.setUint32(o + 36, entsize, true);
  };
  sh(1, 1, SHT.STRTAB, shstrOff, shstr.length);
  sh(2, 11, SHT.STRTAB, strOff, str.length);
  sh(3, 19, SHT.SYMTAB, symOff, 32, 2, 16);
  return b;
}

test('ELF32 little-endian: sections and symbols', () => {
  const elf = parseElf(tinyElf32());
  assert.equal(elf.header.class, 1);
  assert.equal(elf.header.flags, 9);
  assert.deepEqual(elf.sections.map((s) => s.name), ['', '.shstrtab', '.strtab', '.symtab']);
  const syms = elf.symtab();
  assert.equal(syms.length, 2);
  assert.deepEqual({ ...syms[1]! }, { index: 1, name: 'foo', value: 0x100, size: 8, type: 2, binding: 1, visibility: 0, shndx: 0 });
});

function expectInputError(bytes: Uint8Array, re: RegExp): void {
  assert.throws(() => { const e = parseElf(bytes); e.symtab(); e.dynsym(); e.notes(); }, (e: unknown) => {
    assert.ok(e instanceof InputError, `expected InputError, got ${String(e)}`);
    assert.match(e.message, re);
    assert.ok(!e.message.includes('\n'), 'one line');
    return true;
  });
}

test('malformed ELF files give one-line InputErrors', () => {
  const good = fixtureBytes('gfx1100', 'vadd.co');
  expectInputError(new Uint8Array([0x4d, 0x5a, 0x90, 0x00, 1, 2, 3]), /^not an ELF file \(magic 4d 5a 90 00, expected 7f 45 4c 46\)$/);
  expectInputError(new Uint8Array(0), /^not an ELF file \(magic missing: file is empty/);
  expectInputError(good.slice(0, 10), /^truncated ELF file: 10 bytes/);
  expectInputError(good.slice(0, 40), /^truncated ELF file: 40 bytes, the ELF64 header needs 64$/);
  // Cut the file in the middle: the section header table (at the end) is now past EOF.
  expectInputError(good.slice(0, good.length - 100), /^section header table at 0x[0-9a-f]+ \(\d+ x 64 bytes\) extends past end of file \(size 0x[0-9a-f]+\)$/);
  const big = good.slice();
  new DataView(big.buffer).setUint32(40, good.length - 8, true); // e_shoff near the end
  expectInputError(big, /^section header 0 at 0x[0-9a-f]+ extends past end of file \(size 0x[0-9a-f]+\)$/);
  const cls = good.slice(); cls[4] = 3;
  expectInputError(cls, /^bad ELF class 3 at 0x4/);
  const be = good.slice(); be[5] = 2;
  expectInputError(be, /only 1 = little-endian/);
  // Section 5's data pointing past the end.
  const sec = good.slice();
  const dv = new DataView(sec.buffer);
  const shoff = Number(dv.getBigUint64(40, true));
  dv.setUint32(shoff + 5 * 64 + 24, 0x100000, true);
  expectInputError(sec, /^section 5 data at 0x100000 \(size 0x[0-9a-f]+\) extends past end of file \(size 0x[0-9a-f]+\)$/);
  // A section name offset outside .shstrtab.
  const nm = good.slice();
  new DataView(nm.buffer).setUint32(shoff + 3 * 64, 0xffff, true);
  expectInputError(nm, /^name of section 3: offset 0xffff is outside string table section \d+/);
  // e_shstrndx naming a SHT_NULL header with a huge size and an offset past the file (a fuzzed
  // vadd.co once made the name scan run for minutes): refused, not scanned.
  const nul = good.slice();
  const ndv = new DataView(nul.buffer);
  const strndx = ndv.getUint16(62, true);
  const so = shoff + strndx * 64;
  ndv.setUint32(so + 4, SHT.NULL, true);
  ndv.setBigUint64(so + 24, BigInt(good.length * 8), true);
  ndv.setBigUint64(so + 32, 0x30000000d00n, true);
  expectInputError(nul, /^name of section 0: section \d+ \(type 0, 0x30000000d00 bytes at 0x[0-9a-f]+\) is not a string table inside the file$/);
});
