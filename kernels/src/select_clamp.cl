// Branch-free selects: clamp to [lo, hi] and a conditional negate (v_cndmask / v_max / v_min).
#include "gpusim_cl.h"
__kernel void select_clamp(__global const float *x, __global float *y, float lo, float hi) {
  size_t i = get_global_id(0);
  float v = x[i];
  v = v < lo ? lo : v;
  v = v > hi ? hi : v;
  y[i] = (i & 1) ? -v : v;
}
