/**
 * Traces people can read (issue 23): `run|draw --trace` lines carry EXEC, the registers each
 * instruction changed and the memory it touched, at the PCs disasm and diagnostics print, bounded
 * by --trace-limit; `--timeline` writes Chrome trace-event JSON of the scheduler's waves, barriers
 * and POPS ordered sections. Checked against the kernel's own input file, the disassembly of the
 * same code object, and the run's instruction counts.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../../src/cli/main.js';
import { EXIT_ERROR, EXIT_OK } from '../../src/core/errors.js';
import { summariseRanges } from '../../src/amd/sq/trace.js';
import { WaveTimeline } from '../../src/amd/sq/timeline.js';
import { TraceEvents } from '../../src/core/trace-events.js';
import type { Wave } from '../../src/amd/wave/wave.js';
import { demoFrameRd, SHARED_CAPTURE } from '../../src/cli/commands/demo.js';

const ROOT = new URL('../../..', import.meta.url).pathname;
const SUM = join(ROOT, 'examples/asm-kernel');

interface Ev { name: string; cat: string; ph: string; ts: number; dur?: number; pid: number; tid: number; args?: Record<string, unknown> }

async function gpusim(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(argv, { stdout: (s) => void (out += s), stderr: (s) => void (err += s), isTTY: false });
  return { code, out, err };
}

function withDir(f: (dir: string) => Promise<void>): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'gpusim-trace-'));
  return f(dir).finally(() => rmSync(dir, { recursive: true, force: true }));
}

/** The hand-written sum kernel, its inputs and manifest copied into `dir` (the .s edited by `edit`). */
function sumKernel(dir: string, edit: (s: string) => string = (s) => s): string {
  for (const f of ['in.bin', 'out.expected.bin', 'sum.json']) copyFileSync(join(SUM, f), join(dir, f));
  writeFileSync(join(dir, 'sum.s'), edit(readFileSync(join(SUM, 'sum.s'), 'utf8')));
  return join(dir, 'sum.json');
}

function events(file: string): Ev[] {
  const t = JSON.parse(readFileSync(file, 'utf8')) as { traceEvents: Ev[]; otherData: { clock: string } };
  assert.match(t.otherData.clock, /1 tick per issued wave-instruction/);
  return t.traceEvents;
}

/** Slices of the SQ's wave turns: one wave issues at a time, so they never overlap and their lengths add up to the instructions. */
function checkTurns(ev: readonly Ev[], instructions: number): void {
  const turns = ev.filter((e) => e.ph === 'X' && e.cat.startsWith('wave.')).sort((a, b) => a.ts - b.ts);
  assert.ok(turns.length > 0);
  assert.equal(turns.reduce((n, e) => n + e.dur!, 0), instructions);
  for (let i = 1; i < turns.length; i++) assert.ok(turns[i]!.ts >= turns[i - 1]!.ts + turns[i - 1]!.dur!, `turns overlap at ${turns[i]!.ts}`);
  const named = new Set(ev.filter((e) => e.ph === 'M' && e.name === 'thread_name').map((e) => `${e.pid}:${e.tid}`));
  for (const e of turns) assert.ok(named.has(`${e.pid}:${e.tid}`), `track ${e.pid}:${e.tid} has no name`);
}

test('run --trace: EXEC, registers changed, memory touched, at the addresses disasm prints', async () => {
  await withDir(async (dir) => {
    const m = sumKernel(dir);
    const r = await gpusim('run', m, '--trace', join(dir, 't.txt'), '--json');
    assert.equal(r.code, EXIT_OK, r.err);
    const run = JSON.parse(r.out) as { waveInstructions: number; traceLines: number; traceSkipped: number };
    const lines = readFileSync(join(dir, 't.txt'), 'utf8').trim().split('\n');
    assert.equal(lines.length, run.waveInstructions);
    assert.equal(run.traceLines, run.waveInstructions);
    assert.equal(run.traceSkipped, 0);
    // The kernel's input file: lanes 0..3 of wave 0 load in[0..3].
    const input = new Uint32Array(new Uint8Array(readFileSync(join(dir, 'in.bin'))).buffer, 0, 4);
    const load = lines.find((l) => l.startsWith('wave 0 ') && l.includes('global_load_b32'))!;
    assert.match(load, /^wave 0 pc 0x[0-9a-f]+ exec 0xffffffff  global_load_b32 v1, v0, s\[4:5\]  \| v1 = /);
    assert.ok(load.includes(`v1 = ${[...input].map((v, l) => `${l}:0x${v.toString(16)}`).join(' ')} (`), load);
    assert.match(load, /\| mem 0x[0-9a-f]+\.\.0x[0-9a-f]+ \(128 B\)$/); // 32 lanes x 4 bytes, contiguous
    assert.match(lines[0]!, /s_load_b128 s\[4:7\], s\[0:1\], null  \| s4=0x[0-9a-f]+ s5=0x[0-9a-f]+ s6=0x[0-9a-f]+ s7=0x[0-9a-f]+ \| mem 0x[0-9a-f]+\.\.0x[0-9a-f]+ \(16 B\)$/);
    assert.ok(lines.some((l) => /s_cmp_ge_u32 s10, s8  \| scc=1$/.test(l)));
    // Every traced PC shows the instruction the disassembly lists at that address.
    assert.equal((await gpusim('asm', join(dir, 'sum.s'), '--format', 'co', '-o', join(dir, 'sum.co'))).code, EXIT_OK);
    const dis = await gpusim('disasm', join(dir, 'sum.co'));
    const at = new Map<number, string>();
    for (const l of dis.out.split('\n')) {
      const x = /^\t(.*?)\s+\/\/ ([0-9A-F]{12}):/.exec(l);
      if (x) at.set(parseInt(x[2]!, 16), x[1]!.trim());
    }
    for (const l of lines) {
      const x = /^wave \d+ pc 0x([0-9a-f]+) exec 0x[0-9a-f]+  (.*?)(  \||$| \|)/.exec(l)!;
      assert.equal(at.get(parseInt(x[1]!, 16)), x[2]!.trim(), l);
    }
  });
});

test('run --trace: a diagnostic names the PC of the traced instruction', async () => {
  await withDir(async (dir) => {
    // Without the s_waitcnt vmcnt(0) the loop reads v1 before its load is waited for.
    const m = sumKernel(dir, (s) => s.replace('  s_waitcnt vmcnt(0)\n', ''));
    const r = await gpusim('run', m, '--trace', join(dir, 't.txt'));
    assert.equal(r.code, EXIT_OK, r.err);
    const d = /gfx11\.waitcnt\.read-before-wait \(pc 0x([0-9a-f]+), wave (\d+)/.exec(r.out);
    assert.ok(d, r.out);
    const line = readFileSync(join(dir, 't.txt'), 'utf8').split('\n').find((l) => l.startsWith(`wave ${d[2]} pc 0x${d[1]} `));
    assert.match(line ?? '', /v_add_nc_u32_e32 v2, v2, v1/);
  });
});

test('run --trace-limit bounds the file and says what it left out; quiet under the limit', async () => {
  await withDir(async (dir) => {
    const m = sumKernel(dir);
    const r = await gpusim('run', m, '--trace', join(dir, 't.txt'), '--trace-limit', '10');
    assert.equal(r.code, EXIT_OK, r.err);
    const lines = readFileSync(join(dir, 't.txt'), 'utf8').trim().split('\n');
    assert.equal(lines.length, 11);
    assert.equal(lines[10], '... 590 more wave-instructions past --trace-limit');
    assert.match(r.out, /trace: 10 lines, 590 wave-instructions past --trace-limit not traced/);
    const all = await gpusim('run', m, '--trace', join(dir, 'all.txt'), '--trace-limit', '600');
    assert.doesNotMatch(all.out, /trace:/);
    assert.doesNotMatch(readFileSync(join(dir, 'all.txt'), 'utf8'), /past --trace-limit/);
  });
});

test('run: trace and timeline options that cannot apply are usage errors', async () => {
  await withDir(async (dir) => {
    const m = sumKernel(dir);
    for (const [argv, re] of [
      [['--trace-limit', '5'], /--trace-limit needs --trace FILE/],
      [['--trace', join(dir, 't'), '--engine', 'fast'], /--trace runs the interpreter/],
      [['--trace', join(dir, 't'), '--trace-limit', '0'], /--trace-limit: 0 is out of range/],
      [['--trace', join(dir, 't'), '--trace-limit', '1e3'], /--trace-limit: '1e3' is not an integer/],
    ] as const) {
      const r = await gpusim('run', m, ...argv);
      assert.equal(r.code, EXIT_ERROR, `${argv.join(' ')}: ${r.err}`);
      assert.match(r.err, re);
    }
    const r600 = await gpusim('run', join(ROOT, 'kernels/r600/manifests/vadd.cypress.json'), '--timeline', join(dir, 'x.json'));
    assert.equal(r600.code, EXIT_ERROR);
    assert.match(r600.err, /--timeline does not apply to an R600-family object/);
    assert.equal(existsSync(join(dir, 'x.json')), false);
  });
});

test('run --timeline: wave turns per CU and SIMD, barrier waits, over the model clock', async () => {
  await withDir(async (dir) => {
    const file = join(dir, 'tl.json');
    const r = await gpusim('run', join(ROOT, 'kernels/manifests/lds_rotate.json'), '--timeline', file, '--json');
    assert.equal(r.code, EXIT_OK, r.err);
    const run = JSON.parse(r.out) as { waveInstructions: number; waves: number };
    const ev = events(file);
    checkTurns(ev, run.waveInstructions);
    assert.ok(ev.some((e) => e.name === 'process_name' && e.args?.['name'] === 'CU 0'));
    assert.ok(ev.some((e) => e.name === 'thread_name' && /^SIMD \d · compute wave 0$/.test(String(e.args?.['name']))));
    // lds_rotate stores to LDS, waits at one s_barrier, loads its neighbour's value: one wait per wave.
    const barriers = ev.filter((e) => e.cat === 'barrier');
    assert.equal(barriers.length, run.waves);
    for (const b of barriers) assert.ok(b.dur! >= 0 && b.name === 's_barrier');
    // Launched through the PM4 command processor: the dispatch packet spans every turn.
    const viaCp = join(dir, 'pm4.json');
    const p = await gpusim('run', join(ROOT, 'kernels/manifests/lds_rotate.json'), '--pm4', 'direct', '--timeline', viaCp);
    assert.equal(p.code, EXIT_OK, p.err);
    const pe = events(viaCp);
    checkTurns(pe, run.waveInstructions);
    const packets = pe.filter((e) => e.cat === 'cp.packet');
    assert.deepEqual(packets.map((e) => [e.name, e.ts, e.dur]), [['DISPATCH_DIRECT lds_rotate', 0, run.waveInstructions]]);
    assert.equal(ev.filter((e) => e.cat === 'cp.packet').length, 0); // a runtime launch has no CP
    // A kernel without barriers has none (quiet).
    const plain = join(dir, 'plain.json');
    assert.equal((await gpusim('run', sumKernel(dir), '--timeline', plain)).code, EXIT_OK);
    assert.equal(events(plain).filter((e) => e.cat === 'barrier').length, 0);
  });
});

test('draw --timeline on a POPS scene: stage waves, and each PS wave waits for overlapped waves then holds its ordered section', async () => {
  await withDir(async (dir) => {
    const file = join(dir, 'pops.json');
    const r = await gpusim('draw', join(ROOT, 'examples/pops-oit/scene.json'), '--timeline', file, '--json');
    assert.equal(r.code, EXIT_OK, r.err);
    const s = (JSON.parse(r.out) as { stats: { psWaves: number; gsInstructions: number; psInstructions: number } }).stats;
    const ev = events(file);
    checkTurns(ev, s.gsInstructions + s.psInstructions);
    assert.ok(ev.some((e) => e.cat === 'wave.GS') && ev.some((e) => e.cat === 'wave.PS'));
    const ordered = ev.filter((e) => e.cat === 'pops.ordered');
    assert.equal(ordered.length, s.psWaves); // every PS wave of a POPS draw enters and leaves its section
    const waits = ev.filter((e) => e.cat === 'pops.wait');
    assert.ok(waits.length > 0);
    for (const w of waits) {
      const o = ordered.find((x) => x.pid === w.pid && x.tid === w.tid)!;
      assert.equal(w.ts + w.dur!, o.ts, 'the wait ends where the ordered section starts');
    }
    assert.ok(ev.some((e) => e.name === 'process_name' && /^POPS packer \d+$/.test(String(e.args?.['name']))));
    // The CP track: one slice per draw packet, holding the turns of the waves it launched.
    const draws = ev.filter((e) => e.cat === 'cp.packet');
    assert.deepEqual(draws.map((d) => d.name), ['DRAW_INDEX_AUTO (draw 0)', 'DRAW_INDEX_2 (draw 1)']);
    for (const e of ev.filter((x) => x.ph === 'X' && x.cat.startsWith('wave.'))) {
      assert.equal(draws.filter((d) => d.ts <= e.ts && e.ts + e.dur! <= d.ts + d.dur!).length, 1, `turn at ${e.ts} lies in one draw`);
    }
    // A scene without POPS has no POPS tracks (quiet).
    const tri = join(dir, 'tri.json');
    assert.equal((await gpusim('draw', join(ROOT, 'examples/triangle/scene.json'), '--timeline', tri)).code, EXIT_OK);
    assert.equal(events(tri).filter((e) => e.cat.startsWith('pops.')).length, 0);
  });
});

test('pops oit --timeline: PS wave turns per CU beside each wave\'s POPS wait and ordered section', async () => {
  await withDir(async (dir) => {
    const file = join(dir, 'oit.json');
    const r = await gpusim('pops', 'oit', '--timeline', file, '--json');
    assert.equal(r.code, EXIT_OK, r.err);
    const j = JSON.parse(r.out) as { instructions: number; draws: { waves: number }[] };
    const ev = events(file);
    checkTurns(ev, j.instructions);
    assert.ok(ev.filter((e) => e.ph === 'X' && e.cat.startsWith('wave.')).every((e) => e.cat === 'wave.PS'));
    const ordered = ev.filter((e) => e.cat === 'pops.ordered');
    assert.equal(ordered.length, j.draws.reduce((n, d) => n + d.waves, 0));
    for (const w of ev.filter((e) => e.cat === 'pops.wait')) {
      const o = ordered.find((x) => x.pid === w.pid && x.tid === w.tid)!;
      assert.equal(w.ts + w.dur!, o.ts, 'the wait ends where the ordered section starts');
    }
    assert.ok(ev.some((e) => e.name === 'process_name' && /^POPS CU \d+$/.test(String(e.args?.['name']))));
    // The text run says the same as without a timeline; both traces at once are a usage error.
    const plain = await gpusim('pops', 'oit', '--json');
    assert.equal(plain.out, r.out);
    const both = await gpusim('pops', 'oit', '--timeline', join(dir, 'a'), '--pops-trace', join(dir, 'b'));
    assert.equal(both.code, EXIT_ERROR);
    assert.match(both.err, /--timeline holds the POPS tracks of --pops-trace/);
    assert.ok(!existsSync(join(dir, 'a')) && !existsSync(join(dir, 'b')));
  });
});

test('draw --trace: every stage traced with its name, bounded by --trace-limit', async () => {
  await withDir(async (dir) => {
    const r = await gpusim('draw', join(ROOT, 'examples/triangle/scene.json'), '--trace', join(dir, 't.txt'), '--json');
    assert.equal(r.code, EXIT_OK, r.err);
    const s = (JSON.parse(r.out) as { stats: { gsInstructions: number; psInstructions: number } }).stats;
    const lines = readFileSync(join(dir, 't.txt'), 'utf8').trim().split('\n');
    assert.equal(lines.filter((l) => l.startsWith('GS wave ')).length, s.gsInstructions);
    assert.equal(lines.filter((l) => l.startsWith('PS wave ')).length, s.psInstructions);
    assert.ok(lines.every((l) => /^(GS|VS|PS) wave \d+ pc 0x[0-9a-f]+ exec 0x[0-9a-f]+  \S/.test(l)));
    const lim = await gpusim('draw', join(ROOT, 'examples/triangle/scene.json'), '--trace', join(dir, 'l.txt'), '--trace-limit', '5');
    assert.equal(lim.code, EXIT_OK);
    assert.match(lim.out, /wrote trace .* \(5 lines, \d+ past the limit\)/);
    assert.equal(readFileSync(join(dir, 'l.txt'), 'utf8').trim().split('\n').length, 6);
    const both = await gpusim('draw', join(ROOT, 'examples/pops-oit/scene.json'), '--timeline', join(dir, 'a'), '--pops-trace', join(dir, 'b'));
    assert.equal(both.code, EXIT_ERROR);
    assert.match(both.err, /--timeline holds the POPS tracks of --pops-trace/);
  });
});

test('memory ranges: contiguous lanes merge, strided lanes summarise, scattered lanes list', () => {
  const lanes = (n: number, base: number, stride: number, size: number) => Array.from({ length: n }, (_, l) => [base + l * stride, size]).flat();
  assert.equal(summariseRanges(lanes(32, 0x1000, 4, 4)), '0x1000..0x107f (128 B)');
  assert.equal(summariseRanges(lanes(4, 0x1000, 16, 4)), '4 x 4 B at 0x1000 stride 16 (..0x1033)');
  assert.equal(summariseRanges([0x2000, 4, 0x1000, 4, 0x1004, 4, 0x3000, 8]), '3 ranges in 0x1000..0x3007: 0x1000+8 0x2000+4 0x3000+8');
  assert.equal(summariseRanges([0x1000, 4, 0x1000, 4]), '0x1000..0x1003 (4 B)'); // a read-modify-write of one dword
});

/** Packet slices nest: each lies inside the slice of the IB (lower level) around it, siblings do not overlap. */
function checkNesting(ev: readonly Ev[]): void {
  const s = ev.filter((e) => e.ph === 'X').sort((a, b) => a.ts - b.ts || b.dur! - a.dur!);
  const stack: Ev[] = [];
  for (const e of s) {
    while (stack.length && e.ts >= stack[stack.length - 1]!.ts + stack[stack.length - 1]!.dur!) stack.pop();
    const top = stack[stack.length - 1];
    if (top) assert.ok(e.ts + e.dur! <= top.ts + top.dur!, `${e.name} at ${e.ts} crosses the end of ${top.name}`);
    stack.push(e);
  }
}

test('adreno run --timeline: a frame gpusim built (the demo\'s): every packet a slice inside its submit, over the CP cycles', async () => {
  await withDir(async (dir) => {
    writeFileSync(join(dir, 'f.rd'), demoFrameRd());
    const file = join(dir, 'cp.json');
    const r = await gpusim('adreno', 'run', join(dir, 'f.rd'), '--timeline', file, '--json');
    assert.equal(r.code, EXIT_OK, r.err);
    const j = JSON.parse(r.out) as { packets: number; cycles: number; stops: string[]; work: { kind: string }[]; events: { name: string; value: number }[] };
    assert.deepEqual(j.stops, ['done']);
    assert.equal(j.work.filter((w) => w.kind === 'draw').length, 3);
    assert.deepEqual(j.events.map((e) => [e.name, e.value]), [['CACHE_FLUSH_TS', 7]]);
    const t = JSON.parse(readFileSync(file, 'utf8')) as { traceEvents: Ev[]; otherData: { clock: string } };
    assert.match(t.otherData.clock, /CP cycles/);
    const packets = t.traceEvents.filter((e) => e.cat === 'cp.packet');
    assert.equal(packets.length, j.packets);
    const submit = t.traceEvents.filter((e) => e.cat === 'cp.submit');
    assert.equal(submit.length, 1);
    assert.equal(submit[0]!.dur, j.cycles);
    assert.equal(packets.filter((e) => e.name === 'CP_DRAW_INDX_OFFSET').length, 3);
    assert.ok(packets.some((e) => e.name === 'write RB_BLEND_CNTL' && e.args?.['level'] === 2)); // the draw state group, run by the draw
    checkNesting(t.traceEvents);
    // Without --timeline nothing is written (quiet).
    rmSync(file);
    assert.equal((await gpusim('adreno', 'run', join(dir, 'f.rd'))).code, EXIT_OK);
    assert.deepEqual(readdirSync(dir), ['f.rd']);
  });
});

test('adreno run --timeline on a real capture (../shared): one slice per executed packet, IBs nested', async (t) => {
  const cap = join(ROOT, SHARED_CAPTURE);
  if (!existsSync(cap)) return t.skip('../shared/adreno-captures not found');
  await withDir(async (dir) => {
    const file = join(dir, 'cp.json');
    const r = await gpusim('adreno', 'run', cap, '--timeline', file, '--json');
    const j = JSON.parse(r.out) as { packets: number; stops: string[] };
    const ev = (JSON.parse(readFileSync(file, 'utf8')) as { traceEvents: Ev[] }).traceEvents;
    assert.equal(ev.filter((e) => e.cat === 'cp.packet').length, j.packets);
    assert.equal(ev.filter((e) => e.cat === 'cp.submit').length, j.stops.length);
    checkNesting(ev);
  });
});

test('a timeline is bounded: past its slice limit one global mark says where recording stopped', () => {
  const ev = new TraceEvents();
  const tl = new WaveTimeline(ev, 1, 3);
  const obs = tl.stage('compute');
  const wave = (id: number) => ({ id, wgId: [0, 0, 0], state: 'ready', sleepUntil: 0, haltReason: '' }) as unknown as Wave;
  for (let k = 0; k < 5; k++) obs.turn(wave(k), 10 * k, 10 * k + 4);
  assert.equal(ev.events.filter((e) => e.ph === 'X').length, 3);
  assert.equal(tl.dropped, 2);
  const mark = ev.events.filter((e) => e.cat === 'timeline');
  assert.equal(mark.length, 1);
  assert.equal(mark[0]!.ts, 30);
  assert.equal(mark[0]!.s, 'g');
  // Under the limit: no mark.
  const ev2 = new TraceEvents();
  const o2 = new WaveTimeline(ev2, 1, 3).stage('compute');
  for (let k = 0; k < 3; k++) o2.turn(wave(k), 10 * k, 10 * k + 4);
  assert.equal(ev2.events.filter((e) => e.cat === 'timeline').length, 0);
});
