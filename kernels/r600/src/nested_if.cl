__kernel void nested_if(__global int *out, __global const int *in) {
  int i = get_global_id(0);
  int v = in[i];
  int r = 0;
  if (v & 1) {
    if (v & 2) {
      if (v & 4) r = 7; else r = 6;
    } else {
      r = 5;
    }
  } else {
    if (v & 8) r = 3; else r = v >> 4;
  }
  out[i] = r;
}
