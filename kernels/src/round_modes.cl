// MODE.FP_ROUND set by s_setreg: f32 add, mul and fma under round to nearest even, toward +inf, toward -inf and toward zero.
#include "gpusim_hsa.h"
/* hwreg(HW_REG_MODE, 0, 2): the f32 rounding field; 0 nearest even, 1 +inf, 2 -inf, 3 zero. */
#define SET_ROUND(m) __builtin_amdgcn_s_setreg(0x801, (m))
/* Make the operands look new after each mode change so nothing is computed once and reused. */
#define FRESH(x, y, z) __asm__ volatile("" : "+v"(x), "+v"(y), "+v"(z))
__kernel void round_modes(__global const float *a, __global const float *b, __global const float *c, __global float *out) {
  size_t i = get_global_id(0);
  float x = a[i], y = (i & 1) ? -b[i] : b[i], z = (i & 2) ? -c[i] : c[i];
  __global float *o = out + 12 * i;
#pragma unroll
  for (int m = 0; m < 4; m++) {
    SET_ROUND(m);
    FRESH(x, y, z);
    o[3 * m] = x + y;
    o[3 * m + 1] = x * y;
    o[3 * m + 2] = fma(x, y, z);
  }
  SET_ROUND(0);
}
