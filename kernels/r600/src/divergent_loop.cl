__kernel void divergent_loop(__global int *out) {
  int i = get_global_id(0);
  int s = 0;
  for (int k = 0; k < (i & 15); k++) s += k * k;
  out[i] = s;
}
