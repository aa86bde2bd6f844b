__kernel void transcend(__global float *out, __global const float *a) {
  int i = get_global_id(0);
  float x = a[i];
  out[4*i+0] = native_sqrt(x);
  out[4*i+1] = native_recip(x);
  out[4*i+2] = native_exp2(x * 0.25f);
  out[4*i+3] = native_log2(x);
}
