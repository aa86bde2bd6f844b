__kernel void loop_sum(__global int *out, __global const int *in, int n) {
  int i = get_global_id(0);
  int s = 0;
  for (int k = 0; k < n; k++) s += in[k] * (i + k);
  out[i] = s;
}
