// Divergent while loop with data-dependent trip counts: Collatz steps to reach 1 (capped) and the peak value.
#include "gpusim_hsa.h"
__kernel void collatz(__global const uint *start, __global uint *steps, __global uint *peak) {
  size_t i = get_global_id(0);
  uint n = start[i], s = 0, p = n;
  while (n != 1 && s < 1000) {
    n = (n & 1) ? 3 * n + 1 : n >> 1;
    p = max(p, n);
    s++;
  }
  steps[i] = s;
  peak[i] = p;
}
