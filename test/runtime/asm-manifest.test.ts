/**
 * A manifest whose `codeObject` is an assembly file: `gpusim run` assembles it (labels,
 * `.amdhsa_kernel`, `.amdgpu_metadata`) and runs it. examples/asm-kernel/sum.json is a hand-written
 * gfx1100 loop kernel; its output is checked here against a reference computed in the test, in
 * both schedulers and both engines, and a broken source is one line naming the file and line.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from '../../tools/gen/run.js';
import { loadManifest } from '../../src/runtime/manifest.js';
import { runManifest } from '../../src/runtime/run.js';
import { main } from '../../src/cli/main.js';
import { InputError } from '../../src/core/errors.js';
import { CODE_BASE } from '../../src/runtime/dispatch.js';

const DIR = join(ROOT, 'examples/asm-kernel');

function reference(): Uint32Array {
  const input = new Uint32Array(new Uint8Array(readFileSync(join(DIR, 'in.bin'))).buffer);
  const count = 10;
  return input.map((x) => (count * x + (count * (count - 1)) / 2) >>> 0);
}

test('examples/asm-kernel: the assembly manifest runs and matches the reference', () => {
  const want = reference();
  assert.deepEqual(new Uint32Array(new Uint8Array(readFileSync(join(DIR, 'out.expected.bin'))).buffer), want, 'committed expectation');
  for (const opts of [{}, { order: 'random' as const, seed: 7 }, { engine: 'interp' as const }]) {
    const r = runManifest(loadManifest(join(DIR, 'sum.json')), opts);
    assert.equal(r.exitCode, 0, JSON.stringify(r.json.diagnostics));
    assert.deepEqual(r.json.diagnostics, []);
    assert.equal(r.json.target, 'gfx1100');
    assert.equal(r.json.waveSize, 32);
    assert.equal(r.json.waves, 8);
    const got = new Uint32Array(r.buffers.out!.buffer, r.buffers.out!.byteOffset, 256);
    assert.deepEqual(got, want);
  }
});

test('gpusim run takes the assembly manifest; a bad line in the source is one error line, exit 2', async () => {
  let out = '';
  let err = '';
  const io = { stdout: (s: string) => { out += s; }, stderr: (s: string) => { err += s; }, isTTY: false };
  assert.equal(await main(['run', join(DIR, 'sum.json')], io), 0, err);
  assert.match(out, /^sum \(gfx1100 wave32\): 4 workgroups, 8 waves/);
  assert.match(out, /out: ok\nPASS/);

  const dir = mkdtempSync(join(tmpdir(), 'gpusim-asm-manifest-'));
  for (const f of ['sum.json', 'in.bin', 'out.expected.bin']) copyFileSync(join(DIR, f), join(dir, f));
  writeFileSync(join(dir, 'sum.s'), readFileSync(join(DIR, 'sum.s'), 'utf8').replace('s_branch loop', 's_branch nowhere'));
  assert.throws(() => runManifest(loadManifest(join(dir, 'sum.json'))), (e: unknown) => e instanceof InputError && /codeObject: .*sum\.s: line 29: s_branch: invalid operand 'nowhere'/.test(e.message));
  out = '';
  err = '';
  assert.equal(await main(['run', join(dir, 'sum.json')], io), 2);
  assert.equal(out, '');
  assert.equal(err.trimEnd().split('\n').length, 1, err);
  assert.match(err, /line 29/);
});

/** The example kernel in each target's spelling, without a metadata block (derived 8-byte arguments). */
function kernelFor(mcpu: string, wave: 32 | 64): string {
  const gfx11 = mcpu === 'gfx1100';
  const gfx9 = mcpu === 'gfx900';
  return [
    `.amdgcn_target "amdgcn-amd-amdhsa--${mcpu}"`,
    '.text',
    'sum:',
    `  ${gfx11 ? 's_load_b128' : 's_load_dwordx4'} s[4:7], s[0:1], 0x0`,
    `  ${gfx11 ? 's_load_b32' : 's_load_dword'} s8, s[0:1], 0x10`,
    '  v_and_b32 v0, 0x3ff, v0',
    '  s_lshl_b32 s9, s2, 6',
    `  ${gfx9 ? 'v_add_u32' : 'v_add_nc_u32'} v0, s9, v0`,
    '  v_lshlrev_b32 v0, 2, v0',
    '  s_waitcnt lgkmcnt(0)',
    `  ${gfx11 ? 'global_load_b32' : 'global_load_dword'} v1, v0, s[4:5]`,
    '  v_mov_b32 v2, 0',
    '  s_mov_b32 s10, 0',
    '  s_waitcnt vmcnt(0)',
    'loop: s_cmp_ge_u32 s10, s8',
    '  s_cbranch_scc1 done',
    `  ${gfx9 ? 'v_add_u32' : 'v_add_nc_u32'} v2, v2, v1`,
    `  ${gfx9 ? 'v_add_u32' : 'v_add_nc_u32'} v2, s10, v2`,
    '  s_add_u32 s10, s10, 1',
    '  s_branch loop',
    `done: ${gfx11 ? 'global_store_b32' : 'global_store_dword'} v0, v2, s[6:7]`,
    '  s_endpgm',
    '.rodata',
    '.amdhsa_kernel sum',
    '  .amdhsa_next_free_vgpr 3',
    '  .amdhsa_next_free_sgpr 11',
    '  .amdhsa_user_sgpr_kernarg_segment_ptr 1',
    ...(gfx9 ? [] : [`  .amdhsa_wavefront_size32 ${wave === 32 ? 1 : 0}`]),
    '  .amdhsa_kernarg_size 20',
    '.end_amdhsa_kernel',
    '',
  ].join('\n');
}

for (const [mcpu, wave] of [['gfx1100', 64], ['gfx1030', 32], ['gfx1030', 64], ['gfx900', 64]] as const) {
  test(`${mcpu} wave${wave}: an assembly manifest without a metadata block runs (derived by-value arguments)`, () => {
    const dir = mkdtempSync(join(tmpdir(), 'gpusim-asm-gen-'));
    writeFileSync(join(dir, 'k.s'), kernelFor(mcpu, wave));
    for (const f of ['in.bin', 'out.expected.bin']) copyFileSync(join(DIR, f), join(dir, f));
    const manifest = JSON.parse(readFileSync(join(DIR, 'sum.json'), 'utf8')) as Record<string, unknown>;
    writeFileSync(join(dir, 'k.json'), JSON.stringify({ ...manifest, codeObject: 'k.s' }));
    const r = runManifest(loadManifest(join(dir, 'k.json')));
    assert.equal(r.exitCode, 0, JSON.stringify(r.json.expectations));
    assert.equal(r.json.target, mcpu);
    assert.equal(r.json.waveSize, wave);
    assert.deepEqual(r.json.diagnostics, []);
    assert.deepEqual(new Uint32Array(r.buffers.out!.buffer, r.buffers.out!.byteOffset, 256), reference());
  });
}

test('run.json numbers a diagnostic PC as --trace does (pcAddress keeps the absolute address)', async () => {
  const lines: string[] = [];
  const r = runManifest(loadManifest(join(DIR, 'sum.json')), { maxInstructions: 40, trace: (l) => lines.push(l) });
  const d = r.json.diagnostics.find((x) => x.id === 'gpusim.instruction-budget');
  assert.ok(d, JSON.stringify(r.json.diagnostics));
  const pc = d.where['pc'];
  assert.equal(typeof pc, 'string');
  assert.match(String(pc), /^0x[0-9a-f]+$/);
  assert.equal(d.where['pcAddress'], '0x' + (CODE_BASE + Number(pc)).toString(16));
  // The wave that ran out of budget was about to run that PC; the trace printed the same numbering.
  const tracedPcs = new Set(lines.map((l) => /^wave \d+ pc (0x[0-9a-f]+)/.exec(l)?.[1]));
  assert.ok(tracedPcs.has(String(pc)), `${String(pc)} not among traced PCs ${[...tracedPcs].join(' ')}`);
  // --json prints the same record; the text summary shows the PC without the absolute address.
  let out = '';
  const io = { stdout: (s: string) => { out += s; }, stderr: () => {}, isTTY: false };
  await main(['run', join(DIR, 'sum.json'), '--json', '--max-instructions', '40'], io);
  const j = JSON.parse(out) as { diagnostics: { id: string; where: Record<string, unknown> }[] };
  assert.deepEqual(j.diagnostics.find((x) => x.id === 'gpusim.instruction-budget')?.where, d.where);
  out = '';
  await main(['run', join(DIR, 'sum.json'), '--max-instructions', '40'], io);
  assert.match(out, new RegExp(`gpusim\\.instruction-budget \\(pc ${String(pc)}, wave \\d+\\)`));
});
