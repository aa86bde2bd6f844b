/**
 * Wave64 text on the wave32-by-default targets (gfx1100, gfx1030): lane masks (v_cmp results,
 * carries, v_cndmask conditions, VCC) are SGPR pairs, exactly as llvm-mc-19/llvm-objdump-19 read
 * them with -mattr=+wavefrontsize64. The bulk check is the `*-w64.tsv` golden files (golden.test.ts);
 * this file pins the forms the assembler used to refuse, the refusals LLVM makes, the `--wave` option
 * and round trips of the bundled wave64 code objects.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from '../../tools/gen/run.js';
import { targetFor, waveTarget } from '../../src/amd/isa/targets.js';
import { assembleLine, decodeAt, printInst, roundTrips } from '../../src/amd/isa/target.js';
import type { IsaTarget } from '../../src/amd/isa/target.js';
import { AsmError } from '../../src/amd/isa/types.js';
import { loadCodeObject } from '../../src/formats/amdgpu/codeobject.js';
import { listCodeObject } from '../../src/amd/isa/listing.js';
import { main } from '../../src/cli/main.js';
import { splitOperands } from '../../src/amd/isa/operands.js';
import type { ValuOpInfo } from '../../src/amd/isa/gfx11/valu-types.js';
import type { SdwaOpInfo } from '../../src/amd/isa/sdwa.js';

const T = (mcpu: string, wave: 32 | 64): IsaTarget => {
  const t = waveTarget(targetFor(mcpu)!, wave);
  assert.ok(t, `${mcpu} wave${wave}`);
  return t;
};
const hex = (ws: readonly number[]): string => ws.map((w) => (w >>> 0).toString(16).padStart(8, '0')).join(' ');

// llvm-mc-19 -arch=amdgcn -mcpu=<mcpu> -mattr=+wavefrontsize64 -show-encoding (dwords).
const LLVM_W64: Readonly<Record<string, readonly (readonly [string, string])[]>> = {
  gfx1100: [
    ['v_cmp_eq_u32_e64 s[4:5], v0, v1', 'd44a0004 00020300'],
    ['v_cmp_eq_u32_e32 vcc, v0, v1', '7c940300'],
    ['v_cndmask_b32_e64 v0, v1, v2, s[4:5]', 'd5010000 00120501'],
    ['v_add_co_u32 v0, s[4:5], v1, v2', 'd7000400 00020501'],
    ['v_cndmask_b32_e32 v0, v1, v2, vcc', '02000501'],
  ],
  gfx1030: [
    ['v_cmp_eq_u32_e64 s[4:5], v0, v1', 'd4c20004 00020300'],
    ['v_cmp_eq_u32_e32 vcc, v0, v1', '7d840300'],
    ['v_cndmask_b32_e64 v0, v1, v2, s[4:5]', 'd5010000 00120501'],
    ['v_add_co_u32 v0, s[4:5], v1, v2', 'd70f0400 00020501'],
    ['v_cndmask_b32_e32 v0, v1, v2, vcc', '02000501'],
    ['v_cmp_eq_u32_sdwa s[4:5], v0, v1 src0_sel:BYTE_0 src1_sel:DWORD', '7d8402f9 06008400'],
  ],
};

for (const [mcpu, cases] of Object.entries(LLVM_W64)) {
  test(`${mcpu} wave64: lane-mask forms assemble to llvm-mc's bytes and print back the same text`, () => {
    const t = T(mcpu, 64);
    for (const [text, words] of cases) {
      const w = assembleLine(t, text);
      assert.equal(hex(w), words, text);
      assert.equal(printInst(t, decodeAt(t, w, 0)), text);
    }
  });

  test(`${mcpu}: the same words read as wave32 text name one SGPR / vcc_lo`, () => {
    const t32 = T(mcpu, 32);
    const t64 = T(mcpu, 64);
    for (const [text] of cases) {
      const w = assembleLine(t64, text);
      const w32text = printInst(t32, decodeAt(t32, w, 0));
      assert.doesNotMatch(w32text, /s\[4:5\]|vcc(?!_lo)/, w32text);
      assert.equal(hex(assembleLine(t32, w32text)), hex(w), `${w32text} encodes like ${text}`);
    }
  });

  test(`${mcpu}: each wave size refuses the other's lane masks (as llvm-mc does)`, () => {
    const t32 = T(mcpu, 32);
    const t64 = T(mcpu, 64);
    for (const bad of ['v_cmp_eq_u32_e32 vcc_lo, v0, v1', 'v_cmp_eq_u32_e64 s4, v0, v1', 'v_cndmask_b32_e64 v0, v1, v2, vcc_lo', 'v_add_co_u32 v0, s4, v1, v2', 'v_cmp_eq_u32_e64 exec_lo, v0, v1']) {
      assert.throws(() => assembleLine(t64, bad), AsmError, `wave64 ${bad}`);
    }
    for (const bad of ['v_cmp_eq_u32_e32 vcc, v0, v1', 'v_cmp_eq_u32_e64 s[4:5], v0, v1', 'v_cndmask_b32_e64 v0, v1, v2, vcc', 'v_cmp_eq_u32_e64 exec, v0, v1']) {
      assert.throws(() => assembleLine(t32, bad), AsmError, `wave32 ${bad}`);
    }
    // Not lane masks: the same in both modes.
    for (const ok of ['v_readfirstlane_b32 s4, v1', 'v_add_f64 v[0:1], s[4:5], v[2:3]', 'v_cmp_eq_u32_e64 null, v0, v1']) {
      assert.equal(hex(assembleLine(t64, ok)), hex(assembleLine(t32, ok)), ok);
    }
  });
}

test('gfx1100 wave64 has no VOPD (llvm-objdump prints its words as unknown; llvm-mc wants wave32)', () => {
  const text = 'v_dual_cndmask_b32 v0, v1, v2 :: v_dual_mov_b32 v3, v4';
  const w = assembleLine(T('gfx1100', 32), text);
  assert.throws(() => assembleLine(T('gfx1100', 64), text), AsmError);
  assert.throws(() => decodeAt(T('gfx1100', 64), w, 0));
});

test('waveTarget: gfx900 is wave64 only; asking for a target\'s own wave size gives it back', () => {
  const g9 = targetFor('gfx900')!;
  assert.equal(waveTarget(g9, 64), g9);
  assert.equal(waveTarget(g9, 32), null);
  const g11 = targetFor('gfx1100')!;
  assert.equal(waveTarget(g11, 32), g11);
  assert.equal(waveTarget(waveTarget(g11, 64)!, 32), g11);
});

for (const mcpu of ['gfx1100', 'gfx1030']) {
  test(`${mcpu}: the bundled wave64 code objects round-trip in wave64 text, lane masks as pairs`, () => {
    const dir = join(ROOT, 'kernels/bin', mcpu);
    assert.ok(existsSync(dir));
    const t = T(mcpu, 64);
    let n = 0;
    let pairs = 0;
    const bad: string[] = [];
    for (const f of readdirSync(dir).filter((x) => x.endsWith('.w64.co')).sort()) {
      const co = loadCodeObject(new Uint8Array(readFileSync(join(dir, f))), f);
      for (const b of listCodeObject(t, co)) {
        for (const l of b.lines) {
          n++;
          const info = l.inst?.info as ValuOpInfo | SdwaOpInfo | undefined;
          if (info && 'ops' in info && info.ops.some((o) => o.lm)) {
            // The lane-mask operands print as pairs (or null), never one SGPR or a half.
            const ops = splitOperands(l.text.slice(l.text.indexOf(' ') + 1));
            info.ops.forEach((o, k) => {
              if (!o.lm) return;
              assert.doesNotMatch(ops[k]!, /^(s\d+|vcc_lo|vcc_hi|exec_lo|exec_hi)\b/, `${f}: ${l.text}`);
              if (/^(vcc|s\[\d+:\d+\])/.test(ops[k]!)) pairs++;
            });
          }
          if (!roundTrips(t, l)) bad.push(`${f} 0x${l.pc.toString(16)}: ${l.text}`);
        }
      }
    }
    assert.ok(n > 2000, `only ${n} instructions`);
    assert.ok(pairs > 100, `only ${pairs} lane-mask instructions`);
    assert.deepEqual(bad, []);
  });
}

async function cli(args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(args, { stdout: (s) => { out += s; }, stderr: (s) => { err += s; }, isTTY: false });
  return { code, out, err };
}

test('gpusim asm --wave 64 / disasm --wave 64', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'gpusim-w64-'));
  const src = join(dir, 'a.s');
  writeFileSync(src, 'v_cmp_eq_u32_e64 s[4:5], v0, v1\nv_add_co_u32 v0, s[4:5], v1, v2\n');
  const a = await cli(['asm', src, '--mcpu', 'gfx1030', '--wave', '64']);
  assert.equal(a.code, 0, a.err);
  assert.match(a.out, /v_cmp_eq_u32_e64 s\[4:5\], v0, v1 +; encoding: \[0x04,0x00,0xc2,0xd4,0x00,0x03,0x02,0x00\]/);
  const bin = join(dir, 'a.bin');
  assert.equal((await cli(['asm', src, '--wave', '64', '-o', bin])).code, 0);
  const d64 = await cli(['disasm', bin, '--wave', '64']);
  assert.equal(d64.code, 0, d64.err);
  assert.match(d64.out, /v_add_co_u32 v0, s\[4:5\], v1, v2/);
  const d32 = await cli(['disasm', bin]);
  assert.match(d32.out, /v_add_co_u32 v0, s4, v1, v2/);
  // Without --wave the text is wave32: the pair is refused with the line named.
  const r = await cli(['asm', src]);
  assert.equal(r.code, 2);
  assert.match(r.err, /line 1: .*s\[4:5\]/);
  assert.equal((await cli(['asm', src, '--mcpu', 'gfx900', '--wave', '32'])).code, 2);
  const w = await cli(['asm', src, '--wave', '16']);
  assert.equal(w.code, 2);
  assert.match(w.err, /--wave must be 32 or 64/);
});
