// f64 dot product: products in a 128-double LDS array, tree reduction with a barrier per level, one partial per group.
#include "gpusim_hsa.h"
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL FP_CONTRACT OFF
__kernel __attribute__((reqd_work_group_size(128, 1, 1)))
void dot_f64(__global const double *a, __global const double *b, __global double *partial) {
  __local double s[128];
  uint l = get_local_id(0);
  size_t g = get_global_id(0);
  s[l] = a[g] * b[g];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint stride = 64; stride > 0; stride >>= 1) {
    if (l < stride) s[l] += s[l + stride];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (l == 0) partial[get_group_id(0)] = s[0];
}
