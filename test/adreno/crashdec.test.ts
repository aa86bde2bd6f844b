import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { crashdec } from '../../src/adreno/crash/crashdec.js';
import { analyseDump } from '../../src/adreno/crash.js';
import { CmdStream, Layout } from '../../src/adreno/cp/builder.js';
import { gpuRegs } from '../../src/adreno/regs/db.js';
import { ascii85Encode, parseDevcoredump } from '../../src/formats/devcoredump.js';
import { InputError } from '../../src/core/errors.js';
import { main } from '../../src/cli/main.js';
import { Memory } from '../../src/core/memory.js';
import { Diagnostics } from '../../src/core/diagnostics.js';
import { CommandProcessor } from '../../src/adreno/cp/cp.js';
import { cpDevcoredump } from '../../src/adreno/crash.js';

const TRACE = '../shared/adreno-captures/traces/crash.devcore';
const REF = '../shared/adreno-captures/reference/crash.log';
const have = existsSync(TRACE) && existsSync(REF);

/**
 * Matched reference lines per line of the reference, by longest common subsequence (diff's
 * alignment). Rows are computed in 16-bit slices of a band around the diagonal, which is enough
 * for two texts that follow each other (crashdec's output and ours have the same order).
 */
export function lcsMatches(ref: readonly string[], out: readonly string[]): boolean[] {
  // Exact LCS over hashed lines with Hunt-Szymanski (matches sparse: each line's occurrences).
  const pos = new Map<string, number[]>();
  out.forEach((l, j) => {
    const a = pos.get(l);
    if (a) a.push(j);
    else pos.set(l, [j]);
  });
  // thresh[k] = smallest out index ending a common subsequence of length k+1; links to rebuild.
  const thresh: number[] = [];
  const link: { i: number; j: number; prev: number }[] = [];
  const linkAt: number[] = [];
  for (let i = 0; i < ref.length; i++) {
    const js = pos.get(ref[i]!);
    if (!js) continue;
    for (let t = js.length - 1; t >= 0; t--) {
      const j = js[t]!;
      let lo = 0;
      let hi = thresh.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (thresh[mid]! < j) lo = mid + 1;
        else hi = mid;
      }
      if (lo === thresh.length || j < thresh[lo]!) {
        thresh[lo] = j;
        link.push({ i, j, prev: lo > 0 ? linkAt[lo - 1]! : -1 });
        linkAt[lo] = link.length - 1;
      }
    }
  }
  const hit = new Array<boolean>(ref.length).fill(false);
  let k = thresh.length ? linkAt[thresh.length - 1]! : -1;
  while (k >= 0) {
    hit[link[k]!.i] = true;
    k = link[k]!.prev;
  }
  return hit;
}

/** Section of each reference line: the last top-level section header above it. */
function sections(ref: readonly string[]): string[] {
  let cur = 'header';
  return ref.map((l) => {
    if (/^got rb_base=/.test(l)) cur = 'fault analysis';
    else if (/^(registers|registers-gmu|indexed-registers|shader-blocks|clusters|debugbus):/.test(l)) cur = l.slice(0, -1);
    return cur;
  });
}

/** Measured on crash.devcore (a630) and kept as a ratchet: raise when the output improves. */
const MIN_TOTAL = 1;
const MIN_SECTION: Record<string, number> = {
  header: 1,
  registers: 1,
  'fault analysis': 1,
  'registers-gmu': 1,
  'indexed-registers': 1,
  // SP_INST_DATA / HLSQ_INST_RAM are listed by the ir3 disassembler (src/adreno/ir3), as crashdec lists them.
  'shader-blocks': 1,
  clusters: 1,
  debugbus: 1,
};

test('crashdec -sf crash.devcore: the share of reference lines reproduced (total and per section)', { skip: !have && 'no ../shared/adreno-captures' }, () => {
  const ref = readFileSync(REF, 'utf8').replace(/\n$/, '').split('\n');
  const r = crashdec(readFileSync(TRACE, 'utf8'), { summary: true });
  assert.equal(r.error, undefined);
  const hit = lcsMatches(ref, r.lines);
  const sec = sections(ref);
  const per = new Map<string, [number, number]>();
  hit.forEach((h, i) => {
    const s = per.get(sec[i]!) ?? [0, 0];
    s[0] += h ? 1 : 0;
    s[1]++;
    per.set(sec[i]!, s);
  });
  const total = hit.filter(Boolean).length / ref.length;
  const report = `reproduced ${hit.filter(Boolean).length}/${ref.length} reference lines (${(100 * total).toFixed(1)}%), ${r.lines.length} lines out; ` + [...per].map(([k, [a, n]]) => `${k} ${a}/${n} (${((100 * a) / n).toFixed(1)}%)`).join(', ');
  assert.ok(total >= MIN_TOTAL, report);
  for (const [k, [a, n]] of per) assert.ok(a / n >= (MIN_SECTION[k] ?? 0), `${k} below its ratchet: ${report}`);
  console.log(report);
});

test('crash.devcore: the old-style analysis lands where crashdec does (ROQ correction: REM - 1)', { skip: !have && 'no ../shared/adreno-captures' }, () => {
  const rep = analyseDump(parseDevcoredump(readFileSync(TRACE, 'utf8')));
  const text = rep.lines.join('\n');
  assert.match(text, /RBBM_STATUS 0x00800005: GPU_BUSY_IGN_AHB CP_BUSY CP_AHB_BUSY_CX_MASTER/);
  assert.match(text, /CP_SQE_STAT: 51 dwords, SQE PC 0x00c5/);
  // Ring and IB1 sit at 0x1000000001000 / 0x100000000: the ring is above 2^48.
  assert.equal(rep.locations.length, 1);
  assert.equal(rep.locations[0]!.base, 0x100000000);
  assert.equal(rep.locations[0]!.pos, 7); // 12 dwords, REM_SIZE 0 + (ROQ 6 - 1) left
  assert.equal(rep.locations[0]!.packet?.iova, 0x10000001c);
});

const R = gpuRegs('a6xx');
const hx = (v: number, w: number): string => v.toString(16).padStart(w, '0');

/**
 * A kernel-layout a630 dump whose IB1 position needs both corrections: CP_IB1_BASE names IB B,
 * the ROQ had fetched ahead, and REM_SIZE + ROQ exceeds B's size, so the SQE was still in the
 * IB A called just before it. Everything lives above 2^48.
 */
function prefetchDump(): { text: string; a: number; b: number; ring: number } {
  const L = new Layout(2 ** 48 + 0x100000);
  const a = L.place(new CmdStream().reg('CP_SCRATCH[0]', 1).nop().nop().nop().nop().nop().nop(), 'ib-a'); // 8 dwords
  const b = L.place(new CmdStream().nop().nop().nop().nop().nop().nop(), 'ib-b'); // 6 dwords
  const ringIova = 2 ** 48 + 0x1000;
  const ringStream = new CmdStream().nop().nop().indirectBuffer(a.iova, a.sizeDwords).indirectBuffer(b.iova, b.sizeDwords).nop().nop();
  const ring = ringStream.dwords();
  const dw = (i: number): Uint32Array => {
    const d = L.buffers[i]!.data;
    return new Uint32Array(d.buffer, d.byteOffset, d.byteLength >> 2);
  };
  const regs: [number, number][] = [];
  const set = (name: string, v: number): void => void regs.push([R.reg(name), v >>> 0]);
  const set64 = (name: string, v: number): void => {
    regs.push([R.reg(name), v % 2 ** 32 >>> 0], [R.reg(name) + 1, Math.floor(v / 2 ** 32)]);
  };
  set('RBBM_STATUS', 0x00800005);
  set64('CP_RB_BASE', ringIova);
  set('CP_RB_RPTR', ring.length);
  set('CP_RB_WPTR', ring.length);
  set64('CP_IB1_BASE', b.iova);
  set('CP_IB1_REM_SIZE', 4);
  set64('CP_IB2_BASE', 0);
  set('CP_IB2_REM_SIZE', 0);
  set('CP_ROQ_AVAIL_IB1', 5 << 16);
  regs.sort((x, y) => x[0] - y[0]);
  const lines = [
    'kernel: 6.9.0-gpusim',
    'module: msm',
    'comm: prefetch',
    'revision: 630 (6.3.0.2)',
    'rbbm-status: 0x00000000',
    'ringbuffer:',
    '  - id: 0',
    `    iova: 0x${hx(ringIova, 16)}`,
    '    last-fence: 2',
    '    retired-fence: 1',
    `    rptr: ${ring.length - 2}`,
    `    wptr: ${ring.length}`,
    '    size: 32768',
    '    data: !!ascii85 |',
    '     ' + ascii85Encode(ring),
    'bos:',
    ...[0, 1].flatMap((i) => [`  - iova: 0x${hx(L.buffers[i]!.iova, 16)}`, `    size: ${L.buffers[i]!.data.length}`, '    data: !!ascii85 |', '     ' + ascii85Encode(dw(i))]),
    'registers:',
    ...regs.map(([o, v]) => `  - { offset: 0x${hx(o << 2, 6)}, value: 0x${hx(v, 8)} }`),
  ];
  return { text: lines.join('\n') + '\n', a: a.iova, b: b.iova, ring: ringIova };
}

test('prefetch: CP_IB1_BASE is an IB the ROQ ran ahead into; both outputs back up into the IB before it (iovas above 2^48)', () => {
  const { text, a, b } = prefetchDump();
  const r = crashdec(text, { summary: true });
  assert.equal(r.error, undefined);
  const out = r.lines.join('\n');
  assert.match(out, /^  - iova: 0x0001000000100000-0x0001000000100020$/m);
  assert.match(out, /^got rb_base=1000000001000$/m);
  assert.match(out, new RegExp(`^IB1: ${b.toString(16)}, 8$`, 'm')); // REM_SIZE 4 + ROQ (5 - 1)
  assert.match(out, /^found ring!$/m);
  // The marker sits before the packet at A + 6 dwords (8 - (8 - 6 of B)).
  const i = r.lines.indexOf('ESTIMATED CRASH LOCATION!');
  assert.ok(i > 0, out);
  assert.equal(r.lines[i + 1], `${hx(a + 24, 16)}:\t\t\t0000: 70108000`);
  assert.equal(r.lines.filter((l) => l === 'ESTIMATED CRASH LOCATION!').length, 1);

  const rep = analyseDump(parseDevcoredump(text));
  assert.equal(rep.locations.length, 1, rep.lines.join('\n'));
  assert.equal(rep.locations[0]!.base, a);
  assert.equal(rep.locations[0]!.pos, 6);
  assert.equal(rep.locations[0]!.packet?.iova, a + 24);
  assert.match(rep.lines.join('\n'), new RegExp(`prefetch: CP_IB1_BASE 0x${b.toString(16)} is an IB the ROQ fetched ahead; the SQE was in 0x${a.toString(16)} with 2 dwords left`));
});

test('truncated and corrupted dumps: crashdec returns its lines and at most a one-line error, never throws', () => {
  const texts = [prefetchDump().text];
  if (have) texts.push(readFileSync(TRACE, 'utf8').slice(0, 120_000));
  let seed = 7;
  const rnd = (): number => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0), seed);
  for (const text of texts) {
    for (let k = 0; k < 60; k++) {
      let t = text.slice(0, rnd() % text.length);
      if (k % 2) {
        const c = t.split('');
        for (let m = 0; m < 8 && c.length; m++) c[rnd() % c.length] = String.fromCharCode(32 + (rnd() % 95));
        t = c.join('');
      }
      const r = crashdec(t, { summary: k % 3 !== 0 });
      if (r.error !== undefined) assert.ok(!r.error.includes('\n') && r.error.length > 0, r.error);
      try {
        analyseDump(parseDevcoredump(t));
      } catch (e) {
        assert.ok(e instanceof InputError, `${k}: ${String(e)}`);
      }
    }
  }
  assert.match(crashdec('hello\n').error ?? '', /not a GPU devcoredump/);
});

test('gpusim adreno crash --format crashdec -sf FILE: crashdec text on stdout, bad input exits 2 with one line', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'gpusim-crashdec-'));
  const f = join(dir, 'dump.devcore');
  writeFileSync(f, prefetchDump().text);
  let so = '';
  let se = '';
  const io = { stdout: (s: string) => void (so += s), stderr: (s: string) => void (se += s), isTTY: false };
  assert.equal(await main(['adreno', 'crash', '--format', 'crashdec', '-sf', f], io), 0);
  assert.match(so, /^Got chip_id=0x6030002$/m);
  assert.match(so, /ESTIMATED CRASH LOCATION!/);
  const bad = join(dir, 'bad.devcore');
  writeFileSync(bad, 'kernel: x\nrevision: 630 (6.3.0.2)\nregisters:\n  - { offset: zz }\n');
  so = se = '';
  assert.equal(await main(['adreno', 'crash', '--format', 'crashdec', bad], io), 2);
  assert.match(so, /^revision: 630/m);
  assert.equal(se.trim().split('\n').length, 1, se);
});

test('gmu-log and gmu-hfi data are decoded, not echoed; unknown sections are echoed as crashdec does', () => {
  const table = [1, 0x100, 6, 12, 2, 2, ...[0x1, 0x60001000, 0, 256, 0, 0, 0, 0, 0, 0, 3, 3], ...[0x1, 0x60002000, 1, 256, 0, 0, 0, 0, 0, 0, 0, 0]];
  const text = [
    'kernel: 6.9.0',
    'revision: 630 (6.3.0.2)',
    'gmu-log:',
    '    iova: 0x0000000060000000',
    '    size: 16',
    '    data: !!ascii85 |',
    '     ' + ascii85Encode([0x41424344, 1, 2, 3]),
    'gmu-hfi:',
    '    iova: 0x0000000060001000',
    '    size: 128',
    '    queue-history[0]: 0 1 2 3 4 5 6 7',
    '    data: !!ascii85 |',
    '     ' + ascii85Encode(table),
    'gmu-debug:',
    '    iova: 0x0000000060004000',
  ].join('\n');
  const r = crashdec(text + '\n');
  assert.equal(r.error, undefined);
  const out = r.lines.join('\n');
  assert.ok(!r.lines.some((l) => l.startsWith('     ') && !l.includes(':')), out);
  assert.match(out, /^\t000000: 41424344 00000001 00000002 00000003\t\|DCBA\.{12}\|$/m);
  assert.match(out, /^\tnum_queues:    2$/m);
  assert.match(out, /^\t\tiova:         0x60002000$/m);
  assert.match(out, /^gmu-debug:\n {4}iova: 0x0000000060004000$/m);
});

test('CP_LOAD_STATE6 constants print as %f rows and hex, as cffdec does in summary mode', () => {
  const L = new Layout(0x100000000);
  const d0 = (1 << 22) | (0xc << 18) | (1 << 14); // 1 unit, SB6_FS_SHADER, ST6_CONSTANTS, direct
  const f = new Float32Array([1, 2.5, -0.5, 0]);
  const ib = L.place(new CmdStream().pkt('CP_LOAD_STATE6_FRAG', [d0, 0, 0, ...new Uint32Array(f.buffer)]), 'ib');
  const ring = new CmdStream().indirectBuffer(ib.iova, ib.sizeDwords).nop().dwords();
  const ringIova = 0x1000;
  const regs: [number, number][] = [
    [R.reg('CP_RB_BASE'), ringIova],
    [R.reg('CP_RB_BASE') + 1, 0],
  ];
  const data = L.buffers[0]!.data;
  const text = [
    'revision: 630 (6.3.0.2)',
    'ringbuffer:',
    '  - id: 0',
    `    iova: 0x${hx(ringIova, 16)}`,
    '    rptr: 0',
    `    wptr: ${ring.length}`,
    '    size: 4096',
    '    data: !!ascii85 |',
    '     ' + ascii85Encode(ring),
    'bos:',
    `  - iova: 0x${hx(ib.iova, 16)}`,
    `    size: ${data.length}`,
    '    data: !!ascii85 |',
    '     ' + ascii85Encode(new Uint32Array(data.buffer, data.byteOffset, data.byteLength >> 2)),
    'registers:',
    ...regs.map(([o, v]) => `  - { offset: 0x${hx(o << 2, 6)}, value: 0x${hx(v, 8)} }`),
  ].join('\n');
  const r = crashdec(text + '\n', { summary: true });
  assert.equal(r.error, undefined);
  const out = r.lines.join('\n');
  assert.match(out, /^\t\t\topcode: CP_LOAD_STATE6_FRAG \(34\) \(8 dwords\)$/m);
  assert.match(out, new RegExp(`^${hx(ib.iova + 16, 16)}:\\t\\t\\t\\t1\\.000000 2\\.500000 -0\\.500000 0\\.000000$`, 'm'));
  assert.match(out, new RegExp(`^${hx(ib.iova + 16, 16)}:\\t\\t\\t\\t0000: 3f800000 40200000 bf000000 00000000$`, 'm'));
});

test('a crash inside IB2 (simulated CP, its devcoredump): one marker, in IB2, after the faulting write', () => {
  const L = new Layout();
  const ib2 = L.place(new CmdStream().nop().reg('CP_SCRATCH[7]', 1).nop(), 'ib2');
  const ib1 = L.place(new CmdStream().reg('CP_SCRATCH[0]', 1).indirectBuffer(ib2.iova, ib2.sizeDwords).nop(), 'ib1');
  const ring = L.place(new CmdStream().reg('CP_PROTECT_CNTL', 3).reg('CP_PROTECT[0]', 0x883 + 7).indirectBuffer(ib1.iova, ib1.sizeDwords).reg('CP_SCRATCH[2]', 0x36b0), 'ring');
  const mem = new Memory();
  for (const b of L.buffers) mem.map(b.iova, b.data.length, b.label, b.data.slice());
  const cp = new CommandProcessor(mem, { diag: new Diagnostics() });
  assert.equal(cp.runRing(ring.iova, ring.sizeDwords), 'protect-fault');
  const r = crashdec(cpDevcoredump(cp, ring, { last: 0x36b0, retired: 0x36af }), { summary: true });
  assert.equal(r.error, undefined);
  const marks = r.lines.flatMap((l, i) => (l === 'ESTIMATED CRASH LOCATION!' ? [i] : []));
  assert.equal(marks.length, 1, r.lines.join('\n'));
  // Summary mode prints no register writes: the marker falls on the packet after the write.
  assert.equal(r.lines[marks[0]! + 1], `${hx(ib2.iova + 12, 16)}:\t\t\t\t0000: 70108000`);
});

test('crashdec -s through the shared cffdump printer: groups at draws, summaries, marker, ring copy at address 0', () => {
  const L = new Layout();
  const g = L.place(new CmdStream().reg('RB_RENDER_CNTL', 0).reg('GRAS_SC_CNTL', 2).contextRegBunch([['PC_POLYGON_MODE', 1], ['VFD_CONTROL_0', 3]]), 'group');
  const buf = L.reserve(256, 'buf');
  const ib1 = L.place(
    new CmdStream().setMarker('RM6_BYPASS').setDrawState([{ groupId: 1, count: 9, addr: g.iova }]).reg('RB_DEPTH_CNTL', 7).nop([0x4d455347, 0x6c6c6568, 0x6f])
      .regToMem('RB_DEPTH_CNTL', buf, 1).drawAuto('DI_PT_TRILIST', 3).regRmw('RB_DEPTH_CNTL', 1, 2).reg('CP_SCRATCH[7]', 1).execCs(1, 1, 1).nop(),
    'ib1',
  );
  const ring = L.place(new CmdStream().reg('CP_PROTECT_CNTL', 3).reg('CP_PROTECT[0]', 0x883 + 7).indirectBuffer(ib1.iova, ib1.sizeDwords).reg('CP_SCRATCH[2]', 0x36b0), 'ring');
  const mem = new Memory();
  for (const b of L.buffers) mem.map(b.iova, b.data.length, b.label, b.data.slice());
  const cp = new CommandProcessor(mem, { diag: new Diagnostics() });
  cp.runRing(ring.iova, ring.sizeDwords);
  const r = crashdec(cpDevcoredump(cp, ring, { last: 5, retired: 4 }), { summary: true });
  assert.equal(r.error, undefined);
  const out = r.lines.join('\n');
  const at = (l: string): number => r.lines.indexOf(l);
  // -s: no register writes, no CP_NOP strings, no rmw line; the group is replayed at the draw.
  assert.doesNotMatch(out, /write RB_DEPTH_CNTL|### hello|rmw \(/);
  assert.ok(at('\t\t\tgroup_id: 1') > 0 && at('\t\t\tgroup_id: 1') < at('\t\t\tdraw[0] register values'), out);
  assert.ok(at('\t\t\t\t\topcode: CP_CONTEXT_REG_BUNCH (5c) (5 dwords)') > 0, out);
  assert.ok(at('!+\t00000001\t\t\tPC_POLYGON_MODE: { MODE = POLYMODE6_POINTS }') > at('\t\t\tdraw[0] register values'), out);
  assert.ok(at('!+\t00000003\t\t\tRB_DEPTH_CNTL: { Z_TEST_ENABLE | Z_WRITE_ENABLE | ZFUNC = FUNC_NEVER }') > at('\t\t\tdraw[1] register values'), out);
  // The marker: once, on the CP_EXEC_CS after the faulting write; the ring copy's rows print address 0.
  assert.equal(r.lines.filter((l) => l === 'ESTIMATED CRASH LOCATION!').length, 1);
  assert.match(r.lines[at('ESTIMATED CRASH LOCATION!') + 1]!, /^[0-9a-f]{16}:\t\t\t0000: 70b30004 /);
  assert.match(out, /^0000000000000000:\t\t0000: 70bf8003 /m);
});
