; NGG primitive shader (gfx1100, wave32) for a vertex buffer of {position xyzw, colour rgba}.
; s[8:11]  V# of the vertex buffer (user data 0-3), s[12:15] V# of the attribute ring (user data 4-7)
; s3 merged_wave_info: [7:0] vertices, [15:8] primitives; s5 attribute ring offset >> 9
; v0 packed vertex indices of this lane's primitive, v5 VertexID
s_bfe_u32 s16, s3, 0x80000                  ; vertices in the subgroup
s_bfe_u32 s17, s3, 0x80008                  ; primitives in the subgroup
s_lshl_b32 s18, s17, 12
s_or_b32 m0, s16, s18
s_sendmsg sendmsg(MSG_GS_ALLOC_REQ)         ; M0 = vertices | primitives << 12
s_mov_b32 s19, exec_lo
v_mbcnt_lo_u32_b32 v20, -1, 0               ; lane id
v_cmp_gt_u32_e32 vcc_lo, s16, v20
s_and_b32 exec_lo, s19, vcc_lo              ; vertex lanes
buffer_load_format_xyzw v[10:13], v5, s[8:11], 0 idxen
buffer_load_format_xyzw v[14:17], v5, s[8:11], 0 idxen offset:16
s_lshl_b32 s20, s5, 9                       ; attribute ring byte offset of the subgroup
s_waitcnt vmcnt(0)
exp pos0 v10, v11, v12, v13
buffer_store_b128 v[14:17], v20, s[12:15], s20 idxen   ; parameter 0 of vertex lane
s_mov_b32 exec_lo, s19
v_cmp_gt_u32_e32 vcc_lo, s17, v20
s_and_b32 exec_lo, s19, vcc_lo              ; primitive lanes
exp prim v0, off, off, off done
s_endpgm
