// f16 arithmetic with cl_khr_fp16: packed-friendly half2 math, fma, conversions.
#include "gpusim_cl.h"
__kernel void half_math(__global const half *a, __global const half *b, __global half *out, __global half2 *out2) {
  size_t i = get_global_id(0);
  half x = a[i], y = b[i];
  out[i] = x * y + (x - y) / (half)2.0h;
  half2 p = (half2)(x, y), q = (half2)(y, x);
  out2[i] = p * q + p;
}
