/**
 * The package entry (src/index.ts, package.json "main"): a kernel dispatch and a draw built with
 * the exported command-buffer builder and run with the exported command processor, everything
 * imported from the entry alone, as a user of the package would.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as gpusim from '../../src/index.js';
import { CommandProcessor, DATA_SEL, Diagnostics, GfxPipeline, Memory, Pm4Builder, emitKernelDispatch, loadCode, loadCodeObject, pm4Machine, runScene, setupLaunch, walkPm4, PrintVisitor } from '../../src/index.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

test('package.json "main" is the built src/index.js and it exports the builder, the CP and the pipeline', () => {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { main: string };
  assert.equal(pkg.main, 'dist/src/index.js');
  for (const name of ['Pm4Builder', 'CommandProcessor', 'GfxPipeline', 'runScene', 'emitKernelDispatch', 'pm4Machine', 'walkPm4', 'Memory', 'Diagnostics']) {
    assert.equal(typeof (gpusim as Record<string, unknown>)[name], 'function', name);
  }
});

test('a dispatch built with Pm4Builder + emitKernelDispatch runs vadd.co through the CP (c = a + b for every element)', () => {
  const co = loadCodeObject(new Uint8Array(readFileSync(join(ROOT, 'kernels/bin/gfx1100/vadd.co'))), 'vadd.co');
  const mem = new Memory();
  const diag = new Diagnostics();
  const code = loadCode(mem, co);
  const kernel = co.kernels[0]!;
  const n = 300;
  const a = new Float32Array(n).map((_, i) => i * 0.5 - 7);
  const b = new Float32Array(n).map((_, i) => 1 / (i + 1));
  const sa = mem.alloc(4 * n, 'a', 256, new Uint8Array(a.buffer));
  const sb = mem.alloc(4 * n, 'b', 256, new Uint8Array(b.buffer));
  const sc = mem.alloc(4 * n, 'c');
  const fence = mem.alloc(8, 'fence');
  const count = new Uint8Array(4);
  new DataView(count.buffer).setUint32(0, n, true);
  const setup = setupLaunch(mem, kernel, [{ kind: 'pointer', va: sa.base }, { kind: 'pointer', va: sb.base }, { kind: 'pointer', va: sc.base }, { kind: 'bytes', bytes: count }], [n, 1, 1], [64, 1, 1], code.loadBase + kernel.kdAddress);
  const words = emitKernelDispatch(new Pm4Builder('gfx11'), code, kernel, setup, [n, 1, 1], [64, 1, 1])
    .releaseMem('BOTTOM_OF_PIPE_TS', fence.base, DATA_SEL.VALUE_32, 0x600d)
    .finish();
  // The stream decodes as the packets the builder meant.
  const printed: string[] = [];
  walkPm4(words, new PrintVisitor('gfx11', (l) => void printed.push(l), { json: true }), { gen: 'gfx11' });
  assert.deepEqual(printed.slice(-2).map((l) => (JSON.parse(l) as { name: string }).name), ['DISPATCH_DIRECT', 'RELEASE_MEM']);
  const { cp, results } = pm4Machine('gfx11', mem, diag, [code]);
  cp.run(words);
  assert.deepEqual(diag.list.filter((d) => d.severity !== 'info').map((d) => d.id), []);
  assert.equal(results.length, 1);
  assert.equal(mem.read32(fence.base), 0x600d);
  const c = new Float32Array(sc.u8.slice(0, 4 * n).buffer);
  for (let i = 0; i < n; i++) assert.equal(c[i], Math.fround(a[i]! + b[i]!), `c[${i}]`);
});

test('a draw stream called as an IB from a Pm4Builder stream renders the same image through CommandProcessor + GfxPipeline', () => {
  const scene = JSON.parse(readFileSync(join(ROOT, 'examples/triangle/scene.json'), 'utf8')) as Record<string, unknown>;
  const r = runScene(scene, join(ROOT, 'examples/triangle'));
  const t = r.targets[0]!;
  const size = t.width * t.height * r.samples * t.bytes;
  const want = r.mem.readBytes(t.va, size);
  assert.ok(want.some((x) => x !== 0), 'the example draws something');
  // Clear the target again (to the clear colour the corner pixel kept), put the scene's stream in
  // GPU memory and call it from a builder stream.
  r.mem.writeBytes(t.va, new Uint8Array(size).map((_, i) => want[i % 4]!));
  assert.notDeepEqual(r.mem.readBytes(t.va, size), want);
  const ib = r.mem.alloc(r.pm4.length * 4, 'ib');
  r.mem.writeBytes(ib.base, new Uint8Array(r.pm4.buffer, r.pm4.byteOffset, r.pm4.byteLength));
  const diag = new Diagnostics();
  const pipe = new GfxPipeline('gfx11', r.mem, diag, r.codes);
  const cp = new CommandProcessor({ gen: 'gfx11', mem: r.mem, diag, onDraw: (rec) => pipe.draw(rec) });
  cp.run(new Pm4Builder('gfx11').nop(2).indirectBuffer(ib.base, r.pm4.length).finish());
  assert.deepEqual(diag.list.filter((d) => d.severity !== 'info').map((d) => d.id), []);
  assert.equal(cp.draws.length, 1);
  assert.equal(cp.draws[0]!.level, 1);
  assert.equal(pipe.stats.draws, 1);
  assert.deepEqual(r.mem.readBytes(t.va, size), want);
});
