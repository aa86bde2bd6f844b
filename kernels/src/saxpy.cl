// y = a*x + y with a scalar kernel argument (uses fma, so v_fma/v_fmac).
#include "gpusim_cl.h"
__kernel void saxpy(float a, __global const float *x, __global float *y) {
  size_t i = get_global_id(0);
  y[i] = __builtin_fmaf(a, x[i], y[i]);
}
