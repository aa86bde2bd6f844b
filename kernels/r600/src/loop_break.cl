__kernel void loop_break(__global int *out, __global const int *in, int n) {
  int i = get_global_id(0);
  int s = 0;
  for (int k = 0; k < n; k++) {
    int v = in[(i + k) % n];
    if (v < 0) break;
    s += v;
  }
  out[i] = s;
}
