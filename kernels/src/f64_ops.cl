// f64 through libclc: floor/ceil/trunc/rint, fmin*fmax, fma, divide and sqrt on doubles built exactly from ints.
#include "gpusim_hsa.h"
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
__kernel void f64_ops(__global const int *a, __global const int *b, __global double *out) {
  size_t i = get_global_id(0);
  double x = (double)a[i] * 0.0009765625, y = (double)b[i] * 0.0078125 + 0.5;
  __global double *o = out + 8 * i;
  o[0] = floor(x);
  o[1] = ceil(x);
  o[2] = trunc(x);
  o[3] = rint(x);
  o[4] = fmin(x, y) * fmax(x, y);
  o[5] = fma(x, y, -x);
  o[6] = x / y;
  o[7] = sqrt(fabs(y));
}
