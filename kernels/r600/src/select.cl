__kernel void select_k(__global float *out, __global const float *a, __global const float *b) {
  int i = get_global_id(0);
  float x = a[i], y = b[i];
  out[i] = (x > y) ? x - y : (x == y ? 0.0f : y * 2.0f);
}
