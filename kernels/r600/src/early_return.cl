__kernel void early_return(__global int *out, __global const int *in) {
  int i = get_global_id(0);
  int v = in[i];
  out[i] = -1;
  if (v < 0) return;
  if (v > 100) { out[i] = 100; return; }
  out[i] = v * 2;
}
