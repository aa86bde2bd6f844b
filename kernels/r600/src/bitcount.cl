__kernel void bitcount(__global uint *out, __global const uint *in) {
  int i = get_global_id(0);
  uint v = in[i], c = 0;
  while (v) { c += v & 1; v >>= 1; }
  out[i] = c;
}
