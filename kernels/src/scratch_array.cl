// A private array indexed by a runtime value, so it lives in scratch (private segment).
#include "gpusim_cl.h"
__kernel void scratch_array(__global const int *idx, __global int *out) {
  int priv[64];
  size_t g = get_global_id(0);
  for (int j = 0; j < 64; j++) priv[j] = j * (int)g;
  int k = idx[g] & 63;
  priv[k] += 1000;
  out[g] = priv[(k * 7) & 63] + priv[k];
}
