// Inclusive prefix sum within a 128-item work-group (Hillis-Steele, double-buffered LDS).
#include "gpusim_cl.h"
__kernel __attribute__((reqd_work_group_size(128, 1, 1)))
void prefix_scan(__global const uint *in, __global uint *out) {
  __local uint buf[2][128];
  uint l = get_local_id(0), src = 0;
  buf[0][l] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint off = 1; off < 128; off <<= 1) {
    uint v = buf[src][l];
    if (l >= off) v += buf[src][l - off];
    buf[src ^ 1][l] = v;
    src ^= 1;
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  out[get_global_id(0)] = buf[src][l];
}
