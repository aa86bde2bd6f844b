__kernel void switch_case(__global int *out, __global const int *in) {
  int i = get_global_id(0);
  int v = in[i], r;
  switch (v & 7) {
    case 0: r = v + 1; break;
    case 1: r = v * 5; break;
    case 2: r = v - 9; break;
    case 3: r = v ^ 0x55; break;
    case 5: r = v << 2; break;
    default: r = 42;
  }
  out[i] = r;
}
