	.text
	.section	.AMDGPU.config,"",@progbits
	.long	166100
	.long	515
	.long	165900
	.long	0
	.long	166120
	.long	0
	.text
	.globl	collatz                         ; -- Begin function collatz
	.p2align	8
	.type	collatz,@function
collatz:                                ; @collatz
collatz$local:
	.type	collatz$local,@function
; %bb.0:
	ALU_PUSH_BEFORE 7, @14, KC0[CB0:0-32], KC1[]
	JUMP @10 POP:1
	ALU 1, @22, KC0[], KC1[]
	LOOP_START_DX10 @9
	ALU_PUSH_BEFORE 12, @24, KC0[], KC1[]
	JUMP @8 POP:1
	LOOP_BREAK @8
	POP @8 POP:1
	END_LOOP @4
	POP @10 POP:1
	ALU 12, @37, KC0[CB0:0-32], KC1[]
	MEM_RAT_CACHELESS STORE_RAW T1.X, T0.X, 1
	CF_END
	PAD
	ALU clause starting at 14:
	  MULLO_INT * T0.Y, KC0[1].Z, T1.X,  
	  ADD_INT * T0.W, T0.X, PS,  
	  ADD_INT * T0.W, PV.W, KC0[2].W,  
	  ADD_INT * T0.W, PV.W, 1,  
	  MOV   T1.X, literal.x,  
	  SETE_INT * T1.W, PV.W, 1,  
	0(0.000000e+00), 0(0.000000e+00)
	  PRED_SETE_INT * ExecMask,PredicateBit (MASKED), PV.W, 0.0,  
	ALU clause starting at 22:
	  MOV * T0.Z, literal.x,  
	0(0.000000e+00), 0(0.000000e+00)
	ALU clause starting at 24:
	  MULLO_INT * T1.X, T0.W, literal.x,  
	3(4.203895e-45), 0(0.000000e+00)
	  ADD_INT   T1.Z, PS, 1,  
	  LSHR   T1.W, T0.W, 1,  
	  AND_INT * T0.W, T0.W, 1,  
	  CNDE_INT * T0.W, PS, PV.W, PV.Z, 
	  ADD_INT   T1.X, T0.Z, 1,  
	  SETNE_INT   T1.W, PV.W, 1,  
	  SETGT_UINT * T2.W, literal.x, T0.Z,  
	999(1.399897e-42), 0(0.000000e+00)
	  MOV   T0.Z, PV.X,  
	  AND_INT * T1.W, PV.W, PS,  
	  PRED_SETE_INT * ExecMask,PredicateBit (MASKED), PV.W, 0.0,  
	ALU clause starting at 37:
	  MOV   T0.W, KC0[2].W,  
	  MOV * T1.W, KC0[2].Y,  
	  LSHL * T2.W, T0.X, literal.x,  
	2(2.802597e-45), 0(0.000000e+00)
	  ADD_INT   T1.W, T1.W, PV.W,  
	  LSHL * T2.W, T0.Y, literal.x,  
	2(2.802597e-45), 0(0.000000e+00)
	  ADD_INT   T1.W, PV.W, PS,  
	  LSHL * T0.W, T0.W, literal.x,  
	2(2.802597e-45), 0(0.000000e+00)
	  ADD_INT * T0.W, PV.W, PS,  
	  LSHR * T0.X, PV.W, literal.x,  
	2(2.802597e-45), 0(0.000000e+00)
.Lfunc_end0:
	.size	collatz, .Lfunc_end0-collatz
	.size	collatz$local, .Lfunc_end0-collatz
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
