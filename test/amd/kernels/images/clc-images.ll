; OpenCL image builtins for amdgcn-amd-amdhsa, which libclc 19 does not provide for amdgcn:
; each one reads the T# (8 dwords) and S# (4 dwords) its image2d_t/sampler_t argument points at
; (clang lowers both to ptr addrspace(4)) and calls LLVM's llvm.amdgcn.image.* intrinsic, so the
; MIMG instructions come from LLVM's own instruction selection. Linked into the kernels with
; -mlink-builtin-bitcode by test/amd/mimg-opencl.test.ts. A few gpusim_* helpers (gpusim_image.h)
; reach forms OpenCL C has no builtin for: 16-bit addresses (a16), LOD queries, explicit levels.
target triple = "amdgcn-amd-amdhsa"

define <8 x i32> @gpusim.tsharp(ptr addrspace(4) %i) alwaysinline {
  %d = load <8 x i32>, ptr addrspace(4) %i, align 4
  ret <8 x i32> %d
}
define <4 x i32> @gpusim.ssharp(ptr addrspace(4) %s) alwaysinline {
  %d = load <4 x i32>, ptr addrspace(4) %s, align 4
  ret <4 x i32> %d
}

; ---- sizes (image_get_resinfo at level 0) ----
define i32 @_Z15get_image_width14ocl_image2d_ro(ptr addrspace(4) %i) alwaysinline {
  %d = call <8 x i32> @gpusim.tsharp(ptr addrspace(4) %i)
  %r = call <4 x i32> @llvm.amdgcn.image.getresinfo.2d.v4i32.i32(i32 15, i32 0, <8 x i32> %d, i32 0, i32 0)
  %x = extractelement <4 x i32> %r, i32 0
  ret i32 %x
}
define i32 @_Z16get_image_height14ocl_image2d_ro(ptr addrspace(4) %i) alwaysinline {
  %d = call <8 x i32> @gpusim.tsharp(ptr addrspace(4) %i)
  %r = call <4 x i32> @llvm.amdgcn.image.getresinfo.2d.v4i32.i32(i32 15, i32 0, <8 x i32> %d, i32 0, i32 0)
  %x = extractelement <4 x i32> %r, i32 1
  ret i32 %x
}
define i32 @_Z15get_image_width14ocl_image3d_ro(ptr addrspace(4) %i) alwaysinline {
  %d = call <8 x i32> @gpusim.tsharp(ptr addrspace(4) %i)
  %r = call <4 x i32> @llvm.amdgcn.image.getresinfo.3d.v4i32.i32(i32 15, i32 0, <8 x i32> %d, i32 0, i32 0)
  %x = extractelement <4 x i32> %r, i32 0
  ret i32 %x
}
define i32 @_Z16get_image_height14ocl_image3d_ro(ptr addrspace(4) %i) alwaysinline {
  %d = call <8 x i32> @gpusim.tsharp(ptr addrspace(4) %i)
  %r = call <4 x i32> @llvm.amdgcn.image.getresinfo.3d.v4i32.i32(i32 15, i32 0, <8 x i32> %d, i32 0, i32 0)
  %x = extractelement <4 x i32> %r, i32 1
  ret i32 %x
}
define i32 @_Z15get_image_depth14ocl_image3d_ro(ptr addrspace(4) %i) alwaysinline {
  %d = call <8 x i32> @gpusim.tsharp(ptr addrspace(4) %i)
  %r = call <4 x i32> @llvm.amdgcn.image.getresinfo.3d.v4i32.i32(i32 15, i32 0, <8 x i32> %d, i32 0, i32 0)
  %x = extractelement <4 x i32> %r, i32 2
  ret i32 %x
}
define i64 @_Z20get_image_array_size20ocl_image2d_array_ro(ptr addrspace(4) %i) alwaysinline {
  %d = call <8 x i32> @gpusim.tsharp(ptr addrspace(4) %i)
  %r = call <4 x i32> @llvm.amdgcn.image.getresinfo.2darray.v4i32.i32(i32 15, i32 0, <8 x i32> %d, i32 0, i32 0)
  %x = extractelement <4 x i32> %r, i32 2
  %y = zext i32 %x to i64
  ret i64 %y
}
define i32 @_Z24get_image_num_mip_levels14ocl_image2d_ro(ptr addrspace(4) %i) alwaysinline {
  %d = call <8 x i32> @gpusim.tsharp(ptr addrspace(4) %i)
  %r = call <4 x i32> @llvm.amdgcn.image.getresinfo.2d.v4i32.i32(i32 15, i32 0, <8 x i32> %d, i32 0, i32 0)
  %x = extractelement <4 x i32> %r, i32 3
  ret i32 %x
}

; ---- reads with a sampler (LOD 0: sample_lz) ----
define <4 x float> @_Z11read_imagef14ocl_image2d_ro11ocl_samplerDv2_f(ptr addrspace(4) %i, ptr addrspace(4) %s, <2 x float> %c) alwaysinline {
  %d = call <8 x i32> @gpusim.tsharp(ptr addrspace(4) %i)
  %q = call <4 x i32> @gpusim.ssharp(ptr addrspace(4) %s)
  %u = extractelement <2 x float> %c, i32 0
  %v = extractelement <2 x float> %c, i32 1
  %r = call <4 x float> @llvm.amdgcn.image.sample.lz.2d.v4f32.f32(i32 15, float %u, float %v, <8 x i32> %d, <4 x i32> %q, i1 false, i32 0, i32 0)
  ret <4 x float> %r
}
define <4 x half> @_Z11read_imageh14ocl_image2d_ro11ocl_samplerDv2_f(ptr addrspace(4) %i, ptr addrspace(4) %s, <2 x float> %c) alwaysinline {
  %d = call <8 x i32> @gpusim.tsharp(ptr addrspace(4) %i)
  %q = call <4 x i32> @gpusim.ssharp(ptr addrspace(4) %s)
  %u = extractelement <2 x float> %c, i32 0
  %v = extractelement <2 x float> %c, i32 1
  %r = call <4 x half> @llvm.amdgcn.image.sample.lz.2d.v4f16.f32(i32 15, float %u, float %v, <8 x i32> %d, <4 x i32> %q, i1 false, i32 0, i32 0)
  ret <4 x half> %r
}
define <4 x float> @_Z11read_imagef14ocl_image3d_ro11ocl_samplerDv4_f(ptr addrspace(4) %i, ptr addrspace(4) %s, <4 x float> %c) alwaysinline {
  %d = call <8 x i32> @gpusim.tsharp(ptr addrspace(4) %i)
  %q = call <4 x i32> @gpusim.ssharp(ptr addrspace(4) %s)
  %u = extractelement <4 x float> %c, i32 0
  %v = extractelement <4 x float> %c, i32 1
  %w = extractelement <4 x float> %c, i32 2
  %r = call <4 x float> @llvm.amdgcn.image.sample.lz.3d.v4f32.f32(i32 15, float %u, float %v, float %w, <8 x i32> %d, <4 x i32> %q, i1 false, i32 0, i32 0)
  ret <4 x float> %r
}
define <4 x float> @_Z11read_imagef20ocl_image2d_array_ro11ocl_samplerDv4_f(ptr addrspace(4) %i, ptr addrspace(4) %s, <4 x float> %c) alwaysinline {
  %d = call <8 x i32> @gpusim.tsharp(ptr addrspace(4) %i)
  %q = call <4 x i32> @gpusim.ssharp(ptr addrspace(4) %s)
  %u = extractelement <4 x float> %c, i32 0
  %v = extractelement <4 x float> %c, i32 1
  %w = extractelement <4 x float> %c, i32 2
  %r = call <4 x float> @llvm.amdgcn.image.sample.lz.2darray.v4f32.f32(i32 15, float %u, float %v, float %w, <8 x i32> %d, <4 x i32> %q, i1 false, i32 0, i32 0)
  ret <4 x float> %r
}

; ---- reads without a sampler (integer coordinates: image_load) ----
define <4 x float> @_Z11read_imagef14ocl_image2d_roDv2_i(ptr addrspace(4) %i, <2 x i32> %c) alwaysinline {
  %d = call <8 x i32> @gpusim.tsharp(ptr addrspace(4) %i)
  %x = extractelement <2 x i32> %c, i32 0
  %y = extractelement <2 x i32> %c, i32 1
  %r = call <4 x float> @llvm.amdgcn.image.load.2d.v4f32.i32(i32 15, i32 %x, i32 %y, <8 x i32> %d, i32 0, i32 0)
  ret <4 x float> %r
}
define <4 x half> @_Z11read_imageh14ocl_image2d_roDv2_i(ptr addrspace(4) %i, <2 x i32> %c) alwaysinline {
  %d = call <8 x i32> @gpusim.tsharp(ptr addrspace(4) %i)
  %x = extractelement <2 x i32> %c, i32 0
  %y = extractelement <2 x i32> %c, i32 1
  %r = call <4 x half> @llvm.amdgcn.image.load.2d.v4f16.i32(i32 15, i32 %x, i32 %y, <8 x i32> %d, i32 0, i32 0)
  ret <4 x half> %r
}
define <4 x i32> @_Z11read_imagei14ocl_image2d_roDv2_i(ptr addrspace(4) %i, <2 x i32> %c) alwaysinline {
  %d = call <8 x i32> @gpusim.tsharp(ptr addrspace(4) %i)
  %x = extractelement <2 x i32> %c, i32 0
  %y = extractelement <2 x i32> %c, i32 1
  %r = call <4 x i32> @llvm.amdgcn.image.load.2d.v4i32.i32(i32 15, i32 %x, i32 %y, <8 x i32> %d, i32 0, i32 0)
  ret <4 x i32> %r
}
define <4 x float> @_Z11read_imagef14ocl_image3d_roDv4_i(ptr addrspace(4) %i, <4 x i32> %c) alwaysinline {
  %d = call <8 x i32> @gpusim.tsharp(ptr addrspace(4) %i)
  %x = extractelement <4 x i32> %c, i32 0
  %y = extractelement <4 x i32> %c, i32 1
  %z = extractelement <4 x i32> %c, i32 2
  %r = call <4 x float> @llvm.amdgcn.image.load.3d.v4f32.i32(i32 15, i32 %x, i32 %y, i32 %z, <8 x i32> %d, i32 0, i32 0)
  ret <4 x float> %r
}
define <4 x float> @_Z11read_imagef20ocl_image2d_array_roDv4_i(ptr addrspace(4) %i, <4 x i32> %c) alwaysinline {
  %d = call <8 x i32> @gpusim.tsharp(ptr addrspace(4) %i)
  %x = extractelement <4 x i32> %c, i32 0
  %y = extractelement <4 x i32> %c, i32 1
  %z = extractelement <4 x i32> %c, i32 2
  %r = call <4 x float> @llvm.amdgcn.image.load.2darray.v4f32.i32(i32 15, i32 %x, i32 %y, i32 %z, <8 x i32> %d, i32 0, i32 0)
  ret <4 x float> %r
}

; ---- writes ----
define void @_Z12write_imagef14ocl_image2d_woDv2_iDv4_f(ptr addrspace(4) %i, <2 x i32> %c, <4 x float> %v) alwaysinline {
  %d = call <8 x i32> @gpusim.tsharp(ptr addrspace(4) %i)
  %x = extractelement <2 x i32> %c, i32 0
  %y = extractelement <2 x i32> %c, i32 1
  call void @llvm.amdgcn.image.store.2d.v4f32.i32(<4 x float> %v, i32 15, i32 %x, i32 %y, <8 x i32> %d, i32 0, i32 0)
  ret void
}
define void @_Z12write_imageh14ocl_image2d_woDv2_iDv4_Dh(ptr addrspace(4) %i, <2 x i32> %c, <4 x half> %v) alwaysinline {
  %d = call <8 x i32> @gpusim.tsharp(ptr addrspace(4) %i)
  %x = extractelement <2 x i32> %c, i32 0
  %y = extractelement <2 x i32> %c, i32 1
  call void @llvm.amdgcn.image.store.2d.v4f16.i32(<4 x half> %v, i32 15, i32 %x, i32 %y, <8 x i32> %d, i32 0, i32 0)
  ret void
}

; ---- gpusim_* helpers (gpusim_image.h) ----
; 16-bit integer coordinates (image_load ... a16).
define <4 x float> @gpusim_load_a16(ptr addrspace(4) %i, i16 %x, i16 %y) alwaysinline {
  %d = call <8 x i32> @gpusim.tsharp(ptr addrspace(4) %i)
  %r = call <4 x float> @llvm.amdgcn.image.load.2d.v4f32.i16(i32 15, i16 %x, i16 %y, <8 x i32> %d, i32 0, i32 0)
  ret <4 x float> %r
}
; f16 coordinates and LOD (image_sample_l ... a16).
define <4 x float> @gpusim_sample_l_a16(ptr addrspace(4) %i, ptr addrspace(4) %s, half %u, half %v, half %lod) alwaysinline {
  %d = call <8 x i32> @gpusim.tsharp(ptr addrspace(4) %i)
  %q = call <4 x i32> @gpusim.ssharp(ptr addrspace(4) %s)
  %r = call <4 x float> @llvm.amdgcn.image.sample.l.2d.v4f32.f16(i32 15, half %u, half %v, half %lod, <8 x i32> %d, <4 x i32> %q, i1 false, i32 0, i32 0)
  ret <4 x float> %r
}
; Explicit LOD, f32 coordinates (image_sample_l).
define <4 x float> @gpusim_sample_l(ptr addrspace(4) %i, ptr addrspace(4) %s, float %u, float %v, float %lod) alwaysinline {
  %d = call <8 x i32> @gpusim.tsharp(ptr addrspace(4) %i)
  %q = call <4 x i32> @gpusim.ssharp(ptr addrspace(4) %s)
  %r = call <4 x float> @llvm.amdgcn.image.sample.l.2d.v4f32.f32(i32 15, float %u, float %v, float %lod, <8 x i32> %d, <4 x i32> %q, i1 false, i32 0, i32 0)
  ret <4 x float> %r
}
; (clamped, unclamped) LOD of the quad's coordinates (image_get_lod).
define <2 x float> @gpusim_get_lod(ptr addrspace(4) %i, ptr addrspace(4) %s, float %u, float %v) alwaysinline {
  %d = call <8 x i32> @gpusim.tsharp(ptr addrspace(4) %i)
  %q = call <4 x i32> @gpusim.ssharp(ptr addrspace(4) %s)
  %r = call <2 x float> @llvm.amdgcn.image.getlod.2d.v2f32.f32(i32 3, float %u, float %v, <8 x i32> %d, <4 x i32> %q, i1 false, i32 0, i32 0)
  ret <2 x float> %r
}
; (width, height, -, levels) at a mip level (image_get_resinfo).
define <4 x i32> @gpusim_resinfo(ptr addrspace(4) %i, i32 %mip) alwaysinline {
  %d = call <8 x i32> @gpusim.tsharp(ptr addrspace(4) %i)
  %r = call <4 x i32> @llvm.amdgcn.image.getresinfo.2d.v4i32.i32(i32 15, i32 %mip, <8 x i32> %d, i32 0, i32 0)
  ret <4 x i32> %r
}
; f16 coordinates with 16-bit result (image_sample_lz ... a16 d16).
define <4 x half> @gpusim_sample_lz_a16_d16(ptr addrspace(4) %i, ptr addrspace(4) %s, half %u, half %v) alwaysinline {
  %d = call <8 x i32> @gpusim.tsharp(ptr addrspace(4) %i)
  %q = call <4 x i32> @gpusim.ssharp(ptr addrspace(4) %s)
  %r = call <4 x half> @llvm.amdgcn.image.sample.lz.2d.v4f16.f16(i32 15, half %u, half %v, <8 x i32> %d, <4 x i32> %q, i1 false, i32 0, i32 0)
  ret <4 x half> %r
}
; One channel of the 2x2 footprint (image_gather4_lz), d16.
define <4 x half> @gpusim_gather4_lz_d16(ptr addrspace(4) %i, ptr addrspace(4) %s, float %u, float %v) alwaysinline {
  %d = call <8 x i32> @gpusim.tsharp(ptr addrspace(4) %i)
  %q = call <4 x i32> @gpusim.ssharp(ptr addrspace(4) %s)
  %r = call <4 x half> @llvm.amdgcn.image.gather4.lz.2d.v4f16.f32(i32 1, float %u, float %v, <8 x i32> %d, <4 x i32> %q, i1 false, i32 0, i32 0)
  ret <4 x half> %r
}

declare <4 x i32> @llvm.amdgcn.image.getresinfo.2d.v4i32.i32(i32, i32, <8 x i32>, i32, i32)
declare <4 x i32> @llvm.amdgcn.image.getresinfo.3d.v4i32.i32(i32, i32, <8 x i32>, i32, i32)
declare <4 x i32> @llvm.amdgcn.image.getresinfo.2darray.v4i32.i32(i32, i32, <8 x i32>, i32, i32)
declare <4 x float> @llvm.amdgcn.image.sample.lz.2d.v4f32.f32(i32, float, float, <8 x i32>, <4 x i32>, i1, i32, i32)
declare <4 x half> @llvm.amdgcn.image.sample.lz.2d.v4f16.f32(i32, float, float, <8 x i32>, <4 x i32>, i1, i32, i32)
declare <4 x float> @llvm.amdgcn.image.sample.lz.3d.v4f32.f32(i32, float, float, float, <8 x i32>, <4 x i32>, i1, i32, i32)
declare <4 x float> @llvm.amdgcn.image.sample.lz.2darray.v4f32.f32(i32, float, float, float, <8 x i32>, <4 x i32>, i1, i32, i32)
declare <4 x float> @llvm.amdgcn.image.load.2d.v4f32.i32(i32, i32, i32, <8 x i32>, i32, i32)
declare <4 x half> @llvm.amdgcn.image.load.2d.v4f16.i32(i32, i32, i32, <8 x i32>, i32, i32)
declare <4 x i32> @llvm.amdgcn.image.load.2d.v4i32.i32(i32, i32, i32, <8 x i32>, i32, i32)
declare <4 x float> @llvm.amdgcn.image.load.3d.v4f32.i32(i32, i32, i32, i32, <8 x i32>, i32, i32)
declare <4 x float> @llvm.amdgcn.image.load.2darray.v4f32.i32(i32, i32, i32, i32, <8 x i32>, i32, i32)
declare void @llvm.amdgcn.image.store.2d.v4f32.i32(<4 x float>, i32, i32, i32, <8 x i32>, i32, i32)
declare void @llvm.amdgcn.image.store.2d.v4f16.i32(<4 x half>, i32, i32, i32, <8 x i32>, i32, i32)
declare <4 x float> @llvm.amdgcn.image.load.2d.v4f32.i16(i32, i16, i16, <8 x i32>, i32, i32)
declare <4 x float> @llvm.amdgcn.image.sample.l.2d.v4f32.f16(i32, half, half, half, <8 x i32>, <4 x i32>, i1, i32, i32)
declare <4 x float> @llvm.amdgcn.image.sample.l.2d.v4f32.f32(i32, float, float, float, <8 x i32>, <4 x i32>, i1, i32, i32)
declare <2 x float> @llvm.amdgcn.image.getlod.2d.v2f32.f32(i32, float, float, <8 x i32>, <4 x i32>, i1, i32, i32)
declare <4 x half> @llvm.amdgcn.image.sample.lz.2d.v4f16.f16(i32, half, half, <8 x i32>, <4 x i32>, i1, i32, i32)
declare <4 x half> @llvm.amdgcn.image.gather4.lz.2d.v4f16.f32(i32, float, float, <8 x i32>, <4 x i32>, i1, i32, i32)
