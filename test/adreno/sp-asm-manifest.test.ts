/**
 * An ir3 manifest may name an assembly file as its `shader` (`.s`, `.asm`, `.ir3`):
 * `gpusim adreno dispatch k.json` assembles it with src/adreno/ir3/asm.ts for the manifest's GPU
 * and runs it (issue 23: hand-written kernels first-class). examples/ir3-kernel is such a kernel
 * (labels, a loop, comments); its expected output is recomputed here from its input.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { dispatchCommand } from '../../src/adreno/sp/cli.js';
import { readIr3Manifest, runIr3Dispatch } from '../../src/adreno/sp/dispatch.js';
import { InputError, UsageError } from '../../src/core/errors.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const EX = join(ROOT, 'examples/ir3-kernel');

test('examples/ir3-kernel: the assembly manifest assembles, runs and matches', () => {
  const a = new Uint32Array(new Uint8Array(readFileSync(join(EX, 'a.bin'))).buffer);
  const want = a.map((x) => (10 * x + 45) >>> 0);
  assert.deepEqual(new Uint32Array(new Uint8Array(readFileSync(join(EX, 'o.expected.bin'))).buffer), want, 'o.expected.bin = 10 * a + 45');
  const lines: string[] = [];
  const out = mkdtempSync(join(tmpdir(), 'ir3-asm-'));
  const rc = dispatchCommand({ out }, [join(EX, 'sum.json')], (l) => lines.push(l));
  assert.equal(rc, 0, lines.join('\n'));
  assert.equal(lines[0], 'PASS o');
  assert.deepEqual(new Uint32Array(new Uint8Array(readFileSync(join(out, 'o.bin'))).buffer), want);
});

test('the same source runs on a730; a bad line is one InputError naming the file and line', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ir3-asm-'));
  for (const f of ['sum.s', 'a.bin', 'o.expected.bin']) copyFileSync(join(EX, f), join(dir, f));
  const m = JSON.parse(readFileSync(join(EX, 'sum.json'), 'utf8')) as Record<string, unknown>;
  writeFileSync(join(dir, 'k.json'), JSON.stringify({ ...m, gpu: 'a730' }));
  const lines: string[] = [];
  assert.equal(dispatchCommand({}, [join(dir, 'k.json')], (l) => lines.push(l)), 0, lines.join('\n'));
  writeFileSync(join(dir, 'sum.s'), readFileSync(join(EX, 'sum.s'), 'utf8').replace('add.u r3.y, r3.y, 1', 'add.u r3.y, r3.y, bogus'));
  assert.throws(() => runIr3Dispatch(readIr3Manifest(join(dir, 'k.json'))), (e: unknown) => e instanceof InputError && /sum\.s/.test(e.message) && /line \d+: cannot assemble 'add\.u r3\.y, r3\.y, bogus'/.test(e.message));
});

test('manifest textures and samplers: the driver lays out a TILE6_3 texture and binds t#/s#; sam filters it', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ir3-texm-'));
  const W = 8, H = 8;
  let seed = 7;
  const rnd = (): number => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) >>> 24;
  const img = Uint8Array.from({ length: W * H * 4 }, rnd);
  writeFileSync(join(dir, 'img.bin'), img);
  // in[lane] = (u, v) normalized, texel-space fractions in quarters; o[lane] = rgba.
  const uv = new Float32Array(128);
  for (let l = 0; l < 64; l++) {
    uv[2 * l] = ((l % 8) * 1.25 + 0.25) / W;
    uv[2 * l + 1] = (Math.floor(l / 8) * 1.25 - 0.5) / H;
  }
  writeFileSync(join(dir, 'uv.bin'), new Uint8Array(uv.buffer));
  const at = (x: number, y: number, c: number): number => img[((Math.max(0, Math.min(H - 1, y)) * W) + Math.max(0, Math.min(W - 1, x))) * 4 + c]! / 255;
  const want = new Float32Array(256);
  for (let l = 0; l < 64; l++) {
    const u = uv[2 * l]! * W - 0.5, v = uv[2 * l + 1]! * H - 0.5;
    const i0 = Math.floor(u), j0 = Math.floor(v), a = u - i0, b = v - j0;
    for (let c = 0; c < 4; c++) want[l * 4 + c] = (1 - a) * (1 - b) * at(i0, j0, c) + a * (1 - b) * at(i0 + 1, j0, c) + (1 - a) * b * at(i0, j0 + 1, c) + a * b * at(i0 + 1, j0 + 1, c);
  }
  writeFileSync(join(dir, 'o.expected.bin'), new Uint8Array(want.buffer));
  writeFileSync(join(dir, 'k.s'), `shl.b r1.x, r0.x, 1
shl.b r1.y, r0.x, 2
(rpt5)nop
ldib.b.untyped.1d.u32.2.imm r2.x, r1.x, 1
(rpt5)nop
(sy)sam (f32)(xyzw)r4.x, r2.x, s#0, t#3
(rpt5)nop
(sy)stib.b.untyped.1d.u32.4.imm r4.x, r1.y, 0
end
`);
  writeFileSync(join(dir, 'k.json'), JSON.stringify({
    shader: 'k.s', gpu: 'a630', block: [64, 1, 1], groups: [1, 1, 1], regs: { full: 5 },
    buffers: { o: { kind: 'ssbo', type: 'f32', count: 256, ibo: 0 }, uv: { kind: 'ssbo', type: 'f32', count: 128, ibo: 1, file: 'uv.bin' } },
    textures: [{ slot: 3, format: 'FMT6_8_8_8_8_UNORM', type: '2d', width: W, height: H, layout: 'tile6_3', file: 'img.bin' }],
    samplers: [{ slot: 0, filter: 'linear', wrap: 'clamp_to_edge' }],
    outputs: ['o'], expect: { o: { file: 'o.expected.bin', ulp: 2 } },
  }));
  const lines: string[] = [];
  assert.equal(dispatchCommand({}, [join(dir, 'k.json')], (l) => lines.push(l)), 0, lines.join('\n'));
  assert.equal(lines[0], 'PASS o');
  // A bad key value is one line naming it.
  writeFileSync(join(dir, 'bad.json'), JSON.stringify({ ...JSON.parse(readFileSync(join(dir, 'k.json'), 'utf8')), samplers: [{ slot: 0, wrap: 'clamp' }] }));
  assert.throws(() => readIr3Manifest(join(dir, 'bad.json')), /samplers\[0\]\.wrap: must be one of/);
});

test('manifest keys: a misspelt key is an InputError with a "did you mean"; known keys stay quiet', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ir3-keys-'));
  for (const f of ['sum.s', 'a.bin', 'o.expected.bin']) copyFileSync(join(EX, f), join(dir, f));
  const m = JSON.parse(readFileSync(join(EX, 'sum.json'), 'utf8')) as Record<string, unknown>;
  const bad = (name: string, patch: Record<string, unknown>, want: RegExp): void => {
    writeFileSync(join(dir, `${name}.json`), JSON.stringify({ ...m, ...patch }));
    assert.throws(() => readIr3Manifest(join(dir, `${name}.json`)), (e: unknown) => e instanceof InputError && want.test(e.message), name);
  };
  bad('top', { groups: undefined, grups: [4, 1, 1] }, /\(top\): unknown key 'grups' \(did you mean 'groups'\?\)/);
  bad('regs', { regs: { full: 4, halff: 0 } }, /regs: unknown key 'halff' \(did you mean 'half'\?\)/);
  bad('buf', { buffers: { o: { kind: 'ssbo', type: 'u32', count: 256, ib: 0 } } }, /buffers\.o: unknown key 'ib'/);
  bad('exp', { expect: { o: { file: 'o.expected.bin', ulps: 0 } } }, /expect\.o: unknown key 'ulps' \(did you mean 'ulp'\?\)/);
  bad('far', { zzzzzzzz: 1 }, /unknown key 'zzzzzzzz'$/);
  // The corpus README's informational keys (disasm, glsl, chip_id, grid, binding, ...) are accepted.
  writeFileSync(join(dir, 'ok.json'), JSON.stringify({ ...m, disasm: 'x.txt', chip_id: 0, grid: [256, 1, 1], const_regions: [], uniforms: {}, regs: { ...(m['regs'] as object), mergedregs: true } }));
  assert.equal(readIr3Manifest(join(dir, 'ok.json')).groups[0], 4);
});

test('adreno dispatch --seed parses through core/numbers (hex accepted, junk rejected)', () => {
  const lines: string[] = [];
  assert.equal(dispatchCommand({ seed: '0x10', order: 'random' }, [join(EX, 'sum.json')], (l) => lines.push(l)), 0, lines.join('\n'));
  assert.throws(() => dispatchCommand({ seed: '1.5' }, [join(EX, 'sum.json')], () => {}), (e: unknown) => e instanceof UsageError && /--seed: '1\.5' is not an integer/.test(e.message));
  assert.throws(() => dispatchCommand({ seed: '-1' }, [join(EX, 'sum.json')], () => {}), UsageError);
});
