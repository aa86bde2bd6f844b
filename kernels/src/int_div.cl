// 32-bit integer division and remainder (signed and unsigned, the v_rcp_iflag expansion) and libclc's exact f32 fmod.
#include "gpusim_hsa.h"
__kernel void int_div(__global const int *a, __global const int *b, __global int *q, __global float *fm) {
  size_t i = get_global_id(0);
  int x = a[i], y = b[i] | 1; /* never zero */
  __global int *o = q + 4 * i;
  o[0] = x / y;
  o[1] = x % y;
  o[2] = (int)((uint)x / (uint)y);
  o[3] = (int)((uint)x % (uint)y);
  fm[i] = fmod((float)x * 0.001f, (float)y * 0.0001f);
}
