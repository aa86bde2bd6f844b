// Probe: global memory and atomics clang emits for r600 (for the opcode-table generator; never run).
__kernel void mem_ops(__global int *o, __global const short *h, __global const char *c, __global int2 *v2, __global int *at) {
  int i = get_global_id(0);
  o[i] = h[i] + c[i] + (int)((__global const ushort*)h)[i+1] + (int)((__global const uchar*)c)[i+1];
  v2[i] = v2[i + 1] + (int2)(1, 2);
  ((__global short*)o)[i + 100] = (short)i; ((__global char*)o)[i + 500] = (char)i;
  atomic_sub(at, i); atomic_and(at + 1, i); atomic_or(at + 2, i); atomic_xor(at + 3, i);
  atomic_min(at + 4, i); atomic_max(at + 5, i); atomic_xchg(at + 6, i); atomic_inc(at + 7);
  atomic_min((__global uint*)at + 8, (uint)i); atomic_max((__global uint*)at + 9, (uint)i);
  atomic_add(at + 10, 1);
}
