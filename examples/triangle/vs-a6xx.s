; a6xx vertex shader: VFD puts the position in r0, the colour in r1 (VFD_DEST_CNTL);
; SP_VS_OUT hands r2 (colour, VPC location 0) and r3 (position, location 4) to the VPC.
(rpt3)mov.f32f32 r2.x, (r)r1.x
(rpt3)mov.f32f32 r3.x, (r)r0.x
end
