__kernel void private_array(__global int *out, __global const int *in) {
  int i = get_global_id(0);
  int p[4];
  for (int k = 0; k < 4; k++) p[k] = in[4*i + k] * (k + 1);
  out[i] = p[in[i] & 3] + p[(i + 1) & 3];
}
