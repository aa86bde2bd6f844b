// Each work-item swaps its own slot when the slot holds the value it expects (RAT CMPXCHG_INT:
// LLVM puts the new value in X and the compare value in W of the data GPR).
__kernel void atomic_cmpxchg_k(__global int *slots, __global const int *expect) {
  int i = get_global_id(0);
  atomic_cmpxchg(&slots[i], expect[i], i + 1000);
}
