; Hardware VS (gfx1030 and gfx900, wave64) for a vertex buffer of {position xyzw, colour rgba}.
; s[0:1] the vertex buffer's address (user data 0-1), v0 VertexID
v_lshlrev_b32 v1, 5, v0                            ; 32 bytes per vertex
global_load_dwordx4 v[4:7], v1, s[0:1]             ; position
global_load_dwordx4 v[8:11], v1, s[0:1] offset:16  ; colour
s_waitcnt vmcnt(0)
exp param0 v8, v9, v10, v11                        ; parameter 0 into the parameter cache
exp pos0 v4, v5, v6, v7 done                       ; the last position export carries done
s_endpgm
