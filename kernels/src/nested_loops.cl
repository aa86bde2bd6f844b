// Nested divergent loops with continue and break whose trip counts depend on the data and the work-item id.
#include "gpusim_hsa.h"
__kernel void nested_loops(__global const int *a, __global int *out) {
  int g = get_global_id(0);
  int n = a[g] & 15, acc = 0;
  for (int i = 0; i < n; i++) {
    if ((i ^ g) & 1) continue;
    for (int j = i; j < 2 * n; j++) {
      if (j * i > 3 * n) break;
      acc += j - i;
    }
  }
  out[g] = acc;
}
