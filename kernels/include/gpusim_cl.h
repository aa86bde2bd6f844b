/*
 * gpusim_cl.h: the few OpenCL work-item functions our kernels use, written on clang's AMDGPU
 * builtins so the kernels build with -nogpulib (no libclc / ROCm device libs needed).
 *
 * Sizes come from the HSA kernel dispatch packet (dispatch_ptr), whose layout is the same for every
 * code object version:  +4 workgroup_size_x/y/z (u16 each), +12 grid_size_x/y/z (u32 each).
 * The global offset comes from the implicit kernel arguments, whose layout depends on the code
 * object version (v4: hidden_global_offset_x at +0; v5/v6: at +40); clang emits the constant
 * __oclc_ABI_version (400/500/600) into every module, so we branch on it like the device libs do.
 */
#ifndef GPUSIM_CL_H
#define GPUSIM_CL_H

#pragma OPENCL EXTENSION cl_khr_fp16 : enable
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

#define GPUSIM_INLINE static inline __attribute__((always_inline, overloadable))

GPUSIM_INLINE uint gpusim_local_id(uint d) {
  return d == 0 ? __builtin_amdgcn_workitem_id_x() : d == 1 ? __builtin_amdgcn_workitem_id_y()
       : d == 2 ? __builtin_amdgcn_workitem_id_z() : 0u;
}
GPUSIM_INLINE uint gpusim_group_id(uint d) {
  return d == 0 ? __builtin_amdgcn_workgroup_id_x() : d == 1 ? __builtin_amdgcn_workgroup_id_y()
       : d == 2 ? __builtin_amdgcn_workgroup_id_z() : 0u;
}
GPUSIM_INLINE uint gpusim_local_size(uint d) {
  __constant ushort *p = (__constant ushort *)__builtin_amdgcn_dispatch_ptr();
  return d < 3 ? p[2 + d] : 1u;
}
GPUSIM_INLINE uint gpusim_grid_size(uint d) {
  __constant uint *p = (__constant uint *)__builtin_amdgcn_dispatch_ptr();
  return d < 3 ? p[3 + d] : 1u;
}

extern const __constant int __oclc_ABI_version;

GPUSIM_INLINE size_t get_global_offset(uint d) {
  if (d >= 3) return 0;
  __constant ulong *ia = (__constant ulong *)__builtin_amdgcn_implicitarg_ptr();
  return __oclc_ABI_version < 500 ? ia[d] : ia[5 + d];
}

GPUSIM_INLINE size_t get_local_id(uint d) { return gpusim_local_id(d); }
GPUSIM_INLINE size_t get_group_id(uint d) { return gpusim_group_id(d); }
GPUSIM_INLINE size_t get_local_size(uint d) { return gpusim_local_size(d); }
GPUSIM_INLINE size_t get_global_size(uint d) { return gpusim_grid_size(d); }
GPUSIM_INLINE size_t get_num_groups(uint d) {
  uint g = gpusim_grid_size(d), l = gpusim_local_size(d);
  return (g + l - 1) / l;
}
/* Without the global offset (most kernels): no implicit arguments are needed. */
GPUSIM_INLINE size_t get_global_id(uint d) {
  return (size_t)gpusim_group_id(d) * gpusim_local_size(d) + gpusim_local_id(d);
}
GPUSIM_INLINE uint get_work_dim(void) {
  __constant ushort *p = (__constant ushort *)__builtin_amdgcn_dispatch_ptr();
  return p[1] & 3u; /* setup.dimensions */
}

/* CLK_LOCAL_MEM_FENCE / CLK_GLOBAL_MEM_FENCE come from clang's opencl-c-base.h. */
/* Release our writes, wait for the whole work-group, acquire everyone else's. */
GPUSIM_INLINE void barrier(int flags) {
  (void)flags;
  __builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup");
  __builtin_amdgcn_s_barrier();
  __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup");
}

#endif
