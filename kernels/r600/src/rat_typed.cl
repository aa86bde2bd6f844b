// Typed RAT stores through LLVM's r600 intrinsic (clang has no r600 image builtins and libclc-19 no
// r600 write_image*, so the intrinsic is reached through an asm label).
// llvm.r600.rat.store.typed(data as int4, coordinate (x, y, z, w) as int4, RAT id): STORE_TYPED.
void rat_store_typed(int4 data, int4 coord, uint rat) __asm("llvm.r600.rat.store.typed");

// RAT 1: a w-wide 2D image of float4 texels, texel (i % w, i / w) <- (i * scale, 1 - i * scale, 0.5, (i & 3) / 4).
// RAT 2: a buffer of int4 elements, element i <- (i, -i, 1000 * i, 7).
__kernel void rat_typed(float scale, int w) {
  int i = get_global_id(0);
  float4 v = (float4)((float)i * scale, 1.0f - (float)i * scale, 0.5f, (float)(i & 3) * 0.25f);
  rat_store_typed(as_int4(v), (int4)(i % w, i / w, 0, 0), 1);
  rat_store_typed((int4)(i, -i, 1000 * i, 7), (int4)(i, 0, 0, 0), 2);
}
