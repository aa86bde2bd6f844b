/**
 * The freedreno-syntax afuc assembler and the afuc-disasm-format disassembler against Mesa's own
 * reference files (../shared/adreno-captures: afuc_test.asm -> afuc_test.fw -> afuc-disasm -u),
 * an a7xx firmware with BV and LPAC sections, an a5xx one, and fuzzing.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, mkdtempSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { FdAsmError, fdAssemble } from '../../src/adreno/afuc/fdasm.js';
import { fdDisassemble } from '../../src/adreno/afuc/fddisasm.js';
import { loadFirmware } from '../../src/adreno/afuc/fwfile.js';
import { nopLiteral } from '../../src/adreno/afuc/isa.js';
import { chipForGen, packetName } from '../../src/adreno/afuc/names.js';
import { gpuRegs } from '../../src/adreno/regs/db.js';
import { InputError } from '../../src/core/errors.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const CAP = join(ROOT, '..', 'shared', 'adreno-captures');
const SRC = join(CAP, 'traces', 'afuc_test.asm');
const FW = join(CAP, 'reference', 'afuc_test.fw');
const LST = join(CAP, 'reference', 'afuc_test.asm');
const have = existsSync(SRC) && existsSync(FW) && existsSync(LST);
const skip = have ? false : 'shared/adreno-captures not present';

function bytesEqual(a: Uint8Array, b: Uint8Array): number {
  let same = 0;
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] === b[i]) same++;
  return same;
}

function lines(text: string): string[] {
  const l = text.split('\n');
  if (l[l.length - 1] === '') l.pop();
  return l;
}

test('afuc-asm: traces/afuc_test.asm assembles to reference/afuc_test.fw byte for byte', { skip }, () => {
  const ref = new Uint8Array(readFileSync(FW));
  const got = fdAssemble(readFileSync(SRC, 'utf8')).bytes;
  const same = bytesEqual(got, ref);
  assert.ok(same === ref.length && got.length === ref.length, `${same}/${ref.length} bytes equal (${got.length} written)`);
});

test('afuc-disasm -u: reference/afuc_test.fw prints reference/afuc_test.asm line for line', { skip }, () => {
  const ref = lines(readFileSync(LST, 'utf8'));
  const got = fdDisassemble(new Uint8Array(readFileSync(FW)), { unitTest: true });
  const same = ref.filter((l, i) => got[i] === l).length;
  const first = ref.findIndex((l, i) => got[i] !== l);
  assert.ok(same === ref.length && got.length === ref.length, `${same}/${ref.length} lines match (${got.length} printed); first difference at line ${first + 1}: ${JSON.stringify(ref[first])} vs ${JSON.stringify(got[first])}`);
});

test('round trip: asm(disasm(fw)) == fw for the reference firmware; without -u the file name line is added', { skip }, () => {
  const fw = new Uint8Array(readFileSync(FW));
  const text = fdDisassemble(fw, { unitTest: true }).join('\n');
  assert.deepEqual(fdAssemble(text).bytes, fw);
  const named = fdDisassemble(fw, { file: 'afuc_test.fw' });
  assert.equal(named[1], '; Disassembling microcode: afuc_test.fw');
  assert.deepEqual(named.filter((_, i) => i !== 1), text.split('\n'));
});

/** An a7xx firmware source laid out as Mesa's a7xx sources are: SQE, then BV and LPAC sections. */
function a7xxSource(bvBytes: number, lpacBytes: number): string {
  const chip = chipForGen('a7xx');
  const instrBase = gpuRegs('a7xx').reg('CP_SQE_INSTR_BASE');
  const table = (handlers: Record<string, string>, fallback: string): string => {
    // Every packet id gets a handler label, named as afuc-disasm names them.
    const out: string[] = [];
    for (const [label, body] of Object.entries(handlers)) out.push(`${label}:`, body);
    const used = new Set(Object.keys(handlers));
    for (let id = 0; id < 0x80; id++) {
      const n = packetName(id, chip) ?? `UNKN${id}`;
      if (!used.has(n)) out.push(`${n}:`);
    }
    out.push(fallback);
    return out.join('\n');
  };
  const loadTable = (self: string): string => `${self}
; the jump table offset is the second word of this image
add $01, $01, 0x4
addhi $02, $02, 0x0
mov $03, 0x1
cwrite $01, [$00 + @MEM_READ_ADDR]
cwrite $02, [$00 + @MEM_READ_ADDR+0x1]
cwrite $03, [$00 + @MEM_READ_DWORDS]
rot $04, $memdata, 0x8
ushr $04, $04, 0x6
sub $04, $04, 0x4
add $01, $01, $04
addhi $02, $02, 0x0
mov $rem, 0x80
cwrite $01, [$00 + @MEM_READ_ADDR]
cwrite $02, [$00 + @MEM_READ_ADDR+0x1]
cwrite $rem, [$00 + @MEM_READ_DWORDS]
cwrite $00, [$00 + @PACKET_TABLE_WRITE_ADDR]
(rep)cwrite $memdata, [$00 + @PACKET_TABLE_WRITE]`;
  const idle = 'waitin\nmov $01, $data';
  const sqeSelf = `mov $01, 0x${instrBase.toString(16)} ; CP_SQE_INSTR_BASE
mov $02, 2
cwrite $01, [$00 + @REG_READ_ADDR]
cwrite $02, [$00 + @REG_READ_DWORDS]
mov $01, $regdata
mov $02, $regdata
; the BV and LPAC microcode follow this image
add $05, $01, 0x${bvBytes.toString(16)}
addhi $06, $02, 0x0
cwrite $05, [$00 + @BV_INSTR_BASE]
cwrite $06, [$00 + @BV_INSTR_BASE+1]
add $05, $01, 0x${lpacBytes.toString(16)}
addhi $06, $02, 0x0
cwrite $05, [$00 + @LPAC_INSTR_BASE]
cwrite $06, [$00 + @LPAC_INSTR_BASE+1]`;
  const own = (reg: string): string => `cread $01, [$00 + @${reg}]\ncread $02, [$00 + @${reg}+1]`;
  const sqe = `[01740123]
[#jumptbl]
${loadTable(sqeSelf)}
${idle}

${table({
  CP_ME_INIT: `mov $02, #sqe_fxn\n(rep)(xmov1)mov $data, $data\n${idle}`,
  CP_SET_DRAW_STATE: `(rep)(sds2) cwrite $data, [$00 + @DRAW_STATE_SET_HDR]\n${idle}`,
  CP_MEM_WRITE: `mov $addr, 0xa0 << 24\nmov $02, 4\n(xmov1)add $data, $02, $data\nmov $addr, 0xa204 << 16\n(rep)(xmov3)mov $data, $data\n${idle}`,
  CP_REG_RMW: `cwrite $data, [$00 + @REG_READ_ADDR]\nubfx $02, $regdata, b4, b11\nbfi $03, $02, b0, b7\nbic $02, $02, $03\nsetbit $02, $02, $03\nsetbit $02, $02, b3\nclrbit $02, $02, b5\nshl $02, $02, 0x3\nbl #sqe_fxn\nnop\n${idle}`,
  CP_SET_BIN_DATA5: `sread $02, [$00 + %SP]\nswrite $02, [$00 + %SP]\nmov $02, 7\n(rep)swrite $data, [$02 + 1]!\njumpa #sqe_idle\nnop`,
}, `sqe_idle:\n${idle}\nsqe_fxn:\nsub $sp, $sp, 0x4\nadd $sp, $sp, 0x4\njump $lr\nnop\nsret\nnop`)}

.align 32
jumptbl:
.jumptbl
`;
  const bv = `.section BV
[01740123]
[#jumptbl]
${loadTable(own('BV_INSTR_BASE'))}
${idle}
${table({ CP_NOP: `(rep)mov $00, $data\n${idle}` }, `bv_idle:\n${idle}`)}
.align 32
jumptbl:
.jumptbl
`;
  const lpac = `.section LPAC
[01740123]
[#jumptbl]
${loadTable(own('LPAC_INSTR_BASE'))}
${idle}
${table({ CP_EXEC_CS: `mov $02, $data\nbrne $02, b3, #lpac_skip\nnop\nmov $03, $data\nlpac_skip:\n${idle}` }, `lpac_idle:\n${idle}`)}
jumptbl:
.jumptbl
`;
  return `; an a7xx firmware: SQE, BV and LPAC microcode\n${sqe}\n${bv}\n${lpac}`;
}

test('a7xx: .section BV/LPAC and .jumptbl assemble to a7xx\'s layout, disassemble by their bootstraps, and asm -> disasm -> asm is stable', () => {
  // The SQE image's size does not depend on the offsets it loads, so assemble twice.
  const probe = fdAssemble(a7xxSource(0, 0));
  const [, bv, lpac] = probe.sections as [number, number, number];
  const src = a7xxSource(4 * bv, 4 * lpac);
  const r = fdAssemble(src);
  assert.equal(r.gen, 7);
  assert.deepEqual(r.sections, probe.sections);
  const file = new Uint32Array(r.bytes.slice().buffer);
  assert.equal(file[0], 0, 'the dword the kernel strips');
  assert.equal(r.image[0], 0x01740123, 'version: firmware id 0x740');
  assert.ok(bv % 8 === 0 && lpac % 8 === 0 && bv < lpac, 'BV and LPAC start 32-byte aligned after the SQE image');
  for (const [start, end] of [[0, bv], [bv, lpac], [lpac, r.image.length]] as const) {
    const jt = (r.image[start + 1]! & 0xffffff) + start;
    assert.equal(r.image[start + 1], nopLiteral(jt - start, 7), 'word 1: the jump table offset as a nop literal');
    assert.equal(jt + 0x80 <= end, true);
    if (start !== lpac) assert.equal(jt % 8, 0, 'SQE/BV tables are 32-byte aligned (.align 32)');
  }
  const fw = loadFirmware(r.bytes);
  assert.deepEqual(fw.warnings, []);
  assert.deepEqual(fw.sections.map((s) => [s.processor, s.offset, s.dwords]), [['SQE', 0, bv], ['BV', bv, lpac - bv], ['LPAC', lpac, r.image.length - lpac]]);
  for (const s of fw.sections) assert.deepEqual(Array.from(s.packetTable), Array.from(r.image.subarray(s.jumpTable, s.jumpTable + 0x80)), s.processor);
  const text = fdDisassemble(r.bytes, { unitTest: true });
  assert.equal(text.filter((l) => l === '.align 32').length, 2, 'SQE and BV tables keep their alignment, LPAC\'s does not');
  assert.deepEqual(text.filter((l) => l.startsWith('.section')), ['.section BV', '.section LPAC']);
  for (const l of ['(rep)(sds2)cwrite $data, [$00 + @DRAW_STATE_SET_HDR]', 'sread $02, [$00 + %SP]', 'jump $lr', 'sret', 'ubfx $02, $regdata, b4, b11', 'mov $addr, 0xa0 << 24\t; |NRT_ADDR', 'cwrite $06, [$00 + @LPAC_INSTR_BASE+0x1]']) {
    assert.ok(text.includes(l), l);
  }
  const again = fdAssemble(text.join('\n'));
  assert.deepEqual(again.bytes, r.bytes, 'asm(disasm(fw)) == fw');
  assert.deepEqual(fdDisassemble(again.bytes, { unitTest: true }), text, 'disasm(asm(disasm(fw))) == disasm(fw)');
});

test('a5xx: the version literal picks the generation; word 1 is the table offset, listed as code', () => {
  const src = `[005ff123]\n[#jumptbl]\nmov $01, 0x5\nCP_NOP:\nwaitin\nmov $01, $data\nPKT4:\nnop\nwaitin\nnop\njumptbl:\n.jumptbl\n`;
  const r = fdAssemble(src);
  assert.equal(r.gen, 5);
  assert.equal(r.image[1], 8, 'a5xx keeps the offset in the low half, no 0x01 byte');
  const text = fdDisassemble(r.bytes, { unitTest: true });
  assert.deepEqual(text.slice(0, 3), ['; a5xx microcode', '; Version: 005ff123', '']);
  // Packets without a handler point at offset 0: their labels come first, as afuc-disasm prints them.
  const code = text.filter((l) => l && !l.endsWith(':'));
  assert.deepEqual(code.slice(2, 5), ['[005ff123]', '[00000008]', 'mov $01, 0x5']);
  assert.ok(text.includes('CP_NOP:') && text.includes('PKT4:'));
  assert.deepEqual(fdAssemble(text.join('\n')).bytes, r.bytes);
});

test('assembler errors are one line naming the source line; Mesa\'s syntax is checked', () => {
  const bad: [string, RegExp][] = [
    ['[016ee001]\nfrobnicate $01', /line 2: unknown instruction 'frobnicate'/],
    ['[016ee001]\njump #nowhere', /line 2: undefined label 'nowhere'/],
    ['[016ee001]\nmov $02, 0x10000', /does not fit 16 bits/],
    ['[016ee001]\nbic $02, $02, $03', /bic is not an a6xx instruction/],
    ['[016ee001]\nmov $40, $02', /invalid register/],
    ['[016ee001]\ncwrite $02, [$00 + @NO_SUCH_REG]', /unknown control register/],
    ['[012345]\nnop', /unknown firmware id 0x12/],
    ['nop', /no version literal/],
    ['', /no instructions|no version literal/],
    ['[016ee001]\nmov $02, 0x1 // comment', /unknown token '\/'/],
    ['[016ee001]\n.align 2', /at least 4 bytes/],
  ];
  for (const [src, re] of bad) {
    assert.throws(() => fdAssemble(src), (e: unknown) => e instanceof FdAsmError && re.test(e.message) && !e.message.includes('\n'), src);
  }
  // Forced generation, decimal and hex immediates, @REG+N, label immediates.
  const w = fdAssemble('x: mov $02, #x\nmov $03, 10\ncwrite $02, [$00 + @MEM_READ_ADDR+1]\nmov $04, 0x0a << 4', { gen: 'a6xx' }).image;
  assert.deepEqual(Array.from(w), [0x88020000, 0x8803000a, 0xa8020019, 0x8884000a]);
});

test('fuzz: mutated sources and firmware files end in a one-line error, never a crash', { skip }, () => {
  let seed = 1234;
  const rnd = (n: number): number => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) >>> 8) % n;
  const src = readFileSync(SRC, 'utf8');
  const alphabet = '$#@%[](),!+:;.0123456789abcdefxXbr \n\t<';
  let ok = 0;
  for (let k = 0; k < 250; k++) {
    let s = src;
    for (let m = 0; m < 1 + rnd(4); m++) {
      const at = rnd(s.length);
      const op = rnd(4);
      if (op === 0) s = s.slice(0, at) + s.slice(at + 1 + rnd(8));
      else if (op === 1) s = s.slice(0, at) + alphabet[rnd(alphabet.length)] + s.slice(at);
      else if (op === 2) s = s.slice(0, at);
      else s = s.slice(0, at) + s.slice(rnd(s.length), rnd(s.length)) + s.slice(at);
    }
    try {
      fdAssemble(s);
      ok++;
    } catch (e) {
      assert.ok(e instanceof FdAsmError && !e.message.includes('\n'), `${String(e)}`);
    }
  }
  assert.ok(ok > 0 && ok < 250, `${ok} of 250 mutated sources still assemble`);
  const fw = new Uint8Array(readFileSync(FW));
  for (let k = 0; k < 120; k++) {
    const b = fw.slice(0, 4 * (1 + rnd(fw.length / 4)));
    for (let m = 0; m < 1 + rnd(6); m++) b[rnd(b.length)] = rnd(256);
    if (rnd(3) === 0) b[4 + rnd(4)] = 0xe0 + rnd(32); // an unknown firmware id
    try {
      const text = fdDisassemble(b, { unitTest: true, budget: 20_000 });
      assert.ok(text.length >= 3);
    } catch (e) {
      assert.ok(e instanceof InputError && !e.message.includes('\n'), `${String(e)}`);
    }
  }
});

test('gpusim adreno afuc asm/disasm -u on the reference files; empty and odd files are one-line input errors', { skip }, async () => {
  const { main } = await import('../../src/cli/main.js');
  const dir = mkdtempSync(join(tmpdir(), 'gpusim-fdafuc-'));
  let so = '';
  const io = { stdout: (s: string) => void (so += s), stderr: (s: string) => void (so += s), isTTY: false };
  const out = join(dir, 'afuc_test.fw');
  assert.equal(await main(['adreno', 'afuc', 'asm', SRC, '-o', out], io), 0);
  assert.deepEqual(new Uint8Array(readFileSync(out)), new Uint8Array(readFileSync(FW)));
  so = '';
  assert.equal(await main(['adreno', 'afuc', 'disasm', '-u', FW], io), 0);
  assert.equal(so, readFileSync(LST, 'utf8'));
  const empty = join(dir, 'empty.fw');
  writeFileSync(empty, new Uint8Array(0));
  for (const args of [['emu', empty], ['disasm', empty], ['asm', empty, '-o', join(dir, 'x.fw')]]) {
    so = '';
    assert.equal(await main(['adreno', 'afuc', ...args], io), 2, args.join(' '));
    assert.equal(so.trim().split('\n').length, 1, so);
    assert.doesNotMatch(so, /internal error/);
  }
});

test('the emulator trace prints instructions as afuc-disasm does; --fw-id reads a file as another firmware', { skip }, async () => {
  const fw = new Uint8Array(readFileSync(FW));
  const seen: string[] = [];
  const lf = loadFirmware(fw);
  const { firmwareEmu } = await import('../../src/adreno/afuc/fwfile.js');
  const emu = firmwareEmu(lf, 'SQE', 0, { onStep: (_pc, t) => seen.push(t) });
  assert.equal(emu.run(10_000), 'idle');
  assert.ok(seen.includes('(rep)cwrite $memdata, [$00 + @PACKET_TABLE_WRITE]'));
  assert.ok(seen.includes('mov $02, 0x883\t; CP_SCRATCH[0].REG'));
  const { main } = await import('../../src/cli/main.js');
  let so = '';
  const io = { stdout: (s: string) => void (so += s), stderr: (s: string) => void (so += s), isTTY: false };
  assert.equal(await main(['adreno', 'afuc', 'disasm', '-u', '--fw-id', '6dc', FW], io), 0);
  assert.equal(so, readFileSync(LST, 'utf8'), 'a650 reads the a630 test file the same way');
  so = '';
  assert.equal(await main(['adreno', 'afuc', 'disasm', '-u', SRC], io), 0);
  assert.equal(so, readFileSync(LST, 'utf8'), 'a source lists as the firmware it assembles to');
});
