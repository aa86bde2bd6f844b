// Each work-item writes LDS, barrier, then reads its neighbour's slot (rotate within the group).
#include "gpusim_cl.h"
__kernel __attribute__((reqd_work_group_size(64, 1, 1)))
void lds_rotate(__global const uint *in, __global uint *out) {
  __local uint s[64];
  uint l = get_local_id(0);
  s[l] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = s[(l + 1) & 63];
}
