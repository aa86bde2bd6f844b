// Benchmark: work-group sum with a single barrier. Every work-item stores its element to LDS; after
// the barrier the first 32 work-items (one wave in wave32 and wave64) each add 8 strided elements,
// put the sum back in LDS, and work-item 0 adds those 32 (same wave: no second barrier needed).
#include "gpusim_cl.h"
__kernel __attribute__((reqd_work_group_size(256, 1, 1)))
void reduce_onebarrier(__global const float *in, __global float *partial) {
  __local volatile float s[256];
  uint l = get_local_id(0);
  s[l] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  if (l < 32) {
    float a = 0.0f;
    for (uint j = 0; j < 8; j++) a += s[l + 32 * j];
    s[l] = a;
    if (l == 0) {
      float t = 0.0f;
      for (uint j = 0; j < 32; j++) t += s[j];
      partial[get_group_id(0)] = t;
    }
  }
}
