/**
 * Issue 22: gfx900 kernels stopped with gpusim.unimplemented on v_mad_legacy_u16. This compiles a
 * 16-bit multiply-add kernel with clang-19 (skipped when clang-19 / ld.lld-19 are absent) for each
 * target, checks that gfx900's code really holds v_mad_legacy_u16 (read by gpusim's own
 * disassembler), and runs it on both engines against a CPU reference computed here.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadManifest } from '../../src/runtime/manifest.js';
import { runManifest } from '../../src/runtime/run.js';
import { loadCodeObject } from '../../src/formats/amdgpu/codeobject.js';
import { disassemble } from '../../src/amd/isa/target.js';
import { targets } from '../../src/amd/isa/targets.js';

const have = (cmd: string): boolean => spawnSync(cmd, ['--version'], { encoding: 'utf8' }).status === 0;
const TOOLS = have('clang-19') && have('ld.lld-19');
const INCLUDE = fileURLToPath(new URL('../../../kernels/include', import.meta.url));

const SRC = `#include "gpusim_cl.h"
kernel void mad16(global ushort* o, global const ushort* a, global short* p, global const short* b) {
  int i = get_global_id(0);
  o[i] = a[i] * a[i + 64] + a[i + 128];
  p[i] = b[i] * b[i + 64] + b[i + 128];
}
`;

test('clang-19 16-bit multiply-adds (v_mad_legacy_u16 on gfx900) run on every target and engine', { skip: !TOOLS && 'clang-19 / ld.lld-19 not installed' }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'gpusim-mad16-'));
  try {
    writeFileSync(join(dir, 'mad16.cl'), SRC);
    // Inputs from a fixed LCG; the references wrap to 16 bits as OpenCL's ushort/short arithmetic does.
    let x = 12345;
    const next = (): number => { x = (Math.imul(x, 1103515245) + 12345) >>> 0; return x >>> 16; };
    const a = Uint16Array.from({ length: 192 }, next);
    const b = Int16Array.from({ length: 192 }, () => next() - 32768);
    const o = Uint16Array.from({ length: 64 }, (_, i) => (a[i]! * a[i + 64]! + a[i + 128]!) & 0xffff);
    const p = Int16Array.from({ length: 64 }, (_, i) => ((b[i]! * b[i + 64]! + b[i + 128]!) << 16) >> 16);
    for (const [n, arr] of [['a', a], ['b', b], ['o', o], ['p', p]] as const) writeFileSync(join(dir, `${n}.bin`), new Uint8Array(arr.buffer));
    for (const cpu of ['gfx900', 'gfx1030', 'gfx1100']) {
      const obj = join(dir, `mad16.${cpu}.o`), co = join(dir, `mad16.${cpu}.co`);
      const cc = spawnSync('clang-19', ['-x', 'cl', '-cl-std=CL2.0', '-target', 'amdgcn-amd-amdhsa', '-nogpulib', '-O2', '-cl-kernel-arg-info', `-I${INCLUDE}`, `-mcpu=${cpu}`, '-c', join(dir, 'mad16.cl'), '-o', obj], { encoding: 'utf8' });
      assert.equal(cc.status, 0, cc.stderr);
      const ld = spawnSync('ld.lld-19', ['-shared', obj, '-o', co], { encoding: 'utf8' });
      assert.equal(ld.status, 0, ld.stderr);
      if (cpu === 'gfx900') {
        const c = loadCodeObject(new Uint8Array(readFileSync(co)), co);
        const words = new Uint32Array(c.text!.section.size / 4);
        const bytes = readFileSync(co).subarray(c.text!.section.offset, c.text!.section.offset + c.text!.section.size);
        for (let i = 0; i < words.length; i++) words[i] = bytes.readUInt32LE(4 * i);
        const text = disassemble(targets.gfx900!, words).map((l) => l.text).join('\n');
        assert.match(text, /v_mad_legacy_u16/, 'clang-19 emits v_mad_legacy_u16 for gfx900');
      }
      const manifest = {
        codeObject: co, kernel: 'mad16', grid: [64, 1, 1], block: [64, 1, 1],
        buffers: {
          o: { type: 'u16', count: 64 }, a: { type: 'u16', count: 192, init: { file: 'a.bin' } },
          p: { type: 'i16', count: 64 }, b: { type: 'i16', count: 192, init: { file: 'b.bin' } },
        },
        args: ['o', 'a', 'p', 'b'], outputs: ['o', 'p'], expect: { o: { file: 'o.bin' }, p: { file: 'p.bin' } },
      };
      const mpath = join(dir, `mad16.${cpu}.json`);
      writeFileSync(mpath, JSON.stringify(manifest));
      for (const engine of ['interp', 'fast'] as const) {
        const r = runManifest(loadManifest(mpath), { engine });
        assert.deepEqual(r.report.diagnostics.map((d) => d.id), [], `${cpu} ${engine}`);
        assert.equal(r.exitCode, 0, `${cpu} ${engine}: ${JSON.stringify(r.expectations)}`);
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
