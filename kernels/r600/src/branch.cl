__kernel void branch(__global int *out, __global const int *in) {
  int i = get_global_id(0);
  int v = in[i];
  if (v > 0) v = v * 3; else v = -v + 7;
  out[i] = v;
}
