// Data-dependent loop: each work-item sums its row of a CSR-like array (variable trip count).
#include "gpusim_cl.h"
__kernel void loop_sum(__global const uint *rowstart, __global const float *vals, __global float *out) {
  size_t r = get_global_id(0);
  float s = 0.0f;
  for (uint j = rowstart[r]; j < rowstart[r + 1]; j++) s += vals[j];
  out[r] = s;
}
