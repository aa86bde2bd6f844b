// 64-bit integer math: add/sub/mul, shifts (logical, arithmetic), popcount, clz, rotate, mul_hi, divide and remainder.
#include "gpusim_hsa.h"
__kernel void int64_ops(__global const ulong *a, __global const ulong *b, __global ulong *out) {
  size_t i = get_global_id(0);
  ulong x = a[i], y = b[i];
  __global ulong *o = out + 12 * i;
  o[0] = x + y;
  o[1] = x - y;
  o[2] = x * y;
  o[3] = x >> (y & 63);
  o[4] = (ulong)((long)x >> (y & 63));
  o[5] = x << (y & 63);
  o[6] = popcount(x);
  o[7] = clz(x);
  o[8] = rotate(x, y);
  o[9] = mul_hi(x, y);
  o[10] = x / (y | 1);
  o[11] = (ulong)((long)x % (long)(y | 1));
}
