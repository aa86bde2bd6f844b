; Pixel shader (gfx1030): v_interp_* for (u, v), then image_sample on GFX10.3's T#/S# layouts.
; v0/v1 = PERSP_CENTER I/J, s[0:7] T#, s[8:11] S#, s12 = PRIM_MASK (M0 for v_interp_*).
s_wqm_b32 exec_lo, exec_lo                 ; whole quad mode: image_sample's LOD comes from the quad's coordinates
s_mov_b32 m0, s12
v_interp_p1_f32 v2, v0, attr0.x
v_interp_p1_f32 v3, v0, attr0.y
v_interp_p2_f32 v2, v1, attr0.x
v_interp_p2_f32 v3, v1, attr0.y
image_sample v[4:7], v[2:3], s[0:7], s[8:11] dmask:0xf dim:SQ_RSRC_IMG_2D
s_waitcnt vmcnt(0)
exp mrt0 v4, v5, v6, v7 done vm
s_endpgm
