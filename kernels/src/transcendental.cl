// libclc f32 transcendentals: sin, cos, tan, exp, log, pow, atan2, tanh (OpenCL full-profile ULP bounds).
#include "gpusim_hsa.h"
__kernel void transcendental(__global const float *x, __global const float *y, __global float *out) {
  size_t i = get_global_id(0);
  float u = x[i], v = y[i];
  __global float *o = out + 8 * i;
  o[0] = sin(u);
  o[1] = cos(u);
  o[2] = tan(u);
  o[3] = exp(u);
  o[4] = log(v);
  o[5] = pow(v, u);
  o[6] = atan2(u, v);
  o[7] = tanh(u);
}
