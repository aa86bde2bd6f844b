// 64-bit global atomics (cl_khr_int64_*_atomics): add, max, min and xor of widened values into ulong counters.
#include "gpusim_hsa.h"
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable
__kernel void atomics64(__global const uint *v, __global volatile ulong *acc) {
  size_t i = get_global_id(0);
  ulong x = (ulong)v[i] * 4099u;
  atom_add(&acc[0], x);
  atom_max(&acc[1], x);
  atom_min(&acc[2], x);
  atom_xor(&acc[3], x << 20);
}
