// Matrix transpose through a padded 16x17 LDS tile (avoids bank conflicts), 2D work-groups.
#include "gpusim_cl.h"
__kernel __attribute__((reqd_work_group_size(16, 16, 1)))
void transpose(__global const float *in, __global float *out, uint w, uint h) {
  __local float tile[16][17];
  uint x = get_group_id(0) * 16 + get_local_id(0), y = get_group_id(1) * 16 + get_local_id(1);
  if (x < w && y < h) tile[get_local_id(1)][get_local_id(0)] = in[y * w + x];
  barrier(CLK_LOCAL_MEM_FENCE);
  x = get_group_id(1) * 16 + get_local_id(0);
  y = get_group_id(0) * 16 + get_local_id(1);
  if (x < h && y < w) out[y * h + x] = tile[get_local_id(0)][get_local_id(1)];
}
