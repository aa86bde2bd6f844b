; a6xx fragment shader: HLSQ preloads i/j in r0.x/r0.y (HLSQ_CONTROL_3_REG IJ_PERSP_PIXEL);
; bary.f interpolates VPC locations 0 and 1 (the vertex's u, v) into r1.x/r1.y; sam filters
; t#0 (A6XX_TEX_CONST in SB6_FS_TEX) with s#0 (A6XX_TEX_SAMP) at them into r2; SP_FS_OUTPUT[0]
; reads r2.
(rpt1)bary.f (ei)r1.x, (r)0, r0.x
sam (f32)(xyzw)r2.x, r1.x, s#0, t#0
(sy)mov.f32f32 r2.x, r2.x
end
