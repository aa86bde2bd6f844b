import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Memory } from '../../src/core/memory.js';
import { Diagnostics } from '../../src/core/diagnostics.js';
import { InputError } from '../../src/core/errors.js';
import { CmdStream, Layout } from '../../src/adreno/cp/builder.js';
import { CommandProcessor } from '../../src/adreno/cp/cp.js';
import { analyseDump, cpDevcoredump, faultLineReport, parseFaultLine } from '../../src/adreno/crash.js';
import { ascii85Decode, ascii85Encode, parseDevcoredump } from '../../src/formats/devcoredump.js';
import { main } from '../../src/cli/main.js';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';

const LINE = 'msm_dpu ae01000.display-controller: [drm:a6xx_fault_detect_irq] *ERROR* gpu fault ring 0 fence 36b0 status 00800005 rb 04f0/0560 ib1 0000000113403000/0002 ib2 0000000113413000/0000';

test('the kernel fault line parses and decodes RBBM_STATUS bit by bit', () => {
  const f = parseFaultLine(LINE);
  assert.deepEqual(f, { ring: 0, fence: 0x36b0, status: 0x00800005, rptr: 0x4f0, wptr: 0x560, ib1Base: 0x113403000, ib1Rem: 2, ib2Base: 0x113413000, ib2Rem: 0 });
  const r = faultLineReport(f).join('\n');
  assert.match(r, /RBBM_STATUS 0x00800005: GPU_BUSY_IGN_AHB CP_BUSY CP_AHB_BUSY_CX_MASTER/);
  assert.match(r, /inside IB1/);
  assert.throws(() => parseFaultLine('gpu fault ring zero'), InputError);
});

test('ascii85 as the kernel writes it round-trips', () => {
  const d = Uint32Array.from([0, 1, 0xffffffff, 0x70108000, 0, 0]);
  const s = ascii85Encode(d);
  assert.ok(s.startsWith('z'));
  assert.deepEqual(Array.from(ascii85Decode(s)), [0, 1, 0xffffffff, 0x70108000]);
  assert.throws(() => ascii85Decode('abc'), InputError);
});

/** Run a ring -> IB1 -> IB2 stream that faults inside IB2, and dump the state. */
function crashed(): { dump: string; ib1: number; ib2: number } {
  const L = new Layout();
  const ib2 = L.place(new CmdStream().nop().reg('CP_SCRATCH[7]', 1).nop(), 'ib2');
  const ib1 = L.place(new CmdStream().reg('CP_SCRATCH[0]', 1).indirectBuffer(ib2.iova, ib2.sizeDwords).nop(), 'ib1');
  const ring = L.place(
    new CmdStream()
      .reg('CP_PROTECT_CNTL', 3)
      .reg('CP_PROTECT[0]', 0x883 + 7)
      .indirectBuffer(ib1.iova, ib1.sizeDwords)
      .reg('CP_SCRATCH[2]', 0x36b0),
    'ring',
  );
  const mem = new Memory();
  for (const b of L.buffers) mem.map(b.iova, b.data.length, b.label, b.data.slice());
  const cp = new CommandProcessor(mem, { diag: new Diagnostics() });
  assert.equal(cp.runRing(ring.iova, ring.sizeDwords), 'protect-fault');
  return { dump: cpDevcoredump(cp, ring, { last: 0x36b0, retired: 0x36af }), ib1: ib1.iova, ib2: ib2.iova };
}

test('a simulated crash dumps, parses back, and the estimate points at the faulting packet in IB2', () => {
  const { dump, ib2 } = crashed();
  const d = parseDevcoredump(dump);
  assert.equal(d.rings.length, 1);
  assert.equal(d.bos.length, 2);
  const rep = analyseDump(d);
  const text = rep.lines.join('\n');
  assert.match(text, /RBBM_STATUS 0x00800005: GPU_BUSY_IGN_AHB CP_BUSY CP_AHB_BUSY_CX_MASTER/);
  assert.match(text, /CP_INTERRUPT_STATUS 0x00000010: CP_REGISTER_PROTECTION_ERROR/);
  assert.match(text, /CP_PROTECT_STATUS .*CP_SCRATCH\[0x7\]/);
  assert.match(text, /the hung job is fence 14000/);
  assert.equal(rep.locations.length, 2);
  const loc2 = rep.locations[1]!;
  assert.equal(loc2.base, ib2);
  assert.equal(loc2.packet?.offset, 1);
  assert.equal(loc2.packet?.name, 'REG_WRITE');
  assert.equal(rep.locations[0]!.packet?.name, 'CP_INDIRECT_BUFFER');
});

test('bad dumps: one-line InputError, truncated dumps still analyse', () => {
  assert.throws(() => parseDevcoredump('hello\nworld\n'), InputError);
  const { dump } = crashed();
  for (let cut = 50; cut < dump.length; cut += Math.floor(dump.length / 25)) {
    try {
      analyseDump(parseDevcoredump(dump.slice(0, cut)));
    } catch (e) {
      assert.ok(e instanceof InputError, String(e));
    }
  }
});

test('gpusim adreno crash: dump file and --fault-line', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'gpusim-crash-'));
  const f = join(dir, 'devcoredump.txt');
  writeFileSync(f, crashed().dump);
  let so = '';
  const io = { stdout: (s: string) => void (so += s), stderr: () => {}, isTTY: false };
  assert.equal(await main(['adreno', 'crash', f], io), 1);
  assert.match(so, /estimated crash location: IB2/);
  so = '';
  assert.equal(await main(['adreno', 'crash', '--fault-line', LINE], io), 0);
  assert.match(so, /fence 0x36b0/);
  assert.equal(await main(['adreno', 'crash', '--fault-line', 'nonsense'], io), 2);
});
