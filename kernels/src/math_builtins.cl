// Transcendentals through clang builtins: sqrt, rsq, rcp, exp2, log2, sin, cos, fract, ldexp.
#include "gpusim_cl.h"
__kernel void math_builtins(__global const float *x, __global float *out) {
  size_t i = get_global_id(0);
  float v = x[i];
  __global float *o = out + i * 9;
  o[0] = __builtin_sqrtf(v);
  o[1] = __builtin_amdgcn_rsqf(v);
  o[2] = __builtin_amdgcn_rcpf(v);
  o[3] = __builtin_amdgcn_exp2f(v);
  o[4] = __builtin_amdgcn_logf(v);
  o[5] = __builtin_amdgcn_sinf(v);
  o[6] = __builtin_amdgcn_cosf(v);
  o[7] = __builtin_amdgcn_fractf(v);
  o[8] = __builtin_amdgcn_ldexpf(v, 3);
}
