// libclc integer builtins: add_sat/sub_sat, hadd/rhadd, abs_diff, mul24/mad24, mul_hi, clamp, rotate, upsample.
#include "gpusim_hsa.h"
__kernel void int_builtins(__global const int *a, __global const int *b, __global int *out, __global long *wide) {
  size_t i = get_global_id(0);
  int x = a[i], y = b[i];
  __global int *o = out + 10 * i;
  o[0] = add_sat(x, y);
  o[1] = sub_sat(x, y);
  o[2] = hadd(x, y);
  o[3] = rhadd(x, y);
  o[4] = (int)abs_diff(x, y);
  o[5] = mul24(x >> 8, y >> 8);
  o[6] = mad24(x >> 8, y >> 8, x);
  o[7] = mul_hi(x, y);
  o[8] = clamp(x, -1000, 1000);
  o[9] = rotate(x, y);
  wide[i] = upsample(x, (uint)y);
}
