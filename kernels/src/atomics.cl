// Global atomics: min, max, or/xor/and, and a compare-exchange loop doing a float add.
#include "gpusim_cl.h"
#define R memory_order_relaxed
#define DEV memory_scope_device
__kernel void atomics(__global volatile atomic_int *mn, __global volatile atomic_int *mx,
                      __global volatile atomic_uint *bits, __global volatile atomic_int *fsum,
                      __global const int *v) {
  size_t i = get_global_id(0);
  int x = v[i];
  __opencl_atomic_fetch_min(mn, x, R, DEV);
  __opencl_atomic_fetch_max(mx, x, R, DEV);
  __opencl_atomic_fetch_or(bits, 1u << (i & 31), R, DEV);
  __opencl_atomic_fetch_xor(bits + 1, (uint)x, R, DEV);
  __opencl_atomic_fetch_and(bits + 2, ~(1u << (x & 31)), R, DEV);
  int old = __opencl_atomic_load(fsum, R, DEV);
  int want;
  do {
    want = as_int(as_float(old) + (float)x);
  } while (!__opencl_atomic_compare_exchange_strong(fsum, &old, want, R, R, DEV));
}
