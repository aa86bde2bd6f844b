/*
 * gpusim_hsa.h: for kernels built with libclc-19 (kernels/build.sh links libclc when a kernel does
 * not include gpusim_cl.h). libclc 19's amdgcn get_global_offset and get_work_dim read the Mesa
 * (clover) implicit-argument layout (implicitarg[0] = work_dim, [1..3] = offsets), but under the HSA
 * code object ABI the implicit arguments are hidden_block_count_x/y/z, hidden_group_size_*, ... (v5:
 * hidden_global_offset_x at +40 and hidden_grid_dims at +64; v4: offsets at +0), so under ROCm (and
 * gpusim, which fills the kernarg segment as ROCm does) libclc's get_global_id, which adds that
 * offset, is shifted by hidden_block_count_y. These definitions replace the three functions:
 * -mlink-builtin-bitcode only pulls in what the module leaves undefined.
 */
#ifndef GPUSIM_HSA_H
#define GPUSIM_HSA_H

extern const __constant int __oclc_ABI_version;

__attribute__((overloadable)) size_t get_global_offset(uint d) {
  if (d >= 3) return 0;
  __constant ulong *ia = (__constant ulong *)__builtin_amdgcn_implicitarg_ptr();
  return __oclc_ABI_version < 500 ? ia[d] : ia[5 + d];
}

__attribute__((overloadable)) uint get_work_dim(void) {
  __constant ushort *p = (__constant ushort *)__builtin_amdgcn_dispatch_ptr();
  return p[1] & 3u; /* hsa_kernel_dispatch_packet_t.setup: dimensions */
}

__attribute__((overloadable)) size_t get_global_id(uint d) {
  return get_group_id(d) * get_local_size(d) + get_local_id(d) + get_global_offset(d);
}

#endif
