/**
 * LDS per generation at dispatch (lds-alloc.gen.ts): a workgroup asking for more than the
 * generation's 64 KiB launches nothing and reports amd.dispatch.lds-too-large; the same kernel
 * with its real dynamic LDS runs clean and matches its expected output, on all three targets; and
 * s_getreg of HW_REG_LDS_ALLOC reports each generation's allocation.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseManifest } from '../../src/runtime/manifest.js';
import { runManifest } from '../../src/runtime/run.js';
import { ldsAllocBytes } from '../../src/runtime/dispatch.js';
import { LDS_ALLOC } from '../../src/amd/exec/lds-alloc.gen.js';
import { HWREGS } from '../../src/amd/exec/hwreg.js';
import type { ExecEnv } from '../../src/amd/engine/env.js';
import { HWREG, type Wave } from '../../src/amd/wave/wave.js';
import { targets } from '../../src/amd/isa/targets.js';
import { runAsm } from '../amd/exec-harness.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const DIR = join(ROOT, 'kernels/manifests');
const base = JSON.parse(readFileSync(join(DIR, 'reduce_dynlds.json'), 'utf8')) as { codeObject: string; args: unknown[] };

function run(mcpu: string, localBytes: number) {
  const j = JSON.parse(JSON.stringify(base)) as typeof base;
  j.codeObject = j.codeObject.replace('/gfx1100/', `/${mcpu}/`);
  j.args[2] = { local: localBytes };
  return runManifest(parseManifest(j, join(DIR, 'reduce_dynlds.json'), DIR));
}

for (const mcpu of ['gfx1100', 'gfx1030', 'gfx900']) {
  test(`${mcpu}: dynamic LDS within the limit runs clean; past 64 KiB nothing launches and it is diagnosed`, () => {
    const ok = run(mcpu, 512);
    assert.equal(ok.exitCode, 0);
    assert.equal(ok.report.aborted, false);
    assert.ok(!ok.report.diagnostics.some((d) => d.id === 'amd.dispatch.lds-too-large'));
    const big = run(mcpu, 70000);
    assert.equal(big.report.aborted, true);
    assert.equal(big.report.waves, 0);
    assert.ok(big.report.diagnostics.some((d) => d.id === 'amd.dispatch.lds-too-large'), JSON.stringify(big.report.diagnostics));
  });
}

/**
 * HW_REG_LDS_ALLOC.LDS_SIZE reports the wave's allocation: the request rounded up to the
 * generation's block (512 bytes on GFX9, 1 KiB on GFX10.3/GFX11), counted in the generation's unit
 * (lds-alloc.gen.ts: 256 bytes on all three, as AMD's context-save trap handlers read it).
 */
test('s_getreg HW_REG_LDS_ALLOC: the generation\'s allocation in its unit (gfx900 512-byte blocks, gfx1030/gfx1100 1 KiB)', () => {
  const want: Record<string, [number, number]> = { gfx900: [2, 4], gfx1030: [4, 4], gfx1100: [4, 4] }; // 300 and 600 bytes asked
  for (const mcpu of ['gfx900', 'gfx1030', 'gfx1100']) {
    const t = targets[mcpu]!;
    const gfx = t.space.gfx;
    const g = LDS_ALLOC[gfx];
    assert.equal(g.hwregLdsGranule, 256);
    assert.deepEqual(g.HWREG_LDS_SIZE, { lo: 12, width: 9 });
    const got = [300, 600].map((bytes) => {
      const r = runAsm('s_getreg_b32 s0, hwreg(HW_REG_LDS_ALLOC)\ns_getreg_b32 s1, hwreg(HW_REG_LDS_ALLOC, 12, 9)\ns_endpgm', {
        target: t, waveSize: mcpu === 'gfx900' ? 64 : 32, ldsBytes: ldsAllocBytes(gfx, bytes),
      });
      assert.deepEqual(r.diags, [], mcpu);
      assert.equal(r.s(0), r.s(1) << 12, `${mcpu}: LDS_SIZE is bits [20:12], LDS_BASE reads 0`);
      return r.s(1);
    });
    assert.deepEqual(got, want[mcpu], mcpu);
    // The whole 64 KiB is 256 units on each.
    const full = runAsm('s_getreg_b32 s1, hwreg(HW_REG_LDS_ALLOC, 12, 9)\ns_endpgm', { target: t, waveSize: mcpu === 'gfx900' ? 64 : 32, ldsBytes: 65536 });
    assert.equal(full.s(1), 256, mcpu);
  }
});

test('a dispatch\'s waves carry the rounded allocation LDS_ALLOC reports (reduce_dynlds with 300 bytes of dynamic LDS)', () => {
  for (const mcpu of ['gfx900', 'gfx1030', 'gfx1100']) {
    const j = JSON.parse(JSON.stringify(base)) as typeof base;
    j.codeObject = j.codeObject.replace('/gfx1100/', `/${mcpu}/`);
    j.args[2] = { local: 300 };
    const waves: Wave[] = [];
    const r = runManifest(parseManifest(j, join(DIR, 'reduce_dynlds.json'), DIR), { onWaveEnd: (w) => void waves.push(w) });
    assert.equal(r.exitCode, 0, mcpu);
    const t = targets[mcpu]!;
    const alloc = ldsAllocBytes(t.space.gfx, r.report.ldsBytes);
    assert.ok(waves.length > 0 && waves.every((w) => w.lds.length === alloc), `${mcpu}: ${r.report.ldsBytes} bytes asked, ${alloc} allocated`);
    const env = { space: t.space } as unknown as ExecEnv;
    assert.equal(HWREGS[HWREG.LDS_ALLOC]!.read(waves[0]!, env), (alloc / 256) << 12, mcpu);
  }
});
