// Divergent control flow on the lane id: if/else chains, early return, a lane-dependent loop.
#include "gpusim_cl.h"
__kernel void branch_lane(__global int *out, int k) {
  uint l = get_local_id(0);
  size_t g = get_global_id(0);
  if (l == 7) return;
  int v;
  if (l & 1) v = (int)l * 3;
  else if (l % 4 == 0) v = -(int)l;
  else v = k;
  for (uint j = 0; j < (l & 7); j++) v += (int)j;
  out[g] = v;
}
