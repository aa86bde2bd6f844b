// Integer ALU: shifts, rotate, popcount, clz/ctz, mul_hi (u32 and i32), min/max, bitfield extract/insert.
#include "gpusim_cl.h"
__kernel void int_ops(__global const uint *a, __global const uint *b, __global uint *out) {
  size_t i = get_global_id(0);
  uint x = a[i], y = b[i];
  __global uint *o = out + i * 12;
  o[0] = x << (y & 31);
  o[1] = (uint)((int)x >> (y & 31));
  o[2] = (x << (y & 31)) | (x >> ((32 - y) & 31));
  o[3] = __builtin_popcount(x);
  o[4] = x ? __builtin_clz(x) : 32u;
  o[5] = x ? __builtin_ctz(x) : 32u;
  o[6] = (uint)(((ulong)x * (ulong)y) >> 32);
  o[7] = (uint)(((long)(int)x * (long)(int)y) >> 32);
  o[8] = (int)x < (int)y ? x : y;
  o[9] = x > y ? x : y;
  o[10] = __builtin_amdgcn_ubfe(x, y & 31, 5);
  o[11] = (x & ~(0xffu << 8)) | ((y & 0xffu) << 8);
}
