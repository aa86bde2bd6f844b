// 3D NDRange: write the linear global index at each (x, y, z); all three work-item id VGPRs.
#include "gpusim_cl.h"
__kernel void grid3d(__global uint *out) {
  size_t x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);
  size_t w = get_global_size(0), h = get_global_size(1);
  out[(z * h + y) * w + x] = (uint)(x + 1000 * y + 1000000 * z);
}
