__kernel void atomic_add_k(__global int *counter, __global const int *in) {
  int i = get_global_id(0);
  atomic_add(counter, in[i]);
}
