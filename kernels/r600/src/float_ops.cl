__kernel void float_ops(__global float *out, __global const float *a, __global const float *b) {
  int i = get_global_id(0);
  float x = a[i], y = b[i];
  out[6*i+0] = x * y;
  out[6*i+1] = x - y;
  out[6*i+2] = fmax(x, y);
  out[6*i+3] = fmin(x, y);
  out[6*i+4] = fabs(x) + floor(y);
  out[6*i+5] = mad(x, y, 1.5f);
}
