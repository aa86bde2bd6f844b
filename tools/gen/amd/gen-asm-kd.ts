/**
 * Golden answers for gpusim's `.amdhsa_kernel` assembler: each case is a small kernel source that
 * llvm-mc-19 assembles (-filetype=obj) and ld.lld-19 links (-shared); we record the kernel
 * descriptor bytes, the .text bytes, e_flags, the ELF ABI version and the metadata note (or that
 * llvm-mc rejects the source). test/amd/asm-codeobject.test.ts assembles the same sources with
 * gpusim and compares field by field.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cached, LLVM_MC } from '../llvm.js';
import { loadCodeObject } from '../../../src/formats/amdgpu/codeobject.js';

const LLD = process.env.LLD ?? 'ld.lld-19';

/** ld.lld's --version text (part of the cached answers' key). */
let lldId: string | undefined;
function lldIdentity(): string {
  if (lldId === undefined) {
    const r = spawnSync(LLD, ['--version'], { encoding: 'utf8' });
    if (r.error) throw r.error;
    lldId = r.stdout;
  }
  return lldId;
}

interface Case {
  readonly name: string;
  readonly mcpu: string;
  readonly mattr?: string;
  /** Lines inside `.amdhsa_kernel k`. */
  readonly kd: readonly string[];
  /** Extra header lines (.amdgcn_target, .amdhsa_code_object_version); default `.amdgcn_target` for mcpu. */
  readonly head?: readonly string[];
  /** Whole source instead of the template. */
  readonly source?: string;
}

const CODE = [
  '  s_load_b64 s[2:3], s[0:1], 0x0',
  '  s_mov_b32 s4, 0',
  'loop:',
  '  s_add_u32 s4, s4, 1',
  '  s_cmp_lt_u32 s4, 10',
  '  s_cbranch_scc1 loop',
  '  s_cbranch_scc0 done',
  '  s_nop 0',
  'done:',
  '  s_endpgm',
];
const CODE9 = CODE.map((l) => l.replace('s_load_b64', 's_load_dwordx2'));

function template(c: Case): string {
  const code = c.mcpu === 'gfx1100' ? CODE : CODE9;
  return [
    ...(c.head ?? [`.amdgcn_target "amdgcn-amd-amdhsa--${c.mcpu}"`]),
    '.text',
    '.globl k',
    '.p2align 8',
    '.type k,@function',
    'k:',
    ...code,
    '.rodata',
    '.p2align 6',
    '.amdhsa_kernel k',
    ...c.kd.map((l) => '  ' + l),
    '.end_amdhsa_kernel',
    '',
  ].join('\n');
}

const MIN = ['.amdhsa_next_free_vgpr 9', '.amdhsa_next_free_sgpr 11'];
const FULL = [
  '.amdhsa_next_free_vgpr 33', '.amdhsa_next_free_sgpr 11', '.amdhsa_user_sgpr_count 6',
  '.amdhsa_user_sgpr_dispatch_ptr 1', '.amdhsa_user_sgpr_kernarg_segment_ptr 1',
  '.amdhsa_system_sgpr_workgroup_id_x 0', '.amdhsa_system_sgpr_workgroup_id_y 1', '.amdhsa_system_sgpr_workgroup_id_z 1',
  '.amdhsa_system_vgpr_workitem_id 2', '.amdhsa_group_segment_fixed_size 4096', '.amdhsa_private_segment_fixed_size 64',
  '.amdhsa_kernarg_size 24',
];
const MODES = [
  '.amdhsa_next_free_vgpr 1', '.amdhsa_next_free_sgpr 0', '.amdhsa_float_round_mode_32 1', '.amdhsa_float_round_mode_16_64 2',
  '.amdhsa_float_denorm_mode_32 3', '.amdhsa_float_denorm_mode_16_64 0', '.amdhsa_dx10_clamp 0', '.amdhsa_ieee_mode 0',
  '.amdhsa_fp16_overflow 1', '.amdhsa_exception_fp_ieee_invalid_op 1', '.amdhsa_exception_int_div_zero 1',
  '.amdhsa_system_sgpr_workgroup_info 1', '.amdhsa_uses_dynamic_stack 1', '.amdhsa_user_sgpr_queue_ptr 1',
  '.amdhsa_user_sgpr_dispatch_id 1', '.amdhsa_user_sgpr_private_segment_size 1',
];

const TWO_KERNELS = `.amdgcn_target "amdgcn-amd-amdhsa--gfx1100"
.amdhsa_code_object_version 5
.text
.globl first
.p2align 8
.type first,@function
first:
  v_mov_b32 v0, 1
  s_endpgm
.globl second
.p2align 8
.type second,@function
second:
  s_branch skip
  s_nop 0
skip:
  s_endpgm
.rodata
.p2align 6
.amdhsa_kernel first
  .amdhsa_next_free_vgpr 1
  .amdhsa_next_free_sgpr 0
.end_amdhsa_kernel
.p2align 6
.amdhsa_kernel second
  .amdhsa_next_free_vgpr 20
  .amdhsa_next_free_sgpr 3
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_kernarg_size 16
.end_amdhsa_kernel
`;

const WITH_METADATA = `.amdgcn_target "amdgcn-amd-amdhsa--gfx1100"
.amdhsa_code_object_version 5
.text
.globl copy
.p2align 8
.type copy,@function
copy:
  s_load_b128 s[0:3], s[0:1], 0x0
  v_lshlrev_b32 v0, 2, v0
  s_waitcnt lgkmcnt(0)
  global_load_b32 v1, v0, s[0:1]
  s_waitcnt vmcnt(0)
  global_store_b32 v0, v1, s[2:3]
  s_endpgm
.rodata
.p2align 6
.amdhsa_kernel copy
  .amdhsa_next_free_vgpr 2
  .amdhsa_next_free_sgpr 4
  .amdhsa_user_sgpr_count 2
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_kernarg_size 16
.end_amdhsa_kernel
.amdgpu_metadata
---
amdhsa.kernels:
  - .args:
      - .address_space:  global
        .name:           src
        .offset:         0
        .size:           8
        .value_kind:     global_buffer
      - .address_space:  global
        .name:           dst
        .offset:         8
        .size:           8
        .value_kind:     global_buffer
    .group_segment_fixed_size: 0
    .kernarg_segment_align: 8
    .kernarg_segment_size: 16
    .max_flat_workgroup_size: 256
    .name:           copy
    .private_segment_fixed_size: 0
    .sgpr_count:     6
    .symbol:         copy.kd
    .uniform_work_group_size: 1
    .vgpr_count:     2
    .wavefront_size: 32
amdhsa.target:   amdgcn-amd-amdhsa--gfx1100
amdhsa.version:
  - 1
  - 2
...
.end_amdgpu_metadata
`;

export const CASES: readonly Case[] = [
  { name: 'gfx1100-min', mcpu: 'gfx1100', kd: MIN },
  { name: 'gfx1100-full', mcpu: 'gfx1100', kd: FULL },
  { name: 'gfx1100-wave64', mcpu: 'gfx1100', mattr: '+wavefrontsize64', kd: [...FULL, '.amdhsa_wavefront_size32 0'] },
  { name: 'gfx1100-wave32-explicit', mcpu: 'gfx1100', kd: [...MIN, '.amdhsa_wavefront_size32 1'] },
  { name: 'gfx1100-vgpr256', mcpu: 'gfx1100', kd: ['.amdhsa_next_free_vgpr 256', '.amdhsa_next_free_sgpr 106'] },
  { name: 'gfx1100-vgpr0', mcpu: 'gfx1100', kd: ['.amdhsa_next_free_vgpr 0', '.amdhsa_next_free_sgpr 0'] },
  { name: 'gfx1100-modes', mcpu: 'gfx1100', kd: [...MODES, '.amdhsa_workgroup_processor_mode 0', '.amdhsa_memory_ordered 0', '.amdhsa_forward_progress 1'] },
  { name: 'gfx1100-private', mcpu: 'gfx1100', kd: [...MIN, '.amdhsa_enable_private_segment 1', '.amdhsa_private_segment_fixed_size 16'] },
  { name: 'gfx1100-cov4', mcpu: 'gfx1100', head: ['.amdgcn_target "amdgcn-amd-amdhsa--gfx1100"', '.amdhsa_code_object_version 4'], kd: MIN },
  { name: 'gfx1100-cov6', mcpu: 'gfx1100', head: ['.amdgcn_target "amdgcn-amd-amdhsa--gfx1100"', '.amdhsa_code_object_version 6'], kd: MIN },
  { name: 'gfx1100-err-user-sgpr-count', mcpu: 'gfx1100', kd: [...MIN, '.amdhsa_user_sgpr_count 1', '.amdhsa_user_sgpr_kernarg_segment_ptr 1'] },
  { name: 'gfx1100-err-no-vgpr', mcpu: 'gfx1100', kd: ['.amdhsa_next_free_sgpr 1'] },
  { name: 'gfx1100-err-unknown', mcpu: 'gfx1100', kd: [...MIN, '.amdhsa_no_such_thing 1'] },
  { name: 'gfx1100-err-reserve-flat', mcpu: 'gfx1100', kd: [...MIN, '.amdhsa_reserve_flat_scratch 0'] },
  { name: 'gfx1030-min', mcpu: 'gfx1030', kd: MIN },
  { name: 'gfx1030-full', mcpu: 'gfx1030', kd: FULL },
  { name: 'gfx1030-wave64', mcpu: 'gfx1030', mattr: '+wavefrontsize64', kd: [...FULL, '.amdhsa_wavefront_size32 0'] },
  { name: 'gfx1030-shared-vgpr', mcpu: 'gfx1030', kd: [...MIN, '.amdhsa_shared_vgpr_count 3', '.amdhsa_wavefront_size32 0'], mattr: '+wavefrontsize64' },
  { name: 'gfx1030-modes', mcpu: 'gfx1030', kd: MODES },
  { name: 'gfx900-min', mcpu: 'gfx900', kd: MIN },
  { name: 'gfx900-full', mcpu: 'gfx900', kd: FULL },
  { name: 'gfx900-modes', mcpu: 'gfx900', kd: MODES },
  { name: 'gfx900-no-reserve', mcpu: 'gfx900', kd: [...MIN, '.amdhsa_reserve_vcc 0', '.amdhsa_reserve_flat_scratch 0', '.amdhsa_reserve_xnack_mask 0'] },
  { name: 'gfx900-xnack-only', mcpu: 'gfx900', kd: [...MIN, '.amdhsa_reserve_flat_scratch 0'] },
  { name: 'gfx900-vcc-only', mcpu: 'gfx900', kd: [...MIN, '.amdhsa_reserve_flat_scratch 0', '.amdhsa_reserve_xnack_mask 0'] },
  { name: 'gfx900-xnack-off', mcpu: 'gfx900', head: ['.amdgcn_target "amdgcn-amd-amdhsa--gfx900:xnack-"'], mattr: '-xnack', kd: MIN },
  { name: 'gfx900-xnack-on', mcpu: 'gfx900', head: ['.amdgcn_target "amdgcn-amd-amdhsa--gfx900:xnack+"'], mattr: '+xnack', kd: MIN },
  { name: 'gfx900-scratch', mcpu: 'gfx900', kd: [...MIN, '.amdhsa_system_sgpr_private_segment_wavefront_offset 1', '.amdhsa_user_sgpr_private_segment_buffer 1'] },
  { name: 'gfx900-sgpr96', mcpu: 'gfx900', kd: ['.amdhsa_next_free_vgpr 256', '.amdhsa_next_free_sgpr 96'] },
  { name: 'gfx900-sgpr97', mcpu: 'gfx900', kd: ['.amdhsa_next_free_vgpr 1', '.amdhsa_next_free_sgpr 97'] },
  { name: 'gfx900-err-wave32', mcpu: 'gfx900', kd: [...MIN, '.amdhsa_wavefront_size32 1'] },
  { name: 'gfx1100-err-wavefront-offset', mcpu: 'gfx1100', kd: [...MIN, '.amdhsa_system_sgpr_private_segment_wavefront_offset 1'] },
  { name: 'gfx1100-err-flat-scratch-init', mcpu: 'gfx1100', kd: [...MIN, '.amdhsa_user_sgpr_flat_scratch_init 1'] },
  { name: 'gfx1100-err-segment-buffer', mcpu: 'gfx1100', kd: [...MIN, '.amdhsa_user_sgpr_private_segment_buffer 1'] },
  { name: 'gfx1100-err-xnack-mask', mcpu: 'gfx1100', kd: [...MIN, '.amdhsa_reserve_xnack_mask 1'] },
  { name: 'gfx1100-xnack-mask-0', mcpu: 'gfx1100', kd: [...MIN, '.amdhsa_reserve_xnack_mask 0'] },
  { name: 'gfx1100-no-vcc', mcpu: 'gfx1100', kd: [...MIN, '.amdhsa_reserve_vcc 0'] },
  { name: 'gfx1030-err-enable-private', mcpu: 'gfx1030', kd: [...MIN, '.amdhsa_enable_private_segment 1'] },
  { name: 'gfx1030-scratch', mcpu: 'gfx1030', kd: [...MIN, '.amdhsa_system_sgpr_private_segment_wavefront_offset 1', '.amdhsa_user_sgpr_private_segment_buffer 1', '.amdhsa_user_sgpr_flat_scratch_init 1'] },
  { name: 'gfx1030-reserve-flat', mcpu: 'gfx1030', kd: [...MIN, '.amdhsa_reserve_flat_scratch 0', '.amdhsa_reserve_xnack_mask 0'] },
  { name: 'gfx1030-err-xnack-mask', mcpu: 'gfx1030', kd: [...MIN, '.amdhsa_reserve_xnack_mask 1'] },
  { name: 'gfx900-err-shared-vgpr', mcpu: 'gfx900', kd: [...MIN, '.amdhsa_shared_vgpr_count 1'] },
  { name: 'gfx900-err-enable-private', mcpu: 'gfx900', kd: [...MIN, '.amdhsa_enable_private_segment 1'] },
  { name: 'gfx900-err-wgp', mcpu: 'gfx900', kd: [...MIN, '.amdhsa_workgroup_processor_mode 1'] },
  { name: 'gfx1100-err-cov4-dynamic-stack', mcpu: 'gfx1100', head: ['.amdgcn_target "amdgcn-amd-amdhsa--gfx1100"', '.amdhsa_code_object_version 4'], kd: [...MIN, '.amdhsa_uses_dynamic_stack 1'] },
  { name: 'gfx1100-err-user-sgpr-33', mcpu: 'gfx1100', kd: [...MIN, '.amdhsa_user_sgpr_count 33'] },
  { name: 'gfx1100-user-sgpr-32', mcpu: 'gfx1100', kd: [...MIN, '.amdhsa_user_sgpr_count 32'] },
  { name: 'gfx1100-user-sgpr-16', mcpu: 'gfx1100', kd: [...MIN, '.amdhsa_user_sgpr_count 16'] },
  { name: 'gfx900-user-sgpr-16', mcpu: 'gfx900', kd: [...MIN, '.amdhsa_user_sgpr_count 16'] },
  { name: 'gfx900-err-sgpr103', mcpu: 'gfx900', kd: ['.amdhsa_next_free_vgpr 1', '.amdhsa_next_free_sgpr 103'] },
  { name: 'gfx1100-sgpr200', mcpu: 'gfx1100', kd: ['.amdhsa_next_free_vgpr 1', '.amdhsa_next_free_sgpr 200'] },
  { name: 'gfx1100-err-vgpr257', mcpu: 'gfx1100', kd: ['.amdhsa_next_free_vgpr 257', '.amdhsa_next_free_sgpr 1'] },
  { name: 'gfx900-err-vgpr257', mcpu: 'gfx900', kd: ['.amdhsa_next_free_vgpr 257', '.amdhsa_next_free_sgpr 1'] },
  { name: 'gfx1100-vgpr512', mcpu: 'gfx1100', kd: ['.amdhsa_next_free_vgpr 512', '.amdhsa_next_free_sgpr 1'] },
  { name: 'gfx1100-err-vgpr513', mcpu: 'gfx1100', kd: ['.amdhsa_next_free_vgpr 513', '.amdhsa_next_free_sgpr 1'] },
  { name: 'gfx1100-wave64-vgpr256', mcpu: 'gfx1100', mattr: '+wavefrontsize64', kd: ['.amdhsa_next_free_vgpr 256', '.amdhsa_next_free_sgpr 1', '.amdhsa_wavefront_size32 0'] },
  { name: 'gfx1100-err-wave64-vgpr257', mcpu: 'gfx1100', mattr: '+wavefrontsize64', kd: ['.amdhsa_next_free_vgpr 257', '.amdhsa_next_free_sgpr 1', '.amdhsa_wavefront_size32 0'] },
  { name: 'gfx1100-user-sgpr-17', mcpu: 'gfx1100', kd: [...MIN, '.amdhsa_user_sgpr_count 17'] },
  { name: 'gfx1100-shared-vgpr', mcpu: 'gfx1100', mattr: '+wavefrontsize64', kd: [...MIN, '.amdhsa_shared_vgpr_count 3', '.amdhsa_wavefront_size32 0'] },
  { name: 'gfx1100-enable-private', mcpu: 'gfx1100', kd: [...MIN, '.amdhsa_enable_private_segment 1'] },
  { name: 'two-kernels', mcpu: 'gfx1100', kd: [], source: TWO_KERNELS },
  { name: 'metadata', mcpu: 'gfx1100', kd: [], source: WITH_METADATA },
];

function hexOf(b: Uint8Array): string {
  return Buffer.from(b).toString('hex');
}

export function generate(): Record<string, string> {
  const dir = mkdtempSync(join(tmpdir(), 'gpusim-asm-kd-'));
  const out: unknown[] = [];
  try {
    for (const c of CASES) {
      const source = c.source ?? template(c);
      const s = join(dir, `${c.name}.s`);
      const o = join(dir, `${c.name}.o`);
      const co = join(dir, `${c.name}.co`);
      const mcArgs = ['-triple=amdgcn-amd-amdhsa', `-mcpu=${c.mcpu}`, ...(c.mattr ? [`-mattr=${c.mattr}`] : []), '-filetype=obj'];
      // llvm-mc's verdict and ld.lld's object, remembered in the LLVM answer cache (llvm.ts) by the
      // tools' versions, the arguments and the source: gen-check runs this generator every test run.
      const r = JSON.parse(cached(['asm-kd', lldIdentity(), ...mcArgs, source], () => {
        writeFileSync(s, source);
        const mc = spawnSync(LLVM_MC, [...mcArgs, s, '-o', o], { encoding: 'utf8' });
        if (mc.error) throw mc.error;
        if (mc.status !== 0) return JSON.stringify({ mcError: mc.stderr });
        const ld = spawnSync(LLD, ['-shared', o, '-o', co], { encoding: 'utf8' });
        if (ld.error) throw ld.error;
        if (ld.status !== 0) throw new Error(`${c.name}: ld.lld failed: ${ld.stderr}`);
        return JSON.stringify({ co: readFileSync(co).toString('base64') });
      })) as { mcError?: string; co?: string };
      const entry: Record<string, unknown> = { name: c.name, mcpu: c.mcpu, ...(c.mattr ? { mattr: c.mattr } : {}), source };
      if (r.mcError !== undefined) {
        const m = /:(\d+):\d+: error: (.*)/.exec(r.mcError);
        entry.error = m ? { line: Number(m[1]), message: m[2] } : { line: 0, message: r.mcError.trim().split('\n')[0] };
        out.push(entry);
        continue;
      }
      const obj = loadCodeObject(new Uint8Array(Buffer.from(r.co!, 'base64')), c.name);
      const h = obj.elf.header;
      entry.eflags = h.flags;
      entry.abiVersion = h.abiVersion;
      entry.text = hexOf(obj.text!.bytes);
      entry.kernels = obj.kernels.map((k) => ({
        name: k.name,
        kd: hexOf(obj.elf.bytes.subarray(k.kdOffset, k.kdOffset + 64)),
        entry: k.entryAddress - obj.text!.address,
      }));
      if (obj.metadata) entry.metadata = obj.metadata.raw;
      out.push(entry);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return { 'test/golden/amd/asm-kd.json': JSON.stringify(out, null, 1) + '\n' };
}
