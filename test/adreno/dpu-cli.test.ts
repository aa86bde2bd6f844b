/**
 * `gpusim adreno display`: the bundled example composes, writes a PNG and a trace; bad input is
 * one line and exit code 2; unknown keys are named.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { main } from '../../src/cli/main.js';

const EXAMPLE = fileURLToPath(new URL('../../../examples/display/frame.json', import.meta.url));

async function run(args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(args, { stdout: (s) => void (out += s), stderr: (s) => void (err += s), isTTY: false });
  return { code, out, err };
}

test('adreno display: the example frame composes to a PNG and a Perfetto trace', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'gpusim-dpu-'));
  const png = join(dir, 'frame.png');
  const trace = join(dir, 'trace.json');
  const r = await run(['adreno', 'display', EXAMPLE, '--out', png, '--timeline', trace]);
  assert.equal(r.code, 0, r.out + r.err);
  assert.match(r.out, /mode 64x48 @ 60\.000 Hz/);
  assert.match(r.out, /histogram: 256 bins/);
  const { decode } = await import('fast-png');
  const img = decode(readFileSync(png));
  assert.equal(img.width, 64);
  assert.equal(img.height, 48);
  const t = JSON.parse(readFileSync(trace, 'utf8')) as { traceEvents: { ph: string }[] };
  assert.ok(t.traceEvents.some((e) => e.ph === 'X') && t.traceEvents.some((e) => e.ph === 'i'));
  const j = JSON.parse((await run(['adreno', 'display', EXAMPLE, '--json'])).out) as { histogram: number[]; irqs: { kind: string }[]; counters: Record<string, number>; commits: unknown[] };
  assert.equal(j.histogram.length, 256);
  assert.equal(j.histogram.reduce((a, b) => a + b, 0), 64 * 48);
  assert.equal(j.irqs.filter((i) => i.kind === 'vsync').length, j.counters['mdss_fb0_retire']);
  assert.equal(j.commits.length, 2);
  // The committed image is this output (reviewed when it changes).
  const committed = decode(readFileSync(fileURLToPath(new URL('../../../examples/display/frame.png', import.meta.url))));
  assert.deepEqual(committed.data, img.data);
  // The same file twice gives the same bytes.
  const png2 = join(dir, 'again.png');
  assert.equal((await run(['adreno', 'display', EXAMPLE, '--out', png2])).code, 0);
  assert.deepEqual(readFileSync(png2), readFileSync(png));
});

test('adreno display: bad input is one line and exit code 2; unknown keys are named', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'gpusim-dpu-'));
  const frame = JSON.parse(readFileSync(EXAMPLE, 'utf8')) as Record<string, unknown>;
  const write = (o: unknown): string => {
    const f = join(dir, `f${Math.random().toString(36).slice(2)}.json`);
    writeFileSync(f, JSON.stringify(o));
    return f;
  };
  const cases: [unknown, RegExp][] = [
    [{ ...frame, colour: 1 }, /unknown key 'colour'/],
    [{ ...frame, layers: [{ ...(frame['layers'] as object[])[0]!, blnd: 'opaque' }] }, /unknown key 'layers\[0\]\.blnd'/],
    [{ ...frame, dspp: { ...(frame['dspp'] as object), gamut: { size: 7, entries: [] } } }, /gamut\.size: must be 17, 13 or 5/],
    [{ ...frame, mode: { ...(frame['mode'] as object), vrefresh: 30 } }, /vrefresh 30 does not match/],
    [{ ...frame, mixer: { ...(frame['mixer'] as object), out_size: [32, 48] } }, /mixer\.out_size 32x48 must equal the mode's active 64x48/],
    [{ ...frame, buffers: { ...(frame['buffers'] as object), extra: { format: 'NV99', width: 1, height: 1, pixels: [] } } }, /unknown format "NV99"/],
  ];
  for (const [o, re] of cases) {
    const r = await run(['adreno', 'display', write(o), '--out', join(dir, 'x.png')]);
    assert.equal(r.code, 2, r.out + r.err);
    assert.match(r.err, re);
    assert.equal(r.err.trim().split('\n').length, 1, r.err);
  }
  const nf = join(dir, 'broken.json');
  writeFileSync(nf, '{ "mode": ');
  assert.equal((await run(['adreno', 'display', nf])).code, 2);
});

test('adreno display: a commit writing a LUT before ping-pong done is a finding (exit 1)', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'gpusim-dpu-'));
  const frame = JSON.parse(readFileSync(EXAMPLE, 'utf8')) as Record<string, unknown>;
  const f = join(dir, 'early.json');
  writeFileSync(f, JSON.stringify({ ...frame, timeline: { commits: [{ start_us: 8000 }, { start_us: 9000, program: ['gc'], direct: 'with_postproc' }] } }));
  const r = await run(['adreno', 'display', f]);
  assert.equal(r.code, 1, r.out + r.err);
  assert.match(r.out, /adreno\.dpu\.direct-before-pingpong/);
});

test('draw --gpu a630 --surface writes the UBWC target the display example reads; the example composes to its PNG', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'gpusim-dpu-'));
  const ex = fileURLToPath(new URL('../../../examples/display-ubwc/', import.meta.url));
  const surf = join(dir, 'rt.ubwc');
  const r = await run(['draw', join(ex, 'scene.json'), '--gpu', 'a630', '--surface', surf]);
  assert.equal(r.code, 0, r.err);
  assert.match(r.out, /surface .*rt\.ubwc/);
  assert.deepEqual(readFileSync(surf), readFileSync(join(ex, 'rt.ubwc')));
  const png = join(dir, 'frame.png');
  assert.equal((await run(['adreno', 'display', join(ex, 'frame.json'), '--out', png])).code, 0);
  assert.deepEqual(readFileSync(png), readFileSync(join(ex, 'frame.png')));
  const bad = await run(['draw', join(ex, 'scene.json'), '--surface', surf, '--out', join(dir, 'x.png')]);
  assert.equal(bad.code, 2);
  assert.match(bad.err, /draw: --surface needs --gpu/);
});
