// 1D convolution (9 taps) through an LDS tile with a halo on each side; edges clamp (libclc min/max).
#include "gpusim_hsa.h"
#pragma OPENCL FP_CONTRACT OFF
#define R 4
__kernel __attribute__((reqd_work_group_size(64, 1, 1)))
void conv1d_lds(__global const float *in, __global float *out, __constant float *taps, uint n) {
  __local float tile[64 + 2 * R];
  int l = get_local_id(0), g = get_global_id(0), base = get_group_id(0) * 64, last = (int)n - 1;
  tile[l + R] = in[min(g, last)];
  if (l < R) {
    tile[l] = in[max(base - R + l, 0)];
    tile[64 + R + l] = in[min(base + 64 + l, last)];
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  float acc = 0.0f;
  for (int k = 0; k <= 2 * R; k++) acc += tile[l + k] * taps[k];
  if (g < (int)n) out[g] = acc;
}
