// Probe: float ALU ops clang emits for r600 (for the opcode-table generator; never run).
__kernel void alu_float(__global float *o, __global const float *a) {
  int i = get_global_id(0);
  float x = a[i], y = a[i + 1], z = a[i + 2];
  o[0] = native_sin(x); o[1] = native_cos(y); o[2] = trunc(x); o[3] = ceil(y); o[4] = rint(z);
  o[5] = floor(x); o[6] = x - floor(x); o[7] = native_rsqrt(y); o[8] = native_divide(x, y);
  o[9] = fma(x, y, z); o[10] = x * y + z; o[11] = x == y ? z : x; o[12] = x > y ? z : y;
  o[13] = x >= y ? z : x; o[14] = x != y ? 1.0f : 2.0f; o[15] = native_exp2(x); o[16] = native_log2(y);
  o[17] = fmax(x, z); o[18] = fmin(y, z); o[19] = -fabs(x) * y; o[20] = clamp(x, 0.0f, 1.0f);
  o[21] = (float)(uint)(x); o[22] = (float)((int)y >> 3); o[23] = x / y; o[24] = sqrt(z);
  o[25] = vload_half(0, (__global const half *)a); vstore_half(x, 52, (__global half *)o);
}
