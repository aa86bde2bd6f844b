// Stream compaction with a global atomic counter: keeps values above a threshold (output order is schedule-dependent).
#include "gpusim_hsa.h"
__kernel void stream_compact(__global const uint *in, __global uint *out, __global volatile uint *count, uint threshold) {
  size_t i = get_global_id(0);
  uint v = in[i];
  if (v > threshold) out[atomic_inc(count)] = v;
}
