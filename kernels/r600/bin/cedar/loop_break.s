	.text
	.section	.AMDGPU.config,"",@progbits
	.long	166100
	.long	521
	.long	165900
	.long	0
	.long	166120
	.long	0
	.text
	.globl	loop_break                      ; -- Begin function loop_break
	.p2align	8
	.type	loop_break,@function
loop_break:                             ; @loop_break
loop_break$local:
	.type	loop_break$local,@function
; %bb.0:
	ALU_PUSH_BEFORE 6, @18, KC0[CB0:0-32], KC1[]
	JUMP @12 POP:1
	ALU 14, @25, KC0[CB0:0-32], KC1[]
	LOOP_START_DX10 @11
	ALU 17, @40, KC0[], KC1[]
	TEX 0 @16
	ALU_PUSH_BEFORE 8, @58, KC0[], KC1[]
	JUMP @10 POP:1
	LOOP_BREAK @10
	POP @10 POP:1
	END_LOOP @4
	POP @12 POP:1
	ALU 5, @67, KC0[CB0:0-32], KC1[]
	MEM_RAT_CACHELESS STORE_RAW T0.X, T1.X, 1
	CF_END
	PAD
	Fetch clause starting at 16:
	  VTX_READ_32 T1.X, T1.X, 0, #1
	ALU clause starting at 18:
	  MULLO_INT * T0.Y, KC0[1].Z, T1.X,  
	  ADD_INT * T0.W, PS, T0.X,  
	  MOV   T0.X, literal.x,  
	  ADD_INT   T0.W, PV.W, KC0[3].Y,  
	  SETGT_INT * T1.W, 1, KC0[2].W,  
	0(0.000000e+00), 0(0.000000e+00)
	  PRED_SETE_INT * ExecMask,PredicateBit (MASKED), PS, 0.0,  
	ALU clause starting at 25:
	  MOV * T1.W, KC0[2].W,  
	  SETGT_INT * T2.W, 0.0, PV.W,  
	  ADD_INT * T3.W, T1.W, PV.W,  
	  XOR_INT * T2.W, PV.W, T2.W,  
	  SUB_INT   T3.W, 0.0, PV.W,  
	  RECIP_UINT * T1.X, PV.W,  
	  MULLO_INT * T0.Y, PV.W, PS,  
	  MOV   T0.X, literal.x,  
	  MULHI * T1.Y, T1.X, PS,  
	0(0.000000e+00), 0(0.000000e+00)
	  MOV   T0.Y, PV.X,  
	  MOV   T0.Z, literal.x,  
	  ADD_INT   T3.W, T1.X, PS,  
	  MOV * T4.W, KC0[2].Z,  
	1(1.401298e-45), 0(0.000000e+00)
	ALU clause starting at 40:
	  ADD_INT * T5.W, T0.W, T0.Y,  
	  SETGT_INT * T6.W, 0.0, PV.W,  
	  ADD_INT * T5.W, T5.W, PV.W,  
	  XOR_INT * T5.W, PV.W, T6.W,  
	  MULHI * T1.X, PV.W, T3.W,  
	  MULLO_INT * T1.X, PS, T2.W,  
	  SUB_INT * T5.W, T5.W, PS,  
	  SETGE_UINT   T7.W, PV.W, T2.W,  
	  SUB_INT * T8.W, PV.W, T2.W,  
	  CNDE_INT * T5.W, PV.W, T5.W, PS, 
	  SETGE_UINT   T7.W, PV.W, T2.W,  
	  SUB_INT * T8.W, PV.W, T2.W,  
	  CNDE_INT * T5.W, PV.W, T5.W, PS, 
	  XOR_INT * T5.W, PV.W, T6.W,  
	  SUB_INT * T5.W, PV.W, T6.W,  
	  LSHL * T5.W, PV.W, literal.x,  
	2(2.802597e-45), 0(0.000000e+00)
	  ADD_INT * T1.X, T4.W, PV.W,  
	ALU clause starting at 58:
	  MOV   T5.W, T0.Z,  
	  SETGT_INT * T6.W, 0.0, T1.X,  
	  PRED_SETNE_INT * Pred,PredicateBit (MASKED), PS, 0.0,  
	  ADD_INT * T0.Y, T0.Y, 1, Pred_sel_zero 
	  ADD_INT   T0.X, T1.X, T0.X, Pred_sel_zero 
	  SETE_INT * T5.W, T1.W, T0.Y, Pred_sel_zero 
	  AND_INT * T5.W, T5.W, 1,  
	  SETE_INT * T5.W, PV.W, 0.0,  
	  PRED_SETE_INT * ExecMask,PredicateBit (MASKED), PV.W, 0.0,  
	ALU clause starting at 67:
	  MOV   T0.Y, KC0[2].Y,  
	  LSHL * T0.W, T0.W, literal.x,  
	2(2.802597e-45), 0(0.000000e+00)
	  ADD_INT * T0.W, PV.Y, PV.W,  
	  LSHR * T1.X, PV.W, literal.x,  
	2(2.802597e-45), 0(0.000000e+00)
.Lfunc_end0:
	.size	loop_break, .Lfunc_end0-loop_break
	.size	loop_break$local, .Lfunc_end0-loop_break
                                        ; -- End function
	.section	.AMDGPU.csdata,"",@progbits
	;SQ_PGM_RESOURCES:STACK_SIZE = 2
	.hidden	__oclc_ABI_version              ; @__oclc_ABI_version
	.type	__oclc_ABI_version,@object
	.text
	.weak	__oclc_ABI_version
	.p2align	2
__oclc_ABI_version:
	.long	500                             ; 0x1f4
	.size	__oclc_ABI_version, 4

	.ident	"Debian clang version 19.1.7 (3~deb12u1)"
	.section	".note.GNU-stack","",@progbits
	.addrsig
