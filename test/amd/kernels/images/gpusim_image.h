// Image helpers beyond the OpenCL C builtins, defined in clc-images.ll.
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
float4 gpusim_load_a16(read_only image2d_t img, short x, short y);
float4 gpusim_sample_l_a16(read_only image2d_t img, sampler_t s, half u, half v, half lod);
float4 gpusim_sample_l(read_only image2d_t img, sampler_t s, float u, float v, float lod);
float2 gpusim_get_lod(read_only image2d_t img, sampler_t s, float u, float v);
int4 gpusim_resinfo(read_only image2d_t img, int mip);
half4 gpusim_sample_lz_a16_d16(read_only image2d_t img, sampler_t s, half u, half v);
half4 gpusim_gather4_lz_d16(read_only image2d_t img, sampler_t s, float u, float v);
