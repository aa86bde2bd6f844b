// f32 with denormals flushed (-cl-denorms-are-zero: FLOAT_DENORM_MODE_32 = 0 in the descriptor, so MODE flushes).
// build: -cl-denorms-are-zero
#include "gpusim_hsa.h"
__kernel void denorm_ftz(__global const float *a, __global const float *b, __global float *out) {
  size_t i = get_global_id(0);
  float x = a[i], y = b[i];
  __global float *o = out + 4 * i;
  o[0] = x * y;
  o[1] = x + y * 0x1p-120f;
  o[2] = fma(x, y, x);
  o[3] = x * 0x1p-100f;
}
