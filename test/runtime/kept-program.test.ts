/**
 * Programs kept across dispatches (dispatch.ts keptProgram): a repeated dispatch of the same code
 * binds nothing again, yet reports exactly what a fresh Program would — bind-time findings and
 * "once" diagnostics once per dispatch — and another binding (VGPR count) gets its own Program.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Memory } from '../../src/core/memory.js';
import { Diagnostics } from '../../src/core/diagnostics.js';
import { assemble } from '../../src/amd/isa/target.js';
import { gfx11 } from '../../src/amd/isa/gfx11/index.js';
import { dispatch, type LoadedCode } from '../../src/runtime/dispatch.js';
import type { CodeObjectKernel } from '../../src/formats/amdgpu/codeobject.js';
import type { Op } from '../../src/amd/engine/program.js';
import { engineTime } from '../../src/amd/engine/timing.js';
import { loadManifest } from '../../src/runtime/manifest.js';
import { runManifest } from '../../src/runtime/run.js';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';

const KCODE = 0x6000_0000_0000;

// s[0:1] = the buffer. A TTMP write in user mode (a run-time "once" diagnostic), a VGPR past the
// 16 allocated (a bind-time finding), then each lane stores its id.
const SRC = `s_mov_b32 ttmp0, 1
v_mov_b32_e32 v20, 1
v_lshlrev_b32_e32 v1, 2, v0
global_store_b32 v1, v0, s[0:1]
s_endpgm`;

function kernel(vgprs: number): CodeObjectKernel {
  return {
    name: 'k', entryAddress: 0,
    kd: {
      generation: 'gfx11', group_segment_fixed_size: 0, rsrc1: {},
      derived: { waveSize: 32, vgprs, userSgprs: [{ name: 'kernarg_segment_ptr', reg: 0, count: 2 }], systemSgprs: [], workitemIdMode: 0 },
    },
  } as unknown as CodeObjectKernel;
}

function run(code: LoadedCode, vgprs: number, engine: 'fast' | 'interp' = 'fast', traced = false) {
  const mem = new Memory();
  mem.map(KCODE, 4096, 'code');
  mem.writeBytes(KCODE, new Uint8Array(code.words.buffer.slice(0)));
  const buf = mem.alloc(256, 'buf');
  const diag = new Diagnostics();
  const ops = new Set<Op>();
  const stats = dispatch(gfx11, code, kernel(vgprs), mem, diag, {
    grid: [64, 1, 1], block: [64, 1, 1], kernargVa: buf.base, dynamicLds: 0, order: 'roundrobin', seed: 1, maxInstructions: 10000,
    dispatchPacketVa: 0, queueVa: 0, scratchPerLane: 0, engine, ...(traced ? { trace: (_w, op) => void ops.add(op) } : {}),
  });
  const out = new Uint32Array(64);
  for (let i = 0; i < 64; i++) out[i] = mem.read32(buf.base + 4 * i);
  return { stats, diags: diag.list.map((d) => `${d.id}@${d.where.pc?.toString(16)}/w${d.where.wave}`), out, ops };
}

test('kept programs: a repeated dispatch reuses the bound ops and reports what the first did, once per dispatch', () => {
  const words = Uint32Array.from(assemble(gfx11, SRC));
  const code = { co: null, loadBase: KCODE, textVa: KCODE, words } as unknown as LoadedCode;
  const first = run(code, 16, 'fast', true);
  assert.deepEqual(first.diags.map((d) => d.split('@')[0]), ['gfx11.ttmp.write-user', 'gfx11.vgpr.dst-out-of-range'], 'each once, for two waves');
  assert.deepEqual([...first.out], Array.from({ length: 64 }, (_, i) => i));
  for (const traced of [true, false]) {
    const again = run(code, 16, 'fast', traced);
    assert.deepEqual(again.diags, first.diags, 'the same diagnostics again');
    assert.deepEqual(again.out, first.out);
    assert.equal(again.stats.waveInstructions, first.stats.waveInstructions);
    if (traced) assert.deepEqual([...again.ops], [...first.ops], 'the same bound ops: nothing was bound again');
  }
  // The same code with 32 VGPRs is another binding: its own ops, and v20 is in range there.
  const wide = run(code, 32, 'fast', true);
  assert.deepEqual(wide.diags.map((d) => d.split('@')[0]), ['gfx11.ttmp.write-user']);
  assert.ok([...wide.ops].every((op) => !first.ops.has(op)));
  // And the interpreter binds its own too (engine is part of the binding).
  const interp = run(code, 16, 'interp', true);
  assert.deepEqual(interp.diags, first.diags);
  assert.ok([...interp.ops].every((op) => !first.ops.has(op)));
});

test('kept programs: by code object, reused for equal words and not for other words', () => {
  const co = {};
  const words = Uint32Array.from(assemble(gfx11, SRC));
  const first = run({ co, loadBase: KCODE, textVa: KCODE, words } as unknown as LoadedCode, 16, 'fast', true);
  // The code object loaded again: another array, the same words.
  const again = run({ co, loadBase: KCODE, textVa: KCODE, words: words.slice() } as unknown as LoadedCode, 16, 'fast', true);
  assert.deepEqual([...again.ops], [...first.ops]);
  // Other words at the same address (patched code): bound afresh, and they run.
  const other = Uint32Array.from(assemble(gfx11, SRC.replace('v_mov_b32_e32 v20, 1', 'v_mov_b32_e32 v2, 1')));
  const patched = run({ co, loadBase: KCODE, textVa: KCODE, words: other } as unknown as LoadedCode, 16, 'fast', true);
  assert.deepEqual(patched.diags.map((d) => d.split('@')[0]), ['gfx11.ttmp.write-user']);
  assert.ok([...patched.ops].every((op) => !first.ops.has(op)));
  assert.deepEqual(patched.out, first.out);
});

test('kept programs: a manifest run again in one process binds nothing again and gives the same results', () => {
  // manifestLaunch reads the code object afresh each time; loadCodeObjectCached hands the second
  // run the first one's CodeObject (same path, same bytes), so its kept Program is reused.
  const root = join(fileURLToPath(import.meta.url), '../../../..');
  // (The fast engine chosen: left to itself, this 16-wave grid would start on the reference
  // handlers and build its blocks in a later run: engine-tier.test.ts.)
  const m = loadManifest(join(root, 'kernels/manifests/conv2d.json'));
  const first = runManifest(m, { engine: 'fast' });
  const binds = engineTime.binds;
  const blocks = engineTime.blocks;
  const again = runManifest(m, { engine: 'fast' });
  assert.equal(engineTime.binds, binds, 'no op bound again');
  assert.equal(engineTime.blocks, blocks, 'no block built again');
  assert.deepEqual(again.buffers['out'], first.buffers['out']);
  assert.equal(again.report.waveInstructions, first.report.waveInstructions);
  assert.deepEqual(again.report.diagnostics, first.report.diagnostics);
});
