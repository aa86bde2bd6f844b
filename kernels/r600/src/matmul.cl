__kernel void matmul(__global float *c, __global const float *a, __global const float *b, int n) {
  int col = get_global_id(0), row = get_global_id(1);
  float s = 0.0f;
  for (int k = 0; k < n; k++) s += a[row * n + k] * b[k * n + col];
  c[row * n + col] = s;
}
