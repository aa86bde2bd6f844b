// Trap handler for trap.json: count the lanes that trapped into the TMA buffer, then end the wave.
// (A handler that resumes would add 4 to the PC saved in ttmp[0:1] and s_rfe_b64 back.)
s_sendmsg_rtn_b64 ttmp[2:3], sendmsg(MSG_RTN_GET_TMA)
s_waitcnt lgkmcnt(0)
v_mov_b32 v0, 0
v_mov_b32 v1, 1
global_atomic_add_u32 v0, v1, ttmp[2:3]
s_waitcnt_vscnt null, 0
s_endpgm
