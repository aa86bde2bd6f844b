// OpenCL image kernels for test/amd/mimg-opencl.test.ts: the image builtins come from
// clc-images.ll (LLVM's llvm.amdgcn.image.* intrinsics), the rest from libclc 19.
#include "gpusim_hsa.h" // get_global_id on the HSA implicit-argument layout (kernels/README.md, libclc)
#include "gpusim_image.h"

// Sizes: get_image_* on 2D, 3D and 2D-array images, and (width, height, -, levels) per mip level
// (levels 0..3 of a 4-level image, then level 4, past the last).
__kernel void sizes(read_only image2d_t a, read_only image3d_t b, read_only image2d_array_t c, __global int *out) {
  out[0] = get_image_width(a);
  out[1] = get_image_height(a);
  out[2] = get_image_width(b);
  out[3] = get_image_height(b);
  out[4] = get_image_depth(b);
  out[5] = (int)get_image_array_size(c);
  out[6] = get_image_num_mip_levels(a);
  for (int l = 0; l < 5; l++) {
    int4 r = gpusim_resinfo(a, l);
    out[8 + 4 * l] = r.x;
    out[9 + 4 * l] = r.y;
    out[10 + 4 * l] = r.z;
    out[11 + 4 * l] = r.w;
  }
}

// read_imagef with a sampler at coordinates from a buffer (u, v pairs).
__kernel void sample2d(read_only image2d_t img, sampler_t s, __global const float2 *uv, __global float4 *out) {
  int i = get_global_id(0);
  out[i] = read_imagef(img, s, uv[i]);
}

// read_imagef with integer coordinates, one work-item per texel (and a border of misses).
__kernel void load2d(read_only image2d_t img, __global float4 *out) {
  int x = get_global_id(0), y = get_global_id(1);
  out[y * get_global_size(0) + x] = read_imagef(img, (int2)(x - 1, y - 1));
}

// read_imagei: signed integer texels.
__kernel void loadi(read_only image2d_t img, __global int4 *out) {
  int x = get_global_id(0), y = get_global_id(1);
  out[y * get_global_size(0) + x] = read_imagei(img, (int2)(x, y));
}

// write_imagef: values from a buffer into the image (converted by its format).
__kernel void write2d(write_only image2d_t img, __global const float4 *in) {
  int x = get_global_id(0), y = get_global_id(1);
  write_imagef(img, (int2)(x, y), in[y * get_global_size(0) + x]);
}

// Half images: read_imageh (image_load d16) doubled, written with write_imageh (image_store d16),
// and read_imageh with a sampler (image_sample_lz d16).
__kernel void halves(read_only image2d_t src, write_only image2d_t dst, sampler_t s, __global half4 *out) {
  int x = get_global_id(0), y = get_global_id(1);
  half4 t = read_imageh(src, (int2)(x, y));
  write_imageh(dst, (int2)(x, y), t * (half)2);
  out[y * get_global_size(0) + x] = read_imageh(src, s, (float2)((x + 0.5f) / get_image_width(src), (y + 0.5f) / get_image_height(src)));
}

// 3D: integer loads and sampled reads at coordinates from a buffer (u, v, w, -).
__kernel void load3d(read_only image3d_t img, __global float4 *out) {
  int x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);
  out[(z * get_global_size(1) + y) * get_global_size(0) + x] = read_imagef(img, (int4)(x, y, z, 0));
}
__kernel void sample3d(read_only image3d_t img, sampler_t s, __global const float4 *uvw, __global float4 *out) {
  int i = get_global_id(0);
  out[i] = read_imagef(img, s, uvw[i]);
}

// 2D arrays: integer loads (layer in z) and sampled reads (u, v, layer, -).
__kernel void array2d(read_only image2d_array_t img, sampler_t s, __global const float4 *uvl, __global float4 *out) {
  int i = get_global_id(0);
  int4 c = convert_int4(uvl[i]);
  out[2 * i] = read_imagef(img, c);
  out[2 * i + 1] = read_imagef(img, s, uvl[i]);
}

// 16-bit addresses: image_load a16 at (x, y) and image_sample_l a16 at f16 (u, v, lod), image_sample_lz a16 d16.
__kernel void a16(read_only image2d_t img, sampler_t s, __global const float4 *uvl, __global float4 *out, __global half4 *hout) {
  int i = get_global_id(0);
  out[2 * i] = gpusim_load_a16(img, (short)(i % 8), (short)(i / 8));
  float4 c = uvl[i];
  out[2 * i + 1] = gpusim_sample_l_a16(img, s, (half)c.x, (half)c.y, (half)c.z);
  hout[i] = gpusim_sample_lz_a16_d16(img, s, (half)c.x, (half)c.y);
}

// Mip chains: image_sample_l at (u, v, lod) from a buffer.
__kernel void mips(read_only image2d_t img, sampler_t s, __global const float4 *uvl, __global float4 *out) {
  int i = get_global_id(0);
  float4 c = uvl[i];
  out[i] = gpusim_sample_l(img, s, c.x, c.y, c.z);
}

// image_get_lod: each quad of work-items (TL, TR, BL, BR) steps by (dx, dy) per quad in a buffer.
__kernel void lod(read_only image2d_t img, sampler_t s, __global const float4 *steps, __global float2 *out) {
  int i = get_global_id(0);
  float4 st = steps[i / 4];
  int q = i & 3;
  float u = st.x + (q & 1) * st.z, v = st.y + (q >> 1) * st.w;
  out[i] = gpusim_get_lod(img, s, u, v);
}

// image_gather4_lz d16: the red channels of the 2x2 footprint at (u, v).
__kernel void gather(read_only image2d_t img, sampler_t s, __global const float2 *uv, __global half4 *out) {
  int i = get_global_id(0);
  out[i] = gpusim_gather4_lz_d16(img, s, uv[i].x, uv[i].y);
}
