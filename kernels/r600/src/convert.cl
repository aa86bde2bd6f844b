__kernel void convert(__global float *fo, __global int *io, __global const int *a, __global const float *b) {
  int i = get_global_id(0);
  fo[2*i] = (float)a[i];
  fo[2*i+1] = (float)(uint)a[i];
  io[i] = (int)b[i];
}
