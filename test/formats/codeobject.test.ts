/**
 * Code objects: kernel descriptors vs the .amdhsa_* directives clang-19 wrote for them, metadata vs
 * llvm-readobj's YAML, entry points vs llvm-objdump's labels, wave64 detection, code object
 * v4/v5/v6, relocatable objects, malformed inputs and a seeded mutation fuzz.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { loadCodeObject, loadCodeObjectCached } from '../../src/formats/amdgpu/codeobject.js';
import { decodeMetadata } from '../../src/formats/amdgpu/metadata.js';
import { decodeKernelDescriptor, kdGenerationFor } from '../../src/formats/amdgpu/kd.js';
import { InputError } from '../../src/core/errors.js';
import { allFixtures, facts, fixtureBytes, rng } from './fixtures.js';
import { encode } from '@msgpack/msgpack';

const fixtures = allFixtures();

/** .amdhsa directives that are inputs to the assembler rather than fields of the descriptor. */
const NOT_FIELDS = new Set(['amdhsa_next_free_vgpr', 'amdhsa_next_free_sgpr', 'amdhsa_reserve_vcc', 'amdhsa_reserve_flat_scratch', 'amdhsa_reserve_xnack_mask', 'amdhsa_accum_offset']);

test('kernel descriptors decode to the .amdhsa_* directives clang emitted (every fixture, every kernel)', () => {
  let kernels = 0;
  for (const f of fixtures) {
    const fx = facts(f);
    const co = loadCodeObject(fixtureBytes(f.cpu, f.file), f.file);
    assert.deepEqual(co.kernels.map((k) => k.name).sort(), Object.keys(fx.amdhsa).sort(), `${f.cpu}/${f.file} kernels`);
    for (const k of co.kernels) {
      const want = fx.amdhsa[k.name]!;
      const where = `${f.cpu}/${f.file} ${k.name}`;
      for (const [key, v] of Object.entries(want)) {
        if (NOT_FIELDS.has(key)) continue;
        const ours = k.kd.amdhsa[key.slice('amdhsa_'.length)];
        assert.equal(ours, v, `${where}: .${key}`);
      }
      // The VGPR granule: clang's next_free_vgpr rounded up to the encoding granule.
      const n = Math.max(1, want.amdhsa_next_free_vgpr!);
      const g = k.kd.derived.vgprGranule;
      assert.equal(k.kd.rsrc1.VGPRS, Math.ceil(n / g) - 1, `${where}: GRANULATED_WORKITEM_VGPR_COUNT from next_free_vgpr ${n}`);
      assert.ok(k.kd.derived.vgprs >= n && k.kd.derived.vgprs < n + g, where);
      if (k.kd.derived.sgprs !== undefined) assert.ok(k.kd.derived.sgprs >= want.amdhsa_next_free_sgpr!, `${where}: SGPRs`);
      // Wave size: the directive on GFX10+, always 64 on GFX9.
      assert.equal(k.kd.derived.waveSize, f.cpu === 'gfx900' ? 64 : want.amdhsa_wavefront_size32 ? 32 : 64, where);
      assert.deepEqual(k.kd.reservedNonZero, [], where);
      kernels++;
    }
  }
  assert.ok(kernels >= 160, `${kernels} kernels`);
});

test('metadata decodes to what llvm-readobj prints, and agrees with the descriptor', () => {
  for (const f of fixtures) {
    const fx = facts(f);
    const co = loadCodeObject(fixtureBytes(f.cpu, f.file), f.file);
    const where = `${f.cpu}/${f.file}`;
    assert.ok(co.metadata, where);
    assert.deepEqual(co.metadata.raw, fx.metadata, `${where}: msgpack vs LLVM's YAML`);
    assert.equal(co.metadata.target, fx.target, where);
    assert.equal(co.codeObjectVersion, fx.codeObjectVersion, where);
    assert.equal(co.target.mcpu, f.cpu, where);
    for (const k of co.kernels) {
      const m = k.metadata!;
      assert.ok(m, `${where} ${k.name} has metadata`);
      assert.equal(m.symbol, k.kdSymbol);
      assert.equal(m.kernarg_segment_size, k.kd.kernarg_size, `${where} ${k.name} kernarg size`);
      assert.equal(m.group_segment_fixed_size, k.kd.group_segment_fixed_size);
      assert.equal(m.private_segment_fixed_size, k.kd.private_segment_fixed_size);
      assert.equal(m.wavefront_size, k.kd.derived.waveSize);
      assert.ok(m.vgpr_count <= k.kd.derived.vgprs, `${where} ${k.name} vgpr_count ${m.vgpr_count} <= ${k.kd.derived.vgprs}`);
      assert.equal(m.uses_dynamic_stack ?? false, k.kd.properties.USES_DYNAMIC_STACK);
    }
  }
});

test('entry points and code sizes match the symbols and llvm-objdump labels', () => {
  for (const f of fixtures) {
    const fx = facts(f);
    const co = loadCodeObject(fixtureBytes(f.cpu, f.file), f.file);
    const dump = readFileSync(f.path + '.objdump.txt', 'utf8');
    for (const k of co.kernels) {
      const fn = fx.symtab.find((s) => s.name === k.name && s.type === 2)!;
      assert.equal(k.entryAddress, fn.value, `${f.file} ${k.name}`);
      assert.equal(k.codeSize, fn.size);
      const label = new RegExp(`^([0-9a-f]{16}) <${k.name}>:$`, 'm').exec(dump);
      assert.ok(label, `${f.file}: objdump label for ${k.name}`);
      assert.equal(parseInt(label[1]!, 16), k.entryAddress);
      // Entry is 256-byte aligned (AMDGPUUsage) and inside .text.
      assert.equal(k.entryAddress % 256, 0);
      const text = co.text!;
      assert.ok(k.entryOffset >= text.section.offset && k.entryOffset + k.codeSize <= text.section.offset + text.section.size);
      if (!co.relocatable) assert.equal(k.kdAddress + k.kd.kernel_code_entry_byte_offset, k.entryAddress);
    }
  }
});

test('the last instruction of each kernel is s_endpgm (0xbfb00000 on GFX11, 0xbf810000 before)', () => {
  for (const [cpu, word] of [['gfx1100', 0xbfb00000], ['gfx1030', 0xbf810000], ['gfx900', 0xbf810000]] as const) {
    const co = loadCodeObject(fixtureBytes(cpu, 'empty.co'));
    const k = co.kernels[0]!;
    const dv = new DataView(co.elf.bytes.buffer, co.elf.bytes.byteOffset);
    assert.equal(k.codeSize, 4, cpu);
    assert.equal(dv.getUint32(k.entryOffset, true), word, cpu);
  }
});

test('wave64 builds are detected', () => {
  for (const cpu of ['gfx1100', 'gfx1030']) {
    const w32 = loadCodeObject(fixtureBytes(cpu, 'vadd.co'));
    const w64 = loadCodeObject(fixtureBytes(cpu, 'vadd.w64.co'));
    assert.equal(w32.kernels[0]!.kd.derived.waveSize, 32);
    assert.equal(w32.kernels[0]!.kd.properties.ENABLE_WAVEFRONT_SIZE32, true);
    assert.equal(w64.kernels[0]!.kd.derived.waveSize, 64);
    assert.equal(w64.kernels[0]!.kd.derived.vgprGranule, 4);
    assert.ok(w64.target.features.includes('wavefrontsize64'));
    assert.ok(!w32.target.features.includes('wavefrontsize64'));
    assert.equal(w64.kernels[0]!.metadata!.wavefront_size, 64);
  }
  assert.equal(loadCodeObject(fixtureBytes('gfx900', 'vadd.co')).kernels[0]!.kd.derived.waveSize, 64);
});

test('code object v4, v5 and v6', () => {
  const v4 = loadCodeObject(fixtureBytes('gfx1100', 'global_offset.v4.co'));
  const v5 = loadCodeObject(fixtureBytes('gfx1100', 'global_offset.co'));
  const v6 = loadCodeObject(fixtureBytes('gfx1100', 'global_offset.v6.co'));
  assert.deepEqual([v4.codeObjectVersion, v5.codeObjectVersion, v6.codeObjectVersion], [4, 5, 6]);
  assert.deepEqual([v4.elf.header.abiVersion, v5.elf.header.abiVersion, v6.elf.header.abiVersion], [2, 3, 4]);
  // LLVM 19 writes amdhsa.version 1.1 for v4 and 1.2 for both v5 and v6.
  assert.deepEqual(v4.metadata!.version, [1, 1]);
  assert.deepEqual(v5.metadata!.version, [1, 2]);
  assert.deepEqual(v6.metadata!.version, [1, 2]);
  for (const co of [v4, v5, v6]) assert.equal(co.metadata!.target, 'amdgcn-amd-amdhsa--gfx1100');
  const kinds = (co: typeof v4) => co.kernels[0]!.metadata!.args.map((a) => a.value_kind);
  // v4: the hidden global offsets come first in the implicit area; v5+: block counts, group sizes, remainders first.
  assert.deepEqual(kinds(v4).slice(0, 4), ['global_buffer', 'hidden_global_offset_x', 'hidden_global_offset_y', 'hidden_global_offset_z']);
  assert.deepEqual(kinds(v5).slice(0, 10), ['global_buffer', 'hidden_block_count_x', 'hidden_block_count_y', 'hidden_block_count_z',
    'hidden_group_size_x', 'hidden_group_size_y', 'hidden_group_size_z', 'hidden_remainder_x', 'hidden_remainder_y', 'hidden_remainder_z']);
  const off = v5.kernels[0]!.metadata!.args.find((a) => a.value_kind === 'hidden_global_offset_x')!;
  assert.equal(off.offset, 8 + 40);
  assert.equal(off.size, 8);
  assert.ok(off.hidden);
  assert.equal(v5.kernels[0]!.metadata!.kernarg_segment_size, 264);
  for (const co of [v4, v5, v6]) assert.equal(co.kernels[0]!.metadata!.args[0]!.name, 'out');
});

test('argument metadata: by-value, struct, dynamic LDS, address spaces and qualifiers', () => {
  const args = (cpu: string, f: string) => loadCodeObject(fixtureBytes(cpu, f)).kernels[0]!.metadata!.args;
  const saxpy = args('gfx1100', 'saxpy.co');
  assert.deepEqual(saxpy.map((a) => [a.name, a.value_kind, a.offset, a.size, a.type_name]), [
    ['a', 'by_value', 0, 4, 'float'], ['x', 'global_buffer', 8, 8, 'float*'], ['y', 'global_buffer', 16, 8, 'float*']]);
  assert.equal(saxpy[1]!.is_const, true);
  assert.equal(saxpy[1]!.address_space, 'global');
  const st = args('gfx1100', 'struct_arg.co');
  assert.deepEqual(st.map((a) => [a.name, a.value_kind, a.size, a.type_name]), [['p', 'global_buffer', 8, 'particle*'], ['prm', 'by_value', 12, 'params']]);
  const dyn = args('gfx1100', 'dyn_index_lds.co');
  assert.deepEqual(dyn.filter((a) => a.value_kind === 'dynamic_shared_pointer').map((a) => [a.name, a.address_space]), [['a', 'local'], ['b', 'local']]);
  const multi = loadCodeObject(fixtureBytes('gfx1100', 'multi.co'));
  assert.deepEqual(multi.kernels.map((k) => k.name).sort(), ['copy', 'fill', 'scale']);
  const tiled = loadCodeObject(fixtureBytes('gfx1100', 'matmul_tiled.co')).kernels[0]!;
  assert.deepEqual(tiled.metadata!.reqd_workgroup_size, [16, 16, 1]);
  assert.equal(tiled.kd.group_segment_fixed_size, 2048);
  assert.equal(tiled.kd.derived.workitemIdMode, 1);
});

test('derived register layout: user SGPRs, system SGPRs, scratch, work-item ids', () => {
  const s9 = loadCodeObject(fixtureBytes('gfx900', 'scratch_array.co')).kernels[0]!.kd;
  assert.equal(s9.private_segment_fixed_size, 260);
  assert.equal(s9.derived.scratchEnabled, true);
  assert.deepEqual(s9.derived.userSgprs.map((r) => [r.name, r.reg, r.count]), [
    ['private_segment_buffer', 0, 4], ['dispatch_ptr', 4, 2], ['kernarg_segment_ptr', 6, 2], ['flat_scratch_init', 8, 2]]);
  assert.deepEqual(s9.derived.systemSgprs.map((r) => [r.name, r.reg]), [['workgroup_id_x', 10], ['private_segment_wavefront_offset', 11]]);
  const g3 = loadCodeObject(fixtureBytes('gfx1030', 'grid3d.co')).kernels[0]!.kd;
  assert.deepEqual(g3.derived.workgroupIdEnabled, [true, true, true]);
  assert.equal(g3.derived.workitemIdMode, 2);
  assert.equal(g3.generation, 'gfx103');
  // GFX11 with LLVM 19: USER_SGPR is 15 although only 4 user SGPRs are enabled; workgroup id X lands in s15.
  const v = loadCodeObject(fixtureBytes('gfx1100', 'vadd.co')).kernels[0]!.kd;
  assert.equal(v.derived.userSgprCount, 15);
  assert.deepEqual(v.derived.systemSgprs.map((r) => [r.name, r.reg]), [['workgroup_id_x', 15]]);
  assert.equal(v.amdhsa.workgroup_processor_mode, 1);
  assert.equal(v.amdhsa.memory_ordered, 1);
});

test('processor -> descriptor generation', () => {
  assert.equal(kdGenerationFor('gfx900'), 'gfx9');
  assert.equal(kdGenerationFor('gfx90a'), 'gfx940');
  assert.equal(kdGenerationFor('gfx942'), 'gfx940');
  assert.equal(kdGenerationFor('gfx1010'), 'gfx10');
  assert.equal(kdGenerationFor('gfx1030'), 'gfx103');
  assert.equal(kdGenerationFor('gfx1100'), 'gfx11');
  assert.equal(kdGenerationFor('gfx1151'), 'gfx11');
  assert.equal(kdGenerationFor('gfx1201'), 'gfx12');
  assert.equal(kdGenerationFor('gfx11-generic'), 'gfx11');
  assert.throws(() => kdGenerationFor('gfx803'), InputError);
});

test('kernel_code_entry_byte_offset is signed', () => {
  const b = new Uint8Array(64);
  new DataView(b.buffer).setBigInt64(16, -256n, true);
  assert.equal(decodeKernelDescriptor(b, 'gfx11').kernel_code_entry_byte_offset, -256);
  b[13] = 1;
  assert.deepEqual(decodeKernelDescriptor(b, 'gfx11').reservedNonZero, ['bytes 12..15']);
});

test('relocatable objects: entry found through the R_AMDGPU_REL64 relocation', () => {
  const o = loadCodeObject(fixtureBytes('gfx1100', 'multi.o'));
  const linked = loadCodeObject(fixtureBytes('gfx1100', 'multi.co'));
  assert.equal(o.relocatable, true);
  for (const k of o.kernels) {
    assert.equal(k.kd.kernel_code_entry_byte_offset, 0, 'the bytes hold 0 before linking');
    const l = linked.kernels.find((x) => x.name === k.name)!;
    assert.equal(k.codeSize, l.codeSize);
    assert.deepEqual(o.elf.bytes.subarray(k.entryOffset, k.entryOffset + k.codeSize), linked.elf.bytes.subarray(l.entryOffset, l.entryOffset + l.codeSize), k.name);
  }
});

// --- malformed inputs ----------------------------------------------------------------------------

function expectError(bytes: Uint8Array, re: RegExp): void {
  assert.throws(() => loadCodeObject(bytes, 'x.co'), (e: unknown) => {
    assert.ok(e instanceof InputError, `expected InputError, got ${(e as Error)?.stack ?? String(e)}`);
    assert.match(e.message, re);
    assert.ok(!e.message.includes('\n'));
    return true;
  });
}

/** The file offset and size of the metadata note's descriptor in a fixture. */
function metadataDesc(bytes: Uint8Array): { off: number; size: number } {
  const co = loadCodeObject(bytes);
  const n = co.elf.notes().find((x) => x.type === 32)!;
  return { off: n.desc.byteOffset - bytes.byteOffset, size: n.desc.length };
}

test('malformed code objects give one-line InputErrors naming the file', () => {
  const good = fixtureBytes('gfx1100', 'vadd.co');
  expectError(good.slice(0, 30), /^x\.co: truncated ELF file: 30 bytes/);
  expectError(new TextEncoder().encode('#!/bin/sh\necho hi\n'), /^x\.co: not an ELF file \(magic 23 21 2f 62/);
  const x86 = good.slice();
  new DataView(x86.buffer).setUint16(18, 62, true);
  expectError(x86, /^x\.co: not an AMDGPU code object: e_machine 62 \(x86-64\)$/);
  const sht = good.slice();
  new DataView(sht.buffer).setUint32(40, good.length + 0x1000, true);
  expectError(sht, /^x\.co: section header 0 at 0x[0-9a-f]+ extends past end of file \(size 0x[0-9a-f]+\)$/);
  expectError(good.slice(0, good.length - 200), /extends past end of file/);
  const mach = good.slice();
  new DataView(mach.buffer).setUint32(48, 0xfe, true);
  expectError(mach, /^x\.co: unknown or non-GCN processor in e_flags 0xfe/);
  const abi = good.slice();
  abi[8] = 9;
  expectError(abi, /^x\.co: unsupported AMDHSA ABI version 9/);
  // Bad msgpack: 0xc1 is never used by MessagePack.
  const { off, size } = metadataDesc(good);
  const bad = good.slice();
  bad.fill(0xc1, off, off + size);
  expectError(bad, /^x\.co: AMDGPU metadata note is not valid MessagePack/);
  // Valid msgpack, wrong shape.
  const arr = good.slice();
  arr.fill(0xc0, off, off + size); // nil, nil, ...: extra bytes after the first value
  expectError(arr, /^x\.co: AMDGPU metadata note is not valid MessagePack/);
  // e_flags say gfx1030 but metadata says gfx1100.
  const mis = good.slice();
  new DataView(mis.buffer).setUint32(48, 0x36, true);
  expectError(mis, /^x\.co: metadata amdhsa\.target says gfx1100 but e_flags say gfx1030$/);
});

test('metadata decoder: shapes and types are checked; unknown keys are kept', () => {
  const bad = (v: unknown, re: RegExp) => assert.throws(() => decodeMetadata(encode(v)), (e: unknown) => e instanceof InputError && re.test(e.message));
  bad([1, 2], /not a MessagePack map/);
  bad({ 'amdhsa.kernels': [] }, /amdhsa\.version is missing/);
  bad({ 'amdhsa.version': [2, 0] }, /major must be 1/);
  bad({ 'amdhsa.version': [1, 2], 'amdhsa.kernels': {} }, /amdhsa\.kernels is not an array/);
  bad({ 'amdhsa.version': [1, 2], 'amdhsa.kernels': [{ '.name': 'k' }] }, /kernel k \.symbol should be a string, is missing/);
  const md = decodeMetadata(encode({
    'amdhsa.version': [1, 3], 'amdhsa.target': 'amdgcn-amd-amdhsa--gfx1100', 'amdhsa.future': 7,
    'amdhsa.kernels': [{
      '.name': 'k', '.symbol': 'k.kd', '.kernarg_segment_size': 8, '.kernarg_segment_align': 8, '.group_segment_fixed_size': 0,
      '.private_segment_fixed_size': 0, '.wavefront_size': 32, '.sgpr_count': 4, '.vgpr_count': 1, '.max_flat_workgroup_size': 64,
      '.new_key': 'x', '.args': [{ '.offset': 0, '.size': 8, '.value_kind': 'hidden_queue_ptr', '.weird': 1 }],
    }],
  }));
  assert.deepEqual(md.version, [1, 3]);
  assert.equal(md.raw['amdhsa.future'], 7);
  assert.equal(md.kernels[0]!.raw['.new_key'], 'x');
  assert.equal(md.kernels[0]!.args[0]!.hidden, true);
  assert.equal(md.kernels[0]!.args[0]!.raw['.weird'], 1);
});

test('fuzz: 2000 seeded mutations of a real code object raise only InputError', () => {
  const sources = [fixtureBytes('gfx1100', 'multi.co'), fixtureBytes('gfx900', 'scratch_array.co'), fixtureBytes('gfx1100', 'vadd.o')];
  const r = rng(0x5eed);
  let ok = 0;
  let rejected = 0;
  for (let i = 0; i < 2000; i++) {
    const src = sources[i % sources.length]!;
    let b = src.slice();
    const mode = Math.floor(r() * 4);
    if (mode === 0) {
      b = b.slice(0, Math.floor(r() * b.length));
    } else {
      const n = 1 + Math.floor(r() * (mode === 3 ? 64 : 8));
      // Mode 2 aims at the headers and tables, where a flip matters most.
      const region = mode === 2 ? 0x800 : b.length;
      for (let k = 0; k < n; k++) b[Math.floor(r() * Math.min(region, b.length))] = Math.floor(r() * 256);
    }
    try {
      loadCodeObject(b, `mutant${i}`);
      ok++;
    } catch (e) {
      if (!(e instanceof InputError)) assert.fail(`mutant ${i} (mode ${mode}) threw ${(e as Error)?.stack ?? String(e)}`);
      assert.ok(e.message.startsWith(`mutant${i}: `) && !e.message.includes('\n'), e.message);
      rejected++;
    }
  }
  assert.equal(ok + rejected, 2000);
  assert.ok(rejected > 100 && ok > 100, `ok ${ok}, rejected ${rejected}`);
});

test('loadCodeObjectCached: the same bytes parse once, other bytes again; changing the caller\'s array afterwards changes nothing', () => {
  const [a, b] = allFixtures().filter((f) => f.file.endsWith('.co')).slice(0, 2);
  const bytesA = new Uint8Array(fixtureBytes(a!.cpu, a!.file));
  const first = loadCodeObjectCached(bytesA, 'a');
  assert.equal(loadCodeObjectCached(new Uint8Array(bytesA), 'a'), first, 'equal bytes in another array: the parsed object again');
  const other = loadCodeObjectCached(new Uint8Array(fixtureBytes(b!.cpu, b!.file)), 'b');
  assert.notEqual(other, first);
  assert.deepEqual(other.kernels.map((k) => k.name), loadCodeObject(new Uint8Array(fixtureBytes(b!.cpu, b!.file)), 'b').kernels.map((k) => k.name));
  const names = first.kernels.map((k) => k.name);
  bytesA.fill(0);
  assert.deepEqual(first.kernels.map((k) => k.name), names, 'parsed from a private copy');
  assert.throws(() => loadCodeObjectCached(bytesA, 'a'), InputError, 'the zeroed array is parsed, not found in the cache');
});
