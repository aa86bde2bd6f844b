// Reports get_local_size, get_num_groups, get_global_size per dimension and get_work_dim.
#include "gpusim_cl.h"
__kernel void query_sizes(__global uint *out) {
  if (get_global_id(0) != 0 || get_global_id(1) != 0 || get_global_id(2) != 0) return;
  for (uint d = 0; d < 3; d++) {
    out[d] = get_local_size(d);
    out[3 + d] = get_num_groups(d);
    out[6 + d] = get_global_size(d);
  }
  out[9] = get_work_dim();
}
