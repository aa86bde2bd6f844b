// Benchmark: d[i] = (a[i] + b[i]) * c[i] over floats (global loads/stores, one work-item per element).
#include "gpusim_cl.h"
__kernel void vaddmul(__global const float *a, __global const float *b, __global const float *c,
                      __global float *d, uint n) {
  size_t i = get_global_id(0);
  if (i < n) d[i] = (a[i] + b[i]) * c[i];
}
