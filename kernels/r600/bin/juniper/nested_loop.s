	.text
	.section	.AMDGPU.config,"",@progbits
	.long	166100
	.long	774
	.long	165900
	.long	0
	.long	166120
	.long	0
	.text
	.globl	nested_loop                     ; -- Begin function nested_loop
	.p2align	8
	.type	nested_loop,@function
nested_loop:                            ; @nested_loop
nested_loop$local:
	.type	nested_loop$local,@function
; %bb.0:
	ALU_PUSH_BEFORE 6, @20, KC0[CB0:0-32], KC1[]
	JUMP @17 POP:1
	ALU 8, @27, KC0[CB0:0-32], KC1[]
	LOOP_START_DX10 @16
	ALU 1, @36, KC0[], KC1[]
	LOOP_START_DX10 @11
	ALU_PUSH_BEFORE 14, @38, KC0[], KC1[]
	JUMP @10 POP:1
	LOOP_BREAK @10
	POP @10 POP:1
	END_LOOP @6
	ALU_PUSH_BEFORE 2, @53, KC0[], KC1[]
	JUMP @15 POP:1
	LOOP_BREAK @15
	POP @15 POP:1
	END_LOOP @4
	POP @17 POP:1
	ALU 5, @56, KC0[CB0:0-32], KC1[]
	MEM_RAT_CACHELESS STORE_RAW T0.X, T1.X, 1
	CF_END
	ALU clause starting at 20:
	  MULLO_INT * T0.Y, KC0[1].Z, T1.X,  
	  ADD_INT * T0.W, PS, T0.X,  
	  MOV   T0.X, literal.x,  
	  ADD_INT   T0.W, PV.W, KC0[3].X,  
	  SETGT_INT * T1.W, 1, KC0[2].Z,  
	0(0.000000e+00), 0(0.000000e+00)
	  PRED_SETE_INT * ExecMask,PredicateBit (MASKED), PS, 0.0,  
	ALU clause starting at 27:
	  AND_INT   T2.W, T0.W, literal.x,  
	  MOV * T1.W, literal.y,  
	7(9.809089e-45), 0(0.000000e+00)
	  MOV   T0.X, PS,  
	  MOV   T0.Y, PS,  
	  MOV   T0.Z, literal.x,  
	  ADD_INT   T2.W, PV.W, 1,  
	  MOV * T3.W, KC0[2].Z,  
	1(1.401298e-45), 0(0.000000e+00)
	ALU clause starting at 36:
	  MOV   T1.X, T1.W,  
	  MOV * T1.Y, T1.W,  
	ALU clause starting at 38:
	  ADD_INT * T4.W, T0.Y, T1.X,  
	  AND_INT   T5.W, PV.W, literal.x,  
	  MOV * T4.W, T0.Z,  
	3(4.203895e-45), 0(0.000000e+00)
	  SETE_INT * T5.W, PV.W, literal.x,  
	3(4.203895e-45), 0(0.000000e+00)
	  PRED_SETNE_INT * Pred,PredicateBit (MASKED), PV.W, 0.0,  
	  ADD_INT   T1.X, T1.X, 1, Pred_sel_zero 
	  ADD_INT * T4.W, T0.X, T1.Y, Pred_sel_zero BS:VEC_120/SCL_212
	  ADD_INT   T0.X, T4.W, 1, Pred_sel_zero 
	  SETE_INT * T4.W, T2.W, T1.X, Pred_sel_zero BS:VEC_120/SCL_212
	  ADD_INT * T1.Y, T1.Y, T0.Y, Pred_sel_zero 
	  AND_INT * T4.W, T4.W, 1,  
	  SETE_INT * T4.W, PV.W, 0.0,  
	  PRED_SETE_INT * ExecMask,PredicateBit (MASKED), PV.W, 0.0,  
	ALU clause starting at 53:
	  ADD_INT * T0.Y, T0.Y, 1,  
	  SETE_INT * T4.W, PV.Y, T3.W,  
	  PRED_SETNE_INT * ExecMask,PredicateBit (MASKED), PV.W, 0.0,  
	ALU clause starting at 56:
	  MOV   T0.Y, KC0[2].Y,  
	  LSHL * T0.W, T0.W, literal.x,  
	2(2.802597e-45), 0(0.000000e+00)
	  ADD_INT * T0.W, PV.Y, PV.W,  
	  LSHR * T1.X, PV.W, literal.x,  
	2(2.802597e-45), 0(0.000000e+00)
.Lfunc_end0:
	.size	nested_loop, .Lfunc_end0-nested_loop
	.size	nested_loop$local, .Lfunc_end0-nested_loop
                                        ; -- End function
	.section	.AMDGPU.csdata,"",@progbits
	;SQ_PGM_RESOURCES:STACK_SIZE = 3
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
