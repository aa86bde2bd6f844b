// __builtin_trap() (s_trap 2) in waves holding a negative input: run with a trap handler from the manifest.
#include "gpusim_hsa.h"
__kernel void trap(__global const int *in, __global int *out) {
  size_t i = get_global_id(0);
  int v = in[i];
  if (v < 0) __builtin_trap();
  out[i] = v * 2;
}
