// Element-wise 32-bit integer multiply, plus a 64-bit multiply into a long output.
#include "gpusim_cl.h"
__kernel void vmul_int(__global const int *a, __global const int *b, __global int *c, __global long *c64) {
  size_t i = get_global_id(0);
  c[i] = a[i] * b[i];
  c64[i] = (long)a[i] * (long)b[i];
}
