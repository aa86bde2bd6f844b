// Conversions: float<->int (signed, unsigned), float->half, int narrowing, saturating clamp.
#include "gpusim_cl.h"
__kernel void convert(__global const float *f, __global int *si, __global uint *ui, __global half *h,
                      __global char *c, __global float *back) {
  size_t i = get_global_id(0);
  float v = f[i];
  si[i] = (int)v;
  ui[i] = (uint)(v < 0.0f ? 0.0f : v);
  h[i] = (half)v;
  int t = (int)v;
  c[i] = (char)(t > 127 ? 127 : t < -128 ? -128 : t);
  back[i] = (float)si[i] + (float)ui[i];
}
