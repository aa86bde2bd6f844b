// Per-work-item insertion sort of 48 ints in a private array (dynamic indexing: scratch or VGPR indexing).
#include "gpusim_hsa.h"
__kernel void private_sort(__global const int *in, __global int *out) {
  int v[48];
  size_t g = get_global_id(0);
  for (int k = 0; k < 48; k++) v[k] = in[g * 48 + k];
  #pragma nounroll
  for (int k = 1; k < 48; k++) {
    int x = v[k], j = k - 1;
    while (j >= 0 && v[j] > x) { v[j + 1] = v[j]; j--; }
    v[j + 1] = x;
  }
  for (int k = 0; k < 48; k++) out[g * 48 + k] = v[k];
}
