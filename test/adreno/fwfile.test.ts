import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { Memory } from '../../src/core/memory.js';
import { Diagnostics } from '../../src/core/diagnostics.js';
import { InputError } from '../../src/core/errors.js';
import { CmdStream, Layout } from '../../src/adreno/cp/builder.js';
import { CommandProcessor } from '../../src/adreno/cp/cp.js';
import { opcode } from '../../src/adreno/cp/pm4.js';
import { gpuRegs, type Gen } from '../../src/adreno/regs/db.js';
import { assemble, decode, disassemble, listing } from '../../src/adreno/afuc/isa.js';
import { AfucEmu } from '../../src/adreno/afuc/emu.js';
import { testFirmwareFile, testFirmwareSource } from '../../src/adreno/afuc/testfw.js';
import { FW_IDS, firmwareEmu, firmwareFileBytes, fwIdInfo, loadFirmware, parseFirmware, versionWord } from '../../src/adreno/afuc/fwfile.js';

const BUILDABLE = FW_IDS.filter((f) => f.gen !== 'a5xx' && f.chip !== 'a750');

test('firmware ids and header layout: version word, id in bits 12..23, release in 0..11, the stripped zero dword', () => {
  assert.deepEqual(BUILDABLE.map((f) => f.chip), ['a630', 'a650', 'a660', 'a730', 'a740', 'gen70500']);
  assert.equal(versionWord(0x6ee, 0x190, 'a6xx'), 0x016ee190);
  const f = parseFirmware(testFirmwareFile(0x6ee, 0x190));
  assert.deepEqual([f.header, f.fwId, f.info?.chip, f.gen, f.release, f.version], [0, 0x6ee, 'a630', 'a6xx', 0x190, 0x016ee190]);
  // Word 1 is the jump table offset as a nop literal (high byte 0x01).
  assert.equal(f.image[1]! >>> 24, 1);
  assert.equal(f.jumpTableHint, f.image[1]! & 0xffffff);
  assert.deepEqual(f.warnings, []);
});

test('test firmware files for a630/a650/a660 and a730/a740/gen70500 load back: bootstrap, packet table, jump table, BV section', () => {
  for (const info of BUILDABLE) {
    const fw = loadFirmware(testFirmwareFile(info.id, 0x123));
    assert.deepEqual(fw.warnings, [], info.chip);
    assert.equal(fw.bootstrap, 'idle', info.chip);
    assert.equal(fw.gen, info.gen);
    assert.equal(fw.release, 0x123);
    const sqe = fw.sections[0]!;
    assert.equal(sqe.jumpTable, fw.jumpTableHint, `${info.chip}: the table the bootstrap loaded is where word 1 says`);
    // The loaded table sends CP_NOP to the handler the source labels cp_nop.
    const g = info.gen as Gen;
    const nopPc = sqe.packetTable[opcode('CP_NOP', g)]!;
    assert.equal(fw.image[sqe.jumpTable + opcode('CP_NOP', g)], nopPc);
    assert.notEqual(nopPc, sqe.packetTable[opcode('CP_MEM_WRITE', g)]);
    if (info.gen === 'a7xx') {
      assert.deepEqual(fw.sections.map((s) => s.processor), ['SQE', 'BV']);
      const bv = fw.sections[1]!;
      assert.equal(bv.offset % 8, 0, 'BV microcode is 32-byte aligned');
      assert.equal(bv.offset + bv.dwords, fw.image.length);
      assert.ok(bv.jumpTable > bv.offset);
    } else assert.equal(fw.sections.length, 1);
  }
});

/** Run a stream through the firmware-file emulator and the built-in CP; compare scratch registers and memory. */
function agree(fileBytes: Uint8Array, gen: Gen, seed0: number, processor: 'SQE' | 'BV' = 'SQE'): void {
  const R = gpuRegs(gen);
  let seed = seed0;
  const rnd = (): number => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0), seed);
  const L = new Layout();
  const buf = L.reserve(1024, 'data');
  const cs = new CmdStream(gen);
  for (let j = 0; j < 12; j++) {
    const r = rnd() % 5;
    if (r === 0) cs.regs32(R.reg('CP_SCRATCH[0]') + (rnd() % 4), Array.from({ length: 1 + (rnd() % 4) }, rnd));
    else if (r === 1) cs.nop(Array.from({ length: rnd() % 3 }, rnd));
    else if (r === 2) cs.memWrite(buf + 4 * (rnd() % 64), Array.from({ length: 1 + (rnd() % 5) }, rnd));
    else if (r === 3) cs.waitForMe();
    else cs.pkt('CP_CONTEXT_REG_BUNCH', [R.reg('CP_SCRATCH[4]') + (rnd() % 4), rnd()]);
  }
  const ib = L.place(cs);
  const mem1 = new Memory();
  const mem2 = new Memory();
  for (const b of L.buffers) {
    mem1.map(b.iova, b.data.length, b.label, b.data.slice());
    mem2.map(b.iova, b.data.length, b.label, b.data.slice());
  }
  const cp = new CommandProcessor(mem1, { gen, diag: new Diagnostics() });
  assert.equal(cp.run(ib.iova, ib.sizeDwords), 'done');
  const fw = loadFirmware(fileBytes);
  const sec = fw.sections.find((s) => s.processor === processor)!;
  const emu = firmwareEmu({ ...fw, image: fw.image.subarray(0, sec.offset + sec.dwords) }, processor, sec.offset, { mem: mem2 });
  assert.equal(emu.run(), 'idle');
  emu.feed(cs.dwords());
  assert.equal(emu.run(), 'idle');
  assert.deepEqual(emu.diag.list, []);
  for (let s = 0; s < 8; s++) assert.equal(emu.regs[R.reg(`CP_SCRATCH[${s}]`)], cp.readReg(R.reg(`CP_SCRATCH[${s}]`)), `scratch ${s}`);
  assert.deepEqual(mem2.readBytes(buf, 1024), mem1.readBytes(buf, 1024));
}

test('firmware loaded from its file (SQE, and the a7xx BV image) agrees with the built-in CP', () => {
  for (let k = 0; k < 4; k++) {
    agree(testFirmwareFile(0x6ee), 'a6xx', 100 + k);
    agree(testFirmwareFile(0x740), 'a7xx', 200 + k);
    agree(testFirmwareFile(0x512), 'a7xx', 300 + k, 'BV');
  }
});

test('an a5xx-layout file: the jump table is where word 1 points (no SQE bootstrap)', () => {
  const img = new Uint32Array(0x90);
  img[0] = versionWord(0x5ff, 0x42, 'a5xx');
  img[1] = 0x10;
  for (let i = 0; i < 0x80; i++) img[0x10 + i] = 0x2 + (i % 3);
  const fw = loadFirmware(firmwareFileBytes(img));
  assert.deepEqual([fw.gen, fw.info?.chip, fw.release, fw.sections[0]!.jumpTable], ['a5xx', 'a530', 0x42, 0x10]);
  assert.equal(fw.sections[0]!.packetTable[5], 0x4);
});

test('bad firmware files: one-line InputErrors or warnings, never a crash (fuzzed headers too)', () => {
  assert.throws(() => parseFirmware(new Uint8Array(10)), (e: unknown) => e instanceof InputError && /not whole dwords/.test(e.message));
  assert.throws(() => parseFirmware(new Uint8Array(8)), /too short/);
  const unknown = new Uint32Array([0, 0x01abc000, 0x01000002, 0x01000000]);
  assert.throws(() => parseFirmware(new Uint8Array(unknown.buffer)), /unknown firmware id 0xabc/);
  assert.equal(parseFirmware(new Uint8Array(unknown.buffer), 'fw', 'a6xx').gen, 'a6xx');
  const good = testFirmwareFile(0x6dd);
  const withHeader = good.slice();
  withHeader[0] = 1;
  assert.match(parseFirmware(withHeader).warnings.join(), /not 0/);
  // The jump table literal pointing elsewhere is reported, the real table still found.
  const moved = good.slice();
  new DataView(moved.buffer).setUint32(8, 0x01000003, true);
  const mf = loadFirmware(moved);
  assert.match(mf.warnings.join(), /word 1 says the jump table is at 0x3/);
  let seed = 5;
  const rnd = (): number => ((seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0), seed);
  for (let k = 0; k < 150; k++) {
    const b = good.slice(0, 4 * (3 + (rnd() % (good.length / 4 - 3))));
    for (let m = 0; m < 4; m++) b[8 + (rnd() % (b.length - 8))] = rnd() & 0xff;
    try {
      const f = loadFirmware(b, 'fuzz', undefined, 20_000);
      assert.ok(['idle', 'budget', 'error', 'breakpoint'].includes(f.bootstrap));
    } catch (e) {
      assert.ok(e instanceof InputError, String(e));
    }
  }
});

test('literals run as nop: the version word and [#label] offsets; other undecodable words are illegal', () => {
  const src = `[016ee190]\n\t[#end]\n\tmov $02, 0x5\nend:\twaitin\n\tmov $01, $data`;
  const w = assemble(src, 6);
  assert.equal(w[0], 0x016ee190);
  assert.equal(w[1], 0x01000003);
  const emu = new AfucEmu(w, { diag: new Diagnostics() });
  assert.equal(emu.run(100), 'idle');
  assert.equal(emu.gpr[2], 5);
  // .align pads with nop.
  assert.equal(assemble('nop\n.align 32\nx: nop', 6).length, 9);
  let bad = 0xf8000000;
  while (decode(bad, 6)) bad++;
  const e2 = new AfucEmu(Uint32Array.of(bad), { diag: new Diagnostics() });
  e2.run(10);
  assert.deepEqual(e2.diag.list.map((d) => d.id), ['afuc.illegal-instruction']);
  // Files round-trip through the listing like any image.
  const img = parseFirmware(testFirmwareFile(0x730)).image;
  assert.deepEqual(Array.from(assemble(listing(disassemble(img, 7)), 7)), Array.from(img));
  assert.ok(testFirmwareSource('a7xx', { processor: 'BV' }).includes('@BV_INSTR_BASE'));
});

test('gpusim adreno afuc with firmware files: asm --fw-id, disasm shows header, sections and packet labels, emu runs packets', async () => {
  const { main } = await import('../../src/cli/main.js');
  const dir = mkdtempSync(join(tmpdir(), 'gpusim-fw-'));
  let so = '';
  const io = { stdout: (s: string) => void (so += s), stderr: (s: string) => void (so += s), isTTY: false };
  const f630 = join(dir, 'a630_sqe.fw');
  const f740 = join(dir, 'a740_sqe.fw');
  assert.equal(await main(['adreno', 'afuc', 'asm', 'test', '--fw-id', '6ee', '-o', f630], io), 0);
  assert.equal(await main(['adreno', 'afuc', 'asm', 'test', '--fw-id', '0x740', '-o', f740], io), 0);
  assert.deepEqual(new Uint8Array(readFileSync(f630)), testFirmwareFile(0x6ee));
  so = '';
  assert.equal(await main(['adreno', 'afuc', 'disasm', f740], io), 0);
  assert.match(so, /^; a7xx microcode\n; Disassembling microcode: .*a740_sqe\.fw\n; Version: 01740100\n\n\[01740100\]\n\[#jumptbl\]\n/);
  assert.match(so, /^CP_MEM_WRITE:$/m);
  assert.match(so, /^PKT4:$/m);
  // The table, then the nops this source pads with after it (as raw words), then BV.
  assert.match(so, /^\.align 32\njumptbl:\n\.jumptbl\n(\[01000000\]\n)*\n\.section BV\n;\n; BV microcode:\n;\n/m);
  so = '';
  assert.equal(await main(['adreno', 'afuc', 'disasm', f740, '--summary', '-u'], io), 0);
  assert.match(so, /a7xx microcode for a740 \(firmware id 0x740\)/);
  assert.match(so, /section BV: dwords/);
  assert.doesNotMatch(so, /Disassembling microcode/);
  const pk = join(dir, 'p.bin');
  writeFileSync(pk, new CmdStream().reg('CP_SCRATCH[0]', 5).memWrite(0x1000, []).nop().bytes());
  so = '';
  assert.equal(await main(['adreno', 'afuc', 'emu', f630, '--packets', pk], io), 0);
  assert.match(so, /packets: idle after \d+ steps, 3 packets dispatched/);
  assert.equal(await main(['adreno', 'afuc', 'asm', 'test', '--fw-id', '999', '-o', f630], io), 2);
  assert.ok(fwIdInfo(0x520)?.controlDomain === 'A7XX_GEN3_CONTROL_REG');
});
