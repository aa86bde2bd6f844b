// Cross-lane data movement: ds_bpermute (rotate by one lane), readfirstlane, and mbcnt.
#include "gpusim_cl.h"
__kernel void shuffle(__global const int *in, __global int *out, __global int *first) {
  size_t g = get_global_id(0);
  uint lane = __builtin_amdgcn_mbcnt_lo(~0u, 0u);
  int v = in[g];
  int rot = __builtin_amdgcn_ds_bpermute((int)(((lane + 1) & 31) * 4), v);
  out[g] = rot;
  if (lane == 0) first[get_group_id(0)] = __builtin_amdgcn_readfirstlane(v);
}
