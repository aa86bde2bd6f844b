// Two dynamic __local arguments plus static LDS (group_segment_fixed_size vs dynamic sizes).
#include "gpusim_cl.h"
__kernel void dyn_index_lds(__global const float *in, __global float *out, __local float *a, __local float *b) {
  __local float fixed[32];
  uint l = get_local_id(0);
  a[l] = in[get_global_id(0)];
  b[l] = 2.0f * a[l];
  if (l < 32) fixed[l] = (float)l;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = a[l] + b[(l + 1) % get_local_size(0)] + fixed[l & 31];
}
