import { test } from 'node:test';
import assert from 'node:assert/strict';
import { InputError } from '../../src/core/errors.js';
import { CmdStream, Layout } from '../../src/adreno/cp/builder.js';
import { analyseDump } from '../../src/adreno/crash.js';
import { ascii85Encode, parseDevcoredump } from '../../src/formats/devcoredump.js';
import { gpuRegs } from '../../src/adreno/regs/db.js';

const R = gpuRegs('a6xx');
const h = (v: number, w: number): string => v.toString(16).padStart(w, '0');

/**
 * A dump laid out exactly as the msm kernel prints it (msm_gpu_devcoredump_read header lines,
 * adreno_show, a6xx_show): written here from those printf formats, independently of our writer.
 * Register offsets are byte addresses; ascii85 data sits on one line (5 spaces for rings/bos,
 * 6 for indexed registers); gmu/shader/debugbus sections are present and must be skipped.
 */
function kernelDump(): { text: string; ib1: number; ib2: number; ring: number } {
  const L = new Layout();
  const ib2 = L.place(new CmdStream().nop().reg('CP_SCRATCH[7]', 1).nop(), 'ib2');
  const ib1 = L.place(new CmdStream().reg('CP_SCRATCH[0]', 1).indirectBuffer(ib2.iova, ib2.sizeDwords).nop(), 'ib1');
  const ring = L.place(new CmdStream().indirectBuffer(ib1.iova, ib1.sizeDwords).reg('CP_SCRATCH[2]', 0x36b0), 'ring');
  const dw = (i: number): Uint32Array => {
    const b = L.buffers[i]!.data;
    return new Uint32Array(b.buffer, b.byteOffset, b.byteLength >> 2);
  };
  const regs: [string, number][] = [
    ['RBBM_STATUS', 0x00800005],
    ['CP_RB_RPTR', 3],
    ['CP_RB_WPTR', ring.sizeDwords],
    ['CP_IB1_BASE', ib1.iova >>> 0],
    ['CP_IB1_BASE_HI', Math.floor(ib1.iova / 2 ** 32)],
    ['CP_IB1_REM_SIZE', 2],
    ['CP_IB2_BASE', ib2.iova >>> 0],
    ['CP_IB2_BASE_HI', Math.floor(ib2.iova / 2 ** 32)],
    ['CP_IB2_REM_SIZE', 2],
    ['CP_INTERRUPT_STATUS', 1 << 4],
  ];
  const off = (n: string): number => (n.endsWith('_HI') ? R.reg(n.slice(0, -3)) + 1 : R.reg(n));
  const sqeStat = Array.from({ length: 51 }, (_, i) => (i < 10 ? i * 3 + 1 : 0));
  const L2: string[] = [
    'kernel: 6.9.0-gpusim',
    'module: msm',
    'time: 1700000000.123456789',
    'comm: deqp-vk',
    'cmdline: ./deqp-vk --deqp-case=dEQP-VK.api.smoke.triangle',
    'gpu-initialized: 1',
    'revision: 630 (6.3.0.2)',
    'fault-info:',
    '  - ttbr0=0000000100200000',
    `  - iova=${h(ib2.iova + 8, 16)}`,
    '  - dir=READ',
    '  - type=TRANSLATION',
    '  - source=CP',
    'rbbm-status: 0x00800005',
    'ringbuffer:',
    '  - id: 0',
    `    iova: 0x${h(ring.iova, 16)}`,
    '    last-fence: 14000',
    '    retired-fence: 13999',
    '    rptr: 3',
    `    wptr: ${ring.sizeDwords}`,
    '    size: 32768',
    '    data: !!ascii85 |',
    '     ' + ascii85Encode(dw(2)),
    'bos:',
    ...[0, 1].flatMap((i) => [
      `  - iova: 0x${h(L.buffers[i]!.iova, 16)}`,
      `    size: ${L.buffers[i]!.data.length}`,
      '    flags: 0x0',
      `    name: ${L.buffers[i]!.label.padEnd(32)}`,
      '    data: !!ascii85 |',
      '     ' + ascii85Encode(dw(i)),
    ]),
    'gmu-log:',
    '    iova: 0x0000000060000000',
    '    size: 16384',
    '    data: !!ascii85 |',
    '     ' + ascii85Encode([1, 2, 3]),
    'gmu-hfi:',
    'gmu-debug:',
    'registers:',
    ...regs.map(([n, v]) => `  - { offset: 0x${h(off(n) << 2, 6)}, value: 0x${h(v, 8)} }`),
    'registers-gmu:',
    '  - { offset: 0x068000, value: 0x00000001 }',
    'indexed-registers:',
    '  - regs-name: CP_SQE_STAT',
    '    dwords: 51',
    '    data: !!ascii85 |',
    '      ' + ascii85Encode(sqeStat),
    '  - regs-name: CP_MEMPOOL',
    '    dwords: 8192',
    'shader-blocks:',
    '  - type: A6XX_TP0_TMO_DATA',
    '    - bank: 0',
    '      size: 512',
    '      data: !!ascii85 |',
    '        ' + ascii85Encode([5, 6]),
    'clusters:',
    '  - cluster-name: CLUSTER_FE',
    '    - context: 0',
    `      - { offset: 0x${h(R.reg('PC_RESTART_INDEX') << 2, 6)}, value: 0xffffffff }`,
    '    - context: 1',
    `      - { offset: 0x${h(R.reg('PC_RESTART_INDEX') << 2, 6)}, value: 0x0000ffff }`,
    'debugbus:',
    '  - debugbus-block: A6XX_DBGBUS_CP',
    '    count: 16',
    '    data: !!ascii85 |',
    '      ' + ascii85Encode([7, 8, 9]),
  ];
  return { text: L2.join('\n') + '\n', ib1: ib1.iova, ib2: ib2.iova, ring: ring.iova };
}

test('the kernel devcoredump layout parses: byte-address register offsets, one-line ascii85, indexed registers, cluster banks', () => {
  const { text, ib2 } = kernelDump();
  const d = parseDevcoredump(text);
  assert.equal(d.header['revision'], '630 (6.3.0.2)');
  assert.equal(d.header['gpu-initialized'], '1');
  assert.equal(d.rings.length, 1);
  assert.deepEqual(d.bos.map((b) => b.name), ['ib2', 'ib1']);
  // Offsets are byte addresses in the text and dword register offsets in the map.
  assert.equal(d.registers.get(R.reg('RBBM_STATUS')), 0x00800005);
  assert.equal(d.registers.get(R.reg('CP_IB2_REM_SIZE')), 2);
  assert.equal(d.gmuRegisters.get(0x68000 >> 2), 1);
  assert.equal(d.indexed.get('CP_SQE_STAT')!.length, 51);
  assert.deepEqual(d.indexed.get('CP_SQE_STAT')!.slice(0, 3), [1, 4, 7]);
  assert.equal(d.indexed.get('CP_MEMPOOL')!.length, 8192);
  const fe = d.clusters.get('CLUSTER_FE')!;
  assert.deepEqual([fe.get(0)!.get(R.reg('PC_RESTART_INDEX')), fe.get(1)!.get(R.reg('PC_RESTART_INDEX'))], [0xffffffff, 0xffff]);
  assert.equal(d.faultInfo.length, 5);

  const rep = analyseDump(d);
  const all = rep.lines.join('\n');
  assert.match(all, /gpu: 630 \(6\.3\.0\.2\) -> a6xx, process deqp-vk/);
  assert.match(all, /RBBM_STATUS 0x00800005: GPU_BUSY_IGN_AHB CP_BUSY CP_AHB_BUSY_CX_MASTER/);
  assert.match(all, /the hung job is fence 14000/);
  assert.match(all, /CP_INTERRUPT_STATUS 0x00000010: CP_REGISTER_PROTECTION_ERROR/);
  assert.match(all, /fault iova 0x[0-9a-f]+ is inside ib2 \(0x[0-9a-f]+ \+ 0x8\)/);
  assert.match(all, /cluster CLUSTER_FE: context 0 1 registers, context 1 1 registers/);
  assert.match(all, /CP_SQE_STAT: 51 dwords/);
  assert.equal(rep.locations.length, 2);
  assert.equal(rep.locations[1]!.base, ib2);
  assert.equal(rep.locations[1]!.packet?.name, 'REG_WRITE'); // 4 dwords, 2 remain: the CP_SCRATCH[7] write
});

test('a7xx cluster layout (pipe / cluster-name / context) and corrupt kernel dumps', () => {
  const a7 = [
    'kernel: 6.9.0',
    'revision: 740 (4.3.2.0)',
    'rbbm-status: 0x00000000',
    'registers:',
    '  - { offset: 0x000840, value: 0x00000000 }',
    'clusters:',
    '  - pipe: PIPE_BR',
    '    - cluster-name: CLUSTER_GRAS',
    '      - context: 1',
    '        - { offset: 0x032000, value: 0x00000007 }',
  ].join('\n');
  const d = parseDevcoredump(a7);
  assert.equal(d.clusters.get('PIPE_BR/CLUSTER_GRAS')!.get(1)!.get(0x32000 >> 2), 7);
  assert.ok(analyseDump(d).lines.length > 0);

  const { text } = kernelDump();
  // Every truncation and a set of byte corruptions: parsed or a one-line InputError, never a crash.
  let seed = 9;
  const rnd = (): number => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0), seed);
  for (let k = 0; k < 120; k++) {
    let t = text.slice(0, rnd() % text.length);
    if (k % 2) {
      const a = t.split('');
      for (let m = 0; m < 6 && a.length; m++) a[rnd() % a.length] = String.fromCharCode(32 + (rnd() % 95));
      t = a.join('');
    }
    try {
      analyseDump(parseDevcoredump(t));
    } catch (e) {
      assert.ok(e instanceof InputError, `${k}: ${String(e)}`);
    }
  }
});
