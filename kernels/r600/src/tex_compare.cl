// Depth-compare sampling (SAMPLE_C) through llvm.r600.texc: the reference value rides in W.
float4 r600_texc(float4 coord, int ox, int oy, int oz, int rid, int sid, int ctx, int cty, int ctz, int ctw) __asm("llvm.r600.texc");

// Work-item i compares ref[i] with the depth texel (i & 7, i >> 3) of an 8x8 FMT_32_FLOAT texture.
__kernel void tex_compare(__global float *out, __global const float *ref) {
  int i = get_global_id(0);
  float4 c = (float4)((float)(i & 7) + 0.5f, (float)(i >> 3) + 0.5f, 0.0f, ref[i]);
  out[i] = r600_texc(c, 0, 0, 0, 2, 3, 0, 0, 1, 1).x;
}
