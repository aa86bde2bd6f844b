__kernel void vec4k(__global float4 *out, __global const float4 *a, __global const float4 *b) {
  int i = get_global_id(0);
  out[i] = a[i] * b[i] + (float4)(1.0f, 2.0f, 3.0f, 4.0f);
}
