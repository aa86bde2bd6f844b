; a6xx fragment shader: HLSQ preloads i/j in r0.x/r0.y (HLSQ_CONTROL_3_REG IJ_PERSP_PIXEL);
; bary.f interpolates VPC locations 0..3 (the colour) into r1, SP_FS_OUTPUT[0] reads r1.
(rpt3)bary.f (ei)r1.x, (r)0, r0.x
end
