// LDS atomics: min/max (signed and unsigned), and/or/xor, exchange, compare-exchange counter, inc with wrap; per-group results.
#include "gpusim_hsa.h"
#define R memory_order_relaxed
#define WG memory_scope_work_group
__kernel __attribute__((reqd_work_group_size(64, 1, 1)))
void local_atomics(__global const int *in, __global int *res, __global int *slot) {
  __local atomic_int a[8];
  __local atomic_uint b[4];
  uint l = get_local_id(0);
  if (l == 0) {
    __opencl_atomic_store(&a[0], 0x7fffffff, R, WG); __opencl_atomic_store(&a[1], (int)0x80000000, R, WG); __opencl_atomic_store(&a[2], -1, R, WG);
    __opencl_atomic_store(&a[3], 0, R, WG); __opencl_atomic_store(&a[4], 0, R, WG); __opencl_atomic_store(&a[5], -7, R, WG); __opencl_atomic_store(&a[6], 0, R, WG); __opencl_atomic_store(&a[7], 0, R, WG);
    __opencl_atomic_store(&b[0], 0xffffffffu, R, WG); __opencl_atomic_store(&b[1], 0, R, WG); __opencl_atomic_store(&b[2], 0, R, WG); __opencl_atomic_store(&b[3], 0, R, WG);
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  int x = in[get_global_id(0)];
  __opencl_atomic_fetch_min(&a[0], x, R, WG);
  __opencl_atomic_fetch_max(&a[1], x, R, WG);
  __opencl_atomic_fetch_and(&a[2], ~(1 << (x & 31)), R, WG);
  __opencl_atomic_fetch_or(&a[3], 1 << (l & 31), R, WG);
  __opencl_atomic_fetch_xor(&a[4], x, R, WG);
  __opencl_atomic_exchange(&a[5], 5, R, WG);
  int seen = __opencl_atomic_load(&a[6], R, WG), want;
  do { want = seen + (x & 15); } while (!__opencl_atomic_compare_exchange_weak(&a[6], &seen, want, R, R, WG));
  __opencl_atomic_fetch_min(&b[0], (uint)x, R, WG);
  __opencl_atomic_fetch_max(&b[1], (uint)x, R, WG);
  uint ticket = atomic_inc((volatile __local uint *)&b[2]);
  slot[get_global_id(0)] = (int)ticket < 64;
  __opencl_atomic_fetch_add(&b[3], (uint)(x & 0xff), R, WG);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (l < 8) res[get_group_id(0) * 12 + l] = __opencl_atomic_load(&a[l], R, WG);
  else if (l < 12) res[get_group_id(0) * 12 + l] = (int)__opencl_atomic_load(&b[l - 8], R, WG);
}
