__kernel void iadd(__global int *c, __global const int *a, __global const int *b) {
  int i = get_global_id(0);
  c[i] = a[i] + b[i];
}
