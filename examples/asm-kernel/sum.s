// A hand-written gfx1100 kernel with a loop: out[i] = count * in[i] + (0 + 1 + ... + count-1).
// Assemble and run it:  gpusim run examples/asm-kernel/sum.json
// Or make a code object: gpusim asm examples/asm-kernel/sum.s -o sum.co  (gpusim info / disasm read it)
.amdgcn_target "amdgcn-amd-amdhsa--gfx1100"
.amdhsa_code_object_version 5

.text
.globl sum
.p2align 8
.type sum,@function
sum:
  s_load_b128 s[4:7], s[0:1], 0x0       // s[4:5] = in, s[6:7] = out
  s_load_b32 s8, s[0:1], 0x10           // s8 = count
  v_and_b32 v0, 0x3ff, v0               // work-item id x (v0 packs x, y, z)
  s_lshl_b32 s9, s2, 6                  // s2 = workgroup id x; 64 work-items per group
  v_add_nc_u32 v0, s9, v0               // global id
  v_lshlrev_b32 v0, 2, v0               // byte offset
  s_waitcnt lgkmcnt(0)
  global_load_b32 v1, v0, s[4:5]
  v_mov_b32 v2, 0                       // acc
  s_mov_b32 s10, 0                      // k
  s_waitcnt vmcnt(0)
loop:
  s_cmp_ge_u32 s10, s8
  s_cbranch_scc1 done                   // forward reference
  v_add_nc_u32 v2, v2, v1               // acc += in[i]
  v_add_nc_u32 v2, s10, v2              // acc += k
  s_add_u32 s10, s10, 1
  s_branch loop                         // backward
done:
  global_store_b32 v0, v2, s[6:7]
  s_endpgm

.rodata
.p2align 6
.amdhsa_kernel sum
  .amdhsa_next_free_vgpr 3
  .amdhsa_next_free_sgpr 11
  .amdhsa_user_sgpr_count 2
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_system_sgpr_workgroup_id_x 1
  .amdhsa_system_vgpr_workitem_id 0
  .amdhsa_wavefront_size32 1
  .amdhsa_kernarg_size 20
.end_amdhsa_kernel

.amdgpu_metadata
---
amdhsa.kernels:
  - .args:
      - .address_space:  global
        .name:           in
        .offset:         0
        .size:           8
        .value_kind:     global_buffer
      - .address_space:  global
        .name:           out
        .offset:         8
        .size:           8
        .value_kind:     global_buffer
      - .name:           count
        .offset:         16
        .size:           4
        .value_kind:     by_value
    .group_segment_fixed_size: 0
    .kernarg_segment_align: 8
    .kernarg_segment_size: 20
    .max_flat_workgroup_size: 64
    .name:           sum
    .private_segment_fixed_size: 0
    .sgpr_count:     13
    .symbol:         sum.kd
    .vgpr_count:     3
    .wavefront_size: 32
amdhsa.target:   amdgcn-amd-amdhsa--gfx1100
amdhsa.version:
  - 1
  - 2
...
.end_amdgpu_metadata
