import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Memory } from '../../src/core/memory.js';
import { Diagnostics } from '../../src/core/diagnostics.js';
import { CmdStream, Layout } from '../../src/adreno/cp/builder.js';
import { CommandProcessor } from '../../src/adreno/cp/cp.js';
import { assemble, disassemble, listing, decode, AfucAsmError } from '../../src/adreno/afuc/isa.js';
import { AFUC_FORMS } from '../../src/adreno/afuc/afuc.gen.js';
import { AfucEmu } from '../../src/adreno/afuc/emu.js';
import { testFirmwareSource } from '../../src/adreno/afuc/testfw.js';
import { gpuRegs } from '../../src/adreno/regs/db.js';

const R = gpuRegs('a6xx');

test('afuc forms come from afuc.xml: a6xx and a7xx encodings differ where the spec says so', () => {
  assert.ok(AFUC_FORMS.length > 80);
  // shl: opcode 01001 on a6xx, 10010 on a7xx.
  const a6 = assemble('shl $02, $03, $04', 6)[0]!;
  const a7 = assemble('shl $02, $03, $04', 7)[0]!;
  assert.equal(a6 & 0x1f, 0b01001);
  assert.equal(a7 & 0x1f, 0b10010);
  // nop: all-zero on a5xx, 0x01000000 on a6xx+.
  assert.equal(assemble('nop', 5)[0], 0);
  assert.equal(assemble('nop', 6)[0], 0x01000000);
  assert.equal(decode(0, 6), undefined);
  // mov is `or` with $00 as the first source (an override in afuc.xml), and prints back as mov.
  assert.equal(assemble('mov $01, $data', 6)[0], assemble('or $01, $00, $data', 6)[0]);
  assert.equal(listing(disassemble(assemble('or $01, $00, $data', 6), 6)).trim(), 'mov $01, $data');
});

test('assemble -> disassemble -> assemble gives the same bytes (test firmware, a6xx and a7xx; random words)', () => {
  for (const g of [6, 7] as const) {
    const bin = assemble(testFirmwareSource(g === 6 ? 'a6xx' : 'a7xx'), g);
    const text = listing(disassemble(bin, g));
    assert.deepEqual(Array.from(assemble(text, g)), Array.from(bin));
  }
  let seed = 7;
  const rnd = (): number => ((seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0), seed);
  for (const g of [5, 6, 7] as const) {
    const words = Uint32Array.from({ length: 3000 }, rnd);
    assert.deepEqual(Array.from(assemble(listing(disassemble(words, g)), g)), Array.from(words));
  }
});

test('assembler errors name the line', () => {
  assert.throws(() => assemble('nop\nfrobnicate $01', 6), (e: unknown) => e instanceof AfucAsmError && /line 2: unknown instruction 'frobnicate'/.test(e.message));
  assert.throws(() => assemble('jump #nowhere', 6), /undefined label 'nowhere'/);
  assert.throws(() => assemble('brne $02, 0x40, #x\nx: nop', 6), /does not fit/);
});

function emuWith(src: string, packets: ArrayLike<number> = []): AfucEmu {
  const emu = new AfucEmu(assemble(src, 6), { diag: new Diagnostics() });
  emu.feed(packets);
  return emu;
}

test('emulator: delay slots, call/ret, carry, cmp, (rep) with $rem, errors with ids', () => {
  const emu = emuWith(`
	mov $02, 0xffff << 16
	or $02, $02, 0xffff
	add $03, $02, 0x2          ; carry out
	addhi $04, $00, $00        ; = carry
	cmp $05, $03, 0x1
	call #fn
	mov $06, 0x1               ; delay slot of call
	jump #end
	mov $07, 0x2               ; delay slot of jump
	mov $08, 0x3               ; skipped
fn:
	ret
	mov $09, 0x4               ; delay slot of ret
end:
	mov $rem, 0x3
	(rep)add $0a, $0a, 0x5
	waitin
	nop
`);
  assert.equal(emu.run(1000), 'idle');
  const g = emu.gpr;
  assert.deepEqual([g[3], g[4], g[5], g[6], g[7], g[8], g[9], g[10]], [1, 1, 0x2b, 1, 2, 0, 4, 15]);
  assert.equal(emu.diag.size, 0);

  const bad = emuWith('ret\nnop');
  assert.equal(bad.run(10), 'error');
  assert.deepEqual(bad.diag.list.map((d) => d.id), ['afuc.stack-underflow']);
  const under = emuWith('mov $01, $data');
  assert.equal(under.run(10), 'error');
  assert.deepEqual(under.diag.list.map((d) => d.id), ['afuc.roq-underflow']);
  const ill = new AfucEmu(Uint32Array.from([0]), { diag: new Diagnostics() });
  assert.equal(ill.run(10), 'error');
  assert.deepEqual(ill.diag.list.map((d) => d.id), ['afuc.illegal-instruction']);
});

test('emulator: bootstrap loads the packet table, CP_WAIT_FOR_ME spins on WFI_PEND_CTR until the pipelined decrement lands', () => {
  const emu = new AfucEmu(assemble(testFirmwareSource(), 6), { diag: new Diagnostics() });
  assert.equal(emu.run(), 'idle');
  assert.notEqual(emu.jmptbl[0x13], emu.jmptbl[0x7f]);
  const before = emu.steps;
  emu.feed(new CmdStream().waitForMe().dwords());
  assert.equal(emu.run(), 'idle');
  assert.ok(emu.steps - before > 8, `spun ${emu.steps - before} steps`);
  assert.equal(emu.control[0x38], 0);
});

test('the emulated firmware and the built-in CP agree on the same streams', () => {
  let seed = 3;
  const rnd = (): number => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0), seed);
  for (let k = 0; k < 30; k++) {
    const L = new Layout();
    const buf = L.reserve(4096, 'data');
    const cs = new CmdStream();
    for (let j = 0; j < 10; j++) {
      const r = rnd() % 5;
      if (r === 0) cs.regs32(R.reg('CP_SCRATCH[0]') + (rnd() % 4), Array.from({ length: 1 + (rnd() % 4) }, rnd));
      else if (r === 1) cs.nop(Array.from({ length: rnd() % 3 }, rnd));
      else if (r === 2) cs.memWrite(buf + 4 * (rnd() % 64), Array.from({ length: 1 + (rnd() % 5) }, rnd));
      else if (r === 3) cs.waitForMe();
      else cs.pkt('CP_CONTEXT_REG_BUNCH', [R.reg('CP_SCRATCH[4]') + (rnd() % 4), rnd(), R.reg('CP_SCRATCH[0]'), rnd()]);
      if (rnd() % 4 === 0) {
        // An indirect buffer with a write of its own.
        const sub = L.place(new CmdStream().reg('CP_SCRATCH[3]', rnd()).memWrite(buf + 4 * (rnd() % 64), [rnd()]));
        cs.indirectBuffer(sub.iova, sub.sizeDwords);
      }
    }
    const ib = L.place(cs);
    const mem1 = new Memory();
    const mem2 = new Memory();
    for (const b of L.buffers) {
      mem1.map(b.iova, b.data.length, b.label, b.data.slice());
      mem2.map(b.iova, b.data.length, b.label, b.data.slice());
    }
    const cp = new CommandProcessor(mem1, { diag: new Diagnostics() });
    assert.equal(cp.run(ib.iova, ib.sizeDwords), 'done');
    const emu = new AfucEmu(assemble(testFirmwareSource(), 6), { mem: mem2, diag: new Diagnostics() });
    assert.equal(emu.run(), 'idle');
    emu.feed(cs.dwords());
    assert.equal(emu.run(), 'idle');
    assert.equal(emu.diag.size, 0);
    for (let s = 0; s < 8; s++) assert.equal(emu.regs[R.reg(`CP_SCRATCH[${s}]`)], cp.readReg(R.reg(`CP_SCRATCH[${s}]`)), `stream ${k} scratch ${s}`);
    assert.deepEqual(mem2.readBytes(buf, 4096), mem1.readBytes(buf, 4096), `stream ${k} memory`);
  }
});

test('fuzz: random firmware never throws, always stops', () => {
  let seed = 11;
  const rnd = (): number => ((seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0), seed);
  for (let k = 0; k < 200; k++) {
    const fw = Uint32Array.from({ length: 64 }, rnd);
    const emu = new AfucEmu(fw, { diag: new Diagnostics(), mem: new Memory() });
    emu.feed(Uint32Array.from({ length: 16 }, rnd));
    const why = emu.run(2000);
    assert.ok(['idle', 'budget', 'error'].includes(why));
  }
});

test('gpusim adreno afuc: disasm, asm, emu (batch and scripted interactive)', async () => {
  const { main } = await import('../../src/cli/main.js');
  const { mkdtempSync, writeFileSync, readFileSync } = await import('node:fs');
  const { join } = await import('node:path');
  const { tmpdir } = await import('node:os');
  const { spawnSync } = await import('node:child_process');
  const { fileURLToPath } = await import('node:url');
  const dir = mkdtempSync(join(tmpdir(), 'gpusim-afuc-'));
  let so = '';
  const io = { stdout: (s: string) => void (so += s), stderr: (s: string) => void (so += s), isTTY: false };
  assert.equal(await main(['adreno', 'afuc', 'disasm', 'test'], io), 0);
  assert.match(so, /waitin/);
  const src = join(dir, 'fw.asm');
  writeFileSync(src, so);
  const bin = join(dir, 'fw.bin');
  assert.equal(await main(['adreno', 'afuc', 'asm', src, '-o', bin], io), 0);
  // afuc-asm's layout: a zero dword, then the image.
  assert.deepEqual(new Uint32Array(new Uint8Array(readFileSync(bin)).buffer), Uint32Array.of(0, ...assemble(testFirmwareSource(), 6)));
  const pk = join(dir, 'p.bin');
  writeFileSync(pk, new CmdStream().reg('CP_SCRATCH[0]', 5).nop().bytes());
  so = '';
  assert.equal(await main(['adreno', 'afuc', 'emu', bin, '--skip', '1', '--packets', pk], io), 0);
  assert.match(so, /packets: idle after \d+ steps, 2 packets dispatched/);
  const mainJs = fileURLToPath(new URL('../../src/cli/main.js', import.meta.url));
  const r = spawnSync(process.execPath, [mainJs, 'adreno', 'afuc', 'emu', 'test', '-i', '--packets', pk], { input: 'b 10\nc\nr\nq\n', encoding: 'utf8' });
  assert.equal(r.status, 0);
  assert.match(r.stdout, /stopped: breakpoint/);
  assert.match(r.stdout, /packets 1 .*\$rem 2/);
});

test('every emulator diagnostic fires on its condition', () => {
  const cases: [string, string, ArrayLike<number>, string][] = [
    ['bad packet', 'idle: waitin\nmov $01, $data', [0xdeadbeef], 'afuc.bad-packet'],
    ['fifo underflow', 'mov $01, $regdata\nwaitin\nnop', [], 'afuc.fifo-underflow'],
    ['pc out of range', 'nop', [], 'afuc.pc-out-of-range'],
    ['rep runaway', 'mov $rem, 0x20 << 16\n(rep)add $02, $02, 0x1\nwaitin\nnop', [], 'afuc.rep-runaway'],
    ['stack overflow', 'f: call #f\nnop', [], 'afuc.stack-overflow'],
    ['IB3', 'mov $02, 0x1\ncwrite $02, [$00 + @IB1_DWORDS]\ncwrite $02, [$00 + @IB2_DWORDS]\ncwrite $02, [$00 + @IB2_DWORDS]\nwaitin\nnop', [], 'afuc.ib-too-deep'],
  ];
  for (const [what, src, pk, id] of cases) {
    const emu = emuWith(src, pk);
    emu.run(10000);
    assert.deepEqual([...new Set(emu.diag.list.map((d) => d.id))], [id], what);
  }
});

test('emulator: draw-state control registers — (rep)(sds2)cwrite DRAW_STATE_SET_HDR records groups, DRAW_STATE_SEL reads one back', () => {
  const src = `
start:
	waitin
	mov $01, $data
set_draw_state:				; header, then (sds2) the base's two dwords, per group
	(rep)(sds2)cwrite $data, [$00 + @DRAW_STATE_SET_HDR]
	waitin
	mov $01, $data
select:					; CP_NOP payload: the group to select
	cwrite $data, [$00 + @DRAW_STATE_SEL]
	cread $03, [$00 + @DRAW_STATE_HDR]
	cread $04, [$00 + @DRAW_STATE_BASE]
	cread $05, [$00 + @DRAW_STATE_BASE+1]
	cread $06, [$00 + @DRAW_STATE_ACTIVE_BITMASK]
	waitin
	mov $01, $data
`;
  for (const gen of ['a6xx', 'a7xx'] as const) {
    const code = assemble(src, gen);
    const labels = { set: 2, select: 5 };
    const emu = new AfucEmu(code, { gen, diag: new Diagnostics() });
    emu.jmptbl[opcodeOf('CP_SET_DRAW_STATE', gen)] = labels.set;
    emu.jmptbl[opcodeOf('CP_NOP', gen)] = labels.select;
    emu.feed(new CmdStream(gen).setDrawState([
      { groupId: 3, addr: 0x1_2345_6780, count: 12, modes: ['GMEM'] },
      { groupId: 9, addr: 0x2000, count: 5 },
    ]).nop([3]).dwords());
    assert.equal(emu.run(1000), 'idle', gen);
    assert.deepEqual(emu.diag.list, []);
    // Header as the SQE keeps it: count in the low 16 bits, mode mask (BINNING, GMEM, SYSMEM) at 20.
    assert.equal(emu.gpr[3], (12 | (2 << 20)) >>> 0, gen);
    assert.deepEqual([emu.gpr[4], emu.gpr[5]], [0x23456780, 1]);
    assert.equal(emu.gpr[6], (1 << 3) | (1 << 9));
    assert.equal(emu.drawState[9]!.base, 0x2000);
  }
});

function opcodeOf(name: string, gen: 'a6xx' | 'a7xx'): number {
  return new CmdStream(gen).pkt(name).dwords()[0]! >>> 16 & 0x7f;
}
