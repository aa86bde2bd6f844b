; Pixel shader (gfx900, wave64): as ps-gfx1030.s, but GFX9 MIMG has no dim field (the T# TYPE
; says 2D) and the address width is free (v[2:3] here: u, v).
s_wqm_b64 exec, exec                       ; whole quad mode: image_sample's LOD comes from the quad's coordinates
s_mov_b32 m0, s12
v_interp_p1_f32 v2, v0, attr0.x
v_interp_p1_f32 v3, v0, attr0.y
v_interp_p2_f32 v2, v1, attr0.x
v_interp_p2_f32 v3, v1, attr0.y
image_sample v[4:7], v[2:3], s[0:7], s[8:11] dmask:0xf
s_waitcnt vmcnt(0)
exp mrt0 v4, v5, v6, v7 done vm
s_endpgm
