// Bitonic sort of 256 uints per work-group in LDS: 36 compare-exchange stages, a barrier after each.
#include "gpusim_hsa.h"
__kernel __attribute__((reqd_work_group_size(256, 1, 1)))
void bitonic_sort(__global uint *data) {
  __local uint s[256];
  uint l = get_local_id(0), base = get_group_id(0) * 256;
  s[l] = data[base + l];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint k = 2; k <= 256; k <<= 1) {
    for (uint j = k >> 1; j > 0; j >>= 1) {
      uint p = l ^ j;
      if (p > l) {
        uint a = s[l], b = s[p];
        bool up = (l & k) == 0;
        if ((a > b) == up) { s[l] = b; s[p] = a; }
      }
      barrier(CLK_LOCAL_MEM_FENCE);
    }
  }
  data[base + l] = s[l];
}
