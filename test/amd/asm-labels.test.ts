/**
 * Labels in gpusim's assembler (`name:` and branches to it) on gfx1100, gfx1030 and gfx900, checked
 * against the bytes llvm-mc-19 -filetype=obj writes for the same source; the line-numbered errors
 * (out-of-range, non-branch use, duplicates, a carriage return inside a line) and `.p2align`.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { targetFor } from '../../src/amd/isa/targets.js';
import { assemble, assembleCode } from '../../src/amd/isa/target.js';
import { AsmError } from '../../src/amd/isa/types.js';
import { main } from '../../src/cli/main.js';
import { haveLlvm, LLVM_MC } from '../../tools/gen/llvm.js';

const SOURCE = `  s_mov_b32 s0, 0
top:
  s_add_u32 s0, s0, 1
  s_cmp_lt_u32 s0, 5
  s_cbranch_scc1 top
  s_branch fwd
  s_nop 0
mid: s_nop 1
fwd:
  s_cbranch_execz top
  s_cbranch_vccnz mid
  s_endpgm
`;

// llvm-mc-19 -triple=amdgcn-amd-amdhsa -mcpu=<mcpu> -filetype=obj, the .text dwords.
const LLVM: Readonly<Record<string, string>> = {
  gfx1100: 'be800080 80008100 bf0a8500 bfa2fffd bfa00002 bf800000 bf800001 bfa5fff9 bfa4fffd bfb00000',
  gfx1030: 'be800380 80008100 bf0a8500 bf85fffd bf820002 bf800000 bf800001 bf88fff9 bf87fffd bf810000',
  gfx900: 'be800080 80008100 bf0a8500 bf85fffd bf820002 bf800000 bf800001 bf88fff9 bf87fffd bf810000',
};

const hex = (ws: readonly number[]): string => ws.map((w) => (w >>> 0).toString(16).padStart(8, '0')).join(' ');

async function cli(args: string[], stdin?: string): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  if (stdin !== undefined) {
    const dir = mkdtempSync(join(tmpdir(), 'gpusim-asm-'));
    const f = join(dir, 'in.s');
    writeFileSync(f, stdin);
    args = args.map((a) => (a === '-' ? f : a));
  }
  const code = await main(args, { stdout: (s) => { out += s; }, stderr: (s) => { err += s; }, isTTY: false });
  return { code, out, err };
}

function asmError(f: () => unknown): AsmError {
  try {
    f();
  } catch (e) {
    assert.ok(e instanceof AsmError, `expected an AsmError, got ${String(e)}`);
    return e;
  }
  assert.fail('expected an AsmError');
}

for (const mcpu of ['gfx1100', 'gfx1030', 'gfx900']) {
  test(`${mcpu}: backward and forward branches to labels encode as llvm-mc does`, () => {
    const t = targetFor(mcpu)!;
    const code = assembleCode(t, SOURCE);
    assert.equal(hex(code.words), LLVM[mcpu]);
    assert.deepEqual([...code.labels.entries()].map(([k, v]) => [k, v.offset, v.line]), [['top', 4, 2], ['mid', 24, 8], ['fwd', 28, 9]]);
    assert.equal(hex(assemble(t, SOURCE)), LLVM[mcpu]);
  });
}

test('llvm-mc-19 agrees on the label source (skipped without LLVM)', { skip: haveLlvm() ? false : 'LLVM 19 is not installed' }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'gpusim-labels-'));
  const s = join(dir, 'l.s');
  writeFileSync(s, SOURCE);
  for (const mcpu of Object.keys(LLVM)) {
    const o = join(dir, `${mcpu}.o`);
    const r = spawnSync(LLVM_MC, ['-triple=amdgcn-amd-amdhsa', `-mcpu=${mcpu}`, '-filetype=obj', s, '-o', o], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    const bin = join(dir, `${mcpu}.bin`);
    const c = spawnSync('llvm-objcopy-19', ['-O', 'binary', '--only-section=.text', o, bin], { encoding: 'utf8' });
    if (c.error) return; // no objcopy: the committed words above stand
    const b = readFileSync(bin);
    const words = Array.from({ length: b.length / 4 }, (_, i) => b.readUInt32LE(i * 4));
    assert.equal(hex(words), LLVM[mcpu], mcpu);
  }
});

test('a branch beyond the 16-bit offset is an error naming its line', () => {
  const t = targetFor('gfx1100')!;
  const far = ['s_branch far', ...Array<string>(32768).fill('s_nop 0'), 'far: s_endpgm'].join('\n');
  const e = asmError(() => assembleCode(t, far));
  assert.equal(e.line, 1);
  assert.match(e.message, /^line 1: branch to 'far' \(line 32770\) is 32768 dwords away/);
  // 32767 dwords forward and 32768 back still fit.
  const edge = ['s_branch far', ...Array<string>(32767).fill('s_nop 0'), 'far: s_endpgm'].join('\n');
  assert.equal(assembleCode(t, edge).words[0], 0xbfa07fff);
  const back = ['top:', ...Array<string>(32767).fill('s_nop 0'), 's_branch top'].join('\n');
  assert.equal(assembleCode(t, back).words[32767], 0xbfa08000);
});

test('label misuse: undefined, duplicate, or the operand of a non-branch instruction', () => {
  const t = targetFor('gfx1100')!;
  let e = asmError(() => assembleCode(t, 's_nop 0\ns_branch nowhere\n'));
  assert.equal(e.line, 2);
  assert.match(e.message, /invalid operand 'nowhere'/);
  e = asmError(() => assembleCode(t, 'a:\ns_nop 0\na: s_endpgm\n'));
  assert.equal(e.line, 3);
  assert.match(e.message, /label 'a' is already defined on line 1/);
  e = asmError(() => assembleCode(t, 'here:\ns_mov_b32 s0, here\n'));
  assert.equal(e.line, 2);
  assert.match(e.message, /label 'here' can only be the target of a branch/);
});

test('.p2align pads the code with s_nop 0; .long emits words', () => {
  const t = targetFor('gfx1100')!;
  const c = assembleCode(t, 's_nop 1\n.p2align 4\nk: s_endpgm\n.long 0x12345678, 7\n');
  assert.equal(hex(c.words), 'bf800001 bf800000 bf800000 bf800000 bfb00000 12345678 00000007');
  assert.equal(c.labels.get('k')!.offset, 16);
});

test('\\r\\n line endings assemble; a carriage return inside a line is a one-line error', async () => {
  const t = targetFor('gfx1100')!;
  assert.equal(hex(assembleCode(t, 'top:\r\ns_branch top\r\n').words), 'bfa0ffff');
  const e = asmError(() => assembleCode(t, 's_nop 0\nv_add_f32 v0,\rv1, v2\n'));
  assert.equal(e.line, 2);
  assert.match(e.message, /carriage return/);
  const r = await cli(['asm', '-'], 'v_add_f32 v0,\rv1, v2\n');
  assert.equal(r.code, 2);
  assert.equal(r.out, '');
  assert.equal(r.err.trimEnd().split('\n').length, 1, r.err);
  assert.match(r.err, /line 1: unexpected carriage return inside the line/);
  assert.doesNotMatch(r.err, /internal error|\r/);
});

test('gpusim asm: labels print with their encodings; every error is one line with exit code 2', async () => {
  const ok = await cli(['asm', '--mcpu', 'gfx1030', '-'], 'loop: s_nop 0\ns_branch loop\n');
  assert.equal(ok.code, 0, ok.err);
  assert.match(ok.out, /s_branch loop\s+; encoding: \[0xfe,0xff,0x82,0xbf\]/);
  for (const [src, want] of [
    ['s_branch x\n', /line 1: s_branch: invalid operand 'x'/],
    ['.amdhsa_kernel k\n.amdhsa_next_free_vgpr 1\n', /line 1: \.amdhsa_kernel k has no \.end_amdhsa_kernel/],
    ['k: s_endpgm\n.amdhsa_kernel k\n.amdhsa_bogus 1\n.end_amdhsa_kernel\n', /line 3: unknown directive \.amdhsa_bogus/],
    ['.amdgcn_target "amdgcn-amd-amdhsa--gfx9000"\n', /unknown processor 'gfx9000'/],
    ['.rodata\ns_nop 0\n', /line 2: instruction 's_nop' outside \.text/],
    ['.amdgpu_metadata\nkey: [1, 2\n.end_amdgpu_metadata\n', /line 2: \.amdgpu_metadata: unterminated flow sequence/],
  ] as const) {
    const r = await cli(['asm', '-'], src);
    assert.equal(r.code, 2, src);
    assert.equal(r.err.trimEnd().split('\n').length, 1, r.err);
    assert.match(r.err, want);
  }
});

test('numeric local labels: Nb is the last N: so far (the same line included), Nf the next', () => {
  const t = targetFor('gfx1100')!;
  // llvm-mc-19 -filetype=obj of the same text.
  const c = assembleCode(t, '1:\n s_nop 0\n s_branch 1b\n s_branch 1f\n s_nop 1\n1: s_branch 1b\n s_endpgm\n');
  assert.equal(hex(c.words), 'bf800000 bfa0fffe bfa00001 bf800001 bfa0ffff bfb00000');
  let e = asmError(() => assembleCode(t, 's_branch 2b\n2: s_endpgm\n'));
  assert.equal(e.line, 1);
  assert.match(e.message, /names no earlier local label 2:/);
  e = asmError(() => assembleCode(t, '2: s_nop 0\ns_branch 2f\n'));
  assert.equal(e.line, 2);
  assert.match(e.message, /names no later local label 2:/);
  // A plain number stays a number.
  assert.equal(hex(assembleCode(t, '1: s_branch 1\n').words), 'bfa00001');
});
