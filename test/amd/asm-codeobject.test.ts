/**
 * `.amdhsa_kernel` sources assembled by gpusim into linked code objects, compared with what
 * llvm-mc-19 + ld.lld-19 -shared make of the same sources (test/golden/amd/asm-kd.json, written by
 * tools/gen/amd/gen-asm-kd.ts): every descriptor byte but the layout-dependent entry offset, the
 * entry point, the .text bytes, e_flags, the ELF ABI version, the metadata note; sources llvm-mc
 * rejects are rejected with a line number. gpusim's own reader loads the result, and (when LLVM
 * is installed) llvm-objdump-19 disassembles it to the text `gpusim disasm` prints.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from '../../tools/gen/run.js';
import { assembleSource, codeObjectOf } from '../../src/amd/isa/source.js';
import { AsmError } from '../../src/amd/isa/types.js';
import { loadCodeObject } from '../../src/formats/amdgpu/codeobject.js';
import { decodeKernelDescriptor } from '../../src/formats/amdgpu/kd.js';
import { parseYamlSubset } from '../../src/formats/amdgpu/yaml.js';
import { main } from '../../src/cli/main.js';
import { LLVM_OBJDUMP, haveLlvm } from '../../tools/gen/llvm.js';

interface Golden {
  readonly name: string;
  readonly mcpu: string;
  readonly mattr?: string;
  readonly source: string;
  readonly error?: { readonly line: number; readonly message: string };
  readonly eflags?: number;
  readonly abiVersion?: number;
  readonly text?: string;
  readonly kernels?: readonly { readonly name: string; readonly kd: string; readonly entry: number }[];
  readonly metadata?: unknown;
}

const GOLDEN = JSON.parse(readFileSync(join(ROOT, 'test/golden/amd/asm-kd.json'), 'utf8')) as Golden[];
const hexOf = (b: Uint8Array): string => Buffer.from(b).toString('hex');

function build(g: Golden): Uint8Array {
  const wave = g.mattr === '+wavefrontsize64' ? 64 : undefined;
  const p = assembleSource(g.source, { mcpu: g.mcpu, ...(wave ? { wave } : {}) });
  return codeObjectOf(p);
}

test('the golden file covers every target, errors and the metadata block', () => {
  for (const mcpu of ['gfx1100', 'gfx1030', 'gfx900']) assert.ok(GOLDEN.some((g) => g.mcpu === mcpu && !g.error), mcpu);
  assert.ok(GOLDEN.filter((g) => g.error).length >= 10);
  assert.ok(GOLDEN.some((g) => g.metadata));
});

for (const g of GOLDEN) {
  test(`${g.name}: ${g.error ? 'rejected as llvm-mc rejects it' : 'descriptor, text and flags equal llvm-mc + ld.lld'}`, () => {
    if (g.error) {
      try {
        build(g);
      } catch (e) {
        assert.ok(e instanceof AsmError, `${String(e)}`);
        assert.ok(e.line > 0, e.message);
        return;
      }
      assert.fail(`llvm-mc says line ${g.error.line}: ${g.error.message}; gpusim accepted it`);
    }
    const co = loadCodeObject(build(g), g.name);
    assert.equal(co.elf.header.flags, g.eflags, 'e_flags');
    assert.equal(co.elf.header.abiVersion, g.abiVersion, 'ELF ABI version');
    assert.equal(co.relocatable, false);
    assert.equal(hexOf(co.text!.bytes), g.text, '.text');
    assert.deepEqual(co.kernels.map((k) => k.name).sort(), g.kernels!.map((k) => k.name).sort());
    for (const want of g.kernels!) {
      const k = co.kernels.find((x) => x.name === want.name)!;
      const got = co.elf.bytes.subarray(k.kdOffset, k.kdOffset + 64);
      const w = Buffer.from(want.kd, 'hex');
      // Bytes 16..23 (kernel_code_entry_byte_offset) depend on where the linker put .rodata and .text.
      assert.equal(hexOf(got.subarray(0, 16)) + hexOf(got.subarray(24)), want.kd.slice(0, 32) + want.kd.slice(48), `${want.name}.kd`);
      assert.equal(k.entryAddress - co.text!.address, want.entry, `${want.name} entry`);
      // Field by field through the reader (the same bytes, named).
      const a = decodeKernelDescriptor(got, co.target.generation).amdhsa;
      const b = decodeKernelDescriptor(new Uint8Array(w), co.target.generation).amdhsa;
      assert.deepEqual(a, b);
      assert.ok(k.metadata, 'metadata entry');
      assert.equal(k.metadata.kernarg_segment_size, a.kernarg_size);
      assert.equal(k.metadata.wavefront_size, k.kd.derived.waveSize);
    }
    if (g.metadata !== undefined) assert.deepEqual(co.metadata!.raw, g.metadata);
  });
}

test('without .amdgpu_metadata the metadata is derived: sizes, registers, 8-byte by-value arguments', () => {
  const g = GOLDEN.find((x) => x.name === 'gfx1100-full')!;
  const co = loadCodeObject(build(g));
  assert.equal(co.metadata!.target, 'amdgcn-amd-amdhsa--gfx1100');
  assert.deepEqual(co.metadata!.version, [1, 2]);
  const m = co.kernels[0]!.metadata!;
  assert.equal(m.name, 'k');
  assert.equal(m.symbol, 'k.kd');
  assert.equal(m.kernarg_segment_size, 24);
  assert.equal(m.group_segment_fixed_size, 4096);
  assert.equal(m.private_segment_fixed_size, 64);
  assert.equal(m.vgpr_count, 33);
  assert.equal(m.sgpr_count, 13);
  assert.equal(m.max_flat_workgroup_size, 1024);
  assert.deepEqual(m.args.map((x) => [x.offset, x.size, x.value_kind]), [[0, 8, 'by_value'], [8, 8, 'by_value'], [16, 8, 'by_value']]);
  // A partial block keeps what it says and gets the rest.
  const src = g.source + '.amdgpu_metadata\namdhsa.kernels:\n  - .name: k\n    .max_flat_workgroup_size: 64\n.end_amdgpu_metadata\n';
  const m2 = loadCodeObject(codeObjectOf(assembleSource(src))).kernels[0]!.metadata!;
  assert.equal(m2.max_flat_workgroup_size, 64);
  assert.equal(m2.kernarg_segment_size, 24);
});

test('the YAML subset: block maps and sequences, `- key:` items, flow lists, scalars, comments', () => {
  assert.deepEqual(parseYamlSubset('---\na: 1 # c\nb:\n  - x: "q:1"\n    y: [1, 0x10, -2]\n  - plain text\nc:\n- true\n- ~\nd: \'it\'\'s\'\n...\n'), {
    a: 1, b: [{ x: 'q:1', y: [1, 16, -2] }, 'plain text'], c: [true, null], d: "it's",
  });
});

test('gpusim asm -o writes a code object that info and disasm read; --format bin writes the bare code', async () => {
  const g = GOLDEN.find((x) => x.name === 'two-kernels')!;
  const dir = mkdtempSync(join(tmpdir(), 'gpusim-asmco-'));
  const s = join(dir, 'k.s');
  writeFileSync(s, g.source);
  const io = () => {
    const r = { out: '', err: '' };
    return { r, io: { stdout: (x: string) => { r.out += x; }, stderr: (x: string) => { r.err += x; }, isTTY: false } };
  };
  let c = io();
  assert.equal(await main(['asm', s, '-o', join(dir, 'k.co')], c.io), 0, c.r.err);
  c = io();
  assert.equal(await main(['info', join(dir, 'k.co')], c.io), 0, c.r.err);
  assert.match(c.r.out, /kernel first/);
  assert.match(c.r.out, /kernel second/);
  c = io();
  assert.equal(await main(['disasm', join(dir, 'k.co')], c.io), 0, c.r.err);
  assert.match(c.r.out, /<second>:\n\ts_branch 1 +\/\/ [0-9A-F]+: BFA00001 <second\+0x8>/);
  c = io();
  assert.equal(await main(['asm', s, '--format', 'bin', '-o', join(dir, 'k.bin')], c.io), 0, c.r.err);
  assert.equal(hexOf(readFileSync(join(dir, 'k.bin'))), g.text);
});

test('llvm-objdump-19 disassembles gpusim code objects as gpusim disasm does (skipped without LLVM)', { skip: haveLlvm() ? false : 'LLVM 19 is not installed' }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'gpusim-asmobj-'));
  const sources = [
    ...GOLDEN.filter((g) => !g.error).map((g) => ({ name: g.name, bytes: build(g) })),
    { name: 'example', bytes: codeObjectOf(assembleSource(readFileSync(join(ROOT, 'examples/asm-kernel/sum.s'), 'utf8'))) },
  ];
  for (const { name, bytes } of sources) {
    const f = join(dir, `${name}.co`);
    writeFileSync(f, bytes);
    const r = spawnSync(LLVM_OBJDUMP, ['-d', f], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    let out = '';
    const code = await main(['disasm', f], { stdout: (x) => { out += x; }, stderr: () => {}, isTTY: false });
    assert.equal(code, 0);
    const body = (s: string) => s.slice(s.indexOf('Disassembly of section')).trimEnd();
    assert.equal(body(out), body(r.stdout), name);
    const ro = spawnSync('llvm-readobj-19', ['--notes', f], { encoding: 'utf8' });
    if (!ro.error) assert.match(ro.stdout, /NT_AMDGPU_METADATA[\s\S]*amdhsa\.kernels:/, `${name}: llvm-readobj reads the metadata note`);
  }
});

test('a metadata block the reader would refuse is an assembler error naming the block', () => {
  const head = '.amdgcn_target "amdgcn-amd-amdhsa--gfx1100"\nk: s_endpgm\n.amdhsa_kernel k\n.amdhsa_next_free_vgpr 1\n.amdhsa_next_free_sgpr 1\n.end_amdhsa_kernel\n';
  for (const [yaml, want] of [
    ['amdhsa.target: amdgcn-amd-amdhsa--gfx900', /line 7: metadata amdhsa.target says gfx900 but e_flags say gfx1100/],
    ['amdhsa.kernels:\n  - .name: k\n    .args: 5', /line 7: AMDGPU metadata: kernel k \.args is not an array/],
    ['amdhsa.kernels: 3', /line 7: \.amdgpu_metadata: amdhsa\.kernels must be a sequence/],
  ] as const) {
    assert.throws(() => codeObjectOf(assembleSource(`${head}.amdgpu_metadata\n${yaml}\n.end_amdgpu_metadata\n`)), (e: unknown) => e instanceof AsmError && want.test(e.message));
  }
});
