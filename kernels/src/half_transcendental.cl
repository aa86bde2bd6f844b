// libclc f16 math: exp, log2, sin, cos, sqrt, pow and tanh on halves (computed by libclc through float).
#include "gpusim_hsa.h"
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
__kernel void half_transcendental(__global const half *x, __global const half *y, __global half *out) {
  size_t i = get_global_id(0);
  half u = x[i], v = y[i];
  __global half *o = out + 7 * i;
  o[0] = exp(u);
  o[1] = log2(v);
  o[2] = sin(u);
  o[3] = cos(u);
  o[4] = sqrt(v);
  o[5] = pow(v, u);
  o[6] = tanh(u);
}
