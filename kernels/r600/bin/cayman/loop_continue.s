	.text
	.section	.AMDGPU.config,"",@progbits
	.long	166100
	.long	516
	.long	165900
	.long	0
	.long	166120
	.long	0
	.text
	.globl	loop_continue                   ; -- Begin function loop_continue
	.p2align	8
	.type	loop_continue,@function
loop_continue:                          ; @loop_continue
loop_continue$local:
	.type	loop_continue$local,@function
; %bb.0:
	ALU_PUSH_BEFORE 9, @18, KC0[CB0:0-32], KC1[]
	JUMP @12 POP:1
	ALU 3, @28, KC0[CB0:0-32], KC1[]
	LOOP_START_DX10 @11
	ALU 1, @32, KC0[], KC1[]
	TEX 0 @16
	ALU_PUSH_BEFORE 8, @34, KC0[], KC1[]
	JUMP @10 POP:1
	LOOP_BREAK @10
	POP @10 POP:1
	END_LOOP @4
	POP @12 POP:1
	ALU 5, @43, KC0[CB0:0-32], KC1[]
	MEM_RAT_CACHELESS STORE_DWORD T0.X, T1.X
	CF_END
	PAD
	Fetch clause starting at 16:
	  VTX_READ_32 T1.X, T1.X, 0, #1
	ALU clause starting at 18:
	  MULLO_INT   T0.X (MASKED), KC0[1].Z, T1.X,  
	  MULLO_INT   T0.Y, KC0[1].Z, T1.X,  
	  MULLO_INT   T0.Z (MASKED), KC0[1].Z, T1.X,  
	  MULLO_INT * T0.W (MASKED), KC0[1].Z, T1.X,  
	  ADD_INT * T0.W, PV.Y, T0.X,  
	  MOV   T0.X, literal.x,  
	  ADD_INT   T0.Z, PV.W, KC0[3].Y,  
	  SETGT_INT * T0.W, 1, KC0[2].W,  
	0(0.000000e+00), 0(0.000000e+00)
	  PRED_SETE_INT * ExecMask,PredicateBit (MASKED), PV.W, 0.0,  
	ALU clause starting at 28:
	  MOV * T0.X, literal.x,  
	0(0.000000e+00), 0(0.000000e+00)
	  MOV   T1.X, KC0[2].Z,  
	  MOV * T0.W, KC0[2].W,  
	ALU clause starting at 32:
	  ADD_INT * T1.W, T1.X, literal.x,  
	4(5.605194e-45), 0(0.000000e+00)
	ALU clause starting at 34:
	  XOR_INT * T2.W, T1.X, T0.Z,  
	  AND_INT * T3.W, PV.W, 1,  
	  MOV   T1.X, T1.W,  
	  CNDE_INT   T1.Z, PV.W, T2.W, 0.0, 
	  ADD_INT * T0.W, T0.W, literal.x,  BS:VEC_201
	-1(nan), 0(0.000000e+00)
	  ADD_INT   T0.X, PV.Z, T0.X,  
	  SETE_INT * T1.W, PV.W, 0.0,  
	  PRED_SETNE_INT * ExecMask,PredicateBit (MASKED), PV.W, 0.0,  
	ALU clause starting at 43:
	  MOV   T0.Y, KC0[2].Y,  
	  LSHL * T0.W, T0.Z, literal.x,  
	2(2.802597e-45), 0(0.000000e+00)
	  ADD_INT * T0.W, PV.Y, PV.W,  
	  LSHR * T1.X, PV.W, literal.x,  
	2(2.802597e-45), 0(0.000000e+00)
.Lfunc_end0:
	.size	loop_continue, .Lfunc_end0-loop_continue
	.size	loop_continue$local, .Lfunc_end0-loop_continue
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
