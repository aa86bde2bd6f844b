// Probe: the texture fetches LLVM 19's r600 backend selects (llvm.r600.tex -> SAMPLE, llvm.r600.texc ->
// SAMPLE_C; txl/txb/txf/txq/ddx/ddy are declared intrinsics it cannot select). Reached through asm
// labels since clang has no r600 texture builtins and libclc no r600 image functions. Never run.
float4 r600_tex(float4 c, int ox, int oy, int oz, int rid, int sid, int ctx, int cty, int ctz, int ctw) __asm("llvm.r600.tex");
float4 r600_texc(float4 c, int ox, int oy, int oz, int rid, int sid, int ctx, int cty, int ctz, int ctw) __asm("llvm.r600.texc");
__kernel void tex_ops(__global float4 *out, float s) {
  int i = get_global_id(0);
  float4 c = (float4)(i * s, 0.5f, s, 2.0f);
  out[2 * i] = r600_tex(c, 1, -2, 3, 1, 2, 1, 0, 1, 0);
  out[2 * i + 1] = r600_texc(c, 0, 0, 0, 3, 4, 0, 1, 0, 1);
}
