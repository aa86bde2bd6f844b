// 64-bin byte histogram: per-group bins in LDS with local atomics, then global atomic adds.
#include "gpusim_cl.h"
__kernel void histogram(__global const uchar *data, uint n, __global volatile uint *bins) {
  __local volatile uint lbins[64];
  uint l = get_local_id(0);
  if (l < 64) lbins[l] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  size_t i = get_global_id(0);
  if (i < n) __opencl_atomic_fetch_add((volatile __local atomic_uint *)&lbins[data[i] & 63], 1u,
                                       memory_order_relaxed, memory_scope_work_group);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (l < 64) __opencl_atomic_fetch_add((volatile __global atomic_uint *)&bins[l], lbins[l],
                                        memory_order_relaxed, memory_scope_device);
}
