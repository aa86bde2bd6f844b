// f16 through libclc: Horner polynomial with half fma, fmin/fmax clamp, sqrt(fabs), half -> float widening.
#include "gpusim_hsa.h"
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
__kernel void half_poly(__global const half *x, __global half *out, __global float *wide) {
  size_t i = get_global_id(0);
  half v = x[i];
  half p = fma(fma(fma(v, 0.5h, -1.0h), v, 0.25h), v, 2.0h);
  out[3 * i] = p;
  out[3 * i + 1] = fmax(fmin(v, 0.75h), -0.75h);
  out[3 * i + 2] = sqrt(fabs(v));
  wide[i] = (float)v * 3.0f;
}
