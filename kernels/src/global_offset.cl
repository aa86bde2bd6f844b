// Uses the global work offset from the implicit kernel arguments, so the metadata lists hidden args.
#include "gpusim_cl.h"
__kernel void global_offset(__global uint *out) {
  size_t g = get_global_id(0) + get_global_offset(0);
  out[get_global_id(0)] = (uint)g;
}
