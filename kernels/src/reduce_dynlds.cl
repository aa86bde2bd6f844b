// Same tree reduction over ints in a __local int* argument (dynamic LDS sized by the host).
#include "gpusim_cl.h"
__kernel void reduce_dynlds(__global const int *in, __global int *partial, __local int *s) {
  uint l = get_local_id(0), n = get_local_size(0);
  s[l] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint stride = n / 2; stride > 0; stride >>= 1) {
    if (l < stride) s[l] += s[l + stride];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (l == 0) partial[get_group_id(0)] = s[0];
}
