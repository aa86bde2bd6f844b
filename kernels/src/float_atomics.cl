// Float atomics with -munsafe-fp-atomics: global and LDS f32 add (integer-valued, so any order is exact), global f32 min/max.
// build: -munsafe-fp-atomics
#include "gpusim_hsa.h"
#define R memory_order_relaxed
__kernel __attribute__((reqd_work_group_size(64, 1, 1)))
void float_atomics(__global const float *in, __global volatile atomic_float *acc, __global float *groupsum) {
  __local atomic_float s;
  uint l = get_local_id(0);
  if (l == 0) __opencl_atomic_store(&s, 0.0f, R, memory_scope_work_group);
  barrier(CLK_LOCAL_MEM_FENCE);
  float x = in[get_global_id(0)];
  __opencl_atomic_fetch_add(&acc[0], x, R, memory_scope_device);
  __opencl_atomic_fetch_min(&acc[1], x, R, memory_scope_device);
  __opencl_atomic_fetch_max(&acc[2], x, R, memory_scope_device);
  __opencl_atomic_fetch_add(&s, x, R, memory_scope_work_group);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (l == 0) groupsum[get_group_id(0)] = __opencl_atomic_load(&s, R, memory_scope_work_group);
}
