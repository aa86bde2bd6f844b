/**
 * `gpusim pops oit` and its `--pops-trace FILE`: the Chrome trace JSON (Perfetto opens it) holds,
 * per wave, its life, its wait for overlapped waves and its ordered section, consistent with the
 * statistics the command prints.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { popsCommand } from '../../src/cli/commands/pops.js';

function cli(values: Record<string, unknown>, positionals = ['oit']) {
  let out = '';
  let err = '';
  const code = popsCommand.run(values, positionals, { stdout: (s) => void (out += s), stderr: (s) => void (err += s), isTTY: false }) as number;
  return { code, out, err };
}

interface Ev { name: string; cat: string; ph: string; ts: number; dur?: number; pid: number; tid: number }

test('gpusim pops oit --pops-trace writes a Chrome trace of waits and ordered sections', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gpusim-pops-'));
  try {
    const file = join(dir, 'trace.json');
    const r = cli({ 'pops-trace': file, json: true });
    assert.equal(r.code, 0, r.err);
    const stats = JSON.parse(r.out) as { imageDiffers: number; draws: { waves: number; waitedWaves: number }[] };
    assert.equal(stats.imageDiffers, 0);
    const t = JSON.parse(readFileSync(file, 'utf8')) as { traceEvents: Ev[] };
    const waves = t.traceEvents.filter((e) => e.cat === 'wave' && e.ph === 'X');
    const waits = t.traceEvents.filter((e) => e.cat === 'pops.wait');
    const sections = t.traceEvents.filter((e) => e.cat === 'pops.ordered');
    assert.equal(waves.length, stats.draws.reduce((n, d) => n + d.waves, 0));
    assert.equal(waits.length, stats.draws.reduce((n, d) => n + d.waitedWaves, 0));
    assert.equal(sections.length, waves.length, 'every wave entered and left one ordered section');
    for (const s of sections) {
      const w = waves.find((x) => x.tid === s.tid)!;
      assert.ok(s.ts >= w.ts && s.ts + s.dur! <= w.ts + w.dur!, 'the ordered section lies inside the wave');
    }
    assert.ok(t.traceEvents.some((e) => e.ph === 'M' && e.name === 'thread_name'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('gpusim pops oit: a broken variant exits 1 with its diagnostic; bad options exit 2', () => {
  const r = cli({ variant: 'no-exit-wait' });
  assert.equal(r.code, 1);
  assert.match(r.out, /pops\.exit\.counters-outstanding/);
  assert.throws(() => cli({ samples: '3' }), /--samples 3: expected 1, 2, 4 or 8/);
  assert.equal(cli({}, ['nope']).code, 2);
  assert.equal(cli({ intrawave: true }).code, 2);
  const g10 = cli({ gfx: 'gfx10.3', intrawave: true });
  assert.equal(g10.code, 0, g10.out);
  assert.match(g10.out, /equals the serial primitive-order reference/);
});

test('gpusim pops oit --gfx gfx9 runs the gfx900 scene (wave64, s_sleep 3 wait loop) clean; load-at-exit on gfx11 is a finding', () => {
  const r = cli({ gfx: 'gfx9', seed: '3' });
  assert.equal(r.code, 0, r.out + r.err);
  assert.match(r.out, /equals the serial primitive-order reference/);
  const l = cli({ variant: 'load-at-exit', seed: '2' });
  assert.equal(l.code, 1);
  assert.match(l.out, /pops\.exit\.counters-outstanding/);
  assert.match(l.out, /late loads \d+/);
});
