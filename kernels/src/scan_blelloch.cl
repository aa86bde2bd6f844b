// Work-efficient exclusive scan (Blelloch up-sweep/down-sweep) of 256 uints per group, 2 per work-item; group totals out.
#include "gpusim_hsa.h"
__kernel __attribute__((reqd_work_group_size(128, 1, 1)))
void scan_blelloch(__global const uint *in, __global uint *out, __global uint *sums) {
  __local uint s[256];
  uint l = get_local_id(0), base = get_group_id(0) * 256;
  s[2 * l] = in[base + 2 * l];
  s[2 * l + 1] = in[base + 2 * l + 1];
  uint off = 1;
  for (uint d = 128; d > 0; d >>= 1) {
    barrier(CLK_LOCAL_MEM_FENCE);
    if (l < d) {
      uint ai = off * (2 * l + 1) - 1, bi = off * (2 * l + 2) - 1;
      s[bi] += s[ai];
    }
    off <<= 1;
  }
  if (l == 0) { sums[get_group_id(0)] = s[255]; s[255] = 0; }
  for (uint d = 1; d < 256; d <<= 1) {
    off >>= 1;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (l < d) {
      uint ai = off * (2 * l + 1) - 1, bi = off * (2 * l + 2) - 1;
      uint t = s[ai];
      s[ai] = s[bi];
      s[bi] += t;
    }
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  out[base + 2 * l] = s[2 * l];
  out[base + 2 * l + 1] = s[2 * l + 1];
}
