; NGG primitive shader (gfx1030, wave32) for a vertex buffer of {position xyzw, colour rgba}.
; s3 merged_wave_info: [7:0] vertices, [15:8] primitives; s[8:9] the vertex buffer's address;
; v0 = vertex 0 | vertex 1 << 16, v1 = vertex 2 of this lane's primitive, v5 VertexID
s_bfe_u32 s16, s3, 0x80000                         ; vertices in the subgroup
s_bfe_u32 s17, s3, 0x80008                         ; primitives in the subgroup
s_lshl_b32 s18, s17, 12
s_or_b32 m0, s16, s18
s_sendmsg sendmsg(MSG_GS_ALLOC_REQ)                ; M0 = vertices | primitives << 12
s_mov_b32 s19, exec_lo
v_mbcnt_lo_u32_b32 v20, -1, 0                      ; lane id
v_cmp_gt_u32_e32 vcc_lo, s16, v20
s_and_b32 exec_lo, s19, vcc_lo                     ; vertex lanes
v_lshlrev_b32 v21, 5, v5
global_load_dwordx4 v[10:13], v21, s[8:9]
global_load_dwordx4 v[14:17], v21, s[8:9] offset:16
s_waitcnt vmcnt(0)
exp pos0 v10, v11, v12, v13 done
exp param0 v14, v15, v16, v17                      ; GFX10.3 NGG: parameters go to the parameter cache
s_mov_b32 exec_lo, s19
v_cmp_gt_u32_e32 vcc_lo, s17, v20
s_and_b32 exec_lo, s19, vcc_lo                     ; primitive lanes
v_and_b32 v22, 0xffff, v0
v_lshrrev_b32 v23, 16, v0
v_lshl_or_b32 v22, v23, 10, v22                    ; the primitive export: [8:0] v0, [18:10] v1, [28:20] v2
v_lshl_or_b32 v22, v1, 20, v22
exp prim v22, off, off, off done
s_endpgm
