/**
 * Compute dispatches through the PM4 command processor on every generation: the clang-19 builds
 * of the suite kernels for gfx900, gfx1030 (wave32 and wave64) and gfx1100 give byte for byte the
 * outputs (and the instruction counts) of a direct `gpusim run`, launched with DISPATCH_DIRECT in
 * work-items and with DISPATCH_INDIRECT of workgroup counts (PARTIAL_TG_EN for the last group);
 * COMPUTE_START_X/Y/Z moves the first workgroup; the waves launch as COMPUTE_PGM_RSRC* say; a
 * kernel of another generation, a CS_W32_EN that disagrees and impossible starts are diagnosed.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, loadSuiteManifest } from '../amd/kernels/suite.js';
import { runManifest } from '../../src/runtime/run.js';
import type { Manifest } from '../../src/runtime/manifest.js';
import { Pm4Builder } from '../../src/amd/cp/builder.js';
import { LDS_ALLOC } from '../../src/amd/exec/lds-alloc.gen.js';
import { Memory } from '../../src/core/memory.js';
import { Diagnostics } from '../../src/core/diagnostics.js';
import { loadCodeObject } from '../../src/formats/amdgpu/codeobject.js';
import { loadCode } from '../../src/runtime/dispatch.js';
import { setupLaunch } from '../../src/runtime/hsa.js';
import { emitKernelDispatch, pm4Machine } from '../../src/runtime/pm4.js';
import { main } from '../../src/cli/main.js';

/** The builds each generation's CP runs: [mcpu, code object suffix]. */
const BUILDS: readonly (readonly [string, string])[] = [['gfx900', '.co'], ['gfx1030', '.co'], ['gfx1030', '.w64.co'], ['gfx1100', '.co']];
/**
 * Kernels covering what a launch sets up: a partial last workgroup (vadd), 3D workgroup and
 * work-item ids (grid3d), LDS and barriers (reduce_lds), dynamic LDS (reduce_dynlds), scratch
 * (scratch_array), the dispatch packet through dispatch_ptr (query_sizes), hidden arguments
 * (global_offset).
 */
const KERNELS = ['vadd', 'grid3d', 'reduce_lds', 'reduce_dynlds', 'scratch_array', 'query_sizes', 'global_offset'];

function manifestFor(name: string, cpu: string, suffix: string): Manifest {
  const m = loadSuiteManifest(name, 32);
  return { ...m, codeObject: m.codeObject.replace('/gfx1100/', `/${cpu}/`).replace(/\.co$/, suffix) };
}

for (const [cpu, suffix] of BUILDS) {
  test(`${cpu}${suffix}: PM4 DISPATCH_DIRECT and DISPATCH_INDIRECT give the bytes of gpusim run`, () => {
    for (const name of KERNELS) {
      const m = manifestFor(name, cpu, suffix);
      const direct = runManifest(m);
      assert.equal(direct.exitCode, 0, `${name}: the direct run passes`);
      for (const form of ['direct', 'indirect'] as const) {
        const via = runManifest(m, { pm4: form });
        const what = `${cpu}${suffix} ${name} --pm4 ${form}`;
        assert.deepEqual(via.report.diagnostics, [], what);
        assert.equal(via.exitCode, 0, what);
        for (const out of m.outputs) assert.deepEqual(via.buffers[out], direct.buffers[out], `${what}: ${out}`);
        assert.deepEqual([via.report.waves, via.report.workgroups, via.report.waveInstructions], [direct.report.waves, direct.report.workgroups, direct.report.waveInstructions], what);
      }
    }
  });
}

/** vadd of `cpu` loaded in a fresh memory with its arguments set up, ready for a hand-built stream. */
function vaddLaunch(cpu: string, n: number): { mem: Memory; diag: Diagnostics; code: ReturnType<typeof loadCode>; kernel: ReturnType<typeof loadCodeObject>['kernels'][number]; setup: ReturnType<typeof setupLaunch>; c: () => Float32Array; a: Float32Array; b: Float32Array } {
  const co = loadCodeObject(new Uint8Array(readFileSync(join(ROOT, `kernels/bin/${cpu}/vadd.co`))), 'vadd.co');
  const mem = new Memory();
  const diag = new Diagnostics();
  const code = loadCode(mem, co);
  const kernel = co.kernels[0]!;
  const a = new Float32Array(n).map((_, i) => i * 0.75 - 3);
  const b = new Float32Array(n).map((_, i) => 1 / (i + 2));
  const sa = mem.alloc(4 * n, 'a', 256, new Uint8Array(a.buffer.slice(0)));
  const sb = mem.alloc(4 * n, 'b', 256, new Uint8Array(b.buffer.slice(0)));
  const sc = mem.alloc(4 * n, 'c');
  const count = new Uint8Array(4);
  new DataView(count.buffer).setUint32(0, n, true);
  const setup = setupLaunch(mem, kernel, [{ kind: 'pointer', va: sa.base }, { kind: 'pointer', va: sb.base }, { kind: 'pointer', va: sc.base }, { kind: 'bytes', bytes: count }], [n, 1, 1], [64, 1, 1], code.loadBase + kernel.kdAddress);
  return { mem, diag, code, kernel, setup, a, b, c: () => new Float32Array(sc.u8.slice(0, 4 * n).buffer) };
}

/**
 * Every register of a kernel's dispatch, set by running emitKernelDispatch's stream with a
 * DISPATCH_INDIRECT of zero workgroups (which launches nothing); the caller then changes
 * registers and dispatches by hand.
 */
function primed(gen: 'gfx9' | 'gfx103' | 'gfx11', mem: Memory, code: ReturnType<typeof loadCode>, kernel: ReturnType<typeof loadCodeObject>['kernels'][number], setup: ReturnType<typeof setupLaunch>, grid: readonly [number, number, number], block: readonly [number, number, number]): Uint32Array {
  return emitKernelDispatch(new Pm4Builder(gen), code, kernel, setup, grid, block, { units: 'groups', indirectVa: mem.alloc(12, 'zero-dims').base }).finish();
}

const GEN_OF: Record<string, 'gfx9' | 'gfx103' | 'gfx11'> = { gfx900: 'gfx9', gfx1030: 'gfx103', gfx1100: 'gfx11' };

test('COMPUTE_START_X: workgroups start there and DIM_X is the end value, on every generation', () => {
  for (const cpu of ['gfx900', 'gfx1030', 'gfx1100']) {
    const n = 640;
    const v = vaddLaunch(cpu, n);
    const gen = GEN_OF[cpu]!;
    // Workgroups 3..9 of a 10-group grid: work-items 192..639.
    const words = emitKernelDispatch(new Pm4Builder(gen), v.code, v.kernel, v.setup, [n - 192, 1, 1], [64, 1, 1], { units: 'groups', start: [3, 0, 0] }).finish();
    const { cp, results } = pm4Machine(gen, v.mem, v.diag, [v.code]);
    cp.run(words);
    assert.deepEqual(v.diag.list, [], cpu);
    assert.deepEqual(cp.dispatches[0]!.dims, [10, 1, 1], `${cpu}: DIM_X = start + count`);
    assert.deepEqual([results[0]!.start, results[0]!.stats.workgroups], [[3, 0, 0], 7], cpu);
    const c = v.c();
    for (let i = 0; i < n; i++) assert.equal(c[i], i < 192 ? 0 : Math.fround(v.a[i]! + v.b[i]!), `${cpu} c[${i}]`);
    // FORCE_START_AT_000 ignores COMPUTE_START: all ten groups run. The first stream sets every
    // register through an indirect dispatch of zero groups (which launches nothing).
    const w = vaddLaunch(cpu, n);
    const m2 = pm4Machine(gen, w.mem, w.diag, [w.code]);
    m2.cp.run(primed(gen, w.mem, w.code, w.kernel, w.setup, [n, 1, 1], [64, 1, 1]));
    const b = new Pm4Builder(gen);
    m2.cp.run(b.setShReg('COMPUTE_START_X', 5, 0, 0).dispatchDirect(10, 1, 1, b.dispatchInitiator({ forceStartAt000: true, wave32: w.kernel.kd.derived.waveSize === 32 })).finish());
    assert.deepEqual(w.diag.list, [], cpu);
    assert.deepEqual(m2.results.map((r) => [r.start, r.stats.workgroups]), [[[0, 0, 0], 10]], `${cpu}: FORCE_START_AT_000`);
    const c2 = w.c();
    for (let i = 0; i < n; i++) assert.equal(c2[i], Math.fround(w.a[i]! + w.b[i]!), `${cpu} FORCE_START_AT_000 c[${i}]`);
  }
});

test('a kernel of another generation is diagnosed and not run; the matching generation runs quietly', () => {
  for (const [cpu, gen] of [['gfx1100', 'gfx9'], ['gfx900', 'gfx103'], ['gfx1030', 'gfx11'], ['gfx900', 'gfx11']] as const) {
    const v = vaddLaunch(cpu, 128);
    const { cp, results } = pm4Machine(gen, v.mem, v.diag, [v.code]);
    cp.run(emitKernelDispatch(new Pm4Builder(gen), v.code, v.kernel, v.setup, [128, 1, 1], [64, 1, 1]).finish());
    assert.deepEqual(v.diag.list.map((d) => d.id), ['pm4.dispatch.target-mismatch'], `${cpu} on ${gen}`);
    assert.match(v.diag.list[0]!.message, new RegExp(`${cpu} code.*recorded, not run`));
    assert.deepEqual([results.length, cp.dispatches[0]!.executed], [0, false]);
    assert.ok(v.c().every((x) => x === 0), `${cpu} on ${gen}: nothing written`);
  }
});

test('CS_W32_EN that disagrees with the kernel is a warning (gfx1030 and gfx1100); gfx900 has no such bit', () => {
  for (const cpu of ['gfx1030', 'gfx1100']) {
    const gen = GEN_OF[cpu]!;
    const v = vaddLaunch(cpu, 128);
    assert.equal(v.kernel.kd.derived.waveSize, 32);
    const words = primed(gen, v.mem, v.code, v.kernel, v.setup, [128, 1, 1], [64, 1, 1]);
    const { cp, results } = pm4Machine(gen, v.mem, v.diag, [v.code]);
    cp.run(words);
    const b = new Pm4Builder(gen);
    cp.run(b.dispatchDirect(2, 1, 1, b.dispatchInitiator({ forceStartAt000: true })).finish());
    assert.deepEqual(v.diag.list.map((d) => d.id), ['pm4.dispatch.wave-size-mismatch'], cpu);
    assert.match(v.diag.list[0]!.message, /CS_W32_EN = 0 but vadd is compiled for wave32/);
    assert.equal(results.length, 1, `${cpu}: launched in the compiled wave size`);
  }
  // gfx900: the initiator has no CS_W32_EN field; the builder leaves it out and nothing is reported.
  const v = vaddLaunch('gfx900', 128);
  const { cp } = pm4Machine('gfx9', v.mem, v.diag, [v.code]);
  cp.run(emitKernelDispatch(new Pm4Builder('gfx9'), v.code, v.kernel, v.setup, [128, 1, 1], [64, 1, 1]).finish());
  assert.deepEqual(v.diag.list, []);
});

test('the waves launch as COMPUTE_PGM_RSRC2 says, not as the descriptor: fewer work-item id VGPRs change grid3d', () => {
  for (const cpu of ['gfx900', 'gfx1030', 'gfx1100']) {
    const m = manifestFor('grid3d', cpu, '.co');
    const direct = runManifest(m);
    const co = loadCodeObject(new Uint8Array(readFileSync(m.codeObject)), 'grid3d.co');
    const kernel = co.kernels[0]!;
    assert.equal(kernel.kd.rsrc2.TIDIG_COMP_CNT, 2, `${cpu}: grid3d reads x, y and z ids`);
    const gen = GEN_OF[cpu]!;
    const mem = new Memory();
    const diag = new Diagnostics();
    const code = loadCode(mem, co);
    const out = mem.alloc(128 * 4, 'out');
    const setup = setupLaunch(mem, kernel, [{ kind: 'pointer', va: out.base }], m.grid, m.block, code.loadBase + kernel.kdAddress);
    const b = new Pm4Builder(gen);
    const regs = primed(gen, mem, code, kernel, setup, m.grid, m.block);
    const rsrc2 = (kernel.kd.compute_pgm_rsrc2 & ~(3 << 11)) >>> 0; // TIDIG_COMP_CNT = 0: only the x id
    b.setShReg('COMPUTE_PGM_RSRC2', rsrc2).dispatchDirect(2, 2, 2, b.dispatchInitiator({ forceStartAt000: true, wave32: kernel.kd.derived.waveSize === 32 }));
    const { cp, results } = pm4Machine(gen, mem, diag, [code]);
    cp.run(regs);
    cp.run(b.finish());
    assert.deepEqual(diag.list.map((d) => d.id), ['pm4.dispatch.rsrc-mismatch'], cpu);
    assert.match(diag.list[0]!.message, /COMPUTE_PGM_RSRC2 is 0x[0-9a-f]+ but grid3d's descriptor says .*launch as the register says/);
    assert.equal(results.length, 1);
    assert.notDeepEqual(out.u8.slice(0, 512), direct.buffers['out'], `${cpu}: y/z ids are no longer set up`);
  }
});

test('impossible starts are diagnosed: past the end, and with USE_THREAD_DIMENSIONS', () => {
  const v = vaddLaunch('gfx1030', 128);
  const { cp, results } = pm4Machine('gfx103', v.mem, v.diag, [v.code]);
  cp.run(primed('gfx103', v.mem, v.code, v.kernel, v.setup, [128, 1, 1], [64, 1, 1]));
  const b = new Pm4Builder('gfx103');
  cp.run(b.setShReg('COMPUTE_START_X', 4, 0, 0).dispatchDirect(2, 1, 1, b.dispatchInitiator({ wave32: true }))
    .dispatchDirect(128, 1, 1, b.dispatchInitiator({ wave32: true, useThreadDimensions: true })).finish());
  assert.deepEqual(v.diag.list.map((d) => d.id), ['pm4.dispatch.start-past-end', 'pm4.dispatch.start-with-thread-dimensions']);
  assert.equal(results.length, 0);
});

test('gpusim run --pm4 direct|indirect on a gfx900 manifest: same outputs, and a bad form is a usage error', async () => {
  const m = join(ROOT, 'kernels/manifests/vadd.json');
  const dir = join(ROOT, 'dist/test-pm4-run');
  const tmp = join(dir, 'vadd-gfx900.json');
  const { mkdirSync, writeFileSync, rmSync } = await import('node:fs');
  mkdirSync(dir, { recursive: true });
  const json = JSON.parse(readFileSync(m, 'utf8')) as Record<string, unknown> & { expect: Record<string, { file: string }> };
  json.codeObject = join(ROOT, 'kernels/bin/gfx900/vadd.co');
  for (const e of Object.values(json.expect)) e.file = join(ROOT, 'kernels/manifests', e.file);
  writeFileSync(tmp, JSON.stringify(json));
  try {
    for (const form of ['direct', 'indirect']) {
      let out = '';
      const code = await main(['run', tmp, '--pm4', form, '--json'], { stdout: (s) => { out += s; }, stderr: () => {}, isTTY: false });
      assert.equal(code, 0, form);
      const r = JSON.parse(out) as { ok: boolean; target: string; diagnostics: unknown[] };
      assert.deepEqual([r.ok, r.target, r.diagnostics], [true, 'gfx900', []], form);
    }
    let err = '';
    const bad = await main(['run', tmp, '--pm4', 'sideways'], { stdout: () => {}, stderr: (s) => { err += s; }, isTTY: false });
    assert.equal(bad, 2);
    assert.match(err, /--pm4 must be direct or indirect/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('LDS comes from COMPUTE_PGM_RSRC2.LDS_SIZE: the dynamic LDS a driver adds is no mismatch; less than the static LDS is diagnosed', () => {
  for (const cpu of ['gfx900', 'gfx1030', 'gfx1100']) {
    const gen = GEN_OF[cpu]!;
    const m = manifestFor('reduce_lds', cpu, '.co');
    const co = loadCodeObject(new Uint8Array(readFileSync(m.codeObject)), 'reduce_lds.co');
    const kernel = co.kernels[0]!;
    assert.ok(kernel.kd.group_segment_fixed_size > 0, `${cpu}: reduce_lds has static LDS`);
    const mem = new Memory();
    const diag = new Diagnostics();
    const code = loadCode(mem, co);
    const inp = mem.alloc(4096, 'in');
    const out = mem.alloc(16, 'partial');
    const setup = setupLaunch(mem, kernel, [{ kind: 'pointer', va: inp.base }, { kind: 'pointer', va: out.base }], m.grid, m.block, code.loadBase + kernel.kdAddress);
    const regs = primed(gen, mem, code, kernel, setup, m.grid, m.block);
    // emitKernelDispatch wrote the descriptor's LDS_SIZE (static only, no dynamic LDS here).
    const f = LDS_ALLOC[cpu === 'gfx900' ? 9 : cpu === 'gfx1030' ? 10 : 11].COMPUTE_LDS_SIZE;
    const r2 = (kernel.kd.compute_pgm_rsrc2 & ~(((1 << f.width) - 1) << f.lo)) >>> 0;
    const b = new Pm4Builder(gen);
    const init = b.dispatchInitiator({ forceStartAt000: true, wave32: kernel.kd.derived.waveSize === 32 });
    // LDS_SIZE 0: below the kernel's static LDS.
    b.setShReg('COMPUTE_PGM_RSRC2', r2).dispatchDirect(1, 1, 1, init);
    const { cp, results } = pm4Machine(gen, mem, diag, [code]);
    cp.run(regs);
    cp.run(b.finish());
    assert.equal(diag.list[0]?.id, 'pm4.dispatch.lds-below-static', cpu);
    assert.match(diag.list[0]!.message, new RegExp(`LDS_SIZE gives 0 bytes of LDS but reduce_lds uses ${kernel.kd.group_segment_fixed_size} bytes`));
    assert.deepEqual([...new Set(diag.list.map((d) => d.id))], ['pm4.dispatch.lds-below-static', 'gfx11.lds.out-of-range'], `${cpu}: the kernel's LDS accesses fall outside the allocation`);
    // A larger LDS_SIZE (a driver's dynamic LDS) launches quietly: no rsrc-mismatch for that field.
    const quiet = new Diagnostics();
    const m2 = pm4Machine(gen, mem, quiet, [code]);
    m2.cp.run(regs);
    const b2 = new Pm4Builder(gen);
    m2.cp.run(b2.setShReg('COMPUTE_PGM_RSRC2', (r2 | (64 << f.lo)) >>> 0).dispatchDirect(1, 1, 1, init).finish());
    assert.deepEqual(quiet.list, [], cpu);
    assert.equal(m2.results.length, 1);
    assert.equal(results.length, 1);
  }
});
