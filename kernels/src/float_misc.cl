// fabs, copysign, fmin/fmax, floor/ceil/trunc/rint, float4 vector loads and stores.
#include "gpusim_cl.h"
__kernel void float_misc(__global const float4 *a, __global const float4 *b, __global float4 *out) {
  size_t i = get_global_id(0);
  float4 x = a[i], y = b[i];
  float4 r;
  r.x = __builtin_fabsf(x.x) + __builtin_copysignf(y.x, x.y);
  r.y = __builtin_fminf(x.y, y.y) * __builtin_fmaxf(x.z, y.z);
  r.z = __builtin_floorf(x.z) + __builtin_ceilf(y.z) + __builtin_truncf(x.w);
  r.w = __builtin_rintf(y.w) - x.x * y.x;
  out[i] = r;
}
