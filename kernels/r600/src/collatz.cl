__kernel void collatz(__global uint *out) {
  uint i = get_global_id(0) + 1;
  uint n = i, steps = 0;
  while (n != 1 && steps < 1000) {
    n = (n & 1) ? 3 * n + 1 : n >> 1;
    steps++;
  }
  out[get_global_id(0)] = steps;
}
