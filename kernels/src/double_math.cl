// f64: add/mul/fma/div and a double sqrt, with int64 <-> double conversions.
#include "gpusim_cl.h"
__kernel void double_math(__global const double *a, __global const double *b, __global double *out, __global long *li) {
  size_t i = get_global_id(0);
  double x = a[i], y = b[i];
  out[2 * i] = __builtin_fma(x, y, x / (y + 1.0));
  out[2 * i + 1] = __builtin_sqrt(x * x + y * y);
  li[i] = (long)(x * 1024.0) + (long)y;
}
