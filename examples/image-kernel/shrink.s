// A hand-written gfx1100 kernel on images: dst (4x4) = src (8x8) halved by bilinear sampling at
// the centre of each 2x2 block (each output texel the mean of four), written with image_store.
// Run it:  gpusim run examples/image-kernel/shrink.json --out /tmp/shrink
// The manifest's "images" and "samplers" lay the texels out and pass the T#/S# addresses.
.amdgcn_target "amdgcn-amd-amdhsa--gfx1100"
.amdhsa_code_object_version 5

.text
.globl shrink
.p2align 8
.type shrink,@function
shrink:
  s_load_b128 s[4:7], s[0:1], 0x0       // s[4:5] = src T# address, s[6:7] = S# address
  s_load_b64 s[8:9], s[0:1], 0x10       // s[8:9] = dst T# address
  v_and_b32 v1, 0x3ff, v0               // x (v0 packs the work-item ids x, y, z)
  v_bfe_u32 v2, v0, 10, 10              // y
  v_cvt_f32_u32 v3, v1
  v_cvt_f32_u32 v4, v2
  v_add_f32 v3, 0.5, v3                 // u = (x + 0.5) / 4, v = (y + 0.5) / 4
  v_add_f32 v4, 0.5, v4
  v_mul_f32 v3, 0x3e800000, v3
  v_mul_f32 v4, 0x3e800000, v4
  s_waitcnt lgkmcnt(0)
  s_load_b256 s[12:19], s[4:5], 0x0     // src T#
  s_load_b128 s[20:23], s[6:7], 0x0     // S#
  s_load_b256 s[24:31], s[8:9], 0x0     // dst T#
  s_waitcnt lgkmcnt(0)
  image_sample_lz v[5:8], v[3:4], s[12:19], s[20:23] dmask:0xf dim:SQ_RSRC_IMG_2D
  s_waitcnt vmcnt(0)
  image_store v[5:8], v[1:2], s[24:31] dmask:0xf dim:SQ_RSRC_IMG_2D unorm
  s_endpgm

.rodata
.p2align 6
.amdhsa_kernel shrink
  .amdhsa_next_free_vgpr 9
  .amdhsa_next_free_sgpr 32
  .amdhsa_user_sgpr_count 2
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_system_vgpr_workitem_id 1
  .amdhsa_wavefront_size32 1
  .amdhsa_kernarg_size 24
.end_amdhsa_kernel

.amdgpu_metadata
---
amdhsa.kernels:
  - .args:
      - .name:           src
        .offset:         0
        .size:           8
        .value_kind:     image
      - .name:           smp
        .offset:         8
        .size:           8
        .value_kind:     sampler
      - .name:           dst
        .offset:         16
        .size:           8
        .value_kind:     image
    .group_segment_fixed_size: 0
    .kernarg_segment_align: 8
    .kernarg_segment_size: 24
    .max_flat_workgroup_size: 16
    .name:           shrink
    .private_segment_fixed_size: 0
    .sgpr_count:     34
    .symbol:         shrink.kd
    .vgpr_count:     9
    .wavefront_size: 32
amdhsa.target:   amdgcn-amd-amdhsa--gfx1100
amdhsa.version:
  - 1
  - 2
...
.end_amdgpu_metadata
