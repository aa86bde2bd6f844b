// libclc f64 transcendentals: exp, log, sin, cos, pow, atan2, cbrt, tanh on doubles (OpenCL full-profile ULP bounds).
#include "gpusim_hsa.h"
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
__kernel void f64_transcendental(__global const double *x, __global const double *y, __global double *out) {
  size_t i = get_global_id(0);
  double u = x[i], v = y[i];
  __global double *o = out + 8 * i;
  o[0] = exp(u);
  o[1] = log(v);
  o[2] = sin(u);
  o[3] = cos(u);
  o[4] = pow(v, u);
  o[5] = atan2(u, v);
  o[6] = cbrt(u);
  o[7] = tanh(u);
}
