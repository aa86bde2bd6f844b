__kernel void int_ops(__global uint *out, __global const uint *a, __global const uint *b) {
  int i = get_global_id(0);
  uint x = a[i], y = b[i] | 1u;
  out[8*i+0] = x * y;
  out[8*i+1] = x ^ (y << 3);
  out[8*i+2] = (x >> 5) & y;
  out[8*i+3] = (uint)((int)x >> 7);
  out[8*i+4] = x > y ? x : y;
  out[8*i+5] = min(x, y);
  out[8*i+6] = x - y;
  out[8*i+7] = ~x | (y & 0xff00u);
}
