	.text
	.section	.AMDGPU.config,"",@progbits
	.long	166100
	.long	258
	.long	165900
	.long	0
	.long	166120
	.long	0
	.text
	.globl	vadd                            ; -- Begin function vadd
	.p2align	8
	.type	vadd,@function
vadd:                                   ; @vadd
vadd$local:
	.type	vadd$local,@function
; %bb.0:
	ALU_PUSH_BEFORE 4, @12, KC0[CB0:0-32], KC1[]
	JUMP @7 POP:1
	ALU 5, @17, KC0[CB0:0-32], KC1[]
	TEX 1 @8
	ALU 4, @23, KC0[CB0:0-32], KC1[]
	MEM_RAT_CACHELESS STORE_RAW T0.X, T1.X, 0
	POP @7 POP:1
	CF_END
	Fetch clause starting at 8:
	  VTX_READ_32 T1.X, T1.X, 0, #1
	  VTX_READ_32 T0.X, T0.X, 0, #1
	ALU clause starting at 12:
	  MULLO_INT * T0.Y, KC0[1].Z, T1.X,  
	  ADD_INT * T0.W, PS, T0.X,  
	  ADD_INT * T0.W, PV.W, KC0[3].Z,  
	  SETGE_INT * T1.W, PV.W, KC0[3].X,  
	  PRED_SETE_INT * ExecMask,PredicateBit (MASKED), PV.W, 0.0,  
	ALU clause starting at 17:
	  LSHL   T0.W, T0.W, literal.x,  
	  MOV * T1.W, KC0[2].Z,  
	2(2.802597e-45), 0(0.000000e+00)
	  ADD_INT   T0.X, PS, PV.W,  
	  MOV * T1.W, KC0[2].W,  
	  ADD_INT * T1.X, PV.W, T0.W,  
	ALU clause starting at 23:
	  MOV * T1.W, KC0[2].Y,  
	  ADD   T0.X, T0.X, T1.X,  
	  ADD_INT * T0.W, PV.W, T0.W,  
	  LSHR * T1.X, PV.W, literal.x,  
	2(2.802597e-45), 0(0.000000e+00)
.Lfunc_end0:
	.size	vadd, .Lfunc_end0-vadd
	.size	vadd$local, .Lfunc_end0-vadd
                                        ; -- End function
	.section	.AMDGPU.csdata,"",@progbits
	;SQ_PGM_RESOURCES:STACK_SIZE = 1
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
