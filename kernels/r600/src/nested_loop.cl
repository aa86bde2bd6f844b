__kernel void nested_loop(__global int *out, int n) {
  int i = get_global_id(0);
  int s = 0;
  for (int a = 0; a < n; a++)
    for (int b = 0; b <= (i & 7); b++) {
      if (((a + b) & 3) == 3) break;
      s += a * b + 1;
    }
  out[i] = s;
}
