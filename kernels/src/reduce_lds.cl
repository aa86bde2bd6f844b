// Work-group sum by tree reduction in a fixed 256-float LDS array; one partial sum per group.
#include "gpusim_cl.h"
__kernel __attribute__((reqd_work_group_size(256, 1, 1)))
void reduce_lds(__global const float *in, __global float *partial) {
  __local float s[256];
  uint l = get_local_id(0);
  s[l] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint stride = 128; stride > 0; stride >>= 1) {
    if (l < stride) s[l] += s[l + stride];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (l == 0) partial[get_group_id(0)] = s[0];
}
