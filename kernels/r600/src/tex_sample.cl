// Texture sampling through LLVM's r600 texture intrinsics (clang has no r600 image builtins and
// libclc no r600 image functions, so the intrinsic is reached through an asm label).
// llvm.r600.tex(coord, offset x/y/z, resource, sampler, coord type x/y/z/w: 1 normalized, 0 texels).
float4 r600_tex(float4 coord, int ox, int oy, int oz, int rid, int sid, int ctx, int cty, int ctz, int ctw) __asm("llvm.r600.tex");

// out[2i]: resource 0 / sampler 0 at texel coordinates (i - 40 + 0.5, (i >> 4) + 0.5): point sampled, wrapping.
// out[2i+1]: resource 1 / sampler 1 at normalized ((i & 15) / 16 * scale, (i >> 4) / 16 * scale): bilinear.
__kernel void tex_sample(__global float4 *out, float scale) {
  int i = get_global_id(0);
  float4 t = (float4)((float)(i - 40) + 0.5f, (float)(i >> 4) + 0.5f, 0.0f, 0.0f);
  out[2 * i] = r600_tex(t, 0, 0, 0, 0, 0, 0, 0, 1, 1);
  float4 n = (float4)((float)(i & 15) * scale, (float)(i >> 4) * scale, 0.0f, 0.0f);
  out[2 * i + 1] = r600_tex(n, 0, 0, 0, 1, 1, 1, 1, 1, 1);
}
